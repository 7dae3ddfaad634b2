"""Plots, seaborn style: ``data=`` plus column names; each returns the matplotlib Axes or Figure
and never calls ``plt.show()``. One module per statistical family; formatting for people (MB/s,
ms) happens here and nowhere else.
"""

import importlib as _importlib

_SUBMODULES = {"overview", "summary", "calendar", "warmup", "members", "costs", "history"}


def __getattr__(name: str):
    if name in _SUBMODULES:
        module = _importlib.import_module(f"ebsstats.plots.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'ebsstats.plots' has no attribute {name!r}")
