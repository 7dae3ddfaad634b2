"""The first file of a PTS layout (the full path): what it computes once for the files after it
is what the general rules give."""

from __future__ import annotations

import pytest

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
