"""Strength benchmark: how often each bot wins against others, with 95% (Wilson) intervals.

Lines (each over ``--games`` games; the measured bot's seat rotates over the game seeds):

* ``heuristic-vs-3-random``: heuristic against three random bots (4 players), target ≥ 90%;
* ``hard-vs-3-heuristic``: level *hard* against three heuristic bots (*medium*; 4 players),
  target ≥ 60%;
* ``hard-vs-heuristic``: level *hard* against one heuristic bot (2 players), target ≥ 85%;
* ``hard-vs-medium``: level *hard* against the medium level as it is (its tuned weights), 2
  players, target ≥ 60%: the levels keep their order;
* ``hard-vs-old-hard``: level *hard* against the hard level as it was until 2026-11
  (``OLD_HARD``: 800 playouts, without its time net), 2 players, target ≥ 55%;
* ``learned-vs-hard``, ``learned-vs-3-heuristic``, ``learned-vs-heuristic``: the search with
  the learned judgement of round 0 (``LEARNED``; docs/bots.md) against hard (2 players, target
  ≥ 60%), three heuristic bots (≥ 58%) and one (board ≥ 80%, cards ≥ 90%); the last two are
  also compared with hard's lines on the same seeds, paired by seed
  (``learned-vs-heuristic-minus-hard-vs-heuristic``);
* ``tuned-vs-heuristic``, ``tuned-vs-2-heuristic``, ``tuned-vs-3-heuristic``: the heuristic
  under tuned weights (``--weights FILE``, by default the tuning run of 2026-11-29 for the game
  and number of players: :data:`TUNED_WEIGHTS`) against today's heuristic (its own defaults),
  2 players (target ≥ 58%), 2 of it (3 players, ≥ 40%) and 3 of it (4 players, ≥ 30%);
* ``tuned-hard-vs-hard``, ``tuned-hard-vs-3-heuristic``: the hard level's search with the
  tuned heuristic in its playouts against the same search on the heuristic's own weights
  (``UNTUNED_HARD``, the hard level until 2026-11-30; 2 players, target ≥ 55%) and three
  heuristic bots (4 players, paired by seed with ``hard-vs-3-heuristic``);
* ``kernel-hard-vs-hard``: hard's search with its playouts compiled (``ismcts-kernel``,
  :mod:`keltis.fast.search`) against the same search in Python, each with :data:`MOVE_SECONDS`
  of wall-clock time per move and no playout limit (2 players, target ≥ 55%): what the
  compiled playouts buy at the same time per move; ``kernel-800-vs-hard``: the compiled one
  at hard's own budget (800 playouts) against the same search in Python (``UNTUNED_HARD``),
  on other random numbers (target: not below 45%);
* ``hard-decision-time`` (and ``learned-decision-time``): CPU seconds per decision
  (decisions with more than one legal action) over the lines that search played, for each
  machine that played them: median, 95th percentile and maximum.

``--hero-spec`` plays the hard lines with another bot spec in hard's seat (for tuning). A spec
``seer:ismcts:…`` is an experiment, not a bot: that search is handed the true state — every
hand and the order of the draw pile — instead of deals sampled from its view; with
``seer-hands:ismcts:…`` it sees every hand but not the order of the draw pile (the draw pile
and the cards set aside are shuffled together for each deal). The second bounds from above what
better guesses about the other players' hands (from what they did) could give a search of
that budget. Every
game records the specs that played it, and a line's summary counts only the games of the specs
asked for, so games of an earlier hard level or of a tuning run never mix into it.

Each line's summary also gives the hero's CPU seconds per decision (median, decisions with a
choice). A summary file keeps the last summary of every line: a run of some lines (or other
seeds) leaves the other lines' summaries as they were.

A win counts 1, a victory shared by k players 1/k ("win share"); ``wins_incl_ties`` counts a
shared victory as a win. Every bot gets only its seat's view. Run::

    python benchmarks/strength.py --game board --games 400 --workers 2 --seed 1001
    python benchmarks/strength.py --game board --lines hard-vs-old-hard \
        --hero-spec ismcts:iterations=1600,seconds=none --results /tmp/tuning

``--ray ADDRESS`` plays the games as Ray tasks instead of ``--workers`` processes (``local``: a
private instance on this machine; ``auto``: the running cluster; ``host:port``), connected as
``keltis arena --ray`` is (:mod:`keltis.cluster`); each game is played from its seed alone, so
a line's games are the same on Ray as locally (but for the CPU times, and for a search whose
time net cuts it: the searches of ``LEARNED`` and hard stop at 2.5 s, which a loaded machine
may reach). This script travels to the workers by value (Ray's cloudpickle), and a weights
file the hero spec names (``weights=PATH``) through the object store: a cluster needs keltis
installed, not this folder nor the file::

    python benchmarks/strength.py --game cards --lines learned-vs-hard --games 150 --ray auto \
        --hero-spec learned-search:iterations=800,playout_rounds=1,seconds=2.5,weights=r1.npz

Every finished game is appended at once to ``<results>/strength-<game>-<line>.jsonl`` (one
JSON object per game, with its seed and the machine that played it), so an interrupted run
loses nothing: run the same command again and it plays only the seeds still missing. Results
from several machines can be merged by copying their files together (``--summary-only``
summarises without playing). The summary is printed as one JSON object per line and written to
``<results>/strength-<game>.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from keltis.arena.stats import wilson_interval
from keltis.bots import make_bot
from keltis.bots.ismcts import IsmctsBot, search
from keltis.bots.levels import LEVELS
from keltis.cluster import ClusterError, connect_ray, ordered_tasks, ray_module
from keltis.core.protocol import Game, GameState, View
from keltis.games import GAME_NAMES, get_game
from keltis.learn.selfplay import Shipped, local_spec, ship_weights

RESULTS = Path(__file__).parent / "results"
#: Safety net only: a game reaching it is reported as truncated (none is expected).
TURN_CAP = 3000


#: The search with the learned judgement of round 0 (keltis.learn; docs/bots.md, "Learned
#: judgement") as measured best (half network, half projection; the heuristic's root moves),
#: at hard's budget: an experiment, not a level (it measured weaker than hard).
LEARNED = "learned-search:iterations=800,playout_rounds=1,seconds=2.5"
#: The hard level until 2026-11-30: its playouts on the heuristic's own weights everywhere
#: (now those of the weights set ``hard``). The tuned lines measure against it.
UNTUNED_HARD = "ismcts:iterations=800,playout_rounds=5,seconds=2.5"
#: Seconds per move of the lines that pit hard's search with its playouts compiled
#: (``ismcts-kernel``, :mod:`keltis.fast.search`) against the same search in Python, at the
#: same wall-clock budget per move and no playout limit (:data:`KERNEL_HARD`, :data:`TIMED_HARD`).
MOVE_SECONDS = 0.25
TIMED_HARD = f"ismcts:iterations=none,playout_rounds=5,seconds={MOVE_SECONDS}"
KERNEL_HARD = f"ismcts-kernel:iterations=none,playout_rounds=5,seconds={MOVE_SECONDS}"
#: Hard's own budget (800 playouts, its time net) with the playouts compiled.
KERNEL_800 = "ismcts-kernel:" + UNTUNED_HARD.partition(":")[2]
#: The searches whose lines ``--hero-spec`` replaces (the ones being tuned), and whose CPU
#: time per decision is summarised.
SEARCH_LEVELS = ("hard", LEARNED, TIMED_HARD, KERNEL_HARD, KERNEL_800, UNTUNED_HARD)
#: Their names in the decision-time lines (``<name>-decision-time``).
SEARCH_NAMES = {
    "hard": "hard",
    LEARNED: "learned",
    TIMED_HARD: "hard-timed",
    KERNEL_HARD: "kernel-hard-timed",
    KERNEL_800: "kernel-800",
    UNTUNED_HARD: "untuned-hard",
}


@dataclass(frozen=True)
class Line:
    """One measured pairing."""

    name: str
    hero: str
    opponent: str
    players: int
    target: float
    board_target: float | None = None
    """The board game's target where it differs from ``target``."""

    def specs(self, hero_spec: str | None) -> tuple[str, str]:
        """The hero's and the opponents' bot specs (levels as their specs)."""
        hero = hero_spec if hero_spec is not None and self.hero in SEARCH_LEVELS else self.hero
        return spec_of(hero), spec_of(self.opponent)

    def target_for(self, game: str) -> float:
        """The target of this line in ``game``."""
        return (
            self.board_target
            if game == "board" and self.board_target is not None
            else (self.target)
        )


#: The hard level until 2026-11 (800 playouts; its time net, then 0.85 s, left out so that
#: its games replay the same on any machine).
OLD_HARD = "ismcts:iterations=800,playout_rounds=5,seconds=none"
#: The hard level as it played the lines kept before each game recorded its specs (its time net
#: cut some searches on a busy machine): summarise those with ``--hero-spec`` set to it.
LEGACY_HARD = "ismcts:iterations=800,playout_rounds=5,seconds=0.85"

LINES = (
    Line("heuristic-vs-3-random", "heuristic", "random", 4, 0.90),
    Line("hard-vs-3-heuristic", "hard", "heuristic", 4, 0.60),
    Line("hard-vs-heuristic", "hard", "heuristic", 2, 0.85),
    Line("hard-vs-old-hard", "hard", OLD_HARD, 2, 0.55),
    Line("hard-vs-medium", "hard", "medium", 2, 0.60),
    Line("learned-vs-hard", LEARNED, "hard", 2, 0.60),
    Line("learned-vs-3-heuristic", LEARNED, "heuristic", 4, 0.58),
    Line("learned-vs-heuristic", LEARNED, "heuristic", 2, 0.90, board_target=0.80),
    Line("tuned-vs-heuristic", "tuned", "heuristic", 2, 0.58),
    Line("tuned-vs-2-heuristic", "tuned", "heuristic", 3, 0.40),
    Line("tuned-vs-3-heuristic", "tuned", "heuristic", 4, 0.30),
    Line("tuned-hard-vs-hard", "tuned-hard", UNTUNED_HARD, 2, 0.55),
    Line("tuned-hard-vs-3-heuristic", "tuned-hard", "heuristic", 4, 0.60),
    Line("kernel-hard-vs-hard", KERNEL_HARD, TIMED_HARD, 2, 0.55),
    Line("kernel-800-vs-hard", KERNEL_800, UNTUNED_HARD, 2, 0.45),
)
#: Lines measured on the same seeds with another hero: the difference is paired by seed.
#: The third field, where set, is the second line's hero spec whose games are compared (else
#: the line's own): tuned hard is compared with the search it was tuned from, the hard level
#: until 2026-11-30, whatever the level has become since.
PAIRED: tuple[tuple[str, str, str | None], ...] = (
    ("learned-vs-heuristic", "hard-vs-heuristic", None),
    ("learned-vs-3-heuristic", "hard-vs-3-heuristic", None),
    ("tuned-hard-vs-3-heuristic", "hard-vs-3-heuristic", UNTUNED_HARD),
)
#: The heroes of the tuned lines: their specs, ``{}`` standing for the weights file.
TUNED_HEROES = {
    "tuned": "heuristic:weights={}",
    "tuned-hard": UNTUNED_HARD + ",tuning={}",
}
#: The weights the tuned lines play unless ``--weights`` names others: the tuning runs of
#: 2026-11-29 (``python -m keltis.fast.tune``; docs/bots.md), by game and number of players.
TUNED_WEIGHTS = {
    (game, players): RESULTS / "heuristic-tuning-2026-11-29" / f"{game}-{players}p" / "tuned.json"
    for game in GAME_NAMES
    for players in (2, 3, 4)
}


def resolved_lines(game: str, weights: str | None = None) -> tuple[Line, ...]:
    """:data:`LINES` with the tuned lines' heroes as specs that name the weights file
    (``weights``, else :data:`TUNED_WEIGHTS` for the game and the line's number of players,
    as a path relative to the working folder: the games record it, and a run goes on where
    its specs match)."""

    def path(players: int) -> str:
        return weights if weights is not None else os.path.relpath(TUNED_WEIGHTS[game, players])

    return tuple(
        dataclasses.replace(line, hero=TUNED_HEROES[line.hero].format(path(line.players)))
        if line.hero in TUNED_HEROES
        else line
        for line in LINES
    )


def spec_of(name: str) -> str:
    """A level's bot spec, or ``name`` itself."""
    return LEVELS[name].spec if name in LEVELS else name


#: A hero spec with this prefix sees the true state (see the module docstring).
SEER = "seer:"
#: A hero spec with this prefix sees every hand but not the draw pile's order.
HANDS_SEER = "seer-hands:"


class _TrueState:
    """Stands in for the game in a seer's search: every "deal" is the true state."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def sample_state(self, view: View, rng: random.Random) -> GameState:
        return self.state.clone()


class _TrueHands(_TrueState):
    """Every "deal" is the true state with the unseen cards that lie in no hand (the draw
    pile and, with two players, the cards set aside) shuffled anew."""

    def sample_state(self, view: View, rng: random.Random) -> GameState:
        deal: Any = self.state.clone()
        pool = [*deal.deck, *deal.removed]
        rng.shuffle(pool)
        size = len(deal.deck)
        deal.deck, deal.removed = pool[:size], pool[size:]
        return cast(GameState, deal)


def seer_of(spec: str, state: GameState) -> _TrueState | None:
    """What a hero of this spec is handed instead of the game's sampler (``None``: none)."""
    if spec.startswith(SEER):
        return _TrueState(state)
    if spec.startswith(HANDS_SEER):
        return _TrueHands(state)
    return None


def make_hero(spec: str, seed: int) -> Any:
    """The bot of a hero spec (a seer's search bot without its prefix)."""
    return make_bot(spec.removeprefix(SEER).removeprefix(HANDS_SEER), seed)


def play_one(job: tuple[str, Line, int, str | None]) -> dict[str, Any]:
    """Play one game of a line; the hero sits at seat ``seed % players``."""
    game_name, line, seed, hero_spec = job
    hero, opponent = line.specs(hero_spec)
    game = get_game(game_name)
    state = game.new_game(line.players, seed=seed, variant={"turn_cap": TURN_CAP})
    hero_seat = seed % line.players
    bots = [
        make_hero(hero, seed * 10 + seat)
        if seat == hero_seat
        else make_bot(opponent, seed * 10 + seat)
        for seat in range(line.players)
    ]
    hero_bot = bots[hero_seat]
    sees = seer_of(hero, state)
    seer = hero_bot if sees is not None and isinstance(hero_bot, IsmctsBot) else None
    if sees is not None and seer is None:
        raise ValueError(f"{hero!r}: only a search (ismcts) can be a seer")
    times: list[float] = []
    opponent_times: list[float] = []
    timed_out = 0
    clock = time.process_time
    while not state.over:
        seat = state.current_player
        view = state.view(seat)
        start = clock()
        if seer is not None and seat == hero_seat and len(view.legal) > 1:
            seer.last_result = search(view, seer.config, seer.rng, cast(Game, sees))
            action = seer.last_result.best
        else:
            action = bots[seat].choose(view)
        if seat == hero_seat and len(view.legal) > 1:
            times.append(round(clock() - start, 5))
            result = getattr(hero_bot, "last_result", None)
            timed_out += bool(getattr(result, "timed_out", False))
        elif len(view.legal) > 1 and line.opponent in SEARCH_LEVELS:
            opponent_times.append(round(clock() - start, 5))
        state.apply(action)
    outcome = state.outcome()
    others = [s for p, s in enumerate(outcome.scores) if p != hero_seat]
    won = hero_seat in outcome.winners
    return {
        "line": line.name,
        "seed": seed,
        "hero_spec": hero,
        "opponent_spec": opponent,
        "host": platform.node(),
        "hero_seat": hero_seat,
        "share": 1.0 / len(outcome.winners) if won else 0.0,
        "win": won,
        "margin": outcome.scores[hero_seat] - max(others),
        "score": outcome.scores[hero_seat],
        "scores": list(outcome.scores),
        "end": outcome.end_reason.value,
        "times": times,
        "opponent_times": opponent_times,
        "timed_out": timed_out,
    }


Job = tuple[str, Line, int, str | None]
"""A game to play: the game's name, the line, the seed and the hero spec (``--hero-spec``)."""


def play_shipped(job: tuple[Job, Shipped | None]) -> dict[str, Any]:
    """:func:`play_one` in a Ray task, the hero spec's weights file (``weights=PATH``) read
    from the copy shipped through the object store; the game records the spec as given."""
    (game, line, seed, hero_spec), shipped = job
    if shipped is None or hero_spec is None:
        return play_one((game, line, seed, hero_spec))
    row = play_one((game, line, seed, local_spec(hero_spec, shipped, ray_module().get)))
    row["hero_spec"] = line.specs(hero_spec)[0]
    return row


def line_file(results: Path, game: str, line: Line) -> Path:
    """Where the games of one line are kept."""
    return results / f"strength-{game}-{line.name}.jsonl"


def load_games(path: Path, line: Line, specs: tuple[str, str]) -> dict[int, dict[str, Any]]:
    """The games of ``line`` already played by these (hero, opponent) specs, by seed (a
    damaged last line is ignored). A game without specs was played before they were kept:
    by ``LEGACY_HARD`` in hard's seat."""
    legacy = (LEGACY_HARD if line.hero == "hard" else line.hero, spec_of(line.opponent))
    games: dict[int, dict[str, Any]] = {}
    if not path.exists():
        return games
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
            played = (row["hero_spec"], row["opponent_spec"]) if "hero_spec" in row else legacy
            if played == specs:
                games[int(row["seed"])] = row
        except (ValueError, KeyError, TypeError):
            print(f"{path}:{number}: not a game result, ignored", file=sys.stderr)
    return games


def summarise(
    game: str, line: Line, specs: tuple[str, str], rows: list[dict[str, Any]]
) -> dict[str, Any]:
    """One line's result over the given games."""
    n = len(rows)
    share = sum(r["share"] for r in rows)
    low, high = wilson_interval(share, n)
    ends: dict[str, int] = {}
    for r in rows:
        ends[r["end"]] = ends.get(r["end"], 0) + 1
    return {
        "benchmark": "strength",
        "game": game,
        "line": line.name,
        "hero": line.hero,
        "hero_spec": specs[0],
        "opponent": line.opponent,
        "opponent_spec": specs[1],
        "players": line.players,
        "games": n,
        "seeds": [min(r["seed"] for r in rows), max(r["seed"] for r in rows)] if rows else None,
        "win_share": round(share / n, 4) if n else None,
        "ci95": [round(low, 4), round(high, 4)],
        "wins_incl_ties": sum(1 for r in rows if r["win"]),
        "target": line.target_for(game),
        "meets_target": bool(n) and share / n >= line.target_for(game),
        "ci_above_target": bool(n) and low >= line.target_for(game),
        "chance": round(1 / line.players, 4),
        "mean_margin": round(statistics.fmean(r["margin"] for r in rows), 2) if n else None,
        "mean_score": round(statistics.fmean(r["score"] for r in rows), 2) if n else None,
        "end_reasons": ends,
        "hero_decisions": sum(len(r["times"]) for r in rows),
        "hero_cpu_median_s": (
            round(statistics.median(t for r in rows for t in r["times"]), 4)
            if any(r["times"] for r in rows)
            else None
        ),
        "hero_searches_timed_out": sum(r.get("timed_out", 0) for r in rows),
        "hosts": sorted({r.get("host", "?") for r in rows}),
    }


def timing_summaries(
    game: str, rows: Iterable[tuple[str, list[float]]], level: str = "hard"
) -> list[dict[str, Any]]:
    """Median, 95th percentile and maximum CPU seconds per decision of ``level``, per machine
    (``rows``: each game's machine and the level's times in it)."""
    by_host: dict[str, list[float]] = {}
    for host, times in rows:
        by_host.setdefault(host, []).extend(times)
    summaries = []
    for host, times in sorted(by_host.items()):
        ordered = sorted(times)
        if not ordered:
            continue
        summaries.append(
            {
                "benchmark": "strength",
                "game": game,
                "line": f"{SEARCH_NAMES.get(level, level)}-decision-time",
                "host": host,
                "decisions": len(ordered),
                "median_s": round(statistics.median(ordered), 4),
                "p95_s": round(ordered[int(0.95 * (len(ordered) - 1))], 4),
                "max_s": round(ordered[-1], 4),
                "target_max_s": 1.0,
                "meets_target": ordered[-1] <= 1.0,
                "note": "CPU time of the bot's process per decision with a choice",
            }
        )
    return summaries


def paired_games(
    results: Path,
    game: str,
    lines: dict[str, Line],
    seeds: range,
    by_line: dict[str, dict[int, dict[str, Any]]],
) -> list[tuple[str, str, dict[int, dict[str, Any]], dict[int, dict[str, Any]]]]:
    """The games of each pair of :data:`PAIRED` lines among ``seeds``: the first line's as
    summarised (``by_line``), the second's by the hero spec the pair names."""
    pairs = []
    for first, second, spec in PAIRED:
        theirs = by_line.get(second, {})
        if spec is not None:
            line = lines[second]
            specs = (spec, spec_of(line.opponent))
            played = load_games(line_file(results, game, line), line, specs)
            theirs = {seed: played[seed] for seed in seeds if seed in played}
        pairs.append((first, second, by_line.get(first, {}), theirs))
    return pairs


def paired_summaries(
    game: str,
    pairs: list[tuple[str, str, dict[int, dict[str, Any]], dict[int, dict[str, Any]]]],
) -> list[dict[str, Any]]:
    """For each pair of lines (:func:`paired_games`) played on common seeds: the difference
    of their heroes' win shares, paired by seed, with a 95% interval (normal, from the
    per-seed differences)."""
    out = []
    for first, second, a, b in pairs:
        common = sorted(set(a) & set(b))
        if len(common) < 2:
            continue
        diffs = [a[s]["share"] - b[s]["share"] for s in common]
        mean = statistics.fmean(diffs)
        half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
        out.append(
            {
                "benchmark": "strength",
                "game": game,
                "line": f"{first}-minus-{second}",
                "games": len(common),
                "win_share_difference": round(mean, 4),
                "ci95": [round(mean - half, 4), round(mean + half, 4)],
                "note": "paired by seed: the same deals and seats, the other hero",
            }
        )
    return out


def play_missing(
    game: str,
    lines: list[Line],
    seeds: range,
    results: Path,
    workers: int,
    hero_spec: str | None = None,
    ray: str | None = None,
) -> None:
    """Play every (line, seed) not yet in the results, appending each game as it ends
    (``ray``: as Ray tasks on that cluster, see :func:`keltis.cluster.connect_ray`; a
    connection this process already has is used and left open)."""
    jobs: list[Job] = []
    for line in lines:
        done = load_games(line_file(results, game, line), line, line.specs(hero_spec))
        jobs += [(game, line, seed, hero_spec) for seed in seeds if seed not in done]
    # Interleave the lines, so that a run cut short leaves every line partly measured.
    jobs.sort(key=lambda job: (job[2], job[1].name))
    if not jobs:
        return
    own_ray = ray is not None and connect_ray(ray)  # before anything is written
    results.mkdir(parents=True, exist_ok=True)
    handles = {
        line.name: line_file(results, game, line).open("a", encoding="utf-8") for line in lines
    }
    pool = multiprocessing.Pool(workers) if workers > 1 and ray is None else None
    start = time.perf_counter()
    outcomes: Iterable[dict[str, Any]] = ()
    try:
        if ray is not None:
            # by value: a cluster's workers have keltis, not this script
            ray_module().cloudpickle.register_pickle_by_value(sys.modules[__name__])
            shipped = ship_weights(hero_spec, ray_module().put) if hero_spec else None
            outcomes = ordered_tasks(play_shipped, [(job, shipped) for job in jobs])
        elif pool is not None:
            outcomes = pool.imap_unordered(play_one, jobs)
        else:
            outcomes = map(play_one, jobs)
        for count, row in enumerate(outcomes, 1):
            handle = handles[row["line"]]
            handle.write(json.dumps(row) + "\n")
            handle.flush()
            elapsed = time.perf_counter() - start
            print(
                f"\r{count}/{len(jobs)} games, {elapsed:.0f} s, "
                f"~{elapsed / count * (len(jobs) - count):.0f} s left ",
                end="",
                file=sys.stderr,
                flush=True,
            )
        print(file=sys.stderr)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        close = getattr(outcomes, "close", None)
        if ray is not None and close is not None:
            close()  # cancels the Ray tasks still in flight
        if own_ray:
            ray_module().shutdown()
        for handle in handles.values():
            handle.close()


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark from the command line."""
    for name in GAME_NAMES:
        get_game(name).heuristics()  # loaded before the workers start
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("board", "cards"), default="board")
    parser.add_argument("--games", type=int, default=400, help="games per line (default 400)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="play as Ray tasks instead: local, auto, host:port or ray://host:port",
    )
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    parser.add_argument(
        "--lines",
        default=",".join(line.name for line in LINES),
        help="comma-separated line names (default: all)",
    )
    parser.add_argument(
        "--results", default=str(RESULTS), help="folder of the result files (default results/)"
    )
    parser.add_argument(
        "--hero-spec",
        default=None,
        help="play the hard lines with this bot spec in hard's seat (tuning; default: the "
        "hard level)",
    )
    parser.add_argument(
        "--weights",
        default=None,
        help="the weights file of the tuned lines (default: the game's tuning run of 2026-11-29)",
    )
    parser.add_argument(
        "--summary-only", action="store_true", help="summarise the games played; play none"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    lines = resolved_lines(args.game, args.weights)
    known = {line.name: line for line in lines}
    wanted = []
    for name in (name.strip() for name in args.lines.split(",")):
        if name not in known:
            parser.error(f"unknown line {name!r}: choose from {', '.join(known)}")
        wanted.append(known[name])
    if args.hero_spec is not None:
        try:
            make_hero(args.hero_spec, 0)
        except ValueError as error:
            parser.error(f"--hero-spec: {error}")
    results = Path(args.results)
    seeds = range(args.seed, args.seed + args.games)
    if not args.summary_only:
        try:
            play_missing(args.game, wanted, seeds, results, args.workers, args.hero_spec, args.ray)
        except ClusterError as error:
            print(f"strength.py: {error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("\ninterrupted: the games played are kept; run again to go on", file=sys.stderr)
            return 130
    records: list[dict[str, Any]] = []
    level_times: dict[str, list[tuple[str, list[float]]]] = {lv: [] for lv in SEARCH_LEVELS}
    by_line: dict[str, dict[int, dict[str, Any]]] = {}
    for line in lines:  # every line with games, so the summary file stays whole
        specs = line.specs(args.hero_spec)
        played = load_games(line_file(results, args.game, line), line, specs)
        rows = [played[seed] for seed in seeds if seed in played]
        if not rows and line not in wanted:
            continue
        by_line[line.name] = {int(r["seed"]): r for r in rows}
        for r in rows:
            host = r.get("host", "?")
            if line.hero in level_times:
                level_times[line.hero].append((host, r["times"]))
            if line.opponent in level_times:
                level_times[line.opponent].append((host, r.get("opponent_times", [])))
        records.append(summarise(args.game, line, specs, rows))
    for level, times in level_times.items():
        records += timing_summaries(args.game, times, level)
    records += paired_summaries(args.game, paired_games(results, args.game, known, seeds, by_line))
    for record in records:
        print(json.dumps(record), flush=True)
    write_summary(results / f"strength-{args.game}.json", args.game, records, args.games, args.seed)
    return 0


def write_summary(
    path: Path, game: str, records: list[dict[str, Any]], games: int, first_seed: int
) -> None:
    """Write the summary file: ``records``, then the last records of every line not
    summarised now, kept from the file as it was (a run of some lines, or of other seeds,
    leaves the others' results; each line's record says its seeds)."""
    kept: list[dict[str, Any]] = []
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            old = {}
        now = {record["line"] for record in records}
        kept = [
            record
            for record in (old.get("lines", []) if isinstance(old, dict) else [])
            if isinstance(record, dict) and record.get("line") not in now
        ]
    document = {
        "benchmark": "strength",
        "game": game,
        "games_per_line": games,
        "first_seed": first_seed,
        "note": "the lines of this run, then those kept from earlier runs: see each one's seeds",
        "python": platform.python_version(),
        "lines": records + kept,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
