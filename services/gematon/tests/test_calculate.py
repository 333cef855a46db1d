"""The score helper (/v1/calculate) scores every reading the rules can produce and refuses,
with the rule it breaks, every reading they cannot (RULES.md, "Score helper")."""

import itertools
import random

import pytest

from gematon.board import FANO_LINES, GAUGE_VALUES
from gematon.engine import Gematon
from gematon.scoring import blessing_bounds
from referee.errors import InvalidInput

GAME = Gematon()
EXAMPLE = [1, 1, 1, 1, 2, 7, 8]  # the rulebook's: 4 distinct values (GM-5.2)
TWOS = [2] * 7
SIX = [1, 2, 4, 5, 7, 8, 1]  # every value: gauge 6
ZERO = {"blessing_values": [0] * 7}
RING = [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6], [5, 6, 0], [6, 0, 1]]


def seats(*readings):
    """``(track, pentacle)`` or ``(track, pentacle, gauge)`` per seat, from seat 1 on."""
    return [dict(zip(("track", "pentacle", "gauge"), r), seat=n)
            for n, r in enumerate(readings, 1)]



def orders_blessings(pentacle, lines, values):
    """GM-3.6 played out for each of the 7! orders of filling the cells: (total, turns)."""
    for order in itertools.permutations(range(7)):
        filled, total, turns = set(), 0, 0
        for cell in order:
            filled.add(cell)
            if any(cell in line and set(line) <= filled for line in lines):
                total += values[len({pentacle[c] for c in filled})]
                turns += 1
        yield total, turns


@pytest.mark.parametrize("pentacle, lines, values", [
    (EXAMPLE, FANO_LINES, GAUGE_VALUES), (TWOS, FANO_LINES, GAUGE_VALUES),
    (SIX, FANO_LINES, [0, 1, 1, 3, 3, 6, 9]), ([4, 8, 4, 8, 5, 5, 1], RING, GAUGE_VALUES),
])
def test_GM_3_6_blessing_bounds_are_those_of_every_order_of_placement(pentacle, lines, values):
    played = list(orders_blessings(pentacle, lines, values))
    bounds = blessing_bounds(pentacle, lines, values)
    assert bounds.least == min(t for t, _ in played)
    assert bounds.most == max(t for t, _ in played)
    assert bounds.turns == max(n for _, n in played)


# With the default options EXAMPLE's blessings add up to 9..16 over at most 4 turns and
# TWOS's to 3..4 (GM-3.6): two such pawns, starting on 0 and 1, add up to 13..29 (every
# overshoot counted), and neither passes 1 + 16 + 4 = 21.
def test_GM_3_6_the_bounds_the_tables_below_rely_on():
    assert blessing_bounds(EXAMPLE, FANO_LINES, GAUGE_VALUES) == (9, 16, 4)
    assert blessing_bounds(TWOS, FANO_LINES, GAUGE_VALUES) == (3, 4, 4)

IMPOSSIBLE = {
    "seats 1 and 3": ({"seats": [dict(s, seat=2 * s["seat"] - 1)
                                 for s in seats((12, EXAMPLE), (3, TWOS))]}, "GM-1.1"),
    "a seat twice in turn_order": ({"seats": seats((12, EXAMPLE), (3, TWOS)),
                                    "turn_order": [1, 1]}, "GM-5.3"),
    "a negative track": ({"seats": seats((-1, EXAMPLE), (3, TWOS))}, "GM-1.7"),
    "a track as text": ({"seats": seats(("12", EXAMPLE), (3, TWOS))}, "GM-1.7"),
    "a pentacle of 6 chips": ({"seats": seats((12, EXAMPLE[:6]), (3, TWOS))}, "GM-5.1"),
    "a chip 3": ({"seats": seats((12, [3, 1, 1, 1, 2, 7, 8]), (3, TWOS))}, "GM-1.2"),
    "a chip as text": ({"seats": seats((12, ["1", 1, 1, 1, 2, 7, 8]), (3, TWOS))}, "GM-1.2"),
    "ten chips 1": ({"seats": seats((12, EXAMPLE), (13, [1, 1, 1, 1, 1, 1, 2]))}, "GM-1.2"),
    "gauge cell 7": ({"seats": seats((12, EXAMPLE, 7), (3, TWOS))}, "GM-1.6"),
    "gauge 5 with 6 values": ({"seats": seats((20, SIX, 5), (17, TWOS))}, "GM-3.4"),
    "gauge 3 with 4 values": ({"seats": seats((12, EXAMPLE, 3), (3, TWOS))}, "GM-3.4"),
    "gauge 0 on a full pentacle": ({"seats": seats((12, EXAMPLE), (3, TWOS, 0))}, "GM-3.4"),
    "two pawns on one square": ({"seats": seats((12, EXAMPLE), (12, TWOS))}, "GM-3.7"),
    "never blessed: tracks 1 and 0": ({"seats": seats((1, EXAMPLE), (0, TWOS))}, "GM-3.6"),
    "tracks add up to 12, less than 13": ({"seats": seats((9, EXAMPLE), (3, TWOS))},
                                          "GM-3.6"),
    "tracks add up to 30, more than 29": ({"seats": seats((21, EXAMPLE), (9, TWOS))},
                                          "GM-3.6"),
    "a track of 22, beyond 21": ({"seats": seats((22, EXAMPLE), (0, TWOS))}, "GM-3.6"),
    "four pawns on their starts": ({"seats": seats((0, EXAMPLE), (1, TWOS), (2, [8] * 7),
                                                   (3, [4] * 7))}, "GM-3.6"),
    "worthless blessings, yet a pawn moved on": (
        {"seats": seats((5, EXAMPLE), (0, TWOS)), "options": ZERO}, "GM-3.6"),
    "the old GM-5.4 example: 45 and 25": ({"seats": seats((45, EXAMPLE), (25, EXAMPLE))},
                                          "GM-3.6"),
}


@pytest.mark.parametrize("case", sorted(IMPOSSIBLE))
def test_GM_3_6_the_score_helper_refuses_readings_the_rules_cannot_produce(case):
    body, rule = IMPOSSIBLE[case]
    with pytest.raises(InvalidInput) as refused:
        GAME.calculate(body)
    assert refused.value.rule == rule, refused.value.detail
    assert refused.value.code == "invalid_input"
    detail = refused.value.detail
    assert detail[0].isalpha() and "['" not in detail and "None" not in detail, detail


POSSIBLE = {
    "the rulebook's example": {"seats": seats((12, EXAMPLE), (3, TWOS))},
    "the least the blessings add": {"seats": seats((13, EXAMPLE), (0, TWOS))},
    "the most, every overshoot counted": {"seats": seats((21, EXAMPLE), (8, TWOS))},
    "the highest track": {"seats": seats((0, EXAMPLE), (21, TWOS))},
    "the gauge given as GM-3.4 makes it": {"seats": seats((12, EXAMPLE, 4), (3, TWOS, 1))},
    "worthless blessings: pawns on their starts": {"seats": seats((1, EXAMPLE), (0, TWOS)),
                                                   "options": ZERO},
    "four players": {"seats": seats((20, SIX), (9, TWOS), (11, [4] * 7), (15, [8] * 7))},
}


@pytest.mark.parametrize("case", sorted(POSSIBLE))
def test_GM_5_2_the_score_helper_scores_every_possible_reading(case):
    body = POSSIBLE[case]
    answer = GAME.calculate(body)
    assert answer["final"] is True and len(answer["winners"]) == 1
    for reading, score in zip(body["seats"], answer["scores"]):
        assert score["breakdown"]["track"] == reading["track"]
        assert score["breakdown"]["gauge_cell"] == len(set(reading["pentacle"]))


LONELY_CELL = [[0, 1, 2], [0, 1, 3], [0, 1, 4], [0, 1, 5], [2, 3, 4], [2, 3, 5], [3, 4, 5]]


@pytest.mark.parametrize("options", [
    {}, {"draft": True}, {"pentacle_lines": RING, "blessing_values": [0, 1, 1, 3, 3, 6, 9]},
    {"pentacle_lines": LONELY_CELL}, ZERO, {"blessing_values": [0, 0, 0, 0, 0, 0, 1000]},
], ids=["default", "draft", "ring", "lonely-cell", "zero", "steep"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_GM_3_6_every_finished_game_reads_as_a_possible_tally(players, options):
    """What a played game leaves on the table is accepted and scores as the game did."""
    for seed in range(6):
        rnd = random.Random(seed)
        state = GAME.new(players, seed=seed, options=options)
        while state["to_move"]:
            moves = GAME.legal_moves(state)
            state, _ = GAME.apply(state, rnd.choice(moves))
        readings = [{"seat": n, "track": s["position"], "pentacle": s["pentacle"],
                     "gauge": s["gauge"]} for n, s in enumerate(state["seats"], 1)]
        answer = GAME.calculate({"seats": readings, "options": options})
        assert answer["scores"] == GAME.score(state)["scores"]
