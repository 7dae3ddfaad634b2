"""Metadata that does not live in the outputs: sidecar YAML files and path patterns.

Precedence (highest first): explicit arguments > ``<file>.meta.yaml`` > ``meta.yaml`` files in the
file's folder and its parents up to the ingest root (deeper wins) > a path pattern the user gives
(e.g. ``"{config}/{volume}/run-{repetition}.json"``) > what the output itself says.

Sidecars are untrusted input, read with limits (:data:`MAX_SIDECAR_BYTES`, :data:`MAX_KEYS`,
:data:`MAX_VALUE_CHARS`, :data:`MAX_NODES` after alias and merge-key expansion, :data:`MAX_DEPTH`):
a YAML mapping of scalar values only. Every YAML or construction error becomes a
:class:`~ebsstats.ParseError` naming the sidecar and its line, which fails the files under it and
nothing else. Metadata never replaces what a file measured or who it is (:data:`PROTECTED`), typed
keys (:data:`TYPED`) must hold valid values, and a sidecar is read only from inside the folder
being read (a link that leaves it is refused).
"""

from __future__ import annotations

import datetime as dt
import math
import os
import re
import stat
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

from ebsstats.errors import ParseError

__all__ = ["sidecar_meta", "folder_sidecar", "file_sidecar", "pattern_meta", "check_pattern",
           "check_meta", "check_meta_kwargs", "check_ingest", "check_apart", "escape_controls",
           "pattern_matches", "unknown_placeholders", "pattern_notes", "PatternWarning",
           "clear_cache", "PROTECTED", "TYPED"]

SIDECAR_NAMES = ("meta.yaml", "meta.yml")
MAX_SIDECAR_BYTES = 1024**2
MAX_KEYS = 1000
MAX_KEY_CHARS = 100
MAX_VALUE_CHARS = 4096
MAX_NODES = 20_000  # YAML nodes after every alias and merge key is expanded
MAX_DEPTH = 32
NAME_MAX = 255

#: Columns a file's own content decides: metadata (sidecar, pattern or argument) never sets them.
PROTECTED = frozenset({"run_id", "source", "position", "tool", "tool_version", "workload", "op",
                       "metric", "value", "unit", "higher_is_better", "flag", "t", "offset"})
#: Typed metadata keys: (kind, smallest allowed value).
TYPED: dict[str, tuple[str, float]] = {
    "size_gib": ("float", 0), "provisioned_iops": ("int", 0), "raid_members": ("int", 1),
    "threads": ("int", 1), "iodepth": ("int", 1), "block_size": ("int", 1),
    "repetition": ("int", 0), "timestamp": ("timestamp", 0),
}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def escape_controls(text: str) -> str:
    """``text`` with control characters (C0, DEL, C1) as ``\\xNN`` escapes: safe to print to a
    terminal and to store.

    >>> escape_controls("run\\x1b[31m.json")
    'run\\\\x1b[31m.json'
    """
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def check_meta(key: str, value):
    """Check one metadata key and value; return the value, or raise ``ValueError`` saying why.

    Keys in :data:`PROTECTED` are refused; keys in :data:`TYPED` must be finite numbers (integers
    for integer columns) at least the smallest allowed value, or a valid timestamp.

    >>> check_meta("raid_members", 4)
    4
    >>> check_meta("value", 12345)
    Traceback (most recent call last):
    ...
    ValueError: metadata may not set 'value' (a column the file itself decides)
    >>> check_meta("size_gib", "-5")
    Traceback (most recent call last):
    ...
    ValueError: metadata 'size_gib' must be a finite number >= 0, not '-5'
    """
    key = str(key)
    if key in PROTECTED:
        raise ValueError(f"metadata may not set {key!r} (a column the file itself decides)")
    if not key or len(key) > MAX_KEY_CHARS or _CONTROL.search(key):
        raise ValueError(f"metadata key {key[:40]!r} is empty, longer than {MAX_KEY_CHARS} "
                         "characters or holds control characters")
    if isinstance(value, str) and len(value) > MAX_VALUE_CHARS:
        raise ValueError(f"metadata {key!r} is longer than {MAX_VALUE_CHARS:,} characters")
    if value is None or key not in TYPED:
        return value
    kind, low = TYPED[key]
    if kind == "timestamp":
        import pandas as pd

        try:
            pd.Timestamp(value)
        except (ValueError, TypeError, OverflowError) as exc:
            raise ValueError(f"metadata 'timestamp' must be a date and time, not {value!r}"
                             ) from exc
        return value
    what = "an integer" if kind == "int" else "a finite number"
    try:
        if isinstance(value, bool):
            raise TypeError
        number = float(value) if not isinstance(value, int) else value
        ok = math.isfinite(number) and number >= low
        if kind == "int" and ok:
            ok = float(number).is_integer()
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise ValueError(f"metadata {key!r} must be {what} >= {low:g}, not {value!r}")
    return value


def check_meta_kwargs(func: str, kwargs: Mapping, params: Iterable[str]) -> None:
    """Refuse keyword arguments of ``func`` that look like mistakes rather than metadata.

    A key that is a likely typo of one of ``params`` (a :mod:`difflib` close match, ratio
    >= 0.8, at most two characters longer or shorter, case ignored: ``serie`` for ``series``)
    or whose value is a mapping (``metadata={...}``) raises :class:`TypeError` naming the
    parameter meant; schema columns (``config``, ``volume_type``, …) are always metadata.

    >>> check_meta_kwargs("read", {"config": "gp3", "raid_set": "md0"}, ["series", "jobs"])
    >>> check_meta_kwargs("read", {"serie": True}, ["series", "jobs"])
    Traceback (most recent call last):
    ...
    TypeError: read() got an unexpected keyword argument 'serie'; did you mean series=? (metadata goes in meta={'serie': ...})
    """
    import difflib

    from ebsstats.schema import COLUMNS, META_COLUMNS

    params = list(params)
    for key, value in kwargs.items():
        if key in META_COLUMNS or key in COLUMNS or key in TYPED:
            continue
        close = [c for c in difflib.get_close_matches(key.lower(), params, n=3, cutoff=0.8)
                 if abs(len(c) - len(key)) <= 2]
        if close:
            raise TypeError(f"{func}() got an unexpected keyword argument {key!r}; did you mean "
                            f"{close[0]}=? (metadata goes in meta={{{key!r}: ...}})")
        if isinstance(value, Mapping):
            raise TypeError(f"{func}() got an unexpected keyword argument {key!r} holding a "
                            f"mapping; metadata goes in meta={{...}}")


def _scalar(loader, node, path: str):
    """Construct one scalar node of a sidecar, positioned errors for everything."""
    import yaml

    where = f"line {node.start_mark.line + 1}"
    if not isinstance(node, yaml.ScalarNode):
        raise ParseError(path, where, "a scalar metadata value (no lists or mappings)",
                         found=node.id)
    if len(node.value) > MAX_VALUE_CHARS:
        raise ParseError(path, where, f"a value of at most {MAX_VALUE_CHARS:,} characters",
                         found=f"{len(node.value):,} characters")
    try:
        value = loader.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError, ArithmeticError) as exc:
        raise ParseError(path, where, f"a valid {node.tag.rsplit(':', 1)[-1]} value",
                         found=f"{node.value[:60]}: {str(exc)[:80]}") from exc
    if isinstance(value, dt.datetime | dt.date):
        value = value.isoformat()
    if not isinstance(value, str | int | float | bool | type(None)):
        raise ParseError(path, where, "a string, number, boolean or date",
                         found=type(value).__name__)
    return value


def _expanded(node, memo: dict, stack: set, depth: int, path: str) -> int:
    """Nodes of ``node`` once every alias is expanded (what a merge-key bomb multiplies),
    computed once per distinct node; refuses cycles, depth and totals over the limits."""
    import yaml

    key = id(node)
    if key in memo:
        return memo[key]
    where = f"line {node.start_mark.line + 1}"
    if key in stack:
        raise ParseError(path, where, "metadata without recursive aliases", found="an alias "
                         "to its own parent")
    if depth > MAX_DEPTH:
        raise ParseError(path, where, f"nesting at most {MAX_DEPTH} levels deep",
                         found="deeper nesting")
    if isinstance(node, yaml.MappingNode):
        kids = [n for pair in node.value for n in pair]
    elif isinstance(node, yaml.SequenceNode):
        kids = node.value
    else:
        kids = ()
    stack.add(key)
    total = 1
    for kid in kids:
        total += _expanded(kid, memo, stack, depth + 1, path)
        if total > MAX_NODES:
            raise ParseError(path, where, f"at most {MAX_NODES:,} YAML nodes once aliases and "
                             "merge keys (<<) are expanded", found="more (an alias bomb?)")
    stack.discard(key)
    memo[key] = total
    return total


def _read_sidecar(path: Path, shown: str) -> str:
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise ParseError(shown, None, "a sidecar that is a regular file",
                             found="a FIFO, socket, device or folder")
        if st.st_size > MAX_SIDECAR_BYTES:
            raise ParseError(shown, None, f"a sidecar of at most {MAX_SIDECAR_BYTES:,} bytes",
                             found=f"{st.st_size:,} bytes")
        with open(path, "rb") as fh:
            data = fh.read(MAX_SIDECAR_BYTES + 1)
        if len(data) > MAX_SIDECAR_BYTES:
            raise ParseError(shown, None, f"a sidecar of at most {MAX_SIDECAR_BYTES:,} bytes",
                             found="a file that grew past the limit while read")
        return data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ParseError(shown, None, "a readable UTF-8 YAML sidecar",
                         found=type(exc).__name__) from exc


_FLAT_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_NOT_FLAT = frozenset("[]{}&*!|>'\"%@`#\\")


def _flat(text: str) -> bool:
    """Whether a sidecar is only comments and ``key: scalar`` lines (plain or simply quoted) of printable ASCII
    at column 0 (no flow or block collections, anchors, aliases, tags, escapes or block
    scalars): what the C parser reads exactly as the pure-Python one, without any nesting."""
    if not text.isascii():
        return False
    for line in text.split("\n"):
        if not line.isprintable():  # tabs, carriage returns, control characters
            return False
        if not line.strip() or line.startswith("#"):
            continue
        key, colon, value = line.partition(":")
        if not colon or not _FLAT_KEY.fullmatch(key) or (value and value[0] != " "):
            return False
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"" \
                and value[0] not in value[1:-1] and "\\" not in value:
            continue  # one quoted scalar, no escapes
        if value and (value[0] in "-?:," or ": " in value or value.endswith(":")
                      or not _NOT_FLAT.isdisjoint(value)):
            return False
    return True


def _load_yaml(path: Path, shown: str | None = None) -> dict:
    """A sidecar as ``{key: scalar}``, within the limits; ParseError (with the line) else.

    Pure-Python SafeLoader: libyaml's composer recurses in C and crashes the interpreter on
    deeply nested input, and the merge-key flattening is Python either way.
    """
    import yaml

    shown = shown or str(path)
    text = _read_sidecar(path, shown)
    loader = None
    try:
        # refuses unprintable characters already; libyaml only for flat, printable-ASCII
        # `key: plain value` text, where nothing can nest (the usual sidecar, ~10x faster)
        loader = (yaml.CSafeLoader if _flat(text) and yaml.__with_libyaml__
                  else yaml.SafeLoader)(text)
        node = loader.get_single_node()
        if node is None:
            return {}
        _expanded(node, {}, set(), 0, shown)
        if isinstance(node, yaml.ScalarNode) and node.tag.endswith(":null"):
            return {}
        if not isinstance(node, yaml.MappingNode):
            raise ParseError(shown, f"line {node.start_mark.line + 1}",
                             "a YAML mapping of metadata keys", found=node.id)
        loader.flatten_mapping(node)  # merge keys (<<), bounded by the check above
        if len(node.value) > MAX_KEYS:
            raise ParseError(shown, None, f"at most {MAX_KEYS:,} metadata keys",
                             found=f"{len(node.value):,}")
        out = {}
        for knode, vnode in node.value:
            key = str(_scalar(loader, knode, shown))
            value = _scalar(loader, vnode, shown)
            try:
                out[key] = check_meta(key, value)
            except ValueError as exc:
                raise ParseError(shown, f"line {knode.start_mark.line + 1}",
                                 "a metadata key and value ebsstats accepts", found=str(exc)
                                 ) from exc
        return out
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        pos = f"line {mark.line + 1}" if mark is not None else None
        if mark is None and isinstance(getattr(exc, "position", None), int):  # ReaderError
            pos = f"line {text.count(chr(10), 0, exc.position) + 1}"
        raise ParseError(shown, pos, "a YAML mapping of metadata keys",
                         found=str(getattr(exc, "problem", None) or exc)) from exc
    except (RecursionError, MemoryError) as exc:
        try:
            pos = f"line {loader.get_mark().line + 1}"  # type: ignore[union-attr]
        except Exception:
            pos = None
        raise ParseError(shown, pos, "a YAML mapping of scalar metadata",
                         found=f"{type(exc).__name__} (nesting too deep or too large)") from exc
    finally:
        if loader is not None:
            loader.dispose()


def _inside(candidate: Path, root: Path) -> bool:
    try:
        real = Path(os.path.realpath(candidate))
    except (OSError, ValueError):
        return False
    return real == root or root in real.parents


def _exists(p: Path) -> bool:
    """Whether a sidecar candidate exists; never raises (a name too long for the file system
    simply has no sidecar)."""
    if len(os.fsencode(p.name)) > NAME_MAX:
        return False
    try:
        os.lstat(p)
    except (OSError, ValueError):
        return False
    return True


def _shown(p: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return p.relative_to(root).as_posix()
        except ValueError:
            pass
    return str(p)


def _sidecar(p: Path, root: Path, real_root: Path) -> dict:
    shown = _shown(p, root)
    if not _inside(p, real_root):
        raise ParseError(shown, None, "a sidecar inside the folder being read",
                         found="a link that leaves the folder (refused, not read)")
    return _load_yaml(p, shown)


def _folder_meta(folder: str, root: str) -> tuple[tuple[str, object], ...] | ParseError:
    for name in SIDECAR_NAMES:
        try:  # the usual answer (none there) without a Path made: the same file looked up
            os.lstat(os.path.join(folder, name))
        except (OSError, ValueError):
            continue
        p = Path(folder, name)
        if _exists(p):
            try:  # the cache is keyed on the file's state: an edited sidecar is read again
                st = os.stat(p)
                key: tuple = (st.st_mtime_ns, st.st_size)
            except (OSError, ValueError):  # a dangling link: _sidecar says why
                key = (None, None)
            return _sidecar_cached(str(p), root, *key)
    return ()


@lru_cache(maxsize=4096)
def _sidecar_cached(path: str, root: str, mtime_ns: int | None, size: int | None
                    ) -> tuple[tuple[str, object], ...] | ParseError:
    """One folder sidecar, cached on ``(path, root, mtime_ns, size)``: read once while it is
    unchanged, again as soon as it is edited (a notebook session re-reads a fixed ``meta.yaml``
    without :func:`clear_cache`)."""
    top = Path(root)
    try:
        return tuple(_sidecar(Path(path), top, Path(os.path.realpath(top))).items())
    except ParseError as exc:  # cached too: a bad sidecar is read once until it changes
        return exc


def sidecar_meta(path: str | os.PathLike, root: str | os.PathLike | None = None) -> dict:
    """Metadata from sidecars for one file: folder ``meta.yaml`` files from ``root`` down, then
    ``<file>.meta.yaml``. Only sidecars inside ``root`` (after resolving links) are read.

    Raises
    ------
    ebsstats.ParseError
        naming the sidecar (relative to ``root``) and its line, for any sidecar that is too
        large, not YAML, not a mapping of scalars, sets a protected or badly typed key, or is a
        link leaving ``root``.
    """
    p = Path(os.path.abspath(path))
    top = Path(os.path.abspath(root)) if root is not None else p.parent
    folders = []
    cur = p.parent
    while True:
        folders.append(cur)
        if cur == top or cur.parent == cur or top not in cur.parents:
            break
        cur = cur.parent
    meta: dict = {}
    for folder in reversed(folders):
        meta.update(folder_sidecar(folder, top))
    meta.update(file_sidecar(p, top))
    return meta


def folder_sidecar(folder: str | os.PathLike, root: str | os.PathLike) -> dict:
    """The metadata of one folder's own ``meta.yaml`` under the absolute ``root`` (``{}`` if it
    has none); cached while the sidecar's modification time and size stay the same. Raises as
    :func:`sidecar_meta`."""
    got = _folder_meta(str(folder), str(root))
    if isinstance(got, ParseError):
        raise got
    return dict(got)


def file_sidecar(path: str | os.PathLike, root: str | os.PathLike) -> dict:
    """The metadata of a file's own ``<file>.meta.yaml`` under the absolute ``root`` (``{}`` if
    it has none). Raises as :func:`sidecar_meta`."""
    p, top = Path(path), Path(root)
    for suffix in (".meta.yaml", ".meta.yml"):
        own = p.with_name(p.name + suffix)
        if _exists(own):
            return _sidecar(own, top, Path(os.path.realpath(top)))
    return {}


def clear_cache() -> None:
    """Forget cached folder sidecars (an edited ``meta.yaml`` is read again without this: the
    cache is keyed on its modification time and size)."""
    _sidecar_cached.cache_clear()


def check_ingest(outputs, pattern: str | None = None, *, inputs: Iterable = ()) -> None:
    """Operational errors of an ingest, found before any file is parsed: each output in
    ``outputs`` (paths, or a mapping of option name to path; ``None`` entries ignored) must be
    writable (:func:`ebsstats.atomic.check_output`: not read-only, not a folder, disk not full),
    apart from every path in ``inputs`` and from the other outputs (:func:`check_apart`), and
    ``pattern`` valid (:func:`check_pattern`). Raises :class:`ebsstats.atomic.OutputError` or
    ``ValueError`` with one line."""
    from ebsstats.atomic import check_output

    named = dict(outputs) if isinstance(outputs, Mapping) else {
        f"output {i + 1}": out for i, out in enumerate(outputs)}
    named = {k: v for k, v in named.items() if v is not None}
    check_apart(inputs, named)
    for out in named.values():
        check_output(out)
    check_pattern(pattern)


def check_apart(inputs: Iterable, outputs: Mapping) -> None:
    """Refuse outputs that would overwrite the data or each other, before anything is written:
    an output (``outputs``: option name to path) that is an input, lies inside an input folder
    or contains an input (links resolved: :func:`ebsstats.atomic.overlap`, the rule a report's
    ``-o`` follows too), or the same path as another output.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> check_apart([d], {"-o": d.parent / "tidy.parquet"})
    >>> check_apart([d], {"-o": d / "tidy.parquet"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: -o ...tidy.parquet lies inside the data folder ...; write it outside the data
    >>> check_apart([d], {"-o": d.parent / "t.parquet", "--series": d.parent / "t.parquet"})
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: -o and --series are the same file ...t.parquet; give two different paths
    """
    from ebsstats.atomic import overlap

    seen: dict[Path, str] = {}
    for name, out in outputs.items():
        o = Path(out).resolve()
        if o in seen:
            raise ValueError(f"{seen[o]} and {name} are the same file {o}; give two different "
                             "paths")
        seen[o] = name
        for data in inputs:
            how = overlap(o, data)
            if how is not None:
                raise ValueError(_NOT_APART[how].format(name=name, o=o,
                                                        d=Path(data).resolve()))


#: What :func:`check_apart` says of an output that :func:`ebsstats.atomic.overlap` finds is
#: not apart from the data.
_NOT_APART = {
    "same": "{name} {o} is the input {d}; writing it would replace the data: choose another path",
    "inside": "{name} {o} lies inside the data folder {d}; write it outside the data",
    "contains": "{name} {o} contains the data {d}; choose another path",
}


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}|\*\*/|(?:(?<=/)|^)\*\*$|\*")


def check_pattern(pattern: str | None) -> None:
    """Refuse a path pattern that cannot work, before any file is read: a placeholder used
    twice, a protected column, or two placeholders (or ``*``) with nothing between them (which
    would be ambiguous and make matching backtrack over long names).

    >>> check_pattern("{config}/{volume}/run-{repetition}.json")
    >>> check_pattern("{config}/**/*")  # (any folders, then any file)
    >>> check_pattern("{config}/**")  # (the same: everything below)
    >>> check_pattern("{config}/run**.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: pattern '{config}/run**.json': '**' is any folders only as '**/', or as ...
    >>> check_pattern("{config}{volume}.json")
    Traceback (most recent call last):
    ...
    ValueError: pattern '{config}{volume}.json': '{config}{volume}' has no text between two placeholders
    >>> check_pattern("{config/{volume}.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: pattern '{config/{volume}.json': a '{' outside a placeholder (a placeholder ...
    """
    if not pattern:
        return
    stray = re.search(r"[{}]", re.sub(r"\{[A-Za-z_][A-Za-z0-9_]*\}", "", pattern))
    if stray:
        raise ValueError(f"pattern {pattern!r}: a {stray.group(0)!r} outside a placeholder (a "
                         "placeholder is {name}: letters, digits and _, braces balanced)")
    seen: set[str] = set()
    prev_start, prev_end = 0, None
    for m in _PLACEHOLDER.finditer(pattern):
        name = m.group(1)
        if m.group(0) == "*" and m.start() == prev_end and pattern[prev_start:prev_end] == "*":
            raise ValueError(f"pattern {pattern!r}: '**' is any folders only as '**/', or as "
                             "the whole last part ('{config}/**': everything below)")
        if m.start() == prev_end and m.group(0) != "**/" \
                and pattern[prev_start:prev_end] != "**/":  # ("**/" ends with its own "/")
            raise ValueError(f"pattern {pattern!r}: {pattern[prev_start:m.end()]!r} has no text "
                             "between two placeholders")
        if name:
            if name in seen:
                raise ValueError(f"pattern {pattern!r}: placeholder {{{name}}} appears twice")
            if name in PROTECTED:
                raise ValueError(f"pattern {pattern!r}: {{{name}}} is a column the file itself "
                                 "decides; metadata may not set it")
            seen.add(name)
        prev_start, prev_end = m.start(), m.end()


def pattern_matches(relpath: str, pattern: str) -> bool:
    """Whether ``pattern`` matches the path ``relpath`` (relative to the ingest root), as
    :func:`pattern_meta` matches it (a pattern without placeholders gives no metadata even
    when it matches).

    >>> pattern_matches("gp2/vol-1/run-3.json", "{config}/{volume}/run-{repetition}.json")
    True
    >>> pattern_matches("run-3.json", "{config}/{volume}/run-{repetition}.json")
    False
    """
    return bool(_compile(pattern).search(relpath.replace(os.sep, "/")))


def unknown_placeholders(pattern: str | None) -> list[str]:
    """The placeholders of ``pattern`` that are no column of the schema (a typo, or a column of
    the user's own: each becomes a column of its own).

    >>> unknown_placeholders("{conifg}/{volume}/{site}.json")
    ['conifg', 'site']
    """
    from ebsstats.schema import COLUMNS, META_COLUMNS

    names = [m.group(1) for m in _PLACEHOLDER.finditer(pattern or "") if m.group(1)]
    return [n for n in names if n not in COLUMNS and n not in META_COLUMNS]


class PatternWarning(UserWarning):
    """A path pattern that gave less than it seems to promise: a placeholder that is no column
    of the schema, no placeholder at all, or files read that it did not match
    (:func:`pattern_notes`; :func:`ebsstats.read` warns with them)."""


def pattern_notes(pattern: str | None, matched: int, files: int) -> list[str]:
    """What to say of ``pattern`` once a read applied it: each placeholder that is no column
    of the schema (:func:`unknown_placeholders`, with the nearest column), a pattern without
    placeholders, and how many of the ``files`` read with results it ``matched`` when not all.

    >>> print(*pattern_notes("{conifg}/*.json", 2, 2))  # doctest: +NORMALIZE_WHITESPACE
    pattern {conifg} is not a column of ebsstats' schema: it makes a column of its own
    (did you mean {config}?)
    >>> pattern_notes("x/{config}.json", 0, 2)
    ["pattern 'x/{config}.json' matched 0 of the 2 file(s) read: 2 got no metadata from it"]
    >>> pattern_notes("runs/*.json", 2, 2)
    ["pattern 'runs/*.json' has no {name} placeholder: it gives no metadata"]
    """
    if not pattern:
        return []
    import difflib

    from ebsstats.schema import COLUMNS, META_COLUMNS

    said = []
    for name in unknown_placeholders(pattern):
        close = difflib.get_close_matches(name, [*COLUMNS, *META_COLUMNS], n=1)
        said.append(f"pattern {{{name}}} is not a column of ebsstats' schema: it makes a "
                    "column of its own" + (f" (did you mean {{{close[0]}}}?)" if close else ""))
    if "{" not in pattern:
        said.append(f"pattern {pattern!r} has no {{name}} placeholder: it gives no metadata")
    elif matched < files:
        said.append(f"pattern {pattern!r} matched {matched} of the {files} file(s) read: "
                    f"{files - matched} got no metadata from it")
    return said


@lru_cache(maxsize=64)
def _compile(pattern: str) -> re.Pattern[str]:
    check_pattern(pattern)
    out, pos = [], 0
    for m in _PLACEHOLDER.finditer(pattern):
        out.append(re.escape(pattern[pos:m.start()]))
        if m.group(1):
            out.append(f"(?P<{m.group(1)}>[^/]+)")  # greedy within one path segment
        elif m.group(0) == "**/":
            out.append(r"(?:.*/)?")
        elif m.group(0) == "**":  # the whole last part: any file at any depth below
            out.append(r".+")
        else:
            out.append(r"[^/]*")
        pos = m.end()
    out.append(re.escape(pattern[pos:]))
    return re.compile(r"(?:^|/)" + "".join(out) + r"$")


def pattern_meta(relpath: str, pattern: str | None) -> dict:
    """Metadata from a path pattern: ``{name}`` matches one path component (or part of one,
    greedily: as much as the rest of the pattern lets it; ``{timestamp}`` of 9, 10 or 13 digits
    is epoch seconds or milliseconds, UTC),
    ``*`` any text within a component, ``**/`` any folders, a last part ``**`` any file at
    any depth below (``{config}/**`` is ``{config}/**/*``). The pattern is matched against the
    end of the path relative to the ingest root.

    >>> pattern_meta("gp2/vol-1/run-3.json", "{config}/{volume}/run-{repetition}.json")
    {'config': 'gp2', 'volume': 'vol-1', 'repetition': '3'}
    >>> pattern_meta("x/y.json", "{config}/{volume}/run-{repetition}.json")
    {}
    >>> pattern_meta("m5.large/ext4_io1-100g_1311975019.txt",
    ...              "{instance_type}/{filesystem}_{volume}_{timestamp}.txt")["timestamp"]
    '2011-07-29T21:30:19+00:00'
    >>> pattern_meta("a-b-c.txt", "{config}-{volume}.txt")   # greedy: earlier names take more
    {'config': 'a-b', 'volume': 'c'}
    """
    if not pattern:
        return {}
    m = _compile(pattern).search(relpath.replace(os.sep, "/"))
    if not m:
        return {}
    out = dict(m.groupdict())
    stamp = out.get("timestamp")
    if stamp and stamp.isdigit() and len(stamp) in (9, 10, 13):  # epoch seconds (ms)
        secs = int(stamp) / (1000 if len(stamp) == 13 else 1)
        out["timestamp"] = dt.datetime.fromtimestamp(secs, dt.UTC).isoformat()
    for key, value in out.items():
        try:
            check_meta(key, value)
        except ValueError as exc:
            raise ParseError(relpath, None, f"a path whose {{{key}}} suits the pattern {pattern!r}",
                             found=str(exc)) from exc
    return out

