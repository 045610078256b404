"""Building bots by spec: names, options, levels, and clear refusals."""

from __future__ import annotations

import pytest

from keltis.bots import BOTS, LEVELS, GreedyBot, HeuristicBot, IsmctsBot, make_bot, parse_spec


def test_every_registered_bot_builds() -> None:
    for name in BOTS:
        bot = make_bot(name, seed=3)
        assert bot.seed == 3
        assert bot.description


def test_search_options_reach_the_config() -> None:
    bot = make_bot("ismcts:iterations=50,playout=random,seconds=0.5,playout_rounds=none", 1)
    assert isinstance(bot, IsmctsBot)
    assert bot.config.iterations == 50
    assert bot.config.playout == "random"
    assert bot.config.seconds == 0.5
    assert bot.config.playout_rounds is None


def test_levels_have_names_and_build_their_bots() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard"]
    assert len({level.persona for level in LEVELS.values()}) == 3
    assert isinstance(make_bot("easy"), GreedyBot)
    assert isinstance(make_bot("medium"), HeuristicBot)
    hard = make_bot("hard", 2)
    assert isinstance(hard, IsmctsBot)
    assert hard.level == "hard"
    assert hard.seed == 2


def test_parse_spec() -> None:
    assert parse_spec(" ISMCTS : iterations=5 , width=3 ") == (
        "ismcts",
        {"iterations": "5", "width": "3"},
    )
    assert parse_spec("heuristic") == ("heuristic", {})


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("clever", "unknown bot 'clever'"),
        ("ismcts:depth=3", "ismcts has no option 'depth'"),
        ("ismcts:iterations=many", "iterations='many': expected"),
        ("ismcts:iterations=0", "iterations must be at least 1"),
        ("ismcts:iterations=none", "a search needs a budget"),
        ("ismcts:playout=smart", "playout must be 'heuristic' or 'random'"),
        ("ismcts:race=maybe", "race='maybe'"),
        ("heuristic:iterations=5", "bot 'heuristic' takes no options"),
        ("ismcts:iterations", "write key=value"),
    ],
)
def test_bad_specs_are_refused_with_a_reason(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        make_bot(spec)


def test_a_bot_refuses_to_move_without_legal_actions() -> None:
    from keltis.games import get_game

    view = get_game("board").new_game(2, seed=1).view(1)
    for name in BOTS:
        with pytest.raises(ValueError, match="no legal action"):
            make_bot(name).choose(view)
