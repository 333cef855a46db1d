"""The score helper (/v1/calculate): it scores every record the rules can produce and
refuses, with the rule it breaks, every record they cannot (RULES.md, referee decisions)."""

import pytest

from ghostone.engine import Ghostone
from ghostone.service import create_app
from referee.errors import BadRequest, InvalidInput, InvalidPlayers

GAME = Ghostone()


def escapes(*entries):
    """``(seat, points)`` or ``(seat, points, plate)`` → the helper's escape objects."""
    return [dict(zip(("seat", "points", "plate"), entry)) for entry in entries]


# A legal opening: three escapes of 1 point each bring the ghost.
OPENING = [(1, 1), (2, 1), (3, 1)]

IMPOSSIBLE = {
    # G-2.1: seats are 1..players
    "seat 5 of 4": (4, escapes((5, 1)), "G-2.1"),
    "seat 0": (3, escapes((0, 1)), "G-2.1"),
    "seat as text": (3, [{"seat": "1", "points": 1}], "G-2.1"),
    # G-1.3: a seat escapes at most the pieces it owns
    "a 3rd piece of a 4-player seat": (4, escapes((1, 1), (1, 1), (1, 1)), "G-1.3"),
    "a 4th piece of a 3-player seat": (3, escapes((1, 1), (1, 1), (1, 1), (1, 1)), "G-1.3"),
    # G-7.1: the game is over once the pieces left are one seat's
    "4 players: an escape after the end": (
        4, escapes((1, 1), (1, 1), (2, 1), (2, 1), (3, 1), (3, 1), (4, 1)), "G-7.1"),
    "3 players: every piece escapes": (
        3, escapes((1, 1), (1, 1), (1, 1), (2, 1), (2, 1), (2, 1), (3, 1), (3, 1), (3, 1)),
        "G-7.1"),
    # G-5.2: before the ghost a piece always stands on a rock
    "a first escape of 0 points": (4, escapes((1, 0)), "G-5.2"),
    "a third escape of 0 points": (3, escapes((1, 2), (2, 2), (3, 0)), "G-5.2"),
    # G-5.2: … and every other piece keeps a rock of the setup's 40 (4p) or 43 (3p)
    "4 players: first escape of 34 (7 pieces keep a rock)": (4, escapes((1, 34)), "G-5.2"),
    "3 players: first escape of 36 (8 pieces keep a rock)": (3, escapes((1, 36)), "G-5.2"),
    "4 players: third escape of 36": (4, escapes((1, 1), (2, 1), (3, 36)), "G-5.2"),
    # G-5.2: no escape counts more rocks than the setup put on the board
    "4 players: a later escape of 41": (4, escapes(*OPENING, (4, 41)), "G-5.2"),
    "3 players: a later escape of 44": (3, escapes(*OPENING, (1, 44)), "G-5.2"),
    "negative points": (4, escapes(*OPENING, (1, -1)), "G-5.2"),
    "points as a float": (4, [{"seat": 1, "points": 2.0}], "G-5.2"),
    "points as a boolean": (4, [{"seat": 1, "points": True}], "G-5.2"),
    "points missing": (4, [{"seat": 1}], "G-5.2"),
    # G-1.1 and G-1.2: a named plate exists, and flips once
    "an unknown plate": (4, escapes((1, 1, "e5")), "G-1.1"),
    "one plate twice": (4, escapes((1, 1, "c3"), (2, 1, "c3")), "G-1.2"),
}


@pytest.mark.parametrize("case", sorted(IMPOSSIBLE))
def test_G_5_2_the_score_helper_refuses_records_the_rules_cannot_produce(case):
    players, record, rule = IMPOSSIBLE[case]
    with pytest.raises(InvalidInput) as refused:
        GAME.calculate({"players": players, "escapes": record})
    assert refused.value.rule == rule, refused.value.detail
    assert refused.value.code == "invalid_input"
    detail = refused.value.detail
    assert detail[0].isalpha() and "['" not in detail and "None" not in detail, detail


POSSIBLE = {
    "nothing escaped yet": (3, []),
    "4 players: first escape at its most": (4, escapes((1, 33))),
    "3 players: first escape at its most": (3, escapes((2, 35))),
    "3 players: third escape at its most": (3, escapes((1, 1), (2, 1), (3, 37))),
    "0 points once the ghost is out": (4, escapes(*OPENING, (4, 0))),
    "4 players: every rock of the setup once the ghost is out": (
        4, escapes(*OPENING, (4, 40))),
    "3 players: every rock of the setup once the ghost is out": (
        3, escapes(*OPENING, (1, 43))),
    "4 players: the longest game, one piece left": (
        4, escapes((4, 1), (1, 1), (1, 1), (2, 1), (2, 1), (3, 1), (3, 5))),
    "3 players: the longest game, one piece left": (
        3, escapes((3, 2), (3, 2), (1, 2), (1, 2), (1, 2), (2, 2), (2, 2), (2, 2))),
    "plates named, each once": (4, escapes((1, 4, "c3"), (2, 2, "a1"), (1, 3))),
}


@pytest.mark.parametrize("case", sorted(POSSIBLE))
def test_G_7_3_the_score_helper_scores_every_possible_record(case):
    players, record = POSSIBLE[case]
    board = GAME.calculate({"players": players, "escapes": record})
    assert board["final"] is True
    for seat in range(1, players + 1):
        numbers = [n for n, e in enumerate(record, 1) if e["seat"] == seat]
        points = sum(record[n - 1]["points"] for n in numbers)
        bonus = sum((3, 2, 1)[n - 1] for n in numbers if n <= 3)  # G-5.3
        assert board["scores"][seat - 1]["total"] == points + bonus


def test_G_5_3_the_score_helper_adds_the_bonuses_in_the_recorded_order():
    board = GAME.calculate({"players": 4, "escapes": escapes((2, 4), (1, 2), (2, 1), (4, 5))})
    totals = {s["seat"]: s["total"] for s in board["scores"]}
    assert totals == {1: 2 + 2, 2: 4 + 3 + 1 + 1, 3: 0, 4: 5}
    assert board["final"] is True and board["winners"] == [2]


def test_G_1_3_the_score_helper_takes_3_or_4_players():
    for players in (2, 5, "4", None):
        with pytest.raises(InvalidPlayers) as refused:
            GAME.calculate({"players": players, "escapes": []})
        assert refused.value.rule == "G-1.3"
    with pytest.raises(BadRequest):
        GAME.calculate({"players": 4, "escapes": [3]})


def test_G_5_2_the_service_answers_an_impossible_record_with_invalid_input():
    client = create_app({"TESTING": True}).test_client()
    answer = client.post("/v1/calculate", json={"players": 4, "escapes": [
        {"seat": 1, "points": 0}]})
    assert answer.status_code == 422
    body = answer.get_json()
    assert (body["code"], body["rule"]) == ("invalid_input", "G-5.2")
    assert "from 1 to 33" in body["detail"]
