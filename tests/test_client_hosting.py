"""Where a hosted relay listens: every interface on the default port for a player; the
loopback on a port the system picks in tests, so a test never meets a game on this machine."""
from __future__ import annotations

import pytest

from bonanza.client import hosting
from bonanza.core.settings import DEFAULT_PORT


def test_a_players_relay_listens_everywhere_on_the_default_port(monkeypatch):
    monkeypatch.delenv(hosting.ADDRESS_ENV)
    monkeypatch.delenv(hosting.PORT_ENV)
    assert hosting.host_address() == "0.0.0.0" and hosting.host_port() == DEFAULT_PORT


@pytest.mark.parametrize("value", ["", "seven", "-1", "70000"])
def test_a_port_that_is_not_a_port_keeps_the_default(monkeypatch, value):
    monkeypatch.setenv(hosting.PORT_ENV, value)
    assert hosting.host_port() == DEFAULT_PORT


def test_a_relay_hosted_in_a_test_listens_on_the_loopback_on_a_free_port():
    relay = hosting.HostedRelay.on_default_port()
    try:
        assert relay.ready.wait(30) and relay.port, relay.error
        args = relay.proc.args
        assert args[args.index("--host") + 1] == "127.0.0.1" and args[args.index("--port") + 1] == "0"
        assert relay.port != DEFAULT_PORT
    finally:
        relay.stop()
