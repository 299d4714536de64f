"""One seed rule: a seed typed in the window's solo setup, passed to ``bonanza simulate``
and given to the records module deals the same dice (the same fingerprint)."""
from __future__ import annotations

import pygame
import pytest

from bonanza.client.commands import main as cli
from bonanza.client.solo import new_solo_match
from bonanza.core.log import parse_log
from bonanza.core.settings import SettingError, seed_from_text
from tests.pilot import type_text

SEED = "Speedrun Ünïcode 7"


def test_window_simulate_and_records_agree(app, tmp_path):
    from bonanza.client.scenes.solo_setup import SoloSetupScene
    setup = SoloSetupScene(app)
    app.push(setup)
    setup.focus_id = "seed"
    type_text(app, SEED)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    app.step()
    game = app.scene
    assert game is not setup and game.match.log.header["meta"]["seed_text"] == SEED
    window_commit = game.match.commitment

    out = tmp_path / "sim.bonanza"
    assert cli(["simulate", "--players", "1", "--seed", SEED, "--out", str(out)]) == 0
    log = parse_log(out.read_bytes())
    assert log.header["dice"]["commit"] == window_commit
    assert log.end["reveal"]["seed"] == seed_from_text(SEED)
    assert new_solo_match("Ana", seed_text=SEED).commitment == window_commit


def test_the_rule():
    raw = bytes(range(32))
    assert seed_from_text(raw.hex()) == raw                 # a seed copied from a reveal
    assert seed_from_text(raw.hex().upper()) == raw
    assert seed_from_text("  abc ") == seed_from_text("abc") != seed_from_text("abd")
    assert seed_from_text("e\u0301") == seed_from_text("\u00e9")   # NFC: é typed two ways
    for bad in ("", "   ", "x" * 65):
        with pytest.raises(SettingError):
            seed_from_text(bad)


def test_simulate_reports_a_bad_seed(capsys, tmp_path):
    assert cli(["simulate", "--seed", "", "--out", str(tmp_path / "x")]) == 2
    assert "seed" in capsys.readouterr().err
