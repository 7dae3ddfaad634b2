"""Helpers for the report notebooks: read the data, choose defaults from it, say what a section
needs when the data cannot support it, show tables in display units, and show library warnings
in a "caveats" box instead of hiding them.

Every notebook calls :func:`setup` once; scripts never need it.
"""

from __future__ import annotations

import html
import math
import os
import re
import warnings
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ebsstats import units
from ebsstats._docs import renamed
from ebsstats.schema import storage_first

__all__ = ["setup", "load", "notes_summary", "needs", "choose", "most_common", "stage_runs",
           "table", "note", "group_column", "priced"]

#: Columns that can stand in for a missing ``config``, in order of preference.
GROUP_FALLBACKS = ("volume_type", "instance_type", "filesystem", "volume", "host")

#: The metrics a default analysis prefers, in order, when a test reports several.
PREFERRED_METRICS = ("iops", "bandwidth", "ops", "tps", "score", "lat_mean", "clat_mean")


def _format(x: float) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if isinstance(x, float) and math.isinf(x):
        return "∞" if x > 0 else "−∞"
    a = abs(x)
    if a >= 1000:
        return f"{x:,.0f}"
    if a >= 1 or a == 0:
        return f"{x:.3f}".rstrip("0").rstrip(".") if a < 100 else f"{x:.1f}"
    return f"{x:.3g}"


class _Caveats:
    """Collect warnings raised while a cell runs; show them under the cell in a small box."""

    def __init__(self):
        self.seen: Counter = Counter()
        self.pending: list[str] = []

    def showwarning(self, message, category, filename, lineno, file=None, line=None):
        text = f"{category.__name__}: {message}"
        if issubclass(category, (DeprecationWarning, PendingDeprecationWarning, ResourceWarning)):
            return  # library internals, not about the data
        self.seen[text] += 1
        if self.seen[text] == 1:
            self.pending.append(text)

    def flush(self, *_):
        if not self.pending:
            return
        from IPython.display import HTML, display

        items = "".join(f"<li>{html.escape(t)}</li>" for t in self.pending[:8])
        more = len(self.pending) - 8
        if more > 0:
            items += f"<li>… and {more} more</li>"
        self.pending = []
        display(HTML('<div style="border-left:4px solid #e0a000;background:#fff8e1;'
                     'padding:.3em .8em;margin:.4em 0;font-size:90%"><b>Caveats</b> '
                     f'(warnings from the analysis)<ul style="margin:.2em 0">{items}</ul></div>'))


_CAVEATS = _Caveats()


def setup(max_columns: int = 40, dpi: int = 100) -> None:
    """Pandas shows floats with 3–4 significant digits (thousands separated, never ``9.6e+04``
    for a rate; a missing value as "—"), matplotlib draws at ``dpi`` with a light grid, and
    warnings are collected and shown after each cell in a "caveats" box.

    Examples
    --------
    >>> setup()
    >>> import pandas as pd
    >>> pd.get_option("display.float_format")(96268.93)
    '96,269'
    >>> pd.reset_option("^display")  # other doctests in this process print plain floats
    """
    import matplotlib as mpl

    pd.set_option("display.float_format", _format)
    pd.set_option("display.max_columns", max_columns)
    pd.set_option("display.max_colwidth", 200)
    pd.set_option("display.width", 160)
    mpl.rcParams.update({"figure.dpi": dpi, "axes.grid": True, "grid.alpha": 0.3,
                         "axes.spines.top": False, "axes.spines.right": False,
                         "legend.fontsize": "small", "figure.autolayout": False})
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - ipykernel is a dependency
        return
    ip = get_ipython()
    if ip is None:  # a script: warnings go to stderr as usual
        return
    warnings.simplefilter("default")
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    warnings.showwarning = _CAVEATS.showwarning
    if _CAVEATS.flush not in ip.events.callbacks["post_run_cell"]:
        ip.events.register("post_run_cell", _CAVEATS.flush)


def load(data: str | os.PathLike, series: str | os.PathLike | None = None, *,
         with_series: bool = False):
    """The results frame of a report's ``data`` (a Parquet file written by ``ebsstats report``
    or ``ingest``, or a folder/file of outputs), and with ``with_series=True`` also the series
    frame (from ``series``, or read from the folder).

    Examples
    --------
    >>> df = load("data/samples/fio")                      # doctest: +SKIP
    """
    from ebsstats.schema import META_COLUMNS

    if with_series:
        df, ts = _load(data, series, True)
        missing = {c: pd.Series(pd.NA, index=ts.index, dtype=dtype)
                   for c, dtype in META_COLUMNS.items() if c not in ts.columns}
        return df, ts.assign(**missing) if missing else ts  # a frame with no series at all
    return _load(data, series, False)


def _load(data, series, with_series):
    from ebsstats.io.folder import read
    from ebsstats.io.parquet import read_parquet, read_parquet_data
    from ebsstats.schema import empty_series

    p = str(data)
    if p.endswith(".parquet"):
        df = read_parquet(p)
        fails = os.path.join(os.path.dirname(p), "failures.parquet")
        if os.path.exists(fails):  # written beside the results by ``ebsstats report``
            f = pd.read_parquet(fails)
            df.attrs["failures"] = f.astype(object).where(f.notna(), None).to_dict("records")
        if not with_series:
            return df
        if series and os.path.exists(series):
            return df, read_parquet(series)
        return df, empty_series()  # load() adds the metadata columns
    df = read_parquet_data(p) if os.path.isdir(p) else None  # (a folder of Parquet files)
    if df is not None:
        return (df, empty_series()) if with_series else df
    if with_series:
        return read(p, series=True, full=True)[:2]
    return read(p)


def note(text: str, label: str = "Not shown") -> None:
    """Show one sentence in a grey box, under ``label``: a section the data cannot support, and
    why (``Not shown``), or what a page chose of the data (``Selected``)."""
    try:
        from IPython.display import Markdown, display
    except ImportError:  # pragma: no cover
        print(f"{label}: {text}")
        return
    display(Markdown(f"> **{label}:** {text}"))


def notes_summary(failures: pd.DataFrame) -> pd.DataFrame:
    """The notes of a read (its failures of kind ``"note"``) once per note, its numbers aside
    (sysbench's ``WARNING: --max-time is deprecated`` on every run of a loop is one note, and so
    are fio's implausible latencies of 212 directions, each with its own figures): how many
    times it was noted, in how many files, and an example file, the most noted first. A number
    is one standing alone (``line 38``, ``15.3797 s``, ``2,066``), not one inside a name or a
    version (``lat_p95``, ``fio-3.40``, ``2.1.8``); a note whose numbers never differ is shown
    with them; the notes themselves are in the read's failures.

    Examples
    --------
    >>> f = pd.DataFrame({"source": ["a.txt", "a.txt", "b.txt", "c.json"], "kind": ["note"] * 4,
    ...                   "tool": ["sysbench"] * 3 + ["fio"], "reason": ["WARNING: x",
    ...                   "WARNING: x", "lat_min (line 38) printed as zero",
    ...                   "clat_mean 15.3797 s is longer than lat_mean 0.000187 s (fio 2.1.8)"]})
    >>> notes_summary(f).reset_index().values.tolist()  # doctest: +NORMALIZE_WHITESPACE
    [['sysbench', 'WARNING: x', 2, 1, 'a.txt'],
     ['sysbench', 'lat_min (line 38) printed as zero', 1, 1, 'b.txt'],
     ['fio', 'clat_mean 15.3797 s is longer than lat_mean 0.000187 s (fio 2.1.8)', 1, 1,
      'c.json']]
    """
    noted = failures[failures["kind"] == "note"]
    reason = noted["reason"].astype(str)
    shape = reason.str.replace(_NUMBER_ALONE, "…", regex=True)
    out = noted.assign(note=shape, reason=reason).groupby(
        ["tool", "note"], sort=False, dropna=False).agg(
        notes=("source", "size"), files=("source", "nunique"), example=("source", "first"),
        texts=("reason", lambda texts: _numbers_kept(texts.unique())))
    out = out.reset_index()
    out["note"] = out["texts"]
    out = out.drop(columns=["texts"]).set_index(["tool", "note"])
    return out.sort_values("notes", ascending=False, kind="stable")


def _numbers_kept(texts) -> str:
    """The texts of one note (equal but for their numbers) as one: each number that all of
    them share kept, the others ``…``.

    >>> _numbers_kept(["a 1 b 0.5 c", "a 2 b 0.5 c"])
    'a … b 0.5 c'
    """
    numbers = [re.findall(_NUMBER_ALONE, t) for t in texts]
    shape = re.sub(_NUMBER_ALONE, "\0", texts[0])
    parts = shape.split("\0")
    kept = [vals[0] if len(set(vals)) == 1 else "…" for vals in zip(*numbers, strict=True)]
    return "".join(p + k for p, k in zip(parts, [*kept, ""], strict=True))


# a number standing alone: not after a letter, digit, "_", "." or "-" (lat_p95, fio-3.40), nor
# followed by one of those or a "." (a version's 2.1.8 stays whole)
_NUMBER_ALONE = r"(?<![\w.-])\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])"


def needs(ok: bool, text: str) -> bool:
    """``ok``, and when it is false show ``text`` (what the section would need) as a note.

    >>> needs(True, "no time series")
    True
    """
    if not ok:
        note(text)
    return bool(ok)


def most_common(values: pd.Series, default=None):
    """The most frequent value (ties: the first in sorted order), or ``default`` when empty.

    >>> most_common(pd.Series(["b", "a", "b", "a", "c"]))
    'a'
    """
    counts = values.dropna().astype(str).value_counts()
    if not len(counts):
        return default
    top = counts.max()
    return sorted(counts[counts == top].index)[0]


def group_column(data: pd.DataFrame, preferred: str = "config") -> str:
    """``preferred`` when the data fill it, else the first of :data:`GROUP_FALLBACKS` with two
    or more values (a folder of outputs named by ``--pattern '{instance_type}/…'`` has no
    ``config`` but does compare instance types), else ``preferred``.

    >>> group_column(pd.DataFrame({"config": [None, None], "instance_type": ["a", "b"]}))
    'instance_type'
    """
    if preferred in data and data[preferred].notna().any():
        return preferred
    for col in GROUP_FALLBACKS:
        if col in data and data[col].nunique() >= 2:
            return col
    return preferred


def local_zone(data: pd.DataFrame, tz: str | None = None) -> str | None:
    """The IANA zone whose local days a page's time windows follow: ``tz`` when given, else the
    one zone :func:`ebsstats.stats.calendar.row_zones` gives every row (the zone the drift
    analyses read the rows in by default), else ``None`` (UTC: rows of several zones). A
    slow-member window of one local day then matches the days the campaign was run in.

    >>> local_zone(pd.DataFrame({"region": ["us-east-1", "us-east-1"]}))
    'America/New_York'
    >>> local_zone(pd.DataFrame({"region": ["us-east-1", "eu-west-1"]})) is None
    True
    """
    from ebsstats.stats.calendar import row_zones

    zones = pd.unique(row_zones(data, tz=tz))
    return str(zones[0]) if len(zones) == 1 else None


def ingest_line(data: pd.DataFrame) -> str:
    """What a read holds in one line: values, runs and files; the summary rows a tool printed
    beside its runs (a PTS mean, fio's "All clients" aggregate) are said to be no runs only
    when there are some.

    >>> d = pd.DataFrame({"run_id": ["a", "a", "b"], "source": ["x", "x", "y"],
    ...                   "flag": [None, None, "reported_mean"]})
    >>> ingest_line(d)
    '3 values from 1 run in 2 files (1 summary row: reported_mean, not counted as runs)'
    """
    from ebsstats import schema

    flags = (data["flag"].astype("string") if "flag" in data
             else pd.Series(pd.NA, index=data.index, dtype="string"))
    summary = flags.isin(schema.SUMMARY_FLAGS).fillna(False).to_numpy(bool)
    runs, files = data.loc[~summary, "run_id"].nunique(), data["source"].nunique()
    line = (f"{len(data):,} values from {runs:,} run{'s' if runs != 1 else ''} in {files:,} "
            f"file{'s' if files != 1 else ''}")
    if summary.any():
        kinds = ", ".join(sorted(flags[summary].unique()))
        n = int(summary.sum())
        line += f" ({n:,} summary row{'s' if n > 1 else ''}: {kinds}, not counted as runs)"
    return line


def days_seen(data: pd.DataFrame, tz: str | None = None, time: str = "timestamp") -> int:
    """How many local calendar days the rows fall on: the days a drift analysis clusters by
    (:func:`ebsstats.stats.calendar.local_calendar`, each row in its region's zone unless
    ``tz``).

    >>> t = pd.to_datetime(["2024-03-04 03:00", "2024-03-04 06:00"], utc=True)
    >>> d = pd.DataFrame({"timestamp": t, "region": "us-east-1"})
    >>> days_seen(d), days_seen(d, tz="UTC")
    (2, 1)
    """
    from ebsstats.stats.calendar import local_calendar

    return int(local_calendar(data, time, tz=tz)["date"].nunique()) if len(data) else 0


def stage_runs(data: pd.DataFrame) -> pd.DataFrame:
    """The measurement runs: rows whose ``stage`` is ``run`` when the data label stages (the
    first-write passes and burst runs are not), else every row."""
    if "stage" in data and data["stage"].astype("string").eq("run").any():
        return data[data["stage"].astype("string").eq("run").fillna(False)]
    return data


def priced(data: pd.DataFrame, *, as_of=None, region: str | None = "us-east-1",
           by: str = "config") -> pd.DataFrame:
    """The rows of the configurations (``by``) whose volume types the price book prices on
    the date :func:`ebsstats.cost` would price them (``as_of``, else the configuration's first
    run), with a note naming the types left out (a local disk, a type before its launch, a
    region the book does not cover): the cost pages show what can be priced instead of failing.

    >>> d = pd.DataFrame({"config": ["a", "b"], "volume_type": ["gp3", "local"],
    ...                   "timestamp": pd.to_datetime(["2024-01-01"] * 2, utc=True)})
    >>> list(priced(d)["config"])  # doctest: +ELLIPSIS
    <...Markdown object>
    ['a']
    """
    from ebsstats.pricing import is_priced, price_date

    if data.empty or "volume_type" not in data:
        return data
    keep = pd.Series(True, index=data.index)
    left_out: set[str] = set()
    key = by if by in data else "volume_type"
    for _, g in data.groupby(key, observed=True, dropna=False, sort=False):
        day = price_date(as_of, g["timestamp"] if "timestamp" in g else None)  # as cost() does
        cols = ["volume_type"] + (["instance_type"] if "instance_type" in g else [])
        bad = [str(r[0]) for r in g[cols].drop_duplicates().itertuples(index=False)
               if pd.notna(r[0]) and not is_priced(str(r[0]), day, region=region,
                                                   instance_type=r[1] if len(r) > 1 and
                                                   pd.notna(r[1]) else None)]
        if bad:
            keep[g.index] = False
            left_out.update(bad)
    if left_out:
        note(f"no price for volume type {', '.join(sorted(left_out))} in {region} on the "
             "runs' dates: those configurations are left out of the cost pages.")
    return data[keep]


def choose(data: pd.DataFrame, *, metric: str | None = None, test: str | None = None,
           op: str | None = None, by: Sequence[str] = ("config",),
           metrics: Sequence[str] = PREFERRED_METRICS, params: dict | None = None) -> dict:
    """Defaults from the data: the test with the most runs (among those with a preferred
    metric, and among those that measure storage when there are any: not sysbench's ``cpu``
    or ``memory`` mode, :func:`ebsstats.schema.measures_storage`), its most common op and its
    first preferred metric; given values are kept. When
    that test's runs differ in a workload parameter within a configuration (``by``: a fio job
    name run at 4 KiB and at 1 MiB, a sysbench ``cpu`` test at several ``--cpu-max-prime``),
    the most run combination of those parameters is taken and a note says which, and what was
    left out: values of different workloads are no repetitions of one another. ``params``
    (``{column: value}``) fixes parameters first.

    Returns ``{"metric", "test", "op", "runs", "params"}`` (``runs``: the selected rows,
    values present; ``params``: the parameters fixed, given or chosen).

    Examples
    --------
    >>> df = pd.DataFrame({"run_id": ["1", "1", "2", "3"], "test": ["a", "a", "a", "b"],
    ...                    "op": ["read"] * 4, "metric": ["iops", "bandwidth", "iops", "iops"],
    ...                    "value": [1.0, 2.0, 3.0, 4.0], "flag": [None] * 4})
    >>> {k: v for k, v in choose(df).items() if k != "runs"}
    {'metric': 'iops', 'test': 'a', 'op': 'read', 'params': {}}
    """
    from ebsstats.stats.overview import select

    pool = select(data, dropna=True, **(params or {}))
    pool = pool[pool["metric"].astype(str).isin(list(metrics))] if metric is None else \
        pool[pool["metric"].astype(str) == metric]
    if test is not None:
        pool = pool[pool["test"].astype(str) == test]
    if op is not None:
        pool = pool[pool["op"].astype(str) == op]
    if not len(pool):
        return {"metric": metric, "test": test, "op": op, "runs": pool}
    if test is None:
        counted = storage_first(pool)  # (sysbench's cpu and memory modes: only if alone)
        per_test = counted.groupby(counted["test"].astype(str))["run_id"].nunique()
        test = sorted(per_test[per_test == per_test.max()].index)[0]
        pool = pool[pool["test"].astype(str) == test]
    if op is None:
        op = most_common(pool["op"])  # (None when no row of the test has an op: a PTS score)
        pool = pool[pool["op"].isna()] if op is None else pool[pool["op"].astype(str) == op]
    if metric is None:
        have = set(pool["metric"].astype(str))
        metric = next(m for m in metrics if m in have)
        pool = pool[pool["metric"].astype(str) == metric]
    pool, fixed = _one_workload(pool, by, test)
    return {"metric": metric, "test": test, "op": op, "runs": pool,
            "params": {**(params or {}), **fixed}}


def workload_columns(data: pd.DataFrame, by: Sequence[str]) -> list[str]:
    """The workload parameters (:data:`ebsstats.schema.WORKLOAD_PARAMETERS`) whose values
    differ within a group of ``data`` by ``by`` and the test, op and metric: a page that
    checks every group (regressions) adds them to its grouping, so that each workload is
    checked against its own history.

    >>> d = pd.DataFrame({"config": ["a"] * 3, "test": ["t"] * 3, "block_size": [1, 1, 2],
    ...                   "threads": [1, 1, 1], "value": [1.0, 2.0, 3.0]})
    >>> workload_columns(d, ["config"])
    ['block_size']
    """
    from ebsstats.stats._checks import mixed_items

    keys = [c for c in (*by, "test", "op", "metric") if c in data]
    return _mixed_columns(mixed_items(data, list(dict.fromkeys(keys))))


def _mixed_columns(said: dict) -> list[str]:
    """The columns named by :func:`ebsstats.stats._checks.mixed_items`, in order."""
    return list(dict.fromkeys(col for items in said.values() for col, _vals, _n in items))


def _one_workload(pool: pd.DataFrame, by: Sequence[str], test) -> tuple[pd.DataFrame, dict]:
    """The rows of the most run combination of the workload parameters that differ within a
    configuration (:func:`group_column` of ``by``), and that combination; a note names what
    was mixed and what is left out. Parameters that differ only between configurations are
    what the configurations compare: kept."""
    from ebsstats.stats._checks import _shown, mixed_items
    from ebsstats.stats._core import key_value

    g = group_column(pool, by[0]) if by else None
    keys = [g] if g in pool and pool[g].notna().any() else []
    said = mixed_items(pool, keys)
    if not said:
        return pool, {}
    cols = _mixed_columns(said)
    combos = pool.assign(**{c: pool[c].astype(object) for c in cols}).groupby(
        cols, dropna=False, sort=False)["run_id"].nunique()
    best = combos[combos == combos.max()]
    key = sorted(best.index, key=lambda k: tuple(map(str, k if isinstance(k, tuple) else (k,))))[0]
    key = key if isinstance(key, tuple) else (key,)
    fixed = dict(zip(cols, map(key_value, key), strict=True))  # (missing: None)
    keep = pd.Series(True, index=pool.index)
    for c, v in fixed.items():
        keep &= pool[c].isna() if v is None else (pool[c].astype(object) == v).fillna(False)
    runs = pool[keep.astype(bool)]
    mixes = [_shown(mixed_items(pool[[c]], [])[()][0]) for c in cols]  # (each column once,
    # its values over every configuration)
    note(f"The runs of {test!r} are not all one workload ({'; '.join(mixes)}). This page takes "
         f"the most run combination, {', '.join(f'{c}={v}' for c, v in fixed.items())} "
         f"({runs['run_id'].nunique()} of {pool['run_id'].nunique()} runs); set `params` to "
         "choose another.", label="Selected")
    return runs, fixed


_VALUE_COLUMNS = ("value", "median", "mean", "average", "mad", "sd", "min", "max", "shift",
                  "steady_level", "first_level", "p5", "p95", "iqr", "level_start", "level_end",
                  "level", "baseline_median", "plateau", "observed", "predicted", "expected",
                  "new", "pi")


def _value_column(name: str) -> bool:
    base = name
    for suffix in ("_ci_low", "_ci_high", "_low", "_high"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
            break
    return base in _VALUE_COLUMNS


def _cell(v) -> str:
    if v is None or v is pd.NA or v is pd.NaT or (isinstance(v, float) and math.isnan(v)):
        return "—"
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, float):
        return _format(v)
    if isinstance(v, pd.Timestamp):
        return v.strftime("%Y-%m-%d %H:%M")
    return str(v)


@renamed(frame="data")
def table(data: pd.DataFrame | pd.Series, *, unit: str | None = None,
          columns: Sequence[str] | None = None, max_rows: int = 40, index: bool = False,
          drop_empty: bool = True):
    """A data as an HTML table a storage engineer reads: value columns converted from the
    canonical ``unit`` to display units with the unit in the header (``B/s`` → MB/s, ``s`` →
    ms, ``IO/s`` → IOPS), 3–4 significant digits, missing values as "—", all-empty columns
    left out, at most ``max_rows`` rows (the rest counted), horizontally scrollable.

    Examples
    --------
    >>> t = table(pd.DataFrame({"config": ["a"], "median": [2.5e8], "cv": [float("nan")]}),
    ...           unit="B/s")
    >>> "median (MB/s)" in t.data and "250" in t.data and "cv" not in t.data
    True
    """
    from IPython.display import HTML

    df = data.to_frame() if isinstance(data, pd.Series) else data.copy()
    if index:
        df = df.reset_index().rename(columns={"index": ""})
    if columns is not None:
        df = df[[c for c in columns if c in df.columns]]
    df = _warning_not_verdict(df)
    if drop_empty and len(df):
        df = df[[c for c in df.columns if not df[c].isna().all()]]
    df = _display_units(df, unit)
    df, n_empty = _drop_valueless_rows(df)
    if not len(df):
        return HTML("<p><i>(no rows)</i></p>")
    extra = len(df) - max_rows
    notes = ([f"… {extra} more row(s) not shown"] if extra > 0 else []) + \
        ([f"{n_empty} row(s) without any value left out"] if n_empty else [])
    foot = "".join(f'<p style="font-size:85%;color:#555;margin:.2em 0">{n}</p>' for n in notes)
    return HTML(_html_table(df.head(max_rows)) + foot)


def _warning_not_verdict(df: pd.DataFrame) -> pd.DataFrame:
    """``warning`` left blank where it only repeats the row's ``verdict`` (an untested
    group's ``not testable: ...`` is both; page 07 of a campaign without history printed each
    reason twice).

    >>> d = pd.DataFrame({"verdict": ["not testable: 0 runs", "~"],
    ...                   "warning": ["not testable: 0 runs", "short regime"]})
    >>> _warning_not_verdict(d)["warning"].tolist()
    [None, 'short regime']
    """
    if not {"verdict", "warning"} <= set(df.columns):
        return df
    same = df["warning"].astype("string").eq(df["verdict"].astype("string")).fillna(False)
    if same.any():
        df = df.assign(warning=df["warning"].astype(object).where(~same, None))
    return df


def _display_units(df: pd.DataFrame, unit: str | None) -> pd.DataFrame:
    """Value columns in display units: one ``unit`` for all (named in the headers), else
    row by row from a ``unit`` column (which then shows the display unit)."""
    values = [c for c in df.columns
              if _value_column(str(c)) and pd.api.types.is_numeric_dtype(df[c])]
    if unit:
        factor, label = units.display(unit)
        for c in values:
            df[c] = df[c].astype("float64") * factor
        return df.rename(columns={c: f"{c} ({label})" for c in values})
    if "unit" in df.columns and values:
        u = df["unit"].astype("string")
        factor = u.map(lambda x: units.display(x)[0] if pd.notna(x) else 1.0).astype("float64")
        for c in values:
            df[c] = df[c].astype("float64") * factor.to_numpy()
        df["unit"] = u.map(lambda x: units.display(x)[1] if pd.notna(x) else x)
    return df


def _drop_valueless_rows(df: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Rows whose every float column is missing are left out (counted), unless all are, or
    the row says why in a ``verdict``, ``warning`` or ``note`` column (a drift test's "not
    estimable: each weekday must be seen on at least 2 days" was left out with its numbers).

    >>> d = pd.DataFrame({"x": [1.0, None, None], "y": [2.0, None, None],
    ...                   "verdict": ["drift", "not estimable: 1 day", None]})
    >>> kept, n = _drop_valueless_rows(d); kept["verdict"].tolist(), n
    (['drift', 'not estimable: 1 day'], 1)
    """
    numeric = [c for c in df.columns if pd.api.types.is_float_dtype(df[c])]
    if len(numeric) < 2 or not len(df):
        return df, 0
    empty = df[numeric].isna().all(axis=1)
    for c in ("verdict", "warning", "note"):
        if c in df.columns:
            empty &= df[c].astype("string").fillna("").str.strip().eq("")
    n = int(empty.sum())
    return (df[~empty], n) if 0 < n < len(df) else (df, 0)


_LONG_TEXT = 80  # characters: a text column with a longer cell is given room to wrap


def _html_table(shown: pd.DataFrame) -> str:
    right = [pd.api.types.is_numeric_dtype(shown[c]) and not pd.api.types.is_bool_dtype(shown[c])
             for c in shown.columns]
    head = "".join(f'<th style="text-align:{"right" if r else "left"}">{html.escape(str(c))}</th>'
                   for c, r in zip(shown.columns, right, strict=True))
    # a column of long texts (warnings, methods) wraps in a column wide enough to read, not
    # in one a few words wide that makes every row a tall narrow block
    left = ['<td style="text-align:left;min-width:40em">'
            if not r and shown[c].astype("string").str.len().max() > _LONG_TEXT
            else '<td style="text-align:left">' for c, r in zip(shown.columns, right, strict=True)]
    rows = "".join("<tr>" + "".join(
        f'<td style="text-align:right;white-space:nowrap">{html.escape(_cell(v))}</td>' if r
        else f'{td}{html.escape(_cell(v))}</td>'
        for v, r, td in zip(row, right, left, strict=True)) + "</tr>"
        for row in shown.itertuples(index=False))
    return ('<div style="overflow-x:auto;max-width:100%"><table class="dataframe">'
            f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>")
