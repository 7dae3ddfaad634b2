"""Batch reports: run every notebook with papermill on a data folder, render HTML, write an index.

The data are read once (``pattern`` gives metadata from file names, as for ``ebsstats ingest``)
into Parquet files that every notebook reads through its ``data`` and ``series`` parameters, so a
corpus is parsed once per report. The report is built in a temporary folder beside ``out``; a
notebook that fails does not stop the others: its page shows the error (notebook, cell,
message), the index marks it, and :func:`report` raises :class:`ReportError` after the complete
report was swapped in. If the report cannot be completed at all (no notebooks, unreadable data),
the previous report stays untouched.

``out`` is never allowed to destroy data: it may not be the data folder, lie inside it or contain
it, and an existing non-empty folder is replaced only when it holds the marker file
(:data:`MARKER`) that every ebsstats report has. Parameters reach the notebooks as values
(papermill writes them as Python literals), never as code.
"""

from __future__ import annotations

import ast
import collections
import concurrent.futures
import datetime as dt
import functools
import html
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from ebsstats import __version__
from ebsstats.atomic import atomic_dir, overlap
from ebsstats.errors import EbsstatsError

__all__ = ["report", "default_notebooks", "notebook_list", "choose_notebooks",
           "notebook_parameters", "check_output", "check_values", "MARKER"]

#: Marker file written into every report folder: only such a folder is ever replaced.
MARKER = ".ebsstats-report"

#: Parameters the report sets itself (never from ``-p``).
RESERVED = ("data", "series", "output")


class ReportError(EbsstatsError):
    """A notebook failed while building a report (the report was written; its page shows why),
    or the report could not be built at all."""

    def __init__(self, notebook: str, cell: int | None, error: str,
                 failed: list[tuple[str, int | None, str]] | None = None):
        self.notebook, self.cell, self.error = notebook, cell, error
        self.failed = failed or [(notebook, cell, error)]
        where = f"{notebook}, cell {cell}" if cell is not None else notebook
        msg = f"report failed in {where}: {error}"
        if len(self.failed) > 1:
            msg += f" (and {len(self.failed) - 1} more page(s): " + ", ".join(
                f[0] for f in self.failed[1:]) + ")"
        super().__init__(msg)


class NotebookChoiceError(ReportError, ValueError):
    """``notebooks=`` is no folder of notebooks, or an ``only=`` entry names none of them:
    raised by :func:`report` before anything is read or built.

    ``option`` (``"notebooks"`` or ``"only"``), ``value`` and ``problem`` are kept apart, so
    that the command line can say ``--only zzz: ...`` where Python says ``only=zzz: ...``.
    """

    def __init__(self, option: str, value: str, problem: str):
        self.option, self.value, self.problem = option, value, problem
        self.notebook, self.cell, self.error = value, None, problem
        self.failed = [(value, None, problem)]
        EbsstatsError.__init__(self, f"{option}={value}: {problem}")


class OutputRefused(EbsstatsError):
    """The output folder would overwrite or delete data that is not an ebsstats report."""


def default_notebooks() -> Path:
    """The project's ``notebooks/`` folder: beside the package in a source checkout, inside it
    (``ebsstats/notebooks``) in an installed wheel."""
    here = Path(__file__).resolve().parents[1]
    for candidate in (here.parent / "notebooks", here / "notebooks"):
        if candidate.is_dir() and any(candidate.glob("*.ipynb")):
            return candidate
    raise FileNotFoundError("no notebooks/ folder found; pass notebooks=")


def notebook_list(folder: str | os.PathLike) -> list[Path]:
    """Notebooks of a report, in name order (``00-overview.ipynb``, ``01-variance.ipynb``, …)."""
    return sorted(p for p in Path(folder).glob("*.ipynb") if not p.name.startswith("."))


def choose_notebooks(notebooks: str | os.PathLike | None = None,
                     only: list[str] | None = None) -> list[Path]:
    """The notebooks a report runs: those of ``notebooks`` (default: :func:`default_notebooks`)
    whose file name contains one of ``only`` (all without it).

    Raises
    ------
    NotebookChoiceError
        ``notebooks`` is no folder or holds no ``*.ipynb``, or an entry of ``only`` is in no
        notebook's name (the message lists the notebooks).

    Examples
    --------
    >>> [b.name for b in choose_notebooks(only=["00-"])]
    ['00-overview.ipynb']
    >>> choose_notebooks(only=["zzz"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ebsstats.app.reports.NotebookChoiceError: only=zzz: no notebook's name has it; the ...
    """
    folder = Path(notebooks) if notebooks else default_notebooks()
    if not folder.is_dir():
        raise NotebookChoiceError("notebooks", str(folder), "no such folder")
    books = notebook_list(folder)
    if not books:
        raise NotebookChoiceError("notebooks", str(folder), "no notebooks (*.ipynb) in it")
    missing = [o for o in only or [] if not any(o in b.name for b in books)]
    if missing:
        raise NotebookChoiceError("only", ", ".join(missing), "no notebook's name has it; the "
                                  "notebooks: " + ", ".join(b.name for b in books))
    return [b for b in books if not only or any(o in b.name for o in only)]


def notebook_parameters(book: str | os.PathLike) -> dict[str, dict]:
    """The parameters a notebook declares: ``{name: {"default": value, "help": comment}}``.

    Every line of the cell tagged ``parameters`` must be ``name = literal  # help``; a line that
    papermill cannot parse raises ``ValueError`` instead of being silently dropped.
    """
    nb = _load_notebook(Path(book))
    out: dict[str, dict] = {}
    for cell in nb.get("cells", []):
        if "parameters" not in cell.get("metadata", {}).get("tags", []):
            continue
        for line in "".join(cell.get("source", "")).splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.count("=") != 1:  # papermill drops such a line (an "=" in the comment)
                raise ValueError(f"{Path(book).name}: parameter line {line!r} must have exactly "
                                 "one '=' (papermill cannot parse it otherwise)")
            code, _, comment = line.partition("#")
            name, eq, value = code.partition("=")
            try:
                default = ast.literal_eval(value.strip())
            except (ValueError, SyntaxError):
                default = None
                eq = ""
            if not eq or not name.strip().isidentifier():
                raise ValueError(f"{Path(book).name}: parameter line {line!r} is not "
                                 "`name = literal  # help`")
            out[name.strip()] = {"default": default, "help": comment.strip()}
    return out


def check_output(data: str | os.PathLike, out: str | os.PathLike) -> None:
    """Refuse an output folder that would overwrite or delete anything but an old report.

    Raises :class:`OutputRefused` when ``out`` is the data folder, lies inside it or contains it
    (links resolved: :func:`ebsstats.atomic.overlap`, the rule ingest's outputs follow too),
    is a file, is a non-empty folder without the report marker file, or is a report folder
    holding files its marker does not list (a user's notes beside the pages), or is a mount
    point (its folder cannot be replaced).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> check_output(d, d / "reports")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ebsstats.app.reports.OutputRefused: -o ... lies inside the data folder ...; choose a folder outside it
    """
    d, o = Path(data).resolve(), Path(out).resolve()
    how = overlap(o, d)  # (the rule ingest's outputs follow too: ebsstats.io.meta.check_apart)
    if how is not None:
        raise OutputRefused(_NOT_APART[how].format(o=o, d=d))
    if o.exists() and not o.is_dir():
        raise OutputRefused(f"-o {o} is a file; choose a folder")
    if o.is_dir() and os.path.ismount(o):  # (os.replace of a mount point: EBUSY at the end)
        raise OutputRefused(f"-o {o} is a mount point: a new report replaces its folder whole, "
                            f"which a mount point cannot be; choose a folder in it, such as "
                            f"{o / 'report'}")
    if o.is_dir() and any(o.iterdir()) and not (o / MARKER).exists():
        raise OutputRefused(f"-o {o} is not empty and is not an ebsstats report (no {MARKER}); "
                            "choose an empty or new folder")
    added = _not_written(o) if (o / MARKER).is_file() else []
    if added:
        more = f" and {len(added) - 3} more" if len(added) > 3 else ""
        raise OutputRefused(f"-o {o} holds files the report did not write ({', '.join(added[:3])}"
                            f"{more}): a new report replaces the folder; move them out or "
                            "choose another folder")


#: What :func:`check_output` says of an ``out`` that :func:`ebsstats.atomic.overlap` finds is not
#: apart from the data.
_NOT_APART = {
    "same": "-o {o} is the data folder; choose another folder",
    "inside": "-o {o} lies inside the data folder {d}; choose a folder outside it",
    "contains": "-o {o} contains the data {d}; replacing it would delete the data: choose an "
                "empty or new folder",
}


def _not_written(folder: Path) -> list[str]:
    """Files of an earlier report's folder that its marker does not list (added by a user).
    A marker that lists nothing (a report made before this check) vouches for the folder."""
    lines = (folder / MARKER).read_text(encoding="utf-8", errors="replace").splitlines()
    if len(lines) < 2:
        return []
    wrote = set(lines[1:]) | {MARKER}
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if not p.is_dir() and p.relative_to(folder).as_posix() not in wrote)


def _load_notebook(path: Path) -> dict:
    """A notebook file's JSON; ``ValueError`` naming the file if it is not a notebook's JSON
    (a truncated copy said only "Expecting value: line 2 column 1")."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a readable notebook ({exc})") from exc
    cells = nb.get("cells", []) if isinstance(nb, dict) else None
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise ValueError(f"{path}: not a readable notebook (no list of cells)")
    return nb


def _title(nb_path: Path) -> str:
    nb = _load_notebook(nb_path)
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


_ERROR_BANNER = """<div style="border:2px solid #c62828;background:#fdecea;padding:.8em 1em;
margin:1em 0;font-family:system-ui,sans-serif"><b>This page failed</b> in cell {cell}:
<code>{error}</code><br>The other pages of the report are complete. The cell's output below
shows where.</div>"""


def _render_html(executed: Path, target: Path, show_code: bool,
                 error: tuple[int | None, str] | None = None) -> None:
    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.read(executed, as_version=4)
    # papermill's own red "An Exception was encountered" cell is code-styled noise in a report
    nb.cells = [c for c in nb.cells
                if "papermill-error-cell-tag" not in c.get("metadata", {}).get("tags", [])]
    if not show_code and error is None:
        nb.cells = _collapse_empty_sections(nb.cells)
    exporter = HTMLExporter(exclude_input=not show_code, exclude_input_prompt=True,
                            exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(nb)
    if error is not None:
        banner = _ERROR_BANNER.format(cell=error[0] if error[0] is not None else "?",
                                      error=html.escape(error[1]))
        body = body.replace("<main>", "<main>" + banner, 1) if "<main>" in body else \
            body.replace("<body", banner + "<body", 1)
    target.write_text(body, encoding="utf-8")


_NOTHING = "*Nothing to show for this data.*"
RESULTS_TAG = "results"  # a section heading's tag: the section shows results of its code


def _heading(cell) -> bool:
    """A section's heading (level 2 or deeper: the page's title and its introduction stay)."""
    return cell.get("cell_type") == "markdown" and cell.get("source", "").lstrip().startswith(
        "##")


def _shows_results(cell) -> bool:
    return RESULTS_TAG in cell.get("metadata", {}).get("tags", [])


def _collapse_empty_sections(cells: list) -> list:
    r"""The sections of a page (a ``##`` heading and the cells up to the next one) whose heading
    is tagged ``results`` and whose code ran and showed nothing, reduced to their heading and
    one line. When the data cannot support an analysis the page says so once ("Not shown:"
    and what it would need) and its later sections guard their code: their prose on a method
    without results only confused the readers of the report. Untagged sections (prose, a
    table of advice, a silent clean-up) stay whole; the executed notebook saved beside the
    page keeps every cell.

    >>> import nbformat.v4 as v4
    >>> def heading(text, tags=("results",)):
    ...     return v4.new_markdown_cell(text, metadata={"tags": list(tags)})
    >>> cells = [v4.new_markdown_cell("# Page"), v4.new_code_cell("import x"),
    ...          heading("## Effects\n\nWhat they are."), v4.new_markdown_cell("How to read them."),
    ...          v4.new_code_cell("if ok: show()"), heading("## Advice", tags=()),
    ...          v4.new_markdown_cell("A table."), v4.new_code_cell("cleanup()")]
    >>> for c in _collapse_empty_sections(cells):
    ...     print(repr(c.source))
    '# Page'
    'import x'
    '## Effects\n\n*Nothing to show for this data.*'
    '## Advice'
    'A table.'
    'cleanup()'
    """
    from nbformat.v4 import new_markdown_cell

    starts = [k for k, c in enumerate(cells) if _heading(c)]
    if not starts:
        return list(cells)
    out = list(cells[:starts[0]])
    for a, b in zip(starts, [*starts[1:], len(cells)], strict=True):
        section = cells[a:b]
        code = [c for c in section if c.get("cell_type") == "code"]
        if _shows_results(section[0]) and code and not any(c.get("outputs") for c in code):
            title = section[0].get("source", "").lstrip().split("\n", 1)[0]  # (a heading's
            # cell often holds the section's prose too)
            out += [new_markdown_cell(f"{title}\n\n{_NOTHING}")]
        else:
            out += section
    return out


def _index(pages: list[tuple[str, str, str | None]], data: str, params: Mapping,
           summary: str) -> str:
    items = "\n".join(
        f'    <li><a href="{html.escape(href)}">{html.escape(title)}</a>'
        + (f' <b style="color:#c62828">failed: {html.escape(err)}</b>' if err else "")
        + "</li>" for href, title, err in pages)
    shown = "".join(f"<li><code>{html.escape(str(k))}</code> = <code>"
                    f"{html.escape(repr(v))}</code></li>" for k, v in params.items()) \
        or "<li>none (every page chose its defaults from the data)</li>"
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>ebsstats report</title>
<style>body{{font-family:system-ui,sans-serif;max-width:50em;margin:2em auto;line-height:1.5}}
code{{background:#f3f3f3;padding:0 .2em}}</style></head>
<body>
<h1>ebsstats report</h1>
<p>Data: <code>{html.escape(data)}</code> · ebsstats {__version__} · built {stamp}</p>
<p>{html.escape(summary)}</p>
<ol>
{items}
</ol>
<h2>Parameters</h2><ul>{shown}</ul>
</body></html>
"""


def _split_lists(params: Mapping, declared: Mapping[str, dict]) -> dict:
    """``"a,b"`` → ``["a", "b"]`` for parameters whose default is a list."""
    out = {}
    for k, v in params.items():
        if isinstance(v, str) and isinstance(declared.get(k, {}).get("default"), list):
            v = [s.strip() for s in v.split(",") if s.strip()]
        out[k] = v
    return out


def _ingest(data: Path, pattern: str | None, where: Path, log, shown: str | None = None
            ) -> tuple[Path, Path, str]:
    """Read ``data`` once into Parquet files the notebooks read; warn (``UserWarning``) what
    the report's reader should know of them: the notes of Parquet data, the path pattern's
    (:class:`~ebsstats.io.meta.PatternWarning`), and that there are no results at all
    (``shown``: the data's path as the caller gave it)."""
    import warnings

    import pandas as pd

    from ebsstats.io.folder import read
    from ebsstats.io.meta import PatternWarning
    from ebsstats.io.parquet import read_parquet_data, to_parquet

    shown = str(data) if shown is None else shown
    results, series = where / "results.parquet", where / "series.parquet"
    df = read_parquet_data(data)  # (a Parquet file or folder: read as it was ingested)
    if df is not None:
        ts, fails = pd.DataFrame(), None
        if not len(df):
            _warn(f"{shown} holds no benchmark results (empty Parquet data); the report is "
                  "built anyway")
    else:
        log(f"reading {data}")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")  # (the failures are shown on page 00)
            df, ts, fails = read(data, pattern=pattern, series=True, full=True,
                                 errors="collect", progress=False)
        if not len(df):
            _warn(_no_results(shown, fails, ts))
        else:
            for said in dict.fromkeys(str(w.message) for w in caught
                                      if issubclass(w.category, PatternWarning)):
                _warn(said, PatternWarning)
    to_parquet(df, results)
    if len(ts.columns):  # an empty series frame still has the schema's columns
        to_parquet(ts, series)
    if fails is not None:
        fails.to_parquet(where / "failures.parquet")
    from ebsstats.stats._core import runs_only  # (a PTS reported mean is not a run)

    n_runs = runs_only(df)["run_id"].nunique() if len(df) else 0
    return results, series, f"{len(df):,} values from {n_runs:,} runs"


def _warn(message: str, category: type[Warning] = UserWarning) -> None:
    """A warning of :func:`report`, pointing at its caller (report > _ingest > here)."""
    import warnings

    warnings.warn(message, category, stacklevel=4)


def _no_results(data: str, fails, series) -> str:
    """The warning of a report of data without results: what was found, each file by its
    first failure as :func:`ebsstats.check` names its action (``series``: the time series,
    whose files were read without results; companion files are not counted), and that
    page 00 lists it.

    >>> import pandas as pd
    >>> fails = pd.DataFrame({"source": ["a.json", "b.json", "b.json", "c.json"],
    ...                       "kind": ["error", "skipped", "note", "error"]})
    >>> _no_results("d", fails, pd.DataFrame({"source": ["x.log"]}))[:71]
    'no benchmark results in d (4 file(s): 2 refuse, 1 skip, 1 read); the re'
    """
    from ebsstats.io.folder import ACTIONS  # (the names ebsstats.check gives them)

    kinds: dict = {}
    for source, kind in zip(fails["source"], fails["kind"], strict=True):
        kinds.setdefault(source, kind)  # (a file's first failure: what became of it)
    for source in series["source"].unique() if "source" in series else ():
        kinds.setdefault(source, "empty")  # (read: only a time series)
    said = ", ".join(f"{n} {a}" for a, n in collections.Counter(
        ACTIONS.get(k, "read") for k in kinds.values()).most_common())
    found = (f"{len(kinds)} file(s): {said}" if kinds
             else "no file read: it is empty or holds only companion files")
    return (f"no benchmark results in {data} ({found}); the report is built anyway: its page "
            f"00 lists what was found and why; see ebsstats.check({data!r})")


#: Notebook parameters that name values of the data, and the columns those values are in
#: (``baseline``: the values of the first ``grouping`` column, ``config`` by default;
#: ``volume``: a volume id or a config, as notebook 03 takes either).
VALUE_PARAMETERS = {"metric": ("metric",), "test": ("test",), "op": ("op",),
                    "volume": ("volume", "config"), "set": ("raid_set",), "iops_test": ("test",),
                    "mbps_test": ("test",), "tools": ("tool",), "baseline": ("config",)}


def check_values(params: Mapping, results: Path, series: Path | None = None) -> None:
    """Refuse a parameter whose value names nothing in the data (``-p metric iopz``): the pages
    would fall back to "not in this data" and say something false of data that has it.

    Raises ``ValueError`` naming the parameter, the values the data has and the nearest ones.
    """
    import difflib

    import pyarrow.parquet as pq

    from ebsstats.stats._core import key_text

    wanted = {k: v for k, v in params.items() if k in VALUE_PARAMETERS and v is not None}
    if not wanted:
        return
    frames = [pq.read_table(f) for f in (results, series) if f is not None and Path(f).exists()]
    for name, value in wanted.items():
        cols = VALUE_PARAMETERS[name]
        if name == "baseline" and isinstance(params.get("grouping"), list | tuple):
            cols = tuple(params["grouping"][:1])
        have = _values_in(frames, cols)
        listed = isinstance(value, list | tuple) or name == "tools"  # (a filter: "fio,pts")
        given = _given(value, listed)
        known = {key_text(v) for v in have}  # (numbers by value: a size of 100 is 100.0)
        missing = [v for v in given if key_text(v) not in known]
        if missing and (not listed or len(missing) == len(given)):  # (a filter may name more)
            close = sorted({c for m in missing for c in difflib.get_close_matches(m, have)})
            raise ValueError(f"-p {name} {', '.join(missing)}: not in this data's "
                             f"{'/'.join(cols)} ({len(have)}: {', '.join(have[:12]) or 'none'}"
                             + (" …" if len(have) > 12 else "") + ")"
                             + (f"; did you mean {', '.join(close)}?" if close else ""))


def _values_in(frames: list, cols: tuple[str, ...]) -> list[str]:
    """The distinct values (as text) of ``cols`` in the Arrow tables ``frames``."""
    return sorted({str(v) for t in frames for c in cols if c in t.column_names
                   for v in t.column(c).unique().to_pylist() if v is not None})


def _given(value, listed: bool) -> list[str]:
    """A parameter's value(s) as text: a list, a comma-separated filter, or one value."""
    if isinstance(value, list | tuple):
        return [str(v).strip() for v in value]
    return [v.strip() for v in str(value).split(",")] if listed else [str(value)]


def report(data: str | os.PathLike, out: str | os.PathLike = "reports", *,
           notebooks: str | os.PathLike | None = None, parameters: Mapping | None = None,
           only: list[str] | None = None, pattern: str | None = None, show_code: bool = False,
           timeout: int = 900, kernel_name: str | None = None,
           log: Callable[[str], None] | None = None, jobs: int | None = None) -> Path:
    """Run every notebook on ``data`` with papermill and write an HTML report to ``out``.

    Parameters
    ----------
    data : path
        Folder (or file) of benchmark outputs, or a Parquet file from ``ebsstats ingest``.
    out : path
        Report folder; it gets one HTML page per notebook, the executed notebooks and
        ``index.html``. Refused when it is, contains or lies inside ``data``, or is a non-empty
        folder that is not an earlier report (:func:`check_output`).
    notebooks : path, optional
        Folder of notebooks (default: the project's ``notebooks/``); checked, with ``only``,
        before anything is read (:func:`choose_notebooks`).
    parameters : mapping, optional
        Notebook parameters; each notebook receives those its ``parameters`` cell defines. A
        name no notebook defines raises ``ValueError`` listing the valid ones; ``"a,b"`` becomes
        a list for parameters whose default is a list.
    only : list of str, optional
        Run only notebooks whose file name contains one of these strings (each must be in
        some notebook's name).
    pattern : str, optional
        Path pattern giving metadata from file names (as ``ebsstats ingest --pattern``).
    show_code : bool
        Keep code cells in the HTML (hidden by default).
    jobs : int, optional
        Notebooks run at once, each in its own kernel (default: the CPUs this process may
        use, at most 4). The pages are the same whatever ``jobs`` is.

    Returns
    -------
    pathlib.Path
        The path of ``index.html``.

    Raises
    ------
    ReportError
        naming the notebook(s) and cell that failed; the report with the other pages was
        written, the failed pages show the error.
    NotebookChoiceError
        ``notebooks`` is no folder of notebooks, or an ``only`` entry names none (a
        :class:`ReportError` and a ``ValueError``); nothing was read or written.
    OutputRefused
        ``out`` would destroy data.
    ValueError
        A parameter no notebook defines, or whose value names nothing in the data
        (:func:`check_values`: ``metric``, ``test``, ``op``, ``baseline``, ``volume``, ``set``
        ...); the earlier report, if any, is kept.

    Warns
    -----
    UserWarning
        Once the data are read, before any notebook runs (the command line prints each as a
        ``note:`` line): data without benchmark results (the report is built anyway: its page
        00 lists every file and why), what reading Parquet data set aside, and the ``pattern``'s
        :class:`~ebsstats.io.meta.PatternWarning` (it matched only some of the files read, or
        names a placeholder that is no column of the schema). The data are parsed once.

    Examples
    --------
    >>> report("data/samples", "/tmp/ebsstats-report")   # doctest: +SKIP
    PosixPath('/tmp/ebsstats-report/index.html')
    """
    log = log or (lambda msg: None)
    if not Path(data).exists():
        raise FileNotFoundError(f"{data}: no such file or folder")
    check_output(data, out)
    books = choose_notebooks(notebooks, only)
    import papermill as pm  # (after the checks: a usage error is said without its import)

    declared = {b: notebook_parameters(b) for b in books}
    params = dict(parameters or {})
    valid = sorted({k for d in declared.values() for k in d} - set(RESERVED))
    unknown = sorted(set(params) - set(valid))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)}; valid: "
                         f"{', '.join(valid) or 'none'}")
    out = Path(out).resolve()
    data_abs = Path(data).resolve()
    pages: list[tuple[str, str, str | None]] = []
    failed: list[tuple[str, int | None, str]] = []
    with tempfile.TemporaryDirectory(prefix="ebsstats-report-data-") as work, \
            atomic_dir(out, tag="building") as tmp:
        results, series, summary = _ingest(data_abs, pattern, Path(work), log, str(data))
        merged = {k: v for d in declared.values() for k, v in d.items()}
        check_values(_split_lists(params, merged), results, series)
        (tmp / "notebooks").mkdir()

        def run(book: Path) -> tuple[int | None, str] | None:
            given = {**_split_lists(params, declared[book]), "data": str(results),
                     "series": str(series) if series.exists() else None, "output": str(tmp)}
            use = {k: v for k, v in given.items() if k in declared[book]}
            return _run_one(pm, book, tmp, use, kernel_name, timeout, show_code, log)

        # each notebook runs in a kernel process of its own, so threads that wait on their
        # kernels run them at once (the 8 bundled ones on 2 cores: ~80 -> ~50 s)
        with concurrent.futures.ThreadPoolExecutor(_report_jobs(jobs, len(books))) as pool:
            errs = list(pool.map(run, books))
        for book, err in zip(books, errs, strict=True):
            page = book.with_suffix(".html").name
            pages.append((page, _title(book), None if err is None else
                          f"cell {err[0]}: {err[1]}" if err[0] else err[1]))
            if err is not None:
                failed.append((book.name, err[0], err[1]))
        (tmp / "index.html").write_text(_index(pages, str(data_abs), params, summary),
                                        encoding="utf-8")
        # (every file it wrote, one a line: a later report replaces only these)
        wrote = sorted(p.relative_to(tmp).as_posix() for p in tmp.rglob("*") if not p.is_dir())
        (tmp / MARKER).write_text(f"ebsstats {__version__} report of {data_abs}\n"
                                  + "".join(f"{w}\n" for w in wrote), encoding="utf-8")
        _permissions(tmp)
    if failed:
        raise ReportError(*failed[0], failed=failed)
    return out / "index.html"


def _report_jobs(jobs: int | None, books: int) -> int:
    """Notebooks run at once: ``jobs`` if given (at least 1), else the CPUs this process may
    use, at most 4; never more than ``books``.

    >>> _report_jobs(3, 8), _report_jobs(0, 8), _report_jobs(None, 1)
    (3, 1, 1)
    """
    if jobs is None:
        try:
            jobs = min(4, len(os.sched_getaffinity(0)))
        except AttributeError:  # not Linux
            jobs = min(4, os.cpu_count() or 1)
    return max(1, min(int(jobs), books))


def _permissions(root: Path) -> None:
    """Folders 0777 and files 0666 minus the umask (mkdtemp creates 0700)."""
    mask = os.umask(0)
    os.umask(mask)
    root.chmod(0o777 & ~mask)
    for p in root.rglob("*"):
        p.chmod((0o777 if p.is_dir() else 0o666) & ~mask)


@functools.cache  # (one class for every kernel of the process)
def _kernel_manager_class():
    """The kernels' manager: jupyter_client's, talking to its kernel over Unix sockets
    (``ipc``) where there are some, not TCP. Kernels started at once in threads each took five
    TCP ports that the client picks and the kernel binds later; another kernel's connection
    could take one of them meanwhile (jupyter_client issue 487): a heartbeat thread failed with
    "Address already in use" in a report of the wheel, and a shell or iopub port taken so would
    fail the page. A Unix socket has a path of its own per kernel."""
    import uuid

    from jupyter_client.manager import AsyncKernelManager
    from traitlets import default

    if os.name != "posix":
        return AsyncKernelManager

    class _IpcKernelManager(AsyncKernelManager):
        @default("transport")
        def _ipc(self) -> str:
            return "ipc"

        @default("ip")
        def _socket_path(self) -> str:  # (absolute: the kernel runs in the notebooks' folder,
            # where jupyter_client's relative default would put them; the sockets are removed
            # when the kernel shuts down)
            return os.path.join(tempfile.gettempdir(), f"ebsstats-kernel-{uuid.uuid4().hex[:12]}")

    return _IpcKernelManager


def _run_one(pm, book: Path, tmp: Path, use: dict, kernel_name, timeout, show_code, log
             ) -> tuple[int | None, str] | None:
    """Run one notebook and render its page; the error (cell, message) if it failed."""
    executed = tmp / "notebooks" / book.name
    page = tmp / book.with_suffix(".html").name
    log(f"running {book.name}")
    err: tuple[int | None, str] | None = None
    try:
        # the kernel starts in the notebook's folder (nbclient's resources path), not by
        # papermill's ``cwd=``: that changes this whole process's directory and back, which
        # notebooks run at once in threads would race on
        pm.execute_notebook(str(book), str(executed), parameters=use,
                            resources={"metadata": {"path": str(book.parent)}},
                            kernel_manager_class=_kernel_manager_class(),
                            kernel_name=kernel_name, progress_bar=False,
                            execution_timeout=timeout, report_mode=not show_code,
                            # the kernel's own log is not the report's: its "running over TCP
                            # without encryption" warning on a local machine, and the
                            # "KeyboardInterrupt caught in kernel." error it logs when the
                            # interrupt jupyter_client sends before every shutdown meets a
                            # message it is still handling (a race: about one kernel in eight
                            # per report once they run at once); a cell's error, a dead kernel
                            # or a timeout reaches the report through nbclient as before
                            extra_arguments=["--IPKernelApp.log_level=CRITICAL"])
    except pm.PapermillExecutionError as exc:
        cell, first_line = _failing_cell(executed)
        detail = f"{exc.ename}: {exc.evalue}"
        if first_line:
            detail += f" (cell starts: {first_line!r})"
        err = (cell, detail)
    except Exception as exc:  # kernel died, timeout, bad notebook JSON
        err = (None, f"{type(exc).__name__}: {exc}")
    if executed.exists():
        try:
            _render_html(executed, page, show_code, err)
            return err
        except Exception as exc:
            err = err or (None, f"rendering failed: {type(exc).__name__}: {exc}")
    err = err or (None, "papermill wrote no notebook")
    page.write_text(f"<!DOCTYPE html><html><body><h1>{html.escape(_title(book))}</h1>"
                    f"<p><b>This page failed:</b> <code>{html.escape(err[1])}</code></p>"
                    "</body></html>", encoding="utf-8")
    return err
