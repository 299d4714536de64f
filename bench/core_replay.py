"""How fast the core folds moves and verifies whole logs.

Prints log entries applied per second (the bare fold, and the fold with a
state hash per entry as the relay and verifier do), whole logs verified per
second, and, as a baseline measured in the same run, how fast msgpack alone
decodes the same files: the ratio is what checking costs over reading.

    python bench/core_replay.py [--games 40] [--seats 4]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import msgpack  # noqa: E402

from bonanza.core.game import Seat, allowed, apply, new_game  # noqa: E402
from bonanza.core.log import MAGIC, parse_log, setup_from_header  # noqa: E402
from bonanza.core.match import Match  # noqa: E402
from bonanza.core.rules import points  # noqa: E402
from bonanza.core.verify import verify_bytes  # noqa: E402


def make_log(seed: bytes, seats: int) -> bytes:
    m = Match.create("bonanza", [Seat(f"p{i}") for i in range(seats)], seed)
    while not m.state.over:
        m.roll()
        m.roll([True, True, False, False, False])
        s = m.state
        m.write(max(allowed(s), key=lambda b: points(s.ruleset, s.sheets[s.active], s.dice, b)))
    m.finish()
    return m.log.to_bytes()


def best_rate(fn, count: int, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return count / min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seats", type=int, default=4)
    args = ap.parse_args()

    logs = [make_log(i.to_bytes(4, "big"), args.seats) for i in range(args.games)]
    parsed = [parse_log(b) for b in logs]
    entries = sum(len(p.records) for p in parsed)

    def decode_only():
        for b in logs:
            list(msgpack.Unpacker(__import__("io").BytesIO(b[len(MAGIC):]), raw=False))

    def fold():
        for p in parsed:
            s = new_game(setup_from_header(p.header))
            for r in p.records:
                s = apply(s, r["move"])

    def fold_and_hash():
        for p in parsed:
            s = new_game(setup_from_header(p.header))
            for r in p.records:
                s = apply(s, r["move"])
                s.state_hash()

    def verify_all():
        for b in logs:
            assert verify_bytes(b).ok

    base = best_rate(decode_only, args.games)
    print(f"games: {args.games} x {args.seats} seats, {entries} entries, "
          f"{statistics.mean(map(len, logs)) / 1024:.1f} KiB per log")
    print(f"fold:            {best_rate(fold, entries):12,.0f} entries/s")
    print(f"fold + hash:     {best_rate(fold_and_hash, entries):12,.0f} entries/s")
    verified = best_rate(verify_all, args.games, repeats=3)
    print(f"verify:          {verified:12,.1f} logs/s   ({verified * entries / args.games:,.0f} entries/s)")
    print(f"baseline decode: {base:12,.1f} logs/s   (msgpack only)")
    print(f"ratio verify/decode: {verified / base:.3f} (checking costs {base / verified:.0f}x reading)")


if __name__ == "__main__":
    main()
