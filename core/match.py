"""A game in progress together with its dice key and its log: the one way a move happens.

The relay runs one per table, the client one per solo or daily game, and
``bonanza simulate`` one per bot game.  A seat asks ``roll``, ``hold``, ``write`` or
``give_up``; the match asks ``core.game``'s ``check_*`` question, deals the dice
itself from its key (nobody hands it dice), folds the move into its state and
appends the record to its log.  ``Replay`` is the same fold for moves made
elsewhere (a finished log being verified).  Secrets come in from the caller
(``secrets.token_bytes`` in the relay or client), which keeps ``core`` free of
global randomness.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, Union, cast

from . import dice as dice_mod
from .game import (
    GameState,
    Refusal,
    Seat,
    Setup,
    apply_legal,
    check,
    check_give_up,
    check_hold,
    check_roll,
    check_write,
    new_game,
)
from .log import GameLog, chain_next, chain_start, game_key_from, make_header, pack, setup_from_header
from .records import (
    DayDice,
    EndRecord,
    GameSettings,
    GiveUpReason,
    Header,
    Intent,
    Meta,
    Mode,
    Move,
    MoveRecord,
    Reveal,
    RollMove,
    Signing,
)
from .rules import NUM_DICE
from .settings import DAILY_RULESET
from .undo import UNDO_MODES, check_undo, undone

if TYPE_CHECKING:
    from .signing import Signer

NO_HOLD: tuple[bool, ...] = (False,) * NUM_DICE
GAME_OVER = Refusal("game_over", "the game is over")

# What a move asked of a ``Match`` gives: the record it appended, or why nothing happened.
# Test the refusal by index (``if outcome[1] is not None``) and the record's type narrows.
Outcome = Union[tuple[MoveRecord, None], tuple[None, Refusal]]


def dice_turn(state: GameState, per_seat: bool) -> int:
    """The turn number the dice are dealt for: the game's turn, or — at a daily table,
    where everyone rolls the day's dice — the active seat's own turn (0-12)."""
    if per_seat and state.active is not None:   # a roll is only ever dealt mid-game
        return state.sheets[state.active].filled_count
    return state.turn


def kept_by_default(state: GameState, seat: int, held: Sequence[bool]) -> list[bool]:
    """What a roll by ``seat`` without a hold keeps: what it announced (``held``), if it is
    the active seat with dice in front of it; nothing otherwise.  The relay and every
    client that signs its rolls apply this one rule."""
    return list(held) if state.dice is not None and seat == state.active else list(NO_HOLD)


def held_after(before: GameState, after: GameState, move: Mapping[str, Any],
               held: list[bool]) -> list[bool]:
    """The dice the active seat holds once ``move`` took ``before`` to ``after``: what a
    roll kept; nothing in a new turn or for another active seat; else still ``held``.
    A match and every client following a table apply this one rule."""
    if move["type"] == "roll":
        return list(move["hold"])
    if after.turn != before.turn or after.active != before.active:
        return list(NO_HOLD)
    return held


def dice_refusal(state: GameState, key: bytes, move: RollMove,
                 per_seat: bool = False) -> Refusal | None:
    """For a legal roll: None when its dice are the ones ``key`` deals, else
    ``wrong_dice`` (a code only a forged or corrupted log can produce)."""
    expected = list(dice_mod.roll_dice(key, dice_turn(state, per_seat), state.rolls + 1,
                                       state.dice, move["hold"]))
    if list(move["dice"]) != expected:
        return Refusal("wrong_dice", f"the dice {move['dice']} should be {expected}")
    return None


def _signing(signer: Signer | None, seat_keys: Sequence[bytes | None] | None,
             seats: int) -> Signing | None:
    if signer is None:
        return None
    return {"relay": signer.public, "seats": list(seat_keys) if seat_keys is not None else [None] * seats}


class Match:
    """Moves are made here and nowhere else.

    Every method that makes a move returns an ``Outcome``, ``(record, refusal)``: the
    appended log record (its canonical bytes are ``match.log.encoded[-1]``) and None, or
    None and the ``Refusal`` (nothing changed).  ``seat`` is the seat asking; left
    out, it is the active seat (a solo game, a bot playing its own turn).
    """

    def __init__(self, setup: Setup, key: bytes, log: GameLog, reveal: Reveal) -> None:
        self.setup = setup
        self.key = key
        self.log = log
        self._reveal = reveal
        self.state: GameState = new_game(setup)
        # The dice the active seat holds now: what its last roll kept, or what it
        # announced since (``hold``); a roll without a hold keeps these.
        self.held: list[bool] = list(NO_HOLD)
        dice = log.header["dice"]
        self.per_seat = dice["scheme"] == "day"   # see dice_turn
        # a daily table played in rounds (core.rounds): seats sign their own place
        self.rounds = dice["scheme"] == "day" and dice.get("rounds") is True
        # a practice game: the state (and held dice) before the last write, which an
        # undo brings back (``core.undo``); None when the last move was no write
        self.undoable = log.header["mode"] in UNDO_MODES
        self.before_write: tuple[GameState, list[bool]] | None = None

    # ------------------------------------------------------------ creation
    @classmethod
    def create(cls, ruleset: str, seats: Sequence[Seat], seed: bytes, mode: Mode = "table",
               contributions: Sequence[bytes | None] | None = None,
               settings: GameSettings | None = None, meta: Meta | None = None,
               signer: Signer | None = None, seat_keys: Sequence[bytes | None] | None = None,
               stamp: Callable[[], float] | None = None) -> "Match":
        """A committed-seed game: ``seed`` is secret until ``finish``.  With ``signer`` (a
        relay's ``core.signing.Signer``) every record is signed, and ``seat_keys`` names
        the public key each human seat signs its intents with; ``stamp`` (a ranked run)
        gives each record's time in ms."""
        given = [None] * len(seats) if contributions is None else contributions
        contribs = [None if c is None else bytes(c) for c in given]
        key = dice_mod.game_key(seed, contribs)
        setup = Setup(ruleset, tuple(seats), dice_mod.first_seat(key, len(seats)))
        header = make_header(setup, mode, {"scheme": "commit", "commit": dice_mod.commitment(seed),
                                           "contributions": contribs}, settings, meta,
                             _signing(signer, seat_keys, len(seats)))
        return cls(setup, key, GameLog(header, keep_dicts=False, signer=signer, stamp=stamp),
                   {"seed": bytes(seed)})

    @classmethod
    def create_day(cls, date_iso: str, seats: Sequence[Seat], seed: bytes,
                   settings: GameSettings | None = None, meta: Meta | None = None,
                   signer: Signer | None = None,
                   seat_keys: Sequence[bytes | None] | None = None,
                   rounds: bool = False) -> "Match":
        """A relay's daily game, one seat or a table: the day's secret ``seed`` makes one
        key for everyone that day (``game_key(seed, [nil])``), each seat rolls the dice of
        its own k-th turn, and the key picks who starts.  ``yacht`` rules.  ``rounds``: a
        table played in simultaneous rounds (``core.rounds``), marked in the header."""
        key = dice_mod.game_key(seed, [None])
        setup = Setup(DAILY_RULESET, tuple(seats), dice_mod.first_seat(key, len(seats)))
        day: DayDice = {"scheme": "day", "commit": dice_mod.commitment(seed), "date": date_iso}
        if rounds:
            day["rounds"] = True
        header = make_header(setup, "daily", day, settings, meta,
                             _signing(signer, seat_keys, len(seats)))
        return cls(setup, key, GameLog(header, keep_dicts=False, signer=signer),
                   {"seed": bytes(seed)})

    @classmethod
    def create_daily(cls, date_iso: str, name: str, meta: Meta | None = None) -> "Match":
        """An offline daily challenge: public dice from the date, ``yacht`` rules."""
        key = dice_mod.daily_key(date_iso)
        setup = Setup("yacht", (Seat(name),), 0)
        header = make_header(setup, "daily", {"scheme": "public", "date": date_iso}, {}, meta)
        return cls(setup, key, GameLog(header, keep_dicts=False), {"date": date_iso})

    @classmethod
    def create_past_daily(cls, date_iso: str, name: str, meta: Meta | None = None,
                          settings: GameSettings | None = None) -> "Match":
        """A past day's offline daily played again as practice: the date's public dice,
        ``yacht`` rules, undo allowed, never a daily attempt or a board (mode ``practice``)."""
        key = dice_mod.daily_key(date_iso)
        setup = Setup(DAILY_RULESET, (Seat(name),), 0)
        header = make_header(setup, "practice", {"scheme": "public", "date": date_iso},
                             settings, meta)
        return cls(setup, key, GameLog(header, keep_dicts=False), {"date": date_iso})

    @classmethod
    def resumed(cls, header: Header, records: Sequence[MoveRecord], seed: bytes,
                signer: Signer | None = None,
                stamp: Callable[[], float] | None = None) -> "Match":
        """A committed-seed game made again from its header, its records so far and its
        secret ``seed`` (a relay's journal after a restart): the records' chain, every
        move's legality, its dice and its state hash are checked as they are folded, so
        a damaged journal is refused (``ValueError``, with the reason), never trusted."""
        dice = header["dice"]
        if dice["scheme"] == "public" or dice["commit"] != dice_mod.commitment(seed):
            raise ValueError("the seed is not the one the header commits to")
        key = game_key_from(dice, {"seed": bytes(seed)})
        setup = setup_from_header(header)
        if setup.first_seat != dice_mod.first_seat(key, len(setup.seats)):
            raise ValueError("the header's first seat is not the key's")
        if header["chain"] != chain_start(header):
            raise ValueError("the header was changed after it was written")
        log = GameLog(header, keep_dicts=False, signer=signer, stamp=stamp)
        match = cls(setup, key, log, {"seed": bytes(seed)})
        for rec in records:
            if rec.get("seq") != match.state.seq + 1 \
                    or rec.get("chain") != chain_next(log.last_chain, rec):
                raise ValueError(f"record {rec.get('seq')!r} does not follow the log")
            refusal = match._legal(rec["move"])
            if refusal is not None:
                raise ValueError(f"move {rec['seq']}: {refusal.message}")
            match._advance(rec["move"])
            if rec.get("state") != match.state.state_hash():
                raise ValueError(f"move {rec['seq']}: the state hash differs")
            log._add(rec, pack(rec))
        return match

    # ------------------------------------------------------------ playing
    @property
    def commitment(self) -> bytes | None:
        dice = self.log.header["dice"]
        return None if dice["scheme"] == "public" else dice["commit"]

    def roll(self, hold: Sequence[bool] | None = None, auto: bool = False, *,
             seat: int | None = None, intent: Intent | None = None) -> Outcome:
        """Roll the dice not in ``hold`` (five bools); without ``hold``, keep ``held``.

        Nothing may be held before the turn's first roll, and not all five."""
        st = self.state
        if st.active is None:
            return None, GAME_OVER
        who = st.active if seat is None else seat
        if hold is None:
            hold = self.roll_hold(who)
        refusal = check_roll(st, who, hold)
        if refusal is not None:
            return None, refusal
        kept = list(hold)
        dice = dice_mod.roll_dice(self.key, dice_turn(st, self.per_seat), st.rolls + 1, st.dice,
                                  kept)
        return self._fold({"type": "roll", "seat": who, "hold": kept, "dice": list(dice),
                           "auto": auto}, intent), None

    def roll_hold(self, seat: int) -> list[bool]:
        """What a roll by ``seat`` without a hold keeps (``kept_by_default``)."""
        return kept_by_default(self.state, seat, self.held)

    def hold(self, seat: int, mask: Sequence[bool]) -> Refusal | None:
        """The active seat announces the dice it holds (its next roll keeps them)."""
        refusal = check_hold(self.state, seat, mask)
        if refusal is None:
            self.held = list(mask)
        return refusal

    def write(self, box: str, auto: bool = False, *, seat: int | None = None,
              intent: Intent | None = None) -> Outcome:
        """Write the dice into ``box``; the turn passes."""
        active = self.state.active
        if active is None:
            return None, GAME_OVER
        who = active if seat is None else seat
        refusal = check_write(self.state, who, box)
        if refusal is not None:
            return None, refusal
        return self._fold({"type": "write", "seat": who, "box": box, "auto": auto}, intent), None

    def undo(self, seat: int | None = None) -> Outcome:
        """Take back ``seat``'s write just made (a practice game only, ``core.undo``): the
        dice, rolls and held dice before it come back; no die is dealt."""
        st = self.state
        who = (st.active if st.active is not None else 0) if seat is None else seat
        refusal = self._legal({"type": "undo", "seat": who})
        if refusal is not None:
            return None, refusal
        return self._fold({"type": "undo", "seat": who}), None

    def give_up(self, seat: int, why: GiveUpReason = "gave_up",
                intent: Intent | None = None) -> Outcome:
        """``seat`` stops playing (``why``: gave_up, left or away); any seat, any time."""
        refusal = check_give_up(self.state, seat, why)
        if refusal is not None:
            return None, refusal
        return self._fold({"type": "give_up", "seat": seat, "why": why}, intent), None

    def play(self, move: object) -> Outcome:
        """A whole move dict (as in a log): checked, and a roll's dice must be the key's."""
        refusal = self._legal(move)
        if refusal is not None:
            return None, refusal
        return self._fold(cast(Move, move)), None   # ``_legal`` found it a legal move

    def _legal(self, move: object) -> Refusal | None:
        """None when ``move`` may be folded now: core's question, a roll's dice the key's,
        an undo only in a practice game right after a write."""
        if self.undoable and isinstance(move, dict) and move.get("type") == "undo":
            return check_undo(self.state, move.get("seat"),
                              self.before_write[0] if self.before_write else None)
        refusal = check(self.state, move)
        if refusal is None and cast(Move, move)["type"] == "roll":
            refusal = dice_refusal(self.state, self.key, cast(RollMove, move), self.per_seat)
        return refusal

    def _advance(self, move: Move) -> None:
        """Fold a legal move into the state and the held dice (nothing logged)."""
        old, held = self.state, self.held
        if move["type"] == "undo" and self.before_write is not None:
            before, before_held = self.before_write
            self.state, self.held, self.before_write = undone(old, before), before_held, None
            return
        self.state = state = apply_legal(old, move)
        self.held = held_after(old, state, move, held)
        self.before_write = (old, list(held)) if self.undoable and move["type"] == "write" else None

    def _fold(self, move: Move, intent: Intent | None = None) -> MoveRecord:
        self._advance(move)
        rec, _ = self.log.append(move, self.state, intent)
        return rec

    # ------------------------------------------------------------ the end
    def finish(self, meta: Meta | None = None) -> EndRecord:
        """Reveal the seed and close the log; only once the game is over."""
        if not self.state.over:
            raise ValueError("the game is not over yet")
        end = self.log.end
        if end is None:
            end = self.log.finish(self.state, self._reveal, meta)
        return end

    @property
    def reveal(self) -> Reveal | None:
        """The reveal, available once the game is over."""
        return self._reveal.copy() if self.state.over else None


class Replay:
    """The fold of a ``Match`` for moves made elsewhere: a finished log being verified
    (with the revealed key, so every die is checked too) or a table being followed
    (without a key: the dice are the dealer's secret until the end)."""

    def __init__(self, setup: Setup, key: bytes | None = None, per_seat: bool = False,
                 undo: bool = False) -> None:
        self.setup = setup
        self.key = key
        self.per_seat = per_seat
        self.state: GameState = new_game(setup)
        # a practice log (``undo``): the state before the last write, which an undo
        # brings back (``core.undo``); None when the last move was no write
        self.undo = undo
        self.before_write: GameState | None = None

    def accept(self, move: object) -> Refusal | None:
        """Fold ``move`` if it is legal (and, with a key, its dice are the key's)."""
        state = self.state
        if self.undo and isinstance(move, dict) and move.get("type") == "undo":
            refusal = check_undo(state, move.get("seat"), self.before_write)
            if refusal is None and self.before_write is not None:
                self.state, self.before_write = undone(state, self.before_write), None
            return refusal
        refusal = check(state, move)
        if refusal is not None:
            return refusal
        legal = cast(Move, move)   # ``check`` found it a legal move
        if self.key is not None and legal["type"] == "roll":
            refusal = dice_refusal(state, self.key, legal, self.per_seat)
            if refusal is not None:
                return refusal
        self.state = apply_legal(state, legal)
        self.before_write = state if self.undo and legal["type"] == "write" else None
        return None
