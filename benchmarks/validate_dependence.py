"""Ratio-of-medians CIs of ``compare`` when successive runs are autocorrelated.

Generator (not ``ebsstats.simulate``): each group is a stationary Gaussian AR(1) series on the
log scale (innovation sd 0.10), ``value = 1000 exp(e_t)``, in a ``repetition`` column, and the
two groups have the same distribution (true ratio of medians 1). For lag-1 autocorrelation
ρ = 0 / 0.5 / 0.8 and n = 10, 20, 40 runs per side the script prints

* coverage of the i.i.d. bootstrap ratio CI (``ratio_ci_low/high``: the CI before the check),
* coverage of the dependence-robust effective-n CI (``ratio_ci_low_dep/high_dep``),
* coverage of the CI the verdict uses with ``dependence="auto"`` (robust only where a group is
  flagged dependent),
* the share of comparisons warned "runs not independent" (at ρ = 0: the false-warning rate),
* false verdicts (better/worse although nothing differs) with ``dependence="ignore"`` (today's
  behaviour) and ``"auto"``.

    python benchmarks/validate_dependence.py [--reps 400] [--n-boot 999]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from ebsstats.stats.comparison import compare

try:  # run as a script (benchmarks/ on sys.path) or imported as benchmarks.validate_dependence
    from _noise import ar1
except ImportError:  # pragma: no cover
    from benchmarks._noise import ar1

SD = 0.10  # innovation sd of the AR(1) log-values




def cell(rho: float, n: int, reps: int, n_boot: int, seed: int) -> dict:
    rng = np.random.default_rng([seed, int(rho * 10), n])
    cov = {"iid": 0, "dep": 0, "auto": 0}
    warned = false_ignore = false_auto = 0
    for i in range(reps):
        df = pd.DataFrame({"config": ["a"] * n + ["b"] * n,
                           "repetition": list(range(1, n + 1)) * 2,
                           "value": np.r_[ar1(n, rho, rng, SD), ar1(n, rho, rng, SD)],
                           "higher_is_better": True})
        r = compare(df, baseline="a", n_boot=n_boot, seed=i).iloc[0]
        flagged = isinstance(r["warning"], str) and "runs not independent" in r["warning"]
        cov["iid"] += r["ratio_ci_low"] <= 1 <= r["ratio_ci_high"]
        cov["dep"] += r["ratio_ci_low_dep"] <= 1 <= r["ratio_ci_high_dep"]
        lo, hi = ((r["ratio_ci_low_dep"], r["ratio_ci_high_dep"]) if flagged
                  else (r["ratio_ci_low"], r["ratio_ci_high"]))
        cov["auto"] += lo <= 1 <= hi
        warned += flagged
        false_auto += r["verdict"] != "~"
        # today's verdict: the same p-value gate without the dependence check
        # today's verdict: unflagged rows keep it, flagged rows are recomputed without the check
        false_ignore += r["verdict"] != "~" or (flagged and _iid_verdict(df, n_boot, i) != "~")
    return {"rho": rho, "n": n, **{k: v / reps for k, v in cov.items()},
            "warned": warned / reps, "false_ignore": false_ignore / reps,
            "false_auto": false_auto / reps}


def _iid_verdict(df, n_boot, seed) -> str:
    return compare(df, baseline="a", n_boot=n_boot, seed=seed, dependence="ignore")[
        "verdict"].iloc[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--n-boot", type=int, default=999)
    ap.add_argument("--seed", type=int, default=16)
    a = ap.parse_args()
    t0 = time.time()
    print(f"ratio-of-medians 95 % CI coverage, AR(1) log-scale runs, true ratio 1, "
          f"{a.reps} replicates per cell, {a.n_boot} bootstrap resamples")
    print(f"{'rho':>4} {'n/side':>6} {'iid CI':>8} {'robust':>8} {'auto':>8} {'warned':>8} "
          f"{'false verdict ignore':>21} {'auto':>6}")
    for rho in (0.0, 0.5, 0.8):
        for n in (10, 20, 40):
            r = cell(rho, n, a.reps, a.n_boot, a.seed)
            print(f"{rho:>4} {n:>6} {r['iid']:>8.1%} {r['dep']:>8.1%} {r['auto']:>8.1%} "
                  f"{r['warned']:>8.1%} {r['false_ignore']:>21.1%} {r['false_auto']:>6.1%}",
                  flush=True)
    print(f"(rho = 0 'warned' is the false-warning rate; {time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
