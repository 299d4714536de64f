"""Two clients play a table game through a real relay on loopback: the window
client hosts (the relay runs as its child process), a second client joins."""
from __future__ import annotations

import pygame

from tests.pilot import play_own_turn, seat_player, step_until


def test_two_clients_play_a_table(data_dirs, artifacts):
    from bonanza.client.actions import Action
    from bonanza.client.app import App
    from bonanza.client.relay_client import RelayConnection
    app = App((1280, 720), data_dir=str(data_dirs["data"]), advisor=False)
    app.profile.settings["animation"] = "off"
    app.profile.name = "Host"
    app.scene.on_press("host")
    host = app.scene
    host.change("turn", -1)            # 45 s per turn
    app.step()
    app.screenshot(artifacts / "client_host_setup.png")
    host.go()
    lobby = app.scene
    assert type(lobby).__name__ == "LobbyScene"
    step_until(app, lambda: lobby.table is not None, what="the hosted table")
    code = lobby.table["code"]
    guest = RelayConnection("127.0.0.1", lobby.port)
    try:
        step_until(app, lambda: guest.status == "connected", what="the guest's connection")
        guest.send({"type": "join", "code": code, "name": "Guest"})
        step_until(app, lambda: len(lobby.table.get("players", [])) >= 2, what="the guest in the lobby")
        app.screenshot(artifacts / "client_lobby_two.png")
        app.dispatch(Action("press", "start"))
        step_until(app, lambda: type(app.scene).__name__ != "LobbyScene", 60, what="the game")
        table = app.scene
        assert type(table).__name__ == "TableScene"
        shot = False
        guest_plays = seat_player(guest)

        def play() -> None:
            nonlocal shot
            st = table.state
            if st is not None and not st.over:
                if table.my_turn():
                    if st.dice is not None and not shot:
                        app.screenshot(artifacts / "client_table_two.png")
                        shot = True
                    play_own_turn(app, table)
            guest_plays()
        step_until(app, lambda: type(app.scene).__name__ != "TableScene", 120, what="the game's end",
                   others=[play])
        assert type(app.scene).__name__ == "ResultsScene"
        res = app.scene
        assert res.verdict is not None and res.verdict.ok
        assert len(res.standings) == 2
        app.screenshot(artifacts / "client_table_results.png")
    finally:
        guest.close(1.0)
        for sc in app.scenes:
            relay = getattr(sc, "relay", None)
            if relay is not None:
                relay.stop()
        if getattr(lobby, "relay", None) is not None:
            lobby.relay.stop()
        pygame.display.quit()
