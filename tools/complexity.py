"""Fail when a function in ``ebsstats/stats``, ``ebsstats/app`` or ``ebsstats/io`` is too complex
to review.

Cyclomatic complexity (McCabe 1976) from radon's API, per function and method (a nested
function counts toward its parent, as radon reports it). Exits 1 and lists the offenders when any
exceeds ``--max`` (default 25); ``PENDING`` names functions that other work is still splitting,
each with the complexity it had when listed: they may not grow, and the list is meant to empty.

    python tools/complexity.py                 # the package's stats/, app/ and io/
    python tools/complexity.py some/file.py    # any files or folders
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from radon.complexity import cc_visit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATHS = ("ebsstats/stats", "ebsstats/app", "ebsstats/io")
MAX_CC = 25

#: Functions above the limit in modules other open work is rewriting ("path:qualname": CC when
#: listed). Temporary: remove each entry when its function is split; a function may not grow.
PENDING: dict[str, int] = {}


def _files(paths: Iterable[str | Path]) -> Iterator[Path]:
    for p in map(Path, paths):
        if p.is_dir():
            yield from sorted(p.rglob("*.py"))
        elif p.suffix == ".py":
            yield p


def _label(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def complexities(paths: Iterable[str | Path]) -> Iterator[tuple[str, int]]:
    """``("path:qualname", cyclomatic complexity)`` of every function and method under paths."""
    for path in _files(paths):
        for block in cc_visit(path.read_text(encoding="utf-8")):
            blocks = [block, *getattr(block, "methods", [])]
            for b in blocks:
                if type(b).__name__ == "Class":
                    continue
                name = f"{b.classname}.{b.name}" if getattr(b, "classname", None) else b.name
                yield f"{_label(path)}:{name}", int(b.complexity)


def offenders(paths: Iterable[str | Path], limit: int = MAX_CC,
              pending: dict[str, int] | None = None) -> list[tuple[str, int]]:
    """Functions above ``limit``, except pending ones that have not grown, worst first."""
    pending = PENDING if pending is None else pending
    bad = [(name, cc) for name, cc in complexities(paths)
           if cc > limit and cc > pending.get(name, limit)]
    return sorted(bad, key=lambda t: (-t[1], t[0]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[str(ROOT / p) for p in DEFAULT_PATHS])
    ap.add_argument("--max", type=int, default=MAX_CC, help="highest allowed complexity")
    args = ap.parse_args(argv)
    bad = offenders(args.paths, args.max)
    for name, cc in bad:
        print(f"{name}: cyclomatic complexity {cc} > {args.max}")
    found = dict(complexities(args.paths))
    stale = sorted(n for n, cc in PENDING.items() if n in found and found[n] <= args.max)
    for name in stale:
        print(f"note: {name} is now {found[name]} <= {args.max}: remove it from PENDING")
    if bad:
        print(f"{len(bad)} function(s) above cyclomatic complexity {args.max}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
