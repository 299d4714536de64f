"""Practice in the window (issue 26, points 3 and 7): a practice game from the Solo screen
with Undo by key, button and controller, kept in the history as practice and on no board;
a past daily from the archive as unranked practice with its par; the analysis marks the
undo.  Frames at 960x540 in test-artifacts/."""
from __future__ import annotations

import pygame
import pytest

from bonanza.client import lang
from bonanza.core.match import Match
from bonanza.core.undo import taken_back
from bonanza.core.verify import facts, verify_bytes
from tests.pilot import click, key, step_until, window

SMALL = (960, 540)


def finish_by_keys(app, game) -> None:
    while not game.state.over:
        key(app, pygame.K_RETURN if game.state.dice is not None else pygame.K_r)
    step_until(app, lambda: type(app.scene).__name__ == "ResultsScene", what="the results")


def test_a_practice_game_takes_back_holds_and_writes_never_dice(app, artifacts):
    store = app.profile.store
    app.switch("solo_setup")
    app.step()
    click(app, "practice")
    game = app.scene
    assert type(game).__name__ == "SoloGameScene" and game.mode == "practice"
    assert game.match.log.header["mode"] == "practice"
    assert not game.enabled(game.widget("undo").action)          # nothing to take back
    key(app, pygame.K_r)
    dealt = game.state.dice
    key(app, pygame.K_1)
    key(app, pygame.K_3)
    assert game.input.held == [True, False, True, False, False]
    key(app, pygame.K_u)                                           # the last hold first
    assert game.input.held == [True, False, False, False, False]
    key(app, pygame.K_z, mod=pygame.KMOD_CTRL)                     # Ctrl+Z too
    assert game.input.held == [False] * 5 and game.state.dice == dealt
    key(app, pygame.K_u)                                           # a roll is never undone
    assert game.state.dice == dealt and game.state.rolls == 1
    key(app, pygame.K_2)
    key(app, pygame.K_RETURN)
    key(app, pygame.K_RETURN)                                      # Write? -> written
    assert game.state.turn == 1 and game.state.dice is None
    written = next(b for b in game.state.ruleset.boxes if not game.state.sheets[0].is_free(b))
    click(app, "undo")                                             # the button
    assert game.state.turn == 0 and game.state.dice == dealt and game.state.rolls == 1
    assert game.state.sheets[0].is_free(written)
    assert game.input.held == [False, True, False, False, False]   # the holds came back
    key(app, pygame.K_u)                                           # and the hold before it
    assert game.input.held == [False] * 5
    # the controller's left-stick click is Undo as well
    game.input.held[4] = True
    game.hold_history.append([False] * 5)
    pygame.event.post(pygame.event.Event(pygame.CONTROLLERBUTTONDOWN,
                                         button=pygame.CONTROLLER_BUTTON_LEFTSTICK, instance_id=0))
    app.step()
    assert game.input.held == [False] * 5
    app.draw()
    with_undo = artifacts / "client_practice_game.png"
    app.screenshot(with_undo)
    finish_by_keys(app, game)
    results = app.scene
    assert results.mode == "practice" and not results.is_new_best()
    assert results.personal_best() is None
    assert results.practice_line() == lang.tn("practice.undos", 1)
    rec = store.history(1)[0]
    assert (rec.mode, rec.category, rec.new_best) == ("practice", "practice", False)
    assert store.best(rec.ruleset, "solo") is None and store.stats()["games"] == 0
    v = verify_bytes(store.game_log(rec.id))
    assert v.ok, v.detail
    assert facts(v)["undone"] == [2]
    assert [m["box"] for _, m in taken_back(v.log.moves)] == [written]
    assert app.profile.attempts(game.category) == 0               # no run attempt counted
    app.screenshot(artifacts / "client_practice_results.png")
    # the history labels it
    app.switch("records")
    records = app.scene
    records.set_tab("history")
    assert records.entries[0].category == "practice"
    assert lang.t("records.cat.practice") in records_texts(app)


def records_texts(app) -> list[str]:
    from tests.test_client_signals import drawn_texts
    return drawn_texts(app)


@pytest.mark.parametrize("code", ["en", "fr", "nl"])
def test_practice_screens_at_960x540(data_dirs, artifacts, code):
    from tests.test_client_analysis import overflows
    with window(data_dirs["data"], size=SMALL) as app:
        lang.set_language(code)
        app.switch("solo_setup")
        app.step()
        assert not overflows(app)
        app.screenshot(artifacts / f"client_practice_setup_{code}.png")
        click(app, "practice")
        game = app.scene
        key(app, pygame.K_r)
        key(app, pygame.K_RETURN)
        key(app, pygame.K_RETURN)
        app.step()
        assert not overflows(app)
        app.screenshot(artifacts / f"client_practice_game_{code}.png")
        app.switch("daily")
        app.step()
        assert not overflows(app)
        app.screenshot(artifacts / f"client_daily_archive_{code}.png")
        assert game.mode == "practice"


def test_a_past_daily_is_practice_on_that_days_dice(app, artifacts):
    store = app.profile.store
    daily = app.switch("daily")
    app.step()
    daily.focus_id = "archive"
    key(app, pygame.K_LEFT)                       # two days back
    date = daily.archive_date()
    assert date < daily.date and daily.days_back == 2
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)                      # never today or later
    assert daily.days_back == 1
    key(app, pygame.K_LEFT)
    key(app, pygame.K_RETURN)
    game = app.scene
    assert type(game).__name__ == "SoloGameScene" and game.past_daily == date
    assert game.match.log.header["dice"] == {"scheme": "public", "date": date}
    key(app, pygame.K_r)
    same_day = Match.create_daily(date, "x")
    same_day.roll([False] * 5)
    assert game.state.dice == same_day.state.dice          # the day's own dice
    key(app, pygame.K_RETURN)
    key(app, pygame.K_RETURN)
    key(app, pygame.K_u)
    assert game.state.dice == same_day.state.dice
    assert store.daily_status(date) == "available"          # no attempt of that day used
    finish_by_keys(app, game)
    rec = store.history(1)[0]
    assert (rec.mode, rec.category, rec.date) == ("practice", "practice", date)
    assert store.daily_status(date) == "available" and store.daily_status(daily.date) == "available"
    app.screenshot(artifacts / "client_practice_past_daily_results.png")
    # Play again: the same day again
    click(app, "again")
    again = app.scene
    assert again.past_daily == date and again is not game


def practice_with_an_undo():
    """A finished practice game, verified: Chance written at once and taken back, then
    every box in order."""
    from bonanza.core.game import Seat
    m = Match.create("bonanza", [Seat("Ana")], bytes(32), mode="practice", settings={"hints": True})
    m.roll([False] * 5)
    m.write("chance")
    m.undo()
    while not m.state.over:
        if m.state.dice is None:
            m.roll([False] * 5)
        else:
            m.write(sorted(m.state.sheets[0].free_boxes())[0])
    m.finish()
    return verify_bytes(m.log.to_bytes())


def test_the_analysis_marks_where_undo_was_used(data_dirs, artifacts):
    with window(data_dirs["data"], advisor=True, size=SMALL) as app:
        app.advisor_loader("bonanza").result()
        scene = app.open("analysis", practice_with_an_undo())
        assert scene.wait()
        app.step()
        assert [u.box for u in scene.current().undos] == ["chance"]
        from tests.test_client_signals import drawn_texts
        assert lang.tn("analysis.undos", 1) in drawn_texts(app)
        app.screenshot(artifacts / "client_practice_analysis.png")


def test_the_replay_of_a_practice_game_names_the_undo(app):
    replay = app.open("replay", practice_with_an_undo(), path=None)
    app.step()
    assert replay.describe(2).endswith(lang.t("box.chance") + ": " + str(replay.states[2].sheets[0].get("chance")))
    assert replay.describe(3).endswith(lang.t("practice.undone"))
    assert replay.states[3].sheets[0].is_free("chance") and replay.states[3].dice == replay.states[1].dice
