"""PTS shortcut against the rule it replaces: a replayed file (pts._plan_parsed) is
handed its plan's lists themselves, not a copy of them. Tested: folders of a file and field
mutants of it read (twice, with series) give the frames of the full path, and no read modifies
the plan's lists (every later file of the layout is handed them)."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.io import pts
from tests.test_pts_fast import full_path_only
from tests.test_pts_plan import XML, _field_mutant


def _folder(tmp_path, doc: str, rng, files: int):
    for k in range(files):
        text = doc if k == 0 else _field_mutant(doc, rng)
        (tmp_path / f"f{k:02d}__composite.xml").write_text(text)
    return tmp_path


def _read(folder, **options):
    got = es.read(folder, jobs=1, progress=False, with_failures=True, **options)
    return got if isinstance(got, tuple) else (got,)


def _same(a, b) -> None:
    for x, y in zip(a, b, strict=True):
        if isinstance(x, pd.DataFrame):
            pd.testing.assert_frame_equal(x, y)
        elif isinstance(x, dict):
            assert x.keys() == y.keys()
            for k in x:
                _same((x[k],), (y[k],))
        else:
            assert repr(x) == repr(y)


@pytest.mark.filterwarnings("ignore:ebsstats.read")
@pytest.mark.parametrize("path", XML[:6], ids=lambda p: p.parent.name + "/" + p.name)
def test_plan_lists_handed_over_are_the_full_path(path, tmp_path, monkeypatch):
    rng = np.random.default_rng(8)
    folder = _folder(tmp_path, path.read_text(encoding="utf-8", errors="replace"), rng, 5)
    for name in ("_PLANS", "_TEMPLATES", "_FASTS"):
        monkeypatch.setattr(pts, name, {})
    got = [_read(folder), _read(folder, series=True)]
    kept = copy.deepcopy({k: p.columns for k, p in pts._PLANS.items()})
    again = [_read(folder), _read(folder, series=True)]
    assert {k: p.columns for k, p in pts._PLANS.items()} == kept  # (never modified)
    with monkeypatch.context() as mp:
        full_path_only(mp)
        want = [_read(folder), _read(folder, series=True)]
    for g, a, w in zip(got, again, want, strict=True):
        _same(g, w)
        _same(a, w)


def test_replayed_files_are_handed_the_plans_lists(monkeypatch):
    path = XML[0]
    doc = path.read_text(encoding="utf-8", errors="replace")
    for name in ("_PLANS", "_TEMPLATES", "_FASTS"):
        monkeypatch.setattr(pts, name, {})
    first = pts._parse(doc, "a.xml", test_logs=False)
    second = pts._parse(doc, "b.xml", test_logs=False)
    third = pts._parse(doc, "c.xml", test_logs=False)
    if not pts._PLANS:
        pytest.skip("no plan kept for this file")
    (plan,) = pts._PLANS.values()
    cols2, cols3 = second.columns[0], third.columns[0]
    assert list(cols2) == list(first.columns[0]) == list(plan.columns)
    for name, col in plan.columns.items():
        if type(col) is list and name not in pts._PLAN_MADE:
            assert cols2[name] is col and cols3[name] is col
            assert first.columns[0][name] is col  # (the first file's own lists)
    assert cols2["source"] != cols3["source"]
