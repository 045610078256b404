"""The words of moves in the player's language (issue 40 §2.1, §2.4, §2.10): a typed move that
is no move names only its own game's moves; the notation's words (draw, pass, big, small,
wish) are read in each language's words too and never shown in English outside English; the
winner is named in a form that fits any player."""

from __future__ import annotations

import re

import pytest

from keltis.core.card_codes import COLOUR_LETTERS
from keltis.core.errors import IllegalActionError, NotationError
from keltis.i18n import LANGUAGES, MOVE_WORDS, Translator
from keltis.match import Match
from keltis.messages import MESSAGES
from keltis.record import PlayerInfo

PEOPLE = [PlayerInfo("Ann"), PlayerInfo("Bo")]
OTHERS = [lang for lang in LANGUAGES if lang != "en"]
#: An English word of the notation, outside a message's {placeholders}.
ENGLISH_WORD = re.compile(r"\{[^}]*\}|\b(draw|pass|big|small|wish)\b")


def english_words(text: str) -> list[str]:
    return [m.group(1) for m in ENGLISH_WORD.finditer(text) if m.group(1)]


def forms(t: Translator, key: str) -> list[str]:
    return [t.template(key, n) or "" for n in (1, 2, 5)]


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_typed_move_that_is_no_move_names_only_this_games_moves(game: str) -> None:
    match = Match.new(game, PEOPLE, seed=1)
    with pytest.raises(NotationError) as refused:
        match.submit(0, "xyz")
    assert refused.value.key == f"not_a_move.{game}"
    for lang in LANGUAGES:
        t = Translator(lang)
        text = t.refusal(refused.value)
        words = t.move_words()
        if game == "cards":  # no figure, no path: the board game's moves are not said
            assert " >G" not in text, (lang, text)
            assert ">G," not in text, (lang, text)
            for word in (*words["big"], *words["small"]):
                assert not re.search(rf"\b{re.escape(word)}\b", text), (lang, word, text)
            assert words["wish"][0] in text, (lang, text)
        else:
            assert words["big"][0] in text, (lang, text)
            assert ">G" in text, (lang, text)
            assert words["wish"][0] not in text.split(), (lang, text)


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_move_word_in_any_translation(lang: str) -> None:
    t = Translator(lang)
    found = {
        key: english_words(text)
        for key in MESSAGES
        for text in forms(t, key)
        if english_words(text) and t.template(key) != MESSAGES[key].english
    }
    assert found == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_reads_its_own_words_and_the_notations(lang: str) -> None:
    t = Translator(lang)
    words = t.move_words()
    assert set(words) == set(MOVE_WORDS)
    seen: dict[str, str] = {}
    for notation, ours in words.items():
        for word in ours:
            assert word == word.strip()
            assert " " not in word
            assert seen.get(word.casefold(), notation) == notation, (word, seen)  # one meaning
            assert word.upper() not in COLOUR_LETTERS  # never a colour letter
            seen[word.casefold()] = notation
            assert t.typed_move(word) == notation
            assert t.typed_move(word.upper()) == notation
        assert t.typed_move(notation) == notation  # the notation is read in every language
        assert t.move_in_words(notation) == ours[0]
    assert t.typed_move(f"{words['draw'][0]} G") == "draw G"
    assert t.typed_move(f"  {words['wish'][0]} G5 *5") == "wish G5 *5"
    assert t.typed_move("G7") == "G7"
    assert t.typed_move("-G7") == "-G7"
    assert t.move_in_words("draw *") == f"{words['draw'][0]} *"
    assert t.move_in_words("G7") == "G7"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_typing_help_lists_the_words_this_language_reads(lang: str) -> None:
    t = Translator(lang)
    words = {notation: ours[0] for notation, ours in t.move_words().items()}
    help_of = {game: t(f"web.type_move.help.{game}") for game in ("board", "cards")}
    for notation in ("draw", "pass", "big", "small"):
        assert re.search(rf"\b{re.escape(words[notation])}\b", help_of["board"]), notation
    for notation in ("draw", "pass", "wish"):
        assert re.search(rf"\b{re.escape(words[notation])}\b", help_of["cards"]), notation
    assert f"{words['draw']} G" in t("web.type_move")


def test_a_refusal_repeats_the_refused_move_in_the_players_words() -> None:
    match = Match.new("board", PEOPLE, seed=1)
    with pytest.raises(IllegalActionError) as refused:
        match.submit(0, Translator("pl").typed_move("duży"))
    assert refused.value.params["action"] == "big"
    polish = Translator("pl").refusal(refused.value)
    assert polish.endswith("nie duży"), polish
    assert not english_words(polish)
    assert Translator("en").refusal(refused.value) == str(refused.value)


def test_the_winner_is_named_in_a_form_that_fits_any_player() -> None:
    # Masculine nouns that would call a woman "the winner (m)": "Lucía ★ ganador".
    masculine = {"cs": "vítěz", "sk": "víťaz", "pl": "zwycięzca", "es": "ganador"}
    for lang, noun in masculine.items():
        t = Translator(lang)
        for key in ("web.winner", "replay.winner", "end.winner"):
            assert noun not in (t.template(key) or "").casefold(), (lang, key)
