"""fio json+ latency bins (``--output-format=json+``) → the histogram frame. The module is not
called ``histogram``: that is the name of the function (:func:`ebsstats.io.fio.histogram`), and a
module must not shadow a public function of its package."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from ebsstats import schema, units
from ebsstats.errors import ParseError
from ebsstats.io._common import load_text
from ebsstats.io.fio._options import _DIRS, _Bad, _no_report
from ebsstats.io.fio.json import _job_list, _json_docs, _keys

__all__: list[str] = []  # histogram and read_fio_histogram are public from ebsstats.io.fio


def histogram(text: str, source: str) -> pd.DataFrame:
    """Latency histogram of a json+ report: one row per (job entry, op, latency bin).

    Columns: ``run_id`` (the same as the results frame's), ``source``, ``test``, ``op``,
    ``latency`` (``clat``/``lat``/``slat``: the latency the bins belong to), ``lat`` (bin value in
    s: fio prints each bin's midpoint in ns) and ``count`` (I/Os in the bin). Empty when the
    report is plain JSON. Only the last document of a ``--status-interval`` stream is used.

    Examples
    --------
    >>> h = histogram('{"fio version": "fio-3.33", "jobs": []}', "x.json")
    >>> list(h.columns)
    ['run_id', 'source', 'test', 'op', 'latency', 'lat', 'count']
    """
    docs, _ = _json_docs(text, source)
    if not docs:
        raise _no_report(text, source)
    doc = docs[-1][0]
    cols: dict[str, list] = {k: [] for k in ("run_id", "source", "test", "op", "latency",
                                             "lat", "count")}
    try:
        if not isinstance(doc, dict) or not ("jobs" in doc or "client_stats" in doc):
            raise _Bad("$", "a fio JSON document with 'jobs'", _keys(doc))
        key, jobs = _job_list(doc)
        for i, job in enumerate(jobs):
            path = f"$.{key}[{i}]"
            rid = schema.run_id(source, path)
            for dkey, op in _DIRS:
                d = job.get(dkey) if isinstance(job, dict) else None
                if not isinstance(d, dict):
                    continue
                for fam in ("slat", "clat", "lat"):
                    st = d.get(f"{fam}_ns")
                    bins = st.get("bins") if isinstance(st, dict) else None
                    if not isinstance(bins, dict):
                        continue
                    for k, v in bins.items():
                        try:
                            lat = float(k) * units.NS
                        except ValueError:
                            raise _Bad(f"{path}.{dkey}.{fam}_ns.bins", "latency keys (ns)",
                                       k) from None
                        cols["run_id"].append(rid)
                        cols["source"].append(source)
                        cols["test"].append(job.get("jobname"))
                        cols["op"].append(op)
                        cols["latency"].append(fam)
                        cols["lat"].append(lat)
                        cols["count"].append(v)
    except _Bad as bad:
        raise ParseError(source, bad.path, bad.expected, found=bad.found) from None
    out = pd.DataFrame(cols)
    out = out.astype({"run_id": schema.STRING, "source": schema.STRING, "test": schema.STRING,
                      "op": pd.CategoricalDtype(schema.OPS), "latency": "category",
                      "lat": np.float64})
    try:
        out["count"] = pd.to_numeric(out["count"], errors="raise").astype(np.int64)
    except (ValueError, TypeError) as exc:
        raise ParseError(source, "$.jobs[*].*.clat_ns.bins", "integer bin counts",
                         found=str(exc)) from exc
    return out


def read_fio_histogram(path: str | os.PathLike) -> pd.DataFrame:
    """Read the latency histogram (``bins``) of a fio ``--output-format=json+`` file.

    See :func:`histogram` for the columns; ``run_id`` matches :func:`read_fio` on the same path.

    Examples
    --------
    >>> import pathlib
    >>> p = pathlib.Path("tests/fixtures/fio/small_jsonplus.json")
    >>> h = read_fio_histogram(p) if p.exists() else None
    """
    return histogram(load_text(path), str(path))
