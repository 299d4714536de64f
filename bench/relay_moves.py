"""The relay's event-loop work per move, in process: real ``Relay``, ``Conn`` and ``Table``
objects driven through the same path as a socket's bytes (``Conn.data_received`` ->
dispatch -> handler -> table -> match -> log -> batch signature -> broadcast -> flush),
with transports that take the bytes and send nothing.

The in-process half of ``bench/relay_load.py``: no sockets, no client processes.  Every
loop pass, one intent from each of --tables tables arrives (as the load benchmark's
saturated tables send them), then the loop runs its flush.  It prints the CPU time per
move (``time.process_time``, best of --repeats; on a shared machine still noisy) and,
as a baseline measured in the same run, core's bare fold of the same moves
(``apply_legal`` and a state hash per move, what any follower of a table pays) with the
ratio of the two.  ``--opcodes`` counts instead the Python bytecodes the relay runs per
move, by file: the same on any machine, whatever else runs on it (the C work, hashing,
signing and msgpack, is not in it).  The running games' journals are left out unless
--journal is given (their cost is the disk's, measured by relay_load.py).

    python bench/relay_moves.py [--tables 200] [--moves 40000] [--repeats 3] [--journal]
                                [--profile N | --opcodes]
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import sys
import tempfile
import time
from collections import Counter
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bonanza.core.game import allowed, apply_legal  # noqa: E402
from bonanza.core.wire import encode_frame  # noqa: E402
from bonanza.relay.limits import Limits  # noqa: E402
from bonanza.relay.server import Relay  # noqa: E402


class Sink:
    """A transport that takes every byte and sends none (counted, so nothing is free)."""

    def __init__(self) -> None:
        self.sent = 0
        self.closing = False

    def write(self, data: bytes) -> None:
        self.sent += len(data)

    def get_write_buffer_size(self) -> int:
        return 0

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass

    def get_extra_info(self, name: str, default: object = None) -> object:
        return ("127.0.0.1", 40000) if name == "peername" else default

    def is_closing(self) -> bool:
        return self.closing

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self.closing = True

    def close(self) -> None:
        self.closing = True

    def abort(self) -> None:
        self.closing = True


def feed(conn, msg: dict) -> None:
    conn.data_received(encode_frame(msg))


async def settle(tables: list) -> None:
    """Until every game has started (a journaled one once its journal is on disk)."""
    for _ in range(1000):
        if all(conns[0].slot.table.match is not None and not conns[0].slot.table.starting
               for conns in tables):
            return
        await asyncio.sleep(0.01)
    raise SystemExit("the games did not start")


async def open_tables(relay: Relay, n: int) -> list[list]:
    tables = []
    for _ in range(n):
        conns = []
        for _ in range(4):
            c = relay_conn(relay)
            feed(c, {"type": "hello", "version": 1, "client": "bench"})
            conns.append(c)
        feed(conns[0], {"type": "create_table", "name": "P0", "seats": 4, "turn_seconds": 90,
                        "ruleset": "yacht", "contribution": os.urandom(32)})
        code = conns[0].slot.table.code
        for i, c in enumerate(conns[1:], 1):
            feed(c, {"type": "join", "code": code, "name": f"P{i}",
                     "contribution": os.urandom(32)})
        feed(conns[0], {"type": "start"})
        tables.append(conns)
    await settle(tables)
    return tables


def relay_conn(relay: Relay):
    from bonanza.relay.connection import Conn
    c = Conn(relay)
    c.connection_made(Sink())
    return c


def intent(conns: list) -> tuple[object, dict] | None:
    """The active seat's next intent: roll once, then write its first allowed box."""
    table = conns[0].slot.table
    st = table.match.state
    if st.over:
        return None
    conn = next(c for c in conns if c.slot.index == st.active)
    if st.dice is None:
        return conn, {"type": "roll", "seq": st.seq}
    return conn, {"type": "write", "seq": st.seq, "box": allowed(st)[0]}


async def drive(relay: Relay, tables: int, moves: int,
                tracer: Any = None) -> tuple[float, int, list]:
    """CPU seconds the relay spent on ``moves`` moves, the moves made, and every game's
    moves.  Only the relay's part of each pass is timed (and traced, with
    ``tracer``): the bench's clients (the next intent of each table, its frame, a new game
    for a finished one) are not."""
    games = await open_tables(relay, tables)
    done_moves = []
    made = 0
    cpu = 0.0
    clock = time.process_time
    while made < moves:
        frames = []
        for i, conns in enumerate(games):
            nxt = intent(conns)
            if nxt is None:        # the game is over: its moves for the baseline, a new one
                match = conns[0].slot.table.match
                done_moves.append((match.setup, [r["move"] for r in match.log.records]))
                games[i] = conns = (await open_tables(relay, 1))[0]
                nxt = intent(conns)
            frames.append((nxt[0], encode_frame(nxt[1])))
        t0 = clock()
        sys.settrace(tracer)
        for conn, frame in frames:
            conn.data_received(frame)
        await asyncio.sleep(0)     # the pass ends: the batch is signed, the frames flushed
        sys.settrace(None)
        cpu += clock() - t0
        made += len(frames)
    for conns in games:            # the games still running count in the baseline too
        match = conns[0].slot.table.match
        done_moves.append((match.setup, [r["move"] for r in match.log.records]))
    if made != sum(len(moves) for _, moves in done_moves):
        raise SystemExit("the relay refused some of the moves")
    return cpu, made, done_moves


def baseline(games: list) -> tuple[float, int]:
    """core's bare fold of the same moves, with a state hash per move."""
    from bonanza.core.game import new_game
    n = 0
    t0 = time.process_time()
    for setup, moves in games:
        st = new_game(setup)
        for m in moves:
            st = apply_legal(st, m)
            st.state_hash()
            n += 1
    return time.process_time() - t0, n


class Opcodes:
    """A trace function counting the bytecodes run, by file (the drive loop's own left out)."""

    def __init__(self) -> None:
        self.by_file: Counter[str] = Counter()
        self.skip = drive.__code__

    def __call__(self, frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code is self.skip:
            return None
        frame.f_trace_opcodes = True
        if event == "opcode":
            self.by_file[os.path.basename(frame.f_code.co_filename)] += 1
        return self


async def count_opcodes(tables: int, moves: int, journal: bool) -> None:
    with tempfile.TemporaryDirectory() as d:
        relay = bench_relay(d, journal)
        ops = Opcodes()
        _, made, _ = await drive(relay, tables, moves, ops)
        await relay.close()
    total = sum(ops.by_file.values())
    print(f"relay moves in process: {tables} tables, {made} moves, journal "
          f"{'on' if journal else 'off'}")
    print(f"  relay   {total / made:6.0f} Python bytecodes/move")
    print("    " + ", ".join(f"{f} {n / made:.0f}" for f, n in ops.by_file.most_common(12)))


def bench_relay(folder: str, journal: bool) -> Relay:
    limits = Limits(rate=1e9, burst=1e9, conns_per_address=10 ** 6,
                    lobbies_per_address=10 ** 6, lobbies=10 ** 6)
    relay = Relay(folder, limits=limits)
    if not journal:
        relay.journals.opened = lambda table: None   # type: ignore[method-assign]
    return relay


async def one_run(tables: int, moves: int, journal: bool, profile: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as d:
        relay = bench_relay(d, journal)
        if profile:
            prof = cProfile.Profile()
            prof.enable()
        cpu, made, games = await drive(relay, tables, moves)
        if profile:
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(profile)
        base_cpu, base_n = baseline(games)
        await relay.close()
    return cpu / made * 1e6, base_cpu / max(1, base_n) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--moves", type=int, default=40000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--journal", action="store_true", help="journal the games too")
    ap.add_argument("--profile", type=int, default=0, help="cProfile one run, top N")
    ap.add_argument("--opcodes", action="store_true",
                    help="count the Python bytecodes per move (of at most 4,000 moves)")
    args = ap.parse_args()
    if args.opcodes:
        asyncio.run(count_opcodes(args.tables, min(args.moves, 4000), args.journal))
        return
    if args.profile:
        args.repeats = 1
    runs = [asyncio.run(one_run(args.tables, args.moves, args.journal, args.profile))
            for _ in range(args.repeats)]
    relay_us = min(r[0] for r in runs)
    base_us = min(r[1] for r in runs)
    print(f"relay moves in process: {args.tables} tables, {args.moves} moves, best of "
          f"{args.repeats}, journal {'on' if args.journal else 'off'}")
    print(f"  relay   {relay_us:6.1f} us CPU/move  (runs: "
          f"{', '.join(f'{r[0]:.1f}' for r in runs)})")
    print(f"  core fold + state hash {base_us:5.1f} us/move (baseline, same moves)")
    print(f"  ratio relay / baseline {relay_us / base_us:5.1f}x")


if __name__ == "__main__":
    main()
