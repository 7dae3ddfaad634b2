"""Command line: ``ebsstats ingest | check | summary | compare | regress | report | simulate``.

Every verb is a thin shell over the library; heavy modules are imported only by the verb that
needs them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ebsstats import __version__


class CliError(Exception):
    """A one-line error for the user: what is wrong and how to fix it (no traceback)."""


@contextlib.contextmanager
def _notes(path, listed: bool = False, now: bool = False):
    """Say the library's warnings of the block as ``note:`` lines on stderr (once each, the
    library's advice, ``frame.attrs['failures']``, turned into the command to run); with
    ``listed``, leave out the count of failures the command lists itself; with ``now``, say
    each as it is warned (a long command's notes before its work, and even if it fails), else
    at the end of the block (an error leaves them unsaid)."""
    import warnings

    said: set[str] = set()

    def say(message, category, *_, **__) -> None:
        line = _note(str(message), category, path, listed)
        if line is not None and line not in said:
            said.add(line)
            print(line, file=sys.stderr)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if now:
            warnings.showwarning = say  # (catch_warnings puts the recorder back at its end)
        yield
    for w in caught:
        say(w.message, w.category)


def _note(msg: str, category: type[Warning], path, listed: bool) -> str | None:
    """One library warning as the command's ``note:`` line (``None``: not said): the
    library's ``pattern`` is ``--pattern``, its ``ebsstats.check(...)`` `ebsstats check`.

    >>> from ebsstats.io.meta import PatternWarning
    >>> _note("pattern 'x/{config}' matched 0 of the 2 file(s) read: 2 got no metadata from it",
    ...       PatternWarning, "d", False)  # doctest: +ELLIPSIS
    "note: --pattern 'x/{config}' matched 0 of ... from it (see `ebsstats check d --pattern ...`)"
    """
    from ebsstats.io.meta import PatternWarning

    library = "; see frame.attrs['failures'] or full=True"
    if not issubclass(category, UserWarning) or (listed and msg.endswith(library)):
        return None
    msg, _, check = msg.removesuffix(library).partition("; see ebsstats.check(")
    if issubclass(category, PatternWarning):
        msg = f"--{msg}" + (f" (see `ebsstats check {path} --pattern ...`)"
                            if msg.endswith("got no metadata from it") else "")
    if check or msg.startswith("ebsstats.read"):
        return f"note: {msg}; see `ebsstats check {path}`"
    return f"note: {msg}"


def _load(path: str, pattern: str | None = None):
    from ebsstats.io.folder import read
    from ebsstats.io.parquet import read_parquet_data

    p = Path(path)
    if not p.exists():
        raise CliError(f"{path}: no such file or folder (give a folder of benchmark outputs or "
                       "a Parquet file from `ebsstats ingest`)")
    with _notes(path):
        df = read_parquet_data(p)
    found = df is not None
    if found:
        if pattern:
            print(f"note: --pattern is not applied to Parquet data ({path}): its metadata was "
                  "set when it was ingested", file=sys.stderr)
    else:
        with _notes(path):  # (the pattern's notes too: ebsstats.io.meta.PatternWarning)
            df = read(p, pattern=pattern, progress=None)
    if not len(df):
        raise CliError(f"{path}: no benchmark results found " + (
            "(no rows in its Parquet data: ingest the outputs again)" if found
            else f"(see `ebsstats check {path}`)"))
    return df


def _filter(df, args):
    for col in ("metric", "test", "op", "tool", "config"):
        wanted = getattr(args, col, None)
        if wanted:
            values = [v.strip() for v in wanted.split(",")]
            have = sorted(str(v) for v in df[col].dropna().unique())
            missing = [v for v in values if v not in have]
            if missing:
                import difflib

                close = sorted({c for m in missing for c in difflib.get_close_matches(m, have)})
                raise CliError(f"unknown {col} {', '.join(missing)}"
                               + (f"; did you mean {', '.join(close)}?" if close else "")
                               + f" (this data has {len(have)}: {', '.join(have[:20]) or 'none'}"
                               + (" …)" if len(have) > 20 else ")"))
            df = df[df[col].astype(str).isin(values)]
    return df


def _emit(frame, text: str, fmt: str) -> None:
    """Print a result as the text table, CSV or JSON records."""
    if fmt == "csv":
        frame.to_csv(sys.stdout, index=False)
    elif fmt == "json":
        print(frame.to_json(orient="records", date_format="iso", indent=1))
    else:
        print(text)


def _value(text: str):
    """A parameter value from the command line: JSON scalars/lists as such, else the string."""
    try:
        v = json.loads(text)
    except ValueError:
        return text
    return v if isinstance(v, (int, float, bool, list, type(None), str)) else text


def cmd_ingest(args) -> int:
    from ebsstats.io.folder import read
    from ebsstats.io.meta import check_ingest
    from ebsstats.io.parquet import to_parquet

    if not Path(args.path).exists():
        raise CliError(f"{args.path}: no such file or folder")
    # one line, before the parse: writable, apart from the data and from each other
    check_ingest({"-o": args.output, "--series": args.series}, args.pattern,
                 inputs=[args.path])
    with _notes(args.path, listed=True):
        df, ts, fails = read(args.path, pattern=args.pattern, jobs=args.jobs,
                             series=bool(args.series), progress=None if not args.quiet else False,
                             full=True, errors="collect")
    if not len(df):  # nothing written: an earlier output at -o stays as it was
        _print_failures(fails, args.path)
        print(f"ebsstats ingest: 0 rows from {args.path}: nothing benchmark-like was found "
              f"(see `ebsstats check {args.path}`); nothing was written", file=sys.stderr)
        return 1
    if args.series:
        to_parquet(ts, args.series)
    to_parquet(df, args.output)
    counts = df.groupby("tool", observed=True)["run_id"].agg(["nunique", "size"])
    print(f"wrote {args.output}: {len(df):,} rows")
    for tool, row in counts.iterrows():
        print(f"  {tool:<10} {row['nunique']:>6} runs {row['size']:>9,} rows")
    bad = _print_failures(fails, args.path)
    return 1 if (bad and args.strict) else 0


def _print_failures(fails, path) -> int:
    """List what an ingest skipped, noted, read in part or refused; return how many refused."""
    bad = fails[fails["kind"] == "error"]
    part = fails[fails["kind"] == "partial"]
    noted = fails[fails["kind"] == "note"]
    skipped = fails[~fails["kind"].isin(["error", "partial", "note"])]
    if len(skipped):
        print(f"skipped {len(skipped)} file(s) (not benchmark outputs, or duplicates)")
    if len(noted):
        print(f"{len(noted)} note(s) on {noted['source'].nunique()} file(s) read (the tools' "
              f"warnings, values not taken as printed): see `ebsstats check {path}`")
    if len(part):
        print(f"read {part['source'].nunique()} file(s) in part (their other runs kept):")
        for _, f in part.iterrows():
            print(f"  {f['reason']}")
    if len(bad):
        print(f"FAILED {len(bad)} file(s):")
        for _, f in bad.iterrows():
            print(f"  {f['reason']}")
    return len(bad)


def cmd_check(args) -> int:
    import pandas as pd

    from ebsstats.io.folder import check

    if not Path(args.path).exists():
        raise CliError(f"{args.path}: no such file or folder")
    c = check(args.path)
    if not len(c):
        raise CliError(f"{args.path}: no files found")
    if args.pattern:
        from ebsstats.io.meta import pattern_meta

        c["metadata"] = [", ".join(f"{k}={v}" for k, v in pattern_meta(str(f), args.pattern)
                                   .items()) or "(pattern does not match)" for f in c["source"]]
    notes = c.pop("notes")
    with pd.option_context("display.max_rows", None, "display.width", 100,
                           "display.max_colwidth", 60):
        print(_blanked(c).to_string(index=False))
    print()
    print(c["action"].value_counts().to_string())
    if notes.notna().any():  # what the readers noted, file by file, in full
        print("\nnotes (the tools' warnings, values not taken as printed):")
        for source, said in zip(c["source"], notes, strict=True):
            if isinstance(said, str):
                print(f"  {source}:")
                for one in said.split(" | "):
                    print(f"    {one}")
    return 0


def cmd_summary(args) -> int:
    from ebsstats.app.tables import summary_table
    from ebsstats.stats._core import group_keys, runs_only
    from ebsstats.stats.summary import summarize

    data = _filter(_load(args.data, args.pattern), args)
    df = runs_only(data)  # as es.select: runs only
    if df.empty:
        raise CliError(_no_runs(data))
    by = [b for b in args.by.split(",") if b]
    bad = [b for b in by if b not in df.columns]
    if bad:
        raise CliError(f"--by {', '.join(bad)}: no such column; columns: "
                       + ", ".join(c for c in df.columns if c not in ("value", "position")))
    keys = group_keys(df, by)  # (as summarize groups: by, then test/op/metric; NA kept)
    groups = df.groupby(keys, observed=True, dropna=False).ngroups if keys else 1
    print(f"summarising {len(df):,} values in {groups} groups …", file=sys.stderr)
    s = summarize(df, by=by, confidence=args.confidence)
    _emit(s, summary_table(s, width=args.width) if args.format == "table" else "", args.format)
    return 0


def _no_runs(data) -> str:
    """Why there is nothing to summarise: no values at all, or only rows that stand for
    others (a PTS reported mean without its runs, a published ± figure)."""
    if data.empty:
        return "no values to summarise (see `ebsstats check DATA` for what was read)"
    flags = data["flag"].value_counts().to_dict() if "flag" in data else {}
    said = ", ".join(f"{n} {f}" for f, n in flags.items())
    return (f"no runs to summarise: the {len(data):,} values are summaries of runs ({said}), "
            "such as PTS's reported mean of an entry whose runs it did not record")


def cmd_compare(args) -> int:
    from ebsstats.app.tables import compare_table
    from ebsstats.stats._core import runs_only
    from ebsstats.stats.comparison import compare

    df = runs_only(_filter(_load(args.data, args.pattern), args))
    if args.by not in df.columns:
        raise CliError(f"--by {args.by}: no such column")
    from ebsstats.stats._core import key_text  # (numbers by value: 100 finds 100.0)

    groups = sorted(str(v) for v in df[args.by].dropna().unique())
    if key_text(args.baseline) not in {key_text(g) for g in groups}:
        raise CliError(f"--baseline {args.baseline!r} is not a {args.by} of this data; valid: "
                       + ", ".join(groups[:30]) + (" …" if len(groups) > 30 else ""))
    if len(groups) < 2:  # (the baseline's alone)
        raise CliError(f"only one {args.by} ({groups[0]}) in this data: nothing to compare with "
                       "it (compare needs two or more; see `ebsstats summary`)")
    print(f"comparing {len(groups) - 1} {args.by} value(s) with {args.baseline!r} "
          f"({len(df):,} values) …", file=sys.stderr)
    with _notes(args.data):  # (an error leaves its notes unsaid: the error says it all)
        c = compare(df, by=args.by, baseline=args.baseline, confidence=args.confidence,
                    padjust=args.correction)
        if c.empty:  # (compare says why in attrs["reason"])
            raise CliError(c.attrs.get("reason", "nothing to compare")
                           .removeprefix("compare found "))
    _emit(c, compare_table(c, width=args.width) if args.format == "table" else "", args.format)
    return 0


def cmd_report(args) -> int:
    from ebsstats.app.reports import NotebookChoiceError, ReportError, report

    params = {k: _value(v) for k, v in (args.param or [])}
    index_before = _mtime(Path(args.output) / "index.html")
    try:
        with _notes(args.data, now=True):  # (said once the data are read, before the pages)
            index = report(args.data, args.output, notebooks=args.notebooks,
                           parameters=params, only=args.only, pattern=args.pattern,
                           show_code=args.show_code, log=lambda m: print(m, file=sys.stderr),
                           jobs=args.jobs)
    except NotebookChoiceError as exc:  # a usage error: nothing was read or built
        raise CliError(f"--{exc.option} {exc.value}: {exc.problem}") from None
    except ReportError as exc:
        print(f"ebsstats report: {exc}", file=sys.stderr)
        out = Path(args.output) / "index.html"
        if _mtime(out) not in (None, index_before):  # written by this run, not an old report
            print(f"the other pages were written: {out}", file=sys.stderr)
        else:
            print(f"no report was written; {args.output} is as it was", file=sys.stderr)
        return 1
    print(index)
    return 0


def _blanked(frame):
    """``frame`` with its missing values blank for a printed table: ``fillna("")`` of a float
    column warns in pandas 3 (it will raise in 4), and ``to_string(na_rep="")`` leaves
    ``<NA>`` in Int64 and string columns."""
    return frame.astype(object).where(frame.notna(), "")


def _mtime(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def cmd_regress(args) -> int:
    """``ebsstats regress HISTORY NEW``: exit 1 if any group's new run is out of line."""
    from ebsstats.stats.history import regressions

    hist = _filter(_load(args.history, args.pattern), args)
    new = _filter(_load(args.new, args.pattern), args)
    r = regressions(hist, new, by=[b for b in args.by.split(",") if b], alpha=args.alpha,
                    confidence=args.confidence, padjust=args.padjust)
    print(_regress_output(r, args.format, args.width))
    return 1 if bool(r["out_of_line"].any()) else 0


def _regress_output(r, fmt: str, width: int) -> str:
    if fmt == "json":
        return r.to_json(orient="records", date_format="iso", indent=1)
    import pandas as pd

    cols = [c for c in r.columns if c not in ("regime_start", "padjust", "test_method",
                                               "confidence", "z", "shift", "pi_low", "pi_high",
                                               "ratio_ci_low", "ratio_ci_high", "change_pct",
                                               "higher_is_better", "out_of_line")]
    t = r[cols].copy()
    t.insert(t.columns.get_loc("ratio") + 1, "ratio CI", [
        f"[{lo:.3f}, {hi:.3f}]" for lo, hi in zip(r["ratio_ci_low"], r["ratio_ci_high"],
                                                  strict=True)])
    t.insert(t.columns.get_loc("expected") + 1, "prediction interval", [
        f"[{lo:.4g}, {hi:.4g}]" for lo, hi in zip(r["pi_low"], r["pi_high"], strict=True)])
    with pd.option_context("display.width", width, "display.max_columns", None,
                           "display.max_rows", None, "display.float_format", "{:.4g}".format):
        text = _blanked(t).to_string(index=False)
    bad = int(r["out_of_line"].sum())
    adjusted = r["padjust"].iloc[0] if len(r) else "holm"
    return f"{text}\n\n{bad} of {len(r)} group(s) out of line ({adjusted}-adjusted)"


def _at_least(low: int):
    """An argparse type: a whole number ``>= low``."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            n = low - 1
        if n < low:
            raise argparse.ArgumentTypeError(f"{text!r}: give a whole number, at least {low}")
        return n
    return parse


def _fraction(text: str) -> float:
    """An argparse type: a number strictly between 0 and 1 (a level or a probability).

    >>> _fraction("0.05")
    0.05
    """
    try:
        x = float(text)
    except ValueError:
        x = -1.0
    if not 0 < x < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number between 0 and 1 (e.g. 0.05)")
    return x


#: The narrowest table: a label and a few numbers.
MIN_WIDTH = 40


def add_regress(sub) -> None:
    s = sub.add_parser("regress", help="is the new run out of line with its history? (exit 1 "
                       "if so: for CI pipelines)")
    s.add_argument("history", help="folder of past outputs, or a Parquet file from ingest")
    s.add_argument("new", help="folder/file of the new run(s)")
    s.add_argument("--by", default="config", help="group columns (test/op/metric always apart)")
    s.add_argument("--format", choices=["table", "json"], default="table")
    s.add_argument("--metric", help="comma-separated metrics to keep (e.g. iops,bandwidth)")
    s.add_argument("--test", help="comma-separated tests to keep")
    s.add_argument("--op", help="comma-separated ops to keep")
    s.add_argument("--pattern", help="path pattern for metadata")
    s.add_argument("--alpha", type=_fraction, default=0.05,
                   help="false-alarm rate per group, between 0 and 1 (default 0.05)")
    s.add_argument("--confidence", type=_fraction, default=0.95)
    s.add_argument("--padjust", default="holm", choices=["holm", "fdr_bh", "bonferroni", "none"])
    s.add_argument("--width", type=_at_least(MIN_WIDTH), default=120)
    s.set_defaults(func=cmd_regress)


def cmd_simulate(args) -> int:
    from ebsstats.simulate import cli as simcli

    out = Path(args.output)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CliError(f"-o {out} exists and is not empty; simulate writes only into a new or "
                       "empty folder (nothing was written)")
    return simcli.run(args)


def _report_epilog() -> str:
    """The parameters of the bundled notebooks, per notebook, for ``report --help``."""
    try:
        from ebsstats.app.reports import (
            RESERVED,
            default_notebooks,
            notebook_list,
            notebook_parameters,
        )

        lines = ["notebook parameters (-p NAME VALUE; lists as a,b; None = chosen from the "
                 "data):"]
        for book in notebook_list(default_notebooks()):
            params = {k: v for k, v in notebook_parameters(book).items() if k not in RESERVED}
            lines.append(f"  {book.stem}:" + ("" if params else " (none)"))
            for k, v in params.items():
                lines.append(f"    {k:<12} default {v['default']!r}: {v['help']}")
        return "\n".join(lines)
    except (OSError, ValueError):
        return ""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ebsstats", description="Statistics for block-storage "
                                "benchmarks (fio, bonnie++, sysbench, PTS).")
    p.add_argument("--version", action="version", version=f"ebsstats {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    pattern_help = ('path pattern giving metadata from file names, e.g. '
                    '"{instance_type}/{filesystem}-{volume}-{timestamp}.txt" ({name} matches '
                    'within one folder/file name, greedily; {timestamp} may be epoch seconds)')

    s = sub.add_parser("ingest", help="read a folder into a tidy Parquet file")
    s.add_argument("path", help="folder (read recursively) or file of benchmark outputs")
    s.add_argument("-o", "--output", required=True, help="Parquet file to write (atomically)")
    s.add_argument("--series", metavar="PARQUET", help="also write the time-series frame")
    s.add_argument("--pattern", help=pattern_help)
    s.add_argument("--jobs", type=_at_least(1), default=1,
                   help="parsing processes (default 1)")
    s.add_argument("--strict", action="store_true", help="exit 1 if any file failed")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_ingest)

    s = sub.add_parser("check", help="list what would be read, skipped or refused, and why")
    s.add_argument("path", help="folder or file of benchmark outputs")
    s.add_argument("--pattern", help=pattern_help + "; shows the metadata each file gets")
    s.set_defaults(func=cmd_check)

    for name, func, helptext in (("summary", cmd_summary, "median ± CI per group"),
                                 ("compare", cmd_compare, "groups against a baseline")):
        s = sub.add_parser(name, help=helptext)
        s.add_argument("data", help="folder of outputs, or a Parquet file from ingest")
        s.add_argument("--by", default="config,test,op,metric" if name == "summary" else "config",
                       help="grouping column(s), comma-separated" if name == "summary" else
                       "column whose values are compared (default config)")
        s.add_argument("--metric", help="comma-separated metrics to keep (e.g. iops,bandwidth)")
        s.add_argument("--test", help="comma-separated tests to keep (fio job names, …)")
        s.add_argument("--op", help="comma-separated ops to keep (read, write, total, …)")
        s.add_argument("--tool", help="comma-separated tools to keep (fio, sysbench, …)")
        s.add_argument("--pattern", help=pattern_help)
        s.add_argument("--confidence", type=float, default=0.95,
                       help="confidence level of the intervals (default 0.95)")
        s.add_argument("--width", type=_at_least(MIN_WIDTH), default=100,
                       help=f"table width in characters (at least {MIN_WIDTH})")
        s.add_argument("--format", choices=("table", "csv", "json"), default="table",
                       help="table (default, display units) or the full frame as csv/json "
                            "(canonical units)")
        if name == "compare":
            s.add_argument("--baseline", required=True, help="the value of --by compared with")
            s.add_argument("--correction", default="holm", choices=["holm", "fdr_bh"],
                           help="multiplicity correction (default holm)")
        else:
            s.add_argument("--config", help="comma-separated configs to keep")
        s.set_defaults(func=func)

    s = sub.add_parser("report", help="run the notebooks with papermill and write HTML",
                       epilog=_report_epilog(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("data", help="folder of benchmark outputs, or a Parquet file from ingest")
    s.add_argument("-o", "--output", default="reports",
                   help="report folder (default reports); must be new, empty or an earlier "
                        "report, and outside the data")
    s.add_argument("-p", "--param", nargs=2, action="append", metavar=("NAME", "VALUE"),
                   help="notebook parameter (a value, never code); repeatable; see below")
    s.add_argument("--pattern", help=pattern_help)
    s.add_argument("--notebooks", help="folder of notebooks (default: the project's)")
    s.add_argument("--only", action="append", help="run only notebooks whose name has this")
    s.add_argument("--show-code", action="store_true", help="keep code cells in the HTML")
    s.add_argument("--jobs", type=_at_least(1), default=None,
                   help="notebooks run at once (default: the CPUs, at most 4)")
    s.set_defaults(func=cmd_report)

    add_regress(sub)

    s = sub.add_parser("simulate", help="write a synthetic campaign with known ground truth")
    from ebsstats.simulate import cli as simcli

    simcli.add_arguments(s)
    s.set_defaults(func=cmd_simulate)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from ebsstats.errors import EbsstatsError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (CliError, EbsstatsError, FileNotFoundError, ValueError, KeyError) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"ebsstats {args.command}: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
