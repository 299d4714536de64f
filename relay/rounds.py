"""A daily table's rounds on the relay: every seat plays its turn k at once, in private.

``core.rounds.RoundPlay`` holds the round's moves; this adds what the relay adds around
them: a clock per seat, the bots' and the clock's moves, and who is told what.  A seat
is sent only its own moves of the round (``own_move``, its dice included); everyone is
told which seats are still playing (``round``, no die in it); when the last seat has
written, the round's records go into the log in table order and are sent to everyone,
as ordinary ``move`` frames (docs/protocol.md, "Daily rounds").

A round's moves live in memory until the round is over: after a restart, the seats
play the round's turn again, and the day's dice make it the same turn (same dice for
the same own turn, roll and hold), so nothing is won by a restart.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Sequence

from bonanza.core.game import Refusal
from bonanza.core.match import NO_HOLD, kept_by_default
from bonanza.core.records import GiveUpReason, Intent
from bonanza.core.rounds import Played, RoundPlay, signed_point
from bonanza.core.settings import ROUND_REVEAL_SECONDS

from .services import Timer

if TYPE_CHECKING:  # pragma: no cover
    from .connection import Conn

log = logging.getLogger("bonanza.relay")
CLOCK_EPS = 1e-3


class TableRounds:
    """``table``: the relay's ``tables.Table`` (not imported: tables imports this module);
    ``away_limit``: automatic turns while away before the seat gives up."""

    def __init__(self, table: Any, away_limit: int) -> None:
        self.table = table
        self.away_limit = away_limit
        self.play = RoundPlay(table.started_match)
        self.number: int | None = None        # the round being played (own turn k)
        self.deadlines: dict[int, float] = {}  # each human seat's end of turn
        self.starts: dict[int, float] = {}     # when each human seat's clock starts to run
        self.timer: Timer | None = None
        self.timer_at: float | None = None

    # ------------------------------------------------------------ a round begins
    def start(self, revealed: bool = False) -> None:
        """The next round begins (after the reveal, or at the start, or after a restart):
        a clock for each human seat, the bots play, everyone is told who plays.

        ``revealed``: a round was just revealed, and every window replays it before its
        player's next turn; each seat's clock waits ``ROUND_REVEAL_SECONDS`` first, the
        same for every seat, so the replay costs nobody any of their own turn."""
        st = self.play.match.state
        if st.over or self.table.finished:
            return
        number = max(st.sheets[s].filled_count for s in st.playing())
        if number == self.number:
            return
        self.number = number
        self.stop_timer()
        now = self.table.services.clock.now()
        begins = now + (ROUND_REVEAL_SECONDS if revealed else 0)
        self.deadlines, self.starts = {}, {}
        for s in self.play.waiting_for():
            slot = self.table.slots[s]
            if slot.kind == "human" and self.table.turn_seconds:
                self.starts[s] = begins
                self.deadlines[s] = begins + self.table.seconds_for(slot)
        self._arm()
        self._tell_round()
        for s in self.play.waiting_for():
            if self.table.slots[s].kind == "bot":
                self.table.services.spawn(self._bot_turn(number, s))

    def clock(self, seat: int | None) -> dict | None:
        """A seat's clock of this round (nil for a bot, a finished seat or a watcher):
        ``remaining`` is the time to play once it runs, ``starts_in`` how long it still
        waits for the reveal's replay (docs/protocol.md, Clock)."""
        at = self.deadlines.get(seat) if seat is not None else None
        if seat is None or at is None or self.number is None or self.play.done(seat):
            return None
        now = self.table.services.clock.now()
        begins = max(now, self.starts.get(seat, now))
        return {"seat": seat, "turn": self.number, "turn_seconds": self.table.turn_seconds,
                "remaining": round(max(0.0, at - begins), 3),
                "starts_in": round(begins - now, 3)}

    def _tell_round(self) -> None:
        """Who still plays this round: no die, only seats (sent whenever it changes)."""
        waiting = self.play.waiting_for()
        for s in self.table.slots:
            if s.conn is not None:
                s.conn.send({"type": "round", "round": self.number, "waiting": waiting,
                             "seat": s.index, "clock": self.clock(s.index)})

    def seat_state(self, seat: int) -> dict:
        """What a seat resuming is shown of the round: its own moves and what it holds."""
        return {"round": self.number, "moves": self.play.moves(seat),
                "held": self.play.held(seat), "waiting": self.play.waiting_for(),
                "clock": self.clock(seat)}

    # ------------------------------------------------------------ moves, in private
    def point(self, seat: int) -> tuple[int, int]:
        return signed_point(self.play.view(seat), seat)

    def roll_hold(self, seat: int) -> list[bool]:
        return kept_by_default(self.play.view(seat), seat, self.play.held(seat))

    def roll(self, seat: int, hold: Sequence[bool] | None, auto: bool,
             sender: "Conn | None", rid: Any, intent: Intent | None) -> Refusal | None:
        return self._after(seat, self.play.roll(seat, hold, auto, intent), auto, sender, rid)

    def write(self, seat: int, box: Any, auto: bool, sender: "Conn | None", rid: Any,
              intent: Intent | None) -> Refusal | None:
        return self._after(seat, self.play.write(seat, box, auto, intent), auto, sender, rid)

    def give_up(self, seat: int, why: GiveUpReason, sender: "Conn | None", rid: Any,
                intent: Intent | None) -> Refusal | None:
        return self._after(seat, self.play.give_up(seat, why, intent), True, sender, rid)

    def hold(self, seat: int, mask: Any, sender: "Conn | None", rid: Any) -> Refusal | None:
        refusal = self.play.hold(seat, mask)
        if refusal is None:
            self._send_own(seat, {"type": "hold", "seat": seat,
                                  "seq": self.play.match.state.seq, "held": list(mask)},
                           sender, rid)
        return refusal

    def _send_own(self, seat: int, msg: dict, sender: "Conn | None", rid: Any) -> None:
        conn = self.table.slots[seat].conn
        if conn is not None:
            conn.send(dict(msg, rid=rid) if conn is sender and rid is not None else msg)
        elif sender is not None and rid is not None:
            sender.send(dict(msg, rid=rid))

    def _after(self, seat: int, played: Played, auto: bool, sender: "Conn | None",
               rid: Any) -> Refusal | None:
        move, refusal = played
        if move is None:
            return refusal
        if not auto:
            self.table.slots[seat].autos = 0
        done = self.play.done(seat)
        self._send_own(seat, {"type": "own_move", "round": self.number, "move": move,
                              "held": self.play.held(seat),
                              "clock": None if done else self.clock(seat)}, sender, rid)
        if done:
            self.deadlines.pop(seat, None)
            self.starts.pop(seat, None)
            if self.play.complete:
                self._reveal()
            else:
                self._tell_round()
        return None

    # ------------------------------------------------------------ the reveal
    def _reveal(self) -> None:
        """Every seat has played: the round's records go into the log in table order and
        to everyone at once; then the next round (or the end)."""
        table, match = self.table, self.play.match
        self.stop_timer()
        records = self.play.commit()
        encoded = match.log.encoded[len(match.log.encoded) - len(records):]
        for data in encoded:
            if table.journal is not None:
                table.journal.moved(data)
            table.broadcast_move(data, None)
        if match.state.over:
            table.finish()
        else:
            self.start(revealed=True)

    # ------------------------------------------------------------ clocks, bots
    def stop_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer = self.timer_at = None

    def _arm(self) -> None:
        if not self.deadlines:
            return
        at = min(self.deadlines.values())
        clock = self.table.services.clock
        self.stop_timer()
        self.timer_at = at
        self.timer = clock.call_later(max(0.0, at - clock.now()), self._tick)

    def _tick(self) -> None:
        self.timer = self.timer_at = None
        if self.table.finished:
            return
        now = self.table.services.clock.now()
        for seat, at in list(self.deadlines.items()):
            if now >= at - CLOCK_EPS:
                del self.deadlines[seat]
                self.starts.pop(seat, None)
                self.table.services.spawn(self._auto_turn(self.number, seat))
        self._arm()

    async def _auto_turn(self, number: int | None, seat: int) -> None:
        """The seat's clock ran out: roll if nothing was rolled, then the advisor's box;
        a seat away for AWAY_LIMIT turns gives up, as around the table."""
        auto = self.table.services.auto
        await auto.ready()
        if self.table.finished or number != self.number or self.play.done(seat):
            return
        v = self.play.view(seat)
        if v.dice is None and self.roll(seat, NO_HOLD, True, None, None, None) is not None:
            return
        v = self.play.view(seat)
        if v.dice is None:
            return
        slot = self.table.slots[seat]
        away = slot.conn is None
        box = auto.advisor_box(self.table.ruleset, v.sheets[seat], v.dice, v.rolls_left)
        if away:
            slot.autos += 1
        if self.write(seat, box, True, None, None, None) is not None:
            log.error("the advisor's box %s was refused", box)
            return
        st = self.play.view(seat)
        if away and slot.autos >= self.away_limit and not st.over and not st.has_given_up(seat) \
                and not self.table.finished:
            self.give_up(seat, "away", None, None, None)

    async def _bot_turn(self, number: int, seat: int) -> None:
        """A bot plays its turn of the round at once: nobody sees it until the reveal."""
        services = self.table.services
        await services.auto.ready()
        slot = self.table.slots[seat]
        while not self.table.finished and number == self.number and not self.play.done(seat):
            v = self.play.view(seat)
            action, arg = services.auto.bot_action(slot.policy, self.table.ruleset,
                                                   v.sheets[seat], v.dice, v.rolls_left)
            if action == "write":
                refusal = self.write(seat, arg, False, None, None, None)
            else:
                hold = kept_by_default(v, seat, [bool(h) for h in arg])
                refusal = self.roll(seat, hold, False, None, None, None)
            if refusal is not None:
                log.error("bot move refused (%s); writing the advisor's box", refusal.message)
                v = self.play.view(seat)
                if v.dice is None:
                    self.roll(seat, NO_HOLD, True, None, None, None)
                    v = self.play.view(seat)
                if v.dice is not None:
                    box = services.auto.advisor_box(self.table.ruleset, v.sheets[seat],
                                                    v.dice, v.rolls_left)
                    self.write(seat, box, True, None, None, None)
                return
