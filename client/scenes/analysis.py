"""The analysis of a finished game (``core.analysis``): per seat the graph of its
expected final score over the game with its costly decisions marked, luck against
what its decisions lost, accuracy, the biggest mistakes (each opens the replay at
that decision) and, at tables, every seat's chance to win as the game went on.

The analysis runs once, on a worker thread, when the screen opens (a 4-seat game
takes 60-150 ms, longer while the advisor's table is still loading): a frame never
waits for it.

Keys: Left/Right choose the seat, Up/Down a mistake, Enter opens it in the replay,
Tab reaches the buttons, Escape goes back.  Mouse: a seat's tab, a mistake's row or
its mark on the graph.
"""
from __future__ import annotations

import threading
from typing import Any

import pygame

from bonanza.core.analysis import INACCURACY, GameAnalysis

from .. import actions as A
from .. import lang, marks, theme
from ..actions import Action
from ..i18n import format_decimal
from ..widgets import ProgressBar, draw_text, shadowed_panel
from .base import Scene

MISTAKES_SHOWN = 5
# design units
GRAPH = (40, 118, 740, 330)          # the graph card (the whole left column in a solo game)
WIN = (40, 462, 740, 134)            # the win-chance card of a table game
SIDE = (800, 118, 440, 478)          # the seat's figures and mistakes
ROW_Y, ROW_H = 386, 42               # mistakes list, inside SIDE


def number(value: float, signed: bool = False) -> str:
    text = format_decimal(value, lang.current())
    return ("+" + text) if signed and value > 0.05 else text


class AnalysisScene(Scene):
    title_key = "analysis.title"

    def __init__(self, app, verdict, replay=None, seat: int = 0):
        """``verdict``: a ``core.verify`` verdict of a finished game; ``replay``: the
        replay scene this screen was opened from (a mistake then steps it back there);
        ``seat``: the seat shown first (this window's player)."""
        super().__init__(app)
        self.verdict = verdict
        self.replay = replay
        self.analysis: GameAnalysis | None = None      # once the worker thread is done
        self.error: str | None = None
        self.seat = max(0, seat)
        self.sel = 0                     # the chosen mistake of the seat
        header = verdict.log.header if verdict is not None and verdict.log is not None else {}
        self.ruleset = (header.get("ruleset") if isinstance(header, dict) else None) or "bonanza"
        self.loader = app.advisor_loader(self.ruleset)
        self._result: tuple[str, Any] | None = None     # ("ok", GameAnalysis) or ("error", text)
        self._thread: threading.Thread | None = None
        self.button("back", (530, 652, 220, 50), lambda: self.t("common.back"), style="secondary", size=21)
        self.focus_id = "list"

    # ---------------------------------------------------------- the work
    def on_enter(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="analysis", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        from bonanza.core.analysis import analyse_log
        try:
            if self.loader is not None:
                adv = self.loader.result()
            else:
                from bonanza.core.advisor import get_advisor
                adv = get_advisor(self.ruleset)
            self._result = ("ok", analyse_log(self.verdict.log, adv))
        except Exception as e:      # shown on the screen, never a crash of the window
            self._result = ("error", str(e) or type(e).__name__)

    def wait(self, timeout: float = 30.0) -> bool:
        """Block until the analysis is done (tests); True when it is."""
        if self._thread is not None:
            self._thread.join(timeout)
        self.update(0)
        return self.analysis is not None or self.error is not None

    def update(self, dt: float) -> None:
        super().update(dt)
        if self._result is not None and self.analysis is None and self.error is None:
            kind, value = self._result
            if kind == "ok":
                self.analysis = value
                self.seat = min(self.seat, len(value.seats) - 1)
                self._make_tabs()
            else:
                self.error = value
            self.app.dirty = True

    def still_redraw(self) -> float:
        return 0.2 if self.analysis is None and self.error is None else super().still_redraw()

    def _make_tabs(self) -> None:
        if self.analysis is None:
            return
        seats = self.analysis.seats
        if len(seats) < 2:
            return
        w = min(220, (GRAPH[2] + 20 + SIDE[2]) / len(seats) - 12)
        for i, s in enumerate(seats):
            self.button(f"seat:{i}", (40 + i * (w + 12), 66, w, 42), lambda n=s.name: n,
                        style="secondary", size=18)

    # ---------------------------------------------------------- what is shown
    def current(self):
        return self.analysis.seats[self.seat] if self.analysis is not None else None

    def mistakes(self) -> list:
        sa = self.current()
        return sa.mistakes(MISTAKES_SHOWN) if sa is not None else []

    def choice_label(self, choice) -> str:
        if choice.kind == "roll":
            if not choice.keep:
                return self.t("analysis.choice.roll_all")
            return self.t("analysis.choice.keep", dice=" ".join(map(str, choice.keep)))
        return self.t(f"box.{choice.box}")

    # ---------------------------------------------------------- input
    def targets(self, layout):
        out = super().targets(layout)
        if self.analysis is None:
            return out
        for i, _ in enumerate(self.mistakes()):
            out.append((layout.rect(self.row_rect(i)), Action(A.PRESS, f"row:{i}")))
        for d, (x, y) in self.marks():
            out.append((layout.rect((x - 9, y - 9, 18, 18)), Action(A.PRESS, f"dec:{d.seq}")))
        return out

    def focus_order(self) -> list[str]:
        return (["list"] if self.mistakes() else []) + ["back"]

    def button_enabled(self, id: str) -> bool:
        return True

    def handle(self, action) -> None:
        n = action.name
        many = self.analysis is not None and len(self.analysis.seats) > 1
        if n in (A.LEFT, A.RIGHT) and many:
            self.choose_seat(self.seat + (1 if n == A.RIGHT else -1))
        elif n in (A.UP, A.DOWN) and self.focus_id == "list" and self.mistakes():
            self.sel = max(0, min(len(self.mistakes()) - 1, self.sel + (1 if n == A.DOWN else -1)))
        elif n == A.CONFIRM and self.focus_id in (None, "list"):
            ms = self.mistakes()
            if ms:
                self.open_replay(ms[min(self.sel, len(ms) - 1)])
        elif n == A.PRESS and action.arg.startswith(("row:", "dec:", "seat:")):
            self.on_press(action.arg)
        else:
            super().handle(action)

    def choose_seat(self, i: int) -> None:
        if self.analysis is None:
            return
        n = len(self.analysis.seats)
        self.seat = i % n
        self.sel = 0

    def on_press(self, id: str) -> None:
        if id == "back":
            self.back()
        elif id.startswith("seat:"):
            self.choose_seat(int(id[5:]))
        elif id.startswith("row:"):
            i = int(id[4:])
            ms = self.mistakes()
            if i < len(ms):
                self.sel = i
                self.focus_id = "list"
                self.open_replay(ms[i])
        elif id.startswith("dec:"):
            seq = int(id[4:])
            d = next((d for d in self.current().decisions if d.seq == seq), None)
            if d is not None:
                self.open_replay(d)

    def open_replay(self, decision) -> None:
        """The replay at the moment of the decision: the dice decided on, with the ones kept."""
        index = decision.seq - 1
        note = self.mistake_text(decision)
        if self.replay is not None:
            self.replay.step_to(index)
            self.replay.note = (index, note)
            self.app.pop()
            return
        r = self.app.make("replay", self.verdict, analysis=self)
        r.step_to(index)
        r.note = (index, note)
        r.keep_focus()
        self.app.push(r)

    def mistake_text(self, d) -> str:
        return "{} · {} · −{}".format(self.t("analysis.mistake", turn=d.turn, chosen=self.choice_label(d.choice)),
                                     self.t("analysis.mistake_best", best=self.choice_label(d.best_choice)),
                                     number(d.loss))

    # ---------------------------------------------------------- geometry
    def graph_card(self):
        if self.analysis is not None and len(self.analysis.seats) > 1:
            return GRAPH
        x, y, w, _ = GRAPH
        return (x, y, w, WIN[1] + WIN[3] - y)

    def plot_area(self):
        x, y, w, h = self.graph_card()
        return (x + 58, y + 44, w - 78, h - 96)

    def seq_range(self) -> int:
        return max(1, self.analysis.moves) if self.analysis is not None else 1

    def value_range(self):
        vals = [p.expected for s in self.analysis.seats for p in s.series]
        lo, hi = min(vals), max(vals)
        step = 25
        lo = int(lo // step) * step
        hi = int(-(-hi // step)) * step
        if hi - lo < 2 * step:
            hi = lo + 2 * step
        return lo, hi, step

    def to_xy(self, seq: int, value: float):
        px, py, pw, ph = self.plot_area()
        lo, hi, _ = self.value_range()
        return (px + pw * seq / self.seq_range(), py + ph * (1 - (value - lo) / (hi - lo)))

    def marks(self) -> list:
        """(decision, design point) of every graded or automatic decision of the seat."""
        sa = self.current()
        if sa is None:
            return []
        at = {p.seq: p.expected for p in sa.series}
        return [(d, self.to_xy(d.seq, at.get(d.seq, d.chosen))) for d in sa.decisions
                if d.grade is not None or d.auto]

    def row_rect(self, i: int):
        x, _, w, _ = SIDE
        return (x + 16, ROW_Y + i * ROW_H, w - 32, ROW_H - 3)

    # ---------------------------------------------------------- drawing
    def draw(self, surface) -> None:
        L = self.layout
        self.draw_background(surface)
        draw_text(surface, self.t("analysis.title"), L.rect((80, 12, 1120, 50)), L.font_px(34),
                  theme.TEXT_ON_FELT, bold=True, align="center", shadow=True)
        if self.analysis is None:
            self.draw_waiting(surface)
        else:
            for w in self.widgets:          # the chosen seat's tab looks pressed
                if w.id.startswith("seat:"):
                    w.style = "primary" if w.id == f"seat:{self.seat}" else "secondary"
                    x, y, ww, hh = w.rect     # the seat's colour in the graphs, under its tab
                    pygame.draw.rect(surface, theme.SEAT_COLORS[int(w.id[5:]) % len(theme.SEAT_COLORS)],
                                     L.rect((x + 12, y + hh + 1, ww - 24, 4)))
            self.draw_graph(surface)
            if len(self.analysis.seats) > 1:
                self.draw_win_chances(surface)
            self.draw_side(surface)
            hint = self.t("analysis.hint")
            if len(self.analysis.seats) < 2:     # no other player to switch to
                hint = hint.split(" · ")[0]
            draw_text(surface, hint, L.rect((40, 612, 1200, 28)), L.font_px(16),
                      theme.TEXT_ON_FELT_SOFT, align="center")
        self.draw_widgets(surface)

    def draw_waiting(self, surface) -> None:
        L = self.layout
        card = L.rect((240, 220, 800, 200))
        shadowed_panel(surface, card, theme.FELT_DARK, L.px(16), L.px(4))
        if self.error is not None:
            draw_text(surface, self.t("analysis.failed", detail=self.error), card.inflate(-L.px(40), 0),
                      L.font_px(22), theme.BAD, bold=True, align="center")
            return
        draw_text(surface, self.t("analysis.computing"), L.rect((260, 250, 760, 50)), L.font_px(26),
                  theme.TEXT_ON_FELT, bold=True, align="center")
        if self.loader is not None and not self.loader.ready:
            p = self.loader.progress
            ProgressBar.draw(surface, L.rect((300, 330, 680, 30)), p, L,
                             self.t("error.advisor_building", percent=int(p * 100)))

    def draw_graph(self, surface) -> None:
        analysis = self.analysis
        if analysis is None:
            return
        L = self.layout
        card = L.rect(self.graph_card())
        shadowed_panel(surface, card, theme.PAPER, L.px(14), L.px(5))
        gx, gy, gw, _ = self.graph_card()
        draw_text(surface, self.t("analysis.graph"), L.rect((gx + 18, gy + 8, gw - 36, 30)), L.font_px(20),
                  theme.INK, bold=True)
        px, py, pw, ph = self.plot_area()
        lo, hi, step = self.value_range()
        for v in range(lo, hi + 1, step):
            y = self.to_xy(0, v)[1]
            pygame.draw.line(surface, theme.PAPER_LINE, L.point(px, y), L.point(px + pw, y), 1)
            draw_text(surface, str(v), L.rect((gx + 6, y - 11, 46, 22)), L.font_px(15), theme.INK_SOFT,
                      align="right")
        sa = self.current()
        # the rounds of the chosen seat along the bottom
        ends = {}
        for p in sa.series[1:]:
            ends[p.turn] = p.seq
        for turn, seq in sorted(ends.items()):
            if turn % 2 and turn <= 15:
                x = self.to_xy(seq, lo)[0]
                draw_text(surface, str(turn), L.rect((x - 14, py + ph + 4, 28, 20)), L.font_px(15),
                          theme.INK_SOFT, align="center")
        # the start expectation: above it the seat did better than an average optimal game
        y0 = self.to_xy(0, sa.start_expected)[1]
        dash = 10
        for x in range(int(px), int(px + pw), 2 * dash):
            pygame.draw.line(surface, theme.INK_SOFT, L.point(x, y0), L.point(min(x + dash, px + pw), y0), 1)
        order = [i for i in range(len(analysis.seats)) if i != self.seat] + [self.seat]
        for i in order:
            s = analysis.seats[i]
            pts = [L.point(*self.to_xy(p.seq, p.expected)) for p in s.series]
            if len(pts) < 2:
                continue
            color = theme.SEAT_COLORS[i % len(theme.SEAT_COLORS)]
            if i == self.seat:
                pygame.draw.lines(surface, theme.INK, False, pts, max(3, L.px(4)))
                pygame.draw.lines(surface, color, False, pts, max(2, L.px(3)) - 1 or 1)
            else:
                pygame.draw.lines(surface, color, False, pts, 1)
        for u in sa.undos:      # a practice game: where a write was taken back
            self.undo_mark(surface, self.to_xy(u.seq, lo)[0], py, ph)
        ms = self.mistakes()
        chosen = ms[self.sel].seq if ms and self.focus_id == "list" else None
        for d, (x, y) in self.marks():
            c = L.point(x, y)
            if d.grade is not None:
                marks.grade_mark(surface, d.grade, c, L.px(6))
            if d.auto:     # an automatic move: a square around its point
                r = pygame.Rect(0, 0, L.px(14), L.px(14))
                r.center = c
                pygame.draw.rect(surface, theme.PREVIEW, r, max(2, L.px(2)))
            if d.seq == chosen:
                pygame.draw.circle(surface, theme.SELECT, c, L.px(11), max(2, L.px(3)))
        self.draw_legend(surface, gx + 18, py + ph + 26, gw - 36)

    def undo_mark(self, surface, x: float, top: float, height: float) -> None:
        """A dashed upright line: a write taken back here (practice), with a notch on top."""
        L = self.layout
        for yy in range(int(top), int(top + height), 12):
            pygame.draw.line(surface, theme.PENDING, L.point(x, yy), L.point(x, min(yy + 6, top + height)),
                             max(2, L.px(2)))
        pygame.draw.polygon(surface, theme.PENDING, [L.point(x - 6, top), L.point(x + 6, top),
                                                     L.point(x, top + 9)])

    def draw_legend(self, surface, x: float, y: float, width: float) -> None:
        L = self.layout
        items = [(g, self.t(f"analysis.grade.{g}")) for g in ("inaccuracy", "mistake", "blunder")]
        items.append(("auto", self.t("analysis.auto")))
        sa = self.current()
        if sa is not None and sa.undos:
            items[-1] = ("undo", self.tn("analysis.undos", len(sa.undos)))
        slot = width / len(items)
        for i, (g, label) in enumerate(items):
            cx = x + i * slot + 8
            c = L.point(cx, y + 11)
            if g == "auto":
                r = pygame.Rect(0, 0, L.px(12), L.px(12))
                r.center = c
                pygame.draw.rect(surface, theme.PREVIEW, r, max(2, L.px(2)))
            elif g == "undo":
                pygame.draw.line(surface, theme.PENDING, (c[0], c[1] - L.px(9)), (c[0], c[1] + L.px(9)),
                                 max(2, L.px(3)))
            else:
                marks.grade_mark(surface, g, c, L.px(6))
            draw_text(surface, label, L.rect((cx + 12, y, slot - 26, 22)), L.font_px(15), theme.INK_SOFT)

    def draw_win_chances(self, surface) -> None:
        analysis = self.analysis
        if analysis is None:
            return
        L = self.layout
        card = L.rect(WIN)
        shadowed_panel(surface, card, theme.PAPER, L.px(14), L.px(5))
        x, y, w, h = WIN
        draw_text(surface, self.t("analysis.win_graph"), L.rect((x + 18, y + 4, w - 36, 24)), L.font_px(18),
                  theme.INK, bold=True)
        px, pw = self.plot_area()[0], self.plot_area()[2]
        top, ph = y + 40, h - 52        # the 100 % label sits under the title, at any text size
        for frac in (0.0, 0.5, 1.0):
            yy = top + ph * (1 - frac)
            pygame.draw.line(surface, theme.PAPER_LINE, L.point(px, yy), L.point(px + pw, yy), 1)
            draw_text(surface, f"{int(frac * 100)}%", L.rect((x + 4, yy - 10, 48, 20)), L.font_px(15),
                      theme.INK_SOFT, align="right")
        chances = analysis.win_chance
        n = len(analysis.seats)
        order = [i for i in range(n) if i != self.seat] + [self.seat]
        for i in order:
            pts = [L.point(px + pw * seq / self.seq_range(), top + ph * (1 - p[i])) for seq, p in chances]
            if len(pts) >= 2:
                color = theme.SEAT_COLORS[i % len(theme.SEAT_COLORS)]
                pygame.draw.lines(surface, color, False, pts, max(2, L.px(3)) if i == self.seat else 1)

    def draw_side(self, surface) -> None:
        L = self.layout
        sa = self.current()
        x, y, w, h = SIDE
        shadowed_panel(surface, L.rect(SIDE), theme.PAPER, L.px(14), L.px(5))
        color = theme.SEAT_COLORS[self.seat % len(theme.SEAT_COLORS)]
        pygame.draw.rect(surface, color, L.rect((x, y + 14, 8, 30)))
        draw_text(surface, sa.name, L.rect((x + 18, y + 10, w - 130, 38)), L.font_px(24), theme.INK, bold=True)
        draw_text(surface, str(sa.score), L.rect((x + w - 110, y + 6, 94, 44)), L.font_px(34), theme.INK,
                  bold=True, align="right")
        c = sa.counts()
        free = c["decisions"] - c["forced"]
        acc = sa.accuracy
        rows = [("analysis.start", number(sa.start_expected), theme.INK),
                ("analysis.luck", number(sa.luck, signed=True), theme.OK if sa.luck >= 0 else theme.BAD),
                ("analysis.skill", number(-sa.skill_loss) if sa.skill_loss > 0.05 else "0", theme.PENDING
                 if sa.skill_loss >= INACCURACY else theme.INK),
                ("analysis.accuracy", "–" if acc is None else number(acc), theme.INK),
                ("analysis.best_decisions", f"{c['optimal'] - c['forced']}/{free}", theme.INK)]
        for i, (key, value, col) in enumerate(rows):
            yy = y + 52 + i * 30
            if i:
                pygame.draw.line(surface, theme.PAPER_LINE, L.point(x + 16, yy), L.point(x + w - 16, yy), 1)
            draw_text(surface, self.t(key), L.rect((x + 18, yy + 2, w - 150, 27)), L.font_px(18), theme.INK_SOFT)
            draw_text(surface, value, L.rect((x + w - 130, yy + 2, 112, 27)), L.font_px(20), col, bold=True,
                      align="right")
        self.draw_luck_skill(surface, y + 52 + len(rows) * 30 + 6)
        draw_text(surface, self.t("analysis.mistakes"), L.rect((x + 18, ROW_Y - 32, w - 36, 28)), L.font_px(19),
                  theme.INK, bold=True)
        ms = self.mistakes()
        if not ms:
            draw_text(surface, self.t("analysis.no_mistakes"), L.rect((x + 18, ROW_Y + 4, w - 36, 30)),
                      L.font_px(18), theme.INK_SOFT)
        for i, d in enumerate(ms):
            r = L.rect(self.row_rect(i))
            if i == self.sel:
                pygame.draw.rect(surface, theme.ACTIVE_COL, r, border_radius=L.px(6))
                if self.focus_id == "list":
                    pygame.draw.rect(surface, theme.SELECT, r, max(2, L.px(3)), border_radius=L.px(6))
            elif r.collidepoint(self.app.mouse):
                pygame.draw.rect(surface, theme.PAPER_SHADE, r, border_radius=L.px(6))
            rx, ry, rw, _ = self.row_rect(i)
            marks.grade_mark(surface, d.grade, L.point(rx + 12, ry + 13), L.px(6))
            head = self.t("analysis.mistake", turn=d.turn, chosen=self.choice_label(d.choice))
            if d.auto:      # the clock's move: the graph legend's blue square
                sq = pygame.Rect(0, 0, L.px(12), L.px(12))
                sq.center = L.point(rx + rw - 96, ry + 12)
                pygame.draw.rect(surface, theme.PREVIEW, sq, max(2, L.px(2)))
            draw_text(surface, head, L.rect((rx + 24, ry + 1, rw - 128, 22)), L.font_px(17), theme.INK, bold=True)
            draw_text(surface, self.t("analysis.mistake_best", best=self.choice_label(d.best_choice)),
                      L.rect((rx + 24, ry + 21, rw - 104, 19)), L.font_px(15), theme.INK_SOFT)
            draw_text(surface, "−" + number(d.loss), L.rect((rx + rw - 78, ry + 2, 70, 36)), L.font_px(20),
                      theme.BAD, bold=True, align="right")

    def draw_luck_skill(self, surface, y: float) -> None:
        """Luck against what the decisions lost, as two bars from a common zero: the result
        minus the start expectation is exactly the difference (a seat that played to the end)."""
        L = self.layout
        sa = self.current()
        x, _, w, _ = SIDE
        mid = x + w / 2
        span = max(20.0, abs(sa.luck), sa.skill_loss)
        half = w / 2 - 24
        lw = half * abs(sa.luck) / span
        sw = half * sa.skill_loss / span
        bar_h, step = 9, 14
        if sa.luck >= 0:
            pygame.draw.rect(surface, theme.OK, L.rect((mid, y, lw, bar_h)))
        else:
            pygame.draw.rect(surface, theme.BAD, L.rect((mid - lw, y, lw, bar_h)))
        pygame.draw.rect(surface, theme.PENDING, L.rect((mid - sw, y + step, sw, bar_h)))
        pygame.draw.line(surface, theme.INK, L.point(mid, y - 3), L.point(mid, y + step + bar_h + 3), max(1, L.px(2)))
        # each bar named on the side of the zero line it does not grow into
        px = max(theme.MIN_READABLE_PX, L.font_px(13))
        for i, (key, grows_right) in enumerate((("analysis.luck", sa.luck >= 0), ("analysis.skill", False))):
            ty = y + i * step + bar_h / 2 - 8
            rect = (x + 18, ty, w / 2 - 24, 16) if grows_right else (mid + 6, ty, w / 2 - 24, 16)
            draw_text(surface, self.t(key), L.rect(rect), px, theme.INK_SOFT,
                      align="right" if grows_right else "left")
