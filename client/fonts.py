"""Fonts at the real pixel size, and a cache of rendered text.

Text is always rendered at the scaled size (never a scaled bitmap), so it stays
crisp at every window size.  ``fit_size`` shrinks a font until the text fits a
width; widgets use it and report the fitted size so tests can check overflow.
"""
from __future__ import annotations

from functools import lru_cache

import pygame

from . import theme

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}
_text: dict[tuple, pygame.Surface] = {}
_TEXT_CACHE_MAX = 3000


def font(px: int, bold: bool = False) -> pygame.font.Font:
    px = max(6, int(px))
    key = (px, bold)
    f = _fonts.get(key)
    if f is None or not pygame.font.get_init():
        if not pygame.font.get_init():
            pygame.font.init()
        f = pygame.font.Font(str(theme.FONT_BOLD if bold else theme.FONT_REGULAR), px)
        _fonts[key] = f
    return f


def forget() -> None:
    """Drop every font and rendering: pygame.quit() invalidates them, and a window
    opened afterwards in the same process (the tests) must make its own."""
    _fonts.clear()
    _text.clear()
    _ft_fonts.clear()


# DejaVu Sans has no Chinese or Japanese: such a character would be drawn as an empty box, so
# names stored before fields refused them are drawn with U+FFFD instead.  pygame.font cannot
# tell (its metrics() gives the box's metrics); pygame.freetype's get_metrics() gives None.
REPLACEMENT = "\ufffd"
_coverage: dict[tuple[str, bool], bool] = {}
# DejaVu Sans draws all of Latin-1 and Latin Extended-A and -B (every accent of our six
# languages): no need to load pygame.freetype to ask, which the title's first frame would
_LATIN_END = 0x250
_ft_fonts: dict[bool, object] = {}


def can_draw(ch: str, bold: bool = False) -> bool:
    """Whether the shipped font has a glyph for the character ``ch``."""
    if ord(ch) < _LATIN_END:
        return True
    known = _coverage.get((ch, bold))
    if known is None:
        import pygame.freetype
        try:
            metrics = _ft_face(bold).get_metrics(ch)
        except pygame.error:      # a face made before a pygame.quit() and init() again
            _ft_fonts.pop(bold, None)
            metrics = _ft_face(bold).get_metrics(ch)
        known = _coverage[(ch, bold)] = metrics[0] is not None
    return known


def _ft_face(bold: bool):
    import pygame.freetype
    face = _ft_fonts.get(bold)
    if face is None or not pygame.freetype.get_init():   # pygame.quit() kills old faces
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        face = _ft_fonts[bold] = pygame.freetype.Font(
            str(theme.FONT_BOLD if bold else theme.FONT_REGULAR), 16)
    return face


def missing(text: str) -> str:
    """The characters of ``text`` that the regular or the bold font cannot draw."""
    return "".join(dict.fromkeys(c for c in text if not (can_draw(c) and can_draw(c, True))))


def drawable(text: str, bold: bool = False) -> str:
    """``text`` with each character the font lacks replaced by :data:`REPLACEMENT`."""
    if text.isascii():
        return text
    return "".join(c if can_draw(c, bold) else REPLACEMENT for c in text)


def text_width(text: str, px: int, bold: bool = False) -> int:
    return _width(text, max(6, int(px)), bold)


@lru_cache(maxsize=8192)
def _width(text: str, px: int, bold: bool) -> int:
    return font(px, bold).size(drawable(text, bold))[0]


def render(text: str, px: int, color, bold: bool = False) -> pygame.Surface:
    """A cached anti-aliased rendering of ``text``."""
    key = (text, int(px), tuple(color), bold)
    surf = _text.get(key)
    if surf is None:
        if len(_text) > _TEXT_CACHE_MAX:
            _text.clear()
        surf = font(px, bold).render(drawable(text, bold), True, color)
        _text[key] = surf
    return surf


def fit_size(text: str, px: int, max_width: int, bold: bool = False, min_px: int = 6) -> int:
    """The largest size <= ``px`` at which ``text`` is at most ``max_width`` wide."""
    px = int(px)
    while px > min_px and text_width(text, px, bold) > max_width:
        px -= 1
    return px


def wrap(text: str, px: int, max_width: int, bold: bool = False) -> list[str]:
    """Greedy word wrap into lines no wider than ``max_width``."""
    lines: list[str] = []
    for para in text.split("\n"):
        words = para.split(" ")
        line = ""
        for w in words:
            cand = w if not line else line + " " + w
            if text_width(cand, px, bold) <= max_width or not line:
                line = cand
            else:
                lines.append(line)
                line = w
        lines.append(line)
    return lines
