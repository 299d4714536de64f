"""Frames: a 4-byte big-endian length, then one msgpack map (docs/protocol.md)."""
from __future__ import annotations

import asyncio
import struct
from typing import Any

import msgpack

PROTOCOL_VERSION = 1
LENGTH = struct.Struct(">I")
MAX_CLIENT_FRAME = 64 * 1024          # client -> relay
MAX_RELAY_FRAME = 8 * 1024 * 1024     # relay -> client


class FrameError(Exception):
    """A frame that cannot be accepted; the connection is closed after it."""


def pack_frame(msg: Any) -> bytes:
    body = msgpack.packb(msg, use_bin_type=True)
    return LENGTH.pack(len(body)) + body


def decode_body(body: bytes, max_len: int) -> dict:
    try:
        msg = msgpack.unpackb(body, raw=False, strict_map_key=True,
                              max_str_len=max_len, max_bin_len=max_len,
                              max_array_len=max_len, max_map_len=max_len, max_ext_len=max_len)
    except Exception as e:  # any decoding problem is the sender's
        raise FrameError(f"the frame is not valid msgpack ({type(e).__name__})") from None
    if not isinstance(msg, dict):
        raise FrameError("a message must be a msgpack map")
    if not isinstance(msg.get("type"), str):
        raise FrameError("a message needs a string 'type'")
    return msg


async def read_frame(reader: asyncio.StreamReader, max_len: int) -> dict:
    """Read one frame; the length is checked before the body is read.

    Raises ``asyncio.IncompleteReadError`` at end of stream, ``FrameError`` for a bad frame.
    """
    head = await reader.readexactly(4)
    (n,) = LENGTH.unpack(head)
    if n == 0 or n > max_len:
        raise FrameError(f"frame length {n} is outside 1..{max_len}")
    return decode_body(await reader.readexactly(n), max_len)
