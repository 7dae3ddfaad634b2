"""False-positive rates and power of the library's verdicts, on real data and the messy simulator.

Per test (drift weekday, drift hour, compare, first_write, burst_check) this prints

* the false-positive rate under a *design-respecting permutation of real data* (values shuffled
  within each day for hour effects, whole days moved between dates for weekday effects, group
  labels shuffled for compare, pass order shuffled for first_write, time order shuffled for
  burst_check: each destroys exactly the effect under test and keeps everything else);
* the false-positive rate on the messy simulator (unbalanced back-to-back days, one fresh volume
  per run, duty-cycled burst sampling: ``ebsstats.simulate`` options ``day_runs``,
  ``fresh_volume_per_run``, ``burst_duty``);
* the power at typical designs (4 weeks × ~6 runs a day for drift, 10 runs per side for compare,
  1 + 5 passes for first_write, a gp2 volume sampled 60 s every 384 s for burst_check).

The real data are not shipped (no licence): fetch the online appendix of Leitner & Scheuner,
"Bursting With Possibilities" (IEEE CLOUD 2016), github.com/sealuzh/bursting-cloud-instances,
and pass its ``data/`` folder (CSV: Benchmark Start Time, Provider Name, Provider VM Id,
VM Role, Time (epoch s), Value; one fresh EC2 instance per run, every ~2 h for 2–8 days)::

    python benchmarks/validate_verdicts.py /work/realdata/bursting-cloud-instances [--quick]
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time
import warnings

import numpy as np
import pandas as pd

from ebsstats.simulate.model import Spec, campaign_frame
from ebsstats.stats.burst import burst_check
from ebsstats.stats.calendar import drift_test
from ebsstats.stats.comparison import compare
from ebsstats.stats.firstwrite import first_write

warnings.simplefilter("ignore")
ALPHA = 0.05


def load_real(path: str) -> dict[str, pd.DataFrame]:
    out = {}
    for f in sorted(glob.glob(os.path.join(path, "*.csv"))):
        name = os.path.basename(f)[:-4]
        if "longterm" in name:
            continue
        d = pd.read_csv(f)
        d = pd.DataFrame({"timestamp": pd.to_datetime(d["Time"], unit="s", utc=True),
                          "value": d["Value"].astype(float),
                          "volume": d["Provider VM Id"].astype(str), "config": name})
        out[name] = d[d["value"] > 0].sort_values("timestamp").reset_index(drop=True)
    return out


def shuffle_within_day(d: pd.DataFrame, rng) -> pd.DataFrame:
    d = d.copy()
    for idx in d.groupby(d.timestamp.dt.floor("D")).groups.values():
        d.loc[idx, "value"] = rng.permutation(d.loc[idx, "value"].to_numpy())
    return d


def move_days(d: pd.DataFrame, rng) -> pd.DataFrame:
    """Whole days moved to other dates (times of day kept): no weekday effect survives."""
    day = d.timestamp.dt.floor("D")
    days = np.sort(day.unique())
    target = dict(zip(days, rng.permutation(days), strict=True))
    return d.assign(timestamp=d.timestamp - day + day.map(target))


def rate(hits: list[bool]) -> str:
    if not hits:
        return "   n/a"
    return f"{np.mean(hits):6.3f} ({sum(hits)}/{len(hits)})"


# --------------------------------------------------------------------------------------------
# drift


def _record(res: dict, tests: pd.DataFrame, factor: str, key: str) -> None:
    """Append whether ``factor`` was flagged, or count it as not testable."""
    row = tests[tests.factor == factor]
    if len(row) and np.isfinite(row.p_value.iloc[0]):
        res[key].append(bool(row.p_adjusted.iloc[0] < ALPHA))
    else:
        res[key + "_nt"].append(True)


def drift_rates(frames, reps, rng, n_perm) -> dict[str, list]:
    res = {k: [] for k in ("weekday", "hour", "hour_asym", "weekday_nt", "hour_nt",
                           "hour_asym_nt")}
    for d in frames:
        for _ in range(reps):
            _record(res, drift_test(shuffle_within_day(d, rng), tz="UTC",
                                    n_permutations=n_perm), "hour", "hour")
            _record(res, drift_test(shuffle_within_day(d, rng), tz="UTC", n_permutations=0),
                    "hour", "hour_asym")
            _record(res, drift_test(move_days(d, rng), tz="UTC", n_permutations=n_perm),
                    "weekday", "weekday")
    return res


def sim_runs(seed, weeks=4, day_runs=(1, 23), drift=None, fresh=True):
    f = campaign_frame(seed, weeks=weeks, volume_types=["gp3"], tools=("fio",),
                       fio_jobs=("randread-4k",), offset_logs=0, day_runs=day_runs,
                       fresh_volume_per_run=fresh, drift=drift)
    f = f[(f.metric == "iops") & (f.stage == "run") & (f.op == "read")]
    return f[["timestamp", "value", "volume", "config"]].reset_index(drop=True)


def drift_power(seeds, n_perm, day_runs=(6, 6)):
    """One weekday 10 % slower / hours 00-04 10 % slower (4 weeks, 6 runs a day)."""
    wd, hr = [], []
    for s in seeds:
        t = drift_test(sim_runs(s, day_runs=day_runs, drift={"weekday": [1] * 6 + [0.9]}),
                       tz=Spec.tz, n_permutations=n_perm)  # (the zone the simulator's effects
        # follow: its region's; UTC before generator version 3)
        wd.append(bool(t.loc[t.factor == "weekday", "p_adjusted"].iloc[0] < ALPHA))
        hours = [0.9] * 4 + [1.0] * 20
        t = drift_test(sim_runs(1000 + s, day_runs=day_runs, drift={"hour": hours}), tz=Spec.tz,
                       n_permutations=n_perm)
        hr.append(bool(t.loc[t.factor == "hour", "p_adjusted"].iloc[0] < ALPHA))
    return wd, hr


# --------------------------------------------------------------------------------------------
# compare, first_write, burst_check


def compare_null(d: pd.DataFrame, rng) -> bool:
    lab = rng.permutation(np.r_[np.zeros(len(d) // 2), np.ones(len(d) - len(d) // 2)])
    c = compare(d.assign(config=np.where(lab == 0, "a", "b")), baseline="a", n_boot=0)
    return bool((c.verdict != "~").any())


def compare_power(seeds, n=10, effect=1.10, sigma=0.10):
    hits = []
    for s in seeds:
        r = np.random.default_rng(s)
        v = np.exp(np.r_[r.normal(0, sigma, n), r.normal(np.log(effect), sigma, n)])
        c = compare(pd.DataFrame({"config": ["a"] * n + ["b"] * n, "value": v,
                                  "higher_is_better": True}), baseline="a", n_boot=0)
        hits.append(bool(c.verdict.iloc[0] == "better"))
    return hits


def firstwrite_null(d: pd.DataFrame, rng, k=6) -> bool:
    """Runs in random order, in groups of k, as passes of pseudo-volumes."""
    v = rng.permutation(d["value"].to_numpy())
    m = len(v) // k * k
    df = pd.DataFrame({"volume": np.repeat(np.arange(m // k), k), "test": "t", "op": "read",
                       "metric": "iops", "value": v[:m], "pass": np.tile(np.arange(k), m // k)})
    r = first_write(df, evidence="passes")
    return bool(r["detected"].astype(bool).any()) if len(r) else False


def firstwrite_power(seeds, factor=2.0, sigma=0.10):
    hits = []
    for s in seeds:
        r = np.random.default_rng(s)
        v = np.exp(r.normal(0, sigma, 6))
        v[0] /= factor
        res = first_write(pd.DataFrame({"volume": "v", "test": "t", "op": "write",
                                        "metric": "iops", "value": v, "pass": range(6)}),
                          evidence="passes")
        hits.append(bool(res["detected"].iloc[0]))
    return hits


def as_series(values, spacing, vt="gp2", size=20.0) -> pd.DataFrame:
    return pd.DataFrame({"run_id": "s", "op": "read", "metric": "iops",
                         "t": np.arange(len(values)) * spacing, "value": values,
                         "volume_type": vt, "size_gib": size})


def burst_null_real(d: pd.DataFrame, rng) -> bool:
    v = rng.permutation(d["value"].to_numpy())
    r = burst_check(as_series(v, 7200.0), as_of="2015-05-01", duty_cycle=600 / 7200)
    return bool(r["depleted"].iloc[0]) if len(r) else False


def sim_duty_series(seed, size=100.0):
    f = campaign_frame(seed, weeks=1, volume_types=[{"type": "gp2", "size_gib": size}],
                       tools=("fio",), fio_jobs=("randread-4k",), offset_logs=0, burst=True,
                       burst_duty=(60, 384))
    d = f[(f.stage == "burst_duty") & (f.metric == "iops")].sort_values("start")
    return d["value"].to_numpy(), float(d["size_gib"].iloc[0])


def burst_sim(seeds):
    fp, power, err = [], [], []
    for s in seeds:
        v, size = sim_duty_series(s)
        before = v[:40]  # well inside the burst: nothing to find
        fp.append(bool(burst_check(as_series(before, 384.0, size=size), as_of="2024-01-01",
                                   duty_cycle=60 / 384)["depleted"].iloc[0]))
        r = burst_check(as_series(v, 384.0, size=size), as_of="2024-01-01",
                        duty_cycle=60 / 384).iloc[0]
        power.append(bool(r["depleted"]))
        err.append(float(r["depletion_rel_error"]))
    return fp, power, err


# --------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", help="folder with the bursting-cloud-instances CSV files")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    args = ap.parse_args(argv)
    real = load_real(args.data)
    if not real:
        print(f"no CSV files in {args.data}", file=sys.stderr)
        return 1
    reps = 2 if args.quick else 6
    nsim = 6 if args.quick else 30
    n_perm = 199
    rng = np.random.default_rng(2026)
    t0 = time.time()
    frames = list(real.values())
    print(f"real data: {len(frames)} series, {sum(map(len, frames))} runs "
          f"({min(map(len, frames))}-{max(map(len, frames))} per series), "
          f"{min(f.timestamp.dt.date.nunique() for f in frames)}-"
          f"{max(f.timestamp.dt.date.nunique() for f in frames)} days each")
    print(f"alpha {ALPHA}; randomization tests with {n_perm} permutations\n")

    dr = drift_rates(frames, reps, rng, n_perm)
    print("drift hour    real, values shuffled within day : FP", rate(dr["hour"]),
          f"| not testable {len(dr['hour_nt'])}")
    print("              same, asymptotic only (n_permutations=0): FP", rate(dr["hour_asym"]))
    print("drift weekday real, whole days moved           : FP", rate(dr["weekday"]),
          f"| not estimable {len(dr['weekday_nt'])} (fewer than 2 days of some weekday)")
    sims = [sim_runs(s) for s in range(nsim)]
    ds = drift_rates(sims, 1, rng, n_perm)
    print("drift hour    messy sim (1-23 runs/day, fresh volume per run): FP", rate(ds["hour"]),
          f"| asymptotic only {rate(ds['hour_asym'])}")
    print("drift weekday messy sim: FP", rate(ds["weekday"]))
    nullsim = [drift_test(s, tz="UTC", n_permutations=n_perm) for s in sims]
    print("drift any     messy sim, unshuffled null campaigns: FP",
          rate([bool((t.p_adjusted < ALPHA).any()) for t in nullsim]))
    pw, ph = drift_power(range(nsim), n_perm)
    print("drift power   4 weeks x 6 runs/day, Sunday -10 %:", rate(pw),
          "| hours 00-04 -10 %:", rate(ph))
    print()

    print("compare       real, labels shuffled (half/half): FP",
          rate([compare_null(d, rng) for d in frames for _ in range(reps * 3)]))
    cs = [compare_null(s, rng) for s in sims]
    print("compare       messy sim, labels shuffled: FP", rate(cs))
    print("compare power 10 vs 10 runs, +10 %, sigma 10 %:", rate(compare_power(range(200))))
    print()
    print("first_write   real, runs as passes of pseudo-volumes (6 passes): FP",
          rate([firstwrite_null(d, rng) for d in frames for _ in range(reps * 3)]))
    print("first_write   messy sim, same: FP",
          rate([firstwrite_null(s, rng) for s in sims]))
    print("first_write power 1 + 5 passes, 2x penalty, sigma 10 %:",
          rate(firstwrite_power(range(200))))
    print()
    print("burst_check   real, time order shuffled (a series with no edge): FP",
          rate([burst_null_real(d, rng) for d in frames for _ in range(reps)]))
    fp, pw_b, err = burst_sim(range(max(nsim // 3, 3)))
    e = np.abs(np.asarray(err, float))
    print("burst_check   messy sim (gp2 100 GiB, 60 s every 384 s), inside the burst only: FP",
          rate(fp))
    print("burst_check   power (edge found):", rate(pw_b),
          f"| |depletion error| median {np.nanmedian(e):.3f}, max {np.nanmax(e):.3f}")
    print(f"\n{time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
