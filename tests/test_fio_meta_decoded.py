"""A job's options, decoded from JSON or read from text: the set-first lookup of
:func:`job_meta_plain` gives what its rule gives (types judged first: metadata of options that
are all strings, else None), on every mix of JSON value types, including values equal to kept
strings' neighbours (1, 1.0, True, None, "1")."""

from __future__ import annotations

import random

from ebsstats.io.fio import _options
from ebsstats.io.fio._options import _META_KEYS, _job_meta, job_meta_plain

_VALUES = ["1", "4k", "randread", "libaio", "", "0", 1, 0, 1.0, 0.0, True, False, None,
           ["4k"], {"a": "1"}, float("nan"), 4096, "4096"]


def _types_first(opts: dict, defaults: bool):
    """The rule: the metadata when every option read is a string or absent, else None."""
    vals = [opts.get(k, _options._Absent) for k in _META_KEYS]
    return _job_meta(opts, defaults) if _options._STR_OR_ABSENT.issuperset(map(type, vals)) \
        else None


def test_set_first_lookup_agrees_with_types_first_on_random_json_options():
    rng = random.Random(11)
    _options._JOB_META.clear()
    for _ in range(4000):
        opts = {k: rng.choice(_VALUES) for k in rng.sample(_META_KEYS, rng.randint(0, 6))}
        if rng.random() < 0.3:
            opts["name"] = rng.choice(_VALUES)  # an option it does not read
        defaults = rng.random() < 0.5
        want = _types_first(opts, defaults)
        for _order in range(2):  # twice: found anew, then among the kept sets
            got = job_meta_plain(opts, defaults)
            assert (got is None) == (want is None), opts
            assert got is None or got == want, opts


def test_a_number_equal_to_a_kept_string_set_is_refused():
    _options._JOB_META.clear()
    assert job_meta_plain({"bs": "1", "iodepth": "1"}, True) is not None
    for v in (1, 1.0, True):
        assert job_meta_plain({"bs": "1", "iodepth": v}, True) is None
