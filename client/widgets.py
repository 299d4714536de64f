"""Buttons, labels, text fields, toasts and progress bars.

Every text that sits in a box is drawn by ``draw_text``: it shrinks the font
until the text fits the box and records what it did in ``FIT_REPORT`` (text,
fitted pixel size, rendered width, box width), which the overflow test reads.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import pygame

from . import fonts, theme
from .actions import Action

FIT_REPORT: list[tuple[str, int, int, int]] = []
FIT_REPORT_MAX = 5000
# where each text of a frame went, in window pixels: the overflow test checks no two overlap
TEXT_RECTS: list[tuple[str, pygame.Rect]] = []


def _report(text: str, px: int, width: int, max_width: int) -> None:
    if len(FIT_REPORT) < FIT_REPORT_MAX:
        FIT_REPORT.append((text, px, width, max_width))


def draw_text(surface: pygame.Surface, text: str, rect: pygame.Rect, px: int, color,
              bold: bool = False, align: str = "left", valign: str = "center",
              min_px: int = 6, shadow: bool = False) -> pygame.Rect:
    """Draw ``text`` inside ``rect`` (window pixels), shrunk to fit its width."""
    if not text:
        return pygame.Rect(rect.x, rect.y, 0, 0)
    fitted = fonts.fit_size(text, min(px, max(6, int(rect.h * 0.95))), rect.w, bold, min_px)
    surf = fonts.render(text, fitted, color, bold)
    _report(text, fitted, surf.get_width(), rect.w)
    if align == "center":
        x = rect.centerx - surf.get_width() // 2
    elif align == "right":
        x = rect.right - surf.get_width()
    else:
        x = rect.x
    if valign == "center":
        y = rect.centery - surf.get_height() // 2
    elif valign == "bottom":
        y = rect.bottom - surf.get_height()
    else:
        y = rect.y
    if shadow:
        sh = fonts.render(text, fitted, (0, 0, 0), bold)
        sh.set_alpha(110)
        off = max(1, fitted // 14)
        surface.blit(sh, (x + off, y + off))
    drawn = surface.blit(surf, (x, y))
    if len(TEXT_RECTS) < FIT_REPORT_MAX:
        TEXT_RECTS.append((text, drawn))
    return drawn


def draw_wrapped(surface, text: str, rect: pygame.Rect, px: int, color, bold=False,
                 line_gap: float = 1.25, align: str = "left") -> int:
    """Word-wrapped text from the top of ``rect``, its size lowered until the lines fit the
    rect's height too (a larger interface size makes more lines); returns the height used."""
    px = int(px)
    while True:
        lines = fonts.wrap(text, px, rect.w, bold)
        step = int(px * line_gap)
        if px <= 6 or len(lines) * step <= rect.h:
            break
        px -= 1
    y = rect.y
    for line in lines:
        draw_text(surface, line, pygame.Rect(rect.x, y, rect.w, step), px, color, bold, align)
        y += step
    return y - rect.y


def fit_columns(needs: list[int], left: int, total: int, gap: int,
                least: list[int] | None = None) -> list[tuple[int, int]]:
    """(x, width) of table columns in window pixels, each as wide as its widest cell
    (``needs``) with ``gap`` between neighbours, so two columns never touch in any language.
    Room to spare is shared out evenly.  Too little room is taken from the columns that can
    give it: each narrows in proportion to how far it is above ``least`` (its width at the
    smallest readable size), so a short column under a long heading is not squeezed first."""
    room = total - gap * (len(needs) - 1)
    need = sum(needs)
    least = list(needs) if least is None else [min(a, b) for a, b in zip(least, needs)]
    slack = [n - m for n, m in zip(needs, least)]
    if need <= room:
        spare = (room - need) // len(needs)
        widths = [n + spare for n in needs]
    elif sum(least) <= room and sum(slack) > 0:
        short = need - room
        widths = [n - -(-short * sl // sum(slack)) for n, sl in zip(needs, slack)]
    else:
        widths = [n * room // need for n in needs]
    out, x = [], left
    for w in widths:
        out.append((x, w))
        x += w + gap
    return out


# A list row's texts keep this far (design units) from the row's ends, where the chosen
# row's ring is drawn: the daily board's rows keep the same margin.
ROW_INSET = 10


def row_inner(layout, row: pygame.Rect) -> pygame.Rect:
    """The part of a list row (window pixels) its texts are drawn in."""
    return row.inflate(-2 * layout.px(ROW_INSET), 0)


def list_row_back(surface, layout, row: pygame.Rect, selected: bool, focused: bool,
                  hovered: bool) -> None:
    """The back of a row in a list of games: the chosen row filled and ringed (brightly
    when the list has the focus), a row under the pointer shaded."""
    radius = layout.px(6)
    if selected:
        pygame.draw.rect(surface, theme.ACTIVE_COL, row, border_radius=radius)
        ring = theme.SELECT if focused else theme.PAPER_LINE
        pygame.draw.rect(surface, ring, row, max(2, layout.px(3)), border_radius=radius)
    elif hovered:
        pygame.draw.rect(surface, theme.PAPER_SHADE, row, border_radius=radius)


def rounded(surface, rect, color, radius: int, width: int = 0) -> None:
    pygame.draw.rect(surface, color, rect, width, border_radius=radius)


def shadowed_panel(surface, rect: pygame.Rect, color, radius: int, shadow: int = 4,
                   border=None) -> None:
    sh = pygame.Surface((rect.w + shadow * 2, rect.h + shadow * 2), pygame.SRCALPHA)
    pygame.draw.rect(sh, (0, 0, 0, 70), sh.get_rect(), border_radius=radius + shadow)
    surface.blit(sh, (rect.x, rect.y + shadow))
    pygame.draw.rect(surface, color, rect, border_radius=radius)
    if border:
        pygame.draw.rect(surface, border, rect, max(1, shadow // 2), border_radius=radius)


@dataclass
class Widget:
    id: str
    rect: tuple                         # design units
    action: Action | None = None

    def screen_rect(self, layout) -> pygame.Rect:
        return layout.rect(self.rect)

    def focusable(self) -> bool:
        return self.action is not None


@dataclass
class Button(Widget):
    label: Callable[[], str] | str = ""
    style: str = "primary"               # primary | secondary | ghost
    size: int = 22

    def text(self) -> str:
        return self.label() if callable(self.label) else self.label

    def draw(self, surface, layout, hover: bool, focused: bool, enabled: bool,
             text_px: int | None = None) -> None:
        """``text_px``: the label's size shared with its siblings (``shared_text_px``)."""
        r = self.screen_rect(layout)
        radius = layout.px(10)
        if not enabled:
            bg, fg = theme.BUTTON_DISABLED, theme.BUTTON_DISABLED_TEXT
        elif self.style == "primary":
            bg, fg = (theme.BUTTON_HOVER if hover else theme.BUTTON), theme.BUTTON_TEXT
        elif self.style == "ghost":
            bg, fg = None, theme.TEXT_ON_FELT
        else:
            bg = theme.BUTTON_SECONDARY_HOVER if hover else theme.BUTTON_SECONDARY
            fg = theme.TEXT_ON_FELT
        if bg is not None:
            if enabled:
                shadowed_panel(surface, r, bg, radius, layout.px(3))
                hl = pygame.Rect(r.x + radius // 2, r.y + layout.px(3), r.w - radius, max(1, r.h // 3))
                s = pygame.Surface(hl.size, pygame.SRCALPHA)
                pygame.draw.rect(s, (255, 255, 255, 40), s.get_rect(), border_radius=radius)
                surface.blit(s, hl)
            else:
                rounded(surface, r, bg, radius)
        elif hover and enabled:
            s = pygame.Surface(r.size, pygame.SRCALPHA)
            pygame.draw.rect(s, (255, 255, 255, 30), s.get_rect(), border_radius=radius)
            surface.blit(s, r)
        if focused and enabled:
            rounded(surface, r.inflate(layout.px(8), layout.px(8)), theme.FOCUS_RING, radius + layout.px(4),
                    max(2, layout.px(3)))
        px = self.text_px(layout) if text_px is None else min(text_px, self.text_px(layout))
        _report_button(self.text(), r, layout.font_px(self.size), px)
        draw_text(surface, self.text(), self.text_rect(layout), px, fg, bold=True, align="center")

    def text_rect(self, layout) -> pygame.Rect:
        """Where the label goes: the button less its padding."""
        return self.screen_rect(layout).inflate(-2 * layout.px(10), -layout.px(4))

    def text_px(self, layout) -> int:
        """The size the label alone would be drawn at: its size, shrunk until it fits."""
        r = self.text_rect(layout)
        return fonts.fit_size(self.text(), min(layout.font_px(self.size), max(6, int(r.h * 0.95))),
                              r.w, True)


def sibling_groups(buttons: list[Button]) -> list[list[Button]]:
    """Buttons that read as one set: of one size and in one row (the same top and height)
    or one column (the same left and width), joined through each other, so a row of tabs
    and a menu column are each one group."""
    parent = list(range(len(buttons)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for i, a in enumerate(buttons):
        for j in range(i):
            b = buttons[j]
            ax, ay, aw, ah = a.rect
            bx, by, bw, bh = b.rect
            if a.size == b.size and ((ay, ah) == (by, bh) or (ax, aw) == (bx, bw)):
                parent[root(i)] = root(j)
    groups: dict[int, list[Button]] = {}
    for i, b in enumerate(buttons):
        groups.setdefault(root(i), []).append(b)
    return list(groups.values())


def shared_text_px(buttons: list[Button], layout) -> dict[str, int]:
    """Each button's label size when drawn beside its siblings (``sibling_groups``): the
    smallest any of them needs, so a long label shrinks its whole row, not itself alone."""
    out: dict[str, int] = {}
    for group in sibling_groups(buttons):
        px = min(b.text_px(layout) for b in group)
        for b in group:
            out[b.id] = px
    return out


# What buttons drew, for the test that siblings share one text size: (label, window rect,
# nominal pixel size, the label's pixel size)
BUTTON_REPORT: list[tuple[str, pygame.Rect, int, int]] = []


def _report_button(text: str, rect: pygame.Rect, nominal: int, px: int) -> None:
    if len(BUTTON_REPORT) < FIT_REPORT_MAX:
        BUTTON_REPORT.append((text, rect, nominal, px))


@dataclass
class TextField(Widget):
    value: str = ""
    placeholder: Callable[[], str] | str = ""
    max_len: int = 80
    size: int = 22

    caret: int | None = None            # None: at the end

    def focusable(self) -> bool:
        return True

    def at(self) -> int:
        return len(self.value) if self.caret is None else max(0, min(len(self.value), self.caret))

    def type(self, text: str) -> str:
        """Insert at the caret; what would pass ``max_len`` is not taken (the same limit everywhere),
        nor characters the font cannot draw, which are returned so the scene can say why."""
        refused = fonts.missing(text)
        if refused:
            text = "".join(c for c in text if c not in refused)
        i = self.at()
        text = text[: max(0, self.max_len - len(self.value))]
        self.value = self.value[:i] + text + self.value[i:]
        self.caret = i + len(text)
        return refused

    def backspace(self) -> None:
        i = self.at()
        if i:
            self.value = self.value[:i - 1] + self.value[i:]
            self.caret = i - 1

    def delete(self) -> None:
        i = self.at()
        self.value = self.value[:i] + self.value[i + 1:]
        self.caret = i

    def move_caret(self, where) -> None:
        if where == "home":
            self.caret = 0
        elif where == "end":
            self.caret = None
        else:
            self.caret = max(0, min(len(self.value), self.at() + int(where)))

    def draw(self, surface, layout, hover: bool, focused: bool, enabled: bool = True,
             caret_on: bool = True) -> None:
        r = self.screen_rect(layout)
        radius = layout.px(8)
        rounded(surface, r, theme.PAPER, radius)
        rounded(surface, r, theme.SELECT if focused else theme.PAPER_LINE, radius, max(2, layout.px(2)))
        pad = layout.px(12)
        inner = r.inflate(-2 * pad, -layout.px(6))
        if self.value:
            # a long value scrolls so the caret stays in view
            px = layout.font_px(self.size)
            room = inner.w - layout.px(6)
            i = self.at() if focused else len(self.value)
            start = 0
            while start < i and fonts.text_width(self.value[start:i], px) > room:
                start += 1
            shown = self.value[start:]
            while len(shown) > 1 and fonts.text_width(shown, px) > room:
                shown = shown[:-1]
            draw_text(surface, shown, inner, px, theme.INK)
            end = inner.x + fonts.text_width(self.value[start:i], px)
        else:
            ph = self.placeholder() if callable(self.placeholder) else self.placeholder
            draw_text(surface, ph, inner, layout.font_px(self.size), theme.INK_SOFT)
            end = inner.x
        if focused and caret_on:
            h = int(inner.h * 0.7)
            pygame.draw.rect(surface, theme.INK, (end + 2, inner.centery - h // 2, max(2, layout.px(2)), h))


PAD_TYPES = "A ⌨"       # a pad's A opens the on-screen keyboard (client/onscreen_keyboard.py)


def pad_typing_badge(surface, layout, field_rect: pygame.Rect) -> None:
    """On a focused text field while a game controller is in use: A types (the keyboard)."""
    h = int(field_rect.h * 0.62)
    px = layout.font_px(16)
    w = fonts.text_width(PAD_TYPES, px, True) + layout.px(14)
    badge = pygame.Rect(field_rect.right - w - layout.px(6), field_rect.centery - h // 2, w, h)
    rounded(surface, badge, theme.BUTTON_SECONDARY, h // 2)
    draw_text(surface, PAD_TYPES, badge.inflate(-layout.px(8), 0), px, theme.TEXT_ON_FELT, bold=True,
              align="center")


def ellipsize(text: str, px: int, width: int, bold: bool = False) -> str:
    """``text`` cut with "…" to fit ``width`` at ``px`` (a long name at a readable size)."""
    if fonts.text_width(text, px, bold) <= width:
        return text
    n = len(text)
    while n > 1 and fonts.text_width(text[:n].rstrip() + "…", px, bold) > width:
        n -= 1
    return text[:n].rstrip() + "…"


def wrap_long(text: str, px: int, width: int, bold: bool = False) -> list[str]:
    """Word wrap that also cuts a word wider than the line (a long path) where it must."""
    out = []
    for line in fonts.wrap(text, px, width, bold):
        while fonts.text_width(line, px, bold) > width and len(line) > 1:
            n = len(line)
            while n > 1 and fonts.text_width(line[:n], px, bold) > width:
                n -= 1
            out.append(line[:n])
            line = line[n:]
        out.append(line)
    return out


class ProgressBar:
    @staticmethod
    def draw(surface, rect: pygame.Rect, fraction: float, layout, label: str = "") -> None:
        radius = rect.h // 2
        rounded(surface, rect, theme.PROGRESS_BG, radius)
        fw = int(rect.w * max(0.0, min(1.0, fraction)))
        if fw > 0:
            rounded(surface, pygame.Rect(rect.x, rect.y, max(fw, rect.h), rect.h), theme.PROGRESS_FG, radius)
        if label:
            draw_text(surface, label, rect.inflate(-layout.px(16), 0), int(rect.h * 0.72),
                      theme.WHITE, bold=True, align="center", shadow=True)


class Toast:
    """A short message in the player's language at the bottom of the window.

    A long message wraps onto up to three lines (the box grows upwards) instead of
    shrinking to an unreadable size; ``queue=True`` waits for the message on show."""

    MAX_LINES = 3

    def __init__(self) -> None:
        self.text = ""
        self.kind = "info"
        self.left = 0.0
        self.queue: list[tuple[str, str, float]] = []

    def show(self, text: str, kind: str = "info", seconds: float = 3.5, queue: bool = False) -> None:
        if queue and self.visible:
            self.queue.append((text, kind, seconds))
            return
        self.text, self.kind, self.left = text, kind, seconds

    def drop(self, keep: tuple[str, ...] = ("error",)) -> None:
        """Take away what is shown and queued, but for the kinds in ``keep``: a new screen
        does not carry the last one's passing news (an error, which lost something, stays)."""
        self.queue = [q for q in self.queue if q[1] in keep]
        if self.visible and self.kind not in keep:
            self.left = 0.0
            if self.queue:
                self.text, self.kind, self.left = self.queue.pop(0)

    FADE = 0.3

    def update(self, dt: float) -> bool:
        """Count down; True when what is shown changed (a toast went away or the next came)."""
        was = self.visible
        if self.left > 0:
            self.left = max(0.0, self.left - dt)
        changed = was != self.visible
        if self.left <= 0 and self.queue:
            self.text, self.kind, self.left = self.queue.pop(0)
            changed = True
        return changed

    @property
    def visible(self) -> bool:
        return self.left > 0 and bool(self.text)

    @property
    def fading(self) -> bool:
        """Only the fade-out moves: a toast that is just shown needs no redraw."""
        return self.visible and self.left < self.FADE

    def lines(self, layout, area: pygame.Rect | None = None) -> tuple[list[str], int]:
        """The wrapped lines and their pixel size for the current window (and ``area``)."""
        px = layout.font_px(20)
        inner_w = self._width(layout, area) - layout.px(40)
        if fonts.text_width(self.text, px) <= inner_w:
            return [self.text], px
        for size in (20, 18, 17, 16):
            px = layout.font_px(size)
            lines = wrap_long(self.text, px, inner_w)
            if len(lines) <= self.MAX_LINES:
                return lines, px
        # longer still (a deep path): more lines rather than a cut-off message
        return wrap_long(self.text, px, inner_w)[: 2 * self.MAX_LINES], px

    @staticmethod
    def _width(layout, area: pygame.Rect | None) -> int:
        w = layout.rect(Toast.BOTTOM).w
        return w if area is None else min(w, area.w)

    BOTTOM = (240, 648, 800, 48)     # design units: where a toast goes on a scene without an area

    def rect(self, layout, avoid=(), area: pygame.Rect | None = None) -> pygame.Rect:
        """Where the toast goes: centred in the scene's ``area`` (``Scene.toast_area``: a
        band that covers nothing the player reads), or else at the bottom, moved up above
        any button it would cover."""
        lines, px = self.lines(layout, area)
        line_h = int(px * 1.3)
        r = layout.rect(self.BOTTOM)
        extra = (len(lines) - 1) * line_h
        if area is not None:
            r = pygame.Rect(0, 0, self._width(layout, area), r.h + extra)
            r.center = area.center
            r.top = max(r.top, area.top) if r.h > area.h else r.top
            return r
        r = pygame.Rect(r.x, r.y - extra, r.w, r.h + extra)
        gap = layout.px(8)
        for _ in range(len(avoid) + 1):
            hit = [a for a in avoid if r.colliderect(a.inflate(gap, gap))]
            if not hit:
                break
            r.bottom = min(a.top for a in hit) - gap
        return r

    def draw(self, surface, layout, avoid=(), area: pygame.Rect | None = None) -> None:
        if not self.visible:
            return
        lines, px = self.lines(layout, area)
        line_h = int(px * 1.3)
        r = self.rect(layout, avoid, area)
        s = pygame.Surface(r.size, pygame.SRCALPHA)
        alpha = int(235 * min(1.0, self.left / self.FADE))
        pygame.draw.rect(s, (*theme.TOAST_BG, alpha), s.get_rect(), border_radius=layout.px(12))
        edge = {"error": theme.BAD, "good": theme.OK}.get(self.kind, theme.GOLD)
        pygame.draw.rect(s, (*edge, alpha), pygame.Rect(0, 0, layout.px(8), r.h),
                         border_top_left_radius=layout.px(12), border_bottom_left_radius=layout.px(12))
        surface.blit(s, r)
        inner = r.inflate(-layout.px(40), -layout.px(8))
        y = inner.centery - (len(lines) * line_h) // 2
        for line in lines:
            draw_text(surface, line, pygame.Rect(inner.x, y, inner.w, line_h), px, theme.WHITE,
                      align="center")
            y += line_h


class Celebration:
    """A banner and a burst of confetti for a moment worth it (a Bonanza, a joker, the upper
    bonus, a new best): under a second, never in the way of input (any key ends it)."""

    DURATION = 0.9
    COLORS = (theme.GOLD, theme.WHITE, theme.BUTTON, theme.HINT, theme.OK, theme.PENDING)

    def __init__(self, text: str, start: float, center: tuple[float, float], count: int = 72):
        self.text = text
        self.start = start
        self.center = center            # design units
        # a fixed fan of pieces (cosmetic, never game randomness)
        self.pieces = []
        for k in range(count):
            ang = (k * 137.508) % 360 * math.pi / 180
            speed = 140 + (k * 97) % 101 * 5.6
            self.pieces.append((math.cos(ang) * speed * 1.3, math.sin(ang) * speed * 0.8 - 160,
                                7 + (k * 7) % 7, self.COLORS[k % len(self.COLORS)]))

    def active(self, now: float) -> bool:
        return now - self.start < self.DURATION

    def draw(self, surface, layout, now: float) -> None:
        t = now - self.start
        if not 0 <= t < self.DURATION:
            return
        fade = min(1.0, (self.DURATION - t) / 0.3)
        cx, cy = self.center
        for vx, vy, size, color in self.pieces:
            x = cx + vx * t
            y = cy + vy * t + 700 * t * t          # a little gravity
            flip = abs(math.sin(t * 14 + vx))      # confetti turning over as it falls
            r = layout.rect((x - size / 2, y - size / 2, size, max(2.0, size * 1.5 * flip)))
            shade = color if fade >= 1 else tuple(int(c * fade + f * (1 - fade)) for c, f in zip(color, theme.FELT))
            pygame.draw.rect(surface, shade, r)
        pop = 1.0 + 0.3 * max(0.0, 1 - t / 0.15)   # the banner pops in, then holds
        w, h = 470 * pop, 74 * pop
        box = layout.rect((cx - w / 2, cy - h / 2, w, h))
        # an opaque panel with a colour key for its corners, faded as a whole
        key = (255, 0, 255)
        panel = pygame.Surface(box.size)
        panel.fill(key)
        panel.set_colorkey(key)
        pygame.draw.rect(panel, theme.TOAST_BG, panel.get_rect(), border_radius=layout.px(16))
        pygame.draw.rect(panel, theme.GOLD, panel.get_rect(), max(2, layout.px(4)), border_radius=layout.px(16))
        draw_text(panel, self.text, panel.get_rect().inflate(-layout.px(28), -layout.px(10)),
                  layout.font_px(int(40 * pop)), theme.GOLD, bold=True, align="center")
        panel.set_alpha(int(255 * fade))
        surface.blit(panel, box)
