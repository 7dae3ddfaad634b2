"""compare: a cell whose ``higher_is_better`` holds both True and False is not tested (the rule
of ``metric_direction``, as in ``regressions``); the other cells are compared as before."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ebsstats.app.tables import compare_table
from ebsstats.stats.comparison import compare

MIXED = "not testable: rows mix higher- and lower-is-better metrics; filter to one metric"

BASE = np.array([100.0, 102, 98, 101, 99, 103, 97, 100.5])
NEW = BASE * 1.2 + np.array([0.3, -0.2, 0.1, 0.0, -0.4, 0.2, 0.5, -0.1])


def _rows(test, metric, config, values, hib, volume=None):
    return pd.DataFrame({"test": test, "metric": metric, "config": config, "value": values,
                         "higher_is_better": hib,
                         "volume": volume if volume is not None
                         else [f"v{i}" for i in range(len(values))]})


def _frame() -> pd.DataFrame:
    """fio iops (higher is better) and a PTS test whose ``score`` rows are TPS (higher is
    better) and latency in ms (lower is better): the second cell pools opposite directions."""
    return pd.concat([
        _rows("fio", "iops", "gp2", BASE, True),
        _rows("fio", "iops", "gp3", NEW, True),
        _rows("pgbench", "score", "gp2", BASE * 5, True),   # TPS
        _rows("pgbench", "score", "gp2", BASE / 40, False),  # latency
        _rows("pgbench", "score", "gp3", NEW * 5, True),
        _rows("pgbench", "score", "gp3", NEW / 40, False),
    ], ignore_index=True)


def test_mixed_cell_not_testable_and_clean_cell_compared():
    out = compare(_frame(), baseline="gp2", n_boot=0).set_index("test")
    assert list(out.index) == ["fio", "pgbench"]
    mixed = out.loc["pgbench"]
    assert mixed["verdict"] == MIXED and mixed["warning"] == MIXED
    assert mixed["verdict"] not in ("better", "worse", "higher", "lower", "~")
    assert pd.isna(mixed["higher_is_better"])
    for c in ("ratio", "median", "median_baseline", "p_value", "p_adjusted", "shift"):
        assert pd.isna(mixed[c]), c  # no estimate pooling TPS and latency
    assert (mixed["n"], mixed["n_baseline"]) == (16, 16)

    clean = out.loc["fio"]
    assert clean["verdict"] == "better" and bool(clean["higher_is_better"]) is True
    assert clean["ratio"] == pytest.approx(np.median(NEW) / np.median(BASE))
    assert clean["change_pct"] == pytest.approx(100 * (np.median(NEW) / np.median(BASE) - 1))
    p = stats.mannwhitneyu(NEW, BASE, alternative="two-sided").pvalue
    assert clean["p_value"] == pytest.approx(p)
    assert clean["p_adjusted"] == pytest.approx(p)  # the untested cell is no test for Holm
    assert "not testable" not in str(clean["warning"])


def test_mixed_cell_alone_and_paired():
    d = _frame()
    alone = compare(d[d["test"] == "pgbench"], baseline="gp2", n_boot=0)
    assert alone["verdict"].tolist() == [MIXED] and alone["p_adjusted"].isna().all()
    paired = compare(d, baseline="gp2", paired="volume").set_index("test")
    assert paired.loc["pgbench", "verdict"] == MIXED
    assert paired.loc["pgbench", "n_pairs"] == 8 and paired.loc["fio", "n_pairs"] == 8
    assert paired.loc["fio", "verdict"] == "better"
    assert "not testable" in compare_table(paired)


def test_override_chooses_the_direction_of_a_mixed_cell():
    out = compare(_frame(), baseline="gp2", n_boot=0, higher_is_better=True).set_index("test")
    assert "not testable" not in out.loc["pgbench", "verdict"]
    assert np.isfinite(out.loc["pgbench", "ratio"])
