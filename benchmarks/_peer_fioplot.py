"""Child process of ingest_speed.py: fio-plot's JSON import (``fio_plot.fiolib.jsonimport`` +
``jsonparsing``: load each file, then flatten its jobs into rows) on a folder of fio JSON files,
beside read + json.loads in the same process. Run with the Python of a venv where ``fio-plot``
is installed (pip install fio-plot); argv: corpus folder, repetitions.

fio-plot reads the direction its settings name (``rw`` → read or write) and needs ``iodepth``,
``numjobs``, ``bs`` and ``rw`` among a job's options, which fio leaves out when they are its
defaults: the harness sets the defaults (``iodepth=1``, ``numjobs=1``) in each job's options
after loading, so that fio-plot flattens every file; each file is imported with the settings
of its first job. A file it still cannot flatten counts as failed, its time included.

Prints one JSON line: {"parse": s, "peer": s, "ok": files, "failed": files, "rows": n}.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _peer_timing import report
from fio_plot.fiolib import jsonimport, jsonparsing

corpus, repeat = Path(sys.argv[1]), int(sys.argv[2])
files = sorted(corpus.glob("*.json"))


def peer():
    ok = failed = rows = 0
    for f in files:
        dataset = [{"directory": str(corpus), "files": [str(f)]}]
        try:
            record = jsonimport.import_json_data(str(f))
            for job in record["jobs"]:  # fio's defaults, which it does not print
                job.setdefault("job options", {}).setdefault("iodepth", "1")
                job["job options"].setdefault("numjobs", "1")
            first = record["jobs"][0]["job options"]
            rw = first.get("rw") or record.get("global options", {}).get("rw", "read")
            settings = {"rw": rw, "filter": ["read", "write"]}
            dataset[0]["rawdata"] = [record]
            out = jsonparsing.parse_json_data(settings, dataset)
            rows += len(out[0]["data"])
            ok += 1
        except (KeyError, TypeError, ValueError, IndexError):
            failed += 1
    return ok, failed, rows


report(files, peer, repeat, "rows")
