"""A player's seat key lasts with the profile; relay keys are remembered like known hosts."""
from __future__ import annotations

import os
import stat

import pytest

from client.profile import Profile
from relay.keys import KeyFileError, load_or_create


def test_the_seat_key_is_made_once_and_kept(tmp_path):
    a = Profile(tmp_path).seat_signer()
    b = Profile(tmp_path).seat_signer()
    assert a.public == b.public and len(a.public) == 32
    path = tmp_path / "seat.key"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_a_damaged_key_file_is_an_error_not_a_new_key(tmp_path):
    path = tmp_path / "relay.key"
    path.write_bytes(b"not a key")
    with pytest.raises(KeyFileError, match="is not a signing key"):
        load_or_create(path)
    assert path.read_bytes() == b"not a key"       # never replaced silently


def test_relay_keys_are_remembered_per_address(tmp_path):
    p = Profile(tmp_path)
    assert p.check_relay_key("192.168.1.5", 7468, "aaaa bbbb") == "new"
    assert p.check_relay_key("192.168.1.5", 7468, "aaaa bbbb") == "known"
    assert Profile(tmp_path).check_relay_key("192.168.1.5", 7468, "aaaa bbbb") == "known"
    assert p.check_relay_key("192.168.1.5", 7468, "cccc dddd") == "changed"
    assert p.check_relay_key("192.168.1.6", 7468, "cccc dddd") == "new"
