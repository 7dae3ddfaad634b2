"""Shared test helpers: fixture paths and a guard that inputs are never modified."""

from __future__ import annotations

import hashlib
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).parent.parent


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


def fixture(*parts: str) -> Path:
    """Path of a genuine tool output under tests/fixtures (copied from shared/samples)."""
    p = FIXTURES.joinpath(*parts)
    assert p.exists(), p
    return p


def tree_digest(path: Path) -> str:
    """SHA-256 over every file's relative name and bytes: compare before/after a read."""
    h = hashlib.sha256()
    for f in sorted(p for p in Path(path).rglob("*") if p.is_file()):
        h.update(str(f.relative_to(path)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()
