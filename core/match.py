"""A game in progress together with its dice key and its log.

The relay runs one per table, the client one per solo or daily game, and
``bonanza simulate`` one per bot game.  Secrets come in from the caller
(``secrets.token_bytes`` in the relay or client), which keeps ``core`` free of
global randomness.
"""
from __future__ import annotations

from typing import Sequence

from . import dice as dice_mod
from .game import (GameState, Refusal, Seat, Setup, give_up_move, new_game, play,
                   roll_move, write_move)
from .log import GameLog, make_header


class Match:
    def __init__(self, setup: Setup, key: bytes, log: GameLog, reveal: dict):
        self.setup = setup
        self.key = key
        self.log = log
        self._reveal = reveal
        self.state: GameState = new_game(setup)

    # ------------------------------------------------------------ creation
    @classmethod
    def create(cls, ruleset: str, seats: Sequence[Seat], seed: bytes, mode: str = "table",
               contributions: Sequence[bytes | None] | None = None,
               settings: dict | None = None, meta: dict | None = None) -> "Match":
        """A committed-seed game: ``seed`` is secret until ``finish``."""
        if contributions is None:
            contributions = [None] * len(seats)
        contributions = [None if c is None else bytes(c) for c in contributions]
        key = dice_mod.game_key(seed, contributions)
        setup = Setup(ruleset, tuple(seats), dice_mod.first_seat(key, len(seats)))
        header = make_header(setup, mode, {"scheme": "commit", "commit": dice_mod.commitment(seed),
                                           "contributions": contributions}, settings, meta)
        return cls(setup, key, GameLog(header), {"seed": bytes(seed)})

    @classmethod
    def create_daily(cls, date_iso: str, name: str, meta: dict | None = None) -> "Match":
        """An offline daily challenge: public dice from the date, ``yacht`` rules."""
        key = dice_mod.daily_key(date_iso)
        setup = Setup("yacht", (Seat(name),), 0)
        header = make_header(setup, "daily", {"scheme": "public", "date": date_iso}, {}, meta)
        return cls(setup, key, GameLog(header), {"date": date_iso})

    # ------------------------------------------------------------ playing
    @property
    def commitment(self) -> bytes | None:
        return self.log.header["dice"].get("commit")

    def play(self, move: dict) -> tuple[dict | None, Refusal | None]:
        """Apply a move; on success append it to the log and return its record."""
        state, refusal = play(self.state, move)
        if refusal is not None:
            return None, refusal
        self.state = state
        return self.log.append(move, state), None

    def roll(self, hold: Sequence[bool] = (False,) * 5, auto: bool = False):
        if self.state.over:
            return None, Refusal("game_over", "the game is over")
        return self.play(roll_move(self.state, self.key, hold, auto))

    def write(self, box: str, auto: bool = False):
        if self.state.over:
            return None, Refusal("game_over", "the game is over")
        return self.play(write_move(self.state, box, auto))

    def give_up(self, seat: int, why: str = "gave_up"):
        return self.play(give_up_move(seat, why))

    def finish(self, meta: dict | None = None) -> dict:
        """Reveal the seed and close the log; only once the game is over."""
        if not self.state.over:
            raise ValueError("the game is not over yet")
        if self.log.end is None:
            self.log.finish(self.state, self._reveal, meta)
        return self.log.end

    @property
    def reveal(self) -> dict | None:
        """The reveal, available once the game is over."""
        return dict(self._reveal) if self.state.over else None
