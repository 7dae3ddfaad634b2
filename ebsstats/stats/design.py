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
        (every s = 24 / runs_per_day hours, from 00:00) plus a whole-hour offset 0, 1, ...,
        ceil(s) - 1 that rotates over days in a random order, so that over ceil(s) days (e.g. 6
        for 4 rounds a day, 5 for 5 rounds a day) every hour of the day starts a round (unless
        rounds are pushed back, see ``run_minutes``).
    run_minutes : float
        Slot length of one run; run ``i`` of a round starts ``i * run_minutes`` (elapsed time)
        after the round. A round never starts before the previous one has ended: a round that
        would (rounds too close, e.g. across midnight when the offset falls from one day to the
        next) is pushed back to start when the previous round ends, so its ``hour`` may differ
        from the nominal one. ``ValueError`` if a day's rounds cannot fit in 24 hours
        (``runs_per_day * len(configs) * run_minutes`` > 24 h).
    blocks : sequence of str, optional
        Units on which every round is repeated in parallel (instances, volumes), each with its own
        random order.
    seed : int
        Random seed (the plan is reproducible).
    tz : str
        IANA zone of ``start`` and ``hours``; timestamps are written in UTC. A round start that
        does not exist locally (the hour skipped when summer time starts) moves forward to the
        end of the gap, one that occurs twice is taken in standard time (the second occurrence);
        the round's runs follow it ``run_minutes`` apart in elapsed time.
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
    if hours is not None and not len(hours):
        raise ValueError("hours, if given, must not be empty")
    day_hours = _day_hours(days, runs_per_day, hours, rng)
    runs_per_day = len(day_hours[0])
    run = pd.Timedelta(minutes=float(run_minutes))
    if runs_per_day * k * run > pd.Timedelta(days=1):
        raise ValueError(f"{runs_per_day} rounds of {k} runs x {run_minutes:g} min do not fit in "
                         "a day: lower runs_per_day or run_minutes")
    starts = _round_starts(day0, day_hours, tz, k * run)
    block_names = list(blocks) if blocks else [None]
    orders = {b: _orders(k, len(starts), rng) for b in block_names}
    rows = [{"round": r, "block": b, "position": pos, "config": configs[c],
             "day": r // runs_per_day,
             "timestamp": t0 + pos * run}
            for r, t0 in enumerate(starts) for b in block_names
            for pos, c in enumerate(orders[b][r])]
    plan = pd.DataFrame(rows)
    local = plan["timestamp"].dt.tz_convert(tz)
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


def _day_hours(days: int, runs_per_day: int, hours: Sequence[float] | None,
               rng: np.random.Generator) -> list[list[float]]:
    """Nominal local start hours of each day's rounds.

    Default: ``o + i * s`` for i < runs_per_day, s = 24 / runs_per_day, with the whole-hour
    offset o running through 0 .. ceil(s) - 1 in a random order, repeated. Round i then starts
    in the hours floor(i s) .. floor(i s) + ceil(s) - 1, which reach floor((i + 1) s) - 1 since
    floor(a + b) <= floor(a) + ceil(b): every hour is covered, and o + i s < 24 (no wrap).
    """
    if hours is not None:
        return [sorted(float(h) for h in hours)] * days
    spacing = 24.0 / runs_per_day
    n_off = max(int(np.ceil(spacing - 1e-9)), 1)
    offsets = rng.permutation(n_off)
    return [[float(offsets[d % n_off] + i * spacing) for i in range(runs_per_day)]
            for d in range(days)]


def _round_starts(day0: pd.Timestamp, day_hours: list[list[float]], tz: str,
                  length: pd.Timedelta) -> list[pd.Timestamp]:
    """UTC start of every round: its local start localised once (a time in a gap moves to the
    end of the gap, a repeated one is taken in standard time), then pushed back to the end of
    the previous round (``length`` after its start) if it would begin earlier."""
    local = pd.DatetimeIndex([day0 + pd.Timedelta(days=d)
                              + pd.Timedelta(hours=float(h)).round("s")
                              for d, hs in enumerate(day_hours) for h in hs])
    utc = local.tz_localize(tz, ambiguous=np.zeros(len(local), dtype=bool),
                            nonexistent="shift_forward").tz_convert("UTC")
    starts: list[pd.Timestamp] = []
    for t in utc:
        starts.append(t if not starts or t >= starts[-1] + length else starts[-1] + length)
    return starts


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
