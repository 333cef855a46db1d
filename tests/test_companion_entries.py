"""Issue 32, the engine's half of companion mode for every game with secrets: whose entry
is awaited, what each entrant is listed, who is refused, and the moves checked against the
hand entered. Pure engines (the gateway's half: tests/test_companion.py)."""

import random

import pytest
from referee.conformance import choose_move, perturbation
from referee.engine import CHANCE, TABLE, canonical
from referee.errors import EntryConflict, IllegalMove, ImpossibleEntry, NotYourEntry
from referee.registry import engines

GAMES = engines()
#: each game's rule of hidden hands (who enters a private outcome) and of chance entries
RULES = {"gematon": ("GM-6.2", "GM-6.1"), "threemagic": ("T-10.2", "T-10.1"),
         "vectron": ("V-7.2", "V-7.1"), "gizmos": ("Z-12", "Z-2")}


def bare(move: dict) -> dict:
    return {k: v for k, v in move.items() if k != "p"}


def entrant_of(engine, state):
    awaited = engine.awaiting(state)
    return None if awaited == TABLE else awaited


def play_until(engine, state, rnd, done, steps=3000):
    """Play true outcomes (as the real components would give them) and random moves, each
    entered by its entrant, until ``done(state)``."""
    for _ in range(steps):
        if done(state) or not state["to_move"]:
            return state
        state = step(engine, state, rnd)
    raise AssertionError("never reached")


def step(engine, state, rnd):
    """One step: a true outcome entered by its entrant, or a random move of its seat."""
    moves = engine.legal_moves(state)
    if state["to_move"] == [CHANCE]:
        return engine.apply(state, bare(choose_move(engine, state, moves, rnd)),
                            entrant=entrant_of(engine, state))[0]
    return engine.apply(state, rnd.choice(moves))[0]


def private_point(engine, rnd):
    """A companion game at its first private entry."""
    state = engine.new(engine.max_players, mode="companion")
    return play_until(engine, state, rnd, lambda s: engine.awaiting(s) not in (None, TABLE))


@pytest.mark.parametrize("game", sorted(RULES))
def test_a_private_outcome_is_awaited_from_its_receiver_alone(game):
    """GM-6.2, T-10.2, V-7.2, Z-12: a card or chip into a hand is entered only by the seat
    it goes to; the views say whose entry is awaited and list it to that seat alone."""
    engine = GAMES[game]
    state = private_point(engine, random.Random(game))
    receiver = engine.awaiting(state)
    for seat in [None, *range(1, state["players"] + 1)]:
        assert engine.view(state, seat)["awaiting"] == receiver
        listed = engine.view_listing(state, engine.legal_moves(state, seat), seat)
        assert bool(listed) == (seat == receiver), seat
    truth = bare(engine.legal_moves(state)[0])
    assert any(canonical(truth) == canonical(m) for m in engine.entries(state, receiver)), \
        "every true outcome is listed to its receiver"
    for other in [None, *(s for s in range(1, state["players"] + 1) if s != receiver)]:
        with pytest.raises(NotYourEntry):
            engine.apply(state, truth, entrant=other)
    engine.apply(state, truth, entrant=receiver)


@pytest.mark.parametrize("game", sorted(RULES))
def test_the_table_is_listed_public_entries_counted_over_the_public_only(game):
    """GM-6.1, T-10.1, V-7.1, Z-2: a public outcome is entered by the table or any seat;
    what the table is listed does not depend on any hand (perturbed, the same)."""
    engine = GAMES[game]
    perturb, rnd = perturbation(engine), random.Random(game)
    state = engine.new(engine.max_players, mode="companion")
    publics = 0
    while state["to_move"] and publics < 5:
        if engine.awaiting(state) == TABLE:
            listed = engine.entries(state, None)
            assert listed and all("p" not in m for m in listed)
            for _ in range(3):
                assert engine.entries(perturb(state, None, rnd), None) == listed
            publics += 1
        state = step(engine, state, rnd)
    assert publics, "no public entry in the game"


def test_T_10_1_impossible_and_conflicting_entries_say_nothing_of_other_hands():
    """Three Magic: a kind all of whose copies the entrant sees is impossible (the message
    counts what it sees); a kind whose last copies another seat entered is a conflict
    (named neither). Both with T-10.1."""
    engine = GAMES["threemagic"]
    rnd = random.Random(3)
    state = engine.new(3, mode="companion")
    checked = set()
    while engine.awaiting(state) is not None and len(checked) < 2:
        seat = engine.awaiting(state)
        if seat != TABLE:
            mine = {m["card"] for m in engine.entries(state, seat)}
            true = {m["card"] for m in engine.legal_moves(state)}
            shape = bare(engine.legal_moves(state)[0])
            kinds = {m["card"] for m in engine.entries(state, None)} | set(
                state["hands"][seat - 1])
            for card in sorted(kinds - mine)[:1]:
                with pytest.raises(ImpossibleEntry) as refused:
                    engine.apply(state, dict(shape, card=card), entrant=seat)
                assert refused.value.rule == "T-10.1" and "your hand" in refused.value.detail
                checked.add("impossible")
            for card in sorted(mine - true)[:1]:
                with pytest.raises(EntryConflict) as refused:
                    engine.apply(state, dict(shape, card=card), entrant=seat)
                assert refused.value.rule == "T-10.1" and card not in refused.value.detail
                checked.add("conflict")
            # the seat is dealt what the others hold most of: conflicts come soon
            others = [h for n, h in enumerate(state["hands"], 1) if n != seat]
            card = max(true, key=lambda c: (sum(h.count(c) for h in others), c))
            state = engine.apply(state, dict(shape, card=card), entrant=seat)[0]
        else:
            state = step(engine, state, rnd)
    assert checked == {"impossible", "conflict"}, checked


def test_GM_3_3_a_push_is_checked_against_the_hand_entered():
    """Gematon: after the seat entered its hand chips, a push of a chip it did not enter is
    refused under GM-3.3 (the referee checks the claim)."""
    engine = GAMES["gematon"]
    rnd = random.Random(5)
    state = play_until(engine, engine.new(2, mode="companion"), rnd,
                       lambda s: s["to_move"] not in ([CHANCE], []) and s["phase"] == "play"
                       and any(m["type"] == "push" for m in engine.legal_moves(s)))
    seat = state["to_move"][0]
    hand = state["seats"][seat - 1]["hand"]
    missing = next(v for v in range(1, 10) if v not in hand)
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, {"type": "push", "seat": seat, "chip": missing})
    assert refused.value.rule == "GM-3.3"
