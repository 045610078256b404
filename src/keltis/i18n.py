"""Translations of the interface: English plus the languages of the rulebooks (Czech, Slovak,
Spanish, Polish, Hungarian), in the games' own words (``/work/shared/seeds``).

Messages are ``str.format`` templates keyed by name. Colour names are filled in as
:class:`ColourName` objects, so a template can ask for the grammatical form its language
needs with a format spec: Czech ``"na {path:f2} cestě"`` gives *na zelené cestě*, Polish
``"{pile:z_m2} stosu"`` gives *z zielonego stosu*; a template without a spec gets the plain
name. :data:`COLOUR_FORMS` lists each language's forms. A missing translation falls back to
English, so a new message never breaks a language.

The language comes from ``--lang``, else from ``KELTIS_LANG``, ``LC_ALL``, ``LC_MESSAGES`` or
``LANG`` (``cs_CZ.UTF-8`` → ``cs``), else English.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from string import Formatter
from typing import Any, Final

from keltis.core.errors import IllegalActionError, KeltisError
from keltis.describe import Event

LANGUAGES: Final = {
    "en": "English",
    "cs": "Čeština",
    "sk": "Slovenčina",
    "es": "Español",
    "pl": "Polski",
    "hu": "Magyar",
}

#: Colour names per language and form: ``""`` is the plain name, other forms are named by
#: gender and case (``f2``: feminine genitive/locative, ``z_m2``: "from the … (masculine)").
COLOUR_FORMS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {"": ("green", "yellow", "red", "pink", "blue")},
    "cs": {
        "": ("zelená", "žlutá", "červená", "růžová", "modrá"),
        "f2": ("zelené", "žluté", "červené", "růžové", "modré"),
        "f4": ("zelenou", "žlutou", "červenou", "růžovou", "modrou"),
        "m": ("zelený", "žlutý", "červený", "růžový", "modrý"),
        "m2": ("zeleného", "žlutého", "červeného", "růžového", "modrého"),
        "z_m2": ("ze zeleného", "ze žlutého", "z červeného", "z růžového", "z modrého"),
    },
    "sk": {
        "": ("zelená", "žltá", "červená", "ružová", "modrá"),
        "f2": ("zelenej", "žltej", "červenej", "ružovej", "modrej"),
        "f4": ("zelenú", "žltú", "červenú", "ružovú", "modrú"),
        "m": ("zelený", "žltý", "červený", "ružový", "modrý"),
        "m2": ("zeleného", "žltého", "červeného", "ružového", "modrého"),
        "m6": ("zelenom", "žltom", "červenom", "ružovom", "modrom"),
        "z_m2": ("zo zeleného", "zo žltého", "z červeného", "z ružového", "z modrého"),
    },
    "es": {
        "": ("verde", "amarillo", "rojo", "rosa", "azul"),
        "f": ("verde", "amarilla", "roja", "rosa", "azul"),
    },
    "pl": {
        "": ("zielony", "żółty", "czerwony", "różowy", "niebieski"),
        "f": ("zielona", "żółta", "czerwona", "różowa", "niebieska"),
        "f2": ("zielonej", "żółtej", "czerwonej", "różowej", "niebieskiej"),
        "f4": ("zieloną", "żółtą", "czerwoną", "różową", "niebieską"),
        "m2": ("zielonego", "żółtego", "czerwonego", "różowego", "niebieskiego"),
        "z_m2": ("z zielonego", "z żółtego", "z czerwonego", "z różowego", "z niebieskiego"),
    },
    "hu": {"": ("zöld", "sárga", "piros", "rózsaszín", "kék")},
}

#: Plain colour names per language.
COLOURS: Final = {lang: forms[""] for lang, forms in COLOUR_FORMS.items()}

_EN: Final = {
    # move descriptions (keltis.describe events)
    "ev.lay": "lays {card}",
    "ev.lay_onto": "lays {card} on the {onto} row",
    "ev.discard": "discards {card}",
    "ev.claim": "discards {first} and {second} and takes wish stone {value}",
    "ev.draw_deck": "draws from the draw pile",
    "ev.draw_pile": "takes {card} from the {pile} discard pile",
    "ev.draw_pile.point": "takes {card} from the point-card discard pile",
    "ev.figure.big": "sends the big figure onto the path",
    "ev.figure.small": "sends a small figure onto the path",
    "ev.advance": "moves the figure on the {path} path",
    "ev.pass": "passes",
    "ev.moved": "figure on the {path} path to row {row}",
    "ev.moved.big": "big figure on the {path} path to row {row}",
    "ev.points": "point tile: +{points}",
    "ev.wish": "takes a wish stone ({count} now)",
    "ev.clover": "clover: may move a figure one stone",
    "ev.end.goal": "the fifth figure enters the goal area: game over",
    "ev.end.deck": "the last card of the draw pile is drawn: game over",
    "ev.end.closed": "five rows are closed: game over",
    "ev.end.truncated": "the turn cap is reached: game stopped",
    "ev.final": "everyone may still lay up to two cards",
    "pile.point": "point-card",
    # the screen
    "title.board": "Keltis – the board game",
    "title.cards": "Keltis – the card game",
    "screen.turn": "turn {turn}",
    "screen.deck": "draw pile: {count}",
    "screen.removed": "set aside: {count}",
    "screen.over": "game over",
    "screen.to_move": "to move: {name}",
    "screen.hand": "Your hand:",
    "screen.piles": "Discard piles (top card, size):",
    "screen.last_moves": "Last moves:",
    "screen.no_moves": "none yet",
    "options.discard": "discard:",
    "prompt.help": (
        "Type the number of an option or the move itself (G7, -G7, draw …). "
        "Commands: help, redraw, quit."
    ),
    "prompt.enter": "Press Enter when ready.",
    "players.name": "player",
    "players.tiles": "tiles",
    "players.hand": "hand",
    "players.score": "score",
    "players.legend": (
        "Rows: last card and direction, {up} ascending, {down} descending, {open} still open. "
        "{wish} wish stones; tiles: points from point tiles; score: the total if the game "
        "ended now."
    ),
    # the board game
    "board.row": "row",
    "board.value": "value",
    "board.start": "start stone",
    "board.goal": (
        "Goal area = rows 7–9, above the line: {count} of {total} figures are there; "
        "when {total} are, the game ends."
    ),
    "board.legend": (
        "Figures: 2 = a small figure of player 2, [2] = the big one (scores double). "
        "Tiles: +2 point tile, {clover} clover, {wish} wish stone, · empty stone."
    ),
    "phase.board.play": (
        "{name}: play a card – lay it on your row of its colour (e.g. G7) or discard it (e.g. -G7)."
    ),
    "phase.board.figure": (
        "{name}: a figure enters the {path} path – the big one (scores double, minus points "
        "too) or a small one?"
    ),
    "phase.board.clover": (
        "{name}: clover! You may move any of your figures one stone forward (e.g. >G), or pass."
    ),
    "phase.board.overflow": (
        "{name}: your figure on the {path} path already stands on the end stone, so you may "
        "move another figure one stone forward instead (e.g. >G), or pass."
    ),
    "phase.board.draw": (
        "{name}: now draw a card – from the draw pile (draw) or the top of a discard pile "
        "(e.g. draw G)."
    ),
    "act.lay_open": "a figure onto the {path} path, row 1",
    "act.lay_step": "{path} figure to row {row}",
    "act.lay_end": "{path} figure is on the end stone: move another",
    "act.discard": "discard onto the {pile} pile",
    "act.discard.point": "discard onto the point-card pile",
    "act.draw_deck": "top card of the draw pile (unseen)",
    "act.draw_pile": "take {card} from the {pile} pile",
    "act.draw_pile.point": "take {card} from the point-card pile",
    "act.figure.big": "the big figure onto the {path} path (scores double)",
    "act.figure.small": "a small figure onto the {path} path",
    "act.advance": "{path} figure to row {row}",
    "act.pass": "no move",
    "act.goal": "goal area",
    "act.ends_game": "ends the game",
    "act.tile.clover": "clover",
    "act.tile.wish": "wish stone",
    "act.tile.points": "+{points} points",
    # the card game
    "cards.wish_row": "Wish stones on the table: {values}",
    "cards.closed": (
        "Rows with a closing card (all players): {count} of {total}; at {total} the game ends."
    ),
    "cards.point_row": "point row",
    "cards.wishes": "wish stones",
    "cards.legend": (
        "Rows: last value and direction ({up} ascending, {down} descending, {open} open), "
        "×n cards in the row, {closed} closed. A row of n cards scores 1:-4 2:-3 3:-2 4:1 "
        "5:2 6:3 7:6 8:7 9+:10."
    ),
    "phase.cards.play": (
        "{name}: lay a card (G7; closing card GX; point card *7 or *7>G), claim a wish stone "
        "with two cards of one value (wish G5 *5) or discard a card (-G7)."
    ),
    "phase.cards.draw": (
        "{name}: refill your hand – {count} to draw, from the draw pile (draw) or the top of a "
        "discard pile (draw G, draw *), but not a pile you discarded to this turn."
    ),
    "phase.cards.final": (
        "{name}: the game has ended – you may still lay up to {count} cards onto your rows, "
        "or pass."
    ),
    "act.cards.lay": "onto your {row} row (length {count}, {points} pts)",
    "act.cards.close": "closing card on your {row} row",
    "act.cards.point_row": "onto your point row (+1 point)",
    "act.cards.claim": "take wish stone {value}, then draw 2",
    "act.cards.pass": "lay no more cards",
    # scores and the end
    "score.figures": "figures",
    "score.tiles": "tiles",
    "score.wishes": "wish stones",
    "score.rows": "rows",
    "score.point_row": "point row",
    "score.total": "total",
    "end.goal": "Game over: the fifth figure entered the goal area",
    "end.deck": "Game over: the last card of the draw pile was drawn",
    "end.closed": "Game over: five rows hold a closing card",
    "end.truncated": "Game stopped: the turn limit was reached",
    "end.winner": "Winner: {names}",
    "end.winners": "Shared victory: {names}",
    # the session
    "name.you": "You",
    "name.player": "Player {n}",
    "name.bot": "{bot} bot {n}",
    "msg.welcome": (
        "Welcome to Keltis! Type help at any prompt for the rules, symbols and commands."
    ),
    "msg.resumed": "Continuing the game from {path} ({count} moves recorded).",
    "msg.handover": "Next: {name}. Pass the keyboard on – the other hands stay hidden.",
    "msg.saved": "Game record saved: {path}",
    "msg.resume": "To continue later: keltis play --resume {path}",
    "msg.interrupted": "Interrupted (Ctrl-C).",
    "msg.eof": "The input ended.",
    "msg.quit": "You left the game.",
    "msg.hint": "Suggestion: {move} ({label}) – chance to win {win}, expected lead {margin} points",
    "msg.thinking": "Thinking about your options…",
    "err.empty": "Type the number of an option, a move such as G7, or help.",
    "err.number": "There is no option {number}: choose from 1 to {count}.",
    "err.notation": "Cannot read “{text}”: {reason}",
    "err.illegal": "That move is not allowed here: {reason}",
    "err.cards_unavailable": (
        "The card game cannot be played in the terminal yet ({reason}); try --game board."
    ),
    "cmd.help": "rules in short, symbols and commands",
    "cmd.redraw": "draw the screen again",
    "cmd.quit": "save the game and leave (continue with --resume)",
    "cmd.hint": "suggest a move",
    "help.title": "Help",
    "help.commands": "Commands:",
    "help.board": (
        "Keltis, the board game – on your turn play one card, then draw one.\n"
        "• Lay a card on your row of its colour: your first card of a colour puts one of your "
        "figures on row 1 of that path, each further card moves it one stone forward.\n"
        "• A row runs up or down: the first card of a different value decides (3 3 6 7 … or "
        "9 8 8 5 …); an equal value always fits.\n"
        "• Or discard the card face up onto its colour's discard pile.\n"
        "• Then draw the top card of the draw pile or of any discard pile.\n"
        "• Tiles: a point tile scores at once; a clover lets you move any of your figures one "
        "more stone; a wish stone you take and keep. A card for a path where your figure "
        "already stands on the end stone may move another figure instead.\n"
        "• The game ends when the fifth figure enters the goal area (rows 7–9) or when the "
        "last card of the draw pile is drawn.\n"
        "• Score: each figure scores its row's value (the big figure double, minus points "
        "too), plus point tiles, plus wish stones: 0 → -4, 1 → -3, 2 → 2, 3 → 3, 4 → 6, "
        "5 or more → 10."
    ),
    "help.input.board": (
        "Moves: type an option's number or the move – G7 lay green 7 · -G7 discard it · "
        "big / small which figure enters · >G move your figure on the green path · pass · "
        "draw (draw pile) · draw G (top of the green discard pile). "
        "Colours: G green, Y yellow, R red, P pink, B blue."
    ),
    "help.cards": (
        "Keltis, the card game – on your turn do one thing, then refill your hand to 8 cards.\n"
        "• Lay a colour card on your row of its colour. A row runs up or down: the first card "
        "of a different value decides (3 3 6 7 … or 9 8 8 5 …).\n"
        "• A closing card (GX) goes only on the end of a row of its colour; after it only the "
        "second closing card of that colour.\n"
        "• A point card (*7) goes on your point row (1 point each) or on the end of one of your "
        "rows whose last card has the same value.\n"
        "• Claim a wish stone: discard two cards of the same value (1–9) and take that wish "
        "stone if it is still on the table; then draw two cards.\n"
        "• Or discard one card. Draw from the draw pile or the top of any discard pile – never "
        "a card discarded this turn.\n"
        "• The game ends when five rows hold a closing card or the last card of the draw pile "
        "is drawn; then everyone, from the next player on, may lay up to two more cards onto "
        "their rows.\n"
        "• Score: each row by its number of cards 1:-4 2:-3 3:-2 4:1 5:2 6:3 7:6 8:7 9+:10; "
        "1 point per card in the point row; wish stones 0:-4 1:-1 2:0 3:4 4:6 5+:10."
    ),
    "help.input.cards": (
        "Moves: type an option's number or the move – G7 lay green 7 · GX closing card · "
        "*7 point card on your point row · *7>G point card onto your green row · "
        "wish G5 *5 wish stone 5 for two cards · -G7 discard · draw, draw G, draw * · "
        "pass (lay no more). Colours: G green, Y yellow, R red, P pink, B blue."
    ),
}

_CS: Final = {
    "ev.lay": "vykládá {card}",
    "ev.lay_onto": "přikládá {card} do {onto:f2} řady",
    "ev.discard": "odhazuje {card}",
    "ev.claim": "odhazuje {first} a {second} a bere si kámen přání {value}",
    "ev.draw_deck": "lízá si z lízacího balíčku",
    "ev.draw_pile": "bere si {card} {pile:z_m2} odhazovacího balíčku",
    "ev.draw_pile.point": "bere si {card} z odhazovacího balíčku bodových karet",
    "ev.figure.big": "posílá na cestu velkou figurku",
    "ev.figure.small": "posílá na cestu malou figurku",
    "ev.advance": "posouvá figurku na {path:f2} cestě",
    "ev.pass": "pasuje",
    "ev.moved": "figurka na {path:f2} cestě jde na řadu {row}",
    "ev.moved.big": "velká figurka na {path:f2} cestě jde na řadu {row}",
    "ev.points": "kartička s body: +{points}",
    "ev.wish": "bere si kámen přání (celkem {count})",
    "ev.clover": "čtyřlístek: smí posunout figurku o jedno pole",
    "ev.end.goal": "pátá figurka vstoupila do cílové oblasti: konec hry",
    "ev.end.deck": "byla líznuta poslední karta lízacího balíčku: konec hry",
    "ev.end.closed": "pět řad má uzavírací kartu: konec hry",
    "ev.end.truncated": "dosažen limit tahů: hra zastavena",
    "ev.final": "každý smí ještě přiložit nejvýš dvě karty",
    "pile.point": "bodových karet",
    "title.board": "Keltis – Cesta kamenů",
    "title.cards": "Keltis – karetní hra",
    "screen.turn": "tah {turn}",
    "screen.deck": "lízací balíček: {count}",
    "screen.removed": "mimo hru: {count}",
    "screen.over": "konec hry",
    "screen.to_move": "na tahu: {name}",
    "screen.hand": "Tvoje karty:",
    "screen.piles": "Odhazovací balíčky (vrchní karta, počet):",
    "screen.last_moves": "Poslední tahy:",
    "screen.no_moves": "zatím žádné",
    "options.discard": "odhodit:",
    "prompt.help": (
        "Napiš číslo možnosti nebo samotný tah (G7, -G7, draw …). Příkazy: help, redraw, quit."
    ),
    "prompt.enter": "Až budeš připraven(a), stiskni Enter.",
    "players.name": "hráč",
    "players.tiles": "kartičky",
    "players.hand": "ruka",
    "players.score": "body",
    "players.legend": (
        "Řady: poslední karta a směr, {up} vzestupně, {down} sestupně, {open} ještě otevřená. "
        "{wish} kameny přání; kartičky: body z kartiček s body; body: součet, kdyby hra "
        "skončila teď."
    ),
    "board.row": "řada",
    "board.value": "body",
    "board.start": "startovní pole",
    "board.goal": (
        "Cílová oblast = řady 7–9 nad čarou: stojí v ní {count} z {total} figurek; "
        "jakmile jich bude {total}, hra končí."
    ),
    "board.legend": (
        "Figurky: 2 = malá figurka hráče 2, [2] = jeho velká figurka (dvojnásobné body). "
        "Kartičky: +2 kartička s body, {clover} čtyřlístek, {wish} kámen přání, · prázdný kámen."
    ),
    "phase.board.play": (
        "{name}: zahraj kartu – vylož ji do své řady její barvy (např. G7), nebo ji odhoď "
        "(např. -G7)."
    ),
    "phase.board.figure": (
        "{name}: na {path:f4} cestu vstupuje figurka – velká (dvojnásobné body, i záporné), "
        "nebo malá?"
    ),
    "phase.board.clover": (
        "{name}: čtyřlístek! Můžeš posunout kteroukoli svou figurku o jedno pole vpřed "
        "(např. >G), nebo pass."
    ),
    "phase.board.overflow": (
        "{name}: tvoje figurka na {path:f2} cestě už stojí na koncovém kameni, můžeš proto "
        "posunout o pole vpřed jinou figurku (např. >G), nebo pass."
    ),
    "phase.board.draw": (
        "{name}: teď si lízni kartu – z lízacího balíčku (draw), nebo vrchní kartu "
        "odhazovacího balíčku (např. draw G)."
    ),
    "act.lay_open": "figurka na {path:f4} cestu, řada 1",
    "act.lay_step": "figurka na {path:f2} cestě na řadu {row}",
    "act.lay_end": "figurka na {path:f2} cestě je na konci: posuň jinou",
    "act.discard": "odhodit na {pile:m} balíček",
    "act.discard.point": "odhodit na balíček bodových karet",
    "act.draw_deck": "vrchní karta lízacího balíčku (neznámá)",
    "act.draw_pile": "vzít {card} {pile:z_m2} balíčku",
    "act.draw_pile.point": "vzít {card} z balíčku bodových karet",
    "act.figure.big": "velká figurka na {path:f4} cestu (dvojnásobné body)",
    "act.figure.small": "malá figurka na {path:f4} cestu",
    "act.advance": "figurka na {path:f2} cestě na řadu {row}",
    "act.pass": "bez posunu",
    "act.goal": "cílová oblast",
    "act.ends_game": "ukončí hru",
    "act.tile.clover": "čtyřlístek",
    "act.tile.wish": "kámen přání",
    "act.tile.points": "body +{points}",
    "cards.wish_row": "Kameny přání na stole: {values}",
    "cards.closed": (
        "Řady s uzavírací kartou (všichni hráči): {count} z {total}; při {total} hra končí."
    ),
    "cards.point_row": "bodové karty",
    "cards.wishes": "kameny přání",
    "cards.legend": (
        "Řady: poslední hodnota a směr ({up} vzestupně, {down} sestupně, {open} otevřená), "
        "×n karet v řadě, {closed} uzavřená. Řada s n kartami dává 1:-4 2:-3 3:-2 4:1 "
        "5:2 6:3 7:6 8:7 9+:10."
    ),
    "phase.cards.play": (
        "{name}: vylož kartu (G7; uzavírací karta GX; bodová karta *7 nebo *7>G), získej "
        "kámen přání za dvě karty stejné hodnoty (wish G5 *5), nebo odhoď kartu (-G7)."
    ),
    "phase.cards.draw": (
        "{name}: doplň si ruku – zbývá líznout {count}, z lízacího balíčku (draw), nebo "
        "vrchní kartu odhazovacího balíčku (draw G, draw *), ne však z balíčku, na který jsi "
        "v tomto tahu odhazoval(a)."
    ),
    "phase.cards.final": (
        "{name}: hra skončila – ke svým řadám můžeš ještě přiložit karty (nejvýš {count}), "
        "nebo pass."
    ),
    "act.cards.lay": "do {row:f2} řady (délka {count}, {points} b.)",
    "act.cards.close": "uzavírací karta do {row:f2} řady",
    "act.cards.point_row": "do řady bodových karet (+1 bod)",
    "act.cards.claim": "kámen přání {value}, pak líznout 2",
    "act.cards.pass": "už nic nevykládat",
    "score.figures": "figurky",
    "score.tiles": "kartičky",
    "score.wishes": "kameny přání",
    "score.rows": "řady",
    "score.point_row": "bodové karty",
    "score.total": "celkem",
    "end.goal": "Konec hry: pátá figurka vstoupila do cílové oblasti",
    "end.deck": "Konec hry: byla líznuta poslední karta lízacího balíčku",
    "end.closed": "Konec hry: pět řad má uzavírací kartu",
    "end.truncated": "Hra zastavena: dosažen limit tahů",
    "end.winner": "Vítěz: {names}",
    "end.winners": "Vítězství se dělí: {names}",
    "name.you": "Ty",
    "name.player": "Hráč {n}",
    "name.bot": "Bot {bot} {n}",
    "msg.welcome": "Vítej v Keltisu! Pravidla, symboly a příkazy ukáže kdykoli příkaz help.",
    "msg.resumed": "Pokračuje hra ze souboru {path} (zaznamenané tahy: {count}).",
    "msg.handover": "Na tahu: {name}. Předejte klávesnici – karty ostatních zůstanou skryté.",
    "msg.saved": "Záznam hry uložen: {path}",
    "msg.resume": "Pokračovat později: keltis play --resume {path}",
    "msg.interrupted": "Přerušeno (Ctrl-C).",
    "msg.eof": "Vstup skončil.",
    "msg.quit": "Hra opuštěna.",
    "msg.hint": "Návrh: {move} ({label}) – šance na výhru {win}, očekávaný náskok {margin} bodů",
    "msg.thinking": "Přemýšlím o tvých možnostech…",
    "err.empty": "Napiš číslo možnosti, tah jako G7, nebo help.",
    "err.number": "Možnost {number} neexistuje: vyber od 1 do {count}.",
    "err.notation": "„{text}“ nerozumím: {reason}",
    "err.illegal": "Tento tah tu není dovolen: {reason}",
    "err.cards_unavailable": (
        "Karetní hru zatím v terminálu hrát nelze ({reason}); zkus --game board."
    ),
    "cmd.help": "stručná pravidla, symboly a příkazy",
    "cmd.redraw": "znovu vykreslit obrazovku",
    "cmd.quit": "uložit hru a odejít (pokračuj pomocí --resume)",
    "cmd.hint": "navrhnout tah",
    "help.title": "Nápověda",
    "help.commands": "Příkazy:",
    "help.board": (
        "Keltis, Cesta kamenů – na tahu zahraješ jednu kartu a pak si jednu lízneš.\n"
        "• Vylož kartu do své řady její barvy: první karta dané barvy postaví jednu z tvých "
        "figurek na řadu 1 příslušné cesty, každá další ji posune o jedno pole vpřed.\n"
        "• Řada karet stoupá, nebo klesá: rozhodne první karta jiné hodnoty (3 3 6 7 … nebo "
        "9 8 8 5 …); stejná hodnota se hodí vždy.\n"
        "• Nebo kartu odhoď lícem nahoru na odhazovací balíček její barvy.\n"
        "• Potom si lízni vrchní kartu z lízacího balíčku nebo z kteréhokoli odhazovacího "
        "balíčku.\n"
        "• Kartičky: kartička s body se započítá hned; čtyřlístek dovolí posunout kteroukoli "
        "tvou figurku o pole dál; kámen přání si vezmeš. Karta cesty, na které tvoje figurka "
        "už stojí na koncovém kameni, může místo ní posunout jinou figurku.\n"
        "• Hra končí, jakmile do cílové oblasti (řady 7–9) vstoupí pátá figurka, nebo když "
        "někdo lízne poslední kartu lízacího balíčku.\n"
        "• Body: každá figurka získá hodnotu své řady (velká dvojnásobek, i záporný), k tomu "
        "kartičky s body a kameny přání: 0 → -4, 1 → -3, 2 → 2, 3 → 3, 4 → 6, 5 a více → 10."
    ),
    "help.input.board": (
        "Tahy: napiš číslo možnosti nebo tah – G7 vyložit zelenou 7 · -G7 odhodit ji · "
        "big / small velká / malá figurka · >G posunout figurku na zelené cestě · pass · "
        "draw (lízací balíček) · draw G (vrchní karta zeleného odhazovacího balíčku). "
        "Barvy: G zelená, Y žlutá, R červená, P růžová, B modrá."
    ),
    "help.cards": (
        "Keltis, karetní hra – na tahu uděláš jednu věc a pak si doplníš ruku na 8 karet.\n"
        "• Vylož barevnou kartu do své řady její barvy. Řada stoupá, nebo klesá: rozhodne "
        "první karta jiné hodnoty (3 3 6 7 … nebo 9 8 8 5 …).\n"
        "• Uzavírací karta (GX) smí jen na konec řady své barvy; po ní už jen druhá uzavírací "
        "karta té barvy.\n"
        "• Bodová karta (*7) jde do tvé řady bodových karet (každá 1 bod), nebo na konec tvé "
        "řady, jejíž poslední karta má stejnou hodnotu.\n"
        "• Kámen přání: odhoď dvě karty stejné hodnoty (1–9) a vezmi si kámen přání této "
        "hodnoty, pokud ještě leží na stole; pak si lízneš dvě karty.\n"
        "• Nebo odhoď jednu kartu. Lízat můžeš z lízacího balíčku nebo vrchní kartu "
        "kteréhokoli odhazovacího balíčku – nikdy kartu odhozenou v tomto tahu.\n"
        "• Hra končí, když pět řad obsahuje uzavírací kartu, nebo když někdo lízne poslední "
        "kartu; pak každý, počínaje dalším hráčem, smí ke svým řadám přiložit ještě nejvýš "
        "dvě karty.\n"
        "• Body: každá řada podle počtu karet 1:-4 2:-3 3:-2 4:1 5:2 6:3 7:6 8:7 9+:10; "
        "1 bod za každou kartu v řadě bodových karet; kameny přání 0:-4 1:-1 2:0 3:4 4:6 "
        "5+:10."
    ),
    "help.input.cards": (
        "Tahy: napiš číslo možnosti nebo tah – G7 vyložit zelenou 7 · GX uzavírací karta · "
        "*7 bodová karta do řady bodových karet · *7>G bodová karta do zelené řady · "
        "wish G5 *5 kámen přání 5 za dvě karty · -G7 odhodit · draw, draw G, draw * · "
        "pass (už nic nevykládat). Barvy: G zelená, Y žlutá, R červená, P růžová, B modrá."
    ),
}

_SK: Final = {
    "ev.lay": "vykladá {card}",
    "ev.lay_onto": "prikladá {card} do {onto:m2} radu",
    "ev.discard": "odkladá {card}",
    "ev.claim": "odkladá {first} a {second} a berie si kameň želaní {value}",
    "ev.draw_deck": "berie si kartu z hracieho balíčka",
    "ev.draw_pile": "berie si {card} {pile:z_m2} odkladacieho balíčka",
    "ev.draw_pile.point": "berie si {card} z odkladacieho balíčka bodových kariet",
    "ev.figure.big": "posiela na cestu veľkú figúrku",
    "ev.figure.small": "posiela na cestu malú figúrku",
    "ev.advance": "posúva figúrku na {path:f2} ceste",
    "ev.pass": "pasuje",
    "ev.moved": "figúrka na {path:f2} ceste ide na rad {row}",
    "ev.moved.big": "veľká figúrka na {path:f2} ceste ide na rad {row}",
    "ev.points": "kartička s bodmi: +{points}",
    "ev.wish": "berie si kameň želaní (spolu {count})",
    "ev.clover": "štvorlístok: smie posunúť figúrku o jedno pole",
    "ev.end.goal": "piata figúrka vstúpila do cieľovej oblasti: koniec hry",
    "ev.end.deck": "bola vzatá posledná karta hracieho balíčka: koniec hry",
    "ev.end.closed": "päť radov má uzatváraciu kartu: koniec hry",
    "ev.end.truncated": "dosiahnutý limit ťahov: hra zastavená",
    "ev.final": "každý smie ešte priložiť najviac dve karty",
    "pile.point": "bodových kariet",
    "title.board": "Keltis – Cesta kameňov",
    "title.cards": "Keltis – kartová hra",
    "screen.turn": "ťah {turn}",
    "screen.deck": "hrací balíček: {count}",
    "screen.removed": "mimo hry: {count}",
    "screen.over": "koniec hry",
    "screen.to_move": "na ťahu: {name}",
    "screen.hand": "Tvoje karty:",
    "screen.piles": "Odkladacie balíčky (vrchná karta, počet):",
    "screen.last_moves": "Posledné ťahy:",
    "screen.no_moves": "zatiaľ žiadne",
    "options.discard": "odložiť:",
    "prompt.help": (
        "Napíš číslo možnosti alebo samotný ťah (G7, -G7, draw …). Príkazy: help, redraw, quit."
    ),
    "prompt.enter": "Keď budeš pripravený/á, stlač Enter.",
    "players.name": "hráč",
    "players.tiles": "kartičky",
    "players.hand": "ruka",
    "players.score": "body",
    "players.legend": (
        "Rady: posledná karta a smer, {up} vzostupne, {down} zostupne, {open} ešte otvorený. "
        "{wish} kamene želaní; kartičky: body z kartičiek s bodmi; body: súčet, keby hra "
        "skončila teraz."
    ),
    "board.row": "rad",
    "board.value": "body",
    "board.start": "štartové pole",
    "board.goal": (
        "Cieľová oblasť = rady 7–9 nad čiarou: stojí v nej {count} z {total} figúrok; "
        "keď ich bude {total}, hra končí."
    ),
    "board.legend": (
        "Figúrky: 2 = malá figúrka hráča 2, [2] = jeho veľká figúrka (dvojnásobné body). "
        "Kartičky: +2 kartička s bodmi, {clover} štvorlístok, {wish} kameň želaní, "
        "· prázdny kameň."
    ),
    "phase.board.play": (
        "{name}: zahraj kartu – vylož ju do svojho radu jej farby (napr. G7), alebo ju odlož "
        "(napr. -G7)."
    ),
    "phase.board.figure": (
        "{name}: na {path:f4} cestu vstupuje figúrka – veľká (dvojnásobné body, aj záporné), "
        "alebo malá?"
    ),
    "phase.board.clover": (
        "{name}: štvorlístok! Môžeš posunúť ktorúkoľvek svoju figúrku o jedno pole vpred "
        "(napr. >G), alebo pass."
    ),
    "phase.board.overflow": (
        "{name}: tvoja figúrka na {path:f2} ceste už stojí na koncovom kameni, môžeš preto "
        "posunúť o pole vpred inú figúrku (napr. >G), alebo pass."
    ),
    "phase.board.draw": (
        "{name}: teraz si vezmi kartu – z hracieho balíčka (draw), alebo vrchnú kartu "
        "odkladacieho balíčka (napr. draw G)."
    ),
    "act.lay_open": "figúrka na {path:f4} cestu, rad 1",
    "act.lay_step": "figúrka na {path:f2} ceste na rad {row}",
    "act.lay_end": "figúrka na {path:f2} ceste je na konci: posuň inú",
    "act.discard": "odložiť na {pile:m} balíček",
    "act.discard.point": "odložiť na balíček bodových kariet",
    "act.draw_deck": "vrchná karta hracieho balíčka (neznáma)",
    "act.draw_pile": "vziať {card} {pile:z_m2} balíčka",
    "act.draw_pile.point": "vziať {card} z balíčka bodových kariet",
    "act.figure.big": "veľká figúrka na {path:f4} cestu (dvojnásobné body)",
    "act.figure.small": "malá figúrka na {path:f4} cestu",
    "act.advance": "figúrka na {path:f2} ceste na rad {row}",
    "act.pass": "bez posunu",
    "act.goal": "cieľová oblasť",
    "act.ends_game": "ukončí hru",
    "act.tile.clover": "štvorlístok",
    "act.tile.wish": "kameň želaní",
    "act.tile.points": "body +{points}",
    "cards.wish_row": "Kamene želaní na stole: {values}",
    "cards.closed": (
        "Rady s uzatváracou kartou (všetci hráči): {count} z {total}; pri {total} hra končí."
    ),
    "cards.point_row": "bodové karty",
    "cards.wishes": "kamene želaní",
    "cards.legend": (
        "Rady: posledná hodnota a smer ({up} vzostupne, {down} zostupne, {open} otvorený), "
        "×n kariet v rade, {closed} uzavretý. Rad s n kartami dáva 1:-4 2:-3 3:-2 4:1 "
        "5:2 6:3 7:6 8:7 9+:10."
    ),
    "phase.cards.play": (
        "{name}: vylož kartu (G7; uzatváracia karta GX; bodová karta *7 alebo *7>G), získaj "
        "kameň želaní za dve karty rovnakej hodnoty (wish G5 *5), alebo odlož kartu (-G7)."
    ),
    "phase.cards.draw": (
        "{name}: doplň si ruku – zostáva vziať {count}, z hracieho balíčka (draw) alebo "
        "vrchnú kartu odkladacieho balíčka (draw G, draw *), nie však z balíčka, na ktorý si "
        "v tomto ťahu odkladal(a)."
    ),
    "phase.cards.final": (
        "{name}: hra skončila – k svojim radom môžeš ešte priložiť karty (najviac {count}), "
        "alebo pass."
    ),
    "act.cards.lay": "do {row:m2} radu (dĺžka {count}, {points} b.)",
    "act.cards.close": "uzatváracia karta do {row:m2} radu",
    "act.cards.point_row": "do radu bodových kariet (+1 bod)",
    "act.cards.claim": "kameň želaní {value}, potom vziať 2",
    "act.cards.pass": "už nič nevykladať",
    "score.figures": "figúrky",
    "score.tiles": "kartičky",
    "score.wishes": "kamene želaní",
    "score.rows": "rady",
    "score.point_row": "bodové karty",
    "score.total": "spolu",
    "end.goal": "Koniec hry: piata figúrka vstúpila do cieľovej oblasti",
    "end.deck": "Koniec hry: bola vzatá posledná karta hracieho balíčka",
    "end.closed": "Koniec hry: päť radov má uzatváraciu kartu",
    "end.truncated": "Hra zastavená: dosiahnutý limit ťahov",
    "end.winner": "Víťaz: {names}",
    "end.winners": "Víťazstvo sa delí: {names}",
    "name.you": "Ty",
    "name.player": "Hráč {n}",
    "name.bot": "Bot {bot} {n}",
    "msg.welcome": "Vitaj v Keltise! Pravidlá, symboly a príkazy ukáže kedykoľvek príkaz help.",
    "msg.resumed": "Pokračuje hra zo súboru {path} (zaznamenané ťahy: {count}).",
    "msg.handover": "Na ťahu: {name}. Odovzdajte klávesnicu – karty ostatných zostanú skryté.",
    "msg.saved": "Záznam hry uložený: {path}",
    "msg.resume": "Pokračovať neskôr: keltis play --resume {path}",
    "msg.interrupted": "Prerušené (Ctrl-C).",
    "msg.eof": "Vstup sa skončil.",
    "msg.quit": "Hra opustená.",
    "msg.hint": "Návrh: {move} ({label}) – šanca na výhru {win}, očakávaný náskok {margin} bodov",
    "msg.thinking": "Premýšľam o tvojich možnostiach…",
    "err.empty": "Napíš číslo možnosti, ťah ako G7, alebo help.",
    "err.number": "Možnosť {number} neexistuje: vyber od 1 do {count}.",
    "err.notation": "„{text}“ nerozumiem: {reason}",
    "err.illegal": "Tento ťah tu nie je dovolený: {reason}",
    "err.cards_unavailable": (
        "Kartovú hru zatiaľ v termináli hrať nemožno ({reason}); skús --game board."
    ),
    "cmd.help": "stručné pravidlá, symboly a príkazy",
    "cmd.redraw": "znova vykresliť obrazovku",
    "cmd.quit": "uložiť hru a odísť (pokračuj pomocou --resume)",
    "cmd.hint": "navrhnúť ťah",
    "help.title": "Pomocník",
    "help.commands": "Príkazy:",
    "help.board": (
        "Keltis, Cesta kameňov – na ťahu zahráš jednu kartu a potom si jednu vezmeš.\n"
        "• Vylož kartu do svojho radu jej farby: prvá karta danej farby postaví jednu z tvojich "
        "figúrok na rad 1 príslušnej cesty, každá ďalšia ju posunie o jedno pole vpred.\n"
        "• Rad kariet stúpa, alebo klesá: rozhodne prvá karta inej hodnoty (3 3 6 7 … alebo "
        "9 8 8 5 …); rovnaká hodnota sa hodí vždy.\n"
        "• Alebo kartu odlož lícom nahor na odkladací balíček jej farby.\n"
        "• Potom si vezmi vrchnú kartu z hracieho balíčka alebo z ktoréhokoľvek odkladacieho "
        "balíčka.\n"
        "• Kartičky: kartička s bodmi sa započíta hneď; štvorlístok dovolí posunúť "
        "ktorúkoľvek tvoju figúrku o pole ďalej; kameň želaní si vezmeš. Karta cesty, na "
        "ktorej tvoja figúrka už stojí na koncovom kameni, môže namiesto nej posunúť inú "
        "figúrku.\n"
        "• Hra končí, keď do cieľovej oblasti (rady 7–9) vstúpi piata figúrka, alebo keď si "
        "niekto vezme poslednú kartu hracieho balíčka.\n"
        "• Body: každá figúrka získa hodnotu svojho radu (veľká dvojnásobok, aj záporný), "
        "k tomu kartičky s bodmi a kamene želaní: 0 → -4, 1 → -3, 2 → 2, 3 → 3, 4 → 6, "
        "5 a viac → 10."
    ),
    "help.input.board": (
        "Ťahy: napíš číslo možnosti alebo ťah – G7 vyložiť zelenú 7 · -G7 odložiť ju · "
        "big / small veľká / malá figúrka · >G posunúť figúrku na zelenej ceste · pass · "
        "draw (hrací balíček) · draw G (vrchná karta zeleného odkladacieho balíčka). "
        "Farby: G zelená, Y žltá, R červená, P ružová, B modrá."
    ),
    "help.cards": (
        "Keltis, kartová hra – na ťahu urobíš jednu vec a potom si doplníš ruku na 8 kariet.\n"
        "• Vylož farebnú kartu do svojho radu jej farby. Rad stúpa, alebo klesá: rozhodne "
        "prvá karta inej hodnoty (3 3 6 7 … alebo 9 8 8 5 …).\n"
        "• Uzatváracia karta (GX) smie iba na koniec radu svojej farby; po nej už iba druhá "
        "uzatváracia karta tej farby.\n"
        "• Bodová karta (*7) ide do tvojho radu bodových kariet (každá 1 bod), alebo na "
        "koniec tvojho radu, ktorého posledná karta má rovnakú hodnotu.\n"
        "• Kameň želaní: odlož dve karty rovnakej hodnoty (1–9) a vezmi si kameň želaní tejto "
        "hodnoty, ak ešte leží na stole; potom si vezmeš dve karty.\n"
        "• Alebo odlož jednu kartu. Brať môžeš z hracieho balíčka alebo vrchnú kartu "
        "ktoréhokoľvek odkladacieho balíčka – nikdy kartu odloženú v tomto ťahu.\n"
        "• Hra končí, keď päť radov obsahuje uzatváraciu kartu, alebo keď si niekto vezme "
        "poslednú kartu; potom každý, počnúc ďalším hráčom, smie k svojim radom priložiť ešte "
        "najviac dve karty.\n"
        "• Body: každý rad podľa počtu kariet 1:-4 2:-3 3:-2 4:1 5:2 6:3 7:6 8:7 9+:10; "
        "1 bod za každú kartu v rade bodových kariet; kamene želaní 0:-4 1:-1 2:0 3:4 4:6 "
        "5+:10."
    ),
    "help.input.cards": (
        "Ťahy: napíš číslo možnosti alebo ťah – G7 vyložiť zelenú 7 · GX uzatváracia karta · "
        "*7 bodová karta do radu bodových kariet · *7>G bodová karta do zeleného radu · "
        "wish G5 *5 kameň želaní 5 za dve karty · -G7 odložiť · draw, draw G, draw * · "
        "pass (už nič nevykladať). Farby: G zelená, Y žltá, R červená, P ružová, B modrá."
    ),
}

_ES: Final = {
    "ev.lay": "juega {card}",
    "ev.lay_onto": "juega {card} en la hilera {onto:f}",
    "ev.discard": "descarta {card}",
    "ev.claim": "descarta {first} y {second} y toma la piedra de deseo {value}",
    "ev.draw_deck": "roba del mazo",
    "ev.draw_pile": "toma {card} de la pila de descartes {pile:f}",
    "ev.draw_pile.point": "toma {card} de la pila de descartes de cartas de puntos",
    "ev.figure.big": "pone la pieza grande en el camino",
    "ev.figure.small": "pone una pieza pequeña en el camino",
    "ev.advance": "avanza la pieza del camino {path}",
    "ev.pass": "pasa",
    "ev.moved": "pieza del camino {path} a la fila {row}",
    "ev.moved.big": "pieza grande del camino {path} a la fila {row}",
    "ev.points": "ficha de puntos: +{points}",
    "ev.wish": "toma una piedra de deseo (ya tiene {count})",
    "ev.clover": "trébol: puede avanzar una pieza una piedra",
    "ev.end.goal": "la quinta pieza llega a la zona de meta: fin de la partida",
    "ev.end.deck": "se roba la última carta del mazo: fin de la partida",
    "ev.end.closed": "cinco hileras tienen carta de cierre: fin de la partida",
    "ev.end.truncated": "se alcanzó el límite de turnos: partida detenida",
    "ev.final": "cada jugador puede poner aún hasta dos cartas",
    "pile.point": "de cartas de puntos",
    "title.board": "Keltis – El Camino de las Piedras",
    "title.cards": "Keltis – el juego de cartas",
    "screen.turn": "turno {turn}",
    "screen.deck": "mazo: {count}",
    "screen.removed": "retiradas: {count}",
    "screen.over": "fin de la partida",
    "screen.to_move": "juega: {name}",
    "screen.hand": "Tu mano:",
    "screen.piles": "Pilas de descartes (carta superior, tamaño):",
    "screen.last_moves": "Últimas jugadas:",
    "screen.no_moves": "todavía ninguna",
    "options.discard": "descartar:",
    "prompt.help": (
        "Escribe el número de una opción o la jugada misma (G7, -G7, draw …). "
        "Comandos: help, redraw, quit."
    ),
    "prompt.enter": "Pulsa Intro cuando estés listo.",
    "players.name": "jugador",
    "players.tiles": "fichas",
    "players.hand": "mano",
    "players.score": "puntos",
    "players.legend": (
        "Hileras: última carta y sentido, {up} ascendente, {down} descendente, {open} aún "
        "abierta. {wish} piedras de deseo; fichas: puntos de fichas de puntos; puntos: el "
        "total si la partida acabara ahora."
    ),
    "board.row": "fila",
    "board.value": "valor",
    "board.start": "piedra de inicio",
    "board.goal": (
        "Zona de meta = filas 7–9, sobre la línea: hay {count} de {total} piezas; "
        "cuando haya {total}, la partida acaba."
    ),
    "board.legend": (
        "Piezas: 2 = una pieza pequeña del jugador 2, [2] = su pieza grande (puntos dobles). "
        "Fichas: +2 ficha de puntos, {clover} trébol, {wish} piedra de deseo, · piedra vacía."
    ),
    "phase.board.play": (
        "{name}: juega una carta – ponla en tu hilera de su color (p. ej. G7) o descártala "
        "(p. ej. -G7)."
    ),
    "phase.board.figure": (
        "{name}: una pieza entra en el camino {path} – ¿la grande (puntos dobles, también "
        "los negativos) o una pequeña?"
    ),
    "phase.board.clover": (
        "{name}: ¡trébol! Puedes avanzar cualquiera de tus piezas una piedra (p. ej. >G), "
        "o pasar (pass)."
    ),
    "phase.board.overflow": (
        "{name}: tu pieza del camino {path} ya está en la piedra final, así que puedes "
        "avanzar otra pieza una piedra (p. ej. >G), o pasar (pass)."
    ),
    "phase.board.draw": (
        "{name}: ahora roba una carta – del mazo (draw) o la carta superior de una pila de "
        "descartes (p. ej. draw G)."
    ),
    "act.lay_open": "una pieza al camino {path}, fila 1",
    "act.lay_step": "pieza del camino {path} a la fila {row}",
    "act.lay_end": "la pieza del camino {path} está al final: avanza otra",
    "act.discard": "descartar en la pila {pile:f}",
    "act.discard.point": "descartar en la pila de cartas de puntos",
    "act.draw_deck": "carta superior del mazo (oculta)",
    "act.draw_pile": "tomar {card} de la pila {pile:f}",
    "act.draw_pile.point": "tomar {card} de la pila de cartas de puntos",
    "act.figure.big": "la pieza grande al camino {path} (puntos dobles)",
    "act.figure.small": "una pieza pequeña al camino {path}",
    "act.advance": "pieza del camino {path} a la fila {row}",
    "act.pass": "no avanzar",
    "act.goal": "zona de meta",
    "act.ends_game": "acaba la partida",
    "act.tile.clover": "trébol",
    "act.tile.wish": "piedra de deseo",
    "act.tile.points": "+{points} puntos",
    "cards.wish_row": "Piedras de deseo en la mesa: {values}",
    "cards.closed": (
        "Hileras con carta de cierre (todos los jugadores): {count} de {total}; con {total} "
        "la partida acaba."
    ),
    "cards.point_row": "hilera de puntos",
    "cards.wishes": "piedras de deseo",
    "cards.legend": (
        "Hileras: último valor y sentido ({up} ascendente, {down} descendente, {open} "
        "abierta), ×n cartas en la hilera, {closed} cerrada. Una hilera de n cartas da "
        "1:-4 2:-3 3:-2 4:1 5:2 6:3 7:6 8:7 9+:10."
    ),
    "phase.cards.play": (
        "{name}: juega una carta (G7; carta de cierre GX; carta de puntos *7 o *7>G), "
        "consigue una piedra de deseo con dos cartas del mismo valor (wish G5 *5) o descarta "
        "una carta (-G7)."
    ),
    "phase.cards.draw": (
        "{name}: completa tu mano – te quedan {count} por robar, del mazo (draw) o de la "
        "carta superior de una pila de descartes (draw G, draw *), pero no de una pila en la "
        "que descartaste este turno."
    ),
    "phase.cards.final": (
        "{name}: la partida ha terminado – aún puedes jugar hasta {count} cartas en tus "
        "hileras, o pasar (pass)."
    ),
    "act.cards.lay": "a tu hilera {row:f} (longitud {count}, {points} pts)",
    "act.cards.close": "carta de cierre en tu hilera {row:f}",
    "act.cards.point_row": "a tu hilera de puntos (+1 punto)",
    "act.cards.claim": "tomar la piedra de deseo {value} y robar 2",
    "act.cards.pass": "no jugar más cartas",
    "score.figures": "piezas",
    "score.tiles": "fichas",
    "score.wishes": "piedras de deseo",
    "score.rows": "hileras",
    "score.point_row": "hilera de puntos",
    "score.total": "total",
    "end.goal": "Fin de la partida: la quinta pieza llegó a la zona de meta",
    "end.deck": "Fin de la partida: se robó la última carta del mazo",
    "end.closed": "Fin de la partida: cinco hileras tienen carta de cierre",
    "end.truncated": "Partida detenida: se alcanzó el límite de turnos",
    "end.winner": "Gana: {names}",
    "end.winners": "Comparten la victoria: {names}",
    "name.you": "Tú",
    "name.player": "Jugador {n}",
    "name.bot": "Bot {bot} {n}",
    "msg.welcome": (
        "¡Bienvenido a Keltis! Escribe help en cualquier momento para ver las "
        "reglas, los símbolos y los comandos."
    ),
    "msg.resumed": "Se continúa la partida de {path} (jugadas registradas: {count}).",
    "msg.handover": "Siguiente: {name}. Pasad el teclado – las demás manos siguen ocultas.",
    "msg.saved": "Registro de la partida guardado: {path}",
    "msg.resume": "Para seguir más tarde: keltis play --resume {path}",
    "msg.interrupted": "Interrumpido (Ctrl-C).",
    "msg.eof": "La entrada ha terminado.",
    "msg.quit": "Has dejado la partida.",
    "msg.hint": (
        "Sugerencia: {move} ({label}) – probabilidad de ganar {win}, "
        "ventaja esperada {margin} puntos"
    ),
    "msg.thinking": "Pensando en tus opciones…",
    "err.empty": "Escribe el número de una opción, una jugada como G7, o help.",
    "err.number": "No hay opción {number}: elige del 1 al {count}.",
    "err.notation": "No se entiende «{text}»: {reason}",
    "err.illegal": "Esa jugada no está permitida aquí: {reason}",
    "err.cards_unavailable": (
        "El juego de cartas aún no se puede jugar en el terminal ({reason}); prueba --game board."
    ),
    "cmd.help": "reglas resumidas, símbolos y comandos",
    "cmd.redraw": "volver a dibujar la pantalla",
    "cmd.quit": "guardar la partida y salir (continúa con --resume)",
    "cmd.hint": "sugerir una jugada",
    "help.title": "Ayuda",
    "help.commands": "Comandos:",
    "help.board": (
        "Keltis, El Camino de las Piedras – en tu turno juega una carta y luego roba una.\n"
        "• Pon una carta en tu hilera de su color: tu primera carta de un color pone una de "
        "tus piezas en la fila 1 de ese camino; cada carta siguiente la avanza una piedra.\n"
        "• Una hilera sube o baja: lo decide la primera carta de valor distinto (3 3 6 7 … o "
        "9 8 8 5 …); un valor igual siempre vale.\n"
        "• O descarta la carta boca arriba en la pila de descartes de su color.\n"
        "• Después roba la carta superior del mazo o de cualquier pila de descartes.\n"
        "• Fichas: una ficha de puntos puntúa en el acto; un trébol te deja avanzar "
        "cualquiera de tus piezas una piedra más; una piedra de deseo te la quedas. Una carta "
        "de un camino donde tu pieza ya está en la piedra final puede avanzar otra pieza.\n"
        "• La partida acaba cuando la quinta pieza llega a la zona de meta (filas 7–9) o "
        "cuando se roba la última carta del mazo.\n"
        "• Puntos: cada pieza da el valor de su fila (la grande el doble, también en "
        "negativo), más las fichas de puntos, más las piedras de deseo: 0 → -4, 1 → -3, "
        "2 → 2, 3 → 3, 4 → 6, 5 o más → 10."
    ),
    "help.input.board": (
        "Jugadas: escribe el número de una opción o la jugada – G7 jugar el 7 verde · "
        "-G7 descartarlo · big / small pieza grande / pequeña · >G avanzar tu pieza del "
        "camino verde · pass · draw (mazo) · draw G (carta superior de la pila verde). "
        "Colores: G verde, Y amarillo, R rojo, P rosa, B azul."
    ),
    "help.cards": (
        "Keltis, el juego de cartas – en tu turno haz una cosa y luego completa tu mano hasta "
        "8 cartas.\n"
        "• Pon una carta de color en tu hilera de ese color. Una hilera sube o baja: lo "
        "decide la primera carta de valor distinto (3 3 6 7 … o 9 8 8 5 …).\n"
        "• Una carta de cierre (GX) solo va al final de una hilera de su color; después solo "
        "cabe la segunda carta de cierre de ese color.\n"
        "• Una carta de puntos (*7) va a tu hilera de puntos (1 punto cada una) o al final de "
        "una de tus hileras cuya última carta tenga el mismo valor.\n"
        "• Piedra de deseo: descarta dos cartas del mismo valor (1–9) y toma esa piedra de "
        "deseo si sigue en la mesa; luego roba dos cartas.\n"
        "• O descarta una carta. Roba del mazo o la carta superior de cualquier pila de "
        "descartes – nunca una carta descartada en este turno.\n"
        "• La partida acaba cuando cinco hileras tienen carta de cierre o se roba la última "
        "carta del mazo; luego cada jugador, empezando por el siguiente, puede poner hasta dos "
        "cartas más en sus hileras.\n"
        "• Puntos: cada hilera según su número de cartas 1:-4 2:-3 3:-2 4:1 5:2 6:3 7:6 8:7 "
        "9+:10; 1 punto por carta en la hilera de puntos; piedras de deseo 0:-4 1:-1 2:0 "
        "3:4 4:6 5+:10."
    ),
    "help.input.cards": (
        "Jugadas: escribe el número de una opción o la jugada – G7 jugar el 7 verde · "
        "GX carta de cierre · *7 carta de puntos a tu hilera de puntos · *7>G carta de puntos "
        "a tu hilera verde · wish G5 *5 piedra de deseo 5 por dos cartas · -G7 descartar · "
        "draw, draw G, draw * · pass (no jugar más). "
        "Colores: G verde, Y amarillo, R rojo, P rosa, B azul."
    ),
}

_PL: Final = {
    "ev.lay": "wykłada {card}",
    "ev.lay_onto": "dokłada {card} do {onto:f2} kolumny",
    "ev.discard": "odrzuca {card}",
    "ev.claim": "odrzuca {first} i {second} i bierze kamień życzeń {value}",
    "ev.draw_deck": "dobiera kartę z zakrytego stosu",
    "ev.draw_pile": "bierze {card} {pile:z_m2} stosu kart odrzuconych",
    "ev.draw_pile.point": "bierze {card} ze stosu odrzuconych kart punktowych",
    "ev.figure.big": "wprowadza na drogę duży znacznik",
    "ev.figure.small": "wprowadza na drogę mały znacznik",
    "ev.advance": "przesuwa znacznik na {path:f2} drodze",
    "ev.pass": "pasuje",
    "ev.moved": "znacznik na {path:f2} drodze idzie do rzędu {row}",
    "ev.moved.big": "duży znacznik na {path:f2} drodze idzie do rzędu {row}",
    "ev.points": "płytka z liczbą: +{points}",
    "ev.wish": "bierze kamień życzeń (razem {count})",
    "ev.clover": "koniczyna: może przesunąć znacznik o jeden kamień",
    "ev.end.goal": "piąty znacznik dotarł do obszaru celu: koniec gry",
    "ev.end.deck": "dobrano ostatnią kartę z zakrytego stosu: koniec gry",
    "ev.end.closed": "pięć kolumn ma kartę zamykającą: koniec gry",
    "ev.end.truncated": "osiągnięto limit tur: gra przerwana",
    "ev.final": "każdy może jeszcze dołożyć najwyżej dwie karty",
    "pile.point": "kart punktowych",
    "title.board": "Keltis – Droga Kamieni",
    "title.cards": "Keltis – gra karciana",
    "screen.turn": "tura {turn}",
    "screen.deck": "zakryty stos: {count}",
    "screen.removed": "odłożone: {count}",
    "screen.over": "koniec gry",
    "screen.to_move": "ruch: {name}",
    "screen.hand": "Twoje karty:",
    "screen.piles": "Stosy kart odrzuconych (wierzchnia karta, liczba):",
    "screen.last_moves": "Ostatnie ruchy:",
    "screen.no_moves": "jeszcze żadnych",
    "options.discard": "odrzucić:",
    "prompt.help": (
        "Wpisz numer opcji albo sam ruch (G7, -G7, draw …). Polecenia: help, redraw, quit."
    ),
    "prompt.enter": "Naciśnij Enter, gdy będziesz gotowy/gotowa.",
    "players.name": "gracz",
    "players.tiles": "płytki",
    "players.hand": "ręka",
    "players.score": "punkty",
    "players.legend": (
        "Kolumny: ostatnia karta i kierunek, {up} rosnąco, {down} malejąco, {open} jeszcze "
        "otwarta. {wish} kamienie życzeń; płytki: punkty z płytek z liczbą; punkty: suma, "
        "gdyby gra skończyła się teraz."
    ),
    "board.row": "rząd",
    "board.value": "wartość",
    "board.start": "pole startowe",
    "board.goal": (
        "Obszar celu = rzędy 7–9 nad linią; znaczniki w nim: {count} z {total} – przy {total} "
        "gra się kończy."
    ),
    "board.legend": (
        "Znaczniki: 2 = mały znacznik gracza 2, [2] = jego duży znacznik (podwójne punkty). "
        "Płytki: +2 płytka z liczbą, {clover} koniczyna, {wish} kamień życzeń, · pusty kamień."
    ),
    "phase.board.play": (
        "{name}: zagraj kartę – wyłóż ją do swojej kolumny w jej kolorze (np. G7) albo ją "
        "odrzuć (np. -G7)."
    ),
    "phase.board.figure": (
        "{name}: znacznik wchodzi na {path:f4} drogę – duży (podwójne punkty, także ujemne) "
        "czy mały?"
    ),
    "phase.board.clover": (
        "{name}: koniczyna! Możesz przesunąć dowolny swój znacznik o jeden kamień (np. >G) "
        "albo spasować (pass)."
    ),
    "phase.board.overflow": (
        "{name}: twój znacznik na {path:f2} drodze stoi już na kamieniu końcowym, więc możesz "
        "zamiast niego przesunąć o jeden kamień inny znacznik (np. >G) albo spasować (pass)."
    ),
    "phase.board.draw": (
        "{name}: teraz weź kartę – z zakrytego stosu (draw) albo wierzchnią kartę ze stosu "
        "kart odrzuconych (np. draw G)."
    ),
    "act.lay_open": "znacznik na {path:f4} drogę, rząd 1",
    "act.lay_step": "znacznik na {path:f2} drodze do rzędu {row}",
    "act.lay_end": "znacznik na {path:f2} drodze jest na końcu: przesuń inny",
    "act.discard": "odrzucić na {pile} stos",
    "act.discard.point": "odrzucić na stos kart punktowych",
    "act.draw_deck": "wierzchnia karta zakrytego stosu (nieznana)",
    "act.draw_pile": "wziąć {card} {pile:z_m2} stosu",
    "act.draw_pile.point": "wziąć {card} ze stosu kart punktowych",
    "act.figure.big": "duży znacznik na {path:f4} drogę (podwójne punkty)",
    "act.figure.small": "mały znacznik na {path:f4} drogę",
    "act.advance": "znacznik na {path:f2} drodze do rzędu {row}",
    "act.pass": "bez ruchu",
    "act.goal": "obszar celu",
    "act.ends_game": "kończy grę",
    "act.tile.clover": "koniczyna",
    "act.tile.wish": "kamień życzeń",
    "act.tile.points": "+{points} pkt",
    "cards.wish_row": "Kamienie życzeń na stole: {values}",
    "cards.closed": (
        "Kolumny z kartą zamykającą (wszyscy gracze): {count} z {total}; przy {total} gra się "
        "kończy."
    ),
    "cards.point_row": "karty punktowe",
    "cards.wishes": "kamienie życzeń",
    "cards.legend": (
        "Kolumny: ostatnia wartość i kierunek ({up} rosnąco, {down} malejąco, {open} "
        "otwarta), ×n kart w kolumnie, {closed} zamknięta. Kolumna z n kartami daje "
        "1:-4 2:-3 3:-2 4:1 5:2 6:3 7:6 8:7 9+:10."
    ),
    "phase.cards.play": (
        "{name}: wyłóż kartę (G7; karta zamykająca GX; karta punktowa *7 lub *7>G), zdobądź "
        "kamień życzeń za dwie karty tej samej wartości (wish G5 *5) albo odrzuć kartę (-G7)."
    ),
    "phase.cards.draw": (
        "{name}: uzupełnij rękę – do dobrania: {count}, z zakrytego stosu (draw) albo "
        "wierzchnią kartę ze stosu kart odrzuconych (draw G, draw *), ale nie ze stosu, na "
        "który odrzucano w tej turze."
    ),
    "phase.cards.final": (
        "{name}: gra się skończyła – możesz jeszcze dołożyć karty do swoich kolumn "
        "(najwyżej {count}) albo spasować (pass)."
    ),
    "act.cards.lay": "do {row:f2} kolumny (długość {count}, {points} pkt)",
    "act.cards.close": "karta zamykająca do {row:f2} kolumny",
    "act.cards.point_row": "do kolumny kart punktowych (+1 pkt)",
    "act.cards.claim": "kamień życzeń {value}, potem dobrać 2",
    "act.cards.pass": "nie wykładać więcej",
    "score.figures": "znaczniki",
    "score.tiles": "płytki",
    "score.wishes": "kamienie życzeń",
    "score.rows": "kolumny",
    "score.point_row": "karty punktowe",
    "score.total": "razem",
    "end.goal": "Koniec gry: piąty znacznik dotarł do obszaru celu",
    "end.deck": "Koniec gry: dobrano ostatnią kartę z zakrytego stosu",
    "end.closed": "Koniec gry: pięć kolumn ma kartę zamykającą",
    "end.truncated": "Gra przerwana: osiągnięto limit tur",
    "end.winner": "Zwycięzca: {names}",
    "end.winners": "Remis – wygrywają wspólnie: {names}",
    "name.you": "Ty",
    "name.player": "Gracz {n}",
    "name.bot": "Bot {bot} {n}",
    "msg.welcome": (
        "Witaj w grze Keltis! Wpisz help w dowolnej chwili, aby zobaczyć "
        "zasady, symbole i polecenia."
    ),
    "msg.resumed": "Kontynuacja gry z pliku {path} (zapisane ruchy: {count}).",
    "msg.handover": (
        "Teraz: {name}. Przekażcie klawiaturę – karty pozostałych graczy pozostają ukryte."
    ),
    "msg.saved": "Zapis partii zachowany: {path}",
    "msg.resume": "Aby kontynuować później: keltis play --resume {path}",
    "msg.interrupted": "Przerwano (Ctrl-C).",
    "msg.eof": "Wejście się skończyło.",
    "msg.quit": "Opuszczono grę.",
    "msg.hint": (
        "Podpowiedź: {move} ({label}) – szansa na wygraną {win}, oczekiwana przewaga {margin} pkt"
    ),
    "msg.thinking": "Zastanawiam się nad twoimi możliwościami…",
    "err.empty": "Wpisz numer opcji, ruch taki jak G7 albo help.",
    "err.number": "Nie ma opcji {number}: wybierz od 1 do {count}.",
    "err.notation": "Nie rozumiem „{text}”: {reason}",
    "err.illegal": "Ten ruch jest tu niedozwolony: {reason}",
    "err.cards_unavailable": (
        "W grę karcianą nie można jeszcze grać w terminalu ({reason}); spróbuj --game board."
    ),
    "cmd.help": "zasady w skrócie, symbole i polecenia",
    "cmd.redraw": "narysuj ekran ponownie",
    "cmd.quit": "zapisz grę i wyjdź (kontynuacja przez --resume)",
    "cmd.hint": "podpowiedz ruch",
    "help.title": "Pomoc",
    "help.commands": "Polecenia:",
    "help.board": (
        "Keltis, Droga Kamieni – w swojej turze zagrywasz jedną kartę, a potem ciągniesz "
        "jedną.\n"
        "• Wyłóż kartę do swojej kolumny w jej kolorze: pierwsza karta danego koloru stawia "
        "jeden z twoich znaczników w rzędzie 1 tej drogi, każda kolejna przesuwa go o jeden "
        "kamień.\n"
        "• Kolumna rośnie albo maleje: decyduje pierwsza karta o innej wartości (3 3 6 7 … "
        "lub 9 8 8 5 …); ta sama wartość pasuje zawsze.\n"
        "• Albo odrzuć kartę odkrytą na stos kart odrzuconych w jej kolorze.\n"
        "• Potem weź wierzchnią kartę z zakrytego stosu lub z dowolnego stosu kart "
        "odrzuconych.\n"
        "• Płytki: płytka z liczbą daje punkty od razu; koniczyna pozwala przesunąć dowolny "
        "twój znacznik o jeszcze jeden kamień; kamień życzeń zabierasz. Karta drogi, na której "
        "twój znacznik stoi już na kamieniu końcowym, może zamiast tego przesunąć inny "
        "znacznik.\n"
        "• Gra kończy się, gdy piąty znacznik dotrze do obszaru celu (rzędy 7–9) albo gdy "
        "ktoś weźmie ostatnią kartę z zakrytego stosu.\n"
        "• Punkty: każdy znacznik daje wartość swojego rzędu (duży podwójnie, także ujemną), "
        "do tego płytki z liczbą i kamienie życzeń: 0 → -4, 1 → -3, 2 → 2, 3 → 3, 4 → 6, "
        "5 lub więcej → 10."
    ),
    "help.input.board": (
        "Ruchy: wpisz numer opcji albo ruch – G7 wyłóż zieloną 7 · -G7 odrzuć ją · "
        "big / small duży / mały znacznik · >G przesuń znacznik na zielonej drodze · pass · "
        "draw (zakryty stos) · draw G (wierzchnia karta zielonego stosu). "
        "Kolory: G zielony, Y żółty, R czerwony, P różowy, B niebieski."
    ),
    "help.cards": (
        "Keltis, gra karciana – w swojej turze robisz jedną rzecz, a potem uzupełniasz rękę "
        "do 8 kart.\n"
        "• Wyłóż kartę koloru do swojej kolumny w tym kolorze. Kolumna rośnie albo maleje: "
        "decyduje pierwsza karta o innej wartości (3 3 6 7 … lub 9 8 8 5 …).\n"
        "• Karta zamykająca (GX) może trafić tylko na koniec kolumny swojego koloru; potem już "
        "tylko druga karta zamykająca tego koloru.\n"
        "• Karta punktowa (*7) trafia do twojej kolumny kart punktowych (każda 1 punkt) albo "
        "na koniec twojej kolumny, której ostatnia karta ma tę samą wartość.\n"
        "• Kamień życzeń: odrzuć dwie karty tej samej wartości (1–9) i weź kamień życzeń tej "
        "wartości, jeśli leży jeszcze na stole; potem dobierasz dwie karty.\n"
        "• Albo odrzuć jedną kartę. Dobierasz z zakrytego stosu lub wierzchnią kartę "
        "dowolnego stosu kart odrzuconych – nigdy karty odrzuconej w tej turze.\n"
        "• Gra kończy się, gdy pięć kolumn ma kartę zamykającą albo ktoś weźmie ostatnią "
        "kartę z zakrytego stosu; potem każdy, zaczynając od następnego gracza, może dołożyć "
        "do swoich kolumn jeszcze najwyżej dwie karty.\n"
        "• Punkty: każda kolumna według liczby kart 1:-4 2:-3 3:-2 4:1 5:2 6:3 7:6 8:7 "
        "9+:10; 1 punkt za każdą kartę w kolumnie kart punktowych; kamienie życzeń 0:-4 "
        "1:-1 2:0 3:4 4:6 5+:10."
    ),
    "help.input.cards": (
        "Ruchy: wpisz numer opcji albo ruch – G7 wyłóż zieloną 7 · GX karta zamykająca · "
        "*7 karta punktowa do kolumny kart punktowych · *7>G karta punktowa do zielonej "
        "kolumny · wish G5 *5 kamień życzeń 5 za dwie karty · -G7 odrzuć · draw, draw G, "
        "draw * · pass (nie wykładaj więcej). "
        "Kolory: G zielony, Y żółty, R czerwony, P różowy, B niebieski."
    ),
}

_HU: Final = {
    "ev.lay": "kirakja: {card}",
    "ev.lay_onto": "a {onto} sorához illeszti: {card}",
    "ev.discard": "eldobja: {card}",
    "ev.claim": "eldobja: {first} és {second}, és elveszi a kívánságkövet ({value})",
    "ev.draw_deck": "húz a húzópakliból",
    "ev.draw_pile": "elveszi a {pile} dobópakliról: {card}",
    "ev.draw_pile.point": "elveszi a pontkártyák eldobó paklijáról: {card}",
    "ev.figure.big": "a nagy figurát indítja az ösvényen",
    "ev.figure.small": "egy kis figurát indít az ösvényen",
    "ev.advance": "előrelép a {path} ösvényen álló figurájával",
    "ev.pass": "passzol",
    "ev.moved": "figura a {path} ösvényen: {row}. sor",
    "ev.moved.big": "nagy figura a {path} ösvényen: {row}. sor",
    "ev.points": "számozott lapka: +{points}",
    "ev.wish": "kívánságkövet szerez (összesen {count})",
    "ev.clover": "lóhere: egy figurával még egy követ léphet",
    "ev.end.goal": "az ötödik figura is elérte a célterületet: vége a játéknak",
    "ev.end.deck": "felhúzták a húzópakli utolsó lapját: vége a játéknak",
    "ev.end.closed": "öt sor végén lezáró kártya van: vége a játéknak",
    "ev.end.truncated": "elérték a körkorlátot: a játék leállt",
    "ev.final": "mindenki még legfeljebb két lapot illeszthet a soraihoz",
    "pile.point": "pontkártya",
    "title.board": "Keltis – A kövek útja",
    "title.cards": "Keltis – A kártyajáték",
    "screen.turn": "{turn}. kör",
    "screen.deck": "húzópakli: {count}",
    "screen.removed": "kivéve: {count}",
    "screen.over": "vége a játéknak",
    "screen.to_move": "soron: {name}",
    "screen.hand": "A kezed:",
    "screen.piles": "Dobópaklik (felső lap, lapszám):",
    "screen.last_moves": "Utolsó lépések:",
    "screen.no_moves": "még nincs",
    "options.discard": "eldobás:",
    "prompt.help": (
        "Írd be egy lehetőség számát vagy magát a lépést (G7, -G7, draw …). "
        "Parancsok: help, redraw, quit."
    ),
    "prompt.enter": "Ha készen állsz, nyomj Entert.",
    "players.name": "játékos",
    "players.tiles": "lapkák",
    "players.hand": "kéz",
    "players.score": "pont",
    "players.legend": (
        "Kártyaoszlopok: utolsó lap és irány, {up} növekvő, {down} csökkenő, {open} még "
        "nyitott. {wish} kívánságkövek; lapkák: pontok a számozott lapkákból; pont: az "
        "összeg, ha most érne véget a játék."
    ),
    "board.row": "sor",
    "board.value": "érték",
    "board.start": "startkő",
    "board.goal": (
        "Célterület = a 7–9. sor, a vonal fölött: {count} figura áll itt a {total}-ből; "
        "ha {total} lesz, vége a játéknak."
    ),
    "board.legend": (
        "Figurák: 2 = a 2. játékos kis figurája, [2] = a nagy figurája (dupla pont). "
        "Lapkák: +2 számozott lapka, {clover} lóhere, {wish} kívánságkő, · üres kő."
    ),
    "phase.board.play": (
        "{name}: játssz ki egy kártyát – tedd a színének megfelelő kártyaoszlopodba (pl. G7), "
        "vagy dobd el (pl. -G7)."
    ),
    "phase.board.figure": (
        "{name}: figura lép a {path} ösvényre – a nagy (dupla pont, a mínusz is) vagy egy kicsi?"
    ),
    "phase.board.clover": (
        "{name}: lóhere! Bármelyik figuráddal előreléphetsz egy követ (pl. >G), vagy "
        "passzolhatsz (pass)."
    ),
    "phase.board.overflow": (
        "{name}: a {path} ösvényen álló figurád már a zárókövön áll, ezért helyette egy másik "
        "figuráddal léphetsz egy követ előre (pl. >G), vagy passzolhatsz (pass)."
    ),
    "phase.board.draw": (
        "{name}: most húzz egy kártyát – a húzópakliból (draw) vagy egy dobópakli tetejéről "
        "(pl. draw G)."
    ),
    "act.lay_open": "figura a {path} ösvényre, 1. sor",
    "act.lay_step": "a {path} ösvény figurája a {row}. sorba",
    "act.lay_end": "a {path} ösvény figurája a zárókövön áll: lépj egy másikkal",
    "act.discard": "eldobás a {pile} dobópaklira",
    "act.discard.point": "eldobás a pontkártyák eldobó paklijára",
    "act.draw_deck": "a húzópakli felső lapja (ismeretlen)",
    "act.draw_pile": "{card} elvétele a {pile} dobópakliról",
    "act.draw_pile.point": "{card} elvétele a pontkártyák eldobó paklijáról",
    "act.figure.big": "a nagy figura a {path} ösvényre (dupla pont)",
    "act.figure.small": "egy kis figura a {path} ösvényre",
    "act.advance": "a {path} ösvény figurája a {row}. sorba",
    "act.pass": "nincs lépés",
    "act.goal": "célterület",
    "act.ends_game": "véget vet a játéknak",
    "act.tile.clover": "lóhere",
    "act.tile.wish": "kívánságkő",
    "act.tile.points": "+{points} pont",
    "cards.wish_row": "Kívánságkő kártyák az asztalon: {values}",
    "cards.closed": (
        "Lezáró kártyás színsorok (minden játékosé): {count} a {total}-ből; {total}-nél "
        "vége a játéknak."
    ),
    "cards.point_row": "pontkártyasor",
    "cards.wishes": "kívánságkövek",
    "cards.legend": (
        "Színsorok: utolsó érték és irány ({up} növekvő, {down} csökkenő, {open} nyitott), "
        "×n lap a sorban, {closed} lezárva. Egy n lapos sor pontja: 1:-4 2:-3 3:-2 4:1 "
        "5:2 6:3 7:6 8:7 9+:10."
    ),
    "phase.cards.play": (
        "{name}: tegyél le egy lapot (G7; lezáró kártya GX; pontkártya *7 vagy *7>G), "
        "szerezz kívánságkövet két azonos értékű lappal (wish G5 *5), vagy dobj el egy lapot "
        "(-G7)."
    ),
    "phase.cards.draw": (
        "{name}: egészítsd ki a kezed – még {count} lapot húzhatsz a húzópakliból (draw) vagy "
        "egy eldobó pakli tetejéről (draw G, draw *), de nem abból, amelyikre ebben a körben "
        "dobtál."
    ),
    "phase.cards.final": (
        "{name}: a játék véget ért – a soraidhoz még legfeljebb {count} lapot illeszthetsz, "
        "vagy passzolhatsz (pass)."
    ),
    "act.cards.lay": "a {row} színsorodba (hossz: {count}, {points} pont)",
    "act.cards.close": "lezáró kártya a {row} színsorod végére",
    "act.cards.point_row": "a pontkártyasorodba (+1 pont)",
    "act.cards.claim": "kívánságkő ({value}), utána 2 húzás",
    "act.cards.pass": "több lapot nem teszel le",
    "score.figures": "figurák",
    "score.tiles": "lapkák",
    "score.wishes": "kívánságkövek",
    "score.rows": "színsorok",
    "score.point_row": "pontkártyák",
    "score.total": "összesen",
    "end.goal": "Vége a játéknak: az ötödik figura is elérte a célterületet",
    "end.deck": "Vége a játéknak: felhúzták a húzópakli utolsó lapját",
    "end.closed": "Vége a játéknak: öt sor végén lezáró kártya van",
    "end.truncated": "A játék leállt: elérték a körkorlátot",
    "end.winner": "Győztes: {names}",
    "end.winners": "Holtverseny, közös győzelem: {names}",
    "name.you": "Te",
    "name.player": "{n}. játékos",
    "name.bot": "{bot} bot {n}",
    "msg.welcome": (
        "Üdv a Keltisben! A help paranccsal bármikor megnézheted a "
        "szabályokat, a jeleket és a parancsokat."
    ),
    "msg.resumed": "A játék folytatódik innen: {path} (rögzített lépések: {count}).",
    "msg.handover": (
        "Következik: {name}. Adjátok át a billentyűzetet – a többiek lapjai rejtve maradnak."
    ),
    "msg.saved": "A játék jegyzőkönyve elmentve: {path}",
    "msg.resume": "Későbbi folytatás: keltis play --resume {path}",
    "msg.interrupted": "Megszakítva (Ctrl-C).",
    "msg.eof": "A bemenet véget ért.",
    "msg.quit": "Kiléptél a játékból.",
    "msg.hint": "Javaslat: {move} ({label}) – nyerési esély {win}, várható előny {margin} pont",
    "msg.thinking": "Gondolkodom a lehetőségeiden…",
    "err.empty": "Írd be egy lehetőség számát, egy lépést (például G7), vagy azt, hogy help.",
    "err.number": "Nincs {number}. lehetőség: 1 és {count} között válassz.",
    "err.notation": "Nem értem ezt: „{text}”: {reason}",
    "err.illegal": "Ez a lépés itt nem szabályos: {reason}",
    "err.cards_unavailable": (
        "A kártyajáték még nem játszható a terminálban ({reason}); próbáld: --game board."
    ),
    "cmd.help": "rövid szabályok, jelek és parancsok",
    "cmd.redraw": "a képernyő újrarajzolása",
    "cmd.quit": "mentés és kilépés (folytatás: --resume)",
    "cmd.hint": "lépés javaslása",
    "help.title": "Súgó",
    "help.commands": "Parancsok:",
    "help.board": (
        "Keltis, A kövek útja – a körödben kijátszol egy kártyát, aztán húzol egyet.\n"
        "• Tedd a kártyát a színének megfelelő kártyaoszlopodba: egy szín első kártyája az "
        "egyik figurádat az adott ösvény 1. sorára állítja, minden további egy kővel előbbre "
        "lépteti.\n"
        "• Egy oszlop növekvő vagy csökkenő: az első eltérő értékű kártya dönt (3 3 6 7 … "
        "vagy 9 8 8 5 …); azonos érték mindig mehet.\n"
        "• Vagy dobd el a kártyát képpel fölfelé a színe dobópaklijára.\n"
        "• Aztán húzd fel a húzópakli vagy bármelyik dobópakli legfelső lapját.\n"
        "• Lapkák: a számozott lapka azonnal pontot ad; a lóhere után bármelyik figuráddal "
        "még egy követ léphetsz; a kívánságkövet elveszed és megtartod. Ha egy ösvényen a "
        "figurád már a zárókövön áll, az ösvény kártyájával egy másik figuráddal léphetsz.\n"
        "• A játék véget ér, amint az ötödik figura eléri a célterületet (7–9. sor), vagy "
        "amikor valaki felhúzza a húzópakli utolsó lapját.\n"
        "• Pontozás: minden figura a sora értékét kapja (a nagy a duplát, a mínuszt is), "
        "ehhez jönnek a számozott lapkák és a kívánságkövek: 0 → -4, 1 → -3, 2 → 2, 3 → 3, "
        "4 → 6, 5 vagy több → 10."
    ),
    "help.input.board": (
        "Lépések: írd be egy lehetőség számát vagy a lépést – G7 a zöld 7 kirakása · "
        "-G7 eldobása · big / small nagy / kis figura · >G lépés a zöld ösvény figurájával · "
        "pass · draw (húzópakli) · draw G (a zöld dobópakli felső lapja). "
        "Színek: G zöld, Y sárga, R piros, P rózsaszín, B kék."
    ),
    "help.cards": (
        "Keltis, a kártyajáték – a körödben egy dolgot teszel, aztán 8 lapra egészíted ki a "
        "kezed.\n"
        "• Tegyél egy színkártyát a színének megfelelő színsorodba. Egy sor növekvő vagy "
        "csökkenő: az első eltérő értékű lap dönt (3 3 6 7 … vagy 9 8 8 5 …).\n"
        "• Lezáró kártya (GX) csak a színének megfelelő sor végére kerülhet; utána már csak "
        "az ugyanolyan színű második lezáró kártya.\n"
        "• Pontkártya (*7) a pontkártyasorodba kerül (darabja 1 pont), vagy annak a "
        "színsorodnak a végére, amelynek utolsó lapja ugyanolyan értékű.\n"
        "• Kívánságkő: dobj el két azonos értékű lapot (1–9), és vedd el az ugyanilyen értékű "
        "kívánságkő kártyát, ha még az asztalon van; utána két lapot húzol.\n"
        "• Vagy dobj el egy lapot. A húzópakliból vagy bármelyik eldobó pakli tetejéről "
        "húzhatsz – sosem azt a lapot, amit ebben a körben dobtak el.\n"
        "• A játék véget ér, ha öt sor végén lezáró kártya van, vagy valaki felhúzza az "
        "utolsó lapot; ekkor mindenki, a következő játékostól kezdve, még legfeljebb két "
        "lapot illeszthet a soraihoz.\n"
        "• Pontozás: minden színsor a lapjai száma szerint 1:-4 2:-3 3:-2 4:1 5:2 6:3 7:6 "
        "8:7 9+:10; a pontkártyasor minden lapja 1 pont; kívánságkövek 0:-4 1:-1 2:0 3:4 "
        "4:6 5+:10."
    ),
    "help.input.cards": (
        "Lépések: írd be egy lehetőség számát vagy a lépést – G7 a zöld 7 letétele · "
        "GX lezáró kártya · *7 pontkártya a pontkártyasorba · *7>G pontkártya a zöld sorba · "
        "wish G5 *5 az 5-ös kívánságkő két lapért · -G7 eldobás · draw, draw G, draw * · "
        "pass (több lapot nem teszel le). "
        "Színek: G zöld, Y sárga, R piros, P rózsaszín, B kék."
    ),
}

#: Why a move is refused or typed input cannot be read (the ``key`` of
#: :class:`keltis.core.errors.KeltisError`), keyed ``refuse.<key>`` in :data:`MESSAGES`.
#: ``{colour}`` is a row's, path's or pile's colour, ``{owner}`` a seat's name; cards and
#: moves stay in notation.
_REFUSALS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "not_a_colour": "“{text}” is not a colour: use G, Y, R, P or B",
        "not_a_card": (
            "“{text}” is not a card: a colour letter and a value 0–10 (G7), a colour letter "
            "and X for a closing card (RX), or * and a value for a point card (*3)"
        ),
        "empty_action": "nothing typed",
        "claim_two_cards": "a claim names two cards, e.g. wish G5 *5",
        "claim_value": "{card} cannot claim a wish stone (only cards of value 1–9)",
        "claim_same_value": "the two cards of a claim must have the same value",
        "point_onto_row": "only a point card can be laid onto another colour's row (*7>G)",
        "not_an_action": (
            "not a move: type a card to lay it (G7), -G7 to discard it, big or small, >G to "
            "move a figure, pass, draw or draw G"
        ),
        "not_board_card": "{action} is not a board-game card (only G0–B10 exist)",
        "not_in_hand": "{card} is not in your hand",
        "row_ascending": "your {colour} row runs upwards: {value} is lower than {end}",
        "row_descending": "your {colour} row runs downwards: {value} is higher than {end}",
        "must_play": "first play a card (lay it or discard it), not {action}",
        "must_draw": "now draw a card (draw or draw G), not {action}",
        "must_figure": "now choose the big or a small figure (big / small), not {action}",
        "must_move_or_pass": "now move a figure (>G) or pass, not {action}",
        "deck_empty": "the draw pile is empty",
        "no_point_pile": "the board game has no point-card pile",
        "pile_empty": "the {colour} discard pile is empty",
        "no_take_back": "you may not take back the {card} you discarded this turn (variant)",
        "no_figure": "you have no figure on the {colour} path",
        "figure_at_end": (
            "your figure on the {colour} path stands on the end stone and cannot move further"
        ),
        "over_goal": "the game is over: five figures reached the goal area",
        "over_deck": "the game is over: the last card was drawn",
        "over_closed": "the game is over: five rows are closed",
        "over_truncated": "the game is over: the turn cap was reached",
        "game_over": "the game is over",
        "final_lay_or_pass": (
            "the game has ended: now you may only lay a card onto one of your rows or pass, "
            "not {action}"
        ),
        "play_before_draw": ("first play a card (lay, discard or claim a wish stone), then draw"),
        "pass_only_final": (
            "you may pass only after the end; now lay, discard or claim a wish stone"
        ),
        "board_move": (
            "{action} is a board-game move; lay a card (G7), discard one (-G7) or claim a "
            "wish stone (wish G5 Y5)"
        ),
        "must_draw_cards": (
            "refill your hand first: draw (the draw pile) or draw G (the top of a discard "
            "pile), not {action}"
        ),
        "point_pile_empty": "the point-card discard pile is empty",
        "pile_blocked": (
            "a card went onto the {colour} discard pile this turn: you may not take a card "
            "discarded this turn"
        ),
        "point_pile_blocked": (
            "a card went onto the point-card discard pile this turn: you may not take a card "
            "discarded this turn"
        ),
        "final_no_point_row": (
            "after the end, cards go only onto rows you already have: you have no point row"
        ),
        "final_no_row": (
            "after the end, cards go only onto rows you already have: you have no {colour} row"
        ),
        "point_cannot_start": "a point card cannot start a row: you have no {colour} row",
        "closing_cannot_start": "a closing card cannot start your {colour} row",
        "row_full": "your {colour} row holds both closing cards: it takes no more cards",
        "row_closed": (
            "your {colour} row is closed: it takes only the second {colour} closing card"
        ),
        "point_must_match": (
            "the last card of your {colour} row is a {end}: a point card laid there must be "
            "a {end}, not {value}"
        ),
        "no_two_copies": "you do not hold two copies of {card}",
        "stone_taken": "wish stone {value} is no longer on the table: {owner} has it",
    },
    "cs": {
        "not_a_colour": "„{text}“ není barva: použij G, Y, R, P nebo B",
        "not_a_card": (
            "„{text}“ není karta: písmeno barvy a hodnota 0–10 (G7), písmeno barvy a X pro "
            "uzavírací kartu (RX), nebo * a hodnota pro bodovou kartu (*3)"
        ),
        "empty_action": "nic nebylo zadáno",
        "claim_two_cards": "kámen přání se získává za dvě karty, např. wish G5 *5",
        "claim_value": "kartou {card} nelze získat kámen přání (jen karty hodnoty 1–9)",
        "claim_same_value": "obě karty za kámen přání musí mít stejnou hodnotu",
        "point_onto_row": "do řady jiné barvy lze přiložit jen bodovou kartu (*7>G)",
        "not_an_action": (
            "to není tah: napiš kartu k vyložení (G7), -G7 k odhození, big nebo small, >G "
            "k posunu figurky, pass, draw nebo draw G"
        ),
        "not_board_card": "{action} není karta deskové hry (existují jen G0–B10)",
        "not_in_hand": "{card} nemáš v ruce",
        "row_ascending": "tvoje {colour} řada stoupá: {value} je méně než {end}",
        "row_descending": "tvoje {colour} řada klesá: {value} je více než {end}",
        "must_play": "nejdřív zahraj kartu (vylož ji, nebo odhoď), ne {action}",
        "must_draw": "teď si lízni kartu (draw, nebo draw G), ne {action}",
        "must_figure": "teď vyber velkou, nebo malou figurku (big / small), ne {action}",
        "must_move_or_pass": "teď posuň figurku (>G), nebo pass, ne {action}",
        "deck_empty": "lízací balíček je prázdný",
        "no_point_pile": "desková hra nemá balíček bodových karet",
        "pile_empty": "{colour:m} odhazovací balíček je prázdný",
        "no_take_back": (
            "kartu {card}, kterou jsi v tomto tahu odhodil(a), si nesmíš vzít zpět (varianta)"
        ),
        "no_figure": "na {colour:f2} cestě nemáš žádnou figurku",
        "figure_at_end": "tvoje figurka na {colour:f2} cestě stojí na koncovém kameni a dál nemůže",
        "over_goal": "hra skončila: pět figurek vstoupilo do cílové oblasti",
        "over_deck": "hra skončila: byla líznuta poslední karta",
        "over_closed": "hra skončila: pět řad má uzavírací kartu",
        "over_truncated": "hra skončila: dosažen limit tahů",
        "game_over": "hra skončila",
        "final_lay_or_pass": (
            "hra skončila: teď smíš jen přiložit kartu ke své řadě, nebo pass, ne {action}"
        ),
        "play_before_draw": (
            "nejdřív zahraj kartu (vylož, odhoď, nebo získej kámen přání), pak si lízni"
        ),
        "pass_only_final": (
            "pass je možný až po konci hry; teď vylož, odhoď, nebo získej kámen přání"
        ),
        "board_move": (
            "{action} je tah deskové hry; vylož kartu (G7), odhoď ji (-G7), nebo získej "
            "kámen přání (wish G5 Y5)"
        ),
        "must_draw_cards": (
            "nejdřív si doplň ruku: draw (lízací balíček), nebo draw G (vrchní karta "
            "odhazovacího balíčku), ne {action}"
        ),
        "point_pile_empty": "odhazovací balíček bodových karet je prázdný",
        "pile_blocked": (
            "na {colour:m} odhazovací balíček se v tomto tahu odhazovalo: kartu odhozenou "
            "v tomto tahu si vzít nesmíš"
        ),
        "point_pile_blocked": (
            "na balíček bodových karet se v tomto tahu odhazovalo: kartu odhozenou v tomto "
            "tahu si vzít nesmíš"
        ),
        "final_no_point_row": (
            "po konci hry jdou karty jen do řad, které už máš: řadu bodových karet nemáš"
        ),
        "final_no_row": (
            "po konci hry jdou karty jen do řad, které už máš: {colour:f4} řadu nemáš"
        ),
        "point_cannot_start": "bodovou kartou nelze začít řadu: {colour:f4} řadu nemáš",
        "closing_cannot_start": "uzavírací kartou nelze začít {colour:f4} řadu",
        "row_full": "tvoje {colour} řada má obě uzavírací karty: další karty už nebere",
        "row_closed": (
            "tvoje {colour} řada je uzavřená: vezme už jen druhou {colour:f4} uzavírací kartu"
        ),
        "point_must_match": (
            "poslední karta tvé {colour:f2} řady je {end}: bodová karta tam musí mít hodnotu "
            "{end}, ne {value}"
        ),
        "no_two_copies": "nemáš v ruce dvě karty {card}",
        "stone_taken": "kámen přání {value} už na stole není: má ho {owner}",
    },
    "sk": {
        "not_a_colour": "„{text}“ nie je farba: použi G, Y, R, P alebo B",
        "not_a_card": (
            "„{text}“ nie je karta: písmeno farby a hodnota 0–10 (G7), písmeno farby a X pre "
            "uzatváraciu kartu (RX), alebo * a hodnota pre bodovú kartu (*3)"
        ),
        "empty_action": "nič nebolo zadané",
        "claim_two_cards": "kameň želaní sa získava za dve karty, napr. wish G5 *5",
        "claim_value": "kartou {card} nemožno získať kameň želaní (len karty hodnoty 1–9)",
        "claim_same_value": "obe karty za kameň želaní musia mať rovnakú hodnotu",
        "point_onto_row": "do radu inej farby možno priložiť len bodovú kartu (*7>G)",
        "not_an_action": (
            "to nie je ťah: napíš kartu na vyloženie (G7), -G7 na odloženie, big alebo small, "
            ">G na posun figúrky, pass, draw alebo draw G"
        ),
        "not_board_card": "{action} nie je karta doskovej hry (existujú len G0–B10)",
        "not_in_hand": "{card} nemáš v ruke",
        "row_ascending": "tvoj {colour:m} rad stúpa: {value} je menej ako {end}",
        "row_descending": "tvoj {colour:m} rad klesá: {value} je viac ako {end}",
        "must_play": "najprv zahraj kartu (vylož ju, alebo odlož), nie {action}",
        "must_draw": "teraz si vezmi kartu (draw, alebo draw G), nie {action}",
        "must_figure": "teraz vyber veľkú, alebo malú figúrku (big / small), nie {action}",
        "must_move_or_pass": "teraz posuň figúrku (>G), alebo pass, nie {action}",
        "deck_empty": "hrací balíček je prázdny",
        "no_point_pile": "dosková hra nemá balíček bodových kariet",
        "pile_empty": "{colour:m} odkladací balíček je prázdny",
        "no_take_back": (
            "kartu {card}, ktorú si v tomto ťahu odložil(a), si nesmieš vziať späť (variant)"
        ),
        "no_figure": "na {colour:f2} ceste nemáš žiadnu figúrku",
        "figure_at_end": (
            "tvoja figúrka na {colour:f2} ceste stojí na koncovom kameni a ďalej nemôže"
        ),
        "over_goal": "hra skončila: päť figúrok vstúpilo do cieľovej oblasti",
        "over_deck": "hra skončila: bola vzatá posledná karta",
        "over_closed": "hra skončila: päť radov má uzatváraciu kartu",
        "over_truncated": "hra skončila: dosiahnutý limit ťahov",
        "game_over": "hra skončila",
        "final_lay_or_pass": (
            "hra skončila: teraz smieš len priložiť kartu k svojmu radu, alebo pass, nie {action}"
        ),
        "play_before_draw": (
            "najprv zahraj kartu (vylož, odlož, alebo získaj kameň želaní), potom si ber"
        ),
        "pass_only_final": (
            "pass je možný až po konci hry; teraz vylož, odlož, alebo získaj kameň želaní"
        ),
        "board_move": (
            "{action} je ťah doskovej hry; vylož kartu (G7), odlož ju (-G7), alebo získaj "
            "kameň želaní (wish G5 Y5)"
        ),
        "must_draw_cards": (
            "najprv si doplň ruku: draw (hrací balíček), alebo draw G (vrchná karta "
            "odkladacieho balíčka), nie {action}"
        ),
        "point_pile_empty": "odkladací balíček bodových kariet je prázdny",
        "pile_blocked": (
            "na {colour:m} odkladací balíček sa v tomto ťahu odkladalo: kartu odloženú "
            "v tomto ťahu si vziať nesmieš"
        ),
        "point_pile_blocked": (
            "na balíček bodových kariet sa v tomto ťahu odkladalo: kartu odloženú v tomto "
            "ťahu si vziať nesmieš"
        ),
        "final_no_point_row": (
            "po konci hry idú karty len do radov, ktoré už máš: rad bodových kariet nemáš"
        ),
        "final_no_row": ("po konci hry idú karty len do radov, ktoré už máš: {colour:m} rad nemáš"),
        "point_cannot_start": "bodovou kartou sa nedá začať rad: {colour:m} rad nemáš",
        "closing_cannot_start": "uzatváracou kartou sa nedá začať {colour:m} rad",
        "row_full": "tvoj {colour:m} rad má obe uzatváracie karty: ďalšie karty už neberie",
        "row_closed": (
            "tvoj {colour:m} rad je uzavretý: vezme už len druhú {colour:f4} uzatváraciu kartu"
        ),
        "point_must_match": (
            "posledná karta tvojho {colour:m2} radu je {end}: bodová karta tam musí mať "
            "hodnotu {end}, nie {value}"
        ),
        "no_two_copies": "nemáš v ruke dve karty {card}",
        "stone_taken": "kameň želaní {value} už na stole nie je: má ho {owner}",
    },
    "es": {
        "not_a_colour": "«{text}» no es un color: usa G, Y, R, P o B",
        "not_a_card": (
            "«{text}» no es una carta: una letra de color y un valor 0–10 (G7), una letra de "
            "color y X para una carta de cierre (RX), o * y un valor para una carta de puntos "
            "(*3)"
        ),
        "empty_action": "no se escribió nada",
        "claim_two_cards": "una piedra de deseo se toma con dos cartas, p. ej. wish G5 *5",
        "claim_value": (
            "{card} no sirve para tomar una piedra de deseo (solo cartas de valor 1–9)"
        ),
        "claim_same_value": "las dos cartas para una piedra de deseo deben tener el mismo valor",
        "point_onto_row": "solo una carta de puntos puede ir a la hilera de otro color (*7>G)",
        "not_an_action": (
            "no es una jugada: escribe una carta para ponerla (G7), -G7 para descartarla, big "
            "o small, >G para avanzar una pieza, pass, draw o draw G"
        ),
        "not_board_card": "{action} no es una carta del juego de tablero (solo existen G0–B10)",
        "not_in_hand": "no tienes {card} en la mano",
        "row_ascending": "tu hilera {colour:f} es ascendente: {value} es menor que {end}",
        "row_descending": "tu hilera {colour:f} es descendente: {value} es mayor que {end}",
        "must_play": "primero juega una carta (ponla o descártala), no {action}",
        "must_draw": "ahora roba una carta (draw o draw G), no {action}",
        "must_figure": "ahora elige la pieza grande o una pequeña (big / small), no {action}",
        "must_move_or_pass": "ahora avanza una pieza (>G) o pasa (pass), no {action}",
        "deck_empty": "el mazo está vacío",
        "no_point_pile": "el juego de tablero no tiene pila de cartas de puntos",
        "pile_empty": "la pila de descartes {colour:f} está vacía",
        "no_take_back": "no puedes recuperar el {card} que descartaste en este turno (variante)",
        "no_figure": "no tienes ninguna pieza en el camino {colour}",
        "figure_at_end": (
            "tu pieza del camino {colour} está en la piedra final y no puede avanzar más"
        ),
        "over_goal": "la partida ha terminado: cinco piezas llegaron a la zona de meta",
        "over_deck": "la partida ha terminado: se robó la última carta",
        "over_closed": "la partida ha terminado: cinco hileras tienen carta de cierre",
        "over_truncated": "la partida ha terminado: se alcanzó el límite de turnos",
        "game_over": "la partida ha terminado",
        "final_lay_or_pass": (
            "la partida ha terminado: ahora solo puedes poner una carta en una de tus hileras "
            "o pasar, no {action}"
        ),
        "play_before_draw": (
            "primero juega una carta (ponla, descártala o toma una piedra de deseo) y luego roba"
        ),
        "pass_only_final": (
            "solo puedes pasar tras el final; ahora pon una carta, descarta o toma una piedra "
            "de deseo"
        ),
        "board_move": (
            "{action} es una jugada del juego de tablero; pon una carta (G7), descarta una "
            "(-G7) o toma una piedra de deseo (wish G5 Y5)"
        ),
        "must_draw_cards": (
            "primero completa tu mano: draw (el mazo) o draw G (la carta superior de una pila "
            "de descartes), no {action}"
        ),
        "point_pile_empty": "la pila de descartes de cartas de puntos está vacía",
        "pile_blocked": (
            "en este turno se descartó en la pila {colour:f}: no puedes tomar una carta "
            "descartada en este turno"
        ),
        "point_pile_blocked": (
            "en este turno se descartó en la pila de cartas de puntos: no puedes tomar una "
            "carta descartada en este turno"
        ),
        "final_no_point_row": (
            "tras el final, las cartas solo van a hileras que ya tienes: no tienes hilera de puntos"
        ),
        "final_no_row": (
            "tras el final, las cartas solo van a hileras que ya tienes: no tienes hilera "
            "{colour:f}"
        ),
        "point_cannot_start": (
            "una carta de puntos no puede empezar una hilera: no tienes hilera {colour:f}"
        ),
        "closing_cannot_start": "una carta de cierre no puede empezar tu hilera {colour:f}",
        "row_full": "tu hilera {colour:f} tiene las dos cartas de cierre: no admite más cartas",
        "row_closed": (
            "tu hilera {colour:f} está cerrada: solo admite la segunda carta de cierre {colour:f}"
        ),
        "point_must_match": (
            "la última carta de tu hilera {colour:f} es un {end}: una carta de puntos ahí debe "
            "ser un {end}, no un {value}"
        ),
        "no_two_copies": "no tienes dos cartas {card}",
        "stone_taken": "la piedra de deseo {value} ya no está en la mesa: la tiene {owner}",
    },
    "pl": {
        "not_a_colour": "„{text}” to nie kolor: użyj G, Y, R, P albo B",
        "not_a_card": (
            "„{text}” to nie karta: litera koloru i wartość 0–10 (G7), litera koloru i X dla "
            "karty zamykającej (RX) albo * i wartość dla karty punktowej (*3)"
        ),
        "empty_action": "nic nie wpisano",
        "claim_two_cards": "kamień życzeń bierze się za dwie karty, np. wish G5 *5",
        "claim_value": (
            "kartą {card} nie można wziąć kamienia życzeń (tylko karty o wartości 1–9)"
        ),
        "claim_same_value": "obie karty za kamień życzeń muszą mieć tę samą wartość",
        "point_onto_row": ("do kolumny innego koloru można dołożyć tylko kartę punktową (*7>G)"),
        "not_an_action": (
            "to nie ruch: wpisz kartę, by ją wyłożyć (G7), -G7, by ją odrzucić, big albo "
            "small, >G, by przesunąć znacznik, pass, draw albo draw G"
        ),
        "not_board_card": "{action} nie jest kartą gry planszowej (istnieją tylko G0–B10)",
        "not_in_hand": "nie masz na ręce karty {card}",
        "row_ascending": "twoja {colour:f} kolumna rośnie: {value} to mniej niż {end}",
        "row_descending": "twoja {colour:f} kolumna maleje: {value} to więcej niż {end}",
        "must_play": "najpierw zagraj kartę (wyłóż ją albo odrzuć), nie {action}",
        "must_draw": "teraz dobierz kartę (draw albo draw G), nie {action}",
        "must_figure": "teraz wybierz duży albo mały znacznik (big / small), nie {action}",
        "must_move_or_pass": "teraz przesuń znacznik (>G) albo spasuj (pass), nie {action}",
        "deck_empty": "zakryty stos jest pusty",
        "no_point_pile": "gra planszowa nie ma stosu kart punktowych",
        "pile_empty": "{colour} stos kart odrzuconych jest pusty",
        "no_take_back": (
            "nie możesz wziąć z powrotem karty {card} odrzuconej w tej turze (wariant)"
        ),
        "no_figure": "nie masz znacznika na {colour:f2} drodze",
        "figure_at_end": (
            "twój znacznik na {colour:f2} drodze stoi na kamieniu końcowym i nie może iść dalej"
        ),
        "over_goal": "gra się skończyła: pięć znaczników dotarło do obszaru celu",
        "over_deck": "gra się skończyła: dobrano ostatnią kartę",
        "over_closed": "gra się skończyła: pięć kolumn ma kartę zamykającą",
        "over_truncated": "gra się skończyła: osiągnięto limit tur",
        "game_over": "gra się skończyła",
        "final_lay_or_pass": (
            "gra się skończyła: teraz możesz tylko dołożyć kartę do swojej kolumny albo "
            "spasować, nie {action}"
        ),
        "play_before_draw": (
            "najpierw zagraj kartę (wyłóż, odrzuć albo weź kamień życzeń), potem dobierz"
        ),
        "pass_only_final": (
            "spasować można dopiero po końcu gry; teraz wyłóż, odrzuć albo weź kamień życzeń"
        ),
        "board_move": (
            "{action} to ruch gry planszowej; wyłóż kartę (G7), odrzuć ją (-G7) albo weź "
            "kamień życzeń (wish G5 Y5)"
        ),
        "must_draw_cards": (
            "najpierw uzupełnij rękę: draw (zakryty stos) albo draw G (wierzchnia karta stosu "
            "kart odrzuconych), nie {action}"
        ),
        "point_pile_empty": "stos odrzuconych kart punktowych jest pusty",
        "pile_blocked": (
            "na {colour} stos odrzucono kartę w tej turze: nie możesz wziąć karty odrzuconej "
            "w tej turze"
        ),
        "point_pile_blocked": (
            "na stos kart punktowych odrzucono kartę w tej turze: nie możesz wziąć karty "
            "odrzuconej w tej turze"
        ),
        "final_no_point_row": (
            "po końcu gry karty idą tylko do kolumn, które już masz: nie masz kolumny kart "
            "punktowych"
        ),
        "final_no_row": (
            "po końcu gry karty idą tylko do kolumn, które już masz: nie masz {colour:f2} kolumny"
        ),
        "point_cannot_start": (
            "kartą punktową nie można zacząć kolumny: nie masz {colour:f2} kolumny"
        ),
        "closing_cannot_start": "kartą zamykającą nie można zacząć {colour:f2} kolumny",
        "row_full": ("twoja {colour:f} kolumna ma obie karty zamykające: nie przyjmie więcej kart"),
        "row_closed": (
            "twoja {colour:f} kolumna jest zamknięta: przyjmie już tylko drugą {colour:f4} "
            "kartę zamykającą"
        ),
        "point_must_match": (
            "ostatnia karta twojej {colour:f2} kolumny to {end}: karta punktowa musi tam mieć "
            "wartość {end}, nie {value}"
        ),
        "no_two_copies": "nie masz dwóch kart {card}",
        "stone_taken": "kamienia życzeń {value} już nie ma na stole: ma go {owner}",
    },
    "hu": {
        "not_a_colour": "„{text}” nem szín: ezek közül válassz: G, Y, R, P, B",
        "not_a_card": (
            "„{text}” nem kártya: színbetű és érték 0–10 (G7), színbetű és X a lezáró "
            "kártyához (RX), vagy * és érték a pontkártyához (*3)"
        ),
        "empty_action": "nem írtál be semmit",
        "claim_two_cards": "kívánságkőért két lapot kell eldobni, pl. wish G5 *5",
        "claim_value": (
            "ezzel a lappal nem szerezhetsz kívánságkövet: {card} (csak 1–9 értékű lapokkal)"
        ),
        "claim_same_value": "a kívánságkőért eldobott két lapnak azonos értékűnek kell lennie",
        "point_onto_row": "más színű sorba csak pontkártya illeszthető (*7>G)",
        "not_an_action": (
            "ez nem lépés: írj be egy lapot a letételhez (G7), -G7 az eldobáshoz, big vagy "
            "small, >G a figura léptetéséhez, pass, draw vagy draw G"
        ),
        "not_board_card": "{action} nem a társasjáték kártyája (csak G0–B10 létezik)",
        "not_in_hand": "{card} nincs a kezedben",
        "row_ascending": "a {colour} sorod emelkedő: {value} kisebb, mint {end}",
        "row_descending": "a {colour} sorod csökkenő: {value} nagyobb, mint {end}",
        "must_play": "előbb játssz ki egy lapot (tedd le vagy dobd el), ne ezt: {action}",
        "must_draw": "most húzz egy lapot (draw vagy draw G), ne ezt: {action}",
        "must_figure": "most válassz: nagy vagy kis figura (big / small), ne ezt: {action}",
        "must_move_or_pass": "most lépj egy figurával (>G), vagy passzolj (pass), ne ezt: {action}",
        "deck_empty": "a húzópakli üres",
        "no_point_pile": "a társasjátékban nincs pontkártya-pakli",
        "pile_empty": "a {colour} dobópakli üres",
        "no_take_back": "az ebben a körben eldobott {card} lapot nem veheted vissza (változat)",
        "no_figure": "nincs figurád a {colour} ösvényen",
        "figure_at_end": "a {colour} ösvényen álló figurád a zárókövön áll, tovább nem léphet",
        "over_goal": "a játék véget ért: öt figura elérte a célterületet",
        "over_deck": "a játék véget ért: felhúzták az utolsó lapot",
        "over_closed": "a játék véget ért: öt sor végén lezáró kártya van",
        "over_truncated": "a játék véget ért: elérték a körkorlátot",
        "game_over": "a játék véget ért",
        "final_lay_or_pass": (
            "a játék véget ért: most csak a soraidhoz illeszthetsz lapot, vagy passzolhatsz, "
            "ne ezt: {action}"
        ),
        "play_before_draw": (
            "előbb játssz ki egy lapot (tedd le, dobd el, vagy szerezz kívánságkövet), utána húzz"
        ),
        "pass_only_final": (
            "passzolni csak a játék vége után lehet; most tegyél le, dobj el, vagy szerezz "
            "kívánságkövet"
        ),
        "board_move": (
            "{action} a társasjáték lépése; tegyél le egy lapot (G7), dobj el egyet (-G7), "
            "vagy szerezz kívánságkövet (wish G5 Y5)"
        ),
        "must_draw_cards": (
            "előbb egészítsd ki a kezed: draw (húzópakli) vagy draw G (egy dobópakli felső "
            "lapja), ne ezt: {action}"
        ),
        "point_pile_empty": "a pontkártyák eldobó paklija üres",
        "pile_blocked": (
            "a {colour} dobópaklira ebben a körben dobtak lapot: ebben a körben eldobott lapot "
            "nem vehetsz el"
        ),
        "point_pile_blocked": (
            "a pontkártyák eldobó paklijára ebben a körben dobtak lapot: ebben a körben "
            "eldobott lapot nem vehetsz el"
        ),
        "final_no_point_row": (
            "a játék vége után csak a meglévő soraidhoz tehetsz lapot: pontkártyasorod nincs"
        ),
        "final_no_row": (
            "a játék vége után csak a meglévő soraidhoz tehetsz lapot: {colour} sorod nincs"
        ),
        "point_cannot_start": "pontkártyával nem kezdhetsz sort: {colour} sorod nincs",
        "closing_cannot_start": "lezáró kártyával nem kezdheted a {colour} sorodat",
        "row_full": ("a {colour} sorodban már mindkét lezáró kártya ott van: több lapot nem fogad"),
        "row_closed": (
            "a {colour} sorod le van zárva: már csak a második {colour} lezáró kártyát fogadja"
        ),
        "point_must_match": (
            "a {colour} sorod utolsó lapja {end}: oda csak {end} értékű pontkártya tehető, "
            "nem {value}"
        ),
        "no_two_copies": "nincs a kezedben két {card} lap",
        "stone_taken": "a kívánságkő ({value}) már nincs az asztalon: {owner} vitte el",
    },
}

MESSAGES: Final[dict[str, dict[str, str]]] = {
    lang: {**messages, **{f"refuse.{key}": text for key, text in _REFUSALS[lang].items()}}
    for lang, messages in (
        ("en", _EN),
        ("cs", _CS),
        ("sk", _SK),
        ("es", _ES),
        ("pl", _PL),
        ("hu", _HU),
    )
}

#: Event and refusal parameters that hold a colour index (or ``"*"``: the point-card pile).
_COLOUR_PARAMS: Final = ("onto", "path", "pile", "colour")


def detect_language(explicit: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The language to use: ``explicit`` if given, else from the environment, else ``en``."""
    if explicit:
        code = explicit.lower().split("_")[0].split("-")[0].split(".")[0]
        if code not in LANGUAGES:
            raise ValueError(f"unknown language {explicit!r}: choose one of {', '.join(LANGUAGES)}")
        return code
    env = os.environ if env is None else env
    for key in ("KELTIS_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        code = value.lower().split(".")[0].split("_")[0].split("-")[0]
        if code in LANGUAGES:
            return code
    return "en"


class ColourName:
    """A colour's name in one language; ``format(name, "f2")`` gives a grammatical form
    (see :data:`COLOUR_FORMS`), an unknown or empty spec the plain name."""

    __slots__ = ("forms",)

    def __init__(self, forms: Mapping[str, str]) -> None:
        self.forms = dict(forms)

    def __format__(self, spec: str) -> str:
        return self.forms.get(spec, self.forms[""])

    def __str__(self) -> str:
        return self.forms[""]

    def __repr__(self) -> str:
        return f"ColourName({self.forms['']!r})"


def template_fields(template: str) -> dict[str, set[str]]:
    """The fields of a message template, each with the format specs it is used with."""
    fields: dict[str, set[str]] = {}
    for _, name, spec, _ in Formatter().parse(template):
        if name is not None:
            fields.setdefault(name, set()).add(spec or "")
    return fields


class Translator:
    """Messages of one language with English as the fallback."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        self._messages = {**MESSAGES["en"], **MESSAGES.get(lang, {})}
        forms = COLOUR_FORMS.get(lang, COLOUR_FORMS["en"])
        self._names = tuple(
            ColourName({form: names[c] for form, names in forms.items()}) for c in range(5)
        )
        self._nameless = ColourName(dict.fromkeys(forms, ""))

    def __call__(self, key: str, **params: Any) -> str:
        """The message ``key`` filled with ``params`` (the key itself if unknown)."""
        template = self._messages.get(key)
        if template is None:
            return key
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            english = MESSAGES["en"].get(key, key)
            try:
                return english.format(**params)
            except (KeyError, IndexError, ValueError):
                return english

    def get(self, key: str, default: str) -> str:
        """The message ``key`` without parameters, or ``default`` if there is none."""
        return self._messages.get(key, default)

    def colour(self, index: int) -> str:
        """The plain name of colour ``index`` (0-4)."""
        return str(self._names[index])

    def colour_name(self, index: int) -> ColourName:
        """Colour ``index`` (0-4) with its grammatical forms, for message parameters;
        -1 gives an empty name."""
        return self._names[index] if 0 <= index < len(self._names) else self._nameless

    def refusal(self, error: KeltisError, seat_name: Callable[[int], str] | None = None) -> str:
        """Why a move was refused (``"B-13: …"``, with the rule id) or typed input could not
        be read, in this language. ``seat_name`` names the seat in ``owner`` (else
        ``name.player``); an error without a worded ``key`` keeps its English text."""
        template = f"refuse.{error.key}"
        if not error.key or template not in self._messages:
            return str(error)
        values = self._named_colours(error.params)
        owner = values.get("owner")
        if isinstance(owner, int):
            values["owner"] = seat_name(owner) if seat_name else self("name.player", n=owner + 1)
        text = self(template, **values)
        return f"{error.rule}: {text}" if isinstance(error, IllegalActionError) else text

    def event(self, event: Event) -> str:
        """One :mod:`keltis.describe` event as a phrase."""
        key, params = event
        values = self._named_colours(params)
        if key == "draw_pile" and values.get("pile") == "*":
            key = "draw_pile.point"
        if key == "figure":
            return self("ev.figure.big" if values.get("big") else "ev.figure.small")
        if key == "moved" and values.get("big"):
            return self("ev.moved.big", **values)
        if key == "end":
            return self(f"ev.end.{values.get('reason')}")
        return self(f"ev.{key}", **values)

    def _named_colours(self, params: Mapping[str, object]) -> dict[str, object]:
        """``params`` with each colour index (:data:`_COLOUR_PARAMS`) as its name."""
        values = dict(params)
        for name in _COLOUR_PARAMS:
            colour = values.get(name)
            if isinstance(colour, int):
                values[name] = self.colour_name(colour)
        return values

    def events(self, events: list[Event]) -> str:
        """Several events joined into one line."""
        return "; ".join(self.event(e) for e in events)
