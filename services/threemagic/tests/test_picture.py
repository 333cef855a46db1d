"""The picture (threemagic/picture.py): any view drawn as SVG — well-formed, scalable,
with a text version, whose turn it is, the field, pool, indicators, piles, each seat's od,
hand, called spells and discards — and never more than the view: the other hands, a card
another seat drew and the piles are counts (T-10.2), so a seat's picture stays the same
whatever they hold."""

import random
import re
import xml.etree.ElementTree as ET
from functools import partial

from referee.conformance import SVG, picture_tree, random_states
from referee.conformance import svg_group as group
from referee.conformance import svg_texts as texts
from threemagic import picture
from threemagic.engine import ThreeMagic, perturb_hidden

GAME = ThreeMagic()
states = partial(random_states, GAME, 3)
drawn = partial(picture_tree, GAME)


def faces(node) -> list[str]:
    """The cards drawn face up in ``node``, as notation (R3*, B0…)."""
    letters = {"fire": "R", "water": "B", "wood": "G"}
    found = []
    for card in node.iter(f"{SVG}g"):
        kind = (card.get("class") or "").split()
        if kind[:1] == ["card"]:
            found.append(letters[kind[1]] + texts(card)[1] + ("*" if "starred" in kind else ""))
    return found


def test_a_picture_is_an_svg_with_a_viewbox_a_title_and_a_text_version():
    for state in list(states(seed=1))[::40]:
        for seat in (None, 1, 3):
            root = drawn(state, seat)
            assert root.tag == f"{SVG}svg"
            assert re.fullmatch(r"0 0 360 \d+", root.get("viewBox"))
            assert f"version {state['version']}" in root.find(f"{SVG}title").text
            assert f"Field {state['field']} od" in root.find(f"{SVG}desc").text
            assert root.find(f"{SVG}defs/*[@id='back']") is not None


def test_T_3_2_the_picture_names_whose_turn_it_is():
    """T-3.2, T-4, T-5.1: the seat to draw, to discard or tsumo, the seats a call window
    waits for, chance in a tabletop game, and at the end the highest od (T-9.2)."""
    seen = set()
    for state in list(states(seed=2, mode="tabletop"))[:300]:
        band = texts(group(drawn(state, 1), "to-move"))[0]
        to_move, phase = state["to_move"], state["phase"]
        if to_move == ["chance"]:
            assert band.startswith("Chance: ")
        elif phase == "calls":
            assert band.startswith("Call: seat")
            assert all(str(s) in band for s in to_move)
        else:
            assert band.startswith(f"Seat {state['turn']}: ")
        seen.add(phase)
    assert {"deal", "draw", "turn", "calls"} <= seen
    final = list(states(seed=3))[-1]
    best = max(final["od"])
    winner = final["od"].index(best) + 1
    assert texts(group(drawn(final), "to-move"))[0].startswith("Game over · won by seat")
    assert str(winner) in texts(group(drawn(final), "to-move"))[0]


def test_T_10_2_a_seats_picture_never_depends_on_what_its_view_hides():
    """T-10.2: the other hands, their drawn card and the unseen cards dealt anew give the
    same bytes; a seat sees its own hand card by card, the others' as a count."""
    rnd, changed = random.Random(7), 0
    for state in list(states(seed=4))[::12]:
        for seat in (None, 1, 2, 3):
            other = perturb_hidden(state, seat, rnd)
            changed += other != state
            assert GAME.picture(other, seat) == GAME.picture(state, seat)
        root = drawn(state, 2)
        for n in (1, 2, 3):
            panel = group(root, f"seat seat{n}")
            backs = [u for u in panel.iter(f"{SVG}use") if u.get("class") == "hidden-hand"]
            hand = state["hands"][n - 1]
            assert len(backs) == (n != 2 and len(hand) > 0)
            shown = hand if n == 2 else []
            called = [card for spell in state["called"][n - 1] for card in spell]
            assert faces(panel) == shown + called + state["discards"][n - 1]
    assert changed > 10


def test_T_6_2_the_table_shows_field_pool_indicators_piles_and_the_card_in_play():
    """T-6.2, T-7.4, T-5.1: field and pool od, every indicator turned, the piles' counts,
    and the discard a call window is about."""
    state = next(s for s in states(seed=5) if s["phase"] == "calls")
    table = group(drawn(state), "table")
    words = texts(table)
    assert f"Field {state['field']}" in words and f"Pool {state['pool']}" in words
    assert f"×{state['unused']}" in words and f"×{state['draw_pile']}" in words
    assert faces(table) == state["indicators"] + [state["window"]["card"]]


def test_T_9_2_each_seat_shows_its_od_attribute_and_roles():
    """T-1.1, T-1.3, T-3.1, T-6: od, attribute, manager and riichi by each seat (a view
    with seat 2 in riichi: random play seldom declares it)."""
    state = GAME.view(list(states(seed=6))[50])
    state["riichi"][1] = True
    root = ET.fromstring(picture.picture(state, seat=None, lang="en"))
    for n in (1, 2, 3):
        panel = group(root, f"seat seat{n}")
        assert f"{state['od'][n - 1]} od" in texts(panel)
        tags = texts(panel)[1].split(" · ")  # after the seat, before its od
        assert tags[0] == state["options"]["attributes"][n - 1]
        assert ("manager" in tags) == (state["manager"] == n)
        assert ("riichi" in tags) == state["riichi"][n - 1]


def test_the_picture_speaks_japanese_and_is_the_view_drawn():
    state = list(states(seed=7))[40]
    root = drawn(state, 3, "ja")
    assert "プレイヤー3の視点" in root.find(f"{SVG}title").text
    assert "霊脈" in root.find(f"{SVG}desc").text
    assert GAME.picture(state, 3, "ja") == picture.picture(GAME.view(state, 3), seat=3,
                                                           lang="ja")
