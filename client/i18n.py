"""Six-language localisation layer for the Bonanza client.

Pure Python (no pygame).  Catalogues are gettext ``.po`` files in the
``lang`` package with *symbolic* msgids (``menu.solo``); ``en.po`` holds the
English text.  Placeholders use ``str.format`` syntax (``{name}``).

Typical use::

    from bonanza.client import i18n
    i18n.set_language(i18n.choose_language(settings.language))
    label = i18n.t("menu.solo")
    left = i18n.tn("game.rolls_left", 2)          # "2 rolls left"

Lookups happen at draw time, so :func:`set_language` switches the whole UI
live.  A key missing in the current language falls back to English, then to
the key itself.  See docs/i18n.md.
"""
from __future__ import annotations

import gettext
import locale
import os
import string
import sys
import threading
from datetime import date as _date
from datetime import datetime as _datetime
from pathlib import Path
from typing import Callable, Iterable, Mapping

__all__ = [
    "LANGUAGES", "DEFAULT_LANGUAGE", "Translator", "language_name", "normalize_language",
    "choose_language", "system_locales", "get_translator", "set_language", "current_language",
    "t", "tn", "rules_text", "all_keys", "plural_keys", "placeholders", "plural_index",
    "lang_dir", "catalogue_path", "rules_path", "read_po", "format_decimal", "format_date",
    "format_datetime", "format_duration",
]

LANGUAGES: tuple[str, ...] = ("en", "pt-PT", "pt-BR", "es", "fr", "nl")
DEFAULT_LANGUAGE = "en"

_NAMES = {
    "en": "English",
    "pt-PT": "Português (Portugal)",
    "pt-BR": "Português (Brasil)",
    "es": "Español",
    "fr": "Français",
    "nl": "Nederlands",
}


# --------------------------------------------------------------------------- files

def lang_dir() -> Path:
    """Directory holding the ``.po`` catalogues (the ``lang`` package)."""
    try:
        from bonanza import lang  # shipped with the .po files

        return Path(lang.__file__).resolve().parent
    except Exception:  # pragma: no cover - source checkout without the package on sys.path
        return Path(__file__).resolve().parent.parent / "lang"


def catalogue_path(code: str) -> Path:
    return lang_dir() / f"{code}.po"


def rules_path(code: str) -> Path:
    return lang_dir() / "rules" / f"{code}.md"


# --------------------------------------------------------------------------- names / codes

def language_name(code: str) -> str:
    """The language's own name for itself (``"fr"`` -> ``"Français"``)."""
    norm = normalize_language(code)
    if norm is None:
        raise ValueError(f"unsupported language: {code!r}")
    return _NAMES[norm]


def normalize_language(value: str | None) -> str | None:
    """Map a locale string or language tag to one of :data:`LANGUAGES`, or None.

    Accepts POSIX locales (``pt_BR.UTF-8``, ``fr_CA@euro``), BCP 47 tags
    (``pt-BR``, ``nl-BE``) and Windows-style names (``Portuguese_Brazil``).
    ``C``/``POSIX``, empty strings and unsupported languages give None.
    """
    if not value:
        return None
    s = str(value).strip()
    s = s.split(".", 1)[0].split("@", 1)[0].strip()  # drop encoding and modifier
    if not s or s.upper() in ("C", "POSIX"):
        return None
    parts = s.replace("-", "_").split("_")
    lang = parts[0].lower()
    region = parts[1].lower() if len(parts) > 1 else ""
    # Windows locale names as returned by locale.getlocale() there
    lang = {
        "english": "en", "portuguese": "pt", "spanish": "es", "french": "fr", "dutch": "nl",
    }.get(lang, lang)
    if lang == "pt":
        return "pt-BR" if region in ("br", "brazil") else "pt-PT"
    if lang in ("en", "es", "fr", "nl"):
        return lang
    return None


# --------------------------------------------------------------------------- choosing

def system_locales() -> list[str]:
    """Best-effort list of the operating system's preferred locales (most preferred first)."""
    found: list[str] = []
    if sys.platform == "win32":  # pragma: no cover - platform specific
        try:
            import ctypes

            buf = ctypes.create_unicode_buffer(85)
            if ctypes.windll.kernel32.GetUserDefaultLocaleName(buf, len(buf)):
                found.append(buf.value)
        except Exception:
            pass
    elif sys.platform == "darwin":  # pragma: no cover - platform specific
        try:
            import plistlib

            plist = Path.home() / "Library" / "Preferences" / ".GlobalPreferences.plist"
            with open(plist, "rb") as fh:
                data = plistlib.load(fh)
            found.extend(str(x) for x in data.get("AppleLanguages", []) or [])
            if data.get("AppleLocale"):
                found.append(str(data["AppleLocale"]))
        except Exception:
            pass
    try:
        loc = locale.getlocale(locale.LC_MESSAGES if hasattr(locale, "LC_MESSAGES") else locale.LC_CTYPE)[0]
        if loc:
            found.append(loc)
    except Exception:
        pass
    try:
        loc = locale.getlocale()[0]
        if loc:
            found.append(loc)
    except Exception:
        pass
    return found


def choose_language(setting: str | None = None, environ: Mapping[str, str] | None = None,
                    system_locales: Callable[[], Iterable[str]] | None = None) -> str:
    """Pick the UI language.

    Order: the player's ``setting``; ``BONANZA_LANG``; ``LANGUAGE`` (a
    colon-separated list, each entry tried in order); ``LC_ALL``;
    ``LC_MESSAGES``; ``LANG``; the OS preferred locales; English.  The first
    value that maps to a supported language wins; ``C``/``POSIX``, empty and
    unsupported values are skipped.  ``setting`` values ``"auto"``/``"system"``
    mean "no setting".
    """
    env = os.environ if environ is None else environ
    candidates: list[str | None] = []
    if setting and str(setting).strip().lower() not in ("auto", "system", "default"):
        candidates.append(setting)
    candidates.append(env.get("BONANZA_LANG"))
    candidates.extend((env.get("LANGUAGE") or "").split(":"))
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        candidates.append(env.get(var))
    for value in candidates:
        code = normalize_language(value)
        if code:
            return code
    getter = _default_system_locales if system_locales is None else system_locales
    try:
        for value in getter() or ():
            code = normalize_language(value)
            if code:
                return code
    except Exception:
        pass
    return DEFAULT_LANGUAGE


_default_system_locales = system_locales


# --------------------------------------------------------------------------- catalogues

class _Catalogue:
    __slots__ = ("code", "messages", "plurals", "nplurals", "plural_expr", "_plural_fn")

    def __init__(self, code: str, messages: dict, plurals: dict, nplurals: int, plural_expr: str):
        self.code = code
        self.messages = messages      # key -> str
        self.plurals = plurals        # key -> tuple[str, ...]
        self.nplurals = nplurals
        self.plural_expr = plural_expr
        self._plural_fn = _plural_function(plural_expr)

    def plural_index(self, n: int) -> int:
        idx = int(self._plural_fn(abs(int(n))))
        return min(max(idx, 0), self.nplurals - 1)


def _plural_function(expr: str) -> Callable[[int], int]:
    """Compile a Plural-Forms C expression (gettext.c2py, with a fallback for the two rules used)."""
    c2py = getattr(gettext, "c2py", None)
    if c2py is not None:
        try:
            return c2py(expr)
        except (ValueError, SyntaxError, RecursionError):
            pass
    compact = expr.replace(" ", "")
    if compact in ("(n>1)", "n>1"):
        return lambda n: int(n > 1)
    return lambda n: int(n != 1)


_CACHE: dict[str, _Catalogue] = {}
_CACHE_LOCK = threading.Lock()


def _parse_plural_forms(header: str) -> tuple[int, str]:
    nplurals, expr = 2, "(n != 1)"
    for part in header.split(";"):
        name, _, value = part.partition("=")
        name, value = name.strip().lower(), value.strip()
        if name == "nplurals" and value.isdigit():
            nplurals = int(value)
        elif name == "plural" and value:
            expr = value
    return nplurals, expr


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def _unquote(text: str, where: str) -> str:
    """The content of one PO string literal ``"..."`` with its C escapes."""
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"{where}: expected a quoted string")
    body = text[1:-1]
    if "\\" not in body:      # most lines: nothing to unescape (the catalogue is read at start-up)
        return body
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_po(path: Path) -> list[tuple[str, str | None, dict[int, str]]]:
    """The entries of a gettext catalogue: (msgid, msgid_plural, {form: msgstr}).

    Reads what our catalogues use (comments, msgid, msgid_plural, msgstr,
    msgstr[n], continued strings); a line it does not understand is an error
    naming the file and line, never a silently missing text.
    """
    entries: list[tuple[str, str | None, dict[int, str]]] = []
    cur: dict | None = None
    field: tuple | None = None

    def flush() -> None:
        if cur is not None and "msgid" in cur:
            entries.append((cur["msgid"], cur.get("plural"), cur["str"]))

    with open(path, encoding="utf-8") as fh:
        for n, raw in enumerate(fh, 1):
            line = raw.strip()
            where = f"{path.name}:{n}"
            if not line or line.startswith("#"):
                continue
            if line.startswith('"'):
                if cur is None or field is None:
                    raise ValueError(f"{where}: a continued string outside an entry")
                if field[0] == "str":
                    cur["str"][field[1]] += _unquote(line, where)
                else:
                    cur[field[0]] += _unquote(line, where)
                continue
            keyword, _, rest = line.partition(" ")
            rest = rest.strip()
            if keyword == "msgid":
                flush()
                cur, field = {"msgid": _unquote(rest, where), "str": {}}, ("msgid",)
            elif cur is None:
                raise ValueError(f"{where}: {keyword} before any msgid")
            elif keyword == "msgid_plural":
                cur["plural"], field = _unquote(rest, where), ("plural",)
            elif keyword == "msgstr":
                cur["str"][0], field = _unquote(rest, where), ("str", 0)
            elif keyword.startswith("msgstr[") and keyword.endswith("]") \
                    and keyword[7:-1].isdigit():
                form = int(keyword[7:-1])
                cur["str"][form], field = _unquote(rest, where), ("str", form)
            else:
                raise ValueError(f"{where}: unknown keyword {keyword!r}")
    flush()
    return entries


def _load(code: str) -> _Catalogue:
    entries = read_po(catalogue_path(code))
    plural_header = ""
    for msgid, _plural, forms in entries:
        if msgid == "":
            for header in forms.get(0, "").splitlines():
                name, _, value = header.partition(":")
                if name.strip().lower() == "plural-forms":
                    plural_header = value.strip()
    nplurals, expr = _parse_plural_forms(plural_header)
    messages: dict[str, str] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    for msgid, plural, forms in entries:
        if not msgid:
            continue  # header
        if plural is not None:
            plurals[msgid] = tuple(forms.get(i, "") for i in range(max(forms, default=0) + 1))
        else:
            messages[msgid] = forms.get(0, "")
    return _Catalogue(code, messages, plurals, nplurals, expr)


# Decimal and grouping marks per language (CLDR), for the few figures we show with
# a decimal: ``201.5`` / ``201,5``; Spanish groups only from five digits on.
_NUMBER_MARKS = {"en": (".", ",", 4), "es": (",", ".", 5), "fr": (",", "\u202f", 4),
                 "nl": (",", ".", 4), "pt-BR": (",", ".", 4), "pt-PT": (",", "\u00a0", 4)}


def format_decimal(value: float, code: str | None = None) -> str:
    """``value`` with at most one decimal, in the language's marks (``1,234.5``)."""
    dec, group, min_digits = _NUMBER_MARKS.get(code or current_language(), _NUMBER_MARKS["en"])
    text = f"{abs(value):.1f}".rstrip("0").rstrip(".")
    whole, _, frac = text.partition(".")
    if len(whole) >= min_digits:
        parts: list[str] = []
        while len(whole) > 3:
            whole, parts = whole[:-3], [whole[-3:]] + parts
        whole = group.join([whole] + parts)
    sign = "-" if value < 0 and text != "0" else ""
    return sign + whole + (dec + frac if frac else "")


# Dates and times per language, from CLDR 45 (gregorian "long" and "short" date formats, the
# short time format and the month names), so no locale data needs to be installed: Babel's
# 36 MB were removed for two formats.  pt-PT and pt-BR write month names in lowercase.
_MONTHS = {
    "en": "January February March April May June July August September October November December",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
    "pt-BR": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    "pt-PT": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
}
_DATE_FORMATS = {  # (long, short); {d} day, {dd} two-digit day, {M}/{MM} month, {y}/{yy} year
    "en": ("{month} {d}, {y}", "{M}/{d}/{yy}"),
    "es": ("{d} de {month} de {y}", "{d}/{M}/{yy}"),
    "fr": ("{d} {month} {y}", "{dd}/{MM}/{y}"),
    "nl": ("{d} {month} {y}", "{dd}-{MM}-{y}"),
    "pt-BR": ("{d} de {month} de {y}", "{dd}/{MM}/{y}"),
    "pt-PT": ("{d} de {month} de {y}", "{dd}/{MM}/{yy}"),
}
# CLDR short time: English counts 12 hours, the others 24; the glue puts date before time.
_TIME_GLUE = {"en": "{date}, {time}", "es": "{date}, {time}", "fr": "{date} {time}",
              "nl": "{date} {time}", "pt-BR": "{date} {time}", "pt-PT": "{date}, {time}"}


def _as_date(value) -> _date:
    if isinstance(value, _datetime):
        return value.date()
    if isinstance(value, _date):
        return value
    return _date.fromisoformat(str(value).strip()[:10])


def format_date(date_iso, code: str | None = None, width: str = "long") -> str:
    """A date (ISO ``2026-12-01``, a longer ISO timestamp, or a ``date``) as the language
    writes it: long ``"1 de diciembre de 2026"`` or short ``"01/12/2026"`` for lists.
    Text that is not a date is returned as it is, so a damaged record still shows something."""
    code = code or current_language()
    try:
        day = _as_date(date_iso)
    except (TypeError, ValueError):
        return str(date_iso)
    long_fmt, short_fmt = _DATE_FORMATS.get(code, _DATE_FORMATS["en"])
    month = _MONTHS.get(code, _MONTHS["en"]).split()[day.month - 1]
    return (long_fmt if width == "long" else short_fmt).format(
        d=day.day, dd=f"{day.day:02d}", M=day.month, MM=f"{day.month:02d}", y=day.year,
        yy=f"{day.year % 100:02d}", month=month)


def format_datetime(when, code: str | None = None, local: bool = True) -> str:
    """A moment (ISO timestamp, ``Z`` allowed, or ``datetime``) as a short date and time,
    ``"12/1/26, 3:05 PM"`` / ``"01/12/2026 15:05"``; stored UTC is shown in local time."""
    code = code or current_language()
    try:
        moment = when if isinstance(when, _datetime) else \
            _datetime.fromisoformat(str(when).strip().replace("Z", "+00:00"))
    except (TypeError, ValueError):
        return str(when)
    if local and moment.tzinfo is not None:
        moment = moment.astimezone()
    if code == "en":
        clock = f"{(moment.hour + 11) % 12 + 1}:{moment.minute:02d}\u202f{'AM' if moment.hour < 12 else 'PM'}"
    else:
        clock = f"{moment.hour:02d}:{moment.minute:02d}"
    glue = _TIME_GLUE.get(code, _TIME_GLUE["en"])
    return glue.format(date=format_date(moment.date(), code, "short"), time=clock)


def format_duration(ms, code: str | None = None, decimals: int = 3) -> str:
    """A run time ``m:ss`` with ``decimals`` digits of seconds after the language's decimal
    mark (``2:15.310`` / ``2:15,310``), the same mark as the averages; None gives ``–``."""
    if ms is None:
        return "–"
    dec = _NUMBER_MARKS.get(code or current_language(), _NUMBER_MARKS["en"])[0]
    ms = max(0, int(round(ms)))
    # truncated like speedrun timers, so 59.96 s never reads "0:60.0"
    unit = 10 ** (3 - decimals)
    minutes, rest = divmod(ms, 60_000)
    seconds, frac = divmod(rest, 1000)
    text = f"{minutes}:{seconds:02d}"
    return text + (f"{dec}{frac // unit:0{decimals}d}" if decimals > 0 else "")


def _catalogue(code: str) -> _Catalogue:
    cat = _CACHE.get(code)
    if cat is None:
        with _CACHE_LOCK:
            cat = _CACHE.get(code)
            if cat is None:
                cat = _CACHE[code] = _load(code)
    return cat


def _check_code(code: str) -> str:
    norm = normalize_language(code) if code not in LANGUAGES else code
    if norm is None:
        raise ValueError(f"unsupported language: {code!r}; expected one of {LANGUAGES}")
    return norm


# --------------------------------------------------------------------------- formatting

class _Keep(dict):
    """Leaves unknown ``{placeholders}`` visible instead of raising."""

    def __missing__(self, key):
        return "{" + key + "}"


def _format(text: str, kwargs: Mapping) -> str:
    if not kwargs:
        return text
    try:
        return string.Formatter().vformat(text, (), _Keep(kwargs))
    except (ValueError, IndexError, AttributeError, TypeError, KeyError):
        return text


def placeholders(text: str) -> set[str]:
    """Names of the ``{placeholders}`` in ``text`` (``"{n} of {total}"`` -> ``{"n", "total"}``)."""
    names = set()
    for _literal, field, _spec, _conv in string.Formatter().parse(text):
        if field is not None:
            names.add(field.split(".", 1)[0].split("[", 1)[0])
    return names


# --------------------------------------------------------------------------- translator

class Translator:
    """Looks up symbolic keys in the current language, falling back to English."""

    def __init__(self, language: str = DEFAULT_LANGUAGE):
        self._language = _check_code(language)
        self._listeners: list[Callable[[str], None]] = []

    @property
    def language(self) -> str:
        return self._language

    def set_language(self, code: str) -> None:
        """Switch language immediately; the next t()/tn() call uses it."""
        code = _check_code(code)
        _catalogue(code)  # parse now so a broken catalogue fails here, not mid-frame
        changed = code != self._language
        self._language = code
        if changed:
            for callback in list(self._listeners):
                callback(code)

    def add_listener(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(code)`` after every language change (e.g. to re-layout text)."""
        self._listeners.append(callback)

    def remove_listener(self, callback: Callable[[str], None]) -> None:
        if callback in self._listeners:
            self._listeners.remove(callback)

    def language_name(self, code: str | None = None) -> str:
        return language_name(code or self._language)

    def has(self, key: str) -> bool:
        cat = _catalogue(self._language)
        return bool(cat.messages.get(key) or any(cat.plurals.get(key, ())))

    def t(self, key: str, **kwargs) -> str:
        """Translate ``key`` and fill its placeholders from ``kwargs``."""
        for code in (self._language, DEFAULT_LANGUAGE):
            cat = _catalogue(code)
            text = cat.messages.get(key)
            if not text and key in cat.plurals:  # plural key used without a count
                forms = cat.plurals[key]
                text = forms[-1] if forms else ""
            if text:
                return _format(text, kwargs)
        return key

    def tn(self, key: str, n: int, **kwargs) -> str:
        """Translate a plural key for count ``n``; ``{n}`` is filled with ``n``, grouped as
        the language groups numbers ("4,000", "4\u202f000", "4.000")."""
        kwargs.setdefault("n", format_decimal(n, self._language) if isinstance(n, int) else n)
        for code in (self._language, DEFAULT_LANGUAGE):
            cat = _catalogue(code)
            forms = cat.plurals.get(key)
            if forms:
                text = forms[cat.plural_index(n)] if len(forms) > cat.plural_index(n) else ""
                if text:
                    return _format(text, kwargs)
            elif cat.messages.get(key):  # singular key used with a count
                return _format(cat.messages[key], kwargs)
        return key

    def rules_text(self) -> str:
        """The rules page of the current language (English if missing)."""
        for code in (self._language, DEFAULT_LANGUAGE):
            try:
                text = rules_path(code).read_text(encoding="utf-8")
            except OSError:
                continue
            if text.strip():
                return text
        return ""

    __call__ = t


# --------------------------------------------------------------------------- module level

_TRANSLATOR: Translator | None = None
_TRANSLATOR_LOCK = threading.Lock()


def get_translator() -> Translator:
    """The process-wide translator, created on first use from :func:`choose_language`."""
    global _TRANSLATOR
    if _TRANSLATOR is None:
        with _TRANSLATOR_LOCK:
            if _TRANSLATOR is None:
                _TRANSLATOR = Translator(choose_language(None))
    return _TRANSLATOR


def set_language(code: str) -> None:
    get_translator().set_language(code)


def current_language() -> str:
    return get_translator().language


def t(key: str, **kwargs) -> str:
    return get_translator().t(key, **kwargs)


def tn(key: str, n: int, **kwargs) -> str:
    return get_translator().tn(key, n, **kwargs)


def rules_text() -> str:
    return get_translator().rules_text()


# --------------------------------------------------------------------------- helpers for tests/tools

def all_keys(lang: str = DEFAULT_LANGUAGE) -> set[str]:
    """Every key of a catalogue (singular and plural)."""
    cat = _catalogue(_check_code(lang))
    return set(cat.messages) | set(cat.plurals)


def plural_keys(lang: str = DEFAULT_LANGUAGE) -> set[str]:
    return set(_catalogue(_check_code(lang)).plurals)


def plural_index(lang: str, n: int) -> int:
    """Index of the plural form used for ``n`` in ``lang``."""
    return _catalogue(_check_code(lang)).plural_index(n)


def raw_messages(lang: str) -> dict[str, str | tuple[str, ...]]:
    """Untranslated-for-display view of a catalogue: key -> text or plural forms."""
    cat = _catalogue(_check_code(lang))
    out: dict[str, str | tuple[str, ...]] = dict(cat.messages)
    out.update(cat.plurals)
    return out


def plural_forms(lang: str) -> tuple[int, str]:
    """``(nplurals, plural expression)`` from the catalogue's Plural-Forms header."""
    cat = _catalogue(_check_code(lang))
    return cat.nplurals, cat.plural_expr
