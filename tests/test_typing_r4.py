"""Round-4 shortcuts of the typing engine (:mod:`ebsstats.io._columns`), each tested against
the general rule it replaces: run ids kept between reads (:func:`ebsstats.schema.run_id`'s
values, never another type's)."""

from __future__ import annotations

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ebsstats import schema
from ebsstats.io import _columns, _common
from ebsstats.io._columns import Const

_keys = st.one_of(st.text(max_size=8), st.integers(-3, 3), st.booleans(), st.none(),
                  st.sampled_from([1.0, 0.0, -0.0, float("nan")]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b.json", "", "1", "\udc80"]), _keys),
                max_size=12))
def test_kept_run_ids_are_run_id_whatever_was_kept_before(pairs):
    # 1, 1.0 and True are equal and hash alike, but their ids differ: none may be given
    # another's kept id, in any order, and a source that cannot be encoded raises each time
    for source, key in pairs + pairs[::-1]:
        try:
            want = schema.run_id(source, key)
        except UnicodeEncodeError:
            try:
                _columns._run_id(source, key)
            except UnicodeEncodeError:
                continue
            raise AssertionError("an unencodable source gave an id") from None
        assert _columns._run_id(source, key) == want


def test_kept_run_ids_are_bounded(monkeypatch):
    monkeypatch.setattr(_columns, "_RUN_IDS", {})
    monkeypatch.setattr(_columns, "_RUN_IDS_MOST", 3)
    for k in range(10):
        assert _columns._run_id("s", k) == schema.run_id("s", k)
        assert len(_columns._RUN_IDS) <= 3


def _chunks(key_lists: bool):
    out = []
    for j in range(3):
        n = 4
        keys = [f"r{i % 2}" for i in range(n)] if key_lists else Const(f"r{j}", n)
        out.append(({"source": Const(f"f{j}.json", n), "tool": Const("fio", n),
                     "test": Const("t", n), "metric": Const("iops", n),
                     "value": [1.0] * n, "run_key": keys}, n))
    return out


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.booleans())
def test_a_read_again_hashes_no_run_and_gives_the_same_frame(monkeypatch, key_lists):
    monkeypatch.setattr(_columns, "_RUN_IDS", {})
    first = _common.results_of(_chunks(key_lists), validated=True)
    calls = []
    monkeypatch.setattr(_columns, "run_id", lambda *a: calls.append(a) or schema.run_id(*a))
    again = _common.results_of(_chunks(key_lists), validated=True)
    assert calls == []
    pd.testing.assert_frame_equal(first, again)
    want = [schema.run_id(s, k) for s, k in zip(first["source"], first["run_id"].index.map(
        lambda i: f"r{i % 2}" if key_lists else f"r{i // 4}"), strict=True)]
    assert list(first["run_id"]) == want
