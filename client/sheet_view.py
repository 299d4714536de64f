"""The score sheet: one column per seat, previews in the active column,
the selection, and the pending "Write?" / "Scratch?" on the box itself."""
from __future__ import annotations

import pygame

from bonanza.core.rules import RULESETS, Ruleset

from . import actions as A
from . import fonts, lang, theme
from .actions import Action
from .marks import status_mark
from .texts import box_key
from .widgets import draw_text, ellipsize, shadowed_panel

HEADER_H = 44


def _rows(rs: Ruleset, joker_row: bool) -> list:
    """rows: (kind, key): the upper boxes, their sum and bonus, the lower boxes, the total."""
    return ([("box", b) for b in rs.layout.upper]
            + [("sum", "upper"), ("sum", "bonus")]
            + [("box", b) for b in rs.layout.lower]
            + ([("sum", "joker")] if joker_row else []) + [("sum", "total")])


ROWS = _rows(RULESETS["bonanza"], True)    # the classic sheet, when no ruleset is known


def rows_for(ruleset) -> list:
    """The sheet's rows under ``ruleset`` (a name or a Ruleset): its own boxes, and no joker
    row without a joker."""
    name = getattr(ruleset, "name", ruleset)
    if name is None:
        return list(ROWS)
    rs = RULESETS[name] if isinstance(ruleset, str) else ruleset
    return _rows(rs, rs.joker)
COUNT_SECONDS = 0.5          # a written box counts up to its points


def draw_scratch(surface, rect: pygame.Rect, layout) -> None:
    """A scratched box: a dash struck through, so it never reads as a written 0."""
    cx, cy = rect.center
    half = max(layout.px(8), min(rect.w // 4, rect.h))
    lift = max(layout.px(4), rect.h // 4)
    pygame.draw.line(surface, theme.INK_SOFT, (cx - half, cy), (cx + half, cy), max(2, layout.px(2)))
    pygame.draw.line(surface, theme.BAD, (cx - half, cy + lift), (cx + half, cy - lift), max(2, layout.px(3)))


def ease_out(f: float) -> float:
    f = max(0.0, min(1.0, f))
    return 1 - (1 - f) ** 3


class SheetView:
    def __init__(self, rect, label_w: float, ruleset=None):
        self.rect = rect                 # design units
        self.rows = rows_for(ruleset)
        self.ruleset = getattr(ruleset, "name", ruleset)
        self.label_w = label_w
        self._static_key: tuple | None = None
        self._static: pygame.Surface | None = None
        self.counts: dict[tuple[int, str], tuple[float, int]] = {}   # (col, box) -> (start, points)

    def count_up(self, col: int, box: str, points: int, now: float) -> None:
        if points:
            self.counts[(col, box)] = (now, points)

    def counting(self, now: float) -> bool:
        self.counts = {k: v for k, v in self.counts.items() if now - v[0] < COUNT_SECONDS}
        return bool(self.counts)

    def _shown(self, col: int, box: str, value: int, now: float | None) -> int:
        if now is None:
            return value
        c = self.counts.get((col, box))
        if c is None:
            return value
        return int(round(value * ease_out((now - c[0]) / COUNT_SECONDS)))

    def geometry(self, ncols: int):
        x, y, w, h = self.rect
        col_w = (w - self.label_w - 16) / max(1, ncols)
        row_h = (h - HEADER_H - 12) / len(self.rows)
        return x, y, w, h, col_w, row_h

    def row_rect(self, i: int, ncols: int):
        x, y, w, h, col_w, row_h = self.geometry(ncols)
        return (x + 8, y + HEADER_H + 4 + i * row_h, w - 16, row_h)

    def cell_rect(self, i: int, col: int, ncols: int):
        x, y, w, h, col_w, row_h = self.geometry(ncols)
        return (x + 8 + self.label_w + col * col_w, y + HEADER_H + 4 + i * row_h, col_w, row_h)

    def header_rect(self, col: int, ncols: int):
        x, y, w, h, col_w, row_h = self.geometry(ncols)
        return (x + 8 + self.label_w + col * col_w, y + 6, col_w, HEADER_H - 8)

    def targets(self, layout, ncols: int, col: int, boxes) -> list:
        """Click targets of the writable boxes: the row label plus the active cell."""
        out = []
        for i, (kind, key) in enumerate(self.rows):
            if kind == "box" and key in boxes:
                lx = self.row_rect(i, ncols)
                cx = self.cell_rect(i, col, ncols)
                r = layout.rect((lx[0], lx[1], cx[0] + cx[2] - lx[0], lx[3]))
                out.append((r, Action(A.BOX, key)))
        return out

    # ------------------------------------------------------------- drawing
    def _draw_static(self, surface, layout, ncols: int):
        """The paper, the grid and the row labels (cached per size and language)."""
        key = (surface.get_size(), ncols, lang.current(), tuple(layout.rect(self.rect)))
        if self._static_key != key:
            r = layout.rect(self.rect)
            layer = pygame.Surface((r.w + layout.px(12), r.h + layout.px(12)), pygame.SRCALPHA)
            local = pygame.Rect(0, 0, r.w, r.h)
            shadowed_panel(layer, local, theme.PAPER, layout.px(14), layout.px(5))
            ox, oy = r.x, r.y
            for i, (kind, k) in enumerate(self.rows):
                rr = layout.rect(self.row_rect(i, ncols)).move(-ox, -oy)
                if kind == "sum":
                    pygame.draw.rect(layer, theme.PAPER_SHADE, rr)
                if i in (0, 8):
                    pygame.draw.line(layer, theme.INK_SOFT, rr.topleft, rr.topright, max(1, layout.px(2)))
                else:
                    pygame.draw.line(layer, theme.PAPER_LINE, rr.topleft, rr.topright, 1)
                label = lang.t(box_key(k, self.ruleset)) if kind == "box" else lang.t({
                    "upper": "game.upper_subtotal", "bonus": "game.upper_bonus",
                    "joker": "game.joker_bonus", "total": "game.total"}[k])
                lr = layout.rect((self.row_rect(i, ncols)[0] + 10, self.row_rect(i, ncols)[1],
                                  self.label_w - 16, self.row_rect(i, ncols)[3])).move(-ox, -oy)
                draw_text(layer, label, lr, layout.font_px(19), theme.INK, bold=(kind == "sum"))
            last = layout.rect(self.row_rect(len(self.rows) - 1, ncols)).move(-ox, -oy)
            pygame.draw.line(layer, theme.INK_SOFT, last.bottomleft, last.bottomright, max(1, layout.px(2)))
            for c in range(ncols):
                cr = layout.rect(self.cell_rect(0, c, ncols)).move(-ox, -oy)
                pygame.draw.line(layer, theme.PAPER_LINE, (cr.x, layout.px(8)), (cr.x, last.bottom), 1)
            self._static = layer
            self._static_key = key
        surface.blit(self._static, layout.rect(self.rect).topleft)

    def draw(self, surface, layout, state, *, active_col: int | None, previews: dict,
             selection: str | None, pending, seat_labels: list, seat_status: list | None = None,
             show_selection: bool = True, highlight: dict | None = None,
             marks: set | None = None, now: float | None = None) -> None:
        """``marks``: (seat, box) cells written by the clock, flagged in their corner;
        ``now``: the clock of the count-ups (``count_up``), None draws every box as it is."""
        ncols = len(state.sheets)
        self._draw_static(surface, layout, ncols)
        rs = state.ruleset
        # header: seat names, bot badges, connection dots
        for c, label in enumerate(seat_labels):
            hr = layout.rect(self.header_rect(c, ncols))
            if c == active_col:
                pygame.draw.rect(surface, theme.GOLD, hr, border_radius=layout.px(8))
            status = seat_status[c] if seat_status else None
            text_r = hr.inflate(-layout.px(8), 0)
            if status is not None:
                dot_r = layout.px(5)
                # a shape per status, not a colour alone (client/marks.py)
                status_mark(surface, status, (hr.x + layout.px(10), hr.centery), dot_r)
                text_r = pygame.Rect(hr.x + layout.px(18), hr.y, hr.w - layout.px(22), hr.h)
            # a long name shrinks only down to a readable size, then is cut with "…"
            small = max(theme.MIN_READABLE_PX, layout.font_px(14))
            if fonts.fit_size(label, layout.font_px(18), text_r.w, True, small) <= small:
                label = ellipsize(label, small, text_r.w, True)
            draw_text(surface, label, text_r, layout.font_px(18), theme.INK, bold=True, align="center")
        # active column tint
        if active_col is not None:
            top = layout.rect(self.cell_rect(0, active_col, ncols))
            bot = layout.rect(self.cell_rect(len(self.rows) - 1, active_col, ncols))
            tint = pygame.Surface((top.w, bot.bottom - top.y), pygame.SRCALPHA)
            tint.fill((*theme.ACTIVE_COL, 150))
            surface.blit(tint, top.topleft)
        px = layout.font_px(20)
        for c, sheet in enumerate(state.sheets):
            pending_points = sum(v - self._shown(c, b, v, now) for (cc, b), (_, v) in self.counts.items()
                                 if cc == c) if now is not None else 0
            for i, (kind, k) in enumerate(self.rows):
                cr = layout.rect(self.cell_rect(i, c, ncols))
                inner = cr.inflate(-layout.px(10), 0)
                if kind == "box":
                    v = sheet.get(k)
                    if v == 0:
                        draw_scratch(surface, inner, layout)
                    elif v is not None:
                        draw_text(surface, str(self._shown(c, k, v, now)), inner, px, theme.INK,
                                  bold=True, align="center")
                    if v is not None:
                        if marks and (c, k) in marks:
                            s = layout.px(9)
                            pygame.draw.polygon(surface, theme.URGENT, [
                                (cr.right - s - 1, cr.y + 1), (cr.right - 1, cr.y + 1),
                                (cr.right - 1, cr.y + s + 1)])
                    elif c == active_col and k in previews and not (pending and pending[0] == k):
                        p = previews[k]     # (a pending box shows its points on the question)
                        draw_text(surface, str(p), inner, px, theme.PREVIEW if p else theme.PREVIEW_ZERO,
                                  align="center")
                else:
                    if k == "upper":
                        text = f"{sheet.upper_sum}/{rs.upper_threshold}"
                        color = theme.OK if sheet.upper_sum >= rs.upper_threshold else theme.INK_SOFT
                    elif k == "bonus":
                        b = sheet.upper_bonus(rs)
                        text, color = (str(b), theme.OK) if b else ("–", theme.INK_SOFT)
                    elif k == "joker":
                        text, color = (str(sheet.extra_bonus), theme.OK) if sheet.extra_bonus else ("–", theme.INK_SOFT)
                    else:
                        text, color = str(sheet.total(rs) - pending_points), theme.INK
                    draw_text(surface, text, inner, px, color, bold=(k == "total"), align="center")
        if active_col is None:
            return
        # selection and the pending confirmation on the box itself
        for i, (kind, k) in enumerate(self.rows):
            if kind != "box":
                continue
            if highlight and k in highlight:
                rr = layout.rect(self.row_rect(i, ncols))
                pygame.draw.rect(surface, highlight[k], rr, max(2, layout.px(2)), border_radius=layout.px(6))
            if show_selection and k == selection and not (pending and pending[0] == k):
                # the ring spans the label and the active column only (never another seat's cell)
                lx = self.row_rect(i, ncols)
                ax = self.cell_rect(i, active_col, ncols)
                rr = layout.rect((lx[0], lx[1], self.label_w, lx[3]))
                cr = layout.rect(ax)
                pygame.draw.rect(surface, theme.SELECT, rr, max(2, layout.px(3)), border_radius=layout.px(6))
                pygame.draw.rect(surface, theme.SELECT, cr, max(2, layout.px(3)), border_radius=layout.px(6))
            if pending and pending[0] == k:
                self._draw_pending(surface, layout, i, active_col, ncols, pending[1], previews.get(k, 0))

    def _draw_pending(self, surface, layout, i, col, ncols, kind, pts) -> None:
        cx, cy, cw, ch = self.cell_rect(i, col, ncols)
        w = max(cw, 190)
        x = cx + cw - w
        x = max(x, self.rect[0] + 8)
        r = layout.rect((x, cy - 2, w, ch + 4))
        pygame.draw.rect(surface, theme.PENDING_BG, r, border_radius=layout.px(8))
        pygame.draw.rect(surface, theme.PENDING, r, max(2, layout.px(3)), border_radius=layout.px(8))
        text = lang.t("game.confirm_scratch" if kind == "scratch" else "game.confirm_register")
        text = f"{text} {pts}" if kind != "scratch" else text
        draw_text(surface, text, r.inflate(-layout.px(12), -layout.px(4)), layout.font_px(19),
                  theme.PENDING, bold=True, align="center")
