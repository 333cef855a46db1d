"""Record the golden playthroughs that tests/test_playthroughs.py replays.

    python tools/record_playthroughs.py           # rewrite tests/golden/<game>.json
    python tools/record_playthroughs.py ghostone  # one game

A playthrough is a seeded digital game with a seeded choice of moves: at each
step the number of legal moves (a "perft" count) and the move played; at the
end the final state's SHA-256 and the score. Re-record only when a rule
change is meant to change play, and say so in the commit.
"""

import hashlib
import json
import random
import sys
from pathlib import Path

from referee.engine import canonical
from referee.registry import engines

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"


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
    wanted = (argv if argv is not None else sys.argv[1:]) or list(engines())
    GOLDEN.mkdir(exist_ok=True)
    for game in wanted:
        engine = engines()[game]
        games = [record(engine, players, seed=7)
                 for players in sorted({engine.min_players, engine.max_players})]
        (GOLDEN / f"{game}.json").write_text(json.dumps(
            {"game": game, "playthroughs": games}, separators=(",", ":")) + "\n")
        print(f"{game}: {[len(g['steps']) for g in games]} steps", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
