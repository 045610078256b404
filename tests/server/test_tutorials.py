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


# -- what the steps say is true in the scripted position ------------------------------------

View = dict[str, Any]
#: A check of what a step's message states about the position: the player's view before the
#: step's move and right after it (before the bot answers).
Check = Callable[[View, View], None]


def mine(view: View) -> dict[str, Any]:
    player: dict[str, Any] = view["players"][0]
    return player


def colour_count(view: View, colour: str) -> int:
    """Cards of ``colour`` the player has for that path or row: laid, in the hand, and on top
    of the colour's discard pile."""
    pile = view["discards"][colour]
    in_hand = sum(card[0] == colour for card in view["hand"])
    return len(mine(view)["rows"][colour]) + in_hand + (bool(pile) and pile[-1][0] == colour)


def tile(view: View, path: str, board: View | None = None) -> str:
    """The tile on the stone where the player's figure on ``path`` stands in ``view`` (``.``
    for none), as ``board`` shows the tiles (default ``view``: a wish stone taken is gone)."""
    row = mine(view)["positions"][path]
    return str((board or view)["tiles"][path][row - 1]) if row else "."


def board_start_row(before: View, after: View) -> None:
    # "Start your green row … it brings one of your figures onto the green path"
    assert not mine(before)["rows"]["G"]
    assert mine(after)["rows"]["G"] == ["G3"]
    assert after["phase"] == "figure"
    assert after["current_player"] == 0


def board_big(before: View, after: View) -> None:
    # "the path with the most cards for it: green, with the 5 and the 9 in your hand and the
    # 6 on the green discard pile"
    assert {"G5", "G9"} <= set(before["hand"])
    assert before["discards"]["G"][-1] == "G6"
    green = colour_count(before, "G")
    assert all(green > colour_count(before, c) for c in "YRPB"), before["hand"]
    assert mine(after)["big"] == "G"


def board_rising(before: View, after: View) -> None:
    # "your green row now rises … Each card moves your figure one stone forward"
    assert mine(after)["directions"]["G"] == "ascending"
    assert mine(after)["positions"]["G"] == mine(before)["positions"]["G"] + 1


def board_clover(before: View, after: View) -> None:
    # "Your figure reached a clover: you may move one of your figures one more stone"
    assert before["phase"] == "clover"
    assert tile(before, "G") == "C"
    assert mine(after)["positions"]["G"] == mine(before)["positions"]["G"] + 1


def board_draw_pile(before: View, after: View) -> None:
    # "The green 6 fits your rising green row: take it from the green discard pile"
    row = mine(before)["rows"]["G"]
    assert before["discards"]["G"][-1] == "G6"
    assert mine(before)["directions"]["G"] == "ascending"
    assert int(row[-1][1:]) <= 6
    assert "G6" in after["hand"]


def board_wish(before: View, after: View) -> None:
    # "Start a second row … Only small figures are left … Its stone holds a wish stone"
    assert not mine(before)["rows"]["Y"]
    assert mine(before)["big"] is not None
    assert tile(after, "Y", before) == "W"
    assert tile(after, "Y") == "."
    assert mine(after)["wishes"] == mine(before)["wishes"] + 1


def board_points(before: View, after: View) -> None:
    # "Your big figure reaches a point tile: its points are yours at once (not doubled)"
    assert mine(before)["big"] == "G"
    points = tile(after, "G")
    assert points.isdigit()
    assert mine(after)["tile_points"] == mine(before)["tile_points"] + int(points)


def board_discard(before: View, after: View) -> None:
    # "The red 1 would start a red row on the first stones"
    assert "R1" in before["hand"]
    assert not mine(before)["rows"]["R"]


def board_no_take_back(before: View, after: View) -> None:
    # "You may not take back the card you have just discarded"
    assert before["discards"]["R"][-1] == "R1"
    assert "draw R" not in [legal["notation"] for legal in before["legal"]]


def board_last(before: View, after: View) -> None:
    # "Only one card is left in the draw pile … lay the green 8: your big figure moves on"
    assert before["deck_size"] == 1
    assert mine(after)["positions"]["G"] == mine(before)["positions"]["G"] + 1


def last_card_ends(before: View, after: View) -> None:
    # "draw the last card: the game ends"
    assert before["deck_size"] == 1
    assert after["deck_size"] == 0
    assert after["over"] or after["phase"] == "final"


def hand_full(before: View, after: View) -> None:
    # "draw …, so that you hold eight again" / "Fill your hand up again"
    assert len(before["hand"]) == 7
    assert len(after["hand"]) == 8


def rising(colour: str) -> Check:
    def check(before: View, after: View) -> None:
        # "After the 3 your green row now rises"
        assert mine(before)["directions"][colour] == "open"
        assert mine(after)["directions"][colour] == "ascending"

    return check


def falling(colour: str) -> Check:
    def check(before: View, after: View) -> None:
        # "After the 8 your yellow row now falls"
        assert mine(after)["directions"][colour] == "descending"

    return check


def row_points(view: View, colour: str) -> int:
    return int(mine(view)["parts"]["rows"][colour])


def cards_start_row(before: View, after: View) -> None:
    # "it starts your green row … one card costs 4 points"
    assert not mine(before)["rows"]["G"]
    assert mine(after)["rows"]["G"] == ["G3"]
    assert row_points(after, "G") == -4


def cards_point_on_row(before: View, after: View) -> None:
    # "lay your point card 5 on the green 5. It counts as one more card of that row"
    assert mine(before)["rows"]["G"][-1] == "G5"
    assert len(mine(after)["rows"]["G"]) == len(mine(before)["rows"]["G"]) + 1
    assert row_points(after, "G") > row_points(before, "G")


def cards_point_row(before: View, after: View) -> None:
    # "each card there is worth 1 point"
    assert mine(after)["parts"]["point_row"] == mine(before)["parts"]["point_row"] + 1


def cards_longer(before: View, after: View) -> None:
    # "your green row grows, and a longer row scores more"
    assert row_points(after, "G") > row_points(before, "G")


def cards_wish(before: View, after: View) -> None:
    # "discard your yellow 4 and red 4 to claim wish stone 4"
    assert 4 in before["wish_row"]
    assert 4 not in mine(before)["wish_stones"]
    assert 4 in mine(after)["wish_stones"]


def cards_draw_two(before: View, after: View) -> None:
    # "After a claim you draw two cards, one after the other"
    assert len(before["hand"]) in (6, 7)
    if len(before["hand"]) == 6:  # the first of the two: the player draws again
        assert after["current_player"] == 0
        assert after["phase"] == "draw"


def cards_closing(before: View, after: View) -> None:
    # "No other green card is left in your hand and the draw pile is nearly empty … whose
    # five cards then score 2 points"
    assert [card for card in before["hand"] if card[0] == "G"] == ["GX"]
    assert before["deck_size"] <= 2
    assert len(mine(after)["rows"]["G"]) == 5
    assert row_points(after, "G") == 2


def cards_last(before: View, after: View) -> None:
    # "this is the last card of the draw pile, so the game ends. Then everyone may still lay
    # up to two cards"
    last_card_ends(before, after)
    assert not after["over"]
    assert after["phase"] == "final"


def cards_final(before: View, after: View) -> None:
    # "Lay your point card 7 in your point row: one more point. Then the scores are counted."
    cards_point_row(before, after)
    assert after["over"]


#: Every message a lesson's step shows, with the check of what it says about the position
#: (``None``: it states a rule or what to do, nothing about this position). A new message
#: must be entered here, so its claims are checked against the engine.
FACTS: dict[str, Check | None] = {
    "tutorial.board.start_row": board_start_row,
    "tutorial.board.big": board_big,
    "tutorial.board.draw_deck": hand_full,
    "tutorial.board.rising": board_rising,
    "tutorial.board.clover": board_clover,
    "tutorial.board.draw_pile": board_draw_pile,
    "tutorial.board.wish": board_wish,
    "tutorial.board.draw": None,
    "tutorial.board.falling": falling("Y"),
    "tutorial.board.points": board_points,
    "tutorial.board.discard": board_discard,
    "tutorial.board.no_take_back": board_no_take_back,
    "tutorial.board.last": board_last,
    "tutorial.board.end": last_card_ends,
    "tutorial.cards.start_row": cards_start_row,
    "tutorial.cards.draw": hand_full,
    "tutorial.cards.rising": rising("G"),
    "tutorial.cards.point_on_row": cards_point_on_row,
    "tutorial.cards.point_row": cards_point_row,
    "tutorial.cards.longer": cards_longer,
    "tutorial.cards.wish": cards_wish,
    "tutorial.cards.draw_two": cards_draw_two,
    "tutorial.cards.closing": cards_closing,
    "tutorial.cards.last": cards_last,
    "tutorial.cards.final": cards_final,
}


def scripted_views(lesson: Tutorial) -> list[tuple[TutorialStep, View, View]]:
    """Each step with the player's view before its move and right after it."""
    match = new_match(lesson)
    seen = []
    for step in lesson.steps:
        bots_move(match, lesson)
        before = match.view(0).to_json()
        match.submit(0, step.move)
        seen.append((step, before, match.view(0).to_json()))
    return seen


@pytest.mark.parametrize("name", sorted(TUTORIALS))
def test_what_each_step_says_is_true_in_its_position(name: str) -> None:
    lesson = TUTORIALS[name]
    for step, before, after in scripted_views(lesson):
        assert step.key in FACTS, f"{step.key}: say in FACTS what it states about the position"
        check = FACTS[step.key]
        if check is not None:
            try:
                check(before, after)
            except AssertionError as error:
                raise AssertionError(f"step at ply {step.ply} ({step.key}): {error}") from error


def dead_cards(view: View, colour: str) -> set[str]:
    """The number cards of ``colour`` in the hand that can never go on the player's row of
    that colour any more: the row is closed, or they go against its direction (B-13)."""
    row = mine(view)["rows"][colour]
    numbers = [c for c in view["hand"] if c[0] == colour and c[1:].isdigit()]
    if not row:
        return set()
    if any(not c[1:].isdigit() for c in row if c[0] == colour):  # a closing card: closed
        return set(numbers)
    last = int(row[-1][1:])
    direction = mine(view)["directions"][colour]
    if direction == "ascending":
        return {c for c in numbers if int(c[1:]) < last}
    if direction == "descending":
        return {c for c in numbers if int(c[1:]) > last}
    return set()


@pytest.mark.parametrize("name", sorted(TUTORIALS))
def test_the_lessons_play_well_no_card_is_wasted(name: str) -> None:
    """A lesson teaches good play: no step lays a card on a row while the hand holds a card
    of that colour which the row could take before and never can after (green 7 laid
    while holding green 6; a row closed while holding a green 8 for it)."""
    for step, before, after in scripted_views(TUTORIALS[name]):
        for colour in "GYRPB":
            if mine(after)["rows"][colour] == mine(before)["rows"][colour]:
                continue
            wasted = dead_cards(after, colour) - dead_cards(before, colour)
            assert not wasted, f"step at ply {step.ply} ({step.move}) wastes {sorted(wasted)}"


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
