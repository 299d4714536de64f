"""A relay that disappears mid-game for good (the connection gives up resuming): the
table says so in the player's language, and Leave / Escape go back to the menu instead
of sending a leave nobody will answer."""
from __future__ import annotations

import pygame
import pytest

from bonanza.client import lang
from tests.pilot import key


class LostRelay:
    """A DemoConnection whose relay goes away: reconnecting, then closed."""

    def __init__(self, seats=2):
        from tests.doubles import DemoConnection
        self.demo = DemoConnection(seats=seats)
        self.inbox = []
        self.closed = False
        self.relay_stopped = False

    def __getattr__(self, name):
        return getattr(self.demo, name)

    def poll(self):
        out, self.inbox = self.inbox, []
        return out

    def go(self, status):
        self.demo.status = status
        self.inbox.append({"type": "status", "status": status})

    def close(self, timeout=0):
        self.closed = True


@pytest.mark.parametrize("scene_kind", ["table", "daily"])
def test_relay_gone_for_good_lets_the_player_leave(app, scene_kind):
    from bonanza.client.scenes.table import DailyRelayGameScene, TableScene
    from bonanza.client.scenes.title import TitleScene
    conn = LostRelay()
    if scene_kind == "table":
        scene = TableScene(app, conn)
    else:
        scene = DailyRelayGameScene(app, conn, "127.0.0.1", 7468, "2024-06-01", "Ana")
    app.push(scene)
    app.step()
    conn.go("reconnecting")
    app.step()
    assert app.toast.text == lang.t("error.connection_lost")
    conn.go("closed")
    app.step()
    assert app.toast.text == lang.t("table.disconnected")
    key(app, pygame.K_ESCAPE)                 # nothing pending: the leave / give-up dialog
    assert scene.dialog == "give_up"
    key(app, pygame.K_LEFT)                   # Yes
    key(app, pygame.K_RETURN)
    assert isinstance(app.scene, TitleScene)
    assert conn.closed
    assert not [m for m in conn.sent if m.get("type") == "leave"]


def test_relay_gone_after_giving_up_still_lets_the_player_leave(app, artifacts):
    from bonanza.client.actions import Action
    from bonanza.client.scenes.table import TableScene
    conn = LostRelay(seats=4)
    conn.demo.match.give_up(0)
    assert not conn.state.over
    scene = TableScene(app, conn)
    app.push(scene)
    app.step()
    # already out: Leave is not grey, it offers the menu (and the standings so far)
    assert scene.enabled(Action("press", "give_up"))
    app.dispatch(Action("press", "give_up"))
    assert scene.dialog == "you_left" and scene.dialog_lines()[-1].startswith("4. Ana")
    app.screenshot(artifacts / "client_table_you_left.png")
    key(app, pygame.K_ESCAPE)                 # keep watching
    assert scene.dialog is None
    key(app, pygame.K_ESCAPE)                 # Escape offers the menu again
    assert scene.dialog == "you_left"
    conn.go("closed")
    app.step()
    app.dispatch(Action("press", "dialog_yes"))   # Back to menu, relay or not
    from bonanza.client.scenes.title import TitleScene
    assert isinstance(app.scene, TitleScene)


def test_a_still_table_drops_to_the_idle_frame_rate(app):
    """Nothing moves and the clock is far from its end: not animating (20 fps); a message
    from the relay or a new second on the clock still redraws."""
    from bonanza.client.scenes.table import TableScene
    conn = LostRelay(seats=4)
    conn.demo.clock = dict(conn.demo.clock, remaining=50.0)
    scene = TableScene(app, conn)
    app.push(scene)
    app.step(0.01, draw=False)
    app.draw()
    assert not scene.animating()
    assert not app.needs_redraw()
    app.step(0.01, draw=False)
    assert not app.needs_redraw()
    app.step(1.0, draw=False)                                   # 50 s -> 49 s on the clock
    assert app.needs_redraw()
    app.draw()
    conn.demo.held = [True, False, False, False, False]
    conn.inbox.append({"type": "hold", "seat": 1, "held": conn.demo.held})
    app.step(0.01, draw=False)                      # another player's hold
    assert app.needs_redraw()
    app.draw()
    conn.demo.clock = dict(conn.demo.clock, remaining=8.0)
    scene._take_clock(conn.demo.clock)
    assert scene.animating()                        # the urgent clock pulses


def test_a_desync_leaves_the_table_for_the_untrusted_screen(app):
    """A move that does not add up is not played on: the table gives way to the "cannot be
    trusted" screen in the player's language, the seat is forgotten and nothing recorded."""
    from bonanza.client.scenes.table import TableScene
    conn = LostRelay()
    scene = TableScene(app, conn)
    scene.code = "ABCDE"
    app.profile.remember_table("ABCDE", "127.0.0.1", 7468, "token")
    app.push(scene)
    app.step(1 / 60)
    conn.inbox.append({"type": "desync", "message": "move 7: the state hash does not match",
                       "code": "records", "shown": None})
    lang.set_language("nl")
    app.step(1 / 60)
    assert type(app.scene).__name__ == "UntrustedScene" and app.scene.code == "records"
    assert conn.closed and "ABCDE" not in app.profile.running_tables()
    assert lang.t("untrusted.title") == "Dit spel is niet te vertrouwen"
    key(app, pygame.K_RETURN)
    assert type(app.scene).__name__ == "TitleScene"


def test_a_waiting_lobby_idles_and_redraws_when_the_relay_speaks(app):
    from bonanza.client.scenes.lobby import LobbyScene
    conn = LostRelay(seats=4)
    scene = LobbyScene(app, conn, "192.168.1.20", 7468)
    app.push(scene)
    app.step(0.01, draw=False)
    app.draw()
    assert not scene.animating()
    app.step(0.01, draw=False)
    assert not app.needs_redraw()
    conn.inbox.append({"type": "table", "table": conn.demo.table})
    app.step(0.01, draw=False)
    assert app.needs_redraw()
