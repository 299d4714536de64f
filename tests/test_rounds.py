"""A daily table played in rounds (core.rounds): every seat plays turn k in private, the
round goes into the log in table order, and the log verifies like any daily's."""
from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from bonanza.core.game import Seat, allowed_boxes
from bonanza.core.match import Match
from bonanza.core.rounds import NOT_YOURS, RoundPlay, signed_point
from bonanza.core.signing import Signer, round_intent_body
from bonanza.core.verify import verify_bytes

RELAY = Signer(hashlib.sha256(b"relay").digest())


def _keys(n: int) -> list[Signer]:
    return [Signer(hashlib.sha256(b"seat %d" % i).digest()) for i in range(n)]


def _match(n: int, seed: bytes, rounds: bool = True) -> tuple[Match, list[Signer]]:
    keys = _keys(n)
    seats = [Seat(f"P{i}") for i in range(n)]
    return Match.create_day("2024-06-01", seats, seed, signer=RELAY,
                            seat_keys=[k.public for k in keys], rounds=rounds), keys


def _signed(rp: RoundPlay, keys, seat, kind, hold=None, box=None):
    body = round_intent_body(signed_point(rp.view(seat), seat), kind, hold, box)
    body["sig"] = keys[seat].sign_intent(rp.match.log.header["chain"], body)
    return body


def _play_turn(rp: RoundPlay, keys, seat: int, draw) -> None:
    """``seat`` plays its turn of the round: up to three rolls with drawn holds, then a
    drawn box (or it gives up, when ``draw`` says so)."""
    v = rp.view(seat)
    for r in range(3):
        hold = [False] * 5 if r == 0 else draw(st.lists(st.booleans(), min_size=5, max_size=5))
        if all(hold):
            hold[0] = False
        move, refusal = rp.roll(seat, hold, intent=_signed(rp, keys, seat, "roll", hold))
        assert refusal is None, refusal
        # what this seat is shown holds no die but its own
        assert all(m["seat"] == seat for m in rp.moves(seat))
        if r < 2 and draw(st.booleans()):
            break
    v = rp.view(seat)
    if draw(st.integers(0, 60)) == 0:
        _, refusal = rp.give_up(seat, intent=_signed(rp, keys, seat, "give_up"))
        assert refusal is None
        return
    boxes = sorted(allowed_boxes(v.ruleset, v.sheets[seat], v.dice))
    box = draw(st.sampled_from(boxes))
    _, refusal = rp.write(seat, box, intent=_signed(rp, keys, seat, "write", box=box))
    assert refusal is None, refusal
    assert rp.roll(seat, [False] * 5)[1] is NOT_YOURS   # nothing more until the reveal


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 4), seed=st.binary(min_size=32, max_size=32), data=st.data())
def test_rounds_played_in_private_go_into_a_log_that_verifies(n, seed, data):
    match, keys = _match(n, seed)
    rp = RoundPlay(match)
    while not match.state.over:
        seen_before = len(match.log.records)
        order = data.draw(st.permutations(rp.waiting_for()))   # any seat may finish first
        for seat in order:
            _play_turn(rp, keys, seat, data.draw)
            # nothing reaches the shared log before every seat has written
            assert len(match.log.records) == seen_before
        assert rp.complete
        recs = rp.commit()
        assert recs and len(match.log.records) == seen_before + len(recs)
    match.finish()
    verdict = verify_bytes(match.log.to_bytes())
    assert verdict.ok, verdict.message
    assert match.log.header["dice"]["rounds"] is True


def test_the_dice_are_those_of_the_game_around_the_table():
    """Playing the same moves around the table deals the same dice: the day's dice depend
    only on a seat's own turn."""
    seed = bytes(range(32))
    match, keys = _match(3, seed)
    rp = RoundPlay(match)
    while not match.state.over:
        for seat in reversed(rp.waiting_for()):
            rp.roll(seat, [False] * 5)
            v = rp.view(seat)
            rp.write(seat, sorted(allowed_boxes(v.ruleset, v.sheets[seat], v.dice))[0])
        rp.commit()
    around, _ = _match(3, seed, rounds=False)
    for rec in match.log.records:
        mv = dict(rec["move"])
        _, refusal = around.play(mv)
        assert refusal is None, refusal


def test_a_seat_that_gives_up_after_writing_leaves_at_the_round_end():
    match, keys = _match(2, bytes(32))
    rp = RoundPlay(match)
    for seat in (0, 1):
        rp.roll(seat, [False] * 5)
    v = rp.view(0)
    rp.write(0, sorted(allowed_boxes(v.ruleset, v.sheets[0], v.dice))[0])
    assert rp.give_up(0, "left")[1] is None
    assert not rp.complete
    v = rp.view(1)
    rp.write(1, sorted(allowed_boxes(v.ruleset, v.sheets[1], v.dice))[0])
    recs = rp.commit()
    assert recs[-1]["move"] == {"type": "give_up", "seat": 0, "why": "left"}
    assert match.state.playing() == (1,)


def test_an_intent_of_the_old_form_does_not_verify_in_a_rounds_log():
    match, keys = _match(1, bytes(32))
    rp = RoundPlay(match)
    while not match.state.over:
        seat = 0
        body = {"seq": match.state.seq, "type": "roll", "hold": [False] * 5}
        body["sig"] = keys[0].sign_intent(match.log.header["chain"], body)
        rp.roll(seat, [False] * 5, intent=body)
        v = rp.view(seat)
        box = sorted(allowed_boxes(v.ruleset, v.sheets[seat], v.dice))[0]
        rp.write(seat, box, intent=_signed(rp, keys, seat, "write", box=box))
        rp.commit()
    match.finish()
    verdict = verify_bytes(match.log.to_bytes())
    assert not verdict.ok and verdict.code == "signature"


def test_a_client_catches_a_relay_that_logs_other_dice_than_it_showed():
    """``OwnRound``: the seat's records in the reveal must be the moves it was shown."""
    from bonanza.core.rounds import OwnRound
    match, _ = _match(2, bytes(32))
    rp = RoundPlay(match)
    own = OwnRound(0)
    shown, _ = rp.roll(0, [False] * 5)
    assert own.take(match.state, shown, None) is None
    assert own.take(match.state, {"type": "roll", "seat": 1, "hold": [False] * 5,
                                  "dice": [1, 1, 1, 1, 1], "auto": False}, None)
    forged = dict(shown, dice=[6, 6, 6, 6, 6] if shown["dice"] != [6] * 5 else [1] * 5)
    assert own.confirm(forged) == "the relay logged another move than the one it showed this seat"
    assert own.confirm(shown) == "the relay logged a move this seat was never shown"
