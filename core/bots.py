"""Bots: deterministic policies over the rules API.

``choose(policy, ruleset, sheet, dice, rolls_left)`` answers either
``("hold", mask)`` (roll the dice not held; ``mask`` is relative to ``dice``)
or ``("write", box)``.  With ``dice=None`` (turn not rolled yet) the answer is
``("hold", (False,) * 5)``: roll everything.

* ``optimal`` plays the exact advisor: it rerolls only when the best hold is
  strictly better than writing the best box now.
* ``casual`` plays like a decent human: keeps its most common face (the
  higher face on a tie), goes for straights with 3-4 in sequence, keeps a
  made full house, straight or Bonanza, writes the highest-scoring box
  (upper boxes preferred with 3+ of a face) and otherwise scratches the least
  valuable box.

The levels a host chooses (``core.settings.BOT_LEVELS``), each with its style:

* ``easy`` goes for the obvious: keeps its most common face, writes whatever
  scores most right now, and now and then slips (writes its second choice).
* ``medium`` is ``casual``.
* ``hard`` is the advisor with an occasional near miss: now and then it takes
  the advisor's second choice when that costs little.
* ``perfect`` is ``optimal``.

The older names stay (logs name their bots' policies).  A slip is decided by a
hash of the situation (sheet, dice, rolls left), never by a random source: the
same situation always gets the same answer, so a game replays exactly.
"""
from __future__ import annotations

import hashlib
from typing import Literal, Sequence, Union

from .match import NO_HOLD
from .rules import (
    BONANZA_POINTS,
    Ruleset,
    Sheet,
    allowed_boxes,
    check_dice,
    extra_bonus_for,
    face_counts,
    get_ruleset,
    points,
)

POLICIES = ("optimal", "casual", "easy", "medium", "hard", "perfect")
# One in this many situations, a slip (easy: its second box; hard: a close second choice).
EASY_SLIP = 5
HARD_SLIP = 4
HARD_SLIP_COST = 4.0     # hard only slips to a choice at most this many expected points worse

# A bot's answer: roll keeping a mask of the dice (relative to ``dice``), or write a box.
BotAction = Union[tuple[Literal["hold"], tuple[bool, ...]], tuple[Literal["write"], str]]
ROLL_ALL: BotAction = ("hold", NO_HOLD)   # before the turn's first roll nothing is held


def choose(policy_name: str, ruleset: Ruleset | str, sheet: Sheet,
           dice: Sequence[int] | None, rolls_left: int) -> BotAction:
    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    if dice is None:
        return ROLL_ALL
    dice = check_dice(dice)
    if policy_name in ("optimal", "perfect"):
        return _optimal(rs, sheet, dice, rolls_left)
    if policy_name in ("casual", "medium"):
        return _casual(rs, sheet, dice, rolls_left)
    if policy_name == "hard":
        return _hard(rs, sheet, dice, rolls_left)
    if policy_name == "easy":
        return _easy(rs, sheet, dice, rolls_left)
    raise ValueError(f"unknown bot policy {policy_name!r}; choose one of: {', '.join(POLICIES)}")


def _slips(level: str, sheet: Sheet, dice: tuple[int, ...], rolls_left: int, one_in: int) -> bool:
    """Whether this level slips in this situation: a hash of it, so the same every time."""
    text = f"{level}|{sheet.scores}|{dice}|{rolls_left}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:4], "big") % one_in == 0


def _optimal(rs: Ruleset, sheet: Sheet, dice: tuple[int, ...], rolls_left: int) -> BotAction:
    from .advisor import get_advisor
    adv = get_advisor(rs.name)
    if adv.ruleset != rs:
        raise ValueError(f"no advisor for a modified ruleset {rs.name!r}")
    advice = adv.advise(sheet, dice, rolls_left)
    if advice.holds and advice.holds[0].expected > advice.boxes[0].expected:
        return ("hold", advice.holds[0].mask)
    return ("write", advice.boxes[0].box)


# ---------------------------------------------------------------- casual
# What a human roughly expects a box to be worth; scratch the cheapest free one.
_SCRATCH_COST = {
    "ones": 2, "twos": 5, "threes": 8, "fours": 11, "fives": 14, "sixes": 17,
    "three_kind": 18, "four_kind": 12, "full_house": 20, "small_straight": 22,
    "large_straight": 24, "bonanza": 10, "chance": 21,
    "one_pair": 6, "two_pairs": 9, "yatzy": 10,           # the yatzy sheet's own boxes
}


def _mask_for(dice: tuple[int, ...], keep: Sequence[int]) -> tuple[bool, ...]:
    left = list(keep)
    out = []
    for d in dice:
        if d in left:
            left.remove(d)
            out.append(True)
        else:
            out.append(False)
    return tuple(out)


def _straight_keep(dice: tuple[int, ...]) -> list[int]:
    """Longest run of distinct faces (3+), highest run on a tie."""
    faces = sorted(set(dice))
    best: list[int] = []
    run: list[int] = []
    for f in faces:
        run = run + [f] if run and f == run[-1] + 1 else [f]
        if len(run) >= len(best):
            best = list(run)
    return best if len(best) >= 3 else []


def _write_choice(rs: Ruleset, sheet: Sheet, dice: tuple[int, ...]) -> str:
    allowed = allowed_boxes(rs, sheet, dice)
    counts = face_counts(dice)
    bonus = extra_bonus_for(rs, sheet, dice)
    best_box, best_score = None, None
    for box in allowed:
        p = points(rs, sheet, dice, box)
        if p == 0:
            continue
        i = sheet.layout.index[box]
        score = p + bonus
        if i < 6:
            score += 12 if counts[i] >= 3 else -6  # upper boxes want 3+ of their face
        elif box in ("three_kind", "four_kind", "chance") and sum(dice) < 20:
            score -= 8  # a low sum is worth keeping these boxes for later
        if box == "chance":
            score -= 4
        if best_score is None or score > best_score:
            best_box, best_score = box, score
    if best_box is not None:
        return best_box
    return min(allowed, key=lambda b: (_SCRATCH_COST[b], sheet.layout.index[b]))


def _casual(rs: Ruleset, sheet: Sheet, dice: tuple[int, ...], rolls_left: int) -> BotAction:
    counts = face_counts(dice)
    free = set(sheet.free_boxes())
    if rolls_left == 0:
        return ("write", _write_choice(rs, sheet, dice))
    top = max(counts)
    # Made hands a human would take at once.
    yacht = rs.yacht_box
    if top == 5 and (sheet.is_free(yacht) or sheet.get(yacht) == BONANZA_POINTS or rs.joker):
        return ("write", _write_choice(rs, sheet, dice))
    run = _straight_keep(dice)
    # (On the yatzy sheet the straights are exact faces: a box is taken when it scores.)
    if len(run) == 5 and "large_straight" in free and points(rs, sheet, dice, "large_straight"):
        return ("write", "large_straight")
    if sorted(c for c in counts if c) == [2, 3] and "full_house" in free:
        return ("write", "full_house")
    if (len(run) >= 4 and "small_straight" in free and ("large_straight" not in free or len(run) == 5)
            and points(rs, sheet, dice, "small_straight")):
        return ("write", "small_straight")
    # Go for straights with 3-4 in sequence when a straight box is open and
    # no face shows three or more times.
    if top < 3 and len(run) >= 3 and ({"small_straight", "large_straight"} & free):
        # Five in a row that the open straight does not take (exact straights on the yatzy
        # sheet): 2-3-4-5 is the way to either.
        return ("hold", _mask_for(dice, [2, 3, 4, 5] if len(run) == 5 else run))
    # Keep the most common face (the higher one on a tie).
    face = max(range(6), key=lambda f: (counts[f], f)) + 1
    keep = [face] * counts[face - 1]
    if counts[face - 1] == 1:
        keep = [d for d in dice if d >= 5][:2] or [max(dice)]
    mask = _mask_for(dice, keep)
    if all(mask):  # five equal with nowhere better to go: rolling none is not a move
        return ("write", _write_choice(rs, sheet, dice))
    return ("hold", mask)


# ---------------------------------------------------------------- hard and easy
def _hard(rs: Ruleset, sheet: Sheet, dice: tuple[int, ...], rolls_left: int) -> BotAction:
    best = _optimal(rs, sheet, dice, rolls_left)
    if not _slips("hard", sheet, dice, rolls_left, HARD_SLIP):
        return best
    from .advisor import get_advisor
    advice = get_advisor(rs.name).advise(sheet, dice, rolls_left)
    options: list[tuple[float, BotAction]] = [(b.expected, ("write", b.box)) for b in advice.boxes]
    options += [(h.expected, ("hold", h.mask)) for h in advice.holds if not all(h.mask)]
    top = max(e for e, _ in options)
    # the best choice other than the one it would make, if it costs little
    near = [(e, a) for e, a in options if a != best and top - e <= HARD_SLIP_COST]
    if not near:
        return best
    return max(near, key=lambda o: o[0])[1]


def _easy(rs: Ruleset, sheet: Sheet, dice: tuple[int, ...], rolls_left: int) -> BotAction:
    counts = face_counts(dice)
    top = max(counts)
    if rolls_left > 0 and top < 5:
        face = max(range(6), key=lambda f: (counts[f], f)) + 1
        return ("hold", _mask_for(dice, [face] * counts[face - 1]))
    allowed = allowed_boxes(rs, sheet, dice)
    ranked = sorted(allowed, key=lambda b: (-points(rs, sheet, dice, b), _SCRATCH_COST[b],
                                            sheet.layout.index[b]))
    if len(ranked) > 1 and _slips("easy", sheet, dice, rolls_left, EASY_SLIP):
        return ("write", ranked[1])
    return ("write", ranked[0])
