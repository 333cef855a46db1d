"""The project's conformance checks, run on games with non-default options
(the generic suite plays the defaults only)."""

import pytest

from gematon.engine import Gematon, perturb_hidden
from referee import conformance
from referee.engine import Option

RING = [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6], [5, 6, 0], [6, 0, 1]]


class DraftRing(Gematon):
    """Gematon whose defaults are the expert draft, a ring pentacle and steeper blessings."""

    options = dict(Gematon.options,
                   draft=Option(True, "draft"),
                   pentacle_lines=Option(RING, "ring"),
                   blessing_values=Option([0, 1, 1, 3, 3, 6, 9], "steep"))


@pytest.mark.parametrize("mode", ["digital", "tabletop"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_GM_2_1_draft_games_pass_the_conformance_checks(players, mode):
    engine = DraftRing()
    # the suite finds perturb_hidden in the engine class's module: this one
    assert conformance.perturbation(engine) is perturb_hidden
    for seed in range(2):
        result = conformance.play_random_game(engine, players, seed, mode)
        assert result.final["options"]["draft"] is True
        assert None not in result.final["witches"]
        assert len(result.final["removed_witches"]) == 6 - players
        assert result.perturbed > 0
