"""fio result outputs: JSON / json+ (2.x and 3.x, client/server), terse v2–v5, normal text.

:func:`read_fio` reads one file into the tidy results frame; :func:`parse` is the reader-protocol
entry point; :func:`read_fio_histogram` gives the json+ latency bins. Log files
(``write_bw_log`` …) are read by :mod:`ebsstats.io.fio_log`.

What a row is
-------------
One row per (job entry, direction, metric). fio's ``read``/``write``/``trim``/``sync`` objects give
``op`` ``read``/``write``/``trim``/``sync``; ``mixed`` (``unified_rw_reporting``) gives ``total``;
``usr_cpu``/``sys_cpu`` give ``cpu_usr``/``cpu_sys`` with ``op="total"``. Empty directions
(``runtime`` 0 and ``total_ios`` 0; for ``sync``: ``total_ios`` 0) are skipped. Each job entry of
the final report is one run (``run_key = "$.jobs[i]"``), so ``numjobs`` clones that share a name
stay apart; ``groupid`` is a string column (``group_reporting`` and ``stonewall``/``new_group``
groups).

Units (converted once, here)
----------------------------
==========================  ================================  =====================
source                      fio unit                          canonical
==========================  ================================  =====================
JSON ``bw_bytes``           B/s (≥3.2)                        B/s
JSON ``bw``, ``bw_min`` …   KiB/s                             × 1024 → B/s
JSON ``io_bytes``           B when ``io_kbytes`` is beside    B
                            it (≥2.21), else KiB (2.x)        × 1024 → B
JSON ``*_ns``               ns (≥2.99)                        × 1e-9 → s
JSON ``clat``/``lat``/      µs (≤2.2x)                        × 1e-6 → s
``slat``
JSON ``runtime``            ms                                × 1e-3 → s
terse latencies             µs in every version               × 1e-6 → s
terse io / bw               KiB / KiB/s                       × 1024
normal text                 unit printed on each line         by unit / suffix
==========================  ================================  =====================

Metric names: ``iops``, ``bandwidth``, ``io_bytes``, ``runtime``, ``total_ios``,
``{slat,clat,lat}_{min,max,mean,stddev}``, percentiles as printed (``clat_p99.9`` via
:func:`ebsstats.schema.percentile_metric`, from whichever of clat/lat/slat has them),
``bandwidth_{min,max,mean,stddev}`` and ``iops_{min,max,mean,stddev}`` (fio's within-run samples,
only when fio took samples), ``bw_agg`` (%), ``cpu_usr``/``cpu_sys`` (%).

Metadata columns: ``threads`` = ``numjobs``, ``iodepth``, ``block_size`` (bytes, per op when
``bs=4k,64k``), and string columns ``job``, ``groupid``, ``rw``, ``ioengine``, ``direct``,
``job_size``, ``job_runtime``, ``rate_iops`` (from ``job options``, falling back to
``global options``; with fio ≥ 3 fio's documented defaults ``rw=read``, ``bs=4k``,
``iodepth=1``, ``numjobs=1`` fill absent options, because 3.x prints every option that was set).
With ``group_reporting`` the entry's options are those of the group's first job (fio's own
behaviour) and may not describe every merged job. Client/server output sets ``host`` from
``hostname``; the ``All clients`` entry has ``flag="aggregate"``.

Timestamps
----------
JSON ``timestamp``/``timestamp_ms`` is when fio wrote the report, i.e. the END of the run. The
``timestamp`` column is the START: ``timestamp_ms/1000 - elapsed`` (``elapsed`` is whole seconds
since the job started, including file layout), or, where ``elapsed`` is absent (client/server),
``timestamp - max(job_runtime, direction runtimes)``. Terse output, 2.x JSON before 2.2.5 and
normal text carry no usable date (the normal ``pid=…: <date>`` line is local time without a zone),
so ``timestamp`` is ``<NaT>`` there: give it through metadata.

Errors
------
A job with ``error != 0`` is kept with ``flag="error=N"``; its rates, latencies and CPU figures
that fio left at zero become NaN (never a plain zero throughput); if it has no non-empty
direction, NaN ``iops``/``bandwidth`` rows are emitted for the directions its ``rw`` implies.
A file with no fio report at all raises :class:`~ebsstats.ParseError` quoting fio's message.

Around the JSON
---------------
Every JSON document that starts at the beginning of a line is decoded (``json.raw_decode``);
text between them (warnings, notes, ``Jobs:`` ETA lines with ``\\r``, the normal report of
``--output-format=normal,json``) is skipped; fio's warnings are kept in ``Parsed.notes``. Duplicate
keys (old 2.x percentile padding, client/server ``global options``) keep the last value, which is
what ``json`` does natively. Several documents (``--status-interval``): the last is the result;
all of them also give the series frame rows ``iops``/``bandwidth`` per op, where each row is the
rate over the interval since the previous report (difference of ``total_ios``/``io_bytes`` over
the difference of ``runtime``) and ``t`` is the report's ``elapsed`` seconds.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
from collections.abc import Mapping

import numpy as np
import orjson
import pandas as pd

from ebsstats import schema, units
from ebsstats.errors import ParseError
from ebsstats.io._columns import Const, is_constant
from ebsstats.io._common import Parsed, line_of, load_text, read_one
from ebsstats.io._registry import Reader, text_parser

__all__ = ["sniff", "parse", "read_fio", "read_fio_histogram", "histogram"]

TOOL = "fio"

# peak memory of a parse per byte of input, for the folder read's budget
# (benchmarks/reader_memory.py: measured 18 (a 5.2 MB report of 94,864 rows))
MEMORY_FACTOR = 40


_JSON_SNIFF = re.compile(r'"fio version"\s*:')
_TERSE_START = re.compile(r"^([2-5]);")
_NORMAL_SNIFF = re.compile(r"\(groupid=\d+, jobs=\d+\): err=\s*-?\d+")
_DOC_START = re.compile(r"^\{", re.M)
_PTS_LOG = re.compile(r"\A#####\r?\n[^\n]* - Run \d+\r?\n")
_VERSION = re.compile(r"(\d+)\.(\d+)")

_DIRS = (("read", "read"), ("write", "write"), ("trim", "trim"), ("sync", "sync"),
         ("mixed", "total"))
_RATE_METRICS = ("iops", "bandwidth")
_COUNT_METRICS = frozenset({"io_bytes", "runtime", "total_ios"})

_WORKLOAD = {"read": "seqread", "write": "seqwrite", "randread": "randread",
             "randwrite": "randwrite", "randrw": "randrw", "rw": "mixed", "readwrite": "mixed"}
_RW_OPS = {"read": ("read",), "randread": ("read",), "write": ("write",),
           "randwrite": ("write",), "rw": ("read", "write"), "readwrite": ("read", "write"),
           "randrw": ("read", "write"), "trim": ("trim",), "randtrim": ("trim",),
           "trimwrite": ("trim", "write"), "randtrimwrite": ("trim", "write")}
_OP_INDEX = {"read": 0, "write": 1, "trim": 2}
_BS_KEYS = ("bs", "blocksize", "bsrange", "blocksize_range", "bssplit")


# --------------------------------------------------------------------------------------------
# sniffing and dispatch
# --------------------------------------------------------------------------------------------

def sniff(head: str, name: str) -> str | None:
    """Say whether ``head`` (a file's first 64 KiB) is a fio report: ``"json"``, ``"terse"``,
    ``"normal"`` or ``None``.

    Content decides: a ``"fio version"`` key, a terse line (``3;fio-3.33;…`` / ``2;name;…`` with
    at least 100 ``;``-separated fields) or a normal-report job header ``(groupid=0, jobs=1): err=``.
    fio log files (``0, 31371, 0, 4096``) are left to :func:`ebsstats.io.fio_log.sniff`.

    Examples
    --------
    >>> sniff('{\\n  "fio version" : "fio-3.33",', "a.json")
    'json'
    >>> sniff("0, 31371, 0, 4096, 0\\n", "x_bw.1.log") is None
    True
    """
    if _PTS_LOG.search(head):
        return None  # a Phoronix Test Suite test log that embeds fio's text: the PTS reader's
    if _JSON_SNIFF.search(head):
        return "json"
    for line in head.splitlines()[:200]:
        line = line.rsplit("\r", 1)[-1]
        if _TERSE_START.match(line) and line.count(";") >= 100:
            return "terse"
    if _NORMAL_SNIFF.search(head):
        return "normal"
    return None


def parse(text: str, source: str, *, format: str | None = None, **options) -> Parsed:
    """Parse a fio report (JSON, json+, terse or normal text) into tidy records.

    Parameters
    ----------
    text : str
        The whole output as decoded text.
    source : str
        The file name, for ``source``/``run_id`` and error messages.
    format : {"json", "terse", "normal"}, optional
        Skip detection.

    Returns
    -------
    Parsed
        ``records`` for :func:`ebsstats._columns.frame`; ``series`` holds the ``--status-interval``
        rates; ``notes`` the warnings fio printed.

    Raises
    ------
    ebsstats.ParseError
        No fio report in the text (quoting fio's own message, e.g. ``fio: engine libaio not
        loadable``), truncated JSON (line and column), or a JSON path / line that does not hold
        what fio writes there.

    Examples
    --------
    >>> parse('{"fio version": "fio-3.33", "jobs": []}', "x.json")
    Traceback (most recent call last):
    ...
    ebsstats.errors.ParseError: x.json, $.jobs: expected at least one job (fio reports none when every job failed to start: see its error messages); found 'an empty list'
    """
    if options:
        raise TypeError(f"unexpected options {sorted(options)}")
    parsed = _parse(text, source, format)
    if parsed.columns is not None:  # rows as dicts for whoever looks at them
        parsed.records = records_of(parsed.columns)
    return parsed


def _parse(text: str, source: str, format: str | None = None) -> Parsed:
    """:func:`parse`, with the rows of a JSON report left as columns (the folder read's path)."""
    fmt = format or _detect(text)
    if fmt is None:
        raise _no_report(text, source)
    if fmt == "json":
        return _parse_json(text, source)
    if fmt == "terse":
        return _parse_terse(text, source)
    if fmt == "normal":
        return _parse_normal(text, source)
    raise ValueError(f"unknown fio format {fmt!r}")


def read_fio(path: str | os.PathLike, *, series: bool = False, **meta):
    """Read one fio output file (JSON, json+, terse/minimal or normal text) into the tidy frame.

    Parameters
    ----------
    path : str or path-like
        The file. Its content decides the format.
    series : bool
        Also return the series frame (``--status-interval`` JSON snapshots).
    **meta
        Metadata for every row (``config=``, ``volume=``, ``host=`` …); overrides the file.

    Returns
    -------
    pandas.DataFrame or (DataFrame, DataFrame)
        The results frame (passes :func:`ebsstats.validate`), and the series frame if asked.

    Examples
    --------
    >>> import ebsstats as es, pathlib
    >>> p = pathlib.Path("tests/fixtures/fio/small_json.json")
    >>> df = es.read_fio(p, config="demo") if p.exists() else None
    """
    return read_one(path, parse, meta=meta, series=series)


def _detect(text: str) -> str | None:
    if _JSON_SNIFF.search(text) and _DOC_START.search(text):
        return "json"
    for line in text.splitlines():
        line = line.rsplit("\r", 1)[-1]
        if _TERSE_START.match(line) and line.count(";") >= 100:
            return "terse"
    if _NORMAL_SNIFF.search(text):
        return "normal"
    return None


def _no_report(text: str, source: str) -> ParseError:
    """ParseError for a file without a fio report, quoting fio's message if there is one."""
    first = None
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.rsplit("\r", 1)[-1].strip()
        if not line:
            continue
        if line.startswith("fio:") or "error" in line.lower():
            return ParseError(source, i, "a fio report (JSON, terse or normal text)", found=line)
        if first is None:
            first = (i, line)
    if first is None:
        return ParseError(source, None, "a fio report (JSON, terse or normal text)",
                          found="an empty file")
    return ParseError(source, first[0], "a fio report (JSON, terse or normal text)",
                      found=first[1])


def _notes_of(chunk: str) -> list[str]:
    """fio's warnings from the text around a report: ETA (``Jobs:``) pieces dropped."""
    out = []
    for raw in chunk.splitlines():
        for piece in raw.split("\r"):
            piece = piece.strip()
            if piece and not piece.startswith("Jobs:"):
                out.append(piece)
    return out


def _version_tuple(version: str | None) -> tuple[int, int] | None:
    if not version:
        return None
    m = _VERSION.search(version)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _timestamp(seconds: float | None):
    if seconds is None or not math.isfinite(seconds):
        return None
    try:
        return pd.Timestamp(round(seconds * 1000), unit="ms", tz="UTC")
    except (OverflowError, ValueError):  # OutOfBoundsDatetime is a ValueError
        raise _Bad("$.timestamp_ms", "a run start time within 1677-2262 (timestamp_ms - "
                   "elapsed)", repr(seconds)) from None


# --------------------------------------------------------------------------------------------
# job options → metadata
# --------------------------------------------------------------------------------------------

def _strip_rw(rw: str | None) -> str | None:
    if rw is None:
        return None
    return str(rw).split(":", 1)[0].strip() or None


def workload_of(rw: str | None) -> str | None:
    """Normalised workload of a fio ``rw=`` value.

    >>> workload_of("randread"), workload_of("rw"), workload_of("randtrim"), workload_of(None)
    ('randread', 'mixed', 'other', None)
    """
    rw = _strip_rw(rw)
    if rw is None:
        return None
    return _WORKLOAD.get(rw, "other")


def _block_sizes(bs: str | None) -> dict[str, int | None]:
    """``bs=4k`` → every op 4096; ``bs=4k,64k`` → read 4096, write 65536; ranges → unknown."""
    out: dict[str, int | None] = {}
    if bs is None:
        return out
    parts = [p.strip() for p in str(bs).split(",")]
    sizes: list[int | None] = []
    for p in parts:
        try:
            size = int(units.binary_size(p)) if p else None
            sizes.append(size if size is None or 0 <= size < 2**63 else None)
        except (ValueError, OverflowError):
            sizes.append(None)
    if not sizes:
        return out
    last = sizes[-1]
    for op, i in _OP_INDEX.items():
        out[op] = sizes[i] if i < len(sizes) and sizes[i] is not None else (
            last if i >= len(sizes) else None)
    if len(sizes) == 1:
        out["total"] = out["sync"] = sizes[0]
    elif len({s for s in sizes if s is not None}) == 1 and None not in sizes:
        out["total"] = out["sync"] = sizes[0]
    return out


def _int_option(value) -> int | None:
    if value is None:
        return None
    try:
        n = int(str(value).strip())
    except ValueError:
        return None
    return n if 0 <= n < 2**63 else None  # like any option fio would not have accepted


def job_meta(opts: Mapping, defaults: bool) -> tuple[dict, dict[str, int | None]]:
    """Metadata record keys and per-op block sizes from a job's options (already merged).
    The two dicts may be shared between calls: read them, never change them."""
    key = (defaults, *map(opts.get, _META_KEYS, _ABSENTS))  # only the options it reads
    if not set(map(type, key[1:])) <= _STR_OR_ABSENT:  # fio prints strings; 1 == True
        return _job_meta(opts, defaults)
    hit = _JOB_META.get(key)
    if hit is None:
        hit = _job_meta(opts, defaults)
        if len(_JOB_META) < 1024:  # the jobs of a campaign repeat their options
            _JOB_META[key] = hit
    return hit


_JOB_META: dict[tuple, tuple[dict, dict]] = {}
_META_KEYS = ("rw", "readwrite", *_BS_KEYS, "iodepth", "numjobs", "ioengine", "direct", "size",
              "runtime", "rate_iops")  # every option _job_meta reads


class _Absent:
    """An option not given (a JSON null is given, as None)."""


_ABSENTS = (_Absent,) * len(_META_KEYS)
_STR_OR_ABSENT = frozenset({str, type})  # type(_Absent) is type


def _job_meta(opts: Mapping, defaults: bool) -> tuple[dict, dict[str, int | None]]:
    rw = opts.get("rw", opts.get("readwrite"))
    if rw is None and defaults:
        rw = "read"
    bs = None
    for k in _BS_KEYS:
        if k in opts:
            bs = opts[k] if k in ("bs", "blocksize") else None
            break
    else:
        if defaults:
            bs = "4k"
    iodepth = _int_option(opts.get("iodepth"))
    numjobs = _int_option(opts.get("numjobs"))
    if defaults:
        iodepth = 1 if iodepth is None else iodepth
        numjobs = 1 if numjobs is None else numjobs
    meta = {
        "workload": workload_of(rw),
        "iodepth": iodepth,
        "threads": numjobs,
        "rw": None if rw is None else str(rw),
        "ioengine": opts.get("ioengine"),
        "direct": opts.get("direct"),
        "job_size": opts.get("size"),
        "job_runtime": opts.get("runtime"),
        "rate_iops": opts.get("rate_iops"),
    }
    return {k: v for k, v in meta.items() if v is not None}, _block_sizes(bs)


# --------------------------------------------------------------------------------------------
# JSON
# --------------------------------------------------------------------------------------------

class _Bad(Exception):
    """Internal: a value at a JSON path is not what fio writes there."""

    def __init__(self, path: str, expected: str, found=None):
        super().__init__(path)
        self.path, self.expected, self.found = path, expected, found


def _num(obj: Mapping, key: str, path: str) -> float:
    try:
        v = obj[key]
    except (KeyError, TypeError):
        raise _Bad(f"{path}.{key}", "a number", "nothing") from None
    t = type(v)
    if t is float and 0.0 <= v < math.inf:  # the usual cases, checked inline
        return v
    if t is int and 0 <= v < 2**53:
        return float(v)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _Bad(f"{path}.{key}", "a number", repr(v))
    return _sane(v, f"{path}.{key}")


def _sane(v, path: str) -> float:
    """A statistic fio printed: finite and not negative (fio's counters, rates, latencies and
    CPU shares are all >= 0), else the position is refused."""
    try:
        f = float(v)
    except OverflowError:
        f = math.inf
    if not (f >= 0 and math.isfinite(f)):
        raise _Bad(path, "a finite, non-negative number", repr(v))
    return f


_DECODER = json.JSONDecoder()


_JSON_SPACE = " \t\n\r"
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_DIGITS = b"0" * 19


def _json_docs(text: str, source: str) -> tuple[list[tuple[dict, int]], list[str]]:
    """The JSON documents of a fio output (each with its line) and the text around them.

    One document with nothing after it (the usual report) is decoded by orjson, ~3x faster than
    the standard library; anything orjson refuses (several documents, fio's notes after the
    JSON, NaN, lone surrogates, deep nesting) goes through the standard decoder, which gives
    the same objects and the positioned errors."""
    start = 0 if text.startswith("{") else text.find("\n{")
    # orjson turns an integer beyond 64 bits into a float (the standard library keeps it an
    # int, which the checks then name as printed): such a number has 19 digits or more
    if start >= 0 and _LONG_DIGITS not in text.encode("utf-8", "surrogatepass").translate(
            _DIGITS_AS_ZERO):
        start += text[start] == "\n"
        try:
            obj = orjson.loads(text[start:] if start else text)
        except orjson.JSONDecodeError:
            pass
        else:
            rest = len(text.rstrip(_JSON_SPACE))
            return [(obj, line_of(text, start))], [text[:start], text[rest:]]
    return _json_docs_stdlib(text, source)


def _json_docs_stdlib(text: str, source: str) -> tuple[list[tuple[dict, int]], list[str]]:
    decoder = _DECODER
    docs: list[tuple[dict, int]] = []
    between: list[str] = []
    pos = 0
    start = 0 if text.startswith("{") else text.find("\n{")
    while start >= 0:
        if text[start] == "\n":
            start += 1
        try:
            obj, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError as exc:
            raise ParseError(source, f"line {exc.lineno}, column {exc.colno}",
                             "a complete fio JSON document", found=exc.msg) from exc
        except RecursionError as exc:
            raise ParseError(source, line_of(text, start), "a fio JSON document",
                             found="nesting too deep") from exc
        except ValueError as exc:  # an integer of more than 4,300 digits
            raise ParseError(source, line_of(text, start), "a fio JSON document with numbers "
                             "Python can convert", found=str(exc)) from exc
        between.append(text[pos:start])
        docs.append((obj, line_of(text, start)))
        pos = end
        start = text.find("\n{", pos)
    between.append(text[pos:])
    return docs, between


def _parse_json(text: str, source: str) -> Parsed:
    docs, between = _json_docs(text, source)
    if not docs:
        raise _no_report(text, source)
    notes: list[str] = []
    for chunk in between:
        if _NORMAL_SNIFF.search(chunk):  # --output-format=normal,json: same results as text
            notes.append("the normal text report beside the JSON was not read (the JSON holds "
                         "the same results)")
            notes.extend(n for n in _notes_of(chunk) if n.startswith(("fio:", "note:"))
                         or "warning" in n.lower())
            continue
        notes.extend(_notes_of(chunk))
    for obj, line in docs:
        if not isinstance(obj, dict) or not ("jobs" in obj or "client_stats" in obj):
            raise ParseError(source, f"line {line}, $",
                             "a fio JSON document with 'jobs' or 'client_stats'",
                             found=_keys(obj))
    multi = len(docs) > 1
    final, final_line = docs[-1]
    prefix = f"document {len(docs)} (line {final_line}), " if multi else ""
    try:
        records, plus = _json_records(final, source, prefix)
        series = [_status_series(docs, source)] if multi else []
    except _Bad as bad:
        raise ParseError(source, prefix + bad.path, bad.expected, found=bad.found) from None
    version = final.get("fio version")
    return Parsed(tool=TOOL, format="json+" if plus else "json",
                  version=None if version is None else str(version), columns=records,
                  series=series, notes=notes)


def _keys(obj) -> str:
    if isinstance(obj, dict):
        return "keys " + ", ".join(list(obj)[:6])
    return type(obj).__name__


def _job_list(doc: dict) -> tuple[str, list]:
    key = "jobs" if "jobs" in doc else "client_stats"
    jobs = doc[key]
    if not isinstance(jobs, list):
        raise _Bad(f"$.{key}", "a list of job objects", type(jobs).__name__)
    return key, jobs


def _end_time(doc: dict) -> float | None:
    if isinstance(doc.get("timestamp_ms"), (int, float)):
        return _sane(doc["timestamp_ms"], "$.timestamp_ms") / 1000.0
    if isinstance(doc.get("timestamp"), (int, float)):
        return _sane(doc["timestamp"], "$.timestamp")
    return None


def _json_records(doc: dict, source: str, prefix: str) -> tuple[tuple[dict, int], bool]:
    version = doc.get("fio version")
    version = None if version is None else str(version)
    vt = _version_tuple(version)
    defaults = vt is not None and vt[0] >= 3
    gopts = doc.get("global options") or {}
    if not isinstance(gopts, dict):
        raise _Bad("$.global options", "an object", type(gopts).__name__)
    end = _end_time(doc)
    key, jobs = _job_list(doc)
    if not jobs:  # 0 rows must say why
        raise _Bad(f"$.{key}", "at least one job (fio reports none when every job failed "
                   "to start: see its error messages)", "an empty list")
    bases: list[tuple[dict, int]] = []  # each job's constants and its number of rows
    ops: list = []
    pos: list = []
    metrics: list = []
    values: list = []
    bss: list = []
    plus = False
    for i, job in enumerate(jobs):
        path = f"$.{key}[{i}]"
        if not isinstance(job, dict):
            raise _Bad(path, "a job object", type(job).__name__)
        jopts = job.get("job options") or {}
        if not isinstance(jopts, dict):
            raise _Bad(f"{path}.job options", "an object", type(jopts).__name__)
        name = job.get("jobname")
        if not isinstance(name, str):
            raise _Bad(f"{path}.jobname", "the job name", repr(name))
        opts = {**gopts, **jopts}
        meta, bsizes = job_meta(opts, defaults)
        error = job.get("error", 0)
        if not isinstance(error, int):
            raise _Bad(f"{path}.error", "an integer", repr(error))
        flags = []
        if name == "All clients" and key == "client_stats":
            flags.append("aggregate")
        if error:
            flags.append(f"error={error}")
        base = {"source": source, "run_key": path, "tool": TOOL, "tool_version": version,
                "test": name, "job": name, "groupid": str(job.get("groupid", "")), **meta}
        if flags:
            base["flag"] = ",".join(flags)
        if isinstance(job.get("hostname"), str):
            base["host"] = job["hostname"]
        # the job's rows as parallel lists (op, position, metric, value): no tuple per row
        jops: list = []
        jpos: list = []
        jmet: list = []
        jval: list = []
        runtimes = [0.0]
        present = [k for k, _ in _DIRS if isinstance(job.get(k), dict)]
        for dkey, op in _DIRS:
            d = job.get(dkey)
            if not isinstance(d, dict):
                continue
            k0 = len(jval)
            got, has_bins = _direction(d, f"{path}.{dkey}", dkey == "sync", jpos, jmet, jval)
            plus = plus or has_bins
            if not got:
                continue
            runtimes.append(float(d.get("runtime", 0) or 0))
            jops += [op] * (len(jval) - k0)
        if error:  # rates of a failed job: NaN where fio printed none, never a silent gap
            _failed_rates(path, meta, present, jops, jpos, jmet, jval)
        for ckey, metric in (("usr_cpu", "cpu_usr"), ("sys_cpu", "cpu_sys")):
            if ckey in job:
                jops.append("total")
                jpos.append(f"{path}.{ckey}")
                jmet.append(metric)
                jval.append(_num(job, ckey, path))
        if isinstance(job.get("job_runtime"), (int, float)):
            runtimes.append(_sane(job["job_runtime"], f"{path}.job_runtime"))
        elapsed = job.get("elapsed")
        if end is None:
            start = None
        elif isinstance(elapsed, (int, float)) and elapsed > 0:
            start = end - _sane(elapsed, f"{path}.elapsed")
        else:
            start = end - max(runtimes) / 1000.0
        base["timestamp"] = _timestamp(start)
        if error:
            jval = [math.nan if metric not in _COUNT_METRICS and value == 0.0 else value
                    for metric, value in zip(jmet, jval, strict=True)]
        bases.append((base, len(jval)))
        ops += jops
        pos += [prefix + x for x in jpos] if prefix else jpos
        metrics += jmet
        values += jval
        bss += map(bsizes.get, jops)
    cols, n = _job_columns(bases)
    cols.update(op=ops, block_size=bss, position=pos, metric=metrics, value=values)
    return (cols, n), plus


def _failed_rates(path: str, meta: dict, present: list, jops: list, jpos: list, jmet: list,
                  jval: list) -> None:
    """NaN rates for the directions a failed job should have reported and did not."""
    done = set(zip(jops, jmet, strict=True))
    wanted = [o for o in jops if o not in ("total", "sync")]
    if "mixed" in present:
        wanted.append("total")
    else:
        wanted += _RW_OPS.get(_strip_rw(meta.get("rw")) or "", ("total",))
    for op in dict.fromkeys(wanted):
        dkey = "mixed" if op == "total" else op
        for m in _RATE_METRICS:
            if (op, m) not in done:
                jops.append(op)
                jpos.append(f"{path}.{dkey}.{m}")
                jmet.append(m)
                jval.append(math.nan)


def _job_columns(bases: list[tuple[dict, int]]) -> tuple[dict, int]:
    """The constant columns of every job of a report (what :func:`columns_of` makes of the
    records, without a dict per row): a job's constants repeated over its rows."""
    n = sum(m for _, m in bases)
    cols: dict = {}
    keys = dict.fromkeys(k for base, _ in bases for k in base)
    for k in keys:
        if len(bases) == 1:
            cols[k] = Const(bases[0][0][k], n)
            continue
        per_job = [base.get(k) for base, m in bases if m]  # judged per job, not per row
        if not per_job or is_constant(per_job):
            cols[k] = Const(per_job[0] if per_job else bases[0][0].get(k), n)
            continue
        vals: list = []
        for base, m in bases:
            vals += [base.get(k)] * m
        cols[k] = vals
    return cols, n


def records_of(columns: tuple[dict, int]) -> list[dict]:
    """Columns ``({name: list | Const}, n)`` as a list of row dicts."""
    cols, n = columns
    names = sorted(cols, key=str)
    lists = [[c.value] * c.n if type(c) is Const else c for c in map(cols.__getitem__, names)]
    return [dict(zip(names, row, strict=True)) for row in zip(*lists, strict=True)] if n else []


def _direction(d: dict, path: str, is_sync: bool, pos: list, met: list, val: list):
    """Append the rows (position, metric, value) of one direction object to the parallel lists
    ``pos``, ``met``, ``val``; returns ``(whether it had any, whether it has histogram bins)``."""
    total_ios = _num(d, "total_ios", path) if "total_ios" in d else None
    runtime = _num(d, "runtime", path) if "runtime" in d else None
    has_bins = False
    if is_sync:
        if not total_ios:
            return False, False
    elif not runtime and not total_ios:
        return False, False
    k0 = len(val)

    def add(position, metric, value):
        pos.append(position)
        met.append(metric)
        val.append(value)

    if not is_sync:
        if "io_bytes" in d:
            io = _num(d, "io_bytes", path)
            # io_kbytes beside io_bytes (fio >= 2.21): io_bytes is bytes; before: KiB
            add(f"{path}.io_bytes", "io_bytes", io if "io_kbytes" in d else io * units.KiB)
        if runtime:
            if "bw_bytes" in d:
                add(f"{path}.bw_bytes", "bandwidth", _num(d, "bw_bytes", path))
            else:
                add(f"{path}.bw", "bandwidth", _num(d, "bw", path) * units.KiB)
            add(f"{path}.iops", "iops", _num(d, "iops", path))
        add(f"{path}.runtime", "runtime", (runtime or 0.0) * units.MS)
    if total_ios is not None:
        add(f"{path}.total_ios", "total_ios", total_ios)
    for fam in ("slat", "clat", "lat"):
        if isinstance(d.get(f"{fam}_ns"), dict):
            key, scale = f"{fam}_ns", units.NS
        elif isinstance(d.get(fam), dict):
            key, scale = fam, units.US
        else:
            continue
        st = d[key]
        fpath = f"{path}.{key}"
        has_bins = has_bins or isinstance(st.get("bins"), dict)
        n = st.get("N")
        if n == 0:
            continue
        vals = _plain(st, _STAT_KEYS)
        if vals is None:  # something unusual: the value-by-value checks, in their order
            lo, hi, mean = (_num(st, k, fpath) for k in ("min", "max", "mean"))
            if n is None and lo == 0 and hi == 0 and mean == 0:
                continue  # not measured (e.g. slat of a sync engine)
            vals = [lo, hi, mean, _num(st, "stddev", fpath)]
        elif n is None and vals[0] == 0 and vals[1] == 0 and vals[2] == 0:
            continue
        pos += _positions(fpath, _STAT_KEYS)
        met += _STAT_METRICS[fam]
        val += [v * scale for v in vals]
        pct = st.get("percentile")
        if isinstance(pct, dict):
            _percentiles(pct, fam, fpath, scale, pos, met, val)
    if not is_sync:
        samples = d.get("bw_samples")
        if ("bw_max" in d) and (samples > 0 if isinstance(samples, (int, float))
                                else _num(d, "bw_max", path) > 0):
            vals = _plain(d, _BW_KEYS) or [_num(d, k, path) for k in _BW_KEYS]
            pos += _positions(path, _BW_KEYS)
            met += _BW_METRICS
            val += [v * units.KiB for v in vals]
            if "bw_agg" in d:
                add(f"{path}.bw_agg", "bw_agg", _num(d, "bw_agg", path))
        samples = d.get("iops_samples")
        if "iops_max" in d and (samples > 0 if isinstance(samples, (int, float))
                                else _num(d, "iops_max", path) > 0):
            vals = _plain(d, _IOPS_KEYS) or [_num(d, k, path) for k in _IOPS_KEYS]
            pos += _positions(path, _IOPS_KEYS)
            met += _IOPS_KEYS
            val += map(float, vals)
    if any(map(math.isinf, val[k0:])):  # one pass in C; then find which
        for position, value in zip(pos[k0:], val[k0:], strict=True):
            if math.isinf(value):  # finite as printed, not once in B/s or s (1e308 KiB/s)
                raise _Bad(position, "a number that stays finite in canonical units",
                           "overflow")
    return True, has_bins


_STAT_KEYS = ("min", "max", "mean", "stddev")
_STAT_METRICS = {fam: tuple(f"{fam}_{k}" for k in _STAT_KEYS) for fam in ("slat", "clat", "lat")}
_BW_KEYS = ("bw_min", "bw_max", "bw_mean", "bw_dev")
_BW_METRICS = ("bandwidth_min", "bandwidth_max", "bandwidth_mean", "bandwidth_stddev")
_IOPS_KEYS = ("iops_min", "iops_max", "iops_mean", "iops_stddev")  # metric names as the keys

# (path, keys) -> the positions f"{path}.{key}": the paths and keys repeat from file to file
_POSITIONS: dict[tuple[str, tuple], tuple[str, ...]] = {}


def _positions(path: str, keys: tuple[str, ...]) -> tuple[str, ...]:
    got = _POSITIONS.get((path, keys))
    if got is None:
        got = tuple(f"{path}.{k}" for k in keys)
        if len(_POSITIONS) < 4096:
            _POSITIONS[path, keys] = got
    return got


def _plain(obj: dict, keys: tuple[str, ...]) -> list | None:
    """The values at ``keys`` when every one is a plain statistic (an int or float, not NaN,
    ``0 <= v < 2**53``: checked together, in C), else ``None`` (then each value is checked on
    its own, and the first bad one named)."""
    try:
        vals = [obj[k] for k in keys]
    except KeyError:
        return None
    if set(map(type, vals)) <= _NUMBER_TYPES:
        try:
            if min(vals) >= 0 and max(vals) < _PLAIN_MAX and not math.isnan(math.fsum(vals)):
                return vals
        except OverflowError:
            pass
    return None


# (family, path of the statistics object, percentile keys) -> (positions, metric names, which
# values are kept): a report's percentile lists repeat from job to job and file to file
_PCT_PLANS: dict[tuple, tuple[tuple, tuple, tuple | None]] = {}
_PLAIN_MAX = 2.0**53  # values below this (ints exact, floats finite) need no further check


def _percentiles(pct: dict, fam: str, fpath: str, scale: float, pos: list, met: list,
                 val: list) -> None:
    """Append the rows of one ``percentile`` object. Keys seen before under the same path are
    not parsed again; their values are checked together (types, then ``0 <= v < 2**53`` and
    not NaN, in C) and anything unusual goes through the value-by-value checks."""
    keys = tuple(pct)
    plan = _PCT_PLANS.get((fam, fpath, keys))
    if plan is not None:
        vals = list(pct.values())
        if plan[2] is not None:
            vals = [vals[i] for i in plan[2]]
        if not vals:
            return
        if set(map(type, vals)) <= _NUMBER_TYPES:
            try:
                ok = min(vals) >= 0 and max(vals) < _PLAIN_MAX and not math.isnan(math.fsum(vals))
            except OverflowError:
                ok = False
            if ok:
                pos += plan[0]
                met += plan[1]
                val += [v * scale for v in vals]
                return
    k0 = len(val)
    _percentiles_checked(pct, fam, fpath, scale, pos, met, val)
    if plan is None and len(_PCT_PLANS) < 4096:  # every key is valid: remember the layout
        kept = [i for i, k in enumerate(keys) if float(k) > 0]
        _PCT_PLANS[fam, fpath, keys] = (tuple(pos[k0:]), tuple(met[k0:]),
                                        None if len(kept) == len(keys) else tuple(kept))


_NUMBER_TYPES = frozenset({int, float})


def _percentiles_checked(pct: dict, fam: str, fpath: str, scale: float, pos: list, met: list,
                         val: list) -> None:
    for k, v in pct.items():
        name = _PCT_NAMES.get((fam, k))
        tv = type(v)
        if name and ((tv is float and 0.0 <= v < math.inf) or
                     (tv is int and 0 <= v < 2**53)):  # the usual case, checked inline
            pos.append(f'{fpath}.percentile["{k}"]')
            met.append(name)
            val.append(v * scale)
            continue
        try:
            p = float(k)
        except ValueError:
            raise _Bad(f"{fpath}.percentile", "percentile keys such as '99.900000'",
                       k) from None
        if not p <= 100:  # also NaN
            raise _Bad(f"{fpath}.percentile", "percentile keys from 0 to 100", k)
        if p <= 0:
            continue  # 2.x pads the list with "0.00": 0
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise _Bad(f'{fpath}.percentile["{k}"]', "a number", repr(v))
        name = _pct_name(fam, k)
        if len(_PCT_NAMES) < 4096:
            _PCT_NAMES[fam, k] = name
        pos.append(f'{fpath}.percentile["{k}"]')
        met.append(name)
        val.append(_sane(v, f'{fpath}.percentile["{k}"]') * scale)


# (family, percentile key) -> metric name, for keys already seen valid (0 < p <= 100)
_PCT_NAMES: dict[tuple[str, str], str] = {}


@functools.lru_cache(maxsize=4096)
def _pct_name(fam: str, key: str) -> str:
    return schema.percentile_metric(fam, key)


def _status_series(docs: list[tuple[dict, int]], source: str) -> pd.DataFrame:
    """Interval rates from concatenated ``--status-interval`` reports (see module notes)."""
    prev: dict[tuple[str, str], tuple[float, float, float]] = {}
    cols: dict[str, list] = {k: [] for k in ("run_id", "source", "test", "op", "metric", "t",
                                             "value", "unit", "block_size")}
    for doc, _line in docs:
        key, jobs = _job_list(doc)
        defaults = (_version_tuple(str(doc.get("fio version"))) or (0, 0))[0] >= 3
        gopts = doc.get("global options") or {}
        for i, job in enumerate(jobs):
            path = f"$.{key}[{i}]"
            if not isinstance(job, dict):
                raise _Bad(path, "a job object", type(job).__name__)
            opts = {**gopts, **(job.get("job options") or {})}
            _meta, bsizes = job_meta(opts, defaults)
            rid = schema.run_id(source, path)
            for dkey, op in _DIRS:
                d = job.get(dkey)
                if dkey == "sync" or not isinstance(d, dict):
                    continue
                dpath = f"{path}.{dkey}"
                runtime = _num(d, "runtime", dpath)
                ios = _num(d, "total_ios", dpath) if "total_ios" in d else None
                io = _num(d, "io_bytes", dpath)
                io = io if "io_kbytes" in d else io * units.KiB
                elapsed = job.get("elapsed")
                t = (_sane(elapsed, f"{path}.elapsed") if isinstance(elapsed, (int, float))
                     else runtime * units.MS)
                p_rt, p_ios, p_io = prev.get((path, op), (0.0, 0.0, 0.0))
                prev[(path, op)] = (runtime, ios or 0.0, io)
                dt = (runtime - p_rt) * units.MS
                if dt <= 0:
                    continue
                pairs = [("bandwidth", "B/s", (io - p_io) / dt)]
                if ios is not None:
                    pairs.insert(0, ("iops", "IO/s", (ios - p_ios) / dt))
                for metric, unit, value in pairs:
                    if not (value >= 0 and math.isfinite(value)):
                        raise _Bad(f"{dpath}.{'total_ios' if metric == 'iops' else 'io_bytes'}",
                                   "a count that does not decrease from one status report to "
                                   "the next", repr(value))
                    cols["run_id"].append(rid)
                    cols["source"].append(source)
                    cols["test"].append(job.get("jobname"))
                    cols["op"].append(op)
                    cols["metric"].append(metric)
                    cols["t"].append(t)
                    cols["value"].append(value)
                    cols["unit"].append(unit)
                    cols["block_size"].append(bsizes.get(op))
    return pd.DataFrame(cols, dtype=object)  # typed once, with every file's series (_common.series_of)


# --------------------------------------------------------------------------------------------
# json+ histogram
# --------------------------------------------------------------------------------------------

def histogram(text: str, source: str) -> pd.DataFrame:
    """Latency histogram of a json+ report: one row per (job entry, op, latency bin).

    Columns: ``run_id`` (the same as the results frame's), ``source``, ``test``, ``op``,
    ``latency`` (``clat``/``lat``/``slat``: the latency the bins belong to), ``lat`` (bin value in
    s: fio prints each bin's midpoint in ns) and ``count`` (I/Os in the bin). Empty when the
    report is plain JSON. Only the last document of a ``--status-interval`` stream is used.

    Examples
    --------
    >>> h = histogram('{"fio version": "fio-3.33", "jobs": []}', "x.json")
    >>> list(h.columns)
    ['run_id', 'source', 'test', 'op', 'latency', 'lat', 'count']
    """
    docs, _ = _json_docs(text, source)
    if not docs:
        raise _no_report(text, source)
    doc = docs[-1][0]
    cols: dict[str, list] = {k: [] for k in ("run_id", "source", "test", "op", "latency",
                                             "lat", "count")}
    try:
        if not isinstance(doc, dict) or not ("jobs" in doc or "client_stats" in doc):
            raise _Bad("$", "a fio JSON document with 'jobs'", _keys(doc))
        key, jobs = _job_list(doc)
        for i, job in enumerate(jobs):
            path = f"$.{key}[{i}]"
            rid = schema.run_id(source, path)
            for dkey, op in _DIRS:
                d = job.get(dkey) if isinstance(job, dict) else None
                if not isinstance(d, dict):
                    continue
                for fam in ("slat", "clat", "lat"):
                    st = d.get(f"{fam}_ns")
                    bins = st.get("bins") if isinstance(st, dict) else None
                    if not isinstance(bins, dict):
                        continue
                    for k, v in bins.items():
                        try:
                            lat = float(k) * units.NS
                        except ValueError:
                            raise _Bad(f"{path}.{dkey}.{fam}_ns.bins", "latency keys (ns)",
                                       k) from None
                        cols["run_id"].append(rid)
                        cols["source"].append(source)
                        cols["test"].append(job.get("jobname"))
                        cols["op"].append(op)
                        cols["latency"].append(fam)
                        cols["lat"].append(lat)
                        cols["count"].append(v)
    except _Bad as bad:
        raise ParseError(source, bad.path, bad.expected, found=bad.found) from None
    out = pd.DataFrame(cols)
    out = out.astype({"run_id": schema.STRING, "source": schema.STRING, "test": schema.STRING,
                      "op": pd.CategoricalDtype(schema.OPS), "latency": "category",
                      "lat": np.float64})
    try:
        out["count"] = pd.to_numeric(out["count"], errors="raise").astype(np.int64)
    except (ValueError, TypeError) as exc:
        raise ParseError(source, "$.jobs[*].*.clat_ns.bins", "integer bin counts",
                         found=str(exc)) from exc
    return out


def read_fio_histogram(path: str | os.PathLike) -> pd.DataFrame:
    """Read the latency histogram (``bins``) of a fio ``--output-format=json+`` file.

    See :func:`histogram` for the columns; ``run_id`` matches :func:`read_fio` on the same path.

    Examples
    --------
    >>> import pathlib
    >>> p = pathlib.Path("tests/fixtures/fio/small_jsonplus.json")
    >>> h = read_fio_histogram(p) if p.exists() else None
    """
    return histogram(load_text(path), str(path))


# --------------------------------------------------------------------------------------------
# terse / minimal
# --------------------------------------------------------------------------------------------

_TERSE_DIR = 41  # fields of one direction block in v2-v4 (v5: + 6)
_TERSE_TAIL = 34  # cpu 5 + io depths 7 + lat us 10 + lat ms 12


def _parse_terse(text: str, source: str) -> Parsed:
    records: list[dict] = []
    notes: list[str] = []
    version = None
    nterse = 0
    lines = text.splitlines()
    for lineno, raw in enumerate(lines, 1):
        pieces = raw.split("\r")
        line = pieces[-1]
        notes.extend(p.strip() for p in pieces[:-1] if p.strip() and
                     not p.strip().startswith("Jobs:"))
        if not line.strip():
            continue
        if line.startswith(";"):
            continue  # client/server: disk util on its own line
        if not (_TERSE_START.match(line) and line.count(";") >= 100):
            notes.append(line.strip())
            continue
        nterse += 1
        try:
            recs, v = _terse_line(line.split(";"), source, lineno)
        except (ValueError, IndexError, OverflowError) as exc:
            raise ParseError(source, lineno, "a fio terse line", found=str(exc)) from exc
        version = version or v
        records.extend(recs)
    if not nterse:
        raise _no_report(text, source)
    return Parsed(tool=TOOL, format="terse", version=version, records=records, notes=notes)


def _f(fields: list[str], i: int, lineno: int, what: str) -> float:
    text = fields[i].strip().rstrip("%")
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"field {i} ({what}) is {fields[i]!r}, not a number") from None
    if not (value >= 0 and math.isfinite(value)):
        raise ValueError(f"field {i} ({what}) is {fields[i]!r}, not a finite, non-negative "
                         "number")
    return value


def _terse_line(f: list[str], source: str, lineno: int) -> tuple[list[dict], str | None]:
    tv = int(f[0])
    if tv == 2:
        version, name, gid, err, pos = None, f[1], f[2], f[3], 4
    else:
        version, name, gid, err, pos = f[1], f[2], f[3], f[4], 5
    dsize = _TERSE_DIR + (6 if tv == 5 else 0)
    if tv == 2:
        ndirs = 3 if len(f) >= pos + 3 * dsize + _TERSE_TAIL else 2
    else:
        ndirs = 2 if tv == 3 else 3
    need = pos + ndirs * dsize + _TERSE_TAIL
    if len(f) < need:
        raise ValueError(f"{len(f)} fields, terse v{tv} has at least {need}")
    error = int(err)
    flags = []
    if name == "All clients":
        flags.append("aggregate")
    if error:
        flags.append(f"error={error}")
    base = {"source": source, "run_key": f"line {lineno}", "tool": TOOL, "tool_version": version,
            "test": name, "job": name, "groupid": gid}
    if flags:
        base["flag"] = ",".join(flags)
    rows: list[tuple[str, int, str, float]] = []  # op, field index, metric, value
    ops = ("read", "write", "trim")[:ndirs]
    for k, op in enumerate(ops):
        s = pos + k * dsize
        rows.extend(_terse_direction(f, s, op, tv, lineno, bool(error)))
    cpu = pos + ndirs * dsize
    rows.append(("total", cpu, "cpu_usr", _f(f, cpu, lineno, "usr cpu")))
    rows.append(("total", cpu + 1, "cpu_sys", _f(f, cpu + 1, lineno, "sys cpu")))
    # tail: disk util groups (9 fields each), then total errors;first error, then description
    rest = f[need:]
    while len(rest) >= 9 and not _is_number(rest[0]) and rest[8].endswith("%"):
        rest = rest[9:]
    if len(rest) >= 2 and rest[0].strip().isdigit() and rest[1].strip().lstrip("-").isdigit():
        rest = rest[2:]
    desc = ";".join(rest).strip()
    if desc:
        base["description"] = desc
    for _op, idx, metric, value in rows:
        if math.isinf(value):  # finite as printed, but not once in B/s or s (1e308 KiB/s)
            raise ValueError(f"field {idx} ({metric}) overflows in canonical units")
    if error and not any(r[2] in _RATE_METRICS for r in rows):
        # a failed job with no direction left: NaN rates (terse does not say which op it ran)
        rows.extend(("total", pos, m, math.nan) for m in _RATE_METRICS)
    records = []
    for op, idx, metric, value in rows:
        if error and metric not in _COUNT_METRICS and value == 0.0:
            value = math.nan
        rec = dict(base)
        rec["op"] = op
        rec["position"] = f"line {lineno}, field {idx}"
        rec["metric"] = metric
        rec["value"] = value
        records.append(rec)
    return records, version


def _is_number(text: str) -> bool:
    try:
        float(text.strip().rstrip("%"))
    except ValueError:
        return False
    return True


def _terse_direction(f, s, op, tv, lineno, error):
    out = []
    io_kib = _f(f, s, lineno, "io KiB")
    bw = _f(f, s + 1, lineno, "bw KiB/s")
    iops = _f(f, s + 2, lineno, "iops")
    runtime = _f(f, s + 3, lineno, "runtime ms")
    if runtime == 0 and io_kib == 0:
        lats = [_f(f, s + j, lineno, "latency stat") for j in (4, 5, 6, 8, 9, 10, 32, 33, 34)]
        if not error or not any(lats):
            return out  # empty direction (a failed job keeps one that has latencies)
    out.append((op, s, "io_bytes", io_kib * units.KiB))
    if runtime or error:
        out.append((op, s + 1, "bandwidth", bw * units.KiB))
        out.append((op, s + 2, "iops", iops))
    out.append((op, s + 3, "runtime", runtime * units.MS))
    for fam, at in (("slat", s + 4), ("clat", s + 8), ("lat", s + 32)):
        lo, hi, mean, sd = (_f(f, at + j, lineno, f"{fam} stat") for j in range(4))
        if lo == 0 and hi == 0 and mean == 0:
            continue
        for j, (m, v) in enumerate((("min", lo), ("max", hi), ("mean", mean), ("stddev", sd))):
            out.append((op, at + j, f"{fam}_{m}", v * units.US))
        if fam == "clat":
            for j in range(20):
                cell = f[s + 12 + j]
                p, _, v = cell.partition("%=")
                if not _:
                    raise ValueError(f"field {s + 12 + j} is {cell!r}, expected 'P%=value'")
                if not float(p) <= 100 or not (float(v) >= 0 and math.isfinite(float(v))):
                    raise ValueError(f"field {s + 12 + j} is {cell!r}, expected 'P%=value' "
                                     "with 0 <= P <= 100 and a finite, non-negative value")
                if float(p) <= 0:
                    continue  # unused slot "0%=0"
                out.append((op, s + 12 + j, schema.percentile_metric("clat", p),
                            float(v) * units.US))
    b = s + 36
    bmin, bmax, agg, bmean, bsd = (_f(f, b + j, lineno, "bw sample stat") for j in range(5))
    samples = _f(f, s + 41, lineno, "bw samples") if tv == 5 else None
    if (samples > 0) if samples is not None else (bmax > 0):
        out += [(op, b, "bandwidth_min", bmin * units.KiB),
                (op, b + 1, "bandwidth_max", bmax * units.KiB),
                (op, b + 2, "bw_agg", agg),
                (op, b + 3, "bandwidth_mean", bmean * units.KiB),
                (op, b + 4, "bandwidth_stddev", bsd * units.KiB)]
    if tv == 5:
        i = s + 42
        imin, imax, imean, isd, isamp = (_f(f, i + j, lineno, "iops sample stat")
                                         for j in range(5))
        if isamp > 0:
            out += [(op, i, "iops_min", imin), (op, i + 1, "iops_max", imax),
                    (op, i + 2, "iops_mean", imean), (op, i + 3, "iops_stddev", isd)]
    return out


# --------------------------------------------------------------------------------------------
# normal (human) text
# --------------------------------------------------------------------------------------------

_N_VERSION = re.compile(r"^fio[- ](\d[\w.\-+]*)\s*$")
_N_BANNER = re.compile(r"^hostname=([^,]+),.*\bfio=(fio-[^,\s]+)")
_N_HEADER = re.compile(r"^(.+?): \(g=(\d+)\): rw=([^,]+), bs=(.*), ioengine=([^,]+), "
                       r"iodepth=(\d+)")
_N_JOB = re.compile(r"^(.+?): \(groupid=(\d+), jobs=(\d+)\): err=\s*(-?\d+)")
_N_DIR3 = re.compile(r"^\s+(read|write|trim|mixed)\s*: IOPS=([\d.]+[kMGT]?), "
                     r"BW=([\d.]+)\s*([KMGTP]?i?B)/s \([^)]*\)\(([\d.]+)\s*([KMGTP]?i?B)/"
                     r"(\d+)msec\)")
_N_DIR2 = re.compile(r"^\s+(read|write|trim|mixed)\s*: io=\s*([\d.]+)\s*([KMGTP]?B),\s*"
                     r"bw=\s*([\d.]+)\s*([KMGTP]?B)/s,\s*iops=\s*([\d.]+[kMGT]?)\s*,\s*"
                     r"runt=\s*(\d+)msec")
_N_LAT = re.compile(r"^\s+(slat|clat|lat)\s*\((usec|nsec|msec)\)\s*:\s*(min=.*)$")
_N_PCT_HEAD = re.compile(r"^\s+(slat|clat|lat) percentiles \((usec|nsec|msec)\):")
_N_PCT = re.compile(r"([\d.]+)th=\[\s*([\d.]+[kMG]?)\]")
_N_BW = re.compile(r"^\s+bw \(([^)]*)\)\s*:\s*(min=.*)$")
_N_IOPS = re.compile(r"^\s+iops\s*:\s*(min=.*)$")
_N_CPU = re.compile(r"^\s+cpu\s*:\s*usr=([\d.]+)%,\s*sys=([\d.]+)%")
_N_ISSUED3 = re.compile(r"issued rwts: total=(\d+),(\d+),(\d+),(\d+)")
_N_ISSUED2 = re.compile(r"issued\s*: total=r=(\d+)/w=(\d+)(?:/d=(\d+))?")
_N_TIME = {"usec": units.US, "nsec": units.NS, "msec": units.MS}
_N_OP = {"read": "read", "write": "write", "trim": "trim", "mixed": "total"}


def _kv(text: str) -> dict[str, str]:
    out = {}
    for part in text.split(","):
        k, sep, v = part.partition("=")
        if sep:
            out[k.strip()] = v.strip().rstrip("%").strip()
    return out


def _bytes_unit(unit: str) -> float:
    """fio's printed byte units: 3.x ``KiB``/``MiB`` (binary) or ``kB``/``MB`` (decimal, with
    kb_base=1000); 2.x ``KB``/``MB`` are binary (fio 2.x meant KiB)."""
    if unit in ("B", ""):
        return 1.0
    prefix = unit[0].lower()
    if "i" in unit or unit.isupper():
        return float(units.KiB ** ("kmgtp".index(prefix) + 1))
    return float(1000 ** ("kmgtp".index(prefix) + 1))


def _normal_bs(bs: str) -> dict[str, int | None]:
    """``(R) 4096B-4096B, (W) …`` (3.x) or ``4K-4K/4K-4K/4K-4K`` (2.x) → per-op block size."""
    out: dict[str, int | None] = {}
    pairs = re.findall(r"\((R|W|T)\)\s*([\w.]+)-([\w.]+)", bs)
    if pairs:
        items = [({"R": "read", "W": "write", "T": "trim"}[k], lo, hi) for k, lo, hi in pairs]
    else:
        items = []
        for op, part in zip(("read", "write", "trim"), bs.split("/"), strict=False):
            lo, _, hi = part.strip().partition("-")
            items.append((op, lo, hi or lo))
    for op, lo, hi in items:
        try:
            a, b = units.binary_size(lo), units.binary_size(hi)
        except ValueError:
            continue
        out[op] = int(a) if a == b and 0 <= a < 2**63 else None
    known = {v for v in out.values()}
    if len(known) == 1 and None not in known:
        out["total"] = out["sync"] = next(iter(known))
    return out


def _parse_normal(text: str, source: str) -> Parsed:
    records: list[dict] = []
    notes: list[str] = []
    version = host = None
    headers: dict[str, tuple[dict, dict]] = {}
    job: dict | None = None
    op: str | None = None
    pfam: tuple[str, float] | None = None
    jobs: list[dict] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rsplit("\r", 1)[-1]
        if line.startswith("<"):
            line = re.sub(r"^<[^>]*>\s?", "", line)
        if not line.strip():
            continue
        try:
            m = _N_JOB.match(line)
            if m:
                job = {"name": m.group(1), "gid": m.group(2), "jobs": int(m.group(3)),
                       "err": int(m.group(4)), "line": n, "rows": [], "ops": []}
                if job["jobs"] >= 2**63 or abs(job["err"]) >= 2**63:
                    raise ValueError("a number beyond 64 bits")
                jobs.append(job)
                op = pfam = None
                continue
            if job is None:
                m = _N_HEADER.match(line)
                if m:
                    opts = {"rw": m.group(3).strip(), "ioengine": m.group(5),
                            "iodepth": int(m.group(6))}
                    if opts["iodepth"] >= 2**63:
                        raise ValueError("an iodepth beyond 64 bits")
                    headers.setdefault(m.group(1), (opts, _normal_bs(m.group(4))))
                    continue
                m = _N_VERSION.match(line.strip())
                if m:
                    version = line.strip() if line.startswith("fio-") else m.group(1)
                    continue
                m = _N_BANNER.match(line)
                if m:
                    host, version = m.group(1).strip(), m.group(2)
                    continue
                if line.startswith("fio:") or "warning" in line.lower() or \
                        line.startswith("note:"):
                    notes.append(line.strip())
                continue
            if line.startswith("Run status group") or line.startswith("Disk stats"):
                job = None
                continue
            before = len(job["rows"])
            _normal_line(line, n, job, op, pfam)
            for _o, _n, metric, value in job["rows"][before:]:
                if not (value >= 0 and math.isfinite(value)):
                    raise ParseError(source, n, f"a finite, non-negative {metric}",
                                     found=line.strip())
            m = _N_DIR3.match(line) or _N_DIR2.match(line)
            if m:
                op = _N_OP[m.group(1)]
                job["ops"].append(op)
                pfam = None
                continue
            m = _N_PCT_HEAD.match(line)
            if m:
                pfam = (m.group(1), _N_TIME[m.group(2)])
            elif not line.lstrip().startswith("|"):
                pfam = None
        except ParseError:
            raise
        except (ValueError, KeyError, IndexError, OverflowError) as exc:
            raise ParseError(source, n, "a line of fio's normal report", found=line.strip()
                             ) from exc
    if not jobs:
        raise _no_report(text, source)
    for job in jobs:
        opts, bsizes = headers.get(job["name"], ({}, {}))
        meta = {"workload": workload_of(opts.get("rw")), "rw": opts.get("rw"),
                "ioengine": opts.get("ioengine"), "iodepth": opts.get("iodepth")}
        base = {"source": source, "run_key": f"line {job['line']}", "tool": TOOL,
                "tool_version": version, "test": job["name"], "job": job["name"],
                "groupid": job["gid"], "threads": job["jobs"],
                **{k: v for k, v in meta.items() if v is not None}}
        if host:
            base["host"] = host
        error = job["err"]
        rows = job["rows"]
        if error:
            base["flag"] = f"error={error}"
            done = {(r[0], r[2]) for r in rows}
            ops = job["ops"] or list(_RW_OPS.get(_strip_rw(opts.get("rw")) or "", ("total",)))
            rows += [(o, job["line"], m, math.nan) for o in ops for m in _RATE_METRICS
                     if (o, m) not in done]
        for rop, line_no, metric, value in rows:
            if error and metric not in _COUNT_METRICS and value == 0.0:
                value = math.nan
            rec = dict(base)
            rec.update(op=rop, block_size=bsizes.get(rop), position=f"line {line_no}",
                       metric=metric, value=value)
            records.append(rec)
    return Parsed(tool=TOOL, format="normal", version=version, records=records, notes=notes)


def _normal_line(line: str, n: int, job: dict, op: str | None,
                 pfam: tuple[str, float] | None) -> None:
    """Add the values of one line of a job's block to ``job["rows"]``."""
    rows = job["rows"]
    m = _N_DIR3.match(line)
    if m:
        o = _N_OP[m.group(1)]
        rows += [(o, n, "iops", units.scaled(m.group(2))),
                 (o, n, "bandwidth", float(m.group(3)) * _bytes_unit(m.group(4))),
                 (o, n, "io_bytes", float(m.group(5)) * _bytes_unit(m.group(6))),
                 (o, n, "runtime", int(m.group(7)) * units.MS)]
        return
    m = _N_DIR2.match(line)
    if m:
        o = _N_OP[m.group(1)]
        rows += [(o, n, "io_bytes", float(m.group(2)) * _bytes_unit(m.group(3))),
                 (o, n, "bandwidth", float(m.group(4)) * _bytes_unit(m.group(5))),
                 (o, n, "iops", units.scaled(m.group(6))),
                 (o, n, "runtime", int(m.group(7)) * units.MS)]
        return
    if op is not None:
        m = _N_LAT.match(line)
        if m:
            fam, scale, kv = m.group(1), _N_TIME[m.group(2)], _kv(m.group(3))
            for key, name in (("min", "min"), ("max", "max"), ("avg", "mean"),
                              ("stdev", "stddev")):
                rows.append((op, n, f"{fam}_{name}", units.scaled(kv[key]) * scale))
            return
        if pfam is not None and line.lstrip().startswith("|"):
            for p, v in _N_PCT.findall(line):
                if not 0 < float(p) <= 100:
                    raise ValueError(f"percentile {p} outside (0, 100]")
                rows.append((op, n, schema.percentile_metric(pfam[0], p),
                             units.scaled(v) * pfam[1]))
            return
        m = _N_BW.match(line)
        if m:
            unit = m.group(1).replace(" ", "")
            factor = _bytes_unit(unit[:-2] if unit.endswith("/s") else unit)
            kv = _kv(m.group(2))
            samples = kv.get("samples")
            if (int(samples) > 0) if samples is not None else float(kv["max"]) > 0:
                rows += [(op, n, "bandwidth_min", float(kv["min"]) * factor),
                         (op, n, "bandwidth_max", float(kv["max"]) * factor),
                         (op, n, "bandwidth_mean", float(kv["avg"]) * factor),
                         (op, n, "bandwidth_stddev", float(kv["stdev"]) * factor),
                         (op, n, "bw_agg", float(kv["per"]))]
            return
        m = _N_IOPS.match(line)
        if m:
            kv = _kv(m.group(1))
            if int(kv.get("samples", "1")) > 0:
                rows += [(op, n, "iops_min", units.scaled(kv["min"])),
                         (op, n, "iops_max", units.scaled(kv["max"])),
                         (op, n, "iops_mean", units.scaled(kv["avg"])),
                         (op, n, "iops_stddev", units.scaled(kv["stdev"]))]
            return
    m = _N_CPU.match(line)
    if m:
        rows += [("total", n, "cpu_usr", float(m.group(1))),
                 ("total", n, "cpu_sys", float(m.group(2)))]
        return
    m = _N_ISSUED3.search(line) or _N_ISSUED2.search(line)
    if m:
        counts = dict(zip(("read", "write", "trim", "sync"), m.groups(), strict=False))
        for o in job["ops"]:
            key = "read" if o == "total" else o
            if o == "total":
                value = sum(int(c) for c in m.groups()[:3] if c)
            else:
                value = int(counts[key]) if counts.get(key) else None
            if value is not None:
                rows.append((o, n, "total_ios", float(value)))
        if counts.get("sync") and int(counts["sync"]) > 0:
            rows.append(("sync", n, "total_ios", float(counts["sync"])))


# the reader this module registers (ebsstats.io._registry): sniff, then parse text
READER = Reader(tool="fio", name=__name__, detect=sniff, parse=text_parser(_parse),
                memory_factor=MEMORY_FACTOR)
