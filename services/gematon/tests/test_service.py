"""The stateless service: info, a game over HTTP, and the /v1/calculate score helper."""

from pathlib import Path

import pytest

from gematon.service import create_app

RULES_DOC = Path(__file__).resolve().parents[1] / "RULES.md"


@pytest.fixture
def client():
    return create_app({"TESTING": True}).test_client()


def test_GM_4_2_info_states_the_witches_have_no_effect(client):
    info = client.get("/v1/info").get_json()
    assert info["game"] == "gematon" and (info["min_players"], info["max_players"]) == (2, 4)
    assert "no effect" in info["witches"]
    assert set(info["options"]) == {"draft", "pentacle_lines", "blessing_values"}
    assert info["hidden_information"] is True
    assert "GM-4.2" in RULES_DOC.read_text() and "no effect" in RULES_DOC.read_text()


def test_GM_3_8_a_game_over_http(client):
    state = client.post("/v1/new", json={"players": 2, "seed": 3}).get_json()["state"]
    moves = client.post("/v1/legal-moves", json={"state": state}).get_json()["moves"]
    answer = client.post("/v1/apply", json={"state": state, "move": moves[0],
                                            "view_as": 2}).get_json()
    assert answer["state"]["version"] == state["version"] + 1
    refused = client.post("/v1/apply", json={"state": state, "move": {
        "type": "operate", "seat": 1, "altar": "w9", "take": 1, "cell": 0}})
    assert refused.status_code == 422
    assert refused.get_json()["rule"] == "GM-1.3"


def test_GM_5_2_calculate_rulebook_example(client):
    body = {"seats": [{"seat": 1, "track": 12, "pentacle": [1, 1, 1, 1, 2, 7, 8]},
                      {"seat": 2, "track": 13, "pentacle": [2, 4, 5, 7, 8, 2, 4], "gauge": 5}]}
    answer = client.post("/v1/calculate", json=body)
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()
    assert data["scores"][0]["total"] == 43
    assert data["ranking"][0] == {"rank": 1, "seat": 1, "total": 43}
    assert data["final"] is True and data["winners"] == [1]


@pytest.mark.parametrize("body, status, code", [
    ({"seats": [{"seat": 1, "track": 1, "pentacle": [1] * 6}] * 2}, 400, "bad_request"),
    ({"seats": [{"seat": 1, "track": 1, "pentacle": [1] * 7, "colour": "red"}] * 2}, 400,
     "bad_request"),
    ({"seats": [{"seat": 1, "track": 1, "pentacle": [1, 1, 1, 1, 2, 7, 8]},
                {"seat": 2, "track": 1, "pentacle": [1, 1, 1, 1, 2, 7, 8]}]}, 422,
     "invalid_input"),
    ({"seats": [{"seat": 1, "track": 1, "pentacle": [1, 1, 1, 1, 2, 7, 8]},
                {"seat": 2, "track": 2, "pentacle": [1, 1, 1, 1, 2, 7, 8]}],
      "options": {"pentacle_lines": [[0, 1, 2]]}}, 400, "bad_request"),
    ({"seats": [{"seat": 1, "track": 1, "pentacle": [1, 1, 1, 1, 2, 7, 8]},
                {"seat": 2, "track": 2, "pentacle": [1, 1, 1, 1, 2, 7, 8]}],
      "options": {"blessing_values": [0, 1, 2, 3, 4, 6, 5]}}, 422, "invalid_options"),
])
def test_GM_5_2_calculate_refusals(client, body, status, code):
    answer = client.post("/v1/calculate", json=body)
    assert answer.status_code == status
    assert answer.get_json()["code"] == code

