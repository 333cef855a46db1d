"""The checks every game's bots pass (:mod:`referee.bots`), as ``conformance`` is for engines.

Each game's ``tests/test_bots.py`` runs them on its own positions, and
``tests/test_bots.py`` on every installed game:

- :func:`check_samples`: every world a game's ``sample_world`` draws is a valid
  state whose view, for that seat, is exactly the view it was drawn from (the
  assertion OpenSpiel's ISMCTS makes for every resample);
- :func:`play_bots`: whole seeded games where bots hold every seat, each move
  they answer listed for their seat in the real state and accepted by ``apply``;
- :func:`check_fair`: a bot's choice is the same when what its seat cannot see
  changes (the other seats' secrets and the deck order, as ``perturb_hidden``
  changes them, and the generator).
"""

import random
from collections.abc import Iterator

from .bots import LEVELS, Budget, choose_for, hooks
from .conformance import perturbation
from .engine import CHANCE, Engine, canonical, clone, is_listed
from .rng import Pcg32


def positions(engine: Engine, players: int, seed: int, mode: str = "digital") -> Iterator[dict]:
    """Every position of a seeded random game (chance played by its weights)."""
    rnd = random.Random(f"bots/{engine.id}/{players}/{seed}/{mode}")
    state = engine.new(players, seed=seed, mode=mode)
    while state["to_move"]:
        yield state
        state = engine.apply(state, random_move(engine, state, rnd))[0]
    yield state


def random_move(engine: Engine, state: dict, rnd: random.Random) -> dict:
    if state["to_move"] == [CHANCE]:
        return engine._sample_chance(state, Pcg32.from_seed(rnd.getrandbits(64)))
    return rnd.choice(engine.legal_moves(state))


def check_samples(engine: Engine, state: dict, rnd: random.Random, samples: int = 2) -> int:
    """Every seat's sampled worlds are valid states with exactly that seat's view.

    Answers how many of them differ from ``state`` beyond the generator: worlds
    that really resample what the seat cannot see.
    """
    sample_world, resampled = hooks(engine).sample_world, 0
    truth = canonical(dict(state, rng=None))
    for seat in range(1, state["players"] + 1):
        view = engine.view(state, seat)
        for _ in range(samples):
            world = sample_world(clone(view), seat, rnd)
            engine.check_state(world)
            assert engine.view(world, seat) == view, f"{engine.id}: a world seat {seat} " \
                "sampled does not show it its view"
            resampled += canonical(dict(world, rng=None)) != truth
    return resampled


def play_bots(engine: Engine, players: int, seed: int, levels: dict, budget: Budget,
              mode: str = "digital") -> tuple[dict, int]:
    """A whole game where bots hold every seat (``levels``: seat → level): the final
    state and the number of moves the bots chose. Every move a bot answers is
    listed for its seat in the real state and accepted by the checking ``apply``."""
    rnd = random.Random(f"bots/{engine.id}/{seed}")
    state, decisions = engine.new(players, seed=seed, mode=mode), 0
    while state["to_move"]:
        if state["to_move"] == [CHANCE]:  # tabletop: the table enters chance, not a bot
            state = engine.apply(state, random_move(engine, state, rnd))[0]
            continue
        seat = rnd.choice(state["to_move"])
        move = choose_for(engine, state, seat, levels[seat], rnd.getrandbits(32), budget)
        assert is_listed(move, engine.legal_moves(state, seat)), \
            f"{engine.id}: a {levels[seat]} bot chose {move}, not a legal move of seat {seat}"
        state = engine.apply(state, move)[0]
        decisions += 1
    return state, decisions


def check_fair(engine: Engine, state: dict, seat: int, rnd: random.Random, budget: Budget,
               seed: int = 0) -> bool:
    """The bot's choice at every level is the same after what ``seat`` cannot see
    changed. Answers whether anything hidden did change (else nothing was shown)."""
    perturb = perturbation(engine)
    other = perturb(state, seat, rnd) if perturb else clone(state)
    if other["rng"] is not None:
        other["rng"] = Pcg32.from_seed(rnd.getrandbits(64)).to_json()
    assert engine.view(other, seat) == engine.view(state, seat)
    for level in LEVELS:
        assert choose_for(engine, state, seat, level, seed, budget) == \
            choose_for(engine, other, seat, level, seed, budget), \
            f"{engine.id}: the {level} bot of seat {seat} decided on what it cannot see"
    return canonical(other) != canonical(state)
