"""A job's options decoded from JSON: the set-first lookup (:func:`job_meta_decoded`) gives
what :func:`job_meta_plain` (types judged first) gives, on every mix of JSON value types,
including values equal to kept strings' neighbours (1, 1.0, True, None, "1")."""

from __future__ import annotations

import random

from ebsstats.io.fio import _options
from ebsstats.io.fio._options import _META_KEYS, job_meta_decoded, job_meta_plain

_VALUES = ["1", "4k", "randread", "libaio", "", "0", 1, 0, 1.0, 0.0, True, False, None,
           ["4k"], {"a": "1"}, float("nan"), 4096, "4096"]


def test_set_first_lookup_agrees_with_types_first_on_random_json_options():
    rng = random.Random(11)
    _options._JOB_META.clear()
    for _ in range(4000):
        opts = {k: rng.choice(_VALUES) for k in rng.sample(_META_KEYS, rng.randint(0, 6))}
        if rng.random() < 0.3:
            opts["name"] = rng.choice(_VALUES)  # an option it does not read
        defaults = rng.random() < 0.5
        for _order in range(2):  # both orders: either may fill the kept sets
            a = job_meta_decoded(opts, defaults)
            b = job_meta_plain(opts, defaults)
            assert a is b or (a is None and b is None), opts


def test_a_number_equal_to_a_kept_string_set_is_refused():
    _options._JOB_META.clear()
    assert job_meta_decoded({"bs": "1", "iodepth": "1"}, True) is not None
    for v in (1, 1.0, True):
        assert job_meta_decoded({"bs": "1", "iodepth": v}, True) is None
        assert job_meta_plain({"bs": "1", "iodepth": v}, True) is None
