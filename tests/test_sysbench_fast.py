"""sysbench reader: the shortcuts of the fast line classification decide as the plain rules do.

Each line is classified by the branches that can start with the line's first character (an
analysis of the patterns, written out), tried in turn; lines without figures are
remembered, numbers are matched possessively and the sniff splits only the first characters of a
head. Each shortcut is checked here against the plain rule it replaces: every pattern tried in
turn, a fresh classification, the greedy number pattern, the whole head split into lines.
"""

from __future__ import annotations

import random
import re

import pytest

from ebsstats.errors import ParseError
from ebsstats.io import sysbench as sb
from tests.conftest import FIXTURES

_GREEDY_NUM = r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"


def _fixture_lines() -> list[str]:
    lines = set()
    for p in sorted((FIXTURES / "sysbench").iterdir()):
        if p.is_file():
            lines.update(x.strip() for x in p.read_text(errors="replace").splitlines())
    return sorted(x for x in lines if x)


def _variants(lines: list[str], n: int, seed: int = 19) -> list[str]:
    """Fixture lines and mutants: cases swapped, first characters replaced by look-alikes that
    case-insensitive matching may fold (KELVIN SIGN, LONG S, dotted I), digits by other
    scripts' digits, numbers by extreme forms, whitespace changed."""
    rng = random.Random(seed)
    swaps = ["K", "\u212a", "\u017f", "\u0130", "\u0131", "\u0661", "\uff11", "b", "B", "o",
             "O", "[", "(", "-", "+", "5", "e", "\u00e9", " ", "\t"]
    numbers = ["1e5", "+3", "-0", ".5", "5.", "1E+2", "12.", "3.4.5", "9" * 30, "1e-5", "nan",
               "\u0661\u0662", "1e", "2e+", "7s", "8ms"]
    out = list(lines)
    for _ in range(n):
        s = rng.choice(lines)
        k = rng.randrange(6)
        if k == 0:
            s = s.swapcase()
        elif k == 1:
            s = rng.choice(swaps) + s[1:]
        elif k == 2:
            s = re.sub(r"\d+(?:\.\d+)?", lambda m: rng.choice(numbers), s, count=1)
        elif k == 3:
            s = s.replace(" ", rng.choice(["", "  ", "\t", "\u00a0"]), 1)
        elif k == 4:
            s = s[: rng.randrange(len(s) + 1)]
        else:
            s = rng.choice(swaps) + s
        if s.strip():
            out.append(s.strip())
    return out


LINES = _variants(_fixture_lines(), 6000)


def _plain(s: str):
    """The first of every branch, tried in turn: (kind, row, groups) or None."""
    for kind, row, pattern in sb._BRANCHES:
        m = pattern.match(s)
        if m is not None:
            return kind, row, m.groups()
    return None


def _fast(s: str):
    for (kind, row), match in sb._classifier(s[0]):
        m = match(s)
        if m is not None:
            return kind, row, m.groups()
    return None


def test_the_narrowed_branches_pick_the_branch_every_pattern_in_turn_picks():
    # a first-character set that left out a branch that can match would pick a later one here
    assert len(LINES) > 6000
    assert [_fast(s) for s in LINES] == [_plain(s) for s in LINES]


def test_the_written_out_first_characters_are_the_analysis_of_the_patterns():
    # _STARTS spares a first read the analysis; a pattern changed without it fails here
    assert sb._STARTS == sb._firsts()


def test_first_characters_are_never_too_few():
    # for every branch with a set: each line it matches starts with one of the set's characters
    firsts = sb._firsts()
    for (kind, row, pattern), f in zip(sb._BRANCHES, firsts, strict=True):
        if f is None:
            continue
        for s in LINES:
            if pattern.match(s):
                c = s[0]
                assert (c in f or (c.isdecimal() and sb._DIGIT in f)
                        or (not c.isascii() and sb._NON_ASCII in f)), (kind, row, s)


def test_first_characters_of_some_patterns():
    fc = sb._first_chars
    assert fc(re.compile(r"^Number of threads:\s*(\d+)")) == frozenset("N")
    assert fc(re.compile(r"(?:min|avg|max):")) == frozenset("am")
    assert fc(re.compile(r"[-+]?\d+ x")) == frozenset({"-", "+", sb._DIGIT})
    assert fc(re.compile(r"(?i:Block size)")) == frozenset({"B", "b", sb._NON_ASCII})
    # beyond the analysis: any character
    assert fc(re.compile(r"(\S+?)B? total")) is None
    assert fc(re.compile(r"a?")) is None  # may match nothing
    assert fc(re.compile(r"[^a]x")) is None


def test_the_case_insensitive_branch_is_kept_for_characters_that_fold_to_it():
    # "\u212a" (KELVIN SIGN) matches "k" ignoring case: a line starting with it must still be
    # tried against a case-insensitive branch starting with k
    p = re.compile("(?i:kb)")
    assert p.match("\u212ab")
    assert "\u212a" not in "kK" and sb._NON_ASCII in sb._first_chars(p)


@pytest.mark.parametrize("name", ["_H_RATIO", "_R_REQS04", "_R_RATE10", "_R_TPUT10", "_R_IOPS11",
                                  "_R_TOTAL_TIME", "_R_EPS", "_R_LAT", "_R_PCT04", "_R_PCT10",
                                  "_R_MEM10", "_R_MEM04", "_R_MEMXFER", "_R_TRX", "_R_QUERIES",
                                  "_R_PREPARE", "_T_RE", "_I_FILE", "_I_EPS", "_I_OLTP10",
                                  "_I_OLTP05", "_I_MEM"])
def test_possessive_numbers_match_as_greedy_ones(name):
    # nothing that follows a number in these patterns starts with a number's character, so a
    # number never given back matches the same lines with the same groups
    fast = getattr(sb, name)
    assert sb._NUM in fast.pattern
    greedy = re.compile(fast.pattern.replace(sb._NUM, _GREEDY_NUM), fast.flags)
    bodies = [s.split("]", 1)[1].strip() if s.startswith("[") and "]" in s else s for s in LINES]
    for s in LINES + bodies:
        a, b = fast.match(s), greedy.match(s)
        assert (a and a.groups()) == (b and b.groups()), s


def test_a_first_read_compiles_no_pattern(monkeypatch):
    # what a fresh process pays on its first read: the line classification uses the patterns
    # compiled at import, a plan is a split (a compile only once a plan was used often)
    monkeypatch.setattr(sb, "_CLASSIFIERS", {})
    monkeypatch.setattr(sb, "_SEEN", {})
    monkeypatch.setattr(sb, "_PLANS", {})
    compiled = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda *a, **k: compiled.append(a) or real(*a, **k))
    read = 0
    for p in sorted((FIXTURES / "sysbench").iterdir()):
        if p.is_file():
            try:
                sb._parse(p.read_text(errors="replace"), p.name)
                read += 1
            except ParseError:
                pass
    assert read > 20 and compiled == []


def test_lines_remembered_give_the_same_result_as_a_fresh_classification(monkeypatch):
    text = (FIXTURES / "sysbench" / "sb_fileio_rndrw_t1_run.txt").read_text()
    monkeypatch.setattr(sb, "_SEEN", {})
    monkeypatch.setattr(sb, "_PLANS", {})  # read line by line (no plan of this layout yet)
    fresh = sb._parse(text, "a.txt")
    assert sb._SEEN  # option echoes, headings, ... remembered
    again = sb._parse(text, "a.txt")
    assert repr(again.columns) == repr(fresh.columns) and again.notes == fresh.notes


def test_the_table_of_remembered_lines_is_bounded(monkeypatch):
    monkeypatch.setattr(sb, "_SEEN", {})
    monkeypatch.setattr(sb, "_SEEN_MAX", 50)
    base = (FIXTURES / "sysbench" / "sb_fileio_rndrd_t1_run.txt").read_text()
    for k in range(40):  # each with lines of its own
        sb._parse(base + "".join(f"note {k} {j}\n" for j in range(30)), f"f{k}.txt")
        assert len(sb._SEEN) <= 50


BANNER = "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n"


@pytest.mark.parametrize(("head", "expected"), [
    (BANNER, "sysbench 1.0"),
    # the banner after 4,096 and more characters of warnings: the whole head is looked at
    ("WARNING: " + "x" * 5000 + "\n" + BANNER, "sysbench 1.0"),
    ("WARNING: a\n" * 39 + BANNER, "sysbench 1.0"),
    # after 40 lines it is no sysbench output, however short the lines
    ("WARNING: a\n" * 40 + BANNER, None),
    ("\n" * 300 + BANNER, None),
    # a CR LF pair cut at the 256th character
    ("WARNING: " + "y" * 245 + "\r\n" + BANNER, "sysbench 1.0"),
    ('{\n  "fio version" : "fio-3.33",\n' + " " * 70000, None),
])
def test_sniff_of_long_heads(head, expected):
    assert sb.sniff(head[:65536], "x") == expected
    # the rule it keeps: the first 40 lines of the whole head
    plain = next((s for s in (x.strip() for x in head[:65536].splitlines()[:40])
                  if s and not s.startswith("WARNING:") and not sb._PARAMS_RE.match(s)), None)
    assert (plain is not None and sb._BANNER_RE.match(plain) is not None) == (expected is not None)



def _first_meaningful_rule(head: str) -> str | None:
    """The sniff's first meaningful line as it was before its first-line shortcut (the rule)."""
    for limit in (256, 4096, None):
        cut = limit is not None and len(head) > limit
        lines = head[:limit].splitlines() if cut else head.splitlines()
        if cut:
            lines.pop()
        for line in lines[:40]:
            s = line.strip()
            if s and not s.startswith("WARNING:") and not sb._PARAMS_RE.match(s):
                return s
        if not cut or len(lines) >= 40:
            return None
    return None


def test_the_first_line_shortcut_of_the_sniff_keeps_the_rule():
    """``_first_meaningful`` (a printable first line ended by a line feed taken at once) gives
    what the line loop gave, on every fixture's head and on heads whose first lines hold other
    line breaks, tabs, blanks, warnings, PARAMS or more than 256 characters."""
    import random

    rng = random.Random(43)
    heads = [p.read_text(errors="replace")[:65536] for p in sorted(FIXTURES.rglob("*"))
             if p.is_file()]
    firsts = ["", " ", "\t", "WARNING: x", "PARAMS 16G rndrd 16", "x" * 300, "\r", "a\rb",
              "a\x0cb", "a\x1cb", "a\x85b", "a\u2028b", "\u00e9t\u00e9", "sysbench 0.5:\tx",
              BANNER.strip(), " " + BANNER.strip() + " ", "a\x0bb", "\x00", "y" * 254]
    cases = list(heads)
    for _ in range(4000):
        head = rng.choice(heads)
        for _ in range(rng.randint(1, 3)):
            head = rng.choice(firsts) + rng.choice(["\n", "\r\n", "\r", ""]) + head
        cases.append(head[:rng.choice([255, 256, 257, 300, 5000, 65536])])
    shortcut = 0
    for head in cases:
        assert sb._first_meaningful(head) == _first_meaningful_rule(head), head[:300]
        shortcut += 0 < head.find("\n", 0, 256) and head[:head.find("\n")].isprintable()
    assert shortcut > 500, shortcut
