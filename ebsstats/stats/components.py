"""Where the variance comes from: nested random effects and Kalibera–Jones allocation.

:func:`variance_components` splits the spread of a metric into levels such as
``az > instance > volume > run`` with a linear mixed model (statsmodels ``MixedLM``, REML, nested
variance components), or with the classical ANOVA (expected mean squares) estimator for
balanced designs, and says where the next runs should go.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ebsstats.stats.summary import as_list, check_columns, group_keys, iter_groups

__all__ = ["variance_components"]


def _nested_labels(df: pd.DataFrame, levels: list[str]) -> pd.DataFrame:
    """Unique labels per level (``az/instance/volume``), so equal names under different
    parents are different units."""
    out = pd.DataFrame(index=df.index)
    acc = None
    for lvl in levels:
        lab = df[lvl].astype(str).fillna("<NA>")
        acc = lab if acc is None else acc + "/" + lab
        out[lvl] = acc
    return out


def _fit_mixedlm(y: np.ndarray, lab: pd.DataFrame, levels: list[str]) -> tuple[dict, str]:
    import statsmodels.formula.api as smf

    d = lab.copy()
    d["_y"] = y
    top, rest = levels[0], levels[1:]
    names = {lvl: f"_l{i}" for i, lvl in enumerate(levels)}
    d = d.rename(columns=names)
    vc = {names[lvl]: f"0 + C({names[lvl]})" for lvl in rest}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = smf.mixedlm("_y ~ 1", d, groups=d[names[top]], re_formula="1",
                            vc_formula=vc or None)
        res = model.fit(reml=True, method=["lbfgs", "powell"])
    est = {top: float(res.cov_re.iloc[0, 0])}
    for name, v in zip(model.exog_vc.names, np.atleast_1d(res.vcomp), strict=True):
        lvl = next(k for k, n in names.items() if n == name)
        est[lvl] = float(v)
    est["__residual__"] = float(res.scale)
    total = sum(est.values())
    at_zero = [lvl for lvl, v in est.items() if v <= 1e-4 * total and lvl != "__residual__"]
    notes = [f"{lvl} variance at the boundary (0)" for lvl in at_zero]
    if not res.converged or any("converge" in str(w.message).lower() for w in caught):
        notes.insert(0, "MixedLM did not converge cleanly")
    return est, "; ".join(notes)


def _fit_anova(y: np.ndarray, lab: pd.DataFrame, levels: list[str]) -> tuple[dict, str]:
    """Expected-mean-squares estimator for a balanced nested design (equals REML when no
    estimate is negative)."""
    cols = levels
    sizes = [lab[c].nunique() for c in cols]
    n = len(y)
    # balance check: every unit of each level has the same number of observations
    per = [lab.groupby(c).size() for c in cols]
    if any(p.nunique() != 1 for p in per):
        raise ValueError("method='anova' needs a balanced design; use method='reml'")
    obs_per_unit = [int(p.iloc[0]) for p in per]  # m_i
    grand = y.mean()
    ss, dfs = [], []
    prev_means = np.full(n, grand)
    prev_units = 1
    for c, k in zip(cols, sizes, strict=True):
        means = pd.Series(y).groupby(lab[c].to_numpy()).transform("mean").to_numpy()
        ss.append(float(((means - prev_means) ** 2).sum()))
        dfs.append(k - prev_units)
        prev_means, prev_units = means, k
    ss_e = float(((y - prev_means) ** 2).sum())
    df_e = n - prev_units
    ms = [s / d if d > 0 else np.nan for s, d in zip(ss, dfs, strict=True)]
    ms_e = ss_e / df_e if df_e > 0 else np.nan
    est = {"__residual__": ms_e}
    below = ms_e
    for c, m_i, ms_i in zip(reversed(cols), reversed(obs_per_unit), reversed(ms), strict=True):
        est[c] = max((ms_i - below) / m_i, 0.0)
        below = ms_i
    return est, "balanced ANOVA (expected mean squares), negative estimates set to 0"


def _advice(levels_all: list[str], var: dict, costs: dict) -> dict:
    """Kalibera & Jones (2013): optimal units of level i per unit of its parent,
    ``sqrt((c_parent / c_i) * (var_i / var_parent))``."""
    out = {}
    for parent, child in zip(levels_all[:-1], levels_all[1:], strict=True):
        vp, vc = var.get(parent, np.nan), var.get(child, np.nan)
        cp, cc = float(costs.get(parent, 1.0)), float(costs.get(child, 1.0))
        if not (np.isfinite(vp) and np.isfinite(vc)):
            out[child] = (np.nan, f"{child}: not estimable")
            continue
        r = math.inf if vp <= 0 else math.sqrt((cp / cc) * (vc / vp))
        r_int = max(1, round(r)) if math.isfinite(r) else math.inf
        if r_int == math.inf:
            text = (f"{parent} adds no detectable variance: repeat {child}s on few {parent}s "
                    f"(any number per {parent} is optimal)")
        elif r_int <= 1:
            text = (f"optimal {child}s per {parent} ≈ 1 (cost {parent}:{child} = {cp:g}:{cc:g}): "
                    f"spend effort on more {parent}s, not more {child}s")
        else:
            text = (f"optimal {child}s per {parent} ≈ {r_int} (cost {parent}:{child} = "
                    f"{cp:g}:{cc:g}); beyond that add {parent}s")
        out[child] = (float(r_int), text)
    return out


def variance_components(data: pd.DataFrame, value: str = "value",
                        levels: Sequence[str] | str = ("az", "instance", "volume"),
                        log: bool = True, costs: dict | None = None, residual: str = "run",
                        method: str = "reml", by: str | Sequence[str] | None = None,
                        within: str | Sequence[str] | None = "auto") -> pd.DataFrame:
    """Share of the variance at each level of a nested design, and where to add runs.

    Parameters
    ----------
    data : DataFrame
        Tidy results frame with one column per level.
    value : str
        Column of values.
    levels : list of str
        Nesting levels from the top (``["az", "instance", "volume"]``); rows are the residual
        level (``residual``). Labels are nested: ``vol-1`` under two instances are two volumes.
        Levels with a single unit, or with exactly one unit per parent (confounded), are
        dropped and reported.
    log : bool
        Model ``log(value)`` (default): variances are then on the log scale, ``sd`` ≈ CV, and
        shares do not depend on the unit. Values ≤ 0 are excluded.
    costs : dict, optional
        Cost of adding one unit at each level, excluding the lower levels (e.g.
        ``{"volume": 10, "run": 1}``: a new volume costs ten runs); default 1 each.
    residual : str
        Name of the lowest level (the repeated runs).
    method : {"reml", "anova"}
        ``reml``: :class:`statsmodels.regression.mixed_linear_model.MixedLM` with the top level
        as groups and nested variance components. ``anova``: expected mean squares, balanced
        designs only.
    by, within : str or list of str
        One analysis per group (``within`` defaults to test/op/metric present).

    Returns
    -------
    DataFrame
        One row per (group, level), top to bottom then ``residual``: ``level``, ``n_units``,
        ``variance``, ``sd``, ``share`` (of the total), ``icc`` (correlation of two values
        sharing a unit of this level: sum of the variances at and above it over the total),
        ``cv`` (``sqrt(exp(var) - 1)`` when ``log``), ``optimal_per_parent`` and ``advice``
        (Kalibera & Jones), ``n``, ``n_excluded``, ``log``, ``method``, ``note``. Intervals of
        the components are not reported (MixedLM gives none for variance components).

    Notes
    -----
    Kalibera & Jones, "Rigorous benchmarking in reasonable time", ISMM 2013: with variance
    components :math:`\\sigma^2_i` and costs :math:`c_i`, the number of level-``i`` repetitions
    per parent unit that minimises the variance of the grand mean for a given cost is
    :math:`r_i = \\sqrt{(c_{i-1}/c_i)(\\sigma^2_i/\\sigma^2_{i-1})}`. ``r ≈ 1`` means "add
    volumes, not runs". The ANOVA estimator is the classical one for balanced nested designs
    (Searle, Casella & McCulloch, *Variance Components*, 1992, ch. 4).

    Examples
    --------
    >>> import numpy as np, pandas as pd, ebsstats as es
    >>> rng = np.random.default_rng(0)
    >>> vol = np.repeat(np.arange(8), 5)
    >>> y = np.exp(rng.normal(0, 0.10, 8)[vol] + rng.normal(0, 0.02, 40))
    >>> df = pd.DataFrame({"volume": vol.astype(str), "value": y})
    >>> r = es.variance_components(df, levels=["volume"])
    >>> r["level"].tolist(), bool(r["share"].iloc[0] > 0.8)
    (['volume', 'run'], True)
    """
    if method not in ("reml", "anova"):
        raise ValueError(f"method must be 'reml' or 'anova', got {method!r}")
    levels = as_list(levels)
    if not levels:
        raise ValueError("variance_components needs at least one level")
    costs = dict(costs or {})
    keys = [k for k in group_keys(data, by, within) if k not in levels]
    check_columns(data, [value, *levels, *keys])
    rows = []
    for key, sub in iter_groups(data, keys):
        y = pd.to_numeric(sub[value], errors="coerce").to_numpy(float, na_value=np.nan)
        ok = np.isfinite(y) & ((y > 0) if log else True)
        n_excl = int((~ok).sum())
        y = np.log(y[ok]) if log else y[ok]
        lab = _nested_labels(sub.loc[ok], levels).reset_index(drop=True)
        notes = []
        used = []
        prev_units = 1
        for lvl in levels:
            k = lab[lvl].nunique()
            if k <= prev_units:
                notes.append(f"{lvl} dropped ({k} unit(s) for {prev_units} parent unit(s))")
                continue
            used.append(lvl)
            prev_units = k
        if len(used) and len(lab) > prev_units:
            try:
                fit = _fit_mixedlm if method == "reml" else _fit_anova
                est, note = fit(y, lab, used)
                if note:
                    notes.append(note)
            except (ValueError, np.linalg.LinAlgError) as exc:
                est = {}
                notes.append(f"fit failed: {exc}")
        else:
            est = {}
            notes.append("too few units or runs to separate levels")
        var = {lvl: est.get(lvl, np.nan) for lvl in used}
        var[residual] = est.get("__residual__", np.nan)
        all_lv = [*used, residual]
        total = float(np.nansum([var[lv] for lv in all_lv])) if est else np.nan
        adv = _advice(all_lv, var, costs)
        cum = 0.0
        meth = ("REML mixed model (statsmodels MixedLM)" if method == "reml"
                else "ANOVA expected mean squares") + (" on log(value)" if log else "")
        for lv in [*levels, residual]:
            v = var.get(lv, np.nan)
            if lv in var and np.isfinite(v):
                cum += v
            share = v / total if total and np.isfinite(v) else np.nan
            r, text = adv.get(lv, (np.nan, None))
            if lv == (used[0] if used else None) and np.isfinite(v):
                text = (f"{lv}: {share:.0%} of the variance; only more {lv}s reduce it")
            rows.append({**key, "level": lv,
                         "n_units": int(lab[lv].nunique()) if lv in lab else len(lab),
                         "variance": v, "sd": math.sqrt(v) if np.isfinite(v) and v >= 0 else np.nan,
                         "share": share,
                         "icc": cum / total if lv != residual and lv in var and total else np.nan,
                         "cv": math.sqrt(math.expm1(v)) if log and np.isfinite(v) and v >= 0
                         else np.nan,
                         "optimal_per_parent": r, "advice": text, "n": len(y),
                         "n_excluded": n_excl, "log": log, "method": meth,
                         "note": "; ".join(notes) or None})
    return pd.DataFrame(rows)
