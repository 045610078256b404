"""The gettext catalogs: the template matches the source, every language's catalog is
complete and clean (no missing, untranslated, fuzzy or obsolete entry, no placeholder the
English lacks, the CLDR number of plural forms), they ship with the package, and the JSON
export for the browser words every message as Python does."""

from __future__ import annotations

import copy
import fnmatch
import gettext
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from keltis import catalogs
from keltis.catalogs import (
    EXTRACT_OPTIONS,
    TRANSLATED,
    catalog_json,
    extract,
    parse_colour,
    po_path,
    pot_path,
    problems,
    read_catalog,
)
from keltis.i18n import LANGUAGES, Translator
from keltis.messages import COLOUR_KEYS, MESSAGES

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def template() -> Catalog:
    return extract()


def _entries(catalog: Catalog) -> set[tuple[str | None, tuple[str, ...]]]:
    return {(m.context, tuple(m.id) if m.pluralizable else (m.id,)) for m in catalog if m.id}


def test_the_template_is_up_to_date_with_the_source(template: Catalog) -> None:
    """``python -m keltis.catalogs update`` (or ``pybabel extract``) was run after the last
    change of an English message."""
    with pot_path().open("rb") as handle:
        stored = read_po(handle)
    assert _entries(stored) == _entries(template)
    comments = {m.context: m.auto_comments for m in template if m.id}
    assert {m.context: m.auto_comments for m in stored if m.id} == comments


def test_pybabel_extract_with_the_documented_options_gives_the_template(tmp_path: Path) -> None:
    """The command of docs/translating.md, run by pybabel itself into a temporary directory,
    extracts what the stored template holds."""
    out = tmp_path / "keltis.pot"
    command = [sys.executable, "-m", "babel.messages.frontend", "extract", *EXTRACT_OPTIONS]
    subprocess.run(
        [*command, "-o", str(out), "src/keltis"], cwd=ROOT, check=True, capture_output=True
    )
    with out.open("rb") as fresh, pot_path().open("rb") as stored:
        assert _entries(read_po(fresh)) == _entries(read_po(stored))
    docs = " ".join((ROOT / "docs" / "translating.md").read_text(encoding="utf-8").split())
    for option in EXTRACT_OPTIONS:
        assert option.replace("--keyword=", "-k ") in docs.replace("\\ ", ""), option


def test_the_template_holds_every_message_by_its_key(template: Catalog) -> None:
    keys = {m.context for m in template if m.id}
    assert keys == set(MESSAGES)
    for msg in template:
        if msg.id:
            declared = MESSAGES[str(msg.context)]
            expected = (declared.english, declared.plural) if declared.plural else declared.english
            assert msg.id == expected


def test_the_languages_are_english_and_the_catalogs() -> None:
    assert set(LANGUAGES) == {"en", *TRANSLATED}
    for lang in TRANSLATED:
        assert po_path(lang).is_file(), lang


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalog_has_no_problems(lang: str, template: Catalog) -> None:
    assert problems(read_catalog(lang), template, lang) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_forms_are_the_cldr_rules_babel_knows(lang: str) -> None:
    catalog = read_catalog(lang)
    rule = get_plural(lang)
    assert (catalog.num_plurals, catalog.plural_expr) == (rule.num_plurals, rule.plural_expr)
    assert {"cs": 3, "sk": 3, "pl": 3, "de": 2, "es": 2, "hu": 1}[lang] == rule.num_plurals


# -- the checker finds each kind of defect ---------------------------------------------------


def _broken(lang: str, change: str) -> list[str]:
    catalog = copy.deepcopy(read_catalog(lang))
    template = extract()
    if change == "missing":
        catalog.delete("lays {card}", context="ev.lay")
    elif change == "untranslated":
        catalog.get("lays {card}", context="ev.lay").string = ""  # type: ignore[union-attr]
    elif change == "fuzzy":
        catalog.get("lays {card}", context="ev.lay").flags.add("fuzzy")  # type: ignore[union-attr]
    elif change == "obsolete":
        catalog.obsolete["old"] = catalog.get("lays {card}", context="ev.lay")  # type: ignore[assignment]
    elif change == "placeholder":
        catalog.get("lays {card}", context="ev.lay").string = "{carte}"  # type: ignore[union-attr]
    elif change == "spec":
        catalog.get("lays {card}", context="ev.lay").string = "{card:.2}"  # type: ignore[union-attr]
    elif change == "plural":
        entry = catalog.get("draw pile: {count} card", context="screen.deck")
        assert entry is not None
        entry.string = tuple(entry.string)[:2]
    elif change == "colour form":
        entry = catalog.get("discards {card}", context="ev.discard")
        assert entry is not None
        entry.string = "{card} {path:zz}"
    elif change == "colour forms differ":
        entry = catalog.get("green", context="colour.green")
        assert entry is not None
        entry.string = f"{entry.string} | extra: zzz"
    elif change == "extra":
        catalog.add("hello", "ahoj", context="no.such.key")
    return problems(catalog, template, lang)


@pytest.mark.parametrize(
    ("change", "found"),
    [
        ("missing", "ev.lay: missing"),
        ("untranslated", "ev.lay: untranslated"),
        ("fuzzy", "ev.lay: fuzzy"),
        ("obsolete", "ev.lay: obsolete entry"),
        ("placeholder", "ev.lay: placeholder(s) ['carte'] not in the English"),
        ("plural", "screen.deck: 2 plural forms, cs has 3"),
        ("colour form", "ev.discard: colour form(s) ['zz'] not given for all colours"),
        ("colour forms differ", "colour.*: each colour needs the same forms"),
        ("extra", "no.such.key: not in the template"),
    ],
)
def test_the_checker_finds(change: str, found: str) -> None:
    assert any(problem.startswith(found) for problem in _broken("cs", change)), found


def test_a_format_spec_is_allowed() -> None:
    assert _broken("cs", "spec") == []


def test_the_check_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert catalogs.main(["check"]) == 0
    assert capsys.readouterr().out == ""


# -- colour forms -----------------------------------------------------------------------------


def test_colour_forms_are_read_from_one_message() -> None:
    assert parse_colour("zelená | f2: zelené | z_m2: ze zeleného") == {
        "": "zelená",
        "f2": "zelené",
        "z_m2": "ze zeleného",
    }
    assert parse_colour("zöld") == {"": "zöld"}
    with pytest.raises(ValueError, match="form: word"):
        parse_colour("zelená | zelené")


# -- shipping ---------------------------------------------------------------------------------


def test_the_catalogs_are_package_data_and_babel_a_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = project["tool"]["setuptools"]["package-data"]["keltis"]
    package = ROOT / "src" / "keltis"
    shipped = [pot_path(), *(po_path(lang) for lang in TRANSLATED)]
    for path in shipped:
        relative = path.relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(relative, p) for p in patterns), relative
    dependencies = project["project"]["dependencies"]
    assert any(d.split(">")[0].strip().lower() == "babel" for d in dependencies)


def test_the_rules_core_needs_only_the_standard_library() -> None:
    """Babel is for the interface: the rules core and its English refusals load nothing
    outside the standard library."""
    code = (
        "import sys; before = set(sys.modules);"
        "import keltis.core.refusals, keltis.core, keltis.board, keltis.cards;"
        "from keltis.core.actions import Action;"
        "Action.parse('G7');"
        "new = {m.split('.')[0] for m in set(sys.modules) - before};"
        "third = new - set(sys.stdlib_module_names);"
        # keltis's own compiled code (mypyc's shared library), where keltis is compiled
        "print(sorted(m for m in third - {'keltis'} if not m.endswith('__mypyc')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# -- JSON for the browser ---------------------------------------------------------------------


def test_the_json_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert catalogs.main(["json", str(tmp_path)]) == 0
    written = capsys.readouterr().out.split()
    assert sorted(Path(p).name for p in written) == sorted(
        [f"{lang}.json" for lang in LANGUAGES] + ["index.json"]
    )
    index = json.loads((tmp_path / "index.json").read_text(encoding="utf-8"))
    assert index == LANGUAGES
    keys = set(MESSAGES) - set(COLOUR_KEYS)
    for lang in LANGUAGES:
        data = json.loads((tmp_path / f"{lang}.json").read_text(encoding="utf-8"))
        assert data["lang"] == lang
        assert set(data["messages"]) == keys
        assert len(data["colours"]) == 5
        assert re.fullmatch(r"[n0-9\s()=!<>&|%?:]*", data["plural"]["expr"]), "not JavaScript"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_json_words_every_message_as_python_does(lang: str) -> None:
    """What a browser computes from the JSON — the form by evaluating ``plural.expr``, the
    colour form by the format spec — is what the Translator says."""
    data = catalog_json(lang, LANGUAGES[lang])
    rule = gettext.c2py(data["plural"]["expr"])  # type: ignore[attr-defined]
    t = Translator(lang)
    for key, value in data["messages"].items():
        if isinstance(value, str):
            assert value == t.template(key), key
            continue
        assert len(value["forms"]) == data["plural"]["nplurals"], key
        assert value["count"] == MESSAGES[key].count
        for n in (0, 1, 2, 3, 4, 5, 12, 21, 22, 25):
            assert value["forms"][rule(n)] == t.template(key, n), (key, n)
    for index, forms in enumerate(data["colours"]):
        for form, word in forms.items():
            assert format(t.colour_name(index), form) == word
