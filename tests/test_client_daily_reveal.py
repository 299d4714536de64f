"""The reveal of a daily round, replayed in the window.

At a daily table each seat plays its turn of the round in private; when the last seat has
written, the round's records arrive together.  The window replays the others' turns one
seat after another, in the day's seat order, on their columns (held dice rise, the dice
roll, the box fills), then the player's next turn begins.  The relay's clock of that turn
waits ROUND_REVEAL_SECONDS (``starts_in``) and the replay is over before it runs, so the
replay costs the player none of their turn; any key or click skips it (and does nothing
else); Instant animation shows no replay; a relay that gives no wait gets no replay.  The
last round is replayed too, before the results."""
from __future__ import annotations

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bonanza.core.game import allowed
from tests.pilot import key, step_until
from tests.test_client_daily_relay import app, relay  # noqa: F401
from tests.test_client_daily_table import sit_at_beas_daily_table


def _bea(conn, upto: list):
    """Bea's turn of each round, played from her own connection: roll, roll again keeping
    the first two dice (so the replay has held dice to show), write the first allowed box;
    never past round ``upto[0]`` (she waits for Ana there)."""
    def play() -> None:
        for msg in conn.poll():
            assert msg.get("type") != "error", msg
        st = conn.state
        if st is None or st.over or st.active != conn.seat or conn.round_done \
                or getattr(conn, "asked", -1) == st.seq or st.sheets[conn.seat].filled_count >= upto[0]:
            return
        conn.asked = st.seq
        if st.dice is None:
            conn.send({"type": "roll", "hold": [False] * 5})
        elif st.rolls == 1:
            conn.send({"type": "roll", "hold": [True, True, False, False, False]})
        else:
            conn.send({"type": "write", "box": allowed(st)[0]})
    return play


def _round(app, game, bea, upto: list, others=()) -> None:  # noqa: F811
    """Ana plays her turn of the round from the keyboard (roll once, write the box under
    the cursor) and Bea hers; returns once the whole round's records have reached the
    window (its replay, if any, then runs)."""
    me = game.conn.seat
    step_until(app, game.my_turn, what="Ana's turn")
    k = game.conn.state.sheets[me].filled_count + 1
    upto[0] = k
    seq = game.state.seq
    key(app, pygame.K_r)
    step_until(app, lambda: game.state.seq > seq and not game.awaiting and not game.dice_landing(),
               what="Ana's roll")
    key(app, pygame.K_RETURN)
    if game.input.pending:
        key(app, pygame.K_RETURN)
    step_until(app, lambda: app.scene is not game or game._end_msg is not None
               or all(sh.filled_count >= k for sh in game._fold.sheets),
               what="the round's reveal", others=[bea, *others])


@pytest.mark.timeout(240)
def test_the_others_turns_are_replayed_before_the_next_turn_and_never_on_its_clock(
        relay, app, artifacts, monkeypatch):  # noqa: F811
    from bonanza.client.relay_client import RelayConnection
    from bonanza.core.settings import ROUND_REVEAL_SECONDS
    r, _clock = relay
    app.profile.settings["animation"] = "normal"
    bea = RelayConnection("127.0.0.1", r.port)
    try:
        game = sit_at_beas_daily_table(app, r.port, bea)
        conn = game.conn
        upto = [1]
        play = _bea(bea, upto)
        first = conn.client.header["first_seat"]
        me = conn.seat
        order = [(first + i) % 3 for i in range(3) if (first + i) % 3 != me]

        # round 1: the reveal is replayed, seat by seat in the day's order, to its end
        _round(app, game, play, upto)
        assert game.replaying() and not game.my_turn()
        seats = []
        for s in game.replay.steps:
            if not seats or seats[-1] != s.seat:
                seats.append(s.seat)
        assert seats == order                         # each other seat once, in seat order
        bea_seat = bea.seat
        assert any(s.kind == "hold" and s.seat == bea_seat for s in game.replay.steps)
        shots = {}
        while game.replaying():
            step = game.replay.step
            name = f"{step.kind}_{step.seat}"
            if name not in shots and not game.dice_landing():
                shots[name] = artifacts / f"client_daily_reveal_{len(shots)}_{name}.png"
                app.screenshot(shots[name])
                # the replayed seat's column is the one lit, and the turn reads as theirs
                assert game.highlighted_seat() == step.seat
            assert game.remaining() == 60            # the clock waits: it is not running
            app.step(1 / 60)
        assert f"hold_{bea_seat}" in shots and f"write_{bea_seat}" in shots
        _, at, _, wait, _ = game.clock_at
        assert wait == ROUND_REVEAL_SECONDS
        assert app.now - at <= wait                   # over before the clock started
        assert game.my_turn() and game.remaining() == 60
        step_until(app, lambda: game.state.dice is None and game.focus_id == "roll",
                   what="Ana's turn ready")
        app.screenshot(artifacts / "client_daily_reveal_after.png")

        # round 2: any key skips the replay and does nothing else (no roll)
        _round(app, game, play, upto)
        assert game.replaying()
        app.step(1 / 60)
        seq = game.conn.state.seq
        key(app, pygame.K_r)
        assert not game.replaying() and game.my_turn()
        assert game.state.seq == seq and game.state.dice is None
        # a click skips it too
        _round(app, game, play, upto)
        assert game.replaying()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=1))
        app.step(1 / 60)
        assert not game.replaying() and game.my_turn()

        # Instant: the round lands as it is
        app.profile.settings["animation"] = "instant"
        seen = []
        _round(app, game, play, upto, others=[lambda: seen.append(game.replaying())])
        assert not any(seen) and game.my_turn()

        # a relay that gives no wait gets no replay: the player's clock is never eaten
        app.profile.settings["animation"] = "normal"
        monkeypatch.setattr("bonanza.relay.rounds.ROUND_REVEAL_SECONDS", 0)
        _round(app, game, play, upto)
        step_until(app, game.my_turn, what="Ana's next turn")
        _, at, _, wait, _ = game.clock_at
        assert wait == 0 and not game.replaying() and app.now - at < 0.2

        # rounds 6 to 12 land at once; the last one is replayed before the results
        app.profile.settings["animation"] = "instant"
        while game.state.sheets[me].filled_count < 12:
            _round(app, game, play, upto)
        app.profile.settings["animation"] = "normal"
        _round(app, game, play, upto)
        step_until(app, lambda: game._end_msg is not None, what="the end")
        assert app.scene is game and game.replaying()      # the end waits for the replay
        app.screenshot(artifacts / "client_daily_reveal_last_round.png")
        step_until(app, lambda: app.scene is not game, what="the results")
        assert type(app.scene).__name__ == "ResultsScene"
        assert app.scene.state.sheets[bea_seat].is_complete
    finally:
        bea.close(1.0)


@given(st.lists(st.floats(0.05, 1.0), min_size=1, max_size=14),
       st.floats(0.0, 8.0), st.floats(1 / 240, 1 / 20))
@settings(max_examples=200, deadline=None)
def test_a_replay_is_over_by_the_time_it_was_given_and_shows_each_step_in_order(
        seconds, budget, dt):
    """However long its steps and however short the clock's wait, a replay is over before
    the wait ends (so it never eats a turn); every step it shows comes in order."""
    from bonanza.client.round_replay import MARGIN, RoundReplay, Step
    steps = [Step("roll", 0, 1, {"type": "roll", "seat": 0, "hold": [False] * 5,
                                 "dice": [1] * 5, "auto": False}, None, (False,) * 5, s)
             for s in seconds]
    replay = RoundReplay(steps, 0.0, 99.0)
    replay.fit(0.0, budget)
    now, shown = 0.0, [0]
    while not replay.done:
        now += dt
        replay.advance(now, dt)
        if not replay.done:
            shown.append(replay.index)
        assert now <= max(0.0, budget - MARGIN) + dt + 1e-9
    assert shown == sorted(shown)
    if budget - MARGIN >= sum(seconds) + dt:        # time enough: its own pace, every step
        assert sorted(set(shown)) == list(range(len(steps)))
