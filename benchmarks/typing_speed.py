"""Typing speed: ``_common.results_of(chunks, validated=True)`` (what a folder read types its
files' rows with), its first call in a fresh process and a repeat, for one or more source trees
side by side.

Each round starts a fresh process per tree (interleaved: a loaded machine slows both alike),
which reads ``tests/fixtures/ioping`` first (imports and generic pandas paths warm, as
``ingest_speed.py``'s first read), parses the folder's files with the garbage collector off
(as ``es.read`` does), then times the typing: the first call, and the best of 7 repeats. CPU
time (``time.process_time``), the minimum over the rounds.

Usage::

    python benchmarks/typing_speed.py FOLDER [--tree PATH ...] [--rounds N]

``--tree`` defaults to this checkout; give two (``--tree /work/base3 --tree .``) for an A/B.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import gc, sys, time, warnings
from pathlib import Path
warnings.simplefilter("ignore")
import ebsstats as es
es.read(sys.argv[2], jobs=1, progress=False)
from ebsstats.io import _common, sniff
gc.disable()
files = sorted(p for p in Path(sys.argv[1]).iterdir() if p.is_file())
datas = [f.read_bytes() for f in files]
chunks = []
for f, data in zip(files, datas):
    found = sniff.sniff_text(data[:65536].decode(errors="replace"), f.name)
    if found is not None:
        chunks.append(found.reader.parse(data, f.name, {}).chunk(None))
def once():
    t = time.process_time()
    _common.results_of(chunks, validated=True)
    return (time.process_time() - t) * 1e3
first = once()
print(f"{first:.3f} {min(once() for _ in range(7)):.3f} {sum(c[1] for c in chunks)}")
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--tree", action="append", help="source tree to import ebsstats from")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    here = Path(__file__).resolve().parent.parent
    trees = [str(Path(t).resolve()) for t in (args.tree or [str(here)])]
    warmup = str(here / "tests" / "fixtures" / "ioping")
    best: dict[str, list[float]] = {t: [float("inf"), float("inf")] for t in trees}
    rows = 0
    for _ in range(args.rounds):
        for tree in trees:
            env = {**os.environ, "PYTHONPATH": tree}
            out = subprocess.run([sys.executable, "-c", _CHILD, args.folder, warmup], env=env,
                                 capture_output=True, text=True, check=True).stdout.split()
            first, repeat, rows = float(out[0]), float(out[1]), int(out[2])
            best[tree] = [min(best[tree][0], first), min(best[tree][1], repeat)]
    print(f"{args.folder}: {rows:,} rows; results_of CPU ms, min of {args.rounds} fresh processes")
    for tree, (first, repeat) in best.items():
        print(f"  {tree}: first call {first:8.2f}   repeat {repeat:8.2f}")


if __name__ == "__main__":
    main()
