"""Shortcuts of the folder read's listing, each tested against the general rule it replaces: a
listed file as the text of its path (not a Path), read without making a Path of it, its name
from its text, the sidecar names of a listing found by one search. A test here fails if the
shortcut gives what the rule would not (or accepts what it refuses)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ebsstats.errors import ParseError
from ebsstats.io import folder
from ebsstats.io._common import load_bytes


def _tree(root: Path) -> None:
    for sub in ("", "a", "a/b c", "z", "a/é", "a/b c/d"):
        (root / sub).mkdir(parents=True, exist_ok=True)
        for name in ("x.csv", "y.json", ".hidden", "x.csv.meta.yaml"):
            (root / sub / name).write_text(f"{sub}/{name}")
    (root / "a" / "real.txt").write_text("same")
    os.symlink(root / "a" / "real.txt", root / "0link.txt")  # listed first, by its link
    os.symlink(root / "z", root / "dirlink")  # not followed
    os.symlink(root / "nowhere", root / "broken.txt")
    with open(os.fsencode(str(root / "z")) + b"/caf\xe9\x1b.csv", "wb") as fh:
        fh.write(b"x")


def _tops(root: Path, monkeypatch) -> list[Path]:
    """The root as a caller may give it: absolute, relative, with a trailing slash, doubled
    and dotted separators, the working directory itself."""
    monkeypatch.chdir(root.parent)
    rel = os.path.relpath(root)
    return [root, Path(rel), Path(str(root) + "/"), Path(f"./{rel}"),
            Path(str(root.parent) + "//" + root.name), Path(f"{rel}/./a/..")]


@pytest.mark.parametrize("here", [False, True])
def test_the_walk_lists_the_text_of_each_files_path(tmp_path, monkeypatch, here):
    root = tmp_path / "root"
    _tree(root)
    tops = _tops(root, monkeypatch)
    if here:  # the working directory itself: its files' texts are their bare names
        monkeypatch.chdir(root)
        tops = [Path("."), Path("./"), Path("")]
    for top in tops:
        stats: list = []
        rels: list = []
        sizes: list = []
        texts = folder._walk_text(top, [], stats, rels, sizes)
        # the rule: each file's Path made by joining the folder os.walk gives and the name
        want = []
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            want += [Path(dirpath) / n for n in sorted(filenames) if not n.startswith(".")]
        listed = {str(p) for p in want}
        assert set(texts) <= listed and all(isinstance(t, str) for t in texts)
        assert "0link.txt" not in {os.path.basename(t) for t in texts}  # the real name kept
        assert len(texts) == len(listed) - 1
        assert [Path(t) for t in texts] == folder._walk(top)
        assert [os.path.basename(t) for t in texts] == [Path(t).name for t in texts]
        assert rels == [Path(t).relative_to(top).as_posix() for t in texts]
        for t, st_, size in zip(texts, stats, sizes, strict=True):
            if st_ is None:  # the broken link
                assert size == 0 and os.path.basename(t) == "broken.txt"
            else:
                assert os.stat(t) == st_ and size == st_.st_size
        with pytest.raises(FileNotFoundError):
            os.stat(str(Path(top) / "broken.txt"))


def test_the_listing_gives_the_files_text_whatever_way_they_come(tmp_path, monkeypatch):
    root = tmp_path / "root"
    _tree(root)
    for top in _tops(root, monkeypatch):
        _, files, rels, sizes, stats = folder._listing(top, top, None, [])
        given = [Path(f) for f in files]
        _, files2, rels2, sizes2, stats2 = folder._listing(top, top, given, [])
        assert files2 == files == [str(p) for p in given] and rels2 == rels
        assert sizes2 == sizes and stats2 == [None] * len(files)
    one = root / "a" / "x.csv"
    _, files, rels, sizes, stats = folder._listing(one, str(one), None, [])
    assert files == [str(one)] and sizes == [one.stat().st_size] and stats == [None]


def _outcome(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except ParseError as exc:
        return ("ParseError", str(exc), exc.source, exc.position, exc.expected, exc.found)


def test_a_listed_path_text_is_read_and_refused_as_its_path(tmp_path):
    """The folder read hands load_bytes its listing's texts (no Path per file): the same bytes
    and the same refusals, in the same words, as for the Path."""
    (tmp_path / "f.json").write_bytes(b'{"a": 1}\n' * 100)
    (tmp_path / "empty").write_bytes(b"")
    (tmp_path / "dir").mkdir()
    os.mkfifo(tmp_path / "fifo")
    os.symlink(tmp_path / "nowhere", tmp_path / "broken")
    cases = [(tmp_path / n, m) for n in ("f.json", "empty", "dir", "fifo", "broken", "missing")
             for m in (10**6, 100, 0)]
    cases += [(Path("/proc/self/status"), m) for m in (10, 10**6)]  # size 0, then grows
    for path, max_bytes in cases:
        want = _outcome(load_bytes, path, max_bytes, listed=True)
        got = _outcome(load_bytes, str(path), max_bytes, listed=True)
        if path.name == "status" and isinstance(want, bytes):
            assert isinstance(got, bytes)  # (its text changes between reads)
            continue
        assert got == want, path
    assert load_bytes(str(tmp_path / "f.json"), 10**6, listed=True) == b'{"a": 1}\n' * 100


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_listed_file_is_refused_as_load_bytes_does(tmp_path):
    p = tmp_path / "secret.json"
    p.write_text("{}")
    p.chmod(0)
    try:
        assert (_outcome(load_bytes, str(p), 100, listed=True)
                == _outcome(load_bytes, p, 100, listed=True))
    finally:
        p.chmod(stat.S_IRUSR | stat.S_IWUSR)


_part = st.text(st.sampled_from("aAmMeEtTyYlL._-xİKσΣ\u212a\n "), max_size=14)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(_part, _part), max_size=8))
def test_the_sidecar_names_are_the_files_named_as_sidecars(parts):
    files = [f"{d}/{n}" if d else n for d, n in parts if n and "/" not in n]
    want = frozenset(str(f) for f in map(Path, files)
                     if Path(f).name.lower().endswith((".meta.yaml", ".meta.yml")))
    texts = [str(Path(f)) for f in files]
    assert folder._sidecar_names(texts) == want
    assert folder._sidecar_names([*texts, "z/run.json.Meta.YML"]) == want | {"z/run.json.Meta.YML"}
