"""Each Vectron move as a short sentence, in English and in Japanese.

The words are the manual's own (山札, 手札, アクション列, 駒, マップ, スターチップ,
ゲートチップ, スワップチップ, 追加移動, 手番). A text is a pure function of the move as
given: a logged ``card`` move has lost its card (V-7.2) and reads as a hidden card, the
same for every card. A ``move`` names its destination only: the card it uses is the next
one down the column, which the position knows and the move does not.
"""

import re

from referee.engine import canonical, repr_json

from .board import CARD_NAMES, CELLS, CHIP_NAMES, GATE, SWAP

SEAT = {"en": "Seat {seat}: ", "ja": "プレイヤー{seat}："}
CHANCE = {"card": {"en": "Chance: ", "ja": "山札："},
          "layout": {"en": "Chance: ", "ja": "マップ："}}
# the layout's groups, in the order they are read: what matters most first
LAYOUT_ORDER = (GATE, SWAP, "star3", "star2", "star1")
MAP_ORDER = {cell: i for i, cell in enumerate(CELLS)}  # a1, b1, … d4, as the grid reads
PIECE = re.compile(r"seat[1-9][0-9]*")  # a seat's piece on the grid (decision 5)


def move_text(move: dict, lang: str) -> str:
    kind, seat = move.get("type"), move.get("seat")
    if kind in CHANCE and seat == "chance":
        reading = _card(move, lang) if kind == "card" else _layout(move.get("cells"), lang)
        return CHANCE[kind][lang] + reading
    actor = SEAT[lang].format(seat=_word(seat))
    if kind == "draw":
        return actor + _draw(seat, move.get("source"), lang)
    if kind == "place":
        card = _card_name(move.get("card"), lang)
        return actor + {"en": f"place {card} on top of the own action column",
                        "ja": f"{card}を自分のアクション列の一番上に出す"}[lang]
    if kind == "move":
        to = _word(move.get("to"))
        return actor + {"en": f"move the piece to {to}", "ja": f"駒を{to}へ移動"}[lang]
    if kind == "stop":
        return actor + {"en": "end the turn (no more additional moves)",
                        "ja": "追加移動をせず手番を終える"}[lang]
    return canonical(move)  # not a Vectron move (a forged log entry): the move as JSON


def _draw(seat, source, lang):
    if source == "deck":
        return {"en": "draw a card from the deck", "ja": "山札から1枚引く"}[lang]
    if source == seat:
        return {"en": "take the top card of the own action column",
                "ja": "自分のアクション列の一番上のカードを取る"}[lang]
    other = _word(source)
    return {"en": f"take the top card of seat {other}'s action column",
            "ja": f"プレイヤー{other}のアクション列の一番上のカードを取る"}[lang]


def _card(move, lang):
    if "card" not in move:  # as logged: hidden from everyone (V-7.2)
        return {"en": "a card comes off the deck (hidden)",
                "ja": "カードが1枚出る（伏せたまま）"}[lang]
    card = _card_name(move["card"], lang)
    return {"en": f"{card} comes off the deck", "ja": f"{card}が出る"}[lang]


def _layout(cells, lang):
    if not isinstance(cells, dict):
        return {"en": "the map is laid out: ", "ja": "チップと駒を配置："}[lang] + repr_json(cells)
    where = {}  # what a cell holds (a chip, seatN, or anything odd as JSON) → its cells
    for cell in sorted(cells, key=lambda c: (MAP_ORDER.get(c, len(CELLS)), c)):
        thing = cells[cell]
        if not (isinstance(thing, str) and (thing in CHIP_NAMES or PIECE.fullmatch(thing))):
            thing = repr_json(thing)
        where.setdefault(thing, []).append(_word(cell))
    pieces = sorted((int(t[4:]), at) for t, cells_ in where.items() if PIECE.fullmatch(t)
                    for at in cells_)
    plural = "s" if lang == "en" else ""
    groups = [(CHIP_NAMES[t][lang] + plural, where[t]) for t in LAYOUT_ORDER if t in where]
    groups += sorted((t, at) for t, at in where.items()
                     if t not in CHIP_NAMES and not PIECE.fullmatch(t))
    if lang == "ja":
        parts = ["駒：" + "、".join(f"プレイヤー{s}が{at}" for s, at in pieces)] if pieces else []
        parts += [f"{name}：{'・'.join(at)}" for name, at in groups]
        return "チップと駒を配置（" + "／".join(parts) + "）"
    parts = ["pieces: " + ", ".join(f"seat {s} on {at}" for s, at in pieces)] if pieces else []
    parts += [f"{name} on {', '.join(at)}" for name, at in groups]
    return "the map is laid out: " + "; ".join(parts)


def _card_name(card, lang) -> str:
    names = CARD_NAMES.get(card) if isinstance(card, str) else None
    if names is None:
        return _word(card)
    return f"{card} ({names['en']})" if lang == "en" else f"{card}（{names['ja']}）"


def _word(value) -> str:
    """A cell or a seat as written on the board; anything odd as JSON."""
    if type(value) is int or isinstance(value, str) and value in CELLS:
        return str(value)
    return repr_json(value)
