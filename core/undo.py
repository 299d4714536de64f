"""Undo in a practice game: a written box taken back, never a roll.

A practice log (mode ``practice``) may hold ``{"type": "undo", "seat": s}`` right after
``s``'s write.  The game goes back to the state before that write — the same dice, the
same rolls left, the same turn — with the next ``seq``, so the state hash still names
one place in the log.  Nothing else can be taken back, and nothing can change a die:

* a roll is never undone (its dice were seen; taking it back would let a player peek);
* the next roll of the turn is dealt from the key by the same turn number, roll number
  and kept dice as it would have been without the write, so the dice after an undo are
  the dice the game would have dealt anyway (``kept_moves``: the moves that stand are a
  whole game without undo, with the very same dice);
* a hold is no move of the log (a roll records what it kept), so a hold taken back
  before the roll leaves no trace, as a die clicked twice leaves none.

``Match`` and ``Replay`` (``core.match``) keep the state before the last write and ask
``check_undo``; every other mode refuses an undo as an unknown move.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from .game import GameState, Refusal, check_give_up
from .logschema import MAX_MOVES
from .records import Mode, Move, WriteMove
from .rules import MAX_ROLLS, RULESETS

UNDO_MODES: tuple[Mode, ...] = ("practice",)
# No undo once the log is this long: what is left of any game (a roll or three and a write
# per box still free) still fits in the moves a log may hold (``logschema.MAX_MOVES``).
LAST_UNDO_SEQ = MAX_MOVES - (MAX_ROLLS + 1) * max(len(r.sheet) for r in RULESETS.values()) - 2


def check_undo(state: GameState, seat: Any, before_write: GameState | None) -> Refusal | None:
    """May ``seat`` take back its last write now?  Only while the game goes on, right
    after that seat's write (``before_write``: the state the write was made in)."""
    refusal = check_give_up(state, seat)      # seated, not over, still playing
    if refusal is not None and refusal.code != "seat_done":
        return refusal
    if before_write is None or before_write.active != seat:
        return Refusal("nothing_to_undo", "there is no write to take back since the last roll")
    if state.seq > LAST_UNDO_SEQ:
        return Refusal("too_many_undos", "this game has taken back as many writes as it may")
    return None


def undone(state: GameState, before_write: GameState) -> GameState:
    """The state after an undo: the one before the write, one move later."""
    return replace(before_write, seq=state.seq + 1)


def kept_moves(moves: Sequence[Move]) -> list[tuple[int, Move]]:
    """``(seq, move)`` of the moves that stand: every move but undos and the writes they
    took back.  For a log that verifies, these are a game without undo."""
    out: list[tuple[int, Move]] = []
    for seq, move in enumerate(moves, 1):
        if move["type"] == "undo":
            out.pop()                 # the write right before it (verify checked)
        else:
            out.append((seq, move))
    return out


def taken_back(moves: Sequence[Move]) -> list[tuple[int, WriteMove]]:
    """``(seq, write)`` of every write an undo took back, in order."""
    out: list[tuple[int, WriteMove]] = []
    for seq, move in enumerate(moves, 1):
        if move["type"] == "undo" and seq >= 2:
            before = moves[seq - 2]
            if before["type"] == "write":
                out.append((seq - 1, before))
    return out
