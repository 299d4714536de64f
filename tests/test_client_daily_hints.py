"""Lines the game and results screens show (kept beside the daily tests):
the joker hint under the dice, and the results' verification verdict line."""
from __future__ import annotations

import pygame
import pytest

from bonanza.client import i18n, lang, theme, widgets
from bonanza.core.game import GameState, Seat, Setup, new_game
from bonanza.core.rules import BOXES, Sheet


def sheet(**filled) -> Sheet:
    return Sheet(tuple(filled.get(b) for b in BOXES))


def joker_state(seats: int, sh: Sheet, dice=(4, 4, 4, 4, 4)) -> GameState:
    st = new_game(Setup("bonanza", tuple(Seat(f"P{i + 1}") for i in range(seats))))
    sheets = (sh,) + tuple(Sheet() for _ in range(seats - 1))
    return GameState(setup=st.setup, sheets=sheets, active=0, turn=0, rolls=1, dice=tuple(dice), seq=1)


def hint_scene(app, state):
    from bonanza.client.scenes.game_base import GameScene

    class Scene(GameScene):
        @property
        def state(self):
            return state

        my_seat = 0

        def my_turn(self):
            return True

    sc = Scene(app, "bonanza", len(state.setup.seats))
    app.push(sc)
    return sc


LOWER_FILLED = {b: 0 for b in ("three_kind", "four_kind", "full_house", "small_straight", "large_straight",
                               "chance")}
CASES = [
    # (sheet, key, params)
    (sheet(bonanza=50), "game.joker_hint.upper_bonus", {"box": "box.fours", "bonus": 50}),
    (sheet(bonanza=0), "game.joker_hint.upper", {"box": "box.fours"}),
    (sheet(bonanza=50, fours=16), "game.joker_hint.lower_bonus", {"bonus": 50}),
    (sheet(bonanza=0, fours=12), "game.joker_hint.lower", {}),
    (sheet(bonanza=50, fours=16, **LOWER_FILLED), "game.joker_hint.scratch_bonus", {"bonus": 50}),
    (sheet(bonanza=0, fours=8, **LOWER_FILLED), "game.joker_hint.scratch", {}),
]


def expected(key, params):
    p = dict(params)
    if "box" in p:
        p["box"] = lang.t(p["box"])
    return lang.t(key, **p)


def test_joker_hint_names_the_bonus_and_where_the_roll_goes(app, artifacts):
    assert expected(*CASES[0][1:]) == "Joker! +50 bonus — must go in Fours"
    assert expected(*CASES[3][1:]) == "Joker! Any free lower box counts in full"
    assert expected(*CASES[5][1:]) == "Joker! Scratch an upper box"
    for sh, key, params in CASES:
        sc = hint_scene(app, joker_state(1, sh))
        assert sc.joker_hint() == expected(key, params)
        widgets.FIT_REPORT.clear()
        app.step()
        assert expected(key, params) in [text for text, *_ in widgets.FIT_REPORT]
    app.screenshot(artifacts / "client_joker_hint_scratch.png")
    # no hint without a joker: not five equal, Bonanza box free, or yacht rules
    assert hint_scene(app, joker_state(1, sheet(bonanza=50), dice=(4, 4, 4, 4, 2))).joker_hint() is None
    assert hint_scene(app, joker_state(1, sheet())).joker_hint() is None
    yacht = joker_state(1, sheet(bonanza=50))
    yacht = GameState(setup=Setup("yacht", yacht.setup.seats), sheets=yacht.sheets, active=0, rolls=1,
                      dice=yacht.dice, seq=1)
    assert hint_scene(app, yacht).joker_hint() is None
    sc = hint_scene(app, joker_state(1, sheet(bonanza=50)))
    app.step()
    app.screenshot(artifacts / "client_joker_hint.png")


@pytest.mark.parametrize("seats", [1, 2, 4])
def test_joker_hint_fits_in_six_languages_at_the_smallest_window(app, artifacts, seats):
    app.apply_window(theme.MIN_WINDOW)
    problems = []
    for code in i18n.LANGUAGES:
        app.set_language(code)
        for sh, key, params in CASES:
            sc = hint_scene(app, joker_state(seats, sh))
            widgets.FIT_REPORT.clear()
            app.step()
            text = sc.joker_hint()
            drawn = [r for r in widgets.FIT_REPORT if len(r[0]) > 7 and r[0] in text]
            assert drawn, (code, key)
            # the line sits between the dice and the Roll button (above the dice on the 2-seat table)
            for t, px, width, max_width in drawn:
                if width > max_width + 1 or px < theme.MIN_READABLE_PX:
                    problems.append((code, seats, key, t, px, width, max_width))
            app.pop()
        if code == "pt-PT":
            pygame.image.save(app.screen, str(artifacts / f"client_small_joker_hint_{seats}.png"))
    assert not problems, "\n".join(map(str, problems))


def finished_log() -> tuple:
    from bonanza.core.game import allowed
    from bonanza.core.match import Match
    m = Match.create("bonanza", [Seat("Ana")], bytes(32), mode="solo")
    while not m.state.over:
        if m.state.dice is None:
            m.roll([False] * 5)
        else:
            m.write(allowed(m.state)[0])
    m.finish({"duration_ms": 1234})
    return m, m.log.to_bytes()


def test_results_verdict_line_reads_naturally(app, artifacts):
    from bonanza.client.scenes.results import ResultsScene
    m, data = finished_log()
    bad = bytearray(data)
    bad[len(bad) // 2] ^= 0xFF
    for code in i18n.LANGUAGES:
        app.set_language(code)
        label = lang.t("results.verdict", verdict="").strip()
        for log, ok in ((data, True), (bytes(bad), False)):
            sc = ResultsScene(app, m.state, log, elapsed=1.2)
            app.push(sc)
            widgets.FIT_REPORT.clear()
            app.step()
            assert sc.verdict.ok is ok
            texts = [t for t, *_ in widgets.FIT_REPORT]
            if ok:
                line = "✔ " + lang.t("verify.ok")
            else:
                reason = lang.t(f"verify.fail.{sc.verdict.code}", detail=sc.verdict.detail)
                line = "✖ " + lang.t("results.not_verified", reason=reason)
            assert line in texts, (code, texts)
            assert not any(t.startswith(("✔ " + label, "✖ " + label)) for t in texts), code
            if code == "fr" and ok:
                app.screenshot(artifacts / "client_results_verdict_fr.png")
            app.pop()
    app.set_language("en")
    assert lang.t("verify.ok") == "Verified: every roll and every move is correct."
