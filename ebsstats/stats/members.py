"""Slow members of RAID sets and slow volumes across a fleet.

"We were ending up with a slow volume, and which volume was slow might change over time … with a
dumb round robin read setup you are hamstrung by the slowest disk" (seed 001); AWS: "performance
of the stripe is limited to the worst performing volume". The functions here find that member,
say whether its slowness is persistent or transient, follow its identity over time, and measure
what it costs the set.

Method (all on log values, so effects are ratios):

* per set and time window, each member's window median is compared with the median of the
  *other* members of the set in the same window: ``ratio = exp(log x − median(log others))``;
* ``z = log(ratio) / s`` with ``s`` a robust noise scale pooled over the whole set: 1.4826 × the
  median absolute log ratio over the set's member-windows (a MAD pooled across windows is stable
  where a MAD of three other members is not), estimated on the very statistic that is tested, so
  that ``z`` is standard normal when no member is slow;
* a member-window is flagged when ``z`` is beyond ``threshold`` in the bad direction
  (``higher_is_better`` decides which);
* reweighting: the flagged member-windows are left out of the scale and of the other members'
  reference medians, and the flags recomputed, until they no longer change (a one-step
  reweighted MAD, in the spirit of Rousseeuw & Leroy 1987 §4.4). Without it a slow member that
  is one of N = 4 inflates the pooled MAD and drags the reference of the others down, and a
  one-pass scale taken from deviations to the window median under-estimates the spread of the
  leave-one-out ratio (~1.5× with N = 4: 1.4 % of member-windows flagged on the simulator with
  no slow member, against a nominal 0.02 %; 0.02 % reweighted);
* member baseline: each member's usual log ratio to the others (median over its unflagged
  windows) is subtracted before scaling, so that lasting few-% differences between healthy
  volumes neither hide a member that turns slow nor inflate the scale. On the simulator (volume
  random effects σ 0.05, run noise σ 0.03, daily windows, 200 seeds, measured 2026-11-28) the
  moving 30 % slow member is then flagged in 90.0 % of windows (89.5 % flagged and slowest,
  95 % CI 88.6-90.2 %; the 95 % once quoted here was not reproduced) with 0.30 % false flags,
  98 % of them on injected service dips (0.03 % of member-windows with no slow member and no
  dip); the misses are sets where one member is slow in about half of the windows, so that
  its "usual" level is ambiguous, and sets where members' usual levels differ and the others'
  median steps with the slow member (a centred reference is the next step).
  ``benchmarks/validate_outliers.py`` prints the figures;
* over time, a Hampel filter (rolling median ± k × rolling MAD, Hampel 1974; Pearson 2002) marks
  isolated excursions of a member's own series;
* a member is *persistently* slow when it is flagged in at least ``persistent_share`` of the
  windows it appears in, *transiently* slow when flagged in fewer.

References
----------
Hampel, F. R. (1974). The influence curve and its role in robust estimation. JASA 69(346).
Pearson, R. K. (2002). Outliers in process modeling and identification. IEEE TCST 10(1).
Rousseeuw, P. J., & Leroy, A. M. (1987). Robust regression and outlier detection. Wiley.
Rousseeuw, P. J., & Croux, C. (1993). Alternatives to the median absolute deviation. JASA 88.
AWS, "RAID configuration on Linux" (EC2 user guide, raid-config.md).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ebsstats._docs import renamed
from ebsstats.stats._checks import refuse_impossible
from ebsstats.stats._core import WITHIN, check_levels, metric_direction, period_starts

__all__ = ["slow_volumes", "slow_summary", "slow_transitions", "rank_stability", "array_check",
           "fleet_outliers", "raid_rows"]

MAD_SCALE = 1.4826  # makes the MAD a consistent estimator of the normal standard deviation


def _one_metric(data: pd.DataFrame, metric: str | None) -> pd.DataFrame:
    if "metric" not in data:
        return data
    if metric is not None:
        return data[data["metric"] == metric]
    metrics = data["metric"].dropna().unique()
    if len(metrics) > 1:
        raise ValueError(f"the frame holds several metrics ({sorted(map(str, metrics))[:5]}…); "
                         "pass metric=")
    return data


def _windows(times: pd.Series, window: str | pd.Timedelta | None,
             tz: str | None = None) -> pd.Series:
    """The start of each time's window of length ``window``: windows from UTC midnight (in
    UTC), or with ``tz`` from that zone's local midnight, in that zone, by the project's one
    wall-clock rule (:func:`ebsstats.stats._core.period_starts`: a day window is the local day,
    23 or 25 hours across a change of summer time; each occurrence of a wall-clock hour repeated
    when summer time ends is a window of its own, as on the drift pages).

    >>> t = pd.Series(pd.to_datetime(["2024-03-04 03:00", "2024-03-04 06:00"], utc=True))
    >>> _windows(t, "1D").dt.strftime("%m-%d %H:%M %Z").tolist()
    ['03-04 00:00 UTC', '03-04 00:00 UTC']
    >>> _windows(t, "1D", "America/New_York").dt.strftime("%m-%d %H:%M %Z").tolist()
    ['03-03 00:00 EST', '03-04 00:00 EST']
    >>> fall = pd.Series(pd.to_datetime(["2024-11-03 05:30", "2024-11-03 06:30"], utc=True))
    >>> _windows(fall, "1h", "America/New_York").dt.strftime("%H:%M %Z").tolist()
    ['01:00 EDT', '01:00 EST']
    """
    if window is None:
        return pd.Series(pd.Timestamp(0, tz="UTC"), index=times.index)
    t = pd.to_datetime(times, utc=True)
    if tz is None:
        return t.dt.floor(pd.Timedelta(window))
    return period_starts(t.dt.tz_convert(tz), pd.Timedelta(window), tz)


def slow_volumes(data: pd.DataFrame, member: str = "volume", group: str | None = "raid_set",
                 time: str | None = "timestamp", window: str | pd.Timedelta | None = "1D", *,
                 value: str = "value", metric: str | None = None, threshold: float = 3.5,
                 higher_is_better: bool | None = None, hampel_window: int = 7,
                 hampel_k: float = 3.0, min_members: int = 3,
                 reweight: bool = True, baseline: bool = True, floor: float = 0.10,
                 heavy_tails: bool = True, tz: str | None = None) -> pd.DataFrame:
    """Flag slow members of each set in each time window (robust z-scores against the others).

    Parameters
    ----------
    data : DataFrame
        Tidy frame with one value per member and run (e.g. fio per-device jobs, per-volume runs).
    member, group : str
        Columns naming the member (volume, device, instance) and its set (RAID set). ``group=None``
        treats all rows as one set (a fleet of single volumes).
    time, window : str
        Timestamp column and window length (``"1D"``, ``"6h"``); ``window=None`` pools all runs.
    tz : str, optional
        IANA zone whose local midnight the windows start from (``"America/New_York"``: a
        ``"1D"`` window is that zone's day, the days a campaign scheduled there was run in);
        default UTC. The ``window`` column gives each window's start in that zone. Windows
        that cut a campaign's days hold unequal numbers of runs, whose medians vary unequally:
        heavier tails for ``heavy_tails`` to calibrate.
    value, metric : str
        Value column; the metric to use when the frame holds several.
    threshold : float
        Robust z beyond which a member-window is flagged (default 3.5, Iglewicz & Hoaglin 1993).
    higher_is_better : bool, optional
        Direction (default: the ``higher_is_better`` column; else lower is better for a time
        unit or a latency metric, higher for anything else).
    hampel_window, hampel_k : int, float
        Rolling window (in windows) and cut-off of the Hampel filter over each member's series.
    min_members : int
        Sets with fewer members in a window are not scored there (no "others" to compare with).
    reweight : bool
        Estimate the scale from the leave-one-out log ratios themselves and leave flagged
        member-windows out of the scale and of the other members' reference, repeating until
        the flags stop changing (default). ``False``: one pass, scale from deviations to the
        window median (under-estimates the spread of the leave-one-out ratio by about 1.5× with
        4 members, so it flags ~60× the nominal rate; see ``benchmarks/validate_outliers.py``).
    baseline : bool
        With ``reweight``: score each member against its own usual ratio to the others (the
        median over its other unflagged windows: leave-one-out) rather than against 1, so that lasting differences
        between healthy volumes (AWS volumes differ by a few % for good) do not hide a member that
        turns slow, nor count as noise (default). A member flagged in most of its windows keeps
        the baseline 1 (it has no healthy level to learn). Lasting differences are what
        :func:`fleet_outliers` estimates.
    floor : float
        Practical floor: a member-window is flagged only when it is also at least this much
        slower than its usual level (default 10 %), so that a tiny MAD does not turn a 4 %
        difference into an "outlier".
    heavy_tails : bool
        Calibrate ``z`` for heavy-tailed noise (default): a Student t is fitted by maximum
        likelihood to the pooled standardised log ratios of all sets (unflagged windows), and
        ``z_cal`` is the normal score of each log ratio's t tail probability, so that
        ``threshold`` keeps its normal meaning (3.5 → 2.3e-4 per member-window) when the noise
        is t-like. With normal noise the fitted degrees of freedom are large and the scale is
        then the root mean square of the kept log ratios (one-step reweighting, Rousseeuw &
        Leroy 1987). Either way the scale is estimated from the set's own windows, so ``z_cal``
        also reads ``z`` as a Student t with the scale's degrees of freedom (the kept
        member-windows less one per member; at the MAD's 0.368 efficiency under heavy tails):
        4 members over 7 days without a slow member flagged 0.93 % of member-windows and 18 %
        of sets before, 0.07 % and 2 % now (150 simulated sets; nominal 0.023 %). The cost is
        power on short campaigns: a member 30 % slow in 5 days of 4 members is flagged in 43 %
        of its windows (73 % before, at 40 times the nominal false-alarm rate).

    Returns
    -------
    DataFrame
        One row per (group, window, member): ``n`` runs, ``value`` (window median), ``ratio``
        (to the median of the other members), ``baseline`` (the member's usual ratio, 1 without
        ``baseline``), ``z`` (of ``log(ratio / baseline)``), ``flag``,
        ``slowest`` (worst member of the window by ``ratio``; none when several tie for worst), ``rank`` (by ``ratio``,
        1 = worst), ``hampel_flag``, ``scale`` (pooled log-scale noise),
        ``threshold``, ``method``, ``z_cal`` (the calibrated score ``flag`` uses: heavy tails
        and the scale's own uncertainty),
        ``tail_df`` (degrees of freedom of the fitted t; inf without ``heavy_tails``),
        ``pairwise`` (the window has two members: ``ratio`` is to the other one, ``z`` is NaN:
        two members say which one is slower, never which one is abnormal), ``floor``,
        ``higher_is_better``.

    Raises
    ------
    ValueError
        For infinite values (a division by a zero runtime upstream): they would silently
        become the "slowest" member.

    Examples
    --------
    >>> import pandas as pd, numpy as np
    >>> rng = np.random.default_rng(0)
    >>> rows = [{"raid_set": "md0", "volume": f"v{m}", "day": d,
    ...          "value": 1000 * (0.7 if m == 2 else 1.0) * np.exp(rng.normal(0, .05))}
    ...         for d in range(5) for m in range(4)]
    >>> df = pd.DataFrame(rows)
    >>> df["timestamp"] = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(df.day, "D")
    >>> res = slow_volumes(df)
    >>> sorted(res.loc[res.flag, "volume"].unique())
    ['v2']
    """
    refuse_impossible(data, value, "slow_volumes", metrics=None if metric is None else [metric])
    d = _one_metric(data, metric)
    hib = metric_direction(d, higher_is_better, unknown=True)
    _refuse_infinite(d, value, "slow_volumes")
    d = d[d[value].notna() & (d[value] > 0)]
    keys = [group] if group else []
    win = _windows(d[time], window, tz) if time else pd.Series(pd.Timestamp(0, tz="UTC"),
                                                          index=d.index)
    work = pd.DataFrame({"_member": d[member].astype(str).to_numpy(),
                         "_group": d[group].astype(str).to_numpy() if group else "all",
                         "window": win.to_numpy(), "_log": np.log(d[value].to_numpy(float))})
    cells = (work.groupby(["_group", "window", "_member"], sort=True)["_log"]
             .agg(["median", "size"]).reset_index())
    cells = cells.rename(columns={"median": "_lm", "size": "n"})
    fits = []
    for _, g in cells.groupby("_group", sort=True):
        g = g.copy()
        others, offset, scale, ok = _reference_and_scale(g, hib, threshold, min_members,
                                                         reweight, baseline)
        fits.append((g, others, offset, scale, ok))
    df_t = _tail_df(fits) if heavy_tails and fits else np.inf
    sign = -1.0 if hib else 1.0
    out = []
    for g, others, offset, scale, ok in fits:
        members_in_window = g.groupby("window")["_member"].transform("size").to_numpy()
        pair = (members_in_window == 2) & (min_members > 2)
        others = np.where(pair, _pair_other(g), others)
        offset = np.where(pair, 0.0, offset)
        g["_others"] = others
        g["ratio"] = np.exp(g["_lm"] - g["_others"])
        g["baseline"] = np.exp(offset)
        e = (g["_lm"] - g["_others"] - offset).to_numpy(float)
        if reweight and not np.isfinite(df_t):  # normal noise: one-step reweighted scale
            scale, dof = _reweighted_scale(e, ok, g["_member"], scale)
        else:
            dof = _scale_df(ok, g["_member"])
        z = np.where(pair, np.nan, e / scale)
        g["z"] = z
        g["z_cal"] = _scale_estimated(_calibrated(z, df_t), dof)
        bad = sign * g["z_cal"]
        practical = sign * e > -np.log1p(-floor) if floor > 0 else np.ones(len(g), bool)
        g["flag"] = (bad > threshold) & practical & (members_in_window >= min_members)
        # (the member's standing in the window, its ratio to the others: not its departure
        # from its own baseline, which ranks a persistently slow member among the rest)
        g["rank"] = ((sign * (g["_lm"] - g["_others"])).groupby(g["window"])
                     .rank(ascending=False, method="min").astype("Int64"))
        alone = (g["rank"] == 1).groupby(g["window"]).transform("sum").to_numpy() == 1
        g["slowest"] = ((g["rank"] == 1).to_numpy() & alone
                        & ((members_in_window >= min_members) | pair))
        g["scale"] = scale
        g["pairwise"] = pair
        g["hampel_flag"] = _hampel(g, hib, hampel_window, hampel_k)
        out.append(g)
    cols = [*keys, "window", member, "n", "value", "ratio", "baseline", "z", "flag", "slowest",
            "rank", "hampel_flag", "scale"]
    if not out:
        return pd.DataFrame(columns=[*cols, "threshold", "method", "z_cal", "tail_df",
                                     "pairwise", "floor", "higher_is_better"])
    res = pd.concat(out, ignore_index=True)
    res["value"] = np.exp(res["_lm"])
    res = res.rename(columns={"_member": member})
    if group:
        res = res.rename(columns={"_group": group})
    res = res[[*cols, "z_cal", "pairwise"]].copy()
    res["threshold"] = threshold
    res["method"] = ("robust z vs other members (pooled MAD, log scale"
                     + (", t-calibrated" if np.isfinite(df_t) else "")
                     + f"; floor {floor:.0%})")
    res["tail_df"] = df_t
    res["floor"] = floor
    res["higher_is_better"] = hib
    first = [*cols, "threshold", "method"]
    return res[[*first, *[c for c in res.columns if c not in first]]]


def _refuse_infinite(d: pd.DataFrame, value: str, who: str) -> None:
    v = pd.to_numeric(d[value], errors="coerce")
    bad = np.isinf(v.to_numpy(float, na_value=np.nan))
    if bad.any():
        where = list(d.index[bad][:5])
        raise ValueError(f"{who}: {int(bad.sum())} infinite value(s) in column {value!r} "
                         f"(rows {where}); a rate of inf usually means a zero runtime upstream: "
                         "drop or fix these rows first")


def _pair_other(g: pd.DataFrame) -> np.ndarray:
    """The other member's log value in windows with exactly two members (NaN elsewhere)."""
    other = np.full(len(g), np.nan)
    lm = g["_lm"].to_numpy(float)
    for idx in g.groupby("window").indices.values():
        if len(idx) == 2:
            other[idx[0]], other[idx[1]] = lm[idx[1]], lm[idx[0]]
    return other


def _tail_df(fits: list) -> float:
    """Degrees of freedom of a Student t fitted (ML, location 0) to the pooled standardised,
    unflagged log ratios of all sets; inf when too few values or the fit says normal."""
    from scipy import stats

    u = np.concatenate([((g["_lm"].to_numpy(float) - others - offset) / scale)[ok]
                        for g, others, offset, scale, ok in fits])
    u = u[np.isfinite(u)]
    if len(u) < 30 or not np.any(u):
        return np.inf
    df, _, _ = stats.t.fit(u, floc=0)
    return float(df) if 0 < df < 60 else np.inf


def _calibrated(z: np.ndarray, df: float) -> np.ndarray:
    """Normal score of the t tail probability of a MAD-standardised value.

    ``z`` is standardised by 1.4826 × MAD; for a t with ``df`` the MAD is
    ``t.ppf(0.75, df)`` × its scale, so ``z`` maps to the t variate
    ``z × t.ppf(0.75, df) / 0.6745`` whose tail probability is then read on the normal scale.
    """
    from scipy import stats

    if not np.isfinite(df):
        return z
    tv = z * stats.t.ppf(0.75, df) / stats.norm.ppf(0.75)
    with np.errstate(invalid="ignore"):
        return np.sign(tv) * stats.norm.isf(stats.t.sf(np.abs(tv), df))


#: Asymptotic efficiency of the MAD as an estimate of a normal scale (Rousseeuw & Croux 1993):
#: a MAD of N residuals is worth a variance estimate of about 0.368 N degrees of freedom.
MAD_EFFICIENCY = 0.368


def _scale_df(ok: np.ndarray, members: pd.Series) -> float:
    """Degrees of freedom of a set's pooled scale: the MAD of its ``ok`` residuals, less one for
    each member's baseline, at the MAD's efficiency."""
    n = int(np.sum(ok)) - members[ok].nunique()
    return max(MAD_EFFICIENCY * n, 1.0)


def _reweighted_scale(e: np.ndarray, ok: np.ndarray, members: pd.Series,
                      robust: float) -> tuple[float, float]:
    """The root mean square of the kept (unflagged) residuals and its degrees of freedom (less
    one a member baseline): the one-step reweighted scale (Rousseeuw & Leroy 1987), fully
    efficient once the robust pass has set the outliers aside; ``robust`` when too few."""
    keep = ok & np.isfinite(e)
    dof = int(keep.sum()) - members[keep].nunique()
    if dof < 2:
        return robust, _scale_df(ok, members)
    s = float(np.sqrt(np.sum(e[keep] ** 2) / dof))
    return (s, float(dof)) if s > 0 else (robust, _scale_df(ok, members))


def _scale_estimated(z: np.ndarray, df: float) -> np.ndarray:
    """Normal score of ``z`` read as a Student t with ``df``: a z whose scale was estimated from
    few residuals is wider than normal (4 members over 7 days: about 10 degrees of freedom,
    P(|z| > 3.5) 0.6 % against the normal's 0.05 %).

    >>> round(float(_scale_estimated(np.array([3.5]), 10.0)[0]), 2)
    2.76
    """
    from scipy import stats

    if not np.isfinite(df) or df > 1e4:
        return z
    with np.errstate(invalid="ignore"):
        return np.sign(z) * stats.norm.isf(stats.t.sf(np.abs(z), df))


def _window_median_scale(g: pd.DataFrame) -> float:
    """1.4826 × MAD of every member-window from its window's median (the one-pass scale)."""
    wmed = g.groupby("window")["_lm"].transform("median")
    scale = MAD_SCALE * float((g["_lm"] - wmed).abs().median())
    if not np.isfinite(scale) or scale <= 0:
        scale = float(np.std(g["_lm"] - wmed)) or 1e-9
    return scale


def _leave_one_out(lm: np.ndarray, windows: list[np.ndarray], excluded: np.ndarray,
                   min_members: int) -> np.ndarray:
    """Median of the *other* members of each member's window, leaving out ``excluded`` ones
    (unless that leaves none); NaN in windows with fewer than ``min_members`` members."""
    others = np.full(len(lm), np.nan)
    for idx in windows:
        if len(idx) < min_members:
            continue
        vals, ex = lm[idx], excluded[idx]
        for j, pos in enumerate(idx):
            keep = np.ones(len(idx), dtype=bool)
            keep[j] = False
            clean = keep & ~ex
            others[pos] = np.median(vals[clean] if clean.any() else vals[keep])
    return others


def _reference_and_scale(g: pd.DataFrame, hib: bool, threshold: float, min_members: int,
                         reweight: bool, baseline: bool,
                         max_iter: int = 20) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    """Reference (median of the other members), member baseline and scale of a set.

    Returns ``others`` (log reference of each member-window), ``offset`` (each member's usual
    log ratio to the others, 0 without ``baseline``) and ``scale``; ``z`` is then
    ``(log x − others − offset) / scale``.

    One pass (``reweight=False``): reference from all other members, scale from deviations to
    the window median, no baseline. Reweighted (default): starting from the flags of the
    one-pass scale, flagged members are left out of the others' reference; with ``baseline``
    each member's offset is the median of its log ratios over its other unflagged windows
    (:func:`_member_offsets`: leave-one-out; 0 when fewer than half of its windows are
    unflagged: a member slow most of the time has no "usual" level to learn); the scale is 1.4826 × the median absolute baseline-corrected log ratio over
    the unflagged member-windows; repeated until the flags stop changing (at most ``max_iter``).
    """
    lm = g["_lm"].to_numpy(float)
    windows = list(g.groupby("window").indices.values())
    codes = pd.factorize(g["_member"])[0]
    offset = np.zeros(len(lm))
    others = _leave_one_out(lm, windows, np.zeros(len(lm), dtype=bool), min_members)
    scored = np.isfinite(others)
    if not reweight or not scored.any():
        return others, offset, _window_median_scale(g), scored
    sign = -1.0 if hib else 1.0
    # start from the window-median scale: a slow member inflates it less than it inflates the
    # leave-one-out ratios (which it enters twice: as itself and in the others' reference)
    scale = _window_median_scale(g)
    flagged = scored & (sign * (lm - others) / scale > threshold)
    for _ in range(max_iter):
        others = _leave_one_out(lm, windows, flagged, min_members)
        d = lm - others
        ok = scored & ~flagged
        if baseline:
            offset = _member_offsets(d, codes, ok, scored)
        e = d - offset
        s = MAD_SCALE * float(np.median(np.abs(e[ok]))) if ok.any() else float("nan")
        if np.isfinite(s) and s > 0:
            scale = s
        new = scored & (sign * e / scale > threshold)
        if np.array_equal(new, flagged):
            break
        flagged = new
    return others, offset, scale, scored & ~flagged


def _member_offsets(d: np.ndarray, codes: np.ndarray, ok: np.ndarray,
                    scored: np.ndarray) -> np.ndarray:
    """Each member-window's baseline: the median of the member's *other* unflagged log ratios
    (leave-one-out), all of them for a window that is not among them; 0 for a member with
    fewer than half of its windows unflagged, or with one.

    Leaving the window out keeps its own value from pulling its baseline towards it. With the
    member's own median, one residual per member is exactly 0 and the rest shrink, so on short
    campaigns the pooled MAD was too small and z too wide: with 4 members over 7 days and no
    slow member, sd(z) 1.26 and 18 % of sets flagged (``benchmarks/validate_estimators.py``).

    >>> d = np.array([0.0, 0.1, 0.3, 1.0, 1.0, 1.0])
    >>> ok = np.array([True, True, True, True, True, False])
    >>> _member_offsets(d, np.array([0, 0, 0, 1, 1, 1]), ok, np.ones(6, bool)).tolist()
    [0.2, 0.15, 0.05, 1.0, 1.0, 1.0]
    """
    offset = np.zeros(len(d))
    for c in np.unique(codes):
        mine = codes == c
        use = mine & ok
        n_ok = int(use.sum())
        if n_ok < 2 or 2 * n_ok < int((mine & scored).sum()):
            continue
        vals = np.sort(d[use])
        offset[mine & ~ok] = np.median(vals)
        offset[use] = _leave_one_out_medians(d[use], vals)
    return offset


def _leave_one_out_medians(x: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The median of ``s`` (sorted ``x``) without each ``x[i]`` in turn, from the sorted order.

    >>> x = np.array([3.0, 1.0, 2.0, 10.0])
    >>> _leave_one_out_medians(x, np.sort(x)).tolist()
    [2.0, 3.0, 3.0, 2.0]
    """
    n = len(s)
    i = np.searchsorted(s, x)  # a position of x in s (ties: any equal one gives the same)

    def rank(j):  # the j-th smallest of s without position i
        return s[np.where(j < i, j, j + 1)]

    m = n - 1
    if m % 2:
        return rank(np.full(n, m // 2))
    return 0.5 * (rank(np.full(n, m // 2 - 1)) + rank(np.full(n, m // 2)))


def _hampel(g: pd.DataFrame, hib: bool, window: int, k: float) -> pd.Series:
    flags = pd.Series(False, index=g.index)
    for _, m in g.groupby("_member"):
        s = m.sort_values("window")["_lm"]
        if len(s) < 3:
            continue
        med = s.rolling(window, center=True, min_periods=3).median()
        mad = (s - med).abs().rolling(window, center=True, min_periods=3).median() * MAD_SCALE
        dev = (s - med) if not hib else (med - s)
        floor = MAD_SCALE * float((s - s.median()).abs().median()) * 0.5 + 1e-12
        flags.loc[s.index] = dev > k * np.maximum(mad.fillna(np.inf), floor)
    return flags


@renamed(result="data")
def slow_summary(data: pd.DataFrame, member: str = "volume", group: str | None = "raid_set",
                 persistent_share: float = 0.5, confidence: float = 0.95,
                 floor: float | None = None) -> pd.DataFrame:
    """Per member: how often it was flagged, and whether its slowness is persistent or transient.

    Parameters
    ----------
    data : DataFrame
        Output of :func:`slow_volumes`.
    member, group : str
        As in :func:`slow_volumes`.
    persistent_share : float
        Share of flagged windows from which a member is persistently slow.
    confidence : float
        Level of the order-statistic interval of the member's median ratio over windows.
    floor : float, optional
        Practical floor (default: the one :func:`slow_volumes` used, else 10 %). A member whose
        ratio interval lies entirely beyond ``1 - floor`` (below it for rates, above
        ``1 / (1 - floor)`` for latencies) is persistently slow whether or not single windows
        were flagged: under heavy-tailed noise a lasting 30 % deficit rarely clears a
        single-window threshold, but its interval over 14 windows excludes "within 10 %".

    Returns
    -------
    DataFrame
        One row per (group, member): ``windows``, ``flagged``, ``share_flagged``,
        ``slowest_share`` (share of windows where it was the worst member), ``ratio`` (median of
        its window ratios) with a distribution-free order-statistic CI
        (``ratio_ci_low``/``_high``), ``status`` (``persistent``, ``transient``, ``ok``; in
        two-member sets ``slower`` or ``ok``), ``confidence``, ``persistent_by_ci``, ``floor``
        and ``note``.

    Notes
    -----
    Two members cannot tell an outlier from its partner: ``slower`` says which member is
    slower beyond the floor, not that it is abnormal (the other could be the unusually fast
    one). The interval is the order-statistic CI of a median (Le Boudec, *Performance
    Evaluation of Computer and Communication Systems*, 2010, Thm 2.1); windows are treated as
    independent.

    Examples
    --------
    >>> import pandas as pd
    >>> res = pd.DataFrame({"volume": ["a"] * 8 + ["b"] * 8, "flag": False, "slowest": False,
    ...                     "ratio": [0.7] * 8 + [1.0] * 8})
    >>> slow_summary(res, group=None)["status"].tolist()
    ['persistent', 'ok']
    """
    from scipy import stats

    keys = [group] if group and group in data else []
    if floor is None:
        floor = float(data["floor"].iloc[0]) if "floor" in data and len(data) else 0.10
    hib = (bool(data["higher_is_better"].iloc[0])
           if "higher_is_better" in data and len(data) else True)
    rows = []
    for key, g in data.groupby([*keys, member], sort=True):
        r = np.sort(g["ratio"].dropna().to_numpy())
        n = len(r)
        lo = hi = np.nan
        if n >= 2:
            # distribution-free order-statistic CI of the median: the narrowest symmetric pair
            # (x_(j), x_(n-j+1)) with coverage 1 - 2 F(j-1; n, 1/2) >= confidence (the widest,
            # j = 1, when n is too small to reach it)
            j = 1
            while j + 1 <= n // 2 and 1 - 2 * stats.binom.cdf(j, n, 0.5) >= confidence:
                j += 1
            lo, hi = r[j - 1], r[n - j]
        reached = n >= 2 and 1 - 2 * stats.binom.cdf(0, n, 0.5) >= confidence
        by_ci = bool(reached and (hi < 1 - floor if hib else lo > 1 / (1 - floor)))
        flagged = int(g["flag"].sum())
        share = flagged / len(g) if len(g) else np.nan
        pair = bool("pairwise" in g and g["pairwise"].fillna(False).astype(bool).all())
        status, note = _status(pair, by_ci, share, flagged, persistent_share)
        if not reached and n:
            note = (note + "; " if note else "") + (
                f"{n} window(s): no interval reaches {confidence:.0%}")
        row = dict(zip([*keys, member], key if isinstance(key, tuple) else (key,), strict=True))
        row.update(windows=len(g), flagged=flagged, share_flagged=share,
                   slowest_share=float(g["slowest"].mean()), ratio=float(np.median(r)) if n else
                   np.nan, ratio_ci_low=lo, ratio_ci_high=hi, status=status,
                   confidence=confidence, persistent_by_ci=by_ci, floor=floor, note=note)
        rows.append(row)
    return pd.DataFrame(rows)


def _status(pair: bool, by_ci: bool, share: float, flagged: int,
            persistent_share: float) -> tuple[str, str | None]:
    if pair:
        return ("slower" if by_ci else "ok"), (
            "2 members: says which member is slower, not whether it is an outlier "
            "(no third member to tell which one is normal)")
    if share >= persistent_share or by_ci:
        return "persistent", None
    return ("transient" if flagged else "ok"), None


def slow_transitions(result: pd.DataFrame, member: str = "volume",
                     group: str | None = "raid_set", flagged_only: bool = True) -> pd.DataFrame:
    """When the identity of the slow member changes: one row per change, per set.

    With ``flagged_only`` the slow member of a window is the flagged worst member (windows with
    none flagged are "none"); otherwise the worst member of every window.

    Examples
    --------
    >>> import ebsstats as es, numpy as np, pandas as pd
    >>> rng = np.random.default_rng(1)
    >>> days = pd.date_range("2024-03-04", periods=14, freq="D", tz="UTC")
    >>> slow = lambda d: 0 if d.day < 11 else 2          # vol0 is slow, then vol2
    >>> data = pd.DataFrame([{"raid_set": "md0", "volume": f"vol{m}", "timestamp": d,
    ...     "metric": "iops", "run_id": f"{m}-{d:%d}",
    ...     "value": (2100.0 if m == slow(d) else 3000.0) * np.exp(rng.normal(0, 0.03))}
    ...     for m in range(4) for d in days])
    >>> t = es.slow_transitions(es.slow_volumes(data))
    >>> t["slow_member"].tolist(), t["window"].dt.day.tolist()
    (['vol0', 'vol2'], [4, 11])
    """
    keys = [group] if group and group in result else []
    rows = []
    for key, g in (result.groupby(keys, sort=True) if keys else [((), result)]):
        worst = g[g["slowest"]].sort_values("window")
        prev = None
        for _, r in worst.iterrows():
            cur = r[member] if (r["flag"] or not flagged_only) else "none"
            if cur != prev:
                row = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True))
                row.update(window=r["window"], previous=prev, slow_member=cur,
                           ratio=r["ratio"] if cur != "none" else np.nan)
                rows.append(row)
                prev = cur
    return pd.DataFrame(rows)


def rank_stability(result: pd.DataFrame, member: str = "volume",
                   group: str | None = "raid_set") -> pd.DataFrame:
    """Kendall's W (coefficient of concordance) of member ranks across windows, per set.

    Members are ranked within each window by ``ratio`` (their standing against the other
    members, as ``rank`` is). W = 1: the same member order in every window (a persistent slow
    member); W ≈ 0: ranks reshuffle (slowness moves between members, or there is none).
    Kendall & Babington Smith (1939); no tie correction.

    Examples
    --------
    >>> import ebsstats as es, numpy as np, pandas as pd
    >>> rng = np.random.default_rng(1)
    >>> days = pd.date_range("2024-03-04", periods=14, freq="D", tz="UTC")
    >>> data = pd.DataFrame([{"raid_set": "md0", "volume": f"vol{m}", "timestamp": d,
    ...     "metric": "iops", "run_id": f"{m}-{d:%d}",
    ...     "value": (2100.0 if m == 2 else 3000.0) * np.exp(rng.normal(0, 0.03))}
    ...     for m in range(4) for d in days])
    >>> w = es.rank_stability(es.slow_volumes(data))
    >>> int(w["windows"].iloc[0]), int(w["members"].iloc[0]), bool(w["kendall_w"].iloc[0] > 0.3)
    (14, 4, True)
    """
    from scipy import stats

    keys = [group] if group and group in result else []
    rows = []
    for key, g in (result.groupby(keys, sort=True) if keys else [((), result)]):
        table = g.pivot_table(index="window", columns=member, values="ratio", aggfunc="first")
        table = table.dropna()
        m, n = table.shape  # m windows (judges), n members (items)
        if m < 2 or n < 2:
            continue
        ranks = table.rank(axis=1).to_numpy()
        s = ((ranks.sum(axis=0) - m * (n + 1) / 2) ** 2).sum()
        w = 12 * s / (m**2 * (n**3 - n))
        chi2 = m * (n - 1) * w
        row = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True))
        row.update(windows=m, members=n, kendall_w=w, chi2=chi2,
                   p_value=float(stats.chi2.sf(chi2, n - 1)))
        rows.append(row)
    return pd.DataFrame(rows)


def raid_rows(data: pd.DataFrame, raid_set: str | None = None, member: str = "volume",
              group: str = "raid_set") -> tuple[pd.DataFrame, pd.DataFrame]:
    """Split a frame into RAID *member* rows and *array* rows (the set's own results).

    Member rows have a ``group`` (RAID set) and a ``member`` (volume) other than the set's name;
    array rows are the set's own results: ``member`` equal to the set's name, or
    ``role == "array"`` where that column exists (as :mod:`ebsstats.simulate` writes in its
    sidecars). Array rows are kept only for the tests the members also ran, so that
    :func:`array_check` compares like with like. ``raid_set`` selects one set (default: all).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"raid_set": ["md0"] * 3 + [None], "volume": ["v1", "v2", "md0", "x"],
    ...                    "test": ["rr", "rr", "rr", "rr"], "value": [1., 1., 4., 9.]})
    >>> m, a = raid_rows(df)
    >>> m["volume"].tolist(), a["volume"].tolist()
    (['v1', 'v2'], ['md0'])
    """
    d = data[data[group].notna()] if group in data else data.iloc[0:0]
    if raid_set is not None:
        d = d[d[group].astype(str) == str(raid_set)]
    is_array = d[member].astype(str) == d[group].astype(str)
    if "role" in d:
        is_array |= d["role"].astype(str) == "array"
    members, array = d[~is_array & d[member].notna()], d[is_array]
    if "test" in d and len(members):
        array = array[array["test"].isin(members["test"].unique())]
    return members, array


def array_check(members: pd.DataFrame, array: pd.DataFrame, member: str = "volume",
                group: str = "raid_set", time: str | None = "timestamp",
                window: str | pd.Timedelta | None = "1D", value: str = "value",
                n_members: int | None = None, higher_is_better: bool | None = None, *,
                tz: str | None = None) -> pd.DataFrame:
    """Array throughput against N × the slowest member and against the sum of the members.

    ``members`` holds per-member results, ``array`` the array-level results (same metric), both
    with ``group`` and ``time``. Per set, test/op/metric (those both frames have) and window:
    ``array`` (median), ``n_members`` (the set's members: every member seen in ``members``,
    or ``n_members``), ``members_measured`` (those with a value in the window), ``slowest``
    (median of the slowest member), ``sum_members``, ``ratio_to_n_slowest`` (≈ 1 when
    the stripe runs at the pace of its worst member, as AWS documents for RAID 0),
    ``ratio_to_sum``, and ``slow_member_cost`` = 1 − N × slowest / sum (the share of the members'
    combined capacity the slow member wastes). The three ratios are NaN, and ``note`` says why,
    in a window where a member has no value: a missing member's share would otherwise look
    like a stripe faster than N x its slowest. ``window`` and ``tz``: as in
    :func:`slow_volumes`. Rates only: a lower-is-better frame (``higher_is_better`` given
    or in the frame, a time unit, a latency metric) raises.

    Examples
    --------
    >>> import ebsstats as es, pandas as pd
    >>> days = pd.date_range("2024-03-04", periods=3, freq="D", tz="UTC")
    >>> members = pd.DataFrame([{"raid_set": "md0", "volume": f"vol{m}", "timestamp": d,
    ...     "value": 2000.0 if m == 2 else 3000.0} for m in range(4) for d in days])
    >>> array = pd.DataFrame({"raid_set": "md0", "timestamp": days, "value": 8000.0})
    >>> r = es.array_check(members, array)
    >>> r[["ratio_to_n_slowest", "slow_member_cost"]].iloc[0].round(3).tolist()
    [1.0, 0.273]
    """
    if metric_direction(members, higher_is_better) is False:  # (override, column, unit, name)
        raise ValueError("array_check compares rates (a RAID 0 stripe's throughput with N x its "
                         "slowest member's); for latency, use slow_volumes")
    cells = [c for c in WITHIN if c in members.columns and c in array.columns]
    members = members[pd.to_numeric(members[value], errors="coerce").notna()]
    array = array[pd.to_numeric(array[value], errors="coerce").notna()]
    mw = _windows(members[time], window, tz) if time else pd.Timestamp(0, tz="UTC")
    aw = _windows(array[time], window, tz) if time else pd.Timestamp(0, tz="UTC")
    keys = [group, *cells, "window"]
    m = (members.assign(window=mw).groupby([*keys, member], sort=True)[value]
         .median().reset_index())
    agg = m.groupby(keys)[value].agg(["min", "max", "sum", "size"]).reset_index()
    a = array.assign(window=aw).groupby(keys)[value].median().rename("array")
    out = agg.merge(a.reset_index(), on=keys, how="inner")
    # a window measures the whole set only when every member ran in it
    width = (members.groupby(group)[member].nunique() if n_members is None
             else pd.Series(n_members, index=pd.unique(out[group])))
    out = out.assign(n_members=out[group].map(width).astype(int),
                     members_measured=out["size"], slowest=out["min"], sum_members=out["sum"])
    whole = (out["members_measured"] == out["n_members"]).to_numpy()
    out["ratio_to_n_slowest"] = np.where(
        whole, out["array"] / (out["n_members"] * out["slowest"]), np.nan)
    out["ratio_to_sum"] = np.where(whole, out["array"] / out["sum_members"], np.nan)
    out["slow_member_cost"] = np.where(
        whole, 1 - out["n_members"] * out["slowest"] / out["sum_members"], np.nan)
    out["note"] = pd.array([None if w else f"{k} of {n} members measured in this window: no "
                            "ratio" for w, k, n in zip(whole, out["members_measured"],
                                                       out["n_members"], strict=True)],
                           dtype="string")
    return out[[group, *cells, "window", "array", "n_members", "members_measured", "slowest",
                "sum_members", "ratio_to_n_slowest", "ratio_to_sum", "slow_member_cost",
                "note"]]


def _prediction_se(fit) -> dict:
    """Each group's prediction error SD of its random intercept, ``sqrt(Var(b̂ − b))``.

    ``b̂ = G Z'V⁻¹(y − Xβ̂)`` splits into the error it would have with β known (variance
    ``fit.random_effects_cov``, the conditional variance given the data) and ``−L(β̂ − β)``
    with ``L = G Z'V⁻¹X``; the two are uncorrelated (the first is uncorrelated with ``y − Xβ``,
    of which ``β̂`` is linear), so ``Var(b̂ − b) = conditional variance + L Cov(β̂) L'`` with
    ``Cov(β̂)`` the fixed-effect block of ``fit.cov_params()`` — Henderson's (1975) prediction
    error variance, the random-effect block of the inverse of the mixed-model equations.
    """
    fe = fit.fe_params.index
    cov_fe = fit.cov_params().loc[fe, fe].to_numpy()
    g = fit.cov_re.to_numpy()
    out = {}
    for lab, x, z in zip(fit.model.group_labels, fit.model.exog_li, fit.model.exog_re_li,
                         strict=True):
        v = fit.scale * np.eye(len(x)) + z @ g @ z.T
        load = g @ z.T @ np.linalg.solve(v, x)  # b̂'s loading L on β̂
        pev = fit.random_effects_cov[lab].to_numpy() + load @ cov_fe @ load.T
        out[lab] = float(np.sqrt(max(pev[0, 0], 0.0)))
    return out


def fleet_outliers(data: pd.DataFrame, member: str = "volume",
                   fixed: Sequence[str] = ("config",), *, value: str = "value",
                   metric: str | None = None, confidence: float = 0.95,
                   tolerance: float = 0.10,
                   higher_is_better: bool | None = None) -> pd.DataFrame:
    """Volumes (or instances) that are slow across a campaign, from a mixed model.

    Fits ``log(value) ~ fixed effects + (1 | member)`` by REML (statsmodels ``MixedLM``) and
    returns each member's random effect as a ratio to a typical member of its configuration:
    ``ratio = exp(BLUP)`` with a prediction interval (``ratio_ci_low``/``_high``), the
    between-member share of variance (``icc``), and a ``verdict``: ``slow`` when the interval
    lies below 1 *and* the member is at least ``tolerance`` (default 10 %) slower than typical —
    statistically and practically slow —, ``fast`` symmetrically, ``~`` otherwise. A user sees
    which volume to replace, with the uncertainty of that call. A fixed effect with one member
    per level (e.g. ``config`` when each RAID member has its own config) leaves the member
    effects unidentifiable and raises ``ValueError``; so does one run per member (between- and
    within-member variance are then not identified: REML returns an arbitrary split, icc ≈ 0.5,
    and flags noise).

    The interval, on the log scale, is ``BLUP ± t · SD`` with ``SD² = Var(BLUP − b)``, the
    prediction error variance (Henderson 1975): the conditional variance of the member's effect
    given the data (statsmodels' ``random_effects_cov``, which takes the typical level as
    known) plus ``L Cov(β̂) L'``, the error carried from estimating the typical level of the
    member's configuration (``L``: the BLUP's loading on the fixed effects ``β̂``, ``Cov(β̂)``
    from ``cov_params``). ``t`` is Student's quantile with ``members − fixed-effect parameters``
    degrees of freedom, those of the between-member comparison (a small-sample allowance; the
    uncertainty of the variance components is not otherwise carried, Kackar & Harville 1984).
    ``benchmarks/validate_fleet.py`` measures the coverage on fleets with known ratios, 400
    fleets per design, between-member SD 0.05 and run noise 0.03 (the simulator's gp3): 93.8 %
    (6 volumes × 3 runs), 96.1 % (12 × 5), 94.7 % (20 × 10); two configurations (300 fleets):
    94.4 % (8 × 3), 95.4 % (12 × 5). The earlier interval (conditional SD alone, normal
    quantile) held 71.7 %, 81.6 %, 77.5 %, 69.1 % and 69.4 %. The interval is a prediction
    interval, its coverage an average over members drawn from the fleet, and it is still short
    where the between-member SD is not well above the noise of a member's mean (the variance
    components are then poorly estimated): 87.7 % at 6 × 3 with run noise 0.05, 66 % with a
    between-member SD of 0.02 (10 × 3, noise 0.05: REML shrinks every ratio towards 1). The
    intervals are per member, without multiplicity correction: on fleets of identical volumes
    0.1-0.3 % of them exclude 1 (at least one in 0.5-3.8 % of fleets; 6 × 3 to 20 × 10) and no
    member gets a verdict at the default tolerance.

    References: Henderson, C. R. (1975). Best linear unbiased estimation and prediction under a
    selection model. Biometrics 31(2). Kackar, R. N., & Harville, D. A. (1984). Approximations
    for standard errors of estimators of fixed and random effects in mixed linear models. JASA
    79(388). Robinson, G. K. (1991). That BLUP is a good thing. Statistical Science 6(1).

    Examples
    --------
    >>> import ebsstats as es, numpy as np, pandas as pd
    >>> rng = np.random.default_rng(2)
    >>> data = pd.DataFrame([{"config": "gp3", "volume": f"v{m}", "metric": "iops",
    ...     "value": (2400.0 if m == 3 else 3000.0) * np.exp(rng.normal(0, 0.03))}
    ...     for m in range(8) for _ in range(5)])
    >>> r = es.fleet_outliers(data)
    >>> r.loc[r["verdict"] == "slow", "volume"].tolist()
    ['v3']
    """
    import statsmodels.formula.api as smf
    from scipy import stats

    check_levels(confidence=confidence)  # (95 gave NaN intervals: t.ppf of 48)
    d = _one_metric(data, metric)
    hib = metric_direction(d, higher_is_better, unknown=True)
    _refuse_infinite(d, value, "fleet_outliers")
    d = d[d[value].notna() & (d[value] > 0)].copy()
    fixed = [f for f in fixed if f in d and d[f].nunique() > 1]
    d["_y"] = np.log(d[value].astype(float))
    d["_m"] = d[member].astype(str)
    for f in fixed:
        d[f"_f_{f}"] = d[f].astype(str)
    for f in fixed:
        if d.groupby(f"_f_{f}")["_m"].nunique().max() == 1:
            raise ValueError(f"fleet_outliers: every {f!r} level has a single {member!r}, so a "
                             f"{member}'s effect cannot be told from its {f}'s; pass fixed= "
                             f"without {f!r} (e.g. the RAID set or volume type)")
    runs = d.groupby("_m").size()
    if len(runs) and int(runs.max()) < 2:
        raise ValueError(f"fleet_outliers: one run per {member!r}: a {member}'s lasting effect "
                         "cannot be told from run-to-run noise (the between/within split is not "
                         f"identified); repeat runs on the same {member}s (>= 2 each, 3+ "
                         "advised) or compare them with slow_volumes against their peers")
    formula = "_y ~ 1" + "".join(f" + C(_f_{f})" for f in fixed)
    import warnings

    if np.ptp(d["_y"].to_numpy(float)) == 0:  # a volume at its cap: every run the same value
        warnings.warn(f"fleet_outliers: every value is {float(d[value].iloc[0]):g}: no "
                      f"{member} differs, and no spread to estimate (ratios 1, no intervals)",
                      UserWarning, stacklevel=3)
        counts = d.groupby("_m").size()
        return pd.DataFrame({member: counts.index, "n": counts.to_numpy(), "ratio": 1.0,
                             "ratio_ci_low": np.nan, "ratio_ci_high": np.nan, "verdict": "~",
                             "icc": np.nan, "sd_between": 0.0, "sd_within": 0.0,
                             "confidence": confidence,
                             "method": "not estimable: every value equal"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fit = smf.mixedlm(formula, d, groups=d["_m"]).fit(reml=True)
            re = fit.random_effects
        except (ValueError, np.linalg.LinAlgError) as err:
            raise ValueError(f"fleet_outliers: the mixed model cannot be fitted ({err}); "
                             f"usually too little spread between or within {member}s "
                             "(values at a cap, or identical runs)") from err
    var_member = float(fit.cov_re.iloc[0, 0])
    var_resid = float(fit.scale)
    df_between = max(len(fit.model.group_labels) - len(fit.fe_params), 1)
    q = float(stats.t.ppf(0.5 + confidence / 2, df_between))
    se = _prediction_se(fit)
    counts = d.groupby("_m").size()
    rows = []
    for m, eff in re.items():
        b = float(eff.iloc[0])
        lo, hi = np.exp(b - q * se[m]), np.exp(b + q * se[m])
        worse, better = (np.exp(b) < 1 - tolerance, np.exp(b) > 1 / (1 - tolerance))
        slow = (hi < 1 and worse) if hib else (lo > 1 and better)
        fast = (lo > 1 and better) if hib else (hi < 1 and worse)
        rows.append({member: m, "n": int(counts[m]), "ratio": np.exp(b), "ratio_ci_low": lo,
                     "ratio_ci_high": hi, "verdict": "slow" if slow else ("fast" if fast
                                                                          else "~")})
    out = pd.DataFrame(rows).sort_values("ratio", ascending=hib).reset_index(drop=True)
    out["icc"] = var_member / (var_member + var_resid) if (var_member + var_resid) > 0 else 0.0
    out["sd_between"] = np.sqrt(var_member)
    out["sd_within"] = np.sqrt(var_resid)
    out["confidence"] = confidence
    out["method"] = (f"MixedLM REML random intercept; BLUP ± t({df_between})·prediction error "
                     "SD (Henderson; log scale)")
    return out
