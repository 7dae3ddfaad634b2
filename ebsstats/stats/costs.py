"""Cost per IOPS and per MB/s of benchmarked configurations, with the measurement's uncertainty.

:func:`cost` takes the tidy results frame, prices each configuration from the dated price book
(:mod:`ebsstats.pricing`) and divides by what the benchmark measured — and by what the volume is
entitled to — so that you can see both what a configuration *delivers* per dollar and whether you
get what you pay for.

>>> import ebsstats as es, pandas as pd
>>> df = pd.DataFrame({"config": "gp2-500", "run_id": ["a", "b", "c"], "op": "read",
...                    "metric": "iops", "value": [1480.0, 1500.0, 1510.0],
...                    "volume_type": "gp2", "size_gib": 500.0})
>>> r = es.cost(df, as_of="2017-06-01")
>>> float(r.monthly_usd.iloc[0]), round(float(r.usd_per_iops_month.iloc[0]), 5)
(50.0, 0.03333)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ebsstats import pricing
from ebsstats._docs import column_keywords, shared_docs
from ebsstats.pricing import (
    entitled_iops,
    entitled_throughput,
    volume_cost,
)
from ebsstats.stats._checks import mixed_parameters, refuse_impossible
from ebsstats.stats._core import SUMMARY_FLAGS, median_ci_array
from ebsstats.units import MB, MiB

__all__ = ["cost", "pareto_front", "volume_spec", "VolumeSpec", "COMPONENT_COLUMNS"]

DATA_OPS = ("read", "write", "trim")
EXCLUDED_FLAGS = (*SUMMARY_FLAGS, "too_fast", "range_low", "range_high")
#: component -> wide column of :func:`cost` (the monthly USD of that component)
COMPONENT_COLUMNS = {
    "storage_gb_month": "storage_usd",
    "disk_month": "disk_usd",
    "iops_month": "iops_usd",
    "throughput_mbps_month": "throughput_usd",
    "io_requests_million": "requests_usd",
    "instance_hour": "instance_usd",
}
RATIO_RULE_TYPES = ("io1", "io2", "io2-block-express", "gp3")


def _median_ci(x: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """Median with the order-statistic CI of :func:`ebsstats.median_ci` (one implementation, in
    :mod:`ebsstats.stats._core`): ``[min, max]`` at small ``n``, as :func:`ebsstats.summarize`."""
    med, lo, hi, _ = median_ci_array(x, confidence)
    return med, lo, hi


def pareto_front(cost_usd: Sequence[float], performance: Sequence[float]) -> np.ndarray:
    """Which points are on the cost/performance Pareto frontier (lower cost, higher performance).

    A point is dominated when another costs no more and performs at least as well, and is
    strictly better in one of the two. Points with a NaN are never on the frontier; exact ties
    are all kept.

    >>> pareto_front([10, 20, 30, 15], [100, 300, 250, 90]).tolist()
    [True, True, False, False]
    """
    c = np.asarray(cost_usd, dtype=float)
    p = np.asarray(performance, dtype=float)
    ok = np.isfinite(c) & np.isfinite(p)
    front = np.zeros(c.size, dtype=bool)
    for i in np.flatnonzero(ok):
        others = ok.copy()
        others[i] = False
        dominated = others & (c <= c[i]) & (p >= p[i]) & ((c < c[i]) | (p > p[i]))
        front[i] = not dominated.any()
    return front


#: Keywords that once named columns the schema fixes (accepted for one release, deprecated).
LEGACY_COLUMN_KEYWORDS = {
    "metric": "metric", "op": "op", "run": "run_id", "volume_type": "volume_type",
    "size": "size_gib", "provisioned_iops": "provisioned_iops",
    "provisioned_throughput": "provisioned_throughput_mibps", "members": "raid_members",
    "raid_level": "raid_level", "instance_type": "instance_type", "block_size": "block_size",
    "timestamp": "timestamp",
}


@dataclass(frozen=True)
class VolumeSpec:
    """What one configuration is billed and entitled as: per member volume, on one date."""

    key: str  # "config=gp2-500, ..." for messages
    volume_type: str
    size_gib: float | None
    provisioned_iops: float | None
    provisioned_throughput: float | None  # MiB/s (gp3)
    members: int
    instance_type: str | None
    write_factor: float  # billed writes per delivered write (RAID 1/10: 2)
    day: pd.Timestamp


@dataclass(frozen=True)
class Rate:
    """A median rate with its order-statistic CI and the number of runs behind it."""

    est: float
    low: float
    high: float
    n: int

    def scaled(self, factor: float) -> Rate:
        return Rate(self.est / factor, self.low / factor, self.high / factor, self.n)


@dataclass
class _Terms:
    """The pricing settings every group shares, and the price books selected so far by date."""

    duty_cycle: float
    requests_per_month: float | None
    region: str | None
    provider: str | None
    hours_per_month: float
    book: pd.DataFrame
    allocation: str | float
    books: dict = field(default_factory=dict)

    def book_on(self, day: pd.Timestamp) -> pd.DataFrame:
        if day not in self.books:
            self.books[day] = pricing._book_for(self.book, day, self.region, self.provider)
        return self.books[day]


def _one(grp: pd.DataFrame, col: str, key, default=None):
    """The single value of a configuration column in a group (None if absent)."""
    if col not in grp:
        return default
    vals = pd.unique(grp[col].dropna())
    if len(vals) == 0:
        return default
    if len(vals) > 1:
        raise ValueError(f"group {key}: several values of {col!r} ({', '.join(map(str, vals))}); "
                         "add it to by=")
    v = vals[0]
    return v.item() if hasattr(v, "item") else v


def _float(v) -> float | None:
    return None if v is None else float(v)


def _per_run(sub: pd.DataFrame, write_factor: float):
    """Per-run delivered rate (read + write + trim, or total) and billed-request rate."""
    if sub.empty:
        return np.array([]), np.array([])
    ops = sub["op"].astype(str).to_numpy() if "op" in sub else np.full(len(sub), "total")
    acc: dict[object, list] = {}  # run -> [read+trim, write, total, has per-op rows]
    for r, o, v in zip(sub["run_id"].tolist(), ops, sub["_v"].to_numpy(float), strict=True):
        a = acc.setdefault(r, [0.0, 0.0, 0.0, False])
        if o in DATA_OPS:
            a[1 if o == "write" else 0] += v
            a[3] = True
        elif o == "total":
            a[2] += v
    delivered, billed = [], []
    for rest, w, tot, per_op in acc.values():
        if per_op:
            delivered.append(rest + w)
            billed.append(rest + write_factor * w)
        elif tot:
            delivered.append(tot)
            billed.append(tot)
    return np.asarray(delivered, float), np.asarray(billed, float)


def _raid_write_factor(level) -> float:
    text = "" if level is None else str(level).lower().replace("raid", "").strip()
    return 2.0 if text in ("1", "10", "1+0") else 1.0


@column_keywords(**LEGACY_COLUMN_KEYWORDS)
@shared_docs
def cost(data: pd.DataFrame, value: str = "value", by: str | Sequence[str] = ("config",), *,
         as_of=None, duty_cycle: float = 1.0, requests_per_month: float | None = None,
         confidence: float = 0.95, region: str | None = "us-east-1", provider: str | None = "aws",
         hours_per_month: float = pricing.HOURS_PER_MONTH, book=None,
         allocation: str | float = "all", frontier_on: str = "iops",
         exclude_flags: Sequence[str] = EXCLUDED_FLAGS, set_totals: bool = False) -> pd.DataFrame:
    """Monthly cost, $/IOPS-month and $/(MB/s)-month per configuration, with CIs.

    Parameters
    ----------
    data : DataFrame
        Tidy results frame (rows with metric ``iops`` and/or ``bandwidth`` are used). For a RAID
        set these must be the **array-level** measurements (the md device), since the set's
        total cost is divided by them. A run's delivered rate is the sum over its
        ``read``/``write``/``trim`` rows (or its ``total`` row when it has no per-op rows);
        ``sync`` rows are ignored. The configuration is read from the schema's columns
        ``volume_type``, ``size_gib`` and ``provisioned_iops`` (**per member volume**),
        ``raid_members`` (default 1; multiplies the per-volume charges and entitlements),
        ``raid_level``, ``instance_type``, ``block_size``, ``timestamp`` and, optionally,
        ``provisioned_throughput_mibps`` (gp3, MiB/s).
    {value}
    by : str or list of str
        Columns defining a configuration (default ``["config"]``). Each group must have one
        volume type, size, provisioned IOPS, member count: otherwise add the column to ``by``.
        Include ``workload``/``test`` when one configuration ran several workloads, or the median
        mixes them.
    as_of : date-like, ``"timestamp"`` or None
        Date of the prices and limits: a fixed date; ``"timestamp"`` = each group's first run
        timestamp (required); ``None`` (default) = the first timestamp when there is one, else
        today.
    duty_cycle : float
        Fraction of the month the workload runs at the measured rate, for per-request billing
        (magnetic, Aurora Standard): requests = IOPS × duty_cycle × 2.628 M s. ``monthly_usd``
        uses ``duty_cycle``; ``monthly_usd_full_duty`` is the d = 1 figure.
    requests_per_month : float, optional
        Billed requests per month of each set, overriding the estimate from the measured IOPS
        (e.g. CloudWatch VolumeReadOps + VolumeWriteOps).
    {confidence}
    region, provider, hours_per_month, book, allocation
        As in :func:`ebsstats.volume_cost`.
    frontier_on : ``"iops"`` or ``"bandwidth"``
        Performance axis of the Pareto frontier (``bandwidth_mbps`` for the latter).
    exclude_flags : list of str
        Rows with these ``flag`` values are ignored (repeated published means, ± spreads,
        too-fast bonnie++ cells, and the two ends of a printed range such as seed 002's gp2
        "22-53 MB/s", which would otherwise be summed as if they were two directions of a run).
    set_totals : bool
        The frame's ``size_gib``, ``provisioned_iops`` and ``provisioned_throughput_mibps`` of a
        RAID set are the **set's totals** (as :mod:`ebsstats.simulate` writes in the array's
        sidecar: 4 × 50 GiB gp3 → ``size_gib: 200``, ``provisioned_iops: 12000``), not per
        member: they are divided by ``raid_members`` before pricing. Single volumes are
        unaffected.

    Returns
    -------
    DataFrame
        One row per group: the ``by`` columns; ``volume_type, size_gib, members,
        provisioned_iops, as_of, n`` (runs), ``n_iops, iops, iops_ci_low, iops_ci_high``
        (IO/s), ``n_bandwidth, bandwidth_mbps[_ci_low|_ci_high]`` (MB/s = 10⁶ B/s) and
        ``bandwidth_mibps[...]`` (MiB/s = 2²⁰ B/s); ``duty_cycle, requests_per_month``;
        ``monthly_usd`` (with ``_ci_low/_ci_high`` where per-request charges make the cost
        itself depend on the measurement), ``monthly_usd_full_duty``; one ``*_usd`` column per
        price component (:data:`COMPONENT_COLUMNS`); ``usd_per_iops_month``,
        ``usd_per_mbps_month``, ``usd_per_mibps_month`` with CIs; ``entitled_iops``,
        ``entitled_throughput_mibps`` (RAID: × members), ``usd_per_entitled_iops_month``,
        ``usd_per_entitled_mibps_month``; ``delivered_ratio_iops``,
        ``delivered_ratio_throughput`` and ``delivered_ratio`` (on the dimension the type is
        sold by: throughput for st1/sc1, IOPS otherwise, falling back to the one measured), each
        with CIs, and ``delivered_basis``; ``iops_per_gib, max_iops_per_gib, ratio_rule_ok``;
        ``on_frontier``; ``confidence``; ``method``.

    Notes
    -----
    The median of the per-run rates gets a distribution-free order-statistic CI (Le Boudec,
    *Performance Evaluation of Computer and Communication Systems*, 2010, §2.2; the interval
    benchstat reports). Cost per unit ``C / X`` is a decreasing function of the measured rate
    ``X``, so the interval maps monotonically: ``[C / X_high, C / X_low]`` is a CI of the same
    level for ``C / X`` (no delta method needed). With per-request billing ``C(X) = a + b·X``
    and ``C / X = a / X + b`` is still decreasing, so the same holds with the cost evaluated at
    the bound; on RAID 1/10 (billed writes doubled) the billed and delivered rates are paired
    at the same bounds, an approximation. ``delivered_ratio = X / entitled`` maps the same way.
    gp2, st1 and sc1 measured on a short run may be bursting (ratio > 1): see
    :func:`ebsstats.pricing.burst_parameters`. RAID 0 may also be capped by the instance's EBS
    bandwidth, which the entitlement here does not model. The IOPS:size rule checks
    ``provisioned_iops ≤ max_iops_per_gib(as_of) × size`` (io1 10:1 from 2012-07, 30:1 from
    2013, 50:1 from 2016-12; io2 500:1; gp3 500:1).

    The former column-name keywords (``metric``, ``op``, ``run``, ``volume_type``, ``size``,
    ``provisioned_iops``, ``provisioned_throughput``, ``members``, ``raid_level``,
    ``instance_type``, ``block_size``, ``timestamp``) still work for one release, with a
    :class:`DeprecationWarning`: the named column is used as the schema's.

    Examples
    --------
    >>> import ebsstats as es, pandas as pd
    >>> df = pd.DataFrame({"config": ["io1"] * 3 + ["gp2"] * 3, "run_id": list("abcdef"),
    ...     "op": "read", "metric": "iops", "value": [990., 1000., 1010., 1490., 1500., 1520.],
    ...     "volume_type": ["io1"] * 3 + ["gp2"] * 3, "size_gib": [100.] * 3 + [500.] * 3,
    ...     "provisioned_iops": [1000] * 3 + [None] * 3})
    >>> r = es.cost(df, as_of="2015-06-01")
    >>> r[["config", "monthly_usd", "ratio_rule_ok", "on_frontier"]].values.tolist()
    [['gp2', 50.0, <NA>, True], ['io1', 77.5, True, False]]
    """
    refuse_impossible(data, value, "cost", metrics=("iops", "bandwidth"),
                      columns=("size_gib", "provisioned_iops", "provisioned_throughput_mibps"))
    by = [by] if isinstance(by, str) else list(by)
    _check_arguments(data, value, by, confidence, duty_cycle, frontier_on)
    df = _rate_rows(data, value, exclude_flags)
    terms = _Terms(duty_cycle=duty_cycle, requests_per_month=requests_per_month, region=region,
                   provider=provider, hours_per_month=hours_per_month, book=_full_book(book),
                   allocation=allocation)
    rows = []
    for key, grp in df.groupby(by, sort=True, dropna=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        label = dict(zip(by, key, strict=True))
        row = _group_cost(grp, label, terms, as_of=as_of, confidence=confidence,
                          set_totals=set_totals)
        note = row.pop("_rule_note", None)
        row["warning"] = "; ".join(w for w in (_pooled(grp), note) if w) or None
        rows.append(row)
    out = pd.DataFrame(rows)
    out["warning"] = out["warning"].astype("string")
    perf = out["iops"] if frontier_on == "iops" else out["bandwidth_mbps"]
    out["on_frontier"] = pareto_front(out["monthly_usd"], perf)
    out["ratio_rule_ok"] = out["ratio_rule_ok"].astype("boolean")
    for col in ("n", "n_iops", "n_bandwidth", "members"):
        out[col] = out[col].astype("Int64")
    cols = [c for c in out.columns if c not in ("confidence", "method")]
    return out[[*cols, "confidence", "method"]]



def _pooled(grp: pd.DataFrame) -> str | None:
    """A warning when a configuration's rate rows are of several tests or workload settings:
    their rate is a mix of workloads, not the volume's rate for one (the bundled campaign's
    randread, write-1m, bonnie++ and PTS rows were one $/IOPS, n=181)."""
    said = []
    tests = list(grp["test"].dropna().unique()) if "test" in grp else []
    if len(tests) > 1:
        shown = ", ".join(map(str, tests[:3])) + (", ..." if len(tests) > 3 else "")
        said.append(f"the group pools {len(tests)} tests ({shown}): select one test")
    mix = mixed_parameters(grp, []).get(())
    if mix:
        said.append(mix)
    return "; ".join(said) or None


def _check_arguments(data, value, by, confidence, duty_cycle, frontier_on) -> None:
    for col in [value, "metric", *by]:
        if col not in data:
            raise KeyError(f"cost: column {col!r} not in data")
    if not 0 < confidence < 1:
        raise ValueError("confidence must be in (0, 1)")
    if not 0 <= duty_cycle <= 1:
        raise ValueError("duty_cycle must be in [0, 1]")
    if frontier_on not in ("iops", "bandwidth"):
        raise ValueError("frontier_on must be 'iops' or 'bandwidth'")


def _rate_rows(data: pd.DataFrame, value: str, exclude_flags) -> pd.DataFrame:
    """The finite ``iops``/``bandwidth`` rows, unflagged, their value as float ``_v``."""
    df = data.loc[data["metric"].astype(str).isin(["iops", "bandwidth"])]
    df = df.loc[np.isfinite(pd.to_numeric(df[value], errors="coerce").astype(float))]
    if "flag" in df and len(exclude_flags):
        df = df.loc[~df["flag"].astype(str).isin(list(exclude_flags))]
    if df.empty:
        raise ValueError("cost: no finite 'iops' or 'bandwidth' rows in data")
    df = df.assign(_v=pd.to_numeric(df[value]).astype(float).to_numpy())
    if "run_id" not in df:
        df = df.assign(run_id=np.arange(len(df)))
    return df


def _full_book(book):
    if book is None:
        return pricing.price_book("all", region=None, provider=None)
    if isinstance(book, pd.DataFrame):
        return book
    return pricing.price_book("all", region=None, path=book, provider=None)


def volume_spec(data: pd.DataFrame, key: str, as_of=None, set_totals: bool = False) -> VolumeSpec:
    """The :class:`VolumeSpec` of one configuration group ``data`` (one value per column, or an
    error).

    >>> import pandas as pd
    >>> g = pd.DataFrame({"volume_type": ["gp3"] * 2, "size_gib": [200.0] * 2,
    ...                   "raid_members": [4] * 2, "raid_level": ["raid10"] * 2})
    >>> s = volume_spec(g, "config=r10", as_of="2024-01-01", set_totals=True)
    >>> s.volume_type, s.size_gib, s.members, s.write_factor
    ('gp3', 50.0, 4, 2.0)
    """
    vt = _one(data, "volume_type", key)
    if vt is None:
        raise ValueError(f"group {key}: no 'volume_type'; the price needs the volume type")
    size = _float(_one(data, "size_gib", key))
    piops = _float(_one(data, "provisioned_iops", key))
    ptp = _float(_one(data, "provisioned_throughput_mibps", key))
    m = int(_one(data, "raid_members", key, default=1))
    if set_totals and m > 1:  # the set's totals -> per member volume
        size, piops, ptp = (None if v is None else v / m for v in (size, piops, ptp))
    itype = _one(data, "instance_type", key)
    wf = _raid_write_factor(_one(data, "raid_level", key))
    return VolumeSpec(key=key, volume_type=str(vt), size_gib=size, provisioned_iops=piops,
                      provisioned_throughput=ptp, members=m, instance_type=itype,
                      write_factor=wf, day=_group_date(data, as_of, key))


def _rate(runs: np.ndarray, confidence: float) -> Rate:
    """The one CI of every rate: median of per-run rates, order-statistic interval."""
    est, low, high = _median_ci(runs, confidence)
    return Rate(est, low, high, int(len(runs)))


def _rates(grp: pd.DataFrame, spec: VolumeSpec, confidence: float) -> tuple[Rate, Rate, Rate]:
    """Delivered IOPS, delivered bandwidth (B/s) and billed requests/s of a group."""
    is_iops = grp["metric"].astype(str) == "iops"
    x_run, billed_run = _per_run(grp.loc[is_iops], spec.write_factor)
    b_run, _ = _per_run(grp.loc[~is_iops], 1.0)
    iops, bw, billed = (_rate(r, confidence) for r in (x_run, b_run, billed_run))
    if not len(billed_run) and len(b_run):
        # no IOPS measured: requests from bandwidth / block size when the block size is known
        bs = _one(grp.loc[~is_iops], "block_size", spec.key)
        if bs is not None and float(bs) > 0:
            billed = bw.scaled(float(bs))
    return iops, bw, billed


def _monthly(spec: VolumeSpec, terms: _Terms, rate: float, duty: float) -> pd.DataFrame:
    """:func:`ebsstats.volume_cost` breakdown of one set at a billed request rate."""
    req = terms.requests_per_month
    if req is None and not math.isnan(rate):
        req = rate * duty * terms.hours_per_month * 3600.0
    try:
        return volume_cost(spec.volume_type, spec.size_gib, iops=spec.provisioned_iops,
                           throughput_mibps=spec.provisioned_throughput, requests_per_month=req,
                           members=spec.members, as_of=spec.day, region=terms.region,
                           provider=terms.provider, hours_per_month=terms.hours_per_month,
                           book=terms.book_on(spec.day), instance_type=spec.instance_type,
                           allocation=terms.allocation)
    except ValueError as exc:
        raise ValueError(f"group {spec.key}: {exc}") from None


def _total(breakdown: pd.DataFrame) -> float:
    return float(breakdown["monthly_usd"].sum())


def _price(spec: VolumeSpec, terms: _Terms, billed: Rate) -> dict:
    """Monthly cost with its CI (per-request billing) and the per-component columns."""
    breakdown = _monthly(spec, terms, billed.est, terms.duty_cycle)
    c = _total(breakdown)
    per_request = bool((breakdown["component"] == "io_requests_million").any()
                       and terms.requests_per_month is None
                       and (breakdown["unit_price"] > 0).any())
    c_lo = c_hi = c_full = c
    if per_request:
        c_lo = c_hi = math.nan
        if not math.isnan(billed.low):
            c_lo = _total(_monthly(spec, terms, billed.low, terms.duty_cycle))
            c_hi = _total(_monthly(spec, terms, billed.high, terms.duty_cycle))
        c_full = _total(_monthly(spec, terms, billed.est, 1.0))
    requests = terms.requests_per_month
    if requests is None:
        requests = (billed.est * terms.duty_cycle * terms.hours_per_month * 3600.0
                    if per_request else math.nan)
    out = dict(duty_cycle=float(terms.duty_cycle), requests_per_month=requests, monthly_usd=c,
               monthly_usd_ci_low=c_lo, monthly_usd_ci_high=c_hi, monthly_usd_full_duty=c_full)
    for comp, col in COMPONENT_COLUMNS.items():
        out[col] = float(breakdown.loc[breakdown["component"] == comp, "monthly_usd"].sum())
    out["_per_request"] = per_request
    return out


def _rate_columns(iops: Rate, bw: Rate) -> dict:
    out = dict(n_iops=iops.n, iops=iops.est, iops_ci_low=iops.low, iops_ci_high=iops.high,
               n_bandwidth=bw.n)
    for unit, scale in (("mbps", MB), ("mibps", MiB)):
        b = bw.scaled(scale)
        out.update({f"bandwidth_{unit}": b.est, f"bandwidth_{unit}_ci_low": b.low,
                    f"bandwidth_{unit}_ci_high": b.high})
    return out


def _per_unit(price: dict, iops: Rate, bw: Rate) -> dict:
    """$/unit-month: C/X is decreasing in X, so the CI maps bound to opposite bound."""
    c = price["monthly_usd"]
    c_lo, c_hi = ((price["monthly_usd_ci_low"], price["monthly_usd_ci_high"])
                  if price["_per_request"] else (c, c))
    out = {"usd_per_iops_month": _div(c, iops.est),
           "usd_per_iops_month_ci_low": _div(c_hi, iops.high),
           "usd_per_iops_month_ci_high": _div(c_lo, iops.low)}
    for unit, scale in (("mbps", MB), ("mibps", MiB)):
        b = bw.scaled(scale)
        out[f"usd_per_{unit}_month"] = _div(c, b.est)
        out[f"usd_per_{unit}_month_ci_low"] = _div(c, b.high)
        out[f"usd_per_{unit}_month_ci_high"] = _div(c, b.low)
    return out


def _entitlement(spec: VolumeSpec, c: float) -> dict:
    """What the set is entitled to (RAID: × members) and the $ per entitled unit."""
    size = spec.size_gib if spec.size_gib is not None else math.nan
    try:
        e_iops = entitled_iops(spec.volume_type, size, spec.provisioned_iops,
                               as_of=spec.day) * spec.members
        e_tp = entitled_throughput(spec.volume_type, size, spec.provisioned_throughput,
                                   as_of=spec.day,
                                   provisioned_iops=spec.provisioned_iops) * spec.members
    except ValueError as exc:
        raise ValueError(f"group {spec.key}: {exc}") from None
    return {"entitled_iops": e_iops, "entitled_throughput_mibps": e_tp / MiB,
            "usd_per_entitled_iops_month": _div(c, e_iops),
            "usd_per_entitled_mibps_month": _div(c, e_tp / MiB)}


def _delivered(spec: VolumeSpec, iops: Rate, bw: Rate, entitled: dict) -> dict:
    """Delivered / entitled on each dimension, and on the one the type is sold by."""
    out = {}
    e_tp = entitled["entitled_throughput_mibps"] * MiB
    for name, rate, ent in (("iops", iops, entitled["entitled_iops"]), ("throughput", bw, e_tp)):
        out[f"delivered_ratio_{name}"] = _div(rate.est, ent)
        out[f"delivered_ratio_{name}_ci_low"] = _div(rate.low, ent)
        out[f"delivered_ratio_{name}_ci_high"] = _div(rate.high, ent)
    basis = "throughput" if spec.volume_type in ("st1", "sc1") else "iops"
    other = "iops" if basis == "throughput" else "throughput"
    if math.isnan(out[f"delivered_ratio_{basis}"]) and not math.isnan(
            out[f"delivered_ratio_{other}"]):
        basis = other
    for suffix in ("", "_ci_low", "_ci_high"):
        out[f"delivered_ratio{suffix}"] = out[f"delivered_ratio_{basis}{suffix}"]
    out["delivered_basis"] = basis if not math.isnan(out["delivered_ratio"]) else None
    return out


def _ratio_rule(spec: VolumeSpec) -> dict:
    """The rules a provisioned volume had to meet on its date: IOPS per GiB (io1 10/30/50,
    io2 and gp3 500), IOPS and throughput per volume, and gp3's 0.25 MiB/s per provisioned
    IOPS. ``ratio_rule_ok`` is ``False`` when one is broken (AWS would not have created the
    volume: its figures are probably wrong), and ``_rule_note`` says which."""
    piops, size, vt = spec.provisioned_iops, spec.size_gib, spec.volume_type
    out = {"iops_per_gib": math.nan, "max_iops_per_gib": math.nan, "ratio_rule_ok": None,
           "_rule_note": None}
    if vt not in RATIO_RULE_TYPES or not size:
        return out
    rules = pricing.volume_rules(vt, spec.day)
    if vt == "io2":  # (an io2 volume may be on Block Express, from 2021-07: its limits hold)
        bx = pricing.volume_rules("io2-block-express", spec.day)
        for r in ("max_iops", "max_iops_per_gib"):
            if r in bx:
                rules[r] = max(rules.get(r, 0.0), bx[r])
    limit = rules.get("max_iops_per_gib", math.nan)
    if vt == "gp3" and piops is None:
        piops = rules.get("baseline_iops")
    broken, checked = [], False
    if piops is not None:
        out.update(iops_per_gib=piops / size, max_iops_per_gib=limit)
        for ok, text in ((math.isnan(limit) or piops <= limit * size,
                          f"{piops:g} IOPS on {size:g} GiB is over {limit:g} IOPS per GiB"),
                         (piops <= rules.get("max_iops", math.inf),
                          f"{piops:g} IOPS is over the {rules.get('max_iops', 0):g} of a volume")):
            checked = checked or not math.isnan(limit) or "max_iops" in rules
            if not ok:
                broken.append(text)
    tp = spec.provisioned_throughput
    if vt == "gp3" and tp is not None and piops is not None:
        per_iops = rules.get("max_throughput_per_iops", math.nan)
        cap = rules.get("max_throughput", math.inf)
        checked = True
        if not math.isnan(per_iops) and tp > per_iops * piops + 1e-9:
            broken.append(f"{tp:g} MiB/s needs at least {tp / per_iops:g} IOPS "
                          f"({per_iops:g} MiB/s per IOPS), not {piops:g}")
        if tp > cap:
            broken.append(f"{tp:g} MiB/s is over the {cap:g} MiB/s of a volume")
    if checked:
        out["ratio_rule_ok"] = not broken
    if broken:
        out["_rule_note"] = (f"not a volume AWS would have created on {spec.day.date()}: "
                             + "; ".join(broken) + " (check size_gib, provisioned_iops and "
                             "provisioned_throughput_mibps)")
    return out



def _method(spec: VolumeSpec, terms: _Terms, instance_usd: float) -> str:
    method = (f"median of per-run rates with order-statistic CI (binomial); "
              f"$/unit CI = cost / rate-CI bounds (monotone); prices as of {spec.day.date()}"
              f"{f' in {terms.region}' if terms.region else ''}; "
              f"month = {terms.hours_per_month:g} h; duty cycle {terms.duty_cycle:g}")
    if instance_usd > 0:
        method += ("; instance-hour charged to storage: "
                   + ("all (upper bound)" if terms.allocation == "all"
                      else f"share {terms.allocation}"))
    return method


def _group_cost(grp: pd.DataFrame, label: dict, terms: _Terms, *, as_of, confidence: float,
                set_totals: bool = False) -> dict:
    """One output row: spec -> rates -> price -> $/unit, entitlement, delivered ratio."""
    key = ", ".join(f"{k}={v}" for k, v in label.items())
    spec = volume_spec(grp, key, as_of, set_totals)
    iops, bw, billed = _rates(grp, spec, confidence)
    price = _price(spec, terms, billed)
    entitled = _entitlement(spec, price["monthly_usd"])
    out = dict(label)
    out.update(volume_type=spec.volume_type,
               size_gib=math.nan if spec.size_gib is None else spec.size_gib,
               members=spec.members,
               provisioned_iops=(math.nan if spec.provisioned_iops is None
                                 else spec.provisioned_iops),
               as_of=str(spec.day.date()), n=int(grp["run_id"].nunique()))
    out.update(_rate_columns(iops, bw))
    out.update(price)
    out.update(_per_unit(price, iops, bw))
    del out["_per_request"]
    out.update(entitled)
    out.update(_delivered(spec, iops, bw, entitled))
    out.update(_ratio_rule(spec))
    out["confidence"] = confidence
    out["method"] = _method(spec, terms, out["instance_usd"])
    return out


def _div(a: float, b: float) -> float:
    if b is None or a is None or math.isnan(a) or math.isnan(b) or b == 0:
        return math.nan
    return float(a) / float(b)


def _group_date(grp, as_of, key) -> pd.Timestamp:
    try:
        return pricing.price_date(as_of, grp["timestamp"] if "timestamp" in grp else None)
    except ValueError as exc:
        raise ValueError(f"group {key}: {exc}") from None
