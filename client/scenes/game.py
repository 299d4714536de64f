"""A solo (or offline daily) game on this machine: the play screen (``game_base``) with a
local ``core.match.Match``, no clock and a run timer; a pause menu (Escape or Menu); at the
end the results."""
from __future__ import annotations

from bonanza.core.match import Match
from bonanza.core.settings import DEFAULT_RULESET

from .. import actions as A
from .. import lang, sprites, theme
from ..i18n import format_duration
from ..solo import new_solo_match
from ..widgets import draw_text
from .game_base import GameScene


class SoloGameScene(GameScene):
    """A solo (or offline daily) game on this machine: no clock, a run timer."""

    # the button beside Hints opens the pause menu (give up is one of its items)
    give_up_key = "pause.menu"

    def __init__(self, app, match: Match | None = None, seed_text: str | None = None,
                 mode: str = "solo", ruleset: str = DEFAULT_RULESET, resumed_ms: int | None = None):
        if match is None:
            match = new_solo_match(app.profile.name, ruleset, seed_text=seed_text,
                                   meta={"client": "bonanza"})
        self.match = match
        self.mode = mode
        self.seed_text = seed_text
        super().__init__(app, match.setup.ruleset, 1)
        self.run_started: float | None = None
        self.run_time: float | None = None
        self.finished = False
        self.record = None
        self._paused_at: float | None = None     # app.now when the pause menu covered the game
        self._timer_drawn = ""
        # a game the title's "Continue" brought back: its clock goes on from the saved time
        # (the time away not counted), and the run is marked resumed (never a speedrun)
        self.resumed = resumed_ms is not None
        if resumed_ms is not None and match.log.records:
            self.run_started = app.now - resumed_ms / 1000

    @property
    def state(self):
        return self.match.state

    my_seat = 0

    def my_turn(self) -> bool:
        return not self.match.state.over

    def seat_labels(self):
        return [self.match.setup.seats[0].name]

    def elapsed(self) -> float:
        if self.run_started is None:
            return 0.0
        if self.run_time is not None:
            return self.run_time
        return (self._paused_at if self._paused_at is not None else self.app.now) - self.run_started

    def pauses_timer(self) -> bool:
        """A local game has no clock: its run time is the time spent playing, so a pause
        stops it.  (Games a relay times, ranked runs and tables, are other scenes and never
        stop their clock.)"""
        return True

    def running(self) -> bool:
        return self.run_started is not None and self.run_time is None

    def on_pause(self) -> None:
        if self.pauses_timer() and self.running() and self._paused_at is None:
            self._paused_at = self.app.now

    def on_resume(self) -> None:
        if self._paused_at is not None and self.running():
            self.run_started = (self.run_started or 0.0) + self.app.now - self._paused_at
        self._paused_at = None

    def open_pause(self) -> None:
        self.app.open("pause", self)

    def handle(self, action) -> None:
        # Escape with nothing to cancel and no dialog open pauses (it used to ask to give up)
        if (action.name == A.CANCEL and self.dialog is None and self.input.pending is None
                and not self.state.over):
            self.open_pause()
            return
        super().handle(action)

    def on_press(self, id: str) -> None:
        if id == "give_up":
            self.open_pause()
            return
        super().on_press(id)

    def send_roll(self, hold) -> None:
        if self.run_started is None:
            self.run_started = self.app.now
        _, refusal = self.match.roll(hold)
        if refusal:
            self.app.show(self.t(f"refusal.{refusal.code}"), "error")
        self.save_progress()

    def send_write(self, box: str) -> None:
        _, refusal = self.match.write(box)
        if refusal:
            self.app.show(self.t(f"refusal.{refusal.code}"), "error")
        if self.match.state.over:
            start = self.app.now if self.run_started is None else self.run_started
            self.run_time = self.app.now - start
        self.save_progress()

    def save_progress(self) -> None:
        """After every move the game is saved for the title's "Continue" (the log is the
        save, ``client.saved_game``); a finished game is the records', not a save."""
        from .. import saved_game
        if self.mode != "solo":
            return
        if self.match.state.over:
            saved_game.clear(self.app.profile)
            return
        saved_game.save(self.app.profile, "solo", self.match,
                        {"run_ms": int(self.elapsed() * 1000), "resumed": self.resumed})

    def send_give_up(self) -> None:
        self.match.give_up(0)
        self.run_time = self.elapsed()
        self.save_progress()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.match.state.over and not self.finished:
            self.finished = True
            self.finish()

    def finish(self) -> None:
        ms = int(round(self.elapsed() * 1000))
        if self.resumed:       # said in the log's end, inside the hash chain
            self.match.finish({"duration_ms": ms, "resumed": True})
        # the run time goes into the log's end meta (inside the hash chain), then the store
        self.record = self.app.profile.finish_and_record(self.match, ms)
        self.app.switch("results_of_match", self.match, self.elapsed(), self.mode, self.seed_text,
                        record=self.record)

    def timer_rect(self):
        return self.layout.rect((self.cx + 20, 22, self.half - 20, 40))

    def timer_text(self) -> str:
        # whole seconds while playing (the results give the run time to the millisecond):
        # the still screen then sends the X server one small rect a second, not ten
        return self.t("game.timer", time=format_duration(int(self.elapsed()) * 1000, lang.current(), 0))

    def draw_timer(self, surface) -> None:
        self._timer_drawn = self.timer_text()
        draw_text(surface, self._timer_drawn, self.timer_rect(),
                  self.layout.font_px(22), theme.GOLD, bold=True, align="right")

    def draw_top_bar(self, surface) -> None:
        super().draw_top_bar(surface)
        self.draw_timer(surface)

    def still_redraw(self) -> float:
        # nothing here changes by itself but the timer, which ``draw_live`` redraws alone:
        # a full frame (a whole-window copy to an X server) every 2 s, not twice a second
        base = super().still_redraw()
        return base if (self.loader is not None and not self.loader.ready) else 2.0

    def draw_live(self, surface) -> list:
        """The running timer alone, over the felt it sits on (the rest of the frame is still)."""
        if not self.running() or self._paused_at is not None or self.dialog is not None:
            return []
        if self.timer_text() == self._timer_drawn:
            return []
        r = self.timer_rect()
        surface.blit(sprites.felt(surface.get_size()), r, area=r)
        self.draw_timer(surface)
        return [r]

    def commitment(self) -> bytes | None:
        return self.match.commitment
