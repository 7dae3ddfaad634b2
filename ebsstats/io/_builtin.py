"""The readers that ship with ebsstats, registered on first use (importing them costs)."""

from __future__ import annotations

_LOADED = False


def load() -> None:
    """Register the built-in readers, most specific first: a published table before the tools,
    a fio log before a fio report."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from ebsstats.io import _registry, bonnie, fio, ioping, pkb, pts, published, sysbench
    from ebsstats.io.fio import log as fio_log

    for module in (published, pkb, fio_log, fio, bonnie, sysbench, pts, ioping):
        _registry.add_builtin(module.READER)
