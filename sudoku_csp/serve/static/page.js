// The page of `sudoku-csp serve`: it asks the service the same way the f-puzzles userscript
// does (one websocket, a nonce per message, replies with other nonces ignored), with the
// service's own commands besides (read, verdicts, conflict, disambiguate) and pictures.
"use strict";

const $ = (id) => document.getElementById(id);

let socket = null;
let nonce = 0;
let pending = null; // {nonce, resolve, reject, onProgress}: the request in flight
let timer = null;

function setStatus(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = kind;
}

function working(what) {
  const started = performance.now();
  clearInterval(timer);
  const show = () => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    setStatus(`Working: ${what}… ${seconds} s`, "working");
  };
  show();
  timer = setInterval(show, 250);
  $("cancel").disabled = false;
}

function idle(text, kind = "") {
  clearInterval(timer);
  timer = null;
  $("cancel").disabled = true;
  setStatus(text, kind);
}

function connect() {
  if (socket && socket.readyState === WebSocket.OPEN) return Promise.resolve(socket);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/`);
    ws.onopen = () => {
      socket = ws;
      resolve(ws);
    };
    ws.onerror = () => reject(new Error("cannot reach the service: is sudoku-csp serve running?"));
    ws.onclose = () => {
      socket = null;
      if (pending) {
        pending.reject(new Error("the connection closed"));
        pending = null;
      }
    };
    ws.onmessage = (event) => {
      const reply = JSON.parse(event.data);
      if (!pending || reply.nonce !== pending.nonce) return; // an older request's
      if (reply.type === "count" && reply.inProgress) {
        pending.onProgress(reply);
        return;
      }
      const done = pending;
      pending = null;
      done.resolve(reply);
    };
  });
}

// One request on the puzzle in the text box; its final reply ({type: "canceled"} when the
// Cancel button stopped it).
async function ask(command, fields = {}, onProgress = () => {}) {
  const ws = await connect();
  nonce += 1;
  const message = {
    nonce, command, dataType: "text", data: $("puzzle-input").value.trim(), pictures: true,
    ...fields,
  };
  if (pending) pending.resolve({ type: "canceled" }); // the service cancels it too
  return new Promise((resolve, reject) => {
    pending = { nonce, resolve, reject, onProgress };
    ws.send(JSON.stringify(message));
  });
}

function cancel() {
  if (!pending || !socket) return;
  // The reply to the cancel settles the request it stops: both carry the cancel's nonce.
  nonce += 1;
  pending.nonce = nonce;
  socket.send(JSON.stringify({ nonce, command: "cancel" }));
  setStatus("Cancelling…", "working");
}

function show(id, on = true) {
  $(id).hidden = !on;
}

function listInto(id, lines) {
  const list = $(id);
  list.replaceChildren(...lines.map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
}

function reset() {
  for (const id of ["puzzle-section", "verdicts-section", "candidates-section",
    "conflict-section", "unique-section", "path-section"]) show(id, false);
  for (const id of ["picture", "candidates", "conflict", "unique", "path"]) {
    $(id).replaceChildren();
  }
  for (const id of ["verdict", "count-result", "candidates-summary", "counts",
    "conflict-message", "unique-message", "path-summary", "links"]) {
    $(id).textContent = "";
  }
}

function showPuzzle(reply) {
  $("title").textContent = reply.title ? reply.title : `A ${reply.geometry} puzzle`;
  $("picture").innerHTML = reply.svg; // the service's own picture
  listInto("rules", [`${reply.geometry}, ${reply.givens} givens`, ...reply.rules]);
  listInto("notes", reply.notes || []);
  const links = $("links");
  links.replaceChildren();
  if (reply.links.error) {
    links.textContent = `No link: ${reply.links.error}`;
  } else {
    for (const [name, href] of [["Open in f-puzzles", reply.links.fpuzzles],
      ["Open in SudokuPad", reply.links.sudokupad]]) {
      const a = document.createElement("a");
      a.href = href;
      a.textContent = name;
      a.target = "_blank";
      a.rel = "noopener";
      a.className = name.endsWith("f-puzzles") ? "fpuzzles" : "sudokupad";
      links.append(a, " ");
    }
  }
  show("puzzle-section");
}

function showVerdicts(reply) {
  const words = reply.agreed ? "agreed by the backends that decided" : "not cross-checked";
  $("verdict").textContent = `${reply.status} (${words}: ${reply.decided})`;
  const body = $("verdicts").tBodies[0];
  body.replaceChildren(...reply.backends.map((b) => {
    const row = document.createElement("tr");
    for (const value of [b.spec, b.verdict, (1000 * b.seconds).toFixed(1), b.note]) {
      const cell = document.createElement("td");
      cell.textContent = value;
      row.append(cell);
    }
    return row;
  }));
  show("verdicts-section");
}

function cellName(cell, size) {
  return `R${Math.floor(cell / size) + 1}C${(cell % size) + 1}`;
}

function showCandidates(reply, size) {
  const counts = reply.solutionsPerCandidate;
  const cells = counts.length / size;
  const lines = [];
  let open = 0;
  for (let cell = 0; cell < cells; cell++) {
    const here = [];
    for (let d = 0; d < size; d++) {
      const k = counts[cell * size + d];
      if (k) here.push(`${d + 1} ×${k}${k >= reply.cap && reply.cap > 1 ? "+" : ""}`);
    }
    if (here.length > 1) {
      open += 1;
      lines.push(`${cellName(cell, Math.sqrt(cells))}: ${here.join(", ")}`);
    }
  }
  const solutions = reply.status === "unique" ? "one solution" : "several solutions";
  $("candidates-summary").textContent =
    `${solutions}; ${open} cells open (counts up to ${reply.cap} solutions; ` +
    `${reply.calls} solver calls, ${(1000 * reply.seconds).toFixed(0)} ms)`;
  $("candidates").innerHTML = reply.svg;
  $("counts").textContent = lines.join("\n") || "every cell settled";
  show("candidates-section");
}

function showConflict(reply) {
  $("conflict-message").textContent = reply.message;
  if (reply.svg) $("conflict").innerHTML = reply.svg;
  show("conflict-section");
}

function showUnique(reply) {
  let words = reply.message;
  if (reply.singles && reply.singles.length) {
    const shown = reply.singles.slice(0, 40).join(", ");
    words = `${reply.singles.length} single givens each make it unique: ${shown}` +
      (reply.singles.length > 40 ? ", …" : "");
  }
  $("unique-message").textContent = words;
  if (reply.svg) $("unique").innerHTML = reply.svg;
  show("unique-section");
}

function showPath(reply) {
  $("path-summary").textContent = reply.message.trim().split("\n").pop();
  if (reply.html) $("path").innerHTML = reply.html; // the explainer's own HTML
  show("path-section");
}

// Stops the analysis after a reply that is not the one hoped for; true when it did.
function halted(reply, expected) {
  if (reply.type === expected) return false;
  if (reply.type === "canceled") idle("Cancelled.");
  else idle(reply.message || `unexpected reply: ${reply.type}`, "error");
  return true;
}

async function analyse(event) {
  event.preventDefault();
  if (!$("puzzle-input").value.trim()) return;
  reset();
  try {
    working("reading the puzzle");
    const read = await ask("read");
    if (halted(read, "puzzle")) return;
    showPuzzle(read);

    working("each backend's verdict");
    const verdicts = await ask("verdicts");
    if (halted(verdicts, "verdicts")) return;
    showVerdicts(verdicts);

    working("true candidates");
    const cap = Math.max(1, parseInt($("cap").value, 10) || 1);
    const tc = await ask("truecandidates", { cap });
    if (tc.type === "invalid" && tc.status === "none") {
      showConflict(tc);
      idle("No solution.");
      return;
    }
    if (halted(tc, "truecandidates")) return;
    showCandidates(tc, read.size);

    if (tc.status === "multiple") {
      working("givens that make it unique");
      const unique = await ask("disambiguate");
      if (halted(unique, "disambiguation")) return;
      showUnique(unique);
    } else {
      working("the logical path");
      const path = await ask("solvepath");
      if (halted(path, "logical")) return;
      showPath(path);
    }
    idle("Done.");
  } catch (error) {
    idle(error.message, "error");
  }
}

async function count() {
  if (!$("puzzle-input").value.trim()) return;
  $("count-result").textContent = "";
  show("verdicts-section");
  try {
    working("counting solutions");
    const reply = await ask("count", {}, (progress) => {
      $("count-result").textContent = `Found ${progress.count} solutions so far…`;
    });
    if (reply.type === "count") {
      $("count-result").textContent = `${reply.count} solution${reply.count === 1 ? "" : "s"}` +
        (reply.count === 0 && reply.message ? `: ${reply.message}` : "");
      idle("Done.");
    } else if (reply.type === "canceled") {
      $("count-result").textContent += " (cancelled)";
      idle("Cancelled.");
    } else {
      idle(reply.message, "error");
    }
  } catch (error) {
    idle(error.message, "error");
  }
}

$("ask").addEventListener("submit", analyse);
$("count").addEventListener("click", count);
$("cancel").addEventListener("click", cancel);
connect().then(() => idle("Connected: paste a puzzle."),
  (error) => idle(error.message, "error"));
