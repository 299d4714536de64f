"""Each bot level's average score over seeded solo games, in order Easy < Medium < Hard < Perfect.

    python bench/bot_levels.py [--games 2000] [--ruleset bonanza] [--seed bench]

Every game is a whole solo game through ``core.simulate`` (the same ``Match`` a
table uses); game ``i`` of every level is dealt from the seed ``"<seed> <ruleset> <i>"``,
so the levels meet the same first rolls.  The averages printed are the ones
``core.settings.BOT_LEVEL_AVERAGES`` holds (and the host setup shows); the run
exits 1 when the levels are out of order.

Measured (2,000 games each, seed "bench"; mean +- standard error):
    bonanza  easy 142.5 +- 1.1   medium 213.9 +- 1.1   hard 240.3 +- 1.0   perfect 249.8 +- 1.1
    yacht    easy 132.9 +- 0.8   medium 208.8 +- 0.9   hard 236.6 +- 0.9   perfect 244.9 +- 0.9
(perfect plays the advisor exactly: both within about 1 SE of the tables' expectations, 250.0 and 245.9.)
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bonanza.core.settings import BOT_LEVELS, seed_from_text  # noqa: E402
from bonanza.core.simulate import simulate  # noqa: E402


def level_scores(level: str, ruleset: str, games: int, seed: str) -> list[int]:
    out = []
    for i in range(games):
        m = simulate(ruleset, [level], seed_from_text(f"{seed} {ruleset} {i}"))
        out.append(m.state.sheets[0].total(m.state.ruleset))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--ruleset", default="bonanza")
    p.add_argument("--seed", default="bench")
    a = p.parse_args(argv)
    means = []
    for level in BOT_LEVELS:
        t0 = time.perf_counter()
        s = level_scores(level, a.ruleset, a.games, a.seed)
        mean = sum(s) / len(s)
        sd = math.sqrt(sum((x - mean) ** 2 for x in s) / max(len(s) - 1, 1))
        means.append(mean)
        print(f"{a.ruleset} {level:8s} mean {mean:7.2f} +- {sd / math.sqrt(len(s)):.2f} (SE)  "
              f"sd {sd:6.2f}  {a.games} games in {time.perf_counter() - t0:.1f} s", flush=True)
    # the baseline, measured in this run: the perfect (optimal) level
    print("ratio to perfect: " + ", ".join(f"{level} {m / means[-1]:.3f}x"
                                          for level, m in zip(BOT_LEVELS, means)))
    ordered = all(x < y for x, y in zip(means, means[1:]))
    print("ordered" if ordered else "OUT OF ORDER")
    return 0 if ordered else 1


if __name__ == "__main__":
    sys.exit(main())
