"""The page of ``sudoku-csp serve`` in a real headless browser: Debian's chromium, driven by
selenium through Debian's chromedriver (``.ci/run`` installs both). It loads a puzzle and
shows its true candidates with their counts and the givens that make it unique; a puzzle
with no solution shows the conflict; a long count shows its progress and is cancelled.

Every wait is for what the page shows, with a generous bound. Without chromium the tests
are skipped on a developer's machine and fail in CI (``CI`` set), where they must run."""

from __future__ import annotations

import os
import shutil

import pytest
from serving import running_service

from sudoku_csp import parse, true_candidates

pytestmark = [pytest.mark.slow, pytest.mark.browser]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-dev-shm-usage", "--window-size=1200,2000")
WAIT = 120


@pytest.fixture(scope="module")
def browser():
    missing = [p for p in (CHROMIUM, DRIVER) if not os.access(p, os.X_OK)]
    if missing:
        message = f"no {' or '.join(missing)}: apt-get install chromium chromium-driver"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ARGS:
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def page(browser):
    with running_service("--workers", "2") as (port, _):
        browser.get(f"http://127.0.0.1:{port}/")
        _until(browser, lambda b: _text(b, "status").startswith("Connected"))
        yield browser


def _text(browser, element: str) -> str:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.ID, element).text


def _until(browser, condition) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, WAIT, poll_frequency=0.05).until(condition)


def _analyse(browser, puzzle: str, end: str) -> None:
    from selenium.webdriver.common.by import By

    box = browser.find_element(By.ID, "puzzle-input")
    box.clear()
    box.send_keys(puzzle)
    browser.find_element(By.ID, "analyse").click()
    _until(browser, lambda b: _text(b, "status") == end
           or "error" in b.find_element(By.ID, "status").get_attribute("class"))
    assert _text(browser, "status") == end


def test_a_puzzle_shows_its_true_candidates_with_their_counts(page):
    from selenium.webdriver.common.by import By

    _analyse(page, "12..34..2.......", "Done.")
    assert page.find_element(By.CSS_SELECTOR, "#picture svg")
    assert page.find_element(By.CSS_SELECTOR, "#candidates svg")
    assert _text(page, "verdict").startswith("multiple")
    page.find_element(By.CSS_SELECTOR, "#candidates-section summary").click()
    tc = true_candidates("12..34..2.......", cap=8)
    expected = [f"R{c // 4 + 1}C{c % 4 + 1}: " + ", ".join(
        f"{d + 1} ×{tc.counts[c][d]}" for d in tc.candidates(c)) for c in tc.open_cells()]
    assert _text(page, "counts").splitlines() == expected
    assert "R3C3=1" in _text(page, "unique-message")
    link = page.find_element(By.CSS_SELECTOR, "#links a.fpuzzles").get_attribute("href")
    assert parse(link) == parse("12..34..2.......")


def test_a_puzzle_with_no_solution_shows_the_conflict(page):
    from selenium.webdriver.common.by import By

    _analyse(page, "11..............", "No solution.")
    assert _text(page, "conflict-message") == ("no solution: these 2 parts conflict: "
                                               "given R1C1=1, given R1C2=1")
    assert page.find_element(By.CSS_SELECTOR, "#conflict svg")
    assert not page.find_element(By.ID, "candidates-section").is_displayed()


def test_a_long_count_shows_progress_and_is_cancelled(page):
    from selenium.webdriver.common.by import By

    box = page.find_element(By.ID, "puzzle-input")
    box.clear()
    box.send_keys("." * 81)
    page.find_element(By.ID, "count").click()
    _until(page, lambda b: "so far" in _text(b, "count-result"))
    assert _text(page, "status").startswith("Working: counting solutions")
    page.find_element(By.ID, "cancel").click()
    _until(page, lambda b: _text(b, "status") == "Cancelled.")
    assert _text(page, "count-result").endswith("(cancelled)")
