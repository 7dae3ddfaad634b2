"""The readers that ship with ebsstats, registered on first use (importing them costs)."""

from __future__ import annotations

import threading

_LOADED = False
_LOCK = threading.RLock()  # reentrant: a reader whose import sniffs must not wait on itself
_loading = False  # this module is registering them (in the thread that holds the lock)


def load() -> None:
    """Register the built-in readers, most specific first: a published table before the tools,
    a fio log before a fio report.

    Safe for threads: the first reads of a process may start at once in several threads (a
    Dask or thread-pool scheduler); each waits until every reader is registered, never sniffs
    a half-filled registry (which would call every file "not a recognised benchmark output").
    """
    global _LOADED, _loading
    if _LOADED:
        return
    with _LOCK:
        if _LOADED or _loading:
            return
        _loading = True
        try:
            from ebsstats.io import _registry, bonnie, fio, ioping, pkb, pts, published, sysbench
            from ebsstats.io.fio import log as fio_log

            for module in (published, pkb, fio_log, fio, bonnie, sysbench, pts, ioping):
                _registry.add_builtin(module.READER)
            _LOADED = True
        finally:
            _loading = False
