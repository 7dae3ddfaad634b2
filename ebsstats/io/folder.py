"""Folder ingest: every benchmark output under a path into one tidy frame.

:func:`read` walks a folder (or takes one file), sniffs each file's tool by content, parses it with
that tool's reader, applies metadata (arguments > sidecar YAML > path pattern > the file itself),
and concatenates. A folder read keeps every good file and lists every bad one; it never modifies
an input.

What a folder may hold besides outputs: files that are not regular (FIFOs, sockets, devices) are
skipped without being opened (a FIFO would block a read forever); broken or looping symbolic links
and unreadable files or sub-folders are listed as errors; links to folders are not followed (no
loops); the same bytes under two names are read once. A file name that is not valid UTF-8 is
shown with its undecodable bytes as ``\\xNN`` escapes (``source`` stays printable text; see
:func:`display_name`).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import stat
import sys
import warnings
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ebsstats import schema
from ebsstats.atomic import atomic_file
from ebsstats.errors import IngestError, IngestFailure, ParseError, SchemaError
from ebsstats.io import meta as metamod
from ebsstats.io._common import (
    MAX_BYTES,
    UTF16_BOMS,
    Chunk,
    Parsed,
    decode,
    load_bytes,
    record_chunk,
    results_of,
    series_chunk,
    series_of,
)
from ebsstats.io.parquet import read_parquet, to_parquet
from ebsstats.io.sniff import Sniffed, is_companion, sniff_text

__all__ = ["read", "read_series", "check", "failures_frame", "display_name"]

FOLDER_MAX_BYTES = 512 * 1024**2
FAILURE_COLUMNS = ["source", "kind", "tool", "format", "position", "reason"]


@dataclass
class _Outcome:
    rel: str
    sniffed: Sniffed | None = None
    parsed: Parsed | None = None  # records and series moved to the chunks below
    failure: IngestFailure | None = None
    meta: dict = field(default_factory=dict)
    digest: str | None = None
    error: ParseError | None = None
    records: Chunk | None = None  # the file's records as compact columns, metadata applied
    series: list[Chunk] = field(default_factory=list)
    nrows: int = 0


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


def _walk(root: Path, errors: list[OSError] | None = None) -> list[Path]:
    """Every file below root, sorted; directory symlinks are not followed (no loops). Folders
    that cannot be listed are appended to ``errors``."""
    files: list[Path] = []
    seen_real: dict[str, int] = {}
    onerror = errors.append if errors is not None else None
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False, onerror=onerror):
        dirnames.sort()
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            p = Path(dirpath, name)
            try:
                real = os.path.realpath(p)
            except OSError:
                real = str(p)
            if real in seen_real:  # the same file twice: keep its real name over a link
                k = seen_real[real]
                if os.path.islink(files[k]) and not os.path.islink(p):
                    files[k] = p
                continue
            seen_real[real] = len(files)
            files.append(p)
    return files


def _parse_options(sniffed: Sniffed, path: Path, fio_versions: Mapping[str, str],
                   root: Path | None = None) -> dict:
    """Options a reader needs from outside the file: for a fio log, the run's JSON report beside
    it gives the fio version, the job's log options and the job's ``run_id`` (computed from the
    report's source name as this read names it, so series and results rows share run ids)."""
    if sniffed.module != "ebsstats.io.fio_log":
        return {}
    from ebsstats.io.fio_log import _flag, _int, find_run

    run = find_run(path)
    if run is None:
        version = fio_versions.get(str(path.parent))
        return {"fio_version": version} if version else {}
    opts = run.get("options") or {}
    out = {"fio_version": run.get("version") or fio_versions.get(str(path.parent)),
           "log_offset": _flag(opts.get("log_offset")),
           "log_avg_msec": _int(opts.get("log_avg_msec")),
           "log_max_value": opts.get("log_max_value", "0"), "test": run.get("test")}
    if run.get("run_key"):
        report = Path(run["report"])
        source = str(report)
        if root is not None:
            try:
                source = report.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                pass
        out["run_id"] = schema.run_id(source, run["run_key"])
    return {k: v for k, v in out.items() if v is not None}


@dataclass(frozen=True)
class _Job:
    """What every file of one read shares (sent once per batch of files to a worker)."""

    root: Path | None
    pattern: str | None
    max_bytes: int
    fio_versions: Mapping[str, str]
    want_digest: bool
    meta: Mapping | None
    series: bool


def _read_path(path: Path, rel: str, job: _Job) -> _Outcome:
    out = _Outcome(rel)
    try:
        st = os.stat(path)  # follows links: what would be read
    except OSError as exc:
        what = "broken or looping symbolic link" if os.path.islink(path) else "unreadable file"
        out.failure = IngestFailure(rel, None, f"{rel}: {what} ({exc.strerror})", kind="error")
        return out
    if not stat.S_ISREG(st.st_mode):  # never open a FIFO, socket or device: it may block
        kind = ("FIFO" if stat.S_ISFIFO(st.st_mode) else "socket" if stat.S_ISSOCK(st.st_mode)
                else "device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "special file")
        out.failure = IngestFailure(rel, None, f"not a regular file ({kind})", kind="skipped")
        return out
    if is_companion(path):
        out.failure = IngestFailure(rel, None, "companion file (sidecar, job file, notes)",
                                    kind="companion")
        return out
    try:
        data = load_bytes(path, job.max_bytes)
        if job.want_digest:
            out.digest = hashlib.sha1(data, usedforsecurity=False).hexdigest()
        if data[:2] in UTF16_BOMS:  # UTF-16 text (PowerShell's > redirection): as UTF-8
            data = decode(data, rel).encode("utf-8")
        if not data.strip():
            out.failure = IngestFailure(rel, None, "empty file", kind="skipped")
            return out
        head = data[:65536]
        if b"\x00" in head[:4096]:
            out.failure = IngestFailure(rel, None, "binary file, not a benchmark output",
                                        kind="skipped")
            return out
        sniffed = sniff_text(head.decode("utf-8", errors="replace"), path.name)
        out.sniffed = sniffed
        if sniffed is None:
            out.failure = IngestFailure(rel, None, "not a recognised benchmark output",
                                        kind="skipped")
            return out
        module = importlib.import_module(sniffed.module)
        options = _parse_options(sniffed, path, job.fio_versions, job.root)
        parsed = _guarded_parse(module, data, rel, options)
        del data
        out.meta = _file_meta(path, rel, job)
    except ParseError as exc:
        out.failure = IngestFailure(rel, exc.position, str(exc), kind="error")
        out.error = exc
        return out
    # columns, not dicts: compact to send back from a worker, and typed once for all files
    merged = {**out.meta, **(job.meta or {})} or None
    out.nrows = len(parsed.records)
    out.records = record_chunk(parsed.records, merged)
    if job.series:
        rows = any(len(ts) for ts in parsed.series)
        out.series = [series_chunk(ts, merged if rows else None) for ts in parsed.series]
    parsed.records, parsed.series = [], []
    out.parsed = parsed
    return out


def _file_meta(path: Path, rel: str, job: _Job) -> dict:
    """Pattern and sidecar metadata of one file; a bad sidecar fails this file, naming both."""
    layers = [metamod.pattern_meta(rel, job.pattern)]
    if job.root is not None:
        try:
            layers.append(metamod.sidecar_meta(path, job.root))
        except ParseError as exc:
            where = f"sidecar {exc.source}" + (f", {exc.position}" if exc.position else "")
            raise ParseError(rel, where, exc.expected, found=exc.found) from exc
    return {k: v for layer in layers for k, v in layer.items()}


# --- hostile input: one guard around every reader ------------------------------------------
MEMORY_BUDGET_ENV = "EBSSTATS_MEMORY_BUDGET"
MEMORY_BUDGET = 4 * 1024**3  # bytes one file's parse may need (estimate: size × reader factor)
DEFAULT_MEMORY_FACTOR = 60


def memory_budget() -> int:
    """Bytes one file's parse may use: ``$EBSSTATS_MEMORY_BUDGET`` (bytes), else half of the
    machine's memory (at least 1 GiB; 4 GiB where it cannot be known)."""
    try:
        return int(os.environ[MEMORY_BUDGET_ENV])
    except (KeyError, ValueError):
        pass
    try:
        return max(1024**3, os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2)
    except (ValueError, OSError, AttributeError):
        return MEMORY_BUDGET


def _guarded_parse(module, data: bytes, rel: str, options: dict) -> Parsed:
    """Parse one file with its reader, refusing before the parse a file whose estimated peak
    memory (size × the reader's ``MEMORY_FACTOR``, measured by benchmarks/reader_memory.py)
    exceeds :func:`memory_budget`; deep nesting, integers too long to convert, memory exhaustion
    and arithmetic overflow become a ParseError for this file, never the folder's end."""
    factor = getattr(module, "MEMORY_FACTOR", DEFAULT_MEMORY_FACTOR)
    need, budget = len(data) * factor, memory_budget()
    if need > budget:
        raise ParseError(rel, None, f"a file this reader can parse within the memory budget "
                         f"({budget / 1024**2:,.0f} MiB; ${MEMORY_BUDGET_ENV} raises it)",
                         found=f"{len(data) / 1024**2:,.1f} MiB, needing about "
                         f"{need / 1024**2:,.0f} MiB")
    try:
        if module.__name__ == "ebsstats.io.fio_log":
            # logs go to pyarrow's CSV reader as bytes: no decode + re-encode of a large file
            if b"\x00" in data:
                decode(data, rel)  # raises, naming the line of the NUL byte
            return module._parse_bytes(data, rel, **options)
        text = decode(data, rel)
        return module.parse(text, rel, **options)
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


def _read_many(job: _Job, items: list[tuple[Path, str]]) -> list[_Outcome]:
    return [_read_path(path, rel, job) for path, rel in items]


def _progress(total: int, progress: bool | None):
    if progress is None:
        progress = total >= 200 and sys.stderr.isatty()
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="file", desc="ebsstats.read", smoothing=0.1)


POOL_MIN_FILES = 400  # below this a process pool costs more than it saves (benchmarks/)
POOL_MAX_FILE_BYTES = 32 * 1024**2  # larger files (long fio logs) are parsed in this process


def _jobs(jobs: int | None, n_files: int) -> int:
    """Worker processes: ``jobs`` if given, else up to 4 (the CPUs this process may use) for
    :data:`POOL_MIN_FILES` files or more."""
    if jobs is not None:
        return max(1, int(jobs))
    if n_files < POOL_MIN_FILES:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(4, cpus))


def _run_batch(batch: list[int], files, rels, sizes, job: _Job, jobs: int, outcomes, bar):
    def done(idxs, res):
        for i, o in zip(idxs, res, strict=True):
            outcomes[i] = o
        if bar is not None:
            bar.update(len(idxs))

    local = batch
    if jobs > 1 and len(batch) > 20:
        local = [i for i in batch if sizes[i] > POOL_MAX_FILE_BYTES]
        remote = [i for i in batch if sizes[i] <= POOL_MAX_FILE_BYTES]
        size = max(4, min(64, len(remote) // (jobs * 8) or 1))
        parts = [remote[k:k + size] for k in range(0, len(remote), size)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(_read_many, job, [(files[i], rels[i]) for i in part]): part
                       for part in parts}
            for i in local:  # big files meanwhile, here
                done([i], [_read_path(files[i], rels[i], job)])
            for fut in as_completed(futures):
                done(futures[fut], fut.result())
        return
    for i in local:
        done([i], [_read_path(files[i], rels[i], job)])


def _ingest(path, *, errors, pattern, meta, progress, jobs, max_bytes, dedupe, series=False,
            files: list[Path] | None = None):
    """Read every file under ``path`` (or the given ``files`` under the folder ``path``)."""
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"no such file or folder: {path}")
    metamod.check_pattern(pattern)  # before any file is read
    for key, value in (meta or {}).items():
        metamod.check_meta(key, value)
    walk_errors: list[OSError] = []
    if p.is_dir():
        root = p
        files = _walk(p, walk_errors) if files is None else [Path(f) for f in files]
        rels = [display_name(f.relative_to(p).as_posix()) for f in files]
    else:
        root = None
        files, rels = [p], [display_name(str(path))]
    if not files and not walk_errors:
        return [], root
    sizes = []
    for f in files:
        try:
            sizes.append(f.stat().st_size)
        except OSError:
            sizes.append(0)
    # fio JSON first, so that logs beside it can take its version
    order = sorted(range(len(files)), key=lambda i: ("_" in files[i].name and
                                                      files[i].suffix == ".log", rels[i]))
    fio_versions: dict[str, str] = {}
    outcomes: list[_Outcome] = [None] * len(files)  # type: ignore[list-item]
    jobs = _jobs(jobs, len(files))
    bar = _progress(len(files), progress)
    first_pass = [i for i in order if not files[i].name.endswith(".log")]
    second_pass = [i for i in order if files[i].name.endswith(".log")]
    try:
        for batch in (first_pass, second_pass):
            job = _Job(root, pattern, max_bytes, dict(fio_versions), dedupe, meta, series)
            _run_batch(batch, files, rels, sizes, job, jobs, outcomes, bar)
            for i in batch:
                o = outcomes[i]
                if o.parsed is not None and o.sniffed and o.sniffed.module == "ebsstats.io.fio" \
                        and o.parsed.version:
                    fio_versions.setdefault(str(files[i].parent), o.parsed.version)
    finally:
        if bar is not None:
            bar.close()
    for exc in walk_errors:  # a folder that cannot be listed is never silently left out
        where = display_name(os.path.relpath(exc.filename, p) if exc.filename else str(p))
        outcomes.append(_Outcome(where, failure=IngestFailure(
            where, None, f"{where}: unreadable folder ({exc.strerror})", kind="error")))
    if dedupe:
        seen: dict[str, str] = {}
        for o in outcomes:
            if o.digest is None or o.parsed is None:
                continue
            if o.digest in seen:
                o.parsed, o.records, o.series = None, None, []
                o.failure = IngestFailure(o.rel, None, f"duplicate of {seen[o.digest]} "
                                          "(same bytes; read once)", kind="duplicate")
            else:
                seen[o.digest] = o.rel
    if errors == "raise":
        _raise_failures(outcomes, root, path)
    return outcomes, root


def _raise_failures(outcomes: list[_Outcome], root, path) -> None:
    if root is None and outcomes[0].failure is not None:
        first = outcomes[0]
        if first.error is not None:
            raise first.error
        raise ParseError(str(path), None, "a benchmark output of fio, bonnie++, sysbench, "
                         "PTS or ioping", found=first.failure.reason)
    bad = [o.failure for o in outcomes if o.failure and o.failure.kind == "error"]
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
    # validated here, so that no caller (ingest) ever gets or writes a frame validate() rejects;
    # a file whose rows break the contract is listed and the others kept
    df = _typed(outcomes, lambda o: [o.records] if o.records else [],
                lambda c: schema.validate(results_of(c)))
    if not series:
        return df
    ts = _typed(outcomes, lambda o: o.series, lambda c: schema.validate_series(series_of(c)))
    return df, ts


def failures_frame(outcomes: list[_Outcome], include_companions: bool = False) -> pd.DataFrame:
    """The failures of a read as a frame (source, kind, tool, format, position, reason)."""
    rows = []
    for o in outcomes:
        f = o.failure
        if f is None or (f.kind == "companion" and not include_companions):
            continue
        rows.append({"source": f.source, "kind": f.kind,
                     "tool": o.sniffed.tool if o.sniffed else None,
                     "format": o.sniffed.format if o.sniffed else None,
                     "position": f.position, "reason": f.reason})
    return pd.DataFrame(rows, columns=FAILURE_COLUMNS).astype("string")


def read(path: str | os.PathLike, *, errors: str | None = None, pattern: str | None = None,
         meta: Mapping | None = None, series: bool = False, progress: bool | None = None,
         jobs: int | None = None, max_bytes: int | None = None, dedupe: bool = True,
         with_failures: bool = False, **meta_kwargs):
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
        Path pattern giving metadata, e.g. ``"{config}/{volume}/run-{repetition}.json"``.
    meta : mapping, optional
        Metadata set on every row, overriding everything else; keyword arguments such as
        ``config="gp3"`` do the same.
    series : bool
        Also return the time-series frame (fio logs, sysbench ``--report-interval``, …).
    progress : bool, optional
        Show a progress bar (tqdm, on stderr; default: for 200 files or more on a terminal).
    jobs : int, optional
        Worker processes for parsing (1 = in this process). Default: up to 4 (the CPUs this
        process may use) for 400 files or more, else 1. Files over 32 MiB (long fio logs) are
        parsed in this process, where pyarrow's CSV reader uses threads.
    max_bytes : int, optional
        Refuse files larger than this (default 512 MiB in folders, 2 GiB for one file).
    dedupe : bool
        Files with identical bytes are read once; the copies are listed as duplicates.
    with_failures : bool
        Return ``(frame, failures)`` (``(frame, series, failures)`` with ``series=True``) where
        ``failures`` lists every skipped or refused file with the reason.

    Returns
    -------
    pandas.DataFrame
        The tidy results frame (:mod:`ebsstats.schema`); the failures are also in
        ``frame.attrs["failures"]`` (a list of dicts) and, for folders, announced with a warning.

    Examples
    --------
    >>> import ebsstats as es
    >>> df = es.read("tests/fixtures/fio/small_json.json")    # doctest: +SKIP
    >>> df = es.read("data/", pattern="{config}/**/*")          # doctest: +SKIP
    """
    meta = {**(meta or {}), **meta_kwargs} or None
    is_dir = Path(path).is_dir()
    if errors is None:
        errors = "collect" if is_dir else "raise"
    if errors not in ("collect", "raise"):
        raise ValueError("errors must be 'collect' or 'raise'")
    if max_bytes is None:
        max_bytes = FOLDER_MAX_BYTES if is_dir else MAX_BYTES
    cache = (_cache_paths(path, pattern, meta, series, max_bytes, dedupe, errors) if is_dir
             else None)
    if cache is not None and cache[2].exists():
        df = read_parquet(cache[0])
        result = (df, read_parquet(cache[1])) if series else df
        fails = pd.DataFrame(json.loads(cache[2].read_text()), columns=FAILURE_COLUMNS)
        fails = fails.astype("string")
    else:
        outcomes, root = _ingest(path, errors=errors, pattern=pattern, meta=meta,
                                 progress=progress, jobs=jobs, max_bytes=max_bytes,
                                 dedupe=dedupe, series=series)
        result = _assemble(outcomes, series)
        if errors == "raise":
            _raise_failures(outcomes, root, path)  # files whose values could not be typed
        fails = failures_frame(outcomes)
        if cache is not None:
            _write_cache(cache, result, series, fails)
    df = result[0] if series else result
    df.attrs["failures"] = fails.astype(object).where(fails.notna(), None).to_dict("records")
    n_bad = int((fails["kind"] == "error").sum()) if len(fails) else 0
    if is_dir and n_bad:
        warnings.warn(f"ebsstats.read: {n_bad} file(s) could not be read; see "
                      "frame.attrs['failures'] or with_failures=True", stacklevel=2)
    if with_failures:
        return (*result, fails) if series else (result, fails)
    return result


CACHE_ENV = "EBSSTATS_READ_CACHE"


def _cache_paths(path, pattern, meta, series, max_bytes, dedupe, errors
                 ) -> tuple[Path, Path, Path] | None:
    """Cache files for a folder read when ``$EBSSTATS_READ_CACHE`` names a folder.

    The key covers the folder, the read's options and every file's relative name, size and
    modification time, so a changed, added or removed file is a miss. ``ebsstats report`` sets
    the variable for its notebooks, which then parse a corpus once instead of once each.
    """
    where = os.environ.get(CACHE_ENV)
    if not where:
        return None
    root = Path(path).resolve()
    listing = []
    for f in _walk(root):
        try:
            st = f.stat()
        except OSError:
            continue
        listing.append((f.relative_to(root).as_posix(), st.st_size, st.st_mtime_ns))
    key = hashlib.sha1(json.dumps([str(root), pattern, repr(sorted((meta or {}).items())),
                                   series, max_bytes, dedupe, errors, listing]).encode(),
                       usedforsecurity=False).hexdigest()[:20]
    base = Path(where)
    base.mkdir(parents=True, exist_ok=True)
    return (base / f"{key}.results.parquet", base / f"{key}.series.parquet",
            base / f"{key}.failures.json")


def _write_cache(cache, result, series: bool, fails: pd.DataFrame) -> None:
    df = result[0] if series else result
    to_parquet(df, cache[0])
    if series:
        to_parquet(result[1], cache[1])
    records = fails.astype(object).where(fails.notna(), None).to_dict("records")
    with atomic_file(cache[2]) as tmp:  # written last: its presence marks a complete entry
        tmp.write_text(json.dumps(records))


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
    with_failures = kwargs.pop("with_failures", False)
    out = read(path, series=True, with_failures=with_failures, **kwargs)
    if with_failures:
        return out[1], out[2]
    return out[1]


def check(path: str | os.PathLike, *, max_bytes: int | None = None) -> pd.DataFrame:
    """What :func:`read` would do with each file under ``path``, without building a frame.

    Returns one row per file: ``source``, ``action`` (``read``, ``skip``, ``refuse``,
    ``duplicate``, ``companion``), ``tool``, ``format``, ``version``, ``rows`` (results it
    would give), ``position`` and ``reason``.

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
                          jobs=None, max_bytes=max_bytes, dedupe=True)
    action = {"error": "refuse", "skipped": "skip", "duplicate": "duplicate",
              "companion": "companion"}
    rows = []
    for o in outcomes:
        f = o.failure
        rows.append({
            "source": o.rel,
            "action": action[f.kind] if f else "read",
            "tool": o.sniffed.tool if o.sniffed else None,
            "format": o.sniffed.format if o.sniffed else None,
            "version": o.parsed.version if o.parsed else None,
            "rows": o.nrows if o.parsed else 0,
            "position": f.position if f else None,
            "reason": f.reason if f else None,
        })
    return pd.DataFrame(rows, columns=["source", "action", "tool", "format", "version", "rows",
                                       "position", "reason"])
