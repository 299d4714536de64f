"""A daily table played in rounds: every seat plays its turn k at once, in private.

Around the table, a later seat sees the active seat's dice, and at a daily table those
are its own dice of the same turn (the day's dice depend only on a seat's own turn):
it would see them before rolling them.  So at a daily table marked ``rounds`` in its
header, every seat plays turn k at the same time, each on its own *view* (the game as
committed so far, with that seat to play), and sees nobody else's dice of turn k.
When every seat still playing has written turn k (or given up), the round's moves go
into the shared ``Match`` in table order, exactly as if the game had gone around the
table; the dice come out identical, since the match deals them from the same key,
own turn, roll and hold.  Then the round's records are shown to everyone together.

A seat playing in private cannot know the log position its move will get, so its
signed requests name its own place instead (``signed_point``: its own turn and the
rolls it made in it); ``core.verify`` checks that form in a ``rounds`` log.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence, Union, cast

from . import dice as dice_mod
from .game import (
    GameState,
    Refusal,
    apply_legal,
    check,
    check_give_up,
    check_hold,
    check_roll,
    check_write,
)
from .match import GAME_OVER, NO_HOLD, Match, held_after, kept_by_default
from .records import GiveUpReason, Intent, Move, MoveRecord

# What a seat's private move gives: the move as it will be logged, or why not.
Played = Union[tuple[Move, None], tuple[None, Refusal]]
NOT_YOURS = Refusal("not_your_turn", "your turn of this round is written: wait for the others")


def signed_point(state: GameState, seat: int) -> tuple[int, int]:
    """Where ``seat`` stands in its own game in ``state`` (its own turn, and the rolls it
    made in it; 0 when it is not the seat to play): what a seat signs at a daily table
    played in rounds instead of the last move it saw.  Each point is met once."""
    return state.sheets[seat].filled_count, state.rolls if state.active == seat else 0


def own_view(committed: GameState, seat: int) -> GameState:
    """The state a seat plays its turn of the round on: the game as committed, with that
    seat to play (or nobody, when it is out of the game)."""
    out = committed.over or committed.has_given_up(seat) or committed.sheets[seat].is_complete
    return replace(committed, active=None if out else seat, rolls=0, dice=None)


class OwnRound:
    """A seat's own moves of the round as its client follows them (``own_move``), on top
    of the game as committed; when the round's records come, the seat's must be exactly
    the moves it was shown (``confirm``), or the relay showed one thing and logged another."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.moves: list[Move] = []
        self.held: list[bool] = list(NO_HOLD)

    @property
    def done(self) -> bool:
        """This seat has played its turn of the round (wrote or gave up)."""
        return any(m["type"] != "roll" for m in self.moves)

    def view(self, committed: GameState) -> GameState:
        v = own_view(committed, self.seat)
        for move in self.moves:
            v = apply_legal(v, move)
        return v

    def take(self, committed: GameState, move: object, held: Sequence[bool] | None) -> str | None:
        """Fold a move the relay says this seat made; the reason when it cannot be."""
        v = self.view(committed)
        if not isinstance(move, dict) or move.get("seat") != self.seat:
            return "the relay showed a move of another seat during the round"
        if move.get("type") == "give_up" and v.active != self.seat:
            self.moves.append(cast(Move, move))   # after writing: logged after the round
            return None
        refusal = check(v, move)
        if refusal is not None:
            return f"the relay showed an illegal move: {refusal.message}"
        self.moves.append(cast(Move, move))
        self.held = list(held) if held is not None \
            else held_after(v, apply_legal(v, cast(Move, move)), cast(Move, move), self.held)
        return None

    def confirm(self, move: object) -> str | None:
        """A record of this seat's in the round's reveal: the next move it was shown."""
        if not self.moves:
            return "the relay logged a move this seat was never shown"
        shown = self.moves.pop(0)
        if shown != move:
            return "the relay logged another move than the one it showed this seat"
        if not self.moves:
            self.held = list(NO_HOLD)
        return None


class RoundPlay:
    """The current round of a daily table: each seat's private view and moves."""

    def __init__(self, match: Match) -> None:
        if not match.rounds:
            raise ValueError("this game is not played in rounds")
        self.match = match
        self._pending: dict[int, list[tuple[Move, Intent | None]]] = {}
        self._late: list[tuple[Move, Intent | None]] = []   # gave up after writing
        self._views: dict[int, GameState] = {}
        self._held: dict[int, list[bool]] = {}
        self._done: set[int] = set()        # wrote (or gave up) this round

    # ------------------------------------------------------------ a seat's view
    def view(self, seat: int) -> GameState:
        """The game as ``seat`` sees it now: everything committed, and its own moves of
        this round (with itself to play until it wrote)."""
        v = self._views.get(seat)
        return own_view(self.match.state, seat) if v is None else v

    def held(self, seat: int) -> list[bool]:
        return list(self._held.get(seat, NO_HOLD))

    def done(self, seat: int) -> bool:
        """``seat`` has nothing left to play this round (wrote, gave up, or is out)."""
        return seat in self._done or self.view(seat).active != seat

    def waiting_for(self) -> list[int]:
        """The seats still playing this round, in table order."""
        return [s for s in self.match.state.playing() if not self.done(s)]

    @property
    def complete(self) -> bool:
        return not self.match.state.over and not self.waiting_for()

    def moves(self, seat: int) -> list[Move]:
        """``seat``'s moves of this round so far (what it alone may be shown)."""
        return [m for m, _ in self._pending.get(seat, [])]

    # ------------------------------------------------------------ moves, in private
    def roll(self, seat: int, hold: Sequence[bool] | None = None, auto: bool = False,
             intent: Intent | None = None) -> Played:
        v = self.view(seat)
        if self.match.state.over:
            return None, GAME_OVER
        if seat in self._done:
            return None, NOT_YOURS
        if hold is None:
            hold = kept_by_default(v, seat, self.held(seat))
        refusal = check_roll(v, seat, hold)
        if refusal is not None:
            return None, refusal
        kept = list(hold)
        rolled = dice_mod.roll_dice(self.match.key, v.sheets[seat].filled_count, v.rolls + 1,
                                    v.dice, kept)
        return self._add(seat, {"type": "roll", "seat": seat, "hold": kept,
                                "dice": list(rolled), "auto": auto}, intent), None

    def hold(self, seat: int, mask: Sequence[bool]) -> Refusal | None:
        refusal = check_hold(self.view(seat), seat, mask)
        if refusal is None:
            self._held[seat] = list(mask)
        return refusal

    def write(self, seat: int, box: str, auto: bool = False,
              intent: Intent | None = None) -> Played:
        if self.match.state.over:
            return None, GAME_OVER
        v = self.view(seat)
        if seat in self._done:
            return None, NOT_YOURS
        refusal = check_write(v, seat, box)
        if refusal is not None:
            return None, refusal
        return self._add(seat, {"type": "write", "seat": seat, "box": box, "auto": auto},
                         intent), None

    def give_up(self, seat: int, why: GiveUpReason = "gave_up",
                intent: Intent | None = None) -> Played:
        """``seat`` stops: in its turn, at its place in the round; after writing, once
        the round's moves are in."""
        v = self.view(seat)
        refusal = check_give_up(v, seat, why)
        if refusal is not None:
            return None, refusal
        move: Move = {"type": "give_up", "seat": seat, "why": why}
        if v.active == seat:
            return self._add(seat, move, intent), None
        self._late.append((move, intent))
        self._views[seat] = apply_legal(v, move)
        return move, None

    def _add(self, seat: int, move: Move, intent: Intent | None) -> Move:
        v = self.view(seat)
        after = apply_legal(v, move)
        self._held[seat] = held_after(v, after, move, self.held(seat))
        self._pending.setdefault(seat, []).append((move, intent))
        if move["type"] != "roll":
            self._done.add(seat)
        self._views[seat] = after
        return move

    # ------------------------------------------------------------ the reveal
    def commit(self) -> list[MoveRecord]:
        """Every seat has played the round: its moves go into the match in table order
        (and any give-up made after writing, after them).  Returns the new records; the
        next round starts empty."""
        if not self.complete:
            raise ValueError("the round is not over: some seats are still playing")
        match = self.match
        records: list[MoveRecord] = []
        while match.state.active is not None and self._pending.get(match.state.active):
            seat = match.state.active
            for move, intent in self._pending.pop(seat):
                records.append(self._play(move, intent))
        for move, intent in self._late:
            if not match.state.over and check_give_up(match.state, move["seat"]) is None:
                records.append(self._play(move, intent))
        # A game that ended within the round (every other seat gave up: core's rule for a
        # table) drops the rest of it, as around the table.
        if self._pending and not match.state.over:
            raise RuntimeError("the round's moves did not fit the table order")
        self._pending, self._late, self._views, self._held = {}, [], {}, {}
        self._done = set()
        return records

    def _play(self, move: Move, intent: Intent | None) -> MoveRecord:
        m = self.match
        if move["type"] == "roll":
            rec, refusal = m.roll(move["hold"], move["auto"], seat=move["seat"], intent=intent)
        elif move["type"] == "write":
            rec, refusal = m.write(move["box"], move["auto"], seat=move["seat"], intent=intent)
        elif move["type"] == "give_up":
            rec, refusal = m.give_up(move["seat"], move["why"], intent)
        else:                   # an undo: practice games only, never a table in rounds
            rec, refusal = None, None
        if rec is None or rec["move"] != move:
            raise RuntimeError(f"a round's move did not replay: {refusal}")
        return rec
