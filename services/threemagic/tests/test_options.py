"""T-1.1, T-1.3, T-3.3, T-7.2, T-9.1: no option set makes the game impossible to set up or
endless; sane non-default sets play to the end."""

import pytest

from referee import conformance
from referee.errors import InvalidOptions
from threemagic.engine import ThreeMagic

ZERO_TABLES = {"attribute_points": [0, 0, 0], "star_points": [0, 0, 0],
               "number_points": {"same": [0, 0], "sequence": [0, 0], "mixed": [0, 0]}}

REFUSED = [  # options, the option the detail names, the rule it cites
    # cannot be set up
    ({"unused_cards": 0}, "unused_cards", "T-3.3"),  # no card to turn as the 1st indicator
    ({"unused_cards": 36}, "unused_cards", "T-3.3"),  # no draw pile: the manager cannot draw
    ({"unused_cards": 40}, "unused_cards", "T-3.3"),  # not even the 24 cards of the deal
    ({"unused_cards": 6.0}, "unused_cards", "T-3.3"),
    ({"attributes": ["water", "water", "wood"]}, "attributes", "T-1.1"),  # no fire seat
    ({"attributes": ["fire", "water"]}, "attributes", "T-1.1"),  # a seat without attribute
    ({"starting_od": -10}, "starting_od", "T-1.3"),  # over before the first match
    ({"starting_od": "270"}, "starting_od", "T-1.3"),
    # endless: the manager role never returns a 0th (or -1st) time
    ({"rotations": 0}, "rotations", "T-9.1"),
    ({"rotations": -1}, "rotations", "T-9.1"),
    ({"rotations": True}, "rotations", "T-9.1"),
    # a win that pays its losers
    ({"attribute_points": [10, 30, -90]}, "attribute_points", "T-7.2"),
    ({"number_points": {"same": [60, 180]}}, "number_points", "T-7.2"),
    ({"star_points": [10, 30]}, "star_points", "T-7.2"),
]


@pytest.mark.parametrize("options, name, rule", REFUSED)
def test_T_3_3_T_9_1_option_sets_that_cannot_set_up_or_end_are_refused(options, name, rule):
    with pytest.raises(InvalidOptions) as caught:
        ThreeMagic().new(3, seed=1, options=options)
    assert caught.value.extra["rule"] == rule
    detail = caught.value.detail
    assert detail.startswith(name) and "[" not in detail and "{" not in detail


SANE = {
    "short draw pile, 2 rotations, no od": {"unused_cards": 30, "rotations": 2,
                                            "starting_od": 0},
    "no riichi indicator, another first manager": {"unused_cards": 1,
                                                   "attributes": ["wood", "fire", "water"]},
    "every win a special draw": dict(ZERO_TABLES, starting_od=20),
    "rich tables, 3 rotations": {"rotations": 3, "starting_od": 1000,
                                 "attribute_points": [100, 300, 900], "star_points": [1, 2, 3],
                                 "number_points": {"same": [1000, 5000], "sequence": [5, 6],
                                                   "mixed": [0, 0]}},
}


@pytest.mark.parametrize("case", sorted(SANE))
def test_T_9_1_sane_non_default_option_sets_play_to_the_end(case):
    engine = ThreeMagic()
    for seed, mode in ((1, "digital"), (2, "tabletop")):
        result = conformance.play_random_game(engine, 3, seed, mode, deep=False,
                                              options=SANE[case])
        assert result.final["phase"] == "over" and result.score["winners"]
        assert result.final["options"] == dict(engine.resolve_options(None, 3), **SANE[case])
