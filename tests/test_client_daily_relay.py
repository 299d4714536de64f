"""The daily challenge on a relay, through the window client.

A real relay runs in-process on 127.0.0.1 (its own thread and event loop, a
``ManualClock`` so the test can close a day).  Other players play through
``RelayConnection``; the window client plays with posted pygame events (keys
and clicks), appears on the leaderboard, is refused a second attempt with the
translated message, and records the game once the day has closed."""
from __future__ import annotations

import asyncio
import threading

import pygame
import pytest

from bonanza.client import lang
from bonanza.core.game import allowed
from tests.pilot import click, key, step_until, type_text, wait_until

DAY1, DAY2, DAY3 = "2024-03-04", "2024-03-05", "2024-03-06"


@pytest.fixture
def relay(tmp_path):
    from bonanza.relay.clock import ManualClock
    from bonanza.relay.server import Relay
    clock = ManualClock(date=DAY1)
    loop = asyncio.new_event_loop()
    box: dict = {}
    ready = threading.Event()

    def run():
        asyncio.set_event_loop(loop)
        r = Relay(str(tmp_path / "relay"), clock=clock, bot_delay=0.0, daily_per_address=False)
        loop.run_until_complete(r.start("127.0.0.1", 0))
        box["relay"] = r
        ready.set()
        loop.run_forever()
        loop.run_until_complete(r.close())
        loop.close()

    th = threading.Thread(target=run, daemon=True)
    th.start()
    assert ready.wait(20)
    yield box["relay"], clock
    loop.call_soon_threadsafe(loop.stop)
    th.join(10)


@pytest.fixture
def app(app):
    """The test window (closed with its scenes' connections), its player named Ana."""
    app.profile.name = "Ana"
    app.profile.save()
    return app


def play_as(port: int, name: str) -> int:
    """Another player's whole daily through RelayConnection: roll once, write the first allowed box."""
    from bonanza.client.relay_client import RelayConnection
    conn = RelayConnection("127.0.0.1", port)
    try:
        wait_until(lambda: conn.status == "connected", what=f"{name}'s connection")
        conn.send({"type": "daily_play", "name": name})
        asked = -1

        def play() -> None:
            nonlocal asked
            for msg in conn.poll():
                assert msg.get("type") != "error", msg
            st = conn.state
            if st is not None and not st.over and st.seq != asked:
                asked = st.seq
                if st.dice is None:
                    conn.send({"type": "roll", "hold": [False] * 5})
                else:
                    conn.send({"type": "write", "box": allowed(st)[0]})
        wait_until(lambda: conn.end is not None, 60, what=f"the end of {name}'s game", others=[play])
        return conn.end["standings"][0]["total"]
    finally:
        conn.close(1.0)


def open_relay_daily(app, port: int, by_mouse: bool):
    """Title → Daily → the relay card: type the port, connect."""
    app.to_title()
    app.scene.on_press("daily")
    app.step()
    daily = app.scene
    assert type(daily).__name__ == "DailyScene"
    if by_mouse:
        click(app, "port")
    else:
        while daily.focus_id != "port":
            key(app, pygame.K_TAB)
    assert daily.text_focus()
    for _ in range(6):
        key(app, pygame.K_BACKSPACE)
    type_text(app, str(port))
    assert daily.port.value == str(port)
    if by_mouse:
        click(app, "relay")
    else:
        key(app, pygame.K_RETURN)          # Enter on the port field connects
    scene = app.scene
    assert type(scene).__name__ == "DailyRelayScene"
    step_until(app, lambda: scene.info is not None, what="daily_info")
    return scene


def play_game_with_events(app, artifacts):
    """Every turn: roll (R key or a click on Roll), then Enter until the box is written."""
    game = app.scene
    assert type(game).__name__ == "DailyRelayGameScene"
    turn = 0
    while app.scene is game:
        st = game.state
        if st.over:
            step_until(app, lambda: app.scene is not game, what="the end")
            break
        seq = st.seq
        if st.dice is None:
            if turn % 2:
                click(app, "roll")
            else:
                key(app, pygame.K_r)
            step_until(app, lambda: app.scene is not game or game.state.seq > seq, what="the roll")
            app.step(1 / 60)            # one frame to show the dice (and select a box)
            if turn == 0 and app.scene is game:
                app.screenshot(artifacts / "client_daily_relay_game.png")
            turn += 1
            continue
        key(app, pygame.K_RETURN)
        if game.input.pending:
            key(app, pygame.K_RETURN)
        step_until(app, lambda: app.scene is not game or game.state.seq > seq, what="the write")


def test_relay_daily_through_the_scene(relay, app, artifacts):
    r, clock = relay
    # yesterday: two players; the day closes, its seed is revealed
    bea = play_as(r.port, "Bea")
    cid = play_as(r.port, "Cid")
    clock.date = DAY2
    dan = play_as(r.port, "Dan")

    info = open_relay_daily(app, r.port, by_mouse=True)
    assert info.date == DAY2
    assert info.info["commitment"] and len(info.info["commitment"]) == 32
    assert [row["name"] for row in info.info["leaderboard"]] == ["Dan"]
    closed = info.info["closed"]
    assert closed[0]["date"] == DAY1 and {x["name"] for x in closed[0]["leaderboard"]} == {"Bea", "Cid"}
    assert sorted(x["score"] for x in closed[0]["leaderboard"]) == sorted([bea, cid])
    assert not info.played()
    app.screenshot(artifacts / "client_daily_relay_info.png")

    # play: Enter on the focused "Play as Ana" button
    assert info.focus_id == "play"
    key(app, pygame.K_RETURN)
    step_until(app, lambda: type(app.scene).__name__ == "DailyRelayGameScene", what="the game")
    game = app.scene
    assert game.state.ruleset.name == "yacht" and len(game.state.setup.seats) == 1
    assert game.conn.clock["turn_seconds"] == 60     # the online daily has a turn clock
    assert game.state.setup.seats[0].name == "Ana"
    play_game_with_events(app, artifacts)

    board = app.scene
    assert type(board).__name__ == "DailyRelayScene" and board.result is not None
    score = board.my_total()
    step_until(app, lambda: board.info is not None, what="the refreshed leaderboard")
    names = {row["name"]: row for row in board.info["leaderboard"]}
    assert set(names) == {"Ana", "Dan"}
    assert names["Ana"]["score"] == score
    assert board.my_place() == (names["Ana"]["place"], 2)
    assert names["Ana"]["place"] == (1 if score >= dan else 2)
    app.screenshot(artifacts / "client_daily_relay_board.png")
    # the log is not available before the day closes, so nothing is recorded yet
    assert app.profile.store.history(mode="daily") == []

    # a second attempt with the same name is refused, in the player's language
    key(app, pygame.K_ESCAPE)
    assert len(app.scenes) == 1
    app.set_language("pt-PT")
    again = open_relay_daily(app, r.port, by_mouse=False)
    assert again.played()
    assert again.focus_id == "play"
    click(app, "play")
    step_until(app, lambda: again.refused, what="the refusal")
    expected = lang.t("refusal.daily_already_played")
    assert expected == "Alguém com este nome já jogou o desafio de hoje."
    assert app.toast.text == expected and app.toast.visible
    assert app.scene is again
    app.screenshot(artifacts / "client_daily_relay_refused.png")
    app.set_language("en")

    # the day closes: the next visit fetches the log and records it (history only)
    clock.date = DAY3
    key(app, pygame.K_ESCAPE)
    later = open_relay_daily(app, r.port, by_mouse=True)
    step_until(app, lambda: DAY2 in later.saved_dates, what="the daily log")
    hist = app.profile.store.history(mode="daily")
    assert len(hist) == 1 and hist[0].score == score and hist[0].date == DAY2
    assert hist[0].seed is not None                  # the relay's revealed seed
    assert app.profile.store.daily_status(DAY2) == "available"    # the offline attempt is untouched
    from bonanza.client.daily_relay_memory import last_relay, pending_logs
    assert pending_logs(app) == []
    assert last_relay(app) == ("127.0.0.1", r.port)
    assert later.info["closed"][0]["date"] == DAY2


class FakeConn:
    """A RelayConnection stand-in that answers nothing (for the screens only)."""

    def __init__(self, info=None):
        self.status = "connected"
        self.sent = []
        self.inbox = [info] if info else []
        self.client = None
        self.state = None

    def send(self, msg):
        self.sent.append(msg)

    def poll(self):
        out, self.inbox = self.inbox, []
        return out

    def close(self, timeout=1.0):
        self.status = "closed"


def fake_info(played=False):
    from bonanza.core import dice
    seed = bytes(range(32))
    board = [{"name": n, "score": s, "place": p} for n, s, p in
             (("Bartholomew Quickfingers", 242, 1), ("Ana", 240, 2), ("Cid", 240, 2), ("Dan", 199, 4),
              ("Eve", 150, 5), ("Fay", 140, 6), ("Gus", 130, 7), ("Hal", 120, 8), ("Ivy", 110, 9))]
    closed = [{"date": "2024-03-04", "seed": seed, "commitment": dice.commitment(seed),
               "leaderboard": board[:2]},
              {"date": "2024-03-03", "seed": seed, "commitment": bytes(32), "leaderboard": []}]
    return {"type": "daily_info", "date": "2024-03-05", "commitment": dice.commitment(b"x" * 32),
            "played": played, "leaderboard": board, "closed": closed}


def test_daily_screens_fit_in_six_languages(app, artifacts):
    from bonanza.client import i18n, theme, widgets
    from bonanza.client.scenes.daily import DailyScene
    from bonanza.client.scenes.daily_relay import DailyRelayScene
    app.apply_window(theme.MIN_WINDOW)
    end = {"type": "end", "standings": [{"seat": 0, "name": "Ana", "total": 240, "place": 1, "gave_up": None}]}
    problems = []
    for code in i18n.LANGUAGES:
        app.set_language(code)
        scenes = [("daily", lambda: DailyScene(app)),
                  ("relay_info", lambda: DailyRelayScene(app, "127.0.0.1", 7468, conn=FakeConn(fake_info(True)))),
                  ("relay_board", lambda: DailyRelayScene(app, "127.0.0.1", 7468, conn=FakeConn(fake_info()),
                                                          result=end)),
                  ("relay_connecting", lambda: DailyRelayScene(app, "127.0.0.1", 7468, conn=FakeConn()))]
        for name, make in scenes:
            app.to_title()
            app.push(make())
            app.step()
            widgets.FIT_REPORT.clear()
            app.draw()
            for text, px, width, max_width in widgets.FIT_REPORT:
                if width > max_width + 1 or px < theme.MIN_READABLE_PX:
                    problems.append((code, name, text, px, width, max_width))
            if code in ("en", "fr"):
                pygame.image.save(app.screen, str(artifacts / f"client_small_{code}_{name}.png"))
    assert not problems, "\n".join(map(str, problems[:40]))
    # the board keeps the player's own row, marked, even below the shown rows
    sc = DailyRelayScene(app, "127.0.0.1", 7468, conn=FakeConn(fake_info()))
    app.push(sc)
    app.step()
    assert sc.my_place() == (2, 9)
    assert sc.conn.sent[0] == {"type": "daily_info", "name": "Ana", "rid": "daily_info"}


def test_play_with_others_opens_a_daily_table_on_the_same_relay(relay, app, artifacts):
    r, clock = relay
    info = open_relay_daily(app, r.port, by_mouse=False)
    from bonanza.client.actions import Action
    assert info.enabled(Action("press", "together"))
    click(app, "together")
    lobby = app.scene
    assert type(lobby).__name__ == "LobbyScene"
    step_until(app, lambda: lobby.table is not None, what="the daily table")
    assert lobby.table["daily"] and lobby.table["ruleset"] == "yacht"
    assert lobby.table["players"][0]["name"] == info.name
    app.screenshot(artifacts / "client_daily_table_lobby.png")
