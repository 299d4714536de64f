"""A table followed from the relay's messages (core.follower): a real match's records
give the match's own state and held dice after every record, and a changed record is
refused with the reason the client shows."""
from __future__ import annotations

import secrets

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.core import signing
from bonanza.core.follower import Desync, SeatClaim, TableFollower
from bonanza.core.game import Seat, allowed
from bonanza.core.log import chain_next
from bonanza.core.match import Match

RELAY = signing.Signer(b"r" * 32)
SEATS = [signing.Signer(bytes([i]) * 32) for i in range(4)]


def _match(n: int, ruleset: str = "bonanza", seed: bytes | None = None) -> Match:
    seed = seed or secrets.token_bytes(32)
    return Match.create(ruleset, [Seat(f"p{i}") for i in range(n)], seed,
                        contributions=[bytes([i]) + seed[1:] for i in range(n)],
                        signer=RELAY, seat_keys=[s.public for s in SEATS[:n]])


def _intent(m: Match, seat: int, kind: str, hold=None, box=None) -> dict:
    """The seat's signed request, as a relay puts it in the record."""
    body = signing.intent_body(m.state.seq, kind, hold, box)
    body["sig"] = SEATS[seat].sign_intent(m.log.header["chain"], body)
    return body


def _step(m: Match, data) -> tuple[dict | None, list[bool] | None]:
    """One random legal action at the match: (its record, None), or (None, the mask) for
    a hold announced."""
    st_ = m.state
    seat = st_.active
    can_give_up = [p for p in st_.playing() if not st_.sheets[p].is_complete]
    pick = data.draw(st.integers(0, 60))
    if pick == 0 and can_give_up:
        who = data.draw(st.sampled_from(can_give_up))
        rec, refusal = m.give_up(who, intent=_intent(m, who, "give_up"))
    elif st_.dice is not None and st_.rolls_left and pick < 15:
        mask = data.draw(st.lists(st.booleans(), min_size=5, max_size=5))
        assert m.hold(seat, mask) is None
        return None, mask
    elif st_.dice is None or (st_.rolls_left and data.draw(st.booleans())):
        keep = m.roll_hold(seat)
        if not all(keep) and data.draw(st.booleans()):
            rec, refusal = m.roll(intent=_intent(m, seat, "roll", keep))   # keeps what is held
        else:
            hold = data.draw(st.lists(st.booleans(), min_size=5, max_size=5))
            if st_.dice is None or all(hold):
                hold = [False] * 5
            rec, refusal = m.roll(hold, intent=_intent(m, seat, "roll", hold))
    else:
        box = data.draw(st.sampled_from(allowed(st_)))
        rec, refusal = m.write(box, intent=_intent(m, seat, "write", box=box))
    assert refusal is None, refusal
    return rec, None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 4), ruleset=st.sampled_from(["bonanza", "yacht"]), data=st.data())
def test_a_followed_match_has_the_matchs_state_and_held_dice_after_every_record(n, ruleset, data):
    m = _match(n, ruleset, data.draw(st.binary(min_size=32, max_size=32)))
    f = TableFollower()
    f.start(m.log.header)
    while not m.state.over:
        rec, mask = _step(m, data)
        if rec is None:
            f.hold(mask)
        else:
            f.take(rec)
            assert f.state.state_hash() == m.state.state_hash() == rec["state"]
        assert f.held == m.held
        assert f.seq == m.state.seq
    m.finish()
    f.finish({"type": "end", "end": m.log.end, "log": m.log.to_bytes()})
    assert f.verdict.ok and f.records == m.log.records


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_watcher_catching_up_reaches_the_same_game(data):
    m = _match(2, seed=data.draw(st.binary(min_size=32, max_size=32)))
    for _ in range(data.draw(st.integers(0, 30))):
        if m.state.over:
            break
        _step(m, data)
    recs = m.log.records
    f = TableFollower()
    f.start(m.log.header)
    cut = data.draw(st.integers(0, len(recs)))
    for rec in recs[:cut]:
        f.take(rec)
    f.catch_up(recs, m.held)                      # what it has already is skipped
    assert f.records == recs and f.held == m.held
    assert f.state.state_hash() == m.state.state_hash()


def _played(moves: int = 6) -> tuple[Match, list[dict]]:
    m = _match(2)
    for _ in range(moves):
        if m.state.dice is None or m.state.rolls_left:
            m.roll()
        else:
            m.write(allowed(m.state)[0])
    return m, m.log.records


def _rechained(rec: dict, previous: bytes, **change) -> dict:
    """``rec`` changed and made consistent again (the chain redone and re-signed by the
    relay's key), so only the named check can refuse it."""
    rec = dict(rec, **change)
    rec["chain"] = chain_next(previous, rec)
    rec["sig"] = RELAY.sign_record(rec["chain"])
    return rec


@pytest.mark.parametrize("change, reason", [
    (lambda rec, prev: dict(rec, seq=rec["seq"] + 1), "move 5 arrived after move 3"),
    (lambda rec, prev: dict(rec, chain=bytes(32)), "move 4: the chain does not match"),
    (lambda rec, prev: dict(rec, sig=bytes(64)), "move 4 is not signed by the relay"),
    (lambda rec, prev: dict(rec, sig=SEATS[0].sign_record(rec["chain"])),   # another key
     "move 4 is not signed by the relay"),
    (lambda rec, prev: _rechained(rec, prev, state=bytes(16)), "move 4: the state hash does not match"),
    (lambda rec, prev: _rechained(rec, prev, move=dict(rec["move"], seat=1 - rec["move"]["seat"])),
     "move 4 is illegal here: it is "),
])
def test_a_changed_record_is_refused_and_changes_nothing(change, reason):
    m, recs = _played()
    f = TableFollower()
    f.start(m.log.header)
    for rec in recs[:3]:
        f.take(rec)
    before = (f.state, list(f.held), f.chain, list(f.records))
    with pytest.raises(Desync) as e:
        f.take(change(recs[3], recs[2]["chain"]))
    assert str(e.value).startswith(reason)
    assert (f.state, f.held, f.chain, f.records) == before
    for rec in recs[3:]:                         # the true record still follows
        f.take(rec)
    assert f.state.state_hash() == m.state.state_hash()


def test_a_move_before_the_start_and_a_changed_header():
    m, recs = _played(1)
    with pytest.raises(Desync, match="a move arrived before the game started"):
        TableFollower().take(recs[0])
    with pytest.raises(Desync, match="the header's chain does not match"):
        TableFollower().start(dict(m.log.header, ruleset="yacht"))


def test_a_seat_claim_the_header_does_not_carry():
    m, _ = _played(0)
    header = m.log.header
    mine = header["dice"]["contributions"][0]
    commit = header["dice"]["commit"]
    ok = SeatClaim(0, SEATS[0].public, mine, RELAY.public, commit)
    f = TableFollower()
    f.start(header, ok)
    assert f.state is not None
    other = b"\x01" * 32
    for claim, code, reason in (
            (SeatClaim(0, SEATS[0].public, b"x" * 32, RELAY.public, commit), "contribution",
             "the relay changed your dice contribution"),
            (SeatClaim(0, SEATS[1].public, mine, RELAY.public, commit), "seat_key",
             "your key is not the one in the game's header"),
            (SeatClaim(5, SEATS[0].public, None, RELAY.public, commit), "seat_key", "your key is not the one"),
            (SeatClaim(0, SEATS[0].public, mine, SEATS[3].public, commit), "relay_key",
             "the game is signed by another key than the relay's"),
            # a relay that says no key at welcome does not switch the check off
            (SeatClaim(0, SEATS[0].public, mine, None, commit), "no_relay_key",
             "the relay did not say which key it signs with"),
            # the seed swapped after the reveals: another commitment than at the join
            (SeatClaim(0, SEATS[0].public, mine, RELAY.public, other), "commitment",
             "not the one shown when you sat down"),
            (SeatClaim(0, SEATS[0].public, mine, RELAY.public, None), "no_commitment",
             "no dice fingerprint")):
        f = TableFollower()
        with pytest.raises(Desync, match=reason) as e:
            f.start(header, claim)
        assert e.value.code == code
        assert f.state is None                    # nothing of the game is shown
    with pytest.raises(Desync) as e:
        TableFollower().start(header, SeatClaim(0, SEATS[0].public, mine, RELAY.public, other))
    assert e.value.shown == (other, commit)       # both fingerprints, side by side


def test_the_regrind_vector_of_docs_fairness():
    """docs/fairness.md, section 7c: a seed ground after the reveals deals five fours, and
    its header is refused by the seat that sat down to the first commitment."""
    import hashlib

    from bonanza.core.dice import commitment, die, game_key
    seed = bytes(range(32))
    contributions = [b"\xaa" * 32, None]
    shown = commitment(seed)
    assert shown.hex() == "20f96144ff16ad254466d519a24310405ed25638079c89613c51a40963479f9a"
    assert [die(game_key(seed, contributions), 0, 1, i) for i in range(5)] == [5, 5, 6, 4, 4]
    ground = hashlib.sha256(b"grind 2139").digest()
    assert ground.hex() == "f1e91e8638a09f7173ad52dca2916228c49226e11bf98543e561a8612e62d2f3"
    assert commitment(ground).hex() == "b7571e57c7f7bbd9f906a1976112f906862220a6f692f45a173a5aa349e69e4b"
    key = game_key(ground, contributions)
    assert key.hex() == "e2c0b4a39c0132e019c2b2ce876cefc49d4dfbc4e4791708803903a175d3b50b"
    assert [die(key, 0, 1, i) for i in range(5)] == [4] * 5
    m = Match.create("bonanza", [Seat("Ana"), Seat("Bot", "bot")], ground,
                     contributions=contributions, signer=RELAY, seat_keys=[SEATS[0].public, None])
    with pytest.raises(Desync) as e:
        TableFollower().start(m.log.header, SeatClaim(0, SEATS[0].public, contributions[0],
                                                      RELAY.public, shown))
    assert e.value.code == "commitment" and e.value.shown == (shown, commitment(ground))
    from pathlib import Path
    doc = (Path(__file__).parent.parent / "docs" / "fairness.md").read_text(encoding="utf-8")
    for name, value in (("shown commitment", shown.hex()), ("ground seed", ground.hex()),
                        ("header commit", commitment(ground).hex()), ("ground game key", key.hex()),
                        ("honest roll", "5 5 6 4 4"), ("ground roll", "4 4 4 4 4")):
        assert f"7c {name}" in doc and value in doc.split(f"7c {name}")[1].split("\n")[0]


def test_the_end_must_continue_the_chain_and_match_the_records():
    m = _match(1)
    while not m.state.over:
        if m.state.dice is None:
            m.roll([False] * 5, intent=_intent(m, 0, "roll", [False] * 5))
        else:
            box = allowed(m.state)[0]
            m.write(box, intent=_intent(m, 0, "write", box=box))
    m.finish()
    end, data = m.log.end, m.log.to_bytes()

    def followed() -> TableFollower:
        f = TableFollower()
        f.start(m.log.header)
        for rec in m.log.records:
            f.take(rec)
        return f
    with pytest.raises(Desync, match="the end record's chain does not match"):
        followed().finish({"type": "end", "end": dict(end, chain=bytes(32)), "log": data})
    with pytest.raises(Desync, match="the finished log does not verify"):
        followed().finish({"type": "end", "end": end, "log": data[:-3]})
    f = followed()
    f.records.pop()
    with pytest.raises(Desync, match="the finished log differs from the moves received"):
        f.finish({"type": "end", "end": end, "log": data})
    f = followed()
    f.finish({"type": "end", "end": end, "log": data})
    assert f.verdict.ok and f.end["end"] == end
