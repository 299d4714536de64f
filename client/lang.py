"""The client's door to translations.

Everything a player reads goes through ``t``/``tn`` here.  They delegate to
``client.i18n`` (owned by the i18n work); until that module is importable a
small built-in reader of ``lang/*.po`` stands in so the client stays usable.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

LANG_DIR = Path(__file__).resolve().parent.parent / "lang"
FALLBACK_LANGUAGES = ("en", "pt-PT", "pt-BR", "es", "fr", "nl")

try:  # the real translator
    from . import i18n as _i18n  # type: ignore
except ImportError:  # pragma: no cover - only before client/i18n.py lands
    _i18n = None

_catalogs: dict[str, dict] = {}
_current = "en"


def _parse_po(path: Path) -> dict:
    out: dict = {}
    if not path.exists():
        return out
    msgid = plural = None
    strs: dict[int, str] = {}
    field = None

    def flush():
        if msgid:
            out[msgid] = strs[0] if plural is None else [strs[k] for k in sorted(strs)]

    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line or line.startswith("#"):
            if field is not None and not line:
                flush()
                msgid, plural, strs, field = None, None, {}, None
            continue
        m = re.match(r'(msgid|msgid_plural|msgstr(?:\[(\d+)\])?)\s+(".*")$', line)
        if m:
            kind, idx, lit = m.group(1), m.group(2), ast.literal_eval(m.group(3))
            if kind == "msgid":
                if field is not None:
                    flush()
                    plural, strs = None, {}
                msgid, field = lit, ("id",)
            elif kind == "msgid_plural":
                plural, field = lit, ("pl",)
            else:
                n = int(idx or 0)
                strs[n] = lit
                field = ("str", n)
        elif line.startswith('"') and field:
            lit = ast.literal_eval(line)
            if field[0] == "id":
                msgid += lit
            elif field[0] == "str":
                strs[field[1]] += lit
    flush()
    return out


def _catalog(code: str) -> dict:
    if code not in _catalogs:
        _catalogs[code] = _parse_po(LANG_DIR / f"{code}.po")
    return _catalogs[code]


def _fmt(text: str, kw: dict) -> str:
    try:
        return text.format(**kw)
    except (KeyError, IndexError, ValueError):
        return text


def t(key: str, **kw) -> str:
    if _i18n is not None:
        return _i18n.t(key, **kw)
    text = _catalog(_current).get(key) or _catalog("en").get(key) or key
    if isinstance(text, list):
        text = text[-1]
    return _fmt(text, kw)


def tn(key: str, n: int, **kw) -> str:
    if _i18n is not None:
        return _i18n.tn(key, n, **kw)
    forms = _catalog(_current).get(key) or _catalog("en").get(key)
    if not forms:
        return key
    if isinstance(forms, str):
        return _fmt(forms, dict(kw, n=n))
    if _current == "fr" or _current.startswith("pt"):
        idx = 0 if n in (0, 1) else 1
    else:
        idx = 0 if n == 1 else 1
    return _fmt(forms[min(idx, len(forms) - 1)], dict(kw, n=n))


def languages() -> tuple[str, ...]:
    if _i18n is not None:
        return tuple(_i18n.LANGUAGES)
    return FALLBACK_LANGUAGES


def language_name(code: str) -> str:
    if _i18n is not None:
        return _i18n.language_name(code)
    return t(f"language.{code}")


def set_language(code: str | None) -> str:
    """Switch language (``None``/"auto" = system choice); returns the code in use."""
    global _current
    if _i18n is not None:
        chosen = _i18n.choose_language(code) if hasattr(_i18n, "choose_language") else (code or "en")
        _i18n.set_language(chosen)
        _current = chosen
        return chosen
    _current = code if code in FALLBACK_LANGUAGES else "en"
    return _current


def current() -> str:
    return _current


def rules_text() -> str:
    if _i18n is not None and hasattr(_i18n, "rules_text"):
        return _i18n.rules_text()
    for name in (f"{_current}.md", f"{_current}.txt", "en.md", "en.txt"):
        p = LANG_DIR / "rules" / name
        if p.exists():
            return p.read_text(encoding="utf-8")
    return ""
