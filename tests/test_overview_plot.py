"""The overview figure's axes: one panel per metric on a log scale, labelled by two or more of
its powers of ten, else by 1, 2 and 5 times them, never also by its minor ticks (their labels
ran into each other on a narrow panel)."""

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


def _shown(ax) -> list[float]:
    lo, hi = ax.get_xlim()
    return [t for t in ax.get_xticks() if lo <= t <= hi]


def test_an_axis_of_one_power_of_ten_is_labelled_at_1_2_5_times_the_powers():
    # (PerfKit Benchmarker's own test outputs, 133-8,087 IOPS: only 10^3 falls inside, and
    # matplotlib labelled 2x10^2 ... 6x10^3 beside it; the labels overlapped)
    fig = overview_plot(_rows({"iops": [537.7, 133.0, 253.0, 1610.0, 317.0, 323.0, 8086.7,
                                        2457.0]}))
    ax = fig.axes[0]
    assert _labels(ax, minor=True) == []
    assert [round(t) for t in _shown(ax)] == [200, 500, 1000, 2000, 5000]
    assert len(_labels(ax, minor=False)) >= 2  # (matplotlib's own choice among them)


def test_an_axis_of_several_powers_of_ten_is_labelled_by_them():
    fig = overview_plot(_rows({"iops": [20.0, 300.0, 4000.0, 50000.0]}))
    ax = fig.axes[0]
    assert _labels(ax, minor=True) == []
    assert [round(t) for t in _shown(ax)] == [100, 1000, 10000]


def test_an_axis_too_narrow_for_two_such_ticks_is_labelled_at_a_few_round_values():
    # (no power nor 2 or 5 times one inside; matplotlib labelled its minor ticks, 1.4 ... 2.4
    # x 10^-1 ms for rawstor_bench's clat means, one label over the next)
    ax = overview_plot(_rows({"iops": [3000.0, 3500.0, 4000.0]})).axes[0]
    assert _labels(ax, minor=True) == []
    ax.figure.canvas.draw()
    lo, hi = ax.get_xlim()
    shown = [t.get_text() for t in ax.get_xticklabels() if lo <= t.get_position()[0] <= hi]
    assert 2 <= len(shown) <= 4 and all(t.replace(".", "").isdigit() for t in shown), shown


def test_zero_values_are_left_out_of_a_log_axis_and_counted():
    # (dyu/vps-comparison: sysbench 0.4.12's memory test prints a mean latency of 0.00 ms on
    # every run; on a log axis numpy warned "invalid value encountered in subtract", which the
    # report showed as a caveat, and the zeros were nowhere)
    import warnings

    rows = pd.DataFrame([{"metric": "lat_mean", "unit": "s", "value": v, "test": t, "tool": "x"}
                         for t, v in [("mem", 0.0), ("mem", 0.0), ("cpu", 3e-3), ("cpu", 4e-3)]])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        fig = overview_plot(rows)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "lat_mean (ms; 2 zero value(s) not shown)"
    assert ax.get_xscale() == "log"
    zeros = rows.assign(value=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        ax = overview_plot(zeros).axes[0]
    assert ax.get_xlabel() == "lat_mean (ms; 4 zero value(s) not shown)"
    assert [t.get_text() for t in ax.texts] == ["every value is 0"]


def test_values_too_fast_to_measure_are_counted_beside_the_zeros():
    # (dyu/vps-comparison again: sysbench 0.4.12 printed those memory latencies as "0.00ms",
    # which the reader now gives as NaN flagged too_fast, not 0; they stay counted, not gone)
    rows = pd.DataFrame([{"metric": "lat_mean", "unit": "s", "value": v, "test": t, "tool": "x",
                          "flag": f} for t, v, f in [("mem", float("nan"), "too_fast"),
                                                     ("mem", float("nan"), "too_fast"),
                                                     ("io", 0.0, None), ("cpu", 3e-3, None),
                                                     ("cpu", float("nan"), "other")]])
    ax = overview_plot(rows).axes[0]
    assert ax.get_xlabel() == ("lat_mean (ms; 1 zero value(s) not shown; 2 too fast to measure "
                               "not shown)")
    nullable = rows.assign(flag=rows["flag"].astype(pd.StringDtype("python")))  # (<NA> flags)
    assert overview_plot(nullable).axes[0].get_xlabel() == ax.get_xlabel()
    fast = rows[rows.flag == "too_fast"]
    ax = overview_plot(fast).axes[0]  # every value too fast: the panel says so, and its unit
    assert ax.get_xlabel() == "lat_mean (ms; 2 too fast to measure not shown)"
    assert [t.get_text() for t in ax.texts] == ["no value to show"]


def test_implausible_values_are_left_out_and_counted():
    """A fio latency flagged ``implausible`` (longer than its job ran) stretched the overview's
    latency axis to 10^5 ms (rawstor_bench's clat means of 5-15 s beside lat means of 0.19 ms);
    such values are left out of the panel and counted in its label, as zeros are."""
    rows = pd.DataFrame([{"metric": "lat_mean", "unit": "s", "value": v, "test": "t",
                          "tool": "fio", "flag": f}
                         for v, f in [(1.9e-4, None), (2.0e-4, None), (15.4, "implausible")]])
    ax = overview_plot(rows).axes[0]
    assert "1 implausible not shown" in ax.get_xlabel()
    assert ax.get_xlim()[1] < 1.0  # (ms: the 15,400 ms value is not on the axis)


def test_configurations_named_by_numbers_are_in_their_order():
    # (Percona's 201808 io1 campaign: files res_iops1000 ... res_iops30000 gave an axis
    # iops1000, iops10000, iops11000, ..., iops2000, iops20000, ...)
    names = ["iops10000", "iops2000", "iops30000", "iops300", "sz900", "sz1100"]
    data = pd.DataFrame([{"metric": "iops", "unit": "IO/s", "value": 100.0 + k, "test": "t",
                          "tool": "fio", "config": c} for k, c in enumerate(names)])
    ax = overview_plot(data).axes[0]
    ax.figure.canvas.draw()
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "iops300", "iops2000", "iops10000", "iops30000", "sz900", "sz1100"]
