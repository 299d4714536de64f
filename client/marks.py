"""Marks that tell states apart by shape as well as colour.

About one man in twelve cannot tell red from green, so no state is told by colour alone:
each mistake grade and each seat status has its own shape (and the palettes in ``theme``
only make the colours easier on top).  ``tests/test_client_palettes.py`` checks that the
shapes differ once the colour is taken away.
"""
from __future__ import annotations

import math

import pygame

from . import theme

GRADES = ("inaccuracy", "mistake", "blunder")
STATUSES = ("connected", "away", "bot", "disconnected", "gave_up")


def grade_color(grade: str):
    return {"inaccuracy": theme.GRADE_INACCURACY, "mistake": theme.GRADE_MISTAKE,
            "blunder": theme.GRADE_BLUNDER}.get(grade, theme.INK_SOFT)


def _polygon(center, r: float, sides: int, turn: float) -> list[tuple[float, float]]:
    cx, cy = center
    return [(cx + r * math.cos(turn + 2 * math.pi * k / sides),
             cy + r * math.sin(turn + 2 * math.pi * k / sides)) for k in range(sides)]


def grade_mark(surface: pygame.Surface, grade: str, center: tuple[int, int], r: int) -> None:
    """An inaccuracy is a circle, a mistake a triangle, a blunder a diamond with a cross:
    the worse, the more corners; each outlined in ink so it stands out on paper."""
    r = max(3, r)
    color, edge = grade_color(grade), theme.INK
    if grade == "inaccuracy":
        pygame.draw.circle(surface, color, center, r)
        pygame.draw.circle(surface, edge, center, r, 1)
    elif grade == "mistake":
        pts = _polygon(center, r * 1.25, 3, -math.pi / 2)
        pygame.draw.polygon(surface, color, pts)
        pygame.draw.polygon(surface, edge, pts, 1)
    else:
        pts = _polygon(center, r * 1.35, 4, -math.pi / 2)
        pygame.draw.polygon(surface, color, pts)
        pygame.draw.polygon(surface, edge, pts, 1)
        w = max(1, r // 3)
        d = r * 0.5
        cx, cy = center
        pygame.draw.line(surface, edge, (cx - d, cy - d), (cx + d, cy + d), w)
        pygame.draw.line(surface, edge, (cx - d, cy + d), (cx + d, cy - d), w)


def status_color(status: str | None):
    return {"connected": theme.OK, "away": theme.GOLD, "bot": theme.HINT,
            "disconnected": theme.BAD, "gave_up": theme.INK_SOFT}.get(status or "", theme.INK_SOFT)


def status_mark(surface: pygame.Surface, status: str | None, center: tuple[int, int], r: int) -> None:
    """Connected is a filled dot, away a ring, a bot a square, disconnected a cross, gave up
    a bar: a seat's state reads the same in greyscale."""
    r = max(3, r)
    color = status_color(status)
    cx, cy = center
    w = max(2, r // 2)
    if status == "connected":
        pygame.draw.circle(surface, color, center, r)
        pygame.draw.circle(surface, theme.INK, center, r, 1)
    elif status == "away":
        pygame.draw.circle(surface, theme.INK, center, r, max(1, w // 2 + 1))
        pygame.draw.circle(surface, color, center, r - 1, max(1, w // 2))
    elif status == "bot":
        sq = pygame.Rect(0, 0, 2 * r, 2 * r)
        sq.center = center
        pygame.draw.rect(surface, color, sq)
        pygame.draw.rect(surface, theme.INK, sq, 1)
    elif status == "disconnected":
        pygame.draw.line(surface, color, (cx - r, cy - r), (cx + r, cy + r), w)
        pygame.draw.line(surface, color, (cx - r, cy + r), (cx + r, cy - r), w)
    else:
        pygame.draw.line(surface, color, (cx - r, cy), (cx + r, cy), w)
