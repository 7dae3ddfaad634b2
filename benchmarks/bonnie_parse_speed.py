"""CPU time per file of the bonnie++ reader's parse and sniff (best of N, process time).

Usage::

    python benchmarks/bonnie_parse_speed.py FOLDER [FOLDER ...] [--other FOLDER ...]
        [--baseline path/to/an/older/bonnie.py] [--repeat 5] [--cold]

FOLDER holds bonnie++ outputs (every file is parsed, after its sniff: the parse reuses the
sniff's classification of a row, as a folder read does); ``--other`` folders hold other tools'
outputs, whose heads the bonnie++ sniff must turn down (a folder read asks bonnie++ before
sysbench, PTS and ioping). ``--baseline`` loads another copy of the module (e.g. from a
checkout of an older commit) and times it interleaved with the current one, so that the ratio
holds on a shared machine. The reader keeps bounded caches (row shapes, layouts, settings) for
the process: the figures are those of a warm process, or with ``--cold`` those of a first read
(every cache forgotten before each round; what a fresh process pays besides its code's and
the garbage collector's first costs).
"""

from __future__ import annotations

from _reader_timing import arguments, detect, files, heads, load, other_heads, parse, row

from ebsstats.io import bonnie
from ebsstats.io._common import HEAD_BYTES

# the module-level caches of the reader, this one's and older ones' (those it has are forgotten)
_CACHES = ("_ROW_SHAPES", "_CSV_LAYOUTS", "_LAYOUT_OF_SHAPE", "_CSV_SETTINGS", "_CSV_FILE_COLUMNS",
           "_ROW_VALUES", "_LATENCY_SECONDS", "_KIB", "_FLOATS", "_FORMATS_19X")


def _forget(module) -> None:
    """--cold: a first read (every cache of the module forgotten)."""
    for name in _CACHES:
        getattr(module, name, {}).clear()
    module._classify_cached.cache_clear()


def main(argv=None) -> None:
    ap = arguments(__doc__)
    ap.add_argument("--cold", action="store_true", help="forget the caches before each round")
    args = ap.parse_args(argv)
    before = _forget if args.cold else None
    cold = " (cold)" if args.cold else ""
    modules = {"current": bonnie}
    if args.baseline:
        modules["baseline"] = load(args.baseline, "bonnie_baseline")

    def sniff_parse(module):
        def run(data, name):
            module.READER.detect(data[:HEAD_BYTES].decode("utf-8", "replace"), name)
            module.READER.parse(data, name, {})
        return run

    for folder in args.folders:
        items = files(folder)
        row(f"sniff+parse {folder}{cold}", items, modules, sniff_parse, args.repeat, before)
        if not args.cold:
            row(f"parse (warm) {folder}", items, modules, parse, args.repeat)
        row(f"detect {folder}{cold}", heads(items), modules, detect, args.repeat, before)
    for folder in args.other:
        row(f"detect {folder} (not bonnie++)", other_heads(folder), modules, detect, args.repeat)


if __name__ == "__main__":
    main()
