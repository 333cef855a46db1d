"""Sessions through the gateway (Flask test client) with real services and Redis."""

import json

from jsonschema import Draft202012Validator
from referee.sessions import keys
from support import (
    assert_problem, bearer, create_session, first_move, play, seat_token, session_url,
)


def test_create_answers_tokens_once_and_the_public_view(client, redis_client):
    session = create_session(client, players=4, seed=3)
    assert [s["seat"] for s in session["seats"]] == [1, 2, 3, 4]
    tokens = [s["token"] for s in session["seats"]] + [session["table_token"],
                                                       session["spectator_token"]]
    assert len(set(tokens)) == 6 and all(len(t) >= 32 for t in tokens)
    assert session["version"] == 0 and "rng" not in session["view"]
    stored = json.dumps(redis_client.hgetall(keys.meta(session["session_id"])))
    assert not any(t in stored for t in tokens), "tokens are stored only as hashes"
    for key in keys.all_of(session["session_id"])[:2]:
        assert 0 < redis_client.ttl(key) <= 7 * 24 * 3600


def test_a_whole_ghostone_game_through_the_gateway(client):
    session = create_session(client, players=3, seed=21)
    tokens = {s["seat"]: s["token"] for s in session["seats"]}
    version, moves_played = 0, 0
    while True:
        shown = client.get(session_url(session), headers=bearer(session["spectator_token"]))
        to_move = shown.get_json()["to_move"]
        if not to_move:
            break
        seat = to_move[0]
        move = first_move(client, session, tokens[seat])
        move.pop("seat")  # a seat token's own seat is filled in
        answer = play(client, session, tokens[seat], move, **{"If-Match": f'"{version}"'})
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        assert body["version"] > version and body["you"] == {"role": "seat", "seat": seat}
        assert answer.headers["ETag"] == f'"{body["version"]}"'
        version = body["version"]
        moves_played += 1
    score = client.get(session_url(session, "/score"), headers=bearer(tokens[1])).get_json()
    assert score["final"] and score["winners"]
    log = client.get(session_url(session, "/log?since=0"), headers=bearer(tokens[2])).get_json()
    assert len(log["entries"]) == moves_played and log["version"] == version
    assert log["entries"][-1]["events"][-1]["type"] == "game_over"
    late = client.get(session_url(session, f"/log?since={log['entries'][-2]['version']}"),
                      headers=bearer(tokens[2])).get_json()
    assert late["entries"] == log["entries"][-1:]
    over = play(client, session, tokens[1], {"type": "pass"})
    assert_problem(over, 422, "game_over")


def test_etag_and_if_none_match(client):
    session = create_session(client)
    token = seat_token(session, 1)
    first = client.get(session_url(session), headers=bearer(token))
    assert first.headers["ETag"] == '"0"'
    again = client.get(session_url(session), headers={**bearer(token), "If-None-Match": '"0"'})
    assert again.status_code == 304 and not again.data
    play(client, session, token, first_move(client, session, token))
    fresh = client.get(session_url(session), headers={**bearer(token), "If-None-Match": '"0"'})
    assert fresh.status_code == 200 and fresh.headers["ETag"] == '"1"'


def test_stale_if_match_is_412_with_the_current_version(client, redis_client):
    session = create_session(client)
    token = seat_token(session, 1)
    move = first_move(client, session, token)
    stale = play(client, session, token, move, **{"If-Match": '"5"'})
    assert assert_problem(stale, 412, "version_conflict")["current_version"] == 0


def test_idempotency_key_answers_a_retry_once(client, redis_client):
    session = create_session(client)
    token = seat_token(session, 1)
    move = first_move(client, session, token)
    first = play(client, session, token, move, **{"Idempotency-Key": "k-1"})
    retry = play(client, session, token, move, **{"Idempotency-Key": "k-1"})
    assert first.status_code == retry.status_code == 200
    assert retry.get_json() == first.get_json() and retry.headers["Idempotent-Replayed"]
    log = redis_client.lrange(keys.log(session["session_id"]), 0, -1)
    assert len(log) == 1, "the retry was not applied twice"
    other = dict(move, plate="d4", rocks=["c3", "c4", "d3"])
    assert_problem(play(client, session, token, other, **{"Idempotency-Key": "k-1"}),
                   409, "idempotency_conflict")


def test_delete_needs_the_table_token(client):
    session = create_session(client)
    assert_problem(client.delete(session_url(session), headers=bearer(seat_token(session, 1))),
                   403, "forbidden")
    assert client.delete(session_url(session),
                         headers=bearer(session["table_token"])).status_code == 204
    assert_problem(client.get(session_url(session), headers=bearer(session["table_token"])),
                   404, "unknown_session")


def test_games_list_and_info(client):
    games = client.get("/v1/games").get_json()["games"]
    assert any(g["game"] == "ghostone" and g["available"] for g in games)
    assert client.get("/v1/games/ghostone").get_json()["title"] == "Ghostone"
    assert client.get("/v1/games/ghostone/info").get_json()["game"] == "ghostone"
    assert_problem(client.get("/v1/games/chess"), 404, "unknown_game")


def test_stateless_routes_are_re_exposed(client):
    new = client.post("/v1/games/ghostone/new", json={"players": 4, "seed": 2}).get_json()
    moves = client.post("/v1/games/ghostone/legal-moves",
                        json={"state": new["state"]}).get_json()
    applied = client.post("/v1/games/ghostone/apply",
                          json={"state": new["state"], "move": moves["moves"][0]})
    assert applied.status_code == 200 and applied.get_json()["state"]["version"] == 1
    calc = client.post("/v1/games/ghostone/calculate",
                       json={"players": 4, "escapes": [{"seat": 1, "points": 2}]})
    assert calc.get_json()["winners"] == [1]
    assert_problem(client.post("/v1/games/ghostone/apply", json={"state": {}, "move": {}}),
                   422, "invalid_state")
    assert_problem(client.post("/v1/games/ghostone/new", data=b"{oops",
                               content_type="application/json"), 400, "invalid_json")


def test_gateway_openapi_has_every_games_routes_ids_security_links_and_docs(client):
    from referee.registry import engines
    spec = client.get("/openapi.json").get_json()
    for path in ("/v1/sessions", "/v1/sessions/{sid}", "/v1/sessions/{sid}/moves",
                 "/v1/sessions/{sid}/legal-moves", "/v1/sessions/{sid}/score",
                 "/v1/sessions/{sid}/log", "/v1/games"):
        assert path in spec["paths"], path
    for game in engines():
        prefix = game[:1].upper() + game[1:]
        apply = spec["paths"][f"/v1/games/{game}/apply"]["post"]
        assert apply["operationId"] == f"{game}ApplyMove"
        assert apply["requestBody"]["content"]["application/json"]["schema"] == {
            "$ref": f"#/components/schemas/{prefix}ApplyRequest"}
        assert f"{prefix}Move" in spec["components"]["schemas"]
        assert f"/v1/games/{game}/components" in spec["paths"]
    ids = [op["operationId"] for ops in spec["paths"].values() for op in ops.values()]
    assert len(ids) == len(set(ids)), "operationIds are unique"
    assert spec["components"]["securitySchemes"]["token"] == {
        "type": "http", "scheme": "bearer",
        "description": spec["components"]["securitySchemes"]["token"]["description"]}
    moves = spec["paths"]["/v1/sessions/{sid}/moves"]["post"]
    assert moves["operationId"] == "playMove" and moves["security"] == [{"token": []}]
    assert {p["name"] for p in moves["parameters"]} >= {"If-Match", "Idempotency-Key"}
    assert {"412", "409", "422"} <= set(moves["responses"])
    links = spec["paths"]["/v1/sessions"]["post"]["responses"]["201"]["links"]
    assert {link["operationId"] for link in links.values()} >= {
        "getSession", "playMove", "listSessionMoves", "getSessionLog", "getSessionScore"}
    codes = set(spec["components"]["schemas"]["Problem"]["properties"]["code"]["enum"])
    assert {"not_found", "method_not_allowed", "illegal_move", "rate_limited"} <= codes
    assert b"swagger-ui" in client.get("/docs").data
    assert client.get("/readyz").get_json()["status"] == "ready"


def test_too_many_requests_are_429_with_retry_after(client, store, service_urls):
    from referee_gateway import create_app
    url, cluster = store
    limited = create_app({"REDIS_URL": url, "REDIS_CLUSTER": cluster,
                          "RATE_LIMIT_PER_MINUTE": 5,
                          "GAME_SERVICES": dict(service_urls)}).test_client()
    session = create_session(client)  # unlimited: these tokens have sent nothing yet
    token = bearer(seat_token(session, 1))
    answers = [limited.get(session_url(session), headers=token) for _ in range(6)]
    assert [a.status_code for a in answers[:5]] == [200] * 5
    problem = assert_problem(answers[5], 429, "rate_limited")
    assert 1 <= int(answers[5].headers["Retry-After"]) <= 61 and problem["retry_after"] >= 1
    other = limited.get(session_url(session), headers=bearer(seat_token(session, 2)))
    assert other.status_code == 200, "each token is counted on its own"
    assert limited.get("/healthz").status_code == 200


def test_a_browser_on_another_origin_may_call_every_route(client, gateway_app):
    """CORS: preflight answered for the headers the API reads; ETag & co. exposed."""
    preflight = client.options("/v1/sessions/abc/moves", headers={
        "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, if-match, idempotency-key"})
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    allowed = preflight.headers["Access-Control-Allow-Headers"].lower()
    assert {"authorization", "if-match", "idempotency-key"} <= {
        h.strip() for h in allowed.split(",")}
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    session = create_session(client)
    answer = client.get(session_url(session), headers={
        **bearer(seat_token(session, 1)), "Origin": "https://app.example"})
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    exposed = {h.strip() for h in answer.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Location", "Retry-After"} <= exposed
    assert "Access-Control-Allow-Credentials" not in answer.headers


def test_one_shape_the_log_starts_with_the_setup_as_the_caller_may_see_it(client):
    """Issue 16.3: the create answer says who is to move; the log's first entry is the
    setup (the deals), redacted per token like a move; /log has an ETag and a cursor."""
    session = create_session(client, game="threemagic", players=3, seed=4)
    assert session["to_move"] == session["view"]["to_move"]
    mine = client.get(session_url(session, "/log"), headers=bearer(seat_token(session, 1)))
    assert mine.status_code == 200 and mine.headers["ETag"] == f'"{session["version"]}"'
    body = mine.get_json()
    assert body["next"] == session["version"]
    setup = body["entries"][0]
    assert setup["setup"] is True and "move" not in setup
    dealt = [e for e in setup["events"] if e["type"] == "card_dealt"]
    assert {e["seat"] for e in dealt} == {1, 2, 3}
    assert all(e["card"] != "hidden" for e in dealt if e["seat"] == 1)
    assert all(e["card"] == "hidden" for e in dealt if e["seat"] != 1)
    public = client.get(session_url(session, "/log"),
                        headers=bearer(session["spectator_token"])).get_json()
    assert all(e["card"] == "hidden" for e in public["entries"][0]["events"]
               if e["type"] == "card_dealt")
    again = client.get(session_url(session, "/log"), headers={
        **bearer(seat_token(session, 1)), "If-None-Match": mine.headers["ETag"]})
    assert again.status_code == 304
    after = client.get(session_url(session, f"/log?since={body['next']}"),
                       headers=bearer(seat_token(session, 1))).get_json()
    assert after["entries"] == []


def test_legal_moves_narrowed_to_one_card_or_one_type(client):
    """?card= lists one card's moves (a page shows a card, then its ways to pay), ?type= one
    kind of move: the full listing's moves with that field, in its order."""
    session = create_session(client, game="gizmos", players=2, seed=5)
    token = seat_token(session, 1)
    every = client.get(session_url(session, "/legal-moves"),
                       headers=bearer(token)).get_json()["moves"]
    card = next(m["card"] for m in every if "card" in m)
    one = client.get(session_url(session, f"/legal-moves?card={card}"), headers=bearer(token))
    assert one.status_code == 200
    assert one.get_json()["moves"] == [m for m in every if m.get("card") == card]
    kind = client.get(session_url(session, "/legal-moves?type=pick&card=" + str(card)),
                      headers=bearer(token)).get_json()["moves"]
    assert kind == [], "a pick names no card"
    picks = client.get(session_url(session, "/legal-moves?type=pick"),
                       headers=bearer(token)).get_json()["moves"]
    assert picks and picks == [m for m in every if m["type"] == "pick"]
    # Gizmos lists one Build per spend; ?spend= (colours in any order) lists that spend's
    spent = client.get(session_url(session, f"/legal-moves?card={card}&spend=red,black"),
                       headers=bearer(token))
    assert spent.status_code == 200 and all(
        m["spend"] == ["black", "red"] for m in spent.get_json()["moves"])
    for bad in ("card=x", "card=-1", "type=Build!", "card=" + "9" * 20, "spend=",
                "spend=red,,blue", "spend=Red", "spend=" + ",".join(["red"] * 41)):
        assert_problem(client.get(session_url(session, f"/legal-moves?{bad}"),
                                  headers=bearer(token)), 400, "bad_request")


def test_every_operation_has_examples_and_the_session_examples_run(client):
    """/docs shows an example request and answer for every route, and one per game for the
    session routes; those examples are real: the create example makes that game's session,
    its move example is legal there, and its legal-moves example is what the session lists."""
    document = client.get("/openapi.json").get_json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody", {}).get("content", {}).get(
                "application/json", {})
            assert not body or "example" in body or "examples" in body, (method, path)
            answers = [c for status, r in operation["responses"].items() if status[0] == "2"
                       for c in r.get("content", {}).values()]
            assert path in ("/healthz", "/readyz") or method == "delete" or any(
                "example" in c or "examples" in c for c in answers), (method, path)

    def examples(path, method, where="request", status="200"):
        operation = document["paths"][path][method]
        content = operation["requestBody"] if where == "request" else \
            operation["responses"][status]
        return {game: e["value"] for game, e in
                content["content"]["application/json"]["examples"].items()}

    created = examples("/v1/sessions", "post")
    moves = examples("/v1/sessions/{sid}/moves", "post")
    listings = examples("/v1/sessions/{sid}/legal-moves", "get", "answer")
    assert set(created) == set(moves) == set(listings) == {
        g["game"] for g in client.get("/v1/games").get_json()["games"]}
    for game, body in created.items():
        session = create_session(client, **body)
        move = moves[game]["move"]
        token = seat_token(session, move["seat"])
        listed = client.get(session_url(session, "/legal-moves"), headers=bearer(token))
        shown = listings[game]["moves"]  # (the example may show the first few only)
        assert shown and listed.get_json()["moves"][:len(shown)] == shown, game
        assert play(client, session, token, move).status_code == 200, game


def test_every_answer_example_is_valid_against_its_schema(client):
    """The typed session answers (one variant per game, issue 30) hold for what /docs shows:
    every example of every JSON answer validates against that answer's schema."""
    document = client.get("/openapi.json").get_json()
    checked = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                content = answer.get("content", {}).get("application/json", {})
                if "schema" not in content:
                    continue
                schema = dict(content["schema"], components=document["components"])
                values = [e["value"] for e in content.get("examples", {}).values()]
                for value in values + ([content["example"]] if "example" in content else []):
                    errors = list(Draft202012Validator(schema).iter_errors(value))
                    assert not errors, (method, path, status, errors[0].message[:300])
                    checked += 1
    assert checked >= 90, checked
