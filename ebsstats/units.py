"""Canonical units and the conversions into them.

The tidy frame holds SI base units only: bytes per second (``B/s``), I/O operations per second
(``IO/s``), seconds (``s``), percent (``%``), operations per second (``ops/s``), bytes (``B``) and
plain counts (``count``). Every reader converts exactly once, on the way in, with the constants and
helpers below, so the source unit of each tool is written down in one place:

=====================  =======================================  =======================
tool / field           source unit                              factor to canonical
=====================  =======================================  =======================
fio ``bw``             KiB/s                                    × 1024 → B/s
fio ``bw_bytes``       B/s                                      × 1
fio 3.x ``*_ns``       ns                                       × 1e-9 → s
fio 2.x ``clat`` etc.  µs (and terse output, every version)     × 1e-6 → s
fio 2.x ``io_bytes``   KiB (despite the name; fixed in 2.21)    × 1024 → B
fio logs bw            KiB/s                                    × 1024 → B/s
bonnie++ ``K/sec``     KiB/s                                    × 1024 → B/s
bonnie++ latency       ``us``/``ms``/``s`` suffix               by suffix → s
sysbench 1.0 MiB/s     MiB/s                                    × 2**20 → B/s
sysbench 0.4/0.5 Mb    MiB (the "b" is bytes, binary units)     × 2**20 → B
sysbench latency       ms                                       × 1e-3 → s
PTS fio "MB/s"         MiB/s for upstream ``pts/fio`` (keeps    × 2**20 → B/s, or × 1e6
                       fio's ``BW=…MiB/s``); decimal MB/s for   when the reader finds the
                       profiles keeping fio's ``(…MB/s)``       entry decimal (``mb_basis``)
=====================  =======================================  =======================

The PTS row is not simply "PTS's fio MB/s is MiB/s": the genuine 10.8.6 samples of a
local fio profile store fio's decimal figure (``BW=3999KiB/s (4095kB/s)`` stored as 4.095), so the
PTS reader checks each MB/s entry against the same run's IOPS × block size and records the basis
it used in an ``mb_basis`` column (see :mod:`ebsstats.io.pts`).

Formatting for people (MB/s, ms) happens only in plots and reports: see :func:`display`.
"""

from __future__ import annotations

import re

KiB = 1024
MiB = 1024**2
GiB = 1024**3
TiB = 1024**4
MB = 1000**2

NS = 1e-9
US = 1e-6
MS = 1e-3

_TIME = {"ns": NS, "nsec": NS, "us": US, "usec": US, "µs": US, "ms": MS, "msec": MS, "s": 1.0,
         "sec": 1.0}
_BIN = {"": 1, "b": 1, "k": KiB, "m": MiB, "g": GiB, "t": TiB, "p": 1024**5}
_DEC = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}

_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_DURATION_RE = re.compile(rf"^\s*({_NUM})\s*(ns|nsec|us|usec|µs|ms|msec|s|sec)?\s*$")
_SIZE_RE = re.compile(rf"^\s*({_NUM})\s*([kmgtpKMGTP]?)(i?)([bB]?)\s*$")


def duration(text: str, default_unit: str = "s") -> float:
    """Parse a duration with an optional unit suffix into seconds.

    >>> duration("512ms"), duration("44660us"), duration("3s"), duration("7", "ms")
    (0.512, 0.04466, 3.0, 0.007)
    """
    m = _DURATION_RE.match(text)
    if not m:
        raise ValueError(f"not a duration: {text!r}")
    unit = m.group(2) or default_unit
    return float(m.group(1)) * _TIME[unit]


def binary_size(text: str) -> float:
    """Parse a size whose multiples are binary (``512M``, ``1G``, ``93.75Mb``, ``16KiB``) into bytes.

    fio, bonnie++ and sysbench all mean powers of 1024 by K/M/G, whatever the spelling.

    >>> binary_size("512M"), binary_size("93.75Mb"), binary_size("16KiB"), binary_size("4096")
    (536870912.0, 98304000.0, 16384.0, 4096.0)
    """
    m = _SIZE_RE.match(text)
    if not m:
        raise ValueError(f"not a size: {text!r}")
    return float(m.group(1)) * _BIN[m.group(2).lower()]


def scaled(text: str, binary: bool = False) -> float:
    """Parse a number with a k/M/G suffix as fio and bonnie++ print them (``85.7k``, ``2036.7k``).

    Decimal multiples by default (fio's IOPS=85.7k); ``binary=True`` for KiB/MiB-based cells.

    >>> scaled("85.7k"), scaled("1.2M"), scaled("1143k", binary=True)
    (85700.0, 1200000.0, 1170432.0)
    """
    m = re.match(rf"^\s*({_NUM})\s*([kKmMgGtT]?)\s*$", text)
    if not m:
        raise ValueError(f"not a number: {text!r}")
    table = _BIN if binary else _DEC
    return float(m.group(1)) * table[m.group(2).lower()]


# display helpers for plots: factor and label to turn canonical units into the conventional ones
DISPLAY = {
    "B/s": (1 / MB, "MB/s"),
    "B": (1 / MB, "MB"),
    "s": (1e3, "ms"),
    "IO/s": (1.0, "IOPS"),
    "ops/s": (1.0, "ops/s"),
    "%": (1.0, "%"),
    "count": (1.0, "count"),
}


def display(unit: str) -> tuple[float, str]:
    """Factor and label that turn a canonical unit into its display unit (``B/s`` → MB/s)."""
    return DISPLAY.get(unit, (1.0, unit))
