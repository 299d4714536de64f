"""The confirmation rules of writing a box (pure logic, no pygame).

While rolls remain, writing asks once ("Register?"); scratching (0 points)
always asks ("Scratch?"); after the last roll a box with points is written on
the first click.  The second click (or Enter) on the pending box writes it;
Escape, a roll or another box cancels it.
"""
from __future__ import annotations

from core.game import GameState, allowed
from core.rules import BOXES, preview

REGISTER, SCRATCH = "register", "scratch"


class TurnInput:
    def __init__(self):
        self.selection: str | None = None
        self.pending: tuple[str, str] | None = None     # (box, REGISTER | SCRATCH)
        self.held = [False] * 5

    def reset_turn(self) -> None:
        self.pending = None
        self.held = [False] * 5

    def previews(self, state: GameState) -> dict[str, int]:
        if state.over or state.dice is None:
            return {}
        return preview(state.ruleset, state.sheets[state.active], state.dice)

    def click(self, state: GameState, box: str):
        """What a click (or Enter) on ``box`` means now.

        Returns ("write", box), ("ask", kind) after setting ``pending``, or
        ("refuse", code) with a ``refusal.<code>`` key."""
        if state.over:
            return ("refuse", "game_over")
        if state.dice is None:
            return ("refuse", "must_roll_first")
        sheet = state.sheets[state.active]
        if not sheet.is_free(box):
            return ("refuse", "box_filled")
        if box not in allowed(state):
            return ("refuse", "joker_forces_box")
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

    def move(self, state: GameState, step: int) -> None:
        """Move the selection over the free boxes of the active sheet."""
        if state.over:
            return
        free = [b for b in BOXES if state.sheets[state.active].is_free(b)]
        if not free:
            return
        self.pending = None
        if self.selection not in free:
            if self.selection in BOXES:
                i = BOXES.index(self.selection)
                after = [b for b in free if BOXES.index(b) > i]
                self.selection = (after[0] if after else free[0]) if step > 0 else (
                    ([b for b in free if BOXES.index(b) < i] or free)[-1])
            else:
                self.selection = free[0] if step > 0 else free[-1]
            return
        self.selection = free[(free.index(self.selection) + step) % len(free)]

    def ensure_selection(self, state: GameState, suggested: str | None = None) -> None:
        if state.over:
            return
        sheet = state.sheets[state.active]
        if self.selection is None or not sheet.is_free(self.selection):
            free = sheet.free_boxes()
            self.selection = suggested if suggested in free else (free[0] if free else None)
