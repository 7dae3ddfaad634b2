"""A report's -o on a mount point: refused before any work, in one line; and a folder swap
that the system refuses (EBUSY, EXDEV) is one line too, the old output and the new temporary
folder left as they were."""

from __future__ import annotations

import errno
import os

import pytest

from ebsstats import atomic
from ebsstats.app.reports import OutputRefused, check_output


def test_a_mount_point_is_refused_before_the_report_runs(tmp_path, monkeypatch):
    data, out = tmp_path / "data", tmp_path / "mnt"
    data.mkdir()
    out.mkdir()
    real = os.path.ismount
    monkeypatch.setattr(os.path, "ismount", lambda p: os.fspath(p) == str(out) or real(p))
    with pytest.raises(OutputRefused, match=r"is a mount point.*such as .*mnt/report"):
        check_output(data, out)
    check_output(data, out / "report")  # a folder in it is fine


@pytest.mark.parametrize(("code", "why"), [(errno.EBUSY, "in use or a mount point"),
                                           (errno.EXDEV, "on another file system")])
def test_a_refused_swap_is_one_line_and_keeps_the_old_output(tmp_path, monkeypatch, code, why):
    target = tmp_path / "rep"
    target.mkdir()
    (target / "old.html").write_text("old")
    real = os.replace

    def refuse(src, dst):
        if os.fspath(src) == str(target):
            raise OSError(code, os.strerror(code), str(src))
        return real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", refuse)
    with pytest.raises(atomic.OutputError, match=f"cannot write .*rep: it is {why}"):
        with atomic.atomic_dir(target) as tmp:
            (tmp / "new.html").write_text("new")
    assert (target / "old.html").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]  # no temporary folder left
