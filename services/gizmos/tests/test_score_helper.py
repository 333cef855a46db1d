"""The score helper (/v1/calculate) refuses every tally the rules cannot produce, with the
rule it breaks, and still scores the extreme tallies that can happen (Z-1, Z-2, Z-4, Z-9,
Z-11, Z-15)."""

import pytest

from gizmos.service import create_app
from referee.errors import InvalidInput

from gizmos_helpers import GAME

L1 = list(range(101, 137))
GRANTS = [319, 320, 331, 332]  # each grants one more build in a turn


def tally(*seats, order=None):
    """A body: each seat ``(built, vp_tokens, energy)``, numbered 1, 2, …"""
    body = {"seats": [{"seat": n, "built": built, "vp_tokens": vp, "energy": energy}
                      for n, (built, vp, energy) in enumerate(seats, start=1)]}
    if order is not None:
        body["turn_order"] = order
    return body


NOTHING = ([], 0, 0)

IMPOSSIBLE = {
    "no such card": (tally(([999], 0, 0), NOTHING), "Z-15"),
    "a card in two seats": (tally(([101], 0, 0), ([101], 0, 0)), "Z-1"),
    "a card twice in one seat": (tally(([101, 101], 0, 0), NOTHING), "Z-1"),
    "two starting gizmos": (tally(([901, 902], 0, 0), NOTHING), "Z-2"),
    "one seat": (tally(NOTHING), "Z-2"),
    "seats 1 and 3": ({"seats": [{"seat": 1, "built": [], "vp_tokens": 0, "energy": 0},
                                 {"seat": 3, "built": [], "vp_tokens": 0, "energy": 0}]},
                      "Z-2"),
    "a seat missing from the turn order": (tally(NOTHING, NOTHING, order=[1, 1]), "Z-2"),
    "17 Level III in play": (tally((GRANTS + [301, 302, 303, 304], 0, 0),
                                   ([305, 306, 307, 308], 0, 0), ([309, 310, 311, 312], 0, 0),
                                   ([313], 0, 0)), "Z-2"),
    "17 gizmos with no build granted": (tally((L1[:16], 0, 0), NOTHING), "Z-11"),
    "21 gizmos with every build granted": (tally((GRANTS + L1[:16], 0, 0), NOTHING), "Z-11"),
    "5 Level III with no build granted": (tally(([301, 302, 303, 304, 305], 0, 0), NOTHING),
                                          "Z-11"),
    "spheres over the Storage Limit": (tally(([], 0, 6), NOTHING), "Z-4"),
    "spheres over a raised Storage Limit": (tally(([301, 121], 0, 11), NOTHING), "Z-4"),
    "VP tokens with no gizmo giving any": (tally(([101, 102], 1, 0), NOTHING), "Z-9"),
    "more VP tokens than the gizmos give": (tally(([136, 102], 2, 0), NOTHING), "Z-9"),
    "two Files after the only build": (tally(([309], 2, 0), NOTHING), "Z-9"),
}


@pytest.mark.parametrize("body, rule", IMPOSSIBLE.values(), ids=IMPOSSIBLE)
def test_Z_11_the_score_helper_refuses_impossible_tallies(body, rule):
    with pytest.raises(InvalidInput) as caught:
        GAME.calculate(body)
    assert caught.value.rule == rule and caught.value.code == "invalid_input"
    detail = caught.value.detail
    assert detail[0].isalpha() and "[" not in detail and "'" not in detail, detail


POSSIBLE = {
    "16 gizmos": tally((L1[:15], 0, 0), NOTHING),
    "4 Level III": tally(([301, 302, 303, 304], 0, 0), NOTHING),
    "20 gizmos, every build granted": tally((GRANTS + L1[:15], 0, 0), NOTHING),
    "8 Level III, every build granted": tally((GRANTS + [301, 302, 303, 304], 0, 0),
                                              NOTHING),
    "16 Level III in play": tally((GRANTS + [301, 302, 303, 304], 0, 0),
                                  ([305, 306, 307, 308], 0, 0), ([309, 310, 311, 312], 0, 0)),
    "a full ring at a raised limit": tally(([301, 121], 0, 10), NOTHING),
    "every Increaser's spheres": tally(([121, 122, 123, 124, 201, 202, 301], 0, 17),
                                       ([125, 126, 127, 128, 203, 204, 302], 0, 17)),
    "the most VP tokens": tally(([136, 102, 103], 2, 0), ([309], 0, 0)),
    "a File gizmo's tokens": tally(([309, 101], 2, 0), NOTHING),  # file, build it, file
    "one File after the only build": tally(([309], 1, 0), NOTHING),
    "another seat's starting gizmo id": tally(([902], 0, 0), ([901], 0, 0)),
}


@pytest.mark.parametrize("body", POSSIBLE.values(), ids=POSSIBLE)
def test_Z_11_the_score_helper_scores_extreme_but_possible_tallies(body):
    answer = GAME.calculate(body)
    assert answer["final"] and len(answer["scores"]) == len(body["seats"])


def test_Z_9_an_impossible_tally_over_http_is_invalid_input():
    client = create_app({"TESTING": True}).test_client()
    answer = client.post("/v1/calculate", json=tally(([101], 3, 0), NOTHING))
    assert answer.status_code == 422
    assert answer.json["code"] == "invalid_input" and answer.json["rule"] == "Z-9"
