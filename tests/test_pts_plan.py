"""The PTS plans (pts._Plan): a file whose layout was seen before (pts._plan_key) replays the
columns of that layout and reads only its numbers. Tested against the full path (no plan) on
mutants of genuine, campaign and random files whose numbers are changed: plain, tricky,
non-numeric, negative, out of range, MB/s figures that flip their basis, bad times."""

from __future__ import annotations

import re

import numpy as np
import pytest

import ebsstats as es
from ebsstats.io import pts
from tests.test_pts_fast import REAL, TRICKY, _random_doc, forget_kept, full_path_only

# the numbers of a composite.xml: Values, RawStrings, test-run-times, system TimeStamps
_NUMBERS_RE = re.compile(r"(<Value>|<RawString>|test-run-times&quot;:&quot;|test-run-times\":\")"
                         r"([^<&\"]*)")
_STAMP_RE = re.compile(r"(<TimeStamp>)([^<]*)")


def _mutant(doc: str, rng) -> str:
    """``doc`` with its numbers changed (mostly plain, sometimes tricky; every number of a kind
    scaled alike, so that MB/s against IOPS checks may flip)."""
    scale = float(rng.choice([1.0, 1.0, 1e6 / 2**20, 2**20 / 1e6, 1.3, -1.0, 1e305]))
    tricky = float(rng.choice([0.0, 0.0, 0.0, 0.02, 0.2]))

    def number(text: str) -> str:
        if rng.random() < tricky:
            return str(rng.choice(TRICKY))
        try:
            v = float(text)
        except ValueError:
            return text
        v *= scale if rng.random() < 0.9 else float(rng.uniform(0.5, 2))
        return f"{v:.{int(rng.integers(0, 6))}f}" if abs(v) < 1e15 else repr(v)

    def numbers(m: re.Match) -> str:
        return m.group(1) + ":".join(number(t) for t in m.group(2).split(":"))

    def stamp(m: re.Match) -> str:
        r = rng.random()
        if r < 0.05:
            return m.group(1) + str(rng.choice(["yesterday", "", "2024-13-45 00:00:00"]))
        if r < 0.5:
            return m.group(1) + f"2025-0{int(rng.integers(1, 10))}-1{int(rng.integers(0, 10))}" \
                                f" 0{int(rng.integers(0, 10))}:1{int(rng.integers(0, 10))}:00"
        return m.group(0)

    return _STAMP_RE.sub(stamp, _NUMBERS_RE.sub(numbers, doc))


def _outcome(doc: str, source: str, **options):
    try:
        p = pts._parse(doc, source, **options)
    except es.ParseError as exc:
        return "error", str(exc)
    cols, n = p.columns
    return (repr(cols), n, list(cols), p.format, p.version, p.notes,
            [repr(s.cols) for s in p.series], [s.n for s in p.series])


@pytest.fixture(autouse=True)
def _own_fasts(monkeypatch):
    """Each test keeps its own files' _Fast (none kept by an earlier test is replayed)."""
    monkeypatch.setattr(pts, "_FASTS", {})


def _full_path(doc: str, source: str, monkeypatch, **options):
    with monkeypatch.context() as mp:
        full_path_only(mp)
        return _outcome(doc, source, **options)


class _Spy:
    """What each replay of a plan gave (_replay, or _fast_replay straight from the fields)."""

    def __init__(self, monkeypatch):
        self.calls: list = []
        self.fast: list = []
        replay, fast = pts._replay, pts._fast_replay

        def spy(*args):
            self.calls.append(replay(*args))
            return self.calls[-1]

        def fast_spy(*args):
            self.fast.append(fast(*args))
            self.calls.append(self.fast[-1])
            return self.fast[-1]

        monkeypatch.setattr(pts, "_replay", spy)
        monkeypatch.setattr(pts, "_fast_replay", fast_spy)


def _compare(doc: str, source: str, rng, monkeypatch, mutants: int, mutate=None,
             rename: bool = False, **options) -> _Spy:
    """Parse ``doc`` (what it leaves kept), then each mutant (``mutate(doc, rng)``, default
    :func:`_mutant`) and ``doc`` again (under another name with ``rename``), each as the full
    path gives it."""
    forget_kept(monkeypatch)
    spy = _Spy(monkeypatch)
    assert _outcome(doc, source, **options) == _full_path(doc, source, monkeypatch, **options)
    for k in range(mutants):
        mutant = (mutate or _mutant)(doc, rng)
        want = _full_path(mutant, source, monkeypatch, **options)
        assert _outcome(mutant, source, **options) == want
        again = f"{k}{source}" if rename else source  # (the kept file again, maybe renamed)
        assert _outcome(doc, again, **options) == _full_path(doc, again, monkeypatch, **options)
    return spy


XML = [p for p in REAL if p.suffix == ".xml"]
CAMPAIGN = next(p for p in XML if "campaign" in str(p))


@pytest.mark.parametrize("path", XML, ids=lambda p: p.parent.name + "/" + p.name)
def test_plan_is_the_full_path_on_mutants_of_real_files(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    rng = np.random.default_rng(len(text))
    spy = _compare(text, "composite.xml", rng, monkeypatch, 12, test_logs=False)
    if "campaign" in str(path):  # (replayed where compared)
        assert pts._PLANS and any(c is not None for c in spy.calls)


@pytest.mark.parametrize("seed", range(150))
def test_plan_is_the_full_path_on_mutants_of_random_files(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    doc = _random_doc(rng)
    options = {"fio_mb": ["auto", "MB", "MiB"][seed % 3], "test_logs": False,
               "tz": [None, "Europe/Berlin"][seed % 2]}
    _compare(doc, "x.xml", rng, monkeypatch, 6, **options)


def test_plans_are_replayed_for_plain_mutants(monkeypatch):
    """(The replay is taken where the tests above compare it.)"""
    text = CAMPAIGN.read_text(encoding="utf-8")
    monkeypatch.setattr(pts, "_PLANS", {})
    monkeypatch.setattr(pts, "_TEMPLATES", {})
    spy = _Spy(monkeypatch)
    pts._parse(text, "a.xml", test_logs=False)
    other = text.replace("<TimeStamp>2024-", "<TimeStamp>2023-")
    assert other != text
    assert _outcome(other, "b.xml", test_logs=False) == _full_path(other, "b.xml", monkeypatch,
                                                                  test_logs=False)
    assert spy.calls and spy.calls[-1] is not None


def test_a_plan_is_no_other_layouts(monkeypatch):
    """Files differing in anything but their numbers have other keys: a system's name,
    hardware, a result's scale, an entry's position or its number of runs."""
    text = CAMPAIGN.read_text(encoding="utf-8")

    def key(doc):
        root = pts._load_xml(doc, "x")
        systems, results, info = pts._parse_composite(root, "x")
        return pts._plan_key(systems, results, info, "composite.xml", None, "auto")

    base = key(text)
    assert key(text.replace("<TimeStamp>2024-", "<TimeStamp>2023-")) == base
    raw = re.search(r"<RawString>([^<]*)</RawString>", text).group(1)
    for other in (text.replace("<Scale>IOPS", "<Scale>MB/s", 1),
                  text.replace("Disk: 100GB", "Disk: 101GB", 1),
                  text.replace("<Identifier>gp2-20g", "<Identifier>gp2-21g", 1),
                  text.replace(raw, raw + ":1", 1),
                  text.replace("</Entry>", "</Entry><Entry><Identifier>z</Identifier>"
                               "<Value>1</Value><RawString>1</RawString></Entry>", 1)):
        assert other != text and key(other) != base


def test_plans_are_bounded(monkeypatch):
    monkeypatch.setattr(pts, "_PLANS", {})
    monkeypatch.setattr(pts, "_PLANS_MAX", 3)
    text = CAMPAIGN.read_text(encoding="utf-8")
    assert "Disk: 100GB" in text
    for k in range(8):
        pts._parse(text.replace("<Title>", f"<Title>{k}", 1).replace(
            "Disk: 100GB", f"Disk: {k}GB"), "x.xml", test_logs=False)
        assert 1 <= len(pts._PLANS) <= 3


# ------------------------------------------------------------------ composite.xml templates

_SAFE = {  # field texts of each kind (what _FIELD_RE takes)
    "number": ["", " ", "1", "1.5", "-2", "+.5e3", "1e5", "1E+05", "1:2:3", "0.0:-0.0", ":",
               "..", "\n3\n", "\t4 ", "+", "e", "1e400", "12.22:10.34:3.63",
               "2024-03-07 16:37:00", "2024-13-45 00:00:00", "2025-01-02"],
    "json": ["", "1.5:2.5:3.5", "30.46:30.73", ":", "1..2", "-"[:0] + "5", "0:0:0",
             "1:2:3:4"],
    "title": ["", " ", "week-9", "a b (c) / d; e=f ^ ~", "x\ny", "'quoted' \"x\""],
}


def _field_mutant(doc: str, rng) -> str:
    """``doc`` with the text of every field of its template (pts._FIELD_RE) replaced by another
    text of that kind: the template stays, so a kept one is replayed."""
    def pick(kind):
        return str(rng.choice(_SAFE[kind]))

    def sub(m: re.Match) -> str:
        if m.group(1) is not None:
            if rng.random() < 0.3:
                return m.group(0)
            return f"<{m.group(1)}>{pick('number')}</{m.group(1)}>"
        if m.group(3) is not None:
            return f'<JSON>{{"test-run-times":"{pick("json")}"}}</JSON>'
        return f"<{m.group(4)}{pick('title')}</Title>"

    return pts._FIELD_RE.sub(sub, doc)


def _structural(doc: str, rng) -> str:
    """``doc`` with one change that fields must not be taken for elements through: a comment,
    CDATA section, reference, attribute, unusual tag or empty element where a field was, a
    Generated elsewhere."""
    fields = list(pts._FIELD_RE.finditer(doc))
    m = fields[int(rng.integers(len(fields)))] if fields else None
    root = doc.find("<PhoronixTestSuite>") + len("<PhoronixTestSuite>")
    kind = int(rng.integers(12))
    if m is None or kind == 0:
        return doc[:root] + "<!--<Value>1</Value>-->" + doc[root:]
    a, b = m.span()
    text = m.group(0)
    tag = m.group(1) or ("JSON" if m.group(3) is not None else "Title")
    inner = text[text.index(">", text.index(tag)) + 1:text.rindex("</")]
    options = [
        f"<!--{text}-->", f"<{tag} >{inner}</{tag}>", f"<{tag}>&#49;{inner}</{tag}>",
        f"<{tag}><![CDATA[{inner}]]></{tag}>", f'<{tag} a="1">{inner}</{tag}>', f"<{tag}/>",
        f"<?pi x?>{text}", f"{text}<Generated><Title>1</Title></Generated>",
        f"<{tag}>{inner}<X/></{tag}>", f"{text}<!--<{tag}></{tag}>-->",
        f"<{tag}>{inner}\r</{tag}>"]
    if kind == 11:  # (a comment in the prolog holding a field)
        return doc.replace("<PhoronixTestSuite>", "<!--<Value>2</Value>--><PhoronixTestSuite>",
                           1)
    return doc[:a] + options[kind - 1] + doc[b:]


def _templates_compared(doc: str, source: str, rng, monkeypatch, mutants: int) -> list:
    """Parse ``doc`` (its template kept), then mutants of its fields: each as the full path
    gives it, and what _from_template gives as _parse_composite gives it. Whether each
    _from_template call replayed a template (the full path's calls never do)."""
    replays: list = []
    from_template = pts._from_template
    monkeypatch.setattr(pts, "_keep_fast", lambda *args: None)  # (templates, not _Fast)

    def spy(key, fields):
        got = from_template(key, fields)
        replays.append(got is not None)
        return got

    monkeypatch.setattr(pts, "_from_template", spy)
    assert _outcome(doc, source) == _full_path(doc, source, monkeypatch)
    for _ in range(mutants):
        mutant = _field_mutant(doc, rng)
        assert _outcome(mutant, source) == _full_path(mutant, source, monkeypatch)
        fields = pts._template_fields(mutant)
        got = from_template(*fields) if fields is not None else None
        if got is not None:
            root = pts._load_xml(mutant, source)
            assert got == pts._parse_composite(root, source)
    return replays


@pytest.mark.parametrize("path", XML, ids=lambda p: p.parent.name + "/" + p.name)
def test_template_is_the_tree_on_mutants_of_real_files(path, monkeypatch):
    """A file of a kept template gives what its tree gives (systems, results, info; rows,
    notes, series or the same ParseError), whatever texts its fields hold."""
    monkeypatch.setattr(pts, "_TEMPLATES", {})
    text = path.read_text(encoding="utf-8")
    rng = np.random.default_rng(len(text) + 1)
    replays = _templates_compared(text, "composite.xml", rng, monkeypatch, 10)
    if "campaign" in str(path):
        assert sum(replays) >= 8  # (replayed where compared)


@pytest.mark.parametrize("seed", range(120))
def test_template_is_the_tree_on_structural_mutants(seed, monkeypatch):
    """Files whose fields are not all elements' whole texts (comments, CDATA, references,
    attributes, unusual tags, processing instructions, fields in the prolog) keep no template
    that could take a field for an element: their mutants give what their trees give."""
    monkeypatch.setattr(pts, "_TEMPLATES", {})
    rng = np.random.default_rng(seed)
    doc = _random_doc(rng) if seed % 2 else CAMPAIGN.read_text(encoding="utf-8")
    doc = doc.replace("<PhoronixTestSuite>", "<PhoronixTestSuite><Generated>\n<Title>t</Title>"
                      "<LastModified>2024-01-02 03:04:05</LastModified></Generated>", 1) \
        if "<Generated>" not in doc else doc
    for _ in range(1 + seed % 3):
        doc = _structural(doc, rng)
    _templates_compared(doc, "x.xml", rng, monkeypatch, 4)


def test_template_key_and_fields_are_the_text():
    """The key and the fields of a text give the text back (two texts of one key differ only
    in the texts of their fields and the XML white space after the root element)."""
    text = CAMPAIGN.read_text(encoding="utf-8")
    key, fields = pts._template_fields(text)
    m = len(fields)
    pieces, tags, heads = key[:m + 1], key[m + 1:2 * m + 1], key[2 * m + 1:]
    out = [pieces[0]]
    for field, tag, head, piece in zip(fields, tags, heads, pieces[1:], strict=True):
        if tag is not None:
            out.append(f"<{tag}>{field}</{tag}>")
        elif head is None:
            out.append(f"<JSON>{field}</JSON>")
        else:
            out.append(f"<{head}{field}</Title>")
        out.append(piece)
    assert "".join(out) == text.rstrip(pts._XML_SPACES)  # (but the root's trailing space)
    assert not text[len("".join(out)):].strip(pts._XML_SPACES)
    assert {"Value", "RawString", "TimeStamp", "LastModified"} <= set(tags) and any(heads)


def test_templates_are_bounded(monkeypatch):
    monkeypatch.setattr(pts, "_TEMPLATES", {})
    monkeypatch.setattr(pts, "_TEMPLATES_MAX", 3)
    text = CAMPAIGN.read_text(encoding="utf-8")
    for k in range(8):
        pts._parse(text.replace("Disk: 100GB", f"Disk: {k}GB"), "x.xml", test_logs=False)
        assert 1 <= len(pts._TEMPLATES) <= 3
    monkeypatch.setattr(pts, "_TEMPLATE_CHARS", len(text) - 1)
    assert pts._template_fields(text) is None


def _all_fields(doc: str, text: str) -> str:
    """``doc`` with the text of every number field replaced by ``text``."""
    return pts._FIELD_RE.sub(
        lambda m: f"<{m.group(1)}>{text}</{m.group(1)}>" if m.group(1) else m.group(0), doc)


def _hidden(doc: str, where: str) -> str:
    """``doc`` with its first Value (or TimeStamp) written so that _FIELD_RE does not take it
    (``<Value >``), and a field of the same text hidden in a comment, a processing instruction
    or the prolog: as many fields as elements whose text is one, the same texts in order."""
    m = re.search(r"<(Value|TimeStamp)>([^<]*)</\1>", doc)
    tag, text = m.groups()
    field = f"<{tag}>{text}</{tag}>"
    hidden = {"comment": f"<!--{field}-->", "pi": f"<?pi {field}?>", "prolog": ""}[where]
    doc = doc[:m.start()] + hidden + f"<{tag} >{text}</{tag}>" + doc[m.end():]
    if where == "prolog":
        doc = doc.replace("<PhoronixTestSuite>", f"<!--{field}-->\n<PhoronixTestSuite>", 1)
    return doc


@pytest.mark.parametrize("where", ["comment", "pi", "prolog"])
def test_a_hidden_field_is_never_taken_for_an_element(where, monkeypatch):
    """A field in a comment, a processing instruction or the prolog, with the element it
    could be taken for not a field: no template is kept (the file's other numbers, changed,
    give what the full path gives: the element's own text, not the hidden field's)."""
    monkeypatch.setattr(pts, "_TEMPLATES", {})
    doc = _hidden(_random_doc(np.random.default_rng(3)) if where == "prolog"
                  else CAMPAIGN.read_text(encoding="utf-8"), where)
    _outcome(doc, "x.xml")
    assert not pts._TEMPLATES
    for text in ("7", "", "2024-01-01 00:00:00"):
        mutant = _all_fields(doc, text)
        assert _outcome(mutant, "x.xml") == _full_path(mutant, "x.xml", monkeypatch)


def test_elements_with_attributes_are_no_fields(monkeypatch):
    """An element with attributes is no field (nor a field of _FIELD_RE): the template is kept
    and replayed, its text where it was."""
    monkeypatch.setattr(pts, "_TEMPLATES", {})
    doc = CAMPAIGN.read_text(encoding="utf-8").replace(
        "<PhoronixTestSuite>", '<PhoronixTestSuite><Value a="1">3</Value>', 1)
    _outcome(doc, "x.xml")
    assert pts._TEMPLATES
    replays = _templates_compared(doc, "x.xml", np.random.default_rng(1), monkeypatch, 3)
    assert sum(replays) >= 3  # (each mutant replayed)


@pytest.mark.parametrize("tag", ["Value", "RawString", "TimeStamp", "LastModified", "JSON",
                                 "Title"])
def test_field_texts_are_the_pattern(tag):
    """An element's text is taken as a field's (_FIELD_TEXTS) exactly when _FIELD_RE takes it
    in its tag (what makes the tree's fields the text's)."""
    texts = [t for kind in _SAFE.values() for t in kind] + TRICKY + [
        "<", "&amp;", "]]>", "a]", "x\ry", "\u00e9", '{"test-run-times":"1:2"}',
        '{"test-run-times":"a"}', " 1 ", "\x01"]
    head = "<Generated><Title>" if tag == "Title" else f"<{tag}>"
    for text in texts:
        inner = f'{{"test-run-times":"{text}"}}' if tag == "JSON" and _unquoted(text) else text
        whole = pts._FIELD_RE.fullmatch(f"{head}{inner}</{tag}>") is not None
        assert whole == (pts._FIELD_TEXTS[tag](inner) is not None), (tag, inner)


def _unquoted(text: str) -> bool:
    return '"' not in text and "{" not in text
