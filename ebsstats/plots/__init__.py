"""Plots, seaborn style: ``data=`` plus column names; each returns the matplotlib Axes or Figure
and never calls ``plt.show()``. One module per statistical family; formatting for people (MB/s,
ms) happens here and nowhere else.
"""

from ebsstats._lazy import lazy_submodules as _lazy_submodules

__getattr__, __dir__ = _lazy_submodules(__name__, __path__)
