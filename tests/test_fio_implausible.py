"""A fio latency longer than its job ran is no measurement (fio's clock or counters gone wrong:
a 30 s run of fio 2.1.11 printed a latency of 756,537 s): its latency family's rows are flagged
``implausible``, said in a note, left out by ``select`` and counted by ``summarize``; genuine
reports are never flagged. The reports below are genuine fixtures (fio 3.33 and 2.1.10) with one
number changed, as fio's bug changes it."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import ebsstats as es
from tests.conftest import FIXTURES, fixture


def _read_changed(tmp_path, name: str, old: str, new: str):
    """The fixture ``fio/name`` with its one ``old`` text made ``new``, read (warnings aside)."""
    text = fixture("fio", name).read_text()
    assert text.count(old) == 1, old
    path = tmp_path / name
    path.write_text(text.replace(old, new))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return es.read(path)


def _flags(df, op="read"):
    rows = df[df["op"] == op]
    return dict(zip(rows["metric"].astype(str), rows["flag"], strict=True))


def test_json_clat_max_beyond_the_run_flags_the_clat_family_only(tmp_path):
    # the read clat_ns max of the 3.001 s job: 33,431,375 ns -> 756,537 s in ns
    df = _read_changed(tmp_path, "small_json.json", '"max" : 33431375,',
                       '"max" : 756537000000000,')
    flags = _flags(df)
    clat = {m: f for m, f in flags.items() if m.startswith("clat_")}
    assert len(clat) == 21 and set(clat.values()) == {"implausible"}  # 4 + 17 percentiles
    assert df.loc[(df["metric"] == "clat_max") & (df["op"] == "read"), "value"].item() == 756537.0
    # the job's slat and lat statistics, its rates and runtime: as they were
    assert all(pd.isna(f) for m, f in flags.items() if not m.startswith("clat_"))
    assert not df["flag"].eq("implausible").fillna(False).loc[df["op"] != "read"].any()
    notes = [f for f in df.attrs["failures"] if f["kind"] == "note"]
    assert any("clat_max 756537 s is longer than the job can have run (runtime 3.001 s)"
               in n["reason"] for n in notes)
    kept = es.select(df, metric="clat_p50")
    assert kept.empty  # (the one job's read: left out)
    s = es.summarize(df[df["metric"] == "clat_max"], by=["op"])
    assert "1 value(s) longer than their fio job ran" in s.set_index("op").loc["read", "warning"]


def test_the_bound_is_twice_the_runtime_plus_ten_seconds(tmp_path):
    # 2 * 3.001 + 10 = 16.002 s: 16.0 s is kept, 16.1 s is not
    for ns, flagged in ((16_000_000_000, False), (16_100_000_000, True)):
        df = _read_changed(tmp_path, "small_json.json", '"max" : 33431375,', f'"max" : {ns},')
        assert df["flag"].eq("implausible").fillna(False).any() == flagged, ns


@pytest.mark.parametrize("name, old, new", [
    # fio 2.1.10 normal text: lat (usec) max 25,388 us -> 756,537 s
    ("f2110_small_normal.txt", "lat (usec): min=20, max=25388,",
     "lat (usec): min=20, max=756537000000,"),
    # fio 2.1.10 terse: the read clat max (field 15, usec) 31,189 -> 756,537 s
    ("f2110_small_terse.txt", ";14;31189;81.989982;", ";14;756537000000;81.989982;"),
])
def test_text_and_terse_reports_are_flagged_too(tmp_path, name, old, new):
    df = _read_changed(tmp_path, name, old, new)
    odd = df[df["flag"] == "implausible"]
    assert len(odd) and set(odd["op"]) == {"read"}
    fam = "lat_" if "normal" in name else "clat_"
    assert all(str(m).startswith(fam) for m in odd["metric"])
    assert odd["value"].max() == pytest.approx(756537.0)


def test_no_genuine_fixture_is_flagged():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = es.read(FIXTURES / "fio", progress=False)
    assert len(df) > 1000 and not df["flag"].eq("implausible").fillna(False).any()


def test_a_mean_clat_longer_than_the_mean_lat_flags_clat_and_slat_not_lat(tmp_path):
    """lat = slat + clat for every I/O, so a direction's mean clat never exceeds its mean lat;
    rawstor/rawstor_bench's fio-3.40 engine printed clat means of 5-15 s beside lat means of
    185 us in 10 s runs (4,184 directions): the I/Os' issue times were wrong, and with them
    clat and slat, while lat (fio's own start-to-end time) agrees with the IOPS. Here the
    genuine report's read clat mean, 118,820.499299 ns, becomes 5,062,580,000 ns (5.06 s): the
    read clat and slat rows are flagged, the lat rows and the write direction are not."""
    df = _read_changed(tmp_path, "small_json.json", '"mean" : 118820.499299,',
                       '"mean" : 5062580000.0,')
    flags = _flags(df)
    fams = {m.split("_")[0] for m, f in flags.items() if pd.notna(f) and f == "implausible"}
    assert fams == {"clat", "slat"}
    assert all(pd.isna(f) for m, f in flags.items() if m.startswith("lat_"))
    notes = [f["reason"] for f in df.attrs["failures"] if f["kind"] == "note"]
    assert any("clat_mean 5.06258 s is longer than lat_mean 0.000126824 s" in n for n in notes)
    # the printed rounding of a mean is no inconsistency: 1 % above lat is kept
    df = _read_changed(tmp_path, "small_json.json", '"mean" : 118820.499299,',
                       '"mean" : 128000.0,')
    assert not df["flag"].eq("implausible").fillna(False).any()
