"""PerfKit Benchmarker results files (``perfkitbenchmarker_results.json``) for fio, bonnie++ and
sysbench.

PKB's ``NewlineDelimitedJSONPublisher`` writes one JSON object per line and per *sample*:
``metric``, ``value``, ``unit``, ``timestamp`` (Unix seconds), ``test`` (the benchmark: ``fio``,
``bonnieplusplus``, ``sysbench``), ``run_uri``, ``sample_uri``, ``product_name``, ``official``,
``owner`` and the sample's metadata — by default collapsed into one ``labels`` string
``|key:value|,|key:value|`` (sorted by key; ``collapse_labels=False`` keeps a ``metadata``
object instead; both are read).

==============================  ========================================================  ===========
PKB sample                      tidy rows                                                 value
==============================  ========================================================  ===========
fio ``JOB:MODE:bandwidth``      test=JOB, op=MODE, ``bandwidth``                          KB/s × 1024
fio ``JOB:MODE:iops``           ``iops``
fio ``JOB:MODE:latency:STAT``   ``<measure>_STAT`` (``clat_mean``, ``clat_p99``, …)       µs → s
bonnie++ ``put_block``, …       the bonnie++ reader's tests (put_block → seqwrite, …):    K/sec × 1024
                                ``bandwidth``; ``seeks`` → ``iops``; files → ``ops``      (rates: /s)
bonnie++ ``*_cpu``              ``cpu`` (%)
bonnie++ ``*_latency``          ``lat_max`` (bonnie's worst single operation)             ms/us → s
sysbench ``tps``                test = ``sysbench_testname``, ``ops`` (transactions/s)
sysbench ``qps``                test = ``<testname> queries``, ``ops`` (queries/s)
sysbench ``*_latency``          ``lat_min``/``lat_mean``/``lat_max``; metadata            ms → s
                                ``percentile_95_latency`` → ``lat_p95``
==============================  ========================================================  ===========

Other samples (``*_array`` time series with value -1, data-load times, ``lscpu``, VM boot times,
other benchmarks) are skipped and counted in the file's notes. Metadata (from PKB's
``DefaultMetadataProvider``: the representative VM's and its first scratch disk's resource
metadata) is mapped onto the tidy columns: ``data_disk_0_type`` → ``volume_type``,
``data_disk_0_size`` (GB) → ``size_gib``, ``data_disk_0_iops`` → ``provisioned_iops``,
``data_disk_0_num_stripes`` → ``raid_members`` (``raid_level`` ``0`` when > 1; PKB stripes with
mdadm RAID 0), ``machine_type`` → ``instance_type``, ``zone`` → ``az`` and ``region`` (the zone
without its letter, as PKB's AWS ``GetRegionFromZone``), ``hostnames`` → ``host``; ``config`` is
``<volume_type>-<size>g`` (``-<iops>`` when provisioned) unless a sidecar says otherwise. fio job
parameters (``rw``, ``blocksize``/``bs``, ``iodepth``, ``numjobs``) give workload, block size,
iodepth and threads; ``run_uri``, ``cloud``, ``fio_job``, ``latency_measure``,
``data_disk_0_throughput`` and ``perfkitbenchmarker_version`` are kept as metadata columns.
"""

from __future__ import annotations

import json
import math
import os
import re

from ebsstats import schema, units
from ebsstats.errors import ParseError, SchemaError
from ebsstats.io._common import Parsed, number, read_one
from ebsstats.io._registry import Reader, text_parser

__all__ = ["sniff", "parse", "read_pkb", "labels_to_dict"]

TOOLS = {"fio": "fio", "bonnieplusplus": "bonnie++", "sysbench": "sysbench"}

_FIO_RW = {"read": "seqread", "write": "seqwrite", "randread": "randread",
           "randwrite": "randwrite", "randrw": "randrw", "rw": "randrw", "readwrite": "randrw",
           "trim": "other", "randtrim": "other"}
_FIO_STAT = re.compile(r"^(min|max|mean|stddev|p\d+(?:\.\d+)?)$")

# bonnie++ field -> (workload, op, kind); kinds as in ebsstats.io.bonnie
_BONNIE = {"putc": ("seqwrite", "write", "char"), "put_block": ("seqwrite", "write", "block"),
           "rewrite": ("rewrite", "write", "block"), "getc": ("seqread", "read", "char"),
           "get_block": ("seqread", "read", "block"), "seeks": ("seeks", "read", "seek"),
           "seq_create": ("create", "total", "file"), "seq_stat": ("stat", "total", "file"),
           "seq_del": ("delete", "total", "file"), "ran_create": ("create", "total", "file"),
           "ran_stat": ("stat", "total", "file"), "ran_del": ("delete", "total", "file")}
_SYSBENCH_LAT = {"min_latency": "lat_min", "average_latency": "lat_mean",
                 "max_latency": "lat_max"}
_KEEP = ("run_uri", "cloud", "fio_job", "latency_measure", "data_disk_0_throughput",
         "perfkitbenchmarker_version", "sysbench_run_threads", "sysbench_table_size",
         "sysbench_tables", "file_size", "chunk_size", "num_files")


def labels_to_dict(labels: str) -> dict[str, str]:
    """PKB's collapsed metadata ``|k1:v1|,|k2:v2|`` as a dict (PKB's ``LabelsToDict``).

    >>> labels_to_dict("|machine_type:m5.large|,|zone:us-east-1a|")
    {'machine_type': 'm5.large', 'zone': 'us-east-1a'}
    """
    if not labels:
        return {}
    out = {}
    for entry in labels[1:-1].split("|,|"):
        k, _, v = entry.partition(":")
        out[k] = v
    return out


def _first_object(head: str):
    # the first non-blank line, without splitting the whole 64 KiB head into lines (every
    # line boundary of str.splitlines is whitespace, so lstrip skips the blank lines)
    rest = head.lstrip()
    if not rest:
        return None
    end = rest.find("\n")
    line = (rest if end < 0 else rest[:end]).splitlines()[0].strip()
    if '"metric"' not in line and "\\u" not in line:  # a sample names its metric: no parse
        return None
    try:
        return json.loads(line)
    except (ValueError, RecursionError):  # not JSON, or nested too deep to judge: not PKB's
        return None


def sniff(head: str, name: str = "") -> str | None:
    """``"json lines"`` if the first line is a PKB sample (metric, value, unit, labels or
    metadata, and run_uri or test).

    >>> sniff('{"metric": "fio:read:iops", "value": 1.0, "unit": "", "labels": "", '
    ...       '"run_uri": "a1", "test": "fio"}\\n')
    'json lines'
    """
    if not head.lstrip().startswith("{"):
        return None
    obj = _first_object(head)
    if not isinstance(obj, dict):
        return None
    if {"metric", "value", "unit"} <= obj.keys() and ("labels" in obj or "metadata" in obj) \
            and ("run_uri" in obj or "test" in obj):
        return "json lines"
    return None


def _size_bytes(text) -> int | None:
    if text in (None, ""):
        return None
    try:
        size = int(units.binary_size(str(text)))
    except (ValueError, TypeError, OverflowError):  # OverflowError: inf
        return None
    return size if 0 <= size < 2**63 else None  # a block size an Int64 column can hold


def _int(text) -> int | None:
    """A count from PKB metadata, ``None`` when absent or not a finite number."""
    try:
        n = int(float(text))
    except (TypeError, ValueError, OverflowError):  # OverflowError: inf, or > 1e308
        return None
    return n if -2**63 <= n < 2**63 else None  # a count an Int64 column can hold


def _float(text) -> float | None:
    """A quantity from PKB metadata, ``None`` when absent or not a finite number."""
    try:
        v = float(text)
    except (TypeError, ValueError, OverflowError):
        return None
    return v if math.isfinite(v) else None


def _meta(md: dict) -> dict:
    """PKB metadata → ebsstats' metadata columns (plus the kept PKB keys)."""
    out: dict = {}
    vtype = md.get("data_disk_0_type")
    size = md.get("data_disk_0_size")
    iops = _int(md.get("data_disk_0_iops"))
    stripes = _int(md.get("data_disk_0_num_stripes"))
    zone = md.get("zone")
    out["volume_type"] = vtype or None
    out["size_gib"] = _float(size) if size not in (None, "", "None") else None
    out["provisioned_iops"] = iops
    out["instance_type"] = md.get("machine_type") or None
    out["az"] = zone or None
    out["region"] = (zone[:-1] if zone and zone[-1].isalpha() and zone[-2].isdigit() else zone) \
        if zone else None
    out["host"] = md.get("hostnames") or None
    if stripes and stripes > 1:
        out["raid_members"], out["raid_level"] = stripes, "0"
    if vtype:
        cfg = f"{vtype}-{size}g" if out["size_gib"] is not None else vtype
        out["config"] = f"{cfg}-{iops}" if iops else cfg
    for k in _KEEP:
        if md.get(k) not in (None, ""):
            out[k] = str(md[k])
    return out


def _fio(metric: str, value: float, unit: str, md: dict) -> dict | None:
    parts = metric.split(":")
    if len(parts) < 3 or parts[1] not in ("read", "write", "trim"):
        return None
    job, op, kind = parts[0], parts[1], parts[2]
    measure = md.get("latency_measure") or "clat"
    if kind == "bandwidth" and len(parts) == 3:
        name, v = "bandwidth", value * units.KiB  # fio's bw: KiB/s (PKB labels it KB/s)
    elif kind == "iops" and len(parts) == 3:
        name, v = "iops", value
    elif kind == "latency" and len(parts) == 4 and _FIO_STAT.match(parts[3]):
        stat = parts[3]
        name = f"{measure}_{stat}" if not stat.startswith("p") else \
            f"{measure}_p{float(stat[1:]):g}"
        v = value * units.US  # PKB converts fio's ns to usec
    else:  # the bare ``:latency`` sample repeats ``:latency:mean``
        return None
    rw = str(md.get("rw", "")).lower()
    return {"test": job, "op": op, "metric": name, "value": v,
            "workload": _FIO_RW.get(rw, "other" if rw else None),
            "block_size": _size_bytes(md.get("blocksize", md.get("bs"))),
            "iodepth": _int(md.get("iodepth")), "threads": _int(md.get("numjobs")),
            "run_part": job, "tool_version": md.get("fio_version")}


def _bonnie(metric: str, value: float, unit: str, md: dict) -> dict | None:
    base = metric.removesuffix("_cpu").removesuffix("_latency")
    if base not in _BONNIE:
        return None
    workload, op, kind = _BONNIE[base]
    if metric.endswith("_cpu"):
        name, v = "cpu", value
    elif metric.endswith("_latency"):
        try:
            name, v = "lat_max", units.duration(f"{value}{unit}")
        except ValueError:  # a unit bonnie++ does not print
            return None
    elif kind in ("char", "block"):
        name, v = "bandwidth", value * units.KiB  # bonnie++'s K/sec is KiB/s
    else:  # PKB labels every rate K/sec; seeks and file tests are plain per-second counts
        name, v = ("iops" if kind == "seek" else "ops"), value
    chunk = _size_bytes(md.get("chunk_size"))
    return {"test": base, "op": op, "metric": name, "value": v, "workload": workload,
            "block_size": 1 if kind == "char" else chunk if kind in ("block", "seek") else None,
            "threads": _int(md.get("concurrency")), "run_part": md.get("name") or "",
            "tool_version": md.get("bonnie_version")}


def _sysbench(metric: str, value: float, unit: str, md: dict) -> list[dict]:
    test = md.get("sysbench_testname") or "sysbench"
    common = {"workload": "mixed" if "read_write" in test else "other", "op": "total",
              "threads": _int(md.get("sysbench_thread_count", md.get("sysbench_run_threads"))),
              "run_part": f"{test}:{md.get('sysbench_thread_count', '')}", "tool_version": None}
    if metric == "tps":
        rows = [{**common, "test": test, "metric": "ops", "value": value}]
        p95 = _float(md.get("percentile_95_latency"))
        pct = _float(md.get("sysbench_latency_percentile") or 95)
        if p95 is not None and pct is not None:
            rows.append({**common, "test": test, "metric": f"lat_p{pct:g}",
                         "value": p95 * units.MS})
        return rows
    if metric == "qps":
        return [{**common, "test": f"{test} queries", "metric": "ops", "value": value}]
    if metric in _SYSBENCH_LAT and unit == "ms":
        return [{**common, "test": test, "metric": _SYSBENCH_LAT[metric],
                 "value": value * units.MS}]
    return []


def _sample(obj, source: str, line: int) -> tuple[dict, dict]:
    if not isinstance(obj, dict):
        raise ParseError(source, line, "a JSON object (one PKB sample per line)",
                         found=type(obj).__name__)
    for key in ("metric", "value", "unit"):
        if key not in obj:
            raise ParseError(source, line, f"a PKB sample with '{key}'",
                             found=", ".join(sorted(obj)) or "{}")
    labels = obj.get("labels")
    md = obj.get("metadata")
    if md is None:
        if not isinstance(labels, str):
            raise ParseError(source, f"line {line}: $.labels", "a labels string "
                             "'|key:value|,…' or a metadata object", found=repr(labels)[:60])
        md = labels_to_dict(labels)
    elif not isinstance(md, dict):
        raise ParseError(source, f"line {line}: $.metadata", "an object", found=repr(md)[:60])
    return obj, md


def _timestamp(obj, source: str, line: int, key: str = "timestamp"):
    ts = obj.get(key)
    if ts is None:
        return None
    try:
        t = float(ts)
    except (TypeError, ValueError):
        raise ParseError(source, f"line {line}: $.{key}", "Unix seconds",
                         found=repr(ts)[:40]) from None
    except OverflowError:  # an integer beyond any float
        raise ParseError(source, f"line {line}: $.{key}", "Unix seconds within "
                         "1677-2262", found="an integer too large for a float") from None
    if not math.isfinite(t):
        raise ParseError(source, f"line {line}: $.{key}", "finite Unix seconds",
                         found=repr(ts))
    import pandas as pd

    try:
        return pd.Timestamp(t, unit="s", tz="UTC")
    except (OverflowError, ValueError):  # OutOfBoundsDatetime is a ValueError
        raise ParseError(source, f"line {line}: $.{key}", "Unix seconds within "
                         "1677-2262", found=repr(ts)[:40]) from None


def _rows(obj: dict, md: dict) -> list[dict]:
    bench = TOOLS.get(str(obj.get("test", "")))
    try:
        value = float(obj["value"])
    except OverflowError:  # an integer beyond a float: refused by the row check
        value = math.inf
    except (TypeError, ValueError):
        return []
    metric, unit = str(obj["metric"]), str(obj.get("unit") or "")
    if bench == "fio":
        r = _fio(metric, value, unit, md)
        return [r] if r else []
    if bench == "bonnie++":
        r = _bonnie(metric, value, unit, md)
        return [r] if r else []
    if bench == "sysbench":
        return _sysbench(metric, value, unit, md)
    return []


def _check_rows(rows: list[dict], obj: dict, source: str, line: int) -> None:
    """Every row a known metric with a finite, non-negative value in canonical units (the
    rates, latencies and counts PKB reports), else a ParseError at the sample's line."""
    for r in rows:
        try:
            schema.metric_info(r["metric"])
        except SchemaError:
            raise ParseError(source, f"line {line}: $.metric", "a metric ebsstats knows",
                             found=f"{obj.get('metric')!r} -> {r['metric']!r}"[:80]) from None
        number(r["value"], source, f"line {line}: $.value", r["metric"],
               found=repr(obj.get("value"))[:40])


def parse(text: str, source: str, **options) -> Parsed:
    """Parse a PKB results file (JSON lines). Raises :class:`ParseError` naming the line."""
    out = Parsed(tool="fio", format="json lines")
    skipped = 0
    tools = set()
    benchmarks: dict[str, int] = {}  # every sample's benchmark, counted (for an empty file)
    starts: dict[tuple[str, str], float] = {}  # (run_uri, test) -> its start_time sample
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except ValueError as exc:
            raise ParseError(source, i, "one JSON object per line (a PKB sample)",
                             found=str(exc)) from None
        except RecursionError:
            raise ParseError(source, i, "one JSON object per line (a PKB sample)",
                             found="nesting too deep") from None
        obj, md = _sample(raw, source, i)
        try:
            rows = _rows(obj, md)
        except RecursionError:  # str() of a deeply nested metric or metadata value
            raise ParseError(source, i, "a PKB sample", found="nesting too deep") from None
        _check_rows(rows, obj, source, i)
        bench = str(obj.get("test"))
        benchmarks[bench] = benchmarks.get(bench, 0) + 1
        if not rows:
            if obj.get("metric") == "start_time" and obj.get("unit") == "sec":
                starts[(str(obj.get("run_uri") or ""), str(obj.get("test")))] = \
                    _timestamp(obj, source, i, "value")
            skipped += 1
            continue
        ts = _timestamp(obj, source, i)
        meta = _meta({**md, "run_uri": obj.get("run_uri")})
        tool = TOOLS[str(obj["test"])]
        tools.add(tool)
        run_uri = str(obj.get("run_uri") or "")
        for r in rows:
            part = r.pop("run_part")
            version = r.pop("tool_version")
            out.records.append({**meta, **r, "source": source, "position": f"line {i}",
                                "tool": tool, "tool_version": version, "timestamp": ts,
                                "run_key": f"{run_uri}:{tool}:{part}",
                                "_start": (run_uri, str(obj["test"]))})
    if skipped:
        out.notes.append(f"{skipped} PKB sample(s) of other metrics or benchmarks skipped")
    _run_starts(out, starts)
    if not out.records:
        seen = ", ".join(f"{b} ({k})" for b, k in sorted(benchmarks.items())[:4])
        out.why_empty = ("a PerfKit Benchmarker results file without fio, bonnie++ or sysbench "
                         f"results: its samples are of {seen or 'nothing'}")
    if len(tools) == 1:
        out.tool = tools.pop()
    return out


def _run_starts(out: Parsed, starts: dict[tuple[str, str], float]) -> None:
    """Each row's ``timestamp``: the ``start_time`` sample of its run (run_uri and benchmark)
    where the file has one; else the time PKB stamped the sample, which it does after the
    whole benchmark (a note says so). jliu312/parse-perfkit's fio samples were stamped 202 s
    after their run's start, the time the schema means."""
    late = 0
    for rec in out.records:
        start = starts.get(rec.pop("_start"))
        if start is not None:
            rec["timestamp"] = start
        else:
            late += 1
    if late:
        out.notes.append(f"{late} row(s) without their run's start_time sample: timestamp is "
                         "the time PKB wrote the sample, after the run")


def read_pkb(path: str | os.PathLike, **meta):
    """Read one PerfKit Benchmarker results file (JSON lines) into the tidy frame.

    Parameters
    ----------
    path : str or path-like
        ``perfkitbenchmarker_results.json`` (any name: the content decides).
    **meta
        Metadata set on every row (``config="gp3"``), overriding what PKB recorded.

    Returns
    -------
    pandas.DataFrame
        The results frame (:mod:`ebsstats.schema`): fio, bonnie++ and sysbench samples, PKB's
        VM and disk metadata in ``volume_type``, ``size_gib``, ``provisioned_iops``,
        ``instance_type``, ``az``, ``region``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "perfkitbenchmarker_results.json"
    >>> _ = p.write_text('{"metric": "randread:read:iops", "value": 3000.0, "unit": "", '
    ...   '"timestamp": 1700000000.0, "test": "fio", "run_uri": "0a1b2c3d", "labels": '
    ...   '"|data_disk_0_size:100|,|data_disk_0_type:gp3|,|machine_type:m5.large|,'
    ...   '|rw:randread|,|zone:us-east-1a|"}\\n')
    >>> df = read_pkb(p)
    >>> df[["tool", "test", "metric", "value", "config", "instance_type", "region"]].values.tolist()
    [['fio', 'randread', 'iops', 3000.0, 'gp3-100g', 'm5.large', 'us-east-1']]
    """
    return read_one(path, parse, meta)


# the records carry their own tool (fio, bonnie++ or sysbench); "fio" names the reader's default
READER = Reader(tool="fio", name=__name__, detect=sniff, parse=text_parser(parse))
