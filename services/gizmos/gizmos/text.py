"""Gizmos moves as short sentences, in English and in Japanese (the Japanese rules' own
words: ファイリング, 取り出し, 設置, 開発, エネルギー球, 生成器, 勝利点トークン).

A pure function of the move as given: a move redacted for another seat (a ``bottom`` or a
private ``deal`` without its card) reads as hidden, so the text never says more than the
move it describes.
"""

from functools import lru_cache

from referee.engine import CHANCE

COLOR_WORDS = {
    "en": {"black": "black", "blue": "blue", "red": "red", "yellow": "yellow"},
    "ja": {"black": "黒", "blue": "青", "red": "赤", "yellow": "黄"},
}
LEVEL_WORDS = {"en": {1: "Level I", 2: "Level II", 3: "Level III"},
               "ja": {1: "レベル1", 2: "レベル2", 3: "レベル3"}}


def _actor(move: dict, lang: str) -> str:
    seat = move.get("seat")
    if seat == CHANCE:
        return "Chance" if lang == "en" else "偶然"
    return f"Seat {seat}" if lang == "en" else f"プレイヤー{seat}"


def _color(color, lang: str) -> str:
    return COLOR_WORDS[lang].get(color, str(color))


def _level(level, lang: str) -> str:
    return LEVEL_WORDS[lang].get(level, str(level))


def _via(move: dict, lang: str) -> str:
    if "via" not in move:
        return ""
    return f" (via {move['via']})" if lang == "en" else f"（{move['via']}の効果）"


def _payment(move: dict, lang: str) -> str:
    """The spheres paid, colour by colour, and the Converters used: "red ×2, via 107"."""
    spend, converters = tuple(move.get("spend") or ()), tuple(move.get("converters") or ())
    try:
        return _payment_words(spend, converters, lang)
    except TypeError:  # unhashable parts (a forged log entry): said without the cache
        return _payment_words.__wrapped__(spend, converters, lang)


@lru_cache(maxsize=32768)  # a listing repeats payments card after card
def _payment_words(spend: tuple, converters: tuple, lang: str) -> str:
    gap = " " if lang == "en" else ""
    parts = [f"{_color(c, lang)}{gap}×{spend.count(c)}" for c in dict.fromkeys(spend)]
    listed = ", ".join(str(c) for c in converters)
    if lang == "en":
        paid = ", ".join(parts) or "no energy"
        return paid + (f", converting with {listed}" if listed else "")
    paid = "、".join(parts) or "エネルギーなし"
    return paid + (f"、{listed}で変換" if listed else "")


def _en(move: dict) -> str:
    kind, card, via = move.get("type"), move.get("card"), _via(move, "en")
    if kind == "file":
        return f"file {card}{via}"
    if kind == "pick":
        return f"pick a {_color(move.get('color'), 'en')} sphere{via}"
    if kind == "build":
        if "via" in move:
            return f"build {card} for free{via}"
        return f"build {card} ({_payment(move, 'en')})"
    if kind == "research":
        return f"research {_level(move.get('level'), 'en')}{via}"
    if kind == "decline":
        return "keep none of the drawn cards"
    if kind == "bottom":
        what = card if "card" in move else "a card"
        return f"put {what} at the bottom of its deck"
    if kind == "draw":
        return f"draw a random sphere from the dispenser{via}"
    if kind == "gain_vp":
        return f"take VP tokens{via}"
    if kind == "end_turn":
        return "end the turn"
    if kind == "pass":
        return "pass"
    if kind == "deal":
        what = card if "card" in move else "a card"
        if move.get("to") == "research":
            return f"{what} is drawn for seat {move.get('researcher')}'s Research"
        return f"{what} is turned up on the display"
    if kind == "marble":
        return f"a {_color(move.get('color'), 'en')} sphere comes out of the dispenser"
    raise ValueError(f"no text for the move type {kind}")


def _ja(move: dict) -> str:
    kind, card, via = move.get("type"), move.get("card"), _via(move, "ja")
    if kind == "file":
        return f"{card}をファイリング{via}"
    if kind == "pick":
        return f"{_color(move.get('color'), 'ja')}のエネルギー球を取り出し{via}"
    if kind == "build":
        if "via" in move:
            return f"{card}を無償で設置{via}"
        return f"{card}を設置（{_payment(move, 'ja')}）"
    if kind == "research":
        return f"{_level(move.get('level'), 'ja')}の山を開発{via}"
    if kind == "decline":
        return "引いたカードをどれも取らない"
    if kind == "bottom":
        what = card if "card" in move else "カード1枚"
        return f"{what}を山札の底に戻す"
    if kind == "draw":
        return f"生成器からエネルギー球を1個引く{via}"
    if kind == "gain_vp":
        return f"勝利点トークンを得る{via}"
    if kind == "end_turn":
        return "手番を終える"
    if kind == "pass":
        return "パス"
    if kind == "deal":
        what = card if "card" in move else "カード1枚"
        if move.get("to") == "research":
            return f"プレイヤー{move.get('researcher')}の開発で{what}が引かれる"
        return f"{what}が場に公開される"
    if kind == "marble":
        return f"生成器から{_color(move.get('color'), 'ja')}のエネルギー球が出る"
    raise ValueError(f"no text for the move type {kind}")


def move_text(move: dict, lang: str) -> str:
    """``move`` (as listed, or as logged and redacted) as a sentence in ``lang``."""
    if lang == "ja":
        return f"{_actor(move, 'ja')}：{_ja(move)}"
    return f"{_actor(move, 'en')}: {_en(move)}"
