"""Tables: seats, the game's ``Match``, the turn clock, automatic moves and bots.

A table makes moves only through its ``core.match.Match`` (``roll``, ``hold``,
``write``, ``give_up``): the match checks them with core's questions, deals the
dice from its key and appends the record to its log.  The table adds what a
relay adds around a move: who may ask (seats and connections), the clock, the
broadcast of the record's bytes exactly as logged, and the end of the game.
"""
from __future__ import annotations

import logging
import math
import secrets
import sqlite3
from functools import partial
from typing import TYPE_CHECKING, Any, Sequence

from bonanza.core import dice as dice_mod
from bonanza.core.game import GameState, Refusal, standings
from bonanza.core.log import pack as _pack
from bonanza.core.match import GAME_OVER, NO_HOLD, Match, kept_by_default
from bonanza.core.names import name_key
from bonanza.core.records import GiveUpReason, Intent, MoveRecord, SeatKind
from bonanza.core.settings import DEFAULT_BOT_POLICY
from bonanza.core.splits import tool_assisted
from bonanza.core.wire import LENGTH, encode_frame

from .connection import send_to
from .rounds import TableRounds
from .services import GameJournal, TableServices, Timer

if TYPE_CHECKING:  # pragma: no cover
    from .connection import Conn

log = logging.getLogger("bonanza.relay")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
BOT_NAMES = ("Ada", "Bram", "Chloé", "Duarte", "Elif", "Femke")
AWAY_LIMIT = 3                 # automatic turns while disconnected before the seat gives up
AWAY_SECONDS = 10              # a disconnected seat's turn once the clock played for it once
FINISHED_KEEP = 600.0          # seconds a finished table stays for late resumes
CLOCK_EPS = 1e-3               # seconds: timers may fire this early
ANNOUNCE_EVERY = 5             # a "clock" message every 5 s of a human's turn,
ANNOUNCE_LAST = 10             # and every second in its last 10 s


class Slot:
    """A seat: a human (with a resume token and maybe a connection) or a bot."""

    def __init__(self, table: "Table", name: str, kind: SeatKind = "human",
                 contribution: bytes | None = None, policy: str | None = None,
                 key: bytes | None = None, contribution_commit: bytes | None = None):
        self.table = table
        self.contribution_commit = contribution_commit   # until the seat reveals it
        self.key = key            # the seat's public key: it signs every intent
        self.name = name
        self.kind: SeatKind = kind
        self.contribution = contribution
        self.policy = policy
        self.token = secrets.token_hex(16) if kind == "human" else None
        self.conn: Conn | None = None
        self.autos = 0            # automatic turns in a row while disconnected
        self.index = 0
        self.last_seen = table.services.clock.now()
        self.restored = False     # resumed from a journal; its next resume says so


# ---------------------------------------------------------------- move frames
_MOVE_HEAD = b"\x83" + _pack("type") + _pack("move") + _pack("record")
_MOVE_HEAD_RID = b"\x84" + _MOVE_HEAD[1:]
_CLOCK_KEY = _pack("clock")
_RID_KEY = _pack("rid")


def move_frame(encoded_record: bytes, clock: dict | None, rid: Any = None) -> bytes:
    """The frame of ``{"type": "move", "record": ..., "clock": ...[, "rid": ...]}`` around
    a record's logged bytes, so every client receives the bytes the log hashes."""
    parts = [_MOVE_HEAD if rid is None else _MOVE_HEAD_RID, encoded_record,
             _CLOCK_KEY, _pack(clock)]
    if rid is not None:
        parts += [_RID_KEY, _pack(rid)]
    body = b"".join(parts)
    return LENGTH.pack(len(body)) + body


# ---------------------------------------------------------------- a table
class Table:
    def __init__(self, services: TableServices[Table], code: str, mode: str, ruleset: str,
                 nseats: int, turn_seconds: int | None, seed: bytes):
        self.services = services
        self.code = code
        self.mode = mode
        self.ruleset = ruleset
        self.nseats = nseats
        self.turn_seconds = turn_seconds
        self.seed = seed
        self.commitment = dice_mod.commitment(seed)
        self.slots: list[Slot] = []
        self.host: Slot | None = None
        self.match: Match | None = None
        self.turn_id: tuple[int, int] | None = None   # (turn, active seat) the clock is set for
        self.timer: Timer | None = None        # the table's one clock timer (_arm)
        self.timer_at: float | None = None     # when it fires
        self.deadline: float | None = None     # the end of the active human seat's turn
        self.announce_at: float | None = None  # the next "clock" announcement
        self.bot_turn: tuple[int, int] | None = None   # the turn a bot task was started for
        self.finished = False
        self.end_msg: dict | None = None
        self.daily_date: str | None = None
        self.started_at: float | None = None   # a daily attempt's or ranked run's start
        self.ranked_id: int | None = None
        self.bots: str | list[str] = DEFAULT_BOT_POLICY   # as the host set it
        self.watchers_conns: set[Conn] = set()   # connections watching, seated nowhere
        self.rematch_code: str | None = None   # the table its players play again at
        self.rematch_offers = 0                # rematch tables announced (limits.rematch_offers)
        self.revealing: tuple[Conn, Any] | None = None   # (host's conn, rid) while seats reveal
        self.reveal_timer: Timer | None = None
        self.finished_at: float | None = None
        self.journal: GameJournal | None = None   # the running game on disk (journal.py)
        self.restored = False                  # resumed from its journal after a restart
        self.ended_by: str | None = None       # why the relay itself ended the game
        self.unrecorded = False                # its result was refused by the disk once
        self.rounds: TableRounds | None = None  # a daily table's rounds (relay/rounds.py)
        self.starting = False                  # started, its journal not yet on disk (begin)

    # ------------------------------------------------------------ seats
    def bot_policy(self, k: int) -> str:
        """The policy of the k-th bot seated at the start (0-based, in seat order)."""
        if isinstance(self.bots, str):
            return self.bots
        return self.bots[k] if k < len(self.bots) else DEFAULT_BOT_POLICY

    @property
    def started_match(self) -> Match:
        """The match of a started table (the game's moves need one)."""
        if self.match is None:
            raise RuntimeError(f"table {self.code} has not started")
        return self.match

    @property
    def started(self) -> bool:
        return self.match is not None

    @property
    def running(self) -> bool:
        return self.match is not None and not self.finished

    @property
    def held(self) -> list[bool]:
        return list(self.match.held) if self.match is not None else list(NO_HOLD)

    def reindex(self) -> None:
        for i, s in enumerate(self.slots):
            s.index = i

    def name_taken(self, name: str, exclude: Slot | None = None) -> bool:
        key = name_key(name)      # one person, one name: look-alikes are taken too
        return any(s is not exclude and name_key(s.name) == key for s in self.slots)

    def watchers(self) -> bool:
        return any(s.conn is not None for s in self.slots)

    def fill_with_bots(self) -> None:
        taken = {name_key(s.name) for s in self.slots}
        names = (f"Bot {n}" for n in BOT_NAMES if name_key(f"Bot {n}") not in taken)
        k = 0
        while len(self.slots) < self.nseats:
            self.slots.append(Slot(self, next(names), "bot", None, self.bot_policy(k)))
            k += 1
        self.reindex()

    def info(self) -> dict:
        st = self.match.state if self.match else None
        return {
            "code": self.code, "mode": self.mode, "ruleset": self.ruleset, "seats": self.nseats,
            "daily": self.daily_date,
            "turn_seconds": self.turn_seconds, "bots": self.bots,
            "host": self.host.index if self.host is not None else None,
            "started": self.started, "finished": self.finished, "commitment": self.commitment,
            "players": [self._player(s, st) for s in self.slots],
            "watchers": len(self.watchers_conns),
        }

    @staticmethod
    def _player(s: Slot, st: GameState | None) -> dict:
        p = {"seat": s.index, "name": s.name, "kind": s.kind,
             "connected": s.kind == "bot" or s.conn is not None,
             "playing": st is None or not st.has_given_up(s.index)}
        if s.kind == "bot":
            p["policy"] = s.policy
        return p

    # ------------------------------------------------------------ sending
    def _receivers(self) -> list[Conn]:
        """Every connection that sees this table: the seats', then the watchers'."""
        conns = [s.conn for s in self.slots if s.conn is not None]
        if self.watchers_conns:
            conns.extend(self.watchers_conns)
        return conns

    def send_each(self, msg: dict, sender: "Conn | None" = None, rid: Any = None) -> None:
        """Send ``msg`` to every connected seat with its own ``seat`` index added (nil
        for watchers)."""
        for s in self.slots:
            conn = s.conn
            if conn is not None:
                m = dict(msg, seat=s.index)
                if conn is sender and rid is not None:
                    m["rid"] = rid
                conn.send(m)
        for c in self.watchers_conns:
            c.send(dict(msg, seat=None))

    def broadcast_move(self, encoded_record: bytes, clock: dict | None,
                       sender: "Conn | None" = None, rid: Any = None) -> None:
        conns = self._receivers()
        if rid is not None and sender in conns:   # the sender's answer carries its rid
            conns.remove(sender)
            sender.send_frame(move_frame(encoded_record, clock, rid))
        send_to(conns, move_frame(encoded_record, clock))

    def broadcast(self, msg: dict, sender: "Conn | None" = None, rid: Any = None) -> None:
        conns = self._receivers()
        if rid is not None and sender in conns:
            conns.remove(sender)
            sender.send(dict(msg, rid=rid))
        send_to(conns, encode_frame(msg))

    # ------------------------------------------------------------ the game
    def begin(self, match: Match, sender: "Conn | None" = None, rid: Any = None) -> None:
        """The game starts; the seats hear of it (``started``) once its journal is on disk,
        so a game a player was told of survives a power cut (a daily attempt or a ranked
        run counts from here).  Until then no move is taken (``starting``)."""
        self.match = match
        self._rounds()
        self.journal = self.services.journals.opened(self)

        def go() -> None:
            self.starting = False
            if self.finished:
                return
            self._new_turn()
            self.send_each({"type": "started", "table": self.info(), "header": match.log.header,
                            "clock": self.clock_info()}, sender, rid)
            self._after()
        if self.journal is None:
            go()
        else:
            self.starting = True
            self.journal.when_durable(go)

    # ``intent``: the seat's signed request the move is made from (it goes into the record).
    def roll(self, seat: int, hold: Sequence[bool] | None = None, auto: bool = False,
             sender: "Conn | None" = None, rid: Any = None,
             intent: Intent | None = None) -> Refusal | None:
        """``seat`` rolls keeping ``hold`` (None: what it announced it holds)."""
        if self.finished:
            return GAME_OVER
        if self.rounds is not None:
            return self.rounds.roll(seat, hold, auto, sender, rid, intent)
        rec, refusal = self.started_match.roll(hold, auto, seat=seat, intent=intent)
        if rec is not None:
            self._moved(rec, sender, rid)
        return refusal

    def write(self, seat: int, box: Any, auto: bool = False,
              sender: "Conn | None" = None, rid: Any = None,
              intent: Intent | None = None) -> Refusal | None:
        if self.finished:
            return GAME_OVER
        if self.rounds is not None:
            return self.rounds.write(seat, box, auto, sender, rid, intent)
        rec, refusal = self.started_match.write(box, auto, seat=seat, intent=intent)
        if rec is not None:
            self._moved(rec, sender, rid)
        return refusal

    def give_up(self, seat: int, why: GiveUpReason, sender: "Conn | None" = None,
                rid: Any = None, intent: Intent | None = None) -> Refusal | None:
        if self.finished:
            return GAME_OVER
        if self.rounds is not None:
            return self.rounds.give_up(seat, why, sender, rid, intent)
        rec, refusal = self.started_match.give_up(seat, why, intent)
        if rec is not None:
            self._moved(rec, sender, rid)
        return refusal

    def hold(self, seat: int, mask: Any, sender: "Conn | None" = None,
             rid: Any = None) -> Refusal | None:
        """``seat`` announces the dice it holds; everyone sees them at once."""
        if self.finished:
            return GAME_OVER
        if self.rounds is not None:      # a round's holds are the seat's own business
            return self.rounds.hold(seat, mask, sender, rid)
        match = self.started_match
        refusal = match.hold(seat, mask)
        if refusal is None:
            self.broadcast({"type": "hold", "seat": seat, "seq": match.state.seq,
                            "held": list(mask)}, sender, rid)
        return refusal

    def _moved(self, rec: MoveRecord, sender: "Conn | None", rid: Any) -> None:
        """After the match made a move: the clock, the broadcast, the next turn."""
        match = self.started_match
        move = rec["move"]
        if move["type"] in ("roll", "write") and not move.get("auto"):
            self.slots[move["seat"]].autos = 0
        self._new_turn()
        # The record is complete once its batch is signed (before this pass of the event
        # loop sends anything): then it is journaled, and sent as logged.
        match.log.when_sealed(len(match.log) - 1,
                              partial(self._send_move, self.clock_info(), sender, rid))
        if match.state.active is None:     # over
            self.finish()
        else:
            self._after()

    def _send_move(self, clock: dict | None, sender: "Conn | None", rid: Any,
                   data: bytes) -> None:
        if self.journal is not None:     # on disk (handed to the system) before anyone sees it
            self.journal.moved(data)
        self.broadcast_move(data, clock, sender, rid)

    # ------------------------------------------------------------ the turn clock
    def clock_info(self) -> dict | None:
        deadline, match = self.deadline, self.match
        if deadline is None or match is None:
            return None
        st = match.state
        if st.active is None:              # over
            return None
        remaining = deadline - self.services.clock.now()
        return {"seat": st.active, "turn": st.turn, "turn_seconds": self.turn_seconds,
                "remaining": round(remaining, 3) if remaining > 0.0 else 0.0}

    def stop_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer = None
        self.timer_at = None
        self.deadline = None

    # One timer per table, armed lazily: a new turn only moves ``deadline``; a timer
    # still pending from an earlier turn is always due no later than the new turn's
    # first event, and when it fires it re-arms itself for the current turn.
    def _arm(self, at: float) -> None:
        clock = self.services.clock
        if self.timer is not None and self.timer_at is not None:
            if self.timer_at <= at + CLOCK_EPS:
                return
            self.timer.cancel()
        self.timer_at = at
        self.timer = clock.call_later(at - clock.now(), self._tick)

    def _tick(self) -> None:
        self.timer = self.timer_at = None
        deadline, turn_id = self.deadline, self.turn_id
        if self.finished or deadline is None or turn_id is None:
            return
        now = self.services.clock.now()
        if now >= deadline - CLOCK_EPS:
            self.services.spawn(self._auto_turn(turn_id))
            return
        if self.announce_at is not None and now >= self.announce_at - CLOCK_EPS:
            self.broadcast({"type": "clock", "clock": self.clock_info()})
            self.announce_at = self._next_announce(deadline)
        self._arm(deadline if self.announce_at is None else self.announce_at)

    def _next_announce(self, deadline: float) -> float | None:
        """When to send the next ``clock``: every ANNOUNCE_EVERY seconds of the turn, then
        every second in the last ANNOUNCE_LAST."""
        left = deadline - self.services.clock.now() - CLOCK_EPS
        if left > ANNOUNCE_LAST:
            at = (math.ceil(left / ANNOUNCE_EVERY) - 1) * ANNOUNCE_EVERY
        else:
            at = math.ceil(left) - 1
        return deadline - at if at >= 1 else None

    def _rounds(self) -> TableRounds | None:
        """A daily table played in rounds keeps them in ``rounds`` (one clock per seat)."""
        if self.rounds is None and self.started_match.rounds:
            self.rounds = TableRounds(self, AWAY_LIMIT)
        return self.rounds

    def roll_hold(self, seat: int) -> list[bool]:
        """What a roll by ``seat`` without a hold keeps (in its round, at a daily table)."""
        if self.rounds is not None:
            return self.rounds.roll_hold(seat)
        return self.started_match.roll_hold(seat)

    def _new_turn(self) -> bool:
        """Set up the clock when the turn changed; True when it did."""
        match = self.match
        if match is None:                # not started: no clock yet
            return False
        if self.rounds is not None or match.rounds:   # each seat's clock is in its round
            self._rounds()
            return False
        st = match.state
        active = st.active if st.active is not None else -1   # -1: over, nobody's turn
        turn_id = (st.turn, active)
        if turn_id == self.turn_id:
            return False
        self.turn_id = turn_id
        self.deadline = self.announce_at = None
        if active < 0:
            return True
        slot = self.slots[active]
        if slot.kind == "human" and self.turn_seconds:
            deadline = self.deadline = self.services.clock.now() + self.seconds_for(slot)
            self.announce_at = self._next_announce(deadline)
            self._arm(deadline if self.announce_at is None else self.announce_at)
        return True

    def seconds_for(self, slot: Slot) -> float:
        """A turn's length: the table's, or AWAY_SECONDS for a seat still disconnected
        after the clock played a turn for it, while someone connected waits (an away seat
        must not hold the others; a player alone holds nobody)."""
        full = self.turn_seconds or 0
        if slot.conn is None and slot.autos >= 1 and any(
                s is not slot and s.kind == "human" and s.conn is not None for s in self.slots):
            return min(full, AWAY_SECONDS)
        return full

    def _after(self) -> None:
        """Start the bot's turn when a bot is to play (or the round, in rounds)."""
        match = self.match
        if match is None:
            return
        if self.rounds is not None or match.rounds:
            rounds = self._rounds()
            if rounds is not None:
                rounds.start()
            return
        st, turn_id = match.state, self.turn_id
        if st.active is None or self.finished or turn_id is None:   # over, or no clock yet
            return
        slot = self.slots[st.active]
        if slot.kind == "bot" and self.bot_turn != turn_id:
            self.bot_turn = turn_id
            self.services.spawn(self._bot_turn(turn_id))

    # ------------------------------------------------------------ automatic moves
    async def _auto_turn(self, turn_id: tuple[int, int]) -> None:
        """The clock ran out: roll if nothing was rolled, then write the advisor's box."""
        auto = self.services.auto
        await auto.ready()
        if self.finished or self.turn_id != turn_id:
            return
        match = self.started_match
        seat = turn_id[1]
        slot = self.slots[seat]
        if match.state.dice is None and self.roll(seat, NO_HOLD, auto=True) is not None:
            return
        st = match.state
        if self.finished or self.turn_id != turn_id or st.dice is None:
            return
        box = auto.advisor_box(self.ruleset, st.sheets[seat], st.dice, st.rolls_left)
        if self.write(seat, box, auto=True) is not None:
            log.error("the advisor's box %s was refused", box)
            return
        if slot.conn is None:
            slot.autos += 1
            st = match.state
            if slot.autos >= AWAY_LIMIT and not st.over and not st.has_given_up(seat):
                self.give_up(seat, "away")

    async def _bot_turn(self, turn_id: tuple[int, int]) -> None:
        # A bot paces itself on the game clock, so people watching can follow it (and a
        # test's manual clock decides when it moves); alone it plays at once.
        services = self.services
        clock = services.clock
        await services.auto.ready()
        match = self.started_match
        seat = turn_id[1]
        slot = self.slots[seat]
        while True:
            await clock.sleep(services.bot_delay if self.watchers() else 0)
            st = match.state
            if self.finished or self.turn_id != turn_id:
                return
            action, arg = services.auto.bot_action(slot.policy, self.ruleset, st.sheets[seat],
                                                   st.dice, st.rolls_left)
            if action == "write":
                refusal = self.write(seat, arg)
            else:
                hold = kept_by_default(st, seat, [bool(h) for h in arg])
                if st.dice is not None and any(hold) and services.bot_delay and self.watchers():
                    self.hold(seat, hold)   # people watching see the bot's choice first
                    await clock.sleep(services.bot_delay)
                    if self.finished or self.turn_id != turn_id:
                        return
                refusal = self.roll(seat, hold)
            if refusal is not None:
                log.error("bot move refused (%s); writing the advisor's box", refusal.message)
                st = match.state
                if st.dice is not None:
                    box = services.auto.advisor_box(self.ruleset, st.sheets[seat], st.dice,
                                                    st.rolls_left)
                    self.write(seat, box)
                return
            if action == "write":
                return

    # ------------------------------------------------------------ the end
    def _record(self, fname: str, meta: dict) -> bool:
        """The daily attempt's or ranked run's result, with its log's file name; False
        when the disk refused it (said once per table; retried by the caller)."""
        services, st = self.services, self.started_match.state
        try:
            if self.mode == "ranked" and self.ranked_id is not None:
                gave = st.gave_up[0][1] if st.gave_up else None
                services.ranked.finish(self.ranked_id, st.total(0), meta["duration_ms"],
                                       gave, fname, tool_assisted(self.started_match.log))
            if self.daily_date is not None:
                gave_up = {seat: why for seat, why in st.gave_up}
                for slot in self.slots:
                    if slot.kind == "human":
                        services.daily.finish_attempt(self.daily_date, slot.name,
                                                      st.total(slot.index),
                                                      gave_up.get(slot.index), fname)
        except (sqlite3.Error, OSError) as e:
            if not self.unrecorded:
                log.error("cannot record the result of table %s: %s; retrying", self.code, e)
            self.unrecorded = True
            return False
        return True

    def finish(self) -> None:
        if self.finished:
            return
        self.finished = True
        services, match = self.services, self.started_match
        self.finished_at = services.clock.now()
        self.stop_timer()
        if self.rounds is not None:
            self.rounds.stop_timer()
        meta: dict[str, Any] = {"relay": "bonanza-relay", "table": self.code}
        if self.ended_by is not None:
            meta["ended_by"] = "relay"
            meta["reason"] = self.ended_by
        if self.mode == "ranked":      # the run's time is the relay's: its last stamp
            records = match.log.encoded
            meta["duration_ms"] = match.log.records_from(len(records) - 1)[0]["at"] \
                if records else 0
        end = match.finish(meta)
        data = match.log.to_bytes()
        fname = services.logs.write(self.mode, self.code, data)
        ranking = [s.to_dict() for s in standings(match.state)]
        recorded = fname is not None and self._record(fname, meta)
        if not recorded:
            # The disk refused: the players are told all the same (below); the log and the
            # results are written again until they are on disk (or at the next start,
            # from the journal, which keeps the end).
            def retry() -> bool:
                nonlocal fname
                if fname is None:
                    fname = services.logs.write(self.mode, self.code, data)
                if fname is None or not self._record(fname, meta):
                    return False
                if self.end_msg is not None:
                    self.end_msg["file"] = fname
                if self.journal is not None:
                    self.journal.settled(fname)
                return True
            services.unfinished(retry)
        # A daily's seed is the whole day's dice: whoever saw it could play the date with
        # foresight.  It stays with the relay until the date is closed (daily_log).
        sealed = self.daily_date is not None
        self.end_msg = {"type": "end", "end": dict(end, reveal=None) if sealed else end,
                        "standings": ranking, "log": None if sealed else data, "file": fname}
        end_msg = self.end_msg
        if self.journal is not None:   # on disk (the end too) before anyone is told
            # (an end without its file name: the next start writes the log and the result)
            self.journal.ended(fname if recorded else None, lambda: self.broadcast(end_msg))
        else:
            self.broadcast(end_msg)
        services.clock.call_later(FINISHED_KEEP, lambda: services.purge(self))
