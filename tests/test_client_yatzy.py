"""Yatzy in the window: chosen on the solo screen, played to the results on its own 15-box
sheet, and that sheet drawn with four seats at 960x540 in every language (frames saved)."""
from __future__ import annotations

import pygame

from bonanza.client import lang, theme, widgets
from bonanza.core.game import GameState, Seat, Setup, new_game
from bonanza.core.rules import RULESETS
from tests.pilot import key

YATZY = RULESETS["yatzy"]
LANGS = ("en", "pt-PT", "pt-BR", "es", "fr", "nl")


def scene_name(app) -> str:
    return type(app.scene).__name__


def test_solo_screen_chooses_yatzy_and_a_game_fills_its_15_boxes(app, artifacts):
    key(app, pygame.K_RETURN)                     # title -> solo
    assert scene_name(app) == "SoloSetupScene"
    setup = app.scene
    assert setup.ruleset == "bonanza"
    shown = []
    for _ in range(2):                            # bonanza -> yacht -> yatzy
        setup.on_press("ruleset")
        shown.append(setup.ruleset)
    assert shown == ["yacht", "yatzy"]
    app.step()
    app.screenshot(artifacts / "client_solo_setup_yatzy.png")
    setup.on_press("start")
    app.step()
    assert scene_name(app) == "SoloGameScene"
    game = app.scene
    assert game.state.setup.ruleset == "yatzy"
    boxes = [k for kind, k in game.sheet_view.rows if kind == "box"]
    assert boxes == list(YATZY.boxes)
    assert ("sum", "joker") not in game.sheet_view.rows
    for turn in range(15):
        key(app, pygame.K_r)
        key(app, pygame.K_r)
        key(app, pygame.K_r)
        assert game.state.rolls_left == 0
        if turn == 9:
            app.screenshot(artifacts / "client_yatzy_solo.png")
        key(app, pygame.K_RETURN)
        if scene_name(app) == "SoloGameScene" and game.input.pending:
            key(app, pygame.K_RETURN)             # a scratch asks once more
    app.step()
    assert scene_name(app) == "ResultsScene"
    assert game.state.over and len(game.state.sheets[0].scores) == 15
    app.screenshot(artifacts / "client_yatzy_results.png")


def four_seats() -> GameState:
    """A yatzy table of four mid-game, the third seat to write a full house."""
    names = ("Ada", "Bram", "Chloé", "Duarte")
    st = new_game(Setup("yatzy", tuple(Seat(n) for n in names)))
    filled = [
        {"ones": 3, "twos": 6, "one_pair": 12, "two_pairs": 0, "yatzy": 50, "chance": 24},
        {"threes": 9, "fours": 16, "three_kind": 15, "small_straight": 15},
        {"fives": 20, "sixes": 24, "four_kind": 20, "large_straight": 20, "chance": 22},
        {"ones": 2, "full_house": 28, "yatzy": 0},
    ]
    sheets = tuple(type(st.sheets[0])(tuple(f.get(b) for b in YATZY.boxes), 0, YATZY.layout)
                   for f in filled)
    return GameState(setup=st.setup, sheets=sheets, active=2, turn=17, rolls=1,
                     dice=(3, 3, 5, 5, 5), seq=40)


def test_the_15_box_sheet_fits_four_seats_at_960x540_in_six_languages(app, artifacts):
    from bonanza.client.scenes.game_base import GameScene

    class Stub(GameScene):
        @property
        def state(self):
            return self.st

        my_seat = 2

        def my_turn(self):
            return True

    app.apply_window(theme.MIN_WINDOW)
    assert tuple(app.screen.get_size()) == (960, 540)
    problems = []
    for code in LANGS:
        app.set_language(code)
        app.to_title()
        sc = Stub.__new__(Stub)
        sc.st = four_seats()
        GameScene.__init__(sc, app, "yatzy", 4)
        widgets.FIT_REPORT.clear()
        app.push(sc)
        app.step(1 / 60)                          # the first frame draws the labels too
        problems += [(code, t, px, w, mw) for t, px, w, mw in widgets.FIT_REPORT
                     if w > mw + 1 or px < theme.MIN_READABLE_PX]
        texts = [t for t, *_ in widgets.FIT_REPORT]
        for b in ("one_pair", "two_pairs", "yatzy"):
            assert lang.t(f"box.{b}") in texts, (code, b)
        app.screenshot(artifacts / f"client_yatzy_sheet_{code}.png")
    assert not problems, problems[:20]


def test_host_setup_offers_yatzy_and_asks_the_relay_for_it(app, artifacts, monkeypatch):
    from bonanza.client.scenes import lobby
    from tests.doubles import host_without_relay

    host_without_relay(monkeypatch)
    app.profile.name = "Ana"
    app.apply_window(theme.MIN_WINDOW)
    problems = []
    for code in LANGS:
        app.set_language(code)
        app.to_title()
        scene = lobby.HostSetupScene(app)
        app.push(scene)
        while scene.ruleset != "yatzy":
            scene.change("ruleset", 1)
        assert scene.value_text("ruleset") == lang.t("lobby.ruleset.yatzy")
        widgets.FIT_REPORT.clear()
        app.step(1 / 60)
        app.draw()
        problems += [(code, t, px, w, mw) for t, px, w, mw in widgets.FIT_REPORT
                     if w > mw + 1 or px < theme.MIN_READABLE_PX]
        app.screenshot(artifacts / f"client_host_setup_yatzy_{code}.png")
    assert not problems, problems[:20]
    scene.go()
    assert app.scene.request["type"] == "create_table" and app.scene.request["ruleset"] == "yatzy"
    assert "daily" not in app.scene.request
