"""The daily challenge on a relay, as remembered in the profile's settings: the last relay
it was played on (``daily_relay_last``) and the games whose log is still to be fetched once
their date has closed (``daily_relay_pending``).  No pygame."""
from __future__ import annotations

from typing import Any

from bonanza.core.settings import DEFAULT_PORT

from .relay_address import DEFAULT_HOST
from .store.game_record import utc_now_iso

LAST_KEY = "daily_relay_last"
PENDING_KEY = "daily_relay_pending"


def _settings(app: Any) -> dict:
    store = app.profile.store
    if store is None:
        return {}
    try:
        return dict(store.profile().get("settings") or {})
    except Exception:
        return {}


def _save(app: Any, key: str, value: Any) -> None:
    store = app.profile.store
    if store is None:
        return
    try:
        store.save_profile(settings={key: value})
    except Exception:
        pass


def last_relay(app: Any) -> tuple[str, int]:
    """The last relay the daily was played on, else 127.0.0.1 on the default port."""
    last = _settings(app).get(LAST_KEY)
    if isinstance(last, dict):
        host, port = last.get("host"), last.get("port")
        if isinstance(host, str) and host and isinstance(port, int) and 0 < port < 65536:
            return host, port
    return DEFAULT_HOST, DEFAULT_PORT


def remember_relay(app: Any, host: str, port: int) -> None:
    """The relay a daily game just started on: the daily screen offers it next time."""
    _save(app, LAST_KEY, {"host": host, "port": port})


def pending_logs(app: Any) -> list[dict]:
    """Relay dailies played here whose log is not in the store yet."""
    items = _settings(app).get(PENDING_KEY)
    return [p for p in items if isinstance(p, dict)] if isinstance(items, list) else []


def _set_pending(app: Any, items: list[dict]) -> None:
    _save(app, PENDING_KEY, items)


def _game(p: dict) -> tuple:
    """What names one pending game (whenever it was noted)."""
    return (p.get("host"), p.get("port"), p.get("date"), p.get("name"))


def add_pending(app: Any, host: str, port: int, date: str, name: str,
                played_at: str | None = None) -> None:
    """A relay daily just started here; ``played_at`` (ISO, UTC) is when, so the game is
    recorded as played then, not when its log is fetched days later."""
    entry: dict = {"host": host, "port": port, "date": date, "name": name}
    old = [p for p in pending_logs(app) if _game(p) == _game(entry)]
    when = played_at or (old[0].get("played_at") if old else None) or utc_now_iso()
    if isinstance(when, str):
        entry["played_at"] = when
    _set_pending(app, [p for p in pending_logs(app) if _game(p) != _game(entry)] + [entry])


def played_at(app: Any, host: str, port: int, date: str, name: str) -> str | None:
    """When the pending game was played (as noted at its start), if known."""
    key = (host, port, date, name)
    for p in pending_logs(app):
        if _game(p) == key and isinstance(p.get("played_at"), str):
            return p["played_at"]
    return None


def remove_pending(app: Any, host: str, port: int, date: str, name: str) -> None:
    key = (host, port, date, name)
    _set_pending(app, [p for p in pending_logs(app) if _game(p) != key])
