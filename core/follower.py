"""A table followed from the relay's messages: the game a client or watcher sees, checked.

The relay sends a game as its log header (``started``), one record per move (``move``),
the dice the active seat holds (``hold``), a catch-up after a resume or for a watcher
(``resumed`` / ``watching``) and the finished log (``end``).  ``TableFollower`` folds the
records with core's ``Replay`` — the match's own fold — and checks what a client can check
before the seed is revealed: consecutive ``seq``, the hash chain, the relay's signature on
every record, that each move is legal, and the state hash after it.  At the end the
finished log must verify and hold exactly the records received.  Anything else raises
``Desync`` with a reason a player can read (docs/protocol.md, "How a client follows the
game").

Messages that are not even shaped like the protocol (a record without a ``seq``, a
header that is not a map) raise ``KeyError``, ``TypeError``, ``ValueError``,
``AttributeError`` or ``IndexError``: the caller says which message it was.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from . import signing
from .game import GameState
from .log import chain_next, chain_start, setup_from_header
from .match import NO_HOLD, Replay, held_after
from .verify import Verdict, verify_bytes


class Desync(Exception):
    """What the relay sent does not follow from the game so far.  ``code`` says which
    check failed (a screen names it in the player's language) and ``shown`` holds what
    was expected and what came, side by side (``(expected, got)`` bytes, when there is
    such a pair): ``records`` (the moves stopped adding up), ``commitment``, ``relay_key``,
    ``no_relay_key``, ``no_commitment``, ``contribution``, ``seat_key``."""

    def __init__(self, message: str, code: str = "records",
                 shown: tuple[bytes | None, bytes | None] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.shown = shown


@dataclass(frozen=True)
class SeatClaim:
    """What a client that took its seat sent the relay; the game's header must carry it
    as sent: a relay (or a proxy) that changed it could steer the dice or sign moves in
    the seat's name."""
    seat: int
    key: bytes                        # the seat's public signing key
    contribution: bytes | None = None  # its dice contribution, when it chose one
    relay_key: bytes | None = None    # the key the relay greeted it with (None: it gave none)
    # The dice commitment the table showed when the seat sat down (``joined``): a relay
    # that swapped its seed after seeing the contributions would deal another game.
    commitment: bytes | None = None


class TableFollower:
    """One game at a table, as the relay's messages tell it; every check of a record
    happens before the record is taken, so a refused one changes nothing."""

    def __init__(self) -> None:
        self.header: dict[str, Any] | None = None
        self.records: list[dict[str, Any]] = []
        self.chain: bytes | None = None
        self.held: list[bool] = list(NO_HOLD)
        self.end: dict[str, Any] | None = None        # the relay's ``end`` message
        self.verdict: Verdict | None = None
        self._replay: Replay | None = None

    # ------------------------------------------------------------ reading
    @property
    def state(self) -> GameState | None:
        """The game after the last record taken (None before the start)."""
        return self._replay.state if self._replay is not None else None

    @property
    def seq(self) -> int:
        """The sequence number of the last record taken (0 before any)."""
        return int(self.records[-1]["seq"]) if self.records else 0

    def follows(self, header: dict[str, Any]) -> bool:
        """Is ``header`` the game followed now (the same chain)?"""
        return self.header is not None and self.header.get("chain") == header.get("chain")

    # ------------------------------------------------------------ the relay's messages
    def start(self, header: dict[str, Any], claim: SeatClaim | None = None) -> None:
        """A new game from its header (``started``); ``claim``: checked against it before
        anything of the game is shown."""
        self.header = header
        self.records = []
        self.held = list(NO_HOLD)
        self.end = None
        self.verdict = None
        self._replay = None
        if header.get("chain") != chain_start(header):
            raise Desync("the header's chain does not match")
        self.chain = header["chain"]
        if claim is not None:
            self._check_claim(header, claim)
        self._replay = Replay(setup_from_header(header))

    def _check_claim(self, header: dict[str, Any], claim: SeatClaim) -> None:
        seat = claim.seat
        dice = header.get("dice") or {}
        if claim.contribution is not None and dice.get("scheme") == "commit":
            contributions = dice.get("contributions") or []
            if seat >= len(contributions) or contributions[seat] != claim.contribution:
                raise Desync("the relay changed your dice contribution: this game's dice "
                             "cannot be trusted", "contribution")
        keys = (header.get("signing") or {}).get("seats") or []
        if seat >= len(keys) or keys[seat] != claim.key:
            raise Desync("your key is not the one in the game's header", "seat_key")
        # A relay that leaves its key out must not switch the check off: unknown is refused.
        if not isinstance(claim.relay_key, bytes):
            raise Desync("the relay did not say which key it signs with", "no_relay_key")
        relay = (header.get("signing") or {}).get("relay")
        if relay != claim.relay_key:
            raise Desync("the game is signed by another key than the relay's", "relay_key",
                         (claim.relay_key, relay if isinstance(relay, bytes) else None))
        if not isinstance(claim.commitment, bytes):
            raise Desync("the table showed no dice fingerprint when you sat down",
                         "no_commitment")
        commit = dice.get("commit")
        if commit != claim.commitment:
            raise Desync("the dice's fingerprint is not the one shown when you sat down: "
                         "the relay changed its seed", "commitment",
                         (claim.commitment, commit if isinstance(commit, bytes) else None))

    def take(self, rec: dict[str, Any]) -> None:
        """The next move record (``move``)."""
        replay, header, chain = self._replay, self.header, self.chain
        if replay is None or header is None or chain is None:
            raise Desync("a move arrived before the game started")
        seq = rec.get("seq")
        if seq != self.seq + 1:
            raise Desync(f"move {seq} arrived after move {self.seq}")
        if rec.get("chain") != chain_next(chain, rec):
            raise Desync(f"move {seq}: the chain does not match")
        relay_key = (header.get("signing") or {}).get("relay")
        if relay_key is not None and not signing.record_signed(relay_key, rec):
            raise Desync(f"move {seq} is not signed by the relay")
        move = rec["move"]
        before = replay.state
        refusal = replay.accept(move)
        if refusal is not None:
            raise Desync(f"move {seq} is illegal here: {refusal.message}")
        after = replay.state
        if after.state_hash() != rec.get("state"):
            replay.state = before
            raise Desync(f"move {seq}: the state hash does not match")
        self.chain = rec["chain"]
        self.records.append(rec)
        self.held = held_after(before, after, move, self.held)

    def hold(self, held: Sequence[bool]) -> None:
        """The active seat announced the dice it holds (``hold``)."""
        self.held = list(held)

    def catch_up(self, records: Sequence[dict[str, Any]], held: Sequence[bool] | None) -> None:
        """A resume's or a watcher's snapshot: the records not yet taken, then what the
        active seat holds now (``resumed`` / ``watching``; ``start`` first for a new game)."""
        for rec in records:
            if rec["seq"] > self.seq:
                self.take(rec)
        self.hold(held or NO_HOLD)

    def finish(self, msg: dict[str, Any]) -> None:
        """The game's end (``end``): its record continues the chain, and the finished log
        verifies and holds exactly the records taken."""
        self.end = msg
        end = msg.get("end") or {}
        # A daily game's end withholds the reveal (the day's seed), which the chain covers.
        if (self.chain is not None and end.get("reveal") is not None
                and end.get("chain") != chain_next(self.chain, end)):
            raise Desync("the end record's chain does not match")
        data = msg.get("log")
        if data is not None:
            self.verdict = verdict = verify_bytes(data)
            if not verdict.ok:
                raise Desync(f"the finished log does not verify: {verdict.detail}")
            if verdict.log is None or verdict.log.records != self.records:
                raise Desync("the finished log differs from the moves received")
