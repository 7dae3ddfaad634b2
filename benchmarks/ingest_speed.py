"""Ingest speed and memory of ebsstats, each figure next to the raw limit measured in the same
run on the same bytes. A script that prints figures; never a timed test.

Figures (targets from the performance issue, for a 2-core machine):

1. per format, in one process: fio JSON files/s against parsing the same files with the fastest
   JSON parser installed (target: ingest within 2x of parse-only), bonnie++ / sysbench / PTS
   files/s, with a breakdown of where the time goes;
2. fio log lines/s against ``pyarrow.csv.read_csv`` on the same bytes (target: within 1.5x) and
   against fio's own ``tools/fiologparser.py`` (target: at least 25x faster at loading; and
   the task its default output does, interval-weighted 1 s means, on a prefix), fio-plot if
   installed;
3. 10,000 mixed result files (``make_many_files.py``) with the progress bar: wall time (target
   < 30 s), CPU time of this process and of the workers, peak memory against the size of the
   frame (target <= 3x);
4. ``import ebsstats`` time (target < 1 s, no pandas imported);
5. ``ebsstats report`` on the bundled corpus (target < 90 s).

The machine is often shared: every timing is printed as wall time *and* CPU time, with the load
average; ratios use the best of several repetitions.

Usage::

    python benchmarks/ingest_speed.py [--quick] [--files 10000] [--log-lines 2000000]
                                      [--skip-report] [--skip-many] [--workdir DIR]
                                      [--fio-corpus DIR --pkb CHECKOUT --pkb-python PY
                                       --fioplot-python PY] [--only peers,limits,...]

The peers (PerfKit Benchmarker's fio parser, fio-plot) run in their own Pythons from paths given
as arguments (a PKB checkout; a venv with ``pip install fio-plot``): nothing of theirs is in this
repository or its dependencies.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

FIOLOGPARSER = Path("/usr/share/doc/fio/fiologparser.py.gz")  # Debian's fio package
RESULTS: list[tuple[str, str, str, str]] = []  # (figure, value, target, verdict)


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def say(msg: str = "") -> None:
    print(msg, flush=True)


def record(figure: str, value: str, target: str = "", ok: bool | None = None) -> None:
    verdict = "" if ok is None else ("met" if ok else "NOT met")
    RESULTS.append((figure, value, target, verdict))


def best(fn, repeat: int = 3):
    """(best wall s, best CPU s, result) over ``repeat`` runs."""
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus), out


def json_parser():
    """The fastest JSON parser installed: orjson, msgspec (a dependency), simdjson, ujson,
    else the stdlib."""
    for name in ("orjson", "msgspec", "simdjson", "ujson"):
        if importlib.util.find_spec(name):
            mod = __import__(name)
            if name == "simdjson":
                return name, mod.Parser().parse
            if name == "msgspec":
                return name, mod.json.Decoder().decode
            return name, mod.loads
    return "json (stdlib; orjson/msgspec/simdjson/ujson not installed)", json.loads


# ------------------------------------------------------------------------------------------
# 1. per format
# ------------------------------------------------------------------------------------------

FORMATS = {"fio JSON": ".json", "bonnie++ CSV": ".csv", "sysbench text": ".txt",
           "PTS XML": ".xml"}


def format_folders(work: Path) -> dict[str, Path]:
    from make_many_files import result_files

    out = {}
    for label, suffix in FORMATS.items():
        d = work / "formats" / suffix.lstrip(".")
        # made anew: a copy kept from an earlier data/ (the regenerated corpus renames its run
        # folders) had doubled the folders to 514 bonnie++ and 520 sysbench files
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        for src in result_files(ROOT / "data"):
            if src.suffix == suffix:
                rel = src.relative_to(ROOT / "data").as_posix().replace("/", "__")
                shutil.copyfile(src, d / rel)
        out[label] = d
    return out


def per_format(work: Path, repeat: int) -> None:
    import ebsstats as es
    say(f"\n== 1. ingest per format (one process: jobs=1; best of {repeat}; CPU seconds) ==")
    folders = format_folders(work)
    name, loads = json_parser()
    for label, d in folders.items():
        files = sorted(d.iterdir())
        es.read(d, jobs=1)  # warm the page cache and imports
        w, c, df = best(lambda d=d: es.read(d, jobs=1), repeat)
        nbytes = sum(f.stat().st_size for f in files)
        say(f"{label:14s} {len(files):5d} files {nbytes / 1e6:6.1f} MB -> {len(df):7d} rows | "
            f"ingest {len(files) / c:7.0f} files/s CPU ({c:.3f} s; wall {w:.3f} s)")
        record(f"{label} ingest", f"{len(files) / c:.0f} files/s ({len(df) / c:,.0f} rows/s)")
        if suffix_of(label) == ".json":
            json_figures(d, files, c, name, loads, repeat)


def json_figures(d: Path, files: list[Path], c: float, name: str, loads, repeat: int) -> None:
    """fio JSON ingest against parse-only, and where the time goes (same files, same process)."""
    from ebsstats.io import _common, fio, sniff
    from ebsstats.io import folder as folder_mod

    pw, pc, _ = best(lambda: [loads(f.read_bytes()) for f in files], repeat)
    ratio = c / pc
    # the target (<= 2x read + json.loads on 2,000 distinct reports) is section 1b's;
    # this is the bundled corpus against the fastest decoder installed: where the time goes
    say(f"{'':14s} parse-only with {name}: {len(files) / pc:7.0f} files/s CPU "
        f"({pc:.3f} s) -> ingest / parse-only = {ratio:.2f}x (the fastest decoder; the "
        "target is section 1b's)")
    record(f"fio JSON (data/) ingest / parse-only with {name.split()[0]}", f"{ratio:.2f}x")
    texts = [_common.decode(f.read_bytes(), str(f)) for f in files]
    parsed = [fio._parse(t, str(f)) for t, f in zip(texts, files, strict=True)]
    chunks = [p.chunk() for p in parsed]
    parts = {
        "read + decode": lambda: [_common.decode(f.read_bytes(), str(f)) for f in files],
        "sniff": lambda: [sniff.sniff_text(t[:65536], "x.json") for t in texts],
        "json.loads alone": lambda: [json.loads(t) for t in texts],
        "fio parse to columns (incl. json.loads)": lambda: [fio._parse(t, str(f)) for t, f in
                                                            zip(texts, files, strict=True)],
        "columns -> chunk": lambda: [p.chunk() for p in parsed],
        "typing (one pass)": lambda: _common.results_of(chunks),
        "walk": lambda: folder_mod._walk(d),
    }
    times = {k: best(v, repeat)[1] for k, v in parts.items()}
    accounted = sum(v for k, v in times.items() if k != "json.loads alone")
    times["folder rest (meta, dedupe, ...)"] = max(c - accounted, 0.0)
    say(f"{'':16s}where the time goes (CPU, best of {repeat}):")
    for k, v in times.items():
        say(f"{'':16s}{k:32s} {v * 1e3:8.1f} ms  {v / pc:5.2f}x parse-only")


def suffix_of(label: str) -> str:
    return FORMATS[label]


# ------------------------------------------------------------------------------------------
# 1b. fio JSON: ebsstats against its peers on one corpus of genuine reports
# ------------------------------------------------------------------------------------------

def _child(cmd: list[str]) -> dict | None:
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode:
        say(f"  ({cmd[0]} failed: {proc.stderr.strip().splitlines()[-1:]})")
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def fio_json_peers(corpus: Path, pkb: str | None, pkb_python: str | None,
                   fioplot_python: str | None, repeat: int) -> None:
    """es.read of every report in ``corpus`` against read + json.loads, PerfKit Benchmarker's
    ParseResults and fio-plot's JSON import. Each peer runs in its own Python (its own
    dependencies) and measures its own read + json.loads on the same files in the same
    process: the ratios to parse-only are what compare across processes."""
    import ebsstats as es

    files = sorted(corpus.glob("*.json"))
    say(f"\n== 1b. fio JSON: {len(files):,} genuine reports in {corpus} "
        f"(benchmarks/make_fio_corpus.py; best of {repeat}, wall) ==")
    loads = json.loads

    def parse_only():
        return [loads(f.read_bytes()) for f in files]

    parse_only()
    es.read(corpus, jobs=1, progress=False)
    rows = {}
    for _ in range(2):  # interleaved: the load of a shared machine hits both alike
        tp = best(parse_only, repeat)[0]
        t1, _, df = best(lambda: es.read(corpus, jobs=1, progress=False), repeat)
        ta = best(lambda: es.read(corpus, progress=False), repeat)[0]
        rows.setdefault("parse", []).append(tp)
        rows.setdefault("jobs1", []).append(t1)
        rows.setdefault("auto", []).append(ta)
    tp, t1, ta = (min(rows[k]) for k in ("parse", "jobs1", "auto"))
    say(f"read + json.loads (stdlib)      {tp:7.3f} s  1.00x")
    say(f"es.read, jobs=1                 {t1:7.3f} s  {t1 / tp:5.2f}x  ({len(df):,} typed rows, "
        f"{len(df) / len(files):.0f} per file)")
    say(f"es.read, default workers        {ta:7.3f} s  {ta / tp:5.2f}x")
    record("fio JSON: es.read / read+json.loads", f"{t1 / tp:.2f}x jobs=1, {ta / tp:.2f}x "
           "default", "<= 2x", min(t1, ta) / tp <= 2)
    here = Path(__file__).resolve().parent
    if pkb and pkb_python:
        # PerfKit's two fio parsers: linux_packages/fio.py (fio_benchmark; asked for its
        # aggregates only, the least work it can do) and linux_benchmarks/fio/result_parser.py
        # (its nine newer fio benchmarks; as they call it, percentiles included)
        for extra, label, figure in (([], "PerfKit Benchmarker, fio.py", "fio.py aggregates"),
                                     (["current"], "PerfKit, result_parser.py",
                                      "result_parser.py")):
            r = _child([pkb_python, str(here / "_peer_pkb.py"), pkb, str(corpus), str(repeat),
                        *extra])
            if r:
                say(f"{label:31s} {r['peer']:7.3f} s  {r['peer'] / r['parse']:5.2f}x  (its "
                    f"parse-only {r['parse']:.3f} s; {r['ok']} files, {r['failed']} failed, "
                    f"{r['samples'] / max(r['ok'], 1):.0f} samples per file)")
                record(f"fio JSON: PKB {figure} / read+json.loads",
                       f"{r['peer'] / r['parse']:.2f}x ({r['failed']} failed, "
                       f"{r['samples'] / max(r['ok'], 1):.0f} samples per file)")
        fio_first_reads(corpus, pkb, pkb_python, repeat)
    else:
        say("PerfKit Benchmarker: not measured (--pkb CHECKOUT --pkb-python PYTHON)")
    if fioplot_python:
        r = _child([fioplot_python, str(here / "_peer_fioplot.py"), str(corpus), str(repeat)])
        if r:
            say(f"fio-plot JSON import            {r['peer']:7.3f} s  {r['peer'] / r['parse']:5.2f}x"
                f"  (its parse-only {r['parse']:.3f} s; {r['ok']} files, {r['failed']} failed, "
                f"{r['rows'] / max(r['ok'], 1):.0f} row per file)")
            record("fio JSON: fio-plot import / read+json.loads",
                   f"{r['peer'] / r['parse']:.2f}x ({r['failed']} failed)")
    else:
        say("fio-plot: not measured (--fioplot-python PYTHON of a venv with fio-plot)")


def fio_first_reads(corpus: Path, pkb: str, pkb_python: str, repeat: int) -> None:
    """The same reports read once in a fresh process by each side, what a script or ``ebsstats
    report`` pays: es.read after a read of another tool's folder (its one-time costs), against
    PerfKit Benchmarker's first ParseResults pass after its imports. The figures above are
    best-of-N in one process, where ebsstats' per-layout plans and kept columns are warm and
    PerfKit keeps nothing: both are shown, the first read is the one a user meets once.

    Each of PerfKit's two parsers is run twice: dropping each report's samples once counted
    (for fio.py, asked for its aggregates only: the fastest PerfKit there is), and keeping them
    all in one list, as its own run does for its publisher (like for like with es.read, which
    ends holding its frame)."""
    here = Path(__file__).resolve().parent
    sides = {"fio.py aggregates": [], "fio.py aggregates, kept": ["keep"],
             "result_parser.py": ["current"], "result_parser.py, kept": ["current", "keep"]}
    es_first, got = [], {k: [] for k in sides}
    for _ in range(max(repeat, 3)):  # interleaved, min of each
        es_first.append(_fresh_fio_read(corpus))
        for label, extra in sides.items():
            r = _child([pkb_python, str(here / "_peer_pkb.py"), pkb, str(corpus), "1", *extra])
            if r:
                got[label].append((r["peer"], r["peer_user"], r["peer_sys"], r["peer_faults"]))
    if not all(got.values()):
        return
    fe = min(es_first)
    best_of = {k: min(v) for k, v in got.items()}
    say(f"first read in a fresh process: es.read {fe[0]:.3f} s")
    # where a first read's time goes: ebsstats holds a folder's rows until it types them once
    # and builds its frame, memory the system maps page by page in a fresh process; PerfKit
    # dropping its samples keeps one report at a time and a few values of each
    for who, (t, user, sys_, faults) in (("es.read", fe), *(
            (f"PerfKit {k}", v) for k, v in best_of.items())):
        say(f"   {who:32s} {t:6.3f} s = es x{t / fe[0]:4.2f}; user {user * 1e3:5.0f} ms, "
            f"system {sys_ * 1e3:4.0f} ms, {faults:,} page faults")
    for label, (t, *_rest) in best_of.items():
        record(f"fio JSON, first read: es.read / PKB {label}", f"{fe[0] / t:.2f}x",
               "< 1x (faster)", fe[0] < t)


def _fresh_fio_read(corpus: Path) -> tuple[float, float, float, int]:
    """Seconds of one es.read of ``corpus`` in a new Python process (after a read of the
    ioping fixtures and one pass over the files' bytes, as the peer's page-cache warm-up), and
    that read's user and system CPU seconds and minor page faults."""
    warm = ROOT / "tests" / "fixtures" / "ioping"
    code = ("import gc, time, pathlib, resource, warnings; warnings.simplefilter('ignore')\n"
            "import ebsstats as es\n"
            f"es.read({str(warm)!r}, jobs=1, progress=False)\n"
            f"[f.read_bytes() for f in pathlib.Path({str(corpus)!r}).glob('*.json')]\n"
            "gc.collect(); r0 = resource.getrusage(resource.RUSAGE_SELF)\n"
            "t = time.perf_counter()\n"
            f"es.read({str(corpus)!r}, jobs=1, progress=False)\n"
            "t = time.perf_counter() - t; r1 = resource.getrusage(resource.RUSAGE_SELF)\n"
            "print(t, r1.ru_utime - r0.ru_utime, r1.ru_stime - r0.ru_stime, "
            "r1.ru_minflt - r0.ru_minflt)")
    t, user, sys_, faults = _fresh_line(code).split()
    return float(t), float(user), float(sys_), int(faults)


def _fresh_line(code: str) -> str:
    """The last line ``code`` prints, run in a new Python process (from ``/``, with this
    checkout and its benchmarks first on the path)."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'benchmarks'}"}
    out = subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd="/",
                         capture_output=True, text=True)
    return out.stdout.strip().splitlines()[-1]


# ------------------------------------------------------------------------------------------
# 1c. bonnie++, sysbench, PTS against a split/regex-to-frame limit
# ------------------------------------------------------------------------------------------

def _limit_bonnie(files: list[Path]):
    """The least a bonnie++ CSV reader does: split each line, numbers to a frame."""
    import pandas as pd

    rows = []
    for f in files:
        for line in f.read_text().splitlines():
            rows.extend((f.name, k, float(x)) for k, x in enumerate(line.split(","))
                        if x[:1].isdigit() and x.replace(".", "", 1).isdigit())
    return pd.DataFrame(rows, columns=["source", "field", "value"])


_SB_LINE = None


def _limit_sysbench(files: list[Path]):
    """The least a sysbench text reader does: one regex for every 'name: number' line."""
    import re

    import pandas as pd

    global _SB_LINE
    _SB_LINE = _SB_LINE or re.compile(r"^\s*([A-Za-z][\w ,/()]*?):\s+([0-9.]+)", re.M)
    rows = [(f.name, m.group(1), float(m.group(2))) for f in files
            for m in _SB_LINE.finditer(f.read_text())]
    return pd.DataFrame(rows, columns=["source", "name", "value"])


def _limit_pts(files: list[Path]):
    """The least a PTS XML reader does: parse, every Entry's Value and RawString to a frame."""
    import xml.etree.ElementTree as ET

    import pandas as pd

    rows = []
    for f in files:
        root = ET.fromstring(f.read_bytes())
        for k, res in enumerate(root.iter("Result")):
            for e in res.iter("Entry"):
                for v in [e.findtext("Value") or ""] + (e.findtext("RawString") or "").split(":"):
                    try:
                        rows.append((f.name, k, float(v)))
                    except ValueError:
                        pass
    return pd.DataFrame(rows, columns=["source", "result", "value"])


LIMITS = {"bonnie++ CSV": _limit_bonnie, "sysbench text": _limit_sysbench,
          "PTS XML": _limit_pts}


def text_limits(work: Path, repeat: int) -> None:

    say(f"\n== 1c. bonnie++ / sysbench / PTS: es.read against split/regex-to-frame (jobs=1, "
        f"best of {repeat}, wall) ==")
    folders = format_folders(work)
    for label in LIMITS:
        limit_ratio(label, folders[label], repeat, f"{label}: es.read / split-regex limit")


def limit_ratio(label: str, d: Path, repeat: int, figure: str) -> None:
    """es.read of the folder ``d`` against the format's split/regex limit on its files: in one
    process after a first read (what re-reading in a notebook costs: the readers' bounded
    layout caches are warm), and as the first read of a fresh process (what a script or
    ``ebsstats report`` pays: nothing of these files seen before, on either side)."""
    import ebsstats as es

    files = sorted(d.iterdir())
    es.read(d, jobs=1, progress=False)
    tl, cl, lim = best(lambda: LIMITS[label](files), repeat)
    te, ce, df = best(lambda: es.read(d, jobs=1, progress=False), repeat)
    say(f"{label:14s} {len(files):5d} files: limit {tl:.3f} s ({len(lim):,} numbers), "
        f"es.read {te:.3f} s ({len(df):,} rows) = {te / tl:.2f}x (CPU {ce / cl:.2f}x)")
    record(figure, f"{te / tl:.2f}x", "<= 2x", te / tl <= 2)
    fl = min(_fresh_read("limit", label, d) for _ in range(repeat))
    fe = min(_fresh_read("es", label, d) for _ in range(repeat))
    say(f"{'':14s} first read in a fresh process: limit {fl:.3f} s, es.read {fe:.3f} s = "
        f"{fe / fl:.2f}x")
    record(figure.replace(":", ", first read:", 1), f"{fe / fl:.2f}x", "<= 2x", fe / fl <= 2)


_FRESH = {
    # one-time costs of a process first, then the folder, timed: ebsstats reads another tool's
    # files (modules, dtypes), the limit makes a small frame and parses a small XML; then both
    # collect the garbage their imports left, so that neither side's timed read pays for a
    # collection of its imports' objects (whether one falls inside depends on the collector's
    # counters after the imports: on cached bytecode or not, 1-10 ms either way)
    "es": "import warnings; warnings.simplefilter('ignore'); import ebsstats as es; "
          "es.read({warm!r}, jobs=1, progress=False); gc.collect()\n"
          "t = time.perf_counter(); es.read({d!r}, jobs=1, progress=False)",
    "limit": "import pandas as pd, xml.etree.ElementTree as ET; import ingest_speed as b\n"
             "pd.DataFrame([('a', 1, 1.0)], columns=['s', 'k', 'v']); ET.fromstring('<a>1</a>')"
             "\n"  # (each side compiles its own patterns in the timed read, as a user's first)
             "LIMITS = b.LIMITS; files = sorted(pathlib.Path({d!r}).iterdir()); gc.collect()\n"
             "t = time.perf_counter(); LIMITS[{label!r}](files)",
}


def _fresh_read(side: str, label: str, d: Path) -> float:
    """Seconds of one read of ``d`` (es.read or the limit) in a new Python process."""
    warm = ROOT / "tests" / "fixtures" / "ioping"
    code = ("import gc, sys, time, pathlib\n" + _FRESH[side].format(warm=str(warm), d=str(d),
                                                               label=label)
            + "\nprint(time.perf_counter() - t)")
    return float(_fresh_line(code))


def text_limits_many(work: Path, files: int, repeat: int) -> None:
    """The same ratios on the bonnie++ CSV, sysbench text and PTS XML files of the many-files
    tree (``make_many_files.py``: thousands of distinct files; PTS: 44, eleven copies of the
    four in ``data/`` that differ by their trailing newlines), where a read's fixed cost (typing
    a 37- to 47-column frame, a first file of a layout) is spread over many files: the
    per-file cost."""
    from make_many_files import make


    tree = work / f"many-{files}"
    if not tree.exists():
        make(tree, files)
    say(f"\n== 1d. bonnie++ / sysbench / PTS on the {files:,}-file tree's files (jobs=1, best "
        f"of {repeat}, wall) ==")
    for label, suffix in (("bonnie++ CSV", ".csv"), ("sysbench text", ".txt"),
                          ("PTS XML", ".xml")):
        d = work / "many-formats" / suffix.lstrip(".")
        if not d.exists():
            d.mkdir(parents=True)
            for src in tree.rglob(f"*{suffix}"):
                os.link(src, d / src.relative_to(tree).as_posix().replace("/", "__"))
        n = sum(1 for _ in d.iterdir())
        limit_ratio(label, d, repeat, f"{label}, {n:,} files: es.read / split-regex limit")


def first_read_time(repeat: int = 5) -> None:
    """``import ebsstats`` + the first read of one fio report, against ``import pandas``."""
    say("\n== 4b. import ebsstats + first read vs import pandas (fresh processes) ==")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    one = ROOT / "tests" / "fixtures" / "fio" / "small_json.json"

    def run(code):
        w = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd="/")
        return time.perf_counter() - w

    pd_t = min(run("import pandas") for _ in range(repeat))
    es_t = min(run(f"import ebsstats as es; es.read({str(one)!r})") for _ in range(repeat))
    say(f"python -c 'import pandas' {pd_t * 1e3:.0f} ms; 'import ebsstats; es.read(one fio "
        f"report)' {es_t * 1e3:.0f} ms = {es_t / pd_t:.2f}x")
    record("import ebsstats + first read / import pandas", f"{es_t / pd_t:.2f}x "
           f"({es_t * 1e3:.0f} ms vs {pd_t * 1e3:.0f} ms)")


# ------------------------------------------------------------------------------------------
# 2. fio logs
# ------------------------------------------------------------------------------------------

def make_log(path: Path, lines: int) -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    t = np.cumsum(rng.integers(0, 3, lines))
    v = rng.integers(1000, 200_000, lines)
    d = rng.integers(0, 2, lines)
    with open(path, "w") as fh:
        step = 500_000
        for k in range(0, lines, step):
            fh.write("".join(f"{a}, {b}, {c}, 4096\n" for a, b, c in zip(
                t[k:k + step].tolist(), v[k:k + step].tolist(), d[k:k + step].tolist(),
                strict=True)))


def fio_logs(work: Path, lines: int, repeat: int) -> None:
    import pyarrow.csv as pacsv

    import ebsstats as es

    say(f"\n== 2. fio log, {lines:,} lines (4 columns: fiologparser.py reads only those) ==")
    d = work / "logs" / "run"
    d.mkdir(parents=True, exist_ok=True)
    log = d / "big_bw.1.log"
    if not log.exists() or sum(1 for _ in open(log)) != lines:
        make_log(log, lines)
    size = log.stat().st_size
    rounds = max(repeat, 7)  # interleaved rounds, the best of each: a shared machine's load
    got: dict[str, list] = {}  # hits all three alike

    def run(name, fn):
        w, c, out = best(fn, 1)
        got.setdefault(name, []).append((w, c))
        return out

    for _ in range(rounds):
        table = run("pa", lambda: pacsv.read_csv(
            log, read_options=pacsv.ReadOptions(autogenerate_column_names=True)))
        ts = run("one", lambda: es.read_fio_log(log, find_report=False))
        ts2 = run("dir", lambda: es.read_series(d.parent, jobs=1))
    (w_pa, c_pa), (w_one, c_one), (w_dir, c_dir) = (
        (min(w for w, _ in got[k]), min(c for _, c in got[k])) for k in ("pa", "one", "dir"))
    assert len(ts) == len(ts2) == table.num_rows == lines
    say(f"file {size / 1e6:.1f} MB; pyarrow.csv.read_csv uses threads, so ratios use wall time "
        f"(best of {rounds} interleaved rounds)")
    say(f"pyarrow.csv.read_csv        {lines / w_pa / 1e6:6.2f} M lines/s (wall {w_pa:.3f} s, "
        f"CPU {c_pa:.3f} s)")
    say(f"es.read_fio_log             {lines / w_one / 1e6:6.2f} M lines/s (wall {w_one:.3f} s, "
        f"CPU {c_one:.3f} s) = {w_one / w_pa:.2f}x pyarrow")
    say(f"es.read_series(folder)      {lines / w_dir / 1e6:6.2f} M lines/s (wall {w_dir:.3f} s, "
        f"CPU {c_dir:.3f} s) = {w_dir / w_pa:.2f}x pyarrow")
    record("fio log: read_fio_log / pyarrow read_csv", f"{w_one / w_pa:.2f}x "
           f"({lines / w_one / 1e6:.2f} M lines/s)", "<= 1.5x", w_one / w_pa <= 1.5)
    record("fio log: read_series(folder) / pyarrow read_csv", f"{w_dir / w_pa:.2f}x",
           "<= 1.5x", w_dir / w_pa <= 1.5)
    if FIOLOGPARSER.exists():
        src = work / "fiologparser.py"
        src.write_bytes(gzip.decompress(FIOLOGPARSER.read_bytes()))
        spec = importlib.util.spec_from_file_location("fiologparser", src)
        flp = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(flp)
        flp.ctx = argparse.Namespace(divisor=1, interval=1000)  # the script's global
        w_f, c_f, series = best(lambda: flp.TimeSeries(flp.ctx, str(log)), 2)
        assert len(series.samples) == lines
        say(f"fio tools/fiologparser.py   {lines / w_f / 1e6:6.2f} M lines/s (wall {w_f:.3f} s, "
            f"CPU {c_f:.3f} s; its TimeSeries load only: the interval statistics it prints "
            f"cost more) -> es.read_fio_log is {w_f / w_one:.1f}x faster in wall time, "
            f"{c_f / c_one:.1f}x in CPU time")
        record("fio log: speed-up over fiologparser.py (load only)", f"{w_f / w_one:.1f}x "
               f"wall, {c_f / c_one:.1f}x CPU", ">= 25x", w_f / w_one >= 25)
        fiologparser_task(work, src, log, repeat)
    else:
        say("fio tools/fiologparser.py: not installed")
        record("fio log: speed-up over fiologparser.py", "fiologparser.py not installed")
    if shutil.which("fio-plot") or importlib.util.find_spec("fio_plot"):
        say("fio-plot is installed, but not measured here (it plots; its parser is internal)")
    else:
        say("fio-plot: not installed (not in the environment; not compared)")


def fiologparser_task(work: Path, script: Path, log: Path, repeat: int,
                      lines: int = 100_000) -> None:
    """What a user runs: ``fiologparser.py FILE`` (its default: the interval-weighted mean of
    1 s windows) against ``read_fio_log`` + ``aggregate_log`` (1 s windows) on the first
    ``lines`` lines of the same log. The script's windows cost O(samples) each, so the whole
    2 M-line log would take hours: the prefix keeps it to seconds."""
    import ebsstats as es
    from ebsstats.io.fio.log import aggregate_log

    part = work / "logs-prefix" / "prefix_bw.1.log"  # not beside the big log (read_series)
    part.parent.mkdir(parents=True, exist_ok=True)
    with open(log) as src, open(part, "w") as dst:
        for _ in range(lines):
            dst.write(src.readline())
    cmd = [sys.executable, str(script), str(part)]
    w_f = best(lambda: subprocess.run(cmd, check=True, capture_output=True), 1)[0]
    w_e = best(lambda: aggregate_log(es.read_fio_log(part, find_report=False), 1.0),
               repeat)[0]
    say(f"task, {lines:,} lines: `fiologparser.py FILE` (default output, whole process) "
        f"{w_f:.2f} s; read_fio_log + aggregate_log(1 s) {w_e * 1e3:.1f} ms = "
        f"{w_f / w_e:.0f}x faster")
    record(f"fio log task ({lines:,} lines, 1 s windows): speed-up over fiologparser.py",
           f"{w_f / w_e:.0f}x wall (its process start included)")


# ------------------------------------------------------------------------------------------
# 3. many files
# ------------------------------------------------------------------------------------------

_CHILD = r"""
import json, resource, sys, time, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[1])
import pandas, pyarrow, ebsstats as es
from ebsstats.io import folder, fio, bonnie, sysbench, pts
from ebsstats.io.fio import log as fio_log
def status(key):  # from /proc: ru_maxrss would include the parent's RSS before exec
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
base = status("VmRSS")
w, c = time.perf_counter(), time.process_time()
df = es.read(sys.argv[2], progress=True, jobs=None if sys.argv[3] == "auto" else int(sys.argv[3]))
wall, cpu = time.perf_counter() - w, time.process_time() - c
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": cpu, "rows": len(df), "cols": df.shape[1],
                  "frame": int(df.memory_usage(deep=True).sum()), "base": base,
                  "peak": status("VmHWM"), "kids_cpu": kids.ru_utime + kids.ru_stime,
                  "kids_peak": kids.ru_maxrss * 1024,
                  "failures": len([f for f in df.attrs["failures"] if f["kind"] == "error"])}))
"""


def many_files(work: Path, files: int, jobs: str) -> None:
    from make_many_files import make

    tree = work / f"many-{files}"
    if not tree.exists():
        w = time.perf_counter()
        counts = make(tree, files)
        say(f"\n(made {sum(counts.values())} files in {tree}: {dict(counts)}, "
            f"{time.perf_counter() - w:.0f} s)")
    say(f"\n== 3. {files:,} mixed result files, jobs={jobs} (progress bar on stderr) ==")
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), str(tree), jobs],
                          capture_output=True, text=True, check=True)
    bar = [ln for ln in proc.stderr.replace("\r", "\n").splitlines() if "ebsstats.read" in ln]
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    rise = r["peak"] - r["base"]
    say(f"progress bar: {bar[-1].strip() if bar else 'NOT SHOWN'}")
    say(f"wall {r['wall']:.1f} s = {files / r['wall']:.0f} files/s; CPU: this process "
        f"{r['cpu']:.1f} s + workers {r['kids_cpu']:.1f} s = {r['cpu'] + r['kids_cpu']:.1f} s "
        f"(on 2 idle cores: about {max(r['cpu'], (r['cpu'] + r['kids_cpu']) / 2):.1f} s)")
    say(f"frame {r['rows']:,} rows x {r['cols']} columns = {r['frame'] / 1e6:.0f} MB "
        f"(memory_usage deep); failures {r['failures']}")
    say(f"peak RSS (VmHWM) {r['peak'] / 1e6:.0f} MB = RSS after imports {r['base'] / 1e6:.0f} MB "
        f"+ {rise / 1e6:.0f} MB = {rise / r['frame']:.2f}x the frame; largest worker peak "
        f"{r['kids_peak'] / 1e6:.0f} MB (ru_maxrss, includes what it shared with its parent)")
    record(f"{files:,} mixed files, wall (jobs={jobs})", f"{r['wall']:.1f} s "
           f"(CPU {r['cpu'] + r['kids_cpu']:.1f} s)", "< 30 s", r["wall"] < 30)
    record(f"{files:,} mixed files, peak memory rise / frame", f"{rise / r['frame']:.2f}x "
           f"({rise / 1e6:.0f} MB / {r['frame'] / 1e6:.0f} MB)", "<= 3x", rise <= 3 * r["frame"])
    record("progress bar shown", "yes" if bar else "no", "yes", bool(bar))


# ------------------------------------------------------------------------------------------
# 4. import time, 5. report
# ------------------------------------------------------------------------------------------

def import_time(repeat: int = 5) -> None:
    say("\n== 4. import ebsstats ==")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    def run(code):
        w = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd="/")
        return time.perf_counter() - w
    bare = min(run("pass") for _ in range(repeat))
    full = min(run("import ebsstats") for _ in range(repeat))
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import ebsstats"],
                         capture_output=True, text=True, env=env, cwd="/")
    cum = [ln for ln in out.stderr.splitlines() if ln.rstrip().endswith("| ebsstats")]
    us = int(cum[-1].split("|")[1]) if cum else -1
    heavy = subprocess.run(
        [sys.executable, "-c", "import sys, ebsstats; print(','.join(m for m in ('pandas', "
         "'numpy', 'pyarrow', 'scipy', 'statsmodels', 'matplotlib') if m in sys.modules) "
         "or 'none')"], capture_output=True, text=True, env=env, cwd="/").stdout.strip()
    say(f"python -X importtime: ebsstats cumulative {us / 1e3:.1f} ms; wall of "
        f"`python -c 'import ebsstats'` {full * 1e3:.0f} ms vs `python -c pass` "
        f"{bare * 1e3:.0f} ms; heavy modules imported: {heavy}")
    record("import ebsstats", f"{us / 1e3:.1f} ms (heavy modules: {heavy})", "< 1 s",
           us / 1e6 < 1 and heavy == "none")


def report_time(work: Path) -> None:
    say("\n== 5. ebsstats report on the bundled corpus ==")
    out = work / "report"
    w = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "ebsstats.app.cli", "report", str(ROOT / "data"),
                           "-o", str(out)], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - w
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    books = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    ok = proc.returncode == 0
    say(f"{len(books)} notebooks {books}: wall {wall:.1f} s, exit {proc.returncode}"
        + ("" if ok else f"\n{proc.stderr[-2000:]}"))
    say(f"(CPU of all child processes so far: {kids.ru_utime + kids.ru_stime:.0f} s)")
    record(f"report ({len(books)} notebooks)", f"{wall:.1f} s" + ("" if ok else " (FAILED)"),
           "< 90 s", ok and wall < 90)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--log-lines", type=int, default=2_000_000)
    ap.add_argument("--jobs", default="auto", help="workers for the many-files read")
    ap.add_argument("--skip-report", action="store_true")
    ap.add_argument("--skip-many", action="store_true")
    ap.add_argument("--workdir", help="keep generated inputs here (default: a temp folder)")
    ap.add_argument("--fio-corpus", help="folder of genuine fio JSON reports "
                    "(benchmarks/make_fio_corpus.py) for the peer comparison")
    ap.add_argument("--pkb", help="a PerfKit Benchmarker checkout (its linux_packages/fio.py)")
    ap.add_argument("--pkb-python", help="a Python with absl-py, pytz and numpy for PKB")
    ap.add_argument("--fioplot-python", help="the Python of a venv with fio-plot installed")
    ap.add_argument("--only", default="", help="comma list of sections: import,formats,peers,"
                    "limits,logs,many,report")
    args = ap.parse_args(argv)
    if args.quick:
        args.files, args.log_lines = min(args.files, 1_000), min(args.log_lines, 200_000)
    warnings.simplefilter("ignore")
    import numpy
    import pandas
    import pyarrow

    work = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="ebsstats-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    say(f"ebsstats ingest benchmark — {platform.node()}, {os.cpu_count()} CPUs, load average "
        f"{load()}; Python {platform.python_version()}, pandas "
        f"{pandas.__version__}, numpy {numpy.__version__}, pyarrow {pyarrow.__version__}; "
        f"JSON parser: {json_parser()[0]}; work dir {work}")
    repeat = 2 if args.quick else 3
    only = set(filter(None, args.only.split(",")))

    def want(name):
        return not only or name in only

    try:
        if want("import"):
            import_time()
            first_read_time()
        if want("formats"):
            per_format(work, repeat)
        if want("peers") and args.fio_corpus:
            fio_json_peers(Path(args.fio_corpus), args.pkb, args.pkb_python,
                           args.fioplot_python, repeat)
        if want("limits"):
            text_limits(work, repeat)
            if not args.skip_many:
                text_limits_many(work, args.files, repeat)
        if want("logs"):
            fio_logs(work, args.log_lines, repeat)
        if want("many") and not args.skip_many:
            many_files(work, args.files, args.jobs)
        if want("report") and not args.skip_report:
            report_time(work)
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)
    say(f"\n== summary (load average now {load()}) ==")
    width = max(len(r[0]) for r in RESULTS)
    for fig, value, target, verdict in RESULTS:
        say(f"{fig:{width}s}  {value:40s} {target:8s} {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
