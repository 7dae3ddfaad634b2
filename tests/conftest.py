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


def json_slots(obj, numbers_only: bool = False, path: tuple = ()):
    """Key paths (tuples of keys and indices) of every leaf of a decoded JSON document (of
    every number, with ``numbers_only``)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from json_slots(v, numbers_only, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from json_slots(v, numbers_only, (*path, i))
    elif not numbers_only or (isinstance(obj, (int, float)) and not isinstance(obj, bool)):
        yield path
