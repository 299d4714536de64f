"""The wire layer (core.wire): frames cut the same however the bytes arrive, an oversized
length is refused from its 4 length bytes alone, and junk only ever raises FrameError."""
from __future__ import annotations

import struct

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bonanza.core.wire import MAX_CLIENT_FRAME, FrameDecoder, FrameError, encode_frame

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2 ** 63), 2 ** 64 - 1) | st.floats(allow_nan=False)
    | st.text(max_size=20) | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
MESSAGES = st.builds(lambda kind, rest: dict(rest, type=kind), st.text(min_size=1, max_size=12),
                     st.dictionaries(st.text(max_size=8), VALUES, max_size=5))


def _chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in zip(points, points[1:])]


@settings(max_examples=200, deadline=None)
@given(msgs=st.lists(MESSAGES, max_size=8), cuts=st.lists(st.integers(0, 10 ** 6), max_size=30))
def test_messages_survive_any_chunking(msgs, cuts):
    data = b"".join(encode_frame(m) for m in msgs)
    dec = FrameDecoder(MAX_CLIENT_FRAME)
    got = []
    for chunk in _chunks(data, cuts):
        got += dec.feed(chunk)
    assert got == msgs
    assert dec.buffered == 0


@settings(max_examples=50, deadline=None)
@given(n=st.integers(MAX_CLIENT_FRAME + 1, 2 ** 32 - 1), before=st.lists(MESSAGES, max_size=3))
def test_an_oversized_length_is_refused_from_its_length_bytes(n, before):
    """Only the 4 length bytes are fed: the body never has to arrive (or be kept)."""
    dec = FrameDecoder(MAX_CLIENT_FRAME)
    with pytest.raises(FrameError) as e:
        dec.feed(b"".join(encode_frame(m) for m in before) + struct.pack(">I", n))
    assert f"frame length {n}" in str(e.value)
    assert e.value.messages == before          # what came before is still delivered
    assert dec.buffered == 0
    with pytest.raises(FrameError):            # the stream stays closed
        dec.feed(encode_frame({"type": "ping"}))


def test_a_length_split_over_reads_is_checked_once_complete():
    dec = FrameDecoder(100)
    head = struct.pack(">I", 101)
    assert dec.feed(head[:3]) == []
    with pytest.raises(FrameError):
        dec.feed(head[3:])
    with pytest.raises(FrameError):
        FrameDecoder(100).feed(struct.pack(">I", 0))     # an empty frame is refused too


@pytest.mark.parametrize("body, why", [
    (msgpack.packb([1, 2, 3]), "a message must be a msgpack map"),
    (msgpack.packb({"type": 7}), "a message needs a string 'type'"),
    (msgpack.packb({1: "x"}), "not valid msgpack"),          # keys must be strings
    (b"\xc1\xc1\xc1", "not valid msgpack"),
    (msgpack.packb({"type": "a"}) + b"\x00", "not valid msgpack"),   # trailing bytes
])
def test_bodies_that_are_not_messages(body, why):
    with pytest.raises(FrameError, match=why):
        FrameDecoder(MAX_CLIENT_FRAME).feed(struct.pack(">I", len(body)) + body)


@settings(max_examples=300, deadline=None)
@given(chunks=st.lists(st.binary(max_size=64), max_size=10), max_len=st.integers(1, 1 << 20))
def test_junk_raises_nothing_but_frame_error(chunks, max_len):
    dec = FrameDecoder(max_len)
    for chunk in chunks:
        try:
            for msg in dec.feed(chunk):
                assert isinstance(msg, dict) and isinstance(msg["type"], str)
        except FrameError as e:
            assert all(isinstance(m, dict) for m in e.messages)
    assert dec.buffered <= max_len + 3


@settings(max_examples=100, deadline=None)
@given(junk=st.binary(min_size=1, max_size=200))
def test_junk_inside_a_valid_frame_raises_nothing_but_frame_error(junk):
    """A well-formed length around any body: the body is what gets checked."""
    dec = FrameDecoder(MAX_CLIENT_FRAME)
    try:
        msgs = dec.feed(struct.pack(">I", len(junk)) + junk)
    except FrameError:
        return
    assert len(msgs) == 1 and isinstance(msgs[0]["type"], str)


def test_large_frames_in_small_reads():
    """A relay's finished log arrives in many reads; it is cut once it is whole."""
    msg = {"type": "end", "log": bytes(range(256)) * 4000}
    data = encode_frame(msg) * 2
    dec = FrameDecoder(8 * 1024 * 1024)
    got = []
    for i in range(0, len(data), 4096):
        got += dec.feed(data[i:i + 4096])
    assert got == [msg, msg] and dec.buffered == 0
