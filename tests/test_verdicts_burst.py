"""burst_check on a series of runs (one 60 s IOPS phase every 384 s) and label_burst's
contradiction flag: shaped like the gp2 campaign whose depletion was mislocated."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ebsstats.stats.burst import burst_check, burst_model, label_burst

PHASE, PERIOD, DEMAND, BASE = 60.0, 384.0, 3000.0, 100.0  # gp2 20 GiB: baseline 100 IOPS


def _duty_cycled_series():
    """Hand-run token bucket: 5.4 M credits, drain 2,900/s in a phase, refill 100/s between."""
    credits, t, rows, dry = 5.4e6, 0.0, [], None
    while t < 24_000:
        burst_s = min(PHASE, credits / (DEMAND - BASE))
        if burst_s < PHASE and dry is None:
            dry = t + burst_s
        credits = max(0.0, credits - burst_s * (DEMAND - BASE)) + 0.0
        level = (burst_s * DEMAND + (PHASE - burst_s) * BASE) / PHASE
        rows.append({"t": t, "value": level})
        credits = min(5.4e6, credits + (PERIOD - PHASE) * BASE)
        t += PERIOD
    ts = pd.DataFrame(rows).assign(run_id="campaign", op="read", metric="iops",
                                   volume_type="gp2", size_gib=20.0, phase_s=PHASE)
    return ts, dry


def test_depletion_edge_at_run_resolution_and_duty_cycle_demand():
    ts, dry = _duty_cycled_series()
    r = burst_check(ts, as_of="2024-01-01", duty_cycle=PHASE / PERIOD).iloc[0]
    # the dry moment lies inside the run sampled at t_edge; the edge is placed half a local
    # spacing before it
    assert abs(r["observed_depletion_s"] - dry) <= PERIOD
    avg = burst_model("gp2", 20, iops=DEMAND * PHASE / PERIOD, as_of="2024-01-01")
    assert r["predicted_depletion_s"] == pytest.approx(float(avg["depletion_s"].iloc[0]))
    assert abs(r["depletion_rel_error"]) < 0.03
    # the runs' own phases give the same duty cycle
    p = burst_check(ts, as_of="2024-01-01", phase="phase_s").iloc[0]
    assert p["duty_cycle"] == pytest.approx(PHASE / PERIOD, rel=0.01)
    assert abs(p["depletion_rel_error"]) < 0.03


def test_sparse_series_without_demand_reports_no_model_error():
    ts, _ = _duty_cycled_series()
    r = burst_check(ts, as_of="2024-01-01").iloc[0]
    assert np.isnan(r["depletion_rel_error"]) and "duty_cycle=" in r["note"]
    assert r["depleted"]


def test_run_at_baseline_with_credits_left_is_a_contradiction():
    t0 = pd.Timestamp("2024-03-01", tz="UTC")
    rows = []
    for i, iops in enumerate([3000.0, 91.0]):
        for metric, v in (("iops", iops), ("runtime", 60.0)):
            rows.append({"run_id": f"r{i}", "metric": metric, "op": "read", "value": v,
                         "block_size": 1 << 20, "timestamp": t0 + pd.Timedelta(hours=i),
                         "volume": "v", "volume_type": "gp2", "size_gib": 33.0})
    out = label_burst(pd.DataFrame(rows))
    r1 = out[out.run_id == "r1"].iloc[0]
    assert r1["credits_start"] > 0.5
    assert r1["burst_contradiction"] and r1["burst_state"] != "inside_burst"
    assert not out.loc[out.run_id == "r0", "burst_contradiction"].any()


def test_simulator_messiness_options():
    from ebsstats.simulate.model import campaign_frame

    f = campaign_frame(1, weeks=2, volume_types=["gp2"], tools=("fio",),
                       fio_jobs=("randread-4k",), offset_logs=0, day_runs=(1, 23),
                       fresh_volume_per_run=True, burst=True, burst_duty=(60, 384))
    runs = f[(f.stage == "run") & (f.metric == "iops")]
    per_day = runs.groupby(runs.timestamp.dt.floor("D")).size()
    assert per_day.min() >= 1 and per_day.max() <= 23 and per_day.max() > 2 * per_day.min()
    assert runs["volume"].nunique() == len(runs)  # one fresh volume per run
    duty = f[(f.stage == "burst_duty") & (f.metric == "iops")].sort_values("start")
    assert len(duty) > 20
    gaps = duty["start"].diff().dt.total_seconds().dropna()
    assert (gaps == 384).all()
    # the bucket ran dry: after it, a phase gets only what 324 s of idle earned (~1,900 IOPS)
    assert duty["value"].iloc[0] > 1.3 * duty["value"].iloc[-1]
