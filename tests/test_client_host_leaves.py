"""The host's window is not the table: closing it mid-game asks first; confirmed, the
hosted relay keeps running on its own, the host's seat is played by the clock as away, the
other seat plays to the end and is told the host left, and the relay then stops by itself
(its idle exit).  With no game running the window stops its relay at once (see
tests/test_client_lifecycle.py)."""
from __future__ import annotations

import pygame

from tests import pilot

SPEED = 10      # the hosted relay's game clock runs this much faster: a 30 s turn is 3 s


def _gone(proc, seconds: float) -> bool:
    try:
        proc.wait(seconds)
    except Exception:
        return False
    return True


def test_closing_the_hosts_window_mid_game_leaves_the_table_playing(data_dirs, artifacts,
                                                                     monkeypatch):
    from bonanza.client.actions import Action
    from bonanza.client.hosting import CLOCK_SPEED_ENV
    from bonanza.client.relay_client import RelayConnection
    from bonanza.core.verify import verify_bytes
    monkeypatch.setenv(CLOCK_SPEED_ENV, str(SPEED))
    guest = relay = None
    with pilot.window(data_dirs["data"], size=(960, 540)) as app:
        try:
            app.profile.name = "Host"
            app.scene.on_press("host")
            app.scene.change("turn", -2)          # 30 s per turn
            app.scene.go()
            lobby = app.scene
            pilot.step_until(app, lambda: lobby.table is not None, 15, "the hosted table")
            relay = lobby.relay
            guest = RelayConnection("127.0.0.1", lobby.port)
            pilot.step_until(app, lambda: guest.status == "connected", 15, "the guest")
            guest.send({"type": "join", "code": lobby.table["code"], "name": "Guest"})
            pilot.step_until(app, lambda: len(lobby.table.get("players", [])) == 2, 15,
                             "the guest seated", others=[guest.poll])
            app.dispatch(Action("press", "start"))
            pilot.step_until(app, lambda: type(app.scene).__name__ == "TableScene"
                             and app.scene.state is not None, 30, "the game", others=[guest.poll])
            table = app.scene
            assert table.relay is relay

            pygame.event.post(pygame.event.Event(pygame.QUIT))     # the close button
            app.step()
            assert app.running and table.dialog == "host_quit"    # asked first
            app.screenshot(artifacts / "client_host_quit_question.png")
            pilot.click(app, "dialog_no")                          # Stay: nothing happens
            assert app.running and table.dialog is None
            app._on_ctrl_c()                                       # Ctrl-C asks the same
            assert app.running and table.dialog == "host_quit"
            pilot.click(app, "dialog_yes")                         # Close: the table plays on
            assert not app.running
        finally:
            app.close()
        assert relay.proc.poll() is None, "the hosted relay stopped with the window"

    try:
        # The guest, a real client, plays on; the clock plays the host's seat as away.
        seen_host_gone = False

        def play() -> None:
            nonlocal seen_host_gone
            guest.poll()
            t = guest.table or {}
            host = next((p for p in t.get("players", []) if p["seat"] == t.get("host")), None)
            seen_host_gone = seen_host_gone or (host is not None and not host["connected"])
            st = guest.state
            if st is not None and not st.over and st.active == guest.seat:
                guest.send(pilot.next_move(st))
                seq = st.seq
                pilot.wait_until(lambda: guest.state.seq != seq or guest.end is not None, 10,
                                 what="the guest's move", others=[guest.poll])
        pilot.wait_until(lambda: guest.end is not None, 60,
                         what="the game's end without its host", others=[play])
        assert seen_host_gone
        standings = {s["name"]: s for s in guest.end["standings"]}
        assert standings["Host"]["gave_up"] == "away" and standings["Guest"]["gave_up"] is None
        assert verify_bytes(guest.end["log"]).ok
        guest.close(1.0)
        guest = None
        # nobody connected and no game running: the relay stops by itself
        assert _gone(relay.proc, 40), "the detached relay never stopped"
        assert relay.proc.returncode == 0
    finally:
        if guest is not None:
            guest.close(1.0)
        if relay is not None:
            relay.stop()

