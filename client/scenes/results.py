"""Results: standings with shared places, score, time, personal best, the
revealed seed with the verification verdict, play again."""
from __future__ import annotations

import math
import os

import pygame

from bonanza.core.game import standings
from bonanza.core.settings import REMATCH_SECONDS
from bonanza.core.verify import verify_bytes

from .. import fonts, theme
from ..sheet_view import draw_scratch, ease_out
from ..texts import box_key, format_time, verdict_text
from ..widgets import Celebration, draw_text, ellipsize, shadowed_panel
from .base import Scene


def verdict_line(t, verdict) -> str:
    """The results' verdict line: the verdict itself when the log verifies ("Verified: …",
    no second label), "Not verified. <reason>" when it does not."""
    if verdict is None:
        return t("results.verdict", verdict="–")
    if verdict.ok:
        return t("verify.ok")
    return t("results.not_verified", reason=verdict_text(t, verdict))


class ResultsScene(Scene):
    title_key = "results.title"

    def __init__(self, app, state, log_bytes: bytes | None, *, elapsed: float | None = None,
                 record=None, mode: str = "solo", seed_text: str | None = None, my_seat: int = 0,
                 reveal_seed: bytes | None = None, commitment: bytes | None = None,
                 conn=None, relay=None, sealed_date: str | None = None,
                 again_scene: str | None = None, spectator: bool = False):
        super().__init__(app)
        # no seat of this window's own (a watcher, or a game passed around one window): the
        # left card tells who won, never one seat's score as if it were the viewer's
        self.spectator = spectator
        self.again_scene = again_scene      # "Play again" opens this form (pass and play)
        # a daily table's log and seed stay with the relay until that date closes
        self.sealed_date = sealed_date
        # A table's players keep their relay connection (and the host its relay) here, so
        # "Play again" can sit them at a new table with the same people.
        self.conn = self.own(conn) if conn is not None else None
        self.relay = self.own(relay) if relay is not None else None
        self.state = state
        self.log_bytes = log_bytes
        self.verdict = verify_bytes(log_bytes) if log_bytes else None
        self.elapsed = elapsed
        self.record = record
        self.mode = mode
        self.seed_text = seed_text
        self.my_seat = my_seat
        self.reveal_seed = reveal_seed
        self.commitment = commitment
        self.standings = standings(state)
        # read once (the game is recorded before this scene exists): draw runs every frame
        # the best of this game's own board: a set-seed run is not compared with random ones
        # (and a set-seed run only with runs of its own seed: "your best on this seed")
        category = getattr(record, "category", None)
        # a practice game is on no board: no best beside it (a past daily's par instead)
        self._personal_best = None if mode in ("table", "practice") else app.profile.best(
            state.ruleset.name, mode, category,
            getattr(record, "seed_text", None) if category == "seeded" else None)
        self.button("again", (148, 628, 232, 56), self.again_label, size=22)
        self.button("verify", (396, 628, 232, 56), lambda: self.t("results.verify"), style="secondary", size=20)
        self.button("analysis", (644, 628, 232, 56), lambda: self.t("analysis.open"), style="secondary", size=20)
        self.button("menu", (892, 628, 232, 56), lambda: self.t("results.back_to_menu"), style="secondary", size=20)
        self.focus_id = "again" if mode != "daily" and mode != "table" else "verify"
        self._par: int | None = None       # a past daily practised: its par, once computed
        self.run = self._run_facts()
        # the right card: the run's splits or its sheet (the splits first for a player who
        # keeps the splits panel on)
        self.show_splits = self.run is not None and bool(app.profile.settings["show_splits"])
        self.button("card_view", (1030, 106, 170, 38),
                    lambda: self.t("results.show_sheet" if self.show_splits else "results.show_splits"),
                    style="secondary", size=17)
        self.count_seconds = 1.0 if app.profile.animation_seconds > 0 else 0.0   # the score counts up
        # a table's players may play again for REMATCH_SECONDS after its end (the relay's
        # rule), and an offer says how long it stands: the Play again button counts it down
        self.again_until = app.now + REMATCH_SECONDS if mode == "table" and conn is not None else None
        self.shown_at = None
        self.celebration = None

    def _run_facts(self) -> dict | None:
        """A one-seat run's category and splits from its log, beside the comparison of its
        category before it and the gold splits with it (None: not a one-seat run)."""
        v = self.verdict
        if v is None or not v.ok or v.log is None or v.log.end is None or len(self.standings) != 1:
            return None
        from bonanza.core.splits import splits
        from bonanza.core.verify import category
        cat = category(v.log.header, dict(v.log.end.get("meta") or {}))
        turns = splits(v.log)
        facts: dict = {"category": cat, "splits": turns, "before": None, "gold": None}
        store = self.app.profile.store
        rec = self.record
        if turns is None or store is None or rec is None or getattr(rec, "category", None) not in (
                "random", "seeded", "daily"):
            return facts
        from ..store.runs import category_runs, comparison
        try:
            runs = category_runs(store, self.state.ruleset.name, rec.category,
                                 rec.seed_text if rec.category == "seeded" else None,
                                 ("daily",) if rec.category == "daily" else ("solo",))
        except Exception:
            return facts
        hints = cat["hints"] if cat["hints"] is not None else False
        anim = cat["animation"] or "animated"
        total = len(self.state.ruleset.sheet)
        facts["before"] = comparison(runs, hints, anim, total, leave_out=rec.id)
        facts["gold"] = comparison(runs, hints, anim, total).gold
        return facts

    def category_line(self) -> str | None:
        """The run's category in words (a one-seat run), a local one labelled self-dealt."""
        if self.run is None:
            return None
        from ..categories import label_of
        line = label_of(self.t, self.run["category"])
        if getattr(self.record, "self_dealt", False):
            line += " · " + self.t("records.self_dealt")
        return line

    def timed(self) -> bool:
        """Whether this run counts for a timed best (finished, not resumed, stamped)."""
        run = self.run
        return (run is not None and run["splits"] is not None and not run["category"]["resumed"]
                and not self.gave_up())

    def on_enter(self):
        self.shown_at = self.app.now
        if self.is_new_best():
            self.app.play_sound("fanfare")
            if self.count_seconds:
                self.celebration = Celebration(self.t("game.new_best"), self.app.now + self.count_seconds,
                                               (320, 330))

    def counted(self, value: int) -> int:
        """``value`` as the count-up shows it now."""
        if not self.count_seconds or self.shown_at is None:
            return value
        return int(round(value * ease_out((self.app.now - self.shown_at) / self.count_seconds)))

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.conn is not None:
            for msg in self.conn.poll():
                if msg.get("type") == "rematch":   # another player asked to play again
                    self.app.show(self.t("results.rematch_offer", name=msg.get("by", "?")),
                                  "info", 8.0)
                    self.focus_id = "again"
                    seconds = msg.get("seconds")
                    if isinstance(seconds, (int, float)) and 0 < seconds <= REMATCH_SECONDS:
                        self.again_until = self.app.now + float(seconds)
        if self.celebration is not None and self.app.now - self.celebration.start >= Celebration.DURATION:
            self.celebration = None

    def again_left(self) -> int | None:
        """Whole seconds left to play again at a table (None: no such limit here)."""
        if self.again_until is None:
            return None
        return max(0, math.ceil(self.again_until - self.app.now))

    def again_label(self) -> str:
        left = self.again_left()
        if not left:
            return self.t("results.play_again")
        return self.t("results.play_again_left", time=f"{left // 60}:{left % 60:02d}")

    def animating(self) -> bool:
        now = self.app.now
        counting = self.count_seconds and self.shown_at is not None and now - self.shown_at < self.count_seconds
        return bool(counting) or self.celebration is not None

    def skip_animation(self) -> None:
        self.count_seconds = 0.0
        self.celebration = None

    @classmethod
    def from_match(cls, app, match, elapsed, mode="solo", seed_text=None, record=None):
        """Results of a local match that was already finished and recorded
        (``Profile.finish_and_record``)."""
        if match.log.end is None:
            match.finish({"duration_ms": int(round((elapsed or 0) * 1000))})
        data = match.log.to_bytes()
        reveal = match.reveal or {}
        return cls(app, match.state, data, elapsed=elapsed, record=record, mode=mode,
                   seed_text=seed_text, reveal_seed=reveal.get("seed"), commitment=match.commitment)

    # ---------------------------------------------------------- what the left card says
    def time_text(self) -> str:
        """The run time as stored in the log (``m:ss.mmm``), else the scene's timer."""
        ms = getattr(self.record, "duration_ms", None)
        if ms is not None:
            from .. import lang
            from ..i18n import format_duration
            return format_duration(ms, lang.current())
        return format_time(self.elapsed or 0.0)

    def is_new_best(self) -> bool:
        return self.mode != "table" and bool(getattr(self.record, "new_best", False))

    def personal_best(self) -> int | None:
        return self._personal_best

    def board_line(self) -> str | None:
        """Which board the recorded game is on, a local one labelled self-dealt, and a
        set-seed run's seed as typed (what another runner types for the same dice)."""
        rec = self.record
        category = getattr(rec, "category", None)
        if category is None or category == "table":
            return None
        note = self.t("records.self_dealt") if rec.self_dealt else ""
        if category == "seeded" and rec.seed_text is not None:
            return self.t("results.board_seed", seed=rec.seed_text, note=note)
        line = self.t("results.board", board=self.t(f"records.cat.{category}"), note=note)
        return line if note else self.t(f"records.cat.{category}")

    def file_line(self, short: bool = False) -> str | None:
        """Where the finished game was also written as a .bonanza file (``short``: the
        games folder and the file's name only)."""
        path = getattr(self.record, "file", None)
        if not path:
            return None
        if short:
            return self.t("results.saved_file",
                          path=os.path.join("…", os.path.basename(os.path.dirname(path)),
                                            os.path.basename(path)))
        home = os.path.expanduser("~")
        if home not in ("", "~", os.sep) and path.startswith(home + os.sep):
            path = "~" + path[len(home):]   # the same file, in less of the line
        return self.t("results.saved_file", path=path)

    def draw_sheet_summary(self, surface) -> None:
        """A solo game: the whole sheet in two columns (upper and lower boxes), scratched
        boxes struck through, in the right card."""
        L = self.layout
        st = self.state
        sheet = st.sheets[self.my_seat]
        rs = st.ruleset
        draw_text(surface, self.t("results.sheet"), L.rect((650, 110, 330, 40)), L.font_px(24),
                  theme.INK, bold=True)
        if self.run is None:        # else the button to the splits is there
            draw_text(surface, self.t(f"game.ruleset.{rs.name}"), L.rect((980, 110, 210, 40)),
                      L.font_px(18), theme.INK_SOFT, align="right")
        bonus = sheet.upper_bonus(rs)
        left = [(self.t(f"box.{b}"), sheet.get(b)) for b in rs.layout.upper]
        left += [(self.t("game.upper_subtotal"), f"{sheet.upper_sum}/{rs.upper_threshold}"),
                 (self.t("game.upper_bonus"), str(bonus) if bonus else "–")]
        right = [(self.t(box_key(b, rs)), sheet.get(b)) for b in rs.layout.lower]
        if rs.joker:
            right.append((self.t("game.joker_bonus"), str(sheet.extra_bonus) if sheet.extra_bonus else "–"))
        row_h = 32 if max(len(left), len(right)) <= 8 else 29   # yatzy: 9 lower boxes
        for x, rows in ((650, left), (935, right)):
            for i, (label, value) in enumerate(rows):
                y = 156 + i * row_h
                summed = isinstance(value, str)
                if i:
                    pygame.draw.line(surface, theme.PAPER_LINE, L.point(x, y), L.point(x + 255, y), 1)
                if summed:      # the sums on a shaded band, as on the game's sheet
                    pygame.draw.rect(surface, theme.PAPER_SHADE, L.rect((x, y + 1, 255, row_h - 1)))
                # a sum ("65/63") gets a wider cell than a box's points, at the same size
                split = 176 if summed else 206
                draw_text(surface, label, L.rect((x + 4, y, split - 6, row_h)), L.font_px(18), theme.INK)
                cell = L.rect((x + split, y + 3, 254 - split, row_h - 6))
                if value == 0:
                    draw_scratch(surface, cell, L)
                elif value is not None:
                    draw_text(surface, str(value), cell, L.font_px(20), theme.INK, bold=True, align="right")

    def visible(self, w) -> bool:
        if w.id == "again" and self.mode == "table" and self.spectator and self.again_scene is None:
            return False        # a watcher has no seat to play again with
        if w.id == "card_view":
            return self.run is not None and not self.spectator
        return super().visible(w)

    def button_enabled(self, id):
        if id == "card_view":
            return self.run is not None and self.run["splits"] is not None or self.show_splits
        if id == "again":
            if self.again_scene is not None:
                return True
            if self.mode == "table":
                return (self.conn is not None and self.conn.status == "connected"
                        and self.again_left() != 0)
            return self.mode in ("solo", "practice")
        if id == "verify":
            return self.verdict is not None and bool(self.verdict.states)
        if id == "analysis":
            return self.verdict is not None and self.verdict.ok and self.verdict.log is not None
        return True

    def on_press(self, id):
        if id == "again" and self.again_scene is not None:
            self.app.switch(self.again_scene)
        elif id == "again" and self.mode == "table":
            from ..hosting import lan_address
            address = lan_address() if self.relay is not None else self.conn.host
            self.app.switch("lobby", self.conn, address, self.conn.port, relay=self.relay,
                            request={"type": "rematch"})
        elif id == "again" and self.mode == "practice":
            self.practice_again()
        elif id == "again":
            self.app.switch("solo_game", seed_text=self.seed_text)
        elif id == "card_view":
            self.show_splits = not self.show_splits
        elif id == "verify":
            self.app.open("replay", self.verdict, path=None)
        elif id == "analysis":
            self.app.open("analysis", self.verdict, seat=self.my_seat)
        elif id == "menu":
            self.app.to_title()

    def practice_again(self) -> None:
        """Practice again: the same past day's dice, or a new practice game of the rules."""
        header = self.verdict.log.header if self.verdict is not None and self.verdict.log else None
        dice: dict = dict(header["dice"]) if header is not None else {}
        if dice.get("scheme") == "public":
            from ..practice import past_daily_match
            self.app.switch("solo_game", match=past_daily_match(self.app, dice["date"]))
        else:
            self.app.switch("solo_game", mode="practice", ruleset=self.state.ruleset.name)

    def practice_line(self) -> str | None:
        """A practice game's results: the past day's par, or how many writes were taken back."""
        log = self.verdict.log if self.verdict is not None and self.verdict.ok else None
        if self.mode != "practice" or log is None:
            return None
        from bonanza.core.undo import taken_back
        undos = len(taken_back(log.moves))
        dice = log.header["dice"]
        if dice["scheme"] == "public":
            if self._par is None:
                loader = self.app.advisor_loader("yacht")
                if loader is not None and loader.ready:
                    from ..daily import par
                    try:
                        self._par = par(dice["date"])
                    except Exception:
                        self._par = -1
            if self._par is not None and self._par >= 0:
                return self.t("daily.par", par=self._par) + " · " + self.tn("practice.undos", undos)
        return self.tn("practice.undos", undos)

    def back(self):
        self.app.to_title()

    def gave_up(self) -> bool:
        """This window's seat gave up (or left) before the end."""
        return any(s.seat == self.my_seat and s.gave_up for s in self.standings)

    def toast_area(self, layout):
        """Over the title, left of the card view's button: below, the Verified line and the
        saved file sit above the buttons."""
        return layout.rect((84, 6, 930, 84))

    def draw(self, surface):
        L = self.layout
        self.draw_background(surface)
        self.draw_title(surface, self.t("results.title"), y=18)
        if len(self.standings) > 1:
            self.draw_table_results(surface)
            self.draw_fairness(surface)
            self.draw_widgets(surface)
            return
        st = self.state
        me = st.sheets[self.my_seat].total(st.ruleset)
        # left card: the player's score, time and best
        card = L.rect((60, 96, 520, 330))
        shadowed_panel(surface, card, theme.PAPER, L.px(16), L.px(6))
        draw_text(surface, self.t("game.score"), L.rect((90, 112, 460, 36)), L.font_px(22), theme.INK_SOFT,
                  align="center")
        draw_text(surface, str(self.counted(me)), L.rect((90, 146, 460, 100)), L.font_px(86), theme.INK,
                  bold=True, align="center")
        y = 252
        if self.gave_up():
            # a run that was not finished has no run time worth showing
            draw_text(surface, self.t("results.given_up"), L.rect((90, y, 460, 36)), L.font_px(24),
                      theme.BAD, bold=True, align="center")
            y += 42
        elif self.mode != "table":
            draw_text(surface, self.t("game.timer", time=self.time_text()),
                      L.rect((90, y, 460, 36)), L.font_px(24), theme.INK, align="center")
            y += 42
        if self.is_new_best():
            draw_text(surface, self.t("game.new_best"), L.rect((90, y, 460, 44)), L.font_px(32),
                      theme.PENDING, bold=True, align="center")
            y += 48
        practice = self.practice_line()
        if practice:
            draw_text(surface, practice, L.rect((90, y, 460, 36)), L.font_px(22), theme.INK_SOFT,
                      align="center")
        best = self.personal_best()
        if best is not None:
            seeded = getattr(self.record, "category", None) == "seeded"
            draw_text(surface, self.t("game.seed_best" if seeded else "game.personal_best", score=best),
                      L.rect((90, y, 460, 36)), L.font_px(22), theme.INK_SOFT, align="center")
        category = self.category_line()
        if category:        # which runs this one compares with, named above both cards
            draw_text(surface, category, L.rect((60, 68, 1160, 26)), L.font_px(18),
                      theme.TEXT_ON_FELT_SOFT, align="center", min_px=theme.MIN_READABLE_PX)
        board = None if category else self.board_line()
        if board:
            draw_text(surface, board, L.rect((90, 384, 460, 30)), L.font_px(18), theme.INK_SOFT,
                      align="center")
        shadowed_panel(surface, L.rect((620, 96, 600, 330)), theme.PAPER, L.px(16), L.px(6))
        if self.show_splits and self.run is not None:
            self.draw_splits(surface)
        else:
            self.draw_sheet_summary(surface)
        self.draw_fairness(surface)
        self.draw_widgets(surface)
        if self.celebration is not None:
            self.celebration.draw(surface, L, self.app.now)

    def split_rows(self):
        """The run's splits beside the fastest earlier run of its category, gold turns
        marked (none when the run is not timed: a resumed run compares with nothing)."""
        from ..splits_view import split_rows
        run = self.run or {}
        turns = run.get("splits") or []
        before = run.get("before")
        total = len(self.state.ruleset.sheet)
        if not self.timed() or before is None:
            return split_rows(turns, total, None, mark_gold=False)
        return split_rows(turns, total, before.best, before.gold)

    def sum_of_best_line(self) -> str:
        from ..splits_view import GOLD_MARK, short_time
        run = self.run or {}
        if run.get("splits") is None:
            return self.t("results.no_splits")
        if not self.timed():
            return self.t("results.splits_not_timed")
        gold = run.get("gold")
        if not gold:
            return ""
        return self.t("results.sum_of_best", time=short_time(sum(gold)), mark=GOLD_MARK)

    def draw_splits(self, surface) -> None:
        """The right card of a one-seat run: each turn's time, the gap to the fastest earlier
        run of its category (sign, shape and colour), gold turns starred; the sum of best."""
        from ..splits_view import draw_split_rows
        L = self.layout
        draw_text(surface, self.t("results.splits"), L.rect((650, 110, 370, 40)), L.font_px(24),
                  theme.INK, bold=True)
        rows = self.split_rows()
        per_col = (len(rows) + 1) // 2
        row_h = 30 if per_col <= 7 else 27         # a Yatzy run's 15 turns in the same card
        draw_split_rows(surface, L, (644, 154, 552, row_h * per_col), rows, row_h, 18, on_paper=True)
        draw_text(surface, self.sum_of_best_line(), L.rect((650, 390, 540, 30)), L.font_px(17),
                  theme.INK_SOFT, align="center", min_px=theme.MIN_READABLE_PX)

    def place_line(self) -> str | None:
        """At a table: where this window's seat came, in words ("You came 2nd of 4", "You
        shared 1st place", "You won!"); nothing for a watcher or a window passed around,
        which have no seat of their own."""
        if len(self.standings) < 2 or self.gave_up() or self.spectator:
            return None
        mine = next((s for s in self.standings if s.seat == self.my_seat), None)
        if mine is None:
            return None
        shared = sum(1 for s in self.standings if s.place == mine.place and s.gave_up is None) > 1
        if mine.place == 1:
            return self.t("results.shared_first" if shared else "results.you_won")
        place = self.t(f"results.ordinal.{mine.place}")
        if shared:
            return self.t("results.you_shared", place=place)
        return self.t("results.your_place", place=place, n=len(self.standings))

    def winners(self) -> list:
        return [s for s in self.standings if s.place == 1 and s.gave_up is None] or self.standings[:1]

    # ---------------------------------------------------------- a table's end
    # Left (x 60-420): the winner's banner, this seat's place, the standings.  Right
    # (x 436-1220): every final sheet, upper boxes beside lower ones, so nobody asks
    # "how did they get 250?" and nothing is one seat's score shown as the viewer's.
    LEFT_W = 360

    def draw_table_results(self, surface) -> None:
        L = self.layout
        left = L.rect((60, 96, self.LEFT_W, 330))
        shadowed_panel(surface, left, theme.PAPER, L.px(16), L.px(6))
        first = self.winners()
        banner = L.rect((60, 96, self.LEFT_W, 96))
        pygame.draw.rect(surface, theme.GOLD, banner, border_top_left_radius=L.px(16),
                         border_top_right_radius=L.px(16))
        title = (self.t("results.shared_win") if len(first) > 1
                 else self.t("results.winner_name", name=first[0].name))
        draw_text(surface, title, L.rect((76, 104, self.LEFT_W - 32, 44)), L.font_px(30), theme.INK,
                  bold=True, align="center")
        who = " · ".join(s.name for s in first) + " · " if len(first) > 1 else ""
        draw_text(surface, who + self.t("results.points", points=self.counted(first[0].total)),
                  L.rect((76, 148, self.LEFT_W - 32, 34)), L.font_px(22), theme.INK, align="center")
        y = 202
        place = self.place_line()
        if place:
            draw_text(surface, place, L.rect((76, y, self.LEFT_W - 32, 34)), L.font_px(24), theme.INK,
                      bold=True, align="center")
            y += 40
        self.draw_standings(surface, y)
        right = L.rect((436, 96, 784, 330))
        shadowed_panel(surface, right, theme.PAPER, L.px(16), L.px(6))
        self.draw_final_sheets(surface)

    def draw_standings(self, surface, top: float) -> None:
        """Place, name (in its seat's colour, as on the sheets) and total, one row a seat."""
        L = self.layout
        places = [s.place for s in self.standings]
        row = min(40.0, (416 - top) / max(1, len(self.standings)))
        for i, s in enumerate(self.standings):
            yy = top + i * row
            shared = places.count(s.place) > 1 and s.gave_up is None
            color = theme.GOLD if s.place == 1 and s.gave_up is None else theme.INK_SOFT
            draw_text(surface, self.tn("results.place_n", s.place), L.rect((80, yy, 48, row)),
                      L.font_px(24), color, bold=True)
            pygame.draw.rect(surface, theme.SEAT_COLORS[s.seat % len(theme.SEAT_COLORS)],
                             L.rect((130, yy + row / 2 - 6, 12, 12)), border_radius=L.px(3))
            name = s.name + ("" if not shared else f" ({self.t('results.shared_place')})")
            if s.gave_up:
                why = self.t({"left": "table.left", "away": "table.away"}.get(s.gave_up, "table.gave_up"))
                name += f" ({why})"
            r = L.rect((150, yy, 178, row))
            draw_text(surface, self.fitted(name, r, 19, True), r, L.font_px(19),
                      theme.BAD if s.gave_up else theme.INK, bold=True)
            draw_text(surface, str(self.counted(s.total)), L.rect((330, yy, 72, row)), L.font_px(24),
                      theme.INK, bold=True, align="right")

    def sheet_rows(self) -> tuple[list, list]:
        """The two halves of every sheet: (label, [value per seat]); a value is a box's
        points (None empty, 0 scratched) or a sum as text."""
        st = self.state
        rs = st.ruleset
        sheets = st.sheets
        upper = [(self.t(f"box.{b}"), [sh.get(b) for sh in sheets]) for b in rs.layout.upper]
        upper.append((self.t("game.upper_subtotal"), [str(sh.upper_sum) for sh in sheets]))
        upper.append((self.t("game.upper_bonus"),
                      [str(sh.upper_bonus(rs)) if sh.upper_bonus(rs) else "–" for sh in sheets]))
        lower = [(self.t(box_key(b, rs)), [sh.get(b) for sh in sheets]) for b in rs.layout.lower]
        if rs.joker:
            lower.append((self.t("game.joker_bonus"),
                          [str(sh.extra_bonus) if sh.extra_bonus else "–" for sh in sheets]))
        lower.append((self.t("game.total"), [str(sh.total(rs)) for sh in sheets]))
        return upper, lower

    def fitted(self, text: str, rect, design_px: int, bold: bool = False) -> str:
        """``text`` as it fits ``rect``: shrunk down to a readable size, then cut with "…"."""
        L = self.layout
        small = max(theme.MIN_READABLE_PX, L.font_px(min(design_px, 14)))
        if fonts.fit_size(text, L.font_px(design_px), rect.w, bold, small) <= small:
            return ellipsize(text, small, rect.w, bold)
        return text

    def draw_final_sheets(self, surface) -> None:
        L = self.layout
        names = [s.name for s in self.state.setup.seats]
        n = len(names)
        winners = {s.seat for s in self.winners()}
        upper, lower = self.sheet_rows()
        rows = max(len(upper), len(lower)) + 1          # and the names
        row_h = min(30.0, 306 / rows)
        label_w, half_w = 150, 374
        col_w = (half_w - label_w) / n
        for x, half in ((448, upper), (448 + half_w + 12, lower)):
            y = 108.0
            if not self.spectator:      # this window's own column, tinted as at the table
                pygame.draw.rect(surface, theme.ACTIVE_COL,
                                 L.rect((x + label_w + self.my_seat * col_w, y, col_w,
                                         (len(half) + 1) * row_h)))
            for c, name in enumerate(names):      # the names, in their seats' colours
                cx = x + label_w + c * col_w
                r = L.rect((cx + 2, y, col_w - 4, row_h - 4))
                draw_text(surface, self.fitted(name, r, 15, c in winners), r, L.font_px(15),
                          theme.INK, bold=c in winners, align="center")
                pygame.draw.rect(surface, theme.SEAT_COLORS[c % len(theme.SEAT_COLORS)],
                                 L.rect((cx + 6, y + row_h - 5, col_w - 12, 4)))
            for i, (label, values) in enumerate(half):
                y = 108 + (i + 1) * row_h
                summed = isinstance(values[0], str)
                pygame.draw.line(surface, theme.PAPER_LINE, L.point(x, y), L.point(x + half_w, y), 1)
                if summed:      # the sums on a shaded band, as on the game's sheet
                    pygame.draw.rect(surface, theme.PAPER_SHADE, L.rect((x, y + 1, half_w, row_h - 1)))
                r = L.rect((x + 4, y, label_w - 8, row_h))
                draw_text(surface, self.fitted(label, r, 16, summed), r, L.font_px(16), theme.INK,
                          bold=summed)
                for c, value in enumerate(values):
                    cell = L.rect((x + label_w + c * col_w + 4, y + 3, col_w - 8, row_h - 6))
                    if value == 0:
                        draw_scratch(surface, cell, L)
                    elif value is not None:
                        draw_text(surface, str(value), cell, L.font_px(17), theme.INK, bold=True,
                                  align="center")

    def draw_sealed(self, surface) -> None:
        """A daily table's end: no seed and no log yet, and why — not a failed check."""
        from ..i18n import format_date
        from ..widgets import draw_wrapped
        L = self.layout
        date = format_date(self.sealed_date)
        y = 492
        for key, colour in (("results.daily_sealed", theme.TEXT_ON_FELT),
                            ("daily.relay.log_later", theme.TEXT_ON_FELT_SOFT)):
            y += draw_wrapped(surface, self.t(key, date=date), L.rect((84, y, 1112, 56)),
                              L.font_px(18), colour) / max(L.scale, 1e-6) + 6

    def draw_fairness(self, surface) -> None:
        """The fingerprint, the revealed seed and the verdict."""
        L = self.layout
        fair = L.rect((60, 446, 1160, 160))
        shadowed_panel(surface, fair, theme.FELT_DARK, L.px(14), L.px(4))
        if self.commitment is not None:
            draw_text(surface, self.t("results.fingerprint", fingerprint=self.commitment.hex()),
                      L.rect((84, 458, 1112, 30)), L.font_px(17), theme.TEXT_ON_FELT_SOFT)
        if self.verdict is None and self.sealed_date is not None:
            self.draw_sealed(surface)
            return
        seed = self.reveal_seed.hex() if self.reveal_seed else "–"
        if self.verdict is not None and self.verdict.log is not None and self.reveal_seed is None:
            dice = self.verdict.log.header.get("dice")
            date = dice.get("date") if isinstance(dice, dict) else None
            seed = date if isinstance(date, str) else seed
        draw_text(surface, self.t("results.revealed_seed", seed=seed), L.rect((84, 492, 1112, 30)),
                  L.font_px(17), theme.TEXT_ON_FELT)
        ok = self.verdict is not None and self.verdict.ok
        mark = "✔ " if ok else "✖ "
        saved = self.file_line()
        draw_text(surface, mark + verdict_line(self.t, self.verdict),
                  L.rect((84, 524, 1112, 40) if saved else (84, 532, 1112, 56)), L.font_px(22),
                  theme.OK if ok else theme.BAD, bold=True)
        if saved:
            box = L.rect((84, 566, 1112, 30))
            px = L.font_px(17)
            # a long folder gives way to the file's name, which is what a player looks for
            if fonts.fit_size(saved, px, box.w, False, theme.MIN_READABLE_PX) <= theme.MIN_READABLE_PX:
                saved = self.file_line(short=True) or saved
            draw_text(surface, saved, box, px, theme.TEXT_ON_FELT_SOFT, min_px=theme.MIN_READABLE_PX)
