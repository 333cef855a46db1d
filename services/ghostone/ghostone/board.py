"""Ghostone's components and geometry: the plates, the directions, the counts of G-1/G-2,
and what they bound (the points an escape can score). The engine and the score
helper share them. Rule ids are those of ``services/ghostone/RULES.md`` (G-…).
"""

FILES, RANKS = "abcd", "1234"
PLATES = [f + r for r in RANKS for f in FILES]
STEPS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
         "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}
ORTHOGONAL = ("N", "E", "S", "W")
#: each direction's name, as the source names the die's faces (8 方位)
DIRECTION_NAMES = {
    "N": {"en": "north", "ja": "北"}, "NE": {"en": "north-east", "ja": "北東"},
    "E": {"en": "east", "ja": "東"}, "SE": {"en": "south-east", "ja": "南東"},
    "S": {"en": "south", "ja": "南"}, "SW": {"en": "south-west", "ja": "南西"},
    "W": {"en": "west", "ja": "西"}, "NW": {"en": "north-west", "ja": "北西"},
}
DIE = tuple(STEPS)  # the eight faces, uniform (G-1.5)
PLACEMENT_ORDER = {3: [1, 2, 3, 2, 3, 1, 3, 1, 2], 4: [1, 2, 3, 4, 4, 3, 2, 1]}
PIECES_PER_SEAT = {3: 3, 4: 2}
ESCAPE_BONUS = (3, 2, 1)  # G-5.3
GHOST_ESCAPE = 3  # G-6.1: the game's 3rd escape brings the ghost
# G-2.4: every plate's rock plus three per placement; no rock is added later (G-1.4)
ROCKS_AFTER_SETUP = {n: 16 + 3 * len(order) for n, order in PLACEMENT_ORDER.items()}
# G-7.1: the game ends once the pieces left are one seat's, so one piece always stays
MOST_ESCAPES = {n: n * PIECES_PER_SEAT[n] - 1 for n in PIECES_PER_SEAT}


def _xy(plate: str) -> tuple[int, int]:
    return FILES.index(plate[0]), RANKS.index(plate[1])


def _plate(x: int, y: int) -> str:
    return FILES[x] + RANKS[y]


def _step(plate: str, direction: str) -> str | None:
    x, y = _xy(plate)
    dx, dy = STEPS[direction]
    if 0 <= x + dx < 4 and 0 <= y + dy < 4:
        return _plate(x + dx, y + dy)
    return None


_STEP_TABLE = {(p, d): _step(p, d) for p in PLATES for d in STEPS}


def step(plate: str, direction: str) -> str | None:
    """The neighbouring plate, or None off the board (no wrap: pieces and rocks)."""
    return _STEP_TABLE[plate, direction]


def wrap_step(plate: str, direction: str) -> str:
    """The neighbouring plate on the torus the ghost walks (G-6.3)."""
    x, y = _xy(plate)
    dx, dy = STEPS[direction]
    return _plate((x + dx) % 4, (y + dy) % 4)


NEIGHBOURS = {p: sorted(q for d in STEPS if (q := step(p, d))) for p in PLATES}


def escape_bonus(number: int) -> int:
    """G-5.3: the bonus of the game's ``number``-th escape (1 = first)."""
    return ESCAPE_BONUS[number - 1] if number <= len(ESCAPE_BONUS) else 0


def escape_points_range(players: int, number: int) -> tuple[int, int]:
    """The points the game's ``number``-th escape (1 = first) can score (G-5.2).

    Rocks never come back once the placement is done (G-1.4, G-2.4). Until the
    ghost comes (it is placed after the 3rd escape, G-6.1) nothing takes a rock
    from under a standing piece, and a piece only ever steps onto a plate
    holding rocks (else it escapes, G-5.1): so each of the first three escapes
    scores at least 1, and every other piece still on the board stands on its
    own plate with a rock of its own, which the escaping piece's origin cannot
    hold. Later the ghost may have taken any rock (G-6.2): from 0 up to every
    rock of the setup.
    """
    rocks = ROCKS_AFTER_SETUP[players]
    if number > GHOST_ESCAPE:
        return 0, rocks
    others = players * PIECES_PER_SEAT[players] - number
    return 1, rocks - others
