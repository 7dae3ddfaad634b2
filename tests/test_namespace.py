"""The public namespace: explicit, layered, no module shadows a function (issue: a house one can
see). Every re-exported name resolves and is in the ``__all__`` of the module that defines it."""

from __future__ import annotations

import importlib
import subprocess
import sys
import types

import pytest

import ebsstats as es


@pytest.mark.parametrize("module, names", sorted(es._PUBLIC.items()))
def test_every_public_name_resolves_and_is_in_its_modules_all(module, names):
    mod = importlib.import_module(module)
    for name in names:
        assert name in mod.__all__, f"{module}.__all__ lacks {name}"
        assert getattr(es, name) is getattr(mod, name)


def test_dir_shows_the_api_and_the_layers():
    shown = dir(es)
    for name in ("read", "summarize", "compare", "cost", "drift", "report", "io", "stats",
                 "plots", "schema", "app", "ParseError", "__version__"):
        assert name in shown
        getattr(es, name)


def test_no_module_shares_a_public_functions_name():
    import pkgutil

    modules = {m.name.rsplit(".", 1)[-1]
               for m in pkgutil.walk_packages(es.__path__, "ebsstats.")}
    assert not modules & set(es._LAZY), modules & set(es._LAZY)


# import orders that used to let the module shadow the function (cost, compare, drift, report)
ORDERS = [
    "import ebsstats.stats.costs as m; import ebsstats as es",
    "import ebsstats as es; import ebsstats.stats.costs as m",
    "from ebsstats.stats.costs import cost; import ebsstats as es; import ebsstats.stats.costs as m",
]


@pytest.mark.parametrize("order", ORDERS)
def test_module_is_a_module_and_function_a_function_in_every_import_order(order):
    code = (f"{order}\nimport types\n"
            "assert isinstance(m, types.ModuleType), m\n"
            "assert callable(es.cost) and not isinstance(es.cost, types.ModuleType)\n"
            "import ebsstats.stats.comparison, ebsstats.stats.calendar, ebsstats.app.reports\n"
            "for n in ('compare', 'drift', 'report', 'trend'):\n"
            "    assert not isinstance(getattr(es, n), types.ModuleType), n\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_import_is_light():
    code = ("import sys, ebsstats\n"
            "heavy = {'pandas', 'scipy', 'statsmodels', 'matplotlib'} & set(sys.modules)\n"
            "assert not heavy, heavy")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_python_dash_m_runs_the_cli():
    out = subprocess.run([sys.executable, "-m", "ebsstats", "--help"], capture_output=True,
                         text=True, check=True).stdout
    assert "report" in out and "ingest" in out


def test_subpackages_list_their_modules():
    assert isinstance(es.stats.design, types.ModuleType)
    assert "summary" in dir(es.stats) and "cli" in dir(es.app)
