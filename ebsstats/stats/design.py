"""Experiment design: randomized multiple interleaved trials (RMIT) spread over weekdays and hours.

Abedi & Brecht (ICPE 2017) showed that on highly variable clouds, running each configuration's
trials back to back ("single trial" or "multiple consecutive trials") confounds the configuration
with whatever the cloud was doing at the time; running *rounds* in which every configuration runs
once, in a fresh random order, repeated many times (RMIT), does not. :func:`schedule` adds the
calendar: rounds are spread over days and over hours of the day (a rotating offset so that every
hour is visited), so weekday/hour drift can be estimated (:func:`ebsstats.stats.calendar.drift` with
``block="config"``) and separated from the configuration effect.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ebsstats._docs import renamed
from ebsstats.stats.calendar import WEEKDAYS

__all__ = ["schedule", "balance"]


def _orders(k: int, rounds: int, rng: np.random.Generator) -> np.ndarray:
    """Random config orders, one per round, balanced over positions.

    Rounds come in groups of k using the rows of a random Latin square (a random cyclic square
    with rows, columns and symbols shuffled) in random row order: within each group every config
    takes every position exactly once; across groups squares are independent.
    """
    out = []
    while len(out) < rounds:
        base = (np.arange(k)[:, None] + np.arange(k)[None, :]) % k
        sq = base[rng.permutation(k)][:, rng.permutation(k)]
        sym = rng.permutation(k)
        out.extend(sym[sq])
    return np.array(out[:rounds])


def schedule(configs: Sequence[str], *, start, days: int = 14, runs_per_day: int = 4,
             hours: Sequence[float] | None = None, run_minutes: float = 10.0,
             blocks: Sequence[str] | None = None, seed: int = 0, tz: str = "UTC",
             out: str | os.PathLike | None = None) -> pd.DataFrame:
    """Randomized multiple interleaved trials plan over days and hours (CSV if ``out``).

    Parameters
    ----------
    configs : sequence of str
        The configurations to compare (volume types, RAID layouts, fio settings, ...).
    start : date-like
        First day (local date in ``tz``; a time of day is ignored).
    days : int
        Number of days of the campaign (14 = every weekday twice).
    runs_per_day : int
        Rounds per day; in each round every config runs once, one after the other.
    hours : sequence of float, optional
        Local start hours of the day's rounds (e.g. ``[1, 7, 13, 19]``). Default: evenly spaced
        (every 24 / runs_per_day hours) with an offset rotating over days in a random order, so
        that over 24 / runs_per_day days every hour of the day starts a round.
    run_minutes : float
        Slot length of one run; run ``i`` of a round starts ``i * run_minutes`` after the round.
    blocks : sequence of str, optional
        Units on which every round is repeated in parallel (instances, volumes), each with its own
        random order.
    seed : int
        Random seed (the plan is reproducible).
    tz : str
        IANA zone of ``start`` and ``hours``; timestamps are written in UTC.
    out : path, optional
        Write the plan as CSV (atomically).

    Returns
    -------
    DataFrame
        One row per run: ``trial`` (run number in start order), ``round``, ``block``,
        ``position`` (place in its round), ``config``, ``timestamp`` (UTC), ``local_time``,
        ``weekday`` (``Mon``…), ``hour`` (local), ``day``. :func:`balance` tabulates
        config × weekday or hour.

    Notes
    -----
    RMIT: Abedi & Brecht (ICPE 2017, "Conducting repeatable experiments in highly variable cloud
    computing environments"). Positions within rounds are balanced by random Latin squares so a
    config is not always first after an idle gap. Every config appears once per round, hence
    equally often on each weekday and at each round hour: weekday/hour effects are orthogonal to
    config effects.

    Examples
    --------
    >>> plan = schedule(["gp2", "gp3", "io1"], start="2024-01-01", days=7, runs_per_day=4)
    >>> len(plan), plan.groupby("config").size().tolist()
    (84, [28, 28, 28])
    >>> bool(balance(plan, "weekday").eq(4).all().all())
    True
    """
    configs = list(configs)
    if not configs or len(set(configs)) != len(configs):
        raise ValueError("configs must be a non-empty list of distinct names")
    if days < 1 or runs_per_day < 1:
        raise ValueError("days and runs_per_day must be >= 1")
    rng = np.random.default_rng(seed)
    k = len(configs)
    day0 = pd.Timestamp(start).normalize().tz_localize(None)
    if hours is None:
        spacing = 24.0 / runs_per_day
        n_off = max(int(np.floor(spacing)), 1)
        offsets = rng.permutation(n_off)
        day_hours = [[(offsets[d % n_off] + i * spacing) % 24 for i in range(runs_per_day)]
                     for d in range(days)]
    else:
        hours = sorted(float(h) for h in hours)
        if len(hours) != runs_per_day:
            runs_per_day = len(hours)
        day_hours = [hours] * days
    block_names = list(blocks) if blocks else [None]
    n_rounds = days * runs_per_day
    orders = {b: _orders(k, n_rounds, rng) for b in block_names}
    rows = []
    r = 0
    for d in range(days):
        for h in day_hours[d]:
            round_start = day0 + pd.Timedelta(days=d) + pd.Timedelta(hours=float(h))
            for b in block_names:
                for pos, c in enumerate(orders[b][r]):
                    rows.append({"round": r, "block": b, "position": pos,
                                 "config": configs[c], "day": d,
                                 "local": round_start + pd.Timedelta(minutes=pos * run_minutes)})
            r += 1
    plan = pd.DataFrame(rows)
    local = plan["local"].dt.tz_localize(tz, ambiguous=False, nonexistent="shift_forward")
    plan["timestamp"] = local.dt.tz_convert("UTC")
    plan["local_time"] = local
    plan["weekday"] = pd.Categorical([WEEKDAYS[w] for w in local.dt.day_of_week],
                                     categories=WEEKDAYS, ordered=True)
    plan["hour"] = local.dt.hour
    plan = plan.sort_values(["timestamp", "block", "position"], kind="stable",
                            na_position="first").reset_index(drop=True)
    plan.insert(0, "trial", np.arange(len(plan)))
    plan = plan[["trial", "round", "block", "position", "config", "timestamp", "local_time",
                 "weekday", "hour", "day"]]
    if blocks is None:
        plan = plan.drop(columns="block")
    if out is not None:
        _write_csv(plan, Path(out))
    return plan


def _write_csv(df: pd.DataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", newline="") as fh:
            df.to_csv(fh, index=False)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@renamed(plan="data")
def balance(data: pd.DataFrame, factor: str = "weekday") -> pd.DataFrame:
    """Count of runs per config × ``factor`` (``weekday``, ``hour``, ``position``, ...).

    A balanced plan has equal counts in every column for all configs.

    Examples
    --------
    >>> plan = schedule(["a", "b"], start="2024-01-01", days=6, runs_per_day=4)
    >>> int(balance(plan, "hour").nunique().max())   # same count for both configs, every hour
    1
    """
    return pd.crosstab(data["config"], data[factor])
