"""Building bots by spec: names, options, levels, and clear refusals — one grammar
(``keltis.bots.spec``) for ``make_bot``, the terminal's seats and the arena."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from keltis.bots import (
    BOTS,
    LEVELS,
    BotSpec,
    BotSpecError,
    GreedyBot,
    HeuristicBot,
    IsmctsBot,
    RandomBot,
    bot_list,
    find_level,
    make_bot,
)
from keltis.bots.ismcts import SearchConfig

SRC = Path(__file__).resolve().parents[2] / "src" / "keltis"


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


def test_options_are_read_as_their_declared_types() -> None:
    bot = make_bot("ismcts:seconds=2,exploration=1,race=false", 0)
    assert isinstance(bot, IsmctsBot)
    assert bot.config.seconds == 2.0
    assert isinstance(bot.config.seconds, float)
    assert isinstance(bot.config.exploration, float)
    assert bot.config.race is False


def test_levels_have_names_and_build_their_bots() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard"]
    assert len({level.persona for level in LEVELS.values()}) == 3
    assert isinstance(make_bot("easy"), GreedyBot)
    assert isinstance(make_bot("medium"), HeuristicBot)
    hard = make_bot("hard", 2)
    assert isinstance(hard, IsmctsBot)
    assert hard.level == "hard"
    assert hard.seed == 2
    assert hard.config == SearchConfig(iterations=800, playout_rounds=5, seconds=2.5, tuning="hard")


def test_the_learned_search_is_a_bot_for_research_not_a_level() -> None:
    """The learned search plays weaker than ``hard`` (docs/bots.md): it stays a bot of
    ``BOTS`` by name, and no level for people plays it."""
    from keltis.learn.search import LearnedSearchBot

    assert BOTS["learned-search"] is LearnedSearchBot
    # built without its network: the shipped weights load at the first decision
    assert isinstance(make_bot("learned-search", 4), LearnedSearchBot)
    assert all(BotSpec.parse(level.spec).target != "learned-search" for level in LEVELS.values())
    assert find_level("expert") is None
    assert find_level("Dagda") is None


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("hard", "hard"),
        ("HARD", "hard"),
        ("Morrigan", "hard"),
        ("morrigan", "hard"),
        (" Easy ", "easy"),
        ("BRIGID", "easy"),
        ("Fionn", "medium"),
        ("Medium", "medium"),
    ],
)
def test_levels_by_key_or_persona_in_any_case(text: str, level: str) -> None:
    spec = BotSpec.parse(text)
    assert spec.text == level  # the record keeps the level's key
    assert make_bot(text).level == level
    found = find_level(text)
    assert found is not None
    assert found.key == level


def test_bot_names_in_any_case() -> None:
    assert isinstance(make_bot("Greedy"), GreedyBot)
    assert isinstance(make_bot("RANDOM"), RandomBot)
    assert BotSpec.parse("ISMCTS : iterations=5 , width=3").text == "ismcts:iterations=5,width=3"


def test_a_level_takes_the_options_of_the_bot_behind_it() -> None:
    bot = make_bot("hard:seconds=2", 1)
    assert isinstance(bot, IsmctsBot)
    assert bot.level == "hard"
    # the level's budget stays, the option given replaces the level's own
    assert bot.config == SearchConfig(iterations=800, playout_rounds=5, seconds=2.0, tuning="hard")
    assert BotSpec.parse("Morrigan:seconds=2").text == "hard:seconds=2"
    assert BotSpec.parse("hard").option_names() == BotSpec.parse("ismcts").option_names()
    tuned = BOTS["hard"](3, iterations=20)  # the registry's level factory takes options too
    assert isinstance(tuned, IsmctsBot)
    assert tuned.config.iterations == 20
    assert tuned.level == "hard"


def test_make_bot_takes_import_paths() -> None:
    assert isinstance(make_bot("keltis.bots.base:RandomBot", 1), RandomBot)
    assert isinstance(make_bot(BotSpec.parse("greedy"), 1), GreedyBot)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("clever", "unknown bot 'clever': choose one of random, greedy, heuristic, ismcts, "),
        ("clever", "easy, medium, hard (levels also by name: Brigid, Fionn, Morrigan)"),
        ("ismcts:depth=3", "bot 'ismcts' has no option 'depth' (its options are iterations"),
        ("ismcts:iterations=abc", "ismcts option iterations: 'abc' is not a whole number"),
        ("ismcts:iterations=many", "ismcts option iterations: 'many' is not a whole number"),
        ("ismcts:iterations=1.5", "ismcts option iterations: '1.5' is not a whole number"),
        ("ismcts:seconds=soon", "ismcts option seconds: 'soon' is not a number"),
        ("hard:seconds=soon", "hard option seconds: 'soon' is not a number"),
        ("ismcts:race=maybe", "ismcts option race: 'maybe' is not true or false"),
        ("ismcts:iterations=0", "iterations must be at least 1"),
        ("ismcts:iterations=none", "a search needs a budget"),
        ("ismcts:playout=smart", "playout must be 'heuristic' or 'random'"),
        (
            "heuristic:iterations=5",
            "bot 'heuristic' has no option 'iterations' (its options are weights)",
        ),
        ("greedy:iterations=5", "bot 'greedy' has no option 'iterations' (it has none)"),
        ("medium:iterations=5", "bot 'medium' has no option 'iterations'"),
        ("ismcts:iterations", "options of bot 'ismcts' are written key=value"),
        ("ismcts:a=1,iterations", "bad option 'iterations'"),
        ("no_such_module_xyz:Bot", "cannot import 'no_such_module_xyz'"),
        ("keltis.bots.base:Nothing", "module 'keltis.bots.base' has no 'Nothing'"),
        ("keltis.bots.base:Bot", "is abstract"),
    ],
)
def test_bad_specs_are_refused_with_a_reason(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError) as raised:
        make_bot(spec)
    assert message in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_a_module_that_fails_on_import_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "broken_bots_xyz.py").write_text("raise RuntimeError('half written')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BotSpecError, match=r"importing 'broken_bots_xyz' .* half written"):
        make_bot("broken_bots_xyz:Bot")


def test_a_bot_module_in_the_current_directory_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "here_bots_xyz.py").write_text(
        "from keltis.bots import RandomBot\n\nclass Mine(RandomBot):\n    name = 'mine'\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".")])
    bot = make_bot("here_bots_xyz:Mine", 1)
    assert type(bot).__name__ == "Mine"


def test_the_bot_list_describes_every_bot_and_level() -> None:
    lines = bot_list()
    for name, factory in BOTS.items():
        line = next(line for line in lines if line.split()[0] == name)
        assert len(line.split()) > 2, line  # a description, not just the name
        level = LEVELS.get(name)
        if level is not None:
            assert level.persona in line
            assert level.description in line
        else:
            assert factory.description in line  # type: ignore[attr-defined]
    assert any("package.module:ClassName" in line for line in lines)


def test_bots_do_not_depend_on_the_arena() -> None:
    for path in (SRC / "bots").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("keltis.arena"), path
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("keltis.arena") for a in node.names), path


def test_a_bot_refuses_to_move_without_legal_actions() -> None:
    from keltis.games import get_game

    view = get_game("board").new_game(2, seed=1).view(1)
    for name in BOTS:
        with pytest.raises(ValueError, match="no legal action"):
            make_bot(name).choose(view)


def test_the_bot_list_names_a_bot_whose_optional_part_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A registered bot whose module cannot be imported here (an optional part such as
    keltis[fast] not installed) is listed as not installed, with the reason, and the list
    goes on (``keltis play --list-bots`` on a plain install)."""
    from keltis.bots import spec

    entries = dict(spec.BOTS._entries)
    entries["phantom"] = "keltis.no_such_part:PhantomBot"
    monkeypatch.setattr(spec.BOTS, "_entries", entries)
    lines = bot_list()
    phantom = next(line for line in lines if line.split()[0] == "phantom")
    assert "not installed here" in phantom
    assert "keltis.no_such_part" in phantom
    assert any(line.split()[0] == "hard" for line in lines if line.strip())
