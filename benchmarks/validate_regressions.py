"""Validate ebsstats.regressions (ebsstats regress): false alarms and power, simulated and real.

Simulated histories: one run per day, log-normal noise with coefficient of variation ``cv``,
in four shapes — ``stable``; ``drift`` (-0.3 %/day, the new run continues the drift);
``changepoint`` (a -15 % step 40 % of the way before the end, the new run in the latest regime);
``outliers`` (10 % of history runs 30 % low, as from a noisy neighbour). For each history size
(10, 20, 30 runs at CV 3 %; 20 runs at CV 5 %) and new-side size (1 run; 3 runs on the
following day) it prints

* the false-alarm rate per group-run: the new run(s) come from the history's own latest level
  (unadjusted p-values, i.e. one group per call): ``reject_5pct`` is the two-sided rate
  (p < 5 %, either direction: the nominal 5 %), ``false_alarm`` the share flagged ``worse``
  (out of line, what fails a CI: about half of it);
* the detection rate of a 10 % step down (new runs × 0.9, flagged ``worse``).

Stable histories with a spurious changepoint (``--spurious`` histories per design, default
10 × ``--reps``): among the stable histories in which PELT (as :func:`regressions` runs it)
proposes a changepoint (``pelt_change`` of all), the share whose new run(s), from the same
distribution, are rejected at 5 % (``reject_5pct``), the share in which the permutation change
test (:func:`ebsstats.stats.changepoint.change_test`) confirmed the change (``confirmed``; times
``pelt_change``, at most 1 % of all stable histories in expectation, by construction) and in
which the row's regime is PELT's latest segment (``latest_segment``). When PELT's latest
segment was always the regime, 10-18 % were rejected (seed 22, 2000 histories per design).

Real repeated data (optional): ``--real PATH`` (a folder ``ebsstats.read`` understands or a
Parquet file): for each group with at least 21 runs in time order, each run from the 21st on is
checked against all runs before it (rolling, "leave-future-out"); with no known regression in
the data the out-of-line rate estimates the false-alarm rate on real noise.

    python benchmarks/validate_regressions.py [--reps 400] [--spurious 8000] [--trend 1500]
        [--real /work/realdata/...]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd

from ebsstats.stats.changepoint import changepoints
from ebsstats.stats.history import CHANGE_ALPHA, MIN_REGIME, _clip_outliers, regressions

SHAPES = ("stable", "drift", "changepoint", "outliers")


def _history(shape: str, n: int, cv: float, rng) -> np.ndarray:
    """Log values of days 0..n-1 and, last, the log level (no noise) of day n (the new runs)."""
    days = np.arange(n + 1, dtype=float)
    level = np.zeros(n + 1)
    if shape == "drift":
        level = np.log1p(-0.003) * days
    elif shape == "changepoint":
        k = int(round(0.6 * n))
        level[k:] = np.log(0.85)
    noise = rng.normal(0, np.sqrt(np.log1p(cv ** 2)), n + 1)
    if shape == "outliers":
        bad = rng.random(n + 1) < 0.10
        bad[-1] = False
        noise[bad] += np.log(0.7)
    out = level + noise
    out[-1] = level[-1]
    return out


def _frames(shape, n_hist, n_new, cv, step, reps, rng):
    t0 = pd.Timestamp("2024-01-01", tz="UTC")
    hist, new = [], []
    for r in range(reps):
        y = _history(shape, n_hist, cv, rng)
        t = t0 + pd.to_timedelta(np.arange(n_hist), unit="D")
        hist.append(pd.DataFrame({"config": f"g{r}", "timestamp": t,
                                  "value": 1000 * np.exp(y[:-1])}))
        yn = y[-1] + rng.normal(0, np.sqrt(np.log1p(cv ** 2)), n_new)  # latest level + noise
        tn = t0 + pd.Timedelta(days=n_hist) + pd.to_timedelta(np.arange(n_new) * 0.01, unit="D")
        new.append(pd.DataFrame({"config": f"g{r}", "timestamp": tn,
                                 "value": 1000 * np.exp(yn) * step}))
    h = pd.concat(hist, ignore_index=True).assign(higher_is_better=True)
    w = pd.concat(new, ignore_index=True).assign(higher_is_better=True)
    return h, w


def simulate(reps: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    cells = [(0.03, shape, n_hist, n_new) for shape in SHAPES for n_hist in (10, 20, 30)
             for n_new in (1, 3)]
    cells += [(0.05, shape, 20, n_new) for shape in SHAPES for n_new in (1, 3)]
    for cv, shape, n_hist, n_new in cells:
        rec = {"cv": cv, "shape": shape, "n_history": n_hist, "n_new": n_new}
        for label, step in (("false_alarm", 1.0), ("detect_10pct", 0.9)):
            h, w = _frames(shape, n_hist, n_new, cv, step, reps, rng)
            r = regressions(h, w, by="config", padjust="none")
            rec[label] = float(r["out_of_line"].mean())
            if step == 1.0:
                rec["reject_5pct"] = float((r["p_value"] < 0.05).mean())
                rec["changepoint_found"] = float(r["changepoint"].mean())
                rec["trend_found"] = float((r["trend_pct_per_day"] != 0).mean())
        rows.append(rec)
        print(rec, flush=True)
    return pd.DataFrame(rows)


def _pelt_proposes(y: np.ndarray) -> bool:
    """Does PELT, as :func:`regressions` runs it (outliers clipped, mbic, segments of >= 5
    runs), find a changepoint in the log history ``y``?"""
    if y.size < 2 * MIN_REGIME:
        return False
    return len(changepoints(_clip_outliers(y), penalty="mbic", min_size=MIN_REGIME)) > 1


def spurious(histories: int, seed: int) -> pd.DataFrame:
    """Stable histories in which PELT proposes a changepoint (all spurious): the share of them
    whose new runs, from the same distribution, are rejected at 5 % (two-sided, unadjusted) or
    flagged worse, the share in which the change test confirmed the change and in which the
    row's regime is PELT's latest segment."""
    rng = np.random.default_rng(seed)
    designs = [(0.03, n_hist, n_new) for n_hist in (10, 20, 30) for n_new in (1, 3)]
    designs += [(0.05, 20, n_new) for n_new in (1, 3)]
    rows = []
    for cv, n_hist, n_new in designs:
        h, w = _frames("stable", n_hist, n_new, cv, 1.0, histories, rng)
        hit = [c for c, g in h.groupby("config", sort=False)
               if _pelt_proposes(np.log(g["value"].to_numpy()))]
        rec = {"cv": cv, "n_history": n_hist, "n_new": n_new, "histories": histories,
               "pelt_change": len(hit) / histories, "groups": len(hit)}
        if hit:
            r = regressions(h[h["config"].isin(hit)], w[w["config"].isin(hit)], by="config",
                            padjust="none")
            rec.update(reject_5pct=float((r["p_value"] < 0.05).mean()),
                       false_alarm=float(r["out_of_line"].mean()),
                       confirmed=float((r["changepoint_p"] < CHANGE_ALPHA).mean()),
                       latest_segment=float(r["changepoint"].mean()),
                       trend_found=float((r["trend_pct_per_day"] != 0).mean()))
        rows.append(rec)
        print(rec, flush=True)
    return pd.DataFrame(rows)


def spurious_trend(histories: int, seed: int) -> pd.DataFrame:
    """Stable histories in which a line is fitted when every trend found is trusted (the rule
    before ``TREND_CONFIRM``: Mann–Kendall at 5 %, or BIC preferring a line to a flat history):
    the share of them whose new runs, from the same distribution, are rejected at 5 % under
    that rule (``reject_trusted``) and under the intersection–union rule :func:`regressions`
    follows (``reject``: a trend not confirmed at 1 % leaves the regime with and without it)."""
    from ebsstats.stats import history

    rng = np.random.default_rng(seed)
    rows = []
    for n_hist in (10, 20, 30):
        for n_new in (1, 3):
            h, w = _frames("stable", n_hist, n_new, 0.03, 1.0, histories, rng)
            now = regressions(h, w, by="config", padjust="none").set_index("config")
            keep, history.TREND_CONFIRM = history.TREND_CONFIRM, 1.0
            try:
                old = regressions(h, w, by="config", padjust="none").set_index("config")
            finally:
                history.TREND_CONFIRM = keep
            line = old["trend_pct_per_day"] != 0
            rec = {"n_history": n_hist, "n_new": n_new, "histories": histories,
                   "line_fitted": float(line.mean()), "groups": int(line.sum()),
                   "reject_trusted": float((old.loc[line, "p_value"] < 0.05).mean()),
                   "reject": float((now.loc[line[line].index, "p_value"] < 0.05).mean()),
                   "reject_all_trusted": float((old["p_value"] < 0.05).mean()),
                   "reject_all": float((now["p_value"] < 0.05).mean())}
            rows.append(rec)
            print(rec, flush=True)
    return pd.DataFrame(rows)


def family(reps: int, seed: int, groups: int = 10) -> float:
    """Holm across ``groups`` stable groups of 20 runs: rate of any false alarm per call."""
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(reps):
        h, w = _frames("stable", 20, 1, 0.03, 1.0, groups, rng)
        hits += bool(regressions(h, w, by="config")["out_of_line"].any())
    return hits / reps


def _load_real(path: str) -> pd.DataFrame:
    """A Parquet file, a folder ebsstats reads, or a folder of CSVs with ``Time`` (epoch s) and
    ``Value`` columns, one series per file (Leitner & Scheuner's bursting-cloud-instances)."""
    from pathlib import Path

    import ebsstats as es

    p = Path(path)
    csvs = sorted(p.glob("*.csv")) if p.is_dir() else []
    if csvs and {"Time", "Value"} <= set(pd.read_csv(csvs[0], nrows=1).columns):
        parts = []
        for f in csvs:
            d = pd.read_csv(f)
            parts.append(pd.DataFrame({"timestamp": pd.to_datetime(d["Time"], unit="s", utc=True),
                                       "value": d["Value"], "config": f.stem, "metric": "value",
                                       "flag": None}))
        return pd.concat(parts, ignore_index=True)
    return es.read_parquet(path) if path.endswith(".parquet") else es.read(path)


def real(path: str, start: int = 20) -> pd.DataFrame:
    df = _load_real(path)
    df = df[df["value"].notna() & (df["value"] > 0) & df["timestamp"].notna()]
    df = df[df["flag"].isna()] if "flag" in df.columns else df
    keys = [c for c in ("config", "test", "op", "metric") if c in df.columns]
    rows = []
    for key, g in df.groupby(keys, observed=True, dropna=False):
        g = g.sort_values("timestamp")
        if len(g) <= start:
            continue
        out = [bool(regressions(g.iloc[:k], g.iloc[k:k + 1], by=None, within=keys,
                                padjust="none")["out_of_line"].iloc[0])
               for k in range(start, len(g))]
        rows.append({**dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True)),
                     "runs": len(g), "checks": len(out), "out_of_line": float(np.mean(out))})
    return pd.DataFrame(rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--spurious", type=int, help="stable histories per design screened for a "
                    "spurious PELT changepoint (default 10 x reps; 0 skips)")
    ap.add_argument("--trend", type=int, default=0, help="stable histories per design for the "
                    "spurious-trend check (e.g. 1500; default 0 skips)")
    ap.add_argument("--real", help="folder or Parquet file of real repeated runs")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    t = time.time()
    res = simulate(args.reps, args.seed)
    with pd.option_context("display.width", 140, "display.max_rows", None):
        print(res.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
        print("\nworst false-alarm rate (flagged worse):", res["false_alarm"].max())
        st = res[res["shape"] == "stable"]["reject_5pct"]
        print(f"stable histories, two-sided rejection at 5 %: {st.min():.3f}-{st.max():.3f}")
        print(f"family-wise (Holm, 10 stable groups of 20 runs, one call): "
              f"{family(max(args.reps // 4, 50), args.seed + 1):.3f}")
        n_sp = 10 * args.reps if args.spurious is None else args.spurious
        if n_sp:
            sp = spurious(n_sp, args.seed + 2)
            print("\nstable histories in which PELT proposes a (spurious) changepoint:")
            print(sp.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
        if args.trend:
            tr = spurious_trend(args.trend, args.seed + 3)
            print("\nstable histories in which a line is fitted when every trend is trusted:")
            print(tr.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
            hit = tr["groups"]
            print("pooled: rejected at 5 %, trend trusted "
                  f"{np.average(tr['reject_trusted'], weights=hit):.3f}, intersection-union "
                  f"{np.average(tr['reject'], weights=hit):.3f} (of {int(hit.sum())} groups)")
        if args.real:
            r = real(args.real)
            print(r.to_string(index=False))
            if len(r):
                print("real: out-of-line rate over all checks:",
                      float(np.average(r["out_of_line"], weights=r["checks"])))
    print(f"({time.time() - t:.0f} s)")


if __name__ == "__main__":
    main()
