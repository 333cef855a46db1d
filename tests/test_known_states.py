"""The checked path's cache (referee.known): a state a client sends back exactly as the
referee answered it is not checked whole again, and nothing else slips through.

Counted, not timed: each test plays on a subclass of the game's engine (a cache of its
own) that counts its whole-state checks.
"""

import json
import random

import pytest

from referee.engine import is_listed
from referee.errors import IllegalMove, InvalidState
from referee.known import KnownValid
from referee.registry import engines

GAMES = sorted(engines())


def counting(game: str):
    """A fresh engine of ``game`` (its own cache) and the list its whole checks go to."""
    checks = []

    class Counted(type(engines()[game])):
        def check_state(self, state):
            checks.append(state["version"] if isinstance(state, dict) else None)
            return super().check_state(state)

    return Counted(), checks


def as_client(state: dict) -> dict:
    """What a stateless client sends back: the answered state through JSON."""
    return json.loads(json.dumps(state))


def playout(engine, steps: int, seed: int = 1):
    """``steps`` steps as a stateless client plays them: each state listed, then a move
    applied, the answered state sent back through JSON; every state met."""
    rnd, state = random.Random(seed), as_client(engine.new(engine.min_players, seed=seed))
    met = [state]
    for _ in range(steps):
        if not state["to_move"]:
            break
        move = rnd.choice(as_client(engine.legal_moves(state)))
        state = as_client(engine.apply(state, move)[0])
        met.append(state)
    return met


@pytest.mark.parametrize("game", GAMES)
def test_a_state_sent_back_as_answered_is_checked_whole_once(game):
    engine, checks = counting(game)
    met = playout(engine, 40)
    assert len(met) > 10
    # the new game's state, from outside, is checked whole once; every later one was
    # made by a legal move from a checked state, and came back with the same bytes
    assert checks == [met[0]["version"]]
    engine.score(met[-1])
    engine.view(met[-1], None)
    assert len(checks) == 1


@pytest.mark.parametrize("game", GAMES)
def test_a_known_state_changed_in_any_way_is_checked_whole(game):
    engine, checks = counting(game)
    known = playout(engine, 12)[-1]
    before = len(checks)
    # the same content, keys in another order: other bytes, checked whole and accepted
    reordered = dict(reversed(list(known.items())))
    engine.legal_moves(reordered)
    assert len(checks) == before + 1
    # a number of another type that Python finds equal (12 == 12.0): refused
    forged = dict(known, version=float(known["version"]))
    assert forged == known
    with pytest.raises(InvalidState):
        engine.legal_moves(forged)
    # a forged seat to move: refused, though the state it was made from is known
    with pytest.raises(InvalidState):
        engine.apply(dict(known, to_move=[99]), {"seat": 99})
    assert len(checks) == before + 3


@pytest.mark.parametrize("game", GAMES)
def test_moves_listed_for_one_state_are_not_accepted_on_another(game):
    """The last listing is kept by the state's fingerprint: a move listed for one state,
    legal there and not in a later state, is refused on the later state."""
    engine, _ = counting(game)
    met = playout(engine, 60, seed=7)
    for earlier, later in ((a, b) for n, a in enumerate(met) for b in met[n + 1:n + 4]):
        listed = engine.legal_moves(earlier)
        stale = [m for m in listed if m.get("seat") in later["to_move"]
                 and not is_listed(m, engine.legal_moves(later, m["seat"]))]
        if stale:
            engine.legal_moves(earlier)  # the last listing is the earlier state's again
            with pytest.raises(IllegalMove):
                engine.apply(later, stale[0])
            return
    pytest.fail("no move of one state was illegal in a later one")


def test_the_memory_is_bounded_and_forgets_the_oldest_first():
    known = KnownValid(size=2)
    prints = [known.fingerprint(bytes([n])) for n in range(3)]
    for print_ in prints[:2]:
        known.remember(print_)
    assert known.knows(prints[0])  # now the most recently used
    known.remember(prints[2])
    assert len(known) == 2
    assert known.knows(prints[0]) and known.knows(prints[2]) and not known.knows(prints[1])


def test_a_listed_move_is_matched_by_its_exact_json():
    listed = [{"seat": 1, "type": "pass", "n": 1}]
    assert is_listed({"n": 1, "type": "pass", "seat": 1}, listed)  # keys in any order
    assert not is_listed({"seat": 1, "type": "pass", "n": True}, listed)
    assert not is_listed({"seat": 1, "type": "pass", "n": 1.0}, listed)
    assert not is_listed({"seat": True, "type": "pass", "n": 1}, listed)
