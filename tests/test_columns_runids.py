"""Run ids of a chunk whose run key is a :class:`~ebsstats.io._columns.Runs` piece (a multi-job
fio report's jobs): one id per run, handed over as runs, against the rule it shortens (the
key's runs expanded to a per-row list, an id per row): the same ids on the same rows, the same
typed frames, the same refusals."""

from __future__ import annotations

import random

import pandas as pd
import pytest

from ebsstats.io import _columns
from ebsstats.io._columns import Const, Runs, _fill_run_ids, _piece_list, frame_of_columns


def _expanded(piece):
    return _piece_list(piece) if type(piece) is Runs else piece


def _ids(pieces, lengths):
    pieces = {k: list(v) for k, v in pieces.items()}
    _fill_run_ids(pieces, lengths)
    return pieces["run_id"]


def _case(rng: random.Random):
    """Chunks of one source each, run keys as runs of strings (sometimes ints, bools, None or
    a run of no row), positions per row."""
    sources, keys, positions, lengths = [], [], [], []
    for j in range(rng.randint(1, 6)):
        runs = rng.randint(1, 5)
        pool = ["$.jobs[0]", "$.jobs[1]", "$.jobs[2]", "a", ""]
        if rng.random() < 0.3:
            pool += [1, True, 1.0, None, 0]
        values = [rng.choice(pool) for _ in range(runs)]
        counts = [rng.choice([0, 1, 2, 5]) for _ in range(runs)]
        n = sum(counts)
        sources.append(Const(rng.choice([f"f{j}.json", "same.json"]), n))
        keys.append(Runs(values, counts) if rng.random() < 0.8 else Const(values[0], n))
        positions.append([f"$.x[{i}]" for i in range(n)])
        lengths.append(n)
    return {"source": sources, "run_key": keys, "position": positions}, lengths


@pytest.mark.parametrize("seed", range(300))
def test_runs_of_keys_give_the_ids_of_the_expanded_keys(seed):
    rng = random.Random(seed)
    pieces, lengths = _case(rng)
    got = _ids(pieces, lengths)
    want = _ids({**pieces, "run_key": [_expanded(k) for k in pieces["run_key"]]}, lengths)
    assert [_piece_list(p) for p in got] == [_piece_list(p) for p in want]
    assert all(type(a) is type(b) is str or a is b is None
               for p, q in zip(got, want, strict=True)
               for a, b in zip(_piece_list(p), _piece_list(q), strict=True))
    for p, k in zip(got, pieces["run_key"], strict=True):  # string runs stay runs
        if type(k) is Runs and {type(v) for v in k.values} <= {str} and sum(k.counts):
            assert type(p) is Runs and list(p.counts) == list(k.counts)


def test_runs_of_keys_type_as_the_expanded_keys():
    rng = random.Random(7)
    for _ in range(40):
        pieces, lengths = _case(rng)
        if not sum(lengths):
            continue
        base = {"tool": [Const("fio", n) for n in lengths],
                "test": [Const("t", n) for n in lengths],
                "metric": [Const("iops", n) for n in lengths],
                "value": [[1.0] * n for n in lengths]}
        got = frame_of_columns({**base, **pieces}, lengths)
        want = frame_of_columns({**base, **pieces, "run_key": [
            _expanded(k) for k in pieces["run_key"]]}, lengths)
        pd.testing.assert_frame_equal(got, want)


def test_runs_of_keys_mixing_1_and_true_hash_per_row_as_before():
    # 1 and True are equal keys of a dict: the runs shortcut takes only strings
    pieces = {"source": [Const("a.json", 3)], "run_key": [Runs([1, True, "x"], [1, 1, 1])],
              "position": [["p0", "p1", "p2"]]}
    got = _ids(pieces, [3])
    want = _ids({**pieces, "run_key": [[1, True, "x"]]}, [3])
    assert _piece_list(got[0]) == _piece_list(want[0])


@pytest.mark.parametrize("counts", [[1, -1], [1], [1, 2, 3], [1.0, 1]])
def test_bad_runs_of_keys_are_refused_as_before(counts):
    pieces = {"source": [Const("a.json", 2)], "run_key": [Runs(["a", "b"], counts)],
              "position": [["p0", "p1"]]}
    with pytest.raises(ValueError):
        _ids(pieces, [2])


def test_the_shortcut_is_taken(monkeypatch):
    # a mutant that hashes the wrong key per run fails the comparison above
    calls = []
    real, real_str = _columns._run_id, _columns._str_run_ids
    monkeypatch.setattr(_columns, "_run_id", lambda s, k: calls.append(k) or real(s, k))
    monkeypatch.setattr(_columns, "_str_run_ids",
                        lambda s, keys: calls.extend(keys) or real_str(s, keys))
    _ids({"source": [Const("m.json", 7)], "run_key": [Runs(["a", "b"], [3, 4])],
          "position": [[str(i) for i in range(7)]]}, [7])
    assert calls == ["a", "b"]
