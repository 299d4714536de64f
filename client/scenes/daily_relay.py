"""The daily challenge on a relay (issue 6).

The relay holds a secret seed per UTC date: ``daily_info`` shows today's
commitment (fingerprint), today's leaderboard and the seeds of closed days;
``daily_play {name}`` starts the one attempt that name has today (a 1-seat
``yacht`` game dealt by the relay, with the turn clock); ``daily_log`` gives the log
once the date has closed, and the client then records it in the store (history
and bests only: a relay daily does not use the local offline attempt).

``DailyRelayScene`` is the info screen before the game and the board after it;
the game itself is the table game scene with one seat (``table.DailyRelayGameScene``).

The last used relay and the games whose log is still to be fetched are kept in
the profile's settings (``client/daily_relay_memory.py``).
"""
from __future__ import annotations

import pygame

from bonanza.core import dice as dice_mod
from bonanza.core.settings import MAX_NAME

from .. import theme
from ..daily_relay_memory import (
    add_pending,
    pending_logs,
    played_at,
    remember_relay,
    remove_pending,
)
from ..i18n import format_date
from ..relay_notes import (
    RelayKeyNote,
    ask_about_changed_key,
    handle_relay_error,
    leave_untrusted,
    note_relay_key,
    relay_key_line,
)
from ..widgets import ROW_INSET, draw_text, draw_wrapped, shadowed_panel
from .base import Scene

BOARD_ROWS = 8
CLOSED_ROWS = 2


def group_hex(b: bytes | None, per_line: int = 32) -> list[str]:
    """A hash in groups of four hex digits, ``per_line`` digits a line."""
    if not b:
        return ["–"]
    h = bytes(b).hex()
    lines = []
    for i in range(0, len(h), per_line):
        part = h[i:i + per_line]
        lines.append(" ".join(part[j:j + 4] for j in range(0, len(part), 4)))
    return lines


def _same_name(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


# ---------------------------------------------------------------- info before, board after
class DailyRelayScene(Scene):
    """Today's relay daily: date, fingerprint, leaderboard, closed days; Play.

    With ``result`` (the ``end`` message of the game just played) it is the board:
    the score, the place on the refreshed leaderboard and when the log can be had."""

    title_key = "daily.title"

    def __init__(self, app, host: str, port: int, conn=None, result: dict | None = None,
                 name: str | None = None):
        super().__init__(app)
        self.host, self.port = host, int(port)
        self.name = (name or app.profile.name).strip()[:MAX_NAME] or app.profile.name
        if conn is None:
            from bonanza.client.relay_client import RelayConnection
            conn = RelayConnection(host, self.port, signer=app.profile.seat_signer())
        self.conn = self.own(conn)
        self.result = result
        self.info: dict | None = None
        self.asked = False
        self.starting = False
        self.refused: str | None = None    # the refusal's code when the relay said no
        self.failed = False
        self.asked_logs: set[str] = set()
        self.saved_dates: list[str] = []
        self.relay_key: RelayKeyNote | None = None
        if result is None:
            self.button("play", (190, 600, 320, 56), lambda: self.t("daily.relay.play_as", name=self.name), size=21)
            self.button("together", (530, 600, 320, 56), lambda: self.t("daily.relay.together"),
                        style="secondary", size=21)
            self.button("back", (870, 600, 220, 56), lambda: self.t("common.back"), style="secondary", size=21)
            self.focus_id = "play"
        else:
            self.button("back", (490, 600, 300, 56), lambda: self.t("results.back_to_menu"),
                        style="secondary", size=21)
            self.focus_id = "back"

    # ---------------------------------------------------------- state
    @property
    def date(self) -> str | None:
        return self.info.get("date") if self.info else None

    def played(self) -> bool:
        return self.refused is not None or bool(self.info and self.info.get("played"))

    def button_enabled(self, id):
        if id in ("play", "together"):
            # Play stays pressable after the day's attempt: the relay's refusal says why
            return (self.info is not None and not self.starting and self.conn.status == "connected"
                    and (id == "play" or not self.played()))
        return True

    def on_press(self, id):
        note = self.relay_key
        if id in ("play", "together") and note is not None and note.seen == "changed":
            ask_about_changed_key(self, note, self.host, self.port,
                                  lambda ok: self._key_answered(ok, id))
            return
        if id == "play":
            self.play()
        elif id == "together":
            self.together()
        elif id == "back":
            self.back()

    def _key_answered(self, accepted: bool, id: str) -> None:
        if accepted and self.relay_key is not None:
            self.relay_key = self.relay_key._replace(seen="known", old=None)
            self.on_press(id)

    def together(self) -> None:
        """Open a daily table on this relay: friends join by its code (or find it on the
        network); each one sitting down uses their attempt; empty seats go to bots."""
        from bonanza.client.relay_client import RelayConnection
        from bonanza.core.game import MAX_SEATS
        from bonanza.core.settings import DAILY_RULESET, DEFAULT_TURN_SECONDS
        conn = RelayConnection(self.host, self.port, signer=self.app.profile.seat_signer())
        self.app.open("lobby", conn, self.host, self.port, request={
            "type": "create_table", "name": self.name, "seats": MAX_SEATS,
            "turn_seconds": DEFAULT_TURN_SECONDS, "ruleset": DAILY_RULESET, "daily": True})

    def play(self) -> None:
        if self.starting:
            return
        self.starting = True
        self.conn.send({"type": "daily_play", "name": self.name, "rid": "daily_play"})

    def back(self):
        if self.result is None:
            self.app.pop()
        else:
            self.app.to_title()

    # ---------------------------------------------------------- relay messages
    def update(self, dt):
        super().update(dt)
        if not self.asked and self.conn.status == "connected":
            self.asked = True
            self.conn.send({"type": "daily_info", "name": self.name, "rid": "daily_info"})
        if self.relay_key is None and self.conn.status == "connected":
            self.relay_key = note_relay_key(self, self.conn, self.host, self.port)
        msgs = self.conn.poll()
        if msgs:
            self.app.dirty = True   # redraw now; a still lobby otherwise idles at the low frame rate
        for msg in msgs:
            kind = msg.get("type")
            if kind == "daily_info":
                self.info = msg
                self.fetch_logs()
            elif kind == "log":
                self.take_log(msg)
            elif kind == "error":
                self.take_error(msg)
            elif kind == "status" and msg.get("status") == "closed" and not self.failed:
                self.failed = True
                self.starting = False
                if self.info is None:
                    self.app.show(self.t("error.cannot_connect", host=self.host, port=self.port), "error")
            elif kind == "desync":
                leave_untrusted(self, msg)
                return
            elif kind == "started" and self.result is None:
                self.start_game()
                return

    def take_error(self, msg: dict) -> None:
        rid = str(msg.get("rid") or "")
        code = msg.get("code", "unknown")
        if rid.startswith("daily_log:"):
            if code == "log_not_available":   # the day closed with no finished game: nothing to fetch
                date = rid.split(":", 1)[1]
                remove_pending(self.app, self.host, self.port, date, self.name)
            return
        if rid == "daily_play":
            self.starting = False
            if code in ("daily_already_played", "daily_address_played"):
                self.refused = code
        handle_relay_error(self, msg)

    def fetch_logs(self) -> None:
        """Ask for the log of every relay daily played here on a date that has closed."""
        today = self.date
        for p in pending_logs(self.app):
            if (p.get("host"), p.get("port")) != (self.host, self.port) or not _same_name(p.get("name", ""), self.name):
                continue
            date = p.get("date")
            if isinstance(date, str) and today and date < today and date not in self.asked_logs:
                self.asked_logs.add(date)
                self.conn.send({"type": "daily_log", "date": date, "name": p["name"], "rid": f"daily_log:{date}"})

    def take_log(self, msg: dict) -> None:
        date = msg.get("date")
        data = msg.get("log")
        if not data or not isinstance(date, str):    # only what a daily_log request asked for
            return
        name = msg.get("name", self.name)
        # recorded as played when it was played, not now that its log could be fetched
        when = played_at(self.app, self.host, self.port, date, name)
        record = self.app.profile.record_game(bytes(data), when)
        if record is not None:
            remove_pending(self.app, self.host, self.port, date, name)
            self.saved_dates.append(date)
            self.app.show(self.t("daily.relay.log_saved", date=format_date(date)), "good")

    def start_game(self) -> None:
        self.starting = False
        remember_relay(self.app, self.host, self.port)
        header = self.conn.client.header if self.conn.client else None
        date = ((header or {}).get("meta") or {}).get("date") or self.date or ""
        if date:
            add_pending(self.app, self.host, self.port, date, self.name)
        self.app.switch("daily_relay_game", self.conn, self.host, self.port, date, self.name)

    # ---------------------------------------------------------- what the result says
    def my_total(self) -> int | None:
        if not self.result:
            return None
        for s in self.result.get("standings") or []:
            if s.get("seat") == 0:
                return int(s.get("total", 0))
        st = self.conn.state
        return st.sheets[0].total(st.ruleset) if st is not None else None

    def my_place(self) -> tuple[int, int] | None:
        board = (self.info or {}).get("leaderboard") or []
        for row in board:
            if _same_name(row.get("name", ""), self.name):
                return int(row["place"]), len(board)
        return None

    # ---------------------------------------------------------- frame
    def draw(self, surface):
        L = self.layout
        self.draw_background(surface)
        self.draw_title(surface, self.t(self.title_key), y=12)
        sub = self.t("daily.relay.server", host=self.host, port=self.port)
        if self.date:
            sub = f"{self.t('daily.date', date=format_date(self.date))} · {sub}"
        draw_text(surface, sub, L.rect((80, 62, 1120, 32)), L.font_px(20), theme.TEXT_ON_FELT_SOFT, align="center")
        left = L.rect((60, 104, 560, 330))
        right = L.rect((660, 104, 560, 330))
        shadowed_panel(surface, left, theme.PAPER, L.px(16), L.px(6))
        shadowed_panel(surface, right, theme.PAPER, L.px(16), L.px(6))
        if self.info is None:
            key = "error.cannot_connect" if self.failed else "lobby.connecting"
            draw_wrapped(surface, self.t(key, host=self.host, port=self.port), L.rect((90, 240, 500, 80)),
                         L.font_px(22), theme.BAD if self.failed else theme.INK, align="center")
        elif self.result is None:
            self.draw_info_card(surface)
        else:
            self.draw_result_card(surface)
        self.draw_board(surface)
        self.draw_closed(surface)
        if self.relay_key is not None:     # whose key signs the day's games
            L = self.layout
            draw_text(surface, relay_key_line(self.t, self.relay_key), L.rect((140, 664, 1000, 24)),
                      L.font_px(15), theme.TEXT_ON_FELT_SOFT
                      if self.relay_key.seen in ("new", "known") else theme.GOLD, align="center")
        self.draw_widgets(surface)

    def draw_fingerprint(self, surface, y: float, px: int = 20) -> float:
        L = self.layout
        draw_text(surface, self.t("daily.relay.fingerprint"), L.rect((90, y, 500, 30)), L.font_px(19),
                  theme.INK_SOFT, bold=True)
        y += 32
        for line in group_hex((self.info or {}).get("commitment")):
            draw_text(surface, line, L.rect((90, y, 500, 28)), L.font_px(px), theme.INK, bold=True)
            y += 28
        return y

    def draw_info_card(self, surface) -> None:
        L = self.layout
        y = self.draw_fingerprint(surface, 118) + 8
        for key in ("daily.relay.reveal_note", "daily.relay.one_attempt", "daily.ruleset"):
            y += draw_wrapped(surface, self.t(key), L.rect((90, y, 500, 120)), L.font_px(17),
                              theme.INK) / max(L.scale, 1e-6) + 6
        if self.played():
            why = self.refused or "daily_already_played"     # the real reason: name or address
            draw_wrapped(surface, self.t(f"refusal.{why}"), L.rect((90, max(y, 372), 500, 56)),
                         L.font_px(19), theme.PENDING, bold=True)

    def draw_result_card(self, surface) -> None:
        L = self.layout
        draw_text(surface, self.t("game.score"), L.rect((90, 114, 500, 30)), L.font_px(20), theme.INK_SOFT,
                  align="center")
        total = self.my_total()
        draw_text(surface, "–" if total is None else str(total), L.rect((90, 142, 500, 80)), L.font_px(70),
                  theme.INK, bold=True, align="center")
        place = self.my_place()
        if place is not None:
            draw_text(surface, self.t("daily.relay.your_place", place=place[0], total=place[1]),
                      L.rect((90, 224, 500, 34)), L.font_px(22), theme.INK, bold=True, align="center")
        date = self.date or ""
        key = "daily.relay.log_saved" if date in self.saved_dates else "daily.relay.log_later"
        draw_wrapped(surface, self.t(key, date=format_date(date)), L.rect((96, 266, 488, 64)), L.font_px(17),
                     theme.INK_SOFT, align="center")
        self.draw_fingerprint(surface, 330, px=18)

    def draw_board(self, surface) -> None:
        L = self.layout
        draw_text(surface, self.t("daily.leaderboard"), L.rect((690, 116, 500, 36)), L.font_px(24), theme.INK,
                  bold=True)
        if self.info is None:
            return
        board = self.info.get("leaderboard") or []
        if not board:
            draw_text(surface, self.t("daily.no_scores"), L.rect((690, 170, 500, 34)), L.font_px(19),
                      theme.INK_SOFT)
            return
        rows = board[:BOARD_ROWS]
        mine = next((r for r in board if _same_name(r.get("name", ""), self.name)), None)
        if mine is not None and mine not in rows:
            rows = rows[:BOARD_ROWS - 1] + [mine]
        places = [r["place"] for r in board]
        for i, row in enumerate(rows):
            y = 160 + i * 33
            me = row is mine
            if me:
                pygame.draw.rect(surface, theme.ACTIVE_COL, L.rect((680, y - 1, 520, 32)), border_radius=L.px(6))
            color = theme.PENDING if row["place"] == 1 else theme.INK_SOFT
            draw_text(surface, self.tn("results.place_n", row["place"]), L.rect((680 + ROW_INSET, y, 70, 30)),
                      L.font_px(20), color, bold=True)
            name = row["name"] + (f" {self.t('lobby.you')}" if me else "")
            draw_text(surface, " · ".join([name] + self.row_marks(row, places)),
                      L.rect((766, y, 320, 30)), L.font_px(19), theme.INK, bold=me)
            draw_text(surface, str(row["score"]), L.rect((1200 - ROW_INSET - 100, y, 100, 30)), L.font_px(20),
                      theme.INK, bold=True, align="right")

    def row_marks(self, row: dict, places: list) -> list[str]:
        """What the board says beside a name: a shared place, a game given up (ranked
        behind every finished one), attempts that came from one address (numbered)."""
        marks = []
        if places.count(row.get("place")) > 1:
            marks.append(self.t("results.shared_place"))
        if row.get("gave_up"):
            marks.append(self.t("table.gave_up"))
        if isinstance(row.get("same_address"), int):
            marks.append(self.t("daily.relay.same_address", n=row["same_address"]))
        return marks

    def draw_closed(self, surface) -> None:
        L = self.layout
        panel = L.rect((60, 448, 1160, 140))
        shadowed_panel(surface, panel, theme.FELT_DARK, L.px(14), L.px(4))
        draw_text(surface, self.t("daily.relay.closed_days"), L.rect((84, 458, 1112, 30)), L.font_px(19),
                  theme.TEXT_ON_FELT, bold=True)
        closed = (self.info or {}).get("closed") or []
        if self.info is not None and not closed:
            draw_text(surface, self.t("daily.relay.no_closed_days"), L.rect((84, 494, 1112, 28)), L.font_px(17),
                      theme.TEXT_ON_FELT_SOFT)
        for i, day in enumerate(closed[:CLOSED_ROWS]):
            y = 488 + i * 48
            seed, commit = day.get("seed"), day.get("commitment")
            ok = bool(seed) and dice_mod.commitment(bytes(seed)) == commit
            mark = "✔" if ok else "✖"      # the revealed seed matches the fingerprint shown that day
            draw_text(surface, f"{mark} {format_date(day.get('date', '?'))}", L.rect((84, y, 300, 24)), L.font_px(17),
                      theme.OK if ok else theme.BAD, bold=True)
            board = day.get("leaderboard") or []
            parts = []
            best = [r for r in board if r.get("place") == 1 and not r.get("gave_up")]
            if best:                    # a tied best names everyone who shares it
                parts.append(self.t("daily.relay.day_best",
                                    name=", ".join(r["name"] for r in best),
                                    score=best[0]["score"]))
            if isinstance(day.get("par"), int):    # the optimal bot on the day's dice
                parts.append(self.t("daily.relay.par", score=day["par"]))
            if parts:
                draw_text(surface, " · ".join(parts), L.rect((500, y, 696, 24)), L.font_px(16),
                          theme.TEXT_ON_FELT_SOFT, align="right")
            text = self.t("daily.relay.seed", seed=group_hex(seed, 64)[0])
            draw_text(surface, text, L.rect((108, y + 23, 1088, 24)), L.font_px(16), theme.TEXT_ON_FELT)
