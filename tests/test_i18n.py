"""Translations: every language has every message, with the same placeholders, in its own words."""

from __future__ import annotations

import pytest

from keltis.describe import Event
from keltis.i18n import (
    COLOUR_FORMS,
    LANGUAGES,
    MESSAGES,
    ColourName,
    Translator,
    detect_language,
    template_fields,
)

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
COLOUR_PARAMS = ("path", "pile", "onto", "row", "colour")


def test_every_language_has_a_message_table_and_colour_names() -> None:
    assert set(MESSAGES) == set(LANGUAGES) == set(COLOUR_FORMS)
    for lang, forms in COLOUR_FORMS.items():
        assert "" in forms, lang
        for form, names in forms.items():
            assert len(names) == 5, (lang, form)
            assert all(names), (lang, form)
            assert len(set(names)) == 5, (lang, form)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_key_is_translated_with_the_same_placeholders(lang: str) -> None:
    english = MESSAGES["en"]
    ours = MESSAGES[lang]
    assert sorted(set(english) - set(ours)) == [], "missing"
    assert sorted(set(ours) - set(english)) == [], "not in English"
    for key, template in english.items():
        assert set(template_fields(ours[key])) == set(template_fields(template)), key


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_colour_forms_used_by_templates_exist(lang: str) -> None:
    forms = COLOUR_FORMS[lang]
    for key, template in MESSAGES[lang].items():
        for name, specs in template_fields(template).items():
            if name in COLOUR_PARAMS and key.startswith(("ev.", "act.", "phase", "refuse.")):
                assert specs <= set(forms), (key, name, specs)


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_are_translated(lang: str) -> None:
    same = [k for k, v in MESSAGES[lang].items() if v == MESSAGES["en"][k]]
    assert len(same) <= 3, same


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_message_formats(lang: str) -> None:
    t = Translator(lang)
    colour = t.colour_name(2)
    values = {
        name: colour if name in COLOUR_PARAMS else "7"
        for template in MESSAGES["en"].values()
        for name in template_fields(template)
    }
    for key in MESSAGES[lang]:
        text = t(key, **values)
        assert "{" not in text, (lang, key, text)
        assert "}" not in text, (lang, key, text)


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
    ],
)  # fmt: skip
def test_events_in_natural_words(lang: str, event: Event, expected: str) -> None:
    assert Translator(lang).event(event) == expected


def test_game_terms_come_from_the_rulebooks() -> None:
    terms = {
        "cs": ("kámen přání", "čtyřlístek", "lízací balíček", "odhazovací balíček"),
        "sk": ("kameň želaní", "štvorlístok", "hracieho balíčka", "odkladací balíček"),
        "es": ("piedra de deseo", "trébol", "mazo", "pila de descartes", "zona de meta"),
        "pl": ("kamień życzeń", "koniczyna", "zakrytego stosu", "obszar celu"),
        "hu": ("kívánságkő", "lóhere", "húzópakli", "dobópakli", "lezáró kártya"),
    }
    for lang, words in terms.items():
        text = " ".join(MESSAGES[lang].values())
        for word in words:
            assert word in text, (lang, word)


def test_unknown_keys_and_bad_parameters_do_not_crash() -> None:
    t = Translator("cs")
    assert t("no.such.key") == "no.such.key"
    assert t("ev.lay") == MESSAGES["en"]["ev.lay"]  # a missing parameter: the raw English text
    assert t.event(("wish_card", {"value": 3})) == "ev.wish_card"
    assert t.get("score.unknown", "unknown") == "unknown"


def test_colour_name_forms() -> None:
    name = ColourName({"": "zelená", "f2": "zelené"})
    assert f"{name}" == "zelená"
    assert f"{name:f2}" == "zelené"
    assert f"{name:xx}" == "zelená"
    assert Translator("pl").colour(3) == "różowy"
    assert format(Translator("en").colour_name(-1), "") == ""


@pytest.mark.parametrize(
    ("explicit", "env", "expected"),
    [
        ("cs", {}, "cs"),
        ("HU", {"LANG": "cs_CZ.UTF-8"}, "hu"),
        ("sk_SK", {}, "sk"),
        (None, {"KELTIS_LANG": "es", "LANG": "pl_PL.UTF-8"}, "es"),
        (None, {"LANG": "pl_PL.UTF-8"}, "pl"),
        (None, {"LC_ALL": "hu_HU.UTF-8", "LANG": "cs_CZ"}, "hu"),
        (None, {"LANG": "de_DE.UTF-8"}, "en"),
        (None, {"LANG": "C.UTF-8"}, "en"),
        (None, {}, "en"),
    ],
)
def test_detect_language(explicit: str | None, env: dict[str, str], expected: str) -> None:
    assert detect_language(explicit, env) == expected


def test_unknown_language_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown language 'de': choose one of en, cs"):
        detect_language("de", {})
    with pytest.raises(ValueError, match="unknown language"):
        Translator("xx")
