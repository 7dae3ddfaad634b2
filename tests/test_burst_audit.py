"""Audit fixes of ebsstats.stats.burst: exact bucket in label_burst, any index, the gp2
throughput cap without a block size, credits validation, NaN samples and left-out series in
burst_check. Every expected number is computed by hand in the comments."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.stats.burst import burst_check, burst_model, label_burst

MiB = 2**20


def _runs(n, iops=3000.0, dur=60.0, size=100.0, bs=16384, index=None):
    """n back-to-back runs of ``dur`` s at ``iops`` on one gp2 volume (iops + runtime rows)."""
    rows = []
    t = pd.Timestamp("2024-03-01", tz="UTC")
    for i in range(n):
        base = {"run_id": f"r{i:03d}", "op": "read", "timestamp": t, "volume": "v",
                "volume_type": "gp2", "size_gib": size, "block_size": bs}
        rows += [{**base, "metric": "iops", "value": iops},
                 {**base, "metric": "runtime", "value": dur}]
        t = t + pd.Timedelta(seconds=dur)
    df = pd.DataFrame(rows)
    if index is not None:
        df.index = index
    return df


# --------------------------------------------------------------------------------------------
# 1. label_burst carries the exact bucket


def test_label_burst_keeps_the_last_credits_of_runs_at_the_burst_rate():
    # gp2 100 GiB: baseline 3 x 100 = 300 IOPS, bucket 5.4e6 credits; 3000 IOPS of 16 KiB = 1
    # credit each -> drain 3000 - 300 = 2700 credits/s, 2700 x 60 = 162,000 per 60 s run.
    # run k (0-based) starts with 5.4e6 - 162,000 k:
    #   run 30: 540,000 (10 %) -> ends 378,000;  runs dry after 540,000 / 2700 = 200 s > 60
    #   run 31: 378,000 ( 7 %) -> ends 216,000 (4 %);  378,000 / 2700 = 140 s > 60: inside
    #   run 32: 216,000 ( 4 %) -> ends  54,000 (1 %);  216,000 / 2700 =  80 s > 60: inside
    #   run 33:  54,000 ( 1 %) -> runs dry after 54,000 / 2700 = 20 s < 60: depleted
    #   run 34:       0        -> baseline (an empty bucket), depletion at 0 s
    out = label_burst(_runs(40))
    st = out[out["metric"] == "iops"].set_index("run_id")
    exp = {"r030": ("inside_burst", 0.10, 200.0), "r031": ("inside_burst", 0.07, 140.0),
           "r032": ("inside_burst", 0.04, 80.0), "r033": ("depleted", 0.01, 20.0),
           "r034": ("baseline", 0.0, 0.0)}
    for rid, (state, frac, td) in exp.items():
        assert st.loc[rid, "burst_state"] == state, rid
        assert st.loc[rid, "credits_start"] == pytest.approx(frac, abs=1e-12), rid
        assert st.loc[rid, "burst_depletion_s"] == pytest.approx(td), rid
    # runs 0..32 all stay inside the burst (33 runs), 33 runs dry, 34..39 on the empty bucket
    assert (st["burst_state"] == "inside_burst").sum() == 33
    assert (st["burst_state"] == "baseline").sum() == 6
    assert not st["burst_contradiction"].any()


def test_label_burst_reads_a_mean_below_the_burst_as_a_mixture():
    # gp2 20 GiB: baseline 100 IOPS, burst 3000, bucket 5.4e6. A run of 3360 s with a mean of
    # 1684.14 IOPS (the bundled burst run) would end with 5.4e6 - 1584.14 x 3360 = 77,289
    # credits (1.4 % < 5 %) if its demand were constant; its mean is far below the 3000 burst,
    # so it is read as having run dry at the burst rate: 5.4e6 / (3000 - 100) = 1862.07 s
    # (truth.yaml of the bundled campaign: 1862.07 s), and the bucket is empty after it.
    df = es.read("data/campaign/gp2-20g/burst", meta={"volume_type": "gp2", "size_gib": 20.0})
    lab = label_burst(df)
    assert set(lab["burst_state"]) == {"depleted"}
    assert lab["burst_depletion_s"].iloc[0] == pytest.approx(5.4e6 / 2900)


def test_label_burst_refill_after_a_run_that_kept_credits():
    # 33 back-to-back runs leave 5.4e6 - 33 x 162,000 = 54,000 credits; a 100 s pause earns
    # 300 x 100 = 30,000 -> run 33 starts with 84,000 = 1.5556 % and runs dry after
    # 84,000 / 2700 = 31.11 s (the old code had zeroed the bucket after run 31: 0.5556 %).
    d = _runs(34)
    d.loc[d["run_id"] == "r033", "timestamp"] += pd.Timedelta(seconds=100)
    st = label_burst(d).query("metric == 'iops'").set_index("run_id")
    assert st.loc["r033", "credits_start"] == pytest.approx(84000 / 5.4e6)
    assert st.loc["r033", "burst_state"] == "depleted"
    assert st.loc["r033", "burst_depletion_s"] == pytest.approx(84000 / 2700)


# --------------------------------------------------------------------------------------------
# 2. label_burst on any index


@pytest.mark.parametrize("index", [
    pd.Index(range(10, 16), name="row"),
    pd.Index([0, 0, 1, 1, 2, 2]),
    pd.MultiIndex.from_product([["a", "b", "c"], [1, 2]], names=["x", "y"]),
])
def test_label_burst_any_index(index):
    # 3 back-to-back 60 s runs at 3000 IOPS on gp2 100 GiB: credits_start 1, 1 - 162,000 /
    # 5.4e6 = 0.97, 0.94; all inside the burst
    ref = label_burst(_runs(3))
    out = label_burst(_runs(3, index=index))
    assert out.index.equals(index)
    assert out["burst_state"].tolist() == ["inside_burst"] * 6
    np.testing.assert_allclose(out["credits_start"].to_numpy(), [1, 1, .97, .97, .94, .94])
    np.testing.assert_array_equal(out["credits_start"].to_numpy(),
                                  ref["credits_start"].to_numpy())


# --------------------------------------------------------------------------------------------
# 3. burst_model: throughput cap without block size, credits range


def test_burst_model_caps_a_throughput_demand_without_block_size():
    # gp2 100 GiB (<= 170 GiB): 128 MiB/s cap = 128 MiB / 256 KiB = 512 credits/s; 200 MiB/s
    # asks 800 -> capped at 512; depletion 5.4e6 / (512 - 300) = 25,471.7 s
    a = burst_model("gp2", 100, throughput=200 * MiB, as_of="2024-01-01").iloc[0]
    b = burst_model("gp2", 100, throughput=200 * MiB, block_size=256 * 1024,
                    as_of="2024-01-01").iloc[0]
    assert a["burst_level"] == 512.0 and a["demand"] == 800.0
    assert a["depletion_s"] == pytest.approx(5.4e6 / 212) == b["depletion_s"]
    # below the cap nothing changes: 100 MiB/s = 400 credits/s -> 5.4e6 / 100 = 54,000 s
    c = burst_model("gp2", 100, throughput=100 * MiB, as_of="2024-01-01").iloc[0]
    assert c["burst_level"] == 400.0 and c["depletion_s"] == pytest.approx(54000.0)


def test_burst_model_validates_credits():
    # half a bucket: 2.7e6 / (3000 - 300) = 1000 s; a full one 2000 s; empty: 0 s
    assert burst_model("gp2", 100, credits=2.7e6, as_of="2024-01-01")["depletion_s"][0] == \
        pytest.approx(1000.0)
    assert burst_model("gp2", 100, credits=5.4e6, as_of="2024-01-01")["depletion_s"][0] == \
        pytest.approx(2000.0)
    assert burst_model("gp2", 100, credits=0, as_of="2024-01-01")["depletion_s"][0] == 0.0
    for bad in (1e9, -5, float("nan"), float("inf")):
        with pytest.raises(ValueError, match=r"between 0 and the bucket size 5,400,000"):
            burst_model("gp2", 100, credits=bad, as_of="2024-01-01")
    # st1 500 GiB: bucket 500 GiB = 536,870,912,000 B
    with pytest.raises(ValueError, match=r"536,870,912,000"):
        burst_model("st1", 500, credits=1e12, as_of="2024-01-01")
    # no bucket, nothing to check
    assert not burst_model("gp3", 100, credits=-1, as_of="2024-01-01")["bursts"][0]


# --------------------------------------------------------------------------------------------
# 4. burst_check: NaN samples, left-out series


def _series(run_id="r", **cols):
    # 1 s samples for 4000 s: 3000 IOPS up to t = 2000, 300 after (gp2 100 GiB, 16 KiB)
    t = np.arange(1.0, 4001.0)
    v = np.where(t <= 2000, 3000.0, 300.0)
    return pd.DataFrame({"run_id": run_id, "op": "read", "metric": "iops", "t": t, "value": v,
                         "volume_type": "gp2", "size_gib": 100.0, "block_size": 16384,
                         **cols})


def test_burst_check_ignores_nan_samples():
    # levels over the finite samples: 3000 before the edge, 300 after. The first sample below
    # 0.8 x 3000 is t = 2001, less half a spacing: 2000.5 s; predicted 5.4e6 / 2700 = 2000 s
    # -> error 0.5 / 2000 = 0.00025
    d = _series()
    d.loc[[10, 2500], "value"] = np.nan
    r = burst_check(d, as_of="2024-01-01").iloc[0]
    assert r["observed_burst_level"] == 3000.0 and r["observed_plateau"] == 300.0
    assert r["observed_depletion_s"] == 2000.5
    assert r["depletion_rel_error"] == pytest.approx(0.00025)
    assert r["plateau_rel_error"] == pytest.approx(0.0)   # 300 / 300 - 1
    assert "2 of 4000 samples NaN" in r["note"]


def test_burst_check_series_without_finite_sample_says_so():
    d = pd.concat([_series("good"), _series("empty").assign(value=np.nan)], ignore_index=True)
    r = burst_check(d, as_of="2024-01-01").set_index("run_id")
    assert r.loc["good", "observed_depletion_s"] == 2000.5
    assert np.isnan(r.loc["empty", "observed_burst_level"])
    assert not r.loc["empty", "depleted"]
    assert "no finite sample" in r.loc["empty", "note"]


def test_burst_check_warns_about_series_without_volume_type():
    d = pd.concat([_series("good"), _series("a", volume_type=np.nan),
                   _series("b", size_gib=np.nan)], ignore_index=True)
    with pytest.warns(UserWarning, match=r"left out 2 series: 2 without a volume type or size"):
        r = burst_check(d, as_of="2024-01-01")
    assert r["run_id"].tolist() == ["good"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        burst_check(_series(), as_of="2024-01-01")   # nothing left out, no warning


def test_burst_check_counts_from_the_run_not_the_clock():
    """The same series on a clock that starts at 50,001 s (seconds since a campaign began):
    the edge at 52,000.5 is 2,000.5 s after the start, one interval before the first sample
    (before: observed 52,000.5 s against a predicted 2,000)."""
    g = _series().assign(t=lambda d: d["t"] + 50_000)
    r = burst_check(g, time="t").iloc[0]
    assert r["observed_depletion_s"] == pytest.approx(2000.5)
    assert r["depletion_rel_error"] == pytest.approx(0.5 / 2000)
    assert "times from the first sample" in r["note"]
    assert "first sample" not in (burst_check(_series(), time="t").iloc[0]["note"] or "")


# --------------------------------------------------------------------------------------------
# 5. burst_model: a gp2 throughput demand without block size reports its throughputs


def test_burst_model_gp2_throughput_demand_without_block_size_has_throughputs():
    # gp2 100 GiB (2024): baseline 300 credits/s, cap 128 MiB/s. Without block_size an I/O is
    # taken as 256 KiB, the largest EBS counts as one credit (the model's io_unit_size), as the
    # demand and the depletion already were: 200 MiB/s asks 800 credits/s, capped at
    # 128 MiB / 256 KiB = 512 -> while credits last 512 x 256 KiB = 128 MiB/s; after them the
    # 300 credits/s of the baseline carry 300 x 256 KiB = 75 MiB/s (before: both NaN)
    a = burst_model("gp2", 100, throughput=200 * MiB, as_of="2024-01-01").iloc[0]
    assert a["burst_throughput"] == 128 * MiB == 134_217_728
    assert a["plateau_throughput"] == 75 * MiB == 78_643_200
    assert (a["burst_iops"], a["plateau_iops"]) == (512.0, 300.0)
    assert "256 KiB" in a["method"] and "assumed" in a["method"]
    # the same row as with block_size = 256 KiB given
    b = burst_model("gp2", 100, throughput=200 * MiB, block_size=256 * 1024,
                    as_of="2024-01-01").iloc[0]
    for c in ("burst_level", "plateau", "burst_iops", "plateau_iops", "burst_throughput",
              "plateau_throughput", "depletion_s"):
        assert a[c] == b[c], c
    # below the baseline: 50 MiB/s = 200 credits/s < 300 -> 50 MiB/s throughout, never drains
    c = burst_model("gp2", 100, throughput=50 * MiB, as_of="2024-01-01").iloc[0]
    assert c["burst_throughput"] == c["plateau_throughput"] == 50 * MiB
    assert c["depletion_s"] == np.inf
    # gp2 20 GiB: baseline 100 credits/s -> plateau 100 x 256 KiB = 25 MiB/s = 26,214,400 B/s
    d = burst_model("gp2", 20, throughput=64 * MiB, as_of="2024-01-01").iloc[0]
    assert d["burst_throughput"] == 64 * MiB and d["plateau_throughput"] == 26_214_400
    # an IOPS demand without block size has no throughput: the I/O size is unknown
    e = burst_model("gp2", 100, iops=1000, as_of="2024-01-01").iloc[0]
    assert np.isnan(e["burst_throughput"]) and np.isnan(e["plateau_throughput"])


# --------------------------------------------------------------------------------------------
# 6. label_burst: one bucket per volume, whatever run_ids the volumes share


def _two_volumes(col="volume"):
    # two gp2 100 GiB volumes whose runs are both named r000..r039 (back-to-back 60 s runs of
    # 16 KiB I/Os): v1 at 3000 IOPS, v2 at 1000 IOPS
    one = _runs(40).assign(**{col: "v1"})
    two = _runs(40, iops=1000.0).assign(**{col: "v2"})
    if col != "volume":
        one, two = one.drop(columns="volume"), two.drop(columns="volume")
    return pd.concat([one, two], ignore_index=True)


@pytest.mark.parametrize("col", ["volume", "config"])
def test_label_burst_volumes_sharing_run_ids_keep_their_own_buckets(col):
    # v1: drain 3000 - 300 = 2700 credits/s, 162,000 a run: run 33 starts with 54,000 (1 %) and
    # runs dry after 54,000 / 2700 = 20 s; runs 34..39 on the empty bucket (test 1 above).
    # v2: drain 1000 - 300 = 700 credits/s, 42,000 a run: run 39 starts with
    # 5.4e6 - 39 x 42,000 = 3,762,000 (69.67 %), which lasts 3,762,000 / 700 = 5,374.3 s: every
    # run inside the burst. (Keyed on run_id alone v2's labels overwrote v1's: v1's r033 was
    # inside_burst with 69.67 % of its credits, v1 never depleted.)
    out = label_burst(_two_volumes(col)).query("metric == 'iops'").set_index([col, "run_id"])
    assert out.loc[("v1", "r033"), "burst_state"] == "depleted"
    assert out.loc[("v1", "r033"), "credits_start"] == pytest.approx(0.01)
    assert out.loc[("v1", "r033"), "burst_depletion_s"] == pytest.approx(20.0)
    assert out.loc[("v1", "r039"), "burst_state"] == "baseline"
    v1 = out.loc["v1", "burst_state"]
    assert (v1 == "inside_burst").sum() == 33 and (v1 == "baseline").sum() == 6
    assert set(out.loc["v2", "burst_state"]) == {"inside_burst"}
    assert out.loc[("v2", "r039"), "credits_start"] == pytest.approx(3_762_000 / 5.4e6)
    assert out.loc[("v2", "r039"), "burst_depletion_s"] == pytest.approx(3_762_000 / 700)
    assert not out["burst_contradiction"].any()
    # each volume labelled exactly as it is alone
    for v in ("v1", "v2"):
        alone = label_burst(_two_volumes(col).query(f"{col} == @v"))
        alone = alone.query("metric == 'iops'").set_index("run_id")
        for c in ("burst_state", "credits_start", "burst_depletion_s"):
            assert out.loc[v, c].tolist() == alone[c].tolist(), (v, c)


def test_label_burst_contradiction_is_the_volumes_own():
    # two volumes share run_id r000: on v1 (gp2 100 GiB, full bucket) it runs at 200 IOPS, no
    # more than the 300 baseline while 100 % of the credits remain -> a contradiction there;
    # on v2 it runs at 3000 IOPS -> inside the burst, no contradiction
    d = pd.concat([_runs(1, iops=200.0).assign(volume="v1"), _runs(1).assign(volume="v2")],
                  ignore_index=True)
    out = label_burst(d).query("metric == 'iops'").set_index("volume")
    assert out.loc["v1", "burst_state"] == "baseline" and out.loc["v1", "burst_contradiction"]
    assert out.loc["v2", "burst_state"] == "inside_burst"
    assert not out.loc["v2", "burst_contradiction"]


def test_label_burst_unknown_volume_falls_back_to_config():
    # a schema frame always has a volume column, <NA> when unknown: the volume is then told by
    # the config, so the two configs' r000..r039 are two buckets (v1 depletes, v2 does not)
    d = _two_volumes("config").assign(volume=pd.Series(pd.NA, dtype="string"))
    out = label_burst(d).query("metric == 'iops'").set_index(["config", "run_id"])
    assert out.loc[("v1", "r033"), "burst_state"] == "depleted"
    assert set(out.loc["v2", "burst_state"]) == {"inside_burst"}
