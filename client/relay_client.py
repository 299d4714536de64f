"""Client side of the relay protocol (docs/protocol.md).

``RelayClient`` is an asyncio client that keeps the table's log locally: frames are
cut by ``core.wire`` and the game is followed by ``core.follower.TableFollower``, which
folds every record with core and checks its chain, signature and state hash, so a
desync is noticed at once (``Desync``).  ``RelayConnection``
runs a ``RelayClient`` in a background thread for the pygame client:
``send(msg)`` is thread-safe and ``poll()`` returns the messages received since
the last call without blocking.
"""
from __future__ import annotations

import asyncio
import itertools
import queue
import secrets
import threading
import time
from typing import Any, Callable

from bonanza.core import signing
from bonanza.core.dice import commitment
from bonanza.core.follower import Desync, SeatClaim, TableFollower
from bonanza.core.game import GameState
from bonanza.core.match import kept_by_default
from bonanza.core.rounds import OwnRound, signed_point
from bonanza.core.verify import Verdict
from bonanza.core.wire import MAX_RELAY_FRAME, PROTOCOL_VERSION, FrameDecoder, FrameError, encode_frame

GAME_INTENTS = ("hold", "roll", "write", "give_up")
MOVES = ("roll", "write", "give_up")    # the intents the relay always answers

# How long ``RelayConnection.poll`` waits, at most, for the answer to a move the window sent
# (a third of a 60 Hz frame).  The connection's thread needs the GIL to send the move and to
# read its answer, and a frame loop that never sleeps starves it: pygame lets go of the GIL
# for microseconds in each call, which restarts CPython's 5 ms forced-switch wait every time,
# so a thread waiting for it can wait for hundreds of milliseconds (measured behind a busy
# pygame loop: a trivial callback waited p50 31 ms, at most 259 ms; a ranked run's first roll
# waited 625 ms before it reached the socket, its answer back from the relay in under 1 ms).
# Blocked on the inbox, the frame gives the thread the GIL outright.
ANSWER_WAIT = 0.005


# the refusals of a quick reaction (``react``), which answer no move of the seat
REACTION_REFUSALS = frozenset(("unknown_emote", "reacting_too_fast", "not_at_table"))


def answers_own_move(msg: dict, seat: int | None, in_rounds: bool) -> bool:
    """Whether ``msg`` answers a move this seat sent: its record, or in a daily round its
    own move (the round's records come at the reveal), or an error (but a reaction's)."""
    kind = msg.get("type")
    if kind == "error":
        return msg.get("code") not in REACTION_REFUSALS
    if kind == "own_move":
        return True
    if kind != "move" or in_rounds:
        return False
    record = msg.get("record")
    move = record.get("move") if isinstance(record, dict) else None
    return isinstance(move, dict) and seat is not None and move.get("seat") == seat


class RelayError(Exception):
    """The relay refused a request: ``code`` is stable (``refusal.<code>``)."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class RelayClient:
    """``signer``: the seat's key (``core.signing.Signer``); every intent is signed with
    it.  Without one, the client makes a key for this connection's games."""

    READ_SIZE = 1 << 16

    def __init__(self, client: str = "bonanza", signer: signing.Signer | None = None):
        self.client_name = client
        self.signer = signer or signing.Signer(secrets.token_bytes(signing.KEY_BYTES))
        self.contribution: bytes | None = None   # what this client sent for the dice key
        self.took_seat = False    # this client asked for its seat (not resumed someone's)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.host: str | None = None
        self.port: int | None = None
        self.events: asyncio.Queue = asyncio.Queue()
        self.on_message: Callable[[dict], None] | None = None
        self._pending: dict[int, asyncio.Future] = {}
        self._rid = itertools.count(1)
        self._task: asyncio.Task | None = None
        self._tick = asyncio.Event()
        self.connected = False
        self.welcome: dict | None = None
        self.table: dict | None = None
        self.seat: int | None = None
        self.token: str | None = None
        # What the seat sat down to (``joined``): the table's dice commitment and the relay
        # key met at ``welcome``; the game's header must carry both (``_claim``).
        self.sat_down_commitment: bytes | None = None
        self.sat_down_relay_key: bytes | None = None
        self._reset_game()

    def _reset_game(self) -> None:
        self.game = TableFollower()
        # A daily table played in rounds: this seat's own moves of the round, shown to it
        # alone until every seat has played (core.rounds); None elsewhere.
        self.own: OwnRound | None = None
        self.round: dict | None = None        # the last ``round`` message: who still plays
        self.clock: dict | None = None
        self.desync: str | None = None

    # ------------------------------------------------------------ connection
    @classmethod
    async def open(cls, host: str, port: int, hello: bool = True,
                   client: str = "bonanza", signer: signing.Signer | None = None
                   ) -> "RelayClient":
        c = cls(client=client, signer=signer)
        await c.connect(host, port)
        if hello:
            await c.hello()
        return c

    async def connect(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader, self.writer = await asyncio.open_connection(host, port)
        self.connected = True
        self._task = asyncio.get_running_loop().create_task(
            self._read_loop(self.reader, FrameDecoder(MAX_RELAY_FRAME)))

    async def hello(self) -> dict:
        self.welcome = await self.request({"type": "hello", "version": PROTOCOL_VERSION,
                                           "client": self.client_name})
        return self.welcome

    async def reconnect(self, host: str | None = None, port: int | None = None) -> dict:
        """Open a new connection, say hello and resume the seat from the last seen move."""
        self.drop()
        host, port = host or self.host, port or self.port
        if host is None or port is None or self.token is None:
            raise ConnectionError("there is no seat to resume")
        await self.connect(host, port)
        await self.hello()
        return await self.resume(self.token, self.seq)

    def drop(self) -> None:
        """Close the socket abruptly (a dropped connection; the seat is kept)."""
        if self.writer is not None:
            self.writer.transport.abort()
        if self._task is not None:
            self._task.cancel()
        self._connection_lost()

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except (ConnectionError, OSError):
                pass
        if self._task is not None:
            self._task.cancel()
        self._connection_lost()

    def _connection_lost(self) -> None:
        if not self.connected:
            return
        self.connected = False
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(ConnectionError("the connection to the relay was lost"))
        self._pending.clear()
        self._deliver({"type": "disconnected"})

    async def _read_loop(self, reader: asyncio.StreamReader, frames: FrameDecoder) -> None:
        try:
            while True:
                data = await reader.read(self.READ_SIZE)
                if not data:
                    break
                try:
                    msgs = frames.feed(data)
                except FrameError as e:   # what came before the bad frame, then the end
                    for msg in e.messages:
                        self._handle(msg)
                    break
                for msg in msgs:
                    self._handle(msg)
        except (ConnectionError, OSError):
            pass
        finally:
            if reader is self.reader:
                self._connection_lost()

    def send(self, msg: dict) -> None:
        if self.writer is None or not self.connected:
            raise ConnectionError("not connected to the relay")
        self.writer.write(encode_frame(self._signed(msg)))

    def _signed(self, msg: dict) -> dict:
        """Our key on every seat we take, our signature on every intent."""
        kind = msg.get("type")
        if kind in ("create_table", "join", "daily_play", "rematch", "ranked_play"):
            msg = dict(msg)
            msg.setdefault("key", self.signer.public)
            self.took_seat = msg["key"] == self.signer.public
            if kind in ("daily_play", "ranked_play"):
                self.contribution = None
            elif "contribution" in msg:        # an old-style client: sent in the clear
                self.contribution = msg["contribution"]
            elif "contribution_commit" in msg:  # the caller keeps its own secret
                self.contribution = None
            else:
                # Commit now, reveal at the start once every seat has committed.
                self.contribution = secrets.token_bytes(32)
                msg["contribution_commit"] = commitment(self.contribution)
        elif kind in ("roll", "write", "give_up") and self.header is not None and "sig" not in msg:
            msg = dict(msg)
            seq = msg.setdefault("seq", self.seq)
            hold = msg.get("hold")
            if kind == "roll" and hold is None:
                hold = msg["hold"] = list(self.held) if self.state is None or self.seat is None \
                    else kept_by_default(self.state, self.seat, self.held)
            if kind == "roll" and not (isinstance(hold, list) and len(hold) == 5):
                return msg            # malformed: the relay refuses it as it is
            if self.own is not None and self.state is not None:
                intent = signing.round_intent_body(signed_point(self.state, self.own.seat),
                                                   kind, hold, msg.get("box"))
                msg["sig"] = self.signer.sign_intent(self.header["chain"], intent)
            elif type(seq) is int:
                intent = signing.intent_body(seq, kind, hold, msg.get("box"))
                msg["sig"] = self.signer.sign_intent(self.header["chain"], intent)
        return msg

    def send_raw(self, data: bytes) -> None:
        """Send raw bytes (tests: junk, bad frames)."""
        if self.writer is None:
            raise ConnectionError("not connected to the relay")
        self.writer.write(data)

    async def request(self, msg: dict, timeout: float = 10.0) -> dict:
        rid = next(self._rid)
        msg = dict(msg, rid=rid)
        fut = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        try:
            self.send(msg)
            return await asyncio.wait_for(fut, timeout)
        finally:
            self._pending.pop(rid, None)

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 10.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            left = deadline - loop.time()
            if left <= 0:
                raise asyncio.TimeoutError("the relay did not answer in time")
            ev = self._tick
            try:
                await asyncio.wait_for(ev.wait(), left)
            except asyncio.TimeoutError:
                pass

    # ------------------------------------------------------------ incoming
    def _deliver(self, msg: dict) -> None:
        self.events.put_nowait(msg)
        if self.on_message is not None:
            self.on_message(msg)
        self._tick.set()
        self._tick = asyncio.Event()

    def _handle(self, msg: dict) -> None:
        try:
            try:
                self._update(msg)
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
                # Escaping here would end the read loop as if the network had failed.
                raise Desync(f"a malformed {str(msg.get('type'))[:40]!r} message from the relay "
                             f"({type(e).__name__})") from None
        except Desync as e:
            self.desync = str(e)
            rid = msg.get("rid")
            fut = self._pending.pop(rid, None) if rid is not None else None
            if fut is not None and not fut.done():
                fut.set_exception(e)
            self._deliver({"type": "desync", "message": str(e), "code": e.code,
                           "shown": e.shown})
            return
        kind = msg.get("type")
        rid = msg.get("rid")
        fut = self._pending.pop(rid, None) if rid is not None else None
        if fut is not None and not fut.done():
            if kind == "error":
                fut.set_exception(RelayError(msg.get("code", "?"), msg.get("message", "")))
            else:
                fut.set_result(msg)
        self._deliver(msg)

    def _update(self, msg: dict) -> None:
        kind = msg.get("type")
        if kind == "ping":
            self.send({"type": "pong"})
        elif kind == "joined":
            self._reset_game()
            self.table, self.seat, self.token = msg["table"], msg["seat"], msg["token"]
            commit = self.table.get("commitment")
            key = (self.welcome or {}).get("relay_key")
            self.sat_down_commitment = commit if isinstance(commit, bytes) else None
            self.sat_down_relay_key = key if isinstance(key, bytes) else None
        elif kind == "table":
            self.table = msg["table"]
            self.seat = msg.get("seat", self.seat)
        elif kind == "started":
            self.table = msg["table"]
            self.seat = msg.get("seat", self.seat)
            self._start_game(msg["header"])
            self.clock = msg.get("clock")
        elif kind == "move":
            self.game.take(msg["record"])
            move = msg["record"]["move"]
            if self.own is not None:
                if move.get("seat") == self.own.seat:
                    self._own_check(self.own.confirm(move))
                if self.game.state is not None and self.game.state.over:
                    self.own.moves = []
            else:
                self.clock = msg.get("clock")
        elif kind == "own_move" and self.own is not None and self.game.state is not None:
            self._own_check(self.own.take(self.game.state, msg["move"], msg.get("held")))
            self.clock = msg.get("clock")
        elif kind == "round" and self.own is not None:
            if self.own.moves and (self.round or {}).get("round") != msg.get("round"):
                self._own_check("the relay did not log the moves it showed this seat")
            self.round, self.clock = msg, msg.get("clock")
        elif kind == "hold" and self.own is not None:
            self.own.held = list(msg["held"])
        elif kind == "hold":
            self.game.hold(msg["held"])
        elif kind == "clock":
            self.clock = msg.get("clock")
        elif kind == "end":
            self._take_end(msg)
        elif kind == "left":
            self.seat = None
        elif kind == "reveal" and self.contribution is not None:
            self.send({"type": "reveal", "contribution": self.contribution})
        elif kind in ("resumed", "watching"):   # a watcher gets what a resuming seat gets
            self.table, self.seat = msg["table"], msg["seat"]
            self.token = msg.get("token")
            header = msg.get("header")
            if header is not None and not self.game.follows(header):
                self._reset_game()
                self._start_game(header)
            self.game.catch_up(msg.get("records", []), msg.get("held"))
            self.clock = msg.get("clock")
            mine = msg.get("round")
            if self.own is not None and isinstance(mine, dict) and self.game.state is not None:
                self.own = OwnRound(self.own.seat)
                for move in mine.get("moves", []):
                    self._own_check(self.own.take(self.game.state, move, None))
                self.own.held = list(mine.get("held") or self.own.held)
                self.round, self.clock = mine, mine.get("clock")
            if msg.get("end") is not None:
                self._take_end(msg["end"])

    def _start_game(self, header: dict) -> None:
        self.game.start(header, self._claim())
        dice = header.get("dice") or {}
        if dice.get("rounds") is True and self.seat is not None:
            self.own = OwnRound(self.seat)

    @staticmethod
    def _own_check(problem: str | None) -> None:
        if problem is not None:
            raise Desync(problem)

    def _claim(self) -> SeatClaim | None:
        """Before the first roll: our contribution and our key are in the header as we
        sent them, the relay signs with the key it greeted us with, and the dice are the
        ones the table committed to when we sat down (docs/fairness.md)."""
        if self.seat is None or not self.took_seat:
            return None
        return SeatClaim(self.seat, self.signer.public, self.contribution,
                         self.sat_down_relay_key, self.sat_down_commitment)

    def _take_end(self, msg: dict) -> None:
        self.clock = None
        self.game.finish(msg)

    # ------------------------------------------------------------ state
    # The game as followed (``core.follower.TableFollower``), read as the client's own.
    @property
    def header(self) -> dict | None:
        return self.game.header

    @property
    def state(self) -> GameState | None:
        """The game as this seat sees it: in a round, with its own moves of the round."""
        st = self.game.state
        if self.own is not None and st is not None and not st.over:
            return self.own.view(st)
        return st

    @property
    def round_done(self) -> bool:
        """A daily round: this seat has played its turn and waits for the others."""
        st = self.game.state
        return (self.own is not None and st is not None and not st.over
                and (self.own.done or self.own.view(st).active != self.own.seat))

    @property
    def records(self) -> list[dict]:
        return self.game.records

    @property
    def chain(self) -> bytes | None:
        return self.game.chain

    @property
    def held(self) -> list[bool]:
        return list(self.own.held) if self.own is not None else self.game.held

    @property
    def end(self) -> dict | None:
        return self.game.end

    @property
    def verdict(self) -> Verdict | None:
        return self.game.verdict

    @property
    def seq(self) -> int:
        """The sequence number of the last move seen (0 before any)."""
        return self.game.seq

    @property
    def my_turn(self) -> bool:
        return (self.state is not None and not self.state.over and self.seat is not None
                and self.state.active == self.seat
                and not self.round_done)

    # ------------------------------------------------------------ requests
    async def list_tables(self) -> list[dict]:
        return (await self.request({"type": "list_tables"}))["tables"]

    async def create_table(self, name: str, seats: int = 4, turn_seconds: int = 60,
                           ruleset: str = "bonanza", bots: str | list[str] | None = None,
                           daily: bool = False) -> dict:
        """``daily``: the day's challenge played together (the relay's daily rules and clock)."""
        msg: dict[str, Any] = {"type": "create_table", "name": name, "seats": seats,
                               "turn_seconds": turn_seconds, "ruleset": ruleset}
        if bots is not None:
            msg["bots"] = bots
        if daily:
            msg["daily"] = True
        return await self.request(msg)

    async def join(self, code: str, name: str) -> dict:
        return await self.request({"type": "join", "code": code, "name": name})

    async def set_name(self, name: str) -> dict:
        return await self.request({"type": "set_name", "name": name})

    async def start(self) -> dict:
        return await self.request({"type": "start"})

    async def hold(self, held: list[bool]) -> dict:
        return await self.request({"type": "hold", "seq": self.seq, "held": list(held)})

    async def toggle(self, i: int) -> dict:
        held = list(self.held)
        held[i] = not held[i]
        return await self.hold(held)

    async def roll(self, hold: list[bool] | None = None) -> dict:
        msg: dict[str, Any] = {"type": "roll", "seq": self.seq}
        if hold is not None:
            msg["hold"] = list(hold)
        return await self.request(msg)

    async def write(self, box: str) -> dict:
        return await self.request({"type": "write", "seq": self.seq, "box": box})

    async def give_up(self) -> dict:
        return await self.request({"type": "give_up", "seq": self.seq})

    async def leave(self) -> dict:
        return await self.request({"type": "leave"})

    async def ranked_play(self, name: str, ruleset: str = "bonanza", hints: bool = False,
                          animation: str | None = None) -> dict:
        """A ranked solo run: the relay deals, times and signs it (``animation``:
        ``"instant"`` or ``"animated"``, declared for the run's category)."""
        ask: dict = {"type": "ranked_play", "name": name, "ruleset": ruleset, "hints": hints}
        if animation is not None:
            ask["animation"] = animation
        joined = await self.request(ask)
        await self.wait_until(lambda: self.header is not None)
        return joined

    async def rematch(self) -> dict:
        """Play again with the same seats, rules and clock (``joined`` the new table)."""
        return await self.request({"type": "rematch"})

    async def react(self, emote: str) -> dict:
        """A quick reaction at this table (``core.settings.REACTIONS``); the answer is the
        ``reaction`` everyone at the table gets."""
        return await self.request({"type": "react", "emote": emote})

    async def watch(self, code: str) -> dict:
        """Watch a table: the game so far, then everything the players see."""
        return await self.request({"type": "watch", "code": code})

    async def resume(self, token: str, seq: int = 0) -> dict:
        return await self.request({"type": "resume", "token": token, "seq": seq})

    async def daily_info(self, name: str | None = None) -> dict:
        msg = {"type": "daily_info"}
        if name is not None:
            msg["name"] = name
        return await self.request(msg)

    async def daily_play(self, name: str) -> dict:
        joined = await self.request({"type": "daily_play", "name": name})
        await self.wait_until(lambda: self.header is not None)
        return joined

    async def daily_log(self, date: str, name: str) -> bytes:
        return (await self.request({"type": "daily_log", "date": date, "name": name}))["log"]


class RelayConnection:
    """A relay connection for a synchronous (pygame) program.

    The asyncio client runs in a daemon thread.  ``send`` never blocks;
    ``poll`` returns every message received since the last call, plus
    ``{"type": "status", "status": ...}`` when the connection status changes and
    ``{"type": "desync", "message": ...}`` if the relay's records stop adding up.
    For ``create_table`` / ``join`` a contribution is added, and for game intents
    the current ``seq`` is filled in, when the message lacks them.
    """

    RETRY_EVERY = 2.0            # the longest wait between tries (they start at 0.25 s)
    RETRY_FOR = 120.0            # a relay restarting comes back well within this

    def __init__(self, host: str, port: int, client: str = "bonanza-client",
                 auto_resume: bool = True, signer: signing.Signer | None = None):
        self.host, self.port = host, port
        self._signer = signer
        self.auto_resume = auto_resume
        self.status = "connecting"
        self.error: str | None = None
        # The relay said it is restarting / the seat came back after a relay restart: the
        # game goes on (its journal), which the window says instead of "Disconnected".
        self.restarting = False
        self.restarted = False
        self._inbox: queue.Queue = queue.Queue()
        # Moves sent (``send``, the caller's thread) and answers put in the inbox (the
        # connection's thread): while fewer answers than moves, ``poll`` waits a little.
        self._asked = 0
        self._answered = 0
        self._seen: tuple[GameState | None, bool] = (None, False)   # (state, round_done)
        self._client_name = client
        self.client: RelayClient | None = None
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="relay-connection", daemon=True)
        self._thread.start()
        self._ready.wait(5)

    # ------------------------------------------------------------ thread side
    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        finally:
            self._loop.close()

    def _set_status(self, status: str) -> None:
        if status != self.status:
            self.status = status
            self._answered = self._asked      # a move sent before is not answered on this
            self._put({"type": "status", "status": status})

    def _put(self, msg: dict) -> None:
        c = self.client
        if self._answered < self._asked and answers_own_move(
                msg, c.seat if c else None, c is not None and c.own is not None):
            self._answered += 1
        self._inbox.put(msg)

    def _on_message(self, msg: dict) -> None:
        self._snapshot()
        if msg.get("type") == "restarting":
            self.restarting = True
        if msg.get("type") != "disconnected":
            self._put(msg)
        else:
            self._lost.set()

    def _snapshot(self) -> None:
        """The game as of the last whole message, for the caller's thread: read while this
        thread folds the next message, the client's own objects can be caught half way (a
        round's records folded, the seat's own moves of it not yet confirmed), a state that
        cannot even be computed."""
        c = self.client
        try:
            self._seen = (c.state, c.round_done) if c is not None else (None, False)
        except Exception:      # a desync left it half folded: the window leaves the table
            pass

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        self._lost = asyncio.Event()
        self.client = RelayClient(client=self._client_name, signer=self._signer)
        self.client.on_message = self._on_message
        self._ready.set()
        try:
            await self.client.connect(self.host, self.port)
            await self.client.hello()
            self._set_status("connected")
        except (OSError, ConnectionError, asyncio.TimeoutError, RelayError) as e:
            self.error = str(e)
            self._set_status("closed")
            return
        while not self._stop.is_set():
            stop = asyncio.ensure_future(self._stop.wait())
            lost = asyncio.ensure_future(self._lost.wait())
            await asyncio.wait({stop, lost}, return_when=asyncio.FIRST_COMPLETED)
            stop.cancel()
            lost.cancel()
            if self._stop.is_set():
                break
            c = self.client
            if not (self.auto_resume and c.token and c.end is None and await self._resume()):
                break
        await self.client.close()
        self._set_status("closed")

    async def _resume(self) -> bool:
        self._set_status("reconnecting")
        loop = asyncio.get_running_loop()
        until = loop.time() + self.RETRY_FOR
        wait = 0.25
        c = self.client
        assert c is not None         # made before the first connection
        while loop.time() < until and not self._stop.is_set():
            self._lost.clear()
            try:
                resumed = await c.reconnect()
                self.restarted = bool(resumed.get("restarted"))
                self.restarting = False
                self._set_status("connected")
                return True
            except RelayError as e:
                self.error = str(e)
                return False
            except (OSError, ConnectionError, asyncio.TimeoutError):
                try:
                    await asyncio.wait_for(self._stop.wait(), wait)
                    wait = min(self.RETRY_EVERY, wait * 2)   # back off
                except asyncio.TimeoutError:
                    pass
        return False

    def _send(self, msg: dict) -> None:
        c = self.client
        assert c is not None         # sends run on the loop, after _main made the client
        msg = dict(msg)
        kind = msg.get("type")
        if kind in GAME_INTENTS and "seq" not in msg:
            msg["seq"] = c.seq
        try:
            c.send(msg)
        except (ConnectionError, OSError) as e:
            self._put({"type": "error", "code": "not_connected", "message": str(e),
                       "rid": msg.get("rid")})

    # ------------------------------------------------------------ caller side
    def send(self, msg: dict) -> None:
        """Queue a message for the relay (thread-safe, never blocks)."""
        if self._loop.is_closed():
            self._inbox.put({"type": "error", "code": "not_connected", "message": "closed"})
            return
        if msg.get("type") in MOVES:
            self._asked += 1
        self._loop.call_soon_threadsafe(self._send, msg)

    def drop(self) -> None:
        """Cut the socket as if the network failed (tests; the wrapper then resumes)."""
        self._loop.call_soon_threadsafe(lambda: self.client.drop() if self.client else None)

    def poll(self) -> list[dict]:
        """Every message received since the last call.  While a move sent is unanswered
        it waits for the answer, ANSWER_WAIT at most; otherwise it never blocks."""
        out = []
        until = time.monotonic() + ANSWER_WAIT
        while self._answered < self._asked and self.status == "connected":
            left = until - time.monotonic()
            try:
                if left <= 0:
                    break
                out.append(self._inbox.get(timeout=left))
            except queue.Empty:
                break
        while True:
            try:
                out.append(self._inbox.get_nowait())
            except queue.Empty:
                return out

    def close(self, timeout: float = 3.0) -> None:
        if not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(self._stop.set)
            except RuntimeError:
                pass
        self._thread.join(timeout)

    # The locally replayed game, for drawing: as of the last whole message (``_snapshot``).
    @property
    def state(self) -> GameState | None:
        return self._seen[0]

    @property
    def seat(self) -> int | None:
        return self.client.seat if self.client else None

    @property
    def welcome(self) -> dict | None:
        return self.client.welcome if self.client else None

    @property
    def table(self) -> dict | None:
        return self.client.table if self.client else None

    @property
    def held(self) -> list[bool]:
        return self.client.held if self.client else [False] * 5

    @property
    def round_done(self) -> bool:
        """A daily round: this seat played its turn and waits for the others."""
        return self._seen[1]

    @property
    def clock(self) -> dict | None:
        return self.client.clock if self.client else None

    @property
    def records(self) -> list[dict]:
        return self.client.records if self.client else []

    @property
    def end(self) -> dict | None:
        return self.client.end if self.client else None

    @property
    def token(self) -> str | None:
        return self.client.token if self.client else None
