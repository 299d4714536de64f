"""Win chances by playing the rest of the game out with the optimal policy."""
from __future__ import annotations

import math
import os

import numpy as np
import pytest

from bonanza.core.advisor import get_advisor
from bonanza.core.game import Seat, Setup, new_game
from bonanza.core.match import Replay
from bonanza.core.rules import Sheet
from bonanza.core.simulate import simulate
from bonanza.core.winchance import SAMPLES, remaining_points, win_chances_mc


@pytest.fixture(scope="module")
def advisor(shared_cache_dir):
    os.environ["BONANZA_CACHE_DIR"] = str(shared_cache_dir)
    return get_advisor("bonanza")


def _within(samples: np.ndarray, expected: float, sigmas: float = 4.0) -> bool:
    se = samples.std(ddof=1) / math.sqrt(len(samples))
    return abs(samples.mean() - expected) <= sigmas * se


def test_an_empty_sheet_plays_out_to_the_tables_expectation(advisor):
    rest = remaining_points(advisor, Sheet(), None, 3, np.random.default_rng(3))
    assert len(rest) == SAMPLES and _within(rest, advisor.expected_start())


@pytest.mark.parametrize("seed", [1, 2])
def test_mid_turn_play_outs_match_the_advisors_value(advisor, seed):
    """A sheet half filled, dice in hand with one roll left: the mean of the play-outs is
    the advisor's expectation for that very situation (optimal play from here)."""
    m = simulate("bonanza", ["optimal"], bytes([seed]) * 32)
    rp = Replay(m.setup)
    for rec in m.log.records:
        rp.accept(rec["move"])
        st = rp.state
        if st.sheets[0].filled_count == 6 and st.rolls == 2:
            break
    sheet, dice = st.sheets[0], st.dice
    rest = remaining_points(advisor, sheet, dice, 1, np.random.default_rng(seed))
    # the advisor's expectation is of the points still to come, from these dice
    assert _within(rest, advisor.advise(sheet, dice, 1).expected)


def test_chances_sum_to_one_and_end_at_the_result(advisor):
    m = simulate("bonanza", ["casual", "optimal", "casual"], b"\x05" * 32)
    rp = Replay(m.setup)
    cache: dict = {}
    rng = np.random.default_rng(9)
    for k, rec in enumerate(m.log.records):
        rp.accept(rec["move"])
        if k % 40 == 0 or rp.state.over:
            chances = win_chances_mc(advisor, rp.state, rng, cache=cache)
            assert abs(sum(chances) - 1) < 1e-9 and all(0 <= c <= 1 for c in chances)
    totals = [rp.state.total(i) for i in range(3)]
    best = max(totals)
    assert chances == [1.0 / totals.count(best) if t == best else 0.0 for t in totals]


def test_a_seat_that_gave_up_has_no_chance_and_a_full_sheet_is_its_total(advisor):
    st = new_game(Setup("bonanza", (Seat("A"), Seat("B"), Seat("C")), 0))
    from bonanza.core.game import apply
    st = apply(st, {"type": "give_up", "seat": 2, "why": "left"})
    chances = win_chances_mc(advisor, st, np.random.default_rng(1))
    assert chances[2] == 0.0 and abs(chances[0] - 0.5) < 0.05 and abs(sum(chances) - 1) < 1e-9


def test_cached_seats_are_not_played_out_again(advisor):
    st = new_game(Setup("bonanza", (Seat("A"), Seat("B")), 0))
    cache: dict = {}
    win_chances_mc(advisor, st, np.random.default_rng(1), cache=cache)
    assert len(cache) == 1          # two identical seats: one play-out
