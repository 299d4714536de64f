"""The fast paths produce exactly the bytes of the plain ones: records encoded once by
the match's log, move frames spliced from them (and cut by core.wire like any frame),
frames parsed however the bytes arrive."""
from __future__ import annotations

import asyncio
import os
import struct

import msgpack

from bonanza.core.game import Seat
from bonanza.core.log import GameLog, move_record, parse_log
from bonanza.core.match import Match
from bonanza.core.wire import MAX_RELAY_FRAME, FrameDecoder, encode_frame
from bonanza.relay.tables import move_frame
from tests.relay_harness import connect, running_relay


def _frames(data: bytes) -> list[dict]:
    return FrameDecoder(MAX_RELAY_FRAME).feed(data)


def test_records_and_move_frames_match_core_and_encode_frame():
    """A match encodes each record once; the relay frames those bytes; both are exactly
    what the plain encoders make of the record dicts."""
    m = Match.create("bonanza", [Seat("Ana"), Seat("Bot", "bot", "optimal")], os.urandom(32),
                     mode="table", contributions=[os.urandom(32), None], settings={},
                     meta={"table": "T"})
    expected = []
    for act in ("roll", "roll", "write"):
        prev = m.log.last_chain
        if act == "roll":
            rec, refusal = m.roll([False, True, False, True, False] if m.state.dice else None)
        else:
            rec, refusal = m.write("chance", auto=True)
        assert refusal is None
        encoded = m.log.encoded[-1]
        assert rec == move_record(m.state.seq, rec["move"], m.state, prev)
        expected.append(rec)
        assert m.log.records[-1] == rec and m.log.last_chain == rec["chain"]
        assert encoded == msgpack.packb(rec, use_bin_type=True)
        assert m.log.records == expected and m.log.records_from(1) == expected[1:]
        for clock in (None, {"seat": 1, "turn": 0, "turn_seconds": 30, "remaining": 12.5}):
            assert move_frame(encoded, clock) == encode_frame({"type": "move", "record": rec,
                                                               "clock": clock})
            for rid in (7, "abc"):
                assert move_frame(encoded, clock, rid) == encode_frame(
                    {"type": "move", "record": rec, "clock": clock, "rid": rid})
    # core's log writer gives the same bytes as with plain record dicts
    plain = GameLog(m.log.header, list(expected))
    assert m.log.to_bytes() == plain.to_bytes()
    assert m.give_up(m.state.active)[1] is None
    m.finish({"table": "T"})
    assert m.state.over and m.log.end is not None
    assert parse_log(m.log.to_bytes()).records == m.log.records


def test_an_oversized_frame_gets_its_error_before_the_close():
    """The relay closes after a too-big frame with the frame's body still unread; it ends
    its side first and drops the rest, so the error arrives instead of a reset."""
    async def main():
        async with running_relay() as relay:
            for _ in range(10):
                reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
                writer.write(encode_frame({"type": "hello", "version": 1}))
                body = b"\x00" * 65537
                writer.write(struct.pack(">I", len(body)) + body)
                await writer.drain()
                got = b""
                while True:
                    chunk = await asyncio.wait_for(reader.read(65536), 3)
                    if not chunk:
                        break
                    got += chunk
                assert [m["type"] for m in _frames(got)] == ["welcome", "error"]
                assert _frames(got)[1]["code"] == "bad_message"
                writer.close()
    asyncio.run(main())


def test_frames_split_anywhere_and_pipelined():
    async def main():
        async with running_relay() as relay:
            reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
            data = (encode_frame({"type": "hello", "version": 1, "rid": 1})
                    + encode_frame({"type": "ping", "rid": 2})
                    + encode_frame({"type": "list_tables", "rid": 3}))
            for i in range(len(data)):          # one byte at a time
                writer.write(data[i:i + 1])
                await writer.drain()
                if i % 7 == 0:
                    await asyncio.sleep(0)
            writer.write(encode_frame({"type": "ping", "rid": 4}) * 3)   # three in one segment
            got = b""
            while len(_frames(got)) < 6:
                got += await asyncio.wait_for(reader.read(65536), 3)
            assert [(m["type"], m["rid"]) for m in _frames(got)] == [
                ("welcome", 1), ("pong", 2), ("tables", 3), ("pong", 4), ("pong", 4), ("pong", 4)]
            # an oversized length is refused as soon as the 4 length bytes are in
            writer.write(struct.pack(">I", 1 << 20))
            got = b""
            while True:
                chunk = await asyncio.wait_for(reader.read(65536), 3)
                if not chunk:
                    break
                got += chunk
            assert [m.get("code") for m in _frames(got)] == ["bad_message"]
            writer.close()
            c = await connect(relay)          # the relay is fine
            await c.request({"type": "ping"})
            await c.close()
    asyncio.run(main())


def test_client_turns_a_malformed_relay_message_into_a_desync():
    from bonanza.client.relay_client import RelayClient

    c = RelayClient()
    for msg in ({"type": "move"}, {"type": "started", "table": {}, "header": 7},
                {"type": "joined"}, {"type": "hold", "held": None}):
        c._handle(msg)            # must not raise out of the read loop
        assert c.desync and c.events.get_nowait()["type"] == "desync"
