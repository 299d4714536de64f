"""The rules page in the chosen language (scroll with the wheel or the arrows), and the
way into the guided first game."""
from __future__ import annotations

import pygame

from .. import actions as A
from .. import fonts, theme
from ..widgets import draw_text, shadowed_panel
from .base import Scene


class RulesScene(Scene):
    title_key = "rules.title"

    def __init__(self, app):
        super().__init__(app)
        self.scroll = 0.0
        self.button("guided", (330, 650, 400, 50), lambda: self.t("guide.play"), style="secondary", size=20)
        self.button("back", (750, 650, 200, 50), lambda: self.t("common.back"), style="secondary")
        self.focus_id = "back"
        self._cache_key = None
        self._lines: list = []

    def lines(self, width_px: int, px: int):
        from .. import lang
        key = (lang.current(), width_px, px)
        if key != self._cache_key:
            out = []
            for raw in lang.rules_text().splitlines():
                s = raw.strip()
                if not s:
                    out.append(("gap", ""))
                    continue
                if s.startswith("#"):
                    level = len(s) - len(s.lstrip("#"))
                    if level == 1:
                        continue  # the page title is the scene title
                    for ln in fonts.wrap(s.lstrip("# ").strip(), int(px * 1.15), width_px, True):
                        out.append(("head", ln))
                    continue
                bullet = s.startswith(("- ", "* "))
                text = s[2:] if bullet else s
                text = text.replace("**", "")
                wrapped = fonts.wrap(text, px, width_px - (px * 2 if bullet else 0))
                for j, ln in enumerate(wrapped):
                    out.append(("bullet" if bullet and j == 0 else ("indent" if bullet else "text"), ln))
            self._lines = out
            self._cache_key = key
        return self._lines

    def handle(self, action):
        n = action.name
        if n in (A.UP, A.DOWN, A.SCROLL):
            d = {A.UP: -2, A.DOWN: 2}.get(n, action.arg or 0)
            self.scroll = max(0.0, self.scroll + d)
        else:
            super().handle(action)

    def on_press(self, id):
        if id == "guided":
            self.app.switch("guided_game")
            return
        self.back()

    def draw(self, surface):
        super().draw(surface)
        L = self.layout
        panel = L.rect((140, 90, 1000, 544))
        shadowed_panel(surface, panel, theme.PAPER, L.px(16), L.px(6))
        inner = panel.inflate(-L.px(60), -L.px(40))
        px = L.font_px(19)
        step = int(px * 1.45)
        lines = self.lines(inner.w, px)
        visible = max(1, inner.h // step)
        self.scroll = min(self.scroll, max(0, len(lines) - visible))
        start = int(self.scroll)
        y = inner.y
        clip = surface.get_clip()
        surface.set_clip(inner)
        for kind, ln in lines[start:start + visible]:
            if kind == "head":
                draw_text(surface, ln, pygame.Rect(inner.x, y, inner.w, step), int(px * 1.15), theme.WOOD_DARK,
                          bold=True)
            elif kind == "bullet":
                pygame.draw.circle(surface, theme.GOLD, (inner.x + px // 2, y + step // 2), max(2, px // 5))
                draw_text(surface, ln, pygame.Rect(inner.x + px * 2, y, inner.w - px * 2, step), px, theme.INK)
            elif kind == "indent":
                draw_text(surface, ln, pygame.Rect(inner.x + px * 2, y, inner.w - px * 2, step), px, theme.INK)
            elif kind == "text":
                draw_text(surface, ln, pygame.Rect(inner.x, y, inner.w, step), px, theme.INK)
            y += step if kind != "gap" else step // 2
        surface.set_clip(clip)
        if len(lines) > visible:
            draw_text(surface, self.t("rules.scroll_hint"), L.rect((140, 604, 1000, 26)), L.font_px(15),
                      theme.INK_SOFT, align="center")
