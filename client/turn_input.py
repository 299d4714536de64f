"""The confirmation rules of writing a box (pure logic, no pygame).

While rolls remain, writing asks once ("Write?"); scratching (0 points)
always asks ("Scratch?"); after the last roll a box with points is written on
the first click.  The second click (or Enter) on the pending box writes it;
Escape, a roll or another box cancels it.
"""
from __future__ import annotations

from bonanza.core.game import GameState, allowed, check_write
from bonanza.core.rules import preview

REGISTER, SCRATCH = "register", "scratch"


class TurnInput:
    def __init__(self) -> None:
        self.selection: str | None = None
        self.pending: tuple[str, str] | None = None     # (box, REGISTER | SCRATCH)
        self.held = [False] * 5

    def reset_turn(self) -> None:
        self.pending = None
        self.held = [False] * 5

    def previews(self, state: GameState) -> dict[str, int]:
        if state.active is None or state.dice is None:     # the game is over, or not rolled yet
            return {}
        return preview(state.ruleset, state.sheets[state.active], state.dice)

    def click(self, state: GameState, box: str):
        """What a click (or Enter) on ``box`` means now.

        Returns ("write", box), ("ask", kind) after setting ``pending``, or
        ("refuse", code) with a ``refusal.<code>`` key."""
        refusal = check_write(state, state.active, box)
        if refusal is not None:
            return ("refuse", refusal.code)
        self.selection = box
        if self.pending is not None and self.pending[0] == box:
            self.pending = None
            return ("write", box)
        pts = self.previews(state).get(box, 0)
        if pts == 0:
            self.pending = (box, SCRATCH)
            return ("ask", SCRATCH)
        if state.rolls_left > 0:
            self.pending = (box, REGISTER)
            return ("ask", REGISTER)
        self.pending = None
        return ("write", box)

    def cancel(self) -> bool:
        had = self.pending is not None
        self.pending = None
        return had

    @staticmethod
    def choosable(state: GameState) -> list[str]:
        """Boxes the selection moves over: the allowed ones once the dice are rolled (a
        joker forces its box), every free box before."""
        if state.active is None:        # the game is over
            return []
        if state.dice is not None:
            return list(allowed(state))
        return list(state.sheets[state.active].free_boxes())

    def move(self, state: GameState, step: int) -> None:
        """Move the selection over the boxes that can be written now."""
        free = self.choosable(state)
        if not free:
            return
        self.pending = None
        if self.selection not in free:
            order = state.ruleset.layout.index
            if self.selection in order:
                i = order[self.selection]
                after = [b for b in free if order[b] > i]
                self.selection = (after[0] if after else free[0]) if step > 0 else (
                    ([b for b in free if order[b] < i] or free)[-1])
            else:
                self.selection = free[0] if step > 0 else free[-1]
            return
        self.selection = free[(free.index(self.selection) + step) % len(free)]

    def ensure_selection(self, state: GameState, suggested: str | None = None) -> None:
        if state.over:
            return
        ok = self.choosable(state)
        if self.selection is None or self.selection not in ok:
            self.selection = suggested if suggested in ok else (ok[0] if ok else None)
