"""The one rule for what the readers and the typing keep between files: a bounded cache.

It sits below :mod:`ebsstats.io._columns` and :mod:`ebsstats.io._common` (which re-exports
:func:`remember`), so that the typing's caches follow the same rule as the readers' instead of
a copy of it.
"""

from __future__ import annotations

__all__ = ["remember"]


def remember(cache: dict, key, value, most: int) -> None:
    """``cache[key] = value``, the cache forgotten first when it holds ``most`` entries: what a
    reader keeps between files is made again when asked for, and a hostile folder cannot grow
    it without end.

    >>> kept = {}
    >>> for k in range(3):
    ...     remember(kept, k, k * k, most=2)
    >>> kept
    {2: 4}
    """
    if len(cache) >= most:
        cache.clear()
    cache[key] = value
