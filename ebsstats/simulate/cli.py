"""``ebsstats simulate -o DIR --seed N [options]``: write a SYNTHETIC campaign.

The lead's CLI calls :func:`add_arguments` on the ``simulate`` sub-parser and :func:`run` with
the parsed namespace.

Examples
--------
>>> import argparse, tempfile
>>> p = argparse.ArgumentParser()
>>> add_arguments(p)
>>> args = p.parse_args(["-o", tempfile.mkdtemp(), "--seed", "2", "--weeks", "1",
...                      "--volume-types", "gp3", "--tools", "fio"])
>>> run(args)  # doctest: +ELLIPSIS
wrote SYNTHETIC campaign to ...
0
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ebsstats.simulate.checks import BONNIE_VERSIONS
from ebsstats.simulate.model import PRESETS, TOOLS_ALL, VOLUME_TYPES


def _raid(text: str) -> dict[str, Any]:
    """``--raid LEVEL:N:TYPE:GIB`` as the library's RAID dict (only the form is read here; the
    values are checked by :mod:`ebsstats.simulate.checks`, as for every other option).

    >>> _raid("raid0:4:gp3:50")
    {'level': 'raid0', 'members': 4, 'volume_type': 'gp3', 'size_gib': 50.0}
    >>> _raid("bogus")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'bogus': expected LEVEL:N:TYPE:GIB, e.g. raid0:4:gp3:50 (...)
    """
    parts = text.split(":")
    try:
        level, n, vtype, gib = parts
        return {"level": level, "members": int(n), "volume_type": vtype, "size_gib": float(gib)}
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected LEVEL:N:TYPE:GIB, e.g. raid0:4:gp3:50 (N a whole number, GIB a "
            "number)") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``simulate`` options to ``parser``."""
    parser.add_argument("-o", "--output", required=True, metavar="DIR",
                        help="folder to write the campaign to (created)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--preset", choices=sorted(PRESETS),
                        help="named parameter set ('bundled' = data/campaign)")
    parser.add_argument("--weeks", type=int, help="campaign length in weeks (default 4)")
    parser.add_argument("--runs-per-day", type=float, help="run slots per config and day")
    parser.add_argument("--start", help="campaign start date (default 2024-03-04): day 0 is that "
                        "date in the campaign's zone (America/New_York)")
    parser.add_argument("--volume-types", nargs="+", metavar="TYPE", choices=VOLUME_TYPES,
                        help="volume types (default sizes)")
    parser.add_argument("--raid", metavar="LEVEL:N:TYPE:GIB", type=_raid,
                        help="a RAID set, e.g. raid0:4:gp3:50")
    parser.add_argument("--drift", nargs=2, type=float, metavar=("WEEKDAY_AMP", "HOUR_AMP"),
                        help="calendar effect amplitudes (e.g. 0.04 0.05)")
    parser.add_argument("--first-write", type=float, metavar="FACTOR",
                        help="first-touch penalty factor (e.g. 5)")
    parser.add_argument("--slow-member", type=float, metavar="FACTOR",
                        help="one RAID member at FACTOR speed, changing weekly (e.g. 0.7)")
    parser.add_argument("--two-bands", nargs=2, type=float, metavar=("P", "RATIO"),
                        help="slow band with probability P at RATIO speed")
    parser.add_argument("--burst", action=argparse.BooleanOptionalAction, default=None,
                        help="gp2/st1/sc1 burst buckets")
    parser.add_argument("--noise", type=float, metavar="SIGMA",
                        help="lognormal run-to-run sigma for every type (0 = no noise)")
    parser.add_argument("--tools", nargs="+", choices=TOOLS_ALL, help="tools to simulate")
    parser.add_argument("--bonnie-version", choices=BONNIE_VERSIONS)


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The library's parameters of the parsed options (their values are checked there)."""
    p: dict[str, Any] = {}
    for name in ("weeks", "runs_per_day", "start", "volume_types", "first_write", "burst",
                 "tools", "bonnie_version"):
        v = getattr(args, name, None)
        if v is not None:
            p[name] = v
    if args.raid:
        p["raid"] = args.raid
    if args.drift:
        p["drift"] = {"weekday_amplitude": args.drift[0], "hour_amplitude": args.drift[1]}
    if args.slow_member is not None:
        p["slow_member"] = {"factor": args.slow_member}
    if args.two_bands:
        p["two_bands"] = {"p": args.two_bands[0], "ratio": args.two_bands[1]}
    if args.noise is not None:
        p["noise"] = False if args.noise == 0 else args.noise
    return p


def run(args: argparse.Namespace) -> int:
    """Write the campaign; return the exit status (0, or 2 on bad parameters: the library's
    one-line message, after ``ebsstats simulate: ``, nothing written)."""
    from ebsstats.simulate import simulate

    try:
        out = simulate(args.output, seed=args.seed, preset=args.preset, **_options(args))
    except (ValueError, TypeError) as exc:
        print(f"ebsstats simulate: {exc}", file=sys.stderr)
        return 2
    print(f"wrote SYNTHETIC campaign to {out}")
    return 0
