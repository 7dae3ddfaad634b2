"""Shared test helpers: fixture paths and a guard that inputs are never modified."""

from __future__ import annotations

import contextlib
import hashlib
import io
import subprocess
import sys
import traceback
import warnings
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).parent.parent


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


def fixture(*parts: str) -> Path:
    """Path of a genuine tool output under tests/fixtures (copied from shared/samples)."""
    p = FIXTURES.joinpath(*parts)
    assert p.exists(), p
    return p


def tree_digest(path: Path) -> str:
    """SHA-256 over every file's relative name and bytes: compare before/after a read."""
    h = hashlib.sha256()
    for f in sorted(p for p in Path(path).rglob("*") if p.is_file()):
        h.update(str(f.relative_to(path)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def json_slots(obj, numbers_only: bool = False, path: tuple = ()):
    """Key paths (tuples of keys and indices) of every leaf of a decoded JSON document (of
    every number, with ``numbers_only``)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from json_slots(v, numbers_only, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from json_slots(v, numbers_only, (*path, i))
    elif not numbers_only or (isinstance(obj, (int, float)) and not isinstance(obj, bool)):
        yield path


#: The warning filters of a fresh interpreter (``python -m ebsstats.app.cli``, no ``-W``), the
#: ``__main__`` one applied to the CLI's module, which is ``__main__`` in such a process.
_PYTHON_DEFAULT_FILTERS = (("default", DeprecationWarning, r"__main__\Z|ebsstats\.app\.cli\Z"),
                           ("ignore", DeprecationWarning, ""),
                           ("ignore", PendingDeprecationWarning, ""),
                           ("ignore", ImportWarning, ""), ("ignore", ResourceWarning, ""))


def run_process(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    """``python -m ebsstats.app.cli ARGS`` in a new process: where what is tested is the
    process itself (its exit code, a usage error's 2 without a traceback, a Python warning
    escaping to its stderr)."""
    return subprocess.run([sys.executable, "-m", "ebsstats.app.cli", *args], capture_output=True,
                          text=True, timeout=timeout)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """``python -m ebsstats.app.cli ARGS`` run in this process, as a finished process: the exit
    code (``SystemExit`` from argparse included), stdout and stderr. As in a real process, a
    warning that escapes the command is printed on its stderr (with a fresh interpreter's
    filters) and an uncaught exception prints its traceback there with exit code 1. Tests of
    the process boundary itself (the interpreter's start-up and exit) use a subprocess."""
    from ebsstats.app.cli import main

    out, err = io.StringIO(), io.StringIO()

    def show(message, category, filename, lineno, file=None, line=None):
        err.write(warnings.formatwarning(message, category, filename, lineno, line))

    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            warnings.catch_warnings():
        warnings.resetwarnings()
        for action, category, module in _PYTHON_DEFAULT_FILTERS:
            warnings.filterwarnings(action, category=category, module=module, append=True)
        warnings.showwarning = show
        try:
            code = main(list(args))
        except SystemExit as exc:  # (as the interpreter turns it into an exit code)
            code = exc.code
            if code is not None and not isinstance(code, int):
                print(code, file=sys.stderr)
                code = 1
        except Exception:  # (as the interpreter: the traceback, exit code 1)
            traceback.print_exc()
            code = 1
    return subprocess.CompletedProcess(["ebsstats", *args], code or 0, out.getvalue(),
                                       err.getvalue())
