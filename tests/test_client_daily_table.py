"""The daily challenge at a table, through the window client.

The window sits at a daily table another player opened (and starts), plays it to the end
with posted key presses, and sees no red verdict: the results say when and why the day's
seed will be revealed.  The game is remembered as pending, like a solo relay daily; once
the day has closed (the relay's manual clock), the daily screen fetches the window's log,
verifies it and records it."""
from __future__ import annotations

import time

import pygame

from bonanza.client import lang
from bonanza.core.game import allowed
from tests.pilot import key, step_until, wait_until
from tests.test_client_daily_relay import DAY1, DAY2, app, open_relay_daily, relay  # noqa: F401, F811


def _connected(conn) -> None:
    wait_until(lambda: conn.status == "connected", 20, what="the connection")


def _other_seat_moves(conn) -> None:
    """Bea's moves when it is her turn: roll once, write the first allowed box."""
    for msg in conn.poll():
        assert msg.get("type") != "error", msg
    st = conn.state
    if st is None or st.over or st.active != conn.seat or getattr(conn, "asked", -1) == st.seq:
        return
    conn.asked = st.seq
    if st.dice is None:
        conn.send({"type": "roll", "hold": [False] * 5})
    else:
        conn.send({"type": "write", "box": allowed(st)[0]})


def sit_at_beas_daily_table(app, port: int, bea):  # noqa: F811
    """Bea (a connection) opens a 3-seat daily table, the window sits down at it as Ana
    through the lobby, and Bea starts it (the third seat a bot): the window's table scene."""
    from bonanza.client.relay_client import RelayConnection
    from bonanza.client.scenes.lobby import LobbyScene
    _connected(bea)
    bea.send({"type": "create_table", "name": "Bea", "seats": 3, "turn_seconds": 60,
              "ruleset": "yacht", "daily": True})
    wait_until(lambda: bea.table is not None, 20, what="Bea's table", others=[bea.poll])
    conn = RelayConnection("127.0.0.1", port, signer=app.profile.seat_signer())
    app.push(LobbyScene(app, conn, "127.0.0.1", port,
                        request={"type": "join", "code": bea.table["code"], "name": "Ana"}))
    lobby = app.scene
    step_until(app, lambda: lobby.table is not None and len(lobby.table["players"]) == 2,
               what="the seat")
    bea.send({"type": "start"})
    step_until(app, lambda: type(app.scene).__name__ == "TableScene", what="the start")
    return app.scene


def test_a_window_at_a_daily_table_gets_its_log_once_the_day_closes(relay, app, artifacts):  # noqa: F811
    from bonanza.client.daily_relay_memory import last_relay, pending_logs
    from bonanza.client.relay_client import RelayConnection
    r, clock = relay
    bea = RelayConnection("127.0.0.1", r.port)
    try:
        game = sit_at_beas_daily_table(app, r.port, bea)
        pending = pending_logs(app)
        assert [{k: v for k, v in p.items() if k != "played_at"} for p in pending] == [
            {"host": "127.0.0.1", "port": r.port, "date": DAY1, "name": "Ana"}]
        started_at = pending[0]["played_at"]
        assert last_relay(app) == ("127.0.0.1", r.port)      # the port is remembered
        # no advisor during a relay daily, whatever the setting says, and the screen says so
        app.profile.settings["show_hints"] = True
        assert not game.hints_allowed() and not game.hints_on()
        key(app, pygame.K_h)
        assert app.toast.text == lang.t("game.no_hints_daily")
        assert app.profile.settings["show_hints"] is True
        shot = waited = False
        deadline = time.time() + 120
        while app.scene is game:
            assert time.time() < deadline, "the table did not end"
            if game.round_done():      # played in rounds: Bea plays after Ana wrote
                if not waited:
                    waited = True
                    # no die and no clock of its own while the others play the round
                    step_until(app, lambda: game.remaining() is None, what="the clock stops")
                    assert game.state.dice is None and not game.my_turn()
                    app.screenshot(artifacts / "client_daily_table_round_waiting.png")
                _other_seat_moves(bea)
            st = game.state
            if game.my_turn():
                seq = st.seq
                if st.dice is None:
                    key(app, pygame.K_r)
                else:
                    key(app, pygame.K_RETURN)
                    if game.input.pending:
                        key(app, pygame.K_RETURN)
                step_until(app, lambda: app.scene is not game or game.state.seq > seq,
                           what="the move")
                if not shot and app.scene is game and game.state.dice is not None:
                    shot = True
                    assert game.verdict() is None and game.remaining() is not None
                    app.step(1 / 60)
                    app.screenshot(artifacts / "client_daily_table_game.png")
            else:
                app.step(1 / 60)
                time.sleep(0.005)
        assert waited
        results = app.scene
        assert type(results).__name__ == "ResultsScene"
        assert results.verdict is None and results.sealed_date == DAY1
        app.step(1 / 60)
        app.screenshot(artifacts / "client_daily_table_results.png")
        assert "2024" in lang.t("results.daily_sealed", date="2024")
    finally:
        bea.close(1.0)

    # the day closes: the daily screen fetches the table game's log, verifies and records it
    clock.date = DAY2
    app.to_title()
    board = open_relay_daily(app, r.port, by_mouse=True)
    step_until(app, lambda: DAY1 in board.saved_dates, what="the daily table's log")
    hist = app.profile.store.history(mode="daily")
    assert len(hist) == 1 and hist[0].date == DAY1 and hist[0].seed is not None
    assert hist[0].played_at == started_at          # when it was played, not when fetched
    assert pending_logs(app) == []


def test_the_daily_board_marks_give_ups_shared_places_and_one_address(app, artifacts):  # noqa: F811
    from bonanza.client.scenes.daily_relay import DailyRelayScene
    from tests.test_client_daily_relay import FakeConn, fake_info
    info = fake_info()
    info["leaderboard"] = [
        {"name": "Cleo", "score": 252, "place": 1, "same_address": None, "gave_up": None},
        {"name": "Ana", "score": 151, "place": 2, "same_address": 1, "gave_up": None},
        {"name": "Dan", "score": 151, "place": 2, "same_address": 1, "gave_up": None},
        {"name": "Ben", "score": 223, "place": 4, "same_address": None, "gave_up": "gave_up"}]
    info["closed"][0]["leaderboard"] = [
        {"name": "Eve", "score": 240, "place": 1, "same_address": None, "gave_up": None},
        {"name": "Fay", "score": 240, "place": 1, "same_address": None, "gave_up": None}]
    info["closed"][0]["par"] = 228
    app.push(DailyRelayScene(app, "127.0.0.1", 7468, conn=FakeConn(info)))
    scene = app.scene
    step_until(app, lambda: scene.info is not None, what="daily_info")
    places = [r["place"] for r in info["leaderboard"]]
    t = lang.t
    assert scene.row_marks(info["leaderboard"][3], places) == [t("table.gave_up")]
    assert scene.row_marks(info["leaderboard"][1], places) == [
        t("results.shared_place"), t("daily.relay.same_address", n=1)]
    app.step(1 / 60)
    app.screenshot(artifacts / "client_daily_board_marks.png")
