"""Vectron's bots (``vectron.bots``, ``referee.bots``): worlds, legal play, fairness.

A seat sees only the sizes of the other hands and of the deck (V-7.2): a world
deals the cards it cannot see anew, and the bot's choice must not depend on them.
"""

import random
from collections import Counter

import pytest
from referee.botcheck import check_fair, check_samples, play_bots, positions
from referee.bots import Budget, choose
from referee.errors import InvalidState
from vectron import bots
from vectron.engine import Vectron

GAME = Vectron()
QUICK = Budget(iterations=12, seconds=None)


@pytest.mark.parametrize("players,mode", [(2, "digital"), (3, "tabletop"), (4, "digital")])
def test_V_7_2_worlds_show_each_seat_its_view_and_deal_the_rest_anew(players, mode):
    rnd, resampled = random.Random(1), 0
    for number, state in enumerate(positions(GAME, players, seed=3, mode=mode)):
        if number % 4 == 0:
            resampled += check_samples(GAME, state, rnd)
        if number > 200:
            break
    assert resampled, "no world ever dealt the hidden cards differently"


def test_V_7_2_a_world_deals_exactly_the_unseen_cards():
    state = next(s for s in positions(GAME, 3, seed=7) if s["phase"] == "move")
    seat = state["to_move"][0]
    world = bots.sample_world(GAME.view(state, seat), seat, random.Random(4))
    hidden = lambda s: Counter(s["deck"] + [
        c for k, hand in enumerate(s["hands"], 1) if k != seat for c in hand])
    assert hidden(world) == hidden(state)
    assert [len(h) for h in world["hands"]] == [len(h) for h in state["hands"]]
    assert world["hands"][seat - 1] == state["hands"][seat - 1]


def test_V_1_4_a_view_showing_more_cards_than_the_game_has_is_refused():
    state = next(s for s in positions(GAME, 2, seed=7) if s["phase"] == "move")
    seat = state["to_move"][0]
    view = GAME.view(state, seat)
    view["columns"] = [["S"] * 4 for _ in view["columns"]]  # 8 swap cards: there are 6
    with pytest.raises(InvalidState):
        choose(GAME, view, seat, "random", 1, QUICK)


@pytest.mark.parametrize("players,mode", [(2, "digital"), (3, "tabletop")])
def test_bots_play_only_legal_moves_to_the_end(players, mode):
    levels = dict(enumerate(("strong", "greedy", "random")[:players], 1))
    final, decisions = play_bots(GAME, players, 5, levels, QUICK, mode)
    assert final["phase"] == "over" and decisions > 0


def test_V_7_2_the_choice_ignores_the_other_hands_and_the_deck():
    rnd, changed = random.Random(2), 0
    for number, state in enumerate(positions(GAME, 3, seed=8)):
        if state["to_move"] and number % 3 == 1 and len(GAME.legal_moves(state)) > 1:
            changed += check_fair(GAME, state, state["to_move"][0], rnd, QUICK, seed=number)
        if changed >= 8:
            break
    assert changed >= 8


def test_a_pending_settlement_counts_before_it_is_scored():
    """V-6.2: the gauges as they stand promise points; the bots count part of them."""
    state = next(s for s in positions(GAME, 2, seed=9) if s["phase"] == "move")
    seat = state["to_move"][0]
    ahead = dict(state, gauges=[3 if k == seat else 0 for k in (1, 2)])
    assert bots.evaluate(ahead, seat) - bots.evaluate(dict(state, gauges=[0, 0]), seat) == \
        pytest.approx(3 * bots.PENDING_SETTLEMENT)
