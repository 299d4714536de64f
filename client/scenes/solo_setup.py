"""Before a solo game: start at once (Enter) or type a seed for a seeded run; the rules
button cycles through the rulesets; Practice starts a game with undo that counts on no
board (hints on or off by the switch beside it)."""
from __future__ import annotations

from bonanza.core.settings import DEFAULT_RULESET, RULESETS, SEED_TEXT_MAX

from .. import theme
from ..widgets import draw_text
from .base import Scene


class SoloSetupScene(Scene):
    title_key = "menu.solo"

    def __init__(self, app):
        super().__init__(app)
        self.seed = self.field("seed", (390, 300, 500, 54), placeholder=lambda: self.t("solo.seed_placeholder"),
                               max_len=SEED_TEXT_MAX)
        self.button("start", (490, 400, 300, 60), lambda: self.t("solo.start"), size=26)
        self.button("back", (540, 480, 200, 48), lambda: self.t("common.back"), style="secondary")
        # a run the relay deals, times and signs: the only kind a shared board can trust
        self.button("ranked", (440, 548, 400, 48), lambda: self.t("ranked.open"), style="secondary",
                    size=20)
        self.ruleset = DEFAULT_RULESET
        self.button("ruleset", (440, 176, 400, 46), lambda: self.t(f"game.ruleset.{self.ruleset}"),
                    style="secondary", size=20)
        # practice: undo allowed, on no board; hints as this switch says (the game's H too)
        self.button("practice", (350, 606, 360, 48), lambda: self.t("practice.start"),
                    style="secondary", size=20)
        self.button("practice_hints", (720, 606, 210, 48), self._hints_label, style="secondary",
                    size=18)
        # typing goes straight into the seed (the screen says "type a seed"); Enter starts
        # either way, with the typed seed or none
        self.focus_id = "seed"
        self.best = app.profile.best(self.ruleset, "solo")   # read on change: draw runs every frame

    def _hints_label(self) -> str:
        return self.t("game.hints_on" if self.app.profile.settings["show_hints"] else "game.hints_off")

    def on_press(self, id):
        if id == "start":
            self.app.switch("solo_game", seed_text=self.seed.value or None, ruleset=self.ruleset)
        elif id == "practice":
            self.app.switch("solo_game", seed_text=self.seed.value or None, ruleset=self.ruleset,
                            mode="practice")
        elif id == "practice_hints":
            s = self.app.profile.settings
            s["show_hints"] = not s["show_hints"]
            self.app.profile.save()
        elif id == "ruleset":
            self.ruleset = RULESETS[(RULESETS.index(self.ruleset) + 1) % len(RULESETS)]
            self.best = self.app.profile.best(self.ruleset, "solo")
        elif id == "ranked":
            self.app.switch("ranked")
        elif id == "back":
            self.back()

    def on_submit(self, id):
        self.on_press("start")

    def draw(self, surface):
        super().draw(surface)
        L = self.layout
        draw_text(surface, self.t("solo.seed_label"), L.rect((390, 256, 500, 36)), L.font_px(20),
                  theme.TEXT_ON_FELT, bold=True)
        best = self.best
        if best is not None:
            draw_text(surface, self.t("game.personal_best", score=best), L.rect((390, 130, 500, 40)),
                      L.font_px(24), theme.GOLD, bold=True, align="center")

