"""Bot-only games, for ``bonanza simulate``, tests and benchmarks."""
from __future__ import annotations

from typing import Sequence

from .game import Seat
from .match import Match, kept_by_default
from .records import Meta

BOT_NAMES = ("Ada", "Bram", "Chloé", "Duarte")


def play_bot_turn(match: Match, policy: str) -> None:
    """Play the active seat's whole turn with ``policy``."""
    from .bots import choose  # the advisor's tables load on first use

    seat = match.state.active
    if seat is None:
        raise ValueError("the game is over: no turn to play")
    while True:  # a turn ends with a write; at most three rolls come before it
        st = match.state
        choice = choose(policy, st.ruleset, st.sheets[seat], st.dice, st.rolls_left)
        if choice[0] == "hold":
            _, refusal = match.roll(kept_by_default(st, seat, choice[1]), seat=seat)
        else:
            _, refusal = match.write(choice[1], seat=seat)
        if refusal is not None:  # a bot must never play an illegal move
            raise RuntimeError(f"bot {policy} played an illegal move: {refusal.message}")
        if choice[0] == "write":
            return


def simulate(ruleset: str, policies: Sequence[str], seed: bytes,
             meta: Meta | None = None) -> Match:
    seats = [Seat(f"{BOT_NAMES[i]} ({p})", "bot", p) for i, p in enumerate(policies)]
    match = Match.create(ruleset, seats, seed, mode="table" if len(seats) > 1 else "solo")
    while match.state.active is not None:   # until the game is over
        play_bot_turn(match, policies[match.state.active])
    match.finish(meta)
    return match
