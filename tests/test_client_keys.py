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


def test_relay_keys_are_pinned_by_key_with_their_addresses(tmp_path):
    from bonanza.core.signing import fingerprint
    a, b = b"a" * 32, b"b" * 32
    p = Profile(tmp_path)
    assert p.check_relay_key("192.168.1.5", 7468, a) == ("new", None)
    assert p.check_relay_key("192.168.1.5", 7468, a) == ("known", None)
    assert Profile(tmp_path).check_relay_key("192.168.1.5", 7468, a) == ("known", None)
    # the same relay met at another address is known by its key
    assert p.check_relay_key("10.0.0.2", 7000, a) == ("known", None)
    assert p.settings["relay_keys"] == {a.hex(): ["192.168.1.5:7468", "10.0.0.2:7000"]}
    # another key at a pinned address: the old fingerprint beside the new, nothing replaced
    assert p.check_relay_key("192.168.1.5", 7468, b) == ("changed", fingerprint(a))
    assert p.check_relay_key("192.168.1.5", 7468, b) == ("changed", fingerprint(a))
    assert not p.relay_key_met(b)
    # a relay that gives no key is unknown, never a first visit
    assert p.check_relay_key("192.168.1.5", 7468, None) == ("unknown", None)
    assert p.check_relay_key("192.168.1.9", 7468, None) == ("unknown", None)
    # accepting replaces the pin for that address only
    p.pin_relay_key("192.168.1.5", 7468, b)
    assert Profile(tmp_path).check_relay_key("192.168.1.5", 7468, b) == ("known", None)
    assert p.check_relay_key("10.0.0.2", 7000, a) == ("known", None)
    assert p.check_relay_key("192.168.1.5", 7468, a) == ("known", None)   # a's key, met before


def test_a_fingerprint_remembered_by_an_older_version_still_counts(tmp_path):
    from bonanza.core.signing import fingerprint
    a, b = b"a" * 32, b"b" * 32
    p = Profile(tmp_path)
    p.settings["relays"] = {"192.168.1.5:7468": fingerprint(a)}
    assert p.check_relay_key("192.168.1.5", 7468, b) == ("changed", fingerprint(a))
    assert p.check_relay_key("192.168.1.5", 7468, a) == ("known", None)
    assert p.settings["relays"] == {} and p.relay_key_met(a)


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
