"""The sniff's shortcuts give the verdict of the full sniff, reader by reader and overall.

The registry asks each reader in turn; two readers' detects take shortcuts: bonnie++'s
``_worth_a_look`` (substring searches that rule a head out before its lines are looked at) and
sysbench's first-line shortcut of ``_first_meaningful``. Here the whole sniff (``sniff_text``:
which reader, which format) is compared with the sniff whose bonnie++ detect looks at every
line and whose sysbench detect splits the head as its rule does, on every genuine file's head
(fixtures and the bundled corpus) and on the fuzzer's mutations of them.
"""

from __future__ import annotations

import random

import numpy as np

from ebsstats.io import bonnie, sniff, sysbench
from ebsstats.io._common import HEAD_BYTES
from ebsstats.simulate.fuzz import mutations
from tests.conftest import FIXTURES, ROOT
from tests.test_bonnie_fast import _CLUES
from tests.test_sysbench_fast import BANNER, _first_meaningful_rule

# first lines a sysbench head may start with (the shortcut takes a printable one)
_FIRSTS = ["", " ", "\t", "WARNING: x", "PARAMS 16G rndrd 16", "a\rb", "a\x0cb", "\u2028",
           BANNER.strip(), "sysbench 0.4.12:  multi-threaded system evaluation benchmark"]


def _files() -> list[tuple[str, bytes]]:
    roots = [FIXTURES, ROOT / "data"]
    return [(p.name, p.read_bytes()) for root in roots for p in sorted(root.rglob("*"))
            if p.is_file()]


def _verdict(head: str, name: str):
    got = sniff.sniff_text(head, name)
    return None if got is None else (got.module, got.format)


def test_the_sniff_with_shortcuts_is_the_full_sniff(monkeypatch):
    rng = np.random.default_rng(11)
    cases = []
    for name, data in _files():
        cases.append((name, data))
        if len(data) <= 300_000:
            cases += [(name, m) for _, m in mutations(data, rng, 4)]
    heads = [(data[:HEAD_BYTES].decode("utf-8", "replace"), name) for name, data in cases]
    pick = random.Random(13)
    for _ in range(3000):  # the words the shortcuts look for, put in anywhere
        head, name = pick.choice(heads)
        head = head[:pick.choice([300, 4096, 65536])]
        for _ in range(pick.randint(1, 2)):
            at = pick.randrange(len(head) + 1)
            head = head[:at] + pick.choice(_CLUES) + head[at:]
        if pick.random() < 0.3:
            head = pick.choice(_FIRSTS) + pick.choice(["\n", "\r\n"]) + head
        heads.append((head, name))
    assert len(heads) > 7000
    fast = [_verdict(h, n) for h, n in heads]
    monkeypatch.setattr(bonnie, "_worth_a_look", lambda head: True)
    monkeypatch.setattr(sysbench, "_first_meaningful", _first_meaningful_rule)
    monkeypatch.setattr(sniff, "_VERDICTS", {})
    full = [_verdict(h, n) for h, n in heads]
    assert fast == full
    readers = {v[0] for v in fast if v}
    assert {"ebsstats.io.bonnie", "ebsstats.io.sysbench", "ebsstats.io.fio"} <= readers
