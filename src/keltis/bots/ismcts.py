"""Information-set Monte Carlo tree search (single-observer ISMCTS), for both games.

The search sees only the searching player's view. Each *deal* samples the cards that player
cannot see, consistently with the view (``Game.sample_state``: own hand, every laid and
discarded card, the size of every hidden zone). The root of the tree is the player's
information set; its children are the heuristic's best ``width`` actions, and every action
still in the race is played on a copy of the same deal, with the same random numbers, so
actions are compared on equal luck. Below each root action, an ISMCTS tree of ``tree_depth``
decisions (UCB1 over the actions available in each deal, with the availability counts of
Cowling, Powley and Whitehouse, 2012, and progressive widening in the heuristic's order)
chooses the following moves of every player; then a playout follows the playout policy (the
heuristic or uniform random) for ``playout_rounds`` rounds and the position is judged by the
heuristic's projection of every player's final score (or by the result, if the game ended).
A decision on the path is credited with the reward of the player who took it: a logistic
function of the score margin over the best other player, mixed with the win for a finished
game. Root actions that trail the best by ``prune_z`` paired standard errors are dropped;
the search ends when one is left or the budget is spent. With ``infer_temperature`` (off by
default) each deal is drawn from several samples in proportion to how likely the other
players' recent moves were with the hands it deals them (the game's rewinder undoes the moves,
the heuristic scores each decision); docs/bots.md measures what that gives.

The search uses only the view, ``Game.sample_state``, the state protocol and the game's
heuristic (``Game.heuristics()``, ``keltis.core.policy``), so it works for any game that
implements them.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from keltis.bots.base import Bot
from keltis.bots.weights import check_weights, heuristics
from keltis.core.actions import Action
from keltis.core.policy import GamePolicies, Policy, Scorer, random_policy
from keltis.core.protocol import Game, GameState, View
from keltis.games import get_game


@dataclass(frozen=True)
class SearchConfig:
    """How hard and how the search works.

    ``iterations`` (playouts) and ``seconds`` are budgets: the search stops at whichever comes
    first (``None``: no limit of that kind; at least one must be set). With only an iteration
    budget the search is reproducible from the bot's seed on any machine.
    """

    iterations: int | None = 800
    seconds: float | None = None
    playout: str = "heuristic"
    """``heuristic`` or ``random``."""
    playout_rounds: int | None = 5
    """Cut playouts off after this many rounds (one turn of every player) and judge the
    position by the heuristic's projection of the final scores (``None``: play to the end)."""
    width: int | None = 6
    """Search only this many of the heuristic's best actions at the root (``None``: all)."""
    tree_depth: int = 0
    """Decisions below each root action chosen by the tree (UCB1 over the actions available in
    each deal); deeper decisions follow the playout policy. 0: the tree is the root alone,
    which measured strongest at these budgets (docs/bots.md)."""
    exploration: float = 0.5
    """UCB1 constant (rewards lie in 0…1)."""
    widening: float = 0.25
    """Progressive widening below the root: a node seen n times may have
    ``1 + widening * sqrt(n)`` children, added in the heuristic's order."""
    margin_scale: float = 8.0
    """Points of margin that count as clearly ahead (logistic scale of the reward)."""
    win_weight: float = 0.5
    """Share of the reward of a finished playout given by the win (the rest by the margin)."""
    prune_z: float = 2.0
    """Drop a root action once it trails the best by this many standard errors (paired)."""
    min_rounds: int = 8
    """Deals every root action sees before any is dropped."""
    race: bool = True
    """Drop clearly worse root actions and stop once one is left (``False``: spend the
    whole budget on every root action, for estimates of each — hints do this)."""
    infer_temperature: float | None = None
    """Weigh the deals by how well they explain the other players' recent moves: each of
    their decisions among the view's recent moves is replayed on the deal's hands (undone
    move by move, where the game can), and its likelihood is the heuristic's softmax over the
    legal actions at this temperature (in the heuristic's points; ``None``: every deal
    counts the same, as sampled)."""
    infer_samples: int = 8
    """With ``infer_temperature``: deals sampled for each one searched, which is drawn from
    them in proportion to their likelihood."""
    infer_floor: float = 0.05
    """With ``infer_temperature``: the share of each likelihood that is uniform over the legal
    actions, so that a player who does not play like the heuristic rules no deal out."""
    tuning: str | None = None
    """The heuristic's weights for its playouts, projection and ranking: a weights file or a
    shipped set such as ``medium`` (:mod:`keltis.bots.weights`; ``None``: the heuristic's own
    defaults). Named apart from ``weights``, which a learned search's network takes."""

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a search needs a budget: iterations, seconds or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be positive, not {self.seconds}")
        if self.playout not in ("heuristic", "random"):
            raise ValueError(f"playout must be 'heuristic' or 'random', not {self.playout!r}")
        if self.playout_rounds is not None and self.playout_rounds < 0:
            raise ValueError(f"playout_rounds must be 0 or more, not {self.playout_rounds}")
        if self.width is not None and self.width < 1:
            raise ValueError(f"width must be at least 1, not {self.width}")
        if self.tree_depth < 0:
            raise ValueError(f"tree_depth must be 0 or more, not {self.tree_depth}")
        if self.exploration < 0:
            raise ValueError("exploration must not be negative")
        if self.widening < 0:
            raise ValueError("widening must not be negative")
        if not self.margin_scale > 0:
            raise ValueError("margin_scale must be positive")
        if not 0.0 <= self.win_weight <= 1.0:
            raise ValueError("win_weight must lie in 0…1")
        if self.prune_z < 0:
            raise ValueError("prune_z must not be negative")
        if self.min_rounds < 1:
            raise ValueError("min_rounds must be at least 1")
        if self.infer_temperature is not None and not self.infer_temperature > 0:
            raise ValueError("infer_temperature must be positive")
        if self.infer_samples < 1:
            raise ValueError("infer_samples must be at least 1")
        if not 0.0 <= self.infer_floor <= 1.0:
            raise ValueError("infer_floor must lie in 0…1")
        if self.tuning is not None:
            check_weights(self.tuning)  # a bad file: its clear error now


class Node:
    """A decision in a shared tree: statistics of the action that led here, from the
    point of view of the player who took it."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


@dataclass
class ActionStats:
    """What the search found out about one action at the root."""

    action: Action
    visits: int
    """Playouts that began with this action."""
    win: float
    """Estimated chance to win (share of playouts won; a cut-off playout counts the
    logistic estimate of its projected margin)."""
    margin: float
    """Mean score margin over the best other player, in points (projected for cut-off
    playouts)."""
    value: float
    """Mean reward (what the search maximises)."""
    heuristic: float
    """The heuristic's own score of the action."""
    dropped: bool
    """Whether the search stopped looking at it because it was clearly worse."""
    wins: tuple[float, ...] = ()
    """The win of each deal it was tried on, in the order of the deals: every action still in
    the race sees the same deals, so two actions' wins pair up (a review's paired error)."""


@dataclass
class SearchResult:
    """The root statistics of a finished search, best action first."""

    stats: list[ActionStats]
    iterations: int
    deals: int
    seconds: float
    timed_out: bool = False
    """Whether the time budget (``seconds``) ended the search before its other limits."""

    @property
    def best(self) -> Action:
        """The action the search recommends."""
        return self.stats[0].action


class HeuristicJudge:
    """Turns a finished or cut-off state into (reward, win, margin) per player: a cut-off
    one by the heuristic's projection of the final scores."""

    def __init__(self, config: SearchConfig, policies: GamePolicies) -> None:
        self.weight = config.win_weight
        self.scale = config.margin_scale
        self.projection = policies.projection

    def soft(self, margin: float) -> float:
        """The logistic estimate of winning with ``margin`` points over the best other."""
        return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -margin / self.scale))))

    def reward(self, win: float, margin: float) -> float:
        """What the search maximises: ``win_weight`` × win + the rest × :meth:`soft`."""
        return self.weight * win + (1.0 - self.weight) * self.soft(margin)

    def __call__(self, state: GameState) -> tuple[list[float], list[float], list[float]]:
        if state.over:
            return self.of_scores([float(s) for s in state.outcome().scores], True)
        return self.of_scores(self.projection(state), False)

    def of_scores(
        self, scores: Sequence[float], finished: bool
    ) -> tuple[list[float], list[float], list[float]]:
        """(reward, win, margin) per player from every player's final score (``finished``)
        or projected one; the best final score wins, shared by a tie (B-24, C-19)."""
        best, second = sorted(scores, reverse=True)[:2]
        # each margin is over the best other player: the second best for the best one
        margins = [s - (second if s == best else best) for s in scores]
        if not finished:
            soft = [self.soft(m) for m in margins]
            return soft, soft, margins
        share = 1.0 / sum(1 for s in scores if s == best)
        wins = [share if s == best else 0.0 for s in scores]
        return [self.reward(w, m) for w, m in zip(wins, margins, strict=True)], wins, margins


class _Arm:
    """One root action: its subtree and the reward of each deal it was tried on."""

    __slots__ = ("action", "alive", "heuristic", "margin", "node", "rewards", "win", "wins")

    def __init__(self, action: Action, heuristic: float) -> None:
        self.action = action
        self.heuristic = heuristic
        self.node = Node()
        self.rewards: list[float] = []
        self.wins: list[float] = []
        self.win = 0.0
        self.margin = 0.0
        self.alive = True


#: Judges a finished or cut-off state: (reward, win, margin) per player.
Judgement = Callable[[GameState], tuple[list[float], list[float], list[float]]]
#: Rates the root's legal actions (higher is better) from the view and a sampled deal.
Ranking = Callable[[View, GameState], dict[Action, float]]
#: Plays a search's playouts elsewhere than in Python (``keltis.fast.search`` plays them in
#: the kernels): from a deal, each of the root actions made on a copy of it, played on by the
#: heuristic from one random seed for the cut (``None``: to the end); per action, every
#: player's final score (where the game ended) or projected one, and whether it ended.
Playouts = Callable[
    [GameState, Sequence[Action], int, int | None], Sequence[tuple[Sequence[float], bool]]
]


#: What a search needs for its playouts to be played elsewhere (``search``'s ``playouts``).
PLAYED_ELSEWHERE = (
    "playouts played elsewhere need tree_depth=0, playout='heuristic' and the heuristic's judgement"
)


def playable_elsewhere(config: SearchConfig) -> bool:
    """Whether the playouts of ``config``'s search can be played elsewhere: its tree is the
    root alone and its playouts are the heuristic's."""
    return not config.tree_depth and config.playout == "heuristic"


def search(
    view: View,
    config: SearchConfig,
    rng: random.Random,
    game: Game | None = None,
    *,
    judge: Judgement | None = None,
    rank: Ranking | None = None,
    include: tuple[Action, ...] = (),
    playouts: Playouts | None = None,
) -> SearchResult:
    """Search from ``view`` (the searching player's own view, with legal actions) and return
    the statistics of every root action looked at, the recommended one first.

    Each *deal* samples the hidden cards once; every root action still in the race is then
    tried on a copy of that same deal (so actions are compared on equal luck), walking its own
    ISMCTS subtree for ``tree_depth`` decisions and then playing out. After ``min_rounds``
    deals, an action that trails the best by ``prune_z`` paired standard errors is dropped;
    the search ends when the budget is spent or one action is left.

    ``judge`` replaces the heuristic's judgement of the playouts' last states and ``rank``
    the heuristic's choice of the root actions (a learned judgement does both:
    ``keltis.learn.search``). The legal actions in ``include`` are searched whatever their
    rank, beside the ``width`` best (a review searches the move that was played).
    ``playouts`` plays the playouts elsewhere (compiled: ``keltis.fast.search``), judged by
    the heuristic; it needs the tree to be the root alone and the heuristic's playouts.
    """
    if view.viewer is None or not view.legal:
        raise ValueError("search needs the view of the player to move (with legal actions)")
    if playouts is not None and (judge is not None or not playable_elsewhere(config)):
        raise ValueError(PLAYED_ELSEWHERE)
    rules = get_game(view.game)
    game = game or rules  # a stand-in may deal the hidden cards (benchmarks' all-seeing seer)
    policies = heuristics(view.game, config.tuning, view.num_players)
    playout: Policy = policies.policy if config.playout == "heuristic" else random_policy
    judge = judge or HeuristicJudge(config, policies)
    me = view.viewer
    clock = time.perf_counter
    start = clock()

    probe = game.sample_state(view, rng)
    scored = {a: s for s, a in policies.scores(probe)}
    order = rank(view, probe) if rank is not None else scored
    arms = _ranked_arms(view, config, order, scored, include)
    deadline = start + config.seconds if config.seconds is not None else math.inf
    limit = config.iterations if config.iterations is not None else 2**62
    rounds_per_player = config.playout_rounds
    cut = None if rounds_per_player is None else rounds_per_player * view.num_players
    walk = _Walk(config, policies.policy, policies.scores, rng)
    try_deal = _trier(judge, walk, playout, cut, me, playouts)
    sample = inferring_sampler(view, config, policies, game)
    iterations = 0
    deals = 0
    alive = arms
    race = config.race
    timed_out = False
    while len(alive) > 1 or deals == 0 or not race:
        if iterations + len(alive) > limit and deals > 0:
            break
        now = clock()
        if deals > 0 and now + (now - start) / deals > deadline:
            timed_out = True
            break  # the next deal would likely end after the deadline
        deals += 1
        deal = sample(view, rng) if sample is not None else game.sample_state(view, rng)
        seed = rng.getrandbits(32)
        try_deal(deal, alive, seed)
        iterations += len(alive)
        if race and deals >= config.min_rounds and len(alive) > 1:
            alive = _prune(alive, config.prune_z)
    return SearchResult(
        stats=_arm_stats(arms),
        iterations=iterations,
        deals=deals,
        seconds=clock() - start,
        timed_out=timed_out,
    )


def _trier(
    judge: Judgement,
    walk: _Walk,
    playout: Policy,
    cut: int | None,
    me: int,
    playouts: Playouts | None,
) -> Callable[[GameState, list[_Arm], int], None]:
    """What tries every root action still in the race on one deal and credits the nodes on
    its path (``me`` chose the root action): here in Python, walking each action's subtree
    and playing out with ``playout``, or with ``playouts`` elsewhere (then ``judge`` is the
    heuristic's). Every action's playout draws on the same random ``seed``."""
    if playouts is not None:
        assert isinstance(judge, HeuristicJudge)
        by_scores = judge.of_scores

        def elsewhere(deal: GameState, alive: list[_Arm], seed: int) -> None:
            results = playouts(deal, [arm.action for arm in alive], seed, cut)
            for arm, (scores, finished) in zip(alive, results, strict=True):
                _credit(arm, [arm.node], [me], by_scores(scores, finished), me)

        return elsewhere

    def here(deal: GameState, alive: list[_Arm], seed: int) -> None:
        for arm in alive:
            state = deal.clone()
            state.apply_legal(arm.action)
            path, players = walk.descend(state, arm.node, me)
            _play_out(state, playout, random.Random(seed), cut)
            _credit(arm, path, players, judge(state), me)

    return here


def _credit(
    arm: _Arm,
    path: list[Node],
    players: list[int],
    judged: tuple[list[float], list[float], list[float]],
    me: int,
) -> None:
    """Add one playout's (reward, win, margin) per player to the nodes on its ``path`` (each
    for the player who chose there) and to the root action's record."""
    rewards, wins, margins = judged
    for node, player in zip(path, players, strict=True):
        node.visits += 1
        node.total += rewards[player]
    arm.rewards.append(rewards[me])
    arm.wins.append(wins[me])
    arm.win += wins[me]
    arm.margin += margins[me]


def _ranked_arms(
    view: View,
    config: SearchConfig,
    order: dict[Action, float],
    scored: dict[Action, float],
    include: tuple[Action, ...] = (),
) -> list[_Arm]:
    """The root actions to race, best by ``order`` first (``config.width`` of them, and the
    legal ones of ``include`` after them), each with the heuristic's score (``scored``)."""
    ranked = sorted(view.legal, key=lambda a: -order.get(a, -math.inf))
    if config.width is not None:
        ranked = ranked[: config.width]
    for action in include:
        if action in view.legal and action not in ranked:
            ranked.append(action)
    return [_Arm(a, scored.get(a, -math.inf)) for a in ranked]


class _Walk:
    """The tree part of one search: from a root action's node, ``tree_depth`` decisions down
    its ISMCTS subtree, growing it by one node per walk."""

    def __init__(self, config: SearchConfig, heuristic: Policy, scores: Scorer, rng: random.Random):
        self.depth = config.tree_depth
        self.widen = config.widening
        self.c = config.exploration
        self.heuristic = heuristic
        self.scores = scores
        self.rng = rng

    def descend(self, state: GameState, node: Node, me: int) -> tuple[list[Node], list[int]]:
        """Walk (and apply to ``state``) from ``node``; the nodes passed and who chose at
        each (``me`` at the root action)."""
        path = [node]
        players = [me]
        steps = 0
        while steps < self.depth and not state.over:
            steps += 1
            legal = state.legal_actions()
            player = state.current_player
            action = legal[0] if len(legal) == 1 else self._choose(state, legal, node)
            child = node.children.get(action)
            new = child is None
            if child is None:
                child = node.children[action] = Node()
            path.append(child)
            players.append(player)
            state.apply_legal(action)
            node = child
            if new:
                break
        return path, players

    def _choose(self, state: GameState, legal: list[Action], node: Node) -> Action:
        """The heuristic's choice while the node may widen, else the best by UCB among the
        tried actions available in this deal."""
        children = node.children
        available = [a for a in legal if a in children]
        if not available or len(children) < 1 + self.widen * math.sqrt(node.visits):
            action = self.heuristic(state, self.rng)
            if action in children:
                action = _best_untried(self.scores(state), children, action)
            return action
        best_value = -math.inf
        action = available[0]
        c, log, sqrt = self.c, math.log, math.sqrt
        for a in available:
            ch = children[a]
            ch.avail += 1
            value = ch.total / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
            if value > best_value:
                best_value = value
                action = a
        return action


def _play_out(state: GameState, playout: Policy, rng: random.Random, cut: int | None) -> None:
    """Play ``state`` on with ``playout`` to its end, or for ``cut`` turns."""
    if cut is None:
        while not state.over:
            state.apply_legal(playout(state, rng))
    else:
        stop = state.turn + cut
        while not state.over and state.turn < stop:
            state.apply_legal(playout(state, rng))


def _arm_stats(arms: list[_Arm]) -> list[ActionStats]:
    """The root actions' statistics, the recommended one first."""
    stats = [
        ActionStats(
            action=arm.action,
            visits=len(arm.rewards),
            win=arm.win / len(arm.rewards),
            margin=arm.margin / len(arm.rewards),
            value=sum(arm.rewards) / len(arm.rewards),
            heuristic=arm.heuristic,
            dropped=not arm.alive,
            wins=tuple(arm.wins),
        )
        for arm in arms
        if arm.rewards
    ]
    stats.sort(key=lambda s: (s.dropped, -s.value, -s.heuristic))
    return stats


def inferring_sampler(
    view: View, config: SearchConfig, policies: GamePolicies, game: Game
) -> Callable[[View, random.Random], GameState] | None:
    """A sampler of deals weighted by how well each explains the other players' recent
    moves (``config.infer_temperature``), or ``None`` where there is nothing to weigh."""
    temperature = config.infer_temperature
    rewind = policies.rewind
    if temperature is None or rewind is None or not view.recent or view.viewer is None:
        return None
    moves = [(p, Action.parse(text)) for p, text in view.recent]
    if all(p == view.viewer for p, _ in moves):
        return None
    me = view.viewer
    scores_of = policies.scores
    floor = config.infer_floor
    count = config.infer_samples
    exp = math.exp

    def likelihood(deal: GameState, rng: random.Random) -> float:
        past = deal.clone()
        weight = 1.0
        for action in rewind(past, moves, me, rng):
            scored = scores_of(past)
            best = max(s for s, _ in scored)
            total = 0.0
            mine = 0.0
            for s, a in scored:
                e = exp((s - best) / temperature)
                total += e
                if a == action:
                    mine = e
            weight *= (1.0 - floor) * mine / total + floor / len(scored)
        return weight

    def sample(view: View, rng: random.Random) -> GameState:
        deals = [game.sample_state(view, rng) for _ in range(count)]
        weights = [likelihood(deal, rng) for deal in deals]
        pick = rng.random() * sum(weights)
        for deal, weight in zip(deals, weights, strict=True):
            pick -= weight
            if pick < 0:
                return deal
        return deals[-1]

    return sample


def _best_untried(
    scored: list[tuple[float, Action]], children: dict[Action, Node], fallback: Action
) -> Action:
    """The best-scored action that is not yet a child (``fallback`` if all are)."""
    best = -math.inf
    out = fallback
    for score, action in scored:
        if score > best and action not in children:
            best = score
            out = action
    return out


def _prune(alive: list[_Arm], z: float) -> list[_Arm]:
    """Drop the arms that trail the best by more than ``z`` paired standard errors."""
    n = len(alive[0].rewards)
    best = max(alive, key=lambda arm: sum(arm.rewards))
    top = best.rewards
    keep = []
    for arm in alive:
        if arm is best:
            keep.append(arm)
            continue
        diffs = [a - b for a, b in zip(arm.rewards, top, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        if mean < 0 and mean * mean * n > z * z * var and var >= 0:
            arm.alive = False
        else:
            keep.append(arm)
    return keep


class IsmctsBot(Bot):
    """Chooses by information-set Monte Carlo tree search (see the module docstring)."""

    name: ClassVar[str] = "ismcts"
    description: ClassVar[str] = "information-set Monte Carlo tree search with heuristic playouts"

    def __init__(self, seed: int | None = None, config: SearchConfig | None = None) -> None:
        super().__init__(seed)
        self.config = config or SearchConfig()
        self.last_result: SearchResult | None = None

    def choose(self, view: View) -> Action:
        """The action a search from ``view`` recommends."""
        if not view.legal:
            raise ValueError("the bot was asked to move with no legal action in its view")
        if len(view.legal) == 1:
            self.last_result = None
            return view.legal[0]
        judge, rank = self.judgement(view)
        result = search(
            view, self.config, self.rng, judge=judge, rank=rank, playouts=self.playouts(view)
        )
        self.last_result = result
        return result.best

    def judgement(self, view: View) -> tuple[Judgement | None, Ranking | None]:
        """What judges this bot's searches from ``view`` in place of the heuristic: the
        playouts' last states and the root's actions (``None``, ``None``: the heuristic does
        both; a learned search overrides this). Hints search with the same judgement."""
        return None, None

    def playouts(self, view: View) -> Playouts | None:
        """What plays this bot's playouts from ``view`` if not Python (``None``: Python
        does; ``keltis.fast.search`` plays them compiled)."""
        return None
