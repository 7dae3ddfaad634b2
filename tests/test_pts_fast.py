"""PTS reader shortcuts: each fast path gives what the slow rule it stands for gives.

The reader takes shortcuts for the common case (C XML parser without a DOCTYPE, numbers of a
RawString converted at once, the usual Entry JSON read by a pattern, the head of an XML file
stripped of its prolog without a pass of a regular expression, columns built from the row
dicts as they are made). Each test runs a shortcut and the general rule on the same inputs,
tricky ones included, and asserts the same answer.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from itertools import chain, repeat
from pathlib import Path

import defusedxml.ElementTree as DET
import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.io import pts
from ebsstats.io._columns import Runs
from ebsstats.io._rows import run_columns

MiB, MB = float(2**20), 1e6


# ------------------------------------------------------------------ XML parse


@pytest.mark.parametrize("doc", [
    "<PhoronixTestSuite><Result></PhoronixTestSuite>",  # mismatched tag
    "<PhoronixTestSuite><Result><Title>&foo;</Title></Result></PhoronixTestSuite>",  # entity
    "<PhoronixTestSuite>\n<Result>\n<Title>x</Title>",  # truncated
    '<?xml version="1.0"?>\n  <?xml version="1.0"?><PhoronixTestSuite/>',  # late declaration
    "<PhoronixTestSuite><a b='1' b='2'/></PhoronixTestSuite>",  # duplicate attribute
])
def test_c_parser_errors_are_defusedxml_errors(doc):
    """Malformed XML without a DOCTYPE goes to the C parser: the ParseError (line, message)
    is the one defusedxml's parser gives."""
    with pytest.raises(ET.ParseError) as slow:
        DET.fromstring(doc.encode(), forbid_dtd=False, forbid_entities=True,
                       forbid_external=True)
    with pytest.raises(es.ParseError) as fast:
        pts._load_xml(doc, "x.xml")
    assert fast.value.found == str(slow.value)
    assert str(fast.value).startswith(f"x.xml, line {slow.value.position[0]}:")


def test_c_parser_tree_is_defusedxml_tree():
    doc = ('<?xml version="1.0"?><!-- c --><PhoronixTestSuite><Result a="1">'
           "<Title>A &amp; <![CDATA[<B>]]>&#65;<!-- x -->C</Title><?pi x?><Scale> MB/s </Scale>"
           '</Result><R xmlns="urn:x"><T>y</T></R></PhoronixTestSuite>')
    fast = pts._load_xml(doc, "x.xml")
    slow = DET.fromstring(doc.encode(), forbid_dtd=False, forbid_entities=True,
                          forbid_external=True)
    assert ET.tostring(fast) == ET.tostring(slow)
    assert fast.find("Result/Title").text == "A & <B>AC"


@pytest.mark.parametrize("prolog", [
    '<!DOCTYPE x [<!ENTITY a "b">]>',
    '<!DOCTYPE x [<!ENTITY % p SYSTEM "http://example.com/x.dtd"> %p;]>',
])
def test_a_doctype_still_goes_through_defusedxml(prolog):
    doc = f"{prolog}<PhoronixTestSuite><System><Identifier>a</Identifier></System>" \
          "</PhoronixTestSuite>"
    with pytest.raises(es.ParseError) as ei:
        pts.parse(doc, "evil.xml")
    assert "Forbidden" in str(ei.value)


@pytest.mark.parametrize("data,named", [
    (b'<?xml version="1.0"?><a/>', False),
    (b'<?xml version="1.0" encoding="ISO-8859-1"?><a/>', True),
    (b"\xef\xbb\xbf<?xml version='1.0' encoding='utf-8'?><a/>", True),
    (b"<a>encoding</a>", False),
    (b'<?xml version="1.0"?><a>encoding</a>', False),
])
def test_names_encoding(data, named):
    assert pts._names_encoding(data) is named


# ------------------------------------------------------------------ numbers


def forget_kept(mp) -> None:
    """Nothing the PTS reader kept from earlier files (plans, templates, _Fast) is replayed."""
    for name in ("_PLANS", "_TEMPLATES", "_FASTS"):
        mp.setattr(pts, name, {})


def full_path_only(mp) -> None:
    """The PTS reader's full path alone: nothing kept replayed, nothing kept from this file."""
    forget_kept(mp)
    mp.setattr(pts, "_plan_of", lambda rows, columns, n: None)
    mp.setattr(pts, "_keep_template", lambda *args: None)
    mp.setattr(pts, "_keep_fast", lambda *args: None)


@pytest.fixture(autouse=True)
def _no_plans(monkeypatch):
    """The rules of this file are compared with the full path (no file's plan or template
    replayed, none kept: tests/test_pts_plan.py compares them with it)."""
    full_path_only(monkeypatch)


TRICKY = ["1", "1.5", "-2", "+.5e3", "1e400", "-1e400", "nan", "inf", "Infinity", "1_0",
          " 7 ", "\u0663", "", "1:2", "0x10", "1.", ".5", ".", "1e", "e5", "1E+05", "-0.0",
          "00.5", "1.e5", "\u00a01"]


@pytest.mark.parametrize("k", range(200))
def test_nums_is_num_of_each(k):
    rng = np.random.default_rng(k)
    texts = [TRICKY[i] for i in rng.integers(len(TRICKY), size=int(rng.integers(1, 5)))]
    if k < len(TRICKY):
        texts = [TRICKY[k]]
    got = pts._nums(texts)
    want = [pts._num(t) for t in texts]
    assert [(type(v), repr(v)) for v in got] == [(type(v), repr(v)) for v in want]


def test_nums_values():
    assert pts._nums(["1.5", "2", "-3e2"]) == [1.5, 2.0, -300.0]
    assert pts._nums(["1.5", "nan", "2"]) == [1.5, None, 2.0]
    assert pts._nums(["1e400", "2"]) == [None, 2.0]
    assert pts._nums(["1:2", "2"]) == [None, 2.0]  # a JSON raw value with a ":" of its own


@pytest.mark.parametrize("values,factor,signed,ok", [
    ([1.0, 2.0], MiB, False, True),
    ([-1.0, 2.0], MiB, False, False),
    ([-1.0, 2.0], 1.0, True, True),
    ([1e308, 1.0], MiB, True, False),  # inf once scaled
    ([-0.0], 1.0, False, True),  # -0.0 >= 0, as number() has it
])
def test_scaled_agrees_with_number(values, factor, signed, ok):
    got = pts._scaled(values, factor, signed)
    assert (got is not None) is ok
    try:
        want = [pts.number(v, "x", 1, "v", scale=factor, negative=signed) for v in values]
    except es.ParseError:
        want = None
    assert got == want


# ------------------------------------------------------------------ Entry JSON


@pytest.mark.parametrize("js", [
    '{"test-run-times":"30.46:30.73:30.46"}', '{"test-run-times":"1"}',
    '{"test-run-times":""}', '{"test-run-times": "1:2"}', '{"test-run-times":" 1:2 "}',
    '{"test-run-times":"\\u0031:2"}', '{"x":1,"test-run-times":"1:2"}', '{"test-run-times":5}',
    '{"test-run-times":"1:2","test-run-times":"3"}', '[1, 2]', '"1:2"',
])
def test_run_times_json_is_the_json_rule(js):
    meta = json.loads(js)
    rt = meta.get("test-run-times") if isinstance(meta, dict) else None
    want = rt.strip().split(":") if isinstance(rt, str) and rt.strip() else None
    assert pts._run_times_json(js, "/E", "x.xml") == want


def test_run_times_json_bad_json_is_named():
    with pytest.raises(es.ParseError) as ei:
        pts._run_times_json('{"test-run-times":"1:2"', "/PhoronixTestSuite/Result[1]", "x.xml")
    assert "/PhoronixTestSuite/Result[1]/JSON" in str(ei.value)


# ------------------------------------------------------------------ sniffing

_SLOW_PROLOG = re.compile(r"<\?xml[^>]*\?>|<!--.*?-->|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>", re.S)

HEADS = [
    '<?xml version="1.0"?>\n<!--Phoronix Test Suite v10.8.4-->\n<PhoronixTestSuite><Result>',
    "<!-- a -->  \n <!-- b --><PhoronixTestSuite><Generated><Title>Why?</Title>",
    "<PhoronixTestSuite><!-- <Result> --><Generated>",
    "<PhoronixTestSuite><Generated><Res<!-- x -->ult><TestProfile>",
    "<PhoronixTestSuite><Res<!-- x -->ult>",
    '<!DOCTYPE x [<!ENTITY a "b">]>\n<PhoronixTestSuite><Benchmark>',
    "<PhoronixTestSuite><Suite><Title>x</Title></Suite>",
    "<PhoronixTestSuite><Benchmark><!-- --><Result>",
    "<PhoronixTestSuite><ResultsParser>",
    "\u3000<?xml?><PhoronixTestSuite><Result>",
    "<?xml version='1.0'?><x/><PhoronixTestSuite><Result>",
    "<?xml <!-- -->?><PhoronixTestSuite><Result>",
    "<!-- unterminated <PhoronixTestSuite><Result>",
    "<PhoronixTestSuite\n><Result>",
]


@pytest.mark.parametrize("head", HEADS)
def test_xml_body_is_the_prolog_rule(head):
    stripped = head.lstrip()
    want = _SLOW_PROLOG.sub("", stripped)
    got = pts._xml_body(stripped)
    assert got.lstrip() == want.lstrip()
    for tag in ("<Result>", "<Generated>", "<Benchmark>", "<Suite>", "<TestProfile>"):
        assert (tag in got) == (tag in want)


def test_sniff_verdicts_on_tricky_heads():
    verdicts = [pts.sniff(h) for h in HEADS]
    # (a comment taken out joins what is around it; a declaration ends at the first ">")
    assert verdicts == ["composite.xml", "composite.xml", "composite.xml", None, "composite.xml",
                        "composite.xml pre-3.0", "composite.xml pre-3.0", "composite.xml",
                        None, "composite.xml", None, None, None, "composite.xml"]


def test_sniff_text_without_quotes_is_no_export():
    assert pts.sniff("0, 1, 0, 4096\n" * 1000, "x_iops.1.log") is None
    assert pts.sniff(' ,,"a"\n"T (MB/s)",HIB,1\n', "x.csv") == "csv export"


# ------------------------------------------------------------------ columns


@pytest.mark.parametrize("seed", range(60))
def test_columns_is_run_columns(seed):
    """Rows whose shared values are factored as they are made (per result, per entry, runtime
    rows' own) give the columns run_columns gives from runs of the dicts they stand for: same
    values, Consts, names and their order."""
    rng = np.random.default_rng(seed)
    pool = [1, 1.0, True, "a", "b", None, float("nan")]

    def some(keys):
        return {k: pool[int(rng.integers(len(pool)))] for k in keys
                if rng.random() < 0.8}

    base_keys = ["test", "metric", "unit", "higher_is_better", "scale", "arguments",
                 "result_hash"]
    metas = [some(["hw_disk", "sw_os", "filesystem"]) for _ in range(3)]
    shared, rows, which = pts._Shared(), [], []
    for _ in range(int(rng.integers(0, 5))):
        base = {**some(base_keys), "metric": "iops", "unit": ["IO/s", "IO/s", "B/s"][
            int(rng.integers(3))], "higher_is_better": [True, True, False, None][
            int(rng.integers(4))], "scale": "IOPS"}  # (mostly the vocabulary's)
        basis_key = ["mb_basis", "basis"][int(rng.integers(2))]
        for _ in range(int(rng.integers(0, 4))):
            basis = [None, "", "MiB/s", "MB/s"][int(rng.integers(4))]
            w = shared.entry(base, metas[int(rng.integers(3))], str(rng.integers(3)),
                             pool[int(rng.integers(len(pool)))], basis_key, basis)
            for k in range(int(rng.integers(1, 4))):  # (an entry's runs come with their
                rt = k > 0 and rng.random() < 0.3  # runtime rows, never alone)
                if rt:
                    shared.runtime()
                which.append(w + rt)
                rows.append((float(len(rows)), "x", "p", 0.0, None, None))
    merged = {w: shared.merged(w) for w in set(which)}  # (one dict per set, as run_columns
    runs = []  # takes them)
    for w in which:
        if runs and runs[-1][1] is merged[w]:
            runs[-1][0] += 1
        else:
            runs.append([1, merged[w]])
    fixed = {"source": "s", "tool": "pts"}
    got = pts._vocabulary_filled(pts._columns(fixed, _as_columns(rows), which, shared))
    want = run_columns(fixed, pts._ROW_COLUMNS, rows, runs)  # (unit and higher_is_better
    # left to the vocabulary, given back per row, are the rows' own)
    assert repr(_runs_expanded(got)) == repr(want)


def _runs_expanded(columns: tuple[dict, int]) -> tuple[dict, int]:
    """``columns`` with each Runs (a column of few runs, pts._spread_column) as the list of its
    rows: its values' very objects, each on its count of rows."""
    cols, n = columns
    return {k: list(chain.from_iterable(map(repeat, v.values, v.counts)))
            if type(v) is Runs else v for k, v in cols.items()}, n


def _as_columns(rows: list[tuple]) -> tuple[list, ...]:
    return tuple(map(list, zip(*rows, strict=True))) if rows else tuple(
        [] for _ in pts._ROW_COLUMNS)


def test_lazy_series_is_the_series():
    """A series' columns are made when asked for; pickled, it is the plain Columns."""
    import pickle

    p = pts._parse(_two_results("1:2:3", "4:4:4", "1.5:2.5:3.5", "1024:1024:1024"), "x.xml")
    lazy = p.series[0]
    assert isinstance(lazy, pts._LazySeries) and lazy._parts is not None
    plain = pickle.loads(pickle.dumps(lazy))
    assert type(plain) is pts.Columns and lazy._parts is None
    assert repr(plain.cols) == repr(lazy.cols) and len(plain) == len(lazy) == 3
    assert plain.cols["t"] == [0.0, 1.0, 3.0] and plain.cols["value"] == [4 * MiB] * 3


# ------------------------------------------------------------------ runtime rows, MB basis


def _two_results(times_a: str, raw_a: str, times_b: str, raw_b: str) -> str:
    def result(scale, raw, times):
        return ("<Result><Identifier>pts/fio-1.15.0</Identifier><Title>Flexible IO Tester"
                "</Title><Arguments>read libaio 0 1 4k</Arguments><Description>Type: Sequential"
                f" Read - Block Size: 4KB</Description><Scale>{scale}</Scale><Proportion>HIB"
                "</Proportion><Data><Entry><Identifier>a</Identifier>"
                f"<RawString>{raw}</RawString><JSON>{{\"test-run-times\":\"{times}\"}}</JSON>"
                "</Entry></Data></Result>")
    return ("<PhoronixTestSuite><System><Identifier>a</Identifier></System>"
            + result("MB/s", raw_a, times_a) + result("IOPS", raw_b, times_b)
            + "</PhoronixTestSuite>")


def test_runtime_rows_once_per_run_also_when_a_later_result_has_more_runs():
    p = pts.parse(_two_results("1:2:3", "4:4:4", "1.5:2.5:3.5:4.5", "1024:1024:1024:1024"),
                  "x.xml")
    runtime = [(r["repetition"], r["value"]) for r in p.records if r["metric"] == "runtime"]
    # runs 1-3 from the MB/s result, run 4 (only the IOPS result has it) from the IOPS result
    assert runtime == [(0, 1.0), (1, 2.0), (2, 3.0), (3, 4.5)]
    bw = [r for r in p.records if r["metric"] == "bandwidth"]
    # 4 MB/s = 1024 IO/s x 4 KiB exactly in MiB: the check says MiB
    assert {r["mb_basis"] for r in bw} == {"MiB/s (checked: IOPS x block size)"}
    assert [r["value"] for r in bw] == [4 * MiB] * 3


@pytest.mark.parametrize("mbps,iops,bs,want", [
    (4.0, 1024.0, 4096, (MiB, "MiB/s (checked: IOPS x block size)")),
    (4.194304, 1024.0, 4096, (MB, "MB/s (checked: IOPS x block size)")),
    (8.0, 1024.0, 4096, (MiB, "MiB/s assumed (IOPS x block size check inconclusive)")),
    (4.0, 1024.0, None, None),
    (4.0, 1e308, 2**62, None),  # IOPS x block size beyond a float
])
def test_mb_checked(mbps, iops, bs, want):
    assert pts._mb_checked(mbps, iops, bs) == want


# ------------------------------------------------------------------ hostile numbers


def test_a_long_digit_run_is_read_in_linear_time():
    """A RawString of 20,000 digits and a letter: the number patterns used to split the digits
    every way before failing (5.7 s); possessive quantifiers fail at once."""
    import time

    raw = "9" * 20000 + "x"
    doc = ("<PhoronixTestSuite><System><Identifier>a</Identifier></System><Result><Title>T"
           "</Title><Scale>Seconds</Scale><Data><Entry><Identifier>a</Identifier>"
           f"<RawString>{raw}:{raw}</RawString></Entry></Data></Result></PhoronixTestSuite>")
    t = time.process_time()
    p = pts.parse(doc, "x.xml")
    assert time.process_time() - t < 1.0
    assert p.records == [] and "non-numeric RawString" in p.notes[0]
    assert pts._num(raw) is None and pts._nums([raw, raw]) == [None, None]
    assert pts._nums(["9" * 400, "1"]) == [None, 1.0]  # 1e400: not finite


@pytest.mark.parametrize("client,version", [
    ("Phoronix Test Suite v10.8.4", "10.8.4"), ("PTS 9.6.1m2 (Nesodden)", "9.6.1m2"),
    ("v12", "v12"), ("1v2.3", "2.3"), ("x12.3.", "12.3"), (None, None), ("", None),
])
def test_client_version(client, version):
    assert pts._client_version(client) == version


def test_a_long_test_client_is_searched_in_linear_time():
    import time

    t = time.process_time()
    assert pts._client_version("1" * 20000) == "1" * 20000  # no version: the text itself
    assert pts._client_version("\u0663" * 20000 + " v1.2") == "1.2"
    assert time.process_time() - t < 0.5  # 3.9 s and 3.1 s before


# ------------------------------------------------------------------ test logs


def _log_times_by_resolving(log_dir, res, system, tz, notes):
    """The rule: each hash's <system>.log, found only inside log_dir once resolved."""
    for h in [h for h in (res.hash, pts._comparison_hash(res, res.scale),
                          pts._comparison_hash(res, "")) if h]:
        path = log_dir / h / f"{system}.log"
        try:
            found = path.resolve().is_relative_to(log_dir.resolve()) and path.is_file()
        except (OSError, ValueError):
            found = False
        if found:
            out = {}
            text = path.read_bytes().decode("utf-8", errors="replace")
            for m in pts._LOG_HEADER_RE.finditer(text):
                if m.group("id").strip() == system:
                    ts = pts._tstamp(m.group("ts"), tz, notes, str(path))
                    if ts is not None:
                        out[int(m.group("n"))] = ts
            return out
    return {}


def test_test_logs_found_as_by_resolving_every_path(tmp_path):
    logs, outside = tmp_path / "test-logs", tmp_path / "outside"
    logs.mkdir()
    outside.mkdir()

    def log(system, *stamps):
        return "".join(f"#####\n{system} - Run {k}\n{ts}\n#####\nfio output\n"
                       for k, ts in enumerate(stamps, 1))

    def result(ident, scale, hash_=None):
        return pts._Result(ident, "T", "3.29", "a", "d", scale, "HIB", None, "/R", hash=hash_)

    plain, linked_dir, linked_file, bad = (result(f"pts/fio-{k}.0", "MB/s")
                                           for k in range(1, 5))
    (logs / pts._comparison_hash(plain, "MB/s")).mkdir()
    (logs / pts._comparison_hash(plain, "MB/s") / "gp3.log").write_text(
        log("gp3", "2024-01-02 03:04:05", "2024-01-02 03:05:05"))
    (outside / "gp3.log").write_text(log("gp3", "2024-01-02 03:04:05"))
    (logs / pts._comparison_hash(linked_dir, "MB/s")).symlink_to(outside)  # a link: outside
    (logs / pts._comparison_hash(linked_file, "")).mkdir()
    (logs / pts._comparison_hash(linked_file, "") / "gp3.log").symlink_to(outside / "gp3.log")
    (logs / pts._comparison_hash(bad, "")).mkdir()
    (logs / pts._comparison_hash(bad, "") / "gp3.log").write_text(
        log("gp3", "2024-13-45 00:00:00", "2024-01-02 03:05:05"))
    (logs / "a").mkdir()
    (logs / "a" / "b").mkdir()
    (logs / "a" / "b" / "gp3.log").write_text(log("gp3", "2024-01-02 03:04:05"))
    slashed = result("x", "IOPS", hash_="a/b")  # a JSON export's hash with a "/"
    cases = [(r, s) for r in (plain, linked_dir, linked_file, bad, slashed)
             for s in ("gp3", "io2", "../outside/gp3", "a\x00b")]
    finder = pts._TestLogs(logs)
    for tz in (None, "Europe/Berlin"):
        for r, system in cases * 2:  # twice: the second time from what was read
            want_notes, got_notes = [], []
            want = _log_times_by_resolving(logs, r, system, tz, want_notes)
            got = finder.times(r, system, tz, got_notes)
            assert got == want and got_notes == want_notes, (r.identifier, system)
        finder = pts._TestLogs(logs)
    assert finder.times(plain, "gp3", None, []) == {
        1: pd.Timestamp("2024-01-02 03:04:05", tz="UTC"),
        2: pd.Timestamp("2024-01-02 03:05:05", tz="UTC")}
    assert finder.times(linked_dir, "gp3", None, []) == {}  # never outside the folder
    notes: list[str] = []
    assert list(finder.times(bad, "gp3", None, notes)) == [2] and "not a date" in notes[0]


def test_scaled_values_are_checked_whatever_the_order_of_a_nan():
    # min/max over a list with a NaN depend on where it stands: [1, nan] passed the old check
    nan = float("nan")
    assert pts._scaled([1.0, nan], 2.0, False) is None
    assert pts._scaled([nan, 1.0], 2.0, True) is None
    assert pts._scaled([1.0, -3.0], 2.0, False) is None
    assert pts._scaled([1.0, -3.0], 2.0, True) == [2.0, -6.0]
    assert pts._scaled([1.0, 1e308], 10.0, True) is None


# ------------------------------------------------------------------ entries of a result at once


def _random_doc(rng) -> str:
    """A composite.xml of a few systems and results (rates with their IOPS sibling, a latency,
    a score) whose Values, RawStrings and test-run-times are drawn from tricky texts."""
    def pick(options):
        return options[int(rng.integers(len(options)))]

    def numbers(k, tricky):
        return ":".join(pick(TRICKY) if rng.random() < tricky else
                        f"{rng.uniform(-5, 2000) if rng.random() < 0.1 else rng.uniform(0, 2000):.2f}"
                        for _ in range(k))

    systems = ["a", "b", "c"]
    tricky = pick([0.0, 0.0, 0.0, 0.05, 0.3])
    doc = ["<PhoronixTestSuite>"]
    for sid in systems:
        stamp = pick(["2024-01-02 03:04:05", "2024-01-02 03:04:05", "yesterday", ""])
        doc.append(f"<System><Identifier>{sid}</Identifier><Hardware>Disk: {sid}</Hardware>"
                   f"<TimeStamp>{stamp}</TimeStamp></System>")
    for args, scale, ident, desc in [
            ("randread 4k", "MB/s", "pts/fio-1.15.0", "Type: Random Read - Block Size: 4KB"),
            ("randread 4k", "IOPS", "pts/fio-1.15.0", "Type: Random Read - Block Size: 4KB"),
            ("lat", "ms", "pts/fio-1.15.0", "Type: Random Read - Block Size: 4KB"),
            ("s", "Seconds", "pts/compile-1.0", "Build"),
            ("m", "MiB/s", "pts/other-1.0", "Copy")]:
        doc.append(f"<Result><Identifier>{ident}</Identifier><Title>T</Title>"
                   f"<Arguments>{args}</Arguments><Description>{desc}</Description>"
                   f"<Scale>{scale}</Scale><Proportion>HIB</Proportion><Data>")
        runs = int(rng.integers(1, 4))  # (mostly as many runs in every entry of a result)
        for sid in systems:
            if rng.random() < 0.1:
                continue
            k = runs if rng.random() < 0.85 else int(rng.integers(1, 4))
            parts = [f"<Identifier>{sid}</Identifier>"]
            if rng.random() < 0.95:
                parts.append(f"<Value>{numbers(1, tricky)}</Value>")
            if rng.random() < 0.95:
                parts.append(f"<RawString>{numbers(k, tricky)}</RawString>")
            if rng.random() < 0.8:
                times = numbers(k if rng.random() < 0.9 else k + 1, tricky / 2)
                parts.append(f'<JSON>{{"test-run-times":"{times}"}}</JSON>')
            doc.append("<Entry>" + "".join(parts) + "</Entry>")
        doc.append("</Data></Result>")
    doc.append("</PhoronixTestSuite>")
    return "".join(doc)


def _outcome(doc: str, **options):
    try:
        p = pts._parse(doc, "x.xml", **options)
    except es.ParseError as exc:
        return "error", str(exc)
    return repr(p.columns), p.notes, [repr(s.cols) for s in p.series]


@pytest.mark.parametrize("seed", range(300))
def test_entries_at_once_are_entries_one_by_one(seed, monkeypatch):
    """The entries of a result read at once (_Rows._bulk) give what reading them one by one by
    the general rule gives: rows, notes, series, or the same ParseError."""
    doc = _random_doc(np.random.default_rng(seed))
    options = {"fio_mb": ["auto", "MB"][seed % 2], "test_logs": False}
    fast = _outcome(doc, **options)
    monkeypatch.setattr(pts._Rows, "_bulk", lambda self, sh: False)
    slow = _outcome(doc, **options)
    assert fast == slow


def test_entries_at_once_take_the_plain_case():
    """(The shortcut is taken where the test above compares it.)"""
    doc = _random_doc(np.random.default_rng(0))
    calls = []
    bulk = pts._Rows._bulk

    def spy(self, sh):
        calls.append(bulk(self, sh))
        return calls[-1]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pts._Rows, "_bulk", spy)
        pts._parse(doc, "x.xml", test_logs=False)
    assert True in calls


@pytest.mark.parametrize("texts", [["1", "2"], ["1", "1:2"], ["1e400"], ["-1", " 2"], ["\u0663"],
                                   ["1", ""], []])
def test_bulk_nums_is_num_of_each_or_none(texts):
    got = pts._bulk_nums(texts)
    want = [pts._num(t) for t in texts]
    assert got is None or got == want
    assert (got is not None) is (bool(texts) and None not in want and all(
        re.fullmatch(r"[-+0-9.eE]+", t) for t in texts))


def _entries_one_by_one(rel, pos, source):
    """The Entries of a Result read one by one (the rule _composite_entries stands for)."""
    out, j = [], 0
    for data in rel.iterfind("Data"):
        for eel in data.iterfind("Entry"):
            j += 1
            epos = f"{pos}/Data/Entry[{j}]"
            system, raw, js, value = pts._texts(eel, pts._ENTRY_TAGS)
            if system is None:
                raise es.ParseError(source, f"{epos}/Identifier",
                                    "the system Identifier of an Entry", found="nothing")
            out.append(pts._Entry(system, value, raw.split(":") if raw else None,
                                  pts._run_times_json(js, epos, source) if js else None, epos))
    return out


ENTRY_PARTS = ["<Identifier>a</Identifier>", "<Identifier> b </Identifier>", "<Identifier/>",
               "<Identifier> </Identifier>", "<Value>1</Value>", "<Value> 2 </Value>",
               "<Value/>", "<RawString>1:2</RawString>", "<RawString>:</RawString>",
               "<RawString/>", '<JSON>{"test-run-times":"1:2"}</JSON>', "<JSON>{bad</JSON>",
               "<JSON/>", '<JSON>{"x": 1}</JSON>', "<Other>x</Other>", "<Identifier>c</Identifier>"]


@pytest.mark.parametrize("seed", range(200))
def test_composite_entries_are_entries_one_by_one(seed):
    rng = np.random.default_rng(seed)
    data = []
    for _ in range(int(rng.integers(0, 3))):
        entries = []
        for _ in range(int(rng.integers(0, 4))):
            parts = [ENTRY_PARTS[int(i)] for i in rng.integers(len(ENTRY_PARTS),
                                                               size=int(rng.integers(0, 5)))]
            if rng.random() < 0.8:
                parts.insert(0, "<Identifier>s</Identifier>")
            entries.append("<Entry>" + "".join(parts) + "</Entry>")
        data.append("<Data>" + "".join(entries) + "</Data>")
    doc = "<Result>" + "".join(data) + "</Result>"
    for rel in (ET.fromstring(doc), DET.fromstring(doc)):
        try:
            want = _entries_one_by_one(rel, "/P/Result[2]", "x.xml")
        except es.ParseError as exc:
            with pytest.raises(es.ParseError) as got:
                pts._composite_entries(rel, "/P/Result[2]", "x.xml", {})
            assert str(got.value) == str(exc)
        else:
            assert pts._composite_entries(rel, "/P/Result[2]", "x.xml", {}) == want


REAL = sorted(
    [p for p in (Path(__file__).parent / "fixtures" / "pts").rglob("*") if p.is_file()
     and p.suffix in (".xml", ".json", ".csv")]
    + list((Path(__file__).parent.parent / "data" / "campaign" / "pts").glob("*/composite.xml")))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.parent.name + "/" + p.name)
def test_real_files_at_once_are_one_by_one(path, monkeypatch):
    """On the genuine and campaign files: the rows of a result made at once (_emit), entry by
    entry from values read at once (_add), and by the general rule, are the same."""
    text = path.read_text(encoding="utf-8")
    fast = _outcome_of(text, str(path))
    monkeypatch.setattr(pts._Rows, "_alike", lambda self, sh, lengths, times: False)
    assert _outcome_of(text, str(path)) == fast
    monkeypatch.setattr(pts._Rows, "_bulk", lambda self, sh: False)
    assert _outcome_of(text, str(path)) == fast


def _outcome_of(text: str, source: str):
    p = pts._parse(text, source)
    return repr(p.columns), p.notes, [repr(s.cols) for s in p.series]


@pytest.mark.parametrize("a,b", [(1, True), (1, 1.0), (0.0, -0.0), ("1", 1), (None, "x")])
def test_spread_columns_kept_only_for_the_same_values(a, b, monkeypatch):
    """A column spread from the same layout and equal values is made once for the files that
    give it (each gets a copy); values that are equal but not the same (1, True, 1.0; 0.0,
    -0.0) never take each other's column."""
    monkeypatch.setattr(pts, "_SPREAD", {})
    monkeypatch.setattr(pts, "_LAYOUTS", {})

    def columns(x, y):
        shared = pts._Shared()
        which = []
        for v in (x, y, x):
            w = shared.entry({"metric": "iops", "scale": v}, {}, "c", None, "basis", None)
            which += [w, w]
        rows = [(None, "k", "p", 1.0, 0, None)] * len(which)
        got = pts._columns({"source": "s"}, _as_columns(rows), which, shared)
        runs = [[2, shared.merged(w)] for w in which[::2]]
        assert repr(_runs_expanded(got)) == repr(run_columns({"source": "s"}, pts._ROW_COLUMNS,
                                                             rows, runs))
        return got[0]["scale"], len(pts._SPREAD)

    (first, kept), (again, kept_again) = columns(a, "z"), columns(a, "z")
    other, kept_other = columns(b, "z")
    assert first == again and (first is not again or type(first) is Runs)  # (a copy for each
    # file; a Runs, which no file's rows hold, as it is)
    assert kept_again == kept == (0 if isinstance(a, float) else 1)  # (floats never kept)
    assert kept_other == kept + (not isinstance(b, float))  # (another key: made anew)
    assert repr(other) != repr(first)


def test_caches_are_forgotten_when_full(monkeypatch):
    """A full cache is emptied before it takes more; layout tokens are never given twice (a
    column kept under a forgotten layout's token is never taken for another layout)."""
    monkeypatch.setattr(pts, "_SPREAD_MAX", 3)
    monkeypatch.setattr(pts, "_LAYOUTS", {})
    tokens = [pts._layout_token([0, 0, 2 * k], [0, k]) for k in range(7)]
    assert len(set(tokens)) == 7 and len(pts._LAYOUTS) <= 3
    assert pts._layout_token([0, 0, 12], [0, 6]) == tokens[-1]  # (still kept)
    cache: dict = {}
    for k in range(10):
        pts.remember(cache, k, k, 4)
        assert len(cache) <= 4 and cache[k] == k


FIELD_VALUES = {
    "identifier": [None, "pts/fio-1.15.0", "pts/fio-1.15.1", "local/sysbench-fileio-1.0"],
    "title": ["Flexible IO Tester", "Sysbench file I/O", "T"],
    "app_version": [None, "3.29", "3.30"],
    "arguments": [None, "randread 4k", "randread 8k"],
    "description": [None, "Type: Random Read - Block Size: 4KB", "Type: Random Read - Block "
                    "Size: 8KB", "Test Mode: Sequential Write"],
    "scale": [None, "MB/s", "IOPS", "ms", "Seconds", "MiB/s"],
    "proportion": [None, "HIB", "LIB"],
    "display_format": [None, "BAR_GRAPH"],
    "hash": [None, "abc"],
}


@pytest.mark.parametrize("seed", range(30))
def test_result_values_depend_only_on_their_key(seed):
    """A result's values are kept by _result_key: a result differing in any field its values
    read has another key (so the kept values are never another result's)."""
    rng = np.random.default_rng(seed)

    def result(**fields):
        return pts._Result(**{k: v[int(rng.integers(len(v)))] for k, v in FIELD_VALUES.items()
                              if k not in fields}, position="/x", **fields)

    for fmt in ("composite.xml", "raw csv export"):
        res = result()
        for name, options in FIELD_VALUES.items():
            for v in options:
                other = result(**{k: getattr(res, k) for k in FIELD_VALUES if k != name},
                               **{name: v})
                if repr(pts._result_values(other, fmt)) != repr(pts._result_values(res, fmt)):
                    assert pts._result_key(other, fmt) != pts._result_key(res, fmt)
        assert repr(pts._result_values(res, "csv export")) == repr(
            pts._result_values(res, "composite.xml")) or pts._result_key(
            res, "csv export") != pts._result_key(res, "composite.xml")


@pytest.mark.parametrize("body", [
    "", "<TestInformation>", "</TestInformation>", "<SuiteInformation>", "x Information> y",
    "<ResultsParser>", "<ResultsParser/>", "<TestProfile>", "<TestProfile >",
    "<Result><TestInformation></Result>", "<OtherInformation>", "<testprofile>",
])
def test_profile_tags_is_the_plain_pattern(body):
    """The factored pattern finds what the plain alternation of the four tags finds."""
    plain = re.compile(r"<(?:TestInformation|ResultsParser|SuiteInformation|TestProfile)>")
    for text in (body, body * 3 + "<Result>", "x" + body[1:], body[:-1]):
        assert (pts._PROFILE_TAGS_RE.search(text) is None) is (plain.search(text) is None)


def test_a_system_name_of_many_slashes_is_no_log_found_quickly(tmp_path):
    """A path longer than any system opens is no file (is_file would raise): not resolved
    component by component (20 s for 200,000 slashes)."""
    import time

    (tmp_path / "test-logs" / "h").mkdir(parents=True)
    logs = pts._TestLogs(tmp_path / "test-logs")
    res = pts._Result("pts/fio-1.15.0", "T", None, None, None, "IOPS", None, None, "/x",
                      hash="h")
    system = "a/" * 100_000
    path = logs.log_dir / "h" / f"{system}.log"
    with pytest.raises(OSError):  # (what the rule it stands for met: never a file)
        path.is_file()
    t = time.perf_counter()
    assert logs.times(res, system, None, []) == {}
    assert time.perf_counter() - t < 1
