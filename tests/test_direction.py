"""One direction rule (:func:`ebsstats.stats._core.metric_direction`) for regressions and the
member statistics: the override, else the ``higher_is_better`` column, else lower-is-better
for a latency, else the caller's fallback; a column holding both directions is refused."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ebsstats.stats import members
from ebsstats.stats._core import metric_direction
from ebsstats.stats.history import regressions

T0 = pd.Timestamp("2024-01-01", tz="UTC")


def _frame(values, start_day=0, metric="iops", hib=True) -> pd.DataFrame:
    values = np.asarray(values, dtype=float)
    return pd.DataFrame({"config": "gp3", "metric": metric,
                         "timestamp": T0 + pd.to_timedelta(start_day + np.arange(values.size),
                                                           unit="D"),
                         "value": values, "higher_is_better": hib})


@pytest.mark.parametrize(("frame", "override", "unknown", "expected"), [
    ({"metric": ["iops"], "higher_is_better": [False]}, None, None, False),  # the column
    ({"metric": ["clat_p99"], "higher_is_better": [True]}, None, None, True),  # over the name
    ({"metric": ["clat_p99"]}, None, True, False),  # a latency name
    ({"metric": ["score"], "unit": ["s"]}, None, True, False),  # a time unit
    ({"metric": ["score"]}, None, None, None),  # unknown: regressions' neutral verdict
    ({"metric": ["score"]}, None, True, True),  # unknown: the member statistics rank rates
    ({"higher_is_better": [True, False]}, False, None, False),  # an override settles a mix
    ({"higher_is_better": ["False", pd.NA]}, None, True, False),  # text read back from CSV
])
def test_metric_direction(frame, override, unknown, expected):
    assert metric_direction(pd.DataFrame(frame), override, unknown=unknown) is expected


def test_a_group_of_both_directions_is_refused_by_regressions_as_by_the_member_statistics():
    """The two copies differed here: members refused such rows, regressions reported them
    with ``higher_is_better`` None (``False`` for a latency name) and a pooled ratio. One metric
    labelled both ways pools different quantities (a PTS test's TPS and latency, both
    ``score``): regressions now leaves that group untested (its other groups are tested: one
    pooled group does not stop a CI check), the member statistics refuse it, unless
    ``higher_is_better=`` is given."""
    rng = np.random.default_rng(0)
    hist = pd.concat([_frame(1000 * np.exp(rng.normal(0, 0.02, 10)), hib=True),
                      _frame(1000 * np.exp(rng.normal(0, 0.02, 10)), start_day=10, hib=False)])
    new = _frame([1000.0], start_day=20)
    for h in (hist, hist.assign(metric="clat_p99")):
        r = regressions(pd.concat([h, hist.assign(config="other", higher_is_better=True)]),
                        pd.concat([new.assign(metric=h["metric"].iloc[0]),
                                   new.assign(config="other")]))
        mixed, other = r.set_index("config").loc[["gp3", "other"]].to_dict("records")
        assert mixed["verdict"] == ("not testable: rows mix higher- and lower-is-better "
                                    "metrics; filter to one metric")
        assert np.isnan(mixed["p_value"]) and mixed["higher_is_better"] is None
        assert other["verdict"] == "~" and other["p_value"] > 0.05  # (the others are tested)
    r = regressions(hist, new, higher_is_better=True).iloc[0]
    assert r["higher_is_better"] and r["verdict"] == "~"
    days = pd.date_range("2024-03-04", periods=2, freq="D", tz="UTC")
    m = pd.DataFrame([{"raid_set": "md0", "volume": f"v{k}", "timestamp": d, "metric": "iops",
                       "higher_is_better": k % 2 == 0, "value": 1000.0}
                      for k in range(4) for d in days])
    a = pd.DataFrame({"raid_set": "md0", "timestamp": days, "metric": "iops", "value": 4000.0})
    with pytest.raises(ValueError, match="mix higher- and lower-is-better"):
        members.array_check(m, a)


def test_regressions_direction_of_a_latency_without_the_column_and_of_an_unknown_metric():
    rng = np.random.default_rng(1)
    h = _frame(1000 * np.exp(rng.normal(0, 0.02, 20))).drop(columns="higher_is_better")
    new = _frame([1000.0], start_day=20).drop(columns="higher_is_better")
    assert regressions(h, new).iloc[0]["higher_is_better"] is None
    lat = regressions(h.assign(metric="clat_p99"), new.assign(metric="clat_p99")).iloc[0]
    assert lat["higher_is_better"] is not None and not lat["higher_is_better"]
