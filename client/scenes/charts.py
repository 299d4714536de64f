"""Charts of the player's solo games, from Records: the scores beside the optimal
player's, the accuracy of every game over time and each game's luck against what its
decisions lost.  Pictures drawn with pygame primitives; the figures come from
``core.analysis`` and ``core.optimal_sim``.

A game's analysis takes 50-150 ms and the optimal distribution about a second, so both
run on a worker thread (the charts fill in as results arrive, a frame never waits) and
are kept for the process: per store and game id, and per ruleset.

Keys: Left/Right switch the ruleset, Tab reaches the buttons, Enter presses, Escape goes
back.  Mouse: the ruleset buttons and Back.
"""
from __future__ import annotations

import math
import threading
from typing import NamedTuple

import numpy as np
import pygame

from bonanza.core.settings import RULESETS

from .. import actions as A
from .. import lang, theme
from ..i18n import format_decimal
from ..widgets import draw_text, shadowed_panel
from .base import Scene

SOLO_MODES = ("solo", "daily")   # one seat each: the player's score is seat 0's
HISTORY_LIMIT = 5000             # the histogram counts every game the store keeps
CHART_GAMES = 30                 # the per-game charts show the newest games only
OPTIMAL_GAMES = 4000             # standard error of the optimal mean ~0.8 points
OPTIMAL_SEED = 2024              # the same picture every time the screen opens
# design units
HIST = (40, 122, 600, 482)
ACC = (660, 122, 580, 234)
LUCK = (660, 370, 580, 234)
YOU = theme.SEAT_COLORS[0]
OPTIMAL = (120, 168, 220)
LUCK_COLOR = (60, 150, 110)       # one colour up and down: a bad roll is not a mistake


class GamePoint(NamedTuple):
    """What the per-game charts need of one analysed game."""
    accuracy: float | None
    luck: float
    skill_loss: float


# Kept for the process: opening the screen again costs nothing.  A store is told
# apart by its file (an in-memory store by the object) so two data folders never mix.
_lock = threading.Lock()
_optimal: dict[str, np.ndarray] = {}
_points: dict[tuple, GamePoint] = {}


def _store_key(store) -> object:
    return getattr(store, "path", None) or id(store)


def optimal_distribution(ruleset: str, advisor) -> np.ndarray:
    """Final scores of ``OPTIMAL_GAMES`` seeded optimal solo games (computed once)."""
    with _lock:
        if ruleset in _optimal:
            return _optimal[ruleset]
    from bonanza.core.optimal_sim import optimal_scores
    scores = optimal_scores(advisor, OPTIMAL_GAMES, np.random.default_rng(OPTIMAL_SEED))
    scores.setflags(write=False)
    with _lock:
        return _optimal.setdefault(ruleset, scores)


def game_point(store, game_id: int, advisor) -> GamePoint:
    key = (_store_key(store), game_id)
    with _lock:
        if key in _points:
            return _points[key]
    from bonanza.core.analysis import analyse_log
    from bonanza.core.log import parse_log
    sa = analyse_log(parse_log(store.game_log(game_id)), advisor, with_win_chance=False).seats[0]
    point = GamePoint(sa.accuracy, sa.luck, sa.skill_loss)
    with _lock:
        return _points.setdefault(key, point)


def cached_point(store, game_id: int) -> GamePoint | None:
    with _lock:
        return _points.get((_store_key(store), game_id))


def solo_games(store, ruleset: str) -> list:
    """The player's finished, sound one-seat games of ``ruleset``, oldest first."""
    if store is None:
        return []
    try:
        recs = store.history(HISTORY_LIMIT)
    except Exception:
        return []
    return [r for r in reversed(recs) if r.ruleset == ruleset and r.mode in SOLO_MODES
            and r.finished and not r.damaged]


def nice_bins(lo: float, hi: float, most: int = 24) -> tuple[int, int, int]:
    """(start, stop, width) of round-numbered bins covering [lo, hi]."""
    for width in (10, 20, 25, 50, 100, 200):
        start = int(lo // width) * width
        stop = int(-(-(hi + 1) // width)) * width
        if (stop - start) // width <= most:
            return start, stop, width
    return start, stop, width


def histogram(scores, start: int, stop: int, width: int) -> np.ndarray:
    """Share of all ``scores`` in each bin; the few outside are left out rather than
    piled into an end bin, where they would look like a bump."""
    n = (stop - start) // width
    if len(scores) == 0:
        return np.zeros(n)
    idx = (np.asarray(scores) - start) // width
    idx = idx[(idx >= 0) & (idx < n)].astype(int)
    return np.bincount(idx, minlength=n)[:n] / len(scores)


def number(value: float) -> str:
    return format_decimal(value, lang.current())


class ChartsScene(Scene):
    title_key = "charts.title"

    def __init__(self, app, ruleset: str = "bonanza"):
        super().__init__(app)
        self.ruleset = ruleset if ruleset in RULESETS else "bonanza"
        self.games: list = []
        self.scores: list[int] = []
        self.error: str | None = None
        self._stop = threading.Event()
        self._threads: dict[str, threading.Thread] = {}
        w = 136 if len(RULESETS) > 2 else 176   # the tabs end where the panels do (x 1240)
        for i, rs in enumerate(RULESETS):
            self.button(f"rs:{rs}", (1240 - (len(RULESETS) - i) * (w + 8) + 8, 64, w, 44),
                        lambda r=rs: self.t(f"records.ruleset.{r}"), style="secondary", size=19)
        self.button("back", (530, 652, 220, 50), lambda: self.t("common.back"), style="secondary", size=21)
        self.focus_id = "back"
        self.reload()

    @property
    def store(self):
        return self.app.profile.store

    # ---------------------------------------------------------- the work
    def reload(self) -> None:
        self.games = solo_games(self.store, self.ruleset)
        self.scores = [r.score for r in self.games]
        self.app.dirty = True
        if self.games:
            self.start()

    def recent(self) -> list:
        return self.games[-CHART_GAMES:]

    def start(self) -> None:
        t = self._threads.get(self.ruleset)
        if t is None or not t.is_alive():
            if t is not None and self.done():
                return
            t = threading.Thread(target=self._run, args=(self.ruleset, list(self.recent())),
                                 name=f"charts-{self.ruleset}", daemon=True)
            self._threads[self.ruleset] = t
            t.start()

    def _advisor(self, ruleset: str):
        loader = self.app.advisor_loader(ruleset)
        if loader is not None:
            return loader.result()
        from bonanza.core.advisor import get_advisor
        return get_advisor(ruleset)

    def _run(self, ruleset: str, games: list) -> None:
        try:
            adv = self._advisor(ruleset)
            # the newest games first: the right end of the charts fills in before the left
            for rec in reversed(games):
                if self._stop.is_set():
                    return
                game_point(self.store, rec.id, adv)
                self.app.dirty = True
            if not self._stop.is_set():
                optimal_distribution(ruleset, adv)
        except Exception as e:        # shown on the screen, never a crash of the window
            self.error = str(e) or type(e).__name__
        self.app.dirty = True

    def wait(self, timeout: float = 60.0) -> bool:
        """Block until this ruleset's figures are in (tests); True when they are."""
        t = self._threads.get(self.ruleset)
        if t is not None:
            t.join(timeout)
        return self.done()

    def on_exit(self) -> None:
        self._stop.set()

    def points(self) -> list[tuple[int, GamePoint | None]]:
        """(position, figures or None while computing) of the games in the per-game charts."""
        return [(i, cached_point(self.store, r.id)) for i, r in enumerate(self.recent())]

    def optimal(self) -> np.ndarray | None:
        with _lock:
            return _optimal.get(self.ruleset)

    def analysed(self) -> int:
        return sum(p is not None for _, p in self.points())

    def done(self) -> bool:
        """Every figure of this ruleset's charts is in (nothing to do without a game)."""
        return not self.games or (self.optimal() is not None and self.analysed() == len(self.recent()))

    def still_redraw(self) -> float:
        return 0.2 if self.games and not self.done() and self.error is None else super().still_redraw()

    # ---------------------------------------------------------- input
    def focus_order(self) -> list[str]:
        return [f"rs:{rs}" for rs in RULESETS] + ["back"]

    def handle(self, action) -> None:
        n = action.name
        if n in (A.LEFT, A.RIGHT):
            names = list(RULESETS)
            step = 1 if n == A.RIGHT else -1
            self.set_ruleset(names[(names.index(self.ruleset) + step) % len(names)])
        else:
            super().handle(action)

    def on_press(self, id: str) -> None:
        if id.startswith("rs:"):
            self.set_ruleset(id[3:])
        elif id == "back":
            self.back()

    def set_ruleset(self, ruleset: str) -> None:
        if ruleset != self.ruleset:
            self.ruleset = ruleset
            self.reload()

    # ---------------------------------------------------------- drawing
    def draw(self, surface) -> None:
        L = self.layout
        self.draw_background(surface)
        draw_text(surface, self.t("charts.title"), L.rect((40, 58, 820, 56)), L.font_px(34),
                  theme.TEXT_ON_FELT, bold=True, shadow=True)
        for w in self.widgets:
            if w.id.startswith("rs:"):
                w.style = "primary" if w.id == f"rs:{self.ruleset}" else "secondary"
        if not self.games:
            self.draw_empty(surface)
        else:
            self.draw_histogram(surface)
            self.draw_accuracy(surface)
            self.draw_luck(surface)
            draw_text(surface, self.t("charts.hint"), L.rect((40, 614, 1200, 26)), L.font_px(16),
                      theme.TEXT_ON_FELT_SOFT, align="center")
        self.draw_widgets(surface)

    def draw_empty(self, surface) -> None:
        """No game yet: the three charts as empty frames, and what will fill them."""
        L = self.layout
        for card, key in ((HIST, "charts.scores"), (ACC, "charts.accuracy"), (LUCK, "charts.luck_skill")):
            self.card(surface, card, self.t(key), faded=True)
        # a ghost of the optimal curve: the shape the player's bars will stand beside
        x, y, w, h = HIST
        pts = [L.point(x + 40 + (w - 80) * i / 40, y + h - 70 - (h - 170) * math.exp(-((i - 20) / 7) ** 2))
               for i in range(41)]
        pygame.draw.lines(surface, theme.PAPER_LINE, False, pts, max(2, L.px(3)))
        x, y, w, h = ACC
        dots = [L.point(x + 60 + (w - 100) * i / 7, y + 150 - 50 * math.sin(i * 1.3) ** 2) for i in range(8)]
        pygame.draw.lines(surface, theme.PAPER_LINE, False, dots, max(2, L.px(2)))
        for c in dots:
            pygame.draw.circle(surface, theme.PAPER_LINE, c, L.px(6))
        x, y, w, h = LUCK
        for i in range(8):
            bx = x + 70 + (w - 110) * i / 7
            up = 40 * math.cos(i * 2.1)
            pygame.draw.rect(surface, theme.PAPER_LINE, L.rect((bx - 12, y + 140 - max(up, 0), 10, abs(up))))
            pygame.draw.rect(surface, theme.PAPER_LINE, L.rect((bx + 2, y + 140, 10, 14 + 20 * (i % 3))))
        box = L.rect((240, 436, 800, 136))
        shadowed_panel(surface, box, theme.FELT_DARK, L.px(16), L.px(4))
        draw_text(surface, self.t("charts.empty", ruleset=self.t(f"records.ruleset.{self.ruleset}")),
                  L.rect((264, 452, 752, 44)), L.font_px(24), theme.TEXT_ON_FELT, bold=True, align="center")
        draw_text(surface, self.t("charts.empty_how"), L.rect((264, 506, 752, 48)), L.font_px(18),
                  theme.TEXT_ON_FELT_SOFT, align="center")

    def card(self, surface, rect, title: str, faded: bool = False, title_w: float | None = None) -> None:
        L = self.layout
        shadowed_panel(surface, L.rect(rect), theme.PAPER_SHADE if faded else theme.PAPER, L.px(14), L.px(5))
        x, y, w, _ = rect
        draw_text(surface, title, L.rect((x + 18, y + 8, title_w or w - 36, 30)), L.font_px(20),
                  theme.INK_SOFT if faded else theme.INK, bold=True)

    def computing(self, surface, rect, done: int, total: int) -> None:
        L = self.layout
        x, y, w, h = rect
        text = self.t("charts.computing", done=done, total=total)
        if self.error is not None:
            text = self.t("analysis.failed", detail=self.error)
        draw_text(surface, text, L.rect((x + 20, y + h / 2 - 16, w - 40, 32)), L.font_px(18),
                  theme.BAD if self.error else theme.INK_SOFT, align="center")

    def legend(self, surface, x, y, items, slot) -> None:
        """Colour swatches with their labels, left to right."""
        L = self.layout
        for i, (color, label) in enumerate(items):
            sx = x + i * slot
            pygame.draw.rect(surface, color, L.rect((sx, y + 5, 16, 12)))
            pygame.draw.rect(surface, theme.INK, L.rect((sx, y + 5, 16, 12)), 1)
            draw_text(surface, label, L.rect((sx + 22, y, slot - 30, 22)), L.font_px(15), theme.INK_SOFT)

    def dashed_v(self, surface, color, x, y0, y1, dash=6) -> None:
        L = self.layout
        y = y0
        while y < y1:
            pygame.draw.line(surface, color, L.point(x, y), L.point(x, min(y + dash, y1)), max(2, L.px(2)))
            y += 2 * dash

    # ------------------------------------------------------------ 1: scores
    def draw_histogram(self, surface) -> None:
        L = self.layout
        x, y, w, h = HIST
        self.card(surface, HIST, self.t("charts.scores"))
        opt = self.optimal()
        mine = np.asarray(self.scores)
        lo, hi = float(mine.min()), float(mine.max())
        if opt is not None:        # the optimal player's middle 99 %, and every game of the player
            lo = min(lo, float(np.percentile(opt, 0.5)))
            hi = max(hi, float(np.percentile(opt, 99.5)))
        start, stop, width = nice_bins(lo, hi)
        mine_h = histogram(mine, start, stop, width)
        opt_h = histogram(opt, start, stop, width) if opt is not None else None
        top = max(float(mine_h.max()), float(opt_h.max()) if opt_h is not None else 0.0)
        top = max(0.1, math.ceil(top * 10) / 10)        # round 10 %: the middle line is a round 5
        px, py, pw, ph = x + 58, y + 98, w - 80, h - 182
        for frac in (0.0, 0.5, 1.0):
            yy = py + ph * (1 - frac)
            pygame.draw.line(surface, theme.PAPER_LINE, L.point(px, yy), L.point(px + pw, yy), 1)
            draw_text(surface, f"{round(top * frac * 100)}%", L.rect((x + 4, yy - 10, 50, 20)),
                      L.font_px(15), theme.INK_SOFT, align="right")
        n = len(mine_h)
        bw = pw / n

        def bx(score: float) -> float:
            return px + pw * (score - start) / (stop - start)

        if opt_h is not None:       # the optimal distribution: a soft area behind the bars
            pts = [L.point(px, py + ph)]
            for i, v in enumerate(opt_h):
                yy = py + ph * (1 - v / top)
                pts += [L.point(px + i * bw, yy), L.point(px + (i + 1) * bw, yy)]
            pts.append(L.point(px + pw, py + ph))
            pygame.draw.polygon(surface, (214, 228, 242), pts)
            pygame.draw.lines(surface, OPTIMAL, False, pts, max(2, L.px(3)))
        for i, v in enumerate(mine_h):
            if v <= 0:
                continue
            bh = ph * v / top
            r = L.rect((px + i * bw + bw * 0.18, py + ph - bh, bw * 0.64, bh))
            pygame.draw.rect(surface, YOU, r)
            pygame.draw.rect(surface, theme.INK, r, 1)
        pygame.draw.line(surface, theme.INK_SOFT, L.point(px, py + ph), L.point(px + pw, py + ph), max(1, L.px(2)))
        # score labels under the bins, as many as fit
        every = max(1, math.ceil(n / 8))
        for i in range(0, n + 1, every):
            sx = px + i * bw
            # 10 below the axis: clear of the 0 % label that sits on it, at any text size
            draw_text(surface, str(start + i * width), L.rect((sx - 26, py + ph + 10, 52, 20)), L.font_px(15),
                      theme.INK_SOFT, align="center")
        # the two averages, dashed: how far the player stands from best play
        self.dashed_v(surface, theme.INK, bx(float(mine.mean())), py - 6, py + ph)
        if opt is not None:
            self.dashed_v(surface, OPTIMAL, bx(float(opt.mean())), py - 6, py + ph)
        self.legend(surface, x + 18, y + 42, [(YOU, self.tn("charts.you", len(mine),
                                                            mean=number(round(float(mine.mean()), 1))))], w - 36)
        if opt is not None:
            self.legend(surface, x + 18, y + 66, [(OPTIMAL, self.tn(
                "charts.optimal", len(opt), mean=number(round(float(opt.mean()), 1))))], w - 36)
        else:
            draw_text(surface, self.t("charts.computing_optimal"), L.rect((x + 40, y + 66, w - 66, 22)),
                      L.font_px(15), theme.INK_SOFT)
        draw_text(surface, self.t("charts.scores_axis"), L.rect((px, py + ph + 26, pw, 22)), L.font_px(15),
                  theme.INK_SOFT, align="center")
        draw_text(surface, self.t("charts.dashed"), L.rect((x + 18, y + h - 30, w - 36, 22)), L.font_px(15),
                  theme.INK_SOFT, align="center")

    # ------------------------------------------------------------ 2: accuracy
    def plot_rect(self, card):
        x, y, w, h = card
        if card == LUCK:      # under its legend
            return x + 58, y + 72, w - 80, h - 110
        return x + 58, y + 48, w - 80, h - 86

    def slot_x(self, card, i: int, n: int) -> float:
        """The centre of game ``i`` of ``n`` (oldest left, newest right)."""
        px, _, pw, _ = self.plot_rect(card)
        return px + pw * (i + 0.5) / max(1, n)

    def time_axis(self, surface, card, width: float | None = None) -> None:
        L = self.layout
        px, py, pw, ph = self.plot_rect(card)
        width = width or pw / 2
        draw_text(surface, "← " + self.t("charts.older"), L.rect((px, py + ph + 6, width, 22)), L.font_px(15),
                  theme.INK_SOFT)
        draw_text(surface, self.t("charts.newer") + " →", L.rect((px + pw - width, py + ph + 6, width, 22)),
                  L.font_px(15), theme.INK_SOFT, align="right")

    def card_title(self) -> str:
        n = len(self.recent())
        return "" if n == len(self.games) else self.tn("charts.last_games", n)

    def draw_accuracy(self, surface) -> None:
        L = self.layout
        x, y, w, h = ACC
        self.card(surface, ACC, self.t("charts.accuracy"), title_w=w / 2 + 40)
        sub = self.card_title()
        if sub:
            draw_text(surface, sub, L.rect((x + w / 2 + 70, y + 10, w / 2 - 88, 26)), L.font_px(15), theme.INK_SOFT,
                      align="right")
        pts = [(i, p.accuracy) for i, p in self.points() if p is not None and p.accuracy is not None]
        if not pts:
            self.computing(surface, ACC, self.analysed(), len(self.recent()))
            return
        px, py, pw, ph = self.plot_rect(ACC)
        low = min(a for _, a in pts)
        lo = min(60, int(low // 10) * 10)      # most players sit between 60 and 100
        for v in (lo, (lo + 100) // 2, 100):
            yy = py + ph * (1 - (v - lo) / (100 - lo))
            pygame.draw.line(surface, theme.PAPER_LINE, L.point(px, yy), L.point(px + pw, yy), 1)
            draw_text(surface, str(v), L.rect((x + 4, yy - 10, 50, 20)), L.font_px(15), theme.INK_SOFT,
                      align="right")
        n = len(self.recent())
        xy = [L.point(self.slot_x(ACC, i, n), py + ph * (1 - (a - lo) / (100 - lo))) for i, a in pts]
        if len(xy) > 1:
            pygame.draw.lines(surface, OPTIMAL, False, xy, max(2, L.px(2)))
        for c in xy:
            pygame.draw.circle(surface, YOU, c, L.px(6))
            pygame.draw.circle(surface, theme.INK, c, L.px(6), 1)
        self.time_axis(surface, ACC)

    # ------------------------------------------------------------ 3: luck and skill
    def draw_luck(self, surface) -> None:
        L = self.layout
        x, y, w, h = LUCK
        self.card(surface, LUCK, self.t("charts.luck_skill"))
        pts = [(i, p) for i, p in self.points() if p is not None]
        px, py, pw, ph = self.plot_rect(LUCK)
        self.legend(surface, x + 18, y + 40, [(LUCK_COLOR, self.t("analysis.luck")),
                                              (theme.PENDING, self.t("charts.lost"))], (w - 36) / 2)
        if not pts:
            self.computing(surface, LUCK, self.analysed(), len(self.recent()))
            return
        # one scale for both bars: luck up (good) or down (bad), the points lost always down
        top = max([p.luck for _, p in pts] + [10.0])
        bottom = max([max(-p.luck, p.skill_loss) for _, p in pts] + [10.0])
        step = 10 if max(top, bottom) <= 40 else 25 if max(top, bottom) <= 100 else 50
        top, bottom = math.ceil(top / step) * step, math.ceil(bottom / step) * step
        zero = py + ph * top / (top + bottom)

        def to_y(v: float) -> float:
            return zero - ph * v / (top + bottom)

        for v in (top, 0, -bottom):
            yy = to_y(v)
            pygame.draw.line(surface, theme.INK_SOFT if v == 0 else theme.PAPER_LINE, L.point(px, yy),
                             L.point(px + pw, yy), max(1, L.px(2)) if v == 0 else 1)
            draw_text(surface, ("+" if v > 0 else "−" if v < 0 else "") + str(abs(v)),
                      L.rect((x + 4, yy - 10, 50, 20)), L.font_px(15), theme.INK_SOFT, align="right")
        n = len(self.recent())
        slot = pw / max(1, n)
        bar = min(14.0, slot * 0.36)
        for i, p in pts:
            cx = self.slot_x(LUCK, i, n)
            luck_top, luck_bottom = sorted((to_y(p.luck), zero))
            pygame.draw.rect(surface, LUCK_COLOR,
                             L.rect((cx - bar - 1, luck_top, bar, max(1.0, luck_bottom - luck_top))))
            pygame.draw.rect(surface, theme.PENDING,
                             L.rect((cx + 1, zero, bar, max(1.0, to_y(-p.skill_loss) - zero))))
        self.time_axis(surface, LUCK)
