"""Write a simulated campaign as genuine tool outputs (:doc:`/formats/index`) plus sidecars.

Every writer formats numbers the way the real tool prints them (fio 3.33 JSON layout and
``%f`` floats, bonnie++ 2.00a / 1.96 CSV, sysbench 1.0.20 text with its column widths, PTS
10.8 composite.xml), so the ebsstats readers parse the files like real outputs. All output is
byte-deterministic: fixed key order, fixed float formats, timestamps from the simulation, UTC.

Layout (``out_dir``)::

    README.md  truth.yaml  meta.yaml                 (synthetic: true, region, generator)
    <config>/meta.yaml                               config-level keys (volume, volume_type …)
    <config>/prepare/meta.yaml                       timestamp, pass: 0, stage: prepare
    <config>/prepare/sysbench_prepare.txt            first write of the sysbench files
    <config>/prepare/bonnie.csv                      first bonnie++ run on the fresh volume
    <config>/prepare/firstwrite.json (+ firstwrite_{bw,iops,clat,lat,slat}.1.log, log_offset=1)
    <config>/prepare-pass1/…                         pass 1 of the first-write fio job
    <config>/runs/<YYYYmmddTHHMMSSZ>/meta.yaml       timestamp, pass: 2.., stage: run
    <config>/runs/<…>/fio.json                       4 stonewalled jobs
    <config>/runs/<…>/bonnie.csv, sysbench_<mode>.txt
    <config>/burst/burst.json (+ burst_*.1.log, log_avg_msec)
    <config>/burst-duty/<YYYYmmddTHHMMSSZ>/fio.json  burst_duty: one short run each, no logs
    pts/week-<k>/composite.xml                       Systems = configs
"""

from __future__ import annotations

import json
import math
import os
import time
from collections import defaultdict
from pathlib import Path
from statistics import NormalDist
from typing import Any
from xml.sax.saxutils import escape

import numpy as np
import yaml

from ebsstats.simulate.model import (
    BONNIE_SEEKS,
    BONNIE_SIZE_GIB,
    FIO_JOBS,
    FIRSTWRITE_BS,
    FIRSTWRITE_REGION,
    PERCENTILES,
    PTS_TESTS,
    SYSBENCH_FILE_TOTAL,
    Campaign,
    Job,
    KiB,
    MiB,
    iso,
    job_path,
)

FIO_VERSION = "fio-3.33"
_ND = NormalDist()


# ---------------------------------------------------------------------------------------------
# fio JSON


class F(float):
    """A float fio prints with ``%f``."""


def _fio_dump(obj: Any, indent: int = 0) -> str:
    pad = "  " * indent
    if isinstance(obj, dict):
        if not obj:
            return "{\n" + pad + "}"
        items = [f'{pad}  {json.dumps(k)} : {_fio_dump(v, indent + 1)}' for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        items = [f"{pad}  {_fio_dump(v, indent + 1)}" for v in obj]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    if isinstance(obj, bool):
        return "1" if obj else "0"
    if isinstance(obj, F | float):
        return f"{float(obj):.6f}"
    if isinstance(obj, int | np.integer):
        return str(int(obj))
    return json.dumps(str(obj))


def _lat_obj(mn: float, mx: float, mean: float, sd: float, n: int,
             pct: dict[float, float] | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"min": int(round(mn * 1e9)) if n else 0,
                         "max": int(round(mx * 1e9)) if n else 0,
                         "mean": F(mean * 1e9 if n else 0.0),
                         "stddev": F(sd * 1e9 if n else 0.0), "N": int(n)}
    if pct is not None and n:
        d["percentile"] = {f"{p:.6f}": int(round(v * 1e9)) for p, v in pct.items()}
    return d


def _direction(j: Job | None, runtime_ms: int) -> dict[str, Any]:
    if j is None:
        z = _lat_obj(0, 0, 0, 0, 0)
        return {"io_bytes": 0, "io_kbytes": 0, "bw_bytes": 0, "bw": 0, "iops": F(0.0),
                "runtime": 0, "total_ios": 0, "short_ios": 0, "drop_ios": 0,
                "slat_ns": dict(z), "clat_ns": dict(z), "lat_ns": dict(z), "bw_min": 0,
                "bw_max": 0, "bw_agg": F(0.0), "bw_mean": F(0.0), "bw_dev": F(0.0),
                "bw_samples": 0, "iops_min": 0, "iops_max": 0, "iops_mean": F(0.0),
                "iops_stddev": F(0.0), "iops_samples": 0}
    o = j.out
    bs = j.w.bs
    if "per_io" in o:
        total = len(o["per_io"])
    else:
        total = int(round(o["iops"] * runtime_ms / 1000.0))
    io_bytes = total * bs
    bw_bytes = io_bytes * 1000 // runtime_ms
    iops = total * 1000.0 / runtime_ms
    cv = 0.03
    samples = max(1, 2 * runtime_ms // 1000 - 1)
    bw_kib = bw_bytes / 1024.0
    slat = o["slat_mean"]
    return {
        "io_bytes": io_bytes, "io_kbytes": io_bytes // 1024, "bw_bytes": bw_bytes,
        "bw": bw_bytes // 1024, "iops": F(iops), "runtime": runtime_ms, "total_ios": total,
        "short_ios": 0, "drop_ios": 0,
        "slat_ns": _lat_obj(0.6 * slat, 8 * slat, slat, 0.5 * slat, total),
        "clat_ns": _lat_obj(o["clat_min"], o["clat_max"], o["clat_mean"], o["clat_stddev"],
                            total, o["clat_pct"]),
        "lat_ns": _lat_obj(o["lat_min"], o["lat_max"], o["lat_mean"], o["lat_stddev"], total),
        "bw_min": int(bw_kib * (1 - 2 * cv)), "bw_max": int(math.ceil(bw_kib * (1 + 2 * cv))),
        "bw_agg": F(100.0), "bw_mean": F(round(bw_kib, 6)), "bw_dev": F(round(bw_kib * cv, 6)),
        "bw_samples": samples,
        "iops_min": int(iops * (1 - 2 * cv)), "iops_max": int(math.ceil(iops * (1 + 2 * cv))),
        "iops_mean": F(round(iops, 6)), "iops_stddev": F(round(iops * cv, 6)),
        "iops_samples": samples,
    }


def _lat_buckets(j: Job) -> tuple[dict, dict, dict]:
    o = j.out
    if "per_io" in o:
        lat = np.sort(o["per_io"]["lat_s"].to_numpy())

        def cdf(x: float) -> float:
            return float(np.searchsorted(lat, x, side="right")) / len(lat)
    else:
        s = o["lat_shape"]
        mu = math.log(o["lat_mean"]) - s * s / 2

        def cdf(x: float) -> float:
            return _ND.cdf((math.log(x) - mu) / s)
    out = []
    prev = 0.0
    for unit, bounds in ((1e-9, (2, 4, 10, 20, 50, 100, 250, 500, 750, 1000)),
                         (1e-6, (2, 4, 10, 20, 50, 100, 250, 500, 750, 1000)),
                         (1e-3, (2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000))):
        d: dict[str, Any] = {}
        for b in bounds:
            c = cdf(b * unit)
            d[str(b)] = F(round(100.0 * max(c - prev, 0.0), 6))
            prev = c
        out.append(d)
    out[2][">=2000"] = F(round(100.0 * max(1.0 - prev, 0.0), 6))
    return out[0], out[1], out[2]


def _depth_maps(qd: int) -> tuple[dict, dict, dict]:
    levels = ["1", "2", "4", "8", "16", "32", ">=64"]
    lvl = next((k for k, b in zip(levels, (1, 2, 4, 8, 16, 32, 10**9), strict=True) if qd <= b))
    below = levels.index(lvl)
    level = {k: F(0.1 if i < below else 0.0) for i, k in enumerate(levels)}
    level[lvl] = F(round(100.0 - 0.1 * below, 6))
    sub = ["0", "4", "8", "16", "32", "64", ">=64"]
    key = "4" if qd <= 4 else ("8" if qd <= 8 else ("16" if qd <= 16 else "32"))
    submit = {k: F(100.0 if k == key else 0.0) for k in sub}
    complete = {k: F(100.0 if k == key else 0.0) for k in sub}
    return level, submit, complete


def _fio_job(j: Job, groupid: int, elapsed: int, options: dict[str, str]) -> dict[str, Any]:
    runtime_ms = int(round(j.duration * 1000))
    if runtime_ms <= 0:
        runtime_ms = 1
    o = j.out
    read = _direction(j if j.w.op == "read" else None, runtime_ms)
    write = _direction(j if j.w.op == "write" else None, runtime_ms)
    ln, lu, lm = _lat_buckets(j)
    level, submit, complete = _depth_maps(j.w.qd)
    iops = o["iops"]
    total = read["total_ios"] + write["total_ios"]
    return {
        "jobname": j.test, "groupid": groupid, "error": 0, "eta": 0, "elapsed": elapsed,
        "job options": options, "read": read, "write": write, "trim": _direction(None, 0),
        "sync": {"total_ios": 0, "lat_ns": _lat_obj(0, 0, 0, 0, 0)},
        "job_runtime": runtime_ms,
        "usr_cpu": F(round(min(40.0, 0.4 + iops / 20000.0), 6)),
        "sys_cpu": F(round(min(60.0, 0.8 + iops / 3000.0), 6)),
        "ctx": int(total * 0.6) + 12, "majf": 0, "minf": 19 + j.w.qd,
        "iodepth_level": level, "iodepth_submit": submit, "iodepth_complete": complete,
        "latency_ns": ln, "latency_us": lu, "latency_ms": lm,
        "latency_depth": j.w.qd, "latency_target": 0, "latency_percentile": F(100.0),
        "latency_window": 0,
    }


def _fio_doc(jobs: list[dict], t_end: float, global_opts: dict | None,
             disk: dict[str, Any]) -> str:
    ms = int(round(t_end * 1000))
    doc: dict[str, Any] = {"fio version": FIO_VERSION, "timestamp": ms // 1000,
                           "timestamp_ms": ms,
                           "time": time.asctime(time.gmtime(ms // 1000))}
    if global_opts:
        doc["global options"] = global_opts
    doc["jobs"] = jobs
    doc["disk_util"] = [disk]
    return _fio_dump(doc) + "\n"


def _disk(name: str, jobs: list[Job]) -> dict[str, Any]:
    r = sum(int(round(j.out["iops"] * j.duration)) for j in jobs if j.w.op == "read")
    w = sum(int(round(j.out["iops"] * j.duration)) for j in jobs if j.w.op == "write")
    busy = sum(j.duration for j in jobs)
    return {"name": name, "read_ios": r, "write_ios": w, "read_merges": 0, "write_merges": 0,
            "read_ticks": round(sum(j.out["lat_mean"] * j.out["iops"] * j.duration
                                    for j in jobs if j.w.op == "read") * 1000),
            "write_ticks": round(sum(j.out["lat_mean"] * j.out["iops"] * j.duration
                                     for j in jobs if j.w.op == "write") * 1000),
            "in_queue": round(busy * 1000 * 0.98), "util": F(98.5)}


def _bs_str(bs: int) -> str:
    return f"{bs // MiB}m" if bs % MiB == 0 else f"{bs // KiB}k"


def _runtime(seconds: float) -> str:
    """fio's ``runtime`` option: whole seconds, else milliseconds.

    >>> _runtime(30), _runtime(60.0), _runtime(1.5)
    ('30', '60', '1500ms')
    """
    return str(int(seconds)) if float(seconds).is_integer() else f"{round(seconds * 1000)}ms"


def fio_run(jobs: list[Job], spec_runtime: float) -> str:
    """The 4-job stonewalled fio run of one slot (or a single member or burst_duty job)."""
    c = jobs[0].config
    gopts = {"ioengine": "libaio", "direct": "1", "size": "4g", "runtime": _runtime(spec_runtime),
             "time_based": "1", "filename": c.device}
    out = []
    elapsed = 0
    for g, j in enumerate(jobs):
        elapsed += int(math.ceil(j.duration)) + 1
        out.append(_fio_job(j, g, elapsed,
                            {"rw": _RW[j.workload], "bs": _bs_str(j.w.bs), "iodepth": str(j.w.qd)}))
    t_end = jobs[-1].t0 + jobs[-1].duration
    return _fio_doc(out, t_end, gopts, _disk(c.device.rsplit("/", 1)[-1], jobs))


_RW = {"randread": "randread", "randwrite": "randwrite", "seqread": "read", "seqwrite": "write"}


def fio_logged(j: Job, prefix: str) -> tuple[str, dict[str, str]]:
    """A single-job fio run with bw/iops/lat logs: first-write (per-I/O, log_offset=1) or
    burst (log_avg_msec). Returns (json text, {filename: log text})."""
    c = j.config
    opts = {"name": prefix, "filename": c.device, "ioengine": "libaio", "direct": "1",
            "rw": _RW[j.workload], "bs": _bs_str(j.w.bs)}
    logs: dict[str, str] = {}
    if j.test == "firstwrite":
        opts["size"] = _bs_str(FIRSTWRITE_REGION)
        if j.extra["fw_pass"] == 0:
            opts["io_size"] = _bs_str(2 * FIRSTWRITE_REGION)
            opts["norandommap"] = "1"
            opts["randseed"] = "1"
        opts["iodepth"] = "1"
        opts.update({"write_bw_log": prefix, "write_iops_log": prefix,
                     "write_lat_log": prefix, "log_offset": "1"})
        s = j.out["per_io"]
        lat_ns = np.rint(s["lat_s"].to_numpy() * 1e9).astype(np.int64)
        clat_ns = np.rint(s["clat_s"].to_numpy() * 1e9).astype(np.int64)
        slat_ns = lat_ns - clat_ns
        t_ms = np.floor(s["t_s"].to_numpy() * 1000).astype(np.int64)
        off = s["offset"].to_numpy()
        bs = j.w.bs
        ddir = 1
        bw = (bs * 1_000_000) // np.maximum(clat_ns, 1)

        def rows(vals: np.ndarray) -> str:
            return "".join(f"{t}, {v}, {ddir}, {bs}, {o}, 0\n"
                           for t, v, o in zip(t_ms.tolist(), vals.tolist(), off.tolist(),
                                              strict=True))
        logs[f"{prefix}_bw.1.log"] = rows(bw)
        logs[f"{prefix}_iops.1.log"] = rows(np.ones(len(t_ms), dtype=np.int64))
        logs[f"{prefix}_clat.1.log"] = rows(clat_ns)
        logs[f"{prefix}_lat.1.log"] = rows(lat_ns)
        logs[f"{prefix}_slat.1.log"] = rows(slat_ns)
    else:  # burst: averaged logs
        opts.update({"size": "4g", "iodepth": str(j.w.qd), "runtime": str(int(j.duration)),
                     "time_based": "1", "write_bw_log": prefix, "write_iops_log": prefix,
                     "write_lat_log": prefix, "log_avg_msec": str(j.extra["log_avg_msec"])})
        wdf = j.out["windows"]
        t_ms = np.rint(wdf["t_s"].to_numpy() * 1000).astype(np.int64)
        iops = wdf["iops"].to_numpy()
        ddir = 0 if j.w.op == "read" else 1
        lat = j.w.qd / iops
        slat = np.minimum(8e-6 + 0.002 * lat, 0.2 * lat)

        def rows(vals: np.ndarray) -> str:
            return "".join(f"{t}, {v}, {ddir}, 0, 0\n"
                           for t, v in zip(t_ms.tolist(), vals.tolist(), strict=True))
        logs[f"{prefix}_bw.1.log"] = rows(np.rint(iops * j.w.bs / 1024).astype(np.int64))
        logs[f"{prefix}_iops.1.log"] = rows(np.rint(iops).astype(np.int64))
        logs[f"{prefix}_clat.1.log"] = rows(np.rint((lat - slat) * 1e9).astype(np.int64))
        logs[f"{prefix}_lat.1.log"] = rows(np.rint(lat * 1e9).astype(np.int64))
        logs[f"{prefix}_slat.1.log"] = rows(np.rint(slat * 1e9).astype(np.int64))
    jd = _fio_job(j, 0, int(math.ceil(j.duration)) + 1, opts)
    text = _fio_doc([jd], j.t0 + j.duration, None, _disk(c.device.rsplit("/", 1)[-1], [j]))
    return text, logs


# ---------------------------------------------------------------------------------------------
# bonnie++


def _bonnie_lat(seconds: float) -> str:
    us = seconds * 1e6
    if us < 10_000:
        return f"{int(round(us))}us"
    if us < 10_000_000:
        return f"{int(round(us / 1000))}ms"
    return f"{int(round(us / 1e6))}s"


def bonnie_csv(jobs: list[Job], version: str, seed: int) -> str:
    """One bonnie++ CSV row (2.00a → format 1.98, 50 fields; 1.96 → 48 fields), run with
    ``-f -n 0 -s 16g -q`` (no per-char tests, no file-creation tests)."""
    by = {j.test: j for j in jobs}
    c = jobs[0].config

    def rate(name: str) -> tuple[str, str, str]:
        j = by[name]
        if name == "seeks":
            v = f"{j.out['iops']:.1f}"
            cpu = int(min(99, 2 + j.out["iops"] / 200))
        else:
            k = int(round(j.out["bandwidth"] / 1024))
            v = str(k)
            cpu = int(min(99, 1 + k / 4000))
        return v, str(cpu), _bonnie_lat(j.out["lat_max"] * 2)

    pb, rw, gb, sk = rate("put_block"), rate("rewrite"), rate("get_block"), rate("seeks")
    head = [c.host, "1", str(seed), f"{BONNIE_SIZE_GIB}G", ""]
    if version == "2.00a":
        fields = ["1.98", "2.00a", *head, str(BONNIE_SEEKS), "5"]
    elif version == "1.96":
        fields = ["1.96", "1.96", *head]
    else:
        raise ValueError("bonnie_version must be '2.00a' or '1.96'")
    fields += ["", "", pb[0], pb[1], rw[0], rw[1], "", "", gb[0], gb[1], sk[0], sk[1]]
    fields += [""] * 5 + [""] * 12  # num_files..file_chunk_size, 12 file-op fields
    fields += ["", pb[2], rw[2], "", gb[2], sk[2]] + [""] * 6
    n = 50 if version == "2.00a" else 48
    assert len(fields) == n, len(fields)
    return ",".join(fields) + "\n"


# ---------------------------------------------------------------------------------------------
# sysbench 1.0.20

SB_BANNER = "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n"
SB_MODE_TEXT = {"rndrd": "random read", "rndwr": "random write", "seqrd": "sequential read",
                "seqwr": "sequential write (creation)", "rndrw": "random r/w"}


def sysbench_prepare(j: Job) -> str:
    """``sysbench fileio --file-total-size=4G --file-num=4 --file-extra-flags=direct prepare``."""
    nfiles = 4
    per = SYSBENCH_FILE_TOTAL // nfiles
    secs = SYSBENCH_FILE_TOTAL / j.out["bandwidth"]
    lines = [SB_BANNER, "\n",
             f"{nfiles} files, {per // 1024}Kb each, {SYSBENCH_FILE_TOTAL // MiB}Mb total\n",
             "Creating files for the test...\n", "Extra file open flags: directio\n"]
    lines += [f"Creating file test_file.{i}\n" for i in range(nfiles)]
    lines.append(f"{SYSBENCH_FILE_TOTAL} bytes written in {secs:.2f} seconds "
                 f"({SYSBENCH_FILE_TOTAL / MiB / secs:.2f} MiB/sec).\n")
    return "".join(lines)


def sysbench_run(j: Job, report_interval: int, rng: np.random.Generator) -> str:
    """``sysbench fileio --file-total-size=4G --file-num=4 --threads=4 --file-extra-flags=direct
    --file-fsync-freq=0 --file-test-mode=<mode> --time=<t> --report-interval=<n> run``."""
    mode = j.test
    threads = j.w.qd
    t = j.duration
    o = j.out
    rate = o["iops"]
    is_read = j.w.op == "read"
    reads = rate if is_read else 0.0
    writes = 0.0 if is_read else rate
    fsyncs = 0.0 if is_read else 4 / t  # fsync at the end of the test, one per file
    total_time = t + 0.0005 + 0.0011 * threads
    events = int(round(rate * t)) + (0 if is_read else 4)
    lat_ms = o["lat_mean"] * 1000
    s = o["lat_shape"]
    p95 = _quant(lat_ms, s, 0.95)
    lines = [SB_BANNER, "\n", "Running the test with following options:\n",
             f"Number of threads: {threads}\n"]
    if report_interval:
        lines.append(f"Report intermediate results every {report_interval} second(s)\n")
    lines += ["Initializing random number generator from current time\n", "\n", "\n",
              "Extra file open flags: directio\n", "4 files, 1GiB each\n",
              "4GiB total file size\n", f"Block size {j.w.bs // KiB}KiB\n"]
    if mode.startswith("rnd"):
        lines += ["Number of IO requests: 0\n",
                  "Read/Write ratio for combined random IO test: 1.50\n"]
    lines += ["Calling fsync() at the end of test, Enabled.\n", "Using synchronous I/O mode\n",
              f"Doing {SB_MODE_TEXT[mode]} test\n", "Initializing worker threads...\n", "\n",
              "Threads started!\n", "\n"]
    if report_interval:
        n = int(t // report_interval)
        jit = np.exp(rng.normal(0.0, 0.03, n))
        for k in range(n):
            mibs = rate * jit[k] * j.w.bs / MiB
            lines.append(f"[ {(k + 1) * report_interval}s ] reads: "
                         f"{mibs if is_read else 0.0:.2f} MiB/s writes: "
                         f"{0.0 if is_read else mibs:.2f} MiB/s fsyncs: 0.00/s "
                         f"latency (ms,95%): {p95 * jit[k] ** -1:.3f}\n")
    lines.append("\n")
    lines += ["File operations:\n", f"    {'reads/s:':<30}{reads:.2f}\n",
              f"    {'writes/s:':<30}{writes:.2f}\n", f"    {'fsyncs/s:':<30}{fsyncs:.2f}\n",
              "\n", "Throughput:\n",
              f"    {'read, MiB/s:':<30}{reads * j.w.bs / MiB:.2f}\n",
              f"    {'written, MiB/s:':<30}{writes * j.w.bs / MiB:.2f}\n", "\n",
              "General statistics:\n", f"    {'total time:':<37}{total_time:.4f}s\n",
              f"    {'total number of events:':<37}{events}\n", "\n", "Latency (ms):\n"]
    for label, v in (("min:", _quant(lat_ms, s, 0.0005)), ("avg:", lat_ms),
                     ("max:", _quant(lat_ms, s, 0.99999)), ("95th percentile:", p95),
                     ("sum:", lat_ms * events)):
        lines.append(f"         {label:<26}{v:>18.2f}\n")
    ev_avg = events / threads
    lines += ["\n", "Threads fairness:\n",
              f"    {'events (avg/stddev):':<31}{ev_avg:.4f}/{math.sqrt(ev_avg) * 0.5:.2f}\n",
              f"    {'execution time (avg/stddev):':<31}{t - 0.01:.4f}/0.00\n", "\n"]
    return "".join(lines)


def _quant(mean: float, s: float, p: float) -> float:
    mu = math.log(mean) - s * s / 2
    return math.exp(mu + s * _ND.inv_cdf(p))


# ---------------------------------------------------------------------------------------------
# PTS composite.xml


def _pts_time(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(int(t)))


def _fmt_pts(v: float) -> str:
    s = f"{v:.2f}" if v < 1000 else f"{v:.0f}"
    return s


def pts_composite(week: int, jobs: list[Job], configs: list) -> str:
    """A PTS 10.8 composite.xml for one weekly session: Systems = configs, Results = the three
    test options × Scale (MB/s and IOPS for fio, IOPS for sysbench), 3 runs in RawString."""
    by_cfg: dict[str, dict[str, list[Job]]] = defaultdict(lambda: defaultdict(list))
    for j in jobs:
        by_cfg[j.config.config][j.test].append(j)
    cfgs = [c for c in configs if c.config in by_cfg]
    last = max(j.t0 + j.duration for j in jobs)
    x = ['<?xml version="1.0"?>\n', "<!--Phoronix Test Suite v10.8.4-->\n",
         "<PhoronixTestSuite>\n", "  <Generated>\n",
         f"    <Title>ebs-campaign-week-{week + 1}</Title>\n",
         f"    <LastModified>{_pts_time(last)}</LastModified>\n",
         "    <TestClient>Phoronix Test Suite v10.8.4</TestClient>\n",
         "    <Description>SYNTHETIC campaign generated by ebsstats.simulate (not a real "
         "measurement): one System per volume configuration.</Description>\n",
         "    <Notes></Notes>\n", "    <InternalTags></InternalTags>\n",
         "    <ReferenceID></ReferenceID>\n",
         "    <PreSetEnvironmentVariables></PreSetEnvironmentVariables>\n", "  </Generated>\n"]
    for c in cfgs:
        t0 = min(j.slot_t for js in by_cfg[c.config].values() for j in js)
        size = int(sum(v.size_gib for v in c.volumes))
        mem = "15GB" if c.instance_type == "i3.large" else "8GB"
        x += ["  <System>\n", f"    <Identifier>{escape(c.config)}</Identifier>\n",
              f"    <Hardware>Processor: Intel Xeon Platinum 8175M (1 Core / 2 Threads), "
              f"Memory: {mem}, Disk: {size}GB Amazon Elastic Block Store</Hardware>\n",
              "    <Software>OS: Ubuntu 22.04, Kernel: 6.2.0-1017-aws (x86_64), File-System: "
              f"{c.filesystem}, System Layer: Amazon {c.instance_type}</Software>\n",
              "    <User>ubuntu</User>\n", f"    <TimeStamp>{_pts_time(t0)}</TimeStamp>\n",
              "    <TestClientVersion>10.8.4</TestClientVersion>\n",
              "    <Notes>SYNTHETIC</Notes>\n",
              '    <JSON>{"disk-scheduler":"NONE","disk-mount-options":"relatime,rw"}</JSON>\n',
              "  </System>\n"]
    for key, title, args, desc, fam, _wl, _w in PTS_TESTS:
        scales = (("MB/s", "bandwidth"), ("IOPS", "iops")) if fam == "fio" else (
            ("IOPS", "iops"), ("MB/s", "bandwidth"))
        ident = "pts/fio-1.15.0" if fam == "fio" else "pts/sysbench-1.1.0"
        app = "3.29" if fam == "fio" else "1.0.20"
        for scale, metric in scales:
            entries = []
            for c in cfgs:
                runs = sorted(by_cfg[c.config].get(key, []), key=lambda j: j.repetition)
                if not runs:
                    continue
                vals = [pts_value(j, metric) for j in runs]
                raw = ":".join(_fmt_pts(v) for v in vals)
                mean = sum(float(_fmt_pts(v)) for v in vals) / len(vals)
                times = ":".join(f"{j.duration + 0.46:.2f}" for j in runs)
                entries += ["      <Entry>\n",
                            f"        <Identifier>{escape(c.config)}</Identifier>\n",
                            f"        <Value>{_fmt_pts(mean)}</Value>\n",
                            f"        <RawString>{raw}</RawString>\n",
                            f'        <JSON>{{"test-run-times":"{times}"}}</JSON>\n',
                            "      </Entry>\n"]
            x += ["  <Result>\n", f"    <Identifier>{ident}</Identifier>\n",
                  f"    <Title>{title}</Title>\n", f"    <AppVersion>{app}</AppVersion>\n",
                  f"    <Arguments>{args}</Arguments>\n",
                  f"    <Description>{escape(desc)}</Description>\n",
                  f"    <Scale>{escape(scale)}</Scale>\n", "    <Proportion>HIB</Proportion>\n",
                  "    <DisplayFormat>BAR_GRAPH</DisplayFormat>\n", "    <Data>\n", *entries,
                  "    </Data>\n", "  </Result>\n"]
    x.append("</PhoronixTestSuite>\n")
    return "".join(x)


def pts_value(j: Job, metric: str) -> float:
    """The per-run value PTS records: IOPS, or MB/s (fio's MiB/s, PTS labels it MB/s)."""
    if metric == "iops":
        return float(j.out["iops"])
    return float(j.out["bandwidth"]) / MiB


# ---------------------------------------------------------------------------------------------
# sidecars, truth, README


def _yaml(d: dict[str, Any]) -> str:
    return yaml.safe_dump(d, sort_keys=False, default_flow_style=False, allow_unicode=True,
                          width=100)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


README = """# SYNTHETIC benchmark campaign (generated, not measured)

**Every file in this folder is synthetic.** It was generated by `ebsstats.simulate` (generator
version {version}, seed {seed}{preset}) to exercise every analysis of ebsstats: run-to-run
variance, day-of-week / hour-of-day drift, first-write penalty, burst-bucket depletion, a slow
RAID member, and cost across volume types. The files are written in the genuine output formats
of fio 3.33 (JSON and logs), bonnie++ {bonnie} (CSV), sysbench 1.0.20 (text) and the Phoronix Test
Suite (composite.xml), but no tool was run and no cloud volume was measured. Do not cite these
numbers as EBS performance.

* `truth.yaml` lists every injected effect and parameter (volume types and sizes, burst
  buckets and predicted depletion times, weekday/hour multipliers, first-write factor, slow-member
  schedule, noise sigmas, random effects, seed).
* Every folder carries a `meta.yaml` sidecar (`synthetic: true`, `config`, `volume`,
  `volume_type`, `size_gib`, …; run folders add `timestamp` and `pass`).
* Regenerate byte-identically with
  `ebsstats simulate -o DIR --seed {seed}{preset_cli}`.

Layout: `<config>/prepare/` (pass 0 on the fresh volume: sysbench prepare, first bonnie++ run,
first-write fio job with per-offset logs), `<config>/prepare-pass1/` (second pass),
`<config>/runs/<timestamp>/` (regular runs: fio.json, bonnie.csv, sysbench_*.txt),
`<config>/burst/` (long fio run with averaged logs showing burst-bucket depletion),
`<raid>-member<k>/runs/…` (fio on each RAID member device), `pts/week-<k>/composite.xml`.
"""


def _write_fio(d: Path, fio_jobs: list[Job], fio_runtime: int) -> None:
    """The fio files of one folder: the plain JSON of a slot's (or member's) jobs, of a
    burst_duty run (one job of ``burst_duty[0]`` s, no logs), or a logged run with its logs
    (first write: per I/O; burst: averaged over ``log_avg_msec``)."""
    plain = [j for j in fio_jobs if j.stage in ("run", "member")]
    if plain:
        _write(d / "fio.json", fio_run(plain, fio_runtime))
    duty = [j for j in fio_jobs if j.stage == "burst_duty"]
    if duty:
        _write(d / "fio.json", fio_run(duty, duty[0].duration))
    for j in fio_jobs:
        if j.stage in ("run", "member", "burst_duty"):
            continue
        prefix = Path(job_path(j)).stem
        text, logs = fio_logged(j, prefix)
        _write(d / f"{prefix}.json", text)
        for name, body in logs.items():
            _write(d / name, body)


def write_campaign(camp: Campaign, out_dir: str | os.PathLike) -> Path:
    """Write every file of ``camp`` under ``out_dir`` (created; existing files overwritten)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    spec = camp.spec
    rng = np.random.default_rng([int(spec.seed), 40])
    _write(out / "meta.yaml", _yaml({"synthetic": True, "region": spec.region,
                                     "generator": f"ebsstats.simulate {camp.truth['generator_version']}",
                                     "seed": int(spec.seed)}))
    _write(out / "truth.yaml", _yaml(camp.truth))
    preset = f", preset {spec.preset}" if spec.preset else ""
    _write(out / "README.md", README.format(
        version=camp.truth["generator_version"], seed=spec.seed, preset=preset,
        preset_cli=f" --preset {spec.preset}" if spec.preset else "",
        bonnie=spec.bonnie_version))
    for c in camp.configs:
        if any(j.config is c for j in camp.jobs):
            _write(out / c.config / "meta.yaml", _yaml(c.meta()))

    groups: dict[str, list[Job]] = defaultdict(list)
    pts_jobs: dict[int, list[Job]] = defaultdict(list)
    for j in camp.jobs:
        if j.tool == "pts":
            pts_jobs[j.extra["week"]].append(j)
        else:
            groups[str(Path(job_path(j)).parent)].append(j)
    for folder in sorted(groups):
        js = groups[folder]
        j0 = js[0]
        meta: dict[str, Any] = {"timestamp": iso(j0.slot_t), "stage": j0.stage}
        if j0.pass_ >= 0:
            meta["pass"] = int(j0.pass_)
        d = out / folder
        _write(d / "meta.yaml", _yaml(meta))
        _write_fio(d, [j for j in js if j.tool == "fio"], spec.fio_runtime)
        bon = [j for j in js if j.tool == "bonnie++"]
        if bon:
            bseed = int(rng.integers(1_700_000_000, 1_800_000_000))
            _write(d / "bonnie.csv", bonnie_csv(bon, spec.bonnie_version, bseed))
        for j in js:
            if j.tool == "sysbench":
                if j.test == "prepare":
                    _write(d / "sysbench_prepare.txt", sysbench_prepare(j))
                else:
                    _write(d / f"sysbench_{j.test}.txt", sysbench_run(j, 5, rng))
    for wk in sorted(pts_jobs):
        d = out / "pts" / f"week-{wk + 1}"
        _write(d / "composite.xml", pts_composite(wk, pts_jobs[wk], camp.configs))
        _write(d / "meta.yaml", _yaml({"stage": "pts"}))
    return out


__all__ = ["FIO_JOBS", "FIRSTWRITE_BS", "PERCENTILES", "bonnie_csv", "fio_logged", "fio_run",
           "pts_composite", "sysbench_prepare", "sysbench_run", "write_campaign"]
