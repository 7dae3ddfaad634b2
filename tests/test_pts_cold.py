"""The PTS reader's shortcuts for a first read and for files of a kept template, each against the
general rule it stands for (tests/test_pts_fast.py and tests/test_pts_plan.py compare whole
files; these compare the pieces on inputs made to reach their corners)."""

from __future__ import annotations

import re
from itertools import islice

import numpy as np
import pytest

from ebsstats.io import pts


def _split_system_string_by_chars(text: str | None) -> dict[str, str]:
    """split_system_string as it was written first: every character looked at in Python."""
    if not text or not text.strip():
        return {}
    text = text.strip()
    cuts = [0]
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch == "," and text.startswith(", ", i):
            if pts._KNOWN_KEY_RE.match(text, i + 2) or (
                    depth == 0 and pts._GENERIC_KEY_RE.match(text, i + 2)):
                cuts.append(i)
    cuts.append(len(text))
    out: dict[str, str] = {}
    for a, b in zip(cuts[:-1], cuts[1:], strict=True):
        part = text[a:b]
        if a:
            part = part[2:]
        key, sep, value = part.partition(": ")
        if not sep:
            if out:
                last = next(reversed(out))
                out[last] += ", " + part
            else:
                out["Other"] = part
            continue
        out[key.strip()] = value.strip()
    return out


_PIECES = ["Processor: ", "Disk: ", "OS: ", "Kernel: ", "File-System: ", "Foo Bar: ", "x: ",
           ", ", ",", ",,", ", , ", " ", "(", ")", "[", "]", "((", "))", "AMD EPYC", "2 Cores",
           "500GB", "a", "Z", ": ", "\t", "\n", "é", "Memory: 8GB", "(RAID, 7200rpm)"]


@pytest.mark.parametrize("seed", range(400))
def test_split_system_string_is_the_character_loop(seed):
    rng = np.random.default_rng(seed)
    text = "".join(str(rng.choice(_PIECES)) for _ in range(int(rng.integers(0, 30))))
    assert pts.split_system_string(text) == _split_system_string_by_chars(text)


@pytest.mark.parametrize("text", [
    "Processor: AMD EPYC (2 Cores), Memory: 24GB, Disk: 252GB",
    "Disk: 2 x 500GB (RAID, 7200rpm), OS: Debian 12", ", Disk: 1", "Disk: 1,, OS: 2",
    "Disk: (a, B: c), Foo: d", "Disk: a)), Foo: d", "Disk: [a, Foo: b], Foo: c", ",", ", ",
    "no key, at all", "  OS: x  ", None, ""])
def test_split_system_string_corners(text):
    assert pts.split_system_string(text) == _split_system_string_by_chars(text)


def _split_by_islice(values: list, lengths: list[int]) -> list[list]:
    it = iter(values)
    return [list(islice(it, k)) for k in lengths]


@pytest.mark.parametrize("lengths", [[], [0], [0, 0], [3], [3, 3, 3], [2, 3], [3, 2], [1, 0, 2],
                                     [0, 3, 3], [5, 5]])
def test_split_is_islice(lengths):
    values = list(range(sum(lengths)))
    got = pts._split(values, lengths)
    assert got == _split_by_islice(values, lengths)
    assert all(type(part) is list for part in got)


def _entry(system: str, value: str | None, raw: list[str] | None = None) -> pts._Entry:
    return pts._Entry(system, value, raw, None, f"/{system}")


@pytest.mark.parametrize("values", [
    ["1", "2.5", "3e2"], ["1", None, "2"], ["1", "PASS", "2"], ["1", " 2", "3"], ["1e400", "1"],
    ["1:2", "3"], ["\u0663", "1"], ["-1", "+.5", "5."], ["nan", "1"], ["inf", "1"]])
def test_other_means_are_the_mean_value_of_each(values):
    """The IOPS entries' means, read at once, are _mean_value of each (a missing entry: None)."""
    others = {f"s{k}": _entry(f"s{k}", v, ["1", "3"]) for k, v in enumerate(values)}
    entries = [_entry(f"s{k}", "1") for k in range(len(values) + 1)]  # (the last: no IOPS)
    for chosen in (entries, entries[:-1]):
        sh = pts._ResultShared(None, others, {}, *([None] * len(pts._ResultValues._fields)))
        want = [pts._mean_value(others[e.system]) if e.system in others else None
                for e in chosen]
        got = pts._other_means(sh, chosen)
        assert [repr(v) for v in got] == [repr(v) for v in want]


@pytest.mark.parametrize("scale", ["MB/s", "MiB/s", " mib/s ", None])
@pytest.mark.parametrize("mode", ["auto", "MB", "MiB"])
@pytest.mark.parametrize("fio", [True, False])
def test_mb_basis_in_two_parts_is_mb_basis_of(scale, mode, fio):
    res = pts._Result("pts/fio-1.15.0", "t", None, None, None, scale, None, None, "")
    for mean, other, bs in [(10.0, 2560.0, 4096), (10.0, 2441.40625, 4096), (1.0, None, 4096),
                            (10.0, 2560.0, None), (10.0, 1.0, 4096), (0.0, 1.0, 4096)]:
        entry = None if other is None else _entry("s", repr(other))
        want = pts._mb_basis_of(res, mean, entry, bs, mode, fio)
        got = pts._result_mb_basis(res, mode) or pts._entry_rule(res)(mean, other, bs, fio)
        assert got == want


def test_module_patterns_are_the_inline_ones():
    """The patterns compiled with the module are the ones once compiled at first use."""
    assert pts._FIO_NAME_RE.pattern == r"^fio(?:-[a-z][\w]*)*-\d+(?:\.\d+)*$"
    assert pts._DESCRIPTION_CUT_RE.pattern == r" - (?=[A-Z][\w /\-]*: )"
    assert pts._NOT_KEY_RE.pattern == r"[^a-z0-9]+"
    assert all(p.flags == re.compile("").flags for p in (
        pts._FIO_NAME_RE, pts._DESCRIPTION_CUT_RE, pts._NOT_KEY_RE, pts._CUT_CHARS_RE))


# ------------------------------------------------------------------ files read from their fields

from tests.test_pts_fast import _random_doc, forget_kept  # noqa: E402
from tests.test_pts_plan import (  # noqa: E402
    _NUMBERS_RE,
    _STAMP_RE,
    CAMPAIGN,
    XML,
    _compare,
    _field_mutant,
    _full_path,
    _mutant,
    _outcome,
)


def _respelled(doc: str, rng) -> str:
    """``doc`` with every number spelled otherwise (the same value: the same MB/s bases) and
    its systems' times moved: a file the plan of ``doc`` is replayed for."""
    def spell(text: str, json: bool) -> str:
        try:
            v = float(text)
        except ValueError:
            return text
        if json:  # (digits, points and colons only: else the JSON is no field)
            return f"{text}0" if "." in text else f"0{text}"
        k = int(rng.integers(4))
        return [f"{text}0" if "." in text and "e" not in text.lower() else text, f"+{text}",
                f"{v!r}", f"{v:e}" if float(f"{v:e}") == v else text][k]

    def numbers(m: re.Match) -> str:
        json = m.group(1).startswith("test-run-times")
        return m.group(1) + ":".join(spell(t, json) for t in m.group(2).split(":"))

    def stamp(m: re.Match) -> str:
        return m.group(1) + f"2025-0{int(rng.integers(1, 10))}-1{int(rng.integers(0, 10))}" \
                            f" 0{int(rng.integers(0, 10))}:1{int(rng.integers(0, 10))}:00"

    return _STAMP_RE.sub(stamp, _NUMBERS_RE.sub(numbers, doc))


@pytest.mark.parametrize("options", [{}, {"fio_mb": "MB"}, {"fio_mb": "MiB"},
                                     {"tz": "Europe/Berlin"}, {"tz": "America/New_York"}])
@pytest.mark.parametrize("mutate", [_respelled, _mutant, _field_mutant],
                         ids=["respelled", "numbers", "fields"])
def test_fast_is_the_full_path_on_mutants_of_the_campaign(options, mutate, monkeypatch):
    rng = np.random.default_rng(len(options) + (mutate is _mutant))
    spy = _compare(CAMPAIGN.read_text(encoding="utf-8"), "c.xml", rng, monkeypatch, 25,
                   mutate, rename=True, test_logs=False, **options)
    assert pts._FASTS and any(c is not None for c in spy.fast)  # (taken where compared)
    if mutate is _respelled:  # (every mutant taken)
        assert None not in spy.fast and len(spy.fast) == 50
    else:
        assert None in spy.fast  # (and declined: the full path's notes, other layouts)


@pytest.mark.parametrize("path", XML, ids=lambda p: p.parent.name + "/" + p.name)
def test_fast_is_the_full_path_on_mutants_of_real_files(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    rng = np.random.default_rng(len(text) + 2)
    for mutate in (_mutant, _field_mutant):
        _compare(text, "composite.xml", rng, monkeypatch, 8, mutate, rename=True,
                 test_logs=False)


@pytest.mark.parametrize("seed", range(120))
def test_fast_is_the_full_path_on_mutants_of_random_files(seed, monkeypatch):
    rng = np.random.default_rng(seed + 1000)
    options = {"fio_mb": ["auto", "MB", "MiB"][seed % 3], "test_logs": False,
               "tz": [None, "Europe/Berlin"][seed % 2]}
    _compare(_random_doc(rng), "x.xml", rng, monkeypatch, 4,
             [_mutant, _field_mutant][seed % 2], rename=True, **options)


def _first_field(doc: str, tag: str, text: str) -> str:
    return re.sub(rf"<{tag}>[^<]*</{tag}>", f"<{tag}>{text}</{tag}>", doc, count=1)


@pytest.mark.parametrize("change", [
    ("Value", ""), ("Value", " "), ("Value", "PASS"), ("Value", "1e400"), ("Value", "\n7\n"),
    ("RawString", ""), ("RawString", "1"), ("RawString", "1:2:3:4"), ("RawString", "1::2"),
    ("RawString", "-1:-2:-3"), ("TimeStamp", ""), ("TimeStamp", "2024-13-45 00:00:00"),
    ("TimeStamp", " 2024-01-02 03:04:05 "), ("JSON", '{"test-run-times":""}'),
    ("JSON", '{"test-run-times":"1:2"}'), ("JSON", '{"test-run-times":"1:2:-3"}'),
    ("JSON", '{"test-run-times":"1:2:3:4"}'), ("JSON", '{"test-run-times":"1.:.5:0"}')])
def test_fast_declines_where_the_key_or_a_rule_would_differ(change, monkeypatch):
    """One field changed to what gives another plan key (no Value, other runs, no time) or
    what a rule refuses or notes: what the full path gives."""
    text = CAMPAIGN.read_text(encoding="utf-8")
    forget_kept(monkeypatch)
    pts._parse(text, "a.xml", test_logs=False)
    assert pts._FASTS
    doc = _first_field(text, *change)
    assert doc != text
    assert _outcome(doc, "b.xml", test_logs=False) == _full_path(doc, "b.xml", monkeypatch,
                                                                test_logs=False)
    assert _outcome(text, "c.xml", test_logs=False) == _full_path(text, "c.xml", monkeypatch,
                                                                 test_logs=False)


def test_fast_is_kept_per_options_and_bounded(monkeypatch):
    monkeypatch.setattr(pts, "_FASTS", {})
    monkeypatch.setattr(pts, "_FASTS_MAX", 3)
    text = CAMPAIGN.read_text(encoding="utf-8")
    pts._parse(text, "a.xml", test_logs=False)
    pts._parse(text, "a.xml", test_logs=False, fio_mb="MB")
    assert {key[1:] for key in pts._FASTS} == {(None, "auto"), (None, "MB")}
    for k in range(8):
        pts._parse(text.replace("Disk: 100GB", f"Disk: {k}GB"), "x.xml", test_logs=False)
        assert 1 <= len(pts._FASTS) <= 3


def test_no_fast_with_test_logs(tmp_path, monkeypatch):
    """Test-log times are read entry by entry: a folder with test-logs keeps and takes none."""
    monkeypatch.setattr(pts, "_FASTS", {})
    (tmp_path / "test-logs").mkdir()
    text = CAMPAIGN.read_text(encoding="utf-8")
    for name in ("a.xml", "b.xml"):
        pts._parse(text, str(tmp_path / name))
    assert not pts._FASTS


@pytest.mark.parametrize("tz", [None, "Europe/Berlin", "America/New_York"])
def test_kept_times_are_the_times_read(tz, monkeypatch):
    """A TimeStamp read again gives the time read the first time (the kept one), and one that
    gave a note gives it again each time (never kept)."""
    monkeypatch.setattr(pts, "_STAMPS", {})
    texts = ["2024-03-07 16:37:00", " 2024-03-07 16:37:00 ", "2024-03-31 02:30:00",
             "2024-10-27 02:30:00", "2024-11-03 01:30:00", "2024-13-45 00:00:00", "yesterday",
             "2024-01-02", "2024-01-02 03:04", ""]
    for text in texts:
        notes_first: list[str] = []
        first = pts._tstamp(text, tz, notes_first, "x")
        want_notes: list[str] = []
        want = pts._time_of(text, tz, want_notes, "x") if text else None
        again_notes: list[str] = []
        again = pts._tstamp(text, tz, again_notes, "x")
        assert repr(first) == repr(want) == repr(again)
        assert notes_first == want_notes == again_notes
        assert ((text, tz) in pts._STAMPS) == (want is not None)
