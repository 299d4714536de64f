"""Records → History: two columns never touch, in six languages, at 960x540 and 1280x720
(issue 29: the fr and es dates ran into the category, the state into the time).  Each
column is as wide as its widest cell; every cell and heading fits its column at the size
drawn, with a gap between neighbours, and a column's cells share one size."""
from __future__ import annotations

import pytest

from bonanza.client import fonts, theme
from bonanza.client.widgets import fit_columns
from tests.test_client_scenes import LANGS, populate_records


def test_fit_columns_shares_spare_room_and_narrows_alike():
    assert fit_columns([10, 20], 100, 60, 10) == [(100, 20), (130, 30)]
    narrowed = fit_columns([100, 300], 0, 210, 10)
    assert narrowed == [(0, 50), (60, 150)]
    # a short column under a long heading (Score, "Pontuação") gives little: it has little slack
    assert fit_columns([80, 20], 0, 90, 10, least=[40, 18]) == [(0, 60), (70, 19)]


@pytest.mark.parametrize("size", [theme.MIN_WINDOW, (1280, 720)])
def test_history_columns_never_touch_in_six_languages(app, artifacts, size):
    from bonanza.client.scenes.records import HISTORY_GAP, RecordsScene
    app.apply_window(size)
    populate_records(app)
    problems = []
    for code in LANGS:
        app.set_language(code)
        app.to_title()
        sc = RecordsScene(app)
        app.push(sc)
        sc.set_tab("history")
        app.step()
        L = app.layout
        heads = (sc.t("history.date"), sc.t("history.board"), sc.t("stats.per_ruleset"),
                 sc.t("game.score"), sc.t("game.time"), sc.t("history.status"))
        rows = [sc.row_cells(i, rec, None) for i, rec in enumerate(sc.entries)]
        assert len(rows) > 10
        place, sizes = sc.history_columns(heads, rows)
        for (x, w, _), (nx, _, _) in zip(place, place[1:]):
            if nx - (x + w) < L.px(HISTORY_GAP) - 1:
                problems.append((code, "gap", x + w, nx))
        for j, (x, w, _) in enumerate(place):
            if fonts.text_width(heads[j], fonts.fit_size(heads[j], L.font_px(16), w, True), True) > w:
                problems.append((code, "heading", heads[j]))
            for cells, style in rows:
                if fonts.text_width(cells[j], sizes[j], style[j][1]) > w:
                    problems.append((code, "cell", cells[j], sizes[j], w))
            if sizes[j] < theme.MIN_READABLE_PX:
                problems.append((code, "too small", heads[j], sizes[j]))
        app.screenshot(artifacts / f"client_history_{size[0]}_{code}.png")
    assert not problems, "\n".join(map(str, problems[:20]))
