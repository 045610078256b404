"""Tournament reports: ``results.json``, a table for the terminal and ``report.png``."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path
from typing import Any, Final

from keltis.arena.run import REPORT_FILE, RESULTS_FILE, RunSummary, game_results, write_atomic
from keltis.arena.stats import bot_stats, pairwise
from keltis.arena.tournament import Tournament
from keltis.games import get_game
from keltis.record import GameRecord

RESULTS_FORMAT: Final = "keltis-arena-results"
RESULTS_VERSION: Final = 1


def build_results(
    tournament: Tournament, records: dict[int, GameRecord], *, wall_seconds: float | None = None
) -> dict[str, Any]:
    """The results of the games played so far (all of them, in game order), JSON-ready.

    Everything except ``timing`` depends only on the records, so the same tournament gives
    the same results however (and in how many sittings) it was played.
    """
    games = game_results(records)
    names = [b.name for b in tournament.bots]
    specs = {b.name: b.text for b in tournament.bots}
    bots = bot_stats(names, tournament.players, games)
    for entry in bots:
        entry["spec"] = specs[entry["name"]]
    think: dict[str, float] = dict.fromkeys(names, 0.0)
    decisions: dict[str, int] = dict.fromkeys(names, 0)
    for index in sorted(records):
        record = records[index]
        arena = record.meta.get("arena", {})
        for seat, player in enumerate(record.players):
            think[player.name] += float(arena.get("think_seconds", [0.0] * 4)[seat])
            decisions[player.name] += int(arena.get("decisions", [0] * 4)[seat])
    timing: dict[str, Any] = {
        "seconds_per_decision": {
            n: (think[n] / decisions[n] if decisions[n] else None) for n in names
        },
    }
    if wall_seconds is not None:
        timing["last_run_wall_seconds"] = round(wall_seconds, 3)
    return {
        "format": RESULTS_FORMAT,
        "version": RESULTS_VERSION,
        "tournament": tournament.to_json(),
        "games_played": len(games),
        "complete": len(games) == tournament.games,
        "end_reasons": dict(sorted(Counter(g["end_reason"] for g in games).items())),
        "mean_actions": statistics.fmean(g["actions"] for g in games) if games else None,
        "bots": bots,
        "pairwise": pairwise(names, games),
        "timing": timing,
    }


def save_results(out: Path, results: dict[str, Any]) -> Path:
    """Write ``results.json`` into ``out``."""
    path = out / RESULTS_FILE
    write_atomic(path, json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    return path


def write_report(summary: RunSummary, *, plot: bool = True) -> dict[str, Any]:
    """Build the results of a run's directory and write ``results.json`` and, if ``plot`` and
    a game was played, ``report.png``; returns the results."""
    results = build_results(summary.tournament, summary.records, wall_seconds=summary.wall_seconds)
    save_results(summary.out, results)
    if plot and summary.done:
        save_plot(results, summary.out / REPORT_FILE)
    return results


def _title(results: dict[str, Any]) -> str:
    t = results["tournament"]
    return (
        f"{get_game(t['game']).title}: {t['players']} seats, "
        f"{results['games_played']}/{t['games']} games, seed {t['seed']}"
    )


def _ranked(results: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(results["bots"], key=lambda b: b["rank"])


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{1000 * seconds:.3g}"


def _num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def print_table(results: dict[str, Any], console: Any = None) -> None:
    """Print the results as tables (bots by rank; head to head for three bots or more)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    table = Table(title=_title(results), box=box.SIMPLE_HEAD)
    ranked = _ranked(results)
    doubled = any(b["seat_games"] != b["games"] for b in ranked)
    headers = ["#", "bot", "games", "seats", "win rate", "95% CI", "score", "margin", "μ ± σ"]
    if not doubled:
        headers.remove("seats")
    for header in [*headers, "ord", "ms/move"]:
        table.add_column(header, justify="left" if header == "bot" else "right", no_wrap=True)
    for bot in ranked:
        ci = bot["win_rate_ci95"]
        rating = bot["rating"]
        counts = [str(bot["games"]), str(bot["seat_games"])] if doubled else [str(bot["games"])]
        table.add_row(
            str(bot["rank"]),
            bot["name"],
            *counts,
            "-" if bot["win_rate"] is None else f"{100 * bot['win_rate']:.1f}%",
            "-" if ci is None else f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}%",
            _num(bot["mean_score"]),
            _num(bot["mean_margin"]),
            f"{rating['mu']:.1f} ± {rating['sigma']:.1f}",
            _num(rating["ordinal"]),
            _ms(results["timing"]["seconds_per_decision"].get(bot["name"])),
        )
    console.print(table)
    ends = ", ".join(f"{k} {v}" for k, v in results["end_reasons"].items())
    if ends:
        seats = " Win rates are per seat (a bot may hold several seats)." if doubled else ""
        console.print(f"Games ended by: {ends}. Ties share a win (1/k each).{seats}")
    names = [b["name"] for b in _ranked(results)]
    if len(names) >= 3:
        head = Table(title="head to head", box=box.SIMPLE_HEAD)
        head.add_column("")
        for name in names:
            head.add_column(name, justify="right")
        for a in names:
            row = results["pairwise"].get(a, {})
            head.add_row(
                a, *("" if b not in row else f"{100 * row[b]['score']:.0f}%" for b in names)
            )
        console.print(head)
        console.print("(share of meetings in which the row bot outscored the column bot; ties ½)")


def save_plot(results: dict[str, Any], path: Path) -> Path:
    """Draw ``report.png``: ratings (μ ± 2σ), win rates (95% CI) and score distributions."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    bots = list(reversed(_ranked(results)))
    names = [b["name"] for b in bots]
    y = list(range(len(bots)))
    height = 1.2 + 0.45 * len(bots)
    figure = Figure(figsize=(13, max(3.0, height)), layout="constrained")
    FigureCanvasAgg(figure)
    ratings, wins, scores = figure.subplots(1, 3, sharey=True)

    mus = [b["rating"]["mu"] for b in bots]
    twice = [2 * b["rating"]["sigma"] for b in bots]
    ratings.errorbar(mus, y, xerr=twice, fmt="o", capsize=4, color="tab:blue")
    ratings.plot([b["rating"]["ordinal"] for b in bots], y, "|", color="tab:red", ms=12)
    ratings.set_title("openskill rating: μ ± 2σ (red: μ − 3σ)")

    rates = [100 * (b["win_rate"] or 0.0) for b in bots]
    lows = [
        r - 100 * (b["win_rate_ci95"] or [0.0, 0.0])[0] for r, b in zip(rates, bots, strict=True)
    ]
    highs = [
        100 * (b["win_rate_ci95"] or [0.0, 0.0])[1] - r for r, b in zip(rates, bots, strict=True)
    ]
    wins.errorbar(rates, y, xerr=[lows, highs], fmt="o", capsize=4, color="tab:green")
    players = results["tournament"]["players"]
    wins.axvline(100 / players, color="grey", linestyle="--", linewidth=1)
    wins.set_xlim(0, 100)
    wins.set_title(f"win rate % with 95% CI (dashed: 1/{players})")

    data = [b["scores"] or [0] for b in bots]
    scores.boxplot(data, positions=y, orientation="horizontal", widths=0.6)
    scores.set_title("scores per game")
    ratings.set_yticks(y, names)
    ratings.set_ylim(-0.6, len(bots) - 0.4)

    figure.suptitle(_title(results))
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp.png")
    figure.savefig(temporary, dpi=100)
    temporary.replace(path)
    return path
