"""The application layer: command line, report, notebook helpers and CLI tables."""

from ebsstats._lazy import lazy_submodules as _lazy_submodules

__getattr__, __dir__ = _lazy_submodules(__name__, __path__)
