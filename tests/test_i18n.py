"""Tests of the localisation layer (client/i18n.py, lang/*.po, lang/rules/*.md)."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bonanza.client import i18n

ROOT = Path(__file__).resolve().parent.parent
LANGS = i18n.LANGUAGES
OTHERS = [code for code in LANGS if code != "en"]
NO_SYSTEM = lambda: []  # noqa: E731 - keeps the real OS out of language-choice tests

BOXES = ("ones twos threes fours fives sixes three_kind four_kind full_house small_straight "
         "large_straight bonanza chance").split()
VERIFY_CODES = ("truncated not_a_log bad_version corrupt chain commitment dice illegal_move state_hash "
                "totals standings first_seat trailing_data missing_reveal io_error").split()
REFUSAL_CODES = ("not_your_turn no_rolls_left must_roll_first box_filled joker_forces_box game_over "
                 "unknown_box bad_hold not_seated seat_gave_up bad_sequence table_full table_not_found "
                 "already_started not_host bad_settings rate_limited bad_message version_mismatch "
                 "name_taken daily_already_played bad_move bad_dice not_started replaced "
                 "log_not_available daily_address_played daily_not_watchable daily_name_fixed").split()
REQUIRED = (
    ["app.title", "menu.solo", "menu.daily", "menu.host", "menu.join", "menu.verify", "menu.rules",
     "menu.settings", "menu.quit", "game.roll", "game.rolls_left", "game.confirm_register",
     "game.confirm_scratch", "game.advisor.best", "game.hints_on", "game.hints_off", "game.give_up",
     "game.leave", "game.upper_bonus", "game.total", "game.joker_bonus", "game.turn", "game.timer",
     "game.seed", "game.fingerprint", "game.seed_revealed", "game.new_best", "game.personal_best",
     "game.score", "game.time", "game.points", "table.clock", "table.turn_of", "table.auto_move",
     "table.gave_up", "table.left", "results.standings", "results.place", "results.shared_place",
     "results.winner", "results.play_again", "results.back_to_menu", "results.revealed_seed",
     "results.verdict", "verify.open_file", "verify.drop_here", "verify.path", "verify.step_forward",
     "verify.step_back", "verify.move_n", "verify.ok", "settings.language", "settings.player_name",
     "settings.animation", "settings.animation.off", "settings.animation.normal",
     "settings.animation.fast", "settings.volume", "settings.mute", "settings.window_size",
     "settings.fullscreen", "settings.show_hints", "settings.back", "settings.saved", "rules.title",
     "daily.explain", "daily.one_attempt", "daily.already_played", "daily.leaderboard",
     "stats.games_played", "stats.average", "stats.best", "stats.upper_bonus_reached", "stats.times",
     "stats.bonanzas_rolled", "error.db_corrupt", "error.data_not_writable", "error.cannot_connect",
     "error.connection_lost", "error.advisor_building"]
    + [f"box.{b}" for b in BOXES]
    + [f"verify.fail.{c}" for c in VERIFY_CODES]
    + [f"refusal.{c}" for c in REFUSAL_CODES]
    + [f"language.{c}" for c in LANGS]
)
PLURAL_REQUIRED = {"game.rolls_left", "game.points", "table.clock", "stats.times"}


def _texts(code):
    """Every displayable string of a catalogue, plural forms flattened."""
    out = []
    for key, value in i18n.raw_messages(code).items():
        out.extend((key, v) for v in (value if isinstance(value, tuple) else (value,)))
    return out


@pytest.fixture(autouse=True)
def _restore_singleton_language():
    tr = i18n.get_translator()
    before = tr.language
    yield
    tr.set_language(before)


# ------------------------------------------------------------------ key sets

def test_english_has_the_required_keys():
    missing = [k for k in REQUIRED if k not in i18n.all_keys("en")]
    assert not missing, missing
    assert PLURAL_REQUIRED <= i18n.plural_keys("en")


@pytest.mark.parametrize("code", OTHERS)
def test_same_keys_as_english(code):
    en, other = i18n.all_keys("en"), i18n.all_keys(code)
    assert not (en - other), f"{code} misses {sorted(en - other)}"
    assert not (other - en), f"{code} has extra {sorted(other - en)}"
    assert i18n.plural_keys(code) == i18n.plural_keys("en")


@pytest.mark.parametrize("code", LANGS)
def test_no_empty_msgstr(code):
    empty = [key for key, text in _texts(code) if not text.strip()]
    assert not empty, f"{code}: empty translations for {empty}"


@pytest.mark.parametrize("code", LANGS)
def test_plural_entries_have_all_forms(code):
    nplurals, _ = i18n.plural_forms(code)
    for key, value in i18n.raw_messages(code).items():
        if key in i18n.plural_keys(code):
            assert len(value) == nplurals, (code, key, value)


@pytest.mark.parametrize("code", OTHERS)
def test_placeholders_match_english(code):
    en = i18n.raw_messages("en")
    for key, value in i18n.raw_messages(code).items():
        en_forms = en[key] if isinstance(en[key], tuple) else (en[key],)
        expected = set().union(*(i18n.placeholders(f) for f in en_forms))
        for form in value if isinstance(value, tuple) else (value,):
            assert i18n.placeholders(form) == expected, (code, key, form)


@pytest.mark.parametrize("code", LANGS)
def test_every_translation_formats(code):
    """str.format must not choke on any message (stray braces etc.)."""
    for key, text in _texts(code):
        names = i18n.placeholders(text)
        text.format(**{name: "X" for name in names})


def test_symbolic_keys_are_well_formed():
    for key in i18n.all_keys("en"):
        assert re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-zA-Z0-9_-]+)+", key), key


def test_language_names_in_their_own_language():
    expected = {"en": "English", "pt-PT": "Português (Portugal)", "pt-BR": "Português (Brasil)",
                "es": "Español", "fr": "Français", "nl": "Nederlands"}
    for code, name in expected.items():
        assert i18n.language_name(code) == name
        for other in LANGS:  # the same in every catalogue
            assert i18n.Translator(other).t(f"language.{code}") == name


def test_card_wordings():
    expect = {
        "pt-PT": ("Registar?", "Riscar?"), "es": ("¿Anotar?", "¿Tachar?"),
        "fr": ("Inscrire\u00a0?", "Barrer\u00a0?"), "nl": ("Invullen?", "Wegstrepen?"),
        "pt-BR": ("Anotar?", "Riscar?"), "en": ("Write?", "Scratch?"),
    }
    for code, (register, scratch) in expect.items():
        tr = i18n.Translator(code)
        assert tr.t("game.confirm_register") == register
        assert tr.t("game.confirm_scratch") == scratch
    for code in LANGS:
        assert i18n.Translator(code).t("box.bonanza") == "Bonanza"
    assert i18n.Translator("pt-BR").t("box.chance") == "Livre"
    assert i18n.Translator("fr").t("box.three_kind") == "Brelan"
    assert i18n.Translator("nl").t("box.sixes") == "Zessen"


# ------------------------------------------------------------------ plurals

# pt-BR writes 0 in the plural ("0 vezes", not "0 vez"), as the native review asks.
@pytest.mark.parametrize("code,header", [("en", "(n != 1)"), ("es", "(n != 1)"), ("nl", "(n != 1)"),
                                         ("pt-PT", "(n != 1)"), ("fr", "(n > 1)"), ("pt-BR", "(n != 1)")])
def test_plural_forms_header(code, header):
    assert i18n.plural_forms(code) == (2, header)
    text = i18n.catalogue_path(code).read_text(encoding="utf-8")
    assert f'"Plural-Forms: nplurals=2; plural={header};\\n"' in text


@pytest.mark.parametrize("code", ["fr"])
def test_zero_is_singular(code):
    assert [i18n.plural_index(code, n) for n in (0, 1, 2, 5, 100)] == [0, 0, 1, 1, 1]
    tr = i18n.Translator(code)
    forms = i18n.raw_messages(code)["game.rolls_left"]
    assert tr.tn("game.rolls_left", 0) == forms[0].format(n=0)
    assert tr.tn("game.rolls_left", 2) == forms[1].format(n=2)


@pytest.mark.parametrize("code", ["en", "es", "nl", "pt-PT", "pt-BR"])
def test_zero_is_plural(code):
    assert [i18n.plural_index(code, n) for n in (0, 1, 2, 5, 100)] == [1, 0, 1, 1, 1]
    tr = i18n.Translator(code)
    forms = i18n.raw_messages(code)["game.rolls_left"]
    assert tr.tn("game.rolls_left", 0) == forms[1].format(n=0)
    assert tr.tn("game.rolls_left", 1) == forms[0].format(n=1)


def test_tn_examples():
    en, fr = i18n.Translator("en"), i18n.Translator("fr")
    assert en.tn("game.rolls_left", 1) == "1 roll left"
    assert en.tn("game.rolls_left", 0) == "0 rolls left"
    assert en.tn("stats.times", 3) == "3 times"
    assert fr.tn("table.clock", 0) == "0 seconde restante"
    assert fr.tn("table.clock", 12) == "12 secondes restantes"
    assert i18n.Translator("nl").tn("game.points", 1) == "1 punt"
    assert i18n.Translator("pt-BR").tn("stats.times", 0) == "0 vezes"
    assert fr.tn("results.place_n", 1) == "1er" and fr.tn("results.place_n", 2) == "2e"


# ------------------------------------------------------------------ lookup and fallback

def test_t_formats_and_falls_back(monkeypatch):
    tr = i18n.Translator("es")
    assert tr.t("game.turn", n=3, total=13) == "Ronda 3 de 13"
    assert tr.t("table.turn_of", name="Ana") == "Turno de Ana"
    assert tr.t("no.such.key") == "no.such.key"
    assert tr.t("game.turn", n=1) == "Ronda 1 de {total}"  # missing argument stays visible
    # a key missing in a language falls back to English
    cat = i18n._catalogue("es")
    monkeypatch.delitem(cat.messages, "menu.solo")
    assert tr.t("menu.solo") == "Solo"  # English text
    monkeypatch.delitem(cat.messages, "menu.quit")
    assert tr.t("menu.quit") == "Quit"
    monkeypatch.delitem(cat.plurals, "game.points")
    assert tr.tn("game.points", 2) == "2 points"


def test_live_switching():
    tr = i18n.Translator("en")
    seen = []
    tr.add_listener(seen.append)
    assert tr.t("menu.quit") == "Quit"
    tr.set_language("fr")
    assert tr.language == "fr" and tr.t("menu.quit") == "Quitter"
    tr.set_language("pt_BR.UTF-8")
    assert tr.language == "pt-BR" and tr.t("menu.settings") == "Configurações"
    assert tr.rules_text() == i18n.rules_path("pt-BR").read_text(encoding="utf-8")
    assert seen == ["fr", "pt-BR"]
    with pytest.raises(ValueError):
        tr.set_language("de")
    assert tr.language == "pt-BR"


def test_module_level_singleton_switches_live():
    assert i18n.get_translator() is i18n.get_translator()
    i18n.set_language("nl")
    assert i18n.current_language() == "nl"
    assert i18n.t("menu.quit") == "Afsluiten"
    assert i18n.tn("game.rolls_left", 2) == "Nog 2 worpen"
    i18n.set_language("es")
    assert i18n.t("menu.quit") == "Salir"
    assert i18n.rules_text().startswith("# Bonanza: las reglas")


def test_catalogues_are_cached():
    a = i18n._catalogue("fr")
    i18n.Translator("fr").t("menu.solo")
    assert i18n._catalogue("fr") is a


def test_placeholders_helper():
    assert i18n.placeholders("Move {n} of {total}") == {"n", "total"}
    assert i18n.placeholders("no fields") == set()
    assert i18n.placeholders("{percent}%") == {"percent"}


# ------------------------------------------------------------------ choosing the language

@pytest.mark.parametrize("value,expected", [
    ("pt_BR.UTF-8", "pt-BR"), ("pt_PT", "pt-PT"), ("pt", "pt-PT"), ("pt-BR", "pt-BR"),
    ("es_MX", "es"), ("fr_CA", "fr"), ("nl_BE", "nl"), ("en_GB.UTF-8", "en"), ("fr_FR@euro", "fr"),
    ("C", None), ("POSIX", None), ("C.UTF-8", None), ("", None), ("de_DE", None), (None, None),
])
def test_normalize_language(value, expected):
    assert i18n.normalize_language(value) == expected


def test_choice_order():
    env = {"BONANZA_LANG": "nl", "LANGUAGE": "fr_CA:es", "LC_ALL": "es_ES.UTF-8",
           "LC_MESSAGES": "pt_PT.UTF-8", "LANG": "pt_BR.UTF-8"}
    system = lambda: ["en_US"]  # noqa: E731

    def choose(setting=None):
        return i18n.choose_language(setting, environ=env, system_locales=system)

    assert choose("es") == "es"              # the player's setting first
    assert choose("auto") == "nl"            # "auto" = no setting -> BONANZA_LANG
    assert choose() == "nl"
    del env["BONANZA_LANG"]
    assert choose() == "fr"                  # LANGUAGE, first entry
    env["LANGUAGE"] = "de:es_MX"
    assert choose() == "es"                  # LANGUAGE, later entry
    del env["LANGUAGE"]
    env["LC_ALL"] = "fr_FR.UTF-8"
    assert choose() == "fr"                  # LC_ALL
    del env["LC_ALL"]
    assert choose() == "pt-PT"               # LC_MESSAGES
    del env["LC_MESSAGES"]
    assert choose() == "pt-BR"               # LANG
    del env["LANG"]
    assert i18n.choose_language(None, environ=env, system_locales=lambda: ["C", "nl_BE"]) == "nl"
    assert i18n.choose_language(None, environ=env, system_locales=NO_SYSTEM) == "en"


def test_c_and_unsupported_values_are_skipped():
    env = {"BONANZA_LANG": "", "LANGUAGE": "", "LC_ALL": "C", "LC_MESSAGES": "POSIX", "LANG": "fr_CA.UTF-8"}
    assert i18n.choose_language(None, environ=env, system_locales=NO_SYSTEM) == "fr"
    assert i18n.choose_language("klingon", environ={}, system_locales=lambda: ["pt_BR"]) == "pt-BR"
    assert i18n.choose_language(None, environ={"LANG": "C.UTF-8"}, system_locales=NO_SYSTEM) == "en"


def test_broken_system_locale_getter_falls_back_to_english():
    def broken():
        raise OSError("no locale service")
    assert i18n.choose_language(None, environ={}, system_locales=broken) == "en"


def test_system_locales_is_best_effort():
    assert isinstance(i18n.system_locales(), list)
    assert i18n.choose_language(None, environ={}) in LANGS


# ------------------------------------------------------------------ rules pages

@pytest.mark.parametrize("code", LANGS)
def test_rules_page_exists_and_is_complete(code):
    path = i18n.rules_path(code)
    assert path.is_file(), path
    text = path.read_text(encoding="utf-8")
    assert len(text.strip()) > 1500
    assert text.startswith("# ")
    assert text.count("\n## ") >= 8  # objective, turn, upper, lower, joker, yacht, clock, ..., controls, fairness
    assert i18n.Translator(code).rules_text() == text
    tr = i18n.Translator(code)
    for box in ("box.full_house", "box.bonanza"):
        assert tr.t(box).lower() in text.lower()
    for needle in ("63", "35", "25", "30", "40", "50", "90"):
        assert needle in text


# ------------------------------------------------------------------ font coverage

def _font_files():
    fonts = ROOT / "assets" / "fonts"
    return sorted(p for p in fonts.rglob("*") if p.suffix.lower() in (".ttf", ".otf")) if fonts.is_dir() else []


def _used_characters():
    chars = set()
    for code in LANGS:
        for _key, text in _texts(code):
            chars.update(text)
        chars.update(i18n.rules_path(code).read_text(encoding="utf-8"))
        chars.update(i18n.language_name(code))
    return sorted(c for c in chars if not c.isspace() or c in "\u00a0\u202f")


def _missing_glyphs(font_path, chars):
    try:
        from fontTools.ttLib import TTFont  # optional, most exact

        cmap = TTFont(str(font_path)).getBestCmap()
        return [c for c in chars if ord(c) not in cmap]
    except ImportError:
        pass
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    freetype = pytest.importorskip("pygame.freetype")
    freetype.init()
    font = freetype.Font(str(font_path), 16)
    metrics = font.get_metrics("".join(chars))
    return [c for c, m in zip(chars, metrics) if m is None]


def test_every_character_is_in_the_shipped_font():
    fonts = _font_files()
    if not fonts:
        pytest.skip("no .ttf/.otf under assets/fonts/ yet")
    chars = _used_characters()
    assert len(chars) > 60
    problems = {p.name: _missing_glyphs(p, chars) for p in fonts}
    problems = {name: missing for name, missing in problems.items() if missing}
    assert not problems, {n: [f"U+{ord(c):04X} {c}" for c in m] for n, m in problems.items()}


def test_glyph_check_detects_a_missing_character():
    """The checker itself must be able to fail (CJK is not in DejaVu/Noto Sans)."""
    fonts = _font_files()
    if not fonts:
        pytest.skip("no .ttf/.otf under assets/fonts/ yet")
    assert _missing_glyphs(fonts[0], ["A", "\u4e2d"]) == ["\u4e2d"]


def test_po_reader_reads_continued_strings_plurals_and_escapes(tmp_path):
    from bonanza.client.i18n import read_po
    po = tmp_path / "xx.po"
    po.write_text('# comment\nmsgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
                  '#. a note\nmsgid "a.key"\nmsgstr "say \\"hi\\"\\n"\n"and more"\n\n'
                  'msgid "b.key"\nmsgid_plural "b.key"\nmsgstr[0] "{n} die"\nmsgstr[1] "{n} dice"\n',
                  encoding="utf-8")
    entries = read_po(po)
    assert entries[1] == ("a.key", None, {0: 'say "hi"\nand more'})
    assert entries[2] == ("b.key", "b.key", {0: "{n} die", 1: "{n} dice"})


def test_po_reader_names_the_file_and_line_of_a_bad_entry(tmp_path):
    from bonanza.client.i18n import read_po
    po = tmp_path / "xx.po"
    po.write_text('msgid "a"\nmsgstr "b"\nmsgtxt "c"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"xx\.po:3: unknown keyword 'msgtxt'"):
        read_po(po)


@pytest.mark.parametrize("code, value, text", [
    ("en", 201.5, "201.5"), ("fr", 201.5, "201,5"), ("en", 82.66, "82.7"), ("nl", 200.0, "200"),
    ("en", 1234.5, "1,234.5"), ("es", 1234.5, "1234,5"), ("es", 12345.0, "12.345"),
    ("fr", 1234.0, "1\u202f234"), ("pt-PT", -3.25, "-3,2")])
def test_averages_are_written_in_the_players_language(code, value, text):
    from bonanza.client.i18n import format_decimal
    assert format_decimal(value, code) == text


# ------------------------------------------------------------------ formality

# Each language speaks to the player one way (docs/i18n.md, "Formality"): fr and pt-PT tu,
# es tú, nl je, pt-BR você.  These are the words that give the other register away; words
# shared by both registers (3rd-person "su", "pode", "seu" of a relay) cannot be told apart
# and are left to review.
_OTHER_REGISTER = {
    # vous/votre/vos, and 2nd-person-plural verbs ("Vérifiez", "réessayez", "rejoignez-la")
    "fr": r"\b(vous|votre|vos)\b|\b(?!(?:chez|assez|nez|rez)\b)\w{2,}ez\b",
    # usted and the usted imperatives a UI uses
    "es": r"\b(usted|ustedes|pulse|presione|elija|seleccione|vuelva|int[eé]ntelo|intente|espere|"
          r"escriba|compruebe|revise|haga|abra|cierre|reinicie|pida|[úu]nase|salga|deje|"
          r"aseg[úu]rese|pruebe|confirme)\b",
    # você, the possessives that go with it, and the você imperatives
    "pt-PT": r"\b(você|vocês|seu|sua|seus|suas|deixe|prima|carregue|volte|tente|verifique|torne|"
             r"dê|reinicie|escreva|confirme|espere|guarde|saia|abra|peça|selecione|escolha um|"
             r"escolha uma)\b",
    # tu, its possessives and pronouns, and 2nd-person-singular verbs (tu imperatives such as
    # "escolhe" are also the 3rd person, "a semente escolhe", so they cannot be flagged)
    "pt-BR": r"\b(tu|teu|teus|tua|tuas|contigo|te|podes|tens|estás|queres|deves|jogaste|"
             r"ganhaste|fizeste)\b|-te\b",
    "nl": r"\b(u|uw|uzelf)\b",
}
# (language, key) pairs where a marker is not addressed to the player.
_REGISTER_ALLOWED = {
    ("pt-PT", "daily.relay.explain"),   # "a sua impressão digital": the relay's fingerprint
    ("pt-PT", "table.clock_plays"),     # "joga no seu lugar": in that player's place
    ("nl", "practice.undo"),            # "Ongedaan (U)": the U key, not the pronoun
    ("nl", "game.controls_undo"),       # "U ongedaan maken": the U key again
}


def _register_slips(code, texts):
    pattern = re.compile(_OTHER_REGISTER[code], re.IGNORECASE)
    return [(key, m.group(0), text) for key, text in texts
            if (code, key) not in _REGISTER_ALLOWED and (m := pattern.search(text))]


@pytest.mark.parametrize("code", sorted(_OTHER_REGISTER))
def test_one_register_per_language(code):
    texts = _texts(code) + [("rules", line) for line in
                            i18n.rules_path(code).read_text(encoding="utf-8").splitlines()]
    slips = _register_slips(code, texts)
    assert not slips, f"{code} addresses the player in the other register: {slips}"


@pytest.mark.parametrize("code, text", [
    ("fr", "Tu peux jouer. Vérifiez vos réglages."), ("es", "Pulsa R o pulse Intro."),
    ("pt-PT", "Podes jogar. Verifique o seu nome."), ("pt-BR", "Você tem, mas tu podes."),
    ("nl", "Je kunt spelen als u wilt.")])
def test_register_check_catches_a_mixed_text(code, text):
    assert _register_slips(code, [("k", text)])


@pytest.mark.parametrize("code, text", [
    ("fr", "Vérifie tes réglages chez toi, assez vite."), ("es", "Pulsa Intro; su registro falla."),
    ("pt-PT", "Verifica as tuas definições."), ("pt-BR", "Verifique suas configurações."),
    ("nl", "Controleer je naam.")])
def test_register_check_accepts_the_chosen_register(code, text):
    assert not _register_slips(code, [("k", text)])


# One word per meaning: the Chance box (a scorecard's traditional name) and the analysis'
# luck (our own measure) must not read alike, or "Chance +12.3" on the analysis card would
# seem to be about the box.  Where they collided (pt-PT Sorte, es Suerte, fr Chance) the
# luck measure took another word: Acaso, Azar, Hasard.
def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"\w+", text)}


@pytest.mark.parametrize("code", LANGS)
def test_the_chance_box_and_luck_are_different_words(code):
    msgs = dict(_texts(code))
    box = _words(msgs["box.chance"])
    for key in ("analysis.luck", "charts.luck_skill"):
        assert not box & _words(msgs[key]), f"{code}: {key} {msgs[key]!r} reads like the box {msgs['box.chance']!r}"


def test_the_word_check_catches_a_collision():
    assert _words("Sorte") & _words("Sorte e pontos perdidos por jogo")


def test_counts_are_grouped_as_the_language_groups_numbers():
    assert i18n.Translator("en").tn("charts.optimal", 4000, mean="250") == \
        "Optimal play: 4,000 simulated games, average 250"
    assert "4\u202f000 parties" in i18n.Translator("fr").tn("charts.optimal", 4000, mean="250")
    assert "4.000 gesimuleerde" in i18n.Translator("nl").tn("charts.optimal", 4000, mean="250")
    # Spanish groups from five digits (CLDR minimumGroupingDigits 2)
    assert "4000 partidas" in i18n.Translator("es").tn("charts.optimal", 4000, mean="250")
    assert i18n.Translator("en").tn("game.rolls_left", 2) == "2 rolls left"


def test_french_punctuation_keeps_its_no_break_space():
    """A plain space before ; : ! ? » (or after «) lets the sign wrap onto the next line."""
    texts = _texts("fr") + [("rules", line) for line in
                            i18n.rules_path("fr").read_text(encoding="utf-8").splitlines()]
    bad = [(key, text) for key, text in texts if re.search(r" [;:!?»]|« ", text)]
    assert not bad, bad


# ------------------------------------------------------------------ dates and run times

@pytest.mark.parametrize("code, long, short", [
    ("en", "December 1, 2026", "12/1/26"), ("es", "1 de diciembre de 2026", "1/12/26"),
    ("fr", "1 décembre 2026", "01/12/2026"), ("nl", "1 december 2026", "01-12-2026"),
    ("pt-BR", "1 de dezembro de 2026", "01/12/2026"), ("pt-PT", "1 de dezembro de 2026", "01/12/26")])
def test_dates_are_written_as_the_language_does(code, long, short):
    assert i18n.format_date("2026-12-01", code) == long
    assert i18n.format_date("2026-12-01T23:59:59.000Z", code, "short") == short


def test_format_date_uses_the_current_language_and_keeps_what_is_not_a_date():
    i18n.set_language("fr")
    assert i18n.format_date("2027-08-15") == "15 août 2027"
    assert i18n.format_date("not a date", "es") == "not a date"


@pytest.mark.parametrize("code, text", [
    ("en", "12/1/26, 3:05\u202fPM"), ("fr", "01/12/2026 15:05"), ("nl", "01-12-2026 15:05"),
    ("es", "1/12/26, 15:05"), ("pt-BR", "01/12/2026 15:05")])
def test_date_and_time_of_a_game(code, text):
    assert i18n.format_datetime("2026-12-01T15:05:42.120Z", code, local=False) == text


def test_stored_utc_is_shown_in_local_time(monkeypatch):
    if not hasattr(__import__("time"), "tzset"):
        pytest.skip("time.tzset is POSIX only")
    import time
    monkeypatch.setenv("TZ", "UTC-2")      # POSIX sign: two hours east of UTC
    time.tzset()
    try:
        assert i18n.format_datetime("2026-12-31T23:30:00Z", "nl") == "01-01-2027 01:30"
    finally:
        monkeypatch.undo()
        time.tzset()


@pytest.mark.parametrize("code, ms, decimals, text", [
    ("en", 135310, 3, "2:15.310"), ("fr", 135310, 3, "2:15,310"), ("pt-BR", 135310, 1, "2:15,3"),
    ("es", 59960, 1, "0:59,9"), ("nl", 3_725_004, 3, "62:05,004"), ("en", 0, 1, "0:00.0"),
    ("de-XX", 1500, 1, "0:01.5"), ("fr", None, 3, "–")])
def test_run_times_use_the_decimal_mark_of_the_averages(code, ms, decimals, text):
    assert i18n.format_duration(ms, code, decimals) == text
