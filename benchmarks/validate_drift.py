"""Validate ebsstats.drift on simulated campaigns; prints the figures (about 3–4 min on 2 cores).

1. Coverage: injected weekday and 4-hour-bin effects inside their 95 % CIs (per level, over seeds).
2. False positives: campaigns without drift flagged ("drift" verdict) in <= alpha of seeds.
3. MDE: the reported weekday MDE vs the effect size at which the omnibus test reaches 80 % power
   in simulation (within 20 %).

Each campaign: 4 weeks, runs at uniformly random UTC times, 4 volumes (random effects, SD 5 %),
lognormal noise sigma = 10 %, day-level shocks SD 3 % (a "bad day"). The generator is private
here until ``ebsstats.simulate`` exists.

Usage: python benchmarks/validate_drift.py [--seeds 200]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ebsstats.drift import _analyse  # noqa: E402

WEEKDAY_EFF = np.log([1.00, 1.01, 1.02, 1.00, 0.99, 1.04, 0.95])       # Mon..Sun
HOURBIN_EFF = np.log([1.03, 1.02, 1.00, 0.97, 0.98, 1.00])             # 00-04 .. 20-24


def campaign(rng, *, days=28, runs_per_day=6, sigma=0.10, day_sd=0.03, n_volumes=4,
             vol_sd=0.05, weekday_eff=None, hourbin_eff=None):
    """Tidy frame of one simulated campaign (start Monday 2024-01-01 00:00 UTC)."""
    n = days * runs_per_day
    day = np.repeat(np.arange(days), runs_per_day)
    hour_f = rng.uniform(0, 24, n)
    ts = pd.Timestamp("2024-01-01", tz="UTC") + pd.to_timedelta(day * 24 + hour_f, unit="h")
    vol = rng.integers(0, n_volumes, n)
    y = (np.log(1000.0) + rng.normal(0, sigma, n) + rng.normal(0, day_sd, days)[day]
         + rng.normal(0, vol_sd, n_volumes)[vol])
    if weekday_eff is not None:
        y += weekday_eff[day % 7]
    if hourbin_eff is not None:
        y += hourbin_eff[(hour_f // 4).astype(int)]
    return pd.DataFrame({"timestamp": ts, "volume": [f"vol-{v}" for v in vol],
                         "value": np.exp(y)})


def fit(df, **kw):
    return _analyse(df, "value", "timestamp", None, "volume", "UTC", None, kw.pop("hour_bins", 6),
                    kw.pop("cov", "cluster"), None, 0.95, 0.05, 0.8, "holm")


def coverage(seeds, rng):
    wd_true = WEEKDAY_EFF - WEEKDAY_EFF.mean()
    hb_true = HOURBIN_EFF - HOURBIN_EFF.mean()
    hits = {"weekday": [], "hour": []}
    for _ in range(seeds):
        eff, _ = fit(campaign(rng, weekday_eff=WEEKDAY_EFF, hourbin_eff=HOURBIN_EFF))
        for name, truth in (("weekday", wd_true), ("hour", hb_true)):
            e = eff[eff.factor == name].sort_values("level_index")
            tr = np.exp(truth[e.level_index.to_numpy() // (4 if name == "hour" else 1)])
            hits[name].append(((e.ratio_ci_low < tr) & (tr < e.ratio_ci_high)).to_numpy())
    return {k: np.concatenate(v).mean() for k, v in hits.items()}


def null_rate(seeds, rng, **kw):
    flagged, per_factor = 0, {"weekday": 0, "hour": 0}
    for _ in range(seeds):
        _, t = fit(campaign(rng), **kw)
        flagged += bool((t.p_adjusted < 0.05).any())
        for f in per_factor:
            per_factor[f] += bool((t.loc[t.factor == f, "p_value"] < 0.05).any())
    return flagged / seeds, {k: v / seeds for k, v in per_factor.items()}


def mde_check(seeds, rng):
    """Reported weekday MDE at no drift vs the simulated 80 %-power effect (one day drifts)."""
    reported = []
    for _ in range(seeds):
        _, t = fit(campaign(rng))
        reported.append(t.loc[t.factor == "weekday", "mde_pct"].iloc[0])
    rep = float(np.mean(reported))
    grid = rep / 100 * np.array([0.6, 0.8, 1.0, 1.2, 1.4])
    powers = []
    for g in grid:
        hits = 0
        for s in range(seeds):
            eff = np.zeros(7)
            eff[s % 7] = np.log1p(g)   # one weekday (rotating) deviates by a factor 1 + g
            _, t = fit(campaign(rng, weekday_eff=eff))
            hits += bool(t.loc[t.factor == "weekday", "p_adjusted"].iloc[0] < 0.05)
        powers.append(hits / seeds)
    powers = np.array(powers)
    sim = float(np.interp(0.8, powers, grid * 100)) if powers.max() >= 0.8 else np.nan
    return rep, sim, dict(zip(np.round(grid * 100, 2), powers, strict=True))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=200)
    a = ap.parse_args(argv)
    rng = np.random.default_rng(20240101)
    t0 = time.time()
    cov = coverage(a.seeds, rng)
    print(f"coverage of 95 % CIs over {a.seeds} seeds: weekday {cov['weekday']:.3f}, "
          f"4-hour bins {cov['hour']:.3f}   [{time.time() - t0:.0f} s]")
    for c in ("cluster", "hc3"):
        fp, per = null_rate(a.seeds, rng, cov=c)
        print(f"null campaigns flagged as drift (Holm, alpha 0.05), cov={c}: {fp:.3f}; "
              f"unadjusted per factor: weekday {per['weekday']:.3f}, hour {per['hour']:.3f}"
              f"   [{time.time() - t0:.0f} s]")
    rep, sim, curve = mde_check(a.seeds, rng)
    print(f"weekday MDE: reported (mean) {rep:.2f} %, simulated 80 %-power effect {sim:.2f} % "
          f"(ratio {rep / sim:.3f}); power curve {curve}   [{time.time() - t0:.0f} s]")


if __name__ == "__main__":
    main()
