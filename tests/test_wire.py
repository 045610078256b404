"""The wire format: every view, step, game-info and record document validates against the
published schemas; actions carry notation, index and kind; previews say exactly what the
engine then does and never depend on hidden cards; events never name a hidden card."""

from __future__ import annotations

import random
from typing import Any

import pytest

from keltis.core.actions import Action
from keltis.core.card_codes import CARD_TEXT
from keltis.core.events import event_json
from keltis.games import GAME_NAMES, get_game
from keltis.match import Match
from keltis.record import GameRecord, PlayerInfo
from keltis.wire import DOCUMENTS, SCHEMAS, WIRE_VERSION, schema, validate
from support import random_states, rehide

PHASES = {
    "board": {"play", "figure", "clover", "overflow", "draw", "over"},
    "cards": {"play", "draw", "final", "over"},
}


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    from jsonschema import Draft202012Validator

    for name in SCHEMAS:
        data = schema(name)
        Draft202012Validator.check_schema(data)
        assert data["$id"].endswith(f"/{WIRE_VERSION}/{name}.schema.json")
    assert set(DOCUMENTS) < set(SCHEMAS)


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_of_every_seat_and_the_spectator_validate(game: str, players: int) -> None:
    seen: set[str] = set()
    for seed in range(1):
        for i, state in enumerate(random_states(game, players, seed)):
            # validation is slow: every 12th position, and the first of each phase
            if i % 12 and not state.over and state.phase_name in seen:
                continue
            seen.add(state.phase_name)
            for viewer in [*range(players), None]:
                view = state.view(viewer)
                data = view.to_json()
                validate("view", data)
                assert data["ply"] == len(state.history)
                assert bool(data["legal"]) == (viewer == state.current_player)
    assert seen <= PHASES[game]
    assert {"play", "draw", "over"} <= seen


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_phase_is_covered_by_the_golden_views(game: str) -> None:
    """The golden playthroughs (explicit end-game set-ups included) reach every phase; each
    stored view validates."""
    import json
    from pathlib import Path

    phases: set[str] = set()
    for path in sorted((Path(__file__).parent / "data" / game / "golden").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for i, step in enumerate(data["steps"]):
            for text in step["views"]:
                view = json.loads(text)
                if i % 5 and view["phase"] in phases:
                    continue  # validation is slow: every 5th step, the first of each phase
                if game == "board":
                    view["layout"] = data["layout"]
                validate("view", view)
                phases.add(view["phase"])
    assert phases == PHASES[game]


def test_an_invalid_view_is_refused_with_the_place_at_fault() -> None:
    data = get_game("board").new_game(2, seed=1).view(0).to_json()
    data["legal"][0]["index"] = 999
    with pytest.raises(ValueError, match="legal/0/index"):
        validate("view", data)
    data = get_game("cards").new_game(2, seed=1).view(None).to_json()
    data["hand"] = ["G7"]  # a spectator with a hand would still be shape-valid…
    validate("view", data)
    data["players"][0]["secret"] = 1  # …but no field outside the schema is
    with pytest.raises(ValueError, match="players/0"):
        validate("view", data)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_actions_carry_notation_index_and_kind(game: str) -> None:
    for state in random_states(game, 3, 7):
        if state.over:
            break
        view = state.view(state.current_player)
        for action, data in zip(view.legal, view.to_json()["legal"], strict=True):
            assert Action.parse(data["notation"]) == action
            assert view.actions.action(data["index"]) == action
            assert get_game(game).actions.index(action) == data["index"]
            assert data["kind"] == action.kind.name.lower()


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("seed", range(3))
def test_previews_say_what_the_engine_then_does(game: str, seed: int) -> None:
    """Each legal action applied to the *real* state: the score change, the end of the game,
    the decision that follows and the public events are those the preview announced."""
    rules = get_game(game)
    for i, state in enumerate(random_states(game, 3, seed)):
        if state.over or i % 3:
            continue
        me = state.current_player
        view = state.view(me)
        before = state.view(None)
        for action, preview in zip(view.legal, view.previews(), strict=True):
            after_state = state.clone()
            after_state.apply(action)
            after = after_state.view(None)
            score = getattr(after, "scores")[me] - getattr(before, "scores")[me]  # noqa: B009
            assert preview["score"] == score, action
            ended = after.over or getattr(before, "ender", -1) < 0 <= getattr(after, "ender", -1)
            assert preview["ends_game"] == ended, action
            same_turn = not after.over and after.current_player == me and after.turn == state.turn
            assert preview["next"] == (after.phase if same_turn else None), action
            events = [event_json(e) for e in rules.events(before, action, after)]
            assert preview["events"] == events, action


@pytest.mark.parametrize("game", GAME_NAMES)
def test_previews_never_depend_on_hidden_cards(game: str) -> None:
    rng = random.Random(3)
    checked = 0
    for i, state in enumerate(random_states(game, 4, 3)):
        if state.over or i % 5:
            continue
        me = state.current_player
        previews = state.view(me).previews()
        for _ in range(3):
            assert rehide(state, me, rng).view(me).previews() == previews
        checked += 1
    assert checked > 10


def test_board_preview_names_the_figure_and_the_tile_it_reaches() -> None:
    state = get_game("board").new_game(2, seed=1)
    view = state.view(0)
    lay = next(a for a in view.legal if str(a) == "Y6")
    preview = view.previews()[view.legal.index(lay)]
    path = "Y"
    tile = view.tiles[1][1]
    assert preview["figure"]["path"] == path
    assert (preview["figure"]["from"], preview["figure"]["to"]) == (0, 1)
    assert preview["figure"]["big"] is None  # big or small is the next decision
    assert preview["next"] == "figure"
    assert (preview["figure"]["tile"] is None) == (tile == 0)
    discard = view.previews()[view.legal.index(Action.parse("-Y6"))]
    assert discard["figure"] is None
    assert discard["next"] == "draw"


def test_card_preview_names_the_row_and_its_points() -> None:
    state = get_game("cards").new_game(2, seed=2)
    view = state.view(0)
    for action, preview in zip(view.legal, view.previews(), strict=True):
        if action.kind.name == "LAY" and action.target < 0 and action.card < 55:
            assert preview["row"]["length"] == 1
            assert preview["row"]["points"] == -4  # a one-card row scores -4
            assert preview["score"] == -4
            assert preview["next"] == "draw"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_step_events_never_name_a_card_the_receiver_may_not_see(game: str) -> None:
    record = GameRecord.start(game, [PlayerInfo(f"p{i}") for i in range(3)], seed=5)
    match = Match(record)
    rng = random.Random(5)
    drawn_seen = 0
    while not match.over:
        seat = match.to_move
        hand_before = list(match.view(seat).hand or ())
        step = match.submit(seat, rng.choice(match.view(seat).legal))
        for viewer in [0, 1, 2, None]:
            data = step.to_json(viewer)
            if step.ply % 7 == 0:
                validate("step", data)  # slow: every 7th step
            for event in data["events"]:
                if event["type"] == "draw_deck":
                    assert ("card" in event) == (viewer == seat)
                    if "card" in event:
                        hand_after = list(match.view(seat).hand or ())
                        for card in hand_before:
                            hand_after.remove(card)
                        assert [CARD_TEXT[c] for c in hand_after] == [event["card"]]
                        drawn_seen += 1
    assert drawn_seen > 10


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_info_validates_and_bounds_every_game(game: str, players: int) -> None:
    rules = get_game(game)
    info = rules.info(players)
    data = info.to_json()
    validate("game-info", data)
    assert data["short_name"] == f"keltis_{game}"
    assert data["num_distinct_actions"] == rules.actions.size == {"board": 124, "cards": 500}[game]
    for cap in (1, 3, 12):
        bound = rules.info(players, {"turn_cap": cap}).max_game_length
        for seed in range(25):
            state = rules.new_game(players, seed=seed, variant={"turn_cap": cap})
            state.play_random(random.Random(seed))
            assert len(state.history) <= bound
    assert info.max_game_length == rules.max_game_length(players, info.turn_cap)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_records_validate(game: str) -> None:
    match = Match.new(game, [PlayerInfo("a"), PlayerInfo("b")], seed=3)
    rng = random.Random(1)
    for _ in range(30):
        match.submit(match.to_move, rng.choice(match.view(match.to_move).legal))
    validate("record", match.record.to_json())
    explicit = GameRecord.start(game, [PlayerInfo("a"), PlayerInfo("b")], setup=_setup(game))
    validate("record", explicit.to_json())


def _setup(game: str) -> dict[str, Any]:
    return get_game(game).deal(2, 9)
