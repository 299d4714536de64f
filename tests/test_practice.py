"""Practice with undo (issue 26, point 3): a write taken back, never a roll's dice.

The property: whatever a player holds, writes and takes back, every die the log shows is
the die the key deals, the dice after an undo are the dice before the write, and the moves
that stand (``core.undo.kept_moves``) are a game without undo that deals the very same dice.
"""
from __future__ import annotations

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.core.analysis import analyse_log
from bonanza.core.game import Seat
from bonanza.core.log import chain_next, parse_log
from bonanza.core.match import Match, Replay
from bonanza.core.undo import LAST_UNDO_SEQ, kept_moves, taken_back
from bonanza.core.verify import facts, verify_bytes

SEED = bytes(range(32))


def practice(ruleset: str = "bonanza", seed: bytes = SEED) -> Match:
    return Match.create(ruleset, [Seat("Ana")], seed, mode="practice", settings={"hints": True})


def play_out(m: Match, choose, undo_when) -> list[tuple[int, ...]]:
    """Play ``m`` to its end: ``choose(state)`` picks ``("roll", hold)`` or ``("write", box)``,
    ``undo_when(state)`` says whether to take a write back.  Returns the dice of every state
    right before each undo."""
    before_undo = []
    while not m.state.over:
        st_ = m.state
        kind, arg = choose(st_)
        if kind == "roll":
            assert m.roll(arg)[1] is None
            continue
        dice = st_.dice
        assert m.write(arg)[1] is None
        if not m.state.over and undo_when(m.state):
            rec, refusal = m.undo()
            assert refusal is None and rec is not None
            assert m.state.dice == dice and m.state.rolls == st_.rolls   # as dealt
            before_undo.append(dice)
    m.finish()
    return before_undo


def simple_choices(data):
    def choose(state):
        free = state.sheets[0].free_boxes()
        if state.dice is None or (state.rolls < 3 and data.draw(st.booleans(), label="reroll")):
            hold = [False] * 5 if state.dice is None else data.draw(
                st.lists(st.booleans(), min_size=5, max_size=5).filter(lambda h: False in h),
                label="hold")
            return "roll", hold
        from bonanza.core.game import allowed
        return "write", data.draw(st.sampled_from(sorted(allowed(state)) or free), label="box")
    return choose


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["bonanza", "yacht", "yatzy"]), st.binary(min_size=32, max_size=32),
       st.data())
def test_undo_never_changes_dealt_dice(ruleset, seed, data):
    m = practice(ruleset, seed)
    undo_when = lambda s: data.draw(st.booleans(), label="undo")   # noqa: E731
    play_out(m, simple_choices(data), undo_when)
    raw = m.log.to_bytes()
    verdict = verify_bytes(raw)
    assert verdict.ok, verdict.detail            # every die is the key's, checked by verify
    moves = m.log.moves
    kept = [mv for _, mv in kept_moves(moves)]
    # the moves that stand are a whole game without undo: a solo game from the same seed
    # deals exactly the same dice for them
    plain = Match.create(ruleset, [Seat("Ana")], seed, mode="solo")
    for mv in kept:
        rec, refusal = plain.play(mv)
        assert refusal is None, refusal
    assert plain.state.over and plain.state.sheets == m.state.sheets
    # and every roll of the practice log is one of those rolls
    assert [mv for mv in moves if mv["type"] == "roll"] == [mv for mv in kept if mv["type"] == "roll"]


def test_an_undo_brings_back_the_dice_rolls_and_holds_and_verify_shows_it():
    m = practice()
    m.roll([False] * 5)
    m.hold(0, [True, True, False, False, False])
    m.roll()
    dice, held = m.state.dice, list(m.held)
    box = sorted(m.state.sheets[0].free_boxes())[0]
    m.write(box)
    assert m.state.dice is None
    rec, refusal = m.undo()
    assert refusal is None and rec["move"] == {"type": "undo", "seat": 0}
    assert (m.state.dice, m.state.rolls, m.held) == (dice, 2, held)
    assert m.state.sheets[0].is_free(box)
    # only one write back: the undo itself is not undone, a roll never is
    assert m.undo()[1].code == "nothing_to_undo"
    m.roll()
    assert m.undo()[1].code == "nothing_to_undo"
    play_out(m, lambda s: ("write", sorted(s.sheets[0].free_boxes())[0]) if s.dice else
             ("roll", [False] * 5), lambda s: False)
    v = verify_bytes(m.log.to_bytes())
    assert v.ok, v.detail
    f = facts(v)
    assert f["mode"] == "practice" and f["undone"] == [3] and f["category"]["dealt"] == "practice"
    assert taken_back(m.log.moves) == [(3, {"type": "write", "seat": 0, "box": box, "auto": False})]
    # the analysis grades the write that stood and says where the undo was
    a = analyse_log(parse_log(m.log.to_bytes()), with_win_chance=False)
    seat = a.seats[0]
    assert [(u.seq, u.box, u.turn) for u in seat.undos] == [(3, box, 1)]
    assert all(d.seq not in (3, 4) for d in seat.decisions)
    assert abs(seat.identity_gap) < 1e-6


def test_undo_is_refused_outside_practice_and_by_verify():
    m = Match.create("bonanza", [Seat("Ana")], SEED, mode="solo")
    m.roll([False] * 5)
    m.write("chance")
    assert m.undo()[1].code == "bad_move"
    # a solo log with an undo spliced in (chain recomputed) does not verify
    p = practice()
    p.roll([False] * 5)
    p.write("chance")
    p.undo()
    rec = parse_log(p.log.to_bytes()).records[-1]
    solo = Match.create("bonanza", [Seat("Ana")], SEED, mode="solo")
    solo.roll([False] * 5)
    solo.write("chance")
    forged = dict(rec)
    forged["state"] = rec["state"]
    forged.pop("chain")
    forged["chain"] = chain_next(solo.log.last_chain, forged)
    data = solo.log.to_bytes() + msgpack.packb(forged, use_bin_type=True)
    v = verify_bytes(data)
    assert not v.ok and v.code == "format"


def test_an_undo_must_follow_the_write_it_takes_back():
    r = Replay(practice().setup, undo=True)
    assert r.accept({"type": "undo", "seat": 0}).code == "nothing_to_undo"
    r.accept({"type": "roll", "seat": 0, "hold": [False] * 5, "dice": [1, 2, 3, 4, 5], "auto": False})
    assert r.accept({"type": "undo", "seat": 0}).code == "nothing_to_undo"
    r.accept({"type": "write", "seat": 0, "box": "chance", "auto": False})
    assert r.accept({"type": "undo", "seat": 1}).code == "not_seated"
    assert r.accept({"type": "undo", "seat": 0}) is None
    assert r.state.dice == (1, 2, 3, 4, 5) and r.state.seq == 3


def test_a_past_daily_as_practice_is_the_days_dice_and_verifies():
    day = Match.create_daily("2024-05-01", "Ana")
    again = Match.create_past_daily("2024-05-01", "Ana", settings={"hints": False})
    for m in (day, again):
        m.roll([False] * 5)
    assert day.state.dice == again.state.dice
    again.write("chance")
    assert again.undo()[1] is None
    play_out(again, lambda s: ("write", sorted(s.sheets[0].free_boxes())[0]) if s.dice else
             ("roll", [False] * 5), lambda s: False)
    v = verify_bytes(again.log.to_bytes())
    assert v.ok, v.detail
    assert facts(v)["mode"] == "practice" and facts(v)["scheme"] == "public"


def test_undos_stop_before_the_log_is_full():
    m = practice()
    m.roll([False] * 5)
    n = 0
    while True:
        m.write("chance")
        rec, refusal = m.undo()
        if refusal is not None:
            break
        n += 1
    assert refusal.code == "too_many_undos" and m.state.seq > LAST_UNDO_SEQ
    play_out(m, lambda s: ("write", sorted(s.sheets[0].free_boxes())[0]) if s.dice else
             ("roll", [False] * 5), lambda s: False)
    v = verify_bytes(m.log.to_bytes())
    assert v.ok, v.detail
    assert n == len(taken_back(m.log.moves))


def test_the_longest_practice_game_fits_the_format():
    """Undos until refused, then every turn of a 15-box sheet with three rolls: a log
    that still verifies."""
    m = practice("yatzy")
    m.roll([False] * 5)
    while m.write("chance")[1] is None and m.undo()[1] is None:
        pass
    while not m.state.over:
        while m.state.rolls < 3:
            m.roll([False] * 5)
        m.write(sorted(m.state.sheets[0].free_boxes())[0])
    m.finish()
    v = verify_bytes(m.log.to_bytes())
    assert v.ok, v.detail
