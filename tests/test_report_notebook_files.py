"""A notebook folder with a file that is not a notebook: the report names the file and writes
nothing (it said only "Expecting value: line 2 column 1 (char 12)")."""

from __future__ import annotations

import shutil

import pytest

from ebsstats.app.reports import notebook_parameters, report
from tests.conftest import ROOT


@pytest.mark.parametrize("content", [b'{"cells": [\n', b"[1]", b'{"cells": [1]}', b"\xff\xfe"])
def test_a_broken_notebook_is_named_and_nothing_is_written(tmp_path, content):
    books = tmp_path / "nbs"
    books.mkdir()
    shutil.copy(sorted((ROOT / "notebooks").glob("01*.ipynb"))[0], books)
    (books / "02_broken.ipynb").write_bytes(content)
    with pytest.raises(ValueError, match=r"02_broken\.ipynb: not a readable notebook"):
        notebook_parameters(books / "02_broken.ipynb")
    with pytest.raises(ValueError, match=r"02_broken\.ipynb: not a readable notebook"):
        report(ROOT / "tests" / "fixtures" / "ioping", tmp_path / "out", notebooks=books)
    assert not (tmp_path / "out").exists()
