"""The title screen: Solo, Daily challenge, Host, Join, Verify, Records, Rules, Settings, Quit."""
from __future__ import annotations

from .. import sprites, theme
from ..widgets import draw_text
from .base import Scene

MENU = (("solo", "menu.solo"), ("pass", "menu.pass_play"), ("daily", "menu.daily"), ("host", "menu.host"),
        ("join", "menu.join"), ("verify", "menu.verify"), ("records", "menu.records"), ("rules", "menu.rules"),
        ("settings", "menu.settings"), ("quit", "menu.quit"))

# menu button -> the scene it opens (a name in scenes/registry.py, imported on first use,
# so the title, the first frame, loads no other scene)
MENU_SCENES = {
    "solo": "solo_setup",
    "pass": "pass_setup",
    "daily": "daily",
    "host": "host_setup",
    "join": "join",
    "verify": "verify",
    "records": "records",
    "rules": "rules",
    "settings": "settings",
}


class TitleScene(Scene):
    def __init__(self, app):
        super().__init__(app)
        y, step = 186, 46
        for i, (id, key) in enumerate(MENU):
            # one look for the whole menu: a yellow Solo read as selected beside the real focus ring
            self.button(id, (450, y + i * step, 380, 40), lambda k=key: self.t(k), style="secondary", size=22)
        self.focus_id = "solo"
        self.t_anim = 0.0
        self.rejoin = None
        self.on_resume()

    def on_resume(self):
        """Offer "Rejoin table …" while a table game holds one of this player's seats
        (the window closed or crashed mid-game); the list changes while the title is covered."""
        self.rejoin = next(iter(sorted(self.app.profile.running_tables().items())), None)
        self.widgets = [w for w in self.widgets if w.id not in ("rejoin", "continue", "guided")]
        if self.first_time():
            # someone who never played here: a guided first game is offered (never forced)
            self.button("guided", (880, 296, 360, 43), lambda: self.t("guide.offer"),
                        style="primary", size=19)
        # an unfinished solo or pass-and-play game on this computer (client.saved_game)
        from .. import saved_game
        self.saved = saved_game.exists(self.app.profile)
        if self.saved:
            self.button("continue", (880, 245, 360, 43), lambda: self.t("title.continue"),
                        style="primary", size=20)
            if self.rejoin is None:
                self.focus_id = "continue"
        elif self.focus_id == "continue":
            self.focus_id = "solo"
        if self.rejoin is not None:
            code = self.rejoin[0]
            self.button("rejoin", (880, 194, 360, 43), lambda: self.t("title.rejoin", code=code),
                        style="primary", size=20)
            self.focus_id = "rejoin"
        elif self.focus_id == "rejoin":
            self.focus_id = "solo"

    def first_time(self) -> bool:
        """Nobody has played on this profile yet, nor seen or skipped the guide."""
        if self.app.profile.settings.get("guided_done"):
            return False
        store = self.app.profile.store
        try:
            return store is None or not store.history(1)
        except Exception:
            return False

    def update(self, dt):
        super().update(dt)
        self.t_anim += dt

    def on_press(self, id):
        if id == "quit":
            self.app.quit()
        elif id == "rejoin" and self.rejoin is not None:
            self.app.open("rejoin", *self.rejoin)
        elif id == "continue":
            self.continue_game()
        elif id == "guided":
            self.app.open("guided_game")
        elif id in MENU_SCENES:
            self.app.open(MENU_SCENES[id])

    def continue_game(self) -> None:
        """The saved game, exactly where it stopped; a save that no longer holds up is said
        and dropped (it never becomes a game)."""
        from .. import saved_game
        saved = saved_game.load(self.app.profile)
        if saved is None:
            saved_game.clear(self.app.profile)
            self.app.show(self.t("title.continue_damaged"), "error", 6.0)
            self.on_resume()
            return
        if saved.kind in ("solo", "practice"):
            run_ms = saved.extra.get("run_ms")
            self.app.open("solo_game", match=saved.match, mode=saved.kind,
                          resumed_ms=run_ms if isinstance(run_ms, int) and run_ms >= 0 else 0)
        else:
            self.app.open("pass_play_resume", saved)

    def back(self):
        # Escape asks rather than quits: the focus goes to Quit and Enter confirms
        self.focus_id = "quit"
        self.app.show(self.t("title.quit_ask"))

    def draw(self, surface):
        L = self.layout
        self.draw_background(surface)
        # logo: five dice fanned above the name
        px = L.px(54)
        for i, v in enumerate((1, 3, 5, 6, 2)):
            ang = (i - 2) * 9
            img = sprites.die(v, px, tilt=-ang)
            cx, cy = L.point(640 + (i - 2) * 66, 62 + abs(i - 2) * 7)
            surface.blit(img, img.get_rect(center=(cx, cy)))
        draw_text(surface, self.t("app.title"), L.rect((240, 104, 800, 80)), L.font_px(64),
                  theme.GOLD, bold=True, align="center", shadow=True)
        name = self.app.profile.name
        draw_text(surface, self.t("menu.greeting", name=name), L.rect((880, 668, 380, 36)),
                  L.font_px(18), theme.TEXT_ON_FELT_SOFT, align="right")
        self.draw_widgets(surface)
