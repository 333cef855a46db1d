"""A game service's stateless routes, through its Flask test client."""

import json

import pytest

from support import assert_problem, service_app


@pytest.fixture(scope="module")
def ghostone():
    return service_app("ghostone").test_client()


def new_state(client, **body):
    answer = client.post("/v1/new", json={"players": 3, "seed": 11, **body})
    assert answer.status_code == 200
    return answer.get_json()["state"]


def test_info_names_the_game_players_options_and_move_types(ghostone):
    info = ghostone.get("/v1/info").get_json()
    assert (info["game"], info["min_players"], info["max_players"]) == ("ghostone", 3, 4)
    assert set(info["move_types"]) == {"place", "move", "pass", "roll"}
    assert info["options"] == {} and info["hidden_information"] is False


def test_new_legal_moves_apply_view_score_round(ghostone):
    state = new_state(ghostone)
    assert state["game"] == "ghostone" and state["version"] == 0 and state["to_move"] == [1]
    same = new_state(ghostone)
    assert same == state  # a seed fixes the game
    moves = ghostone.post("/v1/legal-moves", json={"state": state, "seat": 1}).get_json()
    assert moves["to_move"] == [1] and len(moves["moves"]) > 0
    assert ghostone.post("/v1/legal-moves", json={"state": state, "seat": 2}).get_json()[
        "moves"] == []
    applied = ghostone.post("/v1/apply", json={"state": state, "move": moves["moves"][0],
                                               "view_as": 2}).get_json()
    assert applied["state"]["version"] == 1 and applied["events"][0]["type"] == "piece_placed"
    assert "rng" not in applied["view"] and applied["view_events"] == applied["events"]
    view = ghostone.post("/v1/view", json={"state": applied["state"], "seat": None}).get_json()
    assert view["view"] == dict({k: v for k, v in applied["state"].items() if k != "rng"},
                                seeded=True)
    score = ghostone.post("/v1/score", json={"state": applied["state"]}).get_json()
    assert score["final"] is False and len(score["scores"]) == 3


def test_calculate_is_the_score_helper(ghostone):
    answer = ghostone.post("/v1/calculate", json={"players": 3, "escapes": [
        {"seat": 3, "points": 5}, {"seat": 1, "points": 1}]})
    body = answer.get_json()
    assert answer.status_code == 200 and body["final"] and body["winners"] == [3]
    assert body["scores"][2]["total"] == 8 and body["scores"][0]["total"] == 3


def test_illegal_move_is_422_with_the_rule_id(ghostone):
    state = new_state(ghostone)
    answer = ghostone.post("/v1/apply", json={"state": state, "move": {
        "type": "place", "seat": 1, "plate": "a1", "rocks": ["a2", "b1", "c3"]}})
    body = assert_problem(answer, 422, "illegal_move")
    assert body["rule"] == "G-2.3"
    body = assert_problem(ghostone.post("/v1/apply", json={"state": state, "move": {
        "type": "pass", "seat": 2}}), 403, "not_your_turn")


@pytest.mark.parametrize("route", ["/v1/legal-moves", "/v1/score", "/v1/view"])
def test_forged_states_are_422_invalid_state(ghostone, route):
    state = new_state(ghostone)
    for forged in (dict(state, rocks={"a1": "many"}), dict(state, players=9),
                   dict(state, to_move=["chance"]), dict(state, rng={"state": "x"}),
                   {"game": "ghostone"}, dict(state, pieces=[["a1"], ["a1"], []])):
        assert_problem(ghostone.post(route, json={"state": forged}), 422, "invalid_state")


@pytest.mark.parametrize("body,status,code", [
    (b"{not json", 400, "invalid_json"),
    (b"", 400, "invalid_json"),
    (b"[1, 2]", 400, "bad_request"),
    (b'{"players": NaN}', 400, "invalid_json"),
    (b"\xff\xfe", 400, "invalid_json"),
    (b"[" * 100_000 + b"]" * 100_000, 400, "invalid_json"),
    (json.dumps({"players": "three"}).encode(), 400, "bad_request"),
    (json.dumps({"players": True}).encode(), 400, "bad_request"),
    (json.dumps({"players": 3, "colour": "red"}).encode(), 400, "unknown_field"),
    (json.dumps({"players": 3, "mode": "online"}).encode(), 400, "bad_request"),
    (json.dumps({"players": 3, "seed": -4}).encode(), 400, "bad_request"),
    (json.dumps({"players": 2}).encode(), 422, "invalid_players"),
    (json.dumps({"players": 3, "options": {"ghosts": 2}}).encode(), 422, "invalid_options"),
    (b" " * (2 << 20), 413, "payload_too_large"),
])
def test_bad_bodies_are_problems(ghostone, body, status, code):
    answer = ghostone.post("/v1/new", data=body, content_type="application/json")
    problem = assert_problem(answer, status, code)
    if code in ("bad_request", "unknown_field") and body.startswith(b"{"):
        assert problem["errors"]
    if code == "unknown_field":
        assert problem["detail"] == 'unknown field "colour" in the request body', problem


def test_a_body_not_sent_as_json_is_415(ghostone):
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        answer = ghostone.post("/v1/new", data=b'{"players": 3}', content_type=content_type)
        problem = assert_problem(answer, 415, "unsupported_media_type")
        assert "application/json" in problem["detail"], problem


def test_unknown_routes_and_methods_are_problems(ghostone):
    assert_problem(ghostone.get("/v1/nope"), 404, "not_found")
    refused = ghostone.get("/v1/new")
    assert_problem(refused, 405, "method_not_allowed")
    assert "POST" in refused.headers["Allow"].split(", ")  # RFC 9110 §15.5.6


def test_openapi_describes_every_route_with_the_games_schemas_and_docs_render(ghostone):
    spec = ghostone.get("/openapi.json").get_json()
    assert spec["openapi"].startswith("3.1")
    assert {"/v1/info", "/v1/new", "/v1/legal-moves", "/v1/apply", "/v1/score", "/v1/view",
            "/v1/calculate", "/v1/components", "/healthz", "/readyz"} <= set(spec["paths"])
    new = spec["paths"]["/v1/new"]["post"]
    schema = new["requestBody"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/GhostoneNewRequest")
    named = spec["components"]["schemas"]
    assert named["GhostoneNewRequest"]["additionalProperties"] is False
    assert named["GhostoneNewRequest"]["properties"]["players"] == {
        "type": "integer", "minimum": 3, "maximum": 4}
    assert new["operationId"] == "newGame"
    example = new["requestBody"]["content"]["application/json"]["example"]
    assert ghostone.post("/v1/new", json=example).get_json() == \
        new["responses"]["200"]["content"]["application/json"]["example"]
    docs = ghostone.get("/docs")
    assert docs.status_code == 200 and b"/docs/assets/swagger-ui-bundle.js" in docs.data
    asset = ghostone.get("/docs/assets/swagger-ui-bundle.js")
    assert asset.status_code == 200 and b"SwaggerUIBundle" in asset.data
    asset.close()


def test_health_and_readiness(ghostone):
    assert ghostone.get("/healthz").get_json() == {"status": "ok"}
    assert ghostone.get("/readyz").get_json()["status"] == "ready"
