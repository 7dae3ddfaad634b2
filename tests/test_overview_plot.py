"""The overview figure's axes: one panel per metric on a log scale, labelled by its powers of
ten where it spans a decade or more (labels of the minor ticks beside them ran into each other
on a narrow panel), by its minor ticks where it spans less."""

from __future__ import annotations

import matplotlib
import pandas as pd

from ebsstats.plots.overview import overview_plot

matplotlib.use("Agg")


def _rows(values: dict[str, list[float]]) -> pd.DataFrame:
    units = {"iops": "IO/s", "bandwidth": "B/s"}
    return pd.DataFrame([{"metric": m, "unit": units[m], "value": v, "test": f"t{k}",
                          "tool": "fio"} for m, vs in values.items() for k, v in enumerate(vs)])


def _labels(ax, minor: bool) -> list[str]:
    ax.figure.canvas.draw()
    return [t.get_text() for t in ax.get_xticklabels(minor=minor) if t.get_text()]


def test_an_axis_of_two_decades_labels_only_its_powers_of_ten():
    # (PerfKit Benchmarker's own test outputs: matplotlib labelled 2x10^2 ... 6x10^3 beside
    # 10^2, 10^3 and 10^4 here, and the labels overlapped)
    fig = overview_plot(_rows({"iops": [537.7, 133.0, 253.0, 1610.0, 317.0, 323.0, 8086.7,
                                        2457.0]}))
    ax = fig.axes[0]
    assert _labels(ax, minor=False)  # 10^2, 10^3, 10^4
    assert _labels(ax, minor=True) == []


def test_an_axis_within_a_decade_keeps_its_minor_labels():
    fig = overview_plot(_rows({"iops": [3000.0, 3500.0, 4000.0]}))
    ax = fig.axes[0]
    lo, hi = ax.get_xlim()
    assert hi < 10 * lo
    assert _labels(ax, minor=True)  # no power of ten inside: the minor ticks say where
