"""The application layer: command line, report, notebook helpers and CLI tables."""

import importlib as _importlib

_SUBMODULES = {"cli", "notebook", "reports", "tables"}


def __getattr__(name: str):
    if name in _SUBMODULES:
        module = _importlib.import_module(f"ebsstats.app.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'ebsstats.app' has no attribute {name!r}")


def __dir__():
    return sorted(_SUBMODULES)
