"""Simulated solo games with the optimal policy, against the table's expectation.

    python bench/advisor_sim.py [--games 100000] [--ruleset bonanza] [--seed 2024]

The games are played by ``core.optimal_sim`` (vectorised with numpy, the same
decisions as ``core.bots.choose("optimal", ...)``) on dice from
``numpy.random.default_rng(seed)``.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bonanza.core.advisor import get_advisor  # noqa: E402
from bonanza.core.optimal_sim import draw_dice as _draw_dice  # noqa: E402
from bonanza.core.optimal_sim import simulate


def draw_dice(games: int, seed: int) -> np.ndarray:
    return _draw_dice(np.random.default_rng(seed), games)


def run_sim(advisor, games: int, seed: int, batch: int = 4096) -> np.ndarray:
    return simulate(advisor, draw_dice(games, seed), batch)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--ruleset", default="bonanza", choices=("bonanza", "yacht"))
    p.add_argument("--seed", type=int, default=2024)
    a = p.parse_args(argv)
    adv = get_advisor(a.ruleset)
    t0 = time.perf_counter()
    scores = run_sim(adv, a.games, a.seed)
    dt = time.perf_counter() - t0
    mean = scores.mean()
    se = scores.std(ddof=1) / math.sqrt(len(scores))
    exp = adv.expected_start()
    z = (mean - exp) / se
    print(f"ruleset {a.ruleset}: {a.games} games (seed {a.seed}) in {dt:.1f} s")
    print(f"simulated mean {mean:.4f} +- {se:.4f} (SE), sd {scores.std(ddof=1):.2f}")
    print(f"table expectation {exp:.7f}; difference {mean - exp:+.4f} = {z:+.2f} SE "
          f"({'within' if abs(z) <= 3 else 'OUTSIDE'} 3 SE)")
    return 0 if abs(z) <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
