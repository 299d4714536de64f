"""Buttons that read as one set share one text size (issue 29): a label too long for its
button shrinks its whole row or column, never itself alone, on every scene in six
languages at the smallest window and at 1280x720."""
from __future__ import annotations

import pytest

from bonanza.client import theme, widgets
from bonanza.client.actions import Action
from bonanza.client.layout import Layout
from bonanza.client.widgets import Button, shared_text_px, sibling_groups
from tests.test_client_scenes import LANGS, build_scenes


def _button(id, rect, label, size=22):
    return Button(id, rect, Action("press", id), label=label, size=size)


def test_a_row_and_a_column_are_groups_and_a_lone_size_is_not():
    row = [_button(f"r{i}", (40 + 220 * i, 600, 200, 50), "Go") for i in range(4)]
    column = [_button(f"c{i}", (500, 100 + 60 * i, 280, 50), "Go") for i in range(3)]
    small = _button("help", (900, 600, 50, 50), "?", size=16)      # in the row, of its own size
    groups = sibling_groups(row + column + [small])
    as_ids = sorted(sorted(b.id for b in g) for g in groups)
    assert as_ids == [["c0", "c1", "c2"], ["help"], ["r0", "r1", "r2", "r3"]]


def test_one_long_label_shrinks_its_row():
    L = Layout((960, 540))
    row = [_button("a", (40, 600, 200, 50), "Back"),
           _button("b", (260, 600, 200, 50), "A label far too long for one button of this row")]
    alone = {b.id: b.text_px(L) for b in row}
    assert alone["b"] < alone["a"]
    shared = shared_text_px(row, L)
    assert shared == {"a": alone["b"], "b": alone["b"]}


def _siblings(drawn):
    """Groups of drawn buttons read from the window: one nominal size, one row (top and
    height) or one column (left and width), joined through each other."""
    groups: list[list] = []
    for entry in drawn:
        _, r, nominal, _ = entry
        joined = [g for g in groups
                  if any(o[2] == nominal and ((o[1].y, o[1].h) == (r.y, r.h) or (o[1].x, o[1].w) == (r.x, r.w))
                         for o in g)]
        merged = [entry] + [e for g in joined for e in g]
        groups = [g for g in groups if g not in joined] + [merged]
    return groups


@pytest.mark.parametrize("size", [theme.MIN_WINDOW, (1280, 720)])
def test_sibling_buttons_share_one_text_size_on_every_scene_in_six_languages(app, size):
    app.apply_window(size)
    problems = []
    checked = 0
    for code in LANGS:
        app.set_language(code)
        for name, factory in build_scenes(app):
            factory()
            widgets.BUTTON_REPORT.clear()
            app.draw()
            for group in _siblings(list(widgets.BUTTON_REPORT)):
                sizes = {px for _, _, _, px in group}
                checked += len(group) > 1
                if len(sizes) > 1:
                    problems.append((code, name, sorted((text, px) for text, _, _, px in group)))
    assert checked > 100
    assert not problems, "\n".join(map(str, problems[:20]))
