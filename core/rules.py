"""Rulesets as data plus pure scoring.

A sheet is an immutable tuple of 13 box scores (``None`` while free) plus the
extra-Bonanza bonus collected so far.  Everything here is a pure function of
its arguments, so the game fold, the advisor, the relay and the verifier all
agree on every point.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

import msgpack

BOXES: tuple[str, ...] = (
    "ones", "twos", "threes", "fours", "fives", "sixes",
    "three_kind", "four_kind", "full_house", "small_straight",
    "large_straight", "bonanza", "chance",
)
UPPER_BOXES = BOXES[:6]
LOWER_BOXES = BOXES[6:]
BOX_INDEX = {name: i for i, name in enumerate(BOXES)}
NUM_BOXES = len(BOXES)
NUM_DICE = 5
MAX_ROLLS = 3

FULL_HOUSE_POINTS = 25
SMALL_STRAIGHT_POINTS = 30
LARGE_STRAIGHT_POINTS = 40
BONANZA_POINTS = 50

_pack = msgpack.Packer().pack     # msgpack.packb's encoding, without a new Packer per call


@dataclass(frozen=True)
class Ruleset:
    name: str
    joker: bool               # five equal with the Bonanza box filled is a joker
    extra_bonus: int          # per extra Bonanza while the Bonanza box holds 50
    upper_bonus: int = 35
    upper_threshold: int = 63


RULESETS: dict[str, Ruleset] = {
    "bonanza": Ruleset("bonanza", joker=True, extra_bonus=50),
    "yacht": Ruleset("yacht", joker=False, extra_bonus=0),
}


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r}; choose one of: {', '.join(RULESETS)}") from None


def check_dice(dice: Sequence[int]) -> tuple[int, ...]:
    """Validate five die faces; raise ValueError with a readable reason."""
    dice = tuple(dice)
    if len(dice) != NUM_DICE:
        raise ValueError(f"need exactly {NUM_DICE} dice, got {len(dice)}")
    for d in dice:
        if type(d) is not int or not 1 <= d <= 6:
            raise ValueError(f"a die shows 1 to 6, got {d!r}")
    return dice


def check_box(box: str) -> str:
    if box not in BOX_INDEX:
        raise ValueError(f"unknown box {box!r}; boxes are: {' '.join(BOXES)}")
    return box


def face_counts(dice: Sequence[int]) -> tuple[int, ...]:
    """Counts of faces 1..6."""
    counts = [0] * 6
    for d in dice:
        counts[d - 1] += 1
    return tuple(counts)


def _longest_run(counts: Sequence[int]) -> int:
    best = run = 0
    for c in counts:
        run = run + 1 if c else 0
        best = max(best, run)
    return best


def condition_score(box: str, dice: Sequence[int]) -> int:
    """Points of ``dice`` in ``box`` by the box's own condition (no joker)."""
    counts = face_counts(dice)
    total = sum(dice)
    i = BOX_INDEX[box]
    if i < 6:
        return counts[i] * (i + 1)
    top = max(counts)
    if box == "three_kind":
        return total if top >= 3 else 0
    if box == "four_kind":
        return total if top >= 4 else 0
    if box == "full_house":
        return FULL_HOUSE_POINTS if sorted(c for c in counts if c) == [2, 3] else 0
    if box == "small_straight":
        return SMALL_STRAIGHT_POINTS if _longest_run(counts) >= 4 else 0
    if box == "large_straight":
        return LARGE_STRAIGHT_POINTS if _longest_run(counts) >= 5 else 0
    if box == "bonanza":
        return BONANZA_POINTS if top == 5 else 0
    return total  # chance


# Points a joker scores in a lower box: "counts in full".
def _joker_lower_score(box: str, dice: Sequence[int]) -> int:
    if box == "full_house":
        return FULL_HOUSE_POINTS
    if box == "small_straight":
        return SMALL_STRAIGHT_POINTS
    if box == "large_straight":
        return LARGE_STRAIGHT_POINTS
    return condition_score(box, dice)


@dataclass(frozen=True)
class Sheet:
    """One player's score sheet: box scores in ``BOXES`` order, ``None`` = free."""

    scores: tuple[int | None, ...] = (None,) * NUM_BOXES
    extra_bonus: int = 0

    def __post_init__(self) -> None:
        if len(self.scores) != NUM_BOXES:
            raise ValueError("a sheet has 13 boxes")

    def get(self, box: str) -> int | None:
        return self.scores[BOX_INDEX[box]]

    def is_free(self, box: str) -> bool:
        return self.scores[BOX_INDEX[box]] is None

    def free_boxes(self) -> tuple[str, ...]:
        return tuple(b for b, s in zip(BOXES, self.scores) if s is None)

    def filled_mask(self) -> int:
        """Bit i set when box i is filled (the advisor's state index)."""
        return sum(1 << i for i, s in enumerate(self.scores) if s is not None)

    @property
    def filled_count(self) -> int:
        return sum(s is not None for s in self.scores)

    @property
    def is_complete(self) -> bool:
        return None not in self.scores

    @property
    def upper_sum(self) -> int:
        return sum(s or 0 for s in self.scores[:6])

    @property
    def lower_sum(self) -> int:
        return sum(s or 0 for s in self.scores[6:])

    def upper_bonus(self, ruleset: Ruleset) -> int:
        return ruleset.upper_bonus if self.upper_sum >= ruleset.upper_threshold else 0

    def total(self, ruleset: Ruleset) -> int:
        return self.upper_sum + self.upper_bonus(ruleset) + self.lower_sum + self.extra_bonus

    def to_list(self) -> list[object]:
        return [list(self.scores), self.extra_bonus]

    @cached_property
    def packed(self) -> bytes:
        """msgpack of ``to_list()``, cached: a sheet changes once a turn, states hash every move."""
        return _pack([list(self.scores), self.extra_bonus])


def is_joker(ruleset: Ruleset, sheet: Sheet, dice: Sequence[int]) -> bool:
    return ruleset.joker and max(face_counts(dice)) == 5 and not sheet.is_free("bonanza")


def allowed_boxes(ruleset: Ruleset, sheet: Sheet, dice: Sequence[int]) -> tuple[str, ...]:
    """Free boxes the rules let this roll go into, in ``BOXES`` order.

    Outside a joker every free box is allowed (a box whose condition fails is a
    scratch).  A joker forces: the matching upper box if free, else any free
    lower box, else any free upper box.
    """
    free = sheet.free_boxes()
    if not is_joker(ruleset, sheet, dice):
        return free
    upper = UPPER_BOXES[dice[0] - 1]
    if sheet.is_free(upper):
        return (upper,)
    lower = tuple(b for b in free if b in LOWER_BOXES)
    return lower or free


def points(ruleset: Ruleset, sheet: Sheet, dice: Sequence[int], box: str) -> int:
    """Points that writing ``dice`` into ``box`` puts in the box (bonuses excluded)."""
    if is_joker(ruleset, sheet, dice) and box in LOWER_BOXES:
        return _joker_lower_score(box, dice)
    return condition_score(box, dice)


def extra_bonus_for(ruleset: Ruleset, sheet: Sheet, dice: Sequence[int]) -> int:
    """The extra-Bonanza bonus this roll earns when written (any allowed box)."""
    if is_joker(ruleset, sheet, dice) and sheet.get("bonanza") == BONANZA_POINTS:
        return ruleset.extra_bonus
    return 0


def joker_refusal(ruleset: Ruleset, sheet: Sheet, dice: Sequence[int], box: str) -> str | None:
    """Why the joker forbids ``box`` (None when allowed or not a joker)."""
    if not is_joker(ruleset, sheet, dice):
        # Every free box is allowed: None for a free or a filled box (KeyError for an
        # unknown one, as below).
        sheet.is_free(box)
        return None
    if box in allowed_boxes(ruleset, sheet, dice) or not sheet.is_free(box):
        return None
    allowed = allowed_boxes(ruleset, sheet, dice)
    return "the joker forces " + (allowed[0] if len(allowed) == 1 else "a lower box")


def write(ruleset: Ruleset, sheet: Sheet, dice: Sequence[int], box: str) -> Sheet:
    """The sheet after writing ``dice`` into ``box``; ValueError if not allowed."""
    check_box(box)
    i = BOX_INDEX[box]
    scores = sheet.scores
    if scores[i] is not None:
        raise ValueError(f"box {box} is already filled")
    # Computed once for the check, the points and the bonus (allowed_boxes, points and
    # extra_bonus_for each ask it): outside a joker every free box is allowed.
    joker = is_joker(ruleset, sheet, dice)
    if joker and box not in allowed_boxes(ruleset, sheet, dice):
        raise ValueError(joker_refusal(ruleset, sheet, dice, box) or f"box {box} is not allowed")
    new = list(scores)
    if joker and box in LOWER_BOXES:
        new[i] = _joker_lower_score(box, dice)
    else:
        new[i] = condition_score(box, dice)
    extra = sheet.extra_bonus
    if joker and scores[_BONANZA] == BONANZA_POINTS:
        extra += ruleset.extra_bonus
    return _sheet(tuple(new), extra)


_BONANZA = BOX_INDEX["bonanza"]
_new_object = object.__new__
_set_attr = object.__setattr__


def _sheet(scores: tuple[int | None, ...], extra_bonus: int) -> Sheet:
    """``Sheet(scores, extra_bonus)`` for 13 scores, without the dataclass __init__."""
    sheet = _new_object(Sheet)
    _set_attr(sheet, "__dict__", {"scores": scores, "extra_bonus": extra_bonus})
    return sheet


def preview(ruleset: Ruleset, sheet: Sheet, dice: Sequence[int]) -> dict[str, int]:
    """What the dice would score in every allowed box (for the sheet previews)."""
    return {b: points(ruleset, sheet, dice, b) for b in allowed_boxes(ruleset, sheet, dice)}
