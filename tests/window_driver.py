"""One game window in a process of its own, played as a person plays it (the pilot's posted
keys, clicks and typed text), for tests that need two real windows at once
(tests/test_xvfb_daily_table.py).  Never shipped.

    python -m tests.window_driver ROLE PORT NAME ARTIFACT_PREFIX

ROLE is ``host`` (opens a daily table on the relay at 127.0.0.1:PORT and starts it once a
second player sits) or ``join`` (types the relay's port and the table's code into the Join
form).  The window talks to the test on its standard streams, one JSON map a line: it says
``{"event": "code", "code": ...}`` (the host), ``{"event": "reveal"}``, ``{"event": "results",
...}`` and ``{"event": "verified", ...}``; it reads ``{"code": ...}`` (the joiner) and
``{"closed": true}`` once the test has closed the day.  Every wait has a limit; a failure
prints ``{"event": "failed", "why": ...}`` and exits 1."""
from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path

import pygame

from tests.pilot import click, key, step_until, type_text, window

DAY = "2024-03-04"     # tests.test_client_daily_relay.DAY1, the relay's date


def say(**msg) -> None:
    print(json.dumps(msg), flush=True)


def hear() -> dict:
    line = sys.stdin.readline()
    if not line:
        raise SystemExit("the test closed its end")
    return json.loads(line)


def scene_name(app) -> str:
    return type(app.scene).__name__


def host(app, port: int, name: str, shots: str) -> None:
    from bonanza.client.relay_client import RelayConnection
    from bonanza.client.scenes.lobby import LobbyScene
    conn = RelayConnection("127.0.0.1", port, signer=app.profile.seat_signer())
    # what Host → "Daily challenge" asks a relay for (HostSetupScene.go), on the test's relay
    app.push(LobbyScene(app, conn, "127.0.0.1", port, request={
        "type": "create_table", "name": name, "seats": 3, "turn_seconds": 60,
        "bots": "medium", "ruleset": "yacht", "daily": True}))
    lobby = app.scene
    step_until(app, lambda: lobby.table is not None, what="the table")
    say(event="code", code=lobby.table["code"])
    step_until(app, lambda: len(lobby.table["players"]) == 2, 60, what="the second player")
    app.step()
    app.screenshot(f"{shots}_lobby.png")
    click(app, "start")


def join(app, port: int, name: str, shots: str) -> None:
    code = hear()["code"]
    app.open("join")
    form = app.scene
    click(app, "port")
    for _ in range(6):
        key(app, pygame.K_BACKSPACE)
    type_text(app, str(port))
    click(app, "code")
    type_text(app, code)
    app.step()
    app.screenshot(f"{shots}_join.png")
    click(app, "join")
    assert app.scene is not form, "Join did nothing"


def play(app, shots: str) -> None:
    """Every round: roll once, write the box under the cursor; the first reveal's replay is
    watched (and photographed) at the "fast" pace, the rest land at once (Instant)."""
    step_until(app, lambda: scene_name(app) == "TableScene", 60, what="the start")
    game = app.scene
    reveal_shot = False
    while app.scene is game:
        if game.replaying() and not reveal_shot:
            if game.dice_landing() or game.replay.step.kind != "write":
                app.step()
                continue
            reveal_shot = True       # a box of another seat filling, on its lit column
            app.screenshot(f"{shots}_reveal.png")
            say(event="reveal", seat=game.replay.step.seat)
            app.profile.settings["animation"] = "instant"
        if game.my_turn():
            seq = game.state.seq
            key(app, pygame.K_r)
            step_until(app, lambda: app.scene is not game or (
                game.state.seq > seq and not game.awaiting and not game.dice_landing()),
                what="the roll")
            if app.scene is not game:
                break
            mine = game.state.sheets[game.my_seat].filled_count
            key(app, pygame.K_RETURN)
            if game.input.pending:
                key(app, pygame.K_RETURN)
            # the round is over once all its records are in this window (a replay then plays)
            step_until(app, lambda: app.scene is not game or game._end_msg is not None or all(
                sh.filled_count > mine for sh in game._fold.sheets), 60, what="the reveal")
        else:
            step_until(app, lambda: app.scene is not game or game.my_turn()
                       or (game.replaying() and not reveal_shot), 60, what="the next turn")
    if not reveal_shot:
        raise AssertionError("no reveal was replayed")
    step_until(app, lambda: scene_name(app) == "ResultsScene", what="the results")
    results = app.scene
    app.step()
    app.screenshot(f"{shots}_results.png")
    say(event="results", total=results.state.total(results.my_seat),
        totals=[results.state.total(s) for s in range(len(results.state.setup.seats))],
        sealed=results.sealed_date, verdict=None if results.verdict is None else results.verdict.ok)


def fetch(app, port: int, shots: str) -> None:
    """The day has closed: the daily screen fetches this window's log, verifies and records it."""
    from bonanza.core.verify import verify_bytes
    from tests.test_client_daily_relay import open_relay_daily
    assert hear().get("closed") is True
    board = open_relay_daily(app, port, by_mouse=True)
    step_until(app, lambda: DAY in board.saved_dates, what="the table's log")
    app.step()
    app.screenshot(f"{shots}_day_closed.png")
    store = app.profile.store
    hist = store.history(mode="daily")
    game = hist[0]
    path = Path(game.file)
    if not path.is_absolute():
        path = Path(store.directory) / path
    verdict = verify_bytes(path.read_bytes())
    say(event="verified", date=game.date, score=game.score, seed=game.seed is not None,
        ok=verdict.ok, message=verdict.line(), signed=verdict.signed, games=len(hist))


_last: dict = {}


def _where() -> None:
    app = _last.get("app")
    if app is None:
        return
    sc = app.scene
    _last["where"] = {k: repr(getattr(sc, k, None)) for k in (
        "awaiting", "queued", "replay", "focus_id", "dialog", "_swallow", "clock_at")}
    try:
        _last["where"]["my_turn"] = sc.my_turn()
    except Exception as e:
        _last["where"]["my_turn"] = repr(e)


def main() -> int:
    role, port, name, shots = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    try:
        with window(os.environ["BONANZA_DATA_DIR"], animation="fast") as app:
            _last["app"] = app
            try:
                app.profile.name = name
                app.profile.save()
                (host if role == "host" else join)(app, port, name, shots)
                play(app, shots)
                fetch(app, port, shots)
            except BaseException:
                _where()
                app.screenshot(f"{shots}_failed.png")
                raise
    except BaseException as e:      # the test reads why (and sees where), not a silent exit
        say(event="failed", why=f"{type(e).__name__}: {e}", trace=traceback.format_exc()[-2000:],
            scene=_last.get("where"))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
