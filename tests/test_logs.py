"""JSON log lines (issue 18): one line per request per process with the fields an operator
searches by, at levels that can be turned down, and never a token, a state or a view."""

import io
import json
import logging
import os
import random
import time
from datetime import datetime

import pytest
from referee import batches, logs
from referee.conformance import perturbation
from referee.registry import engines
from referee.sessions import keys
from referee.sessions.store import connect, unpack
from referee.stack import installed_games
from support import bearer
from test_metrics import gateway_without_limit, play_a_whole_game

ACCESS_FIELDS = {"time", "level", "logger", "message", "request_id", "service", "method",
                 "route", "game", "status", "duration_ms", "session_id"}


@pytest.fixture(scope="module")
def unlimited(redis_url, service_urls):
    return gateway_without_limit(redis_url, service_urls)


@pytest.fixture
def written():
    """Every line the process logs meanwhile, at every level, as the servers write them."""
    stream, root = io.StringIO(), logging.getLogger()
    handler, level = logs.json_handler(stream), root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)

    def lines():
        batches.flush_all()  # access lines: their records are made in a batch
        return [json.loads(line) for line in stream.getvalue().splitlines()]
    yield lines
    root.removeHandler(handler)
    root.setLevel(level)


def hidden_fragments(game: str, states: list[dict]) -> set[str]:
    """What some seat may not see, as a log line would spell it: every container the
    game's ``perturb_hidden`` changes (hands, decks, bags) and every card in one, in
    compact and spaced JSON; and the generator of every state (no view ever shows it)."""
    engine, rnd, found = engines()[game], random.Random(game), set()
    perturb = perturbation(engine)

    def differ(mine, other):
        if mine == other:
            return
        if isinstance(mine, dict) and isinstance(other, dict):
            for key in mine.keys() & other.keys():
                differ(mine[key], other[key])
        elif isinstance(mine, list):
            if len(mine) >= 2:
                found.update({json.dumps(mine), json.dumps(mine, separators=(",", ":"))})
            found.update(json.dumps(card) for card in mine if isinstance(card, str)
                         and len(card) >= 2)
            if isinstance(other, list) and len(other) == len(mine):
                for a, b in zip(mine, other, strict=True):
                    differ(a, b)
        elif isinstance(mine, str) and len(mine) >= 2:
            found.add(json.dumps(mine))

    for state in states:
        found.add(state["rng"]["state"])
        if perturb is not None:
            for seat in range(1, state["players"] + 1):
                differ(state, perturb(state, seat, rnd))
    return found


def test_every_game_logs_one_line_per_request_per_process_and_no_secret(unlimited, written,
                                                                        redis_url):
    redis = connect(redis_url)
    secrets, ids = set(), []
    for game in sorted(installed_games()):
        played = play_a_whole_game(unlimited, game, seed=11)
        sid = played["session"]["session_id"]
        states = [unpack(packed) for packed in redis.hgetall(keys.snapshots(sid)).values()]
        assert len(states) > played["moves"] // 2, "the game's states were read back"
        secrets |= hidden_fragments(game, states) | set(played["tokens"])
        ids += played["ids"]
    lines = written()
    assert secrets and len(lines) > len(ids)
    for line in lines:
        text = json.dumps(line)
        assert {"time", "level", "logger", "message"} <= set(line)
        assert '"to_move"' not in text and '"rng"' not in text, text  # no state, no view
        leaked = [s for s in secrets if s in text]
        assert not leaked, (leaked, text)
    access = [line for line in lines if line["logger"] == "referee.access"]
    assert all(ACCESS_FIELDS <= set(line) for line in access)
    for request_id in ids:  # each request: one line at the gateway, one at the game service
        mine = [line for line in access if line["request_id"] == request_id]
        assert sorted(line["service"] == "gateway" for line in mine) == [False, True], mine


def test_an_access_line_names_what_an_operator_searches_by(unlimited, written):
    created = unlimited.post("/v1/sessions", json={"game": "ghostone", "players": 3})
    session = created.get_json()
    refused = unlimited.post(f"/v1/sessions/{session['session_id']}/moves", json={
        "move": {"type": "place", "plate": "b2", "rocks": ["d4", "a1", "c4"]}},
        headers={**bearer(session["seats"][0]["token"]), "X-Request-Id": "move-at-2104"})
    assert refused.status_code == 422
    line = next(r for r in written() if r.get("request_id") == "move-at-2104"
                and r.get("service") == "gateway")
    assert line["level"] == "INFO" and line["logger"] == "referee.access"
    assert line["time"].endswith("+00:00") and line["duration_ms"] >= 0
    assert (line["method"], line["route"], line["game"], line["status"]) == (
        "POST", "/v1/sessions/<sid>/moves", "ghostone", 422)
    assert line["session_id"] == session["session_id"]
    assert (line["code"], line["rule"]) == ("illegal_move", "G-2.3")


def test_levels_probes_at_debug_failures_at_error(redis_url, written):
    from referee.embedded import free_port
    from referee_gateway import create_app
    client = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATE_LIMIT_PER_MINUTE": 0,
                         "GAME_SERVICES": {"ghostone": f"http://127.0.0.1:{free_port()}"}}
                        ).test_client()
    probe = client.get("/healthz").headers["X-Request-Id"]
    down = client.get("/v1/games/ghostone").headers["X-Request-Id"]
    levels = {r["request_id"]: r["level"] for r in written() if r["logger"] == "referee.access"}
    assert (levels[probe], levels[down]) == ("DEBUG", "ERROR")
    warned = [r for r in written() if r["level"] == "WARNING" and r.get("request_id") == down]
    assert warned, "the upstream failure's warning carries the request's id"


def test_configure_installs_one_json_handler_at_the_level_asked():
    root = logging.getLogger()
    before_handlers, before_level = list(root.handlers), root.level
    try:
        logs.configure("warning")
        logs.configure("warning")
        ours = [h for h in root.handlers if getattr(h, "_referee_json", False)]
        assert len(ours) == 1 and root.level == logging.WARNING
        assert not logging.getLogger("referee.access").isEnabledFor(logging.INFO)
        logs.configure("debug")
        assert logging.getLogger("referee.access").isEnabledFor(logging.DEBUG)
    finally:
        root.handlers[:] = before_handlers
        root.setLevel(before_level)


@pytest.fixture
def writes(monkeypatch):
    """Every ``os.write`` the log handlers make, as (fd, bytes), still written."""
    made, write = [], os.write

    def counted(fd, data):
        made.append((fd, bytes(data)))
        return write(fd, data)
    monkeypatch.setattr(logs.os, "write", counted)
    return made


@pytest.fixture
def line_log(tmp_path):
    """A logger writing through its own LineHandler to a file; the handler's flusher
    waits an hour, so only what the test does writes lines."""
    path = tmp_path / "lines.log"
    with open(path, "a") as stream:
        handler = logs.json_handler(stream)
        handler.interval = 3600
        log = logging.getLogger("referee.test_lines")
        log.addHandler(handler)
        log.propagate, log.level = False, logging.DEBUG
        try:
            yield log, handler, path
        finally:
            log.removeHandler(handler)


def test_lines_wait_then_leave_together_whole_and_in_order(line_log, writes):
    """A write is a system call: lines go out in batches of whole lines, each batch at
    most PIPE_BUF bytes (the kernel keeps such a write whole on a pipe)."""
    import select
    log, handler, path = line_log
    for n in range(100):
        log.info("line %d", n)
    assert writes == []  # they wait (at most the handler's interval)
    handler.flush()
    assert 100 * 100 // select.PIPE_BUF <= len(writes) < 100 // 2
    for _, data in writes:
        assert len(data) <= select.PIPE_BUF and data.endswith(b"\n")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["message"] for line in lines] == [f"line {n}" for n in range(100)]


def test_waiting_records_are_formatted_as_they_leave_with_their_message_as_logged(
        line_log, monkeypatch):
    """Formatting a batch in a row costs a request less than a line at a time: nothing is
    formatted while the records wait, and each one's message is the one it was logged
    with, whatever its arguments became meanwhile."""
    log, handler, path = line_log
    formatted = []
    format_one = handler.formatter.format
    monkeypatch.setattr(handler.formatter, "format",
                        lambda record: formatted.append(record) or format_one(record))
    seats = [1]
    for n in range(10):
        log.info("line %d, seats %s", n, seats)
    seats.append(2)
    assert formatted == []
    handler.flush()
    assert len(formatted) == 10
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["message"] for line in lines] == [f"line {n}, seats [1]" for n in range(10)]


def test_a_warning_is_written_at_once_with_the_lines_before_it(line_log, writes):
    import select
    log, handler, path = line_log
    log.info("first")
    log.warning("then a warning")
    assert len(writes) == 1
    log.error("long %s", "x" * select.PIPE_BUF)  # longer than PIPE_BUF: a write of its own
    assert len(writes) == 2 and len(writes[1][1]) > select.PIPE_BUF
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["message"][:5] for line in lines] == ["first", "then ", "long "]


def test_an_access_line_is_made_in_a_batch_with_the_time_it_was_logged(line_log, writes,
                                                                       monkeypatch):
    """A request hands its access line over (``logs.later``): no record is made in the
    request; the line has the time it was logged, and a warning logged after it is written
    after it."""
    log, handler, path = line_log
    monkeypatch.setattr(logs.RECORDS, "interval", 3600)
    made = []
    make = log.makeRecord
    monkeypatch.setattr(log, "makeRecord", lambda *a, **k: made.append(a) or make(*a, **k))
    before = time.time()
    logs.later(log, logging.INFO, {"request_id": "r-1", "status": 200}, "GET %s %s", "/x", 200)
    after = time.time()
    assert made == [] and writes == []
    time.sleep(0.05)
    log.warning("then a warning")
    assert len(made) == 2 and len(writes) == 2  # the access line, then the warning
    first, second = [json.loads(line) for line in path.read_text().splitlines()]
    assert (first["message"], first["request_id"], first["status"]) == ("GET /x 200", "r-1",
                                                                        200)
    logged = datetime.fromisoformat(first["time"]).timestamp()
    assert before - 0.001 <= logged <= after + 0.001  # its own time, not its batch's
    assert second["message"] == "then a warning"


def test_an_access_lines_batch_writes_its_lines_too(line_log, writes, monkeypatch):
    """The lines made in a batch of records are written then: an access line is late by one
    batch, not two."""
    log, handler, path = line_log
    monkeypatch.setattr(logs.RECORDS, "interval", 3600)
    for n in range(3):
        logs.later(log, logging.INFO, {"request_id": f"r-{n}"}, "GET %s", n)
    assert writes == []
    logs.RECORDS.flush()  # as its thread does; the handler's own waits an hour
    assert len(writes) == 1
    assert [json.loads(line)["request_id"] for line in path.read_text().splitlines()] == [
        "r-0", "r-1", "r-2"]


def test_an_error_access_line_is_logged_at_once(line_log, writes, monkeypatch):
    log, handler, path = line_log
    monkeypatch.setattr(logs.RECORDS, "interval", 3600)
    logs.later(log, logging.ERROR, {"status": 502}, "POST %s %s", "/y", 502)
    assert len(writes) == 1 and json.loads(path.read_text())["status"] == 502


def test_the_flusher_writes_waiting_lines_without_being_asked(line_log):
    log, handler, path = line_log
    handler.interval = 0.01
    log.info("waits a moment")
    deadline = time.monotonic() + 30  # a bound on a busy machine, not a measurement
    while "waits a moment" not in path.read_text() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [json.loads(line)["message"] for line in path.read_text().splitlines()] == [
        "waits a moment"]


def test_a_forked_child_starts_with_no_waiting_line_of_its_parent(line_log, writes):
    """gunicorn forks its workers from a master that has logged: the master's lines are
    written before the fork, once, and never again by a worker."""
    log, handler, path = line_log
    log.info("the parent's")
    child = os.fork()
    if child == 0:  # the child: log one line of its own and write it
        try:
            log.info("the child's")
            handler.flush()
        finally:
            os._exit(0)
    os.waitpid(child, 0)
    handler.flush()
    messages = [json.loads(line)["message"] for line in path.read_text().splitlines()]
    assert sorted(messages) == ["the child's", "the parent's"]
