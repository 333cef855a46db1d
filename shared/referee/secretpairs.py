"""The conformance suite's swapped-secret pairs: a game and its twin, played to the end.

At a few points of a seeded random game (in the setup, once the setup is done, and
twice in mid-game), for the spectator and two seats (in turn, so every seat observes), the
game's ``perturb_hidden`` changes what that seat may not see. Both games then go on side by side to the end, with
the same moves wherever a move is legal in both (the same tabletop chance entry, the
same build); where it is not, the second game plays the listed move that the seat sees
exactly as it sees the first game's (another card into a hidden hand). After every step
everything the seat can read must be byte-identical in both games: its view, its legal
moves, the logged move as redacted for it with its ``p`` and its text in every language,
the events as redacted for it, its picture (in English and Japanese in turn), and the
score.

A pair ends, counted as revealed, at the first step where the seat may legitimately
tell the games apart: no move of the twin looks the same to it, the move as it sees it
(without ``p`` and text) differs, what the public sees of the step (the move, the events)
differs, or its view afterwards differs (the rules showed the secret: a chip played from
a hand, a card discarded, a hand shown at the end of a match). A view that shows a secret
is caught by ``conformance.check_views`` at every step; here every other channel is
compared while those agree, so a ``p``, a text or an event redacted for the seat that
names a hidden card fails even when the view hides it.

In a companion game (each seat enters its own private chance outcomes, the table token or
any seat the public ones) the steps are entered as a session enters them, by the token the
view says is awaited, and the listing is compared too: a seat's entries (counted over the
public and its own hand) and the table token's, which is the spectator's reader (None). So
pairs whose private entries differ give the table, the spectator and every other seat
identical bytes through whole games.
"""

import random
from dataclasses import dataclass, field

from .conformance import choose_move, perturbation
from .engine import ANNOTATIONS, CHANCE, LANGUAGES, REFEREE, TABLE, Engine, canonical, clone
from .errors import RefereeError


@dataclass
class Pairs:
    """What the pairs compared: how many pairs, steps after the swap and channels."""

    pairs: int = 0
    steps: int = 0
    comparisons: int = 0
    revealed: int = 0
    steps_per_pair: list = field(default_factory=list)


def bare(move: dict) -> dict:
    """A move without the referee's annotations (``p``, ``text``)."""
    return {k: v for k, v in move.items() if k not in ANNOTATIONS}


def position_reads(engine: Engine, state: dict, seat, step: int = 0) -> dict:
    """What ``seat`` (None: the spectator) reads of a position, as the routes answer it.
    The picture (most of the cost) is drawn in one language a step, in turn. In a companion
    game the listing too: a seat's entries, counted over what it knows, and the table token's
    (None), which must be the public's alone."""
    reads = {"view": canonical(engine.view(state, seat)),
             "score": canonical(engine.score(state))}
    if seat is not None:
        reads["legal_moves"] = canonical(engine.legal_moves(state, seat))
    if state["mode"] == "companion":  # what the seat (None: the table token) is listed
        reads["listing"] = canonical(engine.view_listing(
            state, engine.legal_moves(state, seat), seat))
    lang = LANGUAGES[step % len(LANGUAGES)]
    reads[f"picture.{lang}"] = engine.picture(state, seat, lang)
    return reads


def step_reads(engine: Engine, record: dict, events: list, seat) -> dict:
    """What ``seat`` reads of a step: the logged move and its events as redacted for it."""
    seen = engine.view_move(record, seat)
    reads = {"log.move": canonical(seen), "log.events": canonical(
        engine.view_events(events, seat))}
    for lang in LANGUAGES:
        reads[f"log.text.{lang}"] = engine.move_text(seen, lang)
    return reads


def shared_moves(engine: Engine, state: dict, twin: dict) -> list[dict]:
    """The moves of ``state`` that are listed for ``twin`` too, where there are any (the
    pair stays alike longest), else all of them."""
    moves = engine.legal_moves(state)
    if twin["to_move"] != state["to_move"] or any("describe" in m for m in moves):
        return moves
    listed = {canonical(bare(m)) for m in engine.legal_moves(twin)}
    return [m for m in moves if canonical(bare(m)) in listed] or moves


def counterpart(engine: Engine, twin: dict, move: dict, seat) -> dict | None:
    """The move the twin plays for ``move``: the same move where it is legal there, else
    the first listed move ``seat`` sees exactly as it sees ``move``; None: there is none."""
    move = bare(move)
    try:
        engine.step(twin, move)
        return move
    except RefereeError:
        pass
    seen = bare(engine.view_move(move, seat))
    for candidate in engine.legal_moves(twin):
        if "describe" not in candidate and bare(engine.view_move(bare(candidate), seat)) == seen:
            return bare(candidate)
    return None


def seen_step(engine: Engine, record: dict, events: list, seat) -> str:
    """What tells two steps apart legitimately: the move as ``seat`` sees it (without
    ``p`` and text), and what the public sees of the step, its events included (a card
    discarded, a match ended). Events that differ only as redacted for ``seat`` do not
    count: the seat's own secrets are the same in both games, so they are a leak."""
    return canonical([bare(engine.view_move(record, seat)),
                      bare(engine.view_move(record, None)),
                      engine.view_events(events, None)])


def entrant(engine: Engine, state: dict):
    """Who enters the pending outcome in a companion game (a seat, or None: the table
    token), so that its entry is checked as the session checks it; else the referee."""
    awaited = engine.awaiting(state)
    return REFEREE if awaited is None else None if awaited == TABLE else awaited


def compare(reads: dict, twin_reads: dict, where: str) -> int:
    for channel, value in reads.items():
        assert twin_reads[channel] == value, (
            f"{where}: {channel} differs while the seat cannot tell the games apart:\n"
            f"  {value[:600]}\n  {twin_reads[channel][:600]}")
    return len(reads)


def run_pair(engine: Engine, state: dict, twin: dict, seat, rnd: random.Random,
             label: str, tally: Pairs) -> None:
    """Play ``state`` and ``twin`` side by side to the end, or until ``seat`` may tell them
    apart, comparing everything it reads after every step."""
    where = f"{engine.id} {label}, seat {seat}"
    tally.pairs += 1
    tally.comparisons += compare(position_reads(engine, state, seat),
                                 position_reads(engine, twin, seat), f"{where}, at the swap")
    steps = 0
    revealed = False
    while state["to_move"]:
        move = choose_move(engine, state, shared_moves(engine, state, twin), rnd)
        twin_move = counterpart(engine, twin, move, seat)
        if twin_move is None:
            revealed = True
            break
        new, events, record = engine.step(state, bare(move), entrant=entrant(engine, state))
        twin_new, twin_events, twin_record = engine.step(twin, twin_move,
                                                         entrant=entrant(engine, twin))
        at = f"{where}, step {steps + 1} after the swap ({canonical(bare(move))[:120]})"
        if seen_step(engine, record, events, seat) != seen_step(
                engine, twin_record, twin_events, seat) or \
                engine.view(new, seat) != engine.view(twin_new, seat):
            revealed = True
            break
        tally.comparisons += compare(step_reads(engine, record, events, seat),
                                     step_reads(engine, twin_record, twin_events, seat), at)
        tally.comparisons += compare(position_reads(engine, new, seat, steps),
                                     position_reads(engine, twin_new, seat, steps), at)
        state, twin = new, twin_new
        steps += 1  # a step compared whole (the one that revealed is not counted)
    tally.steps += steps
    tally.steps_per_pair.append(steps)
    tally.revealed += revealed


def swap_points(states: list[dict]) -> list[int]:
    """Where to swap: in the setup (tabletop: its chance entries), once the setup is done,
    a third and two thirds of the way through the game."""
    first_turn = next((i for i, s in enumerate(states) if s["to_move"] != [CHANCE]), 0)
    rest = len(states) - 1 - first_turn
    points = [first_turn // 2, first_turn, first_turn + rest // 3, first_turn + 2 * rest // 3]
    return sorted(set(points))


def play_pairs(engine: Engine, players: int, seed: int, mode: str, tally: Pairs,
               tries: int = 5) -> Pairs:
    """Every swap point of one seeded random game, for the spectator and two seats (in
    turn from one point to the next, so that every seat observes at some point)."""
    perturb = perturbation(engine)
    rnd = random.Random(f"pairs/{engine.id}/{players}/{seed}/{mode}")
    states = [engine.new(players, seed=seed, mode=mode)]
    while states[-1]["to_move"]:
        state = states[-1]
        states.append(engine.apply(state, choose_move(
            engine, state, engine.legal_moves(state), rnd))[0])
    for turn, index in enumerate(swap_points(states)):
        state = states[index]
        for seat in [None, *sorted({turn % players + 1, (turn + 1) % players + 1})]:
            for _ in range(tries):  # a swap that changes something (a hand may be empty)
                twin = perturb(clone(state), seat, rnd)
                if canonical(twin) != canonical(state):
                    break
            else:
                continue
            engine.check_state(twin)
            run_pair(engine, state, twin, seat, random.Random(rnd.getrandbits(64)),
                     f"{mode} {players}p seed {seed} swapped at step {index}", tally)
    return tally
