"""Information-set Monte Carlo tree search: the ``strong`` bot (after OpenSpiel's
``open_spiel/python/algorithms/ismcts.py``).

Each iteration samples a world from the bot's view (the game's ``sample_world``),
descends the tree, expands one node, plays out (the game's ``playout_move``,
by default a uniform legal move) to the end or for the game's ``PLAYOUT_DEPTH``
steps (then asks ``evaluate``), and backs the payoffs up. Before the first
iteration the bot's own moves start with what one ply shows (``greedy``'s
judgement) as a few virtual visits.

The iteration's world is its own (a fresh sample; the first one a copy), so the
descent and the playout play on it in place, and nodes and moves are keyed by
their exact bytes (marshal), not canonical JSON: a search's iterations per second
are what its strength per second is made of.

The tree is the bot's own (single-observer ISMCTS): a node is what the bot's
seat would see there — its view of the position and who acts — never the
sampled world, so worlds that differ only in what the bot cannot see share
their nodes, and nothing in the tree can depend on a secret. At a node each
move keeps its visits, its total payoff for the seat acting there, and its
availability: how often it was legal when the node was visited (another seat's
moves depend on a hand the bot only samples); UCB1 picks among the available
moves with the availability in place of the parent's visits.

A game may name each move's *group* (``move_group``: a Ghostone placement's plate).
Its nodes then choose twice, by the same UCB1: a group among the available
groups, then a move of that group. A few hundred placements share their visits
among 16 plates, where a flat node would give each one visit and look no deeper
with a search of a thousand iterations. Without the hook a node is flat, as it was.

Chance is never a node: a digital world's own (sampled) generator plays it
inside ``apply``, and tabletop chance is drawn from the outcomes' weights.
"""

import math

from .bots import judged, logistic
from .engine import clone
from .known import serialize

PRIOR_VISITS = 3  # the weight of the one-ply judgement a root move starts with


class Node:
    __slots__ = ("groups", "members", "moves", "stats")

    def __init__(self):
        self.stats: dict[bytes, list] = {}  # move key → [visits, payoff, available]
        self.moves: list | None = None  # (key, move) pairs, where the view fixes them
        self.groups: dict = {}  # group → [visits, payoff, available] (a grouping game's)
        self.members: dict | None = None  # group → its (key, move) pairs, with ``moves``


def search(table, clock) -> dict:
    """The root move visited most (ties: the better mean, then the listed order)."""
    nodes: dict[str, Node] = {}
    root = nodes[node_key(table, table.first, table.seat)] = Node()
    seed(table, root, table.first, table.seat, clock)
    world, done = clone(table.first), 0  # an iteration plays on its world itself
    while True:
        iterate(table, nodes, world, clock)
        done += 1
        if clock.over(done):
            break
        world = table.sample()

    def rank(indexed):
        index, move = indexed
        visits, payoff, _ = root.stats.get(move_key(move), (0, 0.0, 0))
        return visits, payoff / visits if visits else -math.inf, -index

    candidates, group = list(enumerate(table.moves)), group_of(table)
    if group:  # the group visited most, then its move visited most
        def group_rank(named):
            visits, payoff, _ = root.groups.get(named, (0, 0.0, 0))
            return visits, payoff / visits if visits else -math.inf
        best = max(dict.fromkeys(group(move) for move in table.moves), key=group_rank)
        candidates = [(index, move) for index, move in candidates if group(move) == best]
    return max(candidates, key=rank)[1]


def iterate(table, nodes: dict, state: dict, clock) -> None:
    """One simulation in one sampled world, played in place (the world is the
    iteration's own: a fresh sample, never copied again): select, expand one node,
    play out, back up."""
    path = []
    while state["to_move"]:
        actor = table.seat if not path else state["to_move"][0]
        key = node_key(table, state, actor)
        node = nodes.get(key)
        fresh = node is None
        if fresh:
            node = nodes[key] = Node()
        moves = listing(table, node, state, actor)
        if table.hooks.move_group:
            group = select_group(table, node, moves)
            key, move = select(table, node, members(table, node, moves)[group])
        else:
            group = None
            key, move = select(table, node, moves)
        path.append((node, key, actor, group))
        table.advance(state, move)
        if fresh:
            break
    payoffs = table.rewards(playout(table, state, clock))
    for node, key, actor, group in path:
        payoff = payoffs[actor]
        stats = node.stats[key]
        stats[0] += 1
        stats[1] += payoff
        if group is not None:
            stats = node.groups[group]
            stats[0] += 1
            stats[1] += payoff


def seed(table, node: Node, state: dict, actor: int, clock) -> None:
    """Start each of the bot's moves with what one ply shows (greedy's judgement,
    in the first world) as a few virtual visits: with few iterations the
    search plays at least as well as ``greedy``, and visits refine it. Where the
    moves are too many to judge within the time (a large Gizmos listing), the
    judging stops at the deadline, in a seeded shuffled order, as greedy's does."""
    evaluate, scale = table.hooks.evaluate, table.hooks.eval_scale

    def value_of(listed):
        return logistic(evaluate(table.play(state, listed[1]), actor) / scale)

    group_of_move, best = group_of(table), {}
    for (key, move), value in judged(table, listing(table, node, state, actor), clock,
                                     value_of):
        node.stats[key] = [PRIOR_VISITS, PRIOR_VISITS * value, PRIOR_VISITS]
        if group_of_move:
            group = group_of_move(move)
            best[group] = max(value, best.get(group, value))
    for group, value in best.items():  # a group starts as good as its best move
        node.groups[group] = [PRIOR_VISITS, PRIOR_VISITS * value, PRIOR_VISITS]


def node_key(table, state: dict, actor: int) -> tuple:
    """Who acts, and the position as the bot's seat sees it (in a game without
    secrets: the state without its generator, which is that view), as its exact
    bytes: marshal writes them in C, a tenth of the cost of canonical JSON. Two
    equal positions whose dicts were filled in another order get two nodes: the
    search only shares less, it never mixes positions."""
    if table.engine.has_secrets:
        view = table.engine.view(state, table.seat, trusted=True)
    else:
        view = {k: v for k, v in state.items() if k != "rng"}
    return actor, serialize(view)


def move_key(move: dict) -> bytes:
    """A move's key in a node's statistics: its exact bytes (see :func:`node_key`); the
    engine lists a move the same way in every world, so its key is the same in each."""
    return serialize(move)


def listing(table, node: Node, state: dict, actor: int) -> list:
    """The actor's legal moves with their keys. The bot's own moves depend on its
    view alone (the conformance suite checks it), as does everyone's in a game
    without secrets: those are listed once per node."""
    if node.moves is not None:
        return node.moves
    moves = [(move_key(m), m) for m in table.engine.legal_moves(state, actor, trusted=True)]
    if actor == table.seat or not table.engine.has_secrets:
        node.moves = moves
    return moves


def group_of(table):
    """The game's move → group function, a move without a group its own (``None``: the
    game does not group its moves)."""
    hook = table.hooks.move_group
    if hook is None:
        return None

    def group(move: dict):
        named = hook(move)
        return ("move", move_key(move)) if named is None else named
    return group


def members(table, node: Node, moves: list) -> dict:
    """The moves listed here by group (kept with the node's listing, where the view
    fixes it)."""
    if node.members is not None and node.moves is moves:
        return node.members
    group, grouped = group_of(table), {}
    for pair in moves:
        grouped.setdefault(group(pair[1]), []).append(pair)
    if node.moves is moves:
        node.members = grouped
    return grouped


def select_group(table, node: Node, moves: list):
    """A grouping game's first choice: :func:`ucb1` over the groups available here."""
    return ucb1(table, node.groups, [(group, group) for group in members(table, node, moves)])[0]


def select(table, node: Node, moves: list) -> tuple[bytes, dict]:
    """:func:`ucb1` over the moves available here."""
    return ucb1(table, node.stats, moves)


def ucb1(table, stats: dict, choices: list) -> tuple:
    """An untried choice at random, else UCB1 over ``choices`` (``(key, choice)`` pairs,
    ``stats[key]`` their [visits, payoff, available]), each counted available once more."""
    untried = []
    for pair in choices:
        entry = stats.get(pair[0])
        if entry is None:
            entry = stats[pair[0]] = [0, 0.0, 0]
        entry[2] += 1
        if not entry[0]:
            untried.append(pair)
    if untried:
        return table.rnd.choice(untried)

    exploration = table.hooks.exploration  # the game's UCB1 constant

    def ucb(pair):
        visits, payoff, available = stats[pair[0]]
        return payoff / visits + exploration * math.sqrt(math.log(available) / visits)

    return max(choices, key=ucb)


def playout(table, state: dict, clock) -> dict:
    """The game's playout policy (default: uniform random moves) to the end, or
    for the game's playout depth, on ``state`` itself (the iteration's own world). A
    playout the deadline overtakes stops there and is judged where it stands (a
    Gizmos playout can take a tenth of a second: the answer must not wait for it)."""
    engine, rnd, policy = table.engine, table.rnd, table.hooks.playout_move
    for _ in range(table.hooks.playout_depth):
        if not state["to_move"] or clock.expired():
            break
        actor = state["to_move"][0]
        moves = engine.legal_moves(state, actor, trusted=True)
        table.play_in_place(state, policy(state, actor, moves, rnd))
    return state
