"""What every reader shares: loading text safely, the parse result, and the one-file read wrapper.

A reader module (``bonnie.py``, the ``fio`` package, …) provides

* ``sniff(head: str, name: str) -> str | None`` — the format name (``"json"``, ``"csv 1.96"``) if
  the first 64 KiB of a file look like this tool's output, else ``None``. Content decides, never
  the extension alone;
* ``parse(text: str, source: str, **options) -> Parsed`` — records (dicts for
  :func:`ebsstats._columns.frame`) and optional series frames; raises :class:`ParseError`. Series
  frames may be plain (untyped) DataFrames with the series columns: they are typed once, with
  every other file's, by :func:`frame_of` / the folder read (typing per file was the cost);
* ``read_<tool>(path, **meta)`` — the public one-file reader, via :func:`read_one`.

Readers know nothing of statistics.
"""

from __future__ import annotations

import itertools
import math
import operator
import os
import re
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ebsstats import schema
from ebsstats.errors import ParseError
from ebsstats.io import _columns
from ebsstats.io._bounded import remember as remember  # (the readers take it from here)

MAX_BYTES = 2 * 1024**3  # a single file larger than this is refused (folder reads can lower it)
HEAD_BYTES = 64 * 1024
# the start of a Phoronix Test Suite test log (test-logs/<hash>/<system>.log): a tool's text
# (fio's, sysbench's) under PTS's own header, read with its composite.xml, never as that tool's
PTS_TEST_LOG = re.compile(r"\A#####\r?\n[^\n]* - Run \d+\r?\n")
# the bins of a fio histogram log line (write_hist_log: "time, ddir, bs" then one count per
# bin): 1216 in fio 2.x, 1856 in 3.x; read by fio.log.read_fio_hist_log, named by the sniff
FIO_HIST_BINS = (1216, 1856)


@dataclass
class Parsed:
    """What a reader got out of one file: ``records`` (dicts), or the same rows as ``columns``
    (``{name: list | Const}`` with ``nrows`` rows, what a fast reader builds directly)."""

    tool: str
    format: str
    version: str | None = None
    records: list[dict] = field(default_factory=list)
    series: list[pd.DataFrame | Columns] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # warnings the tool printed, kept for the user
    columns: tuple[dict, int] | None = None
    why_empty: str | None = None  # a recognised file without results says why
    # parts of the file left out, each said as the ParseError it raised (an interrupted run
    # among several appended to one file): the file's other rows are kept
    partial: list[ParseError] = field(default_factory=list)

    def nrows(self) -> int:
        """How many result rows the file gave."""
        return self.columns[1] if self.columns is not None else len(self.records)

    def chunk(self, meta: Mapping | None = None) -> Chunk:
        """The rows as one compact column chunk, ``meta`` set on every row."""
        if self.columns is None:
            return record_chunk(self.records, meta)
        cols, n = self.columns
        cols = dict(cols)
        for k, v in (meta or {}).items():
            cols[k] = _columns.Const(v, n)
        return cols, n


def load_bytes(path: str | os.PathLike, max_bytes: int = MAX_BYTES, *,
               listed: bool = False) -> bytes:
    """Read a file's bytes (never modifying it), refusing files above ``max_bytes``.

    ``listed=True``: the caller's own ``stat`` (a folder listing) found a regular file, so it is
    opened at once, without blocking (``O_NONBLOCK``: were it swapped for a FIFO meanwhile, the
    open could not hang), and what was opened is checked again (``fstat``). Otherwise the path is
    checked before it is opened: a device is never opened. One ``read`` of the size the file has
    (plus one byte, to see it growing) instead of a buffered read: two system calls fewer per
    file.
    """
    # the text of a path as it is (a folder read passes its listing's texts: no Path made per
    # file; a ParseError names either by the same text)
    p = path if type(path) is str or isinstance(path, Path) else Path(path)
    try:
        if not listed:
            _check_regular(os.stat(p), p, max_bytes)
        fd = os.open(p, _OPEN_FLAGS)
        try:
            st = os.fstat(fd)
            _check_regular(st, p, max_bytes)
            data = _read_fd(fd, st.st_size, max_bytes)
        finally:
            os.close(fd)
        if len(data) > max_bytes:  # grew while being read: refuse, never parse a truncated copy
            raise ParseError(p, None, f"a file of at most {max_bytes:,} bytes (the size limit; "
                             "max_bytes= raises it)", found="a file that grew past the limit "
                             "while it was read")
        if data[:1] in _MAGIC_FIRST and compression_of(data) is not None:
            return decompressed(data, p, max_bytes)
        return data
    except OSError as exc:
        raise ParseError(p, None, "a readable file",
                         found=f"{type(exc).__name__}: {exc.strerror}") from exc
    except MemoryError as exc:
        raise ParseError(p, None, "a file that fits in memory", found="MemoryError") from exc


# --- compressed outputs --------------------------------------------------------------------
#
# Campaigns keep their outputs compressed (wikimedia's cloud-storage-performance-tests gzips
# every fio report and log: 3,132 files). A gzip, bzip2 or xz file is read as the bytes it holds,
# judged by its magic bytes, never by its name; what it holds is bounded by the same size limit
# as a plain file (a compression bomb stops at ``max_bytes`` decompressed, never fills memory).
# Its name without the compression suffix is what the sniff and the fio log naming read
# (``data_bw.log.gz`` is a bandwidth log). zstd needs a library Python 3.11 lacks: named only.

# magic bytes -> (name, module with a bounded-read file class, its class name, name suffixes)
_COMPRESSIONS = {b"\x1f\x8b\x08": ("gzip", "gzip", "GzipFile", (".gz", ".gzip")),
                 b"BZh": ("bzip2", "bz2", "BZ2File", (".bz2",)),
                 b"\xfd7zXZ\x00": ("xz", "lzma", "LZMAFile", (".xz",))}
_MAGIC_FIRST = frozenset(m[:1] for m in _COMPRESSIONS)
#: the name suffixes of the compressions read through (a file's contents go by its name without)
COMPRESSED_SUFFIXES = tuple(s for c in _COMPRESSIONS.values() for s in c[3])


def compression_of(data: bytes) -> str | None:
    """The compression whose stream ``data`` starts with (``"gzip"``, ``"bzip2"``, ``"xz"``),
    or ``None``. bzip2's magic is checked through its block header (``BZh``, a level digit
    and the block magic), so that a text starting with "BZh" is not taken for it.

    >>> import gzip
    >>> compression_of(gzip.compress(b"fio-3.33")), compression_of(b"BZh is text")
    ('gzip', None)
    """
    for magic, (name, *_rest) in _COMPRESSIONS.items():
        if data.startswith(magic):
            if name == "bzip2" and not (data[3:4].isdigit() and data[3:4] != b"0"
                                        and data[4:10] in (b"1AY&SY", b"\x17rE8P\x90")):
                return None
            return name
    return None


def plain_name(name: str) -> str:
    """A file name without the suffix of a compression ebsstats reads through: what its
    contents are named by (``data_bw.1.log.gz`` → ``data_bw.1.log``).

    >>> plain_name("data_bw.1.log.gz"), plain_name("r.JSON.XZ"), plain_name("a.zst")
    ('data_bw.1.log', 'r.JSON', 'a.zst')
    """
    lower = name.lower()
    if lower.endswith(COMPRESSED_SUFFIXES):
        return name[:name.rindex(".")]
    return name


def _opener(data: bytes):
    """The file class that decompresses the stream ``data`` starts with."""
    import importlib

    for magic, (_name, module, cls, _sfx) in _COMPRESSIONS.items():
        if data.startswith(magic):
            opener = getattr(importlib.import_module(module), cls)
            # (GzipFile's first argument is a file name: its stream goes by keyword)
            return lambda fh: opener(fileobj=fh, mode="rb") if cls == "GzipFile" else opener(fh)
    raise ValueError("not a compressed stream")


def decompressed(data: bytes, source, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes the compressed stream ``data`` holds (every member of a multi-member gzip),
    at most ``max_bytes`` of them: more raises :class:`ParseError` without decompressing the
    rest (a compression bomb costs ``max_bytes`` at most), as does a damaged or cut stream.

    >>> import gzip
    >>> decompressed(gzip.compress(b"fio-3.33\\n"), "r.txt.gz")
    b'fio-3.33\\n'
    >>> try:
    ...     decompressed(gzip.compress(b"0" * 5000), "bomb.gz", max_bytes=4096)
    ... except ParseError as e:
    ...     print(e.found)
    more than 4,096 bytes once decompressed (gzip)
    """
    import io

    what = compression_of(data) or "compressed"
    try:
        with _opener(data)(io.BytesIO(data)) as fh:
            out = fh.read(max_bytes + 1)
    except _damaged() as exc:
        raise ParseError(source, None, f"a complete {what} stream",
                         found=f"{type(exc).__name__}: {exc}") from exc
    except MemoryError as exc:
        raise ParseError(source, None, "a file that fits in memory once decompressed",
                         found="MemoryError") from exc
    if len(out) > max_bytes:
        raise ParseError(source, None, f"a file of at most {max_bytes:,} bytes (the size "
                         "limit; max_bytes= raises it)",
                         found=f"more than {max_bytes:,} bytes once decompressed ({what})")
    return out


def read_head(path: str | os.PathLike, size: int = HEAD_BYTES) -> bytes:
    """The first ``size`` bytes of a file, or of what it holds when it is compressed (only
    those decompressed); raises :class:`OSError` as ``open`` does. A damaged compressed
    stream gives what could be decompressed of it (the full read names the damage)."""
    with open(path, "rb") as fh:
        head = fh.read(size)
        if head[:1] not in _MAGIC_FIRST or compression_of(head) is None:
            return head
        fh.seek(0)
        try:
            with _opener(head)(fh) as inner:
                return inner.read(size)
        except _damaged():
            return b""


def _damaged() -> tuple[type[Exception], ...]:
    """What decompressing a damaged stream raises: a cut one ``EOFError``, a bad header or
    CRC ``OSError`` (``gzip.BadGzipFile``, bz2), bad deflate data ``zlib.error`` and bad xz
    data ``lzma.LZMAError`` (neither an OSError: found by corrupting streams at random)."""
    import lzma
    import zlib

    return (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError)


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(
    os, "O_BINARY", 0)
_READ_MAX = 1 << 30  # bytes one read() asks for (Linux returns at most 2 GiB - 4 KiB a call)


def _check_regular(st: os.stat_result, p: Path, max_bytes: int) -> None:
    if not stat.S_ISREG(st.st_mode):  # a FIFO would block a read forever
        raise ParseError(p, None, "a regular file", found="a FIFO, socket or device")
    if st.st_size > max_bytes:
        raise ParseError(p, None, f"a file of at most {max_bytes:,} bytes (the size "
                         "limit; max_bytes= raises it)", found=f"{st.st_size:,} bytes")


def _read_fd(fd: int, size: int, max_bytes: int) -> bytes:
    """The bytes of an open file of ``size`` bytes: one read when it is that size; a file that
    grows is read on, up to ``max_bytes + 1`` bytes (the caller refuses that)."""
    data = os.read(fd, min(size + 1, _READ_MAX))
    if len(data) == size:  # at the end (a regular file's read is short only there)
        return data
    parts = [data]
    got = len(data)
    while got <= max_bytes:
        more = os.read(fd, min(max_bytes + 1 - got, _READ_MAX))
        if not more:
            break
        parts.append(more)
        got += len(more)
    return b"".join(parts)


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


def unconvertible(exc: Exception, text: str, source: str) -> ParseError:
    """A ParseError for a conversion a reader could not make (an integer of more than 4,300
    digits, a nesting too deep), at the line of the first over-long digit run if there is one.

    >>> str(unconvertible(ValueError("Exceeds the limit"), "a 1\\nb " + "9" * 5000, "x.txt"))
    "x.txt, line 2: expected numbers Python can convert; found 'ValueError: Exceeds the limit'"
    """
    import re

    m = re.search(r"\d{4301,}", text)
    line = line_of(text, m.start()) if m else 1
    return ParseError(source, line, "numbers Python can convert",
                      found=f"{type(exc).__name__}: {exc}")


def picker(keys: Sequence):
    """``operator.itemgetter(*keys)`` that always gives a tuple (one key: a 1-tuple; none: an
    empty one), as a plan that reads a run of fields by index or key needs.

    >>> picker([2, 0])("abc"), picker([1])("abc"), picker([])("abc")
    (('c', 'a'), ('b',), ())
    """
    if len(keys) > 1:
        return operator.itemgetter(*keys)
    if keys:
        key = keys[0]
        return lambda seq: (seq[key],)
    return lambda seq: ()


def number(value, source: str, position, what: str | tuple = "number", *, negative: bool = False,
           scale: float = 1.0, found: str | None = None, context: str | None = None) -> float:
    """A figure a tool printed as a float (times ``scale``): finite, and not negative unless
    ``negative=True``; else a :class:`ParseError` at ``source``/``position``. The one range check
    of the text and XML readers.

    ``value`` is the printed text or a number; the error says what was expected (``"a finite,
    non-negative <what>"``; a tuple ``what`` is joined with spaces, so that a hot loop need not
    build the text) and what was found (``found``, default the value itself). A reader
    that names the line it expected passes ``context`` (``"a sysbench result line"``): the
    expected text is then ``"<context> (<what> <value> is not a finite, non-negative number)"``.

    >>> number("12.5", "x.txt", 3, "bandwidth", scale=1024.0)
    12800.0
    >>> try:
    ...     number("-1", "x.txt", 3, "iops")
    ... except ParseError as e:
    ...     print(e)
    x.txt, line 3: expected a finite, non-negative iops; found '-1'
    >>> try:
    ...     number("9" * 400, "x.txt", 4, "runtime", context="a result line")
    ... except ParseError as e:
    ...     print(e.expected)
    a result line (runtime inf is not a finite, non-negative number)
    """
    try:
        v = float(value) * scale
    except OverflowError:  # an integer beyond a float
        v = math.inf
    except (TypeError, ValueError) as exc:
        if isinstance(what, tuple):
            what = " ".join(what)
        raise ParseError(source, position, context or f"a {what} (a number)",
                         found=found if found is not None else str(value)) from exc
    if (v >= 0 or negative) and v - v == 0:  # finite (inf - inf and nan - nan are nan)
        return v
    if isinstance(what, tuple):
        what = " ".join(what)
    sign = "" if negative else ", non-negative"
    expected = (f"{context} ({what} {v!r} is not a finite{sign} number)" if context
                else f"a finite{sign} {what}")
    raise ParseError(source, position, expected, found=found if found is not None else str(value))


def line_of(text: str, offset: int) -> int:
    """1-based line number of a character offset."""
    return text.count("\n", 0, offset) + 1


Chunk = tuple[dict, int]  # one file's columns ({name: list | Const | array}) and its row count


def record_chunk(records: list[dict], meta: Mapping | None = None) -> Chunk:
    """A file's records as compact columns, ``meta`` set on every row (see
    :func:`ebsstats._columns.columns_of`): what a folder worker sends back instead of dicts."""
    return _columns.columns_of(records, meta, compact=True), len(records)


class Columns:
    """Rows as columns without a DataFrame: ``cols`` maps a name to a list (one value per row)
    or a :class:`~ebsstats._columns.Const` or :class:`~ebsstats._columns.Runs` piece; ``len()``
    is the row count. What a reader builds for many small series (a DataFrame each cost more
    than the parse); typed with every other file's.

    >>> c = Columns({"t": [0.0, 1.0], "metric": "iops", "op": _columns.Runs(["r", "w"], [1, 1])},
    ...             2)
    >>> len(c), c.cols["metric"], c.frame()["op"].tolist()
    (2, Const(value='iops', n=2), ['r', 'w'])
    """

    __slots__ = ("cols", "n")

    def __init__(self, cols: Mapping, n: int):
        self.n = n
        self.cols = {k: v if isinstance(v, (list, _columns.Const, _columns.Runs))
                     else _columns.Const(v, n) for k, v in cols.items()}

    @classmethod
    def of(cls, cols: dict, n: int) -> Columns:
        """``Columns`` of ``cols`` as they are: every value already a list of ``n`` values, a
        :class:`~ebsstats._columns.Const` or a :class:`~ebsstats._columns.Runs` piece (what a
        reader that built them knows; no pass over the names to check)."""
        out = object.__new__(cls)
        out.cols, out.n = cols, n
        return out

    def __len__(self) -> int:
        return self.n

    def frame(self) -> pd.DataFrame:
        """The same rows as a plain (untyped, object) DataFrame."""
        return pd.DataFrame({k: _columns._piece_list(v) if type(v) in _columns._COMPACT else v
                             for k, v in self.cols.items()}, dtype=object,
                            index=pd.RangeIndex(self.n))


def public_series(parsed: Parsed) -> Parsed:
    """A reader's :class:`Parsed` with :class:`Columns` series as plain DataFrames (what the
    public ``parse`` functions return; the folder read takes the columns as they are)."""
    parsed.series = [s.frame() if isinstance(s, Columns) else s for s in parsed.series]
    return parsed


def series_chunk(ts: pd.DataFrame | Columns, meta: Mapping | None = None,
                 small: int = 4096) -> Chunk:
    """One (plain or typed) series frame as columns, ``meta`` set on every row. Small frames
    become lists (typed later with every other file's); large ones (fio logs) keep their arrays."""
    n = len(ts)
    if isinstance(ts, Columns):
        cols = {k: v for k, v in ts.cols.items() if not (meta and k in meta)}
        for k, v in (meta or {}).items():
            cols[k] = _columns.Const(v, n)
        return cols, n
    cols: dict = {}
    names = [c for c in ts.columns if not (meta and c in meta)]
    if n < small:
        for name, values in zip(names, ts[names].to_numpy(dtype=object).T.tolist(), strict=True):
            cols[name] = _columns.Const(values[0], n) if _columns.is_constant(values) else values
    else:
        for name in names:
            cols[name] = ts[name]
    for k, v in (meta or {}).items():
        cols[k] = _columns.Const(v, n)
    return cols, n


def pieces_of(chunks: Sequence[Chunk]) -> tuple[dict[str, list], list[int]]:
    """Column pieces of many chunks (a chunk without a column gets ``Const(None, n)`` there)."""
    all_cols = [cols for cols, _ in chunks]
    lengths = [n for _, n in chunks]
    same = _same_names(all_cols)
    if same is not None:
        return same, lengths
    return _pieces_by_name(all_cols, lengths), lengths


def _same_names(all_cols: list[dict]) -> dict[str, list] | None:
    """The pieces of chunks that all have the same column names (a folder of one tool's
    files: one layout of names), the first chunk's order, each chunk's values taken by one
    ``itemgetter`` and transposed in C: half the cost of a ``dict.get`` per column and chunk.
    ``None`` otherwise (a name missing in a chunk of as many names raises ``KeyError``)."""
    names = list(all_cols[0]) if all_cols else []
    if len(names) < 2 or set(map(len, all_cols)) != {len(names)}:
        return None
    try:
        rows = list(map(operator.itemgetter(*names), all_cols))
    except KeyError:
        return None
    return dict(zip(names, map(list, zip(*rows, strict=True)), strict=True))


def _pieces_by_name(all_cols: list[dict], lengths: list[int]) -> dict[str, list]:
    """:func:`pieces_of`'s general rule: every name any chunk has, in first-seen order, a
    piece per chunk."""
    names = dict.fromkeys(itertools.chain.from_iterable(all_cols))
    nulls = {n: _columns.Const(None, n) for n in set(lengths)}  # shared, not per chunk
    missing = [nulls[n] for n in lengths]
    # dict.get(cols, name, the chunk's missing piece) for every chunk, mapped in C
    return {k: list(map(dict.get, all_cols, itertools.repeat(k), missing)) for k in names}


def results_of(chunks: Sequence[Chunk], validated: bool = False) -> pd.DataFrame:
    """The typed results frame of many files' record chunks, typed in one pass;
    ``validated=True``: checked as :func:`ebsstats.schema.validate` checks it (raises the same
    :class:`~ebsstats.SchemaError`), on the columns before the frame is made."""
    chunks = [c for c in chunks if c[1]]
    if not chunks:
        return schema.empty()  # (it passes validate)
    return _columns.frame_of_columns(*pieces_of(chunks), validated=validated)


def series_of(chunks: Sequence[Chunk]) -> pd.DataFrame:
    """The typed series frame of many files' series chunks, typed in one pass."""
    if not chunks:
        return schema.empty_series()
    pieces, lengths = pieces_of(chunks)
    return _columns.series_of_columns(pieces, sum(lengths))


def read_one(path: str | os.PathLike, parse: Callable[..., Parsed], meta: Mapping | None = None,
             series: bool = False, **options):
    """Read one file with ``parse`` and return the results frame (and the series frame if asked).

    ``meta`` keys (``config=``, ``volume=``, …) are set on every row, overriding what the file
    says. With ``series=True`` returns ``(results, series)``.
    """
    source = str(path)
    text = load_text(path)
    try:
        parsed = parse(text, source, **options)
    except ParseError:
        raise
    except (ValueError, RecursionError, OverflowError) as exc:  # > 4,300 digits, deep nesting
        raise unconvertible(exc, text, source) from exc
    except MemoryError as exc:
        raise ParseError(source, None, "a file that fits in memory", found="MemoryError") from exc
    return frame_of(parsed, meta, series)


def frame_of(parsed: Parsed, meta: Mapping | None = None, series: bool = False):
    """Turn a :class:`Parsed` into the results frame (and series frame)."""
    df = results_of([parsed.chunk(meta)]) if parsed.nrows() else schema.empty()
    if not series:
        return df
    if not parsed.series:
        return df, schema.empty_series()
    if not any(len(f) for f in parsed.series):
        meta = None  # as before: metadata columns only on a series with rows
    return df, series_of([series_chunk(f, meta) for f in parsed.series])
