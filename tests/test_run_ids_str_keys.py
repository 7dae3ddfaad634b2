"""Run-id shortcut against the rule it replaces: a file's run keys that are a list of ``str``
(exactly) hashed without judging their types a second time; every other list of keys (a
subclass of ``str``, ints, bools, missing keys) as before. Each row's id is what
:func:`ebsstats.schema.run_id` gives of its source and key (its position where the key is
missing)."""

from __future__ import annotations

import random

import pandas as pd

from ebsstats.io import _columns
from ebsstats.schema import run_id


class _Str(str):
    """A string subclass, not a ``str`` exactly: formatted otherwise (run_id gives it another
    id than its text's)."""

    def __format__(self, spec):
        return f"<{str(self)}>"


# (not 1 beside True: the general path keys distinct keys by equality, 1 == True, and gives
# both the first one's id, unlike run_id row by row; as it did before this round)
_KEYS = ["k0", "k1", "", "\u00e9", _Str("s0"), 1, None, pd.NA, float("nan"), 2]


def _rule(source: str, key, position):
    return run_id(source, position if _columns._missing(key) else key)


def test_run_ids_of_str_keys_are_what_run_id_gives_row_by_row():
    rng = random.Random(8)
    checked = 0
    for _ in range(400):
        n = [rng.randint(1, 6) for _ in range(rng.randint(1, 4))]
        pool = _KEYS[:rng.choice([2, 4, len(_KEYS)])]
        sources = [f"f{rng.randint(0, 2)}.xml" for _ in n]
        keys = [[rng.choice(pool) for _ in range(k)] for k in n]
        positions = [[f"p{i}" for i in range(k)] for k in n]
        key_pieces: list = [list(k) for k in keys]
        pos_pieces: list = [list(p) for p in positions]
        for j, k in enumerate(n):  # (some files' keys, or keys and positions, one value)
            r = rng.random()
            if r < 0.4:
                keys[j] = [rng.choice(pool)] * k
                key_pieces[j] = _columns.Const(keys[j][0], k)
            if r < 0.2:
                positions[j] = ["p"] * k
                pos_pieces[j] = _columns.Const("p", k)
        pieces = {"source": [_columns.Const(s, k) for s, k in zip(sources, n, strict=True)],
                  "run_key": key_pieces, "position": pos_pieces}
        _columns._fill_run_ids(pieces, n)
        for j, k in enumerate(n):
            got = _columns._piece_list(pieces["run_id"][j])
            want = [_rule(sources[j], kk, pp) for kk, pp in zip(keys[j], positions[j],
                                                                 strict=True)]
            assert got == want, (sources[j], keys[j])
            checked += k
    assert checked > 1000


def test_str_keys_skip_only_the_second_judging():
    keys = ["a", "b", "a"]
    assert _columns._run_ids_of_keys("f.xml", keys, str_keys=True) == _columns._run_ids_of_keys(
        "f.xml", keys) == [run_id("f.xml", k) for k in keys]
    odd = ["a", _Str("b")]
    assert run_id("f.xml", odd[1]) != run_id("f.xml", "b")  # (not judged str_keys by _fill_run_ids: typed the general way)
    assert _columns._run_ids_of_keys("f.xml", odd) == [run_id("f.xml", k) for k in odd]
