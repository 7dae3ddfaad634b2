"""Runs of one test name that asked different things of the storage (a fio job run at 4 KiB
and at 1 MiB, sysbench ``cpu`` at several ``--cpu-max-prime``) are no repetitions of one
configuration: ``summarize`` says so in its warning, and the notebooks' selection takes one
workload (the most run) and says which, instead of pooling them into one spread.

Found on chris-sanders/ceph-fio-results, where 48 runs of the job ``ceph-fuse`` (4k and 1M,
randread/seqread/mixed, 1 and 4 threads, libaio and rbd; medians 33.5 to 3,390 IOPS) were
reported as one configuration with cv 4.08 and a "unimodal" verdict.
"""

from __future__ import annotations

import statistics

import pandas as pd
import pytest

import ebsstats as es
from ebsstats.app import notebook as nb
from ebsstats.stats._checks import mixed_parameters
from tests.conftest import FIXTURES


def _runs(spec: list[tuple[str, int, int, float]]) -> pd.DataFrame:
    """(config, block_size, threads, value) per run, one IOPS row each."""
    return pd.DataFrame({
        "run_id": [f"r{i}" for i in range(len(spec))], "config": [s[0] for s in spec],
        "test": "job", "op": "read", "metric": "iops", "unit": "IO/s",
        "block_size": pd.array([s[1] for s in spec], dtype="Int64"),
        "threads": pd.array([s[2] for s in spec], dtype="Int64"),
        "value": [s[3] for s in spec], "flag": None})


MIXED = _runs([("x", 4096, 1, 3000.0)] * 5 + [("x", 2**20, 1, 100.0)] * 3
              + [("x", 2**20, 4, 390.0)])


def test_summarize_says_a_group_mixes_workloads():
    s = es.summarize(MIXED, by="config", n_boot=0)
    assert s["n"].tolist() == [9]
    assert s["warning"].iloc[0].endswith(
        "the group mixes block_size 4096/1048576, threads 1/4: add them to `by`, or select "
        "one value")


def test_no_warning_when_the_parameters_are_in_by_or_differ_only_between_groups():
    s = es.summarize(MIXED, by=["config", "block_size", "threads"], n_boot=0)
    assert s["n"].tolist() == [5, 3, 1]
    assert not s["warning"].fillna("").str.contains("mixes").any()
    two = _runs([("x", 4096, 1, 3000.0)] * 3 + [("y", 2**20, 1, 100.0)] * 3)
    assert not es.summarize(two, by="config", n_boot=0)["warning"].fillna("").str.contains(
        "mixes").any()
    assert mixed_parameters(two, ["config"]) == {}
    assert mixed_parameters(two, []) == {(): "the group mixes block_size 4096/1048576: add it "
                                              "to `by`, or select one value"}


def test_a_group_of_missing_keys_is_its_own_group():
    d = _runs([("x", 4096, 1, 1.0), ("x", 4096, 1, 2.0), ("y", 4096, 1, 3.0), ("y", 2**20, 1, 4.0)])
    d["config"] = pd.array([None, None, "b", "b"], dtype="string")
    d.loc[1, "threads"] = 4
    assert mixed_parameters(d, ["config"]) == {
        (None,): "the group mixes threads 1/4: add it to `by`, or select one value",
        ("b",): "the group mixes block_size 4096/1048576: add it to `by`, or select one value"}
    s = es.summarize(d, by="config", n_boot=0)
    assert s["warning"].str.contains("mixes threads 1/4").tolist() == [False, True]  # (b, NA)


def test_a_missing_value_is_a_value_of_its_own():
    d = _runs([("x", 4096, 1, 1.0), ("x", 4096, 1, 2.0)])
    d["cpu_max_prime"] = pd.array(["20000", None], dtype="string")
    assert mixed_parameters(d, ["config"]) == {
        ("x",): "the group mixes cpu_max_prime 20000/NA: add it to `by`, or select one value"}


def test_choose_takes_the_most_run_workload_and_says_which(monkeypatch):
    said, labels = [], []
    monkeypatch.setattr(nb, "note", lambda text, label="Not shown": (said.append(text),
                                                                     labels.append(label)))
    pick = nb.choose(MIXED, by=["config"])
    assert labels == ["Selected"]
    assert pick["runs"]["value"].tolist() == [3000.0] * 5
    assert pick["params"] == {"block_size": 4096, "threads": 1}
    assert said == ["The runs of 'job' are not all one workload (block_size 4096/1048576; "
                    "threads 1/4). This page takes the most run combination, block_size=4096, "
                    "threads=1 (5 of 9 runs); set `params` to choose another."]
    pick = nb.choose(MIXED, by=["config"], params={"block_size": 2**20})
    assert pick["runs"]["value"].tolist() == [100.0] * 3
    assert pick["params"] == {"block_size": 2**20, "threads": 1}


def test_choose_keeps_parameters_that_tell_the_configurations_apart(monkeypatch):
    said = []
    monkeypatch.setattr(nb, "note", lambda text, label="Not shown": said.append(text))
    two = _runs([("x", 4096, 1, 3000.0)] * 3 + [("y", 2**20, 1, 100.0)] * 3)
    pick = nb.choose(two, by=["config"])
    assert len(pick["runs"]) == 6 and pick["params"] == {} and said == []


def test_workload_columns_for_a_page_that_checks_every_group():
    assert nb.workload_columns(MIXED, ["config"]) == ["block_size", "threads"]
    assert nb.workload_columns(MIXED, ["config", "block_size", "threads"]) == []


@pytest.fixture(scope="module")
def cpu_runs() -> pd.DataFrame:
    df = es.read(FIXTURES / "sysbench")
    return df[(df["test"] == "cpu") & (df["metric"] == "ops")]


def test_genuine_sysbench_cpu_runs_of_several_primes(cpu_runs, monkeypatch):
    """sysbench 1.0.20 cpu runs made here: 3 at --cpu-max-prime=2000 (~45,000 events/s), 6 at
    the default 10000 (2,328.85 to 8,615.41 events/s, one of them with 2 threads): pooled,
    their cv is 1.08; the page takes one prime and one thread count."""
    assert sorted(cpu_runs["cpu_max_prime"].unique()) == ["10000", "2000"]
    s = es.summarize(cpu_runs, n_boot=0)
    by_hand = [45176.02, 45096.58, 44751.23, 4201.48, 8615.41, 3390.25, 2328.85,
               3051.30, 4432.84]  # the files' "events per second" lines
    assert sorted(cpu_runs["value"]) == sorted(by_hand)
    assert s["cv"].iloc[0] == pytest.approx(statistics.stdev(by_hand) / statistics.mean(by_hand))
    assert "the group mixes threads 1/2, cpu_max_prime 2000/10000" in s["warning"].iloc[0]
    said = []
    monkeypatch.setattr(nb, "note", lambda text, label="Not shown": said.append(text))
    pick = nb.choose(cpu_runs, by=["config"])
    # (10000, 1) has 5 runs, (2000, 1) 3, (10000, 2) 1: the most run is taken
    assert pick["params"] == {"threads": 1, "cpu_max_prime": "10000"}
    assert sorted(pick["runs"]["value"]) == [2328.85, 3051.30, 3390.25, 4201.48, 4432.84]
    assert "(5 of 9 runs)" in said[0]


def test_the_run_count_curve_of_groups_too_small_to_model_says_so():
    """Three runs: the curve has no point to draw; the plot says so instead of an empty frame
    with an empty legend (matplotlib's "No artists with labels" warning became a caveat)."""
    import warnings

    from ebsstats.plots.summary import ci_width_plot

    curve = es.repetitions_needed(MIXED[MIXED["block_size"] == 2**20].iloc[:3], by="config")
    assert curve["half_width_rel"].isna().all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ax = ci_width_plot(curve, hue="config")
    assert ax.get_legend() is None and not ax.lines[:-1]
    assert [t.get_text() for t in ax.texts] == ["no group has enough runs to draw the curve"]


def test_choose_a_test_whose_rows_have_no_op(monkeypatch):
    """A PTS score of a test with no direction (Stream, Zstd): op is missing on every row. The
    pool was emptied by comparing with None and the report's variance, drift and regressions
    pages stopped with StopIteration (laertispappas/aws-ec2-phoronix-benchmark,
    ManuelJBrito/Phoronix-results)."""
    monkeypatch.setattr(nb, "note", lambda text, label="Not shown": None)
    d = MIXED.assign(op=pd.array([None] * len(MIXED), dtype="category"), metric="bandwidth",
                     unit="B/s", block_size=pd.array([4096] * len(MIXED), dtype="Int64"))
    d["arguments"] = ["Copy"] * 6 + ["Triad"] * 3
    pick = nb.choose(d)
    assert pick["op"] is None and pick["metric"] == "bandwidth"
    assert pick["params"] == {"threads": 1, "arguments": "Copy"}
    assert pick["runs"]["value"].tolist() == [3000.0] * 5 + [100.0]


def test_forest_plot_of_a_comparison_whose_op_is_missing():
    """A PTS score has no op: the comparison's label columns hold a missing value, which the
    plot's row names joined as a float (TypeError: the variance page of
    laertispappas/aws-ec2-phoronix-benchmark stopped)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ebsstats.plots.summary import forest_plot
    from ebsstats.stats.comparison import compare

    d = pd.DataFrame({"config": ["a"] * 4 + ["b"] * 4, "test": "Stream",
                      "op": pd.array([None] * 8, dtype="category"), "metric": "bandwidth",
                      "unit": "B/s", "higher_is_better": True,
                      "value": [10.0, 11.0, 10.5, 10.2, 12.0, 12.5, 12.2, 12.1]})
    cmp = compare(d, by="config", baseline="a", n_boot=99)
    ax = forest_plot(cmp)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Stream NA bandwidth b"]
    plt.close("all")
