"""One design resolution (1280x720) scaled uniformly to the real window, and text drawn at
the interface size.

Scenes lay out in design units; ``Layout`` turns design rects and sizes into window pixels.
The game area keeps its aspect ratio and is centred; the background fills the whole window.

Two scales, so the interface size does not depend on the window: ``scale`` (the design fitted
to the window) places and sizes every box, and ``text_scale`` sizes fonts — the player's
interface size (a design pixel at 200 % is two window pixels), or ``scale`` when it is
automatic.  Text may grow past the boxes' own scale only up to ``theme.MAX_TEXT_GROWTH``: the
most at which every scene is tested to fit (960x540 at 100 %, 1920x1080 at 200 %); a larger
size in a smaller window is drawn as the largest that window holds (``held_percent``).
"""
from __future__ import annotations

import pygame

from . import theme


class Layout:
    def __init__(self, size: tuple[int, int], text_percent: int = 0):
        self.text_percent = text_percent
        self.resize(size)

    def resize(self, size: tuple[int, int]) -> None:
        w, h = max(1, size[0]), max(1, size[1])
        self.size = (w, h)
        self.scale = min(w / theme.DESIGN_W, h / theme.DESIGN_H)
        self.ox = int((w - theme.DESIGN_W * self.scale) / 2)
        self.oy = int((h - theme.DESIGN_H * self.scale) / 2)
        self.text_scale = self._text_scale()

    def set_text_percent(self, percent: int) -> None:
        """Draw text at ``percent`` of the design size (0: with the window, as its boxes)."""
        self.text_percent = percent
        self.text_scale = self._text_scale()

    def _text_scale(self) -> float:
        if not self.text_percent:
            return self.scale
        return min(self.text_percent / 100, self.scale * theme.MAX_TEXT_GROWTH)

    def held_percent(self) -> int:
        """The interface size text is drawn at in this window, in percent."""
        return int(round(self.text_scale * 100))

    def px(self, v: float) -> int:
        """A design length in window pixels (at least 1)."""
        return max(1, int(round(v * self.scale)))

    def font_px(self, design_size: float) -> int:
        return max(6, int(round(design_size * self.text_scale)))

    def rect(self, r) -> pygame.Rect:
        x, y, w, h = r
        x0 = self.ox + int(round(x * self.scale))
        y0 = self.oy + int(round(y * self.scale))
        x1 = self.ox + int(round((x + w) * self.scale))
        y1 = self.oy + int(round((y + h) * self.scale))
        return pygame.Rect(x0, y0, x1 - x0, y1 - y0)

    def point(self, x: float, y: float) -> tuple[int, int]:
        return (self.ox + int(round(x * self.scale)), self.oy + int(round(y * self.scale)))

    def to_design(self, pos: tuple[int, int]) -> tuple[float, float]:
        return ((pos[0] - self.ox) / self.scale, (pos[1] - self.oy) / self.scale)


def design_rect_center(cx: float, cy: float, w: float, h: float) -> tuple[float, float, float, float]:
    return (cx - w / 2, cy - h / 2, w, h)
