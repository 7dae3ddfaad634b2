"""Reads started at once in several threads of a fresh process (a Dask threaded scheduler, a
thread pool) give what one read after another gives: the built-in readers are registered
once, whole, before any thread sniffs (a half-filled registry called files "not a recognised
benchmark output" and dropped them without an error)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"

_SCRIPT = r"""
import json, sys, threading, warnings
warnings.simplefilter("ignore")
sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
import ebsstats as es

folders = sys.argv[1:]
barrier = threading.Barrier(len(folders))
got = {}

def read(d):
    barrier.wait()
    df = es.read(d, jobs=1, progress=False)
    got[d] = (len(df), sorted(f["source"] for f in df.attrs["failures"]))

threads = [threading.Thread(target=read, args=(d,)) for d in folders]
for t in threads:
    t.start()
for t in threads:
    t.join()
alone = {}
for d in folders:
    df = es.read(d, jobs=1, progress=False)
    alone[d] = (len(df), sorted(f["source"] for f in df.attrs["failures"]))
print(json.dumps({"threads": got, "alone": alone}))
"""


def test_first_reads_in_threads_equal_reads_one_after_another(tmp_path):
    folders = []
    for tool, suffix in (("bonnie", ".csv"), ("sysbench", ".txt"), ("fio", ".json"),
                         ("pts", ".xml")):
        d = tmp_path / tool
        d.mkdir()
        for p in sorted(FIXTURES.joinpath(tool).glob(f"*{suffix}"))[:4]:
            shutil.copyfile(p, d / p.name)
        folders.append(str(d))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(3):  # a fresh process each time: the registry filled by the first sniff
        out = subprocess.run([sys.executable, "-c", _SCRIPT, *folders], env=env, check=True,
                             capture_output=True, text=True, cwd=tmp_path)
        res = json.loads(out.stdout.strip().splitlines()[-1])
        assert res["threads"] == res["alone"]
        assert all(n > 0 for n, _ in res["alone"].values())
