"""ebsstats: trustworthy statistics for cloud block-storage benchmarks.

Reads fio, bonnie++, sysbench and Phoronix Test Suite outputs into one tidy frame
(:mod:`ebsstats.schema`) and quantifies run-to-run variance, calendar drift, first-write penalties
and steady state, slow RAID members, and cost per IOPS and per MB/s.

>>> import ebsstats as es
>>> es.__version__
'0.1.0'

The public names are imported lazily (PEP 562), so ``import ebsstats`` stays fast: pandas, scipy
and statsmodels load when the first function that needs them is called.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING

from .errors import EbsstatsError as EbsstatsError
from .errors import IngestError as IngestError
from .errors import IngestFailure as IngestFailure
from .errors import ParseError as ParseError
from .errors import SchemaError as SchemaError

__version__ = "0.1.0"

# public name -> module that defines it
_LAZY: dict[str, str] = {
    # readers (ebsstats.io)
    "read": "ebsstats.io.folder",
    "read_series": "ebsstats.io.folder",
    "check": "ebsstats.io.folder",
    "read_fio": "ebsstats.io.fio",
    "read_fio_log": "ebsstats.io.fio_log",
    "read_bonnie": "ebsstats.io.bonnie",
    "read_sysbench": "ebsstats.io.sysbench",
    "read_pts": "ebsstats.io.pts",
    "read_ioping": "ebsstats.io.ioping",
    "read_published": "ebsstats.io.published",
    "to_parquet": "ebsstats.io.parquet",
    "read_parquet": "ebsstats.io.parquet",
    # schema
    "validate": "ebsstats.schema",
    "validate_series": "ebsstats.schema",
    "select": "ebsstats.overview",
    "inventory": "ebsstats.overview",
    # variance and comparison
    "summarize": "ebsstats.variance",
    "median_ci": "ebsstats.variance",
    "compare": "ebsstats.compare",
    "compare_reported": "ebsstats.reported",
    "repetitions_needed": "ebsstats.repetitions",
    "variance_components": "ebsstats.components",
    "flag_outliers": "ebsstats.flags",
    "bimodality": "ebsstats.flags",
    # drift
    "drift": "ebsstats.drift",
    "drift_test": "ebsstats.drift",
    "trend": "ebsstats.trend",
    "changepoints": "ebsstats.changepoint",
    "changepoints_frame": "ebsstats.changepoint",
    "schedule": "ebsstats.design",
    # warm-up, first write, burst
    "steady_state": "ebsstats.warmup",
    "first_write": "ebsstats.firstwrite",
    "burst_model": "ebsstats.burst",
    "label_burst": "ebsstats.burst",
    "burst_check": "ebsstats.burst",
    "segments": "ebsstats.warmup",
    "touch_table": "ebsstats.firstwrite",
    # slow volumes
    "slow_volumes": "ebsstats.outliers",
    "slow_summary": "ebsstats.outliers",
    "slow_transitions": "ebsstats.outliers",
    "rank_stability": "ebsstats.outliers",
    "array_check": "ebsstats.outliers",
    "fleet_outliers": "ebsstats.outliers",
    # cost
    "price_book": "ebsstats.pricing",
    "volume_cost": "ebsstats.pricing",
    "cost": "ebsstats.cost",
    # scale-out
    "read_dask": "ebsstats.scale",
    "summarize_dask": "ebsstats.scale",
    "to_parquet_dataset": "ebsstats.scale",
    "read_dataset": "ebsstats.scale",
    # report
    "report": "ebsstats.report",
}

_MODULES = {"schema", "units", "io", "plots", "simulate", "overview", "design", "pricing",
            "notebook", "scale",
            "testing"}

__all__ = sorted([*_LAZY, "ParseError", "SchemaError", "IngestError", "IngestFailure",
                  "EbsstatsError", "__version__"])


def __getattr__(name: str):
    if name in _LAZY:
        module = importlib.import_module(_LAZY[name])
        value = getattr(module, name)
        globals()[name] = value
        return value
    if name in _MODULES:
        module = importlib.import_module(f"ebsstats.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'ebsstats' has no attribute {name!r}")


def __dir__():
    return __all__


class _Package(types.ModuleType):
    """Keeps public functions from being shadowed by the submodule of the same name.

    ``cost``, ``compare``, ``drift``, ``trend``, ``report`` and ``simulate`` are functions *and*
    the modules that define them. Importing such a submodule (``from ebsstats.cost import x``,
    doctest collection) makes the import system set ``ebsstats.cost`` to the module; this class
    refuses that one binding, so ``es.cost(df)`` is the function in every import order while
    ``sys.modules["ebsstats.cost"]`` and ``from ebsstats.cost import ...`` keep working.
    """

    def __setattr__(self, name, value):
        if (name in _LAZY and isinstance(value, types.ModuleType)
                and value.__name__ == f"{__name__}.{name}"):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


if TYPE_CHECKING:  # for type checkers and IDEs
    from . import io, plots, schema, units  # noqa: F401
