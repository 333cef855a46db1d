"""The picture (vectron/picture.py): any view drawn as SVG — well-formed, scalable, with a
text version, whose turn it is and what it waits for, the map, gauges, scores, hands and
columns — and never more than the view: the other hands and the deck are counts (V-7.2),
so whatever they hold, a seat's picture is byte for byte the same."""

import random
import re
from functools import partial

from referee.conformance import SVG, picture_tree, random_states
from referee.conformance import svg_group as group
from referee.conformance import svg_texts as texts
from vectron import picture
from vectron.board import FILES, RANKS
from vectron.engine import Vectron, perturb_hidden

GAME = Vectron()
states = partial(random_states, GAME)
drawn = partial(picture_tree, GAME)


def test_a_picture_is_an_svg_with_a_viewbox_a_title_and_a_text_version():
    for state in list(states(3, seed=1))[::15]:
        for seat in (None, 1, 3):
            root = drawn(state, seat)
            assert root.tag == f"{SVG}svg"
            assert re.fullmatch(r"0 0 360 \d+", root.get("viewBox"))
            assert f"version {state['version']}" in root.find(f"{SVG}title").text
            assert f"Deck: {len(state['deck'])}." in root.find(f"{SVG}desc").text
            for chip in ("star1", "star2", "star3", "gate", "swap", "piece", "back"):
                assert root.find(f"{SVG}defs/*[@id='{chip}']") is not None


def test_V_3_1_the_picture_names_whose_turn_it_is_and_what_it_waits_for():
    """V-3.1, V-4.5: draw, place, then move or stop; chance while the table enters the
    layout and cards (tabletop); at the end the highest score (V-6.4)."""
    seen = set()
    for state in states(2, seed=2, mode="tabletop"):
        band = " ".join(texts(group(drawn(state, 1), "to-move")))
        phase = state["phase"]
        if state["to_move"] == ["chance"]:
            assert band.startswith("Chance: ")
        elif state["to_move"]:
            verb = {"draw": "draw a card", "place": "place a card", "move": "move or stop"}
            assert band == f"Seat {state['turn']}: {verb[phase]}"
        else:
            best = max(state["scores"])
            winners = [s for s, score in enumerate(state["scores"], 1) if score == best]
            assert band.startswith("Game over · won by seat") and str(winners[0]) in band
        seen.add(phase)
    assert {"layout", "draw", "place", "move", "over"} <= seen


def test_V_7_2_a_seats_picture_never_depends_on_what_its_view_hides():
    """V-7.2: the other hands and the deck dealt anew give the same bytes, for every
    seat and the public; a seat sees its own hand card by card, the others as a count."""
    rnd, changed = random.Random(7), 0
    for state in list(states(4, seed=3))[::8]:
        for seat in (None, 1, 2, 3, 4):
            other = perturb_hidden(state, seat, rnd)
            changed += other != state
            assert GAME.picture(other, seat) == GAME.picture(state, seat)
        root = drawn(state, 3)
        for n in range(1, 5):
            hand = state["hands"][n - 1]
            block = group(root, f"seat seat{n}")
            backs = [u for u in block.iter(f"{SVG}use") if u.get("class") == "hidden-hand"]
            assert len(backs) == (n != 3)
            cards = [g.get("class").split()[1] for g in block.iter(f"{SVG}g")
                     if (g.get("class") or "").startswith("card ")]
            assert cards == (hand if n == 3 else []) + state["columns"][n - 1]
    assert changed > 20


def test_V_1_2_the_map_shows_every_cell_its_chip_or_piece():
    """V-1.2, V-5.4: each cell's chip by its kind, each piece by its seat, a fallen one
    as fallen; the held chips, gauges and scores beside each seat."""
    played = list(states(3, seed=4))
    state = next((s for s in played if any(s["fallen"])), played[-1])
    assert any(state["fallen"])
    root = drawn(state)
    for rank in RANKS:
        for file in FILES:
            thing = state["grid"][file + rank]
            cell = group(root, f"cell {file}{rank} ")
            assert cell.get("class") == f"cell {file}{rank} {thing}"
            if thing.startswith("seat"):
                seat = int(thing[4:])
                fallen = state["fallen"][seat - 1]
                assert texts(cell) == [str(seat)]
                assert ("fallen" in group(cell, "piece").get("class")) == fallen
            else:
                assert [u.get("href") for u in cell.iter(f"{SVG}use")] == [f"#{thing}"]
    for n in range(1, 4):
        block = group(root, f"seat seat{n}")
        assert f"score {state['scores'][n - 1]}/6" in texts(block)
        held = [u.get("href") for u in block.iter(f"{SVG}use") if u.get("class") == "held"]
        assert held == [f"#{state['held'][n - 1]}"]
        marked = [r for r in block.iter(f"{SVG}rect") if r.get("class") == "gauge marker"]
        assert len(marked) == 1


def test_V_4_5_the_card_the_next_move_uses_is_marked():
    """V-4.5: during the moves the turn seat's column card in use is outlined."""
    state = next(s for s in states(2, seed=5) if s["phase"] == "move")
    block = group(drawn(state, state["turn"]), f"seat seat{state['turn']}")
    current = [g for g in block.iter(f"{SVG}g") if "current" in (g.get("class") or "")]
    assert [g.get("class") for g in current] == \
        [f"card {state['columns'][state['turn'] - 1][state['cursor']]} current"]


def test_the_picture_speaks_japanese_and_is_the_view_drawn():
    state = list(states(2, seed=6))[10]
    root = drawn(state, 2, "ja")
    assert "プレイヤー2の視点" in root.find(f"{SVG}title").text
    assert "山札：" in root.find(f"{SVG}desc").text
    assert GAME.picture(state, 2, "ja") == picture.picture(GAME.view(state, 2), seat=2,
                                                           lang="ja")
