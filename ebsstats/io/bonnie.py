"""bonnie++ reader: CSV rows of every code line (1.03, 1.96/1.97, 1.98–2.00a) and the text report.

Formats:

* **CSV 1.0x** (``csv 1.03``): 27 fields, the machine name first, no version column.
* **CSV 1.96/1.97** (``csv 1.96``, ``csv 1.97``): 48 fields, ``format_version`` first.
* **CSV 1.98** (``csv 1.98``): 50 fields (2.00 and 2.00a still write format ``1.98``).
* **text** — the human table bonnie++ prints (stdout, or stderr with ``-q``), and
  **bon_csv2txt** — the same table rendered from CSV by ``bon_csv2txt``.

A line is identified by its content, never by its version string alone. When a file holds CSV
rows, only they are read (the text table rounds and truncates); the text is read when there is
no CSV row.

One tidy row per (run, test, metric):

==============================  ==========  =========  =====  ==================================
test                            workload    op         unit   metrics
==============================  ==========  =========  =====  ==================================
putc, put_block                 seqwrite    write      B/s    bandwidth, cpu, lat_max
rewrite                         rewrite     write      B/s    bandwidth, cpu, lat_max
getc, get_block                 seqread     read       B/s    bandwidth, cpu, lat_max
seeks                           seeks       read       IO/s   iops, cpu, lat_max
seq, ran: create, stat, del     create/...  total      ops/s  ops, cpu, lat_max
==============================  ==========  =========  =====  ==================================

* ``K/sec`` is KiB/s (× 1024 → B/s); 2.00a text cells ``1143k``/``422m``/``1.2g`` are
  KiB/MiB/GiB per second. ``lat_max`` is bonnie's worst single-operation latency, in seconds.
* ``+++++``/``+++`` (finished in under 0.5 s: too fast to measure) become NaN with
  ``flag="too_fast"``, never 0. An empty field (test skipped) gives no row.
* ``block_size``: 1 byte for the per-char tests (putc, getc); the IO chunk size for put_block,
  rewrite, get_block and seeks. bonnie++ 1.9x writes ``io_chunk_size`` only when it is not the
  default (8192 bytes, ``DefaultChunkSize`` in ``bonnie.h``), so an empty field means 8192. 2.00a
  never fills the field (bug): the chunk is then taken from the text table of the same output
  (``512M:64k``) when present, else from the ``chunk_size=`` option, else 8192.
* ``threads`` is the concurrency (``-c``); 1.0x has no concurrency option, so 1. In text it
  comes from the ``Concurrency`` row (1.9x) or the size column (2.00a ``512M::2``); it is
  ``<NA>`` where the text does not say (bon_csv2txt output, a file table alone).
* Text rows are read by column, allowing printf overflow (``112336`` in a ``%5d`` column);
  a cell that is not right-aligned in its column, or a row that stops short, is a cut or
  re-spaced table: ParseError rather than a wrong number.
* ``repetition`` numbers consecutive runs of the same configuration (``-x N`` → 0..N-1, and
  runs a shell loop appended: each bonnie++ draws a new seed, which the text report does not
  print, so a CSV row and its table agree); a CSV header row or a change of machine, size, file
  spec or concurrency starts a new group.
* Extra string columns: ``host`` (machine name), ``file_size`` (``512M``), ``chunk_size`` (as
  printed, ``<NA>`` when default), ``num_files`` (``16``, ``2:4096:512/4``), ``files`` (number
  of files: count × 1024), ``max_size``, ``min_size``, ``dirs``, ``concurrency``, ``seed``,
  ``seeks`` (number of seeks, 1.98+) and ``seek_proc_count``.
* bonnie++ prints no time: ``timestamp`` stays ``NaT`` (the seed is not a time).
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import os
import re
from dataclasses import dataclass, field

import msgspec

from ebsstats import schema, units
from ebsstats.errors import ParseError
from ebsstats.io._columns import Const, records_of
from ebsstats.io._common import Parsed, number, picker, read_one, remember
from ebsstats.io._registry import Reader, text_parser
from ebsstats.io._rows import run_columns

__all__ = ["read_bonnie", "sniff", "parse"]

TOOL = "bonnie++"

# peak memory of a parse per byte of input, for the folder read's budget
# (benchmarks/reader_memory.py: measured 73 (a 4 MB CSV of 214,272 rows))
MEMORY_FACTOR = 120

DEFAULT_CHUNK = 8192  # bonnie.h DefaultChunkSize (1 << 13), every version
FILES_UNIT = 1024  # -n counts files in units of 1024 (bonnie.h DirectoryUnit)
TOO_FAST = schema.TOO_FAST

# test -> (workload, op, kind); kind: "char" (1-byte IO), "block" (chunk IO), "seek", "file"
_IO_TESTS = [
    ("putc", "seqwrite", "write", "char"),
    ("put_block", "seqwrite", "write", "block"),
    ("rewrite", "rewrite", "write", "block"),
    ("getc", "seqread", "read", "char"),
    ("get_block", "seqread", "read", "block"),
    ("seeks", "seeks", "read", "seek"),
]
_FILE_TESTS = [
    ("seq_create", "create", "total", "file"),
    ("seq_stat", "stat", "total", "file"),
    ("seq_del", "delete", "total", "file"),
    ("ran_create", "create", "total", "file"),
    ("ran_stat", "stat", "total", "file"),
    ("ran_del", "delete", "total", "file"),
]
_TESTS = {t: (w, o, k) for t, w, o, k in _IO_TESTS + _FILE_TESTS}
_RATE_METRIC = {"char": "bandwidth", "block": "bandwidth", "seek": "iops", "file": "ops"}

_IO_FIELDS = [x for t, *_ in _IO_TESTS for x in (t, f"{t}_cpu")]
_FILE_FIELDS = [x for t, *_ in _FILE_TESTS for x in (t, f"{t}_cpu")]
_RESULT_FIELDS = _IO_FIELDS + _FILE_FIELDS
_LAT_FIELDS = [f"{t}_latency" for t, *_ in _IO_TESTS + _FILE_TESTS]

# field layouts by format (names are ours). "slot_a"/"slot_b" are the
# columns the header calls num_dirs/file_chunk_size: bonnie++ writes the chunk size (if any) in the
# first and the number of directories in the second (bon_time.cpp DoReportFile).
_LAYOUT_103 = ["name", "file_size", *_IO_FIELDS, "num_files", *_FILE_FIELDS]
_HEAD_19X = ["format_version", "bonnie_version", "name", "concurrency", "seed", "file_size",
             "io_chunk_size"]
_TAIL_19X = [*_IO_FIELDS, "num_files", "max_size", "min_size", "slot_a", "slot_b", *_FILE_FIELDS,
             *_LAT_FIELDS]
_LAYOUT_196 = _HEAD_19X + _TAIL_19X
_LAYOUT_198 = _HEAD_19X + ["seek_count", "seek_proc_count"] + _TAIL_19X
assert len(_LAYOUT_103) == 27 and len(_LAYOUT_196) == 48 and len(_LAYOUT_198) == 50

# --- patterns -----------------------------------------------------------------------------------
_FORMAT_19X = re.compile(r"^(?:1\.9[3-9]|2\.\d{1,2})$")
_VERSION = re.compile(r"^\d+\.\d+[a-z]?$")
_CSV_19X_START = re.compile(r"^(?:1\.9[3-9]|2\.\d{1,2}),\d+\.\d+[a-z]?,")
_CSV2TXT_ERROR = re.compile(r"^Expected \S+, got ")
_SIZE_103 = re.compile(r"^\d+[KMGT](?::\d+[kmg]?)?$")  # 512M, 1G:32k
_SIZE = re.compile(r"^\d+[KMGT]$")
_CHUNK = re.compile(r"^\d+[kmg]?$")
_INT = re.compile(r"^\d+$")
_CSV_RATE = re.compile(r"^(?:\d+(?:\.\d+)?|\++)?$")
_CSV_CPU = re.compile(r"^(?:\d+|\++)?$")
# every rate and %CP field of a CSV row, with the pattern its cell must match
_RATE_CHECKS = [(name, _CSV_CPU if name.endswith("_cpu") else _CSV_RATE)
                for name in _IO_FIELDS + _FILE_FIELDS]
_CSV_LAT = re.compile(r"^(?:\d+(?:\.\d+)?(?:us|ms|s))?$")
_NUM_FILES = re.compile(
    r"^(?P<n>\d+)(?::(?P<max>\d+|link|symlink)(?::(?P<min>\d+))?)?(?:/(?P<dirs>\d+))?"
    r"(?::(?P<chunk>\d+[kmg]?))?$")
_MAX = re.compile(r"^(?:\d+|link|symlink)?$")

_IO_HDR = re.compile(r"^Version(\s+)(\S+)(\s+)-+Sequential Output-+")
_FILE_HDR = re.compile(r"^(?:Version(\s+)(\S+)|\s{10,})\s*-+Sequential Create-+")
_IO_SUB = re.compile(r"^(?:Concurrency\s+(\d+))?\s*-Per Chr- --Block-- -Rewrite- -Per Chr-")
_IO_COLS = re.compile(r"^(?:Machine\s+Size(?::chnk)?\s+K/sec|Name:Size etc\s+/sec)")
_FILE_SUB = re.compile(r"^(.*?)\s*-Create-- --Read--- -Delete-- -Create--")
_FILE_COLS = re.compile(r"^\s*files(?::max(?::min)?)?\s+/sec %CP")
_TXT_RATE = re.compile(r"^(?:\d+(?:\.\d+)?[kmg]?|\++)$")
_TXT_PLAIN = re.compile(r"^(?:\d+(?:\.\d+)?|\++)$")
_TXT_CPU = re.compile(r"^(?:\d+|\++)$")
_TXT_LAT = re.compile(r"^\d+(?:\.\d+)?(?:us|ms|s)$")
_DESC = 19  # width of the name/size column of the text table


@dataclass(slots=True)
class _Run:
    """One bonnie++ run (a CSV line, or a text report's row(s)) before it becomes tidy rows."""

    line: int
    fmt: str  # "csv 1.03" ... "text", "bon_csv2txt"
    version: str | None
    meta: dict = field(default_factory=dict)  # extra string columns (host, file_size, ...)
    threads: int | None = None
    chunk: int | None = None  # bytes, when the output states it
    # a CSV row: the text of each of its cells, :data:`_CSV_CELLS` order ("" when empty); its
    # ``cells`` are made from them only when the general path needs them (:func:`_csv_cells`)
    # (the fields a CSV row's run is made with come first: given by place, the quicker call)
    texts: tuple[str, ...] | None = None
    # a CSV row: the token of its settings fields (with its format) in :data:`_CSV_SETTINGS`
    # while its metadata is what they make of it (None once something changed it, or when they
    # are not kept): what the cached columns of its settings are keyed by
    settings: object | None = None
    # (test, kind, text, line): kind is "rate", "cpu" or "lat"; text as printed
    cells: list[tuple[str, str, str, int]] = field(default_factory=list)
    group_break: bool = False  # a CSV header row precedes this run
    native: bool = True  # text printed by bonnie++ itself (not bon_csv2txt)
    io_line: int | None = None  # text: line of the IO row (for CSV chunk recovery)
    text_scaled: bool = False  # 1.98+ text cells carry k/m/g suffixes


_META_KEYS = ("host", "file_size", "chunk_size", "num_files", "files", "max_size", "min_size",
              "dirs", "concurrency", "seed", "seeks", "seek_proc_count")


# --- sniff --------------------------------------------------------------------------------------
def sniff(head: str, name: str = "") -> str | None:
    """Say whether the start of a file is bonnie++ output, and which format.

    Parameters
    ----------
    head : str
        The first 64 KiB of the file.
    name : str
        The file name (unused: content decides).

    Returns
    -------
    str or None
        ``"csv 1.03"``, ``"csv 1.96"``, ``"csv 1.97"``, ``"csv 1.98"`` (a CSV data row),
        ``"csv"`` (only a CSV header row), ``"text"`` (bonnie++'s table), ``"bon_csv2txt"``,
        or ``None``.

    Examples
    --------
    >>> sniff("1.98,2.00a,vm,1,42,512M,,8192,5,,,466701,34,664719,32,,,+++++,+++,+++++,+++"
    ...       + "," * 19 + "251us,60us,,4040us,24070us" + "," * 6, "x.csv")
    'csv 1.98'
    >>> sniff("fio-3.33\\nread: IOPS=85.7k", "x.txt") is None
    True
    """
    return _first_row(head) or _sniff_lines(head)


def _first_row(head: str) -> str | None:
    """The verdict when the head's first line is a CSV data row with results (the sniff's
    first answer, whatever follows), else ``None``: the cheap way for the usual CSV file."""
    first = head.partition("\n")[0]
    if first.count(",") < 26 or len(first) >= 4096:  # (a long line: classified once, below)
        return None
    line = first.splitlines()[0]  # (as splitlines() cuts the head)
    if line.startswith(_CSV_HEADERS):
        return None
    try:
        got = _csv_row(line, "", 1)
    except ParseError:
        return None
    return f"csv {got[0]}" if got is not None and any(_RESULTS_OF[len(got[1])](got[1])) else None


def _sniff_lines(head: str) -> str | None:
    """:func:`sniff` looking at every line (that :func:`_worth_a_look` does not rule out)."""
    tables = _worth_a_look(head)
    if tables is None:
        return None
    fallback = None
    lines = head.splitlines()
    for i, line in enumerate(lines):  # (no line of splitlines() holds a "\r")
        if not tables and line.count(",") < 26 and not line.startswith(_CSV_HEADERS):
            continue  # neither a CSV row (27+ fields) nor a header: nothing to learn here
        if "," in line:
            if line.startswith(_CSV_HEADERS):
                fallback = fallback or "csv"
                continue
            try:
                got = _csv_row(line, "", i + 1)
            except ParseError:
                continue  # a truncated last line of the head, or not ours
            if got is not None and any(_RESULTS_OF[len(got[1])](got[1])):
                return f"csv {got[0]}"
        if tables and (fallback is None or fallback != "csv"):
            m = _IO_HDR.match(line) or _FILE_HDR.match(line)
            if m and m.group(2) is not None:
                fallback = fallback or ("bon_csv2txt" if _is_csv2txt(m) else "text")
            elif m or _IO_COLS.match(line):
                fallback = fallback or "text"
    return fallback


_CSV_HEADERS = ("format_version,bonnie_version,", "name,file_size,putc,")
# a line of 26 commas (from its first comma) or the rest of a CSV header from its first comma:
# one regex whose every try starts at a comma (a head without them is passed over in C)
_COMMA_CLUES = re.compile(r",(?:bonnie_version,|file_size,putc,|(?:[^,\n]*+,){25})")


def _worth_a_look(head: str) -> bool | None:
    """``None`` when no line of ``head`` can be bonnie++'s (tested in C: substring searches and
    one regex), else whether the head holds a table header's or column header's words. A line
    the sniff accepts is a CSV header, a data row (27 fields or more: 26 commas between two line
    breaks), a table header ("---Sequential Output/Create") or a column header ("Machine  Size",
    "Name:Size etc"). Two searches when none is there (both column headers say "Size"), not
    four: a sysbench report's sniff 5.0 -> 2.9 us."""
    tables = "-Sequential " in head or ("Size" in head and ("Machine" in head
                                                            or "Name:Size etc" in head))
    if tables or _comma_clue(head):
        return tables
    return None


def _comma_clue(head: str) -> bool:
    """Whether :data:`_COMMA_CLUES` finds a clue in ``head``, found from the texts between its
    commas when they are few (a comma followed by ``bonnie_version,`` or ``file_size,putc,``,
    or by 25 texts each without a line break and followed by a comma): the regex tries each
    comma and rescans the line after it (a 20 KB PTS composite.xml of 63 commas 19.7 -> 11.5
    us). A head of commas closer than 128 characters apart on average (a bonnie++ row, JSON:
    short texts between them, where the regex is quicker), or of more than
    :data:`_SPLIT_MOST`, goes to the regex.

    >>> pad = " " * 4096
    >>> _comma_clue(pad + ",x" * 26), _comma_clue(pad + ",x" * 25), _comma_clue(pad + ",x\\n" * 30)
    (True, False, False)
    >>> _comma_clue(pad + "n,file_size,putc,"), _comma_clue(pad + "n,file_size,putc")
    (True, False)
    """
    most = min(_SPLIT_MOST, len(head) >> 7)
    if most < 16 or head.count(",", 0, 4096) > 64:  # (a short head, or dense commas from its
        # start on: the regex at once, not a split cut short)
        return _COMMA_CLUES.search(head) is not None
    parts = head.split(",", most)
    if len(parts) > most:
        return _COMMA_CLUES.search(head) is not None
    inner = parts[1:-1]  # the texts between two commas
    if "bonnie_version" in inner:
        return True
    if "file_size" in inner and any(
            a == "file_size" and b == "putc" for a, b in zip(inner[:-1], inner[1:], strict=True)):
        return True
    if len(inner) < 25:
        return False
    return bytes(25) in bytes(map(operator.contains, inner, itertools.repeat("\n")))


_SPLIT_MOST = 256


def _is_csv2txt(m: re.Match) -> bool:
    """bon_csv2txt prints ``Version %9s   `` (version ends at column 17); bonnie++ itself
    ``Version %5s       `` (ends at column 13 or before)."""
    return m.end(2) >= 16


# --- CSV ----------------------------------------------------------------------------------------
def _csv_row(line: str, source: str, lineno: int) -> tuple[str, list[str]] | None:
    """Classify and split one CSV data line: ``(format, fields)`` (the fields of the format's
    layout, :data:`_LAYOUTS`: a machine name's commas joined), ``None`` if the line is not a
    bonnie++ data row at all, or ParseError when it is one but malformed."""
    got = _classify_cached(line) if len(line) < 4096 else _classify(line)
    if got is None or len(got) == 2:
        return got
    raise ParseError(source, lineno, got[1], found=got[2])


def _classify(line: str) -> tuple | None:
    """:func:`_csv_row` without the error's position: ``(format, fields)``, ``None``, or
    ``("bad", expected, found)``; a line of a shape seen accepted (:data:`_ROW_SHAPES`) is
    accepted without its checks."""
    key = (line[:line.find(",")], line.encode("utf-8", "surrogatepass").translate(_DIGITS_0))
    label = _ROW_SHAPES.get(key)
    if label is not None:
        return label, line.split(",")
    got = _classify_anew(line)
    if (got is not None and len(got) == 2 and len(line) < 1024 and len(_ROW_SHAPES) < 4096
            and got[1] == line.split(",")):
        _ROW_SHAPES[key] = got[0]
    return got


# Every rule of :func:`_classify_anew` looks at a digit through ``\d`` (any digit alike), but
# for the format field (looked at as it is): two lines of the same first field whose other
# characters differ only by one ASCII digit for another (the same "shape": UTF-8 with every
# ASCII digit made 0) get the same verdict, and rows accepted as split (no comma in a machine
# name, no field put back) the same format. (first field, shape) -> format of such rows
# (bounded, short lines: a hostile folder cannot grow it without end)
_DIGITS_0 = bytes.maketrans(b"123456789", b"000000000")
_ROW_SHAPES: dict[tuple, str] = {}


def _classify_anew(line: str) -> tuple | None:
    """:func:`_classify` by every rule."""
    fields = line.split(",")
    n = len(fields)
    if _CSV_19X_START.match(line):
        return _classify_19x(line, fields)
    if line.startswith("Expected ") and _CSV2TXT_ERROR.match(line) or line.count(",") < 3:
        return None
    if n >= 27:
        extra = n - 27
        parts = [",".join(fields[:1 + extra])] + fields[1 + extra:]
        named = dict(zip(_LAYOUT_103, parts, strict=True))
        problem = _check_103(named)
        if problem is None:
            return "1.03", parts
        if line.count(",") < 26 or not _SIZE_103.match(fields[1 + extra]):
            if not any(_SIZE_103.match(f) for f in fields[1:4]):
                return None
        return "bad", "a bonnie++ 1.0x CSV row of 27 fields", f"{problem}: {line}"
    if any(_SIZE_103.match(f) for f in fields[1:4]):  # a cut 1.0x row: name,512M,...
        return "bad", "a bonnie++ 1.0x CSV row of 27 fields", f"{n} fields: {line}"
    return None


def _classify_19x(line: str, fields: list[str]) -> tuple:
    """:func:`_classify` of a row that starts as a 1.9x row does (``1.98,2.00a,``)."""
    n = len(fields)
    fmt = fields[0]
    got = _FORMATS_19X.get(fmt)
    if got is None:
        got = _FORMATS_19X[fmt] = _format_19x(fmt)  # (117 at most: the start's pattern)
    new, layout, label, shifts = got
    base = len(layout)
    problem = None
    for shift in shifts:
        extra = n - base + shift  # fields a comma in the machine name added
        if extra < 0:
            continue
        if extra == 0 and shift == 0 and _FIELDS_OK[new].fullmatch(line):
            # every field as :func:`_check_19x` wants it (one match in C): only the rules
            # between fields are left to check
            problem = _check_19x_between(fields)
            if problem is None:
                return label, fields
            continue
        parts = fields[:2] + [",".join(fields[2:3 + extra])] + fields[3 + extra:]
        if shift:  # 1.96 -s 0: one of the 14 empty IO fields is missing
            if any(parts[5:18]):
                continue
            parts.insert(5, "")
        named = dict(zip(layout, parts, strict=True))
        problem = _check_19x(named, label)
        if problem is None:
            return label, parts
    found = f"{n} fields" + (f", {problem}" if problem else "")
    return ("bad", f"a bonnie++ {label} CSV row of {base} fields ({_ARTICLE[label]})",
            f"{found}: {line}")


def _format_19x(fmt: str) -> tuple:
    """(1.98 layout?, layout, label, shifts to try) of a 1.9x row's format field."""
    new = bool(_FORMAT_19X.match(fmt)) and float(fmt) >= 1.98
    return (new, _LAYOUT_198 if new else _LAYOUT_196, "1.98" if new else fmt,
            (0, 1) if (not new and float(fmt) < 1.97) else (0,))


_FORMATS_19X: dict[str, tuple] = {}


# the sniff classifies the first data row and the parse then the same row again: the second
# time is a cache hit (the fields list is shared, never modified; long lines are not kept)
_classify_cached = functools.lru_cache(maxsize=4)(_classify)

_ARTICLE = {"1.98": "format 1.98: 1.98, 2.00, 2.00a", "1.03": "1.0x"}
for _v in ("1.93", "1.94", "1.95", "1.96", "1.97"):
    _ARTICLE[_v] = f"format {_v}"


def _bad(name: str, value: str) -> str:
    return f"field {name} = {value!r}"


# the same checks as one match of the fields joined by commas (no field holds a comma)
_RATE_FIELDS = operator.itemgetter(*(name for name, _ in _RATE_CHECKS))
_RATES_OK = re.compile(",".join(p.pattern[1:-1] for _, p in _RATE_CHECKS))
_LAT_VALUES = operator.itemgetter(*_LAT_FIELDS)
_LATS_OK = re.compile(",".join([_CSV_LAT.pattern[1:-1]] * len(_LAT_FIELDS)))


def _check_rates(named: dict) -> str | None:
    if _RATES_OK.fullmatch(",".join(_RATE_FIELDS(named))):
        return None
    for name, pattern in _RATE_CHECKS:
        if not pattern.match(named[name]):
            return _bad(name, named[name])
    return None


# the structure rule: a key and the fields that must be empty without it (latency fields too)
_STRUCTURE = [(key, [(name, name.endswith("_latency")) for test in tests
                     for name in (test, f"{test}_cpu", f"{test}_latency")])
              for key, tests in (("file_size", [t for t, *_ in _IO_TESTS]),
                                 ("num_files", [t for t, *_ in _FILE_TESTS]))]


# the names _check_structure looks at, by key and whether latency fields count
_STRUCTURE_NAMES = {(key, latency): [name for name, is_lat in names if latency or not is_lat]
                    for key, names in _STRUCTURE for latency in (False, True)}


def _check_structure(named: dict, latency: bool) -> str | None:
    """bonnie++ writes IO results only with a file size and file results only with a file count
    (bon_time.cpp): a row breaking this is misaligned (a wrong number of commas somewhere)."""
    for key, names in _STRUCTURE:
        if named[key] or not any(map(named.__getitem__, _STRUCTURE_NAMES[key, latency])):
            continue  # (all of them empty: judged in C)
        for name, is_latency in names:
            if (latency or not is_latency) and named[name]:
                return f"{_bad(name, named[name])} but {key} is empty"
    return None


def _check_103(named: dict) -> str | None:
    if named["file_size"] and not _SIZE_103.match(named["file_size"]):
        return _bad("file_size", named["file_size"])
    if named["num_files"] and not _NUM_FILES.match(named["num_files"]):
        return _bad("num_files", named["num_files"])
    return _check_rates(named) or _check_structure(named, False)


def _check_19x(named: dict, label: str) -> str | None:
    if not _VERSION.match(named["bonnie_version"]):
        return _bad("bonnie_version", named["bonnie_version"])
    if not _INT.match(named["concurrency"]):
        return _bad("concurrency", named["concurrency"])
    if named["file_size"] and not _SIZE.match(named["file_size"]):
        return _bad("file_size", named["file_size"])
    if named["io_chunk_size"] and not _CHUNK.match(named["io_chunk_size"]):
        return _bad("io_chunk_size", named["io_chunk_size"])
    for name in ("seek_count", "seek_proc_count", "num_files", "min_size"):
        if name in named and named[name] and not _INT.match(named[name]):
            return _bad(name, named[name])
    if not _MAX.match(named["max_size"]):
        return _bad("max_size", named["max_size"])
    for name in ("slot_a", "slot_b"):
        if named[name] and not _CHUNK.match(named[name]):
            return _bad("num_dirs/file_chunk_size", named[name])
    if not _LATS_OK.fullmatch(",".join(_LAT_VALUES(named))):
        for name in _LAT_FIELDS:
            if not _CSV_LAT.match(named[name]):
                return _bad(name, named[name])
    if "seek_count" in named and named["file_size"] and not named["seek_count"]:
        return _bad("seeks", "") + " with a file size"
    return _check_rates(named) or _check_structure(named, True)


def _check_19x_between(fields: list[str]) -> str | None:
    """What :func:`_check_19x` finds in a row (the fields of :data:`_LAYOUT_198` or
    :data:`_LAYOUT_196`) whose every field has its own form (the rules between fields), in the
    same order."""
    at = _AT[len(fields)]
    if len(fields) == 50 and fields[at["file_size"]] and not fields[at["seek_count"]]:
        return _bad("seeks", "") + " with a file size"
    for key, names, of in _STRUCTURE_AT[len(fields)]:  # _check_structure(named, True)
        if fields[at[key]] or not any(of(fields)):
            continue  # (all of them empty: judged in C)
        for name in names:
            if fields[at[name]]:
                return f"{_bad(name, fields[at[name]])} but {key} is empty"
    return None


# the field layouts by field count, and the place of each name in them
_LAYOUTS = {len(layout): layout for layout in (_LAYOUT_103, _LAYOUT_196, _LAYOUT_198)}
_AT = {n: {name: i for i, name in enumerate(layout)} for n, layout in _LAYOUTS.items()}
# _STRUCTURE (latency fields counted) by field count: key, names, their fields picked in C
_STRUCTURE_AT = {n: [(key, [name for name, _ in names], operator.itemgetter(
    *(_AT[n][name] for name, _ in names))) for key, names in _STRUCTURE]
    for n in (48, 50)}
# the rate and %CP fields of a row, by field count (any of them: a row with results)
_RESULTS_OF = {n: operator.itemgetter(*(_AT[n][name] for name in _RESULT_FIELDS))
               for n in _LAYOUTS}


def _fields_ok(layout: list[str]) -> re.Pattern:
    """One pattern for a whole 1.9x row of ``layout`` (no comma in the machine name) that
    matches exactly when every field passes its own check in :func:`_check_19x` (each field's
    pattern is that check's pattern; unchecked fields are any text without a comma)."""
    own = {"bonnie_version": _VERSION, "concurrency": _INT, "max_size": _MAX}
    optional = {"file_size": _SIZE, "io_chunk_size": _CHUNK, "seek_count": _INT,
                "seek_proc_count": _INT, "num_files": _INT, "min_size": _INT, "slot_a": _CHUNK,
                "slot_b": _CHUNK}
    own.update((name, _CSV_LAT) for name in _LAT_FIELDS)
    own.update(_RATE_CHECKS)

    def form(name: str) -> str:
        if name in own:
            return f"(?:{own[name].pattern[1:-1]})"
        if name in optional:
            return f"(?:{optional[name].pattern[1:-1]})?"
        return "[^,]*"

    # possessive (no field's digits, pluses, optional parts or text given back: a field is
    # followed by a comma or the end, which none of them matches, so what a field's part takes
    # is the only way to reach that comma; the possessive form accepts no more rows, and its
    # optional groups skip the backtracking marks of a plain '?': 2.8 -> 1.7 us a 1.98 row)
    joined = ",".join(map(form, layout))
    return re.compile(joined.replace(r"\d+", r"\d++").replace(r"\++", r"\+++")
                      .replace("[^,]*", "[^,]*+").replace(")?", ")?+"))


_FIELDS_OK = {False: _fields_ok(_LAYOUT_196), True: _fields_ok(_LAYOUT_198)}  # by "new"


def _files_meta(n: str | None, max_size: str | None, min_size: str | None, dirs: str | None,
                chunk: str | None = None) -> dict:
    """The file-test columns, plus ``num_files`` in bonnie's own ``n:max:min/dirs`` spelling."""
    if not n:
        return {}
    spec = n
    if max_size:
        spec += f":{max_size}"
        if min_size:
            spec += f":{min_size}"
    if dirs:
        spec += f"/{dirs}"
    out = {"num_files": spec, "files": str(int(n) * FILES_UNIT), "max_size": max_size or None,
           "min_size": min_size or None, "dirs": dirs or None}
    if chunk:
        out["file_chunk_size"] = chunk
    return out


def _parse_num_files(spec: str) -> dict:
    m = _NUM_FILES.match(spec)
    if not m:
        raise ValueError(f"not a file-test spec: {spec!r}")
    out = _files_meta(m["n"], m["max"], m["min"], m["dirs"], m["chunk"])
    out["num_files"] = spec  # verbatim
    return out


def _dirs_and_chunk(a: str, b: str) -> tuple[str | None, str | None]:
    """(dirs, chunk) from the two columns the header calls num_dirs, file_chunk_size.

    bonnie++ 1.96–2.00a write the file chunk size (if not default) in the first and the number
    of directories in the second (bon_time.cpp ``DoReportFile``), the reverse of the header. So:
    a value with a k/m/g suffix is a chunk size; otherwise the second column holds the
    directories, and a lone plain integer is a directory count.
    """
    if a and b:
        if not _INT.match(a) or _INT.match(b):
            return b, a
        return a, b
    value = a or b
    if not value:
        return None, None
    return (value, None) if _INT.match(value) else (None, value)


def _run_from_csv(fmt: str, fields: list[str], lineno: int) -> _Run:
    """The run of a CSV row (its fields, :func:`_csv_row`)."""
    n = len(fields)
    key = (fmt, _SETTING_FIELDS[n](fields))
    settings = _CSV_SETTINGS.get(key)
    if settings is None:  # (a ValueError is raised again by every row that has it)
        settings = _csv_settings(fmt, dict(zip(_LAYOUTS[n], fields, strict=True)))
        if len(_CSV_SETTINGS) < 4096:  # kept with its token: one object per settings kept
            settings += (_SettingsToken(),)
            _CSV_SETTINGS[key] = settings
        else:
            settings += (None,)  # (not kept: nothing is kept by it either)
    label, version, threads, chunk, meta, token = settings
    meta = meta.copy()
    if n != 27:  # 1.9x: the seed
        meta["seed"] = fields[4] or None
        texts = _CELL_TEXTS[n](fields)
    else:  # 1.0x: no latency field
        texts = _CELL_TEXTS[n]((*fields, ""))
    # (by place: line, fmt, version, meta, threads, chunk, texts, settings)
    return _Run(lineno, label, version, meta, threads, chunk, texts, token)


def _csv_settings(fmt: str, named: dict) -> tuple:
    """What a CSV row's settings fields (all but its seed and cells) make of it: format, version,
    concurrency, chunk (bytes) and the metadata columns (a 1.9x row's seed left to fill)."""
    meta = {"host": named["name"] or None}
    if fmt == "1.03":
        version = "1.03"
        size, _, chunk = named["file_size"].partition(":")
        meta.update(file_size=size or None, chunk_size=chunk or None)
        threads = 1
        if named["num_files"]:
            meta.update(_parse_num_files(named["num_files"]))
    else:
        version = named["bonnie_version"]
        meta.update(file_size=named["file_size"] or None,
                    chunk_size=named["io_chunk_size"] or None,
                    concurrency=named["concurrency"], seed=None)
        threads = int(named["concurrency"])
        if "seek_count" in named:
            meta.update(seeks=named["seek_count"] or None,
                        seek_proc_count=named["seek_proc_count"] or None)
        dirs, fchunk = _dirs_and_chunk(named["slot_a"], named["slot_b"])
        meta.update(_files_meta(named["num_files"], named["max_size"], named["min_size"], dirs,
                                fchunk))
    chunk = meta.get("chunk_size")
    return (f"csv {fmt}", version, threads, int(units.binary_size(chunk)) if chunk else None,
            meta)


# a CSV row's settings fields (every field but the seed and the cells), by its field count
_SETTING_FIELDS = {n: operator.itemgetter(*(
    i for i, name in enumerate(layout) if name not in {"seed", *_RESULT_FIELDS, *_LAT_FIELDS}))
    for n, layout in _LAYOUTS.items()}
assert all(layout[4] == "seed" for layout in (_LAYOUT_196, _LAYOUT_198))
# settings fields -> what _csv_settings makes of them and a token of those settings (bounded: a
# hostile folder cannot grow it; the metadata dict is copied for each run, never modified)
_CSV_SETTINGS: dict[tuple, tuple] = {}


class _SettingsToken:
    """Stands for one key of :data:`_CSV_SETTINGS` (compared and hashed by identity: a key of
    the columns kept per file, cheaper than the settings fields)."""

    __slots__ = ()


def _csv_cells(run: _Run) -> list[tuple[str, str, str, int]]:
    """The cells of a CSV run (its non-empty texts), as a text run lists them."""
    return list(itertools.compress(zip(_CSV_CELL_TESTS, _CSV_CELL_KINDS, run.texts,
                                       itertools.repeat(run.line)), run.texts))


# the cells of a CSV row: (test, kind, field), in the order of the rows they become
_CSV_CELLS = [(test, kind, key) for test, *_ in _IO_TESTS + _FILE_TESTS
              for kind, key in (("rate", test), ("cpu", f"{test}_cpu"),
                                ("lat", f"{test}_latency"))]
_CSV_CELL_TESTS, _CSV_CELL_KINDS, _CSV_CELL_KEYS = (list(x) for x in zip(*_CSV_CELLS, strict=True))
# a row's cell texts in that order, by its field count (a 1.0x row's latency cells: the "" the
# caller appends after its 27 fields)
_CELL_TEXTS = {n: operator.itemgetter(*(_AT[n].get(key, 27) for key in _CSV_CELL_KEYS))
               for n in _LAYOUTS}


# --- text ---------------------------------------------------------------------------------------
def _slots(line: str, start: int, widths: list[int], complete: bool = True) -> list[str]:
    """Cells of a fixed-width row whose numbers may overflow their width (printf ``%5d`` of a
    6-digit number pushes the rest right): an all-blank slot is an empty cell, otherwise the cell
    is the next token and the following slot starts where it ends.

    printf right-aligns every cell, so a token always ends at its slot's end or beyond; one that
    ends before is a cut or mangled row (ValueError). ``complete`` rows must reach their last
    slot: bonnie++ prints every slot (blank ones as spaces), and the last test of each table
    (seeks, ran_del) always runs, so a shorter row was cut.
    """
    out = []
    pos = start
    for w in widths:
        seg = line[pos:pos + w]
        if complete and len(seg) < w and not seg.strip():
            raise ValueError(f"the row ends after {len(out)} of {len(widths)} cells")
        if not seg.strip():
            out.append("")
            pos += w
            continue
        i = pos + (len(seg) - len(seg.lstrip()))
        j = line.find(" ", i)
        j = len(line) if j < 0 else j
        if j < pos + w:
            raise ValueError(f"cell {line[i:j]!r} at column {i + 1} is not right-aligned in "
                             f"its column (cut or re-spaced row)")
        out.append(line[i:j])
        pos = j
    if line[pos:].strip():
        raise ValueError(f"unexpected text after the last column: {line[pos:].strip()!r}")
    return out


def _desc_end(line: str) -> int:
    end = _DESC
    while end < len(line) and line[end] != " ":
        end += 1
    return end


def _split_desc(desc: str, pattern: re.Pattern) -> tuple[str | None, str | None]:
    """(name, spec) of the first column: ``vm             512M`` -> (``vm``, ``512M``)."""
    text = desc.strip()
    if not text:
        return None, None
    head, _, last = text.rpartition(" ")
    if pattern.match(last):
        return (head.strip() or None), last
    return text, None


_TXT_SIZE = re.compile(r"^\d+[KMGT](?::[^ ]*)?$")
_TXT_FILES = re.compile(r"^\d+(?::(?:\d+|link|symlink))*(?:/\d+)?(?::\d+[kmg]?)?$")


class _TextError(Exception):
    def __init__(self, lineno: int, expected: str, found: str):
        super().__init__(expected)
        self.lineno, self.expected, self.found = lineno, expected, found


def _row_cells(line: str, lineno: int, tests, rate_ok: re.Pattern, what: str) -> list:
    end = _desc_end(line)
    try:
        cells = _slots(line, end, [6, 4] * 6)
    except ValueError as exc:
        raise _TextError(lineno, what, str(exc)) from exc
    out = []
    for k, (test, *_rest) in enumerate(tests):
        rate, cpu = cells[2 * k], cells[2 * k + 1]
        kind = _TESTS[test][2]
        pattern = rate_ok if kind in ("char", "block") else _TXT_PLAIN
        if rate and not pattern.match(rate):
            raise _TextError(lineno, f"{what}: a {test} rate", rate)
        if cpu and not _TXT_CPU.match(cpu):
            raise _TextError(lineno, f"{what}: a {test} %CP", cpu)
        if rate:
            out.append((test, "rate", rate, lineno))
        if cpu:
            out.append((test, "cpu", cpu, lineno))
    return out


def _latency_cells(line: str, lineno: int, tests) -> list:
    try:
        cells = _slots(line, 17, [10] * 6)
    except ValueError as exc:
        raise _TextError(lineno, "a Latency row of 6 cells", str(exc)) from exc
    out = []
    for (test, *_rest), cell in zip(tests, cells, strict=True):
        if cell:
            if not _TXT_LAT.match(cell):
                raise _TextError(lineno, f"a {test} latency like 512ms or 44660us", cell)
            out.append((test, "lat", cell, lineno))
    return out


def _block_end(line: str) -> bool:
    return (not line.strip() or bool(_IO_HDR.match(line) or _FILE_HDR.match(line))
            or bool(_CSV_19X_START.match(line)) or line.count(",") >= 10
            or line.startswith("Version"))


def _looks_like_row(line: str) -> bool:
    return len(line) > _DESC and len(line[_desc_end(line):].split()) >= 2


@dataclass
class _Table:
    """The header of one text table (IO or file tests) starting at line index ``start``."""

    io: bool
    start: int
    version: str | None
    csv2txt: bool
    concurrency: str | None = None
    scaled: bool = False  # 1.98+ "Name:Size etc" header: cells carry k/m/g suffixes
    file_host: str | None = None


# the two text tables (IO table?): (sub-header pattern, what it must be, column header
# pattern, what it must be)
_TEXT_TABLES = {
    True: (_IO_SUB, "the -Per Chr- --Block-- sub-header of the bonnie++ table", _IO_COLS,
           "the 'Machine  Size' or 'Name:Size etc' column header"),
    False: (_FILE_SUB, "the -Create-- --Read--- sub-header of the bonnie++ file table",
            _FILE_COLS, "the 'files  /sec %CP' column header"),
}


def _table(lines: list[str], i: int, m_io: re.Match | None, m_file: re.Match | None) -> _Table:
    """The table whose header line is ``lines[i]``, its two sub-header lines checked."""
    io = m_io is not None
    m = m_io or m_file
    n = len(lines)
    version = m.group(2)
    table = _Table(io, i, version, version is not None and _is_csv2txt(m))
    sub = lines[i + 1] if i + 1 < n else ""
    cols = lines[i + 2] if i + 2 < n else ""
    sub_re, sub_what, cols_re, cols_what = _TEXT_TABLES[io]
    ms = sub_re.match(sub)
    if not ms:
        raise _TextError(i + 2, sub_what, sub)
    if not cols_re.match(cols):
        raise _TextError(i + 3, cols_what, cols)
    if io:
        table.concurrency = ms.group(1)
        table.scaled = cols.startswith("Name:Size")
    else:
        table.file_host = ms.group(1).strip() or None
    return table


def _text_run(row: str, j: int, t: _Table) -> tuple[_Run, str]:
    """A new run for table row ``j`` (line ``j + 1``), and the row's description cell."""
    run = _Run(line=j + 1, fmt="bon_csv2txt" if t.csv2txt else "text", version=t.version,
               native=not t.csv2txt)
    return run, row[:_desc_end(row)]


def _io_run(row: str, j: int, t: _Table) -> _Run:
    """The run of one IO table row (line index ``j``)."""
    run, desc = _text_run(row, j, t)
    name, size = _split_desc(desc, _TXT_SIZE)
    if size is None:
        raise _TextError(j + 1, "a machine name and size like 'vm   512M'", desc)
    run.io_line = j + 1
    run.text_scaled = t.scaled
    run.meta = _text_io_meta(name, size, t.concurrency, t.csv2txt, t.scaled)
    try:
        run.threads = int(run.meta["concurrency"]) if run.meta.get("concurrency") else (
            1 if not t.scaled and t.version and t.version.startswith("1.0") else None)
        if run.meta.get("chunk_size"):
            run.chunk = int(units.binary_size(run.meta["chunk_size"]))
    except (ValueError, OverflowError) as exc:
        raise _TextError(j + 1, "a size like '512M', '512M:64k' or '512M::2'", size) from exc
    run.cells = _row_cells(row, j + 1, _IO_TESTS, _TXT_RATE if t.scaled else _TXT_PLAIN,
                           "a bonnie++ IO table row")
    return run


def _file_run(row: str, j: int, t: _Table) -> _Run:
    """The run of one file table row (line index ``j``)."""
    run, desc = _text_run(row, j, t)
    name, spec = _split_desc(desc, _TXT_FILES)
    if spec is None:
        raise _TextError(j + 1, "a file-test spec like '16' or '1:4096:512/2'", desc)
    try:
        run.meta = {"host": name or t.file_host, **_parse_num_files(spec)}
    except ValueError as exc:
        raise _TextError(j + 1, "a file-test spec like '16' or '1:4096:512/2'", spec) from exc
    run.cells = _row_cells(row, j + 1, _FILE_TESTS, _TXT_PLAIN, "a bonnie++ file table row")
    return run


def _table_rows(lines: list[str], t: _Table, notes: list[str] | None = None
                ) -> tuple[list[_Run], int]:
    """The runs of a table's rows (Latency rows join the row above), and the index after. A
    line after a Latency row that is no row of the table (a ``date`` a shell loop printed
    between runs: ``Thu Oct 30 08:40:38 PDT 2014``) ends the table, said in ``notes``; where
    no note can be kept, or before any Latency row, it is refused."""
    n = len(lines)
    j = t.start + 3
    block: list[_Run] = []
    after_latency = False
    while j < n:
        row = lines[j]
        if row.startswith("Latency"):
            if not block:
                raise _TextError(j + 1, "a table row before the Latency row", row)
            block[-1].cells += _latency_cells(row, j + 1, _IO_TESTS if t.io else _FILE_TESTS)
            after_latency = True
        elif row.strip() and "Latency".startswith(row.strip()):
            raise _TextError(j + 1, "a Latency row", row)
        elif _block_end(row) or not _looks_like_row(row):
            break
        else:
            try:
                block.append((_io_run if t.io else _file_run)(row, j, t))
            except _TextError as exc:
                if not after_latency or notes is None:
                    raise
                notes.append(f"line {j + 1}: not a row of the table above ({exc.expected}), "
                             f"left out: {row.strip()[:100]!r}")
                return block, j + 1
            after_latency = False
        j += 1
    if not block:
        raise _TextError(j + 1, "a data row under the bonnie++ table header",
                         lines[j] if j < n else "end of file")
    return block, j


def _same_report(last_io: tuple[_Run, int] | None, t: _Table, block: list[_Run]) -> bool:
    """A one-row file table right under a one-row IO table of the same host: one run."""
    if last_io is None or last_io[1] != t.start or len(block) != 1:
        return False
    host, fh = last_io[0].meta.get("host"), t.file_host
    return fh is None or host in (None, fh) or fh.startswith(host or "")


def _text_runs(lines: list[str], notes: list[str] | None = None) -> list[_Run]:
    """Every table of the text report, as runs (an IO row and the file row of the same report
    are one run). Raises _TextError on a malformed table row (see :func:`_table_rows`)."""
    runs: list[_Run] = []
    i, n = 0, len(lines)
    last_io: tuple[_Run, int] | None = None  # (single-row IO run, index after its block)
    while i < n:
        line = lines[i]
        io, fl = _IO_HDR.match(line), _FILE_HDR.match(line)
        if not io and not fl:
            i += 1
            continue
        t = _table(lines, i, io, fl)
        block, j = _table_rows(lines, t, notes)
        if t.io:
            runs += block
            last_io = (block[0], j) if len(block) == 1 and not t.csv2txt else None
        else:
            if _same_report(last_io, t, block):
                io_run = last_io[0]  # same report: one run
                io_run.meta.update({k: v for k, v in block[0].meta.items() if k != "host"})
                io_run.cells += block[0].cells
            else:
                runs += block
            last_io = None
        i = j
    return runs


def _text_io_meta(name, size, concurrency, csv2txt, scaled) -> dict:
    """Metadata from the table's name/size column. ``size[:chunk]`` in 1.0x–1.97; bonnie++
    2.00a prints ``size:chunk:concurrency:seeks`` and bon_csv2txt ``size:chunk:seeks:procs``
    (trailing empty parts dropped)."""
    parts = size.split(":")
    meta = {"host": name, "file_size": parts[0], "chunk_size": (parts[1] or None)
            if len(parts) > 1 else None}
    if csv2txt:
        meta["seeks"] = parts[2] if len(parts) > 2 and parts[2] else None
        meta["seek_proc_count"] = parts[3] if len(parts) > 3 and parts[3] else None
    elif scaled:
        meta["concurrency"] = parts[2] if len(parts) > 2 and parts[2] else "1"
        meta["seeks"] = parts[3] if len(parts) > 3 and parts[3] else None
    else:
        meta["concurrency"] = concurrency
    return meta


# --- values -------------------------------------------------------------------------------------
def _value(test: str, kind: str, text: str, source: str, lineno: int
           ) -> tuple[str, float, str | None]:
    """(metric, canonical value, flag) of one cell; a figure out of range is a ParseError."""
    what = (test, kind, "figure")
    if kind == "lat":
        return "lat_max", number(units.duration(text), source, lineno, what, found=text), None
    if kind == "cpu":
        if text.startswith("+"):
            return "cpu", math.nan, TOO_FAST
        return "cpu", number(text, source, lineno, what), None
    metric = _RATE_METRIC[_TESTS[test][2]]
    if text.startswith("+"):
        return metric, math.nan, TOO_FAST
    if metric == "bandwidth":
        if text[-1] in "kmg":  # 2.00a text: KiB/MiB/GiB per second
            return metric, number(units.scaled(text, binary=True), source, lineno, what,
                                  found=text), None
        return metric, number(text, source, lineno, what, scale=units.KiB), None  # K/sec = KiB/s
    return metric, number(text, source, lineno, what), None


# the columns with one value per row (cell), and those with one value per run
_CELL_COLUMNS = ("position", "test", "workload", "op", "block_size", "metric", "value", "flag")


# (test, kind) -> (workload, op, block-size kind, metric, scale of a plain rate/%CP number)
_CELL_INFO = {(t, kind): (w, o, k, "lat_max" if kind == "lat" else "cpu" if kind == "cpu"
                          else _RATE_METRIC[k],
                          units.KiB if kind == "rate" and _RATE_METRIC[k] == "bandwidth" else 1.0)
              for t, (w, o, k) in _TESTS.items() for kind in ("rate", "cpu", "lat")}


def _run_rows(run: _Run, source: str, chunk_default: int, rows: list[tuple]) -> int:
    """Append the rows of one run's cells to ``rows`` (tuples in :data:`_CELL_COLUMNS` order);
    how many."""
    chunk = run.chunk or chunk_default
    for what, v in (("concurrency", run.threads), ("chunk size", chunk)):
        if v is not None and not 0 <= v < 2**63:  # the frame's integers are 64-bit
            raise ParseError(source, run.line, f"a {what} within 64 bits", found=str(v))
    sizes = {"char": 1, "block": chunk, "seek": chunk, "file": None}
    csv2txt = not run.native and run.text_scaled
    position, at = "", None
    for test, kind, text, lineno in run.cells:
        workload, op, bkind, metric, scale = _CELL_INFO[test, kind]
        if lineno != at:
            position, at = f"line {lineno}", lineno
        flag = None
        if kind == "lat":
            value = _LATENCY_SECONDS.get(text)
            if value is None:
                metric, value, flag = _value(test, kind, text, source, lineno)
                if len(_LATENCY_SECONDS) < 4096:
                    _LATENCY_SECONDS[text] = value
        elif text[0] == "+":  # +++++: too fast to measure
            value, flag = math.nan, TOO_FAST
        elif (csv2txt and kind == "rate" and text in ("0k", "0")
              and any(t == test and k == "cpu" and c.startswith("+")
                      for t, k, c, _ in run.cells)):
            value, flag = math.nan, TOO_FAST  # bon_csv2txt renders +++++ as "0k" next to +++
        elif text[-1] in "kmg":  # a 2.00a text cell (1143k)
            metric, value, flag = _value(test, kind, text, source, lineno)
        else:  # digits (the row's patterns checked them): finite unless too long for a float
            value = float(text) * scale
            if value - value != 0:
                value = number(text, source, lineno, (test, kind, "figure"), scale=scale)
        rows.append((position, test, workload, op, sizes[bkind], metric, value, flag))
    return len(run.cells)


def _run_values(run: _Run, repetition: int) -> dict:
    """The values every row of a run shares."""
    meta = run.meta
    values = {"run_key": f"line {run.line} rep {repetition}" if repetition else
              f"line {run.line}", "tool_version": run.version, "threads": run.threads,
              "repetition": repetition}
    values.update(zip(_META_KEYS, map(meta.get, _META_KEYS), strict=True))  # (not run keys)
    if not meta.keys() <= _META_SET:  # then the others, in their order
        values.update((k, v) for k, v in meta.items() if k not in _META_SET)
    return values


_META_SET = frozenset(_META_KEYS)


def _group_key(run: _Run) -> tuple:
    m = run.meta
    return (run.fmt, run.version, m.get("host"), m.get("file_size"), m.get("chunk_size"),
            m.get("num_files"), m.get("concurrency"))  # (not the seed: see the module doc)


# --- parse --------------------------------------------------------------------------------------
def parse(text: str, source: str, *, chunk_size: str | int | None = None, **options) -> Parsed:
    """Parse bonnie++ output (CSV rows or the text report) into tidy records.

    Parameters
    ----------
    text : str
        The whole output file.
    source : str
        The file name, for provenance and errors.
    chunk_size : str or int, optional
        IO chunk size to assume when the output does not state it (``"64k"`` or bytes); 2.00a
        leaves ``io_chunk_size`` empty even for ``-s 512:64k``. Default 8192 (bonnie's default).
    **options
        Accepted and ignored, so that a folder read can pass one option set to every reader.

    Returns
    -------
    Parsed

    Raises
    ------
    ParseError
        A malformed CSV row or table row (with its line), or a file with neither.

    Examples
    --------
    >>> p = parse("vm,512M,,,529610,43,1040537,44,,,+++++,+++,+++++,+++,,,,,,,,,,,,,", "a.csv")
    >>> p.format, p.records[0]["test"], p.records[0]["value"]  # 529610 KiB/s * 1024
    ('csv 1.03', 'put_block', 542320640.0)
    """
    parsed = _parse(text, source, chunk_size)
    parsed.records = records_of(parsed.columns)  # rows as dicts for whoever looks at them
    return parsed


def _parse(text: str, source: str, chunk_size: str | int | None = None) -> Parsed:
    """:func:`parse`, the rows left as columns (what the folder read takes)."""
    default_chunk = _default_chunk(chunk_size, source)
    lines = text.splitlines()  # (no line of it holds a "\r")
    notes: list[str] = []
    csv_runs, stray = _csv_runs(lines, source, notes)
    text_runs: list[_Run] = []
    text_notes: list[str] = []  # (what the tables' read noted: kept where the tables are read)
    text_error: _TextError | None = None
    try:  # every table header says "Sequential Output" or "Sequential Create"
        text_runs = _text_runs(lines, text_notes) if "Sequential " in text else []
    except _TextError as exc:
        text_error = exc
    except ValueError as exc:  # a size or number the table should not hold
        text_error = _TextError(0, "a bonnie++ text table", str(exc))
    if csv_runs:
        if stray:  # a corrupted line among CSV rows: refused, never skipped
            k = stray[0]
            raise ParseError(source, k + 1, "a bonnie++ CSV row (the other lines of this CSV "
                             "output are rows; this one is corrupted)", found=lines[k][:120])
        runs = _without_copies(csv_runs, lines, notes)
        if text_runs or text_error:
            notes.append("text table ignored: the CSV rows of the same output are exact")
        else:
            _other_lines(lines, notes)
        _from_tables(csv_runs, text_runs, notes)
    elif text_error is not None:
        raise ParseError(source, text_error.lineno or None, text_error.expected,
                         found=text_error.found)
    elif text_runs:
        runs = text_runs
        notes += text_notes
        _unsure_file_rates(runs, notes)
    else:
        first = next((ln.strip() for ln in lines if ln.strip()), "an empty file")
        where = next((k + 1 for k, ln in enumerate(lines) if ln.strip()), None)
        raise ParseError(source, where, "a bonnie++ CSV row or text report", found=first)
    return Parsed(tool=TOOL, format=runs[0].fmt, version=runs[0].version,
                  columns=_columns(runs, source, default_chunk), notes=notes)


def _other_lines(lines: list[str], notes: list[str]) -> None:
    """Note the lines of a CSV output (no text table) that are no row: without a comma
    (annttu/bonnie2gchart's "Comment here!" above its rows was dropped without a word).

    >>> notes = []; _other_lines(["Comment here!", "1.96,1.96,h", "", "end"], notes); notes
    ["2 line(s) without commas ignored (line 1 first: 'Comment here!')"]
    """
    if len(lines) == 1:  # (the usual file: its one row)
        return
    other = [i for i, line in enumerate(lines) if "," not in line and line.strip()
             and not line.startswith(_PROGRESS)]
    if other:
        notes.append(f"{len(other)} line(s) without commas ignored (line {other[0] + 1} "
                     f"first: {lines[other[0]].strip()[:60]!r})")


# what bonnie++ itself prints on stderr while it runs (kept when both streams go to one file)
_PROGRESS = ("Using uid:", "Writing ", "Rewriting...", "Reading ", "start 'em",
             "Create files", "Stat files", "Delete files")


def _without_copies(runs: list[_Run], lines: list[str], notes: list[str]) -> list[_Run]:
    """The CSV runs without the copies of an earlier row of the file: a 1.9x/2.00 row equal to
    an earlier one byte for byte, its seed and every rate, CPU share and latency, is that run
    pasted again (the runs of ``-x N`` share a seed, never all their figures;
    ZubairLK/bonnie2gchartdocker's sample holds two rows twice: n=2 with a spread of 0); read
    once, with a note. A 1.03 row has no seed nor latencies: equal rows stay runs.

    >>> row = "1.96,1.96,h,1,1329851305,8096M,,846,97,109696,7,46532,3,3516,77,131159,4,237.8,1"
    >>> notes = []
    >>> [r.line for r in _without_copies([_Run(1, "csv", None), _Run(2, "csv", None)],
    ...                                  [row, row], notes)], notes
    ([1], ['line 2 repeats line 1 byte for byte, its seed 1329851305 included: a copy of that \
run, read once'])
    """
    if len(runs) < 2:  # (the usual file: one row, nothing to be a copy of)
        return runs
    seen: dict[str, int] = {}
    kept = []
    for run in runs:
        text = lines[run.line - 1].strip()
        fields = text.split(",")
        first = seen.setdefault(text, run.line)
        if first != run.line and len(fields) > 5 and len(fields) != 27 and fields[4]:
            notes.append(f"line {run.line} repeats line {first} byte for byte, its seed "
                         f"{fields[4]} included: a copy of that run, read once")
            continue
        kept.append(run)
    return kept


def _default_chunk(chunk_size: str | int | None, source: str) -> int:
    try:
        return DEFAULT_CHUNK if chunk_size is None else int(units.binary_size(str(chunk_size)))
    except ValueError as exc:
        raise ParseError(source, None, "chunk_size like '64k' or 8192",
                         found=str(chunk_size)) from exc


def _csv_runs(lines: list[str], source: str, notes: list[str]) -> tuple[list[_Run], list[int]]:
    """The runs of the CSV rows, and the comma lines that are no bonnie++ row ("stray")."""
    csv_runs: list[_Run] = []
    pending_break = False
    stray: list[int] = []
    comments: list[int] = []
    for i, line in enumerate(lines):
        if "," not in line:
            continue
        if line.lstrip().startswith("#"):  # a note of whoever kept the file ("# 190G L2ARC,
            # 12G SLOG, iSCSI, tuned kernel"): bonnie++ writes no such line
            comments.append(i)
            continue
        if line.startswith(_CSV_HEADERS):
            pending_break = True
            continue
        if line.startswith("Expected ") and _CSV2TXT_ERROR.match(line):
            notes.append(f"line {i + 1}: {line[:120]}")
            continue
        got = _csv_row(line, source, i + 1)
        if got is None:
            if line.count(",") >= 3:
                stray.append(i)
            continue
        try:
            run = _run_from_csv(got[0], got[1], i + 1)
        except (ValueError, OverflowError) as exc:
            raise ParseError(source, i + 1, "a bonnie++ CSV row", found=str(exc)) from exc
        run.group_break = pending_break
        pending_break = False
        csv_runs.append(run)
    if comments:
        notes.append(f"{len(comments)} comment line(s) with commas ignored (lines starting "
                     f"with '#', the first on line {comments[0] + 1})")
    return csv_runs, stray


def _unsure_file_rates(runs: list[_Run], notes: list[str]) -> None:
    """Leave out the file tests' rates of bonnie++ 2.00's own text (a report without its CSV
    row), and say so: that text prints them wrongly. A run made here
    (``gen_s0_n64_q.stderr.txt``) prints 65536 for every timed rate where its CSV row says
    22223, 84644, 2746 and 92256; andrew0928's WSL runs print 0 where theirs say 793 and 1765.
    Their %CP, latencies and ``+++++`` cells agree with the CSV and are kept."""
    dropped: list[int] = []
    for run in runs:
        if not (run.native and (run.version or "").startswith("2.00")):
            continue
        keep = [c for c in run.cells
                if c[1] != "rate" or _TESTS[c[0]][2] != "file" or c[2].startswith("+")]
        dropped += [c[3] for c in run.cells if c not in keep]
        run.cells = keep
    if dropped:
        notes.append(f"{len(dropped)} file-test rate(s) of bonnie++ 2.00's text left out (line "
                     f"{dropped[0]} first): that text prints them wrongly (65536 where its CSV "
                     "row says 22223); the CSV row, printed after the tables (on stdout with "
                     "-q), has them")


def _columns(runs: list[_Run], source: str, default_chunk: int) -> tuple[dict, int]:
    """The rows of every run as columns (``{name: list | Const}``, row count); consecutive runs
    of the same settings are repetitions 0, 1, … (a CSV header row between them starts a new
    group)."""
    if runs[0].texts is not None:  # CSV rows (a file's runs are all CSV rows or all text)
        got = _csv_columns(runs, source, default_chunk)
        if got is not None:
            return got
        for run in runs:  # a row the layouts do not cover: every row the general way
            run.cells = _csv_cells(run)
    rows: list[tuple] = []
    per_run: list[tuple[int, dict]] = []
    for run, repetition in zip(runs, _repetitions(runs), strict=True):
        try:
            per_run.append((_run_rows(run, source, default_chunk, rows),
                            _run_values(run, repetition)))
        except ParseError:
            raise
        except (ValueError, OverflowError) as exc:
            raise ParseError(source, run.line, "bonnie++ values", found=str(exc)) from exc
    cols, n = run_columns({"source": source, "tool": TOOL}, _CELL_COLUMNS, rows, per_run)
    if not any(cols["flag"]):
        cols["flag"] = Const(None, n)
    return cols, n


def _repetitions(runs: list[_Run]) -> list[int]:
    """Each run's repetition number (:func:`_columns`)."""
    out = []
    previous = None
    repetition = 0
    for run in runs:
        key = _group_key(run)
        repetition = repetition + 1 if (previous is not None and key == previous
                                        and not run.group_break) else 0
        previous = key
        out.append(repetition)
    return out


# --- CSV rows as columns through their layout -------------------------------------------------
# A CSV row's layout columns (position, test, workload, op, block_size, metric, flag) follow from
# which of its cells are empty or too fast ('+++'), its chunk and its line: rows of one layout
# share them, and only their values are computed: its figures joined are one JSON array for
# msgspec (C, ~40 ns a figure, float() ~400 ns; the same double: both round correctly), each
# times its factor (K/sec 1024, a latency its unit's). Anything else (a figure beyond a float or
# not JSON's, a size beyond 64 bits, a row without cells) goes the general way of
# :func:`_run_rows`, which gives the same rows or the same error.

@dataclass(frozen=True, eq=False)
class _CsvLayout:
    """What rows of one layout share: their layout columns and how to pick their values
    (compared and hashed by identity: a key of the columns kept per file)."""

    n: int
    position: list
    test: list
    workload: list
    op: list
    block_size: list
    metric: list
    flag: list | None  # None: no cell too fast
    figures: object  # texts -> the texts of the cells that are figures (not '+'), row order
    scales: tuple  # each figure's factor: K/sec 1024.0, others 1.0, a latency None (its unit's)
    order: object | None  # [*the figures' values, nan] -> the values; None: no cell too fast


# layout key -> layout (bounded: a hostile folder cannot grow it without end); a layout's
# lists are shared by files of that layout, never modified (typing types them once)
_CSV_LAYOUTS: dict[tuple, _CsvLayout] = {}


def _csv_layout_key(texts: tuple, chunk: int, line: int) -> tuple:
    """What decides a CSV row's layout: which cells are empty, which are '+' (the row's
    patterns allow only digits, '.', '+' and a latency's unit in a cell: the cells' UTF-8
    without the ASCII ones), chunk and line."""
    return (tuple(map(bool, texts)), ",".join(texts).encode("utf-8", "surrogatepass")
            .translate(None, b"0123456789.ums"), chunk, line)


# (a row's cell texts joined by commas, their ASCII digits made 0 (as :data:`_ROW_SHAPES`), chunk,
# line) -> (layout, factors of its figures): cells of one shape are empty, digits or '+' alike,
# so of one layout key, and their latencies of the same units (bounded: one layout for many
# shapes, kept in _CSV_LAYOUTS)
_LAYOUT_OF_SHAPE: dict[tuple, tuple[_CsvLayout, tuple]] = {}


def _csv_layout(texts: tuple, chunk: int, line: int) -> _CsvLayout:
    """The layout of a CSV row's cells (what :func:`_run_rows` makes of them, but the values):
    its cells' columns picked from each cell's (:data:`_CSV_CELL_INFO`), in C."""
    cells = list(itertools.compress(range(len(texts)), texts))  # (the cells not empty)
    pick = picker(cells)
    plus = [i for i in cells if _CSV_CELL_KINDS[i] != "lat" and texts[i][0] == "+"]
    figures = [i for i in cells if i not in plus] if plus else cells
    at = {i: k for k, i in enumerate(figures)}
    sizes = {"char": 1, "block": chunk, "seek": chunk, "file": None}
    workload, op, bkind, metric, scale = (list(pick(info)) for info in _CSV_CELL_INFO)
    return _CsvLayout(len(cells), [f"line {line}"] * len(cells), list(pick(_CSV_CELL_TESTS)),
                      workload, op, list(map(sizes.__getitem__, bkind)), metric,
                      [TOO_FAST if i in plus else None for i in cells] if plus else None,
                      picker(figures), tuple(map(_CSV_CELL_SCALE.__getitem__, figures)),
                      picker([at.get(i, len(figures)) for i in cells]) if plus else None)


# each cell of a row's texts (:data:`_CSV_CELLS` order): its workload, op, block-size kind,
# metric and scale (of :data:`_CELL_INFO`), each a list by cell; the factor of a cell's figure
# (a K/sec rate 1024.0, a latency None: its unit's, others 1.0)
_CSV_CELL_INFO = [list(x) for x in zip(*(_CELL_INFO[test, kind] for test, kind in
                                         zip(_CSV_CELL_TESTS, _CSV_CELL_KINDS, strict=True)),
                                       strict=True)]
_CSV_CELL_SCALE = [None if kind == "lat" else float(scale)
                   for kind, scale in zip(_CSV_CELL_KINDS, _CSV_CELL_INFO[4], strict=True)]
assert set(_CSV_CELL_SCALE) == {None, 1.0, float(units.KiB)}


def _csv_factors(layout: _CsvLayout, texts: tuple) -> tuple | None:
    """The factor of each figure of a row of ``layout``: its scale, a latency's the one of its
    unit (as ``units.duration``); ``None`` unless each figure is ASCII digits and dots, a
    latency's followed by one of its units: so in every row the rules accepted but one with a
    digit that is not ASCII (their ``\\d`` is any digit, JSON's is not). Rows of one shape
    have the same factors."""
    factors = []
    for scale, text in zip(layout.scales, layout.figures(texts), strict=True):
        rest = text.lstrip("0123456789.")
        if scale is None:
            scale = _SECONDS_OF.get(rest)
            if scale is None:
                return None
        elif rest:
            return None
        factors.append(scale)
    return tuple(factors)


_SECONDS_OF = {"us": units.US, "ms": units.MS, "s": 1.0}  # (units.duration's factors)
_FIGURES = msgspec.json.Decoder(list[float]).decode


def _csv_values(layout: _CsvLayout, factors: tuple, texts: tuple) -> list | None:
    """A row's values (``factors``: :func:`_csv_factors` of a row of its shape), ``None`` when
    one needs the general way: a figure beyond a float (msgspec refuses it, or its product is
    not finite) or not in JSON's spelling (``0123``, ``1.``, ``.5``). The values of
    a row's figures are kept by its layout and figures (a folder read again: one lookup)."""
    figures = ",".join(layout.figures(texts))
    kept = _ROW_VALUES.get((layout, figures))
    if kept is not None:
        return list(kept)
    try:  # the figures' floats (their units away), as float() of each makes them
        values = list(map(operator.mul, _FIGURES(
            f"[{figures.replace('us', '').replace('ms', '').replace('s', '')}]"), factors))
    except msgspec.DecodeError:  # (and its ValidationError: beyond a float)
        return None
    total = sum(values)
    if total - total != 0 or len(values) != len(factors):  # (inf - inf is nan)
        return None
    if layout.order is not None:
        values.append(math.nan)  # too fast to measure
        values = list(layout.order(values))
    remember(_ROW_VALUES, (layout, figures), tuple(values), 4096)
    return values


# (layout, a row's figures joined, units and all: what decides its factors too) -> its values
# (bounded: :func:`remember`); a tuple, copied for each row
_ROW_VALUES: dict[tuple, tuple] = {}


# a latency cell's text ("251us") -> its seconds, once it passed the range check (pure: the
# same text is the same value; bounded, so that a hostile file cannot grow it without end)
_LATENCY_SECONDS: dict[str, float] = {}


_CONST = functools.partial(tuple.__new__, Const)  # Const(value, n) of a (value, n) pair, in C


def _csv_columns(runs: list[_Run], source: str, default_chunk: int) -> tuple[dict, int] | None:
    """:func:`_columns` of CSV runs through their layouts; ``None``: the general way must do it."""
    pieces = []
    for run in runs:
        chunk = run.chunk or default_chunk
        if not 0 <= chunk < 2**63 or (run.threads is not None and not 0 <= run.threads < 2**63):
            return None  # (the general way says which)
        # the layout of a shape of cells seen (the same emptiness and '+'s), else by its key
        shape = (",".join(run.texts).encode("utf-8", "surrogatepass").translate(_DIGITS_0),
                 chunk, run.line)
        got = _LAYOUT_OF_SHAPE.get(shape)
        if got is None:
            key = _csv_layout_key(run.texts, chunk, run.line)
            layout = _CSV_LAYOUTS.get(key)
            if layout is None:
                layout = _csv_layout(run.texts, chunk, run.line)
                if len(_CSV_LAYOUTS) < 4096:
                    _CSV_LAYOUTS[key] = layout
                else:
                    key = None  # (a layout not kept: no columns kept by it either)
            factors = _csv_factors(layout, run.texts)
            if factors is None:
                return None
            if key is not None and len(_LAYOUT_OF_SHAPE) < 4096 and len(shape[0]) < 1024:
                _LAYOUT_OF_SHAPE[shape] = layout, factors
        else:
            layout, factors = got
            key = shape  # (a kept layout)
        values = _csv_values(layout, factors, run.texts)
        if values is None or not layout.n:
            return None
        pieces.append((layout, values))
    if len(runs) == 1:
        return _csv_columns_of_one(runs[0], source, layout, values, key is not None)
    shared = [_run_values(run, k) for run, k in zip(runs, _repetitions(runs), strict=True)]
    # the rows of every run, transposed as the general way does
    rows = list(itertools.chain.from_iterable(
        zip(lay.position, lay.test, lay.workload, lay.op, lay.block_size, lay.metric,
            values, lay.flag or itertools.repeat(None, lay.n), strict=False)
        for lay, values in pieces))
    cols, n = run_columns({"source": source, "tool": TOOL}, _CELL_COLUMNS, rows,
                          [(lay.n, v) for (lay, _), v in zip(pieces, shared, strict=True)])
    if not any(cols["flag"]):
        cols["flag"] = Const(None, n)
    return cols, n


def _csv_columns_of_one(run: _Run, source: str, layout: _CsvLayout, values: list,
                        kept: bool) -> tuple[dict, int]:
    """:func:`run_columns` of a file of one run: its layout columns and shared values (as
    Consts) are the same in every file of its settings and layout but the source, the values
    and the seed; kept by those (bounded), copied for each file. ``kept``: the layout is one of
    :data:`_CSV_LAYOUTS` (one not kept would be new for each row: nothing to keep by it)."""
    n = layout.n
    key = (run.settings, layout) if kept and run.settings is not None else None
    cols = _CSV_FILE_COLUMNS.get(key) if key is not None else None
    if cols is None:
        cols = {"source": None, "tool": Const(TOOL, n), "position": layout.position,
                "test": layout.test, "workload": layout.workload, "op": layout.op,
                "block_size": layout.block_size, "metric": layout.metric, "value": None,
                "flag": Const(None, n) if layout.flag is None else layout.flag}
        shared = _run_values(run, 0)
        cols.update(zip(shared, map(_CONST, zip(shared.values(), itertools.repeat(n))),
                        strict=False))  # (repeat is endless)
        if key is not None and len(_CSV_FILE_COLUMNS) < 4096:
            _CSV_FILE_COLUMNS[key] = cols
    cols = cols.copy()
    cols["source"] = _CONST((source, n))
    cols["value"] = values
    cols["seed"] = _CONST((run.meta.get("seed"), n))
    return cols, n


_CSV_FILE_COLUMNS: dict[tuple, dict] = {}


def _from_tables(csv_runs: list[_Run], text_runs: list[_Run], notes: list[str]) -> None:
    """What a CSV row lacks, taken from the table printed just before it for the same run (the
    same host, either one cut short, and size): 2.00a leaves io_chunk_size empty although its
    table shows ``512M:64k``; a 1.0x row has no version field (``csv 1.03`` is its layout,
    shared by 1.01-1.03) where its table says ``Version 1.02b``."""
    native = [r for r in text_runs if r.native and r.io_line is not None]
    if not native:  # (the usual CSV file: no table)
        return
    for run in csv_runs:
        t = next((r for r in reversed(native) if r.io_line < run.line), None)
        if t is None or t.meta.get("file_size") != run.meta.get("file_size"):
            continue
        a, b = t.meta.get("host") or "", run.meta.get("host") or ""
        if not (a.startswith(b) or b.startswith(a)):
            continue
        if not run.meta.get("chunk_size") and run.meta.get("file_size") and t.meta.get(
                "chunk_size"):
            run.meta["chunk_size"] = t.meta["chunk_size"]
            run.settings = None  # its metadata is no longer what its settings fields make
            run.chunk = int(units.binary_size(t.meta["chunk_size"]))
            notes.append(f"line {run.line}: io_chunk_size empty in the CSV; chunk "
                         f"{t.meta['chunk_size']} taken from the table at line {t.io_line}")
        if (run.fmt == "csv 1.03" and t.version and t.version != run.version
                and t.version.startswith("1.0")):
            run.version = t.version
            run.settings = None


def read_bonnie(path: str | os.PathLike, *, chunk_size: str | int | None = None, **meta):
    """Read one bonnie++ output (CSV, text report, or bon_csv2txt output) into the tidy frame.

    Parameters
    ----------
    path : str or path-like
        The file.
    chunk_size : str or int, optional
        IO chunk size to assume when the output does not state it (see :func:`parse`).
    **meta
        Metadata set on every row (``config="gp3"``, ``volume=...``), overriding the file.

    Returns
    -------
    pandas.DataFrame
        The results frame (:mod:`ebsstats.schema`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "b.csv").write_text(
    ...     "1.98,2.00a,vm,1,42,512M,,8192,5,,,466701,34,664719,32,,,+++++,+++,+++++,+++"
    ...     + "," * 19 + "251us,60us,,4040us,24070us" + "," * 6 + "\\n")
    >>> df = read_bonnie(d / "b.csv", config="gp3")
    >>> df.loc[df.metric == "bandwidth", ["test", "value"]].values.tolist()[0]
    ['put_block', 477901824.0]
    """
    return read_one(path, _parse, meta, chunk_size=chunk_size)


# the reader this module registers (ebsstats.io._registry): sniff, then parse text
READER = Reader(tool="bonnie++", name=__name__, detect=sniff, parse=text_parser(_parse),
                memory_factor=MEMORY_FACTOR)
