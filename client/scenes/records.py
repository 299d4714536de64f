"""Records: one tab per board category (random seed, set seed, daily, relay, table;
summary.CATEGORIES) and the history.  A board is one category and one ruleset: its
statistics and personal bests (score, time, seed as typed, date) count finished
games only; the history lists every game with its status (finished, given up).
Local games are labelled self-dealt.  A selected game opens in the
replay/verify scene or is exported as a record file to the data folder's
``exports/``.

Keys: Up/Down choose a game, Left/Right switch tab (a ruleset is chosen with its
button), Enter replays the chosen game (or presses the focused button), Tab moves
the focus over the list and the buttons, Escape goes back.  The mouse: click a tab,
click a row to choose it (a second click replays it), the wheel scrolls.
"""
from __future__ import annotations

import os

import pygame

from bonanza.core.settings import RULESETS

from .. import actions as A
from .. import fonts, lang, theme
from ..actions import Action
from ..texts import game_date, verdict_text
from ..widgets import ROW_INSET, draw_text, draw_wrapped, fit_columns, list_row_back, row_inner, shadowed_panel
from .base import Scene

CATEGORIES = ("random", "seeded", "daily", "relay", "table")
LOCAL_TABS = ("random", "seeded", "daily")       # boards of run categories (hints, animation)
TABS = CATEGORIES + ("history",)
BOARD_SIZE = 10
HISTORY_SIZE = 50
VISIBLE = 10
# the list (design units)
LIST_X, LIST_W = 560, 660
LIST_Y, ROW_H = 226, 36
# #, score, time, seed, date (from the row's inner left edge: LIST_X + ROW_INSET)
COLS_BOARD = ((0, 30, "right"), (34, 110, "right"), (150, 116, "right"), (272, 216, "center"),
              (494, 146, "center"))
# the history's columns are as wide as their words (``fit_columns``); only their alignment is fixed
HISTORY_ALIGN = ("left", "left", "left", "right", "right", "right")  # date, board, ruleset, score, time, status
HISTORY_GAP = 14        # design units between two of its columns


def format_number(value) -> str:
    """A score average in the player's language (``201.5`` / ``201,5``)."""
    if value is None:
        return "–"
    from bonanza.client.i18n import format_decimal
    return format_decimal(value, lang.current())


def short_seed(seed: str | None) -> str:
    return "–" if not seed else seed[:8] + "…"


def seed_cell(rec) -> str:
    """A set-seed run shows the seed as the player typed it (what another runner types
    to get the same dice); a daily its date; any other game its seed's first digits."""
    if rec.seed_text is not None:
        return f"“{rec.seed_text}”"
    if rec.seed is None and rec.date:
        return rec.date
    return short_seed(rec.seed)


def board_modes(category: str) -> tuple[str, ...]:
    return {"random": ("solo",), "seeded": ("solo",), "daily": ("daily",),
            "relay": ("solo", "daily", "ranked"), "table": ("table",)}[category]


def board_rulesets(category: str) -> tuple[str, ...]:
    return ("yacht",) if category == "daily" else tuple(RULESETS)


def board_entries(store, ruleset: str, category: str, limit: int = BOARD_SIZE) -> list:
    """The personal-best board of one category and ruleset (finished games only): score
    (high first), then time (fast first, unknown last), then the older game."""
    entries = []
    for mode in board_modes(category):
        entries += store.personal_bests(ruleset, mode, limit, category=category)
    entries.sort(key=lambda r: (-r.score, r.duration_ms is None, r.duration_ms or 0, r.id))
    return entries[:limit]


def local_board(store, ruleset: str, category: str, hints, animation,
                limit: int = BOARD_SIZE) -> tuple[list, list]:
    """A self-dealt board of one run category (issue 25): ``(entries, counted)``.  The
    entries are finished runs with these hints and this animation (``runs.ANY``: either),
    by score, then time, then age — never a resumed run (its time away was not counted);
    on the set-seed board one per seed, the best on that seed.  ``counted`` is every game
    of the filter, what the statistics are made of."""
    from ..store.runs import category_runs
    runs = [r for r in category_runs(store, ruleset, category, modes=board_modes(category))
            if r.matches(hints, animation)]
    board = [r for r in runs if r.record.finished and not r.resumed]
    board.sort(key=lambda r: (-r.record.score, r.record.duration_ms is None,
                              r.record.duration_ms or 0, r.record.id))
    if category == "seeded":
        per_seed: dict = {}
        for r in board:         # the first of a seed is its best (the board's order)
            per_seed.setdefault(r.record.seed_text, r)
        board = list(per_seed.values())
    return [r.record for r in board[:limit]], [r.record for r in runs]


def relay_board(store, profile, ruleset: str, hints: bool, limit: int = BOARD_SIZE,
                tool_assisted: bool = False):
    """The Server board: ``(entries, signers, counted)``.  Only games signed by a key the
    player met in a lobby (or trusted here) are ranked; games signed by any other key come
    after them, unranked and marked, until the player trusts the key.  A ranked run
    declared with hints is on the hints board, every other relay game on the other.  A run
    whose median decision was quicker than a person reads dice ("tool-assisted?",
    ``core.splits``) is kept off the board unless ``tool_assisted`` asks for it (then it
    is listed, marked).  ``counted`` (every status) is what the statistics are made of."""
    from ..relay_trust import signer_of
    from ..store.runs import run_of
    signers: dict = {}
    ranked: list = []
    unknown: list = []
    counted: list = []
    for rec in store.board_games(ruleset, board_modes("relay"), "relay"):
        key, declared = store.signed_by(rec.id)
        signer = signers[rec.id] = signer_of(profile, key, declared)
        if bool(signer.hints) != hints:
            continue
        if signer.known:
            counted.append(rec)
        if rec.finished and (tool_assisted or not run_of(store, rec).tool_assisted):
            (ranked if signer.known else unknown).append(rec)
    return ranked[:limit] + unknown[:limit], signers, counted


def stats_of(records) -> dict:
    """A board's statistics from its games (finished ones count; given-up ones apart)."""
    done = [r for r in records if r.finished]
    return {"games": len(done),
            "average": round(sum(r.score for r in done) / len(done), 1) if done else None,
            "best": max((r.score for r in done), default=None),
            "upper_bonus": sum(1 for r in done if r.upper_bonus),
            "bonanzas": sum(r.bonanzas for r in done),
            "gave_up": len(records) - len(done)}


def board_stats(store, ruleset: str | None, category: str | None) -> dict:
    """The statistics of a board (of every game with ``category`` None); the average
    is recombined over the board's modes."""
    if category is None:
        return store.stats(ruleset)
    parts = [store.stats(ruleset, mode, category) for mode in board_modes(category)]
    games = sum(p["games"] for p in parts)
    total = sum((p["average"] or 0) * p["games"] for p in parts)
    bests = [p["best"] for p in parts if p["best"] is not None]
    return {"games": games, "average": round(total / games, 1) if games else None,
            "best": max(bests) if bests else None,
            "upper_bonus": sum(p["upper_bonus"] for p in parts),
            "bonanzas": sum(p["bonanzas"] for p in parts),
            "gave_up": sum(p["gave_up"] for p in parts)}


class RecordsScene(Scene):
    title_key = "records.title"

    def __init__(self, app):
        super().__init__(app)
        self.tab = TABS[0]
        self.rulesets = {c: board_rulesets(c)[0] for c in CATEGORIES}   # each tab keeps its own
        self.sel = 0
        self.top = 0
        self.entries: list = []
        self.signers: dict = {}         # the Server board: game id -> relay_trust.Signer
        self.hints_board = False        # the Server board with hints (ranked runs declared so)
        self.show_tool = False          # the Server board lists tool-assisted? runs too, marked
        from ..store.runs import ANY
        # a self-dealt board's run category: hints and animation (ANY: both)
        self.hints_filter: bool | str = ANY
        self.anim_filter = ANY
        for i, tab in enumerate(TABS):
            self.button(f"tab:{tab}", (40 + i * 202, 80, 192, 44), lambda tb=tab: self.tab_label(tb),
                        style="secondary", size=19)
        w = (432 - 12 * (len(RULESETS) - 1)) // len(RULESETS)   # side by side in the left panel
        for i, rs in enumerate(RULESETS):
            self.button(f"rs:{rs}", (64 + i * (w + 12), 232, w, 42),
                        lambda r=rs: self.t(f"records.ruleset.{r}"), style="secondary", size=19)
        # History: games from another computer or a backup (also dropped on the window)
        # below the tab's description (three lines in French), above the statistics
        self.button("import", (64, 246, 432, 36), lambda: self.t("records.import"), style="secondary",
                    size=18)
        self.button("hints_board", (LIST_X + LIST_W - 236, 144, 236, 36),
                    lambda: self.t("records.board_hints" if self.hints_board
                                   else "records.board_no_hints"), style="secondary", size=16)
        self.button("trust", (LIST_X + 20, 603, LIST_W - 40, 38), self._trust_label, size=17)
        # a self-dealt board's hints and animation, the Server board's tool-assisted runs
        self.button("f_hints", (64, 552, 210, 38), self._hints_filter_label, style="secondary", size=16)
        self.button("f_anim", (286, 552, 210, 38), self._anim_filter_label, style="secondary", size=16)
        self.button("f_tool", (64, 552, 432, 38),
                    lambda: self.t("records.tool_shown" if self.show_tool else "records.tool_hidden"),
                    style="secondary", size=16)
        self.button("replay", (74, 646, 212, 52), lambda: self.t("history.replay"), size=21)
        self.button("analysis", (304, 646, 212, 52), lambda: self.t("analysis.open"), style="secondary", size=21)
        self.button("export", (534, 646, 212, 52), lambda: self.t("records.export"), style="secondary",
                    size=21)
        self.button("charts", (764, 646, 212, 52), lambda: self.t("charts.open"), style="secondary", size=21)
        self.button("back", (994, 646, 212, 52), lambda: self.t("common.back"), style="secondary", size=21)
        self.focus_id = "list"
        self.reload()
        if not self.entries:
            self.open_where_games_are()

    def open_where_games_are(self) -> None:
        """An empty first board is not where a player's games are: open on the board of
        the newest game (its ruleset chosen), or the history when that board shows none
        (a given-up game), so Records never opens on an empty list beside played games."""
        try:
            newest = self.store.history(1) if self.store is not None else []
        except Exception:
            newest = []
        if not newest:
            return
        rec = newest[0]
        if rec.category in CATEGORIES and rec.ruleset in board_rulesets(rec.category):
            self.rulesets[rec.category] = rec.ruleset
            self.tab = rec.category
            self.reload()
        if not self.entries:
            self.set_tab("history")
        if self.focus_id not in self.focus_order():
            self.focus_id = (self.focus_order() or ["back"])[0]

    # ---------------------------------------------------------- data
    @property
    def store(self):
        return self.app.profile.store

    def reload(self) -> None:
        store = self.store
        self.entries = []
        counted: list = []
        if store is not None:
            try:
                if self.tab == "history":
                    self.entries = store.history(HISTORY_SIZE)
                elif self.tab == "relay":
                    self.entries, self.signers, counted = relay_board(
                        store, self.app.profile, self.rulesets["relay"], self.hints_board,
                        tool_assisted=self.show_tool)
                elif self.tab in LOCAL_TABS:
                    self.entries, counted = local_board(store, self.rulesets[self.tab], self.tab,
                                                        self.hints_filter, self.anim_filter)
                else:
                    self.entries = board_entries(store, self.rulesets[self.tab], self.tab)
            except Exception:
                self.entries = []
        self.sel = max(0, min(self.sel, len(self.entries) - 1))
        self.top = max(0, min(self.top, max(0, len(self.entries) - VISIBLE)))
        self.keep_visible()
        # the summary card too: read here, not in draw (which runs every frame)
        self.stats = {"games": 0, "average": None, "best": None, "upper_bonus": 0, "bonanzas": 0,
                      "gave_up": 0}
        if store is not None:
            try:
                self.stats = (stats_of(counted) if self.tab == "relay" or self.tab in LOCAL_TABS
                              else board_stats(store, self.ruleset(), self.category()))
            except Exception:
                pass

    def selected(self):
        if 0 <= self.sel < len(self.entries):
            return self.entries[self.sel]
        return None

    def tab_label(self, tab: str) -> str:
        if tab == "history":
            return self.t("history.title")
        return self.t(f"records.cat.{tab}")

    def category(self) -> str | None:
        return None if self.tab == "history" else self.tab

    def ruleset(self) -> str | None:
        return None if self.tab == "history" else self.rulesets[self.tab]

    def signer(self, rec):
        """Who signed ``rec`` on the Server board (None elsewhere)."""
        return self.signers.get(rec.id) if self.tab == "relay" and rec is not None else None

    def resumed(self, rec) -> bool:
        """A self-dealt run brought back by "Continue" (its time is not a run's)."""
        from ..store.runs import run_of
        return (self.store is not None and rec.category in LOCAL_TABS
                and run_of(self.store, rec).resumed)

    def tool_assisted(self, rec) -> bool:
        from ..store.runs import run_of
        return self.store is not None and run_of(self.store, rec).tool_assisted

    def unknown_selected(self):
        signer = self.signer(self.selected())
        return signer if signer is not None and not signer.known and signer.key else None

    def _trust_label(self) -> str:
        signer = self.unknown_selected()
        return self.t("records.trust_key", fingerprint=signer.fingerprint if signer else "")

    def _hints_filter_label(self) -> str:
        f = self.hints_filter
        return self.t("records.hints_any" if f not in (True, False) else
                      "records.hints_on" if f else "records.hints_off")

    def _anim_filter_label(self) -> str:
        from ..store.runs import ANY
        return self.t("records.anim_any" if self.anim_filter == ANY else f"category.{self.anim_filter}")

    def board_title(self, rs: str) -> str:
        """A board's title names its category: the ruleset, and on a self-dealt board the
        hints and animation it shows (a set-seed board: the best on each seed)."""
        if self.tab not in LOCAL_TABS:
            return self.t("records.board", ruleset=self.t(f"records.ruleset.{rs}"))
        parts = [self.t(f"records.ruleset.{rs}")]
        if self.hints_filter in (True, False):
            parts.append(self.t("category.hints" if self.hints_filter else "category.no_hints"))
        if self.anim_filter in ("instant", "animated"):
            parts.append(self.t(f"category.{self.anim_filter}"))
        key = "records.board_seeds" if self.tab == "seeded" else "records.board"
        return self.t(key, ruleset=" · ".join(parts))

    def cycle_filter(self, id: str) -> None:
        from ..store.runs import ANY
        if id == "f_hints":
            order: tuple = (ANY, False, True)
            self.hints_filter = order[(order.index(self.hints_filter) + 1) % 3]
        elif id == "f_anim":
            order = (ANY, "instant", "animated")
            self.anim_filter = order[(order.index(self.anim_filter) + 1) % 3]
        else:
            self.show_tool = not self.show_tool
        self.sel = self.top = 0
        self.reload()

    def visible(self, w) -> bool:
        if w.id == "hints_board":
            return self.tab == "relay"
        if w.id in ("f_hints", "f_anim"):
            return self.tab in LOCAL_TABS
        if w.id == "f_tool":
            return self.tab == "relay"
        if w.id == "trust":
            return self.unknown_selected() is not None
        if w.id == "import":
            return self.tab == "history"
        if w.id.startswith("rs:"):   # a ruleset choice only where the board has two
            return self.tab != "history" and len(board_rulesets(self.tab)) > 1
        return super().visible(w)

    # ---------------------------------------------------------- input
    def targets(self, layout):
        out = super().targets(layout)
        for i in range(min(VISIBLE, len(self.entries) - self.top)):
            r = layout.rect((LIST_X, LIST_Y + i * ROW_H, LIST_W, ROW_H))
            out.append((r, Action(A.PRESS, f"row:{self.top + i}")))
        return out

    def focus_order(self) -> list[str]:
        order = ["list"] if self.entries else []
        order += [f"rs:{rs}" for rs in RULESETS if self.visible(self.widget(f"rs:{rs}"))]
        order += [id for id in ("f_hints", "f_anim", "f_tool", "hints_board", "trust")
                  if self.visible(self.widget(id))]
        order += [id for id in ("replay", "analysis", "export", "charts", "back")
                  if self.button_enabled(id)]
        return order + (["import"] if self.tab == "history" else [])

    def button_enabled(self, id: str) -> bool:
        if id in ("replay", "analysis", "export"):
            return self.selected() is not None
        if id.startswith("row:"):
            return int(id[4:]) < len(self.entries)
        return True

    def enabled(self, action) -> bool:
        return super().enabled(action)

    def handle(self, action) -> None:
        n = action.name
        if n == A.DROP_FILE:     # a record file or a folder of them, from anywhere
            self.import_games([action.arg])
            return
        if n == A.UP:
            self.select(self.sel - 1)
        elif n == A.DOWN:
            self.select(self.sel + 1)
        elif n == A.LEFT:
            self.switch(-1)
        elif n == A.RIGHT:
            self.switch(1)
        elif n == A.FIRST:
            self.select(0)
        elif n == A.LAST:
            self.select(len(self.entries) - 1)
        elif n == A.SCROLL:
            self.top = max(0, min(max(0, len(self.entries) - VISIBLE), self.top + int(action.arg or 0)))
            self.sel = max(self.top, min(self.sel, self.top + VISIBLE - 1, len(self.entries) - 1))
        elif n == A.CONFIRM and self.focus_id in (None, "list"):
            self.replay()
        elif n == A.PRESS and action.arg.startswith("row:"):
            i = int(action.arg[4:])
            self.focus_id = "list"
            if i == self.sel:
                self.replay()
            else:
                self.select(i)
        else:
            super().handle(action)

    def select(self, i: int) -> None:
        if not self.entries:
            return
        self.sel = max(0, min(len(self.entries) - 1, i))
        self.focus_id = "list"
        self.keep_visible()

    def keep_visible(self) -> None:
        if self.sel < self.top:
            self.top = self.sel
        elif self.sel >= self.top + VISIBLE:
            self.top = self.sel - VISIBLE + 1

    def switch(self, step: int) -> None:
        self.set_tab(TABS[(TABS.index(self.tab) + step) % len(TABS)])

    def set_tab(self, tab: str) -> None:
        if tab != self.tab:
            self.tab = tab
            self.sel = self.top = 0
            self.reload()
        if self.focus_id not in self.focus_order():
            self.focus_id = (self.focus_order() or ["back"])[0]

    def on_press(self, id: str) -> None:
        if id.startswith("tab:"):
            self.set_tab(id[4:])
        elif id.startswith("rs:") and self.category() is not None:
            if self.rulesets[self.tab] != id[3:]:
                self.rulesets[self.tab] = id[3:]
                self.sel = self.top = 0
                self.reload()
        elif id in ("f_hints", "f_anim", "f_tool"):
            self.cycle_filter(id)
        elif id == "hints_board":
            self.hints_board = not self.hints_board
            self.sel = self.top = 0
            self.reload()
        elif id == "trust":
            self.trust_selected()
        elif id == "replay":
            self.replay()
        elif id == "analysis":
            self.replay(analyse=True)
        elif id == "export":
            self.export()
        elif id == "import":
            self.import_from_folder()
        elif id == "charts":    # the board's ruleset, so the charts open on what was looked at
            self.app.open("charts", self.ruleset() or "bonanza")
        elif id == "back":
            self.back()

    # ---------------------------------------------------------- what the entries do
    def trust_selected(self) -> None:
        """The player vouches for the selected game's key: its games join the board."""
        signer = self.unknown_selected()
        if signer is None:
            return
        from ..relay_trust import trust
        trust(self.app.profile, signer.key)
        self.reload()
        self.app.show(self.t("records.key_trusted", fingerprint=signer.fingerprint), "good", 5.0)

    def replay(self, analyse: bool = False) -> None:
        """Replay the chosen game, or with ``analyse`` open its analysis."""
        rec = self.selected()
        if rec is None or self.store is None:
            return
        from bonanza.core.verify import verify_bytes
        try:
            verdict = verify_bytes(self.store.game_log(rec.id))
        except Exception as e:
            self.app.show(self.t("error.generic", detail=str(e)), "error")
            return
        if verdict.ok and verdict.states and analyse:
            self.app.open("analysis", verdict)
        elif verdict.ok and verdict.states:
            self.app.open("replay", verdict, path=None)
        else:
            self.app.show(verdict_text(self.t, verdict), "error", 5.0)

    def exports_dir(self) -> str | None:
        store = self.store
        directory = getattr(store, "directory", None) or (
            os.path.dirname(store.path) if store is not None and store.path else None)
        return os.path.join(directory, "exports") if directory else None

    def export(self) -> str | None:
        """Write the selected game's record file to ``<data folder>/exports/``; its path."""
        rec = self.selected()
        if rec is None:
            return None
        from ..store.records import RecordError, default_filename, export_record
        folder = self.exports_dir()
        path = os.path.join(folder, default_filename(rec)) if folder else default_filename(rec)
        try:
            if folder is None:
                raise OSError("no data folder")
            os.makedirs(folder, exist_ok=True)
            export_record(self.store, rec.id, path)
        except (RecordError, OSError):
            self.app.show(self.t("records.export_failed", path=path), "error", 5.0)
            return None
        self.app.show(self.t("records.exported", path=path), "good", 6.0)
        return path

    def import_dir(self) -> str | None:
        directory = getattr(self.store, "directory", None)
        return os.path.join(directory, "import") if directory else None

    def import_from_folder(self) -> None:
        """Import every record file in ``<data folder>/import/`` (no file dialog here: the
        player puts files there, or drops them on the window)."""
        folder = self.import_dir()
        try:
            if folder is None:
                raise OSError("no data folder")
            os.makedirs(folder, exist_ok=True)
            empty = not any(n.endswith(".bonanza") for n in os.listdir(folder))
        except OSError:
            folder, empty = folder or "?", True
        if empty:
            self.app.show(self.t("records.import_hint", path=folder), "info", 8.0)
            return
        self.import_games([folder])

    def import_games(self, paths: list[str]) -> None:
        """Verify and add the games; say how many came in, were known, were refused."""
        from ..store import StoreError
        from ..store.records import RecordError, import_games
        if self.store is None or not self.store.persistent:
            self.app.show(self.t("records.import_failed"), "error", 6.0)
            return
        try:
            result = import_games(self.store, paths)
        except (StoreError, RecordError, OSError):
            self.app.show(self.t("records.import_failed"), "error", 6.0)
            return
        self.reload()
        kind = "good" if result.added else ("error" if result.refused else "info")
        self.app.show(self.t("records.imported", added=len(result.added), known=result.known,
                             refused=len(result.refused)), kind, 6.0)

    # ---------------------------------------------------------- drawing
    def on_language_changed(self) -> None:
        self.reload()

    def draw(self, surface) -> None:
        L = self.layout
        self.draw_background(surface)
        self.draw_title(surface, self.t("records.title"), y=14, size=36)
        self.draw_summary(surface)
        self.draw_list(surface)
        if self.unknown_selected() is None:     # else the "trust this key" button is there
            draw_text(surface, self.t("records.hint"), L.rect((40, 612, 1200, 26)), L.font_px(16),
                      theme.TEXT_ON_FELT_SOFT, align="center")
        for w in self.widgets:     # the chosen tab and ruleset look pressed
            if w.id.startswith("tab:"):
                w.style = "primary" if w.id == f"tab:{self.tab}" else "secondary"
            elif w.id.startswith("rs:"):
                w.style = "primary" if w.id == f"rs:{self.ruleset()}" else "secondary"
        self.draw_widgets(surface)

    def draw_summary(self, surface) -> None:
        L = self.layout
        card = L.rect((40, 136, 480, 464))
        shadowed_panel(surface, card, theme.PAPER, L.px(16), L.px(6))
        cat = self.category()
        draw_text(surface, self.tab_label(self.tab), L.rect((64, 146, 432, 36)), L.font_px(24),
                  theme.INK, bold=True)
        # whose dice and whose clock: a local board is never mistaken for a relay's
        about = {"relay": "records.about.relay", "table": "records.about.table",
                 None: "records.about.history"}.get(cat, "records.about.self_dealt")
        draw_wrapped(surface, self.t(about), L.rect((64, 184, 432, 46)), L.font_px(16),
                     theme.INK_SOFT)
        if cat is not None and len(board_rulesets(cat)) == 1:
            draw_text(surface, self.t(f"records.ruleset.{board_rulesets(cat)[0]}"),
                      L.rect((64, 234, 432, 38)), L.font_px(21), theme.INK, bold=True)
        pygame.draw.line(surface, theme.PAPER_LINE, L.point(64, 286), L.point(496, 286), max(1, L.px(2)))
        # statistics: finished games only; the given-up ones are counted apart
        st = self.stats
        rows = (("stats.games_played", str(st["games"])),
                ("stats.gave_up", str(st.get("gave_up", 0))),
                ("stats.average", format_number(st["average"])),
                ("stats.best", "–" if st["best"] is None else str(st["best"])),
                ("stats.upper_bonus_reached", self.tn("stats.times", int(st["upper_bonus"] or 0))),
                ("stats.bonanzas_rolled", str(st["bonanzas"] or 0)))
        for i, (key, value) in enumerate(rows):
            y = 296 + i * 42
            draw_text(surface, self.t(key), L.rect((68, y, 300, 40)), L.font_px(19), theme.INK_SOFT)
            draw_text(surface, value, L.rect((370, y, 126, 40)), L.font_px(22), theme.INK, bold=True,
                      align="right")
            if i:
                pygame.draw.line(surface, theme.PAPER_LINE, L.point(68, y - 5), L.point(496, y - 5), 1)

    def row_cells(self, idx: int, rec, rs) -> tuple[tuple[str, ...], list[tuple[int, bool, tuple]]]:
        """A game's cells in the list and how each is drawn: (design size, bold, colour)."""
        from ..i18n import format_duration
        duration = format_duration(rec.duration_ms, lang.current())
        cells: tuple[str, ...]
        signer = self.signer(rec)
        unknown = signer is not None and not signer.known
        # a tool-assisted? run is listed only when asked for, its date cell saying so
        tool = signer is not None and self.show_tool and self.tool_assisted(rec)
        if signer is not None:      # unknown keys come after the board, unranked
            cells = ("?" if unknown else f"{idx + 1}.", str(rec.score), duration,
                     ("? " if unknown else "") + (signer.fingerprint or "–"),
                     self.t("ranked.tool_assisted") if tool else game_date(rec))
        elif rs:
            cells = (f"{idx + 1}.", str(rec.score), duration, seed_cell(rec), game_date(rec))
        else:
            board = self.t(f"records.cat.{rec.category or rec.mode}")
            if self.resumed(rec):       # on no timed board: the history says why
                board += " · " + self.t("category.resumed")
            cells = (game_date(rec), board,
                     self.t(f"records.ruleset.{rec.ruleset}"), str(rec.score), duration,
                     self.t(f"history.status.{rec.status}"))
        style = []
        for j in range(len(cells)):
            strong = bool((rs and j == 1) or (not rs and j == 3))
            stopped = not rs and j == 5 and not rec.finished   # a given-up game stands out
            style.append((16 if signer is not None and j == 3 else 18, strong or stopped,
                          theme.BAD if stopped or unknown or (tool and j == 4) else theme.INK))
        return cells, style

    def history_columns(self, heads, rows) -> tuple[list[tuple[int, int, str]], list[int]]:
        """The history's columns in window pixels, (x, width, align), and the one text size of
        each column's cells.  Its words differ in length from language to language, so each
        column is as wide as its widest cell (``fit_columns``) and two never touch (fr and es
        dates and states did); a narrowed column's cells share the size its widest one fits at."""
        L = self.layout
        small = theme.MIN_READABLE_PX
        needs = [fonts.text_width(h, L.font_px(16), True) for h in heads]
        least = [fonts.text_width(h, small, True) for h in heads]
        for cells, style in rows:
            for j, text in enumerate(cells):
                needs[j] = max(needs[j], fonts.text_width(text, L.font_px(style[j][0]), style[j][1]))
                least[j] = max(least[j], fonts.text_width(text, small, style[j][1]))
        box = row_inner(L, L.rect((LIST_X, 0, LIST_W, 0)))
        place = [(x, w, align) for (x, w), align
                 in zip(fit_columns(needs, box.x, box.w, L.px(HISTORY_GAP), least), HISTORY_ALIGN)]
        sizes = [min((fonts.fit_size(cells[j], L.font_px(style[j][0]), place[j][1], style[j][1])
                      for cells, style in rows), default=L.font_px(18)) for j in range(len(heads))]
        return place, sizes

    def draw_list(self, surface) -> None:
        L = self.layout
        card = L.rect((LIST_X - 20, 136, LIST_W + 40, 464))
        shadowed_panel(surface, card, theme.PAPER, L.px(16), L.px(6))
        rs = self.ruleset()
        head = self.board_title(rs) if rs else self.t("history.title")
        head_w = LIST_W - 246 if self.tab == "relay" else LIST_W     # the hints switch beside it
        draw_text(surface, head, L.rect((LIST_X, 146, head_w, 34)), L.font_px(22), theme.INK, bold=True)
        heads: tuple[str, ...]
        if rs:
            # the Server board names who vouches for each game instead of its seed
            heads = ("", self.t("game.score"), self.t("game.time"),
                     self.t("records.relay_key" if self.tab == "relay" else "records.seed"),
                     self.t("history.date"))
        else:
            heads = (self.t("history.date"), self.t("history.board"), self.t("stats.per_ruleset"),
                     self.t("game.score"), self.t("game.time"), self.t("history.status"))
        rows = [self.row_cells(idx, rec, rs) for idx, rec in enumerate(self.entries)]
        if rs:
            cols = [(L.rect((LIST_X + ROW_INSET + x, 0, w, 0)), align) for x, w, align in COLS_BOARD]
            place = [(r.x, r.w, align) for r, align in cols]
            sizes: list[int | None] = [None] * len(heads)      # a board's cells fit one by one
        else:
            place, fitted = self.history_columns(heads, rows)
            sizes = list(fitted)
        head_y = L.rect((LIST_X, 186, LIST_W, 30))
        for (x, w, align), text in zip(place, heads):
            draw_text(surface, text, pygame.Rect(x, head_y.y, w, head_y.h), L.font_px(16), theme.INK_SOFT,
                      bold=True, align=align)
        pygame.draw.line(surface, theme.INK_SOFT, L.point(LIST_X, 220), L.point(LIST_X + LIST_W, 220),
                         max(1, L.px(2)))
        if not self.entries:
            draw_text(surface, self.t("history.empty"), L.rect((LIST_X, 330, LIST_W, 40)), L.font_px(22),
                      theme.INK_SOFT, align="center")
            return
        mouse = self.app.mouse
        for i in range(min(VISIBLE, len(self.entries) - self.top)):
            idx = self.top + i
            row = L.rect((LIST_X, LIST_Y + i * ROW_H, LIST_W, ROW_H))
            list_row_back(surface, L, row, idx == self.sel, self.focus_id == "list",
                          row.collidepoint(mouse))
            cells, style = rows[idx]
            line = L.rect((LIST_X, LIST_Y + i * ROW_H + 2, LIST_W, ROW_H - 4))
            for (x, w, align), text, (size, bold, color), px in zip(place, cells, style, sizes):
                draw_text(surface, text, pygame.Rect(x, line.y, w, line.h),
                          L.font_px(size) if px is None else px, color, bold=bold, align=align)
        # a scroll bar when the list is longer than the view
        if len(self.entries) > VISIBLE:
            track = L.rect((LIST_X + LIST_W + 6, LIST_Y, 6, VISIBLE * ROW_H))
            pygame.draw.rect(surface, theme.PAPER_LINE, track, border_radius=track.w // 2)
            h = max(L.px(20), track.h * VISIBLE // len(self.entries))
            y = track.y + (track.h - h) * self.top // max(1, len(self.entries) - VISIBLE)
            pygame.draw.rect(surface, theme.INK_SOFT, (track.x, y, track.w, h), border_radius=track.w // 2)
