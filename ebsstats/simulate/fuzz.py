"""Testing helpers: mutation fuzzing of the readers from genuine outputs.

Used by the suite (a fast subset) and by ``benchmarks/fuzz_readers.py`` (≥ 10,000 cases per
reader). A reader may accept a mutated file only if the frame it returns passes
:func:`ebsstats.validate`; otherwise the only acceptable outcome is :class:`ebsstats.ParseError`
naming the file.
"""

from __future__ import annotations

import importlib
import json
import math
import re
import time
import xml.etree.ElementTree as ET  # only re-serialises our own genuine samples
from collections import Counter
from collections.abc import Iterator

import numpy as np

from ebsstats import schema
from ebsstats.errors import ParseError, SchemaError
from ebsstats.io._common import decode, frame_of
from ebsstats.io.sniff import sniff_text

_NUMBER = re.compile(rb"(?<![A-Za-z_])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_EXTREMES = [b"1e308", b"1e400", b"-1e400", b"nan", b"NaN", b"inf", b"-inf", b"-1", b"",
             b"99999999999999999999999999", b"0", b"-0.0", b"1,5", b"0x10", b"-5", b"1e309",
             b"Infinity", b"-Infinity", b"1e-400", b"9" * 400, b"9" * 5000]
# values a JSON field is replaced with ("json_field" mutation): numbers out of range, other types
_JSON_VALUES = [-1, -0.5, 1e308, 10**400, float("inf"), float("-inf"), float("nan"), 0, None,
                True, "12", "", [], {}, "-nan"]
_ROW_UNITS = ("B/s", "IO/s", "s", "ops/s", "B", "count")


def mutations(data: bytes, rng: np.random.Generator, n: int) -> Iterator[tuple[str, bytes]]:
    """``n`` mutated versions of ``data``, each with the name of the mutation.

    The first cases truncate at every line (up to ``n // 4``), then random mutations follow:
    byte flips, random truncation, deleted/duplicated/shuffled lines, extreme numbers, wrong
    encodings, garbage lines, empty and binary files.
    """
    lines = data.splitlines(keepends=True)
    cuts = np.cumsum([len(x) for x in lines])[:-1] if len(lines) > 1 else np.array([], int)
    budget = max(1, n // 4)
    if len(cuts) > budget:
        cuts = np.sort(rng.choice(cuts, size=budget, replace=False))
    produced = 0
    for c in cuts:
        yield "truncate_line", data[: int(c)]
        produced += 1
    kinds = ["flip", "truncate_byte", "delete_line", "duplicate_line", "swap_lines", "number",
             "utf16", "latin1", "garbage_line", "empty", "binary", "crlf", "insert_nul",
             "deep_nesting", "huge_integer"]
    doc = _as_json(data)
    tree = _as_xml(data) if doc is None else None
    if doc is not None:  # structure-aware: drop / retype / renumber a field
        kinds += ["json_field"] * 3
    elif tree is not None:
        kinds += ["xml_element"] * 3
    while produced < n:
        kind = kinds[int(rng.integers(len(kinds)))]
        if kind == "json_field":
            yield kind, _mutate_json(doc, rng)
        elif kind == "xml_element":
            yield kind, _mutate_xml(data, rng)
        else:
            yield kind, _mutate(kind, data, lines, rng)
        produced += 1


def _as_json(data: bytes):
    if not data.lstrip().startswith((b"{", b"[")):
        return None
    try:
        return json.loads(data)
    except ValueError:
        return None


def _as_xml(data: bytes):
    if not data.lstrip().startswith(b"<?xml") or b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        return None
    try:
        return ET.fromstring(data)  # our own genuine samples, no DTD
    except ET.ParseError:
        return None


def _slots(obj, out: list) -> list:
    """Every (container, key) pair of a decoded JSON document."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append((obj, k))
            _slots(v, out)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.append((obj, i))
            _slots(v, out)
    return out


def _mutate_json(doc, rng: np.random.Generator) -> bytes:
    """Drop a field, or give it an out-of-range number or a value of another type (missing
    fields, overflowing and negative numbers, NaN/inf as Python's json writes them)."""
    doc = json.loads(json.dumps(doc))  # a private copy
    slots = _slots(doc, [])
    if not slots:
        return json.dumps(doc).encode()
    container, key = slots[int(rng.integers(len(slots)))]
    if rng.random() < 0.3:
        del container[key]
    else:
        container[key] = _JSON_VALUES[int(rng.integers(len(_JSON_VALUES)))]
    return json.dumps(doc, indent=2).encode()


def _mutate_xml(data: bytes, rng: np.random.Generator) -> bytes:
    """Drop or duplicate an element, or replace its text with an extreme number."""
    root = ET.fromstring(data)  # our own genuine samples, no DTD
    pairs = [(parent, child) for parent in root.iter() for child in parent]
    if not pairs:
        return data
    parent, child = pairs[int(rng.integers(len(pairs)))]
    r = rng.random()
    if r < 0.3:
        parent.remove(child)
    elif r < 0.5:
        parent.insert(list(parent).index(child), child)
    else:
        child.text = _EXTREMES[int(rng.integers(len(_EXTREMES)))].decode()
    return b'<?xml version="1.0"?>\n' + ET.tostring(root)


def _mutate(kind: str, data: bytes, lines: list[bytes], rng: np.random.Generator) -> bytes:
    size = len(data)
    if kind == "flip" and size:
        buf = bytearray(data)
        for _ in range(int(rng.integers(1, 4))):
            i = int(rng.integers(size))
            buf[i] = int(rng.integers(256))
        return bytes(buf)
    if kind == "truncate_byte" and size:
        return data[: int(rng.integers(size))]
    if kind in ("delete_line", "duplicate_line", "swap_lines", "garbage_line") and lines:
        ls = list(lines)
        i = int(rng.integers(len(ls)))
        if kind == "delete_line":
            del ls[i]
        elif kind == "duplicate_line":
            ls.insert(i, ls[i])
        elif kind == "swap_lines":
            j = int(rng.integers(len(ls)))
            ls[i], ls[j] = ls[j], ls[i]
        else:
            junk = bytes(rng.integers(32, 127, size=int(rng.integers(1, 80))).astype(np.uint8))
            ls.insert(i, junk + b"\n")
        return b"".join(ls)
    if kind == "number":
        matches = list(_NUMBER.finditer(data))
        if matches:
            m = matches[int(rng.integers(len(matches)))]
            new = _EXTREMES[int(rng.integers(len(_EXTREMES)))]
            return data[: m.start()] + new + data[m.end():]
        return data
    if kind == "utf16":
        return data.decode("utf-8", "replace").encode("utf-16")
    if kind == "latin1":
        return data.decode("utf-8", "replace").replace(" ", " é", 1).encode("latin-1", "replace")
    if kind == "empty":
        return b"" if rng.random() < 0.5 else b"  \n\n \t\n"
    if kind == "binary":
        return bytes(rng.integers(0, 256, size=int(rng.integers(1, 4096))).astype(np.uint8))
    if kind == "crlf":
        return data.replace(b"\n", b"\r\n")
    if kind == "insert_nul" and size:
        i = int(rng.integers(size))
        return data[:i] + b"\x00" + data[i:]
    if kind in ("deep_nesting", "huge_integer"):
        return _bomb(kind, data, rng)
    return data


def _bomb(kind: str, data: bytes, rng: np.random.Generator) -> bytes:
    """A number of ``data`` replaced by a 1,000-100,000-level nesting (JSON arrays, objects or
    XML elements, as the input is) or by an integer of 4,301-20,000 digits."""
    matches = list(_NUMBER.finditer(data))
    if not matches:
        return data + b"\n" + b"[" * 5000 + b"]" * 5000
    m = matches[int(rng.integers(len(matches)))]
    if kind == "huge_integer":
        new = b"9" * int(rng.integers(4301, 20_000))
    else:
        depth = int(rng.choice([1000, 10_000, 100_000]))
        style = int(rng.integers(3))
        if style == 0:
            new = b"[" * depth + b"1" + b"]" * depth
        elif style == 1:
            new = b'{"a":' * depth + b"1" + b"}" * depth
        else:
            new = b"<a>" * depth + b"1" + b"</a>" * depth
    return data[: m.start()] + new + data[m.end():]


def run_case(module_name: str, data: bytes, source: str = "fuzzed.out", **options) -> str:
    """Feed one input to a reader's ``parse``; return the outcome.

    ``"ok"`` (a valid frame or no rows) or ``"parse_error"`` (a ParseError whose ``source`` is
    the file and whose ``position`` says where: a line, a JSON path or an XML element). Anything
    else is a defect:

    * ``"unnamed_parse_error"`` — the error does not name the file;
    * ``"unpositioned: …"`` — no position, although the input is not empty (an empty or
      blank file is the one case where no position makes sense; binary and wrongly encoded
      input get the line of the first bad byte from :func:`ebsstats.io._common.decode`);
    * ``"invalid_frame: …"`` — the results frame fails :func:`ebsstats.validate`;
    * ``"invalid_series: …"`` — the series frame fails :func:`ebsstats.validate_series`, or
      holds an infinite or NaN value, or a negative rate / latency / count;
    * ``"crash: <type>: <message>"`` — any other exception escaped the reader;
    * ``"crash in sniff: …"`` — a registered reader's sniff raised on the input's head.
    """
    module = importlib.import_module(module_name)
    try:  # every reader's sniff judges the head (as a folder read asks them): it must not raise
        sniff_text(data[:65536].decode("utf-8", errors="replace"), source)
    except Exception as exc:
        return f"crash in sniff: {type(exc).__name__}: {exc}"[:200]
    try:
        text = decode(data, source)
        parsed = module.parse(text, source, **options)
        df, ts = frame_of(parsed, series=True)  # typed as a read types them
        if parsed.records:
            schema.validate(df)
        if parsed.series:
            try:
                _check_series(schema.validate_series(ts))
            except SchemaError as exc:
                raise _BadSeries(str(exc)) from exc
    except ParseError as exc:
        if exc.source != source:
            return "unnamed_parse_error"
        # blank as text: only whitespace (str.strip: \x1c too) and byte-order marks
        # (a UTF-16 byte-order mark alone is blank too: the readers decode it to "")
        body = data[2:] if data[:2] in (b"\xfe\xff", b"\xff\xfe") else data
        blank = not body.decode("utf-8", "replace").replace("\ufeff", "").strip()
        if not exc.position and not blank:
            return f"unpositioned: {exc}"[:200]
        return "parse_error"
    except _BadSeries as exc:
        return f"invalid_series: {exc}"[:200]
    except SchemaError as exc:
        return f"invalid_frame: {exc}"[:200]
    except Exception as exc:  # any other exception is the defect we look for
        return f"crash: {type(exc).__name__}: {exc}"[:200]
    return "ok"


class _BadSeries(Exception):
    pass


def _check_series(ts) -> None:
    """Series values: never ±inf or NaN, never a negative rate, latency or count (the series
    frame has no ``flag`` column to explain a NaN)."""
    if not len(ts):
        return
    values = ts["value"].to_numpy(dtype=float, na_value=math.nan)
    bad = ~np.isfinite(values)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise _BadSeries(f"non-finite {ts['metric'].iloc[i]} value {values[i]} in row {i}")
    rate = np.isin(ts["unit"].astype(str).to_numpy(), _ROW_UNITS)
    neg = rate & (values < 0)
    if neg.any():
        i = int(np.flatnonzero(neg)[0])
        raise _BadSeries(f"negative {ts['metric'].iloc[i]} in row {i}")


def genuine_samples(module_name: str, roots, max_bytes: int = 300_000,
                    relative_to=None) -> dict[str, bytes]:
    """Files under ``roots`` that the reader claims by its own ``sniff`` (name -> bytes).

    Companion files (job files, sidecars, scripts, manifests) and files above ``max_bytes``
    are left out. Names are relative to ``relative_to`` when given.
    """
    from pathlib import Path

    from ebsstats.io.sniff import is_companion

    module = importlib.import_module(module_name)
    found = {}
    for base in roots:
        for p in sorted(Path(base).rglob("*")):
            if not p.is_file() or is_companion(p) or p.suffix == ".tsv":
                continue
            data = p.read_bytes()
            if len(data) > max_bytes:
                continue
            if module.sniff(data[:65536].decode("utf-8", "replace"), p.name):
                found[str(p.relative_to(relative_to) if relative_to else p)] = data
    return found


def outcome_class(outcome: str) -> str:
    """The count key of an outcome: ``ok``, ``parse_error`` or the defect class before ``:``."""
    return outcome if outcome in ("ok", "parse_error") else outcome.split(":")[0]


def fuzz(module_name: str, samples: dict[str, bytes], n_per_sample: int, seed: int = 0,
         **options) -> tuple[Counter, list[tuple[str, str, str, bytes]]]:
    """Fuzz one reader from genuine samples.

    Returns outcome counts (``ok``, ``parse_error`` and one key per defect class, plus
    ``"_slowest_s"``: the longest single case in seconds, which is not a case) and the defects
    found as (sample name, mutation, outcome, input).

    Examples
    --------
    >>> counts, defects = fuzz("ebsstats.io.sysbench", {"x.txt": b"sysbench 1.0.20\\n"}, 5)
    >>> sum(v for k, v in counts.items() if not k.startswith("_")), defects
    (5, [])
    """
    rng = np.random.default_rng(seed)
    counts: Counter = Counter()
    defects = []
    slowest = 0.0
    for name, data in samples.items():
        for kind, mutated in mutations(data, rng, n_per_sample):
            t0 = time.perf_counter()
            outcome = run_case(module_name, mutated, source=name, **options)
            slowest = max(slowest, time.perf_counter() - t0)
            key = outcome_class(outcome)
            counts[key] += 1
            if key not in ("ok", "parse_error"):
                defects.append((name, kind, outcome, mutated))
    counts["_slowest_s"] = round(slowest, 3)  # type: ignore[assignment]
    return counts, defects


# --- folder-level families: hostile names, sidecars and links, beside a good file -------------

CANARY = "ebsstats-canary-7f3a"  # in files outside the tree: must never reach a frame

_SIDECARS = [
    lambda rng: "a0: &a0 {x: 1}\n" + "".join(
        f"a{i}: &a{i}\n  <<: [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10)),
    lambda rng: "value: 12345\n", lambda rng: "value: .inf\n", lambda rng: "run_id: same\n",
    lambda rng: "unit: B/s\n", lambda rng: "tool: fio\n", lambda rng: "op: write\n",
    lambda rng: "source: x\n", lambda rng: "threads: -4\n", lambda rng: "size_gib: -1\n",
    lambda rng: "raid_members: .inf\n", lambda rng: "timestamp: 2026-13-45\n",
    lambda rng: "config: 2026-02-30\n", lambda rng: "n: !!int abc\n",
    lambda rng: "n: " + "9" * int(rng.integers(4301, 9000)) + "\n",
    lambda rng: "a: " + "[" * 50_000 + "]" * 50_000 + "\n",
    lambda rng: "a: &a [*a]\n", lambda rng: "x: !!python/object/apply:os.system [ls]\n",
    lambda rng: "note: " + "A" * int(rng.integers(4097, 2_000_000)) + "\n",
    lambda rng: "".join(f"k{i}: {i}\n" for i in range(int(rng.integers(1001, 3000)))),
    lambda rng: 'config: "gp3 $\\\\undefinedcmd{x}$"\n', lambda rng: "- a\n- b\n",
    lambda rng: "config: [unclosed\n", lambda rng: "\x00\xff binary\n",
    lambda rng: f"config: {CANARY}-inside-is-fine\n",
]


def _hostile_name(rng: np.random.Generator, suffix: str) -> str:
    """A legal file name of 246-255 bytes, or one with control bytes, ``$``, quotes, spaces."""
    if rng.random() < 0.5:
        n = int(rng.integers(246, 256)) - len(suffix.encode())
        return "n" * n + suffix
    alphabet = ["\x1b[2J", "\x07", "\r", "\t", "$", "'", '"', " ", "é", "..", "\\", "%s", "{}",
                "\x1b]0;t\x07"]
    parts = [alphabet[int(i)] for i in rng.integers(len(alphabet), size=int(rng.integers(1, 6)))]
    return "r" + "".join(parts) + suffix


def folder_cases(sample: bytes, name: str, rng: np.random.Generator, n: int
                 ) -> Iterator[tuple[str, dict]]:
    """``n`` folder attacks on one genuine sample: (family, layout) where layout maps relative
    paths to bytes, or to ``("link", target)`` for a symbolic link (``"@outside"`` is a file
    outside the tree holding :data:`CANARY`, ``"/proc/self/status"`` a system file)."""
    suffix = "." + name.rsplit(".", 1)[-1] if "." in name else ".out"
    families = ["long_or_hostile_name", "hostile_sidecar", "link_out", "compressed"]
    for _ in range(n):
        fam = families[int(rng.integers(len(families)))]
        if fam == "compressed":
            yield fam, {f"attack/run{suffix}{sfx}": body
                        for sfx, body in [_compressed_attack(sample, rng)]}
        elif fam == "long_or_hostile_name":
            yield fam, {f"attack/{_hostile_name(rng, suffix)}": sample}
        elif fam == "hostile_sidecar":
            text = _SIDECARS[int(rng.integers(len(_SIDECARS)))](rng)
            where = "attack/meta.yaml" if rng.random() < 0.5 else f"attack/run{suffix}.meta.yaml"
            yield fam, {f"attack/run{suffix}": sample,
                        where: text.encode("utf-8", "surrogateescape")}
        else:
            target = "@outside" if rng.random() < 0.7 else "/proc/self/status"
            where = "attack/meta.yaml" if rng.random() < 0.5 else f"attack/run{suffix}.meta.yaml"
            yield fam, {f"attack/run{suffix}": sample, where: ("link", target)}


def _compressed_attack(sample: bytes, rng: np.random.Generator) -> tuple[str, bytes]:
    """``(suffix, bytes)``: the sample gzipped, bzip2- or xz-compressed, and then (in about
    half of the cases) damaged: bytes flipped, cut short, or replaced by a stream of 32 MiB of
    zeros (a small compression bomb: it must not decompress past the read's size limit)."""
    import bz2
    import gzip
    import lzma

    k = int(rng.integers(3))
    body = (gzip.compress, bz2.compress, lzma.compress)[k](sample)
    r = rng.random()
    if r < 0.25:
        body = _mutate("flip", body, [], rng)
    elif r < 0.45:
        body = body[: int(rng.integers(len(body)))]
    elif r < 0.5:
        body = gzip.compress(b"\0" * (32 << 20), compresslevel=9)
    return (".gz", ".bz2", ".xz")[k], body


def run_folder_case(layout: dict, good: dict[str, bytes], expected, base) -> str:
    """Read a tree of ``good`` files plus the attack ``layout`` under ``base``; the outcome is
    ``"ok"`` (attack read), ``"refused"`` (attack listed), or a defect: ``crash: …`` (an
    exception escaped the folder read), ``good_changed`` (the good files' values differ from
    ``expected``), ``leak`` (the canary from outside the tree reached the frame)."""
    import os
    import shutil
    import tempfile
    import warnings
    from pathlib import Path

    from ebsstats.io import meta as metamod
    from ebsstats.io.folder import read

    work = Path(tempfile.mkdtemp(dir=base))
    try:
        root = work / "tree"
        (work / "outside.yaml").write_text(f"db_password: {CANARY}\nconfig: {CANARY}\n")
        for rel, data in {**good, **layout}.items():
            p = root / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(data, tuple):
                target = work / "outside.yaml" if data[1] == "@outside" else data[1]
                os.symlink(target, p)
            else:
                p.write_bytes(data)
        metamod.clear_cache()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                df, fails = read(root, with_failures=True, errors="collect")
        except Exception as exc:
            return f"crash: {type(exc).__name__}: {exc}"[:200]
        text = df.astype("string").to_csv(index=False) if len(df) else ""
        if CANARY in text and not any(
                isinstance(v, bytes) and CANARY.encode() in v for v in layout.values()):
            return "leak"
        good_rows = df[df["source"].astype(str).str.startswith("good/")]
        got = good_rows[["source", "position", "metric", "value"]].astype(str)
        if not got.sort_values(list(got.columns)).reset_index(drop=True).equals(expected):
            return "good_changed"
        attacked = df["source"].astype(str).str.startswith("attack/").any()
        return "ok" if attacked else "refused"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def fuzz_folder(samples: dict[str, bytes], good: dict[str, bytes], n_per_sample: int,
                seed: int = 0, base=None) -> tuple[Counter, list[tuple[str, str, str]]]:
    """Folder-level fuzzing: every sample attacked by :func:`folder_cases` beside ``good``
    files; counts per outcome (``ok``, ``refused``, defects) and the defects."""
    import tempfile
    from pathlib import Path

    from ebsstats.io.folder import read

    rng = np.random.default_rng(seed)
    base = base or tempfile.mkdtemp(prefix="ebsstats-fuzz-")
    ref = Path(tempfile.mkdtemp(dir=base))
    for rel, data in good.items():
        (ref / rel).parent.mkdir(parents=True, exist_ok=True)
        (ref / rel).write_bytes(data)
    df = read(ref)
    expected = df[["source", "position", "metric", "value"]].astype(str)
    expected = expected.sort_values(list(expected.columns)).reset_index(drop=True)
    counts: Counter = Counter()
    defects = []
    for name, data in samples.items():
        if data in good.values():  # a copy of a good file is read once (dedupe): not an attack
            continue
        for fam, layout in folder_cases(data, name, rng, n_per_sample):
            outcome = run_folder_case(layout, good, expected, base)
            key = outcome if outcome in ("ok", "refused") else outcome.split(":")[0]
            counts[f"{fam}:{key}"] += 1
            if key not in ("ok", "refused"):
                defects.append((name, fam, outcome))
    return counts, defects
