"""Recorded seeded games replay identically: the same legal-move counts at every
step, the same final state, the same score. A change to a game's rules, to the
generator or to the state's shape shows up here; re-record with
``python tools/record_playthroughs.py <game>`` only when it is meant."""

import hashlib
import json
from pathlib import Path

import pytest

from referee.engine import canonical
from referee.registry import engines

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("game", sorted(engines()))
def test_golden_playthroughs_replay(game):
    path = GOLDEN / f"{game}.json"
    assert path.exists(), f"no golden playthrough: python tools/record_playthroughs.py {game}"
    engine = engines()[game]
    for recorded in json.loads(path.read_text())["playthroughs"]:
        state = engine.new(recorded["players"], seed=recorded["seed"])
        for number, step in enumerate(recorded["steps"]):
            moves = engine.legal_moves(state)
            assert len(moves) == step["legal"], f"step {number}: legal-move count changed"
            assert step["move"] in moves, f"step {number}: the recorded move is not legal"
            state, _ = engine.apply(state, step["move"])
        assert state["to_move"] == []
        assert hashlib.sha256(canonical(state).encode()).hexdigest() == recorded["final_sha256"]
        assert engine.score(state) == recorded["score"]
