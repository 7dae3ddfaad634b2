"""Benchstat-like text tables of :func:`ebsstats.summarize` and
:func:`ebsstats.stats.comparison` results for the command line (``ebsstats summary`` /
``ebsstats compare``): one section per metric in
display units (MB/s, ms, IOPS), the median with its confidence interval, the change with its CI,
the adjusted p-value and a verdict; every line fits ``width`` columns (100 by default).
"""

from __future__ import annotations

import math

import pandas as pd

from ebsstats.units import display

SECTION = ("test", "op", "metric")


def _num(v: float) -> str:
    """Four significant digits, thousands separators: 3001.2 → '3,001', 0.01234 → '0.01234'."""
    if v is None or not isinstance(v, int | float) or math.isnan(v):
        return "–"
    a = abs(v)
    if a == 0:
        return "0"
    if a >= 1000:
        return f"{v:,.0f}"
    digits = max(0, 3 - int(math.floor(math.log10(a))))
    return f"{v:.{digits}f}"


def _signed_pct(v: float) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    return f"{v:+.1f}%"


def _fit(text: str, width: int) -> str:
    """Shorten in the middle: names that share a prefix (raid0-…-member1) stay distinct."""
    if len(text) <= width:
        return text
    if width < 5:
        return text[: max(width - 1, 0)] + "…"
    head = (width - 1) // 2
    return text[:head] + "…" + text[len(text) - (width - 1 - head):]


def _label(row: pd.Series, cols: list[str]) -> str:
    vals = [str(row[c]) for c in cols if row[c] is not None and not pd.isna(row[c])]
    return " ".join(vals) if vals else "all"


def _sections(frame: pd.DataFrame, cols: list[str]):
    if not cols:
        yield {}, frame
        return
    for key, sub in frame.groupby(cols, dropna=False, sort=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        yield dict(zip(cols, key, strict=True)), sub


def _render(header: list[str], rows: list[list[str]], align: str, width: int,
            name_col: int = 0) -> list[str]:
    """Left-align the name column, right-align the rest; shrink the name column to fit."""
    cols = len(header)
    widths = [max(len(header[i]), *(len(r[i]) for r in rows)) if rows else len(header[i])
              for i in range(cols)]
    total = sum(widths) + 2 * (cols - 1)
    if total > width:
        widths[name_col] = max(8, widths[name_col] - (total - width))
    out = []
    for r in [header, *rows]:
        cells = []
        for i, cell in enumerate(r):
            cell = _fit(cell, widths[i])
            cells.append(cell.ljust(widths[i]) if align[i] == "l" else cell.rjust(widths[i]))
        out.append(_fit("  ".join(cells).rstrip(), width))
    return out


def summary_table(summary: pd.DataFrame, width: int = 100) -> str:
    """Text table of a :func:`ebsstats.summarize` frame.

    One section per (test, op, metric) in display units; per group: ``n``, the median, its CI
    and half-width in % of the median (benchstat's ``± x%``), the exact coverage of the CI, the
    CV and a note mark whose text follows the section.

    Examples
    --------
    >>> import pandas as pd, ebsstats as es
    >>> df = pd.DataFrame({"config": ["a"] * 10, "metric": "iops", "unit": "IO/s",
    ...                    "value": [float(v) for v in range(3000, 3010)]})
    >>> print(summary_table(es.summarize(df, by="config", n_boot=0)))
    metric iops [IOPS]
    config   n  median          95% CI     ±  level     cv
    a       10   3,004  [3,001, 3,008]  0.1%  97.9%  0.10%
    """
    cols = list(summary.columns[: list(summary.columns).index("n")])
    sec_cols = [c for c in cols if c in SECTION]
    lab_cols = [c for c in cols if c not in SECTION] or sec_cols
    lines: list[str] = []
    conf = float(summary["confidence"].iloc[0]) if len(summary) else 0.95
    for key, sub in _sections(summary, sec_cols):
        unit = str(sub["unit"].iloc[0]) if "unit" in sub and sub["unit"].notna().any() else ""
        factor, disp = display(unit) if unit else (1.0, "")
        head = " ".join(f"{k} {v}" for k, v in key.items() if v is not None and not pd.isna(v))
        lines.append(_fit((head or "all") + (f" [{disp}]" if disp else ""), width))
        notes: list[str] = []
        rows = [[*_summary_cells(r, lab_cols, factor), _note_mark(r, notes)]
                for _, r in sub.iterrows()]
        header = ["/".join(lab_cols), "n", "median", f"{100 * conf:.3g}% CI", "±", "level", "cv",
                  ""]
        lines += _render(header, rows, "lrrrrrrl", width)
        lines += [_fit(f"  ({i}) {t}", width) for i, t in enumerate(notes, 1)]
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def compare_table(comparison: pd.DataFrame, width: int = 100) -> str:
    """Text table of a :func:`ebsstats.stats.comparison` frame.

    One section per (test, op, metric) in display units; per group: the baseline's and the
    group's median, Δ% with its CI, the adjusted p-value with ``n`` per side, and the verdict
    (``better``/``worse``/``~``).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from ebsstats.stats.comparison import compare
    >>> rng = np.random.default_rng(1)
    >>> df = pd.DataFrame({"config": ["gp2"] * 10 + ["gp3"] * 10, "metric": "iops",
    ...                    "unit": "IO/s", "higher_is_better": True,
    ...                    "value": np.r_[rng.normal(3000, 90, 10), rng.normal(3600, 90, 10)]})
    >>> print(compare_table(compare(df, baseline="gp2", n_boot=199)))
    metric iops [IOPS]  baseline gp2  (p: mannwhitney, holm-adjusted)
    config  base median  median      Δ%  95% CI of Δ         p_adj  n      verdict
    gp3           3,032   3,581  +18.1%  [+16.9%, +19.8%]  0.00018  10+10  better

    A comparison that found nothing (one group, or no cell holding the baseline and another
    group) is one line, not an error:

    >>> compare_table(pd.DataFrame())
    '(nothing to compare)'
    """
    if comparison.empty or "baseline" not in comparison.columns:
        return "(nothing to compare)"
    cols = list(comparison.columns[: list(comparison.columns).index("baseline")])
    sec_cols = [c for c in cols if c in SECTION]
    lab_cols = [c for c in cols if c not in SECTION] or sec_cols
    lines: list[str] = []
    for key, sub in _sections(comparison, sec_cols):
        factor, disp = _display_unit(sub, key)
        head = " ".join(f"{k} {v}" for k, v in key.items() if v is not None and not pd.isna(v))
        conf = float(sub["confidence"].iloc[0])
        base = sub["baseline"].iloc[0]
        lines.append(_fit(f"{head or 'all'}" + (f" [{disp}]" if disp else "")
                          + f"  baseline {base}  (p: {sub['test_method'].iloc[0]}, "
                          f"{sub['correction'].iloc[0]}-adjusted)", width))
        notes: list[str] = []
        rows = [_compare_cells(r, lab_cols, factor, notes) for _, r in sub.iterrows()]
        header = ["/".join(lab_cols), "base median", "median", "Δ%", f"{100 * conf:.3g}% CI of Δ",
                  "p_adj", "n", "verdict"]
        lines += _render(header, rows, "lrrrlrll", width)
        lines += [_fit(f"  ({i}) {t}", width) for i, t in enumerate(notes, 1)]
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def _note_mark(r: pd.Series, notes: list[str], sep: str = "") -> str:
    """Append the row's warning to ``notes`` and return its mark (``(n)``), or ``""``."""
    if isinstance(r.get("warning"), str) and r["warning"]:
        notes.append(r["warning"])
        return f"{sep}({len(notes)})"
    return ""


def _summary_cells(r: pd.Series, lab_cols: list[str], factor: float) -> list[str]:
    """One summary row: label, n, median, CI, half-width %, CI level, CV."""
    med = r["median"] * factor
    lo, hi = r["median_ci_low"] * factor, r["median_ci_high"] * factor
    hw = (max(hi - med, med - lo) / abs(med) * 100
          if med and not (math.isnan(lo) or math.isnan(hi)) else math.nan)
    return [_label(r, lab_cols), str(int(r["n"])), _num(med),
            f"[{_num(lo)}, {_num(hi)}]" if not math.isnan(lo) else "–",
            "–" if math.isnan(hw) else f"{hw:.1f}%",
            "–" if pd.isna(r["median_ci_level"]) else f"{100 * r['median_ci_level']:.1f}%",
            "–" if pd.isna(r["cv"]) else f"{100 * r['cv']:.2f}%"]


def _compare_cells(r: pd.Series, lab_cols: list[str], factor: float,
                   notes: list[str]) -> list[str]:
    """One comparison row: label, medians, Δ% with its CI, adjusted p, n, verdict (+ mark)."""
    ci = ("–" if pd.isna(r["change_pct_ci_low"]) else
          f"[{_signed_pct(r['change_pct_ci_low'])}, {_signed_pct(r['change_pct_ci_high'])}]")
    p = r["p_adjusted"]
    ptxt = "–" if pd.isna(p) else (f"{p:.2g}" if p < 0.001 else f"{p:.3f}")
    n_txt = (f"{int(r['n_pairs'])} pairs" if "n_pairs" in r and not pd.isna(r["n_pairs"])
             else f"{int(r['n'])}+{int(r['n_baseline'])}")
    return [_label(r, lab_cols), _num(r["median_baseline"] * factor), _num(r["median"] * factor),
            _signed_pct(r["change_pct"]), ci, ptxt, n_txt,
            f"{r['verdict']}{_note_mark(r, notes, ' ')}"]


def _display_unit(sub: pd.DataFrame, key: dict) -> tuple[float, str]:
    """Display factor and unit of a section: its ``unit`` column, else its metric's unit."""
    unit = str(sub["unit"].iloc[0]) if "unit" in sub and sub["unit"].notna().any() else None
    if unit is None and "metric" in key:
        try:
            from ebsstats.schema import metric_info
            unit = metric_info(str(key["metric"]))[0]
        except Exception:  # unknown metric (SchemaError): no display unit
            unit = None
    return display(unit) if unit else (1.0, "")
