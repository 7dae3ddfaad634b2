"""Child process of ingest_speed.py: PerfKit Benchmarker's fio JSON parser
(``perfkitbenchmarker/linux_packages/fio.py``, ``ParseResults``) on a folder of fio JSON files,
beside read + json.loads in the same process. Run with a Python that has absl-py, pytz and numpy;
argv: PKB checkout path, corpus folder, repetitions, and optionally ``keep`` and/or ``current``.
PKB's code is loaded from the checkout, never copied; the modules ParseResults does not use
(installation, VM helpers, absl flags) are stubbed.

PKB has two fio parsers. ``linux_packages/fio.py``'s (used by ``fio_benchmark``) is the default
here. With ``current``, ``linux_benchmarks/fio/result_parser.py``'s, used by PKB's nine newer
fio benchmarks, called as they call it: its defaults (latency percentiles included, whatever
percentile list the report has; its flags at their defined defaults, False).

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
keep = "keep" in sys.argv[4:]
current = "current" in sys.argv[4:]
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
_flags = types.ModuleType("perfkitbenchmarker.linux_benchmarks.fio.flags")
for flag in ("FIO_RUN_PARALLEL_JOBS_ON_DISKS", "FIO_SEPARATE_JOBS_FOR_DISKS"):  # both False
    setattr(_flags, flag, types.SimpleNamespace(value=False))
for name in ("linux_benchmarks", "linux_benchmarks.fio"):
    mod = types.ModuleType(f"perfkitbenchmarker.{name}")
    mod.__path__ = [str(pkb / "perfkitbenchmarker" / name.replace(".", "/"))]
    sys.modules[mod.__name__] = mod
sys.modules[_flags.__name__] = _flags
sys.modules["perfkitbenchmarker.linux_benchmarks.fio"].flags = _flags
MODULES = (("sample", "sample.py"), ("linux_packages.fio", "linux_packages/fio.py"),
           ("linux_benchmarks.fio.constants", "linux_benchmarks/fio/constants.py"),
           ("linux_benchmarks.fio.result_parser", "linux_benchmarks/fio/result_parser.py"))
for name, rel in MODULES[:4 if current else 2]:
    spec = importlib.util.spec_from_file_location(f"perfkitbenchmarker.{name}",
                                                  pkb / "perfkitbenchmarker" / rel)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    if name == "sample":
        pkg.sample = mod
    if name == "linux_benchmarks.fio.constants":
        sys.modules["perfkitbenchmarker.linux_benchmarks.fio"].constants = mod
fio = sys.modules["perfkitbenchmarker.linux_packages.fio"]
if current:
    _parser = sys.modules["perfkitbenchmarker.linux_benchmarks.fio.result_parser"]

    def parse(doc):
        return _parser.ParseResults(None, doc)
else:
    def parse(doc):
        return fio.ParseResults(None, doc, skip_latency_individual_stats=True)
files = sorted(corpus.glob("*.json"))


held = None  # the last pass's kept samples, alive after it (es.read's frame is, after its read)


def peer():
    global held
    ok = failed = 0
    kept = []  # every sample (keep), else one report's at a time
    samples = 0
    for f in files:
        try:
            got = parse(json.loads(f.read_bytes()))
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
