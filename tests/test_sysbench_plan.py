"""sysbench reader: a file read by a plan (a layout read before) gives what the line-by-line read
gives, or is handed to it.

A plan (``sysbench._Plan``) is the text of a file read line by line, as one pattern: its figures
taken anew (the digits of each result and interval value, of each line of no kind) and
everything else as printed. It may only accept texts that the line-by-line read reads alike, so:

* no pattern the line-by-line read applies to a line whose digits a plan lets vary tells digit
  runs of other lengths or values apart (checked on the patterns themselves), and
* on mutants of every fixture and sample (digit runs changed at random, lengths 1 to 30, huge
  numbers that overflow a float, letters for digits), the plan's answer is the line-by-line
  answer: the same columns, series, notes, or the same ParseError.
"""

from __future__ import annotations

import itertools
import random
import re
from re import _constants as c
from re import _parser

import msgspec
import pytest

from ebsstats.errors import ParseError
from ebsstats.io import sysbench as sb
from tests.conftest import FIXTURES, ROOT

_DIGITS = frozenset("0123456789")


def _texts() -> list[tuple[str, str]]:
    """(name, text) of every sysbench fixture and sample (one campaign's runs too)."""
    paths = [p for p in sorted((FIXTURES / "sysbench").iterdir()) if p.is_file()]
    paths += sorted((ROOT / "data" / "samples" / "sysbench").glob("*"))
    paths += sorted((ROOT / "data" / "campaign" / "standard-100g").rglob("*sysbench*"))[:12]
    return [(p.name, p.read_text(errors="replace")) for p in paths if p.is_file()]


TEXTS = _texts()


def _line_by_line(text: str, source: str):
    """The rule: the reader without plans (the summary of its result, or its error), its
    latencies printed as zero flagged as ``_parse`` flags them on either path."""
    try:
        return sb._summary(sb._below_resolution(sb._Reader(text, source, {}).run()))
    except ParseError as exc:
        return ("error", str(exc))
    except ValueError as exc:  # _parse turns these into a ParseError too
        return ("value error", str(exc))


def _planned(text: str, source: str):
    """What the plans of ``sb._PLANS`` give for ``text`` (``None``: no plan takes it)."""
    layout = sb._PLANS.get(sb._plan_key(text, {}))
    for plan in layout.plans if layout is not None else ():
        got = plan.apply(text, source)
        if got is not None:
            return sb._summary(sb._below_resolution(got))
    return None


def _prime(text: str, source: str) -> None:
    """Read ``text`` until its layout has a plan (none for an error)."""
    for _ in range(sb._PLAN_AFTER):
        try:
            sb._parse(text, source)
        except ParseError:
            return


@pytest.fixture(params=["tokens", "split", "compiled"])
def fresh_plans(request, monkeypatch):
    """No plans yet; the plans made read a text's tokens (``tokens``, where they can: see
    ``sb._token_plan``), its split (``split``: no plan reads tokens) or are compiled at once
    (``compiled``: what a plan used :data:`sb._PLAN_COMPILE` times matches)."""
    monkeypatch.setattr(sb, "_PLANS", {})
    monkeypatch.setattr(sb, "_SHAPES", {})
    monkeypatch.setattr(sb, "_plan_chars", 0)
    if request.param == "split":
        def no_tokens(plan, text, parts):
            plan.tok_figs = plan.tok_pins = plan.tok_pin_vals = None

        monkeypatch.setattr(sb, "_token_plan", no_tokens)
    if request.param == "compiled":
        build = sb._build_plan

        def compiled(*args):
            plan = build(*args)
            if plan is not None:
                plan.fullmatch = re.compile(plan.pattern()).fullmatch
            return plan

        monkeypatch.setattr(sb, "_build_plan", compiled)
    return request.param


# ---------------------------------------------------------------- the patterns

def _class_digits(items) -> set[str]:
    """The ASCII digits a character class ``[...]`` accepts."""
    negate, accepted = False, set()
    for op, av in items:
        if op is c.NEGATE:
            negate = True
        elif op is c.LITERAL:
            accepted |= {chr(av)} & _DIGITS
        elif op is c.RANGE:
            accepted |= {d for d in _DIGITS if av[0] <= ord(d) <= av[1]}
        elif op is c.CATEGORY:
            if av in (c.CATEGORY_DIGIT, c.CATEGORY_WORD, c.CATEGORY_NOT_SPACE):
                accepted |= _DIGITS
            else:
                assert av in (c.CATEGORY_NOT_DIGIT, c.CATEGORY_NOT_WORD, c.CATEGORY_SPACE), av
        else:
            raise AssertionError(f"class item {op} not analysed")
    return set(_DIGITS - accepted if negate else accepted)


def _atom_digits(op, av) -> bool | None:
    """Whether a one-character item may match a digit (``None``: not such an item). An item
    that accepts some digits but not others, or a literal digit, tells digits apart: refused."""
    if op is c.LITERAL:
        assert chr(av) not in _DIGITS, "a literal digit"
        return False
    if op is c.NOT_LITERAL:
        assert chr(av) not in _DIGITS, "a literal digit"
        return True
    if op is c.ANY:
        return True
    if op is c.IN:
        got = _class_digits(av)
        assert got in (set(), set(_DIGITS)), f"a class of some digits: {sorted(got)}"
        return bool(got)
    return None


def _blind(items) -> tuple[bool, bool, bool]:
    """Check that a sequence of items cannot tell digit runs of other lengths or values apart;
    its (may match nothing, may start with a digit, may end with a digit).

    Sufficient rules: a one-character item that may match a digit stands alone in a repeat
    without upper bound and at most one required match (``\\d+``, ``\\S*``, ``.*?``), and no two
    items that may both take digits follow each other (``\\d+\\d+``, also across items that may
    match nothing, and from one pass of a repeat to the next). Then every run of digits a match
    takes is taken whole by one such repeat, which takes a run of any other length as well."""
    empty, start, end = True, False, False
    for op, av in items:
        e, s, t = _item(op, av)
        assert not (end and s), "two items that take digits follow each other"
        start = start or (empty and s)
        end = t or (end and e)
        empty = empty and e
    return empty, start, end


def _item(op, av) -> tuple[bool, bool, bool]:
    digit = _atom_digits(op, av)
    if digit is not None:
        assert not digit, "a digit outside a repeat"
        return False, False, False
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
        lo, hi, body = av
        if len(body) == 1 and _atom_digits(*body[0]) is not None:
            digit = _atom_digits(*body[0])
            assert not digit or (hi == c.MAXREPEAT and lo <= 1), "a counted repeat of digits"
            return lo == 0, digit, digit
        e, s, t = _blind(body)
        assert hi <= 1 or not (s and t), "a repeat whose passes may join digits"
        return lo == 0 or e, s, t
    if op is c.SUBPATTERN:
        return _blind(av[3])
    if op is c.ATOMIC_GROUP:
        return _blind(av)
    if op is c.BRANCH:
        alts = [_blind(alt) for alt in av[1]]
        return any(a[0] for a in alts), any(a[1] for a in alts), any(a[2] for a in alts)
    assert op is c.AT, f"{op} not analysed"  # ^, $, \Z: zero-width, digit-blind
    return True, False, False


def _line_patterns() -> list[re.Pattern]:
    """Every pattern the line-by-line read applies to a line a plan may let vary (a line of
    a run: the classification's branches, the result rows tried after one, the PARAMS and
    FATAL tests). The banner's is applied only to lines naming sysbench, which stay as
    printed."""
    return ([p for _, _, p in sb._BRANCHES] + [row[0] for row in sb._RESULT_LINES]
            + [sb._PARAMS_RE, sb._FATAL_RE])


@pytest.mark.parametrize("pattern", _line_patterns(), ids=lambda p: p.pattern[:40])
def test_no_line_pattern_tells_digits_apart(pattern):
    _blind(_parser.parse(pattern.pattern, pattern.flags))
    # and what a line starts with picks no other branches for another digit
    for first in sb._firsts():
        assert first is None or not (first & _DIGITS)


@pytest.mark.parametrize("bad", [r"\d\d+x", r"\d{1,9}", r"[0-5]+", r"x7", r"\d+(?:\.?\d+)",
                                 r"(?:\d+x?)+", r"\S+\s*\d+"])
def test_the_analysis_refuses_patterns_that_tell_digits_apart(bad):
    with pytest.raises(AssertionError):
        _blind(_parser.parse(bad, 0))


# ---------------------------------------------------------------- plans against the rule

def _new_run(rng: random.Random) -> str:
    """Other digits (1 to 30 of them, a number that overflows a float), or now and then no
    number at all (a letter, a sign, a dot, nothing)."""
    k = rng.random()
    if k < 0.85:
        return "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 30)))
    if k < 0.9:
        return "9" * 400
    return rng.choice(["x", "-1", "1.", ".5", "1e999", "", "0x1", "1 2", "\n"])


def _mutant(text: str, rng: random.Random, spans: list[tuple[int, int]]) -> str:
    """``text`` with some digit runs replaced (:func:`_new_run`): anywhere, each with a
    chance of 1 to 30 %, or only runs inside ``spans`` (the figures a plan takes anew)."""
    runs = [m.span() for m in re.finditer(r"[0-9]+", text)]
    if rng.random() < 0.5 and spans:
        runs = [(a, b) for a, b in runs if any(x <= a and b <= y for x, y in spans)]
        p = rng.choice((0.2, 0.5, 1.0))
    else:
        p = rng.choice((0.01, 0.03, 0.1, 0.3))
    out, pos = [], 0
    for a, b in runs:
        if rng.random() < p:
            out += (text[pos:a], _new_run(rng))
            pos = b
    out.append(text[pos:])
    return "".join(out)


def _spans(text: str) -> list[tuple[int, int]]:
    """The spans of the figures the plan of ``text`` takes anew."""
    layout = sb._PLANS.get(sb._plan_key(text, {}))
    parts = sb._PLAN_SPLIT(text)
    at = [0, *itertools.accumulate(map(len, parts))]  # where each part starts
    for plan in layout.plans if layout is not None else ():
        if plan.match(parts):
            return [(at[f.start], at[f.stop]) for f in plan.figs]
    return []


def test_plans_answer_as_the_line_by_line_read_on_mutants(fresh_plans):
    rng = random.Random(19)
    taken = compared = 0
    for name, text in TEXTS:
        _prime(text, name)
        spans = _spans(text)
        for _ in range(60):
            mutant = _mutant(text, rng, spans)
            planned = _planned(mutant, name)
            if planned is not None:
                taken += 1
                assert planned == _line_by_line(mutant, name), (name, mutant)
            compared += 1
    assert taken > 600, (taken, compared)  # the plans took many mutants


def test_parse_with_plans_gives_what_the_rule_gives_or_raises_alike(fresh_plans):
    rng = random.Random(7)
    for name, text in TEXTS[::3]:
        _prime(text, name)
        spans = _spans(text)
        for _ in range(20):
            mutant = _mutant(text, rng, spans)
            try:
                got = sb._summary(sb._parse(mutant, name))
            except ParseError as exc:
                got = ("error", str(exc))
            rule = _line_by_line(mutant, name)
            if rule[0] == "value error":  # _parse says so as a ParseError
                assert got[0] == "error"
            else:
                assert got == rule, (name, mutant)


def test_every_fixture_gets_a_plan_that_gives_its_read_back(fresh_plans):
    ok = 0
    for name, text in TEXTS:
        try:
            parsed = sb._parse(text, name)
        except ParseError:
            continue
        first = sb._summary(parsed)
        _prime(text, name)
        if parsed.partial:  # a run left out: no plan (each read says what it left out)
            assert _planned(text, name) is None, name
            assert [str(e) for e in sb._parse(text, name).partial] == list(map(str,
                                                                             parsed.partial))
            continue
        assert _planned(text, name) == first, name
        ok += 1
    assert ok > 30


def test_a_figure_beyond_a_float_is_refused_by_the_rule_not_taken(fresh_plans):
    text = (FIXTURES / "sysbench" / "sb_fileio_rndrd_t1_run.txt").read_text()
    _prime(text, "a.txt")
    huge = re.sub(r"(reads/s:\s+)[0-9]+", lambda m: m.group(1) + "9" * 400, text)
    assert huge != text and _planned(huge, "a.txt") is None  # same layout, no plan takes it
    with pytest.raises(ParseError, match="not a finite"):
        sb._parse(huge, "a.txt")


def test_a_plan_depends_on_the_file_name_where_the_read_does(fresh_plans):
    # no PARAMS line: the seed-001 name pattern fills the size; a plan made from a file of
    # another name must not answer for this one
    text = (FIXTURES / "sysbench" / "sysbench-size-8M-mode-rndrd-threads-2").read_text()
    text = text.split("\n", 1)[1]  # without its PARAMS line
    _prime(text, "plain.txt")
    name = "sysbench-size-8M-mode-rndrd-threads-2"
    assert _planned(text, "plain.txt") is not None and _planned(text, name) is None
    assert sb._summary(sb._parse(text, name)) == _line_by_line(text, name)
    # a name hint (threads/mutex look alike in 1.0)
    mutex = (FIXTURES / "sysbench" / "sb1.0_mutex.txt").read_text()
    for n in ("x.txt", "x.txt", "x.txt", "run_threads.txt", "run_mutex.txt", "x.txt"):
        assert sb._summary(sb._parse(mutex, n)) == _line_by_line(mutex, n), n


def test_options_and_other_texts_are_read_line_by_line(fresh_plans):
    text = (FIXTURES / "sysbench" / "sb1.0_mutex.txt").read_text()
    assert sb._plan_key(text, {"test": "mutex"}) is None
    assert sb._plan_key("\u00e9" + text, {}) is None  # not ASCII
    assert sb._plan_key(text + "\x00", {}) is None
    assert sb._plan_key(text * 100, {}) is None  # beyond _PLAN_CHARS
    assert sb._plan_key(text, {}) is not None


def test_the_plans_are_bounded(fresh_plans, monkeypatch):
    monkeypatch.setattr(sb, "_PLANS_MAX", 5)
    monkeypatch.setattr(sb, "_PLAN_BUDGET", 6000)
    text = (FIXTURES / "sysbench" / "sb_fileio_rndrd_t1_run.txt").read_text()
    for k in range(30):
        layout = text + "x" * k + "\n"  # a layout of its own each time
        for j in range(3 + k % 9):  # plans of other threads counts once one was used
            variant = layout.replace("Threads started!", f"Threads started!\n{j % 5} z")
            sb._parse(variant.replace("threads: 1", f"threads: {j}"), "a")
        assert len(sb._PLANS) <= 5
        assert all(len(x.plans) <= sb._PLANS_PER_LAYOUT for x in sb._PLANS.values())
        assert sb._plan_chars == sum(p.chars for x in sb._PLANS.values() for p in x.plans)
        assert sb._plan_chars <= 6000


def test_a_layout_gets_a_plan_on_its_second_read_and_more_only_if_they_are_used(fresh_plans):
    name, text = TEXTS[0]
    layout = None
    for _ in range(sb._PLAN_AFTER):
        assert layout is None or layout.plans == []  # no plan yet
        sb._parse(text, name)
        layout = sb._PLANS[sb._plan_key(text, {})]
    assert len(layout.plans) == 1
    # the figures a plan keeps as printed differ in every file: one plan, never used, and no
    # other plan made for each file
    for k in range(6):
        sb._parse(text.replace("0.4.12", f"0.4.{20 + k}"), name)
    assert len(layout.plans) == 1 and layout.hits == 0
    sb._parse(text, name)
    assert layout.hits == 1


def test_a_plan_is_used(fresh_plans, monkeypatch):
    text = (FIXTURES / "sysbench" / "sb1.0_fileio_rndrw_ri_t2.txt").read_text()
    _prime(text, "a")
    other = re.sub(r"(avg:\s+)[0-9.]+", r"\g<1>12.5", text)
    assert other != text

    def refuse(self):
        raise AssertionError("read line by line")

    monkeypatch.setattr(sb._Reader, "run", refuse)
    got = sb._parse(other, "a")
    assert 0.0125 in got.columns[0]["value"]


def test_a_plan_used_often_is_compiled_and_answers_alike(fresh_plans, monkeypatch):
    monkeypatch.setattr(sb, "_PLAN_COMPILE", 3)
    text = (FIXTURES / "sysbench" / "sb1.0_fileio_rndrw_ri_t2.txt").read_text()
    _prime(text, "a")
    (plan,) = sb._PLANS[sb._plan_key(text, {})].plans
    first = sb._summary(sb._parse(text, "a"))
    for k in range(6):
        other = re.sub(r"(avg:\s+)[0-9.]+", rf"\g<1>{k}.5", text)
        assert (plan.fullmatch is not None) == (k >= 2 or fresh_plans == "compiled")
        assert sb._summary(sb._parse(other, "a")) == _line_by_line(other, "a")
    assert plan.hits == 7 and sb._summary(sb._parse(text, "a")) == first
    # the pattern tests what the split tests: the same segments, the same pinned runs
    assert plan.fullmatch(text.replace("Number of threads: 2", "Number of threads: 3")) is None
    assert plan.fullmatch(text.replace("avg:", "avg: 1")) is None


def _moved(text: str, rng: random.Random) -> str:
    """``text`` with a digit put in, a run taken out, two runs joined (the non-digit segment
    between them taken out), whitespace changed or a digit at the start or end: texts whose
    segments differ from ``text``'s, or are its own."""
    runs = [m.span() for m in re.finditer(r"[0-9]+", text)]
    k, at = rng.random(), rng.randrange(len(text) + 1)
    if k < 0.2:
        return text[:at] + rng.choice("0123456789") + text[at:]
    if k < 0.35 and runs:
        a, b = rng.choice(runs)
        return text[:a] + text[b:]
    if k < 0.5 and len(runs) > 1:
        j = rng.randrange(len(runs) - 1)
        return text[:runs[j][1]] + text[runs[j + 1][0]:]
    if k < 0.65:
        return text[:at] + rng.choice(" \t\n\r\x0b\x0c") + text[at:]
    if k < 0.75:
        return rng.choice("07") + text if rng.random() < 0.5 else text + "5"
    if k < 0.85:
        return text.replace(" ", "\t", 1)
    return _mutant(text, rng, [])


def test_shape_and_parts_are_the_split_rule():
    """A plan's ``parts_of`` (non-digit segments compared by :func:`sb._shape`, bytes split in
    C) gives what :data:`sb._PLAN_SPLIT` gives when the text's segments are the plan's, and
    ``None`` exactly when they are not (the rule: ``_PLAN_SPLIT(text)[0::2] == segs``)."""
    rng = random.Random(23)
    taken = refused = 0
    bases = [t for _, t in TEXTS if t.isascii()] + ["", "7", "12 ab", "ab 12", "x", "1.5\n",
                                                    "\t3\x0c4 \r\n"]
    for base in bases:
        plan = sb._Plan()
        plan.segs, plan.shape = sb._PLAN_SPLIT(base)[0::2], sb._shape(base)
        for other in [base] + [_moved(base, rng) for _ in range(40)]:
            if not other.isascii():
                continue
            split = sb._PLAN_SPLIT(other)
            got = plan.parts_of(other, sb._shape(other))
            if split[0::2] == plan.segs:
                assert got == split, (base, other)
                taken += 1
            else:
                assert got is None, (base, other)
                refused += 1
    assert taken > 200 and refused > 200, (taken, refused)


def test_a_plan_reading_tokens_answers_as_one_reading_the_split(monkeypatch):
    """Token mode (``sb._token_plan``: figures and pinned runs taken from the tokens of digits
    and dots) gives what the split gives, on mutants of every fixture: figures changed, runs
    moved, joined or taken out, digits put in."""
    monkeypatch.setattr(sb, "_PLANS", {})
    monkeypatch.setattr(sb, "_plan_chars", 0)
    rng = random.Random(29)
    tokens = answered = 0
    for name, text in TEXTS:
        _prime(text, name)
        spans = _spans(text)
        layout = sb._PLANS.get(sb._plan_key(text, {}))
        for plan in layout.plans if layout is not None else ():
            if plan.tok_figs is None:
                continue
            tokens += 1
            split = sb._Plan()
            for slot in sb._Plan.__slots__:
                setattr(split, slot, getattr(plan, slot))
            split.tok_figs = None
            for _ in range(40):
                mutant = (_mutant(text, rng, spans) if rng.random() < 0.6
                          else _moved(text, rng))
                if not mutant.isascii():
                    continue
                got, rule = plan.apply(mutant, name), split.apply(mutant, name)
                assert (got is None) == (rule is None), (name, mutant)
                if got is not None:
                    answered += 1
                    assert sb._summary(got) == sb._summary(rule), (name, mutant)
    assert tokens > 20 and answered > 300, (tokens, answered)


@pytest.mark.parametrize(("text", "pins", "figs", "tokens"), [
    ("x 12.34 y 5", (1, 3), (), ((b"12.34",), ())),  # a pinned token
    ("x 12.34 y 5", (5,), (slice(1, 4),), ((b"5",), (0,))),  # a figure's token
    ("x 12.34 y 5", (1,), (), None),  # "12" pinned, "34" varying: one token
    ("x -12.5 y", (), (slice(1, 4),), ((), (0,))),  # the sign is not a token character
    ("x 12.5.1 y", (), (slice(1, 4),), None),  # the figure is part of a token
    ("x 2e3 y", (), (slice(1, 4),), None),  # an exponent: two tokens
])
def test_token_mode_only_where_tokens_are_figures_or_pinned(text, pins, figs, tokens):
    plan = sb._Plan()
    parts = sb._PLAN_SPLIT(text)
    plan.pin_idx, plan.figs = pins, figs
    sb._token_plan(plan, text, parts)
    if tokens is None:
        assert plan.tok_figs is None
    else:
        assert (plan.tok_pin_vals, plan.tok_figs(range(9))) == tokens


def test_a_text_masked_as_one_a_plan_took_is_read_as_the_rule_reads_it(fresh_plans):
    """The shapes kept by masked text (``sb._SHAPES``: key and shape of a text a plan took)
    give the answer of the rule for every text masked alike (other figures of as many digits,
    pinned runs changed) and for the others (a key or shape made afresh)."""
    rng = random.Random(31)
    hits = 0
    for name, text in TEXTS:
        _prime(text, name)
        spans = _spans(text)
        for k in range(12):
            if k % 2:  # other digits, as many: masked alike
                mutant = re.sub(r"[0-9]", lambda m: rng.choice("0123456789"), text)
            else:
                mutant = _mutant(text, rng, spans)
            for _ in range(2):  # (the second read finds the first's shape, if a plan took it)
                seen = sb._SHAPES.get(mutant.encode().translate(sb._SHAPE_MASK)) \
                    if mutant.isascii() else None
                hits += seen is not None
                if seen is not None:
                    assert seen == (sb._plan_key(mutant, {}), sb._shape(mutant))
                try:
                    got = sb._summary(sb._parse(mutant, name))
                except ParseError as exc:
                    got = ("error", str(exc))
                rule = _line_by_line(mutant, name)
                assert got == rule or (rule[0] == "value error" and got[0] == "error"), mutant
    assert hits > 150, hits
    assert len(sb._SHAPES) <= sb._SHAPES_MAX


def test_the_figures_decoded_at_once_are_the_floats_of_each():
    """``sb._floats`` (msgspec's JSON array decode, else ``float()`` of each) gives the doubles
    ``float()`` gives, bit for bit, for every text a figure's token can be: digit runs of 1 to
    40 digits (leading zeros, 17+ significant digits, halfway cases) with or without one dot,
    beyond a float too."""
    rng = random.Random(37)

    def run(k: int) -> str:
        return "".join(rng.choice("0123456789") for _ in range(k))

    texts = ["0", "00", "0.0", "1", "10", "9007199254740993", "9007199254740993.0",
             "179769313486231570814527423731704356798070567525844996598917476803157260780"
             "02853.5", "9" * 400, "9" * 400 + ".5", "0." + "0" * 330 + "1",
             "2.2250738585072011", "2.2250738585072012", "0.1", "123456789012345678901234567890"]
    for _ in range(20000):
        a, b = rng.choice([(1, 3), (1, 8), (10, 25), (16, 20), (1, 40)])
        text = run(rng.randint(a, b))
        if rng.random() < 0.7:
            text += "." + run(rng.randint(a, b))
        texts.append(text)
    k = decoded = 0
    while k < len(texts):
        group = texts[k:k + rng.randint(1, 30)]
        k += len(group)
        got = sb._floats(tuple(t.encode() for t in group))
        want = [float(t) for t in group]
        assert [x.hex() for x in got] == [x.hex() for x in want], group
        try:
            decoded += len(sb._JSON_FLOATS(("[" + ",".join(group) + "]").encode()))
        except msgspec.DecodeError:
            pass
    assert decoded > 2000, decoded  # (many groups had no leading 0: msgspec's own doubles)


def test_alike_is_true_only_for_equal_reprs():
    """``sb._alike`` (the plan's self-check) says two reads are alike only when their
    ``_summary`` texts are equal: on copies of every fixture's read and on copies with one value
    changed (a zero's sign, an int for a float, a bool for an int, a str, a list for a tuple)."""
    import copy

    rng = random.Random(41)
    changes = [lambda v: (-v if v == 0 else v * (1 + 2**-52)) if type(v) is float else v,
               lambda v: int(v) if type(v) is float else v, lambda v: True if v == 1 else v,
               lambda v: str(v), lambda v: list(v) if type(v) is tuple else (v,),
               lambda v: v]
    checked = differ = 0
    for name, text in TEXTS:
        try:
            facts = sb._facts(sb._Reader(text, name, {}).run())
        except (ParseError, ValueError):
            continue
        for _ in range(30):
            other = copy.deepcopy(facts)
            cols = other[3][0] if rng.random() < 0.6 or not other[4] else rng.choice(other[4])
            key = rng.choice(list(cols))
            if type(cols[key]) is list and cols[key]:
                k = rng.randrange(len(cols[key]))
                cols[key][k] = rng.choice(changes)(cols[key][k])
            else:
                cols[key] = rng.choice(changes)(cols[key])
            same = repr(other) == repr(facts)
            assert sb._alike(other, facts) == same, (name, key)
            assert sb._alike(facts, copy.copy(facts))
            checked += 1
            differ += not same
    assert checked > 500 and differ > 200, (checked, differ)
