"""Shared by the peer child processes of ingest_speed.py (run under the peers' own Pythons, so
this imports nothing of ebsstats): read + json.loads as the baseline, best-of-N timing, and the
one JSON line the parent reads."""

import json
import resource
import time
from pathlib import Path


def report(files: list[Path], peer, repeat: int, count: str) -> None:
    """Time ``json.loads`` of every file and ``peer()`` (returning ok, failed, n), best of
    ``repeat``; print {"parse": s, "peer": s, "ok": .., "failed": .., count: n, "peer_user": s,
    "peer_sys": s, "peer_faults": n} (the last three: the process's CPU time and minor page
    faults over the peer's passes)."""

    def parse_only():
        return [json.loads(f.read_bytes()) for f in files]

    def best(fn):
        out, times = None, []
        for _ in range(repeat):
            t = time.perf_counter()
            out = fn()
            times.append(time.perf_counter() - t)
        return min(times), out

    def timed_peer():
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        tq, got = best(peer)
        return tq, got, r0, resource.getrusage(resource.RUSAGE_SELF)

    if repeat == 1:  # a first read: the peer's pass first, after only the page cache is warm,
        # as es.read's first read is timed (parsing every file first would leave the peer a
        # heap already grown to hold them)
        for f in files:
            f.read_bytes()
        tq, (ok, failed, n), r0, r1 = timed_peer()
        parse_only()
        tp, _ = best(parse_only)
    else:
        parse_only()  # warm the page cache
        tp, _ = best(parse_only)
        tq, (ok, failed, n), r0, r1 = timed_peer()
    print(json.dumps({"parse": tp, "peer": tq, "ok": ok, "failed": failed, count: n,
                      # (of all the peer's passes: with one, what its first pass cost)
                      "peer_user": r1.ru_utime - r0.ru_utime, "peer_sys": r1.ru_stime - r0.ru_stime,
                      "peer_faults": r1.ru_minflt - r0.ru_minflt}))
