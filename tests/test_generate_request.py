"""The generation request: it checks itself with the command line's messages, picks one
generator, says in words the options that reproduce it, and `make` yields what the picked
generator yields."""

from __future__ import annotations

import pytest

from sudoku_csp import InputError, make_geometry, to_line
from sudoku_csp.generate import (
    Difficulty,
    Request,
    generate,
    generate_killers,
    generate_variants,
    make,
)


@pytest.mark.parametrize(("request_", "generator"), [
    (Request(), "plain"),
    (Request(difficulty="easy"), "plain"),
    (Request(kinds=("thermo", "Parity")), "kinds"),
    (Request(kinds=("thermometer",), negative=None), "kinds"),
    (Request(kinds=("killer",)), "killer"),
    (Request(kinds=("cage",), min_cage=3), "killer"),
], ids=repr)
def test_one_generator_per_request(request_, generator):
    assert request_.generator == generator


def test_derived_fields():
    r = Request(size=6, box=(3, 2), variants=("x",), kinds=("parity", "thermometer"))
    assert r.geometry == make_geometry(6, (3, 2), ["diagonal"])
    assert r.makers == ("thermometer", "parity")  # registry order, the kinds' names
    assert Request(min_rating=2.0).target == Difficulty(min_rating=2.0)
    assert Request().target is None


@pytest.mark.parametrize(("options", "message"), [
    ({"kinds": ("killer", "thermo")}, "--kind killer combines with no other kind"),
    ({"kinds": ("killer",), "minimal": True, "symmetry": "rot180"},
     "generate --kind killer does not take --minimal, --symmetry: a killer has no givens"),
    ({"kinds": ("killer",), "negative": False, "max_givens": 2},
     "does not take --no-negative, --max-givens"),
    ({"min_cage": 3}, "--min-cage: only with --kind killer"),
    ({"kinds": ("thermo",), "merges": 1}, "--merges: only with --kind killer"),
    ({"kinds": ("thermo",), "difficulty": "easy"}, "generate --kind does not take --difficulty"),
    ({"negative": True}, "--negative: only with --kind"),
    ({"kinds": ("thermo",), "negative": True},
     "--negative: only with --kind kropki or --kind xv"),
    ({"max_givens": 3}, "--max-givens: only with --kind"),
    ({"difficulty": "hardest"}, "unknown difficulty 'hardest'"),
    ({"kinds": ("bogus",)}, "unknown kind to generate 'bogus'"),
    ({"size": 7}, "size 7 has no box shape"),
    ({"size": 7, "kinds": ("bogus",)}, "size 7 has no box shape"),  # the geometry first
], ids=str)
def test_what_does_not_go_together_is_refused(options, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        Request(**options)


@pytest.mark.parametrize(("request_", "words"), [
    (Request(count=2, seed=5), "--count 2 --size 9 --symmetry none --seed 5"),
    (Request(size=6, box=(3, 2), variants=("x",), minimal=True, symmetry="rot180",
             difficulty="easy", min_rating=1.2, allow_search=False, attempts=3),
     "--count 1 --size 6 --box 3x2 --variant x --symmetry rot180 --minimal "
     "--difficulty easy --min-rating 1.2 --attempts 3 --seed 0"),
    (Request(kinds=("parity", "kropki"), negative=False, max_givens=4),
     "--kind kropki --kind parity --count 1 --size 9 --symmetry none --no-negative "
     "--max-givens 4 --seed 0"),
    (Request(kinds=("killer",), size=6, max_cage=4, merges=2),
     "--kind killer --count 1 --size 6 --max-cage 4 --merges 2 --seed 0"),
], ids=lambda r: getattr(r, "generator", r))
def test_words_say_the_options_that_reproduce_the_request(request_, words):
    assert " ".join(request_.words()) == words


def test_make_yields_what_the_picked_generator_yields():
    four, six = make_geometry(4), make_geometry(6)
    lines = [to_line(p) for p in make(Request(count=2, size=4, seed=3))]
    assert lines == [to_line(p) for p in generate(four, count=2, seed=3)]
    lines = [to_line(p) for p in make(Request(size=6, kinds=("thermo",), seed=2))]
    assert lines == [to_line(p) for p in generate_variants(six, kinds=["thermo"], seed=2)]
    lines = [to_line(p) for p in make(Request(size=6, kinds=("killer",), seed=2))]
    assert lines == [to_line(p) for p in generate_killers(six, seed=2)]
