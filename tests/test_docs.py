"""The documentation's own examples run: every ``>>>`` example in the hand-written pages of
``docs/`` is a doctest (the API reference's examples are the docstrings', which the suite already
runs with ``--doctest-modules``). ``make docs`` in CI checks that the site builds."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.rst")
               if not {"_build", "_generated", "api"} & set(p.relative_to(DOCS).parts))


def test_pages_found():
    names = {p.relative_to(DOCS).as_posix() for p in PAGES}
    assert {"getting-started.rst", "own-data.rst", "tidy-frame.rst", "questions/variance.rst",
            "questions/drift.rst", "questions/firstwrite.rst", "questions/slow-volumes.rst",
            "questions/cost.rst", "questions/scale.rst", "formats/index.rst",
            "architecture.rst"} <= names


@pytest.mark.parametrize("page", [p for p in PAGES if ">>>" in p.read_text()],
                         ids=lambda p: p.relative_to(DOCS).as_posix())
def test_page_examples(page):
    result = doctest.testfile(str(page), module_relative=False, verbose=False, report=True,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                              encoding="utf-8")
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} example(s) failed in {page.name}"
