"""PTS shortcuts against the rules they replace: numbers read at once by msgspec."""

from __future__ import annotations

import math
import re
import struct

import numpy as np
import pytest

from ebsstats.io import pts
from tests.test_pts_fast import REAL

_CHARS = re.compile(r"[-+.:0-9eE]*+")


def _bulk_nums_by_float(texts: list[str]) -> list[float] | None:
    """The rule: every text of the plain number characters, float() of each, none infinite."""
    if texts and _CHARS.fullmatch(":".join(texts)):
        try:
            values = list(map(float, texts))
        except ValueError:
            return None
        if math.inf not in values and -math.inf not in values:
            return values
    return None


def _bits(values):
    return None if values is None else [struct.pack("<d", v) for v in values]


def _number(rng) -> str:
    digits = "".join(rng.choice(list("0123456789"), size=int(rng.integers(1, 41))))
    if rng.random() < 0.6:
        digits = digits.lstrip("0") or "0"
    text = ("-" if rng.random() < 0.4 else "+" if rng.random() < 0.05 else "") + digits
    if rng.random() < 0.4:
        text += "." + "".join(rng.choice(list("0123456789"), size=int(rng.integers(0, 25))))
    if rng.random() < 0.3:
        text += str(rng.choice(["e", "E"])) + str(rng.choice(["", "+", "-"])) + str(
            rng.integers(0, 400))
    return text


REAL_XML = [p for p in REAL if p.suffix == ".xml" and "pre3" not in p.name]
EDGES = ["-0", "0", "-0.0", "-0e0", "+0", "-00", "00", "9007199254740993",
         "18446744073709551615", "18446744073709551616", "-9223372036854775809", "1" * 309,
         "1e308", "2e308", "-2e308", "4.9e-324", "2e-324", "1e-400", ".5", "5.", "1e", "e5",
         "", ":", "1:2", "1::2", "-", "+", "--1", "1e+", "0.1", "1E+05", "00.5", "1.e5"]


@pytest.mark.parametrize("seed", range(12))
def test_bulk_nums_are_floats_of_each_bit_for_bit(seed):
    """msgspec's array of the texts is float() of each, bit for bit (-0.0 too), or the texts
    are read by float(): random numbers of 1-40 digits, points, exponents beyond a float, the
    edge spellings JSON refuses or reads otherwise, alone and among others."""
    rng = np.random.default_rng(seed)
    for _ in range(2500):
        texts = [_number(rng) for _ in range(int(rng.integers(0, 6)))]
        if rng.random() < 0.3:
            texts.insert(int(rng.integers(0, len(texts) + 1)), str(rng.choice(EDGES)))
        got, want = pts._bulk_nums(texts), _bulk_nums_by_float(texts)
        assert _bits(got) == _bits(want), texts


@pytest.mark.parametrize("text", EDGES)
def test_bulk_nums_edges(text):
    for texts in ([text], ["1.5", text], [text, "2", "-3e2"]):
        assert _bits(pts._bulk_nums(texts)) == _bits(_bulk_nums_by_float(texts)), texts


@pytest.mark.parametrize("path", REAL_XML, ids=lambda p: p.name)
def test_bulk_nums_of_a_composite_are_floats(path):
    """The numbers of genuine composite.xml files (values and runs) as float() reads them."""
    _, fields = pts._template_fields(path.read_text(encoding="utf-8"))
    texts = [t for f in fields for t in f.strip().split(":") if _CHARS.fullmatch(t) and t]
    assert len(texts) > 10
    assert _bits(pts._bulk_nums(texts)) == _bits(list(map(float, texts)))


def _few_runs_rule(column: list, most: int):
    """The rows' runs of one object (by identity), as Runs when at most ``most``, else the
    rows: what pts._spread_column stands for."""
    runs: list = []
    for v in column:
        if runs and runs[-1][0] is v:
            runs[-1][1] += 1
        else:
            runs.append([v, 1])
    if len(runs) > most:
        return column
    return pts.Runs([v for v, _ in runs], [c for _, c in runs])


@pytest.mark.parametrize("seed", range(30))
def test_spread_column_is_the_rows_runs(seed):
    """A shared value's column from the runs of its places (without the rows' list) is the
    rows' own runs of one object, or the rows: places in runs, repeated, interleaved;
    values the same object, equal copies, equal across types (1, 1.0, True)."""
    rng = np.random.default_rng(seed)
    pool = [1, 1.0, True, "a", "b", None, "a" * 3]
    for _ in range(300):
        k = int(rng.integers(1, 8))
        values = [pool[int(rng.integers(len(pool)))] for _ in range(k)]
        if rng.random() < 0.3:
            values = [values[0]] * k  # (the same object everywhere)
        at = sorted(int(rng.integers(k)) for _ in range(int(rng.integers(1, 40))))
        if rng.random() < 0.3:
            at = [int(rng.integers(k)) for _ in at]  # (places out of order: runtime rows)
        get = pts.picker(at)
        want = _few_runs_rule(list(get(values)), pts._FEW_RUNS)
        if sum(v is not w for v, w in zip(values[1:], values[:-1], strict=True)) >= pts._FEW_RUNS:
            want = list(get(values))  # (too many changes among the values: not looked at)
        # (from the runs of places, and from the rows' objects: runs None)
        for runs in (pts._runs_once(at), None):
            got = pts._spread_column("x", values, get, runs)
            assert type(got) is type(want) and repr(got) == repr(want), (values, at)
            if type(got) is pts.Runs:
                assert all(a is b for a, b in zip(got.values, want.values, strict=True))
