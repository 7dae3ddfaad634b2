"""Validate first_write, burst_check and steady_state on simulated data; prints the figures.

1. First-write coverage: an injected 5x first-write penalty (``ebsstats.simulate.model``) is
   inside the 95 % CI of ``first_write`` over many seeds, per evidence kind: ``offsets``
   (per-I/O fio logs with offsets, pass 0 random + pass 1 sequential), ``passes`` (bonnie++
   block write, first vs later runs) and ``bonnie`` (block write / rewrite, first vs later).
2. Burst: ``burst_check`` predicted depletion time vs the step observed on simulated long runs
   (gp2 of several sizes, st1, sc1): share within 10 %, and the plateau error.
3. Confusion: one synthetic per-I/O log per seed with a first-touch penalty, a burst bucket
   running dry, both, or neither (``synthetic_touch_log``): the attribution must match, the
   penalty CI must cover 5 when first touch is present, and the time of the step must be within
   10 % of the true depletion when the burst is present.
4. Flat series (iid and AR(1) noise, CV 3 %, 300 rounds) classified ``flat``; step series
   classified ``warmup`` / ``slowdown`` with the steady start within 5 % of the truth.

Usage: python benchmarks/validate_warmup.py [--seeds 200]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ebsstats.simulate.model import campaign
from ebsstats.stats.burst import burst_check
from ebsstats.stats.firstwrite import first_write, synthetic_touch_log
from ebsstats.stats.warmup import steady_state


def firstwrite_series(camp) -> pd.DataFrame:
    """The simulator's per-I/O first-write series as a series frame (clat, with offsets)."""
    s = camp.series
    s = s[s["pass"].notna() & s["offset"].notna()] if "offset" in s else s.iloc[:0]
    return pd.DataFrame({
        "run_id": s["config"] + "-pass" + s["pass"].astype(int).astype(str),
        "source": s["config"], "test": "firstwrite", "op": "write", "metric": "lat",
        "t": s["t_s"], "value": s["lat_s"], "unit": "s", "offset": s["offset"].astype("int64"),
        "block_size": 262144, "config": s["config"], "pass": s["pass"].astype(int).astype(str),
        "sampling": "per_io"})


def burst_series(camp) -> pd.DataFrame:
    """The simulator's burst-run windows as a series frame (iops; bandwidth for st1/sc1)."""
    s = camp.series
    s = s[s["bursting"].notna()] if "bursting" in s else s.iloc[:0]
    meta = {c.config: (c.volumes[0].volume_type, c.volumes[0].size_gib) for c in camp.configs}
    out = []
    for cfg, g in s.groupby("config"):
        vt, size = meta[cfg]
        if vt == "gp2":
            metric, v, unit, bs = "iops", g["iops"], "IO/s", 16384
        else:
            metric, v, unit, bs = "bandwidth", g["iops"] * 2**20, "B/s", 2**20
        out.append(pd.DataFrame({"run_id": cfg + "-burst", "op": "read", "metric": metric,
                                 "t": g["t_s"], "value": v, "unit": unit, "block_size": bs,
                                 "volume_type": vt, "size_gib": size, "config": cfg}))
    return pd.concat(out, ignore_index=True)


def check_firstwrite(seeds: int) -> dict:
    hits = {"offsets": [], "passes": [], "bonnie": []}
    est = {k: [] for k in hits}
    for seed in range(seeds):
        camp = campaign(seed, weeks=2, volume_types=["gp3", "io1"], tools=("fio", "bonnie++"),
                        first_write=5.0, offset_logs=2, fio_jobs=("randread-4k",))
        r = first_write(firstwrite_series(camp), evidence="offsets", log_metric="lat")
        fr = camp.frame.copy()
        r2 = first_write(fr[fr["tool"] == "bonnie++"], evidence=["passes", "bonnie"])
        r2 = r2[(r2["evidence"] == "bonnie") | (r2["test"] == "put_block")]
        for res in (r, r2):
            for row in res.itertuples():
                hits[row.evidence].append(row.penalty_ci_low <= 5.0 <= row.penalty_ci_high)
                est[row.evidence].append(row.penalty)
    return {k: (float(np.mean(v)), len(v), float(np.median(est[k]))) for k, v in hits.items()}


def check_firstwrite_exact(seeds: int) -> tuple[float, float, float, float]:
    """Offsets z-scores vs the exact OLS on the simulator's true first-touch indicator.

    The simulated per-I/O latencies are iid lognormal times 5 on first touches and a per-pass
    level, so OLS of log latency on the true indicator and the pass has an exact t interval:
    the reference for what coverage over a given set of seeds should look like.
    """
    import statsmodels.api as sm

    z, ze = [], []
    for seed in range(seeds):
        camp = campaign(seed, weeks=1, volume_types=["gp3", "io1"], tools=("fio",),
                        first_write=5.0, offset_logs=2, fio_jobs=("randread-4k",))
        r = first_write(firstwrite_series(camp), evidence="offsets", log_metric="lat")
        s = camp.series
        s = s[s["pass"].notna() & s["offset"].notna()]
        for row in r.itertuples():
            g = s[s["config"] == row.config]
            X = np.column_stack([np.ones(len(g)), g["first_touch"].astype(float),
                                 (g["pass"] == 1).astype(float)])
            f = sm.OLS(np.log(g["lat_s"].to_numpy()), X).fit()
            ze.append((f.params[1] - np.log(5)) / f.bse[1])
            se = np.log(row.penalty_ci_high / row.penalty_ci_low) / (2 * 1.959964)
            z.append((np.log(row.penalty) - np.log(5)) / se)
    z, ze = np.array(z), np.array(ze)
    return (float(np.mean(np.abs(z) < 1.959964)), float(z.std(ddof=1)),
            float(np.mean(np.abs(ze) < 1.959964)), float(ze.std(ddof=1)))


def check_burst(seeds: int) -> pd.DataFrame:
    rows = []
    for seed in range(seeds):
        gp2_size = [20, 50, 100, 200, 500][seed % 5]
        st_size = [500, 1000, 2000][seed % 3]
        camp = campaign(seed, weeks=1, volume_types=[{"type": "gp2", "size_gib": gp2_size},
                                                      {"type": "st1", "size_gib": st_size},
                                                      {"type": "sc1", "size_gib": st_size}],
                        tools=("fio",), burst=True, offset_logs=0)
        truth = {b["config"]: b["predicted_depletion_s"]
                 for b in camp.truth["effects"]["burst"]["runs"]}
        r = burst_check(burst_series(camp), as_of="2024-03-01")
        r["true_depletion_s"] = r["run_id"].str.replace("-burst", "").map(truth)
        rows.append(r)
    return pd.concat(rows, ignore_index=True)


def check_confusion(seeds: int) -> pd.DataFrame:
    burst = {"bucket": 2000.0, "baseline": 100.0, "slowdown": 4.0}
    cases = {"first_touch": {"factor": 5.0}, "time": {"factor": 1.0, "burst": burst},
             "both": {"factor": 5.0, "burst": burst}, "none": {"factor": 1.0}}
    rows = []
    for seed in range(seeds):
        for name, kw in cases.items():
            ts = synthetic_touch_log(seed=seed, **kw)
            r = first_write(ts, evidence="offsets").iloc[0]
            t_dep = ts.loc[~ts["true_bursting"], "t"].min() if "burst" in kw else np.nan
            rows.append({"case": name, "attribution": r["attribution"],
                         "penalty": r["penalty"], "naive": r["naive_ratio"],
                         "covers": r["penalty_ci_low"] <= kw["factor"] <= r["penalty_ci_high"],
                         "t_err": r["time_change_at"] / t_dep - 1 if "burst" in kw else np.nan})
    return pd.DataFrame(rows)


def check_flat(seeds: int) -> pd.DataFrame:
    rows = []
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        t = np.arange(1.0, 301.0)
        e = rng.normal(0, 0.03, 300)
        ar = np.empty(300)
        ar[0] = e[0]
        for i in range(1, 300):
            ar[i] = 0.3 * ar[i - 1] + e[i] * np.sqrt(1 - 0.09)
        step = np.where(t <= 100, 0.2, 1.0)
        for name, v, truth in (("iid", 1000 * np.exp(e), "flat"), ("ar1", 1000 * np.exp(ar), "flat"),
                               ("warmup", 1000 * step * np.exp(e), "warmup"),
                               ("slowdown", 1000 / step * np.exp(e), "slowdown")):
            ts = pd.DataFrame({"t": t, "value": v, "metric": "iops", "unit": "IO/s"})
            r = steady_state(ts, by="metric").iloc[0]
            rows.append({"case": name, "truth": truth, "klass": r["klass"],
                         "start_err": (r["steady_start"] - 101) / 101 if truth != "flat"
                         else np.nan, "snia": r["snia_steady"]})
    return pd.DataFrame(rows)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=200)
    a = ap.parse_args(argv)
    t0 = time.time()
    print(f"== first-write coverage ({a.seeds} seeds, injected penalty 5x, 95 % CI)")
    for k, (cov, n, med) in check_firstwrite(a.seeds).items():
        print(f"  {k:8s} coverage {cov:.3f} over {n} estimates; median estimate {med:.3f}")
    c, sd, ce, sde = check_firstwrite_exact(a.seeds)
    print(f"  offsets, 1-week campaigns: coverage {c:.3f}, z-score SD {sd:.3f}; exact OLS on the "
          f"true first-touch indicator, same seeds: coverage {ce:.3f}, z SD {sde:.3f}")
    print(f"== burst depletion ({a.seeds} seeds; gp2 20-500 GiB, st1/sc1 0.5-2 TiB)")
    b = check_burst(a.seeds)
    b["err"] = b["observed_depletion_s"] / b["predicted_depletion_s"] - 1
    b["err_truth"] = b["predicted_depletion_s"] / b["true_depletion_s"] - 1
    for vt, g in b.groupby("volume_type"):
        print(f"  {vt}: n={len(g)}, |observed/predicted - 1| <= 10 % in "
              f"{(g['err'].abs() <= 0.10).mean():.3f}; median |err| {g['err'].abs().median():.4f};"
              f" max {g['err'].abs().max():.4f}; predicted vs simulator truth max |err| "
              f"{g['err_truth'].abs().max():.4f}; plateau median |err| "
              f"{g['plateau_rel_error'].abs().median():.3f}")
    print(f"== first touch vs burst ({a.seeds} seeds per case)")
    c = check_confusion(a.seeds)
    for case, g in c.groupby("case", sort=False):
        print(f"  {case:11s} attribution correct {(g['attribution'] == case).mean():.3f}; "
              f"CI covers truth {g['covers'].mean():.3f}; median penalty "
              f"{g['penalty'].median():.3f} (naive ratio of medians {g['naive'].median():.3f})"
              + (f"; step time within 10 % {(g['t_err'].abs() <= 0.10).mean():.3f}"
                 if g["t_err"].notna().any() else ""))
    print(f"== steady-state classification ({a.seeds} seeds per case, 300 rounds, CV 3 %)")
    f = check_flat(a.seeds)
    for case, g in f.groupby("case", sort=False):
        print(f"  {case:9s} classified {g['truth'].iloc[0]} in "
              f"{(g['klass'] == g['truth']).mean():.3f}"
              + (f"; steady start within 5 % in {(g['start_err'].abs() <= 0.05).mean():.3f}"
                 if g["start_err"].notna().any() else "")
              + f"; SNIA steady at end {g['snia'].mean():.3f}")
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
