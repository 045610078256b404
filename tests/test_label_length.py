"""A button's label in another language is not far longer than its English: the browser
client's buttons sit in rows that must hold on a 360 px phone, and a label three times the
English ("A javasolt lépés megtétele" for "Play it") breaks its row.

The labels are found in the client's source: every message key inside a ``<button>``
element's children (not in its attributes, such as ``aria-label``, which no one sees)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from keltis.catalogs import TRANSLATED, read_catalog
from keltis.messages import MESSAGES

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web" / "src"

#: Other short labels measured the same way, each with where it stands.
ALSO = {"web.chat.players": "the chat box's heading, narrow on a phone"}

#: A label longer than the limit that stays, with the reason.
ALLOWED = {
    ("de", "web.chat.mute_short"): "Stummschalten, the usual word, one letter over",
    ("de", "web.moderation.mute"): "Stummschalten, the usual word, one letter over",
    ("hu", "web.account.log_in"): "Bejelentkezés, the usual word, alone in its row",
    ("es", "web.account.log_in"): "Iniciar sesión, the usual words, alone in its row",
    ("hu", "web.moderation.warn"): "Figyelmeztetés, the only word; the moderators' page",
    ("hu", "web.replay"): "Visszajátszás, the usual word for a replay",
}


def _opening_tag_end(text: str, start: int) -> int:
    """The index of the ``>`` that ends the tag opened before ``start`` (a ``>`` inside
    ``{…}``, such as an arrow function's, does not end it)."""
    depth = 0
    for index in range(start, len(text)):
        char = text[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == ">" and depth == 0:
            return index
    raise ValueError("unclosed tag")


def button_keys() -> dict[str, str]:
    """Every message key written inside a ``<button>``'s children, with its file."""
    keys: dict[str, str] = {}
    for path in sorted(WEB.glob("*.tsx")):
        text = path.read_text(encoding="utf-8")
        for found in re.finditer(r"<button\b", text):
            end = _opening_tag_end(text, found.end())
            body = text[end + 1 : text.index("</button>", end)]
            for key in re.findall(r'"([a-z]+\.[\w.]+)"', body):
                if key in MESSAGES:
                    keys.setdefault(key, path.name)
    return keys


def limit(english: str) -> int:
    """Twice the English, and at least 12 characters: a 4-letter English word's
    translation of a dozen letters ("Speichern", "Csatlakozás") still fits a phone row."""
    return max(2 * len(english), 12)


def _shown(template: str) -> str:
    return re.sub(r"\{[^}]*\}", "", template)  # a field's value is not the label's length


def too_long(lang: str, keys: list[str]) -> list[str]:
    catalog = {m.context: m for m in read_catalog(lang) if m.id}
    found = []
    for key in keys:
        entry = catalog.get(key)
        if entry is None or not entry.string:
            continue
        english = _shown(MESSAGES[key].english)
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for form in forms:
            if len(_shown(form)) > limit(english) and (lang, key) not in ALLOWED:
                found.append(f"{key}: {form!r} ({len(_shown(form))} for {english!r})")
    return found


def test_the_scan_finds_the_buttons() -> None:
    keys = button_keys()
    # the hint's "Play it", the chat's unmute, the settings' save, the lobby's join
    for key in ("web.hint.play", "web.chat.unmute_short", "web.settings.save", "web.lobby.join"):
        assert key in keys, key
    assert "web.chat.unmute" not in keys  # an aria-label, not the button's text


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_button_label_is_far_longer_than_its_english(lang: str) -> None:
    assert too_long(lang, sorted({*button_keys(), *ALSO})) == []


def test_the_check_flags_a_long_label() -> None:
    """The Hungarian "Play it" of before issue 40 (26 letters for 7) is flagged."""
    assert len("A javasolt lépés megtétele") > limit("Play it")
    assert len("Dejar de silenciar") > limit("Unmute")
    assert len("Chat de los jugadores") > limit("Chat")
    assert len("Zug spielen") <= limit("Play it")


def test_every_allowed_label_is_still_over_the_limit() -> None:
    """An allow-list entry that no longer needs to be there is removed."""
    for (lang, key), reason in ALLOWED.items():
        entry = read_catalog(lang).get(MESSAGES[key].english, context=key)
        assert entry is not None, (lang, key)
        assert isinstance(entry.string, str), (lang, key)
        assert len(_shown(entry.string)) > limit(MESSAGES[key].english), (lang, key, reason)
        assert key in button_keys(), key


def test_the_player_page_heads_a_players_ratings_not_the_leaderboard() -> None:
    """The player page's "Ratings" are that player's numbers: German and Hungarian said
    "Rangliste" / "Ranglista" (leaderboard), the header link's word, there."""
    source = (WEB / "ratings.tsx").read_text(encoding="utf-8")
    assert '<h2 id="player-ratings">{t.t("web.player.ratings")}</h2>' in source
    for lang in TRANSLATED:
        catalog = read_catalog(lang)
        own = catalog.get("Ratings", context="web.player.ratings")
        board = catalog.get("Ratings", context="web.ratings")
        assert own is not None, lang
        assert board is not None, lang
        assert own.string != board.string, lang
        assert not re.search(r"rangl|žebří|rebrí|clasific", own.string, re.IGNORECASE), lang
