"""Readers: one module per tool (fio, fio_log, bonnie, sysbench, pts, ioping, published), format
sniffing (:mod:`ebsstats.io.sniff`) and folder ingest (:mod:`ebsstats.io.folder`).

Readers know nothing of statistics; they return the tidy frame of :mod:`ebsstats.schema`.
"""
