"""Gematon's bots (``gematon.bots``, ``referee.bots``): worlds, legal play, fairness.

A seat sees only the sizes of the other hands and of the bag (GM-6.2): a world
deals the chips it cannot see anew, and the bot's choice must not depend on them.
"""

import random
from collections import Counter

import pytest
from gematon import bots
from gematon.board import CHIPS_PER_VALUE, VALUES
from gematon.engine import Gematon
from referee.botcheck import check_fair, check_samples, play_bots, positions
from referee.bots import Budget, choose
from referee.errors import InvalidState

GAME = Gematon()
QUICK = Budget(iterations=12, seconds=None)


@pytest.mark.parametrize("players,mode,draft", [(2, "digital", False), (3, "tabletop", True),
                                                (4, "digital", False)])
def test_GM_6_2_worlds_show_each_seat_its_view_and_deal_the_rest_anew(players, mode, draft):
    rnd, resampled = random.Random(1), 0
    game = positions(GAME, players, seed=3, mode=mode) if not draft else \
        draft_positions(players, mode)
    for number, state in enumerate(game):
        if number % 3 == 0:
            resampled += check_samples(GAME, state, rnd)
    assert resampled, "no world ever dealt the hidden chips differently"


def draft_positions(players, mode):
    rnd = random.Random(5)
    state = GAME.new(players, seed=4, mode=mode, options={"draft": True})
    while state["to_move"]:
        yield state
        moves = GAME.legal_moves(state)
        pick = rnd.choices(moves, [m.get("p", 1) for m in moves])[0]
        state = GAME.apply(state, {k: v for k, v in pick.items() if k != "p"})[0]


def test_GM_6_2_a_world_deals_exactly_the_unseen_chips():
    state = next(s for s in positions(GAME, 3, seed=7) if s["phase"] == "play"
                 and s["turn"]["round"] == 3)
    seat = state["to_move"][0]
    world = bots.sample_world(GAME.view(state, seat), seat, random.Random(4))
    hidden = lambda s: Counter(
        [int(v) for v, n in s["bag"].items() for _ in range(n)]
        + [c for k, m in enumerate(s["seats"], 1) if k != seat for c in m["hand"]])
    assert hidden(world) == hidden(state)
    assert sum(hidden(state).values()) == len(VALUES) * CHIPS_PER_VALUE - sum(
        len(m["stack"]) + sum(c is not None for c in m["pentacle"]) for m in state["seats"]) \
        - len(state["seats"][seat - 1]["hand"]) - sum(map(len, state["altars"].values()))


def test_GM_1_2_a_view_showing_more_chips_than_the_game_has_is_refused():
    state = next(s for s in positions(GAME, 2, seed=7) if s["phase"] == "play")
    seat = state["to_move"][0]
    view = GAME.view(state, seat)
    view["seats"][seat - 1]["hand"] = [8] * len(view["seats"][seat - 1]["hand"])
    view["altars"] = {altar: [8, 8] for altar in view["altars"]}
    with pytest.raises(InvalidState):
        choose(GAME, view, seat, "random", 1, QUICK)


@pytest.mark.parametrize("players,mode", [(2, "digital"), (3, "tabletop")])
def test_bots_play_only_legal_moves_to_the_end(players, mode):
    levels = dict(enumerate(("strong", "greedy", "random")[:players], 1))
    final, decisions = play_bots(GAME, players, 5, levels, QUICK, mode)
    assert final["phase"] == "over" and decisions >= 7 * players  # 7 rounds (GM-5.1)


def test_GM_6_2_the_choice_ignores_the_other_hands_and_the_bag():
    rnd, changed = random.Random(2), 0
    for number, state in enumerate(positions(GAME, 3, seed=8)):
        if state["to_move"] and number % 3 == 1 and len(GAME.legal_moves(state)) > 1:
            changed += check_fair(GAME, state, state["to_move"][0], rnd, QUICK, seed=number)
    assert changed >= 5
