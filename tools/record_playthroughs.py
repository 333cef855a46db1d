"""Record the golden playthroughs that tests/test_playthroughs.py replays.

    python tools/record_playthroughs.py           # rewrite tests/golden/<game>.json
    python tools/record_playthroughs.py ghostone  # one game

A playthrough is a seeded digital game with a seeded choice of moves: at each
step the number of legal moves (a "perft" count) and the move played; at the
end the final state's SHA-256 and the score. Re-record only when a rule
change is meant to change play, and say so in the commit.
"""

import argparse
import hashlib
import json
import random
import sys
from importlib.metadata import entry_points
from pathlib import Path

from referee.engine import canonical

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"


def installed_games() -> dict:
    return {ep.name: ep for ep in sorted(entry_points(group="referee.games"),
                                         key=lambda e: e.name)}


def record(engine, players: int, seed: int) -> dict:
    rnd = random.Random(seed)
    state = engine.new(players, seed=seed)
    steps = []
    while state["to_move"]:
        moves = engine.legal_moves(state)
        move = moves[rnd.randrange(len(moves))]
        steps.append({"legal": len(moves), "move": move})
        state, _ = engine.apply(state, move)
    return {"players": players, "seed": seed, "steps": steps,
            "final_sha256": hashlib.sha256(canonical(state).encode()).hexdigest(),
            "score": engine.score(state)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help="the games to re-record (default: every installed game)")
    args = parser.parse_args(argv)
    games = installed_games()
    unknown = sorted(set(args.games) - set(games))
    if unknown:
        parser.error(f"no game {', '.join(unknown)}; games: {', '.join(games)}")
    GOLDEN.mkdir(exist_ok=True)
    for game in args.games or list(games):
        # load only the games asked for: another game's broken import blocks nobody
        engine = games[game].load()()
        recorded = [record(engine, players, seed=7)
                    for players in sorted({engine.min_players, engine.max_players})]
        (GOLDEN / f"{game}.json").write_text(json.dumps(
            {"game": game, "playthroughs": recorded}, separators=(",", ":")) + "\n")
        print(f"{game}: {[len(g['steps']) for g in recorded]} steps", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
