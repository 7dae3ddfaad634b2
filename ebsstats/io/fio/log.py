"""fio log files (``write_bw_log``, ``write_iops_log``, ``write_lat_log``, ``write_hist_log``).

:func:`read_fio_log` reads one log into the series frame (:data:`ebsstats.schema.SERIES_COLUMNS`);
:func:`parse` is the reader-protocol entry point; :func:`aggregate_log` turns per-I/O rows into
windows; :func:`read_fio_hist_log` reads histogram logs (not a series: see there).

Columns of a log line (comma + space separated), by fio version
---------------------------------------------------------------
=============  ========================================================================
fio            columns
=============  ========================================================================
≤ 3.17         ``time_ms, value, ddir, bs [, offset if log_offset=1]``
3.18 – 3.36    ``time_ms, value, ddir, bs, [offset if log_offset=1], prio``
3.37 +         ``time_ms, value, [max if log_max_value=both], ddir, bs, [offset], prio``
=============  ========================================================================

The fifth column is an offset before 3.18 and a priority after, so a five-column log cannot be
read without the fio version, and latency values are ns in 3.x but µs in 2.x. The version comes
from, in this order: the ``fio_version=`` argument; the fio JSON report of the run that wrote the
log (:func:`read_fio_log` looks for ``*.json`` fio reports in the log's folder and for
``<folder>_run.json`` beside the folder, and takes the one whose job has this log prefix in its
``write_*_log`` option — that job also gives ``test``, ``run_id`` (the same as
:func:`ebsstats.read_fio` gives the report), ``log_offset``, ``log_avg_msec`` and
``log_max_value``). With no version the log is refused with :class:`~ebsstats.ParseError` unless
it is unambiguous (four columns, and for latency logs ``time_unit=`` given). Nothing is guessed.

Rows and units
--------------
* ``t`` = ``time_ms`` / 1000 (s since the job started; averaged windows are stamped at their end).
* ``op`` from ``ddir``: 0 read, 1 write, 2 trim, 3 sync.
* bw logs → metric ``bandwidth`` (KiB/s × 1024 → B/s).
* iops logs averaged over a window (``log_avg_msec``; fio 2.x always averages over
  ``iopsavgtime``) → metric ``iops`` (IO/s). Per-I/O iops logs (no ``log_avg_msec``: one row of
  value 1 per completed I/O) → metric ``ios`` (unit ``count``): they are events, not rates;
  :func:`aggregate_log` turns them into ``iops`` per window.
* lat / clat / slat logs → metrics ``lat`` / ``clat`` / ``slat`` (s; ns × 1e-9 in 3.x,
  µs × 1e-6 in 2.x).
* ``block_size`` from ``bs`` (0 in averaged logs → ``<NA>``), ``offset`` when ``log_offset=1``.
* extra string column ``sampling``: ``per_io`` (one row per I/O), ``window_mean`` /
  ``window_max`` (``log_avg_msec`` with or without ``log_max_value=1``; ``log_max_value=both``
  gives both row sets), or ``window`` (averaged, but whether mean or max is not known).

Parsing is vectorised (``pyarrow.csv``); lines are never looped over in Python except to name the
line of an error. :func:`read_fio_log` hands a large log to pyarrow as a file (its bytes are not
copied into Python first); each integer column is converted once, chunk by chunk, into its final
dtype and unit, and a constant string column (source, run id, test, sampling) repeats one Arrow
chunk instead of holding one string per row.
"""

from __future__ import annotations

import mmap
import os
import re
import stat
import threading
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from ebsstats import schema, units
from ebsstats._docs import renamed
from ebsstats.errors import ParseError
from ebsstats.io import _columns
from ebsstats.io._common import (
    COMPRESSED_SUFFIXES,
    FIO_HIST_BINS,
    HEAD_BYTES,
    MAX_BYTES,
    Parsed,
    compression_of,
    decode,
    load_bytes,
    plain_name,
    read_head,
    remember,
    unconvertible,
)
from ebsstats.io._registry import Reader
from ebsstats.io.fio._options import _version_tuple

__all__ = ["sniff", "parse", "read_fio_log", "aggregate_log", "read_fio_hist_log",
           "find_run"]

TOOL = "fio"

# peak memory of a parse per byte of input, for the folder read's budget
# (benchmarks/reader_memory.py --only fio.log --mb 20: 5, was 8 before the constant string
# columns shared one chunk)
MEMORY_FACTOR = 8

KINDS = ("bw", "iops", "lat", "clat", "slat")
_NAME = re.compile(r"^(?P<prefix>.*)_(?P<kind>bw|iops|lat|clat|slat|clat_hist|lat_hist)"
                   r"(?:\.(?P<index>\d+))?\.log$")
_LINE = re.compile(r"^\d+, -?\d+(?:, (?:\d+|0x[0-9a-fA-F]+)){2,5}$")
_LINE_START = re.compile(r"\d+, ")  # how a line _LINE matches starts (a prefilter)
_HIST_LINE = re.compile(r"^\d+, \d+, \d+(?:, \d+){100,}$")
_LAT_SCALE = {"ns": units.NS, "nsec": units.NS, "us": units.US, "usec": units.US,
              "µs": units.US}


def kind_of(name: str) -> str | None:
    """The log kind a fio log file name says (``x_clat.2.log`` → ``"clat"``), or ``None``.

    >>> kind_of("lograw_clat.1.log"), kind_of("a_bw.log"), kind_of("a_clat_hist.1.log")
    ('clat', 'bw', 'clat_hist')
    """
    m = _NAME.match(_log_name(name))
    return m.group("kind") if m else None


def _log_name(path) -> str:
    """The base name of ``path`` that says a log's prefix, kind and index: a compressed
    log's without its suffix (``data_bw.log.gz``: the file holds ``data_bw.log``).

    >>> _log_name("run_2/data_bw.log.gz"), kind_of("x/data_slat.1.log.xz")
    ('data_bw.log', 'slat')
    """
    return plain_name(os.path.basename(str(path)))


def sniff(head: str, name: str) -> str | None:
    """``"bw"``/``"iops"``/``"lat"``/``"clat"``/``"slat"`` (kind from the name), ``"log"`` (a fio
    log whose name does not say its kind) or ``None``.

    Content decides that it is a fio log: the first lines are 4–7 integer columns separated by
    ``", "``. Histogram logs (``*_clat_hist.N.log``, ~1859 columns) are not series data and give
    ``None``: read them with :func:`read_fio_hist_log`.

    >>> sniff("0, 31371, 0, 4096, 0\\n1, 25095, 1, 4096, 0\\n", "lograw_bw.1.log")
    'bw'
    >>> sniff("3;fio-3.33;x;0;0", "a.txt") is None
    True
    """
    if not _LINE_START.match(head if head[:1].isdigit() else head.lstrip()):
        return None  # the first line starts with its time in ms and ", ": else not a log
    lines = head.splitlines()
    if len(head) >= HEAD_BYTES and len(lines) > 1:
        lines = lines[:-1]  # the last line of a full head may be cut
    lines = [ln for ln in lines[:20] if ln.strip()]
    if not lines or not all(_LINE.match(ln.strip()) for ln in lines):
        return None
    width = {ln.count(",") for ln in lines}
    if len(width) != 1:
        return None
    kind = kind_of(name)
    if kind is not None and kind.endswith("_hist"):
        return None
    return kind or "log"


def _flag(value) -> bool | None:
    if value is None:
        return None
    return str(value).strip().lower() not in ("0", "false", "no", "off", "")


def parse(text: str, source: str, *, kind: str | None = None, fio_version: str | None = None,
          time_unit: str | None = None, log_offset: bool | None = None,
          log_avg_msec: int | None = None, log_max_value: str | None = None,
          run_id: str | None = None, test: str | None = None) -> Parsed:
    """Parse a fio log into a series frame (in ``Parsed.series``).

    Parameters
    ----------
    text, source
        The log's text and file name (the name gives the kind when ``kind`` is not given).
    kind : {"bw", "iops", "lat", "clat", "slat"}, optional
    fio_version : str, optional
        e.g. ``"fio-3.33"`` or ``"2.1.10"``: decides the column layout and the latency unit.
    time_unit : {"ns", "us"}, optional
        Unit of latency values when ``fio_version`` is not known (3.x: ns, 2.x: µs).
    log_offset, log_avg_msec, log_max_value
        The job's options, when known (from the run's JSON report).
    run_id, test
        Link the rows to a results-frame run; default: a hash of ``source`` and the log's name.

    Raises
    ------
    ebsstats.ParseError
        Unknown kind, ambiguous layout or unit without a version, ragged or non-numeric lines
        (naming the line).

    Examples
    --------
    >>> p = parse("500, 107344, 0, 0, 0\\n500, 107416, 1, 0, 0\\n", "x_bw.1.log",
    ...           fio_version="fio-3.33")
    >>> p.series[0][["op", "metric", "t", "value"]].values.tolist()
    [['read', 'bandwidth', 0.5, 109920256.0], ['write', 'bandwidth', 0.5, 109993984.0]]
    """
    try:
        return _parse_bytes(text.encode(), source, kind=kind, fio_version=fio_version,
                            time_unit=time_unit, log_offset=log_offset,
                            log_avg_msec=log_avg_msec, log_max_value=log_max_value,
                            run_id=run_id, test=test)
    except ParseError:
        raise
    except (ValueError, OverflowError) as exc:  # an integer of more than 4,300 digits
        raise unconvertible(exc, text, source) from exc


def _layout(ncol: int, vt: tuple[int, int] | None, source: str, log_offset: bool | None,
            log_max_value: str | None, col2: np.ndarray | None) -> list[str]:
    """Names of the columns of a log with ``ncol`` columns written by fio ``vt``."""
    base = ["t", "value", "ddir", "bs"]
    if ncol < 4:
        raise ParseError(source, 1, "a fio log line with at least 4 columns (time, value, "
                         "ddir, bs)", found=f"{ncol} columns")
    if ncol == 4:
        return base
    if vt is None:
        raise ParseError(source, 1, "fio_version= (or the run's JSON report beside the log): "
                         "column 5 is an offset before fio 3.18 and a priority after",
                         found=f"{ncol} columns and no fio version")
    if vt < (3, 18):
        if ncol == 5:
            return base + ["offset"]
    elif vt < (3, 37):
        if ncol == 5:
            return base + ["prio"]
        if ncol == 6:
            return base + ["offset", "prio"]
    else:
        if ncol == 5:
            return base + ["prio"]
        if ncol == 7:
            return ["t", "value", "max", "ddir", "bs", "offset", "prio"]
        if ncol == 6:
            with_max = None
            if log_max_value is not None:
                with_max = str(log_max_value).strip().lower() == "both"
            elif log_offset is not None:
                with_max = not log_offset
            elif col2 is not None and len(col2) and (col2.max() > 3 or col2.min() < 0):
                with_max = True  # ddir is 0..3, so a larger third column is the max
            if with_max is None:
                raise ParseError(source, 1, "log_offset= or log_max_value= for a 6-column "
                                 "fio >= 3.37 log (max column or offset column)",
                                 found="6 columns")
            return (["t", "value", "max", "ddir", "bs", "prio"] if with_max
                    else base + ["offset", "prio"])
    raise ParseError(source, 1, f"a fio {vt[0]}.{vt[1]} log line with its known columns",
                     found=f"{ncol} columns")


class _File:
    """A large log that pyarrow reads from disk itself, with its first lines: copying it into
    a ``bytes`` object first cost a fifth of the parse. ``bytes()`` reads it (only to name the
    line of an error, or to decode a UTF-16 log)."""

    __slots__ = ("path", "first")

    def __init__(self, path: str, first: bytes):
        self.path, self.first = path, first

    def __bytes__(self) -> bytes:
        return load_bytes(self.path)


_HEAD = 64 * 1024


def _open_log(path: str | os.PathLike) -> bytes | _File:
    """The bytes of a small log, or a :class:`_File` for a large regular file whose first
    non-blank line is within its first 64 KiB (anything else is read as bytes, with the checks
    :func:`~ebsstats.io._common.load_bytes` makes)."""
    try:
        st = os.stat(path)
        if not (stat.S_ISREG(st.st_mode) and 4 * _HEAD < st.st_size <= MAX_BYTES):
            return load_bytes(path)
        with open(path, "rb") as fh:
            head = fh.read(_HEAD)
    except OSError:
        return load_bytes(path)  # raises the ParseError naming what failed
    if compression_of(head) is not None:
        return load_bytes(path)  # what it holds (pyarrow would read the compressed bytes)
    start = 0
    while True:
        nl = head.find(b"\n", start)
        if nl < 0:
            return load_bytes(path)  # no whole non-blank line in the head
        if head[start:nl].strip():
            return _File(str(path), head[start:nl])
        start = nl + 1


def _source(data: bytes | _File, source: str):
    """What pyarrow reads: the bytes in place, or the file (never decompressed by its name)."""
    if not isinstance(data, _File):
        return pa.BufferReader(data)
    try:
        return pa.OSFile(data.path)
    except OSError as exc:
        raise ParseError(source, None, "a readable file", found=str(exc)) from exc


def _first_bad_line(data: bytes, ncol: int) -> tuple[int, str]:
    """Line number and text of the first line that is not ``ncol`` integer columns."""
    data = bytes(data)
    for i, raw in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != ncol or not all(re.fullmatch(r"-?\d+|0x[0-9a-fA-F]+", p)
                                         for p in parts):
            return i, line
        if any(p[:2] != "0x" and abs(int(p)) >= 2**63 for p in parts):
            return i, line  # beyond a 64-bit integer
    return 0, ""


def _read_columns(data: bytes, names: list[str], source: str, check: bool = True) -> pa.Table:
    """The integer columns of a log; an empty field, a number beyond int64 or (``check``) a
    negative number (fio prints unsigned times, values, sizes and offsets) is refused with its
    line."""
    wanted = [n for n in names if n != "prio"]
    expected = f"a fio log line of {len(names)} integer columns ({', '.join(names)})"
    try:
        table = pacsv.read_csv(
            _source(data, source),
            read_options=pacsv.ReadOptions(column_names=names),
            # fio never quotes a field: without quote handling the parse costs 5 % less
            # CPU, and a quoted number is refused, as _first_bad_line always judged it
            parse_options=pacsv.ParseOptions(delimiter=",", quote_char=False),
            convert_options=pacsv.ConvertOptions(
                column_types={n: pa.int64() for n in wanted}, include_columns=wanted,
                null_values=[], quoted_strings_can_be_null=False))
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        line, found = _first_bad_line(data, len(names))
        raise ParseError(source, line or _first_line(data), expected,
                         found=found or str(exc)) from exc
    if check:
        _check_unsigned(table, {name: pc.min(table.column(name)).as_py() for name in wanted},
                        data, source)
    return table


def _check_unsigned(table: pa.Table, lows: dict, data: bytes, source: str) -> None:
    """Refuse the first column (in file order) whose least value ``lows[name]`` is negative,
    naming the line of its first negative value."""
    for name in table.column_names:
        low = lows.get(name)
        if low is not None and low < 0:
            col = table.column(name).to_numpy()
            line, found = _row_line(data, int(np.flatnonzero(col < 0)[0]))
            raise ParseError(source, line or _first_line(data),
                             f"a non-negative {name} (fio log values are unsigned)", found=found)


def _first_line(data: bytes) -> int:
    """Line of the first non-blank line (where a whole-file problem is reported)."""
    for i, raw in enumerate(bytes(data).splitlines(), 1):
        if raw.strip():
            return i
    return 1


def _parse_bytes(data: bytes, source: str, *, kind=None, fio_version=None, time_unit=None,
                 log_offset=None, log_avg_msec=None, log_max_value=None, run_id=None,
                 test=None) -> Parsed:
    kind = _kind(kind, source)
    vt = _version_tuple(fio_version)
    scale = _latency_scale(kind, vt, time_unit, source)
    first = _first_data_line(data)
    if not first.strip():
        return Parsed(tool=TOOL, format=f"log {kind}", version=fio_version,
                      series=[schema.empty_series()])
    names, table = _table(data, first.count(b",") + 1, vt, source, log_offset, log_max_value)
    if test is None:
        base = _log_name(source)
        m = _NAME.match(base)
        test = m.group("prefix") if m else base
    frames = _frames(table, names, data, source, kind, vt, scale, log_avg_msec, log_max_value,
                     (run_id or schema.run_id(source, "log"), source, test))
    ts = frames[0] if len(frames) == 1 else _columns.concat(frames, series=True)
    return Parsed(tool=TOOL, format=f"log {kind}", version=fio_version, series=[ts])


def _frames(table: pa.Table, names: list[str], data, source: str, kind: str, vt, scale,
            log_avg_msec, log_max_value, strings: tuple[str, str, str]) -> list[pd.DataFrame]:
    """The series frame(s) of a log's table (two with a max column: means, then maxima).

    Each column is converted chunk by chunk, its least and greatest values taken on the way;
    on a long log, times and values (the float columns) in a second thread while this one
    converts the integer columns and builds the constant ones."""
    n = table.num_rows
    factor = _metric_of(kind, False, scale)[2]  # the same whether windowed or not
    float_cols = [(table.column(name), f) for name, f in (("t", units.MS), ("value", factor),
                                                          ("max", factor)) if name in names]
    floats = _Background(n >= _THREAD_ROWS,
                         lambda: [_flat(col, np.float64, f) for col, f in float_cols])
    lows: dict[str, int | None] = {"offset": None}
    bs, lows["bs"], bs_high = _flat(table.column("bs"), np.int64)
    ddir, lows["ddir"], ddir_high = _flat(table.column("ddir"), np.int8)  # int8 once checked
    windowed = _windowed(n, (bs_high or 0) > 0, vt, kind, log_avg_msec)
    metric, unit, _ = _metric_of(kind, windowed, scale)
    offset = None
    if "offset" in names:
        offset, lows["offset"], _ = _flat(table.column("offset"), np.int64)
    shared = None
    if (lows["ddir"] or 0) >= 0 and (ddir_high or 0) <= 3:  # else refused below
        shared = _shared_columns(*strings, ddir, metric, unit, offset, bs)
    (t, lows["t"], _), (value, lows["value"], _), *top = floats.result()
    parts = [(value, _sampling(windowed, log_max_value))]
    if top:
        (top, lows["max"], _), = top
        parts = [(value, "window_mean"), (top, "window_max")]
    _check_unsigned(table, lows, data, source)
    if (ddir_high or 0) > 3:
        bad = int(np.flatnonzero(table.column("ddir").to_numpy() > 3)[0])
        line, found = _row_line(data, bad)
        raise ParseError(source, line, "ddir 0 (read), 1 (write), 2 (trim) or 3 (sync)",
                         found=found)
    return [_series(shared, t, v, samp) for v, samp in parts]


def _kind(kind: str | None, source: str) -> str:
    """The log's kind, given or from its file name; histogram logs and unknown kinds refused."""
    kind = kind or kind_of(source)
    if kind is None or kind not in KINDS:
        if kind is not None and kind.endswith("_hist"):
            raise ParseError(source, None, "a bw/iops/lat/clat/slat log (histogram logs: "
                             "ebsstats.io.fio.log.read_fio_hist_log)", found=kind)
        raise ParseError(source, None, "kind= (bw, iops, lat, clat or slat): the file name "
                         "does not say which fio log this is", found=os.path.basename(source))
    return kind


def _latency_scale(kind: str, vt, time_unit: str | None, source: str) -> float | None:
    """Seconds per logged latency unit (ns in fio 3.x, µs before); ``None`` for rate logs."""
    if kind not in ("lat", "clat", "slat"):
        return None
    if time_unit is not None:
        if time_unit not in _LAT_SCALE:
            raise ValueError(f"time_unit must be 'ns' or 'us', not {time_unit!r}")
        return _LAT_SCALE[time_unit]
    if vt is not None:
        return units.NS if vt[0] >= 3 else units.US
    raise ParseError(source, None, "the fio version of this latency log (fio 3.x logs latency "
                     "in ns, 2.x in µs): a fio report of its run beside it or in a folder "
                     "above, or ebsstats.read_fio_log(path, fio_version=... or time_unit=...)",
                     found="no fio version for a latency log")


def _first_data_line(data: bytes) -> bytes:
    """The first non-blank line (it decides the width), or a blank one if there is none."""
    if isinstance(data, _File):
        return data.first
    start = 0
    while True:
        nl = data.find(b"\n", start)
        first = data[start:] if nl < 0 else data[start:nl]
        if first.strip() or nl < 0:
            return first
        start = nl + 1


def _table(data: bytes, ncol: int, vt, source: str, log_offset, log_max_value):
    """``(column names, Arrow table)`` of the log; a 6-column fio >= 3.37 log whose options do
    not say its layout is read once with generic names, and its third column decides."""
    col2 = probe = None
    if ncol == 6 and vt is not None and vt >= (3, 37) and log_max_value is None \
            and log_offset is None:
        probe = _read_columns(data, [f"c{i}" for i in range(6)], source)
        col2 = probe.column("c2").to_numpy()
    names = _layout(ncol, vt, source, log_offset, log_max_value, col2)
    if probe is not None:  # the probe read every column already: name them, drop prio
        return names, probe.rename_columns(names).drop_columns(
            [n for n in names if n == "prio"])
    return names, _read_columns(data, names, source, check=False)  # _parse_bytes checks


def _windowed(n: int, any_bs: bool, vt, kind: str, log_avg_msec) -> bool:
    """Whether the values are window averages (bs 0 in every row, fio 2.x bw/iops logs, or
    log_avg_msec set), not one row per I/O."""
    windowed = bool(n) and not any_bs
    if vt is not None and vt[0] < 3 and kind in ("bw", "iops"):
        windowed = True  # fio 2.x averages bw/iops logs over bwavgtime/iopsavgtime
    if log_avg_msec is not None and int(log_avg_msec) > 0:
        windowed = True
    return windowed


def _sampling(windowed: bool, log_max_value) -> str:
    """The ``sampling`` value: per_io, window, window_max or window_mean."""
    maxv = (str(log_max_value).strip().lower() if log_max_value is not None else None)
    if not windowed:
        return "per_io"
    if maxv is None:
        return "window"
    if maxv in ("1", "true", "max"):
        return "window_max"
    return "window_mean"


def _metric_of(kind: str, windowed: bool, scale: float | None) -> tuple[str, str, float]:
    """``(metric, unit, factor to canonical units)`` of a log kind."""
    if kind == "bw":
        return "bandwidth", "B/s", float(units.KiB)
    if kind == "iops":
        return ("iops", "IO/s", 1.0) if windowed else ("ios", "count", 1.0)
    return kind, "s", scale


_THREAD_ROWS = 1 << 18  # logs from this many rows convert their float columns in a thread


class _Background:
    """``fn()`` run in a thread of its own (``threaded``) or here; :meth:`result` returns it
    or raises what it raised. A thread per call, not a pool: a pool's thread does not survive
    the fork of a folder read's worker processes. numpy releases the GIL in the conversions,
    so the thread runs beside this one."""

    def __init__(self, threaded: bool, fn):
        self._fn, self._out, self._exc = fn, None, None
        self._thread = None
        if threaded:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            self._out = self._fn()
        except BaseException as exc:  # re-raised by result()
            self._exc = exc

    def result(self):
        if self._thread is None:
            self._run()
        else:
            self._thread.join()
        if self._exc is not None:
            raise self._exc
        return self._out


def _empty(n: int, dtype) -> np.ndarray:
    """``np.empty(n, dtype)`` in Arrow's memory pool, which keeps freed pages for the next
    log: fresh pages from the system cost more than writing the column (a 2 M-row column:
    5 ms instead of 3)."""
    return np.frombuffer(pa.allocate_buffer(n * np.dtype(dtype).itemsize), dtype=dtype)


def _zeros(n: int, dtype) -> np.ndarray:
    """Zeros that cost nothing until written (the values under an all-missing column): an
    anonymous memory map, whose pages the kernel gives as they are touched. ``np.zeros`` of
    a 2 M-row column cost up to 9 ms once glibc serves it from reused heap memory, which
    calloc must clear."""
    size = n * np.dtype(dtype).itemsize
    if size < 1 << 20:
        return np.zeros(n, dtype=dtype)
    return np.frombuffer(mmap.mmap(-1, size), dtype=dtype)


def _full(n: int, value) -> np.ndarray:
    out = _empty(n, type(value))
    out.fill(value)
    return out


def _flat(col: pa.ChunkedArray, dtype,
          scale: float | None = None) -> tuple[np.ndarray, int | None, int | None]:
    """An Arrow integer column (no nulls) as one numpy array of ``dtype``, times ``scale`` if
    given, with its least and greatest values (``None`` if empty): each chunk is read in
    place, its extremes taken while it is in cache, and it is written once into the result
    (``to_numpy`` would concatenate the chunks first, then ``astype`` and the scaling copy
    again, and ``pyarrow.compute.min`` read the whole column once more)."""
    out = _empty(len(col), dtype)
    low = high = None
    at = 0
    for chunk in col.chunks:
        a = chunk.to_numpy(zero_copy_only=True)
        if not len(a):
            continue
        lo, hi = int(a.min()), int(a.max())
        low = lo if low is None or lo < low else low
        high = hi if high is None or hi > high else high
        if scale is None:
            out[at:at + len(a)] = a
        else:  # int64 * float: the float64 product, as astype + multiply gave it
            np.multiply(a, scale, out=out[at:at + len(a)])
        at += len(a)
    return out, low, high


def _row_line(data: bytes, row: int) -> tuple[int, str]:
    seen = -1
    for i, raw in enumerate(bytes(data).decode("utf-8", "replace").splitlines(), 1):
        if raw.strip():
            seen += 1
            if seen == row:
                return i, raw.strip()
    return 0, ""


def _const_string(value: str, n: int) -> pd.Categorical:
    return pd.Categorical.from_codes(np.zeros(n, dtype=np.int8),
                                     dtype=pd.CategoricalDtype([value]), validate=False)


_CONST_CHUNK = 1 << 16  # rows of the one Arrow chunk a constant string column repeats


def _const_str(value: str, n: int) -> pd.arrays.ArrowStringArray:
    """A string column holding one value: one Arrow chunk of at most ``_CONST_CHUNK`` rows,
    repeated (the chunks share its buffers). A plain ``large_string`` array of a 2 M-row log's
    source name writes 70 MB, the largest cost of a read after the CSV parse; the dtype is
    the same, and pandas and Arrow read a chunked column as one."""
    k = min(n, _CONST_CHUNK)
    one = pa.repeat(pa.scalar(value, pa.large_string()), k)
    q, r = divmod(n, k) if k else (0, 0)
    chunks = [one] * q + ([one.slice(0, r)] if r else [])
    return pd.arrays.ArrowStringArray(pa.chunked_array(chunks or [one], pa.large_string()))


def _shared_columns(rid, source, test, ddir, metric, unit, offset, bs) -> dict:
    """The series columns that are the same in a log's mean and max frames (all but ``t``,
    ``value`` and ``sampling``), already of the schema's dtypes."""
    n = len(ddir)
    bs = bs.astype(np.int64, copy=False)
    return {
        "run_id": _const_str(rid, n),
        "source": _const_str(source, n),
        "test": _const_str(test, n),
        "op": pd.Categorical.from_codes(ddir.astype(np.int8, copy=False),
                                        dtype=pd.CategoricalDtype(schema.OPS), validate=False),
        "metric": _const_string(metric, n),
        "unit": _const_string(unit, n),
        "offset": (pd.arrays.IntegerArray(offset.astype(np.int64, copy=False),
                                          np.zeros(n, dtype=bool))
                   if offset is not None else
                   pd.arrays.IntegerArray(_zeros(n, np.int64), _full(n, True))),
        "block_size": pd.arrays.IntegerArray(bs, np.equal(bs, 0, out=_empty(n, np.bool_))),
    }


def _series(shared: dict, t: np.ndarray, value: np.ndarray, sampling: str) -> pd.DataFrame:
    cols = {**shared, "t": t, "value": value, "sampling": _const_str(sampling, len(t))}
    return pd.DataFrame({name: cols[name] for name in (*schema.SERIES_COLUMNS, "sampling")},
                        copy=False)  # the schema's dtypes and column order already


# --------------------------------------------------------------------------------------------
# finding the run that wrote a log
# --------------------------------------------------------------------------------------------

_LOG_OPTIONS = {"bw": ("write_bw_log",), "iops": ("write_iops_log",),
                "lat": ("write_lat_log",), "clat": ("write_lat_log",),
                "slat": ("write_lat_log",), "clat_hist": ("write_hist_log",),
                "lat_hist": ("write_hist_log",)}


def find_run(path: str | os.PathLike) -> dict | None:
    """The fio JSON report of the run that wrote the log at ``path``, as a dict.

    Looks at ``*.json`` files in the log's folder and at ``<folder>_run.json`` beside the folder
    (the layout of ``tests/fixtures/fio``), else at the folder's other files that are fio JSON
    reports by their first bytes (``run_stats.log``), for a fio report whose job wrote this log
    prefix
    (``write_bw_log=…/logavg`` for ``logavg_bw.1.log``; ``write_bw_log=1`` means the job name).
    Returns ``{"version", "options", "run_id", "run_key", "test", "report", "reports",
    "linked"}`` or ``None``. When several jobs wrote the prefix (``numjobs``), the log's
    1-based index picks the job entry. When several reports name the prefix (runs of one
    template into one folder), fio rewrote the log on each run: it is linked to the run that
    wrote it last (:func:`_last_writer`, ``linked="last"``), or to none when that is not known
    (``run_id`` ``None``); ``reports`` lists them all.

    Examples
    --------
    >>> find_run("no/such/dir/x_bw.1.log") is None
    True
    """
    p = Path(path)
    m = _NAME.match(_log_name(p))
    if not m:
        return None
    prefix, kind, index = m.group("prefix"), m.group("kind"), m.group("index")
    candidates = (sorted(c for c in p.parent.glob("*.json*") if plain_name(c.name).endswith(
        ".json")) if p.parent.is_dir() else [])  # (a compressed report among them)
    for sfx in ("", *COMPRESSED_SUFFIXES):  # (the report compressed as its logs are)
        conv = p.parent.parent / f"{p.parent.name}_run.json{sfx}"
        if conv.is_file():
            candidates.append(conv)
            break
    found = _reports_writing(candidates, prefix, kind)
    if not found and p.parent.is_dir():  # a report named otherwise (run_stats.log)
        found = _reports_writing(_other_reports(p.parent), prefix, kind)
    if not found:
        return None
    how = None
    if len(found) > 1:  # fio rewrote the log on each run: the last run able to write it did
        last = _last_writer(found, index)
        if last is not None:
            found.remove(last)
            found.insert(0, last)
            how = "last"
    c, doc, key, matches = found[0]
    pick = None
    if len(matches) == 1:
        pick = matches[0]
    elif index is not None and int(index) <= len(matches):
        pick = matches[int(index) - 1]
    version = doc.get("fio version")
    out = {"version": None if version is None else str(version), "report": str(c),
           "options": matches[0][2], "run_id": None, "run_key": None, "test": None,
           "reports": [str(f[0]) for f in found], "linked": how}
    if len(found) > 1 and how is None:  # fio rewrote the log on each run: which run wrote
        return out  # it is unknown (the first report's version and options read its columns)
    if pick is not None:
        i, job, opts = pick
        out.update(options=opts, run_id=schema.run_id(str(c), f"$.{key}[{i}]"),
                   run_key=f"$.{key}[{i}]", test=job.get("jobname"))
    return out


def _reports_writing(candidates: list[Path], prefix: str, kind: str) -> list[tuple]:
    """``(report, document, key, jobs writing the prefix)`` of every report among
    ``candidates`` naming the log prefix."""
    found = []
    for c in candidates:
        doc = _report_naming(c, prefix)
        if doc is None:
            continue
        key = "jobs" if "jobs" in doc else "client_stats"
        matches = _jobs_writing(doc, key, kind, prefix)
        if matches:
            found.append((c, doc, key, matches))
    return found


def _other_reports(folder: Path) -> list[Path]:
    """The fio JSON reports in ``folder`` not named ``*.json`` (wikimedia's
    cloud-storage-performance-tests keep each run's report as ``run_stats.log`` beside its
    ``data_bw.log``): files that are not fio logs by name and whose first 4 KiB open a JSON
    document holding ``"fio version"``. Looked for once per folder and listing (its time)."""
    try:
        key = (str(folder), os.stat(folder).st_mtime_ns)
    except OSError:
        return []
    got = _OTHER_REPORTS.get(key)
    if got is not None:
        return got
    got = []
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        entries = []
    for e in entries:
        name = plain_name(e.name)
        if name.endswith(".json") or _NAME.match(name) or e.name.startswith("."):
            continue
        try:
            if not e.is_file() or e.stat().st_size > _OTHER_REPORT_BYTES:
                continue
            head = read_head(e.path, 4096)  # (of what a compressed file holds)
        except OSError:
            continue
        if head.lstrip()[:1] == b"{" and b'"fio version"' in head:
            got.append(Path(e.path))
    remember(_OTHER_REPORTS, key, got, 256)
    return got


_OTHER_REPORTS: dict[tuple, list[Path]] = {}  # (folder, its time) -> its other reports
_OTHER_REPORT_BYTES = 256 * 1024**2  # (what _report_of reads at most)


def _last_writer(found: list[tuple], index: str | None) -> tuple | None:
    """Of several reports naming a log's prefix (``(report, document, key, jobs writing the
    prefix)`` each), the run that wrote the log last: fio rewrites ``prefix_bw.N.log`` on each
    run whose N-th job writes it, so of the runs with N jobs or more on the prefix the one
    that ended last (its report's ``timestamp``) wrote it; the only such run needs no time.
    ``None`` when that is not known (a run without a time, two ending in the same second).
    louwrentius/fio-plot runs one template name per queue depth at 1, 2, 4 … 64 jobs: 14
    reports name each prefix, and no log was linked to its run.

    >>> one = ("a.json", {"timestamp": 100}, "jobs", [(0, {}, {"numjobs": "1"})])
    >>> four = ("b.json", {"timestamp": 50}, "jobs", [(0, {}, {"numjobs": "4"})])
    >>> [_last_writer([one, four], i)[0] for i in ("1", "3")]
    ['a.json', 'b.json']
    >>> _last_writer([one, (*one[:1], {"timestamp": 100}, *one[2:])], "1") is None
    True
    """
    n = int(index) if index is not None else 1  # (2.x logs have no index: every run writes it)
    able = [f for f in found if _threads(f[3]) >= n]
    if len(able) == 1:
        return able[0]
    ends = [f[1].get("timestamp") for f in able]
    if not able or not all(type(t) is int for t in ends) or ends.count(max(ends)) > 1:
        return None
    return able[ends.index(max(ends))]


def _threads(matches: list[tuple[int, dict, dict]]) -> int:
    """How many of a run's jobs wrote a prefix's logs (numbered 1 … that): one entry per job
    in the report, or one entry for ``numjobs`` clones (``group_reporting``)."""
    if len(matches) != 1:
        return len(matches)
    try:
        return max(1, int(str(matches[0][2].get("numjobs", 1)).strip()))
    except ValueError:
        return 1


def _report_naming(c: Path, prefix: str) -> dict | None:
    """The last document of the fio JSON report ``c`` if it mentions ``prefix``, else None.
    A report's bytes and document are kept while the file stays as it was (its size and
    time): the logs of a folder ask every report beside them (:func:`find_run` looks for all
    that name a prefix), each read and decoded once, not once per log."""
    try:
        st = os.stat(c)
    except OSError:
        return None
    key = (str(c), st.st_size, st.st_mtime_ns)
    if key in _REPORTS:
        return _REPORTS[key]  # (its jobs are matched to the prefix by the caller)
    doc = _report_of(c, prefix)
    if doc is not False and st.st_size <= _REPORT_KEPT_BYTES:
        remember(_REPORTS, key, doc, _REPORTS_KEPT)
    return doc or None


def _report_of(c: Path, prefix: str) -> dict | None | bool:
    """The last document of the fio JSON report ``c``; ``None`` for a file that is no fio
    report; ``False`` for a report that does not mention ``prefix`` (not decoded: a large report
    of other jobs is not made into objects)."""
    from ebsstats.io.fio import json as fio_reader
    try:
        raw = load_bytes(c, 256 * 1024**2)
        if b'"fio version"' not in raw[:HEAD_BYTES]:
            return None
        if prefix.encode() not in raw:
            return False
        text = decode(raw, str(c))
        docs, _ = fio_reader._json_docs(text, str(c))
    except (ParseError, OSError):
        return None
    if not docs or not isinstance(docs[-1][0], dict):
        return None
    return docs[-1][0]


# (path, size, time) -> last document of a fio JSON report beside fio logs (None: no report),
# at most _REPORTS_KEPT of at most _REPORT_KEPT_BYTES each (~0.5 MB of objects each at most;
# the documents are only read, never changed)
_REPORTS: dict[tuple, dict | None] = {}
_REPORTS_KEPT = 64
_REPORT_KEPT_BYTES = 64 * 1024


def _jobs_writing(doc: dict, key: str, kind: str, prefix: str) -> list[tuple[int, dict, dict]]:
    """``(index, job, merged options)`` of every job whose log option names ``prefix``."""
    jobs = doc.get(key)
    if not isinstance(jobs, list):
        return []
    gopts = doc.get("global options") or {}
    matches = []
    for i, job in enumerate(jobs):
        if not isinstance(job, dict):
            continue
        opts = {**gopts, **(job.get("job options") or {})}
        for opt in _LOG_OPTIONS[kind]:
            v = opts.get(opt)
            if v is None:
                continue
            name = job.get("jobname") if str(v).strip() in ("1", "true") else \
                os.path.basename(str(v).strip())
            if name == prefix:
                matches.append((i, job, opts))
    return matches


def read_fio_log(path: str | os.PathLike, *, kind: str | None = None,
                 fio_version: str | None = None, time_unit: str | None = None,
                 find_report: bool = True, **meta) -> pd.DataFrame:
    """Read one fio log file into the series frame.

    Parameters
    ----------
    path : str or path-like
        ``<prefix>_bw.1.log``, ``_iops``, ``_lat``, ``_clat``, ``_slat`` (2.x: no index).
    kind, fio_version, time_unit
        See :func:`parse`; arguments win over what the run's JSON report says.
    find_report : bool
        Look for the JSON report of the run beside the log (:func:`find_run`) for the fio
        version, the job's log options, its name and ``run_id``.
    **meta
        Metadata columns for every row (``config=``, ``volume=`` …).

    Returns
    -------
    pandas.DataFrame
        The series frame; passes :func:`ebsstats.validate_series`.

    Examples
    --------
    >>> import pathlib
    >>> p = pathlib.Path("tests/fixtures/fio/logs_avg/logavg_bw.1.log")
    >>> ts = read_fio_log(p) if p.exists() else None
    """
    source = str(path)
    data = _open_log(path)
    run = find_run(path) if find_report else None
    opts = (run or {}).get("options") or {}
    options = dict(kind=kind, fio_version=fio_version or (run or {}).get("version"),
                   time_unit=time_unit, log_offset=_flag(opts.get("log_offset")),
                   log_avg_msec=_int(opts.get("log_avg_msec")) if run else None,
                   log_max_value=opts.get("log_max_value", "0" if run else None),
                   run_id=(run or {}).get("run_id"), test=(run or {}).get("test"))
    try:
        parsed = _parse_bytes(data, source, **options)
    except ParseError:
        # a NUL byte never parses as an integer field, so only a failed parse asks whether the
        # log is UTF-16 (then read decoded) or has a NUL (decode names its line)
        raw = bytes(data)
        if b"\x00" not in raw:
            raise
        parsed = _parse_bytes(decode(raw, source).encode(), source, **options)
    ts = parsed.series[0]
    if meta:
        ts = _columns.series_frame(ts.assign(**meta))
    return ts


def _int(v) -> int | None:
    try:
        return None if v is None else int(str(v).strip())
    except ValueError:
        return None


# --------------------------------------------------------------------------------------------
# aggregation of per-I/O rows
# --------------------------------------------------------------------------------------------

@renamed(ts="data")
def aggregate_log(data: pd.DataFrame, window: float = 1.0) -> pd.DataFrame:
    """Aggregate log rows into fixed windows of ``window`` seconds (stamped at the window's end).

    Per-I/O rows become: ``ios`` → ``iops`` (count / window, IO/s); per-I/O ``bandwidth`` →
    ``bandwidth`` = sum of ``block_size`` / window (B/s, the bytes actually moved); latencies →
    their mean. Rows already averaged (``sampling`` ``window*``) are averaged again per window.
    The last window may be partial (the run ended inside it), so its rate is a lower bound.

    Examples
    --------
    >>> p = parse("0, 1, 0, 4096, 0\\n400, 1, 0, 4096, 0\\n1200, 1, 0, 4096, 0\\n",
    ...           "x_iops.1.log", fio_version="3.33")
    >>> aggregate_log(p.series[0])[["t", "metric", "value"]].values.tolist()
    [[1.0, 'iops', 2.0], [2.0, 'iops', 1.0]]
    """
    if window <= 0:
        raise ValueError("window must be positive")
    if data.empty:
        return data
    df = data.copy()
    df["_w"] = np.floor(df["t"].to_numpy() / window)
    sampling = df["sampling"].astype(str) if "sampling" in df else pd.Series("per_io",
                                                                             index=df.index)
    per_io = (sampling == "per_io").to_numpy()
    metric = df["metric"].astype(str).to_numpy()
    keys = ["run_id", "source", "test", "op", "_w"]
    extra = [c for c in df.columns if c not in schema.SERIES_COLUMNS and c not in
             ("_w", "sampling")]
    out = []
    count_rows = per_io & (metric == "ios")
    if count_rows.any():
        g = df[count_rows].groupby(keys + extra, observed=True, dropna=False)
        r = g["value"].sum().reset_index()
        r["value"] = r["value"] / window
        r["metric"], r["unit"] = "iops", "IO/s"
        out.append(r)
    bw_rows = per_io & (metric == "bandwidth")
    if bw_rows.any():
        sub = df[bw_rows]
        if sub["block_size"].isna().any():
            raise ValueError("per-I/O bandwidth rows need block_size to aggregate")
        r = sub.groupby(keys + extra, observed=True, dropna=False)["block_size"].sum()
        r = r.astype(np.float64).rename("value").reset_index()
        r["value"] = r["value"] / window
        r["metric"], r["unit"] = "bandwidth", "B/s"
        out.append(r)
    rest = ~(count_rows | bw_rows)
    if rest.any():
        sub = df[rest]
        r = sub.groupby(keys + extra + ["metric", "unit"], observed=True,
                        dropna=False)["value"].mean().reset_index()
        out.append(r)
    res = pd.concat(out, ignore_index=True)
    res["t"] = (res.pop("_w") + 1.0) * window
    res["sampling"] = "window_mean"
    res = res.sort_values(["run_id", "t", "op", "metric"], kind="stable", ignore_index=True)
    return _columns.series_frame(res)


# --------------------------------------------------------------------------------------------
# histogram logs
# --------------------------------------------------------------------------------------------

def _plat_values(nbins: int, bits: int = 6) -> np.ndarray:
    """Representative latency of each fio histogram bin (``plat_idx_to_val`` in fio's stat.c):
    bins below ``2 * 2**bits`` are exact; above, bin ``idx`` of group ``g`` covers
    ``[base, base + 2**(g-1))`` and its midpoint is returned."""
    val = 1 << bits
    idx = np.arange(nbins, dtype=np.int64)
    out = idx.astype(np.float64)
    big = idx >= (val << 1)
    error_bits = (idx[big] >> bits) - 1
    base = np.left_shift(np.int64(1), error_bits + bits).astype(np.float64)
    k = (idx[big] % val).astype(np.float64)
    out[big] = base + (k + 0.5) * np.left_shift(np.int64(1), error_bits).astype(np.float64)
    return out


def read_fio_hist_log(path: str | os.PathLike, *, fio_version: str | None = None,
                      find_report: bool = True) -> pd.DataFrame:
    """Read a fio histogram log (``write_hist_log`` + ``log_hist_msec``), non-empty bins only.

    Each line is ``time_ms, ddir, bs`` then the bin counts of that interval: 1216 bins in 2.x
    (1219 columns), 1856 in 3.x (1859 columns). Returns a long frame ``run_id, source, t (s),
    op, block_size, lat (s: the bin's midpoint, fio's ``plat_idx_to_val``), count``. This is not
    a series-frame metric (one number per time is not enough), hence its own function. Latency
    unit: ns for 3.x (1856 bins), µs for 2.x (1216 bins), taken from the bin count when the
    version is not known. Counts are per interval (fio writes the difference since the last line).

    Examples
    --------
    >>> import pathlib
    >>> p = pathlib.Path("tests/fixtures/fio/gen/logs_hist/lh_clat_hist.1.log")
    >>> h = read_fio_hist_log(p) if p.exists() else None
    """
    source = str(path)
    data = load_bytes(path)
    text = decode(data, source)
    first = next((ln for ln in text.splitlines() if ln.strip()), None)
    if first is None:
        return pd.DataFrame({"run_id": [], "source": [], "t": [], "op": [], "block_size": [],
                             "lat": [], "count": []})
    ncol = first.count(",") + 1
    nbins = ncol - 3
    if nbins not in FIO_HIST_BINS:
        raise ParseError(source, 1, "a fio histogram log line (3 + 1216 or 3 + 1856 columns)",
                         found=f"{ncol} columns")
    run = find_run(path) if find_report else None
    vt = _version_tuple(fio_version or (run or {}).get("version"))
    if vt is not None and (vt[0] >= 3) != (nbins == 1856):
        raise ParseError(source, 1, f"{1856 if vt[0] >= 3 else 1216} bins for fio "
                         f"{vt[0]}.{vt[1]}", found=f"{nbins} bins")
    scale = units.NS if nbins == 1856 else units.US
    names = ["t", "ddir", "bs"] + [f"b{i}" for i in range(nbins)]
    table = _read_columns(data, names, source)
    counts = np.column_stack([table.column(f"b{i}").to_numpy() for i in range(nbins)])
    _check_hist_counts(counts, table.column("t").to_numpy(), data, source)
    rows, bins = np.nonzero(counts)
    lat = _plat_values(nbins)[bins] * scale
    ddir = table.column("ddir").to_numpy()[rows]
    if len(ddir) and (ddir.min() < 0 or ddir.max() > 3):
        line, found = _row_line(data, int(rows[np.flatnonzero((ddir < 0) | (ddir > 3))[0]]))
        raise ParseError(source, line or 1, "ddir 0..3 in a histogram log", found=found)
    rid = (run or {}).get("run_id") or schema.run_id(source, "log")
    return pd.DataFrame({
        "run_id": pd.array([rid] * len(rows), dtype=schema.STRING),
        "source": pd.array([source] * len(rows), dtype=schema.STRING),
        "t": table.column("t").to_numpy()[rows].astype(np.float64) * units.MS,
        "op": pd.Categorical.from_codes(ddir.astype(np.int8),
                                        dtype=pd.CategoricalDtype(schema.OPS)),
        "block_size": pd.array(table.column("bs").to_numpy()[rows], dtype=pd.Int64Dtype()),
        "lat": lat,
        "count": counts[rows, bins].astype(np.int64),
    })


#: The most I/Os a histogram log line may count per second of its time since the run
#: started: 10**9, a thousand times what one fio job completes at best (a few million IOPS).
#: The interval a line covers is at most that time; a line beyond it holds no I/O counts.
HIST_MAX_IOPS = 1e9


def _check_hist_counts(counts: np.ndarray, t_ms: np.ndarray, data: bytes, source: str) -> None:
    """Refuse a histogram log whose line counts more I/Os than a job can complete: more than
    :data:`HIST_MAX_IOPS` per second of the line's time since the start (the interval it
    covers is no longer), or than float64 holds exactly (2**53, what percentiles sum in).
    Such counts are not a slow or fast device but corrupt bins: pbench's sample
    ``fio_clat_hist`` logs hold values such as 7,310,584,035,473,358,880 (ASCII bytes read as
    a count) and 2,147,483,647, whose sum overflows int64 to a negative I/O count.

    >>> _check_hist_counts(np.array([[3, 4]]), np.array([500]), b"500, 0, 4096, 3, 4", "x")
    >>> try:
    ...     _check_hist_counts(np.array([[2**62, 4]]), np.array([500]), b"500, 0, 4096, 1, 4",
    ...                        "x.log")
    ... except ParseError as e:
    ...     print(e.position, e.expected)
    line 1 at most 1e9 I/Os per second of the run so far in one histogram log line \
(500,000,000 by 0.5 s)
    """
    if not counts.size:
        return
    totals = counts.sum(axis=1, dtype=np.float64)  # (float: an int64 sum wraps)
    limit = np.minimum(np.maximum(t_ms, 1).astype(np.float64) / 1000 * HIST_MAX_IOPS, 2.0**53)
    bad = np.flatnonzero(totals > limit)
    if bad.size:
        row = int(bad[0])
        exact = int(sum(int(c) for c in counts[row]))
        line, found = _row_line(data, row)
        raise ParseError(source, line or 1,
                         f"at most 1e9 I/Os per second of the run so far in one histogram log "
                         f"line ({limit[row]:,.0f} by {max(int(t_ms[row]), 1) / 1000:g} s)",
                         found=f"{exact:,} I/Os (corrupt bin counts): {found}")


def _parse_in_folder(data: bytes, source: str, context: Mapping) -> Parsed:
    """The reader protocol's parse: the run's JSON report beside the log gives the fio version,
    the job's log options and the job's ``run_id`` (computed from the report's source name as
    this read names it, so series and results rows share run ids); else the version other
    fio reports in the folder print."""
    try:
        return _parse_context(data, source, context)
    except ParseError:
        if b"\x00" in data:  # a NUL never parses: name its line (a UTF-16 log: the parse error)
            decode(data, source)
        raise


def _parse_context(data: bytes, source: str, context: Mapping) -> Parsed:
    path = context.get("path")
    run = find_run(path) if path is not None else None
    if run is None:
        version = context.get("folder_version")
        parsed = _parse_bytes(data, source, **({"fio_version": version} if version else {}))
        where = context.get("folder_version_from")  # (None: the log's own folder)
        if version and where is not None:
            named = version if str(version).startswith("fio") else f"fio {version}"
            at = "at the top of the folder read" if where == "." else f"in {where!r}"
            parsed.notes.append(f"no fio report beside this log names it: its columns are read "
                                f"as {named}'s, the version of the fio reports {at}")
        return parsed
    opts = run.get("options") or {}
    out = {"fio_version": run.get("version") or context.get("folder_version"),
           "log_offset": _flag(opts.get("log_offset")),
           "log_avg_msec": _int(opts.get("log_avg_msec")),
           "log_max_value": opts.get("log_max_value", "0"), "test": run.get("test")}
    if run.get("run_key"):
        source_of = context.get("source_of") or str
        out["run_id"] = schema.run_id(source_of(Path(run["report"])), run["run_key"])
    parsed = _parse_bytes(data, source, **{k: v for k, v in out.items() if v is not None})
    reports = run.get("reports") or []
    if len(reports) > 1:  # (louwrentius/fio-plot: 14 reports of one template name each prefix)
        names = ", ".join(os.path.basename(r) for r in reports[:4])
        said = (f"{len(reports)} fio reports name this log's prefix ({names}"
                f"{', ...' if len(reports) > 4 else ''}): fio rewrote the log on each run, ")
        if run.get("linked") == "last":
            said += (f"so it is linked to {os.path.basename(run['report'])}, the last run (by "
                     "its report's timestamp) whose jobs could write it")
        else:
            said += "so which run wrote it is unknown; not linked to any of them"
        parsed.notes.append(said)
    return parsed


# the reader this module registers (ebsstats.io._registry): bytes straight to pyarrow's CSV
# reader (no decode + re-encode of a large file); needs the report beside the log
READER = Reader(tool="fio", name=__name__, detect=sniff, parse=_parse_in_folder,
                needs=frozenset({"path", "source_of", "folder_version"}),
                memory_factor=MEMORY_FACTOR)
