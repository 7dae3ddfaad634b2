"""Round 6 PTS shortcuts against the rules they replace: numbers read at once by msgspec."""

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
