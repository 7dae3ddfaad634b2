"""Atomic outputs: a file or a folder appears complete, or not at all.

Everything ebsstats writes (Parquet files and datasets, reports, schedules) is built in a temporary
sibling and renamed into place; a failure leaves the previous output untouched and no temporary
files behind.

* Modes follow the umask (``0666 & ~umask`` for files, ``0777 & ~umask`` for folders), as if the
  output had been created directly.
* SIGTERM is handled like Ctrl-C while an output is being built: the temporary is removed.
* Temporaries of the same target that a killed run left behind (``.<name>.*.tmp``,
  ``.<name>.<tag>.*``, ``.<name>.old*``) are removed by the next write once older than
  :data:`STALE_SECONDS`.
* A folder is swapped under an exclusive lock (``flock`` on the folder that holds it), so
  concurrent writers of one target take turns instead of failing.
* :func:`check_output` finds the operational errors (read-only folder, a folder where a file is
  wanted, a full disk) before any work, as one line.
* :func:`overlap` is the one rule of an output apart from the data it is made from (``ingest``'s
  outputs: :func:`ebsstats.io.meta.check_apart`; a report's folder:
  :func:`ebsstats.app.reports.check_output`), each caller saying it in its own words.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from ebsstats.errors import EbsstatsError

__all__ = ["atomic_dir", "atomic_file", "check_output", "overlap", "OutputError"]

STALE_SECONDS = 3600.0
MIN_FREE_BYTES = 16 * 1024**2  # less free space than this is a full disk


class OutputError(EbsstatsError, OSError):
    """An output cannot be written (read-only, a folder in the way, disk full): one line."""

    def __str__(self) -> str:
        return str(self.strerror)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sigterm_as_interrupt():
    """While building an output in the main thread, SIGTERM raises KeyboardInterrupt (so the
    temporary is cleaned up); returns a function restoring the previous handler."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    try:
        previous = signal.getsignal(signal.SIGTERM)
    except (ValueError, AttributeError):
        return lambda: None
    if previous not in (signal.SIG_DFL, None):  # someone else handles it: leave theirs
        return lambda: None

    def handler(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")

    try:
        signal.signal(signal.SIGTERM, handler)
    except ValueError:
        return lambda: None
    return lambda: signal.signal(signal.SIGTERM, previous)


def clean_stale(target: str | os.PathLike, max_age: float = STALE_SECONDS) -> list[Path]:
    """Remove temporaries of ``target`` left by killed runs (older than ``max_age`` seconds).

    >>> import tempfile, pathlib, os
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> old = d / ".out.parquet.x1y2.tmp"; _ = old.write_text("")
    >>> os.utime(old, (0, 0))
    >>> [p.name for p in clean_stale(d / "out.parquet")]
    ['.out.parquet.x1y2.tmp']
    """
    target = Path(target)
    name = re.escape(target.name)
    pattern = re.compile(rf"^\.{name}\.(?:[^/]+\.tmp|[A-Za-z]+\.[^/]+|old(?:\.[^/]+)?)$")
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        if not pattern.match(entry.name):
            continue
        try:
            if now - entry.stat(follow_symlinks=False).st_mtime < max_age:
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


@contextmanager
def _locked(target: Path) -> Iterator[None]:
    """Exclusive lock of the swaps in ``target``'s folder (POSIX ``flock`` on the folder
    itself: no lock file is left behind)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        yield
        return
    fd = os.open(target.parent, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _one_line(exc: OSError, target: Path) -> OutputError:
    why = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is exceeded",
           errno.EROFS: "the file system is read-only", errno.EACCES: "permission denied",
           errno.EPERM: "permission denied", errno.EISDIR: "a folder is in the way",
           errno.EBUSY: "it is in use or a mount point (a folder replaced whole cannot be)",
           errno.EXDEV: "it is on another file system than its folder"}
    reason = why.get(exc.errno, exc.strerror or type(exc).__name__)
    return OutputError(exc.errno or 0, f"cannot write {target}: {reason}")


@contextmanager
def atomic_dir(target: str | os.PathLike, tag: str = "tmp") -> Iterator[Path]:
    """Yield an empty temporary folder beside ``target``; on success it replaces ``target``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "rep"
    >>> with atomic_dir(out) as tmp:
    ...     _ = (tmp / "index.html").write_text("ok")
    >>> (out / "index.html").read_text()
    'ok'
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(target)
    restore = _sigterm_as_interrupt()
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.{tag}.", dir=target.parent))
    except OSError as exc:
        restore()
        raise _one_line(exc, target) from exc
    try:
        yield tmp
        os.chmod(tmp, 0o777 & ~_umask())
        with _locked(target):
            old = None
            if target.exists() or target.is_symlink():
                old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
                old.rmdir()
                os.replace(target, old)
            os.replace(tmp, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError) and exc.errno in (
                errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EBUSY, errno.EXDEV):
            raise _one_line(exc, target) from exc
        raise
    finally:
        restore()


@contextmanager
def atomic_file(target: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary file path beside ``target``; on success it replaces ``target``.

    >>> import tempfile, pathlib, os
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "t.txt"
    >>> with atomic_file(out) as tmp:
    ...     _ = tmp.write_text("ok")
    >>> out.read_text(), oct(out.stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    ('ok', True)
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(target)
    restore = _sigterm_as_interrupt()
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        restore()
        raise _one_line(exc, target) from exc
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        if tmp.exists():
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError) and exc.errno in (
                errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EISDIR):
            raise _one_line(exc, target) from exc
        raise
    finally:
        restore()


def check_output(target: str | os.PathLike | None, *, folder: bool = False,
                 min_free: int = MIN_FREE_BYTES) -> None:
    """Raise :class:`OutputError` (one line) if ``target`` cannot be written: its folder is
    read-only or not writable, a folder stands where a file is wanted (``folder=False``), or the
    disk has less than ``min_free`` bytes free. Nothing is created. ``None`` is accepted (no
    output asked for).

    >>> import tempfile
    >>> check_output(tempfile.mkdtemp())
    Traceback (most recent call last):
    ...
    ebsstats.atomic.OutputError: cannot write ...: it is a folder (a file is written there)
    """
    if target is None:
        return
    target = Path(target)
    if not folder and target.is_dir():
        raise OutputError(errno.EISDIR, f"cannot write {target}: it is a folder (a file is "
                          "written there)")
    parent = target.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise OutputError(errno.ENOTDIR, f"cannot write {target}: {parent} is not a folder")
    try:
        st = os.statvfs(parent)
    except (OSError, AttributeError):
        st = None
    if st is not None and st.f_flag & getattr(os, "ST_RDONLY", 1):
        raise OutputError(errno.EROFS, f"cannot write {target}: the file system is read-only")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(errno.EACCES, f"cannot write {target}: {parent} is not writable")
    if target.exists() and not os.access(target, os.W_OK) and not os.access(parent, os.W_OK):
        raise OutputError(errno.EACCES, f"cannot write {target}: permission denied")
    if st is not None and st.f_bavail * st.f_frsize < min_free:
        raise OutputError(errno.ENOSPC, f"cannot write {target}: the disk is full "
                          f"({st.f_bavail * st.f_frsize:,} bytes free)")


def overlap(out: str | os.PathLike, data: str | os.PathLike
            ) -> Literal["same", "inside", "contains"] | None:
    """How an output path stands to the data it is made from, links resolved: ``"same"`` (the
    data themselves, another path or a hard link to them included), ``"inside"`` (below the
    data folder), ``"contains"`` (a folder holding the data: replacing it deletes them), or
    ``None``: apart, writing ``out`` cannot touch the data.

    Parameters
    ----------
    out : path
        The output file or folder (it need not exist).
    data : path
        The input file or folder.

    Returns
    -------
    str or None
        ``"same"``, ``"inside"``, ``"contains"`` or ``None``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> overlap(d, d), overlap(d / "reports", d), overlap(d.parent, d), overlap(d.parent / "r", d)
    ('same', 'inside', 'contains', None)
    """
    o, d = Path(out).resolve(), Path(data).resolve()
    if o == d or (o.exists() and d.exists() and os.path.samefile(o, d)):
        return "same"
    if o.is_relative_to(d):
        return "inside"
    if d.is_relative_to(o):
        return "contains"
    return None
