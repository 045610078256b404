"""Translations: every language words every message in its own words, with the English's
placeholders, the right plural form for every number and the right form of each colour."""

from __future__ import annotations

import re

import pytest

from keltis.describe import Event
from keltis.i18n import (
    COLOUR_FORMS,
    COLOURS,
    LANGUAGES,
    ColourName,
    Translator,
    detect_language,
    plural_number,
    template_fields,
)
from keltis.messages import COLOUR_KEYS, MESSAGES, Phrase, message

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
COLOUR_PARAMS = ("path", "pile", "onto", "row", "colour")
#: Numbers that meet every plural form of every language (Polish 22 vs 25, Czech 2 vs 5 …).
NUMBERS = (0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 101, 102)


def sample_values(t: Translator, count: int = 7) -> dict[str, object]:
    """A value for every parameter of every message."""
    colour = t.colour_name(2)
    values: dict[str, object] = {
        name: colour if name in COLOUR_PARAMS else "7"
        for msg in MESSAGES.values()
        for text in (msg.english, msg.plural or "")
        for name in template_fields(text)
    }
    values["count"] = count
    values["points"] = count
    return values


def test_seven_languages_with_german() -> None:
    assert list(LANGUAGES) == ["en", "de", "cs", "sk", "hu", "pl", "es"]
    assert LANGUAGES["de"] == "Deutsch"


def test_every_language_has_colour_names() -> None:
    assert set(COLOUR_FORMS) == set(LANGUAGES) == set(COLOURS)
    for lang, forms in COLOUR_FORMS.items():
        assert "" in forms, lang
        assert COLOURS[lang] == forms[""]
        for form, names in forms.items():
            assert len(names) == 5, (lang, form)
            assert all(names), (lang, form)
        assert len(set(forms[""])) == 5, lang
    assert COLOURS["en"] == ("green", "yellow", "red", "pink", "blue")
    assert COLOUR_FORMS["de"]["en"][0] == "grünen"
    assert COLOUR_FORMS["cs"]["f2"][0] == "zelené"
    with pytest.raises(KeyError):
        COLOUR_FORMS["xx"]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_colour_forms_used_by_templates_exist(lang: str) -> None:
    forms = COLOUR_FORMS[lang]
    t = Translator(lang)
    for key in MESSAGES:
        for n in NUMBERS[:4]:
            template = t.template(key, n)
            assert template is not None
            for name, specs in template_fields(template).items():
                if name in COLOUR_PARAMS:
                    assert specs <= set(forms), (key, name, specs)


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_are_translated(lang: str) -> None:
    """At most three messages read as the English (loan words: "Bots", "Chat", "online");
    a template with no words of its own ("{name}: {what}") has nothing to translate."""
    t, en = Translator(lang), Translator("en")

    def words(key: str) -> bool:
        return re.search(r"[^\W\d_]", re.sub(r"\{[^}]*\}", "", en.template(key) or "")) is not None

    same = [key for key in MESSAGES if words(key) and t.template(key) == en.template(key)]
    assert len(same) <= 3, same


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_message_formats_for_every_number(lang: str) -> None:
    t = Translator(lang)
    for n in NUMBERS:
        values = sample_values(t, n)
        for key in MESSAGES:
            text = t(key, **values)
            assert "{" not in text, (lang, key, text)
            assert "}" not in text, (lang, key, text)
            assert text != key, (lang, key)


def test_a_number_that_meets_a_word_is_a_plural_message() -> None:
    """No "up to 1 cards": an English template where a field is followed by a counted word
    must be a plural message."""
    counted = re.compile(r"\{(\w+)\} (cards?|moves?|points?|pts?|players?|figures?|stones?)\b")
    for key, msg in MESSAGES.items():
        if msg.plural is None:
            numbers = [m for m in counted.finditer(msg.english) if m[1] not in COLOUR_PARAMS]
            assert not numbers, key
        else:
            assert msg.count in template_fields(msg.plural), key


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_plural_noun_after_one(lang: str) -> None:
    t = Translator(lang)
    one = {key: t(key, **sample_values(t, 1)) for key, msg in MESSAGES.items() if msg.plural}
    plural_words = {
        "en": r"\b1 (cards|moves|points|pts|players|figures)\b|up to 1\b",
        "de": r"\b1 (Karten|Züge|Punkte)\b|bis zu 1\b",
        "cs": r"\b1 (karty|karet|tahy|tahů|body|bodů|hráči|hráčů)\b",
        "sk": r"\b1 (karty|kariet|ťahy|ťahov|body|bodov|hráči|hráčov)\b",
        "pl": r"\b1 (karty|kart|ruchy|ruchów|punkty|punktów|graczy)\b",
        "es": r"\b1 (cartas|jugadas|puntos|pts|jugadores)\b|hasta 1\b",
        "hu": r"\b1 (lapok|pontok)\b",
    }[lang]
    for key, text in one.items():
        assert not re.search(plural_words, text), (key, text)


@pytest.mark.parametrize(
    ("lang", "key", "counts"),
    [
        ("en", "screen.deck", {1: "draw pile: 1 card", 2: "draw pile: 2 cards", 0: "0 cards"}),
        ("de", "screen.deck", {1: "Nachziehstapel: 1 Karte", 5: "Nachziehstapel: 5 Karten"}),
        ("cs", "screen.deck", {1: "1 karta", 3: "3 karty", 5: "5 karet", 22: "22 karet"}),
        ("sk", "screen.deck", {1: "1 karta", 4: "4 karty", 12: "12 kariet"}),
        ("pl", "screen.deck", {1: "1 karta", 22: "22 karty", 25: "25 kart", 12: "12 kart"}),
        ("es", "screen.deck", {1: "mazo: 1 carta", 2: "mazo: 2 cartas"}),
        ("hu", "screen.deck", {1: "húzópakli: 1 lap", 7: "húzópakli: 7 lap"}),
        ("cs", "act.tile.points", {1: "+1 bod", 2: "+2 body", 5: "+5 bodů"}),
        ("pl", "msg.resumed", {1: "1 zapisany ruch", 3: "3 zapisane ruchy", 9: "9 zapisanych"}),
        ("en", "phase.cards.final", {1: "you may still lay one card", 2: "up to 2 cards"}),
        ("de", "phase.cards.final", {1: "noch eine Karte an", 2: "noch bis zu 2 Karten"}),
        ("en", "phase.cards.draw", {1: "1 card to draw", 3: "3 cards to draw"}),
        ("en", "board.goal", {1: "1 of 5 figures is there", 2: "2 of 5 figures are there"}),
        ("en", "replay.title.board", {3: "board game, 3 players (x)"}),
    ],
)  # fmt: skip
def test_plural_forms_follow_the_number(lang: str, key: str, counts: dict[int, str]) -> None:
    t = Translator(lang)
    for n, expected in counts.items():
        assert expected in t(key, name="Ann", count=n, total=5, points=n, path="p", setup="x")


def test_the_count_of_act_cards_lay_is_its_points() -> None:
    t = Translator("en")
    row = t.colour_name(0)
    one = "onto your green row (length 4, +1 pt)"
    assert t("act.cards.lay", row=row, count=4, points="+1") == one
    assert t("act.cards.lay", row=row, count=3, points="-2").endswith("(length 3, -2 pts)")
    assert plural_number("+1") == 1
    assert plural_number(-4) == 4
    assert plural_number("many") == 5


@pytest.mark.parametrize(
    ("lang", "event", "expected"),
    [
        ("en", ("draw_pile", {"card": "Y7", "pile": 1}), "takes Y7 from the yellow discard pile"),
        ("cs", ("draw_pile", {"card": "Y7", "pile": 1}),
         "bere si Y7 ze žlutého odhazovacího balíčku"),
        ("cs", ("draw_pile", {"card": "R7", "pile": 2}),
         "bere si R7 z červeného odhazovacího balíčku"),
        ("sk", ("advance", {"path": 0}), "posúva figúrku na zelenej ceste"),
        ("es", ("lay_onto", {"card": "*7", "onto": 1}), "juega *7 en la hilera amarilla"),
        ("pl", ("moved", {"path": 4, "row": 3, "big": True}),
         "duży znacznik na niebieskiej drodze idzie do rzędu 3"),
        ("hu", ("draw_pile", {"card": "*3", "pile": "*"}),
         "elveszi a pontkártyák eldobó paklijáról: *3"),
        ("en", ("end", {"reason": "goal"}), "the fifth figure enters the goal area: game over"),
        ("en", ("figure", {"big": False}), "sends a small figure onto the path"),
        ("de", ("draw_pile", {"card": "Y7", "pile": 1}), "nimmt Y7 vom gelben Ablagestapel"),
        ("de", ("lay_onto", {"card": "*7", "onto": 4}), "legt *7 an die blaue Reihe an"),
        ("de", ("moved", {"path": 3, "row": 2, "big": False}),
         "Figur auf dem rosa Pfad rückt auf Reihe 2"),
        ("de", ("figure", {"big": True}), "schickt die große Spielfigur auf den Pfad"),
        ("de", ("draw_deck", {"card": "G3"}), "zieht G3 vom Nachziehstapel"),
        ("en", ("draw_deck", {"card": "G3"}), "draws G3 from the draw pile"),
        ("en", ("draw_deck", {}), "draws from the draw pile"),
    ],
)  # fmt: skip
def test_events_in_natural_words(lang: str, event: Event, expected: str) -> None:
    assert Translator(lang).event(event) == expected


def test_game_terms_come_from_the_rulebooks() -> None:
    terms = {
        "de": ("Wunschstein", "Kleeblatt", "Punktekärtchen", "Nachziehstapel", "Ablagestapel",
               "Zielbereich", "große Spielfigur", "Schlusskarte", "Punktekarte", "Endstein",
               "Wegekärtchen", "Startfeld"),
        "cs": ("kámen přání", "čtyřlístek", "lízací balíček", "odhazovací balíček"),
        "sk": ("kameň želaní", "štvorlístok", "hracieho balíčka", "odkladací balíček"),
        "es": ("piedra de deseo", "trébol", "mazo", "pila de descartes", "zona de meta"),
        "pl": ("kamień życzeń", "koniczyna", "zakrytego stosu", "obszar celu"),
        "hu": ("kívánságkő", "lóhere", "húzópakli", "dobópakli", "lezáró kártya"),
    }  # fmt: skip
    for lang, words in terms.items():
        t = Translator(lang)
        text = " ".join(t.template(key, n) or "" for key in MESSAGES for n in (1, 2, 5))
        for word in words:
            assert word in text, (lang, word)


def test_unknown_keys_and_bad_parameters_do_not_crash() -> None:
    t = Translator("cs")
    assert t("no.such.key") == "no.such.key"
    assert t("ev.lay") == MESSAGES["ev.lay"].english  # a missing parameter: the raw English
    assert t.event(("wish_card", {"value": 3})) == "ev.wish_card"
    assert t.get("score.unknown", "unknown") == "unknown"
    assert t.get("score.total", "x") == "celkem"
    assert t.template("no.such.key") is None
    assert t("screen.deck", count="lots") == "lízací balíček: lots karet"  # "other" form


def test_colour_name_forms() -> None:
    name = ColourName({"": "zelená", "f2": "zelené"})
    assert f"{name}" == "zelená"
    assert f"{name:f2}" == "zelené"
    assert f"{name:xx}" == "zelená"
    assert Translator("pl").colour(3) == "różowy"
    assert Translator("de").colour(3) == "rosa"
    assert f"{Translator('de').colour_name(0):en}" == "grünen"
    assert format(Translator("en").colour_name(-1), "") == ""
    assert [Translator("en").colour(c) for c in range(5)] == [
        MESSAGES[key].english for key in COLOUR_KEYS
    ]


@pytest.mark.parametrize(
    ("explicit", "env", "expected"),
    [
        ("cs", {}, "cs"),
        ("de", {}, "de"),
        ("HU", {"LANG": "cs_CZ.UTF-8"}, "hu"),
        ("sk_SK", {}, "sk"),
        ("de-AT", {}, "de"),
        (None, {"KELTIS_LANG": "es", "LANG": "pl_PL.UTF-8"}, "es"),
        (None, {"LANG": "pl_PL.UTF-8"}, "pl"),
        (None, {"LC_ALL": "hu_HU.UTF-8", "LANG": "cs_CZ"}, "hu"),
        (None, {"LANG": "de_DE.UTF-8"}, "de"),
        (None, {"LC_MESSAGES": "de_CH.UTF-8", "LANG": "en_GB.UTF-8"}, "de"),
        (None, {"LANG": "de_DE@euro"}, "de"),
        (None, {"LANGUAGE": "fr:de:en", "LANG": "fr_FR.UTF-8"}, "de"),
        (None, {"LANGUAGE": "de", "LANG": "C.UTF-8"}, "en"),  # gettext: C ignores LANGUAGE
        (None, {"LANG": "fr_FR.UTF-8"}, "en"),
        (None, {"LANG": "C.UTF-8"}, "en"),
        (None, {}, "en"),
    ],
)
def test_detect_language(explicit: str | None, env: dict[str, str], expected: str) -> None:
    assert detect_language(explicit, env) == expected


def test_unknown_language_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown language 'fr': choose one of en, de, cs"):
        detect_language("fr", {})
    with pytest.raises(ValueError, match="unknown language"):
        Translator("xx")


def test_the_terminal_lists_every_language() -> None:
    from keltis.cli import build_parser

    text = build_parser().format_help() + "".join(
        action.help or ""
        for sub in build_parser()._subparsers._group_actions  # type: ignore[union-attr]
        for parser in sub.choices.values()  # type: ignore[union-attr]
        for action in parser._actions
        if "--lang" in action.option_strings
    )
    assert "en, de, cs, sk, hu, pl, es" in text


def test_a_message_is_declared_once() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        message("ev.lay", "again")


@pytest.mark.parametrize("lang", OTHERS)
def test_a_phrase_parameter_is_put_into_the_same_language(lang: str) -> None:
    """``server.bad_field``'s ``{expected}`` is a message of its own: never English words
    inside a translated sentence."""
    t = Translator(lang)
    template = t.template("server.bad_field")
    assert template is not None
    for key in [k for k in MESSAGES if k.startswith("server.expected.")]:
        text = t("server.bad_field", field="seat", expected=Phrase(key))
        phrase = t(key)
        assert phrase != MESSAGES[key].english
        assert text == template.format(field="seat", expected=phrase)
    english = Translator("en")(
        "server.bad_field", field="seat", expected=Phrase("server.expected.seat")
    )
    assert english == "The field “seat” is missing or wrong: a seat number."
