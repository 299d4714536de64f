"""The wire: a 4-byte big-endian length, then one msgpack map (docs/protocol.md, "Framing").

Sans-I/O: bytes in, messages out, and messages back to bytes; no sockets, no event loop.
The relay's connections, the client library and the load benchmark all cut and make
frames here, so the size caps and what counts as a message are one rule for both sides,
and the client does not import the relay's package to speak to it.
"""
from __future__ import annotations

import struct
from typing import Any, Callable

import msgpack

PROTOCOL_VERSION = 1
LENGTH = struct.Struct(">I")
MAX_CLIENT_FRAME = 64 * 1024          # client -> relay
MAX_RELAY_FRAME = 8 * 1024 * 1024     # relay -> client


class FrameError(Exception):
    """A frame that cannot be accepted; the stream is closed after it.

    ``messages`` are the whole, valid messages that came before the bad frame in the
    same ``feed``: a sender's last good requests are still answered before the close."""

    def __init__(self, reason: str, messages: list[dict[str, Any]] | None = None):
        super().__init__(reason)
        self.messages: list[dict[str, Any]] = messages if messages is not None else []


def encode_frame(msg: Any) -> bytes:
    """One frame.  Any msgpack value packs (tests send bad frames); peers send maps."""
    body = _pack(msg)
    return LENGTH.pack(len(body)) + body


# ``msgpack.packb(msg, use_bin_type=True)`` without a new Packer per frame (one Packer is
# safe to share: see ``core.log``)
_pack: Callable[[object], bytes] = msgpack.Packer(use_bin_type=True).pack


def decode_message(body: bytes, max_len: int) -> dict[str, Any]:
    """One frame's body as a message: a msgpack map with a string ``type``."""
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


class FrameDecoder:
    """Cuts a byte stream into messages, however the bytes arrive.

    A frame's length is checked as soon as its 4 length bytes are in, before any of its
    body is kept, so at most ``max_len + 3`` bytes are ever held.  After a bad frame the
    stream cannot be resynchronised: every later ``feed`` raises ``FrameError`` again."""

    __slots__ = ("max_len", "_parts", "_have", "_need", "_failed")

    def __init__(self, max_len: int):
        self.max_len = max_len
        # An incomplete frame, kept in the pieces it came in (joined once it is whole, so a
        # large frame arriving in many reads is not copied again at every read).
        self._parts: list[bytes] = []
        self._have = 0                   # bytes in _parts
        self._need = 0                   # bytes _parts must reach before a frame can be cut
        self._failed: str | None = None

    @property
    def buffered(self) -> int:
        """Bytes of an incomplete frame held."""
        return self._have

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        """The messages completed by ``data``, in order; raises ``FrameError`` at a bad
        frame (with the messages before it in ``FrameError.messages``)."""
        if self._failed is not None:
            raise FrameError(f"the stream is closed after a bad frame ({self._failed})")
        if not self._parts and len(data) > 4:
            # the common case, one whole frame in one read: cut at once
            (n,) = LENGTH.unpack_from(data)
            if n == len(data) - 4 and n <= self.max_len:
                try:
                    return [decode_message(data[4:], self.max_len)]
                except FrameError as e:
                    self._failed = str(e)
                    raise
        if self._parts:
            self._parts.append(data)
            self._have += len(data)
            if self._have < self._need:
                return []
            data = b"".join(self._parts)
            self._parts = []
        max_len = self.max_len
        unpack_len = LENGTH.unpack_from
        out: list[dict[str, Any]] = []
        pos, size = 0, len(data)
        need = 4
        try:
            while size - pos >= 4:
                (n,) = unpack_len(data, pos)
                if n == 0 or n > max_len:     # before any of the body is kept
                    raise FrameError(f"frame length {n} is outside 1..{max_len}")
                end = pos + 4 + n
                if end > size:
                    need = 4 + n
                    break
                out.append(decode_message(data[pos + 4:end], max_len))
                pos = end
        except FrameError as e:
            self._failed = str(e)
            self._parts, self._have = [], 0
            raise FrameError(str(e), out) from None
        if pos < size:
            self._parts = [data[pos:] if pos else data]
            self._have, self._need = size - pos, need
        else:
            self._have = 0
        return out
