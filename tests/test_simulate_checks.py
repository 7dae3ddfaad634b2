"""The simulator checks its parameters itself (``ebsstats.simulate.checks``, run when a ``Spec``
is made): ``simulate``, ``campaign``, ``campaign_frame`` and ``ebsstats simulate`` refuse a bad
value with one ``ValueError`` line naming the parameter, the value and what is allowed, before
anything is computed or written. (Until then only the command line checked ``--weeks`` and
``--raid``: the library ran ``weeks=0``, a RAID set of one member or a negative size, and a RAID
set of an unknown volume type was a bare ``KeyError``.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ebsstats.simulate import campaign_frame, simulate
from ebsstats.simulate.model import VOLUME_TYPES, Spec
from tests.conftest import run_cli

KNOWN_TYPES = ", ".join(VOLUME_TYPES)
BAD: list[tuple[dict[str, Any], str]] = [
    # counts: whole numbers
    ({"weeks": 0}, "weeks must be a whole number, at least 1, not 0"),
    ({"weeks": -2}, "weeks must be a whole number, at least 1, not -2"),
    ({"weeks": 1.5}, "weeks must be a whole number, at least 1, not 1.5"),
    ({"weeks": True}, "weeks must be a whole number, at least 1, not True"),
    ({"seed": -1}, "seed must be a whole number, at least 0, not -1"),
    ({"seed": 2.5}, "seed must be a whole number, at least 0, not 2.5"),
    ({"runs_per_day": 0}, "runs_per_day must be a finite number > 0 and at most 8, not 0"),
    ({"runs_per_day": 9}, "runs_per_day must be a finite number > 0 and at most 8, not 9"),
    ({"runs_per_day": float("nan")}, "runs_per_day must be a finite number > 0"),
    ({"day_runs": (3, 2)}, "day_runs[1] must be a whole number, at least 3, not 2"),
    ({"day_runs": (-1, 2)}, "day_runs[0] must be a whole number, at least 0, not -1"),
    ({"pts_runs": -1}, "pts_runs must be a whole number, at least 0, not -1"),
    ({"fio_runtime": 0}, "fio_runtime must be a whole number, at least 1, not 0"),
    ({"sysbench_time": 2.5}, "sysbench_time must be a whole number, at least 1, not 2.5"),
    ({"offset_logs": -1}, "offset_logs must be a whole number, at least 0, not -1"),
    ({"start": "bogus"}, "start must be a date or timestamp such as '2024-03-04', not 'bogus'"),
    # volumes
    ({"volume_types": ["gp9"]}, f"unknown volume type 'gp9' in volume_types[0]; known: "
                                f"{KNOWN_TYPES}"),
    ({"volume_types": "gp3"}, "volume_types must be a list of volume type names or dicts, "
                              "not 'gp3'"),
    ({"volume_types": [{"type": "gp3", "size_gib": -5}]},
     "volume_types[0].size_gib must be a finite number > 0, not -5"),
    ({"volume_types": ["gp2", {"type": "io1", "size_gib": 0}]},
     "volume_types[1].size_gib must be a finite number > 0, not 0"),
    ({"volume_types": [{"type": "io1", "iops": -100}]},
     "volume_types[0].iops must be a finite number > 0, not -100"),
    ({"volume_types": [{"type": "gp3", "size": 20}]},
     "volume_types[0] has unknown key(s) size; known: type, volume_type, size_gib"),
    ({"volume_types": []}, "volume_types and raid are both empty"),
    # RAID sets (the command line's rules: raid0 or raid10, at least 2 members, a known type,
    # a size > 0; and at most 11 members: one device letter each, /dev/xvdf..xvdp)
    ({"raid": {"members": 1}}, "raid.members must be a whole number from 2 to 11, not 1"),
    ({"raid": {"members": 12}}, "raid.members must be a whole number from 2 to 11, not 12"),
    ({"raid": {"members": 2.0}}, "raid.members must be a whole number from 2 to 11, not 2.0"),
    ({"raid": [{"level": "raid0"}, {"members": 1}]},
     "raid[1].members must be a whole number from 2 to 11, not 1"),
    ({"raid": {"level": "raid10", "members": 3}},
     "raid.members must be an even number for raid10, not 3"),
    ({"raid": {"level": "raid5"}}, "unknown RAID level 'raid5' in raid.level; known: raid0, "
                                   "raid10"),
    ({"raid": {"volume_type": "gp4"}},
     f"unknown volume type 'gp4' in raid.volume_type; known: {KNOWN_TYPES}"),
    ({"raid": {"size_gib": -50}}, "raid.size_gib must be a finite number > 0, not -50"),
    ({"raid": {"members": 2, "speed_factors": [1.0]}},
     "raid.speed_factors must be one factor per member (2), not [1.0]"),
    ({"raid": {"members": 2, "speed_factors": [1.0, -0.5]}},
     "raid.speed_factors[1] must be a finite number > 0, not -0.5"),
    # probabilities, fractions and factors
    ({"two_bands": {"p": 1.5}}, "two_bands.p must be a number between 0 and 1, not 1.5"),
    ({"two_bands": {"p": -0.1}}, "two_bands.p must be a number between 0 and 1, not -0.1"),
    ({"two_bands": {"ratio": 0}}, "two_bands.ratio must be a finite number > 0 and at most 1"),
    ({"two_bands": {"level": "host"}},
     "unknown band level 'host' in two_bands.level; known: run, instance"),
    ({"noise": {"sla_dip_prob": 2}}, "noise.sla_dip_prob must be a number between 0 and 1, not 2"),
    ({"noise": {"sla_dip_range": [0.9, 0.5]}},
     "noise.sla_dip_range must be a pair (lo, hi) with 0 < lo <= hi <= 1, not [0.9, 0.5]"),
    ({"noise": -0.1}, "noise must be a finite number >= 0, not -0.1"),
    ({"noise": {"sigma": {"gp3": -1}}}, "noise.sigma['gp3'] must be a finite number >= 0"),
    ({"noise": {"sigam": 0.1}}, "noise has unknown key(s) sigam; known: on, sigma"),
    ({"raid": {"members": 2}, "slow_member": {"factor": 1.5}},
     "slow_member.factor must be a finite number > 0 and at most 1, not 1.5"),
    ({"raid": {"members": 2}, "slow_member": {"every_days": 0}},
     "slow_member.every_days must be a finite number > 0, not 0"),
    ({"raid": {"members": 2}, "slow_member": {"schedule": [(0, 2)]}},
     "slow_member.schedule[0] member must be a member index below 2, not 2"),
    # a slow member needs a RAID set (it was ignored without a word: no m_slow, no truth entry)
    ({"slow_member": {"factor": 0.7}}, "slow_member needs a RAID set and the spec has none: "
                                       "give raid too, e.g. raid={'level': 'raid0', "),
    ({"raid": [], "slow_member": {"factor": 0.7, "every_days": 3}},
     "(--raid raid0:4:gp3:50 on the command line)"),
    ({"raid": {"members": 2}, "slow_member": {"raid_set": "gp3-100g"}},
     "slow_member.raid_set must name a RAID set (raid0-2xgp3-100g), not 'gp3-100g': that "
     "config is a single volume"),
    ({"raid": {"members": 2}, "slow_member": {"raid_set": "raid0-2xgp3-100g-member0"}},
     "unknown RAID set 'raid0-2xgp3-100g-member0' in slow_member.raid_set; known: "
     "raid0-2xgp3-100g"),
    ({"first_write": -5}, "first_write must be a finite number >= 0, not -5"),
    ({"drift": {"weekday_amplitude": 1.2}},
     "drift.weekday_amplitude must be a number between -1 and 1 (exclusive), not 1.2"),
    ({"drift": {"tz": "UTC"}}, "drift has unknown key(s) tz"),
    ({"drift": {"weekday": [1.0] * 6 + [float("nan")]}},
     "drift needs 7 positive weekday and 24 positive hour multipliers"),
    ({"burst_duty": (400, 384)}, "burst_duty[0] must be a finite number > 0 and at most 384"),
    # names
    ({"tools": ("fio", "dd")}, "unknown tool 'dd' in tools[1]; known: fio, bonnie++, sysbench"),
    ({"sysbench_modes": ("rndrw",)}, "unknown sysbench mode 'rndrw' in sysbench_modes[0]"),
    ({"fio_jobs": ("randread-8k",)}, "unknown fio job 'randread-8k' in fio_jobs[0]"),
    ({"bonnie_version": "1.97"}, "unknown bonnie++ version '1.97' in bonnie_version; known: "
                                 "2.00a, 1.96"),
    ({"offset_logs": ["gp3-100"]}, "unknown config 'gp3-100' in offset_logs[0]; known: "),
]


@pytest.mark.parametrize("params, said", BAD, ids=[str(p) for p, _ in BAD])
def test_the_library_refuses_a_bad_parameter_in_one_line(params, said):
    with pytest.raises(ValueError, match=re.escape(said)) as err:
        campaign_frame(**{"weeks": 1, "volume_types": ["gp3"], "tools": ("fio",), **params})
    assert "\n" not in str(err.value)


def test_simulate_checks_before_it_writes(tmp_path):
    """``weeks=0`` wrote a campaign of no runs; a bad ``bonnie_version`` failed in the writer,
    half the files written."""
    for params in ({"weeks": 0}, {"bonnie_version": "1.97", "tools": ("bonnie++",)},
                   {"raid": {"members": 2, "volume_type": "gp4"}},
                   {"slow_member": {"factor": 0.7}}):
        out = tmp_path / "c"
        with pytest.raises(ValueError):
            simulate(out, **{"weeks": 1, "volume_types": ["gp3"], **params})
        assert not out.exists(), params


def test_a_spec_made_directly_is_checked():
    with pytest.raises(ValueError, match=re.escape("raid.members must be a whole number from 2 "
                                                   "to 11, not 1")):
        Spec(raid={"level": "raid0", "members": 1, "volume_type": "gp3", "size_gib": 50})


@pytest.mark.parametrize("params", [
    {"weeks": np.int64(1), "seed": np.int64(3)}, {"runs_per_day": 8}, {"runs_per_day": 0.5},
    {"raid": {"level": "raid10", "members": 2}}, {"raid": {"members": 11}, "volume_types": []},
    {"two_bands": {"p": 0.0}}, {"two_bands": {"p": 1.0, "ratio": 1.0, "level": "instance"}},
    {"noise": 0}, {"noise": False}, {"noise": {"sigma": 0.0, "sla_dip_prob": 1.0}},
    {"first_write": 0}, {"first_write": None}, {"day_runs": (0, 1)}, {"offset_logs": 0},
    {"offset_logs": ["gp3-100g"]}, {"drift": {"weekday_amplitude": -0.5}},
    {"raid": {"members": 2}, "slow_member": {"factor": 1.0, "schedule": [(0, 1)]}},
    {"raid": {"members": 2}, "slow_member": {"raid_set": "raid0-2xgp3-100g"}},
    {"raid": {"members": 2}, "slow_member": {}},  # (empty: no slow member, as None)
])
def test_edge_values_are_still_allowed(params):
    f = campaign_frame(**{"weeks": 1, "volume_types": ["gp3"], "tools": ("fio",),
                          "fio_jobs": ("randread-4k",), **params})
    assert len(f) > 0


# the command line: the library's message, one line, exit 2, nothing written ----------------

@pytest.mark.parametrize("args, said", [
    (["--weeks", "0"], "weeks must be a whole number, at least 1, not 0"),
    (["--raid", "raid0:1:gp3:50"], "raid.members must be a whole number from 2 to 11, not 1"),
    (["--raid", "raid0:12:gp3:50"], "raid.members must be a whole number from 2 to 11, not 12"),
    (["--raid", "raid10:3:gp3:50"], "raid.members must be an even number for raid10, not 3"),
    (["--raid", "raid5:4:gp3:50"], "unknown RAID level 'raid5' in raid.level; known: raid0, "
                                   "raid10"),
    (["--raid", "raid0:4:gp4:50"], "unknown volume type 'gp4' in raid.volume_type; known: "
                                   f"{KNOWN_TYPES}"),
    (["--raid", "raid0:4:gp3:0"], "raid.size_gib must be a finite number > 0, not 0.0"),
    (["--two-bands", "1.5", "0.7"], "two_bands.p must be a number between 0 and 1, not 1.5"),
    (["--runs-per-day", "0"], "runs_per_day must be a finite number > 0 and at most 8, not 0.0"),
    (["--noise", "-1"], "noise must be a finite number >= 0, not -1.0"),
    (["--seed", "-1"], "seed must be a whole number, at least 0, not -1"),
    (["--slow-member", "0.7"], "slow_member needs a RAID set and the spec has none: give raid "
                               "too, e.g. raid={'level': 'raid0', 'members': 4, 'volume_type': "
                               "'gp3', 'size_gib': 50} (--raid raid0:4:gp3:50 on the command "
                               "line)"),
])
def test_the_command_says_the_library_s_message(tmp_path: Path, args, said):
    proc = run_cli("simulate", "-o", str(tmp_path / "c"), *args)
    assert (proc.returncode, proc.stderr) == (2, f"ebsstats simulate: {said}\n")
    assert not (tmp_path / "c").exists()
