"""ebsstats.app.notebook.table: what a report page's table shows."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ebsstats.app.notebook import table
from ebsstats.stats.history import regressions


def test_an_untested_groups_reason_is_shown_once_not_as_verdict_and_warning():
    """Page 07 of a campaign whose groups have no history (chris-sanders' ceph: 48 groups,
    0 history runs each) printed each "not testable: ..." in the verdict and again in the
    warning column."""
    t0 = pd.Timestamp("2024-03-04", tz="UTC")
    hist = pd.DataFrame({"config": "a", "metric": "iops", "value": 1000.0,
                         "timestamp": t0 + pd.to_timedelta(np.arange(3), unit="D")})
    new = pd.DataFrame({"config": ["a", "b"], "metric": "iops", "value": 990.0,
                        "timestamp": t0 + pd.Timedelta(days=3)})
    r = regressions(hist, new)
    assert (r["verdict"] == r["warning"]).all()  # (both say why no test ran)
    html = table(r, columns=["config", "n_history", "verdict", "warning"]).data
    assert html.count("not testable: 3 history run(s)") == 1
    assert html.count("not testable: 0 history run(s)") == 1
    assert ">warning<" not in html  # (nothing else to warn of: the column is left out)
