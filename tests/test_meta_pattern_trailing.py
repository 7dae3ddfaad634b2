"""A path pattern's last part ``**``: every file at any depth below (what users write)."""

import pytest

import ebsstats as es
from ebsstats.io.meta import check_pattern, pattern_meta


def test_a_last_double_star_is_everything_below(tmp_path):
    # chris-sanders/ceph-fio-results is laid out <filesystem>/<config>/<run>/...; its user wrote
    # "{filesystem}/{config}/**" and was told "'**' has no text between two placeholders"
    pat = "{filesystem}/{config}/**"
    check_pattern(pat)
    for rel in ("bluestore/4k/x.out", "bluestore/4k/a/b/x.out"):
        assert pattern_meta(rel, pat) == pattern_meta(rel, "{filesystem}/{config}/**/*") == {
            "filesystem": "bluestore", "config": "4k"}
    assert pattern_meta("x.out", pat) == {}
    src = tmp_path / "bluestore" / "4k" / "run1"
    src.mkdir(parents=True)
    from tests.conftest import fixture

    (src / "small_normal.txt").write_bytes(fixture("fio", "small_normal.txt").read_bytes())
    df = es.read(tmp_path, pattern=pat, progress=False)
    assert set(df["config"].astype(str)) == {"4k"}
    assert set(df["filesystem"].astype(str)) == {"bluestore"}


@pytest.mark.parametrize("pat", ["{config}/run**.json", "**{config}/x.json"])
def test_a_double_star_inside_a_part_says_where_it_works(pat):
    with pytest.raises(ValueError, match="only as '\\*\\*/', or as the whole last part"):
        check_pattern(pat)
