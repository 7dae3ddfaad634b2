"""Audit fixes of ebsstats.stats.percentiles (D3, D6, D7, D8, D9), on hand-made histograms whose
pooled percentiles, run counts and window counts are worked out by hand in the comments."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from ebsstats.stats.percentiles import (
    compare_percentiles,
    percentiles_over_time,
    pooled_percentiles,
)


def _runs(config, op, lat, n_runs=2, count=10, prefix=None):
    """``n_runs`` runs of one config/op, each ``count`` I/Os all in the bin ``lat``."""
    return [{"config": config, "op": op, "run_id": f"{prefix or config}{op}{i}", "lat": lat,
             "count": count} for i in range(n_runs)]


@pytest.fixture
def cells():
    # read: a (all I/Os at 1 s) and b (at 2 s); write: b (at 1 s) and c (at 4 s). Every run has
    # one bin, so each pooled p50 is that bin: read b/a = 2, write c/b = 4.
    return pd.DataFrame(_runs("a", "read", 1.0) + _runs("b", "read", 2.0)
                        + _runs("b", "write", 1.0) + _runs("c", "write", 4.0))


# --- D3: confidence and alpha validated up front ---------------------------------------------

@pytest.mark.parametrize("n_boot", [0, 99])
@pytest.mark.parametrize("confidence", [95, 0, 1, 1.5, -0.5])
def test_confidence_outside_unit_interval_raises(cells, confidence, n_boot):
    with pytest.raises(ValueError, match=rf"^confidence must be in \(0, 1\), got {confidence}$"):
        compare_percentiles(cells, by="config", baseline="b", percentile=50,
                            confidence=confidence, n_boot=n_boot)


@pytest.mark.parametrize("alpha", [5, 0, 1])
def test_alpha_outside_unit_interval_raises(cells, alpha):
    with pytest.raises(ValueError, match=rf"^alpha must be in \(0, 1\), got {alpha}$"):
        compare_percentiles(cells, by="config", baseline="b", percentile=50, alpha=alpha,
                            n_boot=0)


# --- D6: an explicit baseline missing from a cell skips the cell, as compare() does -----------

def test_explicit_baseline_missing_from_a_cell_skips_it_with_a_warning(cells):
    with pytest.warns(UserWarning, match=r"baseline 'a' is not in the cell\(s\) op='write'"):
        r = compare_percentiles(cells, by="config", baseline="a", percentile=50, n_boot=0)
    assert r[["op", "config", "baseline"]].values.tolist() == [["read", "b", "a"]]
    row = r.iloc[0]
    assert (row["pooled"], row["pooled_baseline"], row["ratio"]) == (2.0, 1.0, 2.0)
    assert row["change_pct"] == pytest.approx(100.0)
    assert (row["n"], row["n_baseline"]) == (2, 2)


def test_baseline_in_no_cell_raises_naming_it_and_the_by_columns(cells):
    with pytest.raises(ValueError, match=r"baseline 'z' not found in column\(s\) \['config'\]"):
        compare_percentiles(cells, by="config", baseline="z", percentile=50, n_boot=0)


def test_baseline_present_everywhere_does_not_warn(cells):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = compare_percentiles(cells, by="config", baseline="b", percentile=50, n_boot=0)
    # read: a (1 s) / b (2 s) = 0.5; write: c (4 s) / b (1 s) = 4
    assert r[["op", "config", "ratio"]].values.tolist() == [["read", "a", 0.5],
                                                            ["write", "c", 4.0]]


# --- D6: one default baseline for the whole call: the first group in row order -----------------

def test_default_baseline_is_first_group_in_row_order_for_every_cell(cells):
    # rows of b come before those of a in the frame; sorted order would pick a for reads and
    # b for writes
    order = cells.iloc[np.r_[4:8, 2:4, 0:2]]  # write b, write c, read b, read a
    assert order["config"].iloc[0] == "b"
    r = compare_percentiles(order, by="config", percentile=50, n_boot=0)
    assert r[["op", "config", "baseline", "ratio"]].values.tolist() == [
        ["read", "a", "b", 0.5], ["write", "c", "b", 4.0]]


def test_default_baseline_skips_cells_without_it(cells):
    # first row: a, which the write cell lacks -> only the read cell is compared, with a warning
    with pytest.warns(UserWarning, match=r"op='write'"):
        r = compare_percentiles(cells, by="config", percentile=50, n_boot=0)
    assert r[["op", "config", "baseline", "ratio"]].values.tolist() == [["read", "b", "a", 2.0]]


# --- D6 (NaN by values): still left out, now with a warning counting them ----------------------

def test_missing_by_values_are_dropped_with_a_counting_warning(cells):
    # 3 bin rows of one run without a config, ahead of everything: at 100 s they would dominate
    # any pool they joined, and as the first row they must not become the default baseline
    na = pd.DataFrame({"config": None, "op": "read", "run_id": "x0", "lat": [1.0, 50.0, 100.0],
                       "count": 1000})
    order = pd.concat([na, cells.iloc[np.r_[4:8, 2:4, 0:2]]], ignore_index=True)
    with pytest.warns(UserWarning, match=r"3 row\(s\) \(1 run\(s\)\) with a missing value in "
                                         r"\['config'\] were left out"):
        r = compare_percentiles(order, by="config", percentile=50, n_boot=0)
    assert r[["op", "config", "baseline", "ratio", "n", "n_baseline"]].values.tolist() == [
        ["read", "a", "b", 0.5, 2, 2], ["write", "c", "b", 4.0, 2, 2]]


# --- D7: the adjustment method is in a column named correction --------------------------------

def test_correction_column_is_documented_and_returned(cells):
    r = compare_percentiles(cells, by="config", baseline="b", percentile=50, n_boot=0)
    assert "correction" in r.columns and "padjust" not in r.columns
    assert r["correction"].tolist() == ["holm", "holm"]
    doc = compare_percentiles.__doc__
    assert "``correction``" in doc and "``p_adjusted``, ``padjust``" not in doc
    # 2 + 2 runs, each group's runs identical: of the C(4, 2) = 6 splits one gives the observed
    # log ratio and one its negative, the 4 mixed splits give 0 -> two-sided p = 2/6; Holm over
    # two equal p-values: max(2 * 1/3, 1/3) = 2/3 for both
    assert r["p_value"].tolist() == pytest.approx([1 / 3, 1 / 3])
    assert r["p_adjusted"].tolist() == pytest.approx([2 / 3, 2 / 3])
    assert r["verdict"].tolist() == ["~", "~"]


# --- D8: a run without I/Os is left out of the per-run summaries, n_runs and the bootstrap -----

def _hist(run_counts):
    return pd.DataFrame([{"config": "a", "op": "read", "run_id": r, "lat": lat, "count": c}
                         for r, cs in run_counts.items()
                         for lat, c in zip([1e-4, 1e-3], cs, strict=True)])


def test_pooled_percentiles_leaves_out_runs_without_ios():
    h = _hist({"r1": [90, 10], "r2": [0, 0], "r3": [40, 60]})
    r = pooled_percentiles(h, by="config", percentiles=[50, 99], n_boot=199, seed=3)
    # pooled [130, 70] of 200: p50 -> first bin with cum >= 100 = 1e-4, p99 (198) -> 1e-3
    # r1 [90, 10]: p50 1e-4, p99 1e-3; r3 [40, 60]: p50 (50 > 40) 1e-3, p99 1e-3
    assert r["value"].tolist() == [1e-4, 1e-3]
    assert r["averaged"].tolist() == pytest.approx([5.5e-4, 1e-3])
    assert r["averaged_vs_pooled_pct"].tolist() == pytest.approx([450.0, 0.0])
    assert r["run_min"].tolist() == [1e-4, 1e-3]
    assert r["run_max"].tolist() == [1e-3, 1e-3]
    assert r["n_runs"].tolist() == [2, 2]
    assert r["n_runs_empty"].tolist() == [1, 1]
    assert r["n_ios"].tolist() == [200, 200]
    # the bootstrap resamples r1 and r3 only: the same CI as without the empty run
    without = pooled_percentiles(h[h["run_id"] != "r2"], by="config", percentiles=[50, 99],
                                 n_boot=199, seed=3)
    assert without["n_runs_empty"].tolist() == [0, 0]
    for c in ("ci_low", "ci_high", "value", "averaged", "n_runs"):
        assert r[c].tolist() == without[c].tolist()
    assert r[["ci_low", "ci_high"]].notna().all().all()


def test_pooled_percentiles_group_of_empty_runs_only():
    r = pooled_percentiles(_hist({"r1": [0, 0], "r2": [0, 0]}), by="config", percentiles=[50],
                           n_boot=99)
    row = r.iloc[0]
    assert (row["n_runs"], row["n_runs_empty"], row["n_ios"]) == (0, 2, 0)
    assert np.isnan([row["value"], row["averaged"], row["run_min"], row["run_max"],
                     row["ci_low"]]).all()


# --- D9: each log line falls in exactly one window ----------------------------------------------

@pytest.fixture
def log_lines():
    # two logs with log_hist_msec=500, stamped (as fio does) at the end of each interval a few
    # ms late; run a also has a line at t=0. Counts are powers of two so every window's n_ios
    # names the lines it holds; each line's I/Os are in one bin, lat = 10**-line.
    lines = [("a", 0.0, 1), ("a", 0.501, 2), ("a", 1.001, 4), ("a", 1.501, 8),
             ("b", 0.502, 16), ("b", 1.002, 32), ("b", 1.502, 64)]
    return pd.DataFrame([{"run_id": r, "op": "read", "t": t, "lat": 10.0 ** -i, "count": c}
                         for i, (r, t, c) in enumerate(lines)])


def test_over_time_default_window_one_line_per_log_and_window(log_lines):
    r = percentiles_over_time(log_lines, percentiles=[50])
    # window 0.5 s (median spacing): t=0 alone (1); (0, 0.5]: a 0.501 + b 0.502 = 2 + 16;
    # (0.5, 1]: 4 + 32; (1, 1.5]: 8 + 64
    assert r["t"].tolist() == [0.0, 0.5, 1.0, 1.5]
    assert r["n_ios"].tolist() == [1, 18, 36, 72]
    assert r["n_ios"].sum() == log_lines["count"].sum()
    # (0, 0.5]: 2 I/Os at 1e-1 and 16 at 1e-4: p50 (9 of 18) is 1e-4
    assert r["value"].tolist() == [1.0, 1e-4, 1e-5, 1e-6]


def test_over_time_wider_window_holds_whole_intervals(log_lines):
    r = percentiles_over_time(log_lines, percentiles=[50], window=1.0)
    # window (0, 1]: the intervals ending at 0.501/0.502 and 1.001/1.002 (2 + 4 + 16 + 32);
    # (1, 2]: 1.501/1.502 (8 + 64); the t=0 line stays on its own
    assert r["t"].tolist() == [0.0, 1.0, 2.0]
    assert r["n_ios"].tolist() == [1, 54, 72]


def test_over_time_audit_case_t0_not_pooled_with_first_interval():
    h = pd.DataFrame({"run_id": ["a"] * 3 + ["b"] * 3, "op": "read", "t": [0.0, 1.0, 2.0] * 2,
                      "lat": [1e-4, 2e-4, 3e-4] * 2, "count": 1})
    r = percentiles_over_time(h, percentiles=[50])
    assert r[["t", "n_ios", "value"]].values.tolist() == [[0.0, 2, 1e-4], [1.0, 2, 2e-4],
                                                          [2.0, 2, 3e-4]]


def test_over_time_rejects_non_positive_window(log_lines):
    with pytest.raises(ValueError, match="window must be > 0"):
        percentiles_over_time(log_lines, window=0)


# --- compare_percentiles: a run without I/Os is not a replicate either --------------------------

def _empty_runs_frame():
    # per op: a has 2 runs of 10 I/Os at 1 s and one run whose counts are NaN; b has 2 runs of
    # 10 I/Os at 2 s and one run whose counts are 0. The read and the write cell are the same.
    return pd.DataFrame([{"config": c, "op": op, "run_id": f"{c}{op}{i}", "lat": lat, "count": k}
                         for op in ("read", "write")
                         for c, lat, counts in (("a", 1.0, [10, 10, np.nan]),
                                                ("b", 2.0, [10, 10, 0]))
                         for i, k in enumerate(counts)])


def test_compare_percentiles_leaves_out_runs_without_ios():
    h = _empty_runs_frame()
    with pytest.warns(UserWarning, match=r"4 run\(s\) without any I/O") as rec:
        r = compare_percentiles(h, by="config", baseline="a", percentile=50, n_boot=199, seed=5)
    assert sum("without any I/O" in str(w.message) for w in rec) == 1  # one warning per call
    msg = next(str(w.message) for w in rec if "without any I/O" in str(w.message))
    assert "'aread2'" in msg and "'bwrite2'" in msg
    # 2 + 2 replicates per cell, the empty run of each side counted apart
    assert r["n"].tolist() == [2, 2] and r["n_baseline"].tolist() == [2, 2]
    assert r["n_runs_empty"].tolist() == [1, 1]
    assert r["n_runs_empty_baseline"].tolist() == [1, 1]
    # pooled p50: a 20 I/Os at 1 s -> 1; b 20 at 2 s -> 2; ratio 2
    assert r[["pooled", "pooled_baseline", "ratio"]].values.tolist() == [[2.0, 1.0, 2.0]] * 2
    # permutation over the 4 runs with I/Os: of the C(4, 2) = 6 splits one gives log 2 and one
    # -log 2, the 4 mixed ones 0 -> two-sided p = 2 / 6 (with the empty runs as replicates:
    # 6 runs, 20 splits, p = 0.6); Holm over two equal p-values: 2/3
    assert r["p_value"].tolist() == pytest.approx([1 / 3, 1 / 3])
    assert r["p_adjusted"].tolist() == pytest.approx([2 / 3, 2 / 3])
    assert r["warning"].str.contains(r"with 2 \+ 2 runs the smallest permutation p-value is "
                                     r"0\.333").all()
    # CI and test exactly as if the empty runs were not in the frame (same seed)
    ref = compare_percentiles(h[h["count"].fillna(0) > 0], by="config", baseline="a",
                              percentile=50, n_boot=199, seed=5)
    assert ref["n_runs_empty"].tolist() == [0, 0]
    for c in ("n", "n_baseline", "pooled", "ratio", "ratio_ci_low", "ratio_ci_high", "p_value",
              "warning"):
        assert r[c].tolist() == ref[c].tolist(), c


def test_compare_percentiles_group_of_empty_runs_only():
    # b has no run with I/Os: nothing to compare, n = 0, no p-value, no verdict
    h = pd.DataFrame([{"config": c, "op": "read", "run_id": f"{c}{i}", "lat": 1.0, "count": k}
                      for c, k in (("a", 10), ("b", 0)) for i in range(3)])
    with pytest.warns(UserWarning, match=r"3 run\(s\) without any I/O"):
        r = compare_percentiles(h, by="config", baseline="a", percentile=50, n_boot=99)
    row = r.iloc[0]
    assert (row["n"], row["n_runs_empty"], row["n_baseline"], row["n_runs_empty_baseline"]) \
        == (0, 3, 3, 0)
    assert np.isnan([row["pooled"], row["ratio"], row["p_value"]]).all()
    assert row["verdict"] == "~"
    assert row["warning"] == "not testable: each group needs at least 2 runs"


def test_compare_percentiles_without_empty_runs_does_not_warn(cells):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = compare_percentiles(cells, by="config", baseline="b", percentile=50, n_boot=0)
    assert r["n_runs_empty"].tolist() == [0, 0]
    assert r["n_runs_empty_baseline"].tolist() == [0, 0]
    assert "``n_runs_empty``" in compare_percentiles.__doc__
