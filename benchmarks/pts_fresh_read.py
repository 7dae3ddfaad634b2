"""CPU cost of the first read of a PTS folder in a fresh process, stage by stage: the reader's
parse of every file (first read, and a re-read in the same process), the typing of the chunks
(``_common.results_of``), and whether Python's generation-1 garbage collection ran inside the
first parse (it collects what the warm-up's imports left and lands in whichever stage allocates
next: its cost is the process's, not the reader's).

Each process reads ``tests/fixtures/ioping`` first (imports and generic pandas paths warm, as
``benchmarks/ingest_speed.py``'s first-read figure does); the checkouts given are interleaved
round by round and the best of --rounds is printed (a shared machine counts less).

    .venv/bin/python benchmarks/pts_fresh_read.py FOLDER [--checkout PATH ...] [--rounds 8]
        [--no-gc]   (garbage collection off after the warm-up: the reader's own work alone)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = r"""
import gc, sys, time, warnings
warnings.simplefilter("ignore")
from pathlib import Path
import ebsstats as es
es.read({warm!r}, jobs=1, progress=False)
from ebsstats.io import _common as C, sniff as S
files = sorted(p for p in Path({folder!r}).iterdir() if p.is_file())
datas = [f.read_bytes() for f in files]
found = [S.sniff_text(d[:C.HEAD_BYTES].decode("utf-8", "replace"), f.name)
         for d, f in zip(datas, files)]
gen1 = []
gc.callbacks.append(lambda phase, info: phase == "stop" and gen1.append(info["generation"]))
if {no_gc!r}:
    gc.disable()
def cpu(fn):
    t = time.process_time(); out = fn(); return time.process_time() - t, out
def parse():
    return [s.reader.parse(d, f.name, {{}}) for s, d, f in zip(found, datas, files)]
p1, parsed = cpu(parse)
in_parse = 1 in gen1 or 2 in gen1
t1, _ = cpu(lambda: C.results_of([p.chunk(None) for p in parsed]))
p2, parsed = cpu(parse)
print(p1, p2, t1, int(in_parse))
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--checkout", action="append", default=None,
                    help="a checkout to measure (repeatable; default: this one)")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--no-gc", action="store_true")
    args = ap.parse_args(argv)
    checkouts = args.checkout or [str(ROOT)]
    code = _CHILD.format(warm=str(ROOT / "tests" / "fixtures" / "ioping"),
                         folder=str(Path(args.folder).resolve()), no_gc=args.no_gc)
    best: dict[str, list[float]] = {c: [float("inf")] * 3 for c in checkouts}
    gcs: dict[str, int] = dict.fromkeys(checkouts, 0)
    for _ in range(args.rounds):
        for c in checkouts:
            out = subprocess.run([sys.executable, "-c", code], check=True, cwd="/",
                                 env={**os.environ, "PYTHONPATH": c}, capture_output=True,
                                 text=True).stdout.split()
            values = list(map(float, out[:3]))
            best[c] = [min(a, b) for a, b in zip(best[c], values, strict=True)]
            gcs[c] += int(out[3])
    print(f"{args.folder}: CPU ms, best of {args.rounds} fresh processes"
          f"{' (gc off after the warm-up)' if args.no_gc else ''}")
    for c in checkouts:
        p1, p2, t1 = (1e3 * v for v in best[c])
        print(f"  {c}: parse first read {p1:.2f}, re-read {p2:.2f}; typing first read {t1:.2f}; "
              f"a generation-1 collection inside the first parse in {gcs[c]}/{args.rounds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
