"""Duplicates found by fingerprint (size, first and last bytes), confirmed by the SHA-1 of the
whole bytes: the files a folder read calls duplicates are those with the same bytes, exactly
the files the rule "same SHA-1 of the whole bytes" names."""

from __future__ import annotations

import hashlib
import random

import ebsstats as es
from ebsstats.io import folder
from tests.conftest import fixture


def _duplicates_by_rule(paths):
    """{name: name of the first file with its bytes} by the whole-bytes rule."""
    first: dict[bytes, str] = {}
    out = {}
    for p in sorted(paths, key=lambda p: p.name):
        data = p.read_bytes()
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            data = data.decode("utf-16").encode("utf-8")
        key = hashlib.sha1(data).digest()
        if key in first:
            out[p.name] = first[key]
        else:
            first[key] = p.name
    return out


def _duplicates_read(root):
    fails = es.read(root, full=True, progress=False).failures
    dup = fails[fails["kind"] == "duplicate"]
    return {s: r.split("duplicate of ", 1)[1].split(" ", 1)[0]
            for s, r in zip(dup["source"], dup["reason"], strict=True)}


def test_same_edges_same_size_different_middle_are_not_duplicates(tmp_path):
    """Files of one size whose first and last bytes agree (one fingerprint) but whose middles
    differ are both kept; the true copy among them is dropped."""
    src = fixture("fio", "small_json.json").read_bytes()
    mid = len(src) // 2
    assert mid > folder._EDGE and len(src) - mid > folder._EDGE
    digit = src.index(b"1", mid)  # a digit in the middle, far from both edges
    other = src[:digit] + b"2" + src[digit + 1:]
    assert len(other) == len(src) and folder._fingerprint(other) == folder._fingerprint(src)
    (tmp_path / "a.json").write_bytes(src)
    (tmp_path / "b.json").write_bytes(other)
    (tmp_path / "c.json").write_bytes(src)
    assert _duplicates_read(tmp_path) == {"c.json": "a.json"}
    assert _duplicates_read(tmp_path) == _duplicates_by_rule(tmp_path.iterdir())


def test_utf16_copy_is_a_duplicate_as_before(tmp_path):
    """A UTF-16 file is compared as its UTF-8 text (what was parsed), as before."""
    text = fixture("fio", "small_json.json").read_text()
    (tmp_path / "a.json").write_text(text, encoding="utf-8")
    (tmp_path / "b.json").write_bytes(text.encode("utf-16"))
    (tmp_path / "c.json").write_bytes(text.encode("utf-16"))
    got = _duplicates_read(tmp_path)
    assert got == {"c.json": "b.json"}  # different sizes on disk: a and b never compared
    assert got == _duplicates_by_rule([tmp_path / "b.json", tmp_path / "c.json"])


def test_random_folders_agree_with_the_whole_bytes_rule(tmp_path):
    """Random folders of copies and one-byte variants (at the edges and in the middle) of a
    few reports: the duplicates named are those of the whole-bytes rule."""
    rng = random.Random(7)
    sources = [fixture("fio", n).read_bytes() for n in ("small_json.json",
                                                        "f2110_small_json.json")]
    for trial in range(6):
        root = tmp_path / f"t{trial}"
        root.mkdir()
        for i in range(12):
            data = bytearray(rng.choice(sources))
            if rng.random() < 0.5:
                digits = [k for k, c in enumerate(data) if 0x31 <= c <= 0x38]
                k = rng.choice(digits)
                data[k] += 1
            (root / f"f{i:02d}.json").write_bytes(bytes(data))
        assert _duplicates_read(root) == _duplicates_by_rule(root.iterdir())


def test_a_file_changed_after_its_read_is_never_called_a_duplicate(tmp_path):
    """Where fingerprints meet and one file no longer has the bytes it was parsed from, it is
    kept (not dropped as the copy of a file it may no longer be)."""
    src = fixture("fio", "small_json.json").read_bytes()
    (tmp_path / "a.json").write_bytes(src)
    (tmp_path / "b.json").write_bytes(src)
    fp = folder._fingerprint(src)
    assert folder._whole_digest(str(tmp_path / "a.json"), fp, 10**9) == hashlib.sha1(
        src).digest()
    (tmp_path / "a.json").write_bytes(b"x" + src[1:])
    assert folder._whole_digest(str(tmp_path / "a.json"), fp, 10**9) is None
    assert folder._whole_digest(str(tmp_path / "gone.json"), fp, 10**9) is None
