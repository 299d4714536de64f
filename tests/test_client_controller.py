"""A game controller alone plays: posted SDL controller events (what a pad sends once SDL has
opened it) go through client/actions.py to the same named actions as keys, under the dummy
driver, from the title to a held die and a written box."""
from __future__ import annotations

import pygame

from bonanza.client import actions as A
from tests import pilot


def pad(app, button: int, steps: int = 1, instance: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, button=button, instance_id=instance))
    for _ in range(steps):
        app.step(pilot.FRAME)


def stick(app, axis: int, value: int, instance: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.CONTROLLERAXISMOTION, axis=axis, value=value,
                                         instance_id=instance))
    app.step(pilot.FRAME)


def test_every_button_maps_to_a_named_action():
    names = {b: a.name for b, a in A.BUTTONMAP.items()}
    assert names[pygame.CONTROLLER_BUTTON_A] == A.CONFIRM
    assert names[pygame.CONTROLLER_BUTTON_B] == A.CANCEL
    assert names[pygame.CONTROLLER_BUTTON_X] == A.ROLL
    assert names[pygame.CONTROLLER_BUTTON_Y] == A.TOGGLE_HINTS
    assert {names[pygame.CONTROLLER_BUTTON_DPAD_UP], names[pygame.CONTROLLER_BUTTON_DPAD_DOWN],
            names[pygame.CONTROLLER_BUTTON_DPAD_LEFT], names[pygame.CONTROLLER_BUTTON_DPAD_RIGHT]} == {
        A.UP, A.DOWN, A.LEFT, A.RIGHT}


def test_the_stick_acts_once_per_push_and_rearms_at_rest():
    s = A.Sticks()
    y = pygame.CONTROLLER_AXIS_LEFTY
    assert s.action(3, y, 25000) == A.Action(A.DOWN)
    assert s.action(3, y, 30000) is None           # held down: no repeat
    assert s.action(3, y, 15000) is None           # between the thresholds: still pushed
    assert s.action(3, y, 2000) is None            # back at rest
    assert s.action(3, y, -26000) == A.Action(A.UP)
    assert s.action(4, y, 26000) == A.Action(A.DOWN)   # another pad has its own stick
    assert s.action(3, pygame.CONTROLLER_AXIS_TRIGGERLEFT, 32000) is None


def test_a_controller_alone_starts_a_game_holds_a_die_and_writes_a_box(app, artifacts):
    assert app.scene.focus_id == "solo"
    pad(app, pygame.CONTROLLER_BUTTON_A)                     # Solo
    assert type(app.scene).__name__ == "SoloSetupScene"
    assert app.input_kind == "controller"
    for _ in range(8):
        if app.scene.focus_id == "start":
            break
        pad(app, pygame.CONTROLLER_BUTTON_DPAD_DOWN)
    assert app.scene.focus_id == "start"
    pad(app, pygame.CONTROLLER_BUTTON_A)
    game = app.scene
    assert type(game).__name__ == "SoloGameScene"
    pad(app, pygame.CONTROLLER_BUTTON_X)                     # roll
    assert game.state.dice is not None and game.state.rolls_left == 2
    pilot.step_until(app, lambda: not game.dice_landing(), timeout=5, what="the dice to land")
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_RIGHT)            # the cursor onto the first die...
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_RIGHT)            # ... and the second
    assert game.die_cursor == 1
    pad(app, pygame.CONTROLLER_BUTTON_A)                     # hold it
    assert game.input.held == [False, True, False, False, False]
    app.screenshot(artifacts / "controller_die_focus.png")
    pad(app, pygame.CONTROLLER_BUTTON_X)                     # roll again, the held die stays
    assert game.state.rolls_left == 1 and game.die_cursor is None
    pilot.step_until(app, lambda: not game.dice_landing(), timeout=5, what="the dice to land")
    stick(app, pygame.CONTROLLER_AXIS_LEFTY, 30000)          # the stick moves over the boxes
    stick(app, pygame.CONTROLLER_AXIS_LEFTY, 0)
    box = game.input.selection
    assert box is not None
    pad(app, pygame.CONTROLLER_BUTTON_A)                     # write? (asks while rolls remain)
    assert game.input.pending is not None
    pad(app, pygame.CONTROLLER_BUTTON_B)                     # B cancels, as Escape does
    assert game.input.pending is None
    pad(app, pygame.CONTROLLER_BUTTON_A)
    pad(app, pygame.CONTROLLER_BUTTON_A)                     # asked and confirmed
    assert game.state.turn == 1
    app.screenshot(artifacts / "controller_after_write.png")


def test_keys_after_a_controller_show_keyboard_hints_again(app):
    pad(app, pygame.CONTROLLER_BUTTON_DPAD_DOWN)
    assert app.input_kind == "controller"
    pilot.key(app, pygame.K_UP)
    assert app.input_kind == "keyboard"


def test_a_controller_plugged_in_and_gone_at_once_is_harmless(app):
    pygame.event.post(pygame.event.Event(pygame.CONTROLLERDEVICEADDED, device_index=7))
    pygame.event.post(pygame.event.Event(pygame.CONTROLLERDEVICEREMOVED, instance_id=99))
    app.step(pilot.FRAME)
    assert app.controllers == {} and app.running
