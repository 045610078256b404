"""The rules are worded twice: the specification (docs/rules/board.md, docs/rules/cards.md) and
the rules pages' ``rules.*`` messages a player reads (web/src/rules.tsx). The specification
is the source; the messages are its player's wording, and these tests hold them to it
(issue 40 §4.3): every number a rule's message says (a count, a value, a threshold) is one
that rule's entry in the specification says, and every translation says the English's
numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from keltis.catalogs import TRANSLATED, catalog_json
from keltis.messages import MESSAGES

ROOT = Path(__file__).resolve().parents[1]
RULES_PAGE = ROOT / "web" / "src" / "rules.tsx"
SPECIFICATION = [ROOT / "docs" / "rules" / "board.md", ROOT / "docs" / "rules" / "cards.md"]

#: Numbers in words, as the messages write small ones ("four small figures", "the first three
#: stones"). "one" and "first" are left out: in "one of your figures", "the first card" they
#: count nothing.
WORDS = {"zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
WORDS |= {"eight": 8, "nine": 9, "ten": 10}
ORDINALS = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}
ORDINALS |= {"eighth": 8, "ninth": 9, "tenth": 10}


def numbers(text: str) -> set[int]:
    """The numbers a text says, in digits or in words (signs, placeholders, rule ids and
    notation in backquotes left out)."""
    text = re.sub(r"\{[^}]*\}|`[^`]*`|\b[BC]-\d+\b", " ", text)
    found = {int(n) for n in re.findall(r"\d+", text)}
    for word in re.findall(r"[a-z]+", text.lower()):
        if word in WORDS:
            found.add(WORDS[word])
        elif word in ORDINALS:
            found.add(ORDINALS[word])
    return found


def rule_messages() -> dict[str, list[str]]:
    """Each rule's messages on the rules pages: the ``rules.*`` keys inside its ``<Rule>``
    block of rules.tsx (the tables' captions and headings left out: they have no numbers)."""
    source = RULES_PAGE.read_text(encoding="utf-8")
    found: dict[str, list[str]] = {}
    for block in re.finditer(r'<Rule ctx=\{ctx\} id="([BC]-\d+)"(.*?)</Rule>', source, re.S):
        keys = re.findall(r't\.t\("(rules\.[a-z_.]+)"', block.group(2))
        found.setdefault(block.group(1), []).extend(
            k for k in keys if not k.startswith("rules.table.")
        )
    return found


def specification() -> dict[str, str]:
    """Each rule's entry in the specification: its bullet (``- **B-4 …**``, with the lines
    indented under it: tables, notes) and its row of a decisions table (``| C-7 | …``)."""
    entries: dict[str, list[str]] = {}
    for path in SPECIFICATION:
        current: str | None = None
        for line in path.read_text(encoding="utf-8").splitlines():
            bullet = re.match(r"- \*\*([BC]-\d+)\b", line)
            row = re.match(r"\| ([BC]-\d+) \|", line)
            if bullet:
                current = bullet.group(1)
                entries.setdefault(current, []).append(line)
            elif row:
                current = None
                entries.setdefault(row.group(1), []).append(line)
            elif current and (line.startswith("  ") or not line):
                entries[current].append(line)
            else:
                current = None
    return {rule: "\n".join(lines) for rule, lines in entries.items()}


def test_every_rule_has_its_entry_and_its_words() -> None:
    messages = rule_messages()
    entries = specification()
    assert len(messages) == 24 + 19
    assert set(messages) <= set(entries), sorted(set(messages) - set(entries))
    assert all(messages.values()), [rule for rule, keys in messages.items() if not keys]


def test_a_rules_words_say_no_number_its_specification_does_not() -> None:
    entries = specification()
    wrong = []
    for rule, keys in rule_messages().items():
        said = numbers(entries[rule])
        for key in keys:
            extra = numbers(MESSAGES[key].english) - said
            if extra:
                wrong.append(f"{rule} {key}: {sorted(extra)} not in its entry")
    assert wrong == []


def test_the_check_finds_a_number_the_specification_does_not_say() -> None:
    """The check itself: a threshold changed in the words (8 cards → 7) is found."""
    entry = specification()["B-7"]
    assert numbers("each player gets 8") <= numbers(entry)
    assert not numbers("each player gets 7") <= numbers(entry)
    assert numbers("four small figures and one big figure, the first three stones") == {4, 3}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_translation_says_the_englishs_numbers(lang: str) -> None:
    """No number in digits that the English does not say (a language may write a small
    one in words, as "8 cards" in "osm karet")."""
    translated = catalog_json(lang, lang)["messages"]
    wrong = []
    for key, message in MESSAGES.items():
        if not key.startswith("rules.") or not isinstance(translated.get(key), str):
            continue
        english = set(re.findall(r"\d+", re.sub(r"\{[^}]*\}", " ", message.english)))
        theirs = set(re.findall(r"\d+", re.sub(r"\{[^}]*\}", " ", translated[key])))
        if not theirs <= english:
            wrong.append(f"{key}: {sorted(theirs)} for {sorted(english)}")
    assert wrong == []
