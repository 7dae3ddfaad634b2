"""The rendered report opens in a real browser (headless Chromium) with its figures loaded."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ebsstats.app.reports import report
from tests.conftest import ROOT, fixture

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

pytestmark = pytest.mark.browser

PROBE = ("<script>window.addEventListener('load',()=>{const ok=[...document.images]"
         ".filter(i=>i.complete&&i.naturalWidth>0).length;document.body.setAttribute("
         "'data-images-loaded',ok);document.body.setAttribute('data-images',"
         "document.images.length);});</script>")


def _dom(page: Path, profile: Path) -> str:
    cmd = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=5000",
           "--dump-dom", page.as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")
def test_overview_report_shows_figures_in_chromium(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    for name in ("small_json.json", "cli_randrw_4k.json", "multi_json.json"):
        shutil.copy(fixture("fio", name), data / name)
    index = report(data, tmp_path / "rep", notebooks=ROOT / "notebooks", only=["00-"])
    dom = _dom(index, tmp_path / "profile")
    links = re.findall(r'href="([^"]+\.html)"', dom)
    assert links == ["00-overview.html"]
    page = index.parent / links[0]
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"))
    dom = _dom(probe, tmp_path / "profile")
    loaded = int(re.search(r'data-images-loaded="(\d+)"', dom).group(1))
    total = int(re.search(r'data-images="(\d+)"', dom).group(1))
    assert total >= 1 and loaded == total
    assert "Traceback" not in dom
