"""A toast has one place per screen that covers nothing the player reads (issue 29): on the
play screen "Roll the dice first." sits beside the sheet, between the rolls left and the key
hints, never over the sheet, the dice, the key-hint line or a button; on the results it
never covers the Verified line.  Six languages, 960x540 and 1280x720."""
from __future__ import annotations

import pygame
import pytest

from bonanza.client import lang, theme
from bonanza.client.actions import Action
from tests.test_client_feel import results_scene
from tests.test_client_scenes import LANGS

SIZES = [theme.MIN_WINDOW, (1280, 720)]


def _toast_rect(app):
    scene, L = app.scene, app.layout
    assert app.toast.visible
    return app.toast.rect(L, scene.toast_clear(L), scene.toast_area(L))


@pytest.mark.parametrize("size", SIZES)
def test_roll_the_dice_first_covers_neither_sheet_dice_hints_nor_buttons(app, artifacts, size):
    from bonanza.client.scenes.game import SoloGameScene
    app.apply_window(size)
    for code in LANGS:
        app.set_language(code)
        app.to_title()
        g = SoloGameScene(app, seed_text="toast")
        app.push(g)
        app.step()
        g.handle(Action("box", "chance"))           # before any roll
        assert app.toast.text == lang.t("refusal.must_roll_first")
        app.draw()
        L = app.layout
        r = _toast_rect(app)
        covered = {"sheet": L.rect(g.sheet_view.rect),
                   "key hints": L.rect((g.cx - g.half_wide, 546, 2 * g.half_wide, 48)),
                   "rolls left": L.rect((g.cx - 200, g.pip_y - 8, 400, 46))}
        covered.update({f"die {i}": L.rect(g.dice_view.die_rect(i)) for i in range(5)})
        covered.update({f"button {w.id}": w.screen_rect(L) for w in g.widgets
                        if g.visible(w) and w.action is not None})
        hit = [name for name, rect in covered.items() if r.colliderect(rect)]
        assert not hit, (code, size, hit)
        assert pygame.Rect((0, 0), app.screen.get_size()).contains(r)
        if code in ("en", "fr"):
            app.screenshot(artifacts / f"client_toast_roll_first_{size[0]}_{code}.png")
        app.toast.left = 0


@pytest.mark.parametrize("size", SIZES)
def test_a_toast_on_the_results_leaves_the_verified_line_alone(app, artifacts, size):
    app.apply_window(size)
    res = results_scene(app)
    app.step()
    long = "/home/someone/.local/share/bonanza/exports/" + "bonanza-2026-12-01-solo-seeded-" * 4
    for text in ("Rematch offered by Ana", lang.t("records.exported", path=long)):
        app.show(text)
        app.draw()
        L = app.layout
        r = _toast_rect(app)
        verified = L.rect((84, 492, 1112, 104))       # revealed seed, Verified, saved file
        assert not r.colliderect(verified)
        assert not [w.id for w in res.widgets if res.visible(w) and w.action is not None
                    and r.colliderect(w.screen_rect(L))]
    app.screenshot(artifacts / f"client_toast_results_{size[0]}.png")


@pytest.mark.parametrize("size", SIZES)
def test_a_toast_on_the_replay_leaves_the_sheet_and_the_verified_box_alone(app, artifacts, size):
    from tests.test_client_scenes import build_scenes
    app.apply_window(size)
    replay = dict(build_scenes(app))["replay"]()
    app.step()
    for text in (lang.t("refusal.must_roll_first"), lang.t("records.exported", path="/a/long/path/" * 12)):
        app.show(text)
        app.draw()
        L = app.layout
        r = _toast_rect(app)
        h = replay.half
        covered = {"sheet": L.rect(replay.sheet_view.rect),
                   "verified": L.rect((replay.cx - h, 496, 2 * h, 100))}
        covered.update({f"button {w.id}": w.screen_rect(L) for w in replay.widgets
                        if replay.visible(w) and w.action is not None})
        covered.update({f"die {i}": L.rect(replay.dice_view.die_rect(i)) for i in range(5)})
        hit = [name for name, rect in covered.items() if r.colliderect(rect)]
        assert not hit, (size, hit)
    app.screenshot(artifacts / f"client_toast_replay_{size[0]}.png")
