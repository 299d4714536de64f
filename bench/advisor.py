"""Advisor speed: table builds vs the yatzy-solver peer, advice latency, cache load, memory;
and for yatzy, every option's value against the peer's on random situations.

    python bench/advisor.py [--skip-peer]   (the peer: pip install -e '.[bench]')

The builder is numpy alone: the first build in a fresh process (import included)
is timed first, then warm builds beside the peer's.  All figures are measured in
this run; the goal is <= 1.0x the peer's build time.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402


def fresh_process_build(name: str) -> float:
    """Import and build in a new interpreter, as a fresh install's first game does."""
    code = ("import time; t=time.perf_counter(); from core.advisor_build import build_values;"
            f"from core.rules import RULESETS; build_values(RULESETS[{name!r}]);"
            "print(time.perf_counter()-t)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return float(out.stdout.strip())


def site_packages_mb() -> float | None:
    """Size of this environment's site-packages (the install-size goal is for a
    fresh ``pip install .``, without the test and bench extras)."""
    import sysconfig
    root = sysconfig.get_paths()["purelib"]
    total = 0
    for dirpath, _dirs, files in os.walk(root):
        for f in files:
            try:
                total += os.lstat(os.path.join(dirpath, f)).st_size
            except OSError:
                pass
    return total / 2 ** 20


# The peer's names for the yatzy boxes whose names differ from ours.
PEER_BOX = {"three_kind": "three_of_a_kind", "four_kind": "four_of_a_kind"}


def compare_yatzy(peer, adv, n: int) -> None:
    """Every option of ``n`` random yatzy situations (free boxes, a possible upper
    total, dice, rolls left): our value against the peer's option value."""
    from bonanza.core.advisor_tables import upper_sums
    boxes = adv.ruleset.boxes
    full = (1 << len(boxes)) - 1
    rng = np.random.default_rng(28)
    worst = 0.0
    options = same_best = 0
    for _ in range(n):
        mask = int(rng.integers(0, full))
        upper = int(rng.choice(sorted(upper_sums(mask & 63))))
        dice = sorted(int(x) for x in rng.integers(1, 7, 5))
        rolls = int(rng.integers(0, 3))
        filled = ",".join(PEER_BOX.get(b, b) for i, b in enumerate(boxes) if mask >> i & 1)
        situation = (f"dice {' '.join(map(str, dice))} | rolls {rolls} | upper {upper} | "
                     f"filled {filled or '-'}")
        theirs = dict(peer.option_values(situation))
        advice = adv.advise_state(mask, upper, False, dice, rolls)
        ours = {f"score {PEER_BOX.get(o.box, o.box)}": o.expected for o in advice.boxes}
        ours.update({"keep " + (" ".join(map(str, h.hold)) or "-"): h.expected
                     for h in advice.holds})
        assert ours.keys() == theirs.keys(), (situation, sorted(ours), sorted(theirs))
        for k, v in ours.items():
            worst = max(worst, abs(v - theirs[k]))
        options += len(ours)
        same_best += max(ours.values()) - max(theirs.values()) == 0.0
    print(f"yatzy advice vs the peer: {n} random situations, {options} options, largest "
          f"difference {worst:.2e}; same best value in {same_best}/{n}")
    assert worst <= 1e-6, "yatzy advice differs from the peer's"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--skip-peer", action="store_true")
    a = p.parse_args(argv)

    fresh = fresh_process_build("bonanza")
    print(f"first build in a fresh process (import included), bonanza: {fresh:.2f} s")
    from bonanza.core import advisor_cache
    from bonanza.core.advisor import Advisor
    from bonanza.core.advisor_build import build_values
    from bonanza.core.rules import RULESETS, Sheet

    build_values(RULESETS["yacht"])  # warm: imports, thread pool, page faults
    times = {}
    tables = {}
    for name in ("bonanza", "yacht", "yatzy"):
        t = time.perf_counter()
        tables[name] = build_values(RULESETS[name])
        times[name] = time.perf_counter() - t
        print(f"build {name:8s}: {times[name]:.2f} s  expected {tables[name][0, 0, 0]!r}  "
              f"table {tables[name].nbytes / 2 ** 20:.0f} MiB")
    if not a.skip_peer:
        import yatzy_solver as ys
        t = time.perf_counter()
        peer = ys.Solver.build(ys.Variant("american+forced-joker"))
        tp = time.perf_counter() - t
        print(f"build peer american+forced-joker: {tp:.2f} s  expected "
              f"{peer.state_value('upper 0 | filled -'):.7f}")
        for name in ("bonanza", "yacht"):
            print(f"ratio ours/peer {name}: {times[name] / tp:.2f} (goal <= 1.0)")
        print(f"ratio ours/peer, bonanza first build in a fresh process: {fresh / tp:.2f}")
        t = time.perf_counter()
        peer_y = ys.Solver.build(ys.Variant("yatzy-scandinavian"))
        tpy = time.perf_counter() - t
        ev = peer_y.state_value("upper 0 | filled -")
        print(f"build peer yatzy-scandinavian: {tpy:.2f} s  expected {ev!r}")
        print(f"ratio ours/peer yatzy: {times['yatzy'] / tpy:.2f} (goal <= 1.0); expected "
              f"differs by {abs(tables['yatzy'][0, 0, 0] - ev):.2e} (goal <= 1e-6)")
        compare_yatzy(peer_y, Advisor(RULESETS["yatzy"], tables["yatzy"]), 3000)

    with tempfile.TemporaryDirectory() as d:
        advisor_cache.save(RULESETS["bonanza"], tables["bonanza"], d)
        loads = []
        for _ in range(5):
            t = time.perf_counter()
            v = advisor_cache.load(RULESETS["bonanza"], d)
            loads.append(time.perf_counter() - t)
        assert v is not None
        print(f"cache load (bonanza, 8 MB, checksum verified): median "
              f"{statistics.median(loads) * 1e3:.1f} ms")

    print(f"site-packages of this environment: {site_packages_mb():.0f} MB")
    mem = sum(v.nbytes for v in tables.values())
    print(f"memory, all three tables: {mem / 2 ** 20:.1f} MiB")

    adv = Advisor(RULESETS["bonanza"], tables["bonanza"])
    rng = np.random.default_rng(1)
    from bonanza.core.advisor_tables import upper_sums
    lat = []
    for i in range(2000):
        mask = int(rng.integers(0, 8191))
        upper = int(rng.choice(sorted(upper_sums(mask & 63))))
        b50 = bool(mask >> 11 & 1) and bool(rng.integers(0, 2))
        dice = tuple(int(x) for x in rng.integers(1, 7, 5))
        rl = int(rng.integers(0, 3))
        adv._turns.clear()  # cold: no state reused between situations
        t = time.perf_counter()
        adv.advise_state(mask, upper, b50, dice, rl)
        lat.append(time.perf_counter() - t)
    lat.sort()
    print(f"advice latency (random situations, uncached state): median "
          f"{statistics.median(lat) * 1e3:.3f} ms, p95 {lat[int(0.95 * len(lat))] * 1e3:.3f} ms")
    t = time.perf_counter()
    for _ in range(200):
        adv.advise(Sheet(), (3, 3, 3, 6, 6), 2)
    print(f"advice latency (same state again, cached turn): "
          f"{(time.perf_counter() - t) / 200 * 1e3:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
