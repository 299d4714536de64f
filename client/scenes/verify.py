"""Verify a game: pick one of your saved games from the list (newest first), type a
path or drop a file on the window, see the verdict, then step through the game.

Keys: in the list Up/Down choose a game and Enter verifies and replays it (Up from the
first row goes back to the path field); typing anywhere goes to the path field; Tab
moves the focus; Escape goes back.  The mouse: a click on a game opens it, the wheel
scrolls the list."""
from __future__ import annotations

import os

import pygame

from bonanza.core.verify import verify_bytes, verify_file

from .. import actions as A
from .. import theme
from ..actions import Action
from ..texts import game_date, verdict_text
from ..widgets import ROW_INSET, draw_text, list_row_back, shadowed_panel
from .base import Scene

GAMES = 200           # the newest saved games listed
VISIBLE = 6
LIST_X, LIST_W = 260, 760
LIST_Y, ROW_H = 358, 34
# date, board, ruleset, score, time, status (design units, from the row's inner left edge:
# LIST_X + ROW_INSET, across LIST_W - 2 * ROW_INSET)
COLS = ((0, 150, "left"), (156, 150, "left"), (312, 100, "left"), (418, 60, "right"),
        (484, 100, "right"), (590, 150, "right"))


class VerifyScene(Scene):
    title_key = "verify.title"

    def __init__(self, app, path: str = ""):
        super().__init__(app)
        self.path = self.field("path", (240, 248, 620, 50), value=path,
                               placeholder=lambda: self.t("verify.path_hint"), max_len=400, size=20)
        self.button("check", (880, 248, 160, 50), lambda: self.t("verify.check"))
        self.button("back", (540, 636, 200, 50), lambda: self.t("common.back"), style="secondary")
        self.verdict = None
        self.games = self.load_games()
        self.sel = 0
        self.top = 0
        # with saved games and no file given, Enter opens the newest game at once
        self.focus_id = "list" if self.games and not path else "path"

    def load_games(self) -> list:
        store = self.app.profile.store
        if store is None:
            return []
        try:
            return store.history(GAMES)
        except Exception:   # a store that cannot be read still lets a file be verified
            return []

    # ---------------------------------------------------------- input
    def focus_order(self) -> list[str]:
        order = super().focus_order()
        if self.games:
            order.insert(order.index("back"), "list")
        return order

    def targets(self, layout):
        out = super().targets(layout)
        for i in range(min(VISIBLE, len(self.games) - self.top)):
            r = layout.rect((LIST_X, LIST_Y + i * ROW_H, LIST_W, ROW_H))
            out.append((r, Action(A.PRESS, f"row:{self.top + i}")))
        return out

    def handle(self, action):
        n = action.name
        if n == A.DROP_FILE:
            self.path.value = action.arg
            self.check()
            return
        if self.focus_id == "list":
            if n == A.UP and self.sel == 0:
                self.focus_id = "path"
                return
            if n in (A.UP, A.DOWN):
                self.select(self.sel + (1 if n == A.DOWN else -1))
                return
            if n == A.CONFIRM:
                self.open_game(self.sel)
                return
            if n in (A.TEXT, A.BACKSPACE, A.DELETE):   # typing a path from the list
                self.focus_id = "path"
        if n == A.SCROLL and self.games:
            self.top = max(0, min(max(0, len(self.games) - VISIBLE), self.top + int(action.arg or 0)))
            self.sel = max(self.top, min(self.sel, self.top + VISIBLE - 1))
            return
        if n == A.PRESS and str(action.arg).startswith("row:"):
            self.focus_id = "list"
            self.select(int(action.arg[4:]))
            self.open_game(self.sel)
            return
        super().handle(action)

    def select(self, i: int) -> None:
        if not self.games:
            return
        self.sel = max(0, min(len(self.games) - 1, i))
        if self.sel < self.top:
            self.top = self.sel
        elif self.sel >= self.top + VISIBLE:
            self.top = self.sel - VISIBLE + 1

    def button_enabled(self, id):
        if id == "check":
            return bool(self.path.value.strip())
        if id.startswith("row:"):
            return int(id[4:]) < len(self.games)
        return True

    def on_submit(self, id):
        if self.path.value.strip():
            self.check()

    def on_press(self, id):
        if id == "check":
            self.check()
        elif id == "back":
            self.back()

    def open_game(self, i: int) -> None:
        """Verify a saved game from its stored log and open its replay."""
        if not 0 <= i < len(self.games):
            return
        rec = self.games[i]
        try:
            verdict = verify_bytes(self.app.profile.store.game_log(rec.id))
        except Exception as e:
            self.app.show(self.t("error.generic", detail=str(e)), "error")
            return
        self.show_verdict(verdict, rec.file)

    def check(self) -> None:
        path = os.path.expanduser(self.path.value.strip())
        if not path:
            return
        if not os.path.exists(path):
            self.verdict = None
            self.app.show(self.t("error.file_not_found", path=path), "error")
            return
        self.show_verdict(verify_file(path), path)

    def show_verdict(self, verdict, path) -> None:
        self.verdict = verdict
        if verdict.ok and verdict.states:
            self.app.open("replay", verdict, path)
        else:
            self.app.show(verdict_text(self.t, verdict), "error", 5.0)

    # ---------------------------------------------------------- drawing
    def draw(self, surface):
        super().draw(surface)
        L = self.layout
        zone = L.rect((240, 96, 800, 110))
        pygame.draw.rect(surface, theme.FELT_DARK, zone, border_radius=L.px(18))
        # dashed border
        step = L.px(18)
        for x in range(zone.x + step, zone.right - step, step * 2):
            pygame.draw.line(surface, theme.TEXT_ON_FELT_SOFT, (x, zone.y), (x + step, zone.y), max(2, L.px(2)))
            pygame.draw.line(surface, theme.TEXT_ON_FELT_SOFT, (x, zone.bottom - 1), (x + step, zone.bottom - 1),
                             max(2, L.px(2)))
        if self.verdict is not None and not self.verdict.ok:
            draw_text(surface, "✖ " + verdict_text(self.t, self.verdict), zone.inflate(-L.px(30), -L.px(20)),
                      L.font_px(20), theme.BAD, bold=True, align="center")
        else:
            draw_text(surface, self.t("verify.drop_here"), L.rect((260, 126, 760, 50)), L.font_px(28),
                      theme.TEXT_ON_FELT, bold=True, align="center")
        draw_text(surface, self.t("verify.path"), L.rect((240, 214, 620, 30)), L.font_px(18),
                  theme.TEXT_ON_FELT_SOFT)
        self.draw_games(surface)

    def draw_games(self, surface) -> None:
        from .. import lang
        from ..i18n import format_datetime
        from ..i18n import format_duration as _duration

        def format_duration(ms):
            return _duration(ms, lang.current())
        L = self.layout
        card = L.rect((240, 312, 800, 306))
        shadowed_panel(surface, card, theme.PAPER, L.px(14), L.px(4))
        draw_text(surface, self.t("verify.your_games"), L.rect((LIST_X, 318, 360, 34)), L.font_px(21),
                  theme.INK, bold=True)
        if not self.games:
            draw_text(surface, self.t("verify.no_games"), L.rect((LIST_X, 420, LIST_W, 40)),
                      L.font_px(19), theme.INK_SOFT, align="center")
            return
        draw_text(surface, self.t("verify.list_hint"), L.rect((LIST_X, 574, LIST_W, 30)), L.font_px(16),
                  theme.INK_SOFT, align="center")
        mouse = self.app.mouse
        for i in range(min(VISIBLE, len(self.games) - self.top)):
            idx = self.top + i
            rec = self.games[idx]
            row = L.rect((LIST_X, LIST_Y + i * ROW_H, LIST_W, ROW_H))
            list_row_back(surface, L, row, idx == self.sel, self.focus_id == "list",
                          row.collidepoint(mouse))
            when = format_datetime(rec.played_at, lang.current()) if rec.played_at else game_date(rec)
            cells = (when, self.t(f"records.cat.{rec.category or rec.mode}"),
                     self.t(f"records.ruleset.{rec.ruleset}"), str(rec.score),
                     format_duration(rec.duration_ms), self.t(f"history.status.{rec.status}"))
            for j, ((x, w, align), text) in enumerate(zip(COLS, cells)):
                stopped = j == 5 and not rec.finished
                draw_text(surface, text, L.rect((LIST_X + ROW_INSET + x, LIST_Y + i * ROW_H + 2, w, ROW_H - 4)),
                          L.font_px(17), theme.BAD if stopped else theme.INK,
                          bold=j == 3 or stopped, align=align)
        if len(self.games) > VISIBLE:
            track = L.rect((LIST_X + LIST_W + 4, LIST_Y, 6, VISIBLE * ROW_H))
            pygame.draw.rect(surface, theme.PAPER_LINE, track, border_radius=track.w // 2)
            h = max(L.px(20), track.h * VISIBLE // len(self.games))
            y = track.y + (track.h - h) * self.top // max(1, len(self.games) - VISIBLE)
            pygame.draw.rect(surface, theme.INK_SOFT, (track.x, y, track.w, h), border_radius=track.w // 2)
