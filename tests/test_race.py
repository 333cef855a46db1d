"""Two writers on one version: exactly one lands (compare-and-set in Redis)."""

import threading

from referee.sessions.store import SessionStore
from support import create_session, first_move, play, seat_token, snapshot


def race(gateway_app, session, token, moves, headers):
    """Send every move at once from its own client thread; their answers."""
    start, answers = threading.Barrier(len(moves)), [None] * len(moves)

    def send(i):
        client = gateway_app.test_client()
        start.wait()
        answers[i] = play(client, session, token, moves[i], **headers)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(moves))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def test_same_version_with_if_match_exactly_one_lands(gateway_app, client, redis_client):
    session = create_session(client, seed=4)
    token = seat_token(session, 1)
    listed = client.get(f"/v1/sessions/{session['session_id']}/legal-moves",
                        headers={"Authorization": f"Bearer {token}"}).get_json()["moves"]
    answers = race(gateway_app, session, token, listed[:8], {"If-Match": '"0"'})
    codes = sorted(a.status_code for a in answers)
    assert codes == [200] + [412] * 7, codes
    assert all(a.get_json()["current_version"] == 1 for a in answers if a.status_code == 412)
    _, meta, log = snapshot(redis_client, session)
    assert meta["version"] == "1" and len(log) == 1


def test_without_if_match_the_loser_is_revalidated(gateway_app, client, redis_client):
    session = create_session(client, seed=5)
    token = seat_token(session, 1)
    move = first_move(client, session, token)
    answers = race(gateway_app, session, token, [move, dict(move)], {})
    codes = sorted(a.status_code for a in answers)
    # the loser was played again on the new position, where seat 1 is no longer to move
    assert codes == [200, 403], codes
    loser = next(a for a in answers if a.status_code == 403)
    assert loser.get_json()["code"] == "not_your_turn"
    assert len(snapshot(redis_client, session)[2]) == 1


def test_store_compare_and_set_refuses_the_second_writer(gateway_app, client):
    store: SessionStore = gateway_app.extensions["sessions"]
    session = create_session(client, seed=6)
    first, second = store.load(session["session_id"]), store.load(session["session_id"])
    moved = dict(first.state, version=1)
    assert store.commit(first, moved, {"version": 1, "move": {}, "events": []}) is True
    assert store.commit(second, moved, {"version": 1, "move": {}, "events": []}) is False
