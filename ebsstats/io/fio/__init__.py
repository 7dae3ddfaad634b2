"""fio result outputs: JSON / json+ (2.x and 3.x, client/server), terse v2–v5, normal text
(1.5x to 3.x).

:func:`read_fio` reads one file into the tidy results frame; :func:`parse` is the reader-protocol
entry point; :func:`read_fio_histogram` gives the json+ latency bins. Log files
(``write_bw_log`` …) are read by :mod:`ebsstats.io.fio.log`.

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
only when fio took samples), ``bw_agg`` (%; left out of JSON before fio 2.1.8, which wrote the
mean bandwidth there), ``cpu_usr``/``cpu_sys`` (%).

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
``timestamp`` column is the START: the job's ``job_start`` (fio 3.36+, ms since the epoch), else
``timestamp_ms/1000 - elapsed`` (``elapsed`` is whole seconds, rounded up, since fio started:
the same start for every job of a report, stonewalled ones too), or, where ``elapsed`` is absent
(client/server), ``timestamp - max(job_runtime, direction runtimes)``. Normal text (fio 2.1+)
prints on each job's line when it printed the report (``pid=6036: Sun Nov 22 03:29:23 2026``:
stat.c's ``time()`` through ``ctime_r``, the run's end cut to the second, in the machine's local
time without a zone): it is read as UTC, as PTS's TimeStamp is (cloud images run in UTC by
default), and the start is it less the job's longest direction runtime, to the second. Terse
output, fio 2.0's normal text and 2.x JSON before 2.2.5 carry no usable date, so
``timestamp`` is ``<NaT>`` there. A ``timestamp`` given as metadata (sidecar, pattern,
argument) replaces the one read: give it where the machine's clock was not UTC.

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
``--output-format=normal,json``) is skipped; fio's warnings are kept in ``Parsed.notes`` (a
folder read lists them, kind ``"note"``), its progress chatter (banner, ``Starting N
processes``, ``Laying out IO file``) is not. Terse lines take their job's options
(``workload``, ``rw``, ``ioengine``, ``iodepth``, block size per op) from the line fio prints
per job (``name: (g=0): rw=read, bs=(R) 4096B-4096B, …``) where the output has one before them
(``terse,normal``): a terse line holds none. Duplicate
keys (old 2.x percentile padding, client/server ``global options``) keep the last value, which is
what ``json`` does natively. Several documents (``--status-interval``): the last is the result;
all of them also give the series frame rows ``iops``/``bandwidth`` per op, where each row is the
rate over the interval since the previous report (difference of ``total_ios``/``io_bytes`` over
the difference of ``runtime``) and ``t`` is the report's ``elapsed`` seconds.

The reader's modules
--------------------
This package is the reader's public face (:func:`sniff`, :func:`parse`, :func:`read_fio`,
:func:`read_fio_histogram`, the registered ``READER``); the formats live in their own modules:
:mod:`ebsstats.io.fio.json` (JSON and json+, ``--status-interval`` series),
:mod:`ebsstats.io.fio.jsonplus` (json+ latency bins), :mod:`ebsstats.io.fio.terse`,
:mod:`ebsstats.io.fio.normal` (normal text) and :mod:`ebsstats.io.fio.log` (fio's log files, a
reader of its own); what they share (job options → metadata, the number checks) is in
``ebsstats.io.fio._options``.
"""

from __future__ import annotations

import math
import operator
import os
import re

from ebsstats.io._columns import Const, records_of
from ebsstats.io._common import HEAD_BYTES, PTS_TEST_LOG, Parsed, decode, read_one
from ebsstats.io._registry import Reader
from ebsstats.io.fio._options import (
    _JOB_LINE_SNIFF,
    _JSON_SNIFF,
    _NORMAL_SNIFF,
    _TERSE_START,
    _no_report,
    version_parts,
)
from ebsstats.io.fio._options import TOOL as TOOL  # the names below are this package's too
from ebsstats.io.fio._options import job_meta as job_meta
from ebsstats.io.fio._options import workload_of as workload_of
from ebsstats.io.fio.json import _JSON_SNIFF_DATA, _fast_json, _parse_json
from ebsstats.io.fio.jsonplus import histogram, read_fio_histogram
from ebsstats.io.fio.normal import _parse_normal
from ebsstats.io.fio.terse import _parse_terse
from ebsstats.schema import IMPLAUSIBLE, INTERRUPTED

__all__ = ["sniff", "parse", "read_fio", "read_fio_histogram", "histogram"]

# peak memory of a parse per byte of input, for the folder read's budget
# (benchmarks/reader_memory.py: measured 18 (a 5.2 MB report of 94,864 rows))
MEMORY_FACTOR = 40

_DOC_START = re.compile(r"^\{", re.M)


def sniff(head: str, name: str) -> str | None:
    """Say whether ``head`` (a file's first 64 KiB) is a fio report: ``"json"``, ``"terse"``,
    ``"normal"`` or ``None``.

    Content decides: a ``"fio version"`` key, a terse line (``3;fio-3.33;…`` / ``2;name;…`` with
    at least 100 ``;``-separated fields) or a normal-report job header ``(groupid=0, jobs=1): err=``.
    fio log files (``0, 31371, 0, 4096``) are left to :func:`ebsstats.io.fio.log.sniff`.

    Examples
    --------
    >>> sniff('{\\n  "fio version" : "fio-3.33",', "a.json")
    'json'
    >>> sniff("0, 31371, 0, 4096, 0\\n", "x_bw.1.log") is None
    True
    """
    if PTS_TEST_LOG.match(head):
        return None  # a Phoronix Test Suite test log that embeds fio's text: the PTS reader's
    if '"fio version"' in head and _JSON_SNIFF.search(head):  # (a substring search first)
        return "json"
    return _text_format(None, head)


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
        return _implausible(_interrupted(_old_bw_agg(_parse_json(text, source))))
    if fmt == "terse":
        return _implausible(_interrupted(_parse_terse(text, source)))
    if fmt == "normal":
        return _implausible(_interrupted(_parse_normal(text, source)))
    raise ValueError(f"unknown fio format {fmt!r}")


_SIGNAL_NOTE = re.compile(r"fio: terminating on signal (\d+)")


def _interrupted(parsed: Parsed) -> Parsed:
    """``parsed`` with every row that has no flag flagged :data:`INTERRUPTED` when fio said
    ``fio: terminating on signal N`` (Ctrl-C, ``timeout``, ``kill``): fio then reports what the
    jobs did until they stopped, a shorter run than the job file asked for, which
    :func:`ebsstats.select` leaves out and :func:`ebsstats.summarize` warns of.

    >>> p = Parsed("fio", "normal", notes=["fio: terminating on signal 2"],
    ...            records=[{"flag": None}, {"flag": "error=5"}])
    >>> [r["flag"] for r in _interrupted(p).records]
    ['interrupted', 'error=5']
    """
    sig = next((m for n in parsed.notes if (m := _SIGNAL_NOTE.match(n))), None)
    if sig is None:
        return parsed
    if parsed.columns is not None:
        cols, n = parsed.columns
        flag = cols.get("flag")
        if flag is None or (type(flag) is Const and flag.value is None):
            cols = {**cols, "flag": Const(INTERRUPTED, n)}
        elif type(flag) is list:
            cols = {**cols, "flag": [INTERRUPTED if f is None else f for f in flag]}
        elif type(flag) is not Const:  # (another piece: the rows as records, to flag them)
            parsed.records, cols = records_of(parsed.columns), None
        parsed.columns = None if cols is None else (cols, n)
    for rec in parsed.records:
        if rec.get("flag") is None:
            rec["flag"] = INTERRUPTED
    parsed.notes.append(f"fio stopped on signal {sig.group(1)} before its jobs' end: their "
                        f"rows are flagged {INTERRUPTED!r} (ebsstats.select leaves them out)")
    return parsed


def _old_bw_agg(parsed: Parsed) -> Parsed:
    """``parsed`` (a JSON report) without its ``bw_agg`` rows when fio before 2.1.8 wrote it:
    those versions put the direction's mean bandwidth in KiB/s there, not its share of the
    group's in % (fio commit a806bf2e, "stat: fixing bw_agg reporting"), so PerfKit
    Benchmarker's fio-2.1.4 sample read as 63,936.8 %; a note says so.

    >>> p = _old_bw_agg(Parsed("fio", "json", version="fio-2.1.4", records=[
    ...     {"metric": "bw_agg", "value": 63936.8}, {"metric": "iops", "value": 1.0}]))
    >>> [r["metric"] for r in p.records], p.notes[0][:46]
    (['iops'], 'fio-2.1.4 writes the mean bandwidth (KiB/s) as')
    """
    vt = version_parts(parsed.version)
    if vt is None or vt >= (2, 1, 8):
        return parsed
    if parsed.columns is not None:
        metric = parsed.columns[0].get("metric")
        if type(metric) is list and "bw_agg" not in metric:  # (no samples: nothing to take)
            return parsed
        parsed.records, parsed.columns = records_of(parsed.columns), None
    kept = [r for r in parsed.records if r.get("metric") != "bw_agg"]
    if len(kept) < len(parsed.records):
        parsed.notes.append(
            f"{parsed.version} writes the mean bandwidth (KiB/s) as bw_agg, not the share of "
            f"its group's bandwidth in % (fixed in fio 2.1.8): its "
            f"{len(parsed.records) - len(kept)} bw_agg row(s) are left out")
        parsed.records = kept
    return parsed


_LAT_FAMILIES = ("slat_", "clat_", "lat_")  # the times one I/O took: submission, completion, both
# the statistics judged: each family's other ones are bounded by its max in fio's accounting
# (min <= mean <= max; a percentile is a bin of samples no longer than the max; a standard
# deviation of times in [0, max] is at most max / 2); its mean as well, in case only the sum
# went wrong
_JUDGED = frozenset(f"{fam}{stat}" for fam in _LAT_FAMILIES for stat in ("max", "mean"))
#: Seconds a latency may exceed twice the job's longest runtime by (its ramp and setup time,
#: which fio's runtime leaves out): an I/O never takes longer than the job it belongs to ran.
_LIFETIME_SLACK = 10.0
#: How far a direction's mean clat may exceed its mean lat (which holds it: lat = slat + clat,
#: I/O by I/O) as printed: 1 % (a mean printed in another unit, to two decimals) plus 1 us.
_CLAT_OVER_LAT = (1.01, 1e-6)


def _implausible(parsed: Parsed) -> Parsed:
    """``parsed`` with latency families (``slat``, ``clat``, ``lat``: their min, max, mean,
    stddev and percentiles) of a job's direction flagged :data:`IMPLAUSIBLE` where they cannot
    be what the run measured, the values kept as printed, a note naming each:

    * a family whose max or mean is longer than the job can have run, more than twice its
      longest ``runtime`` plus :data:`_LIFETIME_SLACK` seconds: no I/O outlives its job (a 30 s
      run printing a 756,537 s latency: fio's clock or counters gone wrong); the family's
      other statistics come from the same samples;
    * ``clat`` and ``slat`` where the mean clat is longer than the mean lat, which holds it
      (lat = slat + clat for each I/O; :data:`_CLAT_OVER_LAT`): the times the I/Os were
      issued are wrong, and so are both figures taken from them, while lat is timed by fio
      from the I/O's start to its end (rawstor_bench's fio-3.40 engine: clat 15.6 s, lat
      185 us, in 10 s runs).

    Rows that carry a flag already keep it.

    >>> recs = [{"run_key": "j", "op": "read", "metric": m, "value": v, "flag": None}
    ...         for m, v in [("runtime", 30.0), ("clat_max", 756537.0), ("clat_mean", 2.0),
    ...                      ("lat_mean", 0.002), ("iops", 100.0)]]
    >>> p = _implausible(Parsed("fio", "normal", records=recs))
    >>> [r["flag"] for r in p.records]
    [None, 'implausible', 'implausible', None, None]
    >>> p.notes[0][:58]
    "job 'j' read: clat_max 756537 s is longer than the job can"
    """
    if parsed.columns is not None:
        cols, _n = parsed.columns
        metric, value, pos = cols.get("metric"), cols.get("value"), cols.get("position")
        if type(metric) is list and type(value) is list and type(pos) is list and \
                not _may_be_implausible(_screen_of(metric, pos), value):
            return parsed
        recs = records_of(parsed.columns)  # (to judge by job; the columns stay as they are)
    else:
        recs = parsed.records
    metric = [r.get("metric") for r in recs]
    if not _may_be_implausible(_screen(metric, [(r.get("run_key"), r.get("op"))
                                                for r in recs]),
                               [r.get("value") for r in recs]):
        return parsed
    bad = _implausible_families(recs)
    if not bad:
        return parsed
    flags = [IMPLAUSIBLE if r.get("flag") is None and (
        r.get("run_key"), r.get("op"), _family(r.get("metric"))) in bad else r.get("flag")
        for r in recs]
    if parsed.columns is not None:  # (only the flag column changes: a report's other columns
        # keep the shared lists and runs the typing takes at once)
        cols, n = parsed.columns
        parsed.columns = ({**cols, "flag": flags}, n)
    else:
        for r, flag in zip(recs, flags, strict=True):
            r["flag"] = flag
    for note in dict.fromkeys(bad.values()):
        parsed.notes.append(f"{note}; its rows are flagged {IMPLAUSIBLE!r} (ebsstats.select "
                            "leaves them out)")
    return parsed


def _implausible_families(recs: list[dict]) -> dict:
    """``{(run_key, op, family): why}`` of the families :func:`_implausible` flags."""
    longest: dict = {}
    means: dict = {}  # (run_key, op) -> {"clat_mean": v, "lat_mean": v}
    for r in recs:
        m, v, key = r.get("metric"), r.get("value"), r.get("run_key")
        if not _finite(v):
            continue
        if m == "runtime":
            longest[key] = max(longest.get(key, 0.0), v)
        elif m in ("clat_mean", "lat_mean"):
            means.setdefault((key, r.get("op")), {})[m] = v
    jobs = {}
    for r in recs:
        jobs.setdefault(r.get("run_key"), r.get("job") or r.get("test"))
    bad: dict = {}
    for r in recs:
        key, op, m, v = r.get("run_key"), r.get("op"), r.get("metric"), r.get("value")
        if m not in _JUDGED or key not in longest or not _finite(v):
            continue
        if v > 2 * longest[key] + _LIFETIME_SLACK:
            fam = _family(m)
            bad.setdefault((key, op, fam), (
                f"job {jobs[key] or key!r} {op}: {m} {v:g} s is longer than the job can have "
                f"run (runtime {longest[key]:g} s): fio's clock or counters went wrong; the "
                f"{fam} statistics are no measurement"))
    scale, slack = _CLAT_OVER_LAT
    for (key, op), got in means.items():
        c, lat = got.get("clat_mean"), got.get("lat_mean")
        if c is not None and lat is not None and c > lat * scale + slack:
            why = (f"job {jobs[key] or key!r} {op}: clat_mean {c:g} s is longer than lat_mean "
                   f"{lat:g} s, which holds it (lat = slat + clat): the I/Os' issue times are "
                   f"wrong, and the clat and slat statistics taken from them")
            for fam in ("clat", "slat"):
                bad.setdefault((key, op, fam), why)
    return bad


def _may_be_implausible(screen: tuple, value: list) -> bool:
    """Whether the rows may hold what :func:`_implausible` flags (``screen``: what
    :func:`_screen` found of their metrics): a judged latency beyond twice the shortest
    positive ``runtime`` among them plus the slack (each job's bound is at least that), or a
    mean clat beyond the mean lat of its direction. The usual report is cleared by one getter
    and two maps in C, without its rows grouped by job: its judged latencies are all under the
    slack (10 s), no bound is lower, and its runtimes are not looked at."""
    get, judged, pairs, rt = screen
    if get is None:
        return False
    try:
        vals = get(value)
        if judged and not max(vals[:judged]) <= _LIFETIME_SLACK:  # (NaN too: row by row)
            shortest = min(filter(_POSITIVE, rt(value)), default=None) if rt else None
            if shortest is not None and not (
                    max(vals[:judged]) <= 2 * shortest + _LIFETIME_SLACK):
                return True
        if pairs:
            return not all(map(operator.le, vals[judged:judged + pairs],
                               map(_SLACK_ADD, map(_SCALE_MUL, vals[judged + pairs:]))))
    except TypeError:  # (a value that is not a number: judged row by row)
        return True
    return False


_POSITIVE = (0.0).__lt__
_SCALE_MUL, _SLACK_ADD = _CLAT_OVER_LAT[0].__mul__, _CLAT_OVER_LAT[1].__add__


def _screen(metric: list, keys: list) -> tuple:
    """``(get, judged, pairs, rt)`` of rows with these metrics: ``get`` gives the judged
    latency values (:data:`_JUDGED`; ``judged`` of them), then the ``clat_mean`` and then the
    ``lat_mean`` values of ``pairs`` directions (``keys``: a row's direction, equal for the
    two rows of a pair), in one tuple (:func:`operator.itemgetter`; ``None`` for no such row);
    ``rt`` gives the ``runtime`` values (``None``: none)."""
    rt = [i for i, m in enumerate(metric) if m == "runtime"]
    judged = [i for i, m in enumerate(metric) if m in _JUDGED]
    lat_at = {keys[i]: i for i, m in enumerate(metric) if m == "lat_mean"}
    pairs = [(i, lat_at[keys[i]]) for i, m in enumerate(metric)
             if m == "clat_mean" and keys[i] in lat_at]
    every = judged + [c for c, _ in pairs] + [lt for _, lt in pairs]
    get = operator.itemgetter(*every, every[0]) if every else None  # (a tuple, even of one)
    return (get, len(judged), len(pairs),
            operator.itemgetter(*rt, rt[0]) if rt else None)


def _screen_of(metric: list, position: list) -> tuple:
    """:func:`_screen` of the shared lists of a layout (the fast JSON path's: a row's direction
    is its JSON path up to the statistic, ``$.jobs[0].read``), remembered with the lists
    (held, so that their ``id`` stays theirs) for :data:`_SCREENS_KEPT` layouts."""
    got = _SCREENS.get(id(metric))
    if got is not None and got[0] is metric and got[1] is position:
        return got[2]
    found = _screen(metric, [p.rsplit(".", 2)[0] if type(p) is str else p for p in position])
    if len(_SCREENS) >= _SCREENS_KEPT:
        _SCREENS.pop(next(iter(_SCREENS)))
    _SCREENS[id(metric)] = (metric, position, found)
    return found


_SCREENS: dict[int, tuple[list, list, tuple]] = {}
_SCREENS_KEPT = 256


def _family(metric) -> str | None:
    """``"slat"``, ``"clat"`` or ``"lat"`` for a latency statistic's metric, else ``None``."""
    if type(metric) is str:
        for fam in _LAT_FAMILIES:
            if metric.startswith(fam):
                return fam[:-1]
    return None


def _finite(v) -> bool:
    return type(v) in (float, int) and math.isfinite(v)


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
    return _text_format(text.splitlines(), text)


def _text_format(lines: list[str] | None, text: str) -> str | None:
    """``"terse"`` when one of ``lines`` (default: the first 200 of ``text``) is a terse line
    (``3;fio-3.33;…``, 100 or more fields; a carriage return overwrites the line, as on a
    terminal), else ``"normal"`` when ``text`` holds a normal-report job header or fio's job
    line (``name: (g=0): rw=..., bs=...``: a report that never came, whose parse quotes fio's
    error), else None."""
    if ";" in text and text.count(";") >= 100:  # else no line can be terse (one C-level
        # count, not a loop; a text without any ";", an XML or JSON head, ruled out by a
        # memchr first: 20 KB 5.6 -> 0.2 us)
        for line in text.splitlines()[:200] if lines is None else lines:
            line = line.rsplit("\r", 1)[-1]
            if _TERSE_START.match(line) and line.count(";") >= 100:
                return "terse"
    if "(groupid=" in text and _NORMAL_SNIFF.search(text):
        return "normal"
    if "(g=" in text and _JOB_LINE_SNIFF.search(text):  # fio's job line, no report after: the
        # parse says what fio said instead ("error: maximum number of jobs (8) reached.")
        return "normal"
    return None



def _parse_data(data: bytes, source: str, context) -> Parsed:
    """:func:`_parse` of the text of ``data`` (the reader protocol: bytes decoded as
    :func:`~ebsstats.io._common.decode` does). The usual JSON report, ASCII from its first
    byte ``{`` on (so no byte-order mark, UTF-16 nor undecodable byte) without a NUL, is the
    same text as its bytes and detected as JSON (its first line is a document's start; the
    ``"fio version"`` key found in the bytes): its fast path reads the bytes, without the
    text; anything else (or what that path leaves) is decoded and parsed as before. A NUL,
    which :func:`~ebsstats.io._common.decode` refuses, is not looked for: msgspec refuses it
    anywhere in a document (in a string, between tokens, after the document, in what it skips
    unread), and the fast path leaves such a file to the decoding (a scan of every byte
    less: 0.4 us a 10 KB report)."""
    if data[:1] == b"{" and data.isascii() and _JSON_SNIFF_DATA.search(data):
        fast = _fast_json(data, source)
        if fast is not None:  # (no note before a first "{": never interrupted)
            return _implausible(_old_bw_agg(fast))
    return _parse(decode(data, source), source)


def _claim(data: bytes) -> str | None:
    """``"json"`` for a file whose bytes begin with a line ``{`` alone (fio's pretty-printed
    report) and hold ``"fio version"`` and a colon (:data:`_JSON_SNIFF_DATA`) in their first
    64 KiB; else ``None`` (the readers' sniffs decide). Exact for the registry's verdict: such
    a head is refused by every built-in reader asked before this one (a published table
    starts with its marker, a PerfKit sample is a whole JSON object on its first line, a fio
    log's first line starts with a number), and :func:`sniff` says ``"json"`` (the match is
    ASCII bytes, the same characters in the decoded head; bytes whitespace is text ``\\s``).

    >>> _claim(b'{\\n  "fio version" : "fio-3.33",'), _claim(b'{"fio version": "fio-3.33"}')
    ('json', None)
    """
    if data[:2] == b"{\n" or data[:3] == b"{\r\n":
        if _JSON_SNIFF_DATA.search(data, 0, HEAD_BYTES) is not None:
            return "json"
    return None


# the reader this module registers (ebsstats.io._registry): sniff, then parse the bytes
READER = Reader(tool="fio", name=__name__, detect=sniff, parse=_parse_data,
                memory_factor=MEMORY_FACTOR, claim=_claim)
