"""Dated price book and performance model of block-storage volumes, and monthly volume cost.

Two tables ship as package data (``ebsstats/data``, sources in ``PRICING_SOURCES.md``):

* ``ebs_pricing.csv`` — the price book, one row per price component and band, each with the
  dates it was in force and its source (:func:`price_book`);
* ``ebs_performance_model.csv`` — documented limits (gp2 3 IOPS/GiB, caps by era, io1 IOPS:GiB
  ratios, st1/sc1 MiB/s per TiB, burst buckets), also dated (:func:`performance_model`).

Rules used throughout (sources in ``ebsstats/data/PRICING_SOURCES.md``):

* **Month = 730 h** (2.628 M s, the AWS calculator's month); ``hours_per_month=720`` gives AWS's
  30-day pricing examples instead (1.4 % less for instance-hour prices). The choice is recorded in
  the result (``attrs["hours_per_month"]``).
* Sizes are GiB and are billed as provisioned, unconverted, at the "per GB-month" price.
* Prices in force on the **benchmark date** (``as_of``); ``effective_to`` is exclusive.
* Bands: ``tier_from``/``tier_to`` name the first and last unit of a band, counting units from 1
  (``0`` and ``1`` both mean "from the first unit"); a band starting at 3001 after one ending at
  3000 is the interval (3000, ∞), so 3,001 provisioned IOPS on gp3 pay for exactly one IOPS.
  A band may also start at the previous band's end (continuous notation); gaps and overlaps are
  errors. Each unit is charged at the rate of the band it falls in (marginal tiers, as io2).
* Snapshots are billed on changed blocks and are not part of a volume's monthly cost.

>>> import ebsstats as es
>>> float(es.volume_cost("gp3", 1000, iops=3001, as_of="2022-01-01", total=True))
80.005
"""

from __future__ import annotations

import datetime as _dt
import math
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ebsstats.errors import ParseError
from ebsstats.units import MiB

__all__ = [
    "HOURS_PER_MONTH",
    "SECONDS_PER_MONTH",
    "burst_parameters",
    "is_priced",
    "volume_rules",
    "price_date",
    "entitled_iops",
    "entitled_throughput",
    "performance_model",
    "price_book",
    "price_rule",
    "volume_cost",
]

HOURS_PER_MONTH = 730.0
SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600.0  # 2,628,000 s

DATA = Path(__file__).parent / "data"
PRICING_CSV = DATA / "ebs_pricing.csv"
PERFORMANCE_CSV = DATA / "ebs_performance_model.csv"

REQUIRED_COLUMNS = ["provider", "region", "volume_type", "component", "tier_from", "tier_to",
                    "unit", "price_usd", "effective_from", "effective_to", "source"]
COMPONENTS = {
    "storage_gb_month": ("GiB", "per volume"),
    "disk_month": ("disk", "per volume"),
    "iops_month": ("IOPS", "per volume"),
    "throughput_mbps_month": ("MiB/s", "per volume"),
    "io_requests_million": ("million requests", "per set"),
    "instance_hour": ("instance-hours", "per instance"),
    "snapshot_gb_month": ("GB", "not in volume cost"),
    "snapshot_restore_gb": ("GB", "not in volume cost"),
}
ALIASES = {"magnetic": "standard", "aurora": "aurora-standard", "io2be": "io2-block-express",
           "io2-be": "io2-block-express"}


# ---------------------------------------------------------------------------------------------
# dates


def _date(value, *, what: str = "as_of") -> pd.Timestamp:
    """A naive, day-resolution Timestamp (UTC) from a date, string, Timestamp or ``None`` (today)."""
    if value is None:
        return pd.Timestamp(_dt.datetime.now(_dt.UTC).date())
    try:
        ts = pd.Timestamp(value)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{what}: not a date: {value!r}") from exc
    if ts is pd.NaT or pd.isna(ts):
        raise ValueError(f"{what}: not a date: {value!r}")
    if ts.tzinfo is not None:
        ts = ts.tz_convert("UTC").tz_localize(None)
    return ts.normalize()


def _parse_table_date(text: str) -> pd.Timestamp:
    """``2014-04`` → 2014-04-01, ``2013`` → 2013-01-01, ``2014-09-09`` as is; blank → NaT."""
    text = text.strip()
    if not text:
        return pd.NaT
    if text.isdigit() and len(text) == 4:
        text = f"{text}-01-01"
    elif len(text) == 7 and text[4] == "-":
        text = f"{text}-01"
    return pd.Timestamp(_dt.date.fromisoformat(text))


# ---------------------------------------------------------------------------------------------
# price book


@lru_cache(maxsize=8)
def _load_cached(path: str, mtime: float) -> pd.DataFrame:
    return _read_book(path)


def _load(path) -> pd.DataFrame:
    p = Path(path)
    try:
        mtime = p.stat().st_mtime
    except OSError as exc:
        raise ParseError(str(path), None, "a readable price-book CSV", found=str(exc)) from exc
    return _load_cached(str(p), mtime).copy()


def _read_book(path: str) -> pd.DataFrame:
    try:
        raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    except (ValueError, OSError, pd.errors.ParserError) as exc:
        raise ParseError(path, None, "a price-book CSV", found=str(exc)) from exc
    return _check_book(raw, path)


def _check_book(raw: pd.DataFrame, source: str) -> pd.DataFrame:
    """Validate and type a price book (raw strings or an already typed frame)."""
    missing = [c for c in REQUIRED_COLUMNS if c not in raw.columns]
    if missing:
        raise ParseError(source, "line 1", "price-book columns " + ", ".join(REQUIRED_COLUMNS),
                         found="missing " + ", ".join(missing))
    rows = []
    for i, rec in enumerate(raw.to_dict("records"), start=1):
        where = f"row {i}"

        def text(col, rec=rec):
            v = rec.get(col)
            return "" if v is None or (not isinstance(v, str) and pd.isna(v)) else str(v).strip()

        out = {c: text(c) for c in raw.columns}
        for col in ("provider", "region", "volume_type", "component", "source"):
            if not out[col]:
                raise ParseError(source, where, f"a non-empty {col!r}", found=out[col])
        out["volume_type"] = out["volume_type"].lower()
        if out["component"] not in COMPONENTS:
            raise ParseError(source, where, "component one of " + ", ".join(COMPONENTS),
                             found=out["component"])
        try:
            price = float(out["price_usd"])
        except ValueError:
            raise ParseError(source, where, "a number in 'price_usd'",
                             found=out["price_usd"]) from None
        if not math.isfinite(price) or price < 0:
            raise ParseError(source, where, "a finite price >= 0 in 'price_usd'",
                             found=out["price_usd"])
        out["price_usd"] = price
        for col in ("tier_from", "tier_to"):
            v = out[col]
            try:
                out[col] = float(v) if v else np.nan
            except ValueError:
                raise ParseError(source, where, f"a number or blank in {col!r}", found=v) from None
        for col in ("effective_from", "effective_to"):
            v = out[col]
            if isinstance(rec.get(col), pd.Timestamp):
                out[col] = rec[col]
                continue
            try:
                out[col] = _parse_table_date(v) if v and v != "NaT" else pd.NaT
            except ValueError:
                raise ParseError(source, where, f"a date (YYYY, YYYY-MM or YYYY-MM-DD) in {col!r}",
                                 found=v) from None
        if pd.isna(out["effective_from"]):
            raise ParseError(source, where, "a date in 'effective_from'", found="")
        if pd.notna(out["effective_to"]) and out["effective_to"] <= out["effective_from"]:
            raise ParseError(source, where, "effective_to after effective_from",
                             found=f"{out['effective_from'].date()} .. {out['effective_to'].date()}")
        if (not math.isnan(out["tier_from"]) and not math.isnan(out["tier_to"])
                and out["tier_to"] < out["tier_from"]):
            raise ParseError(source, where, "tier_to >= tier_from",
                             found=f"{out['tier_from']} .. {out['tier_to']}")
        rows.append(out)
    book = pd.DataFrame(rows, columns=list(raw.columns))
    for col in ("effective_from", "effective_to"):
        book[col] = pd.to_datetime(book[col]).astype("datetime64[ns]")
    for col in ("tier_from", "tier_to", "price_usd"):
        book[col] = book[col].astype(float)
    if "notes" not in book:
        book["notes"] = ""
    book.attrs["path"] = source
    book.attrs["checked"] = True
    return book


def _select(book: pd.DataFrame, as_of, region: str | None, provider: str | None) -> pd.DataFrame:
    sel = pd.Series(True, index=book.index)
    if as_of is not None:
        day = _date(as_of)
        sel &= (book["effective_from"] <= day) & (
            book["effective_to"].isna() | (day < book["effective_to"]))
    if region is not None:
        sel &= book["region"] == region
    if provider is not None:
        sel &= book["provider"] == provider
    out = book.loc[sel].copy()
    low, high = _bands(out, book.attrs.get("path", "price book"), dated=as_of is not None)
    out["band_low"], out["band_high"] = low, high
    out = out.reset_index(drop=True)
    out.attrs["path"] = book.attrs.get("path", "price book")
    out.attrs["checked"] = True
    out.attrs["selected"] = (None if as_of is None else str(_date(as_of).date()), region, provider)
    return out


def _first_unit_low(tier_from: float) -> float:
    """Continuous lower bound of a band whose first unit is ``tier_from`` (0 or 1: from 0)."""
    return 0.0 if math.isnan(tier_from) or tier_from <= 1 else tier_from - 1.0


def _bands(book: pd.DataFrame, source: str, dated: bool) -> tuple[pd.Series, pd.Series]:
    """Continuous band bounds (low, high] of each row; (0, inf) for unbanded rows.

    On one date (``dated``), the bands of a component must chain without gaps or overlaps, and an
    unbanded component must have one row; for the whole book (all dates) each row is converted
    on its own.
    """
    tier_from = book["tier_from"].to_numpy(float)
    low = np.array([_first_unit_low(f) for f in tier_from])
    high = np.where(np.isnan(book["tier_to"].to_numpy(float)), np.inf,
                    book["tier_to"].to_numpy(float))
    if dated:
        groups: dict[tuple, list[int]] = {}
        keys = zip(book["provider"], book["region"], book["volume_type"], book["component"],
                   strict=True)
        for i, key in enumerate(keys):
            groups.setdefault(key, []).append(i)
        tier_to = book["tier_to"].to_numpy(float)
        for key, idx in groups.items():
            if len(idx) == 1:
                continue
            where = f"rows for {'/'.join(key)}"
            if all(np.isnan(tier_from[i]) and np.isnan(tier_to[i]) for i in idx):
                raise ParseError(source, where,
                                 "one price per component on a date (dates overlap)",
                                 found=f"{len(idx)} rows")
            idx = sorted(idx, key=lambda i: 0.0 if np.isnan(tier_from[i]) else tier_from[i])
            for prev, i in zip(idx, idx[1:], strict=False):
                f = 0.0 if np.isnan(tier_from[i]) else tier_from[i]
                if f not in (high[prev], high[prev] + 1):
                    raise ParseError(source, where,
                                     f"contiguous bands (next band to start at {high[prev]:g} "
                                     f"or {high[prev] + 1:g})", found=f"tier_from {f:g}")
                low[i] = high[prev]
    return pd.Series(low, index=book.index), pd.Series(high, index=book.index)


def price_book(as_of=None, region: str | None = "us-east-1", path=None,
               provider: str | None = "aws") -> pd.DataFrame:
    """The dated, sourced price book: the rows in force on ``as_of``.

    Parameters
    ----------
    as_of : date, str, Timestamp, ``None`` or ``"all"``
        The benchmark date; rows with ``effective_from <= as_of < effective_to`` (blank
        ``effective_to`` = still in force). ``None`` means today; ``"all"`` returns every row.
    region : str or None
        Region to keep (``None``: every region).
    path : path-like, optional
        A user CSV in the same provider-neutral schema (see Notes); default: the book shipped
        with ebsstats (``ebsstats/data/ebs_pricing.csv``).
    provider : str or None
        Provider to keep (``"aws"``; ``None``: every provider).

    Returns
    -------
    DataFrame
        The CSV columns (``source`` and ``notes`` kept) with ``tier_from``, ``tier_to`` and
        ``price_usd`` as floats, ``effective_from``/``effective_to`` as dates (``NaT`` = current),
        plus ``band_low``/``band_high``: the band as a continuous interval (low, high].

    Raises
    ------
    ParseError
        A user CSV lacks a required column or has a bad cell (the message names the file and the
        data row, counted from 1), or its bands have gaps or overlaps.

    Notes
    -----
    Schema, one row per component (and band): ``provider, region, volume_type, component,
    tier_from, tier_to, unit, price_usd, effective_from, effective_to, source[, notes]``.
    Components: ``storage_gb_month`` (per GiB provisioned or, for Aurora, used), ``disk_month``
    (fixed price per disk whose size falls in the band (tier_from, tier_to] GiB, as Azure's
    size tiers), ``iops_month`` (per provisioned IOPS, banded; a 0-price band is a free
    baseline), ``throughput_mbps_month`` (per provisioned MiB/s, banded), ``io_requests_million``,
    ``instance_hour``, ``snapshot_gb_month`` and ``snapshot_restore_gb`` (listed, not added to
    volume cost). Dates are ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``.

    Examples
    --------
    >>> import ebsstats as es
    >>> b = es.price_book("2013-06-01")
    >>> b.loc[(b.volume_type == "io1") & (b.component == "iops_month"), "price_usd"].tolist()
    [0.1]
    >>> b = es.price_book("2015-06-01")
    >>> b.loc[(b.volume_type == "io1") & (b.component == "iops_month"), "price_usd"].tolist()
    [0.065]
    """
    book = _load(PRICING_CSV if path is None else path)
    if isinstance(as_of, str) and as_of == "all":
        as_of = None
    elif as_of is None:
        as_of = _date(None)
    return _select(book, as_of, region, provider)


def _book_for(book, as_of, region, provider) -> pd.DataFrame:
    if book is None:
        return price_book(as_of, region=region, provider=provider)
    if isinstance(book, (str, Path)):
        return price_book(as_of, region=region, path=book, provider=provider)
    if isinstance(book, pd.DataFrame):
        if book.attrs.get("selected") == (str(_date(as_of).date()), region, provider):
            return book  # already the rows in force on that date (e.g. cached by cost())
        if book.attrs.get("checked") and {"band_low", "band_high"} <= set(book.columns):
            return _select(book.drop(columns=["band_low", "band_high"]), as_of, region, provider)
        checked = _check_book(book.drop(columns=["band_low", "band_high"], errors="ignore"),
                              book.attrs.get("path", "<price-book frame>"))
        return _select(checked, as_of, region, provider)
    raise TypeError("book must be None, a path or a DataFrame from price_book()")


def price_date(as_of=None, timestamps=None) -> pd.Timestamp:
    """The day prices and limits are taken from: ``as_of`` when it is a date; else (``None`` or
    ``"timestamp"``) the first of ``timestamps`` (the runs' start times); else, for ``None``,
    today. ``"timestamp"`` without any timestamp raises ``ValueError``.

    >>> price_date("2017-06-01 12:00").date(), price_date(None, ["2024-03-02", "2024-01-05"]).date()
    (datetime.date(2017, 6, 1), datetime.date(2024, 1, 5))
    """
    if as_of is not None and not (isinstance(as_of, str) and as_of == "timestamp"):
        return _date(as_of)
    ts = pd.Series([] if timestamps is None else timestamps, dtype=object).dropna()
    if len(ts):
        return _date(pd.to_datetime(ts, utc=True).min())
    if as_of == "timestamp":
        raise ValueError("as_of='timestamp' but there are no timestamps")
    return _date(None)


def is_priced(volume_type: str, as_of=None, *, region: str | None = "us-east-1",
              instance_type: str | None = None, provider: str | None = "aws") -> bool:
    """Whether the price book prices ``volume_type`` on ``as_of`` (default today) in
    ``region``: what :func:`volume_cost` needs, asked without raising.

    Examples
    --------
    >>> is_priced("gp3", "2021-06-01"), is_priced("gp3", "2019-06-01"), is_priced("local")
    (True, False, False)
    """
    try:
        vt = _normalise_type(volume_type, instance_type)
    except ValueError:  # instance store without an instance type
        return False
    prices = price_book(as_of, region=region, provider=provider)
    return bool((prices["volume_type"] == vt).any())


def _normalise_type(volume_type: str, instance_type: str | None = None) -> str:
    vt = str(volume_type).strip().lower()
    vt = ALIASES.get(vt, vt)
    if vt in ("instance-store", "instance_store", "nvme", "ephemeral"):
        if not instance_type:
            raise ValueError("instance store is priced by the instance: pass instance_type=")
        vt = f"instance-store:{instance_type}"
    return vt


def _banded_charge(rows: pd.DataFrame, quantity: float) -> list[tuple[pd.Series, float]]:
    """Split ``quantity`` over the bands (low, high]; raise if it exceeds the top band."""
    rows = rows.sort_values("band_low")
    top = rows["band_high"].max()
    if quantity > top:
        raise ValueError(f"{quantity:g} is above the highest priced band ({top:g}) "
                         f"of {rows['volume_type'].iloc[0]} {rows['component'].iloc[0]} then")
    return [(r, float(min(max(quantity - r["band_low"], 0.0), r["band_high"] - r["band_low"])))
            for _, r in rows.iterrows()]


def _band_text(r) -> str:
    if r["band_low"] == 0 and math.isinf(r["band_high"]):
        return ""
    hi = "inf" if math.isinf(r["band_high"]) else f"{r['band_high']:g}"
    return f"({r['band_low']:g}, {hi}]"


def volume_cost(volume_type: str, size_gib: float | None = None, *, iops: float | None = None,
                throughput_mibps: float | None = None, requests_per_month: float | None = None,
                members: int = 1, as_of=None, region: str | None = "us-east-1",
                provider: str | None = "aws", hours_per_month: float = HOURS_PER_MONTH,
                book=None, instance_type: str | None = None, allocation: str | float = "all",
                total: bool = False) -> pd.DataFrame | float:
    """Monthly cost of a volume, or of a RAID set of ``members`` identical volumes.

    Parameters
    ----------
    volume_type : str
        ``standard`` (magnetic), ``gp2``, ``gp3``, ``io1``, ``io2``, ``io2-block-express``,
        ``st1``, ``sc1``, ``aurora-standard``, ``aurora-io-optimized``, ``instance-store`` (with
        ``instance_type``) or ``instance-store:<type>``, or any type of a user book.
    size_gib : float
        Size of **each** volume in GiB, billed as provisioned (Aurora: storage used).
    iops : float, optional
        Provisioned IOPS of each volume (io1/io2: required; gp3: default 3,000, the free baseline).
    throughput_mibps : float, optional
        Provisioned throughput of each volume, MiB/s (gp3: default 125, free).
    requests_per_month : float, optional
        Billed I/O requests per month of the **whole set** (magnetic, Aurora Standard). Not
        multiplied by ``members``: a RAID 0 stripe splits the array's requests over its members;
        for RAID 1/10 pass the doubled write count.
    members : int
        Number of identical volumes (RAID set); per-volume components are multiplied by it.
    as_of : date-like, optional
        Benchmark date selecting the prices in force (default today).
    region, provider : str
        Rows of the book to use.
    hours_per_month : float
        730 (AWS calculator, default) or 720 (30-day month of AWS's pricing examples).
    book : DataFrame or path, optional
        A price book (:func:`price_book` frame, or a CSV path in its schema).
    instance_type : str, optional
        For instance store: the instance whose hourly price buys the storage.
    allocation : ``"all"`` or float in [0, 1]
        Share of the instance-hour price charged to storage. ``"all"`` (1.0) charges the whole
        instance to its local storage, an **upper bound** of the storage cost; pass e.g. the
        price difference to a comparable instance without local storage, as a share.
    total : bool
        Return the total monthly USD (float) instead of the breakdown.

    Returns
    -------
    DataFrame or float
        One row per price component (and band): ``volume_type, component, band, quantity,
        quantity_unit, unit_price, price_unit, members, monthly_usd, effective_from, source``;
        ``quantity`` is per volume except for requests (per set). ``attrs`` records
        ``as_of``, ``hours_per_month`` and ``allocation``.

    Notes
    -----
    Formulas (S GiB, P IOPS, T MiB/s, N requests a month, p the prices on ``as_of``):
    gp2/st1/sc1 ``S·p_gb``; gp3 ``S·p_gb + max(0, P−3000)·p_iops + max(0, T−125)·p_tp``; io1
    ``S·p_gb + P·p_iops`` (0.10 until 2014-04, 0.065 after); io2 ``S·p_gb`` + P in marginal bands
    (0–32k at 0.065, 32k–64k at 0.0455, above 64k at 0.03185); magnetic ``S·p_gb + N/10⁶·p_req``;
    Aurora ``S_used·p_gb + N/10⁶·p_req``; instance store ``p_hour · hours_per_month · share``.
    A RAID set of ``members`` volumes costs ``members`` times the per-volume components.

    Examples
    --------
    >>> import ebsstats as es
    >>> c = es.volume_cost("io1", 100, iops=1000, as_of="2015-01-01")
    >>> c[["component", "quantity", "unit_price", "monthly_usd"]].values.tolist()
    [['storage_gb_month', 100.0, 0.125, 12.5], ['iops_month', 1000.0, 0.065, 65.0]]
    >>> float(es.volume_cost("gp2", 500, members=4, as_of="2017-06-01", total=True))
    200.0
    """
    day = _date(as_of)
    vt = _normalise_type(volume_type, instance_type)
    prices = _book_for(book, day, region, provider)
    rows = prices[prices["volume_type"] == vt]
    if rows.empty:
        known = sorted(set(prices["volume_type"]))
        raise ValueError(f"no price for volume type {vt!r} in {region} on {day.date()}; "
                         f"types priced then: {', '.join(known) or 'none'}")
    members = int(members)
    if members < 1:
        raise ValueError("members must be >= 1")
    share = _share(allocation)
    out = []

    def add(r, component, quantity, per_set=False, band=""):
        mult = 1 if per_set else members
        qunit, _ = COMPONENTS[component]
        out.append({"volume_type": vt, "component": component, "band": band,
                    "quantity": float(quantity), "quantity_unit": qunit,
                    "unit_price": float(r["price_usd"]), "price_unit": r["unit"],
                    "members": members,
                    "monthly_usd": float(quantity) * float(r["price_usd"]) * mult,
                    "effective_from": r["effective_from"], "source": r["source"]})

    for component, grp in rows.groupby("component", sort=False):
        if component in ("snapshot_gb_month", "snapshot_restore_gb"):
            continue
        if component == "storage_gb_month":
            _need(size_gib, "size_gib", vt)
            add(grp.iloc[0], component, size_gib)
        elif component == "disk_month":
            _need(size_gib, "size_gib", vt)
            hit = grp[(grp["band_low"] < size_gib) & (size_gib <= grp["band_high"])]
            if hit.empty:
                raise ValueError(f"no {vt} size tier holds {size_gib:g} GiB")
            add(hit.iloc[0], component, 1.0, band=_band_text(hit.iloc[0]))
        elif component in ("iops_month", "throughput_mbps_month"):
            q = iops if component == "iops_month" else throughput_mibps
            if q is None:
                q = _free_baseline(grp)
                if q is None:
                    name = "iops" if component == "iops_month" else "throughput_mibps"
                    raise ValueError(f"{vt} charges per provisioned "
                                     f"{'IOPS' if name == 'iops' else 'MiB/s'}: pass {name}=")
            if q < 0:
                raise ValueError(f"{component}: negative quantity {q}")
            for r, units in _banded_charge(grp, float(q)):
                add(r, component, units, band=_band_text(r))
        elif component == "io_requests_million":
            r = grp.iloc[0]
            if requests_per_month is None:
                if r["price_usd"] != 0:
                    raise ValueError(f"{vt} charges per I/O request: pass requests_per_month= "
                                     "(e.g. measured IOPS x duty cycle x 2.628e6)")
                requests = 0.0
            else:
                requests = float(requests_per_month)
            add(r, component, requests / 1e6, per_set=True)
        elif component == "instance_hour":
            add(grp.iloc[0], component, hours_per_month * share)
    frame = pd.DataFrame(out, columns=["volume_type", "component", "band", "quantity",
                                       "quantity_unit", "unit_price", "price_unit", "members",
                                       "monthly_usd", "effective_from", "source"])
    frame.attrs.update({"as_of": str(day.date()), "hours_per_month": float(hours_per_month),
                        "allocation": allocation, "region": region})
    if total:
        return float(frame["monthly_usd"].sum())
    return frame


def _share(allocation) -> float:
    if isinstance(allocation, str):
        if allocation != "all":
            raise ValueError("allocation must be 'all' or a share in [0, 1]")
        return 1.0
    share = float(allocation)
    if not 0.0 <= share <= 1.0:
        raise ValueError("allocation share must be in [0, 1]")
    return share


def _need(value, name, vt) -> None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        raise ValueError(f"{vt} is priced by size: pass {name}=")
    if value < 0:
        raise ValueError(f"{name} must be >= 0")


def _free_baseline(grp: pd.DataFrame) -> float | None:
    """The upper bound of a leading zero-price band (gp3's 3,000 IOPS / 125 MiB/s), if any."""
    first = grp.sort_values("band_low").iloc[0]
    if first["price_usd"] == 0 and first["band_low"] == 0 and math.isfinite(first["band_high"]):
        return float(first["band_high"])
    return None


def price_rule(volume_type: str) -> str:
    """One line saying how a volume type is billed (for reports).

    >>> price_rule("gp3")
    'S·p_gb + max(0, IOPS−3000)·p_iops + max(0, MiB/s−125)·p_tp'
    """
    rules = {
        "gp2": "S·p_gb", "st1": "S·p_gb", "sc1": "S·p_gb",
        "gp3": "S·p_gb + max(0, IOPS−3000)·p_iops + max(0, MiB/s−125)·p_tp",
        "io1": "S·p_gb + IOPS·p_iops",
        "io2": "S·p_gb + IOPS in marginal bands (0–32k, 32k–64k, >64k)",
        "io2-block-express": "S·p_gb + IOPS in marginal bands (0–32k, 32k–64k, >64k)",
        "standard": "S·p_gb + requests/10⁶·p_req",
        "aurora-standard": "S_used·p_gb + requests/10⁶·p_req",
    }
    vt = _normalise_type(volume_type, "x") if "instance" not in volume_type else "instance-store"
    if vt.startswith("instance-store"):
        return "p_hour·730·share (share=1: all charged to storage, an upper bound)"
    return rules.get(vt, "see the price book")


# ---------------------------------------------------------------------------------------------
# performance model


@lru_cache(maxsize=2)
def _perf_table(path: str) -> pd.DataFrame:
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    raw["effective_from"] = [_parse_table_date(t) for t in raw["effective_from"]]
    raw["effective_from"] = pd.to_datetime(raw["effective_from"]).astype("datetime64[ns]")
    raw["value_num"] = pd.to_numeric(raw["value"], errors="coerce")
    return raw


def performance_model(as_of=None) -> pd.DataFrame:
    """Documented EBS performance limits in force on ``as_of``.

    For each ``(volume_type, rule)`` the row with the latest ``effective_from <= as_of`` (a later
    row supersedes an earlier one: gp2 ``max_iops`` 3,072 → 10,000 → 16,000; io1
    ``max_iops_per_gib`` 10 → 30 → 50). ``as_of="all"`` returns every row.

    Parameters
    ----------
    as_of : date-like, ``None`` (today) or ``"all"``

    Returns
    -------
    DataFrame
        ``volume_type, rule, value, unit, effective_from, source, notes, value_num`` (``value``
        verbatim, ``value_num`` the number or NaN for ranges/text).

    Examples
    --------
    >>> from ebsstats.pricing import performance_model
    >>> m = performance_model("2017-06-01")
    >>> m.set_index(["volume_type", "rule"]).loc[("io1", "max_iops_per_gib"), "value_num"]
    np.float64(50.0)
    """
    if isinstance(as_of, str) and as_of == "all":
        return _perf_table(str(PERFORMANCE_CSV)).copy()
    return _model_at(_date(as_of)).copy()


@lru_cache(maxsize=64)
def _model_at(day: pd.Timestamp) -> pd.DataFrame:
    table = _perf_table(str(PERFORMANCE_CSV))
    table = table[table["effective_from"] <= day]
    table = table.sort_values("effective_from", kind="stable")
    return table.groupby(["volume_type", "rule"], sort=False).tail(1).reset_index(drop=True)


@lru_cache(maxsize=64)
def _rules_at(day: pd.Timestamp) -> dict[tuple[str, str], float]:
    m = _model_at(day)
    return {(vt, rule): float(v) for vt, rule, v in
            zip(m["volume_type"], m["rule"], m["value_num"], strict=True)}


def _rule(model: dict, volume_type: str, rule: str) -> float:
    return model.get((volume_type, rule), math.nan)


def _model_type(volume_type: str) -> str:
    vt = _normalise_type(volume_type, "x") if not str(volume_type).startswith("instance") \
        else str(volume_type)
    return vt


def volume_rules(volume_type: str, as_of=None) -> dict[str, float]:
    """The numeric rules of the performance model in force for a volume type on ``as_of``
    (``max_iops``, ``max_iops_per_gib``, ``max_throughput``, ``baseline_iops``...), by name.

    >>> r = volume_rules("gp3", "2022-06-01")
    >>> r["max_iops"], r["max_throughput_per_iops"]
    (16000.0, 0.25)
    """
    vt = _model_type(volume_type)
    return {rule: v for (t, rule), v in _rules_at(_date(as_of)).items()
            if t == vt and not math.isnan(v)}


def max_iops_per_gib(volume_type: str, as_of=None) -> float:
    """Largest provisioned IOPS per GiB allowed on ``as_of`` (io1 10/30/50, io2 500), or NaN.

    >>> max_iops_per_gib("io1", "2012-09-01"), max_iops_per_gib("io1", "2014-01-01")
    (10.0, 30.0)
    """
    vt = _model_type(volume_type)
    return _rule(_rules_at(_date(as_of)), vt, "max_iops_per_gib")


def entitled_iops(volume_type: str, size_gib: float, provisioned_iops: float | None = None,
                  as_of=None) -> float:
    """IOPS a volume is entitled to sustain (its baseline), by the rules in force on ``as_of``.

    Parameters
    ----------
    volume_type : str
    size_gib : float
        Size of the volume (one volume; multiply by the members of a RAID 0 set yourself).
    provisioned_iops : float, optional
        gp3 (default 3,000), io1, io2 (required).
    as_of : date-like, optional

    Returns
    -------
    float
        gp2: ``min(max(floor, 3·S), cap)`` with the cap of the era (3,072 from 2014-06, 10,000
        from 2015-03, 16,000 from 2018-12) and the 100-IOPS floor where the model has it in force
        (documented from 2018-02; whether it existed at launch is unverified, so earlier dates use
        ``3·S`` alone). gp3/io1/io2: the provisioned IOPS. st1, sc1 (sold by throughput),
        magnetic (best effort, ~100 IOPS typical) and instance store: NaN.

    Examples
    --------
    >>> from ebsstats.pricing import entitled_iops
    >>> entitled_iops("gp2", 500, as_of="2017-01-01"), entitled_iops("gp2", 5000, as_of="2017-01-01")
    (1500.0, 10000.0)
    >>> entitled_iops("gp2", 10, as_of="2019-01-01"), entitled_iops("gp3", 100, as_of="2022-01-01")
    (100.0, 3000.0)
    """
    vt = _model_type(volume_type)
    model = _rules_at(_date(as_of))
    if vt == "gp2":
        per_gib = _rule(model, "gp2", "baseline_iops_per_gib")
        if math.isnan(per_gib):
            return math.nan  # gp2 did not exist yet
        floor = _rule(model, "gp2", "min_baseline_iops")
        cap = _rule(model, "gp2", "max_iops")
        base = per_gib * float(size_gib)
        if not math.isnan(floor):
            base = max(floor, base)
        return float(min(base, cap)) if not math.isnan(cap) else float(base)
    if vt == "gp3":
        return float(provisioned_iops) if _given(provisioned_iops) else \
            _rule(model, "gp3", "baseline_iops")
    if vt in ("io1", "io2", "io2-block-express"):
        if not _given(provisioned_iops):
            raise ValueError(f"{vt} entitlement is the provisioned IOPS: pass provisioned_iops=")
        return float(provisioned_iops)
    return math.nan


def _given(x) -> bool:
    return x is not None and not (isinstance(x, float) and math.isnan(x)) and not pd.isna(x)


# gp2 per-volume throughput caps by era and size, from the notes of the model's max_throughput
# rows: 2014-06 128 MiB/s; 2015-03 128 MiB/s up to 170 GiB, 160 above; 2018-12 128 MiB/s up to
# 170 GiB, 250 above ("250 MiB/s if burst credits are available" between 170 and 334 GiB,
# "regardless of burst credits" from 334 GiB: below 334 GiB the baseline, 3 IOPS/GiB x 256 KiB
# = 0.75 MiB/s per GiB, is under the cap, which only bursting reaches).
def _gp2_throughput_cap(size_gib: float, era_cap: float) -> float:
    if era_cap <= 128:
        return 128.0
    if era_cap <= 160:
        return 128.0 if size_gib <= 170 else 160.0
    return 128.0 if size_gib <= 170 else era_cap


def entitled_throughput(volume_type: str, size_gib: float,
                        provisioned_throughput: float | None = None, as_of=None, *,
                        provisioned_iops: float | None = None) -> float:
    """Throughput a volume is entitled to sustain, in **B/s**, by the rules on ``as_of``.

    Parameters
    ----------
    volume_type : str
    size_gib : float
    provisioned_throughput : float, optional
        gp3 only, MiB/s (default 125, the free baseline).
    as_of : date-like, optional
    provisioned_iops : float, optional
        io1/io2: throughput follows the provisioned IOPS.

    Returns
    -------
    float
        B/s. gp2: ``min(baseline IOPS × 256 KiB, cap)`` with the cap of the era and size (128;
        160 above 170 GiB from 2015-03; 250 above 170 GiB from 2018-12, so 0.75 MiB/s per GiB
        from 171 to 333 GiB). gp3: provisioned (125 MiB/s default). io1/io2: 256 KiB per
        provisioned IOPS up to 32,000 IOPS and at most 500 MiB/s there, 16 KiB per IOPS above
        (750 MiB/s at 48,000), capped at the era's maximum (500 MiB/s from 2017-12, 1,000 from 2018-11;
        earlier 320 MiB/s from 2015-03 and 128 MiB/s before, from the model's notes).
        io2 Block Express: 0.256 MiB/s per IOPS up to 4,000 MiB/s. st1/sc1: the baseline,
        40 / 12 MiB/s per TiB, capped at 500 / 250 MiB/s. Magnetic, instance store: NaN.

    Examples
    --------
    >>> from ebsstats.pricing import entitled_throughput
    >>> entitled_throughput("st1", 500, as_of="2017-01-01") / 2**20   # 40 * 500/1024
    19.53125
    >>> entitled_throughput("gp2", 500, as_of="2017-01-01") / 2**20
    160.0
    """
    vt = _model_type(volume_type)
    model = _rules_at(_date(as_of))
    S = float(size_gib)
    if vt == "gp2":
        base = entitled_iops("gp2", S, as_of=as_of)
        era = _rule(model, "gp2", "max_throughput")
        if math.isnan(base) or math.isnan(era):
            return math.nan
        return min(base * 0.25, _gp2_throughput_cap(S, era)) * MiB
    if vt == "gp3":
        tp = provisioned_throughput if _given(provisioned_throughput) else \
            _rule(model, "gp3", "baseline_throughput")
        return float(tp) * MiB
    if vt in ("io1", "io2"):
        if not _given(provisioned_iops):
            raise ValueError(f"{vt} throughput follows provisioned IOPS: pass provisioned_iops=")
        p = float(provisioned_iops)
        # up to 32,000 IOPS: 256 KiB an IOPS, at most 500 MiB/s; above: 16 KiB an IOPS
        # (48,000 -> 750, 64,000 -> 1,000 MiB/s; continuous at 32,000)
        tp = min(p * 0.25, 500.0) if p <= 32000 else p * 16 / 1024
        cap = _rule(model, vt, "max_throughput")
        if math.isnan(cap):  # io1 before 2017-12: 320 MiB/s from 2015-03, else 128 MiB/s
            cap = 320.0 if _date(as_of) >= pd.Timestamp("2015-03-01") else 128.0
        return min(tp, cap) * MiB
    if vt == "io2-block-express":
        if not _given(provisioned_iops):
            raise ValueError(f"{vt} throughput follows provisioned IOPS: pass provisioned_iops=")
        cap = _rule(model, vt, "max_throughput")
        return min(float(provisioned_iops) * 0.256, cap) * MiB
    if vt in ("st1", "sc1"):
        per_tib = _rule(model, vt, "baseline_throughput_per_tib")
        cap = _rule(model, vt, "max_throughput")
        return min(per_tib * S / 1024.0, cap) * MiB
    return math.nan


def burst_parameters(volume_type: str, size_gib: float, as_of=None) -> dict:
    """Baseline, burst level and credit bucket of a volume on ``as_of``.

    Parameters
    ----------
    volume_type : str
    size_gib : float
    as_of : date-like, optional

    Returns
    -------
    dict
        ``volume_type, size_gib, as_of, bursts`` (bool), ``unit`` (``"IO/s"`` for gp2, ``"B/s"``
        for st1/sc1), ``baseline``, ``burst``, ``bucket`` and ``bucket_unit`` (``"I/O credits"``
        or ``"B"``), ``burst_duration_s`` (a full bucket at the burst level: bucket / (burst −
        baseline)), ``refill_s`` (empty → full at rest: bucket / baseline), ``max_throughput``
        (B/s, the per-volume cap, reached while bursting: gp2 from 2018-12 128 MiB/s up to
        170 GiB, 250 above) and ``notes``.

        gp2: baseline from :func:`entitled_iops`, burst 3,000 IOPS when the baseline is below
        it, bucket 5.4 M credits (also the initial balance). st1/sc1: baseline and burst
        MiB/s per TiB (40/250, 12/80) capped at 500/250 MiB/s, bucket 1 TiB of credit per TiB
        of size. Volume types without credits (gp3, io1, io2, instance store) return
        ``bursts=False`` with ``burst == baseline`` where known; magnetic gives the documented
        ~100 IOPS average and no bucket.

    Examples
    --------
    >>> from ebsstats.pricing import burst_parameters
    >>> p = burst_parameters("gp2", 100, as_of="2019-01-01")
    >>> p["baseline"], p["burst"], p["burst_duration_s"], p["refill_s"]
    (300.0, 3000.0, 2000.0, 18000.0)
    """
    vt = _model_type(volume_type)
    day = _date(as_of)
    model = _rules_at(day)
    S = float(size_gib)
    out = {"volume_type": vt, "size_gib": S, "as_of": str(day.date()), "bursts": False,
           "unit": "IO/s", "baseline": math.nan, "burst": math.nan, "bucket": 0.0,
           "bucket_unit": "I/O credits", "burst_duration_s": 0.0, "refill_s": 0.0,
           "max_throughput": math.nan, "notes": ""}
    if vt == "gp2":
        base = entitled_iops("gp2", S, as_of=day)
        burst = _rule(model, "gp2", "burst_iops")
        bucket = _rule(model, "gp2", "burst_credit_bucket")
        bursts = bool(base < burst)
        out.update(baseline=base, burst=burst if bursts else base, bucket=bucket if bursts else 0.0,
                   bursts=bursts, max_throughput=_gp2_throughput_cap(
                       S, _rule(model, "gp2", "max_throughput")) * MiB,
                   notes="I/O credits earned at the baseline rate; the bucket starts full")
        if bursts:
            out["burst_duration_s"] = bucket / (burst - base)
            out["refill_s"] = bucket / base
        return out
    if vt in ("st1", "sc1"):
        base = entitled_throughput(vt, S, as_of=day)
        cap = _rule(model, vt, "max_throughput") * MiB
        burst = min(_rule(model, vt, "burst_throughput_per_tib") * S / 1024.0 * MiB, cap)
        bucket = S * 2**30  # "1 TiB of throughput credits per TiB of volume"
        out.update(unit="B/s", baseline=base, burst=burst, bucket=bucket, bucket_unit="B",
                   bursts=bool(burst > base), max_throughput=cap,
                   notes="throughput credits; falls to baseline while a snapshot is taken")
        if burst > base:
            out["burst_duration_s"] = bucket / (burst - base)
            out["refill_s"] = bucket / base
        return out
    if vt == "standard":
        out.update(baseline=_rule(model, "standard", "avg_iops"),
                   notes="best effort: ~100 IOPS average, bursts to hundreds; no credit bucket")
        return out
    if vt == "gp3":
        base = entitled_iops("gp3", S, as_of=day)
        out.update(baseline=base, burst=base, max_throughput=_rule(model, "gp3", "max_throughput")
                   * MiB, notes="no burst model; provisioned IOPS sustained")
        return out
    out["notes"] = "no credit bucket; performance as provisioned (io1/io2) or per instance"
    return out
