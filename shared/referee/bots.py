"""Bots that decide from one seat's view, never from the state (issue 14).

    choose(engine, view, seat, level, seed, budget) -> move

is the whole interface: the stateless route ``POST /v1/bot-move`` calls it, and
a session seat played by a bot is the same call on that seat's view. A bot
sees exactly what its seat sees. Where it needs a whole state (to play moves
forward), it asks the game for a *world*: a full state consistent with the
view, with everything the view hides (other hands, the deck or bag, the
generator) resampled. Each game's ``bots.py``, beside its engine, has

    sample_world(view, seat, rnd) -> state   # engine.view(state, seat) == view;
                                             # view unchanged (blank_world copies it)
    evaluate(state, seat) -> float           # optional; default: the score lead
    cutoff_evaluate(state, seat) -> float    # optional: ``strong``'s judgement of a playout
                                             # its depth cut (default: evaluate)
    playout_move(state, seat, moves, rnd)    # optional; default: a uniform legal move
    PLAYOUT_DEPTH, EVAL_SCALE, EXPLORATION   # optional tuning of ``strong``
    move_group(move) -> hashable | None      # optional: ``strong`` picks a group, then a move

so the bot is fair by construction: nothing it computes can depend on a
secret, since no secret ever reaches it (after OpenSpiel's ``ismcts.py``).

Levels:

- ``random``: a uniform legal move (seeded);
- ``greedy``: one ply: the move whose result, averaged over a few sampled
  worlds, ``evaluate`` likes best for the seat;
- ``strong``: information-set Monte Carlo tree search (:mod:`referee.ismcts`).

A sampled world is checked once (``engine.check_state``), then played on the
engine's trusted path. Deterministic for a fixed seed and an iteration budget;
a time budget (default 1 s) makes it depend on the machine's speed.
"""

import importlib
import math
import os
import random
import time
from dataclasses import dataclass
from functools import cache

from . import wire
from .engine import CHANCE, MAX_SEED, Engine, clone, is_listed, repr_json, who_moves
from .errors import BadRequest, GameOver, InvalidState, NoSuchSeat, NotYourTurn, RefereeError
from .rng import Pcg32

LEVELS = ("random", "greedy", "strong")
DEFAULT_BUDGET_MS = 1000
MAX_BUDGET_MS = 2000  # a bot-move request never holds a worker longer than this
GREEDY_WORLDS = 3  # worlds a greedy bot averages a move's result over
DEFAULT_PLAYOUT_DEPTH = 60  # steps of a strong bot's playout before it evaluates
DEFAULT_EVAL_SCALE = 5.0  # a lead of this many points is worth ~73 % (logistic)
DEFAULT_EXPLORATION = 0.7  # the search's UCB1 constant, for payoffs in [0, 1]


@dataclass(frozen=True)
class Budget:
    """How long a bot may think: search ``iterations`` and/or wall-clock ``seconds``
    (``None``: no bound of that kind; at least one bound). An iteration budget
    alone makes the choice a pure function of the view and the seed."""

    iterations: int | None = None
    seconds: float | None = DEFAULT_BUDGET_MS / 1000
    #: count ``seconds`` in the process's CPU time, not the wall clock's: a benchmark's
    #: budget on a machine other work shares (``make bench``), never a served request's
    cpu: bool = False

    def __post_init__(self):
        if self.iterations is None and self.seconds is None:
            raise ValueError("a bot's budget needs iterations or seconds")

    def clock(self) -> "Clock":
        return Clock(self)


class Clock:
    """The budget as it runs out: ``over(done)`` once either bound is reached — or, with a
    deadline, once one more iteration as long as the longest so far would end past it, so
    the answer comes within the budget rather than one iteration after it.

    The deadline keeps ``RESERVE`` of a time budget back, as a chess engine's move overhead
    does, for what the search does not control: a busy machine descheduling the last
    iteration, and the work after the search."""

    RESERVE = 0.02

    def __init__(self, budget: Budget):
        self.iterations, self.cpu = budget.iterations, budget.cpu
        self.deadline = None if budget.seconds is None else \
            self.now() + budget.seconds * (1 - self.RESERVE)
        self.last: float | None = None  # when over() was last asked: an iteration's end
        self.longest = 0.0
        self.done = 0  # the search's iterations so far (what make bench reports)

    def now(self) -> float:
        return time.process_time() if self.cpu else time.perf_counter()

    def over(self, done: int) -> bool:
        self.done = done
        if self.iterations is not None and done >= self.iterations:
            return True
        if self.deadline is None:
            return False
        now = self.now()
        if self.last is not None:
            self.longest = max(self.longest, now - self.last)
        self.last = now
        return now + self.longest >= self.deadline

    def expired(self) -> bool:
        """Past the deadline (never, under an iteration budget alone): a loop that is not a
        search's iterations (greedy's moves, the search's first judgement) stops there."""
        return self.deadline is not None and self.now() >= self.deadline


@dataclass(frozen=True)
class Hooks:
    """What a game tells its bots (its ``bots.py``), with the platform's defaults."""

    sample_world: object
    evaluate: object
    playout_move: object
    playout_depth: int
    eval_scale: float
    exploration: float = DEFAULT_EXPLORATION
    #: a move's group in the search (``None``: the move is its own group), or ``None``:
    #: no grouping, every node picks among its moves at once (see ``ismcts.select``)
    move_group: object = None
    #: how the search judges a playout its depth cut (``None``: ``evaluate``, greedy's
    #: judgement); a game may weigh there what one ply never sees (what is still to come)
    cutoff_evaluate: object = None


def blank_world(view: dict) -> dict:
    """A copy of ``view`` to fill in as a world: what the view says of the table's
    generator (``seeded``) goes, as a world draws from a generator of the bot's own."""
    return clone({key: value for key, value in view.items() if key != "seeded"})


def open_world(view: dict, rnd: random.Random) -> dict:
    """The world of a game without secrets: the view itself, plus a fresh
    generator in digital mode (future chance is all the view hides)."""
    state = blank_world(view)
    state["rng"] = fresh_generator(view, rnd)
    return state


def fresh_generator(view: dict, rnd: random.Random) -> dict | None:
    """A digital world's generator, drawn from the bot's own seeded stream."""
    return Pcg32.from_seed(rnd.getrandbits(64)).to_json() \
        if view.get("mode") == "digital" else None


def deal(pool: list, sizes: dict[int, int], rnd: random.Random) -> tuple[dict[int, list], list]:
    """What a seat cannot see, dealt anew: ``pool`` shuffled, ``sizes[seat]`` cards to each
    other seat (in seat order), and the rest (a deck, a bag) left over."""
    pool = list(pool)
    rnd.shuffle(pool)
    hands = {}
    for other, size in sorted(sizes.items()):
        hands[other], pool = pool[:size], pool[size:]
    return hands, pool


@cache
def hooks(engine: Engine) -> Hooks:
    package = type(engine).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.bots")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.bots":
            raise
        module = None
    sample = getattr(module, "sample_world", None)
    if sample is None:
        if engine.has_secrets:  # a game with secrets must say how to sample them
            raise RefereeError(f"{engine.title} has no bots yet")
        sample = open_world
    evaluate = getattr(module, "evaluate", None) or score_lead(engine)
    playout_move = getattr(module, "playout_move", None) or uniform_move
    return Hooks(sample, evaluate, playout_move,
                 getattr(module, "PLAYOUT_DEPTH", DEFAULT_PLAYOUT_DEPTH),
                 getattr(module, "EVAL_SCALE", DEFAULT_EVAL_SCALE),
                 getattr(module, "EXPLORATION", DEFAULT_EXPLORATION),
                 getattr(module, "move_group", None),
                 getattr(module, "cutoff_evaluate", None))


def uniform_move(state: dict, seat: int, moves: list, rnd: random.Random) -> dict:
    """The default playout policy: any legal move, uniformly."""
    return rnd.choice(moves)


def score_lead(engine: Engine):
    """The default ``evaluate``: the seat's total minus the best other total."""
    def evaluate(state: dict, seat: int) -> float:
        totals = {line["seat"]: line["total"] for line in engine._score(state)}
        mine = totals.pop(seat)
        return mine - max(totals.values())
    return evaluate


class Table:
    """One decision: the view checked, a world sampler, and the seat's legal moves."""

    def __init__(self, engine: Engine, view, seat, seed: int):
        if not isinstance(view, dict) or not isinstance(view.get("to_move"), list):
            raise BadRequest("view must be a game view (an object with to_move)")
        players = view.get("players")
        if type(seat) is not int or type(players) is not int or seat < 1:
            raise BadRequest("seat must be a seat number, and the view's players a number")
        if seat > players:
            raise NoSuchSeat(f"seat {seat} is not at this table of {players} players")
        if not view["to_move"]:
            raise GameOver("the game is over", rule=engine.end_rule)
        if seat not in view["to_move"]:
            raise NotYourTurn(f"seat {seat} is not to move; {who_moves(view['to_move'])}",
                              words={"seat": seat})
        self.engine, self.view, self.seat = engine, view, seat
        self.hooks = hooks(engine)
        self.rnd = random.Random(seed)
        self.chance = Pcg32.from_seed(self.rnd.getrandbits(64))  # tabletop chance in playouts
        self.first = self.sample(check_view=True)
        self.moves = engine.legal_moves(self.first, seat, trusted=True)

    def sample(self, check_view: bool = False) -> dict:
        """A world consistent with the view, checked whole (then trusted)."""
        try:
            # a sampler copies the view it fills (blank_world) and never changes it
            world = self.hooks.sample_world(self.view, self.seat, self.rnd)
        except RefereeError:
            raise
        except Exception:  # noqa: BLE001 - a view no game state has (e.g. more cards than exist)
            raise InvalidState(f"the view is not one a {self.engine.title} game can reach") \
                from None
        self.engine.check_state(world)
        # (whether the table's generator is seeded is no part of a world: see blank_world)
        if check_view and dict(self.engine.view(world, self.seat, trusted=True),
                               seeded=None) != dict(self.view, seeded=None):
            raise InvalidState(f"the view is not one a {self.engine.title} game can reach")
        return world

    def settle(self, state: dict) -> None:
        """Play tabletop chance (sampled) on ``state`` itself until a seat acts or the
        game ends."""
        while state["to_move"] == [CHANCE]:
            self.engine.play_in_place(state, self.engine._sample_chance(state, self.chance))

    def play(self, state: dict, move: dict) -> dict:
        """``apply`` on the trusted path, for a move listed for this position.

        ``apply`` checks every move against the legal moves it lists again; a
        bot's move was taken from such a list (perhaps of another world with the
        same view), so the check would only double a playout's cost. Chance
        still plays as ``apply`` plays it.
        """
        new = clone(state)
        self.advance(new, move)
        return new

    def advance(self, state: dict, move: dict) -> None:
        """:meth:`play` on ``state`` itself: a search's step on its iteration's own world."""
        self.engine._advance(state, move)
        self.settle(state)

    def play_in_place(self, state: dict, move: dict) -> None:
        """A playout's step on its own copy of a world (the engine's playout step): ``move``
        was just listed for this very state, so it is accepted at once."""
        self.engine.play_in_place(state, move)
        self.settle(state)

    def rewards(self, state: dict) -> dict[int, float]:
        """Each seat's payoff in [0, 1]: at the end mostly the win (shared among
        tied winners), a little the lead; before, the logistic of ``evaluate`` (or of the
        game's ``cutoff_evaluate``, where it has one)."""
        seats = range(1, state["players"] + 1)
        judge = self.hooks.cutoff_evaluate or self.hooks.evaluate
        lead = {s: logistic(judge(state, s) / self.hooks.eval_scale) for s in seats}
        if state["to_move"]:
            return lead
        winners = self.engine.score(state, trusted=True)["winners"]
        return {s: 0.9 * (s in winners) / len(winners) + 0.1 * lead[s] for s in seats}


def logistic(x: float) -> float:
    return 1 / (1 + math.exp(-max(-60.0, min(60.0, x))))


def choose(engine: Engine, view: dict, seat: int, level: str = "strong", seed: int = 0,
           budget: Budget | None = None) -> dict:
    """A legal move for ``seat`` chosen from its ``view`` alone (see the module doc).

    Refuses a view where the seat is not to move (``NotYourTurn``), an over
    game (``GameOver``), and a view no state of the game has (``InvalidState``).
    """
    if level not in LEVELS:
        raise BadRequest(f"level must be one of {', '.join(LEVELS)}, not {repr_json(level)}")
    budget = budget or Budget()
    clock = budget.clock()
    table = Table(engine, view, seat, seed)
    moves = table.moves
    if len(moves) == 1:
        move = moves[0]
    elif level == "random":
        move = table.rnd.choice(moves)
    elif level == "greedy":
        move = greedy(table, clock)
    else:
        from .ismcts import search  # the search is the costly part: its own module
        move = search(table, clock)
    assert is_listed(move, moves), f"{engine.id}: a bot chose an unlisted move"
    return move


def choose_for(engine: Engine, state: dict, seat: int, level: str = "strong", seed: int = 0,
               budget: Budget | None = None) -> dict:
    """The move of a bot playing ``seat`` in a game the referee holds: decided
    from that seat's view of ``state``, never from the state itself."""
    return choose(engine, engine.view(state, seat, trusted=True), seat, level, seed, budget)


def judged(table: Table, moves, clock: Clock, value_of, at_least: int = 0):
    """``(move, value_of(move))`` for ``moves`` in a seeded shuffled order until the time
    runs out (``at_least`` of them whatever the time): how ``greedy`` judges its moves, and
    how the search judges its own before its first iteration (``ismcts.seed``)."""
    order = list(moves)
    table.rnd.shuffle(order)
    for tried, move in enumerate(order):
        if tried >= at_least and clock.expired():
            return
        yield move, value_of(move)


def greedy(table: Table, clock: Clock) -> dict:
    """One ply: the best average ``evaluate`` after the move over a few worlds
    (ties go to the first of a seeded shuffle; time runs out → best so far)."""
    worlds = [table.first] + [table.sample() for _ in range(GREEDY_WORLDS - 1)]

    def value_of(move):
        return sum(table.hooks.evaluate(table.play(world, move), table.seat)
                   for world in worlds) / len(worlds)

    best, best_value = None, -math.inf
    for move, value in judged(table, table.moves, clock, value_of, at_least=1):
        if best is None or value > best_value:
            best, best_value = move, value
    return best


# ----------------------------------------------------------------- the route
ROUTE_DOC = (
    "A bot's legal move for `seat`, chosen from that seat's `view` alone (a view, never a "
    "state: the bot cannot see what the seat cannot). `level`: `random` (a uniform legal "
    "move), `greedy` (the best one-ply evaluation) or `strong` (information-set Monte Carlo "
    "tree search over worlds sampled from the view). `seed` makes the bot's own choices "
    "repeatable (absent: a fresh seed); `budget_ms` bounds its thinking time (default "
    f"{DEFAULT_BUDGET_MS}, at most {MAX_BUDGET_MS}). A view where the seat is not to move is "
    "refused (403 not_your_turn), a finished game 422 game_over, a view no game state can "
    "have 422 invalid_state. The move carries `text` in the language of Accept-Language.")


def wire_components(engine: Engine) -> dict:
    """The route's request and answer schemas, named for the game (``GhostoneBotMove``)."""
    p = wire.prefix(engine)
    request = {
        "type": "object", "required": ["view", "seat"], "additionalProperties": False,
        "properties": {
            "view": wire.ref(f"{p}View"),
            "seat": dict(wire.seat_schema(engine), description="the seat the bot plays"),
            "level": {"enum": list(LEVELS), "default": "strong"},
            "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_SEED,
                     "description": "the bot's own generator (null or absent: a fresh one)"},
            "budget_ms": {"type": "integer", "minimum": 1, "maximum": MAX_BUDGET_MS,
                          "default": DEFAULT_BUDGET_MS,
                          "description": "how long the bot may think, in milliseconds"}}}
    answer = {"type": "object", "required": ["move", "level"], "properties": {
        "move": wire.ref(f"{p}Move"), "level": {"enum": list(LEVELS)}}}
    return {f"{p}BotMoveRequest": request, f"{p}BotMove": answer}


def decide(engine: Engine, body: dict) -> tuple[dict, str]:
    """The route's answer to a body its schema accepted: ``(move, level)``."""
    level = body.get("level", "strong")
    seed = body.get("seed")
    seed = random.SystemRandom().getrandbits(64) if seed is None else seed
    # BOT_MAX_BUDGET_MS: an operator's cap on any one request's thinking (a small machine)
    cap = min(int(os.environ.get("BOT_MAX_BUDGET_MS", MAX_BUDGET_MS)), MAX_BUDGET_MS)
    budget = Budget(seconds=min(body.get("budget_ms", DEFAULT_BUDGET_MS), cap) / 1000)
    return choose(engine, body["view"], body["seat"], level, seed, budget), level


def document_example(document: dict, engine: Engine) -> bool:
    """The route's runnable example: a random bot's move at the start of game seed 1."""
    state = engine.new(engine.min_players, seed=1)
    seat = state["to_move"][0]
    body = {"view": engine.view(state, seat), "seat": seat, "level": "random", "seed": 1}
    try:
        move, level = decide(engine, body)
    except RefereeError:  # a game without bots yet: no example
        return True
    operation = document["paths"]["/v1/bot-move"]["post"]
    operation["requestBody"]["content"]["application/json"]["example"] = body
    answer = operation["responses"]["200"].setdefault("content", {})
    answer.setdefault("application/json", {})["example"] = {
        "move": dict(move, text=engine.move_text(move)), "level": level}
    return True
