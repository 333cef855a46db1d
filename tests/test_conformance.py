"""Every registered game passes the conformance suite (referee.conformance)."""

import pytest

from referee import conformance
from referee.registry import engines

GAMES = engines()
DEEP_GAMES = 40  # every check at every step; the rest of the 200 check the core invariants
GAMES_PER_ENGINE = 200


def test_games_are_registered():
    assert "ghostone" in GAMES


@pytest.mark.parametrize("mode", ["digital", "tabletop"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_games_to_the_end(game, mode):
    engine = GAMES[game]
    counts = range(engine.min_players, engine.max_players + 1)
    perturbed = hidden = 0
    for seed in range(GAMES_PER_ENGINE // 2):
        players = counts[seed % len(counts)]
        result = conformance.play_random_game(engine, players, seed, mode,
                                              deep=seed < DEEP_GAMES // 2)
        assert result.steps > 0
        perturbed += result.perturbed
        hidden += result.hidden_outcomes
    if engine.has_secrets:
        assert perturbed > 0, "the hidden-information check never saw a secret change"
    if engine.has_secrets and mode == "tabletop":
        assert hidden > 0, "no hidden chance outcome was swapped for an indistinguishable one"
