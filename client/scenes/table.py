"""A table game through the relay: every sheet side by side, the active
player's dice, the turn clock (urgent in its last seconds), each seat's
connection state, leave (= give up)."""
from __future__ import annotations

import math

import pygame

from .. import actions as A
from .. import sprites, theme
from ..widgets import draw_text
from .game import GameScene
from .lobby import handle_relay_error

URGENT_SECONDS = 10


class TableScene(GameScene):
    give_up_key = "game.leave"
    give_up_question = "game.leave_confirm"

    def __init__(self, app, conn, relay=None):
        self.conn = conn
        self.relay = relay
        st = conn.state
        super().__init__(app, st.setup.ruleset, len(st.setup.seats))
        self.own(conn)
        if relay is not None:
            self.own(relay)
        self.clock_at = None       # (remaining, app.now when received, seat)
        self._last_beep = None
        self._shown_secs = None
        self._take_clock(conn.clock)
        self.done = False

    @property
    def state(self):
        return self.conn.state

    @property
    def my_seat(self):
        return self.conn.seat if self.conn.seat is not None else -1

    def my_turn(self) -> bool:
        st = self.state
        return (st is not None and not st.over and self.conn.seat is not None
                and st.active == self.conn.seat and self.conn.status == "connected")

    def can_give_up(self) -> bool:
        return self.lost() or (self.conn.seat is not None and not self.state.has_given_up(self.conn.seat))

    def seat_labels(self):
        out = []
        for i, s in enumerate(self.state.setup.seats):
            name = s.name
            if i == self.conn.seat and self.ncols <= 2:
                name = f"{name} {self.t('lobby.you')}"
            out.append(name)
        return out

    def seat_status(self):
        t = self.conn.table or {}
        players = {p["seat"]: p for p in t.get("players", [])}
        out = []
        for i, s in enumerate(self.state.setup.seats):
            if self.state.has_given_up(i):
                out.append("gave_up")
            elif s.is_bot:
                out.append("bot")
            else:
                p = players.get(i, {})
                out.append("connected" if p.get("connected", True) else "disconnected")
        return out

    # ---------------------------------------------------------- moves
    def handle(self, action):
        if action.name == A.TOGGLE_DIE and self.dialog is None:
            super().handle(action)
            self.conn.send({"type": "hold", "held": list(self.input.held)})
            return
        super().handle(action)

    def send_roll(self, hold) -> None:
        self.conn.send({"type": "roll", "hold": [bool(h) for h in hold]})

    def send_write(self, box: str) -> None:
        self.conn.send({"type": "write", "box": box})

    def lost(self) -> bool:
        return self.conn.status == "closed" and not self.done

    def send_give_up(self) -> None:
        if self.lost():
            self.done = True
            self.app.to_title()    # on exit the connection closes and a hosted relay stops
            return
        self.conn.send({"type": "leave"})

    def after_write(self, before, box, pts) -> None:
        self.app.play_sound("write" if pts else "scratch")

    # ---------------------------------------------------------- frame
    def _take_clock(self, clock) -> None:
        self.clock_at = None if not clock else (float(clock["remaining"]), self.app.now, clock.get("seat"))

    def remaining(self):
        if self.clock_at is None:
            return None
        rem, at, _ = self.clock_at
        return max(0.0, rem - (self.app.now - at))

    def update(self, dt):
        msgs = self.conn.poll()
        if msgs:
            self.app.dirty = True      # a move, a hold, a status: redraw even at the idle rate
        for msg in msgs:
            kind = msg.get("type")
            if kind == "error":
                handle_relay_error(self, msg)
            elif kind in ("move", "clock", "started", "resumed"):
                self._take_clock(self.conn.clock)
                if kind == "move":
                    mv = msg["record"]["move"]
                    if mv.get("type") == "roll" and mv.get("seat") != self.conn.seat:
                        self.dice_view.start_roll(self.app.now, mv["hold"], self.app.profile.animation_seconds)
                        self.app.play_sound("dice")
                    elif mv.get("type") == "give_up":
                        name = self.state.setup.seats[mv["seat"]].name
                        key = "table.seat_left" if mv.get("why") == "left" else "table.seat_gave_up"
                        self.app.show(self.t(key, name=name))
            elif kind == "status":
                st = msg.get("status")
                if st == "reconnecting":
                    self.app.show(self.t("error.connection_lost"), "error")
                elif st == "connected":
                    self.app.show(self.t("error.reconnected"), "good")
                elif st == "closed" and not self.done:
                    # the relay is gone for good (resume refused or timed out): say so; Leave
                    # (Escape) now goes back to the menu instead of waiting for an answer
                    self.app.show(self.t("table.disconnected"), "error", 6.0)
            elif kind == "desync":
                self.app.show(self.t("error.desync"), "error", 10.0)
            elif kind == "end":
                self.finish(msg)
                return
        super().update(dt)
        rem = self.remaining()
        shown = None if rem is None else math.ceil(rem)
        if shown != self._shown_secs:      # the clock's figure changed
            self._shown_secs = shown
            self.app.dirty = True
        if rem is not None and self.my_turn() and rem <= 5:
            sec = math.ceil(rem)
            if sec != self._last_beep and sec > 0:
                self._last_beep = sec
                self.app.play_sound("clock")

    def finish(self, msg) -> None:
        if self.done:
            return
        self.done = True
        from .results import ResultsScene
        data = msg.get("log")
        if data:
            self.app.profile.record_game(data)
        end = msg.get("end") or {}
        seed = (end.get("reveal") or {}).get("seed")
        header = self.conn.client.header if self.conn.client else {}
        commit = (header or {}).get("dice", {}).get("commit")
        self.app.replace(ResultsScene(self.app, self.state, data, mode="table", my_seat=max(0, self.my_seat),
                                      reveal_seed=seed, commitment=commit))

    def animating(self):
        """Full frame rate only while something moves (dice, the urgent clock's pulse);
        ``update`` marks the frame dirty when the relay says something or the clock ticks."""
        rem = self.remaining()
        return super().animating() or (rem is not None and 0 < rem <= URGENT_SECONDS)

    def draw_table_top(self, surface):
        if self.ncols == 2:
            L = self.layout
            # the felt inlay holds the dice, Roll and "n rolls left" (inset = height // 9)
            r = L.rect((self.cx - 320, 78, 640, 304))
            surface.blit(sprites.wood(r.size, L.px(70)), r)

    def draw(self, surface):
        st = self.state
        if not self.my_turn() and st.dice is not None:
            held = self.conn.held
            self.input.held = list(held)
        super().draw(surface)

    def draw_top_bar(self, surface):
        L = self.layout
        st = self.state
        cx = self.cx
        if st.over:
            return
        name = st.setup.seats[st.active].name
        text = self.t("table.your_turn") if self.my_turn() else self.t("table.turn_of", name=name)
        left = cx - self.half
        clock_x = cx + self.half - 190
        draw_text(surface, text, L.rect((left, 22, clock_x - left - 12, 44)), L.font_px(24),
                  theme.GOLD if self.my_turn() else theme.TEXT_ON_FELT, bold=True)
        rem = self.remaining()
        if rem is not None:
            urgent = rem <= URGENT_SECONDS
            r = L.rect((clock_x, 18, 190, 50))
            pulse = urgent and (self.app.now * 2) % 1 < 0.5
            pygame.draw.rect(surface, theme.URGENT if urgent else theme.FELT_DARK, r, border_radius=L.px(12))
            if pulse:
                pygame.draw.rect(surface, theme.WHITE, r, max(2, L.px(3)), border_radius=L.px(12))
            secs = int(math.ceil(rem))
            draw_text(surface, f"{secs // 60}:{secs % 60:02d}", r.inflate(-L.px(16), 0), L.font_px(26),
                      theme.WHITE, bold=True, align="center")
        if self.conn.status != "connected":
            draw_text(surface, self.t("table.disconnected" if self.lost() else "table.reconnecting"),
                      L.rect((left, 66, 2 * self.half, 28)), L.font_px(18), theme.BAD, bold=True)

    def draw_footer(self, surface):
        L = self.layout
        if not self.my_turn() and not self.state.over:
            name = self.state.setup.seats[self.state.active].name
            draw_text(surface, self.t("table.waiting_for", name=name), L.rect((self.cx - self.half, 440, 2 * self.half, 40)),
                      L.font_px(22), theme.TEXT_ON_FELT_SOFT, align="center")
        super().draw_footer(surface)
