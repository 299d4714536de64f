"""One design resolution (1280x720) scaled uniformly to the real window.

Scenes lay out in design units; ``Layout`` turns design rects and sizes into
window pixels.  The game area keeps its aspect ratio and is centred; the
background fills the whole window.
"""
from __future__ import annotations

import pygame

from . import theme


class Layout:
    def __init__(self, size: tuple[int, int]):
        self.resize(size)

    def resize(self, size: tuple[int, int]) -> None:
        w, h = max(1, size[0]), max(1, size[1])
        self.size = (w, h)
        self.scale = min(w / theme.DESIGN_W, h / theme.DESIGN_H)
        self.ox = int((w - theme.DESIGN_W * self.scale) / 2)
        self.oy = int((h - theme.DESIGN_H * self.scale) / 2)

    def px(self, v: float) -> int:
        """A design length in window pixels (at least 1)."""
        return max(1, int(round(v * self.scale)))

    def font_px(self, design_size: float) -> int:
        return max(6, int(round(design_size * self.scale)))

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
