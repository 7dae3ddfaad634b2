"""The PTS timestamp column handed over as runs of its entries' times, and their typing run by
run (``_columns._aware_stamp_runs``), against the general rule each replaces: the rows as a
list, typed row by row."""

import datetime
import itertools
import random

import numpy as np
import pandas as pd
import pytest

from ebsstats.io import _columns, pts
from ebsstats.io._columns import Const, Runs

UTC_NS = _columns._UTC_NS


def _outcome(pieces):
    """The typed column (dtype, nanoseconds, missing) or the error raised, as text."""
    try:
        col = _columns._typed_column(pieces, UTC_NS)
    except Exception as exc:  # (the error itself is compared)
        return ("raises", type(exc).__name__, str(exc))
    arr = pd.array(col) if not hasattr(col, "dtype") else col
    return (str(arr.dtype), np.asarray(arr.asi8).tolist(), pd.isna(arr).tolist(),
            type(arr).__name__, getattr(arr, "_readonly", None))


def _as_lists(pieces):
    """The general rule: every piece as the list of its rows."""
    return [_columns._piece_list(p) for p in pieces]


def _stamp(rng: random.Random):
    k = rng.randrange(12)
    base = pd.Timestamp("2024-03-14 12:00", tz="UTC") + pd.Timedelta(minutes=rng.randrange(5))
    if k < 5:
        return base
    if k == 5:
        return base.tz_convert("Europe/Paris")
    if k == 6:
        return pd.Timestamp(base.value, tz="UTC") + pd.Timedelta(nanoseconds=rng.randrange(3))
    if k == 7:
        return None
    if k == 8:
        return pd.NaT
    if k == 9:
        return base.tz_localize(None)
    if k == 10:
        return base.to_pydatetime()
    return pd.Timestamp("2900-01-01", tz="UTC").as_unit("s")  # (beyond the ns range)


def _pieces(rng: random.Random, pool: list):
    out = []
    for _ in range(rng.randrange(1, 5)):
        k = rng.randrange(1, 8)
        values = [rng.choice(pool) for _ in range(k)]
        counts = [rng.choice((1, 1, 2, 5, 0 if rng.random() < 0.05 else 3)) for _ in range(k)]
        if rng.random() < 0.3:
            out.append(Const(values[0], counts[0]))
        else:
            out.append(Runs(values, counts))
    return out


@pytest.mark.parametrize("seed", range(400))
def test_runs_of_stamps_typed_as_their_rows(seed):
    rng = random.Random(seed)
    plain = rng.random() < 0.6  # (tz-aware Timestamps only: the fast path's case)
    pool = [_stamp(rng) for _ in range(rng.randrange(1, 6))]
    if plain:
        pool = [t for t in pool if type(t) is pd.Timestamp and t.tz is not None
                and t.unit == "ns"] or [pd.Timestamp("2024-01-01", tz="UTC")]
    pieces = _pieces(rng, pool)
    want = _outcome(_as_lists(pieces))
    got = _outcome(pieces)
    if want[0] == "raises" or got[0] == "raises":
        assert got == want
    else:  # (a Runs column is a new array, as the general take of its constants gives it)
        assert got[:3] == want[:3]


def test_stamp_runs_checks_what_the_rule_checks():
    t = pd.Timestamp("2024-01-01", tz="UTC")
    assert _columns._aware_stamp_runs([t, t.tz_localize(None)], [1, 1], UTC_NS) is None
    assert _columns._aware_stamp_runs([t, None], [1, 1], UTC_NS) is None
    assert _columns._aware_stamp_runs([t, t.to_pydatetime()], [1, 1], UTC_NS) is None
    assert _columns._aware_stamp_runs([t], [-1], UTC_NS) is None
    far = pd.Timestamp("2900-01-01", tz="UTC").as_unit("s")
    assert _columns._aware_stamp_runs([far], [1], UTC_NS) is None
    assert _columns._aware_stamp_runs([t], [1], pd.DatetimeTZDtype("us", "UTC")) is None
    assert _columns._aware_stamp_runs([t], [1], "category") is None
    got = _columns._aware_stamp_runs([t, t.tz_convert("Asia/Tokyo"), t], [2, 1, 1], UTC_NS)
    assert got.asi8.tolist() == [t.value] * 4 and not got._readonly


@pytest.mark.parametrize("seed", range(300))
def test_stamp_runs_of_entries_is_the_rows_runs(seed):
    rng = random.Random(seed)
    pool = [pd.Timestamp("2024-01-01", tz="UTC") + pd.Timedelta(minutes=i) for i in range(3)]
    pool.append(pd.Timestamp(pool[0].value, tz="UTC"))  # (equal, not the same object)
    pool.append(None)
    stamps = [rng.choice(pool) for _ in range(rng.randrange(0, 12))]
    counts = [rng.randrange(1, 6) for _ in stamps]
    rows = list(itertools.chain.from_iterable(map(itertools.repeat, stamps, counts)))
    got, want = pts._stamp_runs_of(stamps, counts), pts._stamp_runs(rows)
    assert type(got) is type(want)
    if type(want) is Runs:
        assert list(map(id, got.values)) == list(map(id, want.values))
        assert got.counts == want.counts
    else:
        assert list(map(id, got)) == list(map(id, want))
    assert list(map(id, _columns._piece_list(want))) == list(map(id, rows))


def test_datetime_runs_still_typed_by_microseconds():
    t = datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)
    got = _columns._typed_column([Runs([t, t], [1, 2])], UTC_NS)
    assert got.asi8.tolist() == [1_704_067_200_000_000_000] * 3
