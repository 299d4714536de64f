"""The play screen's key hints name only what a key would do now (game_base.OPTIONAL_HINTS):
U (L3 on a pad) while a practice game has something to take back, and nowhere else; M (R3)
while a table shows quick reactions, which now mutes a player by keyboard and by pad as a
click on the name does.  Frames at 960x540 in six languages."""
from __future__ import annotations

import pygame

from bonanza.client import lang
from tests.pilot import FRAME, drawn_overflows, key, window

SMALL = (960, 540)


def pad(app, button: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, button=button, instance_id=0))
    app.step(FRAME)


def footer(scene) -> str:
    return scene.footer_text()


def test_u_is_in_the_key_hints_only_while_a_practice_game_can_take_something_back(app):
    from bonanza.client.actions import Action
    from bonanza.client.scenes.game import SoloGameScene
    from tests.doubles import DemoConnection
    undo, undo_pad = lang.t("game.controls_undo"), lang.t("game.controls_pad_undo")
    game = SoloGameScene(app, seed_text="hints", mode="practice")
    app.push(game)
    app.step()
    assert undo not in footer(game)                    # nothing to take back before a roll
    key(app, pygame.K_r)
    assert undo not in footer(game)                    # a roll is never taken back
    key(app, pygame.K_1)
    assert footer(game).endswith(" · " + undo)         # a hold is
    app.input_kind = "controller"
    assert footer(game).endswith(" · " + undo_pad) and undo not in footer(game)
    app.input_kind = "keyboard"
    key(app, pygame.K_u)
    assert undo not in footer(game)
    # a game that is not practice never offers it, holds or not
    app.to_title()
    solo = SoloGameScene(app, seed_text="hints")
    app.push(solo)
    app.step()
    key(app, pygame.K_r)
    key(app, pygame.K_1)
    assert not solo.enabled(Action("undo"))
    assert undo not in footer(solo) and lang.t("table.controls_mute") not in footer(solo)
    # nor does a table
    app.to_title()
    table = app.make("table", DemoConnection(seats=2))
    app.push(table)
    app.step()
    assert undo not in footer(table)


def test_m_and_r3_mute_a_player_as_a_click_on_the_name_does(app, artifacts):
    from bonanza.client.actions import Action
    from tests.doubles import DemoConnection
    table = app.make("table", DemoConnection(seats=4))
    app.push(table)
    app.step()
    assert table.reacts() and table.conn.seat == 0
    mute = lang.t("table.controls_mute")
    assert footer(table).endswith(" · " + mute)
    key(app, pygame.K_m)                                     # the cursor opens on the next seat
    assert table.mute_cursor == 1
    assert footer(table) == lang.t("table.mute_controls")
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)
    assert table.mute_cursor == 3
    key(app, pygame.K_RIGHT)                                 # round again, past this seat
    assert table.mute_cursor == 1
    key(app, pygame.K_LEFT)
    assert table.mute_cursor == 3
    key(app, pygame.K_RETURN)                                # Enter mutes Bot Bram, not a box
    assert table.reactions.muted == {3}
    assert app.toast.text == table.t("table.reactions_muted", name="Bot Bram")
    assert table.reactions.received({"seat": 3, "emote": "gg"}, 4, app.now) is None
    app.draw()
    app.screenshot(artifacts / "client_mute_cursor.png")
    key(app, pygame.K_ESCAPE)                                # Escape puts the cursor away only
    assert table.mute_cursor is None and table.dialog is None and type(app.scene) is type(table)
    assert footer(table).endswith(" · " + mute)
    # the pad: the right stick's click, the D-pad, A and B
    app.input_kind = "controller"
    assert footer(table).endswith(" · " + lang.t("table.controls_pad_mute"))
    pad(app, pygame.CONTROLLER_BUTTON_RIGHTSTICK)
    assert table.mute_cursor == 1 and footer(table) == lang.t("table.mute_controls_pad")
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_LEFT)
    assert table.mute_cursor == 3
    pad(app, pygame.CONTROLLER_BUTTON_A)                     # A again: heard again
    assert table.reactions.muted == set()
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_RIGHT)
    pad(app, pygame.CONTROLLER_BUTTON_A)
    assert table.reactions.muted == {1}
    pad(app, pygame.CONTROLLER_BUTTON_B)
    assert table.mute_cursor is None
    pad(app, pygame.CONTROLLER_BUTTON_RIGHTSTICK)            # R3 puts it away too
    pad(app, pygame.CONTROLLER_BUTTON_RIGHTSTICK)
    assert table.mute_cursor is None
    # a dialog takes over: the cursor goes, M does nothing, and the hint goes with it
    app.input_kind = "keyboard"
    key(app, pygame.K_m)
    table.dialog = "give_up"
    app.step()
    assert table.mute_cursor is None and not table.enabled(Action("mute"))
    assert mute not in footer(table)


def test_a_watcher_and_a_one_window_table_have_no_mute_key(app):
    from tests.doubles import DemoConnection
    conn = DemoConnection(seats=2)
    conn.seat = None                                          # a watcher
    table = app.make("table", conn)
    app.push(table)
    app.step()
    assert not table.reacts()
    key(app, pygame.K_m)
    assert table.mute_cursor is None
    assert lang.t("table.controls_mute") not in footer(table)


def test_the_new_key_hints_fit_in_six_languages_at_960x540(data_dirs, artifacts):
    from bonanza.client.i18n import LANGUAGES
    from bonanza.client.scenes.game import SoloGameScene
    from tests.doubles import DemoConnection
    problems = []
    with window(data_dirs["data"], size=SMALL) as app:
        for code in LANGUAGES:
            lang.set_language(code)
            for kind in ("keyboard", "controller"):
                app.input_kind = kind
                game = SoloGameScene(app, seed_text="hints", mode="practice")
                app.push(game)
                app.step()
                key(app, pygame.K_r)
                key(app, pygame.K_1)
                app.input_kind = kind
                assert lang.t("game.controls_undo" if kind == "keyboard" else "game.controls_pad_undo") \
                    in game.footer_text()
                problems += drawn_overflows(app, artifacts / f"client_hints_practice_{kind}_{code}.png",
                                            code, kind, "practice")
                app.to_title()
                table = app.make("table", DemoConnection(seats=4))
                app.push(table)
                app.step()
                app.input_kind = kind
                problems += drawn_overflows(app, artifacts / f"client_hints_table_{kind}_{code}.png",
                                            code, kind, "table")
                table.mute_cursor = 2
                problems += drawn_overflows(app, artifacts / f"client_hints_mute_{kind}_{code}.png",
                                            code, kind, "mute")
                app.to_title()
    assert not problems, "\n".join(map(str, problems[:40]))
