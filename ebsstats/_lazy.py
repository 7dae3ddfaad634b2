"""Lazy submodule attributes for a package (PEP 562): ``es.stats.design`` imports on first use.

The submodules are found on disk (``pkgutil.iter_modules``), so a new module needs no list to be
kept in step; private modules (``_core``) are not offered.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable


def lazy_submodules(package: str, path: Iterable[str]
                    ) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` whose ``__path__`` is ``path``.

    >>> getattr_, dir_ = lazy_submodules("ebsstats.stats", __import__("ebsstats.stats").stats.__path__)
    >>> "summary" in dir_() and getattr_("summary").__name__
    'ebsstats.stats.summary'
    """
    names = sorted(m.name for m in pkgutil.iter_modules(list(path)) if not m.name.startswith("_"))
    module = importlib.import_module(package)

    def __getattr__(name: str):
        if name in names:
            sub = importlib.import_module(f"{package}.{name}")
            setattr(module, name, sub)
            return sub
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return list(names)

    return __getattr__, __dir__
