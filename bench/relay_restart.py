"""Restart benchmark of the relay's journals: N two-seat tables mid-game, the relay killed
with SIGKILL and started again on the same data folder.

Prints the time from the restart (the new process started) to the relay listening (every
journal read back and folded through core), and to every seat of every table resumed by
its client, beside the baseline measured in the same run: the same relay starting on an
empty data folder (import and start-up, no journal); and the journal's disk cost: bytes
per game so far, per move, and a whole game's estimate beside its finished log.

    python bench/relay_restart.py [--tables 200] [--moves 20]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bonanza.client.relay_client import RelayClient  # noqa: E402
from bonanza.core.rules import BOXES  # noqa: E402
from tests.relay_harness import play_to_end, play_turn_step  # noqa: E402

GAME_MOVES = 2 * len(BOXES) * 2      # two seats rolling once and writing, 13 rounds


def start(data: str) -> tuple[subprocess.Popen, int, float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "bonanza.relay", "--port", "0", "--data", data,
                          "--bot-delay", "0", "--max-rate", "10000",
                          "--max-lobbies-per-address", "100000",
                          "--max-conns-per-address", "100000", "--discovery-port", "0"],
                         stdout=subprocess.PIPE, env=env)
    assert p.stdout is not None
    line = p.stdout.readline().decode()
    if not line.startswith("listening on"):
        p.kill()
        raise SystemExit(f"the relay did not start: {line!r}")
    return p, int(line.rsplit(":", 1)[1]), time.perf_counter() - t0


async def table(port: int, moves: int) -> list[RelayClient]:
    a = await RelayClient.open("127.0.0.1", port)
    b = await RelayClient.open("127.0.0.1", port)
    joined = await a.create_table("Ana", 2, 90)
    await b.join(joined["table"]["code"], "Ben")
    await a.start()
    for c in (a, b):
        await c.wait_until(lambda c=c: c.header is not None)
    for _ in range(moves):
        mover = a if a.my_turn else b
        await play_turn_step(mover)
        for c in (a, b):
            await c.wait_until(lambda c=c: c.seq == mover.seq)
    return [a, b]


async def run(args) -> None:
    with tempfile.TemporaryDirectory() as empty:      # the baseline: nothing to read back
        proc, _, bare = start(empty)
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
    with tempfile.TemporaryDirectory() as data:
        proc, port, _ = start(data)
        tables = []
        for i in range(0, args.tables, 25):
            tables += await asyncio.gather(*(table(port, args.moves)
                                             for _ in range(min(25, args.tables - i))))
        # every game in one shared journal (its segments) and its secrets beside it
        size = sum(f.stat().st_size for f in (Path(data) / "journal").glob("*.wal"))
        secret_size = sum(f.stat().st_size for f in (Path(data) / "journal").glob("*.secrets"))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        t0 = time.perf_counter()
        proc, port, listening = await asyncio.to_thread(start, data)
        try:
            await asyncio.gather(*(c.reconnect("127.0.0.1", port)
                                   for pair in tables for c in pair))
            resumed = time.perf_counter() - t0
            ok = sum(1 for pair in tables for c in pair if c.seq == args.moves)
            # one game played to its end, for the finished log's size beside the journal's
            await play_to_end(list(tables[0]), 120)
            logs = list((Path(data) / "logs").glob("*.bonanza"))
            log_size = logs[0].stat().st_size if logs else 0
            for pair in tables:
                for c in pair:
                    await c.close()
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(10)
    per_game = size / args.tables
    per_move = per_game / max(1, args.moves)
    print(f"relay restart: {args.tables} two-seat tables, {args.moves} moves each, "
          f"killed with SIGKILL, {os.cpu_count()} cores")
    print(f"  restart -> listening (journals read and folded): {listening * 1000:7.0f} ms   "
          f"(empty folder: {bare * 1000:.0f} ms, ratio {listening / bare:.1f}x)")
    print(f"  restart -> every seat resumed ({ok}/{2 * args.tables} at their seq): "
          f"{resumed * 1000:7.0f} ms   goal <= 2000 ms: {'met' if resumed <= 2 else 'NOT met'}")
    print(f"  disk: {per_game:.0f} B of journal per game after {args.moves} moves "
          f"(~{per_move:.0f} B per move), {secret_size / args.tables:.0f} B of secrets; "
          f"a whole game ~{per_game + per_move * (GAME_MOVES - args.moves):.0f} B "
          f"while it runs (its segment goes once no running game needs it); "
          f"its finished log {log_size} B")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--moves", type=int, default=20)
    args = p.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
