"""fio normal (human) text output (2.x and 3.x) → rows; the format is described in
:mod:`ebsstats.io.fio`."""

from __future__ import annotations

import datetime
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
    _RW_OPS,
    TOOL,
    _no_report,
    _strip_rw,
    job_line,
    job_line_meta,
)

__all__: list[str] = []  # the reader's public face is ebsstats.io.fio

_N_VERSION = re.compile(r"^fio[- ](\d[\w.\-+]*)\s*$")
_N_BANNER = re.compile(r"^hostname=([^,]+),.*\bfio=(fio-[^,\s]+)")
_N_JOB = re.compile(r"^(.+?): \(groupid=(\d+), jobs=(\d+)\): err=\s*(-?\d+)")
# the job line's end (fio 2.1+): "pid=6804: Sun Nov 22 03:29:46 2026", the time fio printed the
# report (stat.c: time(), ctime_r: local time, C-locale names, the day padded with a space)
_N_WHEN = re.compile(r"pid=\d+: ([A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})\s*$")
_UTC = datetime.UTC
# (a rate in bits with --unit_base=1: 2.x ``bw=958205Kbit/s``, 3.x ``BW=935Mibit/s``)
_N_DIR3 = re.compile(r"^\s+(read|write|trim|mixed)\s*: IOPS=([\d.]+[kMGT]?), "
                     r"BW=([\d.]+)\s*([kKMGTP]?i?(?:B|bit))/s \([^)]*\)\(([\d.]+)\s*"
                     r"([kKMGTP]?i?B)/(\d+)msec\)")
_N_DIR2 = re.compile(r"^\s+(read|write|trim|mixed)\s*: io=\s*([\d.]+)\s*([KMGTP]?B),\s*"
                     r"bw=\s*([\d.]+)\s*([KMGTP]?(?:B|bit))/s,\s*iops=\s*([\d.]+[kMGT]?)\s*,"
                     r"\s*runt=\s*(\d+)msec")
_N_DIR_ANY = re.compile(r"^\s+(read|write|trim|mixed)\s*: ")
# (``sync``: the latency of the fsync/fdatasync block, the JSON's ``sync.lat_ns``: op sync, lat_*)
_N_LAT = re.compile(r"^\s+(slat|clat|lat|sync)\s*\((usec|nsec|msec)\)\s*:\s*(min=.*)$")
_N_PCT_HEAD = re.compile(r"^\s+(slat|clat|lat|sync) percentiles \((usec|nsec|msec)\):")
_N_PCT = re.compile(r"([\d.]+)th=\[\s*([\d.]+[kMG]?)\]")
_N_BW = re.compile(r"^\s+bw \(([^)]*)\)\s*:\s*(min=.*)$")
_N_IOPS = re.compile(r"^\s+iops\s*:\s*(min=.*)$")
_N_CPU = re.compile(r"^\s+cpu\s*:\s*usr=([\d.]+)%,\s*sys=([\d.]+)%")
# fio 3.4+: "issued rwts: total=r,w,t,sync"; fio 2.17-3.3: "issued rwt: total=r,w,t"
_N_ISSUED3 = re.compile(r"issued rwts?: total=(\d+),(\d+),(\d+)(?:,(\d+))?")
_N_ISSUED2 = re.compile(r"issued\s*: total=r=(\d+)/w=(\d+)(?:/d=(\d+))?")
# fio 1.x: "issued r/w/d: total=32239/0/0" (1.5x; "issued r/w:" before discards)
_N_ISSUED1 = re.compile(r"issued r/w(?:/d)?: total=(\d+)/(\d+)(?:/(\d+))?")
_N_TIME = {"usec": units.US, "nsec": units.NS, "msec": units.MS}
_N_OP = {"read": "read", "write": "write", "trim": "trim", "mixed": "total"}
_N_OPS = tuple(_N_OP)  # the first word of a direction's summary line
_N_FAMILIES = ("slat", "clat", "lat", "sync")  # … of a latency line
_N_FAMILY = {"slat": "slat", "clat": "clat", "lat": "lat", "sync": "lat"}  # its metrics' prefix
_N_SYNC_HEAD = "fsync/fdatasync/sync_file_range:"  # (3.x: the sync block's first line)


def _kv(text: str) -> dict[str, str]:
    out = {}
    for part in text.split(","):
        k, sep, v = part.partition("=")
        if sep:
            out[k.strip()] = v.strip().rstrip("%").strip()
    return out


def _bytes_unit(unit: str) -> float:
    """fio's printed byte units: 3.x ``KiB``/``MiB`` (binary) or ``kB``/``MB`` (decimal, with
    kb_base=1000); 2.x ``KB``/``MB`` are binary (fio 2.x meant KiB). The same in bits
    (``--unit_base=1``: 2.x ``Kbit``, 3.x ``Kibit``/``kbit``): an eighth of it.

    >>> _bytes_unit("KiB"), _bytes_unit("kB"), _bytes_unit("KB"), _bytes_unit("Kbit")
    (1024.0, 1000.0, 1024.0, 128.0)
    """
    if unit.endswith("bit"):
        return _bytes_unit(unit[:-3] + "B") / 8
    if unit in ("B", ""):
        return 1.0
    prefix = unit[0].lower()
    if "i" in unit or unit.isupper():
        return float(units.KiB ** ("kmgtp".index(prefix) + 1))
    return float(1000 ** ("kmgtp".index(prefix) + 1))


class _Report:
    """What the lines before the first job block said, and the job blocks read so far."""

    __slots__ = ("version", "host", "headers", "taken", "notes", "jobs")

    def __init__(self) -> None:
        self.version: str | None = None
        self.host: str | None = None
        # job name → the (options, block sizes) of each of its header lines, in order; a job
        # block takes the next of its name not taken yet, else the last (numjobs clones)
        self.headers: dict[str, list[tuple[dict, dict]]] = {}
        self.taken: dict[str, int] = {}
        self.notes: list[str] = []
        self.jobs: list[dict] = []

    def header_of(self, name: str) -> tuple[dict, dict]:
        """The header a job block of ``name`` opening now takes: runs of one job appended to
        a file (a wrapper script looping over block sizes: jharriga/fiotest's 4K, 64K, 512K)
        each print their own header before their block."""
        lines = self.headers.get(name)
        if not lines:
            return {}, {}
        k = self.taken.get(name, 0)
        self.taken[name] = k + 1
        return lines[min(k, len(lines) - 1)]


_HOST_PREFIX = re.compile(r"^<[^>]*>\s?")  # client/server: "<hostname> " before each line


def _parse_normal(text: str, source: str) -> Parsed:
    rep = _Report()
    job: dict | None = None
    op: str | None = None  # the direction whose block the lines are in
    pfam: tuple[str, float] | None = None  # the percentile family being listed, and its unit
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rsplit("\r", 1)[-1]
        if line.startswith("<"):
            line = _HOST_PREFIX.sub("", line)
        if not line.strip():
            continue
        try:
            m = _N_JOB.match(line)
            if m:
                job = _new_job(m, n)
                job["header"] = rep.header_of(job["name"])
                rep.jobs.append(job)
                op = pfam = None
            elif job is None:
                _preamble_line(line, rep)
            elif line.startswith(("Run status group", "Disk stats")):
                job = None
            else:
                op, pfam = _job_line(line, n, job, op, pfam, source)
                if type(pfam) is _Kept:  # a job file's section line amid the percentiles
                    rep.notes.append(f"line {n}: {line.strip()!r} inside a percentiles block: "
                                     "skipped, the block read on")
                    pfam = tuple(pfam)
        except ParseError:
            raise
        except (ValueError, KeyError, IndexError, OverflowError) as exc:
            raise ParseError(source, n, "a line of fio's normal report", found=line.strip()
                             ) from exc
    if not rep.jobs:
        raise _no_report(text, source)
    records: list[dict] = []
    for job in rep.jobs:
        records += _job_records(job, rep, source)
        rep.notes += [f"line {k}: a direction summary in a form ebsstats does not read, its "
                      f"IOPS, bandwidth and runtime left out: {line[:100]}"
                      for k, line in job.get("unread", ())]
    return Parsed(tool=TOOL, format="normal", version=rep.version, records=records,
                  notes=rep.notes)


def _new_job(m: re.Match, n: int) -> dict:
    """A job block from its ``name: (groupid=0, jobs=1): err= 0`` line."""
    job = {"name": m.group(1), "gid": m.group(2), "jobs": int(m.group(3)),
           "err": int(m.group(4)), "line": n, "rows": [], "ops": [],
           "printed": _printed_at(m.string)}
    if job["jobs"] >= 2**63 or abs(job["err"]) >= 2**63:
        raise ValueError("a number beyond 64 bits")
    return job


def _printed_at(line: str) -> datetime.datetime | None:
    """When fio printed a job's report, from its job line, read as UTC (the line has no zone);
    ``None`` when the line has no time (fio 2.0) or not a real one.

    >>> _printed_at("rr: (groupid=0, jobs=4): err= 0: pid=6804: Sun Nov  2 03:29:46 2026")
    datetime.datetime(2026, 11, 2, 3, 29, 46, tzinfo=datetime.timezone.utc)
    >>> _printed_at("rr: (groupid=0, jobs=1): err= 0: pid=29612") is None
    True
    """
    m = _N_WHEN.search(line)
    if m is None:
        return None
    try:
        t = datetime.datetime.strptime(" ".join(m.group(1).split()), "%a %b %d %H:%M:%S %Y")
    except ValueError:  # (Feb 30: the form of a date, not a date)
        return None
    return t.replace(tzinfo=_UTC)


def _started(job: dict) -> datetime.datetime | None:
    """A job's start, to the second: when its report was printed (the end of its run, cut to
    the second: the end is within the second after it) less its longest direction runtime,
    rounded; ``None`` without either.

    >>> end = datetime.datetime(2026, 11, 22, 3, 40, 0, tzinfo=_UTC)
    >>> _started({"printed": end, "rows": [("read", 5, "runtime", 1.001)]}).time()
    datetime.time(3, 39, 59)
    """
    end = job["printed"]
    runtimes = [r[3] for r in job["rows"] if r[2] == "runtime" and math.isfinite(r[3])]
    if end is None or not runtimes:
        return None
    try:
        mid = end - datetime.timedelta(seconds=max(runtimes) - 0.5)
    except OverflowError:  # a runtime of ages: before year 1
        return None
    return mid.replace(microsecond=0) + datetime.timedelta(seconds=mid.microsecond >= 500_000)


def _preamble_line(line: str, rep: _Report) -> None:
    """A line before the first job block: a job's header, fio's version or banner, a warning."""
    m = _JOB_LINE.match(line)
    if m:
        rep.headers.setdefault(m.group(1), []).append(job_line(m))
        return
    m = _N_VERSION.match(line.strip())
    if m:
        rep.version = line.strip() if line.startswith("fio-") else m.group(1)
        return
    m = _N_BANNER.match(line)
    if m:
        rep.host, rep.version = m.group(1).strip(), m.group(2)
        return
    if line.startswith("fio:") or "warning" in line.lower() or line.startswith("note:"):
        rep.notes.append(line.strip())


def _job_line(line: str, n: int, job: dict, op: str | None, pfam: tuple[str, float] | None,
              source: str) -> tuple[str | None, tuple[str, float] | None]:
    """Read one line of a job block; the direction and percentile family after it."""
    rows = job["rows"]
    before = len(rows)
    text = line.lstrip()
    opened = _normal_line(line, text, n, job, op, pfam)
    if len(rows) > before:
        for _o, _n, metric, value in rows[before:]:
            if not (value >= 0 and math.isfinite(value)):
                raise ParseError(source, n, f"a finite, non-negative {metric}",
                                 found=line.strip())
    if opened is not None:
        if opened != "sync":  # (the sync block has latencies and a count, no rates)
            job["ops"].append(opened)
        return opened, None
    m = _N_PCT_HEAD.match(line) if text.startswith(_N_FAMILIES) else None
    if m:
        return op, (_N_FAMILY[m.group(1)], _N_TIME[m.group(2)])
    if pfam is not None and text.startswith("[") and _SECTION.fullmatch(text.rstrip()):
        # (kangeek/fio-bench-disks-ceph: a "[global]" line, the job file's, printed between
        # "clat percentiles (usec):" and its rows: the block ended there, 17 rows lost)
        return op, _Kept(pfam)
    return op, (None if not text.startswith("|") else pfam)


_SECTION = re.compile(r"\[[^\]\s]+\]")  # a fio job file's section line: [global], [job1]


class _Kept(tuple):
    """A percentile family kept across a stray line (the caller notes the line)."""


def _job_records(job: dict, rep: _Report, source: str) -> list[dict]:
    """The rows of one job block as records, with the job's header options."""
    opts, bsizes = job["header"]
    base = {"source": source, "run_key": f"line {job['line']}", "tool": TOOL,
            "tool_version": rep.version, "test": job["name"], "job": job["name"],
            "groupid": job["gid"], "threads": job["jobs"], **job_line_meta(opts)}
    if rep.host:
        base["host"] = rep.host
    start = _started(job)
    if start is not None:
        base["timestamp"] = start
    error = job["err"]
    rows = job["rows"]
    if error:
        base["flag"] = f"error={error}"
        done = {(r[0], r[2]) for r in rows}
        ops = job["ops"] or list(_RW_OPS.get(_strip_rw(opts.get("rw")) or "", ("total",)))
        rows += [(o, job["line"], m, math.nan) for o in ops for m in _RATE_METRICS
                 if (o, m) not in done]
    _exact_iops(rows)
    records = []
    for rop, line_no, metric, value in rows:
        if error and metric not in _COUNT_METRICS and value == 0.0:
            value = math.nan
        rec = dict(base)  # faster than {**base, …} or .update(…) for these small dicts
        rec["op"] = rop
        rec["block_size"] = bsizes.get(rop)
        rec["position"] = f"line {line_no}"
        rec["metric"] = metric
        rec["value"] = value
        records.append(rec)
    return records


def _exact_iops(rows: list) -> None:
    """Each direction's printed IOPS replaced by the I/Os it issued over its runtime, the
    figure fio printed it from: fio computes ``1000 * issued / runtime_ms`` in integers and
    prints the quotient cut to a whole number (``iops=0`` for 37 writes in 60.119 s, 2.x's
    ``iops=359`` for 359.7) or, from 10,000 on, rounded to three significant digits (3.x's
    ``IOPS=114k`` for 114,189). Only where the two agree to that precision (less than 1 I/O per
    second apart; from 10,000, half a unit of the third digit): a count or a runtime that is
    not the one fio divided leaves the printed figure as it is.

    >>> rows = [("read", 6, "iops", 114000.0), ("read", 6, "runtime", 3.001),
    ...         ("read", 25, "total_ios", 342683.0)]
    >>> _exact_iops(rows); round(rows[0][3], 1)
    114189.6
    """
    found: dict[str, dict[str, int]] = {}
    for k, row in enumerate(rows):
        if row[2] in _EXACT_FROM:
            found.setdefault(row[0], {})[row[2]] = k
    for at in found.values():
        if len(at) < 3:
            continue
        printed = rows[at["iops"]][3]
        secs = rows[at["runtime"]][3]
        if not secs > 0 or not math.isfinite(printed):
            continue
        exact = rows[at["total_ios"]][3] / secs
        if abs(exact - printed) < _printed_precision(printed):
            rows[at["iops"]] = (*rows[at["iops"]][:3], exact)


_EXACT_FROM = frozenset({"iops", "total_ios", "runtime"})


def _printed_precision(printed: float) -> float:
    """How far the quotient may lie from a printed IOPS figure: below 1 under 10,000 (an
    integer, cut), else half a unit of its third significant digit (``114k``: 500) plus the 1
    the integer quotient fio rounds was cut by, with a margin for the float of the printed
    text (rawstor_bench's fio-3.40 ``IOPS=10.1k`` for 101,514 I/Os in 10.001 s: 10,150.38,
    fio's 10,150 printed as ``10.1``, 50.38 from it).

    >>> [round(_printed_precision(v), 3) for v in (359.0, 42300.0, 114000.0)]
    [1.0, 51.0, 501.0]
    """
    if printed < 10_000:
        return 1.0
    half = 0.5 * 10.0 ** (math.floor(math.log10(printed)) - 2)
    return (half + 1) * (1 + 2e-8)


# conversions of a value group (and its unit group) of a direction's summary line
def _count(m: re.Match, i: int, u: int | None) -> float:
    return units.scaled(m.group(i))


def _bytes(m: re.Match, i: int, u: int | None) -> float:
    return float(m.group(i)) * _bytes_unit(m.group(u))


def _msec(m: re.Match, i: int, u: int | None) -> float:
    return int(m.group(i)) * units.MS


#: a direction's summary line, 3.x ``read: IOPS=…, BW=…`` or 2.x ``read : io=…, bw=…, iops=…,
#: runt=…``: its values in the order fio prints them, as (metric, conversion, value group, unit
#: group or None)
_N_DIRS = (
    (_N_DIR3, (("iops", _count, 2, None), ("bandwidth", _bytes, 3, 4),
               ("io_bytes", _bytes, 5, 6), ("runtime", _msec, 7, None))),
    (_N_DIR2, (("io_bytes", _bytes, 2, 3), ("bandwidth", _bytes, 4, 5),
               ("iops", _count, 6, None), ("runtime", _msec, 7, None))),
)
# key=value stats lines: (key, metric) in the order they become rows
_N_LAT_KEYS = (("min", "min"), ("max", "max"), ("avg", "mean"), ("stdev", "stddev"))
_N_BW_KEYS = (("min", "bandwidth_min"), ("max", "bandwidth_max"), ("avg", "bandwidth_mean"),
              ("stdev", "bandwidth_stddev"))
_N_IOPS_KEYS = (("min", "iops_min"), ("max", "iops_max"), ("avg", "iops_mean"),
                ("stdev", "iops_stddev"))


def _normal_line(line: str, text: str, n: int, job: dict, op: str | None,
                 pfam: tuple[str, float] | None) -> str | None:
    """Add the values of one line of a job's block to ``job["rows"]``; the direction the line
    opens (``read: IOPS=…``), if it does. ``text`` is the line without its indent: each
    pattern is tried only on lines that start with its first word (most lines of a block are
    distributions that none of them match)."""
    rows = job["rows"]
    if text.startswith(_N_OPS):
        for regex, fields in _N_DIRS:
            m = regex.match(line)
            if m:
                o = _N_OP[m.group(1)]
                rows += [(o, n, metric, conv(m, i, u)) for metric, conv, i, u in fields]
                return o
        m = _N_DIR_ANY.match(line)
        if m:  # a summary line in a form not known: said, and the direction's lines read
            job.setdefault("unread", []).append((n, line.strip()))
            return _N_OP[m.group(1)]
    if op is not None and _stats_line(line, text, n, rows, op, pfam):
        return None
    if text.startswith(_N_SYNC_HEAD):
        return "sync"
    m = _N_CPU.match(line) if text.startswith("cpu") else None
    if m:
        rows += [("total", n, "cpu_usr", float(m.group(1))),
                 ("total", n, "cpu_sys", float(m.group(2)))]
        return None
    m = (_N_ISSUED3.search(line) or _N_ISSUED2.search(line) or _N_ISSUED1.search(line)
         ) if "issued" in line else None
    if m:
        _issued_rows(m, n, job)
    return None


def _stats_line(line: str, text: str, n: int, rows: list, op: str,
                pfam: tuple[str, float] | None) -> bool:
    """A direction's latency, percentile, bw or iops line → rows; whether it was one."""
    m = _N_LAT.match(line) if text.startswith(_N_FAMILIES) else None
    if m:
        fam, scale, kv = _N_FAMILY[m.group(1)], _N_TIME[m.group(2)], _kv(m.group(3))
        rows += [(op, n, f"{fam}_{name}", units.scaled(kv[key]) * scale)
                 for key, name in _N_LAT_KEYS]
        return True
    if pfam is not None and text.startswith("|"):
        for p, v in _N_PCT.findall(line):
            if not 0 < float(p) <= 100:
                raise ValueError(f"percentile {p} outside (0, 100]")
            rows.append((op, n, _pct_metric(pfam[0], p), units.scaled(v) * pfam[1]))
        return True
    m = _N_BW.match(line) if text.startswith("bw") else None
    if m:
        unit = m.group(1).replace(" ", "")
        factor = _bytes_unit(unit[:-2] if unit.endswith("/s") else unit)
        kv = _kv(m.group(2))
        samples = kv.get("samples")
        if (int(samples) > 0) if samples is not None else float(kv["max"]) > 0:
            rows += [(op, n, metric, float(kv[key]) * factor) for key, metric in _N_BW_KEYS]
            rows.append((op, n, "bw_agg", float(kv["per"])))
        return True
    m = _N_IOPS.match(line) if text.startswith("iops") else None
    if m:
        kv = _kv(m.group(1))
        if int(kv.get("samples", "1")) > 0:
            rows += [(op, n, metric, units.scaled(kv[key])) for key, metric in _N_IOPS_KEYS]
        return True
    return False


@functools.lru_cache(maxsize=1024)
def _pct_metric(fam: str, p: str) -> str:
    return schema.percentile_metric(fam, p)


def _issued_rows(m: re.Match, n: int, job: dict) -> None:
    """``issued rwts: total=…`` (3.4+; ``issued rwt:`` from 2.17 to 3.3, without ``sync``),
    ``issued : total=r=…/w=…`` (2.x) or ``issued r/w/d: total=…/…/…`` (1.x) → ``total_ios`` of
    the job's directions (``total``: their sum) and of ``sync``."""
    rows = job["rows"]
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
