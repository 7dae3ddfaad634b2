"""Statistics that pool runs of several workloads say so (found auditing the verdicts on
public campaigns): compare, repetitions_needed and cost warn as summarize does."""

from __future__ import annotations

import numpy as np
import pandas as pd

import ebsstats as es


def _mixed(seed: int = 0) -> pd.DataFrame:
    """Config a: 8 runs at 4 KiB (~3,000 IOPS) and 2 at 1 MiB (~125); b: 2 and 8. Within one
    block size the two are alike; pooled, b looks 24 times slower."""
    rng = np.random.default_rng(seed)
    rows = []
    for cfg, share in (("a", 0.8), ("b", 0.2)):
        for i in range(10):
            bs = 4096 if i < 10 * share else 1048576
            rows.append({"config": cfg, "block_size": bs, "metric": "iops", "unit": "IO/s",
                         "value": (3000 if bs == 4096 else 125) * np.exp(rng.normal(0, .03)),
                         "higher_is_better": True})
    return pd.DataFrame(rows)


def test_compare_warns_when_either_group_mixes_workloads():
    r = es.compare(_mixed(), by="config", baseline="a", n_boot=199).iloc[0]
    assert r["ratio"] < 0.1  # (what pooling the block sizes makes of two alike volumes)
    assert r["warning"] == ("the group mixes block_size 4096/1048576: add it to `by`, or select "
                            "one value; the baseline mixes block_size 4096/1048576: add it to "
                            "`by`, or select one value")
    by_bs = es.compare(_mixed(), by="config", baseline="a", within=["block_size"], n_boot=199)
    assert not by_bs["warning"].fillna("").str.contains("mixes").any()
    assert (by_bs["verdict"] == "~").all()


def test_repetitions_needed_says_the_group_mixes_workloads():
    df = _mixed()
    r = es.repetitions_needed(df[df.config == "a"], by="config", precision=0.05,
                              summary=True).iloc[0]
    assert "the group mixes block_size 4096/1048576" in r["note"]


def test_cost_warns_when_a_configuration_pools_tests():
    df = pd.DataFrame({"config": "gp3", "test": ["randread"] * 3 + ["write-1m"] * 3,
                       "op": ["read"] * 3 + ["write"] * 3, "metric": "iops",
                       "value": [3000.0, 3010.0, 2990.0, 120.0, 125.0, 122.0],
                       "volume_type": "gp3", "size_gib": 100.0})
    r = es.cost(df, as_of="2024-06-01")
    assert r["warning"].iloc[0] == ("the group pools 2 tests (randread, write-1m): select one "
                                    "test")
    one = es.cost(df[df.test == "randread"], as_of="2024-06-01")
    assert one["warning"].isna().all()
