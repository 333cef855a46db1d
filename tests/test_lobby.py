"""Open tables (issue 12.2): join codes, the public lobby, starting, leaving and
re-issuing a seat's token — through the gateway, on real Redis and real services."""

import json
import re

import pytest

from referee.sessions import keys
from referee_gateway.lobby import normalized, pick_seat
from support import assert_problem, bearer, create_session, first_move, play, session_url


def open_table(client, game="ghostone", players=3, **extra):
    return create_session(client, game=game, players=players, seats="open", **extra)


def join(client, code, seat="any", address="10.9.0.1"):
    return client.post("/v1/sessions/join", json={"code": code, "seat": seat},
                       environ_base={"REMOTE_ADDR": address})


def test_an_open_table_answers_a_join_code_and_no_seat_token(client, redis_client):
    table = open_table(client)
    assert re.fullmatch(r"[2-9A-HJKMNP-TV-Z]{4}-[2-9A-HJKMNP-TV-Z]{4}", table["join_code"])
    assert table["seats"] == [{"seat": s, "status": "open"} for s in (1, 2, 3)]
    assert table["started"] is False and "token" not in json.dumps(table["seats"])
    meta = redis_client.hgetall(keys.meta(table["session_id"]))
    assert not [f for f in meta if f.startswith("token:seat:")]
    shown = client.get(session_url(table), headers=bearer(table["table_token"])).get_json()
    assert shown["join_code"] == table["join_code"] and shown["started"] is False


def test_each_join_answers_its_seats_token_once_and_the_last_one_starts_the_game(client):
    table = open_table(client)
    code = table["join_code"]
    second = join(client, code.lower().replace("-", " "), seat=2)
    assert second.status_code == 201, second.get_json()
    assert second.get_json()["seat"] == 2 and second.get_json()["started"] is False
    token = second.get_json()["token"]
    assert_problem(play(client, table, token, {"type": "pass"}), 409, "not_started")
    assert_problem(join(client, code, seat=2), 409, "seat_taken")
    assert_problem(join(client, code, seat=4), 422, "no_such_seat")
    first = join(client, code).get_json()
    assert first["seat"] == 1 and first["started"] is False
    last = join(client, code).get_json()
    assert last["seat"] == 3 and last["started"] is True
    assert len({token, first["token"], last["token"]}) == 3
    assert_problem(join(client, code), 404, "unknown_join_code")  # the code went at the start
    shown = client.get(session_url(table), headers=bearer(first["token"])).get_json()
    assert shown["you"] == {"role": "seat", "seat": 1} and shown["started"] is True
    assert "join_code" not in client.get(session_url(table), headers=bearer(
        table["table_token"])).get_json()
    assert play(client, table, first["token"], first_move(
        client, table, first["token"])).status_code == 200
    kinds = [e.get("seats", {}).get("change") for e in client.get(
        session_url(table, "/log"), headers=bearer(first["token"])).get_json()["entries"]]
    assert kinds == ["joined", "joined", "joined", None]


def test_unknown_codes_are_counted_per_address_then_refused_with_retry_after(store,
                                                                            service_urls):
    from referee_gateway import create_app
    url, cluster = store
    app = create_app({"REDIS_URL": url, "REDIS_CLUSTER": cluster, "RATE_LIMIT_PER_MINUTE": 0,
                      "JOIN_FAILURES_PER_MINUTE": 3, "GAME_SERVICES": dict(service_urls)})
    client = app.test_client()
    table = open_table(client)
    address = f"10.8.{len(url) % 200}.{7 if cluster else 8}"
    for guess in ("AAAA-AAAA", "BBBB-BBBB", "not a code"):
        assert_problem(join(client, guess, address=address), 404, "unknown_join_code")
    refused = join(client, "CCCC-CCCC", address=address)
    assert_problem(refused, 429, "rate_limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # the right code is refused too while the address is over: guessing stops there
    assert_problem(join(client, table["join_code"], address=address), 429, "rate_limited")
    assert join(client, table["join_code"], address="10.8.200.1").status_code == 201


def test_a_public_table_is_listed_without_secrets_and_joined_by_its_id(client):
    public = open_table(client, game="gematon", players=2, public=True)
    private = open_table(client, game="gematon", players=2)
    tables = client.get("/v1/lobby?game=gematon").get_json()["tables"]
    listed = {t["session_id"]: t for t in tables}
    assert public["session_id"] in listed and private["session_id"] not in listed
    assert listed[public["session_id"]] == {
        "session_id": public["session_id"], "game": "gematon", "mode": "digital",
        "players": 2, "open_seats": [1, 2], "created": listed[public["session_id"]]["created"],
        "seeded": False}
    text = json.dumps(tables)
    assert public["join_code"] not in text and public["table_token"] not in text
    by_id = client.post("/v1/sessions/join", json={"session_id": public["session_id"]})
    assert by_id.status_code == 201 and by_id.get_json()["seat"] == 1
    assert_problem(client.post("/v1/sessions/join", json={"session_id": private["session_id"]}),
                   404, "unknown_join_code")
    client.post("/v1/sessions/join", json={"session_id": public["session_id"]})
    after = client.get("/v1/lobby?game=gematon").get_json()["tables"]
    assert public["session_id"] not in {t["session_id"] for t in after}, "full: unlisted"
    assert_problem(client.post("/v1/sessions/join", json={
        "code": public["join_code"], "session_id": public["session_id"]}), 400, "bad_request")
    assert_problem(client.post("/v1/sessions", json={"game": "gematon", "players": 2,
                                                     "public": True}), 400, "bad_request")


def test_the_table_starts_with_the_seats_it_has_numbered_in_order(client):
    table = open_table(client, game="gematon", players=4, seed=3)
    one = join(client, table["join_code"], seat=1).get_json()
    three = join(client, table["join_code"], seat=3).get_json()
    assert_problem(client.post(session_url(table, "/start"), headers=bearer(one["token"])),
                   403, "forbidden")
    started = client.post(session_url(table, "/start"), headers=bearer(table["table_token"]))
    assert started.status_code == 200, started.get_json()
    body = started.get_json()
    assert body["players"] == 2 and body["started"] is True
    assert body["entry"]["seats"] == {"change": "started", "players": 2,
                                      "renumbered": {"3": 2}}
    shown = client.get(session_url(table), headers=bearer(three["token"])).get_json()
    assert shown["you"]["seat"] == 2 and shown["view"]["players"] == 2
    assert_problem(client.post(session_url(table, "/start"),
                               headers=bearer(table["table_token"])), 409, "already_started")
    assert_problem(join(client, table["join_code"]), 404, "unknown_join_code")
    seat = shown["to_move"][0]
    token = {1: one["token"], 2: three["token"]}[seat]
    assert play(client, table, token, first_move(client, table, token)).status_code == 200


def test_a_start_the_game_does_not_allow_is_refused_and_changes_nothing(client):
    table = open_table(client, game="threemagic", players=3)
    join(client, table["join_code"])
    join(client, table["join_code"])
    refused = client.post(session_url(table, "/start"), headers=bearer(table["table_token"]))
    assert_problem(refused, 422, "invalid_players")
    shown = client.get(session_url(table), headers=bearer(table["table_token"])).get_json()
    assert shown["started"] is False and shown["version"] == table["version"] + 2


def test_reissue_stops_the_old_token_at_once(client):
    session = create_session(client)
    old = session["seats"][0]["token"]
    assert_problem(client.post(session_url(session, "/seats/1/token"), headers=bearer(old)),
                   403, "forbidden")
    answer = client.post(session_url(session, "/seats/1/token"),
                         headers=bearer(session["table_token"]))
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    new = answer.get_json()["token"]
    assert_problem(client.get(session_url(session), headers=bearer(old)), 401, "unauthorized")
    assert client.get(session_url(session), headers=bearer(new)).get_json()["you"]["seat"] == 1
    assert_problem(client.post(session_url(session, "/seats/9/token"),
                               headers=bearer(session["table_token"])), 422, "no_such_seat")


def test_the_table_seats_someone_by_reissuing_an_open_seat(client):
    table = open_table(client, game="gematon", players=2)
    join(client, table["join_code"], seat=2)
    seated = client.post(session_url(table, "/seats/1/token"),
                         headers=bearer(table["table_token"])).get_json()
    shown = client.get(session_url(table), headers=bearer(seated["token"])).get_json()
    assert shown["started"] is True and shown["you"]["seat"] == 1


def test_leaving_before_the_start_opens_the_seat_after_it_marks_it_absent(client):
    table = open_table(client, game="gematon", players=2)
    first = join(client, table["join_code"]).get_json()
    left = client.post(session_url(table, "/leave"), json={}, headers=bearer(first["token"]))
    assert left.status_code == 200
    assert left.get_json()["seats"] == [{"seat": 1, "status": "open"},
                                        {"seat": 2, "status": "open"}]
    assert_problem(client.get(session_url(table), headers=bearer(first["token"])), 401,
                   "unauthorized")
    again = join(client, table["join_code"]).get_json()
    other = join(client, table["join_code"]).get_json()
    assert again["seat"] == 1 and other["started"] is True
    assert_problem(client.post(session_url(table, "/leave"), json={"seat": 2},
                               headers=bearer(again["token"])), 403, "forbidden")
    assert_problem(client.post(session_url(table, "/leave"), json={},
                               headers=bearer(table["table_token"])), 422, "unprocessable")
    absent = client.post(session_url(table, "/leave"), json={"seat": 2},
                         headers=bearer(table["table_token"])).get_json()
    assert absent["seats"][1] == {"seat": 2, "status": "absent"}
    assert absent["entry"]["seats"] == {"change": "absent", "seat": 2, "status": "absent"}
    assert_problem(client.get(session_url(table), headers=bearer(other["token"])), 401,
                   "unauthorized")
    back = client.post(session_url(table, "/seats/2/token"),
                       headers=bearer(table["table_token"])).get_json()
    assert client.get(session_url(table), headers=bearer(back["token"])).status_code == 200


def test_codes_are_read_aloud_and_table_full_is_its_own_refusal():
    assert normalized("k4tm 9xqr") == normalized("K4TM-9XQR") == "K4TM9XQR"
    assert normalized("K4TM-9XQ0") is None and normalized("short") is None

    class Full:
        meta = {"players": "2"}

        def seat_status(self, seat):
            return "taken"

    from referee.errors import TableFull
    with pytest.raises(TableFull):
        pick_seat(Full(), "any")


def test_starting_before_anyone_joined_is_a_conflict(client):
    table = open_table(client)
    assert_problem(client.post(session_url(table, "/start"),
                               headers=bearer(table["table_token"])), 409, "nobody_seated")


def test_the_documents_say_what_marshmallow_cannot(client):
    """A join names a code or a session id; only a table with open seats is public."""
    named = client.get("/openapi.json").get_json()["components"]["schemas"]
    assert named["JoinRequest"]["oneOf"] == [{"$ref": "#/components/schemas/JoinByCode"},
                                             {"$ref": "#/components/schemas/JoinListed"}]
    assert named["JoinByCode"]["required"] == ["code"]  # whole objects: generators type them
    assert "session_id" not in named["JoinByCode"]["properties"]
    assert named["JoinListed"]["required"] == ["session_id"]
    assert "code" not in named["JoinListed"]["properties"]
    ghostone = named["GhostoneCreateSessionRequest"]
    assert ghostone["then"]["properties"]["seats"] == {"enum": ["open"]}
