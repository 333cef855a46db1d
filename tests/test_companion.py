"""Issue 32: companion mode through the gateway, on real Redis and real game services.

Three friends at a real Three Magic table join by code from their phones; each seat enters
the cards dealt or drawn into its own hand, the table device (or any seat) the indicators
turned face up. The table token sees what the spectator sees; every refusal says nothing
of another hand (rule ids T-10.1, T-10.2).
"""

import random

import pytest
from referee.engine import ANNOTATIONS, CHANCE, canonical
from referee.registry import engines
from referee.rng import Pcg32
from support import assert_problem, bearer, create_session, play, session_url

ENGINE = engines()["threemagic"]


@pytest.fixture(scope="module")
def client(redis_url, service_urls):
    """A gateway on standalone Redis without a rate limit (whole games are played here;
    the store's cluster variant is another test's subject)."""
    from referee_gateway import create_app
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATE_LIMIT_PER_MINUTE": 0,
                      "GAME_SERVICES": dict(service_urls)})
    yield app.test_client()
    app.extensions["redis.probe"].stop()
    app.extensions["upstream"].close()
    app.extensions["sessions"].client.close()


def bare(move: dict) -> dict:
    return {k: v for k, v in move.items() if k not in ANNOTATIONS}


def joined_table(client, game="threemagic", players=3) -> tuple[dict, dict]:
    """A companion table whose seats joined by code: the session and ``{seat: token}``."""
    session = create_session(client, game=game, players=players, mode="companion",
                             seats="open")
    tokens = {}
    for _ in range(players):
        answer = client.post("/v1/sessions/join", json={"code": session["join_code"]})
        assert answer.status_code == 201, answer.get_json()
        tokens[answer.get_json()["seat"]] = answer.get_json()["token"]
    return session, tokens


def read(client, session, token, tail=""):
    answer = client.get(session_url(session, tail), headers=bearer(token))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def entrant_token(view: dict, session: dict, tokens: dict) -> str:
    awaited = view["awaiting"]
    return session["table_token"] if awaited == "table" else tokens[awaited]


def test_T_10_2_seats_join_by_code_and_each_enters_its_own_deal(client):
    session, tokens = joined_table(client)
    view = read(client, session, session["table_token"])
    assert view["started"] and view["mode"] == "companion"
    assert view["to_move"] == [CHANCE] and view["view"]["awaiting"] in (1, 2, 3)
    receiver = view["view"]["awaiting"]
    others = [s for s in tokens if s != receiver]
    # the receiver is listed its entries; the table and the other seats nothing
    listed = read(client, session, tokens[receiver], "/legal-moves")["moves"]
    assert listed and all(m["seat"] == CHANCE and m["to"] == receiver and "p" not in m
                          for m in listed)
    assert read(client, session, session["table_token"], "/legal-moves")["moves"] == []
    assert read(client, session, tokens[others[0]], "/legal-moves")["moves"] == []
    entry = bare(listed[0])
    for token in (session["table_token"], tokens[others[0]]):
        assert_problem(play(client, session, token, entry), 403, "not_your_entry")
    answer = play(client, session, tokens[receiver], entry)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["move"]["card"] == entry["card"], "the receiver sees its card"
    # the table's log and view name no card of a hand
    logged = read(client, session, session["table_token"], "/log")["entries"][-1]["move"]
    assert logged["card"] == "hidden"
    assert read(client, session, session["table_token"])["view"] == read(
        client, session, session["spectator_token"])["view"]


def held_state(client, session) -> dict:
    """The referee's whole state (what the real cards are), to choose true entries."""
    return client.application.extensions["sessions"].load(session["session_id"]).state


def test_T_10_1_an_impossible_entry_is_refused_counting_only_the_public_and_its_hand(client):
    """A card none of whose copies is left unseen by the entrant (all in its own hand or
    face up) is impossible: the refusal counts only those. A card possible as the seat
    knows it whose last copies another seat entered is a conflict: refused naming no card
    and no seat. Each seat enters the cards the others hold most of, so both come soon."""
    session, tokens = joined_table(client)
    kinds = {c for m in ENGINE.legal_moves(held_state(client, session)) for c in [m["card"]]}
    conflicts = impossibles = 0
    for _ in range(45):
        view = read(client, session, session["table_token"])["view"]
        if view["awaiting"] not in tokens:
            break
        seat, state = view["awaiting"], held_state(client, session)
        listed = read(client, session, tokens[seat], "/legal-moves")["moves"]
        mine = {m["card"] for m in listed}
        true = {m["card"] for m in ENGINE.legal_moves(state)}
        for card in sorted(kinds - mine)[:1]:  # every copy in its hand or face up
            body = assert_problem(play(client, session, tokens[seat], dict(
                bare(listed[0]), card=card)), 422, "impossible_entry")
            assert body["rule"] == "T-10.1" and "your hand" in body["detail"]
            impossibles += 1
        for card in sorted(mine - true)[:1]:  # every copy left is in another hand
            before = read(client, session, session["spectator_token"])["version"]
            claim = dict(bare(listed[0]), card=card)
            for _ in range(2):  # a retry of the same claim is heard once
                body = assert_problem(play(client, session, tokens[seat], claim,
                                           **{"Idempotency-Key": f"claim-{before}"}),
                                      422, "entry_conflict")
                assert body["rule"] == "T-10.1" and card not in body["detail"]
                assert not any(f"seat {s}" in body["detail"] for s in tokens)
            heard_by_all(client, session, tokens, seat, before)
            conflicts += 1
        others = [h for n, h in enumerate(state["hands"], 1) if n != seat]
        choice = max(true, key=lambda c: (sum(h.count(c) for h in others), c))
        answer = play(client, session, tokens[seat], dict(bare(listed[0]), card=choice))
        assert answer.status_code == 200, answer.get_json()
    assert conflicts and impossibles, (conflicts, impossibles)


def heard_by_all(client, session, tokens, seat, before):
    """The refusal is in every token's log as one public dispute (who, at which version),
    the same bytes for all, naming no card; the state itself did not change."""
    logs = [read(client, session, token, f"/log?since={before}")["entries"]
            for token in (session["table_token"], session["spectator_token"],
                          *tokens.values())]
    assert all(log == logs[0] for log in logs), logs
    [entry] = logs[0]
    assert entry["dispute"] == {"code": "entry_conflict", "at_version": before}
    assert entry["by"] == f"seat:{seat}" and entry["version"] == before + 1
    assert set(entry) == {"version", "dispute", "by", "at"}
    store = client.application.extensions["sessions"]
    assert store.snapshot(session["session_id"], before + 1) == dict(
        store.snapshot(session["session_id"], before), version=before + 1)


def test_a_seat_takes_back_its_own_entry_and_the_table_undoes_any_log_kept(client):
    session, tokens = joined_table(client)
    view = read(client, session, session["table_token"])
    seat = view["view"]["awaiting"]
    entry = bare(read(client, session, tokens[seat], "/legal-moves")["moves"][0])
    assert play(client, session, tokens[seat], entry).status_code == 200
    other = next(s for s in tokens if s != seat)
    assert_problem(client.post(session_url(session, "/undo"), json={},
                               headers=bearer(tokens[other])), 409, "takeback_not_last_move")
    answer = client.post(session_url(session, "/undo"), json={},
                         headers=bearer(tokens[seat]))
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["entry"]["correction"] == "takeback"
    entries = read(client, session, tokens[seat], "/log")["entries"]
    assert [e.get("undone", False) for e in entries if "move" in e] == [True]
    assert read(client, session, tokens[seat])["view"]["hands"][seat - 1] == []
    # the seat enters again; the table undoes it
    assert play(client, session, tokens[seat], entry).status_code == 200
    answer = client.post(session_url(session, "/undo"), json={},
                         headers=bearer(session["table_token"]))
    assert answer.status_code == 200, answer.get_json()
    assert "card" not in canonical(answer.get_json()["view"]["hands"][seat - 1])


def test_the_table_enters_no_seat_move_and_a_companion_table_has_no_bots(client):
    assert_problem(client.post("/v1/sessions", json={
        "game": "threemagic", "players": 3, "mode": "companion", "bots": {"2": "strong"}}),
        422, "unprocessable")
    table = create_session(client, game="threemagic", players=3, mode="companion")
    assert_problem(client.put(session_url(table, "/seats/2/bot"), json={"level": "strong"},
                              headers=bearer(table["table_token"])), 422, "unprocessable")
    session = create_session(client, game="ghostone", players=3, mode="companion")
    state = read(client, session, session["table_token"])
    assert state["to_move"] != [CHANCE]  # Ghostone's placement: a seat moves first
    move = bare(read(client, session, session["seats"][0]["token"], "/legal-moves")["moves"][0])
    assert_problem(play(client, session, session["table_token"], move), 403, "forbidden")
    assert read(client, session, session["table_token"], "/legal-moves")["moves"] == []


@pytest.mark.parametrize("game,players", [("threemagic", 3), ("gematon", 3), ("vectron", 3),
                                          ("gizmos", 3)])
def test_a_whole_companion_game_each_token_entering_its_own(client, game, players):
    """To the end: every entry by the token awaited, every move by its seat; at every step
    the table token reads the spectator's view and is listed only public entries."""
    engine = engines()[game]
    session, tokens = joined_table(client, game, players)
    rnd = random.Random(f"companion/{game}")
    table, spectator = session["table_token"], session["spectator_token"]
    steps = private = public = 0
    while True:
        seen = read(client, session, table)
        assert seen["view"] == read(client, session, spectator)["view"]
        if not seen["to_move"]:
            break
        if seen["to_move"] == [CHANCE]:
            token = entrant_token(seen["view"], session, tokens)
            listed = read(client, session, token, "/legal-moves")["moves"]
            if seen["view"]["awaiting"] == "table":
                public += 1
            else:
                private += 1
                assert read(client, session, table, "/legal-moves")["moves"] == []
            state = held_state(client, session)  # the real cards, to enter true outcomes
            if any("describe" in m for m in listed):  # Vectron's layout: too many to list
                move = engine._sample_chance(state, Pcg32.from_seed(rnd.getrandbits(64)))
            else:
                real = {canonical(bare(m)) for m in engine.legal_moves(state)}
                move = rnd.choice([bare(m) for m in listed if canonical(bare(m)) in real])
        else:
            token = tokens[rnd.choice(seen["to_move"])]
            move = bare(rnd.choice(read(client, session, token, "/legal-moves")["moves"]))
        answer = play(client, session, token, move)
        assert answer.status_code == 200, (move, answer.get_json())
        steps += 1
        assert steps < 3000
    assert private > 0 and steps > 20
    score = read(client, session, table, "/score")
    assert score["final"] and score["winners"]


def test_the_stateless_apply_checks_a_companion_entry_only_when_told_its_entrant(client):
    """``entrant`` on /apply: the seat (or null, the table) that sends a companion entry is
    checked as a session checks it; left out, the holder of the whole state is not asked."""
    state = client.post("/v1/games/threemagic/new", json={
        "players": 3, "mode": "companion"}).get_json()["state"]
    receiver = ENGINE.awaiting(state)
    entry = bare(ENGINE.legal_moves(state)[0])
    other = receiver % 3 + 1
    for entrant in (None, other):
        assert_problem(client.post("/v1/games/threemagic/apply", json={
            "state": state, "move": entry, "entrant": entrant}), 403, "not_your_entry")
    for body in ({"entrant": receiver}, {}):
        answer = client.post("/v1/games/threemagic/apply",
                             json=dict(body, state=state, move=entry))
        assert answer.status_code == 200, answer.get_json()


def test_an_entrant_not_at_the_table_is_refused_in_every_mode(client):
    """Like view_as: a seat the document allows that this table lacks is 422 no_such_seat;
    one out of every table's range, 400 (the fuzzer's find: once accepted in digital mode)."""
    state = client.post("/v1/games/gematon/new", json={"players": 2}).get_json()["state"]
    move = bare(engines()["gematon"].legal_moves(state)[0])
    assert_problem(client.post("/v1/games/gematon/apply", json={
        "state": state, "move": move, "entrant": 3}), 422, "no_such_seat")
    assert_problem(client.post("/v1/games/gematon/apply", json={
        "state": state, "move": move, "entrant": 5}), 400, "bad_request")
