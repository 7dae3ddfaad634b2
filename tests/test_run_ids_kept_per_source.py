"""The run ids of a file's per-row ``str`` run keys (:func:`_columns._str_run_ids`: one SHA-1
state of the source copied per key, ids kept per source) against the rule they replace,
:func:`ebsstats.schema.run_id` of each row's source and key: the same ids, the same refusals,
kept ids bounded."""

from __future__ import annotations

import random

import pandas as pd
import pytest

from ebsstats import schema
from ebsstats.io import _columns, _common
from ebsstats.io._columns import Const, _fill_run_ids

_TEXTS = ["", "a", "$.jobs[0]", "result-1/system-2", "\u00e9t\u00e9", "\u4e2d", "\U0001f600",
          "a\x00b", "\ud800", "x\udfffy", "1", "True", " " * 70]


class _Key(str):
    """A str subclass printing otherwise (run_id formats its key: not the key's own text)."""

    def __format__(self, spec):
        return "other"


def _rule(source, keys):
    """The rule: run_id of each row's key (for str keys), as the general way of
    _run_ids_of_keys gives it (keys other than str: each distinct key hashed once)."""
    try:
        if set(map(type, keys)) <= {str}:
            return [schema.run_id(source, k) for k in keys], None
        saved = _columns._str_run_ids
        _columns._str_run_ids = lambda source, keys: None
        try:
            return _columns._run_ids_of_keys(source, list(keys)), None
        finally:
            _columns._str_run_ids = saved
    except Exception as exc:  # (the kind of failure is compared)
        return None, type(exc)


def _got(source, keys):
    try:
        return _columns._run_ids_of_keys(source, list(keys)), None
    except Exception as exc:
        return None, type(exc)


@pytest.mark.parametrize("seed", range(40))
def test_str_run_ids_are_run_ids(monkeypatch, seed):
    rng = random.Random(seed)
    monkeypatch.setattr(_columns, "_RUN_IDS", {})
    monkeypatch.setattr(_columns, "_RUN_IDS_KEPT", 0)
    monkeypatch.setattr(_columns, "_RUN_IDS_MOST", rng.choice([3, 50, 32768]))
    sources = [rng.choice(_TEXTS) + rng.choice(["", ".xml", "/b.json"]) for _ in range(4)]
    for _ in range(30):  # (again and again: ids kept, some keys new, caches forgotten)
        source = rng.choice(sources)
        keys = [rng.choice(_TEXTS[:rng.randint(1, len(_TEXTS))]) for _ in range(rng.randint(0, 9))]
        if rng.random() < 0.1:
            keys.append(rng.choice([1, True, None, 1.0, _Key("a")]))  # (not all str: the general way)
        assert _got(source, keys) == _rule(source, keys)
        assert _columns._RUN_IDS_KEPT <= _columns._RUN_IDS_MOST
        assert sum(map(len, _columns._RUN_IDS.values())) == _columns._RUN_IDS_KEPT


def test_kept_ids_are_used_and_bounded(monkeypatch):
    monkeypatch.setattr(_columns, "_RUN_IDS", {})
    monkeypatch.setattr(_columns, "_RUN_IDS_KEPT", 0)
    monkeypatch.setattr(_columns, "_RUN_IDS_MOST", 10)
    keys = [f"k{i % 4}" for i in range(12)]
    first = _columns._str_run_ids("s", keys)
    assert first == [schema.run_id("s", k) for k in keys]
    monkeypatch.setattr(_columns, "run_ids", None)  # (kept: nothing hashed again)
    assert _columns._str_run_ids("s", keys) == first
    monkeypatch.setattr(_columns, "run_ids", schema.run_ids)
    for j in range(20):
        _columns._str_run_ids(f"s{j}", keys)
        assert _columns._RUN_IDS_KEPT <= 10
    many = [f"m{i}" for i in range(30)]  # (more than are kept: given, not kept)
    assert _columns._str_run_ids("big", many) == [schema.run_id("big", k) for k in many]
    assert "big" not in _columns._RUN_IDS


def test_a_frames_run_ids_are_the_rules(monkeypatch):
    rng = random.Random(5)
    for _ in range(50):
        chunks = []
        for j in range(rng.randint(1, 4)):
            n = rng.randint(1, 6)
            keys = [rng.choice(["r0", "r1", "\u00e9"]) for _ in range(n)]
            chunks.append(({"source": Const(f"f{j}.xml", n), "tool": Const("pts", n),
                            "test": Const("t", n), "metric": Const("iops", n),
                            "value": [1.0] * n, "run_key": keys}, n))
        df = _common.results_of(chunks, validated=True)
        want = [schema.run_id(c[0]["source"].value, k) for c in chunks for k in c[0]["run_key"]]
        assert list(df["run_id"]) == want
        pieces = {"source": [c[0]["source"] for c in chunks],
                  "run_key": [list(c[0]["run_key"]) for c in chunks]}
        lengths = [c[1] for c in chunks]
        _fill_run_ids(pieces, lengths)
        assert [x for p in pieces["run_id"] for x in p] == want
    assert isinstance(df, pd.DataFrame)
