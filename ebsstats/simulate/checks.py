"""Checks of a simulated campaign's parameters, made when its :class:`~ebsstats.simulate.model.Spec`
is built (so by :func:`ebsstats.simulate.simulate`, :func:`~ebsstats.simulate.model.campaign`,
:func:`~ebsstats.simulate.model.campaign_frame` and the ``ebsstats simulate`` command alike).

A bad parameter raises :class:`ValueError` with one line that names it, its value and what is
allowed, before anything is computed or written. The names it checks against (volume types, tools,
fio jobs ...) are the model's, given as :class:`Known`: this module imports nothing of the model.

Examples
--------
>>> from ebsstats.simulate.model import Spec
>>> Spec(weeks=0)
Traceback (most recent call last):
...
ValueError: weeks must be a whole number, at least 1, not 0
>>> Spec(raid={"members": 1})
Traceback (most recent call last):
...
ValueError: raid.members must be a whole number from 2 to 11, not 1
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import pandas as pd

#: most runs a day that ``runs_per_day`` can ask for (the schedule's cap)
MAX_RUNS_PER_DAY = 8
VOLUME_KEYS = ("type", "volume_type", "size_gib", "iops", "throughput_mibs", "speed", "name",
               "instance_type")
RAID_KEYS = ("level", "members", "volume_type", "size_gib", "iops", "throughput_mibs",
             "speed_factors", "name")
RAID_LEVELS = ("raid0", "raid10")
BAND_KEYS = ("p", "ratio", "level")
BAND_LEVELS = ("run", "instance")
SLOW_KEYS = ("factor", "every_days", "schedule", "raid_set")
DRIFT_KEYS = ("weekday", "hour", "weekday_amplitude", "hour_amplitude")
NOISE_KEYS = ("on", "sigma", "instance_sigma", "volume_sigma", "sla_dip_prob", "sla_dip_range",
              "within_run_cv")
BONNIE_VERSIONS = ("2.00a", "1.96")


@dataclass(frozen=True)
class Known:
    """The model's names and limits that parameters are checked against."""

    volume_types: tuple[str, ...]
    tools: tuple[str, ...]
    fio_jobs: tuple[str, ...]
    sysbench_modes: tuple[str, ...]
    #: most members of a RAID set (one device letter each)
    max_raid_members: int
    #: ``(volume_types, raid) -> (volume config names, RAID set names)`` of checked parameters
    config_names: Callable[[Any, Any], tuple[list[str], list[str]]]


# ---------------------------------------------------------------------------------------------
# one rule each


def fail(name: str, value: Any, allowed: str) -> NoReturn:
    """Raise the one-line :class:`ValueError` of a bad parameter.

    >>> fail("weeks", 0, "a whole number, at least 1")
    Traceback (most recent call last):
    ...
    ValueError: weeks must be a whole number, at least 1, not 0
    """
    raise ValueError(f"{name} must be {allowed}, not {value!r}")


def whole(name: str, value: Any, low: int, high: int | None = None) -> None:
    """``value`` is an integer (not a bool, not a float) in ``[low, high]``."""
    ok = (isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= low
          and (high is None or value <= high))
    if not ok:
        fail(name, value, f"a whole number, at least {low}" if high is None
             else f"a whole number from {low} to {high}")


def number(name: str, value: Any, low: float = 0.0, high: float = math.inf, *,
           open_low: bool = True) -> None:
    """``value`` is a finite real number in ``(low, high]`` (``[low, high]`` if not
    ``open_low``)."""
    ok = (isinstance(value, numbers.Real) and not isinstance(value, bool)
          and math.isfinite(value) and (value > low if open_low else value >= low)
          and value <= high)
    if not ok:
        above = f"> {low:g}" if open_low else f">= {low:g}"
        upto = "" if high == math.inf else f" and at most {high:g}"
        fail(name, value, f"a finite number {above}{upto}")


def fraction(name: str, value: Any) -> None:
    """``value`` is a probability or fraction: a number in [0, 1]."""
    if not (isinstance(value, numbers.Real) and not isinstance(value, bool) and 0 <= value <= 1):
        fail(name, value, "a number between 0 and 1")


def one_of(name: str, value: Any, choices: Iterable[str], what: str) -> None:
    """``value`` is one of ``choices``; else "unknown WHAT 'x' in NAME; known: ..."."""
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"unknown {what} {value!r} in {name}; known: {', '.join(choices)}")


def keys(name: str, value: Any, allowed: Sequence[str]) -> Mapping[str, Any]:
    """``value`` is a mapping whose keys are all in ``allowed``; return it."""
    if not isinstance(value, Mapping):
        fail(name, value, f"a dict with keys among {', '.join(allowed)}")
    bad = sorted(str(k) for k in value if k not in allowed)
    if bad:
        raise ValueError(f"{name} has unknown key(s) {', '.join(bad)}; known: "
                         f"{', '.join(allowed)}")
    return value


def _items(name: str, value: Any, what: str) -> list[tuple[str, Any]]:
    """(name[i], item) of a list parameter (a string is not a list of names)."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        fail(name, value, f"a list of {what}")
    return [(f"{name}[{i}]", item) for i, item in enumerate(value)]


# ---------------------------------------------------------------------------------------------
# the parameters


def check_spec(spec: Any, known: Known) -> None:
    """Check every parameter of ``spec`` (a :class:`ebsstats.simulate.model.Spec`); raise
    :class:`ValueError` at the first bad one."""
    check_schedule(spec)
    volumes = check_volume_types(spec.volume_types, known)
    raids = check_raid(spec.raid, known)
    if not volumes and not raids:
        raise ValueError("volume_types and raid are both empty: give at least one volume type "
                         "or RAID set to simulate")
    check_jobs(spec, known)
    check_noise(spec.noise, known)
    check_effects(spec)
    check_names(spec, raids, known)


def check_schedule(spec: Any) -> None:
    """``seed``, ``weeks``, ``runs_per_day``, ``start``, ``day_runs``, ``run_gap_s``."""
    whole("seed", spec.seed, 0)
    whole("weeks", spec.weeks, 1)
    number("runs_per_day", spec.runs_per_day, high=MAX_RUNS_PER_DAY)
    try:
        ok = pd.Timestamp(spec.start) is not pd.NaT
    except (ValueError, TypeError):
        ok = False
    if not ok:
        fail("start", spec.start, "a date or timestamp such as '2024-03-04'")
    if spec.day_runs is not None:
        pair = tuple(spec.day_runs) if isinstance(spec.day_runs, Sequence) else ()
        if len(pair) != 2:
            fail("day_runs", spec.day_runs, "a pair (lo, hi) of runs a day")
        whole("day_runs[0]", pair[0], 0)
        whole("day_runs[1]", pair[1], max(1, pair[0]))
    number("run_gap_s", spec.run_gap_s)


def check_volume_types(volume_types: Any, known: Known) -> list[Any]:
    """Each entry a known type name or a dict ``{"type", "size_gib", ...}``; return them."""
    items = _items("volume_types", volume_types, "volume type names or dicts")
    for name, item in items:
        if isinstance(item, str):
            one_of(name, item, known.volume_types, "volume type")
            continue
        d = keys(name, item, VOLUME_KEYS)
        one_of(f"{name}.type", d.get("type") or d.get("volume_type"), known.volume_types,
               "volume type")
        _sizes(name, d, ("size_gib", "iops", "throughput_mibs", "speed"))
    return [item for _, item in items]


def _sizes(name: str, d: Mapping[str, Any], fields: Sequence[str]) -> None:
    for f in fields:
        if d.get(f) is not None:
            number(f"{name}.{f}", d[f])


def check_raid(raid: Any, known: Known) -> list[Mapping[str, Any]]:
    """Each RAID set a dict: known level and member volume type, 2 to 11 members (an even
    number for raid10), sizes and speed factors > 0; return them."""
    if not raid:
        return []
    items = [("raid", raid)] if isinstance(raid, Mapping) else _items("raid", raid, "RAID dicts")
    for name, item in items:
        r = {"level": "raid0", "members": 4, "volume_type": "gp3", **keys(name, item, RAID_KEYS)}
        one_of(f"{name}.level", r["level"], RAID_LEVELS, "RAID level")
        whole(f"{name}.members", r["members"], 2, known.max_raid_members)
        if r["level"] == "raid10" and r["members"] % 2:
            fail(f"{name}.members", r["members"], "an even number for raid10")
        one_of(f"{name}.volume_type", r["volume_type"], known.volume_types, "volume type")
        _sizes(name, r, ("size_gib", "iops", "throughput_mibs"))
        if r.get("speed_factors"):
            sf = [x for _, x in _items(f"{name}.speed_factors", r["speed_factors"], "numbers")]
            if len(sf) != r["members"]:
                fail(f"{name}.speed_factors", r["speed_factors"],
                     f"one factor per member ({r['members']})")
            for i, x in enumerate(sf):
                number(f"{name}.speed_factors[{i}]", x)
    return [item for _, item in items]


def check_jobs(spec: Any, known: Known) -> None:
    """``tools``, ``fio_jobs``, ``sysbench_modes``, ``bonnie_version``, runtimes, ``pts_runs``,
    ``offset_logs``."""
    for name, value in _items("tools", spec.tools, "tool names"):
        one_of(name, value, known.tools, "tool")
    for name, value in _items("fio_jobs", spec.fio_jobs, "fio job names"):
        one_of(name, value, known.fio_jobs, "fio job")
    for name, value in _items("sysbench_modes", spec.sysbench_modes, "sysbench modes"):
        one_of(name, value, known.sysbench_modes, "sysbench mode")
    one_of("bonnie_version", spec.bonnie_version, BONNIE_VERSIONS, "bonnie++ version")
    whole("fio_runtime", spec.fio_runtime, 1)
    whole("sysbench_time", spec.sysbench_time, 1)
    whole("pts_runs", spec.pts_runs, 0)
    if not isinstance(spec.offset_logs, numbers.Integral):
        for name, value in _items("offset_logs", spec.offset_logs, "config names"):
            if not isinstance(value, str):
                fail(name, value, "a config name")
    else:
        whole("offset_logs", spec.offset_logs, 0)


def check_noise(noise: Any, known: Known) -> None:
    """``noise``: a bool, a sigma >= 0, or a dict of sigmas >= 0 (``sigma`` also per volume
    type), ``sla_dip_prob`` in [0, 1] and ``sla_dip_range`` (lo, hi) with 0 < lo <= hi <= 1."""
    if noise is None or isinstance(noise, bool):
        return
    if isinstance(noise, numbers.Real):
        number("noise", noise, open_low=False)
        return
    d = keys("noise", noise, NOISE_KEYS)
    sigma = d.get("sigma", 0.0)
    if isinstance(sigma, Mapping):
        for t, s in sigma.items():
            one_of("noise.sigma", t, known.volume_types, "volume type")
            number(f"noise.sigma[{t!r}]", s, open_low=False)
    else:
        number("noise.sigma", sigma, open_low=False)
    for k in ("instance_sigma", "volume_sigma", "within_run_cv"):
        number(f"noise.{k}", d.get(k, 0.0), open_low=False)
    fraction("noise.sla_dip_prob", d.get("sla_dip_prob", 0.0))
    lo_hi = d.get("sla_dip_range", (0.5, 0.9))
    ok = isinstance(lo_hi, Sequence) and len(lo_hi) == 2
    if not ok or not all(isinstance(x, numbers.Real) for x in lo_hi) \
            or not 0 < lo_hi[0] <= lo_hi[1] <= 1:
        fail("noise.sla_dip_range", lo_hi, "a pair (lo, hi) with 0 < lo <= hi <= 1")


def check_effects(spec: Any) -> None:
    """``first_write``, ``two_bands``, ``slow_member``, ``drift``, ``burst_duty``."""
    if spec.first_write is not None:
        number("first_write", spec.first_write, open_low=False)
    if spec.two_bands:
        b = keys("two_bands", spec.two_bands, BAND_KEYS)
        fraction("two_bands.p", b.get("p", 0.3))
        number("two_bands.ratio", b.get("ratio", 0.7), high=1.0)
        one_of("two_bands.level", b.get("level", "run"), BAND_LEVELS, "band level")
    if spec.slow_member:
        check_slow_member(spec.slow_member)
    if spec.drift:
        d = keys("drift", spec.drift, DRIFT_KEYS)
        for k in ("weekday_amplitude", "hour_amplitude"):
            a = d.get(k)
            if a is not None and not (isinstance(a, numbers.Real) and not isinstance(a, bool)
                                      and -1 < a < 1):
                fail(f"drift.{k}", a, "a number between -1 and 1 (exclusive)")
    if spec.burst_duty is not None:
        pair = tuple(spec.burst_duty) if isinstance(spec.burst_duty, Sequence) else ()
        if len(pair) != 2:
            fail("burst_duty", spec.burst_duty, "a pair (phase_s, period_s)")
        number("burst_duty[1]", pair[1])
        number("burst_duty[0]", pair[0], high=pair[1])


def check_slow_member(slow: Any) -> None:
    """``{"factor": (0, 1], "every_days": > 0}`` or ``{"factor", "schedule": [(day or ISO
    time, member index), ...]}``."""
    s = keys("slow_member", slow, SLOW_KEYS)
    number("slow_member.factor", s.get("factor", 0.7), high=1.0)
    number("slow_member.every_days", s.get("every_days", 7))
    for name, item in _items("slow_member.schedule", s.get("schedule") or [], "(day, member)"):
        start, member = _schedule_item(item)
        if isinstance(start, str):
            try:
                pd.Timestamp(start)
            except ValueError:
                fail(f"{name} start", start, "a day offset or an ISO timestamp")
        else:
            number(f"{name} start", start, low=-math.inf)
        whole(f"{name} member", member, 0)


def check_raid_set(value: Any, volume_names: list[str], raid_names: list[str]) -> None:
    """``slow_member.raid_set`` names one of the RAID sets (a single volume's config has no
    members to slow).

    >>> check_raid_set("gp3-100g", ["gp3-100g"], ["raid0-4xgp3-50g"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: slow_member.raid_set must name a RAID set (raid0-4xgp3-50g), not 'gp3-100g': ...
    """
    if value in volume_names:
        raise ValueError(f"slow_member.raid_set must name a RAID set ({', '.join(raid_names)}), "
                         f"not {value!r}: that config is a single volume")
    one_of("slow_member.raid_set", value, raid_names, "RAID set")


def _schedule_item(item: Any) -> tuple[Any, Any]:
    """(start, member) of a ``slow_member.schedule`` entry: a pair or ``{"start", "member"}``."""
    if isinstance(item, Mapping):
        return item.get("start"), item.get("member")
    if isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 2:
        return item[0], item[1]
    return None, None


def check_names(spec: Any, raids: list[Mapping[str, Any]], known: Known) -> None:
    """Config names that parameters refer to (``offset_logs``, ``slow_member.raid_set``) exist,
    ``slow_member`` has a RAID set to act on, and ``slow_member.schedule``'s member indices are
    below the RAID sets' member counts."""
    volume_names, raid_names = known.config_names(spec.volume_types, spec.raid)
    names = volume_names + raid_names
    if not isinstance(spec.offset_logs, numbers.Integral):
        for name, value in _items("offset_logs", spec.offset_logs, "config names"):
            one_of(name, value, names, "config")
    if not spec.slow_member:
        return
    if not raid_names:
        raise ValueError("slow_member needs a RAID set and the spec has none: give raid too, "
                         "e.g. raid={'level': 'raid0', 'members': 4, 'volume_type': 'gp3', "
                         "'size_gib': 50} (--raid raid0:4:gp3:50 on the command line)")
    if spec.slow_member.get("raid_set"):
        check_raid_set(spec.slow_member["raid_set"], volume_names, raid_names)
    fewest = min((int(r.get("members", 4)) for r in raids), default=None)
    for name, item in _items("slow_member.schedule", spec.slow_member.get("schedule") or [],
                             "(day, member)"):
        member = _schedule_item(item)[1]
        if fewest is not None and member >= fewest:
            fail(f"{name} member", member, f"a member index below {fewest}")
