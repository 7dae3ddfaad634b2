"""How many repetitions are enough: CONFIRM-style :func:`repetitions_needed`.

Subsets of the observed runs are drawn at every size ``n``; each gives an order-statistic CI of
the median, and the curve of its relative half-width against ``n`` shows how the interval
narrows. The recommended ``n`` comes from a parametric model of fresh campaigns (a Student t
fitted to the log values), so that the target is met with a stated probability.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ebsstats.stats._checks import mixed_parameters
from ebsstats.stats._core import (
    check_columns,
    check_levels,
    clean_values,
    group_keys,
    iter_groups,
    key_value,
    order_stat_ranks,
)

__all__ = ["repetitions_needed"]

N_SIM = 2000      # simulated fresh campaigns per candidate n
N_SEARCH = 1000   # largest n searched for n_needed when n_max is not given


class _Model:
    """Fresh campaigns from a Student t fitted to the log values (location-scale, ML).

    The draws are nested (the campaign of size ``n`` is the first ``n`` columns of one matrix),
    so the assured half-width is a smooth function of ``n`` and of the scale.
    """

    def __init__(self, x: np.ndarray, rng: np.random.Generator, n_hi: int, confidence: float):
        from scipy import stats as st

        y = np.log(x)
        # centred first: the fit is of the shape and scale only (the location is dropped), and
        # scipy's optimiser stopped short on log values far from 0 (latencies in seconds, about
        # -6): the same runs in s and in ms gave n_needed 17 and 15
        df, _, scale = st.t.fit(y - np.median(y))
        self.df = float(np.clip(df, 1.5, 200.0))
        if not np.isfinite(scale) or scale <= 0:
            scale = float(np.std(y)) or 1e-12
        self.scale = float(scale)
        self.rng = rng
        self.z = st.t.rvs(self.df, size=(N_SIM, max(min(n_hi, 64), 2)), random_state=rng)
        self.confidence = confidence
        self._cache: dict[int, tuple[np.ndarray, bool]] = {}

    def std_width(self, n: int) -> tuple[np.ndarray, np.ndarray, bool]:
        """Per simulated campaign: upper and lower standardised distance of the CI bounds from
        the median, and whether the interval reaches ``confidence`` at this ``n``."""
        if n not in self._cache:
            if n > self.z.shape[1]:  # extend the campaigns (nested: earlier columns kept)
                from scipy import stats as st

                more = st.t.rvs(self.df, size=(N_SIM, max(n, 2 * self.z.shape[1])
                                               - self.z.shape[1]), random_state=self.rng)
                self.z = np.hstack([self.z, more])
            j, k, _, ok = order_stat_ranks([n], self.confidence)
            lo, hi, mid = int(j[0]) - 1, int(k[0]) - 1, [(n - 1) // 2, n // 2]
            # the four order statistics needed, in linear time (a sort is n log n)
            s = np.partition(self.z[:, :n], sorted({lo, hi, *mid}), axis=1)
            med = (s[:, mid[0]] + s[:, mid[1]]) / 2
            self._cache[n] = (s[:, hi] - med, med - s[:, lo], bool(ok[0]))
        return self._cache[n]

    def half_widths(self, n: int, scale: float | None = None) -> tuple[np.ndarray, bool]:
        up, down, ok = self.std_width(n)
        sc = self.scale if scale is None else scale
        return np.maximum(np.expm1(sc * up), -np.expm1(-sc * down)), ok

    def met(self, n: int, precision: float, assurance: float, scale=None) -> bool:
        hw, ok = self.half_widths(n, scale)
        return ok and float(np.quantile(hw, assurance)) <= precision

    def n_needed(self, precision: float, assurance: float, n_hi: int, scale=None):
        """Smallest n (2..n_hi) from which on the target is met: a doubling bracket and a
        bisection find the first size that meets it after one that does not, then a scan
        forward moves past any larger size that misses it (:meth:`_stable_from`)."""
        lo, hi = 1, 2
        while not self.met(hi, precision, assurance, scale):
            if hi >= n_hi:
                return None
            lo, hi = hi, min(2 * hi, n_hi)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.met(mid, precision, assurance, scale):
                hi = mid
            else:
                lo = mid
        return self._stable_from(hi, precision, assurance, n_hi, scale)

    def _stable_from(self, n: int, precision: float, assurance: float, n_hi: int, scale):
        """The smallest size from ``n`` on that meets the target and whose next two
        saw-tooth peaks meet it too, else ``None``.

        The interval's ranks move in steps: the lower rank ``j`` stays for 1-3 sizes (up to
        13 below n = 20) while the sample grows, so the assured half-width rises within a step
        and drops when ``j`` moves; the peaks fall with n. A size in a dip can meet the target
        while a campaign one or two runs longer does not (the saw-tooth of exact-interval sample
        sizes: Chernick & Liu, The American Statistician 56(2), 2002), so the size is moved
        past every miss up to the end of the second rank step after it."""
        cand, m = n, n
        end = _second_step_end(cand, self.confidence)
        while m <= n_hi:
            if not self.met(m, precision, assurance, scale):
                cand = m + 1
                end = _second_step_end(cand, self.confidence)
            elif m >= end:
                return cand
            m += 1
        return cand if cand <= n_hi else None


def _second_step_end(n: int, confidence: float) -> int:
    """The last size of the second run of sizes after ``n`` that share the interval's lower
    rank: checking every size up to it covers the next two peaks of the saw-tooth."""
    sizes = np.arange(n, n + 32)  # (two steps span at most 26 sizes: 13 each below n = 20)
    j = order_stat_ranks(sizes, confidence)[0]
    steps = np.flatnonzero(np.diff(j)) + 1  # indices where j moves up
    return int(sizes[steps[1] - 1]) if len(steps) >= 2 else int(sizes[-1])


#: The curve holds every n up to this, then :data:`CURVE_STEPS` sizes evenly spaced in log n.
CURVE_EVERY_N = 200
CURVE_STEPS = 100


def _sizes(top: int, n_obs: int, summary: bool) -> np.ndarray:
    """The sizes on a group's curve: every n to :data:`CURVE_EVERY_N`, then a log-spaced grid
    to ``top`` (with ``n_obs`` on it); with ``summary`` only ``n_obs``, the one size the
    summary reads. Every n to 2,000 runs took 143 s (n subsets of n runs at each of n sizes).

    >>> _sizes(5, 5, False).tolist(), _sizes(1000, 800, True).tolist()
    ([2, 3, 4, 5], [800])
    >>> s = _sizes(2000, 2000, False); int(s[199]), len(s), int(s[-1]), bool(800 in _sizes(
    ...     2000, 800, False))
    (201, 299, 2000, True)
    """
    if summary:  # (n_max below the runs: the largest size, so the group is still modelled)
        return np.array([min(n_obs, top)] if min(n_obs, top) >= 2 else [], dtype=int)
    every = np.arange(2, min(top, CURVE_EVERY_N) + 1)
    if top <= CURVE_EVERY_N:
        return every
    grid = np.unique(np.round(np.geomspace(CURVE_EVERY_N + 1, top, CURVE_STEPS)).astype(int))
    extra = [n_obs] if CURVE_EVERY_N < n_obs <= top else []
    return np.unique(np.concatenate([every, grid, extra])).astype(int)


def _curve(x: np.ndarray, sizes: np.ndarray, confidence: float, n_boot: int,
           rng: np.random.Generator, model: _Model | None, precision: float,
           assurance: float) -> pd.DataFrame:
    n_obs = len(x)
    j, k, level, reached = order_stat_ranks(sizes, confidence)
    rows = []
    for size, jj, kk, lev, ok in zip(sizes, j, k, level, reached, strict=True):
        if size <= n_obs:  # CONFIRM: random subsets of the observed runs (no replacement)
            idx = np.argsort(rng.random((n_boot, n_obs)), axis=1)[:, :size]
            sample = x[idx]
            sample.sort(axis=1)
            med = np.median(sample, axis=1)
            lo, hi = sample[:, jj - 1], sample[:, kk - 1]
            with np.errstate(divide="ignore", invalid="ignore"):
                hw = np.maximum(hi - med, med - lo) / np.abs(med)
        else:  # beyond the data: the parametric model (resampling would overstate widths)
            hw = model.half_widths(int(size))[0] if model else np.full(1, np.nan)
        par = model.half_widths(int(size))[0] if model else np.full(1, np.nan)
        rows.append({"n": int(size), "half_width_rel": float(np.nanmean(hw)),
                     "half_width_rel_median": float(np.nanmedian(hw)),
                     "half_width_rel_ci_low": float(np.nanquantile(hw, 0.05)),
                     "half_width_rel_ci_high": float(np.nanquantile(hw, 0.95)),
                     "ci_level": float(lev), "reaches_confidence": bool(ok),
                     "extrapolated": bool(size > n_obs),
                     "p_within": float(np.mean(par <= precision)),
                     "half_width_rel_assured": float(np.quantile(par, assurance))})
    return pd.DataFrame(rows)


def _needed(model: _Model, x: np.ndarray, rng: np.random.Generator, precision: float,
            assurance: float, n_hi: int) -> tuple:
    """n_needed at the fitted scale, and at the 5 %/95 % bootstrap quantiles of the MAD."""
    from scipy import stats as st

    n = model.n_needed(precision, assurance, n_hi)
    y = np.log(x)
    mad = st.median_abs_deviation(y)
    boot = st.median_abs_deviation(y[rng.integers(0, len(y), (200, len(y)))], axis=1)
    c_lo, c_hi = (np.quantile(boot, [0.05, 0.95]) / mad) if mad > 0 else (1.0, 1.0)
    lo = model.n_needed(precision, assurance, n_hi, model.scale * c_lo)
    hi = model.n_needed(precision, assurance, n_hi, model.scale * c_hi)
    na = pd.NA
    return (na if n is None else n), {
        "n_needed_low": na if lo is None else lo, "n_needed_high": na if hi is None else hi,
        "tail_df": model.df, "log_scale": model.scale, "assurance": assurance}


def _with_mix(note: str | None, mixed: dict, key: dict, keys: list[str]) -> str | None:
    """``note`` with the group's mixed workload parameters appended (the spread of a mix of
    workloads is not run-to-run noise)."""
    mix = mixed.get(tuple(key_value(key[k]) for k in keys)) if mixed else None
    if not mix:
        return note
    return f"{note}; {mix}" if note else mix


def repetitions_needed(data: pd.DataFrame, value: str = "value",
                       by: str | Sequence[str] | None = None, precision: float = 0.05,
                       confidence: float = 0.95, n_max: int | None = None, n_boot: int = 200,
                       seed: int = 0, within: str | Sequence[str] | None = "auto",
                       summary: bool = False, assurance: float = 0.90) -> pd.DataFrame:
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
        Largest ``n`` on the curve (default: the number of observed runs) and largest ``n``
        searched for ``n_needed`` (default 1000). The curve has every ``n`` up to 200, then
        100 sizes evenly spaced in log ``n`` (and the observed number of runs). Rows beyond the observed runs come from the
        parametric model and say ``extrapolated``.
    n_boot : int
        Random subsets drawn at each ``n``.
    seed : int
        Seed (deterministic by default).
    summary : bool
        Return one row per group instead of the curve.
    assurance : float
        Probability with which a fresh campaign of ``n_needed`` runs must meet the target
        (default 90 %); 0.5 gives the median campaign.

    Returns
    -------
    DataFrame
        Curve (long): the grouping columns, ``n``, ``half_width_rel`` (mean over subsets of
        ``max(hi - median, median - lo) / median``), ``half_width_rel_median``,
        ``half_width_rel_ci_low``/``_ci_high`` (5 % and 95 % quantiles over subsets),
        ``ci_level`` (exact coverage at this ``n``), ``reaches_confidence``, ``extrapolated``,
        ``n_obs``, ``n_needed``, ``precision``, ``confidence``, ``method``.
        ``p_within`` (model probability that a fresh campaign of ``n`` runs meets the target)
        and ``half_width_rel_assured`` (its ``assurance`` quantile of the half-width).
        Summary (``summary=True``): one row per group with ``n_obs``, ``n_excluded``,
        ``n_needed`` (smallest ``n`` from which on the interval reaches ``confidence`` and its
        half-width is within ``precision`` in ``assurance`` of fresh campaigns, at ``n`` and
        at the larger sizes after it; ``<NA>`` if none up to the search limit), ``n_needed_low``/``n_needed_high`` (the same at the 5 % and 95 %
        bootstrap quantiles of the log-scale MAD, i.e. the uncertainty the pilot leaves),
        ``tail_df`` and ``log_scale`` (the fitted t), ``assurance``,
        ``half_width_rel_at_n_obs``, ``precision``, ``confidence``, ``method``, ``note``.

    Notes
    -----
    Maricq et al., "Taming performance variability", OSDI 2018: CONFIRM resamples the runs a
    testbed has seen and reports how the nonparametric CI of the median narrows with ``n``;
    the run count is the first ``n`` at which the CI lies within ±r % of the median. The
    interval is the order-statistic one of :func:`ebsstats.median_ci` (Le Boudec 2010).

    The run count is chosen as a sample size with *assurance* (O'Hagan, Stevens & Campbell,
    Pharmaceutical Statistics 4(3), 2005): the interval must meet the target in ``assurance``
    of campaigns, not on average — a mean half-width at the target meets it in only about
    half of the campaigns. The half-width of an order-statistic interval saw-tooths with
    ``n`` (its ranks move in steps), so a size can meet the target while a campaign one or two
    runs longer does not (Chernick & Liu, The American Statistician 56(2), 2002);
    ``n_needed`` is the size after which the peaks stay within the target. Fresh campaigns are drawn from a Student t fitted by maximum
    likelihood to the log values (heavy tails are kept; a normal model is the limit of large
    degrees of freedom). Resampling the pilot with replacement instead adds the pilot's own
    sampling noise and ties, and overstates half-widths beyond the pilot.

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
    check_levels(confidence=confidence, assurance=assurance)  # (95: 'not reached up to n=1000')
    keys = group_keys(data, by, within)
    check_columns(data, [value, *keys])
    mixed = mixed_parameters(data, keys)  # groups whose runs measured different workloads
    curves, summaries = [], []
    for i, (key, sub) in enumerate(iter_groups(data, keys)):
        rng = np.random.default_rng([seed, i])
        x, n_excl = clean_values(sub, value)
        n_obs = len(x)
        top = n_obs if n_max is None else int(n_max)
        search = N_SEARCH if n_max is None else int(n_max)
        sizes = _sizes(top, n_obs, summary)
        method = (f"CONFIRM: {n_boot} random subsets per n, order-statistic CI of the median; "
                  f"n_needed: target met in {assurance:.0%} of {N_SIM} campaigns simulated "
                  "from a Student t fitted to log(value)")
        note = None
        extra = {"n_needed_low": pd.NA, "n_needed_high": pd.NA, "tail_df": np.nan,
                 "log_scale": np.nan, "assurance": assurance}
        if n_obs < 5 or len(sizes) == 0 or np.any(x <= 0):
            curve = pd.DataFrame(columns=["n", "half_width_rel"])
            n_needed = pd.NA
            note = (f"n={n_obs}: too few runs to model" if n_obs < 5 or len(sizes) == 0
                    else "values <= 0: no log-scale model")
        else:
            model = _Model(x, rng, max(search, top), confidence)
            curve = _curve(x, sizes, confidence, n_boot, rng, model, precision, assurance)
            n_needed, extra = _needed(model, x, rng, precision, assurance, max(search, 2))
            if n_needed is pd.NA:
                note = f"±{precision:.3g} not reached up to n={search}"
            elif n_needed > n_obs:
                note = "n_needed extrapolated beyond the observed runs"
        note = _with_mix(note, mixed, key, keys)
        curve = curve.assign(**key) if key else curve
        curve["n_obs"] = n_obs
        curve["n_needed"] = n_needed
        curves.append(curve)
        at_obs = curve.loc[curve["n"] == n_obs, "half_width_rel"] if n_obs >= 2 else []
        summaries.append({**key, "n_obs": n_obs, "n_excluded": n_excl, "n_needed": n_needed,
                          **extra,
                          "half_width_rel_at_n_obs": float(at_obs.iloc[0]) if len(at_obs)
                          else np.nan, "precision": precision, "confidence": confidence,
                          "method": method, "note": note})
        curve["precision"], curve["confidence"], curve["method"] = precision, confidence, method
    if summary:
        out = pd.DataFrame(summaries)
        for c in ("n_needed", "n_needed_low", "n_needed_high"):
            out[c] = out[c].astype("Int64")
        return out
    curves = [c for c in curves if len(c)]
    if not curves:
        return pd.DataFrame(columns=[*keys, "n", "half_width_rel", "n_needed"])
    out = pd.concat(curves, ignore_index=True)
    out["n_needed"] = out["n_needed"].astype("Int64")
    return out[[*keys, *[c for c in out.columns if c not in keys]]]
