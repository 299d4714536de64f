"""Game state as a fold over an ordered list of moves.

A move is a plain dict (it travels through msgpack unchanged; its type is
``core.records.Move``):

    {"type": "roll",    "seat": s, "hold": [5 bools], "dice": [5 faces], "auto": bool}
    {"type": "write",   "seat": s, "box": name, "auto": bool}
    {"type": "give_up", "seat": s, "why": "gave_up" | "left" | "away"}

``check`` says why a move is illegal (a ``Refusal`` a player can read) or
returns None; it is built on the questions ``check_roll``, ``check_hold``,
``check_write`` and ``check_give_up`` that screens ask before offering an action.
``apply`` folds a legal move into a new immutable state.  Moves are made (and
their dice dealt) by ``core.match.Match`` only.  The
dice are part of the roll move because clients do not know the game key until
the reveal; the verifier recomputes them from the key afterwards.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Iterable, Mapping, Sequence, cast

import msgpack

from .records import (
    GIVE_UP_REASONS,
    SEAT_KINDS,
    GiveUpReason,
    Move,
    RefusalCode,
    SeatKind,
    SeatRecord,
    StandingRecord,
)
from .rules import MAX_ROLLS, NUM_DICE, Ruleset, Sheet, allowed_boxes, get_ruleset, joker_refusal, write

MAX_SEATS = 4


@dataclass(frozen=True)
class Seat:
    name: str
    kind: SeatKind = "human"
    policy: str | None = None    # the bot's policy ("optimal", "casual")

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    def to_dict(self) -> SeatRecord:
        return {"name": self.name, "kind": self.kind, "policy": self.policy}

    @classmethod
    def from_dict(cls, d: SeatRecord) -> "Seat":
        return cls(name=d["name"], kind=d["kind"], policy=d.get("policy"))


@dataclass(frozen=True)
class Setup:
    """What a game starts from; the log header carries it."""
    ruleset: str
    seats: tuple[Seat, ...]
    first_seat: int = 0

    @cached_property
    def packed(self) -> bytes:
        """The first three canonical state fields, encoded (see ``GameState.canonical``)."""
        return b"".join(_pack(v) for v in (
            self.ruleset, [[s.name, s.kind, s.policy] for s in self.seats], self.first_seat))

    def __post_init__(self) -> None:
        get_ruleset(self.ruleset)
        if not 1 <= len(self.seats) <= MAX_SEATS:
            raise ValueError(f"a game has 1 to {MAX_SEATS} seats")
        if not 0 <= self.first_seat < len(self.seats):
            raise ValueError("first seat out of range")
        for s in self.seats:
            if s.kind not in SEAT_KINDS:
                raise ValueError(f"seat kind must be human or bot, got {s.kind!r}")


@dataclass(frozen=True)
class Refusal:
    code: RefusalCode   # stable, translated by the client (``refusal.<code>``)
    message: str   # English, readable

    def __str__(self) -> str:
        return self.message


class IllegalMove(Exception):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


@dataclass(frozen=True)
class GameState:
    setup: Setup
    sheets: tuple[Sheet, ...]
    active: int | None                   # whose turn; None once the game is over
    turn: int = 0                        # global turn number, for dice derivation
    rolls: int = 0                       # rolls made in this turn
    dice: tuple[int, ...] | None = None
    gave_up: tuple[tuple[int, GiveUpReason], ...] = ()   # (seat, why) in the order given up
    seq: int = 0                         # moves applied so far

    @property
    def ruleset(self) -> Ruleset:
        return get_ruleset(self.setup.ruleset)

    @property
    def over(self) -> bool:
        return self.active is None

    @property
    def rolls_left(self) -> int:
        return MAX_ROLLS - self.rolls

    def has_given_up(self, seat: int) -> bool:
        return bool(self.gave_up) and any(s == seat for s, _ in self.gave_up)

    def playing(self) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.setup.seats)) if not self.has_given_up(i))

    def total(self, seat: int) -> int:
        return self.sheets[seat].total(self.ruleset)

    def canonical(self) -> list[object]:
        """A msgpack-ready value holding everything that decides the game."""
        return [
            self.setup.ruleset,
            [[s.name, s.kind, s.policy] for s in self.setup.seats],
            self.setup.first_seat,
            [sh.to_list() for sh in self.sheets],
            self.active, self.turn, self.rolls,
            list(self.dice) if self.dice is not None else None,
            [list(g) for g in self.gave_up],
            self.seq,
        ]

    def state_hash(self) -> bytes:
        """First 16 bytes of SHA-256 over ``packb(self.canonical())``.

        The relay hashes every move, so this is on its hot path: the hash of the parts
        that rarely change (the setup and the sheets) is kept with the state, and a roll
        passes it on to the next state (``apply_legal``); each move hashes its tail only.
        """
        head = self.__dict__.get(_HEAD)
        if head is None:
            sheets = self.sheets
            head = self.__dict__[_HEAD] = _sha256(b"".join((
                _HASH_HEAD,  # fixarray of the 10 canonical fields
                self.setup.packed,
                _FIXARRAY[len(sheets)],
                *[sheet.packed for sheet in sheets])))
        h = head.copy()
        # (msgpack packs a tuple as the array its list would be: the dice and gave_up
        # need no copy as lists)
        h.update(_pack([self.active, self.turn, self.rolls, self.dice, self.gave_up,
                        self.seq])[1:])  # without its fixarray byte
        return h.digest()[:16]


# Where a state keeps the hash of its setup and sheets (``state_hash``): beside its
# fields, so equality, ``repr`` and ``dataclasses.replace`` never see it.
_HEAD = "_hash_head"
_sha256 = hashlib.sha256
_pack: Callable[[object], bytes] = msgpack.Packer().pack   # packb's encoding without a Packer per call (for the builtin
                                # types packed here it never lets go of the GIL mid-pack)
_HASH_HEAD = b"\x9a"
_FIXARRAY = [bytes((0x90 + n,)) for n in range(16)]


def new_game(setup: Setup) -> GameState:
    empty = get_ruleset(setup.ruleset).empty_sheet()
    return GameState(setup=setup, sheets=tuple(empty for _ in setup.seats),
                     active=setup.first_seat)


# ---------------------------------------------------------------- checking
#
# One function per question a player (or a screen deciding what to enable) asks:
# may this seat roll, hold, write, give up now?  Each returns the Refusal or None,
# and ``check`` is built on them, so every rule is written once.  The order of the
# questions inside each is the order of the codes a player sees first.

def _refuse(code: RefusalCode, message: str) -> Refusal:
    return Refusal(code, message)


def _seated(state: GameState, seat: Any) -> Refusal | None:
    """The seat is at this table, the game goes on and the seat still plays."""
    if type(seat) is not int or not 0 <= seat < len(state.setup.seats):
        return _refuse("not_seated", "that seat is not at this table")
    if state.active is None:
        return _refuse("game_over", "the game is over")
    if state.gave_up and state.has_given_up(seat):
        return _refuse("seat_gave_up", "this seat has given up")
    return None


def _turn(state: GameState, seat: Any) -> Refusal | None:
    """``_seated``, and it is this seat's turn."""
    refusal = _seated(state, seat)
    active = state.active
    if refusal is None and active is not None and seat != active:   # _seated: not over
        return _refuse("not_your_turn", f"it is {state.setup.seats[active].name}'s turn")
    return refusal


def _mask(hold: Any) -> bool:
    """Five true/false values (True or False themselves, not 0 or 1)."""
    return isinstance(hold, (list, tuple)) and len(hold) == NUM_DICE and _bools(hold)


def _hold_refusal(state: GameState, hold: Any) -> Refusal | None:
    """What a roll may keep: five bools, nothing before the first roll, not all five."""
    if not _mask(hold):
        return _refuse("bad_hold", "hold must be five true/false values")
    if state.dice is None and True in hold:
        return _refuse("bad_hold", "nothing to hold before the first roll")
    if False not in hold:
        return _refuse("bad_hold", "all five dice are held: release one to roll")
    return None


def check_roll(state: GameState, seat: Any, hold: Any = None) -> Refusal | None:
    """May ``seat`` roll now, keeping ``hold``?  Without ``hold``: may it roll at all."""
    refusal = _turn(state, seat)
    if refusal is not None:
        return refusal
    if state.rolls >= MAX_ROLLS:
        return _refuse("no_rolls_left", "no rolls left: write the dice into a box")
    if hold is None:
        return None
    return _hold_refusal(state, hold)


def check_hold(state: GameState, seat: Any, mask: Any) -> Refusal | None:
    """May ``seat`` announce that it holds ``mask``?  Only the active seat, after a roll,
    with rolls left, and a mask of five bools (all five held is fine until it rolls)."""
    refusal = _turn(state, seat)
    if refusal is not None:
        return refusal
    if state.dice is None:
        return _refuse("must_roll_first", "roll the dice first")
    if state.rolls >= MAX_ROLLS:
        return _refuse("no_rolls_left", "no rolls left: write the dice into a box")
    if not _mask(mask):
        return _refuse("bad_hold", "held must be five true/false values")
    return None


def check_write(state: GameState, seat: Any, box: Any) -> Refusal | None:
    """May ``seat`` write its dice into ``box`` now?"""
    refusal = _turn(state, seat)
    if refusal is not None:
        return refusal
    ruleset = state.ruleset
    if type(box) is not str or box not in ruleset.layout.index:
        return _refuse("unknown_box", f"unknown box {repr(box)[:40]}")
    if state.dice is None:
        return _refuse("must_roll_first", "roll the dice first")
    sheet = state.sheets[seat]
    if not sheet.is_free(box):
        return _refuse("box_filled", f"the box {box} is already filled")
    why = joker_refusal(ruleset, sheet, state.dice, box)
    if why:
        return _refuse("joker_forces_box", why)
    return None


def check_give_up(state: GameState, seat: Any, why: Any = "gave_up") -> Refusal | None:
    """May ``seat`` give up now (for the reason ``why``)?  Any seat still playing may,
    in or out of its turn, unless its sheet is already complete."""
    refusal = _seated(state, seat)
    if refusal is None and state.sheets[seat].is_complete:
        # nothing is left to give up, and giving up would rank a finished sheet behind
        # every seat still playing
        return _refuse("seat_done", "this seat has filled every box: its score stands")
    if refusal is None and why not in GIVE_UP_REASONS:
        return _refuse("bad_move", "unknown reason for giving up")
    return refusal


def check(state: GameState, move: Any) -> Refusal | None:
    """None when ``move`` is legal in ``state``, else the reason it is not."""
    if not isinstance(move, dict):
        return _refuse("bad_move", "a move must be a map")
    kind = move.get("type")
    seat = move.get("seat")
    if kind == "roll":
        refusal = check_roll(state, seat)
        if refusal is None:
            refusal = _hold_refusal(state, move.get("hold")) or _dice_refusal(state, move)
        return refusal
    if kind == "write":
        return check_write(state, seat, move.get("box"))
    if kind == "give_up":
        return check_give_up(state, seat, move.get("why", "gave_up"))
    return _refuse("bad_move", f"unknown move type {kind!r}")


def _dice_refusal(state: GameState, move: Mapping[str, Any]) -> Refusal | None:
    """A roll's dice are five faces, and the held ones did not change (which faces the
    game key makes is the dealer's business: ``core.match``)."""
    new = move.get("dice")
    if not isinstance(new, (list, tuple)) or len(new) != NUM_DICE or not _faces(new):
        return _refuse("bad_dice", "a roll needs five dice from 1 to 6")
    hold, dice = move["hold"], state.dice
    if dice is not None and True in hold and any(h and a != b for h, a, b in zip(hold, dice, new)):
        return _refuse("bad_dice", "a held die changed")
    return None


def _bools(values: Iterable[object]) -> bool:
    """Every value is a bool (True or False themselves, not 0 or 1: bool has no
    subclasses, so its type says it)."""
    return _BOOL.issuperset(map(type, values))


_BOOL = frozenset((bool,))


def _faces(values: Iterable[object]) -> bool:
    """Every value is an int from 1 to 6."""
    for v in values:
        if type(v) is not int or not 1 <= v <= 6:
            return False
    return True


# ---------------------------------------------------------------- applying

def _next_active(state: GameState, after: int, sheets: Sequence[Sheet],
                 gave_up: tuple[tuple[int, GiveUpReason], ...]) -> int | None:
    """The next seat in seat order that still plays and has a free box."""
    n = len(state.setup.seats)
    if not gave_up:   # everybody plays
        for step in range(1, n + 1):
            seat = (after + step) % n
            if not sheets[seat].is_complete:
                return seat
        return None
    out = {s for s, _ in gave_up}
    playing = [i for i in range(n) if i not in out]
    if not playing or (n > 1 and len(playing) == 1):
        return None  # nobody left, or last seat standing wins at once
    for step in range(1, n + 1):
        seat = (after + step) % n
        if seat not in out and not sheets[seat].is_complete:
            return seat
    return None


_new_object = object.__new__
_set_attr = object.__setattr__


def _state(setup: Setup, sheets: tuple[Sheet, ...], active: int | None, turn: int, rolls: int,
           dice: tuple[int, ...] | None, gave_up: tuple[tuple[int, GiveUpReason], ...],
           seq: int, same_sheets: GameState | None = None) -> GameState:
    """``GameState(...)`` without the frozen dataclass's __init__ (a setattr per field):
    ``apply`` makes one per move.  Every field is given, so the result is equal to the
    dataclass-built state (tests compare).  ``same_sheets``: a state with this setup and
    these sheets, whose head hash (``state_hash``) this one starts from."""
    state = _new_object(GameState)
    fields = {"setup": setup, "sheets": sheets, "active": active, "turn": turn,
              "rolls": rolls, "dice": dice, "gave_up": gave_up, "seq": seq}
    if same_sheets is not None:
        head = same_sheets.__dict__.get(_HEAD)
        if head is not None:
            fields[_HEAD] = head
    _set_attr(state, "__dict__", fields)
    return state


def apply(state: GameState, move: object) -> GameState:
    """Fold a move into the state; raises IllegalMove for an illegal one."""
    refusal = check(state, move)
    if refusal is not None:
        raise IllegalMove(refusal)
    return apply_legal(state, cast(Move, move))   # ``check`` found it a legal move


def apply_legal(state: GameState, move: Move) -> GameState:
    """Fold a move that ``check`` (or the ``check_*`` question for its kind) found legal.

    For callers that asked already (``core.match``): the relay folds every move once.
    An unchecked move gives a wrong state or raises; use ``apply`` for moves from outside.
    """
    seq = state.seq + 1
    if move["type"] == "roll":
        return _state(state.setup, state.sheets, state.active, state.turn, state.rolls + 1,
                      tuple(move["dice"]), state.gave_up, seq, state)
    if move["type"] == "write":
        seat = move["seat"]               # the active seat: check_write refuses any other
        dice = state.dice
        if dice is None:                  # check_write refuses a write before a roll
            raise IllegalMove(Refusal("must_roll_first", "roll the dice first"))
        changed = list(state.sheets)
        changed[seat] = write(state.ruleset, changed[seat], dice, move["box"])
        sheets = tuple(changed)
        return _state(state.setup, sheets, _next_active(state, seat, sheets, state.gave_up),
                      state.turn + 1, 0, None, state.gave_up, seq)
    if move["type"] == "undo":      # needs the state before the write: core.match folds it
        raise IllegalMove(Refusal("bad_move", "an undo is folded with the game's history"))
    # give_up
    seat = move["seat"]
    gave_up = state.gave_up + ((seat, move.get("why", "gave_up")),)
    if seat == state.active:
        return _state(state.setup, state.sheets, _next_active(state, seat, state.sheets, gave_up),
                      state.turn + 1, 0, None, gave_up, seq)
    active = state.active
    if (active is not None and _next_active(state, active, state.sheets, gave_up) is None
            and len(state.setup.seats) > 1):
        active = None
    return _state(state.setup, state.sheets, active, state.turn, state.rolls, state.dice,
                  gave_up, seq)


def replay(setup: Setup, moves: Iterable[object]) -> list[GameState]:
    """Every state, from the start through each move."""
    states = [new_game(setup)]
    for m in moves:
        states.append(apply(states[-1], m))
    return states


def allowed(state: GameState) -> tuple[str, ...]:
    """Boxes the active seat may write now (empty before the first roll)."""
    if state.active is None or state.dice is None:   # over, or not rolled yet
        return ()
    return allowed_boxes(state.ruleset, state.sheets[state.active], state.dice)


@dataclass(frozen=True)
class Standing:
    seat: int
    name: str
    total: int
    place: int
    gave_up: GiveUpReason | None   # None, or why the seat stopped

    def to_dict(self) -> StandingRecord:
        return {"seat": self.seat, "name": self.name, "total": self.total,
                "place": self.place, "gave_up": self.gave_up}


def standings(state: GameState) -> list[Standing]:
    """Continuing seats by total with shared places (1, 1, 3); then those who
    gave up, the later one ahead."""
    out: list[Standing] = []
    continuing = sorted(state.playing(), key=lambda s: (-state.total(s), s))
    for i, seat in enumerate(continuing):
        if i and state.total(seat) == state.total(continuing[i - 1]):
            place = out[-1].place
        else:
            place = i + 1
        out.append(Standing(seat, state.setup.seats[seat].name, state.total(seat), place, None))
    for seat, why in reversed(state.gave_up):
        out.append(Standing(seat, state.setup.seats[seat].name, state.total(seat),
                            len(out) + 1, why))
    return out
