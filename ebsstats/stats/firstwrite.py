"""First-write (first-touch) penalty: how much slower is the first touch of a block, with a CI.

:func:`first_write` estimates the penalty from whichever evidence the data hold, one row per
(group, evidence):

``passes``
    Repeated passes of the same test over the same volume (results frame with a ``pass``
    column, or ``timestamp`` order): the first pass against the later ones. Runs that differ
    in a workload parameter (:data:`ebsstats.schema.WORKLOAD_PARAMETERS`: iodepth, threads,
    rw, block size...) are separate groups, each named in its row.
``bonnie``
    bonnie++ block write against rewrite, first run against later runs: the per-run ratio
    ``block write / rewrite`` removes the volume's level, and its drop in the first run is the
    penalty (rewrite rewrites blocks the block-write phase has just written).
``sysbench``
    sysbench ``prepare`` (writes every file block once) against later ``seqwr`` runs.
``offsets``
    Offset-resolved fio logs (``log_offset=1``): every I/O is a first or a repeat touch of its
    LBA bucket; the log latency is regressed on the touched-before indicator *and* on the time
    regimes of the repeat touches, so a burst bucket running dry (keyed on time) is not
    mistaken for a first-touch penalty (keyed on offsets; see :doc:`/questions/firstwrite`).

The penalty is always in the "slower by" sense: ``penalty = later rate / first rate`` (for a
latency, ``first latency / later latency``); 1.0 means no penalty, 5.0 means the first touch
takes five times as long.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from ebsstats._docs import renamed
from ebsstats.schema import WORKLOAD_PARAMETERS
from ebsstats.stats._core import adjust_pvalues, direction_or_reason
from ebsstats.stats.changepoint import changepoints

__all__ = ["first_write", "touch_table", "synthetic_touch_log", "EVIDENCE"]

EVIDENCE = ("passes", "bonnie", "sysbench", "offsets")
RATE_METRICS = ("bandwidth", "iops", "ops")
_COLS = ["evidence", "test", "op", "metric", "penalty", "penalty_ci_low", "penalty_ci_high",
         "confidence", "n_first", "n_later", "first_level", "later_level", "naive_ratio",
         "time_effect", "time_change_at", "attribution", "detected", "bytes_to_clear",
         "time_to_clear", "cleared", "coverage", "p_value", "p_adjusted", "method"]


# ---------------------------------------------------------------------------------------------
# helpers


def log_ratio_ci(first: Sequence[float], later: Sequence[float], confidence: float = 0.95
                 ) -> tuple[float, float, float]:
    """Ratio of geometric means ``later / first`` with a pooled-variance t interval on logs.

    Works with a single first value (the usual case: one fresh-volume pass): the spread comes
    from the later values, and the interval is then the t prediction interval of a new value
    around their mean, turned into a ratio. Needs at least three values in all.

    Examples
    --------
    >>> r, lo, hi = log_ratio_ci([20.0], [100.0, 105.0, 95.0, 100.0])
    >>> round(r, 3), lo < 5 < hi
    (4.997, True)
    """
    a = np.log(np.asarray(first, dtype=float))
    b = np.log(np.asarray(later, dtype=float))
    n1, n2 = a.size, b.size
    if n1 == 0 or n2 == 0:
        return math.nan, math.nan, math.nan
    d = float(b.mean() - a.mean())
    df = n1 + n2 - 2
    if df < 1:
        return math.exp(d), math.nan, math.nan
    ss = float(((a - a.mean()) ** 2).sum() + ((b - b.mean()) ** 2).sum())
    s = math.sqrt(ss / df)
    se = s * math.sqrt(1.0 / n1 + 1.0 / n2)
    q = float(stats.t.ppf(0.5 + confidence / 2.0, df))
    return math.exp(d), math.exp(d - q * se), math.exp(d + q * se)


def _by_cols(data: pd.DataFrame, by) -> list[str]:
    """The volume: passes are passes *of one volume* (default ``volume``, else ``config``)."""
    if by is None:
        for c in ("volume", "config"):
            if c in data.columns and data[c].notna().any():
                return [c]
        return []
    return [by] if isinstance(by, str) else list(by)


def _groups(df: pd.DataFrame, cols: list[str]):
    if not cols:
        yield (), df
        return
    for key, g in df.groupby(cols, sort=True, observed=True, dropna=False):
        yield (key if isinstance(key, tuple) else (key,)), g


def _pass_order(df: pd.DataFrame) -> pd.Series | None:
    """Numeric pass of each row: the ``pass`` column, else the rank of the timestamp, else
    ``repetition``; ``None`` when the frame holds none of them. The time comes before the
    repetition: a repetition counts the runs of one file or session and starts again at the
    next (two sessions' first runs were both "the first pass": a 5x penalty read as 2.2x,
    not detected)."""
    if "pass" in df.columns:
        p = pd.to_numeric(df["pass"], errors="coerce")
        if p.notna().any():
            return p
    if "timestamp" in df.columns:
        t = pd.to_datetime(df["timestamp"], utc=True, errors="coerce")
        if t.notna().any():
            return t.rank(method="dense")
    if "repetition" in df.columns:
        p = pd.to_numeric(df["repetition"], errors="coerce")
        if p.notna().any():
            return p
    return None


def _per_pass(g: pd.DataFrame, col: str, p0) -> tuple[np.ndarray, np.ndarray]:
    """One value a pass, the geometric mean of its rows (several jobs of one report, several
    runs given one pass number), for the first pass ``p0`` and each later one: the pass is the
    unit of replication. Counting a pass's rows as replicates made 4 jobs of 4 passes look
    like 4 first and 12 later values: the interval covered 57 % of the time, not 95 %."""
    logs = np.log(g[col].astype(float).to_numpy())
    means = pd.Series(logs).groupby(g["_pass"].to_numpy()).mean()
    return (np.exp(means[means.index == p0].to_numpy()),
            np.exp(means[means.index > p0].to_numpy()))


def _ran_first(lost: pd.DataFrame, kd: dict) -> bool:
    """Whether the test ``kd`` has rows in its volume's first pass that hold no value."""
    if lost.empty:
        return False
    m = np.ones(len(lost), dtype=bool)
    for k, v in kd.items():
        col = lost[k]
        m &= (col.isna().to_numpy() if pd.isna(v) else (col == v).fillna(False).to_numpy())
    return bool(m.any())


def _untestable(n_first: int, n_later: int) -> str:
    """What a row says when its design gives no interval."""
    return (f"; not testable: {n_first} first and {n_later} later pass(es) leave no degree of "
            "freedom for the spread, so the ratio has no interval (run the test at least twice "
            "more after the first pass)")


def _log_ratio_p(first: np.ndarray, later: np.ndarray) -> float:
    """Two-sided pooled t-test p of the log ratio (the test dual to :func:`log_ratio_ci`)."""
    a, b = np.log(np.asarray(first, float)), np.log(np.asarray(later, float))
    df = a.size + b.size - 2
    if a.size == 0 or b.size == 0 or df < 1:
        return math.nan
    ss = float(((a - a.mean()) ** 2).sum() + ((b - b.mean()) ** 2).sum())
    se = math.sqrt(ss / df) * math.sqrt(1.0 / a.size + 1.0 / b.size)
    d = float(b.mean() - a.mean())
    if se == 0:
        return 1.0 if d == 0 else 0.0
    return float(2 * stats.t.sf(abs(d / se), df))


def _row(keys: dict, **kw) -> dict:
    r = dict.fromkeys(_COLS, math.nan)
    r.update(attribution=None, detected=None, cleared=None, method="")
    r.update(keys)
    r.update(kw)
    return r


# ---------------------------------------------------------------------------------------------
# evidence: passes, bonnie, sysbench (results frame)


def _one_volume_only(d: pd.DataFrame, by_cols: list[str], why: list[str]) -> pd.DataFrame:
    """Drop the groups that hold several volumes (passes of different volumes), saying so."""
    if "volume" not in d.columns or "volume" in by_cols:
        return d
    nvol = (d.groupby(by_cols, dropna=False, observed=True)["volume"].nunique()
            if by_cols else pd.Series([d["volume"].nunique()]))
    mixed = nvol[nvol > 1]
    if not len(mixed):
        return d
    why.append(f"passes: {len(mixed)} group(s) of {by_cols or 'the frame'} hold several "
               "volumes; passes of different volumes are not compared (a slow fresh "
               "volume is not a first-write penalty): use by='volume'")
    if not by_cols:
        return d.iloc[0:0]
    return d[~d.set_index(by_cols).index.isin(mixed.index)]


def _clear_cost(df, g, p0, lo) -> tuple[float, float]:
    """Bytes and seconds of the first pass (upper bound of what clears the penalty)."""
    if "source" not in g.columns or "metric" not in df.columns:
        return math.nan, math.nan
    srcs = set(g.loc[g["_pass"] == p0, "source"].astype(str))
    sub = df[df["source"].astype(str).isin(srcs)]
    io = sub.loc[sub["metric"].astype(str) == "io_bytes", "value"]
    rt = sub.loc[sub["metric"].astype(str) == "runtime", "value"]
    return (float(io.sum()) if len(io) and lo > 1.0 else math.nan,
            float(rt.sum()) if len(rt) and lo > 1.0 else math.nan)


def _pass_keys(d: pd.DataFrame, by_cols: list[str]) -> tuple[list[str], set[str]]:
    """The columns that make one test's passes (beyond ``by_cols``), and those a row names:
    runs that differ in another workload parameter (iodepth, threads, rw, ...) are not passes
    of one test; each setting is its own group, named in its row."""
    keys = [c for c in ("tool", "test", "workload", "op", "metric", "block_size")
            if c in d.columns]
    params = [c for c in WORKLOAD_PARAMETERS if c in d.columns and c not in keys
              and c not in by_cols and d[c].nunique(dropna=False) > 1]
    shown = {*by_cols, *params}
    if "block_size" in d.columns and d["block_size"].nunique(dropna=False) > 1:
        shown.add("block_size")
    return keys + params, shown


def _pass_rows(df, by_cols, value, metrics, why) -> tuple[pd.DataFrame | None, pd.DataFrame]:
    """The rows with a positive value, each with its pass (``_pass``) and its volume's first
    pass (``_volfirst``, found before values are checked: a first pass with no value must not
    hand its place to the second), and the first-pass rows that hold no value; ``None`` (and
    why) when there is nothing to compare."""
    d = df[df["metric"].astype(str).isin(metrics)].copy() if "metric" in df else df.copy()
    order = _pass_order(d) if len(d) else None
    if order is not None:
        d["_pass"] = order
        d = _one_volume_only(d[d["_pass"].notna()], by_cols, why)
        d["_volfirst"] = d.groupby(by_cols, dropna=False, observed=True)["_pass"].transform(
            "min") if by_cols else pd.Series(d["_pass"].min(), index=d.index)
    good = np.isfinite(d[value].astype(float)) & (d[value].astype(float) > 0)
    lost = d[~good & (d["_pass"] == d["_volfirst"])] if order is not None else d.iloc[:0]
    d = d[good]
    if d.empty:
        why.append(f"passes: no positive values of {list(metrics)}")
        return None, lost
    if order is None:
        why.append("passes: no 'pass', 'repetition' or 'timestamp' column to order the passes")
        return None, lost
    return d, lost


_PASSES = ("first pass vs later passes of the same volume (one value a pass: the geometric "
           "mean of its rows)")


def _passes(df, by_cols, value, metrics, confidence, fresh_only, why=None):
    why = [] if why is None else why
    d, lost = _pass_rows(df, by_cols, value, metrics, why)
    if d is None:
        return []
    keys, shown = _pass_keys(d, by_cols)
    rows = []
    seen_later = False
    for key, g in _groups(d, by_cols + keys):
        kd = dict(zip(by_cols + keys, key, strict=True))
        p0 = g["_pass"].min()
        if fresh_only and p0 != g["_volfirst"].iloc[0]:
            if _ran_first(lost, kd):
                why.append(f"passes: {', '.join(f'{k}={v}' for k, v in kd.items())}: the "
                           "volume's first pass has no positive value: not testable")
            continue
        first, later = _per_pass(g, value, p0)
        if later.size == 0:
            continue
        seen_later = True
        named = {k: v for k, v in kd.items() if k in shown}
        hib, why = direction_or_reason(g, unknown=True)  # (column, latency, else a rate)
        if why:  # (TPS and latency pooled: no penalty for this group, its reason in its
            # method as for any untestable design; the other groups are estimated)
            rows.append(_row(named, evidence="passes", test=kd.get("test"), op=kd.get("op"),
                             metric=kd.get("metric"), confidence=confidence,
                             n_first=int(first.size), n_later=int(later.size),
                             method=f"{_PASSES}; {why}"))
            continue
        lower = not hib
        a, b = (later, first) if lower else (first, later)
        r, lo, hi = log_ratio_ci(a, b, confidence)
        btc, ttc = _clear_cost(df, g, p0, lo)
        rows.append(_row(named, evidence="passes", test=kd.get("test"), op=kd.get("op"),
                         metric=kd.get("metric"), penalty=r, penalty_ci_low=lo,
                         penalty_ci_high=hi, confidence=confidence, n_first=int(first.size),
                         n_later=int(later.size), first_level=float(np.median(first)),
                         later_level=float(np.median(later)),
                         naive_ratio=(float(np.median(first) / np.median(later)) if lower else
                                      float(np.median(later) / np.median(first))),
                         bytes_to_clear=btc, time_to_clear=ttc,
                         detected=bool(lo > 1.0) if np.isfinite(lo) else None,
                         p_value=_log_ratio_p(a, b),
                         method=_PASSES + ": ratio of geometric means, pooled t interval "
                                "on logs; bytes/time to clear = the first pass (upper bound)"
                                + (_untestable(first.size, later.size) if not np.isfinite(lo)
                                   else "")))
    if not seen_later and len(d) and not any(w.endswith("not testable") for w in why):
        why.append("passes: every volume was seen in one pass only (one fresh volume per run "
                   "has no later pass to compare with)")
    return rows


def _per_run_ratio(df, by_cols, value, num_test, den_test, metric):
    d = df[df["metric"].astype(str) == metric]
    d = d[d["test"].astype(str).isin([num_test, den_test])]
    if d.empty:
        return pd.DataFrame()
    order = _pass_order(d)
    if order is None:
        return pd.DataFrame()
    d = d.assign(_pass=order)
    run_key = [c for c in ("run_id", "path", "source") if c in d.columns][:1]
    w = d.pivot_table(index=[*by_cols, *run_key, "_pass"], columns="test", values=value,
                      aggfunc="median", observed=True, dropna=False)
    if num_test not in w or den_test not in w:
        return pd.DataFrame()
    w = w[[num_test, den_test]].dropna()
    w = w[(w[num_test] > 0) & (w[den_test] > 0)]
    w["_ratio"] = w[num_test] / w[den_test]
    return w.reset_index()


def _bonnie(df, by_cols, value, confidence):
    d = df[df["tool"].astype(str) == "bonnie++"] if "tool" in df else df
    w = _per_run_ratio(d, by_cols, value, "put_block", "rewrite", "bandwidth")
    rows = []
    for key, g in _groups(w, by_cols) if len(w) else []:
        p0 = g["_pass"].min()
        first, later = _per_pass(g, "_ratio", p0)
        if later.size == 0 or first.size == 0:
            continue
        r, lo, hi = log_ratio_ci(first, later, confidence)
        rows.append(_row(dict(zip(by_cols, key, strict=True)), evidence="bonnie",
                         p_value=_log_ratio_p(first, later),
                         test="put_block/rewrite", op="write", metric="bandwidth", penalty=r,
                         penalty_ci_low=lo, penalty_ci_high=hi, confidence=confidence,
                         n_first=int(first.size), n_later=int(later.size),
                         first_level=float(np.median(first)),
                         later_level=float(np.median(later)),
                         naive_ratio=float(np.median(later) / np.median(first)),
                         detected=bool(lo > 1.0) if np.isfinite(lo) else None,
                         method="bonnie++ block write / rewrite per run, first run vs later "
                                "runs: ratio of geometric means, pooled t interval on logs"
                                + (_untestable(first.size, later.size) if not np.isfinite(lo)
                                   else "")))
    return rows


def _sysbench(df, by_cols, value, confidence, later_test="seqwr"):
    d = df[df["tool"].astype(str) == "sysbench"] if "tool" in df else df
    d = d[(d["metric"].astype(str) == "bandwidth") & (d["op"].astype(str) == "write")]
    rows = []
    for key, g in _groups(d, by_cols):
        first = g.loc[g["test"].astype(str) == "prepare", value].astype(float).to_numpy()
        later = g.loc[g["test"].astype(str) == later_test, value].astype(float).to_numpy()
        if first.size == 0 or later.size == 0:
            continue
        r, lo, hi = log_ratio_ci(first, later, confidence)
        bs = g.loc[g["test"].astype(str) == "prepare"]
        io = df.loc[df["source"].isin(bs["source"]) & (df["metric"].astype(str) == "io_bytes"),
                    value] if "source" in df else pd.Series(dtype=float)
        rt = df.loc[df["source"].isin(bs["source"]) & (df["metric"].astype(str) == "runtime"),
                    value] if "source" in df else pd.Series(dtype=float)
        rows.append(_row(dict(zip(by_cols, key, strict=True)), evidence="sysbench",
                         p_value=_log_ratio_p(first, later),
                         test=f"prepare/{later_test}", op="write", metric="bandwidth",
                         penalty=r, penalty_ci_low=lo, penalty_ci_high=hi,
                         confidence=confidence, n_first=int(first.size),
                         n_later=int(later.size), first_level=float(np.median(first)),
                         later_level=float(np.median(later)),
                         naive_ratio=float(np.median(later) / np.median(first)),
                         bytes_to_clear=float(io.sum()) if len(io) and lo > 1 else math.nan,
                         time_to_clear=float(rt.sum()) if len(rt) and lo > 1 else math.nan,
                         detected=bool(lo > 1.0) if np.isfinite(lo) else None,
                         method=f"sysbench prepare vs {later_test} bandwidth: ratio of geometric "
                                "means, pooled t interval on logs (comparable only if both "
                                "write with the same block size and queue depth)"))
    return rows


# ---------------------------------------------------------------------------------------------
# evidence: offsets (series frame)


@renamed(ts="data")
def touch_table(data: pd.DataFrame, by: str | Sequence[str] | None = None, *,
                metric: str | None = "clat", bucket: int | None = None) -> pd.DataFrame:
    """Per-I/O rows of offset-resolved logs with a touched-before indicator.

    The runs of a group (a volume) are put in order (``pass``, else ``timestamp``, else the
    source name) and each I/O's LBA bucket (``offset // bucket``) is marked ``first_touch``
    when no earlier I/O of the group touched it.

    Parameters
    ----------
    data : DataFrame
        Series frame with ``offset`` (fio ``log_offset=1``), one row per I/O.
    by : str or list, optional
        The volume; default ``config`` or ``volume`` when present, else ``run_id``.
    metric : str, optional
        Keep this metric only (each I/O appears once per log kind); ``None`` keeps all.
    bucket : int, optional
        Bucket size in bytes; default the group's smallest block size.

    Returns
    -------
    DataFrame
        The rows with ``run_order``, ``bucket``, ``first_touch`` (bool), ``elapsed`` (s of I/O
        since the group's first run started, runs laid end to end), ``cum_bytes``.

    Examples
    --------
    >>> data = pd.DataFrame({"run_id": "r", "t": [1.0, 2.0, 3.0], "value": [5.0, 1.0, 5.0],
    ...                    "offset": [0, 0, 4096], "block_size": 4096, "metric": "clat"})
    >>> touch_table(data)["first_touch"].tolist()
    [True, False, True]
    """
    d = data
    if metric is not None and "metric" in d.columns:
        d = d[d["metric"].astype(str) == metric]
    if "offset" not in d.columns:
        raise ValueError("offsets evidence needs an 'offset' column (fio log_offset=1 logs)")
    d = d[d["offset"].notna()].copy()
    cols = _by_cols(d, by) if by is not None or any(c in d for c in ("config", "volume")) \
        else (["run_id"] if "run_id" in d.columns else [])
    out = []
    for _, g in _groups(d, cols):
        g = g.copy()
        order_keys = []
        if "pass" in g.columns and pd.to_numeric(g["pass"], errors="coerce").notna().all():
            g["_p"] = pd.to_numeric(g["pass"], errors="coerce")
            order_keys.append("_p")
        elif "timestamp" in g.columns and g["timestamp"].notna().all():
            g["_p"] = pd.to_datetime(g["timestamp"], utc=True)
            order_keys.append("_p")
        run = "run_id" if "run_id" in g.columns else ("source" if "source" in g.columns
                                                       else None)
        if run is None:
            g["_run"] = "0"
            run = "_run"
        g = g.sort_values([*order_keys, run, "t"], kind="stable")
        g["run_order"] = pd.factorize(g[run].astype(str))[0]
        bs = pd.to_numeric(g["block_size"], errors="coerce") if "block_size" in g else None
        b = int(bucket) if bucket else int(bs.min()) if bs is not None and bs.notna().any() \
            else 4096
        off = g["offset"].to_numpy(dtype=np.int64)
        bk = off // b
        g["bucket"] = bk
        g["first_touch"] = ~pd.Series(bk).duplicated().to_numpy()
        # elapsed I/O time: each run's t, offset by the end of the previous runs
        ends = g.groupby("run_order")["t"].max()
        shift = ends.cumsum().shift(fill_value=0.0)
        g["elapsed"] = g["t"].to_numpy() + g["run_order"].map(shift).to_numpy()
        sizes = bs.fillna(b).to_numpy(dtype=float) if bs is not None else np.full(len(g), b)
        g["cum_bytes"] = np.cumsum(sizes)
        g["bucket_size"] = b
        out.append(g.drop(columns=[c for c in ("_p", "_run") if c in g.columns]))
    if not out:
        return d.assign(run_order=pd.Series(dtype=int), bucket=pd.Series(dtype=int),
                        first_touch=pd.Series(dtype=bool))
    return pd.concat(out, ignore_index=True)


def _time_regimes(t: np.ndarray, y: np.ndarray, rep: np.ndarray, penalty, min_per_bin=20):
    """Regime index of every I/O of one run from the changepoints of its repeat touches.

    Returns (regime per I/O, change times, level ratio last/first regime).
    """
    n_rep = int(rep.sum())
    if n_rep < 6 * min_per_bin:
        return np.zeros(t.size, dtype=int), [], 1.0
    tr, yr = t[rep], y[rep]
    k = min(300, n_rep // min_per_bin)
    edges = np.quantile(tr, np.linspace(0, 1, k + 1))
    idx = np.clip(np.searchsorted(edges, tr, side="right") - 1, 0, k - 1)
    binned = pd.DataFrame({"k": idx, "t": tr, "y": yr}).groupby("k").agg(
        t0=("t", "min"), y=("y", "mean"))
    seg = changepoints(binned["y"].to_numpy(), penalty=penalty, min_size=3)
    if len(seg) == 1:
        return np.zeros(t.size, dtype=int), [], 1.0
    t0 = binned["t0"].to_numpy()
    cuts = []
    for s in seg["start"].iloc[1:]:
        # refine the cut at the level of single I/Os: best split of the repeat touches
        # between the bin before and the bin after the binned changepoint
        lo_t = t0[max(s - 2, 0)]
        hi_t = t0[s + 2] if s + 2 < len(t0) else np.inf
        m = (tr >= lo_t) & (tr < hi_t)
        yy, tt_ = yr[m], tr[m]
        if yy.size >= 4:
            c1 = np.cumsum(yy)
            k = np.arange(1, yy.size)
            left = c1[:-1] ** 2 / k
            right = (c1[-1] - c1[:-1]) ** 2 / (yy.size - k)
            j = int(np.argmax(left + right)) + 1
            cuts.append(float(tt_[j]))
        else:
            cuts.append(float(t0[s]))
    regime = np.searchsorted(np.asarray(cuts), t, side="right")
    ratio = float(np.exp(seg["mean"].iloc[-1] - seg["mean"].iloc[0]))
    return regime, cuts, ratio


def _offsets(ts, by_cols, value, metric, bucket, confidence, penalty, tol, min_effect):
    tt = touch_table(ts, by=by_cols or None, metric=metric, bucket=bucket)
    if tt.empty:
        return []
    cols = _by_cols(tt, by_cols) if by_cols or any(c in tt for c in ("config", "volume")) \
        else (["run_id"] if "run_id" in tt.columns else [])
    return [_offsets_group(dict(zip(cols, key, strict=True)), g, value, metric, confidence,
                           penalty, tol, min_effect)
            for key, g in _groups(tt, cols)]


def _regime_cells(g, y, ft, penalty):
    """Per-I/O cell labels (run x time regime of the repeat touches), the largest time ratio
    between regimes and where it happens."""
    reg = np.zeros(len(g), dtype=int)
    time_ratio, change_at = 1.0, math.nan
    ro = g["run_order"].to_numpy()
    tcol = g["t"].to_numpy(dtype=float)
    labels = np.empty(len(g), dtype=object)
    for r in np.unique(ro):
        m = ro == r
        rg, cuts, ratio = _time_regimes(tcol[m], y[m], ~ft[m], penalty)
        reg[m] = rg
        labels[m] = [f"{r}:{v}" for v in rg]
        if cuts and abs(math.log(ratio)) > abs(math.log(time_ratio)):
            time_ratio, change_at = ratio, cuts[0]
    mixed = pd.Series(ft).groupby(ro).agg(lambda s: 0 < s.mean() < 1).to_numpy()
    run_lab = np.where(mixed[ro], ro.astype(str), "pooled")
    return np.where(reg > 0, labels, run_lab.astype(object)), time_ratio, change_at


def _clearing(g, ft, pen, lo, tol):
    """Whether first touches stop slowing the stream, and the bytes and time until they do."""
    n = len(ft)
    share = pd.Series(ft.astype(float)).rolling(max(50, n // 50), min_periods=1).mean()
    slow = 1.0 + max(pen - 1.0, 0.0) * share.to_numpy()
    bad = np.flatnonzero(slow > 1.0 + tol)
    if lo <= 1.0:
        clr, i_clear = True, 0
    elif bad.size == 0 or bad[-1] < n - 1:
        clr, i_clear = True, (int(bad[-1]) + 1 if bad.size else 0)
    else:
        return False, math.nan, math.nan
    if i_clear == 0:
        return clr, 0.0, 0.0
    return (clr, float(g["cum_bytes"].to_numpy(dtype=float)[i_clear - 1]),
            float(g["elapsed"].to_numpy(dtype=float)[i_clear - 1]))


def _direction_rows(g: pd.DataFrame, metric: str | None) -> pd.DataFrame:
    """The columns of ``g`` the direction rule reads; the log's ``metric`` as the metric of a
    frame that has no ``metric`` column (:func:`touch_table` keeps only that metric's rows)."""
    d = g[[c for c in ("higher_is_better", "unit", "metric") if c in g.columns]]
    return d.assign(metric=metric) if metric and "metric" not in d.columns else d


def _offsets_group(kd, g, value, metric, confidence, penalty, tol, min_effect):
    import statsmodels.api as sm

    x = g[value].to_numpy(dtype=float)
    ok = np.isfinite(x) & (x > 0)
    g, x = g[ok], x[ok]
    ft = g["first_touch"].to_numpy(dtype=bool)
    if ft.sum() < 2 or (~ft).sum() < 2:
        return _row(kd, evidence="offsets", metric=metric, n_first=int(ft.sum()),
                    n_later=int((~ft).sum()), method="offsets: need first and repeat touches")
    # (the one rule: column, latency unit or name, the log's metric if the frame has none)
    hib, why = direction_or_reason(_direction_rows(g, metric), unknown=True)
    if why:  # (latency and a rate pooled: no penalty; other groups are)
        return _row(kd, evidence="offsets", metric=metric, n_first=int(ft.sum()),
                    n_later=int((~ft).sum()), method=f"offsets: {why}")
    lower = not hib
    y = np.log(x) if lower else -np.log(x)  # y: log of time per I/O (slower = larger)
    cell, time_ratio, change_at = _regime_cells(g, y, ft, penalty)
    X = pd.get_dummies(pd.Series(cell, dtype="string"), drop_first=True, dtype=float)
    X.insert(0, "first_touch", ft.astype(float))
    X = sm.add_constant(X, has_constant="add")
    n = len(y)
    lags = int(math.floor(4 * (n / 100.0) ** (2.0 / 9.0)))
    fit = sm.OLS(y, X.to_numpy()).fit(cov_type="HAC", cov_kwds={"maxlags": lags})
    b, se = float(fit.params[1]), float(fit.bse[1])
    q = float(stats.norm.ppf(0.5 + confidence / 2.0))
    pen, lo, hi = math.exp(b), math.exp(b - q * se), math.exp(b + q * se)
    naive = float(np.exp(np.median(y[ft]) - np.median(y[~ft])))
    clr, btc, ttc = _clearing(g, ft, pen, lo, tol)
    off = g["offset"].to_numpy(dtype=np.int64)
    bsz = int(g["bucket_size"].iloc[0])
    extent = (off.max() - off.min()) // bsz + 1
    coverage = float(g["bucket"].nunique() / extent) if extent > 0 else math.nan
    ft_sig = lo > 1.0 and pen >= 1.0 + min_effect
    t_sig = abs(math.log(time_ratio)) >= math.log1p(min_effect)
    attribution = ("both" if ft_sig and t_sig else "first_touch" if ft_sig else
                   "time" if t_sig else "none")
    return _row(kd, evidence="offsets", test=",".join(sorted(
        g["test"].astype(str).unique())) if "test" in g else None,
        op=",".join(sorted(g["op"].astype(str).unique())) if "op" in g else None,
        metric=metric, penalty=pen, penalty_ci_low=lo, penalty_ci_high=hi,
        confidence=confidence, n_first=int(ft.sum()), n_later=int((~ft).sum()),
        first_level=float(np.median(x[ft])), later_level=float(np.median(x[~ft])),
        naive_ratio=naive, time_effect=time_ratio, time_change_at=change_at,
        attribution=attribution, detected=bool(lo > 1.0), bytes_to_clear=btc,
        time_to_clear=ttc, cleared=clr, coverage=coverage,
        method=f"offsets (bucket {bsz} B): OLS of log latency on first touch + run and "
               f"time-regime effects (PELT {penalty} on repeat touches), Newey-West HAC "
               f"({lags} lags); clear when the rolling first-touch slowdown stays below "
               f"{tol:.0%}")


# ---------------------------------------------------------------------------------------------
# the dispatcher


def _split(data, series):
    """(results frame, series frame) of ``data``."""
    if isinstance(data, tuple):
        return data[0], data[1] if series is None else series
    if isinstance(data, pd.DataFrame) and "t" in data.columns and "offset" in data.columns:
        return None, data
    return data, series


def _kinds(evidence) -> list[str]:
    kinds = [evidence] if isinstance(evidence, str) else list(evidence)
    if kinds == ["auto"]:
        kinds = list(EVIDENCE)
    bad = set(kinds) - set(EVIDENCE)
    if bad:
        raise ValueError(f"evidence must be 'auto' or among {EVIDENCE}, got {sorted(bad)}")
    return kinds


def first_write(data, evidence: str | Sequence[str] = "auto",
                by: str | Sequence[str] | None = None, *, series: pd.DataFrame | None = None,
                value: str = "value", metrics: Sequence[str] = RATE_METRICS,
                log_metric: str = "clat", bucket: int | None = None, fresh_only: bool = True,
                sysbench_test: str = "seqwr", penalty: str | float = "mbic",
                tol: float = 0.05, min_effect: float = 0.10,
                confidence: float = 0.95) -> pd.DataFrame:
    """First-write penalty as a ratio with CI, from every kind of evidence the data hold.

    Parameters
    ----------
    data : DataFrame or (results, series) tuple
        A results frame (``ebsstats.read``), a series frame (``ebsstats.read_series``) or the
        pair ``es.read(..., series=True)`` returns.
    evidence : {"auto", "passes", "bonnie", "sysbench", "offsets"} or list of them
        ``auto``: ``passes``, ``bonnie`` and ``sysbench`` on the results frame, ``offsets`` on
        the series frame (if it has offsets); kinds without data give no row.
    by : str or list, optional
        The volume (or benchmark target); default ``config`` or ``volume``.
    series : DataFrame, optional
        The series frame, when ``data`` is the results frame.
    value : str
    metrics : list of str
        Metrics compared by ``passes`` (rates by default).
    log_metric : str
        Latency metric of the offset logs (``clat``; ``lat`` also works).
    bucket : int, optional
        LBA bucket size for ``offsets`` (default the I/O size).
    fresh_only : bool
        ``passes``: only tests whose first pass was the volume's first pass (the test ran on
        the fresh volume); ``False`` compares the first against later runs of every test.
    sysbench_test : str
        The later sysbench mode that ``prepare`` is compared with.
    penalty : str or float
        PELT penalty for the time regimes of ``offsets``.
    tol : float
        ``offsets``: the penalty is gone once first touches slow the I/O stream by less than
        this fraction (rolling window) for the rest of the data.
    min_effect : float
        ``offsets`` attribution: effects smaller than this fraction count as none.
    confidence : float

    Returns
    -------
    DataFrame
        One row per (group, evidence, test, op, metric): the ``by`` columns, ``evidence``,
        ``test``, ``op``, ``metric``, ``penalty`` (first-touch slowdown: later/first rate,
        first/later latency) with ``penalty_ci_low``/``_high``, ``confidence``, ``n_first``,
        ``n_later``, ``first_level``, ``later_level`` (medians, in the metric's units),
        ``naive_ratio`` (unadjusted ratio of medians), ``time_effect`` (offsets: level ratio
        of the last to the first time regime of the repeat touches, > 1 = slower later: a
        burst bucket running dry), ``time_change_at`` (s into the run), ``attribution``
        (offsets: ``first_touch``, ``time``, ``both``, ``none``), ``detected`` (the
        penalty is above 1 and its Holm-adjusted p, across every test of the call, below
        1 - confidence: the interval alone is not adjusted, so an interval above 1 may stay
        undetected), ``bytes_to_clear`` and ``time_to_clear`` (offsets: bytes written and
        seconds of I/O until first touches no longer slow the stream by ``tol``; passes,
        sysbench: the first pass's bytes and runtime, an upper bound, when detected),
        ``cleared`` (offsets: the penalty was gone before the data end; ``False`` = first
        touches still slowed the last I/Os), ``coverage`` (offsets: share of the LBA extent
        touched), ``method``. A group whose ``higher_is_better`` holds both True and False (a
        PTS test's TPS and its latency, both ``score``) has no penalty: NaN estimates and p,
        its ``method`` ending ``not testable: rows mix …``; the other groups are estimated.

    Notes
    -----
    The first-touch penalty on EC2 was "about x5 for a first write" (2009 comment on the
    Percona EBS benchmark; AWS's own old EBS documentation put it at 5–50 % of IOPS). Passes,
    bonnie and sysbench use the ratio of geometric means with a pooled t interval on the log
    scale: with one first run, it is the prediction interval of one value (Kalibera & Jones
    2013 argue for ratio CIs). Offsets use OLS on log latency with HAC (Newey–West) standard
    errors because neighbouring I/Os are correlated; the touched-before indicator identifies
    first touch (keyed on LBA), the time-regime terms (PELT on repeat touches only) absorb
    burst-bucket depletion (keyed on cumulative I/O; see :doc:`/questions/firstwrite`).

    Examples
    --------
    >>> ts = synthetic_touch_log(seed=1, factor=5.0)
    >>> r = first_write(ts, evidence="offsets")
    >>> bool(r["penalty_ci_low"].iloc[0] < 5.0 < r["penalty_ci_high"].iloc[0])
    True
    >>> r["attribution"].iloc[0]
    'first_touch'
    """
    results, ser = _split(data, series)
    kinds = _kinds(evidence)
    rows: list[dict] = []
    why: list[str] = []
    by_cols = _by_cols(results if results is not None else ser, by) if (
        results is not None or ser is not None) else []
    if results is not None and len(results):
        if "passes" in kinds:
            rows += _passes(results, by_cols, value, tuple(metrics), confidence, fresh_only,
                            why)
        if "bonnie" in kinds and {"test", "metric"} <= set(results.columns):
            rows += _bonnie(results, by_cols, value, confidence)
        if "sysbench" in kinds and {"test", "metric", "op"} <= set(results.columns):
            rows += _sysbench(results, by_cols, value, confidence, sysbench_test)
    if "offsets" in kinds and ser is not None and len(ser) and "offset" in ser.columns \
            and ser["offset"].notna().any():
        rows += _offsets(ser, by_cols, value, log_metric, bucket, confidence, penalty, tol,
                         min_effect)
    params = list(dict.fromkeys(k for r in rows for k in r if k not in by_cols
                                and k not in _COLS))  # (the workload parameters that split)
    out = pd.DataFrame(rows, columns=[*by_cols, *params, *_COLS])
    for c in ("n_first", "n_later"):
        out[c] = out[c].astype("Int64")
    _adjust(out, confidence)
    if out.empty:
        if results is None and ser is None:
            why.append("no data")
        msg = "first_write found nothing to compare: " + ("; ".join(why) or
                                                          "no evidence of the kinds asked for")
        out.attrs["reason"] = msg
        warnings.warn(msg, UserWarning, stacklevel=2)
    return out


def _adjust(out: pd.DataFrame, confidence: float) -> None:
    """Holm across every test of the call: ``detected`` needs the adjusted p below
    1 - confidence (and a penalty above 1), not an unadjusted interval above 1."""
    p = pd.to_numeric(out["p_value"], errors="coerce").to_numpy(dtype=float)
    out["p_adjusted"] = adjust_pvalues(p, "holm") if len(out) else p
    ok = np.isfinite(out["p_adjusted"].to_numpy(dtype=float))
    if ok.any():
        det = (out["p_adjusted"] < 1 - confidence) & (out["penalty"] > 1)
        out["detected"] = out["detected"].astype(object)
        out.loc[ok, "detected"] = det[ok].astype(bool).to_numpy()


# ---------------------------------------------------------------------------------------------
# a synthetic offset-resolved log (validation aid)


def synthetic_touch_log(seed: int = 0, *, n_blocks: int = 1024, n_ios: int = 4096,
                        factor: float = 5.0, block_size: int = 262144, base_lat: float = 0.002,
                        jitter: float = 0.1, burst: dict | None = None, passes: int = 1,
                        run_id: str = "synthetic") -> pd.DataFrame:
    """A per-I/O ``clat`` log with offsets, with a first-touch penalty and/or a burst bucket.

    Random writes with replacement over ``n_blocks`` blocks (``passes`` runs of ``n_ios`` I/Os,
    queue depth 1): an I/O on a block never written before takes ``factor`` times as long.
    With ``burst={"bucket": credits, "baseline": IOPS, "slowdown": s}`` a token bucket (full at
    the start, one credit per I/O, refilled at the baseline rate) runs dry and from then on
    every I/O takes ``s`` times as long (the volume held at its baseline for the rest of the
    run) — an effect keyed on cumulative I/O, not on offsets.

    Returns a series frame (``run_id, source, test, op, metric, t, value, unit, offset,
    block_size``, plus ``volume``, ``pass``, ``sampling`` and the truth columns
    ``true_first_touch`` and ``true_bursting``).

    Examples
    --------
    >>> ts = synthetic_touch_log(seed=0, n_blocks=8, n_ios=16)
    >>> len(ts), ts["metric"].iloc[0]
    (16, 'clat')
    """
    rng = np.random.default_rng(seed)
    touched = np.zeros(n_blocks, dtype=bool)
    frames = []
    credits = float(burst["bucket"]) if burst else math.inf
    dry = False
    for p in range(passes):
        blocks = rng.integers(0, n_blocks, n_ios)
        lat = np.empty(n_ios)
        first = np.empty(n_ios, dtype=bool)
        bursting = np.empty(n_ios, dtype=bool)
        jit = np.exp(rng.normal(0.0, jitter, n_ios))
        for i, b in enumerate(blocks):
            first[i] = not touched[b]
            touched[b] = True
            dry = dry or credits <= 0  # once dry, the volume is held at its baseline
            bursting[i] = not dry
            lt = base_lat * jit[i] * (factor if first[i] else 1.0)
            if burst and not bursting[i]:
                lt *= float(burst["slowdown"])
            lat[i] = lt
            if burst:
                credits = min(float(burst["bucket"]),
                              credits - 1.0 + float(burst["baseline"]) * lt)
        frames.append(pd.DataFrame({
            "run_id": f"{run_id}-{p}", "source": f"{run_id}/pass{p}_clat.1.log",
            "test": run_id, "op": "write", "metric": "clat", "t": np.cumsum(lat),
            "value": lat, "unit": "s", "offset": blocks.astype(np.int64) * block_size,
            "block_size": block_size, "volume": run_id, "pass": str(p), "sampling": "per_io",
            "true_first_touch": first, "true_bursting": bursting}))
    return pd.concat(frames, ignore_index=True)
