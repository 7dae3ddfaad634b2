"""Which tool wrote a file: decided by content, never by the extension alone.

Each reader module has ``sniff(head, name) -> format | None``; :func:`sniff_file` asks them in a
fixed order (most specific first) and returns the first answer.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ebsstats.io._common import HEAD_BYTES, UTF16_BOMS

# reader modules in the order they are asked; fio logs before fio (a log is not a fio report)
READERS: list[tuple[str, str]] = [
    ("ebsstats.io.published", "table"),
    ("ebsstats.io.pkb", "pkb"),  # PerfKit Benchmarker JSON lines (fio/bonnie++/sysbench)
    ("ebsstats.io.fio_log", "fio"),
    ("ebsstats.io.fio", "fio"),
    ("ebsstats.io.bonnie", "bonnie++"),
    ("ebsstats.io.sysbench", "sysbench"),
    ("ebsstats.io.pts", "pts"),
    ("ebsstats.io.ioping", "ioping"),
]

# files that travel with benchmark outputs but are not outputs themselves
NOT_OUTPUTS = {"meta.yaml", "meta.yml", "truth.yaml", "readme.md", "readme.txt", "manifest.tsv",
               "sources.md", ".ds_store"}
NOT_OUTPUT_SUFFIXES = (".meta.yaml", ".meta.yml", ".fio", ".ipynb", ".py", ".sh", ".md",
                       ".parquet", ".png", ".svg", ".html", ".pdf")


@dataclass(frozen=True)
class Sniffed:
    """A sniffing verdict: the reader module, the tool name and the format it recognised."""

    module: str
    tool: str
    format: str


def _modules() -> list[tuple[ModuleType, str, str]]:
    found = []
    for name, tool in READERS:
        try:
            found.append((importlib.import_module(name), name, tool))
        except ModuleNotFoundError as exc:  # a reader not built yet: nothing claims its files
            if exc.name != name:
                raise
    return found


def is_companion(path: str | os.PathLike) -> bool:
    """True for files that accompany outputs (sidecars, job files, READMEs), never read as data."""
    name = Path(path).name.lower()
    return name in NOT_OUTPUTS or name.endswith(NOT_OUTPUT_SUFFIXES)


def sniff_text(head: str, name: str) -> Sniffed | None:
    """Ask every reader about the first bytes of a file (already decoded)."""
    for module, modname, tool in _modules():
        fmt = module.sniff(head, name)
        if fmt:
            return Sniffed(modname, tool, fmt)
    return None


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
