"""Simulated benchmark campaigns with known, injected effects (clearly SYNTHETIC).

:func:`simulate` writes a campaign as genuine tool outputs (fio 3.33 JSON and logs, bonnie++
CSV, sysbench 1.0.20 text, PTS composite.xml) with ``meta.yaml`` sidecars and a ``truth.yaml``
that lists every injected effect and parameter; :func:`ebsstats.simulate.model.campaign_frame`
gives the same ground-truth values in memory, without files. The performance model, its default
magnitudes and their sources are documented in :mod:`ebsstats.simulate.model`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ebsstats.simulate.model import GENERATOR_VERSION, PRESETS, campaign, campaign_frame

__all__ = ["GENERATOR_VERSION", "PRESETS", "campaign", "campaign_frame", "simulate"]


def simulate(
    out_dir: str | os.PathLike,
    *,
    seed: int = 0,
    preset: str | None = None,
    weeks: int | None = None,
    runs_per_day: float | None = None,
    start: str | None = None,
    volume_types: Sequence[Any] | None = None,
    raid: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    drift: Mapping[str, Any] | None = None,
    first_write: float | None = None,
    slow_member: Mapping[str, Any] | None = None,
    two_bands: Mapping[str, Any] | None = None,
    burst: bool | None = None,
    noise: bool | float | Mapping[str, Any] | None = None,
    tools: Sequence[str] | None = None,
    **options: Any,
) -> Path:
    """Write a simulated benchmark campaign to ``out_dir`` and return the path.

    Every effect is off by default except run-to-run noise; ``preset="bundled"`` switches on
    the combination used for ``data/campaign/``. ``None`` means "the default (or the preset's)".

    Parameters
    ----------
    out_dir : path
        Folder to write (created).
    seed : int
        Seed of every random draw; the same seed gives a byte-identical tree.
    preset : {"bundled"}, optional
        Named parameter set; explicit arguments override it.
    weeks : int
        Campaign length (default 4), starting ``start`` (default 2024-03-04, a Monday, UTC).
    runs_per_day : float
        Regular run slots per configuration and day, at random hours (default 1).
    volume_types : sequence
        Volume types as names (``standard``, ``gp2``, ``gp3``, ``io1``, ``io2``, ``st1``,
        ``sc1``, ``instance-store``) or dicts ``{"type", "size_gib", "iops",
        "throughput_mibs", "speed", "name"}``; default standard, gp2, gp3, io1 with the sizes in
        :data:`ebsstats.simulate.model.VOLUME_DEFAULTS`.
    raid : dict or list of dict, optional
        Software RAID sets: ``{"level": "raid0"|"raid10", "members": 4, "volume_type": "gp3",
        "size_gib": 50, "speed_factors": [...]}``. Array throughput = N × the slowest member
        (RAID 10 writes: N/2 ×); with ``member_runs`` (default True) fio also runs on each member.
    drift : dict, optional
        Calendar effects: ``weekday`` (7 multipliers, Mon..Sun) and ``hour`` (24), in the
        local time of ``tz`` (default ``"America/New_York"``, the zone of the default region
        us-east-1, as :func:`ebsstats.drift_test` reads a frame's ``region``), or
        ``weekday_amplitude`` / ``hour_amplitude`` (see
        :func:`ebsstats.simulate.model.calendar_multipliers`); normalised to geometric mean 1.
    first_write : float, optional
        First-touch penalty factor (e.g. 5.0): pass 0 on a fresh volume is that much slower per
        untouched block; fio first-write jobs with ``log_offset=1`` logs show it per offset.
    slow_member : dict, optional
        ``{"factor": 0.7, "every_days": 7}`` or ``{"factor": ..., "schedule": [(day, member),
        ...]}`` (day offsets from ``start`` or ISO timestamps): one RAID member runs at
        ``factor`` and which one changes at the given times.
    two_bands : dict, optional
        ``{"p": 0.3, "ratio": 0.7, "level": "run"|"instance"}`` — a slow performance band.
    burst : bool
        gp2 I/O-credit and st1/sc1 throughput buckets (start full, deplete, refill); with
        ``burst_runs`` a long logged fio run per bucket volume shows the depletion. Off: gp2 and
        st1/sc1 deliver their baseline.
    noise : bool, float or dict
        Run-to-run lognormal noise (on by default), instance and volume random effects and
        service-level dips; ``False`` switches all off; a float sets every sigma; a dict
        overrides ``sigma`` (per type), ``instance_sigma``, ``volume_sigma``, ``sla_dip_prob``.
    tools : sequence of str
        Subset of ``("fio", "bonnie++", "sysbench", "pts")``.
    **options
        Further :class:`ebsstats.simulate.model.Spec` fields: ``bonnie_version`` ("2.00a" or
        "1.96"), ``fio_runtime``, ``sysbench_time``, ``sysbench_modes``, ``offset_logs`` (number
        of configs, or names, that get per-offset first-write logs), ``burst_runs``,
        ``member_runs``, ``pts_runs``, ``instance_type``, ``region``, ``tz`` (the IANA zone
        of the campaign's days and calendar effects: set it with ``region``).

    Returns
    -------
    pathlib.Path
        ``out_dir``.

    Raises
    ------
    ValueError
        For a bad parameter, before anything is written: one line naming the parameter, its
        value and what is allowed (:mod:`ebsstats.simulate.checks`).

    Notes
    -----
    Model, default magnitudes and sources: :mod:`ebsstats.simulate.model`. Everything written
    is labelled synthetic (``synthetic: true`` in the root ``meta.yaml``, README.md and
    truth.yaml).

    Examples
    --------
    >>> import tempfile, ebsstats.simulate as sim
    >>> d = sim.simulate(tempfile.mkdtemp(), seed=1, weeks=1, volume_types=["gp3"],
    ...                  tools=("fio",))
    >>> (d / "truth.yaml").exists()
    True
    """
    from ebsstats.simulate.writers import write_campaign

    params = {"weeks": weeks, "runs_per_day": runs_per_day, "start": start,
              "volume_types": volume_types, "raid": raid, "drift": drift,
              "first_write": first_write, "slow_member": slow_member, "two_bands": two_bands,
              "burst": burst, "noise": noise, "tools": tools}
    params = {k: v for k, v in params.items() if v is not None}
    camp = campaign(seed, preset=preset, **params, **options)
    return write_campaign(camp, out_dir)
