"""Tests of ebsstats.stats.burst: the AWS-documented numbers, observed vs predicted, run labels."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.stats.burst import burst_check, burst_model, label_burst


def test_gp2_documented_examples():
    # AWS EBS guide: 100 GiB -> 300 IOPS baseline, 2,000 s of burst at 3,000 IOPS, 18,000 s
    # to refill; 500 GiB -> 5.4e6 / (3000 - 1500) = 3,600 s; >= 1 TiB never bursts
    m = burst_model("gp2", 100, as_of="2019-01-01").iloc[0]
    assert (m["baseline"], m["burst_level"], m["depletion_s"], m["refill_s"]) == (
        300.0, 3000.0, 2000.0, 18000.0)
    assert burst_model("gp2", 500, as_of="2019-01-01")["depletion_s"].iloc[0] == 3600.0
    big = burst_model("gp2", 1024, as_of="2019-01-01").iloc[0]
    assert not big["bursts"] and np.isinf(big["depletion_s"])


def test_gp2_workload_and_io_units():
    # demand below the burst: 1,000 IOPS of 16 KiB on 100 GiB: 5.4e6 / (1000 - 300) s
    m = burst_model("gp2", 100, iops=1000, block_size=16384, as_of="2019-01-01").iloc[0]
    assert m["depletion_s"] == pytest.approx(5.4e6 / 700)
    assert m["plateau_iops"] == 300.0
    # 1 MiB I/Os count 4 credits: 500 IOPS = 2,000 credits/s; throughput cap 128 MiB/s ->
    # at most 128 IOPS of 1 MiB = 512 credits/s
    m = burst_model("gp2", 100, iops=500, block_size=2**20, as_of="2019-01-01").iloc[0]
    assert m["burst_iops"] == pytest.approx(128.0)
    assert m["depletion_s"] == pytest.approx(5.4e6 / (512 - 300))
    # a workload under the baseline never drains the bucket
    assert np.isinf(burst_model("gp2", 100, iops=200, as_of="2019-01-01")["depletion_s"][0])


def test_st1_sc1_throughput_buckets():
    # st1 500 GiB: baseline 40 MiB/s/TiB -> 19.53 MiB/s, burst 250 -> 122.07 MiB/s,
    # bucket 500 GiB; truth.yaml of data/campaign: predicted_depletion_s 4993.219
    m = burst_model("st1", 500, as_of="2024-01-01").iloc[0]
    assert m["depletion_s"] == pytest.approx(4993.219047619)
    assert m["plateau_throughput"] == pytest.approx(19.53125 * 2**20)
    m = burst_model("sc1", 500, as_of="2024-01-01").iloc[0]
    assert m["depletion_s"] == pytest.approx(15420.235294118)
    assert not burst_model("gp3", 100, as_of="2024-01-01")["bursts"].iloc[0]


def test_burst_check_on_bundled_campaign():
    # the burst folder alone lacks the config's meta.yaml: give type and size as metadata
    ts = es.read_series("data/campaign/gp2-20g/burst", volume_type="gp2", size_gib=20.0)
    r = burst_check(ts).iloc[0]
    # truth.yaml: credits 5.4e6, burst 3000, baseline 100 -> 1862.07 s
    assert r["predicted_depletion_s"] == pytest.approx(1862.068965517)
    assert abs(r["depletion_rel_error"]) <= 0.10
    assert r["predicted_plateau"] == 100.0 and abs(r["plateau_rel_error"]) < 0.10


def test_burst_check_within_10_percent_on_simulated_runs():
    from ebsstats.simulate.model import campaign
    errs = []
    for seed, size in enumerate([20, 100, 500]):
        camp = campaign(seed, weeks=1, volume_types=[{"type": "gp2", "size_gib": size}, "st1"],
                        tools=("fio",), burst=True, offset_logs=0)
        s = camp.series
        for cfg, g in s.groupby("config"):
            vt, metric, mult = ("gp2", "iops", 1.0) if cfg.startswith("gp2") else (
                "st1", "bandwidth", 2.0**20)
            sz = size if vt == "gp2" else 500.0
            ts = pd.DataFrame({"run_id": cfg, "op": "read", "metric": metric, "t": g["t_s"],
                               "value": g["iops"] * mult, "volume_type": vt, "size_gib": sz})
            errs.append(burst_check(ts, as_of="2024-03-01")["depletion_rel_error"].iloc[0])
    assert np.all(np.abs(errs) <= 0.10)


def _frame():
    t0 = pd.Timestamp("2024-03-01 00:00", tz="UTC")
    rows = []
    # gp2 100 GiB: run A 3000 IOPS x 1000 s (drain 2700/s -> 2.7e6 left), run B right after
    # 3000 IOPS x 2000 s (runs dry after 1000 s), run C 10 h later: refilled 300 x 36000 s
    def run(rid, t, iops, secs):
        for metric, v in (("iops", iops), ("runtime", secs)):
            rows.append({"run_id": rid, "metric": metric, "op": "read", "value": v,
                         "block_size": 16384, "timestamp": t, "volume": "v",
                         "volume_type": "gp2", "size_gib": 100.0})
    run("A", t0, 3000.0, 1000.0)
    run("B", t0 + pd.Timedelta(seconds=1000), 3000.0, 2000.0)
    run("C", t0 + pd.Timedelta(hours=10), 3000.0, 60.0)
    run("D", t0 + pd.Timedelta(hours=11), 250.0, 60.0)
    return pd.DataFrame(rows)


def test_label_burst_runs_the_bucket():
    lab = label_burst(_frame()).drop_duplicates("run_id").set_index("run_id")
    assert lab.loc["A", "burst_state"] == "inside_burst" and lab.loc["A", "credits_start"] == 1.0
    assert lab.loc["B", "burst_state"] == "depleted"
    assert lab.loc["B", "credits_start"] == pytest.approx(2.7e6 / 5.4e6)
    assert lab.loc["B", "burst_depletion_s"] == pytest.approx(1000.0)
    # C: empty at 3000 s, refilled 300/s for 33000 s -> capped at the full bucket
    assert lab.loc["C", "burst_state"] == "inside_burst"
    assert lab.loc["D", "burst_state"] == "baseline"   # 250 IOPS < 300 baseline


def test_label_burst_other_types_and_missing():
    f = _frame().assign(volume_type="gp3")
    assert set(label_burst(f)["burst_state"]) == {"no_bucket"}
    f = _frame().drop(columns="size_gib")
    assert set(label_burst(f)["burst_state"]) == {"unknown"}
    assert es.label_burst is label_burst and es.burst_model is burst_model


def test_label_burst_bundled_burst_run_is_depleted():
    df = es.read("data/campaign/gp2-20g/burst", meta={"volume_type": "gp2", "size_gib": 20.0})
    lab = label_burst(df)
    assert set(lab["burst_state"]) == {"depleted"}
