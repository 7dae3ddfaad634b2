"""fio's text-format sniff rules out a head without any ``;`` by one memchr before its count of
them: the same verdict as the count alone (the rule), on every genuine head, its mutations and
heads with ``;`` put in."""

from __future__ import annotations

import random

import numpy as np

from ebsstats.io import fio
from ebsstats.io._common import HEAD_BYTES
from ebsstats.simulate.fuzz import mutations
from tests.conftest import FIXTURES, ROOT


def _genuine_heads(seed: int) -> list[str]:
    """The head of every fixture and data/ file, and two mutations of each."""
    rng = np.random.default_rng(seed)
    heads = []
    for root in (FIXTURES, ROOT / "data"):
        for p in sorted(root.rglob("*")):
            if p.is_file():
                data = p.read_bytes()[:HEAD_BYTES]
                heads.append(data.decode("utf-8", "replace"))
                heads += [m[:HEAD_BYTES].decode("utf-8", "replace")
                          for _, m in mutations(data, rng, 2)]
    return heads


def _rule(lines, text):
    """_text_format as it was: the count of ``;`` first, whatever the text; then a normal
    report's job header, then fio's job line alone (a report that never came)."""
    if text.count(";") >= 100:
        for line in text.splitlines()[:200] if lines is None else lines:
            line = line.rsplit("\r", 1)[-1]
            if fio._TERSE_START.match(line) and line.count(";") >= 100:
                return "terse"
    if "(groupid=" in text and fio._NORMAL_SNIFF.search(text):
        return "normal"
    if "(g=" in text and fio._JOB_LINE_SNIFF.search(text):
        return "normal"
    return None


def test_fio_text_format_is_the_rule():
    heads = _genuine_heads(7)
    pick = random.Random(3)
    for _ in range(500):
        head = pick.choice(heads)
        at = pick.randrange(len(head) + 1)
        heads.append(head[:at] + pick.choice([";", "3;fio-3.33" + ";" * 120, "\n" + ";" * 99])
                     + head[at:])
    assert sum(";" not in h for h in heads) > 100 and sum(h.count(";") >= 100 for h in heads) > 50
    for head in heads:
        assert fio._text_format(None, head) == _rule(None, head)
        assert fio.sniff(head, "x") == (None if fio.PTS_TEST_LOG.match(head) else (
            "json" if '"fio version"' in head and fio._JSON_SNIFF.search(head)
            else _rule(None, head)))


def test_bonnie_comma_clue_is_the_regex(monkeypatch):
    from ebsstats.io import bonnie
    from tests.test_bonnie_fast import _CLUES

    heads = _genuine_heads(5)
    pick = random.Random(5)
    bits = _CLUES + [",", ",,", "\n", ",\n,", "bonnie_version", "file_size", "putc",
                     ",file_size,", "putc,", "x,\r,y", ",bonnie_version"]
    for _ in range(3000):
        head = pick.choice(heads)[:pick.choice([0, 50, 300, 4096, 65536])]
        for _ in range(pick.randint(1, 4)):
            at = pick.randrange(len(head) + 1)
            head = head[:at] + pick.choice(bits) + head[at:]
        heads.append(head)
    for _ in range(2000):  # texts of commas, line breaks and the clues' words only
        heads.append("".join(pick.choice([",", ",", ",", "\n", "a", "file_size", "putc",
                                          "bonnie_version", "\r", " " * 300])
                             for _ in range(pick.randint(0, 80))))
    got = [bonnie._comma_clue(h) for h in heads]
    want = [bonnie._COMMA_CLUES.search(h) is not None for h in heads]
    assert got == want
    assert 500 < sum(got) < len(got) - 500
    few = [h for h in heads if h.count(",") < min(bonnie._SPLIT_MOST, len(h) >> 7)]
    assert len(few) > 1000 and sum(map(bonnie._comma_clue, few)) > 150  # (the split way)
    monkeypatch.setattr(bonnie, "_SPLIT_MOST", 3)  # (the regex way on heads of more commas)
    assert [bonnie._comma_clue(h) for h in heads] == want
