"""Round 7 PTS shortcuts against the rules they replace: a file's template replayed whatever
XML white space follows its root element (copies of a file with more or fewer trailing
newlines), and nothing else after it."""

from __future__ import annotations

import numpy as np
import pytest

from ebsstats.io import pts
from tests.test_pts_fast import _random_doc
from tests.test_pts_plan import XML, _field_mutant, _full_path, _outcome, _Spy

# what may follow a root element: XML's white space (S) alone is taken off the key; the rest
# is either refused by the XML parser or keeps no template (a comment, a PI)
_TAILS = ["", "\n", "\n\n\n", " \t\r\n", "\r", "\r\n" * 7, "\x0b", "\x0c", "\u00a0", "\u2028",
          "\x85", "\x00", "x", "\n<!---->", "\n<?pi x?>", "<a/>", "\n\x0b\n", "]]>", "&amp;"]


def _tail(rng) -> str:
    return str(rng.choice(_TAILS)) + str(rng.choice(["", "\n", " "]))


def _with_tails(doc: str, rng, monkeypatch, mutants: int, source: str = "x.xml") -> list:
    """Parse ``doc`` with a tail (what it leaves kept), then field mutants of it with other
    tails, each against the full path (nothing kept): rows, notes, series or the ParseError.
    What the replays gave (_replay or _fast_replay; None: not replayed)."""
    spy = _Spy(monkeypatch)
    root_end = doc.rstrip(pts._XML_SPACES)
    for k in range(mutants + 1):
        text = (root_end if k == 0 else _field_mutant(root_end, rng)) + _tail(rng)
        assert _outcome(text, source) == _full_path(text, source, monkeypatch), repr(text[-9:])
    return spy.calls


@pytest.mark.parametrize("path", XML, ids=lambda p: p.parent.name + "/" + p.name)
def test_trailing_space_replays_as_the_full_path_real_files(path, monkeypatch):
    monkeypatch.setattr(pts, "_TEMPLATES", {})
    monkeypatch.setattr(pts, "_FASTS", {})
    text = path.read_text(encoding="utf-8")
    _with_tails(text, np.random.default_rng(len(text) + 7), monkeypatch, 12)


@pytest.mark.parametrize("seed", range(150))
def test_trailing_space_replays_as_the_full_path_random_files(seed, monkeypatch):
    monkeypatch.setattr(pts, "_TEMPLATES", {})
    monkeypatch.setattr(pts, "_FASTS", {})
    rng = np.random.default_rng(seed)
    _with_tails(_random_doc(rng), rng, monkeypatch, 4)


def test_copies_with_other_trailing_newlines_replay_the_template(monkeypatch):
    """(The shortcut is taken: a copy of a file with other trailing newlines is read from its
    fields, _fast_replay, and gives the copy's own frame; one with a vertical tab is not.)"""
    monkeypatch.setattr(pts, "_TEMPLATES", {})
    monkeypatch.setattr(pts, "_FASTS", {})
    campaign = next(p for p in XML if "campaign" in str(p))
    text = campaign.read_text(encoding="utf-8").rstrip("\n")
    pts._parse(text + "\n", "a.xml", test_logs=False)
    spy = _Spy(monkeypatch)
    for tail in ("\n\n\n", "", "\r\n \t"):
        got = _outcome(text + tail, "b.xml", test_logs=False)
        assert got == _full_path(text + tail, "b.xml", monkeypatch, test_logs=False)
    assert len(spy.fast) == 3 and None not in spy.fast
    keys = {pts._template_fields(text + tail)[0] for tail in ("", "\n", "\r\n\t ")}
    assert len(keys) == 1
    for tail in ("\x0b", "\n\u00a0", "\n<!---->"):
        assert pts._template_fields(text + tail)[0] not in keys
