"""The run ids of one-run chunks looked up among the ids kept for their sources by maps (a
folder read again) against the rule it shortens: :func:`_run_id` per chunk, for every kind of
key (str, int, bool, float, None, runs), cold and warm."""

from __future__ import annotations

import random

import pytest

from ebsstats.io import _columns
from ebsstats.io._columns import Const, Runs
from ebsstats.schema import run_id


def _rule(pieces, lengths):
    source = pieces["source"]
    key = pieces.get("run_key" if "run_key" in pieces else "position")
    return [Const(_columns._run_id(s.value, k.value), m)
            if type(k) is Const and type(k.value) in _columns._STR_OR_INT else None
            for s, k, m in zip(source, key, lengths, strict=True)]


def _case(rng):
    n = rng.randint(1, 8)
    lengths = [rng.randint(0, 4) for _ in range(n)]
    pool = ["$.jobs[0]", "a", "", 0, 1, 2**70, True, 1.0, None, "\u00e9"]
    keys = [Runs([rng.choice(pool)], [m]) if rng.random() < 0.2 else Const(rng.choice(pool), m)
            for m in lengths]
    sources = [Const(f"s{rng.randint(0, 10**6)}-{j}.json" if rng.random() < 0.95 else j, m)
               for j, m in enumerate(lengths)]
    return {"source": sources, "run_key": keys}, lengths


@pytest.mark.parametrize("seed", range(200))
def test_kept_lookup_gives_the_rule(seed):
    rng = random.Random(seed)
    pieces, lengths = _case(rng)
    for _ in range(2):  # cold (ids computed), then warm (ids looked up)
        got = _columns._one_run_ids(pieces, lengths)
        assert got == _rule(pieces, lengths)
        assert all(type(g) is type(w) for g, w in zip(got, _rule(pieces, lengths), strict=True))


def test_kept_lookup_is_taken_and_exact():
    pieces = {"source": [Const("k1.json", 2), Const("k2.json", 1)],
              "run_key": [Const("x", 2), Const(3, 1)]}
    _columns._one_run_ids(pieces, [2, 1])  # (kept)
    got = _columns._kept_one_run_ids(["k1.json", "k2.json"], pieces["run_key"], [2, 1])
    assert got == [Const(run_id("k1.json", "x"), 2), Const(run_id("k2.json", 3), 1)]
    # a bool key is never looked up as the int it equals
    assert _columns._kept_one_run_ids(["k2.json"], [Const(True, 1)], [1]) is None


@pytest.mark.parametrize("key", [Runs((v for v in "ab"), [1, 1]), Runs(["a", "b"], 2),
                                 Runs(["a", "b"], [1, -1]), Runs(["a", 1], [1, 1]),
                                 Runs(["a", "\ud800"], [1, 1]), Runs(["a"], [1, 1])])
def test_runs_ids_refuse_what_the_rule_judges(key):
    assert _columns._runs_run_ids(Const(None, 2), Const("z.json", 2), key) is None
