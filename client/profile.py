"""The player's profile and settings as the client sees them (backed by client.store)."""
from __future__ import annotations

from . import theme

DEFAULT_SETTINGS = {
    "animation": "normal",      # off | fast | normal
    "volume": 70,               # percent
    "muted": False,
    "window_size": [1280, 720],
    "fullscreen": False,
    "show_hints": True,
}
ANIMATION_SECONDS = {"off": 0.0, "fast": 0.18, "normal": 0.45}


class Profile:
    def __init__(self, data_dir=None):
        self.notices: list = []
        self.store = None
        try:
            from .store import open_store
            self.store, self.notices = open_store(data_dir)
            p = self.store.profile()
        except Exception as e:  # the game starts whatever happens
            self.notices.append(("error.generic", {"detail": str(e)}))
            p = {"name": "Player", "language": None, "settings": {}}
        self.name: str = p.get("name") or "Player"
        self.language: str | None = p.get("language")
        self.settings = dict(DEFAULT_SETTINGS)
        for k, v in (p.get("settings") or {}).items():
            if k in DEFAULT_SETTINGS and type(v) is type(DEFAULT_SETTINGS[k]):
                self.settings[k] = v
        if self.settings["animation"] not in ANIMATION_SECONDS:
            self.settings["animation"] = "normal"
        if tuple(self.settings["window_size"]) not in theme.WINDOW_SIZES:
            self.settings["window_size"] = [1280, 720]

    def notice_texts(self, t) -> list[str]:
        out = []
        for n in self.notices:
            if isinstance(n, tuple) and len(n) == 2 and isinstance(n[0], str) and isinstance(n[1], dict):
                key, params = n
            else:
                key, params = getattr(n, "key", "error.generic"), dict(getattr(n, "params", {}))
            params.setdefault("detail", getattr(n, "message", ""))
            out.append(t(key, **params))
        return out

    def save(self) -> str | None:
        """Persist; returns an error text key on failure (never raises)."""
        if self.store is None:
            return None
        try:
            self.store.save_profile(name=self.name, language=self.language or "",
                                    settings=dict(self.settings))
        except Exception:
            return "error.data_not_writable"
        return None

    def record_game(self, log_bytes: bytes):
        if self.store is None:
            return None
        try:
            return self.store.record_game(log_bytes)
        except Exception:
            return None

    def best(self, ruleset: str, mode: str = "solo") -> int | None:
        if self.store is None:
            return None
        try:
            return self.store.best(ruleset, mode)
        except Exception:
            return None

    @property
    def animation_seconds(self) -> float:
        return ANIMATION_SECONDS.get(self.settings["animation"], 0.45)
