"""A browser follows a game with a real ``EventSource`` from another origin (issue 30
item 3): a page served by a tiny http.server on its own port asks the gateway for a stream
ticket (``fetch`` with the token: CORS), opens ``events_url`` and keeps every event, while a
whole Ghostone game is played through the Python client. Half way the page loses its stream
the way a network drop does — its EventSource reconnects to the same, spent URL — and resumes
as the README says: 401 closes the EventSource, the page asks for a new ticket and opens it
with ``&since=`` the last event id. Real Chromium, gunicorn (gevent gateway), Redis, every
game service; the gateway's access log is on, and no ticket may reach it."""

import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from referee.embedded import free_port
from referee.stack import Stack
from referee_client import Referee
from test_events import play_first_moves

# the page tests' Chromium, a fixture found by name in this module's namespace
# ruff: noqa: F811
from test_page import browser  # noqa: F401

pytestmark = pytest.mark.e2e
MAX_MOVES = 600  # a Ghostone game by first moves ends well before

# The whole app: what a developer writes with EventSource and a ticket (the README's recipe).
FOLLOW_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Following a table</title></head>
<body><p>Following a table.</p>
<script>
const asked = new URLSearchParams(location.hash.slice(1));
const referee = asked.get("referee"), sid = asked.get("sid"), token = asked.get("token");
window.received = []; window.tickets = []; window.failed = []; window.opened = 0;
let source = null, last = null;

async function newTicket() {
  const answer = await fetch(`${referee}/v1/sessions/${sid}/events/ticket`,
                             {method: "POST", headers: {Authorization: `Bearer ${token}`}});
  if (!answer.ok) throw new Error(`no ticket: ${answer.status}`);
  const body = await answer.json();
  window.tickets.push(body.ticket);
  return body.events_url;
}

function open(url) {
  window.opened += 1;
  source = new EventSource(referee + url);
  for (const name of ["state", "move", "correction", "seats", "end", "revoked"]) {
    source.addEventListener(name, event => {
      last = event.lastEventId || last;
      window.received.push({event: name, id: event.lastEventId,
                            version: JSON.parse(event.data).version});
    });
  }
  // A spent ticket (our own reconnect) is 401: the EventSource closes; resume with a new one.
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) { window.failed.push(url); follow(); }
  };
}

async function follow() {
  const url = await newTicket();
  open(last === null ? url : `${url}&since=${last}`);
}

// What a dropped connection does: the EventSource comes back to the URL it had.
window.dropLikeANetwork = () => {
  const spent = source.url.slice(referee.length);
  source.close();
  open(spent);
};
follow();
</script></body></html>
"""


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    return tmp_path_factory.mktemp("stack-logs")


@pytest.fixture(scope="module")
def stack(redis_url, logs):
    env = {"LOG_LEVEL": "info", "ACCESS_LOG": "-", "RATE_LIMIT_PER_MINUTE": "0"}
    with Stack(port=free_port(), workers=1, threads=4, redis_url=redis_url,
               log=lambda line: None, env=env, output_dir=str(logs)) as running:
        yield running


@pytest.fixture(scope="module")
def other_origin(tmp_path_factory):
    """The app's own origin: another port than the gateway's, a plain http.server."""
    root = tmp_path_factory.mktemp("app")
    (root / "follow.html").write_text(FOLLOW_PAGE)
    server = ThreadingHTTPServer(("127.0.0.1", free_port()),
                                 partial(QuietHandler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the test's output stays readable
        pass


def play(table, moves: int) -> int:
    """Each acting seat plays its first legal move, ``moves`` times or to the end; the
    version reached."""
    play_first_moves(table, moves)
    return table.spectator.view()["version"]


def test_an_event_source_on_another_origin_follows_a_whole_game(stack, other_origin, browser,
                                                                  logs):
    with Referee(stack.url) as referee:
        table = referee.create("ghostone", players=3, seed=30)
        token = table.seats[1].token
        context = browser.new_context()
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{other_origin}/follow.html#referee={stack.url}"
                  f"&sid={table.session_id}&token={token}")
        page.wait_for_function("window.received.length > 0")
        first = page.evaluate("window.received[0]")
        assert first["event"] == "state"
        halfway = play(table, 12)
        page.wait_for_function(f"window.received.some(e => e.version === {halfway})")
        page.evaluate("window.dropLikeANetwork()")
        played_while_away = play(table, 6)
        final = play(table, MAX_MOVES)
        assert not table.spectator.view()["to_move"], "the game did not end"
        page.wait_for_function(f"window.received.some(e => e.version === {final})")
        received = page.evaluate("window.received")
        tickets, failed = page.evaluate("window.tickets"), page.evaluate("window.failed")
        opened = page.evaluate("window.opened")
        context.close()
        logged = [e["version"] for e in table.seats[1].log(since=first["version"])]
    assert not errors, errors
    versions = [e["version"] for e in received if e["event"] != "state"]
    # every entry of the log once, in order, none lost across the drop (nor those made
    # meanwhile): the stream's events are the log's entries after the first state
    assert versions == logged and logged[-1] == final, (versions, logged)
    assert halfway < played_while_away < final
    assert [e["event"] for e in received].count("state") == 1  # the resume is not a new start
    assert all(e["id"] == str(e["version"]) for e in received)
    # one ticket to open, the spent URL refused once, one new ticket to resume
    assert (len(tickets), len(failed), opened) == (2, 1, 3), (tickets, failed, opened)
    assert len(set(tickets)) == 2
    lines = "".join(path.read_text(errors="replace") for path in Path(logs).iterdir())
    assert "ticket=<redacted>" in lines  # gunicorn's access lines of the streams
    for secret in (*tickets, token):
        assert secret not in lines
