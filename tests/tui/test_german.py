"""A round of ``keltis play`` in German, chosen from ``LANG=de_DE.UTF-8``: the screen, the
help, the moves, a refusal and the previews are German, in the Kosmos edition's terms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from keltis.i18n import Translator

from .helpers import play

DE = Translator("de")
GERMAN = {"LANG": "de_DE.UTF-8"}
#: Output that is no terminal is COLUMNS × LINES: enough for the roomy layout.
ROOMY = {"COLUMNS": "100", "LINES": "50"}


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_board_game_round_in_german(tmp_path: Path) -> None:
    run = play(
        ["--seats", "human,greedy", "--seed", "3"],
        ["help", "xyz", "1", "1", "1", "1"],
        tmp=tmp_path,
        env=GERMAN | ROOMY,
    )
    out = flat(run.output)
    assert "Keltis – das Brettspiel" in out
    assert "Nachziehstapel: 64 Karten │ aussortiert: 30 Karten" in out
    assert "Zielbereich = Reihen 7–9, über der Linie: 0 von 5 Figuren stehen dort" in out
    assert "Deine Handkarten:" in out
    assert "Letzte Züge:" in out
    assert "Du (1): spiele eine Karte – lege sie in deine Reihe ihrer Farbe" in out
    assert flat(DE("help.board")) in out
    assert "aber nicht die Karte, die du gerade abgeworfen hast" in out  # B-15
    assert "1 G7 eine Figur auf den grünen Pfad, Reihe 1" in out  # the options' previews
    assert "eine Figur auf den rosa Pfad, Reihe 1 (+3 Punkte)" in out
    assert "die große Figur auf den grünen Pfad (zählt doppelt)" in out
    assert "„xyz“ ist nicht lesbar: kein Zug:" in out
    assert re.search(r"(legt|wirft) [GYRPB]\d+ (aus|ab)", out)  # the bot's move, in words
    assert "Die Eingabe ist zu Ende." in out
    for english in ("draw pile", "Your hand", "Last moves", "discard pile", "wish stone"):
        assert english not in out, english


def test_the_compact_board_screen_in_german(tmp_path: Path) -> None:
    lines = ["1", "1", "help"]
    run = play(["--seats", "human,greedy", "--seed", "3"], lines, tmp=tmp_path, env=GERMAN)
    out = flat(run.output)
    assert "Keltis – das Brettspiel │ Zug 1 │ Nachziehstapel: 64 Karten" in out
    assert "Zielbereich (Reihen 7–9): 0/5" in out
    assert "Startfeld: [1] 1 1 1 1 │ [2] 2 2 2 2" in out
    assert "Ablagestapel: G –" in out
    assert "aussortiert: 30 Karten" in out
    assert "Spieler G Y R P B ◆ Kärtchen Hand Punkte" in out
    assert "Deine Handkarten:" in out
    assert "Figuren: 2 = eine kleine Figur" in out.split("Hilfe")[1]  # the legend: in help
    lines = run.output.splitlines()
    assert all(len(line) <= 80 for line in lines if str(run.record) not in line)


@pytest.mark.parametrize("typed", ["draw", "ziehen", "Ziehen"])
def test_a_refused_move_is_explained_in_german(tmp_path: Path, typed: str) -> None:
    # The German word is read as the notation's, and the refusal repeats the move in German.
    run = play(["--seats", "human,greedy", "--seed", "3", "--lang", "de"], [typed], tmp=tmp_path)
    out = flat(run.output)
    assert (
        "Dieser Zug ist hier nicht erlaubt: B-10: spiele zuerst eine Karte aus "
        "(auslegen oder abwerfen), nicht ziehen"
    ) in out


@pytest.mark.parametrize("lines", [["1", "1", "1"]])
def test_a_card_game_round_in_german(tmp_path: Path, lines: list[str]) -> None:
    run = play(
        ["--game", "cards", "--seats", "human,greedy", "--seed", "5"],
        ["help", *lines],
        tmp=tmp_path,
        env={"LC_ALL": "de_AT.UTF-8"} | ROOMY,
    )
    out = flat(run.output)
    assert "Keltis – das Kartenspiel" in out
    assert "Wunschsteine auf dem Tisch:" in out
    assert "Reihen mit Schlusskarte (alle Spieler):" in out
    assert flat(DE("help.cards")) in out
    assert "Punktereihe" in out
