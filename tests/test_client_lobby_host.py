"""The joiner's lobby when the host goes: told it hosts now, or sent back to the form when
the table is closed (the host's window took its relay with it).  A real hosted relay."""
from __future__ import annotations

from tests.pilot import step_until


def test_the_joiner_hosts_when_the_host_leaves_and_goes_back_when_the_table_closes(app, artifacts):
    from bonanza.client.actions import Action
    from bonanza.client.hosting import HostedRelay
    from bonanza.client.relay_client import RelayConnection
    from bonanza.client.scenes.lobby import JoinScene
    relay = HostedRelay(host="127.0.0.1")
    host = None
    try:
        assert relay.ready.wait(15) and relay.port
        host = RelayConnection("127.0.0.1", relay.port)
        assert step_until(app, lambda: host.status == "connected")
        host.send({"type": "create_table", "name": "Ana", "seats": 3, "turn_seconds": 60,
                   "ruleset": "bonanza"})
        assert step_until(app, lambda: host.table is not None)
        code = host.table["code"]
        app.profile.name = "Bea"
        join = JoinScene(app)
        app.push(join)
        join.address.value, join.port.value, join.code.value = "127.0.0.1", str(relay.port), code
        join.on_submit("code")
        lobby = app.scene
        assert type(lobby).__name__ == "LobbyScene"
        assert step_until(app, lambda: lobby.table is not None and len(lobby.table["players"]) == 2)
        assert not lobby.enabled(Action("press", "start"))
        host.send({"type": "leave"})                       # Ana leaves the lobby
        assert step_until(app, lambda: app.toast is not None
                      and app.toast.text == lobby.t("lobby.you_are_host"))
        assert lobby.is_host()
        assert lobby.enabled(Action("press", "start"))
        app.screenshot(artifacts / "client_lobby_you_host.png")
        relay.stop()                                       # the table's relay goes away
        assert step_until(app, lambda: app.scene is join, 30)
        assert app.toast.text == join.t("lobby.table_closed")
        assert join.code.value == code                      # the form as it was typed
        app.screenshot(artifacts / "client_lobby_table_closed.png")
    finally:
        if host is not None:
            host.close(1.0)
        relay.stop()


def test_the_join_screen_finds_a_table_on_this_network_and_joins_by_enter(app, artifacts):
    import os

    from bonanza.client.actions import Action
    from bonanza.client.hosting import HostedRelay
    from bonanza.client.relay_client import RelayConnection
    from bonanza.client.scenes.lobby import JoinScene
    assert os.environ["BONANZA_DISCOVERY"].startswith("127.0.0.1:")   # never off the machine
    relay = HostedRelay(host="127.0.0.1")
    host = None
    try:
        assert relay.ready.wait(15) and relay.port
        host = RelayConnection("127.0.0.1", relay.port)
        assert step_until(app, lambda: host.status == "connected")
        host.send({"type": "create_table", "name": "Ana", "seats": 2, "turn_seconds": 45,
                   "ruleset": "yacht"})
        assert step_until(app, lambda: host.table is not None)
        app.profile.name = "Bea"
        join = JoinScene(app)
        app.push(join)
        for _ in range(5):
            app.step()
        assert join.search is None and join.found == []      # opening it sent nothing
        app.dispatch(Action("press", "find"))
        assert step_until(app, lambda: join.search is None and join.found)
        assert [(f.host, f.code, f.port) for f in join.found] == [
            ("Ana", host.table["code"], relay.port)]
        assert join.focus_id == "found0"
        app.screenshot(artifacts / "client_join_found.png")
        app.dispatch(Action("confirm"))                       # Enter on the found table
        lobby = app.scene
        assert type(lobby).__name__ == "LobbyScene"
        assert step_until(app, lambda: lobby.table is not None and len(lobby.table["players"]) == 2)
        assert [p["name"] for p in lobby.table["players"]] == ["Ana", "Bea"]
    finally:
        if host is not None:
            host.close(1.0)
        relay.stop()
