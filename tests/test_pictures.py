"""Pictures (issue 13.1): every game draws every view of seeded games as SVG, a seat's
picture never depends on what its view hides, the recorded pictures stay byte for byte
(``make pictures`` re-records them), and the routes serve them: the game services'
``POST /v1/picture``, the gateway's ``POST /v1/games/{game}/picture`` and a session's
``GET /v1/sessions/{sid}/picture.svg`` for the caller's token, with its ETag."""

import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee import conformance
from referee.errors import BadRequest
from referee.registry import engines
from referee.rng import Pcg32
from support import (
    assert_problem, bearer, create_session, first_move, play, seat_token, service_app,
    session_url,
)

GAMES = engines()
GOLDEN = Path(__file__).parent / "golden" / "pictures"
SVG = "{http://www.w3.org/2000/svg}"


def seeded_states(engine, players: int, seed: int, every: int):
    """Every ``every``-th state of a seeded random digital game, and its last."""
    rnd = random.Random(f"pictures/{engine.id}/{seed}")
    state = engine.new(players, seed=seed)
    step = 0
    while state["to_move"]:
        if step % every == 0:
            yield state
        moves = engine.legal_moves(state)
        state, _ = engine.apply(state, conformance.choose_move(engine, state, moves, rnd))
        step += 1
    yield state


def reordered(value):
    """The same JSON with every object's keys in reverse order: a picture must not care."""
    if isinstance(value, dict):
        return {k: reordered(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reordered(v) for v in value]
    return value


def banner(root) -> str:
    band = root.find(f"{SVG}g[@class='to-move']")
    return " ".join("".join(t.itertext()) for t in band.iter(f"{SVG}text"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_draws_every_view_of_seeded_games(game):
    """Each view — every seat's and the public — of seeded games at both ends of the
    player counts is an SVG 360 wide with a viewBox, a title, a text version, and a
    banner naming whose turn it is; a seat's picture is the same whatever its view
    hides (the game's perturb_hidden, and another generator)."""
    engine = GAMES[game]
    perturb = conformance.perturbation(engine)
    rnd = random.Random(game)
    drawn = hidden = 0
    for players in sorted({engine.min_players, engine.max_players}):
        for state in seeded_states(engine, players, seed=players, every=31):
            for seat in [None, *range(1, players + 1)]:
                text = engine.picture(state, seat)
                root = ET.fromstring(text)
                assert root.tag == f"{SVG}svg" and root.get("width") == "360"
                assert re.fullmatch(r"0 0 360 \d+", root.get("viewBox"))
                assert root.find(f"{SVG}title").text and root.find(f"{SVG}desc").text
                acting = [s for s in state["to_move"] if isinstance(s, int)]
                if acting:
                    assert str(acting[0]) in banner(root), (game, state["to_move"])
                elif not state["to_move"]:
                    assert banner(root).startswith("Game over")
                other = dict(state, rng=Pcg32.from_seed(rnd.getrandbits(64)).to_json())
                assert engine.picture(other, seat) == text
                assert engine.picture(reordered(state), seat) == text
                if perturb is not None:
                    variant = perturb(state, seat, rnd)
                    hidden += variant != state
                    assert engine.picture(variant, seat) == text, (game, seat)
                drawn += 1
    assert drawn > 20
    assert hidden > 0 or perturb is None


#: the moves whose things each game's picture says it stands for (data-uses): a touch on
#: the page picks them, and the page marks the last one and a touched thing's targets
TOUCHED = {"gematon": {"push", "operate"}, "vectron": {"move", "place", "draw"},
           "threemagic": {"discard", "pon", "chi", "tsumo", "ron"}}


def move_words(move: dict) -> set[str]:
    """What the page's tokensOf (static/moves.js) makes of a move: field=value, an array's
    items each under its field's name, null and booleans as JSON writes them."""
    def word(value):
        return json.dumps(value) if value is None or isinstance(value, bool) else str(value)
    return {f"{key}={word(item)}" for key, value in move.items() if key not in ("p", "text")
            for item in (value if isinstance(value, list) else [value])}


def touchable(root) -> list[tuple]:
    """(element, alternatives) for every element of a picture with data-uses."""
    return [(node, [set(alt.split(",")) for alt in node.get("data-uses").split()])
            for node in root.iter() if node.get("data-uses")]


def card_of(node) -> str:
    """A Three Magic card as its picture writes it: R/B/G and a number, * when starred."""
    letter, number = (t.text for t in node.iter(f"{SVG}text"))
    return f"{letter}{number}{'*' if 'starred' in node.get('class') else ''}"


@pytest.mark.parametrize("game", sorted(TOUCHED))
def test_a_seats_picture_stands_for_each_thing_its_moves_use(game):
    """Every move a seat is listed of the kinds its game's picture draws a thing for is
    used by an element of that seat's picture (its data-uses), and a Three Magic discard by
    exactly one card, the one the discard throws out: the page's touch picks by these."""
    engine = GAMES[game]
    checked = set()
    for state in seeded_states(engine, engine.max_players, seed=5, every=3):
        for seat in [s for s in state["to_move"] if isinstance(s, int)]:
            elements = touchable(ET.fromstring(engine.picture(state, seat)))
            for move in engine.legal_moves(state, seat):
                if move["type"] not in TOUCHED[game]:
                    continue
                words = move_words(move)
                using = [node for node, alts in elements if any(alt <= words for alt in alts)]
                assert using, (game, move)
                checked.add(move["type"])
                if move["type"] == "discard":
                    thrown = next(e["card"] for e in engine.apply(state, move)[1]
                                  if e["type"] == "card_discarded")
                    assert [card_of(node) for node in using] == [thrown], move
    assert checked == TOUCHED[game], checked


def golden_cases():
    for game in sorted(GAMES):
        path = GOLDEN / f"{game}.json"
        recorded = json.loads(path.read_text())["pictures"] if path.exists() else []
        for entry in recorded:
            yield pytest.param(game, entry, id=f"{game}-{entry['n']}")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_recorded_pictures(game):
    recorded = json.loads((GOLDEN / f"{game}.json").read_text())["pictures"]
    assert len(recorded) == 7, "record them with: make pictures"
    assert {e["lang"] for e in recorded} == {"en", "ja"}
    assert {e["seat"] is None for e in recorded} == {True, False}


@pytest.mark.parametrize("game, entry", list(golden_cases()))
def test_recorded_pictures_are_drawn_byte_for_byte(game, entry):
    """tests/golden/pictures/<game>-<n>.svg: re-record with ``make pictures`` (and look at
    the PNGs) only when a picture is meant to change."""
    expected = (GOLDEN / f"{game}-{entry['n']}.svg").read_text(encoding="utf-8")
    assert GAMES[game].picture(entry["state"], entry["seat"], entry["lang"]) == expected


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_game_service_draws_a_picture(game):
    """POST /v1/picture: the body of /v1/view, an image/svg+xml answer in the language of
    Accept-Language; a bad seat is a 400 problem like /v1/view's."""
    engine = GAMES[game]
    client = service_app(game).test_client()
    state = engine.new(engine.min_players, seed=3)
    answer = client.post("/v1/picture", json={"state": state, "seat": 1},
                         headers={"Accept-Language": "ja"})
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert answer.headers["Content-Language"] == "ja"
    assert answer.get_data(as_text=True) == engine.picture(state, 1, "ja")
    public = client.post("/v1/picture", json={"state": state})
    assert public.get_data(as_text=True) == engine.picture(state, None, "en")
    assert_problem(client.post("/v1/picture", json={"state": state, "seat": 99}), 400,
                   "bad_request")
    assert_problem(client.post("/v1/picture", json={"state": dict(state, players="x"),
                                                    "seat": None}), 422, "invalid_state")
    operation = client.get("/openapi.json").get_json()["paths"]["/v1/picture"]["post"]
    assert operation["operationId"] == "drawPicture"
    assert list(operation["responses"]["200"]["content"]) == ["image/svg+xml"]


def test_the_gateway_passes_the_picture_through(client):
    engine = GAMES["ghostone"]
    state = engine.new(3, seed=4)
    answer = client.post("/v1/games/ghostone/picture", json={"state": state, "seat": 2})
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert answer.get_data(as_text=True) == engine.picture(state, 2)
    document = client.get("/openapi.json").get_json()
    operation = document["paths"]["/v1/games/ghostone/picture"]["post"]
    assert operation["operationId"] == "ghostoneDrawPicture"
    assert list(operation["responses"]["200"]["content"]) == ["image/svg+xml"]
    session_route = document["paths"]["/v1/sessions/{sid}/picture.svg"]["get"]
    assert session_route["operationId"] == "getSessionPicture"
    assert session_route["security"] == [{"token": []}]
    assert list(session_route["responses"]["200"]["content"]) == ["image/svg+xml"]


def test_a_session_picture_is_the_callers_view_with_an_etag(client):
    """Each seat token gets its own seat's picture, the spectator the public one; ETag is
    the version and the language, If-None-Match answers 304, a move changes it."""
    engine = GAMES["vectron"]
    session = create_session(client, game="vectron", players=3, seed=42)
    state = engine.new(3, seed=42)
    url = session_url(session, "/picture.svg")
    for seat in (1, 2, 3):
        answer = client.get(url, headers=bearer(seat_token(session, seat)))
        assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
        assert answer.get_data(as_text=True) == engine.picture(state, seat)
        assert answer.headers["ETag"] == f'"{state["version"]}-en"'
        assert answer.headers["Cache-Control"] == "no-cache"
    spectator = client.get(url, headers={**bearer(session["spectator_token"]),
                                         "Accept-Language": "ja"})
    assert spectator.get_data(as_text=True) == engine.picture(state, None, "ja")
    assert spectator.headers["ETag"] == f'"{state["version"]}-ja"'
    token = seat_token(session, 1)
    cached = client.get(url, headers={**bearer(token), "If-None-Match": f'"{state["version"]}-en"'})
    assert cached.status_code == 304 and cached.headers["ETag"] == f'"{state["version"]}-en"'
    other_language = client.get(url, headers={**bearer(token), "Accept-Language": "ja",
                                              "If-None-Match": f'"{state["version"]}-en"'})
    assert other_language.status_code == 200
    move = first_move(client, session, token)
    assert play(client, session, token, move).status_code == 200
    moved = client.get(url, headers={**bearer(token),
                                     "If-None-Match": f'"{state["version"]}-en"'})
    assert moved.status_code == 200 and moved.headers["ETag"] != f'"{state["version"]}-en"'


def test_a_session_picture_needs_the_sessions_token(client):
    session = create_session(client)
    url = session_url(session, "/picture.svg")
    assert_problem(client.get(url), 401, "unauthorized")
    other = create_session(client)
    assert_problem(client.get(url, headers=bearer(other["table_token"])), 401, "unauthorized")
    assert_problem(client.get("/v1/sessions/nope/picture.svg",
                              headers=bearer(session["table_token"])), 404, "unknown_session")


@pytest.mark.parametrize("game", sorted(g for g in GAMES if GAMES[g].previewed_moves))
def test_a_preview_draws_a_moves_result_and_never_what_chance_brings_next(game):
    """Each listed move of the game's previewed_moves is drawn as the position it leads to,
    before the chance after it: the same whatever the generator holds (a preview must not
    show the next card or chip), and, where no chance follows, the picture after the move
    itself. Another move type is refused."""
    engine = GAMES[game]
    rnd = random.Random(f"preview/{game}")
    previewed = same_as_played = 0
    for state in seeded_states(engine, engine.min_players, seed=8, every=2):
        for move in engine.legal_moves(state):
            bare = {k: v for k, v in move.items() if k != "p"}
            if move["type"] not in engine.previewed_moves:
                if move["seat"] != "chance":
                    with pytest.raises(BadRequest):
                        engine.preview_picture(state, bare, move["seat"])
                continue
            drawn = engine.preview_picture(state, bare, move["seat"])
            reseeded = dict(state, rng=Pcg32.from_seed(rnd.getrandbits(64)).to_json())
            assert engine.preview_picture(reseeded, bare, move["seat"]) == drawn, move
            after, _ = engine.apply(state, bare)
            if after["version"] == state["version"] + 1:  # no chance played after it
                assert drawn == engine.picture(after, move["seat"])
                same_as_played += 1
            previewed += 1
    assert previewed > 10 and same_as_played > 0, (previewed, same_as_played)


def test_a_session_previews_a_move_of_its_token_and_plays_nothing(client):
    session = create_session(client, "gematon", 2)
    token = seat_token(session, 1)
    moves = client.get(session_url(session, "/legal-moves"), headers=bearer(token)).get_json()
    operate = next(m for m in moves["moves"] if m["type"] == "operate")
    push = next(m for m in moves["moves"] if m["type"] == "push")
    strip = lambda m: {k: v for k, v in m.items() if k != "text"}
    answer = client.post(session_url(session, "/preview.svg"), json={"move": strip(operate)},
                         headers={**bearer(token), "Accept-Language": "ja"})
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert answer.headers["Content-Language"] == "ja" and "<svg" in answer.get_data(as_text=True)
    assert_problem(client.post(session_url(session, "/preview.svg"), json={"move": strip(push)},
                               headers=bearer(token)), 400, "bad_request")
    other = seat_token(session, 2)
    assert client.post(session_url(session, "/preview.svg"), json={"move": strip(operate)},
                       headers=bearer(other)).status_code in (403, 422)
    assert_problem(client.post(session_url(session, "/preview.svg"),
                               json={"move": dict(strip(operate), cell=99)},
                               headers=bearer(token)), 422, "illegal_move")
    after = client.get(session_url(session), headers=bearer(token)).get_json()
    assert after["version"] == moves["version"], "a preview plays nothing"
    document = client.get("/openapi.json").get_json()
    route = document["paths"]["/v1/sessions/{sid}/preview.svg"]["post"]
    assert list(route["responses"]["200"]["content"]) == ["image/svg+xml"]


@pytest.mark.parametrize("move", [
    None, 5, "operate", [], {}, {"type": "operate"}, {"type": "operate", "seat": "chance"},
    {"type": "operate", "seat": 1, "altar": "nowhere", "take": 1, "cell": 0},
    {"type": "operate", "seat": 1, "altar": "black", "take": -1, "cell": 10 ** 30},
    {"type": "operate", "seat": 2, "altar": "black", "take": 1, "cell": 0},
    {"type": "nothing", "seat": 1}, {"type": "push", "seat": 1, "chip": "x"},
])
def test_a_bad_preview_is_a_problem_never_a_500(client, move):
    session = create_session(client, "gematon", 2)
    answer = client.post(session_url(session, "/preview.svg"), json={"move": move},
                         headers=bearer(seat_token(session, 1)))
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.get_data(as_text=True))
    assert answer.mimetype == "application/problem+json"
    for token in (session["table_token"], session["spectator_token"]):
        refused = client.post(session_url(session, "/preview.svg"), json={"move": {
            "type": "operate", "seat": 1, "altar": "black", "take": 1, "cell": 0}},
            headers=bearer(token))
        assert refused.status_code == 403, refused.get_data(as_text=True)
