"""Move dicts built by hand, for tests that drive ``core.game`` without a ``Match``.

The game never builds moves this way: a ``core.match.Match`` makes every move (it deals
the dice itself).  These builders deal like a match does — the same dice rule
(``dice_turn``) and the same "nothing is held before the first roll"
(``kept_by_default``) — so a hand-built game replays like a real one.
"""
from __future__ import annotations

from typing import Sequence

from bonanza.core import dice as dice_mod
from bonanza.core.game import GameState, Refusal, apply, check
from bonanza.core.match import NO_HOLD, dice_turn, kept_by_default
from bonanza.core.records import GiveUpMove, GiveUpReason, RollMove, WriteMove


def roll_move(state: GameState, key: bytes, hold: Sequence[bool] = NO_HOLD,
              auto: bool = False, *, per_seat: bool = False) -> RollMove:
    """The active seat's roll keeping ``hold``, with the dice ``key`` deals: for the game's
    turn, or with ``per_seat`` (a daily table: ``Match.create_day``) for the seat's own turn.
    Before the turn's first roll nothing is kept, whatever ``hold`` says."""
    seat = state.active
    if seat is None:
        raise ValueError("the game is over: nobody rolls")
    kept = kept_by_default(state, seat, [bool(h) for h in hold])
    dice = dice_mod.roll_dice(key, dice_turn(state, per_seat), state.rolls + 1, state.dice, kept)
    return {"type": "roll", "seat": seat, "hold": kept, "dice": list(dice), "auto": auto}


def write_move(state: GameState, box: str, auto: bool = False) -> WriteMove:
    seat = state.active
    if seat is None:
        raise ValueError("the game is over: nobody writes")
    return {"type": "write", "seat": seat, "box": box, "auto": auto}


def give_up_move(seat: int, why: GiveUpReason = "gave_up") -> GiveUpMove:
    return {"type": "give_up", "seat": seat, "why": why}


def play(state: GameState, move: object) -> tuple[GameState, Refusal | None]:
    """Like ``apply`` but never raises: (new state, None) or (old state, refusal)."""
    refusal = check(state, move)
    if refusal is not None:
        return state, refusal
    return apply(state, move), None
