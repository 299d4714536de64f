"""The player's profile and settings as the client sees them (backed by client.store)."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bonanza.core.settings import BOT_SPEEDS, DEFAULT_BOT_SPEED

from . import theme
from .store import DEFAULT_NAME

if TYPE_CHECKING:
    from bonanza.core.match import Match
    from bonanza.core.signing import Signer

    from .store import GameRecord, Notice, Store

DEFAULT_SETTINGS: dict[str, Any] = {   # JSON values of several kinds, one per key
    "animation": "normal",      # instant | off | fast | normal
    "volume": 70,               # percent
    "muted": False,
    "window_size": [1280, 720],  # (before the interface size) read once to set ui_scale
    "ui_scale": 0,              # text's size, percent of the design's (theme.UI_SCALES); 0 = the window's
    "palette": "standard",      # theme.PALETTES
    "fullscreen": False,
    "show_hints": True,
    "show_splits": False,       # the splits panel during a local run (Settings, or S in the game)
    "bot_speed": "normal",      # core.settings.BOT_SPEEDS: how long a watched bot waits per move
    "last_host": {},            # the host form as last opened: seats, turn, ruleset, bots
    "last_join": {},            # the join form as last sent: address, port, code
    "last_ranked": {},          # the relay of the last ranked run: address, port
    "last_pass_play": {},       # the pass-and-play form as last started: seats, names, rules, clock
    "pass_screen": True,        # pass and play: "Pass to <name>" between two people's turns
    "tables": {},               # running table games by code: host, port, resume token
    "relays": {},               # (before keys were pinned by key) "address:port": fingerprint
    "relay_keys": {},           # relay keys pinned by key (hex): the "address:port"s met at
    "relay_keys_met": [],       # every relay key (hex) met in a lobby or trusted on the board
    "run_attempts": {},         # runs started per local category (client.categories), resets too
    "guided_done": False,       # the guided first game was played or skipped: not offered again
}
# "off" is reduce motion; "instant" (the speedrun setting) is the same and drops the roll guard
ANIMATION_SECONDS = {"instant": 0.0, "off": 0.0, "fast": 0.18, "normal": 0.45}
LIFT_SECONDS = {"fast": 0.08, "normal": 0.12}     # a held die rising and settling


class Profile:
    def __init__(self, data_dir: str | os.PathLike[str] | None = None) -> None:
        # store Notices, and plain (i18n key, params) tuples this class adds itself
        self.notices: list[Notice | tuple[str, dict[str, Any]]] = []
        # callable(key, params): set by the app to show a toast
        self.notify: Callable[..., None] | None = None
        self.store: Store | None = None
        p: dict[str, Any]
        try:
            from .store import open_store
            self.store, notices = open_store(data_dir)
            self.notices.extend(notices)
            p = self.store.profile()
        except Exception as e:  # the game starts whatever happens
            self.notices.append(("error.generic", {"detail": str(e)}))
            p = {"name": DEFAULT_NAME, "language": None, "settings": {}}
        self._name: str = p.get("name") or DEFAULT_NAME
        self.language: str | None = p.get("language")
        self.settings: dict[str, Any] = dict(DEFAULT_SETTINGS)
        for k, v in (p.get("settings") or {}).items():
            if k in DEFAULT_SETTINGS and type(v) is type(DEFAULT_SETTINGS[k]):
                self.settings[k] = v
        if self.settings["animation"] not in ANIMATION_SECONDS:
            self.settings["animation"] = "normal"
        if tuple(self.settings["window_size"]) not in theme.WINDOW_SIZES:
            self.settings["window_size"] = [1280, 720]
        if "ui_scale" not in (p.get("settings") or {}) and self.settings["window_size"] != [1280, 720]:
            # a window size chosen before the interface size: the same window, as a scale
            self.settings["ui_scale"] = self.settings["window_size"][0] * 100 // theme.DESIGN_W
        if self.settings["ui_scale"] not in (0, *theme.UI_SCALES):
            self.settings["ui_scale"] = 0
        if self.settings["palette"] not in theme.PALETTES:
            self.settings["palette"] = "standard"
        if self.settings["bot_speed"] not in BOT_SPEEDS:
            self.settings["bot_speed"] = DEFAULT_BOT_SPEED

    def _relay_pins(self) -> dict[str, list[str]]:
        pins = self.settings.get("relay_keys") or {}
        return {k: [w for w in v if isinstance(w, str)] for k, v in pins.items()
                if isinstance(k, str) and isinstance(v, list)}

    def check_relay_key(self, address: str, port: int, key: bytes | None) -> tuple[str, str | None]:
        """What a relay's key is to this player, and the fingerprint pinned before when it
        changed.  Keys are pinned by key, with the addresses they were met at:
        "known" (met before, wherever: the address is added), "new" (never met, and this
        address had no key: pinned now), "changed" (this address was pinned to another
        key — like a known host in ssh it may not be the same relay; nothing changes until
        the player accepts, ``pin_relay_key``), "unknown" (the relay gave no key)."""
        from bonanza.core.signing import fingerprint
        if not isinstance(key, bytes):
            return "unknown", None
        where = f"{address}:{port}"
        pins = self._relay_pins()
        if key.hex() in pins:
            if where not in pins[key.hex()]:
                self.pin_relay_key(address, port, key)
            return "known", None
        for other, places in pins.items():
            if where in places:
                try:
                    return "changed", fingerprint(bytes.fromhex(other))
                except ValueError:
                    continue
        legacy = (self.settings.get("relays") or {}).get(where)
        if isinstance(legacy, str) and legacy != fingerprint(key):
            return "changed", legacy
        self.pin_relay_key(address, port, key)
        return ("known" if legacy is not None else "new"), None

    def pin_relay_key(self, address: str, port: int, key: bytes) -> None:
        """``key`` is the relay at this address from now on (a first visit, or a changed
        key the player accepted): the address leaves any other key's pin."""
        where = f"{address}:{port}"
        pins = {k: [w for w in v if w != where] for k, v in self._relay_pins().items()}
        pins[key.hex()] = pins.get(key.hex(), []) + [where]
        self.settings["relay_keys"] = {k: v for k, v in pins.items() if v}
        self._remember_met(key)
        legacy = dict(self.settings.get("relays") or {})
        if legacy.pop(where, None) is not None:
            self.settings["relays"] = legacy
        self.save()

    def _remember_met(self, key: bytes) -> None:
        met = [k for k in self.settings.get("relay_keys_met") or [] if isinstance(k, str)]
        if key.hex() not in met:
            self.settings["relay_keys_met"] = met + [key.hex()]

    def relay_key_met(self, key: bytes) -> bool:
        """Has this player met this relay key in a lobby (pinned now, or before a changed
        key replaced it at its address), or trusted it on the Records board?"""
        return (key.hex() in self._relay_pins()
                or key.hex() in (self.settings.get("relay_keys_met") or []))

    def trust_relay_key(self, key: bytes) -> None:
        """The player vouches for a key never met in a lobby (Records, Server board)."""
        self._remember_met(key)
        self.save()

    def seat_signer(self) -> Signer:
        """This player's seat key (``seat.key`` beside the store): every request at a
        relay's table is signed with it, so a finished log proves which moves were
        theirs.  Without a writable folder the key lasts for this run only."""
        signer: Signer | None = getattr(self, "_signer", None)
        if signer is None:
            import secrets

            from bonanza.core.signing import KEY_BYTES, Signer
            directory = getattr(self.store, "directory", None)
            try:
                if not directory:
                    raise OSError("no data folder")
                from bonanza.relay.keys import load_or_create
                signer = load_or_create(os.path.join(directory, "seat.key"))
            except Exception:   # a table still plays; its log names a key of this run
                signer = Signer(secrets.token_bytes(KEY_BYTES))
            self._signer = signer
        return signer

    @property
    def name(self) -> str:
        """The player's name; until they choose one, "Player" in their language."""
        if self._name == DEFAULT_NAME:
            from . import lang
            return lang.t("game.player")
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        self._name = value

    @property
    def has_name(self) -> bool:
        """False until the player has chosen a name (a table needs one: two fresh
        installs would otherwise both sit down as "Player")."""
        return self._name != DEFAULT_NAME

    def running_tables(self) -> dict[str, dict]:
        """Table games this player holds a seat at (a rejoin needs host, port and token)."""
        out = {}
        for code, t in self.settings["tables"].items():
            if (isinstance(t, dict) and isinstance(t.get("host"), str) and isinstance(t.get("token"), str)
                    and type(t.get("port")) is int):
                out[code] = t
        return out

    def remember_table(self, code: str, host: str, port: int, token: str) -> None:
        tables = dict(self.settings["tables"])
        if tables.get(code, {}).get("token") == token:
            return
        tables[code] = {"host": host, "port": port, "token": token}
        self.settings["tables"] = tables
        self.save()

    def forget_table(self, code: str | None) -> None:
        if code in self.settings["tables"]:
            tables = dict(self.settings["tables"])
            del tables[code]
            self.settings["tables"] = tables
            self.save()

    def remember(self, key: str, value: dict, name: str | None = None) -> None:
        """Keep a form's values (and the name typed in it) for the next time."""
        self.settings[key] = dict(value)
        if name:
            self._name = name
        self.save()

    def notice_texts(self, t: Callable[..., str]) -> list[str]:
        """Every start-up notice as text in the player's language.

        A store ``Notice`` is a 2-tuple ``(code, params)`` too, but its ``code`` is not a
        catalogue key: ``.key`` is.  Only a plain ``(key, params)`` tuple (what this class
        appends itself) is taken as it is."""
        out = []
        for n in self.notices:
            key = getattr(n, "key", None)
            if isinstance(key, str) and key:
                params = dict(getattr(n, "params", None) or {})
            elif isinstance(n, tuple) and len(n) == 2 and isinstance(n[0], str) and isinstance(n[1], dict):
                key, params = n[0], dict(n[1])
            else:
                key, params = "error.generic", {}
            params.setdefault("detail", getattr(n, "message", "") or "")
            text = t(key, **params)
            if text == key:  # a key the catalogues lack: never show a raw code
                text = t("error.generic", detail=params["detail"] or key)
            out.append(text)
        return out

    def save(self) -> str | None:
        """Persist; returns an error text key on failure (never raises)."""
        if self.store is None:
            return None
        from .store import StoreError
        try:
            self.store.save_profile(name=self._name, language=self.language or "",
                                    settings=dict(self.settings))
        except StoreError as e:
            return "profile.disk_full" if e.full else "error.data_not_writable"
        except Exception:
            return "error.data_not_writable"
        return None

    # ---------------------------------------------------------- recording games
    def problem(self, key: str, **params: Any) -> None:
        """A problem the player must hear about: ``notify(key, params)`` (the app shows a
        toast in the player's language) or, with no listener yet, a start-up notice."""
        if self.notify is not None:
            self.notify(key, params)
        else:
            self.notices.append((key, params))

    def _record(self, do: Callable[[], GameRecord]) -> GameRecord | None:
        """Run a store write; a refusal or a disk problem becomes a toast, never silence."""
        from .store import DailyAlreadyPlayed, StoreError
        try:
            rec = do()
            # the game is kept either way; a file that could not be written is told once
            notice = (self.store.take_file_notice()
                      if self.store is not None and rec is not None and rec.file is None else None)
            if notice is not None:
                self.problem(notice.key, **notice.params)
            return rec
        except DailyAlreadyPlayed:
            self.problem("record.daily_already_recorded")
        except StoreError:
            self.problem("record.not_saved")
        except ValueError:
            self.problem("record.not_verified")
        except Exception as e:  # never crash the end of a game
            self.problem("error.generic", detail=str(e))
        return None

    def record_game(self, log_bytes: bytes, played_at: str | None = None) -> GameRecord | None:
        """Store a finished game log (played at ``played_at``, ISO UTC; default now); the
        GameRecord, or None (and a toast) on a problem."""
        store = self.store
        if store is None:
            return None
        return self._record(lambda: store.record_game(log_bytes, played_at))

    def finish_and_record(self, match: Match, duration_ms: int | None,
                          meta: dict | None = None) -> GameRecord | None:
        """Close a finished local match's log with its run time (end meta ``duration_ms``,
        beside ``meta``) and record it through ``client.store.records.finish_and_record``."""
        store = self.store
        if store is None:
            match.finish({**(meta or {}),
                          **({} if duration_ms is None else {"duration_ms": max(0, int(duration_ms))})})
            return None
        from .store.records import finish_and_record
        return self._record(lambda: finish_and_record(store, match, duration_ms, meta=meta))

    def attempts(self, category: str) -> int:
        """How many runs of ``category`` were started (a first roll), reset ones included."""
        n = (self.settings.get("run_attempts") or {}).get(category, 0)
        return n if type(n) is int and n >= 0 else 0

    def count_attempt(self, category: str) -> int:
        """A run of ``category`` started: one attempt more (kept with the settings, never in
        the history); returns the new count."""
        counts = {k: v for k, v in (self.settings.get("run_attempts") or {}).items()
                  if isinstance(k, str) and type(v) is int}
        counts[category] = self.attempts(category) + 1
        self.settings["run_attempts"] = counts
        self.save()
        return counts[category]

    def daily_score(self, date_iso: str) -> int | None:
        if self.store is None:
            return None
        try:
            return self.store.daily_score(date_iso)
        except Exception:
            return None

    def best(self, ruleset: str, mode: str = "solo", category: str | None = None,
             seed_text: str | None = None) -> int | None:
        if self.store is None:
            return None
        try:
            return self.store.best(ruleset, mode, category, seed_text)
        except Exception:
            return None

    def bot_delay(self) -> float:
        """Seconds a bot waits before each move while a person watches (Settings: bot speed)."""
        return BOT_SPEEDS.get(self.settings["bot_speed"], BOT_SPEEDS[DEFAULT_BOT_SPEED])

    @property
    def animation_seconds(self) -> float:
        return ANIMATION_SECONDS.get(self.settings["animation"], 0.45)

    @property
    def lift_seconds(self) -> float:
        return LIFT_SECONDS.get(self.settings["animation"], 0.0)

    @property
    def roll_guard(self) -> bool:
        """Whether a roll waits until the last dice were seen (a double press costs one roll);
        a speedrunner on "instant" asked for every press to count."""
        return self.settings["animation"] != "instant"
