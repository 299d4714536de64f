"""Advisor speed: table builds vs the yatzy-solver peer, advice latency, cache load, memory.

    python bench/advisor.py [--skip-peer] [--cold]   (the peer: pip install -e '.[bench]')

--cold first clears numba's on-disk cache for core/advisor_build.py and times
the first-compile in a fresh process.  All figures are measured in this run.
"""
from __future__ import annotations

import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402


def cold_compile() -> float:
    for f in glob.glob(os.path.join(ROOT, "core", "__pycache__", "advisor_build*.nb*")):
        os.unlink(f)
    code = ("import time; t=time.perf_counter(); import core.advisor_build as b; import numpy as np;"
            "from core.rules import RULESETS; from core.advisor_build import layer_states;"
            "V=np.zeros((8192,64,2)); s=layer_states(RULESETS['yacht'])[12];"
            "b._layer_kernel(s,0,1,V,*([b.COUNTS,b.POINTS,b.JOKER_POINTS,b.IS_YACHT,b.FACE,"
            "b.CHILDREN,b.PARENTS,63,35,False,0,False])); print(time.perf_counter()-t)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return float(out.stdout.strip())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--skip-peer", action="store_true")
    p.add_argument("--cold", action="store_true", help="also time numba's first compile")
    a = p.parse_args(argv)

    if a.cold:
        print(f"numba cold compile + import: {cold_compile():.2f} s (cached afterwards)")
    from core import advisor_cache
    from core.advisor import Advisor
    from core.advisor_build import build_values
    from core.rules import RULESETS, Sheet

    build_values(RULESETS["yacht"])  # warm: numba cache load, thread pool, page faults
    times = {}
    tables = {}
    for name in ("bonanza", "yacht"):
        t = time.perf_counter()
        tables[name] = build_values(RULESETS[name])
        times[name] = time.perf_counter() - t
        print(f"build {name:8s}: {times[name]:.2f} s  expected {tables[name][0, 0, 0]:.7f}")
    if not a.skip_peer:
        import yatzy_solver as ys
        t = time.perf_counter()
        peer = ys.Solver.build(ys.Variant("american+forced-joker"))
        tp = time.perf_counter() - t
        print(f"build peer american+forced-joker: {tp:.2f} s  expected "
              f"{peer.state_value('upper 0 | filled -'):.7f}")
        for name in ("bonanza", "yacht"):
            print(f"ratio ours/peer {name}: {times[name] / tp:.2f} (goal <= 0.50)")

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

    mem = sum(v.nbytes for v in tables.values())
    print(f"memory, both tables: {mem / 2 ** 20:.1f} MiB")

    adv = Advisor(RULESETS["bonanza"], tables["bonanza"])
    rng = np.random.default_rng(1)
    from core.advisor_tables import upper_sums
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
