"""Sphinx configuration of the ebsstats documentation (``make docs``).

The build is offline (no intersphinx, no remote images) and runs with warnings as errors. Two
parts are generated at build time so they cannot drift from the code: the tidy-frame tables
(from :mod:`ebsstats.schema`) and the API reference pages (from ``ebsstats._PUBLIC`` and each
module's ``__all__``); see ``_ext/ebsstats_docs.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))

import ebsstats  # noqa: E402

project = "ebsstats"
author = "the ebsstats authors"
copyright = "the ebsstats authors, Apache-2.0"
release = ebsstats.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "ebsstats_docs",
]

root_doc = "index"
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]
nitpicky = False

# autodoc / autosummary: pages are generated from the package at build time
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": False}
autodoc_typehints = "none"  # numpydoc "Parameters" carry the types people read
add_module_names = False

# numpydoc renders the Parameters/Returns/Notes/Examples sections
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# furo, no external resources needed to build
html_theme = "furo"
html_title = f"ebsstats {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
html_theme_options = {
    "navigation_with_keys": True,
}
pygments_style = "sphinx"
