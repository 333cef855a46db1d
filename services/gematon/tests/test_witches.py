"""GM-4: the awakening, and the witch hooks that ship without effect."""

from gematon import witches
from gematon.witches import Witch

EXAMPLE = dict(stacks={1: [8, 2]}, hands={1: [4, 7]},
               altars={"w1": [1, 4], "w2": [7, 7], "w3": [2, 8], "black": [4, 5]})


def about_to_set(table, witches_dealt=(3, 5, 1)):
    """Seat 1's round-5 turn; operating w1 with a push first closes two sets at cell 0."""
    state = table.refill(table.setup(players=3, witches=list(witches_dealt), **EXAMPLE), 5)
    return table.at_round(state, 5, {
        1: [None, 1, None, 2, 4, 8, None],
        2: [None, 1, None, 2, 4, 5, None],
        3: [None, 2, None, 1, 4, 5, None]}, {1: 3, 2: 0, 3: 1})


def test_GM_4_1_witches_awaken_at_the_games_first_set_as_an_event(table):
    state = about_to_set(table)
    assert state["awakened"] is False and state["witches"] == [3, 5, 1]
    state = table.move(state, type="push", chip=5)
    state, events = table.play(state, type="operate", altar="w1", take=1, cell=0)
    kinds = [e["type"] for e in events]
    assert kinds.index("sets_formed") < kinds.index("witches_awakened") < kinds.index("blessed")
    assert {"type": "witches_awakened", "seat": 1, "witches": [3, 5, 1]} in events
    assert state["awakened"] is True
    # later sets do not awaken anyone again
    while state["to_move"]:
        moves = table.engine.legal_moves(state)
        state, events = table.engine.apply(state, {k: v for k, v in moves[0].items()
                                                   if k != "p"})
        assert not any(e["type"] == "witches_awakened" for e in events)


def test_GM_4_2_info_and_docs_say_the_witches_have_no_effect(engine):
    note = engine.info()["witches"]
    assert "GM-4.2" in note and "no effect" in note
    assert set(witches.BOARDS) == {1, 2, 3, 4, 5, 6}
    assert all(type(board) is Witch for board in witches.BOARDS.values())


def test_GM_4_2_shipped_witches_change_nothing(table):
    """The same game played with awakened witches and with dormant ones is identical."""
    state = table.move(about_to_set(table), type="push", chip=5)
    awake = table.move(state, type="operate", altar="w1", take=1, cell=0)
    forced = dict(awake, awakened=False)
    for board in witches.BOARDS.values():
        assert board.operation_result(awake, 1, [5, 2], 1) == 1
        assert board.altar_choices(awake, 1, 1, ["w1"]) == ["w1"]
        assert board.placement_cells(awake, 1, [0, 2]) == [0, 2]
        assert board.gauge_advance(awake, 1, 1) == 1
        assert board.blessing_amount(awake, 1, 4) == 4
        assert board.penalty_applies(awake, 1, True) is True
        assert board.end_bonus(awake, 1) == 0
    assert witches.witch_of(forced, 1) is witches.DORMANT
    assert witches.witch_of(awake, 1) is witches.BOARDS[3]


class Loud(Witch):
    """A made-up ability at every hook, to show that the engine consults them."""

    def after_refill(self, state, seat, events):
        events.append({"type": "hook", "at": "after_refill"})

    def before_push(self, state, seat, chip, events):
        events.append({"type": "hook", "at": "before_push", "chip": chip})

    def after_push(self, state, seat, chip, events):
        events.append({"type": "hook", "at": "after_push", "chip": chip})

    def placement_cells(self, state, seat, cells):
        return cells[:1]

    def blessing_amount(self, state, seat, amount):
        return amount + 10

    def end_bonus(self, state, seat):
        return 100


def test_GM_4_2_hooks_act_for_the_awakened_witch_only(table, monkeypatch):
    monkeypatch.setitem(witches.BOARDS, 3, Loud(3))
    state = about_to_set(table)
    # dormant: every empty cell is offered
    assert {m["cell"] for m in table.engine.legal_moves(state)
            if m["type"] == "operate"} == {0, 2, 6}
    state = table.move(state, type="push", chip=5)
    state, events = table.play(state, type="operate", altar="w1", take=1, cell=0)
    # the witch awoke in this turn: its blessing hook already counts (GM-4.1)
    assert state["seats"][0]["position"] == 3 + 4 + 10
    state = table.move(table.refill(state, 1), type="push", chip=1)  # seat 2 (dormant hooks)
    state = table.move(state, type="operate", **_first_operate(table, state))
    state = table.move(table.refill(state, 1), type="push", chip=1)
    state = table.move(state, type="operate", **_first_operate(table, state))
    state, events = table.chance(state, chip=1)  # seat 1 again: its awakened hooks
    assert events[-1] == {"type": "hook", "at": "after_refill"}
    assert len({m["cell"] for m in table.engine.legal_moves(state)
                if m["type"] == "operate"}) == 1
    state, events = table.play(state, type="push", chip=1)
    assert [e.get("at") for e in events[:3]] == ["before_push", None, "after_push"]


def _first_operate(table, state):
    move = next(m for m in table.engine.legal_moves(state) if m["type"] == "operate")
    return {k: move[k] for k in ("altar", "take", "cell")}


def test_GM_4_2_end_scoring_hook_is_in_the_breakdown(table, monkeypatch):
    monkeypatch.setitem(witches.BOARDS, 3, Loud(3))
    state = about_to_set(table)
    while state["to_move"]:
        move = table.engine.legal_moves(state)[0]
        state, _ = table.engine.apply(state, {k: v for k, v in move.items() if k != "p"})
    first = table.engine.score(state)["scores"][0]
    assert first["breakdown"]["witch"] == 100
    assert first["total"] >= 100
