"""Bots at a session's seats (issue 14): given at creation or by the table token, played by
the bot worker from the seat's view alone through the same compare-and-set as a person; a
seat's hint. The worker here is the real one (its play step, on the real store and services);
the last test runs it as its own process beside real gunicorn."""

import threading
import time
from collections import Counter

import pytest

from referee.embedded import free_port
from referee.sessions import keys
from referee.stack import Stack
from referee_client import Referee
from referee_gateway.botworker import BotWorker
from referee_gateway.upstream import Upstream
from support import (
    assert_problem, bearer, create_session, first_move, play, seat_token, session_url,
)


class RecordingUpstream(Upstream):
    """The real upstream, remembering what the worker sent each service route."""

    def __init__(self, upstream: Upstream):
        super().__init__(upstream.services, *upstream.timeout, upstream.retry_after)
        self.sent: list[tuple[str, dict]] = []

    def call(self, game, path, payload=None):
        self.sent.append((path, payload))
        return super().call(game, path, payload)


@pytest.fixture
def worker(gateway_app):
    upstream = RecordingUpstream(gateway_app.extensions["upstream"])
    bots = BotWorker(gateway_app.extensions["sessions"], upstream, budget_ms=50)
    yield bots
    upstream.close()


def shown(client, session, token):
    return client.get(session_url(session), headers=bearer(token)).get_json()


def test_seats_given_to_bots_at_creation_play_by_themselves_to_the_end(client, worker):
    session = create_session(client, game="gematon", players=3, seed=7,
                             bots={"2": "random", "3": "greedy"})
    assert session["seats"][1:] == [{"seat": 2, "status": "bot", "bot": "random"},
                                    {"seat": 3, "status": "bot", "bot": "greedy"}]
    assert "token" in session["seats"][0]
    token = seat_token(session, 1)
    assert shown(client, session, token)["seats"][2] == {"seat": 3, "status": "bot",
                                                         "bot": "greedy"}
    for _ in range(2000):
        to_move = shown(client, session, token)["to_move"]
        if not to_move:
            break
        if 1 in to_move:
            assert play(client, session, token,
                        first_move(client, session, token)).status_code == 200
        else:
            assert worker.play(session["session_id"]), f"no bot moved for {to_move}"
    else:
        pytest.fail("the game did not end")
    entries = client.get(session_url(session, "/log"), headers=bearer(token)).get_json()
    by = Counter(e.get("by") for e in entries["entries"])
    assert by["bot:2"] > 3 and by["bot:3"] > 3 and by["seat:1"] > 3
    assert client.get(session_url(session, "/score"),
                      headers=bearer(token)).get_json()["final"]


def test_the_worker_sends_a_bot_its_seats_view_only_never_the_state(client, worker):
    session = create_session(client, game="threemagic", players=3, seed=2,
                             bots={"1": "strong", "2": "strong", "3": "strong"})
    assert session["started"]
    for _ in range(6):
        assert worker.play(session["session_id"])
    # a table of bots only would go on playing in every later stack on this Redis
    client.delete(session_url(session), headers=bearer(session["table_token"]))
    asked = [payload for path, payload in worker.upstream.sent if path == "/v1/bot-move"]
    views = [payload for path, payload in worker.upstream.sent if path == "/v1/view"]
    assert asked and len(asked) == len(views)
    for request, view_request in zip(asked, views):
        assert set(request) == {"view", "seat", "level", "budget_ms", "seed"}
        assert view_request["seat"] == request["seat"]
        hands = request["view"]["hands"]
        assert all(isinstance(hand, dict) for s, hand in enumerate(hands, start=1)
                   if s != request["seat"]), "other seats' hands are hidden from the bot"


def test_the_table_gives_a_seat_to_a_bot_and_takes_it_back(client, worker):
    session = create_session(client, game="ghostone", players=3, seed=3)
    table, old = session["table_token"], seat_token(session, 2)
    url = session_url(session, "/seats/2/bot")
    assert_problem(client.put(url, json={"level": "strong"}, headers=bearer(old)),
                   403, "forbidden")
    assert_problem(client.put(url, json={"level": "genius"}, headers=bearer(table)),
                   400, "bad_request")
    assert_problem(client.put(session_url(session, "/seats/4/bot"), json={"level": "random"},
                              headers=bearer(table)), 422, "no_such_seat")
    given = client.put(url, json={"level": "random"}, headers=bearer(table))
    assert given.status_code == 200, given.get_json()
    assert given.get_json()["seats"][1] == {"seat": 2, "status": "bot", "bot": "random"}
    assert_problem(client.get(session_url(session), headers=bearer(old)), 401, "unauthorized")
    seat1 = seat_token(session, 1)
    assert play(client, session, seat1, first_move(client, session, seat1)).status_code == 200
    assert worker.play(session["session_id"])
    assert shown(client, session, seat1)["to_move"] == [3], "the bot moved, then seat 3"
    back = client.delete(url, headers=bearer(table))
    assert back.status_code == 200 and back.get_json()["seats"][1]["status"] == "absent"
    assert_problem(client.delete(url, headers=bearer(table)), 409, "no_bot")
    token = client.post(session_url(session, "/seats/2/token"),
                        headers=bearer(table)).get_json()["token"]
    assert shown(client, session, token)["you"] == {"role": "seat", "seat": 2}


def test_the_bot_channel_hears_the_tables_with_a_bot_and_no_other(client, gateway_app):
    """The bot worker listens on a channel of its own: a change of a session with a bot
    seat is announced there, a move at a table of people only is not (the workers do
    nothing for it), and a seat given to a bot is."""
    store = gateway_app.extensions["sessions"]
    pubsub = store.client.pubsub()
    pubsub.subscribe(keys.BOT_CHANNEL)
    for _ in range(50):  # the subscription is confirmed before anything is announced
        message = pubsub.get_message(timeout=1.0)
        if message and message["type"] == "subscribe":
            break
    people = create_session(client, game="ghostone", players=3, seed=3)
    with_bot = create_session(client, game="ghostone", players=3, seed=3, bots={"3": "random"})
    moved = {}
    for session in (people, with_bot):
        token = seat_token(session, 1)
        answer = play(client, session, token, first_move(client, session, token))
        assert answer.status_code == 200
        moved[session["session_id"]] = answer.get_json()["version"]
    given = client.put(session_url(people, "/seats/2/bot"), json={"level": "random"},
                       headers=bearer(people["table_token"]))
    assert given.status_code == 200, given.get_json()
    expected = {with_bot["session_id"],                                  # created: look now
                f"{with_bot['session_id']} {moved[with_bot['session_id']]}",  # seat 1 moved
                f"{people['session_id']} {given.get_json()['version']}",  # seat 2 given a bot
                people["session_id"]}                                    # and look now
    people_moved = f"{people['session_id']} {moved[people['session_id']]}"
    # On a Redis Cluster a message published on another node arrives later through the
    # cluster bus, in no order with the others: read until the four have arrived. A
    # message of a session's own commits comes from that session's node, in order, so
    # people's move, had it been announced, would have come before its seat change.
    heard = []
    while not expected <= set(heard) and (message := pubsub.get_message(timeout=10.0)):
        if message["type"] == "message" and message["data"].split()[0] in (
                people["session_id"], with_bot["session_id"]):
            heard.append(message["data"])
    pubsub.close()
    assert sorted(heard) == sorted(expected), heard
    assert people_moved not in heard


def test_a_table_with_a_person_has_a_lane_of_its_own_bots_only_never_move_in_it(
        client, worker):
    """A table of bots only plays itself for as long as its game lasts; a bot at a table
    with a person must not wait for it (issue 28: four such tables delayed a person's bot
    by 18 s). Tables with a person have a thread of their own; a table of bots only is
    handed over to the other thread at its first look, before any thinking."""
    bots_only = create_session(client, game="threemagic", players=3, seed=5,
                               bots={"1": "random", "2": "random", "3": "random"})
    mixed = create_session(client, game="ghostone", players=3, seed=3, bots={"2": "random"})
    seat1 = seat_token(mixed, 1)
    assert play(client, mixed, seat1, first_move(client, mixed, seat1)).status_code == 200
    played = []  # (lane, session, whether its version moved), in the worker's order
    play_one, store = worker.play, worker.store

    def recorded(sid, lane=None):
        before = store.load(sid).version
        made = play_one(sid, lane)
        played.append((lane.name, sid, store.load(sid).version != before))
        if (sid == mixed["session_id"] and played[-1][2]) or len(played) >= 200:
            worker.stop()
        return made

    worker.play = recorded
    safety = threading.Timer(120, worker.stop)  # a hung loop fails below, not the run
    safety.start()
    try:
        worker.run()
    finally:
        safety.cancel()
        client.delete(session_url(bots_only), headers=bearer(bots_only["table_token"]))
    assert ("people", mixed["session_id"], True) in played, played
    assert shown(client, mixed, seat1)["to_move"] == [3]
    in_people = [moved for lane, sid, moved in played
                 if sid == bots_only["session_id"] and lane == "people"]
    assert in_people == [False], f"the table of bots only moved in the people's lane: {played}"


def test_an_open_table_with_a_bot_starts_when_the_people_have_joined(client, worker):
    session = create_session(client, game="gematon", players=2, seats="open",
                             bots={"2": "greedy"})
    assert not session["started"]
    assert session["seats"] == [{"seat": 1, "status": "open"},
                                {"seat": 2, "status": "bot", "bot": "greedy"}]
    joined = client.post("/v1/sessions/join", json={"code": session["join_code"]})
    assert joined.status_code == 201, joined.get_json()
    assert joined.get_json()["seat"] == 1
    assert shown(client, session, joined.get_json()["token"])["started"]


def test_bot_seats_must_exist_and_levels_be_known(client):
    for bots, status, code in (({"4": "random"}, 422, "no_such_seat"),
                               ({"1": "genius"}, 400, "bad_request"),
                               ({"x": "random"}, 422, "no_such_seat"),
                               ({"0": "random"}, 422, "no_such_seat")):
        answer = client.post("/v1/sessions", json={"game": "ghostone", "players": 3,
                                                   "bots": bots})
        assert_problem(answer, status, code)


def test_a_hint_is_a_legal_move_of_the_callers_seat_from_its_view(client):
    session = create_session(client, game="gizmos", players=2, seed=11)
    token = seat_token(session, 1)
    hint = client.get(session_url(session, "/hint?level=greedy&budget_ms=50"),
                      headers=bearer(token))
    assert hint.status_code == 200, hint.get_json()
    body = hint.get_json()
    moves = client.get(session_url(session, "/legal-moves"),
                       headers=bearer(token)).get_json()["moves"]
    assert body["move"] in moves and body["level"] == "greedy"
    assert body["version"] == session["version"]
    assert_problem(client.get(session_url(session, "/hint"),
                              headers=bearer(seat_token(session, 2))), 403, "not_your_turn")
    assert_problem(client.get(session_url(session, "/hint"),
                              headers=bearer(session["spectator_token"])), 403, "forbidden")
    assert_problem(client.get(session_url(session, "/hint?level=genius"),
                              headers=bearer(token)), 400, "bad_request")


@pytest.mark.e2e
def test_the_bot_worker_process_plays_its_seats_beside_real_gunicorn(redis_url):
    """make run's stack: one person against two bots at Three Magic (three seats, always),
    the person only ever waiting for the bots' moves to arrive."""
    with Stack(port=free_port(), workers=1, threads=4, redis_url=redis_url,
               log=lambda line: None, env={"LOG_LEVEL": "warning", "BOT_BUDGET_MS": "50",
                                           "RATE_LIMIT_PER_MINUTE": "0"}) as stack, \
            Referee(stack.url) as referee:
        table = referee.create("threemagic", players=3, seed=4,
                               bots={2: "random", 3: "greedy"})
        me = table.seats[1]
        assert set(table.seats) == {1}, "bot seats have no token"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            to_move = me.view()["to_move"]
            if not to_move:
                break
            if 1 in to_move:
                me.move(me.legal_moves()[0])
            else:
                time.sleep(0.05)
        else:
            pytest.fail("the bots stalled the game")
        by = Counter(e.get("by") for e in me.log())
        assert by["bot:2"] > 10 and by["bot:3"] > 10


def test_the_bot_worker_waits_out_a_session_store_that_stops_answering(caplog):
    """A Redis restart or failover is not a crash: the worker warns, waits and goes on."""
    from referee.embedded import EmbeddedRedis
    from referee.sessions.store import SessionStore, connect

    redis_server = EmbeddedRedis().start()
    store = SessionStore(connect(redis_server.url), 3600)
    bots = BotWorker(store, upstream=None, sweep_seconds=0.1)
    running = threading.Thread(target=bots.run, daemon=True)
    running.start()
    try:
        redis_server.stop()
        deadline = time.monotonic() + 30  # a bound on a busy machine, not a measurement
        while "did not answer" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "did not answer" in caplog.text
        assert running.is_alive()
        redis_server = EmbeddedRedis(port=redis_server.port).start()
        caplog.clear()
        time.sleep(2 * 1.0 + 0.5)  # its wait, then a sweep or two against the new server
        assert running.is_alive()
    finally:
        bots.stop()
        running.join(10)
        store.client.close()
        redis_server.stop()
    assert not running.is_alive()


def lag_samples(lane: str) -> tuple[float, float]:
    """(count, sum) of the bot worker's lag histogram for ``lane`` in this process."""
    from prometheus_client import REGISTRY
    read = REGISTRY.get_sample_value
    return (read("referee_botworker_lag_seconds_count", {"lane": lane}) or 0.0,
            read("referee_botworker_lag_seconds_sum", {"lane": lane}) or 0.0)


def test_each_bot_move_observes_its_lag_from_the_tables_due_mark(client, worker):
    """Issue 31: the lag runs from the change that made it a bot's turn (the table's due mark)
    to the bot's move landing; a failed try marks the table due later, the turn still began
    at the first mark."""
    from prometheus_client import REGISTRY
    session = create_session(client, game="ghostone", players=3, seed=5,
                             bots={"2": "random", "3": "random"})
    sid, seat1 = session["session_id"], seat_token(session, 1)
    store = worker.store
    moved = {"game": "ghostone", "lane": "people"}
    moves_before = REGISTRY.get_sample_value("referee_botworker_moves_total", moved) or 0.0
    count_before, sum_before = lag_samples("people")
    assert play(client, session, seat1, first_move(client, session, seat1)).status_code == 200
    # the move marked the table due; its bot's turn began 30 s ago, say
    store.watch_bots(sid, at=store.bot_due_at(sid) - 30)
    assert worker.play(sid) and 1 not in shown(client, session, seat1)["to_move"]
    count, total = lag_samples("people")
    assert count == count_before + 1 and total - sum_before >= 30
    # the next bot's turn began when that move landed: its lag is its own, not 30 s more
    assert worker.play(sid)
    count, second = lag_samples("people")
    assert count == count_before + 2 and second - total < 30
    assert REGISTRY.get_sample_value("referee_botworker_moves_total", moved) == \
        moves_before + 2 == moves_before + worker.moves


def test_the_bot_worker_process_serves_its_metrics_as_the_image_runs_it(redis_url, tmp_path):
    """As in its container: PROMETHEUS_MULTIPROC_DIR set (for gunicorn's workers) to a folder
    nobody made, BIND on every address; its series at 0 before any bot moved."""
    import os
    import subprocess
    import sys

    import requests
    from prometheus_client.parser import text_string_to_metric_families
    from referee.stack import wait_alive

    port, heartbeat = free_port(), tmp_path / "bots-alive"
    env = {**os.environ, "REDIS_URL": redis_url, "METRICS_PORT": str(port),
           "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "not-made-yet"), "BIND": "0.0.0.0:8000",
           "BOT_HEARTBEAT_FILE": str(heartbeat), "GAME_SERVICES": "ghostone=http://127.0.0.1:9",
           "LOG_LEVEL": "warning"}
    worker = subprocess.Popen([sys.executable, "-m", "referee_gateway.botworker"], env=env)
    try:
        wait_alive(str(heartbeat), worker)
        text = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
        samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
                   for f in text_string_to_metric_families(text) for s in f.samples}
        for lane in ("people", "bots-only"):
            assert samples[("referee_botworker_moves_total",
                            (("game", "ghostone"), ("lane", lane)))] == 0
            assert samples[("referee_botworker_lag_seconds_count", (("lane", lane),))] == 0
        assert samples[("referee_botworker_errors_total", (("reason", "upstream"),))] == 0
    finally:
        worker.terminate()
        assert worker.wait(30) == 0
