"""Names as people read them: what a name may hold, and when two names are one person.

A name is shown in windows, terminals and logs, so it may not hold anything that is not
drawn as itself: control characters (a newline or an escape sequence rewrites what a
terminal shows), bidirectional overrides (they reorder the text around them) and
default-ignorable characters (drawn as nothing, so "Sly" and "Sly" + U+034F look alike).

Two names belong to one person when their keys are equal: the UTS #39 skeleton (Unicode's
``confusables.txt``, shipped in ``core/data``), with case folded and the letters that
read as one stroke (l, I, i, 1, |) made one, so "SIy", "Sɩy", "Аna" (Cyrillic А) and
"ANA" cannot pass for another player on a board that counts one attempt a person.  The
skeleton already reads "m" as "rn"; "w" is read as "vv" the same way.

``KEY_VERSION`` changes whenever ``name_key`` does: the relay keeps rows keyed by it and
recomputes them when a database made with another version is opened.
"""
from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from importlib import resources

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn as nothing.
_DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Explicit bidirectional formatting (overrides, embeddings, isolates) reorders what follows.
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

KEY_VERSION = 1         # 0: the relay's own hand-made subset, before this module

# After the skeleton and case folding these still read as one vertical stroke.
_ONE_STROKE = str.maketrans({"i": "l", "1": "l", "|": "l", "ı": "l"})


def is_default_ignorable(ch: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _DEFAULT_IGNORABLE)


def unprintable(text: str) -> str | None:
    """The first character of ``text`` that is not drawn as itself (a control, a
    bidirectional override, a default-ignorable or an unassigned code point), or None."""
    for ch in text:
        if (ch in _BIDI_CONTROLS or is_default_ignorable(ch)
                or unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")):
            return ch
    return None


def escaped(text: str) -> str:
    """``text`` with every character that is not drawn as itself written as ``\\u....``:
    what a terminal may print of a name read from a file nobody vouches for."""
    return "".join(f"\\u{ord(ch):04x}" if unprintable(ch) else ch for ch in text)


@cache
def _prototypes() -> dict[str, str]:
    table: dict[str, str] = {}
    data = resources.files("bonanza.core").joinpath("data/confusables.txt").read_text("utf-8-sig")
    for line in data.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2 or not fields[0].strip():
            continue
        source = chr(int(fields[0].strip(), 16))
        table[source] = "".join(chr(int(cp, 16)) for cp in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """UTS #39 ``skeleton``: NFD, default-ignorables removed, each character replaced by
    its prototype, NFD again."""
    protos = _prototypes()
    s = unicodedata.normalize("NFD", text)
    s = "".join(protos.get(ch, ch) for ch in s if not is_default_ignorable(ch))
    return unicodedata.normalize("NFD", s)


@lru_cache(maxsize=4096)     # every join and rename compares a table's names again
def name_key(name: str) -> str:
    """The key a person is known by: equal keys are one person.  White space and case
    do not count; look-alike letters from any script map to one."""
    s = skeleton(unicodedata.normalize("NFKC", name)).casefold()
    s = skeleton(s).casefold().translate(_ONE_STROKE).replace("w", "vv")
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return "".join(s.split())
