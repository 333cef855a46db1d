"""Bots on every game (``referee.bots``; issue 14 items 2-3): the stateless route
``POST /v1/bot-move`` on each game service and through the gateway, what it
refuses, and the budgets that keep a bot from stalling a game (counted, not timed).
Each game's own ``tests/test_bots.py`` checks its worlds, legal play and fairness."""

import random
from functools import cache
from importlib.metadata import entry_points

import pytest
from referee import bots, ismcts
from referee.botcheck import random_move
from referee.engine import CHANCE, canonical, is_listed
from referee.errors import GameOver, InvalidState, NotYourTurn
from referee.stack import installed_games
from support import assert_problem, service_app

GAMES = sorted(installed_games())
TINY = bots.Budget(iterations=6, seconds=None)


@cache
def engine_of(game: str):
    entry, = entry_points(group="referee.games", name=game)
    return entry.load()()


@cache
def client_of(game: str):
    return service_app(game).test_client()


def midgame(game: str, seed: int = 2, steps: int = 6, mode: str = "digital") -> dict:
    """A seeded random game a few moves in, with a seat to move that has a choice."""
    engine, rnd = engine_of(game), random.Random(seed)
    state = engine.new(engine.min_players, seed=seed, mode=mode)
    for _ in range(steps):
        state = engine.apply(state, random_move(engine, state, rnd))[0]
    while state["to_move"] == [CHANCE] or len(engine.legal_moves(state)) < 2:
        state = engine.apply(state, random_move(engine, state, rnd))[0]
    return state


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_bots_that_sample_its_hidden_information(game):
    engine = engine_of(game)
    hooks = bots.hooks(engine)
    if engine.has_secrets:
        assert hooks.sample_world is not bots.open_world, f"{game} hides things: it samples them"
    state = midgame(game)
    seat = state["to_move"][0]
    view = engine.view(state, seat)
    world = hooks.sample_world(view, seat, random.Random(1))
    engine.check_state(world)
    assert engine.view(world, seat) == engine.view(state, seat)
    # the search hands every sample the one view it holds: a sampler fills a copy
    assert view == engine.view(state, seat), f"{game}'s sampler changed the view"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", bots.LEVELS)
def test_bot_move_answers_a_legal_move_with_its_text(game, level):
    engine, state = engine_of(game), midgame(game)
    seat = state["to_move"][0]
    answer = client_of(game).post("/v1/bot-move", json={
        "view": engine.view(state, seat), "seat": seat, "level": level, "seed": 5,
        "budget_ms": 50}, headers={"Accept-Language": "ja"})
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    move = {k: v for k, v in body["move"].items() if k != "text"}
    assert body["level"] == level and is_listed(move, engine.legal_moves(state, seat))
    assert body["move"]["text"] == engine.move_text(move, "ja")


@pytest.mark.parametrize("game", GAMES)
def test_bot_move_refuses_a_seat_not_to_move_an_over_game_and_bad_bodies(game):
    engine, client, state = engine_of(game), client_of(game), midgame(game)
    seat = state["to_move"][0]
    idle = next(s for s in range(1, state["players"] + 1) if s not in state["to_move"])
    view = engine.view(state, idle)
    assert_problem(client.post("/v1/bot-move", json={"view": view, "seat": idle}),
                   403, "not_your_turn")
    over = engine.view(final_state(game), seat)
    assert_problem(client.post("/v1/bot-move", json={"view": over, "seat": seat}),
                   422, "game_over")
    good = {"view": engine.view(state, seat), "seat": seat, "level": "random"}
    for bad in ({"seat": seat}, dict(good, level="expert"), dict(good, budget_ms=0),
                dict(good, budget_ms=bots.MAX_BUDGET_MS + 1), dict(good, view=state),
                dict(good, seat=0), dict(good, extra=1)):
        assert_problem(client.post("/v1/bot-move", json=bad), 400, "bad_request")


@pytest.mark.parametrize("game", [g for g in GAMES if engine_of(g).has_secrets])
def test_another_seats_view_is_not_one_the_seat_can_have(game):
    """A seat's view shows its own secrets only: sent as another seat's, no state has it."""
    engine, rnd = engine_of(game), random.Random(7)
    state, seat, other = engine.new(engine.min_players, seed=7), None, None
    while other is None:  # a position where two seats' views differ, one of them to move
        state = engine.apply(state, random_move(engine, state, rnd))[0]
        assert state["to_move"], f"{game}: no seat ever saw what another did not"
        seat = state["to_move"][0]
        other = next((s for s in range(1, state["players"] + 1) if seat != CHANCE and
                      engine.view(state, s) != engine.view(state, seat)), None)
    answer = client_of(game).post("/v1/bot-move", json={
        "view": engine.view(state, other), "seat": seat, "level": "random"})
    assert_problem(answer, 422, "invalid_state")


def final_state(game: str) -> dict:
    engine, rnd = engine_of(game), random.Random(3)
    state = engine.new(engine.min_players, seed=3)
    while state["to_move"]:
        state = engine.apply(state, random_move(engine, state, rnd))[0]
    return state


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_is_never_asked_for_a_chance_outcome_or_a_finished_game(game):
    engine, rnd = engine_of(game), random.Random(4)
    state = engine.new(engine.min_players, seed=4, mode="tabletop")
    while state["to_move"] != [CHANCE]:
        state = engine.apply(state, random_move(engine, state, rnd))[0]
    with pytest.raises(NotYourTurn, match="chance outcome is to be entered"):
        bots.choose(engine, engine.view(state, 1), 1, "random", 1, TINY)
    with pytest.raises(GameOver):
        bots.choose(engine, engine.view(final_state(game), 1), 1, "random", 1, TINY)


@pytest.mark.parametrize("game", GAMES)
def test_the_same_view_seed_and_iterations_give_the_same_move(game):
    engine, state = engine_of(game), midgame(game, seed=6)
    seat = state["to_move"][0]
    view = engine.view(state, seat)
    for level in bots.LEVELS:
        chosen = {canonical(bots.choose(engine, view, seat, level, 9, TINY))
                  for _ in range(2)}
        assert len(chosen) == 1, level
    over_seeds = {canonical(bots.choose(engine, view, seat, "random", s, TINY))
                  for s in range(12)}
    assert len(over_seeds) > 1, "the seed is the random bot's only source of choice"


def test_a_strong_bot_runs_its_iterations_and_no_more(monkeypatch):
    engine, state = engine_of("ghostone"), midgame("ghostone")
    seat, runs = state["to_move"][0], []
    real = ismcts.iterate
    monkeypatch.setattr(ismcts, "iterate", lambda *a: runs.append(1) or real(*a))
    bots.choose_for(engine, state, seat, "strong", 1, bots.Budget(iterations=17, seconds=None))
    assert len(runs) == 17


def test_a_bot_stops_thinking_when_its_time_is_up(monkeypatch):
    """The wall clock, made a counter: each reading advances it 10 ms; a 100 ms budget
    stops the search after a handful of iterations, whatever the iteration bound."""
    engine, state = engine_of("ghostone"), midgame("ghostone")
    seat, runs, now = state["to_move"][0], [], [0.0]

    def clock():
        now[0] += 0.01
        return now[0]

    monkeypatch.setattr(bots.time, "perf_counter", clock)
    real = ismcts.iterate
    monkeypatch.setattr(ismcts, "iterate", lambda *a: runs.append(1) or real(*a))
    bots.choose_for(engine, state, seat, "strong", 1, bots.Budget(iterations=10_000, seconds=0.1))
    assert 1 <= len(runs) < 20  # ~10 readings fit in 100 ms; 10 000 iterations were allowed


def test_the_first_judgement_of_many_moves_stops_at_the_deadline(monkeypatch):
    """A placement of Ghostone lists hundreds of moves: judging each one ply deep must
    not carry a 100 ms decision past its deadline (the clock, a counter of 10 ms a
    reading, allows about ten judgements); every move is still the search's to try."""
    engine = engine_of("ghostone")
    state = engine.new(3, seed=1)
    seat, judged, now = state["to_move"][0], [], [0.0]
    assert len(engine.legal_moves(state)) > 100

    def clock():
        now[0] += 0.01
        return now[0]

    monkeypatch.setattr(bots.time, "perf_counter", clock)
    hooks = bots.hooks(engine)
    counted = bots.Hooks(hooks.sample_world, lambda *a: judged.append(1) or hooks.evaluate(*a),
                         hooks.playout_move, hooks.playout_depth, hooks.eval_scale)
    monkeypatch.setattr(bots, "hooks", lambda engine: counted)
    move = bots.choose_for(engine, state, seat, "strong", 1, bots.Budget(seconds=0.1))
    assert is_listed(move, engine.legal_moves(state))
    assert 1 <= len(judged) < 20


def test_a_grouping_game_picks_a_group_first_then_a_move_of_it(monkeypatch):
    """Ghostone names a placement's plate as its group (``move_group``): the root's ~900
    placements share their visits among 16 plates, each iteration one visit to one
    plate, and the answer is a move of the plate visited most. The other games name no
    groups: their nodes are flat, as before."""
    engine = engine_of("ghostone")
    state = engine.new(3, seed=1)
    seat, made, real = state["to_move"][0], [], ismcts.Node
    monkeypatch.setattr(ismcts, "Node", lambda: made.append(real()) or made[-1])
    move = bots.choose_for(engine, state, seat, "strong", 1,
                           bots.Budget(iterations=200, seconds=None))
    visits = {plate: stats[0] for plate, stats in made[0].groups.items()}
    assert len(visits) == 16  # every plate is free at the first placement
    assert sum(visits.values()) == 16 * ismcts.PRIOR_VISITS + 200
    assert visits[move["plate"]] == max(visits.values())
    assert not [game for game in installed_games()
                if game != "ghostone" and bots.hooks(engine_of(game)).move_group]


def test_a_cut_playout_is_judged_by_the_games_cutoff_evaluate_where_it_has_one():
    """Ghostone judges a playout its depth cut by ``cutoff_evaluate`` (greedy keeps
    ``evaluate``); a finished game is still judged by its winners. The other games have
    none: the search judges as before."""
    engine = engine_of("ghostone")
    state = engine.new(3, seed=1)
    table = bots.Table(engine, engine.view(state, 1), 1, seed=1)
    hooks = bots.hooks(engine)
    assert hooks.cutoff_evaluate and hooks.cutoff_evaluate is not hooks.evaluate
    table.hooks = bots.Hooks(hooks.sample_world, lambda state, seat: 0.0, hooks.playout_move,
                             hooks.playout_depth, hooks.eval_scale,
                             cutoff_evaluate=lambda state, seat: 100.0 if seat == 2 else -100.0)
    rewards = table.rewards(table.first)
    assert {seat: round(reward, 6) for seat, reward in rewards.items()} == {1: 0, 2: 1, 3: 0}
    assert not [game for game in installed_games()
                if game != "ghostone" and bots.hooks(engine_of(game)).cutoff_evaluate]


def test_a_time_budget_keeps_its_reserve_and_an_iteration_as_long_as_the_longest(
        monkeypatch):
    """The clock, its readings given: with a 1 s budget the search stops once one more
    iteration as long as the longest so far would end past the budget less its reserve."""
    readings = iter([0.0, 0.1, 0.2, 0.5, 0.69])
    monkeypatch.setattr(bots.time, "perf_counter", lambda: next(readings))
    clock = bots.Budget(seconds=1.0).clock()
    assert clock.deadline == 1.0 - bots.Clock.RESERVE
    # the longest iteration ran from 0.2 to 0.5: at 0.69 one more would end at 0.99,
    # within the whole second but past its reserve
    assert [clock.over(n) for n in range(1, 5)] == [False, False, False, True]


def test_a_view_no_state_has_is_refused_as_invalid_state():
    engine, state = engine_of("ghostone"), midgame("ghostone")
    seat = state["to_move"][0]
    view = engine.view(state, seat)
    view["pieces"] = [[] for _ in view["pieces"]]  # every piece gone, the game not over
    with pytest.raises(InvalidState):
        bots.choose(engine, view, seat, "strong", 1, TINY)
    assert_problem(client_of("ghostone").post("/v1/bot-move", json={"view": view, "seat": seat}),
                   422, "invalid_state")


def test_the_gateway_re_exposes_bot_move(redis_url, service_urls):
    from referee_gateway import create_app
    gateway = create_app({"TESTING": True, "REDIS_URL": redis_url,
                          "GAME_SERVICES": dict(service_urls)}).test_client()
    engine, state = engine_of("vectron"), midgame("vectron")
    seat = state["to_move"][0]
    answer = gateway.post("/v1/games/vectron/bot-move", json={
        "view": engine.view(state, seat), "seat": seat, "level": "greedy", "seed": 1})
    assert answer.status_code == 200, answer.get_json()
    assert is_listed({k: v for k, v in answer.get_json()["move"].items() if k != "text"},
                     engine.legal_moves(state, seat))
    document = gateway.get("/openapi.json").get_json()
    assert document["paths"]["/v1/games/vectron/bot-move"]["post"]["operationId"] == \
        "vectronChooseBotMove"
