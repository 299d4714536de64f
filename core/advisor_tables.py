"""Fixed combinatorial tables shared by the advisor's builder and its queries.

Dice multisets of size 0..5 are numbered by size, then lexicographically, so
every multiset's "one die more" children have larger numbers and its "one die
less" parents smaller ones.  The 252 multisets of size 5 (the rolls) come last:
roll ``r`` is multiset ``FIRST_ROLL + r``.  Pure data, built once at import.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement

import numpy as np

from .rules import NUM_DICE, NUM_UPPER, RULESETS, Box, Ruleset, _joker_lower_score, box_score

NUM_MULTISETS = 462
NUM_ROLLS = 252

MULTISETS: tuple[tuple[int, ...], ...] = tuple(
    ms for size in range(NUM_DICE + 1)
    for ms in combinations_with_replacement(range(1, 7), size)
)
MULTISET_INDEX = {ms: i for i, ms in enumerate(MULTISETS)}
SIZE_START = tuple(
    sum(1 for ms in MULTISETS if len(ms) < s) for s in range(NUM_DICE + 2)
)  # multisets of size s are SIZE_START[s]:SIZE_START[s+1]
FIRST_ROLL = SIZE_START[NUM_DICE]
ROLLS = MULTISETS[FIRST_ROLL:]
assert len(MULTISETS) == NUM_MULTISETS and len(ROLLS) == NUM_ROLLS

# CHILDREN[k, f-1]: multiset k plus one die showing f (-1 for full multisets).
CHILDREN = np.full((NUM_MULTISETS, 6), -1, dtype=np.int32)
# PARENTS[k, j]: multiset k minus one die of its j-th distinct face (-1 padding).
PARENTS = np.full((NUM_MULTISETS, 5), -1, dtype=np.int32)
for _i, _ms in enumerate(MULTISETS):
    if len(_ms) < NUM_DICE:
        for _f in range(1, 7):
            CHILDREN[_i, _f - 1] = MULTISET_INDEX[tuple(sorted(_ms + (_f,)))]
    for _j, _f in enumerate(sorted(set(_ms))):
        _l = list(_ms)
        _l.remove(_f)
        PARENTS[_i, _j] = MULTISET_INDEX[tuple(_l)]

# Per roll: face counts.
COUNTS = np.array([[r.count(f) for f in range(1, 7)] for r in ROLLS], dtype=np.int32)
IS_YACHT = np.array([len(set(r)) == 1 for r in ROLLS], dtype=np.bool_)
FACE = np.array([r[0] for r in ROLLS], dtype=np.int32)  # meaningful for yachts only


@dataclass(frozen=True, eq=False)
class SheetTables:
    """A ruleset's boxes as numbers: per roll the condition points of every box and
    the joker points of every lower box; the yacht box's index; the full mask."""

    num_boxes: int
    full_mask: int
    yacht_box: int
    points: np.ndarray        # [roll, box] int32
    joker_points: np.ndarray  # [roll, box] int32 (0 in the upper boxes)
    points_t: np.ndarray      # [box, roll] float64, the queries' operand


_sheet_tables: dict[tuple[Box, ...], SheetTables] = {}


def sheet_tables(ruleset: Ruleset) -> SheetTables:
    """The tables of ``ruleset``'s sheet (made once per sheet kind)."""
    got = _sheet_tables.get(ruleset.sheet)
    if got is None:
        boxes = ruleset.boxes
        pts = np.array([[box_score(b, r) for b in ruleset.sheet] for r in ROLLS], dtype=np.int32)
        jok = np.array([[_joker_lower_score(b, r, ruleset) if i >= NUM_UPPER else 0
                         for i, b in enumerate(boxes)] for r in ROLLS], dtype=np.int32)
        got = _sheet_tables[ruleset.sheet] = SheetTables(
            len(boxes), (1 << len(boxes)) - 1, boxes.index(ruleset.yacht_box), pts, jok,
            np.ascontiguousarray(pts.T.astype(np.float64)))
    return got


# The classic sheet (bonanza, yacht), for the code that serves it alone.
_CLASSIC = sheet_tables(RULESETS["bonanza"])
POINTS = _CLASSIC.points
JOKER_POINTS = _CLASSIC.joker_points
BONANZA_BOX = _CLASSIC.yacht_box
FULL_MASK = _CLASSIC.full_mask


def upper_reachable(threshold: int) -> np.ndarray:
    """``R[m, u]``: upper total ``u`` (capped at ``threshold``) can stand on a
    sheet whose filled upper boxes are the bit set ``m`` (6 bits)."""
    reach = np.zeros((64, threshold + 1), dtype=np.bool_)
    for m in range(64):
        sums = {0}
        for f in range(6):
            if m >> f & 1:
                sums = {s + c * (f + 1) for s in sums for c in range(NUM_DICE + 1)}
        for s in sums:
            reach[m, min(s, threshold)] = True
    return reach


def upper_sums(upper_mask: int) -> frozenset[int]:
    """Exact (uncapped) upper totals possible for the filled upper boxes."""
    sums = {0}
    for f in range(6):
        if upper_mask >> f & 1:
            sums = {s + c * (f + 1) for s in sums for c in range(NUM_DICE + 1)}
    return frozenset(sums)


def no_bonus_floor(upper_mask: int, threshold: int) -> int:
    """Upper totals at or below this value can no longer reach the threshold,
    so they all share one value (the table stores it at the floor)."""
    future = sum(NUM_DICE * (f + 1) for f in range(6) if not upper_mask >> f & 1)
    return max(0, threshold - future - 1)
