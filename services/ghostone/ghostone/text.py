"""Each Ghostone move as a short sentence, in English and in Japanese.

The words are the source's own (駒, 岩, プレート, オバケ, 賽子, 脱出). A text is a pure
function of the move as given: Ghostone hides nothing (G-8.2), so a logged move reads
the same for every seat. Whether a move escapes depends on the position, not on the
move, so the text says where the piece goes, not whether it escapes; the move that
places the ghost is the 3rd escape (G-6.1) and says so.
"""

from referee.engine import canonical, repr_json

from .board import DIRECTION_NAMES, PLATES

SEAT = {"en": "Seat {seat}: ", "ja": "プレイヤー{seat}："}
CHANCE = {"en": "Chance: ", "ja": "賽子："}


def move_text(move: dict, lang: str) -> str:
    kind = move.get("type")
    if kind == "roll":
        return CHANCE[lang] + _roll(move.get("dir"), lang)
    actor = SEAT[lang].format(seat=_word(move.get("seat")))
    if kind == "place":
        return actor + _place(move.get("plate"), move.get("rocks"), lang)
    if kind == "move":
        return actor + _move(move, lang)
    if kind == "pass":
        return actor + {"en": "pass (no piece can move)", "ja": "パス（動かせる駒がない）"}[lang]
    return canonical(move)  # not a Ghostone move (a forged log entry): the move as JSON


def _place(plate, rocks, lang):
    if lang == "ja":
        return f"駒を{_word(plate)}に置き、{'・'.join(map(_word, rocks))}に岩を1個ずつ追加"
    return f"a piece on {_word(plate)}, a rock each on {_listed(rocks)}"


def _move(move, lang):
    origin, dest, rock = _word(move.get("from")), _word(move.get("to")), move.get("rock")
    if lang == "ja":
        text = f"駒を{origin}から{dest}へ移動、"
        text += "岩の移動なし" if rock is None else f"{origin}の岩を1個{_direction(rock, lang)}へ"
        if "ghost" in move:
            text += f"、3体目の脱出でオバケを{_word(move['ghost'])}に置く"
        return text
    text = f"piece {origin} → {dest}, "
    text += "no rock to push" if rock is None else \
        f"a rock of {origin} pushed {_direction(rock, lang)}"
    if "ghost" in move:
        text += f"; the 3rd escape places the ghost on {_word(move['ghost'])}"
    return text


def _roll(face, lang):
    name = _direction(face, lang)
    if lang == "ja":
        return f"{name}の目、オバケは{name}へ向かう"
    return f"the die shows {_word(face)}, the ghost heads {name}"


def _direction(face, lang):
    names = DIRECTION_NAMES.get(face) if isinstance(face, str) else None
    return names[lang] if names else _word(face)


def _word(value) -> str:
    """A plate or a seat as written on the board; anything odd as JSON."""
    if type(value) is int or isinstance(value, str) and (
            value in PLATES or value in DIRECTION_NAMES):
        return str(value)
    return repr_json(value)


def _listed(values) -> str:
    words = [_word(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
