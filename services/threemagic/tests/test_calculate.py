"""The score helper (T-7 at a real table): ``ThreeMagic.calculate`` and ``/v1/calculate``."""

import pytest

from referee.errors import InvalidInput
from threemagic.service import create_app

from threemagic_helpers import ENGINE

WORKED = {
    "win": "tsumo", "winner_attribute": "fire",
    "spells": [["R1*", "R2*", "R3*"], ["B3", "B3*", "B3*"], ["G0", "G1*", "G2*"]],
    "winning_card": "R3*", "indicators": ["G1"], "riichi": False,
}


@pytest.fixture
def client():
    return create_app({"TESTING": True}).test_client()


def test_T_7_2_worked_example_through_the_score_helper():
    board = ENGINE.calculate(WORKED)
    payment = board["payment"]
    assert payment["score"]["total"] == 30 and payment["score"]["base"] == 20
    assert payment["settlement"]["payments"] == [{"seat": 2, "pays": 15},
                                                 {"seat": 3, "pays": 15}]
    assert [s["total"] for s in board["scores"]] == [30, -15, -15]
    assert board["winners"] == [1] and board["final"]


def test_T_7_1_ron_counts_what_the_discarder_is_weak_to_and_it_pays_all():
    board = ENGINE.calculate(dict(
        WORKED, win="ron", winner_attribute="water", discarder_attribute="wood",
        attributes=["water", "wood", "fire"]))
    payment = board["payment"]
    assert payment["score"]["attribute"] == {"attribute": "fire", "spells": 1, "points": 10}
    assert (payment["winner"], payment["discarder"]) == (1, 2)
    assert [s["total"] for s in board["scores"]] == [30, -30, 0]
    assert board["scores"][2]["breakdown"]["role"] == "bystander"


def test_T_7_4_field_and_pool_with_called_spells_and_riichi():
    called = dict(WORKED, spells=WORKED["spells"][:2], called=[WORKED["spells"][2]],
                  field=30, pool=50)
    settlement = ENGINE.calculate(called)["payment"]["settlement"]
    assert (settlement["pool_taken"], settlement["field_taken"]) == (0, 0)
    assert settlement["pool_after"] == 80
    riichi = ENGINE.calculate(dict(WORKED, riichi=True, indicators=["G1", "G1*"], field=10,
                                   pool=50))
    assert riichi["payment"]["score"]["total"] == 40
    assert riichi["payment"]["settlement"]["changes"][0] == {"seat": 1, "change": 40 + 60}


def test_T_7_3_a_zero_point_hand_is_a_special_draw():
    board = ENGINE.calculate(dict(
        WORKED, win="ron", winner_attribute="water", discarder_attribute="fire",
        spells=[["R0", "R1", "R2"], ["G2", "G3", "G4"], ["R3", "R4", "R0"]],
        winning_card="R0", field=20))
    assert board["payment"]["special_draw"] and board["payment"]["settlement"] is None
    assert board["payment"]["field_to_pool"] == 20
    assert [s["total"] for s in board["scores"]] == [0, 0, 0]


@pytest.mark.parametrize("change, rule", [
    ({"spells": [["R1*", "R3*", "R2*"], ["B3", "B3*", "B3*"], ["G0", "G1*", "G2*"]]}, "T-2.2"),
    ({"spells": [["R1*", "R2*", "R3*"], ["B3", "B3*", "B3*"]]}, "T-2.2"),
    ({"winning_card": "G4"}, "T-4.2"),
    ({"win": "ron"}, "T-7.1"),
    ({"discarder_attribute": "water"}, "T-7.1"),
    ({"indicators": ["B3"]}, "T-1.2"),  # a 2nd B3
    ({"indicators": []}, "T-3.3"),
    ({"called": [["G0", "G0", "G0"]]}, "T-2.2"),
    ({"riichi": True, "spells": WORKED["spells"][:2], "called": [WORKED["spells"][2]]},
     "T-6.1"),
])
def test_T_2_2_impossible_hands_are_refused(change, rule):
    with pytest.raises(InvalidInput) as caught:
        ENGINE.calculate(dict(WORKED, **change))
    assert caught.value.extra["rule"] == rule


def test_calculate_route_answers_the_payment(client):
    answer = client.post("/v1/calculate", json=WORKED)
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["payment"]["score"]["total"] == 30 and body["winners"] == [1]
    bad = client.post("/v1/calculate", json=dict(WORKED, spells=[["R1", "R3", "R2"]] * 3))
    assert bad.status_code == 422 and bad.get_json()["code"] == "invalid_input"
    assert client.post("/v1/calculate", json=dict(WORKED, typo=1)).status_code == 400


def test_service_plays_a_match(client):
    info = client.get("/v1/info").get_json()
    assert info["game"] == "threemagic" and info["options"]["starting_od"]["default"] == 270
    state = client.post("/v1/new", json={"players": 3, "seed": 5}).get_json()["state"]
    moves = client.post("/v1/legal-moves", json={"state": state}).get_json()["moves"]
    answer = client.post("/v1/apply", json={"state": state, "move": moves[0]})
    assert answer.status_code == 200
    view = client.post("/v1/view", json={"state": state, "seat": 2}).get_json()["view"]
    assert view["hands"][0] == {"count": 8}


WOOD_CALLED = dict(WORKED, spells=WORKED["spells"][:2], called=[WORKED["spells"][2]])  # cost 30
TWO_CALLS = dict(WORKED, spells=WORKED["spells"][:1],
                 called=[WORKED["spells"][2], WORKED["spells"][1]])  # wood 30, then water 90


@pytest.mark.parametrize("body, rule", [
    (dict(WORKED, riichi=True), "T-6.2"),  # a riichi turns a 2nd indicator
    (dict(WORKED, riichi=True, indicators=["G1", "B0"]), "T-6.2"),  # and stakes 10: field 0
    (dict(WORKED, riichi=True, indicators=["G1", "B0"], field=5), "T-6.2"),
    (dict(WORKED, indicators=["G1", "B0"]), "T-6.2"),  # another seat's riichi staked 10
    (dict(WORKED, indicators=["G1", "B0", "B0", "R0"], field=30), "T-6.2"),  # 3 riichis, 2 seats
    (dict(WOOD_CALLED, field=10), "T-5.4"),  # the fire winner's wood call cost 30
    (dict(TWO_CALLS, field=110), "T-5.4"),  # its two calls cost 30 + 90
    (dict(WORKED, field=5), "T-5.4"),  # costs are 10, 30 or 90
    (dict(WORKED, field=170), "T-5.4"),  # no two seats' calls make 170
    (dict(WORKED, field=250), "T-5.4"),  # two seats' calls make at most 240
    (dict(WORKED, pool=15), "T-7.4"),  # the pool receives 10s
    (dict(WORKED, field=120, pool=700), "T-1.3"),  # more than the 810 od in play
    (dict(WORKED, pool=820), "T-1.3"),
    (dict(WORKED, pool=100, options={"starting_od": 30}), "T-1.3"),
])
def test_T_6_2_T_5_4_T_1_3_impossible_field_and_pool_are_refused(body, rule):
    """The helper refuses stakes no match can produce: a riichi with less than 10 on the field,
    calls whose costs the field does not hold, a pool that is no multiple of 10, more od on
    the field and in the pool than the seats started with (T-6.2, T-5.4, T-7.4, T-1.3)."""
    with pytest.raises(InvalidInput) as caught:
        ENGINE.calculate(body)
    assert caught.value.extra["rule"] == rule
    assert "[" not in caught.value.detail and caught.value.detail[0].isalnum()


@pytest.mark.parametrize("body", [
    dict(WORKED, riichi=True, indicators=["G1", "B0"], field=10),
    dict(WORKED, indicators=["G1", "B0", "B0"], field=20),  # both other seats riichied
    dict(WORKED, riichi=True, indicators=["G1", "B0", "B0", "R0"], field=30),  # all three
    dict(WORKED, field=240, pool=570),  # two seats called twice at 30 + 90; 810 in all
    dict(WORKED, field=50),  # 10 + 40 (10 then 30)
    dict(WOOD_CALLED, field=30 + 240),
    dict(TWO_CALLS, field=120),
    dict(WORKED, indicators=["G1", "B0"], field=10 + 120, pool=30),
])
def test_T_7_4_possible_field_and_pool_edges_are_accepted(body):
    """T-7.4: the extremes a match can reach are still scored."""
    assert ENGINE.calculate(body)["payment"]["score"]["total"] > 0
