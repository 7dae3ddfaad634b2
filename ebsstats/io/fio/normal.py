"""fio normal (human) text output (2.x and 3.x) → rows; the format is described in
:mod:`ebsstats.io.fio`."""

from __future__ import annotations

import math
import re

from ebsstats import schema, units
from ebsstats.errors import ParseError
from ebsstats.io._common import Parsed
from ebsstats.io.fio._options import (
    _COUNT_METRICS,
    _RATE_METRICS,
    _RW_OPS,
    TOOL,
    _no_report,
    _strip_rw,
    workload_of,
)

__all__: list[str] = []  # the reader's public face is ebsstats.io.fio

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
