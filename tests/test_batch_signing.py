"""Batch signatures (core.signing.BatchSigner): a relay under load signs the records of one
pass of its event loop with one signature over their Merkle root, and each record, with its
proof, is still checked alone, by a client following the table and by ``verify``."""
from __future__ import annotations

import asyncio
import random
import secrets

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.core import signing
from bonanza.core.follower import Desync, TableFollower
from bonanza.core.game import Seat, allowed
from bonanza.core.log import pack, parse_log
from bonanza.core.logschema import check_log
from bonanza.core.match import Match
from bonanza.core.verify import verify_bytes
from bonanza.core.wire import MAX_RELAY_FRAME, PROTOCOL_VERSION, FrameDecoder, encode_frame
from tests.relay_harness import choose_box, connect, play_turn_step, running_relay

SEED = b"r" * 32
SEATS = [signing.Signer(bytes([i + 1]) * 32) for i in range(4)]


def _match(signer: signing.Signer, n: int, seed: bytes) -> Match:
    return Match.create("bonanza", [Seat(f"p{i}") for i in range(n)], seed,
                        contributions=[bytes([i]) + seed[1:] for i in range(n)],
                        signer=signer, seat_keys=[s.public for s in SEATS[:n]])


def _move(m: Match, pick: int) -> dict:
    """One legal move of the active seat (a roll or a write), with its signed intent."""
    st_, seat = m.state, m.state.active
    if st_.dice is None or (st_.rolls_left and pick % 3):
        body = signing.intent_body(st_.seq, "roll", [False] * 5)
        body["sig"] = SEATS[seat].sign_intent(m.log.header["chain"], body)
        rec, refusal = m.roll([False] * 5, intent=body)
    else:
        box = allowed(st_)[pick % len(allowed(st_))]
        body = signing.intent_body(st_.seq, "write", box=box)
        body["sig"] = SEATS[seat].sign_intent(m.log.header["chain"], body)
        rec, refusal = m.write(box, intent=body)
    assert refusal is None
    return rec


@given(n=st.integers(1, signing.BATCH_LIMIT), data=st.data())
def test_every_leaf_of_a_batch_leads_to_its_root_and_nothing_else_does(n, data):
    chains = [secrets.token_bytes(32) for _ in range(n)]
    root, paths = signing.merkle([signing.leaf_hash(c) for c in chains])
    for i, c in enumerate(chains):
        assert signing.batch_root(c, i, n, paths[i]) == root
        assert len(paths[i]) <= (signing.BATCH_LIMIT - 1).bit_length()
    i = data.draw(st.integers(0, n - 1))
    other = data.draw(st.integers(0, n + 1).filter(lambda j: j != i))
    assert signing.batch_root(chains[i], other, n, paths[i]) != root
    assert signing.batch_root(secrets.token_bytes(32), i, n, paths[i]) != root
    # (a path can fit trees of several sizes: the size is in what is signed)
    assert signing.batch_message(n + 1, root) != signing.batch_message(n, root)
    assert signing.batch_root(chains[i], i, n, paths[i] + [root]) is None
    if paths[i]:
        k = data.draw(st.integers(0, len(paths[i]) - 1))
        bent = [bytes(32) if j == k else h for j, h in enumerate(paths[i])]
        assert signing.batch_root(chains[i], i, n, bent) != root
        assert signing.batch_root(chains[i], i, n, paths[i][:-1]) != root


def _mth(d: list[bytes]) -> bytes:
    """RFC 9162 2.1.1, word for word: the tree splits at the largest power of two below n."""
    if len(d) == 1:
        return d[0]
    k = 1 << ((len(d) - 1).bit_length() - 1)
    return signing.node_hash(_mth(d[:k]), _mth(d[k:]))


def _path(m: int, d: list[bytes]) -> list[bytes]:
    """RFC 9162 2.1.3.1: PATH(m, D[n])."""
    if len(d) == 1:
        return []
    k = 1 << ((len(d) - 1).bit_length() - 1)
    return _path(m, d[:k]) + [_mth(d[k:])] if m < k else _path(m - k, d[k:]) + [_mth(d[:k])]


@pytest.mark.parametrize("n", range(1, 2 * signing.BATCH_LIMIT + 2))
def test_the_tree_is_rfc_9162s(n):
    leaves = [bytes([i]) * 32 for i in range(n)]
    root, paths = signing.merkle(leaves)
    assert root == _mth(leaves)
    assert paths == [_path(i, leaves) for i in range(n)]


def test_a_batch_of_one_is_signed_as_a_record_alone():
    """A relay that is not busy writes the same bytes as before batches existed."""
    seed = secrets.token_bytes(32)
    plain, batched = _match(signing.Signer(SEED), 2, seed), \
        _match(signing.BatchSigner(SEED), 2, seed)
    for k in range(30):
        _move(plain, k)
        _move(batched, k)
        batched.log.signer.seal()          # one record per batch
    assert batched.log.encoded == plain.log.encoded


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_tables_signed_in_batches_are_followed_and_verify(data):
    """Three tables' moves interleaved, sealed at random points (a batch fills up at
    BATCH_LIMIT): every record a follower receives checks alone, and every finished log
    verifies, is in the exact format, and holds each record as it was sent."""
    signer = signing.BatchSigner(SEED)
    opened: list[int] = []
    signer.on_open = lambda: opened.append(1)
    matches = [_match(signer, n, data.draw(st.binary(min_size=32, max_size=32)))
               for n in (1, 2, 4)]
    followers, sent = [], [[] for _ in matches]
    for i, m in enumerate(matches):
        f = TableFollower()
        f.start(m.log.header)
        followers.append(f)
    rnd = random.Random(data.draw(st.integers(0, 2**32)))
    seal_every = data.draw(st.integers(1, 2 * signing.BATCH_LIMIT))
    while not all(m.state.over for m in matches):
        i = rnd.choice([i for i, m in enumerate(matches) if not m.state.over])
        m = matches[i]
        _move(m, rnd.randrange(100))
        m.log.when_sealed(len(m.log) - 1, lambda b, i=i: sent[i].append(b))
        if rnd.randrange(seal_every) == 0:
            signer.seal()
    signer.seal()
    assert opened
    batched = 0
    for i, m in enumerate(matches):
        assert sent[i] == m.log.encoded
        for rec in m.log.records:
            followers[i].take(rec)
            batched += "batch" in rec
        m.finish()
        data_ = m.log.to_bytes()
        followers[i].finish({"type": "end", "end": m.log.end, "log": data_})
        assert followers[i].verdict.ok
        verdict = verify_bytes(data_)
        assert verdict.ok, verdict.detail
        check_log(parse_log(data_))
    assert batched or seal_every == 1


def _batched_log() -> tuple[bytes, list[dict]]:
    signer = signing.BatchSigner(SEED)
    m = _match(signer, 2, secrets.token_bytes(32))
    k = 0
    while not m.state.over:
        _move(m, k)
        k += 1
        if k % 5 == 0:
            signer.seal()
    m.finish()
    return m.log.to_bytes(), m.log.records


@pytest.mark.parametrize("bend", ["index", "size", "path", "sig", "dropped"])
def test_a_bent_batch_proof_is_refused(bend):
    data, records = _batched_log()
    rec = next(r for r in records if "batch" in r and r["batch"][0] == 1)
    changed = dict(rec)
    index, size, path = rec["batch"]
    if bend == "index":
        changed["batch"] = [0, size, path]
    elif bend == "size":
        changed["batch"] = [index, size + 1, path]
    elif bend == "path":
        changed["batch"] = [index, size, [bytes(32)] + path[1:]]
    elif bend == "sig":
        changed["sig"] = bytes(64)
    else:
        del changed["batch"]
    assert not signing.record_signed(signing.Signer(SEED).public, changed)
    forged = data.replace(pack(rec), pack(changed))
    assert forged != data
    verdict = verify_bytes(forged)
    assert not verdict.ok and verdict.code == "signature", verdict
    f = TableFollower()
    f.start(parse_log(data).header)
    with pytest.raises(Desync, match="not signed by the relay"):
        for r in records:
            f.take(changed if r is rec else r)


def test_a_batch_proof_in_an_unsigned_log_is_refused():
    m = Match.create("bonanza", [Seat("p")], b"s" * 32)
    _move_unsigned = m.roll([False] * 5)[0]
    m.log._encoded[0] = pack(dict(_move_unsigned, batch=[0, 2, [bytes(32)]]))
    while not m.state.over:
        if m.state.dice is None:
            m.roll([False] * 5)
        else:
            m.write(allowed(m.state)[0])
    m.finish()
    verdict = verify_bytes(m.log.to_bytes())
    assert not verdict.ok


def test_the_batch_fields_are_in_the_logged_encoding():
    data, records = _batched_log()
    rec = next(r for r in records if "batch" in r)
    assert list(rec)[-3:] == ["chain", "sig", "batch"]
    assert msgpack.unpackb(pack(rec), raw=False) == rec


@pytest.mark.parametrize("arrives", ["watch", "resume"])
def test_a_connection_arriving_while_a_move_waits_for_its_batch_gets_it_once(arrives):
    """A move made earlier in the same pass of the relay's loop (as the clock or a bot makes
    one) still waits for its batch signature when a watcher or a resuming seat arrives: the
    newcomer finds it in its snapshot and is not sent it again (nor before the snapshot).
    Real relay over TCP, the newcomer speaking raw frames; the move is made just before
    the request is handled."""
    async def main():
        async with running_relay() as relay:
            a, b = await connect(relay), await connect(relay)
            code = (await a.create_table("Ana", 2, 90))["table"]["code"]
            await b.join(code, "Ben")
            await a.start()
            for _ in range(3):
                mover = a if a.my_turn else b
                await mover.wait_until(lambda: mover.seq == a.seq == b.seq)
                await play_turn_step(mover)
            await a.wait_until(lambda: a.seq == b.seq)
            table = relay.tables[code]
            dispatch = relay.dispatch
            pending = []

            def dispatch_after_a_move(conn, msg):
                if msg["type"] == arrives:
                    seat = table.match.state.active
                    st_ = table.match.state     # a move the clock makes (``auto``)
                    assert (table.roll(seat, [False] * 5, auto=True) if st_.dice is None
                            else table.write(seat, choose_box(st_), auto=True)) is None
                    pending.append(relay.sealing)
                dispatch(conn, msg)
            relay.dispatch = dispatch_after_a_move
            if arrives == "resume":
                await b.close()
            reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
            writer.write(encode_frame({"type": "hello", "version": PROTOCOL_VERSION}))
            writer.write(encode_frame({"type": "watch", "code": code} if arrives == "watch"
                                      else {"type": "resume", "token": b.token, "seq": 0}))
            frames, got = FrameDecoder(MAX_RELAY_FRAME), []
            reply = "watching" if arrives == "watch" else "resumed"
            while not any(m["type"] == reply for m in got):
                got += frames.feed(await asyncio.wait_for(reader.read(65536), 10))
            relay.dispatch = dispatch
            assert pending == [True]
            await a.wait_until(lambda: a.seq == 4)
            snapshot = next(m for m in got if m["type"] == reply)
            assert [r["seq"] for r in snapshot["records"]] == [1, 2, 3, 4]
            assert snapshot["records"] == a.records
            writer.write(encode_frame({"type": "ping"}))    # everything sent before its pong
            while got[-1]["type"] != "pong":
                got += frames.feed(await asyncio.wait_for(reader.read(65536), 10))
            assert [m["record"]["seq"] for m in got if m["type"] == "move"] == []
            writer.close()
    asyncio.run(main())

