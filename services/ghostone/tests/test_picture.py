"""The picture (ghostone/picture.py): any view drawn as SVG — well-formed, scalable, with a
text version, whose turn it is, the board as the view holds it — and, Ghostone hiding
nothing but a digital game's generator (G-8.2), the same for every generator."""

import json
import random
import re
import xml.etree.ElementTree as ET
from functools import partial

from ghostone import picture
from ghostone.engine import Ghostone
from referee.conformance import SVG, picture_tree, random_states
from referee.rng import Pcg32

GAME = Ghostone()
states = partial(random_states, GAME)
drawn = partial(picture_tree, GAME)


def banner(root) -> str:
    return "".join(root.find(f"{SVG}g[@class='to-move']").itertext())


def test_a_picture_is_an_svg_with_a_viewbox_a_title_and_a_text_version():
    for state in list(states(3, seed=1))[::25]:
        for seat in (None, 1, 2, 3):
            root = drawn(state, seat)
            assert root.tag == f"{SVG}svg"
            assert re.fullmatch(r"0 0 360 \d+", root.get("viewBox"))
            assert root.find(f"{SVG}title").text.startswith("Ghostone")
            assert f"version {state['version']}" in root.find(f"{SVG}title").text
            assert len(root.find(f"{SVG}desc").text.splitlines()) >= 4
            pieces = [use for use in root.iter(f"{SVG}use") if use.get("href") == "#piece"]
            assert pieces, "pieces are drawn by <use> of the one piece in <defs>"
            assert root.find(f"{SVG}defs/*[@id='piece']") is not None


def test_G_3_1_the_picture_names_whose_turn_it_is():
    """G-3.1, G-2.2: the banner names the seat to move (placing, then playing), the die
    roll (G-6.2), or the end with the winners (G-7.3); that seat's score row is marked."""
    seen = set()
    for state in states(4, seed=5, mode="tabletop"):  # the table enters each die roll
        root = drawn(state, 1)
        acting = [g.get("class") for g in root.iter(f"{SVG}g") if "acting" in
                  (g.get("class") or "").split()]
        to_move = state["to_move"]
        if to_move == ["chance"]:
            assert banner(root) == "Die roll for the ghost" and acting == []
            seen.add("chance")
        elif to_move:
            verb = "places a piece" if state["phase"] == "placement" else "to move"
            assert banner(root) == f"Seat {to_move[0]} {verb}"
            assert acting == [f"seat seat{to_move[0]} acting"]
            seen.add(state["phase"])
        else:
            totals = [s["total"] for s in GAME.score(state)["scores"]]
            winners = [str(s) for s, t in enumerate(totals, 1) if t == max(totals)]
            assert banner(root).startswith("Game over · won by seat")
            assert all(w in banner(root) for w in winners)
            seen.add("over")
    assert seen == {"placement", "play", "chance", "over"}


def test_G_8_2_the_picture_is_drawn_from_the_view_alone():
    """G-8.2: nothing is hidden but a digital game's generator: another generator gives
    the same bytes, and the picture is exactly the game's picture of the view."""
    rnd = random.Random(3)
    for state in list(states(3, seed=9))[::10]:
        other = dict(state, rng=Pcg32.from_seed(rnd.getrandbits(64)).to_json())
        for seat in (None, 1, 2, 3):
            assert GAME.picture(other, seat) == GAME.picture(state, seat)
            assert GAME.picture(state, seat) == picture.picture(GAME.view(state, seat),
                                                                seat=seat, lang="en")


def test_G_1_1_the_board_shows_rocks_pieces_flipped_plates_and_the_ghost():
    """G-1.1, G-1.2, G-5, G-6: every plate with its rocks, each seat's pieces by number,
    each flipped plate with the escape it took and its points, the ghost's plate."""
    final = list(states(4, seed=5))[-1]
    assert final["ghost"] and final["flipped"]
    root = drawn(final)
    plates = {g.get("class").split()[1]: g for g in root.iter(f"{SVG}g")
              if (g.get("class") or "").startswith("plate ")}
    assert len(plates) == 16
    for plate, group in plates.items():
        texts = ["".join(t.itertext()) for t in group.iter(f"{SVG}text")]
        rocks = final["rocks"][plate]
        if plate in final["flipped"]:
            assert "flipped" in group.get("class")
            escape = next(e for e in final["escapes"] if e["plate"] == plate)
            assert f"{escape['points']}+{escape['bonus']}" in texts
            assert str(escape["seat"]) in texts
        else:
            assert (f"×{rocks}" in texts) == (rocks > 0)
        owner = [s for s, plates_ in enumerate(final["pieces"], 1) if plate in plates_]
        assert (str(owner[0]) in texts) if owner else True
        ghost = [u for u in group.iter(f"{SVG}use") if u.get("href") == "#ghost"]
        assert len(ghost) == (plate == final["ghost"])


def test_G_7_3_the_scores_are_shown_per_seat():
    """G-7.3: each seat's row holds its pieces left, escapes and score; the winner's has ★."""
    final = list(states(3, seed=2))[-1]
    root = drawn(final)
    score = GAME.score(final)
    for line in score["scores"]:
        row = next(g for g in root.iter(f"{SVG}g")
                   if (g.get("class") or "").startswith(f"seat seat{line['seat']}"))
        texts = ["".join(t.itertext()) for t in row.iter(f"{SVG}text")]
        won = line["seat"] in score["winners"]
        assert texts[-1] == ("★ " if won else "") + str(line["total"])


def test_the_picture_speaks_japanese_when_asked():
    state = list(states(3, seed=4))[12]
    root = drawn(state, 2, "ja")
    assert "プレイヤー2の視点" in root.find(f"{SVG}title").text
    assert "の手番" in banner(root) and "プレイヤー" in root.find(f"{SVG}desc").text
    assert GAME.picture(state, 2, "xx") == GAME.picture(state, 2, "en")  # unknown: English


def test_the_same_view_always_gives_the_same_bytes():
    """Golden files compare bytes: no clock, no randomness, attributes in sorted order."""
    state = list(states(4, seed=6))[20]
    text = GAME.picture(state, 3)
    assert text == GAME.picture(json.loads(json.dumps(state)), 3)
    for element in ET.fromstring(text).iter():
        assert list(element.keys()) == sorted(element.keys())
