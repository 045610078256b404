"""One term per concept: no catalog uses a word its language's glossary replaced.

The words live in one place, :data:`keltis.catalogs.REPLACED_TERMS` (each with the pattern
that finds it, inflected forms included); the glossary of ``docs/translating.md`` lists the
same words in its "replaces" column, and ``python -m keltis.catalogs check`` reports a
catalog that uses one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from keltis.catalogs import (
    REPLACED_TERMS,
    TRANSLATED,
    Replaced,
    glossary_problems,
    read_catalog,
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
