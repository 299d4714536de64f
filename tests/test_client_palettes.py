"""Colour is never the only cue: in every palette the states told by colour (a mistake's
grade, a seat's connection) have shapes that still differ once the colour is gone, and every
scene renders in the colour-blind and high-contrast palettes (PNGs in test-artifacts/)."""
from __future__ import annotations

import pygame
import pytest

from bonanza.client import marks, theme
from tests.test_client_scenes import build_scenes


def grey(surface: pygame.Surface, rect: pygame.Rect | None = None) -> list[list[int]]:
    """The luminance of every pixel (ITU-R BT.601): what is left with no hue at all."""
    rect = rect or surface.get_rect()
    out = []
    for y in range(rect.top, rect.bottom):
        row = []
        for x in range(rect.left, rect.right):
            r, g, b, *_ = surface.get_at((x, y))
            row.append((299 * r + 587 * g + 114 * b) // 1000)
        out.append(row)
    return out


def silhouette(g: list[list[int]]) -> set[tuple[int, int]]:
    """Where the greyscale image differs from its background (its corner)."""
    bg = g[0][0]
    return {(x, y) for y, row in enumerate(g) for x, v in enumerate(row) if abs(v - bg) > 24}


def shapes_differ(a: set, b: set) -> bool:
    union = a | b
    return bool(union) and len(a ^ b) > 0.2 * len(union)


def mark_image(draw, state: str, background) -> pygame.Surface:
    s = pygame.Surface((40, 40))
    s.fill(background)
    draw(s, state, (20, 20), 9)
    return s


@pytest.mark.parametrize("palette", theme.PALETTES)
@pytest.mark.parametrize("draw,states", [(marks.grade_mark, marks.GRADES), (marks.status_mark, marks.STATUSES)])
def test_every_state_has_its_own_shape_in_greyscale(palette, draw, states):
    theme.apply_palette(palette)
    try:
        shapes = {st: silhouette(grey(mark_image(draw, st, theme.PAPER))) for st in states}
    finally:
        theme.apply_palette("standard")
    for i, a in enumerate(states):
        assert shapes[a], (palette, a)
        for b in states[i + 1:]:
            assert shapes_differ(shapes[a], shapes[b]), (palette, a, b)


def test_a_palette_is_kept_in_the_profile_and_changes_the_colours(app, artifacts):
    from bonanza.client.scenes.settings import SettingsScene
    from tests import pilot
    standard_ok = theme.OK
    app.push(SettingsScene(app))
    app.scene.focus_id = "val:palette"
    pilot.key(app, pygame.K_RIGHT)
    assert app.profile.settings["palette"] == "colour_blind"
    assert theme.palette == "colour_blind" and theme.OK != standard_ok
    app.screenshot(artifacts / "palette_settings_colour_blind.png")
    pilot.key(app, pygame.K_RIGHT)
    assert app.profile.settings["palette"] == "high_contrast" and theme.FELT == (0, 0, 0)
    app.screenshot(artifacts / "palette_settings_high_contrast.png")
    from bonanza.client.profile import Profile
    assert Profile(app.data_dir).settings["palette"] == "high_contrast"
    pilot.key(app, pygame.K_RIGHT)
    assert theme.palette == "standard" and theme.OK == standard_ok


@pytest.mark.parametrize("palette", ["colour_blind", "high_contrast"])
def test_every_scene_renders_in_the_palette_and_seats_differ_in_greyscale(app, artifacts, palette):
    app.profile.settings["palette"] = palette
    app.apply_palette()
    for name, factory in build_scenes(app):
        scene = factory()
        app.step()
        assert app.scene is scene, name
        app.screenshot(artifacts / f"palette_{palette}_{name}.png")
        if name == "table_4":
            # the demo table has a connected seat and one that is not (its players' "connected")
            status = scene.seat_status()
            L, sv = app.layout, scene.sheet_view
            crops = []
            for col in (status.index("connected"), status.index("disconnected")):
                hr = L.rect(sv.header_rect(col, 4))
                c = (hr.x + L.px(10), hr.centery)
                crops.append(silhouette(grey(app.screen, pygame.Rect(c[0] - L.px(8), c[1] - L.px(8),
                                                                      L.px(16), L.px(16)))))
            assert shapes_differ(*crops)
    theme.apply_palette("standard")


def test_interface_size_sizes_text_whatever_the_window_and_is_kept_in_the_profile(app, artifacts):
    from bonanza.client.profile import Profile
    from bonanza.client.scenes.settings import SettingsScene
    from tests import pilot
    assert app.profile.settings["ui_scale"] == 0         # automatic: text grows with the window
    assert app.ui_scale() == round(app.layout.scale * 100)
    app.apply_window((1920, 1080))
    app.push(SettingsScene(app))
    app.scene.focus_id = "val:ui_scale"
    pilot.key(app, pygame.K_RIGHT)
    pilot.key(app, pygame.K_RIGHT)
    assert app.profile.settings["ui_scale"] == 100
    # the window stays; its boxes keep the window's scale, text is drawn at the size chosen
    assert app.screen.get_size() == (1920, 1080) and app.layout.scale == 1.5
    assert app.layout.font_px(20) == 20
    for _ in range(3):          # 75 %, automatic, then round to the largest
        pilot.key(app, pygame.K_LEFT)
    assert app.profile.settings["ui_scale"] == 200 and app.screen.get_size() == (1920, 1080)
    assert app.layout.font_px(20) == 40 and app.ui_scale() == 200
    assert Profile(app.data_dir).settings["ui_scale"] == 200
    app.screenshot(artifacts / "ui_scale_200_in_1920x1080_settings.png")
    # a window too small for the size chosen draws the largest it holds, and says so
    app.apply_window((960, 540))
    assert app.ui_scale() == 100 and app.layout.font_px(20) == 20
    assert "100" in app.scene.value_text("ui_scale") and "200" in app.scene.value_text("ui_scale")
    app.screenshot(artifacts / "ui_scale_200_in_960x540_settings.png")


def test_the_default_interface_size_fits_the_display():
    assert theme.scale_for_display((1366, 768)) == 75
    assert theme.scale_for_display((1920, 1080)) == 125
    assert theme.scale_for_display((2560, 1440)) == 150
    assert theme.scale_for_display((3840, 2160)) == 200
    assert theme.scale_for_display(None) == 100
