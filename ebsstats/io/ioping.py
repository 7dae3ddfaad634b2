"""Reader of ioping 1.x outputs: per-request lines + summary, ``-B``/``-p`` raw lines, ``-J`` JSON.

ioping (https://github.com/koct9i/ioping) measures the latency of single requests, like ``ping``
for disks. Formats (from ioping 1.3's ``ioping.c``):

* default: one line per request,
  ``4 KiB <<< /mnt/x (ext4 /dev/vda 252.0 GiB): request=2 time=90.0 us`` (``>>>`` for writes,
  suffix ``(warmup)``, ``(fast)``, ``(slow)``, ``(too fast)``, ``(too slow)``; ``-I`` puts the local
  time first), then the summary block::

      --- /mnt/x (ext4 /dev/vda 252.0 GiB) ioping statistics ---
      9 requests completed in 1.03 ms, 36 KiB read, 8.74 k iops, 34.2 MiB/s
      generated 10 requests in 9.00 s, 40 KiB, 1 iops, 4.44 KiB/s
      min/avg/max/mdev = 77.0 us / 114.4 us / 153.0 us / 25.0 us

  ``-q`` prints the summary only. Values carry their unit: times ``ns``/``us``/``ms``/``s``/
  ``min``/``hour``; sizes ``B``/``KiB``/``MiB``/… (binary); counts ``k``/``M``/``G`` (decimal).
* ``-B`` (batch): one raw line of 10 integers for the whole run: valid requests, their summed
  time (ns), iops, bytes/s, min, avg, max, mdev (ns), generated requests, wall time (ns).
  ``-p N`` prints such a line every N requests (periodic statistics); with ``-B`` the last line
  is the whole run's.
* ``-J``: a JSON array of per-request objects (``io``), periodic and final statistics
  (``stat``: ns and bytes; ``load``: the wall-clock view), each with an epoch ``timestamp``.

Results (tool ``ioping``, test ``ioping``, one run per summary): ``lat_min``/``lat_mean``/
``lat_max``/``lat_stddev`` (ioping's ``mdev`` is the standard deviation of valid request times,
``sqrt(sum2/n - avg²)``), ``iops`` and ``bandwidth`` as ioping computes them — valid requests over
their *summed service time*, i.e. ``1 / lat_mean``, not over the wall clock — ``total_ios``
(valid requests), ``io_bytes``, and ``runtime`` (the wall time of the ``generated …`` line). The op
is ``read`` (``<<<``/``read``) or ``write`` (``>>>``/``written``), workload ``randread``/
``randwrite`` (ioping's default pattern is random within the working set; ``-L`` is not visible in
the output: pass ``workload="seqread"`` as metadata if you used it). A raw-only output does not
say the direction: op ``total``, workload ``other`` (pass ``op=``/``workload=`` as metadata).

Series (metric ``lat``, s, one row per valid request; warm-up and too-fast/too-slow requests that
ioping excludes from its statistics are left out too): ``t`` is the request's start in seconds.
JSON gives it exactly (``timestamp`` − the first request's); text outputs do not, so ``t`` =
(request number − 1) × interval, where the interval is ``interval=`` if given, else the wall
time over the requests' gaps from the summary (``generated 10 requests in 9.00 s`` → 1.0 s), else
ioping's default 1 s. Periodic statistics (``-p``) become series rows ``iops``, ``bandwidth`` and
``lat_mean`` at ``t`` = the end of their period (cumulative wall time).
"""

from __future__ import annotations

import json
import os
import re

import pandas as pd

from ebsstats import schema
from ebsstats.errors import ParseError
from ebsstats.io._common import HEAD_BYTES, Parsed, number, read_one, unconvertible
from ebsstats.io._registry import Reader, text_parser

__all__ = ["sniff", "parse", "read_ioping"]

TOOL = "ioping"

# peak memory of a parse per byte of input, for the folder read's budget
# (benchmarks/reader_memory.py: measured 10 (4.75 MB of JSON))
MEMORY_FACTOR = 30

TEST = "ioping"

_TIME = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "hour": 3600.0}
_SIZE = {"B": 1, "": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50}
_INT = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}

_N = r"\d+(?:\.\d+)?"
_REQ_RE = re.compile(
    rf"^(?:(?P<clock>.*?) )?(?P<size>{_N}) ?(?P<sunit>[KMGTP]?i?B)? (?P<dir><<<|>>>) "
    rf"(?P<target>.*) \((?P<info>[^()]*)\): request=(?P<req>\d+) "
    rf"time=(?P<t>{_N}) ?(?P<tunit>[a-z]*)(?: \((?P<notice>[^)]*)\))?\s*$")
_HEAD_RE = re.compile(r"^--- (?P<target>.*) \((?P<info>[^()]*)\) ioping statistics ---\s*$")
_DONE_RE = re.compile(
    rf"^(?P<n>{_N}(?: [kMGT])?) requests completed in (?P<busy>{_N}(?: [a-z]+)?), "
    rf"(?P<size>{_N}(?: [KMGTP]?i?B)?)(?: (?P<dir>read|written))?, "
    rf"(?P<iops>{_N}(?: [kMGT])?) iops, (?P<bw>{_N}(?: [KMGTP]?i?B)?)/s\s*$")
_GEN_RE = re.compile(
    rf"^(?:.*too (?:fast|slow), )?generated (?P<n>{_N}(?: [kMGT])?) requests in "
    rf"(?P<wall>{_N}(?: [a-z]+)?), (?P<size>{_N}(?: [KMGTP]?i?B)?), "
    rf"(?P<iops>{_N}(?: [kMGT])?) iops, (?P<bw>{_N}(?: [KMGTP]?i?B)?)/s\s*$")
_MDEV_RE = re.compile(
    rf"^min/avg/max/mdev = (?P<min>{_N}(?: [a-z]+)?) / (?P<avg>{_N}(?: [a-z]+)?) / "
    rf"(?P<max>{_N}(?: [a-z]+)?) / (?P<mdev>{_N}(?: [a-z]+)?)\s*$")
_RAW_RE = re.compile(r"^\d+(?: \d+){9}\s*$")

_EXCLUDED = {"warmup", "too fast", "too slow", "EAGAIN"}


# the summary block's lines in order: (pattern, key in the run, the key that must precede it)
_SUMMARY_LINES = ((_HEAD_RE, "head", None), (_DONE_RE, "done", "head"), (_GEN_RE, "gen", "done"),
                  (_MDEV_RE, "mdev", "gen"))


def _time(text: str, source: str) -> float:
    num, _, unit = text.partition(" ")
    if unit not in _TIME:
        raise ValueError(f"unknown time unit in {text!r}")
    return number(num, source, None, scale=_TIME[unit], found=text)


def _size(text: str, source: str) -> float:
    num, _, unit = text.partition(" ")
    if unit not in _SIZE:
        raise ValueError(f"unknown size unit in {text!r}")
    return number(num, source, None, scale=_SIZE[unit], found=text)


def _count(text: str, source: str) -> float:
    num, _, unit = text.partition(" ")
    return number(num, source, None, scale=_INT[unit], found=text)


# the summary block's figures: (metric, summary line, its group, conversion)
_TEXT_STATS = (
    ("lat_min", "mdev", "min", _time), ("lat_mean", "mdev", "avg", _time),
    ("lat_max", "mdev", "max", _time), ("lat_stddev", "mdev", "mdev", _time),
    ("iops", "done", "iops", _count), ("bandwidth", "done", "bw", _size),
    ("total_ios", "done", "n", _count), ("io_bytes", "done", "size", _size),
    ("runtime", "gen", "wall", _time),
)


def sniff(head: str, name: str = "") -> str | None:
    """Format name (``"text"``, ``"raw"``, ``"json"``) if ``head`` looks like ioping output.

    >>> sniff("4 KiB <<< . (ext4 /dev/vda 252.0 GiB): request=1 time=58.6 us (warmup)\\n", "x")
    'text'
    >>> sniff("19 1707550 11127 45576411 45505 89871 170009 38269 20 1900157788\\n", "x")
    'raw'
    >>> sniff("[root@ip-172-31-35-11 ramdisk] #  ioping -c 10 .\\n"
    ...       "4 KiB >>> . (tmpfs tmpfs): request=1 time=3.48 us (warmup)\\n", "x")
    'text'
    """
    lines = [s.strip() for s in head.splitlines()[:20] if s.strip()]
    if not lines:
        return None
    first = lines[0]
    if first.startswith("[") or first.startswith("{"):
        body = head.lstrip()
        if '"target"' in body[:2000] and ('"io"' in body or '"stat"' in body):
            return "json"
    # a request line or a statistics block's head, first or after a few lines of the terminal
    # it was copied from (a prompt, the command: "[root@ip-172-31-35-11 ramdisk] #  ioping ...")
    if any(_REQ_RE.match(s) or _HEAD_RE.match(s) for s in lines[:_PREAMBLE_MOST + 1]):
        return "text"
    if _RAW_RE.match(first) and all(_RAW_RE.match(s) or _HEAD_RE.match(s) or _REQ_RE.match(s)
                                    for s in lines[:5]):
        return "raw"
    return None


_PREAMBLE_MOST = 5  # lines before the first of ioping's a file may start with


def _starts_run(line: str) -> bool:
    """Whether ``line`` (stripped) can start a run: a request, raw statistics or the head of a
    statistics block."""
    return bool(_REQ_RE.match(line) or _RAW_RE.match(line) or _HEAD_RE.match(line))


def _info(target: str, info: str) -> dict:
    """``(ext4 /dev/vda 252.0 GiB)`` → filesystem, device; ``(block device …)`` → a block device."""
    parts = info.split()
    out = {"target": target}
    if len(parts) >= 2 and parts[0] == "block" and parts[1] == "device":
        out["device"] = target
    else:
        if parts:
            out["filesystem"] = parts[0]
        if len(parts) >= 2:
            out["device"] = parts[1]
    return out


def _raw_fields(line: str) -> list[int]:
    return [int(x) for x in line.split()]


class _Text:
    """Text and raw outputs, one or several runs (a run ends with its summary)."""

    def __init__(self, text: str, source: str, interval: float | None):
        self.text = text
        self.source = source
        self.lines = text.splitlines()
        self.interval = interval
        self.records: list[dict] = []
        self.series: list[pd.DataFrame] = []
        self.notes: list[str] = []
        self.skipped: tuple[int, str] | None = None  # the first line left out before a run

    def err(self, idx, expected, found=None):
        return ParseError(self.source, idx + 1, expected, found=found)

    def parse(self) -> Parsed:
        run: dict = self._new_run()
        summaries = 0
        for i, raw in enumerate(self.lines):
            s = raw.strip()
            if not s:
                continue
            if run["start"] is None:
                if not _starts_run(s) and not s.startswith("ioping:"):
                    # before a run's first line: the terminal's prompt or command, a date
                    self.notes.append(f"line {i + 1}: not ioping's output, left out: {s[:120]!r}")
                    self.skipped = self.skipped or (i, s)
                    continue
                run["start"] = i
            if self._line(run, s, i) == "mdev":
                self._finish_text(run)
                summaries += 1
                run = self._new_run()
        return self._end(run, summaries)

    def _line(self, run: dict, s: str, i: int) -> str:
        """Take one line into ``run``; return its kind (a key of :data:`_SUMMARY_LINES`,
        ``"request"`` or ``"raw"``)."""
        m = _REQ_RE.match(s)
        if m:
            self._request(run, m, i)
            return "request"
        if _RAW_RE.match(s):
            fields = _raw_fields(s)
            if max(fields) >= 2**63:
                raise self.err(i, "ioping raw statistics (64-bit counters)", found=s)
            run["raw"].append((i, fields))
            return "raw"
        for pattern, key, after in _SUMMARY_LINES:
            m = pattern.match(s)
            if m and (after is None or run[after]):
                run[key] = (i, m)
                return key
        if s.startswith("ioping:"):
            raise self.err(i, "ioping output (ioping reported an error)", found=s)
        raise self.err(i, "an ioping request line, raw statistics line or summary block",
                       found=s)

    def _end(self, run: dict, summaries: int) -> Parsed:
        """The file's result once every line is read: an unfinished block is refused."""
        if run["head"] or run["done"] or run["gen"]:
            last = max(x[0] for x in (run["head"], run["done"], run["gen"]) if x)
            raise self.err(last, "the rest of the ioping statistics block "
                           "('min/avg/max/mdev = ...')", found="end of file")
        if run["requests"] and not run["raw"]:
            raise self.err(len(self.lines) - 1, "an ioping statistics block after the requests "
                           "(the run was cut short)", found="end of file")
        if run["raw"]:
            self._finish_raw(run)
        elif run["start"] is None and not summaries:
            if self.skipped is not None:  # (lines, none of them ioping's: the first one named)
                raise self.err(self.skipped[0], "an ioping request line, raw statistics line or "
                               "summary block", found=self.skipped[1])
            raise ParseError(self.source, None, "ioping output", found="an empty file")
        fmt = "text" if summaries else "raw"
        return Parsed(tool=TOOL, format=fmt, version=None, records=self.records,
                      series=self.series, notes=self.notes)

    @staticmethod
    def _new_run() -> dict:
        return {"start": None, "requests": [], "raw": [], "head": None, "done": None,
                "gen": None, "mdev": None, "dir": None, "meta": {}, "block_size": None}

    def _request(self, run: dict, m: re.Match, i: int) -> None:
        try:
            size = number(m["size"], self.source, i + 1, "size",
                          scale=_SIZE[m["sunit"] or ""], found=m["size"])
            t = number(m["t"], self.source, i + 1, "time",
                       scale=_TIME[m["tunit"]] if m["tunit"] else 1.0, found=m["t"])
            if int(m["req"]) >= 2**63 or size >= 2**63:
                raise ValueError("a request number or size beyond 64 bits")
        except (KeyError, ValueError) as exc:
            raise self.err(i, "an ioping request line with known units", found=m.string) from exc
        run["dir"] = run["dir"] or m["dir"]
        if run["dir"] != m["dir"]:
            run["dir"] = "<>"  # -G ping-pong: reads and writes
        run["block_size"] = int(size)
        run["meta"] = _info(m["target"], m["info"])
        notice = m["notice"]
        if notice not in _EXCLUDED:
            run["requests"].append((int(m["req"]), t, i))

    def _base(self, run: dict, op: str, key_line: int) -> dict:
        workload = {"read": "randread", "write": "randwrite"}.get(op, "other")
        return {"source": self.source, "run_key": f"line {key_line + 1}", "tool": TOOL,
                "tool_version": None, "timestamp": None, "test": TEST, "workload": workload,
                "op": op, "block_size": run["block_size"], "threads": 1, "iodepth": 1,
                "repetition": None, **run["meta"]}

    def _finish_text(self, run: dict) -> None:
        hi, head = run["head"]
        di, done = run["done"]
        gi, gen = run["gen"]
        mi, mdev = run["mdev"]
        run["meta"] = {**_info(head["target"], head["info"]), **run["meta"]}
        direction = done["dir"]
        if direction is None and run["dir"] in (None, "<>"):
            op = "total"
        else:
            op = {"read": "read", "written": "write"}.get(direction) or \
                {"<<<": "read", ">>>": "write"}[run["dir"]]
        src = self.source
        each = None  # the request size the totals give, when they give a whole number
        try:
            n = _count(done["n"], src)
            io_bytes = _size(done["size"], src)
            if run["block_size"] is None and n and (io_bytes / n).is_integer():
                each = io_bytes / n
                if each < 2**63:  # the frame's integers are 64-bit
                    run["block_size"] = int(each)
            base = self._base(run, op, run["start"])
            blocks = {"mdev": (mi, mdev), "done": (di, done), "gen": (gi, gen)}
            rows = [(metric, conv(blocks[block][1][key], src), blocks[block][0])
                    for metric, block, key, conv in _TEXT_STATS]
            generated = _count(gen["n"], src)
            wall = _time(gen["wall"], src)
        except (ValueError, KeyError, OverflowError) as exc:  # ParseError: a figure out of range
            found = f"{exc.found!r} is not {exc.expected}" if isinstance(exc, ParseError) else exc
            raise self.err(mi, "ioping statistics with known units", found=str(found)) from exc
        if each is not None and each >= 2**63:
            raise self.err(di, "a request size within 64 bits (bytes / requests)",
                           found=f"{each:g} bytes per request")
        for metric, value, line in rows:
            self.records.append({**base, "position": f"line {line + 1}", "metric": metric,
                                 "value": value})
        interval = self.interval
        if interval is None:
            interval = wall / (generated - 1) if generated > 1 else 1.0
        self._request_series(run, base, op, interval)
        self._periodic_series(run, base, op)

    def _request_series(self, run: dict, base: dict, op: str, interval: float) -> None:
        reqs = run["requests"]
        if not reqs:
            return
        self.series.append(pd.DataFrame({
            "run_id": schema.run_id(self.source, base["run_key"]), "source": self.source,
            "test": TEST, "op": op, "metric": "lat",
            "t": [(r - 1) * interval for r, _, _ in reqs],
            "value": [v for _, v, _ in reqs], "unit": "s", "block_size": run["block_size"]},
            dtype=object))

    def _periodic_series(self, run: dict, base: dict, op: str, raws=None) -> None:
        raws = run["raw"] if raws is None else raws
        if not raws:
            return
        rows, t = [], 0.0
        for _, f in raws:
            t += f[9] / 1e9
            rows += [("iops", float(f[2]), "IO/s", t), ("bandwidth", float(f[3]), "B/s", t),
                     ("lat_mean", f[5] / 1e9, "s", t)]
        self.series.append(pd.DataFrame({
            "run_id": schema.run_id(self.source, base["run_key"]), "source": self.source,
            "test": TEST, "op": op, "metric": [r[0] for r in rows], "t": [r[3] for r in rows],
            "value": [r[1] for r in rows], "unit": [r[2] for r in rows],
            "block_size": run["block_size"]}, dtype=object))

    def _finish_raw(self, run: dict) -> None:
        raws = run["raw"]
        final = None
        periodic = raws
        if len(raws) == 1:
            final, periodic = raws[0], []
        else:
            *prev, last = raws
            f = last[1]
            if (f[0] == sum(p[1][0] for p in prev) and f[8] == sum(p[1][8] for p in prev)
                    and f[4] == min(p[1][4] for p in prev) and f[6] == max(p[1][6] for p in prev)):
                final, periodic = last, prev
        op = {"<<<": "read", ">>>": "write"}.get(run["dir"] or "", "total")
        base = self._base(run, op, run["start"])
        if final is None:
            self.notes.append("periodic ioping statistics only (-q -p): no whole-run summary, "
                              "see the series frame")
        else:
            i, f = final
            pos = f"line {i + 1}"
            for metric, value in (("total_ios", f[0]), ("iops", f[2]), ("bandwidth", f[3]),
                                  ("lat_min", f[4] / 1e9), ("lat_mean", f[5] / 1e9),
                                  ("lat_max", f[6] / 1e9), ("lat_stddev", f[7] / 1e9),
                                  ("runtime", f[9] / 1e9)):
                self.records.append({**base, "position": pos, "metric": metric,
                                     "value": float(value)})
        if self.interval is not None or final is not None:
            interval = self.interval
            if interval is None:
                f = final[1]
                interval = f[9] / 1e9 / (f[8] - 1) if f[8] > 1 else 1.0
            self._request_series(run, base, op, interval)
        self._periodic_series(run, base, op, periodic)


# the final stat object's figures: (metric, key, divisor to the canonical unit or None)
_JSON_STATS = (("total_ios", "count", None), ("io_bytes", "size", None), ("iops", "iops", None),
               ("bandwidth", "bps", None), ("lat_min", "min", 1e9), ("lat_mean", "avg", 1e9),
               ("lat_max", "max", 1e9), ("lat_stddev", "mdev", 1e9))
# a periodic stat object's figures (-J -p): (metric, key, divisor or None, unit)
_JSON_PERIODIC = (("iops", "iops", None, "IO/s"), ("bandwidth", "bps", None, "B/s"),
                  ("lat_mean", "avg", 1e9, "s"))


def _json_doc(text: str, source: str) -> tuple[list, list[int]]:
    """The -J array and the indices of its 'stat' objects."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(source, exc.lineno, "an ioping -J JSON array", found=exc.msg) from exc
    except RecursionError as exc:
        raise ParseError(source, "$", "an ioping -J JSON array",
                         found="nesting too deep") from exc
    except ValueError as exc:  # an integer of more than 4,300 digits
        raise ParseError(source, "$", "an ioping -J JSON array with numbers Python can "
                         "convert", found=str(exc)) from exc
    if not isinstance(doc, list) or not doc:
        raise ParseError(source, "$", "a non-empty JSON array of ioping objects",
                         found=type(doc).__name__)
    stats = [k for k, e in enumerate(doc) if isinstance(e, dict) and "stat" in e]
    if not stats:
        raise ParseError(source, "$", "ioping 'stat' objects (the run's statistics)",
                         found="no 'stat' object")
    return doc, stats


def _json_base(doc: list, ios: list, fin: dict, source: str) -> tuple[dict, float]:
    """The columns every row of the run shares, and the run's start time (epoch s)."""
    ops = {e["io"]["operation"] for _, e in ios}
    op = ops.pop() if len(ops) == 1 else ("total" if ops else "read")
    op = op if op in ("read", "write") else "total"
    st, load = fin["stat"], fin.get("load", {})
    tgt = fin.get("target", {})
    meta = {"target": tgt.get("path")}
    if tgt.get("fstype"):
        meta["filesystem"] = tgt["fstype"]
    if tgt.get("device"):
        meta["device"] = tgt["device"]
    block = int(st["size"] / st["count"]) if st.get("count") else None
    if ios:
        k, first = ios[0]
        block = int(_json_value(first["io"]["size"], source, f"$[{k}].io.size"))
        t0 = float(first["timestamp"])
    else:
        t0 = float(fin["timestamp"]) - float(load.get("time", 0)) / 1e9
    if block is not None and not 0 < block < 2**63:
        where = f"$[{ios[0][0]}].io.size" if ios else "$.stat.size"
        raise ParseError(source, where, "an I/O size of 1 byte to 8 EiB",
                         found=f"{block:.6g}" if block < 2**63 else "a size beyond 64 bits")
    ts = pd.Timestamp(round(t0 * 1e6), unit="us", tz="UTC")  # printed with 6 decimals
    workload = {"read": "randread", "write": "randwrite"}.get(op, "other")
    return {"source": source, "run_key": "$", "tool": TOOL, "tool_version": None,
            "timestamp": ts, "test": TEST, "workload": workload, "op": op,
            "block_size": block, "threads": 1, "iodepth": 1, "repetition": None, **meta}, t0


def _json_frame(base: dict, source: str, rows: list[tuple]) -> pd.DataFrame:
    """A series frame of (metric, value, unit, t) rows."""
    return pd.DataFrame({
        "run_id": schema.run_id(source, "$"), "source": source, "test": TEST, "op": base["op"],
        "metric": [r[0] for r in rows], "t": [r[3] for r in rows],
        "value": [r[1] for r in rows], "unit": [r[2] for r in rows],
        "block_size": base["block_size"]}, dtype=object)


def _json_rows(doc: list, stats: list[int], source: str) -> tuple[list[dict], list]:
    ios = [(k, e) for k, e in enumerate(doc) if "io" in e]
    k_final = stats[-1]
    fin = doc[k_final]
    base, t0 = _json_base(doc, ios, fin, source)
    st, load = fin["stat"], fin.get("load", {})
    p = f"$[{k_final}]"
    rows = [(m, st[key] if d is None else st[key] / d, f"{p}.stat.{key}")
            for m, key, d in _JSON_STATS]
    if "time" in load:
        rows.append(("runtime", load["time"] / 1e9, f"{p}.load.time"))
    records = [{**base, "position": pos, "metric": m, "value": float(v)} for m, v, pos in rows]
    series = []
    valid = [(_json_value(float(e["timestamp"]) - t0, source, f"$[{k}].timestamp", True),
              _json_value(e["io"]["time"] / 1e9, source, f"$[{k}].io.time"))
             for k, e in ios if not e["io"].get("ignored")]
    if valid:
        series.append(_json_frame(base, source, [("lat", v, "s", max(t, 0.0))
                                                 for t, v in valid]))
    rows_p = []
    for k in stats[:-1]:
        e = doc[k]
        t = _json_value(float(e["timestamp"]) - t0, source, f"$[{k}].timestamp", True)
        rows_p += [(m, _json_value(e["stat"][key] if d is None else e["stat"][key] / d, source,
                                   f"$[{k}].stat.{key}"), unit, t)
                   for m, key, d, unit in _JSON_PERIODIC]
    if rows_p:
        series.append(_json_frame(base, source, rows_p))
    return records, series


def _parse_json(text: str, source: str) -> Parsed:
    doc, stats = _json_doc(text, source)
    try:
        records, series = _json_rows(doc, stats, source)
    except ParseError:
        raise
    except (KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError,
            OverflowError) as exc:
        raise ParseError(source, "$", "ioping JSON objects with io/stat/load fields",
                         found=f"{type(exc).__name__}: {exc}") from exc
    for r in records:
        number(r["value"], source, r["position"])
    return Parsed(tool=TOOL, format="json", version=None, records=records, series=series)


def _json_value(v, source: str, pos: str, signed: bool = False) -> float:
    """A number of an ioping JSON object: finite (and >= 0 unless ``signed``)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ParseError(source, pos, "a number", found=repr(v))
    return number(v, source, pos, negative=signed, found=repr(v))


def parse(text: str, source: str, *, interval: float | None = None, **options) -> Parsed:
    """Parse one ioping output (text, ``-q``, ``-B``/``-p`` raw lines or ``-J`` JSON).

    Parameters
    ----------
    text, source : str
        The output and its name.
    interval : float, optional
        ioping's ``-i`` in seconds, to place text per-request series rows in time; estimated
        from the summary's wall time when omitted.

    Examples
    --------
    >>> p = parse("19 1707550 11127 45576411 45505 89871 170009 38269 20 1900157788\\n", "b.txt")
    >>> {r["metric"]: r["value"] for r in p.records}["lat_mean"]
    8.9871e-05
    """
    stripped = text.lstrip()
    if stripped[:1] in ("[", "{") and sniff(text[:HEAD_BYTES]) != "text":
        return _parse_json(text, source)
    try:
        return _Text(text, source, interval).parse()
    except ParseError:
        raise
    except (ValueError, RecursionError) as exc:  # e.g. an integer of > 4,300 digits
        raise unconvertible(exc, text, source) from exc


def read_ioping(path: str | os.PathLike, *, series: bool = False, interval: float | None = None,
                **meta):
    """Read one ioping output file into the tidy results frame (and the series frame).

    Parameters
    ----------
    path : str or path-like
        The saved output (any of the formats above).
    series : bool, default False
        Also return the series frame (per-request latencies, periodic statistics).
    interval : float, optional
        The ``-i`` used, in seconds (see :func:`parse`).
    **meta
        Metadata set on every row (``volume=``, ``op=``, …), overriding what the output says.

    Examples
    --------
    >>> import ebsstats as es
    >>> df = es.read_ioping("tests/fixtures/ioping/ioping_c10.txt")
    >>> float(df.loc[df.metric == "lat_mean", "value"].iloc[0])
    0.0001144
    """
    return read_one(path, parse, meta=meta or None, series=series, interval=interval)



# the reader this module registers (ebsstats.io._registry): sniff, then parse text
READER = Reader(tool="ioping", name=__name__, detect=sniff, parse=text_parser(parse),
                memory_factor=MEMORY_FACTOR)
