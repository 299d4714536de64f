"""The relay's move path is core's: random intents sent to a real relay over TCP and the
same intents given to a bare ``core.match.Match`` (with the relay's key and the seats'
signed intents) get identical refusals, records, hashes, signatures and log bytes."""
from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.client.relay_client import RelayError
from bonanza.core import signing
from bonanza.core.game import Seat
from bonanza.core.match import Match
from bonanza.core.rules import BOXES
from tests.relay_harness import ManualClock, connect, running_relay

MASKS = st.one_of(st.lists(st.booleans(), min_size=5, max_size=5),
                  st.sampled_from([[1, 0, 0, 0, 0], [True] * 4, "all", None]))
INTENTS = st.lists(st.tuples(
    st.sampled_from([0, 1]),
    st.sampled_from(["roll", "roll", "roll_keep", "hold", "write", "write", "give_up"]),
    MASKS,
    st.sampled_from(list(BOXES) + ["nope"])), min_size=1, max_size=40)


def _signed(match: Match, signer, kind: str, hold, box) -> dict | None:
    """The seat's signed intent as the relay puts it in the record (None when malformed:
    the match refuses such a request anyway)."""
    if kind == "roll" and not (isinstance(hold, list) and len(hold) == 5
                               and all(type(h) is bool for h in hold)):
        return None
    body = signing.intent_body(match.state.seq, kind, hold, box)
    body["sig"] = signer.sign_intent(match.log.header["chain"], body)
    return body


def _bare(match: Match, signer, seat: int, kind: str, mask, box):
    """The intent given to the match directly: its refusal code or None."""
    if kind in ("roll", "roll_keep"):
        hold = mask if kind == "roll" and mask is not None else match.roll_hold(seat)
        refusal = match.roll(hold, seat=seat, intent=_signed(match, signer, "roll", hold, None))[1]
    elif kind == "hold":
        refusal = match.hold(seat, mask)
    elif kind == "write":
        refusal = match.write(box, seat=seat, intent=_signed(match, signer, "write", None, box))[1]
    else:
        refusal = match.give_up(seat, intent=_signed(match, signer, "give_up", None, None))[1]
    return None if refusal is None else refusal.code


def _wire(client, kind: str, mask, box) -> dict:
    seq = client.seq
    if kind == "roll":
        return {"type": "roll", "seq": seq, "hold": mask}
    if kind == "roll_keep":
        return {"type": "roll", "seq": seq}
    if kind == "hold":
        return {"type": "hold", "seq": seq, "held": mask}
    if kind == "write":
        return {"type": "write", "seq": seq, "box": box}
    return {"type": "give_up", "seq": seq}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(intents=INTENTS, ruleset=st.sampled_from(["bonanza", "yacht"]))
def test_relay_and_bare_match_agree(intents, ruleset):
    async def main():
        async with running_relay(clock=ManualClock()) as relay:
            a, b = await connect(relay), await connect(relay)
            joined = await a.create_table("Ana", 2, 90, ruleset=ruleset)
            code = joined["table"]["code"]
            await b.join(code, "Ben")
            await a.start()
            for c in (a, b):
                await c.wait_until(lambda c=c: c.header is not None)
            table = relay.tables[code]
            seats = [Seat(s.name, s.kind, s.policy) for s in table.slots]
            bare = Match.create(ruleset, seats, table.seed, mode="table",
                                contributions=[s.contribution for s in table.slots],
                                settings={"turn_seconds": 90}, meta={"table": code},
                                signer=relay.signer, seat_keys=[s.key for s in table.slots])
            assert bare.log.header == a.header
            clients = {slot.index: c for slot, c in zip(table.slots, (a, b))}
            for seat, kind, mask, box in intents:
                client = clients[seat]
                want = _bare(bare, client.signer, seat, kind, mask, box)
                try:
                    await client.request(_wire(client, kind, mask, box))
                    got = None
                except RelayError as e:
                    got = e.code
                assert got == want, (seat, kind, mask, box)
                for c in (a, b):
                    await c.wait_until(lambda c=c: c.seq == bare.state.seq)
                    assert c.records == bare.log.records
                    assert c.held == bare.held or kind != "hold"
                if bare.state.over:
                    break
            assert table.match.log.encoded == bare.log.encoded
            assert table.match.state.state_hash() == bare.state.state_hash()
            for c in (a, b):
                await c.close()
    asyncio.run(asyncio.wait_for(main(), 60))
