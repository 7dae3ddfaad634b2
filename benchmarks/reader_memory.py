"""Peak memory per MB of input for every reader (what the folder read's memory budget assumes).

For each reader, its largest genuine sample (tests/fixtures, as claimed by the reader's sniff) is
scaled up to about --mb MB where the format allows it (more CSV rows, fio jobs, PTS results,
ioping / JSON array items, log lines; otherwise the sample as it is), written to a temporary
folder, and parsed in a fresh process the way a folder read does (decode + parse + the compact
columns of the records). Printed: input MB, peak resident memory above the level before the
parse (ru_maxrss), the ratio (MB of memory per MB of input), and the reader's ``MEMORY_FACTOR``.

    .venv/bin/python benchmarks/reader_memory.py [--mb 4] [--only bonnie,pts] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET  # only re-serialises our own genuine samples
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ebsstats.io import _builtin, _registry  # noqa: E402
from ebsstats.simulate.fuzz import genuine_samples  # noqa: E402

CHILD = r"""
import dataclasses, gc, importlib, os, resource, sys
from pathlib import Path
from ebsstats.io.folder import _guarded_parse
mod = importlib.import_module(sys.argv[1])
data = open(sys.argv[2], "rb").read()
# the reader as the folder read calls it, with every context a reader may ask for; a factor
# that never refuses (the measure is what the factor should be)
reader = dataclasses.replace(mod.READER, memory_factor=1e-12)
context = {"path": Path(sys.argv[2]), "source_of": str, "folder_version": "fio-3.33"}
warm = _guarded_parse(reader, open(sys.argv[4], "rb").read(), sys.argv[3], context)  # imports
del warm
gc.collect()
rss = int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1024**2
parsed = _guarded_parse(reader, data, sys.argv[3], context)
chunks = [parsed.chunk()]  # the compact columns a folder read keeps
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
rows = parsed.nrows() + sum(len(ts) for ts in parsed.series)
print(rows, max(0.0, peak - rss))
"""


def _grow_list(doc, target: int) -> bool:
    """Replicate the largest list of objects in a JSON document (fio jobs, PTS results, ioping
    items; in place) so that the document reaches about ``target`` bytes."""
    best, best_size = None, 0
    stack = [doc]
    while stack:
        x = stack.pop()
        kids = x.values() if isinstance(x, dict) else x if isinstance(x, list) else ()
        if isinstance(x, list) and x and all(isinstance(k, dict) for k in x):
            size = len(json.dumps(x))
            if size > best_size:
                best, best_size = x, size
        stack.extend(k for k in kids if isinstance(k, dict | list))
    if not best:
        return False
    reps = max(1, (target - len(json.dumps(doc))) // best_size + 1)
    best[:] = best * reps
    return True


def scale(data: bytes, target: int) -> bytes:
    """``data`` grown to about ``target`` bytes in a way its format allows."""
    if len(data) >= target:
        return data
    text = data.decode("utf-8", "replace")
    try:
        doc = json.loads(text)
        if _grow_list(doc, target):
            return json.dumps(doc, indent=1).encode()
    except ValueError:
        pass
    if text.lstrip().startswith("<?xml") or text.lstrip().startswith("<"):
        try:
            root = ET.fromstring(data)
            tags: dict[str, list] = {}
            for el in root:
                tags.setdefault(el.tag, []).append(el)
            tag, els = max(tags.items(), key=lambda kv: len(kv[1]))
            reps = max(1, target // len(data))
            for _ in range(reps - 1):
                for el in els:
                    root.append(el)
            return ET.tostring(root, encoding="utf-8", xml_declaration=True)
        except ET.ParseError:
            pass
    lines = text.splitlines(keepends=True)
    csv_rows = [ln for ln in lines if ln.count(",") >= 20]
    if csv_rows and len(csv_rows) == len([ln for ln in lines if ln.strip()]):  # bonnie++ CSV
        return "".join(csv_rows * max(1, target // len(data))).encode()
    log = [ln for ln in lines if re.match(r"^\d+, ", ln)]
    if log and len(log) == len(lines):  # fio log: same lines, later times
        out, t_end, reps = [], 0, max(1, target // len(data))
        last = int(log[-1].split(",")[0]) + 1
        for _ in range(reps):
            for ln in log:
                t, rest = ln.split(",", 1)
                out.append(f"{int(t) + t_end},{rest}")
            t_end += last
        return "".join(out).encode()
    return data


def measure(module_name: str, data: bytes, where: Path, name: str, sample: bytes
            ) -> tuple[int, float] | None:
    path = where / "input"
    path.write_bytes(data)
    (where / "sample").write_bytes(sample)
    res = subprocess.run([sys.executable, "-c", CHILD, module_name, str(path), name,
                          str(where / "sample")],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    if res.returncode != 0:
        return None
    rows, mb = res.stdout.split()
    return int(rows), float(mb)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=4.0, help="input size to scale samples to")
    ap.add_argument("--only", help="comma-separated reader modules")
    ap.add_argument("--samples", type=int, default=4, help="samples per reader")
    ap.add_argument("--out", help="folder for the temporary inputs (default: a temp dir)")
    args = ap.parse_args(argv)
    import importlib

    print(f"{'reader':<10} {'sample':<44} {'in MB':>7} {'rows':>8} {'peak MB':>8} "
          f"{'MB/MB':>6} {'factor':>6}")
    with tempfile.TemporaryDirectory(dir=args.out) as tmp:
        _builtin.load()
        for module_name in [r.name for r in _registry.readers()]:
            short = module_name.removeprefix("ebsstats.io.")  # fio, fio.log, bonnie …
            if args.only and short not in args.only.split(","):
                continue
            samples = genuine_samples(module_name, [ROOT / "tests" / "fixtures"],
                                      max_bytes=10**8, relative_to=ROOT)
            if not samples:
                print(f"{short:<10} (no samples)")
                continue
            factor = getattr(importlib.import_module(module_name), "MEMORY_FACTOR", None)
            names = sorted(samples, key=lambda k: -len(samples[k]))
            names = names[:: max(1, len(names) // args.samples)][: args.samples]
            worst = 0.0
            for name in names:
                data = samples[name]
                big = scale(data, int(args.mb * 1024**2))
                base = Path(name).name
                got = measure(module_name, big, Path(tmp), base, data)
                if got is None and big is not data:  # the scaled file is not valid: as it is
                    big, got = data, measure(module_name, data, Path(tmp), base, data)
                if got is None:
                    print(f"{short:<10} {name[-44:]:<44} (parse failed)")
                    continue
                rows, peak = got
                mb = len(big) / 1024**2
                if mb >= 0.5:  # smaller inputs measure the interpreter, not the reader
                    worst = max(worst, peak / mb)
                print(f"{short:<10} {name[-44:]:<44} {mb:>7.2f} {rows:>8,} {peak:>8.1f} "
                      f"{peak / mb:>6.0f} {factor!s:>6}", flush=True)
            print(f"{short:<10} worst {worst:.0f} MB per MB of input >= 0.5 MB "
                  f"(MEMORY_FACTOR {factor})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
