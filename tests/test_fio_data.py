"""The fio reader's parse of a file's bytes (the folder read's path): the usual report, ASCII
from its first ``{``, read by the fast path from the bytes, without the text, must give what
decoding the bytes and parsing the text gives (the rule it replaces), rows, notes and errors
alike, on every genuine report and on mutants that touch each of its conditions."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

import ebsstats as es
from ebsstats.io import fio
from ebsstats.io._common import decode
from ebsstats.io.fio import json as fio_json
from ebsstats.simulate.fuzz import mutations
from tests.conftest import fixture
from tests.test_fio_fast import JSON_SAMPLES, _exact


def _by_text(data: bytes, source: str):
    return fio._parse(decode(data, source), source)


def _outcome(parse, data: bytes, source: str = "x.json"):
    try:
        parsed = parse(data, source)
    except es.ParseError as exc:
        return ("ParseError", str(exc))
    except (ValueError, RecursionError, OverflowError) as exc:
        return (type(exc).__name__,)
    cols, n = parsed.columns if parsed.columns is not None else ({}, None)
    return (parsed.tool, parsed.format, parsed.version, parsed.notes, n,
            [len(s) for s in parsed.series], {k: _exact(v) for k, v in cols.items()},
            parsed.records if parsed.columns is None else None)


def _same(data: bytes, source: str = "x.json") -> None:
    by_data = _outcome(lambda d, s: fio.READER.parse(d, s, {}), data, source)
    assert by_data == _outcome(_by_text, data, source)


@pytest.mark.parametrize("name", sorted(JSON_SAMPLES))
def test_the_bytes_give_the_texts_rows_on_every_genuine_report(name):
    _same(JSON_SAMPLES[name], name)


def test_the_usual_report_is_read_from_its_bytes(monkeypatch):
    # (the path is taken: decoding the text is not needed)
    data = fixture("fio", "small_json.json").read_bytes()
    monkeypatch.setattr(fio, "decode", lambda *a: pytest.fail("decoded"))
    assert fio.READER.parse(data, "x.json", {}).nrows()


SMALL = fixture("fio", "small_json.json").read_bytes()


@pytest.mark.parametrize("data", [
    SMALL.replace(b'"fio version"', b'"fio version"\x1c', 1),  # text \s, not bytes \s
    SMALL.replace(b'"fio version" :', b'"fio version"\x1c:', 1),
    SMALL.replace(b'"fio version"', b'"fio versions"', 1),
    SMALL.replace(b'"fio version"', b'"fio\\u0020version"', 1),
    SMALL.replace(b'"jobname"', b'"jobname\x00"', 1),
    SMALL.replace(b'"jobname" : "', b'"jobname" : "\xc3\xa9', 1),  # UTF-8, not ASCII
    SMALL.replace(b'"jobname" : "', b'"jobname" : "\xe9', 1),  # not UTF-8
    b"\xef\xbb\xbf" + SMALL,
    SMALL.decode().encode("utf-16"),
    b" " + SMALL,
    b"fio: a note\n" + SMALL,
    SMALL + b"\nfio: a note after\n",
    SMALL + SMALL,
    SMALL.replace(b'"usr_cpu" : ', b'"usr_cpu" : 1' + b"0" * 5000 + b" + ", 1),
    SMALL.replace(b'"latency_depth" : ', b'"latency_depth" : ' + b"9" * 5000 + b", \"x\": ", 1),
    SMALL.replace(b'"latency_depth" : ', b'"latency_depth" : ' + b"9" * 4300 + b", \"x\": ", 1),
    SMALL.replace(b'"latency_depth" : ', b'"latency_depth" : ' + b"9" * 4301 + b", \"x\": ", 1),
    SMALL[:len(SMALL) // 2],
    b"{}",
    b'{"fio version": "fio-3.33", "jobs": []}',
    b'{"fio version": 3}',
])
def test_each_condition_of_the_bytes_path_against_the_text(data):
    _same(data)


@pytest.mark.parametrize("limit", [0, 640, 4300])
def test_a_digit_run_at_the_limit_the_bytes_and_the_text_agree(limit, monkeypatch):
    monkeypatch.setattr(sys, "get_int_max_str_digits", lambda: limit)
    for k in (1, 639, 640, 641, 4299, 4300, 4301):
        data = SMALL.replace(b'"latency_depth" : ', b'"latency_depth" : ' + b"7" * k
                             + b", \"y\": ", 1)
        assert fio_json._has_long_integer(data) == fio_json._has_long_integer(
            data.decode()), k


@pytest.mark.parametrize("name", ["small_json.json", "small_jsonplus.json",
                                  "multi_gr_json.json", "unified_mixed.json"])
def test_mutated_reports_the_bytes_and_the_text_agree(name):
    data = fixture("fio", name).read_bytes()
    for _kind, case in mutations(data, np.random.default_rng(29), 150):
        _same(case, name)


def test_any_key_renamed_to_a_non_ascii_one_the_bytes_and_the_text_agree():
    doc = json.loads(SMALL)
    for key in list(doc):
        copy = dict(doc)
        copy[key + "\u00e9"] = copy.pop(key)
        _same(json.dumps(copy, ensure_ascii=False).encode())
        _same(json.dumps(copy).encode())


@pytest.mark.parametrize("name", ["small_json.json", "small_jsonplus.json",
                                  "multi_gr_json.json", "unified_mixed.json"])
def test_a_nul_anywhere_the_bytes_and_the_text_agree(name):
    """The bytes path does not look for a NUL (the text's decoding refuses one): msgspec
    refuses it wherever it stands, in a string, a key, between tokens, after the document or
    in what it skips unread (json+ bins, latency_ns), so the file goes to the decoding and
    fails as before. Every position of a NUL inserted or replacing a byte, at a stride, and
    every position of each kind of place at least once."""
    data = fixture("fio", name).read_bytes()
    assert data[:1] == b"{" and data.isascii()
    step = max(1, len(data) // 400)
    spots = set(range(0, len(data) + 1, step))
    for marker in (b'"', b":", b",", b"{", b"[", b"\n", b" ", b"0", b'"bins"', b'"latency_ns"'):
        at = data.find(marker)
        if at >= 0:
            spots.update((at, at + 1))
    spots.add(len(data))
    for k in sorted(spots):
        for case in (data[:k] + b"\x00" + data[k:], data[:k] + b"\x00" + data[k + 1:]):
            assert fio.READER.parse.__name__ == "_parse_data"
            with pytest.raises(es.ParseError, match="NUL|binary|a fio report"):
                _by_text(case, name)
            _same(case, name)


def test_the_fast_path_builds_parsed_by_the_fields_order():
    """The fast path makes its :class:`Parsed` by position (no keywords): the fields it names
    must stay in this order."""
    import dataclasses

    from ebsstats.io._common import Parsed
    assert [f.name for f in dataclasses.fields(Parsed)][:7] == [
        "tool", "format", "version", "records", "series", "notes", "columns"]
    parsed = fio.READER.parse(SMALL, "x.json", {})
    assert (parsed.tool, parsed.format, parsed.records, parsed.series) == ("fio", "json", [], [])
    assert parsed.columns[1] == parsed.nrows() > 0 and parsed.version.startswith("fio-")
