"""/v1/redact: a version as every watching seat sees it, in one call to the game
service. Each seat's answer is byte for byte what /v1/view-log and /v1/view answer that
seat alone, in every game with secrets and in both languages; bad bodies are refused."""

import json
import random

import pytest

from referee.registry import engines
from support import assert_problem, service_app

SECRET_GAMES = sorted(g for g, e in engines().items() if e.has_secrets)


def played(engine, seed: int, moves: int):
    """(state, log entry) of each of the first ``moves`` versions of a random game."""
    rnd, state = random.Random(seed), engine.new(engine.max_players, seed=seed)
    out = []
    for _ in range(moves):
        if not state["to_move"]:
            break
        new, events, move = engine.step(state, rnd.choice(engine.legal_moves(state)))
        out.append((new, {"version": new["version"], "move": move, "events": events,
                          "by": f"seat:{move.get('seat', 1)}", "at": 1764300000.125}))
        state = new
    return out


@pytest.mark.parametrize("game", SECRET_GAMES)
@pytest.mark.parametrize("language", ["en", "ja"])
def test_each_seats_answer_is_byte_for_byte_its_own_view_log_and_view(game, language):
    engine = engines()[game]
    client = service_app(game).test_client()
    head = {"Accept-Language": language}
    seats = [*range(1, engine.max_players + 1), None]
    versions = played(engine, seed=5, moves=30)
    assert len(versions) >= 10
    differing = 0  # versions some seat is shown otherwise than another
    for state, entry in versions:
        answer = client.post("/v1/redact", headers=head, json={
            "state": state, "entries": [entry], "seats": seats})
        assert answer.status_code == 200, answer.get_json()
        answers = answer.get_json()["seats"]
        assert [a["seat"] for a in answers] == seats
        for seat, got in zip(seats, answers):
            log = client.post("/v1/view-log", headers=head,
                              json={"entries": [entry], "seat": seat}).get_json()
            view = client.post("/v1/view", json={"state": state, "seat": seat}).get_json()
            assert dumped(got["entries"]) == dumped(log["entries"])
            assert dumped(got["view"]) == dumped(view["view"])
        differing += len({dumped([a["entries"], a["view"]]) for a in answers}) > 1
    assert differing, "the redaction hid nothing: the comparison proved nothing"


def dumped(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_without_a_state_it_answers_the_entries_only():
    engine = engines()["vectron"]
    client = service_app("vectron").test_client()
    _, entry = played(engine, seed=2, moves=1)[0]
    answer = client.post("/v1/redact", json={"entries": [entry], "seats": [2]}).get_json()
    assert answer["seats"][0].keys() == {"seat", "entries"}
    assert answer["seats"][0]["entries"] == client.post("/v1/view-log", json={
        "entries": [entry], "seat": 2}).get_json()["entries"]


def test_bad_bodies_are_refused_and_say_why():
    engine = engines()["vectron"]
    client = service_app("vectron").test_client()
    state, entry = played(engine, seed=2, moves=1)[0]
    small = engine.new(engine.min_players, seed=1)

    def refused(body, status, code):
        return assert_problem(client.post("/v1/redact", json=body), status, code)

    refused({"state": state, "entries": [entry], "seats": [1, 1]}, 400, "bad_request")
    refused({"state": state, "entries": [entry], "seats": []}, 400, "bad_request")
    refused({"state": state, "entries": [entry]}, 400, "bad_request")
    refused({"state": state, "entries": [dict(entry, move={"type": "nope"})], "seats": [1]},
            400, "bad_request")
    refused({"state": small, "entries": [], "seats": [engine.max_players]}, 422,
            "no_such_seat")
    refused({"state": dict(state, deck={"count": -1}), "entries": [], "seats": [1]}, 422,
            "invalid_state")
    refused({"state": dict(state, players=small["players"]), "entries": [], "seats": [None]},
            422, "invalid_state")


@pytest.mark.parametrize("game", SECRET_GAMES)
def test_a_move_redacted_in_its_own_call_is_what_redact_answers(game):
    """``/v1/apply`` with ``redact_for``: each seat in each language is, byte for byte,
    what ``/v1/redact`` answers for the version the move made (what a watched move's
    stream events are built from)."""
    engine = engines()[game]
    client = service_app(game).test_client()
    seats = [*range(1, engine.max_players + 1), None]
    rnd, state, differing = random.Random(7), engine.new(engine.max_players, seed=7), 0
    for _ in range(20):
        if not state["to_move"]:
            break
        move = rnd.choice(engine.legal_moves(state))
        answer = client.post("/v1/apply", json={
            "state": state, "move": move, "redact_for": seats,
            "redact_languages": ["ja", "en"]}).get_json()
        new = answer["state"]
        entry = {"version": new["version"], "move": {
            k: v for k, v in answer["move"].items() if k != "text"}, "events": answer["events"]}
        got = {(r["seat"], r["language"]): r for r in answer["redacted"]}
        assert len(got) == len(seats) * 2
        for language in ("en", "ja"):  # (sent as a gateway sends it: keys in their order,
            # where the test client's json= would sort them)
            redacted = client.post("/v1/redact", headers={"Accept-Language": language},
                                   content_type="application/json", data=json.dumps({
                                       "state": new, "entries": [entry], "seats": seats})
                                   ).get_json()["seats"]
            for want in redacted:
                mine = got[want["seat"], language]
                assert dumped(mine["entry"]) == dumped(want["entries"][0])
                assert dumped(mine["view"]) == dumped(want["view"])
        differing += len({dumped(r["view"]) for r in answer["redacted"]}) > 1
        state = new
    assert differing, "the redaction hid nothing: the comparison proved nothing"


def test_a_move_asked_to_redact_badly_is_refused_and_changes_nothing():
    engine = engines()["vectron"]
    client = service_app("vectron").test_client()
    state = engine.new(engine.min_players, seed=1)
    move = engine.legal_moves(state)[0]

    def refused(extra, status, code):
        return assert_problem(client.post("/v1/apply", json={
            "state": state, "move": move, **extra}), status, code)

    refused({"redact_for": [1, 1]}, 400, "bad_request")
    refused({"redact_for": [], "redact_languages": ["en", "en"]}, 400, "bad_request")
    refused({"redact_for": [1], "redact_languages": ["fr"]}, 400, "bad_request")
    refused({"redact_for": [engine.max_players]}, 422, "no_such_seat")
    assert "redacted" not in client.post("/v1/apply", json={
        "state": state, "move": move, "redact_for": []}).get_json()
