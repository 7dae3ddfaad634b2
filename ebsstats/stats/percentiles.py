"""Pooled latency percentiles: merge fio's latency histograms instead of averaging percentiles.

A p99 is not additive: the mean of the p99s of four jobs (or ten runs) is not the p99 of their
I/Os. fio keeps every completion latency in a log-linear histogram (``json+`` ``bins``, and the
``write_hist_log`` logs), so the percentiles of the *pooled* I/Os can be computed exactly from the
summed bin counts, up to fio's own bin width.

* :func:`merge_histograms` — sum bin counts per group (run, job, configuration, …);
* :func:`pooled_percentiles` — percentiles of the merged histogram, a bootstrap-over-runs CI and,
  beside them, the average of the per-run percentiles (what dashboards show) for contrast;
* :func:`percentiles_over_time` — the same per time window of fio histogram logs;
* :func:`compare_percentiles` — pooled p99 (or any percentile) of each configuration against a
  baseline with the semantics of :func:`ebsstats.stats.comparison.compare`: ratio, CI, adjusted
  p-value and a ``better``/``worse``/``~`` verdict.

Input frames are what :func:`ebsstats.io.fio.read_fio_histogram` (columns ``run_id``, ``test``,
``op``, ``latency``, ``lat``, ``count``) and :func:`ebsstats.io.fio.log.read_fio_hist_log`
(``run_id``, ``t``, ``op``, ``lat``, ``count``) return, plus any grouping columns the caller adds
(``config``, …). ``lat`` is each bin's representative latency in seconds.

Bin-width error (fio ``stat.h``): ``FIO_IO_U_PLAT_BITS = 6`` gives 64 linear bins per power-of-two
group; latencies below 128 (ns in fio 3.x, µs in 2.x) have their own bin, and above that bin
``k`` of the group starting at ``2**(e+6)`` is ``2**e`` wide. fio reports each bin by its midpoint
(``plat_idx_to_val``), so a percentile read from the histogram is within ``1/2**(6+1) = 1/128``
(0.78 %) of the true order statistic — fio's own percentiles carry the same error. The largest
latency tracked is ``2**(29+6-1)`` ns (≈ 17 s) in fio 3.x (29 groups, 1856 bins).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from ebsstats._docs import renamed
from ebsstats.stats._core import (
    adjust_pvalues,
    as_list,
    baseline_key,
    check_columns,
    check_levels,
    direction_word,
)

__all__ = ["merge_histograms", "pooled_percentiles", "percentiles_over_time",
           "compare_percentiles", "histogram_percentile", "BIN_RELATIVE_ERROR"]

FIO_PLAT_BITS = 6
BIN_RELATIVE_ERROR = 1.0 / 2 ** (FIO_PLAT_BITS + 1)  # 1/128: fio stat.h, midpoint of a bin
DEFAULT_PERCENTILES = (50.0, 90.0, 99.0, 99.9)


def histogram_percentile(lat, count, percentiles) -> np.ndarray:
    """Percentiles of a latency histogram by fio's rule (``calc_clat_percentiles`` in stat.c).

    The ``p``-th percentile is the value of the first bin (in latency order) whose cumulative
    count reaches ``p / 100`` of the total. With fio's bins this reproduces the percentiles fio
    prints for one job exactly, and gives the exact pooled percentile of merged bins.

    Parameters
    ----------
    lat, count : array-like
        Bin values and their counts (any order; zero counts allowed). ``count`` may be 2-D
        ``(k, bins)``: one histogram per row, the result then has shape ``(k, len(percentiles))``.
    percentiles : float or sequence of float
        In percent (0 < p ≤ 100).

    Examples
    --------
    >>> histogram_percentile([1.0, 2.0, 3.0], [50, 45, 5], [50, 95, 99]).tolist()
    [1.0, 2.0, 3.0]
    """
    lat = np.asarray(lat, dtype=float)
    order = np.argsort(lat, kind="stable")
    lat = lat[order]
    cnt = np.asarray(count, dtype=float)
    one = cnt.ndim == 1
    cnt = np.atleast_2d(cnt)[:, order]
    p = np.atleast_1d(np.asarray(percentiles, dtype=float))
    cum = np.cumsum(cnt, axis=1)
    total = cum[:, -1:] if cum.shape[1] else np.zeros((cnt.shape[0], 1))
    out = np.full((cnt.shape[0], p.size), np.nan)
    for j, q in enumerate(p):
        target = total[:, 0] * q / 100.0
        idx = (cum < target[:, None]).sum(axis=1)  # first bin with cum >= target
        ok = (total[:, 0] > 0) & (idx < lat.size)
        out[ok, j] = lat[idx[ok]]
    return out[0] if one else out


def _latency_rows(data: pd.DataFrame, latency: str | None) -> pd.DataFrame:
    check_columns(data, ["lat", "count"])
    if latency is not None and "latency" in data.columns:
        data = data[data["latency"].astype(object) == latency]
    return data


def merge_histograms(data: pd.DataFrame, by: str | Sequence[str] | None = "run_id",
                     latency: str | None = "clat") -> pd.DataFrame:
    """Sum the bin counts of fio latency histograms per group.

    Parameters
    ----------
    data : DataFrame
        Bins as read by :func:`ebsstats.io.fio.read_fio_histogram` or
        :func:`ebsstats.io.fio.log.read_fio_hist_log` (``lat`` in s, ``count``).
    by : str or list of str, optional
        Columns that name one pooled histogram (default ``run_id``: one per fio job entry;
        ``["config", "op"]`` pools every run of a configuration). ``None`` pools everything.
    latency : str, optional
        Which of json+'s latencies (``clat``, ``lat``, ``slat``) to use when the frame has a
        ``latency`` column; ``None`` keeps all (only sensible if ``by`` includes ``latency``).

    Returns
    -------
    DataFrame
        ``by`` columns, ``lat``, ``count`` (int64), sorted by group then latency.

    Examples
    --------
    >>> h = pd.DataFrame({"run_id": ["a", "a", "b"], "lat": [1e-4, 2e-4, 1e-4],
    ...                   "count": [3, 1, 2]})
    >>> merge_histograms(h, by=None)[["lat", "count"]].values.tolist()
    [[0.0001, 5.0], [0.0002, 1.0]]
    """
    keys = as_list(by)
    data = _latency_rows(data, latency)
    check_columns(data, keys)
    out = (data.groupby([*keys, "lat"], observed=True, sort=True, dropna=False)["count"].sum()
           .reset_index())
    out["count"] = out["count"].astype(np.int64)
    return out


def _run_matrix(sub: pd.DataFrame, run: str) -> tuple[np.ndarray, np.ndarray, list, list]:
    """Counts as a (runs × bins) matrix over the union of the group's bins: the bins, the
    matrix and the ids of the runs with at least one I/O, and the ids of those without (every
    bin 0 or NaN: no percentile, so not a replicate)."""
    wide = sub.pivot_table(index=run, columns="lat", values="count", aggfunc="sum",
                           fill_value=0, observed=True)
    mat, runs = wide.to_numpy(dtype=float), list(wide.index)
    empty = mat.sum(axis=1) == 0
    return (wide.columns.to_numpy(dtype=float), mat[~empty],
            [r for r, e in zip(runs, empty, strict=True) if not e],
            [r for r, e in zip(runs, empty, strict=True) if e])


def _boot_weights(n_runs: int, n_boot: int, rng) -> np.ndarray:
    """Bootstrap over runs as multiplicities: row b says how often each run was drawn."""
    return rng.multinomial(n_runs, np.full(n_runs, 1.0 / n_runs), size=n_boot).astype(float)


def pooled_percentiles(data: pd.DataFrame, by: str | Sequence[str] | None = None,
                       within: str | Sequence[str] | None = "op",
                       percentiles: Sequence[float] = DEFAULT_PERCENTILES, run: str = "run_id",
                       latency: str | None = "clat", confidence: float = 0.95,
                       n_boot: int = 1999, seed: int = 0) -> pd.DataFrame:
    """Exact percentiles of the pooled I/Os of each group, with a bootstrap-over-runs CI.

    Parameters
    ----------
    data : DataFrame
        Histogram bins (:func:`ebsstats.io.fio.read_fio_histogram`,
        :func:`ebsstats.io.fio.log.read_fio_hist_log`) with the ``by`` columns added.
    by : str or list of str, optional
        Groups whose runs are pooled (``"config"``); ``None``: every run together.
    within : str or list of str, optional
        Columns never pooled over (default ``op``: reads and writes have different latencies).
    percentiles : sequence of float
        In percent.
    run : str
        Column naming the independent unit of the bootstrap (default ``run_id``: one fio job
        entry; ``"source"`` treats one report file — its jobs pooled — as one run).
    latency : str, optional
        ``clat`` (default), ``lat`` or ``slat`` for json+ frames.
    confidence, n_boot, seed
        Level, resamples and seed of the bootstrap CI.

    Returns
    -------
    DataFrame
        One row per group and percentile: the ``by``/``within`` columns, ``percentile``,
        ``value`` (pooled percentile, s), ``ci_low``/``ci_high`` (percentile bootstrap over runs;
        NaN with fewer than 2 runs: not estimable), ``averaged`` (mean of the per-run
        percentiles, what averaging dashboards report), ``averaged_vs_pooled_pct``
        (``100 (averaged / value - 1)``), ``run_min``/``run_max`` (the per-run percentiles'
        range), ``n_runs`` (runs with at least one I/O), ``n_runs_empty`` (runs of the group
        whose bins are all zero: left out of ``averaged``, ``run_min``/``run_max``, ``n_runs``
        and the bootstrap — a run without I/Os has no percentile), ``n_ios``, ``bin_error``
        (fio's relative bin error bound, 1/128), ``confidence``.

    Notes
    -----
    Pooling weights each I/O equally; averaging weights each run equally. They agree when the
    runs have the same distribution and the same number of I/Os. They differ (a) when a few runs
    carry a heavy tail: the pooled p99 is then driven by those runs' I/Os while the average is
    pulled by the median run, and (b) when runs have different I/O counts (a slow run contributes
    fewer I/Os to the pool but a full vote to the average). On the genuine fio fixtures of the
    test suite (fio 3.33, 3 runs × 2 jobs each of 4 KiB and of 64 KiB O_DIRECT random reads on a
    local disk) the p50s agreed within 0.6 % (fio's bin error is 0.78 %), but the mean of the six
    jobs' p99 was 7.8 % below the pooled p99 at 64 KiB, and the averaged p99.9 was 3.8 % (4 KiB)
    and 2.9 % (64 KiB) low: averaging understates the tail whenever one job's tail is heavier.

    The CI resamples whole runs (Efron & Tibshirani 1993, §6; a cluster bootstrap — the I/Os of
    one run are not independent, so resampling I/Os would be far too narrow), by drawing run
    multiplicities from a multinomial and re-merging the bins; percentile interval.

    Examples
    --------
    >>> h = pd.DataFrame({"run_id": list("aabb"), "op": "read", "lat": [1e-4, 1e-3] * 2,
    ...                   "count": [99, 1, 90, 10]})
    >>> r = pooled_percentiles(h, percentiles=[90, 99], n_boot=0)
    >>> r[["percentile", "value", "averaged"]].values.tolist()
    [[90.0, 0.0001, 0.0001], [99.0, 0.001, 0.00055]]
    """
    keys = [*as_list(by), *[c for c in as_list(within) if c not in as_list(by)]]
    data = _latency_rows(data, latency)
    check_columns(data, [*keys, run])
    keys = [k for k in keys if k in data.columns]
    p = np.asarray(percentiles, dtype=float)
    rng = np.random.default_rng(seed)
    rows = []
    groups = data.groupby(keys, observed=True, sort=True, dropna=False) if keys else [((), data)]
    for key, sub in groups:
        key = key if isinstance(key, tuple) else (key,)
        lat, mat, _, empty = _run_matrix(sub, run)
        pooled = histogram_percentile(lat, mat.sum(axis=0), p)
        per_run = histogram_percentile(lat, mat, p)
        lo = hi = np.full(p.size, np.nan)
        if n_boot > 0 and mat.shape[0] >= 2:
            w = _boot_weights(mat.shape[0], n_boot, rng)
            boot = histogram_percentile(lat, w @ mat, p)
            a = (1 - confidence) / 2
            lo, hi = np.nanquantile(boot, a, axis=0), np.nanquantile(boot, 1 - a, axis=0)
        if mat.shape[0]:
            avg, rmin, rmax = per_run.mean(axis=0), per_run.min(axis=0), per_run.max(axis=0)
        else:
            avg = rmin = rmax = np.full(p.size, np.nan)
        for j, q in enumerate(p):
            rows.append({**dict(zip(keys, key, strict=True)), "percentile": float(q),
                         "value": pooled[j], "ci_low": lo[j], "ci_high": hi[j],
                         "averaged": avg[j],
                         "averaged_vs_pooled_pct": 100 * (avg[j] / pooled[j] - 1),
                         "run_min": rmin[j], "run_max": rmax[j],
                         "n_runs": mat.shape[0], "n_runs_empty": len(empty),
                         "n_ios": int(mat.sum()),
                         "bin_error": BIN_RELATIVE_ERROR, "confidence": confidence})
    return pd.DataFrame(rows)


def percentiles_over_time(data: pd.DataFrame, by: str | Sequence[str] | None = None,
                          within: str | Sequence[str] | None = "op",
                          percentiles: Sequence[float] = (50.0, 99.0),
                          window: float | None = None) -> pd.DataFrame:
    """Pooled percentiles per time window of fio histogram logs (``log_hist_msec``).

    Every job of a run writes its own ``*_clat_hist.N.log`` with a line per interval; the
    intervals of the jobs are aligned on a common grid of ``window`` seconds (default: the
    median interval of the logs) and their bins summed, so each window's p99 is the p99 of all
    I/Os that completed in it.

    Window rule: fio stamps each line with the time (ms) at the *end* of its interval, a few ms
    late (``501, 1001, 1501`` for ``log_hist_msec=500``). Window ``k`` is ``((k-1) w, k w]``,
    labelled by its end ``t = k w``, and each log line goes, whole, to the one window holding the
    middle of its interval, ``t_line - step / 2`` (``step``: the median spacing of that log's
    lines; with ``window == step`` this is the grid point nearest ``t_line``, an exact half
    going to the earlier window). So every line falls in exactly one window, and a line at
    ``t = 0`` (an interval ending at the start) is a window of its own, ``t = 0``, instead of
    being pooled with the first interval.

    Parameters
    ----------
    data : DataFrame
        :func:`ebsstats.io.fio.log.read_fio_hist_log` frames (concatenated), ``t`` in s.
    by, within : str or list of str, optional
        Groups pooled together, and columns never pooled over (default ``op``).
    percentiles : sequence of float
        In percent.
    window : float, optional
        Window width in s (default: the median spacing of the log lines, on a 1 ms grid).

    Returns
    -------
    DataFrame
        ``by``/``within`` columns, ``t`` (end of the window, s), ``percentile``, ``value`` (s),
        ``n_ios``.

    Examples
    --------
    >>> h = pd.DataFrame({"run_id": ["a", "a", "b", "b"], "op": "read",
    ...                   "t": [0.5, 1.0, 0.502, 1.002],
    ...                   "lat": [1e-4, 2e-4, 3e-4, 2e-4], "count": [1, 1, 1, 1]})
    >>> percentiles_over_time(h, percentiles=[50])[["t", "value"]].values.tolist()
    [[0.5, 0.0001], [1.0, 0.0002]]
    """
    keys = [*as_list(by), *[c for c in as_list(within) if c not in as_list(by)]]
    check_columns(data, [*keys, "t", "lat", "count"])
    keys = [k for k in keys if k in data.columns]
    if window is None:
        steps = [np.diff(np.unique(g.to_numpy(dtype=float)))
                 for _, g in data.groupby(run_cols(data), observed=True)["t"]]
        steps = np.concatenate(steps) if steps else np.array([])
        window = max(round(float(np.median(steps)), 3), 0.001) if steps.size else 1.0  # ms grid
    elif not window > 0:
        raise ValueError(f"window must be > 0, got {window}")
    step = _log_steps(data)
    step = np.where(np.isfinite(step), step, window)  # a one-line log: its interval unknown
    # middle of each line's interval -> window ((k-1) w, k w]; rounding to 1e-9 keeps an exact
    # half (0.15 / 0.1) from flipping on floating-point error
    k = np.ceil(np.round((data["t"].to_numpy(dtype=float) - step / 2) / window, 9))
    d = data.assign(t=np.round(k * window, 9) + 0.0)  # (+ 0.0: no -0.0 label)
    rows = []
    for key, sub in d.groupby([*keys, "t"], observed=True, sort=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        merged = sub.groupby("lat", sort=True)["count"].sum()
        vals = histogram_percentile(merged.index.to_numpy(float), merged.to_numpy(float),
                                    percentiles)
        for q, v in zip(percentiles, vals, strict=True):
            rows.append({**dict(zip([*keys, "t"], key, strict=True)), "percentile": float(q),
                         "value": v, "n_ios": int(merged.sum())})
    return pd.DataFrame(rows)


def _log_steps(data: pd.DataFrame) -> np.ndarray:
    """Per row: the median spacing (s) of the times of its log (``run_id``/``source``; the
    whole frame without them), which is fio's ``log_hist_msec``; NaN for a one-time log."""
    t = data["t"].astype(float)

    def median_step(s: pd.Series) -> float:
        u = np.unique(s.to_numpy(dtype=float))
        return float(np.median(np.diff(u))) if u.size > 1 else np.nan

    keys = [c for c in ("run_id", "source") if c in data.columns]
    if not keys:
        return np.full(len(t), median_step(t))
    return (t.groupby([data[c] for c in keys], observed=True, dropna=False)
            .transform(median_step).to_numpy(float))


def run_cols(data: pd.DataFrame) -> list[str]:
    """Columns that identify one log (``run_id`` and ``source`` where present)."""
    return [c for c in ("run_id", "source") if c in data.columns] or ["lat"]


@renamed(correction="padjust")
def compare_percentiles(data: pd.DataFrame, by: str | Sequence[str] = "config", baseline=None,
                        percentile: float = 99.0, within: str | Sequence[str] | None = "op",
                        run: str = "run_id", latency: str | None = "clat",
                        padjust: str = "holm", confidence: float = 0.95, alpha: float = 0.05,
                        n_boot: int = 1999, n_permutations: int = 9999, seed: int = 0,
                        higher_is_better: bool = False) -> pd.DataFrame:
    """Compare the pooled percentile of each group with a baseline, as :func:`compare` does.

    Parameters
    ----------
    data : DataFrame
        Histogram bins with the ``by`` columns (see :func:`pooled_percentiles`).
    by : str or list of str
        Groups (configurations); their runs are pooled.
    baseline : scalar or tuple, optional
        The group everything is compared with, one for the whole call (default: the group of
        the first row, in the frame's order, with a ``by`` value). A within-cell without the
        baseline is skipped, with a warning naming it; a baseline in no cell is an error.
    percentile : float
        Which pooled percentile (default p99).
    within, run, latency
        As in :func:`pooled_percentiles`.
    padjust : {"holm", "fdr_bh", "bonferroni", "none"}
        Adjustment over every comparison of the call.
    confidence, alpha, n_boot, n_permutations, seed
        CI level and verdict level (both in (0, 1)), bootstrap and permutation resamples, seed.
    higher_is_better : bool
        Latency: ``False``.

    Returns
    -------
    DataFrame
        Per (within-cell, group ≠ baseline): ``by``/``within`` columns, ``baseline``,
        ``percentile``, ``n`` and ``n_baseline`` (runs with at least one I/O: the replicates),
        ``n_runs_empty`` and ``n_runs_empty_baseline`` (runs of the group and of the baseline
        whose bins are all zero or NaN: left out of the pooled percentile, the bootstrap, the
        permutation test and ``n``, as in :func:`pooled_percentiles`), ``pooled``,
        ``pooled_baseline`` (s),
        ``ratio`` (group / baseline), ``ratio_ci_low``/``ratio_ci_high``, ``change_pct``,
        ``p_value``, ``p_adjusted``, ``correction`` (the ``padjust`` method used),
        ``test_method``, ``higher_is_better``, ``verdict`` (``better``/``worse``/``~``),
        ``confidence``, ``warning``.

    Raises
    ------
    ValueError
        ``confidence`` or ``alpha`` outside (0, 1); a ``baseline`` that is in no within-cell or
        does not match ``by``; no row with a ``by`` value.

    Warns
    -----
    UserWarning
        Rows with a missing ``by`` value (left out of every comparison, their number said),
        within-cells skipped because they lack the baseline, and runs without any I/O (one
        warning per call, naming them: a run without I/Os has no percentile and is not a
        replicate).

    Notes
    -----
    Ratio CI: bootstrap over runs within each group independently (cluster bootstrap, percentile
    interval). Test: permutation of whole runs between the two groups
    (:func:`scipy.stats.permutation_test`, exact when all partitions fit in ``n_permutations``)
    with the log ratio of pooled percentiles as statistic; runs, not I/Os, are the replicates.
    With 3 + 3 runs the smallest two-sided p-value is 0.1, so no verdict is possible at 5 %: the
    ``warning`` says so. Verdict rule and p-value adjustment as in :func:`compare` (Holm 1979).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> lat = np.geomspace(1e-5, 1e-2, 50)
    >>> rows = [{"config": c, "run_id": f"{c}{i}", "op": "read", "lat": v, "count": int(k)}
    ...         for c, s in (("a", 1.0), ("b", 3.0)) for i in range(6)
    ...         for v, k in zip(lat * s, rng.poisson(100 * np.exp(-np.arange(50) / 8)))]
    >>> r = compare_percentiles(pd.DataFrame(rows), by="config", n_boot=199)
    >>> r[["config", "baseline", "verdict"]].values.tolist()
    [['b', 'a', 'worse']]
    """
    check_levels(confidence=confidence, alpha=alpha)  # (95 crashed inside numpy)
    by_cols = as_list(by)
    data = _latency_rows(data, latency)
    cells = [c for c in as_list(within) if c in data.columns and c not in by_cols]
    check_columns(data, [*by_cols, run])
    data = _drop_missing_by(data, by_cols, run)
    baseline, base_key = baseline_key(data, by_cols, baseline)
    rng = np.random.default_rng(seed)
    rows, skipped, found, empty = [], [], False, {}
    cell_groups = (data.groupby(cells, observed=True, sort=True, dropna=False) if cells
                   else [((), data)])
    for cell, csub in cell_groups:
        cell = cell if isinstance(cell, tuple) else (cell,)
        groups = {(k if isinstance(k, tuple) else (k,)): g
                  for k, g in csub.groupby(by_cols, observed=True, sort=True)}
        if base_key not in groups:
            skipped.append(", ".join(f"{c}={v!r}" for c, v in zip(cells, cell, strict=True)))
            continue
        found = True
        for key, sub in groups.items():
            if key == base_key:
                continue
            row = {**dict(zip(cells, cell, strict=True)), **dict(zip(by_cols, key, strict=True)),
                   "baseline": base_key[0] if len(base_key) == 1 else base_key,
                   "percentile": float(percentile)}
            res = _compare_two(groups[base_key], sub, run, percentile, confidence, n_boot,
                               n_permutations, rng)
            for k, runs in zip((base_key, key), res.pop("_empty"), strict=True):
                empty[(cell, k)] = runs
            rows.append({**row, **res})
    if not found:
        raise ValueError(f"baseline {baseline!r} not found in column(s) {by_cols}")
    _warn_empty(empty, cells, by_cols)
    if skipped:
        warnings.warn(f"compare_percentiles: baseline {baseline!r} is not in the cell(s) "
                      f"{'; '.join(skipped)} of {cells}; those cells were not compared",
                      UserWarning, stacklevel=3)
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    ok = out["p_value"].notna().to_numpy()
    padj = np.full(len(out), np.nan)
    if ok.any():
        padj[ok] = (out["p_value"].to_numpy()[ok] if padjust == "none"
                    else adjust_pvalues(out["p_value"].to_numpy()[ok], padjust))
    out["p_adjusted"] = padj
    out["correction"] = padjust
    out["test_method"] = "permutation of runs"
    out["higher_is_better"] = higher_is_better
    out["verdict"] = [direction_word(np.sign(np.log(r)), higher_is_better) if pa < alpha else "~"
                      for pa, r in zip(out["p_adjusted"], out["ratio"], strict=True)]
    out["confidence"] = confidence
    out["warning"] = [_warn(n, nb, alpha) for n, nb in zip(out["n"], out["n_baseline"],
                                                          strict=True)]
    return out


def _drop_missing_by(data: pd.DataFrame, by_cols: list[str], run: str) -> pd.DataFrame:
    """The rows with every ``by`` value present; warns how many (and how many runs) were not."""
    miss = data[by_cols].isna().any(axis=1).to_numpy() if by_cols else np.zeros(len(data), bool)
    if miss.any():
        n_runs = data.loc[miss, run].nunique(dropna=False)
        warnings.warn(f"compare_percentiles: {int(miss.sum())} row(s) ({n_runs} run(s)) with a "
                      f"missing value in {by_cols} were left out of the comparisons",
                      UserWarning, stacklevel=4)
    return data[~miss]


def _compare_two(base: pd.DataFrame, sub: pd.DataFrame, run: str, q: float, confidence: float,
                 n_boot: int, n_permutations: int, rng) -> dict:
    both = pd.concat([base.assign(_g=0), sub.assign(_g=1)], ignore_index=True)
    both["_run"] = both["_g"].astype(str) + ":" + both[run].astype(str)
    lat, mat, runs, none = _run_matrix(both, "_run")  # (runs without I/Os: out of the pooled
    # value, the bootstrap, the permutations and n, as in pooled_percentiles)
    g = np.array([r.startswith("1:") for r in runs], dtype=bool)
    gone = [[r[2:] for r in none if r.startswith(f"{side}:")] for side in (0, 1)]
    xb, xs = mat[~g], mat[g]
    pb = histogram_percentile(lat, xb.sum(axis=0), [q])[0]
    ps = histogram_percentile(lat, xs.sum(axis=0), [q])[0]
    ratio = ps / pb if pb > 0 else np.nan
    lo = hi = p = np.nan
    if n_boot > 0 and len(xb) >= 2 and len(xs) >= 2 and pb > 0:
        wb, ws = _boot_weights(len(xb), n_boot, rng), _boot_weights(len(xs), n_boot, rng)
        r = (histogram_percentile(lat, ws @ xs, [q])[:, 0]
             / histogram_percentile(lat, wb @ xb, [q])[:, 0])
        a = (1 - confidence) / 2
        lo, hi = float(np.nanquantile(r, a)), float(np.nanquantile(r, 1 - a))
    if len(xb) >= 2 and len(xs) >= 2 and pb > 0:
        def stat(ia, ib, axis=-1):
            pa = histogram_percentile(lat, mat[ia.astype(int)].sum(axis=0), [q])[0]
            pz = histogram_percentile(lat, mat[ib.astype(int)].sum(axis=0), [q])[0]
            return np.log(pz / pa)

        res = stats.permutation_test((np.flatnonzero(~g), np.flatnonzero(g)), stat,
                                     permutation_type="independent", vectorized=False,
                                     n_resamples=n_permutations, rng=rng)
        p = float(res.pvalue)
    return {"n": len(xs), "n_baseline": len(xb), "n_runs_empty": len(gone[1]),
            "n_runs_empty_baseline": len(gone[0]), "_empty": gone,
            "pooled": ps, "pooled_baseline": pb,
            "ratio": ratio, "ratio_ci_low": lo, "ratio_ci_high": hi,
            "change_pct": 100 * (ratio - 1), "p_value": p}


def _warn_empty(empty: dict, cells: list[str], by_cols: list[str]) -> None:
    """One warning for the runs without I/Os that :func:`compare_percentiles` left out
    (``empty``: ``(cell, group) -> run ids``; a baseline's runs are counted once per cell)."""
    parts = [", ".join(f"{c}={v!r}" for c, v in zip([*cells, *by_cols], (*cell, *key),
                                                    strict=True))
             + ": " + ", ".join(repr(r) for r in runs[:5])
             + (f" and {len(runs) - 5} more" if len(runs) > 5 else "")
             for (cell, key), runs in empty.items() if runs]
    if parts:
        n = sum(len(r) for r in empty.values())
        warnings.warn(f"compare_percentiles: {n} run(s) without any I/O (every bin 0 or NaN) "
                      f"were left out: no percentile, not replicates ({'; '.join(parts)})",
                      UserWarning, stacklevel=4)


def _warn(n: int, nb: int, alpha: float) -> str | None:
    if n < 2 or nb < 2:
        return "not testable: each group needs at least 2 runs"
    from math import comb

    pmin = 2.0 / comb(n + nb, n)
    if pmin >= alpha:
        return (f"not testable at alpha={alpha}: with {nb} + {n} runs the smallest permutation "
                f"p-value is {pmin:.3g}")
    return None
