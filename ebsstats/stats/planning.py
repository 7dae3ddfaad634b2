"""How many repetitions are enough: CONFIRM-style :func:`repetitions_needed`.

Subsets of the observed runs are drawn at every size ``n``; each gives an order-statistic CI of
the median, and the curve of its relative half-width against ``n`` says how many runs bring the
interval within ``±precision`` of the median.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ebsstats.stats.summary import (
    check_columns,
    clean_values,
    group_keys,
    iter_groups,
    order_stat_ranks,
)

__all__ = ["repetitions_needed"]


def _curve(x: np.ndarray, sizes: np.ndarray, confidence: float, n_boot: int,
           rng: np.random.Generator) -> pd.DataFrame:
    n_obs = len(x)
    j, k, level, reached = order_stat_ranks(sizes, confidence)
    rows = []
    for size, jj, kk, lev, ok in zip(sizes, j, k, level, reached, strict=True):
        if size <= n_obs:  # CONFIRM: random subsets of the observed runs (no replacement)
            idx = np.argsort(rng.random((n_boot, n_obs)), axis=1)[:, :size]
            sample = x[idx]
        else:  # beyond the data: resample with replacement (an extrapolation)
            sample = x[rng.integers(0, n_obs, (n_boot, size))]
        sample.sort(axis=1)
        med = np.median(sample, axis=1)
        lo, hi = sample[:, jj - 1], sample[:, kk - 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            hw = np.maximum(hi - med, med - lo) / np.abs(med)
        rows.append({"n": int(size), "half_width_rel": float(np.nanmean(hw)),
                     "half_width_rel_median": float(np.nanmedian(hw)),
                     "half_width_rel_ci_low": float(np.nanquantile(hw, 0.05)),
                     "half_width_rel_ci_high": float(np.nanquantile(hw, 0.95)),
                     "ci_level": float(lev), "reaches_confidence": bool(ok),
                     "extrapolated": bool(size > n_obs)})
    return pd.DataFrame(rows)


def repetitions_needed(data: pd.DataFrame, value: str = "value",
                       by: str | Sequence[str] | None = None, precision: float = 0.05,
                       confidence: float = 0.95, n_max: int | None = None, n_boot: int = 200,
                       seed: int = 0, within: str | Sequence[str] | None = "auto",
                       summary: bool = False) -> pd.DataFrame:
    """CI half-width of the median against the number of runs, and the runs needed.

    Parameters
    ----------
    data : DataFrame
        Tidy results frame of earlier runs (the "history").
    value, by, within : str or list of str
        Value column, grouping, and identity columns never pooled (default test/op/metric).
    precision : float
        Target: both CI bounds within ``±precision`` of the median (0.05 = ±5 %).
    confidence : float
        Level of the order-statistic interval.
    n_max : int, optional
        Largest ``n`` on the curve; default: the number of observed runs (no extrapolation).
        Beyond that the runs are resampled with replacement and rows say ``extrapolated``.
    n_boot : int
        Random subsets drawn at each ``n``.
    seed : int
        Seed (deterministic by default).
    summary : bool
        Return one row per group instead of the curve.

    Returns
    -------
    DataFrame
        Curve (long): the grouping columns, ``n``, ``half_width_rel`` (mean over subsets of
        ``max(hi - median, median - lo) / median``), ``half_width_rel_median``,
        ``half_width_rel_ci_low``/``_ci_high`` (5 % and 95 % quantiles over subsets),
        ``ci_level`` (exact coverage at this ``n``), ``reaches_confidence``, ``extrapolated``,
        ``n_obs``, ``n_needed``, ``precision``, ``confidence``, ``method``.
        Summary (``summary=True``): one row per group with ``n_obs``, ``n_excluded``,
        ``n_needed`` (smallest ``n`` whose mean half-width is within ``precision`` and whose
        interval reaches ``confidence``; ``<NA>`` if none up to ``n_max``),
        ``half_width_rel_at_n_obs``, ``precision``, ``confidence``, ``method``, ``note``.

    Notes
    -----
    Maricq et al., "Taming performance variability", OSDI 2018: CONFIRM resamples the runs a
    testbed has seen and reports how the nonparametric CI of the median narrows with ``n``;
    the run count is the first ``n`` at which the CI lies within ±r % of the median. The
    interval is the order-statistic one of :func:`ebsstats.median_ci` (Le Boudec 2010).

    Examples
    --------
    >>> import numpy as np, pandas as pd, ebsstats as es
    >>> df = pd.DataFrame({"value": np.exp(np.random.default_rng(0).normal(0, 0.05, 40))})
    >>> s = es.repetitions_needed(df, precision=0.05, summary=True)
    >>> int(s["n_needed"].iloc[0]) < 40
    True
    """
    if not 0 < precision:
        raise ValueError(f"precision must be positive, got {precision}")
    keys = group_keys(data, by, within)
    check_columns(data, [value, *keys])
    curves, summaries = [], []
    for i, (key, sub) in enumerate(iter_groups(data, keys)):
        rng = np.random.default_rng([seed, i])
        x, n_excl = clean_values(sub, value)
        n_obs = len(x)
        top = n_obs if n_max is None else int(n_max)
        sizes = np.arange(2, top + 1)
        method = (f"CONFIRM: {n_boot} random subsets per n, order-statistic CI of the median"
                  + ("; beyond n_obs resampled with replacement" if top > n_obs else ""))
        note = None
        if n_obs < 2 or len(sizes) == 0:
            curve = pd.DataFrame(columns=["n", "half_width_rel"])
            n_needed = pd.NA
            note = f"n={n_obs}: too few runs to resample"
        else:
            curve = _curve(x, sizes, confidence, n_boot, rng)
            good = curve[(curve["half_width_rel"] <= precision) & curve["reaches_confidence"]]
            n_needed = int(good["n"].iloc[0]) if len(good) else pd.NA
            if n_needed is pd.NA:
                note = f"±{precision:.3g} not reached up to n={top}"
            elif bool(good["extrapolated"].iloc[0]):
                note = "n_needed extrapolated beyond the observed runs"
        curve = curve.assign(**key) if key else curve
        curve["n_obs"] = n_obs
        curve["n_needed"] = n_needed
        curves.append(curve)
        at_obs = curve.loc[curve["n"] == n_obs, "half_width_rel"] if n_obs >= 2 else []
        summaries.append({**key, "n_obs": n_obs, "n_excluded": n_excl, "n_needed": n_needed,
                          "half_width_rel_at_n_obs": float(at_obs.iloc[0]) if len(at_obs)
                          else np.nan, "precision": precision, "confidence": confidence,
                          "method": method, "note": note})
        curve["precision"], curve["confidence"], curve["method"] = precision, confidence, method
    if summary:
        out = pd.DataFrame(summaries)
        out["n_needed"] = out["n_needed"].astype("Int64")
        return out
    curves = [c for c in curves if len(c)]
    if not curves:
        return pd.DataFrame(columns=[*keys, "n", "half_width_rel", "n_needed"])
    out = pd.concat(curves, ignore_index=True)
    out["n_needed"] = out["n_needed"].astype("Int64")
    return out[[*keys, *[c for c in out.columns if c not in keys]]]
