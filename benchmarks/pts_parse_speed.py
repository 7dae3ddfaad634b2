"""CPU cost of the PTS reader per file: its sniff (``detect``) and its parse, and the
split/regex-to-frame limit of benchmarks/ingest_speed.py on the same files.

Prints milliseconds of CPU time (``time.process_time``, best of --repeat, so that other processes
on the machine count less) per file for every PTS file the reader claims under the given paths.
To compare with another checkout, run it again with ``PYTHONPATH=<that checkout>``: the first line
says which ``ebsstats`` was measured.

    .venv/bin/python benchmarks/pts_parse_speed.py [paths ...] [--repeat 5]
        (default: tests/fixtures/pts)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def best(fn, repeat: int, inner: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        for _ in range(inner):
            fn()
        times.append((time.process_time() - t) / inner)
    return min(times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "tests" / "fixtures" / "pts")])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--inner", type=int, default=10)
    args = ap.parse_args(argv)

    from ebsstats.io import pts
    from ebsstats.io._common import HEAD_BYTES
    from ebsstats.io.sniff import sniff_file

    print(f"ebsstats from {Path(pts.__file__).parents[2]}")
    files = []
    for p in map(Path, args.paths):
        for f in [p] if p.is_file() else sorted(x for x in p.rglob("*") if x.is_file()):
            s = sniff_file(f)
            if s is not None and s.module == "ebsstats.io.pts":
                files.append(f)
    if not files:
        print("no PTS files")
        return 1
    data = [(f.read_bytes(), str(f)) for f in files]
    heads = [(d[:HEAD_BYTES].decode("utf-8", "replace"), Path(s).name) for d, s in data]
    reader = pts.READER

    def detect():
        for h, n in heads:
            reader.detect(h, n)

    def parse():
        for d, s in data:
            reader.parse(d, s, {})

    def parse_cold():  # (no template or plan kept: the first file of a layout reads it all)
        for cache in (getattr(pts, "_TEMPLATES", {}), getattr(pts, "_PLANS", {})):
            cache.clear()
        parse()

    parse()  # warm (imports, caches of the first file)
    td = best(detect, args.repeat, args.inner) / len(files) * 1e3
    tp = best(parse, args.repeat, args.inner) / len(files) * 1e3
    tc = best(parse_cold, args.repeat, args.inner) / len(files) * 1e3
    print(f"{len(files)} PTS files: detect {td:.3f} ms, parse {tp:.3f} ms, "
          f"detect + parse {td + tp:.3f} ms CPU per file")
    print(f"  parse with no template or plan kept before (the files' own kept as they are read):"
          f" {tc:.3f} ms CPU per file")
    xml = [f for f in files if f.read_bytes().lstrip()[:1] == b"<"]
    if xml:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from ingest_speed import _limit_pts

        tl = best(lambda: _limit_pts(xml), args.repeat, max(1, args.inner // 2)) / len(xml) * 1e3
        print(f"{len(xml)} of them XML: split/regex-to-frame limit {tl:.3f} ms CPU per file")
    return 0


if __name__ == "__main__":
    sys.exit(main())
