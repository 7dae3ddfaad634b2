"""Testing helpers: mutation fuzzing of the readers from genuine outputs.

Used by the suite (a fast subset) and by ``benchmarks/fuzz_readers.py`` (≥ 10,000 cases per
reader). A reader may accept a mutated file only if the frame it returns passes
:func:`ebsstats.validate`; otherwise the only acceptable outcome is :class:`ebsstats.ParseError`
naming the file.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter
from collections.abc import Iterator

import numpy as np

from . import schema
from .errors import ParseError, SchemaError
from .io._common import decode

_NUMBER = re.compile(rb"(?<![A-Za-z_])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_EXTREMES = [b"1e308", b"1e400", b"-1e400", b"nan", b"NaN", b"inf", b"-inf", b"-1", b"",
             b"99999999999999999999999999", b"0", b"-0.0", b"1,5", b"0x10"]


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
             "utf16", "latin1", "garbage_line", "empty", "binary", "crlf", "insert_nul"]
    while produced < n:
        kind = kinds[int(rng.integers(len(kinds)))]
        yield kind, _mutate(kind, data, lines, rng)
        produced += 1


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
    return data


def run_case(module_name: str, data: bytes, source: str = "fuzzed.out", **options) -> str:
    """Feed one input to a reader's ``parse``; return the outcome.

    ``"ok"`` (a valid frame or no rows), ``"parse_error"`` (ParseError naming the source), or a
    defect: ``"unnamed_parse_error"``, ``"invalid_frame: …"``, ``"crash: <type>: <message>"``.
    """
    module = importlib.import_module(module_name)
    try:
        text = decode(data, source)
        parsed = module.parse(text, source, **options)
        if parsed.records:
            schema.validate(schema.frame(parsed.records))
        for ts in parsed.series:
            schema.validate_series(schema.series_frame(ts))
    except ParseError as exc:
        return "parse_error" if source in str(exc) else "unnamed_parse_error"
    except SchemaError as exc:
        return f"invalid_frame: {exc}"[:200]
    except Exception as exc:  # any other exception is the defect we look for
        return f"crash: {type(exc).__name__}: {exc}"[:200]
    return "ok"


def fuzz(module_name: str, samples: dict[str, bytes], n_per_sample: int, seed: int = 0,
         **options) -> tuple[Counter, list[tuple[str, str, str, bytes]]]:
    """Fuzz one reader from genuine samples. Returns outcome counts and the defects found
    (sample name, mutation, outcome, input)."""
    rng = np.random.default_rng(seed)
    counts: Counter = Counter()
    defects = []
    for name, data in samples.items():
        for kind, mutated in mutations(data, rng, n_per_sample):
            outcome = run_case(module_name, mutated, source=name, **options)
            key = outcome if outcome in ("ok", "parse_error") else outcome.split(":")[0]
            counts[key] += 1
            if key not in ("ok", "parse_error"):
                defects.append((name, kind, outcome, mutated))
    return counts, defects
