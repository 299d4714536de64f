"""A player's seat key lasts with the profile; relay keys are remembered like known hosts."""
from __future__ import annotations

import os
import stat

import pytest

from bonanza.client.profile import Profile
from bonanza.relay.keys import KeyFileError, load_or_create


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


def test_the_joiners_records_hold_her_own_score(tmp_path):
    """Bea joined Ana's table from her own window: her store keeps Bea's total, found by
    her seat key, whatever name her profile has."""
    import asyncio

    from bonanza.client.relay_client import RelayClient
    from bonanza.client.store import open_store
    from tests.relay_harness import connect, play_to_end, running_relay

    bea_dir = tmp_path / "bea"
    bea_key = load_or_create(bea_dir / "seat.key")

    async def main():
        async with running_relay() as relay:
            a = await connect(relay)
            b = await RelayClient.open("127.0.0.1", relay.port, signer=bea_key)
            j = await a.create_table("Ana", 2, 90)
            await b.join(j["table"]["code"], "Bea")
            await a.start()
            await play_to_end([a, b])
            return b.end["log"], b.state
    log, final = asyncio.run(asyncio.wait_for(main(), 90))
    store, _ = open_store(bea_dir)
    try:
        assert store.profile()["name"] != "Bea"
        rec = store.record_game(log)
        seat = final.setup.seats.index(next(s for s in final.setup.seats if s.name == "Bea"))
        assert rec.name == "Bea" and rec.score == final.total(seat)
        assert store.best("bonanza", "table") == final.total(seat)
    finally:
        store.close()
