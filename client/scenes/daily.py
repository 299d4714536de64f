"""The daily challenge: same dice for everyone today, one attempt, yacht rules."""
from __future__ import annotations

from .. import theme
from ..widgets import draw_text, draw_wrapped, shadowed_panel
from .base import Scene


class DailyScene(Scene):
    title_key = "daily.title"

    def __init__(self, app):
        super().__init__(app)
        from ..daily import today_utc
        self.date = today_utc()
        self.button("play", (440, 410, 400, 60), lambda: self.t("daily.play"), size=24)
        self.button("back", (540, 490, 200, 50), lambda: self.t("common.back"), style="secondary")
        self.focus_id = "play"

    def status(self) -> str:
        store = self.app.profile.store
        if store is None:
            return "available"
        try:
            return store.daily_status(self.date)
        except Exception:
            return "available"

    def button_enabled(self, id):
        if id == "play":
            return self.status() == "available"
        return True

    def on_press(self, id):
        if id == "back":
            self.back()
            return
        from ..daily import start_offline_daily
        store = self.app.profile.store
        result = start_offline_daily(store, self.app.profile.name, self.date) if store else None
        if result is None or isinstance(result, str):
            self.app.show(self.t("daily.already_played"), "error")
            return
        from .game import SoloGameScene
        self.app.replace(SoloGameScene(self.app, match=result, mode="daily"))

    def draw(self, surface):
        super().draw(surface)
        L = self.layout
        card = L.rect((240, 100, 800, 280))
        shadowed_panel(surface, card, theme.PAPER, L.px(16), L.px(6))
        draw_text(surface, self.t("daily.date", date=self.date), L.rect((270, 120, 740, 50)), L.font_px(28),
                  theme.INK, bold=True, align="center")
        y = 186
        for key in ("daily.explain", "daily.one_attempt", "daily.ruleset"):
            y += draw_wrapped(surface, self.t(key), L.rect((290, y, 700, 200)), L.font_px(20), theme.INK,
                              align="center") / max(L.scale, 1e-6) + 12
        if self.status() != "available":
            draw_text(surface, self.t("daily.already_played"), L.rect((240, 326, 800, 40)), L.font_px(20),
                      theme.PENDING, bold=True, align="center")
            score = self.app.profile.daily_score(self.date)
            if score is not None:
                draw_text(surface, self.t("daily.your_score", score=score), L.rect((240, 570, 800, 40)),
                          L.font_px(20), theme.GOLD, bold=True, align="center")
