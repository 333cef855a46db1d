"""The picture (gematon/picture.py): any view drawn as SVG — well-formed, scalable, with a
text version, whose turn it is, altars, track, boards and scores — and never more than
the view: another seat's hand and the bag are counts (GM-6.2), so whatever they hold, a
seat's picture is byte for byte the same."""

import random
import re
from functools import partial

from gematon import picture
from gematon.engine import Gematon
from gematon.hidden import perturb_hidden
from referee.conformance import SVG, picture_tree, random_states
from referee.conformance import svg_group as group
from referee.conformance import svg_texts as texts

GAME = Gematon()
states = partial(random_states, GAME)
drawn = partial(picture_tree, GAME)


def test_a_picture_is_an_svg_with_a_viewbox_a_title_and_a_text_version():
    for state in list(states(4, seed=1))[::20]:
        for seat in (None, 1, 4):
            root = drawn(state, seat)
            assert root.tag == f"{SVG}svg"
            assert re.fullmatch(r"0 0 360 \d+", root.get("viewBox"))
            assert f"version {state['version']}" in root.find(f"{SVG}title").text
            desc = root.find(f"{SVG}desc").text
            assert f"Bag: {GAME.view(state)['bag']['count']} chips." in desc
            assert root.find(f"{SVG}defs/*[@id='chip']") is not None


def test_GM_3_2_the_picture_names_whose_turn_it_is_and_what_is_left_to_do():
    """GM-3.2: the banner names the seat to move and the steps it still owes (push,
    operate); chance while the bag is drawn from (tabletop); at the end, the winner."""
    seen = set()
    for state in states(3, seed=2, mode="tabletop"):
        root = drawn(state, 1)
        band = " ".join(texts(group(root, "to-move")))
        to_move = state["to_move"]
        if to_move == ["chance"]:
            assert band.startswith("Chance")
            seen.add("chance")
        elif to_move:
            assert band.startswith(f"Seat {to_move[0]} to move")
            left = [step for step, done in (("push", state["turn"]["pushed"]),
                                            ("operate", state["turn"]["operated"])) if not done]
            assert ("still to do: " + " + ".join(left)) in band if left else "turn done" in band
            assert "acting" in group(root, f"seat seat{to_move[0]}").get("class")
            seen.add("turn")
        else:
            scores = GAME.score(state)
            assert band == f"Game over · seat {scores['ranking'][0]['seat']} wins"
            seen.add("over")
    assert seen == {"chance", "turn", "over"}


def test_GM_6_2_a_seats_picture_never_depends_on_what_its_view_hides():
    """GM-6.2: the other hands and the bag dealt anew give the same bytes, for every seat
    and the public; the seat's own hand is drawn chip by chip, the others' as a count."""
    rnd, changed = random.Random(7), 0
    for state in list(states(4, seed=3))[::6]:
        for seat in (None, 1, 2, 3, 4):
            other = perturb_hidden(state, seat, rnd)
            changed += other != state
            assert GAME.picture(other, seat) == GAME.picture(state, seat)
        root = drawn(state, 2)
        for n in range(1, 5):
            backs = [u for u in group(root, f"seat seat{n}").iter(f"{SVG}use")
                     if u.get("class") == "hidden-hand"]
            assert len(backs) == (n != 2)
    assert changed > 20


def test_GM_5_2_boards_show_stacks_hands_gauges_pentacles_and_scores():
    """GM-1.4, GM-1.5, GM-5.2: every chip of a seat's stack, pentacle and (its own) hand
    is drawn with its value, the gauge cell is marked, each set is joined (a scoring one in
    its pattern's colour), and the score is the engine's."""
    final = list(states(3, seed=4))[-1]
    score = {s["seat"]: s for s in GAME.score(final)["scores"]}
    joined = 0
    for seat in (1, 2, 3):
        root = drawn(final, seat)
        board = group(root, f"seat seat{seat}")
        shown = final["seats"][seat - 1]
        chips = [t for t in texts(board) if t.isdigit()]
        for chip in shown["stack"] + shown["hand"] + [v for v in shown["pentacle"] if v]:
            chips.remove(str(chip))
        marked = [r for r in board.iter(f"{SVG}rect") if r.get("class") == "gauge marker"]
        assert len(marked) == 1
        lines = score[seat]["breakdown"]["lines"]
        sets = [p.get("class").split()[1] for p in board.iter(f"{SVG}polygon")]
        assert sorted(sets) == sorted(line["pattern"] for line in lines
                                      if line["pattern"] != "incomplete")
        joined += len([p for p in sets if p != "none"])
        total = score[seat]["total"]
        assert f"{total} pt{'s' if total != 1 else ''}" in texts(board)
    assert joined > 0
    assert f"Game over · seat {GAME.score(final)['ranking'][0]['seat']} wins" in texts(root)


def test_GM_1_3_the_altars_and_the_track_are_drawn():
    """GM-1.3, GM-1.7: the four altars with their two chips each; a pawn per seat on
    the track, its position written beside its lane."""
    played = list(states(2, seed=5))
    state = played[len(played) // 2]
    root = drawn(state)
    for altar, chips in state["altars"].items():
        assert sorted(texts(group(root, f"altar {altar}"))[1:]) == sorted(map(str, chips))
    track = group(root, "track")
    for n, seat in enumerate(state["seats"], 1):
        assert str(seat["position"]) in texts(group(track, f"lane seat{n}"))


def test_the_picture_speaks_japanese_and_is_the_view_drawn():
    played = list(states(2, seed=6))
    state = played[len(played) // 2]
    root = drawn(state, 1, "ja")
    assert "プレイヤー1の視点" in root.find(f"{SVG}title").text
    assert "袋：" in root.find(f"{SVG}desc").text
    assert GAME.picture(state, 1, "ja") == picture.picture(GAME.view(state, 1), seat=1,
                                                           lang="ja")
