"""The guided first game (issue 26, point 5): offered at the title to someone who never
played, and from Rules; one step at a time (Roll, the dice, a second roll, the preview, the
advisor, the write prompt), skippable, completed by keyboard alone; frames of every step
at 960x540 in test-artifacts/ (English and French, the longest of the six here)."""
from __future__ import annotations

import pygame
import pytest

from bonanza.client import lang
from bonanza.client.guide import STEPS
from tests.pilot import click, key, step_until, window

SMALL = (960, 540)


def step_id(game) -> str | None:
    return game.guide.step.id if game.guide.active else None


def take_step(app, step, explained) -> None:
    """Make the move ``step`` waits for by keyboard, or on a step that only explains, go on
    with ``explained`` (Enter, or a click on Next)."""
    if step.id in ("roll", "reroll"):
        key(app, pygame.K_r)
    elif step.id == "hold":
        key(app, pygame.K_1)
    elif step.id == "write":
        key(app, pygame.K_RETURN)
        key(app, pygame.K_RETURN)
    else:
        explained()


def test_the_guided_game_can_be_completed_by_keyboard_alone(app):
    title = app.scene
    assert type(title).__name__ == "TitleScene" and title.widget("guided") is not None
    key(app, pygame.K_UP)                         # from Solo up to the offer
    assert title.focus_id == "guided"
    key(app, pygame.K_RETURN)
    game = app.scene
    assert type(game).__name__ == "SoloGameScene" and game.mode == "practice"
    assert step_id(game) == "roll" and game.hints_on()
    key(app, pygame.K_RETURN)                     # Enter rolls: the step waits for a roll
    assert step_id(game) == "hold" and game.state.rolls == 1
    key(app, pygame.K_1)
    assert step_id(game) == "reroll"
    key(app, pygame.K_r)
    assert step_id(game) == "preview" and game.state.rolls == 2
    key(app, pygame.K_RETURN)                     # explained: Enter goes on (no roll)
    assert step_id(game) == "advisor" and game.state.rolls == 2
    key(app, pygame.K_RETURN)
    assert step_id(game) == "write"
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)                     # Write?
    assert game.input.pending is not None and step_id(game) == "write"
    key(app, pygame.K_RETURN)                     # written
    assert game.state.turn == 1 and step_id(game) == "done"
    assert not app.profile.settings["guided_done"]
    key(app, pygame.K_RETURN)
    assert not game.guide.active and app.profile.settings["guided_done"]
    assert game.state.dice is None and game.state.turn == 1      # that Enter rolled nothing
    while not game.state.over:
        key(app, pygame.K_RETURN if game.state.dice is not None else pygame.K_r)
    step_until(app, lambda: type(app.scene).__name__ == "ResultsScene", what="the results")
    rec = app.profile.store.history(1)[0]
    assert (rec.mode, rec.category, rec.new_best) == ("practice", "practice", False)
    app.to_title()
    app.step()
    assert app.scene.widget("guided") is None     # offered once


def test_the_guide_is_skipped_with_escape_or_its_button_and_opens_from_rules(app):
    game = app.open("guided_game")
    app.step()
    key(app, pygame.K_ESCAPE)
    assert not game.guide.active and app.profile.settings["guided_done"]
    key(app, pygame.K_ESCAPE)                     # then Escape is the game's again: the pause
    assert type(app.scene).__name__ == "PauseScene"
    app.to_title()
    rules = app.open("rules")
    app.step()
    click(app, "guided")
    game = app.scene
    assert game.guide.active and step_id(game) == "roll"
    click(app, "roll")
    click(app, "guide_skip")
    assert not game.guide.active
    assert game.widget("guide_skip") is not None and not game.visible(game.widget("guide_skip"))
    assert rules is not game


@pytest.mark.parametrize("code", ["en", "fr"])
def test_every_step_of_the_guide_at_960x540(data_dirs, artifacts, code):
    from tests.test_client_analysis import overflows
    with window(data_dirs["data"], advisor=True, size=SMALL) as app:
        app.advisor_loader("bonanza").result()
        lang.set_language(code)
        app.step()
        app.screenshot(artifacts / f"client_guided_title_{code}.png")
        game = app.open("guided_game")
        shots = []
        for step in STEPS:
            app.step()
            assert step_id(game) == step.id
            assert not overflows(app), step.id
            app.screenshot(artifacts / f"client_guided_{step.id}_{code}.png")
            shots.append(step.id)
            take_step(app, step, lambda: click(app, "guide_next"))     # the mouse's way on
        assert shots == [s.id for s in STEPS] and not game.guide.active


@pytest.mark.parametrize("size", [SMALL, (1920, 1080)])
def test_the_guides_card_covers_no_button_and_nothing_it_points_at(data_dirs, artifacts, size):
    """On every step, in six languages: the card overlaps no button on the screen (Hints and
    Menu were under it while the sheet was ringed), not the part it rings, and no die; its
    texts fit."""
    from bonanza.client.i18n import LANGUAGES
    from tests.pilot import drawn_overflows
    problems = []
    with window(data_dirs["data"], advisor=True, size=size) as app:
        app.advisor_loader("bonanza").result()
        for code in LANGUAGES:
            lang.set_language(code)
            app.to_title()
            game = app.open("guided_game")
            for step in STEPS:
                app.step()
                assert step_id(game) == step.id
                L = app.layout
                card = L.rect(game.guide.card_rect(game))
                covered = {f"button {w.id}": w.screen_rect(L) for w in game.widgets if game.visible(w)}
                covered[f"ringed {step.target}"] = L.rect(game.guide.target_rect(game))
                covered.update({f"die {i}": L.rect(game.dice_view.die_rect(i)) for i in range(5)})
                hit = [name for name, rect in covered.items() if card.colliderect(rect)]
                assert not hit, (code, size, step.id, hit)
                assert app.screen.get_rect().contains(card), (code, size, step.id)
                shot = artifacts / f"client_guided_card_{step.id}_{code}_{size[0]}.png"
                problems += drawn_overflows(app, shot, code, size, step.id)
                take_step(app, step, lambda: key(app, pygame.K_RETURN))
            assert not game.guide.active
    assert not problems, "\n".join(map(str, problems[:40]))
