"""The window on a full disk (issue 24): every store write a screen makes fails for real
(a small tmpfs as the data folder, filled up), and the screen says so in the player's
language and stays usable; nothing crashes, the day's attempt is not used."""
from __future__ import annotations

import pytest
from test_store_disk import can_mount, fill_up, free_up, small_disk


@pytest.fixture
def full_disk_app(data_dirs):
    """A window whose data folder is a small disk of its own, filled once the store is open."""
    if not can_mount():
        pytest.skip("a small tmpfs needs root and mount (CI runs as root)")
    from tests import pilot
    data = str(data_dirs["data"])
    with small_disk(data, 4096):
        with pilot.window(data) as app:
            assert app.profile.store is not None and app.profile.store.persistent

            def fill() -> None:
                # an empty -wal: the next write must grow it, and the disk refuses
                app.profile.store._checkpoint("TRUNCATE")
                fill_up(data)
            app.fill_disk = fill
            yield app


def test_the_daily_on_a_full_disk_is_a_message_not_a_crash(full_disk_app, artifacts):
    from bonanza.client.daily import today_utc
    from bonanza.client.scenes.daily import DailyScene
    app = full_disk_app
    app.push(DailyScene(app))
    app.step()
    app.fill_disk()
    app.scene.on_press("play")
    app.step()
    assert isinstance(app.scene, DailyScene)                     # still here, usable
    assert app.toast.text == app.scene.t("daily.disk_full")
    app.screenshot(artifacts / "store_daily_disk_full.png")
    store = app.profile.store
    assert store.daily_status(today_utc()) == "available"         # the attempt was not used
    free_up(str(app.data_dir))
    app.scene.on_press("play")                                   # with room, it starts
    app.step()
    assert not isinstance(app.scene, DailyScene)
    assert store.daily_status(today_utc()) == "in_progress"


def test_a_setting_on_a_full_disk_says_it_was_not_saved(full_disk_app):
    from bonanza.client import lang
    app = full_disk_app
    app.fill_disk()
    assert app.profile.save() == "profile.disk_full"
    assert lang.t("profile.disk_full") != "profile.disk_full"


def test_a_game_finished_on_a_full_disk_is_told_and_the_window_goes_on(full_disk_app):
    from bonanza.client.solo import new_solo_match
    app = full_disk_app
    shown = []
    app.profile.notify = lambda key, params: shown.append(key)
    m = new_solo_match("Player", seed_text="disk")
    while not m.state.over:
        m.roll([False] * 5)
        m.write(m.state.sheets[0].free_boxes()[0])
    app.fill_disk()
    rec = app.profile.finish_and_record(m, 1000)
    assert rec is None and shown == ["record.not_saved"]
    app.step()


def test_records_imports_dropped_files_and_the_import_folder(app, artifacts, tmp_path):
    import os

    import pygame
    from test_store_helpers import solo_log

    from bonanza.client.scenes.records import RecordsScene
    from bonanza.client.store import open_store
    other = str(tmp_path / "other")
    store, _ = open_store(other)
    recs = [store.record_game(solo_log(i)) for i in range(3)]
    store.close()
    app.push(RecordsScene(app))
    app.scene.set_tab("history")
    app.step()
    assert app.scene.entries == []
    pygame.event.post(pygame.event.Event(pygame.DROPFILE, file=os.path.join(other, "games")))
    app.step()
    assert len(app.scene.entries) == 3
    assert app.toast.text == app.scene.t("records.imported", added=3, known=0, refused=0)
    app.screenshot(artifacts / "store_records_imported.png")
    # the button: an empty import folder says where to put files; then it imports them
    app.scene.on_press("import")
    folder = app.scene.import_dir()
    assert app.toast.text == app.scene.t("records.import_hint", path=folder)
    with open(recs[0].file, "rb") as f:
        data = f.read()
    with open(os.path.join(folder, "x.bonanza"), "wb") as f:
        f.write(data)
    with open(os.path.join(folder, "y.bonanza"), "wb") as f:
        f.write(data[:-3])
    app.scene.on_press("import")
    assert app.toast.text == app.scene.t("records.imported", added=0, known=1, refused=1)
    assert len(app.profile.store.history()) == 3


def test_a_name_typed_on_a_full_disk_is_not_said_to_be_saved(full_disk_app):
    from bonanza.client.scenes.settings import SettingsScene
    app = full_disk_app
    app.push(SettingsScene(app))
    app.step()
    app.fill_disk()
    app.scene.name_field.value = "Chloé"
    app.scene.commit_name()
    app.step()
    assert app.toast.text == app.scene.t("profile.disk_full")
    assert app.profile.name == "Chloé"      # kept for this session


def test_records_export_and_import_on_a_full_disk_say_so(full_disk_app, tmp_path):
    import os

    from test_store_helpers import solo_log

    from bonanza.client.scenes.records import RecordsScene
    app = full_disk_app
    rec = app.profile.store.record_game(solo_log(5))
    app.push(RecordsScene(app))
    app.scene.set_tab("history")
    app.step()
    app.fill_disk()
    assert app.scene.export() is None
    assert app.toast.text.startswith(app.scene.t("records.export_failed", path="")[:10])
    other = tmp_path / "elsewhere.bonanza"          # another disk: only the store is full
    other.write_bytes(solo_log(6))
    app.scene.import_games([str(other)])
    assert app.toast.text == app.scene.t("records.import_failed")
    assert [g.id for g in app.profile.store.history()] == [rec.id]
    app.step()
    assert isinstance(app.scene, RecordsScene)
    assert os.path.exists(rec.file)
