"""What the fio report formats share: the sniffing patterns, job options → metadata
(:func:`job_meta`, :func:`workload_of`, block sizes), fio's version, the check that a statistic
is a finite, non-negative number (:func:`_num`, :func:`_sane`, :class:`_Bad`) and the error for a
file without a report. Module docs: :mod:`ebsstats.io.fio`."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping

from ebsstats import units
from ebsstats.errors import ParseError
from ebsstats.io._common import remember

TOOL = "fio"


_JSON_SNIFF = re.compile(r'"fio version"\s*:')
_TERSE_START = re.compile(r"^([2-5]);")
_NORMAL_SNIFF = re.compile(r"\(groupid=\d+, jobs=\d+\): err=\s*-?\d+")
# the line fio prints for each job before it starts (init.c), a report or not after it:
# "name: (g=0): rw=randread, bs=..." (_JOB_LINE reads its options: job_line)
_JOB_LINE_SNIFF = re.compile(r"^[^\s:][^\n]*: \(g=\d+\): rw=\w+, bs=", re.M)
_JOB_LINE = re.compile(r"^(.+?): \(g=(\d+)\): rw=([^,]+), bs=(.*), ioengine=([^,]+), "
                       r"iodepth=(\d+)")

# (at most 9 digits a number: a longer run of digits is no version, and Python refuses to
# convert one of over 4,300 digits)
_VERSION = re.compile(r"(?<!\d)(\d{1,9})\.(\d{1,9})(?:\.(\d{1,9}))?(?![\d])")

_DIRS = (("read", "read"), ("write", "write"), ("trim", "trim"), ("sync", "sync"),
         ("mixed", "total"))
_RATE_METRICS = ("iops", "bandwidth")
_COUNT_METRICS = frozenset({"io_bytes", "runtime", "total_ios"})

_WORKLOAD = {"read": "seqread", "write": "seqwrite", "randread": "randread",
             "randwrite": "randwrite", "randrw": "randrw", "rw": "mixed", "readwrite": "mixed"}
_RW_OPS = {"read": ("read",), "randread": ("read",), "write": ("write",),
           "randwrite": ("write",), "rw": ("read", "write"), "readwrite": ("read", "write"),
           "randrw": ("read", "write"), "trim": ("trim",), "randtrim": ("trim",),
           "trimwrite": ("trim", "write"), "randtrimwrite": ("trim", "write")}
_OP_INDEX = {"read": 0, "write": 1, "trim": 2}
_BS_KEYS = ("bs", "blocksize", "bsrange", "blocksize_range", "bssplit")


def _no_report(text: str, source: str) -> ParseError:
    r"""ParseError for a file without a fio report, quoting fio's message if there is one; a
    JSON report whose ``{`` does not start a line (something typed before it) is pointed at.

    >>> str(_no_report('>{\n  "fio version" : "fio-3.12",\n  "error" : 0\n}', "r"))
    "r, line 1: expected a fio JSON report whose '{' starts a line (as fio writes it); found '>{'"
    """
    at = text.find('"fio version"')
    if at > 0 and (brace := text.rfind("{", 0, at)) >= 0:
        i = text.count("\n", 0, brace) + 1
        line = text.splitlines()[i - 1].strip()
        if not line.startswith("{"):
            return ParseError(source, i, "a fio JSON report whose '{' starts a line (as fio "
                              "writes it)", found=line)
    first = None
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.rsplit("\r", 1)[-1].strip()
        if not line:
            continue
        if line.startswith("fio:") or ("error" in line.lower() and not line.startswith('"')):
            return ParseError(source, i, "a fio report (JSON, terse or normal text)", found=line)
        if first is None:
            first = (i, line)
    if first is None:
        return ParseError(source, None, "a fio report (JSON, terse or normal text)",
                          found="an empty file")
    return ParseError(source, first[0], "a fio report (JSON, terse or normal text)",
                      found=first[1])


def _notes_of(chunk: str) -> list[str]:
    """fio's warnings from the text around a report: its progress chatter dropped (ETA
    ``Jobs:`` pieces, and :data:`_CHATTER`: what every run prints and says nothing of the
    results, which made a dozen notes a file that hid fio's real warnings)."""
    out = []
    for raw in chunk.splitlines():
        for piece in raw.split("\r"):
            piece = piece.strip()
            if piece and not piece.startswith("Jobs:") and not _CHATTER.match(piece):
                out.append(piece)
    return out


def _notes_beside(chunks: list[str], reports: str) -> list[str]:
    r"""fio's notes from the text around its machine-readable reports (``reports``: what they
    are, "JSON", "terse lines"): a normal text report printed beside them
    (``--output-format=normal,json``) named once, not line by line (the same results), its
    warnings kept; other text as :func:`_notes_of` keeps it.

    >>> _notes_beside(["fio-3.33\nStarting 1 process\nfio: io_u error"], "JSON")
    ['fio: io_u error']
    >>> _notes_beside(["a: (groupid=0, jobs=1): err= 0: pid=1"], "JSON")[0][:45]
    'the normal text report beside the JSON was no'
    """
    notes: list[str] = []
    for chunk in chunks:
        if _NORMAL_SNIFF.search(chunk):
            notes.append(f"the normal text report beside the {reports} was not read (the "
                         f"{reports} hold{'s' if reports == 'JSON' else ''} the same results)")
            notes.extend(n for n in _notes_of(chunk) if n.startswith(("fio:", "note:"))
                         or "warning" in n.lower())
            continue
        notes.extend(_notes_of(chunk))
    return notes


# fio's progress chatter, one line each: its banner ("fio-3.33"), "Starting 2 processes", the
# line it prints per job ("name: (g=0): rw=read, bs=...", then "..." for numjobs > 1) and per
# file it lays out ("name: Laying out IO file (1 file / 16MiB)"), and the disk statistics it
# prints at the end ("Disk stats (read/write):", "  vda: ios=1533/1508, merge=25/0, ...")
_CHATTER = re.compile(r"(?:fio-\d\S*|Starting \d+ (?:process|thread)(?:es|s)?|\.\.\.|"
                      rf"{_JOB_LINE_SNIFF.pattern.removeprefix('^')}.*|"
                      r"[^\s:].*?: Laying out IO file.*|"
                      r"Disk stats \(read/write\):|\S+: ios=\d+/\d+, .*)$")


def job_line(m: re.Match) -> tuple[dict, dict]:
    """The options (``rw``, ``ioengine``, ``iodepth``) and per-op block sizes of fio's job line
    (:data:`_JOB_LINE`'s match), which the normal report prints before its jobs and
    ``terse,normal`` output before its terse lines (a terse line holds none of them); raises
    ``ValueError`` for an iodepth beyond 64 bits.

    >>> job_line(_JOB_LINE.match("a: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, "
    ...                          "(T) 4096B-4096B, ioengine=psync, iodepth=2"))[0]
    {'rw': 'read', 'ioengine': 'psync', 'iodepth': 2}
    """
    opts = {"rw": m.group(3).strip(), "ioengine": m.group(5), "iodepth": int(m.group(6))}
    if opts["iodepth"] >= 2**63:
        raise ValueError("an iodepth beyond 64 bits")
    return opts, _job_line_bs(m.group(4))


def job_line_meta(opts: Mapping) -> dict:
    """The metadata a job's rows take from its job line's options (:func:`job_line`):
    ``workload``, ``rw``, ``ioengine``, ``iodepth``, those it has."""
    meta = {"workload": workload_of(opts.get("rw")), "rw": opts.get("rw"),
            "ioengine": opts.get("ioengine"), "iodepth": opts.get("iodepth")}
    return {k: v for k, v in meta.items() if v is not None}


def _job_line_bs(bs: str) -> dict[str, int | None]:
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



@functools.lru_cache(maxsize=256)  # a campaign's reports print a handful of versions
def version_parts(version: str | None) -> tuple[int, int, int] | None:
    """``(major, minor, patch)`` of the first ``N.N[.N]`` in a version (``fio-2.1.4``, ``fio 1.57``,
    ``fio-3.33-12-gabc``; no patch: 0), else ``None``.

    >>> version_parts("fio-2.1.4"), version_parts("fio 1.57"), version_parts("x")
    ((2, 1, 4), (1, 57, 0), None)
    >>> version_parts("fio-2.1." + "9" * 5000)  # (a damaged file: the patch is no number)
    (2, 1, 0)
    """
    if not version:
        return None
    m = _VERSION.search(str(version))
    return (int(m[1]), int(m[2]), int(m[3] or 0)) if m else None


def _version_tuple(version: str | None) -> tuple[int, int] | None:
    """``(major, minor)`` of :func:`version_parts`."""
    parts = version_parts(version)
    return None if parts is None else parts[:2]


def _strip_rw(rw: str | None) -> str | None:
    if rw is None:
        return None
    return str(rw).split(":", 1)[0].strip() or None


def workload_of(rw: str | None) -> str | None:
    """Normalised workload of a fio ``rw=`` value.

    >>> workload_of("randread"), workload_of("rw"), workload_of("randtrim"), workload_of(None)
    ('randread', 'mixed', 'other', None)
    """
    rw = _strip_rw(rw)
    if rw is None:
        return None
    return _WORKLOAD.get(rw, "other")


def _block_sizes(bs: str | None) -> dict[str, int | None]:
    """``bs=4k`` → every op 4096; ``bs=4k,64k`` → read 4096, write 65536; ranges → unknown.
    The dict of a string is kept (:func:`_block_sizes_of`): read it, never change it."""
    if type(bs) is str:
        return _block_sizes_of(bs)
    return _block_sizes_of.__wrapped__(bs)


@functools.lru_cache(maxsize=256)  # a campaign's jobs use a handful of block sizes
def _block_sizes_of(bs: str | None) -> dict[str, int | None]:
    out: dict[str, int | None] = {}
    if bs is None:
        return out
    parts = [p.strip() for p in str(bs).split(",")]
    sizes: list[int | None] = []
    for p in parts:
        try:
            size = int(units.binary_size(p)) if p else None
            sizes.append(size if size is None or 0 <= size < 2**63 else None)
        except (ValueError, OverflowError):
            sizes.append(None)
    if not sizes:
        return out
    last = sizes[-1]
    for op, i in _OP_INDEX.items():
        out[op] = sizes[i] if i < len(sizes) and sizes[i] is not None else (
            last if i >= len(sizes) else None)
    if len(sizes) == 1:
        out["total"] = out["sync"] = sizes[0]
    elif len({s for s in sizes if s is not None}) == 1 and None not in sizes:
        out["total"] = out["sync"] = sizes[0]
    return out


def _int_option(value) -> int | None:
    if value is None:
        return None
    try:
        n = int(str(value).strip())
    except ValueError:
        return None
    return n if 0 <= n < 2**63 else None  # like any option fio would not have accepted


def job_meta(opts: Mapping, defaults: bool) -> tuple[dict, dict[str, int | None]]:
    """Metadata record keys and per-op block sizes from a job's options (already merged).
    The two dicts may be shared between calls: read them, never change them."""
    return job_meta_plain(opts, defaults) or _job_meta(opts, defaults)


def job_meta_plain(opts: Mapping, defaults: bool) -> tuple[dict, dict[str, int | None]] | None:
    """:func:`job_meta` when every option it reads is a string (what fio prints), else None.
    A set of options already kept is found before any type is looked at (kept sets hold
    strings only, and no other value, decoded from JSON or text, equals a str: their types are
    judged once per set, not once per job: 0.4 us a fio JSON job).

    >>> job_meta_plain({"rw": "randread", "bs": "4k"}, True)[0]["workload"]
    'randread'
    >>> job_meta_plain({"rw": "randread", "bs": 4096}, True), job_meta_plain({"bs": []}, 1)
    (None, None)
    """
    vals = tuple(map(opts.get, _META_KEYS, _ABSENTS))  # only the options it reads
    key = (defaults, vals)
    try:
        hit = _JOB_META.get(key)
    except TypeError:  # a list or an object among them: not what fio prints
        return None
    if hit is None:
        if not _STR_OR_ABSENT.issuperset(map(type, vals)):  # fio prints strings; 1 == True
            return None
        hit = _job_meta(opts, defaults)
        remember(_JOB_META, key, hit, most=4096)  # the jobs of a campaign repeat their
        # options (2,000 genuine reports: 1,240 distinct sets over 2,924 jobs; a bound of 1,024
        # that stopped adding kept 216 sets recomputed on every read)
    return hit


_JOB_META: dict[tuple, tuple[dict, dict]] = {}
_META_KEYS = ("rw", "readwrite", *_BS_KEYS, "iodepth", "numjobs", "ioengine", "direct", "size",
              "runtime", "time_based", "rate_iops", "rwmixread",
              "rwmixwrite")  # every option _job_meta reads


class _Absent:
    """An option not given (a JSON null is given, as None)."""


_ABSENTS = (_Absent,) * len(_META_KEYS)
_STR_OR_ABSENT = frozenset({str, type})  # type(_Absent) is type


def job_meta_pair(gvals: tuple, jvals: tuple, defaults: bool
                  ) -> tuple[dict, dict[str, int | None]] | None:
    """:func:`job_meta_plain` of a job's options given as the values at :data:`_META_KEYS`
    (``_Absent`` where not set) of the global options (``gvals``) and of the job's own
    (``jvals``, which win where set): what the merged dict gives, the same dicts. A pair of
    strings already kept is found without merging them (fio JSON decoded into tuples: a
    report's jobs share its global options).

    >>> g = tuple("libaio" if k == "ioengine" else _Absent for k in _META_KEYS)
    >>> j = tuple("randread" if k == "rw" else _Absent for k in _META_KEYS)
    >>> job_meta_pair(g, j, True) == job_meta_plain({"ioengine": "libaio", "rw": "randread"},
    ...                                             True)
    True
    """
    key = (defaults, gvals, jvals)
    try:
        hit = _JOB_META_PAIRS.get(key)
    except TypeError:  # a list or an object among them: not what fio prints
        return None
    if hit is None:
        merged = {k: g if j is _Absent else j
                  for k, g, j in zip(_META_KEYS, gvals, jvals, strict=True)
                  if j is not _Absent or g is not _Absent}
        hit = job_meta_plain(merged, defaults)
        if hit is not None:  # (its values all strings or absent: no other value equals it)
            remember(_JOB_META_PAIRS, key, hit, most=4096)
    return hit


# (defaults, global values, job values) -> what job_meta_plain gives of them merged
_JOB_META_PAIRS: dict[tuple, tuple[dict, dict]] = {}


def _job_meta(opts: Mapping, defaults: bool) -> tuple[dict, dict[str, int | None]]:
    rw = opts.get("rw", opts.get("readwrite"))
    if rw is None and defaults:
        rw = "read"
    bs = None
    for k in _BS_KEYS:
        if k in opts:
            bs = opts[k] if k in ("bs", "blocksize") else None
            break
    else:
        if defaults:
            bs = "4k"
    iodepth = _int_option(opts.get("iodepth"))
    numjobs = _int_option(opts.get("numjobs"))
    if defaults:
        iodepth = 1 if iodepth is None else iodepth
        numjobs = 1 if numjobs is None else numjobs
    meta = {
        "workload": workload_of(rw),
        "iodepth": iodepth,
        "threads": numjobs,
        "rw": None if rw is None else str(rw),
        "ioengine": opts.get("ioengine"),
        "direct": opts.get("direct"),
        "job_size": opts.get("size"),
        "job_runtime": opts.get("runtime"),
        "time_based": _flag_option(opts.get("time_based")),
        "rate_iops": opts.get("rate_iops"),
        "rwmixread": _rwmixread(rw, opts, defaults),
    }
    return {k: v for k, v in meta.items() if v is not None}, _block_sizes(bs)


def _flag_option(value) -> str | None:
    """A boolean fio option as ``"1"``/``"0"``: fio prints a bare ``--time_based`` as ``""``
    in its JSON (a NULL value, json_add_job_opts), ``time_based=1`` as ``"1"``; ``None`` when
    the option is not set (fio's default, off, for time_based).

    >>> _flag_option(""), _flag_option("1"), _flag_option("0"), _flag_option(None)
    ('1', '1', '0', None)
    """
    if value is None:
        return None
    text = str(value).strip().lower()
    return "0" if text in ("0", "false", "no", "off") else "1"


def _rwmixread(rw, opts: Mapping, defaults: bool) -> str | None:
    """The read share (%) of a mixed job (``rw``/``randrw``…): ``rwmixread``, else 100 minus
    ``rwmixwrite``, else fio's default 50 (fio >= 3 prints every option set); None for a job
    that does not mix (its share says nothing) or when unknown. A string, as fio prints it.

    >>> _rwmixread("randrw", {"rwmixread": "70"}, True), _rwmixread("rw", {"rwmixwrite": "30"}, 0)
    ('70', '70')
    >>> _rwmixread("randrw", {}, True), _rwmixread("randrw", {}, False), _rwmixread("read", {}, 1)
    ('50', None, None)
    """
    if len(_RW_OPS.get(_strip_rw(rw) or "", ())) < 2:
        return None
    share = _int_option(opts.get("rwmixread"))
    if share is None and (write := _int_option(opts.get("rwmixwrite"))) is not None:
        share = 100 - write
    if share is None and defaults:
        share = 50
    return str(share) if share is not None and 0 <= share <= 100 else None


class _Bad(Exception):
    """Internal: a value at a JSON path is not what fio writes there."""

    def __init__(self, path: str, expected: str, found=None):
        super().__init__(path)
        self.path, self.expected, self.found = path, expected, found


def _num(obj: Mapping, key: str, path: str) -> float:
    try:
        v = obj[key]
    except (KeyError, TypeError):
        raise _Bad(f"{path}.{key}", "a number", "nothing") from None
    t = type(v)
    if t is float and 0.0 <= v < math.inf:  # the usual cases, checked inline
        return v
    if t is int and 0 <= v < 2**53:
        return float(v)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _Bad(f"{path}.{key}", "a number", repr(v))
    return _sane(v, f"{path}.{key}")


def _sane(v, path: str) -> float:
    """A statistic fio printed: finite and not negative (fio's counters, rates, latencies and
    CPU shares are all >= 0), else the position is refused."""
    try:
        f = float(v)
    except OverflowError:
        f = math.inf
    if not (f >= 0 and math.isfinite(f)):
        raise _Bad(path, "a finite, non-negative number", repr(v))
    return f
