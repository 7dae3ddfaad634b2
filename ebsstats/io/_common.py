"""What every reader shares: loading text safely, the parse result, and the one-file read wrapper.

A reader module (``fio.py``, ``bonnie.py``, …) provides

* ``sniff(head: str, name: str) -> str | None`` — the format name (``"json"``, ``"csv 1.96"``) if
  the first 64 KiB of a file look like this tool's output, else ``None``. Content decides, never
  the extension alone;
* ``parse(text: str, source: str, **options) -> Parsed`` — records (dicts for
  :func:`ebsstats.schema.frame`) and optional series frames; raises :class:`ParseError`;
* ``read_<tool>(path, **meta)`` — the public one-file reader, via :func:`read_one`.

Readers know nothing of statistics.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .. import schema
from ..errors import ParseError

MAX_BYTES = 2 * 1024**3  # a single file larger than this is refused (folder reads can lower it)
HEAD_BYTES = 64 * 1024


@dataclass
class Parsed:
    """What a reader got out of one file."""

    tool: str
    format: str
    version: str | None = None
    records: list[dict] = field(default_factory=list)
    series: list[pd.DataFrame] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # warnings the tool printed, kept for the user


def load_bytes(path: str | os.PathLike, max_bytes: int = MAX_BYTES) -> bytes:
    """Read a file's bytes (never modifying it), refusing files above ``max_bytes``."""
    p = Path(path)
    try:
        st = p.stat()
        if not stat.S_ISREG(st.st_mode):  # a FIFO would block open() forever
            raise ParseError(p, None, "a regular file", found="a FIFO, socket or device")
        size = st.st_size
        if size > max_bytes:
            raise ParseError(p, None, f"a file of at most {max_bytes:,} bytes (the size "
                             "limit; max_bytes= raises it)", found=f"{size:,} bytes")
        with open(p, "rb") as fh:
            return fh.read(max_bytes + 1)
    except OSError as exc:
        raise ParseError(p, None, "a readable file", found=f"{type(exc).__name__}: {exc.strerror}"
                         ) from exc


UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def decode(data: bytes, source: str) -> str:
    """Decode a tool's output: UTF-8 (BOM tolerated), or UTF-16 that starts with its byte-order
    mark (what PowerShell's ``>`` writes); no NUL characters. Else ParseError with the line.

    >>> decode("fio-3.33\\n".encode("utf-16"), "x.txt")
    'fio-3.33\\n'
    """
    if data[:2] in UTF16_BOMS:
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError as exc:
            text = data[: exc.start].decode("utf-16", "replace")
            raise ParseError(source, text.count("\n") + 1, "UTF-16 text (it starts with a "
                             "UTF-16 byte-order mark)", found=f"bytes at offset {exc.start}"
                             ) from exc
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise ParseError(source, line, "text output", found="binary data (NUL byte)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ParseError(source, line, "UTF-8 text",
                         found=f"byte 0x{data[exc.start]:02x} at offset {exc.start}") from exc


def load_text(path: str | os.PathLike, max_bytes: int = MAX_BYTES) -> str:
    """Read a text output safely: size limit, UTF-8, no binary."""
    return decode(load_bytes(path, max_bytes), str(path))


def line_of(text: str, offset: int) -> int:
    """1-based line number of a character offset."""
    return text.count("\n", 0, offset) + 1


def apply_meta(records: list[dict], meta: Mapping | None) -> list[dict]:
    """Overlay explicit metadata (highest precedence) on every record."""
    if not meta:
        return records
    return [{**r, **meta} for r in records]


def read_one(path: str | os.PathLike, parse: Callable[..., Parsed], meta: Mapping | None = None,
             series: bool = False, **options):
    """Read one file with ``parse`` and return the results frame (and the series frame if asked).

    ``meta`` keys (``config=``, ``volume=``, …) are set on every row, overriding what the file
    says. With ``series=True`` returns ``(results, series)``.
    """
    source = str(path)
    parsed = parse(load_text(path), source, **options)
    return frame_of(parsed, meta, series)


def frame_of(parsed: Parsed, meta: Mapping | None = None, series: bool = False):
    """Turn a :class:`Parsed` into the results frame (and series frame)."""
    df = schema.frame(apply_meta(parsed.records, meta)) if parsed.records else schema.empty()
    if not series:
        return df
    ts = schema.concat(parsed.series, series=True) if parsed.series else schema.empty_series()
    if meta and len(ts):
        ts = ts.assign(**{k: v for k, v in meta.items()})
        ts = schema.series_frame(ts)
    return df, ts
