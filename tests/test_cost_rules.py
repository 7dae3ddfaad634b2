"""The performance rules behind cost(): io1/io2 throughput by provisioned IOPS, gp2's burst
throughput cap, gp3's limits, a month of per-request billing (an audit's findings; every
figure from ebsstats/data/ebs_performance_model.csv and ebs_pricing.csv by hand)."""

from __future__ import annotations

import pytest

import ebsstats as es
from ebsstats.pricing import burst_parameters, entitled_throughput
from tests.test_cost import records, tidy

MiB = 2**20


@pytest.mark.parametrize(("iops", "mibps"), [(1000, 250.0), (2000, 500.0), (10000, 500.0),
                                             (32000, 500.0), (48000, 750.0), (64000, 1000.0)])
def test_io1_throughput_by_provisioned_iops(iops, mibps):
    # io1 max_throughput (2018-11): "Up to 32,000 IOPS: 256 KiB per IOPS capped at 500 MiB/s;
    # above 32,000: +16 KiB per provisioned IOPS (48,000 IOPS -> 750 MiB/s; 64,000 -> 1,000)"
    for vt in ("io1", "io2"):
        got = entitled_throughput(vt, 2000, provisioned_iops=iops, as_of="2022-06-01") / MiB
        assert got == pytest.approx(mibps)


def test_io1_throughput_never_falls_as_iops_rise():
    tp = [entitled_throughput("io1", 2000, provisioned_iops=p, as_of="2022-06-01")
          for p in range(1000, 64001, 500)]
    assert all(b >= a for a, b in zip(tp, tp[1:], strict=False))


@pytest.mark.parametrize(("size", "sustained", "burst_cap"),
                         [(100, 75.0, 128.0), (170, 127.5, 128.0), (171, 128.25, 250.0),
                          (200, 150.0, 250.0), (333, 249.75, 250.0), (334, 250.0, 250.0)])
def test_gp2_throughput_between_170_and_334_gib(size, sustained, burst_cap):
    # gp2 max_throughput (2018-12): "128 MiB/s <=170 GiB; 250 MiB/s at >=334 GiB (burstable
    # between)"; sustained: 3 IOPS/GiB x 256 KiB = 0.75 MiB/s per GiB up to the cap
    assert entitled_throughput("gp2", size, as_of="2022-06-01") / MiB == pytest.approx(sustained)
    cap = burst_parameters("gp2", size, as_of="2022-06-01")["max_throughput"] / MiB
    assert cap == pytest.approx(burst_cap)


def _gp3(iops, mibps, size=1000):
    return tidy(records("g", [4000.0] * 11, volume_type="gp3", size_gib=size,
                        provisioned_iops=iops, provisioned_throughput_mibps=mibps))


def test_a_gp3_volume_aws_would_not_create_is_flagged():
    # gp3 max_throughput_per_iops 0.25 MiB/s: "1,000 MiB/s needs >= 4,000 IOPS"
    r = es.cost(_gp3(3000, 1000), as_of="2022-06-01").iloc[0]
    assert not r["ratio_rule_ok"]
    assert "needs at least 4000 IOPS" in r["warning"]
    # gp3 max_iops 16,000 from 2020-12 (80,000 only from 2025-09)
    r = es.cost(_gp3(20000, 125), as_of="2022-06-01").iloc[0]
    assert not r["ratio_rule_ok"] and "over the 16000 of a volume" in r["warning"]
    r = es.cost(_gp3(20000, 125), as_of="2025-12-01").iloc[0]
    assert r["ratio_rule_ok"]
    ok = es.cost(_gp3(4000, 1000), as_of="2022-06-01").iloc[0]
    assert ok["ratio_rule_ok"] and "AWS would" not in str(ok["warning"])


def test_per_request_billing_follows_the_month_asked_for():
    # magnetic 2022: 0.05 $/GB-month, 0.05 $ per million requests; 100 IOPS for 720 h
    df = tidy(records("m", [100.0] * 11, volume_type="standard", size_gib=100))
    r = es.cost(df, as_of="2022-06-01", hours_per_month=720).iloc[0]
    assert r["requests_per_month"] == pytest.approx(100 * 720 * 3600)
    assert r["monthly_usd"] == pytest.approx(100 * 0.05 + 259.2 * 0.05)
    assert "in us-east-1" in r["method"] and "month = 720 h" in r["method"]
