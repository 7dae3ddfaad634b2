"""bonnie++ reader: the shortcuts of the fast CSV path decide as the general rules do.

A CSV row's layout columns (position, test, workload, op, block_size, metric, flag) are kept per
layout (which cells are empty or '+++', chunk, line) and only its values computed (a digits
text's float kept per text); what a row's settings fields make of it (version, concurrency,
chunk, metadata) is kept per settings, and a one-run file's columns but its source, values and
seed per settings and layout; a row's verdict is kept by its shape (first field, ASCII digits
made 0), and a layout by the shape of the cells. Each shortcut is checked here against the general way it replaces
(every cell through ``_run_rows``, the rows transposed by ``run_columns``, the settings worked
out afresh): same columns, same representation (Const or list), same errors, on the genuine
rows and on mutants, with the caches empty and warm.
"""

from __future__ import annotations

import random

from ebsstats.errors import ParseError
from ebsstats.io import bonnie
from ebsstats.io._columns import Const
from tests.conftest import FIXTURES

BON = FIXTURES / "bonnie"


def _canon(value):
    if type(value) is float and value != value:
        return ("nan",)
    return (type(value).__name__, value)


def _outcome(text: str, source: str = "x.csv"):
    """Everything of a parse that the frame or the error shows, values with their types."""
    try:
        p = bonnie._parse(text, source)
    except ParseError as exc:
        return ("error", str(exc), exc.source, exc.position, exc.expected, exc.found)
    cols, n = p.columns
    shown = [(k, "Const", _canon(c.value), c.n) if type(c) is Const
             else (k, "list", tuple(map(_canon, c))) for k, c in cols.items()]
    return (p.format, p.version, tuple(p.notes), n, shown)


def _general(text: str, monkeypatch) -> tuple:
    """The outcome without the shortcuts: every cell the general way, the settings of each row
    worked out afresh (no cache)."""
    with monkeypatch.context() as m:
        m.setattr(bonnie, "_csv_columns", lambda *args: None)
        m.setattr(bonnie, "_CSV_SETTINGS", {})
        return _outcome(text)


_TOKENS = ["", "+++", "+++++", "++", "12", "1.5", "0", "0.0", "12ms", "3us", "4s", "977us",
           "1.25ms", "abc", "16G", "8k", "9" * 400, "1" + "0" * 308, "1e5", "-1", "2.00a",
           "99999999999999999999999", " 1", "1.", "12m", "5:6", "link"]


def _csv_texts() -> list[str]:
    texts = []
    for p in sorted(BON.iterdir()):
        text = p.read_text()
        if any(line.count(",") >= 26 for line in text.splitlines()):
            texts.append(text)
    return texts


def _mutants(texts: list[str], n: int, seed: int = 19) -> list[str]:
    """Fixture files with CSV fields replaced, dropped or added, rows repeated or renumbered."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        lines = rng.choice(texts).split("\n")
        rows = [i for i, line in enumerate(lines) if line.count(",") >= 26]
        i = rng.choice(rows)
        fields = lines[i].split(",")
        for _ in range(rng.choice([1, 1, 2, 3, 5])):
            k = rng.randrange(len(fields))
            what = rng.random()
            if what < 0.8:
                fields[k] = rng.choice(_TOKENS)
            elif what < 0.9:
                del fields[k]
            else:
                fields.insert(k, rng.choice(_TOKENS))
        lines[i] = ",".join(fields)
        if rng.random() < 0.2:
            lines.insert(0, "")  # another line number
        if rng.random() < 0.2:
            lines += [lines[i]] * rng.randrange(1, 3)  # repetitions
        out.append("\n".join(lines))
    return out


_SETTINGS = ["", "0", "1", "2", "16", "4096", "4k", "8k", "64k", "512M", "1G", "link", "symlink",
             "1.97", "2.00a", "x", "vm2", "99999999999999999999999"]


def _settings_mutants(texts: list[str]) -> list[str]:
    """Every fixture CSV row with each of its settings fields (all but the seed and the cells)
    set to each of a few values: rows that differ in one setting only."""
    out = []
    for text in texts:
        for row in (line for line in text.splitlines() if line.count(",") >= 26):
            fields = row.split(",")
            layout = {27: bonnie._LAYOUT_103, 48: bonnie._LAYOUT_196, 50: bonnie._LAYOUT_198}
            names = layout.get(len(fields), [])
            cells = {"seed", *bonnie._RESULT_FIELDS, *bonnie._LAT_FIELDS}
            for k, name in enumerate(names):
                if name not in cells:
                    for value in _SETTINGS:
                        out.append(",".join(fields[:k] + [value] + fields[k + 1:]))
    return out


def test_the_layout_path_gives_the_general_columns_and_errors(monkeypatch):
    texts = _csv_texts()
    assert len(texts) >= 8
    cases = texts + _settings_mutants(texts) + _mutants(texts, 2500)
    for cold in (True, False):  # caches empty (each layout and latency new) and then warm
        if cold:
            monkeypatch.setattr(bonnie, "_CSV_LAYOUTS", {})
            monkeypatch.setattr(bonnie, "_LAYOUT_OF_SHAPE", {})
            monkeypatch.setattr(bonnie, "_CSV_SETTINGS", {})
            monkeypatch.setattr(bonnie, "_CSV_FILE_COLUMNS", {})
            monkeypatch.setattr(bonnie, "_LATENCY_SECONDS", {})
            monkeypatch.setattr(bonnie, "_ROW_VALUES", {})
        for text in cases:
            assert _outcome(text) == _general(text, monkeypatch), text


def test_rows_of_one_layout_share_its_lists_and_differ_in_values():
    row = (BON / "bon_q_s512_n0.csv").read_text().splitlines()[-1].split(",")
    other = list(row)
    other[11] = str(int(row[11]) + 1)  # another put_block figure
    bonnie._parse(",".join(row), "x.csv")  # its latencies seen once (the general way)
    a, b = (bonnie._parse(",".join(r), "x.csv").columns[0] for r in (row, other))
    assert a["metric"] is b["metric"] and a["position"] is b["position"]
    assert a["value"] != b["value"]
    plus = list(row)
    plus[11] = "+++++"  # the same cell too fast: another layout
    c = bonnie._parse(",".join(plus), "x.csv").columns[0]
    assert c["flag"] is not a["flag"] and "too_fast" in c["flag"]


# --- the sniff's prefilter ------------------------------------------------------------------------
_CLUES = ["Machine", "Machine  Size K/sec %CP", "Name:Size etc        /sec %CP", "Size",
          "Sequential Output", "Sequential Create", "Sequential Write", "Version  2.00a   ---",
          "-Sequential Output", "--Sequential Create", "-Sequential ", "Machine Size", "Size:",
          "format_version,bonnie_version,", "name,file_size,putc,", ",bonnie_version,",
          ",file_size,putc,", "," * 25, "," * 26, "," * 40, ",\n", "\n", "\r", "\x0c", "\u2028",
          "Version  2.00a       ------Sequential Output------ --Sequential Input- --Random-\n",
          "                    ------Sequential Create------ --------Random Create--------\n",
          "1.98,2.00a,vm,1,42,512M,,8192,5,,,466701,34,664719,32,,,+++++,+++,+++++,+++"
          + "," * 19 + "251us,60us,,4040us,24070us" + "," * 6,
          "vm,512M,,,529610,43,1040537,44,,,+++++,+++,+++++,+++,,,,,,,,,,,,,",
          "1.98,2.00a,vm,1,42" + "," * 45]  # (the last: a row without results)


def _heads() -> list[str]:
    """The heads of every genuine output of every tool (fixtures and the bundled corpus)."""
    roots = [FIXTURES, FIXTURES.parent.parent / "data"]
    return [p.read_bytes()[:65536].decode("utf-8", "replace")
            for root in roots for p in sorted(root.rglob("*")) if p.is_file()]


def test_the_sniff_shortcuts_give_the_verdict_of_the_full_look(monkeypatch):
    # _worth_a_look says None only when no line could be bonnie++'s, and _first_row answers
    # only for a first line that is a row with results: the verdict must be the one of the
    # sniff that looks at every line with every pattern (tables=True, no prefilter)
    heads = _heads()
    assert len(heads) > 1000
    rng = random.Random(19)
    mutants = []
    for _ in range(6000):
        h = rng.choice(heads)[:4096]
        for _ in range(rng.choice([1, 2, 3])):
            i = rng.randrange(len(h) + 1)
            if rng.random() < 0.8:
                h = h[:i] + rng.choice(_CLUES) + h[i:]
            else:
                h = h[:i] + h[i + rng.randrange(60):]
        mutants.append(h)
    mutants += [c + "\n" + h for c, h in zip(_CLUES * 20, rng.sample(heads, 20 * len(_CLUES)),
                                              strict=True)]
    fast = [bonnie.sniff(h, "x") for h in heads + mutants]
    monkeypatch.setattr(bonnie, "_worth_a_look", lambda head: True)
    assert [bonnie._sniff_lines(h) for h in heads + mutants] == fast
    assert {v for v in fast if v} >= {"csv 1.98", "csv 1.03", "text", "bon_csv2txt", "csv"}


def test_a_chunk_taken_from_the_table_is_not_the_kept_columns_of_the_row_alone(monkeypatch):
    # the columns kept for a row's settings hold its metadata; a chunk recovered from the text
    # table (here the default size, 8k: the same layout) changes it, so they must not be used
    text = (BON / "gen_chunk64k_s512_n0_f.txt").read_text().replace("512M:64k", "512M:8k  ")
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("1.98,"))
    alone = "\n" * row + lines[row] + "\n"  # the same row at the same line, no table
    for _ in range(2):
        assert _outcome(alone) == _general(alone, monkeypatch)
    got = _outcome(text)
    assert got == _general(text, monkeypatch)
    assert got != _outcome(alone) and "chunk 8k taken from the table" in got[2][1]


# --- a row's classification by its shape ------------------------------------------------------
def _vary_digits(line: str, rng: random.Random) -> str:
    """The line with some of its ASCII digits (the format field's too) swapped for others."""
    return "".join(rng.choice("0123456789") if c.isascii() and c.isdigit() and rng.random() < 0.3
                   else c for c in line)


def test_a_row_of_a_shape_seen_gets_the_verdict_of_every_rule(monkeypatch):
    # _classify accepts a line of the shape of one accepted before (the same first field, the
    # other characters the same but for ASCII digits) without its checks: the verdict must be
    # the one of every rule (_classify_anew), format and fields, or None, or the same error
    texts = _csv_texts()
    rng = random.Random(23)
    cases = texts + _mutants(texts, 3000, seed=23) + _settings_mutants(texts)
    rows = [line for text in cases for line in text.splitlines() if "," in line]
    rows += [row.replace("0", "\u0663", 1) for row in rows[::7]]  # a digit that is not ASCII
    monkeypatch.setattr(bonnie, "_ROW_SHAPES", {})
    for row in rows:
        for variant in (row, *(_vary_digits(row, rng) for _ in range(3))):
            assert bonnie._classify(variant) == bonnie._classify_anew(variant), variant
    assert len(bonnie._ROW_SHAPES) > 100  # (the shortcut was taken)


# --- a row's figures as one JSON array --------------------------------------------------------
_FIGURE_TOKENS = [
    "0", "7", "12", "12.5", "466701", "3467.1", "0.0", "00", "0123", "01.5", "1" + "0" * 300,
    "1" + "0" * 305, "1" + "0" * 308, "9" * 400, "1" + "0" * 22, "9" * 17, "9007199254740993",
    "0." + "0" * 330 + "1", "1e5", "1E5", " 1", "1 ", "1_0", "-1", "-0", "+1", "1.", ".5",
    "\u0663", "\u0663.5", "nan", "inf", "1.5.5", "0x1", "[1]", "1]", "[", "", "+++", "+++++",
    "12ms", "5s", "1us", "3m", "1,2", "2.", "."]
_UNITS = ["us", "ms", "s", "", "sec", "ns", "u", "m", "sm", "mus"]


def test_the_figures_decoded_at_once_give_the_values_of_each_cell(monkeypatch):
    # a row's figures (its digit and latency cells) are decoded as one JSON array and scaled by
    # the factors of its shape: every cell of genuine rows set to each token (a latency's with
    # each unit) must give what the general way gives (values, or the same error), whether
    # the rules accept the row or not, with the row's shape new and then seen
    rows = [line for text in _csv_texts() for line in text.splitlines()
            if line.count(",") >= 26 and not line.startswith(bonnie._CSV_HEADERS)]
    layouts = {27: bonnie._LAYOUT_103, 48: bonnie._LAYOUT_196, 50: bonnie._LAYOUT_198}
    rng = random.Random(29)
    cases = []
    for row in rows:
        fields = row.split(",")
        for i, name in enumerate(layouts.get(len(fields), [])):
            if name not in bonnie._RESULT_FIELDS and name not in bonnie._LAT_FIELDS:
                continue
            for token in _FIGURE_TOKENS:
                unit = rng.choice(_UNITS) if name in bonnie._LAT_FIELDS and token else ""
                cases.append(",".join(fields[:i] + [token + unit] + fields[i + 1:]))
    assert len(cases) > 5000
    monkeypatch.setattr(bonnie, "_LAYOUT_OF_SHAPE", {})
    monkeypatch.setattr(bonnie, "_ROW_VALUES", {})
    for text in cases:
        for _ in range(2):  # (the shape new, then seen: its values kept)
            assert _outcome(text) == _general(text, monkeypatch), text
    assert len(bonnie._LAYOUT_OF_SHAPE) > 100


def test_the_figures_of_any_texts_are_the_general_values_or_none():
    # _csv_values on its own, whatever the texts of a layout's figure cells (the rules would
    # refuse most of them): the values _run_rows gives, or None, and None whenever _run_rows
    # refuses the row
    rows = [line for text in _csv_texts() for line in text.splitlines()
            if line.count(",") >= 26 and not line.startswith(bonnie._CSV_HEADERS)]
    rng = random.Random(31)
    compared = 0
    for row in rows:
        got = bonnie._classify_anew(row)
        if got is None or len(got) != 2:
            continue
        run = bonnie._run_from_csv(got[0], got[1], 1)
        layout = bonnie._csv_layout(run.texts, 8192, 1)
        places = [i for i, t in enumerate(run.texts) if t and t[0] != "+"]
        for i in places:
            for token in _FIGURE_TOKENS:
                if not token or token[0] == "+":
                    continue
                texts = list(run.texts)
                unit = rng.choice(_UNITS) if run.texts[i][-1] == "s" else ""
                texts[i] = token + unit
                run.texts = tuple(texts)
                factors = bonnie._csv_factors(layout, run.texts)
                fast = None if factors is None else bonnie._csv_values(layout, factors,
                                                                        run.texts)
                run.cells = bonnie._csv_cells(run)
                rows_out: list = []
                try:
                    bonnie._run_rows(run, "x.csv", 8192, rows_out)
                except (ParseError, ValueError):
                    assert fast is None, texts[i]
                    continue
                want = [r[6] for r in rows_out]
                if fast is not None:
                    compared += 1
                    assert list(map(_canon, fast)) == list(map(_canon, want)), texts[i]
    assert compared > 200


def test_the_values_kept_are_those_of_the_row_and_its_layout(monkeypatch):
    # a row's values are kept by its layout and its figures joined (units and all): the same
    # figures in cells of another scale (a K/sec rate, a %CP, a latency) are other values
    monkeypatch.setattr(bonnie, "_ROW_VALUES", {})
    kinds = bonnie._CSV_CELL_KINDS
    rate = bonnie._CSV_CELL_TESTS.index("put_block")  # (its rate: K/sec)
    cpu = rate + 1
    ops = bonnie._CSV_CELL_TESTS.index("seq_create")
    lat = kinds.index("lat")
    assert kinds[rate] == "rate" and kinds[cpu] == "cpu" and kinds[ops] == "rate"
    got = []
    for cell, text in ((rate, "100"), (cpu, "100"), (ops, "100"), (lat, "100s"), (lat, "100ms"),
                       (rate, "100"), (lat, "100s")):
        texts = [""] * len(kinds)
        texts[cell] = text
        layout = bonnie._csv_layout(tuple(texts), 8192, 1)
        factors = bonnie._csv_factors(layout, tuple(texts))
        got.append(bonnie._csv_values(layout, factors, tuple(texts)))
    assert got == [[102400.0], [100.0], [100.0], [100.0], [0.1], [102400.0], [100.0]]
    assert len(bonnie._ROW_VALUES) == 7  # (each layout new: the same figures kept for each)
