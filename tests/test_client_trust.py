"""The window against a hostile relay (issue 21): what a seat sat down to is what it plays,
a detected tampering is a screen (never a hang), and a relay key is pinned by key.

A real relay runs in-process on 127.0.0.1 (its own thread); the cheating parts are test
hooks (``regrind_seed``) or a proxy in the middle (``frame_proxy``), never shipped code.
Screens are saved at 960x540 in the six languages into test-artifacts/."""
from __future__ import annotations

import asyncio

import pygame
import pytest

from bonanza.client.i18n import LANGUAGES
from bonanza.core.log import chain_start
from tests import pilot
from tests.relay_harness import frame_proxy, regrind_seed, relay_in_thread

SMALL = (960, 540)


@pytest.fixture
def window(data_dirs):
    with pilot.window(data_dirs["data"], size=SMALL) as app:
        app.profile.name = "Ana"
        app.profile.save()
        yield app


def _shots(app, artifacts, name: str) -> None:
    for code in LANGUAGES:
        app.set_language(code)
        app.screenshot(artifacts / f"{name}_{code}.png")
    app.set_language("en")


def _host(app, port: int):
    """The window opens a two-seat table on the relay at ``port`` (the other seat a bot)."""
    from bonanza.client.relay_client import RelayConnection
    conn = RelayConnection("127.0.0.1", port, signer=app.profile.seat_signer())
    lobby = app.open("lobby", conn, "127.0.0.1", port, request={
        "type": "create_table", "name": "Ana", "seats": 2, "turn_seconds": 90, "bots": "casual"})
    pilot.step_until(app, lambda: lobby.table is not None, 20, "the table")
    return lobby


def _contribution(msg):
    chosen = b"\x00" * 32
    from bonanza.core.dice import commitment
    if msg.get("type") in ("create_table", "join"):
        msg = dict(msg, contribution_commit=commitment(chosen))
    elif msg.get("type") == "reveal":
        msg = dict(msg, contribution=chosen)
    return msg


def _no_relay_key(msg):
    if msg.get("type") == "welcome":
        msg = {k: v for k, v in msg.items() if k != "relay_key"}
    return msg


def _other_commit(msg):
    if msg.get("type") == "started":
        header = dict(msg["header"], dice=dict(msg["header"]["dice"], commit=b"\x07" * 32))
        header["chain"] = chain_start(header)
        msg = dict(msg, header=header)
    return msg


ATTACKS = {   # attack -> (proxy to the relay, proxy to the client, the screen's reason)
    "regrind": (None, None, "commitment"),
    "contribution": (_contribution, None, "contribution"),
    "no_relay_key": (None, _no_relay_key, "no_relay_key"),
    "header": (None, _other_commit, "commitment"),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_tampered_game_is_a_screen_before_the_first_roll(window, artifacts, monkeypatch, attack):
    app = window
    to_relay, to_client, code = ATTACKS[attack]
    if attack == "regrind":
        regrind_seed(monkeypatch)
    with relay_in_thread() as (relay, loop):
        port = relay.port
        if to_relay or to_client:
            proxy = asyncio.run_coroutine_threadsafe(
                frame_proxy(relay.port, to_relay, to_client), loop).result(10)
            port = proxy.sockets[0].getsockname()[1]
        lobby = _host(app, port)
        shown = lobby.table["commitment"]
        assert lobby.sat_down_commitment() == shown
        if attack == "no_relay_key":
            pilot.step_until(app, lambda: lobby.relay_key is not None, 10, "the key line")
            assert lobby.relay_key.seen == "unknown"
        if attack == "regrind":
            _shots(app, artifacts, "trust_lobby_commitment")
        lobby.on_press("start")
        pilot.step_until(app, lambda: type(app.scene).__name__ == "UntrustedScene", 20,
                         "the untrusted screen")
        screen = app.scene
        assert screen.code == code
        assert lobby.conn.client.records == []          # before the first roll
        if attack == "regrind":
            assert screen.shown[0] == shown != screen.shown[1]
            _shots(app, artifacts, "trust_untrusted")
        if attack == "contribution":
            _shots(app, artifacts, "trust_untrusted_contribution")
        pilot.key(app, pygame.K_RETURN)
        assert type(app.scene).__name__ == "TitleScene"
        assert app.profile.store.history() == []        # the game is not recorded
        assert lobby.conn.status == "closed"


def test_an_honest_table_shows_the_fingerprint_the_lobby_showed(window, artifacts):
    app = window
    with relay_in_thread() as (relay, _):
        lobby = _host(app, relay.port)
        commit = lobby.sat_down_commitment()
        lobby.on_press("start")
        pilot.step_until(app, lambda: type(app.scene).__name__ == "TableScene", 20, "the table")
        table = app.scene
        assert table.commitment() == commit
        assert table.fingerprint_line(commit).endswith(app.scene.t("table.fingerprint_as_sat_down"))
        _shots(app, artifacts, "trust_table_fingerprint")


@pytest.mark.parametrize("accept", [True, False])
def test_a_changed_key_is_shown_side_by_side_and_asked_about(window, artifacts, accept):
    from bonanza.core.signing import fingerprint
    app = window
    old = b"o" * 32
    with relay_in_thread() as (relay, _):
        app.profile.pin_relay_key("127.0.0.1", relay.port, old)
        from bonanza.client.relay_client import RelayConnection
        conn = RelayConnection("127.0.0.1", relay.port, signer=app.profile.seat_signer())
        lobby = app.open("lobby", conn, "127.0.0.1", relay.port, request={
            "type": "create_table", "name": "Ana", "seats": 2, "turn_seconds": 90})
        pilot.step_until(app, lambda: type(app.scene).__name__ == "RelayKeyChangedScene", 20,
                         "the changed-key question")
        ask = app.scene
        assert ask.note.old == fingerprint(old)
        assert ask.note.fingerprint == fingerprint(relay.signer.public)
        assert not relay.tables                       # nothing is sent before the answer
        if accept:
            _shots(app, artifacts, "trust_key_changed")
            pilot.click(app, "accept")
            pilot.step_until(app, lambda: lobby.table is not None, 20, "the table")
            assert app.profile.check_relay_key("127.0.0.1", relay.port, relay.signer.public) \
                == ("known", None)
            assert "{" not in lobby.relay_key.fingerprint
        else:
            pilot.key(app, pygame.K_ESCAPE)
            assert type(app.scene).__name__ == "TitleScene"
            assert not relay.tables
            assert not app.profile.relay_key_met(relay.signer.public)


def test_the_ranked_screen_shows_the_relay_key_and_asks_when_it_changed(window, artifacts):
    from bonanza.core.signing import fingerprint
    app = window
    with relay_in_thread() as (relay, _):
        app.profile.pin_relay_key("127.0.0.1", relay.port, b"o" * 32)
        ranked = app.open("ranked", host="127.0.0.1", port=relay.port)
        ranked.connect()
        pilot.step_until(app, lambda: ranked.relay_key is not None and ranked.info is not None,
                         20, "the ranked board")
        assert ranked.relay_key.seen == "changed"
        assert ranked.relay_key.fingerprint == fingerprint(relay.signer.public)
        app.screenshot(artifacts / "trust_ranked_key_changed.png")
        ranked.on_press("play")
        pilot.step_until(app, lambda: type(app.scene).__name__ == "RelayKeyChangedScene", 10,
                         "the changed-key question")
        pilot.key(app, pygame.K_ESCAPE)                 # not this relay: no run starts
        assert app.scene is ranked and not ranked.starting
        assert not relay.tables
