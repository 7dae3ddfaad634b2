"""Batch reports: run every notebook with papermill on a data folder, render HTML, write an index.

The report is built in a temporary folder beside ``out`` and swapped in only when every notebook
ran: a failing notebook names itself and its cell, exits non-zero, and leaves the previous report
intact. Parameters reach the notebooks as values (papermill writes them as Python literals), never
as code.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from ebsstats import __version__
from ebsstats.atomic import atomic_dir
from ebsstats.errors import EbsstatsError
from ebsstats.io.folder import CACHE_ENV

__all__ = ["report", "default_notebooks", "notebook_list"]


class ReportError(EbsstatsError):
    """A notebook failed while building a report."""

    def __init__(self, notebook: str, cell: int | None, error: str):
        self.notebook, self.cell, self.error = notebook, cell, error
        where = f"{notebook}, cell {cell}" if cell is not None else notebook
        super().__init__(f"report failed in {where}: {error}")


def default_notebooks() -> Path:
    """The project's ``notebooks/`` folder (beside the package in a source checkout)."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "notebooks", here / "notebooks"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("no notebooks/ folder found; pass notebooks=")


def notebook_list(folder: str | os.PathLike) -> list[Path]:
    """Notebooks of a report, in name order (``00-overview.ipynb``, ``01-variance.ipynb``, …)."""
    return sorted(p for p in Path(folder).glob("*.ipynb") if not p.name.startswith("."))


def _title(nb_path: Path) -> str:
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            for line in "".join(cell.get("source", "")).splitlines():
                if line.startswith("#"):
                    return line.lstrip("#").strip()
    return nb_path.stem


def _failing_cell(executed: Path) -> tuple[int | None, str | None]:
    """1-based index of the failing cell in the *source* notebook (papermill's injected
    parameters cell not counted), and its first line."""
    try:
        nb = json.loads(executed.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, None
    index = 0
    for cell in nb.get("cells", []):
        tags = cell.get("metadata", {}).get("tags", [])
        if "injected-parameters" in tags or "papermill-error-cell-tag" in tags:
            continue
        index += 1
        if any(o.get("output_type") == "error" for o in cell.get("outputs", [])):
            src = "".join(cell.get("source", "")).strip().splitlines()
            return index, (src[0][:80] if src else "")
    return None, None


def _render_html(executed: Path, target: Path, show_code: bool) -> None:
    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.read(executed, as_version=4)
    exporter = HTMLExporter(exclude_input=not show_code, exclude_input_prompt=True,
                            exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(nb)
    target.write_text(body, encoding="utf-8")


def _index(pages: list[tuple[str, str]], data: str, params: Mapping) -> str:
    items = "\n".join(f'    <li><a href="{html.escape(href)}">{html.escape(title)}</a></li>'
                      for href, title in pages)
    shown = "".join(f"<li><code>{html.escape(str(k))}</code> = <code>"
                    f"{html.escape(repr(v))}</code></li>" for k, v in params.items())
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>ebsstats report</title>
<style>body{{font-family:system-ui,sans-serif;max-width:50em;margin:2em auto;line-height:1.5}}
code{{background:#f3f3f3;padding:0 .2em}}</style></head>
<body>
<h1>ebsstats report</h1>
<p>Data: <code>{html.escape(data)}</code> · ebsstats {__version__} · built {stamp}</p>
<ol>
{items}
</ol>
<h2>Parameters</h2><ul>{shown}</ul>
</body></html>
"""


def report(data: str | os.PathLike, out: str | os.PathLike = "reports", *,
           notebooks: str | os.PathLike | None = None, parameters: Mapping | None = None,
           only: list[str] | None = None, show_code: bool = False, timeout: int = 900,
           kernel_name: str | None = None, log: Callable[[str], None] | None = None) -> Path:
    """Run every notebook on ``data`` with papermill and write an HTML report to ``out``.

    Parameters
    ----------
    data : path
        Folder (or file) of benchmark outputs; passed to each notebook's ``data`` parameter.
    out : path
        Report folder; it gets one HTML page per notebook, the executed notebooks and
        ``index.html``. Replaced atomically when every notebook succeeded.
    notebooks : path, optional
        Folder of notebooks (default: the project's ``notebooks/``).
    parameters : mapping, optional
        Extra parameters; each notebook receives those its ``parameters`` cell defines.
    only : list of str, optional
        Run only notebooks whose file name contains one of these strings.
    show_code : bool
        Keep code cells in the HTML (hidden by default).

    Returns
    -------
    pathlib.Path
        The path of ``index.html``.

    Raises
    ------
    ReportError
        naming the notebook and the cell that failed.
    """
    import papermill as pm

    log = log or (lambda msg: None)
    nb_dir = Path(notebooks) if notebooks else default_notebooks()
    books = notebook_list(nb_dir)
    if only:
        books = [b for b in books if any(o in b.name for o in only)]
    if not books:
        raise ReportError(str(nb_dir), None, "no notebooks to run")
    out = Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    data_abs = str(Path(data).resolve())
    params = dict(parameters or {})
    pages: list[tuple[str, str]] = []
    previous = os.environ.get(CACHE_ENV)
    with tempfile.TemporaryDirectory(prefix="ebsstats-read-cache-") as cache, \
            atomic_dir(out, tag="building") as tmp:
        # the notebooks' kernels inherit this: a corpus is parsed once for the whole report
        os.environ[CACHE_ENV] = cache
        try:
            _run_all(pm, books, tmp, data_abs, params, kernel_name, timeout, show_code, log,
                     pages)
        finally:
            if previous is None:
                os.environ.pop(CACHE_ENV, None)
            else:
                os.environ[CACHE_ENV] = previous
    return out / "index.html"


def _run_all(pm, books, tmp, data_abs, params, kernel_name, timeout, show_code, log, pages):
    (tmp / "notebooks").mkdir()
    for book in books:
        declared = pm.inspect_notebook(str(book))
        given = {"data": data_abs, "output": str(tmp), **params}
        use = {k: v for k, v in given.items() if k in declared}
        executed = tmp / "notebooks" / book.name
        log(f"running {book.name}")
        try:
            pm.execute_notebook(str(book), str(executed), parameters=use,
                                cwd=str(book.parent), kernel_name=kernel_name,
                                progress_bar=False, execution_timeout=timeout,
                                report_mode=not show_code)
        except pm.PapermillExecutionError as exc:
            cell, first_line = _failing_cell(executed)
            detail = f"{exc.ename}: {exc.evalue}"
            if first_line:
                detail += f" (cell starts: {first_line!r})"
            raise ReportError(book.name, cell, detail) from None
        except Exception as exc:  # kernel died, timeout, bad notebook JSON
            raise ReportError(book.name, None, f"{type(exc).__name__}: {exc}") from None
        page = book.with_suffix(".html").name
        _render_html(executed, tmp / page, show_code)
        pages.append((page, _title(book)))
    (tmp / "index.html").write_text(_index(pages, data_abs, params), encoding="utf-8")
