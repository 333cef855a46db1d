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

Chance is never a node: a digital world's own (sampled) generator plays it
inside ``apply``, and tabletop chance is drawn from the outcomes' weights.
"""

import math

from .bots import judged, logistic
from .engine import clone
from .known import serialize

PRIOR_VISITS = 3  # the weight of the one-ply judgement a root move starts with


class Node:
    __slots__ = ("moves", "stats")

    def __init__(self):
        self.stats: dict[bytes, list] = {}  # move key → [visits, payoff, available]
        self.moves: list | None = None  # (key, move) pairs, where the view fixes them


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

    return max(enumerate(table.moves), key=rank)[1]


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
        key, move = select(table, node, listing(table, node, state, actor))
        path.append((node, key, actor))
        table.advance(state, move)
        if fresh:
            break
    payoffs = table.rewards(playout(table, state, clock))
    for node, key, actor in path:
        stats = node.stats[key]
        stats[0] += 1
        stats[1] += payoffs[actor]


def seed(table, node: Node, state: dict, actor: int, clock) -> None:
    """Start each of the bot's moves with what one ply shows (greedy's judgement,
    in the first world) as a few virtual visits: with few iterations the
    search plays at least as well as ``greedy``, and visits refine it. Where the
    moves are too many to judge within the time (a large Gizmos listing), the
    judging stops at the deadline, in a seeded shuffled order, as greedy's does."""
    evaluate, scale = table.hooks.evaluate, table.hooks.eval_scale

    def value_of(listed):
        return logistic(evaluate(table.play(state, listed[1]), actor) / scale)

    for (key, _), value in judged(table, listing(table, node, state, actor), clock, value_of):
        node.stats[key] = [PRIOR_VISITS, PRIOR_VISITS * value, PRIOR_VISITS]


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


def select(table, node: Node, moves: list) -> tuple[bytes, dict]:
    """An untried move at random, else UCB1 over the moves available here."""
    stats, untried = node.stats, []
    for key, move in moves:
        entry = stats.get(key)
        if entry is None:
            entry = stats[key] = [0, 0.0, 0]
        entry[2] += 1
        if not entry[0]:
            untried.append((key, move))
    if untried:
        return table.rnd.choice(untried)

    exploration = table.hooks.exploration  # the game's UCB1 constant

    def ucb(pair):
        visits, payoff, available = stats[pair[0]]
        return payoff / visits + exploration * math.sqrt(math.log(available) / visits)

    return max(moves, key=ucb)


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
