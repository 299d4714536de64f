"""Ranked runs on a relay: the relay deals, times and signs the run.

``RankedScene`` is the form (address and port, remembered) and the relay's ranked board;
the run itself is the table game scene with one seat (``table.RankedGameScene``).  A run's log
is recorded in the store like any game; its board there is the server's, never a local one.
"""
from __future__ import annotations

from bonanza.core.settings import DEFAULT_PORT, DEFAULT_RULESET, RULESETS

from .. import theme
from ..i18n import format_duration
from ..relay_address import port_number
from ..relay_notes import (
    RelayKeyNote,
    ask_about_changed_key,
    handle_relay_error,
    leave_untrusted,
    note_relay_key,
    relay_key_line,
)
from ..widgets import draw_text, draw_wrapped, shadowed_panel
from .base import Scene

BOARD_ROWS = 8


def board_time(entry: dict) -> str:
    """A board row's run time; "–" for anything but whole milliseconds (a relay's board is
    its own word: a bad value is shown as unknown, it never stops the window)."""
    ms = entry.get("duration_ms")
    return format_duration(ms) if type(ms) is int and ms >= 0 else "–"


class RankedScene(Scene):
    title_key = "ranked.title"

    def __init__(self, app, result: dict | None = None, conn=None, host=None, port=None):
        super().__init__(app)
        last = app.profile.settings.get("last_ranked") or app.profile.settings["last_join"]
        self.address = self.field("address", (300, 130, 330, 50), max_len=64,
                                  value=str(host or last.get("address") or "127.0.0.1")[:64])
        self.port = self.field("port", (300, 200, 330, 50), max_len=5,
                               value=str(port or last.get("port") or DEFAULT_PORT)[:5])
        self.button("connect", (300, 270, 330, 50), lambda: self.t("ranked.show_board"),
                    style="secondary", size=20)
        self.button("play", (300, 460, 330, 60),
                    lambda: self.t("ranked.play_as", name=self.app.profile.name), size=22)
        self.button("back", (365, 540, 200, 50), lambda: self.t("common.back"), style="secondary")
        # the run's rules, and the board shown beside them: one board per ruleset
        self.ruleset = DEFAULT_RULESET
        self.button("ruleset", (60, 460, 220, 60), lambda: self.t(f"game.ruleset.{self.ruleset}"),
                    style="secondary", size=22)
        # runs the relay marked "tool-assisted?" are off the board; this shows them under it
        self.show_tool = False
        self.button("tool", (900, 600, 320, 40),
                    lambda: self.t("records.tool_shown" if self.show_tool else "records.tool_hidden"),
                    style="secondary", size=16)
        self.conn = self.own(conn) if conn is not None else None
        self.info: dict | None = None
        self.result = result
        self.starting = False
        self.asked = False
        self.relay_key: RelayKeyNote | None = None
        self.focus_id = "play" if conn is not None else "connect"

    # ---------------------------------------------------------- the relay
    def _target(self):
        return self.address.value.strip() or "127.0.0.1", port_number(self.port.value)

    def connect(self) -> None:
        from bonanza.client.relay_client import RelayConnection
        host, port = self._target()
        if port is None:
            return
        if self.conn is not None:
            self.conn.close(0.5)
        self.app.profile.remember("last_ranked", {"address": host, "port": port})
        self.conn = self.own(RelayConnection(host, port, signer=self.app.profile.seat_signer()))
        self.info, self.asked, self.relay_key = None, False, None

    def button_enabled(self, id):
        if id == "play":
            return (self.conn is not None and self.conn.status == "connected"
                    and not self.starting and self.app.profile.has_name)
        if id == "connect":
            return self._target()[1] is not None
        return True

    def on_press(self, id):
        if id == "connect":
            self.connect()
        elif id == "play":
            self.play()
        elif id == "back":
            self.back()
        elif id == "ruleset":
            self.ruleset = RULESETS[(RULESETS.index(self.ruleset) + 1) % len(RULESETS)]
        elif id == "tool":
            self.show_tool = not self.show_tool

    def on_submit(self, id):
        self.connect()

    def back(self):
        self.app.to_title()

    def play(self) -> None:
        if self.conn is None:      # Play is enabled only while connected
            return
        note = self.relay_key
        if note is not None and note.seen == "changed":    # ask before the run starts
            host, port = self._target()
            ask_about_changed_key(self, note, host, port or 0, self._key_answered)
            return
        self.starting = True
        self.conn.send({"type": "ranked_play", "name": self.app.profile.name,
                        "ruleset": self.ruleset,
                        "hints": bool(self.app.profile.settings.get("show_hints")),
                        "animation": "instant" if self.app.profile.settings["animation"] == "instant"
                        else "animated"})

    def _key_answered(self, accepted: bool) -> None:
        if accepted and self.relay_key is not None:
            self.relay_key = self.relay_key._replace(seen="known", old=None)
            self.play()

    def update(self, dt):
        super().update(dt)
        if self.conn is None:
            return
        if not self.asked and self.conn.status == "connected":
            self.asked = True
            self.conn.send({"type": "ranked_info", "name": self.app.profile.name})
        if self.relay_key is None and self.conn.status == "connected":
            host, port = self._target()
            # the board is only as good as the key that signs its runs: show it, remember it
            self.relay_key = note_relay_key(self, self.conn, host, port)
        msgs = self.conn.poll()
        if msgs:
            self.app.dirty = True
        for msg in msgs:
            kind = msg.get("type")
            if kind == "ranked_info":
                self.info = msg
                self.focus_id = "play"
            elif kind == "error":
                self.starting = False
                handle_relay_error(self, msg)
            elif kind == "status" and msg.get("status") == "closed":
                self.starting = False
                host, port = self._target()
                self.app.show(self.t("error.cannot_connect", host=host, port=port), "error", 6.0)
                self.conn = None
                return
            elif kind == "desync":
                leave_untrusted(self, msg)
                return
            elif kind == "started":
                host, port = self._target()
                self.app.switch("ranked_game", self.conn, host, port)
                return

    # ---------------------------------------------------------- drawing
    def board(self) -> list:
        boards = (self.info or {}).get("boards") or {}
        hints = "hints" if self.app.profile.settings.get("show_hints") else "no_hints"
        return ((boards.get(self.ruleset) or {}).get(hints) or [])[:BOARD_ROWS]

    def tool_runs(self) -> list:
        """The relay's "tool-assisted?" runs of this ruleset (both hints settings), shown
        under the board only when asked for."""
        if not self.show_tool:
            return []
        boards = (self.info or {}).get("boards") or {}
        runs = (boards.get(self.ruleset) or {}).get("tool_assisted") or []
        return [e for e in runs if isinstance(e, dict)][:max(0, BOARD_ROWS + 2 - len(self.board()))]

    def draw(self, surface):
        super().draw(surface)
        L = self.layout
        for y, key in ((130, "lobby.address"), (200, "lobby.port")):
            draw_text(surface, self.t(key), L.rect((60, y, 230, 50)), L.font_px(22),
                      theme.TEXT_ON_FELT, bold=True)
        need_name = not self.app.profile.has_name
        # the paragraph ends above the name's note (it wraps onto more lines at larger sizes)
        draw_wrapped(surface, self.t("ranked.about"), L.rect((60, 332, 570, 86 if need_name else 118)),
                     L.font_px(17), theme.TEXT_ON_FELT_SOFT)
        if need_name:     # a board needs a name: say where to set it
            draw_text(surface, self.t("ranked.need_name"), L.rect((60, 420, 570, 30)),
                      L.font_px(17), theme.GOLD, bold=True)
        if self.relay_key is not None:     # the board is only as good as the key that signs it
            draw_text(surface, relay_key_line(self.t, self.relay_key), L.rect((60, 600, 570, 26)),
                      L.font_px(15), theme.TEXT_ON_FELT_SOFT
                      if self.relay_key.seen in ("new", "known") else theme.GOLD)
        card = L.rect((680, 110, 540, 480))
        shadowed_panel(surface, card, theme.PAPER, L.px(16), L.px(6))
        hints = self.app.profile.settings.get("show_hints")
        draw_text(surface, self.t("ranked.board_hints" if hints else "ranked.board",
                                  ruleset=self.t(f"game.ruleset.{self.ruleset}")),
                  L.rect((704, 124, 492, 36)), L.font_px(22), theme.INK, bold=True)
        y = 170
        if self.result is not None:
            end = self.result.get("end") or {}
            meta = end.get("meta") or {}
            total = (end.get("totals") or [0])[0]
            text = self.t("ranked.your_run", score=total,
                          time=format_duration(meta.get("duration_ms") or 0))
            draw_text(surface, text, L.rect((704, y, 492, 30)), L.font_px(18), theme.GOLD, bold=True)
            y += 38
        if self.info is None:
            draw_wrapped(surface, self.t("ranked.no_board"), L.rect((704, y, 492, 60)),
                         L.font_px(17), theme.INK_SOFT)
            return
        if not self.board():
            draw_wrapped(surface, self.t("ranked.empty"), L.rect((704, y, 492, 60)),
                         L.font_px(17), theme.INK_SOFT)
        for e in self.board():
            line = self.t("ranked.row", place=e["place"], name=e["name"], score=e["score"],
                          time=board_time(e))
            draw_text(surface, line, L.rect((704, y, 380, 30)), L.font_px(17), theme.INK)
            draw_text(surface, self.tn("ranked.attempts", e["attempts"]),
                      L.rect((1080, y, 120, 30)), L.font_px(15), theme.INK_SOFT, align="right")
            y += 34
        for e in self.tool_runs():     # unranked, each marked as the relay marked it
            line = self.t("ranked.row", place="?", name=e.get("name", "?"), score=e.get("score", "?"),
                          time=board_time(e))
            draw_text(surface, line, L.rect((704, y, 360, 30)), L.font_px(17), theme.INK_SOFT)
            draw_text(surface, self.t("ranked.tool_assisted"), L.rect((1064, y, 136, 30)),
                      L.font_px(15), theme.BAD, bold=True, align="right")
            y += 34
        mine = self.info.get("attempts")
        if isinstance(mine, int):
            draw_text(surface, self.tn("ranked.your_attempts", mine), L.rect((704, 548, 492, 30)),
                      L.font_px(16), theme.INK_SOFT)
