"""Multiple-comparison adjustment: kept as an import path; the implementation lives in
:mod:`ebsstats.stats._core` (one copy for every statistic)."""

from __future__ import annotations

from ebsstats.stats._core import adjust_pvalues, best_adjusted_p

__all__ = ["adjust_pvalues", "best_adjusted_p"]
