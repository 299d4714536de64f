"""Proof, not promises: the attacks of a suspicious player on a real relay's log fail.

A finished table log is signed: the relay signs every record (over the chain, which
covers the header and everything before) and the end; each human seat signs its own
requests.  Rewriting moves, names, the mode or the time breaks a signature, and a relay
or proxy that changes a player's dice contribution is caught before the first roll.
"""
from __future__ import annotations

import asyncio
import secrets

import pytest

from bonanza.core import signing
from bonanza.core.dice import commitment
from bonanza.core.game import allowed, apply, new_game, standings
from bonanza.core.log import MAGIC, chain_next, chain_start, pack, parse_log, setup_from_header
from bonanza.core.verify import verify_bytes
from tests.relay_harness import connect, play_to_end, running_relay, two_at_a_table


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 90))


@pytest.fixture(scope="module")
def table_log() -> bytes:
    """A finished 2-seat table game (Ana, Ben) played over a real relay."""
    async def main():
        async with running_relay() as relay:
            a, b = await two_at_a_table(relay)
            await play_to_end([a, b])
            assert a.desync is None and b.desync is None
            return a.end["log"]
    return run(main())


def _rewrite(data: bytes, change_header=None, change_record=None, change_end=None) -> bytes:
    """The log with its parts changed and made consistent again, as a forger would: the
    state hashes, totals, standings and the chain recomputed (none has a secret).  The
    signatures are kept as they were: the forger has none of the keys."""
    log = parse_log(data)
    header = dict(log.header)
    if change_header:
        change_header(header)
    header["chain"] = chain_start(header)
    chain = header["chain"]
    state = new_game(setup_from_header(header))
    parts = [MAGIC, pack(header)]
    for rec in log.records:
        rec = dict(rec)
        if change_record:
            change_record(rec)
        state = apply(state, rec["move"])
        rec["state"] = state.state_hash()
        rec["chain"] = chain = chain_next(chain, rec)
        parts.append(pack(rec))
    end = dict(log.end)
    end["totals"] = [state.total(i) for i in range(len(state.sheets))]
    end["standings"] = [s.to_dict() for s in standings(state)]
    if change_end:
        change_end(end)
    end["chain"] = chain_next(chain, end)
    parts.append(pack(end))
    return b"".join(parts)


def test_an_honest_table_log_names_who_signed_what(table_log):
    v = verify_bytes(table_log)
    assert v.ok, v.detail
    keys = v.log.header["signing"]
    assert "moves of Ana signed by Ana's key " + signing.fingerprint(keys["seats"][0]) in v.signed
    assert "moves of Ben signed by Ben's key " + signing.fingerprint(keys["seats"][1]) in v.signed
    assert v.signed.endswith("signed by relay key " + signing.fingerprint(keys["relay"]))
    assert all("sig" in r for r in v.log.records) and "sig" in v.log.end
    human = [r for r in v.log.records if not r["move"].get("auto")]
    assert human and all("intent" in r for r in human)


def test_swapped_names_fail(table_log):
    def swap(h):
        h["seats"] = [dict(h["seats"][0], name="Ben"), dict(h["seats"][1], name="Ana")]
    assert [s["name"] for s in parse_log(table_log).header["seats"]] == ["Ana", "Ben"]
    v = verify_bytes(_rewrite(table_log, change_header=swap))
    assert not v.ok and v.code == "signature"


def test_a_relabelled_mode_or_ruleset_fails(table_log):
    for change in (lambda h: h.update(mode="solo"), lambda h: h.update(ruleset="yacht"),
                   lambda h: h.update(meta={"table": "ZZZZZ"})):
        v = verify_bytes(_rewrite(table_log, change_header=change))
        assert not v.ok and v.code == "signature", v.detail
    # a table relabelled a daily is not even a daily's shape (bonanza rules, a seed of its own)
    v = verify_bytes(_rewrite(table_log, change_header=lambda h: h.update(mode="daily")))
    assert not v.ok and v.code == "format", v.detail


def test_a_changed_time_or_standing_meta_fails(table_log):
    v = verify_bytes(_rewrite(table_log, change_end=lambda e: e.update(
        meta=dict(e["meta"], duration_ms=1))))
    assert not v.ok and v.code == "signature"
    assert "end of the game" in v.detail


def _foreknowledge(data: bytes):
    """Ben's writes replaced by other legal boxes, knowing every die (the seed is in the
    finished log): the forged (move, state hash) per record, and the final state."""
    log = parse_log(data)
    state = new_game(setup_from_header(log.header))
    forged = []
    for rec in log.records:
        move = dict(rec["move"])
        if move["type"] == "write" and move["seat"] == 1:
            move["box"] = allowed(state)[-1]
        state = apply(state, move)
        forged.append((move, state.state_hash()))
    return forged, state


def test_moves_rewritten_with_foreknowledge_of_the_dice_fail(table_log):
    """The attack of the issue: legal, consistent moves (totals and standings redone
    too), the chain re-hashed; refused, because no signature covers the new moves."""
    forged, final = _foreknowledge(table_log)
    assert [m for m, _ in forged] != [r["move"] for r in parse_log(table_log).records]
    moves = iter(forged)

    def change(rec):
        rec["move"], rec["state"] = next(moves)
        if "intent" in rec and rec["move"]["type"] == "write":
            rec["intent"] = dict(rec["intent"], box=rec["move"]["box"])
    data = _rewrite(table_log, change_record=change)
    assert parse_log(data).end["totals"] == [final.total(0), final.total(1)]
    v = verify_bytes(data)
    assert not v.ok and v.code == "signature", v.detail
    assert "Ben" in v.detail or "relay" in v.detail


def test_a_forger_with_keys_of_their_own_is_named_by_them(table_log):
    """Re-signing everything with new keys makes a valid log, but of other keys: the
    verdict names them, and they are not the relay's or the players'."""
    log = parse_log(table_log)
    relay = signing.Signer(secrets.token_bytes(32))
    seats = [signing.Signer(secrets.token_bytes(32)) for _ in log.header["seats"]]
    header = dict(log.header, signing={"relay": relay.public, "seats": [s.public for s in seats]})
    header["chain"] = chain = chain_start(header)
    parts = [MAGIC, pack(header)]
    for rec in log.records:
        rec = dict(rec)
        if "intent" in rec:
            intent = {k: v for k, v in rec["intent"].items() if k != "sig"}
            intent["sig"] = seats[rec["move"]["seat"]].sign_intent(header["chain"], intent)
            rec["intent"] = intent
        rec["chain"] = chain = chain_next(chain, rec)
        rec["sig"] = relay.sign_record(chain)
        parts.append(pack(rec))
    end = dict(log.end)
    end["chain"] = chain_next(chain, end)
    end["sig"] = relay.sign_record(end["chain"])
    parts.append(pack(end))
    v = verify_bytes(b"".join(parts))
    assert v.ok
    honest = verify_bytes(table_log)
    assert signing.fingerprint(relay.public) in v.signed
    assert signing.fingerprint(log.header["signing"]["relay"]) not in v.signed
    assert v.signed != honest.signed


# ---------------------------------------------------------------- a proxy in the middle
async def _proxy(relay_port: int, rewrite, back=None) -> asyncio.AbstractServer:
    """A TCP proxy on 127.0.0.1 that passes frames both ways, letting ``rewrite`` change
    the client's messages and ``back`` the relay's."""
    from tests.relay_harness import frame_proxy
    return await frame_proxy(relay_port, rewrite, back)


def test_a_proxy_that_changes_a_contribution_is_caught_before_the_first_roll():
    async def main():
        async with running_relay() as relay:
            chosen = b"\x00" * 32                            # the proxy's choice

            def steer(msg):
                # consistent at both steps, so the relay's commitment check passes
                if msg.get("type") == "join":
                    msg = dict(msg, contribution_commit=commitment(chosen))
                elif msg.get("type") == "reveal":
                    msg = dict(msg, contribution=chosen)
                return msg
            proxy = await _proxy(relay.port, steer)
            port = proxy.sockets[0].getsockname()[1]
            from bonanza.client.relay_client import RelayClient
            a = await connect(relay)
            b = await RelayClient.open("127.0.0.1", port)
            j = await a.create_table("Ana", 2, 90)
            await b.join(j["table"]["code"], "Ben")
            await a.start()
            await b.wait_until(lambda: b.desync is not None)
            assert "contribution" in b.desync
            assert b.records == []                      # before any die was rolled
            assert a.desync is None                     # Ana's own contribution is intact
            proxy.close()
    run(main())


def test_a_request_signed_by_another_key_is_refused():
    async def main():
        async with running_relay() as relay:
            from bonanza.client.relay_client import RelayError
            a, b = await two_at_a_table(relay)
            mover = a if a.my_turn else b
            await mover.wait_until(lambda: mover.state is not None)
            intent = signing.intent_body(mover.seq, "roll", [False] * 5)
            other = signing.Signer(secrets.token_bytes(32))
            with pytest.raises(RelayError) as e:
                await mover.request({"type": "roll", "seq": mover.seq, "hold": [False] * 5,
                                     "sig": other.sign_intent(mover.header["chain"], intent)})
            assert e.value.code == "bad_signature"
            await mover.roll()                          # its own key is fine
            assert mover.desync is None
    run(main())


def test_contributions_are_committed_before_any_is_revealed():
    """Joins carry only a commitment; contributions travel after every seat committed,
    and one that does not match its commitment is refused."""
    async def main():
        async with running_relay() as relay:
            seen = []

            def spy(msg):
                seen.append(dict(msg))
                return msg
            proxy = await _proxy(relay.port, spy)
            port = proxy.sockets[0].getsockname()[1]
            from bonanza.client.relay_client import RelayClient
            a = await connect(relay)
            b = await RelayClient.open("127.0.0.1", port)
            j = await a.create_table("Ana", 2, 90)
            await b.join(j["table"]["code"], "Ben")
            join = next(m for m in seen if m["type"] == "join")
            assert "contribution" not in join and len(join["contribution_commit"]) == 32
            await a.start()
            await b.wait_until(lambda: b.header is not None)
            reveal = next(m for m in seen if m["type"] == "reveal")
            assert commitment(reveal["contribution"]) == join["contribution_commit"]
            assert b.header["dice"]["contributions"][b.seat] == reveal["contribution"]
            assert b.desync is None
            proxy.close()
    run(main())


def test_a_seat_that_does_not_reveal_is_played_by_a_bot():
    async def main():
        from bonanza.client.relay_client import RelayClient
        from tests.relay_harness import ManualClock, barrier
        clock = ManualClock()
        async with running_relay(clock=clock) as relay:
            a = await connect(relay)
            mute = await RelayClient.open("127.0.0.1", relay.port)
            j = await a.create_table("Ana", 2, 90)
            # its secret is its own: this client cannot answer "reveal" for it
            await mute.request({"type": "join", "code": j["table"]["code"], "name": "Mute",
                                "contribution_commit": commitment(b"m" * 32)})
            a.send({"type": "start"})
            await barrier(a, mute)
            assert a.header is None                     # waiting for the reveal
            from bonanza.relay.handlers import REVEAL_SECONDS
            clock.advance(REVEAL_SECONDS + 1)
            await a.wait_until(lambda: a.header is not None)
            seats = a.header["seats"]
            assert [s["kind"] for s in seats] == ["human", "bot"]
            assert seats[1]["name"].startswith("Bot ")
            assert a.desync is None
    run(main())


# ---------------------------------------------------------------- what the seat sat down to
def test_a_relay_that_regrinds_its_seed_after_the_reveals_is_caught(monkeypatch):
    """The host's patched relay keeps the contributions but swaps its own seed for one it
    ground after seeing them: the header is consistent and signed, yet its commitment is
    not the one the table showed at ``joined``; both seats refuse it before any roll."""
    from tests.relay_harness import regrind_seed
    chosen = regrind_seed(monkeypatch)

    async def main():
        async with running_relay() as relay:
            a, b = await connect(relay), await connect(relay)
            j = await a.create_table("Ana", 2, 90)
            shown = j["table"]["commitment"]
            await b.join(j["table"]["code"], "Ben")
            a.send({"type": "start"})
            for c in (a, b):
                await c.wait_until(lambda c=c: c.desync is not None)
                assert "not the one shown when you sat down" in c.desync
                assert c.records == [] and c.state is None
                assert c.sat_down_commitment == shown
            assert chosen and a.header["dice"]["commit"] == commitment(chosen[0]) != shown
    run(main())


def test_an_honest_relay_plays_the_commitment_shown_at_the_join():
    async def main():
        async with running_relay() as relay:
            a, b = await two_at_a_table(relay)
            for c in (a, b):
                assert c.header["dice"]["commit"] == c.sat_down_commitment == c.table["commitment"]
                assert c.desync is None
    run(main())


async def _through_proxy(back, kinds=("desync",)):
    """Ana at the relay, Ben through a proxy that rewrites what the relay sends him;
    Ben's desync message (or None) once the game should have started."""
    async with running_relay() as relay:
        proxy = await _proxy(relay.port, None, back)
        port = proxy.sockets[0].getsockname()[1]
        from bonanza.client.relay_client import RelayClient
        a = await connect(relay)
        b = await RelayClient.open("127.0.0.1", port)
        got = []
        b.on_message = lambda m: got.append(m) if m.get("type") in kinds else None
        j = await a.create_table("Ana", 2, 90)
        await b.join(j["table"]["code"], "Ben")
        await a.start()
        await b.wait_until(lambda: got or b.state is not None)
        proxy.close()
        assert b.records == [] and b.state is None          # before the first roll
        return got[0]


def test_a_welcome_without_the_relay_key_is_not_a_switch():
    def strip(msg):
        if msg.get("type") == "welcome":
            msg = {k: v for k, v in msg.items() if k != "relay_key"}
        return msg
    d = run(_through_proxy(strip))
    assert d["code"] == "no_relay_key"


def test_a_proxy_that_rewrites_the_header_is_caught():
    """A header made consistent again (its chain recomputed): another commitment, or the
    proxy's own signing key, is refused before the first roll."""
    mine = signing.Signer(secrets.token_bytes(32))
    for change, code in ((lambda h: h["dice"].update(commit=b"\x07" * 32), "commitment"),
                         (lambda h: h.update(signing=dict(h["signing"], relay=mine.public)),
                          "relay_key")):
        def rewrite(msg, change=change):
            if msg.get("type") == "started":
                header = dict(msg["header"], dice=dict(msg["header"]["dice"]))
                change(header)
                header["chain"] = chain_start(header)
                msg = dict(msg, header=header)
            return msg
        d = run(_through_proxy(rewrite))
        assert d["code"] == code, d
        assert len(d["shown"]) == 2 and d["shown"][0] != d["shown"][1]
