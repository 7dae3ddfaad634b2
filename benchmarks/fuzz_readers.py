"""Mutation fuzzing of every reader from the genuine samples in tests/fixtures.

For each reader: at least --cases inputs (default 10,000) made from the samples it claims by its
own sniff (tests/fixtures, and data/published for the published tables): truncation at every line
(up to a quarter of the cases), then random byte flips, truncation at a byte, deleted /
duplicated / swapped lines, extreme numbers (-1, 1e400, NaN, inf, 400 digits, ...), UTF-16 and
Latin-1 re-encodings, garbage lines, NUL bytes, CRLF, empty and binary files, and structure-aware
mutations (a JSON field dropped or given a number out of range or another type; an XML element
dropped, duplicated or given an extreme text), deep nesting (1,000-100,000 levels of JSON arrays
or objects or XML elements in place of a number) and integers of 4,301-20,000 digits.

Folder families (--folder-cases per reader): each sample placed in a tree beside good genuine
files (one per tool) under a long (246-255-byte) or hostile name (control bytes, ``$``, quotes),
under a hostile sidecar (merge-key bomb, protected keys, bad dates, huge integers, deep nesting,
tags, oversize values, too many keys, mathtext), under a sidecar linked out of the tree (a
file holding a canary, ``/proc/self/status``), or compressed (gzip, bzip2, xz; half of them
then damaged: flipped bytes, cut short, or a 32 MiB stream of zeros). Acceptable: the attacked file read or listed;
defects: an exception escaping the folder read, the good files' values changed, the canary in
the frame.

The only acceptable outcomes are a schema-valid frame ("ok") or ebsstats.ParseError naming the
file and a position ("ParseError"); see ebsstats.simulate.fuzz.run_case for the defect classes
(crash, invalid_frame, invalid_series, unnamed_parse_error, unpositioned). Prints per reader the
number of samples, cases, outcomes, seconds and the slowest single case; exits 1 if there was
any defect, writing up to 5 inputs of each kind of defect to --defects for reproduction.

    .venv/bin/python benchmarks/fuzz_readers.py [--cases 10000] [--folder-cases 150] [--seed 0]
        [--only fio,pts] [--defects DIR]   (defects go to a temporary folder by default)
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ebsstats.io import _builtin, _registry  # noqa: E402
from ebsstats.simulate.fuzz import fuzz, fuzz_folder, genuine_samples  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
PUBLISHED = ROOT / "data" / "published"  # the published tables are the reader's genuine input


def samples_for(module_name: str) -> dict[str, bytes]:
    """Genuine fixture files (and published tables) the reader claims by its own sniff."""
    return genuine_samples(module_name, [FIXTURES, PUBLISHED], relative_to=ROOT)


def options_for(module_name: str) -> dict:
    return {"fio_version": "fio-3.33"} if module_name.endswith("fio.log") else {}


def _defect_key(outcome: str) -> str:
    """Group defects by kind: numbers, quotes and row indices removed."""
    return re.sub(r"'[^']*'|\"[^\"]*\"|-?\d[\d.e+-]*", "#", outcome)[:110]


GOOD = [("fio", "small_json.json"), ("bonnie", "bon_q_s512_n0.csv"),
        ("sysbench", "sb_fileio_rndrd_t4_run.txt"), ("pts", "pts-10.8.4_composite_1system.xml")]


def _folder(short: str, samples: dict[str, bytes], args) -> int:
    """Folder families for one reader; prints counts per family and outcome, returns defects."""
    good = {f"good/{name}": (FIXTURES / tool / name).read_bytes() for tool, name in GOOD}
    per = -(-args.folder_cases // len(samples))
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ebsstats-fuzz-") as base:
        counts, defects = fuzz_folder(samples, good, per, seed=args.seed, base=base)
    dt = time.perf_counter() - t0
    fams: dict[str, dict[str, int]] = {}
    for key, c in counts.items():
        fam, outcome = key.split(":", 1)
        fams.setdefault(fam, {})[outcome] = c
    for fam, oc in sorted(fams.items()):
        bad = sum(c for k, c in oc.items() if k not in ("ok", "refused"))
        print(f"  {short:<10} {fam:<22} cases {sum(oc.values()):>5}  read {oc.get('ok', 0):>5}"
              f"  refused {oc.get('refused', 0):>5}  defects {bad:>3}", flush=True)
    print(f"  {short:<10} folder families: {sum(counts.values())} cases in {dt:.0f} s")
    for name, fam, outcome in defects[:10]:
        print(f"    defect {fam} {name}: {outcome}")
    return len(defects)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000, help="cases per reader (at least)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--defects", default=None,
                    help="folder for defect inputs (default: a new temporary folder)")
    ap.add_argument("--folder-cases", type=int, default=150,
                    help="folder-level attacks per reader (0: none)")
    ap.add_argument("--only", help="comma-separated reader modules (e.g. fio,fio.log,bonnie)")
    args = ap.parse_args(argv)
    if args.defects is None:
        args.defects = tempfile.mkdtemp(prefix="ebsstats-fuzz-defects-")
    wanted = set(args.only.split(",")) if args.only else None
    print(f"{'reader':<12} {'samples':>7} {'cases':>7} {'ok':>7} {'ParseError':>10} "
          f"{'defects':>8} {'s':>6} {'slowest':>8}")
    total_defects = 0
    _builtin.load()
    for module_name in [r.name for r in _registry.readers()]:
        short = module_name.removeprefix("ebsstats.io.")  # fio, fio.log, bonnie …
        if wanted and short not in wanted:
            continue
        try:
            importlib.import_module(module_name)
        except ModuleNotFoundError:
            print(f"{short:<12} (reader not present)")
            continue
        samples = samples_for(module_name)
        if not samples:
            print(f"{short:<12} (no samples)")
            continue
        per = -(-args.cases // len(samples))
        t0 = time.perf_counter()
        counts, defects = fuzz(module_name, samples, per, seed=args.seed,
                               **options_for(module_name))
        dt = time.perf_counter() - t0
        slowest = counts.pop("_slowest_s", 0.0)
        n = sum(counts.values())
        bad = n - counts["ok"] - counts["parse_error"]
        total_defects += bad
        print(f"{short:<12} {len(samples):>7} {n:>7} {counts['ok']:>7} "
              f"{counts['parse_error']:>10} {bad:>8} {dt:>6.1f} {slowest:>8.3f}", flush=True)
        if defects:
            out = Path(args.defects) / short
            out.mkdir(parents=True, exist_ok=True)
            for old in out.glob("*"):
                old.unlink()
            kept: dict[str, int] = {}  # up to 5 inputs of each kind of defect
            for i, (name, kind, outcome, data) in enumerate(defects):
                key = _defect_key(outcome)
                kept[key] = kept.get(key, 0) + 1
                if kept[key] <= 5:
                    (out / f"{i:05d}.in").write_bytes(data)
                    (out / f"{i:05d}.txt").write_text(f"{name}\n{kind}\n{outcome}\n")
            for key, c in sorted(kept.items(), key=lambda kv: -kv[1])[:12]:
                print(f"    {c:>5} × {key}")
        if args.folder_cases:
            total_defects += _folder(short, samples, args)
    print("defects:", total_defects, f"(inputs of defects under {args.defects})")
    return 1 if total_defects else 0


if __name__ == "__main__":
    sys.exit(main())
