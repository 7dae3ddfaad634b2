"""PTS shortcuts against the rules they replace: a file's template replayed whatever
XML white space follows its root element (copies of a file with more or fewer trailing
newlines), and nothing else after it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from ebsstats.io import pts
from tests.test_pts_fast import _random_doc
from tests.test_pts_plan import XML, _field_mutant, _full_path, _outcome, _Spy

# what may follow a root element: XML's white space (S) alone is taken off the key; the rest
# is either refused by the XML parser or keeps no template (a comment, a PI)
_TAILS = ["", "\n", "\n\n\n", " \t\r\n", "\r", "\r\n" * 7, "\x0b", "\x0c", "\u00a0", "\u2028",
          "\x85", "\x00", "x", "\n<!---->", "\n<?pi x?>", "<a/>", "\n\x0b\n", "]]>", "&amp;"]


def _tail(rng) -> str:
    return str(rng.choice(_TAILS)) + str(rng.choice(["", "\n", " "]))


def _with_tails(doc: str, rng, monkeypatch, mutants: int, source: str = "x.xml") -> list:
    """Parse ``doc`` with a tail (what it leaves kept), then field mutants of it with other
    tails, each against the full path (nothing kept): rows, notes, series or the ParseError.
    What the replays gave (_replay or _fast_replay; None: not replayed)."""
    spy = _Spy(monkeypatch)
    root_end = doc.rstrip(pts._XML_SPACES)
    for k in range(mutants + 1):
        text = (root_end if k == 0 else _field_mutant(root_end, rng)) + _tail(rng)
        assert _outcome(text, source) == _full_path(text, source, monkeypatch), repr(text[-9:])
    return spy.calls


@pytest.mark.parametrize("path", XML, ids=lambda p: p.parent.name + "/" + p.name)
def test_trailing_space_replays_as_the_full_path_real_files(path, monkeypatch):
    monkeypatch.setattr(pts, "_TEMPLATES", {})
    monkeypatch.setattr(pts, "_FASTS", {})
    text = path.read_text(encoding="utf-8")
    _with_tails(text, np.random.default_rng(len(text) + 7), monkeypatch, 12)


@pytest.mark.parametrize("seed", range(150))
def test_trailing_space_replays_as_the_full_path_random_files(seed, monkeypatch):
    monkeypatch.setattr(pts, "_TEMPLATES", {})
    monkeypatch.setattr(pts, "_FASTS", {})
    rng = np.random.default_rng(seed)
    _with_tails(_random_doc(rng), rng, monkeypatch, 4)


def test_copies_with_other_trailing_newlines_replay_the_template(monkeypatch):
    """(The shortcut is taken: a copy of a file with other trailing newlines is read from its
    fields, _fast_replay, and gives the copy's own frame; one with a vertical tab is not.)"""
    monkeypatch.setattr(pts, "_TEMPLATES", {})
    monkeypatch.setattr(pts, "_FASTS", {})
    campaign = next(p for p in XML if "campaign" in str(p))
    text = campaign.read_text(encoding="utf-8").rstrip("\n")
    pts._parse(text + "\n", "a.xml", test_logs=False)
    spy = _Spy(monkeypatch)
    for tail in ("\n\n\n", "", "\r\n \t"):
        got = _outcome(text + tail, "b.xml", test_logs=False)
        assert got == _full_path(text + tail, "b.xml", monkeypatch, test_logs=False)
    assert len(spy.fast) == 3 and None not in spy.fast
    keys = {pts._template_fields(text + tail)[0] for tail in ("", "\n", "\r\n\t ")}
    assert len(keys) == 1
    for tail in ("\x0b", "\n\u00a0", "\n<!---->"):
        assert pts._template_fields(text + tail)[0] not in keys


# ------------------------------------------------------------------ MB/s checked at once


def _near(rng, iops: float, bs: int) -> float:
    """An MB/s figure about IOPS x block size in MiB/s or MB/s, often at the check's edges."""
    base = iops * bs / float(rng.choice([2**20, 1e6]))
    ratio = float(rng.choice([1.0, 0.99, 1.01, 0.9899999, 1.0100001, 0.98, 1.02, 1.5, 0.5,
                              1 + 1e-12, 1 - 1e-12, 0.0, -1.0]))
    return base * ratio if rng.random() < 0.9 else float(rng.choice([0.0, -0.0, 1e308, 5e-324]))


@pytest.mark.parametrize("seed", range(400))
def test_all_mib_checked_is_each_entry_checked(seed):
    """_all_mib_checked says True only when _entry_mb_basis gives _MIB_CHECKED for every
    entry (then _scale_bulk takes that verdict without a call per entry; else it asks
    _entry_mb_basis of each, which also checks MiB/s beyond 1%), and True whenever every
    entry is within 1%."""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 12))
    bs = rng.choice([4096, 1048576, 512, 0, None, -4096, 3])
    bs = None if bs is None else int(bs)
    others = [float(rng.choice([rng.uniform(0.001, 1e6), 0.0, -5.0, 1e300, 5e-324]))
              if rng.random() < 0.97 else None for _ in range(m)]
    if rng.random() < 0.6:  # (mostly every IOPS mean there and positive: the usual case)
        others = [float(rng.uniform(1, 1e5)) for _ in range(m)]
    values = [_near(rng, o if o is not None else 1.0, bs or 4096) if rng.random() < 0.95
              else float(rng.uniform(-10, 10)) for o in others]
    for fio in (True, False):
        each = [pts._entry_mb_basis(v, o, bs, fio) for v, o in zip(values, others, strict=True)]
        if pts._all_mib_checked(values, others, bs):
            assert all(d == pts._MIB_CHECKED for d in each)
    close = bs and all(v > 0 and o is not None and o > 0 and 0.99 < v * 2**20 / (o * bs) < 1.01
                       for v, o in zip(values, others, strict=True))
    assert pts._all_mib_checked(values, others, bs) == bool(close)


def test_all_mib_checked_takes_the_usual_case():
    assert pts._all_mib_checked([4.0, 400.0], [1024.0, 102400.0], 4096)
    assert not pts._all_mib_checked([4.0 * 1.048576, 400.0], [1024.0, 102400.0], 4096)


# ------------------------------------------------------------------ test-logs next to a file


@pytest.mark.parametrize("with_logs", [False, True])
def test_test_logs_next_to_is_the_path_rule(tmp_path, monkeypatch, with_logs):
    """_test_logs_next_to gives what Path(source).parent / "test-logs" (when a directory)
    gives, for names, trailing separators, ".", "..", empty and doubled separators."""
    (tmp_path / "r" / "s").mkdir(parents=True)
    if with_logs:
        (tmp_path / "r" / "test-logs").mkdir()
        (tmp_path / "test-logs").mkdir()
        (tmp_path / "r" / "s" / "test-logs").write_text("not a directory")
    monkeypatch.chdir(tmp_path)
    for source in ["r/composite.xml", str(tmp_path / "r" / "composite.xml"), "r/s/x.xml",
                   "composite.xml", "", ".", "r/", "r/s/", "r/s/.", "r/s/..", "r//x.xml",
                   "r/./x.xml", "./r/x.xml", "r/s/../x.xml", "/", "r/nothere/x.xml", "r",
                   "r/s"]:
        cand = Path(source).parent / "test-logs"
        want = cand if cand.is_dir() else None
        assert pts._test_logs_next_to(source) == want, source


# ------------------------------------------------------------------ replay: numbers at once

_NUMBER_FIELD_RE = re.compile(r"(<(Value|RawString)>)([^<]*)(</\2>)")


def _one_number_changed(doc: str, rng) -> str:
    """``doc`` with one number of one Value or RawString changed: negated, huge (beyond a float
    once scaled), zero, -0, nudged by a few percent (an MB/s figure's check may flip), or
    left; the rest as it is."""
    fields = list(_NUMBER_FIELD_RE.finditer(doc))
    m = fields[int(rng.integers(len(fields)))]
    runs = m.group(3).split(":")
    k = int(rng.integers(len(runs)))
    try:
        v = float(runs[k])
    except ValueError:
        return doc
    runs[k] = str(rng.choice([f"{-v}", "1e308", "0", "-0", f"{v * 1.015:.4f}",
                              f"{v * 0.985:.4f}", f"{v * 1.05:.4f}", runs[k]]))
    return doc[:m.start(3)] + ":".join(runs) + doc[m.end(3):]


@pytest.mark.parametrize("seed", range(40))
def test_numbers_at_once_are_the_full_path(seed, monkeypatch):
    """A file of a kept template and plan whose numbers are read at once (_fast_bulk: every
    number times its basis' factor, checked at once, the MB/s entries checked against their
    IOPS entries) gives what the full path gives, also when one number is negative, too large
    once scaled, or flips an MB/s entry's basis."""
    from tests.test_pts_plan import CAMPAIGN, _compare
    rng = np.random.default_rng(seed)
    calls: list = []
    bulk = pts._fast_bulk

    def spy(*args):
        calls.append(bulk(*args))
        return calls[-1]

    monkeypatch.setattr(pts, "_fast_bulk", spy)
    doc = CAMPAIGN.read_text(encoding="utf-8")
    _compare(doc, "composite.xml", rng, monkeypatch, 6, mutate=_one_number_changed,
             test_logs=False, fio_mb=["auto", "MB", "MiB"][seed % 3])
    assert any(c is not None for c in calls)  # (taken where compared)


# ------------------------------------------------------------------ fields in the parts


@pytest.mark.parametrize("path", XML, ids=lambda p: p.parent.name + "/" + p.name)
def test_field_parts_are_the_fields(path):
    """Each field's text read from the parts of the text (_field_parts: what _fast_replay
    reads) is the field's text (_template_fields), Titles and JSONs included."""
    text = path.read_text(encoding="utf-8")
    for doc in (text, text.replace("<Title>", "<Generated><Title>", 1)):
        got = pts._template_parts(doc)
        key, fields = pts._template_fields(doc)
        assert got[0] == key
        assert [got[1][k] for k in pts._field_parts(key)] == fields
