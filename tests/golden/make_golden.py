"""Write the golden frames that ``tests/test_golden.py`` compares every read against.

Each fixture file under ``tests/fixtures`` is read on its own (``es.read(file, series=True)``)
and the whole fixtures folder is read once; the results and series frames are stored as
Parquet (values) plus ``dtypes.json`` (each column's dtype and categories) and the failures as
JSON. Run it only when a change of the frames is intended, and say why in the commit::

    python tests/golden/make_golden.py
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
sys.path.insert(0, str(ROOT))


def fixture_files() -> list[Path]:
    from ebsstats.io.sniff import is_companion

    return sorted(p for p in FIXTURES.rglob("*") if p.is_file() and not is_companion(p)
                  and not any(part.startswith(".") for part in p.relative_to(FIXTURES).parts))


def dtypes_of(df: pd.DataFrame) -> dict:
    out = {}
    for c in df.columns:
        d = df[c].dtype
        if isinstance(d, pd.CategoricalDtype):
            out[c] = ["category", [str(x) for x in d.categories]]
        else:
            out[c] = [str(d), None]
    return out


def read_file(path: Path):
    """(results, series, error) of one fixture read on its own."""
    import ebsstats as es

    rel = path.relative_to(ROOT).as_posix()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = es.read(rel, series=True)
        df, ts = (out.frame, out.series) if hasattr(out, "frame") else out
        return df, ts, None
    except Exception as exc:
        return None, None, f"{type(exc).__name__}: {exc}"


def read_folder():
    import ebsstats as es

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = es.read(FIXTURES.relative_to(ROOT).as_posix(), series=True, with_failures=True)
    if hasattr(out, "frame"):
        return out.frame, out.series, out.failures
    return out


def plain(df: pd.DataFrame) -> pd.DataFrame:
    """Values only (Parquet keeps them exactly; dtypes are compared from dtypes.json)."""
    out = df.copy()
    for c in out.columns:
        if isinstance(out[c].dtype, pd.CategoricalDtype):
            out[c] = out[c].astype(object).astype("string")
    out.attrs = {}
    return out


def main() -> None:
    import os

    os.chdir(ROOT)
    results, series, dtypes, errors = [], [], {}, {}
    for path in fixture_files():
        rel = path.relative_to(FIXTURES).as_posix()
        df, ts, err = read_file(path)
        if err is not None:
            errors[rel] = err
            continue
        dtypes[rel] = {"results": dtypes_of(df), "series": dtypes_of(ts)}
        results.append(plain(df).assign(_fixture=rel))
        series.append(plain(ts).assign(_fixture=rel))
    pd.concat(results, ignore_index=True).to_parquet(HERE / "files.results.parquet",
                                                     index=False, compression="zstd")
    pd.concat(series, ignore_index=True).to_parquet(HERE / "files.series.parquet",
                                                    index=False, compression="zstd")
    df, ts, fails = read_folder()
    dtypes["<folder>"] = {"results": dtypes_of(df), "series": dtypes_of(ts)}
    plain(df).to_parquet(HERE / "folder.results.parquet", index=False, compression="zstd")
    plain(ts).to_parquet(HERE / "folder.series.parquet", index=False, compression="zstd")
    fails.to_json(HERE / "folder.failures.json", orient="records", indent=0)
    (HERE / "dtypes.json").write_text(json.dumps(dtypes, sort_keys=True, separators=(",", ":")) + "\n")
    (HERE / "errors.json").write_text(json.dumps(errors, indent=1, sort_keys=True) + "\n")
    print(f"{len(results)} fixtures, {len(errors)} refused; folder {len(df)} rows, "
          f"{len(ts)} series rows")


if __name__ == "__main__":
    main()
