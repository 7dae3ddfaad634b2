"""fio JSON and json+ reports (2.x and 3.x, client/server, ``--status-interval`` streams) →
rows; the format is described in :mod:`ebsstats.io.fio`.

``import json`` here is the standard library (imports are absolute)."""

from __future__ import annotations

import datetime
import functools
import itertools
import json
import math
import operator
import re
import sys
from typing import Annotated, Any

import msgspec
import pandas as pd

from ebsstats import schema, units
from ebsstats.errors import ParseError
from ebsstats.io._columns import Const, Runs, is_constant
from ebsstats.io._common import Parsed, line_of, picker, remember
from ebsstats.io.fio._options import (
    _COUNT_METRICS,
    _DIRS,
    _META_KEYS,
    _RATE_METRICS,
    _RW_OPS,
    TOOL,
    _Absent,
    _Bad,
    _no_report,
    _notes_beside,
    _num,
    _sane,
    _strip_rw,
    _version_tuple,
    job_meta,
    job_meta_pair,
)

__all__: list[str] = []  # the reader's public face is ebsstats.io.fio


def _timestamp(seconds: float | None):
    """The run's start in UTC to the millisecond: a ``datetime`` (the typing makes the same
    ``datetime64[ns, UTC]`` of it as of a ``pd.Timestamp``, built in a sixth of the time) from
    1970 to 2262, where nanoseconds end; a ``pd.Timestamp`` before 1970."""
    if seconds is None or not math.isfinite(seconds):
        return None
    try:
        ms = round(seconds * 1000)  # OverflowError beyond 1.8e305 s: infinite in ms
        if 0 <= ms < _NS_END_MS:
            return _EPOCH + _MS * ms  # exact: a timedelta times an int is integer arithmetic
        return pd.Timestamp(ms, unit="ms", tz=_UTC)
    except (OverflowError, ValueError):  # OutOfBoundsDatetime is a ValueError
        raise _Bad("$.timestamp_ms", "a run start time within 1677-2262 (timestamp_ms - "
                   "elapsed)", repr(seconds)) from None


_UTC = datetime.UTC  # what tz="UTC" gives, without parsing the name
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=_UTC)
_MS = datetime.timedelta(milliseconds=1)
_NS_END_MS = 9_223_372_036_854  # 2262-04-11T23:47:16.854Z: the last millisecond in ns


def _timestamp_of(start: float | None):
    """:func:`_timestamp`, the last one kept: a report's jobs mostly start together."""
    global _LAST_START
    last = _LAST_START  # one tuple, replaced whole: safe for threads
    if last[0] == start and start is not None:
        return last[1]
    ts = _timestamp(start)
    _LAST_START = (start, ts)
    return ts


_LAST_START: tuple = (None, None)


_DECODER = json.JSONDecoder()


_JSON_SPACE = " \t\n\r"
_ANY_DECODER = msgspec.json.Decoder()


def _json_docs(text: str, source: str) -> tuple[list[tuple[dict, int]], list[str]]:
    """The JSON documents of a fio output (each with its line) and the text around them.

    One document with nothing after it (the usual report) is decoded by msgspec, ~2x faster
    than the standard library and with the same objects (integers of any size stay ints);
    anything msgspec refuses (several documents, fio's notes after the JSON, NaN, lone
    surrogates, deep nesting) goes through the standard decoder, which gives the same objects
    and the positioned errors."""
    start = 0 if text.startswith("{") else text.find("\n{")
    if start >= 0:
        start += text[start] == "\n"
        try:
            obj = _ANY_DECODER.decode(text[start:] if start else text)
        except (msgspec.DecodeError, RecursionError):
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
    fast = _fast_json(text, source)
    if fast is not None:
        return fast
    docs, between = _json_docs(text, source)
    if not docs:
        raise _no_report(text, source)
    notes = _notes_beside(between, "JSON")
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
    except RecursionError:  # msgspec decodes deeper than Python can repr or walk
        raise ParseError(source, final_line, "a fio JSON document",
                         found="nesting too deep") from None
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
        base, meta, bsizes, error = _job_base(job, path, key, gopts, defaults, source, version)
        jops, jpos, jmet, jval, has_bins = _job_rows(job, path, meta, error, end, base)
        plus = plus or has_bins
        bases.append((base, len(jval)))
        ops += jops
        pos += [prefix + x for x in jpos] if prefix else jpos
        metrics += jmet
        values += jval
        bss += map(bsizes.get, jops)
    cols, n = _job_columns(bases)
    cols.update(op=ops, block_size=_uniform(bss, n), position=pos, metric=metrics, value=values)
    return (cols, n), plus


def _job_base(job, path: str, key: str, gopts: dict, defaults: bool, source: str,
              version: str | None) -> tuple[dict, dict, dict, int]:
    """A job's constant columns, its option metadata and block sizes, and its error code."""
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
    return base, meta, bsizes, error


def _job_rows(job: dict, path: str, meta: dict, error: int, end: float | None,
              base: dict) -> tuple[list, list, list, list, bool]:
    """A job's rows as parallel lists (op, position, metric, value: no tuple per row) and
    whether it has histogram bins; sets the job's start time on ``base``."""
    jops: list = []
    jpos: list = []
    jmet: list = []
    jval: list = []
    plus = False
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
    base["timestamp"] = _timestamp(_start_time(job, path, end, runtimes))
    if error:
        jval = [math.nan if metric not in _COUNT_METRICS and value == 0.0 else value
                for metric, value in zip(jmet, jval, strict=True)]
    return jops, jpos, jmet, jval, plus


def _start_time(job: dict, path: str, end: float | None, runtimes: list[float]) -> float | None:
    """When the job started (epoch seconds): the report's end minus its elapsed time, else
    minus its longest runtime; ``None`` when the report has no time."""
    if isinstance(job.get("job_runtime"), (int, float)):
        runtimes.append(_sane(job["job_runtime"], f"{path}.job_runtime"))
    started = _job_start(job.get("job_start"), end)
    if started is not None:
        return started
    elapsed = job.get("elapsed")
    if end is None:
        return None
    if isinstance(elapsed, (int, float)) and elapsed > 0:
        return end - _sane(elapsed, f"{path}.elapsed")
    return end - max(runtimes) / 1000.0


def _job_start(ms, end: float | None) -> float | None:
    """A job's ``job_start`` (fio 3.36+: when the job started, ms since the epoch on
    ``job_start_clock_id``'s clock, the real-time clock by default) in epoch seconds, where it
    is a time from 2000 on no later than the report's end; else ``None`` (another clock: the
    report's end minus ``elapsed`` is taken).

    >>> _job_start(1784630357678, 1784630368.858), _job_start(12345678, 1784630368.858)
    (1784630357.678, None)
    """
    if type(ms) not in (int, float) or not _Y2000_MS <= ms < _PLAIN_MAX:
        return None
    seconds = ms / 1000.0
    return seconds if end is None or seconds <= end + 1 else None


_Y2000_MS = 946_684_800_000


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
    if len(bases) == 1:
        return {k: _NEW_TUPLE(Const, (v, n)) for k, v in bases[0][0].items()}, n
    keys = tuple(bases[0][0])
    if all(m and tuple(base) == keys for base, m in bases):  # the usual case: one pass
        cols = {}
        by_key = zip(*[base.values() for base, _ in bases], strict=True)
        jobs = len(bases)
        counts = tuple(m for _, m in bases)
        for k, per_job in zip(keys, by_key, strict=True):
            first = per_job[0]  # only a str equals a str, None None: no type to tell apart
            cols[k] = (_NEW_TUPLE(Const, (first, n)) if per_job.count(first) == jobs and (
                type(first) in _STR_OR_NONE or is_constant(list(per_job)))
                else _per_job(k, per_job, counts))
        return cols, n
    cols = {}
    for k in dict.fromkeys(k for base, _ in bases for k in base):
        per_job = [base.get(k) for base, m in bases if m]  # judged per job, not per row
        if not per_job or is_constant(per_job):
            cols[k] = Const(per_job[0] if per_job else bases[0][0].get(k), n)
            continue
        cols[k] = _per_job(k, [base.get(k) for base, _ in bases], tuple(m for _, m in bases))
    return cols, n


def _per_job(name: str, per_job, counts: tuple) -> Runs:
    """A column whose jobs hold different values: a :class:`Runs` piece (each job's value on
    its rows, typed once per job instead of row by row: the 2,000 corpus reports' ``test``,
    ``job``, ``rw``, ``workload``, 51,644 rows in 448 files, type ~4.5 ms faster); ``run_key``
    too: the typing hashes one run id per run of string keys (``name`` is not looked at).

    >>> _per_job("test", ("a", "b"), (2, 1))
    Runs(values=('a', 'b'), counts=(2, 1))
    """
    return _NEW_TUPLE(Runs, (tuple(per_job), counts))  # Runs(values, counts), in C


def _uniform(values: list, n: int) -> list | Const:
    """A block-size column: one :class:`Const` when every row holds the same int (or every row
    none, the usual report: one ``bs``), typed once per file instead of row by row; else the
    list.

    >>> _uniform([4096, 4096], 2), _uniform([4096, None], 2), _uniform([], 0)
    (Const(value=4096, n=2), [4096, None], [])
    """
    if values and type(values[0]) in _INT_OR_NONE and values.count(values[0]) == n:
        return _NEW_TUPLE(Const, (values[0], n))  # _block_sizes gives ints or None: no 1 == 1.0
    return values


_INT_OR_NONE = frozenset({int, type(None)})


_STR_OR_NONE = frozenset({str, type(None)})


def _const(value, n: int) -> Const:
    return _NEW_TUPLE(Const, (value, n))  # Const(value, n), without the keyword handling


_NEW_TUPLE = tuple.__new__


def _direction(d: dict, path: str, is_sync: bool, pos: list, met: list, val: list):
    """Append the rows (position, metric, value) of one direction object to the parallel lists
    ``pos``, ``met``, ``val``; returns ``(whether it had any, whether it has histogram bins)``."""
    total_ios = _num(d, "total_ios", path) if "total_ios" in d else None
    runtime = _num(d, "runtime", path) if "runtime" in d else None
    if is_sync:
        if not total_ios:
            return False, False
    elif not runtime and not total_ios:
        return False, False
    k0 = len(val)
    if not is_sync:
        _rate_rows(d, path, runtime, pos, met, val)
    if total_ios is not None:
        pos.append(f"{path}.total_ios")
        met.append("total_ios")
        val.append(total_ios)
    has_bins = _latency_rows(d, path, pos, met, val)
    if not is_sync:
        _sample_rows(d, path, pos, met, val)
    if any(map(math.isinf, val[k0:])):  # one pass in C; then find which
        for position, value in zip(pos[k0:], val[k0:], strict=True):
            if math.isinf(value):  # finite as printed, not once in B/s or s (1e308 KiB/s)
                raise _Bad(position, "a number that stays finite in canonical units",
                           "overflow")
    return True, has_bins


def _rate_rows(d: dict, path: str, runtime: float | None, pos: list, met: list,
               val: list) -> None:
    """io_bytes, bandwidth, iops and runtime of a read/write/trim direction."""
    def add(position, metric, value):
        pos.append(position)
        met.append(metric)
        val.append(value)

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


def _latency_rows(d: dict, path: str, pos: list, met: list, val: list) -> bool:
    """min/max/mean/stddev and percentiles of slat, clat and lat (ns in fio 3.x, µs before);
    returns whether any has histogram bins (json+)."""
    has_bins = False
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
    return has_bins


def _sample_rows(d: dict, path: str, pos: list, met: list, val: list) -> None:
    """The bandwidth and IOPS sample statistics (bw_min … iops_stddev), when fio sampled."""
    samples = d.get("bw_samples")
    if ("bw_max" in d) and (samples > 0 if isinstance(samples, (int, float))
                            else _num(d, "bw_max", path) > 0):
        vals = _plain(d, _BW_KEYS) or [_num(d, k, path) for k in _BW_KEYS]
        pos += _positions(path, _BW_KEYS)
        met += _BW_METRICS
        val += [v * units.KiB for v in vals]
        if "bw_agg" in d:
            pos.append(f"{path}.bw_agg")
            met.append("bw_agg")
            val.append(_num(d, "bw_agg", path))
    samples = d.get("iops_samples")
    if "iops_max" in d and (samples > 0 if isinstance(samples, (int, float))
                            else _num(d, "iops_max", path) > 0):
        vals = _plain(d, _IOPS_KEYS) or [_num(d, k, path) for k in _IOPS_KEYS]
        pos += _positions(path, _IOPS_KEYS)
        met += _IOPS_KEYS
        val += map(float, vals)


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
    return vals if _all_plain(vals) else None


def _all_plain(vals: list) -> bool:
    """Every value an int or float with ``0 <= v < 2**53`` and none NaN (one pass each, in C)."""
    if not set(map(type, vals)) <= _NUMBER_TYPES or not (min(vals) >= 0 and
                                                         max(vals) < _PLAIN_MAX):
        return False
    total = sum(vals)  # NaN if one is NaN (min and max skip a NaN that is not first); the
    return total == total  # others are below 2**53: no overflow


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
        if _all_plain(vals):
            pos += plan[0]
            met += plan[1]
            val += [v * scale for v in vals]
            return
    k0 = len(val)
    _percentiles_checked(pct, fam, fpath, scale, pos, met, val)
    if plan is None:  # every key is valid: remember the layout
        kept = [i for i, k in enumerate(keys) if float(k) > 0]
        remember(_PCT_PLANS, (fam, fpath, keys), (tuple(pos[k0:]), tuple(met[k0:]), None if len(
            kept) == len(keys) else tuple(kept)), 4096)  # (thousands of jobs: start again)


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


# --- The usual report, read without the general checks ----------------------------------------
#
# A report as fio writes it (one document, every statistic a plain number, no failed job) is
# read by the functions below, from plans made once per layout of keys (which keys a direction
# object has, in which order: one per fio version and job kind): a group's values are fetched by
# one itemgetter and scaled by one map, not one Python call per value. Anything else, however
# small (a value that is not a plain number or string of the expected type, a failed job, a key
# missing, text after the JSON, several documents), makes them give up (``None``), and the
# general path above reads the file from the start and names what is wrong. The two paths give
# the same rows (tests/test_fio_fast.py): the fast path only emits what the general path would,
# for inputs it fully checked.
#
# The report is decoded by msgspec into Structs of only the keys below (a Struct per object,
# UNSET where the report lacks a key; the rows depend on which keys an object has, never on
# their order, except a percentile object's, which stays a dict): the keys the rows need,
# duplicates keeping the last value, integers of any size as ints (as the standard library
# gives them). Structs are cheaper to build than dicts and, holding nothing that could make a
# cycle, are left out of the garbage collector's work (gc=False). fio's other objects
# (latency_ns, iodepth_level, json+ bins ...) are scanned as JSON but never built as Python
# objects: about half of the decoding time. The decoder also checks every statistic the rows use
# (_PLAIN: an int or float, 0 <= v < 2**53, what _all_plain checks on the general path), in C;
# the values passed through unchecked (``N``, ``groupid``) are compared or printed only when they
# are ints or strings. What msgspec refuses and the standard library reads (NaN, lone
# surrogates) goes to the general path, as does an integer too long for Python to convert (which
# msgspec would skip unread where the rows do not look, and the general path refuses).

_NUMS = (int, float)


# a plain statistic: an int or float, 0 <= v < 2**53 (then NaN and infinity are impossible):
# what _all_plain checks, here checked by the decoder, in C; anything else refuses the file
_PLAIN = (Annotated[int, msgspec.Meta(ge=0, lt=2**53)]
          | Annotated[float, msgspec.Meta(ge=0, lt=2**53)])


_UNSET = msgspec.UNSET  # a key the report does not have
_MAYBE_PLAIN = _PLAIN | msgspec.UnsetType


class _Stat(msgspec.Struct, gc=False):
    """A latency statistics object (``clat_ns`` …): its bins are skipped, not decoded."""

    min: _MAYBE_PLAIN = _UNSET
    max: _MAYBE_PLAIN = _UNSET
    mean: _MAYBE_PLAIN = _UNSET
    stddev: _MAYBE_PLAIN = _UNSET
    N: Any = _UNSET
    percentile: dict[str, _PLAIN] | msgspec.UnsetType = _UNSET
    bins: msgspec.Raw | msgspec.UnsetType = _UNSET


# a direction object's numbers, then its latency families, in the order of its Struct's fields
# (what _astuple gives); a number the object lacks is _NO_NUMBER (the decoder gives no negative
# number: one min() tells that it has them all), a family it lacks None
_DIR_NUMBERS = ("io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "total_ios",
                "bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev", "bw_samples",
                "iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples")
_DIR_STATS = ("slat_ns", "clat_ns", "lat_ns", "slat", "clat", "lat")
_N_NUMBERS = len(_DIR_NUMBERS)  # 18: vals[18:24] are the families (as _fast_direction reads)
_DIR_FIELDS = _DIR_NUMBERS + _DIR_STATS
_DIR_INDEX = {k: i for i, k in enumerate(_DIR_FIELDS)}
_NO_NUMBER = -1.0
_ALL_NUMBERS = (True,) * len(_DIR_NUMBERS)
# Structs (not dicts): a third less decoding, and untracked by the garbage collector (gc=False:
# they hold only values decoded from JSON, which make no cycles)
_Direction = msgspec.defstruct(
    "_Direction", [(k, _PLAIN, _NO_NUMBER) for k in _DIR_NUMBERS]
    + [(k, _Stat | None, None) for k in _DIR_STATS], gc=False,
    module=__name__)
# a job's or the report's options: only those job_meta reads (_META_KEYS), _Absent where
# not set (what job_meta_plain looks them up as), any JSON value (job_meta_pair judges them);
# the others (name, filename, directory ...) are scanned, never built
_Options = msgspec.defstruct("_Options", [(k, Any, _Absent) for k in _META_KEYS], gc=False,
                             module=__name__)
_NO_OPTIONS = (_Absent,) * len(_META_KEYS)
_MAYBE_OPTIONS = _Options | None | msgspec.UnsetType  # (null: none, as {} on the general path)
_Job = msgspec.defstruct(
    "_Job", [(k, Any, _UNSET) for k in ("jobname", "groupid", "error", "hostname")]
    + [("job_options", _MAYBE_OPTIONS, _UNSET)]
    + [(k, _MAYBE_PLAIN, _UNSET) for k in ("elapsed", "job_runtime", "usr_cpu", "sys_cpu",
                                           "job_start")]
    + [(k, _Direction | msgspec.UnsetType, _UNSET) for k, _ in _DIRS],
    rename={"job_options": "job options"}, gc=False, module=__name__)
_Report = msgspec.defstruct(
    "_Report", [("fio_version", Any, _UNSET), ("global_options", _MAYBE_OPTIONS, _UNSET),
                ("timestamp", _MAYBE_PLAIN, _UNSET), ("timestamp_ms", _MAYBE_PLAIN, _UNSET),
                ("jobs", list[_Job] | msgspec.UnsetType, _UNSET),
                ("client_stats", list[_Job] | msgspec.UnsetType, _UNSET)],
    rename={"fio_version": "fio version", "global_options": "global options"}, gc=False,
    module=__name__)
_REPORT_DECODER = msgspec.json.Decoder(_Report)
_astuple = msgspec.structs.astuple
_JOB_DIRS = operator.attrgetter(*(k for k, _ in _DIRS))
_ZEROS = (0,) * len(_DIR_NUMBERS)


def _fast_json(text: str | bytes, source: str) -> Parsed | None:
    """The :class:`Parsed` of a usual report (one document with nothing after it), or
    ``None``: then the general path reads the file. ``text`` may be the report's bytes when
    they are ASCII from a first ``{`` on (then the text is its bytes, one character each: read
    without making the text)."""
    if text[:1] in _BRACES:
        start = 0
    elif type(text) is str:  # fio's notes before the JSON
        start = text.find("\n{") + 1
        if not start:
            return None
    else:
        return None
    if _has_long_integer(text):
        return None
    try:
        doc = _REPORT_DECODER.decode(text[start:] if start else text)
    except (msgspec.DecodeError, RecursionError):  # not what fio writes: the general path says
        return None
    if doc.jobs is _UNSET and doc.client_stats is _UNSET:
        return None
    try:
        got = _fast_records(doc, source)
    except (_Bad, KeyError, TypeError, ValueError, OverflowError):  # e.g. a string for a number
        return None
    if got is None:
        return None
    records, plus, version = got
    notes = _notes_beside([text[:start]], "JSON") if start else []  # after it: whitespace
    # (fields by position: tool, format, version, records, series, notes, columns; the
    # keywords and two default lists cost 0.27 us a report more)
    return Parsed(TOOL, "json+" if plus else "json", version, [], [], notes, records)


_BRACES = ("{", b"{")


def _has_long_integer(text: str | bytes) -> bool:
    """Whether ``text`` (or ASCII bytes: the text is its bytes) has a run of more digits than
    Python converts to an int: the general path refuses such a number even in a key the rows
    do not use, which msgspec skips unread. A run longer than the limit covers a multiple of
    it: only those characters are looked at.

    >>> limit = sys.get_int_max_str_digits()
    >>> [_has_long_integer(x * (limit + 1)) for x in ("1", b"1", "a")] if limit else [1, 1, 0]
    [True, True, False]
    """
    limit = sys.get_int_max_str_digits()
    if not limit:
        return False
    run, zero, nine = _DIGITS[type(text)]  # (a byte is an int: "0" is 48)
    for k, c in enumerate(text[::limit]):  # a few characters
        if not zero <= c <= nine:
            continue
        i = j = k * limit
        while j and zero <= text[j - 1] <= nine:
            j -= 1
        if run.match(text, i).end() - j > limit:
            return True
    return False


_DIGITS = {str: (re.compile(r"[0-9]*"), "0", "9"), bytes: (re.compile(rb"[0-9]*"), 48, 57)}
# _JSON_SNIFF (r'"fio version"\s*:') on ASCII bytes: \s of a text pattern is also \x1c-\x1f
_JSON_SNIFF_DATA = re.compile(rb'"fio version"[ \t\n\r\f\v\x1c-\x1f]*:')


def _fast_end(doc):
    """:func:`_end_time` of a report whose times are plain numbers; ``False`` otherwise."""
    v = doc.timestamp_ms
    if isinstance(v, _NUMS):  # (out of range, NaN or a bool: the general path judges)
        return v / 1000.0 if type(v) in _NUMS and 0 <= v < _PLAIN_MAX else False
    v = doc.timestamp
    if isinstance(v, _NUMS):
        return v / 1.0 if type(v) in _NUMS and 0 <= v < _PLAIN_MAX else False
    return None


def _fast_records(doc, source: str):
    """``(columns, has bins, version)`` of a usual report (a decoded ``_Report``), or
    ``None``."""
    version = doc.fio_version
    if version is _UNSET:
        version = None
    elif type(version) is not str:
        return None
    vt = _version_tuple(version)
    defaults = vt is not None and vt[0] >= 3
    gopts = doc.global_options
    gvals = _astuple(gopts) if gopts else _NO_OPTIONS  # (UNSET and None are false)
    end = _fast_end(doc)
    key, jobs = ("jobs", doc.jobs) if doc.jobs is not _UNSET else ("client_stats",
                                                                   doc.client_stats)
    if end is False or not jobs:
        return None
    pkey = (key, _mask_of(jobs))
    plans = _REPORT_PLANS.get(pkey)
    if plans is not None:
        for plan in plans:
            got = _planned(plan, jobs, key, source, version, gvals, defaults, end)
            if got is not None:
                return got
    infos: list[tuple] = []
    lists: tuple[list, ...] = ([], [], [], [], [])  # op, position, metric, value, block size
    plus = False
    for i, job in enumerate(jobs):
        got = _fast_job(job, _job_path(key, i), key == "client_stats", gvals, defaults, end,
                        lists)
        if got is None:
            return None
        plus = plus or got[-1]
        infos.append(got)
    ops, pos, metrics, values, bss = lists
    n = len(values)
    cols = _fast_columns(source, version, infos, n)
    rows = _shared_rows(ops, pos, metrics)
    cols.update(op=rows["op"], block_size=_uniform(bss, n), position=rows["position"],
                metric=rows["metric"], value=values)  # in _json_records' order
    if n and (plans is None or len(plans) < _PLANS_PER_SHAPE):
        _count_towards_plan(pkey, plans, jobs, rows, values, [info[6] for info in infos])
    return (cols, n), plus, version


def _shared_rows(ops: list, pos: list, metrics: list) -> dict[str, list]:
    """The op, position and metric lists of a report, as the very list objects an earlier
    report with the same ones gave: reports of one layout share them, and the typing types a
    shared list once (lists are never changed once a reader returns them)."""
    key = tuple(pos)
    got = _SHARED_ROWS.get(key)
    if got is not None and got["metric"] == metrics and got["op"] == ops:
        return got
    rows = {"op": ops, "position": pos, "metric": metrics}
    if got is None:
        remember(_SHARED_ROWS, key, rows, 1024)
    return rows


# positions -> the op, position and metric lists a report gave: one per layout
_SHARED_ROWS: dict[tuple, dict[str, list]] = {}


_JOB_PATHS: dict[tuple[str, int], str] = {}


def _job_path(key: str, i: int) -> str:
    path = _JOB_PATHS.get((key, i))
    if path is None:
        path = f"$.{key}[{i}]"
        if len(_JOB_PATHS) < 4096:
            _JOB_PATHS[key, i] = path
    return path


def _fast_job(job, path: str, clients: bool, gvals: tuple, defaults: bool, end: float | None,
              lists: tuple) -> tuple | None:
    """A usual job (a decoded ``_Job``): its path, name, group, option metadata, flag and host
    (a dict, usually empty), start time, number of rows (appended to ``lists``) and whether it
    has histogram bins (what :func:`_fast_columns` takes); ``None`` for anything else (a failed
    job among them)."""
    head = _job_head(job, gvals, defaults)
    if head is None:
        return None
    name, gid, meta, bsizes = head
    ops, pos, met, val, bss = lists
    n0 = len(val)
    runtimes = [0.0]
    plus = False
    for (dkey, op), d in zip(_DIRS, _JOB_DIRS(job), strict=True):
        if d is _UNSET or (d.total_ios <= 0 and d.runtime <= 0):  # absent or empty (as below)
            continue
        k0 = len(val)
        got = _fast_direction(d, path, dkey, pos, met, val)
        if got is None:
            return None
        if got is False:
            continue
        plus = plus or got[0]
        runtimes.append(got[1])
        ops += [op] * (len(val) - k0)
        bss += [bsizes.get(op)] * (len(val) - k0)
    _cpu_rows(job.usr_cpu, job.sys_cpu, path, bsizes.get("total"), lists)
    return _job_info(job, path, clients, end, runtimes, head, len(val) - n0, plus)


def _job_head(job, gvals: tuple, defaults: bool) -> tuple | None:
    """A usual job's name, group (as a string), option metadata and block sizes (``gvals``:
    the report's global options, as :func:`~ebsstats.io.fio._options.job_meta_pair` takes
    them); ``None`` for anything else (a failed job among them)."""
    jopts = job.job_options
    name = job.jobname
    error = job.error
    if error is _UNSET:
        error = 0
    gid = job.groupid
    if gid is _UNSET:
        gid = ""
    if type(name) is not str or type(error) is not int or error or type(gid) not in _GROUP_TYPES:
        return None
    got = job_meta_pair(gvals, _astuple(jopts) if jopts else _NO_OPTIONS, defaults)
    if got is None:
        return None
    return name, gid if type(gid) is str else str(gid), got[0], got[1]


def _job_info(job, path: str, clients: bool, end: float | None, runtimes: list[float],
              head: tuple, m: int, plus: bool) -> tuple | None:
    """What :func:`_fast_job` gives of a job whose rows are read (``m`` of them): its start
    time from ``runtimes`` and its flag and host; ``None`` when its times are not plain."""
    start = _fast_start(job, end, runtimes)
    if start is False:
        return None
    name, gid, meta, _bsizes = head
    tail = _NO_TAIL
    if clients and name == "All clients":  # the keys in _job_base's order
        tail = {"flag": "aggregate"}
    if type(job.hostname) is str:
        tail = {**tail, "host": job.hostname}
    return path, name, gid, meta, tail, _timestamp_of(start), m, plus


_NO_TAIL: dict = {}  # (never changed)


def _fast_columns(source: str, version: str | None, infos: list[tuple], n: int) -> dict:
    """:func:`_job_columns` of the jobs :func:`_fast_job` read (``n`` rows in all), as a new
    dict (its caller adds the row columns). Reports of one layout mostly differ only in their
    source and start time: the other columns (immutable pieces) of the usual report (no flag
    nor host) are made once per (version, rows, each job's path, name, group, option
    metadata and rows) and copied, ``source`` and ``timestamp`` set anew (the 2,000 corpus
    reports, CPU in a loop: 1,314 of one job ~3.3 -> ~2.3 us, 686 of several ~10 -> ~5 us).
    The parse is not skipped: only immutable pieces its values would make again are kept."""
    if len(infos) == 1:  # (the usual report: its own key, without the zip)
        path, name, gid, meta, tail, ts, _m, _plus = infos[0]
        key = (version, n, path, name, gid, id(meta))
        hit = None if tail else _COLUMNS_MADE.get(key)
        if hit is not None and hit[0][0] is meta:
            cols = hit[1].copy()
            cols["source"] = _NEW_TUPLE(Const, (source, n))
            cols["timestamp"] = _NEW_TUPLE(Const, (ts, n))
            return cols
        cols = _made_columns(source, version, infos, n)[0]
        if not tail and "source" not in meta and "timestamp" not in meta and _seen_again(key):
            remember(_COLUMNS_MADE, key, ((meta,), cols.copy()), 4096)
        return cols
    paths, names, gids, metas, tails, stamps, counts, _plus = zip(*infos, strict=True)
    if any(tails):
        return _made_columns(source, version, infos, n)[0]
    key = (version, n, paths, names, gids, tuple(map(id, metas)), counts)
    hit = _COLUMNS_MADE.get(key)
    if hit is not None and all(map(operator.is_, hit[0], metas)):  # (ids of kept dicts)
        cols = hit[1].copy()
        cols["source"] = _NEW_TUPLE(Const, (source, n))
        cols["timestamp"] = _jobs_column("timestamp", stamps, counts, n)
        return cols
    cols, by_rule = _made_columns(source, version, infos, n)
    if (by_rule and not any(["source" in m or "timestamp" in m for m in metas])  # (fio's
            # option metadata has neither key: set anew, they would override it)
            and _seen_again(key)):
        remember(_COLUMNS_MADE, key, (metas, cols.copy()), 4096)
    return cols


# (version, rows, the jobs' paths, names, groups, ids of their option metadata, rows) -> (that
# metadata, the report's constant columns): only source and timestamp differ between reports
_COLUMNS_MADE: dict[tuple, tuple[tuple, dict]] = {}
_COLUMNS_SEEN: dict[tuple, None] = {}  # keys of _COLUMNS_MADE seen once, their columns not kept


def _seen_again(key: tuple) -> bool:
    """Whether a report's constant columns are worth keeping: their key was seen before (kept
    from the second report of a layout on). A folder of distinct reports (2,000 corpus
    reports: every job name its own) then keeps no copy it never uses: 2,000 dicts of ~20
    columns made, and the memory they held (~2.6 MB) grown, on every first read.

    >>> _COLUMNS_SEEN.clear(); [_seen_again(("k",)), _seen_again(("k",)), _seen_again(("k",))]
    [False, True, False]
    """
    if _COLUMNS_SEEN.pop(key, 0) is None:
        return True
    remember(_COLUMNS_SEEN, key, None, 4096)
    return False


def _jobs_column(name: str, per_job: tuple, counts: tuple, n: int):
    """A column of a report of several jobs from each job's value (``counts[i]`` rows each,
    ``n`` in all), by :func:`_job_columns`' rule: one :class:`Const` when every job has the
    same value of one type, else each job's value on its rows (:func:`_per_job`).

    >>> _jobs_column("rw", ("read", "read"), (2, 1), 3), _jobs_column("rw", (1, True), (1, 1), 2)
    (Const(value='read', n=3), Runs(values=(1, True), counts=(1, 1)))
    """
    first = per_job[0]
    if len(per_job) == 1 or (per_job.count(first) == len(per_job) and (
            type(first) in _STR_OR_NONE or is_constant(list(per_job)))):
        return _NEW_TUPLE(Const, (first, n))
    return _per_job(name, per_job, counts)


def _made_columns(source: str, version: str | None, infos: list[tuple], n: int
                  ) -> tuple[dict, bool]:
    """:func:`_fast_columns`, made (a report of one job, most, without a dict of its
    constants first), and whether its ``timestamp`` column follows :func:`_jobs_column`
    (not so in :func:`_job_columns`' general rule)."""
    if len(infos) != 1:
        cols = _jobs_columns(source, version, infos, n)
        if cols is not None:
            return cols, True
        return _job_columns([(_base_of(source, version, info), info[6])
                             for info in infos])[0], False
    path, name, gid, meta, tail, ts, _m, _plus = infos[0]
    job = _const(name, n)  # (one immutable Const for two columns of the same values)
    cols = {"source": _const(source, n), "run_key": _const(path, n), "tool": _const(TOOL, n),
            "tool_version": _const(version, n), "test": job, "job": job,
            "groupid": _const(gid, n)}
    cols.update(_meta_columns(meta, n))
    for k, v in tail.items():
        cols[k] = _const(v, n)
    cols["timestamp"] = _const(ts, n)
    return cols, True


def _meta_columns(meta: dict, n: int) -> dict:
    """The :class:`Const` columns of a job's option metadata over ``n`` rows (read them, never
    change them): the dict :func:`~ebsstats.io.fio._options.job_meta_plain` gives is the one
    dict of every job with those options, and a layout's reports have the same ``n``, so its
    Consts (immutable) are made once per (metadata, ``n``), not once per report (8-9 a report:
    1.7 us of the 2.8 us of a one-job report's columns).

    >>> meta = {"rw": "read", "iodepth": 1}
    >>> _meta_columns(meta, 3) is _meta_columns(meta, 3), _meta_columns(meta, 3)["rw"]
    (True, Const(value='read', n=3))
    """
    key = (id(meta), n)
    hit = _META_COLUMNS.get(key)
    if hit is not None and hit[0] is meta:  # (the entry keeps its dict: no id reused)
        return hit[1]
    cols = {k: _NEW_TUPLE(Const, (v, n)) for k, v in meta.items()}
    remember(_META_COLUMNS, key, (meta, cols), 4096)
    return cols


# (id of a job's metadata dict, rows) -> (that dict, its Const columns)
_META_COLUMNS: dict[tuple[int, int], tuple[dict, dict]] = {}


def _jobs_columns(source: str, version: str | None, infos: list[tuple], n: int) -> dict | None:
    """:func:`_job_columns` of the usual report of several jobs (every job with rows, no flag
    nor host), without a dict per job: the source, tool and version are the report's, a
    metadata dict that every job shares (job options alike:
    :func:`~ebsstats.io.fio._options.job_meta_plain` gives the one dict) is constant; the
    other columns judged per job as there, an option a job's metadata lacks ``None`` on its
    rows, the options of the first job's metadata before ``timestamp``, the others' after it
    (the rule's order: a dict per job's keys in turn). ``None`` for any other report."""
    counts = tuple([info[6] for info in infos])
    if not all(counts) or any([info[4] for info in infos]):
        return None
    paths, names, gids, metas, _tails, stamps, _m, _plus = zip(*infos, strict=True)
    meta = metas[0]
    shared = metas.count(meta) == len(metas) and all([m is meta for m in metas])

    def col(name: str, per_job: tuple):
        return _jobs_column(name, per_job, counts, n)

    job = col("test", names)  # (test and job: one immutable piece for the same values)
    cols = {"source": _const(source, n), "run_key": _per_job("run_key", paths, counts),
            "tool": _const(TOOL, n), "tool_version": _const(version, n),
            "test": job, "job": job, "groupid": col("groupid", gids)}
    # (run_key: each job's own path, never two alike: the per-job rule's Runs at once)
    if shared:
        cols.update(_meta_columns(meta, n))
    else:
        for k in meta:
            cols[k] = col(k, tuple([m.get(k) for m in metas]))
    cols["timestamp"] = col("timestamp", stamps)
    if not shared and any([tuple(m) != tuple(meta) for m in metas]):  # (2,000 corpus
        # reports: 193 of several jobs, rwmixread on their mixed jobs only)
        for k in dict.fromkeys(itertools.chain.from_iterable(metas)):
            if k not in cols:
                cols[k] = col(k, tuple([m.get(k) for m in metas]))
    return cols


def _base_of(source: str, version: str | None, info: tuple) -> dict:
    """A job's constants as :func:`_job_base` gives them, from what :func:`_fast_job` read."""
    path, name, gid, meta, tail, ts, _m, _plus = info
    return {"source": source, "run_key": path, "tool": TOOL, "tool_version": version,
            "test": name, "job": name, "groupid": gid, **meta, **tail, "timestamp": ts}


_GROUP_TYPES = frozenset({int, str, type(None), bool})  # str() alike from either decoder
_CPU_KEYS = ("usr_cpu", "sys_cpu")
_CPU_METRICS = ("cpu_usr", "cpu_sys")
_CPU_OPS = ("total", "total")


def _cpu_rows(usr, sys_, path: str, bsize, lists: tuple) -> None:
    """Append a job's ``cpu_usr`` and ``cpu_sys`` rows (what the decoder gave: UNSET where
    the job has none) to ``lists`` (op, position, metric, value, block size)."""
    ops, pos, met, val, bss = lists
    if usr is not _UNSET and sys_ is not _UNSET:  # the usual job: both, in one go
        ops += _CPU_OPS
        pos += _positions(path, _CPU_KEYS)
        met += _CPU_METRICS
        val += (float(usr), float(sys_))
        bss += (bsize, bsize)
        return
    for v, cpos, metric in zip((usr, sys_), _positions(path, _CPU_KEYS), _CPU_METRICS,
                               strict=True):
        if v is not _UNSET:
            ops.append("total")
            pos.append(cpos)
            met.append(metric)
            val.append(float(v))
            bss.append(bsize)


def _fast_start(job, end: float | None, runtimes: list[float]):
    """:func:`_start_time` of a job whose times are plain numbers; ``False`` otherwise."""
    jr = job.job_runtime
    if isinstance(jr, _NUMS):
        if type(jr) is bool or not 0 <= jr < _PLAIN_MAX:
            return False
        runtimes.append(float(jr))
    started = _job_start(job.job_start, end)
    if started is not None:
        return started
    if end is None:
        return None
    elapsed = job.elapsed
    if isinstance(elapsed, _NUMS) and elapsed > 0:
        if type(elapsed) is bool or not elapsed < _PLAIN_MAX:
            return False
        return end - float(elapsed)
    return end - max(runtimes) / 1000.0


def _fast_direction(d, path: str, dkey: str, pos: list, met: list, val: list):
    """Append the rows of one usual direction object (a decoded ``_Direction``: its numbers
    are plain, the decoder checked them); returns ``(has bins, runtime)``, ``False`` when it
    is empty, ``None`` when the general path has to judge it."""
    if d.total_ios <= 0 and d.runtime <= 0:  # 0, -0.0 or absent (_NO_NUMBER)
        return False  # empty (no other key is read: as in _direction)
    vals = _astuple(d)
    nums = vals[:_N_NUMBERS]
    layout = (True if min(nums) >= 0 else tuple(map(operator.ge, nums, _ZEROS)),
              (vals[18] is not None, vals[19] is not None, vals[20] is not None,
               vals[21] is not None, vals[22] is not None, vals[23] is not None))
    plan = _DIR_PLANS.get((path, dkey, layout))
    if plan is None:
        plan = _dir_plan(f"{path}.{dkey}", dkey == "sync", layout)
        # reports of thousands of jobs: start again, never plan every direction anew (a plan
        # costs a few directions)
        remember(_DIR_PLANS, (path, dkey, layout), plan, 4096)
    i_rt, i_ios, i_bw, i_iops, cases, fams, where = plan
    runtime = vals[i_rt] if i_rt is not None else 0
    if type(runtime) is float and not runtime:
        return None  # fio prints an integer; -0.0 would keep its sign in the runtime row
    if not (vals[i_ios] if i_ios is not None else 0) and (dkey == "sync" or not runtime):
        return False
    case = (bool(runtime), i_bw is not None and vals[i_bw] > 0,
            i_iops is not None and vals[i_iops] > 0)
    rows = cases.get(case, cases)  # (a plan's cases never hold the dict itself)
    if rows is cases:
        rows = _case_rows(cases, case, where)
    if rows is None:
        return None  # a key these rows need is missing
    pre, pre_pos, pre_met, pre_scales, post, post_pos, post_met, post_scales = rows
    pos += pre_pos
    met += pre_met
    val += map(operator.mul, pre(vals), pre_scales)
    has_bins = _fast_latency(vals, fams, pos, met, val)
    if has_bins is None:
        return None
    if post_pos:
        pos += post_pos
        met += post_met
        val += map(operator.mul, post(vals), post_scales)
    return has_bins, float(runtime or 0)


def _fast_latency(vals: tuple, fams: tuple, pos: list, met: list, val: list):
    """Append the latency rows of a usual direction (see :func:`_latency_rows`; ``vals`` are
    its :data:`_DIR_FIELDS`); returns whether it has histogram bins, ``None`` when the general
    path has to judge it."""
    has_bins = False
    for i, fam, scale, _scales, fpath, positions, metrics in fams:
        lo, hi, mean, sd, n, pct, bins = _astuple(vals[i])  # a _Stat's fields, in order
        if not has_bins and bins is not _UNSET:  # an object (left undecoded)?
            has_bins = memoryview(bins)[:1] == b"{"
        if n == 0:
            continue
        if (n is None or n is _UNSET) and lo == 0 and hi == 0 and mean == 0:
            continue
        pos += positions
        met += metrics
        val += (lo * scale, hi * scale, mean * scale, sd * scale)  # UNSET: TypeError
        if type(pct) is not dict or not pct:
            continue
        plan = _PCT_PLANS.get((fam, fpath, tuple(pct)))
        if plan is None or plan[2] is not None:
            _fast_percentiles(pct, fam, fpath, scale, pos, met, val)
        else:  # the usual case, inline: every key kept
            vs = pct.values()
            pos += plan[0]
            met += plan[1]
            val += map(operator.mul, vs, itertools.repeat(scale))
    return has_bins


def _fast_percentiles(pct: dict, fam: str, fpath: str, scale: float, pos: list, met: list,
                      val: list) -> None:
    """Append the rows of a percentile object."""
    plan = _PCT_PLANS.get((fam, fpath, tuple(pct)))
    if plan is None:  # checked key by key (a _Bad gives the file to the general path)
        _percentiles(pct, fam, fpath, scale, pos, met, val)
        return
    vals = list(pct.values())
    if plan[2] is not None:
        vals = [vals[i] for i in plan[2]]
    pos += plan[0]
    met += plan[1]
    val += [v * scale for v in vals]


_FAMS = ("slat", "clat", "lat")
# (job path, direction key, which of _DIR_FIELDS it has) -> how to read it (_dir_plan)
_DIR_PLANS: dict[tuple[str, str, tuple], tuple] = {}


def _dir_plan(dpath: str, is_sync: bool, layout: tuple) -> tuple:
    """How to read a direction object with these keys (``layout``: ``True`` when it has every
    one of :data:`_DIR_NUMBERS`, else whether it has each; and whether it has each of
    :data:`_DIR_STATS`) at ``dpath``: :func:`_dir_core`, the rows of each case made with their
    positions when first needed (:func:`_case_rows`), so that the plan of a new job index
    costs a few strings."""
    i_rt, i_ios, i_bw, i_iops, _cores, fam_cores = _dir_core(is_sync, layout)
    fams = tuple((_DIR_INDEX[key], fam, scale, scales, f"{dpath}.{key}",
                  _positions(f"{dpath}.{key}", _STAT_KEYS), metrics)
                 for key, fam, scale, scales, metrics in fam_cores)
    return i_rt, i_ios, i_bw, i_iops, {}, fams, (dpath, is_sync, layout)


def _case_rows(cases: dict, case: tuple, where: tuple):
    """The rows of one case of a direction plan (:func:`_dir_rows` with positions), kept."""
    dpath, is_sync, layout = where
    core = _dir_core(is_sync, layout)[4][case]
    rows = None if core is None else (
        core[0], tuple(f"{dpath}.{k}" for k in core[1]), *core[2:5],
        tuple(f"{dpath}.{k}" for k in core[5]), *core[6:])
    cases[case] = rows
    return rows


@functools.lru_cache(maxsize=1024)
def _dir_core(is_sync: bool, layout: tuple) -> tuple:
    """What reading a direction object with these keys (``layout`` as in :func:`_dir_plan`)
    needs, wherever it is: the indices (in :data:`_DIR_FIELDS`) of the
    numbers the rows depend on, the rows for each case (runtime > 0, bandwidth sampled, IOPS
    sampled) by keys, and the latency families present."""
    has_numbers = _ALL_NUMBERS if layout[0] is True else layout[0]
    have = {k for k, there in zip(_DIR_FIELDS, has_numbers + layout[1], strict=True) if there}
    tops = [k for k in ("runtime", "total_ios") if k in have]
    if not is_sync:
        tops += [k for k in ("io_bytes", "bw_bytes" if "bw_bytes" in have else "bw", "iops",
                             *_BW_KEYS, "bw_agg", "bw_samples", *_IOPS_KEYS, "iops_samples")
                 if k in have]
    ix = {k: _DIR_INDEX[k] for k in tops}
    cases = {(rt, bw_on, iops_on): _dir_rows(is_sync, have, ix, rt, bw_on, iops_on)
             for rt in (False, True) for bw_on in (False, True) for iops_on in (False, True)}
    fams = []
    for fam in _FAMS:
        if f"{fam}_ns" in have:
            key, scale = f"{fam}_ns", units.NS
        elif fam in have:
            key, scale = fam, units.US
        else:
            continue
        fams.append((key, fam, scale, (scale,) * len(_STAT_KEYS), _STAT_METRICS[fam]))
    # which value decides whether fio sampled: the sample count, else the maximum
    i_bw = ix.get("bw_samples", ix["bw_max"]) if "bw_max" in ix and not is_sync else None
    i_iops = (ix.get("iops_samples", ix["iops_max"]) if "iops_max" in ix and not is_sync
              else None)
    return ix.get("runtime"), ix.get("total_ios"), i_bw, i_iops, cases, tuple(fams)


_KIB = float(units.KiB)  # rows _num made floats of


def _dir_rows(is_sync: bool, have: set, ix: dict, rt: bool, bw_on: bool,
              iops_on: bool) -> tuple:
    """The rows before the latencies and after them (each a getter of the values by index,
    the position keys, metrics and scales), or ``None`` when a key they need is missing."""
    pre: list[tuple[str, str, str, float]] = []  # (key, position key, metric, scale)
    post: list[tuple[str, str, str, float]] = []
    if not is_sync:
        if "io_bytes" in have:
            pre.append(("io_bytes", "io_bytes", "io_bytes",
                        1.0 if "io_kbytes" in have else _KIB))
        if rt:
            bw = "bw_bytes" if "bw_bytes" in have else "bw"
            pre += [(bw, bw, "bandwidth", 1.0 if bw == "bw_bytes" else _KIB),
                    ("iops", "iops", "iops", 1.0)]
        pre.append(("runtime", "runtime", "runtime", units.MS))
        if bw_on:  # scaled as they are: an int stays one (as in _sample_rows)
            post += [(k, k, m, units.KiB) for k, m in zip(_BW_KEYS, _BW_METRICS, strict=True)]
            if "bw_agg" in have:
                post.append(("bw_agg", "bw_agg", "bw_agg", 1.0))
        if iops_on:
            post += [(k, k, k, 1.0) for k in _IOPS_KEYS]
    if "total_ios" in have:
        pre.append(("total_ios", "total_ios", "total_ios", 1.0))
    if any(k not in ix for k, *_ in pre + post):
        return None
    return _rows_of(pre, ix) + _rows_of(post, ix)


def _rows_of(rows: list, ix: dict) -> tuple:
    return (picker([ix[k] for k, *_ in rows]), tuple(p for _, p, _, _ in rows),
            tuple(m for _, _, m, _ in rows), tuple(s for *_, s in rows))


# --- A report's plan: every row of a layout read by a few compiled functions ----------------
#
# Reports of one job file give the same rows in the same order (op, position, metric, block size
# by op), only their values differ. Once the fast path above has read _PLAN_AFTER reports of a
# shape (which directions of which jobs have rows), a plan is made of the layout of the next one
# (_report_plan): for each direction with rows, a function compiled from text (_direction_fn)
# that checks every fact the fast path decides its rows by (which numbers and latency families
# it has, its runtime, sampling, the N and zero tests of each family, the percentile keys) and
# gives its values in one list; the job's CPU keys are compared; the op/position/metric lists
# are the layout's, shared. Any fact that differs, or a value the fast path would refuse (an
# UNSET statistic: TypeError), gives None, and the fast path reads the report. A function's
# text holds no position: the jobs and layouts with a direction of one shape share it. A plan
# is checked against the fast path's rows on the report it is made from, and kept only if they
# agree.

def _mask_of(jobs: list) -> tuple:
    """Which directions of each job have rows (what the fast path skips as absent or empty):
    the key of a report's plans."""
    return tuple([tuple([d is not _UNSET and not (d.total_ios <= 0 and d.runtime <= 0)
                         for d in _JOB_DIRS(job)]) for job in jobs])


# (jobs key, _mask_of) -> the plans of the layouts seen with it (_PLANS_PER_SHAPE at most)
_REPORT_PLANS: dict[tuple, list] = {}
_PLAN_SEEN: dict[tuple, int] = {}  # (jobs key, _mask_of) -> reports read without a plan
# a plan's making costs 0.2-0.25 ms (its text and its check; the few direction functions'
# compiles, ~0.5 ms each, are shared by every plan: 5 for the 85 layouts of 2,000 corpus
# reports), what it saves 7-9 us a report (warm, CPU): made at the break-even, so that a folder
# read once pays for no plan it does not earn back
_PLAN_AFTER = 32
_PLANS_PER_SHAPE = 4


def _planned(plan: tuple, jobs: list, key: str, source: str, version: str | None,
             gvals: tuple, defaults: bool, end: float | None):
    """:func:`_fast_records` of a report by a plan, or ``None`` (the fast path reads it): each
    job's values by its steps (as :func:`_run_plan`), then its name, options and times."""
    steps, rows, job_ops, counts, paths = plan
    values: list = []
    infos = []
    bsizes = []
    sizes = set()
    plus = False
    clients = key == "client_stats"
    for job, (dirs, cpu), path, m, ops in zip(jobs, steps, paths, counts, job_ops,
                                               strict=True):
        try:
            got = _job_values(job, dirs, cpu, values)
        except TypeError:  # an UNSET statistic scaled: the fast path refuses it (as it does)
            return None
        if got is None:
            return None
        rts, job_plus = got
        plus = plus or job_plus
        head = _job_head(job, gvals, defaults)
        if head is None:
            return None
        info = _job_info(job, path, clients, end, rts, head, m, plus)
        if info is None:
            return None
        infos.append(info)
        bsizes.append(head[3])
        sizes.update(map(head[3].get, ops))
    n = len(values)
    cols = _fast_columns(source, version, infos, n)
    if len(sizes) == 1 and type(first := next(iter(sizes))) in _INT_OR_NONE:
        bss = _NEW_TUPLE(Const, (first, n))  # what _uniform gives: every row's size equal
    else:  # (sizes are ints or None: equal in a set as in _uniform's count)
        bss = []
        ops = rows["op"]
        k = 0
        for bsize, m in zip(bsizes, counts, strict=True):
            bss += map(bsize.get, ops[k:k + m])
            k += m
    cols.update(op=rows["op"], block_size=bss, position=rows["position"],
                metric=rows["metric"], value=values)
    return (cols, n), plus, version


def _count_towards_plan(pkey: tuple, plans: list | None, jobs: list, rows: dict,
                        values: list, counts: list[int]) -> None:
    """Count a report the fast path read (its ``rows`` and ``values``, ``counts`` rows per job)
    towards a plan of its layout, and make the plan once the layout has been seen
    :data:`_PLAN_AFTER` times."""
    seen = _PLAN_SEEN.get(pkey, 0) + 1
    if seen < _PLAN_AFTER:
        remember(_PLAN_SEEN, pkey, seen, 4096)
        return
    _PLAN_SEEN.pop(pkey, None)
    plan = _report_plan(jobs, pkey[0], pkey[1], rows, values, tuple(counts))
    if plan is None:
        return
    if plans is None:
        remember(_REPORT_PLANS, pkey, [plan], 256)
    else:
        plans.append(plan)


_FIELD_INDICES = tuple(range(len(_DIR_FIELDS)))


class _Source:
    """The text of a plan's function being written: its lines, the constants it names, the
    value expressions of its rows and the rows' positions, metrics and ops."""

    def __init__(self):
        self.lines = ["plus = False"]
        self.consts: dict[str, object] = {}
        self.values: list[str] = []
        self.pos: list[str] = []
        self.met: list[str] = []
        self.ops: list[str] = []

    def const(self, value) -> str:
        name = f"c{len(self.consts)}"
        self.consts[name] = value
        return name

    def check(self, cond: str) -> None:
        self.lines.append(f"if not ({cond}): return None")

    def rows(self, op: str, exprs, pos, met) -> None:
        self.values += exprs
        self.pos += pos
        self.met += met
        self.ops += [op] * len(pos)


def _report_plan(jobs: list, key: str, mask: tuple, rows: dict, values: list,
                 counts: tuple):
    """A plan of the layout of ``jobs`` (read by the fast path into ``rows`` and ``values``):
    ``(each job's steps, rows, each job's ops, each job's number of rows, each job's path)``,
    or ``None`` when the layout has a case the plans leave to the fast path (a percentile
    object with keys it drops) or the plan does not give the fast path's rows. A job's steps:
    for each direction with rows, the getter of its object and the compiled function that
    reads it (:func:`_direction_fn`), and whether it has each CPU figure."""
    pos: list[str] = []
    met: list[str] = []
    ops: list[str] = []
    steps = []
    for i, job in enumerate(jobs):
        path = _job_path(key, i)
        dirs = []
        for (dkey, op), d, on in zip(_DIRS, _JOB_DIRS(job), mask[i], strict=True):
            if not on:
                continue
            got = _direction_fn(d, path, dkey, op)
            if got is None:
                return None
            dirs.append((operator.attrgetter(dkey), got[0]))
            pos += got[1]
            met += got[2]
            ops += got[3]
        cpu = (job.usr_cpu is not _UNSET, job.sys_cpu is not _UNSET)
        keys = tuple(k for k, there in zip(_CPU_KEYS, cpu, strict=True) if there)
        pos += _positions(path, keys)
        met += [m for m, there in zip(_CPU_METRICS, cpu, strict=True) if there]
        ops += ["total"] * len(keys)
        steps.append((tuple(dirs), cpu))
    steps = tuple(steps)
    if pos != rows["position"] or met != rows["metric"] or ops != rows["op"]:
        return None
    got = _run_plan(steps, jobs)
    if got is None or not _same_values(got[0], values):
        return None
    job_ops = []
    k = 0
    for m in counts:
        job_ops.append(tuple(dict.fromkeys(ops[k:k + m])))
        k += m
    return steps, rows, tuple(job_ops), counts, tuple(_job_path(key, i) for i in range(len(jobs)))


def _run_plan(steps: tuple, jobs: list):
    """``(values, each job's runtimes, has bins)`` of a report by its plan's steps, or
    ``None`` where a fact its rows depend on differs."""
    values: list = []
    runtimes = []
    plus = False
    for job, (dirs, cpu) in zip(jobs, steps, strict=True):
        got = _job_values(job, dirs, cpu, values)
        if got is None:
            return None
        runtimes.append(got[0])
        plus = plus or got[1]
    return values, runtimes, plus


def _job_values(job, dirs: tuple, cpu: tuple[bool, bool], values: list):
    """One job's values by its plan's steps (each direction's compiled function, then its CPU
    figures), appended to ``values``: ``(its runtimes, has bins)``, or ``None`` where a fact
    its rows depend on differs (``TypeError``: an UNSET statistic scaled)."""
    rts = [0.0]
    plus = False
    for get, fn in dirs:
        got = fn(get(job))
        if got is None:
            return None
        values += got[0]
        if got[1] is not None:
            rts.append(got[1])
        plus = plus or got[2]
    usr, sys_ = job.usr_cpu, job.sys_cpu
    if (usr is not _UNSET, sys_ is not _UNSET) != cpu:
        return None
    if cpu[0]:
        values.append(float(usr))
    if cpu[1]:
        values.append(float(sys_))
    return rts, plus


def _direction_fn(d, path: str, dkey: str, op: str):
    """The compiled reading of one direction object with rows, like ``d`` at ``path``:
    ``(function, positions, metrics, ops)``, or ``None`` when a plan cannot read it. The
    function gives ``(values, runtime or None, has bins)``, or ``None`` where a fact its rows
    depend on differs; its text holds no position, so that every job and report layout with a
    direction of this shape shares it (compiled once)."""
    src = _Source()
    rt = _plan_direction(src, d, path, dkey, op, "")
    if rt is None:
        return None
    src.lines.append(f"return [{', '.join(src.values)}], {rt or None}, plus")
    text = "def _dir(d):\n" + "".join(f"    {line}\n" for line in src.lines)
    key = (text, tuple(src.consts.values()))
    fn = _DIR_FNS.get(key)
    if fn is None:
        space = {"astuple": _astuple, "UNSET": _UNSET, "mul": operator.mul,
                 "repeat": itertools.repeat, **src.consts}
        exec(compile(text, "<fio JSON direction plan>", "exec"), space)  # (text written here)
        fn = space["_dir"]
        remember(_DIR_FNS, key, fn, 1024)
    return fn, src.pos, src.met, src.ops


# (a direction function's text, its constants) -> the function compiled
_DIR_FNS: dict[tuple, object] = {}


def _same_values(a: list, b: list) -> bool:
    """The same values, of the same types, to the bit (-0.0 is not 0.0; NaN is never the
    same).

    >>> _same_values([1.0, 0.0], [1.0, 0.0]), _same_values([-0.0], [0.0]), _same_values([1], [1.0])
    (True, False, False)
    """
    return (a == b and list(map(type, a)) == list(map(type, b))  # (NaN: never equal)
            and [math.copysign(1.0, x) for x in a if not x] == [
                math.copysign(1.0, y) for y in b if not y])


def _plan_direction(src: _Source, d, path: str, dkey: str, op: str, tag: str):
    """Write the checks and rows of one direction with rows (as :func:`_fast_direction` reads
    it) into ``src``: returns its runtime row's expression, ``""`` when the direction has no
    rows after all, ``None`` when a plan cannot read it."""
    vals = _astuple(d)
    nums = vals[:_N_NUMBERS]
    layout = (True if min(nums) >= 0 else tuple(map(operator.ge, nums, _ZEROS)),
              tuple(v is not None for v in vals[_N_NUMBERS:]))
    is_sync = dkey == "sync"
    i_rt, i_ios, i_bw, i_iops, cases, fams, where = _dir_plan(f"{path}.{dkey}", is_sync, layout)
    v = f"v{tag}"
    src.lines.append(f"{v} = astuple(d)")
    src.check(_layout_check(v, layout))
    runtime = vals[i_rt] if i_rt is not None else 0
    r = f"r{tag}"
    if i_rt is None:
        src.lines.append(f"{r} = 0")
    else:
        if type(runtime) is float and not runtime:
            return None
        src.lines.append(f"{r} = {v}[{i_rt}]")
        src.check(f"type({r}) is not float or {r}")
    ios = f"{v}[{i_ios}]" if i_ios is not None else "0"
    empty = f"not {ios} and {'True' if is_sync else f'not {r}'}"
    if not (vals[i_ios] if i_ios is not None else 0) and (is_sync or not runtime):
        src.check(empty)
        return ""
    src.check(f"not ({empty})")
    case = (bool(runtime), i_bw is not None and vals[i_bw] > 0,
            i_iops is not None and vals[i_iops] > 0)
    src.check(" and ".join([f"bool({r}) is {case[0]}"] + [
        f"({v}[{i}] > 0) is {on}" for i, on in zip((i_bw, i_iops), case[1:], strict=True)
        if i is not None]))
    rows = cases.get(case, cases)
    if rows is cases:
        rows = _case_rows(cases, case, where)
    if rows is None:
        return None
    pre, pre_pos, pre_met, pre_scales, post, post_pos, post_met, post_scales = rows
    src.rows(op, [f"{v}[{k}] * {src.const(sc)}" for k, sc in
                  zip(pre(_FIELD_INDICES), pre_scales, strict=True)], pre_pos, pre_met)
    if not _plan_latency(src, vals, fams, op, tag, v):
        return None
    src.rows(op, [f"{v}[{k}] * {src.const(sc)}" for k, sc in
                  zip(post(_FIELD_INDICES), post_scales, strict=True)], post_pos, post_met)
    return f"float({r} or 0)"


def _layout_check(v: str, layout: tuple) -> str:
    """The test that a direction's values ``v`` have the numbers and families of ``layout``."""
    conds = ([f"min({v}[:{_N_NUMBERS}]) >= 0"] if layout[0] is True else
             [f"{v}[{k}] {'>=' if there else '<'} 0" for k, there in enumerate(layout[0])])
    conds += [f"{v}[{_N_NUMBERS + k}] is {'not ' if there else ''}None"
              for k, there in enumerate(layout[1])]
    return " and ".join(conds)


def _plan_latency(src: _Source, vals: tuple, fams: tuple, op: str, tag: str, v: str) -> bool:
    """Write the checks and rows of a direction's latency families (as :func:`_fast_latency`
    reads them); ``False`` when a plan cannot read them."""
    for i, fam, scale, _scales, fpath, positions, metrics in fams:
        lo, hi, mean, _sd, n, pct, _bins = _astuple(vals[i])
        names = [f"{x}{tag}_{i}" for x in ("lo", "hi", "me", "sd", "n", "p", "b")]
        lo_, hi_, me_, sd_, n_, p_, b_ = names
        src.lines.append(f"{', '.join(names)} = astuple({v}[{i}])")
        src.lines.append(f"if not plus and {b_} is not UNSET and memoryview({b_})[:1] == "
                         "b'{': plus = True")
        zero = (f"({n_} is None or {n_} is UNSET) and {lo_} == 0 and {hi_} == 0 and "
                f"{me_} == 0")
        if n == 0:
            src.check(f"{n_} == 0")
            continue
        if (n is None or n is _UNSET) and lo == 0 and hi == 0 and mean == 0:
            src.check(f"not {n_} == 0 and {zero}")
            continue
        src.check(f"not {n_} == 0 and not ({zero})")
        sc = src.const(scale)
        src.rows(op, [f"{x} * {sc}" for x in (lo_, hi_, me_, sd_)], positions, metrics)
        if type(pct) is not dict or not pct:
            src.check(f"type({p_}) is not dict or not {p_}")
            continue
        keys = tuple(pct)
        plan = _PCT_PLANS.get((fam, fpath, keys))
        if plan is None or plan[2] is not None:
            return False
        src.check(f"type({p_}) is dict and tuple({p_}) == {src.const(keys)}")
        src.rows(op, [f"*map(mul, {p_}.values(), repeat({sc}))"], plan[0], plan[1])
    return True
