"""Fuzzing in the suite: a fast subset of ``benchmarks/fuzz_readers.py`` (mutations of the
genuine samples) and property-based tests (hypothesis). The only acceptable outcomes are a
schema-valid frame or an ``ebsstats.ParseError`` naming the file and a position."""

from __future__ import annotations

import json
import math
import os
import re
import sys
import types

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import ebsstats as es
from ebsstats.io import fio
from ebsstats.io._common import Parsed
from ebsstats.simulate.fuzz import fuzz, genuine_samples, mutations, outcome_class, run_case
from tests.conftest import FIXTURES, ROOT, fixture, json_slots

READERS = ["fio", "fio.log", "bonnie", "sysbench", "pts", "ioping", "published", "pkb"]
OPTIONS = {"fio.log": {"fio_version": "fio-3.33"}}
# cases per reader in the suite (the benchmark runs >= 10,000); PTS is the slowest to parse
CASES = {"pts": 36, "published": 90}
OK = {"ok", "parse_error"}


@pytest.mark.parametrize("short", READERS)
def test_mutation_subset_gives_only_frames_or_parse_errors(short):
    module = f"ebsstats.io.{short}"
    samples = genuine_samples(module, [FIXTURES, ROOT / "data" / "published"],
                              relative_to=ROOT)
    assert samples, short
    n = CASES.get(short, 150)
    per = max(2, -(-n // len(samples)))
    counts, defects = fuzz(module, samples, per, seed=11, **OPTIONS.get(short, {}))
    counts.pop("_slowest_s")
    assert sum(counts.values()) >= n
    assert counts["parse_error"] > 0
    assert not defects, [(name, kind, outcome) for name, kind, outcome, _ in defects[:5]]


def test_mutations_cover_the_issue_list():
    data = fixture("fio", "small_json.json").read_bytes()
    kinds = {k for k, _ in mutations(data, np.random.default_rng(0), 400)}
    assert {"truncate_line", "flip", "number", "utf16", "latin1", "empty", "binary",
            "delete_line", "duplicate_line", "json_field"} <= kinds
    xml = fixture("pts", "pts-10.8.4_composite_1system.xml").read_bytes()
    assert "xml_element" in {k for k, _ in mutations(xml, np.random.default_rng(0), 200)}


def _fake(parse):
    mod = types.ModuleType("ebsstats.io._fuzz_fake")
    mod.sniff = lambda head, name: "fake"
    mod.parse = parse
    return mod


@pytest.mark.parametrize("parse,outcome", [
    (lambda t, s: (_ for _ in ()).throw(es.ParseError(s, 3, "x")), "parse_error"),
    (lambda t, s: (_ for _ in ()).throw(es.ParseError("other.txt", 3, "x")),
     "unnamed_parse_error"),
    (lambda t, s: (_ for _ in ()).throw(es.ParseError(s, None, "x")), "unpositioned"),
    (lambda t, s: (_ for _ in ()).throw(KeyError("bw")), "crash"),
    (lambda t, s: Parsed("x", "fake", records=[{
        "source": s, "run_key": "1", "tool": "fio", "test": "t", "metric": "iops",
        "value": -1.0, "op": "read"}]), "invalid_frame"),
    (lambda t, s: Parsed("x", "fake", series=[es.io.series_frame({
        "run_id": ["r"], "source": [s], "test": ["t"], "op": ["read"], "metric": ["iops"],
        "t": [0.0], "value": [math.inf], "unit": ["IO/s"]})]), "invalid_series"),
])
def test_run_case_classifies_defects(monkeypatch, parse, outcome):
    monkeypatch.setitem(sys.modules, "ebsstats.io._fuzz_fake", _fake(parse))
    got = run_case("ebsstats.io._fuzz_fake", b"some text\n", "f.txt")
    assert outcome_class(got) == outcome, got


def test_run_case_allows_no_position_only_for_empty_input(monkeypatch):
    def parse(text, source):
        raise es.ParseError(source, None, "output", found="an empty file")

    monkeypatch.setitem(sys.modules, "ebsstats.io._fuzz_fake", _fake(parse))
    assert run_case("ebsstats.io._fuzz_fake", b" \n\t\n", "f.txt") == "parse_error"
    assert run_case("ebsstats.io._fuzz_fake", b"x", "f.txt").startswith("unpositioned")


# ------------------------------------------------------------------------------------------
# property-based


HEADERS = {  # a start that each reader's sniff accepts, so that the tail reaches the parser
    "fio": '{\n  "fio version" : "fio-3.33",\n',
    "fio.log": "0, 1, 0, 4096, 0\n",
    "bonnie": "Version  2.00a       ------Sequential Output------ --Sequential Input- --Random-\n",
    "sysbench": "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\n",
    "pts": '<?xml version="1.0"?>\n<PhoronixTestSuite><Generated>',
    "ioping": "4 KiB <<< /mnt/x (ext4 /dev/vda 252.0 GiB): request=1 time=90.0 us\n",
    "published": "# ebsstats published table\n# layout: bonnie\n",
    "pkb": '{"metric": "j:read:iops", "value": 1.0, "unit": "", "labels": "", "test": "fio"',
}
# deeper runs: EBSSTATS_FUZZ_EXAMPLES=500 pytest tests/test_fuzz.py
LIGHT = settings(max_examples=int(os.environ.get("EBSSTATS_FUZZ_EXAMPLES", "25")), deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


@LIGHT
@given(data=st.binary(max_size=3000))
@example(data=b"\xfe\xff")  # a UTF-16 byte-order mark alone is an empty file, not unpositioned
def test_any_bytes_give_a_frame_or_a_parse_error(data):
    for short in READERS:  # (a log's name gives its kind: bw, iops, lat ...)
        got = run_case(f"ebsstats.io.{short}", data, "any_bw.1.log", **OPTIONS.get(short, {}))
        assert got in OK, (short, got)


@LIGHT
@given(tail=st.text(max_size=400), short=st.sampled_from(READERS))
def test_a_real_header_then_any_text(tail, short):
    data = (HEADERS[short] + tail).encode("utf-8", "surrogatepass")
    got = run_case(f"ebsstats.io.{short}", data, "x_bw.1.log", **OPTIONS.get(short, {}))
    assert got in OK, (short, got)


SMALL = json.loads(fixture("fio", "small_json.json").read_text())
NUMBERS = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                    st.integers(min_value=-(2**80), max_value=2**80),
                    st.sampled_from([10**400, -(10**400), 0, -0.0, 1e308]))


SLOTS = list(json_slots(SMALL, numbers_only=True))


def _set(doc, path, value):
    *head, last = path
    for key in head:
        doc = doc[key]
    doc[last] = value


@LIGHT
@given(slot=st.sampled_from(SLOTS), value=NUMBERS)
# an integer beyond a float (10**400) as job_runtime crashed float() with OverflowError
@example(slot=("jobs", 0, "job_runtime"), value=10**400)
def test_any_number_anywhere_in_a_fio_json(slot, value):
    doc = json.loads(json.dumps(SMALL))
    _set(doc, slot, value)
    got = run_case("ebsstats.io.fio", json.dumps(doc, indent=1).encode(), "n.json")
    assert got in OK, (slot, value, got)


@settings(max_examples=40, deadline=None)
@given(value=NUMBERS)
def test_fio_iops_is_read_or_refused_at_its_json_path(value):
    doc = json.loads(json.dumps(SMALL))
    doc["jobs"][0]["read"]["iops"] = value
    text = json.dumps(doc)
    try:
        f = float(value)
    except OverflowError:
        f = math.inf
    if f >= 0 and math.isfinite(f):
        p = fio.parse(text, "n.json")
        got = [r["value"] for r in p.records if r["position"] == "$.jobs[0].read.iops"]
        assert got == [f]
    else:  # negative, NaN, infinite or beyond a float: refused where it is
        with pytest.raises(es.ParseError) as info:
            fio.parse(text, "n.json")
        assert info.value.source == "n.json"
        assert info.value.position == "$.jobs[0].read.iops"
        assert info.value.expected == "a finite, non-negative number"


KINDS = ["flip", "truncate_byte", "delete_line", "duplicate_line", "swap_lines", "number",
         "utf16", "latin1", "garbage_line", "empty", "binary", "crlf", "insert_nul"]


def _smallest(short):
    samples = genuine_samples(f"ebsstats.io.{short}", [FIXTURES, ROOT / "data" / "published"],
                              relative_to=ROOT)
    return min(samples.items(), key=lambda kv: len(kv[1]))


@pytest.mark.parametrize("short", READERS)
def test_truncation_at_every_line_and_each_mutation_kind(short):
    from ebsstats.simulate.fuzz import _mutate

    name, data = _smallest(short)
    lines = data.splitlines(keepends=True)
    cases = [("truncate_line", b"".join(lines[:k])) for k in range(len(lines))]
    rng = np.random.default_rng(5)
    cases += [(kind, _mutate(kind, data, lines, rng)) for kind in KINDS for _ in range(3)]
    bad = []
    for kind, mutated in cases:
        got = run_case(f"ebsstats.io.{short}", mutated, name, **OPTIONS.get(short, {}))
        if got not in OK:
            bad.append((kind, got))
    assert not bad, bad[:5]


# ------------------------------------------------------------------------------------------
# the defect classes the fuzzer found, one concrete input each (all now refused where they are)


def _refused(module, text, source, **options):
    with pytest.raises(es.ParseError) as info:
        module.parse(text, source, **options)
    assert info.value.source == source
    return info.value


def test_found_sysbench_negative_iops():
    from ebsstats.io import sysbench

    text = fixture("sysbench", "sb_fileio_rndrd_t4_run.txt").read_text().replace(
        "reads/s:                      428378.49", "reads/s:                      -1")
    e = _refused(sysbench, text, "sb.txt")
    assert e.position == "line 24" and "not a finite, non-negative number" in e.expected


def test_found_fio_log_empty_field_and_negative_value():
    from ebsstats.io.fio import log as fio_log

    e = _refused(fio_log, "0, 31371, 0, 4096, 0\n1, , 1, 4096, 0\n", "x_bw.1.log",
                 fio_version="fio-3.33")
    assert e.position == "line 2" and e.found == "1, , 1, 4096, 0"  # was a NaN time
    e = _refused(fio_log, "0, 31371, 0, 4096, 0\n1, -5, 1, 4096, 0\n", "x_bw.1.log",
                 fio_version="fio-3.33")
    assert e.position == "line 2" and "non-negative value" in e.expected


def test_found_bonnie_concurrency_beyond_64_bits():
    from ebsstats.io import bonnie

    text = fixture("bonnie", "gen_seed42_q.csv").read_text().replace(
        "1.98,2.00a,vm,1,", "1.98,2.00a,vm,99999999999999999999999999,", 1)
    e = _refused(bonnie, text, "b.csv")
    assert e.position == "line 1" and "concurrency within 64 bits" in e.expected


def test_found_published_negative_cell():
    from ebsstats.io import published

    text = (ROOT / "data" / "published" / "seed000_bonnie_ec2_ebs.csv").read_text().replace(
        "4x5Gb RAID5 (JFS),table,JFS,RAID5,4,5,,22349,", "4x5Gb RAID5 (JFS),table,JFS,RAID5,4,5,,-1,")
    e = _refused(published, text, "p.csv")
    assert e.position == "row 1, output_per_char_kbs" and e.found == "-1"


def test_found_ioping_overflowing_figure():
    from ebsstats.io import ioping

    text = fixture("ioping", "ioping_q_c20.txt").read_text().replace("37.9 us /", "9" * 400 + " us /")
    e = _refused(ioping, text, "i.txt")  # float("9" * 400) is inf: it was an infinite lat_min
    assert e.position == "line 5" and e.expected == "ioping statistics with known units"


def test_found_pts_json_null_run_is_skipped_with_a_note():
    from ebsstats.io import pts

    doc = json.loads(fixture("pts", "ebs-mini-two-volumes", "ebs-mini-two-volumes.json")
                     .read_text())
    first = next(iter(doc["results"].values()))
    entry = next(iter(first["results"].values()))
    entry["raw_values"][0] = None
    p = pts.parse(json.dumps(doc), "pts.json")
    assert any("non-numeric RawString" in n for n in p.notes)
    es.validate(es.io.frame(p.records))


def _pkb_line(**change):
    """The first sample of a PKB fixture, changed (labels edited with 'label_<key>')."""
    line = fixture("pkb", "gp3-100g", "80edb27f", "perfkitbenchmarker_results.json") \
        .read_text().splitlines()[0]
    obj = json.loads(line)
    for k, v in change.items():
        if k.startswith("label_"):
            key = k.removeprefix("label_")
            obj["labels"] = re.sub(rf"\|{key}:[^|]*\|", f"|{key}:{v}|", obj["labels"])
        else:
            obj[k] = v
    return json.dumps(obj)


@pytest.mark.parametrize("change, where", [
    ({"value": float("nan")}, "line 1: $.value"),  # was a NaN value without a flag
    ({"value": 1e308}, "line 1: $.value"),  # 1e308 KB/s is inf B/s
    ({"value": -5.0}, "line 1: $.value"),
    ({"value": 10**400}, "line 1: $.value"),  # float() of it raised OverflowError (crash)
    ({"timestamp": 1e300}, "line 1: $.timestamp"),  # pd.Timestamp overflowed (crash)
    ({"timestamp": 10**400}, "line 1: $.timestamp"),  # float() of it: OverflowError (crash)
])
def test_found_pkb_values_out_of_range_are_refused_at_their_line(change, where):
    from ebsstats.io import pkb

    text = _pkb_line(**change)
    assert _refused(pkb, text, "p.json").position == where


@pytest.mark.parametrize("label", ["blocksize", "data_disk_0_size", "iodepth", "numjobs"])
def test_found_pkb_metadata_beyond_a_number_is_unknown_not_a_crash(label):
    from ebsstats.io import pkb

    # "1e400" was float('inf') -> int() OverflowError; a 400-digit count did not fit Int64
    for bad in ("1e400", "9" * 400, "<a><a>"):
        p = pkb.parse(_pkb_line(**{f"label_{label}": bad}), "p.json")
        df = es.io.frame(p.records)
        column = {"blocksize": "block_size", "data_disk_0_size": "size_gib",
                  "iodepth": "iodepth", "numjobs": "threads"}[label]
        assert df[column].isna().all() and len(es.validate(df)) == 1


def test_found_pkb_deep_nesting_and_unknown_metric_are_refused():
    from ebsstats.io import pkb

    deep = "[" * 5000 + "]" * 5000  # RecursionError escaped json.loads
    assert _refused(pkb, deep, "p.json").found == "nesting too deep"
    odd = _pkb_line(metric="rand_4k_read:read:latency:p99999999")  # -> clat_p1e+08
    assert _refused(pkb, odd, "p.json").position == "line 1: $.metric"
    # the sniff's own json.loads of such a first line raised RecursionError (a crash in sniff)
    assert pkb.sniff('{"metric": ' + "[" * 5000 + "]" * 5000 + "}\n") is None


def test_found_fio_nesting_a_fast_decoder_reads_but_python_cannot_walk():
    """1,000 levels decode in a C decoder (orjson's limit was 1,024) but overflow Python's
    recursion when the reader names the value (repr): a positioned ParseError, not a crash."""
    from ebsstats.io import fio

    doc = json.loads(json.dumps(SMALL))
    text = json.dumps(doc).replace('"jobname": "', '"jobname": ' + "[" * 1000 + "]" * 1000
                                   + ', "x": "', 1)
    e = _refused(fio, text, "deep.json")
    assert e.found == "nesting too deep" and e.position
