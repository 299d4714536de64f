"""Scoring for every box in both rulesets, every joker branch, and properties."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bonanza.core.rules import (
    BOXES,
    LOWER_BOXES,
    RULESETS,
    UPPER_BOXES,
    Sheet,
    allowed_boxes,
    condition_score,
    extra_bonus_for,
    points,
    preview,
    write,
)

BON, YACHT = RULESETS["bonanza"], RULESETS["yacht"]
dice_st = st.lists(st.integers(1, 6), min_size=5, max_size=5).map(tuple)


def sheet_with(**scores):
    s = [None] * 13
    for box, v in scores.items():
        s[BOXES.index(box)] = v
    return Sheet(tuple(s))


# (dice, box, points) by the box's own condition, both rulesets alike
CASES = [
    ((1, 1, 2, 3, 1), "ones", 3), ((2, 2, 2, 2, 6), "twos", 8), ((3, 1, 3, 1, 3), "threes", 9),
    ((4, 5, 6, 1, 2), "fours", 4), ((5, 5, 5, 5, 5), "fives", 25), ((1, 2, 3, 4, 5), "sixes", 0),
    ((6, 6, 6, 2, 1), "three_kind", 21), ((6, 6, 2, 2, 1), "three_kind", 0),
    ((4, 4, 4, 4, 4), "three_kind", 20), ((3, 3, 3, 3, 2), "four_kind", 14),
    ((3, 3, 3, 2, 2), "four_kind", 0), ((3, 3, 3, 2, 2), "full_house", 25),
    ((2, 3, 3, 2, 3), "full_house", 25), ((3, 3, 3, 3, 3), "full_house", 0),
    ((3, 3, 3, 3, 2), "full_house", 0), ((1, 2, 3, 4, 6), "small_straight", 30),
    ((3, 4, 5, 6, 6), "small_straight", 30), ((1, 2, 3, 5, 6), "small_straight", 0),
    ((2, 3, 4, 5, 6), "large_straight", 40), ((1, 2, 3, 4, 5), "large_straight", 40),
    ((1, 2, 3, 4, 6), "large_straight", 0), ((6, 6, 6, 6, 6), "bonanza", 50),
    ((6, 6, 6, 6, 5), "bonanza", 0), ((6, 5, 4, 3, 1), "chance", 19),
]


@pytest.mark.parametrize("dice,box,expected", CASES)
@pytest.mark.parametrize("ruleset", [BON, YACHT], ids=["bonanza", "yacht"])
def test_box_scores_on_an_empty_sheet(ruleset, dice, box, expected):
    assert points(ruleset, Sheet(), dice, box) == expected
    assert box in allowed_boxes(ruleset, Sheet(), dice)


def test_upper_bonus_at_63():
    s = sheet_with(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert s.upper_sum == 63 and s.total(BON) == 63 + 35
    s = sheet_with(ones=2, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert s.total(YACHT) == 62


class TestJoker:
    five_fours = (4, 4, 4, 4, 4)

    def test_first_bonanza_is_no_joker(self):
        assert allowed_boxes(BON, Sheet(), self.five_fours) == BOXES
        assert extra_bonus_for(BON, Sheet(), self.five_fours) == 0

    def test_forces_matching_upper_box_and_pays_bonus(self):
        s = sheet_with(bonanza=50)
        assert allowed_boxes(BON, s, self.five_fours) == ("fours",)
        after = write(BON, s, self.five_fours, "fours")
        assert after.get("fours") == 20 and after.extra_bonus == 50

    def test_upper_taken_any_free_lower_box_counts_in_full(self):
        s = sheet_with(bonanza=50, fours=8)
        assert allowed_boxes(BON, s, self.five_fours) == LOWER_BOXES[:5] + ("chance",)
        assert preview(BON, s, self.five_fours) == {
            "three_kind": 20, "four_kind": 20, "full_house": 25, "small_straight": 30,
            "large_straight": 40, "chance": 20}

    def test_no_lower_free_scratches_an_upper_box(self):
        lower_full = {b: 0 for b in LOWER_BOXES}
        lower_full["bonanza"] = 50
        s = sheet_with(fours=12, **lower_full)
        assert allowed_boxes(BON, s, self.five_fours) == ("ones", "twos", "threes", "fives", "sixes")
        after = write(BON, s, self.five_fours, "sixes")
        assert after.get("sixes") == 0 and after.extra_bonus == 50

    def test_scratched_bonanza_box_still_forces_but_pays_no_bonus(self):
        s = sheet_with(bonanza=0)
        assert allowed_boxes(BON, s, self.five_fours) == ("fours",)
        assert write(BON, s, self.five_fours, "fours").extra_bonus == 0
        s = sheet_with(bonanza=0, fours=4)
        assert points(BON, s, self.five_fours, "large_straight") == 40
        assert extra_bonus_for(BON, s, self.five_fours) == 0

    def test_forced_box_refuses_others(self):
        with pytest.raises(ValueError, match="joker forces fours"):
            write(BON, sheet_with(bonanza=50), self.five_fours, "chance")

    def test_yacht_has_no_joker(self):
        s = sheet_with(bonanza=50, fours=8)
        assert allowed_boxes(YACHT, s, self.five_fours) == s.free_boxes()
        assert points(YACHT, s, self.five_fours, "full_house") == 0
        assert points(YACHT, s, self.five_fours, "large_straight") == 0
        assert write(YACHT, s, self.five_fours, "chance").extra_bonus == 0


@given(dice_st)
def test_chance_is_the_sum(dice):
    assert condition_score("chance", dice) == sum(dice)


@given(dice_st)
def test_large_straight_is_a_small_straight(dice):
    if condition_score("large_straight", dice):
        assert condition_score("small_straight", dice) == 30


@given(dice_st)
def test_four_kind_is_a_three_kind(dice):
    if condition_score("four_kind", dice):
        assert condition_score("three_kind", dice) == sum(dice)


@given(dice_st)
def test_upper_boxes_sum_to_dice(dice):
    assert sum(condition_score(b, dice) for b in UPPER_BOXES) == sum(dice)


@given(dice_st, st.permutations(range(5)))
def test_scores_ignore_dice_order(dice, perm):
    shuffled = tuple(dice[i] for i in perm)
    for b in BOXES:
        assert condition_score(b, dice) == condition_score(b, shuffled)


@given(st.sampled_from([BON, YACHT]), dice_st,
       st.lists(st.sampled_from(BOXES), unique=True, max_size=12), st.data())
def test_write_fills_exactly_one_allowed_box(ruleset, dice, filled, data):
    sheet = sheet_with(**{b: data.draw(st.sampled_from([0, 50]) if b == "bonanza" else st.just(0))
                          for b in filled})
    allowed = allowed_boxes(ruleset, sheet, dice)
    assert allowed and set(allowed) <= set(sheet.free_boxes())
    box = data.draw(st.sampled_from(allowed))
    after = write(ruleset, sheet, dice, box)
    assert after.filled_count == sheet.filled_count + 1
    assert after.get(box) == points(ruleset, sheet, dice, box)
    assert after.total(ruleset) >= sheet.total(ruleset)
