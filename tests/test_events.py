"""The event stream (issue 12.1) against real parts: gunicorn gateways on gevent
workers, every game service, a real Redis. Sessions are driven with the project's
Python client; streams are read over real HTTP."""

import json
import threading

import pytest
import requests

from referee.embedded import free_port
from referee.engine import ANNOTATIONS
from referee.registry import engines
from referee.sessions.store import SessionStore, connect
from referee.stack import Stack
from referee_client import Referee as Client
from support import assert_problem, bearer

pytestmark = pytest.mark.e2e
SECRET_GAMES = sorted(g for g, e in engines().items() if e.has_secrets)


OPENED = []


def Referee(url):
    """A client, closed with the module's stack."""
    OPENED.append(Client(url))
    return OPENED[-1]


@pytest.fixture(scope="module")
def stack(redis_url):
    env = {"LOG_LEVEL": "warning", "RATE_LIMIT_PER_MINUTE": "0",
           "STREAM_HEARTBEAT_SECONDS": "1"}
    with Stack(port=free_port(), workers=1, threads=4, redis_url=redis_url,
               log=lambda line: None, env=env) as running:
        running.second_url = running.add_gateway(free_port())
        yield running
        for referee in OPENED:
            referee.close()


@pytest.fixture(scope="module")
def session_store(redis_url):
    return SessionStore(connect(redis_url), 60)


def collect(handle, since, last_version, kinds=None):
    """Events after ``since`` up to ``last_version`` (the stream's reads are bounded)."""
    got = []
    for event in handle.events(since=since, read_timeout=20):
        if kinds is None or event.event in kinds:
            got.append(event)
        if event.id is not None and event.id >= last_version and event.event != "state":
            break
        if event.event in ("end", "revoked"):
            break
    return got


def play_first_moves(table, count):
    """Each acting seat plays its first legal move, ``count`` times (or to the end)."""
    for _ in range(count):
        to_move = table.spectator.view()["to_move"]
        if not to_move:
            return
        seat = table.seats[to_move[0]]
        seat.move(seat.legal_moves()[0])


def test_a_move_made_on_one_gateway_is_pushed_by_the_other(stack):
    one, other = Referee(stack.url), Referee(stack.second_url)
    table = one.create("ghostone", players=3, seed=11)
    watcher = other.session(table.session_id, table.seats[2].token)
    got = []
    reader = threading.Thread(target=lambda: got.extend(collect(watcher, 0, 1)))
    reader.start()
    seat = table.seats[1]
    moved = seat.move(seat.legal_moves()[0])
    reader.join(30)
    assert [e.id for e in got] == [moved["version"]] and got[0].event == "move"
    assert got[0].data["entry"]["by"] == "seat:1"
    assert got[0].data["view"] == watcher.view()["view"]


@pytest.mark.parametrize("game", SECRET_GAMES)
def test_every_pushed_event_is_redacted_for_its_token(stack, session_store, game):
    """The same check as the views': each event's view, move and events are exactly
    the engine's redaction for the token's seat, and the generator never shows."""
    engine = engines()[game]
    referee = Referee(stack.url)
    table = referee.create(game, players=engine.min_players, seed=8)
    play_first_moves(table, 15)
    sid, last = table.session_id, table.spectator.view()["version"]
    raw = {e["version"]: e for e in session_store.entries(sid)}
    handles = [(h, h.seat) for h in table.seats.values()]
    handles += [(table.spectator, None), (table.table, None)]
    for handle, seat in handles:
        events = collect(handle, 0, last)  # from the start: the setup's entry comes first
        assert [e.id for e in events] == sorted(raw), "every version once, in order"
        for event in events:
            entry, original = event.data["entry"], raw[event.id]
            state = session_store.snapshot(sid, event.id)
            assert event.data["view"] == engine.view(state, seat)
            assert entry["events"] == engine.view_events(original["events"], seat)
            if original.get("setup"):  # the deals, no move
                assert event.event == "setup" and "move" not in entry
                continue
            shown_move = {k: v for k, v in entry["move"].items() if k != "text"}
            assert shown_move == engine.view_move(original["move"], seat)
            text = json.dumps(event.data)
            assert state["rng"]["state"] not in text and '"rng"' not in text


def test_last_event_id_resumes_without_a_gap(stack):
    referee = Referee(stack.url)
    table = referee.create("vectron", players=2, seed=3)
    start = table.created["version"]
    play_first_moves(table, 3)
    middle = table.spectator.view()["version"]
    play_first_moves(table, 3)
    last = table.spectator.view()["version"]
    seat = table.seats[1]
    first_part = collect(seat, start, middle)
    rest = collect(seat, first_part[-1].id, last)
    whole = collect(seat, start, last)
    assert [e.id for e in first_part + rest] == [e.id for e in whole]
    assert len(whole) == len(set(e.id for e in whole)) >= 6
    raw = requests.get(f"{stack.url}/v1/sessions/{table.session_id}/events?since={middle}",
                       headers=bearer(seat.token), stream=True, timeout=(5, 20))
    ids = []
    for line in raw.iter_lines(decode_unicode=True):
        if line.startswith("id: "):
            ids.append(int(line[4:]))
            if ids[-1] == last:
                break
    raw.close()
    assert ids == [e.id for e in whole if e.id > middle]


def test_an_idle_stream_gets_heartbeats_and_a_live_one_starts_with_the_state(stack):
    referee = Referee(stack.url)
    table = referee.create("ghostone", players=3, seed=5)
    answer = requests.get(f"{stack.url}/v1/sessions/{table.session_id}/events",
                          headers=bearer(table.spectator.token), stream=True, timeout=(5, 20))
    assert answer.headers["Content-Type"].startswith("text/event-stream")
    lines = []
    for line in answer.iter_lines(decode_unicode=True):
        lines.append(line)
        if line.startswith(":"):
            break
    answer.close()
    assert lines[0] == "retry: 2000"
    assert "event: state" in lines and lines[-1] == ": keep-alive"
    state = json.loads(next(x for x in lines if x.startswith("data: "))[6:])
    assert state["you"] == {"role": "spectator", "seat": None}


def test_a_correction_is_announced_and_a_revoked_or_ended_stream_says_so(stack):
    referee = Referee(stack.url)
    table = referee.create("ghostone", players=3, seed=2, mode="tabletop")
    for _ in range(2):
        table.table.move(table.table.legal_moves()[0])
    undone = table.table.undo()
    events = collect(table.spectator, table.created["version"], undone["version"])
    assert events[-1].event == "correction"
    assert events[-1].data["entry"]["versions"] == undone["entry"]["versions"]
    assert events[-1].data["view"] == table.spectator.view()["view"]
    revoked = watch_while(table.seats[1], lambda: table.table.reissue(1))
    assert [e.event for e in revoked] == ["state", "revoked"], "nothing after the re-issue"
    ended = watch_while(table.spectator, table.table.delete)
    assert [e.event for e in ended] == ["state", "end"]


def watch_while(handle, action):
    """The events a live stream receives while ``action`` runs (it runs once the
    stream is open: after its first event, the ``state``)."""
    got, opened = [], threading.Event()

    def read():
        for event in handle.events(read_timeout=20):
            got.append(event)
            opened.set()
            if event.event in ("end", "revoked"):
                return

    reader = threading.Thread(target=read)
    reader.start()
    assert opened.wait(20), "the stream opened"
    action()
    reader.join(30)
    return got


def test_stream_refusals(stack, client, gateway_app):
    referee = Referee(stack.url)
    table = referee.create("ghostone", players=3)
    url = f"{stack.url}/v1/sessions/{table.session_id}/events"
    with requests.Session() as http:
        assert http.get(url, headers=bearer("nope"), timeout=10).status_code == 401
        bad = http.get(url, headers={**bearer(table.spectator.token),
                                     "Last-Event-ID": "x"}, timeout=10)
        # a malformed ?since= beside a good Last-Event-ID (found by schemathesis, issue 30)
        beside = http.get(f"{url}?since=H&since=false", headers={
            **bearer(table.spectator.token), "Last-Event-ID": "0"}, timeout=10)
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"
    assert beside.status_code == 400 and beside.json()["code"] == "bad_request"
    full = dict(gateway_app.config, STREAM_MAX_PER_WORKER=0)
    from referee_gateway import create_app
    crowded = create_app({k: full[k] for k in (
        "REDIS_URL", "REDIS_CLUSTER", "GAME_SERVICES", "STREAM_MAX_PER_WORKER")})
    created = client.post("/v1/sessions", json={"game": "ghostone", "players": 3}).get_json()
    answer = crowded.test_client().get(f"/v1/sessions/{created['session_id']}/events",
                                       headers=bearer(created["spectator_token"]))
    crowded.extensions["sessions"].client.close()
    assert_problem(answer, 503, "service_unavailable")
    assert int(answer.headers["Retry-After"]) >= 1


def test_every_deployment_runs_the_gateway_alone_on_gevent_workers():
    """Compose, Kubernetes and make run (Stack) agree: streams are greenlets in the
    gateway; the game services keep their threads."""
    from pathlib import Path

    import yaml
    root = Path(__file__).parents[1]
    compose = yaml.safe_load((root / "docker-compose.yml").read_text())["services"]
    assert compose["gateway"]["environment"]["GUNICORN_WORKER_CLASS"] == "gevent"
    games = [name for name in compose if name not in ("gateway", "redis")]
    assert games and all("GUNICORN_WORKER_CLASS" not in str(compose[g]) for g in games)
    gateway = next(d for d in yaml.safe_load_all((root / "k8s/base/gateway.yaml").read_text())
                   if d["kind"] == "Deployment")
    env = {e["name"]: e.get("value") for e in
           gateway["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert env["GUNICORN_WORKER_CLASS"] == "gevent"
    config = yaml.safe_load((root / "k8s/base/config.yaml").read_text().split("---")[0])["data"]
    assert "GUNICORN_WORKER_CLASS" not in config, "the game services share the ConfigMap"


def test_a_session_without_a_seed_never_streams_its_generators_key(stack, session_store):
    """Issue 27.2 on the stream: every event each token receives, from the start, says
    "seeded": false in its view and holds no part of the session's secret key."""
    engine = engines()["threemagic"]
    table = Referee(stack.url).create("threemagic", players=engine.min_players)
    play_first_moves(table, 8)
    sid, last = table.session_id, table.spectator.view()["version"]
    key = session_store.load(sid).state["rng"]["key"]
    for handle in [*table.seats.values(), table.spectator, table.table]:
        events = collect(handle, 0, last)
        assert events and all(e.data["view"]["seeded"] is False for e in events)
        text = json.dumps([e.data for e in events])
        assert key[:16] not in text and key[16:32] not in text and '"rng"' not in text


def test_an_entry_conflict_is_pushed_to_every_token_as_the_same_public_dispute(
        stack, session_store):
    """Companion Three Magic: a seat claims a card whose last copies another hand holds;
    every token's stream (table, spectator, each seat) gets one `dispute` event, the same
    entry for all, naming who entered and never the card."""
    referee = Referee(stack.url)
    table = referee.create("threemagic", players=3, seed=5, mode="companion")
    engine = engines()["threemagic"]

    def bare(move):
        return json.dumps({k: v for k, v in move.items() if k not in ANNOTATIONS},
                          sort_keys=True)

    for _ in range(200):
        awaited = table.table.awaiting()
        entrant = table.table if awaited == "table" else table.seats[awaited]
        listed = entrant.legal_moves()
        true = {bare(m) for m in engine.legal_moves(session_store.load(
            table.session_id).state)}
        claims = [m for m in listed if bare(m) not in true]
        if claims:
            break
        entrant.move(next(json.loads(bare(m)) for m in listed if bare(m) in true))
    assert claims, "a possible-looking entry held by another hand came up"
    before = table.spectator.view()["version"]
    claim = json.loads(bare(claims[0]))
    with pytest.raises(Exception) as refused:
        entrant.move(claim)
    assert getattr(refused.value, "code", None) == "entry_conflict"
    streams = [table.table, table.spectator, *table.seats.values()]
    frames = [collect(handle, before, before + 1) for handle in streams]
    assert all([e.event for e in got] == ["dispute"] for got in frames), frames
    # the same entry for all; each token's view is its own, as it stood (nothing changed)
    assert all(got[0].data["entry"] == frames[0][0].data["entry"] for got in frames)
    assert all(got[0].data["view"] == handle.view()["view"]
               for got, handle in zip(frames, streams))
    data = frames[0][0].data
    assert data["entry"]["dispute"] == {"code": "entry_conflict", "at_version": before}
    assert data["entry"]["by"] == (f"seat:{awaited}" if awaited != "table" else "table")
    assert str(claim["card"]) not in json.dumps(data["entry"])
