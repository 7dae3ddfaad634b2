"""A built-in reader's claim (a verdict from a file's bytes alone, without the head decoded
nor every reader asked) against the rule it stands for, every registered reader's sniff of
the decoded head: wherever a claim speaks it names the reader and format the sniff names, on
every fixture, every genuine fio sample and mutants of their heads; a registry changed before
the claiming reader (a reader registered first, a built-in one taken away) is asked in full."""

from __future__ import annotations

import numpy as np
import pytest

from ebsstats.io import _builtin, _registry, folder, sniff
from ebsstats.io._common import HEAD_BYTES, Parsed
from ebsstats.simulate.fuzz import mutations
from tests.conftest import FIXTURES, fixture
from tests.test_fio_fast import JSON_SAMPLES


def _full(data: bytes):
    """The registry's verdict by every reader's sniff (the rule)."""
    head = data[:HEAD_BYTES].decode("utf-8", errors="replace")
    return sniff.sniff_text(head, "x")


def _agree(data: bytes) -> bool:
    """The claim, where it speaks, gives the full sniff's verdict; returns whether it spoke."""
    claimed = sniff.sniff_claim(data)
    if claimed is None:
        return False
    assert claimed == _full(data), data[:80]
    return True


def _all_fixture_bytes():
    return [p.read_bytes() for p in sorted(FIXTURES.rglob("*")) if p.is_file()]


def test_every_fixture_and_genuine_sample_agrees():
    _builtin.load()
    spoke = sum(_agree(data) for data in _all_fixture_bytes() + list(JSON_SAMPLES.values()))
    assert spoke >= 10  # the usual fio report is claimed


@pytest.mark.parametrize("name", ["small_json.json", "small_jsonplus.json",
                                  "multi_gr_json.json", "unified_mixed.json"])
def test_mutated_heads_agree(name):
    """Mutants of a report's first 400 bytes (byte flips, deleted or doubled lines, garbage,
    numbers) with its tail, and heads made to look like the other readers' first lines."""
    data = fixture("fio", name).read_bytes()
    head, tail = data[:400], data[400:]
    for _kind, case in mutations(head, np.random.default_rng(41), 400):
        _agree(case + tail)
    firsts = [b"{\n", b"{\r\n", b"{ \n", b" {\n", "\ufeff".encode() + b"{\n",
              b"# ebsstats published table\n{\n", b"0, 31371, 0, 4096, 0\n{\n",
              b'{"metric": "fio:read:iops", "value": 1.0, "unit": "", "labels": "", '
              b'"run_uri": "a1", "test": "fio"}\n', b"#####\r\nfio - Run 1\r\n{\n",
              b"{\n\x1c", b"{\n\x85", b"{\n\xc2\x85"]
    body = data.split(b"\n", 1)[1]
    for first in firsts:
        for rest in (body, body.replace(b'"fio version" :', b'"fio version"\x1c:', 1),
                     body.replace(b'"fio version" :', b'"fio version"\x0b:', 1),
                     body.replace(b'"fio version"', b'"fio versions"', 1),
                     b" " * HEAD_BYTES + body, b"\xe9" + body):
            _agree(first + rest)


def test_the_claim_speaks_for_fio_reports_and_nothing_else():
    _builtin.load()
    assert _agree(fixture("fio", "small_json.json").read_bytes())
    assert not _agree(b'{"fio version": "fio-3.33", "jobs": []}')  # one line: every sniff
    assert not _agree(b"{\n" + b" " * HEAD_BYTES + b'"fio version": "x"}')  # beyond the head


def _fake(name: str) -> _registry.Reader:
    return _registry.Reader(tool="sim", name=name, detect=lambda head, n: "text",
                            parse=lambda data, source, context: Parsed("sim", "text"))


def test_a_reader_registered_first_is_asked_before_any_claim():
    data = fixture("fio", "small_json.json").read_bytes()
    _builtin.load()
    assert sniff.sniff_claim(data).tool == "fio"
    _registry.register(_fake("claims-test-first"), first=True)
    try:
        assert sniff.sniff_claim(data) is None
        out = folder._Outcome("x.json")
        assert folder._sniff_data(data, "x.json", "x.json", out).tool == "sim"
    finally:
        _registry.unregister("claims-test-first")
    assert sniff.sniff_claim(data).tool == "fio"


def test_a_builtin_reader_taken_away_ends_the_claims():
    data = fixture("fio", "small_json.json").read_bytes()
    _builtin.load()
    pkb = next(r for r in _registry.readers() if r.name == "ebsstats.io.pkb")
    registry = list(_registry._REGISTRY)
    _registry.unregister(pkb.name)
    try:
        assert sniff.sniff_claim(data) is None
    finally:
        _registry._REGISTRY[:] = registry
        _registry._CLAIMERS[0] = None
    assert sniff.sniff_claim(data).tool == "fio"


def test_a_reader_registered_last_changes_no_claim():
    data = fixture("fio", "small_json.json").read_bytes()
    _builtin.load()
    _registry.register(_fake("claims-test-last"))
    try:
        assert sniff.sniff_claim(data) == _full(data)
    finally:
        _registry.unregister("claims-test-last")


def test_the_folder_sniff_gives_the_full_verdict_on_every_fixture():
    _builtin.load()
    for data in _all_fixture_bytes():
        if not data or data.isspace() or data.find(b"\x00", 0, 4096) >= 0:
            continue
        out = folder._Outcome("x")
        assert folder._sniff_data(data, "x", "x", out) == _full(data)
