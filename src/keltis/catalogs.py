"""The translation catalogs: gettext ``.po`` files managed with Babel, one per language.

``src/keltis/locale/keltis.pot`` is the template, extracted from the English declared in
:mod:`keltis.messages` and :mod:`keltis.core.refusals`; each translated language has
``src/keltis/locale/<lang>/LC_MESSAGES/keltis.po``. Every message's key is its
``msgctxt``, the English its ``msgid`` (and ``msgid_plural``); the plural forms and their
rule are the language's CLDR rules as Babel knows them (``Plural-Forms`` header).

The ``.po`` files are read at run time (:func:`translations`: ``read_po``, then ``write_mo``
into memory, then :class:`babel.support.Translations`), once per language and process. No
compiled ``.mo`` files are kept: there is nothing generated to fall out of step with the
``.po`` a translator edits, and reading a catalog takes a few milliseconds. Fuzzy entries
are not used (the English shows instead); :func:`problems` reports them.

``python -m keltis.catalogs`` (see ``docs/translating.md``):

* ``extract`` — write the template from the source (``pybabel extract`` with the options
  of :data:`EXTRACT_OPTIONS`);
* ``update`` — ``extract``, then merge the template into every language's catalog
  (``pybabel update``): new messages appear untranslated or fuzzy, removed ones obsolete;
* ``check`` — list every problem of every catalog (exit status 1 if any);
* ``json OUTDIR`` — write each language's catalog as JSON for the browser client.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from string import Formatter
from typing import Any, Final

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po
from babel.support import Translations

from keltis.messages import COLOUR_KEYS, MESSAGES

DOMAIN: Final = "keltis"
#: The package's catalogs (shipped as package data).
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
#: The source package and the extraction mapping (``pybabel extract -F``): in a checkout only.
SOURCE_DIR: Final = Path(__file__).resolve().parent
MAPPING_FILE: Final = SOURCE_DIR.parents[1] / "babel.cfg"

#: The languages of the interface, by code, each named in itself (``keltis.i18n`` and the
#: server offer them).
LANGUAGES: Final = {
    "en": "English",
    "de": "Deutsch",
    "cs": "Čeština",
    "sk": "Slovenčina",
    "hu": "Magyar",
    "pl": "Polski",
    "es": "Español",
}
#: The languages with a catalog (English is the source itself).
TRANSLATED: Final = ("de", "cs", "sk", "hu", "pl", "es")

#: The marker functions and where their key (context) and English (message) are.
KEYWORDS: Final = ("message:1c,2", "plural_message:1c,2,3", "refusal:1c,2")
TRANSLATOR_TAG: Final = "TRANSLATORS:"
#: ``pybabel extract`` options that give the same template as :func:`extract`.
EXTRACT_OPTIONS: Final = (
    "-F",
    "babel.cfg",
    "--no-default-keywords",
    *(f"--keyword={k}" for k in KEYWORDS),
    f"--add-comments={TRANSLATOR_TAG}",
    "--strip-comments",
    "--no-location",
    f"--project={DOMAIN}",
    "--copyright-holder=The keltis developers",
)

#: Message parameters that may hold a colour name (a format spec selects its form).
COLOUR_PARAMS: Final = ("onto", "path", "pile", "colour", "row")

#: A colour's msgstr: the plain name, then ``| form: word`` for each other form.
_FORM = re.compile(r"^\s*([A-Za-z0-9_]+)\s*:\s*(\S.*?)\s*$")


# -- the glossary: one term per concept ------------------------------------------------------


@dataclass(frozen=True)
class Replaced:
    """Words a language's glossary (``docs/translating.md``, "Glossary") replaced by the
    rulebook's ``term`` for a ``concept``: ``words`` as the glossary lists them, ``pattern``
    the regular expression (case-insensitive) that finds them, inflected forms included, in
    a translation."""

    concept: str
    term: str
    words: tuple[str, ...]
    pattern: str


_COLOURS_PL: Final = r"(?:zielon|żółt|czerwon|różow|niebiesk)\w*"
_COLOURS_ES: Final = r"(?:verdes?|amarill[ao]s?|roj[ao]s?|rosas?|azul(?:es)?)"

#: Per language, the words no translation may use (``problems`` reports each one found).
REPLACED_TERMS: Final[Mapping[str, tuple[Replaced, ...]]] = {
    "de": (
        Replaced(
            "point tile (board game)", "Punktekärtchen", ("Punkteplättchen",), r"\bpunkteplättchen"
        ),
        Replaced("path tile (board game)", "Wegekärtchen", ("Plättchen",), r"\bplättchen"),
        Replaced("start (board game)", "Startfeld", ("Startstein",), r"\bstartstein\w*"),
    ),
    "cs": (Replaced("you (one player)", "ty", ("jste", "napište"), r"\bjste\b|\bnapište\b"),),
    "sk": (
        Replaced("to discard", "odložiť", ("odhodiť", "odhodenie"), r"\bodhod\w*|\bodhadz\w*"),
        Replaced("board game", "stolová hra", ("dosková hra",), r"\bdoskov\w*"),
        Replaced("you (one player)", "ty", ("ste", "napíšte"), r"\bste\b|\bnapíšte\b"),
        Replaced("to draw", "vziať si", ("potiahnuť", "potiahnutie"), r"\bpotiah\w*"),
    ),
    "hu": (
        Replaced("figure", "figura", ("bábu",), r"\bbábu\w*"),
        Replaced("rising / falling", "növekvő / csökkenő", ("emelkedő",), r"\bemelked\w*"),
        Replaced(
            "closing card",
            "lezáró kártya",
            ("záró lap", "záró kártya"),
            r"\bzáró\s*(?:lap|kárty)\w*",
        ),
        Replaced("point card (card game)", "pontkártya", ("pontlap",), r"\bpontlap\w*"),
        Replaced("board game", "társasjáték", ("táblás játék",), r"\btáblás\s+játé\w*"),
        Replaced("cards out of the game", "félretéve", ("kivéve",), r"\bkivéve\b"),
    ),
    "pl": (
        Replaced("figure", "znacznik", ("pionek",), r"\bpion(?:ek|k\w*)"),
        Replaced(
            "card row (card game)",
            "kolumna",
            ("rząd",),
            rf"\b{_COLOURS_PL}\s+rz[ąę]d\w*|\brz[ąę]d\w*\s+(?:kart|{_COLOURS_PL})"
            r"|\btw\w+\s+rz[ąę]d\w*|\}\s*rz[ąę]d\w*",
        ),
        # "w ciągu" (within) and "przeciągać" (to drag on) are other words
        Replaced("to draw", "dobierać", ("pociągnąć", "ciągnąć"), r"\b(?:po)?ciągn\w*"),
        # "zagrać grę" lacks its "w": "zagrać w grę", or "rozegrać partię"
        Replaced(
            "to play a game", "rozegrać partię", ("zagrać grę",), r"\bzagra\w*\s+(?:\w+\s+)?grę\b"
        ),
    ),
    "es": (
        Replaced("figure", "pieza", ("figura",), r"\bfiguras?\b"),
        Replaced(
            "wish stone", "piedra de deseo", ("piedra de los deseos",), r"\bde\s+los\s+deseos\b"
        ),
        Replaced(
            "card row (card game)",
            "hilera",
            ("fila",),
            rf"\bfilas?\s+(?:{_COLOURS_ES}\b|de\s+(?:puntos|cartas)\b|\{{(?:onto|colour|row:))"
            r"|\btus?\s+filas?\b",
        ),
        Replaced("move (a player's)", "jugada", ("movimiento",), r"\bmovimientos?\b"),
    ),
}


def glossary_problems(catalog: Catalog, lang: str) -> list[str]:
    """Every translation of ``catalog`` that uses a word :data:`REPLACED_TERMS` lists for
    ``lang``, with the term to use instead; the header comment, which names the catalog's
    terms, too (as ``header``)."""
    found: list[str] = []
    for replaced in REPLACED_TERMS.get(lang, ()):
        for match in re.finditer(replaced.pattern, catalog.header_comment or "", re.IGNORECASE):
            found.append(
                f"header: {match.group(0)!r} – the glossary's word for {replaced.concept} "
                f"is {replaced.term!r}"
            )
    for message in catalog:
        if not message.id:
            continue
        for text in _strings(message):
            for replaced in REPLACED_TERMS.get(lang, ()):
                for match in re.finditer(replaced.pattern, text, re.IGNORECASE):
                    found.append(
                        f"{message.context}: {match.group(0)!r} – the glossary's word for "
                        f"{replaced.concept} is {replaced.term!r}"
                    )
    return found


# -- wording a review found wrong ----------------------------------------------------------


@dataclass(frozen=True)
class Wording:
    """A wording of one language that reads wrong (``pattern``, case-insensitive) and what
    to write instead; ``keys`` (a regular expression of message keys) limits it to some
    messages."""

    pattern: str
    instead: str
    keys: str = ""


#: Per language, the wordings no translation may use (``problems`` reports each one found).
WORDING: Final[Mapping[str, tuple[Wording, ...]]] = {
    "es": (
        # a spaced en dash on each side of words (not of fields: "{game} – {players} –")
        Wording(r"\s–\s[^–{}\n]+?\s–", "an aside between rayas (—así—) or in parentheses"),
        Wording(r"\btiene\s+una\s+piedra\s+de\s+deseo", "«en su piedra hay una piedra de deseo»"),
        Wording(r"\botra\s+tabla\s+distinta", "«una tabla distinta de…» (otra says it twice)"),
    ),
    "hu": (
        # the card game's rulebook: "magához veszi … a kívánságkő kártyát"
        Wording(
            r"\baz?\s+(?:[\w-]+\s+){0,2}kívánságkövet\b",
            "«kívánságkő kártyát», as the card game's rulebook says",
            keys=r"(?:tutorial|rules)\.cards\.|help\.cards$",
        ),
    ),
}


def wording_problems(catalog: Catalog, lang: str) -> list[str]:
    """Every translation of ``catalog`` that uses a wording :data:`WORDING` lists for
    ``lang``, with what to write instead."""
    found: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        for rule in WORDING.get(lang, ()):
            if rule.keys and not re.match(rule.keys, str(message.context)):
                continue
            for text in _strings(message):
                for match in re.finditer(rule.pattern, text, re.IGNORECASE):
                    words = " ".join(match.group(0).split())
                    found.append(f"{message.context}: {words!r} – write {rule.instead}")
    return found


# -- speaking to a player of either sex ------------------------------------------------------

#: Czech and Slovak: a past participle of the player ("odhodil", "měl") before or after its
#: auxiliary ("jsi", "sis", "abys"; Slovak "si", "aby si") in the same clause, without the
#: "(a)" that makes it fit a woman too.
_PARTICIPLE: Final = r"\b\w+l\b(?!\(a\))"
_CLAUSE: Final = r"[^.,;:!?–()\n]*?"

#: Per language, the pattern that finds a form that fits one sex only where a message speaks
#: to the player (docs/translating.md, "Glossary": Czech and Slovak write "(a)" forms or
#: neutral words, Polish and Spanish neutral words only).
ONE_SEX_ADDRESS: Final[Mapping[str, str]] = {
    "cs": rf"{_PARTICIPLE}\s+(?:jsi|sis|ses)\b"
    rf"|\b(?:jsi|sis|ses|abys|bys|kdybys)\b{_CLAUSE}{_PARTICIPLE}",
    "sk": rf"{_PARTICIPLE}\s+si\b|\b(?:si|aby\s+si|by\s+si)\b{_CLAUSE}{_PARTICIPLE}",
    # "ukończyłeś", "wzięłaś", "mógłbyś", "gdybyś mógł", "będziesz miał": each for one sex
    "pl": r"\b\w+(?:łeś|łaś|łbyś|łabyś)\b|\b(?:\w*byś|będziesz)\s+\w+ł[ao]?\b",
    # "¡Bienvenido!", "cuando estés listo": an adjective for the player (not the noun "la
    # bienvenida": "Te damos la bienvenida")
    "es": r"(?<!la )\bbienvenid[oa]s?\b"
    r"|\b(?:estés|estás|estar|seas|eres)\s+(?:list|preparad|segur|dispuest)[oa]s?\b",
}


def address_problems(catalog: Catalog, lang: str) -> list[str]:
    """Every translation of ``catalog`` that speaks to a player of one sex only
    (:data:`ONE_SEX_ADDRESS`)."""
    pattern = ONE_SEX_ADDRESS.get(lang)
    if pattern is None:
        return []
    found: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        for text in _strings(message):
            for match in re.finditer(pattern, text, re.IGNORECASE):
                words = " ".join(match.group(0).split())
                found.append(f"{message.context}: {words!r} fits a player of one sex only")
    return found


def pot_path() -> Path:
    return LOCALE_DIR / f"{DOMAIN}.pot"


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


# -- reading at run time -----------------------------------------------------------------


def read_catalog(lang: str) -> Catalog:
    """The catalog of ``lang`` as it is on disk."""
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


@functools.cache
def translations(lang: str) -> Translations:
    """The translations of ``lang`` (fuzzy entries left out), read once per process."""
    buffer = io.BytesIO()
    write_mo(buffer, read_catalog(lang))
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def parse_colour(text: str) -> dict[str, str]:
    """A colour's forms from its msgstr: ``{"": plain, form: word, …}``.

    ``"zelená | f2: zelené | f4: zelenou"`` → ``{"": "zelená", "f2": "zelené", "f4":
    "zelenou"}``. Raises ``ValueError`` on a part that is not ``form: word``."""
    plain, *others = text.split("|")
    forms = {"": plain.strip()}
    for part in others:
        found = _FORM.match(part)
        if found is None:
            raise ValueError(f"a colour form is written 'form: word', not {part.strip()!r}")
        forms[found.group(1)] = found.group(2)
    return forms


# -- extraction and update (in a checkout) -------------------------------------------------


def extract() -> Catalog:
    """The template from the source, as ``pybabel extract`` with :data:`EXTRACT_OPTIONS`
    writes it."""
    if not MAPPING_FILE.exists():
        raise FileNotFoundError(f"{MAPPING_FILE} not found: extraction needs a source checkout")
    with MAPPING_FILE.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)  # type: ignore[no-untyped-call]
    template = Catalog(project=DOMAIN, copyright_holder="The keltis developers", locale=None)
    found = extract_from_dir(
        SOURCE_DIR,
        method_map,
        options_map,
        keywords=parse_keywords(KEYWORDS),
        comment_tags=(TRANSLATOR_TAG,),
        strip_comment_tags=True,
    )
    for _filename, _lineno, text, comments, context in found:
        template.add(text, None, auto_comments=comments, context=context)
    return template


def write_catalog(catalog: Catalog, path: Path) -> None:
    """Write ``catalog`` as ``pybabel`` does (no locations, obsolete entries kept)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, omit_header=False, include_previous=False)


def update(langs: Sequence[str] = TRANSLATED) -> Catalog:
    """Extract the template, write it and merge it into each language's catalog."""
    template = extract()
    write_catalog(template, pot_path())
    for lang in langs:
        path = po_path(lang)
        if path.exists():
            catalog = read_catalog(lang)
            catalog.update(template)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project=DOMAIN)
            catalog.update(template)
        write_catalog(catalog, path)
    translations.cache_clear()
    return template


# -- checking -------------------------------------------------------------------------------


def fields(template: str) -> dict[str, set[str]]:
    """The fields of a ``str.format`` template, each with the format specs it is used with."""
    found: dict[str, set[str]] = {}
    for _, name, spec, _ in Formatter().parse(template):
        if name is not None:
            found.setdefault(name, set()).add(spec or "")
    return found


def _ids(message: Any) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


def _strings(message: Any) -> tuple[str, ...]:
    if isinstance(message.string, (list, tuple)):
        return tuple(message.string)
    return (message.string or "",)


def problems(catalog: Catalog, template: Catalog, lang: str) -> list[str]:
    """Everything wrong with ``catalog`` (language ``lang``) measured by ``template``: a
    message missing, untranslated, fuzzy or obsolete; a placeholder the English lacks; a
    wrong number of plural forms; a colour form a message asks for but a colour lacks; a
    word the glossary replaced (:func:`glossary_problems`); a form that fits a player of
    one sex only (:func:`address_problems`); a wording found wrong (:func:`wording_problems`)."""
    found: list[str] = []
    expected = get_plural(lang).num_plurals
    if catalog.num_plurals != expected:
        found.append(f"Plural-Forms: nplurals={catalog.num_plurals}, {lang} has {expected}")
    wanted = {(m.context, _ids(m)) for m in template if m.id}
    have = {(m.context, _ids(m)): m for m in catalog if m.id}
    for context, _ in sorted(wanted - set(have), key=str):
        found.append(f"{context}: missing")
    for context, ids in sorted(set(have) - wanted, key=str):
        found.append(f"{context}: not in the template ({ids[0]!r})")
    for message in catalog.obsolete.values():
        found.append(f"{message.context}: obsolete entry ({message.id!r})")
    colours: dict[str, set[str]] = {}
    for key, message in have.items():
        context = key[0] or "?"
        strings = _strings(message)
        if message.fuzzy:
            found.append(f"{context}: fuzzy")
        if not all(strings):
            found.append(f"{context}: untranslated")
            continue
        if message.pluralizable and len(strings) != expected:
            found.append(f"{context}: {len(strings)} plural forms, {lang} has {expected}")
        english: set[str] = set()
        for text in _ids(message):
            english |= set(fields(text))
        for text in strings:
            try:
                extra = set(fields(text)) - english
            except ValueError as error:
                found.append(f"{context}: not a format template ({error})")
                continue
            if extra:
                found.append(f"{context}: placeholder(s) {sorted(extra)} not in the English")
        if context.startswith("colour."):
            try:
                colours[context] = set(parse_colour(strings[0]))
            except ValueError as error:
                found.append(f"{context}: {error}")
    known = set.intersection(*colours.values()) if colours else set()
    if colours and any(forms != known for forms in colours.values()):
        found.append(f"colour.*: each colour needs the same forms ({sorted(known)} in all)")
    for key, message in have.items():
        for text in _strings(message):
            try:
                named = fields(text)
            except ValueError:
                continue
            for name, specs in named.items():
                if name in COLOUR_PARAMS and not specs <= known | {""}:
                    missing = sorted(specs - known - {""})
                    found.append(f"{key[0]}: colour form(s) {missing} not given for all colours")
    found.extend(glossary_problems(catalog, lang))
    found.extend(address_problems(catalog, lang))
    found.extend(wording_problems(catalog, lang))
    return found


# -- the browser ------------------------------------------------------------------------------


def catalog_json(lang: str, name: str) -> dict[str, Any]:
    """Language ``lang``'s messages as JSON data for the browser client.

    ``messages`` maps each key to its template, or for a plural message to ``{"count":
    parameter, "forms": [template per plural form]}``; ``plural`` is the gettext rule
    (``nplurals`` and ``expr``, a C expression over ``n`` that is also valid JavaScript:
    ``Number(eval(expr))`` is the index of the form); ``colours`` lists each colour's forms
    by name (``""``: the plain name). A missing or fuzzy translation is given in English."""
    catalog = read_catalog(lang) if lang != "en" else None
    nplurals = catalog.num_plurals if catalog else 2
    expr = catalog.plural_expr if catalog else "(n != 1)"
    messages: dict[str, Any] = {}
    for key, message in MESSAGES.items():
        if message.plural is None:
            english = [message.english]
        elif nplurals == 1:
            english = [message.plural]
        else:  # a fallback in English: its "one" form for the language's first form
            english = [message.english] + [message.plural] * (nplurals - 1)
        entry = catalog.get(message.english, context=key) if catalog else None
        forms = english
        if entry is not None and not entry.fuzzy and all(_strings(entry)):
            forms = list(_strings(entry))
        if message.plural is None:
            messages[key] = forms[0]
        else:
            messages[key] = {"count": message.count, "forms": forms}
    colours = [parse_colour(str(messages.pop(key))) for key in COLOUR_KEYS]
    return {
        "lang": lang,
        "name": name,
        "plural": {"nplurals": nplurals, "expr": expr},
        "colours": colours,
        "messages": messages,
    }


def export_json(outdir: Path, languages: Mapping[str, str]) -> list[Path]:
    """Write ``<lang>.json`` for each language and ``index.json`` (code → name) to
    ``outdir``; returns the files written."""
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    for lang, name in languages.items():
        path = outdir / f"{lang}.json"
        data = catalog_json(lang, name)
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written.append(path)
    index = outdir / "index.json"
    index.write_text(json.dumps(dict(languages), ensure_ascii=False, indent=1) + "\n", "utf-8")
    written.append(index)
    return written


# -- the command ------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m keltis.catalogs", description="Manage keltis's translation catalogs."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract", help="write locale/keltis.pot from the source")
    sub.add_parser("update", help="extract, then merge the template into every catalog")
    sub.add_parser("check", help="list the problems of every catalog")
    export = sub.add_parser("json", help="write every language's catalog as JSON")
    export.add_argument("outdir", type=Path)
    args = parser.parse_args(argv)
    if args.command == "extract":
        write_catalog(extract(), pot_path())
        print(pot_path())
    elif args.command == "update":
        update()
        print(f"updated {pot_path()} and {len(TRANSLATED)} catalogs")
    elif args.command == "check":
        template = extract()
        bad = 0
        for lang in TRANSLATED:
            for problem in problems(read_catalog(lang), template, lang):
                print(f"{po_path(lang)}: {problem}")
                bad += 1
        return 1 if bad else 0
    else:
        for path in export_json(args.outdir, LANGUAGES):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
