"""A table played at one window (pass and play): the relay's part, in-process.

``LocalTable`` answers the table scene as a relay connection does (``state``, ``seat``,
``poll``, ``send``, ``clock``, ``records``, ``held``), so the network table's screen, sheet,
win bar and analysis play it unchanged; only here the moves go straight to a
``core.match.Match`` this window holds.  The seat that may act is the active one when a
person sits there; bots play their turns at a pace a person can follow; the turn clock
(when the host chose one) makes the same automatic moves a relay makes: a roll if none was
made, then the advisor's box, marked ``auto``.  Between two people's turns the table waits
for ``begin_turn`` (the "Pass to …" screen), so nobody plays another's turn by accident and
the clock does not run while the window changes hands.  After every move ``on_move`` is
told (the save); at the end the log closes and ``on_end`` records it.  No pygame here."""
from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from bonanza.core.bots import choose
from bonanza.core.match import Match, kept_by_default
from bonanza.core.records import MoveRecord

BOT_PACE = 0.7     # seconds between a bot's decisions: slow enough to follow


class LocalTable:
    local = True           # the table scene's results go through ``on_end``, not a relay's
    restarting = False
    restarted = False

    def __init__(self, match: Match, now: Callable[[], float], turn_seconds: int | None = None,
                 pass_screen: bool = True, bot_pace: float = BOT_PACE,
                 advisor: Callable[[], Any] | None = None) -> None:
        self.match = match
        self.now = now
        self.turn_seconds = turn_seconds
        self.pass_screen = pass_screen
        self.bot_pace = bot_pace
        self.advisor = advisor          # the advisor once it is ready, else None
        self.records: list[MoveRecord] = list(match.log.records)
        self.client = SimpleNamespace(header=match.log.header, sat_down_commitment=None)
        self.table: dict[str, Any] = {"code": None, "players": [], "watchers": 0}
        self.status = "connected"
        self.clock: dict[str, Any] | None = None
        seats = match.setup.seats
        self.humans = [i for i, s in enumerate(seats) if not s.is_bot]
        self.seat: int | None = self.humans[0] if self.humans else None
        self.waiting: str | None = None          # the name the window is being passed to
        self.on_pass: Callable[[str], None] | None = None
        self.on_move: Callable[[LocalTable], None] | None = None
        self.on_end: Callable[[LocalTable, bytes], None] | None = None
        self._out: list[dict[str, Any]] = []
        self._turn_key: tuple[int, int] | None = None
        self._bot_at: float | None = None
        self._deadline: float | None = None
        self._ended = False
        self._turn_count = 0          # people's turns begun at this window
        self.recorded: dict[str, Any] = {}       # name -> GameRecord, once the end is recorded

    # -------------------------------------------------------------- what the scene reads
    @property
    def state(self):
        return self.match.state

    @property
    def held(self) -> list[bool]:
        return list(self.match.held)

    def close(self) -> None:
        """Nothing to close: the save stays for "Continue" until the game ends."""

    # -------------------------------------------------------------- moves from the window
    def send(self, msg: dict[str, Any]) -> None:
        st = self.match.state
        seat = self.seat
        kind = msg.get("type")
        if kind == "leave" or seat is None or st.over:
            return
        if kind == "give_up":
            rec, refusal = self.match.give_up(seat)
        elif self.waiting is not None or st.active != seat:
            return                    # not this seat's turn yet (the pass screen is up)
        elif kind == "hold":
            refusal = self.match.hold(seat, [bool(h) for h in msg.get("held", ())])
            rec = None
        elif kind == "roll":
            rec, refusal = self.match.roll([bool(h) for h in msg.get("hold", ())], seat=seat)
        elif kind == "write":
            rec, refusal = self.match.write(str(msg.get("box")), seat=seat)
        else:
            return
        if refusal is not None:
            self._out.append({"type": "error", "code": refusal.code, "message": refusal.message})
        elif rec is not None:
            self._moved(rec)

    def _moved(self, rec: MoveRecord) -> None:
        self.records.append(rec)
        self._out.append({"type": "move", "record": rec})
        if self.on_move is not None:
            self.on_move(self)
        if self.match.state.over and not self._ended:
            self._ended = True
            self.clock = None
            end = self.match.finish()
            data = self.match.log.to_bytes()
            if self.on_end is not None:
                self.on_end(self, data)
            self._out.append({"type": "end", "log": data, "end": end})

    # -------------------------------------------------------------- the table's own part
    def begin_turn(self) -> None:
        """The person whose turn it is has the window: their turn (and its clock) starts."""
        self.waiting = None
        st = self.match.state
        if self.turn_seconds and not st.over and st.active is not None:
            self._deadline = self.now() + self.turn_seconds
            self.clock = {"remaining": float(self.turn_seconds), "seat": st.active}
            self._out.append({"type": "clock"})

    def poll(self) -> list[dict[str, Any]]:
        out, self._out = self._out, []
        if out:
            # the scene reads these against the seat that made them: the turn moves on
            # (and ``seat`` with it) at the next poll
            return out
        st = self.match.state
        if not st.over and st.active is not None:
            key = (st.turn, st.active)
            if key != self._turn_key:
                self._turn_key = key
                self._new_turn(st.active)
            elif st.setup.seats[st.active].is_bot:
                if self._bot_at is not None and self.now() >= self._bot_at:
                    self._bot_step(st.active)
            elif self._deadline is not None and self.waiting is None and self.now() >= self._deadline:
                self._auto_move(st.active)
        out, self._out = self._out, []
        return out

    def _new_turn(self, seat: int) -> None:
        self._deadline = None
        self.clock = None
        if self.match.setup.seats[seat].is_bot:
            self._bot_at = self.now() + self.bot_pace
            self._out.append({"type": "clock"})
            return
        self._bot_at = None
        # the first turn at this window (a new game, or one continued) asks too
        passed = seat != self.seat or self._turn_count == 0
        self._turn_count += 1
        self.seat = seat
        if self.pass_screen and passed and len(self.humans) > 1 and self.on_pass is not None:
            self.waiting = self.match.setup.seats[seat].name
            self.on_pass(self.waiting)
        else:
            self.begin_turn()

    def _bot_step(self, seat: int) -> None:
        st = self.match.state
        bot = st.setup.seats[seat]
        choice = choose(bot.policy or "casual", st.ruleset, st.sheets[seat], st.dice, st.rolls_left)
        if choice[0] == "hold":
            rec, refusal = self.match.roll(kept_by_default(st, seat, choice[1]), seat=seat)
        else:
            rec, refusal = self.match.write(choice[1], seat=seat)
        if rec is None:       # a bot never plays an illegal move; if one did, it writes now
            raise RuntimeError(f"bot {bot.policy} played an illegal move: {refusal}")
        self._bot_at = self.now() + self.bot_pace
        self._moved(rec)

    def _auto_move(self, seat: int) -> None:
        """Time ran out: a roll if none was made, then the advisor's box (the relay's rule)."""
        self._deadline = None
        st = self.match.state
        if st.dice is None:
            rec, _ = self.match.roll(auto=True, seat=seat)
            if rec is None:
                return
            self._moved(rec)
            st = self.match.state
        advisor = self.advisor() if self.advisor is not None else None
        if advisor is not None:
            box = advisor.advise(st.sheets[seat], st.dice, st.rolls_left).boxes[0].box
        else:      # the advisor is still being built: the plain bot's box
            box = choose("casual", st.ruleset, st.sheets[seat], st.dice, 0)[1]
        rec, _ = self.match.write(box, auto=True, seat=seat)
        if rec is not None:
            self._moved(rec)
