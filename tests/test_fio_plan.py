"""The fio JSON reader's report plans (a layout's rows read by one compiled function, once the
fast path has read the layout ``_PLAN_AFTER`` times) against the general path: the plan made
from a genuine report, then that report mutated (a value, a key missing, any value anywhere),
read again by the plan: the same rows as the general path, or no answer where it refuses."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ebsstats.io.fio import json as fio_json
from ebsstats.simulate.fuzz import mutations
from tests.conftest import fixture
from tests.test_fio_fast import JSON_SAMPLES, SLOTS, SMALL, VALUES, _at, _check, _objects


@pytest.fixture(autouse=True)
def plans_at_once(monkeypatch):
    """Plans made on a layout's first fast read, counted when they answer; none kept before."""
    monkeypatch.setattr(fio_json, "_PLAN_AFTER", 1)
    monkeypatch.setattr(fio_json, "_REPORT_PLANS", {})
    monkeypatch.setattr(fio_json, "_PLAN_SEEN", {})
    hits = []
    planned = fio_json._planned

    def counted(*args):
        got = planned(*args)
        hits.append(got is not None)
        return got

    monkeypatch.setattr(fio_json, "_planned", counted)
    return hits


def _primed(text: str, name: str) -> None:
    """A plan made of ``text`` (the fast path reads it, then the plan does)."""
    assert _check(text, name)
    assert fio_json._REPORT_PLANS, "no plan was made"


@pytest.mark.parametrize("name", sorted(JSON_SAMPLES))
def test_a_plan_gives_the_general_paths_rows_on_every_genuine_report(name, plans_at_once):
    text = JSON_SAMPLES[name].decode("utf-8")
    if not _check(text, name):
        return  # (status intervals, a failed job ...: never the fast path, never a plan)
    if not fio_json._REPORT_PLANS:  # percentile padding (fio 2.x to 3.1, at least): plans
        # leave it to the fast path
        assert '"0.00" : 0' in text, name
        return
    assert _check(text, name)  # read again: by its plan
    assert plans_at_once and all(plans_at_once), name


@pytest.mark.parametrize("name", ["small_json.json", "small_jsonplus.json",
                                  "multi_gr_json.json", "ioengine_sync_fsync.json",
                                  "unified_mixed.json", "cli_randrw_4k.json"])
def test_a_plan_agrees_on_mutated_reports(name, plans_at_once):
    data = fixture("fio", name).read_bytes()
    _primed(data.decode("utf-8"), name)
    for _kind, case in mutations(data, np.random.default_rng(23), 150):
        try:
            text = case.decode("utf-8")
        except UnicodeDecodeError:
            continue
        _check(text, name)
    assert sum(plans_at_once) >= 10  # the plans answered some mutants


@pytest.mark.parametrize("name", ["small_json.json", "small_jsonplus.json",
                                  "multi_json.json", "ioengine_sync_fsync.json",
                                  "unified_mixed.json", "cli_randrw_4k.json"])
def test_any_key_missing_a_plan_and_the_general_path_agree(name, plans_at_once):
    text = fixture("fio", name).read_text()
    doc = json.loads(text)
    for path in _objects(doc):
        for key in list(_at(doc, path)):
            _primed(text, name)  # (a mutant's own layout may be planned in turn: start again)
            fio_json._REPORT_PLANS.clear()
            _primed(text, name)
            copy = json.loads(json.dumps(doc))
            del _at(copy, path)[key]
            _check(json.dumps(copy, indent=1), name)
    assert any(plans_at_once)


@pytest.mark.parametrize("literal", ["0", "0.0", "-0.0", "1", "1e300", "null", '"0"', "true",
                                     "{}", "[]"])
def test_each_number_set_to_a_literal_a_plan_and_the_general_path_agree(literal):
    text = json.dumps(SMALL, indent=1)
    for slot in SLOTS:
        fio_json._REPORT_PLANS.clear()
        _primed(text, "x.json")
        doc = json.loads(text)
        target = _at(doc, slot[:-1])
        target[slot[-1]] = "@@"
        _check(json.dumps(doc, indent=1).replace('"@@"', literal))


@settings(max_examples=int(__import__("os").environ.get("EBSSTATS_FUZZ_EXAMPLES", "60")),
          deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                HealthCheck.function_scoped_fixture])
@given(slot=st.sampled_from(SLOTS), value=VALUES)
def test_any_value_anywhere_a_plan_and_the_general_path_agree(slot, value):
    text = json.dumps(SMALL, indent=1)
    fio_json._REPORT_PLANS.clear()
    _primed(text, "x.json")
    doc = json.loads(text)
    *head, last = slot
    _at(doc, tuple(head))[last] = value
    try:
        mutant = json.dumps(doc, indent=1)
    except ValueError:
        return
    _check(mutant)


@pytest.mark.parametrize("name", ["small_json.json", "multi_json.json", "unified_mixed.json",
                                  "cli_randrw_4k.json"])
def test_a_plan_made_without_a_key_and_the_general_path_agree_on_the_report(name):
    # the other way round: the plan made of the report with a key missing, then the report
    # itself (a key the plan's layout lacks) read by it, or not
    text = fixture("fio", name).read_text()
    doc = json.loads(text)
    for path in _objects(doc):
        for key in list(_at(doc, path)):
            copy = json.loads(json.dumps(doc))
            del _at(copy, path)[key]
            fio_json._REPORT_PLANS.clear()
            mutant = json.dumps(copy, indent=1)
            if _check(mutant, name) and fio_json._REPORT_PLANS:
                _check(text, name)
