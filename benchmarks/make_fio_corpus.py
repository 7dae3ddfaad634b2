"""Generate genuine fio JSON reports by running the real fio on small jobs with varied options.

Every file is the output of one ``fio --output-format=json`` (or ``json+``) run against a
scratch file, so the corpus has the structure, versions and value spread of real reports and
distinct content (timings differ run to run). Used by ``benchmarks/ingest_speed.py``::

    python benchmarks/make_fio_corpus.py OUT_DIR [--files 2000] [--scratch /tmp/fio-scratch]

Needs ``fio`` on the PATH (Debian: ``apt-get install fio``). Runs are short (a few MiB, no
``time_based``), two at a time.
"""

from __future__ import annotations

import argparse
import itertools
import random
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

RW = ["read", "write", "randread", "randwrite", "randrw", "rw"]
BS = ["4k", "8k", "16k", "64k", "128k", "1m"]
ENGINES = ["psync", "sync", "libaio", "posixaio"]


def command(i: int, out: Path, scratch: Path, rng: random.Random) -> list[str]:
    rw, bs, engine = rng.choice(RW), rng.choice(BS), rng.choice(ENGINES)
    numjobs = rng.choice([1, 1, 1, 2])
    jobs = rng.choice([1, 1, 2])
    cmd = ["fio", f"--output={out}", "--output-format=" + rng.choice(["json", "json", "json+"]),
           f"--directory={scratch}", "--size=" + rng.choice(["1m", "2m", "4m"]),
           f"--ioengine={engine}", f"--numjobs={numjobs}"]
    if engine in ("libaio", "posixaio"):
        cmd.append(f"--iodepth={rng.choice([1, 2, 4, 8, 16])}")
    if rng.random() < 0.3:
        cmd.append("--group_reporting")
    if rng.random() < 0.2:
        cmd.append("--fsync=" + str(rng.choice([1, 8])))
    for j in range(jobs):
        job_rw = rw if j == 0 else rng.choice(RW)
        cmd += [f"--name=j{i}_{j}_{job_rw}_{bs}", f"--rw={job_rw}", f"--bs={bs}",
                f"--filename=f{i % 8}_{j}"]
        if "rw" in job_rw:
            cmd.append(f"--rwmixread={rng.choice([30, 50, 70])}")
    return cmd


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--scratch", default="/tmp/fio-scratch")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if shutil.which("fio") is None:
        sys.exit("fio is not installed (apt-get install fio)")
    out, scratch = Path(args.out), Path(args.scratch)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    cmds = [(i, command(i, out / f"run-{i:05d}.json", scratch / f"w{i % 2}", rng))
            for i in range(args.files)]
    for k in range(2):
        (scratch / f"w{k}").mkdir(parents=True, exist_ok=True)
    todo = [(i, c) for i, c in cmds if not (out / f"run-{i:05d}.json").exists()]

    def run(item):
        i, cmd = item
        res = subprocess.run(cmd, capture_output=True, text=True, check=False)
        return i, res.returncode, res.stderr[-200:]

    failed = 0
    with ThreadPoolExecutor(2) as pool:
        for n, (i, rc, err) in zip(itertools.count(1), pool.map(run, todo), strict=False):
            if rc:
                failed += 1
                (out / f"run-{i:05d}.json").unlink(missing_ok=True)
                print(f"run {i} failed: {err}", file=sys.stderr)
            if n % 200 == 0:
                print(f"{n}/{len(todo)}", file=sys.stderr)
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"{args.files - failed} reports in {out}")


if __name__ == "__main__":
    main()
