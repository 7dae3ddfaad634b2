"""Statistics, one module per question; nothing here knows a file format.

The public functions are re-exported by :mod:`ebsstats`; the modules are reachable as
attributes (``es.stats.design``) and import lazily.
"""

from ebsstats._lazy import lazy_submodules as _lazy_submodules

__getattr__, __dir__ = _lazy_submodules(__name__, __path__)
