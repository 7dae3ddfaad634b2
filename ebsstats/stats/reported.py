"""What can honestly be said from published summaries (a mean and a maximum deviation).

Published benchmark tables rarely give the runs: seed 003 prints, per configuration, the PTS score
(the mean of its runs) and "the maximum deviation from the average by one or more test runs". No
distribution can be rebuilt from that, and ebsstats never invents runs. Two things can still be
said without assumptions beyond "every run lies within score ± deviation":

* **bounds on the ratio** of two configurations' run values: any run of A divided by any run of B
  lies in ``[(a − e_a)/(b + e_b), (a + e_a)/(b − e_b)]`` — so does the ratio of their medians,
  or of their means. These are hard bounds, not a confidence interval;
* **the best p-value the data could ever give**: with ``n`` runs per side, even complete
  separation of the two samples gives a two-sided Mann–Whitney p of ``2 / C(2n, n)`` (0.10 for
  PTS's default of 3 runs), so no rank test at α = 0.05 can call any difference significant —
  before any correction for the many comparisons of a table.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ebsstats.stats._core import direction_or_reason, direction_word, min_p

__all__ = ["compare_reported", "best_possible_p"]


def best_possible_p(n_a: int, n_b: int | None = None) -> float:
    """Smallest two-sided exact Mann–Whitney p-value for samples of sizes ``n_a`` and ``n_b``:
    complete separation, ``2 / C(n_a + n_b, n_a)``.

    >>> round(best_possible_p(3), 3), round(best_possible_p(5), 4)
    (0.1, 0.0079)
    """
    return min_p(n_a, n_a if n_b is None else n_b)


def compare_reported(data: pd.DataFrame, by: str = "config", baseline: str | None = None, *,
                     within: Sequence[str] = ("test",), score: str = "score",
                     spread: str = "score_max_deviation", n_runs: int = 3,
                     alpha: float = 0.05) -> pd.DataFrame:
    """Compare configurations of a published table given only score ± maximum deviation.

    Parameters
    ----------
    data : DataFrame
        Tidy rows of a published table (``tool == "table"``) with a ``score`` metric and its
        ``score_max_deviation`` row per configuration (see :mod:`ebsstats.io.published`).
    by, baseline : str
        Column naming configurations, and the one to compare against (default: the first).
    within : sequence of str
        Columns that separate comparisons (default: the test).
    n_runs : int
        Runs behind each score (PTS runs 3 by default, more when its dynamic run count adds
        some); only used for ``best_p``.

    Returns
    -------
    DataFrame
        Per (test, configuration): ``score``, ``deviation``, ``score_baseline``,
        ``deviation_baseline``, ``ratio`` (of scores), ``ratio_bound_low``/``_high`` (hard bounds
        on the ratio of any runs), ``ranges_overlap``, ``best_p`` (smallest attainable two-sided
        Mann–Whitney p), ``verdict`` (``separated`` / ``overlapping`` and whether ``better`` or
        ``worse`` per ``higher_is_better``), ``note``. A comparison whose scores'
        ``higher_is_better`` holds both True and False (a test's TPS and its latency) is not
        made: NaN ratio and bounds, verdict and note ``not testable: rows mix …``; the other
        comparisons are.

    Examples
    --------
    >>> df = pd.DataFrame({"test": "t", "config": ["a", "a", "b", "b"],
    ...                    "metric": ["score", "score_max_deviation"] * 2,
    ...                    "value": [10.0, 0.5, 12.0, 0.2], "higher_is_better": True})
    >>> r = compare_reported(df, baseline="a").iloc[0]
    >>> float(round(r["ratio"], 3)), float(round(r["ratio_bound_low"], 3)), r["verdict"]
    (1.2, 1.124, 'separated, better')
    """
    within = [w for w in within if w in data.columns]
    d = data[data["metric"].isin([score, spread])]
    wide = d.pivot_table(index=[*within, by], columns="metric", values="value",
                         aggfunc="first", observed=True).reset_index()
    if spread not in wide:
        wide[spread] = np.nan
    hib = _directions(d[d["metric"] == score], within)
    rows = []
    for key, g in (wide.groupby(within, sort=False, observed=True) if within else [((), wide)]):
        configs = g[by].tolist()
        base = baseline if baseline is not None else configs[0]
        if base not in configs:
            continue
        b = g[g[by] == base].iloc[0]
        sb, eb = float(b[score]), float(b[spread]) if pd.notna(b[spread]) else 0.0
        for _, r in g.iterrows():
            if r[by] == base:
                continue
            s, e = float(r[score]), float(r[spread]) if pd.notna(r[spread]) else 0.0
            low = (s - e) / (sb + eb) if sb + eb > 0 else np.nan
            high = (s + e) / (sb - eb) if sb - eb > 0 else np.inf
            overlap = not (s - e > sb + eb or s + e < sb - eb)
            k = key if isinstance(key, tuple) else (key,)
            up = hib.get(k)
            verdict = ("overlapping" if overlap else
                       "separated, " + direction_word(float(np.sign(s - sb)), up))
            row = dict(zip(within, k, strict=True))
            row.update({by: r[by], "baseline": base, "score": s, "deviation": e,
                        "score_baseline": sb, "deviation_baseline": eb, "ratio": s / sb,
                        "ratio_bound_low": low, "ratio_bound_high": high,
                        "ranges_overlap": overlap, "best_p": best_possible_p(n_runs),
                        "verdict": verdict})
            if isinstance(up, str):  # (scores of opposite direction: no ratio, no verdict)
                row.update(ratio=np.nan, ratio_bound_low=np.nan, ratio_bound_high=np.nan,
                           ranges_overlap=None, verdict=up)
            rows.append(row)
    out = pd.DataFrame(rows)
    if len(out):
        p = best_possible_p(n_runs)
        out["note"] = (f"bounds, not a CI; with {n_runs} runs per side no rank test can reach "
                       f"p < {p:.3g}" + (" (never significant at α = "
                                         f"{alpha:g})" if p > alpha else ""))
        untested = out["verdict"].str.startswith("not testable").to_numpy(bool)
        out.loc[untested, "note"] = out.loc[untested, "verdict"]
    return out


def _directions(scores: pd.DataFrame, within: list[str]) -> dict[tuple, bool | None | str]:
    """Whether higher is better in each comparison (the ``within`` columns' values), by the
    project's one rule (:func:`ebsstats.stats._core.metric_direction`: the ``higher_is_better``
    of its score rows, else a latency unit; ``None`` when unknown: ``higher``/``lower``
    verdicts), or, when those rows are labelled both ways, the reason it is not tested."""
    out: dict[tuple, bool | None | str] = {}
    groups = scores.groupby(within, sort=False, observed=True) if within else [((), scores)]
    for key, g in groups:
        k = key if isinstance(key, tuple) else (key,)
        hib, why = direction_or_reason(g)  # (why: a PTS test's TPS and latency, both 'score')
        out[k] = why or hib
    return out
