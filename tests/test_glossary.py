"""One term per concept: no catalog uses a word its language's glossary replaced.

The words live in one place, :data:`keltis.catalogs.REPLACED_TERMS` (each with the pattern
that finds it, inflected forms included); the glossary of ``docs/translating.md`` lists the
same words in its "replaces" column, and ``python -m keltis.catalogs check`` reports a
catalog that uses one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from keltis.catalogs import (
    ONE_SEX_ADDRESS,
    REPLACED_TERMS,
    TRANSLATED,
    Replaced,
    address_problems,
    glossary_problems,
    read_catalog,
    wording_problems,
)

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "translating.md"


def _flagged(lang: str, text: str) -> list[Replaced]:
    return [r for r in REPLACED_TERMS[lang] if re.search(r.pattern, text, re.IGNORECASE)]


def test_every_translated_language_has_a_glossary_entry() -> None:
    assert set(REPLACED_TERMS) == set(TRANSLATED)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_catalog_uses_a_replaced_word(lang: str) -> None:
    assert glossary_problems(read_catalog(lang), lang) == []


# The strays the review of the catalogs found (as they stood), each flagged …
STRAYS = [
    ("cs", "verze, kterou jste viděli naposledy"),
    ("cs", "Nebo napište tah (G7, -G7, draw G …)"),
    ("sk", "-G7 na odhodenie"),
    ("sk", "kartu, ktorú si odhodil"),
    ("sk", "{option} je len pre doskovú hru"),
    ("sk", "dosková hra nemá balíček bodových kariet"),
    ("sk", "verzia, ktorú ste videli naposledy"),
    ("sk", "Alebo napíšte ťah"),
    ("hu", ">G egy bábu léptetéséhez"),
    ("hu", "a {colour} sorod emelkedő"),
    ("hu", "záró lap GX"),
    ("hu", "Záró kártya GX"),
    ("hu", "pontlap *7"),
    ("hu", "{option} csak a táblás játékhoz való"),
    ("hu", "kivéve: {count} lap"),
    ("pl", ">G, by przesunąć pionek"),
    ("pl", "Pionki: 2 = …"),
    ("pl", "*7>G do twojego zielonego rzędu"),
    ("pl", "do {row:f2} rzędu"),
    ("pl", "rząd kart w kolorze"),
    ("es", ">G para mover una figura"),
    ("es", "para una piedra de los deseos"),
    ("es", "*7>G en tu fila verde"),
    ("es", "cinco filas tienen carta de cierre en tus filas"),
    ("es", "la fila {row:f}"),
    ("es", "Solo hay un movimiento posible"),
    ("es", "elegiste en el movimiento {expected}"),
    # issue 40: one verb for drawing a card in Slovak and in Polish
    ("sk", "Potiahnutie kariet"),
    ("sk", "a potom si jednu potiahneš"),
    ("sk", "Teraz si potiahni kartu"),
    ("sk", "keď si niekto potiahne poslednú kartu"),
    ("pl", "Pociągnij kartę"),
    ("pl", "a potem ciągniesz jedną"),
    ("pl", "gdy gracz pociągnie ostatnią kartę"),
    ("pl", "nikt nie ciągnie karty"),
    ("pl", "Zagraj prawdziwą grę albo przeczytaj zasady."),
    ("pl", "zagraj grę"),
    # German: the Kosmos edition's words, not a later game's (issue 40)
    ("de", "9 Wunschsteine, 9 Kleeblätter und 7 Punkteplättchen"),
    ("de", "das Plättchen bleibt liegen"),
    ("de", "um den Wert des Plättchens"),
    ("de", "alle auf dem Startstein"),
]

# … and the same concepts in the glossary's terms, or a word that only looks alike, not.
KEPT = [
    ("cs", "Předejte klávesnici"),  # addressed to everyone at the keyboard
    ("cs", "kartu, kterou jsi odhodil(a)"),  # Czech discards: odhodit, odhazovací balíček
    ("sk", "-G7 na odloženie"),
    ("sk", "stolová hra, {count} hráči"),
    ("sk", "na ceste ešte je miesto"),
    ("hu", ">G a figura léptetéséhez"),
    ("hu", "a {colour} sorod növekvő"),
    ("hu", "lezáró kártya GX"),
    ("hu", "a zárókövön áll"),
    ("hu", "pontkártya *7 a pontkártyasorba"),
    ("hu", "félretéve: {count} lap"),
    ("pl", ">G, by przesunąć znacznik"),
    ("pl", "znacznik na {path:f2} drodze idzie do rzędu {row}"),
    ("pl", "każdy znacznik daje wartość swojego rzędu"),
    ("pl", "rzędy 7–9"),
    ("pl", "*7>G do twojej zielonej kolumny"),
    ("es", ">G para avanzar una pieza"),
    ("es", "pieza del camino {path} a la fila {row}"),
    ("es", "cada pieza da el valor de su fila"),
    ("es", "zona de meta (filas 7–9)"),
    ("es", "*7>G en tu hilera verde"),
    ("es", "una piedra de deseo"),
    ("es", "Solo hay una jugada posible"),
    ("sk", "Vezmi si kartu z hracieho balíčka."),
    ("sk", "Po získaní kameňa želaní si vezmeš dve karty"),
    ("pl", "Dobierz kartę"),
    ("pl", "Brak hello w ciągu {seconds} s"),  # "w ciągu": within
    ("pl", "Przeciąganie gry: nie wykonuje ruchu"),  # stalling
    ("pl", "Rozegraj prawdziwą partię albo przeczytaj zasady."),
    ("pl", "Zagraj w prawdziwą grę"),
    ("pl", "Zagraj kartę"),
    ("de", "9 Wunschsteine, 9 Kleeblätter und 7 Punktekärtchen"),
    ("de", "das Wegekärtchen bleibt liegen"),
    ("de", "Spieler G Y R P B ◆ Kärtchen Hand Punkte"),
    ("de", "alle auf dem Startfeld"),
    ("de", "eine Figur auf ihrem Endstein"),
    ("de", "Startwert {seed}"),
]


@pytest.mark.parametrize(("lang", "text"), STRAYS)
def test_a_replaced_word_is_found_in_its_inflected_forms(lang: str, text: str) -> None:
    assert _flagged(lang, text), text


@pytest.mark.parametrize(("lang", "text"), KEPT)
def test_the_glossary_term_is_not_flagged(lang: str, text: str) -> None:
    assert _flagged(lang, text) == [], text


def test_the_checker_reports_a_replaced_word() -> None:
    catalog = read_catalog("es")
    entry = catalog.get("Only one move is possible: {move} ({label})", context="msg.hint_only")
    assert entry is not None
    entry.string = "Solo hay un movimiento posible: {move} ({label})"
    assert glossary_problems(catalog, "es") == [
        "msg.hint_only: 'movimiento' – the glossary's word for move (a player's) is 'jugada'"
    ]


def test_the_checker_reads_the_header_comment_too() -> None:
    """The header names the catalog's terms: a replaced word there is reported."""
    catalog = read_catalog("de")
    assert glossary_problems(catalog, "de") == []
    catalog.header_comment += "\n# Punkteplättchen"
    assert glossary_problems(catalog, "de") == [
        "header: 'Punkteplättchen' – the glossary's word for point tile (board game) is "
        "'Punktekärtchen'"
    ]


# -- the glossary in docs/translating.md lists the same words ---------------------------------


def _glossary_tables() -> dict[str, list[list[str]]]:
    """The glossary's table rows (cells) per language, by the code in each heading."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## Glossary\n", 1)[1].split("\n## ", 1)[0]
    tables: dict[str, list[list[str]]] = {}
    lang = None
    for line in section.splitlines():
        heading = re.match(r"### .*\(`([a-z]{2})`\)", line)
        if heading:
            lang = heading.group(1)
            tables[lang] = []
        elif lang and line.startswith("|") and not re.match(r"\|\s*-", line):
            tables[lang].append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return {code: rows[1:] for code, rows in tables.items()}  # without the header row


def test_the_glossary_has_a_table_per_language() -> None:
    assert set(_glossary_tables()) == set(TRANSLATED)


CONCEPTS = [
    "card",
    "to draw",
    "card row (card game)",
    "path (board game)",
    "row (board game)",
    "figure",
    "big figure",
    "wish stone",
    "clover",
    "point tile (board game)",
    "point card (card game)",
    "closing card",
    "discard pile",
    "draw pile",
    "to discard",
    "rising / falling",
    "move (a player's)",
    "board game",
    "card game",
]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_glossary_names_every_concept(lang: str) -> None:
    concepts = {row[0] for row in _glossary_tables()[lang]}
    assert set(CONCEPTS) <= concepts


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_glossary_lists_the_replaced_words_of_the_data(lang: str) -> None:
    in_doc = {
        (row[0], word)
        for row in _glossary_tables()[lang]
        for word in re.findall(r"`([^`]+)`", row[-1])
    }
    in_data = {(r.concept, word) for r in REPLACED_TERMS[lang] for word in r.words}
    assert in_doc == in_data


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_replaced_word_is_found_by_its_own_pattern(lang: str) -> None:
    for replaced in REPLACED_TERMS[lang]:
        for word in replaced.words:
            # a card-row word is a stray only beside a colour (the board's rows keep it)
            text = {"rząd": "zielony rząd", "fila": "fila verde"}.get(word, word)
            assert re.search(replaced.pattern, text, re.IGNORECASE), (lang, word)


# -- Hungarian: a number takes no case ending of its own -----------------------------------


def test_hungarian_puts_no_case_ending_on_a_number() -> None:
    """An ending on a number ("a {total}-ből") must agree with the number as spoken, and
    its article too ("az 5-ből", "a 3-ból"): the catalog puts the ending on a noun."""
    numbers = r"\{(?:count|total|n|number|value|points|seconds|limit|ply|expected|turn)\}"
    for message in read_catalog("hu"):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            assert not re.search(numbers + r"-[^\W\d_]", text or ""), (message.context, text)


# -- speaking to a player of either sex (Czech, Slovak, Polish, Spanish) -----------------------

ONE_SEX = [  # the lessons' forms before issue 40, and the like
    ("cs", "Poznal jsi každý druh tahu."),
    ("cs", "Dohrál jsi svou první hru!"),
    ("cs", "Teď si lízni kartu, abys měl zase osm"),
    ("cs", "Vylož zelenou 6, kterou sis vzal."),
    ("cs", "Kartu, kterou jsi právě odhodil, si nesmíš vzít zpět"),
    ("cs", "jinak by mohl tah proběhnout, aniž bys hrál."),
    ("cs", "(vybíral jsi u tahu {expected}"),
    ("sk", "Spoznal si každý druh ťahu."),
    ("sk", "Dohral si svoju prvú hru!"),
    ("sk", "Teraz si vezmi kartu, aby si mal zase osem"),
    ("sk", "Vylož zelenú 6, ktorú si si vzal."),
    ("sk", "Kartu, ktorú si práve odložil, si nesmieš vziať späť"),
    ("pl", "Ukończyłeś swoją pierwszą grę!"),
    ("pl", "Wyłóż zieloną 6, którą wziąłeś."),
    ("pl", "karty, którą właśnie odrzuciłaś"),
    ("pl", "gdybyś mógł"),
    ("pl", "(wybierałeś przy ruchu {expected}"),
    ("pl", "będziesz miał osiem kart"),
    ("es", "Pulsa Intro cuando estés listo."),
    ("es", "¡Bienvenido a Keltis!"),
    ("es", "Bienvenida, {name}: tu cuenta está lista."),
]

EITHER_SEX = [
    ("cs", "Teď si lízni kartu, abys měl(a) zase osm"),
    ("cs", "Kartu, kterou jsi právě odhodil(a), si nesmíš vzít zpět"),
    ("cs", "Připojil(a) ses k nabídce."),
    ("cs", "První hru máš za sebou!"),
    ("cs", "Už znáš každý druh tahu. Hraj dál, jak chceš."),
    ("cs", "Keltis ti pošle e-mail, když jsi na tahu"),
    ("sk", "Teraz si vezmi kartu, aby si mal(a) zase osem"),
    ("sk", "Vylož zelenú 6, ktorú si si vzal(a)."),
    ("sk", "Pripojil(a) si sa k ponuke."),
    ("sk", "Keď si na ťahu, Keltis ti pošle e-mail."),
    ("sk", "Prvú hru máš za sebou!"),
    ("pl", "Pierwsza gra za tobą!"),
    ("pl", "Nie możesz wziąć z powrotem właśnie odrzuconej karty"),
    ("pl", "Wyłóż wziętą zieloną 6."),
    ("pl", "Gracz pociągnął kartę? Nie: dobrał."),  # the third person is no address
    ("es", "Pulsa Intro cuando quieras."),
    ("es", "¡Te damos la bienvenida a Keltis!"),
    ("es", "Tu cuenta está lista."),  # the account's, not the player's
]


def _one_sex(lang: str, text: str) -> bool:
    return bool(re.search(ONE_SEX_ADDRESS[lang], text, re.IGNORECASE))


@pytest.mark.parametrize("lang", sorted(ONE_SEX_ADDRESS))
def test_no_catalog_speaks_to_one_sex_only(lang: str) -> None:
    assert address_problems(read_catalog(lang), lang) == []


@pytest.mark.parametrize(("lang", "text"), ONE_SEX)
def test_a_form_for_one_sex_is_found(lang: str, text: str) -> None:
    assert _one_sex(lang, text), text


@pytest.mark.parametrize(("lang", "text"), EITHER_SEX)
def test_a_form_for_either_sex_is_not_flagged(lang: str, text: str) -> None:
    assert not _one_sex(lang, text), text


def test_the_checker_reports_a_form_for_one_sex() -> None:
    catalog = read_catalog("cs")
    entry = catalog.get("You finished your first game!", context="tutorial.done.title")
    assert entry is not None
    entry.string = "Dohrál jsi svou první hru!"
    assert address_problems(catalog, "cs") == [
        "tutorial.done.title: 'Dohrál jsi' fits a player of one sex only"
    ]


def test_the_conventions_are_written_in_the_guide() -> None:
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    assert "ONE_SEX_ADDRESS" in text
    for example in ("odhodil(a)", "odložil(a)", "Pierwsza gra za tobą!"):
        assert example in text, example


# -- wording a review found wrong ------------------------------------------------------------

BAD_WORDING = [  # (language, key, text): as the catalogs had them before issue 40
    ("es", "tutorial.board.big", "Al final puntúa el doble – también sus puntos negativos –, así"),
    ("es", "tutorial.cards.closing", "Cuando cinco hileras – contando las de todos – tienen"),
    ("es", "web.phase.board.clover", "una piedra – elige su piedra en el tablero – o pasar."),
    ("es", "tutorial.board.wish", "Su piedra tiene una piedra de deseo: te la quedas."),
    ("es", "rules.cards.wishes", "con otra tabla distinta de la del juego de tablero."),
    ("hu", "tutorial.cards.wish", "és vedd el a 4-es kívánságkövet."),
    ("hu", "tutorial.cards.wish", "Válaszd ki a sárga 4-est, aztán a kívánságkövet."),
    ("hu", "rules.cards.claim", "és elveszed az ugyanilyen értékű kívánságkövet"),
]

GOOD_WORDING = [
    ("es", "tutorial.board.big", "Al final puntúa el doble —también sus puntos negativos—, así"),
    ("es", "tutorial.cards.closing", "Cuando cinco hileras (contando las de todos) tienen"),
    ("es", "saved.line", "{when}  {game} – {players} – {count} jugadas, {state}"),
    (
        "es",
        "help.board",
        "pila de descartes – pero no la carta que acabas de descartar.",
    ),
    ("es", "tutorial.board.wish", "En su piedra hay una piedra de deseo: te la quedas."),
    ("es", "rules.cards.wishes", "con una tabla distinta de la del juego de tablero."),
    ("hu", "tutorial.cards.wish", "és vedd el a 4-es kívánságkő kártyát."),
    ("hu", "rules.cards.last", "Senki sem dob el, nem szerez kívánságkövet és nem húz."),
    ("hu", "rules.board.wish", "A kívánságkövet elveszed, és magad elé teszed."),  # a stone there
]


def _wording_flags(lang: str, key: str, text: str) -> list[str]:
    catalog = Catalog(locale=lang)
    catalog.add("x", text, context=key)
    return wording_problems(catalog, lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_catalog_uses_a_wording_found_wrong(lang: str) -> None:
    assert wording_problems(read_catalog(lang), lang) == []


@pytest.mark.parametrize(("lang", "key", "text"), BAD_WORDING)
def test_a_wording_found_wrong_is_flagged(lang: str, key: str, text: str) -> None:
    assert _wording_flags(lang, key, text), text


@pytest.mark.parametrize(("lang", "key", "text"), GOOD_WORDING)
def test_a_good_wording_is_not_flagged(lang: str, key: str, text: str) -> None:
    assert _wording_flags(lang, key, text) == [], text


def test_the_guide_names_the_wording_rules() -> None:
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    assert "WORDING" in text
    assert "—también sus puntos negativos—" in text
    assert "kívánságkő kártya" in text
