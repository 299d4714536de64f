"""The others see who is disconnected: when a guest's connection drops mid-game the host's
table shows "<name> is disconnected" (its turns now run on a short clock, relay side)."""
from __future__ import annotations

import pygame

from tests.pilot import step_until


def _until(app, cond, limit: float = 20.0, poll=None) -> None:
    step_until(app, cond, limit, others=[poll] if poll is not None else ())


def test_the_table_says_who_is_disconnected(data_dirs, artifacts):
    from bonanza.client.actions import Action
    from bonanza.client.app import App
    from bonanza.client.relay_client import RelayConnection
    app = App((960, 540), data_dir=str(data_dirs["data"]), advisor=False)
    app.profile.settings["animation"] = "off"
    app.profile.name = "Host"
    app.scene.on_press("host")
    app.scene.go()
    lobby = app.scene
    guest = None
    try:
        _until(app, lambda: lobby.table is not None)
        guest = RelayConnection("127.0.0.1", lobby.port)
        _until(app, lambda: guest.status == "connected")
        guest.send({"type": "join", "code": lobby.table["code"], "name": "Guest"})
        _until(app, lambda: len(lobby.table.get("players", [])) == 2)
        app.dispatch(Action("press", "start"))
        _until(app, lambda: type(app.scene).__name__ == "TableScene"
               and app.scene.state is not None, 60, guest.poll)
        table = app.scene
        assert table.away_banner() is None
        guest.close(1.0)
        _until(app, lambda: table.away_banner() is not None)
        assert table.away_banner() == table.t("table.player_disconnected", name="Guest")
        assert table.seat_status()[1] == "disconnected"
        app.step()
        app.screenshot(artifacts / "client_table_away_banner.png")
    finally:
        if guest is not None:
            guest.close(1.0)
        for sc in app.scenes:
            relay = getattr(sc, "relay", None)
            if relay is not None:
                relay.stop()
        if getattr(lobby, "relay", None) is not None:
            lobby.relay.stop()
        pygame.display.quit()


def test_the_banner_names_who_is_away_and_says_when_the_host_left():
    from bonanza.client import lang
    from bonanza.client.scenes.table import away_text
    t = lang.t
    names = ["Host", "Ana", "Ben"]
    assert away_text(t, ["connected"] * 3, names, 1, 0, False) is None
    assert away_text(t, ["connected", "connected", "disconnected"], names, 1, 0, False) == \
        t("table.player_disconnected", name="Ben")
    assert away_text(t, ["connected", "disconnected", "disconnected"], names, 0, 0, True) == \
        t("table.players_disconnected", names="Ana, Ben")
    assert away_text(t, ["disconnected", "connected", "gave_up"], names, 1, 0, False) == \
        t("table.host_left")
    assert away_text(t, ["connected", "disconnected", "connected"], names, 1, 0, False) is None
