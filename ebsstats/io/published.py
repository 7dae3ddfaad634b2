"""Published reference tables (``data/published/*.csv``) as ``tool="table"`` rows.

Each table is a CSV file whose first line is ``# ebsstats published table``, followed by
``# key: value`` lines (``seed``, ``title``, ``layout``, ``units``) and then the table with a
header row, numbers exactly as the seed write-up printed them (thousands separators dropped).
``data/published/SOURCES.md`` says where each table comes from and what each column means.

Layouts and how they become tidy rows (one row per printed number; units made canonical):

``bonnie`` (seed 000, bonnie++ 1.0x on EC2 EBS, 2009)
    ``output_per_char_kbs`` → test ``putc`` (seqwrite, write), ``output_block_kbs`` →
    ``put_block`` (seqwrite, write), ``output_rewrite_kbs`` → ``rewrite`` (rewrite, total),
    ``input_per_char_kbs`` → ``getc`` (seqread, read), ``input_block_kbs`` → ``get_block``
    (seqread, read): metric ``bandwidth``, KB/s as printed are bonnie++'s K/sec = KiB/s, so
    × 1024 → B/s. ``random_seeks_per_s`` → test ``seeks`` (seeks, total), metric ``ops``.
``ebs_nvme`` (seed 002, i3.large, 2017)
    read/write IOPS → ``iops`` (op read/write; ``flag="bursting"`` where the table says
    "(bursting)"); read/write "Throughput MB/s" → ``bandwidth`` with MB = 10**6 B (the author's
    53 MB/s ceiling is the i3.large EBS limit of 425 Mbit/s = 53.1 × 10**6 B/s, so the numbers
    are decimal); a printed range ("22-53 (variable perf)") becomes two rows flagged
    ``range_low`` and ``range_high`` — never one made-up number. The price
    (``cost_usd_per_gb_month``) stays a column on every row of that disk type.
``pts_scores`` (seed 003, PTS on m1.small with PIOPS, 2013)
    ``score`` → metric ``score`` with ``unit`` = the footer's unit verbatim (``MB/s``,
    ``seconds``, ``files/s``, ``TPS``, ``Requests/s``: the tests' own units, not converted) and
    direction from the footer ("more/less is better"); ``error`` (the maximum deviation of a run
    from the average) → metric ``score_max_deviation``, same unit, ``flag="spread"``. A spread is
    never expanded into invented runs.

Every row carries ``source`` (the CSV path relative to ``data/``), ``position`` (``row N,
<column>``), ``config`` (the table's row label), ``seed`` (the seed file name) and the
table's metadata columns.

Examples
--------
>>> import ebsstats as es
>>> df = es.read_published("seed002_ebs_vs_nvme_i3large")
>>> df.query("metric == 'iops' and volume_type == 'gp2'")[["op", "value", "flag"]].values.tolist()
[['read', 2074.0, 'bursting'], ['write', 692.0, 'bursting']]
"""

from __future__ import annotations

import csv
import io
import math
import os
from pathlib import Path

import pandas as pd

from ebsstats import units
from ebsstats.errors import ParseError
from ebsstats.io import _columns
from ebsstats.io._common import Parsed, frame_of, load_text
from ebsstats.io._registry import Reader, text_parser

# peak memory of a parse per byte of input, for the folder read's budget
# (benchmarks/reader_memory.py: tables are small; not measured at scale)
MEMORY_FACTOR = 60


__all__ = ["sniff", "parse", "read_published", "published_dir", "MAGIC"]

MAGIC = "# ebsstats published table"

_BONNIE = [  # column, test, workload, op, metric, factor
    ("output_per_char_kbs", "putc", "seqwrite", "write", "bandwidth", units.KiB),
    ("output_block_kbs", "put_block", "seqwrite", "write", "bandwidth", units.KiB),
    ("output_rewrite_kbs", "rewrite", "rewrite", "total", "bandwidth", units.KiB),
    ("input_per_char_kbs", "getc", "seqread", "read", "bandwidth", units.KiB),
    ("input_block_kbs", "get_block", "seqread", "read", "bandwidth", units.KiB),
    ("random_seeks_per_s", "seeks", "seeks", "total", "ops", 1),
]


def published_dir() -> Path:
    """The published tables: ``ebsstats/data/published`` in an installed wheel, else the
    repository's ``data/published`` folder (next to the ``ebsstats`` package)."""
    inside = Path(__file__).resolve().parents[1] / "data" / "published"
    return inside if inside.is_dir() else Path(__file__).resolve().parents[2] / "data" / "published"


def sniff(head: str, name: str = "") -> str | None:
    """``"published table"`` if ``head`` starts with the ebsstats table marker, else ``None``.

    >>> sniff("# ebsstats published table\\n# layout: bonnie\\n", "x.csv")
    'published table'
    """
    return "published table" if head.lstrip("\ufeff").startswith(MAGIC) else None


def _num(cell: str, source: str, pos: str) -> float | None:
    cell = cell.strip()
    if not cell:
        return None
    try:
        value = float(cell.replace(",", ""))
    except ValueError as exc:
        raise ParseError(source, pos, "a number", found=cell) from exc
    if not (value >= 0 and math.isfinite(value)):  # every published figure is >= 0
        raise ParseError(source, pos, "a finite, non-negative number", found=cell)
    return value


def _count(cell: str | None, source: str, pos: str) -> int | None:
    """A whole number (volume size, RAID members, provisioned IOPS), or None when empty."""
    v = _num(cell or "", source, pos)
    if v is None:
        return None
    if v != int(v) or v >= 2**53:
        raise ParseError(source, pos, "a whole number", found=cell)
    return int(v)


def parse(text: str, source: str, **options) -> Parsed:
    """Parse one published-table CSV into ``tool="table"`` records (layouts: module docstring).

    Raises
    ------
    ParseError
        No marker line, unknown layout, a missing column or a non-numeric cell.
    """
    if options:
        raise TypeError(f"unknown option(s) for published tables: {sorted(options)}")
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or not lines[0].startswith(MAGIC):
        raise ParseError(source, 1, f"a first line {MAGIC!r}", found=lines[0] if lines else "")
    meta: dict[str, str] = {}
    layout_line = 1
    n = 1
    while n < len(lines) and lines[n].startswith("#"):
        key, sep, value = lines[n][1:].partition(":")
        if sep:
            meta[key.strip()] = value.strip()
            if key.strip() == "layout":
                layout_line = n + 1
        n += 1
    layout = meta.get("layout")
    if layout not in _LAYOUTS:
        raise ParseError(source, layout_line, "a '# layout:' line naming one of "
                         f"{sorted(_LAYOUTS)}", found=layout)
    reader = csv.DictReader(io.StringIO("\n".join(lines[n:])))
    need, build = _LAYOUTS[layout]
    missing = [c for c in need if c not in (reader.fieldnames or [])]
    if missing:
        raise ParseError(source, n + 1, f"columns {need}", found=f"missing {missing}")
    records: list[dict] = []
    try:
        for i, row in enumerate(reader, 1):
            width = len(reader.fieldnames)
            if None in row or None in row.values():
                got = width + len(row[None]) if None in row else sum(
                    v is not None for v in row.values())
                raise ParseError(source, f"row {i} (line {reader.line_num + n})",
                                 f"{width} fields", found=f"{got} fields")
            base = {"source": source, "tool": "table", "seed": meta.get("seed"),
                    "table_title": meta.get("title"), "run_key": f"row {i}"}
            try:
                got = build(row, i, base, source)
            except (ValueError, TypeError, KeyError) as exc:
                if isinstance(exc, ParseError):
                    raise
                raise ParseError(source, f"row {i}", "a well-formed table row",
                                 found=str(exc)) from exc
            for rec in got:  # finite as printed, but not in canonical units (1e308 MB/s)
                if math.isinf(rec["value"]):
                    raise ParseError(source, rec["position"], "a number that stays finite "
                                     "in canonical units", found="overflow")
            records.extend(got)
    except csv.Error as exc:
        raise ParseError(source, f"line {reader.line_num + n}", "CSV", found=str(exc)) from exc
    return Parsed(tool="table", format=f"published table ({layout})", records=records)


def _bonnie(row: dict, i: int, base: dict, source: str) -> list[dict]:
    common = {**base, "config": row["config"], "origin": row.get("origin") or None,
              "filesystem": row.get("filesystem") or None,
              "raid_level": row.get("raid_level") or None,
              "raid_members": _count(row.get("raid_members"), source, f"row {i}, raid_members"),
              "volume_size_gb": row.get("volume_size_gb") or None,
              "benchmark": "bonnie++",
              "tool_version": row.get("bonnie_version") or None}
    out = []
    for col, test, workload, op, metric, factor in _BONNIE:
        pos = f"row {i}, {col}"
        v = _num(row.get(col, ""), source, pos)
        if v is None:
            continue
        out.append({**common, "position": pos, "test": test, "workload": workload, "op": op,
                    "metric": metric, "value": v * factor})
    return out


def _ebs_nvme(row: dict, i: int, base: dict, source: str) -> list[dict]:
    common = {**base, "config": row["disk_type"], "volume_type": row["volume_type"] or None,
              "instance_type": row.get("instance_type") or None,
              "size_gib": _count(row["size_gb"], source, f"row {i}, size_gb"),
              "cost_usd_per_gb_month": row.get("cost_usd_per_gb_month") or None,
              "workload": "other"}
    out = []
    for op in ("read", "write"):
        col = f"{op}_iops"
        v = _num(row[col], source, f"row {i}, {col}")
        if v is not None:
            note = row.get(f"{col}_note") or None
            out.append({**common, "position": f"row {i}, {col}", "test": f"{op.title()} IOPS",
                        "op": op, "metric": "iops", "value": v, "flag": note, "note": note})
        col = f"{op}_mbps"
        test = f"{op.title()} Throughput"
        v = _num(row.get(col, ""), source, f"row {i}, {col}")
        note = row.get(f"{col}_note") or None
        if v is not None:
            out.append({**common, "position": f"row {i}, {col}", "test": test, "op": op,
                        "metric": "bandwidth", "value": v * units.MB, "note": note})
        for end in ("low", "high"):
            c = f"{col}_{end}"
            r = _num(row.get(c, ""), source, f"row {i}, {c}")
            if r is not None:
                out.append({**common, "position": f"row {i}, {c}", "test": test, "op": op,
                            "metric": "bandwidth", "value": r * units.MB,
                            "flag": f"range_{end}", "note": note})
    return out


def _pts_scores(row: dict, i: int, base: dict, source: str) -> list[dict]:
    hib = {"true": True, "false": False}.get(row["higher_is_better"].strip().lower())
    if hib is None:
        raise ParseError(source, f"row {i}, higher_is_better", "true or false",
                         found=row["higher_is_better"])
    piops = _count(row.get("provisioned_iops"), source, f"row {i}, provisioned_iops")
    common = {**base, "config": row["config"], "test": row["caption"], "unit": row["unit"],
              "footer": row["footer"], "benchmark": "pts", "workload": "other",
              "volume_type": row.get("volume_type") or None,
              "provisioned_iops": piops,
              "instance_type": row.get("instance_type") or None,
              "filesystem": row.get("filesystem") or None}
    out = []
    v = _num(row["score"], source, f"row {i}, score")
    if v is not None:
        out.append({**common, "position": f"row {i}, score", "metric": "score", "value": v,
                    "higher_is_better": hib})
    e = _num(row["error"], source, f"row {i}, error")
    if e is not None:
        out.append({**common, "position": f"row {i}, error", "metric": "score_max_deviation",
                    "value": e, "higher_is_better": None, "flag": "spread"})
    return out


_LAYOUTS = {
    "bonnie": (["config"] + [c for c, *_ in _BONNIE], _bonnie),
    "ebs_nvme": (["disk_type", "volume_type", "size_gb", "read_iops", "write_iops", "read_mbps",
                  "write_mbps"], _ebs_nvme),
    "pts_scores": (["caption", "footer", "unit", "higher_is_better", "config", "score",
                    "error"], _pts_scores),
}


def _source_of(path: Path) -> str:
    parts = path.resolve().parts
    if "data" in parts:
        k = len(parts) - 1 - parts[::-1].index("data")
        return "/".join(parts[k + 1:])
    return str(path)


def read_published(path_or_name: str | os.PathLike | None = None) -> pd.DataFrame:
    """Load one published table, or all of them, as ``tool="table"`` rows of the tidy frame.

    Parameters
    ----------
    path_or_name : str or path-like, optional
        A CSV path, or a table name in ``data/published`` (``"seed000_bonnie_ec2_ebs"``, with
        or without ``.csv``). ``None`` loads every table there.

    Returns
    -------
    pandas.DataFrame
        The tidy frame (passes :func:`ebsstats.validate`); ``source`` is the CSV path
        relative to ``data/``, ``position`` ``row N, <column>``, plus ``seed`` and the
        table's own columns.

    Examples
    --------
    >>> import ebsstats as es
    >>> df = es.read_published()
    >>> sorted(df["seed"].unique())[:1]
    ['000_8d7be2063a6f0e21.txt']
    """
    if path_or_name is None:
        paths = sorted(published_dir().glob("*.csv"))
    else:
        p = Path(path_or_name)
        if not p.exists():
            name = p.name if p.suffix == ".csv" else f"{p.name}.csv"
            p = published_dir() / name
            if not p.exists():
                raise FileNotFoundError(f"no published table {path_or_name!r} "
                                        f"(looked in {published_dir()})")
        paths = [p]
    frames = []
    for p in paths:
        parsed = parse(load_text(p), _source_of(p))
        frames.append(frame_of(parsed))
    return _columns.concat(frames)


# the reader this module registers (ebsstats.io._registry): sniff, then parse text
READER = Reader(tool="table", name=__name__, detect=sniff, parse=text_parser(parse),
                memory_factor=MEMORY_FACTOR)
