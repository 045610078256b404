"""The guided first games (``keltis.server.tutorials``, docs/web.md "Learn to play"): each
set-up is a valid explicit set-up; each script holds against the engine with the tutorial's
fixed bot seeds — the bot moves as the server's workers make it move, every step's decision
comes at its ply with its move legal and its pointer naming a piece of that move — and the
game ends soon after the script; a real server (started without ``--allow-setup``) creates
the match by name and plays it the same way; a bad name or type is refused in the client's
language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from keltis.i18n import LANGUAGES, Translator
from keltis.match import Match
from keltis.messages import MESSAGES
from keltis.record import GameRecord, PlayerInfo
from keltis.server import workers
from keltis.server.tutorials import TUTORIALS, Tutorial, TutorialStep

from .harness import Server, create, player

PERSON = {"kind": "person"}
EASY = {"kind": "bot", "level": "easy"}


def new_match(lesson: Tutorial) -> Match:
    players = [PlayerInfo("You", "human"), PlayerInfo("Brigid", lesson.bot_level)]
    record = GameRecord.start(lesson.game, players, setup=lesson.setup)
    return Match(record, narrate=True, bot_seeds=list(lesson.bot_seeds))


def bots_move(match: Match, lesson: Tutorial) -> None:
    """The bot's moves until the player is to decide, chosen as the server's worker chooses
    them: from the record alone (its bot seeds in ``meta``)."""
    while not match.over and match.to_move != 0:
        action, _seconds = workers.choose(match.record.to_json(), match.to_move, lesson.bot_level)
        match.submit(match.to_move, action)


def check_pointer(match: Match, step: TutorialStep) -> None:
    """The step's pointer names a piece of its move."""
    legal = {str(a): a for a in match._state.legal_actions()}
    kind, _, what = step.point.partition(":")
    move = step.move
    if kind == "card":
        cards = move.replace("wish ", "").lstrip("-").split(">")[0].split()
        assert what in cards, (step, cards)
    elif kind == "pile":
        assert move == ("draw" if what == "deck" else f"draw {what}"), step
    elif kind == "prompt":
        assert move == what, step
    elif kind == "stone":
        assert move == f">{what[0]}", step
    else:
        raise AssertionError(f"unknown pointer {step.point}")
    assert move in legal


def play_script(lesson: Tutorial) -> Match:
    match = new_match(lesson)
    for step in lesson.steps:
        bots_move(match, lesson)
        assert not match.over, f"the game ended before {step}"
        assert (match.ply, match.to_move) == (step.ply, 0), step
        legal = [str(a) for a in match._state.legal_actions()]
        assert step.move in legal, (step, legal)
        check_pointer(match, step)
        done = match.submit(0, step.move)
        if step.point.startswith("stone:"):  # the stone pointed at is where the figure goes
            moved = [p for kind, p in done.events_for(0) if kind == "moved"]
            assert moved, step
            assert moved[-1]["row"] == int(step.point[7:]), step
    bots_move(match, lesson)
    return match


@pytest.mark.parametrize("name", sorted(TUTORIALS))
def test_the_script_holds_against_the_engine(name: str) -> None:
    lesson = TUTORIALS[name]
    match = play_script(lesson)
    assert match.over, "the game goes on after the script"
    # the same every time: the bot's moves depend on the fixed seeds only
    again = play_script(lesson)
    assert again.record.actions == match.record.actions


@pytest.mark.parametrize("name", sorted(TUTORIALS))
def test_the_script_is_data_with_messages(name: str) -> None:
    lesson = TUTORIALS[name]
    plies = [s.ply for s in lesson.steps]
    assert plies == sorted(set(plies))
    keys = {s.key for s in lesson.steps} | {lesson.done_key, lesson.free_key}
    for key in keys:
        assert key in MESSAGES, key
        assert key.startswith("tutorial.")
        for lang in LANGUAGES:  # every language has its own words for every step
            assert Translator(lang)(key), (lang, key)
    shown = lesson.to_json()
    assert set(shown) == {"name", "game", "steps", "done", "free"}  # never the deal
    for zone in ("hands", "setup", "discards", "tiles", "seeds"):
        assert zone not in str(shown)


def test_the_tutorials_have_short_set_ups() -> None:
    for lesson in TUTORIALS.values():
        record = GameRecord.start(
            lesson.game,
            [PlayerInfo("a", "human"), PlayerInfo("b", "easy")],
            setup=lesson.setup,
        )
        assert record.new_state() is not None
        assert len(lesson.setup["deck"]) <= 16
        assert len(lesson.bot_seeds) == 2


# -- through a real server (no --allow-setup) ------------------------------------------------


def bad(server: Server, body: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    with server.http() as http:
        answer = http.post("/api/matches", json=body, headers={"Accept-Language": lang})
    assert answer.status_code == 400, answer.text
    error: dict[str, Any] = answer.json()["error"]
    return error


def test_a_tutorial_is_created_by_name_and_plays_its_script(
    servers: Callable[..., Server],
) -> None:
    server = servers()
    with server.http() as http:
        listed = http.get("/api/tutorials").json()["tutorials"]
        assert {t["name"] for t in listed} == set(TUTORIALS)
        script = http.get("/api/tutorials/board").json()
        assert script == TUTORIALS["board"].to_json()
        missing = http.get("/api/tutorials/chess", headers={"Accept-Language": "de"})
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "tutorial.unknown"
        assert missing.json()["error"]["message"] == Translator("de")(
            "tutorial.unknown", name="chess"
        )
    for name, lesson in TUTORIALS.items():
        # the request's other fields do not change the lesson (game, seats, public)
        made = create(server, game="cards", seats=[PERSON, PERSON, PERSON], tutorial=name,
                      name="Ada", public=True)  # fmt: skip
        summary = made["match"]
        assert summary["game"] == lesson.game
        assert [s["kind"] for s in summary["seats"]] == ["person", "bot"]
        assert summary["seats"][1]["level"] == "easy"
        assert made["seat"] == 0
        assert made["token"]
        assert not made["invites"]
        with server.http() as http:
            public = http.get("/api/matches", params={"status": "running"}).json()["matches"]
        assert made["id"] not in {m["id"] for m in public}
        with player(server, made["id"], made["token"]) as me:
            for step in lesson.steps:
                while me.view.get("ply") != step.ply or not me.my_turn:
                    assert me.result is None, f"the game ended before {step}"
                    me.recv()
                assert step.move in [legal["notation"] for legal in me.view["legal"]], step
                # the view is the seat's own: the bot's hand is a count, never its cards
                assert "hand" not in me.view["players"][1] or me.view["players"][1]["hand"] is None
                me.act(step.move)
            while me.result is None:
                me.recv()


def test_bad_tutorial_requests_are_refused_in_the_clients_language(
    servers: Callable[..., Server],
) -> None:
    server = servers()
    body = {"seats": [PERSON, EASY]}
    unknown = bad(server, {**body, "tutorial": "chess"}, "cs")
    assert unknown["code"] == "tutorial.unknown"
    assert unknown["message"] == Translator("cs")("tutorial.unknown", name="chess")
    assert unknown["message"] != Translator("en")("tutorial.unknown", name="chess")
    for wrong in (5, ["board"], {"name": "board"}, True, "x" * 41):
        assert bad(server, {**body, "tutorial": wrong})["code"] == "server.bad_request"
    # the lesson's seats are its own: a request may leave them out (and still be refused
    # for an unknown lesson, not for the missing seats)
    assert bad(server, {"tutorial": "chess"})["code"] == "tutorial.unknown"
    # a name no lesson could have is refused before it is looked up, and never repeated
    control = bad(server, {"tutorial": "a\u0000b\u001bc"})
    assert control["code"] == "server.bad_request"
    assert "\u0000" not in control["message"]
    assert "\u001b" not in control["message"]
    with server.http() as http:
        missing = http.get("/api/tutorials/a%00b")
        assert missing.status_code == 400
        assert missing.json()["error"]["code"] == "server.bad_request"
        assert "\u0000" not in missing.json()["error"]["message"]
        unknown = http.get("/api/tutorials/chess%20board")
        assert unknown.status_code == 404
        assert unknown.json()["error"]["code"] == "tutorial.unknown"
    with server.http() as http:
        bare = http.post("/api/matches", json={"tutorial": "cards", "name": "Ada"})
        assert bare.status_code == 201, bare.text
        assert bare.json()["seat"] == 0
    # a tutorial does not open the way to a chosen deal
    with server.http() as http:
        seeded = http.post("/api/matches", json={**body, "tutorial": "board", "seed": 1})
        assert seeded.status_code == 403
        assert seeded.json()["error"]["code"] == "server.no_seed"
        set_up = http.post("/api/matches", json={**body, "tutorial": "board", "setup": {}})
        assert set_up.status_code in (400, 403)
