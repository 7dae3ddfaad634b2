"""The performance model behind :func:`ebsstats.simulate.simulate`: pure, in memory, fast.

:func:`campaign` builds a whole benchmark campaign (volumes, RAID sets, a schedule over several
weeks, every tool invocation) and evaluates what each run delivers; :func:`campaign_frame` returns
just the ground-truth values as a long DataFrame in the spirit of the tidy schema (``config``,
``volume``, ``raid_set``, ``timestamp``, ``tool``, ``test``, ``op``, ``metric``, ``value`` …) plus
one ``m_*`` column per injected multiplier, so that statistics tests can draw data without
writing files. Same seed → same numbers (a :class:`numpy.random.Generator` per component, keyed
on the seed, so switching one effect on does not change the draws of another).

How a value is made
-------------------
For one job (a fio job, a bonnie++ phase, a sysbench run, a PTS run) on one volume::

    value = nominal(volume type, workload, burst state)
            × speed factor × volume random effect × slow-member factor   (per member volume)
            → RAID: N × min over members (RAID 0; RAID 10 writes N/2 × min)
            × instance random effect × weekday[d] × hour[h] × band × noise × first-write

and latencies follow from Little's law (mean latency = queue depth / IOPS). ``d`` and ``h`` are
the local weekday and hour of the run in the campaign's zone ``tz`` (its region's), whose local
days the schedule's days are too.

Volume types (nominal, per volume; ``ebs_performance_model.csv`` in the shared reference tables,
AWS EBS user guide rows dated there):

* ``standard`` (magnetic): ~100 IOPS on average ("approximately 100 IOPS", csv ``avg_iops``),
  50 MiB/s sequential (csv documents 40–90 MiB/s), 8 ms service time; no provisioned ceiling.
* ``gp2``: baseline 3 IOPS/GiB (min 100, max 16,000), burst to 3,000 IOPS from a 5.4 M I/O-credit
  bucket that starts full, earns at the baseline rate and drains at (burst − baseline); I/Os count
  in 256 KiB units; throughput cap 128 MiB/s (≤ 170 GiB) else 250 MiB/s. With ``burst=False``
  gp2 delivers its baseline (a sustained rate, as with an empty bucket).
* ``gp3``: provisioned IOPS (default 3,000) and throughput (default 125 MiB/s).
* ``io1`` / ``io2``: provisioned IOPS; throughput 256 KiB × IOPS up to 500 (io1) / 1,000 (io2)
  MiB/s. Their noise is folded (never above the provisioned rate) and service-level dips below
  90 % happen with probability ``sla_dip_prob`` (default 0.005, so delivery ≥ 90 % of provisioned
  99 % of the time, csv ``delivery_sla``).
* ``st1`` / ``sc1``: throughput buckets (1 TiB of credits per TiB), baseline 40 / 12 MiB/s per
  TiB, burst 250 / 80 MiB/s per TiB, caps 500 / 250 MiB/s and 500 / 250 IOPS; random small I/O
  is service-time bound (st1 10 ms read / 30 ms write, sc1 32 / 100 ms: with queue depth 1 this
  gives the ~100 / 33 and ~31 / 10 IOPS of seed 002's i3.large table).
* ``instance-store`` (i3.large NVMe): 100,125 read / 35,000 write IOPS at 4 KiB (csv); read
  throughput 100,125 × 4 KiB ≈ 410 MB/s, write 200 MB/s (seed 002's i3.large table).

Default magnitudes and their sources:

* run-to-run noise, lognormal σ (log scale): standard 0.15 (seed 003: PTS fio on a standard
  volume deviates up to 23 % between runs), gp2/gp3 0.03 and io1/io2 0.02 folded (seed 003:
  PIOPS deviations ≤ 1 %), st1/sc1 0.05, instance store 0.03; instance random effect σ 0.05 and
  volume random effect σ 0.05 (seed 001: "volumes … not all consistent over time").
* bonnie++ block rates of tens of MB/s on small instances (seed 000: 44–58 MB/s block output,
  45–66 MB/s block input, rewrite 0.4–0.6 × block output) → standard 50 MiB/s, rewrite 0.45.
* PIOPS levels 200–2000 (seed 003) → io1 presets at 1000 and 2000.
* first-write penalty ×5 (seed 001: "the penalty was about x5 for a first write"); it acts per
  block: an I/O on a block never written before takes ``factor`` × longer; a pass over a fresh
  region is slower, later passes are not, and the aggregate penalty fades with coverage (a random
  pass with replacement leaves exp(−k/n) of the region untouched after k I/Os).
* two performance bands (Schad, Dittrich & Quiané-Ruiz, "Runtime measurements in the cloud",
  PVLDB 3(1), 2010): with ``two_bands`` a run (or instance) falls in the slow band with probability
  ``p`` and is multiplied by ``ratio``.
* slow RAID member: "performance of the stripe is limited to the worst performing volume" (AWS
  raid-config doc); seed 001: "we were ending up with a slow volume, and which volume
  was slow might change over time". Default factor 0.7 (30 % slower), the slow member changes
  every 7 days.

Examples
--------
>>> from ebsstats.simulate.model import campaign_frame
>>> df = campaign_frame(seed=1, weeks=1, volume_types=["gp3"], tools=("fio",))
>>> sorted(df["metric"].unique())[:2]
['bandwidth', 'clat_mean']
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ebsstats.simulate.checks import Known, check_spec

GENERATOR = "ebsstats.simulate"
GENERATOR_VERSION = "3"

KiB = 1024
MiB = 1024**2
GiB = 1024**3

TOOLS_ALL = ("fio", "bonnie++", "sysbench", "pts")
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

# ---------------------------------------------------------------------------------------------
# volume types

VOLUME_DEFAULTS: dict[str, dict[str, Any]] = {
    "standard": {"size_gib": 100},
    "gp2": {"size_gib": 100},
    "gp3": {"size_gib": 100, "iops": 3000, "throughput_mibs": 125},
    "io1": {"size_gib": 100, "iops": 1000},
    "io2": {"size_gib": 100, "iops": 1000},
    "st1": {"size_gib": 500},
    "sc1": {"size_gib": 500},
    "instance-store": {"size_gib": 442},
}
VOLUME_TYPES = tuple(VOLUME_DEFAULTS)
#: device letters of a RAID set's members (/dev/xvdf ...): at most 11 members
RAID_DEVICES = "fghijklmnop"

# service time per I/O at low queue depth (s), read / write, random access
_SERVICE = {
    "standard": (0.008, 0.008), "gp2": (0.0005, 0.0006), "gp3": (0.0005, 0.0006),
    "io1": (0.0004, 0.0005), "io2": (0.0004, 0.0005), "st1": (0.010, 0.030),
    "sc1": (0.032, 0.100), "instance-store": (0.0001, 0.00003),
}
NOISE_SIGMA = {"standard": 0.15, "gp2": 0.03, "gp3": 0.03, "io1": 0.02, "io2": 0.02,
               "st1": 0.05, "sc1": 0.05, "instance-store": 0.03}
FOLDED_NOISE = {"io1", "io2"}  # provisioned ceiling: noise only pulls down
SLA_TYPES = {"io1", "io2", "gp3", "gp2"}
GP2_BUCKET = 5_400_000.0
GP2_BURST = 3000.0


@dataclass(frozen=True)
class Workload:
    """One access pattern: ``pattern`` rand|seq, ``op`` read|write, block size, queue depth."""

    pattern: str
    op: str
    bs: int
    qd: int


@dataclass
class Volume:
    """One block device (an EBS volume or the instance store)."""

    volume: str
    volume_type: str
    size_gib: float
    iops: int | None = None
    throughput_mibs: float | None = None
    device: str = "/dev/xvdf"
    speed: float = 1.0
    re: float = 1.0
    credits: float = 0.0  # burst bucket state (I/O credits for gp2, MiB for st1/sc1)
    last_t: float | None = None

    # -- nominal limits ----------------------------------------------------------------------
    @property
    def has_bucket(self) -> bool:
        return self.volume_type in ("gp2", "st1", "sc1")

    @property
    def bucket_max(self) -> float:
        if self.volume_type == "gp2":
            return GP2_BUCKET
        if self.volume_type in ("st1", "sc1"):
            return self.size_gib / 1024 * 1024 * 1024  # 1 TiB (in MiB) per TiB of volume
        return 0.0

    @property
    def gp2_baseline(self) -> float:
        return float(min(max(3.0 * self.size_gib, 100.0), 16000.0))

    def hdd_rates(self) -> tuple[float, float]:
        """(baseline, burst) MiB/s of st1/sc1."""
        tib = self.size_gib / 1024
        if self.volume_type == "st1":
            return min(40 * tib, 500.0), min(250 * tib, 500.0)
        return min(12 * tib, 192.0), min(80 * tib, 250.0)

    def earn_rate(self) -> float:
        """Credits earned per second (gp2: baseline IOPS; st1/sc1: baseline MiB/s)."""
        if self.volume_type == "gp2":
            return self.gp2_baseline
        if self.volume_type in ("st1", "sc1"):
            return self.hdd_rates()[0]
        return 0.0

    def rates(self, w: Workload, bursting: bool) -> float:
        """Nominal IOPS for workload ``w`` (bursting = bucket not empty)."""
        t = self.volume_type
        bs = w.bs
        svc = _SERVICE[t][0 if w.op == "read" else 1]
        lat_bound = w.qd / svc if w.pattern == "rand" else math.inf
        if t == "standard":
            return min(100.0, 50 * MiB / bs, lat_bound)
        if t in ("gp2", "gp3", "io1", "io2"):
            units = math.ceil(bs / (256 * KiB))
            if t == "gp2":
                cap_iops = GP2_BURST if bursting and self.gp2_baseline < GP2_BURST \
                    else self.gp2_baseline
                cap_bw = (128 if self.size_gib <= 170 else 250) * MiB
            elif t == "gp3":
                cap_iops = float(self.iops or 3000)
                cap_bw = float(self.throughput_mibs or 125) * MiB
            else:
                cap_iops = float(self.iops or 1000)
                cap_bw = min(cap_iops * 256 * KiB, (500 if t == "io1" else 1000) * MiB)
            return min(cap_iops / units, cap_bw / bs, lat_bound)
        if t in ("st1", "sc1"):
            base, burst = self.hdd_rates()
            mibs = burst if bursting else base
            max_iops = 500.0 if t == "st1" else 250.0
            units = math.ceil(bs / MiB)
            if w.pattern == "rand":
                return min(max_iops / units, mibs * MiB / bs, lat_bound)
            return min(max_iops / units, mibs * MiB / bs)
        if t == "instance-store":
            if w.op == "read":
                return min(100125.0, 100125.0 * 4096 / bs, lat_bound)
            return min(35000.0, 200e6 / bs, lat_bound)
        raise ValueError(f"unknown volume type {t!r}")

    def credit_use(self, w: Workload, iops: float) -> float:
        """Credits consumed per second at ``iops`` (0 for I/O that does not draw the bucket)."""
        if self.volume_type == "gp2":
            return iops * math.ceil(w.bs / (256 * KiB))
        if self.volume_type in ("st1", "sc1") and w.pattern == "seq":
            return iops * w.bs / MiB
        return 0.0

    def run(self, w: Workload, t0: float, duration: float, burst: bool) -> dict[str, float]:
        """Evaluate ``w`` for ``duration`` s from epoch ``t0``; update the burst bucket.

        Returns nominal mean IOPS and the burst bookkeeping (credits at start, depletion time).
        """
        out = {"credits_start": math.nan, "depletion_s": math.nan,
               "burst_iops": math.nan, "base_iops": math.nan}
        if not (burst and self.has_bucket):
            iops = self.rates(w, bursting=False)
            out["iops"] = iops
            return out
        if self.last_t is not None:  # idle refill since the last job
            self.credits = min(self.bucket_max,
                               self.credits + self.earn_rate() * max(0.0, t0 - self.last_t))
        hi = self.rates(w, bursting=True)
        lo = self.rates(w, bursting=False)
        use, earn = self.credit_use(w, hi), self.earn_rate()
        out.update(credits_start=self.credits, burst_iops=hi, base_iops=lo)
        drain = use - earn
        if drain <= 0 or hi <= lo:
            iops = hi
            self.credits = min(self.bucket_max, self.credits - drain * duration)
        else:
            td = self.credits / drain
            out["depletion_s"] = td
            if td >= duration:
                iops = hi
                self.credits -= drain * duration
            else:
                iops = (hi * td + lo * (duration - td)) / duration
                self.credits = 0.0
        self.last_t = t0 + duration
        out["iops"] = iops
        return out


@dataclass
class Config:
    """A benchmark target: one volume, or a RAID set of several, on one instance."""

    config: str
    volumes: list[Volume]
    raid_level: str | None
    instance: str
    instance_type: str
    host: str
    az: str
    re_instance: float = 1.0
    filesystem: str = "ext4"
    role: str = "volume"  # volume | array | member
    parent: str | None = None  # member: the array's config name
    member_index: int | None = None

    @property
    def raid_set(self) -> str | None:
        return self.config if self.raid_level else self.parent

    @property
    def volume_type(self) -> str:
        return self.volumes[0].volume_type

    @property
    def device(self) -> str:
        return "/dev/md0" if self.raid_level else self.volumes[0].device

    def meta(self) -> dict[str, Any]:
        """Sidecar metadata keys (flat, schema names)."""
        v0 = self.volumes[0]
        # per member volume, as the schema defines size_gib/provisioned_iops for RAID sets
        # (raid_members multiplies them): what each volume is billed and provisioned for
        size = v0.size_gib
        piops = v0.iops if v0.volume_type in ("gp3", "io1", "io2") else None
        m: dict[str, Any] = {
            "config": self.config,
            "volume": self.config if self.raid_level else v0.volume,
            "volume_type": v0.volume_type,
            "size_gib": float(size),
            "provisioned_iops": piops,
            "raid_level": self.raid_level,
            "raid_members": len(self.volumes) if self.raid_level else None,
            "raid_set": self.raid_set,
            "instance_type": self.instance_type,
            "instance": self.instance,
            "host": self.host,
            "region": self.az[:-1],
            "az": self.az,
            "filesystem": self.filesystem,
            "role": self.role,
        }
        if self.role == "member":
            m["raid_level"] = None
            m["raid_members"] = None
        return {k: v for k, v in m.items() if v is not None}


# ---------------------------------------------------------------------------------------------
# the campaign specification


@dataclass
class Spec:
    """All parameters of a campaign (see :func:`ebsstats.simulate.simulate`).

    Checked when made (:func:`ebsstats.simulate.checks.check_spec`): a bad parameter raises
    :class:`ValueError` naming it, its value and what is allowed.
    """

    seed: int = 0
    weeks: int = 4
    runs_per_day: float = 1.0
    start: str = "2024-03-04T00:00:00Z"
    volume_types: Sequence[Any] = ("standard", "gp2", "gp3", "io1")
    raid: Any = None
    drift: Mapping[str, Any] | None = None
    first_write: float | None = None
    slow_member: Mapping[str, Any] | None = None
    two_bands: Mapping[str, Any] | None = None
    burst: bool = False
    noise: Any = True
    tools: Sequence[str] = TOOLS_ALL
    instance_type: str = "m5.large"
    region: str = "us-east-1"
    #: IANA zone of the campaign's days (the schedule's) and of the local weekday and hour its
    #: calendar effects follow: the daily cycle of the region's users (us-east-1: New York),
    #: the zone ``ebsstats.drift_test`` reads a frame's ``region`` in by default. Set it with
    #: ``region``. (Generator version 2 had UTC days and effects: the bundled campaign's hour
    #: effect read in the region's zone with its sign reversed, 00-12 local -1.2 % against
    #: +3.0 % injected.)
    tz: str = "America/New_York"
    fio_runtime: int = 30
    sysbench_time: int = 30
    sysbench_modes: Sequence[str] = ("rndrd", "rndwr")
    fio_jobs: Sequence[str] = ("randread-4k", "randwrite-4k", "read-1m", "write-1m")
    bonnie_version: str = "2.00a"
    offset_logs: int | Sequence[str] = 1
    burst_runs: bool = True
    member_runs: bool = True
    pts_runs: int = 3
    preset: str | None = None
    # messiness of real campaigns (all off by default: the presets stay byte-identical)
    #: (lo, hi): each day holds lo..hi runs (uniform), back to back every ``run_gap_s`` from a
    #: random hour, so days are unbalanced and most hours are seen on few days.
    day_runs: Sequence[int] | None = None
    run_gap_s: float = 1200.0
    #: every regular run on a fresh volume (own volume random effect, full burst bucket, own id)
    fresh_volume_per_run: bool = False
    #: (phase_s, period_s): the burst run is sampled as short runs of ``phase_s`` every
    #: ``period_s`` (duty-cycled demand) instead of one long run with a windowed log.
    burst_duty: Sequence[float] | None = None

    def __post_init__(self) -> None:
        check_spec(self, _KNOWN)
        self.seed = int(self.seed)


@dataclass
class Job:
    """One tool invocation unit whose delivered rate the model evaluates."""

    config: Config
    stage: str  # prepare | pass1 | run | burst | member | pts
    slot: int  # index of the run slot within the config (-2 prepare, -1 pass1)
    pass_: int
    tool: str
    test: str
    workload: str
    w: Workload
    t0: float  # epoch seconds, start of this job
    duration: float
    slot_t: float  # epoch seconds of the slot (sidecar timestamp)
    repetition: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    out: dict[str, Any] = field(default_factory=dict)


@dataclass
class Campaign:
    """A generated campaign: spec, configs, jobs (with values), truth, frames."""

    spec: Spec
    configs: list[Config]
    jobs: list[Job]
    truth: dict[str, Any]
    weekday: np.ndarray
    hour: np.ndarray
    frame: pd.DataFrame | None = None
    series: pd.DataFrame | None = None


# ---------------------------------------------------------------------------------------------
# helpers


def _rng(seed: int, *key: int) -> np.random.Generator:
    return np.random.default_rng([int(seed), *key])


def _hexid(rng: np.random.Generator, n: int = 17) -> str:
    return "".join("0123456789abcdef"[i] for i in rng.integers(0, 16, n))


def _epoch(ts: str | pd.Timestamp) -> float:
    t = pd.Timestamp(ts)
    if t.tzinfo is None:
        t = t.tz_localize("UTC")
    return t.value / 1e9


def iso(t: float) -> str:
    """Epoch seconds → ISO 8601 UTC with ``Z`` (second precision)."""
    return pd.Timestamp(int(round(t)), unit="s").strftime("%Y-%m-%dT%H:%M:%SZ")


def calendar_multipliers(drift: Mapping[str, Any] | None) -> tuple[np.ndarray, np.ndarray]:
    """Weekday (Mon..Sun, 7) and hour-of-day (0..23, 24) multipliers, geometric mean 1, in the
    local time of the campaign's ``tz``.

    ``drift`` may give ``weekday`` (7 values) and ``hour`` (24 values) explicitly, or
    ``weekday_amplitude`` (weekend days faster by about that fraction, weekdays slower) and
    ``hour_amplitude`` (a cosine over the day, fastest at 04:00, slowest at 16:00 local).
    """
    wd = np.ones(7)
    hr = np.ones(24)
    if drift:
        if "weekday" in drift:
            wd = np.asarray(drift["weekday"], dtype=float)
        elif drift.get("weekday_amplitude"):
            a = float(drift["weekday_amplitude"])
            wd = np.array([1 - a] * 5 + [1 + a] * 2)
        if "hour" in drift:
            hr = np.asarray(drift["hour"], dtype=float)
        elif drift.get("hour_amplitude"):
            b = float(drift["hour_amplitude"])
            hr = 1 + b * np.cos(2 * np.pi * (np.arange(24) - 4) / 24)
        if wd.shape != (7,) or hr.shape != (24,) or not (wd > 0).all() or not (hr > 0).all() \
                or not np.isfinite(wd).all() or not np.isfinite(hr).all():
            raise ValueError("drift needs 7 positive weekday and 24 positive hour multipliers")
        wd = wd / np.exp(np.log(wd).mean())
        hr = hr / np.exp(np.log(hr).mean())
    return np.round(wd, 12), np.round(hr, 12)


def _noise_params(noise: Any) -> dict[str, Any]:
    if noise is False or noise is None or noise == 0:
        return {"on": False, "sigma": {}, "instance_sigma": 0.0, "volume_sigma": 0.0,
                "sla_dip_prob": 0.0, "sla_dip_range": [0.5, 0.9], "within_run_cv": 0.0}
    p = {"on": True, "sigma": dict(NOISE_SIGMA), "instance_sigma": 0.05, "volume_sigma": 0.05,
         "sla_dip_prob": 0.005, "sla_dip_range": [0.5, 0.9], "within_run_cv": 0.03}
    if isinstance(noise, Mapping):
        for k, v in noise.items():
            if k == "sigma" and not isinstance(v, Mapping):
                p["sigma"] = dict.fromkeys(NOISE_SIGMA, float(v))
            elif k == "sigma":
                p["sigma"].update({kk: float(vv) for kk, vv in v.items()})
            else:
                p[k] = v
    elif isinstance(noise, int | float) and noise is not True:
        p["sigma"] = dict.fromkeys(NOISE_SIGMA, float(noise))
    return p


def _volume_entries(volume_types: Iterable[Any]) -> list[dict[str, Any]]:
    out = []
    for item in volume_types:
        d = {"type": item} if isinstance(item, str) else dict(item)
        t = d.get("type") or d.get("volume_type")  # (checked by Spec: a known type)
        e = {**VOLUME_DEFAULTS[t], **{k: v for k, v in d.items() if k not in ("type",)}}
        e["type"] = t
        if "name" not in e:
            name = f"{t}-{int(e['size_gib'])}g"
            if t in ("io1", "io2") or (t == "gp3" and e.get("iops", 3000) != 3000):
                name += f"-{int(e['iops'])}"
            e["name"] = name
        out.append(e)
    return out


def _raid_entries(raid: Any) -> list[dict[str, Any]]:
    if not raid:
        return []
    items = [raid] if isinstance(raid, Mapping) else list(raid)
    out = []
    for r in items:
        # (checked by Spec: level, members, volume type, sizes and speed factors)
        r = {"level": "raid0", "members": 4, "volume_type": "gp3", **dict(r)}
        base = VOLUME_DEFAULTS[r["volume_type"]]
        r.setdefault("size_gib", base["size_gib"])
        if "iops" in base:
            r.setdefault("iops", base["iops"])
        if "throughput_mibs" in base:
            r.setdefault("throughput_mibs", base["throughput_mibs"])
        sf = r.get("speed_factors") or [1.0] * r["members"]
        r["speed_factors"] = [float(x) for x in sf]
        r.setdefault("name", f"{r['level']}-{r['members']}x{r['volume_type']}-{int(r['size_gib'])}g")
        out.append(r)
    return out


# ---------------------------------------------------------------------------------------------
# building the campaign

FIO_JOBS = (
    ("randread-4k", "randread", Workload("rand", "read", 4 * KiB, 16)),
    ("randwrite-4k", "randwrite", Workload("rand", "write", 4 * KiB, 16)),
    ("read-1m", "seqread", Workload("seq", "read", MiB, 4)),
    ("write-1m", "seqwrite", Workload("seq", "write", MiB, 4)),
)
SYSBENCH_MODES = {
    "rndrd": ("randread", Workload("rand", "read", 16 * KiB, 4)),
    "rndwr": ("randwrite", Workload("rand", "write", 16 * KiB, 4)),
    "seqrd": ("seqread", Workload("seq", "read", 16 * KiB, 4)),
    "seqwr": ("seqwrite", Workload("seq", "write", 16 * KiB, 4)),
}
SYSBENCH_FILE_TOTAL = 4 * GiB
BONNIE_SIZE_GIB = 16  # 2 x RAM of an m5.large
BONNIE_SEEKS = 8192
BONNIE_REWRITE = 0.45  # rewrite / block output, seed 000 (0.4-0.6 on EC2 small instances)
PTS_TESTS = (
    # (key, title, arguments, description, tool family, workload, Workload)
    ("fio-randread-4k", "Flexible IO Tester", "randread libaio 0 1 4k",
     "Type: Random Read - Engine: Linux AIO - Buffered: No - Direct: Yes - Block Size: 4KB"
     " - Disk Target: Default Test Directory", "fio", "randread", Workload("rand", "read", 4096, 16)),
    ("fio-write-1m", "Flexible IO Tester", "write libaio 0 1 1m",
     "Type: Sequential Write - Engine: Linux AIO - Buffered: No - Direct: Yes - Block Size: 1MB"
     " - Disk Target: Default Test Directory", "fio", "seqwrite", Workload("seq", "write", MiB, 4)),
    ("sysbench-rndrd", "Sysbench File I/O", "rndrd 16K",
     "Test Mode: Random Read - Block Size: 16KB", "sysbench", "randread",
     Workload("rand", "read", 16 * KiB, 4)),
)
FIRSTWRITE_REGION = 256 * MiB
FIRSTWRITE_BS = 256 * KiB


def _config_names(volume_types: Any, raid: Any) -> tuple[list[str], list[str]]:
    """Config names of the volumes and of the RAID sets (of checked parameters)."""
    return ([e["name"] for e in _volume_entries(volume_types)],
            [r["name"] for r in _raid_entries(raid)])


_KNOWN = Known(volume_types=VOLUME_TYPES, tools=TOOLS_ALL,
               fio_jobs=tuple(name for name, _, _ in FIO_JOBS),
               sysbench_modes=tuple(SYSBENCH_MODES), max_raid_members=len(RAID_DEVICES),
               config_names=_config_names)


def _largest_gap(times: list[float], lo: float, hi: float) -> float:
    """Midpoint of the largest gap between job slots inside [lo, hi)."""
    pts = sorted([lo] + [t for t in times if lo <= t < hi] + [hi])
    gaps = [(b - a, a) for a, b in zip(pts[:-1], pts[1:], strict=True)]
    g, a = max(gaps)
    t = a + g / 2
    return float(math.floor(t / 60) * 60)


def build(spec: Spec) -> Campaign:
    """Build configs, schedule and jobs (no values yet)."""
    seed = spec.seed
    r_ids = _rng(seed, 1)
    r_sched = _rng(seed, 2)
    r_re = _rng(seed, 3)
    noise = _noise_params(spec.noise)
    weekday, hour = calendar_multipliers(spec.drift)
    days = _local_days(spec)
    t_start = days[0]
    region = spec.region

    configs: list[Config] = []
    vol_entries = _volume_entries(spec.volume_types)
    raid_entries = _raid_entries(spec.raid)
    names = [e["name"] for e in vol_entries] + [r["name"] for r in raid_entries]
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate config names: {names}")

    def new_instance(itype: str, k: int) -> tuple[str, str, str, float]:
        iid = "i-" + _hexid(r_ids)
        host = f"ip-10-0-{int(r_ids.integers(1, 255))}-{int(r_ids.integers(1, 255))}"
        az = region + "abc"[k % 3]
        re_i = float(np.exp(r_re.normal(0, noise["instance_sigma"])))
        return iid, host, az, re_i

    devs = RAID_DEVICES
    for k, e in enumerate(vol_entries):
        itype = "i3.large" if e["type"] == "instance-store" else e.get("instance_type",
                                                                            spec.instance_type)
        iid, host, az, re_i = new_instance(itype, k)
        v = Volume(volume="vol-" + _hexid(r_ids) if e["type"] != "instance-store" else "nvme0n1",
                   volume_type=e["type"], size_gib=float(e["size_gib"]), iops=e.get("iops"),
                   throughput_mibs=e.get("throughput_mibs"),
                   device="/dev/nvme0n1" if e["type"] == "instance-store" else "/dev/xvdf",
                   speed=float(e.get("speed", 1.0)),
                   re=float(np.exp(r_re.normal(0, noise["volume_sigma"]))))
        configs.append(Config(e["name"], [v], None, iid, itype, host, az, re_i))
    for k, r in enumerate(raid_entries):
        iid, host, az, re_i = new_instance(spec.instance_type, len(vol_entries) + k)
        vols = []
        for m in range(r["members"]):
            vols.append(Volume(volume="vol-" + _hexid(r_ids), volume_type=r["volume_type"],
                               size_gib=float(r["size_gib"]), iops=r.get("iops"),
                               throughput_mibs=r.get("throughput_mibs"),
                               device=f"/dev/xvd{devs[m]}", speed=r["speed_factors"][m],
                               re=float(np.exp(r_re.normal(0, noise["volume_sigma"])))))
        arr = Config(r["name"], vols, r["level"], iid, spec.instance_type, host, az, re_i,
                     role="array")
        configs.append(arr)
        if spec.member_runs:
            for m, v in enumerate(vols):
                configs.append(Config(f"{r['name']}-member{m}", [v], None, iid,
                                      spec.instance_type, host, az, re_i, role="member",
                                      parent=r["name"], member_index=m))
    for v_cfg in configs:
        for v in v_cfg.volumes:
            v.credits = v.bucket_max

    # -- schedule ------------------------------------------------------------------------------
    n_days = 7 * int(spec.weeks)
    tools = tuple(spec.tools)
    jobs: list[Job] = []
    first_cfgs = [c for c in configs if c.role != "member"]
    if isinstance(spec.offset_logs, int):
        fw_log_cfgs = {c.config for c in first_cfgs[: spec.offset_logs]}
    else:
        fw_log_cfgs = set(spec.offset_logs)
    slot_times: dict[str, list[float]] = {}
    r_messy = _rng(seed, 20)
    for ci, c in enumerate(first_cfgs):
        times = []
        for d in range(n_days if spec.day_runs is None else 0):
            k = int(math.floor(spec.runs_per_day))
            if r_sched.random() < spec.runs_per_day - k:
                k += 1
            k = min(k, 8)
            hours = sorted(r_sched.choice(24, size=k, replace=False).tolist()) if k else []
            for h in hours:
                mnt = int(r_sched.integers(0, 40))
                sec = int(r_sched.integers(0, 60))
                # (hour h of a day of 23 or 25 hours: its share of the local day)
                times.append(days[d] + (days[d + 1] - days[d]) * (h * 3600 + mnt * 60 + sec)
                             // 86400)
        if spec.day_runs is not None:
            times = _unbalanced_days(r_messy, spec, days)
        slot_times[c.config] = times
        # prepare (pass 0) the day before the campaign, pass 1 an hour later
        t_prep = t_start - 86400 + (8 + ci % 12) * 3600 + 600
        _prepare_jobs(jobs, c, t_prep, spec, tools, c.config in fw_log_cfgs)
        # regular slots
        for si, t in enumerate(times):
            _slot_jobs(jobs, c, si, t, spec, tools)
            if c.role == "array" and spec.member_runs:
                for mc in configs:
                    if mc.parent == c.config:
                        tm = t + 1800 + 120 * mc.member_index
                        jobs.append(Job(mc, "member", si, si + 2, "fio", "randread-4k",
                                        "randread", FIO_JOBS[0][2], tm, spec.fio_runtime, tm))
        # burst run in the middle of the campaign
        if spec.burst and spec.burst_runs and "fio" in tools and any(
                v.has_bucket for v in c.volumes):
            mid = t_start + (n_days // 2) * 86400
            tb = _largest_gap(times, mid, mid + 86400)
            if spec.burst_duty is not None:
                _burst_duty_jobs(jobs, c, tb, spec)
            else:
                _burst_job(jobs, c, tb, spec)
        # PTS sessions, one a week
        if "pts" in tools and spec.pts_runs > 0:
            for wk in range(int(spec.weeks)):
                lo = t_start + (wk * 7 + 3) * 86400
                tp = _largest_gap(times, lo, lo + 86400)
                for ti, (key, *_rest, wl_name, w) in enumerate(PTS_TESTS):
                    for rep in range(spec.pts_runs):
                        tj = tp + (ti * spec.pts_runs + rep) * 45
                        jobs.append(Job(c, "pts", wk, -1, "pts", key, wl_name, w, tj, 30.0, tp,
                                        repetition=rep, extra={"week": wk}))
    jobs.sort(key=lambda j: (j.t0, j.config.config, j.test))

    truth = {}
    camp = Campaign(spec, configs, jobs, truth, weekday, hour)
    camp.noise = noise  # type: ignore[attr-defined]
    camp.fw_log_cfgs = fw_log_cfgs  # type: ignore[attr-defined]
    camp.slot_times = slot_times  # type: ignore[attr-defined]
    return camp


def _prepare_jobs(jobs: list[Job], c: Config, t: float, spec: Spec, tools: tuple[str, ...],
                  fw_logs: bool) -> None:
    tt = t
    if "sysbench" in tools:
        w = Workload("seq", "write", MiB, 1)  # prepare writes whole files sequentially
        jobs.append(Job(c, "prepare", -2, 0, "sysbench", "prepare", "seqwrite", w, tt, 0.0, t))
        tt += 300
    if "fio" in tools and fw_logs:
        w = Workload("rand", "write", FIRSTWRITE_BS, 1)
        jobs.append(Job(c, "prepare", -2, 0, "fio", "firstwrite", "randwrite", w, tt, 0.0, t,
                        extra={"fw_pass": 0}))
        tt += 600
        t1 = t + 3600
        w1 = Workload("seq", "write", FIRSTWRITE_BS, 1)
        jobs.append(Job(c, "pass1", -1, 1, "fio", "firstwrite", "seqwrite", w1, t1, 0.0, t1,
                        extra={"fw_pass": 1}))
    if "bonnie++" in tools:
        _bonnie_jobs(jobs, c, "prepare", -2, 0, tt, t)


def _bonnie_jobs(jobs: list[Job], c: Config, stage: str, slot: int, pass_: int, t: float,
                 slot_t: float) -> float:
    # phases: put_block, rewrite, get_block, seeks (bonnie++ -f: no per-char tests)
    phases = (("put_block", "seqwrite", Workload("seq", "write", MiB, 1)),
              ("rewrite", "rewrite", Workload("seq", "write", MiB, 1)),
              ("get_block", "seqread", Workload("seq", "read", MiB, 1)),
              ("seeks", "seeks", Workload("rand", "read", 8 * KiB, 5)))
    for name, wl, w in phases:
        jobs.append(Job(c, stage, slot, pass_, "bonnie++", name, wl, w, t, 0.0, slot_t))
        t += 1  # real start set during evaluation (phases follow each other)
    return t


def _slot_jobs(jobs: list[Job], c: Config, si: int, t: float, spec: Spec,
               tools: tuple[str, ...]) -> None:
    tt = t
    pass_ = si + 2
    if "fio" in tools:
        for name, wl, w in FIO_JOBS:
            if name not in spec.fio_jobs:
                continue
            jobs.append(Job(c, "run", si, pass_, "fio", name, wl, w, tt, spec.fio_runtime, t))
            tt += spec.fio_runtime + 1
        tt += 60
    if "bonnie++" in tools:
        _bonnie_jobs(jobs, c, "run", si, pass_, tt, t)
        tt += 600
    if "sysbench" in tools:
        for mode in spec.sysbench_modes:
            wl, w = SYSBENCH_MODES[mode]
            jobs.append(Job(c, "run", si, pass_, "sysbench", mode, wl, w, tt,
                            spec.sysbench_time, t))
            tt += spec.sysbench_time + 30


def _unbalanced_days(rng: np.random.Generator, spec: Spec, days: list[float]) -> list[float]:
    """Slot times of ``day_runs``: lo..hi runs a day, back to back from a random hour (the
    campaign's local days, ``days``: their midnights and the next)."""
    lo, hi = (int(x) for x in spec.day_runs)
    gap = float(spec.run_gap_s)
    times: list[float] = []
    for d in range(len(days) - 1):
        k = int(rng.integers(lo, hi + 1))
        span = (k - 1) * gap
        first = float(rng.uniform(0, max(days[d + 1] - days[d] - span - 60, 0)))
        times += [days[d] + round(first + i * gap) for i in range(k)]
    return times


def _local_time(spec: Spec, days: float) -> float:
    """Epoch seconds of the local wall-clock time ``days`` days after the local midnight of
    ``spec.start``'s date in ``spec.tz`` (a whole number: a local midnight, whatever summer
    time did in between).

    >>> iso(_local_time(Spec(tz="America/New_York"), 7))  # 11 March: summer time
    '2024-03-11T04:00:00Z'
    """
    wall = pd.Timestamp(_epoch(spec.start), unit="s").normalize() + pd.Timedelta(days=days)
    try:
        local = wall.tz_localize(spec.tz, nonexistent="shift_forward", ambiguous=True)
    except Exception as exc:  # (zoneinfo's, pytz's or dateutil's error for an unknown zone)
        raise ValueError(f"tz must be an IANA zone name such as 'Europe/Dublin', "
                         f"not {spec.tz!r}") from exc
    return float(local.timestamp())


def _local_days(spec: Spec) -> list[float]:
    """Epoch seconds of the local midnights (in ``spec.tz``) that open the campaign's days,
    and the one after its last: day 0 is the date of ``spec.start`` (a day across a change of
    summer time has 23 or 25 hours). The schedule's days are the zone's, as its calendar
    effects are: a drift analysis in that zone sees the days the campaign was planned in.

    >>> d = _local_days(Spec(weeks=1, tz="America/New_York"))  # summer time from 10 March
    >>> iso(d[0]), len(d), (d[6] - d[5]) / 3600, (d[7] - d[6]) / 3600
    ('2024-03-04T05:00:00Z', 8, 24.0, 23.0)
    """
    return [_local_time(spec, d) for d in range(7 * int(spec.weeks) + 1)]


def _burst_duty_jobs(jobs: list[Job], c: Config, t: float, spec: Spec) -> None:
    """Duty-cycled burst sampling: runs of ``phase`` s every ``period`` s until well past the
    depletion the continuous demand would reach (stage ``burst_duty``). Each is written as a
    plain fio JSON of one job (``<config>/burst-duty/<timestamp>/fio.json``, no logs: the
    short runs take the place of the long run's windowed log)."""
    v = c.volumes[0]
    w = Workload("rand", "read", 16 * KiB, 32) if v.volume_type == "gp2" else \
        Workload("seq", "read", MiB, 8)
    name, wl = (("burst-randread-16k", "randread") if v.volume_type == "gp2"
                else ("burst-read-1m", "seqread"))
    phase, period = (float(x) for x in spec.burst_duty)
    drain = v.credit_use(w, v.rates(w, True)) * phase / period - v.earn_rate()
    horizon = 2.0 * v.bucket_max / drain if drain > 0 else 6 * 3600.0
    for i in range(int(min(horizon, 3 * 86400) // period) + 1):
        ti = t + i * period
        jobs.append(Job(c, "burst_duty", i, -1, "fio", name, wl, w, ti, phase, ti))


def _burst_job(jobs: list[Job], c: Config, t: float, spec: Spec) -> None:
    v = c.volumes[0]
    if v.volume_type == "gp2":
        w = Workload("rand", "read", 16 * KiB, 32)
        name, wl = "burst-randread-16k", "randread"
    else:
        w = Workload("seq", "read", MiB, 8)
        name, wl = "burst-read-1m", "seqread"
    drain = v.credit_use(w, v.rates(w, True)) - v.earn_rate()
    td_full = v.bucket_max / drain if drain > 0 else 1800.0
    runtime = int(math.ceil(1.8 * td_full / 60.0)) * 60
    window = max(1000, int(round(runtime * 1000 / 360 / 1000)) * 1000)
    jobs.append(Job(c, "burst", -3, -1, "fio", name, wl, w, t, float(runtime), t,
                    extra={"log_avg_msec": window}))


# ---------------------------------------------------------------------------------------------
# evaluation


def evaluate(camp: Campaign) -> Campaign:
    """Compute every job's delivered values (and per-I/O series for first-write / burst logs)."""
    spec = camp.spec
    seed = spec.seed
    noise = camp.noise  # type: ignore[attr-defined]
    r_noise = _rng(seed, 10)
    r_band = _rng(seed, 11)
    r_dip = _rng(seed, 12)
    r_fw = _rng(seed, 13)
    r_aux = _rng(seed, 14)
    bands = dict(spec.two_bands) if spec.two_bands else None
    if bands is not None:
        bands = {"p": 0.3, "ratio": 0.7, "level": "run", **bands}
    inst_band: dict[str, int] = {}
    slow = _slow_schedules(camp)
    fw = float(spec.first_write) if spec.first_write else 1.0
    t_start = _local_time(spec, 0)
    series: list[pd.DataFrame] = []
    slot_band: dict[tuple[str, int, str], int] = {}
    r_fresh = _rng(seed, 21)
    fresh: dict[tuple[str, int], tuple[float, Volume]] = {}

    for j in camp.jobs:
        c = j.config
        vt = c.volume_type
        # -- multipliers at the slot's time (calendar uses the sidecar timestamp) -----------------
        ts = pd.Timestamp(int(j.slot_t), unit="s", tz="UTC").tz_convert(spec.tz)  # local
        m_wd = float(camp.weekday[ts.day_of_week])
        m_hr = float(camp.hour[ts.hour])
        if noise["on"]:
            sig = noise["sigma"].get(vt, 0.0)
            z = r_noise.normal(0.0, sig)
            m_noise = float(np.exp(-abs(z))) if vt in FOLDED_NOISE else float(np.exp(z))
            u_dip = r_dip.random()
            if vt in SLA_TYPES and u_dip < noise["sla_dip_prob"]:
                lo_d, hi_d = noise["sla_dip_range"]
                m_noise *= float(r_dip.uniform(lo_d, hi_d))
        else:
            m_noise = 1.0
        m_band, band = 1.0, 0
        if bands is not None:
            if bands["level"] == "instance":
                if c.instance not in inst_band:
                    inst_band[c.instance] = int(r_band.random() < bands["p"])
                band = inst_band[c.instance]
            else:
                key = (c.config, j.slot, j.stage)
                if key not in slot_band:
                    slot_band[key] = int(r_band.random() < bands["p"])
                band = slot_band[key]
            m_band = float(bands["ratio"]) if band else 1.0
        # -- per member volume ------------------------------------------------------------------
        n = len(c.volumes)
        if c.raid_level:
            w_m = Workload(j.w.pattern, j.w.op, min(j.w.bs, 256 * KiB), max(1, -(-j.w.qd // n)))
        else:
            w_m = j.w
        dur = j.duration
        if j.tool == "bonnie++":
            dur = _bonnie_duration(j, c)
        elif j.tool == "sysbench" and j.test == "prepare":
            dur = 60.0
        caps = []
        pure = []
        burst_info = None
        slow_idx = slow.get(c.raid_set or "", None)
        slow_member = _slow_at(slow_idx, j.slot_t) if slow_idx else None
        m_fresh, vols = 1.0, c.volumes
        if spec.fresh_volume_per_run and j.stage == "run" and n == 1:
            key = (c.config, j.slot)
            if key not in fresh:  # a new volume: its own random effect and a full bucket
                fresh[key] = (float(np.exp(r_fresh.normal(0, noise["volume_sigma"]))),
                              dataclasses.replace(c.volumes[0], last_t=None,
                                                  credits=c.volumes[0].bucket_max))
            m_fresh = fresh[key][0] / c.volumes[0].re
            vols = [fresh[key][1]]
        for m, v in enumerate(vols):
            info = v.run(w_m, j.t0, dur, spec.burst)
            if burst_info is None:
                burst_info = info
            m_slow = 1.0
            vm = c.member_index if c.role == "member" else m
            if slow_member is not None and slow_member == vm:
                m_slow = float(slow[c.raid_set]["factor"])
            caps.append(info["iops"] * w_m.bs * v.speed * v.re * m_slow)
            pure.append(info["iops"] * w_m.bs)
        if c.raid_level:
            k = n / 2 if (c.raid_level == "raid10" and j.w.op == "write") else n
            nominal_bw, type_bw = k * min(caps), k * min(pure)
        else:
            nominal_bw, type_bw = caps[0], pure[0]
        if j.tool == "bonnie++" and j.test == "rewrite":  # read + modify + write per chunk
            nominal_bw, type_bw = nominal_bw * BONNIE_REWRITE, type_bw * BONNIE_REWRITE
        nominal_iops = nominal_bw / j.w.bs
        # the volumes' own multipliers (speed factor x volume random effect x slow member):
        # the per-I/O and per-window logs below are built from the type's nominal rates and
        # need them too, so that a log shows the same volume as its run's summary
        m_vol = nominal_bw / type_bw if type_bw > 0 else 1.0
        # -- first write ------------------------------------------------------------------------
        m_fw = 1.0
        if fw != 1.0 and j.stage == "prepare" and (
                (j.tool == "sysbench" and j.test == "prepare")
                or (j.tool == "bonnie++" and j.test == "put_block")):
            m_fw = 1.0 / fw
        m_total = c.re_instance * m_wd * m_hr * m_band * m_noise * m_fw * m_fresh
        iops = nominal_iops * m_total
        v0 = c.volumes[0]
        j.out = {
            "nominal_iops": type_bw / j.w.bs, "iops": iops, "bandwidth": iops * j.w.bs,
            "m_instance": c.re_instance, "m_volume": c.volumes[0].re if n == 1 else math.nan,
            "m_speed": v0.speed if n == 1 else float("nan"),
            "m_weekday": m_wd, "m_hour": m_hr, "m_band": m_band, "band": band,
            "m_noise": m_noise, "m_first_write": m_fw,
            "m_slow": (float(slow[c.raid_set]["factor"]) if slow_member is not None and (
                c.role != "member" or slow_member == c.member_index) else 1.0),
            "slow_member": slow_member,
            "credits_start": burst_info["credits_start"] if burst_info else math.nan,
            "depletion_s": burst_info["depletion_s"] if burst_info else math.nan,
            "duration": dur,
        }
        if j.tool == "fio" and j.test == "firstwrite":
            s = _firstwrite_series(j, r_fw, fw, m_total * m_vol)
            series.append(s)
            lat = s["lat_s"].to_numpy()
            j.out["iops"] = len(lat) / lat.sum()
            j.out["bandwidth"] = j.out["iops"] * j.w.bs
            j.out["per_io"] = s
            j.out["duration"] = float(lat.sum())
            j.duration = float(lat.sum())
        elif j.stage == "burst":
            s = _burst_series(j, burst_info, m_total * m_vol, noise, r_aux, nominal_iops)
            j.out["windows"] = s
            series.append(s.assign(config=c.config))
        _latencies(j, noise)

    camp.series = (pd.concat(series, ignore_index=True) if series else None)
    camp.slow = slow  # type: ignore[attr-defined]
    camp.bands = bands  # type: ignore[attr-defined]
    camp.t_start = t_start  # type: ignore[attr-defined]
    camp.truth = _truth(camp)
    return camp


def _bonnie_duration(j: Job, c: Config) -> float:
    v = c.volumes[0]
    iops = v.rates(j.w, bursting=True) * len(c.volumes)
    if j.test == "seeks":
        return BONNIE_SEEKS / max(iops, 1.0)
    return BONNIE_SIZE_GIB * GiB / max(iops * j.w.bs, 1.0)


def _slow_schedules(camp: Campaign) -> dict[str, dict[str, Any]]:
    spec = camp.spec
    if not spec.slow_member:
        return {}
    sm = {"factor": 0.7, "every_days": 7, **dict(spec.slow_member)}
    rng = _rng(spec.seed, 20)
    out = {}
    t0 = _local_time(spec, -2)  # (the campaign's local days: the schedule's steps too)
    t_end = _local_time(spec, 7 * spec.weeks)
    arrays = [c for c in camp.configs if c.role == "array"]
    if sm.get("raid_set"):
        arrays = [c for c in arrays if c.config == sm["raid_set"]]
    for c in arrays:
        n = len(c.volumes)
        if sm.get("schedule"):
            windows = []
            sched = list(sm["schedule"])
            for i, item in enumerate(sched):
                start, member = (item["start"], item["member"]) if isinstance(item, Mapping) \
                    else item
                s = _epoch(start) if isinstance(start, str) else _local_time(spec, float(start))
                if i == 0:
                    s = min(s, t0)
                windows.append([s, None, int(member)])
        else:
            windows = []
            s = t0
            prev = -1
            step = float(sm["every_days"])
            k = 1
            while s < t_end:
                choices = [m for m in range(n) if m != prev]
                member = int(choices[int(rng.integers(0, len(choices)))])
                e = _local_time(spec, k * step)
                windows.append([s, e, member])
                prev, s, k = member, e, k + 1
        for i in range(len(windows)):
            windows[i][1] = windows[i + 1][0] if i + 1 < len(windows) else t_end + 86400
        out[c.config] = {"factor": float(sm["factor"]), "windows": windows,
                         "volumes": [v.volume for v in c.volumes]}
    return out


def _slow_at(s: dict[str, Any], t: float) -> int | None:
    for a, b, m in s["windows"]:
        if a <= t < b:
            return m
    return None


_Z: dict[float, float] = {}


def _lognormal_quantile(mean: float, s: float, p: float) -> float:
    z = _Z.get(p)
    if z is None:
        from statistics import NormalDist
        z = _Z[p] = NormalDist().inv_cdf(p)
    return math.exp(math.log(mean) - s * s / 2 + s * z)


LAT_SHAPE = {"standard": 0.6, "st1": 0.6, "sc1": 0.6}
PERCENTILES = (1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5,
               99.9, 99.95, 99.99)


def _latencies(j: Job, noise: dict[str, Any]) -> None:
    """Mean latency by Little's law and a lognormal latency distribution for percentiles."""
    o = j.out
    if "per_io" in o:
        lat = o["per_io"]["lat_s"].to_numpy()
        clat = o["per_io"]["clat_s"].to_numpy()
        o["lat_mean"] = float(lat.mean())
        o["clat_mean"] = float(clat.mean())
        o["slat_mean"] = float((lat - clat).mean())
        o["lat_shape"] = float(np.std(np.log(clat)))
        o["clat_pct"] = {p: float(np.percentile(clat, p, method="inverted_cdf"))
                         for p in PERCENTILES}
        o["clat_min"], o["clat_max"] = float(clat.min()), float(clat.max())
        o["lat_min"], o["lat_max"] = float(lat.min()), float(lat.max())
        o["clat_stddev"], o["lat_stddev"] = float(clat.std()), float(lat.std())
        return
    qd = j.w.qd
    lat = qd / o["iops"] if o["iops"] > 0 else math.nan
    s = LAT_SHAPE.get(j.config.volume_type, 0.35)
    slat = min(8e-6 + 0.002 * lat, 0.2 * lat)
    clat = lat - slat
    o["lat_mean"], o["clat_mean"], o["slat_mean"], o["lat_shape"] = lat, clat, slat, s
    o["clat_pct"] = {p: _lognormal_quantile(clat, s, p / 100) for p in PERCENTILES}
    sd = math.sqrt(math.exp(s * s) - 1)
    o["clat_stddev"], o["lat_stddev"] = clat * sd, lat * sd
    o["clat_min"] = _lognormal_quantile(clat, s, 0.0005)
    o["clat_max"] = _lognormal_quantile(clat, s, 0.99995)
    o["lat_min"], o["lat_max"] = o["clat_min"] + slat, o["clat_max"] + slat


def _firstwrite_series(j: Job, rng: np.random.Generator, factor: float,
                       m_total: float) -> pd.DataFrame:
    """Per-I/O simulation of a first-write pass over the fio region (offset-resolved)."""
    c = j.config
    nblk = FIRSTWRITE_REGION // FIRSTWRITE_BS
    touched = c.__dict__.setdefault("_touched", np.zeros(nblk, dtype=bool))
    if j.extra["fw_pass"] == 0:
        blocks = rng.integers(0, nblk, 2 * nblk)  # norandommap, io_size = 2 x region
    else:
        blocks = np.arange(nblk)
    first = np.zeros(len(blocks), dtype=bool)
    for i, b in enumerate(blocks):  # sequential touch bookkeeping
        if not touched[b]:
            first[i] = True
            touched[b] = True
    v = c.volumes[0]
    base_iops = v.rates(Workload("seq", "write", FIRSTWRITE_BS, 1), bursting=True) * len(
        c.volumes)
    base_lat = 1.0 / (base_iops * m_total)
    jitter = np.exp(rng.normal(0.0, 0.1, len(blocks)))
    lat = base_lat * jitter * np.where(first, factor, 1.0)
    slat = np.minimum(8e-6 + 0.002 * lat, 0.2 * lat)
    t_end = np.cumsum(lat)
    return pd.DataFrame({
        "config": c.config, "pass": j.extra["fw_pass"], "io": np.arange(len(blocks)),
        "offset": blocks.astype(np.int64) * FIRSTWRITE_BS, "first_touch": first,
        "t_s": t_end, "lat_s": lat, "clat_s": lat - slat,
    })


def _burst_series(j: Job, info: dict[str, float], m_total: float, noise: dict[str, Any],
                  rng: np.random.Generator, nominal_iops: float) -> pd.DataFrame:
    win = j.extra["log_avg_msec"] / 1000.0
    n = int(j.duration // win)
    t_end = (np.arange(n) + 1) * win
    td = info["depletion_s"]
    hi, lo = info["burst_iops"], info["base_iops"]
    if not math.isfinite(td):
        frac = np.ones(n)
    else:
        frac = np.clip((td - (t_end - win)) / win, 0.0, 1.0)
    cv = noise["within_run_cv"]
    jit = np.exp(rng.normal(0.0, cv, n)) if cv else np.ones(n)
    iops = (frac * hi + (1 - frac) * lo) * m_total * jit
    return pd.DataFrame({"t_s": t_end, "iops": iops, "bursting": frac > 0.5})


# ---------------------------------------------------------------------------------------------
# truth


def _truth(camp: Campaign) -> dict[str, Any]:
    spec = camp.spec
    noise = camp.noise  # type: ignore[attr-defined]

    def fnum(x: Any) -> Any:
        if x is None:
            return None
        x = float(x)
        return None if math.isnan(x) else round(x, 9)

    vols = []
    for c in camp.configs:
        for v in c.volumes:
            if c.role == "member":
                continue
            d = {"volume": v.volume, "config": c.config, "volume_type": v.volume_type,
                 "size_gib": fnum(v.size_gib), "device": v.device,
                 "provisioned_iops": v.iops, "provisioned_throughput_mibs": fnum(
                     v.throughput_mibs), "speed_factor": fnum(v.speed),
                 "volume_random_effect": fnum(v.re), "instance": c.instance}
            if v.has_bucket:
                d["burst"] = _burst_truth(v, spec.burst)
            vols.append(d)
    cfgs = []
    for c in camp.configs:
        d = {"config": c.config, "role": c.role, "instance": c.instance,
             "instance_type": c.instance_type, "host": c.host, "az": c.az,
             "instance_random_effect": fnum(c.re_instance),
             "volumes": [v.volume for v in c.volumes]}
        if c.raid_level:
            d["raid_level"] = c.raid_level
        if c.parent:
            d["raid_set"] = c.parent
            d["member_index"] = c.member_index
        cfgs.append(d)
    slow = {}
    for k, s in camp.slow.items():  # type: ignore[attr-defined]
        slow[k] = {"factor": s["factor"], "windows": [
            {"start": iso(a), "end": iso(b), "member_index": m, "volume": s["volumes"][m]}
            for a, b, m in s["windows"]]}
    burst_runs = []
    for j in camp.jobs:
        if j.stage == "burst":
            v = j.config.volumes[0]
            info = j.out
            drain = v.credit_use(j.w, v.rates(j.w, True)) - v.earn_rate()
            burst_runs.append({
                "config": j.config.config, "start": iso(j.t0), "runtime_s": int(j.duration),
                "test": j.test, "credits_at_start": fnum(info["credits_start"]),
                "credit_unit": "I/O credits" if v.volume_type == "gp2" else "MiB",
                "burst_iops": fnum(v.rates(j.w, True)), "baseline_iops": fnum(
                    v.rates(j.w, False)), "drain_per_s": fnum(drain),
                "predicted_depletion_s": fnum(info["depletion_s"])})
    fw_truth = None
    if spec.first_write:
        fw_truth = {
            "factor": float(spec.first_write),
            "mechanism": "per block: an I/O on a block never written before takes factor x "
                         "longer (throughput / factor); later touches are normal",
            "fade": "with coverage: a random pass with replacement over n blocks leaves "
                    "exp(-k/n) of them untouched after k I/Os",
            "applies_to": ["sysbench prepare (pass 0)", "bonnie++ put_block of the first run "
                           "(pass 0)", "fio firstwrite jobs (pass 0 random with norandommap, "
                           "pass 1 sequential), per-offset logs"],
            "fio_region_bytes": FIRSTWRITE_REGION, "fio_block_size": FIRSTWRITE_BS,
            "offset_log_configs": sorted(camp.fw_log_cfgs),  # type: ignore[attr-defined]
        }
    bands = camp.bands  # type: ignore[attr-defined]
    return {
        "synthetic": True,
        "generator": GENERATOR,
        "generator_version": GENERATOR_VERSION,
        "seed": int(spec.seed),
        "preset": spec.preset,
        "start": iso(_local_time(spec, 0)),  # (the local midnight of spec.start's date)
        "tz": spec.tz,
        "weeks": int(spec.weeks),
        "runs_per_day": float(spec.runs_per_day),
        "tools": list(spec.tools),
        "value_model": "value = nominal(volume type, workload, burst state) x speed factor x "
                       "volume random effect x slow-member factor (per member; RAID0 = N x "
                       "min over members, RAID10 writes N/2 x min) x instance random effect x "
                       "weekday[d] x hour[h] (at the run folder's meta.yaml timestamp, in the "
                       f"local time of {spec.tz}) x "
                       "band x noise x first-write",
        "effects": {
            "noise": {k: (dict(sorted(v.items())) if isinstance(v, dict) else v)
                      for k, v in noise.items()},
            "drift": None if not spec.drift else {
                "weekday": dict(zip(WEEKDAYS, [fnum(x) for x in camp.weekday], strict=True)),
                "hour": {int(h): fnum(x) for h, x in enumerate(camp.hour)},
                "normalisation": "geometric mean 1 over the levels"},
            "first_write": fw_truth,
            "slow_member": slow or None,
            "two_bands": None if bands is None else {k: bands[k] for k in ("p", "ratio", "level")},
            "burst": {"enabled": bool(spec.burst), "gp2_bucket_credits": GP2_BUCKET,
                      "gp2_burst_iops": GP2_BURST, "gp2_baseline": "3 IOPS/GiB, min 100",
                      "st1_sc1_bucket": "1 TiB of credits per TiB of volume (MiB)",
                      "runs": burst_runs},
        },
        "configs": cfgs,
        "volumes": vols,
    }


def _burst_truth(v: Volume, enabled: bool) -> dict[str, Any]:
    if v.volume_type == "gp2":
        return {"kind": "iops", "baseline_iops": v.gp2_baseline, "burst_iops": GP2_BURST,
                "bucket_credits": GP2_BUCKET, "enabled": enabled}
    base, burst = v.hdd_rates()
    return {"kind": "throughput", "baseline_mibs": round(base, 9), "burst_mibs": round(burst, 9),
            "bucket_mib": round(v.bucket_max, 9), "enabled": enabled}


def job_path(j: Job) -> str:
    """Relative path (POSIX) of the file a job's result is written to."""
    c = j.config.config
    if j.tool == "pts":
        return f"pts/week-{j.extra['week'] + 1}/composite.xml"
    if j.stage == "prepare":
        folder = f"{c}/prepare"
    elif j.stage == "pass1":
        folder = f"{c}/prepare-pass1"
    elif j.stage == "burst":
        folder = f"{c}/burst"
    else:  # (burst_duty runs apart: one may start in the second of a regular run)
        runs = "burst-duty" if j.stage == "burst_duty" else "runs"
        folder = f"{c}/{runs}/" + pd.Timestamp(int(j.slot_t), unit="s").strftime("%Y%m%dT%H%M%SZ")
    if j.tool == "fio":
        name = {"prepare": "firstwrite.json", "pass1": "firstwrite.json",
                "burst": "burst.json"}.get(j.stage, "fio.json")
    elif j.tool == "bonnie++":
        name = "bonnie.csv"
    else:
        name = f"sysbench_{j.test}.txt"
    return f"{folder}/{name}"


# ---------------------------------------------------------------------------------------------
# public entry points

PRESETS: dict[str, dict[str, Any]] = {
    "bundled": {
        "weeks": 4,
        "runs_per_day": 1.0,
        "volume_types": (
            "standard",
            {"type": "gp2", "size_gib": 20},
            "gp3",
            {"type": "io1", "size_gib": 100, "iops": 1000},
            {"type": "io1", "size_gib": 200, "iops": 2000},
            "st1",
            "sc1",
            "instance-store",
        ),
        "raid": {"level": "raid0", "members": 4, "volume_type": "gp3", "size_gib": 50},
        "drift": {"weekday_amplitude": 0.04, "hour_amplitude": 0.05},
        "first_write": 5.0,
        "slow_member": {"factor": 0.7, "every_days": 7},
        "two_bands": None,
        "burst": True,
        "noise": True,
        "offset_logs": 2,
        "fio_jobs": ("randread-4k", "randwrite-4k", "write-1m"),
        "sysbench_modes": ("rndrd",),
    },
}


def make_spec(seed: int = 0, preset: str | None = None, **params: Any) -> Spec:
    """Merge a preset and explicit parameters into a :class:`Spec` (which checks them).

    Raises
    ------
    TypeError
        For a parameter that is not a :class:`Spec` field.
    ValueError
        For an unknown preset or a bad parameter value (one line: the parameter, its value and
        what is allowed; see :mod:`ebsstats.simulate.checks`).
    """
    base: dict[str, Any] = {}
    if preset is not None:
        if preset not in PRESETS:
            raise ValueError(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}")
        base.update(PRESETS[preset])
    base.update({k: v for k, v in params.items() if v is not _UNSET})
    unknown = set(base) - set(Spec.__dataclass_fields__)
    if unknown:
        raise TypeError(f"unknown simulation parameter(s): {', '.join(sorted(unknown))}")
    if not isinstance(base.get("tools", ()), str):  # (a string is refused by Spec's checks)
        base["tools"] = tuple(base.get("tools", TOOLS_ALL))
    return Spec(seed=seed, preset=preset, **base)


_UNSET = object()


def campaign(seed: int = 0, *, preset: str | None = None, **params: Any) -> Campaign:
    """Build and evaluate a campaign in memory (see :func:`ebsstats.simulate.simulate`).

    Returns a :class:`Campaign` with ``jobs`` (each with ``out`` values), ``truth`` (the
    dict written as truth.yaml), ``frame`` (ground-truth values, long form) and ``series``
    (per-I/O first-write and burst-window series).

    Examples
    --------
    >>> c = campaign(seed=3, weeks=1, volume_types=["gp2"], burst=True, tools=("fio",))
    >>> c.truth["effects"]["burst"]["enabled"]
    True
    """
    spec = make_spec(seed, preset, **params)
    camp = evaluate(build(spec))
    camp.frame = _frame(camp)
    return camp


def campaign_frame(seed: int = 0, *, preset: str | None = None, **params: Any) -> pd.DataFrame:
    """Ground-truth values of a simulated campaign as a long DataFrame (no files written).

    One row per (job, op, metric) with ``value`` in SI units (IO/s, B/s, s) and the injected
    multipliers as ``m_*`` columns (``m_instance``, ``m_volume``, ``m_speed``, ``m_weekday``,
    ``m_hour``, ``m_band``, ``m_noise``, ``m_first_write``, ``m_slow``) plus ``nominal`` (the
    volume-type rate before any multiplier, IO/s), ``slow_member`` (index of the slow member of
    the RAID set at that time), ``band`` and ``pass``. Parameters as
    :func:`ebsstats.simulate.simulate`.

    Examples
    --------
    >>> df = campaign_frame(seed=0, weeks=1, volume_types=["standard"], tools=("fio",),
    ...                     noise=False)
    >>> float(df.query("test == 'randread-4k' and metric == 'iops'")["value"].iloc[0])
    100.0
    """
    return campaign(seed, preset=preset, **params).frame  # type: ignore[return-value]


_META_COLS = ("config", "volume", "volume_type", "size_gib", "provisioned_iops", "raid_level",
              "raid_members", "raid_set", "instance_type", "instance", "host", "az", "role")


def _frame(camp: Campaign) -> pd.DataFrame:
    rows: list[tuple] = []
    metas = {c.config: c.meta() for c in camp.configs}
    for j in camp.jobs:
        o = j.out
        common = (j.config.config, job_path(j), j.stage, j.pass_, j.slot, j.t0, j.slot_t,
                  j.tool, j.test, j.workload, j.w.bs, j.w.qd, j.repetition)
        mult = (o["nominal_iops"], o["m_instance"], o["m_volume"], o["m_speed"], o["m_weekday"],
                o["m_hour"], o["m_band"], o["band"], o["m_noise"], o["m_first_write"],
                o["m_slow"], o["slow_member"], o["credits_start"], o["depletion_s"])
        op = j.w.op
        metrics: list[tuple[str, str, float]] = []
        if j.tool == "fio":
            metrics = [(op, "iops", o["iops"]), (op, "bandwidth", o["bandwidth"]),
                       (op, "lat_mean", o["lat_mean"]), (op, "clat_mean", o["clat_mean"]),
                       (op, "clat_p99", o["clat_pct"][99.0])]
        elif j.tool == "bonnie++":
            if j.test == "seeks":
                metrics = [("read", "iops", o["iops"])]
            else:
                metrics = [(op if j.test != "rewrite" else "write", "bandwidth",
                            o["bandwidth"])]
        elif j.tool == "sysbench":
            if j.test == "prepare":
                metrics = [("write", "bandwidth", o["bandwidth"])]
            else:
                metrics = [(op, "iops", o["iops"]), (op, "bandwidth", o["bandwidth"]),
                           ("total", "lat_mean", o["lat_mean"])]
        elif j.tool == "pts":
            metrics = [(op, "iops", o["iops"]), (op, "bandwidth", o["bandwidth"])]
        for op_, metric, value in metrics:
            rows.append((*common, op_, metric, float(value), *mult))
    cols = ["config", "path", "stage", "pass", "slot", "t0", "slot_t", "tool", "test", "workload",
            "block_size", "iodepth", "repetition", "op", "metric", "value", "nominal",
            "m_instance", "m_volume", "m_speed", "m_weekday", "m_hour", "m_band", "band",
            "m_noise", "m_first_write", "m_slow", "slow_member", "credits_start", "depletion_s"]
    df = pd.DataFrame.from_records(rows, columns=cols)
    # the sidecar timestamp is the slot's; job start kept as `start`
    df["timestamp"] = pd.to_datetime((df["slot_t"].round()).astype("int64"), unit="s", utc=True)
    df["start"] = pd.to_datetime((df["t0"] * 1000).round().astype("int64"), unit="ms", utc=True)
    df = df.drop(columns=["slot_t", "t0"])
    meta_df = pd.DataFrame([{k: metas[c].get(k) for k in _META_COLS} for c in metas])
    df = df.merge(meta_df, on="config", how="left", sort=False)
    if camp.spec.fresh_volume_per_run and "volume" in df.columns:
        run = (df["stage"] == "run") & df["raid_set"].isna()
        df.loc[run, "volume"] = (df.loc[run, "volume"].astype(str) + "-run"
                                 + df.loc[run, "slot"].astype(str))
    df["slow_member"] = df["slow_member"].astype("Int64")
    df["unit"] = df["metric"].map({"iops": "IO/s", "bandwidth": "B/s"}).fillna("s")
    first = ["config", "volume", "raid_set", "timestamp", "tool", "test", "workload", "op",
             "metric", "value", "unit"]
    return df[first + [c for c in df.columns if c not in first]]
