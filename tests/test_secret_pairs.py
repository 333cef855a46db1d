"""Issue 27: pairs of tabletop sessions that differ only in a secret, played through the
gateway to the end, read byte for byte by an observing seat and the spectator.

Both sessions are entered by their table tokens, outcome for outcome and move for move,
except one hidden outcome (a chip or card dealt into another seat's hand: in the setup for
one pair, mid-game for the other). Afterwards each session plays the same move wherever it
is listed in both; where it is not, the twin plays a listed move the observers see exactly
as they see the first (another card into the same hidden hand). After every step, seat 1
and the spectator must receive the same bytes from both sessions, once ids, tokens and
times are normalised: the view, the legal moves, the new /log entry, the picture, the
score, the next event of a stream opened before the first entry, with their headers and
sizes (the ETag is the version: the same in both). At the end the whole /log and a
stream resumed with Last-Event-ID are compared too. A pair ends, as revealed, at the first
step whose move or public events (or a view afterwards) differ as the observers read them:
the game showed the secret. Real Redis, real game services, the gateway's test client.
"""

import json
import queue
import random
import re
import threading
import time

import pytest
from referee.engine import ANNOTATIONS, CHANCE
from referee.registry import engines
from support import bearer, create_session, session_url

#: the games of the audit's leaks, with their players
GAMES = {"gematon": 2, "threemagic": 3}
#: which hidden outcome (counted from the first) the twin enters differently: in the setup,
#: and mid-game (Gematon's setup deals seat 2 two hidden chips, Three Magic's 16 cards)
SWAPS = {"gematon": (0, 6), "threemagic": (0, 20)}
OBSERVER = 1  # the seat that observes; seat 2 holds the swapped secret
#: headers that name a request, not its content
PER_REQUEST = {"X-Request-Id"}
STREAM_WAIT = 15.0  # an upper bound: an event arrives within a heartbeat or two


@pytest.fixture(scope="module")
def gateway(redis_url, service_urls):
    """A gateway without a rate limit (whole games are played in seconds) whose streams
    beat every 0.1 s, so that a stream read returns soon after its last event."""
    from referee_gateway import create_app
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATE_LIMIT_PER_MINUTE": 0,
                      "STREAM_HEARTBEAT_SECONDS": 0.1, "GAME_SERVICES": dict(service_urls)})
    yield app.test_client()
    bell = app.extensions["doorbell"]
    bell.close()  # its thread stops within its 1 s read, before Redis is closed under it
    if bell.thread is not None:
        bell.thread.join(5)
    app.extensions["upstream"].close()
    app.extensions["sessions"].client.close()


def bare(move: dict) -> dict:
    return {k: v for k, v in move.items() if k not in ANNOTATIONS}


class Stream:
    """A session's event stream as one token reads it, through the test client, in a
    thread of its own (a stream holds its request context while it waits); it ends when
    the session is deleted."""

    def __init__(self, client, session, token, last_event_id=None):
        headers = bearer(token)
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.chunks: queue.Queue = queue.Queue()
        opened: queue.Queue = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True,
                                       args=(client, session_url(session, "/events"),
                                             headers, opened))
        self.reader.start()
        status, self.headers = opened.get(timeout=STREAM_WAIT)
        assert status == 200
        self.buffer = ""

    def _read(self, client, url, headers, opened):
        response = client.get(url, headers=headers, buffered=False)
        opened.put((response.status_code, headers_of(response)))
        for chunk in response.response:
            self.chunks.put(chunk.decode())
        response.close()

    def until(self, version: int) -> list[dict]:
        """The events up to the one of ``version`` (the ``state`` event included)."""
        got, deadline = [], time.monotonic() + STREAM_WAIT
        while True:
            while "\n\n" in self.buffer:
                block, self.buffer = self.buffer.split("\n\n", 1)
                event = dict(line.split(": ", 1) for line in block.split("\n")
                             if ": " in line and not line.startswith(":"))
                if "event" not in event:
                    continue  # retry:, or a keep-alive comment
                event["data"] = json.loads(event["data"])
                got.append(event)
                if event["event"] != "state" and int(event.get("id", -1)) >= version:
                    return got
            try:
                self.buffer += self.chunks.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no event of version {version} in {STREAM_WAIT} s") \
                    from None

    def join(self):
        """Wait for the stream's end (its session was deleted)."""
        self.reader.join(STREAM_WAIT)
        assert not self.reader.is_alive(), "the stream did not end with its session"


def headers_of(response, sized: bool = True) -> dict:
    """The headers that depend on the content (the size only where ``sized``)."""
    return {k: v for k, v in response.headers.items()
            if k not in PER_REQUEST and (sized or k != "Content-Length")}


class Table:
    """One tabletop session: its table token enters everything, seat 1 and the spectator
    observe. Companion (issue 32): each seat enters its own private outcomes and moves,
    the table token the public outcomes, and the table token observes too."""

    def __init__(self, client, game, players, mode="tabletop"):
        self.client, self.engine, self.mode = client, engines()[game], mode
        self.session = create_session(client, game=game, players=players, mode=mode)
        self.seats = {s["seat"]: s["token"] for s in self.session["seats"]}
        self.readers = {"seat 1": self.seats[OBSERVER],
                        "spectator": self.session["spectator_token"]}
        if mode == "companion":
            self.readers["table"] = self.session["table_token"]
        self.table = bearer(self.session["table_token"])
        self.version = self.session["version"]
        self.streams = {name: Stream(client, self.session, token)
                        for name, token in self.readers.items()}

    def listing(self) -> list[dict]:
        if self.mode == "companion":  # the real cards: the referee's own listing
            state = self.client.application.extensions["sessions"].load(
                self.session["session_id"]).state
            return [bare(m) for m in self.engine.legal_moves(state)]
        answer = self.client.get(session_url(self.session, "/legal-moves"), headers=self.table)
        assert answer.status_code == 200, answer.get_json()
        return [bare(m) for m in answer.get_json()["moves"]]

    def token_for(self, move: dict) -> dict:
        """Who enters ``move``: the table token in tabletop mode; in companion mode the
        seat that moves, or the token the view says the entry awaits."""
        if self.mode != "companion":
            return self.table
        if move["seat"] != CHANCE:
            return bearer(self.seats[move["seat"]])
        awaited = self.client.get(session_url(self.session), headers=self.table).get_json()[
            "view"]["awaiting"]
        return self.table if awaited == "table" else bearer(self.seats[awaited])

    def play(self, move: dict) -> None:
        answer = self.client.post(session_url(self.session, "/moves"), json={"move": move},
                                  headers=self.token_for(move))
        assert answer.status_code == 200, answer.get_json()
        self.version = answer.get_json()["version"]

    def normal(self, data):
        """JSON as both sessions would show it: no session id, token or time."""
        text = json.dumps(data, sort_keys=True, ensure_ascii=False)
        for secret in [self.session["session_id"], self.session["table_token"],
                       *self.readers.values()]:
            text = text.replace(secret, "<id>")
        return re.sub(r'"at": [0-9.]+', '"at": 0', text)

    def get(self, reader: str, tail: str, lang: str = "en", sized: bool = True) -> tuple:
        answer = self.client.get(session_url(self.session, tail), headers=dict(
            bearer(self.readers[reader]), **{"Accept-Language": lang}))
        assert answer.status_code == 200, (tail, answer.get_data(as_text=True)[:300])
        body = self.normal(answer.get_json()) if answer.is_json else answer.get_data(
            as_text=True)
        return body, headers_of(answer, sized)

    def reads(self, reader: str, since: int, step: int) -> dict:
        """Everything ``reader`` receives after a step: each channel's bytes and headers."""
        lang = ("en", "ja")[step % 2]
        reads = {"view": self.get(reader, ""), "score": self.get(reader, "/score"),
                 f"picture.{lang}": self.get(reader, "/picture.svg", lang),
                 f"log.{lang}": self.get(reader, f"/log?since={since}", lang, sized=False),
                 "events": self.normal([e["data"] for e in
                                        self.streams[reader].until(self.version)])}
        if reader != "spectator":
            reads["legal_moves"] = self.get(reader, "/legal-moves")
        return reads

    def seen(self, since: int) -> str:
        """What tells the step apart legitimately: the entry's move as seat 1 reads it,
        the move and events as the spectator reads it, both views."""
        entry = {r: self.client.get(session_url(self.session, f"/log?since={since}"),
                                    headers=bearer(t)).get_json()["entries"][-1]
                 for r, t in self.readers.items()}
        views = {r: self.client.get(session_url(self.session), headers=bearer(t))
                 .get_json()["view"] for r, t in self.readers.items()}
        return json.dumps([bare(entry["seat 1"]["move"]), bare(entry["spectator"]["move"]),
                           entry["spectator"]["events"], views], sort_keys=True)

    def close(self):
        """Delete the session: its streams end."""
        assert self.client.delete(session_url(self.session),
                                  headers=self.table).status_code == 204
        for stream in self.streams.values():
            stream.join()


def hidden_from_observers(engine, move: dict) -> bool:
    """A chance outcome seat 1 (and so the spectator) may not see: a swappable secret."""
    return move.get("seat") == CHANCE and bare(engine.view_move(move, OBSERVER)) != move


def twin_of(engine, move: dict, listing: list[dict], other: bool) -> dict | None:
    """The twin's move: ``move`` where listed (unless ``other``: the swap), else the first
    listed move the observer sees exactly as it sees ``move``."""
    if not other and move in listing:
        return move
    seen = bare(engine.view_move(move, OBSERVER))
    return next((m for m in listing if m != move
                 and bare(engine.view_move(m, OBSERVER)) == seen), None)


def play_pair(client, game: str, swap_at: int, seed: int, mode: str = "tabletop") -> dict:
    """Two sessions, the twin's ``swap_at``-th hidden outcome another one; to the end."""
    engine, rnd = engines()[game], random.Random(f"{game}/{swap_at}/{seed}")
    first, twin = (Table(client, game, GAMES[game], mode) for _ in range(2))
    tally = {"steps": 0, "comparisons": 0, "revealed": False, "swapped": False}
    hidden_seen, compared = 0, first.version
    try:
        while True:
            listing, twin_listing = first.listing(), twin.listing()
            if not listing:
                break  # the game is over
            shared = [m for m in listing if m in twin_listing] or listing
            move = rnd.choice(shared)
            swap = not tally["swapped"] and hidden_from_observers(engine, move) and (
                hidden_seen == swap_at)
            hidden_seen += hidden_from_observers(engine, move)
            twin_move = twin_of(engine, move, twin_listing, other=swap)
            if twin_move is None and swap:  # no other outcome looks the same: the next one
                swap, twin_move = False, twin_of(engine, move, twin_listing, other=False)
                swap_at += 1
            if twin_move is None:
                tally["revealed"] = tally["swapped"]
                break
            tally["swapped"] |= swap
            since = first.version
            first.play(move)
            twin.play(twin_move)
            if first.seen(since) != twin.seen(since):
                tally["revealed"] = True
                break
            step = tally["steps"]
            for reader in first.readers:
                mine, theirs = first.reads(reader, since, step), twin.reads(reader, since, step)
                for channel, value in mine.items():
                    assert theirs[channel] == value, (
                        f"{game}: {reader}'s {channel} differs {step + 1} steps in, after "
                        f"{move} / {twin_move}:\n  {str(value)[:500]}\n  "
                        f"{str(theirs[channel])[:500]}")
                tally["comparisons"] += len(mine)
            tally["steps"] += tally["swapped"]  # steps after the swap
            compared = first.version
        assert tally["swapped"], "the pair never differed in a secret"
        for reader in first.readers:  # the whole log, a resumed stream
            logs = [[e for e in json.loads(t.get(reader, "/log?since=0")[0])["entries"]
                     if e["version"] <= compared] for t in (first, twin)]
            assert logs[0] == logs[1], f"{game}: {reader}'s whole log differs"
            resumed = [Stream(client, t.session, t.readers[reader], last_event_id=0)
                       for t in (first, twin)]
            got = [t.normal([e["data"] for e in s.until(compared)])
                   for t, s in zip((first, twin), resumed)]
            assert got[0] == got[1], f"{game}: {reader}'s resumed stream differs"
            assert resumed[0].headers == resumed[1].headers
            first.streams[f"resumed {reader}"], twin.streams[f"resumed {reader}"] = resumed
            tally["comparisons"] += 2
    finally:
        first.close()
        twin.close()
    return tally


@pytest.mark.parametrize("mode", ["tabletop", "companion"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_sessions_differing_in_a_secret_read_alike_to_the_end(gateway, game, mode):
    """Companion (issue 32): the secret is a private entry of seat 2, entered from its own
    token; the table token reads alike too, its listing of entries included."""
    pairs = [play_pair(gateway, game, swap_at, seed=1, mode=mode) for swap_at in SWAPS[game]]
    print(f"{game}: {[p['steps'] for p in pairs]} steps compared, "
          f"{sum(p['comparisons'] for p in pairs)} comparisons, "
          f"revealed {[p['revealed'] for p in pairs]}")
    assert sum(p["steps"] for p in pairs) >= 30, pairs
