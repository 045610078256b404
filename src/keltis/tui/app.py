"""``keltis play``: a game in the terminal against bots or hot-seat.

The screen is built only from the view of the seat to move (or of the human seat when a bot
moves), so it never shows a card the human may not see.
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import datetime
from pathlib import Path
from typing import TextIO

from keltis.board.layout import Layout
from keltis.bots import BOTS, make_bot
from keltis.bots.base import Bot
from keltis.core.actions import parse_action
from keltis.core.errors import KeltisError
from keltis.core.protocol import GameState
from keltis.record import GameRecord, PlayerInfo


def default_record_path(game: str) -> Path:
    """``$XDG_DATA_HOME/keltis/games/<game>-<time>.json`` (``~/.local/share`` by default)."""
    import os

    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return base / "keltis" / "games" / f"{game}-{stamp}.json"


def seats_from_args(args: argparse.Namespace) -> list[str]:
    """Seat kinds (``human`` or a bot name) from the command line options."""
    if args.seats:
        seats = [s.strip().lower() for s in args.seats.split(",") if s.strip()]
    elif args.hotseat:
        seats = ["human"] * args.players
    else:
        seats = ["human"] + [args.bot] * (args.players - 1)
    if not 2 <= len(seats) <= 4:
        raise ValueError(f"Keltis is for 2-4 players, not {len(seats)}")
    for seat in seats:
        if seat != "human" and seat not in BOTS:
            raise ValueError(f"unknown seat {seat!r}: human or one of {', '.join(BOTS)}")
    return seats


def run_play(
    args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None
) -> int:
    """Run a terminal game from parsed ``keltis play`` options; returns the exit status."""
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    if args.list_bots:
        for name, factory in BOTS.items():
            out.write(f"{name:10} {factory(None).description}\n")
        return 0
    if args.resume:
        record, _ = GameRecord.load(args.resume)
        state = record.replay()
        save_to = Path(args.save or args.resume)
    else:
        seats = seats_from_args(args)
        names = []
        humans = 0
        for kind in seats:
            if kind == "human":
                humans += 1
                names.append(args.name if (args.name and humans == 1) else f"Player {humans}")
            else:
                names.append(f"{kind.capitalize()} bot {len(names)}")
        if humans == 1 and not args.name:
            names[seats.index("human")] = "You"
        layout = Layout.load(args.layout).to_json() if args.layout else None
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        record = GameRecord.start(
            args.game,
            [PlayerInfo(n, k) for n, k in zip(names, seats, strict=True)],
            seed=seed,
            variant={"no_take_back": True} if args.no_take_back else {},
            layout=layout,
        )
        state = record.new_state()
        save_to = Path(args.save) if args.save else default_record_path(args.game)
    bots = {
        seat: make_bot(p.kind, seat + (record.seed or 0))
        for seat, p in enumerate(record.players)
        if p.kind != "human"
    }
    try:
        _loop(record, state, bots, stdin, out)
    except (KeyboardInterrupt, EOFError):
        out.write("\nStopped.\n")
    finally:
        record.finish(state)
        record.save(save_to)
        out.write(f"Record saved to {save_to} (keltis play --resume {save_to} to go on).\n")
    return 0


def _loop(
    record: GameRecord,
    state: GameState,
    bots: dict[int, Bot],
    stdin: TextIO,
    out: TextIO,
) -> None:
    while not state.over:
        seat = state.current_player
        bot = bots.get(seat)
        if bot is not None:
            action = bot.choose(state.view(seat))
            out.write(f"{record.players[seat].name}: {action}\n")
            state.apply(action)
            continue
        view = state.view(seat)
        out.write(f"\n{record.players[seat].name} ({view.phase}); hand: ")
        out.write(" ".join(str(a) for a in view.legal) + "\n")
        for i, action in enumerate(view.legal, start=1):
            out.write(f"  {i:2d}) {action}\n")
        while True:
            out.write("> ")
            out.flush()
            line = stdin.readline()
            if not line:
                raise EOFError
            text = line.strip()
            try:
                if text.isdigit() and 1 <= int(text) <= len(view.legal):
                    chosen = view.legal[int(text) - 1]
                else:
                    chosen = parse_action(text)
                state.apply(chosen)
                break
            except KeltisError as error:
                out.write(f"{error}\n")
    outcome = state.outcome()
    out.write(f"Game over: {outcome.end_reason.value}; scores {list(outcome.scores)}\n")
