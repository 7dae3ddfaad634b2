"""Shared by the peer child processes of ingest_speed.py (run under the peers' own Pythons, so
this imports nothing of ebsstats): read + json.loads as the baseline, best-of-N timing, and the
one JSON line the parent reads."""

import json
import time
from pathlib import Path


def report(files: list[Path], peer, repeat: int, count: str) -> None:
    """Time ``json.loads`` of every file and ``peer()`` (returning ok, failed, n), best of
    ``repeat``; print {"parse": s, "peer": s, "ok": .., "failed": .., count: n}."""

    def parse_only():
        return [json.loads(f.read_bytes()) for f in files]

    def best(fn):
        out, times = None, []
        for _ in range(repeat):
            t = time.perf_counter()
            out = fn()
            times.append(time.perf_counter() - t)
        return min(times), out

    parse_only()  # warm the page cache
    tp, _ = best(parse_only)
    tq, (ok, failed, n) = best(peer)
    print(json.dumps({"parse": tp, "peer": tq, "ok": ok, "failed": failed, count: n}))
