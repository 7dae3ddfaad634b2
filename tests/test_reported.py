"""Published score ± max deviation: hard bounds and the best attainable p, on seed 003."""

import pandas as pd
import pytest
from scipy import stats

import ebsstats as es
from ebsstats.stats.reported import best_possible_p, compare_reported
from tests.conftest import ROOT


def test_best_possible_p_equals_scipy_exact_for_complete_separation():
    for n in (3, 4, 5):
        x, y = list(range(n)), list(range(100, 100 + n))
        p = stats.mannwhitneyu(x, y, method="exact").pvalue
        assert best_possible_p(n) == pytest.approx(p)
    assert best_possible_p(3) == pytest.approx(0.1)


def test_seed003_piops2000_vs_no_piops_aio_stress():
    df = es.read(ROOT / "data" / "published" / "seed003_pts_piops_m1small.csv")
    r = compare_reported(df, baseline="small-attached-ebs")
    aio = r[(r["test"] == "AIO-Stress v0.21: random write")].set_index("config")
    row = aio.loc["small-attached-ebs-piops2000"]
    # 40.95 ± 0.25 vs 15.87 ± 0.51 (seed 003's table): ratio 2.580, bounds (40.70/16.38, 41.20/15.36)
    assert row["ratio"] == pytest.approx(40.95 / 15.87)
    assert row["ratio_bound_low"] == pytest.approx(40.70 / 16.38)
    assert row["ratio_bound_high"] == pytest.approx(41.20 / 15.36)
    assert row["verdict"] == "separated, better"
    assert row["best_p"] == pytest.approx(0.1)
    # piops400 15.75 ± 0.06 lies inside 15.87 ± 0.51: overlapping
    assert aio.loc["small-attached-ebs-piops400", "verdict"] == "overlapping"
    # lower-is-better: Flexible IO Tester seconds, piops2000 802.62 vs 1234.69 -> better
    fio = r[r["test"].str.startswith("Flexible IO Tester")].set_index("config")
    assert fio.loc["small-attached-ebs-piops2000", "verdict"] == "separated, better"
    assert "never significant" in r["note"].iloc[0]
    # pgbench has no piops200/400 rows: they are simply absent, not invented
    pg = r[r["test"].str.startswith("PostgreSQL")]
    assert set(pg["config"]) == {"small-attached-ebs-piops1000", "small-attached-ebs-piops2000"}


def test_missing_spread_is_treated_as_zero_width():
    df = pd.DataFrame({"test": "t", "config": ["a", "b"], "metric": "score",
                       "value": [1.0, 2.0], "higher_is_better": True})
    r = compare_reported(df).iloc[0]
    assert r["ratio_bound_low"] == r["ratio_bound_high"] == 2.0
