"""The columnar typing engine: reader rows to the typed frames of :mod:`ebsstats.schema`.

A column arrives in *pieces* (one per file or per frame, in row order), each a plain list, a
:class:`Const` run, a :class:`Runs` piece (values in runs) or an array; constants and list
elements are typed together in one call (Arrow for strings, factorize for timestamps) and
spread by integer codes, large arrays (fio logs) keep their buffers. Typing per file, per
column, was what made folder reads slow.

:func:`frame`, :func:`series_frame`, :func:`conform` and :func:`concat` are the public
constructors (re-exported as ``ebsstats.io.frame`` and so on); :mod:`ebsstats.schema` keeps the
contract they build to (columns, vocabularies, :func:`~ebsstats.schema.validate`).
"""

from __future__ import annotations

import collections
import datetime
import functools
import itertools
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from pandas.api.internals import create_dataframe_from_blocks
from pandas.api.types import union_categoricals

from ebsstats.errors import SchemaError
from ebsstats.io._bounded import remember
from ebsstats.schema import (
    COLUMNS,
    META_COLUMNS,
    SERIES_COLUMNS,
    STRING,
    category_names,
    check_columns,
    check_tools,
    empty,
    empty_series,
    metric_info,
    run_id,
    run_ids,
)

__all__ = ["Const", "Runs", "frame", "series_frame", "conform", "concat", "columns_of",
           "records_of", "frame_of_columns", "series_of_columns", "is_constant"]


def _has_dtype(actual, dtype) -> bool:
    """Whether a column's dtype already is the schema's ``dtype`` (then typing is a no-op)."""
    if dtype == "category":  # also a CategoricalDtype: categories are the observed values
        return isinstance(actual, pd.CategoricalDtype)
    if dtype is STRING:
        return actual == STRING
    return actual == dtype


def _cast(series: pd.Series, dtype) -> pd.Series:
    if _has_dtype(series.dtype, dtype):
        return series
    if dtype == "category":
        return series.astype("category")
    if isinstance(dtype, pd.DatetimeTZDtype):
        return pd.to_datetime(series, utc=True, format="ISO8601").astype(dtype)
    if isinstance(dtype, pd.CategoricalDtype):
        return series.astype(dtype)
    if dtype is STRING:
        return series.astype(STRING)
    if isinstance(dtype, pd.Int64Dtype):
        return pd.to_numeric(series, errors="raise").astype(dtype)
    if isinstance(dtype, pd.Float64Dtype):
        return pd.to_numeric(series, errors="raise").astype(dtype)
    if isinstance(dtype, pd.BooleanDtype):
        return series.astype(dtype)
    return series.astype(dtype)


# --------------------------------------------------------------------------------------------
# Typing columns once: a column arrives in *pieces* (one per file or per frame, in row order),
# each a plain list, a :class:`Const` run or an array; small pieces are joined into one list and
# converted in one call (Arrow for strings, factorize for timestamps), large arrays (fio logs)
# keep their buffers. Typing per file, per column, was what made folder reads slow.
# --------------------------------------------------------------------------------------------

class Const(NamedTuple):
    """``n`` rows that hold one ``value``: a compact column piece (a file's source, its metadata).

    >>> Const("gp3", 3)
    Const(value='gp3', n=3)
    """

    value: object
    n: int


class Runs(NamedTuple):
    """Rows in runs of one value: ``values[i]`` on ``counts[i]`` rows in turn, a compact column
    piece for a chunk's column of few distinct values in long runs (a file's test names, its
    jobs' options): typed per run, as the :class:`Const` pieces of its runs, never row by row.
    ``counts`` are ints >= 0 (a run of 0 rows is no row); ``values`` and ``counts`` are as long
    as each other (else typing raises ``ValueError``). Wherever a chunk's rows are needed one by
    one (filling ``unit``, ``run_id``) the runs are expanded.

    >>> Runs(["a", "b"], [2, 1])
    Runs(values=['a', 'b'], counts=[2, 1])
    """

    values: Sequence
    counts: Sequence[int]


def _run_counts(p: Runs) -> list[int]:
    """A :class:`Runs` piece's counts, checked: as many as its values, ints >= 0."""
    counts = list(p.counts)
    if len(counts) != len(p.values):
        raise ValueError(f"runs of {len(p.values)} values with {len(counts)} counts")
    if not set(map(type, counts)) <= _INT_ONLY or (counts and min(counts) < 0):
        raise ValueError("run counts must be ints >= 0")
    return counts


def _runs_consts(p: Runs) -> list[Const]:
    """A :class:`Runs` piece as the :class:`Const` pieces of its runs, checked.

    >>> _runs_consts(Runs(["a", "b", "c"], [2, 0, 1]))
    [Const(value='a', n=2), Const(value='c', n=1)]
    """
    counts = _run_counts(p)
    return list(itertools.compress(map(Const, p.values, counts), counts))  # (a run of no
    # row is left out: as a Const of 0 rows its value would still name a category)


def _without_runs(pieces: Sequence) -> list:
    """A column's pieces with each :class:`Runs` piece as the :class:`Const` pieces of its
    runs."""
    out: list = []
    for p in pieces:
        if type(p) is Runs:
            out.extend(_runs_consts(p) or [[]])  # (no run: no row, as an empty list)
        else:
            out.append(p)
    return out


_SMALL = 4096  # array pieces shorter than this are typed together with their neighbours
_SHORT = 4096  # lists of strings up to this long are made categorical in Python, not Arrow
# (a dict of the sorted categories: faster than Arrow's dictionary encoding up to ~5,000
# values, few distinct or many; 1,188 of 4 metrics 90 -> 61 us)


def _missing(v) -> bool:
    return v is None or v is pd.NA or v is pd.NaT or (isinstance(v, float) and v != v)


def _piece_list(p, n: int | None = None) -> list:
    if type(p) is Const:
        return [p.value] * p.n
    if type(p) is Runs:
        return list(itertools.chain.from_iterable(map(itertools.repeat, p.values,
                                                      _run_counts(p))))
    if isinstance(p, list):
        return p
    return pd.Series(p).tolist()


_NEVER_MISSING = frozenset({str, int, bool})


def _needs(p, types: set | None = None) -> bool:
    """Whether a piece has a missing value (``types``: a list's value types, if the caller
    has them)."""
    if type(p) is Const:
        return _missing(p.value)
    if type(p) is Runs:
        return any(map(_missing, itertools.compress(p.values, _run_counts(p))))
    if isinstance(p, list):
        if types is None:  # the usual lists (strings, ints) judged by type, in C
            types = set(map(type, p))
        if types <= _NEVER_MISSING:
            return False
        if types <= _NEVER_MISSING | {type(None)}:
            return True
        arr = np.empty(len(p), dtype=object)
        try:
            arr[:] = p
        except ValueError:  # elements that are sequences themselves
            return any(map(_missing, p))
        return bool(pd.isna(arr).any())
    return bool(pd.isna(pd.Series(p)).any())


def _fast_typed(values: list, dtype, extra: bool):
    """Type a plain list in one call, as an array (a NumPy array for NumPy dtypes, else a
    pandas extension array); raises (TypeError, ValueError, ArrowException) if the values need
    the general conversion."""
    if extra or dtype is STRING:
        if extra and len(values) <= _FEW and not set(map(type, values)) <= _STR_OR_NONE:
            values = _printed(values)  # (ints and bools: what Arrow's cast, or str, prints)
        try:
            arr = pa.array(values, type=pa.large_string(), from_pandas=True)
        except (pa.ArrowTypeError, pa.ArrowInvalid):
            if not extra:
                raise
            arr = _ints_as_strings(values)
        return _str_array(arr, dtype=_ARROW_STRING)
    if dtype == "category":  # CategoricalDtype(...) == "category" too: observed, sorted values
        return _categorical(values)
    if isinstance(dtype, pd.DatetimeTZDtype):
        rows = _aware_rows(values, dtype)
        if rows is not None:
            return rows
        codes, uniques = _factorize_objects(values)
        conv = _aware_timestamps(uniques, dtype)
        if conv is None:  # strings, naive times, …: the general conversion
            conv = pd.to_datetime(pd.Series(uniques, dtype=object), utc=True,
                                  format="ISO8601").astype(dtype).array
        return conv.take(codes, allow_fill=True)
    if isinstance(dtype, pd.api.extensions.ExtensionDtype):  # Int64, Float64, boolean
        plain = _plain_masked(values, dtype)
        return plain if plain is not None else pd.array(values, dtype=dtype)
    return np.array(values, dtype=dtype)


_FEW = 256  # distinct constants, or a short list


def _printed(values: list) -> list:
    """An extra column's short list of strings, ints and bools (``None`` beside) as the
    strings typing gives them (``str``: what Arrow's cast of ints and the general rule,
    :func:`_to_str`, print), ``None`` kept; other lists as they are (then typed the general
    way). Without it a list of ints was typed after Arrow refused it as strings (an exception,
    then a cast kernel: 60 us a column, ~0.6 ms the first time in a process).

    >>> _printed([1, True, None, "a", -2**70])
    ['1', 'True', None, 'a', '-1180591620717411303424']
    >>> _printed([1.0, 2])
    [1.0, 2]
    """
    if not set(map(type, values)) <= _PRINTED:
        return values
    return [None if v is None else str(v) for v in values]


_PRINTED = frozenset({str, int, bool, type(None)})


def _plain_masked(values: list, dtype):
    """``pd.array(values, dtype=dtype)`` of a list of plain ints (no ``bool``) for ``Int64``,
    or of bools for ``boolean``, ``None`` beside either, built from NumPy arrays with pandas'
    own values under the mask (1 for ints, ``False`` for bools): pandas' inference cost 2-4
    times as much. ``None`` for any other list (and for ints beyond 64 bits): pandas converts
    those."""
    types = set(map(type, values))
    some_none = type(None) in types
    types.discard(type(None))
    if type(dtype) is pd.Int64Dtype and types == _INT_ONLY:
        kind, fill = np.int64, 1
    elif type(dtype) is pd.BooleanDtype and types == _BOOL_ONLY:
        kind, fill = np.bool_, False
    else:
        return None
    if not some_none:
        mask = np.zeros(len(values), dtype=bool)
        try:
            data = np.array(values, dtype=kind)
        except OverflowError:
            return None
    else:
        obj = np.array(values, dtype=object)
        mask = np.equal(obj, None)
        obj[mask] = fill
        try:
            data = obj.astype(kind)
        except OverflowError:
            return None
    return (pd.arrays.IntegerArray if kind is np.int64 else pd.arrays.BooleanArray)(data, mask)


_INT_ONLY = frozenset({int})
_BOOL_ONLY = frozenset({bool})


def _aware_timestamps(uniques: pd.Index, dtype):
    """Distinct timestamps that are all ``pd.Timestamp`` with a time zone (what a reader that
    parsed them gives) as nanoseconds UTC, from their epoch values: what
    ``pd.to_datetime(..., utc=True)`` makes of them, without its parsing machinery (0.3 ms
    for any call); ``None`` for anything else, or beyond the nanosecond range."""
    if dtype != _UTC_NS or not len(uniques):
        return None
    ns = _stamps_ns(uniques.tolist())
    return None if ns is None else _utc_ns(ns)


def _stamps_ns(values: list, counts=None) -> np.ndarray | None:
    """The nanoseconds since the epoch of tz-aware ``pd.Timestamp`` objects (a new array), one
    per value, or each repeated ``counts[i]`` times (ints >= 0); each distinct object looked at
    once (a reader repeats one object on the rows of a run). ``None`` if any is not a tz-aware
    ``pd.Timestamp`` (a missing value, a string, a naive time) or beyond the nanosecond range.

    >>> t = pd.Timestamp("2024-01-01", tz="UTC")
    >>> _stamps_ns([t, t], [1, 2]).tolist() == [t.value] * 3, _stamps_ns([t, None])
    (True, None)
    """
    ids = list(map(id, values))
    objects = dict(zip(ids, values, strict=True))
    stamps = list(objects.values())
    if set(map(type, stamps)) != _TIMESTAMP_ONLY or None in map(_TZINFO, stamps):
        return None
    try:
        ns = np.fromiter(map(_VALUE, stamps), dtype=np.int64, count=len(stamps))
    except OverflowError:  # (a Timestamp of another unit beyond the ns range)
        return None
    if len(stamps) < len(values):
        where = dict(zip(objects, range(len(stamps)), strict=True))
        ns = ns[np.fromiter(map(where.__getitem__, ids), dtype=np.intp, count=len(ids))]
    return ns if counts is None else np.repeat(ns, counts)


_UTC_NS = pd.DatetimeTZDtype("ns", "UTC")
_NAT = np.iinfo(np.int64).min  # NaT's nanoseconds


def _utc_ns(ns: np.ndarray):
    """Nanoseconds since the epoch (``int64``, NaT's where missing; an array of the caller's
    own, made for it) as a UTC datetime array: what ``pd.DatetimeIndex(ns.view(...),
    tz="UTC").array`` gives, a view of them made directly (the Index's checks and inference:
    ~20 us, ~0.1 ms the first time in a process)."""
    if _datetimes_of is None:
        return pd.DatetimeIndex(ns.view("datetime64[ns]"), tz="UTC").array
    arr = _datetimes_of(ns.view("datetime64[ns]"), dtype=_UTC_NS)
    if _INDEX_ARRAY_READONLY:
        arr._readonly = True  # (as an Index's .array is there: a read-only view)
    return arr


# (a private constructor of pandas: the checked one where it is absent)
_datetimes_of = getattr(pd.arrays.DatetimeArray, "_simple_new", None)
# whether an Index's .array is read-only in this pandas (3.1 marks it so, 3.0.0 does not):
# asked once, of an empty index, so that _utc_ns gives what the Index constructor gives
_INDEX_ARRAY_READONLY = getattr(pd.DatetimeIndex(np.zeros(0, dtype="datetime64[ns]"), tz="UTC"
                                                 ).array, "_readonly", False) is True


def _aware_rows(values: list, dtype):
    """A list of tz-aware ``pd.Timestamp`` (a reader repeats one object on every row of a
    run) typed as UTC nanoseconds from each distinct object's epoch value, spread to the rows
    by identity: what factorizing them and :func:`_aware_timestamps` give (objects equal but
    not identical are the same instant: the same nanoseconds), without hashing a Timestamp or
    a ``take``. ``None`` for anything else (a missing value, a string, a naive time, beyond
    the nanosecond range).

    The rows are first taken in runs of one object (found by identity in C, as a reader gives
    them: a PTS entry's time on its rows, 1,188 rows in 36 runs), each run's object looked at
    once and its nanoseconds repeated (``np.repeat``): 125 -> 45 us warm for a 4-file PTS
    folder; a list of few runs (fewer than half its rows) only.

    >>> t = pd.Timestamp("2024-01-01", tz="UTC")
    >>> _aware_rows([t, t, pd.Timestamp(t), t], _UTC_NS).asi8.tolist() == [t.value] * 4
    True
    """
    if dtype != _UTC_NS or not values:
        return None
    counts = None
    runs = object_runs(values, len(values) // 2)
    if runs is not None:  # (few runs: each run's object once)
        values, counts = runs
    ns = _stamps_ns(values, counts)
    return None if ns is None else _utc_ns(ns)


def run_starts(objects: Sequence) -> list[int]:
    """The rows of ``objects`` that start a run of one object (found by identity, in C: a row
    whose object is not the row's before it), for the readers and the typing that hand over
    or type a column run by run.

    >>> a, b = object(), object()
    >>> run_starts([a, a, b, a]), run_starts([])
    ([0, 2, 3], [])
    """
    return list(itertools.compress(range(len(objects)), itertools.chain((True,), map(
        operator.is_not, itertools.islice(objects, 1, None), objects))))


def object_runs(objects: Sequence, most: int) -> Runs | None:
    """``objects`` as their runs of one object (:func:`run_starts`): a :class:`Runs` of lists,
    each run's object and its rows; ``None`` when there are more than ``most`` runs.

    >>> object_runs(["a", "a", None], 2), object_runs(["a", None], 1), object_runs([], 0)
    (Runs(values=['a', None], counts=[2, 1]), None, Runs(values=[], counts=[]))
    """
    starts = run_starts(objects)
    if len(starts) > most:
        return None
    return Runs(list(map(objects.__getitem__, starts)),
                list(map(operator.sub, [*starts[1:], len(objects)], starts)))


_TIMESTAMP_ONLY = frozenset({pd.Timestamp})


def _factorize_objects(values: list) -> tuple[np.ndarray, pd.Index]:
    """``pd.factorize`` of a list of objects (codes, uniques; missing values coded -1), the
    distinct objects first found by identity in C: a reader repeats one timestamp object on
    every row of a run, and hashing a Timestamp per row cost more than converting them."""
    ids = list(map(id, values))
    objects = dict(zip(ids, values, strict=True))
    if len(objects) == len(values):
        return pd.factorize(pd.Series(values, dtype=object))
    first = dict(zip(objects, range(len(objects)), strict=False))
    codes, uniques = pd.factorize(pd.Series(list(objects.values()), dtype=object))
    return codes[np.fromiter(map(first.__getitem__, ids), dtype=np.intp, count=len(ids))], uniques


def _str_array(values, dtype: pd.StringDtype) -> pd.arrays.ArrowStringArray:
    """``pd.arrays.ArrowStringArray(values, dtype=dtype)`` of a ``large_string`` Arrow array
    (or chunked array) made here: the same object, built as pandas' own
    ``_from_pyarrow_array`` builds one, without the constructor's checks of the type and the
    ``ArrowDtype`` it makes and drops (~4 us a column, 46 of them in a 4-file PTS read, 180 us
    the first time in a process; 0.7 us so). The constructor where pandas' arrays hold other
    attributes than those set here (:data:`_STR_FAST`) or the values are not ``large_string``.

    >>> arr = _str_array(pa.array(["a", None], type=pa.large_string()), _ARROW_STRING)
    >>> arr.tolist(), arr.dtype is _ARROW_STRING
    (['a', <NA>], True)
    """
    if not _STR_FAST or values.type != _LARGE_STRING:
        return pd.arrays.ArrowStringArray(values, dtype=dtype)
    out = _new_str(pd.arrays.ArrowStringArray)
    out._pa_array = values if type(values) is pa.ChunkedArray else pa.chunked_array([values])
    out._dtype = dtype
    out._cache = {}
    return out


# whether this pandas' constructor gives an array of just the attributes _str_array sets
# (pandas 3.1; 3.0.0's keeps no ``_cache``, and its ``_from_pyarrow_array`` calls the
# constructor): asked once, of an empty array, so that _str_array gives what it gives
_STR_FAST = set(vars(pd.arrays.ArrowStringArray(pa.array([], type=pa.large_string())))) == {
    "_pa_array", "_dtype", "_cache"}
_new_str = object.__new__
_LARGE_STRING = pa.large_string()


# the dtype an ArrowStringArray makes itself when given none (made once, not per column;
# the schema's own object when it is that dtype: the checks then find it without comparing)
_ARROW_STRING = pd.StringDtype(storage="pyarrow", na_value=pd.NA)
if STRING == _ARROW_STRING and STRING.storage == "pyarrow" and STRING.na_value is pd.NA:
    _ARROW_STRING = STRING


def _ints_as_strings(values: list) -> pa.Array:
    """An extra column of ints (or bools) as the strings ``str(v)`` gives, in Arrow; raises
    for anything else (floats print as ints when integral: the general path does that)."""
    arr = pa.array(values, from_pandas=True)
    if pa.types.is_integer(arr.type):
        return arr.cast(pa.large_string())
    if pa.types.is_boolean(arr.type):
        return pc.if_else(arr, "True", "False").cast(pa.large_string())
    raise TypeError("not ints")


def _categorical(values: list) -> pd.Categorical:
    """``pd.Categorical(values)`` (sorted categories), via Arrow's dictionary encoding for
    strings: several times faster on long columns (short ones of strings: a dict)."""
    if len(values) <= _SHORT and set(map(type, values)) <= _STR_OR_NONE:
        cats = sorted(set(values) - {None})
        if cats:
            code = {c: i for i, c in enumerate(cats)}
            code[None] = -1
            return pd.Categorical.from_codes(
                np.fromiter(map(code.__getitem__, values), dtype=np.int64, count=len(values)),
                dtype=_categories(cats), validate=False)  # codes made here, in range
    try:
        enc = pa.array(values, type=pa.large_string(), from_pandas=True).dictionary_encode()
    except (pa.ArrowTypeError, pa.ArrowInvalid):
        return pd.Series(values, dtype=object).astype("category").array
    cats = enc.dictionary.to_pylist()
    if not cats:  # all missing: categories of dtype object, as astype("category") makes them
        return pd.Series(values, dtype=object).astype("category").array
    order = sorted(range(len(cats)), key=cats.__getitem__)
    rank = np.empty(len(cats) + 1, dtype=np.int64)
    rank[order] = np.arange(len(cats))
    rank[-1] = -1  # null
    idx = enc.indices.fill_null(len(cats)).to_numpy(zero_copy_only=False).astype(np.int64)
    return pd.Categorical.from_codes(rank[idx], dtype=_categories([cats[i] for i in order]),
                                     validate=False)


def _categories(cats: list[str]) -> pd.CategoricalDtype:
    """The categorical dtype of sorted, distinct strings (what every caller has: a sorted
    set); a few categories (tools, metrics, units: the same in every read) made once (an Index
    is immutable: shared safely)."""
    if len(cats) <= 64:
        return _few_categories(tuple(cats))
    return _categorical_dtype(cats)


@functools.lru_cache(maxsize=1024)
def _few_categories(cats: tuple[str, ...]) -> pd.CategoricalDtype:
    return _categorical_dtype(cats)


def _categorical_dtype(cats: Sequence[str]) -> pd.CategoricalDtype:
    """``pd.CategoricalDtype(pd.Index(list(cats), dtype="str"))`` of distinct strings, made
    without the checks (no missing, no repeat: the callers' sorted sets) and the Index's
    inference: its categories built from an Arrow array. The checks built a hash table of the
    categories, and their first run in a process cost more than the rest of a column's typing
    (a dtype 400 us the first time, 100 after; this way 30 and 20)."""
    if _from_fastpath is None:
        return pd.CategoricalDtype(pd.Index(list(cats), dtype="str"))
    return _from_fastpath(_str_index(cats), False)


# (a private constructor of pandas: the checked one where it is absent)
_from_fastpath = getattr(pd.CategoricalDtype, "_from_fastpath", None)
# the dtype of an Index of strings (``dtype="str"``, what pandas infers for strings): when it
# is Arrow's, such an Index is built from an Arrow array directly
_STR_NAN = pd.Index([""], dtype="str").dtype


_infers_str = getattr(pd._config, "using_string_dtype", None)


def _str_index(names: Sequence[str]) -> pd.Index:
    """``pd.Index(list(names), dtype="str")`` of strings, from an Arrow array (the Index's
    inference and checks cost five times as much in a fresh process)."""
    if getattr(_STR_NAN, "storage", None) != "pyarrow":
        return pd.Index(list(names), dtype="str")
    arr = pd.arrays.ArrowStringArray(pa.array(names, type=pa.large_string()), dtype=_STR_NAN)
    if _index_of is None:
        return pd.Index(arr, copy=False)
    return _index_of(arr, None)  # what ``pd.Index(arr, copy=False)`` ends in for an array of
    # strings (no copy, no inference: the array is made here), without its first-call cost in
    # a process (~50 us: argument checks and pandas' dispatch on the data's kind)


# (a private constructor of pandas: the checked one where it is absent)
_index_of = getattr(pd.Index, "_simple_new", None)


def _from_list(values: list, dtype, extra: bool):
    """A plain list typed, as an array (see :func:`_fast_typed`)."""
    try:
        return _fast_typed(values, dtype, extra)
    except (TypeError, ValueError, OverflowError, pa.ArrowException):
        pass
    s = pd.Series(values, dtype=object)
    return (_as_string(s) if extra else _cast(s, dtype))._values


def _from_array(p, dtype, extra: bool) -> pd.Series:
    s = p.reset_index(drop=True) if isinstance(p, pd.Series) else pd.Series(p, copy=False)
    return _as_string(s) if extra else _cast(s, dtype)


def _concat_typed(parts: list) -> pd.Series:
    """Typed parts (arrays, or Series of a caller's arrays) as one Series."""
    parts = [p if isinstance(p, pd.Series) else pd.Series(p, copy=False) for p in parts]
    if len(parts) == 1:
        return parts[0]
    if all(isinstance(p.dtype, pd.CategoricalDtype) for p in parts):
        if any(p.dtype != parts[0].dtype for p in parts):
            cats = [p.array for p in parts]
            if len({c.categories.dtype for c in cats}) > 1:
                cats = [pd.Categorical.from_codes(c.codes, categories=pd.Index(
                    [str(x) for x in c.categories], dtype="str")) for c in cats]
            return pd.Series(union_categoricals(cats, sort_categories=True))
    return pd.concat(parts, ignore_index=True)


def _key(v):
    """A dictionary key that tells apart values Python calls equal but the schema types
    differently (``1``, ``1.0`` and ``True``; ``0.0`` and ``-0.0``)."""
    t = type(v)
    return (t, repr(v)) if t is float else (t, v)


def _column_by_codes(pieces: Sequence, dtype, extra: bool, kinds: set | None = None):
    """One typed column of :class:`Const` runs and lists: each distinct constant and every list
    element typed once, in one call, then spread by integer codes (most columns hold a file's
    constants: typing ``n`` copies of them was most of the work). ``None`` if a constant is
    unhashable. ``kinds``: the pieces' types, if the caller has them. Returns an array."""
    kinds = set(map(type, pieces)) if kinds is None else kinds
    consts = [True] * len(pieces) if kinds == _CONST_ONLY else list(
        map(operator.is_, map(type, pieces), itertools.repeat(Const)))
    if all(consts):
        if (extra or dtype is STRING) and len(pieces) <= _FEW_PIECES:  # (strings typed as
            # they are: their runs' buffers; many pieces: a long column, see _runs_str)
            runs = _str_runs(pieces)
            if runs is not None:
                return runs
        out = _consts_typed(list(map(_CONST_VALUE, pieces)), map(_CONST_N, pieces), dtype,
                            extra)
        if out is not None:
            return out
    elif not any(consts):
        return _lists_by_codes(pieces, dtype, extra)
    elif kinds == _CONST_OR_LIST:
        mixed = _mixed_by_codes(pieces, consts, dtype, extra)
        if mixed is not None:
            return mixed
    index: dict = {}
    shared: dict[int, int] = {}  # id of a list piece -> its first code: a list a reader gives
    # several files (the same layout's positions, metrics) is typed once
    values: list = []
    firsts: list[int] = []  # per piece: the code of its constant, or of its first element
    lengths: list[int] = []
    try:
        for p, const in zip(pieces, consts, strict=True):
            if const:
                v = p.value
                k = v if type(v) is str else _key(v)  # only strs are strs: keyed by themselves
                c = index.get(k)
                if c is None:
                    c = index[k] = len(values)
                    values.append(v)
                firsts.append(c)
                lengths.append(p.n)
            else:  # a list: typed element-wise with the others, in one call
                c = shared.get(id(p))
                if c is None:
                    c = shared[id(p)] = len(values)
                    values.extend(p)
                firsts.append(c)
                lengths.append(len(p))
    except TypeError:  # unhashable values
        return None
    return _spread(_from_list(values, dtype, extra),
                   _piece_codes(np.array(firsts, dtype=np.intp), np.array(lengths, dtype=np.intp),
                                np.array(consts, dtype=bool)), int(sum(lengths)))


def _lists_by_codes(pieces: Sequence[list], dtype, extra: bool):
    """One typed column of lists, each list object typed once (a list a reader gives several
    files, the same layout's positions or metrics, is not typed again), in the order the
    general loop of :func:`_column_by_codes` types them; found by the lists' ids in C, not
    by a loop per piece."""
    ids = list(map(id, pieces))
    distinct = dict(zip(ids, pieces, strict=True))  # first-seen order (a later same object
    # changes nothing)
    if len(distinct) > 1:
        same = _equal_lists(distinct, _family(dtype, extra))
        if same:  # (lists equal to an earlier one, of values typed alike: typed as that one)
            ids = [same.get(i, i) for i in ids]
            distinct = {i: p for i, p in distinct.items() if i not in same}
    if len(distinct) == len(pieces):  # none shared (a file's per-row values): nothing to spread
        return _from_list(_joined(pieces), dtype, extra)
    ends = itertools.accumulate(map(len, distinct.values()))
    offsets = dict(zip(distinct, itertools.chain((0,), ends), strict=False))  # (the last end
    # starts no list)
    typed = _from_list(_joined(distinct.values()), dtype, extra)
    if len(pieces) <= _FEW_PIECES:  # (the typed lists' rows joined slice by slice)
        out = _sliced(typed, list(map(offsets.__getitem__, ids)), list(map(len, pieces)))
        if out is not None:
            return out
    firsts = np.fromiter(map(offsets.__getitem__, ids), dtype=np.intp, count=len(ids))
    lengths = np.fromiter(map(len, pieces), dtype=np.intp, count=len(pieces))
    return _spread(typed, _piece_codes(firsts, lengths, np.zeros(len(pieces), dtype=bool)),
                   int(lengths.sum()))


_FEW_PIECES = 64


def _family(dtype, extra: bool) -> frozenset | None:
    """The value types whose equal lists a column of ``dtype`` types alike (``==`` between two
    of them only within one type: equal lists are the same values, row for row), for the
    columns whose typing of a value costs more than checking its type (categories, ``Int64``:
    40 and 30 us a list of 297 values, against 5 for the check), ``None`` for others (strings:
    Arrow types a list of 297 in 12 us; floats: ``0.0 == -0.0``; ``1 == True``).
    """
    if extra or dtype is STRING:
        return None
    if dtype == "category":
        return _STR_OR_NONE
    if type(dtype) is pd.Int64Dtype:
        return _INT_OR_NONE
    return None


def _equal_lists(lists: dict[int, list], family: frozenset | None) -> dict[int, int]:
    """``{id of a list: id of the first earlier list equal to it}`` among ``lists`` (ids to
    the lists, first-seen order) when every value of every list is of ``family``'s types
    (else ``{}``): the same layout's per-row values that each file of a folder gives as
    its own list (44 PTS files: a category and an Int64 column of 13,068 rows typed as 297
    rows each). A list is compared with at most :data:`_EQUAL_TRIES` earlier ones of its
    length and first value; ``{}`` if ``family`` is ``None``.

    >>> a, b, c = ["x", None], ["x", None], ["x", "y"]
    >>> _equal_lists({id(a): a, id(b): b, id(c): c}, _STR_OR_NONE) == {id(b): id(a)}
    True
    >>> _equal_lists({id(a): a, id(b): b, id(c): c}, _INT_OR_NONE)
    {}
    """
    if family is None:
        return {}
    firsts: dict = {}  # (length, first value) -> [id of a list of family values]
    same: dict[int, int] = {}
    for i, p in lists.items():
        if not p:
            continue
        if type(p[0]) not in family or not set(map(type, p)) <= family:
            return {}  # (checked first: == of other values may call their own code; and the
            # typing of a column of other values may depend on how many rows hold them)
        group = firsts.setdefault((len(p), type(p[0]), p[0]), [])
        for j in group:
            if lists[j] == p:  # (both of the family's types: == within a type)
                same[i] = j
                break
        else:
            if len(group) < _EQUAL_TRIES:
                group.append(i)
    return same


_EQUAL_TRIES = 4


def _sliced(typed, starts: list[int], lengths: list[int]):
    """The rows ``typed[s:s + n]`` for each start and length in turn, joined (what spreading
    by the codes of lists that start there gives): for a few pieces cheaper than their
    per-row codes and a take (4 lists of 297 rows: 24 -> 3 us a string column).
    ``None`` for arrays of other kinds (then spread by codes).

    >>> _sliced(np.array([1.0, 2.0, 3.0]), [1, 0], [2, 1])
    array([2., 3., 1.])
    """
    kind = type(typed)
    if kind is pd.arrays.ArrowStringArray:
        chunks = typed.__arrow_array__()
        if chunks.num_chunks != 1:
            return None
        return _str_array(pa.concat_arrays(list(map(
            chunks.chunk(0).slice, starts, lengths))), dtype=typed.dtype)
    if kind is pd.Categorical:
        return pd.Categorical.from_codes(_slices(typed.codes, starts, lengths),
                                         dtype=typed.dtype, validate=False)  # (codes made
        # here: in range)
    if kind in _MASKED:
        return kind(_slices(typed._data, starts, lengths), _slices(typed._mask, starts, lengths))
    if kind is np.ndarray:
        return _slices(typed, starts, lengths)
    return None


def _slices(arr: np.ndarray, starts: list[int], lengths: list[int]) -> np.ndarray:
    """``arr[s:s + n]`` for each start and length in turn, joined (a new array)."""
    return np.concatenate([arr[s:s + n] for s, n in zip(starts, lengths, strict=True)])


def _mixed_by_codes(pieces: Sequence, consts: list[bool], dtype, extra: bool):
    """One typed column of :class:`Const` runs and plain lists mixed (a file of several runs
    among files of one), as the general loop of :func:`_column_by_codes` types it, without a
    Python step per piece: each distinct constant once, each list object once, typed in one
    call (the constants first, then the lists). ``None`` unless every constant and list element
    is a string, or every one an int, with ``None`` beside either: values of other types may
    compare equal across types (``0``, ``False``, ``0.0``), and then the first one seen names
    a category, so the order would matter; strings (ints) are typed value by value. A string
    column (typed value by value whatever the values) asks that only of its constants (equal
    constants are typed once)."""
    cpieces = list(itertools.compress(pieces, consts))
    lpieces = list(itertools.compress(pieces, map(operator.not_, consts)))
    cvals = list(map(_CONST_VALUE, cpieces))
    ids = list(map(id, lpieces))
    lists = dict(zip(ids, lpieces, strict=True))  # each list object once, first-seen order
    types = set(map(type, cvals))
    if not (extra or dtype is STRING):  # (a string column types value by value, whatever
        # the order: only the constants, merged by ==, need one family; the lists' elements
        # are not looked at, tens of thousands in a fio folder)
        types.update(map(type, itertools.chain.from_iterable(lists.values())))
    if not (types <= _STR_OR_NONE or types <= _INT_OR_NONE):
        return None
    distinct = dict.fromkeys(cvals)
    k = len(distinct)
    index = dict(zip(distinct, range(k), strict=True))
    offsets = dict(zip(lists, itertools.accumulate(map(len, lists.values()), initial=k),
                       strict=False))  # (the last end starts no list)
    mask = np.array(consts, dtype=bool)
    firsts = np.empty(len(pieces), dtype=np.intp)
    firsts[mask] = np.fromiter(map(index.__getitem__, cvals), dtype=np.intp, count=len(cvals))
    firsts[~mask] = np.fromiter(map(offsets.__getitem__, ids), dtype=np.intp, count=len(ids))
    lengths = np.empty(len(pieces), dtype=np.intp)
    lengths[mask] = np.fromiter(map(_CONST_N, cpieces), dtype=np.intp, count=len(cpieces))
    lengths[~mask] = np.fromiter(map(len, lpieces), dtype=np.intp, count=len(lpieces))
    values = _joined(lists.values(), list(distinct))
    return _spread(_from_list(values, dtype, extra), _piece_codes(firsts, lengths, mask),
                   int(lengths.sum()))


def _joined(lists: Iterable[list], out: list | None = None) -> list:
    """The lists' elements in one list (after ``out``'s own): one ``list.extend`` per list,
    mapped in C (``list(chain(...))`` grows one element at a time: 2.5 times as long).

    >>> _joined([[1, 2], [], [3]], [0])
    [0, 1, 2, 3]
    """
    out = [] if out is None else out
    collections.deque(map(out.extend, lists), maxlen=0)
    return out


def _piece_codes(firsts: np.ndarray, lengths: np.ndarray, consts: np.ndarray) -> np.ndarray:
    """Per-row codes of pieces: a constant's code repeated, a list's codes counting up from
    its first (in NumPy, not one ``arange`` per piece).

    >>> _piece_codes(np.array([0, 1, 0]), np.array([2, 3, 1]), np.array([True, False, True]))
    array([0, 0, 1, 2, 3, 0])

    Made as the running sum of each row's step from the row before (0 in a constant, 1 in a
    list, a piece's first code less the last code before it where a piece starts), in one
    array the size of the rows: each temporary of that size is fresh memory the system maps
    (a page fault per 4 KiB: five of them cost 3 ms a column of 136,721 fio rows, 0.1 ms so).
    """
    keep = lengths > 0
    if not keep.all():  # (an empty piece has no row to start)
        firsts, lengths, consts = firsts[keep], lengths[keep], consts[keep]
    if not len(lengths):
        return np.zeros(0, dtype=np.intp)
    steps = (~consts).astype(np.intp)
    codes = np.repeat(steps, lengths)
    lasts = firsts + (lengths - 1) * steps  # each piece's last code
    jumps = np.empty(len(firsts), dtype=np.intp)
    jumps[0] = firsts[0]
    np.subtract(firsts[1:], lasts[:-1], out=jumps[1:])
    codes[np.cumsum(lengths) - lengths] = jumps
    return np.cumsum(codes, out=codes)


_STR_OR_NONE = frozenset({str, type(None)})
_CONST_ONLY = frozenset({Const})
_CONST_OR_LIST = frozenset({Const, list})
_COMPACT = frozenset({Const, Runs})
_LIST_ONLY = frozenset({list})
_INT_OR_NONE = frozenset({int, type(None)})
_ONE_KEYED = frozenset({str, int, type(None)})  # types whose == is within the type


def _consts_by_codes(pieces: Sequence[Const]) -> tuple[list, np.ndarray | None, int] | None:
    """Distinct values, per-row codes (``None``: one value, every code 0) and row count of
    :class:`Const` runs that hold strings, or ints (with ``None`` beside either), without a
    Python step per run beyond C-level maps; ``None`` for other values (numbers and ``True``
    compare equal across types: the general loop keys them by type)."""
    vals = list(map(_CONST_VALUE, pieces))
    first = vals[0]
    if (type(first) in _ONE_KEYED and list(map(type, vals)).count(type(first)) == len(vals)
            and vals.count(first) == len(vals)):  # one value of one type in every run (a
        # tool, a missing option): no codes (types judged first: == of arrays does not say)
        return [first], None, sum(map(_CONST_N, pieces))
    types = set(map(type, vals))
    if not (types <= _STR_OR_NONE or types <= _INT_OR_NONE):
        return None
    distinct = dict.fromkeys(vals)
    lengths = np.fromiter(map(_CONST_N, pieces), dtype=np.intp, count=len(vals))
    if len(distinct) == len(vals):  # every run its own value (a source): run j has code j
        return vals, np.repeat(np.arange(len(vals)), lengths), int(lengths.sum())
    index = dict(zip(distinct, range(len(distinct)), strict=True))
    per_run = np.fromiter(map(index.__getitem__, vals), dtype=np.intp, count=len(vals))
    codes = np.repeat(per_run, lengths)
    return list(index), codes, len(codes)


def _consts_typed(values: list, counts: Iterable[int], dtype, extra: bool):
    """The typed column of the runs ``values[i]`` on ``counts[i]`` rows (the values and
    counts of :class:`Const` pieces; ``counts`` is read once, and may be an iterator), as
    :func:`_consts_by_codes` and :func:`_spread` give it, spread run by run
    (:func:`_spread_runs`); ``None`` where :func:`_consts_by_codes` says ``None`` and for
    times other than those :func:`_aware_consts` types."""
    first = values[0]
    if (type(first) in _ONE_KEYED and list(map(type, values)).count(type(first)) == len(values)
            and values.count(first) == len(values)):  # (as _consts_by_codes judges it)
        return _repeat_value(first, sum(counts), dtype, extra)
    types = set(map(type, values))
    if not (types <= _STR_OR_NONE or types <= _INT_OR_NONE):
        if extra:
            return None
        if type(first) is pd.Timestamp:  # (a PTS file's entry times, in runs)
            return _aware_stamp_runs(values, counts, dtype)
        return _aware_consts(values, counts, dtype)
    distinct = dict.fromkeys(values)
    lengths = np.fromiter(counts, dtype=np.intp, count=len(values))
    if len(distinct) == len(values):  # every run its own value (a source): run j has code j
        per_run = np.arange(len(values))
    else:
        index = dict(zip(distinct, range(len(distinct)), strict=True))
        per_run = np.fromiter(map(index.__getitem__, values), dtype=np.intp, count=len(values))
        values = list(index)
    if int(lengths.sum()) < _RUNS_DECODED:  # (few rows: a code per row, cheaper than the
        # steps per run of _spread_runs: 268 sysbench runs of 2,097 rows 89 -> 85 us)
        codes = np.repeat(per_run, lengths)
        return _spread(_from_list(values, dtype, extra), codes, len(codes))
    if lengths.min() < 0:
        np.repeat(per_run, lengths)  # (raises as the codes per row did, before any typing)
    return _spread_runs(_from_list(values, dtype, extra), per_run, lengths)


def _spread_runs(typed, per_run: np.ndarray, lengths: np.ndarray):
    """:func:`_spread` of the codes ``np.repeat(per_run, lengths)``, each run's value repeated
    without a code per row where the array's kind allows (a category's codes, an ``Int64``'s
    values and mask; a string column's runs decoded by Arrow from its run ends, in Arrow's
    memory): a code per row is fresh memory of 8 bytes a row (2,000 fio runs of 136,721 rows:
    an ``Int64`` column 1.2 -> 0.4 ms, a string column 0.9 -> 0.5 ms)."""
    n = int(lengths.sum())
    if len(typed) == n:  # (what _spread may return as it is)
        return _spread(typed, np.repeat(per_run, lengths), n)
    if len(typed) == 1:
        return _repeat_one(typed, n)
    kind = type(typed)
    if kind is pd.Categorical:
        return pd.Categorical.from_codes(np.repeat(typed.codes[per_run], lengths),
                                         dtype=typed.dtype, validate=False)
    if kind is pd.arrays.ArrowStringArray and typed.__arrow_array__().num_chunks == 1:
        keep = lengths > 0  # (a run of no row has no run end)
        ends = np.cumsum(lengths[keep] if not keep.all() else lengths, dtype=np.int64)
        return _str_array(pc.run_end_decode(pa.RunEndEncodedArray.from_arrays(
            ends, typed.__arrow_array__().chunk(0).take(per_run[keep]))), dtype=typed.dtype)
    if kind in _MASKED:
        return kind(np.repeat(typed._data[per_run], lengths),
                    np.repeat(typed._mask[per_run], lengths))
    if kind is np.ndarray:
        return np.repeat(typed[per_run], lengths)
    return _spread(typed, np.repeat(per_run, lengths), n)


_RUNS_DECODED = 20_000  # rows from which a column of runs is spread run by run (_spread_runs):
# Arrow's decoding of string runs against a take by per-row codes, timeit: 2,144 rows of 268
# runs 37 us against 20; 16,000 of 2,000 runs 102 against 90; 40,000 of 2,000 166 against 216;
# 136,000 of 2,000 377 against 662


def _aware_consts(values: list, counts: Iterable[int], dtype):
    """Runs of ``datetime.datetime`` objects in UTC (``tzinfo`` is ``datetime.UTC``: what the
    fio reader gives) typed as UTC nanoseconds: each run's microseconds since the epoch
    (``(t - epoch) // 1 us``, exact integer arithmetic, mapped in C), times 1,000, repeated;
    what ``pd.to_datetime(..., utc=True)`` of the distinct values and a take give (2,000 fio
    runs 3.1 -> 0.5 ms). ``None`` for anything else (a ``pd.Timestamp``, another time zone, a
    missing value) and for times beyond 1679-2260 (within nanoseconds' range, with margin).

    >>> t = datetime.datetime(2024, 1, 1, 0, 0, 0, 5, tzinfo=datetime.UTC)
    >>> _aware_consts([t, t], [1, 2], _UTC_NS).asi8.tolist() == [1_704_067_200_000_005_000] * 3
    True
    """
    if not isinstance(dtype, pd.DatetimeTZDtype) or dtype != _UTC_NS or _datetimes_of is None:
        return None
    if list(map(type, values)).count(datetime.datetime) != len(values) or list(map(
            operator.is_, map(_TZINFO, values), itertools.repeat(datetime.UTC))).count(
                True) != len(values):
        return None
    us = np.fromiter(map(operator.floordiv, map(operator.sub, values, itertools.repeat(_EPOCH)),
                         itertools.repeat(_US)), dtype=np.int64, count=len(values))
    if not (us.min() > -_US_RANGE and us.max() < _US_RANGE):
        return None
    ns = np.repeat(us, np.fromiter(counts, dtype=np.intp, count=len(values)))
    ns *= 1000
    return _datetimes_of(ns.view("datetime64[ns]"), dtype=_UTC_NS)


def _aware_stamp_runs(values: list, counts: Iterable[int], dtype):
    """Runs of tz-aware ``pd.Timestamp`` (what the PTS reader gives: an entry's time on its
    rows) typed as UTC nanoseconds: each run's epoch value, repeated; what typing the
    distinct values (:func:`_aware_rows`) and a take give, without keying each run's
    Timestamp by type and value (the 4-file PTS folder's timestamp column of 4 x 54 runs).
    ``None`` for anything else (a missing value, a naive time, a ``datetime``, beyond the
    nanosecond range).

    >>> t = pd.Timestamp("2024-01-01 00:00:00.000000005", tz="UTC")
    >>> _aware_stamp_runs([t, t], [1, 2], _UTC_NS).asi8.tolist() == [t.value] * 3
    True
    >>> _aware_stamp_runs([t, pd.Timestamp("2024-01-01")], [1, 1], _UTC_NS) is None
    True
    """
    if not isinstance(dtype, pd.DatetimeTZDtype) or dtype != _UTC_NS or _datetimes_of is None:
        return None
    lengths = np.fromiter(counts, dtype=np.intp, count=len(values))
    if lengths.min() < 0:  # (the general rule's error)
        return None
    ns = _stamps_ns(values, lengths)  # (each object once: a Timestamp's tzinfo and value
    # cost ~0.1 us each, 4 x 54 runs of 35 objects)
    if ns is None:
        return None
    return _datetimes_of(ns.view("datetime64[ns]"), dtype=_UTC_NS)  # (a new array, writable:
    # as the take of the general rule gives it)


_VALUE = operator.attrgetter("value")
_TZINFO = operator.attrgetter("tzinfo")
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_US = datetime.timedelta(microseconds=1)
_US_RANGE = 9_000_000_000_000_000  # microseconds either side of the epoch (~2255 and ~1684):
# within the nanoseconds' range (1677-2262) with margin


_CONST_VALUE = operator.itemgetter(0)
_CONST_N = operator.itemgetter(1)


def _spread(typed, codes: np.ndarray, n: int):
    """The typed distinct values (an array) spread to the rows by their codes."""
    if len(typed) == n and (codes == np.arange(n)).all():  # nothing repeated: no spreading
        return typed
    if len(typed) == 1:  # one value on every row (a column no file has: all missing)
        return _repeat_one(typed, n)
    if isinstance(typed, pd.Categorical):  # (codes made here: in range)
        return pd.Categorical.from_codes(typed.codes[codes], dtype=typed.dtype, validate=False)
    if type(typed) is pd.arrays.ArrowStringArray:  # Arrow's take, without pandas' checks of
        # the codes (made here: in range, none negative)
        return _str_array(typed.__arrow_array__().take(codes), dtype=typed.dtype)
    return typed.take(codes)


_MASKED = (pd.arrays.IntegerArray, pd.arrays.FloatingArray, pd.arrays.BooleanArray)


def _repeat_one(arr, n: int):
    """A typed array's one value as ``n`` rows, built directly (a ``take`` of ``n`` zeros cost
    as much as typing the column)."""
    if isinstance(arr, pd.Categorical):
        return pd.Categorical.from_codes(np.full(n, arr.codes[0]), dtype=arr.dtype,
                                         validate=False)
    if isinstance(arr, pd.arrays.ArrowStringArray):
        value = arr[0]
        return _repeat_str(None if _missing(value) else value, n)
    if isinstance(arr, _MASKED):
        na = bool(arr.isna()[0])
        kind = arr.dtype.numpy_dtype
        return type(arr)(np.full(n, kind.type(0) if na else arr[0], dtype=kind), np.full(n, na))
    return arr.take(np.zeros(n, dtype=np.intp))


def _str_runs(pieces: Sequence[Const]) -> pd.arrays.ArrowStringArray | None:
    """:class:`Const` runs of strings (a file's source on its rows, one run per file) as the
    string column typing them gives (each distinct string by Arrow, spread by a take), built
    from the runs' UTF-8 bytes at once: no Arrow array of the distinct values, no per-row
    codes, no take (a 4-file source column 37 -> 14 us, and ~0.3 ms less the first time in a
    process). ``None`` unless every value is a ``str`` UTF-8 encodes, every count an int
    >= 0 and the rows at most :data:`_RUNS_ROWS` (then typed the general way).

    >>> _str_runs([Const("a", 2), Const("", 1), Const("\u00e9", 1)]).tolist()
    ['a', 'a', '', '\xe9']
    >>> _str_runs([Const("a", 2), Const(None, 1)]) is None
    True
    """
    return _runs_str(list(map(_CONST_VALUE, pieces)), list(map(_CONST_N, pieces)))


def _runs_str(values: list, counts: list) -> pd.arrays.ArrowStringArray | None:
    """:func:`_str_runs` of the runs ``values[i]`` on ``counts[i]`` rows, up to
    :data:`_RUNS_ROWS` rows (a long column's bytes joined run by run cost more than Arrow's
    take: 2,000 runs of 68 rows 8.9 ms against 1.4)."""
    if (not values or list(map(type, values)).count(str) != len(values)
            or not set(map(type, counts)) <= _INT_ONLY or min(counts, default=0) < 0
            or sum(counts) > _RUNS_ROWS):
        return None
    try:
        data = list(map(str.encode, values))
    except UnicodeEncodeError:  # (a lone surrogate: Arrow's own error, the general way)
        return None
    n = sum(counts)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.repeat(np.fromiter(map(len, data), dtype=np.int64, count=len(data)), counts),
              out=offsets[1:])
    return _str_array(pa.Array.from_buffers(
        pa.large_string(), n, [None, pa.py_buffer(offsets),
                               pa.py_buffer(b"".join(map(operator.mul, data, counts)))]),
        dtype=_ARROW_STRING)


_RUNS_ROWS = 8192  # (timeit: 10,000 rows of 100 runs 66 us against 113, 22,000 of 2,000 even;
# in a read of PTS folders, whose strings are longer and columns many: 24 files (7,128 rows)
# 0.3 ms better this way, 32 (9,504) even, 44 (13,068) 1.0 ms worse: Arrow's take beyond)


def _repeat_str(value: str | None, n: int) -> pd.arrays.ArrowStringArray:
    """A string column of ``n`` copies of ``value`` (``None``: all missing), in Arrow: the
    buffers of ``n`` copies of its UTF-8 bytes made at once (what ``pa.repeat`` of its scalar
    gives, without the scalar and Arrow's repeat kernel: ~0.1 ms the first time in a process)
    up to :data:`_RUNS_ROWS` rows; a text UTF-8 cannot encode (a lone surrogate) goes to Arrow
    as before.

    >>> _repeat_str("ab", 2).tolist(), _repeat_str("", 1).tolist(), _repeat_str(None, 1).tolist()
    (['ab', 'ab'], [''], [<NA>])
    """
    if value is None:
        return _str_array(_missing_strings(n), dtype=_ARROW_STRING)
    try:
        data = value.encode()
    except UnicodeEncodeError:
        data = None
    if data is None or n > _RUNS_ROWS:  # (a long column: Arrow's repeat, in memory of its
        # own pool, against fresh memory of the system's: 136,721 rows 0.5 ms against 1.5)
        return _str_array(pa.repeat(pa.scalar(value, pa.large_string()), n),
                          dtype=_ARROW_STRING)
    offsets = np.arange(n + 1, dtype=np.int64) * len(data)
    return _str_array(pa.Array.from_buffers(
        pa.large_string(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data * n)]),
        dtype=_ARROW_STRING)


def _missing_strings(n: int) -> pa.Array:
    """``n`` missing strings (``pa.nulls(n, pa.large_string())``), their validity bitmap and
    offsets in memory NumPy asks the system for zeroed (``np.zeros``: large blocks are mapped
    zero pages, touched only where read) instead of memory Arrow's pool allocates and fills:
    a read of 2,000 fio reports has ten such columns of 136,721 rows (1.1 MB each), whose
    pages a first read in a fresh process paid for (0.3-0.9 ms a column, most of it the
    system's).

    >>> arr = _missing_strings(3)
    >>> arr.null_count, arr.equals(pa.nulls(3, pa.large_string())), arr.tolist()
    (3, True, [None, None, None])
    """
    return pa.Array.from_buffers(
        pa.large_string(), n, [pa.py_buffer(np.zeros((n + 7) // 8, dtype=np.uint8)),
                               pa.py_buffer(np.zeros(n + 1, dtype=np.int64)), _NO_BYTES],
        null_count=n)


_NO_BYTES = pa.py_buffer(b"")  # (immutable: a value buffer of no bytes, shared)


_NONE_TYPED: dict = {}  # (id of a dtype, extra) -> (the dtype, ``None`` typed as a one-row
# array, never mutated): keyed by the dtype object (hashing an extension dtype cost more)


def _none_typed(dtype, extra: bool):
    key = (id(dtype), extra)
    hit = _NONE_TYPED.get(key)
    if hit is not None and hit[0] is dtype:
        return hit[1]
    if not extra and isinstance(dtype, pd.DatetimeTZDtype) and dtype == _UTC_NS:  # NaT built
        # directly: typing one None took pandas' date parsing (1 ms the first time, 60 us so)
        one = _utc_ns(np.array([_NAT], dtype=np.int64))
    else:
        one = _from_list([None], dtype, extra)
    remember(_NONE_TYPED, key, (dtype, one), 256)  # (the schema's dtypes, and a caller's)
    return one


def _repeat_none(dtype, extra: bool, n: int):
    """``n`` rows of ``None`` typed (a column no file has), as :func:`_repeat_one` of ``None``
    typed once gives them, without looking at that one value again."""
    if extra or dtype is STRING:  # (what typing None gives there: a missing string)
        return _repeat_str(None, n)
    masked = _MASKED_OF.get(type(dtype))
    if masked is not None:  # (typing None there: pandas' masked coercion, ~0.2 ms the first
        # time in a process, for an array whose one value is masked)
        return masked[0](np.zeros(n, dtype=masked[1]), np.ones(n, dtype=bool))
    one = _none_typed(dtype, extra)
    if isinstance(one, pd.arrays.ArrowStringArray):
        return _repeat_str(None, n)
    if isinstance(one, _MASKED):
        return type(one)(np.zeros(n, dtype=one.dtype.numpy_dtype), np.ones(n, dtype=bool))
    return _repeat_one(one, n)


# the masked array and NumPy type of each masked dtype ``None`` types as (of its own kind)
_MASKED_OF = {pd.Int64Dtype: (pd.arrays.IntegerArray, np.int64),
              pd.Float64Dtype: (pd.arrays.FloatingArray, np.float64),
              pd.BooleanDtype: (pd.arrays.BooleanArray, np.bool_)}


def _repeat_plain(value, n: int, dtype, extra: bool):
    """A string (an int or bool in an extra column, an int in an Int64 column) as ``n`` typed
    rows, as typing it would give; ``None`` for any other value (typed the general way)."""
    if type(value) is str:
        if extra or dtype is STRING:
            return _repeat_str(value, n)
        if dtype == "category":  # CategoricalDtype(...) == "category" too: observed values
            return pd.Categorical.from_codes(np.zeros(n, dtype=np.int8),
                                             dtype=_categories([value]), validate=False)
    elif type(value) in _INT_OR_BOOL and extra:  # (as typing it prints it: str)
        return _repeat_str(str(value), n)
    elif type(value) is int and not extra and isinstance(dtype, pd.Int64Dtype):
        if -2**63 <= value < 2**63:
            return pd.arrays.IntegerArray(np.full(n, value, dtype=np.int64),
                                          np.zeros(n, dtype=bool))
    return None


def _repeat_value(value, n: int, dtype, extra: bool):
    """``n`` rows of one value, typed: as typing it once and repeating it gives them."""
    arr = _repeat_none(dtype, extra, n) if value is None else _repeat_plain(value, n, dtype,
                                                                            extra)
    return arr if arr is not None else _repeat_one(_from_list([value], dtype, extra), n)


def _column(pieces: Sequence, dtype, extra: bool = False) -> pd.Series:
    """One typed column from its pieces, in order, as a Series."""
    col = _typed_column(pieces, dtype, extra)
    return col if isinstance(col, pd.Series) else pd.Series(col, copy=False)


def _typed_column(pieces: Sequence, dtype, extra: bool = False):
    """One typed column from its pieces, in order: an array made here (from lists and
    constants), or a Series (it may hold a caller's array)."""
    if len(pieces) == 1 and type(pieces[0]) is Const:  # one value on every row, built directly
        value, n = pieces[0]  # (a column no file has: typing one None cost a tenth of a small
        # read)
        return _repeat_value(value, n, dtype, extra)
    if len(pieces) == 1 and type(pieces[0]) not in _COMPACT and not isinstance(pieces[0], list):
        return _from_array(pieces[0], dtype, extra)  # one frame's column: as conform always did
    kinds = set(map(type, pieces))  # judged in C (list subclasses: one by one)
    if Runs in kinds:  # typed as the Const pieces of its runs (none is a Runs)
        return _runs_column(pieces, dtype, extra, kinds)
    if (dtype is not np.float64 and not isinstance(dtype, pd.Float64Dtype)
            and (kinds <= _CONST_OR_LIST
                 or all(type(p) is Const or isinstance(p, list) for p in pieces))):
        out = _column_by_codes(pieces, dtype, extra, kinds)
        if out is not None:
            return out
    elif kinds == _LIST_ONLY:  # (floats: the lists' values typed in one call, as the loop
        # of _parts_typed joins them, their elements joined by a map in C: 2,000 fio lists
        # ~0.3 ms less)
        return _from_list(_joined(pieces), dtype, extra)
    return _parts_typed(pieces, dtype, extra)


def _parts_typed(pieces: Sequence, dtype, extra: bool):
    """The general rule of :func:`_typed_column`: runs of small pieces joined into lists and
    typed in one call each, long constants and large arrays typed on their own, the parts
    concatenated."""
    parts: list = []
    run: list = []
    for p in pieces:
        if type(p) is Const:
            if p.n < _SMALL:
                run.extend(itertools.repeat(p.value, p.n))
                continue
            if run:
                parts.append(_from_list(run, dtype, extra))
                run = []
            one = _from_list([p.value], dtype, extra)
            parts.append(one.take(np.zeros(p.n, dtype=np.intp)))
        elif isinstance(p, list):
            run.extend(p)
        elif len(p) < _SMALL:
            run.extend(_piece_list(p))
        else:
            if run:
                parts.append(_from_list(run, dtype, extra))
                run = []
            parts.append(_from_array(p, dtype, extra))
    if run or not parts:
        parts.append(_from_list(run, dtype, extra))
    if len(parts) == 1 and not isinstance(parts[0], pd.Series):
        return parts[0]
    return _concat_typed(parts)


def _runs_column(pieces: Sequence, dtype, extra: bool, kinds: set):
    """A column with :class:`Runs` pieces typed as the :class:`Const` pieces of its runs; one
    of strings (runs and constants only) from its runs' bytes at once (:func:`_runs_str`: what
    typing those Const pieces gives), without making a Const per run (the 4-file PTS folder's
    9 columns of runs 24 -> 18 us each)."""
    if (extra or dtype is STRING) and kinds <= _COMPACT and len(pieces) <= _FEW_PIECES:
        values: list = []
        counts: list = []
        for p in pieces:
            if type(p) is Runs:
                counts += _run_counts(p)  # (checked: raises as _without_runs does)
                values += p.values
            else:
                values.append(p.value)
                counts.append(p.n)
        out = _runs_str(values, counts)
        if out is not None:
            return out
        tried = True  # (its runs' values are no UTF-8 strings: not asked again below)
    else:
        tried = False
    if kinds <= _COMPACT and dtype is not np.float64 and not isinstance(dtype, pd.Float64Dtype):
        flat = _flat_runs(pieces)
        if flat is not None:
            out = _runs_typed(*flat, dtype, extra, str_runs=not tried)
            if out is not None:
                return out
    return _typed_column(_without_runs(pieces), dtype, extra)


def _flat_runs(pieces: Sequence) -> tuple[list, list] | None:
    """The values and counts of :class:`Const` and :class:`Runs` pieces, run after run (what
    :func:`_without_runs` makes Const pieces of, without a Const per run: 2,000 fio pieces of
    ~3,400 runs 1.2 -> 0.2 ms); ``None`` unless every Runs piece has as many counts as values
    and every count is an ``int`` > 0 (then the general rule drops empty runs, or raises).

    >>> _flat_runs([Const("a", 1), Runs(["b", "c"], [2, 3])])
    (['a', 'b', 'c'], [1, 2, 3])
    >>> _flat_runs([Runs(["b", "c"], [2, 0])]), _flat_runs([Runs(["b"], [2, 1])])
    (None, None)
    """
    values: list = []
    counts: list = []
    try:
        for p in pieces:
            if type(p) is Runs:
                if len(p.values) != len(p.counts):
                    return None
                values += p.values
                counts += p.counts
            else:
                values.append(p.value)
                counts.append(p.n)
    except TypeError:  # (values or counts that are no sequence: the general rule's error)
        return None
    if not set(map(type, counts)) <= _INT_ONLY or not counts or min(counts) <= 0:
        return None
    return values, counts


def _runs_typed(values: list, counts: list, dtype, extra: bool, str_runs: bool = True):
    """A column of the runs ``values[i]`` on ``counts[i]`` rows (ints > 0), as typing the
    :class:`Const` pieces of those runs gives it (:func:`_typed_column`), or ``None`` where
    that takes the general loop. ``str_runs=False``: the caller found :func:`_runs_str`
    refusing these runs."""
    if len(values) == 1:
        return _repeat_value(values[0], counts[0], dtype, extra)
    if str_runs and (extra or dtype is STRING) and len(values) <= _FEW_PIECES:
        out = _runs_str(values, counts)
        if out is not None:
            return out
    return _consts_typed(values, counts, dtype, extra)


def _build(pieces: dict[str, list], n: int, fixed: Mapping[str, object],
           optional: Mapping[str, object] | None = None, what: str = "column") -> pd.DataFrame:
    """The typed frame: ``fixed`` columns (absent ones all ``<NA>``), ``optional`` columns where
    present, then every other column as a string, sorted by name. Consumes ``pieces``."""
    return _frame(_typed_columns(pieces, n, fixed, optional, what), n)


def _typed_columns(pieces: dict[str, list], n: int, fixed: Mapping[str, object],
                   optional: Mapping[str, object] | None = None,
                   what: str = "column") -> dict[str, object]:
    """The columns of :func:`_build`, in order, each an array made here or a Series (one
    that may hold a caller's array, see :func:`_typed_column`). Consumes ``pieces``."""
    out: dict[str, object] = {}
    strs: list[tuple[list, object]] = []  # (pieces, typed) of the string columns so far
    nulls: list = []  # the string column of n missing values, once (see _absent)
    for cols, always in ((fixed, True), (optional or {}, False)):
        for name, dtype in cols.items():
            if name not in pieces and not always:
                continue
            ps = pieces.pop(name, None)
            try:
                out[name] = _typed_column(ps, dtype) if ps else _absent(dtype, n, nulls)
            except (ValueError, TypeError, OverflowError) as exc:  # (an int beyond 64 bits)
                raise SchemaError(f"{what} {name!r} cannot be {dtype}: {exc}") from exc
            if dtype is STRING:
                strs.append((ps or [Const(None, n)], out[name]))
    for name in sorted(pieces, key=str):
        ps = pieces.pop(name)
        col = _same_str_column(strs, ps)
        out[name] = col if col is not None else _typed_column(ps, STRING, extra=True)
        strs.append((ps, out[name]))
    for name, col in out.items():
        if len(col) != n:
            raise SchemaError(f"{what} {name!r} has {len(col)} rows, expected {n}")
    return out


def _absent(dtype, n: int, nulls: list):
    """A column no chunk has, typed: ``n`` missing values, as typing ``Const(None, n)`` gives
    them; the string ones of a frame share one Arrow array of nulls (``nulls``: empty, or that
    column), each in an array of its own (Arrow data is immutable: a write to a column
    replaces its own data, never another's). 2,000 fio files: 10 such columns of 136,721 rows,
    ~0.35 ms each in a read (1.1 MB of fresh zeros each), made once.

    >>> nulls = []
    >>> a, b = _absent(STRING, 2, nulls), _absent(STRING, 2, nulls)
    >>> a.tolist(), b.tolist(), a is b, a.__arrow_array__() is b.__arrow_array__()
    ([<NA>, <NA>], [<NA>, <NA>], False, True)
    """
    if dtype is not STRING:
        return _typed_column([Const(None, n)], dtype)
    if not nulls:
        nulls.append(_typed_column([Const(None, n)], dtype))
        return nulls[0]
    return _str_array(nulls[0].__arrow_array__(), dtype=nulls[0].dtype)


def _same_str_column(strs: list[tuple[list, object]], pieces: list):
    """An extra column whose pieces equal those of a string column typed before it (a fio
    report's ``job`` and ``test``: the same runs of job names), all runs of ``str`` values on
    ``int`` counts (exactly: then an extra column types them as a string column does), as a
    new array over that column's Arrow data (immutable: a write to either column's array
    replaces its own data, never the other's); ``None`` otherwise (typed as before). 2,000 fio
    reports: ``job`` typed in 2.4 ms, found here in 0.6 (1.0 the first time in a process).

    >>> first = _typed_column([Const("a", 2)], STRING)
    >>> again = _same_str_column([([Const("a", 2)], first)], [Const("a", 2)])
    >>> again.tolist(), again is first
    (['a', 'a'], False)
    >>> _same_str_column([([Const(1, 2)], _typed_column([Const(1, 2)], STRING, True))],
    ...                  [Const(1, 2)]) is None
    True
    """
    if not pieces or not _str_runs_only(pieces[:1]):
        return None  # (a column of missing values, say: its first piece holds no string)
    mid = len(pieces) // 2
    for other, col in strs:
        if type(col) is not pd.arrays.ArrowStringArray or len(other) != len(pieces):
            continue
        try:
            if other[0] != pieces[0] or other[mid] != pieces[mid] or other != pieces:
                continue
        except (TypeError, ValueError):  # (values whose == does not say)
            return None
        if _str_runs_only(pieces) and _str_runs_only(list(itertools.compress(
                other, map(operator.is_not, other, pieces)))):
            return _str_array(col.__arrow_array__(), dtype=col.dtype)
        return None
    return None


def _str_runs_only(pieces: Sequence) -> bool:
    """Whether every piece is a :class:`Const` of a ``str`` on an ``int`` count, or
    :class:`Runs` of ``str`` values on ``int`` counts (exactly those types), judged by maps in
    C (2,000 fio pieces 0.32 -> 0.1 ms).

    >>> _str_runs_only([Const("a", 1), Runs(["b", "c"], [1, 2])])
    True
    >>> _str_runs_only([Const("a", 1), Runs(["b", 1], [1, 2])]), _str_runs_only([Const("a", True)])
    (False, False)
    """
    if not set(map(type, pieces)) <= _COMPACT:
        return False
    consts = list(map(operator.is_, map(type, pieces), itertools.repeat(Const)))
    cs = list(itertools.compress(pieces, consts))
    rs = list(itertools.compress(pieces, map(operator.not_, consts)))
    chain = itertools.chain.from_iterable
    return (set(map(type, map(_CONST_VALUE, cs))) <= _STR_ONLY
            and set(map(type, map(_CONST_N, cs))) <= _INT_ONLY
            and set(map(type, chain(map(_CONST_VALUE, rs)))) <= _STR_ONLY
            and set(map(type, chain(map(_CONST_N, rs)))) <= _INT_ONLY)


def _frame(cols: dict[str, object], n: int) -> pd.DataFrame:
    """The frame of typed columns (arrays made here, or Series): arrays made here go in as
    they are, one block each, without the DataFrame constructor's checks (a fifth of a small
    read); a Series may hold a caller's array, and then the constructor keeps it copy-on-write
    (the caller's data is never written through the frame)."""
    names = tuple(cols)
    if all(map(_block_ready, cols.values())) and all(type(name) is str for name in names):
        return create_dataframe_from_blocks(
            [(arr.reshape(1, -1) if type(arr) is np.ndarray else arr, np.array([i]))
             for i, arr in enumerate(cols.values())],
            index=pd.RangeIndex(n), columns=_column_index(names).copy())  # (a frame's own
        # Index object: ``df.columns.name = ...`` sets it in place)
    # from a Series, pandas aligns it on the index again: arrays made here go in as they are
    return pd.DataFrame(cols, index=pd.RangeIndex(n), copy=False)


def _block_ready(col) -> bool:
    """Whether a column goes into a block as it is: a plain NumPy array, or an extension array
    that is not a wrapped NumPy array (the constructor unwraps those)."""
    if type(col) is np.ndarray:
        return col.ndim == 1
    return isinstance(col, pd.api.extensions.ExtensionArray) and not isinstance(
        col, pd.arrays.NumpyExtensionArray)


@functools.lru_cache(maxsize=256)
def _column_index(names: tuple[str, ...]) -> pd.Index:
    """The columns index of a frame, as the DataFrame constructor makes it from string keys
    (a frame gets a copy of it: its values are shared, immutable, its name is the frame's);
    an Index of strings, as the constructor infers it (``str``), built from an Arrow array."""
    if _infers_str is not None and _infers_str():  # (the option pandas' inference reads)
        return _str_index(names)
    return pd.Index(list(names))


def is_constant(values: list) -> bool:
    """Whether a non-empty list holds one value (of one type: ``1`` and ``True`` differ)."""
    try:
        return bool(values) and values.count(values[0]) == len(values) and len(
            set(map(type, values))) == 1
    except (TypeError, ValueError):  # values whose == is not a bool (arrays)
        return False


def columns_of(records: Sequence[Mapping], meta: Mapping | None = None,
               compact: bool = False) -> dict[str, list | Const]:
    """Reader records (dicts) as columns: ``{key: list of values}``, ``None`` where a record
    lacks the key. ``meta`` keys are set on every row (they win over the records' own keys).
    With ``compact=True`` a column holding one value is stored as a :class:`Const`.

    >>> columns_of([{"a": 1, "b": "x"}, {"a": 2, "b": "x"}], {"c": 0}, compact=True)
    {'a': [1, 2], 'b': Const(value='x', n=2), 'c': Const(value=0, n=2)}
    """
    n = len(records)
    keys = sorted(set().union(*records), key=str) if n else []
    if len(keys) > 1 and all(len(r) == len(keys) for r in records):
        # every record has every key (the usual case): transpose in C
        values = zip(*map(operator.itemgetter(*keys), records), strict=True)
    else:
        values = ([r.get(k) for r in records] for k in keys)
    cols: dict[str, list | Const] = {}
    for k, col in zip(keys, values, strict=True):
        if meta and k in meta:
            continue
        col = list(col)
        if compact and is_constant(col):
            cols[k] = Const(col[0], n)
        else:
            cols[k] = col
    for k, v in (meta or {}).items():
        cols[k] = Const(v, n)
    return cols


def records_of(columns: tuple[Mapping, int]) -> list[dict]:
    """Columns ``({name: list | Const}, n)`` as row dicts (the inverse of :func:`columns_of`):
    what a reader that builds columns gives whoever looks at its rows.

    >>> records_of(({"a": [1, 2], "b": Const("x", 2)}, 2))
    [{'a': 1, 'b': 'x'}, {'a': 2, 'b': 'x'}]
    """
    cols, n = columns
    names = sorted(cols, key=str)
    lists = [_piece_list(c) if type(c) in _COMPACT else c for c in map(cols.__getitem__, names)]
    return [dict(zip(names, row, strict=True)) for row in zip(*lists, strict=True)] if n else []


def frame(records: Iterable[Mapping] | pd.DataFrame) -> pd.DataFrame:
    """The tidy results frame from rows of any tool: records (dicts) or a loose DataFrame.

    How results that no ebsstats reader parses (another benchmark harness, a spreadsheet, a
    CloudWatch export) join the same analyses: each row becomes one row of the results frame
    (:mod:`ebsstats.schema`) with the schema's columns and dtypes.

    Parameters
    ----------
    records : iterable of mappings, or pandas.DataFrame
        One mapping (or DataFrame row) per value. Required keys: ``source`` (where it came from),
        ``tool``, ``test``, ``metric`` (the metric vocabulary, :func:`ebsstats.schema.metric_info`)
        and ``value`` (in canonical units, :mod:`ebsstats.units`). ``tool`` is one of the tools
        ebsstats reads (:data:`ebsstats.schema.TOOLS`) or the name of any other tool: lowercase,
        1-40 letters, digits and ``+._-`` (:data:`ebsstats.schema.TOOL_NAME`). ``unit`` and
        ``higher_is_better`` default to the metric vocabulary; ``run_id`` defaults to a hash of
        ``source`` and ``run_key`` (or ``position``), so repeated runs need distinct ``run_key``
        values. Any key outside the schema becomes a string metadata column.

    Returns
    -------
    pandas.DataFrame
        The results frame: schema columns first (absent ones ``<NA>``), then further keys sorted
        by name. It passes :func:`ebsstats.validate` when the values do (finite, canonical units,
        NaN only with a ``flag``).

    Raises
    ------
    ebsstats.SchemaError
        A required key is missing, a value cannot take its column's dtype, a metric is unknown,
        or a tool name is not allowed (empty, upper case, spaces or control characters).

    Examples
    --------
    >>> import ebsstats as es
    >>> df = es.frame([
    ...     {"source": "gbg.json", "tool": "gobonniego", "tool_version": "1.0.9",
    ...      "test": "write", "op": "write", "metric": "bandwidth", "value": 2.5e8, "run_key": 1},
    ...     {"source": "gbg.json", "tool": "gobonniego", "tool_version": "1.0.9",
    ...      "test": "write", "op": "write", "metric": "bandwidth", "value": 2.4e8, "run_key": 2}])
    >>> len(es.validate(df)), list(df["tool"].cat.categories), df["unit"].iloc[0]
    (2, ['gobonniego'], 'B/s')
    """
    if isinstance(records, pd.DataFrame):
        if records.empty and not len(records.columns):
            return empty()
        n = len(records)
        out = frame_of_columns({c: [records[c]] for c in records.columns}, [n])
    else:
        records = records if isinstance(records, list) else list(records)
        if not records:
            return empty()
        out = frame_of_columns({k: [v] for k, v in columns_of(records).items()},
                               [len(records)])
    codes = out["tool"].cat.codes.to_numpy()
    check_tools(out["tool"].cat.categories[np.unique(codes[codes >= 0])])
    return out


def frame_of_columns(pieces: dict[str, list], lengths: Sequence[int],
                     validated: bool = False) -> pd.DataFrame:
    """The typed results frame from column pieces: ``pieces[name][j]`` holds the values of
    chunk ``j`` (a file), ``lengths[j]`` rows, as a list, a :class:`Const`, a :class:`Runs` or
    an array; a chunk that lacks a column has ``Const(None, lengths[j])`` there. What
    :func:`frame` does with records, done once for many files (:mod:`ebsstats.io.folder`).
    Consumes ``pieces``.
    ``validated=True``: the columns are checked as :func:`ebsstats.schema.validate` checks a
    frame (the same rules and errors), before the frame is made.
    """
    lengths = list(lengths)
    n = sum(lengths)
    for col in ("source", "tool", "test", "metric", "value"):
        if col not in pieces:
            raise SchemaError(f"records lack required key {col!r}")
    from_vocabulary = _fill_vocabulary(pieces, lengths, n)
    _fill_run_ids(pieces, lengths)
    pieces.pop("run_key", None)
    cols = _typed_columns(pieces, n, _RESULT_COLUMNS)
    if from_vocabulary:
        cols["unit"], cols["higher_is_better"] = _vocabulary_columns(_array_of(cols["metric"]))
    if validated:
        check_columns(cols)
    return _frame(cols, n)


_RESULT_COLUMNS = {**COLUMNS, **META_COLUMNS}


def _array_of(col):
    """A typed column's array (a Series' own, or the array itself)."""
    return col.array if isinstance(col, pd.Series) else col


def _col(pieces: dict[str, list], name: str, lengths: list[int]) -> list:
    """A column's pieces, or one missing piece per chunk when no chunk has it."""
    return pieces.get(name) or [Const(None, m) for m in lengths]


def _fill_vocabulary(pieces: dict[str, list], lengths: list[int], n: int) -> bool:
    """Fill ``unit`` and ``higher_is_better`` where a chunk left them to the metric
    vocabulary. Returns True when no chunk set either: then both are derived after typing,
    from the metric's codes (:func:`_vocabulary_columns`), not row by row."""
    if "unit" not in pieces and "higher_is_better" not in pieces:  # (the usual case: no
        # chunk has either; judged without a piece per chunk)
        pieces["unit"] = [Const(None, n)]
        pieces["higher_is_better"] = [Const(None, n)]
        return True
    metric = pieces["metric"]
    unit, hib = _col(pieces, "unit", lengths), _col(pieces, "higher_is_better", lengths)
    need_u = [j for j, p in enumerate(unit) if _needs(p)]
    need_h = [j for j, p in enumerate(hib) if _needs(p)]
    if (len(need_u) == len(need_h) == len(lengths)
            and all(type(p) is Const for p in itertools.chain(unit, hib))):
        pieces["unit"] = [Const(None, n)]
        pieces["higher_is_better"] = [Const(None, n)]
        return True
    if not (need_u or need_h):
        return False
    names: set = set()
    for p in metric:
        names.update([p.value] if type(p) is Const else _piece_list(p))
    infos = {m: metric_info(m) for m in names if not _missing(m)}
    for need, target, k in ((need_u, unit, 0), (need_h, hib, 1)):
        table = {m: info[k] for m, info in infos.items()}
        for j in need:
            u, m = target[j], metric[j]
            if type(u) is Const and type(m) is Const:
                target[j] = Const(table.get(m.value), lengths[j])
            elif type(u) is Const:  # the usual case: readers leave unit to the vocabulary
                target[j] = list(map(table.get, _piece_list(m)))
            else:
                target[j] = [infos.get(mm, (None, None))[k] if _missing(uu) else uu
                             for uu, mm in zip(_piece_list(u), _piece_list(m), strict=True)]
    pieces["unit"], pieces["higher_is_better"] = unit, hib
    return False


def _fill_run_ids(pieces: dict[str, list], lengths: list[int]) -> None:
    """Fill ``run_id`` where a chunk has none: a hash of ``source`` and ``run_key`` (or
    ``position``), computed once per distinct pair."""
    rid = _one_run_ids(pieces, lengths) if "run_id" not in pieces else None
    if rid is not None:  # the chunks that are one run have their ids: the others' to do
        need_r = [j for j, r in enumerate(rid) if r is None]
        for j in need_r:
            rid[j] = Const(None, lengths[j])
        pieces["run_id"] = rid
    else:
        rid = _col(pieces, "run_id", lengths)
        need_r = [j for j, p in enumerate(rid) if _needs(p)]
    if not need_r:
        return
    source = pieces["source"]
    key = _col(pieces, "run_key" if "run_key" in pieces else "position", lengths)
    pos = _col(pieces, "position", lengths) if "run_key" in pieces else None
    cache: dict = {}

    def one(s, k, p):
        if _missing(k):
            k = p
        try:
            return cache[s, k]
        except KeyError:
            v = cache[s, k] = _run_id(s, k)
            return v
        except TypeError:  # unhashable key
            return run_id(s, k)

    for j in _runs_ids_filled(rid, source, key, need_r):
        r, s, k = rid[j], source[j], key[j]
        if type(r) is type(s) is type(k) is Const and not _missing(k.value):
            # one run (its key given): one id, whatever the positions (lists or not) say
            rid[j] = Const(one(s.value, k.value, None), lengths[j])
            continue
        p = pos[j] if pos is not None else Const(None, lengths[j])
        if type(r) is type(s) is type(k) is type(p) is Const:
            rid[j] = Const(one(s.value, k.value, p.value), lengths[j])
            continue
        types = (set(map(type, k)) if type(r) is Const and type(s) is Const and type(k) is list
                 else None)  # (a list of keys judged once: here, by _needs, and for str)
        if types == _STR_ONLY:  # (strings: none missing, as _needs says)
            rid[j] = _run_ids_of_keys(s.value, k, str_keys=True)
        elif type(r) is Const and type(s) is Const and not _needs(k, types):
            rid[j] = _run_ids_of_keys(s.value, k)
        else:
            rid[j] = [one(ss, kk, pp) if _missing(rr) else rr for rr, ss, kk, pp in zip(
                _piece_list(r), _piece_list(s), _piece_list(k), _piece_list(p), strict=True)]
    pieces["run_id"] = rid


def _runs_ids_filled(rid: list, source: list, key: list, need: list[int]) -> list[int]:
    """Fill the run ids of the chunks ``need`` whose run keys are runs of strings (a
    multi-job fio report's jobs, :func:`_runs_run_ids`) and give the others, in order (first:
    :func:`_runs_run_ids` raises nothing, so the others raise as they did)."""
    rest = []
    for j in need:
        ids = _runs_run_ids(rid[j], source[j], key[j])
        if ids is None:
            rest.append(j)
        else:
            rid[j] = ids
    return rest


def _runs_run_ids(r, s, k) -> Runs | None:
    """The run ids of a chunk without them (``r``: a :class:`Const`) whose source ``s`` is a
    :class:`Const` of a ``str`` and whose run keys ``k`` a :class:`Runs` piece of ``str``:
    runs of the ids of its keys, as :func:`_run_ids_of_keys` gives them, the ids looked up
    among those kept (:func:`_str_run_ids`) without checking the counts twice (2,000 fio
    files' 686 such pieces ~1.2 -> 0.5 ms); ``None`` for other pieces and unless the counts
    are ints >= 0, as many as the keys (then the general rule, and its errors).

    >>> _runs_run_ids(Const(None, 3), Const("a.json", 3), Runs(["x", "y"], [2, 1])) == Runs(
    ...     [run_id("a.json", "x"), run_id("a.json", "y")], [2, 1])
    True
    """
    if type(k) is not Runs or type(r) is not Const or type(s) is not Const or type(
            s.value) is not str:
        return None
    source, values = s.value, k.values
    try:
        counts = list(k.counts)
        if (len(counts) != len(values) or list(map(type, values)).count(str) != len(values)
                or not set(map(type, counts)) <= _INT_ONLY or (counts and min(counts) < 0)):
            return None
    except TypeError:  # (counts or values that are no sequence: the general rule's error)
        return None
    ids = _str_run_ids(source, list(values))
    return Runs(ids, counts) if ids is not None else None


def _run_ids_of_keys(source, k, str_keys: bool = False) -> list | Runs:
    """The run ids of one file's rows (``source``) whose run keys (a piece, none missing) are
    several: each distinct key hashed once; runs of string keys (a multi-job fio report's
    jobs) as runs of their ids. ``str_keys``: the caller found ``k`` a list of ``str``
    (exactly), not judged again (a PTS file's 297 keys: 5 us)."""
    if type(k) is Runs and set(map(type, k.values)) <= {str}:
        return Runs([_run_id(source, kk) for kk in k.values], _run_counts(k))
    keys = _piece_list(k)
    if type(source) is str and (str_keys or set(map(type, keys)) == _STR_ONLY):
        ids = _str_run_ids(source, keys)
        if ids is not None:
            return ids
    try:
        ids = {kk: _run_id(source, kk) for kk in set(keys)}
    except TypeError:  # unhashable keys
        return [run_id(source, kk) for kk in keys]
    return list(map(ids.__getitem__, keys))


def _str_run_ids(source: str, keys: list[str]) -> list[str] | None:
    """The run ids of one file's rows (``source``) whose run keys are ``str`` (exactly),
    :func:`ebsstats.schema.run_id` of each, from the ids kept for the source (a lookup per
    row in C, not a pair made and looked up per key: a PTS file's 108 keys on 297 rows
    ~55 -> 15 us a read again), the others by :func:`ebsstats.schema.run_ids`; ``None`` when a
    text does not encode (then :func:`run_id` raises as it does)."""
    kept = _RUN_IDS.get(source)
    if kept is not None:
        ids = list(map(kept.get, keys))
        if None not in ids:
            return ids
    try:
        table = run_ids(source, keys if kept is None else [k for k in keys if k not in kept])
    except UnicodeEncodeError:
        return None
    ids = list(map(({**kept, **table} if kept else table).__getitem__, keys))
    _keep_run_ids(source, table)
    return ids


def _keep_run_ids(source: str, table: dict) -> None:
    """Keep ``table`` (run key -> id) among the ids of ``source`` between reads, at most
    :data:`_RUN_IDS_MOST` ids in all (the rule of :func:`remember`: all forgotten when full; a
    table larger than that is not kept)."""
    global _RUN_IDS_KEPT
    if _RUN_IDS_KEPT + len(table) > _RUN_IDS_MOST:
        _RUN_IDS.clear()
        _RUN_IDS_KEPT = 0
    if len(table) <= _RUN_IDS_MOST:
        _RUN_IDS.setdefault(source, {}).update(table)
        _RUN_IDS_KEPT += len(table)


_STR_ONLY = frozenset({str})


def _one_run_ids(pieces: dict[str, list], lengths: list[int]) -> list | None:
    """The ``run_id`` of each chunk that is one run (its run key, ``run_key`` else
    ``position``, a constant string or int: never missing), ``None`` for the others; ``None``
    overall unless every ``source`` is a constant and no two are equal (then no chunk's id
    depends on another's: :func:`_fill_run_ids` computes each distinct pair once, and Python
    calls ``1`` and ``True`` equal). The usual chunks (a file each), hashed without a loop of
    branches per chunk."""
    source = pieces["source"]
    key = pieces.get("run_key" if "run_key" in pieces else "position")
    if key is None or set(map(type, source)) != _CONST_ONLY:
        return None
    values = list(map(_CONST_VALUE, source))
    try:
        if len(set(values)) != len(values):
            return None
    except TypeError:  # unhashable sources
        return None
    kept = _kept_one_run_ids(values, key, lengths)
    if kept is not None:
        return kept
    return [Const(_run_id(s, k.value), m) if type(k) is Const and type(k.value) in _STR_OR_INT
            else None for s, k, m in zip(values, key, lengths, strict=True)]


def _kept_one_run_ids(sources: list, key: list, lengths: list[int]) -> list | None:
    """:func:`_one_run_ids` where every source is a ``str``, every key a :class:`Const` of a
    ``str`` or an ``int`` (or a :class:`Runs` piece: ``None`` there) and every id of those
    constants is kept (a folder read again): the ids looked up by maps in C, not by a
    :func:`_run_id` call per file (2,000 fio files ~0.9 -> 0.3 ms); ``None`` otherwise."""
    kinds = list(map(type, key))
    if list(map(type, sources)).count(str) != len(sources) or kinds.count(Const) + kinds.count(
            Runs) != len(kinds):
        return None
    consts = list(map(operator.is_, kinds, itertools.repeat(Const)))
    cvals = list(map(_CONST_VALUE, itertools.compress(key, consts)))
    if not set(map(type, cvals)) <= _STR_OR_INT:
        return None
    tables = list(map(_RUN_IDS.get, itertools.compress(sources, consts)))
    if None in tables:
        return None
    ids = list(map(dict.get, tables, cvals))
    if None in ids:
        return None
    out: list = [None] * len(key)
    for j, rid, m in zip(itertools.compress(range(len(key)), consts), ids,
                         itertools.compress(lengths, consts), strict=True):
        out[j] = Const(rid, m)
    return out


_STR_OR_INT = frozenset({str, int})
_INT_OR_BOOL = frozenset({int, bool})


# source -> {run key (a str or an int, exactly: 1, 1.0 and True are one dict key but give
# other ids): its run_id}, kept between reads: a folder read again hashes none of its runs
# again (432 SHA-1 of 4 PTS files, ~0.3 ms; 2,000 fio reports' ~2,100); _RUN_IDS_KEPT counts
# the ids, at most _RUN_IDS_MOST
_RUN_IDS: dict[str, dict[str | int, str]] = {}
_RUN_IDS_KEPT = 0
_RUN_IDS_MOST = 32768  # (entries of ~300 bytes with their texts, ~10 MB at most: bounded, a
# hostile folder cannot grow it)


def _run_id(source, key) -> str:
    """:func:`ebsstats.schema.run_id` of a source and a run key, kept for a ``str`` source and
    a ``str`` or ``int`` key (exactly those types: equal values of other types, ``1``, ``1.0``,
    ``True``, hash alike but give other ids); others computed each time.

    >>> _run_id("a.json", 1) == run_id("a.json", 1) != _run_id("a.json", True) == run_id(
    ...     "a.json", True)
    True
    """
    if type(source) is not str or type(key) not in _STR_OR_INT:
        return run_id(source, key)
    kept = _RUN_IDS.get(source)
    got = kept.get(key) if kept is not None else None
    if got is None:
        got = run_id(source, key)
        _keep_run_ids(source, {key: got})
    return got


def _vocabulary_columns(metric: pd.Categorical) -> tuple[pd.Categorical, pd.arrays.BooleanArray]:
    """``unit`` and ``higher_is_better`` of every row from its metric's vocabulary entry: one
    lookup per distinct metric, spread by the metric's codes (as typing the per-row values
    would give: observed units as sorted categories, ``<NA>`` where the metric is missing)."""
    per_metric, unit_dtype, hib, known = _vocabulary_of(tuple(map(str, category_names(
        metric.dtype))))
    codes = metric.codes  # (as they are: a wider copy per row is fresh memory; code -1, a
    # missing metric, takes the last entry)
    unit = (pd.Categorical.from_codes(per_metric[codes], dtype=unit_dtype, validate=False)
            if unit_dtype is not None else _categorical([None] * len(codes)))  # no unit at all:
    # as typing gives
    mask = known[codes]
    return unit, pd.arrays.BooleanArray(hib[codes], np.logical_not(mask, out=mask))


@functools.lru_cache(maxsize=256)
def _vocabulary_of(metrics: tuple[str, ...]):
    """Per metric category (then one entry for a missing metric): its unit's code among the
    sorted units, the units' dtype (``None``: no unit), higher-is-better and whether that is
    known; once per set of metric names (a read's are the same as the last's). The arrays are
    read-only: only indexed."""
    infos = [metric_info(m) for m in metrics]
    units = sorted({u for u, _ in infos if u is not None})
    unit_code = {u: i for i, u in enumerate(units)}
    per_metric = np.array([unit_code.get(u, -1) for u, _ in infos] + [-1],
                          dtype=_code_dtype(len(units)))
    hib = np.array([bool(h) for _, h in infos] + [False], dtype=bool)
    known = np.array([h is not None for _, h in infos] + [False], dtype=bool)
    for a in (per_metric, hib, known):
        a.setflags(write=False)
    return per_metric, (_categories(units) if units else None), hib, known


def _code_dtype(k: int) -> type:
    """The integer type of the codes of ``k`` categories, as a categorical stores them (then
    codes of that type go in without a copy).

    >>> [_code_dtype(k).__name__ for k in (0, 126, 127, 40000)]
    ['int8', 'int8', 'int16', 'int32']
    """
    for kind in (np.int8, np.int16, np.int32):
        if k < np.iinfo(kind).max:
            return kind
    return np.int64


def conform(df: pd.DataFrame) -> pd.DataFrame:
    """Give a frame the schema's column order and dtypes (adding absent columns as ``<NA>``)."""
    return _build({c: [df[c]] for c in df.columns}, len(df), {**COLUMNS, **META_COLUMNS})


def _as_string(col: pd.Series) -> pd.Series:
    if col.dtype == STRING:
        return col
    if isinstance(col.dtype, pd.StringDtype):
        return col.astype(STRING)
    return col.astype(object).map(_to_str, na_action="ignore").astype(STRING)


def _to_str(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _mapping_pieces(data: Mapping) -> tuple[dict[str, list], int]:
    """Columns of a mapping (lists, arrays, scalars broadcast) as one-piece columns."""
    lengths = {len(v) for v in data.values() if not _scalar(v)}
    if len(lengths) != 1 or any(isinstance(v, pd.Series) for v in data.values()):
        df = pd.DataFrame(dict(data))  # the general rules (and pandas' errors)
        return {c: [df[c]] for c in df.columns}, len(df)
    n = lengths.pop()
    return {k: [Const(v, n) if _scalar(v) else
                (v if isinstance(v, list) else v if hasattr(v, "dtype") else list(v))]
            for k, v in data.items()}, n


def _scalar(v) -> bool:
    return v is None or isinstance(v, (str, bytes, int, float, bool, np.generic, pd.Timestamp))


def series_frame(data: Mapping[str, Sequence] | pd.DataFrame) -> pd.DataFrame:
    """Build a typed series frame from columns (``t``, ``value``, ``metric``, ``unit``, ``op``, …)."""
    if isinstance(data, pd.DataFrame):
        pieces, n = {c: [data[c]] for c in data.columns}, len(data)
    else:
        pieces, n = _mapping_pieces(data)
    return series_of_columns(pieces, n)


def series_of_columns(pieces: dict[str, list], n: int) -> pd.DataFrame:
    """The typed series frame from column pieces (see :func:`frame_of_columns`)."""
    return _build(pieces, n, SERIES_COLUMNS, META_COLUMNS, what="series column")


def concat(frames: Sequence[pd.DataFrame], series: bool = False) -> pd.DataFrame:
    """Concatenate tidy frames, keeping schema dtypes (categories are unioned, not lost)."""
    frames = [f for f in frames if f is not None and len(f.columns)]
    if not frames:
        return empty_series() if series else empty()
    if len(frames) == 1:
        return frames[0].reset_index(drop=True)
    names = list(dict.fromkeys(c for f in frames for c in f.columns))
    pieces = {c: [f[c] if c in f.columns else Const(None, len(f)) for f in frames]
              for c in names}
    n = sum(len(f) for f in frames)
    if series:
        return series_of_columns(pieces, n)
    return _build(pieces, n, {**COLUMNS, **META_COLUMNS})
