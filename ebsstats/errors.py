"""Errors raised by ebsstats.

Every reader raises :class:`ParseError` for bad input, naming the file, the position (a line number,
a JSON path or an XML element) and what was expected. Folder reads collect these into
:class:`IngestFailure` rows instead of stopping (see :func:`ebsstats.read`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EbsstatsError", "ParseError", "SchemaError", "IngestError", "IngestFailure"]


class EbsstatsError(Exception):
    """Base class of every error ebsstats raises on purpose."""


class ParseError(EbsstatsError, ValueError):
    """A benchmark output could not be read.

    Parameters
    ----------
    source : str
        The file (as given by the caller).
    position : str or int or None
        Where in the file: ``"line 12"``, an ``int`` line number (1-based), a JSON path such as
        ``"$.jobs[0].read.clat_ns"`` or an XML element path such as ``"/PhoronixTestSuite/Result[2]"``.
    expected : str
        What the reader expected to find there.
    found : str, optional
        What it found instead (quoted, shortened to 120 characters).

    Examples
    --------
    >>> e = ParseError("run.json", 3, "a JSON object", found="fio: engine libaio not loadable")
    >>> str(e)
    "run.json, line 3: expected a JSON object; found 'fio: engine libaio not loadable'"
    """

    def __init__(self, source, position=None, expected: str = "", found: str | None = None):
        self.source = str(source)
        if isinstance(position, int):
            position = f"line {position}"
        self.position = position
        self.expected = expected
        self.found = None if found is None else _shorten(str(found))
        super().__init__(self._message())

    def _message(self) -> str:
        where = self.source if not self.position else f"{self.source}, {self.position}"
        msg = f"{where}: expected {self.expected}" if self.expected else where
        if self.found is not None:
            msg += f"; found {self.found!r}"
        return msg

    def __reduce__(self):  # picklable across process pools
        return (type(self), (self.source, self.position, self.expected, self.found))


class SchemaError(EbsstatsError, ValueError):
    """A frame does not follow the tidy-frame contract (see :func:`ebsstats.validate`)."""


class IngestError(EbsstatsError):
    """Raised by strict folder reads (``errors="raise"``) after listing every failure."""

    def __init__(self, failures: list[IngestFailure]):
        self.failures = failures
        lines = [f"{len(failures)} file(s) could not be read:"]
        lines += [f"  {f.source}: {f.reason}" for f in failures[:20]]
        if len(failures) > 20:
            lines.append(f"  ... and {len(failures) - 20} more")
        super().__init__("\n".join(lines))


@dataclass(frozen=True)
class IngestFailure:
    """One file a folder read refused or skipped: where, and why."""

    source: str
    position: str | None
    reason: str
    kind: str = "error"  # "error" (bad file of a known tool) or "skipped" (not a benchmark output)


def _shorten(text: str, limit: int = 120) -> str:
    text = text.replace("\r", "\\r")
    return text if len(text) <= limit else text[: limit - 3] + "..."
