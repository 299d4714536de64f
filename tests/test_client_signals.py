"""Solo, clear at every moment (issue 29), in a real window with the real advisor: with hints
off nothing the advisor thinks moves the cursor; with hints on the cursor, the rings and the
verdict say the same thing (Roll when it is to roll, the box when it is to write); nothing of a
roll's outcome shows while the dice tumble; typing on the Solo screen fills the seed."""
from __future__ import annotations

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from bonanza.client import lang, widgets
from bonanza.client.actions import Action
from bonanza.client.scenes.game_base import verdict_options
from bonanza.client.turn_input import TurnInput
from bonanza.core.game import GameState, Seat, Setup, new_game
from bonanza.core.rules import BOXES, Sheet
from tests.pilot import FRAME, key, step_until, type_text, window


@pytest.fixture
def adv_app(data_dirs):
    """A window with the advisor (from the session's cache) and animations off."""
    with window(data_dirs["data"], advisor=True) as a:
        a.advisor_loader("bonanza").result()
        yield a


@pytest.fixture
def tumbling_app(data_dirs):
    """The same with the dice animated as a player sees them by default."""
    with window(data_dirs["data"], advisor=True, animation="normal") as a:
        a.advisor_loader("bonanza").result()
        yield a


def drawn_texts(app) -> list[str]:
    widgets.FIT_REPORT.clear()
    app.draw()
    return [t for t, *_ in widgets.FIT_REPORT]


def write_something(app, scene, pick: int) -> None:
    """Write (or scratch) a box that can be written, confirming as a player does."""
    ok = TurnInput.choosable(scene.state)
    box = ok[pick % len(ok)]
    turn = scene.state.turn
    for _ in range(2):
        assert app.dispatch(Action("box", box))
        app.step()
        if scene.state.turn != turn or scene.state.over:
            return
    raise AssertionError(f"{box} was not written")


def check_cursor(scene, hints: bool, before: str | None) -> None:
    """Where the cursor is once a roll has landed, by the rules of issue 29."""
    st = scene.state
    ok = TurnInput.choosable(st)
    if not hints:
        # where the player left it on the sheet, else the first box that can be written:
        # a function of the sheet and the cursor alone, never of the advice
        assert scene.focus_id is None
        assert scene.input.selection == (before if before in ok else ok[0])
        assert scene.hint_mask() is None and not scene.roll_all_hint()
        return
    adv = scene.advice()
    v = verdict_options(adv, 1)[0]
    if v[0] == "roll":
        assert scene.focus_id == "roll"                 # Enter rolls, as the verdict says
        assert scene.hint_mask() == adv.holds[0].mask
        assert scene.roll_all_hint() == (not any(adv.holds[0].mask))
    else:
        assert scene.focus_id is None and scene.input.selection == v[1]
        assert scene.hint_mask() is None and not scene.roll_all_hint()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hints=hs.booleans(), seed=hs.integers(0, 10 ** 6),
       script=hs.lists(hs.tuples(hs.integers(0, 31), hs.integers(-4, 4), hs.integers(0, 12),
                                 hs.booleans()), min_size=4, max_size=14))
def test_the_cursor_after_a_roll_follows_the_verdict_only_with_hints_on(adv_app, hints, seed, script):
    app = adv_app
    app.profile.settings["show_hints"] = hints
    scene = app.switch("solo_game", seed_text=f"clear {seed}")
    app.step()
    for holds, moves, pick, write_now in script:
        if scene.state.over:
            break
        if scene.state.dice is not None:
            if write_now or scene.state.rolls_left == 0:
                write_something(app, scene, pick)
                continue
            for i in range(5):
                if holds >> i & 1:
                    app.dispatch(Action("toggle_die", i))
        for _ in range(abs(moves)):
            app.dispatch(Action("down" if moves > 0 else "up"))
        before = scene.input.selection
        if not app.dispatch(Action("roll")):          # every die held: write instead
            write_something(app, scene, pick)
            continue
        app.step()
        check_cursor(scene, hints, before)


def test_enter_does_what_the_signal_says(adv_app, artifacts):
    """Hints on: the verdict to roll puts the cursor on Roll, so Enter rolls; to write, on
    the box, so Enter writes (asking first while rolls remain)."""
    app = adv_app
    scene = app.switch("solo_game", seed_text="one signal")
    app.step()
    assert scene.focus_id == "roll"
    key(app, pygame.K_RETURN)                         # a turn starts on Roll: Enter rolls
    assert scene.state.dice is not None
    for _ in range(40):
        st = scene.state
        if st.over:
            break
        v = verdict_options(scene.advice(), 1)[0]
        seq, turn = st.seq, st.turn
        texts = drawn_texts(app)
        assert scene.choice_text(v, st.sheets[0].total(st.ruleset)) in texts
        key(app, pygame.K_RETURN)
        if v[0] == "roll":
            assert scene.state.turn == turn and scene.state.rolls_left == st.rolls_left - 1
            if not v[1]:
                assert lang.t("game.advisor.roll_all_caption") in texts
                app.screenshot(artifacts / "client_signal_roll_all.png")
        else:
            assert scene.input.pending == (v[1], "register" if v[2] and st.rolls_left else "scratch") \
                or scene.state.turn != turn
            if scene.state.turn == turn:
                app.screenshot(artifacts / "client_signal_write.png")
                key(app, pygame.K_RETURN)
            assert scene.state.sheets[0].get(v[1]) == v[2]
            key(app, pygame.K_RETURN)                   # the next turn: Enter rolls
        assert scene.state.seq > seq


def test_roll_all_is_said_under_the_dice(adv_app, artifacts):
    from tests.test_client_analysis import game_scene
    app = adv_app
    app.profile.settings["show_hints"] = True
    sheet = Sheet(tuple(None if b in ("small_straight", "large_straight") else 0 for b in BOXES))
    st0 = new_game(Setup("bonanza", (Seat("P1"),)))
    st = GameState(setup=st0.setup, sheets=(sheet,), active=0, turn=0, rolls=1, dice=(1, 1, 1, 2, 2), seq=1)
    sc = game_scene(app, [st])
    v = verdict_options(sc.advice(), 1)[0]
    assert v[:2] == ("roll", ())
    texts = drawn_texts(app)
    caption = lang.t("game.advisor.roll_all_caption")
    assert caption in texts and sc.focus_id == "roll" and sc.roll_all_hint()
    app.screenshot(artifacts / "client_signal_roll_all_caption.png")
    app.profile.settings["show_hints"] = False
    assert caption not in drawn_texts(app)


def test_nothing_of_the_roll_shows_before_the_dice_land(tumbling_app, artifacts):
    app = tumbling_app
    app.profile.settings["show_hints"] = True
    scene = app.switch("solo_game", seed_text="dice in the air")
    app.step()
    key(app, pygame.K_r)
    assert scene.dice_landing()
    st = scene.state
    previews = {str(p) for p in scene.input.previews(st).values() if p}
    adv = scene.advice()
    lines = [scene.choice_text(o, 0) for o in verdict_options(adv)]
    texts = drawn_texts(app)
    app.screenshot(artifacts / "client_signal_mid_tumble.png")
    assert not previews & set(texts), "a preview is drawn while the dice tumble"
    assert not set(lines) & set(texts), "the verdict is drawn while the dice tumble"
    assert scene.hint_mask() is None and scene.verdict() is None
    # no jump either: the cursor moves when the dice are down
    assert scene.focus_id == "roll"
    step_until(app, lambda: not scene.dice_landing(), timeout=5, what="the dice to land")
    app.step(FRAME)
    texts = drawn_texts(app)
    app.screenshot(artifacts / "client_signal_landed.png")
    assert previews & set(texts) and lines[0] in texts


def test_typing_on_the_solo_screen_fills_the_seed(app):
    key(app, pygame.K_RETURN)                          # title: Solo
    setup = app.scene
    assert type(setup).__name__ == "SoloSetupScene"
    type_text(app, "my run")
    assert setup.widget("seed").value == "my run"
    key(app, pygame.K_RETURN)
    assert type(app.scene).__name__ == "SoloGameScene" and app.scene.seed_text == "my run"


def test_the_pause_menu_reaches_settings_and_rules_and_the_run_clock_runs_on(app, artifacts):
    """A run's time is wall-clock time: the pause menu covers the game, it never stops the
    clock (a pause that stopped it would shorten a run)."""
    from tests.pilot import click
    now = [100.0]
    app.wall = lambda: now[0]
    app.profile.settings["show_hints"] = True
    game = app.switch("solo_game", seed_text="a pause")
    app.step()
    key(app, pygame.K_r)
    now[0] += 0.5
    before = game.elapsed()
    assert before == pytest.approx(0.5)
    click(app, "give_up")                                # the button beside Hints is Menu now
    pause = app.scene
    assert type(pause).__name__ == "PauseScene"
    texts = drawn_texts(app)
    assert lang.t("pause.clock_runs") in texts
    app.screenshot(artifacts / "client_pause_menu.png")
    now[0] += 2.0                                        # two seconds in the menu
    app.step(FRAME)
    assert game.elapsed() == pytest.approx(before + 2.0)
    # settings from the menu: hints off there, back to the menu, then to the game
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    assert type(app.scene).__name__ == "SettingsScene"
    app.profile.settings["show_hints"] = False
    key(app, pygame.K_ESCAPE)
    assert app.scene is pause
    key(app, pygame.K_DOWN)                              # Rules
    key(app, pygame.K_RETURN)
    assert type(app.scene).__name__ == "RulesScene"
    key(app, pygame.K_ESCAPE)
    assert app.scene is pause
    key(app, pygame.K_ESCAPE)                            # Escape resumes
    assert app.scene is game and game.dialog is None
    assert game.elapsed() == pytest.approx(before + 2.0)
    assert game.hint_mask() is None and game.verdict() is None


def test_escape_on_the_title_asks_to_quit(app):
    key(app, pygame.K_ESCAPE)
    assert app.running and app.scene.focus_id == "quit"
    assert app.toast.visible and app.toast.text == lang.t("title.quit_ask")
    key(app, pygame.K_RETURN)
    assert not app.running


def test_a_resize_below_the_smallest_layout_is_clamped_in_the_same_window(app):
    from bonanza.client import theme
    from bonanza.client.app import _sdl_window
    win = _sdl_window()
    assert win is not None and tuple(win.minimum_size) == theme.MIN_WINDOW
    before = win.id
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=800, h=400, size=(800, 400)))
    app.step()
    assert app.screen.get_size() == theme.MIN_WINDOW
    assert _sdl_window().id == before and app.screen is pygame.display.get_surface()
    # the size is remembered for the next start as the window has it now
    assert app.profile.settings["window_size"] == list(theme.MIN_WINDOW)


def test_the_results_of_a_given_up_game_say_so_and_show_no_time(app, artifacts):
    game = app.switch("solo_game", seed_text="given up")
    app.step()
    key(app, pygame.K_r)
    for _ in range(30):
        app.step(FRAME)
    key(app, pygame.K_ESCAPE)                            # the pause menu
    for _ in range(3):
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)                            # Give up: the question
    assert app.scene is game and game.dialog == "give_up"
    key(app, pygame.K_LEFT)
    key(app, pygame.K_RETURN)
    app.step()
    assert type(app.scene).__name__ == "ResultsScene"
    texts = drawn_texts(app)
    app.screenshot(artifacts / "client_results_given_up.png")
    assert lang.t("results.given_up") in texts
    timer = lang.t("game.timer", time="")
    assert not any(t.startswith(timer.strip()) for t in texts), texts


def test_the_results_sum_is_not_squeezed(app):
    """"65/63" on the results' sheet is drawn at the size of the points beside it."""
    from bonanza.core.game import Seat
    from bonanza.core.match import Match
    m = Match.create("bonanza", [Seat("P")], b"squeeze".ljust(32, b"."), mode="solo")
    while not m.state.over:
        m.roll([False] * 5)
        st = m.state
        free = st.sheets[0].free_boxes()
        m.write(max(free, key=lambda b: (b in ("ones", "twos", "threes", "fours", "fives", "sixes"), -free.index(b))))
    app.switch("results_of_match", m, 12.0, "solo", None)
    app.step()
    widgets.FIT_REPORT.clear()
    app.draw()
    sheet = m.state.sheets[0]
    rs = m.state.ruleset
    text = f"{sheet.upper_sum}/{rs.upper_threshold}"
    sizes = {t: px for t, px, *_ in widgets.FIT_REPORT}
    assert text in sizes
    points = [px for t, px, *_ in widgets.FIT_REPORT if t.isdigit() and len(t) <= 2 and px < 40]
    assert points and sizes[text] >= max(points)
