"""Make a tree of many mixed benchmark result files for ``benchmarks/ingest_speed.py``.

The files are copies of the bundled corpus's result files (fio JSON, bonnie++ CSV, sysbench text,
PTS XML from ``data/campaign`` and ``data/samples``), with their ``meta.yaml`` sidecars, in
``copy-NNN/`` folders. Copy ``k`` ends with ``k + 1`` extra newlines, so that every file has
different bytes (a folder read reads identical files once) but parses to the same rows; the
script checks that on one file of each format. fio logs are left out (``ingest_speed.py``
measures them separately).

Usage::

    python benchmarks/make_many_files.py OUT [--files 10000] [--data data]
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections import Counter
from pathlib import Path

RESULT_SUFFIXES = {".json": "fio", ".csv": "bonnie++", ".txt": "sysbench", ".xml": "pts"}


def result_files(data: Path) -> list[Path]:
    """Result files of the corpus (no logs, sidecars, notes or published tables), sorted."""
    out = []
    for sub in ("campaign", "samples"):
        for p in sorted((data / sub).rglob("*")):
            if p.is_file() and p.suffix in RESULT_SUFFIXES and not p.name.startswith("."):
                out.append(p)
    return out


def _check(original: Path, copy: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import ebsstats as es

    a = es.read(original, errors="collect")
    b = es.read(copy, errors="collect")
    if len(a) != len(b) or not a["value"].equals(b["value"]):
        raise SystemExit(f"{copy}: the copy does not parse like {original}")


def make(out: str | Path, files: int = 10_000, data: str | Path = "data",
         check: bool = True) -> Counter:
    """Write ``files`` result files (and their sidecars) under ``out``; return counts by tool."""
    data, out = Path(data), Path(out)
    sources = result_files(data)
    if not sources:
        raise SystemExit(f"no result files under {data}")
    counts: Counter = Counter()
    k = 0
    written = 0
    checked: set[str] = set()
    while written < files:
        root = out / f"copy-{k:03d}"
        for src in sources:
            if written >= files:
                break
            rel = src.relative_to(data)
            dst = root / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            for side in ("meta.yaml", f"{src.name}.meta.yaml"):
                s = src.parent / side
                if s.is_file() and not (dst.parent / side).exists():
                    shutil.copyfile(s, dst.parent / side)
            dst.write_bytes(src.read_bytes() + b"\n" * (k + 1))
            tool = RESULT_SUFFIXES[src.suffix]
            counts[tool] += 1
            written += 1
            if check and k == 0 and tool not in checked:
                _check(src, dst)
                checked.add(tool)
        k += 1
    # parent sidecars (meta.yaml files in folders above the result folders)
    for side in data.rglob("meta.yaml"):
        rel = side.relative_to(data)
        for root in out.glob("copy-*"):
            target = root / rel
            if target.parent.is_dir() and not target.exists():
                shutil.copyfile(side, target)
    return counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[1] / "data"))
    args = ap.parse_args(argv)
    counts = make(args.out, args.files, args.data)
    print(f"{sum(counts.values())} result files in {args.out}: {dict(counts)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
