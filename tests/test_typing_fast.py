"""Each shortcut of the typing engine (:mod:`ebsstats.io._columns`) and of the folder read's
checks, tested against the general rule it replaces: the folder read checks typed columns
(:func:`ebsstats.schema.check_columns`) instead of validating the frame, builds the frame from
its blocks instead of the DataFrame constructor, hashes the run ids of one-run chunks in one
pass, leaves unit and direction to the vocabulary without a piece per chunk, finds lists that
files share by their ids, and repeats a missing value without typing it again. A test here fails
if the shortcut accepts what the rule refuses or gives what the rule would not."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ebsstats as es
from ebsstats import schema
from ebsstats.errors import SchemaError
from ebsstats.io import _columns, _common
from ebsstats.io._columns import Const


def _rec(**kw):
    base = {"source": "x.json", "tool": "fio", "test": "job", "metric": "iops", "value": 100.0,
            "op": "read", "workload": "randread", "run_key": "$.jobs[0]"}
    base.update(kw)
    return base


def _columns_of(df: pd.DataFrame) -> dict:
    return {c: df[c].array for c in df.columns}


def _error(fn, *args) -> str | None:
    try:
        fn(*args)
    except SchemaError as exc:
        return str(exc)
    return None


def _types_alike(column: str, pieces: list, plain: list) -> None:
    """``pieces`` type as the plain list of the same rows does: the same Series, or the same
    exception type."""
    dtype = _columns._RESULT_COLUMNS.get(column, schema.STRING)
    extra = column == "extra"

    def typed(ps):
        try:
            return pd.Series(_columns._typed_column(ps, dtype, extra))
        except (ValueError, TypeError, OverflowError) as exc:
            return type(exc)
    got, want = typed(pieces), typed(plain)
    if isinstance(want, pd.Series):
        pd.testing.assert_series_equal(got, want, check_exact=True)
    else:
        assert got is want


def _good() -> pd.DataFrame:
    return _columns.frame([_rec(), _rec(metric="bandwidth", value=4096.0, source="y.json",
                                        job="j"),
                           _rec(metric="lat_mean", value=0.001, flag="too_fast")])


def _broken():
    """Frames that break one rule each (and one that breaks none)."""
    df = _good()
    yield "fine", df
    yield "missing", df.drop(columns=["op"])
    yield "order", df[[*df.columns[1:], df.columns[0]]]
    yield "dtype", df.assign(threads=df["threads"].astype("float64"))
    yield "vocabulary", df.assign(workload=pd.Categorical(["randread", "sideways", None]))
    yield "tool", df.assign(tool=pd.Categorical(["fio", "FIO", "fio"]))
    yield "missing source", df.assign(source=pd.array(["a", None, "b"], dtype="string"))
    yield "unit", df.assign(unit=pd.Categorical(["IO/s", "IO/s", "s"]))
    for name, value in (("inf", np.inf), ("nan", np.nan), ("negative", -1.0)):
        bad = df.copy()
        bad.loc[1, "value"] = value
        yield name, bad


@pytest.mark.parametrize("case", [name for name, _ in _broken()])
def test_checked_columns_fail_as_validate_fails_the_frame(case):
    df = dict(_broken())[case]
    want = _error(schema.validate, df)
    assert (want is None) == (case == "fine")
    assert _error(schema.check_columns, _columns_of(df)) == want
    # Series as columns too (what a caller's array stays as)
    assert _error(schema.check_columns, {c: df[c] for c in df.columns}) == want


def test_a_folder_read_refuses_what_validate_refuses(monkeypatch):
    # the checked typing path raises the same error as validating the typed frame
    chunk = _common.record_chunk([_rec(value=-5.0), _rec(metric="bandwidth", value=1.0)])
    unchecked = _common.results_of([(dict(chunk[0]), chunk[1])])
    want = _error(schema.validate, unchecked)
    assert want is not None and "negative" in want
    assert _error(_common.results_of, [(dict(chunk[0]), chunk[1])], True) == want
    fine = _common.record_chunk([_rec(), _rec(metric="bandwidth", value=1.0)])
    pd.testing.assert_frame_equal(_common.results_of([fine], validated=True),
                                  schema.validate(_common.results_of([fine])), check_exact=True)


def test_frame_from_blocks_equals_the_constructor():
    df = _good()
    cols = _columns_of(df)
    fast = _columns._frame(dict(cols), len(df))
    slow = pd.DataFrame(cols, index=pd.RangeIndex(len(df)), copy=False)
    pd.testing.assert_frame_equal(fast, slow, check_exact=True)
    assert fast.columns.dtype == slow.columns.dtype
    assert list(fast.dtypes) == list(slow.dtypes)
    # names that are not all strings: the constructor, as before
    odd = _columns._frame({"a": np.array([1.0]), 3: np.array([2.0])}, 1)
    pd.testing.assert_frame_equal(odd, pd.DataFrame({"a": [1.0], 3: [2.0]}))


def test_frames_built_from_blocks_never_share_what_one_changes():
    a, b = _good(), _good()
    before = b.copy()
    a.loc[0, "value"] = 7.0
    a.loc[0, "host"] = "changed"
    a.loc[0, "threads"] = 3
    a["op"] = a["op"].cat.set_categories(["read", "write", "x"])
    a.loc[0, "op"] = "x"
    pd.testing.assert_frame_equal(b, before)


_key = st.one_of(st.sampled_from(["$.jobs[0]", "$.jobs[1]", "line 3"]), st.integers(0, 3),
                 st.booleans(), st.sampled_from([1.0, 0.0, -0.0]), st.none())


@st.composite
def _chunks(draw):
    """Chunks as the readers give them: a source and run key per chunk (constants or lists),
    positions, and sometimes a chunk's own run_id."""
    k = draw(st.integers(1, 5))
    sources = draw(st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f"]), min_size=k,
                            max_size=k))
    out = []
    for s in sources:
        n = draw(st.integers(1, 4))
        cols = {"source": Const(s, n), "tool": Const("fio", n), "test": Const("t", n),
                "metric": Const("iops", n), "value": Const(1.0, n)}
        if draw(st.booleans()):
            cols["run_key"] = (Const(draw(_key), n) if draw(st.booleans())
                               else draw(st.lists(_key, min_size=n, max_size=n)))
        if draw(st.booleans()):
            cols["position"] = (Const(draw(_key), n) if draw(st.booleans())
                                else draw(st.lists(_key, min_size=n, max_size=n)))
        if draw(st.integers(0, 5)) == 0:
            cols["run_id"] = Const(draw(st.sampled_from([None, "given"])), n)
        out.append((cols, n))
    return out


def _run_ids(chunks, monkeypatch, shortcut: bool) -> list:
    with monkeypatch.context() as m:
        if not shortcut:
            m.setattr(_columns, "_one_run_ids", lambda pieces, lengths: None)
        pieces, lengths = _common.pieces_of([(dict(c), n) for c, n in chunks])
        _columns._fill_run_ids(pieces, lengths)
    rows = []
    for p in pieces.get("run_id", []):
        rows.extend([p.value] * p.n if type(p) is Const else p)
    return rows


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_chunks())
def test_run_ids_of_one_run_chunks_are_the_general_rules(monkeypatch, chunks):
    assert _run_ids(chunks, monkeypatch, True) == _run_ids(chunks, monkeypatch, False)


def test_one_run_ids_apply_only_where_no_chunk_depends_on_another():
    # the general rule hashes each equal (source, key) pair once, and 1 == True: the shortcut
    # must step aside when sources repeat, and for keys that are not strings or ints
    pieces = {"source": [Const("a", 1), Const("a", 1)], "run_key": [Const(1, 1), Const(2, 1)]}
    assert _columns._one_run_ids(pieces, [1, 1]) is None
    pieces = {"source": [Const("a", 1), Const("b", 1)],
              "run_key": [Const(True, 1), Const(None, 1)]}
    assert _columns._one_run_ids(pieces, [1, 1]) == [None, None]
    pieces = {"source": [Const("a", 2)], "run_key": [["x", "y"]]}
    assert _columns._one_run_ids(pieces, [2]) == [None]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.sampled_from(["iops", "bandwidth", "score",
                                                              "lat_mean", "cpu"])),
                min_size=1, max_size=6))
def test_the_vocabulary_without_pieces_types_as_pieces_of_nothing(chunks):
    def pieces(explicit: bool):
        out = {"source": [Const(f"s{j}", n) for j, (n, _) in enumerate(chunks)],
               "tool": [Const("pts", n) for n, _ in chunks],
               "test": [Const("t", n) for n, _ in chunks],
               "metric": [Const(m, n) for n, m in chunks],
               "value": [[1.0] * n for n, _ in chunks]}
        if explicit:  # what the general rule sees when no chunk has them
            out["unit"] = [Const(None, n) for n, _ in chunks]
            out["higher_is_better"] = [Const(None, n) for n, _ in chunks]
        return out
    lengths = [n for n, _ in chunks]
    a = _columns.frame_of_columns(pieces(False), lengths)
    b = _columns.frame_of_columns(pieces(True), lengths)
    pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_the_vocabulary_of_known_metrics_is_cached_and_an_unknown_one_raises_each_time():
    _columns._vocabulary_of.cache_clear()
    metric = pd.Categorical(["iops", "bandwidth", "iops", None])
    first = _columns._vocabulary_columns(metric)
    again = _columns._vocabulary_columns(metric)
    for x, y in zip(first, again, strict=True):
        pd.testing.assert_extension_array_equal(x, y)
    assert first[0].tolist() == ["IO/s", "B/s", "IO/s", np.nan]
    for _ in range(2):
        with pytest.raises(SchemaError, match="unknown metric"):
            _columns._vocabulary_columns(pd.Categorical(["iopz"]))


_element = st.one_of(st.sampled_from(["x", "y", "read", "write"]), st.none(), st.integers(0, 3))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(_element, min_size=1, max_size=4), min_size=1, max_size=4),
       st.lists(st.integers(0, 3), min_size=1, max_size=8),
       st.sampled_from(["test", "op", "block_size", "extra"]))
def test_lists_shared_by_files_type_as_their_copies(layouts, which, column):
    if column == "op":
        layouts = [[v if v in ("read", "write") else None for v in lst] for lst in layouts]
    if column == "block_size":
        layouts = [[v if isinstance(v, int) else None for v in lst] for lst in layouts]
    shared = [layouts[i % len(layouts)] for i in which]  # the same list objects, repeated
    copies = [list(p) for p in shared]
    lengths = [len(p) for p in shared]
    dtype = _columns._RESULT_COLUMNS.get(column, schema.STRING)
    extra = column == "extra"
    a = _columns._typed_column(shared, dtype, extra)
    b = _columns._typed_column(copies, dtype, extra)
    pd.testing.assert_series_equal(pd.Series(a), pd.Series(b), check_exact=True)
    assert len(a) == sum(lengths)


@pytest.mark.parametrize("name", [*schema.COLUMNS, *schema.META_COLUMNS, "extra"])
def test_a_column_no_file_has_repeats_the_typed_missing_value(name):
    dtype = _columns._RESULT_COLUMNS.get(name, schema.STRING)
    extra = name == "extra"
    for n in (1, 3):
        fast = _columns._repeat_none(dtype, extra, n)
        general = _columns._repeat_one(_columns._from_list([None], dtype, extra), n)
        pd.testing.assert_series_equal(pd.Series(fast), pd.Series(general), check_exact=True)
        assert type(fast) is type(general)
        assert fast is not _columns._repeat_none(dtype, extra, n)  # a new array each time


def test_a_one_file_read_is_valid_and_equals_its_records_typed_the_general_way():
    df = es.read("tests/fixtures/bonnie/bon_q_s512_n0.csv")
    es.validate(df)
    again = _columns.conform(df)  # the constructor path (columns given as Series)
    pd.testing.assert_frame_equal(again, df, check_exact=True)


def _timestamps_the_general_way(values: list):
    codes, uniques = pd.factorize(pd.Series(values, dtype=object))
    conv = pd.to_datetime(pd.Series(uniques, dtype=object), utc=True, format="ISO8601")
    return conv.astype(schema.COLUMNS["timestamp"]).array.take(codes, allow_fill=True)


_stamp = st.sampled_from([
    pd.Timestamp("2024-03-07 16:37:00", tz="UTC"), pd.Timestamp("2024-03-07 17:37:00+01:00"),
    pd.Timestamp("2024-03-07 16:37:00"), "2024-03-07T16:37:00Z", "2024-03-07T16:37:00.123456789Z",
    "2024-03-08T01:08:44+02:00", None, pd.NaT, float("nan")])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(_stamp, st.integers(1, 4), st.booleans()), min_size=1, max_size=6))
def test_timestamps_repeated_as_one_object_type_as_the_general_factorize(runs):
    values = []
    for value, n, same_object in runs:  # a reader repeats one object per run, or makes copies
        values.extend([value] * n if same_object or not isinstance(value, str)
                      else ["".join(value) for _ in range(n)])
    fast = _columns._fast_typed(values, schema.COLUMNS["timestamp"], False)
    pd.testing.assert_extension_array_equal(fast, _timestamps_the_general_way(values))


@pytest.mark.filterwarnings("ignore:Parsing integer or float values")
@settings(max_examples=120, deadline=None)
@given(st.one_of(st.sampled_from(["x", "read", "iops", "fio", "12"]), st.integers(-3, 3),
                 st.none(), st.booleans(), st.floats(-2, 2)),
       st.lists(st.integers(1, 5), min_size=1, max_size=5),
       st.sampled_from(["test", "op", "metric", "block_size", "timestamp", "value", "size_gib",
                        "higher_is_better", "extra"]))
def test_one_value_in_every_run_types_as_its_repetitions(value, lengths, column):
    _types_alike(column, [Const(value, n) for n in lengths], [[value] * sum(lengths)])


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 6), st.lists(st.integers(-1, 5), max_size=30))
def test_present_codes_are_np_unique_of_the_codes_in_range(k, codes):
    codes = np.array([c for c in codes if c < k], dtype=np.int8)
    want = np.unique(codes[codes >= 0])
    np.testing.assert_array_equal(schema._present(codes, k), want)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30), st.one_of(st.text(max_size=20), st.integers(), st.none(),
                                       st.booleans(), st.floats(allow_nan=True)))
def test_run_id_is_the_first_16_hex_digits_of_the_sha1(source, key):
    import hashlib
    want = hashlib.sha1(f"{source}\x00{key}".encode("utf-8", "surrogatepass"),
                        usedforsecurity=False).hexdigest()[:16]
    try:
        got = schema.run_id(source, key)
    except UnicodeEncodeError:  # (lone surrogates: as the formula itself fails)
        with pytest.raises(UnicodeEncodeError):
            f"{source}\x00{key}".encode()
        return
    assert got == want


_mixed_value = st.one_of(st.sampled_from(["x", "y", "read", "write", "1"]), st.none(),
                         st.integers(0, 2), st.booleans(), st.sampled_from([1.0, 0.0, -0.0]),
                         st.floats(allow_nan=True, allow_infinity=False, width=16))


@pytest.mark.filterwarnings("ignore:Parsing integer or float values")
@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.just("const"), _mixed_value, st.integers(1, 3)),
                          st.tuples(st.just("list"), st.lists(_mixed_value, min_size=1,
                                                              max_size=3), st.integers(0, 2))),
                min_size=2, max_size=7),
       st.sampled_from(["test", "op", "metric", "block_size", "repetition", "flag",
                        "higher_is_better", "timestamp", "extra"]))
def test_constants_and_lists_mixed_type_as_their_rows_in_one_list(spec, column):
    # lists may be shared: ("list", values, k) reuses the k-th list made so far, if any
    made: list[list] = []
    pieces = []
    for kind, value, k in spec:
        if kind == "const":
            pieces.append(Const(value, k))
        elif k < len(made):
            pieces.append(made[k])
        else:
            made.append(list(value))
            pieces.append(made[-1])
    rows = [v for p in pieces for v in ([p.value] * p.n if type(p) is Const else p)]
    _types_alike(column, pieces, [rows])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(["a", "/", ".", "\x1b", "\x85", "é", "\udce9",
                                                   "\udcff", "\n", " "]), max_size=6),
                max_size=5))
def test_names_judged_printable_together_are_each_their_display_name(names):
    from ebsstats.io import folder
    if folder._all_printable(names):
        assert [folder.display_name(x) for x in names] == names
    else:
        assert [folder.display_name(x) for x in names] != names


_aware = st.builds(
    lambda seconds, zone, unit: pd.Timestamp(seconds, unit="s", tz="UTC").tz_convert(zone)
    .as_unit(unit),
    st.integers(-2_000_000_000, 4_000_000_000), st.sampled_from(
        ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata"]),
    st.sampled_from(["s", "ms", "us", "ns"]))
_other_time = st.sampled_from([pd.Timestamp("2024-03-07 16:37:00"), "2024-03-07T16:37:00Z",
                               None, pd.NaT, pd.Timestamp("3000-01-01", tz="UTC").as_unit("s"),
                               pd.Timestamp("2024-03-07 16:37:00.123456789", tz="UTC")])


@pytest.mark.filterwarnings("ignore:Parsing integer or float values")
@settings(max_examples=120, deadline=None)
@given(st.lists(st.one_of(_aware, _aware, _other_time), min_size=1, max_size=8))
def test_aware_timestamps_convert_as_to_datetime_converts_them(values):
    dtype = schema.COLUMNS["timestamp"]
    try:
        want = _timestamps_the_general_way(values)
    except (ValueError, TypeError, OverflowError) as exc:  # (beyond the ns range)
        with pytest.raises(type(exc)):
            _columns._fast_typed(values, dtype, False)
        return
    pd.testing.assert_extension_array_equal(_columns._fast_typed(values, dtype, False), want)


def test_a_frames_columns_index_is_its_own():
    a, b = _good(), _good()
    a.columns.name = "renamed"  # (sets the Index object's name in place)
    assert b.columns.name is None and _good().columns.name is None


@pytest.mark.parametrize("cats", [["a"], ["B/s", "IO/s", "s"], [f"m{i:03d}" for i in range(70)],
                                  ["", "é", "z"]])
def test_categorical_dtypes_made_without_checks_are_the_checked_ones(cats):
    want = pd.CategoricalDtype(pd.Index(list(cats), dtype="str"))
    for got in (_columns._categorical_dtype(cats), _columns._categories(cats)):
        assert got == want and got.ordered is want.ordered
        pd.testing.assert_index_equal(got.categories, want.categories, exact=True)
        assert got.categories.is_unique and not got.categories.hasnans


@pytest.mark.parametrize("names", [("a",), ("run_id", "source", "é", "")])
def test_a_columns_index_from_arrow_is_the_inferred_one(names):
    pd.testing.assert_index_equal(_columns._column_index.__wrapped__(names), pd.Index(list(names)),
                                  exact=True)


def test_the_missing_time_typed_directly_is_to_datetime_of_none():
    fast = _columns._none_typed(_columns._UTC_NS, False)
    general = _columns._from_list([None], _columns._UTC_NS, False)
    pd.testing.assert_extension_array_equal(fast, general)
    assert fast.dtype == schema.COLUMNS["timestamp"]


@st.composite
def _named_chunks(draw):
    """Chunks of names drawn from a few, in any order: one layout of names, or several."""
    pool = ["a", "b", "c", "d", 1]
    layouts = draw(st.lists(st.permutations(pool).flatmap(
        lambda p: st.integers(0, len(p)).map(lambda k: p[:k])), min_size=1, max_size=3))
    picks = draw(st.lists(st.integers(0, len(layouts) - 1), min_size=1, max_size=8))
    return [({k: Const(f"{k}{j}", j + 1) if j % 2 else [j] * (j + 1) for k in layouts[i]}, j + 1)
            for j, i in enumerate(picks)]


@given(_named_chunks())
@settings(max_examples=300, deadline=None)
def test_pieces_of_chunks_of_one_layout_of_names_are_the_general_rules(chunks):
    pieces, lengths = _common.pieces_of(chunks)
    want = _common._pieces_by_name([c for c, _ in chunks], [n for _, n in chunks])
    assert lengths == [n for _, n in chunks]
    assert list(pieces) == list(want)
    for name in want:
        assert [type(p) for p in pieces[name]] == [type(p) for p in want[name]]
        assert pieces[name] == want[name]
        assert all(a is b for a, b in zip(pieces[name], want[name], strict=True)
                   if type(a) is not Const or a.value is not None)


def _piece_codes_by_rows(firsts, lengths, consts):
    """Each piece's codes made one by one: its first repeated (a constant), or counting up from
    it (a list)."""
    return np.array([c for f, n, k in zip(firsts, lengths, consts, strict=True)
                     for c in ([f] * n if k else range(f, f + n))], dtype=np.intp)


@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 5), st.booleans()), max_size=12))
@settings(max_examples=400, deadline=None)
def test_piece_codes_are_each_pieces_codes_in_turn(pieces):
    firsts = np.array([p[0] for p in pieces], dtype=np.intp)
    lengths = np.array([p[1] for p in pieces], dtype=np.intp)
    consts = np.array([p[2] for p in pieces], dtype=bool)
    got = _columns._piece_codes(firsts, lengths, consts)
    want = _piece_codes_by_rows(firsts.tolist(), lengths.tolist(), consts.tolist())
    assert got.dtype == np.intp
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("k", [0, 1, 126, 127, 128, 32766, 32767, 40000])
def test_unit_codes_have_the_type_a_categorical_keeps(k):
    from pandas.core.dtypes.cast import coerce_indexer_dtype

    want = coerce_indexer_dtype(np.zeros(1, dtype=np.int64), pd.RangeIndex(k)).dtype
    assert np.dtype(_columns._code_dtype(k)) == want
