"""The one range check of the text readers (``ebsstats.io._common.number``): finite and
non-negative (unless allowed), else a ParseError naming file, position, what and what was found;
and the bonnie++, sysbench, PTS and ioping readers refuse through it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ebsstats.errors import ParseError
from ebsstats.io import bonnie, ioping, pts, sysbench
from ebsstats.io._common import number

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_number_is_read_and_scaled():
    assert number("12.5", "x.txt", 3, "bandwidth", scale=1024) == 12800.0
    assert number(7, "x.txt", 3) == 7.0
    assert number("-2", "x.txt", 3, "score", negative=True) == -2.0


@pytest.mark.parametrize("value, found", [("-1", "-1"), ("inf", "inf"), ("nan", "nan"),
                                          (10**400, "1" + "0" * 400), ("1e308", "1e308")])
def test_out_of_range_is_refused_where_it_is(value, found):
    with pytest.raises(ParseError) as info:
        number(value, "x.txt", 4, "iops", scale=10.0)
    e = info.value
    assert (e.source, e.position, e.expected) == ("x.txt", "line 4", "a finite, non-negative iops")
    assert e.found == found[:120] or e.found.startswith(found[:100])


def test_negative_allowed_still_refuses_infinity_and_nan():
    for bad in ("inf", "-inf", "nan"):
        with pytest.raises(ParseError, match="expected a finite score"):
            number(bad, "x.xml", "/PhoronixTestSuite/Result[1]", "score", negative=True)


def test_context_keeps_the_line_kind_and_the_reason():
    with pytest.raises(ParseError) as info:
        number("-3", "sb.txt", 9, "iops", context="a sysbench result line", found="reads/s: -3")
    assert info.value.expected == "a sysbench result line (iops -3.0 is not a finite, " \
                                  "non-negative number)"
    assert info.value.found == "reads/s: -3"


def test_not_a_number_is_a_parse_error_too():
    with pytest.raises(ParseError) as info:
        number("12 MB", "x.txt", 2, "size")
    assert info.value.position == "line 2" and info.value.found == "12 MB"


def test_the_readers_have_no_range_check_of_their_own():
    for mod in (bonnie, ioping, pts, sysbench):
        src = Path(mod.__file__).read_text()
        assert "non-negative" not in src.replace("non-negative number)", ""), mod.__name__
        assert not re.search(r">= 0 and math\.isfinite", src), mod.__name__


def test_each_reader_refuses_a_negative_figure_at_its_position():
    text = (FIXTURES / "sysbench" / "sb_fileio_rndrd_t4_run.txt").read_text().replace(
        "reads/s:                      428378.49", "reads/s:                      -1")
    with pytest.raises(ParseError) as info:
        sysbench.parse(text, "sb.txt")
    assert info.value.position == "line 24" and "iops -1.0 is not a finite" in info.value.expected

    doc = ('<PhoronixTestSuite><System><Identifier>a</Identifier></System><Result>'
           '<Identifier>pts/fio-1.15.0</Identifier><Title>Flexible IO Tester</Title>'
           '<Scale>IOPS</Scale><Data><Entry><Identifier>a</Identifier><Value>-5</Value>'
           '</Entry></Data></Result></PhoronixTestSuite>')
    with pytest.raises(ParseError) as info:
        pts.parse(doc, "c.xml", test_logs=False)
    assert info.value.position == "/PhoronixTestSuite/Result[1]/Data/Entry[1]"
    assert info.value.expected == "a finite, non-negative iops (IOPS)"
    assert info.value.found == "-5.0"

    with pytest.raises(ParseError) as info:
        ioping.parse('[{"target": {"path": "/x"}, "stat": {"count": 1, "size": 4096, '
                     '"iops": -1, "bps": 1, "min": 1, "avg": 1, "max": 1, "mdev": 0}, '
                     '"timestamp": 1.0}]', "i.json")
    assert (info.value.position, info.value.expected) == ("$[0].stat.iops",
                                                          "a finite, non-negative number")

    with pytest.raises(ParseError) as info:  # 400 digits of KiB/s: beyond a float
        bonnie.parse("vm,512M,,," + "9" * 400 + ",43,1040537,44,,,+++++,+++,+++++,+++"
                     + "," * 13, "b.csv")
    assert (info.value.position, info.value.expected) == (
        "line 1", "a finite, non-negative put_block rate figure")
