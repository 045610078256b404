"""Bot specs: names, options, import paths and labels, and their errors."""

from __future__ import annotations

import arena_bots
import pytest

from keltis.arena.spec import BotSpec, BotSpecError, parse_bots, parse_value
from keltis.bots import GreedyBot, RandomBot


def test_plain_name() -> None:
    spec = BotSpec.parse("greedy")
    assert (spec.target, spec.options, spec.label) == ("greedy", (), "")
    assert not spec.is_import_path
    assert spec.name == spec.text == str(spec) == "greedy"
    assert isinstance(spec.build(3), GreedyBot)


def test_name_with_options_keeps_their_order_and_types() -> None:
    spec = BotSpec.parse("ismcts:iterations=200,c=0.7,fast=true,mode=deep,limit=none")
    assert spec.target == "ismcts"
    assert spec.options == (
        ("iterations", 200),
        ("c", 0.7),
        ("fast", True),
        ("mode", "deep"),
        ("limit", None),
    )
    assert spec.text == "ismcts:iterations=200,c=0.7,fast=true,mode=deep,limit=none"
    assert BotSpec.parse(spec.text) == spec


@pytest.mark.parametrize(
    ("text", "value"),
    [("12", 12), ("-3", -3), ("1.5", 1.5), ("False", False), ("null", None), ("abc", "abc")],
)
def test_option_values(text: str, value: object) -> None:
    assert parse_value(text) == value
    assert type(parse_value(text)) is type(value)


def test_import_path_with_and_without_options() -> None:
    plain = BotSpec.parse("arena_bots:FirstBot")
    assert plain.is_import_path
    assert plain.target == "arena_bots:FirstBot"
    assert plain.options == ()
    with_options = BotSpec.parse("arena_bots:FirstBot:pick=2")
    assert with_options.target == "arena_bots:FirstBot"
    assert with_options.options == (("pick", 2),)
    bot = with_options.build(5)
    assert type(bot).__name__ == "FirstBot"
    assert bot.pick == 2  # type: ignore[attr-defined]
    assert bot.seed == 5


def test_options_naming_fields_of_a_dataclass_parameter_fill_that_dataclass() -> None:
    bot = BotSpec.parse("arena_bots:ConfigBot:depth=3,verbose=true").build(0)
    assert bot.settings == arena_bots.Settings(depth=3, width=0.5)  # type: ignore[attr-defined]
    assert bot.verbose is True  # type: ignore[attr-defined]
    plain = BotSpec.parse("arena_bots:ConfigBot").build(0)
    assert plain.settings == arena_bots.Settings()  # type: ignore[attr-defined]
    with pytest.raises(
        BotSpecError, match=r"no option 'deep' \(its options are verbose, depth, width\)"
    ):
        BotSpec.parse("arena_bots:ConfigBot:deep=2").check()
    with pytest.raises(
        BotSpecError, match=r"bad options for bot .*depth must be at least 1, not 0"
    ):
        BotSpec.parse("arena_bots:ConfigBot:depth=0").check()


def test_option_names() -> None:
    assert BotSpec.parse("arena_bots:ConfigBot").option_names() == ["verbose", "depth", "width"]
    assert BotSpec.parse("arena_bots:FirstBot").option_names() == ["pick"]
    assert BotSpec.parse("random").option_names() == []


def test_import_path_of_a_library_bot() -> None:
    assert isinstance(BotSpec.parse("keltis.bots.base:RandomBot").build(1), RandomBot)


def test_labels() -> None:
    spec = BotSpec.parse("mine=arena_bots:FirstBot:pick=1")
    assert spec.label == "mine"
    assert spec.name == "mine"
    assert spec.text == "arena_bots:FirstBot:pick=1"
    assert str(spec) == "mine=arena_bots:FirstBot:pick=1"
    assert BotSpec.from_json(spec.to_json()) == spec
    assert BotSpec.parse("a=greedy").name == "a"


def test_same_bot_twice_needs_labels() -> None:
    with pytest.raises(BotSpecError, match=r"given twice.*a=greedy b=greedy"):
        parse_bots(["greedy", "greedy"])
    specs = parse_bots(["a=greedy", "b=greedy"])
    assert [s.name for s in specs] == ["a", "b"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty bot spec"),
        ("  ", "empty bot spec"),
        ("nosuchbot", "unknown bot 'nosuchbot': choose one of random, greedy"),
        ("greedy:depth", "options of bot 'greedy' are written key=value, e.g. greedy:depth="),
        ("greedy:a=1,depth", "bad option 'depth'"),
        ("greedy:a=1,a=2", "option 'a' is given twice"),
        ("a:b:c:d", "cannot read bot spec"),
        ("my-module.x:Bot", "bad import path"),
        ("arena_bots:1Bot", "bad import path"),
        ("no_such_module_xyz:Bot", "cannot import 'no_such_module_xyz'"),
        ("arena_bots:Missing", "module 'arena_bots' has no 'Missing'"),
        ("arena_bots:NotABot", "is not a subclass of keltis.bots.Bot"),
        ("keltis.bots.base:Bot", "is abstract"),
        ("greedy:depth=3", "bot 'greedy' has no option 'depth'"),
        ("arena_bots:FirstBot:pik=1", "has no option 'pik' \\(its options are pick\\)"),
        ("x y=greedy", "bad label"),
        ("mine=", "has a label but no bot"),
    ],
)
def test_bad_specs_are_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        BotSpec.parse(text).check()


def test_a_bot_refusing_its_options_is_reported_with_the_spec() -> None:
    spec = BotSpec.parse("arena_bots:FirstBot:pick=-1")
    spec.check()  # the option exists; its value is the bot's business
    with pytest.raises(BotSpecError, match="cannot build bot 'arena_bots:FirstBot:pick=-1': pick"):
        spec.build(0)


def test_the_arena_reads_the_same_grammar_as_make_bot() -> None:
    # one grammar: levels by key or persona in any case, with options for the bot behind them
    spec = BotSpec.parse("Morrigan:seconds=2")
    assert spec.text == "hard:seconds=2"
    bot = spec.build(1)
    assert bot.level == "hard"
    assert bot.config.seconds == 2.0  # type: ignore[attr-defined]
    assert BotSpec.parse("GREEDY").text == "greedy"
    assert isinstance(BotSpec.parse("Brigid").build(0), GreedyBot)
    from keltis.arena.spec import BotSpec as ArenaSpec
    from keltis.bots.spec import BotSpec as BotsSpec

    assert ArenaSpec is BotsSpec


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("arena_bots:FirstBot:pick=abc", "arena_bots:FirstBot option pick: 'abc' is not a whole"),
        ("arena_bots:ConfigBot:width=wide", "option width: 'wide' is not a number"),
        ("arena_bots:ConfigBot:verbose=2", "option verbose: '2' is not true or false"),
    ],
)
def test_option_values_are_checked_against_the_declared_types(text: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        BotSpec.parse(text).check()
