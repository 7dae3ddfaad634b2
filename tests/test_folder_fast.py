"""Round 2 shortcuts of the folder read and the typing engine, each tested against the general
rule it replaces: constants and lists mixed in a column typed without the loop per piece,
constants of one value or of a value per run found with C-level maps, a file's companion test
on its name, sniffing verdicts made once per reader and format, and the folder sidecars'
metadata looked up once per folder. A test here fails if the shortcut gives what the rule
would not (or accepts what it refuses)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ebsstats as es
from ebsstats import schema
from ebsstats.io import _columns, _registry, sniff
from ebsstats.io._columns import Const
from ebsstats.io._common import Parsed

_COLUMNS = ["test", "op", "metric", "block_size", "repetition", "flag", "higher_is_better",
            "timestamp", "run_id", "extra"]


def _typed(pieces, column):
    dtype = _columns._RESULT_COLUMNS.get(column, schema.STRING)
    try:
        return pd.Series(_columns._typed_column(pieces, dtype, column == "extra"))
    except (ValueError, TypeError, OverflowError) as exc:
        return type(exc)


def _same(got, want):
    if isinstance(want, pd.Series):
        assert isinstance(got, pd.Series), got
        pd.testing.assert_series_equal(got, want, check_exact=True)
    else:
        assert got is want


def _rows(pieces):
    return [v for p in pieces for v in ([p.value] * p.n if type(p) is Const else p)]


_str_const = st.sampled_from(["x", "y", "read", "write", "1", "a" * 16, None])
_int_const = st.one_of(st.integers(-2, 3), st.none(), st.just(2**70))
_element = st.one_of(st.sampled_from(["x", "read", "1", ""]), st.none(), st.integers(-1, 3),
                     st.booleans(), st.sampled_from([1.0, 0.0, -0.0, 2.5, float("nan")]))


@st.composite
def _mixed(draw):
    """Constants of one family (strings or ints, with None) among lists, some shared."""
    consts = draw(st.sampled_from([_str_const, _int_const]))
    made: list[list] = []
    pieces = []
    for _ in range(draw(st.integers(2, 8))):
        kind = draw(st.sampled_from(["const", "const", "list", "shared"]))
        if kind == "const":
            pieces.append(Const(draw(consts), draw(st.integers(1, 3))))  # (a chunk has rows)
        elif kind == "shared" and made:
            pieces.append(made[draw(st.integers(0, len(made) - 1))])
        else:
            made.append(draw(st.lists(st.one_of(consts, _element), min_size=1, max_size=3)))
            pieces.append(made[-1])
    return pieces


@pytest.mark.filterwarnings("ignore:Parsing integer or float values")
@settings(max_examples=300, deadline=None)
@given(_mixed(), st.sampled_from(_COLUMNS))
def test_constants_and_lists_mixed_type_as_their_rows(pieces, column):
    _same(_typed(pieces, column), _typed([_rows(pieces)], column))


@pytest.mark.filterwarnings("ignore:Parsing integer or float values")
@settings(max_examples=300, deadline=None)
@given(_mixed(), st.sampled_from(_COLUMNS))
def test_the_mixed_shortcut_types_as_the_general_loop(pieces, column):
    consts = [type(p) is Const for p in pieces]
    if all(consts) or not any(consts):
        return
    dtype = _columns._RESULT_COLUMNS.get(column, schema.STRING)
    extra = column == "extra"

    def run(fn):
        try:
            out = fn()
        except (ValueError, TypeError, OverflowError) as exc:
            return type(exc)
        return None if out is None else pd.Series(out)
    fast = run(lambda: _columns._mixed_by_codes(pieces, consts, dtype, extra))
    if fast is None:  # refused: the general loop types it (values equal across types)
        return
    assert not isinstance(fast, pd.Series) or len(fast) == sum(
        p.n if type(p) is Const else len(p) for p in pieces)
    # the general loop: lists that are not plain lists leave the mixed shortcut
    general = run(lambda: _columns._column_by_codes(
        pieces, dtype, extra, kinds={Const, list, type("other", (), {})}))
    _same(fast, general)


@pytest.mark.parametrize("consts", [
    [Const(1, 2), Const(True, 1)],  # equal across types: the general loop keys them apart
    [Const(1, 1), Const(1.0, 2)],
    [Const(0.0, 1), Const(-0.0, 1)],
    [Const("x", 1), Const(2, 1)],
])
def test_the_mixed_shortcut_leaves_constants_equal_across_types_to_the_loop(consts):
    pieces = [*consts, ["x", 1]]
    assert _columns._mixed_by_codes(pieces, [True] * len(consts) + [False], schema.STRING,
                                    True) is None
    for column in ("extra", "repetition", "flag", "higher_is_better"):
        _same(_typed(pieces, column), _typed([_rows(pieces)], column))


class _Str(str):
    pass


@pytest.mark.filterwarnings("ignore:Parsing integer or float values")
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.one_of(_str_const, _int_const, st.booleans(),
                                    st.sampled_from([1.0, -0.0]), st.just(_Str("x"))),
                          st.integers(1, 3)), min_size=1, max_size=8),
       st.booleans(), st.sampled_from(_COLUMNS))
def test_constant_runs_type_as_their_rows(runs, one, column):
    if one:  # one value in every run (the single-value shortcut), or equal values of other types
        runs = [(runs[0][0], n) for _, n in runs] + runs[:1]
    pieces = [Const(v, n) for v, n in runs]
    _same(_typed(pieces, column), _typed([_rows(pieces)], column))


def test_constant_runs_of_arrays_are_not_compared_with_eq():
    pieces = [Const("x", 1), Const(np.array([1, 2]), 1)]
    assert _columns._consts_by_codes(pieces) is None
    pieces = [Const(np.array([1, 2]), 1), Const(np.array([1, 2]), 1)]
    assert _columns._consts_by_codes(pieces) is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(["a", ".", "Y", "m", "E", "T", "/", "f", "I", "O", "\u0130"]),
               min_size=1, max_size=14),
       st.sampled_from(["", ".meta.yaml", ".META.yml", ".fio", ".Md", "readme.md", ".json"]))
def test_companion_names_are_the_companion_rule(stem, suffix):
    name = (stem + suffix).replace("/", "_")
    path = Path("/some/folder") / name
    assert sniff.is_companion_name(path.name) == sniff.is_companion(path) == sniff.is_companion(
        os.fspath(path))


def test_a_verdict_is_made_once_per_reader_and_format_and_never_outlives_its_reader():
    head = "SIMTOOL 1\n"
    parsed = Parsed("simtool", "text")

    def reader():
        return _registry.Reader(tool="simtool", name="test.simtool", detect=lambda h, n: (
            "text" if h.startswith("SIMTOOL") else None), parse=lambda d, s, c: parsed)
    first = reader()
    _registry.register(first, first=True)
    try:
        a, b = sniff.sniff_text(head, "x.txt"), sniff.sniff_text(head, "y.txt")
        assert a is b and a.reader is first
        assert (a.module, a.tool, a.format) == ("test.simtool", "simtool", "text")
        second = reader()  # the same name, another object: its own verdict
        _registry.register(second, first=True)
        c = sniff.sniff_text(head, "x.txt")
        assert c.reader is second and c == sniff.Sniffed("test.simtool", "simtool", "text",
                                                         second)
    finally:
        _registry.unregister("test.simtool")
    assert sniff.sniff_text(head, "x.txt") is None


def _bonnie_csv() -> bytes:
    fixtures = Path(__file__).parent / "fixtures"
    for p in sorted((fixtures / "bonnie").rglob("*.csv")):
        return p.read_bytes()
    pytest.skip("no bonnie++ CSV fixture")


def test_folder_sidecars_are_looked_up_once_per_folder_and_apply_as_before(tmp_path):
    data = _bonnie_csv()
    for sub in ("a", "a/b", "c"):
        (tmp_path / sub).mkdir(parents=True, exist_ok=True)
        (tmp_path / sub / "run1.csv").write_bytes(data)
        (tmp_path / sub / "run2.csv").write_bytes(data + b"\n")
    (tmp_path / "meta.yaml").write_text("config: top\nvolume: v0\n")
    (tmp_path / "a" / "meta.yaml").write_text("volume: va\n")
    (tmp_path / "a" / "b" / "run2.csv.meta.yaml").write_text("config: own\n")
    df = es.read(tmp_path, jobs=1, progress=False, dedupe=False)
    got = df.groupby("source", observed=True)[["config", "volume"]].first().to_dict("index")
    assert got == {"a/b/run1.csv": {"config": "top", "volume": "va"},
                   "a/b/run2.csv": {"config": "own", "volume": "va"},
                   "a/run1.csv": {"config": "top", "volume": "va"},
                   "a/run2.csv": {"config": "top", "volume": "va"},
                   "c/run1.csv": {"config": "top", "volume": "v0"},
                   "c/run2.csv": {"config": "top", "volume": "v0"}}
    with_pattern = es.read(tmp_path, jobs=1, progress=False, dedupe=False,
                           pattern="{config}/{volume}.csv")
    got = with_pattern.groupby("source", observed=True)[["config", "volume"]].first()
    assert got.loc["a/b/run2.csv"].tolist() == ["own", "va"]  # sidecars over the pattern
    assert got.loc["c/run1.csv"].tolist() == ["top", "v0"]


def test_a_bad_folder_sidecar_fails_every_file_below_it(tmp_path):
    data = _bonnie_csv()
    (tmp_path / "bad").mkdir()
    (tmp_path / "ok").mkdir()
    for sub in ("bad", "ok"):
        (tmp_path / sub / "run1.csv").write_bytes(data)
        (tmp_path / sub / "run2.csv").write_bytes(data + b"\n")
    (tmp_path / "bad" / "meta.yaml").write_text("config: [unclosed\n")
    out = es.read(tmp_path, jobs=1, progress=False, full=True)
    bad = out.failures[out.failures["kind"] == "error"]
    assert sorted(bad["source"]) == ["bad/run1.csv", "bad/run2.csv"]
    assert all("sidecar" in r for r in bad["reason"])
    assert set(out.frame["source"]) == {"ok/run1.csv", "ok/run2.csv"}


_masked_value = st.one_of(st.integers(-3, 3), st.none(), st.booleans(),
                          st.sampled_from([2**63 - 1, -2**63, 2**63, 2**70, 1.0, 2.5]))


@settings(max_examples=400, deadline=None)
@given(st.lists(_masked_value, min_size=1, max_size=12), st.sampled_from(["Int64", "boolean"]))
def test_plain_masked_arrays_are_what_pandas_makes(values, name):
    dtype = pd.Int64Dtype() if name == "Int64" else pd.BooleanDtype()
    fast = _columns._plain_masked(values, dtype)
    if fast is None:  # refused: pandas converts (or refuses) it
        types = set(map(type, values)) - {type(None)}
        assert types != ({int} if name == "Int64" else {bool}) or any(
            type(v) is int and not -2**63 <= v < 2**63 for v in values)
        return
    want = pd.array(values, dtype=dtype)
    pd.testing.assert_extension_array_equal(fast, want)
    # the very buffers, values under the mask included
    assert fast._data.dtype == want._data.dtype
    assert (fast._data == want._data).all() and (fast._mask == want._mask).all()


_zone = st.sampled_from(["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata"])
_stamp = st.builds(lambda s, z, u: pd.Timestamp(s, unit="s", tz=z).as_unit(u),
                   st.integers(-2**33, 2**33), _zone, st.sampled_from(["s", "ms", "us", "ns"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.one_of(_stamp, _stamp, st.none(), st.just(pd.Timestamp(0)),
                                    st.just("2024-01-01T00:00:00Z")),
                          st.integers(1, 4), st.booleans()), min_size=1, max_size=6))
def test_aware_rows_type_as_the_general_factorize(runs):
    values = []
    for value, n, same in runs:  # one object repeated, or equal copies
        values += [value] * n if same or not isinstance(value, pd.Timestamp) else [
            pd.Timestamp(value) for _ in range(n)]
    dtype = schema.COLUMNS["timestamp"]
    fast = _columns._aware_rows(values, dtype)
    if fast is None:
        assert any(not isinstance(v, pd.Timestamp) or v.tz is None for v in values)
        return
    want = pd.to_datetime(pd.Series(values, dtype=object), utc=True).astype(dtype).array
    pd.testing.assert_extension_array_equal(fast, want)
    codes, uniques = _columns._factorize_objects(values)
    general = _columns._aware_timestamps(uniques, dtype).take(codes, allow_fill=True)
    pd.testing.assert_extension_array_equal(fast, general)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["iops", "bandwidth", "B", "a", "é", "Z", None]), min_size=1,
                max_size=40), st.integers(1, 150))
def test_long_string_lists_are_categorical_as_pandas_makes_them(values, times):
    values = (values * times)[:5000]  # over and under the length kept to Python
    got = _columns._categorical(values)
    want = pd.Series(values, dtype=object).astype("category").array
    if not any(v is not None for v in values):
        pd.testing.assert_extension_array_equal(got, want)
        return
    assert list(got.categories) == list(want.categories)
    assert (got.codes == want.codes).all()


def test_names_from_the_walk_are_the_relative_names_of_its_paths(tmp_path):
    from ebsstats.io import folder
    root = tmp_path / "root"
    for sub in ("", "a", "a/b c", "z", "a/é"):
        (root / sub).mkdir(parents=True, exist_ok=True)
        for name in ("x.csv", "y.json", ".hidden"):
            (root / sub / name).write_text(f"{sub}/{name}")
    (root / "a" / "real.txt").write_text("same")
    os.symlink(root / "a" / "real.txt", root / "0link.txt")  # listed first, by its link
    os.symlink(root / "z", root / "dirlink")  # not followed
    weird = os.fsencode(str(root / "z")) + b"/caf\xe9\x1b.csv"
    with open(weird, "wb") as fh:
        fh.write(b"x")
    for top in (root, Path(os.path.relpath(root)), Path(str(root) + "/")):
        stats: list = []
        rels: list = []
        files = folder._walk(top, [], stats, rels)
        plain = folder._walk(top, [], [])
        assert files == plain
        printable = rels if folder._all_printable(rels) else list(map(folder.display_name, rels))
        assert printable == folder._relative_names(files, top)
        assert "a/real.txt" in rels and "0link.txt" not in rels
        assert folder._listing(top, top, None, [])[2] == printable
