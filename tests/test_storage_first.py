"""Reports choose and plot storage tests first: sysbench's cpu, memory, threads and mutex
modes measure no storage (dyu/vps-comparison's campaign: its most run sysbench test was
``memory``, and the variance page analysed RAM latency; the overview's bandwidth boxes mixed
RAM's GB/s with the disks')."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pandas as pd
import pytest

import ebsstats as es
from ebsstats.app import notebook as nb
from ebsstats.schema import NOT_STORAGE, measures_storage

matplotlib.use("Agg")

SYSBENCH = Path(__file__).parent / "fixtures" / "sysbench"


@pytest.fixture(scope="module")
def sysbench() -> pd.DataFrame:
    with pytest.warns(UserWarning):  # (the folder holds broken files on purpose)
        return es.read(SYSBENCH, progress=False)


def test_measures_storage_on_the_readers_test_names(sysbench):
    """The sysbench reader names its modes as NOT_STORAGE does (9 cpu runs, 4 memory, 2
    threads, 1 mutex in the fixtures), and every fileio and oltp row measures storage."""
    runs = sysbench.groupby(measures_storage(sysbench).rename("storage"))["run_id"].nunique()
    off = sysbench[~measures_storage(sysbench)]
    assert set(off["test"].astype(str)) == set(NOT_STORAGE["sysbench"])
    assert off.groupby("test", observed=True)["run_id"].nunique().to_dict() == {
        "cpu": 9, "memory": 4, "mutex": 1, "threads": 2}
    assert runs[False] == 16
    kept = set(sysbench.loc[measures_storage(sysbench), "test"].astype(str))
    assert {"rndrd", "rndrw", "seqwr", "oltp"} <= kept


def test_measures_storage_is_by_tool():
    df = pd.DataFrame({"tool": ["fio", "sysbench", "pts"], "test": ["memory", "memory", "cpu"]})
    assert measures_storage(df).tolist() == [True, False, True]
    assert measures_storage(pd.DataFrame({"value": [1.0]})).tolist() == [True]


def _runs(test: str, n: int, start: int) -> list[dict]:
    return [{"run_id": f"{test}{i}", "tool": "sysbench", "test": test, "op": "total",
             "metric": "bandwidth", "value": float(start + i), "flag": None}
            for i in range(n)]


def test_choose_prefers_a_storage_test_with_fewer_runs():
    df = pd.DataFrame(_runs("memory", 6, 10**9) + _runs("rndrd", 3, 10**6))
    assert nb.choose(df)["test"] == "rndrd"
    assert len(nb.choose(df)["runs"]) == 3
    assert nb.choose(df, test="memory")["test"] == "memory"  # (asked for: kept)


def test_choose_takes_a_non_storage_test_when_it_is_all_there_is():
    df = pd.DataFrame(_runs("memory", 6, 10**9) + _runs("cpu", 2, 10))
    assert nb.choose(df)["test"] == "memory"


def test_overview_plot_leaves_ram_bandwidth_out_and_says_so(sysbench):
    import matplotlib.pyplot as plt

    from ebsstats.plots.overview import overview_plot

    fig = overview_plot(sysbench)
    try:
        title = fig._suptitle.get_text()
        assert title.startswith("16 run(s) of tests that measure no storage")
        ax = fig.axes[0]
        assert ax.get_xlabel().startswith("bandwidth")
        # (the fixtures fill no config: one box per test, and no box of a memory or cpu mode)
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert "memory" not in labels and "cpu" not in labels
    finally:
        plt.close(fig)
    only_ram = sysbench[sysbench["test"].astype(str) == "memory"]
    fig = overview_plot(only_ram)  # nothing else: shown, no title
    try:
        assert fig._suptitle is None
    finally:
        plt.close(fig)
