"""The picture (gizmos/picture.py): any view drawn as SVG — well-formed, scalable, with a
text version, whose turn it is, every card with its level, colour, cost, points and
effect in short, rings and scores — and never more than the view: decks and another
seat's Research are counts (Z-12), so whatever they hold, a seat's picture is the same."""

import random
import re
from functools import partial

import pytest
from gizmos import picture
from gizmos.cards import CARDS
from gizmos.engine import Gizmos, perturb_hidden
from referee.conformance import SVG, picture_tree, random_states
from referee.conformance import svg_group as group
from referee.conformance import svg_texts as texts

GAME = Gizmos()
states = partial(random_states, GAME)
drawn = partial(picture_tree, GAME)


def cards_in(node) -> list[int]:
    return [int(g.get("class").split()[1][1:]) for g in node.iter(f"{SVG}g")
            if (g.get("class") or "").startswith("card ")]


def test_a_picture_is_an_svg_with_a_viewbox_a_title_and_a_text_version():
    for state in list(states(3, seed=1))[::60]:
        for seat in (None, 2):
            root = drawn(state, seat)
            assert root.tag == f"{SVG}svg"
            assert re.fullmatch(r"0 0 360 \d+", root.get("viewBox"))
            assert f"version {state['version']}" in root.find(f"{SVG}title").text
            assert "Energy Row: " in root.find(f"{SVG}desc").text
            for sphere in ("black", "blue", "red", "yellow", "multi", "back"):
                assert root.find(f"{SVG}defs/*[@id='{sphere}']") is not None


def test_Z_3_the_picture_names_whose_turn_it_is_and_what_it_waits_for():
    """Z-3: the banner names the seat and its phase (an action, a Research's choice, the
    cards going back, the gizmos to use); chance in a tabletop game; the end (Z-11)."""
    seen = set()
    for state in list(states(2, seed=2, mode="tabletop"))[:400]:
        band = texts(group(drawn(state, 1), "to-move"))[0]
        if state["to_move"] == ["chance"]:
            assert band == "Chance: a card or a sphere"
            seen.add("chance")
        else:
            assert band.startswith(f"Seat {state['turn']}: ")
            seen.add(state["phase"])
    assert {"chance", "main", "research", "actions"} <= seen
    final = list(states(2, seed=3))[-1]
    assert texts(group(drawn(final), "to-move"))[0] == "Game over"


def test_Z_12_a_seats_picture_never_depends_on_what_its_view_hides():
    """Z-12: the decks' order and another seat's Research draw shuffled anew give the same
    bytes; the researcher sees its drawn cards, the others only how many."""
    rnd, changed, researches = random.Random(7), 0, 0
    for state in list(states(3, seed=4))[::9]:
        for seat in (None, 1, 2, 3):
            other = perturb_hidden(state, seat, rnd)
            changed += other != state
            assert GAME.picture(other, seat) == GAME.picture(state, seat)
        research = state["research"]
        if research and state["phase"] == "research":
            researches += 1
            for seat in (None, 1, 2, 3):
                shown = cards_in(group(drawn(state, seat), "research"))
                assert shown == (research["cards"] if seat == state["turn"] else [])
    assert changed > 20 and researches > 0


def test_Z_1_every_card_shows_level_cost_points_and_its_effect_in_short():
    """Z-1, Z-15: each displayed card is drawn with its level, a sphere of its cost colour
    holding the cost, its points, and an effect line; every card has a short effect in
    English and Japanese."""
    state = list(states(4, seed=5))[40]
    root = drawn(state)
    roman = {0: "S", 1: "I", 2: "II", 3: "III"}
    for ids in state["display"].values():
        for card_id in ids:
            card = CARDS[card_id]
            tile = group(root, f"card c{card_id} ")
            words = texts(tile)
            assert words[0] == roman[card["level"]] and words[1] == str(card["cost"])
            assert words[2] == f"{card['points']} VP"
            assert " ".join(words[3:]) == picture.effect_text(card_id, "en")
            cost = [u.get("href") for u in tile.iter(f"{SVG}use")]
            assert cost == [f"#{card['cost_color']}"]
    for card_id in CARDS:
        for lang in ("en", "ja"):
            assert 0 < len(picture.effect_text(card_id, lang)) <= 40


@pytest.mark.parametrize("card_id, en, ja", [
    (101, "yellow → any", "黄→任意"),
    (213, "blue → any ×2", "青→任意×2"),
    (217, "yellow → 2 yellow", "黄→黄2"),
    (209, "Pick yellow/red → draw 1", "黄/赤取り出し→1個引く"),
    (205, "Build from Archive → pick 2", "アーカイブから設置→取り出し2"),
    (313, "Build Level II → pick 2", "レベル2設置→取り出し2"),
    (319, "Build yellow/red → free Level I build", "黄/赤設置→レベル1無料設置"),
    (201, "Storage +2, File +1, Research +2", "貯留+2、ファイル+1、開発+2"),
    (321, "No Research", "開発不可"),
    (333, "VP = spheres in ring", "得点=リングの球数"),
    (901, "File → draw 1", "ファイリング→1個引く"),
])
def test_Z_9_an_effect_in_short_reads_what_the_card_does(card_id, en, ja):
    """Z-5, Z-6, Z-8, Z-9: converters, upgrades and triggers in a few words."""
    assert picture.effect_text(card_id, "en") == en
    assert picture.effect_text(card_id, "ja") == ja


def test_Z_11_each_seat_shows_its_ring_limits_gizmos_archive_and_score():
    """Z-4, Z-11: a sphere per energy in the ring, the limits after the Increasers, the
    built gizmos and the Archive card by card, and the engine's score."""
    final = list(states(3, seed=6))[-1]
    score = {s["seat"]: s["total"] for s in GAME.score(final)["scores"]}
    root = drawn(final)
    for n, me in enumerate(final["seats"], 1):
        block = group(root, f"seat seat{n}")
        spheres = sorted(u.get("href")[1:] for u in block.iter(f"{SVG}use")
                         if (u.get("class") or "").startswith("sphere"))
        assert spheres == sorted(c for c, k in me["ring"].items() for _ in range(k))
        assert sorted(cards_in(block)) == sorted(me["built"] + me["archive"])
        assert f"{score[n]} VP" in texts(block)


def test_the_picture_speaks_japanese_and_is_the_view_drawn():
    state = list(states(2, seed=7))[30]
    root = drawn(state, 1, "ja")
    assert "プレイヤー1の視点" in root.find(f"{SVG}title").text
    assert "エネルギー列" in root.find(f"{SVG}desc").text
    assert GAME.picture(state, 1, "ja") == picture.picture(GAME.view(state, 1), seat=1,
                                                           lang="ja")
