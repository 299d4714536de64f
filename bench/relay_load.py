"""Load benchmark of the relay: N tables x 4 clients on loopback, playing as fast as the
protocol allows (each seat rolls once and writes as soon as it is its turn).

Prints moves per second, p50 / p99 latency from intent to broadcast (measured at the
sender), and the relay's memory, beside a bare asyncio broadcast relay with no
validation measured in the same run.  The relays run in their own processes; the
clients share this one.

    python bench/relay_load.py [--tables 200] [--seconds 12] [--warmup 3] [--think MS]

With --think 0 (the default) every table always has an intent in flight, so both relays
run saturated and latency is queueing: about tables / throughput.  --think adds a pause
before each intent to measure latency at a given load instead.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.rules import BOXES  # noqa: E402
from relay.framing import LENGTH, pack_frame  # noqa: E402


# ---------------------------------------------------------------- the bare relay

async def bare_relay(host: str, port: int) -> None:
    """Frames in, frames out: join a group by code, every intent is numbered and
    broadcast to the group.  No hello, no checks, no dice, no log."""
    groups: dict = {}

    async def serve(reader, writer):
        group = None
        try:
            while True:
                head = await reader.readexactly(4)
                (n,) = LENGTH.unpack(head)
                msg = msgpack.unpackb(await reader.readexactly(n), raw=False)
                if msg.get("type") == "join":
                    group = groups.setdefault(msg["code"], {"members": [], "seq": 0})
                    group["members"].append(writer)
                    writer.write(pack_frame({"type": "joined", "seat": len(group["members"]) - 1}))
                    if len(group["members"]) == 4:
                        frame = pack_frame({"type": "started"})
                        for w in group["members"]:
                            w.write(frame)
                    continue
                seat = group["members"].index(writer)
                group["seq"] += 1
                frame = pack_frame({"type": "move", "record": {
                    "seq": group["seq"], "move": dict(msg, seat=seat)}})
                for w in group["members"]:
                    w.write(frame)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass

    server = await asyncio.start_server(serve, host, port)
    print(f"listening on {host}:{server.sockets[0].getsockname()[1]}", flush=True)
    await asyncio.Event().wait()


# ---------------------------------------------------------------- bench clients

class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.measuring = False
        self.games = 0
        self.think = 0.0


class Seat(asyncio.Protocol):
    def __init__(self, group: "Group", idx: int):
        self.group, self.idx = group, idx
        self.buf = bytearray()
        self.transport = None
        self.reset()

    def reset(self):
        self.seat = None
        self.seq = 0
        self.rolled = False
        self.free = list(BOXES)
        self.sent_seq = None
        self.t_sent = 0.0

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        buf = self.buf
        buf += data
        while len(buf) >= 4:
            (n,) = LENGTH.unpack_from(buf)
            if len(buf) < 4 + n:
                break
            msg = msgpack.unpackb(bytes(buf[4:4 + n]), raw=False)
            del buf[:4 + n]
            self.group.on_message(self, msg)

    def send(self, msg):
        self.transport.write(pack_frame(msg))

    def act(self):
        think = self.group.stats.think
        if think > 0:
            asyncio.get_running_loop().call_later(think, self._act)
        else:
            self._act()

    def _act(self):
        if not self.rolled:
            msg = {"type": "roll", "seq": self.seq}
        else:
            if not self.free:
                self.free = list(BOXES)
            msg = {"type": "write", "seq": self.seq, "box": self.free.pop()}
        self.sent_seq = self.seq
        self.t_sent = time.perf_counter()
        self.send(msg)


class Group:
    """Four seats at one table, replaying a new game whenever one ends."""

    def __init__(self, stats: Stats, bare: bool, gid: int):
        self.stats, self.bare, self.gid = stats, bare, gid
        self.seats: list[Seat] = []
        self.joined = 0
        self.code = None

    async def connect(self, port: int):
        loop = asyncio.get_running_loop()
        for i in range(4):
            _, proto = await loop.create_connection(lambda i=i: Seat(self, i), "127.0.0.1", port)
            self.seats.append(proto)
        if self.bare:
            for s in self.seats:
                s.send({"type": "join", "code": self.gid})
        else:
            for s in self.seats:
                s.send({"type": "hello", "version": 1, "client": "bench"})
            self.new_game()

    def new_game(self):
        self.joined = 0
        self.seats[0].send({"type": "create_table", "name": "P0", "seats": 4, "turn_seconds": 90,
                            "ruleset": "yacht", "contribution": os.urandom(32)})

    def on_message(self, s: Seat, msg: dict):
        kind = msg["type"]
        if kind == "move":
            rec = msg["record"]
            move = rec["move"]
            s.seq = rec["seq"]
            mine = move["seat"] == s.seat
            if mine and s.sent_seq == rec["seq"] - 1:
                s.sent_seq = None
                if self.stats.measuring:
                    self.stats.latencies.append(time.perf_counter() - s.t_sent)
                    self.stats.moves += 1
            s.rolled = mine and move["type"] == "roll"
            if self.bare:
                active = (move["seat"] + 1) % 4 if move["type"] == "write" else move["seat"]
            else:
                clock = msg.get("clock")
                active = clock["seat"] if clock else None
            if active == s.seat:
                s.act()
        elif kind == "joined":
            s.seat = msg["seat"]
            if not self.bare and s.idx == 0:
                self.code = msg["table"]["code"]
                for other in self.seats[1:]:
                    other.send({"type": "join", "code": self.code, "name": f"P{other.idx}",
                                "contribution": os.urandom(32)})
            elif not self.bare:
                self.joined += 1
                if self.joined == 3:
                    self.seats[0].send({"type": "start"})
        elif kind == "started":
            if self.bare:
                s.seq = 0
                if s.seat == 0:
                    s.act()
            else:
                s.reset()
                s.seat = msg["seat"]
                clock = msg.get("clock")
                if clock and clock["seat"] == s.seat:
                    s.act()
        elif kind == "end":
            if s.idx == 0:
                self.stats.games += 1
                self.new_game()
        elif kind == "error":
            self.stats.errors[msg["code"]] = self.stats.errors.get(msg["code"], 0) + 1
        elif kind == "ping":
            s.send({"type": "pong"})


def rss_kib(pid: int) -> tuple[int, int]:
    vals = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                vals[line.split(":")[0]] = int(line.split()[1])
    return vals.get("VmRSS", 0), vals.get("VmHWM", 0)


def start_relay(bare: bool, data: str) -> tuple[subprocess.Popen, int]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if bare:
        cmd = [sys.executable, __file__, "--bare-server"]
    else:
        cmd = [sys.executable, "-m", "relay.server", "--port", "0", "--data", data,
               "--bot-delay", "0", "--max-rate", "10000"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, env=env, cwd=str(ROOT))
    line = p.stdout.readline().decode()
    if not line.startswith("listening on"):
        p.kill()
        raise SystemExit(f"the relay did not start: {line!r}")
    return p, int(line.rsplit(":", 1)[1])


async def measure(bare: bool, tables: int, seconds: float, warmup: float, think: float = 0.0) -> dict:
    with tempfile.TemporaryDirectory() as data:
        proc, port = start_relay(bare, data)
        try:
            stats = Stats()
            stats.think = think
            groups = [Group(stats, bare, i) for i in range(tables)]
            for i in range(0, tables, 50):
                await asyncio.gather(*(g.connect(port) for g in groups[i:i + 50]))
            await asyncio.sleep(warmup)
            stats.measuring = True
            t0 = time.perf_counter()
            await asyncio.sleep(seconds)
            stats.measuring = False
            elapsed = time.perf_counter() - t0
            rss, hwm = rss_kib(proc.pid)
            for g in groups:
                for s in g.seats:
                    s.transport.abort()
        finally:
            proc.terminate()
            proc.wait(10)
    lat = sorted(stats.latencies)
    pick = (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000) if lat else (lambda q: float("nan"))
    return {"moves_s": stats.moves / elapsed, "p50": pick(0.50), "p99": pick(0.99),
            "max": lat[-1] * 1000 if lat else float("nan"), "rss_mib": rss / 1024,
            "peak_mib": hwm / 1024, "errors": stats.errors, "games": stats.games}


async def main_async(args) -> None:
    print(f"relay load: {args.tables} tables x 4 clients, {args.seconds:g} s measured after "
          f"{args.warmup:g} s warm-up, think time {args.think:g} ms, loopback, {os.cpu_count()} cores")
    results = {}
    for name, bare in (("bare", True), ("relay", False)):
        r = await measure(bare, args.tables, args.seconds, args.warmup, args.think / 1000)
        results[name] = r
        extra = f", games finished {r['games']}" if not bare else ""
        errs = f", errors {r['errors']}" if r["errors"] else ""
        print(f"{name:>5}: {r['moves_s']:8.0f} moves/s  p50 {r['p50']:6.2f} ms  p99 {r['p99']:6.2f} ms"
              f"  max {r['max']:6.1f} ms  memory {r['rss_mib']:.1f} MiB (peak {r['peak_mib']:.1f}){extra}{errs}",
              flush=True)
    b, v = results["bare"], results["relay"]
    print(f"ratio relay/bare: throughput {v['moves_s'] / b['moves_s']:.2f}x, "
          f"p50 {v['p50'] / b['p50']:.1f}x, p99 {v['p99'] / b['p99']:.1f}x, "
          f"memory {v['rss_mib'] / b['rss_mib']:.1f}x")
    goal = "met" if v["p99"] <= 50 else "NOT met"
    print(f"goal p99 <= 50 ms at {args.tables} tables: {goal}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seconds", type=float, default=12.0)
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--think", type=float, default=0.0,
                   help="milliseconds a seat waits before each intent (0: as fast as possible)")
    p.add_argument("--bare-server", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.bare_server:
        asyncio.run(bare_relay("127.0.0.1", 0))
        return
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
