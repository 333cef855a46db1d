"""Ghostone's component catalog: what a client needs to draw and explain the game
without the source: the board and its plates, the pieces, rocks, ghost, die and
directions, named in English and Japanese (the source's words).

Pure data, built from the game's own constants (``board``), never a second copy.
"""

from .board import (
    DIE, DIRECTION_NAMES, ESCAPE_BONUS, FILES, GHOST_ESCAPE, NEIGHBOURS, ORTHOGONAL,
    PIECES_PER_SEAT, PLACEMENT_ORDER, PLATES, RANKS, ROCKS_AFTER_SETUP, STEPS, step, wrap_step,
)


def catalog() -> dict:
    return {
        "game": "ghostone",
        "board": {
            "name": {"en": "board", "ja": "盤面"},
            "files": list(FILES), "ranks": list(RANKS),
            "text": {
                "en": "16 square plates laid 4×4. Plates are named file a–d (west to east) "
                      "and rank 1–4 (south to north); north is the rank 4 edge. Pieces and "
                      "rocks stop at the edges (a rock pushed past one leaves the game); "
                      "the ghost's board wraps around, north to south and east to west.",
                "ja": "正方形のプレート16枚を4×4に並べた盤面。プレートは列a〜d（西→東）と"
                      "行1〜4（南→北）で呼び、行4の辺が北。駒と岩は盤の端で止まる（端から"
                      "外に出した岩はゲームから除かれる）。オバケにとって盤面は南北・東西の"
                      "端がつながって循環している。"},
        },
        "plates": [_plate(p) for p in PLATES],
        "plate_faces": [
            {"id": "face_up", "name": {"en": "face-up plate", "ja": "表のプレート"},
             "text": {"en": "Takes pieces and rocks. A piece moving onto a face-up plate "
                            "without rocks escapes and the plate flips.",
                      "ja": "駒も岩も置ける。岩の乗っていないプレートに駒を移動させると、"
                            "その駒は脱出し、プレートは裏返る。"}},
            {"id": "flipped", "name": {"en": "flipped plate", "ja": "裏返ったプレート"},
             "text": {"en": "Where a piece escaped: never takes a piece or a rock again; "
                            "the ghost jumps over it.",
                      "ja": "駒が脱出したプレート。以降、駒も岩も入れない。オバケは飛ばして"
                            "その先へ移動する。"}},
        ],
        "pieces": {
            "name": {"en": "piece", "ja": "駒"},
            "text": {"en": "Each seat's own pieces, in its colour. A piece moves one plate "
                           "north, east, south or west onto a face-up plate with no piece.",
                     "ja": "各プレイヤーの色の駒。上下左右に隣接する、駒の乗っていない表の"
                           "プレートへ1区画移動する。"},
            "per_seat": [{"players": n, "pieces": each} for n, each in PIECES_PER_SEAT.items()],
        },
        "rocks": {
            "name": {"en": "rock", "ja": "岩"},
            "text": {"en": "One on every plate at the start, three more with each placement. "
                           "After a piece moves, one rock of the plate it left moves one plate "
                           "orthogonally; the rocks there when it moved are the escape's "
                           "points.",
                     "ja": "最初は各プレートに1個、駒を置くたびに周囲へ3個追加。駒が移動した"
                           "ら、元いたプレートの岩を1個上下左右に移動させる。脱出得点は、"
                           "脱出した駒が直前にいたプレートの岩の個数（移動させた岩も数える）。"},
            "at_start_per_plate": 1,
            "after_setup": [{"players": n, "rocks": r} for n, r in ROCKS_AFTER_SETUP.items()],
        },
        "ghost": {
            "name": {"en": "ghost", "ja": "オバケ"},
            "appears_with_escape": GHOST_ESCAPE,
            "text": {"en": "Placed by whoever escapes the game's 3rd piece. Before each turn "
                           "of seat 1 the die is rolled and the ghost moves one plate that way, "
                           "taking a rock from the plate it left. It never affects pieces.",
                     "ja": "3体目の駒を脱出させた人が置く。以降、1番目のプレイヤーの手番の"
                           "直前に賽子を振り、その方角へ1区画移動して元いたプレートの岩を1つ"
                           "取り除く。駒の動きには一切干渉しない。"},
        },
        "die": {
            "name": {"en": "eight-sided die", "ja": "8面体賽子"},
            "faces": list(DIE),
            "text": {"en": "Eight faces, one per direction, each as likely.",
                     "ja": "8方位が各面に示された賽子。どの面も同じ確率で出る。"},
        },
        "directions": [
            {"id": d, "dx": STEPS[d][0], "dy": STEPS[d][1], "orthogonal": d in ORTHOGONAL,
             "name": dict(DIRECTION_NAMES[d])} for d in DIE],
        "setups": [
            {"players": n, "placement_order": list(order), "first_to_play": n}
            for n, order in PLACEMENT_ORDER.items()],
        "escape_bonuses": list(ESCAPE_BONUS),
    }


def _plate(plate: str) -> dict:
    """One plate: its place, neighbours (where a placement's rocks go, G-2.3), the plate
    one step each way for pieces and rocks (null off the board) and for the ghost."""
    return {
        "id": plate, "x": FILES.index(plate[0]), "y": RANKS.index(plate[1]),
        "neighbours": list(NEIGHBOURS[plate]),
        "steps": {d: step(plate, d) for d in ORTHOGONAL},
        "ghost_steps": {d: wrap_step(plate, d) for d in DIE},
    }
