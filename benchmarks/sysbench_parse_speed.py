"""CPU time per file of the sysbench reader's parse and sniff (best of N, process time).

Usage::

    python benchmarks/sysbench_parse_speed.py FOLDER [FOLDER ...] [--other FOLDER ...]
        [--baseline path/to/an/older/sysbench.py] [--repeat 5] [--cold]

FOLDER holds sysbench text outputs (every file is parsed); ``--other`` folders hold other
tools' outputs, whose heads the sysbench sniff must turn down (a folder read asks every reader
about every file). ``--baseline`` loads another copy of the module (e.g. from a checkout of an
older commit) and times it interleaved with the current one, so that the ratio holds on a
shared machine. A layout read before is then read by its plan (``sysbench._Plan``), kept
for the process: the figures are those of a warm process, or with ``--cold`` those of a first
read (the plans, the lines and line classifiers seen, and re's cache of compiled patterns
forgotten before each round).
"""

from __future__ import annotations

import re

from _reader_timing import arguments, detect, files, heads, load, other_heads, parse, row

from ebsstats.io import sysbench


def _forget(module) -> None:
    """--cold: a first read (the plans, the lines and classifiers seen, and re's cache of
    compiled patterns, forgotten)."""
    if hasattr(module, "_PLANS"):
        module._PLANS.clear()
        module._plan_chars = 0
        re.purge()  # (plans compiled in an earlier round would be found in re's own cache)
    for table in ("_CLASSIFIERS", "_SEEN", "_SHAPES"):  # (_SHAPES: texts masked as a plan took)
        getattr(module, table, {}).clear()
    for cached in ("_alternation", "_firsts"):  # (what older versions compiled on first use)
        if hasattr(getattr(module, cached, None), "cache_clear"):
            getattr(module, cached).cache_clear()


def main(argv=None) -> None:
    ap = arguments(__doc__, folders="+")
    ap.add_argument("--cold", action="store_true", help="forget the plans before each round")
    args = ap.parse_args(argv)
    modules = {"current": sysbench}
    if args.baseline:
        modules["baseline"] = load(args.baseline, "sysbench_baseline")

    for folder in args.folders:
        items = files(folder)
        row(f"parse  {folder}{' (cold)' if args.cold else ''}", items, modules, parse,
            args.repeat, _forget if args.cold else None, width=42)
        row(f"detect {folder}", heads(items), modules, detect, args.repeat, width=42)
    for folder in args.other:
        row(f"detect {folder} (not sysbench)", other_heads(folder), modules, detect, args.repeat,
            width=42)


if __name__ == "__main__":
    main()
