"""T-1.2 the deck, T-1.4 weakness, T-2 spells and fixed-order hands, tenpai (T-6.1)."""

import random

import pytest

from threemagic.cards import (
    COPIES, DECK_SIZE, PATTERNS, WEAK_TO, chi_spell, is_complete, is_spell, is_tenpai,
    pon_spell, winning_insertions,
)

from threemagic_helpers import EXAMPLE


def test_T_1_2_sixty_cards_with_stars_on_three_of_four_of_1_to_4():
    assert DECK_SIZE == 60 and len(COPIES) == 27
    for letter in "RBG":
        assert COPIES[f"{letter}0"] == 4 and f"{letter}0*" not in COPIES
        for n in range(1, 5):
            assert (COPIES[f"{letter}{n}"], COPIES[f"{letter}{n}*"]) == (1, 3)
    assert sum(n for card, n in COPIES.items() if card.endswith("*")) == 36


def test_T_1_4_fire_weak_to_water_weak_to_wood_weak_to_fire():
    assert WEAK_TO == {"fire": "water", "water": "wood", "wood": "fire"}


def test_T_2_1_the_thirteen_patterns_are_spells_in_every_attribute():
    assert len(PATTERNS) == 13
    for letter in "RBG":
        for pattern in PATTERNS:
            assert is_spell([f"{letter}{n}" for n in pattern])
    for text in ("012", "123", "234", "340", "043", "432", "321", "210", "000", "444"):
        assert is_spell([f"B{n}" for n in text])


@pytest.mark.parametrize("numbers", ["132", "401", "104", "024", "420", "013", "112", "310"])
def test_T_2_1_other_readings_are_not_spells(numbers):
    assert not is_spell([f"R{n}" for n in numbers])


def test_T_2_1_one_attribute_and_stars_do_not_matter():
    assert not is_spell(["R1", "R2", "B3"])
    assert is_spell(["G1*", "G2", "G3*"]) and is_spell(["R0", "R0", "R0"])


def test_T_2_2_complete_only_in_the_fixed_order():
    worked = ["R1*", "R2*", "R3*", "B3", "B3*", "B3*", "G0", "G1*", "G2*"]
    assert is_complete(worked)
    # the same nine cards in another order are not complete (no rearranging, T-3.3)
    assert not is_complete(["R1*", "R3*", "R2*", "B3", "B3*", "B3*", "G0", "G1*", "G2*"])
    assert not is_complete(["R1*", "R2*", "B3", "R3*", "B3*", "B3*", "G0", "G1*", "G2*"])
    assert not is_complete(["G0", "G1*", "G2*", "B3", "B3*", "R1*", "R2*", "R3*", "B3*"])
    # with a called spell, the hand's own 6 cards must be 2 spells
    assert is_complete(["R1*", "R2*", "R3*", "G0", "G1*", "G2*"])
    assert not is_complete(["R1*", "R2*", "G0", "R3*", "G1*", "G2*"])


def test_T_4_2_where_the_drawn_card_completes():
    assert winning_insertions(EXAMPLE, "R3*") == [2]
    assert winning_insertions(EXAMPLE, "R0") == [0]  # R0 R1* R2* reads 012
    assert winning_insertions(EXAMPLE, "G4") == []


def test_T_4_2_winning_insertions_are_exactly_the_places_that_complete_the_hand():
    """T-4.2 read once per triple gives what inserting at every place and reading the whole
    hand gives (T-2.2), on hands made of spells with one card taken out (often winning)."""
    rnd, cards, wins = random.Random(42), sorted(COPIES), 0
    spells = [[f"{letter}{n}" for n in numbers] for letter in "RBG" for numbers in PATTERNS]
    for _ in range(3000):
        hand = [c for _ in range(rnd.randint(1, 3)) for c in rnd.choice(spells)]
        if rnd.random() < 0.3:
            hand[rnd.randrange(len(hand))] = rnd.choice(cards)
        card = hand.pop(rnd.randrange(len(hand)))
        if rnd.random() < 0.2:
            card = rnd.choice(cards)
        every_place = [p for p in range(len(hand) + 1)
                       if is_complete(hand[:p] + [card] + hand[p:])]
        assert winning_insertions(hand, card) == every_place, (hand, card)
        wins += bool(every_place)
    assert wins > 1000


def test_T_6_1_tenpai_one_card_short_in_the_fixed_order():
    assert is_tenpai(EXAMPLE)
    assert is_tenpai(["R1", "R1", "R1", "B2", "B4", "B0", "B0", "B0"])  # B2 _ B4 waits on B3
    assert not is_tenpai(["R1", "R3", "R1", "B2", "B4", "B0", "B0", "G0"])
    assert not is_tenpai(["R1", "B1", "R1", "R1", "R1", "R1", "G2", "G3"])  # R1 B1 never a spell
    assert is_tenpai(["G4", "G0"]) and not is_tenpai(["G4", "G1"])  # 2 cards after 2 calls


def test_T_5_3_called_spells_read_in_hand_order_with_the_discard_in_place():
    assert chi_spell("R1", "R2*", "R3") == ["R1", "R2*", "R3"]
    assert chi_spell("R2", "R1", "R3") == ["R3", "R2", "R1"]
    assert chi_spell("B3", "B4", "B0") == ["B3", "B4", "B0"]
    assert chi_spell("G4", "G3", "G0") == ["G0", "G4", "G3"]
    assert chi_spell("R4", "R1", "R0") is None and chi_spell("R1", "R4", "R0") is None
    assert chi_spell("R1", "R3", "R2*") == ["R1", "R2*", "R3"]
    assert chi_spell("R1", "R1", "R1") is None  # same numbers are a pon
    assert pon_spell("B2*", "B2", "B2*") == ["B2*", "B2", "B2*"]
    assert pon_spell("B2*", "G2", "B2*") is None
