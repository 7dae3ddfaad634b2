"""Rows of a text reader as columns: what a reader hands the folder read instead of a dict per
row (the folder types every file's columns once, :mod:`ebsstats.io._columns`).

A text reader knows two kinds of values: those of each row (metric, value, position, …), which
it appends as one tuple per row, and those a whole run shares (run key, version, options), which
it gives once per run. :func:`run_columns` turns both into ``({name: list | Const}, n)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain, repeat

from ebsstats.io._columns import Const, is_constant
from ebsstats.io._common import picker

__all__ = ["run_columns", "spread_shared"]


# columns whose values a file's layout decides (the same in most files of a tool): their
# lists are shared by files of one content, so that typing types them once (never modified)
_LAYOUT = frozenset({"position", "test", "workload", "op", "metric", "block_size"})
_SHARED: dict[tuple, list] = {}
_SHARED_MAX = 4096  # distinct layouts kept (a hostile folder cannot grow it without end)
_SHARED_ROWS = 512  # and only short ones (a long file's lists are not kept after its read)
_PLAIN = frozenset({str, int, type(None)})  # 1 == 1.0 == True: only types that never compare
# equal across each other are shared by content


def run_columns(fixed: Mapping, names: Sequence[str], rows: list[tuple],
                runs: list[tuple[int, Mapping]]) -> tuple[dict, int]:
    """Columns of a file's rows.

    Parameters
    ----------
    fixed : mapping
        Values of every row of the file (``source``, ``tool``).
    names : sequence of str
        The names of the per-row values, in the order of each tuple of ``rows``.
    rows : list of tuple
        One tuple per row, the rows of all runs in order.
    runs : list of (int, mapping)
        Per run, in order: how many of ``rows`` are its rows, and the values they share (a run
        without a name gives ``None`` there).

    Returns
    -------
    (dict, int)
        ``{name: list | Const}`` and the row count.

    Examples
    --------
    >>> cols, n = run_columns({"tool": "x"}, ("metric", "value"),
    ...                       [("iops", 1.0), ("iops", 2.0), ("ops", 3.0)],
    ...                       [(2, {"run_key": "a"}), (1, {"run_key": "b", "mode": "r"})])
    >>> n, cols["tool"], cols["value"], cols["run_key"], cols["mode"]
    (3, Const(value='x', n=3), [1.0, 2.0, 3.0], ['a', 'a', 'b'], [None, None, 'r'])
    """
    n = len(rows)
    cols: dict = {k: Const(v, n) for k, v in fixed.items()}
    if n:
        cols.update(zip(names, map(list, zip(*rows, strict=True)), strict=True))
        for name in _LAYOUT.intersection(names):  # one list object per content, files share it
            values = cols[name]
            if n <= _SHARED_ROWS and set(map(type, values)) <= _PLAIN:  # (equal tuples of
                # these types hold the same values)
                key = tuple(values)
                cols[name] = (_SHARED.setdefault(key, values) if len(_SHARED) < _SHARED_MAX
                              else _SHARED.get(key, values))
    else:
        cols.update((k, []) for k in names)
    if len(runs) == 1:
        cols.update((k, Const(v, n)) for k, v in runs[0][1].items())
        return cols, n
    runs = [(k, values) for k, values in runs if k]  # a run without rows adds no value
    # the distinct dicts (a reader may alternate between two), and each row's dict
    index: dict[int, int] = {}  # id of a dict -> its place in distinct (all alive here)
    distinct: list[Mapping] = []
    for _, values in runs:
        if id(values) not in index:
            index[id(values)] = len(distinct)
            distinct.append(values)
    which = list(chain.from_iterable(repeat(index[id(v)], k) for k, v in runs))
    spread_shared(cols, which, distinct, n)
    return cols, n


def spread_shared(cols: dict, which: list[int], distinct: list[Mapping], n: int) -> None:
    """Add to ``cols`` the columns of values rows share: row ``i`` has the values of the dict
    ``distinct[which[i]]`` (a name a dict lacks: ``None``); a column of one value (of one type)
    becomes a :class:`Const`, any other a list picked in C.

    >>> cols = {}
    >>> spread_shared(cols, [0, 0, 1], [{"run_key": "a"}, {"run_key": "b", "mode": "r"}], 3)
    >>> cols["run_key"], cols["mode"]
    (['a', 'a', 'b'], [None, None, 'r'])
    """
    if len(distinct) == 1:
        cols.update((k, Const(v, n)) for k, v in distinct[0].items())
        return
    spread = picker(which)
    shared = list(dict.fromkeys(chain.from_iterable(distinct)))
    # per name, the value of each distinct dict (missing: None), transposed in C
    table = zip(*(tuple(map(values.get, shared)) for values in distinct), strict=True)
    for name, per_dict in zip(shared, table, strict=True):
        if is_constant(per_dict):  # one value (of one type) in every run: typed once
            cols[name] = Const(per_dict[0], n)
        else:
            cols[name] = list(spread(per_dict))  # each row's value, picked in C
