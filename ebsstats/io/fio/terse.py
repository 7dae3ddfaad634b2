"""fio terse / minimal output (``--output-format=terse``, versions 2–5) → rows; the format is
described in :mod:`ebsstats.io.fio`."""

from __future__ import annotations

import math

from ebsstats import schema, units
from ebsstats.errors import ParseError
from ebsstats.io._common import Parsed
from ebsstats.io.fio._options import (
    _COUNT_METRICS,
    _RATE_METRICS,
    _TERSE_START,
    TOOL,
    _no_report,
)

__all__: list[str] = []  # the reader's public face is ebsstats.io.fio

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
