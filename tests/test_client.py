"""The Python client (issue 12.4) against a real referee: gunicorn gateway and
services, real Redis, real HTTP."""

import json
import signal
import threading
import time
from pathlib import Path

import pytest
import requests
from requests.adapters import HTTPAdapter

from referee.embedded import free_port
from referee.stack import Stack
from referee_client import (
    Conflict, Forbidden, IllegalMove, NotFound, Referee, Unauthorized, VersionConflict,
)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def stack(redis_url):
    env = {"LOG_LEVEL": "warning", "RATE_LIMIT_PER_MINUTE": "0",
           "STREAM_HEARTBEAT_SECONDS": "1", "GUNICORN_GRACEFUL_TIMEOUT": "5"}
    with Stack(port=free_port(), workers=1, threads=4, redis_url=redis_url,
               log=lambda line: None, env=env) as running:
        yield running


@pytest.fixture
def referee(stack):
    with Referee(stack.url, retries=3, max_wait=0.2) as client:
        yield client


def test_errors_are_typed_and_carry_code_and_rule(referee):
    table = referee.create("ghostone", players=3, seed=42)
    two = table.seats[2]
    with pytest.raises(Forbidden) as refused:
        two.move({"type": "place", "plate": "d4", "rocks": ["c3", "c4", "d3"]})
    assert refused.value.code == "not_your_turn" and refused.value.status == 403
    one = table.seats[1]
    with pytest.raises(IllegalMove) as illegal:
        one.move({"type": "place", "plate": "d4", "rocks": ["a1", "c4", "d3"]})
    assert illegal.value.code == "illegal_move" and illegal.value.rule == "G-2.3"
    assert illegal.value.status == 422 and "G-2.3" in str(illegal.value)
    with pytest.raises(Forbidden) as forbidden:
        table.spectator.move(one.legal_moves()[0])
    assert forbidden.value.code == "forbidden"
    with pytest.raises(Unauthorized):
        referee.session(table.session_id, "not-a-token").view()
    with pytest.raises(NotFound) as missing:
        referee.join("ZZZZ-ZZZZ")
    assert missing.value.code == "unknown_join_code"


def test_if_match_pins_the_version_seen(referee):
    table = referee.create("ghostone", players=3, seed=1)
    one, stale = table.seats[1], referee.session(table.session_id, table.seats[1].token)
    stale.view()
    one.move(one.legal_moves()[0], if_match=True)
    with pytest.raises(VersionConflict) as conflict:
        stale.move({"type": "pass"}, if_match=True)  # chosen on version 0
    assert conflict.value.code == "version_conflict" and conflict.value.current_version == 1


class LoseFirstAnswer(HTTPAdapter):
    """Delivers each request for real, then loses the first answer to a move (as a
    dropped connection would): the client must retry without playing twice."""

    def __init__(self):
        super().__init__()
        self.lost, self.keys = 0, []

    def send(self, request, **kwargs):
        answer = super().send(request, **kwargs)
        if request.path_url.endswith("/moves"):
            self.keys.append(request.headers.get("Idempotency-Key"))
            if self.lost == 0:
                self.lost += 1
                raise requests.ConnectionError("the answer was lost on the way")
        return answer


def test_a_lost_answer_is_retried_with_the_same_key_and_played_once(stack):
    adapter = LoseFirstAnswer()
    http = requests.Session()
    http.mount("http://", adapter)
    with Referee(stack.url, http=http, max_wait=0.1) as referee:
        table = referee.create("ghostone", players=3, seed=3)
        one = table.seats[1]
        moved = one.move(one.legal_moves()[0])
        assert moved["version"] == 1
        assert len(adapter.keys) == 2 and adapter.keys[0] == adapter.keys[1] is not None
        assert len(one.log()) == 1, "played once"


def test_create_join_start_leave_and_reissue(referee):
    table = referee.create("gematon", players=3, seats="open", public=True)
    assert table.join_code and not table.seats
    assert table.session_id in {t["session_id"] for t in referee.lobby("gematon")}
    first = referee.join(table.join_code)
    second = referee.join(session_id=table.session_id, seat=3)
    assert (first.seat, second.seat) == (1, 3)
    with pytest.raises(Conflict) as taken:
        referee.join(table.join_code, seat=3)
    assert taken.value.code == "seat_taken"
    started = table.table.start()
    assert started["players"] == 2 and started["entry"]["seats"]["renumbered"] == {"3": 2}
    assert second.view()["you"]["seat"] == 2 and second.seat == 2
    replacement = table.table.reissue(2)
    with pytest.raises(Unauthorized):
        second.view()
    assert replacement.view()["you"]["seat"] == 2
    left = replacement.leave()
    assert left["seats"][1] == {"seat": 2, "status": "absent"}


def test_events_resume_across_a_worker_restart(stack, referee):
    """The gateway's worker is replaced (SIGHUP): the stream ends, the client
    reconnects with Last-Event-ID and no version is missed."""
    table = referee.create("ghostone", players=3, seed=9)
    seat = table.seats[1]
    got, first = [], threading.Event()

    def read():
        for event in seat.events(since=table.created["version"], read_timeout=20):
            got.append(event)
            first.set()
            if len(got) == 4:
                return

    def move():
        to_move = table.spectator.view()["to_move"][0]
        mover = table.seats[to_move]
        mover.move(mover.legal_moves()[0])

    reader = threading.Thread(target=read)
    reader.start()
    move()
    assert first.wait(20)
    stack.processes["gateway"].send_signal(signal.SIGHUP)  # new worker, old one drains
    for _ in range(3):
        move()
    reader.join(60)
    versions = [e.id for e in got]
    log = [e["version"] for e in seat.log()]
    assert versions == log[:4] and len(versions) == 4
    # the replaced worker drains (up to its graceful timeout), answering 503 to a new
    # stream meanwhile: the next test starts once only the new worker is left
    master = stack.processes["gateway"].pid
    deadline = time.monotonic() + 30
    while len(children(master)) > 1 and time.monotonic() < deadline:
        time.sleep(0.1)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def test_the_readme_live_table_example_runs_as_written(stack, tmp_path):
    """README "Live tables": curl beside the client, against a live server."""
    import re
    import subprocess
    import sys
    from pathlib import Path
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    block = next(b for b in re.findall(r"```sh\n(.*?)```", readme, flags=re.S)
                 if "readme-example: live-table" in b)
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=tmp_path,
                         env={"REFEREE": stack.url, "PYTHON": sys.executable,
                              "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "refused: illegal_move GM-3.3" in lines
    assert "pushed: move True" in lines
    assert any(line.startswith("retry: 2000") for line in lines)
    lobby = json.loads(lines[0])
    assert lobby["tables"] and "join_code" not in lines[0]


def test_bots_hints_and_one_cards_moves(referee):
    """A bot seat at creation, a bot given and taken back by the table, a hint, one kind of
    move."""
    table = referee.create("gematon", players=3, seed=6, bots={3: "random"})
    assert set(table.seats) == {1, 2}
    assert table.table.view()["seats"][2] == {"seat": 3, "status": "bot", "bot": "random"}
    seat = table.seats[table.spectator.view()["to_move"][0]]
    assert seat.hint(level="random", budget_ms=20) in seat.legal_moves()
    kinds = {m["type"] for m in seat.legal_moves()}
    some = sorted(kinds)[0]
    assert {m["type"] for m in seat.legal_moves_of(type=some)} == {some}
    # a spend is sent as colours joined by commas (Gizmos: every Converter set of it); a
    # Gematon move spends nothing, so none is listed, but the query is taken
    assert seat.legal_moves_of(type=some, spend=["red", "black"]) == []
    given = table.table.seat_bot(2, "greedy")
    assert given["seats"][1] == {"seat": 2, "status": "bot", "bot": "greedy"}
    with pytest.raises(Unauthorized):
        table.seats[2].view()
    assert table.table.unseat_bot(2)["seats"][1]["status"] == "absent"
    back = table.table.reissue(2)
    assert back.view()["you"] == {"role": "seat", "seat": 2}


def test_a_handles_version_never_goes_back_for_an_answer_read_late(referee, monkeypatch):
    """A program may follow the events in one thread and move in another: a move's answer
    read after the stream brought later versions must not pin an older If-Match."""
    table = referee.create("ghostone", players=3, seed=42)
    me = table.seats[1]
    moved = me.move(me.legal_moves()[0])
    assert me.version == moved["version"]
    me.version = moved["version"] + 2  # the stream has shown two more versions meanwhile
    monkeypatch.setattr(referee, "request", lambda *args, **kwargs: dict(moved))
    me.view()  # an answer (here the move's own, read again) older than what was seen
    assert me.version == moved["version"] + 2


def test_a_stream_ticket_for_a_browser_and_errors_in_japanese(stack, referee):
    """``stream_ticket`` answers what a browser's EventSource opens (once); a client made
    with ``language="ja"`` reads refusals in Japanese, with the same code and rule."""
    table = referee.create("ghostone", players=3, seed=42)
    ticket = table.seats[2].stream_ticket()
    assert ticket["expires_in"] == 60 and ticket["ticket"] in ticket["events_url"]
    with requests.get(stack.url + ticket["events_url"], stream=True, timeout=10) as opened:
        assert opened.status_code == 200
        lines = opened.iter_lines(decode_unicode=True)
        assert [next(lines) for _ in range(4)][2:] == ["id: 0", "event: state"]
    again = requests.get(stack.url + ticket["events_url"], timeout=10)
    assert again.status_code == 401 and again.json()["code"] == "invalid_ticket"
    with Referee(stack.url, language="ja") as japanese:
        one = japanese.session(table.session_id, table.seats[1].token)
        with pytest.raises(IllegalMove) as illegal:
            one.move({"type": "place", "plate": "d4", "rocks": ["a1", "c4", "d3"]})
    assert illegal.value.code == "illegal_move" and illegal.value.rule == "G-2.3"
    assert "規則G-2.3" in illegal.value.detail


def test_a_companion_table_each_phone_enters_its_own_cards(referee):
    """Issue 32: seats join by code; each phone enters the cards dealt into its hand by name,
    the table token is refused them, and a card none of whose copies the seat has not seen
    is refused with the rule (T-10.1, T-10.2)."""
    table = referee.create("threemagic", players=3, mode="companion", seats="open")
    phones = {}
    for _ in range(3):
        phone = referee.join(table.join_code)
        phones[phone.seat] = phone
    seat = table.table.awaiting()
    assert seat in phones and phones[seat].awaiting() == seat
    card = phones[seat].legal_moves()[0]["card"]
    with pytest.raises(Forbidden) as refused:
        table.table.enter(card=card)
    assert refused.value.code == "not_your_entry"
    answer = phones[seat].enter(card=card)
    assert answer["move"]["card"] == card and answer["view"]["hands"][seat - 1] == [card]
    assert table.table.view()["view"]["hands"][seat - 1] == {"count": 1}
    with pytest.raises(IllegalMove) as impossible:
        phones[table.table.awaiting()].enter(card="no such card")
    assert impossible.value.code == "impossible_entry" and impossible.value.rule
    assert phones[seat].undo()["entry"]["correction"] == "takeback"
