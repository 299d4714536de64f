"""The daily challenge, two ways.

Offline (left card): the same public dice for everyone today (from the date),
one attempt per account, yacht rules.  On a relay (right card): address and
port (the last used, else 127.0.0.1:7468); the relay holds the day's secret
seed, enforces one attempt per name and keeps the leaderboard
(``client/scenes/daily_relay.py``).
"""
from __future__ import annotations

from datetime import datetime, timezone

import pygame

from .. import actions as A
from .. import theme
from ..daily import (
    RULESET,
    SHARE_FAIR,
    SHARE_GOOD,
    SHARE_SCRATCHED,
    SHARE_TOP,
    DailyShare,
    daily_share,
    next_daily,
    par,
    streak,
)
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
        self.button("play", (110, 484, 460, 58),
                    lambda: self.t("daily.share_copy" if self.share() else "daily.play"), size=23)
        self.address = self.field("address", (860, 330, 310, 48), value=host, max_len=64, size=20)
        self.port = self.field("port", (860, 390, 310, 48), value=str(port), max_len=5, size=20)
        self.button("relay", (710, 484, 460, 58), lambda: self.t("daily.relay.play"), size=23)
        # the archive: a past day's dice again, as unranked practice (left/right pick the day)
        self.days_back = 1
        self.button("archive_prev", (60, 600, 52, 50), lambda: "◀", style="secondary", size=20)
        self.button("archive", (118, 600, 446, 50),
                    lambda: self.t("daily.archive_play", date=format_date(self.archive_date())),
                    style="secondary", size=19)
        self.button("archive_next", (570, 600, 52, 50), lambda: "▶", style="secondary", size=20)
        self.button("back", (1020, 600, 200, 50), lambda: self.t("common.back"), style="secondary")
        self._status: str | None = None
        self._score: int | None = None
        self._share: DailyShare | None = None
        self._streak = 0
        self._par: int | None = None
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
            self._share = daily_share(store, self.date) if store is not None and self._score is not None else None
            try:
                dates = [a["date"] for a in store.daily_attempts(limit=400)] if store is not None else []
            except Exception:
                dates = []
            self._streak = streak(dates, self.date)
        return self._status

    def share(self) -> DailyShare | None:
        self.status()
        return self._share

    def copy_share(self) -> None:
        """The share onto the clipboard; where there is none, it stays on the screen to copy."""
        share = self.share()
        if share is None:
            return
        try:
            pygame.scrap.put_text(share.text(self.t))
            copied = pygame.scrap.get_text() == share.text(self.t)
        except Exception:
            copied = False
        self.app.show(self.t("daily.share_copied" if copied else "daily.share_no_clipboard"),
                      "good" if copied else "info", 3.0)

    def archive_date(self) -> str:
        from ..practice import archive_date
        return archive_date(self.date, self.days_back)

    def pick_day(self, step: int) -> None:
        """One day further back (``step`` 1) or nearer (-1), within the archive."""
        from ..practice import ARCHIVE_DAYS
        self.days_back = max(1, min(ARCHIVE_DAYS, self.days_back + step))

    def handle(self, action):
        if action.name == A.COPY and not self.text_focus():
            self.copy_share()
            return
        if action.name in (A.LEFT, A.RIGHT) and self.focus_id == "archive":
            self.pick_day(1 if action.name == A.LEFT else -1)
            return
        super().handle(action)

    def relay_address(self) -> tuple[str, int] | None:
        """(host, port) from the fields, or None while the port is not a port number."""
        port = port_number(self.port.value)
        if port is None:
            return None
        return (self.address.value.strip() or DEFAULT_HOST, port)

    def button_enabled(self, id):
        if id == "play":
            return self.status() == "available" or self.share() is not None
        if id == "relay":
            return self.relay_address() is not None
        if id == "archive_next":
            return self.days_back > 1
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
        if id in ("archive_prev", "archive_next"):
            self.pick_day(1 if id == "archive_prev" else -1)
            return
        if id == "archive":
            from ..practice import past_daily_match
            self.app.open("solo_game", match=past_daily_match(self.app, self.archive_date()))
            return
        if id == "relay":
            addr = self.relay_address()
            if addr is None:
                return
            self.app.open("daily_relay", *addr)
            return
        if id != "play":
            return
        if self.share() is not None:
            self.copy_share()
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
        share = self.share()
        if share is not None:
            self.draw_share(surface, share)
        else:
            y = 164
            for key in ("daily.explain", "daily.one_attempt", "daily.ruleset"):
                y += draw_wrapped(surface, self.t(key), L.rect((96, y, 488, 200)), L.font_px(19), theme.INK,
                                  align="center") / max(L.scale, 1e-6) + 10
        self.draw_days(surface)
        if share is None and self.status() != "available":
            draw_wrapped(surface, self.t("daily.already_played"), L.rect((96, max(y, 340), 488, 60)),
                         L.font_px(18), theme.PENDING, bold=True, align="center")
        # right: the daily on a relay
        shadowed_panel(surface, L.rect((660, 92, 560, 470)), theme.PAPER, L.px(16), L.px(6))
        draw_text(surface, self.t("daily.relay.heading"), L.rect((684, 108, 512, 44)), L.font_px(26),
                  theme.INK, bold=True, align="center")
        draw_wrapped(surface, self.t("daily.relay.explain"), L.rect((696, 164, 488, 150)), L.font_px(18),
                     theme.INK, align="center")
        for y, key in ((330, "lobby.address"), (390, "lobby.port")):
            draw_text(surface, self.t(key), L.rect((700, y, 150, 48)), L.font_px(20), theme.INK, bold=True)
        self.draw_widgets(surface)

    def draw_share(self, surface, share: DailyShare) -> None:
        """The day's result as it will be shared: score, a square per box, the log's hash."""
        L = self.layout
        draw_text(surface, self.t("daily.share_heading"), L.rect((84, 152, 512, 30)), L.font_px(18),
                  theme.INK_SOFT, align="center")
        draw_text(surface, self.t("daily.your_score", score=share.score), L.rect((84, 184, 512, 36)),
                  L.font_px(24), theme.INK, bold=True, align="center")
        colours = {SHARE_SCRATCHED: theme.INK_SOFT, SHARE_FAIR: theme.GOLD, SHARE_GOOD: theme.OK,
                   SHARE_TOP: theme.OK}
        size, gap = 34, 8
        for row, symbols in enumerate((share.symbols[:share.upper], share.symbols[share.upper:])):
            x0 = 340 - (len(symbols) * (size + gap) - gap) // 2
            for i, sym in enumerate(symbols):
                r = L.rect((x0 + i * (size + gap), 230 + row * (size + gap), size, size))
                pygame.draw.rect(surface, colours[sym], r, border_radius=L.px(6))
                if sym == SHARE_TOP:
                    pygame.draw.rect(surface, theme.INK, r, L.px(2), border_radius=L.px(6))
                elif sym == SHARE_SCRATCHED:   # not by colour alone: a scratched box is crossed
                    inner = r.inflate(-L.px(14), -L.px(14))
                    pygame.draw.line(surface, theme.PAPER, inner.topleft, inner.bottomright, L.px(3))
                    pygame.draw.line(surface, theme.PAPER, inner.topright, inner.bottomleft, L.px(3))
        draw_text(surface, self.t("daily.share_log", hash=share.short_hash), L.rect((84, 316, 512, 28)),
                  L.font_px(17), theme.INK_SOFT, align="center")
        par = self.par()
        if par is not None:
            draw_text(surface, self.t("daily.par", par=par), L.rect((84, 350, 512, 30)), L.font_px(18),
                      theme.INK, align="center")

    def par(self) -> int | None:
        """The day's par, once the advisor is at hand (it loads in the background)."""
        if self._par is None:
            loader = self.app.advisor_loader(RULESET)
            if loader is not None and loader.ready:
                try:
                    self._par = par(self.date)
                except Exception:     # no advisor after all: the card shows no par
                    self._par = None
        return self._par

    def draw_days(self, surface) -> None:
        """The streak, and when the next daily starts (UTC midnight, also in local time)."""
        L = self.layout
        seconds, start = next_daily(datetime.now(timezone.utc))
        local = start.astimezone().strftime("%H:%M")
        draw_text(surface, self.t("daily.streak", days=self._streak), L.rect((84, 400, 512, 30)),
                  L.font_px(19), theme.INK, bold=True, align="center")
        draw_wrapped(surface, self.t("daily.next_in", hours=seconds // 3600, minutes=seconds % 3600 // 60,
                                     local=local), L.rect((96, 432, 488, 48)), L.font_px(16), theme.INK_SOFT,
                     align="center")
