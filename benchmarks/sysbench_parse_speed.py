"""CPU time per file of the sysbench reader's parse and sniff (best of N, process time).

Usage::

    python benchmarks/sysbench_parse_speed.py FOLDER [FOLDER ...] [--other FOLDER ...]
        [--baseline path/to/an/older/sysbench.py] [--repeat 5] [--cold]

FOLDER holds sysbench text outputs (every file is parsed); ``--other`` folders hold other
tools' outputs, whose heads the sysbench sniff must turn down (a folder read asks every reader
about every file). ``--baseline`` loads another copy of the module (e.g. from a checkout of an
older commit) and times it interleaved with the current one, so that the ratio holds on a
shared machine. A layout read a few times is then read by its plan (``sysbench._Plan``), kept
for the process: the figures are those of a warm process, or with ``--cold`` those of a first
read (the plans and re's cache of compiled patterns forgotten before each round; the line
classifier's patterns stay compiled).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import time
from pathlib import Path

from ebsstats.io import sysbench
from ebsstats.io._common import HEAD_BYTES


def _load(path: str):
    spec = importlib.util.spec_from_file_location("sysbench_baseline", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _cpu(fn, items, module=None) -> float:
    if module is not None and hasattr(module, "_PLANS"):  # --cold: a first read
        module._PLANS.clear()
        module._plan_chars = 0
        re.purge()  # (plans compiled in an earlier round would be found in re's own cache)
    t0 = time.process_time()
    for name, x in items:
        fn(x, name)
    return time.process_time() - t0


def _row(label: str, items, modules: dict, call, repeat: int, cold: bool = False) -> None:
    best = dict.fromkeys(modules, float("inf"))
    for _ in range(repeat):  # interleaved: each module timed in every round
        for key, module in modules.items():
            best[key] = min(best[key], _cpu(call(module), items, module if cold else None))
    n = len(items)
    cells = "  ".join(f"{key} {best[key] / n * 1e6:7.1f} us" for key in modules)
    ratio = (f"  x{best['baseline'] / best['current']:.2f} faster" if "baseline" in best
             else "")
    print(f"{label:42s} {n:5d} files  {cells}{ratio}", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--other", nargs="*", type=Path, default=[])
    ap.add_argument("--baseline")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--cold", action="store_true", help="forget the plans before each round")
    args = ap.parse_args(argv)
    modules = {"current": sysbench}
    if args.baseline:
        modules["baseline"] = _load(args.baseline)

    def parse(module):
        return lambda data, name: module.READER.parse(data, name, {})

    def detect(module):
        return lambda head, name: module.READER.detect(head, name)

    for folder in args.folders:
        items = [(p.name, p.read_bytes()) for p in sorted(folder.iterdir()) if p.is_file()]
        _row(f"parse  {folder}{' (cold)' if args.cold else ''}", items, modules, parse,
             args.repeat, args.cold)
        heads = [(name, data[:HEAD_BYTES].decode("utf-8", "replace")) for name, data in items]
        _row(f"detect {folder}", heads, modules, detect, args.repeat)
    for folder in args.other:
        heads = [(p.name, p.read_bytes()[:HEAD_BYTES].decode("utf-8", "replace"))
                 for p in sorted(folder.iterdir())[:2000] if p.is_file()]
        _row(f"detect {folder} (not sysbench)", heads, modules, detect, args.repeat)


if __name__ == "__main__":
    main()
