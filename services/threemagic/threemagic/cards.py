"""Mana cards, spells and fixed-order hands (T-1.2, T-2, T-6.1).

A card is written as its colour letter, its number and ``*`` when starred:
``R3*``, ``B0``, ``G4``. Spells ignore stars, so most checks look only at a
card's *face*, its first two characters (``R3``).
"""

from collections import Counter
from functools import cache
from itertools import combinations

ATTRIBUTES = ("fire", "water", "wood")
LETTER = {"fire": "R", "water": "B", "wood": "G"}
#: T-1.4: fire is weak to water, water to wood, wood to fire.
WEAK_TO = {"fire": "water", "water": "wood", "wood": "fire"}
#: the attributes' names, as the designers write them (火・水・木)
ATTRIBUTE_NAMES = {"fire": {"en": "fire", "ja": "火"}, "water": {"en": "water", "ja": "水"},
                   "wood": {"en": "wood", "ja": "木"}}


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
FACE_COPIES = {f"{letter}{n}": 4 for letter in "RBG" for n in range(5)}  # stars aside
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


#: each spell as the multiset of its faces (sorted): what a hand must hold, in some order
SPELL_SETS = sorted({tuple(sorted(faces)) for faces in SPELL_FACES})
SEQUENCE_SETS = [faces for faces in SPELL_SETS if faces[0] != faces[1]]


def is_card(value) -> bool:
    """Whether ``value`` is a card's notation (any JSON value may come in)."""
    return isinstance(value, str) and value in COPIES


def card_name(card: str, lang: str) -> str:
    """A card as a person names it: ``fire 3★`` (en), ``火3★`` (ja)."""
    attribute = next(a for a, letter in LETTER.items() if letter == card[0])
    gap = " " if lang == "en" else ""
    return f"{ATTRIBUTE_NAMES[attribute][lang]}{gap}{card[1]}{'★' if starred(card) else ''}"


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
    """Where ``card`` may be inserted to complete ``hand`` (T-4.2, T-5.1 ron).

    Inserted at ``p``, the card lands in triple ``p // 3``: the triples before it
    keep their places and those after it shift by one, so each triple of the hand
    is read once, not once per place (the same reading as :func:`is_tenpai`).
    """
    size = len(hand)
    if size % 3 != 2:
        return []
    faces, wanted, triples = [c[:2] for c in hand], card[:2], (size + 1) // 3
    shifted_ok = [True] * triples  # [t]: every triple after t, shifted by one, is a spell
    for t in range(triples - 2, -1, -1):
        s = 3 * t + 2
        shifted_ok[t] = shifted_ok[t + 1] and (faces[s], faces[s + 1], faces[s + 2]) in SPELL_FACES
    found = []
    for t in range(triples):
        start = 3 * t
        if t and (faces[start - 3], faces[start - 2], faces[start - 1]) not in SPELL_FACES:
            break  # a broken prefix stays broken for every later triple
        if shifted_ok[t]:
            first, second = faces[start], faces[start + 1]
            found += [start + offset for offset, triple in enumerate(
                ((wanted, first, second), (first, wanted, second), (first, second, wanted)))
                if triple in SPELL_FACES]
    return found


def is_tenpai(hand: list[str]) -> bool:
    """T-6.1: some card inserted somewhere completes the hand.

    The inserted card lands in one triple ``t``: the triples before it keep
    their places, those after it shift by one, and the two cards left in ``t``
    must be an ordered pair some spell holds (referee decision: whether a
    copy of the missing card is still unseen does not matter).
    """
    return faces_tenpai([card[:2] for card in hand])


def faces_tenpai(faces) -> bool:
    """:func:`is_tenpai` of a hand given as its faces (``R3``), in order."""
    size = len(faces)
    if size % 3 != 2:
        return False
    for t in range(size // 3 + 1):
        start = 3 * t
        if t and (faces[start - 3], faces[start - 2], faces[start - 1]) not in SPELL_FACES:
            return False  # a broken prefix stays broken for every later t
        if (faces[start], faces[start + 1]) in WAITING_PAIRS and all(
                (faces[i], faces[i + 1], faces[i + 2]) in SPELL_FACES
                for i in range(start + 2, size, 3)):
            return True
    return False


def is_canonical_discard(insert: int, remove: int) -> bool:
    """Whether ``(insert, remove)`` is the one spelling of its discard (T-4.3).

    Spellings that do the same to every hand are one move: any ``insert ==
    remove`` drops the drawn card (spelled ``0, 0``), and inserting at ``i``
    then removing ``i + 1`` leaves the hand that inserting at ``i + 1`` and
    removing ``i`` does (the drawn card takes card ``i``'s place; spelled
    ``i + 1, i``, where ``remove`` is that card's own position).
    """
    if insert == remove:
        return insert == 0
    return remove != insert + 1


@cache
def discard_spellings(size: int) -> tuple[tuple[int, int], ...]:
    """Every distinct discard of a ``size``-card hand and a drawn card, once:
    ``(insert, remove)`` with ``insert`` 0…size and ``remove`` indexing the
    hand with the drawn card inserted — ``1 + size²`` of them."""
    return tuple((i, j) for i in range(size + 1) for j in range(size + 1)
                 if is_canonical_discard(i, j))


def could_ron(available: dict[str, int], hand_size: int, wanted: str) -> bool:
    """Whether some hand of ``hand_size`` cards taken from ``available`` (face → copies)
    would be completed by a card of face ``wanted`` (T-5.1 ron, T-2.2).

    The hand's order is free here (whoever asks does not know it): this is
    whether ``available`` holds the rest of a spell with ``wanted`` in it and
    the hand's other spells.
    """
    if hand_size % 3 != 2:
        return False
    for spell in SPELL_SETS:
        if wanted in spell:
            rest = list(spell)
            rest.remove(wanted)
            left = _without(available, rest)
            if left is not None and _holds_spells(left, hand_size // 3, 0):
                return True
    return False


def _without(available: dict[str, int], faces) -> dict[str, int] | None:
    """``available`` less ``faces``, or None if it does not hold them all."""
    left = dict(available)
    for f in faces:
        if left.get(f, 0) == 0:
            return None
        left[f] -= 1
    return left


def _holds_spells(available: dict[str, int], spells: int, first: int) -> bool:
    """Whether ``available`` holds ``spells`` more spells (from SPELL_SETS[first:] on,
    so each multiset of spells is tried once)."""
    if spells == 0:
        return True
    for index in range(first, len(SPELL_SETS)):
        left = _without(available, SPELL_SETS[index])
        if left is not None and _holds_spells(left, spells - 1, index):
            return True
    return False


def could_pon(available: dict[str, int], wanted: str) -> bool:
    """Whether two cards of face ``wanted`` are among ``available`` (T-5.1 pon)."""
    return available.get(wanted, 0) >= 2


def could_chi(available: dict[str, int], wanted: str) -> bool:
    """Whether ``available`` holds the two other cards of a sequence spell with ``wanted``."""
    return any(wanted in faces and _without(available, [f for f in faces if f != wanted])
               is not None for faces in SEQUENCE_SETS)


def chi_spell(first: str, second: str, discard: str) -> list[str] | None:
    """T-5.3: the sequence spell two hand cards (in hand order) make with a discard.

    The discard takes its place in the pattern; at most one place fits, since a
    set of three numbers reads as a spell only forwards or only backwards.
    """
    a, b, d = first[:2], second[:2], discard[:2]
    for spell, faces in (([discard, first, second], (d, a, b)),
                         ([first, discard, second], (a, d, b)),
                         ([first, second, discard], (a, b, d))):
        if faces in SEQUENCE_FACES:
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
    return Counter(cards)
