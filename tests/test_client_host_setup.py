"""The host-setup scene: the bots row (casual / optimal) by keyboard and by mouse, and
the create_table request it sends; the lobby marks each bot with its policy."""
from __future__ import annotations

import pygame
import pytest

from tests.pilot import click, key


def test_bots_row_by_keyboard_and_mouse_goes_into_create_table(app, monkeypatch, artifacts):
    from bonanza.client.scenes import lobby
    app.profile.name = "Ana"
    scene = lobby.HostSetupScene(app)
    app.push(scene)
    app.step(1 / 60)
    assert scene.bots == "medium" and scene.value_text("bots") == scene.t("lobby.bot.medium")
    # the level's style and its measured average are said under the row
    assert scene.t("lobby.bot_style.medium") in scene.bot_level_text()
    assert "214" in scene.bot_level_text()
    # keyboard: Up from "open" reaches the bots row; Right / Left cycle it
    assert scene.focus_id == "open"
    key(app, pygame.K_UP)
    assert scene.focus_id == "val:bots"
    key(app, pygame.K_RIGHT)
    assert scene.bots == "hard"
    key(app, pygame.K_LEFT)
    assert scene.bots == "medium"
    key(app, pygame.K_RETURN)
    assert scene.bots == "hard"
    # mouse: the › and ‹ buttons, and the value itself
    click(app, (1044, 350, 56, 50))
    assert scene.bots == "perfect"
    click(app, (704, 350, 332, 50))
    assert scene.bots == "easy"                    # round again from the strongest
    click(app, (640, 350, 56, 50))
    assert scene.bots == "perfect"
    click(app, (640, 350, 56, 50))
    assert scene.bots == "hard"
    assert scene.value_text("bots") == scene.t("lobby.bot.hard")
    app.step(1 / 60)
    app.screenshot(artifacts / "client_host_setup_bot_level.png")

    from tests.doubles import host_without_relay
    delays = host_without_relay(monkeypatch)
    scene.go()
    assert delays == [app.profile.bot_delay()]        # the Settings' bot speed paces the table
    assert type(app.scene).__name__ == "LobbyScene"
    assert app.scene.request["type"] == "create_table" and app.scene.request["bots"] == "hard"
    assert "daily" not in app.scene.request
    # the rules row also offers the day's challenge, played together
    app.pop()
    while scene.ruleset != "daily":
        scene.change("ruleset", 1)
    assert scene.value_text("ruleset") == scene.t("lobby.daily_table")
    scene.go()
    assert app.scene.request["daily"] is True and app.scene.request["ruleset"] == "yacht"


def test_lobby_tags_bots_with_their_policy(app):
    from bonanza.client.scenes import lobby

    class Conn:
        seat, status = 0, "connected"
        table = {"code": "K7QWE", "seats": 4, "host": 0, "ruleset": "bonanza", "turn_seconds": 60,
                 "bots": ["optimal"], "players": [{"seat": 0, "name": "Ana", "kind": "human"}]}

        def poll(self):
            return []

    scene = lobby.LobbyScene(app, Conn(), "127.0.0.1", 7468)
    assert [scene.planned_policy(k) for k in range(3)] == ["optimal", "casual", "casual"]
    assert scene.bot_tag("optimal") == scene.t("lobby.bot_optimal")
    assert scene.bot_tag(None) == scene.t("lobby.bot")
    app.push(scene)
    app.step(1 / 60)


@pytest.mark.parametrize("port", ["99999", "0", "²", "7 468", "", "-1"])
def test_a_port_that_is_not_a_port_never_connects_nor_crashes(app, monkeypatch, port):
    """Join and the daily's relay card keep their button disabled for anything but
    1-65535 in ASCII digits; Enter on the field does nothing."""
    import bonanza.client.relay_client
    from bonanza.client.actions import Action
    from bonanza.client.scenes.daily import DailyScene
    from bonanza.client.scenes.lobby import JoinScene
    opened = []
    monkeypatch.setattr(bonanza.client.relay_client, "RelayConnection", lambda *a, **k: opened.append(a))
    join = JoinScene(app)
    app.push(join)
    join.code.value = "ABCDE"
    join.port.value = port
    app.step()
    assert not join.enabled(Action("press", "join"))
    join.on_submit("code")
    assert app.scene is join and not opened
    app.pop()
    daily = DailyScene(app)
    app.push(daily)
    daily.port.value = port
    app.step()
    assert not daily.enabled(Action("press", "relay"))
    daily.on_submit("port")
    assert app.scene is daily and not opened


def test_a_valid_port_joins(app, monkeypatch):
    import bonanza.client.relay_client
    from bonanza.client.actions import Action
    from bonanza.client.relay_address import port_number
    from bonanza.client.scenes.lobby import JoinScene
    assert port_number(" 7468 ") == 7468 and port_number("65535") == 65535
    opened = []

    class Conn:
        status, table, seat = "connecting", None, None
        def __init__(self, *a, **k): opened.append(a)
        def poll(self): return []
    monkeypatch.setattr(bonanza.client.relay_client, "RelayConnection", Conn)
    app.profile.name = "Ana"
    join = JoinScene(app)
    app.push(join)
    join.code.value = "abcde"
    assert join.enabled(Action("press", "join"))
    join.on_submit("code")
    assert opened == [("127.0.0.1", 7468)]


def test_a_relay_that_cannot_start_says_why(app, tmp_path, monkeypatch):
    from bonanza.client.scenes import lobby
    not_a_folder = tmp_path / "a-file"
    not_a_folder.write_text("")
    monkeypatch.setenv("BONANZA_DATA_DIR", str(not_a_folder))  # the relay's data folder fails
    app.profile.name = "Ana"
    scene = lobby.HostSetupScene(app)
    app.push(scene)
    scene.go()
    assert app.scene is scene  # still on the host setup, not a lobby without a relay
    assert app.toast.kind == "error"
    assert app.toast.text.startswith("Could not open the table: cannot use the data folder")


def test_bot_speed_in_settings_paces_hosted_bots(app):
    from bonanza.client.scenes.settings import SettingsScene
    from bonanza.core.settings import BOT_SPEEDS
    sc = SettingsScene(app)
    app.push(sc)
    app.step(1 / 60)
    assert app.profile.settings["bot_speed"] == "normal"
    assert sc.value_text("bot_speed") == sc.t("settings.bot_speed.normal")
    sc.focus_id = "val:bot_speed"
    key(app, pygame.K_RIGHT)
    assert app.profile.settings["bot_speed"] == "slow" and app.profile.bot_delay() == BOT_SPEEDS["slow"]
    key(app, pygame.K_RIGHT)
    assert app.profile.bot_delay() == BOT_SPEEDS["fast"] < BOT_SPEEDS["normal"] < BOT_SPEEDS["slow"]
