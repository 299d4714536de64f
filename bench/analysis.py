"""Analysis speed: a whole 4-seat game analysed, and one live win-chance update, each
beside the time to replay (verify) the same log in the same run.

    python bench/analysis.py [--games 5] [--seed 7]

Goals (issue 14): analysing a 4-seat log (about 160 decisions) in <= 1 s; one win-chance
update for a 4-seat table mid-game in <= 100 ms at a standard error <= 1 point (the
play-outs of core.winchance; after a move only the seat that moved is played out again).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bonanza.core.advisor import get_advisor  # noqa: E402
from bonanza.core.analysis import analyse_log, win_chances  # noqa: E402
from bonanza.core.log import parse_log, setup_from_header  # noqa: E402
from bonanza.core.match import Replay  # noqa: E402
from bonanza.core.simulate import simulate  # noqa: E402
from bonanza.core.verify import verify_bytes  # noqa: E402
from bonanza.core.winchance import SAMPLES, win_chances_mc  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--seed", type=int, default=7)
    a = p.parse_args(argv)
    advisor = get_advisor("bonanza")
    replays, analyses, decisions, updates, playouts, colds = [], [], [], [], [], []
    for g in range(a.games):
        seed = (a.seed * 1000 + g).to_bytes(32, "big")
        match = simulate("bonanza", ["casual", "optimal", "casual", "optimal"], seed)
        data = match.log.to_bytes()
        t = time.perf_counter()
        assert verify_bytes(data).ok
        replays.append(time.perf_counter() - t)
        log = parse_log(data)
        t = time.perf_counter()
        result = analyse_log(log, advisor)
        analyses.append(time.perf_counter() - t)
        decisions.append(sum(len(s.decisions) for s in result.seats))
        # one live update at mid-game, as the table screen makes after a move
        replay = Replay(setup_from_header(log.header))
        for rec in log.records[:len(log.records) // 2]:
            replay.accept(rec["move"])
        t = time.perf_counter()
        for _ in range(20):
            win_chances(advisor, replay.state)
        updates.append((time.perf_counter() - t) / 20)
        # the play-outs, as the table makes them: every seat once, then only the mover
        import numpy as np
        cache: dict = {}
        rng = np.random.default_rng(g)
        t = time.perf_counter()
        win_chances_mc(advisor, replay.state, rng, cache=cache)
        colds.append(time.perf_counter() - t)
        rec = log.records[len(log.records) // 2]
        replay.accept(rec["move"])
        t = time.perf_counter()
        win_chances_mc(advisor, replay.state, rng, cache=cache)
        playouts.append(time.perf_counter() - t)
    med = statistics.median
    print(f"{a.games} four-seat bonanza games, {med(decisions):.0f} decisions each (median)")
    print(f"replay (verify) a log: {med(replays) * 1e3:.1f} ms")
    print(f"analyse a log:         {med(analyses) * 1e3:.1f} ms  "
          f"(ratio to replay {med(analyses) / med(replays):.1f}; goal <= 1000 ms)")
    print(f"win chances, quick estimate (normal approximation): {med(updates) * 1e3:.2f} ms")
    print(f"win chances, play-outs ({SAMPLES} per seat, SE <= 1.0 point), mid-game update "
          f"after a move: {med(playouts) * 1e3:.0f} ms (goal <= 100 ms); all four seats from "
          f"cold: {med(colds) * 1e3:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
