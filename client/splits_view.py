"""Splits on screen: a run's turn times beside its comparison (the splits panel during a
run, the results' splits table), drawn the same way wherever they show.

A gap is its sign and a shape as well as a colour — "−1.25 ▼" ahead of the best, "+0.40 ▲"
behind it — so a player who cannot tell green from red reads it too.  The gold split (a
turn as fast as it ever was in the category) is marked with a star, not a colour alone."""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from bonanza.core import splits as core_splits

from . import lang, theme
from .i18n import format_duration
from .widgets import draw_text

AHEAD, BEHIND, GOLD_MARK = "▼", "▲", "★"
MINUS = "−"


@dataclass(frozen=True)
class SplitRow:
    turn: int                   # 1-based
    ms: int | None              # the turn's time (the running turn: so far; None: not yet)
    gap: int | None             # the run's time minus the comparison's at this turn
    gold: bool = False          # as fast as this turn ever was in the category
    live: bool = False          # the turn being played


def split_rows(turns: list[int], total: int, best: tuple[int, ...] | None,
               gold: tuple[int, ...] | None = None, running_ms: int | None = None,
               mark_gold: bool = True) -> list[SplitRow]:
    """The rows of a run of ``total`` turns whose finished turns took ``turns`` ms; with
    ``running_ms`` (the run's time now) the turn being played is live.  ``best`` is the
    comparison's splits, ``gold`` the gold splits before this run (a finished turn at or
    under its gold, or any turn when there is none yet, is gold; none without ``mark_gold``)."""
    best_l = list(best) if best and len(best) == total else []
    gaps = core_splits.gaps(turns, best_l) if best_l else []
    rows = [SplitRow(i + 1, ms, gaps[i] if i < len(gaps) else None,
                     mark_gold and (gold is None or (len(gold) == total and ms <= gold[i])))
            for i, ms in enumerate(turns)]
    if running_ms is not None and len(turns) < total:
        so_far = max(0, running_ms - sum(turns))
        gap = core_splits.live_gap(turns, running_ms, best_l) if best_l else None
        rows.append(SplitRow(len(turns) + 1, so_far, gap, live=True))
    rows += [SplitRow(i + 1, None, None) for i in range(len(rows), total)]
    return rows


def short_time(ms: int | None) -> str:
    """A split: ``12.35`` under a minute, ``1:02.35`` over (the language's decimal mark)."""
    if ms is None:
        return "–"
    text = format_duration(ms, lang.current(), 2)
    return text[2:].lstrip("0").rjust(4, "0") if text.startswith("0:") else text


def gap_text(ms: int | None) -> str:
    """``−1.25 ▼`` ahead, ``+0.40 ▲`` behind, ``±0.00`` level."""
    if ms is None:
        return ""
    if ms == 0:
        return "±" + short_time(0)
    return (MINUS if ms < 0 else "+") + short_time(abs(ms)) + " " + (AHEAD if ms < 0 else BEHIND)


def gap_colour(ms: int | None, on_paper: bool):
    if ms is None or ms == 0:
        return theme.INK_SOFT if on_paper else theme.TEXT_ON_FELT_SOFT
    if ms < 0:
        return theme.CHECK if on_paper else theme.OK
    return theme.BAD


def draw_split_rows(surface, L, rect: tuple[int, int, int, int], rows: list[SplitRow],
                    row_h: int, px: int, on_paper: bool) -> None:
    """``rows`` in two columns inside the design rect ``rect`` (the first half on the left)."""
    x, y, w, _ = rect
    per_col = (len(rows) + 1) // 2
    col_w = (w - 16) // 2
    ink = theme.INK if on_paper else theme.TEXT_ON_FELT
    soft = theme.INK_SOFT if on_paper else theme.TEXT_ON_FELT_SOFT
    for i, row in enumerate(rows):
        cx = x + (i // per_col) * (col_w + 16)
        cy = y + (i % per_col) * row_h
        if i % per_col:
            pygame.draw.line(surface, theme.PAPER_LINE if on_paper else theme.FELT_LIGHT,
                             L.point(cx, cy), L.point(cx + col_w, cy), 1)
        cells = ((0, 0.13, f"{row.turn}.", soft, "right", False),
                 (0.16, 0.32, short_time(row.ms), theme.GOLD if row.live else ink, "right", not row.live),
                 (0.50, 0.40, gap_text(row.gap), gap_colour(row.gap, on_paper), "right", True),
                 (0.91, 0.09, GOLD_MARK if row.gold and row.ms is not None else "",
                  theme.PENDING if on_paper else theme.GOLD, "center", True))
        for fx, fw, text, colour, align, bold in cells:
            draw_text(surface, text, L.rect((cx + int(col_w * fx), cy + 1, int(col_w * fw), row_h - 2)),
                      L.font_px(px), colour, bold=bold, align=align, min_px=theme.MIN_READABLE_PX)
