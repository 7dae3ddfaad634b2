"""Phoronix Test Suite result files: ``composite.xml`` (both schemas) and PTS's exports.

Formats and what each carries:

=========================  ==========================================================================
format (``sniff``)         content
=========================  ==========================================================================
``composite.xml``          PTS ≥ 3.0 (Dec 2010 on): everything — systems (Hardware/Software strings,
                           TimeStamp, TestClientVersion), results (Identifier, Title, AppVersion,
                           Arguments, Description, Scale, Proportion) with per-system ``Value``
                           (PTS's reported mean), ``RawString`` (the runs, ``:``-joined) and Entry
                           ``JSON`` (``test-run-times``).
``composite.xml pre-3.0``  PTS 0.x–2.x (2008–2010): ``Benchmark/Results/Group/Entry`` nesting, the
                           system keyed by ``AssociatedIdentifiers``; no run times. No genuine file of
                           this era was found: the reader follows the element structure documented in
                           the history of PTS's ``pts-core/definitions/result-file.xml``.
``json export``            ``result-file-to-json``: the same information as composite.xml (hardware
                           and software already split into dicts, ``raw_values``, ``test_run_times``,
                           and the result hash PTS uses for ``test-logs/<hash>/``). Lacks the test
                           profile's DisplayFormat only where PTS omits it.
``csv export``             ``result-file-to-csv``: title, system table (Processor, Disk, OS, …) and one
                           row per result ``"<Title> - <Description> (<Scale>)",HIB|LIB,v1,v2``.
                           **Lacks** the per-run values (only PTS's reported means: every row is
                           ``flag="reported_mean"``), the result Identifier, Arguments, AppVersion,
                           timestamps and the PTS version.
``raw csv export``         ``result-file-raw-to-csv``: per result ``"<Title> <AppVersion> -
                           <Description>",``, ``Higher|Lower Results Are Better``, then
                           ``"<system>",run1,run2,…``. **Lacks** the Scale (so a fio MB/s block and
                           its IOPS block look alike: every row is ``metric="score"`` with
                           ``unit="unknown"`` and ``flag="scale_unknown"``), the reported means,
                           the systems' details, timestamps and the PTS version.
=========================  ==========================================================================

The text export (``result-file-to-text``, ASCII bar charts) is not read: it only repeats the CSV
export's means, rounded for display.

Rows: one per (result, system, run) from ``RawString`` with ``repetition`` 0..k-1, plus PTS's
reported ``Value`` as its own row with ``flag="reported_mean"`` and ``repetition`` ``<NA>`` (so
statistics use the raw runs and users still see what PTS printed). ``config`` is the system
Identifier. Results are keyed on (Identifier, Arguments, Description, Scale): fio profiles report
MB/s **and** IOPS for the same option set. Entries missing for some systems (a system that did
not run that option) simply give no rows. Non-numeric Values (PASS_FAIL and similar display
formats) are skipped with a note in :attr:`Parsed.notes`, never turned into numbers.

Metrics
    * results of a fio test profile (Identifier ``*/fio-*``, or title "Flexible IO Tester" in the
      CSV exports): Scale ``MB/s`` → ``bandwidth`` in B/s, Scale ``IOPS`` → ``iops``. Which "MB"
      the profile meant is checked per entry against the IOPS result of the same options × the
      block size in the Description (``MB/s ≈ IOPS × bs / 2**20`` or ``/ 10**6``): upstream
      ``pts/fio`` (1.15) strips fio's ``bw=…MiB/s`` (so MiB/s), while other fio
      profiles, such as the ``local/fio-sys`` profile of our samples, take fio's decimal
      ``(…MB/s)``. When the check is impossible or inconclusive, MiB/s is assumed (the upstream
      profile) and said so in the ``mb_basis`` column (``fio_mb="MiB"|"MB"`` forces a basis).
      Known upstream quirk: below 10 MiB/s fio prints ``KiB/s`` and ``pts/fio`` divides by
      1000, a 2.4 % error that no reader can undo. ``pts/fio-2.0.0`` scales its figures
      ``MiB/s`` but takes them from fio's ``bw (  KiB/s):`` line, in KiB/s up to 1 GiB/s: a
      fio result in MiB/s is checked per entry for KiB/s or MiB/s against IOPS × block size.
    * every other result whose Scale is a rate: ``MB/s``/``MiB/s`` → ``bandwidth`` in B/s (the
      "MB" of the profile's tool where :data:`PROFILE_MB` knows it: 10^6 bytes for dbench,
      stream, the compression profiles, 2^20 for tiobench, iozone, aio-stress…; else the
      same IOPS × block size check; without an IOPS result MiB/s is assumed; the basis said
      in ``mb_basis``); byte rates with another prefix the same way, per result
      (``byte/s`` of OpenSSL is 1, ``GiB/s``/``KiB/s`` binary and ``kB/s`` decimal as they
      say, ``GB/s``/``KB/s``/``TB/s`` by the profile's tool: simdjson's GB is 10^9 bytes,
      else binary assumed, as an unknown MB); ``IOPS`` → ``iops``; a latency Scale (``ms``,
      ``us``) of a storage I/O profile (fio, sysbench file I/O, whose ``ms`` result is
      sysbench's average latency) → ``lat_mean`` in s, the conversion in the ``basis`` column.
    * every other result: ``score`` with ``unit`` = the Scale verbatim (``ms`` of a frame time,
      ``Seconds``, …) and direction from Proportion (HIB → True, LIB → False, NIB →
      ``<NA>``).
    * ``test-run-times`` of an Entry → ``runtime`` rows (s) per run, once per run (not repeated
      for the other results of the same execution: one profile and arguments, such as fio's
      MB/s and IOPS, or Zstd's compression and decompression speeds).

Workload columns, from the Description (PTS joins each option's name and choice with `` - ``):
``workload``/``op`` from its ``Type``/``Test``/``Test Mode`` (Random Read, Sequential Write…;
tiobench's Read and Write and iozone's Read/Write Performance are sequential), ``block_size``
from ``Block Size`` (iozone: ``Record Size``), ``threads`` from ``Job Count`` (fio), ``Thread
Count`` (tiobench), ``Client Count`` (dbench) or a part such as ``12 Clients`` (dbench 1.0.1) or
``4 Threads`` (fs-mark).

Extra columns: ``result_identifier`` (``local/fio-ebs-1.15.0``), ``app_version``, ``arguments``,
``description``, ``scale``, ``display_format``, ``proportion``, ``mb_basis`` (bandwidth rows),
the System's Hardware/Software pairs as ``hw_<key>``/``sw_<key>`` (``hw_processor``, ``hw_disk``,
``sw_os``, ``sw_kernel``, ``sw_file_system`` — also copied to the ``filesystem`` column), and
``result_hash`` (PTS's comparison hash, where known).

Timestamps: PTS writes local time without a zone (System ``TimeStamp``). It is read as UTC
unless ``tz="Europe/Berlin"`` (any IANA name) says which local time it was. ``timestamp`` of a
row is its System's TimeStamp (start of that system's session), except for raw-run rows when the
result directory's ``test-logs/<hash>/<system>.log`` is found next to ``composite.xml`` (or the
JSON export): then it is the time PTS logged that run (``<system> - Run N`` header; written when
the run finished, to the second). The test-log hash is PTS's comparison hash
``sha1("<profile without patch version>,<arguments>,<description>,<app version>,<scale>")``,
verified against the genuine samples.

Series frame (``series=True``): the per-run values of each (result, system) in run order, with
``t`` = seconds since the first run by the test-log times when found, else the start offsets of
the runs from the cumulative ``test-run-times`` (runs assumed back to back, which ignores PTS's
pauses between runs), else the run index (0, 1, 2 …). The column ``t_basis`` says which
(``test-log``, ``test-run-times``, ``run index``).

Examples
--------
>>> from ebsstats.io.pts import parse
>>> xml = '''<?xml version="1.0"?><PhoronixTestSuite><Generated><Title>t</Title></Generated>
... <System><Identifier>gp3</Identifier><TimeStamp>2024-01-02 03:04:05</TimeStamp></System>
... <Result><Identifier>pts/fio-1.15.0</Identifier><Title>Flexible IO Tester</Title>
... <Arguments>randread libaio 0 1 4k</Arguments><Scale>IOPS</Scale><Proportion>HIB</Proportion>
... <Data><Entry><Identifier>gp3</Identifier><Value>3000</Value><RawString>2990:3010</RawString>
... </Entry></Data></Result></PhoronixTestSuite>'''
>>> p = parse(xml, "composite.xml")
>>> [(r["metric"], r["value"], r["repetition"], r["flag"]) for r in p.records]
[('iops', 2990.0, 0, None), ('iops', 3010.0, 1, None), ('iops', 3000.0, None, 'reported_mean')]
"""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import itertools
import json
import math
import os
import re
import stat
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import chain, islice, repeat
from operator import is_not, itemgetter, mul, ne, sub
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

import defusedxml
import defusedxml.ElementTree as DET
import msgspec
import pandas as pd

from ebsstats import units
from ebsstats.errors import ParseError, SchemaError
from ebsstats.io._columns import (
    Const,
    Runs,
    is_constant,
    object_runs,
    records_of,
    run_starts,
)
from ebsstats.io._common import (
    COMPRESSED_SUFFIXES,
    Columns,
    Parsed,
    decode,
    number,
    picker,
    public_series,
    read_head,
    read_one,
    remember,
)
from ebsstats.io._registry import Reader
from ebsstats.schema import metric_info as _metric_info
from ebsstats.schema import run_id

# peak memory of a parse per byte of input, for the folder read's budget
# (benchmarks/reader_memory.py: measured 43 on a 1.2 MB composite.xml)
MEMORY_FACTOR = 100


__all__ = ["sniff", "parse", "read_pts", "FORMATS", "PROFILE_MB", "split_system_string"]

FORMATS = ("composite.xml", "composite.xml pre-3.0", "csv export", "raw csv export",
           "json export")

# Hardware/Software keys PTS writes (phodevi available_hardware_devices/software_components,
# plus names of older releases); a ", " followed by one of these and ": " starts a new pair.
KNOWN_KEYS = (
    "Processor", "Motherboard", "Chipset", "Memory", "System Memory", "Disk", "Hard Disk",
    "Graphics", "Audio", "Monitor", "Network", "NPU", "OS", "Operating System", "Kernel",
    "Desktop", "Display Server", "Display Driver", "OpenGL", "OpenCL", "Vulkan", "Compiler",
    "File-System", "Filesystem", "Screen Resolution", "System Layer", "Architecture",
)
_KNOWN_KEY_RE = re.compile("(?:" + "|".join(re.escape(k) for k in KNOWN_KEYS) + "): ")
_GENERIC_KEY_RE = re.compile(r"[A-Z][A-Za-z0-9 ./\-]{0,40}?: ")
_CUT_CHARS_RE = re.compile(r"[(\[)\]]|, ")  # what split_system_string looks at
_KNOWN_CUT_RE = re.compile(", (?=" + _KNOWN_KEY_RE.pattern + ")")  # a ", " a known key follows

# possessive quantifiers: a number is read without backtracking (a run of 20,000 digits and a
# letter took 5.7 s with plain ones: the digits were split every way before the match failed)
_NUM_RE = re.compile(r"^[-+]?+(?:\d++\.?+\d*+|\.\d++)(?:[eE][-+]?+\d++)?+$")
_TS_RE = re.compile(r"^\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}(?::\d{2})?)?$")
_LOG_HEADER_RE = re.compile(
    r"^#####\n(?P<id>[^\n]*) - Run (?P<n>\d+)\n(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\n#####$",
    re.M)

# fio's Type option (PTS Description) / sysbench Test Mode -> (workload, op)
_TYPES = {
    "random read": ("randread", "read"),
    "random write": ("randwrite", "write"),
    "sequential read": ("seqread", "read"),
    "sequential write": ("seqwrite", "write"),
    "sequential rewrite": ("rewrite", "write"),
    "random read/write": ("randrw", "total"),
    "combined random read/write": ("randrw", "total"),
}
_MB_FACTORS = {"MiB": float(units.MiB), "MB": float(units.MB)}
_MIB, _MB = _MB_FACTORS["MiB"], _MB_FACTORS["MB"]


# --------------------------------------------------------------------------------------------
# sniffing


def sniff(head: str, name: str = "") -> str | None:
    """Name of the PTS format ``head`` (the first 64 KiB of a file) is in, or ``None``.

    Content decides: a ``<PhoronixTestSuite>`` root holding ``Result``/``Generated``
    (composite.xml) or ``Benchmark``/``Suite`` (pre-3.0) — test-profile and suite definitions
    share the root element but not these children —; PTS's CSV export (system table row
    ``" ,,"<id>"`` and ``"<title> (<scale>)",HIB,`` rows); the raw CSV export (a quoted title
    line followed by ``Higher|Lower Results Are Better``); the JSON export (``title``,
    ``last_modified``, ``systems``, ``results`` keys).

    >>> sniff('<?xml version="1.0"?>\\n<!--Phoronix Test Suite v10.8.4-->\\n'
    ...       '<PhoronixTestSuite><Generated><Title>x</Title>', "composite.xml")
    'composite.xml'
    >>> sniff('{"fio version" : "fio-3.33"}', "a.json") is None
    True
    """
    text = head.lstrip("\ufeff")
    stripped = text.lstrip()
    if stripped.startswith("<"):
        body = _xml_body(stripped)
        if not body.lstrip().startswith("<PhoronixTestSuite"):
            return None
        result = "<Result>" in body
        if not result and ("<Benchmark>" in body or "<Suite>" in body):
            return "composite.xml pre-3.0"
        if (result or "<Generated>" in body) and not _PROFILE_TAGS_RE.search(body):
            return "composite.xml"
        return None
    if '"' not in text:  # (found at C speed) every export below quotes its titles
        return None
    if stripped.startswith("{"):
        if (re.search(r'"last_modified"\s*:', text) and re.search(r'"systems"\s*:\s*\{', text)
                and re.search(r'"title"\s*:', text)):
            return "json export"
        return None
    if re.search(r'^"[^"\n]*",\r?\n(?:Higher|Lower) Results Are Better\r?$', text, re.M):
        return "raw csv export"
    if re.search(r'^ ,,"', text, re.M) and (
            re.search(r'^"[^\n]*\([^()\n]*\)",(?:HIB|LIB|NIB)?,', text, re.M)
            or re.search(r"^(?:Processor|OS|Kernel|Disk|Memory),,", text, re.M)):
        return "csv export"
    return None


# an XML declaration, a comment, a DOCTYPE (whose internal subset ([...]) may declare entities:
# the file is then claimed, and the parser refuses the declarations with a named reason)
_PROLOG_RE = re.compile(r"<\?xml[^>]*\?>|<!--.*?-->|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>", re.S)
_SPACES_RE = re.compile(r"\s*")  # what str.strip strips (both are Py_UNICODE_ISSPACE)
# <TestInformation>, <TestProfile>, <ResultsParser>, <SuiteInformation> (the common "Test"
# factored out: fewer alternatives tried at every "<" of the head)
_PROFILE_TAGS_RE = re.compile(r"<(?:Test(?:Information|Profile)|ResultsParser|SuiteInformation)>")


def _xml_body(text: str) -> str:
    """``text`` without its XML declarations, comments and DOCTYPEs (:data:`_PROLOG_RE`).

    Those at the start are taken off one by one; when no ``!`` or ``?`` follows them (two
    characters found at C speed, without a pass of the regular expression), nothing else is
    to be taken off."""
    pos = 0
    while (m := _PROLOG_RE.match(text, _SPACES_RE.match(text, pos).end())) is not None:
        pos = m.end()
    rest = text[pos:]
    if "!" in rest or "?" in rest:
        return _PROLOG_RE.sub("", text)
    return rest


# --------------------------------------------------------------------------------------------
# the common intermediate model


@dataclass
class _System:
    identifier: str
    hardware: dict[str, str] = field(default_factory=dict)
    software: dict[str, str] = field(default_factory=dict)
    timestamp: str | None = None
    client_version: str | None = None


class _Entry(NamedTuple):
    system: str
    value: str | None
    raw: list[str] | None
    run_times: list[str] | None
    position: str


_new_entry = functools.partial(tuple.__new__, _Entry)  # _Entry(*fields) without a Python call


@dataclass
class _Result:
    identifier: str | None
    title: str
    app_version: str | None
    arguments: str | None
    description: str | None
    scale: str | None
    proportion: str | None
    display_format: str | None
    position: str
    entries: list[_Entry] = field(default_factory=list)
    hash: str | None = None


def split_system_string(text: str | None) -> dict[str, str]:
    """Split a PTS Hardware/Software string into its ``Key: value`` pairs.

    Pairs are separated by ``", "`` followed by a known key (or, outside parentheses, any
    capitalised ``Key:`` and a space); commas inside values stay.

    >>> split_system_string("Processor: AMD EPYC (2 Cores), Memory: 24GB, Disk: 252GB")
    {'Processor': 'AMD EPYC (2 Cores)', 'Memory': '24GB', 'Disk': '252GB'}
    >>> split_system_string("Disk: 2 x 500GB (RAID, 7200rpm), OS: Debian 12")
    {'Disk': '2 x 500GB (RAID, 7200rpm)', 'OS': 'Debian 12'}
    """
    if not text or not text.strip():
        return {}
    text = text.strip()
    cuts = [0, *(m.start() for m in _KNOWN_CUT_RE.finditer(text))]
    if len(cuts) - 1 != text.count(", "):  # (else every ", " is a known key's: a cut whatever
        # the brackets, as in PTS's own strings; 7 of a campaign file 80 -> 64 us, fresh process)
        cuts = _generic_cuts(text)
    cuts.append(len(text))
    out: dict[str, str] = {}
    for a, b in zip(cuts[:-1], cuts[1:], strict=True):
        part = text[a:b]
        if a:
            part = part[2:]
        key, sep, value = part.partition(": ")
        if not sep:  # a fragment without a key: keep it with the previous pair
            if out:
                last = next(reversed(out))
                out[last] += ", " + part
            else:
                out["Other"] = part
            continue
        out[key.strip()] = value.strip()
    return out


def _generic_cuts(text: str) -> list[int]:
    """Where :func:`split_system_string` cuts ``text`` (0 first): at each ", " followed by a
    known key, or, outside brackets, by any capitalised ``Key:`` and a space."""
    cuts = [0]
    depth = 0
    # the characters that matter, found in C: brackets (the depth) and ", " (a cut, maybe)
    for m in _CUT_CHARS_RE.finditer(text):
        ch, i = m.group(), m.start()
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif _KNOWN_KEY_RE.match(text, i + 2) or (depth == 0 and
                                                   _GENERIC_KEY_RE.match(text, i + 2)):
            # (matched in place: no copy of the rest of the text at every comma)
            cuts.append(i)
    return cuts


@functools.lru_cache(maxsize=1024)  # (files of one campaign repeat their systems)
def _system_pairs(text: str | None) -> tuple[tuple[str, str], ...]:
    """:func:`split_system_string` of ``text``, as pairs (made once per text)."""
    return tuple(split_system_string(text).items())


_NOT_KEY_RE = re.compile(r"[^a-z0-9]+")


@functools.lru_cache(maxsize=4096)  # the same few keys in every file
def _column_key(prefix: str, key: str) -> str:
    return prefix + _NOT_KEY_RE.sub("_", key.lower()).strip("_")


# --------------------------------------------------------------------------------------------
# composite.xml


def _load_xml(text: str, source: str) -> ET.Element:
    """Parse XML with defusedxml: entity declarations, external entities refused.

    A document without a ``<!DOCTYPE`` (every PTS result file) can declare no entity and
    reference no external one, so defusedxml's guards never fire: it is parsed by the C
    parser (defusedxml's is the pure-Python one, about twice as slow), unless its XML
    declaration names an encoding (the two parsers treat unusual encodings differently).
    """
    data = text.encode("utf-8")
    if b"<!DOCTYPE" not in data and not _names_encoding(data):
        try:
            return ET.fromstring(data)
        except ET.ParseError as exc:
            line = exc.position[0] if getattr(exc, "position", None) else None
            raise ParseError(source, line, "well-formed XML", found=str(exc)) from exc
    try:
        return DET.fromstring(data, forbid_dtd=False, forbid_entities=True,
                              forbid_external=True)
    except defusedxml.DefusedXmlException as exc:
        raise ParseError(source, "XML prolog", "a PTS result file without entity declarations "
                         "or external references (refused for safety)",
                         found=f"{type(exc).__name__}: {exc}") from exc
    except ET.ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise ParseError(source, line, "well-formed XML", found=str(exc)) from exc


def _names_encoding(data: bytes) -> bool:
    """Whether the first ``<?xml …?>`` of ``data`` (the XML declaration) names an encoding."""
    start = data.find(b"<?xml")
    if start < 0:
        return False
    end = data.find(b"?>", start)
    return b"encoding" in (data[start:] if end < 0 else data[start:end])


def _text(el: ET.Element | None, tag: str) -> str | None:
    if el is None:
        return None
    child = el.find(tag)
    if child is None or child.text is None:
        return None
    t = child.text.strip()
    return t or None


_SYSTEM_TAGS = ("Identifier", "Hardware", "Software", "TimeStamp", "TestClientVersion")
_RESULT_TAGS = ("Identifier", "Title", "AppVersion", "Arguments", "Description", "Scale",
                "Proportion", "DisplayFormat")
_ENTRY_TAGS = ("Identifier", "RawString", "JSON", "Value")


def _texts(el: ET.Element, tags: tuple[str, ...]) -> list[str | None]:
    """:func:`_text` of each tag: the first child's stripped text, None when missing or empty
    (one call per element, the children found in C)."""
    find = el.findtext
    return [(find(tag) or "").strip() or None for tag in tags]


def _parse_composite(root: ET.Element, source: str) -> tuple[list[_System], list[_Result], dict]:
    gen = root.find("Generated")
    info = {"title": _text(gen, "Title"), "client": _text(gen, "TestClient"),
            "last_modified": _text(gen, "LastModified")}
    systems = []
    pairs: dict = {}  # Hardware/Software string -> its pairs (systems repeat them)
    run_times: dict = {}  # an Entry JSON -> its test-run-times (entries repeat them)
    for i, sel in enumerate(root.findall("System"), 1):
        ident, hardware, software, stamp, client = _texts(sel, _SYSTEM_TAGS)
        if ident is None:
            raise ParseError(source, f"/PhoronixTestSuite/System[{i}]/Identifier",
                             "a system Identifier", found="nothing")
        for text in (hardware, software):
            if text not in pairs:
                pairs[text] = dict(_system_pairs(text))
        systems.append(_System(ident, pairs[hardware], pairs[software], stamp, client))
    results = []
    rels = root.findall("Result")
    for i, rel in enumerate(rels, 1):
        pos = f"/PhoronixTestSuite/Result[{i}]"
        ident, title, *fields = _texts(rel, _RESULT_TAGS)
        if title is None and ident is None:
            _results_entries(rels[:i - 1], results, source, run_times)  # (their errors first)
            raise ParseError(source, pos, "a Result with a Title or Identifier", found="neither")
        results.append(_Result(ident, title or ident, *fields, pos))
    _results_entries(rels, results, source, run_times)
    if not results and not systems:
        raise ParseError(source, "/PhoronixTestSuite", "System and Result elements",
                         found="neither")
    info["tool_version"] = _client_version(info["client"])
    return systems, results, info


def _composite_entries(rel: ET.Element, pos: str, source: str, memo: dict) -> list[_Entry]:
    """The Entries of a Result (``Data/Entry``, the Result at ``pos``): :func:`_results_entries`
    of it alone."""
    res = _Result(None, "", None, None, None, None, None, None, pos)
    _results_entries([rel], [res], source, memo)
    return res.entries


def _results_entries(rels: list[ET.Element], results: list[_Result], source: str,
                     memo: dict) -> None:
    """Set the entries of each of ``results`` (read from ``rels``): the Entries of each Result
    (``Data/Entry``), each child read as :func:`_texts` reads it, tag by tag over the entries
    of all results at once (found in C; 4 list comprehensions a file, not 4 a result: a
    campaign file's 6 results 0.11 -> 0.08 ms in a fresh process); a missing Identifier raises
    where the Entries read in order, result after result, would (after the JSON of those
    before it). ``memo``: the file's JSON texts read (to their test-run-times, never
    modified)."""
    eels_of = [[eel for data in rel.findall("Data") for eel in data.findall("Entry")]
               for rel in rels]
    eels = list(chain.from_iterable(eels_of))
    if not eels:
        for res in results:
            res.entries = []
        return
    positions = list(chain.from_iterable(
        _numbered(f"{res.position}/Data/Entry[", "]", len(of), 1) if of else ()
        for res, of in zip(results, eels_of, strict=True)))
    systems, raws, jss, values = (  # (a call of the method per entry: a map of a
        # methodcaller looks the method up each time, 7 -> 3.3 us a result of 9 entries)
        [eel.findtext(tag, "").strip() or None for eel in eels] for tag in _ENTRY_TAGS)
    upto = systems.index(None) if None in systems else len(eels)
    times = []
    for js, epos in zip(jss[:upto], positions, strict=False):
        rt = memo.get(js) if js else None
        if rt is None and js:
            rt = memo[js] = _run_times_json(js, epos, source)
        times.append(rt)
    if upto < len(eels):
        raise ParseError(source, f"{positions[upto]}/Identifier",
                         "the system Identifier of an Entry", found="nothing")
    entries = list(map(_new_entry, zip(systems, values, [r.split(":") if r else None
                                                         for r in raws],
                                       times, positions, strict=True)))
    k = 0
    for res, of in zip(results, eels_of, strict=True):
        res.entries = entries[k:k + len(of)]
        k += len(of)


# what PTS writes in an Entry's JSON: {"test-run-times":"30.46:30.73:30.46"}
_RUN_TIMES_JSON_RE = re.compile(r'\{"test-run-times":"([0-9.:]+)"\}')


def _run_times_json(js: str, epos: str, source: str) -> list[str] | None:
    """The ``test-run-times`` of an Entry's JSON (the common form read without a JSON parse)."""
    m = _RUN_TIMES_JSON_RE.fullmatch(js)
    if m is not None:
        return m.group(1).split(":")
    try:
        meta = json.loads(js)
    except (ValueError, RecursionError) as exc:  # also nesting, > 4,300 digits
        raise ParseError(source, f"{epos}/JSON", "a JSON object",
                         found=f"{type(exc).__name__}: {str(exc)[:60]}") from exc
    rt = meta.get("test-run-times") if isinstance(meta, dict) else None
    if isinstance(rt, str) and rt.strip():
        return rt.strip().split(":")
    return None


# --------------------------------------------------------------------------------------------
# composite.xml templates: a file whose text but its numbers was seen before


# the numbers of a composite.xml (and the title and date of the file), in texts XML takes as
# they are (no markup, no reference, no "]]>", no carriage return, only valid characters): a
# Value, RawString, TimeStamp or LastModified of digits, signs, points, colons, exponents and
# spaces; an Entry JSON of test-run-times; the Title that is the first child of a Generated
# (printable ASCII but "&", "<" and "]"). Groups: tag, its text; JSON; Generated's head, title
# (the "<" factored out: the scan looks for it alone, 5 times faster than three alternatives)
_NUMBER_TEXT = r"[-+.:0-9eE \t\n]*+"
_JSON_TEXT = r'\{"test-run-times":"[0-9.:]*+"\}'
_TITLE_TEXT = r"[\t\n -%'-;=-\\^-~]*+"
_FIELD_RE = re.compile(rf"<(?:(Value|RawString|TimeStamp|LastModified)>({_NUMBER_TEXT})</\1>"
                       rf"|JSON>({_JSON_TEXT})</JSON>"
                       rf"|(Generated>[ \t\n]*+<Title>)({_TITLE_TEXT})</Title>)")
# the texts of fields, by their tag (the same patterns)
_FIELD_TEXTS = {tag: re.compile(text).fullmatch for tag, text in (
    ("Value", _NUMBER_TEXT), ("RawString", _NUMBER_TEXT), ("TimeStamp", _NUMBER_TEXT),
    ("LastModified", _NUMBER_TEXT), ("JSON", _JSON_TEXT), ("Title", _TITLE_TEXT))}
_TEMPLATE_CHARS = 1 << 18  # (files up to 256 KiB; a hostile folder cannot grow it without end)


class _Template(NamedTuple):
    """What :func:`_parse_composite` gave for a file, and where each thing it read that may be
    a field (a System's TimeStamp, an Entry's Value, RawString or JSON, the LastModified and
    Title of Generated) is read among the fields of its text (in :data:`_FIELD_RE`): files
    with the same text but their fields give the same but what their fields stand for
    (:func:`_from_template`). ``slots``: (LastModified, Title, per system its TimeStamp, per
    result per entry its Value, RawString and JSON), each the field's place or None
    (:func:`_slots_of`)."""

    systems: list[_System]
    results: list[_Result]
    info: dict
    slots: tuple


_TEMPLATES: dict[tuple, _Template] = {}
_TEMPLATES_MAX = 32


# XML's white space (S): the characters a document may end with after its root element (and
# nothing else may end a document of a kept template: a comment or PI after the root keeps no
# template, and the root element ends with ">"), so a file that differs from a template's only
# by them there parses to the same tree (copies of a file with more or fewer trailing newlines)
_XML_SPACES = " \t\n\r"


def _template_fields(text: str) -> tuple[tuple, list[str]] | None:
    r"""(The text without its fields and the XML white space it ends with, as a key; the
    fields' texts), or None for a file too long to be kept.

    >>> _template_fields("<a><Value>1</Value></a>\n\r\t ")[0] == _template_fields(
    ...     "<a><Value>2</Value></a>")[0]
    True
    >>> _template_fields("<a></a>\x0b")[0] == _template_fields("<a></a>")[0]  # (no XML space)
    False
    """
    got = _template_parts(text)
    return None if got is None else (got[0], _parts_fields(got[1]))


def _template_parts(text: str) -> tuple[tuple, list] | None:
    """:func:`_template_fields`' key, and the parts of the text its regular expression split
    (field ``i``'s text is ``parts[_field_parts(key)[i]]``), or None."""
    if len(text) > _TEMPLATE_CHARS:
        return None
    parts = _FIELD_RE.split(text)
    parts[-1] = parts[-1].rstrip(_XML_SPACES)  # (what follows the root element: see above)
    return (*parts[::6], *parts[1::6], *parts[4::6]), parts


def _parts_fields(parts: list) -> list[str]:
    """The fields' texts of :func:`_template_parts`' parts (each match's one group of the three
    that took part: the number, the JSON or the title)."""
    return [content if tag is not None else json if json is not None else title
            for tag, content, json, title in zip(parts[1::6], parts[2::6], parts[3::6],
                                                 parts[5::6], strict=True)]


def _field_parts(key: tuple) -> list[int]:
    """Per field of a template ``key``, the place of its text in the parts of its files'
    texts (:func:`_template_parts`): a read without the list of the fields.

    >>> key, parts = _template_parts("<a><Value>1</Value><JSON>{}</JSON><Value>2</Value></a>")
    >>> [parts[k] for k in _field_parts(key)] == _template_fields("<a><Value>1</Value>"
    ...     "<JSON>{}</JSON><Value>2</Value></a>")[1]
    True
    """
    m = (len(key) - 1) // 3  # (m + 1 pieces, m tags, m heads)
    return [6 * i + 2 if tag is not None else 6 * i + 3 if head is None else 6 * i + 5
            for i, (tag, head) in enumerate(zip(key[m + 1:2 * m + 1], key[2 * m + 1:],
                                                strict=True))]


def _keep_template(text: str, fields: tuple, root: ET.Element, systems: list[_System],
                   results: list[_Result], info: dict) -> None:
    """Keep the template of a file :func:`_parse_composite` read (``root`` its tree), when
    every field of its text is an element of the tree (:func:`_field_elements`)."""
    elements = _field_elements(text, fields, root)
    if elements is not None:
        remember(_TEMPLATES, fields[0], _Template(systems, results, info,
                                                  _slots_of(elements, root, systems, results)),
                 _TEMPLATES_MAX)


def _field_elements(text: str, fields: tuple, root: ET.Element) -> list[ET.Element] | None:
    """The elements of the tree whose texts are the fields, in order, when every field is the
    whole text of an element: no comment, CDATA section or processing instruction after the
    prolog (so that every field is an element's whole text), none in the prolog, and the tree's
    elements whose text would be a field as many as the fields (an element :data:`_FIELD_RE`
    does not take, ``<Value >``, is one more); else None.

    The elements of the fields' tags without attributes or children (a Title: a Generated's
    first child) whose texts are the fields' are those whose texts would be fields (each
    field's text is taken by :data:`_FIELD_TEXTS`): their texts are matched against the
    patterns only when they are not the fields' texts."""
    key, texts = fields
    prolog = 0  # (the prolog's end, as _xml_body finds it)
    while (m := _PROLOG_RE.match(text, _SPACES_RE.match(text, prolog).end())) is not None:
        prolog = m.end()
    if len(key[0]) < prolog or _MARKUP_DECL_RE.search(text, prolog) is not None:
        return None
    titles = {id(gen[0]) for gen in root.iter("Generated") if len(gen) and not gen.attrib
              and gen[0].tag == "Title" and not (gen.text or "").strip(" \t\n")}
    elements = [el for el in root.iter() if (el.tag in _FIELD_TEXTS and (
        el.tag != "Title" or id(el) in titles) and not el.attrib and not len(el))]
    have = [el.text or "" for el in elements]
    if have == texts:
        return elements
    # (one that is no field, or another text)
    return _paired(elements, have, texts, _field_tags(key))


def _paired(elements: list[ET.Element], have: list[str], texts: list[str],
            tags: list[str]) -> list[ET.Element] | None:
    """The ``elements`` (their texts ``have``) whose texts the patterns of their tags take,
    when they are the fields (``texts``, of the elements ``tags``) in order; else None.

    An element whose text is the next field's and whose tag is that field's is taken without
    its pattern (the field's text is one the pattern of its tag took); only the others are
    matched (the System JSONs of a campaign file, 9 of 182: 38 -> 20 us, no second list)."""
    out: list[ET.Element] = []
    i, m = 0, len(texts)
    for el, text in zip(elements, have, strict=True):
        if i < m and text == texts[i] and el.tag == tags[i]:
            out.append(el)
            i += 1
        elif _FIELD_TEXTS[el.tag](text) is not None:
            if i == m or text != texts[i]:
                return None
            out.append(el)
            i += 1
    return out if i == m else None


def _field_tags(key: tuple) -> list[str]:
    """Per field of a template ``key``, the tag of the element its text is the text of (its
    tag, ``JSON`` or ``Title``: a key of :data:`_FIELD_TEXTS`).

    >>> _field_tags(_template_parts("<a><Value>1</Value><JSON>{}</JSON>"
    ...     "<Generated><Title>t</Title></Generated></a>")[0])
    ['Value', 'Title']
    """
    m = (len(key) - 1) // 3  # (m + 1 pieces, m tags, m heads: _field_parts)
    return [tag if tag is not None else "JSON" if head is None else "Title"
            for tag, head in zip(key[m + 1:2 * m + 1], key[2 * m + 1:], strict=True)]


_MARKUP_DECL_RE = re.compile(r"<[!?]")  # a comment, CDATA section, DOCTYPE or PI starts


def _slots_of(elements: list[ET.Element], root: ET.Element, systems: list[_System],
              results: list[_Result]) -> tuple:
    """Where (the field's place, or None when no field stands for it) each thing
    :func:`_parse_composite` reads of ``root`` that may be a field is read: (LastModified,
    Title, per system its TimeStamp, per result per entry its Value, RawString and JSON), as
    :func:`_from_template` reads them; ``elements``: the fields' elements
    (:func:`_field_elements`). Each element read is looked up among the fields' by its id
    (one pass; no table of roles by element first)."""
    place = {id(el): i for i, el in enumerate(elements)}
    get = place.get
    gen = root.find("Generated")
    last = title = None
    if gen is not None:
        last, title = get(id(gen.find("LastModified"))), get(id(gen.find("Title")))
    stamps = [get(id(sel.find("TimeStamp"))) for sel in root.findall("System")]
    cols = []
    for rel in root.findall("Result"):
        eels = [eel for data in rel.findall("Data") for eel in data.findall("Entry")]
        cols.append(tuple([get(id(eel.find(tag))) for eel in eels]
                          for tag in ("Value", "RawString", "JSON")))
    return last, title, stamps, cols


def _from_template(key: tuple, fields: list[str]) -> tuple | None:
    """What :func:`_parse_composite` gives for a file of a kept template (None when none is
    kept): the template's systems and results with the file's fields where they stand."""
    tpl = _TEMPLATES.get(key)
    if tpl is None:
        return None
    texts = [t.strip() or None for t in fields]
    last, title, stamp_at, cols = tpl.slots
    info = dict(tpl.info)
    if last is not None:
        info["last_modified"] = texts[last]
    if title is not None:
        info["title"] = texts[title]
    systems = [s if i is None else _System(s.identifier, s.hardware, s.software, texts[i],
                                           s.client_version)
               for s, i in zip(tpl.systems, stamp_at, strict=True)]
    memo: dict = {}  # a JSON text -> its test-run-times
    results = []
    for res, at in zip(tpl.results, cols, strict=True):
        new = _Result(res.identifier, res.title, res.app_version, res.arguments,
                      res.description, res.scale, res.proportion, res.display_format,
                      res.position, hash=res.hash)
        new.entries = _entries_from(res.entries, at, texts, memo)
        results.append(new)
    return systems, results, info


def _entries_from(entries: list[_Entry], at: tuple, texts: list[str | None],
                  memo: dict) -> list[_Entry]:
    """The template's ``entries`` with the file's (stripped) field ``texts`` where ``at`` says
    (their Values, RawStrings, JSONs: :func:`_slots_of`); ``memo``: JSON text -> test-run-times."""
    values = [e.value if i is None else texts[i] for e, i in zip(entries, at[0], strict=True)]
    raws = [e.raw if i is None else texts[i].split(":") if texts[i] else None
            for e, i in zip(entries, at[1], strict=True)]
    times = []
    for e, i in zip(entries, at[2], strict=True):
        if i is None:
            times.append(e.run_times)
            continue
        text = texts[i]
        rt = memo.get(text) if text else None
        if rt is None and text:  # (a JSON field is a valid object: never raises)
            rt = memo[text] = _run_times_json(text, "", "")
        times.append(rt)
    return list(map(_new_entry, zip([e.system for e in entries], values, raws, times,
                                    [e.position for e in entries], strict=True)))


# the first "1.2.3"-like version (after a "v"): possessive, and never starting inside a run of
# digits (a match from there fails where the run's first digit failed), so that a TestClient of
# 20,000 digits is searched in linear time (it took 3.9 s)
_CLIENT_VERSION_RE = re.compile(r"v?+(?<!\d)(\d++(?:\.\d++)++\w*+)")


def _client_version(client: str | None) -> str | None:
    if not client:
        return None
    m = _CLIENT_VERSION_RE.search(client)
    return m.group(1) if m else client


def _parse_pre3(root: ET.Element, source: str) -> tuple[list[_System], list[_Result], dict]:
    """PTS 0.x–2.x: Generated/{TimeStamp,Version}; System/{Hardware, Software,
    Author, TestDate, TestNotes, Version, AssociatedIdentifiers}; Benchmark/{Name, Version,
    ProfileVersion, TestName, TestArguments, Attributes, Scale, Proportion, ResultFormat,
    Results/Group/Entry/{Identifier, Value, RawString}}."""
    gen = root.find("Generated")
    info = {"title": _text(root.find("Suite"), "Title"),
            "tool_version": _text(gen, "Version"),
            "last_modified": _text(gen, "TimeStamp")}
    systems = []
    for i, sel in enumerate(root.findall("System"), 1):
        ident = _text(sel, "AssociatedIdentifiers")
        if ident is None:
            raise ParseError(source, f"/PhoronixTestSuite/System[{i}]/AssociatedIdentifiers",
                             "the system's AssociatedIdentifiers", found="nothing")
        systems.append(_System(ident, split_system_string(_text(sel, "Hardware")),
                               split_system_string(_text(sel, "Software")),
                               _text(sel, "TestDate"),
                               _text(sel, "Version") or info["tool_version"]))
    results = []
    for i, bel in enumerate(root.findall("Benchmark"), 1):
        pos = f"/PhoronixTestSuite/Benchmark[{i}]"
        title = _text(bel, "Name") or _text(bel, "TestName")
        if title is None:
            raise ParseError(source, pos, "a Benchmark with a Name or TestName", found="neither")
        res = _Result(_text(bel, "TestName"), title, _text(bel, "Version"),
                      _text(bel, "TestArguments"), _text(bel, "Attributes"), _text(bel, "Scale"),
                      _text(bel, "Proportion"), _text(bel, "ResultFormat"), pos)
        for g, gel in enumerate(bel.findall("Results/Group"), 1):
            for j, eel in enumerate(gel.findall("Entry"), 1):
                epos = f"{pos}/Results/Group[{g}]/Entry[{j}]"
                system = _text(eel, "Identifier")
                if system is None:
                    raise ParseError(source, f"{epos}/Identifier",
                                     "the system Identifier of an Entry", found="nothing")
                raw = _text(eel, "RawString")
                res.entries.append(_Entry(system, _text(eel, "Value"),
                                          raw.split(":") if raw else None, None, epos))
        results.append(res)
    if not results and not systems:
        raise ParseError(source, "/PhoronixTestSuite", "System and Benchmark elements",
                         found="neither")
    return systems, results, info


# --------------------------------------------------------------------------------------------
# exports


# _Result fields after the title, in order, by their key in each format
_RESULT_FIELDS_JSON = ("app_version", "arguments", "description", "scale", "proportion",
                       "display_format")


def _json_doc(text: str, source: str) -> dict:
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:  # also nesting, > 4,300 digits
        raise ParseError(source, getattr(exc, "lineno", None) or "$", "PTS result-file-to-json output",
                         found=f"{type(exc).__name__}: {exc}") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("systems"), dict) or not isinstance(
            doc.get("results"), dict):
        raise ParseError(source, "$", "an object with 'systems' and 'results' objects",
                         found=type(doc).__name__)
    return doc


def _json_system(sid: str, s, source: str) -> _System:
    path = f"$.systems[{json.dumps(sid)}]"
    if not isinstance(s, dict):
        raise ParseError(source, path, "a system object", found=type(s).__name__)
    hw = s.get("hardware") or {}
    sw = s.get("software") or {}
    if not isinstance(hw, dict) or not isinstance(sw, dict):
        raise ParseError(source, path, "hardware/software objects", found=str(hw)[:60])
    return _System(str(s.get("identifier") or sid), {str(k): str(v) for k, v in hw.items()},
                   {str(k): str(v) for k, v in sw.items()}, _str(s.get("timestamp")),
                   _str(s.get("client_version")))


def _json_list(e: dict, key: str, epos: str, source: str) -> list[str] | None:
    """``raw_values``/``test_run_times`` of an entry as strings (null runs are "": non-numeric,
    skipped and noted)."""
    v = e.get(key)
    if v is not None and not isinstance(v, list):
        raise ParseError(source, f"{epos}.{key}", "a list", found=type(v).__name__)
    return [_str(x) or "" for x in v] if v else None


def _json_result(h: str, r, source: str) -> _Result:
    path = f"$.results[{json.dumps(h)}]"
    if not isinstance(r, dict) or not isinstance(r.get("results"), dict):
        raise ParseError(source, path, "a result object with 'results'", found=str(r)[:60])
    title = r.get("title") or r.get("identifier")
    if not title:
        raise ParseError(source, path, "a title or identifier", found="neither")
    res = _Result(_str(r.get("identifier")), str(title),
                  *(_str(r.get(k)) for k in _RESULT_FIELDS_JSON), path, hash=str(h))
    for sid, e in r["results"].items():
        epos = f"{path}.results[{json.dumps(sid)}]"
        if not isinstance(e, dict):
            raise ParseError(source, epos, "an entry object", found=type(e).__name__)
        raw = _json_list(e, "raw_values", epos, source)
        times = _json_list(e, "test_run_times", epos, source)
        res.entries.append(_Entry(str(sid), _str(e.get("value")), raw, times, epos))
    return res


def _parse_json_export(text: str, source: str) -> tuple[list[_System], list[_Result], dict]:
    doc = _json_doc(text, source)
    info = {"title": doc.get("title"), "last_modified": doc.get("last_modified"),
            "tool_version": None}
    try:
        systems = [_json_system(sid, s, source) for sid, s in doc["systems"].items()]
        results = [_json_result(h, r, source) for h, r in doc["results"].items()]
    except AttributeError as exc:
        raise ParseError(source, "$", "PTS result-file-to-json structure",
                         found=str(exc)) from exc
    if systems:
        info["tool_version"] = systems[0].client_version
    return systems, results, info


def _str(v) -> str | None:
    if v is None:
        return None
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    s = str(v).strip()
    return s or None


_CSV_ROW_RE = re.compile(r"^(?P<head>.*) \((?P<scale>[^()]*)\)$", re.S)


def _csv_rows(text: str, source: str) -> list[tuple[int, list[str]]]:
    out = []
    try:
        reader = csv.reader(io.StringIO(text))
        for row in reader:
            out.append((reader.line_num, row))
    except csv.Error as exc:
        raise ParseError(source, reader.line_num, "CSV", found=str(exc)) from exc
    return out


def _split_title(head: str) -> tuple[str, str | None]:
    title, sep, desc = head.partition(" - ")
    return title.strip(), (desc.strip() or None) if sep else None


def _csv_result(line: int, row: list[str], ids: list[str]) -> _Result | None:
    """A result row ``"<Title> - <Description> (<Scale>)",HIB|LIB,v1,v2``, else None."""
    m = _CSV_ROW_RE.match(row[0]) if len(row) >= 2 and row[1] in _CSV_PROPORTIONS else None
    if m is None:
        return None
    test, desc = _split_title(m.group("head"))
    res = _Result(None, test, None, None, desc, m.group("scale").strip(), row[1] or None, None,
                  f"line {line}")
    for k, sid in enumerate(ids):
        cell = row[k + 2].strip() if k + 2 < len(row) else ""
        if cell:
            res.entries.append(_Entry(sid, cell, None, None, f"line {line}, column {k + 3}"))
    return res


_CSV_PROPORTIONS = ("HIB", "LIB", "NIB", "")


def _csv_systems(ids: list[str], system_rows: dict[str, list[str]]) -> list[_System]:
    """The systems of the header row, with the system table's Processor/OS/… rows."""
    systems = []
    for k, sid in enumerate(ids):
        hw, sw = {}, {}
        for key, vals in system_rows.items():
            v = vals[k] if k < len(vals) else ""
            if v:
                (hw if key in _HW_KEYS else sw)[key] = v
        systems.append(_System(sid, hw, sw))
    return systems


def _parse_csv_export(text: str, source: str) -> tuple[list[_System], list[_Result], dict]:
    rows = _csv_rows(text, source)
    title = next((c.strip() for c in rows[0][1] if c.strip()), None) if rows else None
    info = {"title": title, "tool_version": None, "last_modified": None}
    ids: list[str] | None = None
    system_rows: dict[str, list[str]] = {}
    results = []
    for line, row in rows:
        if not any(c.strip() for c in row):
            continue
        if row[0].strip() == "" and len(row) > 2 and row[1] == "":
            ids = [c.strip() for c in row[2:]]
            continue
        if ids is None:
            continue
        res = _csv_result(line, row, ids)
        if res is not None:
            results.append(res)
        elif len(row) >= 3 and row[1] == "":
            system_rows[row[0].strip()] = [c.strip() for c in row[2:]]
        else:
            raise ParseError(source, line, "a result row '\"<title> (<scale>)\",HIB|LIB,values'",
                             found=",".join(row))
    if ids is None:
        raise ParseError(source, None, "the system header row ' ,,\"<identifier>\",…'",
                         found="none")
    return _csv_systems(ids, system_rows), results, info


_HW_KEYS = {"Processor", "Motherboard", "Chipset", "Memory", "System Memory", "Disk", "Hard Disk",
            "Graphics", "Audio", "Monitor", "Network", "NPU"}
_VERSION_TAIL_RE = re.compile(r"^(?P<title>.*\S)\s+(?P<ver>v?\d+(?:\.\d+)+[\w.\-]*)$")


def _parse_raw_csv_export(text: str, source: str) -> tuple[list[_System], list[_Result], dict]:
    rows = _csv_rows(text, source)
    title = next((c.strip() for c in rows[0][1] if c.strip()), None) if rows else None
    info = {"title": title, "tool_version": None, "last_modified": None}
    results: list[_Result] = []
    current: _Result | None = None
    pending: tuple[int, str] | None = None
    seen: dict[str, None] = {}
    for line, row in rows[1:]:
        if not row or not any(c.strip() for c in row):
            continue
        first = row[0].strip()
        if first in ("Higher Results Are Better", "Lower Results Are Better"):
            if pending is None:
                raise ParseError(source, line, "a result title line before the direction",
                                 found=first)
            pline, head = pending
            test, desc = _split_title(head)
            m = _VERSION_TAIL_RE.match(test)
            ver = None
            if m:
                test, ver = m.group("title"), m.group("ver")
            current = _Result(None, test, ver, None, desc, None,
                              "HIB" if first.startswith("Higher") else "LIB", None,
                              f"line {pline}")
            results.append(current)
            pending = None
            continue
        if len(row) <= 2 and (len(row) == 1 or row[1].strip() == ""):
            pending = (line, first)
            continue
        if current is None:
            raise ParseError(source, line, "a result block before the values", found=first)
        values = [c.strip() for c in row[1:] if c.strip()]
        current.entries.append(_Entry(first, None, values, None, f"line {line}"))
        seen[first] = None
    if not results:
        raise ParseError(source, None, "result blocks", found="none")
    return [_System(s) for s in seen], results, info


# --------------------------------------------------------------------------------------------
# records


def _num(text: str | None) -> float | None:
    if text is None:
        return None
    t = text.strip()
    if not _NUM_RE.match(t):
        return None
    v = float(t)
    return v if math.isfinite(v) else None


# the characters of plain ASCII numbers and of the ":" joining them: a text of only these is
# one for float() exactly when it is one for _NUM_RE (no space, underscore, "inf" or "nan" is
# made of them; float's grammar of digits, point, exponent and signs is _NUM_RE's), so a pass
# of this class over the joined texts (in C, three times as fast as a match of the grammar
# per number) and float() of each stand for the grammar's match
_NUM_CHARS_RE = re.compile(r"[-+.:0-9eE]*+")


def _bulk_nums(texts: list[str]) -> list[float] | None:
    """``[_num(t) for t in texts]`` when every text is a plain ASCII number (the usual case:
    checked by one match over them all, converted at once), else None.

    Converted at once as one JSON array by msgspec (C, correctly rounded as ``float()`` is: the
    same doubles; 216 numbers of a composite.xml 43 -> 10 us), which takes JSON's spelling of
    a number only (no ``+``, no leading or trailing point, no leading zero) and refuses one
    beyond a float; ``float()`` of each for anything it refuses. Of these characters (no
    comma, no space) each text is one element of the array or none.

    >>> _bulk_nums(["1.5", "-0", "2e3", "12"]), _bulk_nums(["+.5", "00.5", "1."])
    ([1.5, -0.0, 2000.0, 12.0], [0.5, 0.5, 1.0])
    >>> _bulk_nums(["1e400"]), _bulk_nums(["1:2"]), _bulk_nums([""]), _bulk_nums([])
    (None, None, None, None)
    """
    if texts and _NUM_CHARS_RE.fullmatch(joined := ":".join(texts)):
        if joined.count(":") == len(texts) - 1 and "-0" not in texts:  # (no ":" of a
            # text's own; JSON's "-0" is an int, 0, where float() gives -0.0)
            try:
                values = _JSON_FLOATS(f"[{joined.replace(':', ',')}]")
            except msgspec.DecodeError:  # (its ValidationError too)
                values = None
            if values is not None and len(values) == len(texts):  # (a lone "": no element)
                return values
        try:
            values = list(map(float, texts))
        except ValueError:  # not a number ("1e", "."), or a ":" of its own (JSON raw_values)
            return None
        if math.inf not in values and -math.inf not in values:
            return values
    return None


_JSON_FLOATS = msgspec.json.Decoder(list[float]).decode


def _nums(texts: list[str]) -> list[float | None]:
    """``[_num(t) for t in texts]``, plain ASCII numbers (the usual case) converted at once."""
    values = _bulk_nums(texts)
    return values if values is not None else [_num(t) for t in texts]


def _scaled(values: list[float], factor: float, signed: bool) -> list[float] | None:
    """``values`` x ``factor`` when :func:`~ebsstats.io._common.number` accepts every product
    (checked on the smallest and largest at once), else None: then ``number`` is asked value by
    value, and names the one it refuses."""
    out = [v * factor for v in values]
    lo = min(out)
    # every product finite first: min/max over a NaN depend on where it stands
    return out if all(map(math.isfinite, out)) and (signed or lo >= 0) else None


# the patterns of the readings below, compiled with the module (not in a user's first read)
_FIO_NAME_RE = re.compile(r"^fio(?:-[a-z][\w]*)*-\d+(?:\.\d+)*$")
_DESCRIPTION_CUT_RE = re.compile(r" - (?=[A-Z][\w /\-]*: )")


def _is_fio(res: _Result) -> bool:
    if res.identifier:
        name = res.identifier.rsplit("/", 1)[-1]
        return _FIO_NAME_RE.match(name) is not None or name == "fio"
    return res.title.startswith("Flexible IO Tester")


def _description_pairs(desc: str | None) -> dict[str, str]:
    if not desc:
        return {}
    out = {}
    for part in _DESCRIPTION_CUT_RE.split(desc):
        k, sep, v = part.partition(": ")
        if sep:
            out[k.strip().lower()] = v.strip()
    return out


def _workload(res: _Result) -> tuple[str | None, str | None, int | None, int | None]:
    return _description_workload(_profile_name(res.identifier), res.description)


def _profile_name(identifier: str | None) -> str | None:
    """A test profile's name without its repository and version: ``pts/tiobench-1.2.0`` ->
    ``tiobench``.

    >>> _profile_name("pts/tiobench-1.2.0"), _profile_name("local/fio-sys"), _profile_name(None)
    ('tiobench', 'fio-sys', None)
    """
    if not identifier:
        return None
    return _PROFILE_VERSION_RE.sub("", identifier.rsplit("/", 1)[-1]).lower()


_PROFILE_VERSION_RE = re.compile(r"-\d+(?:\.\d+)*$")

# What a profile's test option names where the usual words (_TYPES) do not say it: tiobench's
# "Read" and "Write" are tiotest's sequential tests (its "Random Read"/"Random Write" are
# _TYPES'), iozone's "Disk Test" is -i0 (sequential write) or -i1 (sequential read); both
# from the profiles' test-definition.xml (pts/tiobench-1.3.1, pts/iozone-1.9.6)
_PROFILE_TYPES = {
    "tiobench": {"read": ("seqread", "read"), "write": ("seqwrite", "write")},
    "iozone": {"read performance": ("seqread", "read"),
               "write performance": ("seqwrite", "write")},
}
# the options that count concurrent workers (the threads column: jobs, threads or clients):
# pts/fio's Job Count (numjobs), tiobench's Thread Count, dbench's Client Count
_THREAD_KEYS = ("job count", "thread count", "client count", "threads")
_COUNT_RE = re.compile(r"(?<![\w.])(\d+) (?:Clients?|Threads?)\b")
_BLOCK_KEYS = ("block size", "record size")  # (iozone's record size: its -r, an I/O's size)


@functools.lru_cache(maxsize=1024)  # (an MB/s result and its IOPS sibling share one)
def _description_workload(profile: str | None, desc: str | None
                          ) -> tuple[str | None, str | None, int | None, int | None]:
    """(workload, op, block size, threads) of a result's Description, read as the profile
    ``profile`` (:func:`_profile_name`) writes it.

    >>> _description_workload("tiobench", "Test: Read - Size Per Thread: 32MB - Thread Count: 8")
    ('seqread', 'read', None, 8)
    >>> _description_workload("fio", "Type: Random Read - Block Size: 4KB - Job Count: 1")
    ('randread', 'read', 4096, 1)
    >>> _description_workload("other", "Test: Read")
    (None, None, None, None)
    >>> _description_workload("dbench", "12 Clients")
    (None, None, None, 12)
    """
    pairs = _description_pairs(desc)
    kind = pairs.get("type") or pairs.get("test mode") or pairs.get("test") or pairs.get(
        "disk test")
    workload = op = None
    if kind:
        kind = kind.lower()
        workload, op = _TYPES.get(kind) or _PROFILE_TYPES.get(profile, {}).get(
            kind, (None, None))
    bs = None
    size = next((pairs[k] for k in _BLOCK_KEYS if k in pairs), None)
    if size is not None:
        try:
            bs = int(units.binary_size(size))
        except (ValueError, OverflowError):
            bs = None
        if bs is not None and not 0 < bs < 2**63:
            bs = None  # like any block size that is not one
    threads = next((pairs[k] for k in _THREAD_KEYS if k in pairs), None)
    if threads is None and desc and (m := _COUNT_RE.search(desc)):  # "12 Clients" (dbench
        threads = m.group(1)  # 1.0.1), "4 Threads" (fs-mark)
    if threads is not None:
        threads = (int(threads) if threads.isdecimal() and len(threads) <= 10
                   and 0 < int(threads) < 2**31 else None)
    return workload, op, bs, threads


_STAMPS: dict[tuple, pd.Timestamp] = {}  # (TimeStamp text, tz) -> its time (re-reads repeat)
_STAMPS_MAX = 4096  # (a hostile folder cannot grow it without end)


def _tstamp(text: str | None, tz: str | None, notes: list[str], where: str):
    """The time of a TimeStamp ``text`` (local time of ``tz``, else UTC) in UTC; None, noted in
    ``notes`` (of the file ``where``), when it is not one. A time read once is kept (never one
    that gave a note)."""
    if not text:
        return None
    got = _STAMPS.get((text, tz))
    if got is None:
        before = len(notes)
        got = _time_of(text, tz, notes, where)
        if got is not None and len(notes) == before:
            remember(_STAMPS, (text, tz), got, _STAMPS_MAX)
    return got


def _time_of(text: str, tz: str | None, notes: list[str], where: str):
    """:func:`_tstamp`, read."""
    t = text.strip()
    if not _TS_RE.match(t):
        notes.append(f"{where}: timestamp {t!r} not in 'YYYY-MM-DD HH:MM:SS' form; left empty")
        return None
    try:  # (no tz: read as UTC at once, what tz_localize("UTC") of the naive time gives)
        ts = pd.Timestamp(t, tz=None if tz else "UTC")
    except ValueError:  # 2026-13-45: the right form, not a date
        notes.append(f"{where}: timestamp {t!r} is not a date; left empty")
        return None
    if tz:
        ts = ts.tz_localize(tz, ambiguous="NaT", nonexistent="NaT")
        if pd.isna(ts):
            notes.append(f"{where}: local time {t!r} does not exist or is ambiguous in {tz}")
            return None
        return ts.tz_convert("UTC")
    return ts


def _comparison_hash(res: _Result, scale: str | None) -> str | None:
    if not res.identifier:
        return None
    tp = res.identifier
    if "." in tp:
        tp = tp[: tp.rfind(".")]
    parts = [tp, (res.arguments or "").strip(), (res.description or "").strip(),
             (res.app_version or "").strip(), (scale or "").strip()]
    return hashlib.sha1(",".join(parts).encode(), usedforsecurity=False).hexdigest()


_LONGEST_PATH = 32767  # characters of the longest path any system opens (Windows' long paths)


class _TestLogs:
    """The test-logs folder of one result file: for a result and a system, run number
    (1-based) -> time PTS logged it, from ``test-logs/<hash>/<system>.log`` (never a log outside
    the folder). What does not change between entries is found once: the folder's real path,
    its names, a result's hashes, a log already read (with the notes it gave)."""

    def __init__(self, log_dir: Path):
        self.log_dir = log_dir
        self.root: Path | None = None  # log_dir.resolve(), once
        self.root_error = False  # ... which raised (then no log is inside it)
        try:  # the names in the folder (a hash not among them has no log), and which of them
            # are directories, not links (a log in one of those is inside the folder)
            with os.scandir(log_dir) as it:
                entries = list(it)
            self.names: set[str] | None = {e.name for e in entries}
            self.dirs: set[str] = {e.name for e in entries if e.is_dir(follow_symlinks=False)}
        except (OSError, ValueError):
            self.names, self.dirs = None, set()
        self.hashes: dict[int, list[str]] = {}  # id of a result -> the hashes to try
        self.read: dict[tuple[str, str], tuple[dict, list[str]]] = {}  # (hash, system) ->

    def _inside(self, path: Path) -> bool:
        resolved = path.resolve()
        if self.root is None and not self.root_error:
            try:
                self.root = self.log_dir.resolve()
            except (OSError, ValueError):
                self.root_error = True
        return not self.root_error and resolved.is_relative_to(self.root)

    def times(self, res: _Result, system: str, tz: str | None,
              notes: list[str]) -> dict[int, pd.Timestamp]:
        hashes = self.hashes.get(id(res))
        if hashes is None:
            hashes = self.hashes[id(res)] = [
                h for h in (res.hash, _comparison_hash(res, res.scale), _comparison_hash(res, ""))
                if h]
        for h in hashes:
            if self.names is not None and h not in self.names and h.isascii() and h.isalnum():
                continue  # (a plain name that is not in the folder: nothing under it)
            done = self.read.get((h, system))
            if done is not None:  # read before: the same times, and the same notes again
                notes.extend(done[1])
                return done[0]
            path = self._log_path(h, system)
            if path is not None:
                before = len(notes)
                out = self._parse_log(path, system, tz, notes)
                self.read[h, system] = (out, notes[before:])
                return out
        return {}

    def _log_path(self, h: str, system: str) -> Path | None:
        """The test log of ``system`` under the hash ``h``: ``<system>.log``, else the same
        compressed (``.log.gz``, ``.bz2``, ``.xz``: a folder gzipped whole); None if none."""
        for sfx in ("", *COMPRESSED_SUFFIXES):
            path = self.log_dir / h / f"{system}.log{sfx}"
            found = self._plain_log(h, system, path)
            if found is None:
                try:  # names come from the file: never outside log_dir, never raising on long
                    found = (len(str(path)) <= _LONGEST_PATH  # names (a longer one is no
                             and self._inside(path) and path.is_file())  # file: resolving
                    # its components one by one took 20 s for a name of 200,000 slashes)
                except (OSError, ValueError):
                    found = False
            if found:
                return path
        return None

    def _plain_log(self, h: str, system: str, path: Path) -> bool | None:
        """Whether ``path`` is a log inside the folder, known without resolving it: a plain
        directory (no link) of the folder holding a regular file (no link) of a plain name is
        inside it; None when that cannot be said so (then the path is resolved)."""
        if h not in self.dirs or "/" in system or "\x00" in system or os.sep in system:
            return None
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            found = False  # (nothing there: is_file would say False)
        except (OSError, ValueError):
            return None
        else:
            if not stat.S_ISREG(st.st_mode):
                return None
            found = True
        if self.root is None and not self.root_error:
            try:
                self.root = self.log_dir.resolve()
            except (OSError, ValueError):
                self.root_error = True
        return found and not self.root_error

    @staticmethod
    def _parse_log(path: Path, system: str, tz: str | None,
                   notes: list[str]) -> dict[int, pd.Timestamp]:
        try:  # (the first 64 MiB, of what it holds when compressed)
            text = read_head(path, 64 * 1024 * 1024).decode("utf-8", errors="replace")
        except OSError:
            return {}
        out = {}
        for m in _LOG_HEADER_RE.finditer(text):
            if m.group("id").strip() == system:
                ts = _tstamp(m.group("ts"), tz, notes, str(path))
                if ts is not None:
                    out[int(m.group("n"))] = ts
        return out


# Scales that are rates or latencies, onto the canonical metric and unit; "MB/s" is decided per
# entry by _mb_basis_of. Latency scales only for storage I/O profiles (fio, sysbench file I/O):
# elsewhere a time in ms is not an I/O latency (a frame time, a compile time) and stays a score.
_LATENCY_SCALES = {"MS": 1e-3, "MILLISECONDS": 1e-3, "US": 1e-6, "\u00b5S": 1e-6,
                   "MICROSECONDS": 1e-6}


def _is_storage_io(res: _Result) -> bool:
    """fio profiles, and sysbench's file I/O profile (whose ms result is its mean latency)."""
    text = f"{res.identifier or ''} {res.title or ''}".lower()
    return _is_fio(res) or ("sysbench" in text and ("fileio" in text or "file i/o" in text))


def _canonical(res: _Result, fmt: str, fio: bool) -> tuple[str, str, float | None]:
    """(metric, unit, latency factor to seconds or None) of a result, from its Scale."""
    scale = (res.scale or "").strip()
    if fmt == "raw csv export":
        return "score", "unknown", None
    if _byte_rate(scale) or _rate_prefix(scale):  # (MB/s, MiB/sec, Mbyte/s, GB/s, byte/s...)
        return "bandwidth", "B/s", None
    up = scale.upper()
    if up == "IOPS":
        return "iops", "IO/s", None
    if up in _LATENCY_SCALES and _is_storage_io(res):
        return "lat_mean", "s", _LATENCY_SCALES[up]
    return "score", scale if scale else "unknown", None


def _mean_value(entry: _Entry) -> float | None:
    """An entry's Value, else the mean of its runs; None when not numeric."""
    v = _num(entry.value)
    if v is None and entry.raw:
        vals = [_num(x) for x in entry.raw]
        v = sum(vals) / len(vals) if all(x is not None for x in vals) else None
    return v


def _options(res: _Result) -> tuple:
    return res.identifier, res.title, res.arguments, res.description


def _iops_sibling(res: _Result, results: list[_Result]) -> _Result | None:
    """The IOPS result with the same options (what an MB/s figure is checked against)."""
    key = _options(res)
    return next((r for r in results if r is not res and (r.scale or "").upper() == "IOPS"
                 and _options(r) == key), None)


def _mb_checked(mbps: float | None, iops: float | None, bs: int | None
                ) -> tuple[float, str] | None:
    """(factor, basis) of an MB/s figure checked against IOPS x block size; None if unchecked."""
    if not (bs and mbps and iops and mbps > 0 and iops > 0):
        return None
    expected = iops * bs
    r_mib, r_mb = mbps * _MIB / expected, mbps * _MB / expected
    if _CLOSE_LO < r_mib < _CLOSE_HI:  # (the usual case: decided without the logs below)
        return _MIB_CHECKED
    if _CLOSE_LO < r_mb < _CLOSE_HI:
        return _MB_CHECKED
    if not (0 < r_mib < math.inf and 0 < r_mb < math.inf):
        return None
    d_mib, d_mb = abs(math.log(r_mib)), abs(math.log(r_mb))
    if d_mib <= d_mb:  # the closer of the two (MiB on a tie)
        if d_mib < 0.018:
            return _MIB_CHECKED
    elif d_mb < 0.018:
        return _MB_CHECKED
    return _MIB, "MiB/s assumed (IOPS x block size check inconclusive)"


# an MB/s figure within 1% of IOPS x block size in MiB/s (MB/s) is that one, checked: its
# distance (a log) is below 0.0101, the other basis' above 0.037 (they are 4.6% apart), far
# from the 0.018 of the check and from a tie, whatever the rounding of the ratios
_CLOSE_LO, _CLOSE_HI = 0.99, 1.01
_MIB_CHECKED = (_MIB, "MiB/s (checked: IOPS x block size)")
_MB_CHECKED = (_MB, "MB/s (checked: IOPS x block size)")


def _mb_basis_of(res: _Result, mean: float | None, other: _Entry | None, bs: int | None,
                 mode: str, fio: bool) -> tuple[float, str]:
    """Which "MB" an MB/s entry means: the profile's scale, the fio_mb option, or the check of
    the entry's mean (its Value, else the mean of its runs) against the same system's entry of
    the IOPS sibling (``other``) x the block size ``bs``."""
    decided = _result_mb_basis(res, mode)
    if decided is not None:
        return decided
    return _entry_rule(res)(mean, _mean_value(other) if other else None, bs, fio)


def _result_mb_basis(res: _Result, mode: str) -> tuple[float, str] | None:
    """The part of :func:`_mb_basis_of` the result alone decides (its scale, the fio_mb
    option, the profile's tool: :data:`PROFILE_MB`), or None when each entry's values
    decide."""
    if _says_mib(res):
        if mode == "auto" and _is_fio(res):  # (fio's bw line: each entry checked)
            return None
        return _MB_FACTORS["MiB"], "MiB/s (the profile's scale)"
    if mode in _MB_FACTORS:
        return _MB_FACTORS[mode], f"{mode}/s (fio_mb option)"
    return _profile_mb(res.identifier, res.title)


def _says_mib(res: _Result) -> bool:
    return _byte_rate((res.scale or "").strip()) == "MiB"


def _byte_rate(scale: str) -> str | None:
    """``"MiB"`` or ``"MB"`` for a Scale in mebibytes or megabytes per second, however spelt
    (``MiB/sec`` of PTS's sysbench, ``MiB/second`` of Crypto++, ``Mbyte/s`` of Nettle), else
    None; a lowercase ``b`` after ``M`` is a bit (``Mb/s`` of srsRAN: megabits, not a
    storage rate).

    >>> [_byte_rate(s) for s in ("MB/s", "MiB/sec", "mib/s", "Mbyte/s", "Mb/s", "Mbit/s", "GB/s")]
    ['MB', 'MiB', 'MiB', 'MB', None, None, None]
    """
    m = _BYTE_RATE_RE.fullmatch(scale)
    if m is None:
        return None
    return "MiB" if m.group(1) else "MB"


_BYTE_RATE_RE = re.compile(r"(?:(?i:(mi)b)|M(?:B|[Bb]ytes?))(?i:/s|/sec|/second|ps)")


def _rate_prefix(scale: str) -> tuple[int, bool] | None:
    """(power of 1000 or 1024, whether the prefix says binary) of a byte rate whose prefix is
    not ``M`` (those are :func:`_byte_rate`'s): ``byte/s`` of PTS's OpenSSL, ``GB/s`` of
    simdjson, ``kB/s``, ``KiB/s``, ``GiB/s``, ``TB/s``…; None for anything else (``MB/s``, a
    bit rate such as ``Gb/s`` or ``Gbit/s``, ``GB``).

    >>> [_rate_prefix(s) for s in ("byte/s", "Bytes/sec", "GB/s", "GiB/s", "kB/s", "KB/s",
    ...                            "TiB/s", "MB/s", "Gb/s", "Gbit/s", "GB")]
    [(0, False), (0, False), (3, False), (3, True), (1, False), (1, False), (4, True), None, \
None, None, None]
    """
    m = _PREFIX_RATE_RE.fullmatch(scale)
    if m is None:
        return None
    prefix = m.group(1) or " "
    return _PREFIX_POWERS[prefix[0].upper()], prefix[1:2].lower() == "i"


_PREFIX_RATE_RE = re.compile(r"(k|K|G|T|(?i:[kgt]i))?(?:B|[Bb]ytes?)(?i:/s|/sec|/second|ps)")
_PREFIX_POWERS = {" ": 0, "K": 1, "G": 3, "T": 4}
_PREFIX_LETTERS = {1: "K", 3: "G", 4: "T"}


def _prefixed_rate(res: _Result) -> tuple[float, str] | None:
    """(factor to B/s, basis) of a bandwidth result whose Scale is a byte rate without the
    ``M`` prefix (:func:`_rate_prefix`), decided for the whole result: ``byte/s`` is 1; an
    ``i`` prefix (``GiB/s``) is binary and ``kB/s``'s lowercase ``k`` the SI kilo, both as the
    scale says; ``KB/s``, ``GB/s`` and ``TB/s`` take the "MB" of the profile's tool where
    :data:`PROFILE_MB` knows it (``GB`` = 10^9 bytes for 10^6-byte MB), else the binary
    reading, as an unknown MB/s does (the basis says it was assumed). None for an ``M``
    prefix (decided per entry, :func:`_mb_basis_of`).

    >>> _prefixed_rate(_Result("pts/simdjson-2.0.1", "simdjson", None, None, None, "GB/s",
    ...                        "HIB", None, None, []))
    (1000000000.0, 'GB/s (the simdjson profile: its tool counts 10^9 bytes)')
    >>> _prefixed_rate(_Result("local/x-1.0.0", "x", None, None, None, "KB/s", "HIB", None,
    ...                        None, []))
    (1024.0, 'KiB/s assumed (the KB of a tool not known here, as for MB/s)')
    """
    scale = (res.scale or "").strip()
    rate = _rate_prefix(scale)
    if rate is None:
        return None
    power, binary = rate
    if power == 0:
        return 1.0, "B/s (the profile's scale)"
    letter = _PREFIX_LETTERS[power]
    if binary:
        return float(1024**power), f"{letter}iB/s (the profile's scale)"
    if scale[:1] == "k":
        return float(1000**power), "kB/s (the profile's scale: the SI kilo)"
    known = _profile_mb(res.identifier, res.title)
    if known is not None:
        name = _known_profile(res.identifier, res.title)
        if known[0] == _MB:
            return float(1000**power), (f"{letter}B/s (the {name} profile: its tool counts "
                                        f"10^{3 * power} bytes)")
        return float(1024**power), (f"{letter}iB/s (the {name} profile: its tool counts "
                                    f"2^{10 * power} bytes)")
    return float(1024**power), (f"{letter}iB/s assumed (the {letter}B of a tool not known "
                                "here, as for MB/s)")


def _entry_rule(res: _Result):
    """The rule that decides each MB/s entry of ``res`` (when :func:`_result_mb_basis` does
    not decide them all): :func:`_entry_kib_or_mib` for a fio result in MiB/s, else
    :func:`_entry_mb_basis`."""
    return _entry_kib_or_mib if _says_mib(res) else _entry_mb_basis


def _entry_kib_or_mib(mean: float | None, other: float | None, bs: int | None,
                      fio: bool) -> tuple[float, str]:
    """The unit of an entry of a fio result whose Scale says MiB/s, checked against the
    mean of the same system's IOPS entry (``other``) x the block size ``bs``.

    pts/fio-2.0.0 takes the ``avg`` of fio's ``bw (  MiB/s): min=…`` line with that scale, but
    fio prints that line in KiB/s unless the mean is above 1 GiB/s (fio ``stat.c``:
    ``if (mean > fkb_base * fkb_base) … bw_str = "MiB"``): at EBS speeds the Value is KiB/s.
    Of the two units the one within a factor 1.5 of IOPS x block size is taken; without an
    IOPS entry, or with neither close, the scale's MiB/s (and the basis says so).

    >>> _entry_kib_or_mib(11718.75, 3000.0, 4096, True)[1]  # 3,000 IOPS of 4 KiB, in KiB/s
    'KiB/s (checked: IOPS x block size; fio printed its bw line in KiB/s)'
    >>> _entry_kib_or_mib(11.44, 3000.0, 4096, True) == _MIB_CHECKED
    True
    """
    if bs and mean and other and mean > 0 and other > 0:
        expected = other * bs
        r_mib, r_kib = mean * _MIB / expected, mean * _KIB / expected
        if _CLOSE_LO < r_mib < _CLOSE_HI:
            return _MIB_CHECKED
        if 0 < r_mib < math.inf and 0 < r_kib < math.inf:
            d_mib, d_kib = abs(math.log(r_mib)), abs(math.log(r_kib))
            if min(d_mib, d_kib) < _WITHIN_1_5:
                return _MIB_CHECKED if d_mib <= d_kib else _KIB_CHECKED
        return _MIB, "MiB/s (the profile's scale; IOPS x block size says neither MiB/s nor KiB/s)"
    return _MIB, "MiB/s (the profile's scale; no IOPS result to check)"


_KIB = float(units.KiB)
_WITHIN_1_5 = math.log(1.5)  # (the two units are 1024 times apart: no entry is near both)
_KIB_CHECKED = (_KIB, "KiB/s (checked: IOPS x block size; fio printed its bw line in KiB/s)")


def _known_profile(identifier: str | None, title: str | None) -> str | None:
    """A profile's name (``stream`` of ``pts/stream-1.3.4``), else the name of its title where
    :data:`_PROFILE_TITLES` knows it (the CSV exports give only the title)."""
    return _profile_name(identifier) if identifier else _PROFILE_TITLES.get(title or "")


@functools.lru_cache(maxsize=256)
def _profile_mb(identifier: str | None, title: str | None = None) -> tuple[float, str] | None:
    """(factor, basis) of the MB/s results of a profile :data:`PROFILE_MB` knows (by its
    identifier, else by its title: the CSV exports give only the title), else None.

    >>> _profile_mb("pts/stream-1.3.4")
    (1000000.0, 'MB/s (the stream profile: its tool counts 10^6 bytes)')
    >>> _profile_mb(None, "RAMspeed SMP")[1]
    'MB/s (the ramspeed profile: its tool counts 10^6 bytes)'
    >>> _profile_mb("pts/fio-2.2.0") is None  # (checked per entry against its IOPS result)
    True
    """
    name = _known_profile(identifier, title)
    unit = PROFILE_MB.get(name)  # type: ignore[arg-type]
    if unit is None:
        return None
    what = "10^6 bytes" if unit == "MB" else "2^20 bytes"
    return _MB_FACTORS[unit], f"{unit}/s (the {name} profile: its tool counts {what})"


# What the "MB" of each PTS test profile's MB/s results is, read off the source of the tool it
# runs and the profile's results-definition.xml (the pts/<name> profiles of PTS's ob-cache,
# 2026-06): the line that computes the printed figure, and any division the profile adds.
# Only fio has an IOPS result beside its MB/s one: its "MB" is checked per entry instead.
PROFILE_MB: Mapping[str, str] = MappingProxyType({  # (read only: _profile_mb remembers)
    # storage I/O
    "tiobench": "MiB",  # tiotest.c: MBYTE (1024*KBYTE)
    "dbench": "MB",  # dbench.c: throughput = 1.0e-6 * total_bytes / t
    "aio-stress": "MiB",  # aio-stress.c 0.21: started_ios * reclen / (1024 * 1024)
    "hdparm-read": "MiB",  # hdparm.c: TIMING_BUF_MB 2 of 2 * 1024 * 1024 bytes per read
    "iozone": "MiB",  # iozone.c: rate >>= 10 (KiB/s), then the profile's DivideResultBy 1024
    "compilebench": "MiB",  # compilebench: total_bytes / (1024 * 1024)
    "ior": "MiB",  # ior-output.c: the Mean(MiB) column, bw->mean / MEBIBYTE
    "sysbench": "MiB",  # sb_memory.c: megabyte = 1024.0 * 1024.0 (its scale says MiB/sec)
    # memory, compression and other rates
    "stream": "MB",  # stream.c 5.10: 1.0E-06 * bytes[j] / mintime[j]
    "ramspeed": "MB",  # ramsmp.c: MiB over microseconds (the profile passes no -r)
    "tinymembench": "MB",  # main.c: size * loopcount / (t2 - t1) / 1000000.
    "intel-mlc": "MB",  # its banner: 1 MB/sec = 1,000,000 Bytes/sec
    "compress-lz4": "MB",  # bench.c: srcSize / fastestC (ns) * 1000
    "compress-zstd": "MB",  # benchzstd.h: MB_UNIT 1000000
    "lzbench": "MB",  # lzbench.cpp: origsize * 1000.0 / ctime (ns)
    "hpcc": "MB",  # bench_lat_bw: bandwidth / 1e6 MByte/s (Max Ping Pong Bandwidth)
    "petsc": "MB",  # MPIVersion.c: 1.0E-06 * bytes[j] / mintime[j]
    "cachebench": "MiB",  # cachebench.c: refcnt * datasize / (1024.0 * 1024.0) per second
    "blosc": "MiB",  # b2bench.c: MB (1024*KB)
    "leveldb": "MiB",  # db_bench.cc: bytes_ / 1048576.0 / elapsed
    # (GB/s) bench_ondemand: best_bytes_per_sec, a Google Benchmark Counter (OneK::kIs1000)
    "simdjson": "MB",
})
# the <Title> of each of those profiles (test-definition.xml; one title per profile): what names
# a result in the CSV exports, which have no identifier
_PROFILE_TITLES = {
    "Threaded I/O Tester": "tiobench", "Dbench": "dbench", "AIO-Stress": "aio-stress",
    "hdparm Timed Disk Reads": "hdparm-read", "IOzone": "iozone", "Compile Bench": "compilebench",
    "IOR": "ior", "Sysbench": "sysbench", "Stream": "stream", "RAMspeed SMP": "ramspeed",
    "Tinymembench": "tinymembench", "Intel Memory Latency Checker": "intel-mlc",
    "LZ4 Compression": "compress-lz4", "Zstd Compression": "compress-zstd", "lzbench": "lzbench",
    "HPC Challenge": "hpcc", "PETSc": "petsc", "CacheBench": "cachebench", "C-Blosc": "blosc",
    "LevelDB": "leveldb", "simdjson": "simdjson",
}


def _entry_mb_basis(mean: float | None, other: float | None, bs: int | None,
                    fio: bool) -> tuple[float, str]:
    """The rest of :func:`_mb_basis_of`: the entry's ``mean`` checked against ``other``, the
    mean of the same system's IOPS entry (None when there is none, or it is not a number)."""
    checked = _mb_checked(mean, other, bs)
    if checked is not None:
        return checked
    if fio:
        return _MIB, "MiB/s assumed (a fio profile, as pts/fio; no IOPS result to check)"
    return _MIB, "MiB/s assumed (no IOPS result to check)"


_SIGNED_METRICS = frozenset(("score",))  # rates and latencies are >= 0; a score may not be


def _system_meta(s: _System) -> dict:
    """A System's Hardware/Software pairs as hw_*/sw_* columns, and its file system."""
    meta = {_column_key("hw_", k): v for k, v in s.hardware.items()}
    meta.update({_column_key("sw_", k): v for k, v in s.software.items()})
    fs = s.software.get("File-System") or s.software.get("Filesystem")
    if fs:
        meta["filesystem"] = fs
    return meta


def _run_offsets(logged: dict, times: list[float] | None, n: int) -> tuple[list[float], str]:
    """``t`` of n runs: test-log times, else cumulative test-run-times, else the run index."""
    if len(logged) >= n and all(k + 1 in logged for k in range(n)):
        t0 = logged[1]
        return [(logged[k + 1] - t0).total_seconds() for k in range(n)], "test-log"
    if times is not None:
        return [float(sum(times[:k])) for k in range(n)], "test-run-times"
    return [float(k) for k in range(n)], "run index"


_new_const = functools.partial(tuple.__new__, Const)  # Const(value, n) without a Python call


class _Rows:
    """The records, series and notes of one PTS file, built result by result."""

    def __init__(self, systems: list[_System], results: list[_Result], info: dict,
                 source: str, fmt: str, tz: str | None, fio_mb: str, log_dir: Path | None):
        self.results, self.info, self.source, self.fmt = results, info, source, fmt
        self.tz, self.fio_mb, self.log_dir = tz, fio_mb, log_dir
        composite = fmt.startswith("composite")
        # what follows an entry's position in the position of its Value and of its runs
        self.value_at = "/Value" if composite else ".value" if fmt == "json export" else ""
        self.runs_at = "/RawString (run " if composite else " (run "
        self.notes: list[str] = []
        self.sysmap = {s.identifier: s for s in systems}
        metas: dict = {}  # systems that share their Hardware and Software share their columns
        self.sysmeta = {}
        for s in systems:
            ids = (id(s.hardware), id(s.software))
            if ids not in metas:
                metas[ids] = _system_meta(s)
            self.sysmeta[s.identifier] = metas[ids]
        self.columns: tuple[list, ...] = tuple([] for _ in _ROW_COLUMNS)  # of the rows
        self.shared = _Shared()  # the values rows share
        self.which: list[int] = []  # per row, whose shared values it has (_Shared)
        self.series: list[Columns] = []
        self.runtime_done: dict[str, int] = {}  # execution key (rt_prefix + system) -> runs
        # whose runtime rows exist
        self.times: dict = {}  # a System's TimeStamp -> its time, once parsed
        self.times_memo: dict = {}  # test-run-times read at once (_bulk_times)
        self.systems: dict = {}  # system -> (time, tool version, columns), once its time is known
        self.consts: dict = {}  # (value, n) -> Const of a series column (str values)
        self.logs = _TestLogs(log_dir) if log_dir is not None else None
        self.steps: list[_Step] = []  # per result made at once (_emit): what a _Plan replays

    def result(self, res: _Result) -> None:
        shared = _result_shared(res, self.fmt, self.results)
        if not self._bulk(shared):
            for entry in res.entries:
                self.entry(shared, entry)

    def _bulk(self, sh: _ResultShared) -> bool:
        """The entries of a result whose every Value and RawString is a plain number (the usual
        case), converted and checked at once (:func:`_bulk_values`); False (nothing done) when
        one is not, or a scaled value is refused: then :meth:`entry` takes them one by one,
        notes what it skips and raises for what it refuses."""
        got = _bulk_values(sh, self.fio_mb)
        if got is None:
            return False
        values, runs, bases, lengths = got
        entries = sh.res.entries
        times = _bulk_times(entries, lengths, self.times_memo)
        if self.logs is None and self._alike(sh, lengths, times):
            self._emit(sh, values, runs, bases, times, lengths[0])
            return True
        for entry, value, raw, basis, rt in zip(entries, values, runs, bases, times,
                                                    strict=True):
            ts, tool_version, meta = self.system(entry.system)
            if rt is False:  # (not the plain case: read and noted as one by one)
                rt = self._times(entry, raw)
            self._add(sh, entry, ts, tool_version, meta, basis, value, raw, rt)
        return True

    def _alike(self, sh: _ResultShared, lengths: list[int], times: list) -> bool:
        """Whether the entries of a result (no test logs) make their rows alike, so that
        :meth:`_emit` makes them at once: as many runs each, distinct systems, plain
        test-run-times for all or none, and runtime rows for all runs of all or of none."""
        m, n = len(lengths), lengths[0]
        if lengths.count(n) != m or False in times or times.count(None) not in (0, m):
            return False
        keys = [sh.key_prefix + e.system for e in sh.res.entries]
        if len(set(keys)) != m:
            return False
        if times[0] is None:
            return True
        rt_keys = [sh.rt_prefix + e.system for e in sh.res.entries]
        dones = list(map(self.runtime_done.get, rt_keys, repeat(0, m)))
        return dones.count(0) == m or min(dones) >= n

    def _emit(self, sh: _ResultShared, values: list[float], runs: list[list[float]],
              bases: list, times: list, n: int) -> None:
        """The rows of a result's entries (:meth:`_alike`) at once, column by column: what
        :meth:`_add` makes entry by entry. The run keys and positions of the rows are the same
        in files of one layout: made once for them (:func:`_layout_column`)."""
        entries = sh.res.entries
        m = len(entries)
        systems = [e.system for e in entries]
        prefix = sh.key_prefix
        keys = [prefix + system for system in systems]
        rt_keys = [sh.rt_prefix + system for system in systems]
        rt = times[0] is not None and self.runtime_done.get(rt_keys[0], 0) < n  # runtime rows
        got = self.systems.get
        infos = [got(s) or self.system(s) for s in systems]  # (notes in order of entries)
        stamps, tool_versions, metas = (list(map(itemgetter(k), infos)) for k in range(3))
        w = self.shared.entries(sh.base, metas, systems, tool_versions, sh.basis_key, bases, rt)
        span = 2 * n + 1 if rt else n + 1  # rows per entry
        if rt:
            self.runtime_done.update(zip(rt_keys, repeat(n, m), strict=True))
        column = _value_column(values, runs, times, n, rt)
        step = 2 if rt else 1
        which = list(chain.from_iterable(map(repeat, range(w, w + 2 * m, 2), repeat(span, m))))
        if rt:
            for k in range(n):
                which[2 * k + 1::span] = range(w + 1, w + 2 * m, 2)
        flag = sh.flag_default
        stamp, run_key, position, value, repetition, flags = self.columns
        stamp += chain.from_iterable(map(repeat, stamps, repeat(span, m)))
        run_key += _layout_column(("keys", sh.key_prefix, tuple(systems), n, rt), _run_keys, keys)
        position += _layout_column(("positions", tuple(map(itemgetter(4), entries)),
                                    self.runs_at, self.value_at, n, rt), self._positions, entries)
        value += column
        repetition += ([k for k in range(n) for _ in range(step)] + [None]) * m
        flags += (([flag, None] if rt else [flag]) * n + ["reported_mean"]) * m
        self.which += which
        self.steps.append(_Step(systems, keys, n, rt, tuple(bases)))
        self.series.extend(map(_LazySeries, repeat(n, m), zip(
            repeat(self.source, m), repeat(self.consts, m), repeat(sh, m), systems, keys, runs,
            times, repeat(_NO_LOG, m), strict=True)))

    def _positions(self, entries: list[_Entry], n: int, rt: bool) -> list[str]:
        """The positions of the rows :meth:`_emit` makes: each entry's position followed by
        the tails of its rows (:func:`_tails`), joined by ``+`` (:func:`_run_keys`)."""
        tails = _tails((self.runs_at, "/JSON test-run-times (run "), ")", n, 1, rt,
                       self.value_at)
        return [position + tail for position in map(itemgetter(4), entries) for tail in tails]

    def system(self, name: str) -> tuple:
        """(time, tool version, Hardware/Software columns) of a system; a TimeStamp that is not
        one is noted each time it is asked for (once per entry)."""
        got = self.systems.get(name)
        if got is not None:
            return got
        system = self.sysmap.get(name)
        text = system.timestamp if system else None
        ts = self.times.get(text)
        if ts is None:
            ts = _tstamp(text, self.tz, self.notes, self.source)
            if ts is not None:  # a system's time, parsed once
                self.times[text] = ts
        tool_version = (system.client_version if system and system.client_version
                        else self.info.get("tool_version"))
        got = (ts, tool_version, self.sysmeta.get(name, _NO_LOG))
        if ts is not None or not text:  # (no note to repeat)
            self.systems[name] = got
        return got

    def _values(self, res: _Result, entry: _Entry) -> tuple[float | None, list | None] | None:
        """(Value, runs) of an entry; None when it gives no rows (noted why)."""
        value = _num(entry.value)
        if entry.value is not None and value is None:
            self.notes.append(f"{entry.position}: non-numeric Value {entry.value!r} "
                              f"({res.display_format or 'unknown format'}) skipped")
            return None
        raw = None
        if entry.raw:
            raw = _nums(entry.raw)
            if None in raw:
                self.notes.append(f"{entry.position}: non-numeric RawString "
                                  f"{':'.join(entry.raw)!r} skipped")
                raw = None
        if value is None and raw is None:
            if entry.value is None and not entry.raw:
                self.notes.append(f"{entry.position}: empty entry skipped")
            return None
        return value, raw

    def _times(self, entry: _Entry, raw: list | None) -> list[float] | None:
        if not entry.run_times:
            return None
        times = _nums(entry.run_times)
        if None in times or min(times) < 0 or (raw and len(times) != len(raw)):
            self.notes.append(f"{entry.position}: test-run-times {entry.run_times!r} "
                              "do not match the runs; ignored")
            return None
        return times

    def _check(self, sh: _ResultShared, entry: _Entry, value: float | None, raw: list | None,
               factor: float) -> None:
        """Raise the ParseError :func:`~ebsstats.io._common.number` gives for the first value
        it refuses once scaled (rates are checked in B/s or IO/s too)."""
        for v in [value] + (raw or []):
            if v is not None:  # (a float: found, its str, is its repr)
                number(v, self.source, entry.position, sh.what, scale=factor,
                       negative=sh.signed)

    def entry(self, sh: _ResultShared, entry: _Entry) -> None:
        """The rows of one entry, by the general rule (what :meth:`_bulk` stands for)."""
        res, system_name = sh.res, entry.system
        ts, tool_version, meta = self.system(system_name)
        values = self._values(res, entry)
        if values is None:
            return
        value, raw = values
        runs_at = None
        if raw is None and value is not None and len(entry.run_times or ()) == 1:
            # PTS leaves RawString empty when the test ran once (FORCE_TIMES_TO_RUN=1): its
            # Value is that run's, and a run row, not only a reported mean
            value, raw, runs_at = None, [value], f"{self.value_at} (run "
        elif raw is None and len(entry.run_times or ()) > 1:
            self.notes.append(f"{entry.position}: {len(entry.run_times)} runs without their "
                              "values (an empty RawString): only their reported mean")
        if sh.fixed is None:  # (the entry's mean: its Value, else the mean of its runs)
            factor, basis = _mb_basis_of(
                res, value if value is not None else sum(raw) / len(raw),
                sh.others.get(system_name), sh.base["block_size"],
                self.fio_mb if sh.fio else "auto", sh.fio)
        else:
            factor, basis = sh.fixed
        scaled_raw = None
        if raw is not None:
            scaled_raw = _scaled(raw, factor, sh.signed)
            if scaled_raw is None:
                self._check(sh, entry, value, raw, factor)  # raises
                scaled_raw = [v * factor for v in raw]
        scaled_value = None
        if value is not None:
            scaled_value = value * factor
            if not (scaled_value < math.inf and (
                    scaled_value > -math.inf if sh.signed else scaled_value >= 0)):
                self._check(sh, entry, value, raw, factor)
        times = self._times(entry, raw)
        self._add(sh, entry, ts, tool_version, meta, basis, scaled_value, scaled_raw, times,
                  runs_at)

    def _add(self, sh: _ResultShared, entry: _Entry, ts, tool_version: str | None, meta: dict,
             basis: str | None, value: float | None, raw: list | None,
             times: list | None, runs_at: str | None = None) -> None:
        """The rows of an entry whose values are read, scaled and checked: one per run (and its
        runtime row, once per run), its Value's; and the runs' series. ``runs_at``: where the
        runs are, when not in the RawString (a single run's Value)."""
        system = entry.system
        logged = (self.logs.times(sh.res, system, self.tz, self.notes)
                  if self.logs is not None else _NO_LOG)
        key = sh.key_prefix + system
        w = self.shared.entry(sh.base, meta, system, tool_version, sh.basis_key, basis)
        which = self.which
        stamp, run_key, position, values, repetition, flags = self.columns
        if raw is not None:
            n = len(raw)
            keys = _numbered(f"{key}|", "", n, 0)
            positions = _numbered(entry.position + (runs_at or self.runs_at), ")", n, 1)
            stamps = [logged.get(k + 1, ts) for k in range(n)] if logged else [ts] * n
            flag = sh.flag_default
            done = n if times is None else self.runtime_done.get(sh.rt_prefix + system, 0)
            if done >= n:  # no runtime rows among them
                stamp += stamps
                run_key += keys
                position += positions
                values += raw
                repetition += range(n)
                flags += [flag] * n
                which += [w] * n
            else:
                self.runtime_done[sh.rt_prefix + system] = n
                self.shared.runtime()
                rtpos = _numbered(f"{entry.position}/JSON test-run-times (run ", ")", n, 1)
                for k in range(n):  # each run's row, then its runtime row (once per run)
                    rows = [(stamps[k], keys[k], positions[k], raw[k], k, flag, w)]
                    if k >= done:
                        rows.append((stamps[k], keys[k], rtpos[k], times[k], k, None, w + 1))
                    for column, row in zip((*self.columns, which), zip(*rows, strict=True),
                                           strict=True):
                        column += row
            self.series.append(_LazySeries(n, (self.source, self.consts, sh, system, key, raw,
                                               times, logged)))
        if value is not None:
            for column, v in zip((*self.columns, which), (
                    ts, f"{key}|reported", entry.position + self.value_at, value, None,
                    "reported_mean", w), strict=True):
                column.append(v)


def _series_columns(source: str, consts: dict, sh: _ResultShared, system: str, key: str,
                    values: list, times: list | None, logged: dict) -> dict:
    """The columns of the series of one entry's runs (``consts``: the file's Consts of string
    values, :meth:`_Rows.const`)."""
    n = len(values)
    t, tb = _run_offsets(logged, times, n)

    def const(value, n):
        c = consts.get((value, n))
        if c is None:
            c = consts[value, n] = _new_const((value, n))
        return c

    per_n = sh.series.get(n)
    if per_n is None:
        res, base = sh.res, sh.base
        per_n = sh.series[n] = (
            const(source, n), const(res.title, n), const(base["op"], n),
            const(base["metric"], n), const(base["unit"], n),
            _new_const((base["block_size"], n)), const(res.scale, n),
            const(res.arguments, n), const(res.description, n))
    return {  # typed once by _common.series_of
        "run_id": [run_id(source, f"{key}|{k}") for k in range(n)],
        "source": per_n[0], "test": per_n[1], "op": per_n[2], "metric": per_n[3],
        "t": t, "value": values, "unit": per_n[4],
        "block_size": per_n[5], "config": const(system, n),
        "t_basis": const(tb, n), "scale": per_n[6], "arguments": per_n[7],
        "description": per_n[8]}


_COLS = Columns.__dict__["cols"]  # the slot of Columns' columns


class _LazySeries(Columns):
    """The series of one entry's runs, its columns made when first asked for: a folder read
    asks only with ``series=True``, and the parse keeps only what they are made of.
    Pickled as the plain :class:`~ebsstats.io._common.Columns` it stands for."""

    __slots__ = ("_parts",)

    def __init__(self, n: int, parts: tuple):
        self.n, self._parts = n, parts

    @property
    def cols(self) -> dict:
        if self._parts is not None:
            _COLS.__set__(self, _series_columns(*self._parts))
            self._parts = None
        return _COLS.__get__(self)

    @cols.setter
    def cols(self, value: dict) -> None:
        _COLS.__set__(self, value)
        self._parts = None

    def __reduce__(self):
        return Columns.of, (self.cols, self.n)


_NO_LOG: dict = {}  # read only: no test-log times, no system metadata
_RUNTIME = {"metric": "runtime", "unit": "s", "higher_is_better": None, "scale": None,
            "mb_basis": None, "basis": None}  # (read only) what runtime rows have of their own


def _accepted(values: list[float], signed: bool) -> bool:
    """Whether :func:`~ebsstats.io._common.number` accepts every scaled value (as
    :func:`_scaled` checks them): all finite, and none negative unless ``signed``."""
    return all(map(math.isfinite, values)) and (signed or not values or min(values) >= 0)


def _split(values: list, lengths: list[int]) -> list[list]:
    """``values`` cut into consecutive lists of these lengths.

    >>> _split([1, 2, 3, 4, 5, 6], [2, 2, 2]), _split([1, 2, 3, 4], [1, 3, 0])
    ([[1, 2], [3, 4], [5, 6]], [[1], [2, 3, 4], []])
    """
    n = lengths[0] if lengths else 0
    if n and lengths.count(n) == len(lengths):  # (the usual case: sliced, no iterator)
        return [values[k:k + n] for k in range(0, n * len(lengths), n)]
    it = iter(values)
    return [list(islice(it, k)) for k in lengths]


def _run_keys(keys: list[str], n: int, rt: bool) -> list[str]:
    """The run keys of the rows :meth:`_Rows._emit` makes: each entry's key followed by the
    tails of its rows (:func:`_tails`), joined by ``+`` (a map of ``str.__add__`` calls a slot
    wrapper per string: 198 of them 12.5 -> 7.8 us).

    >>> _run_keys(["a", "b"], 1, False)
    ['a|0', 'a|reported', 'b|0', 'b|reported']
    """
    tails = _tails(("|", "|"), "", n, 0, rt, "|reported")
    return [key + tail for key in keys for tail in tails]


_TAILS: dict[tuple, list[str]] = {}  # _tails' arguments -> its list (never modified)


def _tails(heads: tuple[str, str], tail: str, n: int, first: int, rt: bool,
           last: str) -> list[str]:
    """What follows an entry's key or position in its rows :meth:`_Rows._emit` makes: per run
    ``k`` (from ``first``), ``heads[0] + str(k) + tail``, and ``heads[1] + str(k) + tail``
    after it when ``rt`` (its runtime row); then ``last`` (the Value's row). Made once.

    >>> _tails(("|", "|"), "", 2, 0, True, "|reported")
    ['|0', '|0', '|1', '|1', '|reported']
    """
    key = (heads, tail, n, first, rt, last)
    out = _TAILS.get(key)
    if out is None:
        out = [f"{head}{k}{tail}" for k in range(first, first + n)
               for head in (heads if rt else heads[:1])]
        out.append(last)
        if n <= _NUMBERED_RUNS:
            remember(_TAILS, key, out, _NUMBERED_MAX)
    return out


_LAYOUT: dict[tuple, list] = {}  # what decides a column of a result's rows -> the column
_LAYOUT_MAX, _LAYOUT_ROWS = 512, 2048  # (a hostile folder cannot grow it without end)


def _layout_column(key: tuple, make, of: list) -> list:
    """``make(of, n, rt)`` (``key[-2:]`` are n and rt), made once for files of one layout
    (never modified)."""
    out = _LAYOUT.get(key)
    if out is None:
        out = make(of, *key[-2:])
        if len(out) <= _LAYOUT_ROWS:
            remember(_LAYOUT, key, out, _LAYOUT_MAX)
    return out


def _bulk_times(entries: list[_Entry], lengths: list[int], memo: dict) -> list:
    """Per entry, its test-run-times as :meth:`_Rows._times` reads them when every entry has
    plain ones, one per run (the usual case, converted at once); False for an entry to be read
    by that rule (when one is not plain, every entry is). ``memo``: the file's answers by the
    texts (the results of one execution, MB/s and IOPS, repeat them; never modified)."""
    texts = [e.run_times for e in entries]
    if None in texts:  # (lists: equal to None only when None)
        return [None if t is None else False for t in texts]
    if list(map(len, texts)) == lengths:
        flat = list(chain.from_iterable(texts))
        key = (tuple(flat), tuple(lengths))
        done = memo.get(key)
        if done is None:
            nums = _bulk_nums(flat)
            done = memo[key] = (_split(nums, lengths) if nums is not None and (
                not nums or min(nums) >= 0) else [False] * len(entries))
        return done
    return [False] * len(entries)


_NUMBERED: dict[tuple, list[str]] = {}  # (head, tail, n, first) -> its strings, shared by files
_NUMBERED_MAX = 4096  # distinct lists kept, ...
_NUMBERED_RUNS = 64  # ... of so many runs at most


def _numbered(head: str, tail: str, n: int, first: int) -> list[str]:
    """``[f"{head}{k}{tail}" for k in range(first, first + n)]`` (never modified): the run keys
    and positions of an entry's runs, the same in files of one layout (made once for them)."""
    key = (head, tail, n, first)
    out = _NUMBERED.get(key)
    if out is None:
        out = [f"{head}{k}{tail}" for k in range(first, first + n)]
        if n <= _NUMBERED_RUNS:
            remember(_NUMBERED, key, out, _NUMBERED_MAX)
    return out


class _ResultValues(NamedTuple):
    """What every entry of a result shares that its content decides (files of one campaign
    repeat it: made once for them, :data:`_RESULT_VALUES`; never modified)."""

    base: dict  # the values of every row of the result
    metric: str
    fio: bool
    fixed: tuple | None  # (factor, basis) of a result whose factor is not decided per entry
    flag_default: str | None
    what: str  # the metric and scale, for errors
    signed: bool
    key_prefix: str  # of the run key
    basis_key: str  # the column of the entries' basis
    # of an execution's key: the results PTS parsed from one execution of a test (one profile
    # and arguments: fio's MB/s and IOPS, Zstd's compression and decompression speeds) share
    # its test-run-times, given once as runtime rows
    rt_prefix: str


def _result_values(res: _Result, fmt: str) -> _ResultValues:
    fio = _is_fio(res)
    workload, op, bs, threads = _workload(res)
    metric, unit, lat_factor = _canonical(res, fmt, fio)
    base = {
        "test": res.title, "workload": workload,
        "op": op, "block_size": bs, "threads": threads, "metric": metric, "unit": unit,
        "higher_is_better": {"HIB": True, "LIB": False}.get((res.proportion or "").upper()),
        "result_identifier": res.identifier, "app_version": res.app_version,
        "arguments": res.arguments, "description": res.description, "scale": res.scale,
        "display_format": res.display_format, "proportion": res.proportion,
    }
    rhash = res.hash or _comparison_hash(res, res.scale)
    if rhash:
        base["result_hash"] = rhash
    if metric == "bandwidth":  # (MB/s: decided per entry; other prefixes per result)
        fixed = _prefixed_rate(res)
    else:
        fixed = (1.0, None) if lat_factor is None else (
            lat_factor, f"{res.scale} -> s (the profile's mean latency)")
    return _ResultValues(
        base, metric, fio, fixed, "scale_unknown" if fmt == "raw csv export" else None,
        f"{metric} ({res.scale})", metric in _SIGNED_METRICS,
        f"{res.identifier or res.title}|{res.arguments}|{res.description}|",
        "mb_basis" if metric == "bandwidth" else "basis",
        f"{res.identifier or res.title}|{res.arguments}|")


def _result_key(res: _Result, fmt: str) -> tuple:
    """What :func:`_result_values` reads of a result (its key in :data:`_RESULT_VALUES`)."""
    return (fmt, res.identifier, res.title, res.app_version, res.arguments, res.description,
            res.scale, res.proportion, res.display_format, res.hash)


_RESULT_VALUES: dict[tuple, _ResultValues] = {}  # a result's content -> its values
_RESULT_VALUES_MAX = 4096  # (a hostile folder cannot grow it without end)


# What every entry of one result shares: the result, the IOPS sibling's entry per system (for
# an MB/s result), the series Consts per run count, then :class:`_ResultValues`' fields
_ResultShared = NamedTuple("_ResultShared", [
    ("res", _Result), ("others", dict | None), ("series", dict),
    *_ResultValues.__annotations__.items()])


def _made_values(res: _Result, fmt: str) -> _ResultValues:
    """:func:`_result_values`, made once for the results of one content."""
    key = _result_key(res, fmt)
    made = _RESULT_VALUES.get(key)
    if made is None:  # (what files of one campaign repeat: made once for them)
        made = _result_values(res, fmt)
        remember(_RESULT_VALUES, key, made, _RESULT_VALUES_MAX)
    return made


def _result_shared(res: _Result, fmt: str, results: list[_Result]) -> _ResultShared:
    """What every entry of ``res`` (one of the file's ``results``) shares."""
    made = _made_values(res, fmt)
    others = None
    if made.fixed is None:  # (bandwidth) the factor is decided per entry
        sibling = _iops_sibling(res, results)
        others = {}  # system -> its first entry of the IOPS sibling
        for e in sibling.entries if sibling is not None else ():
            others.setdefault(e.system, e)
    return _ResultShared(res, others, {}, *made)


def _bulk_values(sh: _ResultShared, fio_mb: str) -> tuple | None:
    """(Values, runs, bases, run counts) of the entries of a result whose every Value and
    RawString is a plain number (the usual case), converted, scaled and checked at once
    (:func:`_bulk_nums`); None when one is not, or a scaled value is refused (then the entries
    are taken one by one, :meth:`_Rows.entry`)."""
    entries = sh.res.entries
    texts = [e.value for e in entries]
    raws = [e.raw for e in entries]
    if not entries or None in texts or not all(raws):
        return None
    lengths = list(map(len, raws))
    nums = _bulk_nums(texts + list(chain.from_iterable(raws)))
    if nums is None:
        return None
    m = len(entries)
    return _scale_bulk(sh, nums[:m], nums[m:], lengths, fio_mb,
                       lambda: _other_means(sh, entries))


def _scale_bulk(sh: _ResultShared, values: list[float], flat: list[float], lengths: list[int],
                fio_mb: str, means) -> tuple | None:
    """The rest of :func:`_bulk_values`, once the entries' Values and runs (``flat``, so many
    per entry) are read: scaled, checked, their bases decided (``means()``: the IOPS entries'
    means, :func:`_other_means`, asked only when each entry's values decide)."""
    m = len(values)
    if sh.fixed is not None:
        factor, basis = sh.fixed
        if factor != 1.0:  # (v * 1.0 is v)
            values, flat = [v * factor for v in values], [v * factor for v in flat]
        if not _accepted(values, sh.signed) or not _accepted(flat, sh.signed):
            return None
        return values, _split(flat, lengths), [basis] * m, lengths
    decided = _result_mb_basis(sh.res, fio_mb if sh.fio else "auto")
    if decided is not None:  # (one factor for every entry)
        decisions = [decided] * m
    else:  # each entry's Value against its IOPS entry's mean (_mb_basis_of's check)
        others, bs = means(), sh.base["block_size"]
        if _all_mib_checked(values, others, bs):
            decisions = [_MIB_CHECKED] * m
        else:
            decisions = list(map(_entry_rule(sh.res), values, others, repeat(bs),
                                 repeat(sh.fio)))
    factors = [d[0] for d in decisions]
    if factors.count(_MIB) == m:  # (one factor: each run times it, as below)
        scaled, flat = [v * _MIB for v in values], [v * _MIB for v in flat]
    else:
        scaled = list(map(mul, values, factors))
        it = iter(flat)  # (each entry's runs, scaled by its factor)
        flat = [v * f for f, k in zip(factors, lengths, strict=True) for v in islice(it, k)]
    if not _accepted(scaled, sh.signed) or not _accepted(flat, sh.signed):
        return None
    return scaled, _split(flat, lengths), [d[1] for d in decisions], lengths


def _all_mib_checked(values: list[float], others: list[float | None], bs: int | None) -> bool:
    """Whether :func:`_entry_mb_basis` gives :data:`_MIB_CHECKED` for every entry (the usual
    case: each MB/s Value within 1% of its IOPS entry's mean x the block size in MiB/s), found
    by :func:`_mb_checked`'s first test of each without a call per entry.

    >>> _all_mib_checked([4.0, 8.0], [1024.0, 2048.0], 4096), _all_mib_checked([4.0], [None], 4096)
    (True, False)
    """
    return bool(bs) and None not in others and all(
        v > 0 and o > 0 and _CLOSE_LO < v * _MIB / (o * bs) < _CLOSE_HI
        for v, o in zip(values, others, strict=True))


def _other_means(sh: _ResultShared, entries: list[_Entry]) -> list[float | None]:
    """Per entry, :func:`_mean_value` of the same system's entry of the IOPS sibling (None when
    there is none): plain ASCII Values converted at once (:func:`_bulk_nums`)."""
    others = list(map(sh.others.get, [e.system for e in entries]))
    if None not in others:
        texts = [o.value for o in others]
        if None not in texts:
            nums = _bulk_nums(texts)
            if nums is not None:
                return nums
    return [_mean_value(o) if o else None for o in others]


def _value_column(values: list[float], runs: list[list[float]], times: list, n: int,
                  rt: bool) -> list:
    """The ``value`` column of the rows :meth:`_Rows._emit` makes of a result's entries: each
    entry's n runs (each followed by its run time when ``rt``), then its Value."""
    span = 2 * n + 1 if rt else n + 1  # rows per entry
    column = [None] * (len(values) * span)
    flat = list(chain.from_iterable(runs))
    step = 2 if rt else 1
    for k in range(n):
        column[step * k::span] = flat[k::n]
    if rt:
        flat = list(chain.from_iterable(times))
        for k in range(n):
            column[2 * k + 1::span] = flat[k::n]
    column[span - 1::span] = values
    return column


class _Step(NamedTuple):
    """A result whose rows :meth:`_Rows._emit` made at once: what a :class:`_Plan` replays."""

    systems: list[str]  # of its entries
    keys: list[str]  # their run keys' heads
    n: int  # runs per entry
    rt: bool  # whether runtime rows are among them
    bases: tuple  # the entries' mb_basis or basis (decided by their values)


class _Plan(NamedTuple):
    """The columns of a file all of whose results were made at once (:meth:`_Rows._emit`),
    without notes: what files of its layout (:func:`_plan_key`) repeat. Only the numbers are
    read again (Values, runs, run times, system times); the entries' bases, which their values
    decide, must come out the same, else the file takes the full path."""

    steps: list[_Step]
    columns: dict  # name -> the column (source, timestamp, value made for each file; the
    # other lists, the first file's own, handed to every file of the layout as they are:
    # never modified, typed faster shared than copied, see _plan_parsed)
    shared: frozenset  # names of the list columns files share (positions, as _columns does)
    n: int


_PLAN_MADE = ("source", "timestamp", "value")  # the columns made for each file of a plan
_PLANS: dict[tuple, _Plan] = {}  # _plan_key -> the plan of files of that layout
_PLANS_MAX, _PLAN_ROWS = 32, 4096  # (a hostile folder cannot grow it without end)


def _entry_shape(e: _Entry) -> tuple:
    """What of an entry other than its numbers decides its rows."""
    return (e.system, e.position, e.value is None, len(e.raw) if e.raw else None,
            None if e.run_times is None else len(e.run_times))


def _plan_key(systems: list[_System], results: list[_Result], info: dict, fmt: str,
              tz: str | None, fio_mb: str) -> tuple:
    """Everything a file's rows depend on but its numbers (Values, RawStrings, test-run-times,
    system TimeStamps): files with the same key have the same columns but ``source``,
    ``timestamp`` and ``value``, once their entries' bases are the same."""
    return (fmt, tz, fio_mb, info.get("tool_version"),
            tuple((s.identifier, tuple(s.hardware.items()), tuple(s.software.items()),
                   s.client_version, s.timestamp is None) for s in systems),
            tuple((_result_key(r, fmt), tuple(map(_entry_shape, r.entries))) for r in results))


def _plan_of(rows: _Rows, columns: dict, n: int) -> _Plan | None:
    """The plan of a file whose rows ``rows`` made, when it can be replayed."""
    if len(rows.steps) != len(rows.results) or rows.notes or n > _PLAN_ROWS:
        return None
    shared = frozenset(name for name, col in columns.items() if type(col) is list and any(
        col is kept for kept in _ROW_SHARED.values()))
    # (the file's own lists, not copies: never modified, handed to the later files of the
    # layout; the 4-file PTS folder's first read, fresh processes: 8.1 -> 7.9 ms)
    return _Plan(rows.steps, dict(columns), shared, n)


def _replay(plan: _Plan, systems: list[_System], results: list[_Result], info: dict,
            source: str, fmt: str, tz: str | None, fio_mb: str) -> Parsed | None:
    """What :func:`_records` gives for a file of the plan's layout, its numbers read as
    :meth:`_Rows._bulk` reads them; None (then the full path is taken) when one of them is not
    plain, an entry's basis differs from the plan's, or a system time would be noted."""
    sysmap = {s.identifier: s for s in systems}
    stamps: dict = {}  # system -> its time
    times_memo: dict = {}
    notes: list[str] = []
    consts: dict = {}
    stamps_at: list = []  # each entry's time, on its rows (counts)
    counts: list[int] = []
    value_col, series = [], []
    for res, step in zip(results, plan.steps, strict=True):
        sh = _result_shared(res, fmt, results)
        got = _bulk_values(sh, fio_mb)
        if got is None:
            return None
        values, runs, bases, lengths = got
        if tuple(bases) != step.bases:
            return None
        times = _bulk_times(res.entries, lengths, times_memo)
        if False in times:
            return None
        n, m = step.n, len(values)
        for name in step.systems:
            if name not in stamps:
                system = sysmap.get(name)
                stamps[name] = _tstamp(system.timestamp if system else None, tz, notes, source)
        if notes:
            return None
        stamps_at += map(stamps.__getitem__, step.systems)
        counts += repeat(2 * n + 1 if step.rt else n + 1, m)
        value_col += _value_column(values, runs, times, n, step.rt)
        series.extend(map(_LazySeries, repeat(n, m), zip(
            repeat(source, m), repeat(consts, m), repeat(sh, m), step.systems, step.keys, runs,
            times, repeat(_NO_LOG, m), strict=True)))
    return _plan_parsed(plan, source, fmt, info.get("tool_version"),
                        _stamp_runs_of(stamps_at, counts),
                        value_col, series)


def _plan_parsed(plan: _Plan, source: str, fmt: str, version: str | None,
                 stamp_col: list | Runs, value_col: list, series: list) -> Parsed:
    """The Parsed of a file of the plan's layout, of its own times, values and series: the
    plan's columns (a copy of the dict, in its order) with the three made for each file put in
    their places. The plan's other lists are handed over as they are (never modified, as the
    positions of :data:`_ROW_SHARED`): the 4-file PTS folder's re-read typed them ~0.25 ms
    faster than a copy per file (3.9 -> 3.65 ms, CPU, best of 5 x 200, 3 rounds interleaved).
    (The kept columns of :data:`_SPREAD` are still copied per file, as measured there.)"""
    columns = plan.columns.copy()
    for name, col in zip(_PLAN_MADE, (Const(source, plan.n), stamp_col, value_col),
                         strict=True):
        if name in columns:
            columns[name] = col
    return Parsed(tool="pts", format=fmt, version=version, columns=(columns, plan.n),
                  series=series, notes=[])


def _records(systems: list[_System], results: list[_Result], info: dict, source: str, fmt: str,
             tz: str | None, fio_mb: str, log_dir: Path | None, key: tuple | None = None
             ) -> Parsed:
    """The Parsed of a file's systems and results: by its layout's plan when one is kept and
    replays (``key``: its :func:`_plan_key`, when known), else row by row (keeping the plan)."""
    if log_dir is not None:  # (test-log times are read entry by entry)
        key = None
    else:
        key = key or _plan_key(systems, results, info, fmt, tz, fio_mb)
        plan = _PLANS.get(key)
        if plan is not None:
            parsed = _replay(plan, systems, results, info, source, fmt, tz, fio_mb)
            if parsed is not None:
                return parsed
    rows = _Rows(systems, results, info, source, fmt, tz, fio_mb, log_dir)
    for res in results:
        rows.result(res)
    columns, n = _columns({"source": source, "tool": "pts"}, rows.columns, rows.which,
                          rows.shared)
    if key is not None:
        plan = _plan_of(rows, columns, n)
        if plan is not None:
            remember(_PLANS, key, plan, _PLANS_MAX)
    return Parsed(tool="pts", format=fmt, version=info.get("tool_version"),
                  columns=(columns, n), series=rows.series, notes=rows.notes)


# composite.xml of a kept template and a kept plan: read straight from the fields


class _Fast(NamedTuple):
    """What :func:`_replay` reads of a file of a kept template (:class:`_Template`) whose
    layout has a kept plan, by the place of each field in the file's text: a file with that
    template is read from its fields alone (:func:`_fast_replay`), without the systems and
    results :func:`_from_template` makes, when every field is plain enough to give that plan's
    key (:func:`_plan_key`: the same times and Values present, the same runs per entry).
    A field's place is that of its text in the parts of the file's text
    (:func:`_template_parts`, :func:`_slots_in_parts`)."""

    plan: _Plan
    version: str | None  # the file's tool version
    shared: list[tuple]  # per result: (its result, its values (_ResultValues))
    value_at: list[int]  # per entry (of all results in order): the field of its Value,
    raw_at: list[int]  # ... of its RawString,
    json_at: list[list[int] | None]  # per result: its entries' JSON fields (None: no JSON)
    lengths: list[int]  # per entry: its runs
    counts: list[int]  # per result: its entries
    others: list[list | None]  # per result of MB/s: per entry, its IOPS entry's place or None
    stamp_at: list[int | None]  # per system: the field of its TimeStamp, or None
    stamps: list[str | None]  # ... and its TimeStamp when it is no field
    stamp_of: dict  # system Identifier -> its place in the systems (the last of that name)
    names: frozenset  # the systems of the plan's entries
    entry_systems: list[str]  # per entry (of all results in order): its system, ...
    spans: list[int]  # ... and its rows
    bulk: _FastBulk | None  # the numbers scaled at once (:func:`_fast_bulk_of`), or None


_FASTS: dict[tuple, _Fast] = {}  # (template key, tz, fio_mb) -> its _Fast
_FASTS_MAX = 32  # (a hostile folder cannot grow it without end)


def _fast_of(tpl: _Template, plan: _Plan, systems: list[_System], results: list[_Result],
             info: dict, fio_mb: str = "auto") -> _Fast | None:
    """The :class:`_Fast` of a file read by the full path (``systems``, ``results``, ``info``)
    whose template ``tpl`` was kept and whose rows gave ``plan``; None when one of its entries
    has no Value or RawString field, or some but not all of a result's entries a JSON field
    (or one without a field has test-run-times): such files take the plan's usual path."""
    _, _, stamp_at, cols = tpl.slots
    value_at: list[int] = []
    raw_at: list[int] = []
    json_at, lengths, counts, starts = [], [], [], {}
    for res, (vat, rat, jat) in zip(results, cols, strict=True):
        if None in vat or None in rat:
            return None
        if None in jat:  # (no JSON field: test-run-times of none)
            if jat.count(None) != len(jat) or any(e.run_times is not None
                                                  for e in res.entries):
                return None
            json_at.append(None)
        elif all(e.run_times is not None and e.raw is not None
                 and len(e.run_times) == len(e.raw) for e in res.entries):
            json_at.append(jat)  # (and as many as the runs: the plan's key)
        else:
            return None
        starts[id(res)] = len(value_at)
        value_at += vat
        raw_at += rat
        lengths += [len(e.raw) if e.raw else 0 for e in res.entries]
        counts.append(len(res.entries))
    shared, others = [], []
    for res in results:
        made = _made_values(res, "composite.xml")
        shared.append((res, made))
        sibling = _iops_sibling(res, results) if made.fixed is None else None
        first: dict = {}  # system -> the place of its first entry of the IOPS sibling
        for j, e in enumerate(sibling.entries if sibling is not None else ()):
            first.setdefault(e.system, starts[id(sibling)] + j)
        others.append(None if made.fixed is not None else [first.get(e.system)
                                                          for e in res.entries])
    return _Fast(plan, info.get("tool_version"), shared, value_at, raw_at, json_at, lengths,
                 counts, others, stamp_at, [s.timestamp for s in systems],
                 {s.identifier: k for k, s in enumerate(systems)}, *_entry_rows(plan),
                 _fast_bulk_of(plan, shared, counts, lengths, json_at, fio_mb))


def _entry_rows(plan: _Plan) -> tuple[frozenset, list[str], list[int]]:
    """The systems of the plan's entries; per entry, its system and its rows."""
    names = [name for step in plan.steps for name in step.systems]
    spans = [2 * step.n + 1 if step.rt else step.n + 1 for step in plan.steps
             for _ in step.systems]
    return frozenset(names), names, spans


class _FastBulk(NamedTuple):
    """How :func:`_fast_replay` reads a file's numbers at once (the usual case): each number
    (the Values of all entries, then their runs, as in its ``nums``) times its factor, the
    factor every result's basis in the plan stands for; the MB/s results whose entries are
    each checked against their IOPS entries (then every one must be within 1% in MiB/s,
    :func:`_all_mib_checked`); per row of the value column, its place among the scaled numbers
    and then the run times of the results with runtime rows (``rt``)."""

    factors: list[float]
    checks: list[tuple]  # (result, its first entry, entries, block size, fio)
    value_at: list[int]
    rt: list[int]  # the results with runtime rows
    pick: object  # picker(value_at)


def _fast_bulk_of(plan: _Plan, shared: list[tuple], counts: list[int], lengths: list[int],
                  json_at: list, fio_mb: str) -> _FastBulk | None:
    """The :class:`_FastBulk` of a :class:`_Fast`, or None (each result read on its own, as
    :func:`_replay` reads it) when a result is signed (a score), or a basis of the plan is not
    what its result gives every entry (MiB/s checked, for MB/s results checked per entry)."""
    factors: list[float] = []
    run_factors: list[float] = []
    checks = []
    e = 0
    for r, ((res, made), step, m) in enumerate(zip(shared, plan.steps, counts, strict=True)):
        if made.signed or (step.rt and json_at[r] is None) or lengths[e:e + m] != [step.n] * m:
            return None
        decided = made.fixed or _result_mb_basis(res, fio_mb if made.fio else "auto")
        if decided is None:
            decided = _MIB_CHECKED
            checks.append((r, e, m, made.base["block_size"], made.fio))
        if step.bases != (decided[1],) * m:
            return None
        factors += [decided[0]] * m
        run_factors += [decided[0]] * (m * step.n)
        e += m
    value_at: list[int] = []
    f, t = e, e + len(run_factors)  # where the runs and the run times start
    e = 0
    for step, m in zip(plan.steps, counts, strict=True):
        n = step.n  # (the places of the result's runs and run times, entry after entry)
        value_at += _value_column(range(e, e + m), [range(f, f + m * n)],
                                  [range(t, t + m * n)], n, step.rt)
        e, f, t = e + m, f + m * n, t + m * n if step.rt else t
    return _FastBulk(factors + run_factors, checks, value_at,
                     [r for r, step in enumerate(plan.steps) if step.rt], picker(value_at))


def _slots_in_parts(slots: tuple, at: list[int]) -> tuple:
    """:func:`_slots_of` with each field's place in the parts of the text (``at``,
    :func:`_field_parts`) for its place in the fields: what :func:`_fast_replay` reads."""
    last, title, stamps, cols = slots
    return (last, title, [None if k is None else at[k] for k in stamps],
            [tuple([None if k is None else at[k] for k in c] for c in col) for col in cols])


def _keep_fast(key: tuple, tz: str | None, fio_mb: str, systems: list[_System],
               results: list[_Result], info: dict, plan_key: tuple) -> None:
    """Keep the :class:`_Fast` of a file of a kept template (``key``; none kept yet for these
    options) read without test logs (``systems``, ``results``, ``info``), when its layout
    (``plan_key``) has a kept plan."""
    tpl = _TEMPLATES.get(key)
    if tpl is None or (key, tz, fio_mb) in _FASTS:
        return
    plan = _PLANS.get(plan_key)
    if plan is not None:
        fast = _fast_of(tpl._replace(slots=_slots_in_parts(tpl.slots, _field_parts(key))),
                        plan, systems, results, info, fio_mb)
        if fast is not None:
            remember(_FASTS, (key, tz, fio_mb), fast, _FASTS_MAX)


def _fast_times(fast: _Fast, r: int, texts: list, lengths: list[int],
                memo: dict) -> list | None:
    """The test-run-times of the entries of result ``r`` as :func:`_bulk_times` reads them
    (``memo``: by the JSON fields), or None when they are not plain (one a JSON of no
    test-run-times, other counts than the runs, one not a plain number or negative)."""
    at = fast.json_at[r]
    if at is None:
        return [None] * len(lengths)
    key = tuple(map(texts.__getitem__, at))
    done = memo.get(key)
    if done is None:
        times = []
        for text in key:
            m = _RUN_TIMES_JSON_RE.fullmatch(text.strip())
            if m is None:
                return None
            times.append(m.group(1).split(":"))
        if list(map(len, times)) != lengths:
            return None
        nums = _bulk_nums(list(chain.from_iterable(times)))
        if nums is None or (nums and min(nums) < 0):
            return None
        done = memo[key] = _split(nums, lengths)
    return done


def _fast_stamps(fast: _Fast, texts: list, names: set, tz: str | None,
                 source: str) -> dict | None:
    """The times of the systems ``names`` as :func:`_replay` reads them, or None when a system's
    TimeStamp is present where it was not (or not where it was), or one would be noted."""
    stamps = [s if k is None else texts[k].strip() or None
              for s, k in zip(fast.stamps, fast.stamp_at, strict=True)]
    if any((s is None) != (t is None) for s, t in zip(stamps, fast.stamps, strict=True)):
        return None
    notes: list[str] = []
    out = {}
    for name in names:
        k = fast.stamp_of.get(name)
        out[name] = _tstamp(stamps[k] if k is not None else None, tz, notes, source)
    return None if notes else out


def _fast_replay(fast: _Fast, texts: list, source: str, tz: str | None,
                 fio_mb: str) -> Parsed | None:
    """What :func:`_parse` gives for a composite.xml whose template and plan ``fast`` stands
    for, its fields in ``texts`` (the parts of its text, :func:`_template_parts`), read as
    :func:`_replay` reads the systems and results :func:`_from_template` makes of them; None
    (then that path is taken) when one of its checks would fail, or the file would not have
    the plan's key."""
    values = list(map(str.strip, map(texts.__getitem__, fast.value_at)))
    raws = list(map(str.split, map(str.strip, map(texts.__getitem__, fast.raw_at)),
                    repeat(":")))
    if "" in values or list(map(len, raws)) != fast.lengths:  # (a RawString "": [""], 1 run)
        return None
    nums = _bulk_nums(values + list(chain.from_iterable(raws)))
    if nums is None:
        return None
    plan = fast.plan
    stamps = _fast_stamps(fast, texts, fast.names, tz, source)
    if stamps is None:
        return None
    memo: dict = {}
    consts: dict = {}
    got = _fast_bulk(fast, nums, len(values), texts, source, consts, memo) if fast.bulk else None
    if got is None:
        got = _fast_results(fast, nums, len(values), texts, source, fio_mb, consts, memo)
        if got is None:
            return None
    value_col, series = got
    stamp_col = _stamp_runs_of(list(map(stamps.__getitem__, fast.entry_systems)), fast.spans)
    return _plan_parsed(plan, source, "composite.xml", fast.version, stamp_col, value_col,
                        series)


def _fast_bulk(fast: _Fast, nums: list[float], k: int, texts: list, source: str,
               consts: dict, memo: dict) -> tuple[list, list] | None:
    """The value column and series of :func:`_fast_results`, of numbers (``nums``: ``k``
    Values, then the runs) scaled and checked at once (:class:`_FastBulk`); None when one is
    not as the plan's bases and checks want (then :func:`_fast_results` reads them)."""
    bulk = fast.bulk
    for r, e, m, bs, fio in bulk.checks:  # (every entry MiB/s checked, as in the plan)
        values = nums[e:e + m]
        others = [None if j is None else nums[j] for j in fast.others[r]]
        if not _all_mib_checked(values, others, bs) and any(
                d != _MIB_CHECKED for d in map(_entry_mb_basis, values, others, repeat(bs),
                                               repeat(fio))):
            return None
    scaled = list(map(mul, nums, bulk.factors))  # (floats: float.__mul__, 2.5 times as fast)
    if not (all(map(math.isfinite, scaled)) and min(scaled) >= 0):
        return None
    runs = _split(scaled[k:], fast.lengths)
    times: list = []
    e = 0
    for r, m in enumerate(fast.counts):
        got = _fast_times(fast, r, texts, fast.lengths[e:e + m], memo)
        if got is None:
            return None
        times.append(got)
        e += m
    pool = scaled + list(chain.from_iterable(chain.from_iterable(map(times.__getitem__,
                                                                     bulk.rt))))
    series: list = []
    e = 0
    for (res, made), step, m, rtimes in zip(fast.shared, fast.plan.steps, fast.counts, times,
                                             strict=True):
        sh = _ResultShared(res, None, {}, *made)
        series.extend(map(_LazySeries, repeat(step.n, m), zip(
            repeat(source, m), repeat(consts, m), repeat(sh, m), step.systems, step.keys,
            runs[e:e + m], rtimes, repeat(_NO_LOG, m), strict=True)))
        e += m
    return list(bulk.pick(pool)), series


def _fast_results(fast: _Fast, nums: list[float], k: int, texts: list, source: str,
                  fio_mb: str, consts: dict, memo: dict) -> tuple[list, list] | None:
    """The value column and series of a file read from its fields, result by result as
    :func:`_replay` reads them (``nums``: ``k`` Values, then the runs); None when a check
    fails or a basis is not the plan's."""
    plan = fast.plan
    value_col: list = []
    series: list = []
    e, f = 0, k  # where the result's Values and runs start in nums
    for r, ((res, made), step, m) in enumerate(zip(fast.shared, plan.steps, fast.counts,
                                                   strict=True)):
        lengths = fast.lengths[e:e + m]
        runs = sum(lengths)
        sh = _ResultShared(res, None, {}, *made)
        at = fast.others[r]  # (the IOPS entries' means: their Values, plain numbers all)
        got = _scale_bulk(sh, nums[e:e + m], nums[f:f + runs], lengths, fio_mb,
                          lambda at=at: [None if k is None else nums[k] for k in at])
        e, f = e + m, f + runs
        if got is None or tuple(got[2]) != step.bases:
            return None
        times = _fast_times(fast, r, texts, lengths, memo)
        if times is None:
            return None
        n = step.n
        value_col += _value_column(got[0], got[1], times, n, step.rt)
        series.extend(map(_LazySeries, repeat(n, m), zip(
            repeat(source, m), repeat(consts, m), repeat(sh, m), step.systems, step.keys,
            got[1], times, repeat(_NO_LOG, m), strict=True)))
    return value_col, series


_ROW_COLUMNS = ("timestamp", "run_key", "position", "value", "repetition", "flag")
# row columns a file's layout decides: one list per content, shared by the files that give it
# (as run_columns shares its positions), of values whose equal ones are the same (1 == True)
_LAYOUT_NAMES = frozenset({"position"})
_SHARED_ROWS = 512
_PLAIN = frozenset({str, int, type(None)})
_ROW_SHARED: dict[tuple, list] = {}


class _Shared:
    """The values the rows of a file share, factored as they are made: per result, its dict
    (test, metric, …); per entry, its system's dict (``hw_*``, ``sw_*``), ``config``,
    ``tool_version`` and its ``mb_basis`` or ``basis``; and what runtime rows have of their own
    (:data:`_RUNTIME`, which wins). A row of entry ``e`` has ``which`` ``2 * e``, a runtime row
    of it ``2 * e + 1``. The column names are kept in the order in which they first appear in
    the dicts these values stand for (:meth:`merged`, in order of first use: the order
    run_columns gives them)."""

    __slots__ = ("names", "bases", "res", "metas", "seen", "config", "tool_version", "mb_basis",
                 "basis", "runtimes")

    def __init__(self):
        self.names: dict = {}  # (keys only)
        self.bases: list[dict] = []  # the results' dicts, in order of first use
        self.res: list[int] = []  # per entry: its result's place in bases
        self.metas: list[dict] = []  # per entry: its system's dict
        self.seen: set[int] = set()  # ids of the system dicts met
        self.config: list[str] = []
        self.tool_version: list = []
        self.mb_basis: list = []
        self.basis: list = []
        self.runtimes = False  # whether there are runtime rows

    def entry(self, base: dict, meta: dict, config: str, tool_version, basis_key: str,
              basis: str | None) -> int:
        """Add an entry that gives rows (``base`` is its result's dict, the same object for
        every entry of the result, a new one per result); its rows' ``which``."""
        names, bases = self.names, self.bases
        if not bases or bases[-1] is not base:
            bases.append(base)
            names.update(base)
        if id(meta) not in self.seen:  # (every system dict is kept alive by its _Rows)
            self.seen.add(id(meta))
            names.update(meta)
        e = len(self.res)
        if not e:
            names.update(config=None, tool_version=None)
        if basis:
            names.setdefault(basis_key)
        else:
            basis = None
        self.res.append(len(bases) - 1)
        self.metas.append(meta)
        self.config.append(config)
        self.tool_version.append(tool_version)
        self.mb_basis.append(basis if basis_key == "mb_basis" else None)
        self.basis.append(basis if basis_key == "basis" else None)
        return 2 * e

    def entries(self, base: dict, metas: list[dict], configs: list[str], tool_versions: list,
                basis_key: str, bases: list, runtime: bool) -> int:
        """:meth:`entry` for each entry of one result (and :meth:`runtime` after the first when
        ``runtime``): the first one's ``which``. When nothing new appears in them (no
        first entry, system, basis name or runtime rows) their values are appended at once."""
        names = self.names
        if (self.res and (self.runtimes or not runtime) and set(map(id, metas)) <= self.seen
                and (basis_key in names or not any(bases))):
            if not self.bases or self.bases[-1] is not base:
                self.bases.append(base)
                names.update(base)
            m = len(metas)
            w = 2 * len(self.res)
            self.res += [len(self.bases) - 1] * m
            self.metas += metas
            self.config += configs
            self.tool_version += tool_versions
            bases = [b or None for b in bases]
            self.mb_basis += bases if basis_key == "mb_basis" else [None] * m
            self.basis += bases if basis_key == "basis" else [None] * m
            return w
        w = self.entry(base, metas[0], configs[0], tool_versions[0], basis_key, bases[0])
        if runtime:
            self.runtime()
        for args in zip(metas[1:], configs[1:], tool_versions[1:], bases[1:], strict=True):
            self.entry(base, *args[:3], basis_key, args[3])
        return w

    def runtime(self) -> None:
        """Runtime rows are made (of the entry added last)."""
        if not self.runtimes:
            self.runtimes = True
            self.names.update(_RUNTIME)

    def merged(self, w: int) -> dict:
        """The shared values of the rows whose ``which`` is ``w``, as one dict: what the
        factored values stand for (the dict a row's values were merged to, one per entry)."""
        e = w // 2
        out = {**self.bases[self.res[e]], **self.metas[e], "config": self.config[e],
               "tool_version": self.tool_version[e]}
        for name, values in (("mb_basis", self.mb_basis), ("basis", self.basis)):
            if values[e] is not None:
                out[name] = values[e]
        return {**out, **_RUNTIME} if w % 2 else out


def _columns(fixed: dict, columns: tuple[list, ...], which: list[int], shared: _Shared
             ) -> tuple[dict, int]:
    """The columns :func:`~ebsstats.io._rows.run_columns` gives for the rows whose values are
    ``columns`` (one list per name of :data:`_ROW_COLUMNS`) and whose shared values are
    ``shared.merged(which[i])`` for row i (known as the rows are made: no pass over the runs
    to find them).

    A column's value is read from each result's dict (a few) or each entry's values, and spread
    to the rows in C; a column of one value (of one type) is a :class:`Const`. The positions
    are one list for the files that give the same (as run_columns shares them)."""
    n = len(which)
    cols: dict = {k: Const(v, n) for k, v in fixed.items()}
    for name, column in zip(_ROW_COLUMNS, columns, strict=True):
        if name in _LAYOUT_NAMES and n <= _SHARED_ROWS and _PLAIN.issuperset(map(type, column)):
            key = tuple(column)
            shared_column = _ROW_SHARED.get(key)
            if shared_column is None:
                remember(_ROW_SHARED, key, column, _SPREAD_MAX)
            else:
                column = shared_column
        cols[name] = column
    if n:  # the entries' times in runs (see _stamp_runs)
        cols["timestamp"] = _stamp_runs(cols["timestamp"])
    else:
        return cols, n
    sh = shared
    pick = picker(which)
    m, r = len(sh.res), len(sh.bases)
    # per value of which (2e, 2e + 1): its result (or r: runtime's own), its entry (or m)
    tables = {"res": lambda: zip(sh.res, sh.res, strict=True),
              "res_rt": lambda: zip(sh.res, repeat(r, m), strict=True),
              "ent": lambda: zip(range(m), range(m), strict=True),
              "ent_rt": lambda: zip(range(m), repeat(m, m), strict=True)}
    getters: dict = {}  # kind -> picks each row's value from the values per result or entry
    layout = None
    in_bases = set().union(*sh.bases)
    own = {"config": sh.config, "tool_version": sh.tool_version, "mb_basis": sh.mb_basis,
           "basis": sh.basis}
    vocabulary = _VOCABULARY_NAMES if _vocabulary_agrees(sh.bases, sh.runtimes) else ()
    for name in sh.names:  # (a system's dict has none of the results' names, nor own's)
        if name in vocabulary:  # left to the metric vocabulary, as other readers leave them
            cols[name] = Const(None, n)
        elif name in in_bases:
            values, kind = list(map(dict.get, sh.bases, repeat(name))), "res"
        elif name in own:
            values, kind = own[name], "ent"
        else:
            values, kind = list(map(dict.get, sh.metas, repeat(name))), "ent"
        if name in vocabulary:
            continue
        if sh.runtimes and name in _RUNTIME:  # runtime rows have their own value
            values, kind = [*values, _RUNTIME[name]], kind + "_rt"
        if is_constant(values):  # one value (of one type) in every row: typed once
            cols[name] = Const(values[0], n)
            continue
        key = None  # a column files of one campaign repeat: made once for them
        types = tuple(map(type, values))
        if n <= _SPREAD_ROWS and _SPREADABLE.issuperset(types):
            if layout is None:
                layout = _layout_token(which, sh.res)
            key = (layout, kind, tuple(values), types)
            column = _SPREAD.get(key)
            if column is not None:
                cols[name] = _copied(column)
                continue
        got = getters.get(kind)
        if got is None:
            rows_at = list(pick(list(chain.from_iterable(tables[kind]()))))
            # (runtime rows between the others: their places change at almost every row)
            got = getters[kind] = (picker(rows_at), None if kind.endswith("_rt") else
                                   _runs_once(rows_at))
        cols[name] = column = _spread_column(name, values, *got)
        if key is not None:
            remember(_SPREAD, key, column, _SPREAD_MAX)
    return cols, n


def _stamp_runs(stamps: list) -> list | Runs:
    """The rows' times (an entry's one object on its rows) as their runs of one object when
    they are fewer than half the rows, else the list: typed run by run
    (``_columns._aware_stamp_runs``: each run's Timestamp read once, no per-row pass), the
    4-file PTS folder's first file 54 runs of 297 rows.

    >>> t = pd.Timestamp("2024-01-01", tz="UTC")
    >>> _stamp_runs([t, t, t, None])
    Runs(values=[Timestamp('2024-01-01 00:00:00+0000', tz='UTC'), None], counts=[3, 1])
    >>> _stamp_runs([t, None])
    [Timestamp('2024-01-01 00:00:00+0000', tz='UTC'), None]
    """
    runs = object_runs(stamps, len(stamps) // 2)
    return runs if stamps and runs is not None else stamps


def _stamp_runs_of(stamps: list, counts: list[int]) -> list | Runs:
    """:func:`_stamp_runs` of the rows ``stamps[i]`` on ``counts[i]`` rows (ints > 0: an
    entry's time on its rows), from the entries' runs, without a list of the rows: the same
    Runs (or list) the full path gives.

    >>> t, u = (pd.Timestamp(x, tz="UTC") for x in ("2024-01-01", "2024-01-02"))
    >>> _stamp_runs_of([t, t, u], [2, 1, 3]) == _stamp_runs([t, t, t, u, u, u])
    True
    >>> _stamp_runs_of([], []), _stamp_runs_of([t, u], [1, 1])[1:]
    ([], [Timestamp('2024-01-02 00:00:00+0000', tz='UTC')])
    >>> _stamp_runs_of([t, u], [1, 1])
    [Timestamp('2024-01-01 00:00:00+0000', tz='UTC'), Timestamp('2024-01-02 00:00:00+0000', tz='UTC')]
    """
    k = len(stamps)
    starts = run_starts(stamps)
    ends = list(itertools.accumulate(counts))
    if not starts or k != len(ends) or len(starts) > ends[-1] // 2:  # (no entry: no row)
        return list(chain.from_iterable(map(repeat, stamps, counts)))
    n = ends[-1]
    stops = [*map(ends.__getitem__, [s - 1 for s in starts[1:]]), n]
    return Runs(list(map(stamps.__getitem__, starts)), list(map(sub, stops, [0, *stops[:-1]])))


def _copied(column: list | Runs) -> list | Runs:
    """A kept column for a file: a copy of a list (see :data:`_SPREAD`), a Runs as it is."""
    return column if type(column) is Runs else list(column)


def _runs_once(at: list[int]):
    """``_index_runs(at)`` when first asked for, kept for the next asks: the runs of a kind of
    places, found only for a column that looks at them (of the 4-file PTS folder's first file,
    three kinds of four: one :func:`_index_runs` of 297 rows, ~10 us, less)."""
    kept: list = []

    def runs() -> tuple[list[int], list[int]]:
        if not kept:
            kept.append(_index_runs(at))
        return kept[0]
    return runs


def _spread_column(name: str, values: list, get, runs) -> list | Runs:
    """The rows' column of a shared value: ``get`` picks each row's from ``values``; ``runs()``
    gives the rows' runs of one place in ``values`` (:func:`_index_runs`). A column of at most
    :data:`_FEW_RUNS` runs of one object (a result's test, op, arguments on its rows) is
    those runs (the same objects on the same rows: typed once per run instead of row by row,
    the 4-file PTS folder's typing -0.2 ms, 9 such columns; more runs cost the typing more
    than their rows did), found from the places' runs without a list of the rows; from the
    rows' objects when ``runs`` is None (places that change at almost every row: runtime
    rows between the others, whose runs of places cost more than the rows' objects)."""
    if name in _VOCABULARY_KEYS or sum(map(is_not, islice(values, 1, None), values)
                                       ) >= _FEW_RUNS:  # (the rows visit the values in order,
        # each at least once: as many runs at least; the vocabulary's are read row by row,
        # _vocabulary_filled)
        return list(get(values))
    if runs is None:
        return _object_runs(get(values))
    at, ends = runs()
    objects = list(map(values.__getitem__, at))  # (each run of places: one object)
    keep = list(itertools.compress(range(len(objects)), chain((True,), map(
        is_not, islice(objects, 1, None), objects))))  # (a run whose object is not the one
    # before it starts a run of the rows' objects)
    if len(keep) > _FEW_RUNS:
        return list(get(values))
    stops = [*map(ends.__getitem__, [k - 1 for k in keep[1:]]), ends[-1]]
    return Runs(list(map(objects.__getitem__, keep)), list(map(sub, stops, [0, *stops[:-1]])))


_FEW_RUNS = 8  # runs of a column handed over as Runs, at most


def _object_runs(objects: tuple) -> list | Runs:
    """The rows' ``objects`` as their runs of one object when at most :data:`_FEW_RUNS`, else
    as a list (what :func:`_spread_column` finds from the runs of places).

    >>> _object_runs(("a", "a", None)), _object_runs(tuple(range(9)))[:2]
    (Runs(values=['a', None], counts=[2, 1]), [0, 1])
    """
    return object_runs(objects, _FEW_RUNS) or list(objects)


def _index_runs(at: list[int]) -> tuple[list[int], list[int]]:
    """The runs of equal places ``at`` (one per row, not empty): each run's place and the row
    it stops before.

    >>> _index_runs([0, 0, 1, 0, 0, 0])
    ([0, 1, 0], [2, 3, 6])
    """
    n = len(at)
    starts = list(itertools.compress(range(n), chain((True,), map(ne, islice(at, 1, None), at))))
    return list(map(at.__getitem__, starts)), [*starts[1:], n]


# unit and higher_is_better: what the metric vocabulary (schema.metric_info) gives a row of
# its metric, wherever it is what the reader gives (every metric but score and lat_mean of a
# profile's Proportion HIB, a bandwidth or iops of LIB or NIB); then both columns are left
# missing (Const None), as the other readers leave them, and the typing derives them from the
# metric's codes (_columns._vocabulary_columns: the same typed columns) instead of typing two
# lists per file and filling their missing values row by row. parse() gives them back per row
# (_vocabulary_filled)
_VOCABULARY_NAMES = ("unit", "higher_is_better")
_VOCABULARY_KEYS = ("metric", *_VOCABULARY_NAMES)


def _vocabulary_agrees(bases: list[dict], runtimes: bool) -> bool:
    """Whether the unit and higher_is_better of every row (its result's dict in ``bases``; the
    runtime rows' own, :data:`_RUNTIME`, when ``runtimes``) are its metric's in the
    vocabulary, value and type.

    >>> _vocabulary_agrees([{"metric": "iops", "unit": "IO/s", "higher_is_better": True}], True)
    True
    >>> _vocabulary_agrees([{"metric": "iops", "unit": "IO/s", "higher_is_better": None}], False)
    False
    """
    rows = [tuple(map(b.get, _VOCABULARY_KEYS)) for b in bases]
    if runtimes:
        rows.append(tuple(map(_RUNTIME.get, _VOCABULARY_KEYS)))
    try:  # each distinct (metric, unit, direction) once, told apart by type (True == 1)
        distinct = {(*row, *map(type, row)) for row in rows}
        known = [(row, _metric_info(row[0])) for row in distinct]
    except (SchemaError, TypeError):  # (not a metric of the vocabulary, or unhashable)
        return False
    return all(unit == info[0] and type(unit) is type(info[0]) and hib is info[1]
               for (_, unit, hib, *_), info in known)


def _vocabulary_filled(columns: tuple[dict, int]) -> tuple[dict, int]:
    """``columns`` with the unit and higher_is_better :func:`_columns` left to the vocabulary
    given per row (the metric's, as the typing derives them), as :func:`_columns` made them
    before: a :class:`Const` when one value (of one type) is on every row. Columns whose unit
    is given are returned as they are (a reader's unit is never missing)."""
    cols, n = columns
    unit = cols.get("unit")
    if not n or type(unit) is not Const or unit.value is not None:
        return columns
    metric = cols["metric"]
    metrics = [metric.value] * n if type(metric) is Const else metric
    infos = {m: _metric_info(m) for m in set(metrics)}
    cols = dict(cols)
    for name, k in zip(_VOCABULARY_NAMES, (0, 1), strict=True):
        values = [infos[m][k] for m in metrics]
        cols[name] = Const(values[0], n) if is_constant(values) else values
    return cols, n


# the columns of shared values spread to the rows, by what decides them (the rows' layout, the
# values and their types), made once for the files of one campaign (never modified). Only
# values of these types: equal values of them are the same value (1 == 1.0 == True, 0.0 ==
# -0.0). Each file gets a copy, not the list itself: a list several files share is typed once
# but by a slower path (_columns._column_by_codes' codes and spread), which cost the 4-file
# PTS folder's read more (0.6 ms) than sharing saved its parse (0.3 ms); the copy keeps most
# of the parse's gain (measured in one process, CPU, best of 25, 4 rounds). A column of few
# runs is kept as its Runs (:func:`_spread_column`), handed over as it is: no file's rows hold it
_SPREAD: dict[tuple, list | Runs] = {}
_SPREAD_MAX, _SPREAD_ROWS = 1024, 2048  # (a hostile folder cannot grow it without end)
_SPREADABLE = frozenset({str, int, bool, type(None)})
_LAYOUTS: dict[tuple, int] = {}  # the rows' layout (which, each entry's result) -> its token
_TOKENS = itertools.count()  # (never the same token twice, whatever was forgotten)


def _layout_token(which: list[int], res: list[int]) -> int:
    """A number for what decides the places of the rows' shared values."""
    key = (tuple(which), tuple(res))
    token = _LAYOUTS.get(key)
    if token is None:
        token = next(_TOKENS)
        remember(_LAYOUTS, key, token, _SPREAD_MAX)
    return token




# --------------------------------------------------------------------------------------------
# public


def _parse_xml(text: str, source: str, tz: str | None, fio_mb: str,
               log_dir: Path | None) -> Parsed:
    """:func:`_parse` of a composite.xml (of either schema): a file of a kept template and plan
    read from its fields (:func:`_fast_replay`), else of a kept template from its fields and
    the template's systems and results (:func:`_from_template`), else parsed; the template and
    the :class:`_Fast` of a file kept for the next ones."""
    fmt = "composite.xml"
    got = _template_parts(text)
    fast = _FASTS.get((got[0], tz, fio_mb)) if got and log_dir is None else None
    if fast is not None:
        parsed = _fast_replay(fast, got[1], source, tz, fio_mb)  # (the fields in the parts)
        if parsed is not None:
            return parsed
    fields = None if got is None else (got[0], _parts_fields(got[1]))
    got = _from_template(*fields) if fields is not None else None
    if got is not None:
        systems, results, info = got
    else:
        root = _load_xml(text, source)
        if root.tag != "PhoronixTestSuite":
            raise ParseError(source, f"/{root.tag}", "a <PhoronixTestSuite> root element",
                             found=f"<{root.tag}>")
        if root.find("Benchmark") is not None and root.find("Result") is None:
            systems, results, info = _parse_pre3(root, source)
            return _records(systems, results, info, source, "composite.xml pre-3.0", tz,
                            fio_mb, log_dir)
        systems, results, info = _parse_composite(root, source)
        if fields is not None:
            _keep_template(text, fields, root, systems, results, info)
    if fields is None or log_dir is not None or fast is not None:
        return _records(systems, results, info, source, fmt, tz, fio_mb, log_dir)
    key = _plan_key(systems, results, info, fmt, tz, fio_mb)
    parsed = _records(systems, results, info, source, fmt, tz, fio_mb, None, key)
    _keep_fast(fields[0], tz, fio_mb, systems, results, info, key)
    return parsed


def _test_logs_next_to(source: str) -> Path | None:
    """``Path(source).parent / "test-logs"`` when it is a directory, else None; found by
    ``os.path`` (no Path made for a file without one, 7.5 -> 3 us a file) when the last part
    of ``source`` is a name (Path takes a trailing separator or ``.`` off before its parent)."""
    if os.path.basename(source) in ("", "."):
        cand = Path(source).parent / "test-logs"
        return cand if cand.is_dir() else None
    cand = os.path.join(os.path.dirname(source), "test-logs")
    return Path(cand) if os.path.isdir(cand) else None


def _parse(text: str, source: str, *, tz: str | None = None, fio_mb: str = "auto",
          test_logs: str | os.PathLike | None | bool = "auto", **options) -> Parsed:
    """:func:`parse`, with series left as :class:`~ebsstats.io._common.Columns` (the
    folder read types them with every other file's; no DataFrame per file)."""
    if options:
        raise TypeError(f"unknown option(s) for the PTS reader: {sorted(options)}")
    if fio_mb not in ("auto", "MiB", "MB"):
        raise ValueError("fio_mb must be 'auto', 'MiB' or 'MB'")
    if tz is not None:
        try:
            pd.Timestamp("2000-01-01").tz_localize(tz)
        except Exception as exc:  # zoneinfo/pytz raise their own types for unknown zones
            raise ValueError(f"tz={tz!r} is not a known IANA time zone") from exc
    if text.lstrip().startswith("<"):
        # XML: the root element decides which schema (sniff would only say the same or
        # nothing), and the XML parser says what is wrong
        fmt = "composite.xml"
    else:
        fmt = sniff(text[:65536], source)
    if fmt is None:
        raise ParseError(source, 1, "a PTS composite.xml or a PTS CSV/JSON export",
                         found=text.lstrip()[:80])
    log_dir: Path | None = None
    if test_logs == "auto":
        log_dir = _test_logs_next_to(source)
    elif test_logs:
        log_dir = Path(test_logs)
    if fmt.startswith("composite"):
        return _parse_xml(text, source, tz, fio_mb, log_dir)
    if fmt == "json export":
        systems, results, info = _parse_json_export(text, source)
    elif fmt == "csv export":
        systems, results, info = _parse_csv_export(text, source)
        log_dir = None
    else:
        systems, results, info = _parse_raw_csv_export(text, source)
        log_dir = None
    return _records(systems, results, info, source, fmt, tz, fio_mb, log_dir)



def parse(text: str, source: str, *, tz: str | None = None, fio_mb: str = "auto",
          test_logs: str | os.PathLike | None | bool = "auto", **options) -> Parsed:
    """Parse a PTS result file (composite.xml of either schema) or one of PTS's exports.

    Parameters
    ----------
    text : str
        The file's content.
    source : str
        Its name, used in rows and errors (and, with ``test_logs="auto"``, to find
        ``test-logs/`` next to it).
    tz : str, optional
        IANA zone of the PTS machine's local time (PTS writes times without a zone); default:
        read them as UTC.
    fio_mb : {"auto", "MiB", "MB"}
        What the "MB/s" of fio test profiles means (module docstring); "auto" checks it
        against the IOPS result and the block size.
    test_logs : "auto", path, or False
        The result directory's ``test-logs`` folder for per-run times; "auto" looks next to
        ``source``; ``False`` ignores it.

    Returns
    -------
    Parsed
        Records (see module docstring), per-run series, notes about skipped entries.

    Raises
    ------
    ParseError
        Not a PTS result file, malformed XML/CSV/JSON, or an XML document with entity
        declarations or external references (refused, never expanded).

    Examples
    --------
    >>> p = parse('<PhoronixTestSuite><System><Identifier>a</Identifier></System>'
    ...           '<Result><Title>T</Title><Scale>Seconds</Scale><Proportion>LIB</Proportion>'
    ...           '<Data><Entry><Identifier>a</Identifier><Value>PASS</Value></Entry></Data>'
    ...           '</Result></PhoronixTestSuite>', "x.xml")
    >>> p.records, p.notes[0].endswith("skipped")
    ([], True)
    """
    parsed = public_series(_parse(text, source, tz=tz, fio_mb=fio_mb, test_logs=test_logs,
                                  **options))
    parsed.columns = _vocabulary_filled(parsed.columns)  # (as a row's own, for its reader)
    parsed.records = records_of(parsed.columns)  # rows as dicts for whoever looks at them
    return parsed

def read_pts(path: str | os.PathLike, *, series: bool = False, tz: str | None = None,
             fio_mb: str = "auto", test_logs: str | os.PathLike | None | bool = "auto",
             **meta):
    """Read one PTS result file (composite.xml, or a CSV/JSON export) into the tidy frame.

    Parameters
    ----------
    path : str or path-like
        ``composite.xml`` (PTS ≥ 3.0 or the pre-2011 schema) or an export.
    series : bool
        Also return the per-run series frame (``(results, series)``).
    tz, fio_mb, test_logs
        See :func:`parse`.
    **meta
        Metadata set on every row (``volume_type="gp3"``, …), overriding the file.

    Examples
    --------
    >>> import ebsstats as es
    >>> df = es.read_pts("tests/fixtures/pts/pts-10.8.4_composite_1system.xml")  # doctest: +SKIP
    """
    return read_one(path, _parse, meta=meta, series=series, tz=tz, fio_mb=fio_mb,
                    test_logs=test_logs)


def _parse_data(data: bytes, source: str, context: Mapping) -> Parsed:
    """The folder read's parse: :func:`_parse` of the decoded bytes, with the ``test-logs/``
    folder next to the file itself (``context["path"]``), not next to ``source``, which a
    folder read gives relative to the folder: resolved against the working directory, the
    run times of the logs were found or not depending on where the reader was started."""
    path = context.get("path")
    logs = "auto" if path is None else _test_logs_next_to(str(path))
    text = decode(data, source)
    if path is not None and _a_piece_of_its_composite(text, path):
        return Parsed(tool="pts", format="composite.xml", why_empty=(
            "a result file PTS keeps beside the composite.xml it merged it into (every system, "
            "value and raw run of it is there): read there, not twice"))
    parsed = _parse(text, source, test_logs=logs)
    if not parsed.nrows() and parsed.why_empty is None and (err := _PTS_ERROR_RE.search(text)):
        parsed.why_empty = (f"its entries hold no value; PTS recorded the test's error: "
                            f"{err.group(1)[:200]}")
    return parsed


# an Entry's JSON error (a test that failed: no Value, no RawString)
_PTS_ERROR_RE = re.compile(r'"error"\s*:\s*"((?:[^"\\]|\\.)*)"')


def _a_piece_of_its_composite(text: str, path: Path) -> bool:
    """Whether ``text`` is one of the per-test result files PTS writes beside a result's
    ``composite.xml`` (``test-1.xml``, …, ``active.xml``; PTS 5.x) and ``composite.xml`` holds
    every system identifier, value and raw-run string of it: then its runs are that file's
    too, and reading both counted each run twice (laertispappas/aws-ec2-phoronix-benchmark:
    6,268 rows for 3,333). A composite beyond :data:`_WHOLE_MOST` bytes is not read for it
    (a folder of many pieces would read it once each): the piece is read as a result. So is a
    piece with the very text of its composite (``active.xml`` copied over it, as in that
    repository's ``threaded-last`` folders): the folder read then names the composite a
    duplicate of it, and the results are read once, not dropped by each file for the other."""
    if not _PIECE_NAME.fullmatch(path.name):
        return False
    whole = path.parent / "composite.xml"
    try:
        if not whole.is_file() or whole.stat().st_size > _WHOLE_MOST:
            return False
        other = whole.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    if other == text:  # (the composite's twin: the folder read keeps one of the two, this one
        # when it comes first, and names the other a duplicate; as a piece, neither was read)
        return False
    mine = {m.group(0) for m in _PIECE_FIELDS.finditer(text)}
    return bool(mine) and all(field in other for field in mine)


_PIECE_NAME = re.compile(r"(?:test-\d+|active)\.xml", re.IGNORECASE)
_WHOLE_MOST = 32 * 1024**2  # (PTS composites are kilobytes to a few megabytes)
_PIECE_FIELDS = re.compile(r"<(Identifier|Value|RawString)>[^<]*</\1>")


# the reader this module registers (ebsstats.io._registry): sniff, then parse the bytes (the
# file's own path asked for: its test-logs folder)
READER = Reader(tool="pts", name=__name__, detect=sniff, parse=_parse_data,
                memory_factor=MEMORY_FACTOR, needs=frozenset({"path"}))
