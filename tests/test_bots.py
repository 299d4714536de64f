"""Bots: legal, deterministic moves; the optimal bot reaches the table's expectation."""
from __future__ import annotations

import importlib.util
import math
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bonanza.core.advisor import get_advisor
from bonanza.core.bots import choose
from bonanza.core.rules import BOXES, RULESETS, Sheet, allowed_boxes, write

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def advisors(tmp_path_factory):
    cache = tmp_path_factory.getbasetemp() / "advisor-cache"
    os.environ["BONANZA_CACHE_DIR"] = str(cache)
    return {name: get_advisor(name) for name in ("bonanza", "yacht")}


@pytest.fixture(scope="session")
def sim():
    spec = importlib.util.spec_from_file_location("advisor_sim", ROOT / "bench" / "advisor_sim.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def play(policy, ruleset, dice):
    """One solo game with dice[t, j, i] as in bench/advisor_sim.py; the final total."""
    rs = RULESETS[ruleset]
    sheet = Sheet()
    for t in range(13):
        assert choose(policy, rs, sheet, None, 3) == ("hold", (False,) * 5)
        cur = [int(x) for x in dice[t, 0]]
        for j in (1, 2):
            action, arg = choose(policy, rs, sheet, tuple(cur), 3 - j)
            if action == "write":
                break
            assert action == "hold" and len(arg) == 5 and not all(arg)
            cur = [c if h else int(dice[t, j, i]) for i, (c, h) in enumerate(zip(cur, arg))]
        else:
            action, arg = choose(policy, rs, sheet, tuple(cur), 0)
            assert action == "write"
        assert arg in allowed_boxes(rs, sheet, cur)
        sheet = write(rs, sheet, cur, arg)
    assert sheet.is_complete
    return sheet.total(rs)


def test_before_first_roll_both_roll(advisors):
    for p in ("optimal", "casual"):
        assert choose(p, "bonanza", Sheet(), None, 3) == ("hold", (False,) * 5)


def test_unknown_policy():
    with pytest.raises(ValueError):
        choose("genius", "bonanza", Sheet(), (1, 2, 3, 4, 5), 2)


def test_optimal_follows_advice(advisors):
    adv = advisors["bonanza"]
    a = adv.advise(Sheet(), (3, 3, 3, 6, 6), 0)
    assert choose("optimal", "bonanza", Sheet(), (3, 3, 3, 6, 6), 0) == ("write", a.boxes[0].box)
    a = adv.advise(Sheet(), (6, 3, 1, 3, 3), 2)
    assert choose("optimal", "bonanza", Sheet(), (6, 3, 1, 3, 3), 2) == ("hold", a.holds[0].mask)
    assert a.holds[0].mask == (False, True, False, True, True)
    # a made large straight on an empty sheet is written at once
    assert choose("optimal", "bonanza", Sheet(), (2, 3, 4, 5, 6), 2) == ("write", "large_straight")


def test_optimal_games_match_the_simulator(advisors, sim):
    """The bench simulator and core.bots play identical games on the same dice."""
    for ruleset in ("bonanza", "yacht"):
        dice = sim.draw_dice(12, seed=11)
        fast = sim.run_sim(advisors[ruleset], 12, seed=11)
        slow = [play("optimal", ruleset, dice[g]) for g in range(12)]
        assert list(fast) == slow


@pytest.mark.parametrize("ruleset", ["bonanza", "yacht"])
def test_optimal_mean_matches_table(advisors, sim, ruleset):
    n = 2000
    scores = sim.run_sim(advisors[ruleset], n, seed=2025)
    se = scores.std(ddof=1) / math.sqrt(n)
    assert abs(scores.mean() - advisors[ruleset].expected_start()) <= 4 * se


def test_casual_plays_legal_games_and_is_beatable(advisors, sim):
    dice = sim.draw_dice(40, seed=5)
    casual = [play("casual", "bonanza", dice[g]) for g in range(40)]
    optimal = sim.run_sim(advisors["bonanza"], 40, seed=5)
    assert 120 < np.mean(casual) < np.mean(optimal)
    # deterministic: same dice, same game
    assert play("casual", "bonanza", dice[0]) == casual[0]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, (1 << 13) - 2), st.lists(st.integers(1, 6), min_size=5, max_size=5),
       st.integers(0, 2), st.sampled_from(["bonanza", "yacht"]), st.booleans())
@example(mask=1 << 11, dice=[1, 1, 1, 1, 1], rolls_left=1, ruleset="yacht", b50=False)  # held all five
def test_casual_moves_are_legal(mask, dice, rolls_left, ruleset, b50):
    rs = RULESETS[ruleset]
    scores = tuple(None if not mask >> i & 1 else (50 if BOXES[i] == "bonanza" and b50 else 0)
                   for i in range(13))
    sheet = Sheet(scores)
    action, arg = choose("casual", rs, sheet, tuple(dice), rolls_left)
    assert choose("casual", rs, sheet, tuple(dice), rolls_left) == (action, arg)
    if action == "write":
        assert arg in allowed_boxes(rs, sheet, dice)
    else:
        assert action == "hold" and rolls_left > 0 and len(arg) == 5 and not all(arg)


def test_levels_are_ordered_easy_medium_hard_perfect(advisors):
    """A small seeded run of bench/bot_levels.py: the levels' averages in order."""
    from bonanza.core.settings import BOT_LEVELS, seed_from_text
    from bonanza.core.simulate import simulate
    means = []
    for level in BOT_LEVELS:
        scores = []
        for i in range(60):
            m = simulate("bonanza", [level], seed_from_text(f"levels {i}"))
            scores.append(m.state.sheets[0].total(m.state.ruleset))
        means.append(sum(scores) / len(scores))
    assert means == sorted(means) and len(set(means)) == 4, means


@settings(max_examples=60, deadline=None)
@given(st.integers(0, (1 << 13) - 1), st.lists(st.integers(1, 6), min_size=5, max_size=5),
       st.integers(0, 2))
def test_old_names_play_as_their_levels_and_every_level_is_legal(advisors, mask, dice, rolls_left):
    rs = RULESETS["bonanza"]
    sheet = Sheet(tuple(0 if mask >> i & 1 else None for i in range(13)))
    if sheet.is_complete:
        return
    assert choose("medium", rs, sheet, tuple(dice), rolls_left) == choose("casual", rs, sheet, tuple(dice), rolls_left)
    assert choose("perfect", rs, sheet, tuple(dice), rolls_left) == choose("optimal", rs, sheet, tuple(dice),
                                                                             rolls_left)
    for level in ("easy", "hard"):
        action, arg = choose(level, rs, sheet, tuple(dice), rolls_left)
        assert choose(level, rs, sheet, tuple(dice), rolls_left) == (action, arg)   # the same every time
        if action == "write":
            assert arg in allowed_boxes(rs, sheet, dice)
        else:
            assert rolls_left > 0 and len(arg) == 5 and not all(arg)
