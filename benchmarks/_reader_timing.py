"""Shared by the reader speed scripts (``bonnie_parse_speed.py``, ``sysbench_parse_speed.py``):
an older copy of a reader module loaded beside the current one, and CPU time per file of a call,
best of N, the modules interleaved in every round so that the ratio holds on a shared machine."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ebsstats.io._common import HEAD_BYTES


def load(path: str, name: str):
    """The module at ``path`` (e.g. a reader from a checkout of an older commit), as ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def cpu(fn, items, before: Callable[[], None] | None = None) -> float:
    """CPU seconds of ``fn(x, name)`` over ``items`` (``before()`` first, untimed)."""
    if before is not None:
        before()
    t0 = time.process_time()
    for name, x in items:
        fn(x, name)
    return time.process_time() - t0


def row(label: str, items, modules: dict, call, repeat: int, before=None, width: int = 48
        ) -> None:
    """Print the best CPU time per file of ``call(module)`` for each module, and the ratio of
    ``baseline`` to ``current`` when both are there; ``before(module)`` runs untimed before
    each timing."""
    best = dict.fromkeys(modules, float("inf"))
    for _ in range(repeat):  # interleaved: each module timed in every round
        for key, module in modules.items():
            prep = (lambda m=module: before(m)) if before is not None else None
            best[key] = min(best[key], cpu(call(module), items, prep))
    n = len(items)
    cells = "  ".join(f"{key} {best[key] / n * 1e6:7.1f} us" for key in modules)
    ratio = (f"  x{best['baseline'] / best['current']:.2f} faster" if "baseline" in best
             else "")
    print(f"{label:{width}s} {n:5d} files  {cells}{ratio}", flush=True)


def parse(module):
    """The timed call of a reader module's parse (bytes, name)."""
    return lambda data, name: module.READER.parse(data, name, {})


def detect(module):
    """The timed call of a reader module's detect (decoded head, name)."""
    return lambda head, name: module.READER.detect(head, name)


def arguments(doc: str, folders: str = "*") -> argparse.ArgumentParser:
    """The scripts' common options: FOLDER ..., --other FOLDER ..., --baseline, --repeat."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("folders", nargs=folders, type=Path)
    ap.add_argument("--other", nargs="*", type=Path, default=[])
    ap.add_argument("--baseline")
    ap.add_argument("--repeat", type=int, default=5)
    return ap


def files(folder: Path) -> list[tuple[str, bytes]]:
    return [(p.name, p.read_bytes()) for p in sorted(folder.iterdir()) if p.is_file()]


def heads(items: list[tuple[str, bytes]]) -> list[tuple[str, str]]:
    return [(name, data[:HEAD_BYTES].decode("utf-8", "replace")) for name, data in items]


def other_heads(folder: Path) -> list[tuple[str, str]]:
    """The heads of up to 2,000 files of another tool."""
    return heads([(p.name, p.read_bytes()[:HEAD_BYTES]) for p in sorted(folder.iterdir())[:2000]
                  if p.is_file()])
