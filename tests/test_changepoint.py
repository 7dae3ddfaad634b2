"""PELT against brute force (dynamic programming and full enumeration) and known step series."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from ebsstats.stats.changepoint import changepoints, changepoints_frame, segment_cost


def brute_force(x, beta, min_size, model, sigma=None):
    """Enumerate every segmentation with segments >= min_size; return the best ends."""
    n = len(x)
    cost = segment_cost(x, model, sigma)
    best, best_ends = np.inf, None
    for k in range(n):
        for cps in itertools.combinations(range(1, n), k):
            ends = [*cps, n]
            starts = [0, *cps]
            if min(e - s for s, e in zip(starts, ends, strict=True)) < min_size:
                continue
            total = sum(float(cost(s, e)) for s, e in zip(starts, ends, strict=True)) + beta * k
            if total < best - 1e-12:
                best, best_ends = total, ends
    return best, best_ends


def total_cost(seg, x, model, sigma=None):
    cost = segment_cost(x, model, sigma)
    return (sum(float(cost(s, e)) for s, e in zip(seg.start, seg.end, strict=True))
            + seg.penalty.iloc[0] * (len(seg) - 1))


@pytest.mark.parametrize("model,min_size", [("normal_mean", 1), ("normal_mean", 2),
                                            ("normal_mean", 3), ("normal_meanvar", 2),
                                            ("normal_meanvar", 3)])
def test_pelt_equals_enumeration_on_small_series(model, min_size):
    rng = np.random.default_rng(0)
    for _ in range(12):
        n = int(rng.integers(4, 12))
        x = rng.normal(0, 1, n) + np.repeat(rng.normal(0, 3, 3), -(-n // 3))[:n]
        for beta in (0.5, 3.0, 10.0):
            seg = changepoints(x, penalty=beta, min_size=min_size, model=model, sigma=1.0)
            best, ends = brute_force(x, beta, min_size, model, sigma=1.0)
            assert total_cost(seg, x, model, 1.0) == pytest.approx(best, abs=1e-9)
            if ends is not None:
                assert seg.end.tolist() == ends


def test_pelt_equals_optimal_partitioning_on_longer_series():
    rng = np.random.default_rng(1)
    for _ in range(40):
        n = int(rng.integers(20, 120))
        x = np.cumsum(rng.normal(0, 0.5, n)) + rng.normal(0, 1, n)
        for model, ms in (("normal_mean", 2), ("normal_meanvar", 3)):
            a = changepoints(x, model=model, min_size=ms)
            b = changepoints(x, model=model, min_size=ms, method="op")
            assert total_cost(a, x, model) == pytest.approx(total_cost(b, x, model), abs=1e-8)


def test_known_steps_recovered():
    rng = np.random.default_rng(2)
    x = np.r_[np.full(40, 10.0), np.full(30, 12.0), np.full(50, 9.0)] + rng.normal(0, 0.5, 120)
    seg = changepoints(x)
    assert seg.start.tolist() == [0, 40, 70]
    assert seg["mean"].round(0).tolist() == [10, 12, 9]
    assert seg.n.tolist() == [40, 30, 50]
    assert seg.penalty.iloc[0] == pytest.approx(2 * np.log(120))  # BIC, 1 mean + 1 location


def test_variance_change_needs_meanvar_model():
    rng = np.random.default_rng(3)
    x = np.r_[rng.normal(0, 0.2, 60), rng.normal(0, 2.0, 60)]
    seg = changepoints(x, model="normal_meanvar")
    assert len(seg) == 2 and abs(seg.start.iloc[1] - 60) <= 3
    assert seg.sd.iloc[1] > 5 * seg.sd.iloc[0]


def test_times_are_reported_and_inputs_checked():
    t = pd.date_range("2024-01-01", periods=10, freq="D", tz="UTC")
    seg = changepoints(np.r_[np.zeros(5), np.ones(5) * 10], t, sigma=1.0)
    assert seg.start_time.tolist() == [t[0], t[5]] and seg.end_time.tolist() == [t[4], t[9]]
    with pytest.raises(ValueError, match="NaN"):
        changepoints([1.0, np.nan, 2.0])
    with pytest.raises(ValueError, match="penalty"):
        changepoints([1.0, 2.0, 3.0], penalty="xyz")
    with pytest.raises(ValueError, match="times"):
        changepoints([1.0, 2.0], times=[1])
    assert len(changepoints([])) == 0 and len(changepoints([5.0])) == 1


def test_changepoints_frame_per_day_groups():
    rng = np.random.default_rng(4)
    t = pd.date_range("2024-01-01", periods=40 * 4, freq="6h", tz="UTC")
    level = np.where(t < pd.Timestamp("2024-01-21", tz="UTC"), 1000.0, 800.0)
    df = pd.DataFrame({"timestamp": t, "value": level * np.exp(rng.normal(0, 0.03, len(t))),
                       "volume": "v1"})
    df2 = df.assign(volume="v2", value=1000 * np.exp(rng.normal(0, 0.03, len(t))))
    seg = changepoints_frame(pd.concat([df, df2]), by="volume")
    v1 = seg[seg.volume == "v1"]
    assert v1.start_time.tolist()[1] == pd.Timestamp("2024-01-21", tz="UTC")
    assert v1.ratio.iloc[1] == pytest.approx(0.8, rel=0.02)
    assert v1.n.tolist() == [80, 80] and v1.n_periods.tolist() == [20, 20]
    assert len(seg[seg.volume == "v2"]) == 1


def test_null_false_alarm_rate_mbic():
    rng = np.random.default_rng(5)
    fa = np.mean([len(changepoints(rng.normal(0, 1, 60), penalty="mbic")) > 1
                  for _ in range(100)])
    assert fa <= 0.08  # measured 1.7 % over 300 series
