"""Key-to-move latency and lossless input: a 39-key route sent at 30 ms per key, in a local
run and in a ranked run on a relay over loopback (issue 25).

    python bench/input.py [--gaps-ms 30,10,0] [--runs 1]

The route is what a speedrunner's fingers do on the Instant setting with hints off, 13
times: ``r`` (roll), Enter (choose the box under the cursor: asks "write it?" since two
rolls are left), Enter (yes: write).  Each turn is then exactly one roll and one write, 26
moves from 39 keys.  A key is *applied* when it did what it did locally: its roll, its
question, its write.  A move is *misapplied* when it lands in the wrong turn (a second roll
in a turn, a turn without its write) — what a key read against an unanswered move did.
Latency is from a key's event to the frame that first shows its move (the ranked one
includes the round trip to the relay).

The window runs as it does for a player (real time, frames at 60 Hz, the dummy video
driver); the relay is ``bonanza-relay`` in its own process on 127.0.0.1.  At ``--gaps-ms 0``
the keys come one a frame and the frames run back to back, never sleeping (a window whose
frames overrun their 60 Hz): the harshest case for the connection's thread, which has to win
the GIL from the frame loop to send a move and read its answer (``ANSWER_WAIT`` in
client/relay_client.py).  ``frames`` is how many frames the route took, from its first key to
its last move shown; *shown in their key's frame* counts the moves the frame that read their
key already showed (a local run's 26; on a relay, a move whose answer was read that frame).
Goal: 39/39 applied, 0 misapplied, in both, at 30 ms per key, at 10 ms (a route faster
than the relay's round trip, where every key meets an unanswered move) and at 0.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TURNS = 13
FRAME_S = 1 / 60


def route() -> list[str]:
    """The 39 keys: per turn r, Enter, Enter."""
    return ["r", "enter", "enter"] * TURNS


def _post(k: str) -> None:
    import pygame
    code = pygame.K_r if k == "r" else pygame.K_RETURN
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0))


def play_route(app, game, gap: float = 0.03, timeout: float = 60.0) -> dict:
    """Send the route to ``game`` (the scene on top of ``app``) one key every ``gap``
    seconds of real time, stepping frames at 60 Hz, until every move arrived or
    ``timeout``; returns what happened (``summary`` makes the figures)."""
    keys = route()
    sent: list[float] = []
    seen: list[tuple[dict, float]] = []      # each move and when a frame first showed it
    key_frames: list[int] = []               # the frame each key was read in
    move_frames: list[int] = []              # the frame that first showed each move
    frames = 0
    start = time.monotonic()
    deadline = start + timeout
    next_key = start
    records = _records(game)
    done = len(records)
    while time.monotonic() < deadline:
        now = time.monotonic()
        if len(sent) < len(keys) and now >= next_key:
            _post(keys[len(sent)])
            sent.append(now)
            key_frames.append(frames + 1)
            next_key += gap
        app.step(FRAME_S)
        frames += 1
        at = time.monotonic()
        records = _records(game)
        for rec in records[done:]:
            seen.append((rec["move"], at))
            move_frames.append(frames)
        done = len(records)
        st = game.state
        if st is not None and st.over or (len(sent) == len(keys) and at - sent[-1] > 3.0):
            break
        wait = min(next_key, at + FRAME_S) - time.monotonic()
        if wait > 0:
            time.sleep(wait)
    return {"keys": keys, "sent": sent, "seen": seen, "key_frames": key_frames,
            "move_frames": move_frames}


def _records(game) -> list:
    conn = getattr(game, "conn", None)
    if conn is not None:
        return list(conn.records)
    return game.match.log.records


def summary(run: dict) -> dict:
    """Keys sent, keys applied, moves made, moves misapplied and p50/p99 latency (ms)."""
    sent, seen = run["sent"], run["seen"]
    moves = [m for m, _ in seen]
    turns: list[list[str]] = []
    for m in moves:
        if m["type"] == "roll" and (not turns or turns[-1][-1] == "write"):
            turns.append([])
        if not turns:
            turns.append([])
        turns[-1].append(m["type"])
    good = sum(1 for t in turns if t == ["roll", "write"])
    misapplied = sum(len(t) for t in turns if t != ["roll", "write"])
    latencies = []
    same_frame = 0
    key_frames, move_frames = run["key_frames"], run["move_frames"]
    for i, (m, at) in enumerate(seen):
        # move 2t is turn t's roll (key 3t), move 2t+1 its write (key 3t+2)
        k = 3 * (i // 2) + (0 if i % 2 == 0 else 2)
        if k < len(sent) and turns and misapplied == 0:
            latencies.append((at - sent[k]) * 1000)
            same_frame += move_frames[i] == key_frames[k]
    q = statistics.quantiles(latencies, n=100, method="inclusive") if len(latencies) > 1 else [0.0] * 99
    return {"keys_sent": len(sent), "keys_applied": 3 * good, "moves": len(moves),
            "misapplied": misapplied, "same_frame": same_frame,
            "frames": move_frames[-1] if move_frames else 0,
            "p50_ms": round(statistics.median(latencies), 1) if latencies else None,
            "p99_ms": round(q[98], 1) if latencies else None}


def local_run(app, gap: float, seed: str = "input bench") -> dict:
    from bonanza.client.scenes.game import SoloGameScene
    game = SoloGameScene(app, seed_text=seed)
    app.push(game)
    app.step(FRAME_S)
    return play_route(app, game, gap)


def ranked_run(app, port: int, gap: float) -> dict:
    from bonanza.client.actions import Action
    app.open("ranked", host="127.0.0.1", port=port)
    ranked = app.scene
    app.dispatch(Action("press", "connect"))
    _until(app, lambda: ranked.info is not None)
    app.dispatch(Action("press", "play"))
    _until(app, lambda: type(app.scene).__name__ == "RankedGameScene")
    game = app.scene
    _until(app, lambda: game.state is not None and game.my_turn())
    return play_route(app, game, gap)


def _until(app, cond, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError("the relay did not answer")
        app.step(FRAME_S)
        time.sleep(0.005)


def speedrunner(app) -> None:
    """The settings the route is for: Instant, hints off, a name."""
    app.profile.name = "Runner"
    app.profile.settings["animation"] = "instant"
    app.profile.settings["show_hints"] = False


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gaps-ms", default="30,10,0", help="ms between keys, one run each")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args(argv)
    from bonanza.client.app import App
    from bonanza.client.hosting import HostedRelay
    gaps = [float(g) / 1000 for g in args.gaps_ms.split(",")]
    relay = HostedRelay(host="127.0.0.1")
    ok = True
    try:
        if not relay.ready.wait(20) or not relay.port:
            print("the relay did not start", relay.error)
            return 1
        for n, gap, kind in ((n, g, k) for n in range(args.runs) for g in gaps
                             for k in ("local", "ranked")):
            with tempfile.TemporaryDirectory() as d:
                app = App((960, 540), data_dir=d, advisor=False, sound=False)
                try:
                    speedrunner(app)
                    run = local_run(app, gap, f"input bench {n}") if kind == "local" \
                        else ranked_run(app, relay.port, gap)
                    s = summary(run)
                finally:
                    app.close()
            ok = ok and s["keys_applied"] == 39 and s["misapplied"] == 0
            print(f"{kind:6s} {gap * 1000:.0f} ms/key run {n + 1}: keys sent {s['keys_sent']}, "
                  f"applied {s['keys_applied']}, "
                  f"moves {s['moves']}, misapplied {s['misapplied']}, "
                  f"shown in their key's frame {s['same_frame']}, frames {s['frames']}, "
                  f"key-to-move p50 {s['p50_ms']} ms, p99 {s['p99_ms']} ms")
    finally:
        relay.stop()
    print("goal (39/39 applied, 0 misapplied):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
