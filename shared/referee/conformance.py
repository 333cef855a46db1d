"""The conformance suite every registered game must pass.

Seeded random games are played to the end through the public protocol and, at
every step, the invariants every game shares are checked: the state
round-trips through JSON, play is deterministic, every listed legal move is
accepted verbatim, unlisted moves are refused (with a rule id when illegal)
without changing anything (on the referee's own trusted path too, which must
list and play exactly as the checked path), seats that are not to move have no moves, forged
states are refused cleanly, and no view or move list depends on what its seat
may not see. ``tests/test_conformance.py`` runs it for every game.

A game with secrets supplies ``perturb_hidden(state, seat, rnd) -> state`` at
module level beside its engine: a valid copy of ``state`` in which what
``seat`` may not see (other hands, deck and bag order…) is changed.
"""

import json
import random
import sys
from xml.etree import ElementTree
from dataclasses import dataclass

from .engine import ANNOTATIONS, CHANCE, LANGUAGES, Engine, canonical, clone
from .errors import BadRequest, Forbidden, IllegalMove, InvalidState, RefereeError
from .rng import Pcg32

GARBAGE = (None, -1, 999, "zz", "", [], {}, True, 1.5, ["a1"])


@dataclass
class Playout:
    steps: int
    final: dict
    score: dict
    perturbed: int  # how many views were checked against a really different state
    hidden_outcomes: int = 0  # hidden chance outcomes swapped for one the seat cannot tell apart


def perturbation(engine: Engine):
    return getattr(sys.modules[type(engine).__module__], "perturb_hidden", None)


def play_random_game(engine: Engine, players: int, seed: int, mode: str = "digital", *,
                     deep: bool = True, max_steps: int = 50_000, options=None) -> Playout:
    """One seeded random game to its end; ``deep`` adds the costlier checks each step."""
    rnd = random.Random(f"{engine.id}/{players}/{seed}/{mode}")
    state = engine.new(players, seed=seed, mode=mode, options=options)
    perturb = perturbation(engine)
    assert not engine.has_secrets or perturb, f"{engine.id} has secrets but no perturb_hidden"
    steps = perturbed = hidden = 0
    while state["to_move"]:
        assert steps < max_steps, f"{engine.id} seed {seed}: no end after {max_steps} steps"
        check_round_trip(state)
        moves = engine.legal_moves(state)
        assert moves, f"{engine.id}: to_move={state['to_move']} but no legal move"
        check_non_acting_seats(engine, state)
        if deep:
            check_listed_moves_accepted(engine, state, moves, rnd)
            check_unlisted_moves_refused(engine, state, moves, rnd)
            check_forged_states_refused(engine, state, rnd)
            perturbed += check_views(engine, state, perturb, rnd)
            if state["to_move"] == [CHANCE] and engine.has_secrets:
                hidden += check_hidden_outcomes(engine, state, moves, rnd)
        move = choose_move(engine, state, moves, rnd)
        before = canonical(state)
        new, events = engine.apply(state, move)
        assert canonical(state) == before, "apply changed its input state"
        assert new["version"] > state["version"], "version did not advance"
        json.dumps(events)
        if deep:
            assert engine.apply(json.loads(before), move) == (new, events), "not deterministic"
            check_trusted_path(engine, state, moves, move, (new, events))
        state = new
        steps += 1
    check_round_trip(state)
    check_views(engine, state, perturb, rnd)
    score = engine.score(state)
    assert score["final"] and score["winners"], "a finished game has final scores and winners"
    assert sorted(s["seat"] for s in score["scores"]) == list(range(1, players + 1))
    for refused in ({"type": "pass", "seat": 1}, {"type": "x", "seat": CHANCE}):
        expect_refusal(engine, state, refused)
    return Playout(steps, state, score, perturbed, hidden)


def choose_move(engine, state, moves, rnd) -> dict:
    if state["to_move"] == [CHANCE]:
        if any("describe" in m for m in moves):  # an outcome too large to list
            return engine._sample_chance(state, Pcg32.from_seed(rnd.getrandbits(64)))
        return rnd.choices(moves, weights=[m["p"] for m in moves])[0]
    return rnd.choice(moves)


def check_round_trip(state) -> None:
    assert json.loads(json.dumps(state)) == state, "state does not round-trip through JSON"


def check_non_acting_seats(engine, state) -> None:
    for seat in range(1, state["players"] + 1):
        if seat not in state["to_move"]:
            assert engine.legal_moves(state, seat) == [], f"seat {seat} is not to move"


def check_listed_moves_accepted(engine, state, moves, rnd, sample: int = 4) -> None:
    """A sample of the listed moves, and of the moves each stands for (its unfolding,
    which holds the move itself), are accepted."""
    playable = [m for m in moves if "describe" not in m]
    for move in rnd.sample(playable, min(sample, len(playable))):
        engine.apply(state, move)  # raises if a listed move is refused
        match = engine.unfolding(move)
        if match is not None:
            unfolded = engine.legal_moves(state, match=match)
            assert canonical(bare_move(engine, move)) in map(canonical, unfolded), \
                f"{move} is not in its own unfolding"
            for other in rnd.sample(unfolded, min(2, len(unfolded))):
                engine.apply(state, other)


def bare_move(engine, move: dict) -> dict:
    """A move as the referee plays it: what the listing added left out (``p``, ``text``;
    a folded move's note, which the game's normalising drops)."""
    bare = {k: v for k, v in move.items() if k not in ANNOTATIONS}
    return bare if engine.unfolding(bare) is None else engine._normalize(bare)


def is_listed_move(engine, state, move: dict, listed: set) -> bool:
    """Whether ``move`` (bare) is listed: in ``listed`` (the listing's canonical bare
    moves), or in the unfolding of the listed move it would be folded into."""
    if canonical(move) in listed:
        return True
    match = engine.unfolding(move)
    return match is not None and canonical(move) in map(
        canonical, engine.legal_moves(state, match=match))


def check_trusted_path(engine, state, moves, move, played) -> None:
    """The referee's own path (a held state: no whole-state check, the playout step in
    place) lists and plays exactly as the checked path does."""
    held = clone(state)
    listed = engine.legal_moves(held, trusted=True)
    assert listed == moves, "the trusted listing differs"
    chosen = next((m for m in listed if m == move), move)  # the very object listed
    assert (held, engine.play_in_place(held, chosen)) == played, "play_in_place differs"


def mutations(move: dict, moves: list, rnd) -> list[dict]:
    """Moves near a legal one: another field value, garbage, another seat, no type."""
    out = [dict(move, type="no_such_move"), {k: v for k, v in move.items() if k != "type"}]
    fields = [k for k in move if k not in ("seat", "p")]
    for key in rnd.sample(fields, min(2, len(fields))):
        out.append(dict(move, **{key: rnd.choice(GARBAGE)}))
        other = rnd.choice(moves)
        if key in other:
            out.append(dict(move, **{key: other[key]}))
    out.append(dict(move, seat=rnd.choice([0, 99, "x", None, True])))
    return out


def check_unlisted_moves_refused(engine, state, moves, rnd) -> None:
    listed = {canonical(bare_move(engine, m)) for m in moves}
    for candidate in mutations(rnd.choice(moves), moves, rnd):
        bare = {k: v for k, v in candidate.items() if k != "p"}
        if "describe" in bare or is_listed_move(engine, state, bare_move(engine, bare),
                                                listed):
            continue
        expect_refusal(engine, state, bare)
        expect_refusal(engine, state, bare, trusted=True)
    acting = set(state["to_move"])
    idle = [s for s in range(1, state["players"] + 1) if s not in acting]
    if idle and state["to_move"] != [CHANCE]:
        expect_refusal(engine, state, dict(rnd.choice(moves), seat=rnd.choice(idle)))


def expect_refusal(engine, state, move, trusted: bool = False) -> RefereeError:
    """``move`` is refused and nothing changes; ``trusted``: on the referee's own
    path, just after a listing of the same state, through the playout step."""
    before = canonical(state)
    try:
        if trusted:
            held = clone(state)
            engine.legal_moves(held, trusted=True)
            try:
                engine.play_in_place(held, move)
            finally:
                assert canonical(held) == before, "a refused move changed the held state"
        else:
            engine.apply(state, move)
    except (IllegalMove, BadRequest, Forbidden) as refusal:
        assert canonical(state) == before, "a refused move changed the state"
        if isinstance(refusal, IllegalMove):
            assert refusal.rule, f"{engine.id}: refusal of {move} names no rule"
        return refusal
    raise AssertionError(f"{engine.id}: unlisted move accepted: {move}")


def check_forged_states_refused(engine, state, rnd, tries: int = 2) -> None:
    """A state with one leaf changed either still works or is refused: no crash."""
    for _ in range(tries):
        forged = forge(state, rnd)
        for call, args in ((engine.legal_moves, (forged,)), (engine.view, (forged, 1)),
                           (engine.score, (forged,))):
            try:
                call(*args)
            except RefereeError:
                pass


def forge(state, rnd):
    """A copy of ``state`` with one leaf changed, one key dropped or a subtree replaced."""
    forged = json.loads(json.dumps(state))
    node = forged
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return forged
        key = rnd.choice(keys)
        child = node[key]
        if isinstance(child, (dict, list)) and child and rnd.random() < 0.6:
            node = child
            continue
        action = rnd.random()
        if action < 0.15 and isinstance(node, dict):
            del node[key]
        elif action < 0.3 and isinstance(child, int) and not isinstance(child, bool):
            node[key] = child + rnd.choice([-1, 1, 10**6, -(10**6)])
        else:
            node[key] = rnd.choice(GARBAGE + ({"a": [1]}, [[]], 10**30, "1"))
        return forged


def check_views(engine, state, perturb, rnd) -> int:
    """No view or move list shows the generator, nor depends on another seat's secrets."""
    changed = 0
    secret = json.dumps(state["rng"]["state"]) if state["rng"] else None
    other_rng = dict(state, rng=Pcg32.from_seed(rnd.getrandbits(64)).to_json()) \
        if state["rng"] else state
    for seat in [None, *range(1, state["players"] + 1)]:
        view = engine.view(state, seat)
        moves = engine.legal_moves(state, seat) if seat else []
        text = json.dumps([view, moves])
        assert "rng" not in view and (secret is None or secret not in text), \
            "the generator's state is visible"
        variants = [other_rng]
        if perturb:
            variants.append(perturb(state, seat, rnd))
        for variant in variants:
            try:
                engine.check_state(variant)
            except InvalidState as exc:
                raise AssertionError(f"perturb_hidden made an invalid state: {exc}") from None
            if variant is not other_rng and canonical(variant) != canonical(state):
                changed += 1
            assert engine.view(variant, seat) == view, f"seat {seat}'s view shows a secret"
            if seat:
                assert engine.legal_moves(variant, seat) == moves, \
                    f"seat {seat}'s legal moves depend on a secret"
            if state["mode"] == "companion":
                assert listing(engine, variant, seat) == listing(engine, state, seat), \
                    f"{'the table' if seat is None else f'seat {seat}'}'s entries depend " \
                    "on a secret"
    return changed


def listing(engine, state, seat) -> list[dict]:
    """What a session lists to ``seat`` (None: the table token): in a companion game, a
    seat's own moves or the entries it may make, as it knows them."""
    return engine.view_listing(state, engine.legal_moves(state, seat), seat)


def check_hidden_outcomes(engine, state, outcomes, rnd, candidates: int = 4) -> int:
    """A hidden chance outcome reaches a seat exactly like every outcome it cannot tell apart.

    For each seat, the outcome played is swapped for others listed at the same
    point; where the seat's view afterwards is the same (it cannot tell them
    apart), everything else it receives must be byte-identical too: its legal
    moves, the logged move and the events as redacted for it. A ``p`` left on a
    redacted entry, or a card left in an event, fails here.
    """
    listed = [m for m in outcomes if "describe" not in m and m.get("p", 1) > 0]
    if len(listed) < 2:
        return 0
    picked = rnd.sample(listed, min(candidates + 1, len(listed)))
    played = [engine.step(state, {k: v for k, v in m.items() if k != "p"}) for m in picked]
    compared = 0
    for seat in range(1, state["players"] + 1):
        def received(result):
            new, events, move = result
            seen = engine.view_move(move, seat)
            return canonical([seen, [engine.move_text(seen, lang) for lang in LANGUAGES],
                              engine.view_events(events, seat), engine.legal_moves(new, seat)])
        first = played[0]
        view = canonical(engine.view(first[0], seat))
        for other, outcome in zip(played[1:], picked[1:]):
            if canonical(engine.view(other[0], seat)) != view:
                continue  # the seat sees the difference: nothing to hide
            assert received(other) == received(first), (
                f"{engine.id}: seat {seat} can tell the hidden outcome {picked[0]} from "
                f"{outcome}: {received(first)} != {received(other)}")
            compared += 1
    return compared


# ------------------------------------------------------------------ catalogs
def bilingual_names(node):
    """Every ``{"en", "ja"}`` pair in a component catalog (or any JSON data)."""
    if isinstance(node, dict):
        if set(node) == {"en", "ja"}:
            yield node
        for value in node.values():
            yield from bilingual_names(value)
    elif isinstance(node, list):
        for value in node:
            yield from bilingual_names(value)


def is_japanese(text: str) -> bool:
    return any("\u3040" <= c <= "\u9fff" for c in text)  # kana or kanji


# ------------------------------------------------------------------ pictures
#: the SVG namespace, as ElementTree spells a tag in it
SVG = "{http://www.w3.org/2000/svg}"


def random_states(engine: Engine, players: int, seed: int, mode: str = "digital",
                  options=None):
    """Every state of a seeded random game, from the start to the end (in a tabletop game
    the table enters chance as the conformance suite does)."""
    rnd = random.Random(seed)
    state = engine.new(players, seed=seed, mode=mode, options=options)
    yield state
    while state["to_move"]:
        state, _ = engine.apply(state, choose_move(engine, state, engine.legal_moves(state),
                                                   rnd))
        yield state


def picture_tree(engine: Engine, state, seat=None, lang: str = "en"):
    """A seat's picture of ``state``, parsed."""
    return ElementTree.fromstring(engine.picture(state, seat, lang))


def svg_texts(node) -> list[str]:
    return ["".join(t.itertext()) for t in node.iter(f"{SVG}text")]


def svg_group(root, cls: str):
    """The first ``<g>`` whose class starts with ``cls``."""
    return next(g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith(cls))
