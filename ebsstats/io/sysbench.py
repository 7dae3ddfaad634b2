"""Reader of sysbench text outputs: fileio (all versions), cpu, memory, threads, mutex, OLTP.

sysbench prints one human-readable report per run on stdout; benchmark scripts redirect it to a
file, often appending several runs to one file in a loop. This module reads every version family
found in the wild:

==============  ==================================================  ==============================
family          banner                                              fileio result block
==============  ==================================================  ==============================
``0.4.12``      ``sysbench 0.4.12:  multi-threaded system …``       ``Operations performed: … Read``
                (release, 2009)                                     + ``Test execution summary:``
``0.4``         same banner (0.4 branch after 2010)                 lowercase ``reads, writes`` +
                                                                    ``General statistics:``
``0.5``         ``sysbench 0.5:  multi-threaded system …``          as ``0.4``
``1.0``         ``sysbench 1.0.20 (using system LuaJIT …)``         ``File operations:`` /
                                                                    ``Throughput:`` / ``Latency``
``1.1``         ``sysbench 1.1.0-<git> (using bundled LuaJIT …)``   ``read:  IOPS=x y MiB/s (z MB/s)``
                (master, unreleased)
==============  ==================================================  ==============================

The detected family goes in the extra column ``format`` (the 0.4 branch prints ``0.4.12`` like the
release, so ``tool_version`` alone cannot tell them apart).

Source units and conversions (done once, here):

* 0.4/0.5 sizes ``93.75Mb``, ``1.4252Gb``, ``856.72Mb/sec`` are binary multiples of bytes
  (MiB/GiB) → × 2**20 / 2**30; 1.0 ``MiB/s`` → × 2**20 B/s; memory 0.4 ``MB`` is MiB.
* latencies are milliseconds (1.0 prints bare numbers under ``Latency (ms):``, 0.4/0.5 a ``ms``
  suffix) → × 1e-3 s; ``total time: 3.0002s`` → s.

Metrics per fileio run: ``iops`` (op read/write from ``reads/s``/``writes/s``, op ``sync`` from
``fsyncs/s``; 0.4/0.5: op ``total`` from ``Requests/sec executed``, which counts reads + writes
only), ``bandwidth`` (B/s per op; 0.4/0.5 only print the total rate → op ``total``), ``total_ios``
and ``io_bytes`` per op where 0.4/0.5 print counts and sizes, ``lat_min``/``lat_mean``/``lat_max``
and ``lat_pNN`` (percentile as labelled; absent when ``percentile stats: disabled``), ``runtime``
(``total time``) and ``events`` (``total number of events``), all op ``total`` unless said.
Rows of an op that the mode does not perform (``writes/s: 0.00`` in a read test) are left out.
A latency printed as zero (``min: 0.00``: sysbench prints two decimals of a millisecond) is a time
under 0.005 ms, not zero: NaN, flagged ``too_fast``, and said in a note (the interval lines'
``lat (ms,95%): 0.00`` of the series frame, which has no flag, stay as printed).
Other tests: cpu ``events per second`` → ``ops``; memory ``Total operations: N (x per second)`` →
``ops``, ``MiB transferred (y MiB/sec)`` → ``bandwidth`` and ``io_bytes``; threads/mutex give the
latency, runtime and events rows; OLTP ``transactions: N (x per sec.)`` → ``ops`` (test ``oltp``)
and ``queries``/``read/write requests`` per sec → ``ops`` (test ``oltp_queries``). Mind the
versions: 1.0's ``queries`` count the ``other`` ones (BEGIN, COMMIT), 0.4/0.5's ``read/write
requests`` do not (about a tenth fewer for the default OLTP mix), so compare ``oltp`` (transactions)
across versions, ``oltp_queries`` within one; a run without transactions (0.5's
``--oltp-skip-trx``) takes its events per second as ``ops``, with a note.

Report-interval lines (``[ 1s ] reads: 575.52 MiB/s writes: … fsyncs: …/s latency (ms,95%): …``,
``[   1s] … response time: 0.005ms (95%)``, ``[ 1s ] thds: 1 eps: … lat (ms,95%): …``, OLTP
``tps``/``qps`` lines (``… err/s: 0.00 reconn/s: …`` from sysbench's C reporter, ``… err/s 0.00
reconn/s: …`` from its Lua ``sysbench.report_default``, which OLTP scripts such as sysbench-tpcc
report through, with their own counters after it), memory ``[ 1s ] 7508.77 MiB/sec``) become
series rows: ``t`` is the
second in the label, ``bandwidth`` per op, fsync rate as ``iops`` op ``sync``, events or
transactions per second as ``ops``, the interval's latency percentile as ``lat_pNN`` (s).

Other outputs: ``prepare`` (``67108864 bytes written in 0.12 seconds (533.81 MiB/sec).``) gives a
row of test ``prepare``, workload ``seqwrite``, op ``write``, metric ``bandwidth`` (the first-write
pass over fresh files) plus ``io_bytes`` and ``runtime``; ``cleanup`` gives no rows (an empty
result, not an error). ``WARNING:`` lines are kept in :attr:`Parsed.notes`; a ``FATAL:``/
``ALERT:`` line or ``invalid option`` raises :class:`~ebsstats.ParseError` quoting it with its line
(among runs appended to one file, that run is left out and named in :attr:`Parsed.partial`,
as an interrupted one is, and the other runs are kept).

Several runs appended to one file are split on banners (``WARNING`` and ``PARAMS`` lines just
before a banner belong to that run); each run's ``run_key`` is its banner's line, and
``repetition`` counts 0, 1, … over runs with identical options. Seed 001's convention (a
``PARAMS <size> <mode> <threads>`` line before the output, file names like
``sysbench-size-16G-mode-rndrd-threads-16``) fills ``file_total_size``, the mode and ``threads``
when the output does not say them. sysbench prints no timestamp, so ``timestamp`` stays empty.

A folder's files mostly share one layout (the same lines, other figures): a layout read line by
line gets a plan, one split of the whole text into digit runs and what lies between, that
takes each figure anew and gives what the line-by-line read gives (``_Plan``; any other text is
read line by line).
"""

from __future__ import annotations

import functools
import operator
import os
import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate, chain, repeat

import msgspec

from ebsstats import schema, units
from ebsstats.errors import ParseError
from ebsstats.io._columns import Const, columns_of, records_of
from ebsstats.io._common import (
    PTS_TEST_LOG,
    Columns,
    Parsed,
    number,
    picker,
    public_series,
    read_one,
    remember,
    unconvertible,
)
from ebsstats.io._registry import Reader, text_parser
from ebsstats.io._rows import run_columns

__all__ = ["sniff", "parse", "read_sysbench", "MODES"]

TOOL = "sysbench"

# peak memory of a parse per byte of input, for the folder read's budget
# (benchmarks/reader_memory.py: text reports are small; not measured at scale)
MEMORY_FACTOR = 100


#: sysbench fileio mode -> (description printed in "Doing <description> test", workload)
MODES: dict[str, tuple[str, str]] = {
    "seqwr": ("sequential write (creation)", "seqwrite"),
    "seqrewr": ("sequential rewrite", "rewrite"),
    "seqrd": ("sequential read", "seqread"),
    "rndrd": ("random read", "randread"),
    "rndwr": ("random write", "randwrite"),
    "rndrw": ("random r/w", "randrw"),
}
_MODE_BY_TEXT = {text: mode for mode, (text, _) in MODES.items()}
# ops a fileio mode performs (rows of other ops are dropped when their value is 0)
_MODE_OPS = {"seqwr": {"write", "sync"}, "seqrewr": {"write", "sync"}, "rndwr": {"write", "sync"},
             "seqrd": {"read"}, "rndrd": {"read"}, "rndrw": {"read", "write", "sync"}}
# the fileio ops a mode does not perform
_ABSENT_OPS = {mode: {"read", "write", "sync"} - ops for mode, ops in _MODE_OPS.items()}

# a printed number; possessive (never given back: what follows a number in every pattern below
# starts with none of [-+.eE] or a digit, so no shorter number could let a line match), which
# spares the engine the backtracking states of the optional parts
_NUM = r"[-+]?+\d++(?:\.\d++)?+(?:[eE][-+]?+\d++)?+"
_BANNER_RE = re.compile(
    r"^sysbench (?P<version>(?P<major>\d{1,9})\.(?P<minor>\d{1,9})(?:\.\d+)?[-+~.\w]*)"
    r"(?::\s+multi-threaded system evaluation benchmark|\s+\(using [^)]*\))\s*$")
_PARAMS_RE = re.compile(r"^PARAMS\s+(?P<size>\S+)\s+(?P<mode>\S+)\s+(?P<threads>\d+)\s*$")
_NAME_RE = re.compile(r"size-(?P<size>\d+(?:\.\d+)?[KMGTkmgt]?)-mode-(?P<mode>[a-z]+)"
                      r"-threads-(?P<threads>\d+)")
_FATAL_RE = re.compile(r"^(?:FATAL|ALERT):|^invalid option")
# sysbench 0.5 at --max-time with threads still in a transaction: a FATAL line, then the run's
# full report ("Number of unfinished transactions on forced shutdown: 398")
_MAX_TIME_RE = re.compile(r"^FATAL: The --max-time limit has expired, forcing shutdown")

# ---------------------------------------------------------------- header (option echo)
_H_THREADS = re.compile(r"^Number of threads:\s*(\d+)\s*$")
# --rate=N (1.0): the run's target of transactions (events) a second, 0 none
_H_RATE = re.compile(r"^Target transaction rate:\s*(\d+)/sec\s*$")
_H_FLAGS = re.compile(r"^Extra file open flags:\s*(.*?)\s*$")
_H_FILES = re.compile(r"^(\d+) files, (\S+?)B? each\s*$", re.I)
_H_TOTAL = re.compile(r"^(\S+?)B? total file size\s*$", re.I)
_H_BLOCK = re.compile(r"^Block size (\S+?)B?\s*$", re.I)
_H_RATIO = re.compile(rf"^Read/Write ratio for combined random IO test:\s*({_NUM})\s*$")
_H_FSYNC_FREQ = re.compile(r"^Periodic FSYNC enabled, calling fsync\(\) each (\d+) requests")
_H_FSYNC_END = re.compile(r"^Calling fsync\(\) at the end of test, Enabled")
_H_FSYNC_ALL = re.compile(r"^Calling fsync\(\) after each write operation")
_H_IOMODE = re.compile(r"^Using (.*?) I/O mode\s*$")
_H_DOING = re.compile(r"^Doing (.*?) test\s*$")
_H_PREPARE_FILES = re.compile(r"^(\d+) files, (\d+)Kb each, (\d+)Mb total\s*$")
_H_PRIME = re.compile(r"^(?:Prime numbers limit|Maximum prime number checked in CPU test):\s*"
                      r"(\d+)\s*$")
_H_MEM_BLOCK = re.compile(r"^(?:block size|Memory block size):\s*(\S+?)B?\s*$")
_H_MEM_OPER = re.compile(r"^(?:operation|Memory operations type):\s*(\w+)\s*$")
_H_MEM_SCOPE = re.compile(r"^(?:scope|Memory scope type):\s*(\w+)\s*$")

# ---------------------------------------------------------------- results
_R_OPS04 = re.compile(r"^Operations performed:\s+(\d+) (?:Read|reads), (\d+) (?:Write|writes), "
                      r"(\d+) Other = (\d+) Total\s*$", re.I)
_R_XFER04 = re.compile(r"^Read (\S+)\s+Written (\S+)\s+Total transferred (\S+)\s+"
                       r"\((\S+)/sec\)\s*$")
_R_REQS04 = re.compile(rf"^({_NUM}) Requests/sec executed\s*$")
_R_RATE10 = re.compile(rf"^(reads|writes|fsyncs)/s:\s+({_NUM})\s*$")
_R_TPUT10 = re.compile(rf"^(read|written), MiB/s:\s+({_NUM})\s*$")
_R_IOPS11 = re.compile(rf"^(read|write|fsync):\s+IOPS=({_NUM})(?:\s+({_NUM}) MiB/s"
                       rf"\s+\(({_NUM}) MB/s\))?\s*$")
_R_TOTAL_TIME = re.compile(rf"^(?:total time|time elapsed):\s+({_NUM})s\s*$")
_R_EVENTS = re.compile(r"^total number of events:\s+(\d+)\s*$")
_R_EPS = re.compile(rf"^(?:events per second|events/s \(eps\)):\s+({_NUM})\s*$")
_R_LAT = re.compile(rf"^(min|avg|max):\s+({_NUM})\s*(ms|s|us)?\s*$")
_R_PCT04 = re.compile(rf"^approx\.\s+(\d+) percentile:\s+({_NUM})\s*(ms|s|us)?\s*$")
_R_PCT10 = re.compile(rf"^(\d+)th percentile:\s+({_NUM})\s*$")
_R_PCT_OFF = re.compile(r"^percentile stats:\s+disabled\s*$")
_R_MEM10 = re.compile(rf"^Total operations:\s+(\d+) \(\s*({_NUM}) per second\)\s*$")  # ("%8.2f":
# under 10,000 a second the rate is padded, "(  803.72 per second)")
_R_MEM04 = re.compile(rf"^Operations performed:\s+(\d+) \(\s*({_NUM}) ops/sec\)\s*$")
_R_MEMXFER = re.compile(rf"^({_NUM}) (MiB|MB) transferred \(({_NUM}) (?:MiB|MB)/sec\)\s*$")
_R_TRX = re.compile(rf"^transactions:\s+(\d+)\s+\(({_NUM}) per sec\.\)\s*$")
_R_QUERIES = re.compile(rf"^(?:queries|read/write requests):\s+(\d+)\s+\(({_NUM}) per sec\.\)\s*$")
# 1.0 prints MiB/sec; 0.4 and 0.5 print "MB/sec" for the same 2**20 bytes: "67108864 bytes
# written in 0.11 seconds (574.12 MB/sec)" is 64 MiB in 0.1115 s (574.12 * 10**6 B/s would need
# 0.1169 s, which prints as 0.12)
_R_PREPARE = re.compile(rf"^(\d+) bytes written in ({_NUM}) seconds \(({_NUM}) Mi?B/sec\)\.?\s*$")

_HEADINGS = {
    "File operations:": "fileops", "Throughput:": "throughput",
    "General statistics:": "general", "Test execution summary:": "general",
    "Latency (ms):": "latency", "response time:": "latency", "per-request statistics:": "latency",
    "Threads fairness:": "fairness", "SQL statistics:": "sql", "OLTP test statistics:": "sql",
    "CPU speed:": "cpu", "queries performed:": "queries",
}
_RESULT_SECTIONS = {"fileops", "throughput", "general", "latency", "sql", "cpu"}

# ---------------------------------------------------------------- report-interval lines
_T_RE = re.compile(rf"^\[\s*({_NUM})s\s*\]\s*(.*)$")
_I_FILE = re.compile(rf"^reads: ({_NUM}) (MiB|MB)/s writes: ({_NUM}) (?:MiB|MB)/s "
                     rf"fsyncs: ({_NUM})/s (?:latency \(ms,(\d+)%\): ({_NUM})|"
                     rf"response time: (?:({_NUM})ms|({_NUM})us) \((\d+)%\))\s*$")
_I_EPS = re.compile(rf"^thds: (\d+) eps: ({_NUM}) lat \(ms,(\d+)%\): ({_NUM})\s*$")
# (sysbench's C reporter prints "err/s: ", its Lua sysbench.report_default, which OLTP scripts
# such as sysbench-tpcc report through, "err/s " without the colon; sysbench-tpcc appends its
# own counters after "reconn/s")
_I_OLTP10 = re.compile(rf"^thds: (\d+) tps: ({_NUM}) qps: ({_NUM}) \(r/w/o: [^)]*\) "
                       rf"lat \(ms,(\d+)%\): ({_NUM}) err/s:? .*$")
# (0.5 builds print the response time in ms, or in us: Percona's 2016 OLTP runs)
_I_OLTP05 = re.compile(rf"^threads: (\d+), tps: ({_NUM}), reads(?:/s)?: ({_NUM}),? "
                       rf"writes(?:/s)?: ({_NUM}),? response time: (?:({_NUM})ms|({_NUM})us) "
                       rf"\((\d+)%\).*$")
_I_MEM = re.compile(rf"^({_NUM}) (MiB|MB)/sec,?\s*$")
_I_QUEUE = re.compile(r"^queue length:")

_ROW_COLUMNS = ("position", "test", "op", "metric", "value")  # a result row's own values
# the counts after "queries performed:" (and the transactions after them)
_QUERY_COUNT = re.compile(r"^\s*(read|write|other|total|transactions):\s+(\d+)\b")


@functools.lru_cache(maxsize=256)  # a handful of percentiles, on every interval line
def _percentile(family: str, p: str) -> str:
    if not 0 < float(p) <= 100:
        raise ValueError(f"percentile {p} outside (0, 100]")
    return schema.percentile_metric(family, p)


def _family(major: int, minor: int, text: str) -> str:
    if (major, minor) == (0, 4):
        return "0.4.12" if "Test execution summary:" in text else "0.4"
    if (major, minor) < (1, 0):
        return f"{major}.{minor}"
    if (major, minor) == (1, 0) and "IOPS=" not in text:
        return "1.0"
    return "1.1"


def sniff(head: str, name: str = "") -> str | None:
    """Format name (``"sysbench 1.0"``, ``"sysbench 0.4.12"``, …) if ``head`` is sysbench output.

    Content decides: a sysbench banner among the first 40 lines. Usually it is the first
    meaningful line, possibly after ``WARNING:`` lines (legacy options on 1.0) and seed 001's
    ``PARAMS`` line; a script that appends runs to one file often echoes a line of its own
    first (``echo "Test: $i"``), which the parser keeps as a note. A Phoronix Test Suite test
    log (``#####``, ``<system> - Run N``) embeds sysbench's text but is the PTS reader's, and
    an XML or JSON document is no sysbench output whatever its lines say.

    >>> sniff("sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\\n\\nRunning the test", "x")
    'sysbench 1.0'
    >>> sniff("PARAMS 16G rndrd 16\\nsysbench 0.4.12:  multi-threaded system evaluation "
    ...       "benchmark\\n", "x"), sniff("fio-3.33\\n", "x")
    ('sysbench 0.4', None)
    >>> sniff("Test: 0\\nsysbench 1.0.18 (using system LuaJIT 2.1.0-beta3)\\n", "x")
    'sysbench 1.0'
    >>> sniff("#####\\nvol - Run 1\\n#####\\nsysbench 1.0.20 (using system LuaJIT 2.1.0)\\n", "x")
    """
    s = _first_meaningful(head)
    m = _BANNER_RE.match(s) if s is not None else None
    if not m:
        m = _later_banner(head)
        if not m:
            return None
    return f"sysbench {_family(int(m['major']), int(m['minor']), head)}"


def _later_banner(head: str) -> re.Match | None:
    """The first banner among the first :data:`_SNIFF_LINES` lines of ``head`` (stripped, as
    the parser matches them) when its first meaningful line is none; ``None`` for a head
    without ``"sysbench "`` (one substring search: the usual answer for other tools' files), a
    PTS test log, and an XML or JSON document."""
    if "sysbench " not in head or PTS_TEST_LOG.match(head):
        return None
    if head.lstrip("\ufeff \t\r\n")[:1] in ("<", "{", "["):
        return None
    for line in head.splitlines()[:_SNIFF_LINES]:
        if "sysbench " in line and (m := _BANNER_RE.match(line.strip())):
            return m
    return None


_SNIFF_LINES = 40  # the banner is among the first 40 lines


def _first_meaningful(head: str) -> str | None:
    """The first of the first :data:`_SNIFF_LINES` lines of ``head`` that is not blank, a
    WARNING or a PARAMS line (stripped), or ``None``.

    The lines of the first 256, then 4,096 characters are looked at first (the last of them,
    perhaps cut short, left out), the whole head's only if they are too few to decide: a
    64 KiB head of another tool's output is not split into lines for one answer. A first line
    ended by a line feed within them and holding no other line break (all of it printable) is
    the first of them: the answer when it is one (a banner, as usual).
    """
    end = head.find("\n", 0, 256)
    first = head[:end] if end > 0 else ""
    if first.isprintable():  # (no "\r", "\v", "\f", "\x1c"-"\x1e", "\x85", "\u2028"...)
        s = first.strip()
        if s and not s.startswith("WARNING:") and not _PARAMS_RE.match(s):
            return s
    for limit in (256, 4096, None):
        cut = limit is not None and len(head) > limit
        lines = head[:limit].splitlines() if cut else head.splitlines()
        if cut:
            lines.pop()
        for line in lines[:_SNIFF_LINES]:
            s = line.strip()
            if s and not s.startswith("WARNING:") and not _PARAMS_RE.match(s):
                return s
        if not cut or len(lines) >= _SNIFF_LINES:
            return None
    return None  # pragma: no cover - the last limit reads the whole head


# ---------------------------------------------------------------- parsing

@dataclass
class _Run:
    banner: int  # 0-based line index of the banner
    end: int  # exclusive
    version: str
    major: int
    minor: int
    params: dict = field(default_factory=dict)


def _flags(text: str) -> str:
    """Normalise ``Extra file open flags``: ``(none)``/``0`` → ``none``; 0.4's numeric O_* flags
    decoded with Linux x86 values (O_DIRECT 16384, O_DSYNC 4096, O_SYNC 1052672)."""
    t = text.strip()
    if t in ("", "0", "(none)"):
        return "none"
    if t.isdigit():
        n, names = int(t), []
        if n & 1052672 == 1052672:
            names.append("sync")
            n &= ~1052672
        if n & 4096:
            names.append("dsync")
            n &= ~4096
        if n & 16384:
            names.append("directio")
            n &= ~16384
        return " ".join(names) if names and not n else t
    return " ".join(t.split())


def _io_mode(text: str) -> str:
    t = text.lower()
    if "mmap" in t:
        return "mmap"
    if t.startswith("asynchronous"):
        return "async"
    if t.startswith("synchronous"):
        return "sync"
    return t


def _count(text: str) -> int:
    """A count an option echo prints, which must fit in 64 bits (else ValueError)."""
    n = int(text)
    if not 0 <= n < 2**63:
        raise ValueError("a count beyond 64 bits")
    return n


def _size(text: str) -> int:
    """A size in bytes (``16KiB``, ``1Gb``), which must fit in 64 bits (else ValueError)."""
    return _count(units.binary_size(text))


def _on(_: str) -> str:
    return "on"


# option echoes that set one header value: (pattern, "hdr" or "extra", key, conversion, tag)
_FILEIO_ECHO = [
    (_H_FILES, "extra", "file_num", _count, "fileio"),
    (_H_TOTAL, "extra", "file_total_size", _size, "fileio"),
    (_H_BLOCK, "hdr", "block_size", _size, "fileio"),
    (_H_RATIO, "extra", "rw_ratio", str, "fileio"),
    (_H_FSYNC_FREQ, "extra", "fsync_freq", _count, "fileio"),
    (_H_FSYNC_END, "extra", "fsync_end", _on, "fileio"),
    (_H_FSYNC_ALL, "extra", "fsync_all", _on, "fileio"),
    (_H_IOMODE, "extra", "io_mode", _io_mode, "fileio"),
]
_CPU_ECHO = [(_H_PRIME, "extra", "cpu_max_prime", _count, "cpu")]
_MEMORY_ECHO = [
    (_H_MEM_BLOCK, "hdr", "block_size", _size, "memory"),
    (_H_MEM_OPER, "extra", "memory_oper", str, "memory"),
    (_H_MEM_SCOPE, "extra", "memory_scope", str, "memory"),
]


def _pick(cell, m: re.Match) -> str:
    """A table cell: a fixed name; a dict: the name its key, the line's first group, gives; a
    number: the latency percentile metric (``lat_p95``) of that group."""
    if type(cell) is str:
        return cell
    if type(cell) is dict:
        return cell[m.group(1)]
    return _percentile("lat", m.group(cell))


def _ms_or_unit(text: str, m: re.Match) -> float:
    """A latency in the unit after it (0.4's ``us``/``s``), else sysbench's ms."""
    return units.duration(text + (m.group(3) or ""), "ms")


def _ms(text: str, m: re.Match) -> float:
    return units.duration(text, "ms")


def _bytes(text: str, m: re.Match) -> float:
    return units.binary_size(text)


_SERIES_UNIT = {"bandwidth": "B/s", "iops": "IO/s", "ops": "ops/s"}
_OP_WORDS = {"reads": "read", "writes": "write", "fsyncs": "sync", "read": "read",
             "written": "write", "write": "write", "fsync": "sync"}
_LAT_NAMES = {"min": "lat_min", "avg": "lat_mean", "max": "lat_max"}
_WRAPPED_S = 2.0**63 * 1e-9  # 292 years: a latency above it is an unsigned wrap (_wrapped)

# result lines: (pattern, section it counts in (None: any), ((metric, op, group, scale), ...),
# tag). metric/op: a name, a dict keyed by the line's first group, or the number of the group of
# a latency percentile (see _pick); scale: a factor to the canonical unit, or a function
# (text, match) -> value. The first row that matches wins (as the former if-chain did).
_RESULT_LINES = (
    (_R_PREPARE, None, (("bandwidth", "write", 3, units.MiB), ("io_bytes", "write", 1, 1.0),
                        ("runtime", "write", 2, 1.0)), "prepare"),
    (_R_LAT, "latency", ((_LAT_NAMES, "total", 2, _ms_or_unit),), None),
    (_R_PCT04, "latency", ((1, "total", 2, _ms_or_unit),), None),
    (_R_PCT10, "latency", ((1, "total", 2, _ms),), None),
    (_R_PCT_OFF, "latency", (), "percentile off"),
    (_R_RATE10, None, (("iops", _OP_WORDS, 2, 1.0),), None),
    (_R_TPUT10, None, (("bandwidth", _OP_WORDS, 2, units.MiB),), None),
    (_R_IOPS11, "throughput", (("iops", _OP_WORDS, 2, 1.0),
                               ("bandwidth", _OP_WORDS, 3, units.MiB)), None),
    (_R_OPS04, None, (("total_ios", "read", 1, 1.0), ("total_ios", "write", 2, 1.0),
                      ("total_ios", "sync", 3, 1.0)), None),
    (_R_XFER04, None, (("io_bytes", "read", 1, _bytes), ("io_bytes", "write", 2, _bytes),
                       ("bandwidth", "total", 4, _bytes)), None),
    (_R_REQS04, None, (("iops", "total", 1, 1.0),), None),
    (_R_TOTAL_TIME, None, (("runtime", "total", 1, 1.0),), None),
    (_R_EVENTS, None, (("events", "total", 1, 1.0),), None),
    (_R_EPS, None, (("ops", "total", 1, 1.0),), None),
    (_R_MEM10, None, (("ops", "total", 2, 1.0),), None),
    (_R_MEM04, None, (("ops", "total", 2, 1.0),), None),
    # 0.4 "MB" is 1024*1024 bytes (sb_memory.c divides by 1024 * 1024)
    (_R_MEMXFER, None, (("io_bytes", "total", 1, units.MiB),
                        ("bandwidth", "total", 3, units.MiB)), None),
    (_R_TRX, None, (("ops", "total", 2, 1.0),), None),
    (_R_QUERIES, None, (("ops", "total", 2, 1.0),), "oltp_queries"),
)

# report-interval lines: (pattern of the text after "[ Ns ]", ((metric, op, group, scale, test),
# ...)); metric as in _RESULT_LINES, test None for the run's own test; an output whose group is
# empty is skipped
_INTERVAL_LINES = (
    (_I_FILE, (("bandwidth", "read", 1, units.MiB, None), ("bandwidth", "write", 3, units.MiB, None),
               ("iops", "sync", 4, 1.0, None), (5, "total", 6, units.MS, None),
               (9, "total", 7, units.MS, None), (9, "total", 8, units.US, None))),
    (_I_EPS, (("ops", "total", 2, 1.0, None), (3, "total", 4, units.MS, None))),
    (_I_OLTP10, (("ops", "total", 2, 1.0, "oltp"), ("ops", "total", 3, 1.0, "oltp_queries"),
                 (4, "total", 5, units.MS, "oltp"))),
    (_I_OLTP05, (("ops", "total", 2, 1.0, "oltp"), (7, "total", 5, units.MS, "oltp"),
                 (7, "total", 6, units.US, "oltp"))),
    (_I_MEM, (("bandwidth", "total", 1, units.MiB, None),)),
)
# each row's outputs with the unit of their metric appended (a percentile's is seconds)
_INTERVAL_OUTPUTS = tuple(
    tuple((*out, _SERIES_UNIT.get(out[0], "s") if isinstance(out[0], str) else "s")
          for out in outputs) for _, outputs in _INTERVAL_LINES)

# --- option echoes: (pattern, handler(match) -> (tag, settings)), in the order they are
# tried; every handler of a matching line returns a tag, so the first pattern that matches
# decides. settings: ((in hdr (else extra), key, value, only if absent), ...), applied in order
# by _Reader._echo; a handler depends on the line alone, so a line's outcome is remembered. A
# count or size beyond 64 bits raises ValueError (refused as a bad option line).
def _threads_line(m: re.Match) -> tuple:
    return "threads_n", ((True, "threads", _count(m.group(1)), False),)


def _rate_line(m: re.Match) -> tuple:
    """``Target transaction rate: 1010/sec``: what the run was held to, a workload parameter
    (Percona's rds-serverless runs at 10-3700 a second were 60 repetitions of one setting)."""
    return "rate", ((False, "target_rate", _count(m.group(1)), False),)


def _flags_line(m: re.Match) -> tuple:
    return "fileio", ((False, "extra_flags", _flags(m.group(1)), False),
                      (False, "fsync_freq", 0, True), (False, "fsync_end", "off", True),
                      (False, "fsync_all", "off", True))


def _prepare_files_line(m: re.Match) -> tuple:
    files, each_kib = int(m.group(1)), int(m.group(2))
    return "prepare", ((False, "file_num", _count(files), False),
                       (False, "file_total_size", _count(files * each_kib * units.KiB), False))


def _doing_line(m: re.Match) -> tuple:
    what = m.group(1)
    if what in _MODE_BY_TEXT:
        return "mode", ((True, "mode", _MODE_BY_TEXT[what], False),)
    low = what.lower()
    for tag, word in (("cpu", "cpu"), ("memory", "memory"), ("threads", "thread"),
                      ("mutex", "mutex"), ("oltp", "oltp")):
        if word in low:
            return tag, ()
    return "other", ()


def _echo_line(pattern: re.Pattern, where: str, key: str, conv, tag: str):
    """The handler of an option echo that sets one header value (see :data:`_FILEIO_ECHO`):
    its first group, or the whole line when the pattern has none."""
    def handle(m: re.Match) -> tuple:
        return tag, ((where == "hdr", key, conv(m.group(1) if pattern.groups
                                                else m.string), False),)
    return handle


def _tag_line(tag: str):
    """The handler of a line that only names the test."""
    return lambda m: (tag, ())


def _prefix(text: str) -> re.Pattern:
    return re.compile(re.escape(text))


def _echoes(table) -> list:
    return [(pattern, _echo_line(pattern, where, key, conv, tag))
            for pattern, where, key, conv, tag in table]


_HEADER_CHECKS = [
    (_H_THREADS, _threads_line), (_H_RATE, _rate_line), (_H_FLAGS, _flags_line),
    (_H_PREPARE_FILES, _prepare_files_line), *_echoes(_FILEIO_ECHO), (_H_DOING, _doing_line),
    (_prefix("Doing CPU performance benchmark"), _tag_line("cpu")), *_echoes(_CPU_ECHO),
    *((_prefix(x), _tag_line("memory"))
      for x in ("Running memory speed test", "Memory transfer size", "total size:")),
    *_echoes(_MEMORY_ECHO), (_prefix("Thread yields per test"), _tag_line("threads")),
]

_SKIP_PREFIXES = ("DEBUG:", "(last message repeated")
# lines that say what kind of report this is without echoing an option
_KIND_LINES = frozenset(("Creating files for the test...", "Removing test files..."))
_PROGRESS_LINES = frozenset((
    "Threads started!", "Initializing worker threads...", "Done.",
    "Time limit exceeded, exiting...", "Event limit exceeded, exiting..."))


# ---------------------------------------------------------------- line classification
# Every (stripped) line of a run is classified by the branches below, tried in turn (only those
# that can start with its first character, see _classifier): the first branch that matches
# decides, as the former chain of checks did. (kind, row of the kind's table or None, pattern):
def _exactly(lines) -> re.Pattern:
    """A pattern matching exactly one of ``lines`` (the whole stripped line)."""
    return re.compile("(?:" + "|".join(map(re.escape, sorted(lines))) + r")\Z")


_T_PREFIX = rf"\[\s*({_NUM})s\s*\]\s*"  # "[ 5s ] ": the interval's second, then its values
_BRANCHES = (
    *(("interval", k, re.compile(_T_PREFIX + p.pattern.removeprefix("^"), p.flags))
      for k, (p, _) in enumerate(_INTERVAL_LINES)),
    ("interval", None, _T_RE),  # any other "[ Ns ] ..." line: noted
    ("skip", None, re.compile("|".join(map(re.escape, _SKIP_PREFIXES)))),
    ("warning", None, re.compile("WARNING:")),
    ("histogram", None, re.compile("Latency histogram")),
    ("progress", None, _exactly(_PROGRESS_LINES)),
    ("heading", None, _exactly(_HEADINGS)),
    *(("option", k, p) for k, (p, _) in enumerate(_HEADER_CHECKS)),
    ("kind", None, _exactly(_KIND_LINES)),
    *(("result", k, row[0]) for k, row in enumerate(_RESULT_LINES)),
)


_DIGIT = "digit"  # in a set of first characters: any decimal digit (what \d matches)
_NON_ASCII = "non-ascii"  # any non-ASCII character (case-insensitive letters may fold to one)


def _first_chars(pattern: re.Pattern) -> frozenset[str] | None:
    """The characters a match of ``pattern`` can start with (:data:`_DIGIT`: any decimal digit,
    :data:`_NON_ASCII`: any non-ASCII character), or ``None`` when any can or the pattern is
    beyond this small analysis (a negated or other class, a part that may match nothing). Used
    only to leave out the branches that cannot match a line, so it may say ``None`` or too many
    characters, but never too few."""
    try:
        from re import _constants as c
        from re import _parser
    except ImportError:  # pragma: no cover - another Python's internals: no shortcut
        return None

    def literal(x: int, flags: int) -> frozenset[str]:
        ch = chr(x)
        if not flags & re.I:
            return frozenset(ch)
        if not ch.isascii():
            return frozenset((ch, _NON_ASCII, *ch.lower(), *ch.upper()))
        # ignoring case, an ASCII character matches its ASCII cases and, at most, non-ASCII
        # characters that fold to it (KELVIN SIGN for k, LONG S for s, ...)
        return frozenset((ch.lower(), ch.upper(), _NON_ASCII))

    def chars(av, flags: int) -> frozenset[str] | None:  # the items of a class [...]
        out: set[str] = set()
        for o, x in av:
            if o is c.LITERAL:
                out |= literal(x, flags)
            elif o is c.CATEGORY and x is c.CATEGORY_DIGIT:
                out.add(_DIGIT)
            else:
                return None
        return frozenset(out)

    def first(items, flags: int) -> frozenset[str] | None:
        seen: frozenset[str] = frozenset()  # of optional items before this one
        for op, av in items:
            if op is c.AT and av in (c.AT_BEGINNING, c.AT_BEGINNING_STRING):
                continue  # zero-width "^": the next item consumes the first character
            if op is c.LITERAL:
                got = literal(av, flags)
            elif op is c.IN:
                got = chars(av, flags)
            elif op is c.SUBPATTERN:  # (group, add flags, del flags, items)
                got = first(av[3], (flags | av[1]) & ~av[2])
            elif op is c.BRANCH:
                alts = [first(alt, flags) for alt in av[1]]
                got = None if None in alts else frozenset().union(*alts)
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):  # (min, max, items)
                got = first(av[2], flags)
                if got is not None and av[0] == 0:  # optional: or what follows starts it
                    seen |= got
                    continue
            else:
                got = None
            return None if got is None else seen | got
        return None  # the pattern may match nothing

    try:
        return first(_parser.parse(pattern.pattern, pattern.flags), pattern.flags)
    except Exception:  # pragma: no cover - internals changed: no shortcut
        return None


@functools.cache
def _firsts() -> tuple[frozenset[str] | None, ...]:
    """:func:`_first_chars` of each of :data:`_BRANCHES` (the rule :data:`_STARTS` keeps)."""
    return tuple(_first_chars(p) for _, _, p in _BRANCHES)


def _may_start(chars: str = "", *, digit: bool = False, non_ascii: bool = False) -> frozenset:
    """A set of first characters (see :func:`_first_chars`)."""
    return frozenset((*chars, *(_DIGIT,) * digit, *(_NON_ASCII,) * non_ascii))


# :func:`_firsts`, written out: the analysis parses every pattern (~4 ms, and a first read
# should not pay it); tests/test_sysbench_fast.py checks that the two agree
_STARTS: tuple[frozenset[str] | None, ...] = (
    *(_may_start("[") for _ in range(len(_INTERVAL_LINES) + 1)),  # intervals
    _may_start("(D"), _may_start("W"), _may_start("L"), _may_start("DEIT"),  # skip ... progress
    _may_start("CFGLOSTpqr"),  # headings
    # option echoes
    _may_start("N"), _may_start("T"), _may_start("E"), _may_start(digit=True),
    _may_start(digit=True), None,
    _may_start("Bb", non_ascii=True), _may_start("R"), _may_start("P"), _may_start("C"),
    _may_start("C"), _may_start("U"), _may_start("D"), _may_start("D"), _may_start("MP"),
    _may_start("R"), _may_start("M"), _may_start("t"), _may_start("Mb"), _may_start("Mo"),
    _may_start("Ms"), _may_start("T"),
    _may_start("CR"),  # kind
    # results
    _may_start(digit=True), _may_start("am"), _may_start("a"), _may_start(digit=True),
    _may_start("p"), _may_start("frw"), _may_start("rw"), _may_start("frw"),
    _may_start("Oo", non_ascii=True), _may_start("R"), _may_start("+-", digit=True),
    _may_start("t"), _may_start("t"), _may_start("e"), _may_start("T"), _may_start("O"),
    _may_start("+-", digit=True), _may_start("t"), _may_start("qr"),
)

# first character -> the branches a line starting with it can match, (((kind, row), match), ...)
# in the order of _BRANCHES; filled on first use
_CLASSIFIERS: dict[str, tuple] = {}
# stripped line -> (kind, row, match) of the lines without figures already classified:
# the option echoes, headings, progress and other lines that most outputs share (at most
# _SEEN_MAX, emptied by the parse that finds it full)
_SEEN: dict[str, tuple] = {}
# kinds not remembered: lines with figures (they differ from file to file), and option echoes
# (remembered with their outcome, as kind "echo", by _Reader._option_line)
_NOT_REMEMBERED = frozenset(("result", "interval", "option"))
_SEEN_MAX = 4096


def _classify(s: str) -> tuple:
    """``(kind, row, match)`` of a stripped, non-empty line not in :data:`_SEEN` (each of the
    branches its first character allows tried in turn; ``(None, None, None)`` for a line of
    no kind), remembered there unless its kind is one of :data:`_NOT_REMEMBERED`."""
    for branch, match in _CLASSIFIERS.get(s[0]) or _classifier(s[0]):
        m = match(s)
        if m is not None:
            got = (*branch, m)
            break
    else:
        got = (None, None, None)
    if got[0] not in _NOT_REMEMBERED and len(_SEEN) < _SEEN_MAX:
        _SEEN[s] = got
    return got


def _classifier(first: str) -> tuple:
    """``(((kind, row), match), ...)``: the branches of :data:`_BRANCHES` a line starting with
    ``first`` can match, in order (kept for ASCII characters). Each is tried on its own: the
    first that matches decides, as in :data:`_BRANCHES`; no pattern is compiled for it (a
    compile of the alternation of a character's branches cost 0.2-6 ms)."""
    digit, other = first.isdecimal(), not first.isascii()
    got = tuple(((kind, row), p.match) for (kind, row, p), f in zip(_BRANCHES, _STARTS,
                                                                     strict=True)
                if f is None or first in f or (digit and _DIGIT in f)
                or (other and _NON_ASCII in f))
    if first.isascii():
        _CLASSIFIERS[first] = got
    return got


def _lead_line(line: str) -> bool:
    """A line before a banner that belongs to it: blank, WARNING or PARAMS."""
    return not line.strip() or line.startswith("WARNING:") or bool(_PARAMS_RE.match(line.strip()))


def _later_row(s: str, row: int, section: str | None) -> tuple[int, re.Match | None]:
    """``(row, match)`` of the first row of :data:`_RESULT_LINES` after ``row`` that counts
    in ``section`` and matches ``s`` (the rows before ``row`` do not match), each tried on its
    own; ``(row, None)`` if none (rare: a latency line outside its section)."""
    for later in range(row + 1, len(_RESULT_LINES)):
        pattern, where, _, _ = _RESULT_LINES[later]
        if (where is None or section == where) and (m := pattern.match(s)) is not None:
            return later, m
    return row, None


@functools.cache
def _needed(family: str, fileio: bool) -> tuple[tuple[str, str, str], ...]:
    """The (metric, op, label) a completed run report of ``family`` has (``fileio``: of a
    fileio test)."""
    need: list[tuple[str, str, str]] = []
    if fileio:
        if family == "1.0":
            need += [("iops", "read", "reads/s:"), ("iops", "write", "writes/s:"),
                     ("iops", "sync", "fsyncs/s:"), ("bandwidth", "read", "read, MiB/s:"),
                     ("bandwidth", "write", "written, MiB/s:")]
        elif family == "1.1":
            need += [("iops", "read", "read:  IOPS="), ("iops", "write", "write: IOPS="),
                     ("iops", "sync", "fsync: IOPS=")]
        else:
            need += [("total_ios", "read", "Operations performed:"),
                     ("bandwidth", "total", "Total transferred"),
                     ("iops", "total", "Requests/sec executed")]
    if not (fileio and family == "1.1"):
        need += [("runtime", "total", "total time:"),
                 ("events", "total", "total number of events:")]
    need += [("lat_min", "total", "min:"), ("lat_mean", "total", "avg:"),
             ("lat_max", "total", "max:")]
    return tuple(need)


class _RunCut(Exception):
    """A run of the file whose output ends before its report (its banner and options, then
    nothing, or the next run's banner): sysbench killed or timed out; ``error`` says where.
    Among runs appended to one file (a shell loop) it is left out, named in
    :attr:`Parsed.partial`, and the file's other runs are kept; a file of that run alone is
    refused with ``error``."""

    def __init__(self, error: ParseError):
        super().__init__(str(error))
        self.error = error


class _RunState:
    """What the lines of one run have said so far."""

    __slots__ = ("family", "hdr", "extra", "test", "res", "tests_of", "series_rows", "section",
                 "kind", "started", "src", "series_src")

    def __init__(self, family: str, recording: bool = False):
        self.family = family
        self.hdr: dict = {}
        self.extra: dict = {"format": family}
        self.test: str | None = None
        self.res: list[tuple[str, str, float, int]] = []  # (metric, op, value, line idx)
        self.tests_of: dict[int, str] = {}  # result index -> test override (oltp queries)
        self.series_rows: list[tuple] = []  # report-interval rows (see _Reader._series)
        self.section: str | None = None
        self.kind: str | None = None  # "run", "prepare", "cleanup"
        self.started = False
        # when a plan is recorded (see _Recording): where each value of res / series_rows
        # came from, (line idx, (start, end) in the stripped line, factor) or None
        self.src: list | None = [] if recording else None
        self.series_src: list | None = [] if recording else None

    def heading(self, section: str) -> None:
        self.section = section
        if section in _RESULT_SECTIONS:
            self.kind = "run"
        if section == "sql":
            self.test = "oltp"
        if section == "cpu":
            self.test = self.test or "cpu"


def _name_meta(source: str) -> dict:
    """Seed 001's PARAMS in a file name (``sysbench-size-16G-mode-rndrd-threads-16``), or {}."""
    m = _NAME_RE.search(os.path.basename(source))
    if not m:
        return {}
    return {"size": m["size"], "mode": m["mode"], "threads": int(m["threads"]), "line": None}


def _hint_test(source: str) -> str | None:
    base = os.path.basename(source).lower()
    m = re.search(r"(?:^|[_\-.])(mutex|threads|cpu|memory)(?:[_\-.]|$)", base)
    if m and not _NAME_RE.search(base):
        return m.group(1)
    return None


class _Reader:
    def __init__(self, text: str, source: str, options: Mapping):
        self.text = text
        self.source = source
        self.lines = text.splitlines()
        self.options = dict(options)
        self.notes: list[str] = []
        self.wrapped: set[tuple[str, str, int]] = set()  # latencies left out (_wrapped): metric,
        # op, line
        self.rec: _Recording | None = None  # set to record a plan (see _Plan)
        self.orphans: list[ParseError] = []  # reports without a banner, left out (_orphans)

    def err(self, idx: int, expected: str, found: str | None = None) -> ParseError:
        return ParseError(self.source, idx + 1, expected, found=found)

    # -- file level
    def run(self) -> Parsed:
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        fatal = self._fatal()
        try:
            runs = self._runs()
        except ParseError:
            if fatal:  # (no banner: sysbench's own message says more)
                raise fatal[0][1] from None
            raise
        if fatal:
            fatal = self._fatal_runs(fatal, runs)
        parsed = Parsed(tool=TOOL, format="", version=runs[0].version)
        seen: dict[tuple, int] = {}
        families = []
        rows: list[tuple] = []
        per_run: list[tuple[int, dict]] = []
        cut: list[ParseError] = []
        for r in runs:
            k = len(rows)
            if r.banner in fatal:  # a run sysbench gave up (FATAL): left out, the rest kept
                cut.append(fatal[r.banner])
                self.rec = None
                continue
            try:
                shared, series, family, key = self._run(r, rows)
            except _RunCut as exc:  # a run stopped before its report (killed, timed out)
                if len(runs) == 1:
                    raise exc.error from None
                del rows[k:]
                cut.append(exc.error)
                self.rec = None  # (no plan of a layout read with a run left out)
                continue
            families.append(family)
            rep = seen.get(key, 0)
            seen[key] = rep + 1
            per_run.append((len(rows) - k, {**shared, "repetition": rep}))
            if series is not None:
                parsed.series.append(series)
        if len(cut) == len(runs):
            raise cut[0]  # (no run of the file reached its report)
        if self.wrapped:
            self.rec = None  # (no plan of a layout read with a latency left out)
        if self.orphans:
            cut = sorted(cut + self.orphans, key=_line_number)
            self.rec = None  # (no plan of a layout read with a report left out)
        parsed.partial = cut
        parsed.columns = run_columns({"source": self.source, "tool": TOOL}, _ROW_COLUMNS, rows,
                                     per_run)
        parsed.format = "sysbench " + "+".join(dict.fromkeys(f for f in families if f))
        parsed.notes = self.notes
        if not rows:
            parsed.why_empty = self._why_empty()
        return parsed

    def _fatal(self) -> list[tuple[int, ParseError]]:
        """The FATAL/ALERT/``invalid option`` lines, each with the error that quotes it (and
        sysbench's hint after it)."""
        lines, text = self.lines, self.text
        if not ("FATAL:" in text or "ALERT:" in text or "invalid option" in text):
            return []  # no line can match (one substring search each, not a regex per line)
        out = []
        for i, line in enumerate(lines):
            if _FATAL_RE.match(line.strip()):
                if _MAX_TIME_RE.match(line.strip()):  # its report follows: a completed run
                    self.notes.append(f"line {i + 1}: {line.strip()} (sysbench 0.5 stops the "
                                      "threads still running at --max-time; the report after "
                                      "it is read)")
                    continue
                hint = next((f" (sysbench adds: {nxt[8:].strip()})" for nxt in lines[i + 1:i + 3]
                             if nxt.startswith("WARNING:")), "")
                out.append((i, self.err(i, f"a completed sysbench run{hint}",
                                        found=line.strip())))
        return out

    @staticmethod
    def _fatal_runs(fatal: list[tuple[int, ParseError]], runs: list[_Run]
                    ) -> dict[int, ParseError]:
        """The runs a FATAL line ends (banner line -> its first such error). A file of one run,
        or with such a line outside every run, is refused with the first."""
        out: dict[int, ParseError] = {}
        for i, err in fatal:
            run = next((r for r in runs if r.banner <= i < r.end), None)
            if run is None or len(runs) == 1:
                raise err
            out.setdefault(run.banner, err)
        return out

    def _runs(self) -> list[_Run]:
        """One :class:`_Run` per banner, with the PARAMS line that precedes it."""
        lines = self.lines
        banners = []
        left = self.text.count("sysbench ")  # no line separator in it: within one line each
        for i, line in enumerate(lines):
            if left <= 0:  # no banner after the last "sysbench " (often: the first line)
                break
            if "sysbench " in line:
                left -= line.count("sysbench ")
                if m := _BANNER_RE.match(line.strip()):
                    banners.append((i, m))
        if not banners:
            first = next((i for i, s in enumerate(lines) if s.strip()), 0)
            raise self.err(first, "a sysbench banner such as 'sysbench 1.0.20 (using ...)'",
                           found=lines[first] if lines else "an empty file")
        name_meta = _name_meta(self.source)
        runs: list[_Run] = []
        params: dict = {}
        for b, m in banners:
            # the lines before this banner that belong to it: WARNING/PARAMS/blank
            start = runs[-1].end if runs else 0
            lead = b
            while lead > start and _lead_line(lines[lead - 1]):
                lead -= 1
            if runs:
                runs[-1].end = lead
            params = self._before_banner(start if not runs else lead, b, params)
            runs.append(_Run(b, len(lines), m["version"], int(m["major"]), int(m["minor"]),
                             params=dict(params) or dict(name_meta)))
            if not params and self.rec is not None:
                self.rec.uses_name = True  # (what the file name says, or that it says nothing)
        if self.text.count(_RUNNING) > len(runs):
            self._orphans(runs)
        return runs

    def _orphans(self, runs: list[_Run]) -> None:
        """End each run before a second report that has no banner of its own (a run pasted
        after another with its ``sysbench 1.1.0 (...)`` line cut: caprice-j/e6118 lost its
        first letter, ``ysbench 1.1.0-4e0e44c``): its results were read as the first run's, two
        values of each metric under one run id. Such a report is left out, listed as
        :attr:`Parsed.partial` with its line and the line before it (the sysbench version is
        not guessed)."""
        lines = self.lines
        for r in runs:
            starts = [i for i in range(r.banner + 1, r.end) if lines[i].strip() == _RUNNING]
            for k in starts[1:]:
                before = next((lines[j].strip() for j in range(k - 1, r.banner, -1)
                               if lines[j].strip()), "")
                self.orphans.append(self.err(
                    k, "a sysbench banner line ('sysbench 1.0.20 (using ...)') before a "
                    "report's 'Running the test with following options:' (a second report in "
                    "one run: left out, the run kept)", found=before[:80] or "a blank line"))
            if len(starts) > 1:
                r.end = starts[1]

    def _before_banner(self, start: int, banner: int, params: dict) -> dict:
        """The PARAMS of the lines before a banner (else ``params``); notes for the rest."""
        for j in range(start, banner):
            s = self.lines[j].strip()
            pm = _PARAMS_RE.match(s)
            if pm and len(pm["threads"]) > 18:
                raise self.err(j, "a thread count", found=s)
            if pm:
                params = {"size": pm["size"], "mode": pm["mode"],
                          "threads": int(pm["threads"]), "line": j}
            elif s.startswith("WARNING:"):
                self.notes.append(f"line {j + 1}: {s}")
            elif s:
                self.notes.append(f"line {j + 1}: ignored before the banner: {s[:80]}")
        return params

    def _why_empty(self) -> str:
        """Why a recognised sysbench output gave no rows (said, never silent)."""
        text = "\n".join(self.lines)
        if "Removing test files" in text:
            return "a sysbench cleanup report: it removes the test files and measures nothing"
        if "Creating files for the test" in text:
            return ("a sysbench prepare report without its 'N bytes written in S seconds "
                    "(R MiB/sec)' line: no first-write rate to read")
        return "a sysbench report whose runs print no result lines"

    # -- one run
    def _run(self, r: _Run, rows: list[tuple]):
        """Read a run's lines (each classified by one match, see :data:`_BRANCHES`); its
        :meth:`_finish`."""
        lines = self.lines
        st = _RunState(self._run_family(r), self.rec is not None)
        free = self.rec.free_lines if self.rec is not None else None  # lines of no kind
        in_hist = False  # in a latency histogram: its lines, to the blank line after it
        last_known, unknown = r.banner, []  # (the lines of no kind after the last known one
        # are a script's own between two runs: noted, as those before the first banner are)
        for i, s in enumerate(map(str.strip, lines[r.banner + 1:r.end]), r.banner + 1):
            if in_hist:
                in_hist = bool(s)
                if free is not None:
                    free.append(i)
                continue
            if not s:
                continue
            kind, row, m = _SEEN.get(s) or _classify(s)  # (a line read before: an option
            # echo, a heading, ...)
            if kind is None:
                unknown.append(i)
            else:
                last_known = i
            if kind == "result":
                self._result(st, s, i, m, row)
            elif kind == "interval":
                self._interval(st, i, m, row)
            elif kind == "echo":  # an option echo read before: m is its outcome
                self._echo(st, s, m)
            elif kind == "option":
                self._option_line(st, s, i, m, row)
            elif kind == "histogram":
                in_hist = True
            elif kind is not None:
                self._plain_line(st, s, i, kind)
            elif free is not None:  # a line of no kind, ignored
                free.append(i)
        if r.end < len(lines) and unknown and unknown[-1] > last_known:
            # (sysbench's own lines of no kind are indented: "    events (avg/stddev): …")
            self._between_runs([i for i in unknown if i > last_known
                                and not lines[i][:1].isspace()])
        return self._finish(r, st, rows)

    def _between_runs(self, idx: list[int]) -> None:
        """Note the lines of no kind after a run's report, before the next run's banner (a
        script's separators: ``######----- <date> -----######``, ``Thread = 4``), as the lines
        before the first banner are; a plan keeps them as printed (the note quotes them)."""
        if not idx:
            return
        for i in idx[:_BETWEEN_NOTED]:
            self.notes.append(f"line {i + 1}: ignored between runs: {self.lines[i].strip()[:80]}")
        if len(idx) > _BETWEEN_NOTED:
            self.notes.append(f"lines {idx[_BETWEEN_NOTED] + 1}-{idx[-1] + 1}: "
                              f"{len(idx) - _BETWEEN_NOTED} more ignored between runs")
        if self.rec is not None:
            self.rec.keep_as_printed(idx)

    def _run_family(self, r: _Run) -> str:
        """The family of run ``r`` (:func:`_family` of its lines, joined only if needed)."""
        lines, text = self.lines, self.text
        if (r.banner or r.end < len(lines)) and ("IOPS=" in text
                                                 or "Test execution summary:" in text):
            text = "\n".join(lines[r.banner:r.end])  # what _family looks for: in this run?
        return _family(r.major, r.minor, text)

    def _plain_line(self, st: _RunState, s: str, i: int, kind: str) -> None:
        """A heading, a prepare/cleanup line, a WARNING or a progress line (``kind``); a
        ``"skip"`` line (DEBUG, repeated message) says nothing."""
        if kind == "heading":
            st.heading(_HEADINGS[s])
        elif kind == "kind":
            self._run_kind(st, s, None)
        elif kind == "warning":
            self.notes.append(f"line {i + 1}: {s}")
        elif kind == "progress":
            st.started = st.started or s == "Threads started!"

    def _interval(self, st: _RunState, i: int, m: re.Match, row: int | None) -> None:
        """A report-interval line: its rows by row ``row`` of :data:`_INTERVAL_LINES` (``m``:
        the second, then the row's groups); a line of no row is noted."""
        group = m.group
        try:
            t = number(group(1), self.source, i + 1, "time",
                       context="a report-interval line", found=self.lines[i])
            if row is None:
                body = group(2)
                if not (body.startswith("queue length:") or body.startswith("Checkpoint report")):
                    self.notes.append(f"line {i + 1}: report line not understood: {body[:80]}")
                return
            src = st.series_src
            t_src = (i, m.span(1), 1.0) if src is not None else None
            append = st.series_rows.append
            for metric, op, g, scale, test, unit in _INTERVAL_OUTPUTS[row]:
                text = group(1 + g)  # (after the second's group)
                if text is None:  # 0.5 prints "response time", 1.0 "latency"
                    continue
                if type(metric) is int:
                    metric = _percentile("lat", group(1 + metric))
                append((t, metric, op, number(text, self.source, i + 1, metric, scale=scale,
                                              context="a report-interval line",
                                              found=self.lines[i]), unit, test))
                if src is not None:
                    src.append((t_src, (i, m.span(1 + g), scale)))
        except ParseError:
            raise
        except (ValueError, OverflowError) as exc:
            raise self.err(i, f"a report-interval line ({exc})", found=self.lines[i]) from exc

    def _option_line(self, st: _RunState, s: str, i: int, m: re.Match, row: int) -> None:
        """An option echo (threads, block size, test mode, …): row ``row`` of
        :data:`_HEADER_CHECKS`, matched as ``m``. Its outcome is
        remembered (kind ``"echo"``) for the next time the same line is read."""
        try:
            outcome = _HEADER_CHECKS[row][1](m)
        except (ValueError, OverflowError) as exc:
            raise self.err(i, "a sysbench option line", found=self.lines[i]) from exc
        if len(_SEEN) < _SEEN_MAX:
            _SEEN[s] = ("echo", None, outcome)
        self._echo(st, s, outcome)

    def _echo(self, st: _RunState, s: str, outcome: tuple) -> None:
        """Apply an option echo's outcome ``(tag, settings)`` (see :data:`_HEADER_CHECKS`)."""
        tag, settings = outcome
        for in_hdr, key, value, only_if_absent in settings:
            target = st.hdr if in_hdr else st.extra
            if only_if_absent:
                target.setdefault(key, value)
            else:
                target[key] = value
        self._run_kind(st, s, tag)

    @staticmethod
    def _run_kind(st: _RunState, s: str, handled: str | None) -> None:
        """What an option echo (its handler's tag ``handled``) or a prepare/cleanup line says
        about the run."""
        if handled == "mode":
            st.test = st.hdr["mode"]
        elif handled in ("cpu", "memory", "threads", "mutex", "oltp"):
            st.test = st.test or handled
        elif handled == "prepare" or s == "Creating files for the test...":
            st.kind = st.kind or "prepare"
        elif s == "Removing test files...":
            st.kind = st.kind or "cleanup"

    def _wrapped(self, i: int, metric: str) -> None:
        """A latency of 2^63 ns or more: sysbench 0.4 counted a negative time (a clock step)
        as an unsigned one (``WARNING: Operation time (18446744073688156160.000000) is greater
        than maximal counted value``) and printed it as the maximum. Left out, and said; no plan
        is made of the file's read."""
        self.notes.append(f"line {i + 1}: {metric} {self.lines[i].split(':', 1)[-1].strip()} "
                          "is sysbench's wrapped negative time (2^64 ns minus a little), not a "
                          "latency: left out")
        self.wrapped.add((metric, "total", i))  # (there, for the run's completeness check)

    def _result(self, st: _RunState, s: str, i: int, m: re.Match, row: int) -> None:
        """A result line: row ``row`` of :data:`_RESULT_LINES` (the first that matches ``s``,
        its match ``m``) if the line is in the row's section, else the first
        row after it that counts there and matches."""
        where = _RESULT_LINES[row][1]
        if where is not None and st.section != where:
            row, m = _later_row(s, row, st.section)
            if m is None:
                return
        _, _, outputs, tag = _RESULT_LINES[row]
        if tag == "percentile off":
            st.extra["percentile"] = "disabled"
            return
        res = st.res
        try:
            for metric, op, group, scale in outputs:
                text = m.group(group)
                if text is None:  # 1.1's optional "MiB/s" after IOPS=
                    continue
                if type(metric) is not str:
                    metric = _pick(metric, m)
                value = scale(text, m) if callable(scale) else float(text) * scale
                if value >= _WRAPPED_S and metric.startswith("lat_"):
                    self._wrapped(i, metric)
                    continue
                res.append((metric, op if type(op) is str else _pick(op, m),
                            number(value, self.source, i + 1, metric,
                                   context="a sysbench result line", found=self.lines[i]), i))
                if st.src is not None:  # a callable scale is a factor too (checked by _Plan)
                    st.src.append((i, m.span(group),
                                   scale("1", m) if callable(scale) else scale))
        except ParseError:
            raise
        except (ValueError, OverflowError) as exc:
            raise self.err(i, f"a sysbench result line ({exc})", found=self.lines[i]) from exc
        if tag == "oltp_queries":
            st.tests_of[len(res) - 1] = tag
        if tag == "prepare":
            st.kind = "prepare"
        elif res and res[-1][3] == i and st.kind != "prepare":
            st.kind = "run"

    def _finish(self, r: _Run, st: _RunState, rows: list[tuple]):
        """The values the rows of a run whose lines were read share (its rows appended to
        ``rows``), its series, family and repetition key."""
        lines = self.lines
        if st.kind is None:
            last = r.end - 1
            while last > r.banner and not lines[last].strip():
                last -= 1
            what = "the results ('General statistics:' or 'File operations:')" if st.started \
                else "a sysbench run, prepare or cleanup report"
            raise _RunCut(self.err(last, f"{what}; the output ends early",
                                   found=lines[last].strip()))
        if st.kind == "cleanup":
            return {}, None, st.family, ("cleanup",)
        test = "prepare" if st.kind == "prepare" else st.test
        checked = test  # what the output itself shows decides which blocks must be there
        test = self._test_name(r, test)
        hdr, extra = st.hdr, st.extra
        self._apply_params(r, hdr, extra, test)
        if st.kind == "run":
            self._check(r, st.family, checked, st.res)
        shared = self._rows(r, test, hdr, extra, st, rows)
        series = self._series(r, test, hdr, st.series_rows, st.series_src)
        key = (st.kind, test, tuple(sorted(hdr.items())), tuple(sorted(
            (k, v) for k, v in extra.items())))
        return shared, series, st.family, key

    def _test_name(self, r: _Run, test: str | None) -> str:
        """From the output, else PARAMS/file name, else options, else a name hint."""
        if test is None and r.params.get("mode") in MODES:
            test = r.params["mode"]
        if test is None:
            if self.rec is not None:
                self.rec.uses_hint = True
            test = self.options.get("test") or _hint_test(self.source) or "generic"
            if test == "generic":
                self.notes.append(f"line {r.banner + 1}: sysbench {r.version} does not print "
                                  "which test ran (threads and mutex look alike); test='generic'"
                                  " (pass test=... to name it)")
        return test

    def _apply_params(self, r: _Run, hdr: dict, extra: dict, test: str) -> None:
        p = r.params
        if not p:
            return
        where = f"line {p['line'] + 1}" if p.get("line") is not None else "the file name"
        if "file_total_size" not in extra:
            try:
                extra["file_total_size"] = int(units.binary_size(p["size"]))
            except ValueError:
                self.notes.append(f"{where}: size {p['size']!r} not understood")
        if "threads" not in hdr:
            hdr["threads"] = p["threads"]
        elif hdr["threads"] != p["threads"]:
            self.notes.append(f"{where}: PARAMS says {p['threads']} threads, the output "
                              f"{hdr['threads']}; the output wins")
        if "mode" in hdr and hdr["mode"] != p["mode"] and test != "prepare":
            self.notes.append(f"{where}: PARAMS says mode {p['mode']}, the output "
                              f"{hdr['mode']}; the output wins")
        hdr.setdefault("mode", p["mode"])

    def _check(self, r: _Run, family: str, test: str, res: list) -> None:
        have = {(m, op) for m, op, _, _ in res}
        have |= {(m, op) for m, op, i in self.wrapped if r.banner <= i < r.end}
        for metric, op, label in _needed(family, test in MODES):
            if (metric, op) not in have:
                last = r.end - 1
                while last > r.banner and not self.lines[last].strip():
                    last -= 1
                raise self.err(last, f"{label!r} in the sysbench {family} {test} report "
                               "(the output is incomplete)", found=self.lines[last].strip())

    def _rows(self, r, test, hdr, extra, st: _RunState, rows: list[tuple]) -> dict:
        """Append the run's rows (:data:`_ROW_COLUMNS`) to ``rows``; the values they share."""
        res, tests_of, src = st.res, st.tests_of, st.src
        mode = hdr.get("mode")
        mix = None
        if test == "prepare":
            workload = "seqwrite"
        elif test in MODES:
            workload = MODES[test][1]
        elif test == "oltp":
            mix = self._sql_mix(r)
            workload = "mixed" if mix is None or mix.startswith("read/write") else "other"
        else:
            workload = "other"
        allowed = _MODE_OPS.get(test)
        shared = {"run_key": f"line {r.banner + 1}", "tool_version": r.version,
                  "timestamp": None, "block_size": hdr.get("block_size"),
                  "threads": hdr.get("threads"), "workload": workload}
        if test == "prepare":
            shared["block_size"] = None
        extras = dict(extra)
        if test not in MODES:  # prepare echoes the flags but not the fsync settings
            for k in ("fsync_freq", "fsync_end", "fsync_all"):
                extras.pop(k, None)
        if test == "prepare" and mode:
            extras["mode"] = mode
        if test == "oltp" and mix is not None:
            extras["sql_mix"] = mix
        rec = self.rec if src is not None else None
        for k, (metric, op, value, i) in enumerate(res):
            if allowed and op in ("read", "write", "sync") and op not in allowed:
                if rec is not None:  # the 0 that drops the row is kept as printed
                    rec.pinned.add(src[k][:2])
                if value == 0:
                    continue
            rows.append((f"line {i + 1}", tests_of.get(k, test), op, metric, value))
            if rec is not None:
                rec.row_src.append(src[k])
        return {**shared, **extras}

    def _sql_mix(self, r: _Run) -> str | None:
        """What an OLTP run's queries were, from its ``queries performed:`` counts and its
        transactions: ``"read-only, 16 queries a transaction"`` (``write: 0``:
        oltp_read_only; oltp_point_select's is 1), ``"write-only, …"`` (``read: 0``:
        oltp_write_only, oltp_insert), ``"read/write, 20 queries a transaction"``
        (oltp_read_write's defaults); None without the counts. sysbench prints no script name:
        without this the scripts at one thread count were repetitions of one workload.

        >>> rd = _Reader("sysbench 1.0.20 (using bundled LuaJIT 2.1.0-beta2)\\n"
        ...     "SQL statistics:\\n    queries performed:\\n        read: 140\\n"
        ...     "        write: 0\\n        other: 20\\n        total: 160\\n"
        ...     "    transactions: 10 (1.00 per sec.)\\n", "x", {})
        >>> rd._sql_mix(_Run(0, 8, "1.0.20", 1, 0))
        'read-only, 16 queries a transaction'
        """
        lines = self.lines
        for i in range(r.banner, r.end):
            if lines[i].strip() == "queries performed:":
                counts = dict(m.groups() for line in lines[i + 1:min(i + 7, r.end)]
                              if (m := _QUERY_COUNT.match(line)))
                if self.rec is not None:  # a plan keeps these counts as printed: a file of
                    # other counts (a mix of its own) is read line by line
                    self.rec.keep_as_printed(range(i + 1, min(i + 7, r.end)))
                if "read" not in counts or "write" not in counts:
                    return None
                reads, writes = int(counts["read"]), int(counts["write"])
                if not reads and not writes:
                    return None
                mix = ("read-only" if not writes else "write-only" if not reads
                       else "read/write")
                total, trx = counts.get("total"), counts.get("transactions")
                if total is None or not trx or not int(trx):
                    return mix
                each = round(Fraction(int(total), int(trx)))  # (exact: a count of 400
                # digits overflowed a float division; half to even, as round() of it)
                return f"{mix}, {each} quer{'y' if each == 1 else 'ies'} a transaction"
        return None

    def _series(self, r: _Run, test: str, hdr: dict, rows: list,
                src: list | None) -> Columns | None:
        if not rows:
            return None
        rid = schema.run_id(self.source, f"line {r.banner + 1}")
        # rows: (t, metric, op, value, unit, test or None); an op the mode does not perform
        # is left out where it is 0
        absent = _ABSENT_OPS.get(test)
        keep = [x for x in rows if not (x[2] in absent and x[3] == 0)] if absent else rows
        if src is not None:
            self.rec.take_series(f"line {r.banner + 1}", rows, src, absent)
        t, metric, op, value, unit, tests = (map(list, zip(*keep, strict=True)) if keep
                                             else ([] for _ in range(6)))
        return Columns({  # no DataFrame per file: typed once, with every file's series
            "run_id": rid, "source": self.source, "test": [x or test for x in tests],
            "op": op, "metric": metric, "t": t, "value": value, "unit": unit,
            "block_size": hdr.get("block_size") if test != "oltp" else None,
        }, len(keep))


# ---------------------------------------------------------------- whole-file plans
# A folder holds many outputs of one layout: the same lines, only the figures differ. After a
# file is read line by line, a file whose text differs from it only in the digits of its
# figures is read by a _Plan: the text is split into its non-digit segments and digit runs,
# the segments must be the first file's, and so must every run but those of a figure a row
# took (a figure then is its runs and the segments between, "12" "." "345": the same form,
# other digits) and those of a line of no kind (a histogram, "sum:", threads fairness). No
# compile: a plan is cheap enough to be made on a layout's first read. The segments are
# compared, and the runs and figures taken, by bytes.translate and bytes.split (_shape,
# _Plan.parts_of; the figures and pinned runs as whole tokens of digits and dots where they
# are: _token_plan), not by a regex split. A plan used _PLAN_COMPILE times is compiled into
# one pattern that tests the same (the first file's text, each varying run "[0-9]++", each
# figure a group), a read ~5 us faster.
# What the line-by-line read did with the first file it does with the second, value for value:
# the lines are classified alike (no pattern of _BRANCHES or _RESULT_LINES tells digits apart:
# no literal digit, no bounded repeat of a digit; tests/test_sysbench_plan.py checks this and
# compares both reads on mutants), and a figure taken anew is the printed number times the
# factor the first read used. Everything else stays as printed: option echoes, banners,
# percentiles, the 0 that drops a row of an op the mode does not perform, lines before a banner.
# non-digit segments and digit runs, alternating; spelt [0-9][0-9]* (what [0-9]+ matches), as
# re then looks for the first character of a run in C (a split 1.7x faster)
_PLAN_SPLIT = re.compile(r"([0-9][0-9]*)").split
_PLAN_VALUE = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")  # unsigned: never negative
_PLAN_DIGITS = b"0123456789"
# an ASCII text's bytes with each digit a space and each whitespace byte a digit (" \t\n\r\v\f"
# -> "012345"; every other byte as it is: one-to-one on non-digits), so that bytes.split()
# (C, no match objects) gives its non-digit segments (:func:`_shape`); and with every byte but
# the digits a space, its digit runs (:meth:`_Plan.parts_of`). ~7 us for what the split
# (_PLAN_SPLIT) does in ~15 on a 1.8 KB report
_SHAPE_MASK = bytes.maketrans(_PLAN_DIGITS + b" \t\n\r\x0b\x0c", b" " * 10 + b"012345")
_RUNS_MASK = bytes(c if c in _PLAN_DIGITS else 32 for c in range(256))
# with every byte but the digits and "." a space: its numbers' tokens ("44.39"; what
# _PLAN_TOKEN finds), the figures and pinned runs of a plan in token mode (see _token_plan)
_TOKENS_MASK = bytes(c if c in _PLAN_DIGITS + b"." else 32 for c in range(256))
_PLAN_TOKEN = re.compile(r"[0-9.]+")
_PLAN_CHARS = 32768  # longer texts are read line by line (many intervals: rarely alike)
_PLANS: dict[int, _Layout] = {}  # hash of a text without its digits -> what it was read by
_PLAN_AFTER = 1  # a plan (cheap: no compile) on a layout's first read
_PLAN_COMPILE = 400  # a plan's test compiled into one pattern once it was used this often
_PLANS_PER_LAYOUT = 4
_PLANS_MAX = 4096  # layouts remembered; and the characters of all plans' texts:
_PLAN_BUDGET = 2**22
_plan_chars = 0
_UNUSED = object()  # a plan that does not depend on the file name


class _Layout:
    """A layout's plans (latest first), how often it was read line by line and how often one
    of its plans read it."""

    __slots__ = ("plans", "reads", "hits")

    def __init__(self):
        self.plans: list[_Plan] = []
        self.reads = 0
        self.hits = 0

    def wants_a_plan(self) -> bool:
        """Whether the line-by-line read about to be made should give a plan: the layout was
        read so before :data:`_PLAN_AFTER` - 1 times and its plans were used (a layout whose
        figures vary where a plan keeps them as printed makes no plan per file)."""
        self.reads += 1
        return (self.reads >= _PLAN_AFTER and self.hits >= len(self.plans)
                and len(self.plans) < _PLANS_PER_LAYOUT)


class _Recording:
    """Where a line-by-line read took each value (for :func:`_build_plan`): ``free_lines``
    (lines of no kind, whose digits say nothing), ``row_src`` (per result row, ``(line,
    (start, end) in the stripped line, factor)``), ``series`` (per series: its run key and
    ``(t source, value source)`` per row), ``pinned`` (figures that must stay as printed), and
    whether the file name was consulted."""

    __slots__ = ("free_lines", "row_src", "series", "pinned", "uses_name", "uses_hint")

    def __init__(self):
        self.free_lines: list[int] = []
        self.row_src: list[tuple] = []
        self.series: list[tuple[str, list]] = []
        self.pinned: set[tuple] = set()
        self.uses_name = False
        self.uses_hint = False

    def keep_as_printed(self, lines) -> None:
        """Lines of no kind whose digits a plan must keep as printed (it reads another text of
        the layout only if they are equal): lines something was made of (an OLTP run's
        counts, a note that quotes them)."""
        kept = set(lines)
        self.free_lines = [x for x in self.free_lines if x not in kept]

    def take_series(self, key: str, rows: list, src: list, absent) -> None:
        """The sources of the series rows kept (as :meth:`_Reader._series` keeps them)."""
        kept = []
        for x, (t_src, v_src) in zip(rows, src, strict=True):
            if absent and x[2] in absent:
                self.pinned.add(v_src[:2])  # the 0 that drops the row is kept as printed
                if x[3] == 0:
                    continue
            kept.append((t_src, v_src))
        self.series.append((key, kept))


class _Plan:
    """A layout read once: :meth:`apply` reads a text of that layout (else ``None``).

    A text is split into its non-digit segments and its digit runs (``parts``, what
    :data:`_PLAN_SPLIT` gives: runs at odd indices); it is of the plan's layout iff its
    segments are the plan's (``segs``) and the runs kept as printed (``pin_idx``, indices in
    ``parts``) are the plan's (``pin_vals``). Each figure taken anew is a slice of ``parts``
    (``figs``: its runs and the segments between them, e.g. ``12`` ``.`` ``345``)."""

    __slots__ = ("segs", "shape", "pin_idx", "pin_vals", "figs", "tok_pins", "tok_pin_vals",
                 "tok_figs", "fullmatch", "hits", "consts", "rows", "series", "cols", "n",
                 "format", "version", "notes", "why_empty", "name_meta", "hint", "chars")

    def pattern(self) -> str:
        """The same test as one pattern, each figure a group (what :meth:`apply` matches once
        the plan was used :data:`_PLAN_COMPILE` times: a compile of its ~2 KB costs ~1.9-2.3
        ms of CPU, what 320-630 reads by the match save against reads by tokens, 22 -> 17 us
        a 1.8 KB file's parse).
        """
        out = [""] * (2 * len(self.segs) - 1)
        out[0::2] = map(re.escape, self.segs)
        out[1::2] = ["[0-9]++"] * (len(self.segs) - 1)
        for i, v in zip(self.pin_idx, self.pin_vals, strict=True):
            out[i] = v
        for f in self.figs:
            out[f.start] = "(" + out[f.start]
            out[f.stop - 1] += ")"
        return "".join(out)

    def parts_of(self, text: str, shape: tuple) -> list[str] | None:
        """What :data:`_PLAN_SPLIT` gives for ``text`` (ASCII, its :func:`_shape` ``shape``)
        if its non-digit segments are the plan's (``segs``, then the very objects), else
        ``None`` (they differ: the text is not of this layout)."""
        if shape != self.shape:
            return None
        runs = text.encode().translate(_RUNS_MASK).decode().split()
        parts = [""] * (2 * len(runs) + 1)
        parts[0::2] = self.segs  # (as many: the shapes are equal)
        parts[1::2] = runs
        return parts

    def match(self, parts: list[str]) -> bool:
        """Whether a text split into ``parts`` is of this plan's layout."""
        return parts[0::2] == self.segs and (
            not self.pin_idx or list(map(parts.__getitem__, self.pin_idx)) == self.pin_vals)

    def apply(self, text: str, source: str, parts: list[str] | None = None,
              shape: tuple | None = None) -> Parsed | None:
        """What :func:`_parse` gives for ``text`` (named ``source``, ASCII; ``parts``: its
        split, or ``shape``: its :func:`_shape`, if made already), or ``None`` if the text is
        not of this layout, the name says otherwise or a figure is beyond a float."""
        if self.fullmatch is not None:
            m = self.fullmatch(text)
            if m is None:
                return None
            figures = m.groups()
        elif parts is None and self.tok_figs is not None:  # (see _token_plan)
            if (_shape(text) if shape is None else shape) != self.shape:
                return None
            tokens = text.encode().translate(_TOKENS_MASK).split()
            if self.tok_pins(tokens) != self.tok_pin_vals:
                return None
            figures = _floats(self.tok_figs(tokens))
        else:
            if parts is None:
                parts = self.parts_of(text, _shape(text) if shape is None else shape)
            if parts is None or not self.match(parts):
                return None
            figures = map("".join, map(parts.__getitem__, self.figs))
        if self.name_meta is not _UNUSED and _name_meta(source) != self.name_meta:
            return None
        if self.hint is not _UNUSED and _hint_test(source) != self.hint:
            return None
        get = [*map(float, figures), *self.consts].__getitem__  # (floats stay what they are)
        values = list(map(operator.mul, map(get, self.rows[0]), self.rows[1]))
        total = sum(values)
        series = []
        for key, tmpl, n, t_idx, t_fac, v_idx, v_fac in self.series:
            cols = dict(tmpl)
            cols["run_id"] = Const(schema.run_id(source, key), n)
            cols["source"] = Const(source, n)
            cols["t"] = t = list(map(operator.mul, map(get, t_idx), t_fac))
            cols["value"] = v = list(map(operator.mul, map(get, v_idx), v_fac))
            total += sum(t) + sum(v)
            series.append(Columns.of(cols, n))
        if total - total != 0:  # inf or nan: a figure beyond a float (the full read says which)
            return None
        if total >= _WRAPPED_S and self._wrapped(values):  # (the full read leaves it out)
            return None
        cols = dict(self.cols)
        cols["source"] = Const(source, self.n)
        cols["value"] = values
        return Parsed(tool=TOOL, format=self.format, version=self.version, series=series,
                      notes=list(self.notes), columns=(cols, self.n), why_empty=self.why_empty)


    def _wrapped(self, values: list[float]) -> bool:
        """Whether a latency among ``values`` is a wrapped negative time (see
        :meth:`_Reader._wrapped`)."""
        metrics = self.cols["metric"]
        if type(metrics) is Const:
            metrics = [metrics.value] * self.n
        return any(v >= _WRAPPED_S and m.startswith("lat_") for v, m in zip(values, metrics, strict=True))


def _shape(text: str) -> tuple[list[bytes], bool, bool]:
    """An ASCII text's non-digit segments (as :data:`_SHAPE_MASK` writes them), and whether it
    starts and ends with a digit: equal for two texts iff their splits by :data:`_PLAN_SPLIT`
    have the same segments (the segments between digit runs are never empty; a text without
    digits is one segment, ``[]`` when empty).

    >>> _shape("a 12.5 b"), _shape("7"), _shape("")
    (([b'a0', b'.', b'0b'], False, False), ([], True, True), ([], False, False))
    """
    return _shape_of(text.encode().translate(_SHAPE_MASK))


def _shape_of(masked: bytes) -> tuple[list[bytes], bool, bool]:
    """:func:`_shape` of a text from its bytes masked by :data:`_SHAPE_MASK`."""
    return masked.split(), masked[:1] == b" ", masked[-1:] == b" "


def _figures(rec: _Recording, plain: list[str]) -> dict[tuple, int]:
    """``{(line, (start, end)): group}`` of the figures a plan takes anew, in text order: each
    a whole unsigned number between non-digits, not pinned, outside lines naming sysbench."""
    usable = set()
    for i, span, _ in chain(rec.row_src, chain.from_iterable(
            chain.from_iterable(kept) for _, kept in rec.series)):
        s = plain[i].strip()
        a, b = span
        if ((i, span) not in rec.pinned and _PLAN_VALUE.fullmatch(s, a, b)
                and not (a and s[a - 1].isdigit()) and not (b < len(s) and s[b].isdigit())
                and "sysbench " not in s):
            usable.add((i, span))
    groups: dict[tuple, int] = {}
    last = (-1, 0)  # (line, end) of the last figure kept
    for i, (a, b) in sorted(usable):  # (the figures of one match never overlap: kept so)
        if i != last[0] or a >= last[1]:
            groups[i, (a, b)] = len(groups)
            last = (i, b)
    return groups


def _plan_parts(plan: _Plan, text: str, rec: _Recording, groups: dict[tuple, int]) -> list:
    """Set what ``plan`` compares and takes of a text split into parts (see :class:`_Plan`):
    the digit runs of ``text`` that a plan takes anew are those of its figures (``groups``)
    and of lines of no kind (not naming sysbench, no PARAMS or WARNING line, no figure);
    every other run is kept as printed. Returns the parts."""
    parts = _PLAN_SPLIT(text)
    starts = list(accumulate(map(len, parts), initial=0))[1:-1:2]  # where run j (parts[2j+1]) is
    lines = text.splitlines(keepends=True)
    line_at = list(accumulate(map(len, lines), initial=0))
    free = set(rec.free_lines)
    varying: set[int] = set()
    figs = []
    for i, (a, b) in groups:  # in text order, never overlapping
        s = lines[i]
        off = line_at[i] + len(s) - len(s.lstrip())
        j, k = bisect_left(starts, off + a), bisect_left(starts, off + b)  # runs j..k-1
        varying.update(range(j, k))
        figs.append(slice(2 * j + 1, 2 * k))
    with_figures = {i for i, _ in groups}
    for i in free - with_figures:
        s = lines[i]
        if "sysbench " not in s and not s.lstrip().startswith(("PARAMS", "WARNING:")):
            varying.update(range(bisect_left(starts, line_at[i]),
                                 bisect_left(starts, line_at[i + 1])))
    pinned = [2 * j + 1 for j in range(len(starts)) if j not in varying]
    plan.segs, plan.figs = parts[0::2], tuple(figs)
    plan.pin_idx, plan.pin_vals = tuple(pinned), [parts[x] for x in pinned]
    return parts


_JSON_FLOATS = msgspec.json.Decoder(list[float]).decode


def _floats(texts: tuple[bytes, ...]) -> list[float]:
    """``float()`` of each text (ASCII digits, perhaps one dot between them): the texts as one
    JSON array decoded by msgspec (C, ~40 ns a figure against ~170; correctly rounded, as
    ``float()`` is: the same doubles), else ``float()`` of each (a spelling JSON refuses, such
    as a leading 0, or a figure msgspec finds beyond a float).

    >>> _floats((b"44.39", b"0", b"12")), _floats((b"007.5", b"1")), _floats(())
    ([44.39, 0.0, 12.0], [7.5, 1.0], [])
    """
    try:
        return _JSON_FLOATS(b"[" + b",".join(texts) + b"]")
    except msgspec.DecodeError:  # (its ValidationError too)
        return list(map(float, texts))


def _token_plan(plan: _Plan, text: str, parts: list[str]) -> None:
    """Let ``plan`` (made of ``text``, split into ``parts``) read a text of its shape by its
    tokens (maximal runs of digits and dots, :data:`_TOKENS_MASK`) when it can: each figure
    is a whole token, and each token holds pinned runs only, or none. A text of the plan's
    shape (:func:`_shape`) is made of the same segments, with digit runs where the plan's
    text has them: its tokens are made of the same segment pieces and runs, so a figure's
    token is the figure and a pinned token is equal iff its runs are. Else ``tok_figs`` is
    ``None`` (read by ``parts``, :meth:`_Plan.parts_of`)."""
    plan.tok_figs = plan.tok_pins = plan.tok_pin_vals = None
    at = list(accumulate(map(len, parts), initial=0))  # where each part starts
    spans = [m.span() for m in _PLAN_TOKEN.finditer(text)]
    token = {span: k for k, span in enumerate(spans)}
    figs = [token.get((at[f.start], at[f.stop])) for f in plan.figs]
    if None in figs:
        return  # a figure that is not a whole token ("-1.5", "2e3", "1.5.")
    # the token of each run (digits are token characters: each run is in one), and whether
    # the run is pinned
    runs = at[1:-1:2]
    tokens_of = map(bisect_right, repeat([a for a, _ in spans], len(runs)), runs)
    kinds = set(zip(tokens_of, map(frozenset(plan.pin_idx).__contains__,
                                   range(1, len(parts), 2)), strict=True))
    if len(kinds) != len({k for k, _ in kinds}):
        return  # a token of pinned and varying runs
    pins = sorted(k - 1 for k, pinned in kinds if pinned)
    tokens = text.encode().translate(_TOKENS_MASK).split()
    plan.tok_pins, plan.tok_pin_vals = picker(pins), picker(pins)(tokens)
    plan.tok_figs = picker(figs)


def _build_plan(text: str, source: str, parsed: Parsed, rec: _Recording) -> _Plan | None:
    """The plan of a text read line by line (``parsed``, with what ``rec`` recorded), or
    ``None`` if it does not give back that very read."""
    groups = _figures(rec, text.splitlines())
    consts: list[float] = []

    def sources(where: list[tuple], values: list) -> tuple[list[int], list]:
        idx, fac = [], []
        for (i, span, factor), value in zip(where, values, strict=True):
            if (i, span) in groups:
                idx.append(groups[i, span])
                fac.append(factor)
            else:  # as printed
                idx.append(len(groups) + len(consts))
                fac.append(1.0)
                consts.append(value)
        return idx, fac

    cols, n = parsed.columns
    plan = _Plan()
    plan.rows = sources(rec.row_src, cols["value"] if n else [])
    plan.series = []
    for (key, kept), col in zip(rec.series, parsed.series, strict=True):
        t_idx, t_fac = sources([t for t, _ in kept], col.cols["t"])
        v_idx, v_fac = sources([v for _, v in kept], col.cols["value"])
        plan.series.append((key, dict(col.cols), col.n, t_idx, t_fac, v_idx, v_fac))
    parts = _plan_parts(plan, text, rec, groups)
    plan.shape = _shape(text)
    _token_plan(plan, text, parts)
    plan.fullmatch, plan.hits = None, 0
    plan.consts = tuple(consts)
    plan.cols, plan.n, plan.format, plan.version = dict(cols), n, parsed.format, parsed.version
    plan.notes, plan.why_empty = tuple(parsed.notes), parsed.why_empty
    plan.name_meta = _name_meta(source) if rec.uses_name else _UNUSED
    plan.hint = _hint_test(source) if rec.uses_hint else _UNUSED
    plan.chars = len(text)
    again = plan.apply(text, source, shape=plan.shape)  # it must give back its own read
    if again is None or not _alike(_facts(again), _facts(parsed)):
        return None
    return plan


def _summary(p: Parsed) -> str:
    """Everything :func:`_parse` gives, as text (values in full precision)."""
    return repr(_facts(p))


def _facts(p: Parsed) -> tuple:
    """Everything :func:`_parse` gives (what :func:`_summary` writes out)."""
    return (p.tool, p.format, p.version, p.columns, [s.cols for s in p.series],
            [s.n for s in p.series], p.notes, p.why_empty)


def _alike(x, y) -> bool:
    """Whether ``repr(x) == repr(y)`` for what a :class:`Parsed` holds, without writing out
    what the two share (the same objects: a plan's read of its own text shares most columns
    with the read it was made from). True only if the reprs are equal (dicts of the same keys
    in order, lists and tuples of as many items, each alike); a float is alike only to a
    float of its repr (``-0.0`` is not ``0.0``).

    >>> _alike({"a": [1.0, "x"]}, {"a": [1.0, "x"]}), _alike([0.0], [-0.0]), _alike((1,), (True,))
    (True, False, False)
    """
    if x is y:
        return True
    if type(x) is not type(y):
        return False
    if type(x) is dict:
        return list(x) == list(y) and all(_alike(x[k], y[k]) for k in x)
    if type(x) in (list, tuple):
        if len(x) != len(y):
            return False
        if set(map(type, x)) == _FLOAT == set(map(type, y)):  # floats: alike bit for bit
            return array("d", x).tobytes() == array("d", y).tobytes()
        return all(map(_alike, x, y))
    return repr(x) == repr(y)


_FLOAT = {float}


def _plannable(text: str, options: Mapping) -> bool:
    """Whether ``text`` may be read by a plan: ASCII of a bounded length, no NUL, no option."""
    return not options and len(text) <= _PLAN_CHARS and text.isascii() and "\x00" not in text


def _plan_key(text: str, options: Mapping) -> int | None:
    """The key of ``text``'s layout in :data:`_PLANS` (``None``: read line by line): the hash
    of its characters other than digits (:func:`_plannable` texts; whitespace as
    :data:`_SHAPE_MASK` renames it, see :func:`_key_of`)."""
    return _key_of(text.encode().translate(_SHAPE_MASK)) if _plannable(text, options) else None


def _key_of(masked: bytes) -> int:
    """:func:`_plan_key` of a text from its bytes masked by :data:`_SHAPE_MASK` (its digits are
    the spaces there)."""
    return hash(masked.translate(None, b" "))


# a text masked by _SHAPE_MASK (what its shape and its key are made of: its digits as spaces)
# -> (_plan_key, _shape) of it, for texts a plan took: most files of a layout print their
# figures with as many digits as another file did, and are looked up by one translate and one
# hash (1.5 us) instead of a key and a split (5.4 us, a 1.8 KB report). The shape is the plan's
# own (no memory but the masked texts: at most _SHAPES_MAX of at most _SHAPES_CHARS each)
_SHAPES: dict[bytes, tuple[int, tuple]] = {}
_SHAPES_MAX = 512
_SHAPES_CHARS = 8192


def _remember(key: int, layout: _Layout, text: str, source: str, parsed: Parsed,
              rec: _Recording | None) -> None:
    """After a line-by-line read: note the layout (first sight), and add its plan."""
    global _plan_chars
    if key not in _PLANS:
        if len(_PLANS) >= _PLANS_MAX:
            _PLANS.clear()
            _plan_chars = 0
        _PLANS[key] = layout
    plan = _build_plan(text, source, parsed, rec) if rec is not None else None
    if plan is None:
        return
    if _plan_chars + plan.chars > _PLAN_BUDGET:
        _PLANS.clear()
        _plan_chars = 0
        _PLANS[key] = layout
        _plan_chars = sum(p.chars for p in layout.plans)
    layout.plans.insert(0, plan)
    _plan_chars += plan.chars


def _parse(text: str, source: str, **options) -> Parsed:
    """:func:`parse`, with series left as :class:`~ebsstats.io._common.Columns` (the
    folder read types them with every other file's; no DataFrame per file).

    A text of a layout read before is read by its plan (:class:`_Plan`), made from the
    layout's first line-by-line read (see :meth:`_Layout.wants_a_plan`)."""
    key = shape = seen = masked = None
    if _plannable(text, options):
        masked = text.encode().translate(_SHAPE_MASK)
        seen = _SHAPES.get(masked)
        key, shape = seen if seen is not None else (_key_of(masked), None)
    layout = _PLANS.get(key) if key is not None else None
    if layout is not None and layout.plans:
        for plan in layout.plans:
            if plan.fullmatch is None and shape is None:  # (made once for all plans)
                shape = _shape_of(masked)
            got = plan.apply(text, source, shape=shape)
            if got is not None:
                layout.hits += 1
                plan.hits += 1
                if plan.hits == _PLAN_COMPILE:
                    plan.fullmatch = re.compile(plan.pattern()).fullmatch
                if seen is None and len(text) <= _SHAPES_CHARS:  # (its shape is the plan's)
                    remember(_SHAPES, masked, (key, plan.shape), _SHAPES_MAX)
                return _below_resolution(got)
    reader = _Reader(text, source, options)
    fresh = layout is None  # (remembered once read)
    if fresh:
        layout = _Layout()
    if key is not None and layout.wants_a_plan():
        reader.rec = _Recording()
    try:
        parsed = reader.run()
    except ParseError:
        raise
    except (ValueError, RecursionError) as exc:  # e.g. an integer of more than 4,300 digits
        raise unconvertible(exc, text, source) from exc
    except (KeyError, TypeError, IndexError) as exc:  # pragma: no cover - safety net
        raise ParseError(source, None, "sysbench output", found=f"{type(exc).__name__}: {exc}"
                         ) from exc
    if key is not None and (fresh or reader.rec is not None):
        _remember(key, layout, text, source, parsed, reader.rec)  # (of the figures as printed)
    return _no_transactions(_below_resolution(parsed))


def _no_transactions(parsed: Parsed) -> Parsed:
    """``parsed`` with the OLTP ``ops`` of a run that counted no transactions but did events
    (``transactions: 0 (0.00 per sec.)`` beside ``total number of events: 206892``: sysbench
    0.5's ``--oltp-skip-trx``, queries without BEGIN/COMMIT) taken as its events per second
    (events / total time), with a note: as printed, a write-only run of 8,112 queries a second
    (hgxl64/mariadb-benchmarks) read as 0 operations a second.

    >>> p = Parsed(tool=TOOL, format="", records=[
    ...     {"test": "oltp", "metric": m, "value": v, "run_key": "line 1"}
    ...     for m, v in [("ops", 0.0), ("runtime", 51.0055), ("events", 206892.0)]])
    >>> round(_no_transactions(p).records[0]["value"], 2), p.notes[0][:42]  # (records: kept)
    (4056.27, 'no transactions (line 1: sysbench ran its ')
    """
    columns = parsed.columns is not None
    if columns:
        cols, n = parsed.columns
        values = cols.get("value") if n else None
        if not values or 0.0 not in values or "ops" not in _listed(cols.get("metric"), n):
            return parsed
        parsed.records = records_of(parsed.columns)  # (then columns again, as they came)
    runs: dict = {}
    for r in parsed.records:
        if r.get("test") == "oltp" and r.get("metric") in ("ops", "runtime", "events"):
            runs.setdefault(r.get("run_key"), {})[r["metric"]] = r
    for key, got in runs.items():
        ops, secs, events = (got.get(m) for m in ("ops", "runtime", "events"))
        if ops is None or ops["value"] != 0 or secs is None or events is None \
                or not secs["value"] > 0 or not events["value"] > 0:
            continue
        ops["value"] = events["value"] / secs["value"]
        parsed.notes.append(f"no transactions ({key}: sysbench ran its queries without "
                            f"BEGIN/COMMIT, --oltp-skip-trx): ops is its events per second, "
                            f"{events['value']:.0f} / {secs['value']:g} s, not the 0 "
                            f"transactions per second printed")
    if columns:
        parsed.columns, parsed.records = (columns_of(parsed.records), len(parsed.records)), []
    return parsed


def _listed(column, n: int) -> list | tuple:
    """A column as its values (a :class:`Const` repeated ``n`` times)."""
    return [column.value] * n if type(column) is Const else column or ()


def _below_resolution(parsed: Parsed) -> Parsed:
    """``parsed`` with each latency sysbench printed as zero (``0.00`` ms: below the resolution
    it prints, never a time of zero) as NaN, flagged ``too_fast`` (as bonnie++'s
    ``+++++``: too fast to measure, never zero) and listed in a note; on both paths (a plan's
    read and a line-by-line one), after a plan was made of the figures as printed. Its lists
    are replaced, never changed (a plan's position list is shared by the files it reads).

    >>> p = Parsed(tool=TOOL, format="", columns=({"metric": ["lat_min", "ops", "lat_p95"],
    ...            "value": [0.0, 0.0, 2e-05], "position": ["line 3", "line 1", "line 5"]}, 3))
    >>> cols = _below_resolution(p).columns[0]
    >>> cols["value"], cols["flag"]
    ([nan, 0.0, 2e-05], ['too_fast', None, None])
    >>> p.notes
    ["lat_min (line 3) printed as zero: under the 0.005 ms sysbench's two decimals show, NaN \
and flagged too_fast"]
    """
    cols, n = parsed.columns
    values = cols.get("value") if n else None
    if not values or 0.0 not in values:  # (the usual file: no figure of zero at all)
        return parsed
    metrics, positions = _listed(cols["metric"], n), _listed(cols["position"], n)
    zero = [k for k, (v, m) in enumerate(zip(values, metrics, strict=True))
            if v == 0 and type(m) is str and m.startswith("lat_")]
    if not zero:
        return parsed
    values = list(values)
    flags = cols.get("flag", Const(None, n))  # (sysbench's rows have none of their own yet)
    flags = list(_listed(flags, n))
    for k in zero:
        values[k] = _NAN
        flags[k] = schema.TOO_FAST
    parsed.columns = ({**cols, "value": values, "flag": flags}, n)
    where = ", ".join(f"{metrics[k]} ({positions[k]})" for k in zero[:_ZERO_LISTED])
    more = f" and {len(zero) - _ZERO_LISTED} more" if len(zero) > _ZERO_LISTED else ""
    parsed.notes = [*parsed.notes, f"{where}{more} printed as zero: under the 0.005 ms "
                    "sysbench's two decimals show, NaN and flagged too_fast"]
    return parsed


def _line_number(error: ParseError) -> int:
    """The line an error of this reader names (``"line 12"``: 12), 0 for none."""
    where = error.position
    return int(where[5:]) if type(where) is str and where.startswith("line ") else 0


_NAN = float("nan")
_RUNNING = "Running the test with following options:"  # once per report, after its banner
_ZERO_LISTED = 6  # latencies of zero named in the note, the rest counted
_BETWEEN_NOTED = 3  # lines between two runs quoted in notes, the rest counted


def parse(text: str, source: str, **options) -> Parsed:
    """Parse sysbench output (one or several runs) into records and series frames.

    Parameters
    ----------
    text : str
        The whole output file.
    source : str
        Its name, used in ``run_id``, messages and to read seed 001's name pattern
        (``sysbench-size-16G-mode-rndrd-threads-16``).
    **options
        ``test=`` names the test when the output cannot (1.0 threads and mutex runs print the
        same report).

    Returns
    -------
    Parsed
        ``records`` for :func:`ebsstats._columns.frame`; ``series`` (report-interval lines);
        ``notes`` (the tool's WARNING lines and anything skipped). A cleanup output gives an
        empty ``records`` list.

    Raises
    ------
    ebsstats.ParseError
        On ``FATAL:``/``ALERT:``/``invalid option`` lines (quoted, with their line), output that
        is not sysbench's, or a file whose every run is cut short before its report (one such
        run among others appended to the file is left out and named in ``Parsed.partial``; the
        other runs are read).

    Examples
    --------
    >>> text = '''sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)
    ...
    ... General statistics:
    ...     total time:                          2.0005s
    ...     total number of events:              2254
    ...
    ... Latency (ms):
    ...          min:                                    0.55
    ...          avg:                                    0.89
    ...          max:                                   35.35
    ...          95th percentile:                        0.70
    ... '''
    >>> p = parse(text, "sb_threads.txt")
    >>> [(r["test"], r["metric"], r["value"]) for r in p.records][:3]
    [('threads', 'runtime', 2.0005), ('threads', 'events', 2254.0), ('threads', 'lat_min', 0.00055)]
    """
    parsed = public_series(_parse(text, source, **options))
    parsed.records = records_of(parsed.columns)  # rows as dicts for whoever looks at them
    return parsed


def read_sysbench(path: str | os.PathLike, *, series: bool = False, **meta):
    """Read one sysbench output file into the tidy results frame (and the series frame).

    Parameters
    ----------
    path : str or path-like
        A file holding one or several sysbench runs (appended in a loop), a prepare or a
        cleanup output.
    series : bool, default False
        Also return the report-interval series frame: ``(results, series)``.
    **meta
        Metadata set on every row (``config=``, ``volume=``, …), overriding what the output
        says; ``test=`` names a 1.0 threads/mutex run that the output cannot name.

    Returns
    -------
    pandas.DataFrame or (pandas.DataFrame, pandas.DataFrame)

    Examples
    --------
    >>> import ebsstats as es
    >>> df = es.read_sysbench("tests/fixtures/sysbench/sb_fileio_rndrd_t1_run.txt")
    >>> rows = df.loc[df.metric == "iops", ["test", "workload", "op", "value"]]
    >>> print(rows.to_string(index=False, float_format="{:.2f}".format))
     test workload   op     value
    rndrd randread read 418207.11
    """
    return read_one(path, _parse, meta=meta or None, series=series)


# the reader this module registers (ebsstats.io._registry): sniff, then parse text
READER = Reader(tool="sysbench", name=__name__, detect=sniff, parse=text_parser(_parse),
                memory_factor=MEMORY_FACTOR)
