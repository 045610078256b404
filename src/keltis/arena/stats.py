"""Tournament statistics: win rates with Wilson intervals, scores, margins, openskill ratings.

Conventions (see docs/arena.md):

- A bot's *games* are counted per seat: a bot seated twice in one game plays two seat-games.
- Ties share the victory (B-24, C-19): each of ``k`` tied winners gets a win share of ``1/k``.
  The win rate is the sum of shares over seat-games; ``outright`` and ``shared`` count the
  seat-games won alone and won in a tie.
- The 95% interval of the win rate is Wilson's score interval.
- The margin of a seat is its score minus the best score of the other seats (positive: won
  by that much; negative: that far behind the best opponent).
- Ratings: openskill's Plackett-Luce model, one update per game in game order (so the order
  in which workers finish does not matter), each seat ranked by its score (equal scores tie).
  A bot seated more than once in a game gets the mean of its seats' updated ratings.
  ``ordinal`` = mu - 3·sigma, the conservative estimate used to rank the bots.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (``successes`` may be fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # The interval always holds p; min/max only undo rounding at p = 0 or 1.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def compute_ratings(
    names: Sequence[str], games: Sequence[dict[str, Any]]
) -> dict[str, dict[str, float]]:
    """openskill Plackett-Luce ratings after ``games`` (each with ``seats`` and ``scores``),
    applied in the order given. Returns ``{name: {"mu", "sigma", "ordinal"}}``."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    for game in games:
        seats: list[str] = game["seats"]
        scores: list[int] = game["scores"]
        teams = [[ratings[name]] for name in seats]
        updated = model.rate(teams, scores=[float(s) for s in scores])
        by_name: dict[str, list[tuple[float, float]]] = {}
        for name, team in zip(seats, updated, strict=True):
            by_name.setdefault(name, []).append((team[0].mu, team[0].sigma))
        for name, values in by_name.items():
            mu = statistics.fmean(v[0] for v in values)
            sigma = statistics.fmean(v[1] for v in values)
            ratings[name] = model.rating(mu=mu, sigma=sigma, name=name)
    return {
        name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma}
        for name, r in ratings.items()
    }


def bot_stats(
    names: Sequence[str], players: int, games: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Per bot (in the order of ``names``): counts, win rate and interval, scores, margins,
    rating, and the same per seat. ``games`` as for :func:`compute_ratings`, plus
    ``winners``."""
    seat_games: dict[str, list[tuple[int, float, int, int]]] = {n: [] for n in names}
    played: dict[str, set[int]] = {n: set() for n in names}
    for g, game in enumerate(games):
        scores: list[int] = game["scores"]
        winners: list[int] = game["winners"]
        for seat, name in enumerate(game["seats"]):
            share = 1.0 / len(winners) if seat in winners else 0.0
            others = [s for i, s in enumerate(scores) if i != seat]
            margin = scores[seat] - max(others)
            seat_games[name].append((seat, share, scores[seat], margin))
            played[name].add(g)
    ratings = compute_ratings(names, games)
    out = []
    for name in names:
        rows = seat_games[name]
        entry = _summary(rows)
        entry = {"name": name, "games": len(played[name]), **entry}
        entry["rating"] = ratings[name]
        entry["by_seat"] = []
        for seat in range(players):
            at_seat = _summary([r for r in rows if r[0] == seat])
            del at_seat["scores"]
            entry["by_seat"].append({"seat": seat, **at_seat})
        out.append(entry)
    order = sorted(out, key=lambda e: -e["rating"]["ordinal"])
    for rank, entry in enumerate(order, start=1):
        entry["rank"] = rank
    return out


def _summary(rows: Sequence[tuple[int, float, int, int]]) -> dict[str, Any]:
    n = len(rows)
    wins = sum(r[1] for r in rows)
    scores = [r[2] for r in rows]
    margins = [r[3] for r in rows]
    low, high = wilson_interval(wins, n)
    return {
        "seat_games": n,
        "wins": round(wins, 6),
        "outright_wins": sum(1 for r in rows if r[1] == 1.0),
        "shared_wins": sum(1 for r in rows if 0.0 < r[1] < 1.0),
        "win_rate": wins / n if n else None,
        "win_rate_ci95": [low, high] if n else None,
        "mean_score": statistics.fmean(scores) if n else None,
        "score_sd": statistics.stdev(scores) if n > 1 else None,
        "mean_margin": statistics.fmean(margins) if n else None,
        "scores": scores,
    }


def pairwise(names: Sequence[str], games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Head to head: for each ordered pair of bots that met, in how many seat pairings the
    first scored more than the second (ties count half) — ``{a: {b: {"meetings", "score"}}}``
    with ``score`` in 0…1."""
    tally: dict[tuple[str, str], list[float]] = {}
    for game in games:
        seats: list[str] = game["seats"]
        scores: list[int] = game["scores"]
        for i, a in enumerate(seats):
            for j, b in enumerate(seats):
                if i == j or a == b:
                    continue
                points = 1.0 if scores[i] > scores[j] else 0.5 if scores[i] == scores[j] else 0.0
                entry = tally.setdefault((a, b), [0, 0.0])
                entry[0] += 1
                entry[1] += points
    return {
        a: {
            b: {"meetings": int(tally[a, b][0]), "score": tally[a, b][1] / tally[a, b][0]}
            for b in names
            if (a, b) in tally
        }
        for a in names
    }
