"""Which tool wrote a file: decided by content, never by the extension alone.

Each registered reader (:mod:`ebsstats.io._registry`) looks at the first 64 KiB of a file; the
most confident answer wins (among equals, the most specific reader: published tables, then fio
logs, then the tools).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ebsstats.io import _builtin, _registry
from ebsstats.io._common import (
    FIO_HIST_BINS,
    HEAD_BYTES,
    PTS_TEST_LOG,
    UTF16_BOMS,
    plain_name,
    read_head,
    remember,
)

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
    return is_companion_name(os.path.basename(os.fspath(path)))


def is_companion_name(name: str) -> bool:
    """:func:`is_companion` of a file's name (what a caller holding a :class:`~pathlib.Path`
    has already: ``path.name``, without making the path text again).

    >>> is_companion_name("meta.yaml"), is_companion_name("run.FIO"), is_companion_name("x.json")
    (True, True, False)
    """
    name = name.lower()
    return name in NOT_OUTPUTS or name.endswith(NOT_OUTPUT_SUFFIXES)


def sniff_text(head: str, name: str) -> Sniffed | None:
    """Ask every registered reader about the first bytes of a file (already decoded)."""
    _builtin.load()
    found = _registry._best(head, name)  # (_registry.sniff's verdict, without its Match)
    if found is None:
        return None
    return _verdict(*found)


def unread_reason(head: str) -> str:
    """Why a file no reader recognised (its first bytes ``head``) is not read: what it is when
    another file's reader reads it (a PTS test log, read for its run times with the
    composite.xml of its result folder), else that it is no benchmark output ebsstats knows.

    >>> unread_reason("#####\\ngp3 - Run 1\\n2024-01-02 03:04:05\\n#####\\n")[:14]
    'a PTS test log'
    >>> unread_reason("coffee at 10")
    'not a recognised benchmark output'
    >>> unread_reason("$ ioping .\\n4.0 KiB from . (ext4 /dev/vda1): request=1 time=296 us")[:40]
    "ioping's older output ('4.0 KiB from TAR"
    >>> unread_reason("1000, 0, 4096, " + ", ".join(["0"] * 1856) + "\\n")[:36]
    'a fio histogram log (write_hist_log)'
    """
    if PTS_TEST_LOG.match(head):
        return ("a PTS test log: its run times are read with the composite.xml of its result "
                "folder")
    if _is_hist_log(head):
        return ("a fio histogram log (write_hist_log): latency histograms per interval, which "
                "the series frame does not hold; read it with ebsstats.read_fio_hist_log, its "
                "percentiles over time with ebsstats.percentiles_over_time")
    if " from " in head and _OLD_IOPING.search(head):
        return ("ioping's older output ('4.0 KiB from TARGET (...): request=1 time=296 us', "
                "where ioping 1.x prints '4 KiB <<< TARGET'): a form ebsstats does not read")
    return "not a recognised benchmark output"


def _is_hist_log(head: str) -> bool:
    """Whether the first line of ``head`` is a fio histogram log's: ``time, ddir, bs`` and
    the bin counts (:data:`~ebsstats.io._common.FIO_HIST_BINS`), integers (what
    read_fio_hist_log reads).

    >>> _is_hist_log("5, 1, 4096, " + ", ".join(["3"] * 1216)), _is_hist_log("1, 2, 3")
    (True, False)
    """
    first = head.lstrip().partition("\n")[0]
    if first.count(",") - 2 not in FIO_HIST_BINS:  # (3 columns before the bins: 2 commas more)
        return False
    return all(f.strip().isdigit() for f in first.split(",")[:8])


# a request line of ioping before its "<<<" lines (AbhishekGhosh/OpenVZ-2GB-Host1Plus-Benchmark)
_OLD_IOPING = re.compile(r"^\d+(?:\.\d+)? [KMG]?i?B from \S.*: request=\d+ time=", re.M)


def sniff_claim(data: bytes) -> Sniffed | None:
    """:func:`sniff_text`'s verdict on a file's bytes where a built-in reader can tell it from
    the bytes alone (:func:`ebsstats.io._registry.claimed`: a fio JSON report from its first
    line ``{`` and its ``"fio version"`` key), without the head decoded nor every reader
    asked (2,000 fio reports: 5 -> 1 us a file); ``None``: ask :func:`sniff_text`."""
    _builtin.load()
    found = _registry.claimed(data)
    return None if found is None else _verdict(*found)


def _verdict(reader: _registry.Reader, fmt: str) -> Sniffed:
    """The verdict naming ``reader`` and ``fmt``, made once per reader and format."""
    key = (id(reader), fmt)
    hit = _VERDICTS.get(key)
    if hit is not None and hit.reader is reader:
        return hit
    out = Sniffed(reader.name, reader.tool, fmt, reader)
    remember(_VERDICTS, key, out, 1024)  # (formats are few; a reader's odd ones: bounded)
    return out


# (id of a reader, format) -> its verdict, made once (it is immutable: files share it); the
# reader is compared by identity on a hit (an id may be reused once a reader is gone)
_VERDICTS: dict[tuple[int, str], Sniffed] = {}


def sniff_file(path: str | os.PathLike) -> Sniffed | None:
    """Sniff a file on disk from its first 64 KiB (bytes that are not UTF-8 are replaced).
    Anything but a regular file (a FIFO would block) gives ``None``."""
    if not os.path.isfile(path):
        return None
    head = read_head(path, HEAD_BYTES)  # (of what a compressed file holds)
    if head[:2] in UTF16_BOMS:
        head = head.decode("utf-16", errors="replace").encode("utf-8")
    if b"\x00" in head[:4096]:
        return None
    return sniff_text(head.decode("utf-8", errors="replace"), plain_name(Path(path).name))
