"""A folder read that gives no results says why (what it took each file for), instead of an
empty frame and nothing else: found on a campaign whose fio outputs were kept in Markdown
notes (liangruibupt/ebs-benchmark-testing: 11 ``*.md`` files, every one a companion)."""

from __future__ import annotations

import warnings

import pytest

import ebsstats as es
from tests.conftest import fixture


def test_a_folder_of_notes_says_they_were_set_aside(tmp_path):
    body = fixture("fio", "f2110_small_normal.txt").read_text()  # a genuine fio 2.1.10 report
    (tmp_path / "gp2.md").write_text("# gp2 run\n```\n" + body + "```\n")
    (tmp_path / "notes.txt").write_text("coffee at 10\n")
    with pytest.warns(UserWarning, match=r"no results under .*: 2 file\(s\) listed") as rec:
        df = es.read(tmp_path)
    said = str(rec[0].message)
    assert "1 set aside as companions" in said and "*.md" in said
    assert "1 not benchmark outputs" in said and "ebsstats.check(" in said
    assert len(df) == 0


def test_an_empty_folder_says_so_and_a_folder_of_results_says_nothing(tmp_path):
    with pytest.warns(UserWarning, match=r"0 file\(s\) listed"):
        es.read(tmp_path)
    (tmp_path / "r.txt").write_bytes(fixture("sysbench", "sb_cpu.txt").read_bytes())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(es.read(tmp_path)) > 0


def test_a_folder_of_logs_read_for_its_series_says_nothing(tmp_path):
    (tmp_path / "randread_iops.1.log").write_text("1000, 3010, 0, 4096\n2000, 2990, 0, 4096\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(es.read_series(tmp_path)) == 2
