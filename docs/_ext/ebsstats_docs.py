"""Build-time generation for the ebsstats docs.

* ``_generated/schema_*.rst``: the tidy-frame tables (columns, dtypes, units, the metric
  vocabulary) from :mod:`ebsstats.schema` and :mod:`ebsstats.units`, so the page cannot drift.
* ``api/*.rst``: one page per module of the API reference, listing the module's ``__all__`` (or,
  without one, the public functions and classes it defines), with an autosummary toctree that
  gives every function its own page; ``api/namespace.rst`` lists ``ebsstats._PUBLIC``.
* A check that every public function page shows an example: a public function (one of
  ``ebsstats.__all__``) whose docstring has no ``>>>`` example is a build warning, hence an error.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

# module groups of the API reference, in reading order: (page, title, intro, packages/modules)
AREAS = [
    ("core", "Core: the contract, units, errors, prices",
     "The bottom layer: the tidy-frame contract, canonical units, the error types, the dated "
     "price book and atomic writes. Nothing here imports anything above it.",
     ["ebsstats.schema", "ebsstats.units", "ebsstats.errors", "ebsstats.pricing",
      "ebsstats.atomic"]),
    ("io", "Readers (ebsstats.io)",
     "One module per tool, format sniffing and folder ingest. Readers return the tidy frame and "
     "know nothing of statistics.",
     ["ebsstats.io"]),
    ("stats", "Statistics (ebsstats.stats)",
     "One module per question. Nothing here knows a file format.",
     ["ebsstats.stats"]),
    ("plots", "Plots (ebsstats.plots)",
     "Seaborn-style plots: ``data=`` plus column names; each returns the matplotlib Axes or "
     "Figure.",
     ["ebsstats.plots"]),
    ("app", "Application (ebsstats.app) and simulation (ebsstats.simulate)",
     "The report, the notebook helpers and the simulated campaigns used for validation.",
     ["ebsstats.app.reports", "ebsstats.app.notebook", "ebsstats.simulate",
      "ebsstats.simulate.model"]),
]


def _modules(names: list[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        mod = importlib.import_module(name)
        if hasattr(mod, "__path__") and name != "ebsstats.simulate":
            # a subpackage (ebsstats.io.fio) gets its own page and one per public module
            out += [m.name for m in pkgutil.walk_packages(mod.__path__, f"{name}.")
                    if not any(part.startswith("_") for part in m.name.split("."))]
        else:
            out.append(name)
    return out


def public_names(modname: str) -> list[str]:
    """The functions and classes a module documents: its ``__all__`` (constants dropped), or the
    public functions and classes defined in it."""
    mod = importlib.import_module(modname)
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n, v in vars(mod).items()
                 if not n.startswith("_") and (inspect.isfunction(v) or inspect.isclass(v))
                 and getattr(v, "__module__", None) == modname]
    keep = []
    for n in names:
        v = getattr(mod, n, None)
        if inspect.isfunction(v) or inspect.isclass(v) or callable(v) and not isinstance(v, type):
            if inspect.ismodule(v):
                continue
            keep.append(n)
    return keep


def _title(text: str, ch: str = "=") -> str:
    return f"{text}\n{ch * len(text)}\n"


def _module_page(modname: str) -> str:
    names = public_names(modname)
    short = modname.removeprefix("ebsstats.")
    lines = [_title(f"``{short}``"), f".. automodule:: {modname}\n",
             f".. currentmodule:: {modname}\n"]
    if names:
        lines += [".. rubric:: Functions and classes\n", ".. autosummary::",
                  "   :toctree: generated/", "   :nosignatures:", ""]
        lines += [f"   {n}" for n in names]
        lines.append("")
    return "\n".join(lines) + "\n"


def _namespace_page() -> str:
    import ebsstats

    lines = [_title("The ``ebsstats`` namespace"),
             "``import ebsstats as es`` gives every function below as ``es.<name>`` (imported "
             "lazily on first use). Each is documented on its module's page; the table is "
             "generated from ``ebsstats._PUBLIC``, the same table the package resolves names "
             "from. The subpackages and core modules are attributes too: "
             + ", ".join(f"``es.{m}``" for m in ebsstats._MODULES) + ".\n"]
    for modname, names in ebsstats._PUBLIC.items():
        # a name defined in a private module (es.frame) has no module page: its page is here
        toctree = ["   :toctree: generated/"] if _private(modname) else []
        lines += [f".. rubric:: From ``{modname}``\n" if _private(modname) else
                  f".. rubric:: From :mod:`{modname}`\n", ".. autosummary::",
                  *toctree, "   :nosignatures:", ""]
        lines += [f"   ~{modname}.{n}" for n in names]
        lines.append("")
    return "\n".join(lines) + "\n"


def _private(modname: str) -> bool:
    return any(part.startswith("_") for part in modname.split("."))


def _write(path: Path, text: str) -> None:
    """Write only when the content changed, so incremental builds stay incremental."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _prune(api: Path, keep: set[str]) -> None:
    """Remove pages of modules or functions that no longer exist (incremental builds)."""
    for p in [*api.glob("*.rst"), *api.glob("generated/*.rst")]:
        if p.relative_to(api).as_posix() not in keep:
            p.unlink()


def ebsstats_public() -> dict[str, tuple[str, ...]]:
    import ebsstats

    return ebsstats._PUBLIC


def generate_api(srcdir: Path) -> None:
    api = srcdir / "api"
    toc = [_title("API reference"),
           "Every public function, with its parameters, its method and references (Notes) and a "
           "runnable example (the examples run as doctests in the test suite).\n",
           ".. toctree::", "   :maxdepth: 2", "", "   namespace"]
    _write(api / "namespace.rst", _namespace_page())
    written = {"index.rst", "namespace.rst"}
    written.update(f"generated/{m}.{n}.rst" for m, names in ebsstats_public().items()
                   if _private(m) for n in names)
    for page, title, intro, roots in AREAS:
        mods = _modules(roots)
        toc.append(f"   {page}")
        body = [_title(title), intro + "\n", ".. toctree::", "   :maxdepth: 1", ""]
        body += [f"   {m}" for m in mods]
        _write(api / f"{page}.rst", "\n".join(body) + "\n")
        written.add(f"{page}.rst")
        for m in mods:
            _write(api / f"{m}.rst", _module_page(m))
            written.add(f"{m}.rst")
            written.update(f"generated/{m}.{n}.rst" for n in public_names(m))
    _write(api / "index.rst", "\n".join(toc) + "\n")
    _prune(api, written)


# ---------------------------------------------------------------------------------------------
# the tidy-frame tables
# ---------------------------------------------------------------------------------------------

def _dtype_name(dtype) -> str:
    import pandas as pd

    if isinstance(dtype, pd.CategoricalDtype) and dtype.categories is not None:
        return "category (fixed)"
    if isinstance(dtype, type):
        return dtype.__name__
    return str(dtype)


def _categories(dtype) -> str:
    cats = getattr(dtype, "categories", None)
    if cats is None or len(cats) == 0:
        return "— (observed values)" if str(dtype) == "category" else "—"
    return ", ".join(f"``{c}``" for c in cats)


def _list_table(header: list[str], rows: list[list[str]], widths: str | None = None) -> str:
    lines = [".. list-table::", "   :header-rows: 1"]
    if widths:
        lines.append(f"   :widths: {widths}")
    lines.append("")
    for row in [header, *rows]:
        lines.append(f"   * - {row[0]}")
        lines += [f"     - {c}" for c in row[1:]]
    return "\n".join(lines) + "\n"


def _lit(v) -> str:
    return f"``{v}``" if v not in (None, "") else "—"


# units of the columns that are not ``value`` (whose unit is the row's ``unit``)
_COLUMN_UNITS = {"timestamp": "UTC", "block_size": "B", "size_gib": "GiB", "t": "s",
                 "offset": "B", "value": "the row's ``unit``", "provisioned_iops": "IO/s",
                 "threads": "count", "iodepth": "count", "raid_members": "count"}


def _meanings(doc: str) -> dict[str, str]:
    """Column -> meaning, from the first simple table of :mod:`ebsstats.schema`'s docstring
    (the schema documents its columns once; the site reuses that text)."""
    lines = doc.splitlines()
    borders = [i for i, line in enumerate(lines) if line.startswith("====") and "  " in line]
    if len(borders) < 3:
        return {}
    cols = [m.start() for m in re.finditer(r"=+", lines[borders[0]])]
    out: dict[str, str] = {}
    last = None
    for line in lines[borders[1] + 1:borders[2]]:
        name = line[:cols[1]].strip()
        text = line[cols[2]:].strip() if len(line) > cols[2] else ""
        if name:
            last = name
            out[name] = text
        elif last and text:
            out[last] += " " + text
    return out


def generate_schema(srcdir: Path) -> None:
    from ebsstats import schema

    out = srcdir / "_generated"
    meaning = _meanings(schema.__doc__ or "")
    for name, cols in (("columns", schema.COLUMNS), ("meta", schema.META_COLUMNS),
                       ("series", schema.SERIES_COLUMNS)):
        rows = []
        for col, dtype in cols.items():
            cats = _categories(dtype)
            text = meaning.get(col, "") if name == "columns" else ""
            first = getattr(dtype, "categories", None)
            listed = first is not None and len(first) and f"``{first[0]}``" in text
            if cats not in ("—", "— (observed values)") and not listed:
                text = (text + " " if text else "") + f"(one of {cats})"
            rows.append([f"``{col}``", f"``{_dtype_name(dtype)}``",
                         _COLUMN_UNITS.get(col, "—"), text or "—"])
        _write(out / f"schema_{name}.rst", ".. currentmodule:: ebsstats.schema\n\n" +
               _list_table(["column", "dtype", "unit", "meaning"], rows, "18 20 12 50"))
    rows = []
    for metric, (unit, hib) in schema._EXACT.items():
        rows.append([f"``{metric}``", _lit(unit) if unit else "the tool's scale",
                     {True: "higher", False: "lower", None: "descriptive"}[hib]])
    for pattern, (unit, hib) in schema._PATTERNS:
        rows.append([f"pattern ``{pattern.pattern}``", _lit(unit),
                     {True: "higher", False: "lower", None: "descriptive"}[hib]])
    _write(out / "schema_metrics.rst",
           _list_table(["metric", "canonical unit", "better is"], rows, "50 25 25"))
    _write(out / "schema_vocab.rst", "\n".join([
        _list_table(["vocabulary", "values"], [
            ["``tool``", ", ".join(f"``{t}``" for t in schema.TOOLS)
             + ", or any other tool's name (rows brought with :func:`ebsstats.frame`): "
             "lowercase, 1-40 characters, ``" + schema.TOOL_NAME.pattern + "``"],
            ["``workload``", ", ".join(f"``{t}``" for t in schema.WORKLOADS)],
            ["``op``", ", ".join(f"``{t}``" for t in schema.OPS)],
            ["``unit``", ", ".join(f"``{t}``" for t in schema.UNITS)
             + " (and a PTS result's own scale for ``score``)"],
        ], "20 80")]))


def check_examples(app: Sphinx) -> None:
    """Warn (an error under ``-W``) for a public function without a ``>>>`` example."""
    import ebsstats

    for modname, names in ebsstats._PUBLIC.items():
        mod = importlib.import_module(modname)
        for n in names:
            doc = inspect.getdoc(getattr(mod, n)) or ""
            if ">>>" not in doc:
                logger.warning("public function %s.%s has no example in its docstring",
                               modname, n, type="ebsstats", subtype="example")


def _on_init(app: Sphinx, config=None) -> None:
    src = Path(app.srcdir)
    generate_schema(src)
    generate_api(src)
    # the pages autosummary writes stubs for: the ones just generated (an explicit list, so a
    # module added since the last incremental build gets its function pages too)
    app.config.autosummary_generate = sorted(
        p.relative_to(src).as_posix() for p in (src / "api").glob("*.rst"))
    if app.config.ebsstats_require_examples:
        check_examples(app)


def _resolve_alias(app: Sphinx, env, node, contnode):
    """Link ``ebsstats.<name>`` (how people call it: ``es.summarize``) to the page of the
    function's defining module (``ebsstats.stats.summary.summarize``)."""
    import ebsstats

    target = node.get("reftarget", "")
    name = target.removeprefix("ebsstats.")
    if node.get("refdomain") != "py" or not target.startswith("ebsstats.") \
            or name not in ebsstats._LAZY:
        return None
    return env.get_domain("py").resolve_xref(env, node["refdoc"], app.builder,
                                              node["reftype"], f"{ebsstats._LAZY[name]}.{name}",
                                              node, contnode)


def setup(app: Sphinx) -> dict:
    app.add_config_value("ebsstats_require_examples", True, "env")
    app.connect("config-inited", _on_init)
    app.connect("missing-reference", _resolve_alias)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
