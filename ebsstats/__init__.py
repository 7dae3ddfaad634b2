"""ebsstats: trustworthy statistics for cloud block-storage benchmarks.

Reads fio, bonnie++, sysbench and Phoronix Test Suite outputs into one tidy frame
(:mod:`ebsstats.schema`) and quantifies run-to-run variance, calendar drift, first-write penalties
and steady state, slow RAID members, and cost per IOPS and per MB/s.

>>> import ebsstats as es
>>> es.__version__ == es.version()
True

The package is layered (``ebsstats.io`` readers and ``ebsstats.stats`` statistics side by side on
the core ``schema``/``units``/``errors``/``pricing``/``atomic``; ``ebsstats.plots`` above them;
``ebsstats.app`` — CLI, report, notebook helpers — on top). The public functions are re-exported
here explicitly and imported lazily (PEP 562), so ``import ebsstats`` stays fast: pandas, scipy and
statsmodels load when the first function that needs them is called. Each name below is in the
``__all__`` of the module that defines it (tested).
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _dist_version
from typing import TYPE_CHECKING

from ebsstats.errors import EbsstatsError as EbsstatsError
from ebsstats.errors import IngestError as IngestError
from ebsstats.errors import IngestFailure as IngestFailure
from ebsstats.errors import ParseError as ParseError
from ebsstats.errors import SchemaError as SchemaError

try:  # single source: the version in pyproject.toml, as installed
    __version__ = _dist_version("ebsstats")
except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
    __version__ = "0+unknown"


def version(dist: str = "ebsstats") -> str:
    """Installed version of a distribution (default: ebsstats itself)."""
    return _dist_version(dist)


# module -> the public names it exports at the top level (each also in that module's __all__)
_PUBLIC: dict[str, tuple[str, ...]] = {
    # readers
    "ebsstats.io.folder": ("read", "read_series", "check"),
    "ebsstats.io.fio": ("read_fio",),
    "ebsstats.io.fio.log": ("read_fio_log", "read_fio_hist_log"),
    "ebsstats.io.bonnie": ("read_bonnie",),
    "ebsstats.io.sysbench": ("read_sysbench",),
    "ebsstats.io.pts": ("read_pts",),
    "ebsstats.io.ioping": ("read_ioping",),
    "ebsstats.io.pkb": ("read_pkb",),
    "ebsstats.io.published": ("read_published",),
    "ebsstats.io.parquet": ("to_parquet", "read_parquet"),
    "ebsstats.io.dataset": ("read_dask", "to_parquet_dataset", "read_dataset"),
    "ebsstats.stats.dask": ("summarize_dask",),
    # the contract
    "ebsstats.io._columns": ("frame",),
    "ebsstats.schema": ("validate", "validate_series", "select"),
    "ebsstats.stats.overview": ("inventory",),
    # variance and comparison
    "ebsstats.stats.summary": ("summarize", "median_ci"),
    "ebsstats.stats.comparison": ("compare",),
    "ebsstats.stats.history": ("regressions", "split_by_time"),
    "ebsstats.stats.percentiles": ("pooled_percentiles", "percentiles_over_time",
                                   "compare_percentiles", "merge_histograms"),
    "ebsstats.stats.reported": ("compare_reported",),
    "ebsstats.stats.planning": ("repetitions_needed",),
    "ebsstats.stats.components": ("variance_components",),
    "ebsstats.stats.flags": ("flag_outliers", "bimodality"),
    "ebsstats.stats.independence": ("autocorrelation",),
    # drift
    "ebsstats.stats.calendar": ("drift", "drift_test"),
    "ebsstats.stats.trends": ("trend",),
    "ebsstats.stats.changepoint": ("changepoints", "changepoints_frame"),
    "ebsstats.stats.design": ("schedule",),
    # warm-up, first write, burst
    "ebsstats.stats.warmup": ("steady_state", "segments"),
    "ebsstats.stats.firstwrite": ("first_write", "touch_table"),
    "ebsstats.stats.burst": ("burst_model", "label_burst", "burst_check"),
    # slow volumes
    "ebsstats.stats.members": ("slow_volumes", "slow_summary", "slow_transitions",
                               "rank_stability", "array_check", "fleet_outliers"),
    # cost
    "ebsstats.pricing": ("price_book", "volume_cost"),
    "ebsstats.stats.costs": ("cost",),
    # report
    "ebsstats.app.reports": ("report",),
}

_LAZY: dict[str, str] = {name: mod for mod, names in _PUBLIC.items() for name in names}

# subpackages and core modules reachable as attributes (es.io, es.stats, es.plots, ...)
_MODULES = ("io", "stats", "plots", "app", "simulate", "schema", "units", "errors", "pricing",
            "atomic")

__all__ = sorted([*_LAZY, *_MODULES, "ParseError", "SchemaError", "IngestError",
                  "IngestFailure", "EbsstatsError", "__version__", "version"])


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    if name in _MODULES:
        module = importlib.import_module(f"ebsstats.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'ebsstats' has no attribute {name!r}")


def __dir__():
    return __all__


if TYPE_CHECKING:  # for type checkers and IDEs
    from ebsstats import app, io, plots, schema, simulate, stats, units  # noqa: F401
