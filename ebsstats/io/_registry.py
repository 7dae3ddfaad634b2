"""The reader protocol and the registry the folder read asks.

A :class:`Reader` says which tool it reads, how sure it is that the first bytes of a file are
that tool's output (:meth:`Reader.sniff`), how to parse a whole file (:meth:`Reader.parse`,
bytes in, :class:`~ebsstats.io._common.Parsed` out) and which facts from outside the file it
needs (``needs``). The folder read knows nothing else about a reader: it never branches on a
reader's name and imports nothing private from a reader module.

Context a reader may declare in ``needs`` (the folder read provides it in ``context``):

``"path"``
    the file's path (a :class:`pathlib.Path`), to find files beside it;
``"source_of"``
    a function giving any path the ``source`` name this read gives it (relative to the folder);
``"folder_version"``
    the version that the same tool's reports in the same folder print (``"fio-3.33"``), else
    those in the nearest folder above it (up to the folder read) if they all print one, else
    ``None``; the context then also holds ``"folder_version_from"``: that folder above,
    relative to the folder read (``None``: the file's own). Readers that need it are parsed
    after every other file, so that a fio log can take the version, and the options, of the
    JSON report beside it (or above it: pbench's ``clients/<host>/`` logs).

Tests and plugins add a reader with :func:`register` (and take it away with
:func:`unregister`); nobody patches modules. The built-in readers are added by
:mod:`ebsstats.io._builtin` (on the first sniff), so that this module imports no reader.

Examples
--------
>>> from ebsstats.io._common import Parsed
>>> fake = Reader(tool="sim", name="example", detect=lambda head, name:
...               "text" if head.startswith("SIM") else None,
...               parse=lambda data, source, context: Parsed("sim", "text"))
>>> register(fake, first=True)
>>> best = sniff("SIM 1\\n", "x.txt")
>>> best.reader.name, best.format
('example', 'text')
>>> unregister("example")
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from ebsstats.io._common import Parsed, decode

__all__ = ["Reader", "Match", "register", "unregister", "readers", "sniff", "text_parser",
           "add_builtin", "CONTEXT_KEYS"]

CONTEXT_KEYS = frozenset({"path", "source_of", "folder_version"})


@dataclass(frozen=True)
class Reader:
    """One tool's reader.

    Parameters
    ----------
    tool : str
        The ``tool`` column value (``"fio"``, ``"bonnie++"``, …).
    name : str
        A unique name (the module that implements it, for built-in readers).
    detect : callable ``(head: str, name: str) -> str | None``
        The format the first 64 KiB (decoded, undecodable bytes replaced) and the file name
        show, or ``None``.
    parse : callable ``(data: bytes, source: str, context: Mapping) -> Parsed``
        The whole file; raises :class:`~ebsstats.ParseError`.
    needs : frozenset of str
        Context keys the reader reads (:data:`CONTEXT_KEYS`).
    confidence : float
        How sure a positive ``detect`` is (0–1). The most confident reader wins; among equals,
        the one registered first.
    memory_factor : float, optional
        Peak memory of a parse per byte of input; a file whose estimate exceeds the memory
        budget is refused before it is parsed.
    claim : callable ``(data: bytes) -> str | None``, optional
        A verdict from a file's bytes alone, without its head decoded nor any reader asked: the
        format ``detect`` gives the head of ``data``, returned only where every built-in reader
        registered before this one refuses that head (``None``: it cannot tell, and every
        reader is asked). The folder read uses it only while the readers up to this one are
        the built-in ones, in their order, and this one is sure (``confidence`` 1).
    """

    tool: str
    name: str
    detect: Callable[[str, str], str | None]
    parse: Callable[[bytes, str, Mapping], Parsed]
    needs: frozenset = frozenset()
    confidence: float = 1.0
    memory_factor: float | None = None  # peak memory / file size (None: the folder's default)
    claim: Callable[[bytes], str | None] | None = None

    def __post_init__(self):
        unknown = set(self.needs) - CONTEXT_KEYS
        if unknown:
            raise ValueError(f"reader {self.name!r} needs unknown context {sorted(unknown)}")

    def sniff(self, head: str, name: str = "") -> Match | None:
        """``Match(self, format, confidence)`` if the head looks like this tool's output."""
        fmt = self.detect(head, name)
        return Match(self, fmt, self.confidence) if fmt else None


class Match(NamedTuple):
    """A sniffing verdict: which reader, the format it recognised, and how sure it is."""

    reader: Reader
    format: str
    confidence: float


def text_parser(parse: Callable[..., Parsed]) -> Callable[[bytes, str, Mapping], Parsed]:
    """Adapt a ``parse(text, source)`` function to the protocol (bytes decoded as
    :func:`~ebsstats.io._common.decode` does: UTF-8 or UTF-16 with a BOM, no NUL)."""

    def parse_bytes(data: bytes, source: str, context: Mapping) -> Parsed:
        return parse(decode(data, source), source)

    parse_bytes.__doc__ = parse.__doc__
    return parse_bytes


_REGISTRY: list[Reader] = []
_BUILTINS: list[Reader] = []  # the built-in readers, in the order they were added
# the readers whose claim the folder read may take, made again when the registry changes
_CLAIMERS: list[tuple[Reader, ...] | None] = [None]


def add_builtin(reader: Reader) -> None:
    """Append a reader that ships with ebsstats, unless one of its name is registered
    (:mod:`ebsstats.io._builtin` calls this; the registry imports no reader itself)."""
    if all(r.name != reader.name for r in _REGISTRY):
        _REGISTRY.append(reader)
        _BUILTINS.append(reader)
    _CLAIMERS[0] = None


def register(reader: Reader, *, first: bool = False) -> None:
    """Add a reader (replacing one of the same name); ``first=True`` asks it before the others
    when confidences tie."""
    unregister(reader.name)
    if first:
        _REGISTRY.insert(0, reader)
    else:
        _REGISTRY.append(reader)
    _CLAIMERS[0] = None


def unregister(name: str) -> None:
    """Remove the reader called ``name`` (no error if there is none)."""
    _REGISTRY[:] = [r for r in _REGISTRY if r.name != name]
    _CLAIMERS[0] = None


def _claimers() -> tuple[Reader, ...]:
    """The readers whose ``claim`` stands for every reader's ``detect``: those with a claim and
    confidence 1 among the registry's first readers while they are the built-in ones in their
    order (a reader registered before one, or a built-in one taken away, ends the run)."""
    got = _CLAIMERS[0]
    if got is None:
        run = []
        for mine, builtin in zip(_REGISTRY, _BUILTINS, strict=False):
            if mine is not builtin:
                break
            if mine.claim is not None and mine.confidence >= 1.0:
                run.append(mine)
        got = _CLAIMERS[0] = tuple(run)
    return got


def claimed(data: bytes) -> tuple[Reader, str] | None:
    """The reader and format a built-in reader's ``claim`` gives ``data`` (a file's bytes), or
    ``None`` when none can tell: then ask :func:`sniff` (the verdict is the same where a claim
    speaks; tests/test_sniff_claims.py holds them to it)."""
    for reader in _claimers():
        fmt = reader.claim(data)
        if fmt:
            return reader, fmt
    return None


def readers() -> list[Reader]:
    """The registered readers, in the order ties are decided."""
    return list(_REGISTRY)


def sniff(head: str, name: str = "") -> Match | None:
    """The most confident reader's verdict on a file's head, or ``None`` if no reader knows it."""
    found = _best(head, name)
    return None if found is None else Match(found[0], found[1], found[0].confidence)


def _best(head: str, name: str) -> tuple[Reader, str] | None:
    """:func:`sniff`'s reader and format, without a :class:`Match` made (what the folder read
    asks once per file)."""
    best: tuple[Reader, str] | None = None
    confidence = 0.0
    for reader in _REGISTRY:
        fmt = reader.detect(head, name)  # (what Reader.sniff does, without a call per reader)
        if fmt and (best is None or reader.confidence > confidence):
            best, confidence = (reader, fmt), reader.confidence
            if confidence >= 1.0:
                break
    return best
