"""A deleted account's name (keltis.names): the stored sentinel ``(deleted)``, the same in
every language and never a player's own name, is read in the player's language wherever the
terminal shows a record's names (``keltis replay``), and the browser client holds the same
sentinel (web/src/names.ts)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from keltis.bots import make_bot
from keltis.catalogs import LANGUAGES
from keltis.i18n import Translator
from keltis.names import DELETED_NAME, is_deleted, reserved_name, shown_name
from keltis.record import GameRecord, PlayerInfo
from keltis.replay import replay_file
from keltis.server.accounts import NAME_PATTERN

ROOT = Path(__file__).resolve().parent.parent

#: What a German and a Polish player read in place of a deleted account's name.
DELETED_WORDS = {"de": "(gelöschtes Konto)", "pl": "(usunięte konto)"}


def test_the_sentinel_is_words_in_every_language() -> None:
    seen = set()
    for lang in LANGUAGES:
        words = shown_name(Translator(lang), DELETED_NAME)
        assert words, lang
        assert words != DELETED_NAME, lang
        seen.add(words)
    assert len(seen) == len(LANGUAGES)  # each language its own words
    for lang, words in DELETED_WORDS.items():
        assert shown_name(Translator(lang), DELETED_NAME) == words
    # any other name is shown as it is, one that merely looks like it too
    german = Translator("de")
    for name in ("Ada", "(Deleted)", "deleted", "(deleted) ", "bot:hard"):
        assert shown_name(german, name) == name
        assert not is_deleted(name)


def test_no_account_and_no_guest_can_be_named_as_the_sentinel() -> None:
    # an account's name is letters, digits, _ and -: no parentheses, so never the sentinel
    assert not NAME_PATTERN.fullmatch(DELETED_NAME)
    assert not NAME_PATTERN.fullmatch("(Ada)")
    assert NAME_PATTERN.fullmatch("Ada_1-b")
    # a guest's or a bot's name is free text, but not the sentinel in any spelling
    for name in (DELETED_NAME, "(DELETED)", "  (deleted) "):
        assert reserved_name(name), name
    for name in ("Ada (Praha)", "(deleted account)", "deleted", "(gelöschtes Konto)"):
        assert not reserved_name(name), name


def test_the_browser_client_holds_the_same_sentinel() -> None:
    source = (ROOT / "web" / "src" / "names.ts").read_text(encoding="utf-8")
    found = re.search(r'export const DELETED_NAME = "([^"]*)";', source)
    assert found is not None
    assert found.group(1) == DELETED_NAME


def _record_with_a_deleted_player(tmp_path: Path) -> Path:
    """A finished board game whose second seat's account was deleted (as the server's
    ``GET /api/matches/{id}/record`` gives it then)."""
    seats = [PlayerInfo("Ada", "human"), PlayerInfo(DELETED_NAME, "human")]
    record = GameRecord.start("board", seats, seed=4)
    state = record.new_state()
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    while not state.over:
        state.apply(bots[state.current_player].choose(state.view(state.current_player)))
    record.finish(state)
    return record.save(tmp_path / "deleted.json")


@pytest.mark.parametrize("lang", sorted(DELETED_WORDS))
def test_keltis_replay_names_a_deleted_player_in_the_readers_language(
    tmp_path: Path, lang: str
) -> None:
    path = _record_with_a_deleted_player(tmp_path)
    out = io.StringIO()
    replay_file(path, as_json=False, out=out, lang=lang)
    text = out.getvalue()
    assert DELETED_NAME not in text
    words = DELETED_WORDS[lang]
    lines = text.splitlines()
    # the seats, each move of that seat and the final table: all in words
    assert lines[2].startswith(
        f"  {Translator(lang)('replay.seat', seat=1, name=words, kind='human')}"
    )
    moves = [line for line in lines if re.match(r"\s+\d+\. ", line)]
    assert any(words in line for line in moves)
    assert all(("Ada" in line) != (words in line) for line in moves)
    assert any(line.strip().startswith(words) for line in lines[-3:])
