"""CPU time of a folder read (``es.read(folder, jobs=1)``, re-read) and of its folder stages,
with an older ``ebsstats/io/folder.py`` loaded beside the current one and timed interleaved.

Usage::

    python benchmarks/folder_speed.py FOLDER [FOLDER ...] [--baseline path/to/older/folder.py]
        [--repeat 15]

Both copies of the module use the same readers and typing (this checkout's): the difference is
the folder's own work per file and per read (listing, stat, open, sniff, digest, metadata,
outcomes, assembly). The readers' caches are warm (each folder is read once first), so this is
the re-read; the first read of a fresh process is ``benchmarks/ingest_speed.py --only limits``.
Rows: the whole read, and the listing (walk, stat, names, sizes).
"""

from __future__ import annotations

import gc
import statistics
import time
import warnings

from _reader_timing import arguments, load

from ebsstats.io import folder


def timed(fn) -> float:
    """CPU seconds of ``fn()``, the collector paused as a read pauses it."""
    gc.collect()
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def row(label: str, modules: dict, call, repeat: int) -> None:
    """Best and median CPU time of ``call(module)`` for each module, interleaved by round."""
    times: dict[str, list[float]] = {key: [] for key in modules}
    for k in range(repeat):
        order = list(modules.items()) if k % 2 == 0 else list(modules.items())[::-1]
        for key, module in order:
            times[key].append(timed(call(module)))
    cells = "  ".join(f"{key} {min(ts) * 1e3:8.2f} ms (median {statistics.median(ts) * 1e3:8.2f})"
                      for key, ts in times.items())
    ratio = ""
    if "baseline" in times:
        ratio = (f"  x{min(times['baseline']) / min(times['current']):.3f} faster (best), "
                 f"x{statistics.median(times['baseline']) / statistics.median(times['current']):.3f}"
                 " (median)")
    print(f"{label:40s} {cells}{ratio}", flush=True)


def main(argv=None) -> None:
    ap = arguments(__doc__)
    ap.set_defaults(repeat=15)
    args = ap.parse_args(argv)
    modules = {"current": folder}
    if args.baseline:
        modules["baseline"] = load(args.baseline, "folder_baseline")
    warnings.simplefilter("ignore")
    for d in args.folders:
        for module in modules.values():
            module.read(d, jobs=1, progress=False)  # the readers' caches warm for both

        def read(module, d=d):
            return lambda: module.read(d, jobs=1, progress=False)

        def listing(module, d=d):
            return lambda: module._listing(d, d, None, [])

        row(f"es.read {d}", modules, read, args.repeat)
        row(f"listing {d}", modules, listing, args.repeat)


if __name__ == "__main__":
    main()
