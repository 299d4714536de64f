"""The ONE place where keys, clicks and game-controller buttons become named actions.

Scenes never see pygame events: ``actions_for(event, scene, layout)`` turns an
event into ``Action``s (keys through ``KEYMAP``, clicks through the scene's
clickable ``targets()``, controller buttons through ``BUTTONMAP`` and the left stick
through ``Sticks``), and the app dispatches an action only when the scene
says it is enabled (``scene.enabled(action)``), Textual-style.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import pygame


class Action(NamedTuple):
    name: str
    arg: Any = None

    def __repr__(self) -> str:
        return f"Action({self.name}{'' if self.arg is None else ', ' + repr(self.arg)})"


# Named actions and what they mean (scenes interpret them in context).
ROLL = "roll"                  # roll the unheld dice
TOGGLE_DIE = "toggle_die"      # arg: die index 0..4
BOX = "box"                    # arg: box name (a click on a sheet cell)
PREV = "prev"                  # move the selection/focus back
NEXT = "next"                  # move the selection/focus forward
UP, DOWN, LEFT, RIGHT = "up", "down", "left", "right"
CONFIRM = "confirm"            # Enter: write the selected box / press the focused button
CANCEL = "cancel"              # Escape: cancel a pending confirmation / go back
TOGGLE_HINTS = "toggle_hints"
FIRST, LAST = "first", "last"
SCROLL = "scroll"              # arg: +lines down / -lines up
TEXT = "text"                  # arg: typed text (only while a text field has focus)
BACKSPACE = "backspace"
DROP_FILE = "drop_file"        # arg: path dropped on the window
PRESS = "press"                # arg: a button id (a click on a button)
FOCUS = "focus"                # arg: a widget id (a click on a text field)
COPY = "copy"                  # copy what the screen offers to share (the daily's result)
RESET = "reset"                # end this run and start the next one of its category at once
TOGGLE_SPLITS = "toggle_splits"  # show or hide the splits panel during a run
UNDO = "undo"                  # practice: take back the last hold or write (never a roll)
KEYBOARD = "keyboard"          # a controller's A on a text field: the on-screen keyboard opens
REACT = "react"                # arg: index into core.settings.REACTIONS (a quick reaction at a table)
MUTE = "mute"                  # at a table: a cursor over the other players' names (Enter mutes one)

KEYMAP: dict[int, Action] = {
    pygame.K_r: Action(ROLL),
    pygame.K_1: Action(TOGGLE_DIE, 0), pygame.K_2: Action(TOGGLE_DIE, 1),
    pygame.K_3: Action(TOGGLE_DIE, 2), pygame.K_4: Action(TOGGLE_DIE, 3),
    pygame.K_5: Action(TOGGLE_DIE, 4),
    pygame.K_KP1: Action(TOGGLE_DIE, 0), pygame.K_KP2: Action(TOGGLE_DIE, 1),
    pygame.K_KP3: Action(TOGGLE_DIE, 2), pygame.K_KP4: Action(TOGGLE_DIE, 3),
    pygame.K_KP5: Action(TOGGLE_DIE, 4),
    pygame.K_h: Action(TOGGLE_HINTS),
    pygame.K_c: Action(COPY),
    pygame.K_F5: Action(RESET),
    pygame.K_s: Action(TOGGLE_SPLITS),
    pygame.K_u: Action(UNDO),
    pygame.K_m: Action(MUTE),
    # quick reactions at a table: the number keys after the dice's 1-5
    pygame.K_6: Action(REACT, 0), pygame.K_7: Action(REACT, 1), pygame.K_8: Action(REACT, 2),
    pygame.K_9: Action(REACT, 3), pygame.K_0: Action(REACT, 4),
    pygame.K_UP: Action(UP), pygame.K_DOWN: Action(DOWN),
    pygame.K_LEFT: Action(LEFT), pygame.K_RIGHT: Action(RIGHT),
    pygame.K_TAB: Action(NEXT),
    pygame.K_RETURN: Action(CONFIRM), pygame.K_KP_ENTER: Action(CONFIRM),
    pygame.K_SPACE: Action(CONFIRM),
    pygame.K_ESCAPE: Action(CANCEL),
    pygame.K_HOME: Action(FIRST), pygame.K_END: Action(LAST),
    pygame.K_PAGEUP: Action(SCROLL, -10), pygame.K_PAGEDOWN: Action(SCROLL, 10),
}
# while a text field has focus only these keys stay actions; the rest is typing
TEXT_MODE_KEYS = {pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE, pygame.K_TAB,
                  pygame.K_UP, pygame.K_DOWN}
# ... and these move the caret inside the field (the scene gives them to the field)
CARET_KEYS = {pygame.K_LEFT: Action("caret", -1), pygame.K_RIGHT: Action("caret", 1),
              pygame.K_HOME: Action("caret", "home"), pygame.K_END: Action("caret", "end"),
              pygame.K_DELETE: Action("delete")}
CARET = "caret"                # arg: -1 / +1 / "home" / "end" (text fields only)
DELETE = "delete"              # the character after the caret (text fields only)


# SDL's game-controller layout names buttons by position (A is the bottom face button on
# every pad), so one map serves Xbox, PlayStation, Switch and Steam Deck pads alike.
BUTTONMAP: dict[int, Action] = {
    pygame.CONTROLLER_BUTTON_DPAD_UP: Action(UP), pygame.CONTROLLER_BUTTON_DPAD_DOWN: Action(DOWN),
    pygame.CONTROLLER_BUTTON_DPAD_LEFT: Action(LEFT), pygame.CONTROLLER_BUTTON_DPAD_RIGHT: Action(RIGHT),
    pygame.CONTROLLER_BUTTON_A: Action(CONFIRM), pygame.CONTROLLER_BUTTON_START: Action(CONFIRM),
    pygame.CONTROLLER_BUTTON_B: Action(CANCEL), pygame.CONTROLLER_BUTTON_BACK: Action(CANCEL),
    pygame.CONTROLLER_BUTTON_X: Action(ROLL),
    pygame.CONTROLLER_BUTTON_Y: Action(TOGGLE_HINTS),
    pygame.CONTROLLER_BUTTON_LEFTSHOULDER: Action(PREV),
    pygame.CONTROLLER_BUTTON_RIGHTSHOULDER: Action(NEXT),
    pygame.CONTROLLER_BUTTON_LEFTSTICK: Action(UNDO),     # the stick clicks: buttons nothing else uses
    pygame.CONTROLLER_BUTTON_RIGHTSTICK: Action(MUTE),
}
STICK_ON, STICK_OFF = 20000, 12000      # of 32767: a push past ON acts once, back under OFF re-arms


class Sticks:
    """The left stick as a D-pad: one action per push (hysteresis, so a stick resting
    near the threshold does not chatter), per controller and axis."""

    def __init__(self) -> None:
        self._pushed: dict[tuple[int, int], int] = {}

    def action(self, instance_id: int, axis: int, value: int) -> Action | None:
        if axis not in (pygame.CONTROLLER_AXIS_LEFTX, pygame.CONTROLLER_AXIS_LEFTY):
            return None
        key = (instance_id, axis)
        was = self._pushed.get(key, 0)
        now = -1 if value <= -STICK_ON else 1 if value >= STICK_ON else was if abs(value) > STICK_OFF else 0
        self._pushed[key] = now
        if now == 0 or now == was:
            return None
        if axis == pygame.CONTROLLER_AXIS_LEFTX:
            return Action(LEFT if now < 0 else RIGHT)
        return Action(UP if now < 0 else DOWN)


STICKS = Sticks()       # the sticks' positions are the hardware's, one set per process
CONTROLLER_EVENTS = (pygame.CONTROLLERBUTTONDOWN, pygame.CONTROLLERAXISMOTION)


def key_action(key: int, mod: int = 0, text_mode: bool = False) -> Action | None:
    if text_mode:
        if key == pygame.K_BACKSPACE:
            return Action(BACKSPACE)
        if key in CARET_KEYS:
            return CARET_KEYS[key]
        if key not in TEXT_MODE_KEYS:
            return None
    if key == pygame.K_TAB and mod & pygame.KMOD_SHIFT:
        return Action(PREV)
    if key == pygame.K_z and mod & pygame.KMOD_CTRL:
        return Action(UNDO)
    return KEYMAP.get(key)


def click_action(pos: tuple[int, int], targets) -> Action | None:
    """The action of the topmost target under ``pos`` (targets listed bottom to top)."""
    for rect, action in reversed(list(targets)):
        if rect.collidepoint(pos):
            return action
    return None


def actions_for(event, scene, layout) -> list[Action]:
    """Translate one pygame event into the actions it means for ``scene``."""
    et = event.type
    text_mode = bool(getattr(scene, "text_focus", lambda: False)())
    if et == pygame.KEYDOWN:
        a = key_action(event.key, getattr(event, "mod", 0), text_mode)
        return [a] if a else []
    if et == pygame.TEXTINPUT and text_mode:
        return [Action(TEXT, event.text)]
    if et == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 1:
        a = click_action(event.pos, scene.targets(layout))
        return [a] if a else []
    if et == pygame.MOUSEWHEEL:
        return [Action(SCROLL, -3 * event.y)] if event.y else []
    if et == pygame.DROPFILE:
        return [Action(DROP_FILE, event.file)]
    if et == pygame.CONTROLLERBUTTONDOWN:
        a = BUTTONMAP.get(event.button)
        if text_mode and event.button == pygame.CONTROLLER_BUTTON_A:
            return [Action(KEYBOARD)]       # a pad has no keys: it types on the screen's
        if a is not None and text_mode and a.name in (ROLL, TOGGLE_HINTS, LEFT, RIGHT, UNDO, MUTE):
            return []       # a text field has the focus: these would be typing keys
        return [a] if a else []
    if et == pygame.CONTROLLERAXISMOTION:
        a = STICKS.action(getattr(event, "instance_id", 0), event.axis, event.value)
        return [a] if a else []
    return []
