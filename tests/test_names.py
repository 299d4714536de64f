"""Names: what a name may hold, and when two names are one person (core.names)."""
from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from bonanza.core.names import escaped, name_key, skeleton, unprintable

SAME_PERSON = [
    ("Sly", "Sly\u034f"),        # combining grapheme joiner: drawn as nothing
    ("Sly", "Sly\u3164"),        # Hangul filler: renders blank
    ("Sly", "SIy"),              # capital I for l
    ("Sly", "Sɩy"),              # Latin small iota
    ("ANA", "Аna"),              # Cyrillic capital A
    ("Ana", "ana"),
    ("Ana", "Ａｎａ"),             # full width
    ("Ana", "A n a"),
    ("mike", "rnike"),           # r n reads as m
    ("Ola", "0la"),
]
DIFFERENT = [("Sly", "Tim"), ("Ana", "Anna"), ("Ben", "Bert"), ("Ana", "Ina")]


def test_look_alike_names_are_one_person():
    for a, b in SAME_PERSON:
        assert name_key(a) == name_key(b), (a, b)


def test_different_names_stay_apart():
    for a, b in DIFFERENT:
        assert name_key(a) != name_key(b), (a, b)


def test_skeleton_follows_unicode_confusables():
    # vectors from UTS #39's confusables.txt (13.0): the prototype of each source
    assert skeleton("\u0410") == "A"          # CYRILLIC CAPITAL LETTER A
    assert skeleton("m") == "rn"
    assert skeleton("I") == "l" and skeleton("1") == "l"


def test_unprintable_finds_what_is_not_drawn_as_itself():
    assert unprintable("Ana Lopes") is None and unprintable("Zoë 🎲") is None
    for bad in ("a\nb", "a\x1b[2Kb", "x\u202ey", "x\u2066y", "Sly\u034f", "Sly\u3164", "a\u200bb", "\ufeff"):
        assert unprintable(bad) is not None, repr(bad)
    assert escaped("a\nb\u202e") == "a\\u000ab\\u202e"


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=30))
def test_keys_ignore_spacing_and_invisible_characters(name):
    assert name_key(name) == name_key("  ".join(name.split()) + "\u200b")
    assert name_key(name) == name_key("\u034f".join(name))


@given(st.text(alphabet="abcdefghjkmnopqrstuvwxyzABCDEFGHJKMNOPQRSTUVWXYZ", max_size=20))
def test_keys_ignore_case_of_latin_names(name):
    assert name_key(name) == name_key(name.upper()) == name_key(name.lower())


@given(st.text(max_size=30))
def test_escaped_text_is_all_printable(text):
    out = escaped(text)
    assert unprintable(out) is None
    assert all(unicodedata.category(c)[0] != "C" for c in out)
