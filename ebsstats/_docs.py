"""One argument vocabulary for the public API, written once (core level: imports only the stdlib).

Every public function spells the same argument the same way: ``data`` first, then ``value``,
``by``, ``within``, ``time``, ``confidence``, ``n_boot``, ``padjust``, ``seed``; ``metric=`` is
always a metric *value* such as ``"iops"``, never a column name. The numpydoc text of each shared
parameter lives here once (:data:`PARAMS`, the idea of seaborn's ``DocstringComponents``) and is
put into a docstring by :func:`shared_docs` wherever a line holds only ``{name}``:

>>> @shared_docs
... def f(data, confidence=0.95):
...     '''Example.
...
...     Parameters
...     ----------
...     {data}
...     {confidence}
...     '''
>>> print(f.__doc__.splitlines()[4])
    data : DataFrame

Old spellings keep working for one release through :func:`renamed`, which maps them onto the new
names with a :class:`DeprecationWarning`.
"""

from __future__ import annotations

import functools
import re
import textwrap
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["PARAMS", "VOCABULARY", "column_keywords", "renamed", "shared_docs"]

F = TypeVar("F", bound=Callable[..., Any])

#: The shared parameters, numpydoc-formatted (name line, then the description indented 4).
PARAMS: dict[str, str] = {
    "data": """\
data : DataFrame
    A tidy frame of :mod:`ebsstats.schema` (one row per measured value), or the output of the
    function named in the description.""",
    "value": """\
value : str
    Column holding the measured values (default ``"value"``).""",
    "by": """\
by : str or list of str, optional
    Columns whose combinations define the groups compared or summarised (e.g. ``"config"``).""",
    "within": """\
within : "auto", str, list of str or None
    Columns that split every group further without being compared across: ``"auto"`` uses
    ``test``, ``op`` and ``metric`` where present, so unlike measurements are never pooled.""",
    "time": """\
time : str
    Column holding the timestamps (default ``"timestamp"``).""",
    "confidence": """\
confidence : float
    Level of the confidence intervals, in (0, 1) (default 0.95).""",
    "n_boot": """\
n_boot : int
    Bootstrap resamples (``0`` skips the bootstrap).""",
    "padjust": """\
padjust : str or None
    Multiple-comparison adjustment of the p-values (``"holm"``, ``"fdr_bh"``, …; ``None``
    for none), as :func:`statsmodels.stats.multitest.multipletests`.""",
    "seed": """\
seed : int
    Seed of the random number generator, so results are reproducible.""",
    "metric": """\
metric : str
    A metric of the vocabulary of :mod:`ebsstats.schema` (``"iops"``, ``"bandwidth"``, …): a
    value of the ``metric`` column, never a column name.""",
}

#: Old spelling -> the vocabulary's (used by :func:`renamed` across the API).
VOCABULARY: dict[str, str] = {
    "ts": "data", "df": "data", "result": "data", "correction": "padjust", "adjust": "padjust",
    "bootstrap": "n_boot",
}

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\{(?P<name>[a-z_]+)\}[ \t]*$", re.MULTILINE)


def shared_docs(func: F) -> F:
    """Fill the ``{name}`` lines of ``func``'s docstring with :data:`PARAMS` (same indentation).

    Only a line that holds nothing but ``{name}`` is replaced, so braces elsewhere (dicts in
    examples, ``{x}`` in text) are left alone. An unknown name raises :class:`KeyError` at
    import time rather than shipping a broken docstring.
    """
    doc = func.__doc__
    if doc:  # None under python -OO
        def fill(m: re.Match) -> str:
            return textwrap.indent(PARAMS[m["name"]], m["indent"])

        func.__doc__ = _PLACEHOLDER.sub(fill, doc)
    return func


def renamed(**old_to_new: str) -> Callable[[F], F]:
    """Accept old keyword spellings for one release: ``@renamed(df="data", bootstrap="n_boot")``.

    A call with an old keyword is mapped onto the new one and warns with a
    :class:`DeprecationWarning` naming both; giving both raises :class:`TypeError`. Positional
    calls are unaffected.

    >>> import warnings
    >>> @renamed(df="data")
    ... def g(data):
    ...     return data
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     g(df=1), w[0].category.__name__
    (1, 'DeprecationWarning')
    """
    for old, new in old_to_new.items():
        if old == new:
            raise ValueError(f"renamed({old}={new!r}): the old and the new name are the same")

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for old, new in old_to_new.items():
                if old not in kwargs:
                    continue
                if new in kwargs:
                    raise TypeError(f"{func.__name__}() got both {old}= (deprecated) and {new}=")
                warnings.warn(f"{func.__name__}(): {old}= is deprecated; use {new}= (the old "
                              "spelling will be removed in the next release)",
                              DeprecationWarning, stacklevel=2)
                kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        wrapper.__renamed__ = dict(old_to_new)  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def column_keywords(**keyword_to_column: str) -> Callable[[F], F]:
    """Accept, for one release, keywords that once named a column the schema now fixes.

    ``@column_keywords(size="size_gib")``: a call with ``size="total_gib"`` warns with a
    :class:`DeprecationWarning` and renames column ``total_gib`` of ``data`` (the first
    argument) to ``size_gib`` (replacing a ``size_gib`` column that was there) before the call.

    >>> import pandas as pd, warnings
    >>> @column_keywords(size="size_gib")
    ... def h(data):
    ...     return data.columns.tolist()
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     h(pd.DataFrame({"gib": [1]}), size="gib")
    ['size_gib']
    """

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            given = {k: kwargs.pop(k) for k in keyword_to_column if k in kwargs}
            if not given:
                return func(*args, **kwargs)
            warnings.warn(f"{func.__name__}(): {', '.join(f'{k}=' for k in given)} deprecated: "
                          "the schema fixes these column names (rename the columns instead; the "
                          "keywords will be removed in the next release)",
                          DeprecationWarning, stacklevel=2)
            data = args[0] if args else kwargs.get("data")
            mapping = {col: keyword_to_column[k] for k, col in given.items()
                       if col != keyword_to_column[k] and col in getattr(data, "columns", ())}
            if mapping:
                data = data.drop(columns=[c for c in mapping.values() if c in data.columns])
                data = data.rename(columns=mapping)
                if args:
                    args = (data, *args[1:])
                else:
                    kwargs["data"] = data
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
