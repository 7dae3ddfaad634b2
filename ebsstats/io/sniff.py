"""Which tool wrote a file: decided by content, never by the extension alone.

Each registered reader (:mod:`ebsstats.io._registry`) looks at the first 64 KiB of a file; the
most confident answer wins (among equals, the most specific reader: published tables, then fio
logs, then the tools).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ebsstats.io import _builtin, _registry
from ebsstats.io._common import HEAD_BYTES, UTF16_BOMS

# files that travel with benchmark outputs but are not outputs themselves
NOT_OUTPUTS = {"meta.yaml", "meta.yml", "truth.yaml", "readme.md", "readme.txt", "manifest.tsv",
               "sources.md", ".ds_store"}
NOT_OUTPUT_SUFFIXES = (".meta.yaml", ".meta.yml", ".fio", ".ipynb", ".py", ".sh", ".md",
                       ".parquet", ".png", ".svg", ".html", ".pdf")


@dataclass(frozen=True)
class Sniffed:
    """A sniffing verdict: the reader, the tool name and the format it recognised."""

    module: str  # the reader's name (the module, for built-in readers)
    tool: str
    format: str
    reader: _registry.Reader | None = None


def is_companion(path: str | os.PathLike) -> bool:
    """True for files that accompany outputs (sidecars, job files, READMEs), never read as data."""
    name = os.path.basename(os.fspath(path)).lower()
    return name in NOT_OUTPUTS or name.endswith(NOT_OUTPUT_SUFFIXES)


def sniff_text(head: str, name: str) -> Sniffed | None:
    """Ask every registered reader about the first bytes of a file (already decoded)."""
    _builtin.load()
    match = _registry.sniff(head, name)
    if match is None:
        return None
    return Sniffed(match.reader.name, match.reader.tool, match.format, match.reader)


def sniff_file(path: str | os.PathLike) -> Sniffed | None:
    """Sniff a file on disk from its first 64 KiB (bytes that are not UTF-8 are replaced).
    Anything but a regular file (a FIFO would block) gives ``None``."""
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as fh:
        head = fh.read(HEAD_BYTES)
    if head[:2] in UTF16_BOMS:
        head = head.decode("utf-16", errors="replace").encode("utf-8")
    if b"\x00" in head[:4096]:
        return None
    return sniff_text(head.decode("utf-8", errors="replace"), Path(path).name)
