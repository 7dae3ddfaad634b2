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
        got = pts._result_mb_basis(res, mode) or pts._entry_mb_basis(mean, other, bs, fio)
        assert got == want


def test_module_patterns_are_the_inline_ones():
    """The patterns compiled with the module are the ones once compiled at first use."""
    assert pts._FIO_NAME_RE.pattern == r"^fio(?:-[a-z][\w]*)*-\d+(?:\.\d+)*$"
    assert pts._DESCRIPTION_CUT_RE.pattern == r" - (?=[A-Z][\w /\-]*: )"
    assert pts._NOT_KEY_RE.pattern == r"[^a-z0-9]+"
    assert all(p.flags == re.compile("").flags for p in (
        pts._FIO_NAME_RE, pts._DESCRIPTION_CUT_RE, pts._NOT_KEY_RE, pts._CUT_CHARS_RE))
