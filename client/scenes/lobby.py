"""Hosting and joining a table, and the lobby where everyone waits.

Host: pick seats, time per turn, rules and bots; the client starts the relay in its
own process and shows the address, port and table code.  Join: address, port,
code.  Empty seats are played by bots, always marked as bots.
"""
from __future__ import annotations

from bonanza.core.game import MAX_SEATS
from bonanza.core.settings import (
    BOT_LEVEL_AVERAGES,
    BOT_LEVELS,
    BOT_POLICIES,
    DAILY_RULESET,
    DAILY_TURN_SECONDS,
    DEFAULT_BOT_LEVEL,
    DEFAULT_BOT_POLICY,
    DEFAULT_PORT,
    DEFAULT_RULESET,
    DEFAULT_TURN_SECONDS,
    MAX_NAME,
    MIN_SEATS_TABLE,
    RULESETS,
    TURN_SECONDS,
)

from .. import actions as A
from .. import marks, sprites, theme
from ..relay_address import port_number
from ..relay_notes import (
    RelayKeyNote,
    ask_about_changed_key,
    handle_relay_error,
    leave_untrusted,
    note_relay_key,
    refusal_text,
    relay_key_line,
)
from ..texts import short_hex
from ..widgets import draw_text, shadowed_panel
from .base import Scene

SEAT_CHOICES = tuple(range(MIN_SEATS_TABLE, MAX_SEATS + 1))


ROWS = (("seats", 170), ("turn", 230), ("ruleset", 290), ("bots", 350))   # host setup: (row, y)
CONNECT_TIMEOUT = 6.0     # seconds the lobby waits for the relay before going back to the form


def _remembered(options: tuple, value, default):
    return value if value in options else default


class _Options(Scene):
    """Rows of ‹ value › choices (keyboard: Up/Down pick a row, Left/Right change it), and
    the player's name: empty until they have chosen one, and remembered once typed."""

    def name_field(self, rect):
        p = self.app.profile
        self.name = self.field("name", rect, value=p.name if p.has_name else "",
                               placeholder=lambda: self.t("lobby.name_placeholder"), max_len=MAX_NAME)

    def typed_name(self) -> str:
        return " ".join(self.name.value.split())

    def value_text(self, row: str) -> str:
        """What row ``row`` is set to, as its button shows it."""
        raise NotImplementedError

    def option_row(self, row: str, y: float) -> None:
        self.button(f"dec:{row}", (640, y, 56, 50), "‹", style="secondary", size=28)
        self.button(f"val:{row}", (704, y, 332, 50), lambda r=row: self.value_text(r), style="ghost", size=21)
        self.button(f"inc:{row}", (1044, y, 56, 50), "›", style="secondary", size=28)

    def handle(self, action):
        f = self.focus_id or ""
        if action.name in (A.LEFT, A.RIGHT) and f.startswith("val:"):
            self.change(f[4:], -1 if action.name == A.LEFT else 1)
            return
        if action.name == A.CONFIRM and f.startswith("val:"):
            self.change(f[4:], 1)
            return
        super().handle(action)

    def focus_order(self):
        return [w.id for w in self.widgets if not w.id.startswith(("dec:", "inc:"))]

    def on_press(self, id):
        if id.startswith(("dec:", "inc:")):
            self.change(id[4:], -1 if id.startswith("dec:") else 1)
        elif id.startswith("val:"):
            self.change(id[4:], 1)
        elif id == "back":
            self.back()
        else:
            self.go()


DAILY_GAME = "daily"                              # the host's "Daily challenge" choice
HOST_GAMES: tuple[str, ...] = RULESETS + (DAILY_GAME,)


class HostSetupScene(_Options):
    title_key = "lobby.host_title"

    def __init__(self, app):
        super().__init__(app)
        last = app.profile.settings["last_host"]
        self.seats = _remembered(SEAT_CHOICES, last.get("seats"), MIN_SEATS_TABLE)
        self.turn = _remembered(TURN_SECONDS, last.get("turn"), DEFAULT_TURN_SECONDS)
        self.ruleset = _remembered(HOST_GAMES, last.get("ruleset"), DEFAULT_RULESET)
        self.bots = _remembered(BOT_LEVELS, last.get("bots"), DEFAULT_BOT_LEVEL)
        self.name_field((640, 110, 460, 50))
        for row, y in ROWS:
            self.option_row(row, y)
        self.button("open", (480, 520, 320, 60), lambda: self.t("lobby.open"), size=24)
        self.button("back", (540, 600, 200, 50), lambda: self.t("common.back"), style="secondary")
        self.focus_id = "open" if self.typed_name() else "name"

    def button_enabled(self, id):
        if id == "open":
            return bool(self.typed_name())
        return True

    def value_text(self, row):
        if row == "seats":
            return self.tn("lobby.seats_value", self.seats)
        if row == "turn":     # a daily table has the daily's clock, whatever is chosen here
            seconds = DAILY_TURN_SECONDS if self.ruleset == DAILY_GAME else self.turn
            return self.t("lobby.turn_time_value", seconds=seconds)
        if row == "bots":
            return self.t(f"lobby.bot.{self.bots}")
        if self.ruleset == DAILY_GAME:
            return self.t("lobby.daily_table")
        return self.t(f"lobby.ruleset.{self.ruleset}")

    def bot_level_text(self) -> str:
        """The chosen level's style, and its measured average under the chosen rules."""
        style = self.t(f"lobby.bot_style.{self.bots}")
        ruleset = DAILY_RULESET if self.ruleset == DAILY_GAME else self.ruleset
        average = BOT_LEVEL_AVERAGES.get(ruleset, {}).get(self.bots)
        if average is None:
            return style
        return self.t("lobby.bot_average", style=style, points=average)

    def change(self, row, step):
        if row == "seats":
            self.seats = SEAT_CHOICES[(SEAT_CHOICES.index(self.seats) + step) % len(SEAT_CHOICES)]
        elif row == "turn" and self.ruleset == DAILY_GAME:
            pass
        elif row == "turn":
            self.turn = TURN_SECONDS[(TURN_SECONDS.index(self.turn) + step) % len(TURN_SECONDS)]
        elif row == "bots":
            self.bots = BOT_LEVELS[(BOT_LEVELS.index(self.bots) + step) % len(BOT_LEVELS)]
        else:
            self.ruleset = HOST_GAMES[(HOST_GAMES.index(self.ruleset) + step) % len(HOST_GAMES)]

    def on_submit(self, id):
        self.move_focus(1)

    def go(self):
        from ..hosting import HostedRelay, lan_address
        name = self.typed_name()
        if not name:
            return
        self.app.profile.remember("last_host", {"seats": self.seats, "turn": self.turn,
                                                "ruleset": self.ruleset, "bots": self.bots}, name)
        relay = HostedRelay.on_default_port(bot_delay=self.app.profile.bot_delay())
        if not relay.ready.wait(8) or relay.port is None:
            relay.stop()
            self.app.show(self.t("error.host_failed", reason=relay.error or "timeout"), "error", 8.0)
            return
        from bonanza.client.relay_client import RelayConnection
        conn = RelayConnection("127.0.0.1", relay.port, signer=self.app.profile.seat_signer())
        request = {"type": "create_table", "name": name, "seats": self.seats,
                   "turn_seconds": self.turn, "bots": self.bots}
        if self.ruleset == DAILY_GAME:     # the day's challenge together: yacht, today's dice
            request.update(ruleset=DAILY_RULESET, daily=True)
        else:
            request["ruleset"] = self.ruleset
        # pushed over the form, so a refusal or a failure comes back to it as it was typed
        self.app.push(LobbyScene(self.app, conn, lan_address(), relay.port, relay=relay, request=request))

    def draw(self, surface):
        super().draw(surface)
        L = self.layout
        labels = {"seats": "lobby.seats", "turn": "lobby.turn_time", "ruleset": "lobby.ruleset",
                  "bots": "lobby.bots"}
        for y, key in [(110, "lobby.your_name")] + [(y, labels[row]) for row, y in ROWS]:
            draw_text(surface, self.t(key), L.rect((180, y, 440, 50)), L.font_px(22), theme.TEXT_ON_FELT, bold=True)
        draw_text(surface, self.bot_level_text(), L.rect((180, 402, 920, 30)), L.font_px(18),
                  theme.TEXT_ON_FELT, align="center")
        # what becomes of the seats nobody takes: said, not a chip that looks pressable
        draw_text(surface, self.t("lobby.bots_fill"), L.rect((180, 434, 920, 30)), L.font_px(17),
                  theme.TEXT_ON_FELT_SOFT, align="center")


class JoinScene(_Options):
    """Join by address, port and code — or pick a table found on this network.  The
    search runs only when the player presses "Find tables on this network" (or Refresh):
    opening the screen sends nothing."""
    title_key = "lobby.join_title"
    ROWS = 5

    def __init__(self, app):
        super().__init__(app)
        last = app.profile.settings["last_join"]
        self.name_field((300, 130, 330, 50))
        self.address = self.field("address", (300, 200, 330, 50), max_len=64,
                                  value=str(last.get("address") or "127.0.0.1")[:64])
        self.port = self.field("port", (300, 270, 330, 50), max_len=5,
                               value=str(last.get("port") or DEFAULT_PORT)[:5])
        self.code = self.field("code", (300, 340, 330, 50), value="", max_len=5)
        self.button("join", (300, 460, 330, 60), lambda: self.t("lobby.join"), size=24)
        self.button("back", (365, 540, 200, 50), lambda: self.t("common.back"), style="secondary")
        self.button("find", (680, 130, 540, 50), self.find_label, style="secondary", size=20)
        for i in range(self.ROWS):
            self.button(f"found{i}", (680, 200 + i * 62, 540, 54),
                        lambda i=i: self.found_label(i), style="ghost", size=18)
        self.search = None            # client.discovery.Search while one runs
        self.found: list = []
        self.searched = False
        self.focus_id = "code"

    # ---------------------------------------------------------- tables on this network
    def find_label(self) -> str:
        if self.search is not None:
            return self.t("lobby.searching")
        return self.t("lobby.refresh") if self.searched else self.t("lobby.find")

    def found_label(self, i: int) -> str:
        if i >= len(self.found):
            return ""
        f = self.found[i]
        game = (self.t("daily.title") if f.daily
                else self.t("lobby.ruleset." + f.ruleset) if f.ruleset in RULESETS else f.ruleset)
        if f.started:    # its empty seats went to bots: no "2/4", and only a watcher gets in
            return self.t("lobby.found_watch_row", host=f.host, ruleset=game)
        return self.t("lobby.found_row", host=f.host, taken=f.taken, seats=f.seats, ruleset=game,
                      seconds=f.turn_seconds or "–")

    def visible(self, w) -> bool:
        if w.id.startswith("found"):
            return int(w.id[5:]) < len(self.found)
        return True

    def focus_order(self):
        return [w.id for w in self.widgets if self.visible(w)]

    def find(self) -> None:
        if self.search is None:
            from bonanza.client.discovery import Search
            self.search = Search()

    def pick(self, i: int) -> None:
        """A found table: join it (watch it once started) at its own address and port.
        The typed form is left as it was: a found relay's port is one the system picked
        for that game, and would be wrong for the next table typed in by hand."""
        f = self.found[i]
        if f.started:                       # a game being played: watch it
            self.watch(f)
        elif self.typed_name():
            self.join(f.address, f.port, f.code, typed=False)
        else:
            self.focus_id = "name"          # the one thing missing: a name

    def watch(self, f) -> None:
        from bonanza.client.relay_client import RelayConnection
        conn = RelayConnection(f.address, f.port, signer=self.app.profile.seat_signer())
        self.app.push(LobbyScene(self.app, conn, f.address, f.port,
                                 request={"type": "watch", "code": f.code}))

    def update(self, dt):
        super().update(dt)
        if self.search is not None and self.search.done:
            search, self.search = self.search, None
            self.searched = True
            self.found = search.found[:self.ROWS]
            self.app.dirty = True
            if search.error:
                self.app.show(self.t("lobby.find_failed", reason=search.error), "error", 6.0)
            elif not self.found:
                self.app.show(self.t("lobby.found_none"), "info", 6.0)
            else:
                self.focus_id = "found0"

    # ---------------------------------------------------------- the form
    def button_enabled(self, id):
        if id == "join":
            return (len(self.code.value.strip()) == 5 and port_number(self.port.value) is not None
                    and bool(self.typed_name()))
        if id == "find":
            return self.search is None
        return True

    def on_press(self, id):
        if id == "find":
            self.find()
        elif id.startswith("found"):
            self.pick(int(id[5:]))
        else:
            super().on_press(id)

    def on_submit(self, id):
        if id == "code" and self.button_enabled("join"):
            self.go()
        else:
            self.move_focus(1)

    def go(self):
        host = self.address.value.strip() or "127.0.0.1"
        port = port_number(self.port.value)
        if port is not None:
            self.join(host, port, self.code.value.strip().upper(), typed=True)

    def join(self, host: str, port: int, code: str, typed: bool) -> None:
        """Sit down at ``code``; a typed address and port are kept for the next time."""
        from bonanza.client.relay_client import RelayConnection
        name = self.typed_name()
        last = self.app.profile.settings["last_join"] if not typed else {
            "address": host, "port": port, "code": code}
        self.app.profile.remember("last_join", last, name)
        seat = self.app.profile.running_tables().get(code)
        if seat is not None and (seat["host"], seat["port"]) == (host, port):
            # a table this player holds a seat at: take the seat back rather than join
            self.app.push(rejoin_scene(self.app, code, seat))
            return
        conn = RelayConnection(host, port, signer=self.app.profile.seat_signer())
        request = {"type": "join", "code": code, "name": name}
        # pushed over the form, so a refusal or a failure comes back to it as it was typed
        self.app.push(LobbyScene(self.app, conn, host, port, request=request))

    def draw(self, surface):
        super().draw(surface)
        L = self.layout
        for y, key in ((130, "lobby.your_name"), (200, "lobby.address"), (270, "lobby.port"),
                       (340, "lobby.table_code")):
            draw_text(surface, self.t(key), L.rect((60, y, 230, 50)), L.font_px(22),
                      theme.TEXT_ON_FELT, bold=True)
        draw_text(surface, self.t("lobby.nearby"), L.rect((680, 88, 540, 36)), L.font_px(20),
                  theme.TEXT_ON_FELT_SOFT, bold=True)


def rejoin_scene(app, code: str, seat: dict) -> "LobbyScene":
    """Resume a remembered seat (after a crash or a restart): the lobby shows
    "Connecting…" until the relay replays the game, then the table takes over."""
    from bonanza.client.relay_client import RelayConnection
    conn = RelayConnection(seat["host"], seat["port"], signer=app.profile.seat_signer())
    return LobbyScene(app, conn, seat["host"], seat["port"], rejoin=code,
                      request={"type": "resume", "token": seat["token"], "seq": 0})


class LobbyScene(Scene):
    """Everyone sees the table code, the seats and who is a bot; the host starts."""

    def __init__(self, app, conn, address: str, port: int, relay=None, request=None,
                 rejoin: str | None = None):
        super().__init__(app)
        self.request = request        # create_table / join / resume, sent once connected
        self.rejoin = rejoin          # the code of the table whose seat is being resumed
        self.conn = self.own(conn)
        self.address = address
        self.port = port
        self.relay = relay if relay is None else self.own(relay)
        self.button("start", (420, 620, 260, 56), lambda: self.t("lobby.start"), size=24)
        self.button("leave", (700, 620, 260, 56), lambda: self.t("lobby.leave"), style="secondary", size=20)
        self.focus_id = "start"
        self.waited = 0.0
        self.relay_key: RelayKeyNote | None = None
        self.asking = False          # the changed-key question is open; the request waits
        self.was_host: bool | None = None                # hosting when we last looked

    @property
    def table(self):
        return self.conn.table

    def _note_host(self) -> None:
        """The host left the lobby and the relay handed the table to this seat: say so,
        since Start is now this player's to press."""
        now = self.is_host()     # seats are renumbered when someone leaves: compare roles
        if self.was_host is False and now:
            self.app.show(self.t("lobby.you_are_host"), "info", 6.0)
        self.was_host = now

    def _note_relay_key(self) -> None:
        if self.relay_key is None:
            self.relay_key = note_relay_key(self, self.conn, self.address, self.port)

    def _key_answered(self, accepted: bool) -> None:
        self.asking = False
        if not accepted:
            self.leave()           # nothing was sent: the relay never saw us sit down
            return
        if self.relay_key is not None:
            self.relay_key = self.relay_key._replace(seen="known", old=None)

    def sat_down_commitment(self) -> bytes | None:
        """The dice commitment the table showed when this seat sat down (the game's
        header must carry it; the table shows it again at the start)."""
        client = getattr(self.conn, "client", None)
        return getattr(client, "sat_down_commitment", None)

    def is_host(self) -> bool:
        t = self.table
        return t is not None and self.conn.seat == t.get("host", 0)

    def button_enabled(self, id):
        if id == "start":
            return self.is_host() and self.conn.status == "connected"
        return True

    def on_press(self, id):
        if id == "start":
            self.conn.send({"type": "start"})
        elif id == "leave":
            self.leave()

    def back(self):
        self.leave()

    def leave(self) -> None:
        try:
            self.conn.send({"type": "leave"})
        finally:
            self.app.to_title()    # on exit the connection closes and a hosted relay stops

    def back_to_form(self, text: str) -> None:
        """Not seated (refused, nothing listening, no answer in time): back to the form
        it came from, as typed, with the reason on screen long enough to read."""
        self.app.show(text, "error", 8.0)
        self.app.pop()

    def update(self, dt):
        super().update(dt)
        if self.conn.status == "connected":
            self._note_relay_key()
        if self.asking:
            return
        if self.request is not None and self.conn.status == "connected" and self.relay_key is not None:
            if self.relay_key.seen == "changed":
                # another key where this player met a relay before: ask before sitting down
                self.asking = True
                ask_about_changed_key(self, self.relay_key, self.address, self.port,
                                      self._key_answered)
                return
            self.conn.send(self.request)
            self.request = None
        if self.conn.table is None:
            self.waited += dt
            if self.waited > CONNECT_TIMEOUT and self.conn.status != "connected":
                self.back_to_form(self.t("error.cannot_connect", host=self.address, port=self.port))
                return
        msgs = self.conn.poll()
        if msgs:
            self.app.dirty = True   # redraw now; a still lobby otherwise idles at the low frame rate
        for msg in msgs:
            kind = msg.get("type")
            if kind == "error":
                if self.conn.table is None:
                    if self.rejoin and msg.get("code") == "not_seated":
                        self.app.profile.forget_table(self.rejoin)   # the game is over
                    self.back_to_form(refusal_text(self.t, msg))
                    return
                handle_relay_error(self, msg)
            elif kind == "status" and msg.get("status") in ("closed", "reconnecting"):
                # Before the start a dropped seat is freed at once, so there is nothing to
                # reconnect to: a lost connection in the lobby is the end of this table.
                if msg.get("status") == "reconnecting" and self.conn.table is None:
                    continue
                if self.conn.table is None:
                    self.back_to_form(self.t("error.cannot_connect", host=self.address,
                                             port=self.port))
                else:   # the relay went away with the table (its host closed it)
                    self.back_to_form(self.t("lobby.table_closed"))
                return
            elif kind == "table":
                self._note_host()
            elif kind == "desync":
                leave_untrusted(self, msg)
                return
            elif kind == "started" or (kind in ("resumed", "watching")
                                       and self.conn.state is not None):
                self.app.switch("table", self.conn, relay=self.relay)
                return

    def seats_view(self):
        """(label, kind, connected) per seat, bots planned for the empty ones."""
        t = self.table or {}
        players = {p["seat"]: p for p in t.get("players", [])}
        out = []
        for i in range(t.get("seats", 2)):
            p = players.get(i)
            if p is None:
                out.append((self.t("lobby.bot"), "bot", True))
            else:
                out.append((p["name"], p.get("kind", "human"), p.get("connected", True)))
        return out

    def planned_policy(self, k: int) -> str | None:
        """The policy the relay will give the k-th bot (TableInfo ``bots``)."""
        bots = (self.table or {}).get("bots")
        if isinstance(bots, list):
            return bots[k] if k < len(bots) else DEFAULT_BOT_POLICY
        return bots

    def bot_tag(self, policy) -> str:
        return self.t(f"lobby.bot_{policy}") if policy in BOT_POLICIES else self.t("lobby.bot")

    def draw(self, surface):
        L = self.layout
        self.draw_background(surface)
        t = self.table
        if t is not None and t.get("daily"):
            title = self.t("daily.title")
        else:
            hosting = self.relay is not None or (t is not None and self.is_host())
            title = self.t("lobby.host_title") if hosting else self.t("lobby.join_title")
        self.draw_title(surface, title, y=14)
        if t is None:
            msg = self.t("lobby.connecting", host=self.address, port=self.port)
            draw_text(surface, msg, L.rect((140, 300, 1000, 50)), L.font_px(26), theme.TEXT_ON_FELT,
                      align="center")
            self.draw_widgets(surface)
            return
        code = t.get("code", "?????")
        draw_text(surface, self.t("lobby.table_code_value", code=code), L.rect((140, 78, 1000, 60)),
                  L.font_px(40), theme.GOLD, bold=True, align="center", shadow=True)
        draw_text(surface, self.t("lobby.share_hint", address=self.address, port=self.port, code=code),
                  L.rect((140, 138, 1000, 34)), L.font_px(20), theme.TEXT_ON_FELT, align="center")
        rules = (self.t("lobby.daily_table") if t.get("daily")
                 else self.t('lobby.ruleset.' + t.get('ruleset', 'bonanza')))
        info = f"{rules} · {self.t('lobby.turn_time_value', seconds=t.get('turn_seconds') or 60)}"
        draw_text(surface, info, L.rect((140, 172, 1000, 30)), L.font_px(18), theme.TEXT_ON_FELT_SOFT,
                  align="center")
        commit = self.sat_down_commitment()
        if commit is not None:     # what the dice are bound to; the table shows it again
            draw_text(surface, self.t("lobby.commitment", fingerprint=short_hex(commit)),
                      L.rect((140, 200, 1000, 24)), L.font_px(16), theme.GOLD, align="center")
        if self.relay_key is not None:
            seen = self.relay_key.seen
            draw_text(surface, relay_key_line(self.t, self.relay_key),
                      L.rect((140, 590, 1000, 26)), L.font_px(15),
                      theme.TEXT_ON_FELT_SOFT if seen in ("new", "known") else theme.GOLD,
                      align="center")
        seats = self.seats_view()
        if len(seats) == 2:
            tbl = L.rect((340, 220, 600, 318))     # clear of the waiting line below
            surface.blit(sprites.wood(tbl.size, L.px(90)), tbl)
            spots = [(390, 324), (650, 324)]
        else:
            spots = [(130 + i * (1020 / len(seats)), 290) for i in range(len(seats))]
        w = 240 if len(seats) == 2 else min(240, 1020 / len(seats) - 20)
        for i, (label, kind, connected) in enumerate(seats):
            x, y = spots[i]
            r = L.rect((x, y, w, 110))
            shadowed_panel(surface, r, theme.PAPER, L.px(14), L.px(4))
            draw_text(surface, self.t("lobby.seat", n=i + 1), L.rect((x + 12, y + 8, w - 24, 26)), L.font_px(16),
                      theme.INK_SOFT)
            you = f" {self.t('lobby.you')}" if i == self.conn.seat else ""
            draw_text(surface, label + you, L.rect((x + 12, y + 36, w - 24, 34)), L.font_px(22), theme.INK, bold=True)
            if kind == "bot":
                p = next((p for p in t.get("players", []) if p.get("seat") == i), None)
                policy = p.get("policy") if p is not None else self.planned_policy(
                    i - len(t.get("players", [])))
                tag, status = self.bot_tag(policy), "bot"
            else:
                tag = self.t("lobby.host") if i == t.get("host", 0) else self.t("lobby.human")
                status = "connected" if connected else "disconnected"
            marks.status_mark(surface, status, L.point(x + 22, y + 88), L.px(6))
            draw_text(surface, tag, L.rect((x + 34, y + 74, w - 46, 28)), L.font_px(17), theme.INK_SOFT)
        if not self.is_host():     # above the relay key's line (590), never on it
            draw_text(surface, self.t("lobby.waiting_host"), L.rect((140, 548, 1000, 34)), L.font_px(20),
                      theme.TEXT_ON_FELT_SOFT, align="center")
        self.draw_widgets(surface)
