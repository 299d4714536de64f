"""Load benchmark of the relay: N tables x 4 clients on loopback, playing as fast as the
protocol allows (each seat rolls once and writes as soon as it is its turn).

Prints moves per second, p50 / p99 latency from intent to broadcast (measured at the
sender), the relay process's CPU time per move (user + system, all its threads: the
figure a busy shared machine disturbs least; "loop" is its event-loop thread alone) and
its memory, beside a bare asyncio broadcast relay measured in the
same run with the identical client harness.  The bare relay speaks the same subset of
the protocol (hello, create_table, join, start, roll, write -> move with a record and a
clock, end after a full game) with messages of the same shape and size, but checks
nothing, deals no real dice and keeps no log.

By default three rounds alternate the bare relay and the relay, and the goal is judged
on the medians (a shared machine moves the bare relay's own figure by 2x from one minute
to the next).  Each relay runs in its own process; the clients run in --workers separate processes
(default 2) that each drive a share of the tables, so the load generator never shares an
interpreter with the relay and is not itself the bottleneck.

    python bench/relay_load.py [--tables 200] [--seconds 12] [--warmup 3] [--think MS]
                               [--workers 2] [--only relay|bare] [--relay-src DIR]
                               [--rounds 3]

With --think 0 (the default) every table always has an intent in flight, so both relays
run saturated and latency is queueing: about tables / throughput.  --think adds a pause
before each intent to measure latency at a given load instead.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bonanza.core.rules import BOXES  # noqa: E402
from bonanza.core.wire import MAX_CLIENT_FRAME, MAX_RELAY_FRAME, FrameDecoder, encode_frame  # noqa: E402

GAME_MOVES = 2 * len(BOXES) * 4      # a bench game: every seat rolls once and writes, 13 rounds


# ---------------------------------------------------------------- the bare relay

class BareConn(asyncio.Protocol):
    """Frames in, frames out (cut and made by core.wire, as the relay's are): no checks, no
    dice, no log; the same messages as the relay."""
    groups: dict = {}

    def __init__(self):
        self.frames = FrameDecoder(MAX_CLIENT_FRAME)
        self.group = None
        self.seat = 0

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        for msg in self.frames.feed(data):
            self.handle(msg)

    def send(self, msg):
        self.transport.write(encode_frame(msg))

    def handle(self, msg):
        kind = msg["type"]
        g = self.group
        if kind in ("roll", "write"):
            g["seq"] += 1
            if kind == "roll":
                move = {"type": "roll", "seat": self.seat, "hold": [False] * 5,
                        "dice": [1, 2, 3, 4, 5], "auto": False}
                active = self.seat
            else:
                move = {"type": "write", "seat": self.seat, "box": msg["box"], "auto": False}
                active = (self.seat + 1) % 4
            frame = encode_frame({"type": "move", "record": {
                "kind": "move", "seq": g["seq"], "move": move, "state": bytes(16),
                "chain": bytes(32)}, "clock": {"seat": active, "turn": g["seq"] // 8,
                                               "turn_seconds": 90, "remaining": 90.0}})
            for c in g["members"]:
                c.transport.write(frame)
            if g["seq"] >= GAME_MOVES:
                frame = encode_frame({"type": "end", "end": {"seq": g["seq"]}, "standings": [],
                                    "log": bytes(4000), "file": "x"})
                for c in g["members"]:
                    c.transport.write(frame)
        elif kind == "hello":
            self.send({"type": "welcome", "version": 1})
        elif kind == "create_table":
            code = f"{len(self.groups):05d}"
            self.group = self.groups[code] = {"code": code, "members": [self], "seq": 0}
            self.seat = 0
            self.send({"type": "joined", "table": {"code": code}, "seat": 0, "token": "t"})
        elif kind == "join":
            g = self.group = self.groups[msg["code"]]
            self.seat = len(g["members"])
            g["members"].append(self)
            self.send({"type": "joined", "table": {"code": g["code"]}, "seat": self.seat, "token": "t"})
            for c in g["members"]:
                c.send({"type": "table", "table": {"code": g["code"]}, "seat": c.seat})
        elif kind == "start":
            for c in g["members"]:
                c.send({"type": "started", "table": {"code": g["code"]}, "seat": c.seat,
                        "header": {}, "clock": {"seat": 0, "turn": 0, "turn_seconds": 90,
                                                "remaining": 90.0}})
        elif kind == "ping":
            self.send({"type": "pong"})


async def bare_relay(host: str, port: int) -> None:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(BareConn, host, port)
    print(f"listening on {host}:{server.sockets[0].getsockname()[1]}", flush=True)
    await asyncio.Event().wait()


# ---------------------------------------------------------------- bench clients

class Stats:
    def __init__(self, think: float = 0.0):
        self.latencies: list[float] = []
        self.moves = 0
        self.errors: dict[str, int] = {}
        self.measuring = False
        self.games = 0
        self.think = think


class Seat(asyncio.Protocol):
    def __init__(self, group: "Group", idx: int):
        self.group, self.idx = group, idx
        self.frames = FrameDecoder(MAX_RELAY_FRAME)
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
        on_message = self.group.on_message
        for msg in self.frames.feed(data):
            on_message(self, msg)

    def send(self, msg):
        self.transport.write(encode_frame(msg))

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
    """Four seats at one table, playing a new game whenever one ends."""

    def __init__(self, stats: Stats, gid: int):
        self.stats, self.gid = stats, gid
        self.seats: list[Seat] = []
        self.joined = 0
        self.code = None

    async def connect(self, port: int):
        loop = asyncio.get_running_loop()
        for i in range(4):
            _, proto = await loop.create_connection(lambda i=i: Seat(self, i), "127.0.0.1", port)
            self.seats.append(proto)
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
            clock = msg.get("clock")
            if clock and clock["seat"] == s.seat:
                s.act()
        elif kind == "joined":
            s.seat = msg["seat"]
            if s.idx == 0:
                self.code = msg["table"]["code"]
                for other in self.seats[1:]:
                    other.send({"type": "join", "code": self.code, "name": f"P{other.idx}",
                                "contribution": os.urandom(32)})
            else:
                self.joined += 1
                if self.joined == 3:
                    self.seats[0].send({"type": "start"})
        elif kind == "started":
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


async def client_worker(port: int, first: int, count: int, t_start: float, t_stop: float,
                        think: float) -> dict:
    """Drive ``count`` tables; measure between the wall-clock times t_start and t_stop."""
    stats = Stats(think)
    groups = [Group(stats, first + i) for i in range(count)]
    for i in range(0, count, 50):
        await asyncio.gather(*(g.connect(port) for g in groups[i:i + 50]))
    await asyncio.sleep(max(0.0, t_start - time.time()))
    stats.measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(max(0.0, t_stop - time.time()))
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    for g in groups:
        for s in g.seats:
            s.transport.abort()
    return {"latencies": [round(x * 1000, 3) for x in stats.latencies], "moves": stats.moves,
            "elapsed": elapsed, "errors": stats.errors, "games": stats.games}


# ---------------------------------------------------------------- driver

def rss_kib(pid: int) -> tuple[int, int]:
    vals = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                vals[line.split(":")[0]] = int(line.split()[1])
    return vals.get("VmRSS", 0), vals.get("VmHWM", 0)


def cpu_seconds(pid: int, main_thread: bool = False) -> float:
    """The process's CPU time so far (user + system, every thread): what a move costs the
    relay, whatever else the machine is running (wall-clock figures are not).  With
    ``main_thread``, the event loop's thread alone: the share that bounds throughput (the
    group commit's worker thread runs beside it, on the other core)."""
    with open(f"/proc/{pid}/task/{pid}/stat" if main_thread else f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def package_of(src: Path, into: str) -> Path:
    """A folder in which ``import bonanza`` finds ``src``'s code: its folders linked as the
    package's subpackages (as setuptools maps them).  ``src`` alone on PYTHONPATH is not
    enough: it holds no ``bonanza`` folder, so the editable install's copy would be run."""
    pkg = Path(into) / "bonanza"
    pkg.mkdir()
    for d in ("core", "relay", "client", "lang", "assets"):
        (pkg / d).symlink_to(src / d, target_is_directory=True)
    return Path(into)


def start_relay(bare: bool, data: str, src: Path = ROOT) -> tuple[subprocess.Popen, int]:
    path = str(src) if src == ROOT else str(package_of(src, tempfile.mkdtemp(dir=data)))
    env = dict(os.environ, PYTHONPATH=path)
    if bare:
        cmd = [sys.executable, __file__, "--bare-server"]
    else:
        cmd = [sys.executable, "-m", "bonanza.relay", "--port", "0", "--data", data,
               "--bot-delay", "0", "--max-rate", "10000",
               "--max-lobbies-per-address", "100000",
               "--max-conns-per-address", "100000", "--discovery-port", "0"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, env=env, cwd=str(src))
    line = p.stdout.readline().decode()
    if not line.startswith("listening on"):
        p.kill()
        raise SystemExit(f"the relay did not start: {line!r}")
    return p, int(line.rsplit(":", 1)[1])


def measure(bare: bool, tables: int, seconds: float, warmup: float, think: float,
            workers: int, src: Path = ROOT) -> dict:
    with tempfile.TemporaryDirectory() as data:
        proc, port = start_relay(bare, data, src)
        try:
            t_start = time.time() + 1.0 + 0.01 * tables + warmup
            t_stop = t_start + seconds
            share = [tables // workers + (1 if i < tables % workers else 0) for i in range(workers)]
            procs, first = [], 0
            for n in share:
                cmd = [sys.executable, __file__, "--client-worker", str(port), str(first), str(n),
                       repr(t_start), repr(t_stop), repr(think)]
                procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, cwd=str(ROOT)))
                first += n
            time.sleep(max(0.0, t_start - time.time()))
            cpu0, loop0 = cpu_seconds(proc.pid), cpu_seconds(proc.pid, True)
            time.sleep(max(0.0, t_stop - 0.2 - time.time()))
            rss, hwm = rss_kib(proc.pid)
            cpu = cpu_seconds(proc.pid) - cpu0
            loop_cpu = cpu_seconds(proc.pid, True) - loop0
            results = [json.loads(p.communicate()[0]) for p in procs]
        finally:
            proc.terminate()
            proc.wait(10)
    lat = sorted(x for r in results for x in r["latencies"])
    elapsed = max(r["elapsed"] for r in results)
    errors: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v
    pick = (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))]) if lat else (lambda q: float("nan"))
    moves = sum(r["moves"] for r in results)
    # the CPU was read over the measured time less its last 0.2 s
    measured = moves * (elapsed - 0.2) / elapsed
    cpu_us = cpu / measured * 1e6 if moves else float("nan")
    loop_us = loop_cpu / measured * 1e6 if moves else float("nan")
    return {"moves_s": moves / elapsed, "cpu_us": cpu_us, "loop_us": loop_us, "p50": pick(0.50),
            "p99": pick(0.99), "max": lat[-1] if lat else float("nan"), "rss_mib": rss / 1024,
            "peak_mib": hwm / 1024, "errors": errors, "games": sum(r["games"] for r in results)}


def _line(name: str, r: dict) -> str:
    errs = f", errors {r['errors']}" if r["errors"] else ""
    return (f"{name:>5}: {r['moves_s']:8.0f} moves/s  p50 {r['p50']:6.2f} ms  p99 {r['p99']:6.2f} ms"
            f"  max {r['max']:6.1f} ms  CPU {r['cpu_us']:5.0f} us/move"
            f" (loop {r['loop_us']:3.0f})"
            f"  memory {r['rss_mib']:.1f} MiB (peak {r['peak_mib']:.1f}),"
            f" games finished {r['games']}{errs}")


def main_run(args) -> None:
    print(f"relay load: {args.tables} tables x 4 clients in {args.workers} client processes, "
          f"{args.seconds:g} s measured after {args.warmup:g} s warm-up, think time {args.think:g} ms, "
          f"loopback, {os.cpu_count()} cores, {args.rounds} round(s)")
    # Rounds alternate bare and relay, so each relay run has a bare run beside it in time:
    # on a shared machine the bare relay's own figure moves by 2x from minute to minute,
    # and one pair alone says more about the neighbours than about the relay.
    rounds: list[dict] = []
    for n in range(args.rounds):
        results = {}
        for name, bare in (("bare", True), ("relay", False)):
            if args.only and args.only != name:
                continue
            r = measure(bare, args.tables, args.seconds, args.warmup, args.think / 1000, args.workers,
                        Path(args.relay_src).resolve() if args.relay_src and not bare else ROOT)
            results[name] = r
            print(("" if args.rounds == 1 else f"[{n + 1}] ") + _line(name, r), flush=True)
        rounds.append(results)
    pairs = [r for r in rounds if len(r) == 2]
    if args.rounds == 1 and pairs:
        b, v = pairs[0]["bare"], pairs[0]["relay"]
        print(f"ratio relay/bare: throughput {v['moves_s'] / b['moves_s']:.2f}x, "
              f"p50 {v['p50'] / b['p50']:.1f}x, p99 {v['p99'] / b['p99']:.1f}x, "
              f"CPU per move {v['cpu_us'] / b['cpu_us']:.1f}x, "
              f"memory {v['rss_mib'] / b['rss_mib']:.1f}x")
    if not any("relay" in r for r in rounds):
        return
    p99s = [r["relay"]["p99"] for r in rounds if "relay" in r]
    ratios = [r["relay"]["moves_s"] / r["bare"]["moves_s"] for r in pairs]
    if args.rounds > 1:
        if ratios:
            print(f"relay/bare throughput by round: {', '.join(f'{x:.2f}x' for x in ratios)}; "
                  f"median {statistics.median(ratios):.2f}x")
        print(f"relay p99 by round: {', '.join(f'{x:.1f}' for x in p99s)} ms; "
              f"median {statistics.median(p99s):.1f} ms")
    # issue 23's goal: both, measured beside each other (the medians of the rounds)
    met = statistics.median(p99s) <= 50 and (not ratios or statistics.median(ratios) >= 0.5)
    both = sum(1 for r in pairs
               if r["relay"]["p99"] <= 50 and r["relay"]["moves_s"] >= 0.5 * r["bare"]["moves_s"])
    print(f"goal p99 <= 50 ms at {args.tables} tables and throughput >= 0.5x bare"
          f"{' (medians of the rounds)' if args.rounds > 1 else ''}: {'met' if met else 'NOT met'}"
          + (f" ({both} of {len(pairs)} rounds met both)" if pairs else ""))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--client-worker":
        port, first, count = (int(x) for x in sys.argv[2:5])
        t_start, t_stop, think = (float(x) for x in sys.argv[5:8])
        print(json.dumps(asyncio.run(client_worker(port, first, count, t_start, t_stop, think))))
        return
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seconds", type=float, default=12.0)
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--think", type=float, default=0.0,
                   help="milliseconds a seat waits before each intent (0: as fast as possible)")
    p.add_argument("--workers", type=int, default=2, help="client processes (default 2)")
    p.add_argument("--only", choices=("relay", "bare"), help="measure one relay only")
    p.add_argument("--rounds", type=int, default=3,
                   help="bare/relay pairs, alternated (default 3: medians are reported)")
    p.add_argument("--relay-src", help="run the relay from another checkout (before/after)")
    p.add_argument("--bare-server", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.bare_server:
        asyncio.run(bare_relay("127.0.0.1", 0))
        return
    main_run(args)


if __name__ == "__main__":
    main()
