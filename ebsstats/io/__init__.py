"""Readers: one module per tool (bonnie, sysbench, pts, ioping, published; fio is a package with a
module per format, :mod:`ebsstats.io.fio`, its logs in :mod:`ebsstats.io.fio.log`), format
sniffing (:mod:`ebsstats.io.sniff`), the reader registry (:mod:`ebsstats.io._registry`), folder
ingest (:mod:`ebsstats.io.folder`) and the typing engine (:mod:`ebsstats.io._columns`).

Readers know nothing of statistics; they return the tidy frame of :mod:`ebsstats.schema`. The
frame constructors are here (``ebsstats.io.frame``, ``series_frame``, ``conform``, ``concat``),
loaded on first use.
"""

_ENGINE = ("frame", "series_frame", "conform", "concat")


def __getattr__(name: str):
    if name in _ENGINE:
        from ebsstats.io import _columns

        return getattr(_columns, name)
    raise AttributeError(f"module 'ebsstats.io' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_ENGINE])
