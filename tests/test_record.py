"""Game records: save/load round trips, replay, and clear errors for damaged records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keltis.bots import make_bot
from keltis.core.errors import RecordError
from keltis.record import VERSION, GameRecord, PlayerInfo, indented_json


def _played(seed: int = 5, players: int = 3) -> GameRecord:
    record = GameRecord.start(
        "board", [PlayerInfo(f"P{i}", "greedy") for i in range(players)], seed=seed
    )
    state = record.new_state()
    bots = [make_bot("greedy", seed * 10 + i) for i in range(players)]
    while not state.over:
        state.apply(bots[state.current_player].choose(state.view(state.current_player)))
    record.finish(state)
    return record


def test_round_trip_replays_to_the_same_state(tmp_path: Path) -> None:
    record = _played()
    path = record.save(tmp_path / "game.json")
    loaded, lines = GameRecord.load(path)
    assert loaded.to_json() == record.to_json()
    assert len(lines) == len(record.actions)
    assert loaded.replay().to_json() == record.replay().to_json()
    assert loaded.result == loaded.replay().outcome().to_json()


def test_actions_are_one_per_line_and_lines_are_found(tmp_path: Path) -> None:
    record = _played()
    text = record.dumps()
    _, lines = GameRecord.loads(text)
    source = text.splitlines()
    for i, line in enumerate(lines):
        assert source[line - 1].strip().strip(",") == json.dumps(record.actions[i])


def test_replay_upto_gives_the_intermediate_position() -> None:
    record = _played()
    state = record.replay(upto=7)
    assert len(state.history) == 7
    assert [str(a) for a in state.history] == record.actions[:7]


def test_explicit_setup_record_round_trips() -> None:
    hands = [
        ["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"],
        ["Y1"] * 2 + ["Y2"] * 2 + ["Y3"] * 2 + ["Y4"] * 2,
    ]
    record = GameRecord.start("board", [PlayerInfo("A"), PlayerInfo("B")], setup={"hands": hands})
    state = record.new_state()
    state.apply_text("G1")
    record.finish(state)
    again, _ = GameRecord.loads(record.dumps())
    assert again.replay().to_json() == state.to_json()


def test_illegal_action_names_its_line_number_and_rule() -> None:
    record = _played()
    text = record.dumps()
    data = json.loads(text)
    # Seat 0's first action was legal; make the tenth action something impossible.
    data["actions"][9] = "big" if data["actions"][9] != "big" else "pass"
    bad = json.dumps(data, indent=2)
    loaded, lines = GameRecord.loads(bad)
    with pytest.raises(RecordError, match=r"^line \d+, action 10: ") as caught:
        loaded.replay(lines=lines)
    assert caught.value.action == 10
    assert caught.value.line == lines[9]
    assert "is illegal: B-" in str(caught.value)


def test_unreadable_action_is_named() -> None:
    record = _played()
    record.actions[3] = "G77"
    loaded, lines = GameRecord.loads(record.dumps())
    with pytest.raises(RecordError, match=r"action 4: 'G77'"):
        loaded.replay(lines=lines)


def test_action_after_the_end_is_refused() -> None:
    record = _played()
    record.actions.append("draw")
    with pytest.raises(RecordError, match="after the end of the game"):
        record.replay()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "line 1: not valid JSON"),
        ("[]", "a record is a JSON object"),
        ('{"format": "chess"}', "not a keltis record"),
        ('{"format": "keltis-record", "version": "1"}', "version"),
        (f'{{"format": "keltis-record", "version": {VERSION + 1}}}', "newer than this keltis"),
        ('{"format": "keltis-record", "version": 1, "game": "go"}', '"game" must be one of'),
        (
            '{"format": "keltis-record", "version": 1, "game": "board", '
            '"players": [{"name": "a"}]}',
            "2-4 seats",
        ),
        (
            '{"format": "keltis-record", "version": 1, "game": "board", '
            '"players": [{"name": "a"}, {"name": "b"}], "setup": {}}',
            '"setup" must be',
        ),
        (
            '{"format": "keltis-record", "version": 1, "game": "board", '
            '"players": [{"name": "a"}, {"name": "b"}], "setup": {"seed": 1}, "actions": [1]}',
            "action 1 is not a text",
        ),
    ],
)
def test_damaged_records_are_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.loads(text)


def test_bad_explicit_setup_is_refused_as_a_record_error() -> None:
    record = GameRecord(
        game="board",
        players=[PlayerInfo("a"), PlayerInfo("b")],
        setup={"hands": [["G1"] * 8, ["G2"] * 8]},
    )
    with pytest.raises(RecordError, match=r"bad set-up: .*2 copies"):
        record.new_state()


def test_save_is_atomic_and_creates_folders(tmp_path: Path) -> None:
    record = _played()
    target = record.save(tmp_path / "a" / "b" / "game.json")
    assert target.exists()
    assert not list(target.parent.glob("*.tmp"))


_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=6)
    | st.sampled_from(["é", '"', "\\", "\n", "\x00", "\u2028", "😀"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=4), inner, max_size=4)
        | st.dictionaries(st.integers(), inner, min_size=1, max_size=2)  # keys json converts
        | st.tuples(inner, inner)
    ),
    max_leaves=20,
)


@given(_JSON_VALUES)
def test_indented_json_is_the_standard_text(value: object) -> None:
    assert indented_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_record_is_written_as_the_standard_indented_json(game: str) -> None:
    record = GameRecord.start(game, [PlayerInfo("Ærn", "random"), PlayerInfo("b")], seed=8)
    match_state = record.new_state()
    bot = make_bot("random", 2)
    while not match_state.over:
        action = bot.choose(match_state.view(match_state.current_player))
        match_state.apply(action)
        record.actions.append(str(action))
    record.finish(match_state)
    assert record.dumps() == json.dumps(record.to_json(), indent=2, ensure_ascii=False) + "\n"


def test_indented_json_refuses_what_json_refuses() -> None:
    with pytest.raises(TypeError):
        indented_json({"a": [object()]})
