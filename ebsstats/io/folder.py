"""Folder ingest: every benchmark output under a path into one tidy frame.

:func:`read` walks a folder (or takes one file), sniffs each file's tool by content, parses it with
that tool's reader, applies metadata (arguments > sidecar YAML > path pattern > the file itself),
and concatenates. A folder read keeps every good file and lists every bad one; it never modifies
an input.

What a folder may hold besides outputs: files that are not regular (FIFOs, sockets, devices) are
skipped without being opened (a FIFO would block a read forever); broken or looping symbolic links
and unreadable files or sub-folders are listed as errors; links to folders are not followed (no
loops) and are listed as skipped; the same bytes under two names are read once. Hidden files and folders (``.git``,
``.ipynb_checkpoints``) are not read, except the ``test-results`` of a ``.phoronix-test-suite``
folder, where PTS saves its results. A file name that is not valid UTF-8 is
shown with its undecodable bytes as ``\\xNN`` escapes (``source`` stays printable text; see
:func:`display_name`).
"""

from __future__ import annotations

import collections
import contextlib
import functools
import gc
import hashlib
import inspect
import itertools
import multiprocessing
import os
import pickle
import re
import shutil
import stat
import sys
import tempfile
import warnings
from collections.abc import Mapping
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from ebsstats import schema
from ebsstats.errors import IngestError, IngestFailure, ParseError, SchemaError
from ebsstats.io import meta as metamod
from ebsstats.io._columns import concat
from ebsstats.io._common import (
    MAX_BYTES,
    UTF16_BOMS,
    Chunk,
    Parsed,
    compression_of,
    decode,
    load_bytes,
    plain_name,
    read_head,
    results_of,
    series_chunk,
    series_of,
)
from ebsstats.io.sniff import (
    Sniffed,
    is_companion_name,
    sniff_claim,
    sniff_text,
    unread_reason,
)

__all__ = ["read", "read_series", "check", "failures_frame", "display_name", "ReadResult"]

FOLDER_MAX_BYTES = 512 * 1024**2
FAILURE_COLUMNS = ["source", "kind", "tool", "format", "position", "reason"]


class ReadResult(NamedTuple):
    """What :func:`read` returns when asked for more than the results frame (``full=True``).

    Attributes
    ----------
    frame : pandas.DataFrame
        The tidy results frame.
    series : pandas.DataFrame or None
        The time-series frame (``series=True``), else ``None``.
    failures : pandas.DataFrame
        Every skipped or refused file, and every part of a file left out: ``source``,
        ``kind`` (``error``: refused; ``partial``: a part left out, an interrupted run among
        several in one file, the file's other rows kept; ``skipped``, ``empty``,
        ``duplicate``; ``note``: what the reader noted of a file it read, the tool's own
        warnings (``fio: io_u error ...``, sysbench's ``WARNING:`` lines) and values it could
        not take as printed and what it did instead (a latency printed as ``0.00``, stored as
        NaN and flagged ``too_fast``), at most 20 a file), ``tool``, ``format``,
        ``position``, ``reason``.
    """

    frame: pd.DataFrame
    series: pd.DataFrame | None
    failures: pd.DataFrame


@dataclass(slots=True)
class _Outcome:
    rel: str
    sniffed: Sniffed | None = None
    parsed: Parsed | None = None  # records and series moved to the chunks below
    failure: IngestFailure | None = None
    meta: dict = field(default_factory=dict)
    # files of a size another file has: their size and the SHA-1 of their first and last
    # _EDGE bytes (_fingerprint); the whole bytes are hashed only where fingerprints meet
    digest: bytes | None = None
    error: ParseError | None = None
    records: Chunk | None = None  # the file's records as compact columns, metadata applied
    series: list[Chunk] = field(default_factory=list)
    nrows: int = 0
    why_empty: str | None = None  # a recognised file that gave no results, and why
    # where the file's typed rows are (records and series above are then dropped): a block of
    # files typed together, its results rows [rows[0], rows[1]) and series rows likewise
    block: _Block | None = None
    rows: tuple[int, int] | None = None
    series_rows: tuple[int, int] | None = None
    pattern_hit: bool = False  # the read's path pattern matched this file (gave it metadata)


@dataclass(eq=False)
class _Block:
    """The typed, validated rows of a run of files, typed together where they were read: a
    worker process sends back two frames (Arrow and NumPy buffers), not every file's Python
    values, and the typing runs in the workers, in parallel."""

    frame: pd.DataFrame
    series: pd.DataFrame | None = None


def display_name(name: str) -> str:
    """A file name as printable text: bytes that are not UTF-8 (kept by Python as lone
    surrogates, PEP 383) become ``\\xNN`` escapes, so that the name can be printed, stored in
    Arrow/Parquet string columns and compared.

    >>> import os
    >>> display_name(os.fsdecode(b"caf\\xe9.json"))
    'caf\\\\xe9.json'
    >>> display_name("gp3/run-1.json")
    'gp3/run-1.json'
    >>> display_name("evil\\x1b[2Jname.json")   # terminal escapes are shown, not sent
    'evil\\\\x1b[2Jname.json'
    """
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        name = os.fsencode(name).decode("utf-8", errors="backslashreplace")
    return metamod.escape_controls(name)


def _walk(root: Path, errors: list[OSError] | None = None,
          stats: list[os.stat_result | None] | None = None,
          rels: list[str] | None = None) -> list[Path]:
    """Every file below root, sorted; directory symlinks are not followed (no loops). Folders
    that cannot be listed are appended to ``errors``. The same file under two names (a link)
    is listed once, by its real name: identity is the (device, inode) pair of one ``stat``,
    not a ``realpath`` per file. ``stats`` (if given) receives each listed file's ``stat``
    (``None``: it failed), in the order of the files, which the read then uses instead of
    asking again; ``rels`` (if given) each file's name relative to ``root`` (``/``-separated,
    as :func:`_relative_names` makes it from the path: its folder part once per folder)."""
    return list(map(Path, _walk_text(root, errors, stats, rels)))


_PTS_HOME = ".phoronix-test-suite"  # PTS's own folder (its results in test-results/)


def _walk_text(root: Path, errors: list[OSError] | None = None,
               stats: list[os.stat_result | None] | None = None,
               rels: list[str] | None = None, sizes: list[int] | None = None,
               links: list[str] | None = None) -> list[str]:
    """:func:`_walk`, each file as the text of its path (what ``str`` of its
    :class:`~pathlib.Path` is: :func:`_text_of_child`), not a Path (a Path per file, and its
    text made again when the file is opened, cost 1.5 us a file); ``sizes`` (if given) each
    file's size from its ``stat`` (where that failed, asked again: 0 if it fails again);
    ``links`` (if given) receives the name, relative to ``root``, of every link to a folder
    that the walk did not follow (the read lists them: a campaign's folder linked in is
    never left out without a word)."""
    files: list[str] = []
    kept: list[os.stat_result | None] = []
    names: list[str] = []
    sized: list[int] = []
    seen: dict[object, int] = {}
    onerror = errors.append if errors is not None else None
    islink = os.path.islink
    top = os.fspath(root)  # what os.walk gives as the top's dirpath
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False, onerror=onerror):
        pts_home = _subfolders(dirpath, dirnames)
        if pts_home:  # (its own files are its settings: none is a result)
            filenames = []
        folder = Path(dirpath)
        base = _text_of_child(folder)
        rel_dir = ("." if (rels is None and links is None) or dirpath == top  # (the top: no
                   else folder.relative_to(root).as_posix())  # relative_to)
        within = "" if rel_dir == "." else f"{rel_dir}/"
        if links is not None:  # (os.walk lists a link to a folder among the folders)
            links.extend(within + d for d in dirnames if islink(base + d))
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            full = base + name
            try:
                st = os.stat(full)
                key: object = (st.st_dev, st.st_ino)
            except OSError:
                st, key = None, full
            if key in seen:  # the same file twice: keep its real name over a link
                k = seen[key]
                if islink(files[k]) and not islink(full):
                    files[k] = full  # the same inode: the same stat
                    names[k] = within + name
                continue
            seen[key] = len(files)
            files.append(full)
            kept.append(st)
            names.append(within + name)
            sized.append(_size_of(full) if st is None else st.st_size)
    if stats is not None:
        stats[:] = kept
    if rels is not None:
        rels[:] = names
    if sizes is not None:
        sizes[:] = sized
    return files


def _subfolders(dirpath: str, dirnames: list[str]) -> bool:
    """Keep, sorted, the sub-folders of ``dirpath`` a read walks into (in place: what
    :func:`os.walk` descends into): not hidden ones, except PTS's own folder, and in that
    folder only its ``test-results``. Returns whether ``dirpath`` is PTS's own folder."""
    dirnames.sort()
    pts_home = os.path.basename(dirpath) == _PTS_HOME
    dirnames[:] = ([d for d in dirnames if d == "test-results"] if pts_home else
                   [d for d in dirnames if not d.startswith(".") or d == _PTS_HOME])
    return pts_home


def _text_of_child(folder: Path) -> str:
    """What the text of ``folder / name`` starts with, for any file name: ``str(folder / name)``
    is that and the name (pathlib joins a child's name to its folder's text with one ``/``,
    none after ``.``, the folder's own text normalised once).

    >>> _text_of_child(Path("data//gp3/")), _text_of_child(Path(".")), _text_of_child(Path("/"))
    ('data/gp3/', '', '/')
    """
    return str(folder / "x")[:-1]


def _relative_names(files: list[Path], root: Path) -> list[str]:
    """Each file's name relative to ``root`` (``/``-separated, printable): the folder part
    computed once per folder (``Path.relative_to`` per file cost more than reading it)."""
    folders: dict[str, str] = {}
    out = []
    for f in files:
        parent, name = os.path.split(f)
        rel_dir = folders.get(parent)
        if rel_dir is None:
            rel_dir = folders[parent] = Path(parent).relative_to(root).as_posix()
        out.append(name if rel_dir == "." else f"{rel_dir}/{name}")
    return out if _all_printable(out) else list(map(display_name, out))


def _all_printable(names: list[str]) -> bool:
    """Whether every name is its own :func:`display_name` (UTF-8, no control characters):
    judged once on the names joined (a separator that is neither: no two names' halves can
    pair up), not name by name."""
    joined = "/".join(names)
    try:
        joined.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return metamod.escape_controls(joined) == joined


@functools.lru_cache(maxsize=4096)
def _folder_chain_meta(root: str, rel_dir: str) -> tuple[tuple[str, object], ...]:
    """The folder ``meta.yaml`` files from ``root`` (absolute) down to ``root/rel_dir`` (deeper
    wins), merged: computed once per folder of a read, not once per file. A bad sidecar raises
    (its ParseError is cached by :mod:`ebsstats.io.meta`)."""
    meta = metamod.folder_sidecar(root, root)  # (root is absolute, normalised: its Path's text)
    if rel_dir:
        cur = Path(root)
        for part in rel_dir.split("/"):
            cur = cur / part
            meta.update(metamod.folder_sidecar(cur, root))
    return tuple(meta.items())


@functools.lru_cache(maxsize=4096)
def _folder_of(parent: str, root: str) -> tuple[str, str, tuple] | None:
    """``(absolute root, parent relative to root, the folder sidecars' metadata items)``, or
    ``None`` when ``parent`` is not under ``root``: once per folder of a read, not once per
    file (pathlib is slow). A bad sidecar raises (nothing cached: each file fails alike)."""
    if parent == root:  # (files at the top: what relative_to gives, without two Paths)
        rel_dir = "."
    else:
        try:
            rel_dir = Path(parent).relative_to(root).as_posix()
        except ValueError:
            return None
    top = os.path.abspath(root)
    return top, rel_dir, _folder_chain_meta(top, "" if rel_dir == "." else rel_dir)


def _sidecars(path: str, root: Path, own: bool | None) -> dict:
    """Sidecar metadata of ``path`` (the text of its Path) under ``root``: its folders' then
    its own (``own``: whether ``<file>.meta.yaml`` exists, if the listing knows; else it is
    looked up)."""
    where = _folder_of(os.path.dirname(path), os.fspath(root))
    if where is None:
        return metamod.sidecar_meta(Path(path), root)
    top, rel_dir, folder_meta = where
    meta = dict(folder_meta)
    if own is None or own:
        meta.update(metamod.file_sidecar(Path(top, rel_dir, os.path.basename(path)), top))
    return meta


@dataclass(frozen=True)
class _Job:
    """What every file of one read shares (sent once per batch of files to a worker)."""

    root: Path | None
    pattern: str | None
    max_bytes: int
    versions: Mapping[tuple[str, str], tuple[str, bool]]  # (folder, tool) -> the first
    # version its reports print, and whether they all print it (_collect_versions)
    want_digest: bool
    meta: Mapping | None
    series: bool
    final: bool = False  # the pass for readers that need what other files said
    sidecar_names: frozenset = frozenset()  # "<folder>/<name>" of every <file>.meta.y*ml
    # sizes that more than one listed file has (None: any): only those files can be the same
    # bytes as another, so only they are hashed (a 2 M-line log's SHA-1 cost a tenth of its read)
    shared_sizes: frozenset | None = None
    typed: bool = True  # type each run of files into a _Block where it is read (check: no)
    budget: int | None = None  # memory_budget() of this read (looked up once, not per file)


def _source_of(job: _Job):
    """The ``source`` name this read gives any path (relative to the folder read)."""
    if job.root is None:
        return str

    def source_of(path: Path) -> str:
        try:
            return display_name(Path(path).relative_to(job.root).as_posix())
        except ValueError:
            return str(path)

    return source_of


def _context(reader, path: str, job: _Job) -> dict:
    """The context a reader declared it needs (see :mod:`ebsstats.io._registry`); ``path``:
    the text of the file's Path (the reader gets the Path)."""
    ctx: dict = {}
    if not reader.needs:
        return ctx
    if "path" in reader.needs:
        ctx["path"] = Path(path)
    if "source_of" in reader.needs:
        ctx["source_of"] = _source_of(job)
    if "folder_version" in reader.needs:
        ctx["folder_version"], ctx["folder_version_from"] = _nearest_version(
            job.versions, Path(path).parent, reader.tool, job.root)
    return ctx


def _nearest_version(versions: Mapping, folder: Path, tool: str, root: Path | None
                     ) -> tuple[str | None, str | None]:
    """The version ``tool``'s reports print nearest a file in ``folder``: its own folder's
    (the first its reports print), else the nearest folder above it, up to the read's root,
    whose reports of that tool all print one version (pbench keeps a run's fio report two
    folders above the logs of each client; a folder of reports of several versions says
    nothing of which wrote the logs below it: then none). Returns ``(version, the folder
    above it came from, relative to the root; None: its own)`` or ``(None, None)``.

    >>> v = {("r", "fio"): ("fio-3.7", True), ("r/a", "fio"): ("fio-3.1", False)}
    >>> _nearest_version(v, Path("r/c/h"), "fio", Path("r"))
    ('fio-3.7', '.')
    >>> _nearest_version(v, Path("r/a/h"), "fio", Path("r")), _nearest_version(v, Path("r/a"),
    ...                                                                        "fio", Path("r"))
    ((None, None), ('fio-3.1', None))
    """
    if not versions:
        return None, None
    here = versions.get((str(folder), tool))
    up = folder
    while here is None and root is not None and up != root and up.parent != up:
        up = up.parent
        here = versions.get((str(up), tool))
        if here is not None and not here[1]:
            return None, None
    if here is None:
        return None, None
    return here[0], (os.path.relpath(up, root) if up != folder else None)


_HEAD_FIRST = 1024**2  # files above this are sniffed from their head before being read


def _defer_by_head(path: str, rel: str, out: _Outcome) -> bool:
    """Whether a large file's reader waits for the final pass, judged from its first 64 KiB
    (so that a long fio log is read once, not once per pass). Files whose head needs more
    care (UTF-16, binary) are left to the full read."""
    try:
        head = read_head(path, 65536)  # (of what a compressed file holds)
    except OSError:
        return False  # the full read reports it
    if head[:2] in UTF16_BOMS or b"\x00" in head[:4096]:
        return False
    sniffed = sniff_text(head.decode("utf-8", errors="replace"),
                         plain_name(os.path.basename(path)))
    if sniffed is None or "folder_version" not in sniffed.reader.needs:
        return False
    out.sniffed = _by_name(sniffed.module, sniffed.tool, sniffed.format)
    return True


def _read_path(path: str, rel: str, job: _Job, listed: os.stat_result | None = None
               ) -> _Outcome:
    """Read, sniff and parse one file (``path``: the text of its Path, as the listing made
    it); every refusal is an outcome, never an exception. ``listed``: the file's ``stat`` from
    the folder listing (not asked again)."""
    out = _Outcome(rel)
    name = os.path.basename(path)  # (once: the companion check and the sniff take it)
    st = _regular_file(path, rel, out, listed, name)
    if st is None:
        return out
    try:
        if not job.final and st.st_size > _HEAD_FIRST:  # a large file: sniff before reading it
            deferred = _defer_by_head(path, rel, out)
            if deferred:
                return out
        data = _file_bytes(path, job.max_bytes, rel, listed=listed is not None)
        # (a compressed file's name without its suffix, as load_bytes gives what it holds; its
        # full name is no companion's: a meta.yaml.gz is listed, never silently passed over)
        sniffed = _sniff_data(data, plain_name(name), rel, out)
        if sniffed is None:
            return out
        reader = sniffed.reader  # kept here: the outcome travels between processes by name
        out.sniffed = _by_name(sniffed.module, sniffed.tool, sniffed.format)
        if "folder_version" in reader.needs and not job.final:
            return out  # parsed in the final pass, once the other reports have been read
        if job.want_digest and (job.shared_sizes is None or st.st_size in job.shared_sizes):
            out.digest = _fingerprint(data)
        parsed = _guarded_parse(reader, data, rel, _context(reader, path, job), job.budget)
        del data
        out.meta = _file_meta(path, rel, job, out)
    except ParseError as exc:
        out.failure = IngestFailure(rel, exc.position, str(exc), kind="error")
        out.error = exc
        return out
    _keep_rows(out, parsed, sniffed, job)
    return out


def _file_bytes(path: str, max_bytes: int, rel: str, listed: bool = False) -> bytes:
    """The bytes a file is parsed from: as :func:`load_bytes` reads them, UTF-16 text
    (PowerShell's ``>`` redirection) made UTF-8; raises :class:`ParseError` as those do."""
    data = load_bytes(path, max_bytes, listed=listed)
    if data[:2] in UTF16_BOMS:
        data = decode(data, rel).encode("utf-8")
    return data


@functools.lru_cache(maxsize=1024)
def _by_name(module: str, tool: str, fmt: str) -> Sniffed:
    """A verdict without its reader (what an outcome keeps), made once per reader and format
    (it is immutable: files share it)."""
    return Sniffed(module, tool, fmt)


def _regular_file(path: str, rel: str, out: _Outcome, st: os.stat_result | None = None,
                  name: str | None = None) -> os.stat_result | None:
    """The file's ``stat`` (``st``, the listing's, else asked now) when it is a regular file and
    not a companion; else ``None``, with the reason set on ``out``. ``name``: the path's
    base name, if the caller has it."""
    try:
        if st is None:
            st = os.stat(path)  # follows links: what would be read
    except OSError as exc:
        what = "broken or looping symbolic link" if os.path.islink(path) else "unreadable file"
        out.failure = IngestFailure(rel, None, f"{rel}: {what} ({exc.strerror})", kind="error")
        return None
    if not stat.S_ISREG(st.st_mode):  # never open a FIFO, socket or device: it may block
        kind = ("FIFO" if stat.S_ISFIFO(st.st_mode) else "socket" if stat.S_ISSOCK(st.st_mode)
                else "device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "special file")
        out.failure = IngestFailure(rel, None, f"not a regular file ({kind})", kind="skipped")
        return None
    if is_companion_name(os.path.basename(path) if name is None else name):
        out.failure = IngestFailure(rel, None, "companion file (sidecar, job file, notes)",
                                    kind="companion")
        return None
    return st


def _sniff_data(data: bytes, name: str, rel: str, out: _Outcome):
    """The reader that recognises the bytes of the file called ``name`` (its base name), or
    ``None`` (empty, binary or unknown: the reason set on ``out``)."""
    if not data or data.isspace():  # not data.strip(): that copies the file
        out.failure = IngestFailure(rel, None, "empty file", kind="skipped")
        return None
    if data.find(b"\x00", 0, 4096) >= 0 or _compression_named(data):
        out.failure = IngestFailure(rel, None, _binary_reason(data), kind="skipped")
        return None
    sniffed = sniff_claim(data)  # (a verdict from the bytes alone: a fio JSON report)
    if sniffed is not None:
        return sniffed
    head = data[:65536].decode("utf-8", errors="replace")
    try:
        sniffed = sniff_text(head, name)
    except (ValueError, ArithmeticError, RecursionError, MemoryError) as exc:
        # a reader's sniff that fails on one hostile file fails that file, not the read
        out.failure = IngestFailure(rel, None, f"{rel}: no reader could judge its first bytes "
                                    f"({type(exc).__name__}: {str(exc)[:200]})", kind="error")
        return None
    if sniffed is None:
        out.failure = IngestFailure(rel, None, unread_reason(head), kind="skipped")
    return sniffed


def _compression_named(data: bytes) -> str | None:
    """The compression of bytes load_bytes did not read through: zstd (Python 3.11 has no
    decompressor for it), or a gzip, bzip2 or xz stream inside one (compressed twice)."""
    return compression_of(data) or ("zstd" if data.startswith(b"\x28\xb5\x2f\xfd") else None)


def _binary_reason(data: bytes) -> str:
    """Why a file of binary bytes is not read: a compressed file ebsstats does not read
    through says which compression, anything else is no benchmark output (gzip, bzip2 and xz
    files are read as what they hold: wikimedia's 3,132 gzipped fio reports and logs had all
    been "binary"; one compressed twice gets here).

    >>> _binary_reason(b"\\x1f\\x8b\\x08\\x00"), _binary_reason(b"\\x00\\x01")
    ('gzip-compressed file: not read (decompress it first, e.g. gunzip -k)', \
'binary file, not a benchmark output')
    """
    name = _compression_named(data)
    if name is not None:
        tool = {"gzip": "gunzip -k", "bzip2": "bunzip2 -k", "xz": "unxz -k",
                "zstd": "unzstd"}[name]
        return f"{name}-compressed file: not read (decompress it first, e.g. {tool})"
    return "binary file, not a benchmark output"


def _keep_rows(out: _Outcome, parsed: Parsed, sniffed, job: _Job) -> None:
    """The parsed rows as compact columns on ``out`` (metadata applied): compact to send back
    from a worker, and typed once for all files."""
    merged = {**out.meta, **(job.meta or {})} or None
    out.nrows = parsed.nrows()
    if not out.nrows and not any(len(ts) for ts in parsed.series):
        out.why_empty = parsed.why_empty or (f"recognised as {sniffed.tool} "
                                             f"({sniffed.format}) but it holds no results")
    out.records = parsed.chunk(merged)
    if job.series:
        rows = any(len(ts) for ts in parsed.series)
        out.series = [series_chunk(ts, merged if rows else None) for ts in parsed.series]
    parsed.records, parsed.series, parsed.columns = [], [], None
    out.parsed = parsed


def _file_meta(path: str, rel: str, job: _Job, out: _Outcome) -> dict:
    """Pattern and sidecar metadata of one file (folder sidecars merged once per folder); a bad
    sidecar fails this file, naming both. Whether the pattern matched goes on ``out``."""
    meta = metamod.pattern_meta(rel, job.pattern) if job.pattern else {}
    out.pattern_hit = bool(meta)
    if job.root is not None:
        own = None
        if job.sidecar_names is not None:  # (no <file>.meta.yaml in the folder: no name built)
            own = bool(job.sidecar_names) and any(f"{path}{s}" in job.sidecar_names
                                                  for s in (".meta.yaml", ".meta.yml"))
        try:
            if not meta:  # (no pattern metadata: the sidecars' dict is this file's own)
                return _sidecars(path, job.root, own)
            meta.update(_sidecars(path, job.root, own))
        except ParseError as exc:
            where = f"sidecar {exc.source}" + (f", {exc.position}" if exc.position else "")
            raise ParseError(rel, where, exc.expected, found=exc.found) from exc
    return meta


# --- hostile input: one guard around every reader ------------------------------------------
MEMORY_BUDGET_ENV = "EBSSTATS_MEMORY_BUDGET"
MEMORY_BUDGET = 4 * 1024**3  # bytes one file's parse may need (estimate: size × reader factor)
DEFAULT_MEMORY_FACTOR = 60


def memory_budget() -> int:
    """Bytes one file's parse may use: ``$EBSSTATS_MEMORY_BUDGET`` (bytes), else half of the
    machine's memory (at least 1 GiB; 4 GiB where it cannot be known)."""
    return _memory_budget(os.environ.get(MEMORY_BUDGET_ENV))


@functools.lru_cache(maxsize=8)
def _memory_budget(env: str | None) -> int:  # sysconf once per setting, not once per file
    try:
        return int(env)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        pass
    try:
        return max(1024**3, os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2)
    except (ValueError, OSError, AttributeError):
        return MEMORY_BUDGET


def _guarded_parse(reader, data: bytes, rel: str, context: dict,
                   budget: int | None = None) -> Parsed:
    """Parse one file with its reader, refusing before the parse a file whose estimated peak
    memory (size × the reader's ``memory_factor``, measured by benchmarks/reader_memory.py)
    exceeds :func:`memory_budget`; deep nesting, integers too long to convert, memory exhaustion
    and arithmetic overflow become a ParseError for this file, never the folder's end. ``budget``:
    the read's memory budget, looked up once per read (default: looked up now)."""
    factor = reader.memory_factor or DEFAULT_MEMORY_FACTOR
    need = len(data) * factor
    budget = memory_budget() if budget is None else budget
    if need > budget:
        raise ParseError(rel, None, f"a file this reader can parse within the memory budget "
                         f"({budget / 1024**2:,.0f} MiB; ${MEMORY_BUDGET_ENV} raises it)",
                         found=f"{len(data) / 1024**2:,.1f} MiB, needing about "
                         f"{need / 1024**2:,.0f} MiB")
    try:
        return reader.parse(data, rel, context)
    except ParseError:
        raise
    except RecursionError as exc:
        raise ParseError(rel, None, "nesting the reader can follow",
                         found="nesting too deep (RecursionError)") from exc
    except MemoryError as exc:
        raise ParseError(rel, None, "a file that fits in memory", found="MemoryError") from exc
    except (ValueError, OverflowError, ArithmeticError) as exc:  # e.g. > 4300-digit integers
        raise ParseError(rel, None, "values the reader can convert",
                         found=f"{type(exc).__name__}: {exc}") from exc
    except Exception as exc:  # pyarrow's ArrowMemoryError, ArrowInvalid, …
        if type(exc).__module__.startswith("pyarrow"):
            raise ParseError(rel, None, "a file the reader can parse",
                             found=f"{type(exc).__name__}: {exc}") from exc
        raise


_COUNTER = None  # in a worker process: the read's shared count of files done (progress bar)


def _count_into(counter) -> None:  # a worker's initializer
    global _COUNTER
    _COUNTER = counter


def _read_many(job: _Job, items: list[tuple[str, str, os.stat_result | None]]
               ) -> list[_Outcome]:
    """Read a run of files (in a worker: typed into one block before they are sent back)."""
    out = []
    with _bulk():
        for path, rel, listed in items:
            o = _read_path(path, rel, job, listed)
            out.append(o)
            if _COUNTER is not None and not _deferred(o):
                with _COUNTER.get_lock():
                    _COUNTER.value += 1
        if job.typed:
            _type_block(out, job.series)
    return out


def _type_block(outcomes: list[_Outcome], series: bool) -> None:
    """Type the rows of the files read well in one pass into a :class:`_Block` they share (a
    file whose values the schema cannot type becomes a failure), keeping each file's row
    span and dropping its Python values."""
    good = [o for o in outcomes if o.parsed is not None and o.block is None]
    block = _Block(_typed(good, lambda o: [o.records] if o.records else [],
                          lambda c: results_of(c, validated=True)))
    good = [o for o in good if o.parsed is not None]  # typed: their rows are in the block
    for o, rows in zip(good, _spans([o.records[1] if o.records else 0 for o in good]),
                       strict=True):
        o.block, o.rows, o.records = block, rows, None
    if not series:
        return
    block.series = _typed(good, lambda o: o.series,
                          lambda c: schema.validate_series(series_of(c)))
    good = [o for o in good if o.parsed is not None]
    for o, rows in zip(good, _spans([sum(c[1] for c in o.series) for o in good]), strict=True):
        o.series_rows, o.series = rows, []


def _spans(counts: list[int]) -> list[tuple[int, int]]:
    """``[start, stop)`` of consecutive runs of ``counts`` rows.

    >>> _spans([2, 0, 3])
    [(0, 2), (2, 2), (2, 5)]
    """
    ends = list(itertools.accumulate(counts))
    return [(end - k, end) for k, end in zip(counts, ends, strict=True)]


@contextlib.contextmanager
def _bulk():
    """The cyclic garbage collector paused while a read builds its objects (and restored as
    it was). A read makes millions of acyclic objects (dicts, lists, floats, strings) that
    reference counting frees; each collection would walk all of them again: 6 % of a
    2,000-file fio read."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _progress(total: int, progress: bool | None):
    if progress is None:  # a terminal, or a Jupyter kernel (where tqdm.auto draws a widget)
        progress = total >= 200 and (sys.stderr.isatty() or "ipykernel" in sys.modules)
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="file", desc="ebsstats.read", smoothing=0.1)


# Below this much estimated work (:func:`_work`: small files' fixed costs) forked workers cost
# more than they save: each pays its start and page faults copying what it shares with this
# process, and leaves its typed block to be read back. Measured on 2 idle cores, best of 3, one
# process -> with a worker: 2,000 fio reports (work 2,420) 0.26 -> 0.31 s; 2,925 sysbench
# outputs 0.20 -> 0.22 s; those and 2,866 bonnie++ CSVs (5,900) 0.39 -> 0.42 s; the 14,351-file
# mixed tree (15,700) 3.4 -> 2.8 s.
POOL_MIN_WORK = 8_000
POOL_MAX_FILE_BYTES = 32 * 1024**2  # larger files (long fio logs) are parsed in this process


def _jobs(jobs: int | None, work: float) -> int:
    """Processes that parse: ``jobs`` if given, else up to 4 (the CPUs this process may use)
    for :data:`POOL_MIN_WORK` or more."""
    if jobs is not None:
        return max(1, int(jobs))
    if work < POOL_MIN_WORK:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(4, cpus))


def _run_batch(batch: list[int], files, rels, sizes, stats, job: _Job, jobs: int, outcomes,
               bar):
    def done(idxs, res, counted=False):
        for i, o in zip(idxs, res, strict=True):
            outcomes[i] = o
        if bar is not None and not counted:
            bar.update(sum(not _deferred(o) for o in res))

    if jobs > 1 and len(batch) > 20:
        _run_pool(batch, files, rels, sizes, stats, job, jobs, done, bar)
        return
    for i in batch:  # (done() without a list per file)
        o = outcomes[i] = _read_path(files[i], rels[i], job, stats[i])
        if bar is not None:
            bar.update(int(not _deferred(o)))


def _run_pool(batch: list[int], files, rels, sizes, stats, job: _Job, jobs: int, done,
              bar) -> None:
    """Read ``batch`` in ``jobs`` processes: ``jobs - 1`` workers, each typing its runs of
    files into blocks, and this one, which meanwhile reads the big files and its own share of
    the runs (typed with this process's other files: nothing to send back)."""
    parts = _parts(batch, sizes, jobs)
    theirs = parts[:len(parts) - len(parts) // jobs]
    mine = [i for i in batch if sizes[i] > POOL_MAX_FILE_BYTES]
    mine += [i for part in parts[len(theirs):] for i in part]
    ctx = _pool_context()
    counter = ctx.Value("q", 0)  # files the workers have done (progress bar)
    shown = 0

    def show():
        nonlocal shown
        n = counter.value  # read once: the workers go on counting meanwhile
        if bar is not None and n > shown:
            bar.update(n - shown)
            shown = n

    drop = tempfile.mkdtemp(prefix="ebsstats-read-", dir=_drop_parent())  # (mode 0700)
    try:
        with ProcessPoolExecutor(max_workers=jobs - 1, mp_context=ctx,
                                 initializer=_count_into, initargs=(counter,)) as pool:
            futures = {pool.submit(_read_many_into, job, [(files[i], rels[i], stats[i])
                                                          for i in part], f"{drop}/{k}"): part
                       for k, part in enumerate(theirs)}
            _read_own(mine, files, rels, stats, job, done, show, futures)
    finally:
        shutil.rmtree(drop, ignore_errors=True)


def _read_own(mine: list[int], files, rels, stats, job: _Job, done, show, futures) -> None:
    """This process's share of a pooled read, then the workers' blocks as they come."""
    own = []
    for k, i in enumerate(mine):
        own.append(_read_path(files[i], rels[i], job, stats[i]))
        done([i], own[-1:])
        if k % 64 == 0:
            show()
    if job.typed:  # typed while the workers finish, not after
        _type_block(own, job.series)
    while futures:
        ready, _ = wait(futures, timeout=0.25, return_when=FIRST_COMPLETED)
        for fut in ready:
            done(futures.pop(fut), _received(fut.result()), counted=True)
        show()


def _drop_parent() -> str | None:
    """Where a pooled read's workers leave their blocks: ``/dev/shm`` (memory) where it is a
    writable folder, else the system's temporary folder."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


def _read_many_into(job: _Job, items: list[tuple[str, str, os.stat_result | None]],
                    path: str) -> str | list[_Outcome]:
    """:func:`_read_many` in a worker, its outcomes pickled into the file ``path`` (in the
    read's private temporary folder) and the path returned; the outcomes themselves if the
    file cannot be written (a full ``/dev/shm``: 64 MiB in a default Docker container).

    A block sent back through the pool's pipe (12.6 MB for 500 fio reports) crossed it in
    64 KiB pieces, each taken by the parent's result thread only when it got the GIL from the
    main thread, which was reading its own share: the worker waited on the pipe. A file is
    written at once, and read when the parent is done with its share: a 14,351-file mixed
    folder 4.3 -> 2.4 s on 2 cores (benchmarks/ingest_speed.py)."""
    out = _read_many(job, items)
    try:
        with open(path, "xb") as fh:
            pickle.dump(out, fh, protocol=pickle.HIGHEST_PROTOCOL)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(path)
        return out
    return path


def _received(result: str | list[_Outcome]) -> list[_Outcome]:
    """A worker's outcomes: loaded from the file it wrote (then removed), or as it sent them."""
    if not isinstance(result, str):
        return result
    with open(result, "rb") as fh:
        out = pickle.load(fh)  # (a file this read's own worker wrote in its 0700 folder)
    os.unlink(result)
    return out


def _pool_context():
    """Workers forked on Linux, whatever the default start method (forkserver from Python
    3.14): a forked worker starts at once with this process's imports and its registered
    readers (:func:`ebsstats.io.register`), which a fresh interpreter would not know; elsewhere
    (macOS, Windows) the platform's default."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


POOL_PARTS_PER_JOB = 2  # runs of files per worker: each is typed as one block (a fixed cost)


def _parts(batch: list[int], sizes: list[int], jobs: int) -> list[list[int]]:
    """Runs of consecutive files (in listing order, so that a run's typed rows stay together
    in the frame) of about equal work each, :data:`POOL_PARTS_PER_JOB` per process (fewer
    when there are few files: a block's typing has a fixed cost); big files are left out
    (read in this process, where pyarrow's CSV reader uses threads). A file's work is
    estimated as a fixed cost plus its bytes (:func:`_work`)."""
    remote = sorted(i for i in batch if sizes[i] <= POOL_MAX_FILE_BYTES)
    n_parts = max(1, min(jobs * POOL_PARTS_PER_JOB, len(remote) // 50))
    per_part = sum(_work(sizes[i]) for i in remote) / n_parts
    parts: list[list[int]] = [[]]
    acc = 0.0
    for i in remote:
        if acc >= per_part * len(parts) and len(parts) < n_parts:
            parts.append([])
        parts[-1].append(i)
        acc += _work(sizes[i])
    return [p for p in parts if p]


FILE_WORK_BYTES = 50_000  # a file's fixed cost (~0.1 ms: stat, open, sniff, typing) in bytes


def _work(size: int) -> float:
    """A file's estimated parse work, in units of a small file's fixed cost."""
    return 1.0 + size / FILE_WORK_BYTES


def _deferred(o: _Outcome) -> bool:
    """A file whose reader waits for the final pass (it needs what the other files said)."""
    return o.sniffed is not None and o.parsed is None and o.failure is None


def _ingest(path, *, errors, pattern, meta, progress, jobs, max_bytes, dedupe, series=False,
            files: list[Path] | None = None, typed: bool = True):
    """Read every file under ``path`` (or the given ``files`` under the folder ``path``)."""
    given = files
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"no such file or folder: {path}")
    metamod.check_pattern(pattern)  # before any file is read
    for key, value in (meta or {}).items():
        metamod.check_meta(key, value)
    walk_errors: list[OSError] = []
    links: list[str] = []
    root, files, rels, sizes, stats = _listing(p, path, files, walk_errors, links)
    if not files and not walk_errors and not links:
        return [], root
    if given is None and root is not None:
        sidecar_names: frozenset | None = _sidecar_names(files)
    else:
        sidecar_names = None
    _folder_chain_meta.cache_clear()  # sidecars may have changed since the last read
    _folder_of.cache_clear()  # the working directory may have changed
    counts = collections.Counter(sizes)
    shared = frozenset(size for size, k in counts.items() if k > 1)
    versions: dict[tuple[str, str], str] = {}
    outcomes: list[_Outcome] = [None] * len(files)  # type: ignore[list-item]
    jobs = _jobs(jobs, 0.0 if jobs is not None else sum(map(_work, sizes)))  # (asked: no sum)
    bar = _progress(len(files), progress)
    batch = sorted(range(len(files)), key=rels.__getitem__)
    final = root is None  # one file: nothing else to wait for
    try:
        while batch:
            job = _Job(root, pattern, max_bytes, dict(versions), dedupe, meta, series,
                       final=final, sidecar_names=sidecar_names, shared_sizes=shared,
                       typed=typed, budget=memory_budget())
            _run_batch(batch, files, rels, sizes, stats, job, jobs, outcomes, bar)
            waiting = [] if final else [i for i in batch if _deferred(outcomes[i])]
            if waiting:  # what each folder's reports say, for the readers that wait for it
                _collect_versions(versions, batch, files, outcomes)
            batch, final = waiting, True
    finally:
        if bar is not None:
            bar.close()
    for exc in walk_errors:  # a folder that cannot be listed is never silently left out
        where = display_name(os.path.relpath(exc.filename, p) if exc.filename else str(p))
        outcomes.append(_Outcome(where, failure=IngestFailure(
            where, None, f"{where}: unreadable folder ({exc.strerror})", kind="error")))
    for link in links:  # (in the walk's order: sorted within each folder)
        where = display_name(link)
        outcomes.append(_Outcome(where, failure=IngestFailure(
            where, None, "a link to a folder, not followed (links to folders can make loops): "
            "read its target folder itself", kind="skipped")))
    if dedupe:
        _drop_duplicates(outcomes, files, max_bytes)
    if errors == "raise":
        _raise_failures(outcomes, root, path)
    return outcomes, root


def _collect_versions(versions: dict, batch: list[int], files: list[str],
                      outcomes: list[_Outcome]) -> None:
    """``versions[(folder, tool)]``: the first version a report of that tool in that folder
    printed, and whether every report of it there printed that one."""
    for i in batch:
        o = outcomes[i]
        if o.parsed is not None and o.parsed.version and o.sniffed is not None:
            key = (str(Path(files[i]).parent), o.sniffed.tool)
            had = versions.get(key)
            if had is None:
                versions[key] = (o.parsed.version, True)
            elif had[1] and had[0] != o.parsed.version:
                versions[key] = (had[0], False)


def _sidecar_names(files: list[str]) -> frozenset:
    """The paths (texts) among ``files`` whose names are ``<file>.meta.yaml`` (or ``.yml``):
    none without ``.meta.y`` anywhere in their joined lowercase text (one search, not a look
    at every name: lowercasing goes character by character, so any such name's suffix is in
    it).

    >>> sorted(_sidecar_names(["a/x.json", "a/x.json.META.yaml", "b.meta.yml/y.csv"]))
    ['a/x.json.META.yaml']
    """
    if ".meta.y" not in "\n".join(files).lower():
        return frozenset()
    return frozenset(f for f in files
                     if os.path.basename(f).lower().endswith((".meta.yaml", ".meta.yml")))


def _listing(p: Path, path, files: list | None, walk_errors: list[OSError],
             links: list[str] | None = None):
    """``(root, files, names relative to root, sizes, stats)`` of a read: every file below a
    folder (or the ``files`` given under it), or the one file ``path``, each file as the text
    of its path (``str`` of its :class:`~pathlib.Path`); ``stats``: each file's ``stat`` from
    the folder's listing (``None``: asked when the file is read); ``links`` receives the
    links to folders the walk did not follow (:func:`_walk_text`)."""
    stats: list[os.stat_result | None] = []
    if p.is_dir():
        root = p
        if files is None:
            rels: list[str] = []
            sizes: list[int] = []
            files = _walk_text(p, walk_errors, stats, rels, sizes, links)
            if not _all_printable(rels):
                rels = list(map(display_name, rels))
            return root, files, rels, sizes, stats
        given = [Path(f) for f in files]
        rels = _relative_names(given, p)
        files = list(map(str, given))
        stats = [None] * len(files)
    else:
        root = None
        files, rels, stats = [str(p)], [display_name(str(path))], [None]
    return root, files, rels, list(map(_size_of, files)), stats


def _size_of(path: str) -> int:
    """A file's size (0 where it cannot be known now: the read reports why)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


_EDGE = 256  # bytes at each end of a file that its fingerprint hashes


def _fingerprint(data: bytes) -> bytes:
    """A file's size and the SHA-1 of its first and last :data:`_EDGE` bytes: files with the
    same bytes have the same fingerprint, and files whose fingerprints differ differ. Only
    files whose fingerprints meet are hashed whole (:func:`_whole_digest`): the SHA-1 of every
    file of a shared size cost 4.7 ms of a 2,000-file fio read (1,046 files), the fingerprint
    0.95 ms.

    >>> _fingerprint(b"x" * 600) == _fingerprint(b"x" * 600), _fingerprint(b"ab") == _fingerprint(b"ba")
    (True, False)
    """
    h = hashlib.sha1(data[:_EDGE], usedforsecurity=False)
    h.update(data[-_EDGE:])
    return len(data).to_bytes(8, "little") + h.digest()


def _whole_digest(path: str, fingerprint: bytes, max_bytes: int) -> bytes | None:
    """The SHA-1 of the bytes a file was parsed from (read again by :func:`_file_bytes`), or
    ``None`` when it cannot be read again or no longer has the ``fingerprint`` it was parsed
    with (changed meanwhile: never called a duplicate)."""
    try:
        data = _file_bytes(path, max_bytes, path)
    except ParseError:
        return None
    if _fingerprint(data) != fingerprint:
        return None
    return hashlib.sha1(data, usedforsecurity=False).digest()


def _drop_duplicates(outcomes: list[_Outcome], files: list[str], max_bytes: int) -> None:
    """Files with the same bytes as an earlier one (by SHA-1) become ``duplicate`` failures.
    ``files``: the path of each outcome (where fingerprints meet, the files are read again and
    hashed whole); outcomes beyond them (unlisted folders) have no fingerprint."""
    met = collections.Counter(o.digest for o in outcomes
                              if o.digest is not None and o.parsed is not None)
    seen: dict[bytes, str] = {}
    for i, o in enumerate(outcomes):
        if o.digest is None or o.parsed is None:
            continue
        key = o.digest
        if met[key] > 1:  # (a SHA-1 is 20 bytes, a fingerprint 28: never mistaken)
            key = _whole_digest(files[i], key, max_bytes)
            if key is None:
                continue
        if key in seen:
            o.parsed, o.records, o.series, o.block = None, None, [], None
            o.failure = IngestFailure(o.rel, None, f"duplicate of {seen[key]} "
                                      "(same bytes; read once)", kind="duplicate")
        else:
            seen[key] = o.rel


def _raise_failures(outcomes: list[_Outcome], root, path) -> None:
    """Raise what a strict read (``errors="raise"``) refuses: one file's ParseError (a part of
    it left out too), else an IngestError listing every file refused or read in part."""
    first = outcomes[0]
    if root is None and first.failure is not None:
        if first.error is not None:
            raise first.error
        raise ParseError(str(path), None, "a benchmark output of fio, bonnie++, sysbench, "
                         "PTS or ioping", found=first.failure.reason)
    if root is None and first.parsed is not None and first.parsed.partial:
        raise first.parsed.partial[0]
    bad = [f for o in outcomes for f in _outcome_failures(o) if f.kind in ("error", "partial")]
    if bad:
        raise IngestError(bad)


def _typed(outcomes: list[_Outcome], chunks_of, build):
    """Type every good file's chunks in one pass; if that fails, find the files whose values
    the schema cannot type, list them as failures, and type the rest."""
    good = [o for o in outcomes if o.parsed is not None]
    try:
        return build([c for o in good for c in chunks_of(o)])
    except SchemaError:
        pass
    for o in good:
        try:
            build(chunks_of(o))
        except SchemaError as exc:
            o.error = ParseError(o.rel, None, "values the tidy schema can type", found=str(exc))
            o.failure = IngestFailure(o.rel, None, str(o.error), kind="error")
            o.parsed, o.records, o.series = None, None, []
    return build([c for o in outcomes if o.parsed is not None for c in chunks_of(o)])


def _assemble(outcomes: list[_Outcome], series: bool):
    """The results frame (and the series frame) of a read: the files not yet typed (read in
    this process) typed in one pass, then every block's rows in the files' order. Validated
    (in the blocks), so that no caller (ingest) ever gets or writes a frame validate() rejects;
    a file whose rows break the contract is listed and the others kept."""
    _type_block([o for o in outcomes if o.block is None], series)
    df = _stitch(outcomes, "rows", False)
    return (df, _stitch(outcomes, "series_rows", True)) if series else df


def _stitch(outcomes: list[_Outcome], span: str, series: bool) -> pd.DataFrame:
    """The rows of every file still kept, in the files' order, from the blocks they were
    typed in: one block whole as it is (a read in one process), else its runs of rows
    concatenated (categories unioned, unused ones dropped: a dropped duplicate's)."""
    runs: list[list] = []  # [frame, start, stop]
    blocks = {}
    for o in outcomes:
        rows = getattr(o, span)
        if o.block is None or rows is None:
            continue
        frame = o.block.series if series else o.block.frame
        blocks[id(frame)] = frame
        if rows[0] == rows[1]:
            continue
        if runs and runs[-1][0] is frame and runs[-1][2] == rows[0]:
            runs[-1][2] = rows[1]
        else:
            runs.append([frame, *rows])
    if len(runs) == 1 and runs[0][1] == 0 and runs[0][2] == len(runs[0][0]):
        return runs[0][0]
    if not runs:
        whole = list(blocks.values())
        if len(whole) == 1 and not len(whole[0]):
            return whole[0]  # as typing no rows gives it
        return schema.empty_series() if series else schema.empty()
    parts = [f.iloc[a:b] for f, a, b in runs]
    out = concat(parts, series=series)
    for name, col in out.items():
        if isinstance(col.dtype, pd.CategoricalDtype):
            out[name] = col.cat.remove_unused_categories()
    return out


def failures_frame(outcomes: list[_Outcome], include_companions: bool = False) -> pd.DataFrame:
    """The failures of a read as a frame (source, kind, tool, format, position, reason)."""
    return _failures_of(_failure_rows(outcomes, include_companions))


def _failure_rows(outcomes: list[_Outcome], include_companions: bool = False) -> list[dict]:
    """The rows of :func:`failures_frame`."""
    rows = []
    for o in outcomes:
        for f in _outcome_failures(o):
            if f.kind == "companion" and not include_companions:
                continue
            rows.append({"source": f.source, "kind": f.kind,
                         "tool": o.sniffed.tool if o.sniffed else None,
                         "format": o.sniffed.format if o.sniffed else None,
                         "position": f.position, "reason": f.reason})
    return rows


def _outcome_failures(o: _Outcome) -> list[IngestFailure]:
    """What one file's outcome says went wrong: its failure (or, read without results, why:
    kind ``"empty"``), then the parts of it left out (:func:`_partial_failures`), then what
    its reader noted (:func:`_note_failures`)."""
    first = o.failure
    if first is None and o.parsed is not None and o.why_empty:  # read, but nothing in it
        first = IngestFailure(o.rel, None, o.why_empty, kind="empty")
    return (([first] if first is not None else []) + _partial_failures(o)
            + _note_failures(o))


def _note_failures(o: _Outcome) -> list[IngestFailure]:
    """The notes of a file read (``Parsed.notes``: the tool's own warnings, a value the reader
    could not take as printed and what it did instead, a test it had to guess), each of kind
    ``"note"``: the file's rows are in the frame, these say what to know of them. At most
    :data:`NOTES_SHOWN` a file, then one that counts the others (a file of thousands of
    repeated warnings is not thousands of rows)."""
    notes = o.parsed.notes if o.parsed is not None else None
    if not notes:
        return []
    shown = [IngestFailure(o.rel, *_note_position(str(n)), kind="note")
             for n in notes[:NOTES_SHOWN]]
    if len(notes) > NOTES_SHOWN:
        shown.append(IngestFailure(o.rel, None, f"... and {len(notes) - NOTES_SHOWN} more "
                                   f"note(s) ({len(notes)} in all)", kind="note"))
    return shown


NOTES_SHOWN = 20


def _note_position(note: str) -> tuple[str | None, str]:
    """A note as ``(position, reason)``: a leading line (``"line 12: WARNING: ..."``, as the
    text readers write them) or XML element (PTS's ``"/PhoronixTestSuite/Result[1]/...:
    empty entry skipped"``) goes to the position, as for the other failures; else none.

    >>> _note_position("line 2: WARNING: --num-threads is deprecated")
    ('line 2', 'WARNING: --num-threads is deprecated')
    >>> _note_position("fio: io_u error")
    (None, 'fio: io_u error')
    """
    m = _NOTE_AT.match(note)
    return (m.group(1), m.group(2)) if m else (None, note)


_NOTE_AT = re.compile(r"(line \d+|/[A-Za-z][\w\[\]/.-]*): (\S.*)", re.S)


def _partial_failures(o: _Outcome) -> list[IngestFailure]:
    """The parts of a file read whose reader left them out (``Parsed.partial``: an interrupted
    run among those appended to one file), each a failure of kind ``"partial"``: the file's
    other rows are in the frame."""
    if o.parsed is None or not o.parsed.partial:
        return []
    return [IngestFailure(o.rel, e.position, str(e), kind="partial") for e in o.parsed.partial]


def _failures_of(rows: list[dict]) -> pd.DataFrame:
    if not rows:  # the usual case: a copy of one empty frame (building it cost 0.3 ms a read)
        return _no_failures().copy(deep=False)
    return pd.DataFrame(rows, columns=FAILURE_COLUMNS).astype("string")


@functools.cache
def _no_failures() -> pd.DataFrame:
    return pd.DataFrame({c: pd.array([], dtype="string") for c in FAILURE_COLUMNS},
                        index=pd.RangeIndex(0))


def read(path: str | os.PathLike, *, errors: str | None = None, pattern: str | None = None,
         meta: Mapping | None = None, series: bool = False, progress: bool | None = None,
         jobs: int | None = None, max_bytes: int | None = None, dedupe: bool = True,
         with_failures: bool = False, full: bool = False, **meta_kwargs):
    """Read every benchmark output under ``path`` (a folder, recursively, or one file).

    Parameters
    ----------
    path : str or path-like
        A folder or a single file. Each file's tool and format are sniffed from its content.
    errors : {"collect", "raise"}, optional
        ``"collect"`` (default for folders) reads every good file and lists every bad one;
        ``"raise"`` (default for one file) raises :class:`~ebsstats.ParseError` (one file) or
        :class:`~ebsstats.IngestError` listing every failure (folder).
    pattern : str, optional
        Path pattern giving metadata, e.g. ``"{config}/{volume}/run-{repetition}.json"``. A
        :class:`~ebsstats.io.meta.PatternWarning` (once each) says when it matched only some
        of the files read with results, names a placeholder that is no column of the schema,
        or has no placeholder (:func:`ebsstats.io.meta.pattern_notes`).
    meta : mapping, optional
        Metadata set on every row, overriding everything else, e.g. ``meta={"config": "gp3"}``
        (keyword arguments such as ``config="gp3"`` still work but are deprecated: a typo
        became a column; one that looks like a typo of a parameter, ``serie=True``, now raises
        :class:`TypeError` naming the parameter).
    series : bool
        Also return the time-series frame (fio logs, sysbench ``--report-interval``, …).
    progress : bool, optional
        Show a progress bar (``tqdm.auto``: on stderr, or a widget in Jupyter; default: for 200
        files or more on a terminal or in a notebook).
    jobs : int, optional
        Processes that parse: this one and ``jobs - 1`` workers, each typing its share of the
        files into a block of typed columns (1 = this process only). Default: up to 4 (the
        CPUs this process may use) when the folder holds about 8,000 small files' work or more
        (files, plus bytes / 50 kB), else 1. Files over 32 MiB (long fio logs) are parsed in
        this process, where pyarrow's CSV reader uses threads.
    max_bytes : int, optional
        Refuse files larger than this (default 512 MiB in folders, 2 GiB for one file).
    dedupe : bool
        Files with identical bytes are read once; the copies are listed as duplicates.
    with_failures : bool
        Deprecated: use ``full=True``. Returns ``(frame, failures)`` (``(frame, series,
        failures)`` with ``series=True``).
    full : bool
        Return a :class:`ReadResult` ``(frame, series, failures)``: one type whatever else is
        asked (``series`` is ``None`` unless ``series=True``). Without it, ``series=True``
        still returns the pair ``(frame, series)``, with a :class:`DeprecationWarning`.

    Returns
    -------
    pandas.DataFrame or ReadResult
        The tidy results frame (:mod:`ebsstats.schema`), or with ``full=True`` the
        :class:`ReadResult`. The failures are also in ``frame.attrs["failures"]`` (a list of
        dicts) and, for folders, announced with a warning.

    Examples
    --------
    >>> import ebsstats as es
    >>> df = es.read("tests/fixtures/fio/small_json.json")    # doctest: +SKIP
    >>> df = es.read("data/campaign", pattern="{config}/**/*")  # doctest: +SKIP
    """
    if meta_kwargs:  # a typo (serie=True) silently became a column: metadata goes in meta=
        metamod.check_meta_kwargs("read", meta_kwargs, [
            n for n, p in inspect.signature(read).parameters.items() if p.kind is p.KEYWORD_ONLY])
        warnings.warn(f"es.read(..., {', '.join(f'{k}=' for k in meta_kwargs)}) as metadata is "
                      f"deprecated; pass meta={{{', '.join(repr(k) + ': ...' for k in meta_kwargs)}}}",
                      DeprecationWarning, stacklevel=2)
    meta = {**(meta or {}), **meta_kwargs} or None
    is_dir = Path(path).is_dir()
    if errors is None:
        errors = "collect" if is_dir else "raise"
    if errors not in ("collect", "raise"):
        raise ValueError("errors must be 'collect' or 'raise'")
    if max_bytes is None:
        max_bytes = FOLDER_MAX_BYTES if is_dir else MAX_BYTES
    with _bulk():
        outcomes, root = _ingest(path, errors=errors, pattern=pattern, meta=meta,
                                 progress=progress, jobs=jobs, max_bytes=max_bytes,
                                 dedupe=dedupe, series=series)
        result = _assemble(outcomes, series)
        if errors == "raise":
            _raise_failures(outcomes, root, path)  # files whose values could not be typed
        rows = _failure_rows(outcomes)
        nothing = (_nothing_read(path, outcomes) if is_dir and _no_rows(result, series)
                   else None)  # (said with what each file was taken for)
        pattern_said = _pattern_said(pattern, outcomes)
        # the files' outcomes freed here, by reference counting, while the collector is
        # paused: alive when it resumes, the first collection walked them all (2,000 fio
        # files: ~16,000 objects, 2-4 ms of the read)
        del outcomes
    if nothing:
        warnings.warn(nothing, stacklevel=2)
    for said in pattern_said:
        warnings.warn(said, metamod.PatternWarning, stacklevel=2)
    df = result[0] if series else result
    if not rows and not (full or with_failures):  # no failures, and no frame of them asked for
        df.attrs["failures"] = []
        return _shaped(result, None, df, full=full, series=series, with_failures=with_failures)
    fails = _failures_of(rows)
    df.attrs["failures"] = (fails.astype(object).where(fails.notna(), None).to_dict("records")
                            if len(fails) else [])
    for said in _failure_warnings(fails, is_dir):
        warnings.warn(said, stacklevel=2)
    return _shaped(result, fails, df, full=full, series=series, with_failures=with_failures)


def _pattern_said(pattern: str | None, outcomes: list[_Outcome]) -> list[str]:
    """:func:`ebsstats.io.meta.pattern_notes` of a read: how many of the files it read with
    results ``pattern`` matched, counted as each file was read (no second pass)."""
    if not pattern:
        return []
    hits = [o.pattern_hit for o in outcomes if o.parsed is not None and o.nrows]
    return metamod.pattern_notes(pattern, sum(hits), len(hits))


def _no_rows(result, series: bool) -> bool:
    """Whether a read's results frame is empty (and its series frame, when it was asked)."""
    if series:
        return not len(result[0]) and not len(result[1])
    return not len(result)


def _failure_warnings(fails: pd.DataFrame, is_dir: bool) -> list[str]:
    """What a read says of its failures: a file that gave no results (one file); how many
    files were refused or read in part (a folder)."""
    if not len(fails):
        return []
    if not is_dir:
        if fails["kind"].iloc[0] == "empty":
            return [f"ebsstats.read: {fails['source'].iloc[0]} gave no results: "
                    f"{fails['reason'].iloc[0]}"]
        return []
    n_bad = int((fails["kind"] == "error").sum())
    n_part = fails.loc[fails["kind"] == "partial", "source"].nunique()
    said = [f"{n_bad} file(s) could not be read"] if n_bad else []
    said += [f"{n_part} file(s) were read in part (a run left out)"] if n_part else []
    if not said:
        return []
    return [f"ebsstats.read: {'; '.join(said)}; see frame.attrs['failures'] or full=True"]


def _nothing_read(path, outcomes: list[_Outcome]) -> str:
    """Why a folder read gave no results: how many files it listed, and what it took each for
    (a folder of notes, ``*.md`` among them, holds only companion files: they are never read).

    >>> said = _nothing_read("d", [_Outcome("a.md", failure=IngestFailure("a.md", None, "",
    ...                                                                    "companion"))])
    >>> said[:59], said[-23:]
    ('ebsstats.read: no results under d: 1 file(s) listed, 1 set ', "see ebsstats.check('d')")
    """
    kinds = collections.Counter(o.failure.kind if o.failure else "read" for o in outcomes)
    said = {"read": "read without results", "skipped": "not benchmark outputs",
            "error": "refused", "duplicate": "duplicates",
            "companion": "set aside as companions (notes, job files, sidecars: README, *.md, "
                         "*.fio, *.meta.yaml; rename an output among them to read it)"}
    parts = [f"{n} {said.get(k, k)}" for k, n in kinds.items()]
    listed = f"{len(outcomes)} file(s) listed" + (", " if parts else "")
    return (f"ebsstats.read: no results under {path}: {listed}{', '.join(parts)}; see "
            f"ebsstats.check({str(path)!r})")


def _shaped(result, fails: pd.DataFrame | None, df: pd.DataFrame, *, full: bool, series: bool,
            with_failures: bool):
    """What :func:`read` returns for its options (the old tuple shapes warn; ``fails`` is
    only looked at with ``full`` or ``with_failures``)."""
    if full:
        return ReadResult(df, result[1] if series else None, fails)
    if with_failures or series:
        warnings.warn("ebsstats.read: series=True / with_failures=True without full=True "
                      "return tuples that change with the options; use full=True, which "
                      "returns ReadResult(frame, series, failures)", DeprecationWarning,
                      stacklevel=3)
    if with_failures:
        return (*result, fails) if series else (result, fails)
    return result


def read_series(path: str | os.PathLike, **kwargs) -> pd.DataFrame:
    """The time-series frame of every output under ``path`` (fio logs, fio ``--status-interval``
    snapshots, sysbench ``--report-interval`` lines, PTS per-run values in order).

    Same options as :func:`read`. See :data:`ebsstats.schema.SERIES_COLUMNS`.

    Examples
    --------
    >>> import ebsstats as es, pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "randread_iops.1.log").write_text("1000, 3010, 0, 4096\\n2000, 2990, 0, 4096\\n")
    >>> es.read_series(d)[["t", "op", "metric", "value"]].values.tolist()
    [[1.0, 'read', 'ios', 3010.0], [2.0, 'read', 'ios', 2990.0]]
    """
    kwargs.pop("series", None)
    kwargs.pop("full", None)
    with_failures = kwargs.pop("with_failures", False)
    out = read(path, series=True, full=True, **kwargs)
    if with_failures:
        return out.series, out.failures
    return out.series


#: What :func:`check` calls a file of each kind of failure (a file without one: ``read``; a
#: file read with notes only, or without results, is read too).
ACTIONS = {"error": "refuse", "skipped": "skip", "duplicate": "duplicate",
           "companion": "companion", "partial": "read in part"}


def check(path: str | os.PathLike, *, max_bytes: int | None = None) -> pd.DataFrame:
    """What :func:`read` would do with each file under ``path``, without building a frame.

    Returns one row per file: ``source``, ``action`` (``read``, ``read in part``, ``skip``,
    ``refuse``, ``duplicate``, ``companion``), ``tool``, ``format``, ``version``, ``rows``
    (results it would give), ``position``, ``reason`` (of a file read in part: the first
    part left out, an interrupted run among several) and ``notes`` (what the reader noted of
    a file read, joined by ``" | "``: the tool's warnings, values not taken as printed;
    ``read(..., full=True).failures`` lists them one by one, kind ``"note"``).

    Examples
    --------
    >>> import ebsstats as es, pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "randread_iops.1.log").write_text("1000, 3010, 0, 4096\\n2000, 2990, 0, 4096\\n")
    >>> es.check(d)[["action", "tool", "format"]].values.tolist()
    [['read', 'fio', 'iops']]
    """
    p = Path(path)
    max_bytes = max_bytes or (FOLDER_MAX_BYTES if p.is_dir() else MAX_BYTES)
    outcomes, _ = _ingest(path, errors="collect", pattern=None, meta=None, progress=False,
                          jobs=None, max_bytes=max_bytes, dedupe=True, typed=False)
    rows = []
    for o in outcomes:
        f = o.failure or next(iter(_partial_failures(o)), None)  # (read in part: the first)
        rows.append({
            "source": o.rel,
            "action": ACTIONS[f.kind] if f else "read",
            "tool": o.sniffed.tool if o.sniffed else None,
            "format": o.sniffed.format if o.sniffed else None,
            "version": o.parsed.version if o.parsed else None,
            "rows": o.nrows if o.parsed else 0,
            "position": f.position if f else None,
            "reason": f.reason if f else o.why_empty,
            "notes": " | ".join(f"{n.position}: {n.reason}" if n.position else n.reason
                                for n in _note_failures(o)) or None,
        })
    return pd.DataFrame(rows, columns=["source", "action", "tool", "format", "version", "rows",
                                       "position", "reason", "notes"])
