"""Play again and watch, through the real relay the window hosts: after a table game the
host presses Play again, the guest takes the offer, a new verified game starts; a watcher
found on the Join screen follows the new game and leaves with one press."""
from __future__ import annotations

import pygame

from tests.pilot import play_own_turn, seat_player, step_until


def _play_out(app, table, others, seconds=90):
    """Both seats play to the end, every move their own: a move the clock had to make
    (a seat that waited out its turn) fails here instead of costing a minute."""
    step_until(app, lambda: type(app.scene).__name__ != "TableScene", seconds,
               what="the table game's end", others=[*others, lambda: play_own_turn(app, table)])
    clock_moves = [r["move"] for r in table.conn.records if r["move"].get("auto")]
    assert not clock_moves, clock_moves


def test_play_again_with_the_same_people_and_a_watcher(data_dirs, artifacts):
    from bonanza.client.actions import Action
    from bonanza.client.app import App
    from bonanza.client.relay_client import RelayConnection
    app = App((1280, 720), data_dir=str(data_dirs["data"]), advisor=False)
    app.profile.settings["animation"] = "off"
    app.profile.name = "Host"
    app.scene.on_press("host")
    app.scene.go()
    lobby = app.scene
    guest = watcher = None
    try:
        assert step_until(app, lambda: lobby.table is not None)
        guest = RelayConnection("127.0.0.1", lobby.port)
        assert step_until(app, lambda: guest.status == "connected")
        guest.send({"type": "join", "code": lobby.table["code"], "name": "Guest"})
        assert step_until(app, lambda: len(lobby.table.get("players", [])) == 2)
        app.dispatch(Action("press", "start"))
        assert step_until(app, lambda: type(app.scene).__name__ == "TableScene")
        _play_out(app, app.scene, [seat_player(guest)])
        results = app.scene
        assert type(results).__name__ == "ResultsScene" and results.verdict.ok
        first_code = results.conn.table["code"]
        assert results.enabled(Action("press", "again"))
        app.dispatch(Action("press", "again"))             # the host asks to play again
        relobby = app.scene
        assert type(relobby).__name__ == "LobbyScene"
        inbox: list = []            # everything the guest hears from here on

        def listen():
            inbox.extend(guest.poll())
        assert step_until(app, lambda: (relobby.table or {}).get("code") not in (None, first_code),
                      others=[listen])
        offers = lambda: [m for m in inbox if m.get("type") == "rematch"]   # noqa: E731
        assert step_until(app, lambda: offers(), others=[listen])
        assert offers()[0]["code"] == relobby.table["code"] and offers()[0]["by"] == "Host"
        guest.send({"type": "rematch"})                    # the guest takes the offer
        assert step_until(app, lambda: len(relobby.table.get("players", [])) == 2)
        app.screenshot(artifacts / "client_rematch_lobby.png")
        app.dispatch(Action("press", "start"))
        assert step_until(app, lambda: type(app.scene).__name__ == "TableScene")
        table = app.scene
        # a watcher follows the new game
        watcher = RelayConnection("127.0.0.1", relobby.port)
        assert step_until(app, lambda: watcher.status == "connected")
        watcher.send({"type": "watch", "code": relobby.table["code"]})
        assert step_until(app, lambda: watcher.state is not None and watcher.seat is None,
                      others=[watcher.poll])
        assert step_until(app, lambda: (table.conn.table or {}).get("watchers") == 1)
        app.step()
        app.screenshot(artifacts / "client_table_watched.png")
        _play_out(app, table, [seat_player(guest), watcher.poll])
        assert type(app.scene).__name__ == "ResultsScene" and app.scene.verdict.ok
        assert step_until(app, lambda: watcher.end is not None, others=[watcher.poll])
        assert watcher.client.verdict.ok and watcher.records == app.scene.verdict.log.records
    finally:
        for c in (guest, watcher):
            if c is not None:
                c.close(1.0)
        app.close()
        pygame.display.quit()
