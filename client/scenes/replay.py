"""Replay a verified game move by move, with its verdict."""
from __future__ import annotations

import pygame

from .. import actions as A
from .. import theme
from ..dice_view import DiceView
from ..sheet_view import SheetView
from ..texts import signed_text, verdict_text
from ..widgets import draw_text, shadowed_panel
from .base import Scene


class ReplayScene(Scene):
    def __init__(self, app, verdict, path: str | None = None, analysis=None):
        super().__init__(app)
        self.verdict = verdict
        self.path = path
        self.analysis = analysis      # the analysis screen that opened this replay, if any
        self.note: tuple[int, str] | None = None   # (move, the analysis' words on it)
        self.states = list(verdict.states)
        self.records = list(verdict.log.records) if verdict.log else []
        self.index = len(self.states) - 1
        from bonanza.core.splits import splits
        # a one-seat run's turn times from the log's stamps: the same as the live panel's
        self.turn_splits = (splits(verdict.log) if verdict.log is not None and self.states
                            and len(self.states[0].setup.seats) == 1 else None)
        n = len(self.states[0].setup.seats) if self.states else 1
        w = 440 if n == 1 else (300 + 110 * n if n < 4 else 680)
        self.sheet_view = SheetView((24, 16, w, 688), 290 if n == 1 else 230,
                                    self.states[0].ruleset if self.states else None)
        self.cx = (24 + w + 1256) / 2 + 6
        self.dice_view = DiceView((self.cx, 250), die=80, gap=14)
        cx = self.cx
        # the four steps share the column right of the sheet: at 3-4 seats the sheet is
        # wide, and a button over its last column would hide the very scores being replayed
        left, gap = 24 + w + 12, 6
        self.half = min(300.0, cx - left, 1268 - cx)     # the column's lines and panels
        bw = min(152.0, (1268 - left - 3 * gap) / 4)
        x0 = left + (1268 - left - (4 * bw + 3 * gap)) / 2
        for i, (id, key) in enumerate((("first", "verify.first"), ("prev", "verify.step_back"),
                                       ("next", "verify.step_forward"), ("last", "verify.last"))):
            self.button(id, (x0 + i * (bw + gap), 420, bw, 50), lambda k=key: self.t(k),
                        style="secondary", size=18)
        self.button("analysis", (cx - 250, 620, 240, 50), lambda: self.t("analysis.open"), style="secondary")
        self.button("back", (cx + 10, 620, 240, 50), lambda: self.t("common.back"), style="secondary")
        # a visible focus on an enabled button: Enter at the last move steps back one
        self.focus_id = "next" if self.index < len(self.states) - 1 else "prev"

    def button_enabled(self, id):
        if id in ("first", "prev"):
            return self.index > 0
        if id in ("next", "last"):
            return self.index < len(self.states) - 1
        if id == "analysis":
            return bool(self.verdict.ok and self.verdict.log is not None and self.records)
        return True

    def enabled(self, action):
        if action.name in (A.LEFT, A.UP) or (action.name == A.FIRST):
            return True
        return super().enabled(action)

    def step_to(self, i: int) -> None:
        self.index = max(0, min(len(self.states) - 1, i))

    def handle(self, action):
        n = action.name
        if n == A.LEFT:
            self.step_to(self.index - 1)
        elif n == A.RIGHT:
            self.step_to(self.index + 1)
        elif n == A.FIRST:
            self.step_to(0)
        elif n == A.LAST:
            self.step_to(len(self.states) - 1)
        else:
            super().handle(action)
        self.keep_focus()

    def keep_focus(self) -> None:
        """A stepping button greyed out at either end hands the focus to its opposite
        (never to "First" or "Last", which would jump through the game on the next Enter)."""
        if self.focus_id and not self.button_enabled(self.focus_id):
            other = {"first": "next", "prev": "next", "next": "prev", "last": "prev"}.get(self.focus_id)
            self.focus_id = other if other and self.button_enabled(other) else "back"

    def on_press(self, id):
        if id == "first":
            self.step_to(0)
        elif id == "prev":
            self.step_to(self.index - 1)
        elif id == "next":
            self.step_to(self.index + 1)
        elif id == "last":
            self.step_to(len(self.states) - 1)
        elif id == "analysis":
            self.open_analysis()
        elif id == "back":
            self.back()

    def open_analysis(self) -> None:
        """Back to the analysis this replay came from, else a new one over the replay."""
        if self.analysis is not None and len(self.app.scenes) > 1 and self.app.scenes[-2] is self.analysis:
            self.app.pop()
            return
        self.app.open("analysis", self.verdict, replay=self)

    def held(self, i: int) -> list[bool]:
        """The dice kept from state ``i``'s roll: the hold of the next move when it is a roll
        of the same turn (what the player chose while looking at these dice)."""
        if i >= len(self.records) or self.states[i].dice is None:
            return [False] * 5
        move = self.records[i].get("move", {})
        if move.get("type") != "roll" or move.get("seat") != self.states[i].active:
            return [False] * 5
        hold = move.get("hold") or []
        return [bool(h) for h in hold[:5]] + [False] * (5 - len(hold[:5]))

    def describe(self, i: int) -> str:
        if i == 0 or i - 1 >= len(self.records):
            return ""
        move = self.records[i - 1].get("move", {})
        st = self.states[i - 1]
        name = st.setup.seats[move.get("seat", 0)].name
        kind = move.get("type")
        if kind == "roll":
            what = self.t("game.roll") + "  " + " ".join(str(d) for d in move.get("dice", []))
        elif kind == "write":
            box = move.get("box", "")
            pts = self.states[i].sheets[move["seat"]].get(box)
            what = f"{self.t('box.' + box)}: {pts}"
        elif kind == "undo":            # a practice game's write taken back
            what = self.t("practice.undone")
        else:
            what = self.t("game.give_up")
        auto = f" ({self.t('verify.auto_move')})" if move.get("auto") else ""
        return f"{name} · {what}{auto}"

    def split_line(self) -> str | None:
        """The split of the last turn ended at this move, and the run's time then."""
        if not self.turn_splits or self.index == 0:
            return None
        kinds = [r.get("move", {}).get("type") for r in self.records[:self.index]]
        done = kinds.count("write") - kinds.count("undo")     # a practice write taken back
        if done == 0 or done > len(self.turn_splits):
            return None
        from .. import lang
        from ..i18n import format_duration
        from ..splits_view import short_time
        return self.t("replay.split", n=done, split=short_time(self.turn_splits[done - 1]),
                      time=format_duration(sum(self.turn_splits[:done]), lang.current(), 2))

    def toast_area(self, layout):
        """Over the title, beside the sheet: the Verified box sits above the bottom buttons."""
        if not self.states:
            return None
        return layout.rect((self.cx - self.half, 6, 2 * self.half, 98))

    def draw(self, surface):
        L = self.layout
        self.draw_background(surface)
        if not self.states:
            self.draw_widgets(surface)
            return
        st = self.states[self.index]
        prev = self.states[self.index - 1] if self.index > 0 else st
        dice = st.dice if st.dice is not None else prev.dice
        active = st.active if st.active is not None else None
        self.sheet_view.draw(surface, L, st, active_col=active, previews={}, selection=None, pending=None,
                             seat_labels=[s.name for s in st.setup.seats], show_selection=False)
        cx, h = self.cx, self.half
        draw_text(surface, self.t("verify.title"), L.rect((cx - h, 20, 2 * h, 48)), L.font_px(30),
                  theme.TEXT_ON_FELT, bold=True, align="center", shadow=True)
        if self.path:
            draw_text(surface, self.t("verify.file", path=self.path), L.rect((cx - h, 70, 2 * h, 26)),
                      L.font_px(15), theme.TEXT_ON_FELT_SOFT, align="center")
        total = len(self.states) - 1
        draw_text(surface, self.t("verify.move_n", n=self.index, total=total), L.rect((cx - h, 110, 2 * h, 40)),
                  L.font_px(26), theme.GOLD, bold=True, align="center")
        draw_text(surface, self.describe(self.index), L.rect((cx - h, 154, 2 * h, 34)), L.font_px(20),
                  theme.TEXT_ON_FELT, align="center")
        self.dice_view.draw(surface, L, self.app.now, dice, self.held(self.index))
        if self.note is not None and self.note[0] == self.index:
            draw_text(surface, self.note[1], L.rect((cx - h, 302, 2 * h, 40)), L.font_px(19), theme.GOLD,
                      bold=True, align="center", shadow=True)
        # progress through the game
        bar = L.rect((cx - h, 360, 2 * h, 10))
        pygame.draw.rect(surface, theme.PROGRESS_BG, bar, border_radius=bar.h // 2)
        if total:
            pygame.draw.rect(surface, theme.GOLD, (bar.x, bar.y, int(bar.w * self.index / total), bar.h),
                             border_radius=bar.h // 2)
        split = self.split_line()
        if split:
            draw_text(surface, split, L.rect((cx - 300, 376, 600, 34)), L.font_px(19),
                      theme.TEXT_ON_FELT, align="center")
        v = self.verdict
        box = L.rect((cx - h, 496, 2 * h, 100))
        shadowed_panel(surface, box, theme.FELT_DARK, L.px(12), L.px(4))
        signed = signed_text(self.t, v)
        inner = box.inflate(-L.px(24), -L.px(12))
        if signed:
            top, bottom = inner.copy(), inner.copy()
            top.h = bottom.h = inner.h // 2
            bottom.y = top.bottom
            draw_text(surface, ("✔ " if v.ok else "✖ ") + verdict_text(self.t, v), top,
                      L.font_px(20), theme.OK if v.ok else theme.BAD, bold=True, align="center")
            draw_text(surface, signed, bottom, L.font_px(16), theme.TEXT_ON_FELT_SOFT, align="center")
        else:
            draw_text(surface, ("✔ " if v.ok else "✖ ") + verdict_text(self.t, v), inner,
                      L.font_px(20), theme.OK if v.ok else theme.BAD, bold=True, align="center")
        self.draw_widgets(surface)
