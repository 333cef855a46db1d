"""Each move as a short sentence, in English and in Japanese (the rulebook's own terms:
プッシュ, オペレート, スタック, ハンド, 白の祭壇, 黒の祭壇, ペンタクル, 魔女ボード…).

The text is a pure function of the move as given. A draw redacted for another
seat has lost its chip (GM-6.2) and reads "draw a chip", so every hidden
outcome reads the same; odd values are written as JSON, never crash.
"""

from referee.engine import CHANCE, repr_json

from .board import BLACK_ALTAR, WHITE_ALTARS


def move_text(move: dict, lang: str) -> str:
    words = WORDS[lang]
    phrase = PHRASES.get(move.get("type"))
    body = phrase(move, words) if phrase else words["unknown"].format(repr_json(move.get("type")))
    return words["actor"](move.get("seat")) + body


def _value(value) -> str:
    """A number as itself; anything else as JSON (a forged field reads as what it is)."""
    return str(value) if type(value) is int else repr_json(value)


def _altar(altar, words) -> str:
    if altar == BLACK_ALTAR:
        return words["black"]
    if altar in WHITE_ALTARS:
        return words["white"].format(WHITE_ALTARS.index(altar) + 1)
    return words["altar"].format(_value(altar))


def _push(move, words):
    return words["push"].format(chip=_value(move.get("chip")))


def _operate(move, words):
    altar = move.get("altar")
    return words["operate"].format(take=_value(move.get("take")), altar=_altar(altar, words),
                                   cell=_value(move.get("cell")),
                                   penalty=words["penalty"] if altar == BLACK_ALTAR else "")


def _pick_witch(move, words):
    return words["pick_witch"].format(witch=_value(move.get("witch")))


def _draw(move, words):
    into, holder = move.get("into"), move.get("holder")
    if into == "altar":
        place = words["onto"].format(_altar(holder, words))
    elif into in ("stack", "hand"):
        place = words[into].format(_value(holder))
    else:
        place = words["nowhere"]
    if "chip" in move:  # GM-6.2: a hand draw another seat may not see has no chip
        return words["draw"].format(chip=_value(move["chip"]), place=place)
    return words["draw_hidden"].format(place=place)


def _deal_witch(move, words):
    return words["deal_witch"].format(witch=_value(move.get("witch")),
                                      seat=_value(move.get("holder")))


def _remove_witch(move, words):
    return words["remove_witch"].format(witch=_value(move.get("witch")))


PHRASES = {"push": _push, "operate": _operate, "pick_witch": _pick_witch, "draw": _draw,
           "deal_witch": _deal_witch, "remove_witch": _remove_witch}


def _actor(chance: str, seat: str):
    return lambda who: chance if who == CHANCE else seat.format(_value(who))


WORDS = {
    "en": {
        "actor": _actor("Chance: ", "Seat {}: "),
        "unknown": "a move of unknown type {}",
        "white": "white altar {}", "black": "the black altar", "altar": "altar {}",
        "push": "push {chip} from the hand onto the stack",
        "operate": "operate, take {take} from {altar} onto the stack and place the other "
                   "chip on cell {cell}{penalty}",
        "penalty": ", then the penalty",
        "pick_witch": "pick witch {witch}",
        "onto": "onto {}", "stack": "onto seat {}'s stack", "hand": "into seat {}'s hand",
        "nowhere": "out of the bag",
        "draw": "draw {chip} {place}",
        "draw_hidden": "draw a chip {place}",
        "deal_witch": "deal witch {witch} to seat {seat}",
        "remove_witch": "put witch {witch} back in the box",
    },
    "ja": {
        "actor": _actor("偶然：", "プレイヤー{}："),
        "unknown": "種類{}の不明な手",
        "white": "白の祭壇{}", "black": "黒の祭壇", "altar": "祭壇{}",
        "push": "プッシュ（ハンドの{chip}をスタックに積む）",
        "operate": "オペレート（{altar}の{take}をスタックに積み、残りのチップをペンタクルの"
                   "マス{cell}に置く{penalty}）",
        "penalty": "。その後ペナルティ処理",
        "pick_witch": "魔女ボード{witch}を選ぶ",
        "onto": "{}に置く", "stack": "プレイヤー{}のスタックに積む",
        "hand": "プレイヤー{}のハンドに置く",
        "nowhere": "置き場所は不明",
        "draw": "袋から{chip}を引き、{place}",
        "draw_hidden": "袋からチップを1枚引き、{place}",
        "deal_witch": "プレイヤー{seat}に魔女ボード{witch}が配られる",
        "remove_witch": "魔女ボード{witch}を箱に戻す",
    },
}
