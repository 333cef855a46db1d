"""Errors in the player's language (issue 30 item 4): every code the API can answer is
provoked through the live stack (gunicorn gateway and game services, Redis) with
``Accept-Language: en`` and ``ja``. Both answers carry the same status, ``code`` and
``rule``; the Japanese ``detail`` is written in Japanese, the English one is not; each says
its language in ``Content-Language`` and varies by ``Accept-Language``.

The codes come from the registry (``referee.errors.CODES``): a new code needs a way to
provoke it here (or a reason it cannot be, below) and its Japanese, or this test fails."""

import re

import pytest
import requests
from referee.embedded import free_port
from referee.errors import CODES, DETAILS_JA, RefereeError, SessionConflict, TableFull
from referee.registry import engines
from referee.stack import Stack
from referee.web import problem_response
from test_rule_coverage import REPO, ids_in

pytestmark = pytest.mark.e2e
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
#: codes no request can provoke, each with why (their Japanese is checked directly)
UNREACHABLE = {
    "internal_error": "the answer to a bug, which the tests keep from ever happening",
    "session_conflict": "the base of the 409 session codes; only its subclasses are raised",
    "table_full": "a join finds every seat taken only in a race: a full table has started, "
                  "and its join answers already_started",
}

#: codes provoked elsewhere, where the whole state can aim an entry at another hand's last
#: copies (their Japanese is checked directly here)
ELSEWHERE = {
    "entry_conflict": "tests/test_companion.py: a companion seat enters a card whose last "
                      "copies another seat entered, found by reading the held state",
}

#: what a Japanese detail names, where the error was given it
NAMED = {"unknown_field": "「sead」", "not_your_turn": "プレイヤー3",
         "version_conflict": "バージョン1", "rate_limited": "秒", "illegal_move": "規則G-1.1："}


@pytest.fixture(scope="module")
def stack(redis_url):
    # A Redis database of its own: the join-failure count of this address is this test's.
    isolated = re.sub(r"(/\d+)?$", "/9", redis_url, count=1)
    env = {"LOG_LEVEL": "warning", "RATE_LIMIT_PER_MINUTE": "0",
           "JOIN_FAILURES_PER_MINUTE": "2", "STREAM_MAX_PER_WORKER": "1"}
    with Stack(port=free_port(), workers=1, threads=4, redis_url=isolated,
               log=lambda line: None, env=env) as running:
        yield running


class Api:
    def __init__(self, url: str):
        self.url, self.http = url, requests.Session()

    def call(self, method, path, token=None, lang=None, **kwargs):
        headers = dict(kwargs.pop("headers", {}))
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if lang:
            headers["Accept-Language"] = lang
        return self.http.request(method, self.url + path, headers=headers, timeout=30,
                                 **kwargs)

    def ok(self, method, path, token=None, **kwargs) -> dict:
        answer = self.call(method, path, token, **kwargs)
        assert answer.status_code < 300, answer.text
        return answer.json()

    def create(self, game="ghostone", players=3, **extra) -> dict:
        return self.ok("POST", "/v1/sessions", json=dict(game=game, players=players, **extra))

    def first_move(self, sid, token) -> dict:
        return self.ok("GET", f"/v1/sessions/{sid}/legal-moves", token)["moves"][0]

    def move(self, sid, token, move, **kwargs):
        return self.call("POST", f"/v1/sessions/{sid}/moves", token, json={"move": move},
                         **kwargs)


def tokens_of(session) -> dict:
    return {s["seat"]: s["token"] for s in session["seats"]}


def play_until(api, session, stop, most=600):
    """Each acting seat plays its first legal move until ``stop(answer)``; the last seat."""
    sid, tokens = session["session_id"], tokens_of(session)
    for _ in range(most):
        to_move = api.ok("GET", f"/v1/sessions/{sid}", tokens[1])["to_move"]
        if not to_move:
            return None
        seat = to_move[0]
        answer = api.move(sid, tokens[seat], api.first_move(sid, tokens[seat])).json()
        if stop(answer):
            return seat
    raise AssertionError("the condition never came")


def provocations(api: Api, stack) -> dict:
    """code → ``send(lang)``, a request that answers that code (any number of times)."""
    p = {}
    ghost = api.create(seed=7)
    sid, seats = ghost["session_id"], tokens_of(ghost)
    table, spectator = ghost["table_token"], ghost["spectator_token"]
    place = api.first_move(sid, seats[1])
    service = stack.service_urls["ghostone"]
    new_state = requests.post(f"{service}/v1/new", json={"players": 3, "seed": 1},
                              timeout=10).json()["state"]

    def call(*args, **kwargs):
        return lambda lang: api.call(*args, lang=lang, **kwargs)

    p["bad_request"] = call("POST", "/v1/sessions", json={"game": "ghostone", "players": "3"})
    p["invalid_json"] = call("POST", "/v1/sessions", data=b"{not json",
                             headers={"Content-Type": "application/json"})
    p["unknown_field"] = call("POST", "/v1/sessions",
                              json={"game": "ghostone", "players": 3, "sead": 1})
    p["payload_too_large"] = call("POST", "/v1/sessions", data=b"[" + b" " * (2 << 20) + b"]",
                                  headers={"Content-Type": "application/json"})
    p["unsupported_media_type"] = call("POST", "/v1/sessions", data=b'{"players": 3}',
                                       headers={"Content-Type": "text/plain"})
    p["unauthorized"] = call("GET", f"/v1/sessions/{sid}")
    p["invalid_ticket"] = call("GET", f"/v1/sessions/{sid}/events", params={
        "ticket": "A" * 32})
    p["forbidden"] = call("POST", f"/v1/sessions/{sid}/moves", spectator, json={"move": place})
    # (sent after seat 1's move below: seat 2 is then to move, and seat 3 is not)
    p["not_your_turn"] = call("POST", f"/v1/sessions/{sid}/moves", seats[3],
                              json={"move": dict(place, seat=3)})
    p["not_found"] = call("GET", "/v1/nowhere")
    p["unknown_game"] = call("GET", "/v1/games/chess")
    p["unknown_session"] = call("GET", "/v1/sessions/nosuchsession", seats[1])
    p["method_not_allowed"] = call("PUT", "/v1/sessions", json={})
    p["illegal_move"] = call("POST", f"/v1/sessions/{sid}/moves", seats[2], json={
        "move": {"type": "place", "seat": 2, "plate": "z9", "rocks": ["a1", "a2", "b1"]}})
    p["invalid_state"] = call("POST", "/v1/games/ghostone/legal-moves",
                              json={"state": dict(new_state, version=-1)})
    p["invalid_options"] = call("POST", "/v1/sessions",
                                json={"game": "ghostone", "players": 3, "options": {"ghosts": 2}})
    p["invalid_players"] = call("POST", "/v1/sessions", json={"game": "ghostone", "players": 2})
    p["no_such_seat"] = call("POST", "/v1/games/ghostone/view",
                             json={"state": new_state, "seat": 4})
    p["invalid_input"] = call("POST", "/v1/games/ghostone/calculate", json={
        "players": 3, "escapes": [{"seat": 1, "points": 5}] * 4})  # seat 1 has 3 pieces
    p["already_started"] = call("POST", f"/v1/sessions/{sid}/start", table)
    p["no_bot"] = call("DELETE", f"/v1/sessions/{sid}/seats/2/bot", table)
    p["unprocessable"] = call("POST", f"/v1/sessions/{sid}/leave", table, json={})

    # seat 1 moved: If-Match and Idempotency-Key are checked against it; seat 2 to move
    assert api.move(sid, seats[1], place, headers={"Idempotency-Key": "k1"}).ok
    assert api.ok("GET", f"/v1/sessions/{sid}", seats[1])["to_move"] == [2]
    p["idempotency_conflict"] = call("POST", f"/v1/sessions/{sid}/moves", seats[1], json={
        "move": dict(place, plate="d4")}, headers={"Idempotency-Key": "k1"})
    p["version_conflict"] = call("POST", f"/v1/sessions/{sid}/moves", seats[2], json={
        "move": api.first_move(sid, seats[2])}, headers={"If-Match": '"0"'})
    p["takeback_not_last_move"] = call("POST", f"/v1/sessions/{sid}/undo", seats[2], json={})

    lobby = api.create(seats="open")
    code = lobby["join_code"]
    assert api.call("POST", "/v1/sessions/join", json={"code": code, "seat": 2}).ok
    empty = api.create(seats="open")
    p["nobody_seated"] = call("POST", f"/v1/sessions/{empty['session_id']}/start",
                              empty["table_token"])
    p["seat_taken"] = call("POST", "/v1/sessions/join", json={"code": code, "seat": 2})
    joined = api.ok("POST", "/v1/sessions/join", json={"code": code, "seat": 3})
    p["not_started"] = call("POST", f"/v1/sessions/{lobby['session_id']}/moves",
                            joined["token"], json={"move": {"type": "pass", "seat": 3}})

    companion = api.create(game="threemagic", players=3, mode="companion")
    csid, cseats = companion["session_id"], tokens_of(companion)
    awaited = api.ok("GET", f"/v1/sessions/{csid}", companion["table_token"])["view"]["awaiting"]
    entry = {k: v for k, v in api.first_move(csid, cseats[awaited]).items()
             if k not in ("text", "p")}
    p["not_your_entry"] = call("POST", f"/v1/sessions/{csid}/moves", companion["table_token"],
                               json={"move": entry})
    p["impossible_entry"] = call("POST", f"/v1/sessions/{csid}/moves", cseats[awaited],
                                 json={"move": dict(entry, card="no such card")})

    tabletop = api.create(mode="tabletop")
    tsid, ttable = tabletop["session_id"], tabletop["table_token"]
    p["nothing_to_undo"] = call("POST", f"/v1/sessions/{tsid}/undo", ttable, json={})
    p["nothing_to_redo"] = call("POST", f"/v1/sessions/{tsid}/redo", ttable, json={})
    p["undo_target_invalid"] = call("POST", f"/v1/sessions/{tsid}/undo", ttable,
                                    json={"to_version": 40})

    rolled = api.create(seed=0)
    version = [rolled["version"]]

    def jumped(answer):  # a move after which the ghost's die rolled, the game going on
        before, version[0] = version[0], answer["version"]
        return answer["version"] - before > 1 and bool(answer["to_move"])

    mover = play_until(api, rolled, jumped)
    p["takeback_after_chance"] = call("POST", f"/v1/sessions/{rolled['session_id']}/undo",
                                      tokens_of(rolled)[mover], json={})

    magic = api.create(game="threemagic", seed=0)
    mid, mtokens = magic["session_id"], tokens_of(magic)
    for _ in range(100):
        to_move = api.ok("GET", f"/v1/sessions/{mid}", mtokens[1])["to_move"]
        move = api.first_move(mid, mtokens[to_move[0]])
        assert api.move(mid, mtokens[to_move[0]], move).ok
        if move["type"] == "pass" and len(to_move) > 1:  # a sealed call-window answer
            break
    p["takeback_hidden_information"] = call("POST", f"/v1/sessions/{mid}/undo",
                                            mtokens[to_move[0]], json={})

    ended = api.create(seed=21)
    last = play_until(api, ended, lambda answer: not answer["to_move"])
    esid, etokens = ended["session_id"], tokens_of(ended)
    p["game_over"] = call("POST", f"/v1/sessions/{esid}/moves", etokens[1],
                          json={"move": {"type": "pass", "seat": 1}})
    p["takeback_game_over"] = call("POST", f"/v1/sessions/{esid}/undo", etokens[last], json={})

    p["unknown_join_code"] = call("POST", "/v1/sessions/join", json={"code": "K4TM-9XQR"})

    def rate_limited(lang):  # past JOIN_FAILURES_PER_MINUTE unknown codes from one address
        for _ in range(6):
            answer = api.call("POST", "/v1/sessions/join", lang=lang, json={"code": "K4TM-9XQR"})
            if answer.status_code == 429:
                return answer
        return answer
    p["rate_limited"] = rate_limited

    held = []  # one stream, held open for both languages (a closed one counts until the
    # gateway notices, at its next heartbeat)

    def service_unavailable(lang):  # past STREAM_MAX_PER_WORKER (1) open streams
        if not held:
            held.append(api.call("GET", f"/v1/sessions/{sid}/events", seats[1], stream=True))
            assert held[0].status_code == 200, held[0].text
            next(held[0].iter_lines())  # it is open
        return api.call("GET", f"/v1/sessions/{sid}/events", seats[2], lang=lang)
    p["service_unavailable"] = service_unavailable
    return p, held


def test_every_code_answers_in_english_and_in_japanese(stack):
    api = Api(stack.url)
    provoked, held = provocations(api, stack)
    assert set(provoked) | set(UNREACHABLE) | set(ELSEWHERE) == set(CODES), sorted(
        set(CODES) - set(provoked) - set(UNREACHABLE) - set(ELSEWHERE))
    try:
        for code, send in provoked.items():
            english, japanese = send("en"), send("ja;q=0.9, en;q=0.5")
            check_pair(code, english, japanese)
            if code in NAMED:  # what the error knows is said in Japanese too
                assert NAMED[code] in japanese.json()["detail"], japanese.json()
    finally:
        for stream in held:
            stream.close()
    assert set(DETAILS_JA) >= set(CODES)


def check_pair(code, english, japanese):
    """Same status, code and rule; each detail in its language, saying so."""
    en, ja = english.json(), japanese.json()
    assert english.status_code == japanese.status_code, (code, en, ja)
    assert en["code"] == ja["code"] == code, (code, en, ja)
    assert en.get("rule") == ja.get("rule"), (code, en, ja)
    assert not JAPANESE.search(en["detail"]), (code, en)
    assert JAPANESE.search(ja["detail"]), (code, ja)
    assert english.headers.get("Content-Language") == "en", (code, english.headers)
    assert japanese.headers.get("Content-Language") == "ja", (code, japanese.headers)
    for answer in (english, japanese):
        assert answer.headers["Content-Type"] == "application/problem+json", code
        assert "accept-language" in answer.headers.get("Vary", "").lower(), code


def test_the_game_services_answer_in_the_language_asked_too(stack):
    """Each game service itself (the gateway passes Accept-Language on), a refusal's rule in
    the game's words."""
    for game, url in stack.service_urls.items():
        state = requests.post(f"{url}/v1/new", json={"players": 3 if game in (
            "ghostone", "threemagic") else 2, "seed": 1}, timeout=10).json()["state"]
        seat = state["to_move"][0]
        answers = [requests.post(f"{url}/v1/apply", json={"state": state, "move": {
            "type": "nonsense", "seat": seat}}, headers={"Accept-Language": lang}, timeout=10)
            for lang in ("en-GB", "ja-JP,en;q=0.5")]
        check_pair("illegal_move", *answers)
        assert answers[1].json()["rule"] in answers[1].json()["detail"]
        wrong = [requests.put(f"{url}/v1/apply", headers={"Accept-Language": lang},
                              timeout=10) for lang in ("en", "ja")]
        check_pair("method_not_allowed", *wrong)


def test_a_misspelled_move_field_is_named_in_both_languages(stack):
    api = Api(stack.url)
    session = api.create(game="vectron", players=2, seed=3)
    token = tokens_of(session)[1]
    move = api.first_move(session["session_id"], token)
    assert move["type"] == "draw" and "source" in move, move
    move["sorce"] = move.pop("source")
    en, ja = (api.move(session["session_id"], token, move, headers={"Accept-Language": lang})
              for lang in ("en", "ja"))
    check_pair("illegal_move", en, ja)
    assert en.json()["detail"].startswith('unknown field "sorce" in the move (did you mean '
                                          '"source"?)'), en.json()
    assert "「sorce」" in ja.json()["detail"], ja.json()


@pytest.mark.parametrize("header,expected", [
    ("ja", "ja"), ("ja-JP", "ja"), ("ja-JP,en;q=0.5", "ja"), ("en;q=0.5, ja;q=0.9", "ja"),
    ("ja;q=0, en", "en"), ("fr, ja;q=0.3", "ja"), ("fr", "en"), ("*", "en"), ("", "en"),
    ("*;q=0.5, ja;q=0.2", "en"), ("ja;q=0.1, en;q=0.1", "ja"), ("EN-us;q=0.8, ja-jp", "ja"),
    ("garbage;;q=x", "en")])
def test_accept_language_is_read_by_its_q_values(header, expected):
    """RFC 9110 q-values, highest first (the earlier of equals); ``ja-JP`` is ``ja``;
    ``q=0`` refuses a language; nothing acceptable, English."""
    from flask import Flask
    app = Flask(__name__)
    with app.test_request_context(headers={"Accept-Language": header}):
        answer = problem_response(TableFull("every seat of this table is taken"))
    assert answer.headers["Content-Language"] == expected


@pytest.mark.parametrize("code", sorted(UNREACHABLE | ELSEWHERE))
def test_the_codes_no_request_reaches_have_japanese_too(code):
    error = {"table_full": TableFull, "session_conflict": SessionConflict}.get(code)
    error = error("an English sentence") if error else RefereeError("an English sentence")
    error.code = code
    assert JAPANESE.search(error.problem("ja")["detail"])
    assert error.problem("en")["detail"] == "an English sentence"


@pytest.mark.parametrize("game", sorted(engines()))
def test_every_rule_of_RULES_md_has_its_japanese_words(game):
    """A refusal under any rule id RULES.md names says that rule in Japanese
    (the game's refusals.RULES_JA), and no id there is one RULES.md lacks."""
    engine = engines()[game]
    listed = ids_in((REPO / engine.rules_doc).read_text(encoding="utf-8"), engine.rule_prefix)
    worded = engine.rule_words["ja"]
    assert sorted(listed - set(worded)) == [] and sorted(set(worded) - listed) == []
    assert all(JAPANESE.search(text) for text in worded.values())
