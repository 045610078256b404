"""Refused moves and unreadable input in the players' languages: every refusal the engines
and the notation reader raise carries a key and its values, and every language has its own
words for each key."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from keltis.core.actions import ALL_ACTIONS, Action
from keltis.core.card_codes import CARD_TEXT
from keltis.core.errors import IllegalActionError, KeltisError, NotationError
from keltis.core.protocol import EndReason
from keltis.core.refusals import REFUSALS
from keltis.games import GAME_NAMES, get_game
from keltis.i18n import LANGUAGES, Translator, template_fields
from keltis.messages import MESSAGES
from support import assert_translated, play

SRC = Path(__file__).resolve().parents[1] / "src" / "keltis"


def _keys(node: ast.expr) -> set[str]:
    """The refusal keys a ``key=`` argument can take."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _keys(node.body) | _keys(node.orelse)
    if isinstance(node, ast.JoinedStr):  # f"over_{reason.value}", f"not_a_move.{game}"
        first = node.values[0]
        assert isinstance(first, ast.Constant), ast.unparse(node)
        if first.value == "not_a_move.":
            return {f"not_a_move.{game}" for game in GAME_NAMES}
        assert first.value == "over_", ast.unparse(node)
        return {f"over_{reason.value}" for reason in EndReason}
    raise AssertionError(f"cannot read refusal key {ast.unparse(node)}")


def _refusal_calls(*parts: str) -> list[tuple[str, ast.Call]]:
    """Every ``IllegalActionError(…)`` and ``NotationError(…)`` in the source (under the
    sub-packages ``parts``, if given)."""
    calls = []
    for path in SRC.rglob("*.py"):
        if parts and path.relative_to(SRC).parts[0] not in parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in (
                "IllegalActionError",
                "NotationError",
                "GameOverError",
                "NotYourTurnError",
                "StaleActionError",
            ):
                calls.append((f"{path.name}:{node.lineno}", node))
    return calls


def _raised_keys() -> set[str]:
    keys: set[str] = set()
    for where, node in _refusal_calls():
        key = next((k.value for k in node.keywords if k.arg == "key"), None)
        assert key is not None, f"{where}: no key="
        if not isinstance(key, ast.Name):  # a helper's parameter: read at its calls
            keys |= _keys(key)
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "_wrong_phase":
                keys |= _keys(node.args[2])
            # a set-up error a person can cause (a variant typed in the browser) is worded
            # too; the others, for hand-made set-ups, keep their English
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "SetupError":
                for keyword in node.keywords:
                    if keyword.arg == "key":
                        keys |= _keys(keyword.value)
    return keys


def test_every_refusal_in_the_engines_has_words_and_every_word_is_used() -> None:
    raised = _raised_keys()
    english = set(REFUSALS)
    assert sorted(raised - english) == [], "raised but not worded"
    assert sorted(english - raised - {"over_goal"}) == [], "worded but never raised"
    assert {"over_goal", "game_over"} <= english
    assert all(f"refuse.{key}" in MESSAGES for key in english)


def test_the_engines_raise_no_second_english_wording() -> None:
    """The English of a refusal is its template in keltis.core.refusals: a raise site of the
    rules core names the rule (illegal moves) and the key, never its own text."""
    calls = _refusal_calls("core", "board", "cards")
    assert len(calls) > 40
    for where, node in calls:
        allowed = 1 if getattr(node.func, "id", "") == "IllegalActionError" else 0
        assert len(node.args) <= allowed, f"{where}: English text beside key="


def _sample_params(key: str) -> dict[str, str | int]:
    """Values for every field of refusal ``key``: a colour index, a seat, cards, numbers."""
    values: dict[str, str | int] = {}
    for name in template_fields(REFUSALS[key]):
        values[name] = {"colour": 3, "owner": 2, "value": 4, "end": 6}.get(name, "G7")
    return values


@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_str_error_is_the_english_catalog_wording(key: str) -> None:
    """One English wording: str(error) is what Translator("en") words, for every key."""
    params = _sample_params(key)
    errors: list[KeltisError] = [
        IllegalActionError("B-10", key=key, params=params),
        NotationError(key=key, params=params),
    ]
    for error in errors:
        english = Translator("en").refusal(error)
        assert str(error) == english
        assert "{" not in english, english
    illegal = errors[0]
    assert isinstance(illegal, IllegalActionError)
    assert str(illegal) == f"B-10: {illegal.detail}"
    assert illegal.detail == Translator("en")(f"refuse.{key}", **_english_values(params))


def _english_values(params: dict[str, str | int]) -> dict[str, object]:
    t = Translator("en")
    values: dict[str, object] = dict(params)
    if "colour" in values:
        values["colour"] = t.colour(int(values["colour"]))
    if "owner" in values:
        values["owner"] = t("name.player", n=int(values["owner"]) + 1)
    return values


def test_an_error_without_a_template_keeps_its_message() -> None:
    error = IllegalActionError("B-10", "something else", key="no_such_refusal")
    assert str(error) == "B-10: something else"
    assert error.detail == "something else"
    assert str(NotationError("plain")) == "plain"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["board", "cards"])
def test_refusals_met_in_random_games_are_translated(name: str) -> None:
    """Try every action of the dense index at states along seeded random games: each refused
    one is worded in every language."""
    game = get_game(name)
    seen: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_game(players=2 + seed % 3, seed=seed)
        while not state.over:
            if rng.random() < 0.15:
                for action in ALL_ACTIONS:
                    if state.is_legal(action):
                        continue
                    with pytest.raises(IllegalActionError) as caught:
                        state.check_action(action)
                    if caught.value.key not in seen:
                        assert_translated(caught.value)
                        seen.add(caught.value.key)
            state.apply(rng.choice(state.legal_actions()))
        with pytest.raises(IllegalActionError) as caught:
            state.check_action(ALL_ACTIONS[0])
        assert_translated(caught.value)
        seen.add(caught.value.key)
    common = {"not_in_hand", "row_ascending", "row_descending", "pile_empty"}
    assert common <= seen, sorted(common - seen)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "B-13: your red row is descending: 9 is higher than 5"),
        ("de", "B-13: deine rote Reihe fällt: 9 ist größer als 5"),
        ("cs", "B-13: tvoje červená řada klesá: 9 je více než 5"),
        ("sk", "B-13: tvoj červený rad klesá: 9 je viac ako 5"),
        ("es", "B-13: tu hilera roja es descendente: 9 es mayor que 5"),
        ("pl", "B-13: twoja czerwona kolumna maleje: 9 to więcej niż 5"),
        ("hu", "B-13: a piros sorod csökkenő: 9 nagyobb, mint 5"),
    ],
)
def test_a_board_refusal_in_each_language(lang: str, expected: str) -> None:
    error = IllegalActionError(
        "B-13", key="row_descending", params={"colour": 2, "value": 9, "end": 5}
    )
    assert Translator(lang).refusal(error) == expected
    if lang == "en":
        assert str(error) == expected


def test_colour_forms_follow_the_grammar() -> None:
    error = IllegalActionError("C-12", "…", key="pile_blocked", params={"colour": 1})
    assert Translator("cs").refusal(error).startswith("C-12: na žlutý odhazovací balíček")
    assert "pila amarilla" in Translator("es").refusal(error)
    error = IllegalActionError("C-11", "…", key="point_cannot_start", params={"colour": 4})
    assert Translator("pl").refusal(error).endswith("nie masz niebieskiej kolumny")
    assert Translator("cs").refusal(error).endswith("modrou řadu nemáš")
    assert Translator("de").refusal(error).endswith("du hast keine blaue Reihe")
    error = IllegalActionError("B-17", "…", key="no_figure", params={"colour": 0})
    assert Translator("de").refusal(error) == "B-17: du hast keine Figur auf dem grünen Pfad"


def test_taking_back_a_discard_is_refused_by_default_in_every_language() -> None:
    """B-15 forbids it by default now: no language calls it a variant any more."""
    error = IllegalActionError("B-15", key="no_take_back", params={"card": "G1"})
    assert str(error) == "B-15: you may not draw back the G1 you discarded this turn"
    for lang in LANGUAGES:
        text = Translator(lang).refusal(error).lower()
        assert "G1".lower() in text
        assert not any(word in text for word in ("variant", "varian", "wariant", "változat"))


def test_the_owner_of_a_wish_stone_is_named_like_on_screen() -> None:
    error = IllegalActionError("C-8", "…", key="stone_taken", params={"value": 5, "owner": 1})
    assert Translator("pl").refusal(error, lambda seat: f"Ola ({seat + 1})") == (
        "C-8: kamienia życzeń 5 już nie ma na stole: ma go Ola (2)"
    )
    assert Translator("en").refusal(error).endswith(": Player 2 has it")


def test_an_unknown_or_missing_key_keeps_the_english_text() -> None:
    plain = IllegalActionError("B-10", "G7 is not in your hand")
    assert Translator("hu").refusal(plain) == "B-10: G7 is not in your hand"
    assert Translator("de").refusal(plain) == "B-10: G7 is not in your hand"
    odd = IllegalActionError("B-10", "G7 is not in your hand", key="no_such_refusal")
    assert Translator("cs").refusal(odd) == "B-10: G7 is not in your hand"


def test_a_card_game_refusal_from_the_engine_in_czech() -> None:
    state = get_game("cards").new_game(players=2, seed=3)
    hand = state.hands[state.current_player]  # type: ignore[attr-defined]
    absent = next(CARD_TEXT[card] for card in range(55) if card not in hand)
    with pytest.raises(IllegalActionError) as caught:
        play(state, absent)
    assert caught.value.rule == "C-9"
    assert Translator("cs").refusal(caught.value) == f"C-9: {absent} nemáš v ruce"


@pytest.mark.parametrize(
    ("typed", "lang", "expected"),
    [
        ("xyz", "en", "not a move: type a card to lay it (G7)"),
        ("xyz", "cs", "to není tah: napiš kartu k vyložení (G7)"),
        ("-Q7", "sk", "„Q7“ nie je karta: písmeno farby"),
        ("wish G5 Y6", "es", "las dos cartas para una piedra de deseo deben tener el mismo valor"),
        ("wish G10 Y10", "pl", "kartą G10 nie można wziąć kamienia życzeń"),
        ("G7>Y", "hu", "más színű sorba csak pontkártya illeszthető (*7>G)"),
        (">Q", "cs", "„Q“ není barva: použij G, Y, R, P nebo B"),
        ("wish G5", "pl", "kamień życzeń bierze się za dwie karty, np. życzenie G5 *5"),
        ("", "hu", "nem írtál be semmit"),
        ("xyz", "de", "kein Zug: gib eine Karte zum Auslegen ein (G7)"),
        ("wish G5 Y6", "de", "die beiden Karten für einen Wunschstein müssen denselben Wert"),
    ],
)
def test_unreadable_input_is_explained_in_each_language(
    typed: str, lang: str, expected: str
) -> None:
    with pytest.raises(NotationError) as caught:
        Action.parse(typed)
    assert_translated(caught.value)
    assert Translator(lang).refusal(caught.value).startswith(expected)
