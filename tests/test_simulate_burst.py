"""Duty-cycled burst sampling (``burst_duty=(phase_s, period_s)``) written to files and read back.

Until now only the in-memory frame (``campaign_frame``) had it: ``simulate`` sent the short runs
to the writer of the long burst run, which needs the window of its averaged logs
(``KeyError: 'log_avg_msec'``). Each short run is now a plain fio JSON of one job in
``<config>/burst-duty/<timestamp>/`` (a folder of its own: one may start in the very second of
a regular run, whose ``runs/<timestamp>/fio.json`` it would have overwritten).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import ebsstats
from ebsstats.simulate import campaign_frame, simulate
from ebsstats.simulate.model import GP2_BUCKET

PHASE, PERIOD = 60, 384
DUTY = {"weeks": 1, "volume_types": [{"type": "gp2", "size_gib": 20}, "st1"],
        "tools": ("fio",), "fio_jobs": ("randread-4k",), "burst": True,
        "burst_duty": (PHASE, PERIOD)}
#: runs until twice the bucket's depletion under the duty-cycled demand (gp2 20 GiB: 3,000
#: IOPS a sixth of the time against 100 earned, 2 x 5.4 M / 368.75 s) or 6 h where it does not
#: deplete (st1 500 GiB: 122 MiB/s a sixth of the time is below its 19.5 MiB/s baseline)
RUNS = {"gp2-20g": int(2 * GP2_BUCKET / (3000 * PHASE / PERIOD - 100) // PERIOD) + 1,
        "st1-500g": int(6 * 3600 // PERIOD) + 1}
METRICS = ("iops", "bandwidth", "lat_mean", "clat_p99")


def _close(a: float, b: float, rtol: float = 2e-3) -> bool:
    """The tolerance of the fio round trips of tests/test_simulate.py."""
    return abs(a - b) <= rtol * abs(b)


@pytest.fixture(scope="module")
def duty(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame, pd.DataFrame]:
    d = simulate(tmp_path_factory.mktemp("duty"), seed=5, **DUTY)
    truth = campaign_frame(seed=5, **DUTY)
    return d, ebsstats.read(d), truth[truth["stage"] == "burst_duty"]


def test_burst_duty_runs_are_written_and_read_back(duty) -> None:
    d, df, truth = duty
    ebsstats.validate(df)
    got = df[df["stage"] == "burst_duty"]
    assert got.groupby("config")["source"].nunique().to_dict() == RUNS
    assert truth.groupby("config")["path"].nunique().to_dict() == RUNS
    assert set(got["source"]) == set(truth["path"])
    assert sorted(p.parent.parent.name for p in d.rglob("fio.json")
                  if "burst-duty" in p.parts) == ["burst-duty"] * sum(RUNS.values())
    # short runs in place of the long logged run: no windowed logs, no burst/ folder
    assert not [p for p in d.rglob("*.log") if "burst-duty" in p.parts or "burst" in p.parts]
    # each a one-job fio run of PHASE seconds of the burst workload
    assert set(got["test"]) == {"burst-randread-16k", "burst-read-1m"}
    assert (got.loc[got["metric"] == "runtime", "value"] == PHASE).all()


def test_burst_duty_values_agree_with_the_frame(duty) -> None:
    _, df, truth = duty
    got = df[(df["stage"] == "burst_duty") & df["metric"].isin(METRICS)]
    want = truth[truth["metric"].isin(METRICS)]
    m = want.merge(got, on=["config", "timestamp", "test", "op", "metric"], how="left",
                   suffixes=("_truth", ""), validate="one_to_one")
    assert len(m) == len(want) == 4 * sum(RUNS.values())
    bad = [(r.config, r.timestamp, r.metric, r.value, r.value_truth) for r in m.itertuples()
           if not _close(r.value, r.value_truth)]
    assert not bad, bad[:5]


def test_burst_duty_read_back_shows_the_bucket_deplete(duty) -> None:
    _, df, _ = duty
    gp2 = df[(df["stage"] == "burst_duty") & (df["config"] == "gp2-20g")
             & (df["metric"] == "iops")].sort_values("timestamp")["value"]
    assert gp2.iloc[:5].median() == pytest.approx(3000, rel=0.15)  # bursting (noise on)
    # empty bucket: 324 s of earning at 100/s a period, spent at 2,900/s, then the baseline
    assert gp2.iloc[-5:].median() == pytest.approx((11.2 * 3000 + 48.8 * 100) / 60, rel=0.15)


def test_a_burst_duty_run_in_a_regular_run_s_second_is_kept_apart() -> None:
    """Seed 6 starts a burst_duty run in the second of a regular run of gp2-100g: both had
    ``runs/20240308T041400Z/fio.json``."""
    f = campaign_frame(seed=6, weeks=1, runs_per_day=8, volume_types=["gp2"], tools=("fio",),
                       fio_jobs=("randread-4k",), burst=True, burst_duty=(PHASE, PERIOD),
                       noise=False)
    at = f[f["timestamp"] == pd.Timestamp("2024-03-08T04:14:00Z")]
    assert sorted(at["stage"].unique()) == ["burst_duty", "run"]
    assert f.groupby("path")["stage"].nunique().max() == 1
    assert set(at["path"]) == {"gp2-100g/runs/20240308T041400Z/fio.json",
                               "gp2-100g/burst-duty/20240308T041400Z/fio.json"}
