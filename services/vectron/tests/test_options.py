"""V-1.3, V-1.4, V-5.6: option sets that cannot be set up, or with which the game could not
end, are refused; sane non-default sets play to the end."""

import random

import pytest

from referee.conformance import play_random_game
from referee.engine import CHANCE, Option
from referee.errors import InvalidOptions, InvalidState
from vectron.board import CELLS, DEFAULT_ACTION_CARDS, DEFAULT_MAP_CHIPS
from vectron.engine import Vectron
from vectron.options import cell_groups

ENGINE = Vectron()
NO_CARDS = dict.fromkeys(DEFAULT_ACTION_CARDS, 0)


def cards(**counts):
    return dict(NO_CARDS, **counts)


def chips(**counts):
    return dict(DEFAULT_MAP_CHIPS, **counts)


def engine_with(options):
    """A Vectron engine whose option defaults are ``options`` (play_random_game takes none)."""
    engine = Vectron()
    engine.options = {name: Option(options.get(name, opt.default), opt.description)
                      for name, opt in Vectron.options.items()}
    return engine


REFUSED = [  # players, options, the option the detail names, the rule it cites
    # cannot be set up
    (3, {"map_chips": chips(star1=5)}, "map_chips", "V-1.3"),
    (3, {"map_chips": chips(swap=3, star1=3)}, "map_chips", "V-1.3"),
    (3, {"map_chips": {"star1": 16}}, "map_chips", "V-1.3"),
    (3, {"map_chips": [4, 4, 4, 2, 2]}, "map_chips", "V-1.3"),
    (3, {"map_chips": chips(gate=-1, star1=7)}, "map_chips", "V-1.3"),
    (3, {"map_chips": chips(gate=True, star1=5)}, "map_chips", "V-1.3"),
    (3, {"map_chips": chips(star2=2, star1=6)}, "map_chips", "V-2.1"),
    (4, {"map_chips": chips(star2=3, star1=5)}, "map_chips", "V-2.1"),
    (2, {"action_cards": dict(DEFAULT_ACTION_CARDS, S=7)}, "action_cards", "V-1.4"),
    (2, {"action_cards": {"O1": 24}}, "action_cards", "V-1.4"),
    (2, {"action_cards": dict(DEFAULT_ACTION_CARDS, S=True)}, "action_cards", "V-1.4"),
    (2, {"just3_bonus": True}, "just3_bonus", "V-5.6"),
    # no gauge could rise: a 2-player game never ends, a 3–4-player one only ties
    (3, {"map_chips": chips(gate=0, star1=6)}, "map_chips", "V-1.3"),
    (2, {"action_cards": cards(S=24)}, "action_cards", "V-1.4"),  # the audit's example
    (4, {"action_cards": cards(S=24)}, "action_cards", "V-1.4"),
    (2, {"action_cards": cards(D1=6, D2=6, D3=6, S=6)}, "action_cards", "V-1.4"),
    (2, {"action_cards": cards(D1=8, D2=8, D3=8)}, "action_cards", "V-1.4"),
    (4, {"action_cards": cards(D3=24)}, "action_cards", "V-1.4"),
    (2, {"action_cards": cards(O2=12, S=12)}, "action_cards", "V-1.4"),
    (3, {"action_cards": cards(O3=12, D3=12)}, "action_cards", "V-1.4"),
    (2, {"action_cards": cards(O2=8, D2=8, S=8)}, "action_cards", "V-1.4"),
    # 8 gates: the 8 cells of one colour can still hold both pieces, both swaps, no gate
    (2, {"action_cards": cards(D1=6, D2=6, D3=6, S=6),
         "map_chips": chips(star1=1, star2=2, star3=3, gate=8)}, "action_cards", "V-1.4"),
]


@pytest.mark.parametrize("players, options, option, rule", REFUSED)
def test_V_1_3_and_V_1_4_option_sets_that_break_the_game_are_refused(players, options, option,
                                                                      rule):
    with pytest.raises(InvalidOptions) as caught:
        ENGINE.new(players, seed=1, options=options)
    refusal = caught.value
    assert refusal.code == "invalid_options" and refusal.rule == rule
    assert option in refusal.detail and "['" not in refusal.detail and "{'" not in refusal.detail
    state = ENGINE.new(players, seed=1)  # a state carrying such options is refused too
    with pytest.raises(InvalidState):
        ENGINE.check_state(dict(state, options=dict(state["options"], **options)))


def test_V_1_4_the_refusal_explains_the_cell_groups():
    """V-1.4: the detail says why: the groups a piece never leaves, and what to add."""
    with pytest.raises(InvalidOptions) as caught:
        ENGINE.new(2, options={"action_cards": cards(D1=6, D2=6, D3=6, S=6)})
    detail = caught.value.detail
    assert "D1, D2 and D3" in detail and "groups of 8 + 8 cells" in detail
    assert "both swap chips" in detail and "could never end" in detail and "O1" in detail
    with pytest.raises(InvalidOptions) as caught:
        ENGINE.new(2, options={"action_cards": cards(S=24)})
    assert "no O or D card" in caught.value.detail


def test_V_4_3_cell_groups_of_each_card_kind():
    """V-4.3: which cells one kind of card links (the wall kick keeps some apart)."""
    sizes = {kinds: sorted(len(g) for g in cell_groups(kinds)) for kinds in (
        ("O1",), ("O2",), ("O3",), ("D1",), ("D2",), ("D3",), ("O2", "O3"), ("O3", "D1"),
        ("O3", "D2"), ("D1", "D2", "D3"), ())}
    assert sizes == {("O1",): [16], ("O2",): [4] * 4, ("O3",): [4] * 4, ("D1",): [8, 8],
                     ("D2",): [4] * 4, ("D3",): [2] * 8, ("O2", "O3"): [16],
                     ("O3", "D1"): [16], ("O3", "D2"): [16], ("D1", "D2", "D3"): [8, 8],
                     (): [1] * 16}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mix", [cards(O1=24), cards(O2=12, O3=12), cards(O3=12, D1=12),
                                 cards(O3=12, D2=12), cards(O1=1, S=23)])
def test_V_1_4_mixes_that_reach_every_cell_are_accepted(players, mix):
    """V-1.4: the least mixes the refusal suggests (one O1 card is enough)."""
    assert ENGINE.new(players, seed=2, options={"action_cards": mix})["options"][
        "action_cards"] == mix


ACCEPTED = [  # sane non-default sets: seeded random games reach the end (V-6.4)
    (2, "digital", {"action_cards": cards(O1=24)}),
    (2, "tabletop", {"action_cards": cards(O3=12, D2=12)}),
    (3, "digital", {"action_cards": cards(O2=9, O3=9, S=6)}),
    # D cards keep a piece on its colour, but 9 gates put one in each colour's 8 cells
    (2, "digital", {"action_cards": cards(D1=6, D2=6, D3=6, S=6),
                    "map_chips": chips(star1=1, star2=2, star3=2, gate=9)}),
    (4, "digital", {"map_chips": chips(star1=0, star2=4, star3=0, gate=10)}),
]


@pytest.mark.parametrize("players, mode, options", ACCEPTED)
def test_V_6_4_sane_option_sets_play_to_the_end(players, mode, options):
    """V-6.4 with other mixes: the conformance playout ends with winners."""
    engine = engine_with(options)
    playout = play_random_game(engine, players, seed=3, mode=mode)
    assert playout.final["options"] == engine.resolve_options(None, players)
    assert playout.final["phase"] == "over" and max(playout.final["scores"]) >= 6


class Unchecked(Vectron):
    """Accepts any option set: to show what a refused one would do."""

    def _check_options(self, options, players):
        pass


def test_V_5_2_a_refused_mix_really_leaves_every_gauge_at_0():
    """V-5.2: only D cards and S cards, both pieces and both swap chips on dark cells,
    both gates on light ones: 3000 random steps later no gauge has ever risen and every
    settlement scored 0–0, so the game could never end."""
    engine = Unchecked()
    options = {"map_chips": DEFAULT_MAP_CHIPS, "just3_bonus": False,
               "action_cards": cards(D1=6, D2=6, D3=6, S=6)}
    state = engine.new(2, mode="tabletop", options=options)
    dark, light = cell_groups(("D1",))
    stars = ["star1"] * 4 + ["star2"] * 2 + ["star3"] * 4
    things = dict(zip(sorted(dark), ["seat1", "seat2", "swap", "swap", *stars[:4]]))
    things.update(zip(sorted(light), ["gate", "gate", *stars[4:]]))
    state = engine.apply(state, {"type": "layout", "seat": CHANCE, "cells": things})[0]
    assert sorted(things) == sorted(CELLS)
    rnd = random.Random(7)
    for _ in range(3000):
        moves = engine.legal_moves(state)
        state = engine.apply(state, rnd.choices(moves, [m.get("p", 1) for m in moves])[0])[0]
        assert state["gauges"] == [0, 0]
    assert len(state["settlements"]) >= 2 and state["scores"] == [0, 0]
    assert state["to_move"]
