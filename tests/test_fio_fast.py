"""The fio JSON reader's fast path (the usual report, decoded by msgspec and read from
per-layout plans) against its general path (msgspec or the standard library, every value checked
on its own): the same rows, value types included, wherever the fast path answers; and no answer
at all where the general path refuses the file (an over-long integer in a key the rows do not
use included)."""

from __future__ import annotations

import datetime
import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ebsstats as es
from ebsstats.io import fio
from ebsstats.io._columns import Const, Runs, _piece_list, frame_of_columns
from ebsstats.io.fio import json as fio_json
from ebsstats.simulate.fuzz import genuine_samples, mutations
from tests.conftest import FIXTURES, ROOT, fixture, json_slots


def _exact(v):
    """A value compared with its type and every bit (1 == 1.0 and -0.0 == 0.0 are not)."""
    if type(v) is Const:
        return ("Const", _exact(v.value), v.n)
    if type(v) is Runs:
        return ("Runs", [_exact(x) for x in v.values], [_exact(c) for c in v.counts])
    if isinstance(v, list):
        return [_exact(x) for x in v]
    if isinstance(v, float):
        return ("float", "nan" if math.isnan(v) else v.hex())
    if isinstance(v, pd.Timestamp):  # (its repr fails beyond the year 9999)
        return ("Timestamp", v.unit, int(v.asm8.view("i8")), str(v.tz))
    return (type(v).__name__, repr(v))


def _general(text: str, source: str):
    """The general path's result (ParseError raised as it is)."""
    saved = fio_json._fast_json
    fio_json._fast_json = lambda text, source: None
    try:
        return fio_json._parse_json(text, source)
    finally:
        fio_json._fast_json = saved


def _same(fast, general) -> None:
    fcols, fn = fast.columns
    gcols, gn = general.columns
    assert (fast.tool, fast.format, fast.version, fast.notes, fast.series, fn) == (
        general.tool, general.format, general.version, general.notes, general.series, gn)
    assert list(fcols) == list(gcols)  # same columns in the same order
    for k in gcols:
        assert _exact(fcols[k]) == _exact(gcols[k]), k


def _check(text: str, source: str = "x.json") -> bool:
    """Fast and general path agree on ``text``; returns whether the fast path answered."""
    fast = fio_json._fast_json(text, source)
    try:
        general = _general(text, source)
    except es.ParseError:
        assert fast is None, "the fast path read a file the general path refuses"
        return False
    except (ValueError, RecursionError, OverflowError):  # the caller's unconvertible()
        assert fast is None
        return False
    if fast is not None:
        _same(fast, general)
    return fast is not None


JSON_SAMPLES = {name: data for name, data in genuine_samples(
    "ebsstats.io.fio", [FIXTURES], relative_to=ROOT).items()
    if fio.sniff(data[:65536].decode("utf-8", "replace"), name) == "json"}


@pytest.mark.parametrize("name", sorted(JSON_SAMPLES))
def test_fast_path_gives_the_general_paths_rows_on_every_genuine_report(name):
    text = JSON_SAMPLES[name].decode("utf-8")
    answered = _check(text, name)
    # the reports fio writes take the fast path; only these need the general one
    unusual = ("status_interval", "normal_json", "error_job")
    assert answered == (not any(u in name for u in unusual)), name


@pytest.mark.parametrize("name", ["small_json.json", "small_jsonplus.json",
                                  "f2110_multi_gr_json.json", "ioengine_sync_fsync.json"])
def test_fast_path_agrees_on_mutated_reports(name):
    data = fixture("fio", name).read_bytes()
    answered = 0
    for _kind, case in mutations(data, np.random.default_rng(19), 120):
        try:
            text = case.decode("utf-8")
        except UnicodeDecodeError:
            continue
        answered += _check(text, name)
    assert answered >= 10  # the mutations that keep a usual report are read fast


SMALL = json.loads(fixture("fio", "small_json.json").read_text())


SLOTS = list(json_slots(SMALL))
VALUES = st.one_of(st.floats(), st.integers(min_value=-(2**80), max_value=2**80),
                   st.sampled_from([True, False, None, "12", "", [], {}, -0.0, 2**64, 2**53,
                                    2**53 - 1, 10**400]))


@settings(max_examples=int(__import__("os").environ.get("EBSSTATS_FUZZ_EXAMPLES", "60")),
          deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slot=st.sampled_from(SLOTS), value=VALUES)
def test_any_value_anywhere_fast_and_general_agree(slot, value):
    doc = json.loads(json.dumps(SMALL))
    *head, last = slot
    target = doc
    for key in head:
        target = target[key]
    target[last] = value
    try:
        text = json.dumps(doc, indent=1)
    except ValueError:
        return
    _check(text)


def _with(path: tuple, literal: str) -> str:
    """small_json.json with the value at ``path`` printed as ``literal`` (any JSON number)."""
    doc = json.loads(json.dumps(SMALL))
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = "@@"
    return json.dumps(doc, indent=1).replace('"@@"', literal)


def test_an_integer_beyond_64_bits_is_read_as_the_standard_library_reads_it():
    # a decoder that made such an integer a float (orjson did) would give the group
    # "1.1805916207174113e+21"); the standard library and msgspec keep an int
    text = _with(("jobs", 0, "groupid"), str(2**70))
    _check(text)
    rows = fio.parse(text, "x.json").records
    assert {r["groupid"] for r in rows} == {str(2**70)}
    text = _with(("jobs", 0, "read", "clat_ns", "max"), str(2**70))
    assert fio_json._fast_json(text, "x.json") is None  # not below 2**53: checked one by one
    _check(text)
    got = [r["value"] for r in fio.parse(text, "x.json").records
           if r["position"] == "$.jobs[0].read.clat_ns.max"]
    assert got == [float(2**70) * 1e-9]


@pytest.mark.parametrize(("path", "position"), [
    (("jobs", 0, "read", "iops"), "$.jobs[0].read.iops"),
    (("jobs", 0, "read", "clat_ns", "mean"), "$.jobs[0].read.clat_ns.mean"),
    (("jobs", 0, "usr_cpu"), "$.jobs[0].usr_cpu")])
def test_a_boolean_statistic_is_refused_at_its_path(path, position):
    text = _with(path, "true")  # 1 == True: only the type tells them apart
    assert fio_json._fast_json(text, "x.json") is None
    with pytest.raises(es.ParseError) as info:
        fio.parse(text, "x.json")
    assert (info.value.source, info.value.position) == ("x.json", position)
    assert info.value.expected == "a number"


def test_an_over_long_integer_where_the_rows_do_not_look_is_still_refused():
    # msgspec skips keys the rows do not use without converting them; the standard library
    # (the general path) refuses an integer of more than 4,300 digits anywhere in the file
    text = _with(("jobs", 0, "eta"), "9" * 5000)
    assert fio_json._fast_json(text, "x.json") is None
    with pytest.raises(es.ParseError) as info:
        fio.parse(text, "x.json")
    assert info.value.source == "x.json" and "numbers Python can convert" in info.value.expected
    assert fio_json._has_long_integer("[" + "1" * 4301 + "]")
    assert not fio_json._has_long_integer("[" + "1" * 4300 + "]")
    assert not fio_json._has_long_integer(("1" * 19 + ",") * 1000)


def test_a_nan_where_the_rows_do_not_look_is_read_as_before():
    # JSON has no NaN: msgspec refuses it, the standard library reads it (and fio never uses
    # the key): the general path gives the rows
    plain = fio.parse(json.dumps(SMALL), "x.json").records
    text = _with(("jobs", 0, "eta"), "NaN")
    assert fio_json._fast_json(text, "x.json") is None
    assert fio.parse(text, "x.json").records == plain


def test_a_report_of_thousands_of_jobs_restarts_its_plan_caches_and_keeps_every_row():
    # more (job index, direction) plans than the caches keep: they start again, and the rows
    # stay the general path's
    doc = json.loads(json.dumps(SMALL))
    doc["jobs"] = [json.loads(json.dumps(SMALL["jobs"][0])) for _ in range(2500)]
    assert _check(json.dumps(doc), "many.json")
    assert len(fio_json._DIR_PLANS) < 4096


def test_reports_of_one_layout_share_their_row_lists():
    # the typing types a list that several files share once; the values stay each file's own
    a = fio_json._fast_json(json.dumps(SMALL), "a.json")
    other = json.loads(json.dumps(SMALL))
    other["jobs"][0]["read"]["iops"] += 1.0
    b = fio_json._fast_json(json.dumps(other), "b.json")
    for name in ("position", "metric", "op"):
        assert a.columns[0][name] is b.columns[0][name], name
    assert a.columns[0]["value"] is not b.columns[0]["value"]
    assert a.columns[0]["value"] != b.columns[0]["value"]


def test_one_block_size_per_report_is_typed_as_the_rows_it_stands_for():
    # _uniform gives a report whose rows share one block size (or none) a Const: the typed
    # frame is the one its list of rows gives, file by file and with every file together;
    # a report of several block sizes (or some unknown) keeps its list
    chunks = [fio.parse(data.decode("utf-8"), name).columns
              for name, data in sorted(JSON_SAMPLES.items())]
    assert any(type(c["block_size"]) is Const for c, _ in chunks)
    for c, _n in chunks:
        bs = c["block_size"]
        if type(bs) is not Const:
            assert len(set(map(repr, bs))) > 1 or not bs  # one value would have been a Const

    def typed(expand):
        keys = dict.fromkeys(k for c, _ in chunks for k in c)
        return frame_of_columns({k: [_piece_list(c[k]) if expand and k == "block_size"
                                     else c.get(k, Const(None, n)) for c, n in chunks]
                                 for k in keys}, [n for _, n in chunks])

    pd.testing.assert_frame_equal(typed(False), typed(True))
    for c, n in chunks:
        one = frame_of_columns({k: [v] for k, v in c.items()}, [n])
        listed = frame_of_columns({k: [_piece_list(v) if k == "block_size" else v]
                                   for k, v in c.items()}, [n])
        pd.testing.assert_frame_equal(one, listed)
    assert fio_json._uniform([4096, 4096], 2) == Const(4096, 2)
    assert fio_json._uniform([None, None], 2) == Const(None, 2)
    for mixed in ([4096, None], [None, 4096], [4096, 8192]):
        assert fio_json._uniform(mixed, 2) is mixed


def test_reports_of_one_job_file_share_their_per_job_lists():
    # two jobs of different names: test, job and run_key are runs (one per job: typed, or
    # hashed, once per job)
    def report(names, iops=1.0):
        doc = json.loads(json.dumps(SMALL))
        doc["jobs"] = [json.loads(json.dumps(SMALL["jobs"][0])) for _ in names]
        for job, name in zip(doc["jobs"], names, strict=True):
            job["jobname"] = name
            job["read"]["iops"] += iops
        return fio_json._fast_json(json.dumps(doc), "r.json").columns[0]

    a, b, c = report(["x", "y"]), report(["x", "y"], 2.0), report(["x", "z"])
    assert type(a["test"]) is Runs and a["test"] == b["test"] and a["job"] == a["test"]
    assert a["test"].values == ("x", "y") and c["test"].values == ("x", "z")
    assert list(a["test"].counts) == [45, 45]
    assert type(a["run_key"]) is Runs and a["run_key"] == b["run_key"]  # (an id per run)
    assert _piece_list(a["run_key"]) == ["$.jobs[0]"] * 45 + ["$.jobs[1]"] * 45


def test_a_start_time_as_a_datetime_types_as_the_timestamp_it_replaces():
    # _timestamp gives a datetime from 1970 to 2262 (six times cheaper than a pd.Timestamp):
    # the same instant to the millisecond, and the same typed column, alone and beside
    # Timestamps; outside that span it is the Timestamp (or the refusal) it always was
    rng = np.random.default_rng(19)
    seconds = [0.0, 0.0004, 0.0005, 0.0015, 1_764_184_405.1235, 9_223_372_036.8534,
               *rng.uniform(0, 9.2e9, 2000), *rng.uniform(1.6e9, 1.9e9, 2000)]
    for s in seconds:
        got = fio_json._timestamp(s)
        want = pd.Timestamp(round(s * 1000), unit="ms", tz="UTC")
        assert type(got) is datetime.datetime and got.tzinfo is datetime.UTC
        assert pd.Timestamp(got) == want and pd.Timestamp(got).asm8 == want.asm8, s
    some = [fio_json._timestamp(s) for s in seconds[:50]]
    typed = frame_of_columns({"source": [Const("a", 50)], "tool": [Const("fio", 50)],
                              "test": [Const("t", 50)], "metric": [Const("iops", 50)],
                              "value": [[1.0] * 50], "timestamp": [some]}, [50])
    want = [pd.Timestamp(round(s * 1000), unit="ms", tz="UTC") for s in seconds[:50]]
    assert typed["timestamp"].tolist() == want
    assert str(typed["timestamp"].dtype) == "datetime64[ns, UTC]"
    mixed = frame_of_columns({"source": [Const("a", 2), Const("b", 2)],
                              "tool": [Const("fio", 2)] * 2, "test": [Const("t", 2)] * 2,
                              "metric": [Const("iops", 2)] * 2, "value": [[1.0, 2.0]] * 2,
                              "timestamp": [Const(some[4], 2), Const(want[4], 2)]}, [2, 2])
    assert mixed["timestamp"].nunique() == 1 and mixed["timestamp"].iloc[0] == want[4]
    for s in (-0.001, -1e9, 9_223_372_036.855):  # before 1970, after 2262: a Timestamp
        got = fio_json._timestamp(s)
        assert type(got) is pd.Timestamp and got == pd.Timestamp(round(s * 1000), unit="ms",
                                                                 tz="UTC")
    assert fio_json._timestamp(None) is None and fio_json._timestamp(math.nan) is None


def _objects(obj, path: tuple = ()):
    """Key paths of every object of a decoded JSON document (the document's own: ``()``)."""
    if isinstance(obj, dict):
        yield path
        for k, v in obj.items():
            yield from _objects(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _objects(v, (*path, i))


def _at(doc, path: tuple):
    for key in path:
        doc = doc[key]
    return doc


@pytest.mark.parametrize("name", ["small_json.json", "small_jsonplus.json",
                                  "f2110_small_json.json", "ioengine_sync_fsync.json",
                                  "unified_mixed.json", "cli_randrw_4k.json"])
def test_any_key_missing_fast_and_general_agree(name):
    # the decoder's Structs tell a missing key by a marker (UNSET, None for a latency family,
    # -1.0 for a direction's number: the decoder gives no negative number): every key of the
    # report taken out in turn, the fast path gives the general path's rows or gives up
    doc = json.loads(fixture("fio", name).read_text())
    answered = 0
    for path in _objects(doc):
        for key in list(_at(doc, path)):
            copy = json.loads(json.dumps(doc))
            del _at(copy, path)[key]
            answered += _check(json.dumps(copy, indent=1), name)
    assert answered >= 10


@pytest.mark.parametrize("name", ["small_json.json", "small_jsonplus.json",
                                  "f2110_small_json.json", "unified_mixed.json"])
def test_keys_in_any_order_fast_and_general_agree(name):
    # a Struct keeps no order: the rows depend on which keys an object has, never on their
    # order (a percentile object's order stays the dict's), on either path
    doc = json.loads(fixture("fio", name).read_text())

    def reordered(obj, turn):
        if isinstance(obj, dict):
            items = [(k, reordered(v, turn)) for k, v in obj.items()]
            return dict(items[turn % len(items):] + items[:turn % len(items)] if items else [])
        if isinstance(obj, list):
            return [reordered(v, turn) for v in obj]
        return obj

    for turn in (1, 2, 5, -1):
        assert _check(json.dumps(reordered(doc, turn), indent=1), name)
    flipped = json.loads(json.dumps(doc), object_pairs_hook=lambda kv: dict(kv[::-1]))
    _check(json.dumps(flipped, indent=1), name)


@pytest.mark.parametrize("value", ["0", "-1", "-1.0", "1.5", "null", '"x"', "{}", "true"])
def test_a_duplicate_key_keeps_the_last_value_on_either_path(value):
    # fio 2.x repeats keys; JSON keeps the last value: a duplicate before or after each
    # number of a direction and of its latency statistics
    text = json.dumps(SMALL, indent=1)
    for key in ('"total_ios"', '"runtime"', '"io_kbytes"', '"bw_bytes"', '"min"', '"N"',
                '"iops_samples"', '"clat_ns"', '"usr_cpu"', '"jobname"'):
        at = text.index(key)
        _check(text[:at] + f"{key}: {value},\n" + text[at:])
        end = text.index("\n", at)
        _check(text[:end] + f"\n{key}: {value}," + text[end:])


def test_the_fast_path_reads_the_decoders_fields_in_their_order():
    # _fast_latency unpacks a _Stat and _fast_direction indexes a _Direction by position
    # (msgspec.structs.astuple): the fields must stay in the order those read them
    assert fio_json._Stat.__struct_fields__ == ("min", "max", "mean", "stddev", "N",
                                                "percentile", "bins")
    assert fio_json._Direction.__struct_fields__ == fio_json._DIR_FIELDS
    assert fio_json._DIR_FIELDS[fio_json._N_NUMBERS:] == fio_json._DIR_STATS
    assert len(fio_json._DIR_STATS) == 6  # vals[18] ... vals[23] in _fast_direction


def test_a_start_time_infinite_in_milliseconds_is_refused_at_its_path():
    # fuzzing found it (seed 7): an end time of 1e306 s is finite, not once in ms; the
    # general path raised OverflowError from round() instead of the ParseError it gives
    # for any other start time beyond 2262
    for literal in ("1e306", "1.7e308"):
        text = _with(("timestamp",), literal)
        doc = json.loads(text)
        doc.pop("timestamp_ms", None)
        text = json.dumps(doc, indent=1)
        assert fio_json._fast_json(text, "x.json") is None
        with pytest.raises(es.ParseError) as info:
            fio.parse(text, "x.json")
        assert info.value.position == "$.timestamp_ms" and "1677-2262" in info.value.expected
