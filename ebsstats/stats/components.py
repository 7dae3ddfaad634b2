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

from ebsstats.stats._core import as_list, check_columns, group_keys, iter_groups

__all__ = ["variance_components"]

BOUNDARY = 1e-3  # a component below this share of the total is "at the boundary" (0)


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


OPTIMIZERS = ("lbfgs", "bfgs", "cg", "powell", "nm")


def _fit_mixedlm(y: np.ndarray, lab: pd.DataFrame, levels: list[str]) -> tuple[dict, str]:
    """REML fit trying each optimizer in turn (an optimizer's ``LinAlgError`` or a
    non-converged fit moves on to the next); raises ``ValueError`` when all fail."""
    import statsmodels.formula.api as smf

    d = lab.copy()
    d["_y"] = y
    top, rest = levels[0], levels[1:]
    names = {lvl: f"_l{i}" for i, lvl in enumerate(levels)}
    d = d.rename(columns=names)
    vc = {names[lvl]: f"0 + C({names[lvl]})" for lvl in rest}
    model = smf.mixedlm("_y ~ 1", d, groups=d[names[top]], re_formula="1",
                        vc_formula=vc or None)
    res, used, fallback, errors = None, None, None, []
    for opt in OPTIMIZERS:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                r = model.fit(reml=True, method=opt)
            except (np.linalg.LinAlgError, ValueError, FloatingPointError) as exc:
                errors.append(f"{opt}: {exc}")
                continue
        # (a finite log-likelihood too: on unbalanced one-level designs lbfgs can stop at an
        # instance variance of 0 with llf = +inf and call it converged; 88 of 100 such fits at
        # a between-instance sd of 0.05 against a run sd of 0.2)
        ok = (np.isfinite(r.scale) and np.all(np.isfinite(np.asarray(r.cov_re)))
              and np.isfinite(r.llf))
        clean = r.converged and not any("converge" in str(w.message).lower() for w in caught)
        if ok and clean:
            res, used = r, opt
            break
        if ok and fallback is None:
            fallback = (r, opt)
    if res is None and fallback is not None:
        res, used = fallback
        errors.append("MixedLM did not converge cleanly")
    if res is None:
        raise ValueError("MixedLM failed with every optimizer (" + "; ".join(errors) + ")")
    est = {top: max(float(res.cov_re.iloc[0, 0]), 0.0)}
    for name, v in zip(model.exog_vc.names, np.atleast_1d(res.vcomp), strict=True):
        lvl = next(k for k, n in names.items() if n == name)
        est[lvl] = max(float(v), 0.0)
    est["__residual__"] = float(res.scale)
    est["__optimizer__"] = used
    notes = [e for e in errors if "did not converge" in e]
    if used != OPTIMIZERS[0]:
        notes.append(f"REML optimizer {used} (earlier ones failed)")
    return est, "; ".join(notes)


def _boundary_notes(est: dict) -> list[str]:
    total = sum(v for k, v in est.items() if not k.startswith("__optim"))
    return [f"{lvl} variance at the boundary (0)" for lvl, v in est.items()
            if not lvl.startswith("__") and v <= BOUNDARY * total]


def _fit_oneway(y: np.ndarray, lab: pd.DataFrame, level: str) -> tuple[dict, str]:
    """One-way ANOVA (method of moments) with unequal group sizes: ``n0 = (N - Σn²/N)/(k-1)``
    (Searle, Casella & McCulloch 1992, §3.6)."""
    g = pd.Series(y).groupby(lab[level].to_numpy())
    n_i, m_i = g.size().to_numpy(float), g.mean().to_numpy(float)
    n, k = float(n_i.sum()), len(n_i)
    ssb = float((n_i * (m_i - y.mean()) ** 2).sum())
    ssw = float(((y - g.transform("mean").to_numpy()) ** 2).sum())
    msb, msw = ssb / (k - 1), ssw / (n - k)
    n0 = (n - (n_i ** 2).sum() / n) / (k - 1)
    return ({level: max((msb - msw) / n0, 0.0), "__residual__": msw},
            "one-way ANOVA (method of moments), negative estimate set to 0")


def _fit_anova(y: np.ndarray, lab: pd.DataFrame, levels: list[str]) -> tuple[dict, str]:
    """Expected-mean-squares estimator for a balanced nested design (equals REML when no
    estimate is negative); one level with unequal group sizes: :func:`_fit_oneway`."""
    cols = levels
    if len(cols) == 1 and lab.groupby(cols[0]).size().nunique() != 1:
        return _fit_oneway(y, lab, cols[0])
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


def _fit_chain(y, lab, used, method):
    """REML (optimizer chain) then ANOVA/moments; returns (est, fitted, notes)."""
    notes = []
    if method == "reml":
        try:
            est, note = _fit_mixedlm(y, lab, used)
            return est, "reml", [note, *_boundary_notes(est)]
        except (ValueError, np.linalg.LinAlgError) as exc:
            notes.append(f"REML failed: {exc}")
    try:
        est, note = _fit_anova(y, lab, used)
        return est, "anova", [*notes, note, *_boundary_notes(est)]
    except (ValueError, np.linalg.LinAlgError, ZeroDivisionError) as exc:
        return {}, None, [*notes, f"fit failed: {exc}"]


def _share_ci(y, lab, used, est, fitted, n_boot, confidence, seed) -> dict:
    """Parametric bootstrap percentile intervals of the shares (same design, normal effects)."""
    comps = [*used, "__residual__"]
    var = np.array([max(est.get(c, 0.0), 0.0) for c in comps])
    if not np.all(np.isfinite(var)) or var.sum() <= 0:
        return {}
    balanced = all(lab.groupby(c).size().nunique() == 1 for c in used) or len(used) == 1
    refit = _fit_anova if balanced else _fit_mixedlm
    codes = [pd.factorize(lab[c])[0] for c in used]
    rng = np.random.default_rng(seed)
    shares = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(int(n_boot)):
            yb = rng.normal(0, math.sqrt(var[-1]), len(y))
            for c, v in zip(codes, var[:-1], strict=True):
                yb += rng.normal(0, math.sqrt(v), c.max() + 1)[c]
            try:
                eb, _ = refit(yb, lab, used)
            except (ValueError, np.linalg.LinAlgError):
                continue
            vb = np.array([max(eb.get(c, 0.0), 0.0) for c in comps])
            shares.append(vb / vb.sum())
    if len(shares) < 20:
        return {}
    shares = np.array(shares)
    a = (1 - confidence) / 2
    lo, hi = np.quantile(shares, [a, 1 - a], axis=0)
    names = [*used, "__residual__"]
    return dict(zip(names, zip(lo, hi, strict=True), strict=True))


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
        total = sum(v for v in var.values() if np.isfinite(v))
        if total > 0 and (vp <= BOUNDARY * total or vc <= BOUNDARY * total):
            at = parent if vp <= BOUNDARY * total else child
            out[child] = (np.nan, f"{child}s per {parent}: not estimable ({at} variance at the "
                                  f"boundary 0, so the ratio {child}/{parent} is 0 or unbounded);"
                                  f" collect more {parent}s before planning {child}s")
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
                        within: str | Sequence[str] | None = "auto", *, n_boot: int = 200,
                        confidence: float = 0.95, seed: int = 0) -> pd.DataFrame:
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
    n_boot, confidence, seed
        Parametric-bootstrap replicates for the share intervals (``0`` skips them), their
        level, and the seed.

    Returns
    -------
    DataFrame
        One row per (group, level), top to bottom then ``residual``: ``level``, ``n_units``,
        ``variance``, ``sd``, ``share`` (of the total), ``icc`` (correlation of two values
        sharing a unit of this level: sum of the variances at and above it over the total),
        ``cv`` (``sqrt(exp(var) - 1)`` when ``log``), ``optimal_per_parent`` and ``advice``
        (Kalibera & Jones; ``NaN`` with a "not estimable" advice when a component is at the
        boundary 0), ``n``, ``n_excluded``, ``log``, ``method`` (estimator and, for REML, the
        optimizer that succeeded), ``note``, ``share_ci_low``/``share_ci_high`` (parametric
        bootstrap percentile interval).

    Notes
    -----
    Kalibera & Jones, "Rigorous benchmarking in reasonable time", ISMM 2013: with variance
    components :math:`\\sigma^2_i` and costs :math:`c_i`, the number of level-``i`` repetitions
    per parent unit that minimises the variance of the grand mean for a given cost is
    :math:`r_i = \\sqrt{(c_{i-1}/c_i)(\\sigma^2_i/\\sigma^2_{i-1})}`. ``r ≈ 1`` means "add
    volumes, not runs". The ANOVA estimator is the classical one for balanced nested designs
    (Searle, Casella & McCulloch, *Variance Components*, 1992, ch. 4).

    REML is tried with the optimizers lbfgs, bfgs, cg, powell, nm in turn (an optimizer that
    raises — lbfgs's ``LinAlgError`` at a singular Hessian — or does not converge hands over to
    the next); when all fail, the method-of-moments (ANOVA) estimator is used for balanced
    designs and for one level, and ``method`` says so. Share intervals: parametric bootstrap
    (normal random effects with the estimated variances on the same design, refitted by the
    moment estimator where the design allows it, else by REML; percentile interval; Davison &
    Hinkley, *Bootstrap Methods*, 1997, §2.2). Components at the boundary (below 0.1 % of the
    total) make the Kalibera–Jones ratio 0 or unbounded: the advice says "not estimable".

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
    for gi, (key, sub) in enumerate(iter_groups(data, keys)):
        y = pd.to_numeric(sub[value], errors="coerce").to_numpy(float, na_value=np.nan)
        ok = np.isfinite(y) & ((y > 0) if log else True)
        n_excl = int((~ok).sum())
        y = np.log(y[ok]) if log else y[ok]
        lab = _nested_labels(sub.loc[ok], levels).reset_index(drop=True)
        used, notes, prev_units = _usable_levels(lab, levels)
        est, fitted = {}, None
        if len(used) and len(lab) > prev_units:
            est, fitted, note = _fit_chain(y, lab, used, method)
            notes.extend(n for n in note if n)
        else:
            notes.append("too few units or runs to separate levels")
        share_ci = (_share_ci(y, lab, used, est, fitted, n_boot, confidence, seed + gi)
                    if est and n_boot else {})
        ctx = {"key": key, "lab": lab, "n": len(y), "n_excluded": n_excl, "log": log,
               "method": _method_text(est, fitted, method, log),
               "note": "; ".join(notes) or None}
        rows.extend(_rows(levels, used, residual, est, share_ci, costs, ctx))
    return pd.DataFrame(rows)


def _usable_levels(lab: pd.DataFrame, levels: list[str]) -> tuple[list[str], list[str], int]:
    """Levels with more units than their parent (others are dropped with a note)."""
    used, notes, prev_units = [], [], 1
    for lvl in levels:
        k = lab[lvl].nunique()
        if k <= prev_units:
            notes.append(f"{lvl} dropped ({k} unit(s) for {prev_units} parent unit(s))")
            continue
        used.append(lvl)
        prev_units = k
    return used, notes, prev_units


def _method_text(est: dict, fitted: str | None, method: str, log: bool) -> str:
    meth = {"reml": "REML mixed model (statsmodels MixedLM)",
            "anova": "ANOVA expected mean squares"}.get(fitted or "", "no fit")
    if est.get("__optimizer__"):
        meth += f", optimizer {est['__optimizer__']}"
    if fitted == "anova" and method == "reml":
        meth += " (fallback: REML failed)"
    return meth + (" on log(value)" if log else "")


def _rows(levels, used, residual, est, share_ci, costs, ctx) -> list[dict]:
    """One output row per level (top to bottom, then the residual)."""
    var = {lvl: est.get(lvl, np.nan) for lvl in used}
    var[residual] = est.get("__residual__", np.nan)
    all_lv = [*used, residual]
    total = float(np.nansum([var[lv] for lv in all_lv])) if est else np.nan
    adv = _advice(all_lv, var, costs)
    lab, log = ctx["lab"], ctx["log"]
    cum, rows = 0.0, []
    for lv in [*levels, residual]:
        v = var.get(lv, np.nan)
        fin = bool(np.isfinite(v))
        if lv in var and fin:
            cum += v
        share = v / total if total and fin else np.nan
        r, text = adv.get(lv, (np.nan, None))
        ci = share_ci.get("__residual__" if lv == residual else lv, (np.nan, np.nan))
        if used and lv == used[0] and fin:
            text = f"{lv}: {share:.0%} of the variance; only more {lv}s reduce it"
        pos = fin and v >= 0
        rows.append({**ctx["key"], "level": lv,
                     "n_units": int(lab[lv].nunique()) if lv in lab else len(lab),
                     "variance": v, "sd": math.sqrt(v) if pos else np.nan, "share": share,
                     "icc": cum / total if lv != residual and lv in var and total else np.nan,
                     "cv": math.sqrt(math.expm1(v)) if log and pos else np.nan,
                     "share_ci_low": ci[0], "share_ci_high": ci[1],
                     "optimal_per_parent": r, "advice": text, "n": ctx["n"],
                     "n_excluded": ctx["n_excluded"], "log": log, "method": ctx["method"],
                     "note": ctx["note"]})
    return rows
