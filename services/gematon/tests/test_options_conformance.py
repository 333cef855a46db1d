"""Options: every option set that cannot make a game is refused, naming the option and
the rule; every other one plays to its end and passes the project's conformance checks
(the generic suite plays the defaults only)."""

import pytest

from gematon.board import FANO_LINES
from gematon.engine import Gematon
from gematon.hidden import perturb_hidden
from referee import conformance
from referee.engine import Option
from referee.errors import InvalidOptions

RING = [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6], [5, 6, 0], [6, 0, 1]]
# cell 6 on no line: it never completes a set, the game still ends after 7 rounds
LONELY_CELL = [[0, 1, 2], [0, 1, 3], [0, 1, 4], [0, 1, 5], [2, 3, 4], [2, 3, 5], [3, 4, 5]]

REFUSED = {
    "draft as text": ({"draft": "yes"}, "draft", "GM-2.1"),
    "draft as 1": ({"draft": 1}, "draft", "GM-2.1"),
    "six lines": ({"pentacle_lines": FANO_LINES[:6]}, "pentacle_lines", "GM-1.5"),
    "no lines": ({"pentacle_lines": []}, "pentacle_lines", "GM-1.5"),
    "a cell 7": ({"pentacle_lines": FANO_LINES[:6] + [[0, 2, 7]]}, "pentacle_lines",
                 "GM-1.5"),
    "a line of 2 cells": ({"pentacle_lines": FANO_LINES[:6] + [[0, 2]]}, "pentacle_lines",
                          "GM-1.5"),
    "a cell twice in a line": ({"pentacle_lines": FANO_LINES[:6] + [[2, 2, 6]]},
                               "pentacle_lines", "GM-1.5"),
    "a line twice": ({"pentacle_lines": FANO_LINES[:6] + [[3, 1, 0]]}, "pentacle_lines",
                     "GM-1.5"),
    "cells as text": ({"pentacle_lines": FANO_LINES[:6] + [["a", "b", "c"]]},
                      "pentacle_lines", "GM-1.5"),
    "six gauge cells": ({"blessing_values": [0, 1, 2, 3, 4, 5]}, "blessing_values", "GM-1.6"),
    "a negative cell": ({"blessing_values": [-1, 1, 2, 3, 4, 5, 6]}, "blessing_values",
                        "GM-1.6"),
    "a decreasing gauge": ({"blessing_values": [6, 5, 4, 3, 2, 1, 0]}, "blessing_values",
                           "GM-1.6"),
    "a cell beyond 1000": ({"blessing_values": [0, 1, 2, 3, 4, 5, 10 ** 40]},
                           "blessing_values", "GM-1.6"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
@pytest.mark.parametrize("players", [2, 4])
def test_option_sets_that_cannot_make_a_game_are_refused(case, players):
    """GM-1.5, GM-1.6, GM-2.1: refused with the option's name and the rule it breaks."""
    options, name, rule = REFUSED[case]
    with pytest.raises(InvalidOptions) as refused:
        Gematon().new(players, seed=1, options=options)
    assert refused.value.code == "invalid_options"
    assert refused.value.rule == rule
    assert name in refused.value.detail and "['" not in refused.value.detail


SANE = {
    "draft, ring, steep": {"draft": True, "pentacle_lines": RING,
                           "blessing_values": [0, 1, 1, 3, 3, 6, 9]},
    "lonely cell, worthless gauge": {"pentacle_lines": LONELY_CELL,
                                     "blessing_values": [0] * 7},
    "the steepest gauge": {"blessing_values": [0, 0, 0, 0, 0, 0, 1000]},
}


def engine_with(options: dict) -> Gematon:
    """Gematon whose defaults are ``options``: the conformance suite plays the defaults."""
    defaults = dict(Gematon.options)
    for name, value in options.items():
        defaults[name] = Option(value, name)
    return type("Configured", (Gematon,), {"options": defaults})()


@pytest.mark.parametrize("mode", ["digital", "tabletop"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("case", sorted(SANE))
def test_GM_5_1_non_default_option_sets_play_to_the_end(case, players, mode):
    engine = engine_with(SANE[case])
    # the suite finds perturb_hidden in the engine class's module: Gematon's
    assert conformance.perturbation(engine) is perturb_hidden
    result = conformance.play_random_game(engine, players, seed=players, mode=mode)
    assert result.final["options"] == dict(Gematon().resolve_options(None, players),
                                           **SANE[case])
    assert result.final["phase"] == "over" and result.perturbed > 0
    assert all(None not in seat["pentacle"] for seat in result.final["seats"])
    if SANE[case].get("draft"):
        assert None not in result.final["witches"]
        assert len(result.final["removed_witches"]) == 6 - players
