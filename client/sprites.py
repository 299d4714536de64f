"""Procedural sprites: dice, check marks, the felt, the wooden table, paper.

Everything is drawn at the real pixel size and cached per size, so nothing is
downloaded.  The felt, which the title's first frame draws, is made with pygame
alone: importing numpy takes longer than the rest of that frame, so numpy is
imported only by the sprites of the screens after it (the wooden table).
"""
from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import TYPE_CHECKING

import pygame

from . import theme

if TYPE_CHECKING:
    import numpy as np

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


def _noise(w: int, h: int, seed: int, amount: float) -> np.ndarray:
    import numpy as np
    # a fixed, cosmetic pattern (not game randomness)
    rng = np.random.default_rng(seed)
    return rng.normal(0.0, amount, (w, h)).astype(np.float32)


_VIGNETTE_GRID = (48, 27)     # the vignette varies slowly: this many points, smoothly scaled up
_GRAIN_TILE = 256             # the grain repeats every this many pixels (it is a level or two deep)
_GRAIN_LIFT = 16              # the grain is added around this level, then taken off again


@lru_cache(maxsize=16)
def felt(size: tuple[int, int]) -> pygame.Surface:
    """The green felt filling the window, with a soft vignette and a fine grain."""
    w, h = size
    base = theme.FELT
    gw, gh = _VIGNETTE_GRID
    grid = bytearray()
    for j in range(gh):
        y = -1 + 2 * j / (gh - 1)
        for i in range(gw):
            x = -1 + 2 * i / (gw - 1)
            d = min(math.sqrt(x * x * 0.8 + y * y), 1.4)
            shade = 1.08 - 0.38 * d * d
            grid.extend(min(255, round(c * shade)) for c in base)
    # 32-bit surfaces throughout: the blends below have fast paths only for those
    small = pygame.image.frombuffer(bytes(grid), (gw, gh), "RGB").convert(32)
    surf = pygame.transform.smoothscale(small, (w, h))
    # a fixed, cosmetic grain (not game randomness): a tile of palette indices whose colours
    # are the felt's own, scaled by normally distributed amounts, lifted to stay positive
    rng = random.Random(7)
    tile = pygame.image.frombuffer(rng.randbytes(_GRAIN_TILE * _GRAIN_TILE), (_GRAIN_TILE,) * 2, "P")
    tile.set_palette([tuple(_GRAIN_LIFT + round(c * rng.gauss(0.0, 0.025)) for c in base)
                      for _ in range(256)])
    tile = tile.convert(32)
    for y in range(0, h, _GRAIN_TILE):
        for x in range(0, w, _GRAIN_TILE):
            surf.blit(tile, (x, y), special_flags=pygame.BLEND_RGB_ADD)
    surf.fill((_GRAIN_LIFT,) * 3, special_flags=pygame.BLEND_RGB_SUB)
    return surf.convert() if pygame.display.get_surface() else surf


@lru_cache(maxsize=16)
def wood(size: tuple[int, int], radius: int) -> pygame.Surface:
    """A wooden table top with grain, rounded corners and a felt inlay."""
    import numpy as np
    w, h = size
    xs = np.arange(w, dtype=np.float32)[:, None]
    ys = np.arange(h, dtype=np.float32)[None, :]
    grain = (np.sin(ys / max(1, h) * 38.0 + np.sin(xs / max(1, w) * 6.0) * 2.2) * 0.5 + 0.5)
    fine = np.sin(ys * 0.9 + xs * 0.013) * 0.5 + 0.5
    shade = 0.82 + 0.16 * grain + 0.05 * fine + _noise(w, h, 11, 0.03)
    base = np.array(theme.WOOD, dtype=np.float32)
    arr = np.clip(base[None, None, :] * shade[:, :, None], 0, 255).astype(np.uint8)
    top = pygame.Surface((w, h))
    pygame.surfarray.blit_array(top, arr)
    mask = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
    out = pygame.Surface((w, h), pygame.SRCALPHA)
    out.blit(top, (0, 0))
    out.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    pygame.draw.rect(out, theme.WOOD_DARK, out.get_rect(), max(2, radius // 6), border_radius=radius)
    inset = max(6, min(w, h) // 9)
    inner = out.get_rect().inflate(-2 * inset, -2 * inset)
    pygame.draw.rect(out, theme.FELT_DARK, inner, border_radius=max(4, radius - inset))
    pygame.draw.rect(out, theme.FELT, inner.inflate(-6, -6), border_radius=max(4, radius - inset))
    pygame.draw.rect(out, theme.WOOD_LIGHT, inner, 2, border_radius=max(4, radius - inset))
    return out


def check_mark(surface: pygame.Surface, center: tuple[int, int], size: int, color=None) -> None:
    """A round badge with a tick."""
    color = theme.CHECK if color is None else color     # the palette's, read when drawn
    cx, cy = center
    r = size // 2
    pygame.draw.circle(surface, theme.WHITE, (cx, cy), r)
    pygame.draw.circle(surface, color, (cx, cy), max(1, r - max(1, size // 12)))
    w = max(2, size // 7)
    pts = [(cx - r * 0.5, cy + r * 0.02), (cx - r * 0.12, cy + r * 0.4), (cx + r * 0.55, cy - r * 0.38)]
    pygame.draw.lines(surface, theme.WHITE, False, pts, w)
    for p in pts:
        pygame.draw.circle(surface, theme.WHITE, (int(p[0]), int(p[1])), w // 2)


@lru_cache(maxsize=512)     # the tumble's angles come in 15-degree steps
def die(value: int, px: int, held: bool = False, hint: bool = False, tilt: int = 0) -> pygame.Surface:
    """One die face ``px`` wide; ``held`` tints it and adds the check mark,
    ``hint`` adds the advisor's blue ring; ``tilt`` rotates it (rolling)."""
    pad = max(4, px // 8)
    size = px + 2 * pad
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    body = pygame.Rect(pad, pad, px, px)
    radius = max(3, px // 6)
    if hint:
        pygame.draw.rect(surf, (*theme.HINT, 200), body.inflate(pad * 2 - 2, pad * 2 - 2),
                         max(2, pad // 2), border_radius=radius + pad)
    shadow = body.move(max(1, px // 30), max(2, px // 18))
    pygame.draw.rect(surf, (0, 0, 0, 80), shadow, border_radius=radius)
    face = theme.DIE_HELD if held else theme.DIE_FACE
    pygame.draw.rect(surf, theme.DIE_EDGE, body, border_radius=radius)
    top = body.inflate(-max(2, px // 16), -max(2, px // 16)).move(0, -max(1, px // 40))
    pygame.draw.rect(surf, face, top, border_radius=radius)
    # soft highlight
    hl = pygame.Surface((top.w, top.h // 2), pygame.SRCALPHA)
    pygame.draw.rect(hl, (255, 255, 255, 60), hl.get_rect(), border_radius=radius)
    surf.blit(hl, top.topleft)
    pr = max(2, px // 11)
    for fx, fy in PIPS.get(value, ()):
        c = (int(top.x + fx * top.w), int(top.y + fy * top.h))
        pygame.draw.circle(surf, (0, 0, 0, 60), (c[0], c[1] + 1), pr)
        pygame.draw.circle(surf, theme.DIE_PIP, c, pr)
    if held:
        check_mark(surf, (body.right - px // 8, body.y + px // 8), max(12, px // 3))
    if tilt:
        surf = pygame.transform.rotozoom(surf, tilt, 1.0)
    return surf


def lift_shadow(px: int, height: float) -> pygame.Surface:
    """The soft shadow a lifted die leaves on the felt, darker the higher it is."""
    return _lift_shadow(px, round(height * 8))


@lru_cache(maxsize=64)
def _lift_shadow(px: int, step: int) -> pygame.Surface:
    pad = max(4, px // 8)
    size = px + 2 * pad
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    body = pygame.Rect(pad, pad, px, px).inflate(-max(2, px // 16), 0)
    pygame.draw.rect(surf, (0, 0, 0, 11 * step), body, border_radius=max(3, px // 6))
    return surf


@lru_cache(maxsize=32)
def empty_die(px: int) -> pygame.Surface:
    pad = max(4, px // 8)
    size = px + 2 * pad
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    body = pygame.Rect(pad, pad, px, px)
    pygame.draw.rect(surf, (255, 255, 255, 40), body, max(2, px // 30), border_radius=max(3, px // 6))
    return surf


def tumble_face(index: int, t: float) -> tuple[int, int]:
    """Cosmetic face and tilt shown while a die is still rolling (no game randomness)."""
    step = int(t * 22) + index * 3
    face = (step * 5 + index) % 6 + 1
    tilt = int(math.sin(t * 30 + index) * 18)
    return face, tilt - tilt % 6


def clear_caches() -> None:
    felt.cache_clear()
    wood.cache_clear()
    die.cache_clear()
    empty_die.cache_clear()
