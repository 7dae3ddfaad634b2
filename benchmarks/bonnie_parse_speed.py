"""CPU time per file of the bonnie++ reader's parse and sniff (best of N, process time).

Usage::

    python benchmarks/bonnie_parse_speed.py FOLDER [FOLDER ...] [--other FOLDER ...]
        [--baseline path/to/an/older/bonnie.py] [--repeat 5]

FOLDER holds bonnie++ outputs (every file is parsed, after its sniff: the parse reuses the
sniff's classification of a row, as a folder read does); ``--other`` folders hold other tools'
outputs, whose heads the bonnie++ sniff must turn down (a folder read asks bonnie++ before
sysbench, PTS and ioping). ``--baseline`` loads another copy of the module (e.g. from a
checkout of an older commit) and times it interleaved with the current one, so that the ratio
holds on a shared machine.
"""

from __future__ import annotations

from _reader_timing import arguments, detect, files, heads, load, other_heads, parse, row

from ebsstats.io import bonnie
from ebsstats.io._common import HEAD_BYTES


def main(argv=None) -> None:
    args = arguments(__doc__).parse_args(argv)
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
        row(f"sniff+parse {folder}", items, modules, sniff_parse, args.repeat)
        row(f"parse (warm) {folder}", items, modules, parse, args.repeat)
        row(f"detect {folder}", heads(items), modules, detect, args.repeat)
    for folder in args.other:
        row(f"detect {folder} (not bonnie++)", other_heads(folder), modules, detect, args.repeat)


if __name__ == "__main__":
    main()
