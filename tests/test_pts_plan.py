"""The PTS plans (pts._Plan): a file whose layout was seen before (pts._plan_key) replays the
columns of that layout and reads only its numbers. Tested against the full path (no plan) on
mutants of genuine, campaign and random files whose numbers are changed: plain, tricky,
non-numeric, negative, out of range, MB/s figures that flip their basis, bad times."""

from __future__ import annotations

import re

import numpy as np
import pytest

import ebsstats as es
from ebsstats.io import pts
from tests.test_pts_fast import REAL, TRICKY, _random_doc

# the numbers of a composite.xml: Values, RawStrings, test-run-times, system TimeStamps
_NUMBERS_RE = re.compile(r"(<Value>|<RawString>|test-run-times&quot;:&quot;|test-run-times\":\")"
                         r"([^<&\"]*)")
_STAMP_RE = re.compile(r"(<TimeStamp>)([^<]*)")


def _mutant(doc: str, rng) -> str:
    """``doc`` with its numbers changed (mostly plain, sometimes tricky; every number of a kind
    scaled alike, so that MB/s against IOPS checks may flip)."""
    scale = float(rng.choice([1.0, 1.0, 1e6 / 2**20, 2**20 / 1e6, 1.3, -1.0, 1e305]))
    tricky = float(rng.choice([0.0, 0.0, 0.0, 0.02, 0.2]))

    def number(text: str) -> str:
        if rng.random() < tricky:
            return str(rng.choice(TRICKY))
        try:
            v = float(text)
        except ValueError:
            return text
        v *= scale if rng.random() < 0.9 else float(rng.uniform(0.5, 2))
        return f"{v:.{int(rng.integers(0, 6))}f}" if abs(v) < 1e15 else repr(v)

    def numbers(m: re.Match) -> str:
        return m.group(1) + ":".join(number(t) for t in m.group(2).split(":"))

    def stamp(m: re.Match) -> str:
        r = rng.random()
        if r < 0.05:
            return m.group(1) + str(rng.choice(["yesterday", "", "2024-13-45 00:00:00"]))
        if r < 0.5:
            return m.group(1) + f"2025-0{int(rng.integers(1, 10))}-1{int(rng.integers(0, 10))}" \
                                f" 0{int(rng.integers(0, 10))}:1{int(rng.integers(0, 10))}:00"
        return m.group(0)

    return _STAMP_RE.sub(stamp, _NUMBERS_RE.sub(numbers, doc))


def _outcome(doc: str, source: str, **options):
    try:
        p = pts._parse(doc, source, **options)
    except es.ParseError as exc:
        return "error", str(exc)
    cols, n = p.columns
    return (repr(cols), n, list(cols), p.format, p.version, p.notes,
            [repr(s.cols) for s in p.series], [s.n for s in p.series])


def _full_path(doc: str, source: str, monkeypatch, **options):
    with monkeypatch.context() as mp:
        mp.setattr(pts, "_PLANS", {})
        mp.setattr(pts, "_plan_of", lambda rows, columns, n: None)
        return _outcome(doc, source, **options)


class _Spy:
    def __init__(self, monkeypatch):
        self.calls: list = []
        replay = pts._replay

        def spy(*args):
            self.calls.append(replay(*args))
            return self.calls[-1]

        monkeypatch.setattr(pts, "_replay", spy)


def _compare(doc: str, source: str, rng, monkeypatch, mutants: int, **options) -> _Spy:
    monkeypatch.setattr(pts, "_PLANS", {})
    spy = _Spy(monkeypatch)
    assert _outcome(doc, source, **options) == _full_path(doc, source, monkeypatch, **options)
    for _ in range(mutants):
        mutant = _mutant(doc, rng)
        want = _full_path(mutant, source, monkeypatch, **options)
        assert _outcome(mutant, source, **options) == want
        assert _outcome(doc, source, **options) == _full_path(doc, source, monkeypatch,
                                                              **options)
    return spy


XML = [p for p in REAL if p.suffix == ".xml"]
CAMPAIGN = next(p for p in XML if "campaign" in str(p))


@pytest.mark.parametrize("path", XML, ids=lambda p: p.parent.name + "/" + p.name)
def test_plan_is_the_full_path_on_mutants_of_real_files(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    rng = np.random.default_rng(len(text))
    spy = _compare(text, "composite.xml", rng, monkeypatch, 12, test_logs=False)
    if "campaign" in str(path):  # (replayed where compared)
        assert pts._PLANS and any(c is not None for c in spy.calls)


@pytest.mark.parametrize("seed", range(150))
def test_plan_is_the_full_path_on_mutants_of_random_files(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    doc = _random_doc(rng)
    options = {"fio_mb": ["auto", "MB", "MiB"][seed % 3], "test_logs": False,
               "tz": [None, "Europe/Berlin"][seed % 2]}
    _compare(doc, "x.xml", rng, monkeypatch, 6, **options)


def test_plans_are_replayed_for_plain_mutants(monkeypatch):
    """(The replay is taken where the tests above compare it.)"""
    text = CAMPAIGN.read_text(encoding="utf-8")
    monkeypatch.setattr(pts, "_PLANS", {})
    spy = _Spy(monkeypatch)
    pts._parse(text, "a.xml", test_logs=False)
    other = text.replace("<TimeStamp>2024-", "<TimeStamp>2023-")
    assert other != text
    assert _outcome(other, "b.xml", test_logs=False) == _full_path(other, "b.xml", monkeypatch,
                                                                  test_logs=False)
    assert spy.calls and spy.calls[-1] is not None


def test_a_plan_is_no_other_layouts(monkeypatch):
    """Files differing in anything but their numbers have other keys: a system's name,
    hardware, a result's scale, an entry's position or its number of runs."""
    text = CAMPAIGN.read_text(encoding="utf-8")

    def key(doc):
        root = pts._load_xml(doc, "x")
        systems, results, info = pts._parse_composite(root, "x")
        return pts._plan_key(systems, results, info, "composite.xml", None, "auto")

    base = key(text)
    assert key(text.replace("<TimeStamp>2024-", "<TimeStamp>2023-")) == base
    raw = re.search(r"<RawString>([^<]*)</RawString>", text).group(1)
    for other in (text.replace("<Scale>IOPS", "<Scale>MB/s", 1),
                  text.replace("Disk: 100GB", "Disk: 101GB", 1),
                  text.replace("<Identifier>gp2-20g", "<Identifier>gp2-21g", 1),
                  text.replace(raw, raw + ":1", 1),
                  text.replace("</Entry>", "</Entry><Entry><Identifier>z</Identifier>"
                               "<Value>1</Value><RawString>1</RawString></Entry>", 1)):
        assert other != text and key(other) != base


def test_plans_are_bounded(monkeypatch):
    monkeypatch.setattr(pts, "_PLANS", {})
    monkeypatch.setattr(pts, "_PLANS_MAX", 3)
    text = CAMPAIGN.read_text(encoding="utf-8")
    assert "Disk: 100GB" in text
    for k in range(8):
        pts._parse(text.replace("<Title>", f"<Title>{k}", 1).replace(
            "Disk: 100GB", f"Disk: {k}GB"), "x.xml", test_logs=False)
        assert 1 <= len(pts._PLANS) <= 3
