"""The guided first game (issue 26, point 5): one turn of a practice game explained one
step at a time over the play screen — the Roll button, the dice, a second roll, the
preview on the sheet, the advisor, the write prompt — each part ringed while its step is
shown.  A step that waits for a move ends when the move is made (by key, mouse or pad);
a step that only explains ends with Enter (or its Next button).  Escape or Skip ends the
guide at any step; the game goes on as practice either way.

The play screen owns a ``Guide`` and asks it three things: whether it takes an action
(``handle``), what to ring (``target``) and where its card goes (``card_rect``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pygame

from . import actions as A
from . import theme
from .widgets import draw_text, draw_wrapped, shadowed_panel


@dataclass(frozen=True)
class Step:
    id: str                                  # texts: guide.<id>
    target: str                              # what is ringed: roll, dice, sheet, advisor
    done: Callable[[Any], bool] | None       # the move that ends it; None: Enter ends it


def _rolled(n: int) -> Callable[[Any], bool]:
    return lambda scene: scene.state.rolls >= n or scene.state.turn > 0


STEPS = (
    Step("roll", "roll", _rolled(1)),
    Step("hold", "dice", lambda s: any(s.input.held) or s.state.rolls >= 2 or s.state.turn > 0),
    Step("reroll", "roll", _rolled(2)),
    Step("preview", "sheet", None),
    Step("advisor", "advisor", None),
    Step("write", "sheet", lambda s: s.state.turn > 0),
    Step("done", "sheet", None),
)


class Guide:
    def __init__(self, on_end: Callable[[], None]) -> None:
        self.index = 0
        self.active = True
        self._on_end = on_end

    @property
    def step(self) -> Step:
        return STEPS[self.index]

    def end(self) -> None:
        if self.active:
            self.active = False
            self._on_end()

    def next(self) -> None:
        if self.index + 1 >= len(STEPS):
            self.end()
        else:
            self.index += 1

    def follow(self, scene: Any) -> None:
        """Move on past every step whose move the player has made (in any order)."""
        while self.active and self.step.done is not None and self.step.done(scene):
            self.next()

    def handle(self, action: Any) -> bool:
        """True when the guide takes ``action``: Escape skips it, Enter ends a step that
        only explains (the game never sees them then)."""
        if not self.active:
            return False
        if action.name == A.CANCEL:
            self.end()
            return True
        if action.name == A.CONFIRM and self.step.done is None:
            self.next()
            return True
        return False

    # ---------------------------------------------------------- drawing
    def target_rect(self, scene: Any) -> tuple[float, float, float, float]:
        """The part of the play screen the step rings, in design coordinates."""
        t = self.step.target
        if t == "roll":
            return scene.widget("roll").rect
        if t == "dice":
            first, last = scene.dice_view.die_rect(0), scene.dice_view.die_rect(4)
            return (first[0] - 10, first[1] - 10, last[0] + last[2] - first[0] + 20, first[3] + 20)
        if t == "advisor":
            return (scene.cx - scene.half, 384, 2 * scene.half, 150)
        x, y, w, h = scene.sheet_view.rect
        return (x - 4, y - 4, w + 8, h + 8)

    def card_rect(self, scene: Any) -> tuple[float, float, float, float]:
        """Beside what is ringed and over no button: over the sheet's foot while the right
        column is shown; while the sheet is, beside it, between the rolls left and the key
        hints (``beside_sheet``; it was over Hints and Menu)."""
        if self.step.target == "sheet":
            return scene.beside_sheet()
        return (30, 500, 428, 206)

    def draw(self, surface: pygame.Surface, scene: Any) -> None:
        if not self.active:
            return
        L = scene.layout
        t = scene.t
        pulse = 0.5 + 0.5 * abs(((scene.app.now * 1.2) % 2.0) - 1.0)
        ring = L.rect(self.target_rect(scene))
        width = max(3, L.px(5))
        glow = pygame.Rect(ring).inflate(L.px(int(6 * pulse)), L.px(int(6 * pulse)))
        pygame.draw.rect(surface, theme.GOLD, glow, width, border_radius=L.px(14))
        card = L.rect(self.card_rect(scene))
        shadowed_panel(surface, card, theme.PAPER, L.px(14), L.px(5))
        pygame.draw.rect(surface, theme.GOLD, card, max(2, L.px(3)), border_radius=L.px(14))
        pad = L.px(16)
        inner = card.inflate(-2 * pad, -2 * pad)
        head = t("guide.step", n=self.index + 1, total=len(STEPS)) + " · " + t(f"guide.{self.step.id}.title")
        draw_text(surface, head, pygame.Rect(inner.x, inner.y, inner.w, L.px(28)), L.font_px(19),
                  theme.INK, bold=True)
        foot_h = L.px(24)
        body = pygame.Rect(inner.x, inner.y + L.px(32), inner.w, inner.h - L.px(32) - foot_h - L.px(4))
        draw_wrapped(surface, t(f"guide.{self.step.id}"), body, L.font_px(17), theme.INK)
        foot = t("guide.next_skip" if self.step.done is None else "guide.skip")
        draw_text(surface, foot, pygame.Rect(inner.x, inner.bottom - foot_h, inner.w, foot_h),
                  L.font_px(15), theme.INK_SOFT, align="right")
