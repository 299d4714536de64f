"""Long-lived signing keys on disk: the relay's, and a player's seat key.

A key file holds the 32-byte Ed25519 seed and nothing else, readable by its owner only.
A missing file is created (from the operating system's random source); a file that is
not a key is an error naming the file, never silently replaced, because a replaced key
would make every earlier signature look like someone else's.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from bonanza.core.signing import KEY_BYTES, Signer


class KeyFileError(Exception):
    """The key file exists but cannot be used; the message says which and why."""


def load_or_create(path: str | os.PathLike) -> Signer:
    path = Path(path)
    try:
        seed = path.read_bytes()
    except FileNotFoundError:
        seed = secrets.token_bytes(KEY_BYTES)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".new")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(seed)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)          # never overwrite a key another process just made
        except FileExistsError:
            seed = path.read_bytes()
        finally:
            tmp.unlink(missing_ok=True)
    except OSError as e:
        raise KeyFileError(f"cannot read the key file {path}: {e.strerror or e}") from None
    if len(seed) != KEY_BYTES:
        raise KeyFileError(f"{path} is not a signing key ({len(seed)} bytes, not {KEY_BYTES}); "
                           "move it away to make a new key")
    return Signer(seed)
