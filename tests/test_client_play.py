"""The pygame client driven by posted events: full solo games by keyboard only
and by mouse only, and the confirmation rules of writing a box."""
from __future__ import annotations

import pygame
import pytest

from bonanza.core.game import Seat
from bonanza.core.match import Match
from bonanza.core.rules import BOXES
from tests.pilot import click, key, post_click, post_key, type_text

SEED_TEXT = "speedrun-seed-42"


def expected_match(play_turn):
    from bonanza.core.settings import seed_from_text
    m = Match.create("bonanza", [Seat("Player")], seed_from_text(SEED_TEXT), mode="solo")
    while not m.state.over:
        play_turn(m)
    return m


def scene_name(app):
    return type(app.scene).__name__


def test_full_solo_game_keyboard_only(app, artifacts):
    # title -> Solo (focused) -> seed field -> Start
    key(app, pygame.K_RETURN)
    assert scene_name(app) == "SoloSetupScene"
    assert app.scene.focus_id == "seed"     # typing lands in the seed field at once
    type_text(app, SEED_TEXT[:3])
    key(app, pygame.K_TAB)            # focus moves to Start
    key(app, pygame.K_TAB)            # ... to Back
    key(app, pygame.K_TAB)            # ... to the ranked run
    assert app.scene.focus_id == "ranked"
    key(app, pygame.K_TAB)            # ... to the rules (a press cycles the rulesets)
    assert app.scene.focus_id == "ruleset"
    key(app, pygame.K_TAB)            # ... to practice with undo and its hints switch
    assert app.scene.focus_id == "practice"
    key(app, pygame.K_TAB)
    assert app.scene.focus_id == "practice_hints"
    key(app, pygame.K_TAB)            # ... and wraps to the seed field
    assert app.scene.focus_id == "seed"
    type_text(app, SEED_TEXT[3:])
    key(app, pygame.K_RETURN)
    assert scene_name(app) == "SoloGameScene"
    game = app.scene
    for turn in range(13):
        key(app, pygame.K_r)
        key(app, pygame.K_1)
        key(app, pygame.K_2)
        key(app, pygame.K_r)
        key(app, pygame.K_r)
        assert game.state.rolls_left == 0
        if turn == 5:
            app.screenshot(artifacts / "client_solo_keyboard.png")
        key(app, pygame.K_RETURN)
        if scene_name(app) == "SoloGameScene" and game.input.pending:
            assert game.input.pending[1] == "scratch"
            key(app, pygame.K_RETURN)
    app.step()
    assert scene_name(app) == "ResultsScene"

    def turn(m):
        m.roll([False] * 5)
        m.roll([True, True, False, False, False])
        m.roll([True, True, False, False, False])
        m.write(m.state.sheets[0].free_boxes()[0])
    want = expected_match(turn)
    res = app.scene
    assert res.state.total(0) == want.state.total(0)
    assert res.state.sheets == want.state.sheets
    assert res.verdict.ok
    assert res.elapsed > 0
    app.screenshot(artifacts / "client_results.png")


def test_full_solo_game_mouse_only(app, artifacts):
    title = app.scene
    click(app, title.widget("solo").rect)
    setup = app.scene
    click(app, setup.widget("seed").rect)
    type_text(app, SEED_TEXT)         # typing is the only non-mouse input: the seed itself
    click(app, setup.widget("start").rect)
    game = app.scene
    assert scene_name(app) == "SoloGameScene"
    from bonanza.client.sheet_view import ROWS
    rows = [k for kind, k in ROWS]
    for turn in range(13):
        click(app, game.widget("roll").rect)
        click(app, game.dice_view.die_rect(2))          # hold the middle die
        assert game.input.held[2]
        click(app, game.widget("roll").rect)
        assert game.state.rolls_left == 1
        box = game.state.sheets[0].free_boxes()[-1]
        r = game.sheet_view.row_rect(rows.index(box), 1)
        click(app, r)
        if turn < 12:
            assert game.input.pending and game.input.pending[0] == box   # asks: rolls remain
            assert game.state.sheets[0].is_free(box)
        click(app, r)
    app.step()
    assert scene_name(app) == "ResultsScene"

    def turn(m):
        m.roll([False] * 5)
        m.roll([False, False, True, False, False])
        m.write(m.state.sheets[0].free_boxes()[-1])
    want = expected_match(turn)
    assert app.scene.state.sheets == want.state.sheets
    assert app.scene.state.total(0) == want.state.total(0)
    # results -> verify this game -> the replay steps through it
    click(app, app.scene.widget("verify").rect)
    assert scene_name(app) == "ReplayScene"
    replay = app.scene
    last = replay.index
    click(app, replay.widget("prev").rect)
    assert replay.index == last - 1
    app.screenshot(artifacts / "client_replay.png")


def _solo(app, seed_text="confirm"):
    from bonanza.client.scenes.game import SoloGameScene
    app.push(SoloGameScene(app, seed_text=seed_text))
    app.step()
    return app.scene


def roll(app):
    """Roll and draw the frame that shows the dice (a roll waits for the last one to be seen)."""
    from bonanza.client.actions import Action
    ok = app.dispatch(Action("roll"))
    app.step(1 / 60)
    return ok


def _boxes_by_points(game):
    pv = game.input.previews(game.state)
    return [b for b in BOXES if pv.get(b, 0) > 0], [b for b in BOXES if b in pv and pv[b] == 0]


def test_write_while_rolls_remain_asks_once(app):
    from bonanza.client.actions import Action
    game = _solo(app)
    roll(app)
    scoring, _ = _boxes_by_points(game)
    box = scoring[0]
    app.dispatch(Action("box", box))
    assert game.input.pending == (box, "register")
    assert game.state.sheets[0].is_free(box)
    app.dispatch(Action("cancel"))                       # Escape cancels
    assert game.input.pending is None
    app.dispatch(Action("box", box))
    app.dispatch(Action("box", box))                     # second click writes
    assert not game.state.sheets[0].is_free(box)


def test_scratch_always_asks_even_after_last_roll(app):
    from bonanza.client.actions import Action
    for seed in ("s1", "s2", "s3", "s4", "s5", "s6"):
        game = _solo(app, seed)
        for _ in range(3):
            roll(app)
        _, zero = _boxes_by_points(game)
        if zero:
            break
    assert game.state.rolls_left == 0 and zero
    app.dispatch(Action("box", zero[0]))
    assert game.input.pending == (zero[0], "scratch")
    assert game.state.sheets[0].is_free(zero[0])
    app.dispatch(Action("confirm"))                      # Enter confirms the selected box
    assert game.state.sheets[0].get(zero[0]) == 0


def test_write_after_last_roll_is_immediate_and_roll_disabled(app, artifacts):
    from bonanza.client.actions import Action
    game = _solo(app)
    for _ in range(3):
        roll(app)
    assert not game.enabled(Action("roll"))              # no rolls left
    assert not app.dispatch(Action("roll"))
    scoring, _ = _boxes_by_points(game)
    pts = game.input.previews(game.state)[scoring[0]]
    app.dispatch(Action("box", scoring[0]))
    assert game.state.sheets[0].get(scoring[0]) == pts
    assert game.input.pending is None
    # before the first roll: dice cannot be held, a box cannot be written, and the
    # cursor is on Roll, so Enter rolls (no "roll first" toast over the sheet)
    assert not game.enabled(Action("toggle_die", 0))
    assert not app.dispatch(Action("box", game.state.sheets[0].free_boxes()[0]))
    app.step()
    assert game.focus_id == "roll"
    app.dispatch(Action("confirm"))
    assert game.state.dice is not None and game.state.rolls_left == 2
    assert not app.toast.visible


def test_held_dice_keep_their_faces_and_roll_disabled_when_all_held(app):
    from bonanza.client.actions import Action
    game = _solo(app)
    roll(app)
    before = game.state.dice
    for i in range(5):
        app.dispatch(Action("toggle_die", i))
    assert not game.enabled(Action("roll"))
    app.dispatch(Action("toggle_die", 4))
    roll(app)
    assert game.state.dice[:4] == before[:4]


def steps_until_landed(app, game, limit=120):
    for _ in range(limit):
        if not game.dice_view.animating(app.now):
            return
        app.step(1 / 60)
    pytest.fail("the dice never landed")


def test_key_storm_costs_one_roll(app):
    """`r r r` within 120 ms: one roll; the others land while the dice are in the air."""
    app.profile.settings["animation"] = "normal"
    game = _solo(app)
    post_key(pygame.K_r)
    post_key(pygame.K_r)
    app.step(1 / 60)                                     # two presses in one frame
    post_key(pygame.K_r)
    app.step(0.1)                                        # the third 100 ms later
    assert game.state.rolls == 1
    assert game.dice_view.animating(app.now)
    post_key(pygame.K_RETURN)                            # nor is a box written from dice in the air
    app.step(1 / 60)
    assert game.input.pending is None and game.state.sheets[0].filled_count == 0
    steps_until_landed(app, game)
    post_key(pygame.K_r)                                 # the dice were seen: a roll again
    app.step(1 / 60)
    assert game.state.rolls == 2


def test_double_click_on_roll_costs_one_roll(app):
    app.profile.settings["animation"] = "fast"
    game = _solo(app)
    roll_rect = game.widget("roll").rect
    post_click(app, roll_rect)
    app.step(1 / 60)
    for _ in range(5):                                   # ~80 ms later, the second click
        app.step(1 / 60)
    post_click(app, roll_rect)
    app.step(1 / 60)
    assert game.state.rolls_left == 2
    steps_until_landed(app, game)
    post_click(app, roll_rect)
    app.step(1 / 60)
    assert game.state.rolls_left == 1


def test_reduce_motion_rolls_once_per_frame_seen(app):
    """Animations off (reduce motion): no waiting, but a roll still needs the
    last dice drawn once."""
    app.profile.settings["animation"] = "off"
    game = _solo(app)
    post_key(pygame.K_r)
    post_key(pygame.K_r)
    post_key(pygame.K_r)
    app.step(1 / 60)
    assert game.state.rolls == 1
    assert not game.dice_view.animating(app.now)
    post_key(pygame.K_r)
    app.step(1 / 60)                                     # the very next frame
    assert game.state.rolls == 2


@pytest.mark.parametrize("setting, rolls", [("instant", 3), ("normal", 1)])
def test_instant_mode_counts_every_roll_press(app, setting, rolls):
    """`r r r` a few ms apart: the speedrun setting rolls three times, normal play once."""
    app.profile.settings["animation"] = setting
    game = _solo(app)
    for _ in range(3):
        post_key(pygame.K_r)
        app.step(0.003)
    assert game.state.rolls == rolls
    if setting == "instant":
        assert game.state.rolls_left == 0 and not game.animating()
        post_key(pygame.K_RETURN)                        # and a box may be written at once
        post_key(pygame.K_RETURN)
        app.step(0.003)
        assert game.state.sheets[0].filled_count == 1


def test_instant_is_chosen_in_settings_and_kept(app, data_dirs):
    """Left from normal: fast, off (reduce motion), then instant, kept in the profile."""
    from bonanza.client.profile import Profile
    from bonanza.client.scenes.settings import SettingsScene
    app.profile.settings["animation"] = "normal"
    app.profile.save()
    app.push(SettingsScene(app))
    app.step()
    app.scene.focus_id = "val:animation"
    seen = []
    for _ in range(3):
        key(app, pygame.K_LEFT)
        seen.append(app.profile.settings["animation"])
    assert seen == ["fast", "off", "instant"]
    assert not app.profile.roll_guard
    again = Profile(str(data_dirs["data"]))
    assert again.settings["animation"] == "instant" and not again.roll_guard


def give_up_from_the_pause_menu(app, game):
    key(app, pygame.K_ESCAPE)                            # nothing pending: the pause menu
    assert scene_name(app) == "PauseScene" and app.scene.focus_id == "resume"
    for _ in range(3):
        key(app, pygame.K_DOWN)
    assert app.scene.focus_id == "give_up"
    key(app, pygame.K_RETURN)
    assert app.scene is game and game.dialog == "give_up"


def test_give_up_dialog_by_keyboard(app):
    game = _solo(app)
    give_up_from_the_pause_menu(app, game)
    key(app, pygame.K_ESCAPE)
    assert game.dialog is None
    give_up_from_the_pause_menu(app, game)
    key(app, pygame.K_LEFT)                              # focus Yes
    key(app, pygame.K_RETURN)
    app.step()
    assert scene_name(app) == "ResultsScene"
    assert app.scene.standings[0].gave_up == "gave_up"


def test_sound_without_device_is_silent(monkeypatch):
    from bonanza.client import sound
    def boom(*a, **k):
        raise pygame.error("no audio device")
    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", boom)
    s = sound.Sound()
    assert not s.available
    s.play("dice")                                       # no crash
    for name in sound.NAMES:
        assert len(sound.synth(name)) > 0


def test_enter_in_the_frame_the_dice_land_asks_to_register(app):
    from bonanza.client.scenes.game import SoloGameScene
    game = SoloGameScene(app, seed_text=SEED_TEXT)
    app.push(game)
    app.step(1 / 60)
    for k in (pygame.K_r, pygame.K_RETURN):  # both keys handled in one frame
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    app.step(1 / 60)
    assert game.state.rolls == 1
    assert game.input.pending is not None  # "Register?" (or "Scratch?") shown on the box
    key(app, pygame.K_RETURN)
    assert game.state.sheets[0].filled_count == 1
