"""Burst buckets: predicted depletion and plateau, observed against predicted, runs inside a burst.

* :func:`burst_model` — for a volume type, size and workload: the baseline, the burst level,
  how long a bucket lasts (gp2: I/O credits, 3 IOPS/GiB earned, min 100, burst 3,000, 5.4 M
  credits; st1/sc1: throughput credits, 1 TiB per TiB of size, baseline/burst MiB/s per TiB) and
  the plateau after it, from the dated performance model (``ebs_performance_model.csv`` via
  :func:`ebsstats.pricing.burst_parameters`).
* :func:`burst_check` — on a time series of a long run: the observed step down (time and level,
  from changepoints) against the prediction, with relative errors.
* :func:`label_burst` — adds ``burst_state`` to a results frame (``inside_burst``,
  ``depleted``, ``baseline``, ``no_bucket``, ``unknown``) by running the bucket through the
  volume's runs in time order, so summaries can exclude or separate burst results.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ebsstats._docs import renamed
from ebsstats.pricing import burst_parameters

__all__ = ["burst_model", "burst_check", "label_burst", "BURST_STATES"]

BURST_STATES = ("inside_burst", "depleted", "baseline", "no_bucket", "unknown")
_IO_UNIT = 256 * 1024  # gp2 counts I/Os of up to 256 KiB as one credit
#: A series sampled more sparsely than this (s) is a series of runs, not a log of one run.
SPARSE_SPACING_S = 60.0
#: label_burst: a run at or below the baseline while more than this share of credits remains
#: contradicts the bucket model.
CONTRADICTION_CREDITS = 0.05
#: label_burst: a run below the burst rate that would end with less than this share of the
#: bucket is read as having run dry (its mean rate then includes the baseline after depletion).
NEAR_EMPTY = 0.05
#: burst_check: share of the samples from the edge on that must stay below the threshold
EDGE_STAY_SHARE = 0.8


def _units(block_size) -> int:
    if block_size is None or (isinstance(block_size, float) and math.isnan(block_size)) \
            or pd.isna(block_size):
        return 1
    return max(1, math.ceil(float(block_size) / _IO_UNIT))


def _check_credits(credits, p: dict) -> float:
    """``credits`` as a float within ``[0, bucket]``, else ValueError."""
    bucket = float(p["bucket"])
    c = float(credits)
    if not (math.isfinite(c) and 0.0 <= c <= bucket * (1 + 1e-9)):
        raise ValueError(f"credits must be between 0 and the bucket size {bucket:,.0f} "
                         f"({p.get('bucket_unit', p['unit'])}) of a {p['volume_type']} volume of "
                         f"{float(p['size_gib']):g} GiB, got {credits!r}")
    return min(c, bucket)


def _gp2_levels(row: dict, p: dict, iops, throughput, bs) -> str:
    """Fill ``row`` with a gp2 volume's demand, levels and their IOPS/throughput; the method.

    A ``throughput`` demand without ``bs`` is taken in I/Os of 256 KiB (:data:`_IO_UNIT`, the
    largest I/O EBS counts as one credit on SSD volumes): the demand, the cap, the IOPS and the
    throughputs then all assume that size. An ``iops`` demand (or none) without ``bs`` counts
    each I/O as one credit and has no throughput (NaN): its I/O size is unknown.
    """
    assumed = not bs and iops is None and throughput is not None
    size = _IO_UNIT if assumed else bs
    units = _units(size)
    demand = math.nan
    if iops is not None:
        demand = float(iops) * units
    elif throughput is not None:
        demand = float(throughput) / size * units
    cap_units = p["burst"]
    if math.isfinite(p["max_throughput"]) and size:
        # a throughput demand is capped at the volume's throughput whatever the block size
        cap_units = min(cap_units, p["max_throughput"] / size * units)
    level = min(demand, cap_units) if math.isfinite(demand) else cap_units
    plateau = min(level, p["baseline"])
    row.update(demand=demand, burst_level=level, plateau=plateau,
               burst_iops=level / units, plateau_iops=plateau / units,
               burst_throughput=level / units * size if size else math.nan,
               plateau_throughput=plateau / units * size if size else math.nan)
    if assumed:
        return ("gp2 I/O credits (no block_size: I/Os of 256 KiB assumed, the largest counted "
                "as one credit, so the throughputs and depletion_s are upper bounds), earned at "
                "the baseline")
    return f"gp2 I/O credits ({units} per I/O of {bs or '<= 256 KiB'} B), earned at the baseline"


def burst_model(volume_type: str, size_gib: float, *, iops: float | None = None,
                throughput: float | None = None, block_size: int | None = None,
                credits: float | None = None, as_of=None) -> pd.DataFrame:
    """Predicted burst level, depletion time, plateau and refill time of one volume.

    Parameters
    ----------
    volume_type : str
        ``gp2``, ``st1``, ``sc1`` have buckets; other types return ``bursts=False``.
    size_gib : float
    iops, throughput : float, optional
        The workload's demand (IO/s, or B/s). Without either, the workload is assumed to take
        all the burst the volume gives (the shortest depletion time). A ``throughput`` demand
        is capped at the volume's throughput limit (gp2: 128 MiB/s up to 170 GiB, 250 MiB/s
        above) with or without ``block_size``.
    block_size : int, optional
        Bytes per I/O (gp2 counts an I/O of up to 256 KiB as one credit; converts between
        ``iops`` and ``throughput``). Without it a gp2 ``throughput`` demand is taken in I/Os
        of 256 KiB, the largest I/O EBS counts as one credit on SSD volumes (the performance
        model's ``io_unit_size``; AWS's gp2 throughput = IOPS × I/O size uses the same 256
        KiB): the fewest credits that throughput can cost, so ``depletion_s`` and the
        throughputs are upper bounds (smaller I/Os cost more credits and carry less after
        depletion: 300 IOPS of 16 KiB are 4.7 MiB/s, of 256 KiB 75 MiB/s), and ``method``
        says so. A gp2 ``iops`` demand (or none) without it counts each I/O as one credit.
    credits : float, optional
        Bucket balance at the start (I/O credits for gp2, bytes for st1/sc1), between 0 and the
        bucket size (gp2: 5.4 M credits; st1/sc1: 1 TiB per TiB of size); default full.
    as_of : date-like, optional
        Date of the rules (default today).

    Returns
    -------
    DataFrame
        One row: ``volume_type``, ``size_gib``, ``bursts``, ``unit`` (``IO/s`` for gp2 credit
        rates, ``B/s`` for st1/sc1), ``baseline``, ``burst`` (in ``unit``), ``demand``,
        ``burst_level`` (what the workload gets while credits last, in ``unit``), ``plateau``
        (after depletion), ``burst_iops``/``plateau_iops`` and ``burst_throughput``/
        ``plateau_throughput`` (B/s; gp2: NaN when neither ``block_size`` nor a ``throughput``
        demand gives the I/O size, 256 KiB I/Os with a throughput demand alone), ``bucket``,
        ``credits``, ``drain`` (net credits per s), ``depletion_s`` (``inf`` when the workload
        never drains the bucket), ``refill_s`` (empty → full at rest), ``method``.

    Raises
    ------
    ValueError
        ``credits`` is negative, not finite or above the bucket size of a volume that bursts.

    Notes
    -----
    gp2: depletion = credits / (burst IOPS − 3 × GiB) (AWS EBS user guide, "I/O credits and
    burst performance"; 100 GiB → 2,000 s, 18,000 s to refill). st1/sc1 analogous in bytes:
    credits / (burst − baseline throughput). I/O counting: gp2 I/Os count in 256 KiB units.

    Examples
    --------
    >>> m = burst_model("gp2", 100, as_of="2019-01-01")
    >>> float(m["depletion_s"].iloc[0]), float(m["plateau"].iloc[0])
    (2000.0, 300.0)
    >>> m = burst_model("gp2", 20, iops=3000, block_size=16384, as_of="2024-01-01")
    >>> round(float(m["depletion_s"].iloc[0]), 1)
    1862.1
    >>> m = burst_model("gp2", 100, throughput=200 * 2**20, as_of="2024-01-01")  # cap 128 MiB/s
    >>> float(m["burst_level"].iloc[0]), round(float(m["depletion_s"].iloc[0]))
    (512.0, 25472)
    >>> [float(m[c].iloc[0]) / 2**20 for c in ("burst_throughput", "plateau_throughput")]
    [128.0, 75.0]
    """
    p = burst_parameters(volume_type, size_gib, as_of=as_of)
    vt = p["volume_type"]
    row = {"volume_type": vt, "size_gib": float(size_gib), "bursts": bool(p["bursts"]),
           "unit": p["unit"], "baseline": p["baseline"], "burst": p["burst"],
           "demand": math.nan, "burst_level": p["burst"], "plateau": p["baseline"],
           "burst_iops": math.nan, "plateau_iops": math.nan, "burst_throughput": math.nan,
           "plateau_throughput": math.nan, "bucket": p["bucket"], "credits": math.nan,
           "drain": math.nan, "depletion_s": math.inf, "refill_s": p["refill_s"],
           "method": ""}
    bs = block_size
    if vt == "gp2":
        method = _gp2_levels(row, p, iops, throughput, bs)
    elif vt in ("st1", "sc1"):
        demand = math.nan
        if throughput is not None:
            demand = float(throughput)
        elif iops is not None and bs:
            demand = float(iops) * bs
        level = min(demand, p["burst"]) if math.isfinite(demand) else p["burst"]
        plateau = min(level, p["baseline"])
        row.update(demand=demand, burst_level=level, plateau=plateau, burst_throughput=level,
                   plateau_throughput=plateau,
                   burst_iops=level / bs if bs else math.nan,
                   plateau_iops=plateau / bs if bs else math.nan)
        method = f"{vt} throughput credits (bytes), earned at the baseline"
    else:
        row.update(burst_level=p["baseline"], plateau=p["baseline"], method=p["notes"])
        return pd.DataFrame([row])
    c = float(p["bucket"]) if credits is None else _check_credits(credits, p)
    drain = row["burst_level"] - row["baseline"]
    row.update(credits=c, drain=drain)
    if p["bursts"] and drain > 0:
        row["depletion_s"] = c / drain
    row["method"] = method + "; depletion = credits / (burst level - baseline) (AWS EBS guide)"
    return pd.DataFrame([row])


# ---------------------------------------------------------------------------------------------
# observed vs predicted


def _first(g: pd.DataFrame, col: str):
    if col not in g.columns:
        return None
    v = g[col].dropna()
    return v.iloc[0] if len(v) else None


@renamed(ts="data")
def burst_check(data: pd.DataFrame, value: str = "value", time: str = "t",
                by: str | Sequence[str] | None = None, *, metric: str | None = None,
                volume_type: str = "volume_type", size: str = "size_gib",
                block_size: int | None = None, credits: float | None = None, as_of=None,
                drop: float = 0.2, at_cap: float = 0.25,
                penalty: str | float = "mbic", duty_cycle: float | None = None,
                phase: str | None = None) -> pd.DataFrame:
    """Observed burst depletion (time and plateau) against :func:`burst_model`, per series.

    Parameters
    ----------
    data : DataFrame
        Series frame of long runs (fio ``iops``/``bw`` logs with ``log_avg_msec``); needs
        ``volume_type`` and ``size_gib`` columns (sidecar metadata) or pass them as constants
        by adding the columns.
    value, time : str
    by : str or list, optional
        One series per group (default ``run_id``, ``op``, ``metric``).
    metric : str, optional
        ``iops`` or ``bandwidth``; default ``iops`` for gp2 and ``bandwidth`` for st1/sc1.
    volume_type, size : str
        Column names.
    block_size : int, optional
        Bytes per I/O (default the series' ``block_size`` column, else assumed <= 256 KiB).
    credits : float, optional
        Bucket balance at the start of the run (default full).
    as_of : date-like, optional
        Rules date; default the series' ``timestamp`` column when present, else today.
    drop : float
        A regime counts as "after depletion" when its level is below the burst level by more
        than this fraction.
    at_cap : float
        When the observed burst level is within this fraction of the rated burst, the run is
        taken to have run at the cap and the prediction uses the rated burst (AWS's formula:
        credits / (burst − baseline)); otherwise the workload asked for less than the burst
        and the prediction uses the observed level. Both are reported.
    penalty : str or float
        PELT penalty (:func:`ebsstats.stats.warmup.segments`).
    duty_cycle : float, optional
        Share of the time the volume saw the measured demand (a 60 s IOPS phase every 384 s:
        0.156). The volume earns credits the rest of the time, so the prediction is fed the
        average demand ``level × duty_cycle``.
    phase : str, optional
        Column with each sample's active seconds (the runs' own phases); the duty cycle is then
        the total phase time over the span between the first and the last sample. Without
        either, a series sampled more sparsely than every 60 s has an unknown demand between
        samples: ``depletion_rel_error`` is NaN and ``note`` says why.

    Returns
    -------
    DataFrame
        One row per series: the ``by`` columns, ``volume_type``, ``size_gib``, ``metric``,
        ``observed_burst_level`` (first regime), ``observed_plateau`` (final regime),
        ``observed_depletion_s`` (the step: start of the first regime below the burst level,
        less half a sampling interval; from the run's start: a ``time`` column that starts
        more than 10 sampling intervals after 0, such as epoch seconds, is counted from one
        interval before its first sample, and ``note`` says so), ``predicted_burst_level``,
        ``predicted_plateau``, ``predicted_depletion_s`` (see ``at_cap``),
        ``predicted_depletion_observed_s`` (from the observed burst level as the demand),
        ``depletion_rel_error``, ``plateau_rel_error`` (observed / predicted − 1),
        ``depleted`` (a step was seen), ``duty_cycle`` (used for the prediction), ``note``,
        ``method``. A series without a finite sample keeps its row, all NaN, and ``note`` says
        so.

    Warns
    -----
    UserWarning
        When series are left out: those without a volume type or size (missing or NaN: there
        is no model to compare with) and those with too few finite samples to find a regime;
        the warning gives how many and why.

    Notes
    -----
    Samples whose value or time is NaN or infinite are left out (``note`` says how many); the
    levels and the edge are found on the finite samples.
    The depletion edge is found at the series' own resolution: the first sample below
    ``(1 - drop) ×`` the burst level with at most one of the next two samples above it (so a
    single intermediate sample at the edge, a run that ran dry half-way, is allowed), placed
    half-way between that sample and the one before (the local spacing, not the series'
    median). Burst level and plateau are the medians before and after the edge.

    Examples
    --------
    >>> t = np.arange(9.0, 3361.0, 9.0)
    >>> v = np.where(t <= 1862, 3000.0, 100.0)
    >>> data = pd.DataFrame({"run_id": "r", "op": "read", "metric": "iops", "t": t, "value": v,
    ...                    "volume_type": "gp2", "size_gib": 20.0})
    >>> r = burst_check(data, as_of="2024-01-01")
    >>> abs(float(r["depletion_rel_error"].iloc[0])) < 0.01
    True
    """
    d = data
    for c in (volume_type, size):
        if c not in d.columns:
            raise KeyError(f"burst_check needs a {c!r} column (volume type and size)")
    by_cols = [c for c in ("run_id", "op", "metric") if c in d.columns] if by is None else (
        [by] if isinstance(by, str) else list(by))
    opts = dict(value=value, time=time, metric=metric, volume_type=volume_type, size=size,
                block_size=block_size, credits=credits, as_of=as_of, drop=drop, at_cap=at_cap,
                penalty=penalty, duty_cycle=duty_cycle, phase=phase)
    rows = []
    left_out = {"metadata": 0, "few": 0}
    for key, g in d.groupby(by_cols, sort=True, observed=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        row = _check_series(g, opts)
        if isinstance(row, str):
            left_out[row] += 1
        elif row is not None:
            rows.append({**dict(zip(by_cols, key, strict=True)), **row})
    _warn_left_out(left_out, volume_type, size)
    cols = [*by_cols, "volume_type", "size_gib", "metric", "observed_burst_level",
            "observed_plateau", "observed_depletion_s", "predicted_burst_level",
            "predicted_plateau", "predicted_depletion_s", "predicted_depletion_observed_s",
            "depletion_rel_error",
            "plateau_rel_error", "depleted", "duty_cycle", "note", "method"]
    return pd.DataFrame(rows, columns=list(dict.fromkeys(cols)))


def _warn_left_out(left_out: dict, volume_type: str, size: str) -> None:
    """Warn about the series :func:`burst_check` could not check."""
    why = []
    if left_out["metadata"]:
        why.append(f"{left_out['metadata']} without a volume type or size ({volume_type!r} or "
                   f"{size!r} missing or NaN: no model to compare with)")
    if left_out["few"]:
        why.append(f"{left_out['few']} with too few finite samples to find a regime")
    if why:
        n = left_out["metadata"] + left_out["few"]
        warnings.warn(f"burst_check left out {n} series: " + "; ".join(why), UserWarning,
                      stacklevel=4)  # the caller of burst_check (through @renamed)


def _finite(g: pd.DataFrame, value: str, time: str) -> tuple[pd.DataFrame, str]:
    """The samples with a finite value and time, and a note on those left out."""
    v = pd.to_numeric(g[value], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    t = pd.to_numeric(g[time], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    ok = np.isfinite(v) & np.isfinite(t)
    if ok.all():
        return g, ""
    g = g[ok].copy()
    g[value], g[time] = v[ok], t[ok]
    if not ok.any():
        return g, f"no finite sample ({ok.size} NaN or infinite): nothing observed"
    return g, (f"{int((~ok).sum())} of {ok.size} samples NaN or infinite, left out of the "
               "levels and the edge")


def _observed(g: pd.DataFrame, value: str, time: str, penalty, drop: float) -> dict | None:
    """Burst level, plateau and depletion edge of one series (None when it has no regimes)."""
    from ebsstats.stats.warmup import segments

    seg = segments(g, value=value, time=time, by=None, penalty=penalty, bin="auto",
                   higher_is_better=True)
    if seg.empty:
        return None
    tt = g[time].to_numpy(dtype=float)
    vv = g[value].to_numpy(dtype=float)
    burst_lv = float(seg["level"].iloc[0])
    plateau = float(seg["level"].iloc[-1])
    edge = _edge(vv, burst_lv * (1 - drop))
    t_obs = math.nan
    if edge is not None:
        t_obs = float(tt[edge] - (tt[edge] - tt[edge - 1]) / 2) if edge else float(tt[0])
        burst_lv = float(np.nanmedian(vv[:edge])) if edge else burst_lv
        plateau = float(np.nanmedian(vv[edge + 1:] if len(vv) > edge + 1 else vv[edge:]))
    step = float(np.median(np.diff(tt))) if len(g) > 1 else 0.0
    origin_note = ""
    if step > 0 and tt[0] > 10 * step:  # a clock that does not start with the run (epoch s)
        t_obs -= float(tt[0]) - step
        origin_note = (f"times from the first sample ({time} starts at {tt[0]:g} s, not near "
                       "0: taken as one sampling interval after the start)")
    return {"tt": tt, "burst_lv": burst_lv, "plateau": plateau, "t_obs": t_obs,
            "depleted": edge is not None, "spacing": step, "origin_note": origin_note}


def _rated_level(rated, m: str) -> float:
    r = rated["burst_iops"] if m == "iops" else rated["burst_throughput"]
    return rated["burst"] if not math.isfinite(r) and m == "iops" else r


def _levels(pm, m: str, vt: str) -> tuple[float, float]:
    """Predicted burst level and plateau in the series' metric."""
    if m != "iops":
        return pm["burst_throughput"], pm["plateau_throughput"]
    if not math.isfinite(pm["burst_iops"]) and vt == "gp2":
        return pm["burst_level"], pm["plateau"]
    return pm["burst_iops"], pm["plateau_iops"]


def _nothing_observed(vt: str, S: float, m: str, note: str) -> dict:
    """The row of a series without a finite sample."""
    nan = math.nan
    return {"volume_type": vt, "size_gib": S, "metric": m, "observed_burst_level": nan,
            "observed_plateau": nan, "observed_depletion_s": nan, "predicted_burst_level": nan,
            "predicted_plateau": nan, "predicted_depletion_s": nan,
            "predicted_depletion_observed_s": nan, "depletion_rel_error": nan,
            "plateau_rel_error": nan, "depleted": False, "duty_cycle": nan, "note": note,
            "method": ""}


def _check_series(g: pd.DataFrame, o: dict) -> dict | str | None:
    """Observed against predicted for one series (None: another metric; a string: why the
    series was left out)."""
    vt, S = _first(g, o["volume_type"]), _first(g, o["size"])
    m = str(g["metric"].iloc[0]) if "metric" in g else o["metric"]
    if vt is None or S is None:
        wanted = (o["metric"],) if o["metric"] else ("iops", "bandwidth")
        return "metadata" if m in wanted else None
    vt, S = str(vt), float(S)
    if m != (o["metric"] or ("iops" if vt == "gp2" else "bandwidth")):
        return None
    g, finite_note = _finite(g, o["value"], o["time"])
    if g.empty:
        return _nothing_observed(vt, S, m, finite_note)
    g = g.sort_values(o["time"])
    ob = _observed(g, o["value"], o["time"], o["penalty"], o["drop"])
    if ob is None:
        return "few"
    burst_lv, t_obs = ob["burst_lv"], ob["t_obs"]
    duty, note = _duty(g, ob["tt"], ob["spacing"], o["duty_cycle"], o["phase"])
    note = "; ".join(x for x in (note, finite_note, ob["origin_note"]) if x)
    bs, day = _block_and_day(g, o)
    scale = duty if math.isfinite(duty) and duty > 0 else 1.0
    kind = "iops" if m == "iops" else "throughput"

    def model(demand=None):
        kw = {} if demand is None else {kind: demand}
        return burst_model(vt, S, block_size=bs, credits=o["credits"], as_of=day, **kw).iloc[0]

    po = model(burst_lv * scale)
    rated = model()
    if scale < 1:
        rated = model(_rated_level(rated, m) * scale)
    r_level = _rated_level(rated, m)
    use_rated = math.isfinite(r_level) and burst_lv * scale >= (1 - o["at_cap"]) * r_level
    pm = rated if use_rated else po
    p_level, p_plat = _levels(pm, m, vt)
    p_level = p_level / scale  # the level while the phase runs, as observed
    p_plat = max(p_plat, _baseline(rated, m)) if scale < 1 else p_plat
    p_dep = float(pm["depletion_s"]) if math.isfinite(duty) else math.nan
    return {"volume_type": vt, "size_gib": S, "metric": m,
            "observed_burst_level": burst_lv, "observed_plateau": ob["plateau"],
            "observed_depletion_s": t_obs, "predicted_burst_level": p_level,
            "predicted_plateau": p_plat, "predicted_depletion_s": p_dep,
            "predicted_depletion_observed_s": float(po["depletion_s"]),
            "depletion_rel_error": (t_obs / p_dep - 1.0) if math.isfinite(p_dep)
            and ob["depleted"] else math.nan,
            "plateau_rel_error": ob["plateau"] / p_plat - 1.0 if p_plat else math.nan,
            "depleted": ob["depleted"], "duty_cycle": duty, "note": note,
            "method": "depletion edge at the series' resolution; predicted from the "
                      + ("rated burst (run at the cap); " if use_rated else
                         "observed burst level; ") + str(pm["method"])}


def _block_and_day(g: pd.DataFrame, o: dict) -> tuple[int | None, pd.Timestamp | None]:
    """The series' block size (the option, else its column) and the day of its prices and
    limits (``as_of``, else its first timestamp)."""
    bs = o["block_size"] if o["block_size"] is not None else _first(g, "block_size")
    bs = None if bs is None or pd.isna(bs) else int(bs)
    day = o["as_of"]
    if day is None and "timestamp" in g.columns:
        day = pd.to_datetime(_first(g, "timestamp"), utc=True)
        day = None if pd.isna(day) else day.tz_localize(None)
    return bs, day


def _edge(v: np.ndarray, threshold: float) -> int | None:
    """First index below ``threshold`` that the series stays below (at most one of the next two
    samples above it, and at least :data:`EDGE_STAY_SHARE` of all later samples below it): the
    depletion edge at the series' own resolution."""
    below = v < threshold
    for i in np.flatnonzero(below[:max(len(v) - 2, 0)]):  # >= 3 samples from the edge on
        nxt = below[i + 1:i + 3]
        if nxt.sum() < 1:
            continue
        if below[i:].mean() >= EDGE_STAY_SHARE:  # a regime, not scattered slow runs
            return int(i)
    return None


def _duty(g: pd.DataFrame, t: np.ndarray, spacing: float, duty_cycle, phase) -> tuple[float,
                                                                                       str]:
    """Share of time under the measured demand, and a note when it is unknown."""
    if duty_cycle is not None:
        return float(duty_cycle), f"duty cycle {float(duty_cycle):.3g} (given)"
    if phase is not None and phase in g.columns and len(t) > 1:
        ph = pd.to_numeric(g[phase], errors="coerce").to_numpy(dtype=float)
        span = float(t[-1] - t[0]) + float(np.nanmedian(np.diff(t)))
        d = float(np.nansum(ph) / span) if span > 0 else math.nan
        return min(d, 1.0), f"duty cycle {d:.3g} from the runs' phases ({phase!r})"
    if spacing > SPARSE_SPACING_S:
        return math.nan, (f"samples every {spacing:.0f} s: the demand between them is unknown, "
                          "so no depletion error is reported; pass duty_cycle= or phase=")
    return 1.0, ""


def _baseline(model_row, metric: str) -> float:
    b = model_row["baseline"]
    return float(b) if metric == "iops" or model_row["unit"] == "B/s" else math.nan


# ---------------------------------------------------------------------------------------------
# labelling runs


def _size_bytes(text) -> float:
    try:
        t = str(text).strip().upper()
        mult = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
        return float(t[:-1]) * mult[t[-1]] if t and t[-1] in mult else float(t) * 2**20
    except (ValueError, KeyError, IndexError):
        return math.nan


def _run_table(df: pd.DataFrame, vol_cols, time, value) -> pd.DataFrame:
    """One row per run: start, duration (s) and what it drew (I/O units/s, B/s)."""
    # work on positions: any index (named, MultiIndex, repeated labels) gives the same table
    df = df.reset_index(drop=True)
    metric = df["metric"].astype(str)
    not_total = (df["op"].astype(str) != "total") if "op" in df.columns else True
    keys = [*vol_cols, "run_id"]

    def pick(name, how, mask=True):
        s = df[(metric == name) & mask].groupby(keys, observed=True, dropna=False)[value]
        return s.agg(how).rename(name)

    runs = pd.concat([pick("iops", "sum", not_total), pick("bandwidth", "sum", not_total),
                      pick("runtime", "max"), pick("io_bytes", "sum", not_total)], axis=1)
    first = df.groupby(keys, observed=True, dropna=False).agg(_time=(time, "first"),
                                                              run_key=("run_key", "first"))
    pos = pd.Series(np.arange(len(df)), index=df.index)
    first["_pos"] = pos.groupby([df[c] for c in keys], observed=True, dropna=False).min()
    for c in ("volume_type", "size_gib", "block_size"):
        if c in df.columns:
            first[c] = df.groupby(keys, observed=True, dropna=False)[c].first()
    runs = first.join(runs, how="left")
    dur = runs["runtime"]
    runs["duration"] = dur.where(dur.notna() & (dur > 0), runs["io_bytes"] / runs["bandwidth"])
    # bonnie++ phases run one after the other, each over the whole file: duration = sum of
    # file size / rate, and what it drew = bytes moved / duration
    if "tool" in df.columns and "file_size" in df.columns:
        bon = df[(df["tool"].astype(str) == "bonnie++") & (metric == "bandwidth")]
        if len(bon):
            size = bon["file_size"].map(_size_bytes)
            secs = (size / bon[value]).groupby([bon[c] for c in keys], observed=True,
                                               dropna=False).sum(min_count=1)
            moved = size.groupby([bon[c] for c in keys], observed=True,
                                 dropna=False).sum(min_count=1)
            idx = secs.index.intersection(runs.index)
            runs.loc[idx, "duration"] = secs.loc[idx]
            runs.loc[idx, "bandwidth"] = (moved / secs).loc[idx]
            runs.loc[idx, "iops"] = math.nan
    return runs.reset_index()


def _credit_use(r, unit: str) -> float:
    """What a run drew from the bucket per second (gp2: 256 KiB I/O units; st1/sc1: B/s)."""
    bw = getattr(r, "bandwidth", math.nan)
    io = getattr(r, "iops", math.nan)
    if unit != "IO/s":
        return bw
    if pd.isna(io) and pd.isna(bw):
        return math.nan
    return float(np.nanmax([io * _units(getattr(r, "block_size", None))
                            if pd.notna(io) else math.nan,
                            bw / _IO_UNIT if pd.notna(bw) else math.nan]))


def _delivered(r, unit: str) -> float:
    """The run's delivered rate in the bucket's baseline unit (IOPS for gp2, B/s for st1/sc1)."""
    bw = getattr(r, "bandwidth", math.nan)
    io = getattr(r, "iops", math.nan)
    if unit != "IO/s":
        return bw
    return io if pd.notna(io) else (bw / _IO_UNIT if pd.notna(bw) else math.nan)


def _burst_rate(p: dict, block_size) -> float:
    """The most a run can draw from the bucket per second, in the units of its credit use
    (gp2: 3,000 I/O units/s, less with large I/Os under the throughput cap; st1/sc1: B/s)."""
    rate = float(p["burst"])
    if p["unit"] == "IO/s" and math.isfinite(p["max_throughput"]) and block_size is not None \
            and not pd.isna(block_size) and float(block_size) > 0:
        bs = float(block_size)
        rate = min(rate, p["max_throughput"] / bs * _units(bs))
    return rate


def _drain_run(credits, bucket, earn, use, dur, tol, burst):
    """State of one run, its depletion time and the credits after it.

    The bucket is carried exactly: a run that keeps any credits leaves them to the next run,
    and a run is ``depleted`` when the bucket runs dry inside it. One reading of a run's mean
    rate is the exception: a run whose mean use is below the burst rate (by more than ``tol``)
    and that would leave less than :data:`NEAR_EMPTY` of the bucket is read as having run dry
    at the burst rate, its mean including the baseline after depletion (a run that ran dry at
    ``td`` has mean use ``earn + credits / dur``, i.e. leaves exactly 0 by its mean); its
    depletion time is then ``credits / (burst - earn)``. A run at the burst rate has no
    baseline part and keeps what is left.
    """
    drain = use - earn
    if use <= earn * (1 + tol):
        return "baseline", math.nan, max(0.0, min(bucket, credits - drain * dur))
    if credits <= 1e-12 * bucket:
        return "baseline", 0.0, 0.0
    td = credits / drain
    left = credits - drain * dur
    if td < dur:
        return "depleted", td, 0.0
    if left < NEAR_EMPTY * bucket and use < (1 - tol) * burst and burst > earn:
        return "depleted", min(credits / (burst - earn), dur), 0.0
    return "inside_burst", td, left


def _run_volume(g: pd.DataFrame, as_of, tol: float, labels: dict, contradictions: set) -> None:
    """Run one volume's bucket through its runs in time order, filling ``labels`` (and
    ``contradictions``) by ``run_key``: the run's (volume, run_id), never its run_id alone."""
    vt = g["volume_type"].dropna().iloc[0] if "volume_type" in g and \
        g["volume_type"].notna().any() else None
    S = g["size_gib"].dropna().iloc[0] if "size_gib" in g and \
        g["size_gib"].notna().any() else None
    if vt is None or S is None:
        return
    day = as_of if as_of is not None else (
        g["t_start"].min().tz_localize(None) if g["t_start"].notna().any() else None)
    p = burst_parameters(str(vt), float(S), as_of=day)
    if not p["bursts"]:
        labels.update({k: ("no_bucket", math.nan, math.nan) for k in g["run_key"]})
        return
    bucket, earn = float(p["bucket"]), float(p["baseline"])
    credits, clock = bucket, None  # clock: end of the previous run (UTC)
    for r in g.itertuples(index=False):
        if pd.isna(r.t_start):
            labels[r.run_key] = ("unknown", math.nan, math.nan)
            continue
        start = r.t_start if clock is None or r.t_start > clock else clock
        if clock is not None:
            credits = min(bucket, credits + earn * max(0.0, (start - clock).total_seconds()))
        dur, use, frac = r.duration, _credit_use(r, p["unit"]), credits / bucket
        if pd.isna(dur) or not dur > 0 or pd.isna(use):
            labels[r.run_key] = ("unknown", frac, math.nan)
            clock = start
            continue
        delivered = _delivered(r, p["unit"])
        if pd.notna(delivered) and delivered <= earn * (1 + tol) and frac > CONTRADICTION_CREDITS:
            contradictions.add(r.run_key)  # at the baseline with credits left: not a burst
            state, td = "baseline", math.nan
            credits = max(0.0, min(bucket, credits - (use - earn) * dur))
        else:
            state, td, credits = _drain_run(credits, bucket, earn, use, dur, tol,
                                            _burst_rate(p, getattr(r, "block_size", None)))
        labels[r.run_key] = (state, frac, td)
        clock = start + pd.Timedelta(seconds=float(dur))


@renamed(df="data")
def label_burst(data: pd.DataFrame, *, by: str | Sequence[str] | None = None,
                time: str = "timestamp", value: str = "value",
                volume_type: str = "volume_type", size: str = "size_gib", as_of=None,
                sustain_tol: float = 0.10) -> pd.DataFrame:
    """Add ``burst_state`` to a results frame by running each volume's credit bucket.

    Each volume's runs are taken in time order (``timestamp``; runs with the same timestamp
    back to back in the order of the frame). The bucket starts full (AWS: new volumes start
    with a full bucket), refills at the baseline between runs, and drains during a run by what
    the run did (gp2: I/Os per second in 256 KiB units — at least bandwidth / 256 KiB; st1/sc1:
    bytes per second) minus the baseline.

    Parameters
    ----------
    data : DataFrame
        Results frame with ``run_id``, ``metric``, ``value``, ``timestamp``, ``volume_type``,
        ``size_gib`` (sidecar metadata); ``runtime`` (or ``io_bytes``) rows give each run's
        duration.
    by : str or list, optional
        The volume: each distinct value (combination) has its own bucket, and a run is known
        by its volume and its ``run_id`` together, so volumes (or configurations) whose runs
        share run_ids never mix their credits. Default ``volume``; ``config`` when there is
        no ``volume`` column or it is missing on every row (a schema frame always has one,
        ``<NA>`` when unknown); without either, every run is on one volume.
    time, value, volume_type, size : str
        Column names.
    as_of : date-like, optional
        Rules date; default each volume's first timestamp.
    sustain_tol : float
        A run whose credit use is within this fraction of the baseline is ``baseline`` (its
        result is the sustained level, whatever the bucket holds).

    Returns
    -------
    DataFrame
        A copy of ``data`` with ``burst_state`` (``inside_burst``: the bucket lasted the whole
        run, and what is left goes to the next run; ``depleted``: it ran dry during the run,
        a mixture of burst and baseline (see Notes);
        ``baseline``: the run used no more than the baseline earns, or ran on an empty bucket;
        ``no_bucket``: gp3, io1/io2, magnetic, instance store; ``unknown``: type, size, time or
        duration missing), ``credits_start`` (share of the bucket at the run's start) and
        ``burst_depletion_s`` (predicted seconds into the run at which the bucket ran dry) and
        ``burst_contradiction`` (True: the run delivered no more than the baseline rate while
        the model says more than 5 % of the credits remained — the model, the metadata or the
        run's demand is wrong; such a run is never counted as ``inside_burst``, it is
        ``baseline``).

    Notes
    -----
    The signature of a result measured inside a burst: a gp2 volume below 1 TiB delivering more
    than 3 IOPS/GiB. Separate such rows (``data[data.burst_state != "inside_burst"]``) before
    comparing volume types on sustained performance (see :doc:`/questions/firstwrite`).

    The bucket is carried exactly from run to run: a run that ends with credits left
    leaves them all to the next run, however few, and is ``depleted`` only when the bucket
    runs dry inside it (``burst_depletion_s`` < the run's duration). A run's mean rate cannot
    show a depletion by itself: a run that ran dry at ``td`` has a mean credit use of
    ``baseline + credits / duration``, so by its mean it leaves exactly nothing. Hence one
    exception: a run whose mean use is below the burst rate (by more than ``sustain_tol``) and
    that would leave less than :data:`NEAR_EMPTY` (5 %) of the bucket is read as having run
    dry at the burst rate (``burst_depletion_s`` = credits / (burst − baseline)), and the
    bucket is empty after it. A run at the burst rate has no baseline part and keeps what is
    left: gp2 100 GiB, back-to-back 60 s runs at 3,000 IOPS draw 162,000 credits each; the
    32nd starts with 7 % and ends with 4 % (``inside_burst``), the 33rd ends with 1 %, the
    34th runs dry after 54,000 / 2,700 = 20 s (``depleted``).

    Examples
    --------
    >>> data = pd.DataFrame({"run_id": ["a", "a"], "metric": ["iops", "runtime"],
    ...     "op": ["read", "read"], "value": [3000.0, 60.0], "block_size": 16384,
    ...     "timestamp": pd.Timestamp("2024-03-01", tz="UTC"), "volume": "v",
    ...     "volume_type": "gp2", "size_gib": 20.0})
    >>> label_burst(data)["burst_state"].tolist()
    ['inside_burst', 'inside_burst']
    """
    if by is None:  # the first of volume, config that names any row's volume
        vol_cols = [c for c in ("volume", "config")
                    if c in data.columns and data[c].notna().any()][:1]
    else:
        vol_cols = [by] if isinstance(by, str) else list(by)
    out = data.copy()
    out["burst_state"] = "unknown"
    out["credits_start"] = math.nan
    out["burst_depletion_s"] = math.nan
    out["burst_contradiction"] = False
    if "run_id" not in data.columns or time not in data.columns:
        return out
    # one key per (volume, run): volumes (or configs) that share run_ids keep their own runs
    run_key = data.groupby([*vol_cols, "run_id"], observed=True, dropna=False,
                           sort=False).ngroup().to_numpy()
    runs = _run_table(data.assign(run_key=run_key), vol_cols, time, value)
    runs["t_start"] = pd.to_datetime(runs["_time"], utc=True, errors="coerce")
    labels: dict = {}
    contradictions: set = set()
    groups = runs.groupby(vol_cols, sort=False, dropna=False) if vol_cols else [((), runs)]
    for _, g in groups:
        _run_volume(g.sort_values(["t_start", "_pos"], kind="stable"), as_of, sustain_tol,
                    labels, contradictions)
    got = [labels.get(k, ("unknown", math.nan, math.nan)) for k in run_key.tolist()]
    out["burst_state"] = pd.Series([g[0] for g in got], index=out.index, dtype=object)
    out["credits_start"] = np.array([g[1] for g in got], dtype=float)
    out["burst_depletion_s"] = np.array([g[2] for g in got], dtype=float)
    out["burst_contradiction"] = np.isin(run_key, list(contradictions))
    return out
