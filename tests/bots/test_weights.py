"""keltis.bots.weights: the heuristic and the search under weights read from a file
(``heuristic:weights=FILE``, ``ismcts:tuning=FILE``), as a tuning run writes them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from keltis.bots import make_bot
from keltis.bots.spec import BotSpecError
from keltis.bots.weights import (
    WeightsError,
    check_weights,
    heuristics,
    read_weights,
    tuning_of,
    weight_names,
    weights_of,
    weights_path,
)
from keltis.games import get_game

from .helpers import GAMES, positions


def _today(game: str) -> Any:
    return get_game(game).part("policy").DEFAULT_TUNING


def _write(tmp_path: Path, data: Any, name: str = "weights.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _choices(spec: str, game: str, seed: int = 3) -> list[Any]:
    """The bot's choices at the decisions of a seeded two-player game."""
    bot = make_bot(spec, seed=seed)
    return [
        bot.choose(state.view(state.current_player))
        for state in positions(game, 2, seed, every=7)
        if len(state.legal_actions()) > 1
    ]


@pytest.mark.parametrize("game", GAMES)
def test_todays_weights_from_a_file_play_as_the_heuristic_does(game: str, tmp_path: Path) -> None:
    today = _today(game)
    path = _write(tmp_path, {"game": game, "weights": weights_of(today)})
    found, tuning = read_weights(path)
    assert (found, weights_of(tuning)) == (game, weights_of(today))
    assert _choices(f"heuristic:weights={path}", game) == _choices("heuristic", game)


@pytest.mark.parametrize("game", GAMES)
def test_other_weights_reach_the_policy_the_scores_and_the_projection(
    game: str, tmp_path: Path
) -> None:
    today = _today(game)
    first = weight_names(game)[0]
    # a tuning run's tuned.json: the game in its settings; a weight left out keeps today's
    path = _write(tmp_path, {"settings": {"game": game}, "weights": {first: 0.05}})
    found, tuning = read_weights(path)
    assert (found, weights_of(tuning)) == (game, {**weights_of(today), first: 0.05})
    base, tuned = get_game(game).heuristics(), heuristics(game, path)
    states = [s for s in positions(game, 2, 5, every=5) if len(s.legal_actions()) > 1]
    for state in states:
        assert tuned.scores(state) == base.scores(state, tuning)  # type: ignore[call-arg]
        assert tuned.projection(state) == base.projection(state, tuning)  # type: ignore[call-arg]
        assert tuned.policy(state, random.Random(1)) == base.policy(  # type: ignore[call-arg]
            state, random.Random(1), tuning
        )
    assert any(tuned.projection(s) != base.projection(s) for s in states)
    assert _choices(f"heuristic:weights={path}", game) != _choices("heuristic", game)


@pytest.mark.parametrize("game", GAMES)
def test_the_search_plays_its_playouts_under_the_files_weights(game: str, tmp_path: Path) -> None:
    today = _today(game)
    same = _write(tmp_path, {"game": game, "weights": {}}, "same.json")
    other = _write(
        tmp_path,
        {"game": game, "weights": {k: 0.1 * v for k, v in weights_of(today).items()}},
        "other.json",
    )
    plain = _choices("ismcts:iterations=30,seconds=none", game)
    assert _choices(f"ismcts:iterations=30,seconds=none,tuning={same}", game) == plain
    assert _choices(f"hard:iterations=30,seconds=none,tuning={other}", game) != plain


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read the weights file"),
        ("not json", "cannot read the weights file"),
        ([1, 2], "holds no JSON object"),
        ({"weights": {}}, "names no game"),
        ({"game": "chess", "weights": {}}, "names no game"),
        ({"game": "cards"}, "has no 'weights' object"),
        ({"game": "cards", "weights": {"luck": 1.0}}, "has no weights luck"),
        ({"game": "cards", "weights": {"spread": "high"}}, "weights must be numbers: spread"),
        ({"game": "cards", "weights": {"spread": True}}, "weights must be numbers: spread"),
    ],
)
def test_a_bad_weights_file_is_refused_with_what_is_wrong(
    content: Any, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    with pytest.raises(WeightsError, match=message):
        read_weights(str(path))
    # a bot spec with it fails when the bot is made, not at its first move
    with pytest.raises((WeightsError, BotSpecError), match=message):
        make_bot(f"heuristic:weights={path}")
    with pytest.raises((WeightsError, BotSpecError), match=message):
        make_bot(f"hard:tuning={path}")


def test_weights_for_one_game_refuse_to_play_the_other(tmp_path: Path) -> None:
    path = _write(tmp_path, {"game": "board", "weights": {}})
    state = next(s for s in positions("cards", 2, 1, every=3) if len(s.legal_actions()) > 1)
    with pytest.raises(WeightsError, match="for the board game, not cards"):
        make_bot(f"heuristic:weights={path}", seed=1).choose(state.view(state.current_player))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_medium_level_plays_its_shipped_weights_for_each_count_of_players(
    game: str, players: int
) -> None:
    """``medium`` is ``heuristic:weights=medium``: each game and number of players has its
    file (keltis/data/weights-medium-<game>-<players>p.json), and the level plays it."""
    path = weights_path(game, "medium", players)
    found, tuning = read_weights(path)
    assert found == game
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    assert data["players"] == players
    assert weights_of(tuning_of(game, "medium", players)) == weights_of(tuning)
    level, by_file = make_bot("medium", seed=4), make_bot(f"heuristic:weights={path}", seed=4)
    chosen = 0
    for state in positions(game, players, 6, every=9):
        if len(state.legal_actions()) > 1:
            view = state.view(state.current_player)
            assert level.choose(view) == by_file.choose(view)
            chosen += 1
    assert chosen >= 5


def test_the_medium_set_differs_from_todays_heuristic_where_it_was_tuned() -> None:
    for game in GAMES:
        today = weights_of(get_game(game).part("policy").DEFAULT_TUNING)
        assert weights_of(tuning_of(game, "medium", 2)) != today


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_hard_level_plays_its_shipped_weights(game: str, players: int) -> None:
    """``hard`` searches with ``tuning=hard``: its playouts run on each game and number of
    players' file of the set (keltis/data/weights-hard-<game>-<players>p.json), tuned where
    the tuned weights made hard clearly stronger and the heuristic's own elsewhere; where a
    file keeps the heuristic's own, hard chooses as the search without weights does."""
    path = weights_path(game, "hard", players)
    found, tuning = read_weights(path)
    assert found == game
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    assert data["players"] == players
    assert data["source"]
    today = weights_of(get_game(game).part("policy").DEFAULT_TUNING)
    if data["weights"]:
        assert weights_of(tuning) != today
        assert data["measured"]["ci95"][0] > 0.5  # shipped only where clearly better
        return
    assert weights_of(tuning) == today
    state = next(s for s in positions(game, players, 8, every=11) if len(s.legal_actions()) > 1)
    view = state.view(state.current_player)
    level = make_bot("hard:iterations=60", seed=5)
    plain = make_bot("ismcts:iterations=60,playout_rounds=5", seed=5)
    assert level.choose(view) == plain.choose(view)


def test_the_hard_set_is_tuned_for_the_card_game_of_two() -> None:
    """Where hard with the medium level's weights measured clearly stronger (docs/bots.md,
    tuned-hard-vs-hard): the card game for two players."""
    assert weights_of(tuning_of("cards", "hard", 2)) == weights_of(tuning_of("cards", "medium", 2))
    board = get_game("board").part("policy").DEFAULT_TUNING
    assert weights_of(tuning_of("board", "hard", 2)) == weights_of(board)


def test_a_set_is_checked_for_every_game_and_count_of_players() -> None:
    check_weights("hard")
    check_weights("medium")
    with pytest.raises(WeightsError, match="cannot read"):
        check_weights("no-such-file.json")
