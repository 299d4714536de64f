"""Verify a game: type a path or drop a file on the window, see the verdict,
then step through the game."""
from __future__ import annotations

import os

import pygame

from core.verify import verify_file
from .. import actions as A
from .. import theme
from ..widgets import draw_text, shadowed_panel
from .base import Scene
from .results import verdict_text


class VerifyScene(Scene):
    title_key = "verify.title"

    def __init__(self, app, path: str = ""):
        super().__init__(app)
        self.path = self.field("path", (240, 380, 620, 54), value=path,
                               placeholder=lambda: self.t("verify.path_hint"), max_len=400, size=20)
        self.button("check", (880, 380, 160, 54), lambda: self.t("verify.check"))
        self.button("back", (540, 620, 200, 50), lambda: self.t("common.back"), style="secondary")
        self.focus_id = "path"
        self.verdict = None

    def handle(self, action):
        if action.name == A.DROP_FILE:
            self.path.value = action.arg
            self.check()
            return
        super().handle(action)

    def button_enabled(self, id):
        if id == "check":
            return bool(self.path.value.strip())
        return True

    def on_submit(self, id):
        if self.path.value.strip():
            self.check()

    def on_press(self, id):
        if id == "check":
            self.check()
        elif id == "back":
            self.back()

    def check(self) -> None:
        path = os.path.expanduser(self.path.value.strip())
        if not path:
            return
        if not os.path.exists(path):
            self.verdict = None
            self.app.show(self.t("error.file_not_found", path=path), "error")
            return
        verdict = verify_file(path)
        self.verdict = verdict
        if verdict.ok and verdict.states:
            from .replay import ReplayScene
            self.app.push(ReplayScene(self.app, verdict, path))
        else:
            self.app.show(verdict_text(self.t, verdict), "error", 5.0)

    def draw(self, surface):
        super().draw(surface)
        L = self.layout
        zone = L.rect((240, 120, 800, 220))
        pygame.draw.rect(surface, theme.FELT_DARK, zone, border_radius=L.px(18))
        # dashed border
        step = L.px(18)
        for x in range(zone.x + step, zone.right - step, step * 2):
            pygame.draw.line(surface, theme.TEXT_ON_FELT_SOFT, (x, zone.y), (x + step, zone.y), max(2, L.px(2)))
            pygame.draw.line(surface, theme.TEXT_ON_FELT_SOFT, (x, zone.bottom - 1), (x + step, zone.bottom - 1), max(2, L.px(2)))
        draw_text(surface, self.t("verify.drop_here"), L.rect((260, 190, 760, 60)), L.font_px(30),
                  theme.TEXT_ON_FELT, bold=True, align="center")
        draw_text(surface, self.t("verify.path"), L.rect((240, 348, 620, 30)), L.font_px(18),
                  theme.TEXT_ON_FELT_SOFT)
        if self.verdict is not None and not self.verdict.ok:
            box = L.rect((240, 460, 800, 120))
            shadowed_panel(surface, box, theme.PAPER, L.px(12), L.px(4))
            draw_text(surface, "✖ " + verdict_text(self.t, self.verdict), box.inflate(-L.px(30), -L.px(20)),
                      L.font_px(20), theme.BAD, bold=True, align="center")
