"""Child process of ingest_speed.py: PerfKit Benchmarker's fio JSON parser
(``perfkitbenchmarker/linux_packages/fio.py``, ``ParseResults``) on a folder of fio JSON files,
beside read + json.loads in the same process. Run with a Python that has absl-py, pytz and numpy;
argv: PKB checkout path, corpus folder, repetitions, and optionally ``keep``. PKB's code is loaded
from the checkout, never copied; the modules ParseResults does not use (installation, VM helpers)
are stubbed.

By default each report's samples are counted and dropped, so one report's memory is in use at a
time (the figure the issue quoted). With ``keep``, every sample is kept in one list, as PKB's own
run keeps them for its publisher. That is the like-for-like figure for an ingest that ends holding
every result, as ``es.read`` ends holding its frame.

PKB runs fio with its own ``--percentile_list`` (with p25 and p75, which fio's default list lacks),
so on reports of fio's defaults ParseResults is called with ``skip_latency_individual_stats=True``
(it then skips the percentile samples: less work than a full parse, in PKB's favour).

Prints one JSON line: {"parse": s, "peer": s, "ok": files, "failed": files, "samples": n}.
"""

import importlib.util
import json
import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _peer_timing import report

pkb, corpus, repeat = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
keep = sys.argv[4:] == ["keep"]
sys.path.insert(0, str(pkb))
pkg = types.ModuleType("perfkitbenchmarker")
pkg.__path__ = [str(pkb / "perfkitbenchmarker")]
sys.modules["perfkitbenchmarker"] = pkg
_vm = type("VirtualMachine", (), {"RemoteCommandError": type("RemoteCommandError",
                                                                 (Exception,), {})})
for name, attrs in {"errors": {"Error": Exception, "VirtualMachine": _vm}, "regex_util": {},
                    "vm_util": {"PrependTempDir": lambda p: p,
                                "Retry": lambda *a, **k: (lambda fn: fn)},
                    "linux_packages": {"INSTALL_DIR": "/opt/pkb"}}.items():
    mod = types.ModuleType(f"perfkitbenchmarker.{name}")
    for k, v in attrs.items():
        setattr(mod, k, v)
    sys.modules[mod.__name__] = mod
    setattr(pkg, name, mod)
for name, rel in (("sample", "sample.py"), ("linux_packages.fio", "linux_packages/fio.py")):
    spec = importlib.util.spec_from_file_location(f"perfkitbenchmarker.{name}",
                                                  pkb / "perfkitbenchmarker" / rel)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    if name == "sample":
        pkg.sample = mod
fio = sys.modules["perfkitbenchmarker.linux_packages.fio"]
files = sorted(corpus.glob("*.json"))


held = None  # the last pass's kept samples, alive after it (es.read's frame is, after its read)


def peer():
    global held
    ok = failed = 0
    kept = []  # every sample (keep), else one report's at a time
    samples = 0
    for f in files:
        try:
            got = fio.ParseResults(None, json.loads(f.read_bytes()),
                                   skip_latency_individual_stats=True)
            ok += 1
        except (KeyError, TypeError, ValueError):
            failed += 1
            continue
        samples += len(got)
        if keep:
            kept.extend(got)
    held = kept
    return ok, failed, samples


report(files, peer, repeat, "samples")
