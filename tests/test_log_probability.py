"""A chance entry in the log carries the referee's probability, never the client's; a reader
is shown it only where it is the same whatever that reader may not see (issue 27): not where
the card is hidden from it (one R4 in Three Magic's 60 cards is p = 1/60), nor where the
odds count components someone may not see (Three Magic's unseen cards are not the other
hands' cards, so a deal's p would tell what those hands hold)."""

from referee.registry import engines
from support import bearer, create_session, session_url


def test_logged_chance_outcome_keeps_the_referees_p_and_shows_it_to_nobody(client):
    session = create_session(client, game="threemagic", players=3, mode="tabletop", seed=3)
    table = bearer(session["table_token"])
    listed = client.get(session_url(session, "/legal-moves"), headers=table).get_json()["moves"]
    deal = next(m for m in listed if m["type"] == "deal" and m["to"] == 1)
    assert deal.pop("text") and "p" not in deal  # the table's listing is public: no p
    store = client.application.extensions["sessions"]
    before = store.load(session["session_id"]).state
    referees = next(m["p"] for m in engines()["threemagic"].legal_moves(before)
                    if {k: v for k, v in m.items() if k != "p"} == deal)
    forged = dict(deal, p=0.9)
    answer = client.post(session_url(session, "/moves"), json={"move": forged}, headers=table)
    assert answer.status_code == 200, answer.get_json()
    assert "p" not in answer.get_json()["move"]

    def logged(token):
        entries = client.get(session_url(session, "/log?since=0"),
                             headers=bearer(token)).get_json()["entries"]
        move = entries[-1]["move"]
        assert move.pop("text")  # every logged move reads as text
        return move

    seat_1 = next(s["token"] for s in session["seats"] if s["seat"] == 1)
    assert logged(seat_1) == deal  # the drawer sees its card, without p
    hidden = {"type": "deal", "seat": "chance", "to": 1, "card": "hidden"}
    seat_2 = next(s["token"] for s in session["seats"] if s["seat"] == 2)
    assert logged(seat_2) == hidden
    assert logged(session["table_token"]) == hidden  # the table's screen is public
    stored = store.log(session["session_id"], 0)[-1]
    assert stored["move"]["p"] == referees != 0.9  # the referee's, kept where nobody reads it


def test_chance_outcome_sent_without_p_is_logged_with_the_referees(client):
    session = create_session(client, game="gizmos", players=2, mode="tabletop", seed=5)
    table = bearer(session["table_token"])
    listed = client.get(session_url(session, "/legal-moves"), headers=table).get_json()["moves"]
    bare = {k: v for k, v in listed[0].items() if k not in ("p", "text")}
    assert client.post(session_url(session, "/moves"), json={"move": bare},
                       headers=table).status_code == 200
    entries = client.get(session_url(session, "/log?since=0"), headers=table).get_json()
    assert entries["entries"][-1]["move"] == listed[0]  # a public card: its p and text
