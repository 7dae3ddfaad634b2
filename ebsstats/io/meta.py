"""Metadata that does not live in the outputs: sidecar YAML files and path patterns.

Precedence (highest first): explicit arguments > ``<file>.meta.yaml`` > ``meta.yaml`` files in the
file's folder and its parents up to the ingest root (deeper wins) > a path pattern the user gives
(e.g. ``"{config}/{volume}/run-{repetition}.json"``) > what the output itself says.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from ebsstats.errors import ParseError

SIDECAR_NAMES = ("meta.yaml", "meta.yml")


def _load_yaml(path: Path) -> dict:
    import yaml

    try:
        text = path.read_text(encoding="utf-8")
        # libyaml's parser when present (same SafeConstructor, ~10x faster on many sidecars)
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, UnicodeDecodeError) as exc:
        raise ParseError(path, None, "a readable UTF-8 YAML sidecar", found=str(exc)) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        pos = f"line {mark.line + 1}" if mark is not None else None
        raise ParseError(path, pos, "a YAML mapping of metadata keys",
                         found=str(getattr(exc, "problem", exc))) from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ParseError(path, "line 1", "a YAML mapping of metadata keys",
                         found=type(data).__name__)
    out = {}
    for key, value in data.items():
        if isinstance(value, (dict, list)):
            raise ParseError(path, f"key {key!r}", "a scalar metadata value",
                             found=type(value).__name__)
        if isinstance(value, dt.datetime):
            value = value.isoformat()
        elif isinstance(value, dt.date):
            value = value.isoformat()
        out[str(key)] = value
    return out


@lru_cache(maxsize=4096)
def _folder_meta(folder: str) -> tuple[tuple[str, object], ...]:
    for name in SIDECAR_NAMES:
        p = Path(folder, name)
        if p.is_file():
            return tuple(_load_yaml(p).items())
    return ()


def sidecar_meta(path: str | os.PathLike, root: str | os.PathLike | None = None) -> dict:
    """Metadata from sidecars for one file: folder ``meta.yaml`` files from ``root`` down, then
    ``<file>.meta.yaml``."""
    p = Path(path).resolve()
    top = Path(root).resolve() if root is not None else p.parent
    folders = []
    cur = p.parent
    while True:
        folders.append(cur)
        if cur == top or cur.parent == cur or top not in cur.parents:
            break
        cur = cur.parent
    meta: dict = {}
    for folder in reversed(folders):
        meta.update(dict(_folder_meta(str(folder))))
    for suffix in (".meta.yaml", ".meta.yml"):
        own = p.with_name(p.name + suffix)
        if own.is_file():
            meta.update(_load_yaml(own))
            break
    return meta


def clear_cache() -> None:
    """Forget cached folder sidecars (call after editing ``meta.yaml`` files in a session)."""
    _folder_meta.cache_clear()


@lru_cache(maxsize=64)
def _compile(pattern: str) -> re.Pattern[str]:
    out, pos = [], 0
    for m in re.finditer(r"\{([A-Za-z_][A-Za-z0-9_]*)\}|\*\*/|\*", pattern):
        out.append(re.escape(pattern[pos:m.start()]))
        if m.group(1):
            out.append(f"(?P<{m.group(1)}>[^/]+)")  # greedy within one path segment
        elif m.group(0) == "**/":
            out.append(r"(?:.*/)?")
        else:
            out.append(r"[^/]*")
        pos = m.end()
    out.append(re.escape(pattern[pos:]))
    return re.compile(r"(?:^|/)" + "".join(out) + r"$")


def pattern_meta(relpath: str, pattern: str | None) -> dict:
    """Metadata from a path pattern: ``{name}`` matches one path component (or part of one,
    greedily: as much as the rest of the pattern lets it; ``{timestamp}`` of 9, 10 or 13 digits
    is epoch seconds or milliseconds, UTC),
    ``*`` any text within a component, ``**/`` any folders. The pattern is matched against the
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
    found = dict(m.groupdict()) if m else {}
    stamp = found.get("timestamp")
    if stamp and stamp.isdigit() and len(stamp) in (9, 10, 13):  # epoch seconds (ms)
        secs = int(stamp) / (1000 if len(stamp) == 13 else 1)
        found["timestamp"] = dt.datetime.fromtimestamp(secs, dt.UTC).isoformat()
    return found


def overlay(records: list[dict], *layers: Mapping | None) -> list[dict]:
    """Apply metadata layers in increasing precedence to every record."""
    merged: dict = {}
    for layer in layers:
        if layer:
            merged.update(layer)
    if not merged:
        return records
    return [{**r, **merged} for r in records]
