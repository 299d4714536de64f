"""The pause menu over a solo game (Escape): resume, settings, rules, give up.

The game under it stays as it was and its run clock runs on: a run's time is wall-clock
time from the first roll to the last write (docs/client.md, "In-game time"), so a pause
cannot shorten a run."""
from __future__ import annotations

import pygame

from .. import theme
from ..widgets import draw_text, shadowed_panel
from .base import Scene

ITEMS = (("resume", "pause.resume"), ("settings", "menu.settings"), ("rules", "menu.rules"),
         ("give_up", "game.give_up"))


class PauseScene(Scene):
    def __init__(self, app, game):
        super().__init__(app)
        self.game = game
        for i, (id, key) in enumerate(ITEMS):
            # one look for all four: the focus ring alone says which one Enter presses
            self.button(id, (490, 232 + i * 70, 300, 54), lambda k=key: self.t(k), style="secondary", size=22)
        self.focus_id = "resume"

    def on_press(self, id):
        if id == "resume":
            self.app.pop()
        elif id in ("settings", "rules"):
            self.app.open(id)
        elif id == "give_up":
            self.app.pop()
            self.game.ask_give_up()

    def back(self):
        self.app.pop()          # Escape resumes

    def draw(self, surface):
        L = self.layout
        self.game.draw(surface)
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        shadowed_panel(surface, L.rect((440, 140, 400, 400)), theme.PAPER, L.px(16), L.px(6))
        draw_text(surface, self.t("pause.title"), L.rect((460, 154, 360, 44)), L.font_px(28), theme.INK,
                  bold=True, align="center")
        if self.game.running():
            draw_text(surface, self.t("pause.clock_runs"), L.rect((460, 194, 360, 28)), L.font_px(18),
                      theme.INK_SOFT, align="center")
        self.draw_widgets(surface)
