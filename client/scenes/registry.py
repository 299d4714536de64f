"""Every screen by name: ``name -> "module:attribute"`` in this package, imported on first open.

Scenes open one another by name through the App (``app.open``, ``app.switch``, ``app.make``),
never by importing each other: a scene module imports ``base`` (and ``game_base``, the play
screen the solo and table games extend) and non-scene helpers only, so the scenes form no
import cycle and the first frame (the title) loads no other scene.  The attribute is a Scene
class or anything called like one, ``(app, *args, **kwargs) -> Scene``.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable

SCENES: dict[str, str] = {
    "title": "title:TitleScene",
    "solo_setup": "solo_setup:SoloSetupScene",
    "solo_game": "game:SoloGameScene",
    "guided_game": "game:guided_game",
    "pause": "pause:PauseScene",
    "daily": "daily:DailyScene",
    "daily_relay": "daily_relay:DailyRelayScene",
    "daily_relay_game": "table:DailyRelayGameScene",
    "host_setup": "lobby:HostSetupScene",
    "join": "lobby:JoinScene",
    "lobby": "lobby:LobbyScene",
    "rejoin": "lobby:rejoin_scene",
    "table": "table:TableScene",
    "pass_setup": "pass_play:PassPlaySetupScene",
    "pass_play_table": "pass_play:pass_play_table",
    "pass_play_resume": "pass_play:resume_pass_play",
    "pass_turn": "pass_play:PassTurnScene",
    "ranked": "ranked:RankedScene",
    "ranked_game": "table:RankedGameScene",
    "results": "results:ResultsScene",
    "results_of_match": "results:ResultsScene.from_match",
    "replay": "replay:ReplayScene",
    "analysis": "analysis:AnalysisScene",
    "verify": "verify:VerifyScene",
    "records": "records:RecordsScene",
    "charts": "charts:ChartsScene",
    "rules": "rules:RulesScene",
    "settings": "settings:SettingsScene",
    "untrusted": "untrusted:UntrustedScene",
    "relay_key_changed": "relay_key_changed:RelayKeyChangedScene",
}


def scene_factory(name: str) -> Callable[..., Any]:
    """What builds the scene registered as ``name`` (its module imported now if not yet)."""
    try:
        module, attr = SCENES[name].split(":")
    except KeyError:
        raise KeyError(f"no scene is registered as {name!r}") from None
    found: Any = importlib.import_module(f"{__package__}.{module}")
    for part in attr.split("."):
        found = getattr(found, part)
    return found
