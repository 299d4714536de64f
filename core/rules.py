"""Rulesets as data plus pure scoring.

A ruleset names its boxes in sheet order, each with the rule that scores it
(``Box``): the classic 13-box sheet of ``bonanza`` and ``yacht`` and the 15-box
Scandinavian sheet of ``yatzy`` are the same code reading different data.  A
sheet is an immutable tuple of box scores (``None`` while free) plus the
extra-Bonanza bonus collected so far.  Everything here is a pure function of
its arguments, so the game fold, the advisor, the relay and the verifier all
agree on every point.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Sequence

import msgpack

NUM_DICE = 5
MAX_ROLLS = 3
NUM_UPPER = 6             # every sheet starts with Ones..Sixes, in face order

FULL_HOUSE_POINTS = 25
SMALL_STRAIGHT_POINTS = 30
LARGE_STRAIGHT_POINTS = 40
BONANZA_POINTS = 50       # five equal in the five-of-a-kind box, on every sheet

_pack = msgpack.Packer().pack     # msgpack.packb's encoding, without a new Packer per call


@dataclass(frozen=True)
class Box:
    """A box and how it scores (``box_score``).

    rule  ``face``: the dice showing face ``n``;  ``kind_sum``: all dice if some
    face shows ``n`` times;  ``kind``: ``n`` dice of the highest face shown at
    least ``n`` times;  ``two_pairs``: two pairs of two different faces, those
    four dice;  ``full_house``: exactly three of one face and two of another,
    ``points`` (0: the sum of the dice);  ``run``: ``n`` consecutive faces,
    ``points``;  ``straight``: the five faces ``n``..``n+4``, ``points``;
    ``yacht``: five equal, ``points``;  ``chance``: all dice.
    """

    name: str
    rule: str
    n: int = 0
    points: int = 0


def _upper() -> tuple[Box, ...]:
    names = ("ones", "twos", "threes", "fours", "fives", "sixes")
    return tuple(Box(b, "face", f) for f, b in enumerate(names, 1))


CLASSIC_SHEET: tuple[Box, ...] = _upper() + (
    Box("three_kind", "kind_sum", 3), Box("four_kind", "kind_sum", 4),
    Box("full_house", "full_house", 0, FULL_HOUSE_POINTS),
    Box("small_straight", "run", 4, SMALL_STRAIGHT_POINTS),
    Box("large_straight", "run", 5, LARGE_STRAIGHT_POINTS),
    Box("bonanza", "yacht", 5, BONANZA_POINTS), Box("chance", "chance"),
)
# The peer solver's default ``yatzy-scandinavian``: five equal are neither a full
# house nor two pairs, four equal are not two pairs; straights are exact.
SCANDINAVIAN_SHEET: tuple[Box, ...] = _upper() + (
    Box("one_pair", "kind", 2), Box("two_pairs", "two_pairs"),
    Box("three_kind", "kind", 3), Box("four_kind", "kind", 4),
    Box("small_straight", "straight", 1, 15), Box("large_straight", "straight", 2, 20),
    Box("full_house", "full_house"), Box("chance", "chance"),
    Box("yatzy", "yacht", 5, BONANZA_POINTS),
)


class SheetLayout:
    """A sheet's box names in order and their indexes (one instance per sheet kind)."""

    _made: dict[tuple[str, ...], SheetLayout] = {}

    def __init__(self, names: tuple[str, ...]):
        self.names = names
        self.index = {b: i for i, b in enumerate(names)}
        self.upper = names[:NUM_UPPER]
        self.lower = names[NUM_UPPER:]

    @classmethod
    def of(cls, names: tuple[str, ...]) -> SheetLayout:
        got = cls._made.get(names)
        if got is None:
            got = cls._made[names] = cls(names)
        return got

    def __len__(self) -> int:
        return len(self.names)


@dataclass(frozen=True)
class Ruleset:
    name: str
    joker: bool               # five equal with the Bonanza box filled is a joker
    extra_bonus: int          # per extra Bonanza while the Bonanza box holds 50
    upper_bonus: int = 35
    upper_threshold: int = 63
    sheet: tuple[Box, ...] = field(default=CLASSIC_SHEET, repr=False)

    @cached_property
    def layout(self) -> SheetLayout:
        return SheetLayout.of(tuple(b.name for b in self.sheet))

    @property
    def boxes(self) -> tuple[str, ...]:
        return self.layout.names

    @cached_property
    def yacht_box(self) -> str:
        """The five-of-a-kind box (the joker and the extra bonus look at it)."""
        return next(b.name for b in self.sheet if b.rule == "yacht")

    @cached_property
    def rule_of(self) -> dict[str, Box]:
        return {b.name: b for b in self.sheet}

    def empty_sheet(self) -> Sheet:
        return _sheet((None,) * len(self.sheet), 0, self.layout)


RULESETS: dict[str, Ruleset] = {
    "bonanza": Ruleset("bonanza", joker=True, extra_bonus=50),
    "yacht": Ruleset("yacht", joker=False, extra_bonus=0),
    "yatzy": Ruleset("yatzy", joker=False, extra_bonus=0, upper_bonus=50,
                     sheet=SCANDINAVIAN_SHEET),
}

# The classic sheet's boxes (bonanza and yacht): code that serves one sheet
# kind only reads these; everything ruleset-aware reads ``Ruleset.boxes``.
CLASSIC = SheetLayout.of(tuple(b.name for b in CLASSIC_SHEET))
BOXES: tuple[str, ...] = CLASSIC.names
UPPER_BOXES = CLASSIC.upper
LOWER_BOXES = CLASSIC.lower
BOX_INDEX = CLASSIC.index
NUM_BOXES = len(BOXES)
ALL_BOXES: frozenset[str] = frozenset(b.name for rs in RULESETS.values() for b in rs.sheet)


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


def check_box(box: str, ruleset: Ruleset | None = None) -> str:
    layout = ruleset.layout if ruleset is not None else CLASSIC
    if box not in layout.index:
        raise ValueError(f"unknown box {box!r}; boxes are: {' '.join(layout.names)}")
    return box


def face_counts(dice: Sequence[int]) -> tuple[int, ...]:
    """Counts of faces 1..6."""
    return _face_counts(dice if type(dice) is tuple else tuple(dice))


@lru_cache(maxsize=8192)   # every roll there is (6**5 = 7776): a write asks up to three times
def _face_counts(dice: tuple[int, ...]) -> tuple[int, ...]:
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


def box_score(rule: Box, dice: Sequence[int]) -> int:
    """Points of ``dice`` in a box by the box's own condition (no joker)."""
    counts = face_counts(dice)
    kind = rule.rule
    n = rule.n
    if kind == "face":
        return counts[n - 1] * n
    if kind == "chance":
        return sum(dice)
    if kind == "kind_sum":
        return sum(dice) if max(counts) >= n else 0
    if kind == "kind":
        return next((n * f for f in range(6, 0, -1) if counts[f - 1] >= n), 0)
    if kind == "two_pairs":
        pairs = [f for f in range(6, 0, -1) if counts[f - 1] >= 2]
        return 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0
    if kind == "full_house":
        if sorted(c for c in counts if c) != [2, 3]:
            return 0
        return rule.points or sum(dice)
    if kind == "run":
        return rule.points if _longest_run(counts) >= n else 0
    if kind == "straight":
        return rule.points if all(counts[f - 1] == 1 for f in range(n, n + 5)) else 0
    if kind == "yacht":
        return rule.points if max(counts) == 5 else 0
    raise ValueError(f"unknown box rule {kind!r}")


def condition_score(box: str, dice: Sequence[int], ruleset: Ruleset | None = None) -> int:
    """Points of ``dice`` in ``box`` by the box's own condition (no joker); the
    classic sheet unless a ruleset is given."""
    rs = ruleset if ruleset is not None else RULESETS["bonanza"]
    return box_score(rs.rule_of[box], dice)


# Points a joker scores in a lower box: "counts in full".
def _joker_lower_score(box: str, dice: Sequence[int], ruleset: Ruleset | None = None) -> int:
    rs = ruleset if ruleset is not None else RULESETS["bonanza"]
    rule = rs.rule_of[box]
    if rule.rule in ("full_house", "run", "straight") and rule.points:
        return rule.points
    return box_score(rule, dice)


class _Packed:
    """``Sheet.packed``: made at its first read and kept in the sheet's own attributes.
    (``functools.cached_property`` does the same, but on Python 3.11 it takes a lock at
    every first read, and the relay makes a new sheet every turn.)"""

    def __get__(self, sheet: Sheet | None, owner: type | None = None) -> bytes:
        if sheet is None:
            raise AttributeError("packed is read from a sheet")
        packed: bytes = _pack([list(sheet.scores), sheet.extra_bonus])
        sheet.__dict__["packed"] = packed     # read from there from now on
        return packed


@dataclass(frozen=True)
class Sheet:
    """One player's score sheet: box scores in its layout's order, ``None`` = free.

    ``Sheet()`` is an empty classic sheet; ``Ruleset.empty_sheet()`` any ruleset's."""

    scores: tuple[int | None, ...] = (None,) * NUM_BOXES
    extra_bonus: int = 0
    layout: SheetLayout = field(default=CLASSIC, compare=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.scores) != len(self.layout):
            raise ValueError(f"a sheet has {len(self.layout)} boxes")

    def get(self, box: str) -> int | None:
        return self.scores[self.layout.index[box]]

    def is_free(self, box: str) -> bool:
        return self.scores[self.layout.index[box]] is None

    def free_boxes(self) -> tuple[str, ...]:
        return tuple(b for b, s in zip(self.layout.names, self.scores) if s is None)

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
        return sum(s or 0 for s in self.scores[:NUM_UPPER])

    @property
    def lower_sum(self) -> int:
        return sum(s or 0 for s in self.scores[NUM_UPPER:])

    def upper_bonus(self, ruleset: Ruleset) -> int:
        return ruleset.upper_bonus if self.upper_sum >= ruleset.upper_threshold else 0

    def total(self, ruleset: Ruleset) -> int:
        return self.upper_sum + self.upper_bonus(ruleset) + self.lower_sum + self.extra_bonus

    def to_list(self) -> list[object]:
        return [list(self.scores), self.extra_bonus]

    # msgpack of ``to_list()``, kept: a sheet changes once a turn, states hash every move
    packed = _Packed()


def is_joker(ruleset: Ruleset, sheet: Sheet, dice: Sequence[int]) -> bool:
    return ruleset.joker and max(face_counts(dice)) == 5 and not sheet.is_free(ruleset.yacht_box)


def allowed_boxes(ruleset: Ruleset, sheet: Sheet, dice: Sequence[int]) -> tuple[str, ...]:
    """Free boxes the rules let this roll go into, in the sheet's order.

    Outside a joker every free box is allowed (a box whose condition fails is a
    scratch).  A joker forces: the matching upper box if free, else any free
    lower box, else any free upper box.
    """
    free = sheet.free_boxes()
    if not is_joker(ruleset, sheet, dice):
        return free
    upper = sheet.layout.upper[dice[0] - 1]
    if sheet.is_free(upper):
        return (upper,)
    lower = tuple(b for b in free if b in sheet.layout.lower)
    return lower or free


def points(ruleset: Ruleset, sheet: Sheet, dice: Sequence[int], box: str) -> int:
    """Points that writing ``dice`` into ``box`` puts in the box (bonuses excluded)."""
    if is_joker(ruleset, sheet, dice) and box in sheet.layout.lower:
        return _joker_lower_score(box, dice, ruleset)
    return box_score(ruleset.rule_of[box], dice)


def extra_bonus_for(ruleset: Ruleset, sheet: Sheet, dice: Sequence[int]) -> int:
    """The extra-Bonanza bonus this roll earns when written (any allowed box)."""
    if is_joker(ruleset, sheet, dice) and sheet.get(ruleset.yacht_box) == BONANZA_POINTS:
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
    layout = sheet.layout
    if layout is not ruleset.layout:
        raise ValueError(f"a {ruleset.name} game needs its own sheet of {len(ruleset.sheet)} boxes")
    check_box(box, ruleset)
    i = layout.index[box]
    scores = sheet.scores
    if scores[i] is not None:
        raise ValueError(f"box {box} is already filled")
    # Computed once for the check, the points and the bonus (allowed_boxes, points and
    # extra_bonus_for each ask it): outside a joker every free box is allowed.
    joker = is_joker(ruleset, sheet, dice)
    if joker and box not in allowed_boxes(ruleset, sheet, dice):
        raise ValueError(joker_refusal(ruleset, sheet, dice, box) or f"box {box} is not allowed")
    new = list(scores)
    if joker and i >= NUM_UPPER:
        new[i] = _joker_lower_score(box, dice, ruleset)
    else:
        new[i] = box_score(ruleset.rule_of[box], dice)
    extra = sheet.extra_bonus
    if joker and scores[layout.index[ruleset.yacht_box]] == BONANZA_POINTS:
        extra += ruleset.extra_bonus
    return _sheet(tuple(new), extra, layout)


_new_object = object.__new__
_set_attr = object.__setattr__


def _sheet(scores: tuple[int | None, ...], extra_bonus: int, layout: SheetLayout) -> Sheet:
    """``Sheet(scores, extra_bonus, layout)`` without the dataclass __init__."""
    sheet = _new_object(Sheet)
    _set_attr(sheet, "__dict__", {"scores": scores, "extra_bonus": extra_bonus, "layout": layout})
    return sheet


def preview(ruleset: Ruleset, sheet: Sheet, dice: Sequence[int]) -> dict[str, int]:
    """What the dice would score in every allowed box (for the sheet previews)."""
    return {b: points(ruleset, sheet, dice, b) for b in allowed_boxes(ruleset, sheet, dice)}
