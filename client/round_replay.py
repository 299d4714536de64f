"""The short replay of a daily round's reveal: the others' turns of round k, one seat after
another in the day's seat order, on their own columns, before this player's turn k+1.

At a daily table every seat plays its turn of the round in private (docs/fairness.md,
"Rounds played at the same time"); when the last one has written, the relay sends the
round's records together, in table order.  Landing all at once they would fill three
columns in one frame, so the window plays them back: a seat's held dice rise, the dice
roll, the box fills.  The relay starts every seat's next clock ``ROUND_REVEAL_SECONDS``
after the reveal, and the replay never runs past the time the clock says it waits
(``fit``): a replay never eats anybody's own turn, whatever the relay does.  Any key or
click ends it.  No pygame here: this is what is shown when; the table scene draws it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from bonanza.core.game import GameState, apply_legal
from bonanza.core.match import NO_HOLD
from bonanza.core.records import Move
from bonanza.core.rules import Sheet

# How long each part of a replayed move lasts at the normal pace, in seconds; the
# "fast" animation setting halves them, "instant" and "off" show no replay.
PACE = {"hold": 0.3, "roll": 0.55, "write": 0.7, "give_up": 0.6}
SPEED = {"normal": 1.0, "fast": 0.5}
# What the replay leaves of the clock's wait for a message's trip and a frame or two.
MARGIN = 0.5


@dataclass(frozen=True)
class Step:
    """One moment of the replay: ``kind`` (hold, roll, write, give_up) of ``seat``'s turn,
    the table as drawn then (``state``: that seat's dice and sheet, the others' as far as
    the replay has come) and the dice drawn held."""
    kind: str
    seat: int
    turn: int           # that seat's own turn the move belongs to (1 = its first)
    move: Move
    state: GameState
    held: tuple[bool, ...]
    seconds: float


def steps_of(before: GameState, moves: Sequence[Move], me: int | None, mine: Sheet | None,
             speed: float) -> tuple[list[Step], GameState]:
    """The replay's steps for ``moves`` (a round's records, in table order) folded onto
    ``before``, and the state after them.  This seat's own moves are folded but not shown
    again: its column keeps ``mine``, the sheet it already saw itself write."""
    steps: list[Step] = []
    st = before
    for move in moves:
        after = apply_legal(st, move)
        seat = move["seat"]
        turn = st.sheets[seat].filled_count + 1

        def add(part: str, state: GameState, held: Sequence[bool] = NO_HOLD, **kw: object) -> None:
            steps.append(Step(part, seat, turn, move, _with_mine(state, me, mine, **kw),
                              tuple(bool(h) for h in held), PACE[part] * speed))
        if seat == me:
            st = after           # already seen by this player, as it played it
            continue
        if move["type"] == "roll":
            if any(move["hold"]) and st.dice is not None:   # the kept dice rise, then the rest roll
                add("hold", st, move["hold"])
            add("roll", after, move["hold"])
        elif move["type"] == "write":
            # the dice stay in view while the box fills, and the turn still reads as theirs
            add("write", after, dice=st.dice, active=seat, rolls=st.rolls)
        else:
            add("give_up", after, active=seat)
        st = after
    return steps, st


def _with_mine(state: GameState, me: int | None, mine: Sheet | None, **kw: object) -> GameState:
    """``state`` with this seat's column as it already saw it (``mine``)."""
    sheets = state.sheets if me is None or mine is None else tuple(
        mine if c == me else sh for c, sh in enumerate(state.sheets))
    return replace(state, sheets=sheets, **kw)   # type: ignore[arg-type]


class RoundReplay:
    """The replay as it plays: ``advance`` moves it on with the frames, at its own pace or
    faster when the time left (``fit``) is shorter; ``step`` is what to draw now."""

    def __init__(self, steps: list[Step], now: float, budget: float) -> None:
        self.steps = list(steps)
        self.index = 0
        self.progress = 0.0                 # seconds of the replay's own pace played
        self.until = now + budget           # the replay is over by then, whatever is left

    @property
    def total(self) -> float:
        return sum(s.seconds for s in self.steps)

    @property
    def done(self) -> bool:
        return self.index >= len(self.steps)

    @property
    def step(self) -> Step | None:
        return None if self.done else self.steps[self.index]

    def extend(self, steps: list[Step]) -> None:
        """More of the reveal came (its records arrive one frame after another)."""
        self.steps.extend(steps)

    def fit(self, now: float, seconds: float) -> None:
        """The replay must be over within ``seconds`` from ``now`` (less a margin)."""
        self.until = min(self.until, now + seconds - MARGIN)

    def advance(self, now: float, dt: float) -> bool:
        """Play ``dt`` seconds on; True when another step began.  Faster than its own pace
        when what is left would not fit before ``until``; over at once when no time is left."""
        if self.done:
            return False
        if now >= self.until:
            self.index = len(self.steps)
            return True
        self.progress += dt * self.speed(now)
        start = self.index
        elapsed = sum(s.seconds for s in self.steps[:self.index + 1])
        while self.index < len(self.steps) and self.progress >= elapsed:
            self.index += 1
            if self.index < len(self.steps):
                elapsed += self.steps[self.index].seconds
        return self.index != start

    def speed(self, now: float) -> float:
        """How much faster than its own pace the replay plays now."""
        left = self.until - now
        rest = self.total - self.progress
        return 1.0 if rest <= 0 or left <= 0 else max(1.0, rest / left)
