"""A table game through the relay: every sheet side by side, the active
player's dice, the turn clock (urgent in its last seconds), each seat's
connection state, leave (= give up).

Two one-seat games are this scene too: the day's attempt on a relay
(``DailyRelayGameScene``, back to ``daily_relay`` at the end) and a ranked run
(``RankedGameScene``, back to ``ranked``)."""
from __future__ import annotations

import math
import threading

import pygame

from bonanza.core.game import apply_legal, new_game
from bonanza.core.match import NO_HOLD
from bonanza.core.settings import REACTIONS, ROUND_REVEAL_SECONDS

from .. import actions as A
from .. import fonts, sprites, theme
from ..i18n import format_date
from ..reactions import Reactions
from ..relay_client import answers_own_move
from ..relay_notes import handle_relay_error, leave_untrusted
from ..round_replay import SPEED, RoundReplay, Step, steps_of
from ..texts import box_key
from ..widgets import draw_text
from .game_base import GameScene

URGENT_SECONDS = 10


# The actions that act on the dice or the sheet: while a move of this window is on its way
# to the relay they wait, in order, and are carried out on the state the answer brings —
# as they would be locally, where a move is made before the next key is read.
QUEUED = frozenset((A.ROLL, A.TOGGLE_DIE, A.BOX, A.CONFIRM, A.UP, A.DOWN, A.LEFT, A.RIGHT,
                    A.PREV, A.NEXT, A.FIRST, A.LAST))
# While the mute cursor is over the names (M, a pad's right-stick click), these move it,
# mute or unmute the player it is on, or put it away; nothing else changes meaning.
MUTE_CURSOR = {A.LEFT: -1, A.UP: -1, A.PREV: -1, A.RIGHT: 1, A.DOWN: 1, A.NEXT: 1,
               A.CONFIRM: 0, A.CANCEL: None}


class TableScene(GameScene):
    give_up_key = "game.leave"
    give_up_question = "game.leave_confirm"
    _win_key = None            # the move the win chances were computed after
    _win = None
    _playout: threading.Thread | None = None      # the play-outs of the newest state, if running
    _playout_pending: tuple | None = None         # (advisor, state) to play out once it is done
    # A daily table's reveal, replayed (client/round_replay.py): the replay playing now, the
    # game as committed through the records replayed so far, a key that only ended a
    # replay, and the end of the game while its last round is still being replayed.
    replay: RoundReplay | None = None
    _fold = None
    _swallow = False
    _skipped_turn = 0          # the replay of rounds up to this one was skipped
    _end_msg: dict | None = None

    def __init__(self, app, conn, relay=None):
        self.conn = conn
        self.relay = relay
        st = conn.state
        super().__init__(app, st.setup.ruleset, len(st.setup.seats))
        self.own(conn)
        if relay is not None:
            self.own(relay)
        # (remaining, app.now when received, seat, seconds it waits, the turn or round it times)
        self.clock_at = None
        self._last_beep = None
        self._shown_secs = None
        self._take_clock(conn.clock)
        self.done = False
        # kept in the store, so a crashed or restarted window can rejoin this seat
        self.code = (conn.table or {}).get("code")
        if self.code and getattr(conn, "token", None) and hasattr(conn, "host"):
            app.profile.remember_table(self.code, conn.host, conn.port, conn.token)
        self._remember_daily()
        # a move sent and not yet answered (a record of this seat or an error), and the
        # actions pressed meanwhile, in order (docs/client.md, "Lossless input online")
        self.awaiting = False
        self.queued: list = []
        # cells the clock wrote, from every record so far (a resumed game included)
        self._auto = {(r["move"]["seat"], r["move"]["box"]) for r in conn.records
                      if r["move"].get("type") == "write" and r["move"].get("auto")}
        if self.in_rounds():     # what came before this screen (a resume) is not replayed
            self._fold = new_game(st.setup)
            for r in list(conn.records):
                self._fold = apply_legal(self._fold, r["move"])
        # quick reactions: a row of buttons (keys 6-0) under Hints and Leave; a click on
        # another seat's name mutes its reactions (docs/protocol.md, react)
        self.reactions = Reactions()
        self._mute_told = False
        self.mute_cursor: int | None = None     # the seat whose name the keys' mute cursor is on
        # the band under the key hints holds three rows in a 720-unit window: Hints and
        # Leave, the reactions, the fingerprint, which keeps a margin to the window's edge
        for id in ("hints", "give_up"):
            b = self.widget(id)
            b.rect = (b.rect[0], self.BUTTONS_Y, b.rect[2], 44)
        w = (2 * self.half - 4 * 6) / len(REACTIONS)
        for i, emote in enumerate(REACTIONS):
            self.button(f"react:{i}", (self.cx - self.half + i * (w + 6), self.REACTIONS_Y, w, 28),
                        lambda i=i, e=emote: f"{(i + 6) % 10} {self.t('reaction.short.' + e)}",
                        style="secondary", size=15, action=A.Action(A.REACT, i))

    def daily_date(self) -> str | None:
        """The date of a relay daily (alone or at a daily table), else None."""
        client = getattr(self.conn, "client", None)
        header = (client.header if client is not None else None) or {}
        if header.get("mode") != "daily":
            return None
        date = (header.get("dice") or {}).get("date") or (header.get("meta") or {}).get("date")
        return date if isinstance(date, str) else None

    def _remember_daily(self) -> None:
        """A seat at a relay daily: its log is fetched once the day closes (the daily
        screen asks for every pending one), and the daily screen offers this relay."""
        date, seat = self.daily_date(), self.conn.seat
        host, port = getattr(self.conn, "host", None), getattr(self.conn, "port", None)
        if date is None or seat is None or not isinstance(host, str) or not isinstance(port, int):
            return
        from ..daily_relay_memory import add_pending, remember_relay
        remember_relay(self.app, host, port)
        add_pending(self.app, host, port, date, self.state.setup.seats[seat].name)

    @property
    def state(self):
        """The game as drawn: the replay's moment while a round's reveal is replayed."""
        step = self.replay_step()
        return step.state if step is not None else self.conn.state

    def replaying(self) -> bool:
        return self.replay is not None and not self.replay.done

    def replay_step(self) -> Step | None:
        """The moment of the reveal's replay being shown, if one plays."""
        return self.replay.step if self.replay is not None else None

    def shows_previews(self) -> bool:
        """A replayed box being written shows only itself filling, not what else it could have been."""
        step = self.replay_step()
        return step is None or step.kind == "roll"

    @property
    def my_seat(self):
        return self.conn.seat if self.conn.seat is not None else -1

    def my_turn(self) -> bool:
        st = self.state
        return (st is not None and not st.over and self.conn.seat is not None
                and st.active == self.conn.seat and self.conn.status == "connected"
                and not self.round_done() and not self.replaying())

    # A daily table is played in rounds (docs/fairness.md): the seat plays its turn with
    # its own dice while the others play theirs, then waits until the round is revealed.
    def in_rounds(self) -> bool:
        return getattr(getattr(self.conn, "client", None), "own", None) is not None

    def round_done(self) -> bool:
        return bool(getattr(self.conn, "round_done", False))

    def highlighted_seat(self):
        """In a round, only this seat's column plays (the others' are hidden until the
        reveal); nobody's while it waits; the replayed seat's during the reveal's replay."""
        step = self.replay_step()
        if step is not None:
            return step.seat
        if self.in_rounds():
            return None if self.round_done() else self.conn.seat
        return self.state.active

    def still_playing(self) -> list[str]:
        """The seats still playing this round, by name (the relay's ``round``)."""
        rnd = getattr(getattr(self.conn, "client", None), "round", None) or {}
        seats = self.state.setup.seats
        return [seats[i].name for i in rnd.get("waiting", [])
                if isinstance(i, int) and 0 <= i < len(seats) and i != self.conn.seat]

    def can_give_up(self) -> bool:
        """Leave stays enabled: before giving up it asks, after it offers the menu."""
        return True      # a watcher leaves at once; a player is asked first

    def seat_labels(self):
        out = []
        for i, s in enumerate(self.state.setup.seats):
            name = s.name
            # a window passed around (pass and play) has no "you"
            if i == self.conn.seat and not getattr(self.conn, "local", False):
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
    def send_roll(self, hold) -> None:
        self.awaiting = True
        self.conn.send({"type": "roll", "hold": [bool(h) for h in hold]})

    def send_write(self, box: str) -> None:
        self.awaiting = True
        self.conn.send({"type": "write", "box": box})

    def enabled(self, action) -> bool:
        if self._swallow:
            return False        # the key or click that ended the replay does nothing else
        if action.name == A.REACT or (action.name == A.PRESS and str(action.arg).startswith("react:")):
            return self.reacts() and self.conn.status == "connected"
        if action.name == A.PRESS and str(action.arg).startswith("mute:"):
            return self.dialog is None
        if action.name == A.MUTE:
            return self.can_mute()
        if self.mute_cursor is not None and action.name in MUTE_CURSOR:
            return True
        if self.awaiting and action.name in QUEUED and self.dialog is None:
            return True         # it waits for the answer (``handle``), then is judged
        return super().enabled(action)

    def _answered(self) -> None:
        """The move on its way was answered: carry out what was pressed meanwhile, in
        order, each judged on the state it now meets, until one sends a move again."""
        self.awaiting = False
        while self.queued and not self.awaiting and self.app.scene is self:
            self.app.dispatch(self.queued.pop(0))

    def lost(self) -> bool:
        return self.conn.status == "closed" and not self.done

    def connection_text(self) -> str:
        """What the table says of a connection that is not up: gone for good, the relay
        restarting (the game goes on from its journal), or reconnecting."""
        if self.lost():
            return "table.disconnected"
        return "table.relay_restarting" if getattr(self.conn, "restarting", False) \
            else "table.reconnecting"

    def send_give_up(self) -> None:
        if self.lost():
            self.done = True
            self.app.to_title()    # on exit the connection closes and a hosted relay stops
            return
        # give_up, not leave: the seat is out, the connection stays and can watch to the end
        self.conn.send({"type": "give_up"})

    def i_gave_up(self) -> bool:
        seat = self.conn.seat
        return seat is not None and self.state.has_given_up(seat)

    def dialog_labels(self):
        if self.dialog == "you_left":
            return ("table.back_to_menu", "table.keep_watching")
        if self.dialog == "host_quit":
            return ("table.host_quit_yes", "table.host_quit_no")
        return super().dialog_labels()

    # ---------------------------------------------------------- the host's window closing
    def asks_before_quit(self) -> bool:
        """This window hosts the relay and its game is running: closing asks first."""
        st = self.state
        return (self.relay is not None and not self.done and st is not None and not st.over
                and not self.lost())

    def ask_quit(self) -> None:
        self.dialog = "host_quit"
        self.focus_id = "dialog_no"

    def asking_quit(self) -> bool:
        return self.dialog == "host_quit"

    def leave_running(self) -> None:
        """The window goes, the table plays on: the hosted relay is left running on its
        own (its idle exit stops it once the game is over and everyone has gone); this
        seat, disconnected, is played by the clock as away (never given up by us)."""
        self.dialog = None
        if self.relay is not None:
            self.relay.detach()

    def dialog_lines(self):
        if self.dialog == "host_quit":
            return [self.t(f"table.host_quit_line{n}") for n in (1, 2, 3)]
        if self.dialog != "you_left":
            return []
        from bonanza.core.game import standings
        why = {"left": "table.left", "away": "table.away"}
        return [self.t("table.standing_line", place=s.place, name=s.name, total=s.total)
                + (f" ({self.t(why.get(s.gave_up, 'table.gave_up'))})" if s.gave_up else "")
                for s in standings(self.state)]

    def watching(self) -> bool:
        return self.conn.seat is None and not self.lost()

    def sheet_done(self) -> bool:
        """This seat has filled every box: core refuses its giving up (its score stands),
        so Leave just leaves."""
        from bonanza.core.game import check_give_up
        seat = self.conn.seat
        if seat is None or self.state is None:
            return False
        refusal = check_give_up(self.state, seat, "left")
        return refusal is not None and refusal.code == "seat_done"

    def on_press(self, id):
        if id.startswith("react:"):
            self.react(int(id[6:]))
            return
        if id.startswith("mute:"):
            self.toggle_mute(int(id[5:]))
            return
        if id == "give_up" and (self.watching() or self.sheet_done()):
            self.go_to_menu()          # leave (and keep the score): nothing to give up
            return
        if id == "give_up" and self.i_gave_up():
            self.show_left()
            return
        if self.dialog == "host_quit" and id in ("dialog_yes", "dialog_no"):
            self.focus_id = None
            if id == "dialog_yes":
                self.leave_running()
                self.app.quit()
            self.dialog = None
            return
        if self.dialog == "you_left" and id in ("dialog_yes", "dialog_no"):
            self.dialog = None
            self.focus_id = None
            if id == "dialog_yes":
                self.go_to_menu()
            return
        super().on_press(id)

    def handle(self, action):
        if action.name == A.REACT:
            self.react(action.arg)
            return
        if action.name == A.MUTE:
            self.mute_cursor = self.next_muteable(0) if self.mute_cursor is None else None
            return
        if self.mute_cursor is not None and action.name in MUTE_CURSOR:
            step = MUTE_CURSOR[action.name]
            if step is None:
                self.mute_cursor = None
            elif step == 0:
                self.toggle_mute(self.mute_cursor)
            else:
                self.mute_cursor = self.next_muteable(step)
            return
        if self.awaiting and action.name in QUEUED and self.dialog is None:
            self.queued.append(action)
            return
        if action.name == A.CANCEL and self.dialog is None and self.i_gave_up():
            self.show_left()     # watching after giving up: Escape offers the menu again
            return
        if action.name == A.TOGGLE_DIE and self.dialog is None:
            super().handle(action)
            self.conn.send({"type": "hold", "held": list(self.input.held)})
            return
        super().handle(action)

    def show_left(self) -> None:
        self.dialog = "you_left"
        self.focus_id = "dialog_yes"

    def go_to_menu(self) -> None:
        """Stop watching: the seat is already out; tell the relay and go."""
        self.done = True
        try:
            self.conn.send({"type": "leave"})
        finally:
            self.app.to_title()

    def after_write(self, before, box, pts) -> None:
        self.app.play_sound("write" if pts else "scratch")

    # ---------------------------------------------------------- frame
    def _take_clock(self, clock) -> None:
        """``starts_in``: a daily round's clock waits that long for the reveal's replay."""
        if not clock:
            self.clock_at = None
            return
        wait = clock.get("starts_in")
        wait = float(wait) if isinstance(wait, (int, float)) and wait > 0 else 0.0
        self.clock_at = (float(clock["remaining"]), self.app.now, clock.get("seat"), wait,
                         clock.get("turn"))

    def remaining(self):
        if self.clock_at is None:
            return None
        rem, at, _, wait, _ = self.clock_at
        return max(0.0, rem - max(0.0, self.app.now - at - wait))

    def update(self, dt):
        if self.mute_cursor is not None and not self.can_mute():
            self.mute_cursor = None      # a dialog, the reveal's replay or the end took over
        msgs = self.conn.poll()
        if msgs:
            self.app.dirty = True      # a move, a hold, a status: redraw even at the idle rate
        answered = False
        for msg in msgs:
            kind = msg.get("type")
            if kind == "reaction":
                self.show_reaction(msg)
                continue
            if answers_own_move(msg, self.conn.seat, self.in_rounds()):
                answered = True
            elif kind == "status" and msg.get("status") == "closed":
                self.queued.clear()
            if kind == "error":
                handle_relay_error(self, msg)
            elif kind in ("move", "clock", "started", "resumed", "own_move", "round"):
                self._take_clock(self.conn.clock)
                if kind == "move":
                    mv = msg["record"]["move"]
                    if mv.get("auto"):
                        self.announce_auto(mv)
                    if mv.get("type") == "roll" and mv.get("seat") != self.conn.seat \
                            and not self.in_rounds():   # a round is revealed whole
                        self.dice_view.start_roll(self.app.now, mv["hold"], self.app.profile.animation_seconds)
                        self.app.play_sound("dice")
                    elif mv.get("type") == "give_up" and mv.get("seat") == self.conn.seat:
                        if not self.state.over:
                            self.show_left()
                    elif mv.get("type") == "give_up":
                        name = self.state.setup.seats[mv["seat"]].name
                        key = {"left": "table.seat_left", "away": "table.seat_away"}.get(
                            mv.get("why"), "table.seat_gave_up")
                        self.app.show(self.t(key, name=name))
            elif kind == "status":
                st = msg.get("status")
                if st == "reconnecting":
                    self.app.show(self.t("table.relay_restarting"
                                         if getattr(self.conn, "restarting", False)
                                         else "error.connection_lost"), "error")
                elif st == "connected":
                    self.app.show(self.t("table.relay_restarted"
                                         if getattr(self.conn, "restarted", False)
                                         else "error.reconnected"), "good")
                elif st == "closed" and not self.done:
                    # the relay is gone for good (resume refused or timed out): say so; Leave
                    # (Escape) now goes back to the menu instead of waiting for an answer
                    self.app.show(self.t("table.disconnected"), "error", 6.0)
            elif kind == "desync":
                leave_untrusted(self, msg)      # not played on, not recorded
                return
            elif kind == "end":
                self._follow_reveal()
                if self.replaying():          # the last round is replayed, then the results
                    self._end_msg = msg
                    continue
                self.finish(msg)
                return
        self._follow_reveal()
        self._play_replay(dt)
        self._swallow = False
        if self._end_msg is not None and not self.replaying():
            self.finish(self._end_msg)
            return
        super().update(dt)
        if answered and self.awaiting:
            self._answered()
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
        self.win_chances()
        pending = self._playout_pending
        if pending is not None and self._playout is not None and not self._playout.is_alive():
            self._start_playouts(*pending)

    def show_reaction(self, msg: dict) -> None:
        shown = self.reactions.received(msg, len(self.state.setup.seats), self.app.now)
        if shown is None:
            return
        if shown[0] != self.conn.seat and not self._mute_told:
            self._mute_told = True      # once: how to quiet someone
            self.app.show(self.t("table.reactions_mute_hint_pad" if self.app.input_kind == "controller"
                                 else "table.reactions_mute_hint"), "info", 4.0)

    def draw_reactions(self, surface) -> None:
        """Each shown reaction in a bubble under its player's name, in the seat's colour."""
        L = self.layout
        n = len(self.state.setup.seats)
        for seat, (emote, left) in sorted(self.reactions.showing(self.app.now).items()):
            x, y, w, h = self.sheet_view.header_rect(seat, n)
            text = self.t(f"reaction.{emote}")
            px = L.font_px(17)
            tw = fonts.text_width(text, px, True) / max(L.scale, 1e-6) + 24
            bw = max(w - 8, min(tw, 220))
            sx, _, sw, _ = self.sheet_view.rect
            bx = min(max(x + w / 2 - bw / 2, sx + 6), sx + sw - bw - 6)
            box = L.rect((bx, y + h + 6, bw, 34))
            tip = [L.point(x + w / 2 - 8, y + h + 7), L.point(x + w / 2 + 8, y + h + 7),
                   L.point(x + w / 2, y + h - 2)]
            alpha = int(245 * max(0.0, min(1.0, left / 0.4)))      # fades in its last moment
            layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            pygame.draw.polygon(layer, (*theme.TOAST_BG, alpha), tip)
            pygame.draw.rect(layer, (*theme.TOAST_BG, alpha), box, border_radius=L.px(10))
            pygame.draw.rect(layer, (*theme.SEAT_COLORS[seat % len(theme.SEAT_COLORS)], alpha), box,
                             max(1, L.px(3)), border_radius=L.px(10))
            surface.blit(layer, (0, 0))
            draw_text(surface, text, box.inflate(-L.px(12), 0), px, theme.WHITE, bold=True,
                      align="center")

    def draw_marks_legend(self, surface) -> None:
        """What the red corner of a box means, in the sheet's empty top-left cell, once the
        clock has written one."""
        if not self._auto:
            return
        L = self.layout
        x, y, _, _ = self.sheet_view.rect
        r = L.rect((x + 12, y + 10, self.sheet_view.label_w - 14, 28))
        k = L.px(12)
        top = r.centery - k // 2
        pygame.draw.polygon(surface, theme.URGENT, [(r.x, top), (r.x + k, top), (r.x + k, top + k)])
        draw_text(surface, self.t("table.auto_legend"),
                  pygame.Rect(r.x + k + L.px(6), r.y, r.w - k - L.px(6), r.h), L.font_px(15),
                  theme.INK_SOFT, min_px=theme.MIN_READABLE_PX)

    def draw(self, surface) -> None:
        super().draw(surface)
        if self.state is not None and self.dialog is None:
            self.draw_marks_legend(surface)
            self.draw_reactions(surface)
            self.draw_mute_cursor(surface)

    def announce_auto(self, mv: dict) -> None:
        """Time ran out: every screen says what the clock wrote, for whom, and the box is marked."""
        if mv.get("type") != "write":
            return
        seat, box = mv["seat"], mv["box"]
        self._auto.add((seat, box))
        points = self.conn.state.sheets[seat].get(box)
        name = self.state.setup.seats[seat].name
        key = "table.auto_move_you" if seat == self.conn.seat else "table.auto_move_for"
        self.app.show(self.t(key, name=name, box=self.t(box_key(box, self.state.ruleset)), points=points or 0),
                      "info", 5.0)

    # ---------------------------------------------------------- the reveal's replay
    def _follow_reveal(self) -> None:
        """A daily round's records came: replay the others' moves (at once, or added to a
        replay still playing); the clock of the next turn waits ROUND_REVEAL_SECONDS."""
        if self._fold is None:
            return
        records = list(self.conn.records)
        moves = [r["move"] for r in records[self._fold.seq:]]
        if not moves:
            return
        speed = SPEED.get(self.app.profile.settings["animation"])
        me = self.conn.seat
        st = self.conn.state
        mine = st.sheets[me] if me is not None and st is not None else None
        steps, self._fold = steps_of(self._fold, moves, me, mine, speed or 0.0)
        # the rest of a reveal skipped while it was still arriving is not replayed either
        steps = [s for s in steps if s.turn > self._skipped_turn]
        if speed is None or not steps:
            return         # instant or no motion: the round lands as it is
        if self.replaying():
            self.replay.extend(steps)
        else:
            self.replay = RoundReplay(steps, self.app.now, ROUND_REVEAL_SECONDS)
            self._show_step()

    def _play_replay(self, dt: float) -> None:
        replay = self.replay
        if replay is None:
            return
        if self.clock_at is not None:   # never past the time the next turn's clock waits
            _, at, _, wait, turn = self.clock_at
            # (a clock of the round revealed, still shown when its records came first, is not it)
            if not isinstance(turn, int) or turn >= max(s.turn for s in replay.steps):
                replay.fit(at, wait)
        if replay.advance(self.app.now, dt):
            self._show_step()
        self.app.dirty = True
        if replay.done:
            self.replay = None

    def _show_step(self) -> None:
        """A step of the replay begins: its dice roll, its box is written (with the sounds)."""
        step, replay = self.replay_step(), self.replay
        if step is None or replay is None:
            return
        now = self.app.now
        # the turn shown changed, not this player's: nothing of its input is reset
        self._seen_turn = (step.state.turn, step.seat)
        if step.kind == "roll":
            seconds = min(self.app.profile.animation_seconds,
                          0.8 * step.seconds / replay.speed(now))
            self.dice_view.start_roll(now, step.held, seconds)
            self.app.play_sound("dice")
        elif step.move["type"] == "write":
            points = step.state.sheets[step.seat].get(step.move["box"])
            self.app.play_sound("write" if points else "scratch")

    def skip_animation(self) -> None:
        """Any key or click ends the replay (and does nothing else: ``enabled``)."""
        super().skip_animation()
        if self.replay is not None and not self.replay.done:
            self._skipped_turn = max(s.turn for s in self.replay.steps)
            self.replay = None
            self._swallow = True
            self.dice_view.rolled_at = None

    def on_exit(self) -> None:
        if self.done:                 # over, or left for good: nothing to rejoin
            self.app.profile.forget_table(self.code)

    def finish(self, msg) -> None:
        if self.done:
            return
        self.done = True
        data = msg.get("log")
        # pass and play: the local table records each person's result in their own records
        local = getattr(self.conn, "local", False)
        playing = self.conn.seat is not None and not local
        if data and playing:      # a watcher's store keeps only its own games
            self.app.profile.record_game(data)
        end = msg.get("end") or {}
        seed = (end.get("reveal") or {}).get("seed")
        header = self.conn.client.header if self.conn.client else {}
        commit = (header or {}).get("dice", {}).get("commit")
        # the players keep the connection (and a host its relay) to play again
        self.app.switch("results", self.state, data, mode="table", my_seat=max(0, self.my_seat),
                        reveal_seed=seed, commitment=commit, conn=self.conn if playing else None,
                        relay=self.relay if playing else None,
                        sealed_date=self.daily_date() if not data else None,
                        again_scene="pass_setup" if local else None,
                        spectator=local or self.conn.seat is None)

    def animating(self):
        """Full frame rate only while something moves (dice, the urgent clock's pulse);
        ``update`` marks the frame dirty when the relay says something or the clock ticks."""
        rem = self.remaining()
        return (super().animating() or self.replaying()
                or (rem is not None and 0 < rem <= URGENT_SECONDS)
                or bool(self.reactions.showing(self.app.now)))

    def draw_table_top(self, surface):
        if self.ncols == 2:
            L = self.layout
            # the felt inlay holds the dice, Roll and "n rolls left" (inset = height // 9)
            r = L.rect((self.cx - 320, 78, 640, 304))
            surface.blit(sprites.wood(r.size, L.px(70)), r)

    def shown_held(self) -> list[bool]:
        """Mine as I toggle them; another seat's as the relay relays them, live (or as
        the reveal's replay shows them)."""
        step = self.replay_step()
        if step is not None:
            return list(step.held)
        if self.my_turn():
            return self.input.held
        st = self.state
        return list(self.conn.held) if st.dice is not None and not st.over else list(NO_HOLD)

    def auto_marks(self) -> set:
        return self._auto

    def draw_clock(self, surface, clock_x: int) -> None:
        """The turn clock at ``clock_x`` (layout units), urgent in its last seconds."""
        L = self.layout
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

    def draw_top_bar(self, surface):
        L = self.layout
        st = self.state
        cx = self.cx
        if st.over:
            return
        name = st.setup.seats[st.active].name
        # at one window passed around, the turn says whose it is, by name
        mine = self.my_turn() and not getattr(self.conn, "local", False)
        text = self.t("table.your_turn") if mine else self.t("table.turn_of", name=name)
        step = self.replay_step()
        if step is not None:
            text = self.t("table.replay_turn", name=st.setup.seats[step.seat].name, turn=step.turn)
        elif self.round_done():
            text = self.t("table.round_waiting")
        left = cx - self.half
        clock_x = cx + self.half - 190
        bar = self.shows_win_bar() and self.win_chances() is not None
        title_box = (left, 14, clock_x - left - 12, 42) if bar else (left, 22, clock_x - left - 12, 44)
        draw_text(surface, text, L.rect(title_box),
                  L.font_px(24), theme.GOLD if self.my_turn() else theme.TEXT_ON_FELT, bold=True)
        if bar:
            self.draw_win_bar(surface, L.rect((left, 58, clock_x - left - 12, 18)))
        self.draw_clock(surface, clock_x)
        if self.conn.status != "connected":
            draw_text(surface, self.t(self.connection_text()),
                      L.rect((left, 66, 2 * self.half, 28)), L.font_px(18), theme.BAD, bold=True)
        else:
            watchers = (self.conn.table or {}).get("watchers") or 0
            if watchers:
                draw_text(surface, self.t("table.watchers", n=watchers),
                          L.rect((clock_x - 200, 70, 390, 24)), L.font_px(15),
                          theme.TEXT_ON_FELT_SOFT, align="right")
            away = self.away_banner()
            if away:
                right = clock_x - 210 if watchers else cx + self.half
                draw_text(surface, away, L.rect((left, 66, right - left, 28)), L.font_px(18),
                          theme.BAD, bold=True)

    def away_banner(self) -> str | None:
        """Who is disconnected while still playing (their turns run on a short clock)."""
        return away_text(self.t, self.seat_status(), [s.name for s in self.state.setup.seats],
                         self.conn.seat, (self.conn.table or {}).get("host"),
                         hosting=self.relay is not None)

    def draw_footer(self, surface):
        L = self.layout
        if self.replaying():
            draw_text(surface, self.t("table.replay_skip"),
                      L.rect((self.cx - self.half, 440, 2 * self.half, 40)),
                      L.font_px(22), theme.TEXT_ON_FELT_SOFT, align="center")
        elif self.round_done():
            names = self.still_playing()
            if names:
                draw_text(surface, self.t("table.round_still_playing", names=", ".join(names)),
                          L.rect((self.cx - self.half, 440, 2 * self.half, 40)),
                          L.font_px(22), theme.TEXT_ON_FELT_SOFT, align="center")
        elif not self.my_turn() and not self.state.over:
            name = self.state.setup.seats[self.state.active].name
            draw_text(surface, self.t("table.waiting_for", name=name),
                      L.rect((self.cx - self.half, 440, 2 * self.half, 40)),
                      L.font_px(22), theme.TEXT_ON_FELT_SOFT, align="center")
        if self.watching():      # no keys to press: the line says what this screen is
            draw_text(surface, self.t("table.watching"),
                      L.rect((self.cx - self.half_wide, 562, 2 * self.half_wide, 30)),
                      L.font_px(18), theme.TEXT_ON_FELT, bold=True, align="center")
            return
        super().draw_footer(surface)

    def visible(self, w) -> bool:
        if w.id == "hints" and self.watching():
            return False       # a watcher has no turn to hint at (the win bar always shows)
        if w.id.startswith("react:"):
            return self.reacts()
        return super().visible(w)

    def reacts(self) -> bool:
        """Quick reactions belong to a seat at a table with other players, over a relay
        (not a watcher, not one window passed around, not a one-seat daily or ranked run,
        not a daily table while it plays: a reaction could tell the others their dice)."""
        return (self.conn.seat is not None and not getattr(self.conn, "local", False)
                and self.state is not None and len(self.state.setup.seats) > 1
                and (self.daily_date() is None or self.state.over))

    BUTTONS_Y, REACTIONS_Y, FINGERPRINT_Y = 604, 656, 686

    def fingerprint_y(self) -> float:
        return self.FINGERPRINT_Y if self.reacts() else 664      # under the reactions' row

    def react(self, i: int) -> None:
        if not self.reactions.may_send(self.app.now):
            self.app.show(self.t("refusal.reacting_too_fast"), "info", 2.0)
            return
        self.conn.send({"type": "react", "emote": REACTIONS[i]})

    def can_mute(self) -> bool:
        """The keys' way to mute: while reactions are on and nothing else is asked."""
        return self.reacts() and self.dialog is None and not self.replaying()

    def next_muteable(self, step: int) -> int:
        """The other seat ``step`` names along from the cursor (0: the first after this
        seat), in table order and round again."""
        n = len(self.state.setup.seats)
        mine = self.conn.seat if self.conn.seat is not None else -1
        others = [(mine + k) % n for k in range(1, n + 1) if (mine + k) % n != mine]
        if self.mute_cursor not in others or step == 0:
            return others[0]
        return others[(others.index(self.mute_cursor) + step) % len(others)]

    def draw_mute_cursor(self, surface) -> None:
        """A ring round the name the cursor is on (the same name a click mutes)."""
        if self.mute_cursor is None:
            return
        L = self.layout
        r = L.rect(self.sheet_view.header_rect(self.mute_cursor, len(self.state.setup.seats)))
        pygame.draw.rect(surface, theme.SELECT, r.inflate(L.px(4), L.px(4)), max(2, L.px(3)),
                         border_radius=L.px(6))

    def footer_text(self) -> str:
        if self.mute_cursor is None:
            return super().footer_text()
        return self.t("table.mute_controls_pad" if self.app.input_kind == "controller"
                      else "table.mute_controls")

    def toggle_mute(self, seat: int) -> None:
        names = self.state.setup.seats
        muted = self.reactions.toggle_mute(seat)
        self.app.show(self.t("table.reactions_muted" if muted else "table.reactions_unmuted",
                             name=names[seat].name), "info", 3.0)

    def targets(self, layout):
        out = super().targets(layout)
        if self.dialog is None and self.state is not None:    # a name: mute or unmute it
            n = len(self.state.setup.seats)
            out += [(layout.rect(self.sheet_view.header_rect(i, n)), A.Action(A.PRESS, f"mute:{i}"))
                    for i in range(n) if i != self.conn.seat]
        return out

    def commitment(self):
        header = self.conn.client.header if self.conn.client else None
        return ((header or {}).get("dice") or {}).get("commit")

    def fingerprint_line(self, commit: bytes) -> str:
        """The fingerprint, and (for a seat) that it is the one the lobby showed when this
        player sat down — the client library refused the game otherwise."""
        line = super().fingerprint_line(commit)
        sat = getattr(self.conn.client, "sat_down_commitment", None)
        return line + " · " + self.t("table.fingerprint_as_sat_down") if sat == commit else line

    # ---------------------------------------------------------- win chances
    def win_chances(self):
        """Each seat's chance to win now; None until the advisor is ready.

        After every move the quick estimate (``core.analysis.win_chances``, about 1 ms)
        shows at once, and the rest of the game is played out 2,500 times in a worker
        thread (``core.winchance``, about 70 ms for the seat that moved; standard error at
        most one point), which replaces it when it is done, if no other move came first."""
        st = self.state
        if st is None or self.loader is None or not self.loader.ready or len(st.setup.seats) < 2:
            return None
        if self.replaying():
            return self._win       # the moments of a replay are not new states of the game
        if st.seq != self._win_key:
            from bonanza.core.analysis import win_chances
            advisor = self.loader.result(0)
            try:
                self._win = win_chances(advisor, st)
            except Exception:      # a bar less, never a broken table
                self._win = None
            self._win_key = st.seq
            self._start_playouts(advisor, st)
        return self._win

    def _start_playouts(self, advisor, st) -> None:
        if self._playout is not None and self._playout.is_alive():
            self._playout_pending = (advisor, st)    # run for the newest state next
            return
        self._playout_pending = None
        cache = self.__dict__.setdefault("_playout_cache", {})

        def work():
            import numpy as np

            from bonanza.core.winchance import win_chances_mc
            try:
                chances = win_chances_mc(advisor, st, np.random.default_rng(st.seq), cache=cache)
            except Exception:
                return
            if self._win_key == st.seq:
                self._win = chances
                self.app.dirty = True
            if len(cache) > 64:       # earlier states of this game are not asked again
                cache.clear()
        self._playout = threading.Thread(target=work, name="win-chances", daemon=True)
        self._playout.start()

    def shows_win_bar(self) -> bool:
        """Players hide it with the hints (H); a watcher, or a player who left, always sees it."""
        st = self.state
        if st is None or st.over or self.conn.status != "connected":
            return False
        return self.conn.seat is None or self.i_gave_up() or self.hints_on()

    def hints_allowed(self) -> bool:
        """A relay daily (alone or at a table) is played without the advisor: its board
        compares unaided games.  The replay and the analysis show it once the day closes."""
        st = self.state
        return self.daily_date() is None or st is None or st.over or self.conn.seat is None

    def draw_win_bar(self, surface, rect) -> None:
        """One segment per seat in its colour, as wide as its chance, named where it fits."""
        L = self.layout
        chances = self.win_chances()
        px = L.font_px(15)
        label = self.t("table.win_chance")
        lw = fonts.text_width(label, px) + L.px(10)
        if rect.w - lw >= L.px(56) * len(chances):
            draw_text(surface, label, pygame.Rect(rect.x, rect.y, lw, rect.h), px, theme.TEXT_ON_FELT_SOFT)
            rect = pygame.Rect(rect.x + lw, rect.y, rect.w - lw, rect.h)
        pygame.draw.rect(surface, theme.FELT_DARK, rect, border_radius=L.px(4))
        x = float(rect.x)
        names = [s.name for s in self.state.setup.seats]
        for i, p in enumerate(chances):
            w = rect.w * p
            seg = pygame.Rect(round(x), rect.y, round(x + w) - round(x), rect.h)
            x += w
            if seg.w <= 0:
                continue
            pygame.draw.rect(surface, theme.SEAT_COLORS[i % len(theme.SEAT_COLORS)], seg)
            pct = round(p * 100)
            for text in (self.t("table.win_percent", name=names[i], percent=pct),
                         self.t("table.win_percent", name="", percent=pct).strip()):
                if fonts.text_width(text, px, True) <= seg.w - L.px(6):
                    draw_text(surface, text, seg, px, theme.INK, bold=True, align="center")
                    break
        pygame.draw.rect(surface, theme.INK, rect, 1, border_radius=L.px(4))
        # each seat's colour under its name on the sheet: which segment is whose
        for i in range(len(chances)):
            x, y, w, h = self.sheet_view.header_rect(i, len(chances))
            pygame.draw.rect(surface, theme.SEAT_COLORS[i % len(theme.SEAT_COLORS)],
                             L.rect((x + 10, y + h - 1, w - 20, 4)))


# ---------------------------------------------------------------- one seat
class DailyRelayGameScene(TableScene):
    """The day's attempt on a relay (``daily_relay``): one seat; the relay deals the dice."""

    give_up_key = "game.give_up"
    give_up_question = "game.give_up_confirm"

    def __init__(self, app, conn, host: str, port: int, date: str, name: str):
        self.host, self.port, self.date, self.name = host, port, date, name
        super().__init__(app, conn)

    def seat_labels(self):
        return [s.name for s in self.state.setup.seats]

    def finish(self, msg) -> None:
        if self.done:
            return
        self.done = True
        self.app.switch("daily_relay", self.host, self.port, conn=self.conn, result=msg, name=self.name)

    def draw_top_bar(self, surface):
        GameScene.draw_top_bar(self, surface)
        L = self.layout
        clock_x = self.cx + self.half - 190
        # the date under the turn count, the clock on the right (as at every table)
        left = self.cx - self.half
        draw_text(surface, self.t("daily.date", date=format_date(self.date)),
                  L.rect((left, 62, clock_x - left - 12, 28)), L.font_px(18), theme.GOLD, bold=True)
        if not self.state.over:
            self.draw_clock(surface, clock_x)
        if self.conn.status != "connected":
            draw_text(surface, self.t(self.connection_text()),
                      L.rect((self.cx - self.half, 92, 2 * self.half, 28)), L.font_px(18), theme.BAD, bold=True)


class RankedGameScene(TableScene):
    """A ranked run (``ranked``): one seat; the relay deals and times it."""

    give_up_key = "game.give_up"
    give_up_question = "game.give_up_confirm"
    no_hints_key = None     # a run declared without hints offers no advisor at all

    def __init__(self, app, conn, host: str, port: int):
        self.host, self.port = host, port
        super().__init__(app, conn)

    def seat_labels(self):
        return [s.name for s in self.state.setup.seats]

    def hints_allowed(self) -> bool:
        """Only a run whose header (the relay's, signed) says hints were declared: a run
        on the no-hints board never shows the advisor, whatever the setting."""
        header = self.conn.client.header if self.conn.client else None
        return ((header or {}).get("settings") or {}).get("hints") is True

    # ---------------------------------------------------------- splits (the relay's stamps)
    def has_splits(self) -> bool:
        return True

    def splits(self) -> list[int]:
        """Each finished turn's time from the relay's stamps (``at``), as its log will say."""
        from types import SimpleNamespace

        from bonanza.core.splits import splits
        return splits(SimpleNamespace(records=list(self.conn.records))) or []

    @property
    def comparison(self):
        """The fastest earlier ranked run of these rules and this hints declaration that
        this window recorded (the relay's boards keep the rest), once the header is here."""
        found = self.__dict__.get("_comparison")
        if found is not None:
            return found
        from ..store.runs import NO_COMPARISON, category_runs, comparison
        header = self.conn.client.header if self.conn.client else None
        store = self.app.profile.store
        if not header or store is None:
            return NO_COMPARISON
        hints = ((header.get("settings") or {}).get("hints")) is True
        try:
            runs = category_runs(store, self.state.ruleset.name, "relay", modes=("ranked",))
            # a run that declared its animation compares with runs of the same (issue 25)
            animation = (header.get("meta") or {}).get("animation")
            found = comparison(runs, hints, animation if animation in ("instant", "animated") else "any",
                               len(self.state.ruleset.sheet))
        except Exception:       # an unreadable store compares with nothing
            found = NO_COMPARISON
        self.__dict__["_comparison"] = found
        return found

    def finish(self, msg) -> None:
        if self.done:
            return
        self.done = True
        if msg.get("log"):
            self.app.profile.record_game(msg["log"])     # verified, on the server's board
        self.app.switch("ranked", result=msg, conn=self.conn, host=self.host, port=self.port)


def away_text(t, statuses: list, names: list, me: int | None, host: int | None,
              hosting: bool) -> str | None:
    """The banner over a table where someone else is disconnected while still playing;
    the host's seat gone (its window closed) while its relay plays on is said as such."""
    away = [i for i, s in enumerate(statuses) if s == "disconnected" and i != me]
    if not away:
        return None
    if host in away and not hosting:
        return t("table.host_left")
    if len(away) == 1:
        return t("table.player_disconnected", name=names[away[0]])
    return t("table.players_disconnected", names=", ".join(names[i] for i in away))
