"""The daily challenge, two ways.

Offline (left card): the same public dice for everyone today (from the date),
one attempt per account, yacht rules.  On a relay (right card): address and
port (the last used, else 127.0.0.1:7468); the relay holds the day's secret
seed, enforces one attempt per name and keeps the leaderboard
(``client/scenes/daily_relay.py``).
"""
from __future__ import annotations

from .. import theme
from ..daily_relay_memory import last_relay
from ..i18n import format_date
from ..relay_address import DEFAULT_HOST, port_number
from ..widgets import draw_text, draw_wrapped, shadowed_panel
from .base import Scene


class DailyScene(Scene):
    title_key = "daily.title"

    def __init__(self, app):
        super().__init__(app)
        from ..daily import today_utc
        self.date = today_utc()
        host, port = last_relay(app)
        self.button("play", (110, 484, 460, 58), lambda: self.t("daily.play"), size=23)
        self.address = self.field("address", (860, 330, 310, 48), value=host, max_len=64, size=20)
        self.port = self.field("port", (860, 390, 310, 48), value=str(port), max_len=5, size=20)
        self.button("relay", (710, 484, 460, 58), lambda: self.t("daily.relay.play"), size=23)
        self.button("back", (540, 600, 200, 50), lambda: self.t("common.back"), style="secondary")
        self._status: str | None = None
        self._score: int | None = None
        self.focus_id = "play" if self.status() == "available" else "relay"

    def status(self) -> str:
        """Today's offline attempt, read from the store once (draw and the button state ask
        every frame); ``play`` is the only thing here that changes it."""
        if self._status is None:
            store = self.app.profile.store
            try:
                self._status = "available" if store is None else store.daily_status(self.date)
            except Exception:
                self._status = "available"
            self._score = self.app.profile.daily_score(self.date) if self._status != "available" else None
        return self._status

    def relay_address(self) -> tuple[str, int] | None:
        """(host, port) from the fields, or None while the port is not a port number."""
        port = port_number(self.port.value)
        if port is None:
            return None
        return (self.address.value.strip() or DEFAULT_HOST, port)

    def button_enabled(self, id):
        if id == "play":
            return self.status() == "available"
        if id == "relay":
            return self.relay_address() is not None
        return True

    def on_submit(self, id):
        if id == "port" and self.button_enabled("relay"):
            self.on_press("relay")
        else:
            self.move_focus(1)

    def on_press(self, id):
        if id == "back":
            self.back()
            return
        if id == "relay":
            addr = self.relay_address()
            if addr is None:
                return
            self.app.open("daily_relay", *addr)
            return
        if id != "play":
            return
        from ..daily import refusal_key, start_offline_daily
        store = self.app.profile.store
        result = start_offline_daily(store, self.app.profile.name, self.date,
                                     {"animation": self.app.profile.settings["animation"]}) if store else None
        self._status = None
        if result is None or isinstance(result, str):
            self.app.show(self.t(refusal_key(result) if result else "daily.already_played"),
                          "error", 6.0)
            return
        self.app.switch("solo_game", match=result, mode="daily")

    def draw(self, surface):
        L = self.layout
        self.draw_background(surface)
        self.draw_title(surface, self.t(self.title_key), y=18)
        # left: the offline daily
        shadowed_panel(surface, L.rect((60, 92, 560, 470)), theme.PAPER, L.px(16), L.px(6))
        draw_text(surface, self.t("daily.date", date=format_date(self.date)), L.rect((84, 108, 512, 44)), L.font_px(26),
                  theme.INK, bold=True, align="center")
        y = 164
        for key in ("daily.explain", "daily.one_attempt", "daily.ruleset"):
            y += draw_wrapped(surface, self.t(key), L.rect((96, y, 488, 200)), L.font_px(19), theme.INK,
                              align="center") / max(L.scale, 1e-6) + 10
        if self.status() != "available":
            draw_wrapped(surface, self.t("daily.already_played"), L.rect((96, max(y, 372), 488, 60)),
                         L.font_px(18), theme.PENDING, bold=True, align="center")
            score = self._score
            if score is not None:
                draw_text(surface, self.t("daily.your_score", score=score), L.rect((84, 436, 512, 36)),
                          L.font_px(20), theme.INK, bold=True, align="center")
        # right: the daily on a relay
        shadowed_panel(surface, L.rect((660, 92, 560, 470)), theme.PAPER, L.px(16), L.px(6))
        draw_text(surface, self.t("daily.relay.heading"), L.rect((684, 108, 512, 44)), L.font_px(26),
                  theme.INK, bold=True, align="center")
        draw_wrapped(surface, self.t("daily.relay.explain"), L.rect((696, 164, 488, 150)), L.font_px(18),
                     theme.INK, align="center")
        for y, key in ((330, "lobby.address"), (390, "lobby.port")):
            draw_text(surface, self.t(key), L.rect((700, y, 150, 48)), L.font_px(20), theme.INK, bold=True)
        self.draw_widgets(surface)
