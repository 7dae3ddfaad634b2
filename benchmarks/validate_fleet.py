"""Validate :func:`ebsstats.stats.members.fleet_outliers` intervals on fleets with known ratios.

Known-truth design, the model :func:`fleet_outliers` fits: ``volumes`` volumes of one
configuration (``--configs 2``: two, at levels 3000 and 5000, volumes alternating), ``runs``
runs each; volume ``v``'s true log ratio to a typical member ``b_v`` is drawn N(0,
``sd_between``) in each replication, run noise is log-normal (``sd_within`` on the log scale).
The true ratio ``exp(b_v)`` is known, so each replication tells whether every volume's stated
interval ``[ratio_ci_low, ratio_ci_high]`` holds it. Defaults: between SD 0.05 and within SD
0.03, the campaign simulator's gp3 volume effect and run noise (:mod:`ebsstats.simulate.model`).

Figures printed, each with a Wilson 95 % interval (statsmodels ``proportion_confint``; volumes of
one replication share its fitted fleet level, so the pooled interval is a little narrow):

* **coverage** of the stated interval (target 93-97 % for ``confidence=0.95``) at each design
  ``VxN`` (``V`` volumes, ``N`` runs each), pooled over volumes and replications, with the
  share of fits whose between-volume variance is estimated as 0 (REML at its boundary: every
  ratio is then 1, its interval of zero width);
* **null** (``--null``, all true ratios 1, ``sd_between`` 0): the share of volumes whose interval
  excludes 1 (at most ``1 - confidence``), the share of fleets with at least one such volume
  (no multiplicity correction: each volume's interval is a 95 % interval of its own), and the
  share of volumes given a ``slow``/``fast`` verdict at the default ``tolerance`` (10 %) and at
  ``tolerance=0`` (where a verdict is an interval that excludes 1).

    .venv/bin/python benchmarks/validate_fleet.py [--reps 400] [--designs 6x3,12x5,20x10]
        [--sd-between 0.05] [--sd-within 0.03] [--configs 1] [--null] [--seed 0]

Measured (reps: replications per design; before: the conditional SD of the BLUP and a
normal quantile, after: Henderson's prediction error SD and a t quantile with members -
fixed-effect parameters df; about 9 min on 2 busy cores for the default run with ``--null``):

==========================  =========  ========  ======  ======  =======
between / within SD         configs    design    reps    before  after
==========================  =========  ========  ======  ======  =======
0.05 / 0.03 (default)       1          6x3       400     71.7 %  93.8 %
0.05 / 0.03 (default)       1          12x5      400     81.6 %  96.1 %
0.05 / 0.03 (default)       1          20x10     400     77.5 %  94.7 %
0.05 / 0.03                 2          8x3       300     69.1 %  94.4 %
0.05 / 0.03                 2          12x5      300     69.4 %  95.4 %
0.05 / 0.05                 1          6x3       300     75.3 %  87.7 %
0.05 / 0.05                 1          12x5      300     87.4 %  95.4 %
0.05 / 0.05                 1          20x10     300     88.4 %  95.7 %
0.02 / 0.05                 1          10x3      300     61.9 %  66.0 %
==========================  =========  ========  ======  ======  =======

The 6x3 row at 0.05 / 0.05 and the last row are the limit of the method: with a between SD not
well above the noise of a volume's mean, REML estimates it poorly (at 0 in 5 % of the 10x3 fits)
and shrinks every ratio towards 1; the variance components' own uncertainty is not carried.
Null (default run, ``--null``, 400 fleets): intervals excluding 1, per volume 0.08 % / 0.19 % /
0.27 % (6x3 / 12x5 / 20x10; before 2.6 % / 0.73 % / 0.40 %), fleets with at least one 0.5 % /
2.3 % / 3.8 % (before 11.3 % / 6.3 % / 4.5 %); verdicts at the default tolerance none, before
and after.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ebsstats.stats.members import fleet_outliers  # noqa: E402

LEVELS = (3000.0, 5000.0)  # the configurations' typical IOPS


def fleet_frame(rng: np.random.Generator, volumes: int, runs: int, sd_between: float,
                sd_within: float, configs: int = 1) -> tuple[pd.DataFrame, pd.Series]:
    """Runs of a simulated fleet, and each volume's true ratio to a typical member."""
    names = [f"v{v:02d}" for v in range(volumes)]
    b = rng.normal(0.0, sd_between, volumes) if sd_between > 0 else np.zeros(volumes)
    cfg = np.arange(volumes) % configs
    vol = np.repeat(np.arange(volumes), runs)
    value = np.array(LEVELS)[cfg[vol]] * np.exp(b[vol] + rng.normal(0.0, sd_within, vol.size))
    df = pd.DataFrame({"config": [f"c{c}" for c in cfg[vol]], "volume": np.array(names)[vol],
                       "metric": "iops", "value": value})
    return df, pd.Series(np.exp(b), index=names)


def _fit(df: pd.DataFrame, **options) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # statsmodels' boundary and convergence warnings
        return fleet_outliers(df, **options).set_index("volume")


def coverage(volumes: int, runs: int, reps: int, sd_between: float, sd_within: float,
             configs: int = 1, seed: int = 0) -> dict:
    """Counts over ``reps`` fleets: volumes whose interval holds the truth, boundary fits."""
    rng = np.random.default_rng([seed, volumes, runs, configs])
    tot = {"covered": 0, "volumes": 0, "boundary": 0, "reps": reps}
    for _ in range(reps):
        df, truth = fleet_frame(rng, volumes, runs, sd_between, sd_within, configs)
        r = _fit(df)
        t = truth[r.index]
        tot["covered"] += int(((r["ratio_ci_low"] <= t) & (t <= r["ratio_ci_high"])).sum())
        tot["volumes"] += len(r)
        tot["boundary"] += int(r["sd_between"].iloc[0] < 1e-6)
    return tot


def null_flags(volumes: int, runs: int, reps: int, sd_within: float, configs: int = 1,
               seed: int = 0) -> dict:
    """Counts over ``reps`` fleets of identical volumes: intervals excluding 1, verdicts."""
    rng = np.random.default_rng([seed, volumes, runs, configs, 1])
    tot = {"excl": 0, "fleets_excl": 0, "verdict": 0, "verdict_tol0": 0, "volumes": 0,
           "reps": reps}
    for _ in range(reps):
        df, _truth = fleet_frame(rng, volumes, runs, 0.0, sd_within, configs)
        r = _fit(df)
        excl = (r["ratio_ci_low"] > 1) | (r["ratio_ci_high"] < 1)
        tot["excl"] += int(excl.sum())
        tot["fleets_excl"] += int(excl.any())
        tot["verdict"] += int((r["verdict"] != "~").sum())
        tot["verdict_tol0"] += int((_fit(df, tolerance=0.0)["verdict"] != "~").sum())
        tot["volumes"] += len(r)
    return tot


def line(name: str, k: int, n: int) -> str:
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
    return f"  {name:<46} {k:>6} / {n:<6} = {k / n:7.2%}  [{lo:.2%}, {hi:.2%}]"


def _designs(text: str) -> list[tuple[int, int]]:
    return [tuple(int(x) for x in d.lower().split("x")) for d in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--designs", default="6x3,12x5,20x10",
                    help="comma-separated VxN: V volumes, N runs each")
    ap.add_argument("--sd-between", type=float, default=0.05)
    ap.add_argument("--sd-within", type=float, default=0.03)
    ap.add_argument("--configs", type=int, default=1)
    ap.add_argument("--null", action="store_true", help="also the null: identical volumes")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    t0 = time.time()
    print(f"fleet_outliers, confidence 0.95, {args.reps} replications per design, between SD "
          f"{args.sd_between}, within SD {args.sd_within}, {args.configs} configuration(s)")
    ok = True
    for v, n in _designs(args.designs):
        c = coverage(v, n, args.reps, args.sd_between, args.sd_within, args.configs, args.seed)
        print(f"{v} volumes x {n} runs:")
        print(line("coverage of the true ratio (93-97 %)", c["covered"], c["volumes"]))
        print(line("fits with between SD estimated 0", c["boundary"], c["reps"]))
        ok &= 0.93 <= c["covered"] / c["volumes"] <= 0.97
        if args.null:
            z = null_flags(v, n, args.reps, args.sd_within, args.configs, args.seed)
            print(line("null: volumes whose interval excludes 1", z["excl"], z["volumes"]))
            print(line("null: fleets with such a volume", z["fleets_excl"], z["reps"]))
            print(line("null: slow/fast verdicts, tolerance 0.10", z["verdict"], z["volumes"]))
            print(line("null: slow/fast verdicts, tolerance 0", z["verdict_tol0"],
                       z["volumes"]))
            ok &= z["excl"] / z["volumes"] <= 0.05
    print(f"({time.time() - t0:.1f} s)")
    print("targets met" if ok else "TARGETS NOT MET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
