"""The first file of a PTS layout (the full path): what it computes once for the files after it
is what the general rules give."""

from __future__ import annotations

import numpy as np
import pytest

import ebsstats as es
from ebsstats.io import pts
from tests.test_pts_vocabulary_and_bases import _field_elements_in_order

_HEAD = "<PhoronixTestSuite><Generated>\n<Title>t</Title></Generated>"
_ENTRY = "<Result><Title>r</Title><Data><Entry><Identifier>s</Identifier>{}</Entry></Data></Result>"


@pytest.mark.parametrize("inner", [
    "<Value>1</Value><RawString>1:2</RawString>",
    "<Value >1</Value ><RawString>1</RawString>",  # (an element no field stands for, same text)
    "<Value >1</Value ><Value>2</Value>",
    "<JSON>1</JSON><Value>1</Value>",  # (a JSON element of a number's text: no field)
    '<Value>{"test-run-times":"1"}</Value><JSON>{"test-run-times":"1"}</JSON>',
    '<JSON>{"a":1}</JSON><Value>2</Value><RawString>2</RawString>',
    "<Value>1</Value><Value>1</Value><RawString>1</RawString>",
    "<Value>&#49;</Value><RawString>1</RawString>",  # (a reference: the element's text, no field)
])
def test_field_elements_paired_in_order(inner):
    """The fields' elements, paired with the fields by their texts and tags where they agree,
    are those of the document-order rule (elements whose texts the patterns take, paired
    with the fields by their texts), or both none."""
    doc = _HEAD + _ENTRY.format(inner) + "</PhoronixTestSuite>"
    fields = pts._template_fields(doc)
    root = pts._load_xml(doc, "x.xml")
    got = pts._field_elements(doc, fields, root)
    want = _field_elements_in_order(doc, fields, root)
    assert (got is None) == (want is None)
    if want is not None:
        assert list(map(id, got)) == list(map(id, want))


def _roles_read(root) -> dict:
    """What each element pts._parse_composite reads that may be a field stands for, by id (the
    rule _slots_of replaces): (4,) LastModified, (5,) Title, (0, system) TimeStamp,
    (1 + k, result, entry) Value, RawString, JSON."""
    roles: dict = {}
    gen = root.find("Generated")
    for k, tag in ((4, "LastModified"), (5, "Title")):
        el = gen.find(tag) if gen is not None else None
        if el is not None:
            roles[id(el)] = (k,)
    for i, sel in enumerate(root.findall("System")):
        el = sel.find("TimeStamp")
        if el is not None:
            roles[id(el)] = (0, i)
    for r, rel in enumerate(root.findall("Result")):
        eels = [eel for data in rel.findall("Data") for eel in data.findall("Entry")]
        for j, eel in enumerate(eels):
            for k, tag in enumerate(("Value", "RawString", "JSON"), 1):
                el = eel.find(tag)
                if el is not None:
                    roles[id(el)] = (k, r, j)
    return roles


def _slots_by_roles(elements: list, root, systems: list, results: list) -> tuple:
    """pts._slots_of by the role of each field's element, field by field."""
    read = _roles_read(root)
    last = title = None
    stamps = [None] * len(systems)
    cols = [tuple([None] * len(res.entries) for _ in range(3)) for res in results]
    for i, el in enumerate(elements):
        role = read.get(id(el))
        if role is None:
            continue
        if 0 < role[0] < 4:
            cols[role[1]][role[0] - 1][role[2]] = i
        elif role[0] == 0:
            stamps[role[1]] = i
        elif role[0] == 4:
            last = i
        else:
            title = i
    return last, title, stamps, cols


def _slots_compared(doc: str) -> bool:
    fields = pts._template_fields(doc)
    try:
        root = pts._load_xml(doc, "x.xml")
        systems, results, _ = pts._parse_composite(root, "x.xml")
    except es.ParseError:
        return False
    elements = None if fields is None else pts._field_elements(doc, fields, root)
    if elements is None:
        return False
    assert pts._slots_of(elements, root, systems, results) == _slots_by_roles(
        elements, root, systems, results)
    return True


@pytest.mark.parametrize("seed", range(30))
def test_slots_are_the_roles_of_the_fields(seed):
    """The places of what is read among the fields, looked up element by element, are those
    of each field's role: genuine and campaign files, their field and structural mutants
    (extra Generated, System, Entry elements, attributes, references ...), random files."""
    from tests.test_pts_fast import _random_doc
    from tests.test_pts_plan import XML, _field_mutant, _structural
    rng = np.random.default_rng(seed)
    doc = XML[seed % len(XML)].read_text(encoding="utf-8") if seed % 3 else _random_doc(rng)
    kept = [_slots_compared(doc)]
    genuine = bool(seed % 3) and "<Result>" in doc  # (not the pre-3.0 one)
    for _ in range(8):
        doc = _structural(doc, rng) if rng.random() < 0.7 else _field_mutant(doc, rng)
        kept.append(_slots_compared(doc))
    if genuine:
        assert kept[0]


@pytest.mark.parametrize("inner", [
    "<Value>1</Value><RawString>1:2</RawString><JSON>{\"test-run-times\":\"1:2\"}</JSON>",
    "<Value>1</Value><Other><RawString>1</RawString></Other>",  # (a field no role reads)
    "<Value>1</Value><Value>2</Value><RawString>1</RawString>",  # (a second Value: no role)
    "<Data><Value>1</Value></Data><RawString>1</RawString>",
])
def test_slots_of_small_documents(inner):
    """Fields read and fields not read (a second Value, one in another element) are placed as
    their roles say."""
    doc = (_HEAD.replace("</Generated>", "<LastModified>2024-01-01 00:00:00</LastModified>"
                         "</Generated><System><Identifier>s</Identifier><TimeStamp>"
                         "2024-01-01 00:00:00</TimeStamp></System>")
           + _ENTRY.format(inner) + "</PhoronixTestSuite>")
    assert _slots_compared(doc)


def _composite_result_by_result(root, source):
    """pts._parse_composite's results read result after result, each Result's entries one by
    one (the rule reading every result's entries at once replaces)."""
    from tests.test_pts_fast import _entries_one_by_one
    results = []
    for i, rel in enumerate(root.findall("Result"), 1):
        pos = f"/PhoronixTestSuite/Result[{i}]"
        ident, title, *fields = pts._texts(rel, pts._RESULT_TAGS)
        if title is None and ident is None:
            raise es.ParseError(source, pos, "a Result with a Title or Identifier",
                                found="neither")
        res = pts._Result(ident, title or ident, *fields, pos)
        res.entries = _entries_one_by_one(rel, pos, source)
        results.append(res)
    return results


@pytest.mark.parametrize("seed", range(150))
def test_results_entries_at_once_are_result_by_result(seed):
    """Every result's entries read at once are those read result after result and entry by
    entry, and the first error (a JSON, a missing Identifier, a Result without Title and
    Identifier) is the same."""
    from tests.test_pts_fast import ENTRY_PARTS
    rng = np.random.default_rng(seed)
    rels = []
    for _ in range(int(rng.integers(0, 4))):
        data = []
        for _ in range(int(rng.integers(0, 3))):
            entries = []
            for _ in range(int(rng.integers(0, 4))):
                parts = [ENTRY_PARTS[int(i)] for i in rng.integers(
                    len(ENTRY_PARTS), size=int(rng.integers(0, 5)))]
                if rng.random() < 0.85:
                    parts.insert(0, "<Identifier>s</Identifier>")
                entries.append("<Entry>" + "".join(parts) + "</Entry>")
            data.append("<Data>" + "".join(entries) + "</Data>")
        head = "<Title>r</Title>" if rng.random() < 0.9 else ""
        rels.append("<Result>" + head + "".join(data) + "</Result>")
    doc = ("<PhoronixTestSuite><System><Identifier>s</Identifier></System>" + "".join(rels)
           + "</PhoronixTestSuite>")
    root = pts._load_xml(doc, "x.xml")
    try:
        want = _composite_result_by_result(root, "x.xml")
    except es.ParseError as exc:
        with pytest.raises(es.ParseError) as got:
            pts._parse_composite(root, "x.xml")
        assert str(got.value) == str(exc)
    else:
        assert pts._parse_composite(root, "x.xml")[1] == want
