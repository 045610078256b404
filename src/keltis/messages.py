"""The English words of the interface: every message of the terminal game, the move
descriptions, previews, end screens and ``keltis replay``, declared once, here.

A message is declared with a marker call that ``pybabel extract`` reads (see ``babel.cfg``
and ``docs/translating.md``): its key becomes the catalog's message context (``msgctxt``),
its English text the ``msgid``::

    message("ev.lay", "lays {card}")
    plural_message("screen.deck", "draw pile: {count} card", "draw pile: {count} cards")

Texts are ``str.format`` templates. A message with a number that meets a word is a
:func:`plural_message`: the catalogs give it every plural form its language has (CLDR
rules, via Babel), chosen by the parameter ``count`` (or the one named by ``count=``). A
comment starting with ``TRANSLATORS:`` right above a declaration goes into the catalogs.

Refusals (``refuse.*``) are declared in :mod:`keltis.core.refusals`, which the rules core
uses for ``str(error)``; :data:`MESSAGES` holds them too. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from keltis.core.card_codes import COLOUR_NAMES
from keltis.core.refusals import REFUSALS


@dataclass(frozen=True, slots=True)
class Message:
    """One message: its key, English text and, for a plural message, the English plural and
    the parameter whose number selects the form."""

    key: str
    english: str
    plural: str | None = None
    count: str = "count"


@dataclass(frozen=True, slots=True)
class Phrase:
    """A message passed as a parameter of another message: the translator puts it into the
    same language before filling it in (``key``: a message without parameters)."""

    key: str


#: Every message by key, in the order of declaration.
MESSAGES: Final[dict[str, Message]] = {}


def message(key: str, english: str) -> str:
    """Declare message ``key`` with its English text (pybabel keyword ``message:1c,2``)."""
    if key in MESSAGES:
        raise ValueError(f"message {key!r} is declared twice")
    MESSAGES[key] = Message(key, english)
    return english


def plural_message(key: str, singular: str, plural: str, *, count: str = "count") -> str:
    """Declare a message whose form depends on the number in parameter ``count``
    (pybabel keyword ``plural_message:1c,2,3``): English singular and plural."""
    if key in MESSAGES:
        raise ValueError(f"message {key!r} is declared twice")
    MESSAGES[key] = Message(key, singular, plural, count)
    return plural


# -- colour names -------------------------------------------------------------------------

# TRANSLATORS: A colour's name; then, if messages of your language need
# other grammatical forms, each one as "| form: word": "zelená | f2:
# zelené | f4: zelenou". A message asks for a form by its name: "na
# {path:f2} cestě". Name the forms as you like (list them in the header
# comment) and give every form for all five colours.
message("colour.green", "green")
# TRANSLATORS: see colour.green
message("colour.yellow", "yellow")
# TRANSLATORS: see colour.green
message("colour.red", "red")
# TRANSLATORS: see colour.green
message("colour.pink", "pink")
# TRANSLATORS: see colour.green
message("colour.blue", "blue")

#: Message keys of the colour names, by colour index.
COLOUR_KEYS: Final = tuple(f"colour.{name}" for name in COLOUR_NAMES)

# -- move descriptions (keltis.core.events) ---------------------------------------------

message("ev.lay", "lays {card}")
message("ev.lay_onto", "lays {card} on the {onto} row")
message("ev.discard", "discards {card}")
message("ev.claim", "discards {first} and {second} and takes wish stone {value}")
message("ev.draw_deck", "draws from the draw pile")
# TRANSLATORS: shown only to the player who drew the card
message("ev.draw_deck.card", "draws {card} from the draw pile")
message("ev.draw_pile", "takes {card} from the {pile} discard pile")
message("ev.draw_pile.point", "takes {card} from the point-card discard pile")
message("ev.figure.big", "sends the big figure onto the path")
message("ev.figure.small", "sends a small figure onto the path")
message("ev.advance", "moves the figure on the {path} path")
message("ev.pass", "passes")
message("ev.moved", "figure on the {path} path to row {row}")
message("ev.moved.big", "big figure on the {path} path to row {row}")
message("ev.points", "point tile: +{points}")
# TRANSLATORS: {count} is how many wish stones the player holds now
message("ev.wish", "takes a wish stone ({count} now)")
message("ev.clover", "clover: may move a figure one stone")
message("ev.end.goal", "the fifth figure enters the goal area: game over")
message("ev.end.deck", "the last card of the draw pile is drawn: game over")
message("ev.end.closed", "five rows are closed: game over")
message("ev.end.truncated", "the turn cap is reached: game stopped")
message("ev.final", "everyone may still lay up to two cards")

# -- the screen ---------------------------------------------------------------------------

message("title.board", "Keltis – the board game")
message("title.cards", "Keltis – the card game")
message("screen.turn", "turn {turn}")
plural_message("screen.deck", "draw pile: {count} card", "draw pile: {count} cards")
plural_message("screen.removed", "set aside: {count} card", "set aside: {count} cards")
message("screen.over", "game over")
message("screen.to_move", "to move: {name}")
message("screen.hand", "Your hand:")
message("screen.piles", "Discard piles (top card, size):")
# TRANSLATORS: the compact screen's short label, followed by each pile's
# top card and size
message("screen.piles_short", "Discard piles:")
message("screen.last_moves", "Last moves:")
message("screen.no_moves", "none yet")
message("options.discard", "discard:")
message(
    "prompt.help",
    "Type the number of an option or the move itself (G7, -G7, draw …). "
    "Commands: help, redraw, quit.",
)
message("prompt.enter", "Press Enter when ready.")
message("players.name", "player")
message("players.tiles", "tiles")
message("players.hand", "hand")
message("players.score", "score")
message(
    "players.legend",
    "Rows: last card and direction, {up} ascending, {down} descending, {open} still open. "
    "{wish} wish stones; tiles: points from point tiles; score: the total if the game ended "
    "now.",
)

# -- the board game -----------------------------------------------------------------------

message("board.row", "row")
message("board.value", "value")
message("board.start", "start stone")
# TRANSLATORS: {count} figures of {total} (always 5) stand in the goal
# area
plural_message(
    "board.goal",
    "Goal area = rows 7–9, above the line: {count} of {total} figures is there; when {total} "
    "are, the game ends.",
    "Goal area = rows 7–9, above the line: {count} of {total} figures are there; when {total} "
    "are, the game ends.",
)
# TRANSLATORS: the compact screen's short form of board.goal: {count}
# figures of {total} (always 5) stand in the goal area
message("board.goal_short", "Goal area (rows 7–9): {count}/{total}")
message(
    "board.legend",
    "Figures: 2 = a small figure of player 2, [2] = the big one (scores double). "
    "Tiles: +2 point tile, {clover} clover, {wish} wish stone, · empty stone.",
)
message(
    "phase.board.play",
    "{name}: play a card – lay it on your row of its colour (e.g. G7) or discard it (e.g. -G7).",
)
message(
    "phase.board.figure",
    "{name}: a figure enters the {path} path – the big one (scores double, minus points too) "
    "or a small one?",
)
message(
    "phase.board.clover",
    "{name}: clover! You may move any of your figures one stone forward (e.g. >G), or pass.",
)
message(
    "phase.board.overflow",
    "{name}: your figure on the {path} path already stands on the end stone, so you may move "
    "another figure one stone forward instead (e.g. >G), or pass.",
)
message(
    "phase.board.draw",
    "{name}: now draw a card – from the draw pile (draw) or the top of a discard pile "
    "(e.g. draw G).",
)
message("act.lay_open", "a figure onto the {path} path, row 1")
message("act.lay_step", "{path} figure to row {row}")
message("act.lay_end", "{path} figure is on the end stone: move another")
message("act.discard", "discard onto the {pile} pile")
message("act.discard.point", "discard onto the point-card pile")
message("act.draw_deck", "top card of the draw pile (unseen)")
message("act.draw_pile", "take {card} from the {pile} pile")
message("act.draw_pile.point", "take {card} from the point-card pile")
message("act.figure.big", "the big figure onto the {path} path (scores double)")
message("act.figure.small", "a small figure onto the {path} path")
message("act.advance", "{path} figure to row {row}")
message("act.pass", "no move")
message("act.goal", "goal area")
message("act.ends_game", "ends the game")
message("act.tile.clover", "clover")
message("act.tile.wish", "wish stone")
plural_message("act.tile.points", "+{points} point", "+{points} points", count="points")

# -- the card game ------------------------------------------------------------------------

message("cards.wish_row", "Wish stones on the table: {values}")
message(
    "cards.closed",
    "Rows with a closing card (all players): {count} of {total}; at {total} the game ends.",
)
message("cards.point_row", "point row")
message("cards.wishes", "wish stones")
message(
    "cards.legend",
    "Rows: last value and direction ({up} ascending, {down} descending, {open} open), "
    "×n cards in the row, {closed} closed. A row of n cards scores 1:-4 2:-3 3:-2 4:1 5:2 "
    "6:3 7:6 8:7 9+:10.",
)
message(
    "phase.cards.play",
    "{name}: lay a card (G7; closing card GX; point card *7 or *7>G), claim a wish stone "
    "with two cards of one value (wish G5 *5) or discard a card (-G7).",
)
plural_message(
    "phase.cards.draw",
    "{name}: refill your hand – {count} card to draw, from the draw pile (draw) or the top "
    "of a discard pile (draw G, draw *), but not a pile you discarded to this turn.",
    "{name}: refill your hand – {count} cards to draw, from the draw pile (draw) or the top "
    "of a discard pile (draw G, draw *), but not a pile you discarded to this turn.",
)
# TRANSLATORS: a form may leave out {count}, e.g. "one more card" for 1
plural_message(
    "phase.cards.final",
    "{name}: the game has ended – you may still lay one card onto your rows, or pass.",
    "{name}: the game has ended – you may still lay up to {count} cards onto your rows, or pass.",
)
# TRANSLATORS: {count}: the row's length after the card; {points}: what
# the row then scores (+3, -2); "pt"/"pts": short for points
plural_message(
    "act.cards.lay",
    "onto your {row} row (length {count}, {points} pt)",
    "onto your {row} row (length {count}, {points} pts)",
    count="points",
)
message("act.cards.close", "closing card on your {row} row")
message("act.cards.point_row", "onto your point row (+1 point)")
message("act.cards.claim", "take wish stone {value}, then draw 2")
message("act.cards.pass", "lay no more cards")

# -- scores and the end -------------------------------------------------------------------

message("score.figures", "figures")
message("score.tiles", "tiles")
message("score.wishes", "wish stones")
# TRANSLATORS: how many wish stones a player holds (keltis replay's
# score lines)
message("score.wish_count", "wish stones held")
message("score.rows", "rows")
message("score.point_row", "point row")
message("score.total", "total")
message("end.goal", "Game over: the fifth figure entered the goal area")
message("end.deck", "Game over: the last card of the draw pile was drawn")
message("end.closed", "Game over: five rows hold a closing card")
message("end.truncated", "Game stopped: the turn limit was reached")
# TRANSLATORS: the player named may be a man or a woman: use a form
# that fits both (a verb rather than a noun: "gana", "wygrywa", not
# "ganador", "zwycięzca")
message("end.winner", "Winner: {names}")
message("end.winners", "Shared victory: {names}")

# -- the session --------------------------------------------------------------------------

message("name.you", "You")
message("name.player", "Player {n}")
# TRANSLATORS: shown in place of a player's name once their account was deleted (in match
# lists, score tables, replays, chat lines): a name-like phrase, in brackets
message("name.deleted", "(deleted account)")
# TRANSLATORS: {bot}: the bot's name (Brigid, Fionn …); {n}: its seat
# number
message("name.bot", "{bot} bot {n}")
message(
    "msg.welcome",
    "Welcome to Keltis! Type help at any prompt for the rules, symbols and commands.",
)
plural_message(
    "msg.resumed",
    "Continuing the game from {path} ({count} move recorded).",
    "Continuing the game from {path} ({count} moves recorded).",
)
message("msg.handover", "Next: {name}. Pass the keyboard on – the other hands stay hidden.")
message("msg.saved", "Game record saved: {path}")
# TRANSLATORS: {command} is a shell command to copy, e.g.
# ".venv/bin/keltis play --resume FILE"
message("msg.resume", "To continue later: {command}")
message("msg.interrupted", "Interrupted (Ctrl-C).")
message("msg.eof", "The input ended.")
message("msg.quit", "You left the game.")
# TRANSLATORS: {win}: a percentage (62%); {spread}: how sure that is, a
# percentage (±7%); {margin}: points ahead of the best other player,
# with a sign and one decimal (+3.5); {count}: the number of simulated
# games the estimate rests on
plural_message(
    "msg.hint",
    "Suggestion: {move} ({label}) – chance to win {win} (±{spread}), expected point lead "
    "{margin}, from {count} simulated game",
    "Suggestion: {move} ({label}) – chance to win {win} (±{spread}), expected point lead "
    "{margin}, from {count} simulated games",
)
message("msg.hint_only", "Only one move is possible: {move} ({label})")
message("msg.thinking", "Thinking about your options…")
message("err.empty", "Type the number of an option, a move such as G7, or help.")
message("err.number", "There is no option {number}: choose from 1 to {count}.")
message("err.notation", "Cannot read “{text}”: {reason}")
message("err.illegal", "That move is not allowed here: {reason}")
message("cmd.help", "rules in short, symbols and commands")
message("cmd.redraw", "draw the screen again")
message("cmd.quit", "save the game and leave (continue with --resume)")
message("cmd.hint", "suggest a move")
message("help.title", "Help")
message("help.commands", "Commands:")
message(
    "help.board",
    "Keltis, the board game – on your turn play one card, then draw one.\n"
    "• Lay a card on your row of its colour: your first card of a colour puts one of your "
    "figures on row 1 of that path, each further card moves it one stone forward.\n"
    "• A row runs up or down: the first card of a different value decides (3 3 6 7 … or "
    "9 8 8 5 …); an equal value always fits.\n"
    "• Or discard the card face up onto its colour's discard pile.\n"
    "• Then draw the top card of the draw pile or of any discard pile – but not the card you "
    "have just discarded.\n"
    "• Tiles: a point tile scores at once; a clover lets you move any of your figures one "
    "more stone; a wish stone you take and keep. A card for a path where your figure already "
    "stands on the end stone may move another figure instead.\n"
    "• The game ends when the fifth figure enters the goal area (rows 7–9) or when the last "
    "card of the draw pile is drawn.\n"
    "• Score: each figure scores its row's value (the big figure double, minus points too), "
    "plus point tiles, plus wish stones: 0 → -4, 1 → -3, 2 → 2, 3 → 3, 4 → 6, "
    "5 or more → 10.",
)
message(
    "help.input.board",
    "Moves: type an option's number or the move – G7 lay green 7 · -G7 discard it · "
    "big / small which figure enters · >G move your figure on the green path · pass · "
    "draw (draw pile) · draw G (top of the green discard pile). "
    "Colours: G green, Y yellow, R red, P pink, B blue.",
)
message(
    "help.cards",
    "Keltis, the card game – on your turn do one thing, then refill your hand to 8 cards.\n"
    "• Lay a colour card on your row of its colour. A row runs up or down: the first card of "
    "a different value decides (3 3 6 7 … or 9 8 8 5 …).\n"
    "• A closing card (GX) goes only on the end of a row of its colour; after it only the "
    "second closing card of that colour.\n"
    "• A point card (*7) goes on your point row (1 point each) or on the end of one of your "
    "rows whose last card has the same value.\n"
    "• Claim a wish stone: discard two cards of the same value (1–9) and take that wish "
    "stone if it is still on the table; then draw two cards.\n"
    "• Or discard one card. Draw from the draw pile or the top of any discard pile – never a "
    "card discarded this turn.\n"
    "• The game ends when five rows hold a closing card or the last card of the draw pile is "
    "drawn; then everyone, from the next player on, may lay up to two more cards onto their "
    "rows.\n"
    "• Score: each row by its number of cards 1:-4 2:-3 3:-2 4:1 5:2 6:3 7:6 8:7 9+:10; "
    "1 point per card in the point row; wish stones 0:-4 1:-1 2:0 3:4 4:6 5+:10.",
)
message(
    "help.input.cards",
    "Moves: type an option's number or the move – G7 lay green 7 · GX closing card · "
    "*7 point card on your point row · *7>G point card onto your green row · "
    "wish G5 *5 wish stone 5 for two cards · -G7 discard · draw, draw G, draw * · "
    "pass (lay no more). Colours: G green, Y yellow, R red, P pink, B blue.",
)

# -- saving, resuming, undo, another game ---------------------------------------------------

# TRANSLATORS: the words a player may type for "yes", separated by
# spaces; keep "y" and "yes" beside your language's own (English
# keyboards, muscle memory)
message("prompt.yes_words", "y yes")
message("prompt.again", "Play again? (y/n)")
message(
    "prompt.undo_consent", "{name} wants to take back their last move. {other}, do you agree? (y/n)"
)
message("msg.undo_nothing", "There is no move of yours to take back.")
message("msg.undo_refused", "{other} does not agree: nothing was taken back.")
plural_message("msg.undone", "{count} move taken back.", "{count} moves taken back.")
message("cmd.undo", "take back your last move (in hot-seat, if the others agree)")
# TRANSLATORS: move.word.*: the word a player types for a move, in
# your language (one word, lower case), which the terminal and the
# browser read as the notation's English word, and which every message
# about moves says where the English says "draw", "pass", "big",
# "small" or "wish"; more words separated by spaces are read too (the
# first is the one shown), e.g. the same word without diacritics.
# Here: take a card (draw, draw G: from the green discard pile)
message("move.word.draw", "draw")
# TRANSLATORS: see move.word.draw; here: let an optional move go, lay
# no more cards after the end
message("move.word.pass", "pass")
# TRANSLATORS: see move.word.draw; here: the big figure enters a path
message("move.word.big", "big")
# TRANSLATORS: see move.word.draw; here: a small figure enters a path
message("move.word.small", "small")
# TRANSLATORS: see move.word.draw; here: claim a wish stone (wish G5 *5)
message("move.word.wish", "wish")
message("err.option_board_only", "{option} is for the board game only")
message("err.no_saved_game", "There is no unfinished saved game in {folder}.")
message("err.resume_other_game", "{path} is a record of {game}: leave out --game to resume it")
plural_message(
    "err.resume_players",
    "{path} is a game of {count} player: leave out --players to resume it",
    "{path} is a game of {count} players: leave out --players to resume it",
)
message(
    "err.resume_option",
    "{option} sets up a new game, but the record already says how this one is played: leave "
    "it out with --resume",
)
message(
    "err.save_exists",
    "{path} already exists, and keltis never saves over a record: continue that game with "
    "--resume {path}, or choose another name",
)
message("err.save_failed", "The game could not be saved: {reason}")
message("msg.no_saved", "No saved games in {folder}.")
message("saved.finished", "finished")
message("saved.running", "not finished")
# TRANSLATORS: one line of the list of saved games; {when}: date and
# time, {game}: the game's title, {players}: names, {state}:
# saved.finished or saved.running
plural_message(
    "saved.line",
    "{when}  {game} – {players} – {count} move, {state}",
    "{when}  {game} – {players} – {count} moves, {state}",
)

# -- keltis replay ------------------------------------------------------------------------

# TRANSLATORS: {setup}: replay.seed or replay.explicit
plural_message(
    "replay.title.board",
    "board game, {count} player ({setup})",
    "board game, {count} players ({setup})",
)
plural_message(
    "replay.title.cards",
    "card game, {count} player ({setup})",
    "card game, {count} players ({setup})",
)
message("replay.seed", "seed {seed}")
message("replay.explicit", "explicit set-up")
# TRANSLATORS: {kind}: "human" or the bot's name, as stored in the
# record
message("replay.seat", "seat {seat}: {name} ({kind})")
message("replay.unfinished", "The record stops before the end of the game; standings so far:")
# TRANSLATORS: the player named may be a man or a woman: use a form
# that fits both (a verb rather than a noun: "gana", "wygrywa", not
# "ganador", "zwycięzca")
message("replay.winner", "winner")
# TRANSLATORS: the interactive replay, before its first move
plural_message(
    "replay.start",
    "The start of the game: {count} move recorded. Press Enter for the first.",
    "The start of the game: {count} moves recorded. Press Enter for the first.",
)
# TRANSLATORS: the interactive replay. {number}: this move's number;
# {total}: how many the record holds; {name}: the player; {move}: the
# move in notation (G7, draw); {what}: what it did, in the words of the
# ev.* messages
message("replay.move", "Move {number} of {total}: {name} – {move}: {what}")
message("replay.stops", "The record stops here, before the end of the game.")
# TRANSLATORS: the keys of the interactive replay; the letters are typed
# as they are in every language (n, b, f, l, q); "12: move 12": typing a
# number shows that move
message("replay.keys", "Enter/n: next · b: back · 12: move 12 · f: first · l: last · q: quit")
message("replay.at_end", "This is the last move of the record.")
message("replay.at_start", "This is the start of the game: there is no earlier move.")
message("replay.no_move", "There is no move {number}: choose from 0 to {total}.")
message("replay.unknown", "Cannot read “{text}”: type n, b, a move number, f, l or q.")

# -- keltis review: a finished game's decisions judged, and its luck ----------------------

# TRANSLATORS: the first line of a review; {game}: replay.title.*
# ("board game, 2 players (seed 7)")
message("review.title", "Review: {game}")
# TRANSLATORS: {standings}: each player with their score, "Ann (1) 45,
# winner · Bob (2) 38"
message("review.result", "Result: {standings}")
# TRANSLATORS: the review's budget. A playout is one game played to its
# end in the search; {width}: how many of the best-looking moves were
# searched beside the one played
message(
    "review.budget",
    "Search: {iterations} playouts per decision, the move played and {width} others; "
    "{luck} playouts per value of luck; seed {seed}; {seconds} s of CPU time.",
)
# TRANSLATORS: {inaccuracy}, {mistake}, {blunder}: the least loss (in
# points of win chance, 0–100) that earns each mark
message(
    "review.thresholds",
    "Win chances are as the player could judge them, from their own cards. A move is marked "
    "by the win chance it lost, in points: an inaccuracy from {inaccuracy}, a mistake from "
    "{mistake}, a blunder from {blunder} — and only where the loss is larger than the "
    "search's own error (±, 95%).",
)
# TRANSLATORS: column headings of the review's table (short: a word or
# two)
message("review.col.move", "Move")
# TRANSLATORS: see review.col.move
message("review.col.turn", "Turn")
# TRANSLATORS: see review.col.move
message("review.col.player", "Player")
# TRANSLATORS: see review.col.move; the move the player made
message("review.col.played", "Played")
# TRANSLATORS: see review.col.move; the chance to win after the move (a
# percentage)
message("review.col.win", "Win")
# TRANSLATORS: see review.col.move; the move the search found better
message("review.col.better", "Better")
# TRANSLATORS: see review.col.move; the win chance the move lost, in
# points, ± the error
message("review.col.loss", "Loss")
# TRANSLATORS: see review.col.move; one of the review.mark.* words
message("review.col.mark", "Mark")
# TRANSLATORS: the marks of a move, as chess programs give them
# (lichess): the best move, a good one, an inaccuracy, a mistake, a
# blunder
message("review.mark.best", "best")
# TRANSLATORS: see review.mark.best
message("review.mark.good", "good")
# TRANSLATORS: see review.mark.best
message("review.mark.inaccuracy", "inaccuracy")
# TRANSLATORS: see review.mark.best
message("review.mark.mistake", "mistake")
# TRANSLATORS: see review.mark.best
message("review.mark.blunder", "blunder")
message(
    "review.no_decisions", "The players reviewed had no decision to make: every move was forced."
)
# TRANSLATORS: {name}: the player and seat, "Ann (1)"; {accuracy}: a
# percentage, "87%"
message("review.accuracy", "{name}: accuracy {accuracy}")
plural_message("review.decisions", "{count} decision judged", "{count} decisions judged")
plural_message(
    "review.forced",
    "{count} move with no choice, not judged",
    "{count} moves with no choice, not judged",
)
# TRANSLATORS: {marks}: each review.mark.* word with its count, "best 40
# · good 10 · …"
message("review.marks", "Marks: {marks}")
# TRANSLATORS: {points}: with its sign, "+12" or "−5": how much the deal
# and the draws together moved the player's chance to win, in points
# (0–100); {error}: how sure that is (the 95% error, in points)
plural_message(
    "review.luck.total",
    "Luck: {points} point of win chance (±{error}) from the deal and the draws",
    "Luck: {points} points of win chance (±{error}) from the deal and the draws",
    count="points",
)
message("review.luck.biggest", "The biggest swings of luck:")
# TRANSLATORS: a swing of luck, said to the player reviewed; {points}:
# how much their chance to win rose or fell (0–100)
plural_message(
    "review.luck.deal.gain",
    "The deal of the hands gave you {points} point of win chance.",
    "The deal of the hands gave you {points} points of win chance.",
    count="points",
)
# TRANSLATORS: see review.luck.deal.gain
plural_message(
    "review.luck.deal.cost",
    "The deal of the hands cost you {points} point of win chance.",
    "The deal of the hands cost you {points} points of win chance.",
    count="points",
)
# TRANSLATORS: see review.luck.deal.gain; {turn}: the turn's number
plural_message(
    "review.luck.own.gain",
    "Turn {turn}: your draw from the draw pile gave you {points} point of win chance.",
    "Turn {turn}: your draw from the draw pile gave you {points} points of win chance.",
    count="points",
)
# TRANSLATORS: see review.luck.own.gain
plural_message(
    "review.luck.own.cost",
    "Turn {turn}: your draw from the draw pile cost you {points} point of win chance.",
    "Turn {turn}: your draw from the draw pile cost you {points} points of win chance.",
    count="points",
)
# TRANSLATORS: see review.luck.own.gain; {name}: the other player who
# drew, "Bob (2)"
plural_message(
    "review.luck.other.gain",
    "Turn {turn}: {name} drew from the draw pile; that gave you {points} point of win chance.",
    "Turn {turn}: {name} drew from the draw pile; that gave you {points} points of win chance.",
    count="points",
)
# TRANSLATORS: see review.luck.other.gain
plural_message(
    "review.luck.other.cost",
    "Turn {turn}: {name} drew from the draw pile; that cost you {points} point of win chance.",
    "Turn {turn}: {name} drew from the draw pile; that cost you {points} points of win chance.",
    count="points",
)
# TRANSLATORS: on standard error while a review runs: how many of its
# steps (decisions and draws) are done, of how many
message("review.progress", "Reviewing: {done}/{total}")
message("review.interrupted", "Review stopped: nothing was printed.")
# TRANSLATORS: keltis review's errors, after "keltis review: "; {path}:
# the file as typed
message("review.no_file", "There is no record at {path}.")
# TRANSLATORS: {detail}: what is wrong, in English (from the record
# reader)
message("review.bad_record", "The record {path} cannot be read: {detail}")
message(
    "review.unfinished",
    "The game in {path} is not over: only a finished game can be reviewed "
    "(a review of a game in play would be a hint).",
)
# TRANSLATORS: {seat}: the number asked for; {count}: the players of the
# game (seats 1 to {count})
message("review.no_seat", "There is no seat {seat} in this game: its seats are 1 to {count}.")
# TRANSLATORS: {text}: the --budget as typed; {detail}: what is wrong,
# in English
message(
    "review.bad_budget",
    "Cannot read the budget “{text}”: {detail}. Give, e.g., iterations=400,width=3,"
    "luck_playouts=128,seed=0.",
)

# -- the game server (keltis serve): what a client is told when a message is refused ------

# TRANSLATORS: the game server's answers to a browser or program; {detail}:
# the JSON parser's own English words
message("server.bad_json", "That message is not JSON: {detail}.")
message("server.not_object", "A message must be a JSON object with a “type”.")
# TRANSLATORS: {types}: the message types, as they are (hello, act, …)
message("server.unknown_type", "Unknown message type “{type}”: use one of {types}.")
# TRANSLATORS: {field}: a field's name as it is (version, action, seat); {expected}: one
# of the server.expected.* phrases
message("server.bad_field", "The field “{field}” is missing or wrong: {expected}.")
# TRANSLATORS: what a field of a message to the server must hold, said after
# server.bad_field's colon; null, hello: words of the protocol, as they are
message("server.expected.text_or_null", "a text or null")
message("server.expected.hello_once", "hello only once")
message("server.expected.seat", "a seat number")
message("server.expected.version", "the version you saw last")
message("server.expected.action", "a move's notation or its number")
message("server.expected.notation", "a move's notation (at most 40 characters)")
message("server.too_big", "That message is too long: {size} bytes, at most {limit}.")
message("server.rate_limited", "Too many messages: wait a moment before sending more.")
message(
    "server.hello_first",
    "Say hello first: the first message gives your seat's token, or none to watch.",
)
message("server.bad_token", "That token opens no seat of this match.")
message("server.spectator", "You are watching: only a seat's player can do that.")
message("server.not_started", "The match has not started yet.")
message("server.no_hints", "This match is played without hints.")
message("server.no_undo", "This match is played without taking moves back.")
message("server.undo_people", "Moves can be taken back only in a match against bots.")
message(
    "server.hints_people",
    "Hints are only for matches against bots, or where every player agreed to them when the "
    "match was created.",
)
# TRANSLATORS: {name}: the player of the seat another player wanted to hand to a bot
message(
    "server.clock_decides",
    "{name}'s seat stays theirs: in a match with a time control only the clock decides, and "
    "a bot takes a seat only when its player's time runs out.",
)
message(
    "server.rated_twice",
    "You play a seat of this rated match already: a rated match needs a different account "
    "in every seat.",
)
# TRANSLATORS: {name}: the player of the seat; {seconds}: how long a player
# must have been away before a bot may play for them
message(
    "server.not_away",
    "{name} is here, or a bot already plays for them: a seat goes to a bot only after its "
    "player has been away for {seconds} seconds.",
)
# TRANSLATORS: {name}: the player of the seat; {seconds}: how long a player
# must have been away before a bot may play for them. Said in a match with a
# turn clock (a time limit for each decision)
message(
    "server.not_away_or_late",
    "{name} is here and still has time on the clock, or a bot already plays for them: a "
    "seat goes to a bot only when its player has been away for {seconds} seconds or has "
    "run out of time for this move.",
)
message("server.stand_in", "A bot is playing for you: take your seat back first.")
message("server.no_stand_in", "No bot is playing for you: your seat is yours.")
message("server.no_match", "There is no match “{id}”.")
message("server.no_seat", "There is no seat {seat} in this match.")
message("server.bad_invite", "That invitation is not valid, or its seat has been taken.")
message("server.not_host", "Only the player who created the match can do that.")
# TRANSLATORS: {seats}: the numbers of the seats nobody has joined yet
message("server.seats_empty", "Not everyone has joined yet; free seats: {seats}.")
message("server.already_started", "The match has already started.")
message("server.not_finished", "The record is there once the match is over.")
# TRANSLATORS: {ply}: the position asked for (a number of moves made); {total}:
# the match's last position
message(
    "server.no_ply",
    "There is no position {ply} in this match: its positions are 0 to {total}.",
)
# TRANSLATORS: a player asked for the review of a match still being played (a
# review shows the best moves, so during play it would be a hint)
message(
    "server.review_not_finished",
    "A match is reviewed once it is over: during play a review would show the best moves.",
)
message(
    "server.review_slow_down",
    "You have asked for many reviews: wait a while before asking for another one.",
)
message(
    "server.again_taken",
    "You have taken your seat in the next match already: it is in the list of your matches.",
)
# TRANSLATORS: a player said no to a rematch, but nobody has asked for one (or it
# was cancelled already)
message("server.again_none", "Nobody is waiting for a rematch of this match.")
# TRANSLATORS: a player said no to a rematch that has begun already
message("server.again_started", "The rematch has begun already: it can no longer be cancelled.")
message("server.bad_request", "The request is not valid: {detail}.")
# TRANSLATORS: a request chose the deal itself (which cards each player holds);
# "--allow-setup" is the option's name, as it is
message(
    "server.no_setup",
    "This server does not take set-ups chosen by hand: it would need --allow-setup.",
)

# TRANSLATORS: a request chose its own seed, the number that decides the deal
# (who holds which cards); "--allow-setup" is the option's name, as it is
message(
    "server.no_seed",
    "This server deals the cards itself: a match may not choose its seed (that would need "
    "--allow-setup).",
)
# TRANSLATORS: {limit}: a number of characters
message(
    "server.bad_name",
    "A name must be 1 to {limit} characters of text, without control characters, line "
    "separators or invisible formatting characters (such as direction marks or zero-width "
    "spaces).",
)
# TRANSLATORS: a guest or a bot asked for the name "(deleted)", which the server keeps
# for the accounts that were deleted
message(
    "server.reserved_name",
    "That name stands for deleted accounts: please choose another one.",
)
# TRANSLATORS: {limit}: how many brackets deep a message may nest
message("server.too_deep", "That message is nested too deeply: at most {limit} levels.")
message(
    "server.bad_text",
    "That message holds text that is not valid Unicode (a lone surrogate escape such as \\ud800).",
)
message("server.expected.ref", "a text of at most 64 characters or a whole number")
message("server.not_found", "There is nothing at this address.")
# TRANSLATORS: {method}: an HTTP method as it is (GET, POST, …)
message("server.bad_method", "This address does not answer {method} requests.")
# TRANSLATORS: {code}: the language code asked for; {langs}: the codes there
# are (en, de, …)
message("server.no_language", "There is no language “{code}”: use one of {langs}.")
# TRANSLATORS: {seconds}: how long a new connection may wait before its first
# message ("hello" is a word of the protocol, as it is)
message(
    "server.hello_late",
    "No hello within {seconds} seconds: the connection is closed. Connect again when ready.",
)
message(
    "server.too_many_connections",
    "Too many connections from your address: close some games or try again later.",
)
message("server.busy", "The server holds as many connections as it can: try again later.")

# -- accounts and ratings (keltis.server.accounts, routes/accounts.py, routes/players.py) ---
message(
    "account.bad_name",
    "A name has 3 to 20 characters: the letters A to Z without accents, the digits 0 to 9, "
    "_ and -; no spaces.",
)
message("account.bad_password", "A password has {min} to {max} characters.")
message(
    "account.common_password",
    "That password is one of the most common ones, the first that anyone tries: choose another.",
)
message(
    "account.password_is_name",
    "That password is your name (or your name with a few changes): choose another.",
)
message(
    "account.bad_time_zone",
    "That is not a time zone this server knows: choose one from the list (like Europe/Prague).",
)
message("account.name_taken", "The name {name} is taken: choose another.")
message("account.bad_login", "That name and password do not match an account.")
# TRANSLATORS: {minutes} is always 15
message(
    "account.login_limited",
    "Too many wrong passwords for this account: try again in {minutes} minutes.",
)
message("account.slow_down", "Too many attempts from your address: wait a minute and try again.")
# TRANSLATORS: GET /api/me/export (the "Download my data" button) asked for too often
message(
    "export.slow_down",
    "You downloaded your data several times this hour: try again in an hour.",
)
message("export.busy", "Many players are downloading their data right now: try again soon.")
message("account.busy", "Too many passwords are being checked right now: try again in a moment.")
message("account.suspended", "This account is suspended.")
message("account.no_session", "You are not logged in.")
message(
    "account.cross_site",
    "This request did not come from the Keltis page itself, so it was refused: reload the "
    "page and try again.",
)
message("account.wrong_password", "That is not your current password.")
message("account.no_player", "There is no player {name}.")
message(
    "account.rated_needs_account",
    "A rated match is for players with an account: log in first.",
)
# -- password resets and confirmed addresses (keltis.server.recovery, routes/recovery.py) --
message(
    "account.bad_link",
    "This link is not valid: it was used already, a newer one replaced it, or the account's "
    "e-mail address changed. Ask for a new one.",
)
message("account.link_expired", "This link has expired: ask for a new one.")
message("account.no_email", "Your account has no e-mail address: add one first.")
# TRANSLATORS: {email}: the account's e-mail address
message("account.email_confirmed", "Your e-mail address {email} is confirmed already.")
# TRANSLATORS: {minutes}: how long to wait, 1 to 15 or up to a day (1440)
plural_message(
    "account.mail_wait",
    "A link went to this address a short while ago: look for it in your e-mail, or ask "
    "again in {minutes} minute.",
    "A link went to this address a short while ago: look for it in your e-mail, or ask "
    "again in {minutes} minutes.",
    count="minutes",
)
message("mail.off", "This server sends no e-mail.")

# -- chat in a match (keltis.server.chat, routes/chat.py) ----------------------------------
message("chat.empty", "A chat message cannot be empty.")
# TRANSLATORS: {limit}: the most characters a chat message may have (300);
# {length}: how many the refused one had
message("chat.too_long", "A chat message has at most {limit} characters; this one has {length}.")
message(
    "chat.control",
    "A chat message is one line of text, without control characters, line separators or "
    "invisible formatting characters (such as direction marks or zero-width spaces).",
)
message("chat.rate_limited", "You are chatting too fast: wait a moment before the next message.")
message("chat.guest", "Only the players and logged-in spectators can chat: log in to chat.")
message(
    "chat.seated",
    "You play in this match: chat from your seat (players never see the spectators' chat).",
)
# TRANSLATORS: what the "text" field of a chat message must hold, said after
# server.bad_field's colon
message("chat.expected.text", "a text of 1 to 300 characters")

# -- the browser client (web/, served by keltis serve) ---------------------------------------
# (Button texts are short verbs; the board's pieces keep each rulebook's terms.)

message(
    "web.tagline",
    "Reiner Knizia’s Keltis: the board game and the card game, for 2 to 4 players.",
)
message("web.home", "Start page")
message("web.language", "Language")
message("web.play_now", "Play now")
message("web.play_now.detail", "You against bots, at once, with the settings below.")
message("web.game", "Game")
message("web.players", "Players")
message("web.level", "Bots")
message("web.level.random", "Random: plays any move")
message("web.level.easy", "Easy (Brigid)")
message("web.level.medium", "Medium (Fionn)")
message("web.level.hard", "Hard (Morrigan)")
message("web.create", "Play with friends")
message("web.create.detail", "Choose the seats, then send each friend their invitation link.")
# TRANSLATORS: {n}: a seat's number, 1-4
message("web.seat", "Seat {n}")
message("web.seat.me", "me")
message("web.seat.person", "a friend")
message("web.seat.bot", "a bot")
message("web.seat.kind", "Who plays seat {n}")
message("web.rules", "Rules")
message(
    "web.variant.no_take_back",
    "A card discarded in a turn may not be drawn back in that turn",
)
message("web.variant.turn_cap", "Turn limit")
message("web.option.hints", "Hints allowed")
message("web.option.undo", "Taking moves back allowed (against bots only)")
message("web.option.public", "Shown in the list of matches")
message("web.your_name", "Your name")
message("web.create_button", "Create the match")
message("web.invites", "Invitation links: send one to each friend.")
message("web.copy", "Copy")
message("web.copied", "Copied")
message("web.watch_link", "Link for spectators")
message("web.start", "Start the match")
# TRANSLATORS: {seats}: the numbers of the seats nobody has joined yet
message("web.waiting", "Waiting for players to join: seat {seats}.")
message("web.waiting_host", "Waiting for the host to start the match.")
message("web.join", "Join a match")
# TRANSLATORS: {game}: the game's title; {host}: the name of the player who invited you
message("web.join.detail", "{host} invites you to a match: {game}.")
message("web.join_button", "Take my seat")
message("web.join.link", "Invitation or match link")
message("web.join.bad_link", "That is not a Keltis invitation or match link.")
message("web.matches", "Matches")
message("web.matches.open", "Waiting for players")
message("web.matches.running", "Being played")
message("web.matches.finished", "Finished")
message("web.matches.none", "No matches here yet.")
# TRANSLATORS: the heading of the matches page's lists of the matches
# their hosts listed for everyone (to join, watch or replay), below the
# player's own matches
message("web.matches.public", "Public matches")
# TRANSLATORS: the start page's list of the matches this browser holds a
# seat in (running, waiting for players, finished), each with "Continue"
message("web.my_matches", "Your matches")
message("web.watch", "Watch")
message("web.replay", "Replay")
message("web.continue", "Continue")
message("web.loading", "Loading…")
message("web.offline", "The server cannot be reached. Is keltis serve running?")
message("web.not_found", "There is no such page.")
message("web.you", "you")
message("web.bot", "bot")
message("web.online", "online")
message("web.away", "away")
message("web.stand_in", "a bot plays for them")
message("web.stand_in.button", "Let a bot play for {name}")
# TRANSLATORS: the turn clock: the time left for the player to move; {time}: minutes
# and seconds as 2:05 (or hours, 1:02:05)
message("web.clock", "{time} left for this move")
message("web.clock.out", "out of time")
# TRANSLATORS: the new-match form: how long each player may think about one move
message("web.clock.choice", "Time for each move")
message("web.clock.none", "no limit")
# TRANSLATORS: {n}: a number of minutes
plural_message("web.clock.minutes", "{n} minute", "{n} minutes", count="n")
# TRANSLATORS: {n}: a number of hours
plural_message("web.clock.hours", "{n} hour", "{n} hours", count="n")
message("web.reclaim", "A bot is playing for you.")
message("web.reclaim.button", "Take my seat back")
message("web.connection.lost", "Connection lost: connecting again…")
message("web.connection.back", "Connected again.")
message("web.spectating", "You are watching this match.")
message("web.your_turn", "Your turn")
message("web.waiting_for", "Waiting for {name}…")
# TRANSLATORS: the line under the moves' heading for a player whose turn it is not;
# {name}: the player to move
message("web.wait.player", "{name} is choosing a move. This page tells you when it is your turn.")
# TRANSLATORS: the same line for a spectator; {name}: the player to move
message("web.wait.spectator", "{name} is choosing a move.")
message("web.choose", "Your moves")
message("web.choose.card", "Choose a card from your hand, then what to do with it.")
message("web.choose.other", "Or:")
message("web.cancel", "Back")
message("web.hint", "Hint")
message("web.hint.thinking", "Thinking…")
# TRANSLATORS: {win}: a percentage such as 62%; {margin}: points, such as +3.5
message("web.hint.line", "{move}: chance to win {win}, expected margin {margin}")
message("web.undo", "Take back")
# TRANSLATORS: above the list of the moves that "Take back" removed (the player's own
# last decision and the bots' moves after it)
plural_message("web.undone", "{count} move taken back:", "{count} moves taken back:")
# TRANSLATORS: a button beside a hint: play the move the hint suggests
message("web.hint.play", "Play it")
# TRANSLATORS: a field where a move is typed in the notation of the
# terminal game; "draw" as your move.word.draw says
message("web.type_move", "Or type a move (G7, -G7, draw G …)")
message("web.type_move.button", "Play")
message("web.log", "Game log")
message("web.log.line", "{name}: {what}")
# TRANSLATORS: the heading of a panel beside the game log: each other player's turn since
# this player's own last decision, in words
message("web.since.title", "Since your last move")
# TRANSLATORS: the same panel for a spectator: what happened since the player to move now
# ended their previous turn; {name}: that player
message("web.since.watch", "Since {name}'s last turn")
# TRANSLATORS: a button of that panel: play the other players' turns back on the board,
# one after the other
message("web.since.again", "Show again")
# TRANSLATORS: a small button after a one-line summary of the other players'
# turns, beside the instruction: it goes down to the panel that tells each
# turn in full
message("web.since.more", "Details")
# TRANSLATORS: before the cards another player is known to hold, because they took them
# from the discard piles (the other cards of their hand stay hidden)
message("web.known", "Taken from the discard piles:")
# TRANSLATORS: said of a stone of the board: another player's figure moved onto it since
# this player's last move
message("web.mark.stone", "{name}'s figure moved here")
# TRANSLATORS: said of a stone of the board: another player took the tile that lay on it
# since this player's last move
message("web.mark.tile", "{name} took the tile here")
# TRANSLATORS: beside a discard pile: another player laid {card} (a card's name) onto it
# since this player's last move
message("web.mark.discarded", "{name} discarded {card} here")
# TRANSLATORS: beside a discard pile: another player took {card} (a card's name) from it
# since this player's last move
message("web.mark.taken", "{name} took {card} from here")
message("web.hand", "Your hand")
plural_message("web.hand.other", "{name}: {count} card in hand", "{name}: {count} cards in hand")
message("web.hand.card", "{card}, in your hand")
# TRANSLATORS: what a card of the player's hand can do now, said after the
# card's name and beside a ✓ mark on it (in both games; in the card game a
# point card may also go on the point row)
message("web.hand.can_lay", "can be laid in one of your rows")
# TRANSLATORS: the same, beside a ↓ mark: the card can only go onto a discard pile
message("web.hand.discard_only", "can only be discarded")
# TRANSLATORS: the same, beside a ✕ mark (the card game's last cards: no discards)
message("web.hand.not_now", "cannot be played now")
message("web.board", "The board")
message("web.path", "{path} path")
# TRANSLATORS: a stone of a path: {path}: its colour; {row}: 1-9;
# {value}: what a figure there scores
message("web.stone", "{path} path, row {row} (value {value})")
message("web.figures_here", "figures here: {names}")
message("web.figure.big", "big figure of {name}")
message("web.figure.small", "figure of {name}")
message("web.score_track", "Score track")
message("web.scores", "Scores")
plural_message("web.score_of", "{name}: {score} point", "{name}: {score} points", count="score")
message("web.rows", "Rows")
message("web.row.empty", "no cards yet")
message("web.direction.open", "direction still open")
message("web.direction.ascending", "ascending")
message("web.direction.descending", "descending")
message("web.discards", "Discard piles")
message("web.pile.empty", "empty")
message("web.deck", "Draw pile")
message("web.wish_stones", "Wish stones")
# TRANSLATORS: a card of the card game's point cards, e.g. "point card 5"
message("web.point_card", "point card {value}")
# TRANSLATORS: the card game's point cards (their discard pile, the tag of the point row)
message("web.point_cards", "point cards")
# TRANSLATORS: a closing card of a colour, e.g. "green closing card"
message("web.closing_card", "{colour} closing card")
# -- the browser's instructions: in words, the notation only in the box to type a move in
message(
    "web.phase.board.play",
    "{name}: play a card – choose one in your hand, then lay it on your row of its colour or "
    "discard it.",
)
message(
    "web.phase.board.clover",
    "{name}: clover! You may move any of your figures one stone forward – choose its stone on "
    "the board – or pass.",
)
message(
    "web.phase.board.overflow",
    "{name}: your figure on the {path} path already stands on the end stone, so you may move "
    "another figure one stone forward instead – choose its stone on the board – or pass.",
)
message(
    "web.phase.board.draw",
    "{name}: now draw a card – from the draw pile or the top of a discard pile, but not the "
    "card you have just discarded.",
)
message(
    "web.phase.cards.play",
    "{name}: choose a card in your hand – lay it on one of your rows, claim a wish stone with "
    "two cards of one value, or discard it.",
)
plural_message(
    "web.phase.cards.draw",
    "{name}: refill your hand – {count} card to draw, from the draw pile or the top of a "
    "discard pile, but not a pile you discarded to this turn.",
    "{name}: refill your hand – {count} cards to draw, from the draw pile or the top of a "
    "discard pile, but not a pile you discarded to this turn.",
)
# TRANSLATORS: under the box to type a move in: every move the box
# accepts. Keep the cards and colour letters (G7, -G7, >G, G) as they
# are; write draw, pass, big, small as your move.word.* messages say
# (the first word of each): that is what the box reads
message(
    "web.type_move.help.board",
    "For example: G7 lays green 7, -G7 discards it, big or small chooses the figure that "
    "enters a path, >G moves your figure on the green path, pass lets that move go, draw takes "
    "the top card of the draw pile, draw G the top card of the green discard pile.",
)
# TRANSLATORS: see web.type_move.help.board (draw, pass, wish as your
# move.word.* messages say)
message(
    "web.type_move.help.cards",
    "For example: G7 lays green 7, GX the green closing card, *7 a point card (*7>G onto your "
    "green row), wish G5 *5 claims wish stone 5 with two fives, -G7 discards, draw takes the "
    "top card of the draw pile, draw G (or draw *) the top card of a discard pile, pass lays "
    "no more cards after the end.",
)
# TRANSLATORS: the label of a small "?" beside a term of the game (closing
# card, point card, wish stone, the big figure) that opens the rules there
message("web.rule.about", "{term}: what the rules say")
# TRANSLATORS: the term, as {term} in web.rule.about: the figure that scores double
message("web.term.big_figure", "the big figure")
# -- a score explained (tap a player's score): its parts as they stand
# TRANSLATORS: said after a player's score, on the button that shows its parts
message("web.parts.button", "how the score is made up")
# TRANSLATORS: a figure on a path and what it scores, e.g. "green path, row 3"
message("web.parts.path", "{path} path, row {row}")
message("web.parts.path.big", "{path} path, row {row}, big figure: double")
message("web.parts.none", "no figure on a path yet")
# TRANSLATORS: a colour row of the card game and its length, e.g. "green row, 3 cards"
plural_message("web.parts.row", "{row} row, {count} card", "{row} row, {count} cards")
# TRANSLATORS: how many wish stones a player holds; the points they give
# stand beside it (0 wish stones give -4)
plural_message("web.parts.wishes", "{count} wish stone", "{count} wish stones")
message("web.wish_stone", "wish stone {value}")
message("web.tiles", "Tiles – points: {points}, wish stones: {wishes}")
message("web.closed_rows", "Rows with a closing card: {count} of {total}")
message("web.last_move", "last move")
message("web.final", "Final scores")
# TRANSLATORS: the player named may be a man or a woman: use a form
# that fits both (a verb rather than a noun: "gana", "wygrywa", not
# "ganador", "zwycięzca")
message("web.winner", "winner")
message("web.play_again", "Play again")
# TRANSLATORS: after a match between people, when another player has asked to play
# again: take one's own seat in that next match
message("web.again.join", "Join the next match")
# TRANSLATORS: a button after a match between people, when another player has asked
# to play again: say no to that rematch (it is cancelled)
message("web.again.no", "No thanks")
# TRANSLATORS: the player asked to play again and waits; {names}: the other players
message("web.again.waiting", "Waiting for {names} to join the rematch.")
# TRANSLATORS: a button beside "Waiting for … to join the rematch": give up waiting
message("web.again.cancel", "Cancel")
# TRANSLATORS: a link beside "Waiting for … to join the rematch": open that match
message("web.again.open", "Go to the rematch")
# TRANSLATORS: {name}: the player (a man or a woman) who said no to playing again
message("web.again.declined", "{name} said no thanks to a rematch.")
# TRANSLATORS: {name}: the player (a man or a woman) who had asked to play again, then
# gave up waiting
message("web.again.withdrew", "{name} cancelled the rematch.")
message("web.again.you_declined", "You said no thanks to the rematch.")
message("web.again.you_withdrew", "You cancelled the rematch.")
# TRANSLATORS: the page of a rematch that will never be played
message("web.again.cancelled", "This rematch was cancelled: a player said no thanks.")
message("web.again.back", "Back to the finished match")
# TRANSLATORS: a link in a notice at the top of every page ("… said no thanks to a
# rematch."): open the match it is about
message("web.notice.open", "Open the match")
# TRANSLATORS: a button in a notice at the top of every page: hide it for good
message("web.notice.dismiss", "Dismiss")
message("web.replay.move", "Move {ply} of {total}")
message("web.replay.first", "Start")
message("web.replay.back", "Back")
message("web.replay.next", "Next")
message("web.replay.last", "End")
message("web.replay.start", "The start of the game.")
# TRANSLATORS: the replay page's link that saves the finished match's record as a file
message("web.replay.download", "Download record")
# TRANSLATORS: the replay's list of all moves (each one a button that shows the game
# after it)
message("web.replay.moves", "All moves")
message("web.screenshot.alt", "The Keltis board game in the browser")
message("web.shortcuts", "Keys: Tab and Enter choose; 1–9 pick a move; h hint; u take back.")

# -- the rules pages of the browser client ("How to play", web/src/rules.tsx) --------------
# TRANSLATORS: the rules pages speak to a person who has never played, in the
# words of the printed rulebook; never notation (G7, *5), every number and
# colour in words or pictures

message("web.how_to_play", "How to play")
message("rules.title.board", "How to play Keltis, the board game")
message("rules.title.cards", "How to play Keltis, the card game")
message("rules.contents", "Contents")
# TRANSLATORS: before a link to the other game's rules page
message("rules.other", "The other game:")
# TRANSLATORS: {id}: a rule's id, B-1 … B-24 or C-1 … C-19 (the same in every language)
message("rules.anchor", "Rule {id}: a link to this section")
message("rules.close", "Close the rules")
# TRANSLATORS: a link from a refused move to the rule that refused it, which
# opens the rules at that rule; {id}: the rule's id, B-1 … C-19
message("rules.link", "Rule {id}")
message("rules.h.components", "What you need")
message("rules.h.setup", "Set-up")
message("rules.h.end", "The end of the game")
message("rules.h.scoring", "Scoring")
message("rules.h.variants", "Rule switches")
message("rules.deal.title", "Dealing")
message("rules.two.title", "Two players")
message(
    "rules.two",
    "With two players, 30 cards are taken from the draw pile unseen and put back in the box: "
    "they are not used in this game.",
)
message("rules.start.title", "Who begins")
message("rules.direction.title", "Ascending or descending")
message(
    "rules.direction",
    "As long as all the cards in a row have the same value, any value may follow. The first "
    "card of a different value decides the direction for good: if it is higher, the row is "
    "ascending and every next card must be the same or higher; if it is lower, the row is "
    "descending and every next card must be the same or lower. An equal value always fits.",
)
message("rules.deck.title", "The last card")
message("rules.wishes.title", "Wish stones")
message("rules.winner.title", "The winner")
message(
    "rules.winner",
    "The highest total wins. Players who tie on the highest total share the victory.",
)
message(
    "rules.score_now",
    "During the game each player's score shows the total as if the game ended now. That is "
    "why everyone starts at −4: nobody has a wish stone yet.",
)
# TRANSLATORS: {form}: web.create; {rules}: web.rules; {now}: web.play_now (put them in
# your language's quotation marks)
message(
    "rules.variants",
    "When you set up a match with “{form}”, the form offers these switches under “{rules}”. "
    "“{now}” always plays with the defaults.",
)
# TRANSLATORS: {switch}: web.variant.no_take_back
message(
    "rules.variants.no_take_back",
    "“{switch}”: on unless you switch it off. Switched off, you may draw back the card you "
    "discarded in the same turn, as the printed rulebooks allow – but then discarding and "
    "taking back is a way to pass, and a game can drag on.",
)
# TRANSLATORS: {switch}: web.variant.turn_cap
message(
    "rules.variants.turn_cap",
    "“{switch}”: the game stops after this many turns (1000 unless you change it), with the "
    "scores as they stand then. A stopped game is not a normal finish; the limit only makes "
    "sure that every game ends.",
)
# TRANSLATORS: the tables' captions and headings
message("rules.table.path", "What a figure scores on each stone of its path")
message("rules.table.stone", "Stone")
message("rules.table.small", "Small figure")
message("rules.table.big", "Big figure")
message("rules.table.wishes", "What wish stones score")
message("rules.table.rows", "What a colour row scores")
message("rules.table.count", "Number")
message("rules.table.cards", "Cards in the row")
message("rules.table.points", "Points")
# TRANSLATORS: the last column of a table: "5 or more" wish stones, "9 or more" cards
message("rules.table.or_more", "{count} or more")

# -- the board game's rules page
message(
    "rules.board.intro",
    "Play cards to move your figures along the five stone paths. For every path you build "
    "your own row of cards, ascending or descending. The further a figure gets, the more it scores "
    "at the end, and the wish stones found on the way bring more points – but too few of them "
    "cost points. The highest score wins.",
)
message("rules.board.h.turn", "A turn: play one card, then draw one")
message("rules.board.h.tiles", "The tiles on the paths")
message("rules.board.cards.title", "Cards")
message(
    "rules.board.cards",
    "110 cards in five colours – green, yellow, red, pink and blue – each colour with the "
    "values 0 to 10 twice. Every colour also has its own symbol, so you never have to tell "
    "the colours apart by their hue alone.",
)
message("rules.board.paths.title", "The stone paths")
message(
    "rules.board.paths",
    "The board has five stone paths, one for each colour. They all begin at the one shared "
    "start stone, and each has nine stones. At the end of the game a figure scores the value "
    "beside its stone: minus points on the first three stones, plus points from the fourth "
    "on. The last three stones of every path are the goal area; the ninth is the path's "
    "large end stone.",
)
message("rules.board.tiles.title", "Tiles")
message(
    "rules.board.tiles",
    "25 tiles: 9 wish stones, 9 clovers and 7 point tiles (two worth 1 point, three worth 2 "
    "and two worth 3).",
)
message("rules.board.places.title", "Dark stones")
message(
    "rules.board.places",
    "Each path has four dark stones. A tile lies on every dark stone and on every end stone: "
    "25 places for the 25 tiles. The board in the game shows which stones are dark.",
)
message("rules.board.pieces.title", "Figures and the score track")
message(
    "rules.board.pieces",
    "Each player has four small figures and one big figure, all on the start stone at first, "
    "and a marker on the score track.",
)
message("rules.board.lay_tiles.title", "Laying out the tiles")
message(
    "rules.board.lay_tiles",
    "The 25 tiles are shuffled and laid face up, one on every dark stone and one on every end "
    "stone.",
)
message(
    "rules.board.deal",
    "The cards are shuffled and each player gets 8. The rest are laid face down as the draw pile.",
)
message(
    "rules.board.start",
    "The player in seat 1 begins; then the turn passes from seat to seat. (The printed rules "
    "let the player who was in Ireland most recently begin, or else the oldest.)",
)
message("rules.board.play.title", "Play a card")
message(
    "rules.board.play",
    "On your turn you play exactly one card from your hand and then draw one. To play a card, "
    "either discard it face up onto the discard pile of its colour (there is one for each "
    "colour), or lay it face up in front of you, in your row of that colour. You have only "
    "one row of cards per colour, so you never have more than one figure on a path.",
)
message("rules.board.first.title", "The first card of a colour")
message(
    "rules.board.first",
    "The first card you lay in a colour may have any value. One of your figures still on the "
    "start stone – you choose: the big one or a small one – enters that colour's path on its "
    "first stone.",
)
message("rules.board.next.title", "Every further card")
message(
    "rules.board.next",
    "Every further card of that colour must follow your row's direction (see below). Then "
    "your figure on that path moves one stone forward.",
)
message("rules.board.overflow.title", "A figure on its end stone")
message(
    "rules.board.overflow",
    "When your figure on a path already stands on its end stone, you may still lay cards of "
    "that colour, following the direction. Each such card may instead move one of your other "
    "figures one stone forward: any figure that is already on a path and not on its end "
    "stone. You may also leave it.",
)
message("rules.board.draw.title", "Draw a card")
message(
    "rules.board.draw",
    "After playing, draw one card so that you hold eight again: the top card of the draw "
    "pile, or the top card of any discard pile – but not the card you discarded in this same "
    "turn.",
)
message(
    "rules.board.tiles_act",
    "Whenever one of your figures arrives on a stone with a tile – moved by a card you lay, by "
    "a clover, or by a card of a path whose end stone your figure has already reached – the "
    "tile acts:",
)
message("rules.board.points.title", "Point tile")
message(
    "rules.board.points",
    "Your score rises at once by the tile's value – not doubled, even for the big figure. The "
    "tile stays where it is and scores again for every figure that arrives later, yours or "
    "anyone's.",
)
message("rules.board.clover.title", "Clover")
message(
    "rules.board.clover",
    "You may move one of your figures one stone forward: the same figure or another, but "
    "only one that is already on a path and not on its end stone. The clover stays. If that "
    "figure reaches a tile too, that tile acts as well, so clovers can chain.",
)
message("rules.board.wish.title", "Wish stone")
message(
    "rules.board.wish",
    "You take the wish stone and keep it in front of you; the stone is empty from then on. "
    "Wish stones count at the end of the game (see the table under Scoring).",
)
message("rules.board.goal.title", "Five figures in the goal area")
message(
    "rules.board.goal",
    "The game ends at once when the fifth figure enters the goal area (the last three stones "
    "of the paths) – all players' figures counted together, on any paths. The tile on the "
    "stone that fifth figure reached does nothing, and nobody draws.",
)
message(
    "rules.board.deck",
    "The game also ends at once when a player draws the last card of the draw pile.",
)
message("rules.board.figures.title", "Figures")
message(
    "rules.board.figures",
    "Every figure on a path scores the value beside its stone; the big figure scores double "
    "– minus points too. Figures still on the start stone score nothing.",
)
message("rules.board.tile_points.title", "Point tiles")
message(
    "rules.board.tile_points",
    "Add the points of the point tiles your figures reached during the game; the score track "
    "shows them as you go.",
)
message("rules.board.wishes", "Wish stones score by how many you have; too few cost points.")

# -- the card game's rules page
message(
    "rules.cards.intro",
    "Lay your cards in rows by colour, each row ascending or descending. Long rows score well, "
    "short ones cost points, and wish stones and point cards bring more. The highest score "
    "wins.",
)
message("rules.cards.h.turn", "A turn: one action, then fill your hand")
message("rules.cards.numbers.title", "Number cards")
message(
    "rules.cards.numbers",
    "80 number cards in five colours – green, yellow, red, pink and blue. Each colour has one "
    "each of 0, 1, 2, 8, 9 and 10, and two each of 3, 4, 5, 6 and 7.",
)
message("rules.cards.closing.title", "Closing cards")
message(
    "rules.cards.closing",
    "10 closing cards, two of each colour. They have no value: they close a row.",
)
message("rules.cards.points.title", "Point cards")
message(
    "rules.cards.points",
    "11 point cards with the values 0 to 10 in their corner. In your point row each one is "
    "worth 1 point.",
)
message(
    "rules.cards.wish_cards",
    "9 wish stone cards with the values 1 to 9. They lie face up in a row on the table from "
    "the start and are never dealt.",
)
message(
    "rules.cards.deal",
    "The other 101 cards are shuffled and each player gets 8; the rest are the draw pile, "
    "face down.",
)
message(
    "rules.cards.start",
    "The player in seat 1 begins; then the turn passes from seat to seat. (The printed rules "
    "let the oldest player begin.)",
)
message(
    "rules.cards.turn",
    "On your turn you do one of the following, then draw until you hold 8 cards again:",
)
message("rules.cards.discard.title", "Discard a card")
message(
    "rules.cards.discard",
    "Discard one card face up: a number or closing card onto the discard pile of its colour, "
    "a point card onto the sixth pile, the one for point cards.",
)
message("rules.cards.claim.title", "Claim a wish stone")
message(
    "rules.cards.claim",
    "Discard two cards of the same value – number cards of any colours, point cards, or one "
    "of each – and take the wish stone of that value, if it still lies in the row. So only "
    "the values 1 to 9 can claim one.",
)
message("rules.cards.lay.title", "Lay a number card")
message(
    "rules.cards.lay",
    "Lay a number card in your row of its colour; you have one row for each colour. Every "
    "row is ascending or descending, as in the board game:",
)
message("rules.cards.close.title", "Lay a closing card")
message(
    "rules.cards.close",
    "A closing card goes at the end of your row of its colour; it cannot start a row. After "
    "it the row takes no more number or point cards, only the second closing card of that "
    "colour, and after that nothing more.",
)
message("rules.cards.point.title", "Lay a point card")
message(
    "rules.cards.point",
    "Lay a point card either in your point row – any value, in any order – or at the end of "
    "one of your colour rows whose last card has the same value (not on a closed row). In a "
    "colour row it counts as one of that row's cards.",
)
message("rules.cards.draw.title", "Draw")
message(
    "rules.cards.draw",
    "Then draw one card – two after claiming a wish stone – so that you hold eight again. "
    "Each is the top card of the draw pile or of any discard pile, but never from a pile "
    "that got a card in this turn.",
)
message("rules.cards.closed.title", "Five closed rows")
message(
    "rules.cards.closed",
    "When a closing card is laid and five rows now hold a closing card – all players' rows "
    "counted together, a row with two of them once – the game ends. That player does not "
    "draw.",
)
message(
    "rules.cards.deck",
    "The game also ends when a player draws the last card of the draw pile; after a claim, "
    "the second card is then not drawn.",
)
message("rules.cards.last.title", "The last cards")
message(
    "rules.cards.last",
    "Then each player may add up to two more cards from the hand to rows they already have – "
    "colour rows or the point row – by the usual rules, starting with the next player and "
    "ending with the one who ended the game. Nobody discards, claims or draws any more.",
)
message("rules.cards.rows.title", "Colour rows")
message(
    "rules.cards.rows",
    "Each colour row scores by how many cards it has – number, point and closing cards all "
    "count. A colour you never started scores nothing.",
)
message("rules.cards.point_row.title", "Point row")
message("rules.cards.point_row", "Each card in your point row scores 1 point.")
message(
    "rules.cards.wishes",
    "Wish stones score by how many you have – by another table than the board game's.",
)

# -- refusals (declared in keltis.core.refusals) ------------------------------------------

for _key, _english in REFUSALS.items():
    MESSAGES[f"refuse.{_key}"] = Message(f"refuse.{_key}", _english)

# -- the guided first games ("Learn to play", keltis.server.tutorials) --------------------

message("tutorial.learn", "Learn to play")
message(
    "tutorial.learn.detail",
    "A short guided game against one easy opponent: each step says what to do and why. "
    "About five minutes.",
)
message("tutorial.learn.board", "Learn the board game")
message("tutorial.learn.cards", "Learn the card game")
message("tutorial.heading", "Your first game")
# TRANSLATORS: {step}: the step the lesson is at; {count}: how many steps it has
message("tutorial.progress", "Step {step} of {count}")
message("tutorial.starting", "Setting up the lesson …")
# TRANSLATORS: {name}: the opponent's name (Brigid)
message("tutorial.wait", "{name} is playing. What she does is marked on the table.")
# TRANSLATORS: {move}: the move the player chose, in words; {wanted}: the move the
# lesson asks for, in words. The step's explanation follows.
message(
    "tutorial.off_script",
    "Not now: “{move}” is allowed by the rules, but this lesson needs “{wanted}” here, "
    "and it does not play your move. Why:",
)
message("tutorial.restart", "Start the lesson again")
message("tutorial.leave", "Leave the lesson")
# TRANSLATORS: tutorial.fold, tutorial.unfold: a small button beside the lesson's heading
# that hides its words (to see the whole board) and shows them again
message("tutorial.fold", "Hide")
message("tutorial.unfold", "Show")
message(
    "tutorial.free",
    "You have met every kind of move. Play on as you like until the game ends.",
)
# TRANSLATORS: a refused request for a lesson; {name}: the name the client asked for
message("tutorial.unknown", "There is no lesson called “{name}”.")
message("tutorial.done.title", "You finished your first game!")
message(
    "tutorial.board.start_row",
    "Each turn you play one card and then draw one. Start your green row: choose the green 3 "
    "in your hand and lay it. A first card may have any value, and it brings one of your "
    "figures onto the green path.",
)
message(
    "tutorial.board.big",
    "Send your big figure. At the end it scores double – its minus points too – so give it "
    "the path with the most cards for it: green, with the 5 and the 9 in your hand and the 6 "
    "on the green discard pile.",
)
message(
    "tutorial.board.draw_deck",
    "Now draw a card, so that you hold eight again: click the draw pile.",
)
message(
    "tutorial.board.rising",
    "Lay the green 5. After the 3 your green row now rises: from here on only green cards of "
    "5 or more may follow. Each card moves your figure one stone forward.",
)
message(
    "tutorial.board.clover",
    "Your figure reached a clover: you may move one of your figures one more stone. Click the "
    "marked stone to move the big figure on.",
)
message(
    "tutorial.board.draw_pile",
    "You may also take the top card of a discard pile – everyone sees which. The green 6 "
    "fits your rising green row: take it from the green discard pile.",
)
message(
    "tutorial.board.wish",
    "Start a second row with the yellow 8. Only small figures are left at the start, so one "
    "of them goes. Its stone holds a wish stone: you take it. Wish stones count at the end: "
    "with fewer than two you lose points, with five or more you gain 10.",
)
message("tutorial.board.draw", "Draw a card from the draw pile.")
message(
    "tutorial.board.falling",
    "Lay the yellow 6. After the 8 your yellow row now falls: from here on only yellow cards "
    "of 6 or less may follow.",
)
message(
    "tutorial.board.points",
    "Lay the green 6 you took. Your big figure reaches a point tile: its points are yours at "
    "once (not doubled), and the tile stays for the others.",
)
message(
    "tutorial.board.discard",
    "Not every card helps. The red 1 would start a red row on the first stones, which cost "
    "points (−4, −3, −2). Discard it instead: choose the red 1, then discard it.",
)
message(
    "tutorial.board.no_take_back",
    "You may not take back the card you have just discarded, or a turn could pass without "
    "playing. Draw from the draw pile.",
)
message(
    "tutorial.board.last",
    "Only one card is left in the draw pile. The game ends when someone draws the last card, "
    "or at once when the fifth figure reaches the goal area (the top three rows). First lay "
    "the green 8: your big figure moves on.",
)
message(
    "tutorial.board.end",
    "Now draw the last card: the game ends and the scores are counted.",
)
message(
    "tutorial.board.done",
    "Each figure scores the value of its stone, the big figure double; add your point tiles "
    "and your wish stones by their table. The scores are below. Play a real game, or read "
    "the rules.",
)
message(
    "tutorial.cards.start_row",
    "Each turn you play one card and then fill your hand up to eight. Lay the green 3: it "
    "starts your green row. A row scores by how many cards it has: one card costs 4 points, "
    "nine or more bring 10.",
)
message("tutorial.cards.draw", "Fill your hand up again: click the draw pile.")
message(
    "tutorial.cards.rising",
    "Lay the green 5. After the 3 your green row now rises: from here on only green cards of "
    "5 or more may follow.",
)
message(
    "tutorial.cards.point_on_row",
    "A point card may go on the end of a colour row whose last card has its value: lay your "
    "point card 5 on the green 5. It counts as one more card of that row.",
)
message(
    "tutorial.cards.point_row",
    "Or lay a point card in your point row, in any order: each card there is worth 1 point. "
    "Lay the point card 2 there.",
)
message(
    "tutorial.cards.longer",
    "Lay the green 7: your green row grows, and a longer row scores more.",
)
message(
    "tutorial.cards.wish",
    "Two cards of the same value buy the wish stone with that value: discard your yellow 4 "
    "and red 4 to claim wish stone 4. Choose the yellow 4, then the wish stone.",
)
message(
    "tutorial.cards.draw_two",
    "After a claim you draw two cards, one after the other: click the draw pile.",
)
message(
    "tutorial.cards.closing",
    "A closing card ends a row and counts as one more card of it. No other green card is "
    "left in your hand and the draw pile is nearly empty: lay the green closing card on your "
    "green row, whose five cards then score 2 points. After it only the second green closing "
    "card may follow. Once five rows – counting everyone's – hold a closing card, the game "
    "ends.",
)
message(
    "tutorial.cards.last",
    "Draw: this is the last card of the draw pile, so the game ends. Then everyone may still "
    "lay up to two cards from the hand on rows they already have.",
)
message(
    "tutorial.cards.final",
    "Lay your point card 7 in your point row: one more point. Then the scores are counted.",
)
message(
    "tutorial.cards.done",
    "Each colour row scores by its number of cards, each card of the point row 1 point, and "
    "the wish stones by their table. The scores are below. Play a real game, or read the "
    "rules.",
)

# -- time controls and turn e-mails (keltis.server.clocks, keltis.server.mail) ------------

message(
    "server.timed_out",
    "Your time for this match ran out: a bot plays your seat to the end.",
)
# TRANSLATORS: an e-mail's subject; {game}: the game's title (title.board or
# title.cards); {opponents}: the other players' names, separated by commas
message("mail.turn.subject", "Your turn: {game} against {opponents}")
# TRANSLATORS: an e-mail's text, plain text (keep the line breaks and
# the two links as they are); {name}: the player's account name;
# {deadline}: a date and time such as 2026-11-27 18:04 UTC; {link}:
# the match's address; {unsubscribe}: the address that turns these
# e-mails off
message(
    "mail.turn.body",
    "Hello {name},\n\n"
    "it is your turn in your correspondence match of {game} against {opponents}.\n"
    "Decide by {deadline}: after that, a bot plays your seat to the end of the match.\n\n"
    "Open the match: {link}\n\n"
    "--\n"
    "You get this e-mail because e-mails about your turns are on in your Keltis account.\n"
    "Turn them off with one click: {unsubscribe}",
)
# TRANSLATORS: the title of the page an e-mail's unsubscribe link opens
message("mail.unsubscribe.title", "E-mails about your turns")
message(
    "mail.unsubscribe.text",
    "Keltis e-mails you when it is your turn in a correspondence match. Press the button "
    "to get no more of these e-mails (you can turn them on again in your account).",
)
message("mail.unsubscribe.button", "Turn the e-mails off")
message("mail.unsubscribe.home", "Back to the start page")
message(
    "mail.unsubscribe.done",
    "Done: you get no more e-mails about your turns. Turn them on again in your account.",
)
message(
    "mail.bad_unsubscribe",
    "This unsubscribe link is not valid: copy the whole link from the e-mail.",
)
# TRANSLATORS: an e-mail's subject; {name}: the account's name
message("mail.reset.subject", "Keltis: a new password for {name}")
# TRANSLATORS: an e-mail's text, plain text (keep the line breaks and the
# link as it is); {name}: the account's name; {link}: the page that sets
# the new password; {valid}: the sentence mail.reset.valid
message(
    "mail.reset.body",
    "Hello {name},\n\n"
    "someone, probably you, asked to set a new password for your Keltis account {name}.\n"
    "Choose it here: {link}\n"
    "{valid}\n\n"
    "If it was not you, ignore this e-mail: your password stays as it is.",
)
# TRANSLATORS: a sentence of mail.reset.body; {count}: minutes (30)
plural_message(
    "mail.reset.valid",
    "The link works once, for {count} minute.",
    "The link works once, for {count} minutes.",
)
# TRANSLATORS: an e-mail's subject; {name}: the account's name
message("mail.confirm.subject", "Keltis: confirm the e-mail address of {name}")
# TRANSLATORS: an e-mail's text, plain text (keep the line breaks and the
# link as it is); {name}: the account's name; {link}: the page that
# confirms the address; {valid}: the sentence mail.confirm.valid
message(
    "mail.confirm.body",
    "Hello {name},\n\n"
    "this address was given for the Keltis account {name}. If it is yours, confirm it "
    "here: {link}\n"
    "{valid}\n\n"
    "Until then Keltis sends nothing else to this address: no e-mails about your turns, no "
    "links to set a new password. If you did not give it, ignore this e-mail.",
)
# TRANSLATORS: a sentence of mail.confirm.body; {count}: hours (24)
plural_message(
    "mail.confirm.valid",
    "The link works once, for {count} hour.",
    "The link works once, for {count} hours.",
)

# -- the lobby's seeks (keltis.server.seeks, docs/server.md "The lobby: seeks") -----------

message("seek.no_seek", "There is no such seek.")
message("seek.not_open", "This seek is no longer open: it has started or was cancelled.")
message("seek.full", "This seek is full.")
message("seek.own", "This is your own seek: you are in it already.")
message("seek.joined", "You have joined this seek already.")
message("seek.not_joined", "You are not in this seek.")
message(
    "seek.rating_range",
    "Your rating in this game, {rating}, is outside this seek's range ({range}).",
)
message(
    "seek.too_many",
    "You have {limit} open seeks already: cancel one before you open another.",
)
message("seek.busy", "Many players are joining this seek at once: try again.")
message(
    "seek.slow_down",
    "You are opening, joining or leaving seeks too often: wait a little, then try again.",
)

# -- quick pairing (keltis.server.pool, docs/server.md "Quick pairing") -------------------

message(
    "pool.slow_down",
    "You are looking for players too often: wait a little, then try again.",
)
message("pool.not_in", "You are not waiting for a match.")

message("tournament.no_tournament", "There is no such tournament.")
# TRANSLATORS: {low}, {high}: numbers of characters; {marks}: the marks allowed
message(
    "tournament.bad_name",
    "A tournament's name is {low} to {high} characters: letters, digits, single spaces and "
    "the marks {marks}, without a space at either end.",
)
message(
    "tournament.bad_start",
    "The start must be in the future, at most {days} days from now.",
)
message(
    "tournament.too_many",
    "You have {limit} tournaments that have not finished yet: create another once one ends.",
)
message(
    "tournament.per_day",
    "You have created {limit} tournaments in the last day: try again tomorrow.",
)
message("tournament.finished", "This tournament has finished: nobody joins or withdraws now.")
plural_message(
    "tournament.full",
    "This tournament is full: it takes {limit} player.",
    "This tournament is full: it takes {limit} players.",
    count="limit",
)
message("tournament.joined", "You are in this tournament already.")
message("tournament.not_joined", "You are not in this tournament.")
message(
    "tournament.slow_down",
    "You are joining or withdrawing too often: wait a little, then try again.",
)


# -- web: community --------------------------------------------------------------------------
# The browser client's accounts, lobby, ratings, player pages, turn badge, chat and time
# controls (web/src/header.tsx, account.tsx, lobby.tsx, ratings.tsx, chat.tsx).

# TRANSLATORS: the name of the header's navigation (and of the button that opens it on a
# phone)
message("web.nav", "Menu")
message("web.lobby", "Lobby")
# TRANSLATORS: the leaderboard of a game's ratings (a link in the header, a page's
# heading)
message("web.ratings", "Ratings")
# TRANSLATORS: on a player's page, the heading of that player's own rating in each game
# (a number per game), not the leaderboard of web.ratings
message("web.player.ratings", "Ratings")
message("web.account.log_in", "Log in")
message("web.account.log_out", "Log out")
message("web.account.register", "Register")
message("web.account.create", "Create my account")
message("web.account.page", "My page")
message("web.account.name", "Name")
message(
    "web.account.name_help",
    "3 to 20 characters: the letters A to Z without accents, the digits 0 to 9, _ and -. "
    "No spaces.",
)
message("web.account.password", "Password")
message(
    "web.account.password_help",
    "At least 8 characters; not a common password, nor your name.",
)
message("web.account.password_again", "The password again")
message("web.account.passwords_differ", "The two passwords differ.")
message("web.account.email", "E-mail address")
message("web.account.email_optional", "E-mail address (if you like)")
message(
    "web.account.email_help",
    "Only for e-mails when it is your turn in a correspondence match (you can turn them off) "
    "and for a link to set a new password. We first send a link to confirm the address.",
)
message(
    "web.account.why",
    "With an account you keep your name, get ratings and a page of your own, play in the "
    "lobby and by correspondence, and chat in matches. Guests can still play without one.",
)
# TRANSLATORS: on the register page: the matches this browser played as a guest
plural_message(
    "web.account.keeps_seats",
    "Your account keeps the {count} match this browser plays as a guest.",
    "Your account keeps the {count} matches this browser plays as a guest.",
)
# TRANSLATORS: a check box on the log-in page
plural_message(
    "web.account.take_seats",
    "Add the {count} match this browser plays as a guest to my account",
    "Add the {count} matches this browser plays as a guest to my account",
)
message("web.account.no_account", "No account yet?")
message("web.account.have_account", "Already have an account?")
message("web.account.logged_in", "Logged in as {name}.")
message("web.account.logged_out", "Logged out.")
message("web.account.welcome", "Welcome, {name}: your account is ready.")
message("web.account.needed", "Log in to see your settings.")
message("web.account.unavailable", "This server has no accounts.")
message("web.settings", "Settings")
# TRANSLATORS: {name}: the account's name
message("web.settings.as", "Logged in as {name}")
message("web.settings.language", "The language of the pages and of e-mails")
message("web.settings.email", "E-mail")
message("web.settings.email_turns", "E-mail me when it is my turn in a correspondence match")
message("web.settings.save", "Save")
message("web.settings.saved", "Saved.")
message("web.settings.notify", "Notifications")
message("web.settings.password", "Change the password")
message("web.settings.password_old", "Current password")
message("web.settings.password_new", "New password")
message("web.settings.password_button", "Change the password")
message("web.settings.password_changed", "The password is changed; your other sessions ended.")
message("web.settings.delete", "Delete the account")
message("web.settings.data", "Your data")
message(
    "web.settings.export_detail",
    "Everything the server keeps about your account, as one file (JSON): your settings, your "
    "ratings and their history, every match you played with its moves, and your chat messages.",
)
message("web.settings.export", "Download my data")
message("web.settings.export_done", "Your data was downloaded.")
message(
    "web.settings.delete_detail",
    "Your account, its ratings, mutes and seeks are deleted for good. Finished matches stay, "
    "showing a deleted account in place of your name.",
)
message("web.settings.delete_password", "Your password, to confirm")
message("web.settings.delete_button", "Delete my account")
message("web.settings.deleted", "The account is deleted.")
message("web.settings.time_zone", "Time zone")
message("web.settings.time_zone_choice", "Your time zone")
message(
    "web.settings.time_zone_help",
    "E-mails write the time a move is due in this time zone.",
)
# the page after deleting one's account (#/deleted)
message("web.deleted.title", "Account deleted")
message("web.deleted.named", "The account {name} is deleted.")
message(
    "web.deleted.detail",
    "Its sessions, ratings, e-mail address, mutes, blocks and seeks are gone. Finished matches "
    "stay, showing a deleted account in place of its name. You can go on playing as a guest, "
    "or register again.",
)
message("web.deleted.home", "Back to the start page")
message("web.settings.email_confirmed", "Confirmed: e-mails may go to this address.")
message(
    "web.settings.email_unconfirmed",
    "Not confirmed yet: no e-mail goes to this address until you click the link we sent to it.",
)
message("web.settings.email_resend", "Send the link again")
# TRANSLATORS: {email}: the address just saved
message(
    "web.settings.email_link_sent",
    "Saved. To confirm {email}, click the link we are sending to it.",
)
# TRANSLATORS: {email}: the account's address
message("web.settings.email_resent", "A new link is on its way to {email}.")
# TRANSLATORS: a link on the log-in page
message("web.account.forgot", "Forgot your password?")
# -- getting back into an account: web/src/recovery.tsx --
message("web.forgot.title", "A new password")
message(
    "web.forgot.intro",
    "Give your account's name or its e-mail address. If the account has a confirmed e-mail "
    "address, we send a link to it to set a new password.",
)
message("web.forgot.who", "Name or e-mail address")
message("web.forgot.send", "Send me the link")
# TRANSLATORS: shown whatever was asked, whether or not an account has that
# name or address; {count}: how long the link works, in minutes (30)
plural_message(
    "web.forgot.sent",
    "If an account with a confirmed e-mail address matches, a link is on its way to it. It "
    "works once, for {count} minute.",
    "If an account with a confirmed e-mail address matches, a link is on its way to it. It "
    "works once, for {count} minutes.",
)
message(
    "web.forgot.no_mail",
    "No e-mail after a few minutes? Look in the spam folder. An account without a "
    "confirmed e-mail address gets none: ask the server's administrators.",
)
message("web.reset.title", "Choose a new password")
message("web.reset.button", "Set the new password")
message(
    "web.reset.done",
    "Your password is changed, and every session of your account ended: log in with the "
    "new password.",
)
message("web.confirm.title", "Confirm your e-mail address")
message(
    "web.confirm.text",
    "Press the button to confirm that this e-mail address is yours. Until then Keltis "
    "sends it nothing else.",
)
message("web.confirm.button", "Confirm my address")
# TRANSLATORS: {email}: the address just confirmed
message("web.confirm.done", "Done: {email} is confirmed.")

# TRANSLATORS: the turn badge's name: how many of the account's matches wait for its
# move
plural_message(
    "web.badge.label",
    "Your turn in {count} match",
    "Your turn in {count} matches",
)
message("web.badge.title", "Waiting for your move")
message("web.badge.none", "No match is waiting for you.")
# TRANSLATORS: a match in the turn badge's list; {game}: its title; {names}: the others
message("web.badge.match", "{game} with {names}")
message("web.notify.toggle", "Tell me when it is my turn (a browser notification)")
message("web.notify.refused", "The browser does not allow notifications for this page.")
message("web.notify.unsupported", "This browser cannot show notifications.")
message("web.notify.title", "Keltis: your turn")
plural_message(
    "web.notify.body",
    "{count} match is waiting for your move.",
    "{count} matches are waiting for your move.",
)

message(
    "web.lobby.detail",
    "Open a seek and wait for others to join, or join one: the match starts when every seat "
    "is taken.",
)
message("web.lobby.seeks", "Open seeks")
message("web.lobby.none", "No open seeks right now. Open one!")
message("web.lobby.open", "Open a seek")
message("web.lobby.open_button", "Open the seek")
message("web.lobby.login", "Log in to open a seek or join one.")
message("web.lobby.join", "Join")
message("web.lobby.leave", "Leave")
message("web.lobby.cancel", "Cancel the seek")
message("web.lobby.opened", "Your seek is open.")
message("web.lobby.joined", "You joined the seek.")
message("web.lobby.left", "You left the seek.")
message("web.lobby.cancelled", "The seek is cancelled.")
message("web.lobby.started", "The match starts.")
plural_message("web.lobby.players", "{count} player", "{count} players")
# TRANSLATORS: how many of a seek's seats are taken, as "2/3", before their names
message("web.lobby.seated", "Seated {count}/{players}:")
# TRANSLATORS: the ratings a seek admits; {min}, {max}: ratings (– for no limit)
message("web.lobby.range", "ratings {min} to {max}")
message("web.lobby.range_choice", "Ratings admitted (if you like)")
message("web.lobby.range_min", "Lowest")
message("web.lobby.range_max", "Highest")
message("web.lobby.bots_choice", "Empty seats go to bots")
message("web.lobby.bots_never", "never: wait for players")
# TRANSLATORS: {time}: a span of time, "30 seconds", "2 minutes"
message("web.lobby.bots_after", "bots after {time}")

message("web.tournaments", "Tournaments")
message(
    "web.tournaments.detail",
    "Swiss tournaments: a set number of rounds, and in each round players with the same "
    "points or nearly so meet. Join before the start or during the tournament.",
)
message("web.tournaments.upcoming", "Upcoming")
message("web.tournaments.running", "Running")
message("web.tournaments.finished", "Finished")
message("web.tournaments.none", "None right now.")
message("web.tournaments.create", "Create a tournament")
message("web.tournaments.name", "Name")
message("web.tournaments.table_size", "Players at each table")
message("web.tournaments.rounds_choice", "Rounds")
message("web.tournaments.starts_choice", "Starts at")
message("web.tournaments.max_players", "Most players")
message("web.tournaments.create_button", "Create the tournament")
message("web.tournaments.created", "The tournament is created.")
message("web.tournaments.login", "Log in to create a tournament or to join one.")
message("web.tournaments.previous_page", "Previous page")
message("web.tournaments.next_page", "Next page")
plural_message("web.tournaments.rounds", "{count} round", "{count} rounds")
plural_message(
    "web.tournaments.per_table", "{count} player at a table", "{count} players at a table"
)
# TRANSLATORS: {when}: a date and time
message("web.tournaments.starts", "Starts {when}")
message("web.tournaments.finished_at", "Finished {when}")
message("web.tournaments.round_of", "Round {round} of {rounds}")
message("web.tournaments.round", "Round {round}")
message("web.tournaments.by", "Created by {name}")
message(
    "web.tournaments.round_ends",
    "This round ends at {when} at the latest: matches still being played then count as draws.",
)
message("web.tournaments.join", "Join the tournament")
message("web.tournaments.withdraw", "Withdraw")
message("web.tournaments.joined", "You are in this tournament.")
message("web.tournaments.withdrawn", "You have withdrawn from this tournament.")
message("web.tournaments.tables", "Tables of round {round}")
message("web.tournaments.bye", "a bye: counts as a win")
message("web.tournaments.your_match", "Your match: play")
message("web.tournaments.watch", "Watch")
message("web.tournaments.replay", "Replay")
message("web.tournaments.standings", "Standings")
message("web.tournaments.crosstable", "Final standings and all matches")
message("web.tournaments.points", "Points")
# TRANSLATORS: the tie-break named after Bruno Buchholz (keep the name)
message("web.tournaments.buchholz", "Buchholz")
# TRANSLATORS: the tie-break named after Sonneborn and Berger (keep the names)
message("web.tournaments.berger", "Sonneborn–Berger")
message(
    "web.tournaments.tiebreaks",
    "Equal points: first the Buchholz counts (the points of the players one met), then "
    "Sonneborn–Berger (the same, weighed by one's result against each), then the rating.",
)
message("web.tournaments.left", "withdrew")

# the quick pairing: the start page's first button and its page (web/src/pool.tsx)
message("web.pool.play", "Play a person now")
message(
    "web.pool.detail",
    "Wait with others who want the same game: you are seated with the closest ratings, "
    "and the match opens by itself.",
)
message("web.pool.find", "Find players")
message("web.pool.waiting", "Looking for players…")
# TRANSLATORS: {time}: a span of time, "30 seconds", "2 minutes"
message("web.pool.waited", "Waiting for {time}")
plural_message(
    "web.pool.others",
    "{count} player waiting for this game, you included",
    "{count} players waiting for this game, you included",
)
message("web.pool.stop", "Stop waiting")
message("web.pool.stopped", "You stopped waiting.")
message(
    "web.pool.dropped",
    "Your wait ended because this page was away too long: look for players again.",
)

message("web.rated", "Rated")
message("web.unrated", "Unrated")
message("web.rated.choice", "Rated: the result changes the players' ratings")
message(
    "web.rated.help",
    "A rated match is played by accounts and bots only: a friend you invite logs in to take "
    "the seat. Taking moves back is off.",
)
message(
    "web.ratings.detail",
    "The rating is a cautious estimate of strength: it rises as results show more.",
)
message("web.ratings.none", "Nobody has a rating in this game yet.")
message("web.ratings.caption", "Ratings in {game}")
message("web.ratings.rank", "Rank")
message("web.ratings.player", "Player")
message("web.ratings.rating", "Rating")
message("web.ratings.games", "Rated matches")
# TRANSLATORS: the title of the "?" after a provisional rating
message(
    "web.rating.provisional",
    "provisional: fewer than 10 rated matches so far, so it may still move a lot",
)
# TRANSLATORS: the heading of a rated match's rating changes on its final screen
message("web.rating.changes", "New ratings")
message("web.rating.pending", "The ratings are being updated…")
# TRANSLATORS: a change read aloud; {change}: "+37" or "−12"; {before}: the old rating
message("web.rating.change", "{change} (was {before})")
# TRANSLATORS: a bot level as a player of the leaderboard; {level}: the level's name
message("web.player.bot", "Bot: {level}")
message("web.player.is_bot", "A bot of the server: its rating is measured against players.")
message("web.player.since", "Playing since {date}")
message("web.player.none", "There is no player of that name.")
message("web.player.unrated", "No rated matches yet.")
plural_message("web.player.games", "{count} rated match", "{count} rated matches")
# TRANSLATORS: the rating chart's description; {count}: rated matches; the others
# ratings
plural_message(
    "web.player.chart",
    "{game}: the rating over {count} rated match, from {first} to {last} (lowest {low}, "
    "highest {high})",
    "{game}: the rating over {count} rated matches, from {first} to {last} (lowest {low}, "
    "highest {high})",
)
message("web.player.history", "The rating, match by match")
message("web.player.date", "Date")
message("web.player.match", "Match")
message("web.player.recent", "Recent matches")
message("web.player.no_matches", "No matches yet.")
# TRANSLATORS: {names}: the other players of a match
message("web.player.against", "against {names}")
# TRANSLATORS: a player's place in a match: {rank}: 1 for the winner; {players}: how
# many played
message("web.player.place", "place {rank} of {players}")
plural_message("web.player.score", "{score} point", "{score} points", count="score")
message("web.player.opponents", "Results by opponent")
message("web.player.opponent", "Opponent")
message("web.player.played", "Played")
message("web.player.won", "Won")
message("web.player.lost", "Lost")
message("web.player.tied", "Tied")

message("web.chat.players", "Chat")
message("web.chat.spectators", "Spectators' chat")
message("web.chat.empty", "No messages yet.")
message("web.chat.message", "Message")
message("web.chat.placeholder", "Say something nice…")
message("web.chat.send", "Send")
message("web.chat.guest", "Spectators chat with an account.")
message("web.chat.mute_short", "Mute")
message("web.chat.mute", "Mute {name}")
message("web.chat.unmute_short", "Unmute")
message("web.chat.unmute", "Unmute {name}")
plural_message("web.chat.muted", "{count} muted player", "{count} muted players")

message("web.time.choice", "Time control")
message("web.time.kind.none", "None")
message("web.time.kind.realtime", "Real time")
message("web.time.kind.correspondence", "Correspondence")
message("web.time.decision", "Time for each move")
message("web.time.bank_choice", "Extra time in the bank, for moves that take longer")
message("web.time.no_bank", "no bank")
message("web.time.days_choice", "Days for each move")
# TRANSLATORS: {n}: a number of seconds
plural_message("web.time.seconds", "{n} second", "{n} seconds", count="n")
# TRANSLATORS: {n}: a number of days
plural_message("web.time.days", "{n} day", "{n} days", count="n")
message("web.time.none", "no time control")
# TRANSLATORS: {decision}, {bank}: spans of time, "30 seconds", "5 minutes"
message("web.time.realtime", "{decision} a move, {bank} in the bank")
message("web.time.realtime_no_bank", "{decision} a move")
# TRANSLATORS: {days}: "1 day", "2 days"
message("web.time.correspondence", "by correspondence: {days} a move")
message("web.time.timeout", "out of time, a bot plays on")
message("web.time.timeout_rated", "out of time, a bot plays on and the seat ranks last")
# TRANSLATORS: a seat's bank of time left; {time}: 2:05
message("web.time.bank", "bank {time}")
message("web.time.timed_out", "out of time: a bot plays on")
# TRANSLATORS: the hints choice when creating a match with other people
message(
    "web.option.hints_agreed",
    "Hints for every player: whoever joins agrees to them (the match is not rated)",
)
# TRANSLATORS: said of a match between people where everyone agreed to hints
message("web.hints_agreed", "Hints on: by joining, every player agrees to them")
message(
    "web.aborted",
    "Aborted: a player never made a move of their own, so no rating changed",
)

# -- reports, blocks and moderation (keltis.server.moderation, docs/server.md "Moderation") --

message("report.self", "You cannot report yourself.")
message("report.too_long", "A report's text has at most {limit} characters; this one has {length}.")
message(
    "report.control",
    "A report's text is one line of plain text, without line breaks or invisible formatting "
    "characters.",
)
message("report.text_needed", "Say in a few words what happened.")
message("report.no_line", "There is no such chat message in that match.")
message("report.not_theirs", "That chat message is not {name}'s.")
message("report.not_in_match", "{name} did not play or chat in that match.")
# TRANSLATORS: {day}: reports an account may send a day (10); {about}: of them about one
# player (3)
message(
    "report.too_many",
    "You have sent as many reports as you can for now (up to {day} a day, {about} of them "
    "about one player): try again later. The moderators have your reports.",
)
message("block.self", "You cannot block yourself.")
message(
    "block.too_many", "You have blocked as many players as you can ({limit}): unblock one first."
)
message(
    "block.play",
    "You cannot play here: you have blocked a player of this match or seek, or they have "
    "blocked you.",
)
# -- friends, challenges and vacation (keltis.server.friends, keltis.server.vacation)
message("friends.self", "You cannot follow or challenge yourself.")
message(
    "friends.blocked",
    "You cannot follow this player: one of you has blocked the other.",
)
message(
    "friends.too_many",
    "You follow as many players as you can ({limit}): stop following one first.",
)
message("friends.slow_down", "Too many changes at once: wait a moment, then try again.")
message(
    "challenge.blocked",
    "You cannot challenge this player: one of you has blocked the other.",
)
message("challenge.not_yours", "This challenge is for another player.")
message(
    "challenge.too_many",
    "You have {limit} open challenges: wait for an answer or cancel one first.",
)
message("vacation.already", "You are on vacation already.")
message("vacation.none", "You are not on vacation.")
plural_message(
    "vacation.no_days",
    "You have used your {per_year} day of vacation for this year.",
    "You have used all your {per_year} days of vacation for this year.",
    count="per_year",
)
plural_message(
    "vacation.too_long",
    "You have {left} day of vacation left this year.",
    "You have {left} days of vacation left this year.",
    count="left",
)
# TRANSLATORS: an e-mail's subject; {name}: a player's name, {game}: title.board or
# title.cards
message("mail.challenge.subject", "{name} challenges you to a match of {game}")
message(
    "mail.challenge.body",
    "Hello {name},\n\n"
    "{challenger} challenges you to a match of {game}.\n"
    "Accept or decline it on your friends page: {link}\n\n"
    "--\n"
    "You get this e-mail because e-mails about challenges are on in your Keltis account.\n"
    "Turn them off in your settings: {settings}",
)
# TRANSLATORS: {until}: a date and time such as 2026-11-27 18:04 UTC
message("chat.muted", "A moderator has muted you: you can chat again after {until}.")
message("moderation.forbidden", "Only moderators can do this.")
message("moderation.self", "A moderator does not act on their own account.")
message("moderation.no_report", "There is no such report.")
message("moderation.no_flag", "There is no such flag.")
message("moderation.no_warning", "You have no such warning to read.")
message("moderation.closed", "This report is closed already.")
message("moderation.resolved", "This flag is resolved already.")
message("moderation.suspended", "{name} is suspended already.")
message("moderation.not_suspended", "{name} is not suspended.")
message(
    "moderation.not_voidable",
    "This match has no rated result to void: it is not rated, not over, was aborted, or is "
    "voided already.",
)
message("moderation.bad_reason", "Say why in 1 to {limit} characters of text on one line.")

# -- web: reports, blocks and moderation (web/src/moderation.tsx) ---------------------------

# TRANSLATORS: a button that opens the report dialog (a player's page, a chat message)
message("web.report.button", "Report")
# TRANSLATORS: the button on a finished match's final scores
message("web.report.match", "Report a player")
message("web.report.title", "Report {name}")
message("web.report.title_match", "Report a player of this match")
message(
    "web.report.detail",
    "The moderators read every report. Reporting a player changes nothing for them until a "
    "moderator has looked at it.",
)
message("web.report.who", "Player")
# TRANSLATORS: above the chat message that is reported; {name}: its author
message("web.report.line", "{name} wrote:")
message("web.report.reason", "Why?")
message("web.report.reason.cheating", "Cheating")
message("web.report.reason.chat_abuse", "Abuse in chat")
message("web.report.reason.offensive_name", "An offensive name")
message("web.report.reason.stalling", "Stalling: never moving, letting the clock run")
message("web.report.reason.other", "Something else")
message("web.report.text", "What happened")
message(
    "web.report.text_help",
    "One line, up to {limit} characters; needed for “Something else”.",
)
message("web.report.choose", "Choose why you report this player.")
message("web.report.send", "Send the report")
message("web.report.cancel", "Cancel")
message("web.report.sent", "Thank you: the moderators will look at it.")
message("web.report.close", "Close")
# TRANSLATORS: the report button of a chat message; {name}: its author
message("web.chat.report", "Report {name}'s message")
message("web.block.block", "Block")
message("web.block.unblock", "Unblock")
message("web.block.block_name", "Block {name}")
message("web.block.unblock_name", "Unblock {name}")
message(
    "web.block.blocked",
    "{name} is blocked: neither of you joins the other's seeks or matches, nor sees the "
    "other's chat.",
)
message("web.block.unblocked", "{name} is no longer blocked.")
message("web.block.note", "You have blocked this player.")
# -- the friends page, challenges and vacation (web/src/friends.tsx)
message("web.friends", "Friends")
message("web.friends.following", "Players you follow")
message("web.friends.follow_label", "Follow a player by name")
message("web.friends.follow", "Follow")
message("web.friends.followed", "You now follow {name}.")
message("web.friends.unfollow", "Stop following")
message("web.friends.unfollow_name", "Stop following {name}")
message("web.friends.unfollowed", "You no longer follow {name}.")
message(
    "web.friends.none",
    "You follow nobody yet: follow players by their name here, or on their page.",
)
message("web.friends.online", "online")
message("web.friends.offline", "offline")
message("web.friends.hidden", "does not show when they are online")
message("web.friends.challenge", "Challenge")
message("web.friends.challenge_name", "Challenge {name}")
message("web.friends.send", "Send the challenge")
message("web.friends.close", "Close")
message("web.friends.sent", "Challenge sent to {name}.")
message("web.friends.to_me", "Challenges to you")
message("web.friends.from_me", "Your challenges")
message("web.friends.no_challenges", "Nobody is challenging you now.")
# TRANSLATORS: {game}: title.board or title.cards
message("web.friends.challenge_from", "{name} challenges you to {game}")
message("web.friends.challenge_to", "You challenged {name} to {game}")
message("web.friends.accept", "Accept")
message("web.friends.decline", "Decline")
message("web.friends.cancel", "Cancel")
message("web.friends.declined", "Challenge declined.")
message("web.friends.cancelled", "Challenge cancelled.")
plural_message(
    "web.friends.badge",
    "{count} challenge waits for your answer",
    "{count} challenges wait for your answer",
)
message("web.vacation.title", "Vacation")
message(
    "web.vacation.text",
    "While you are on vacation, the clocks of your correspondence matches stop and you get no "
    "e-mails about your turns; your opponents see that you are away. Real-time matches go on. "
    "You have {per_year} days of vacation a calendar year, and each day begun counts as one.",
)
plural_message(
    "web.vacation.left",
    "You have {count} day of vacation left this year.",
    "You have {count} days of vacation left this year.",
)
# TRANSLATORS: {date}: a date and time in the reader's language
message("web.vacation.until", "on vacation until {date}")
message("web.vacation.on", "You are on vacation until {date}.")
message("web.vacation.days", "Days of vacation")
message("web.vacation.days_help", "Leave it empty to take all the days you have left.")
message("web.vacation.start", "Start the vacation")
message("web.vacation.end", "End the vacation now")
message("web.vacation.started", "Your vacation has begun.")
message("web.vacation.ended", "Your vacation has ended.")
message("web.settings.friends", "Friends and challenges")
message("web.settings.hide_online", "Don't show the players who follow me when I am online")
message(
    "web.settings.email_challenges",
    "E-mail me when someone challenges me (to a confirmed address)",
)
message("web.player.voided", "Voided by a moderator")
message("web.warning.title", "A moderator has warned you")
message("web.warning.read", "I have read it")

message("web.moderation", "Moderation")
message("web.moderation.only", "Only moderators can see this page.")
message("web.moderation.tab.reports", "Reports")
message("web.moderation.tab.flags", "Flagged results")
message("web.moderation.tab.log", "Log")
message("web.moderation.show_closed", "Show the closed reports")
message("web.moderation.show_resolved", "Show the resolved flags")
message("web.moderation.open_reports_title", "Open reports")
message("web.moderation.closed_reports", "Closed reports")
message("web.moderation.no_reports", "No reports here.")
# TRANSLATORS: a report's heading; {by}: who reported; {name}: the reported player
message("web.moderation.reported", "{by} reported {name}")
message("web.moderation.suspended", "suspended")
# TRANSLATORS: {time}: a date and time
message("web.moderation.muted", "muted until {time}")
plural_message(
    "web.moderation.open_reports",
    "{count} open report about this player",
    "{count} open reports about this player",
)
message("web.moderation.match", "Replay of the match")
message("web.moderation.watch", "Watch the match")
message("web.moderation.context", "The chat of the match")
message("web.moderation.reported_line", "reported")
# TRANSLATORS: a closed report; {name}: the moderator; {note}: why it was closed
message("web.moderation.closed_by", "Closed by {name}: {note}")
message("web.moderation.why", "Why (kept in the log)")
message(
    "web.moderation.why_help",
    "A warning's reason is what the player reads; a suspension's is kept with the account.",
)
message("web.moderation.need_why", "Say why first.")
message("web.moderation.warn", "Warn")
message("web.moderation.mute", "Mute")
message("web.moderation.mute_for", "Mute for")
message("web.moderation.suspend", "Suspend")
message("web.moderation.unsuspend", "Lift suspension")
message("web.moderation.close", "Close the report")
message("web.moderation.done", "Done.")
# TRANSLATORS: {n}: a number of minutes
plural_message("web.moderation.minutes", "{n} minute", "{n} minutes", count="n")
# TRANSLATORS: {n}: a number of hours
plural_message("web.moderation.hours", "{n} hour", "{n} hours", count="n")
message("web.moderation.flags", "Flagged rated results")
message(
    "web.moderation.flags_detail",
    "Two accounts whose seats were taken from one address and who finished several rated "
    "matches against each other within a day. Void a result to take back its rating "
    "changes.",
)
message("web.moderation.no_flags", "No flags here.")
# TRANSLATORS: a flag's heading; {names}: the two accounts; {count}: rated matches
plural_message(
    "web.moderation.flag",
    "{names}: {count} rated match from one address",
    "{names}: {count} rated matches from one address",
)
# TRANSLATORS: {address}: an internet address such as 203.0.113.7
message("web.moderation.address", "address {address}")
message("web.moderation.void", "Void the result")
message("web.moderation.voided", "voided")
message("web.moderation.resolve", "Resolve the flag")
message("web.moderation.resolved", "resolved")
message("web.moderation.log", "The moderation log")
message("web.moderation.no_log", "Nothing has been done yet.")
message("web.moderation.when", "When")
message("web.moderation.who", "Who")
message("web.moderation.what", "Action")
message("web.moderation.about", "About")
message("web.moderation.reason", "Why")
# TRANSLATORS: who acted in the log: a server administrator (keltis admin) by their user
# name on the server's machine
message("web.moderation.by_admin", "{name} (administrator)")
message("web.moderation.action.warn", "warned")
message("web.moderation.action.mute", "muted")
message("web.moderation.action.unmute", "unmuted")
message("web.moderation.action.suspend", "suspended")
message("web.moderation.action.unsuspend", "suspension lifted")
message("web.moderation.action.close_report", "closed a report")
message("web.moderation.action.resolve_flag", "resolved a flag")
message("web.moderation.action.void", "voided a result")
message("web.moderation.action.reset_password", "reset the password")
message("web.moderation.action.grant_moderator", "made a moderator")
message("web.moderation.action.revoke_moderator", "moderator role taken back")

# -- the review of a finished game (the browser, issue 41) --------------------------------
# TRANSLATORS: the review of a finished game: each player's decisions
# judged, and the luck of the cards drawn (a page's heading and the name
# of the page)
message("web.review", "Review")
message("web.review.open", "Review the game")
message("web.review.asking", "Asking for the review …")
message("web.review.queued", "The review waits for its turn on the server.")
# TRANSLATORS: {done} and {total}: steps of the review (one per decision
# and per card drawn)
message("web.review.progress", "Reviewing the game: step {done} of {total}")
message(
    "web.review.wait",
    "A review looks at every decision from the player's own view, and at every card drawn"
    " from the draw pile: it takes a while. You may leave this page and come back.",
)
message("web.review.failed", "The review could not be made.")
# TRANSLATORS: column headings: how many inaccuracies, mistakes,
# blunders a player made
message("web.review.count.inaccuracy", "Inaccuracies")
message("web.review.count.mistake", "Mistakes")
message("web.review.count.blunder", "Blunders")
# TRANSLATORS: a playout is a game played to its end by the computer
# from the position
plural_message(
    "web.review.budget",
    "Each move was judged on {iterations} playout (a game played on to its end); a move is"
    " marked only where it lost more win chance than the search's own error.",
    "Each move was judged on {iterations} playouts (games played on to their end); a move is"
    " marked only where it lost more win chance than the search's own error.",
    count="iterations",
)
message(
    "web.review.no_decisions",
    "Nobody had a choice to make in this game: there is nothing to judge.",
)
message("web.review.players", "Players")
message("web.review.player", "Player")
message("web.review.accuracy", "Accuracy")
# TRANSLATORS: a column heading: how much the cards drawn helped (+) or
# hurt (−) a player, in points of win chance (of 100)
message("web.review.luck", "Luck (points of win chance)")
message("web.review.graph", "Win chance over the game")
message(
    "web.review.graph.help",
    "Solid lines: each player's win chance at their own decisions, as they saw it. Dashed"
    " lines: each player's win chance with every hand known, after each card drawn from the"
    " draw pile. A triangle marks a big swing of luck (up: a gain, down: a loss); a big dot, a"
    " mistake or a blunder.",
)
# TRANSLATORS: a button that shows the graph's numbers as a table
message("web.review.table", "Table")
message("web.review.column.turn", "Turn")
message("web.review.column.what", "What happened")
message("web.review.row.deal", "The deal")
message("web.review.row.draw", "{name} draws from the draw pile")
# TRANSLATORS: {mark}: one of review.mark.* (best move, mistake …)
message("web.review.row.decision", "{name} decides ({mark})")
message("web.review.swings", "The biggest swings of luck")
plural_message(
    "web.review.swing.draw.cost",
    "Turn {turn}: the card drawn from the draw pile cost {name} {points} point of win chance",
    "Turn {turn}: the card drawn from the draw pile cost {name} {points} points of win chance",
    count="points",
)
plural_message(
    "web.review.swing.draw.gain",
    "Turn {turn}: the card drawn from the draw pile gave {name} {points} point of win chance",
    "Turn {turn}: the card drawn from the draw pile gave {name} {points} points of win chance",
    count="points",
)
plural_message(
    "web.review.swing.deal.cost",
    "The deal cost {name} {points} point of win chance",
    "The deal cost {name} {points} points of win chance",
    count="points",
)
plural_message(
    "web.review.swing.deal.gain",
    "The deal gave {name} {points} point of win chance",
    "The deal gave {name} {points} points of win chance",
    count="points",
)
message("web.review.moves", "Decisions")
message(
    "web.review.keys",
    "Left and right arrow keys: the previous or the next decision; Home and End: the first or"
    " the last.",
)
message("web.review.turn", "Turn {turn}")
message("web.review.chances", "win chance {played}, best move {best}")
# TRANSLATORS: said to a screen reader when a decision is chosen;
# {move}: the move in words, {mark}: one of review.mark.*, {played}
# and {best}: win chances such as 42 %
message(
    "web.review.said",
    "Turn {turn}, {name}: {move}. {mark}. Win chance {played}, with the best move {best}.",
)
message("web.review.position", "The position at turn {turn}, as {name} saw it")
message("web.review.hand", "{name}'s hand")
# TRANSLATORS: {move}: a move in words; {chance}: a win chance such as
# 42 %
message("web.review.legend.played", "Solid outline: the move played, {move} (win chance {chance})")
message("web.review.legend.better", "Dashed outline: a better move, {move} (win chance {chance})")
message("web.review.legend.best", "The move played was the best the search found.")
message("web.review.advice.played", "the move played")
message("web.review.advice.better", "the better move")
message("web.review.advice.both", "the move played and the better move")
