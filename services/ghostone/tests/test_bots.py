"""Ghostone's bots (``ghostone.bots``, ``referee.bots``): worlds, legal play, fairness.

Ghostone hides nothing but the generator (G-8.2), so a world is the view with
a fresh generator, and the bot's choice must not depend on the die rolls the
session's generator holds for the future (G-8.1).
"""

import random

import pytest
from ghostone import bots
from ghostone.engine import Ghostone
from referee.botcheck import check_fair, check_samples, play_bots, positions
from referee.bots import Budget
from referee.engine import canonical

GAME = Ghostone()
QUICK = Budget(iterations=12, seconds=None)


@pytest.mark.parametrize("players,mode", [(3, "digital"), (4, "tabletop")])
def test_G_8_2_a_world_is_the_view_itself_with_a_fresh_generator(players, mode):
    rnd = random.Random(1)
    for number, state in enumerate(positions(GAME, players, seed=3, mode=mode)):
        if number % 4 == 0:
            check_samples(GAME, state, rnd)
            world = bots.sample_world(GAME.view(state, 1), 1, rnd)
            assert canonical(dict(world, rng=None)) == canonical(dict(state, rng=None))
            assert (world["rng"] is None) == (mode == "tabletop")
            if mode == "digital":
                assert world["rng"] != state["rng"], "the generator is resampled, never read"


@pytest.mark.parametrize("players,mode,levels", [
    (3, "digital", ("strong", "greedy", "random")),
    (4, "tabletop", ("random", "strong", "greedy", "strong")),
])
def test_bots_play_only_legal_moves_to_the_end(players, mode, levels):
    final, decisions = play_bots(GAME, players, 5, dict(enumerate(levels, 1)), QUICK, mode)
    assert not final["to_move"] and decisions >= 9  # the placements (G-2.2) and more
    assert GAME.score(final)["final"]


def test_G_8_1_the_choice_ignores_the_future_die_rolls():
    """The generator decides the ghost's future rolls: the bot never sees it."""
    rnd, checked = random.Random(2), 0
    for number, state in enumerate(positions(GAME, 3, seed=8)):
        if state["to_move"] and number % 5 == 2 and len(GAME.legal_moves(state)) > 1:
            assert check_fair(GAME, state, state["to_move"][0], rnd, QUICK, seed=number)
            checked += 1
    assert checked >= 5


def test_the_rocks_under_a_piece_count_for_its_seat():
    """G-5.2: a piece's escape scores the rocks it stands on: they are worth something now."""
    state = next(s for s in positions(GAME, 3, seed=4) if s["phase"] == "play")
    seat = state["to_move"][0]
    plate = state["pieces"][seat - 1][0]
    richer = dict(state, rocks=dict(state["rocks"], **{plate: state["rocks"][plate] + 2}))
    assert bots.evaluate(richer, seat) == bots.evaluate(state, seat) + 2 * bots.ROCK_UNDER_PIECE


def test_G_5_2_playouts_take_the_richest_escape_on_offer():
    state = {"rocks": {"a1": 5, "b1": 0, "a2": 1}, "escapes": [], "pieces": [["a1", "a2"], []]}
    moves = [{"type": "move", "seat": 1, "from": "a2", "to": "b1", "rock": None},
             {"type": "move", "seat": 1, "from": "a1", "to": "b1", "rock": None},
             {"type": "move", "seat": 1, "from": "a1", "to": "a2", "rock": None}]
    rnd = random.Random(0)
    picked = [bots.playout_move(state, 1, moves, rnd) for _ in range(200)]
    assert picked.count(moves[1]) > 150 and moves[2] in picked  # now and then any move


def test_G_4_2_a_move_gains_the_rocks_it_steps_onto_and_where_its_rock_lands():
    """Off an escape, a move gains the richer plate (G-5.2 counts them later) and loses when
    its pushed rock (G-4.2) lands under another seat's piece."""
    state = {"rocks": {"b2": 1, "b3": 4, "c2": 2, "a2": 3}, "escapes": [{}],
             "pieces": [["b2", "c2"], ["a2"], []]}
    north = {"type": "move", "seat": 1, "from": "b2", "to": "b3"}
    half = bots.ROCK_UNDER_PIECE
    assert bots.move_gain(state, 1, dict(north, rock="N")) == half * 3 + half  # under itself
    assert bots.move_gain(state, 1, dict(north, rock="E")) == half * 3 + half  # under c2
    assert bots.move_gain(state, 1, dict(north, rock="W")) == half * 3 - half  # under seat 2
    assert bots.move_gain(state, 1, dict(north, rock="S")) == half * 3
    escape = {"type": "move", "seat": 2, "from": "a2", "to": "a1", "rock": None}
    state["rocks"]["a1"] = 0  # the second escape of the game: 3 points and a bonus of 2
    assert bots.move_gain(state, 2, escape) == 3 + 2 - half * 3


def test_G_7_1_the_search_counts_what_a_standing_piece_has_still_to_come():
    """A seat whose pieces are out scores nothing more (G-7.1 ends the game only when one
    seat's pieces are left): the search's cut-off judgement counts each standing piece
    ``STANDING_PIECE`` beyond greedy's ``evaluate``, so an escape's bonus (G-5.3) is
    weighed against the piece it takes off the board."""
    state = next(s for s in positions(GAME, 3, seed=4) if s["phase"] == "play")
    assert not state["escapes"] and all(len(plates) == 3 for plates in state["pieces"])
    for seat in (1, 2, 3):  # as many pieces each: the same judgement
        assert bots.cutoff_evaluate(state, seat) == bots.evaluate(state, seat)
    plate = state["pieces"][0][0]
    escaped = dict(state, pieces=[state["pieces"][0][1:]] + state["pieces"][1:],
                   escapes=[{"seat": 1, "points": state["rocks"][plate], "bonus": 3}])
    assert bots.cutoff_evaluate(escaped, 1) == bots.evaluate(escaped, 1) - bots.STANDING_PIECE
