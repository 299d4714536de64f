"""The five dice: faces, holds with check marks, the advisor's hold hint and a
purely cosmetic roll animation (the real dice are known at once): the rolled dice are
thrown up from the Roll button, spin, hop twice and land on their faces.  A held die
stands a little above the others; when the holds are followed (``follow_holds``) it
rises with a short overshoot and settles, and sinks back when released."""
from __future__ import annotations

import math

from . import actions as A
from . import fonts, sprites, theme
from .actions import Action
from .widgets import draw_text

STAGGER = 0.04
THROW = 80           # design units below their place the rolled dice start from
HOP = 34             # the first hop's height (design units)
LIFT = 8             # how far a held die stands above the others (design units)
OVERSHOOT = 2.2      # ease-out-back strength: about 15 % above LIFT before it settles


class DiceView:
    def __init__(self, center: tuple[float, float], die: float = 92, gap: float = 20):
        self.center = center
        self.die = die
        self.gap = gap
        self.rolled_at: float | None = None
        self.rolling = [False] * 5
        self.duration = 0.45
        # holds as last followed; None = not followed (the replay): drawn lifted at once
        self._holds: list[bool] | None = None
        self._lift_from = [0.0] * 5
        self._lift_at: list[float | None] = [None] * 5
        self.lift_duration = 0.12

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

    def follow_holds(self, held, now: float, duration: float) -> None:
        """Start a die's lift (or drop) when its hold changes; ``duration`` 0 moves at once."""
        held = [bool(h) for h in held]
        if self._holds is None or duration <= 0:
            self._holds = held
            self._lift_at = [None] * 5
            return
        for i in range(5):
            if held[i] != self._holds[i]:
                # from where it is now: a quick second press turns it back mid-way
                self._lift_from[i] = self.lift(i, now)
                self._lift_at[i] = now
        self._holds = held
        self.lift_duration = duration

    def lift(self, i: int, now: float, held=None) -> float:
        """Die ``i``'s height as a fraction of LIFT (slightly above 1 while it settles)."""
        if self._holds is None:
            return 1.0 if held is not None and held[i] else 0.0
        target = 1.0 if self._holds[i] else 0.0
        at = self._lift_at[i]
        if at is None:
            return target
        f = (now - at) / self.lift_duration
        if f >= 1:
            self._lift_at[i] = None
            return target
        start = self._lift_from[i]
        g = max(0.0, f) - 1
        if target > start:      # rising overshoots a touch, so it reads as picked up
            ease = 1 + (OVERSHOOT + 1) * g ** 3 + OVERSHOOT * g ** 2
        else:                   # set down without a bounce
            ease = 1 - g * g
        return start + (target - start) * ease

    def lifting(self, now: float) -> bool:
        return any(at is not None and now - at < self.lift_duration for at in self._lift_at)

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
            up = self.lift(i, now, held) if fly is None else 0.0
            if up > 0:
                # the shadow stays on the felt: the gap is what makes it read as lifted
                sh = sprites.lift_shadow(px, min(1.0, up))
                surface.blit(sh, sh.get_rect(center=(r.centerx, r.centery + layout.px(5))))
            img = sprites.die(face, px, is_held, hint, tilt)
            rr = img.get_rect(center=(r.centerx + int(dx * layout.scale),
                                      r.centery + int(dy * layout.scale) - round(layout.px(LIFT) * up)))
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
