"""Stream tickets (issue 30 item 3): ``POST …/events/ticket`` with a token answers a
short-lived, single-use ticket that opens that token's event stream as ``?ticket=``, for
clients that cannot send a header (a browser's EventSource). Against a real Redis
(standalone and cluster) and every game service; the browser half is
tests/test_stream_tickets_browser.py."""

import json

from referee.sessions import keys
from referee.sessions.store import digest
from support import assert_problem, bearer, create_session, seat_token, session_url


def ticket_for(client, session: dict, token: str) -> str:
    answer = client.post(session_url(session, "/events/ticket"), headers=bearer(token))
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.headers["Cache-Control"] == "no-store"
    body = answer.get_json()
    assert body["events_url"] == session_url(session, f"/events?ticket={body['ticket']}")
    return body["ticket"]


def first_event(client, session: dict, ticket: str, **args) -> str:
    """The stream's first event (its text), the stream then closed."""
    answer = client.get(session_url(session, "/events"), query_string={"ticket": ticket, **args},
                        buffered=False)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.mimetype == "text/event-stream"
    chunks = answer.response
    try:
        for chunk in chunks:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            if text.startswith(("id:", "event:")):
                return text
    finally:
        answer.close()
    raise AssertionError("the stream ended with no event")


def test_a_ticket_opens_its_tokens_stream_once(client):
    session = create_session(client)
    ticket = ticket_for(client, session, seat_token(session, 2))
    event = first_event(client, session, ticket)
    assert "event: state" in event and '"you":{"role":"seat","seat":2}' in event
    reused = client.get(session_url(session, "/events"), query_string={"ticket": ticket})
    problem = assert_problem(reused, 401, "invalid_ticket")
    assert "spent" in problem["detail"] and "/events/ticket" in problem["detail"]


def test_a_new_ticket_resumes_after_the_last_version_seen(client):
    """A reconnect takes a new ticket and ?since=: the first event is then the next
    version, not a new ``state`` (what a browser does after its stream dropped)."""
    session = create_session(client)
    token = seat_token(session, 3)  # Ghostone's 3-player placement: seat 1 first
    moves = client.get(session_url(session, "/legal-moves"),
                       headers=bearer(seat_token(session, 1))).get_json()["moves"]
    moved = client.post(session_url(session, "/moves"), json={"move": moves[0]},
                        headers=bearer(seat_token(session, 1)))
    assert moved.status_code == 200
    version = moved.get_json()["version"]
    event = first_event(client, session, ticket_for(client, session, token),
                        since=version - 1)
    assert event.startswith(f"id: {version}\nevent: move\n"), event


def test_the_spectator_and_the_table_get_tickets_of_their_own_scope(client):
    session = create_session(client)
    for token, you in ((session["spectator_token"], '"you":{"role":"spectator","seat":null}'),
                       (session["table_token"], '"you":{"role":"table","seat":null}')):
        assert you in first_event(client, session, ticket_for(client, session, token))


def test_a_ticket_of_another_session_opens_nothing_there_and_stays_good(client):
    one, other = create_session(client), create_session(client)
    ticket = ticket_for(client, one, seat_token(one, 1))
    wrong = client.get(session_url(other, "/events"), query_string={"ticket": ticket})
    assert_problem(wrong, 401, "invalid_ticket")
    assert "event: state" in first_event(client, one, ticket)


def test_an_expired_ticket_opens_nothing(client, redis_client):
    """Expired as Redis expires it: the key's lifetime cut to 1 ms (the 60 s it is given
    is checked), then gone."""
    session = create_session(client)
    ticket = ticket_for(client, session, seat_token(session, 1))
    key = keys.stream_ticket(session["session_id"], digest(ticket))
    assert 0 < redis_client.ttl(key) <= 60
    assert ticket not in key and redis_client.get(key) == digest(seat_token(session, 1))
    redis_client.pexpire(key, 1)
    for _ in range(10_000):  # expired within a few ms; counted, not timed
        if not redis_client.exists(key):
            break
    assert not redis_client.exists(key)
    late = client.get(session_url(session, "/events"), query_string={"ticket": ticket})
    assert_problem(late, 401, "invalid_ticket")


def test_a_revoked_tokens_ticket_stops_working(client):
    session = create_session(client)
    ticket = ticket_for(client, session, seat_token(session, 1))
    reissued = client.post(session_url(session, "/seats/1/token"),
                           headers=bearer(session["table_token"]))
    assert reissued.status_code == 200, reissued.get_json()
    answer = client.get(session_url(session, "/events"), query_string={"ticket": ticket})
    problem = assert_problem(answer, 401, "unauthorized")
    assert "re-issued" in problem["detail"]
    asked = client.post(session_url(session, "/events/ticket"),
                        headers=bearer(seat_token(session, 1)))
    assert_problem(asked, 401, "unauthorized")


def test_a_revoked_stream_says_why_in_the_language_asked(client):
    session = create_session(client)
    stream = client.get(session_url(session, "/events"), buffered=False, headers={
        **bearer(seat_token(session, 1)), "Accept-Language": "ja"})
    chunks = (c.decode() if isinstance(c, bytes) else c for c in stream.response)
    try:
        assert any("event: state" in chunk for chunk in chunks)
        assert client.post(session_url(session, "/seats/1/token"),
                           headers=bearer(session["table_token"])).status_code == 200
        revoked = next(chunk for chunk in chunks if "event: revoked" in chunk)
    finally:
        stream.close()
    reason = json.loads(revoked.split("data: ", 1)[1])["reason"]
    assert "再発行" in reason, reason


def test_bad_tickets_and_bad_asks_are_clear_problems(client):
    session = create_session(client)
    for bad in ("", "short", "x" * 65, "a" * 20 + "!", "ticket with spaces in it"):
        answer = client.get(session_url(session, "/events"), query_string={"ticket": bad})
        problem = assert_problem(answer, 401, "invalid_ticket")
        assert bad not in problem["detail"] or not bad
    ticket = ticket_for(client, session, seat_token(session, 1))
    # with a ticket, the ticket decides: a valid header does not open a spent ticket's stream
    assert "event: state" in first_event(client, session, ticket)
    both = client.get(session_url(session, "/events"), query_string={"ticket": ticket},
                      headers=bearer(seat_token(session, 1)))
    assert_problem(both, 401, "invalid_ticket")
    nobody = client.post(session_url(session, "/events/ticket"))
    assert_problem(nobody, 401, "unauthorized")
    unknown = client.post("/v1/sessions/nosuchsession/events/ticket",
                          headers=bearer(seat_token(session, 1)))
    assert_problem(unknown, 404, "unknown_session")
    gone = client.get("/v1/sessions/nosuchsession/events", query_string={"ticket": ticket})
    assert_problem(gone, 404, "unknown_session")


def test_a_browser_may_ask_for_a_ticket_from_another_origin(client):
    session = create_session(client)
    origin = "http://app.example"
    preflight = client.options(session_url(session, "/events/ticket"), headers={
        "Origin": origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization"})
    assert preflight.status_code == 200
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert "authorization" in preflight.headers["Access-Control-Allow-Headers"].lower()
    asked = client.post(session_url(session, "/events/ticket"), headers={
        "Origin": origin, **bearer(seat_token(session, 1))})
    assert asked.headers["Access-Control-Allow-Origin"] == "*"
    stream = client.get(session_url(session, "/events"), headers={"Origin": origin},
                        query_string={"ticket": asked.get_json()["ticket"]}, buffered=False)
    assert stream.headers["Access-Control-Allow-Origin"] == "*"
    stream.close()


def test_tickets_are_documented(client):
    document = client.get("/openapi.json").get_json()
    ticket = document["paths"]["/v1/sessions/{sid}/events/ticket"]["post"]
    assert ticket["security"] == [{"token": []}]
    assert {"401", "404"} <= set(ticket["responses"])
    events = document["paths"]["/v1/sessions/{sid}/events"]["get"]
    assert events["security"] == [{"token": []}, {"streamTicket": []}]
    assert "ticket" in [p["name"] for p in events["parameters"]]
    assert document["components"]["securitySchemes"]["streamTicket"]["in"] == "query"
