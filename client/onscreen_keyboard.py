"""An on-screen keyboard, so a text field (a name, a seed, a relay's address and port, a table
code, a file's path) can be filled with a game controller alone.

A on a focused text field opens it (``actions.KEYBOARD``; Start still submits the field as
Enter does).  The app holds it over the scene and turns every action into what the scene
already understands — ``TEXT``, ``BACKSPACE``, ``CARET`` — so each field's own rules (its
length, the characters it takes, a refusal's message) apply exactly as when typing; Done is
Enter in the field.  The D-pad or stick moves over the keys, A presses one, X deletes, Y types
a space, LB/RB move the caret, B closes it keeping what was typed.  A real key press closes it
too: whoever has a keyboard types on it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import pygame

from . import actions as A
from . import lang, theme
from .actions import Action
from .widgets import Button, draw_text, shadowed_panel

# Three pages of ten-key rows.  Letters first; symbols hold what addresses and paths need
# (digits are on every page); the accents page the letters of the six languages' names.
PAGES: dict[str, tuple[str, ...]] = {
    "letters": ("1234567890", "qwertyuiop", "asdfghjkl'", "zxcvbnm-._"),
    "symbols": ("1234567890", "!@#$%&*()/", ':;?+=<>[]"', "{}~^|\\`,_€"),
    "accents": ("àáâãäåæçèé", "êëìíîïñòóô", "õöøœùúûüýÿ", "ßðþ¿¡«»ºª§"),
}
# the bottom row: (key, width in design units); "space" is the wide one
SPECIALS = (("shift", 120), ("symbols", 120), ("accents", 120), ("space", 260), ("backspace", 120),
            ("done", 192))
PANEL = (140, 296, 1000, 416)           # design units: the lower part of the screen
KEY_W, KEY_H, GAP = 90, 52, 8
GRID_W = 10 * KEY_W + 9 * GAP           # the bottom row's widths and gaps add up to it too
GRID_X, GRID_Y = PANEL[0] + (PANEL[2] - GRID_W) // 2, 370


@dataclass
class Key:
    name: str            # a character, or one of SPECIALS' names
    row: int
    rect: tuple[int, int, int, int]


class OnScreenKeyboard:
    """The keys, the one under the cursor and the page shown, for one text field of ``scene``."""

    def __init__(self, scene, field_id: str) -> None:
        self.scene = scene
        self.field_id = field_id
        self.page = "letters"
        self.shift = False
        self.cursor = 0
        self.keys: list[Key] = []
        self._lay_out()
        self.cursor = next(i for i, k in enumerate(self.keys) if k.name == "q")

    # ------------------------------------------------------------------ keys
    def _lay_out(self) -> None:
        keys: list[Key] = []
        for r, row in enumerate(PAGES[self.page]):
            for c, ch in enumerate(row):
                keys.append(Key(ch, r, (GRID_X + c * (KEY_W + GAP), GRID_Y + r * (KEY_H + GAP), KEY_W, KEY_H)))
        x = GRID_X
        y = GRID_Y + len(PAGES[self.page]) * (KEY_H + GAP)
        for name, w in SPECIALS:
            keys.append(Key(name, len(PAGES[self.page]), (x, y, w, KEY_H)))
            x += w + GAP
        self.keys = keys

    def key_at(self, name: str) -> int | None:
        """The index of the key that types or does ``name`` on the page shown (shift aside)."""
        for i, k in enumerate(self.keys):
            if k.name == name or (len(k.name) == 1 and _shifted(k.name) == name):
                return i
        return None

    def page_of(self, ch: str) -> str | None:
        for page, rows in PAGES.items():
            if any(ch in row or ch in "".join(_shifted(c) for c in row) for row in rows):
                return page
        return None

    def label(self, key: Key) -> str:
        if len(key.name) == 1:
            return _shifted(key.name) if self.shift else key.name
        if key.name == "symbols":
            return "abc" if self.page == "symbols" else "?123"
        if key.name == "accents":
            return "abc" if self.page == "accents" else "àé"
        return {"shift": "⇧", "backspace": "⌫", "space": lang.t("keyboard.space"),
                "done": lang.t("keyboard.done")}[key.name]

    # ------------------------------------------------------------------ input
    def targets(self, layout) -> list:
        """Each key is a click target too (a mouse or a touch screen works as well)."""
        return [(layout.rect(k.rect), Action(A.PRESS, i)) for i, k in enumerate(self.keys)]

    def text_focus(self) -> bool:
        return False        # a controller's buttons here are keys, never typing

    def handle(self, action: Action) -> tuple[list[Action], str | None]:
        """What ``action`` types into the field (actions for the scene), and "done" (Enter in
        the field) or "close" when the keyboard goes."""
        n = action.name
        if n in (A.UP, A.DOWN):
            self._move_row(-1 if n == A.UP else 1)
        elif n in (A.LEFT, A.RIGHT):
            row = [i for i, k in enumerate(self.keys) if k.row == self.keys[self.cursor].row]
            self.cursor = row[(row.index(self.cursor) + (-1 if n == A.LEFT else 1)) % len(row)]
        elif n == A.CONFIRM:
            return self._press(self.cursor)
        elif n == A.PRESS and isinstance(action.arg, int) and 0 <= action.arg < len(self.keys):
            self.cursor = action.arg
            return self._press(action.arg)
        elif n == A.ROLL:                       # X
            return [Action(A.BACKSPACE)], None
        elif n == A.TOGGLE_HINTS:               # Y
            return [Action(A.TEXT, " ")], None
        elif n in (A.PREV, A.NEXT):             # LB / RB
            return [Action(A.CARET, -1 if n == A.PREV else 1)], None
        elif n == A.CANCEL:
            return [], "close"
        return [], None

    def _move_row(self, step: int) -> None:
        here = self.keys[self.cursor]
        rows = sorted({k.row for k in self.keys})
        row = rows[(rows.index(here.row) + step) % len(rows)]
        cx = here.rect[0] + here.rect[2] / 2
        self.cursor = min((i for i, k in enumerate(self.keys) if k.row == row),
                          key=lambda i: abs(self.keys[i].rect[0] + self.keys[i].rect[2] / 2 - cx))

    def _press(self, i: int) -> tuple[list[Action], str | None]:
        name = self.keys[i].name
        if len(name) == 1:
            return [Action(A.TEXT, _shifted(name) if self.shift else name)], None
        if name == "space":
            return [Action(A.TEXT, " ")], None
        if name == "backspace":
            return [Action(A.BACKSPACE)], None
        if name == "done":
            return [], "done"
        if name == "shift":
            self.shift = not self.shift
        else:                                   # a page key: its page, or back to letters
            self.page = "letters" if self.page == name else name
            self._lay_out()
            self.cursor = next(j for j, k in enumerate(self.keys) if k.name == name)
        return [], None

    # ------------------------------------------------------------------ frame
    def draw(self, surface: pygame.Surface, layout, field, hover: tuple[int, int]) -> None:
        L = layout
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 110))
        surface.blit(shade, (0, 0))
        shadowed_panel(surface, L.rect(PANEL), theme.FELT_DARK, L.px(14), L.px(5), border=theme.WOOD_LIGHT)
        self._draw_value(surface, L, field)
        for i, k in enumerate(self.keys):
            style = "primary" if k.name == "done" else "secondary"
            active = (k.name == "shift" and self.shift) or k.name == self.page
            b = Button(f"key:{i}", k.rect, None, label=self.label(k), style="primary" if active else style,
                       size=24 if len(k.name) == 1 else 20)
            b.draw(surface, L, L.rect(k.rect).collidepoint(hover), i == self.cursor, True)
        draw_text(surface, lang.t("keyboard.controls_pad"), L.rect((PANEL[0] + 16, PANEL[1] + PANEL[3] - 36,
                                                                    PANEL[2] - 32, 28)),
                  L.font_px(16), theme.TEXT_ON_FELT_SOFT, align="center")

    def _draw_value(self, surface, L, field) -> None:
        """The field again, at the top of the panel (the field itself may be under the keys):
        its own drawing, so a long value scrolls to keep the caret in view as it does there."""
        if field is not None:
            replace(field, rect=(GRID_X, PANEL[1] + 14, GRID_W, 48), size=24).draw(surface, L, False, True)


def _shifted(ch: str) -> str:
    """``ch`` in capitals, when it has one capital letter (ß has none of its own: it stays)."""
    up = ch.upper()
    return up if len(up) == 1 else ch
