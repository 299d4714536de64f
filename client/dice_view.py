"""The five dice: faces, holds with check marks, the advisor's hold hint and a
purely cosmetic roll animation (the real dice are known at once): the rolled dice are
thrown up from the Roll button, spin, hop twice and land on their faces."""
from __future__ import annotations

import math


from . import actions as A
from . import fonts, sprites, theme
from .actions import Action
from .widgets import draw_text

STAGGER = 0.04
THROW = 80           # design units below their place the rolled dice start from
HOP = 34             # the first hop's height (design units)


class DiceView:
    def __init__(self, center: tuple[float, float], die: float = 92, gap: float = 20):
        self.center = center
        self.die = die
        self.gap = gap
        self.rolled_at: float | None = None
        self.rolling = [False] * 5
        self.duration = 0.45

    def die_rect(self, i: int):
        cx, cy = self.center
        total = 5 * self.die + 4 * self.gap
        x = cx - total / 2 + i * (self.die + self.gap)
        return (x, cy - self.die / 2, self.die, self.die)

    def targets(self, layout) -> list:
        return [(layout.rect(self.die_rect(i)), Action(A.TOGGLE_DIE, i)) for i in range(5)]

    def start_roll(self, now: float, hold, duration: float) -> None:
        self.duration = duration
        if duration <= 0:
            self.rolled_at = None
            return
        self.rolled_at = now
        self.rolling = [not h for h in hold]

    def animating(self, now: float) -> bool:
        return self.rolled_at is not None and now - self.rolled_at < self.duration + 4 * STAGGER

    def tumble(self, i: int, now: float):
        """(face or None, angle, dx, dy) of rolling die ``i`` in flight; None once it landed."""
        if self.rolled_at is None or not self.rolling[i]:
            return None
        t = now - self.rolled_at - i * STAGGER
        if t >= self.duration:
            return None
        f = max(0.0, t) / self.duration
        ease = 1 - (1 - f) ** 2
        dx = (1 - ease) * (2 - i) * 22                       # thrown together, they spread out
        dy = (1 - ease) * THROW - HOP * abs(math.sin(f * math.pi * 2)) * (1 - f) ** 1.2
        spin = (260 + 50 * i) * (1 if i % 2 else -1) * (1 - f) ** 2
        face = sprites.tumble_face(i, now)[0] if f < 0.7 else None   # settles on its face
        return face, int(spin) // 15 * 15, dx, dy

    def draw(self, surface, layout, now: float, dice, held, hint_mask=None) -> None:
        px = layout.px(self.die)
        for i in range(5):
            r = layout.rect(self.die_rect(i))
            if dice is None:
                img = sprites.empty_die(px)
                surface.blit(img, img.get_rect(center=r.center))
                continue
            face, tilt, dx, dy = dice[i], 0, 0.0, 0.0
            fly = self.tumble(i, now)
            if fly is not None:
                face = fly[0] or face
                tilt, dx, dy = fly[1], fly[2], fly[3]
            is_held = bool(held[i])
            hint = bool(hint_mask and hint_mask[i]) and fly is None
            img = sprites.die(face, px, is_held, hint, tilt)
            rr = img.get_rect(center=(r.centerx + int(dx * layout.scale),
                                      r.centery + int(dy * layout.scale) - (layout.px(8) if is_held else 0)))
            surface.blit(img, rr)

    def caption_rect(self, room_below: float) -> tuple[float, float, float, float]:
        """Where a short line about the dice goes (design units): right under the dice
        when ``room_below`` (to the next thing drawn) allows it, else just above them."""
        cx, cy = self.center
        total = 5 * self.die + 4 * self.gap
        if room_below >= 30:
            return (cx - total / 2, cy + self.die / 2 + 2, total, min(40.0, room_below - 4))
        return (cx - total / 2, cy - self.die / 2 - 42, total, 40.0)

    def draw_caption(self, surface, layout, text: str, room_below: float, width: float | None = None,
                     color=theme.GOLD) -> None:
        """One line (two when it is too long for one) under the dice, e.g. the joker hint."""
        x, y, w, h = self.caption_rect(room_below)
        if width is not None:
            x, w = self.center[0] - width / 2, width
        rect = layout.rect((x, y, w, h))
        px = min(layout.font_px(19), int(rect.h * 0.9))
        if fonts.text_width(text, px, True) <= rect.w:
            draw_text(surface, text, rect, px, color, bold=True, align="center", shadow=True)
            return
        half = layout.rect((x, y, w, h / 2))
        px = min(layout.font_px(16), int(half.h * 0.95))
        lines = fonts.wrap(text, px, rect.w, True)
        if len(lines) > 2:
            lines = [lines[0], " ".join(lines[1:])]
        for i, line in enumerate(lines):
            draw_text(surface, line, layout.rect((x, y + i * h / 2, w, h / 2)), px, color, bold=True,
                      align="center", shadow=True)
