"""Statistics, one module per question; nothing here knows a file format.

The public functions are re-exported by :mod:`ebsstats`; the modules are reachable as
attributes (``es.stats.design``) and import lazily.
"""

import importlib as _importlib

_SUBMODULES = {"burst", "calendar", "changepoint", "comparison", "components", "costs", "dask", "design", "firstwrite", "flags", "members", "multiplicity", "overview", "planning", "reported", "summary", "trends", "warmup"}


def __getattr__(name: str):
    if name in _SUBMODULES:
        module = _importlib.import_module(f"ebsstats.stats.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'ebsstats.stats' has no attribute {name!r}")


def __dir__():
    return sorted(_SUBMODULES)
