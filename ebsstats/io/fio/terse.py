"""fio terse / minimal output (``--output-format=terse``, versions 2–5) → rows; the format is
described in :mod:`ebsstats.io.fio`."""

from __future__ import annotations

import functools
import math
import re

from ebsstats import schema, units
from ebsstats.errors import ParseError
from ebsstats.io._common import Parsed
from ebsstats.io.fio._options import (
    _COUNT_METRICS,
    _JOB_LINE,
    _RATE_METRICS,
    _TERSE_START,
    TOOL,
    _no_report,
    _notes_beside,
    job_line,
    job_line_meta,
)

__all__: list[str] = []  # the reader's public face is ebsstats.io.fio

_TERSE_DIR = 41  # fields of one direction block in v2-v4 (v5: + 6)
_TERSE_TAIL = 34  # cpu 5 + io depths 7 + lat us 10 + lat ms 12


def _parse_terse(text: str, source: str) -> Parsed:
    records: list[dict] = []
    other: list[str] = []  # the text that is no terse line: fio's notes (_notes_beside)
    headers: dict[str, tuple[dict, dict]] = {}  # job name -> (options, block sizes), the last
    # job line of that name before a terse line (runs appended to one file: each its own)
    bad: list[str] = []
    version = None
    nterse = 0
    lines = text.splitlines()
    for lineno, raw in enumerate(lines, 1):
        pieces = raw.split("\r")
        line = pieces[-1]
        other.extend(pieces[:-1])
        if not line.strip():
            continue
        if line.startswith(";"):
            continue  # client/server: disk util on its own line
        if line.startswith("Jobs:") and not _TERSE_START.match(line):
            line = _after_status(line)
        if not (_TERSE_START.match(line) and line.count(";") >= 100):
            other.append(line)
            m = _JOB_LINE.match(line)
            if m:  # the line fio prints per job before it starts: its options, for its rows
                try:
                    opts, bsizes = job_line(m)
                    headers[m.group(1)] = job_line_meta(opts), bsizes
                except ValueError as exc:  # (an iodepth beyond 64 bits: no options taken)
                    bad.append(f"line {lineno}: job line not read ({exc})")
            continue
        nterse += 1
        try:
            recs, v = _terse_line(line.split(";"), source, lineno)
        except (ValueError, IndexError, OverflowError) as exc:
            raise ParseError(source, lineno, "a fio terse line", found=str(exc)) from exc
        version = version or v
        if headers:
            _with_header(recs, headers)
        records.extend(recs)
    if not nterse:
        raise _no_report(text, source)
    return Parsed(tool=TOOL, format="terse", version=version, records=records,
                  notes=_notes_beside(["\n".join(other)], "terse lines") + bad)


def _with_header(recs: list[dict], headers: dict[str, tuple[dict, dict]]) -> None:
    """A terse job's records given the metadata and block sizes of the job line of its name,
    if any (``terse,normal`` output prints it; a terse line holds neither): as the normal
    report's rows get them."""
    got = headers.get(recs[0]["job"]) if recs else None
    if got is None:
        return
    meta, bsizes = got
    for rec in recs:
        rec.update(meta)
        bs = bsizes.get(rec["op"])
        if bs is not None:
            rec["block_size"] = bs


def _after_status(line: str) -> str:
    """A line of fio's status (``Jobs: 1 (f=1): [R(1)][55.3%][r=85 IOPS][eta 04``) whose
    carriage returns were lost, a terse record after it on the same line (hikalium/bench's
    log: ``…[eta 043;fio-3.28;Seq1M-Read-Q8;0;0;1048576;87098;…``, a whole job dropped): the
    record from its version and ``fio-`` fields on (terse 3-5; the status text has no
    ``;``), else the line as it is.

    >>> _after_status("Jobs: 1 (f=1): [R(1)][eta 043;fio-3.28;job;0")
    '3;fio-3.28;job;0'
    """
    m = _RECORD_IN_STATUS.search(line)
    if m is None or ";" in line[:m.start()]:
        return line
    return line[m.start():]


_RECORD_IN_STATUS = re.compile(r"[3-5];fio-")


def _f(fields: list[str], i: int, lineno: int, what: str) -> float:
    try:
        value = float(fields[i])  # float() ignores surrounding space itself
    except ValueError:
        value = None
    if value is None:
        try:
            value = float(fields[i].strip().rstrip("%"))
        except ValueError:
            raise ValueError(f"field {i} ({what}) is {fields[i]!r}, not a number") from None
    if not (value >= 0 and math.isfinite(value)):
        raise ValueError(f"field {i} ({what}) is {fields[i]!r}, not a finite, non-negative "
                         "number")
    return value


#: the job header per terse version: (version field or None, name, groupid, error, first
#: direction field); v2 has no fio version field
_TERSE_HEAD = {2: (None, 1, 2, 3, 4)}
_TERSE_HEAD_V3 = (1, 2, 3, 4, 5)


def _terse_line(f: list[str], source: str, lineno: int) -> tuple[list[dict], str | None]:
    tv, version, name, gid, error, pos, ndirs = _terse_layout(f)
    flags = ["aggregate"] if name == "All clients" else []
    if error:
        flags.append(f"error={error}")
    base = {"source": source, "run_key": f"line {lineno}", "tool": TOOL, "tool_version": version,
            "test": name, "job": name, "groupid": gid}
    if flags:
        base["flag"] = ",".join(flags)
    dsize = _TERSE_DIR + (6 if tv == 5 else 0)
    rows: list[tuple[str, int, str, float]] = []  # op, field index, metric, value
    for k, op in enumerate(("read", "write", "trim")[:ndirs]):
        rows.extend(_terse_direction(f, pos + k * dsize, op, tv, lineno, bool(error)))
    cpu = pos + ndirs * dsize
    rows.append(("total", cpu, "cpu_usr", _f(f, cpu, lineno, "usr cpu")))
    rows.append(("total", cpu + 1, "cpu_sys", _f(f, cpu + 1, lineno, "sys cpu")))
    desc = _terse_description(f[cpu + _TERSE_TAIL:])
    if desc:
        base["description"] = desc
    for _op, idx, metric, value in rows:
        if math.isinf(value):  # finite as printed, but not once in B/s or s (1e308 KiB/s)
            raise ValueError(f"field {idx} ({metric}) overflows in canonical units")
    if error and not any(r[2] in _RATE_METRICS for r in rows):
        # a failed job with no direction left: NaN rates (terse does not say which op it ran)
        rows.extend(("total", pos, m, math.nan) for m in _RATE_METRICS)
    return _terse_records(rows, base, lineno, bool(error)), version


def _terse_layout(f: list[str]) -> tuple[int, str | None, str, str, int, int, int]:
    """``(terse version, fio version, job name, groupid, error, first direction field, number of
    directions)`` of a terse line, after checking it has the fields its version needs."""
    tv = int(f[0])
    vi, ni, gi, ei, pos = _TERSE_HEAD.get(tv, _TERSE_HEAD_V3)
    dsize = _TERSE_DIR + (6 if tv == 5 else 0)
    if tv == 2:  # v2 has trim only from fio 2.1 on: the field count tells
        ndirs = 3 if len(f) >= pos + 3 * dsize + _TERSE_TAIL else 2
    else:
        ndirs = 2 if tv == 3 else 3
    need = pos + ndirs * dsize + _TERSE_TAIL
    if len(f) < need:
        raise ValueError(f"{len(f)} fields, terse v{tv} has at least {need}")
    version = f[vi] if vi is not None else None
    return tv, version, f[ni], f[gi], int(f[ei]), pos, ndirs


def _terse_description(rest: list[str]) -> str:
    """The job description after the fixed fields: disk util groups (9 fields each), then total
    errors; first error, then the description."""
    while len(rest) >= 9 and not _is_number(rest[0]) and rest[8].endswith("%"):
        rest = rest[9:]
    if len(rest) >= 2 and rest[0].strip().isdigit() and rest[1].strip().lstrip("-").isdigit():
        rest = rest[2:]
    return ";".join(rest).strip()


def _terse_records(rows: list[tuple[str, int, str, float]], base: dict, lineno: int,
                   error: bool) -> list[dict]:
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
    return records


def _is_number(text: str) -> bool:
    try:
        float(text.strip().rstrip("%"))
    except ValueError:
        return False
    return True


# One direction block, as field offsets from its first field (fio's stat.c, terse v2-v5):
#: io, bw, iops, runtime: (what the field is, metric, scale to canonical units, a rate)
_DIR_HEAD = (("io KiB", "io_bytes", units.KiB, False), ("bw KiB/s", "bandwidth", units.KiB, True),
             ("iops", "iops", 1.0, True), ("runtime ms", "runtime", units.MS, False))
#: the latency stats looked at to tell a failed job's direction from an empty one
_DIR_EMPTY_LATS = (4, 5, 6, 8, 9, 10, 32, 33, 34)
#: latency families: (family, offset of min/max/mean/stddev, what, metrics) in µs
_DIR_LATS = tuple((fam, at, f"{fam} stat", tuple(f"{fam}_{k}" for k in
                                                 ("min", "max", "mean", "stddev")))
                  for fam, at in (("slat", 4), ("clat", 8), ("lat", 32)))
_DIR_PCT = 12  # 20 clat percentiles "P%=value"
_DIR_BW = 36  # bw min, max, agg %, mean, stddev (KiB/s); v5: + samples at 41
_DIR_BW_ROWS = (("bandwidth_min", units.KiB), ("bandwidth_max", units.KiB), ("bw_agg", 1.0),
                ("bandwidth_mean", units.KiB), ("bandwidth_stddev", units.KiB))
_DIR_IOPS = 42  # v5: iops min, max, mean, stddev, samples
_DIR_IOPS_ROWS = (("iops_min", 1.0), ("iops_max", 1.0), ("iops_mean", 1.0), ("iops_stddev", 1.0))


def _block(f: list[str], at: int, n: int, lineno: int, what: str) -> list[float]:
    return [_f(f, at + j, lineno, what) for j in range(n)]


def _block_rows(op: str, at: int, table, values) -> list[tuple[str, int, str, float]]:
    """Rows of consecutive fields from ``at``: ``table`` is (metric, scale) per field."""
    return [(op, at + j, metric, v * scale) for j, ((metric, scale), v) in
            enumerate(zip(table, values, strict=False))]


def _terse_direction(f, s, op, tv, lineno, error):
    head = [_f(f, s + j, lineno, what) for j, (what, *_) in enumerate(_DIR_HEAD)]
    if head[3] == 0 and head[0] == 0:  # no runtime, no io
        lats = [_f(f, s + j, lineno, "latency stat") for j in _DIR_EMPTY_LATS]
        if not error or not any(lats):
            return []  # empty direction (a failed job keeps one that has latencies)
    rates = bool(head[3] or error)
    out = [(op, s + j, metric, v * scale) for j, ((_, metric, scale, rate), v) in
           enumerate(zip(_DIR_HEAD, head, strict=True)) if rates or not rate]
    out += _terse_latencies(f, s, op, lineno)
    bw = _block(f, s + _DIR_BW, 5, lineno, "bw sample stat")
    samples = _f(f, s + 41, lineno, "bw samples") if tv == 5 else None
    if (samples > 0) if samples is not None else (bw[1] > 0):
        out += _block_rows(op, s + _DIR_BW, _DIR_BW_ROWS, bw)
    if tv == 5:
        iops = _block(f, s + _DIR_IOPS, 5, lineno, "iops sample stat")
        if iops[4] > 0:
            out += _block_rows(op, s + _DIR_IOPS, _DIR_IOPS_ROWS, iops)
    return out


def _terse_latencies(f: list[str], s: int, op: str, lineno: int
                     ) -> list[tuple[str, int, str, float]]:
    """slat, clat (with its percentiles) and lat of the direction at ``s``; a family whose min,
    max and mean are all 0 was not measured."""
    out = []
    for fam, at, what, metrics in _DIR_LATS:
        stats = _block(f, s + at, 4, lineno, what)
        if stats[0] == 0 and stats[1] == 0 and stats[2] == 0:
            continue
        out += [(op, s + at + j, m, v * units.US) for j, (m, v) in
                enumerate(zip(metrics, stats, strict=True))]
        if fam == "clat":
            out += _terse_percentiles(f, s + _DIR_PCT, op)
    return out


def _terse_percentiles(f: list[str], at: int, op: str) -> list[tuple[str, int, str, float]]:
    """The 20 ``P%=value`` clat percentile fields from ``at`` (µs); unused slots are ``0%=0``."""
    out = []
    for i in range(at, at + 20):
        cell = f[i]
        p, sep, v = cell.partition("%=")
        if not sep:
            raise ValueError(f"field {i} is {cell!r}, expected 'P%=value'")
        pct = float(p)
        value = float(v) if pct <= 100 else math.nan
        if not (value >= 0 and math.isfinite(value)):
            raise ValueError(f"field {i} is {cell!r}, expected 'P%=value' "
                             "with 0 <= P <= 100 and a finite, non-negative value")
        if pct <= 0:
            continue  # unused slot "0%=0"
        out.append((op, i, _clat_pct(p), value * units.US))
    return out


@functools.lru_cache(maxsize=1024)
def _clat_pct(p: str) -> str:
    return schema.percentile_metric("clat", p)
