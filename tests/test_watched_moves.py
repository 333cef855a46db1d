"""A watched move is one call (issue 33 item 1), against real parts: a gunicorn gateway on
gevent workers, the game services, a real Redis, streams read over real HTTP.

With many streams open on one session, in two languages, a move costs the game service its
one ``/v1/apply`` call, which also redacts it for every watching seat and language; and each
stream's bytes are exactly what the per-seat redaction (the move replayed with ``view_as``
its seat) made of them, as are those of a stream that opens later and resumes."""

import json

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from referee.embedded import free_port
from referee.sessions.store import SessionStore, connect
from referee.stack import Stack
from support import bearer

pytestmark = pytest.mark.e2e
GAME = "vectron"  # four seats, each with a hand the others must not see


@pytest.fixture(scope="module")
def stack(redis_url):
    env = {"LOG_LEVEL": "warning", "RATE_LIMIT_PER_MINUTE": "0"}
    with Stack(port=free_port(), workers=1, threads=4, redis_url=redis_url,
               log=lambda line: None, env=env, games=[GAME]) as running:
        yield running


class Stream:
    """One open event stream, read line by line."""

    def __init__(self, url: str, sid: str, token: str, since: int, language: str):
        # the answer's head comes with the stream's first line: once get returns, the
        # gateway has admitted the stream and rings it for every new version
        self.answer = requests.get(f"{url}/v1/sessions/{sid}/events?since={since}",
                                   headers={**bearer(token), "Accept-Language": language},
                                   stream=True, timeout=(5, 30))
        assert self.answer.status_code == 200
        self.lines = self.answer.iter_lines(decode_unicode=True)

    def block(self, version: int) -> str:
        """The event block of ``version``, as sent (lines up to its blank line)."""
        for line in self.lines:
            if line == f"id: {version}":
                block = [line]
                for rest in self.lines:
                    if not rest:
                        return "\n".join(block)
                    block.append(rest)
        raise AssertionError(f"the stream ended before version {version}")

    def close(self):
        self.answer.close()


def redactions(stack) -> dict:
    """How many times the game service answered each of its redacting routes."""
    text = requests.get(stack.metrics_urls[GAME], timeout=10).text
    counts = dict.fromkeys(("/v1/redact", "/v1/view", "/v1/view-log", "/v1/apply"), 0)
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            route = sample.labels.get("route")
            if sample.name == "referee_http_requests_total" and route in counts:
                counts[route] += sample.value
    return counts


def per_seat_event(stack, store, sid, entry, before, seat, language) -> str:
    """What a stream to ``seat`` sent for a move before issue 33: the move replayed on
    the state it was made on, with ``view_as`` the seat — one call per stream."""
    after = store.snapshot(sid, entry["version"])
    answer = requests.post(f"{stack.service_urls[GAME]}/v1/apply", timeout=30, json={
        "state": store.snapshot(sid, before), "move": entry["move"], "view_as": seat},
        headers={"Accept-Language": language}).json()
    assert answer["state"] == after
    data = {"version": entry["version"], "kind": "move",
            "entry": dict(entry, move=answer["view_move"], events=answer["view_events"]),
            "view": answer["view"], "to_move": after["to_move"]}
    return (f"id: {entry['version']}\nevent: move\n"
            f"data: {json.dumps(data, separators=(',', ':'))}")


def test_a_move_watched_by_many_streams_is_its_one_call(stack, redis_url):
    store = SessionStore(connect(redis_url), 60)
    created = requests.post(f"{stack.url}/v1/sessions", timeout=30, json={
        "game": GAME, "players": 4, "seed": 21}).json()
    sid, version = created["session_id"], created["version"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    watchers = [(seat, token, "en") for seat, token in tokens.items()] * 2  # two tabs each
    watchers += [(None, created["spectator_token"], "en"), (None, created["table_token"], "en"),
                 (2, tokens[2], "ja"), (None, created["spectator_token"], "ja")]
    streams = [Stream(stack.url, sid, token, version, language)
               for _, token, language in watchers]
    try:
        for _ in range(3):  # moves by different seats, each pushed to every stream
            to_move = requests.get(f"{stack.url}/v1/sessions/{sid}", timeout=30, headers=bearer(
                tokens[1])).json()["view"]["to_move"]
            token = tokens[to_move[0]]
            listed = requests.get(f"{stack.url}/v1/sessions/{sid}/legal-moves", timeout=30,
                                  headers=bearer(token)).json()["moves"]
            before = redactions(stack)
            moved = requests.post(f"{stack.url}/v1/sessions/{sid}/moves", timeout=30,
                                  json={"move": listed[-1]}, headers=bearer(token)).json()
            blocks = [stream.block(moved["version"]) for stream in streams]
            after = redactions(stack)
            calls = {route: after[route] - before[route] for route in after}
            assert calls == {"/v1/redact": 0, "/v1/view": 0, "/v1/view-log": 0,
                             "/v1/apply": 1}, f"{len(streams)} streams, two languages"
            entry = store.entries_from(sid, 0)[-1]
            assert entry["version"] == moved["version"]
            for (seat, _, language), block in zip(watchers, blocks):
                assert block == per_seat_event(stack, store, sid, entry, version, seat,
                                               language), (seat, language)
            hands = {block for block, (seat, _, lang) in zip(blocks, watchers) if lang == "en"}
            assert len(hands) == 5, "each seat and the public see the move their own way"
            version = moved["version"]
        # a stream that opens later resumes from the start: it reads what the moves built,
        # byte for byte what the service redacts for it alone (what no move built, such as
        # a correction, is redacted on demand: tests/test_events.py)
        moves = [e for e in store.entries_from(sid, 0) if e["version"] > created["version"]]
        late, before = Stream(stack.url, sid, tokens[3], created["version"], "ja"), \
            redactions(stack)
        for previous, entry in zip([created["version"]] + [e["version"] for e in moves],
                                   moves):  # (a move may take more than one version)
            assert late.block(entry["version"]) == per_seat_event(
                stack, store, sid, entry, previous, 3, "ja")
        late.close()
        assert redactions(stack)["/v1/redact"] == before["/v1/redact"]
    finally:
        for stream in streams:
            stream.close()
