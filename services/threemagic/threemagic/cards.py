"""Mana cards, spells and fixed-order hands (T-1.2, T-2, T-6.1).

A card is written as its colour letter, its number and ``*`` when starred:
``R3*``, ``B0``, ``G4``. Spells ignore stars, so most checks look only at a
card's *face*, its first two characters (``R3``).
"""

from itertools import combinations

ATTRIBUTES = ("fire", "water", "wood")
LETTER = {"fire": "R", "water": "B", "wood": "G"}
#: T-1.4: fire is weak to water, water to wood, wood to fire.
WEAK_TO = {"fire": "water", "water": "wood", "wood": "fire"}


def _copies() -> dict[str, int]:
    """T-1.2: per attribute, four 0s without star; of each 1–4, one plain and three starred."""
    copies = {}
    for letter in "RBG":
        copies[f"{letter}0"] = 4
        for number in range(1, 5):
            copies[f"{letter}{number}"] = 1
            copies[f"{letter}{number}*"] = 3
    return copies


COPIES = _copies()  # card kind -> copies in the deck, in a fixed listing order
DECK_SIZE = sum(COPIES.values())  # 60
HAND_SIZE = 8
MAX_CALLS = 2

SAME_NUMBERS = tuple((n, n, n) for n in range(5))
ASCENDING = ((0, 1, 2), (1, 2, 3), (2, 3, 4), (3, 4, 0))
DESCENDING = tuple(tuple(reversed(p)) for p in ASCENDING)
PATTERNS = SAME_NUMBERS + ASCENDING + DESCENDING  # the 13 patterns of T-2.1

SPELL_FACES = {tuple(f"{letter}{n}" for n in pattern)
               for letter in "RBG" for pattern in PATTERNS}
SEQUENCE_FACES = {faces for faces in SPELL_FACES if faces[0] != faces[1]}
#: ordered face pairs that some spell holds in that order: a hand missing one
#: card of a spell is waiting when its two cards form such a pair (tenpai).
WAITING_PAIRS = {pair for faces in SPELL_FACES for pair in combinations(faces, 2)}


def is_card(value) -> bool:
    """Whether ``value`` is a card's notation (any JSON value may come in)."""
    return isinstance(value, str) and value in COPIES


def face(card: str) -> str:
    return card[:2]


def number(card: str) -> int:
    return int(card[1])


def starred(card: str) -> bool:
    return card.endswith("*")


def is_spell(cards) -> bool:
    """T-2.1: three cards of one attribute reading one of the 13 patterns."""
    return len(cards) == 3 and (cards[0][:2], cards[1][:2], cards[2][:2]) in SPELL_FACES


def is_complete(hand: list[str]) -> bool:
    """T-2.2: the hand, in its fixed order, is consecutive spells."""
    return len(hand) % 3 == 0 and all(is_spell(hand[i:i + 3]) for i in range(0, len(hand), 3))


def winning_insertions(hand: list[str], card: str) -> list[int]:
    """Where ``card`` may be inserted to complete ``hand`` (T-4.2, T-5.1 ron)."""
    if len(hand) % 3 != 2:
        return []
    return [p for p in range(len(hand) + 1) if is_complete(hand[:p] + [card] + hand[p:])]


def is_tenpai(hand: list[str]) -> bool:
    """T-6.1: some card inserted somewhere completes the hand.

    The inserted card lands in one triple ``t``: the triples before it keep
    their places, those after it shift by one, and the two cards left in ``t``
    must be an ordered pair some spell holds (referee decision: whether a
    copy of the missing card is still unseen does not matter).
    """
    size = len(hand)
    if size % 3 != 2:
        return False
    faces = [card[:2] for card in hand]
    for t in range(size // 3 + 1):
        start = 3 * t
        if t and (faces[start - 3], faces[start - 2], faces[start - 1]) not in SPELL_FACES:
            return False  # a broken prefix stays broken for every later t
        if (faces[start], faces[start + 1]) in WAITING_PAIRS and all(
                (faces[i], faces[i + 1], faces[i + 2]) in SPELL_FACES
                for i in range(start + 2, size, 3)):
            return True
    return False


def chi_spell(first: str, second: str, discard: str) -> list[str] | None:
    """T-5.3: the sequence spell two hand cards (in hand order) make with a discard.

    The discard takes its place in the pattern; at most one place fits, since a
    set of three numbers reads as a spell only forwards or only backwards.
    """
    for spell in ([discard, first, second], [first, discard, second], [first, second, discard]):
        if tuple(face(c) for c in spell) in SEQUENCE_FACES:
            return spell
    return None


def pon_spell(first: str, second: str, discard: str) -> list[str] | None:
    """T-5.3 for a same-number spell: the discard is laid after the two hand cards."""
    if face(first) == face(second) == face(discard):
        return [first, second, discard]
    return None


def call_cost(calls_made: int, own_attribute: bool) -> int:
    """T-5.4: 10 / 30 for a 1st call of one's own attribute / another; 30 / 90 for a 2nd."""
    return (10, 30)[calls_made] if own_attribute else (30, 90)[calls_made]


def counts(cards) -> dict[str, int]:
    found: dict[str, int] = {}
    for card in cards:
        found[card] = found.get(card, 0) + 1
    return found
