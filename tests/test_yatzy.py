"""The yatzy ruleset: its sheet as data, its exact advisor (the peer's figure), bots and logs.

The table is built once per session into the shared cache (about 15 s on a cold cache,
a load after that); everything else here is a few seconds."""
from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bonanza.core import advisor_cache
from bonanza.core.advisor import Advisor, get_advisor, turn_start_value
from bonanza.core.advisor_build import layer_states
from bonanza.core.advisor_tables import sheet_tables, upper_sums
from bonanza.core.bots import choose
from bonanza.core.game import Seat, check_write
from bonanza.core.match import Match, kept_by_default
from bonanza.core.rules import RULESETS, Sheet, allowed_boxes, points, write
from bonanza.core.simulate import simulate
from bonanza.core.verify import verify_bytes

YATZY = RULESETS["yatzy"]
PEER_YATZY_SCANDINAVIAN = 248.4399893778553   # yatzy-solver 1.0.0, "yatzy-scandinavian"
FULL = (1 << 15) - 1


@pytest.fixture(scope="module")
def yatzy(shared_cache_dir) -> Advisor:
    os.environ["BONANZA_CACHE_DIR"] = str(shared_cache_dir)
    return get_advisor("yatzy")


def sheet_of(mask: int, yatzy50: bool = False) -> Sheet:
    return Sheet(tuple(None if not mask >> i & 1 else (50 if b == "yatzy" and yatzy50 else 0)
                       for i, b in enumerate(YATZY.boxes)), 0, YATZY.layout)


# ------------------------------------------------------------ the sheet as data
def test_the_sheet_has_fifteen_boxes_no_joker_and_a_50_bonus():
    assert YATZY.boxes == ("ones", "twos", "threes", "fours", "fives", "sixes", "one_pair",
                           "two_pairs", "three_kind", "four_kind", "small_straight",
                           "large_straight", "full_house", "chance", "yatzy")
    assert (YATZY.joker, YATZY.extra_bonus, YATZY.upper_bonus, YATZY.upper_threshold) == \
        (False, 0, 50, 63)
    assert YATZY.yacht_box == "yatzy" and RULESETS["bonanza"].yacht_box == "bonanza"


def test_a_sheet_of_another_ruleset_is_refused():
    with pytest.raises(ValueError, match="15 boxes"):
        write(YATZY, Sheet(), (1, 1, 1, 1, 1), "ones")
    with pytest.raises(ValueError, match="13 boxes"):
        write(RULESETS["bonanza"], YATZY.empty_sheet(), (1, 1, 1, 1, 1), "ones")
    with pytest.raises(ValueError, match="unknown box"):
        write(YATZY, YATZY.empty_sheet(), (1, 1, 1, 1, 1), "bonanza")


def test_five_equal_fill_three_kinds_of_box_and_never_a_joker():
    dice = (4, 4, 4, 4, 4)
    sheet = sheet_of(1 << 14, yatzy50=True)
    assert allowed_boxes(YATZY, sheet, dice) == YATZY.boxes[:14]
    assert {b: points(YATZY, sheet, dice, b) for b in YATZY.boxes[:14] if
            points(YATZY, sheet, dice, b)} == {"fours": 20, "one_pair": 8, "three_kind": 12,
                                               "four_kind": 16, "chance": 20}


# ------------------------------------------------------------ the exact advisor
def test_expected_score_from_an_empty_sheet_is_the_peers(yatzy):
    assert yatzy.expected_start() == pytest.approx(PEER_YATZY_SCANDINAVIAN, abs=1e-6)
    assert yatzy.values.shape == (1 << 15, 64, 2)


def test_table_is_consistent_with_queries(yatzy):
    rng = np.random.default_rng(28)
    layers = layer_states(YATZY)
    for n in range(15):
        rows = layers[n][rng.integers(0, len(layers[n]), size=min(3, len(layers[n])))]
        for m, u, f in rows.tolist():
            assert turn_start_value(YATZY, yatzy.values, m, u, f) == yatzy.values[m, u, f]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, FULL - 1), st.lists(st.integers(1, 6), min_size=5, max_size=5),
       st.integers(0, 2), st.data())
def test_advice_lists_every_free_box_with_its_points(yatzy, mask, dice, rolls, data):
    upper = data.draw(st.sampled_from(sorted(upper_sums(mask & 63))))
    advice = yatzy.advise_state(mask, upper, False, dice, rolls)
    sheet = sheet_of(mask)
    assert sorted(o.box for o in advice.boxes) == sorted(sheet.free_boxes())
    for o in advice.boxes:
        assert o.points == points(YATZY, sheet, dice, o.box)
    assert [o.expected for o in advice.boxes] == sorted((o.expected for o in advice.boxes),
                                                        reverse=True)
    assert bool(advice.holds) == (rolls > 0)


def test_last_turn_upper_bonus_is_50(yatzy):
    # Only sixes free with 45 in the upper boxes: three sixes reach 63 and the 50 bonus.
    mask = FULL & ~(1 << 5)
    advice = yatzy.advise_state(mask, 45, False, (6, 6, 6, 1, 2), 0)
    assert advice.boxes[0].expected == 18 + 50


def test_cache_roundtrip_is_keyed_by_the_sheet(yatzy, tmp_path):
    path = advisor_cache.save(YATZY, yatzy.values, tmp_path)
    assert path != advisor_cache.table_path(RULESETS["yacht"], tmp_path)
    assert "boxes=" in advisor_cache.ruleset_key(YATZY)
    assert "boxes=" not in advisor_cache.ruleset_key(RULESETS["bonanza"])
    got = advisor_cache.load(YATZY, tmp_path)
    assert got is not None and np.array_equal(got, yatzy.values)
    assert sheet_tables(YATZY).full_mask == FULL


# ------------------------------------------------------------ bots and logs
@settings(max_examples=150, deadline=None)
@given(st.integers(0, FULL - 1), st.lists(st.integers(1, 6), min_size=5, max_size=5),
       st.integers(0, 2), st.booleans(), st.sampled_from(["casual", "optimal"]))
# five in a row that the open straight does not take: one die must be rolled
@example(mask=1 << 10, dice=[1, 2, 3, 4, 5], rolls_left=1, y50=False, policy="casual")
@example(mask=1 << 11, dice=[6, 2, 3, 4, 5], rolls_left=2, y50=False, policy="casual")
def test_bots_never_make_an_illegal_yatzy_move(yatzy, mask, dice, rolls_left, y50, policy):
    sheet = sheet_of(mask, y50 and bool(mask >> 14 & 1))
    action, arg = choose(policy, YATZY, sheet, tuple(dice), rolls_left)
    if action == "write":
        assert arg in allowed_boxes(YATZY, sheet, dice)
    else:
        assert action == "hold" and rolls_left > 0 and len(arg) == 5 and not all(arg)


@pytest.mark.parametrize("policies", [("casual",) * 4, ("optimal",), ("optimal", "casual")])
def test_yatzy_bot_games_verify(yatzy, policies):
    match = simulate("yatzy", policies, bytes(range(32)))
    assert all(s.is_complete and len(s.scores) == 15 for s in match.state.sheets)
    verdict = verify_bytes(match.log.to_bytes())
    assert verdict.ok, verdict.detail
    assert match.log.header["ruleset"] == "yatzy"


def test_a_yatzy_box_name_outside_the_sheet_is_refused():
    match = Match.create("yatzy", [Seat("A")], bytes(32), mode="solo")
    match.roll(kept_by_default(match.state, 0, (False,) * 5), seat=0)
    refusal = check_write(match.state, 0, "bonanza")
    assert refusal is not None and refusal.code == "unknown_box"
    assert check_write(match.state, 0, "one_pair") is None


# ------------------------------------------------------------ a table over the real relay
def test_a_four_seat_yatzy_table_over_the_relay_plays_to_the_end(yatzy):
    import asyncio

    from tests.relay_harness import connect, play_to_end, running_relay

    async def main():
        async with running_relay() as relay:
            a, b = await connect(relay), await connect(relay)
            assert "yatzy" in a.welcome["rulesets"]
            joined = await a.create_table("Ana", 4, 30, "yatzy", bots=["optimal", "casual"])
            assert joined["table"]["ruleset"] == "yatzy"
            await b.join(joined["table"]["code"], "Ben")
            await a.start()
            await a.wait_until(lambda: a.header is not None)
            assert a.header["ruleset"] == "yatzy"
            await play_to_end([a, b], timeout=120)
            verdict = verify_bytes(a.end["log"])
            assert verdict.ok, verdict.detail
            final = verdict.states[-1]
            assert final.over and all(len(s.scores) == 15 and s.is_complete for s in final.sheets)
            writes = [r["move"] for r in verdict.log.records if r["move"]["type"] == "write"]
            assert len(writes) == 4 * 15
            for c in (a, b):
                await c.close()
    asyncio.run(asyncio.wait_for(main(), 150))
