"""Vectron's components and the geometry of its virtual 4×4 grid (V-1, V-4).

Nothing here knows about turns: these are the pieces of the game and the
arithmetic of the wall kick, kept apart so they can be read (and tested) alone.
"""

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # V-1.1

FILES, RANKS = "abcd", "1234"
CELLS = [f + r for r in RANKS for f in FILES]
SIZE = 4

# V-1.3: map chips. A seat holds a star chip or a gate; swap chips never leave the map.
STAR_CHIPS = ("star1", "star2", "star3")
GATE, SWAP = "gate", "swap"
CHIPS = (*STAR_CHIPS, GATE, SWAP)
HOLDABLE = (*STAR_CHIPS, GATE)
STARS = {"star1": 1, "star2": 2, "star3": 3, GATE: 0}
START_CHIP = "star2"  # V-2.1
MAP_CHIP_COUNT, SWAP_CHIP_COUNT = 16, 2
DEFAULT_MAP_CHIPS = {"star1": 4, "star2": 4, "star3": 4, GATE: 2, SWAP: 2}

# V-1.4: action cards. O = orthogonal, D = diagonal, the digit its distance; S = swap.
SWAP_CARD = "S"
CARDS = ("O1", "O2", "O3", "D1", "D2", "D3", SWAP_CARD)
CARD_COUNT = 24
DEFAULT_ACTION_CARDS = {"O1": 3, "O2": 3, "O3": 3, "D1": 3, "D2": 3, "D3": 3, SWAP_CARD: 6}
HAND_SIZE = 2  # V-2.3, V-6.3

GAUGE_LIMIT = 7  # V-4.6, V-6.1: a gauge this high ends the turn and is settled
WINNING_SCORE = 6  # V-6.4

# The components' names, in English and in the manual's Japanese (the text of moves and
# the catalog both read them here).
CHIP_NAMES = {
    "star1": {"en": "1-star chip", "ja": "星1つのスターチップ"},
    "star2": {"en": "2-star chip", "ja": "星2つのスターチップ"},
    "star3": {"en": "3-star chip", "ja": "星3つのスターチップ"},
    GATE: {"en": "gate chip", "ja": "ゲートチップ"},
    SWAP: {"en": "swap chip", "ja": "スワップチップ"},
}
CARD_NAMES = {
    "O1": {"en": "orthogonal 1", "ja": "縦横1"}, "O2": {"en": "orthogonal 2", "ja": "縦横2"},
    "O3": {"en": "orthogonal 3", "ja": "縦横3"}, "D1": {"en": "diagonal 1", "ja": "斜め1"},
    "D2": {"en": "diagonal 2", "ja": "斜め2"}, "D3": {"en": "diagonal 3", "ja": "斜め3"},
    SWAP_CARD: {"en": "swap", "ja": "スワップ"},
}

DIRECTIONS = {
    "O": ((0, 1), (1, 0), (0, -1), (-1, 0)),
    "D": ((1, 1), (1, -1), (-1, -1), (-1, 1)),
}


def piece(seat: int) -> str:
    """How a seat's piece (or its placeholder in the layout, V-2.2) is written on the grid."""
    return f"seat{seat}"


def xy(cell: str) -> tuple[int, int]:
    return FILES.index(cell[0]), RANKS.index(cell[1])


def cell(x: int, y: int) -> str:
    return FILES[x] + RANKS[y]


def fold(p: int) -> int:
    """V-4.3: a coordinate reflected at both walls of a 4-cell axis, the bounce costing no step.

    Reflection makes the axis periodic with period 6 (0 1 2 3 2 1 | 0 1 …).
    """
    q = p % 6
    return q if q <= 3 else 6 - q


def kick(start: str, dx: int, dy: int, distance: int) -> str:
    """Where a jump of ``distance`` steps along (dx, dy) lands, walls kicking it back."""
    x, y = xy(start)
    return cell(fold(x + dx * distance), fold(y + dy * distance))


def destinations(start: str, card: str) -> list[str]:
    """The distinct cells an O/D card reaches from ``start`` (V-4.2, V-4.3), sorted."""
    kind, distance = card[0], int(card[1])
    return sorted({kick(start, dx, dy, distance) for dx, dy in DIRECTIONS[kind]})
