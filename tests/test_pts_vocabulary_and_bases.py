"""PTS reader shortcuts: unit and higher_is_better left to the metric vocabulary wherever a
file's rows have their metric's (pts._vocabulary_agrees), given back per row by parse()
(pts._vocabulary_filled). Tested against the reader without that shortcut (the rows' own
values, typed per row) on genuine, campaign, random and respelled files: the same columns once
given back, and the same typed frames, file by file and in one folder read with files that
keep their own units."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.io import _common, pts
from ebsstats.io._columns import Const
from tests.conftest import FIXTURES
from tests.test_pts_fast import REAL, _random_doc, forget_kept
from tests.test_pts_plan import _mutant

OPTIONS = [{}, {"fio_mb": "MB"}, {"tz": "Europe/Berlin"}, {"test_logs": False}]

_PROPORTION_RE = re.compile(r"<Proportion>[^<]*</Proportion>")
_SCALE_RE = re.compile(r"<Scale>[^<]*</Scale>")

PTS_FIXTURES = FIXTURES / "pts"


def _respelled(doc: str, rng) -> str:
    """``doc`` with some Proportions and Scales changed (a LIB or NIB rate, a rate become a
    score or a latency): rows whose unit or direction is not the vocabulary's."""
    def proportion(m: re.Match) -> str:
        return (m.group(0) if rng.random() < 0.7 else
                f"<Proportion>{rng.choice(['LIB', 'NIB', '', 'HIB', 'hib'])}</Proportion>")

    def scale(m: re.Match) -> str:
        return (m.group(0) if rng.random() < 0.8 else
                f"<Scale>{rng.choice(['ms', 'Seconds', 'IOPS', 'MiB/s', 'us', 'MB/s'])}</Scale>")

    return _SCALE_RE.sub(scale, _PROPORTION_RE.sub(proportion, doc))


def _parsed(text: str, source: str, mp, left: bool, **options):
    """The reader's Parsed with (``left``) or without the vocabulary shortcut, nothing kept
    from earlier files replayed (then the plans and _Fast of this read are its own)."""
    with mp.context() as m:
        forget_kept(m)
        if not left:
            m.setattr(pts, "_vocabulary_agrees", lambda bases, runtimes: False)
        try:
            first = pts._parse(text, source, **options)
            again = pts._parse(text, source, **options)  # (by the plan or _Fast kept)
        except es.ParseError as exc:
            return str(exc), None
    return first, again


def _frame(parsed) -> pd.DataFrame:
    return _common.results_of([parsed.chunk(None)])


def _same(text: str, source: str, mp, **options) -> bool:
    """Compare the reader with and without the shortcut on one file; whether it was taken."""
    got, got_again = _parsed(text, source, mp, True, **options)
    want, want_again = _parsed(text, source, mp, False, **options)
    if got_again is None:
        assert got == want
        return False
    for g, w in ((got, want), (got_again, want_again)):
        assert repr(pts._vocabulary_filled(g.columns)) == repr(w.columns)
        assert g.notes == w.notes
        if w.nrows():
            pd.testing.assert_frame_equal(_frame(g), _frame(w), check_exact=True)
    cols = got.columns[0]
    left = type(cols.get("unit")) is Const and cols["unit"].value is None
    assert left == (type(cols.get("higher_is_better")) is Const
                    and cols["higher_is_better"].value is None)
    public = pts.parse(text, source, **options)  # (parse gives the rows' own back)
    assert repr(public.columns) == repr(want.columns)
    return left


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.parent.name + "/" + p.name)
def test_real_files_left_to_vocabulary_are_the_rows_own(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    for options in OPTIONS:
        _same(text, str(path), monkeypatch, **options)


def test_campaign_files_are_left_to_the_vocabulary(monkeypatch):
    """The campaign's fio files (HIB rates and run times) take the shortcut; a score does not."""
    paths = [p for p in REAL if p.name == "composite.xml"]
    assert paths
    for path in paths:
        assert _same(path.read_text(encoding="utf-8"), str(path), monkeypatch)
    score = ('<PhoronixTestSuite><System><Identifier>a</Identifier></System><Result><Title>T'
             '</Title><Scale>Seconds</Scale><Proportion>LIB</Proportion><Data><Entry>'
             '<Identifier>a</Identifier><Value>2</Value><RawString>1:3</RawString></Entry>'
             '</Data></Result></PhoronixTestSuite>')
    assert not _same(score, "s.xml", monkeypatch)


@pytest.mark.parametrize("seed", range(40))
def test_respelled_and_random_files(seed, monkeypatch):
    """Mutants of the genuine and campaign files (numbers, Proportions, Scales) and random
    files: the shortcut, where taken, gives the rows' own values and the same frames."""
    rng = np.random.default_rng(seed)
    xml = [p for p in REAL if p.suffix == ".xml"]
    path = xml[seed % len(xml)]
    doc = _respelled(_mutant(path.read_text(encoding="utf-8"), rng), rng)
    _same(doc, str(path), monkeypatch, **OPTIONS[seed % len(OPTIONS)])
    _same(_random_doc(rng), "r.xml", monkeypatch)


def test_both_ways_are_taken():
    """The check accepts rows of the vocabulary's unit and direction only."""
    iops = {"metric": "iops", "unit": "IO/s", "higher_is_better": True}
    assert pts._vocabulary_agrees([iops], True)
    assert pts._vocabulary_agrees([iops, {**iops, "metric": "bandwidth", "unit": "B/s"}], False)
    for bad in ({"higher_is_better": False}, {"higher_is_better": None}, {"unit": "B/s"},
                {"higher_is_better": 1}, {"unit": b"IO/s"}, {"metric": "score"},
                {"metric": "no such metric"}, {"metric": None}, {"metric": ["iops"]}):
        assert not pts._vocabulary_agrees([iops, {**iops, **bad}], False), bad
    assert not pts._vocabulary_agrees([{"metric": "lat_mean", "unit": "s",
                                        "higher_is_better": True}], False)
    assert pts._vocabulary_agrees([{"metric": "lat_mean", "unit": "s",
                                    "higher_is_better": False}], True)
    assert pts._vocabulary_agrees([{"metric": "score", "unit": None,
                                    "higher_is_better": None}], False)  # (the vocabulary's)


def test_folder_of_files_left_and_kept(tmp_path, monkeypatch):
    """One folder read of files whose units are left to the vocabulary and files that keep
    their own (a score, a LIB rate) types as the reader without the shortcut types it."""
    rng = np.random.default_rng(7)
    campaign = [p for p in REAL if p.name == "composite.xml"]
    for k, path in enumerate(campaign):
        text = path.read_text(encoding="utf-8")
        (tmp_path / f"{k}.xml").write_text(text if k % 2 else _respelled(text, rng))
    for k, path in enumerate(p for p in REAL if p.suffix in (".xml", ".json", ".csv")):
        (tmp_path / f"real{k}{path.suffix}").write_bytes(path.read_bytes())
    got = es.read(tmp_path, jobs=1, progress=False)
    with monkeypatch.context() as m:
        forget_kept(m)
        m.setattr(pts, "_vocabulary_agrees", lambda bases, runtimes: False)
        want = es.read(tmp_path, jobs=1, progress=False)
    pd.testing.assert_frame_equal(got, want, check_exact=True)


@pytest.mark.parametrize("seed", range(10))
def test_findall_is_iterfind(seed):
    """The children the reader looks up by findall (found in C) are those iterfind (a Python
    generator of ElementPath) finds, in the same order, spelled every way the fixtures and
    random files spell them."""
    rng = np.random.default_rng(seed)
    docs = [_random_doc(rng)] + [p.read_text(encoding="utf-8") for p in REAL
                                 if p.suffix == ".xml"]
    for doc in docs:
        root = pts._load_xml(doc, "x.xml")
        for el in root.iter():
            for tag in ("System", "Result", "Data", "Entry", "Benchmark", "Results/Group"):
                assert el.findall(tag) == list(el.iterfind(tag))


def _mb_checked_by_logs(mbps, iops, bs):
    """pts._mb_checked without its 1% band: the closer basis by the logs of the ratios."""
    if not (bs and mbps and iops and mbps > 0 and iops > 0):
        return None
    expected = iops * bs
    r_mib, r_mb = mbps * pts._MIB / expected, mbps * pts._MB / expected
    if not (0 < r_mib < math.inf and 0 < r_mb < math.inf):
        return None
    d_mib, d_mb = abs(math.log(r_mib)), abs(math.log(r_mb))
    if d_mib <= d_mb:
        if d_mib < 0.018:
            return pts._MIB, "MiB/s (checked: IOPS x block size)"
    elif d_mb < 0.018:
        return pts._MB, "MB/s (checked: IOPS x block size)"
    return pts._MIB, "MiB/s assumed (IOPS x block size check inconclusive)"


@pytest.mark.parametrize("seed", range(20))
def test_mb_checked_band_is_the_log_rule(seed):
    """The MB/s bases decided without logs near a basis are those of the log rule, entry by
    entry: ratios about 1%, 1.8% (the check's band) and 4.9% (the other basis) off, either
    side, and values that are no check (none, zero, negative, infinite, NaN, no block size)."""
    rng = np.random.default_rng(seed)
    bs = [None, 0, 512, 4096, 131072, 2**40][seed % 6]
    for _ in range(300):
        other = float(rng.choice([rng.uniform(1, 1e6), 0.0, -5.0, float("inf"), float("nan")]
                                 if rng.random() < 0.1 else [rng.uniform(1, 1e6)]))
        base = float(rng.choice([2**20, 10**6]))
        off = float(rng.choice([0.99, 1.01, 0.9899, 1.0101, 0.982, 1.018, 0.98, 1.02, 0.953,
                                1.0486, 1.0, 1 + 1e-12, 1.0183, 0.9818, rng.uniform(0.9, 1.1),
                                rng.uniform(0.975, 1.025)]))
        mean = other * (bs or 4096) / base * off
        if rng.random() < 0.05:
            mean = float(rng.choice([0.0, -mean, float("inf"), float("nan")]))
        other = None if rng.random() < 0.05 else other
        assert pts._mb_checked(mean, other, bs) == _mb_checked_by_logs(mean, other, bs)


_ASCII_NUM = r"[-+]?+(?:[0-9]++\.?+[0-9]*+|\.[0-9]++)(?:[eE][-+]?+[0-9]++)?+"
_NUMS_RE = re.compile(f"{_ASCII_NUM}(?::{_ASCII_NUM})*+")  # (the grammar, number by number)


def _bulk_nums_by_grammar(texts: list[str]) -> list[float] | None:
    """pts._bulk_nums by the grammar of a plain ASCII number matched per number."""
    if _NUMS_RE.fullmatch(":".join(texts)):
        try:
            values = list(map(float, texts))
        except ValueError:
            return None
        if float("inf") not in values and float("-inf") not in values:
            return values
    return None


@pytest.mark.parametrize("seed", range(20))
def test_bulk_nums_is_the_grammar(seed):
    """Texts read at once by their characters and float() are those the grammar reads: random
    texts of the numbers' characters (every spelling float() refuses and some it reads that
    the grammar would not), the tricky texts, and plain numbers."""
    from tests.test_pts_fast import TRICKY
    rng = np.random.default_rng(seed)
    alphabet = list("-+.:0123456789eE") + ["1", "2", "5", "0"] * 3 + list(" _nafi\u0663")
    for _ in range(3000):
        texts = ["".join(rng.choice(alphabet, size=int(rng.integers(0, 7))))
                 for _ in range(int(rng.integers(0, 4)))]
        if rng.random() < 0.3:
            texts += [str(rng.choice(TRICKY)), f"{rng.uniform(-1e3, 1e3):.3f}"]
        got, want = pts._bulk_nums(texts), _bulk_nums_by_grammar(texts)
        assert got == want or (got is not None and want is not None and repr(got) == repr(
            want)), texts


def _field_elements_in_order(text: str, fields: tuple, root) -> list | None:
    """pts._field_elements by the tree's elements in document order (each one's tag, then
    its text by the pattern of its tag), paired with the fields in order."""
    key, texts = fields
    prolog = 0
    while (m := pts._PROLOG_RE.match(text, pts._SPACES_RE.match(text, prolog).end())) is not None:
        prolog = m.end()
    if "<!" in text[prolog:] or "<?" in text[prolog:] or len(key[0]) < prolog:
        return None
    titles = {id(gen[0]) for gen in root.iter("Generated") if len(gen) and not gen.attrib
              and gen[0].tag == "Title" and not (gen.text or "").strip(" \t\n")}
    elements = [el for el in root.iter() if (el.tag in pts._FIELD_TEXTS and (
        el.tag != "Title" or id(el) in titles) and not el.attrib and not len(el)
        and pts._FIELD_TEXTS[el.tag](el.text or "") is not None)]
    if len(elements) != len(texts) or any(
            (el.text or "") != t for el, t in zip(elements, texts, strict=True)):
        return None
    return elements


def _elements_compared(doc: str) -> bool | None:
    fields = pts._template_fields(doc)
    try:
        root = pts._load_xml(doc, "x.xml")
    except es.ParseError:
        return None
    got = pts._field_elements(doc, fields, root)
    want = _field_elements_in_order(doc, fields, root)
    assert (got is None) == (want is None)
    if want is not None:
        assert list(map(id, got)) == list(map(id, want))
    return want is not None


@pytest.mark.parametrize("seed", range(60))
def test_field_elements_are_those_in_order(seed):
    """The fields' elements matched without the patterns are those of the document-order rule, or
    both none: genuine and campaign files, their field mutants and structural mutants
    (comments, CDATA, references, attributes, empty elements, other Generated titles, a
    carriage return), random files; some of each kind kept."""
    from tests.test_pts_plan import XML, _field_mutant, _structural
    rng = np.random.default_rng(seed)
    doc = XML[seed % len(XML)].read_text(encoding="utf-8") if seed % 3 else _random_doc(rng)
    doc = doc.replace("<PhoronixTestSuite>", "<PhoronixTestSuite><Generated>\n<Title>t</Title>"
                      "<LastModified>2024-01-02 03:04:05</LastModified></Generated>", 1) \
        if "<Generated>" not in doc and seed % 2 else doc
    kept = [_elements_compared(doc), _elements_compared(_field_mutant(doc, rng))]
    for _ in range(6):
        doc = _structural(doc, rng) if rng.random() < 0.7 else _field_mutant(doc, rng)
        kept.append(_elements_compared(doc))
    if seed % 3:
        assert kept[0] and kept[1]  # (the genuine ones are kept)


def _time_by_localizing(text: str):
    """A TimeStamp read as pts._time_of read it without a zone: parsed, then localized."""
    try:
        ts = pd.Timestamp(text)
    except ValueError as exc:
        return type(exc)
    return ts.tz_localize("UTC")  # (never raises here: no date the form allows is beyond it)


@pytest.mark.parametrize("seed", range(10))
def test_times_read_as_utc_at_once_are_localized_ones(seed):
    """A TimeStamp read as UTC at once is the naive time localized to UTC (value, unit, zone
    object), and a text that is no date is none either way: dates of every field's range and
    beyond (month 13, day 32, Feb 29 of non-leap years, hour 24, minute 60, years 0000-9999),
    with and without seconds or time."""
    rng = np.random.default_rng(seed)
    for _ in range(400):
        y, mo, d = int(rng.integers(0, 10000)), int(rng.integers(0, 14)), int(rng.integers(0, 33))
        h, mi, sec = int(rng.integers(0, 26)), int(rng.integers(0, 61)), int(rng.integers(0, 61))
        if rng.random() < 0.5:
            y = int(rng.choice([1677, 1678, 1900, 1970, 2000, 2024, 2262, 2263]))
        text = str(rng.choice([f"{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{sec:02}",
                               f"{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}", f"{y:04}-{mo:02}-{d:02}"]))
        notes: list = []
        got = pts._time_of(text, None, notes, "x")
        want = _time_by_localizing(text)
        if isinstance(want, type):
            assert got is None and notes, text
        else:
            assert got == want and got.unit == want.unit and got.tz is want.tz, text
            assert repr(got) == repr(want) and not notes


@pytest.mark.parametrize("desc", [None, "", "Type: Random Read - Block Size: 4KB",
                                  "Type: Sequential Write - Engine: Linux AIO - Block Size: 2MB",
                                  "Test Mode: Random Read/Write - Block Size: 1e400KB",
                                  "Block Size: 0B", "Type: random read - Block Size: 9EB",
                                  "Build - Type: Copy"])
def test_workload_kept_per_description(desc):
    """A Description's workload, op, block size and threads are kept: the same as read again."""
    res = pts._Result(None, "t", None, None, desc, None, None, None, "")
    assert pts._workload(res) == pts._description_workload.__wrapped__(None, desc)
    assert pts._workload(res) == pts._workload(res)


# Descriptions as PTS writes them from the profiles' options (the DisplayName and the chosen
# entry's Name, joined by " - "; ob-cache/test-profiles/pts/*/test-definition.xml)
@pytest.mark.parametrize("identifier, desc, expected", [
    ("pts/tiobench-1.3.1", "Test: Read - Size Per Thread: 32MB - Thread Count: 8",
     ("seqread", "read", None, 8)),
    ("pts/tiobench-1.3.1", "Test: Write - Size Per Thread: 256MB - Thread Count: 32",
     ("seqwrite", "write", None, 32)),
    ("pts/tiobench-1.2.0", "Test: Random Write - Size Per Thread: 64MB - Thread Count: 4",
     ("randwrite", "write", None, 4)),
    ("pts/iozone-1.9.6", "Record Size: 64Kb - File Size: 512MB - Disk Test: Read Performance",
     ("seqread", "read", 65536, None)),
    ("pts/fio-2.2.0", "Type: Random Write - Engine: Linux AIO - Direct: Yes - Block Size: 4KB"
     " - Job Count: 16 - Disk Target: Default Test Directory",
     ("randwrite", "write", 4096, 16)),
    ("pts/dbench-1.0.2", "Client Count: 12", (None, None, None, 12)),
    ("pts/aio-stress-1.1.3", "Test: Random Write", ("randwrite", "write", None, None)),
    # a profile's own words are its own: another's "Read" says nothing
    ("pts/compilebench-1.0.3", "Test: Read Compiled Tree", (None, None, None, None)),
    ("local/other-1.0.0", "Test: Read - Thread Count: 0", (None, None, None, None)),
    ("pts/tiobench-1.3.1", "Test: Read - Thread Count: many", ("seqread", "read", None, None)),
])
def test_description_workload_per_profile(identifier, desc, expected):
    """Workload, op, block size and threads of each storage profile's Description."""
    assert pts._description_workload.__wrapped__(pts._profile_name(identifier), desc) == expected


def test_tiobench_result_read_with_its_op_and_threads(tmp_path):
    """A tiobench result (a generated fio result of the fixture given tiobench's identifier,
    title and Description; its values are the fixture's) gets op, workload and threads."""
    path = PTS_FIXTURES / "ebs-mini-single-volume" / "composite.xml"
    text = path.read_text()
    first = text.index("<Result>")
    head, rest = text[:first], text[first:]
    rest = rest.replace("<Identifier>local/fio-sys-1.0.0</Identifier>\n    <Title>Flexible IO "
                        "Tester (System fio)</Title>", "<Identifier>pts/tiobench-1.3.1"
                        "</Identifier>\n    <Title>Threaded I/O Tester</Title>", 1)
    rest = rest.replace("Type: Random Read - Engine: Linux AIO - Direct: Yes - Block Size: 4KB",
                        "Test: Read - Size Per Thread: 32MB - Thread Count: 8", 1)
    (tmp_path / "composite.xml").write_text(head + rest)
    df = es.read(tmp_path)
    tio = df[(df["test"] == "Threaded I/O Tester") & (df["metric"] == "bandwidth")]
    assert len(tio) == 6  # its five runs and the reported mean
    assert set(tio["op"]) == {"read"} and set(tio["workload"]) == {"seqread"}
    assert tio["threads"].tolist() == [8] * 6 and tio["block_size"].isna().all()
    assert tio["value"].iloc[0] == 481 * 2**20  # the first run, 481 MB/s (MiB: no IOPS sibling)
    # the fio results' threads stay unknown: their Description has no Job Count
    assert df.loc[df["result_identifier"] == "local/fio-sys-1.0.0", "threads"].isna().all()


def _as_fio_2_0_0(text: str) -> str:
    """The fixture's fio results as pts/fio-2.0.0 writes them: identifier, the ``MiB/s`` scale
    of its bw-line parser, and each MB/s figure as that line gives it below 1 GiB/s, in KiB/s
    (the fixture's MB/s are 10^6 bytes: x 10^6 / 1024). No genuine pts/fio-2.0.0 file was
    found; this is its profile's results-definition.xml applied to the fixture's figures."""
    def result(m: re.Match) -> str:
        block = m.group(0)
        if "<Identifier>local/fio-sys-1.0.0</Identifier>" not in block:
            return block
        block = block.replace("local/fio-sys-1.0.0", "pts/fio-2.0.0")
        if "<Scale>MB/s</Scale>" not in block:
            return block
        def kib(v: re.Match) -> str:
            return f"{float(v.group(0)) * 1e6 / 1024:.6f}"
        block = re.sub(r"(?<=<Value>)[^<]+", kib, block)
        block = re.sub(r"(?<=<RawString>)[^<]+",
                       lambda r: ":".join(f"{float(x) * 1e6 / 1024:.6f}"
                                          for x in r.group(0).split(":")), block)
        return block.replace("<Scale>MB/s</Scale>", "<Scale>MiB/s</Scale>")
    return re.sub(r"<Result>.*?</Result>", result, text, flags=re.S)


def test_fio_2_0_0_kib_values_under_a_mib_scale(tmp_path):
    """pts/fio-2.0.0 files its KiB/s figures under MiB/s (fio prints the bw line in KiB/s up
    to 1 GiB/s): read as KiB/s where IOPS x block size says so, the same B/s as the
    fixture's decimal MB/s figures, not 1024 times them."""
    src = PTS_FIXTURES / "ebs-mini-single-volume" / "composite.xml"
    (tmp_path / "composite.xml").write_text(_as_fio_2_0_0(src.read_text()))
    want = es.read(src)
    got = es.read(tmp_path)
    bw = want[(want["result_identifier"] == "local/fio-sys-1.0.0")
              & (want["metric"] == "bandwidth")]
    bw2 = got[(got["result_identifier"] == "pts/fio-2.0.0") & (got["metric"] == "bandwidth")]
    assert len(bw2) == len(bw) == 24  # 4 MB/s results x (5 runs + the reported mean)
    np.testing.assert_allclose(bw2["value"].to_numpy(), bw["value"].to_numpy(), rtol=1e-9)
    assert set(bw["mb_basis"]) == {"MB/s (checked: IOPS x block size)"}
    assert set(bw2["mb_basis"]) == {
        "KiB/s (checked: IOPS x block size; fio printed its bw line in KiB/s)"}
    # fio_mb forces the scale's MiB/s (the user's word over the check)
    forced = es.read_pts(tmp_path / "composite.xml", fio_mb="MiB")
    forced = forced[(forced["result_identifier"] == "pts/fio-2.0.0")
                    & (forced["metric"] == "bandwidth")]
    np.testing.assert_allclose(forced["value"].to_numpy(), bw2["value"].to_numpy() * 1024)


@pytest.mark.parametrize("mean, iops, bs, unit", [
    (11718.75, 3000.0, 4096, "KiB"),  # 3,000 IOPS of 4 KiB in KiB/s (EBS gp3 baseline)
    (11.71875, 3000.0, 4096, "MiB"),  # the same in MiB/s
    (1000.0, 1000.0, 2**20, "MiB"),  # 1,000 IOPS of 1 MiB: 1000 MiB/s
    (1024000.0, 1000.0, 2**20, "KiB"),  # the same in KiB/s
    (5000.0, 3000.0, 4096, None),  # neither: the scale's MiB/s, unchecked
    (11718.75, None, 4096, None),  # no IOPS entry
    (11718.75, 3000.0, None, None),  # no block size
])
def test_entry_kib_or_mib(mean, iops, bs, unit):
    factor, basis = pts._entry_kib_or_mib(mean, iops, bs, True)
    if unit is None:
        assert factor == 2**20 and basis.startswith("MiB/s (the profile's scale;")
    else:
        assert factor == {"KiB": 1024, "MiB": 2**20}[unit] and "checked" in basis


_ZSTD_RESULT = """  <Result>
    <Identifier>pts/compress-zstd-1.6.0</Identifier><Title>Zstd Compression</Title>
    <AppVersion>1.5.4</AppVersion><Arguments>-b3</Arguments>
    <Description>Compression Level: 3 - {what} Speed</Description>
    <Scale>MB/s</Scale><Proportion>HIB</Proportion><DisplayFormat>BAR_GRAPH</DisplayFormat>
    <Data><Entry><Identifier>GVNO3</Identifier><Value>{value}</Value>
      <RawString>{raw}</RawString>
      <JSON>{{"test-run-times":"66.20:64.49:64.52"}}</JSON></Entry></Data>
  </Result>
"""
# two results of one execution (the shape of a public Zstd composite.xml)
_ZSTD = ("""<?xml version="1.0"?>
<PhoronixTestSuite>
  <Generated><Title>zstd</Title><LastModified>2024-05-01 10:00:00</LastModified></Generated>
  <System><Identifier>GVNO3</Identifier><TimeStamp>2024-05-01 09:00:00</TimeStamp></System>
""" + _ZSTD_RESULT.format(what="Compression", value="134.6", raw="134.6:134.7:134.6")
         + _ZSTD_RESULT.format(what="Decompression", value="515.9", raw="516.2:515.9:515.6")
         + "</PhoronixTestSuite>\n")


def test_one_execution_gives_its_run_times_once(tmp_path):
    """Two results PTS parsed from one execution of a test (the structure of a public Zstd
    composite.xml: one profile and arguments, compression and decompression speeds, the same
    test-run-times): three runtime rows, not six; each speed in 10^6 B/s (zstd's MB_UNIT).
    Read alone, and as 40 files of one layout (the plan's replay gives the same rows)."""
    df = es.read_pts(_write(tmp_path / "one", _ZSTD))
    rt = df[df["metric"] == "runtime"]
    assert rt["value"].tolist() == [66.20, 64.49, 64.52]
    assert set(rt["description"]) == {"Compression Level: 3 - Compression Speed"}
    bw = df[(df["metric"] == "bandwidth") & df["flag"].isna()]
    np.testing.assert_allclose(bw["value"], [134.6e6, 134.7e6, 134.6e6, 516.2e6, 515.9e6, 515.6e6],
                               rtol=1e-15)
    many = tmp_path / "many"
    for k in range(40):
        _write(many / f"r{k:02d}" / "composite.xml", _ZSTD.replace("66.20", f"66.{k:02d}"))
    got = es.read(many)
    assert (got[got["metric"] == "runtime"].groupby("source").size() == 3).all()
    assert len(got) == 40 * len(df)


def _write(path, text: str):
    path = path if path.suffix else path / "composite.xml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_single_run_with_an_empty_rawstring_is_a_run(tmp_path):
    """PTS leaves RawString empty when a test ran once (FORCE_TIMES_TO_RUN=1; a public
    pts/fio-2.1.0 result: "<Value>357</Value><RawString></RawString>", one test-run-time): the
    Value is that run's, a row the statistics count, with its runtime row; with several run
    times and no RawString, only the reported mean is known, and the notes say so."""
    one = _ZSTD.replace("<RawString>134.6:134.7:134.6</RawString>", "<RawString></RawString>")
    one = one.replace('"test-run-times":"66.20:64.49:64.52"}</JSON></Entry></Data>\n  </Result>\n'
                      '  <Result>', '"test-run-times":"66.20"}</JSON></Entry></Data>\n  </Result>'
                      '\n  <Result>', 1)
    df = es.read_pts(_write(tmp_path / "one", one))
    first = df[df["description"] == "Compression Level: 3 - Compression Speed"]
    assert first[["metric", "value", "repetition"]].values.tolist() == [
        ["bandwidth", 134.6e6, 0], ["runtime", 66.20, 0]]
    assert first["flag"].isna().all()
    assert first["position"].iloc[0].endswith("/Result[1]/Data/Entry[1]/Value (run 1)")
    many = _ZSTD.replace("<RawString>134.6:134.7:134.6</RawString>", "<RawString></RawString>")
    p = pts.parse(many, "m.xml")
    rows = [r for r in p.records if r["description"].endswith(" Compression Speed")]
    assert [(r["metric"], r["flag"]) for r in rows] == [("bandwidth", "reported_mean")]
    assert any("3 runs without their values" in n for n in p.notes)


@pytest.mark.parametrize("scale, metric, factor", [
    ("MiB/sec", "bandwidth", 2**20),  # PTS's sysbench memory
    ("MiB/second", "bandwidth", 2**20),  # Crypto++
    ("Mbyte/s", "bandwidth", 2**20),  # Nettle (no IOPS result, no known profile: assumed)
    ("Mb/s", "score", 1),  # srsRAN: megabits, not a storage rate
    ("Mbit/s", "score", 1),
    ("byte/s", "bandwidth", 1),  # PTS's OpenSSL
    ("Bytes/sec", "bandwidth", 1),
    ("GiB/s", "bandwidth", 2**30),  # as the scale says
    ("KiB/s", "bandwidth", 2**10),
    ("TiB/s", "bandwidth", 2**40),
    ("kB/s", "bandwidth", 10**3),  # the SI kilo
    ("GB/s", "bandwidth", 2**30),  # a tool not known: binary assumed, as for MB/s
    ("KB/s", "bandwidth", 2**10),
    ("Gb/s", "score", 1),  # bits
    ("Gbit/s", "score", 1),
    ("GB", "score", 1),  # a size, not a rate
])
def test_rate_scales_however_spelt(scale, metric, factor):
    text = _ZSTD.replace("<Identifier>pts/compress-zstd-1.6.0</Identifier>",
                         "<Identifier>pts/other-1.0.0</Identifier>")
    text = text.replace("<Scale>MB/s</Scale>", f"<Scale>{scale}</Scale>", 1)
    rows = [r for r in pts.parse(text, "x.xml").records
            if r["description"].endswith(" Compression Speed") and r["repetition"] == 0
            and r["metric"] != "runtime"]
    assert [(r["metric"], r["value"]) for r in rows] == [(metric, 134.6 * factor)]
    if metric == "bandwidth" and "M" not in scale:
        basis = rows[0]["mb_basis"]
        assert basis.startswith({1: "B/s", 2**10: "KiB/s", 10**3: "kB/s", 2**30: "GiB/s",
                                 2**40: "TiB/s"}[factor])
        assert ("assumed" in basis) == (scale in ("GB/s", "KB/s"))


@pytest.mark.parametrize("identifier, scale, value, factor, basis", [
    # simdjson's bench_ondemand counts best_bytes_per_sec with Google Benchmark's 1000-base
    # prefixes: a public result's 1.36 GB/s is 1.36e9 B/s
    ("pts/simdjson-2.0.1", "GB/s", "1.36", 1e9,
     "GB/s (the simdjson profile: its tool counts 10^9 bytes)"),
    # a tool with a binary MB (cachebench) has a binary GB too
    ("pts/cachebench-1.2.0", "GB/s", "1.5", 2**30,
     "GiB/s (the cachebench profile: its tool counts 2^30 bytes)"),
    # OpenSSL's PTS profile reports byte/s: a public result's SHA256 173,995,667 byte/s
    ("pts/openssl-3.1.0", "byte/s", "173995667", 1, "B/s (the profile's scale)"),
])
def test_prefixed_rates_of_known_profiles(tmp_path, identifier, scale, value, factor, basis):
    """Byte rates with other prefixes than M follow the profile's tool where PROFILE_MB knows
    it, read the same in a folder's first file (the general rule) and its second (a later
    session: the replay of the first one's plan)."""
    text = _ZSTD.replace("<Identifier>pts/compress-zstd-1.6.0</Identifier>",
                         f"<Identifier>{identifier}</Identifier>")
    text = text.replace("<Scale>MB/s</Scale>", f"<Scale>{scale}</Scale>", 1)
    text = text.replace("<Value>134.6</Value>", f"<Value>{value}</Value>", 1)
    text = text.replace("<RawString>134.6:134.7:134.6</RawString>",
                        f"<RawString>{value}:{value}:{value}</RawString>", 1)
    _write(tmp_path / "a", text)
    _write(tmp_path / "b", text.replace("2024-05-01 09:00:00", "2024-05-02 09:00:00"))
    df = es.read(tmp_path)
    got = df[df["scale"] == scale]
    assert len(got) == 8 and set(got["source"].str[:1]) == {"a", "b"}  # 3 runs + mean, twice
    assert set(got["metric"]) == {"bandwidth"} and set(got["unit"]) == {"B/s"}
    assert got["value"].tolist() == [pytest.approx(float(value) * factor)] * 8
    assert set(got["mb_basis"]) == {basis}


def test_csv_export_result_known_by_its_title():
    """The CSV export has no identifier: a result is known by its profile's title (RAMspeed
    SMP counts 10^6 bytes: a public export's 75574.26 MB/s is 75.57 GB/s). The fixture's
    export with a row of that public export added."""
    text = (PTS_FIXTURES / "ebs-mini-single-volume" / "ebs-mini-single-volume.csv").read_text()
    text += '"RAMspeed SMP - Type: Add - Benchmark: Integer (MB/s)",HIB,75574.26\n'
    got = [r for r in pts.parse(text, "r.csv").records if r["test"] == "RAMspeed SMP"]
    assert [(r["value"], r["mb_basis"]) for r in got] == [
        (pytest.approx(75574.26e6), "MB/s (the ramspeed profile: its tool counts 10^6 bytes)")]


def test_description_is_a_workload_parameter():
    """Tinymembench's memcpy and memset results share their (empty) Arguments: only the
    Description tells them apart, and runs that differ in it are not repetitions."""
    assert "description" in es.schema.WORKLOAD_PARAMETERS
    df = pd.DataFrame({"test": "Tinymembench", "op": pd.NA, "metric": "bandwidth",
                       "description": ["Standard Memcpy"] * 3 + ["Standard Memset"] * 3,
                       "value": [11.8e9, 11.9e9, 11.7e9, 25.7e9, 25.8e9, 25.6e9]})
    s = es.summarize(df, n_boot=0)
    assert "mixes description Standard Memcpy/Standard Memset" in s["warning"].iloc[0]
    assert len(es.summarize(df, by=["description"], n_boot=0)) == 2


def test_pts_results_under_its_hidden_home_are_read(tmp_path):
    """PTS saves its results in ~/.phoronix-test-suite/test-results: a folder holding that
    hidden folder is read there (and only there: its installed tests and settings are not)."""
    home = tmp_path / "box" / ".phoronix-test-suite"
    _write(home / "test-results" / "zstd" / "composite.xml", _ZSTD)
    _write(home / "installed-tests" / "pts" / "x" / "composite.xml", _ZSTD)
    (home / "user-config.xml").write_text("<PhoronixTestSuite><Options/></PhoronixTestSuite>")
    _write(tmp_path / "box" / ".git" / "composite.xml", _ZSTD)
    r = es.read(tmp_path, full=True)
    assert set(r.frame["source"]) == {"box/.phoronix-test-suite/test-results/zstd/composite.xml"}
    assert r.failures.empty


def test_pts_hidden_home_given_itself(tmp_path, monkeypatch):
    """The .phoronix-test-suite folder given itself, by a relative path: its test-results are
    read, its installed tests are not."""
    home = tmp_path / ".phoronix-test-suite"
    _write(home / "test-results" / "zstd" / "composite.xml", _ZSTD)
    _write(home / "installed-tests" / "pts" / "x" / "composite.xml", _ZSTD)
    monkeypatch.chdir(tmp_path)
    assert set(es.read(".phoronix-test-suite")["source"]) == {"test-results/zstd/composite.xml"}


def test_a_failed_test_says_the_error_pts_recorded(tmp_path):
    """A test that failed leaves its Entry without Value and RawString and PTS's error in its
    JSON (as a public pts/fio-2.1.0 result does: "error":"The test quit with a non-zero exit
    status."): the file holds no results, and says PTS's words instead of only that."""
    text = _ZSTD.replace("<Value>134.6</Value>", "<Value></Value>").replace(
        "<Value>515.9</Value>", "<Value></Value>")
    text = re.sub(r"<RawString>[^<]*</RawString>", "<RawString></RawString>", text)
    text = text.replace('{"test-run-times":"66.20:64.49:64.52"}',
                        '{"test-run-times":"0.03:0.03","error":"The test quit with a non-zero '
                        'exit status."}')
    _write(tmp_path / "composite.xml", text)
    with pytest.warns(UserWarning, match="no results"):
        r = es.read(tmp_path, full=True)
    assert r.failures["kind"].tolist() == ["empty", "note", "note"]  # (each empty entry noted)
    assert (r.failures["position"].iloc[1], r.failures["reason"].iloc[1]) == (
        "/PhoronixTestSuite/Result[1]/Data/Entry[1]", "empty entry skipped")  # (its element)
    assert r.failures["reason"].iloc[0].endswith(
        "PTS recorded the test's error: The test quit with a non-zero exit status.")
