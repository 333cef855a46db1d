"""Each Three Magic move as a short sentence, in English and in Japanese.

The Japanese uses the designers' words (マナ, 呪文, ツモ, ロン, ポン, チー, リーチ,
触媒表示, 誓約, 差す, 捨てる) and writes a card as its attribute, number and star
(火3★); the English keeps the notation of RULES.md (R3*). Hand places are
counted from the left as a person counts them (the 1st card is ``insert`` 0).

A text is a pure function of the move as given: a dealt or drawn card that the
reader may not see (``"hidden"``, or left out) reads as "a card", and another
seat's sealed answer reads as an answer, never as what it was (T-10.2).
"""

from referee.engine import canonical, repr_json

from .cards import COPIES, card_name
from .scoring import catalyst_of

SEAT = {"en": "Seat {seat}: ", "ja": "プレイヤー{seat}："}
CHANCE = {"en": "Chance: ", "ja": "偶然："}


def move_text(move: dict, lang: str) -> str:
    kind = move.get("type")
    if kind in ("deal", "draw", "indicator"):
        return CHANCE[lang] + CHANCE_TEXTS[kind](move, lang)
    if kind in SEAT_TEXTS:
        return SEAT[lang].format(seat=_word(move.get("seat"))) + SEAT_TEXTS[kind](move, lang)
    return canonical(move)  # not a Three Magic move (a forged log entry): the move as JSON


# ------------------------------------------------------------------ chance
def _deal(move, lang):
    seat, card = _word(move.get("to")), _card(move.get("card"), lang)
    if lang == "ja":
        return f"プレイヤー{seat}に{card + 'を' if card else 'マナを1枚'}配る"
    return f"{card or 'a card'} is dealt to seat {seat}"


def _draw(move, lang):
    seat, card = _word(move.get("to")), _card(move.get("card"), lang)
    if lang == "ja":
        return f"プレイヤー{seat}が{card + 'を' if card else 'マナを1枚'}引く"
    return f"seat {seat} draws {card or 'a card'}"


def _indicator(move, lang):
    card = move.get("card")
    named = _card(card, lang) or _word(card)
    catalyst = _card(catalyst_of(card), lang) if card in COPIES else None
    if lang == "ja":
        return f"触媒表示に{named}をめくる" + (f"（触媒は{catalyst}）" if catalyst else "")
    return f"{named} is turned up as a catalyst indicator" + (
        f" (catalyst {catalyst})" if catalyst else "")


CHANCE_TEXTS = {"deal": _deal, "draw": _draw, "indicator": _indicator}


# ------------------------------------------------------------------- seats
def _tsumo(move, lang):
    place = _place(move.get("insert"), lang)
    if lang == "ja":
        return f"ツモ（引いたマナを左から{place}枚目に差して上がり）"
    return f"tsumo, the drawn card completes the hand as its {place} card"


def _ron(move, lang):
    place = _place(move.get("insert"), lang)
    if lang == "ja":
        return f"ロン（捨てられたマナを左から{place}枚目に差して上がり）"
    return f"ron, the discard completes the hand as its {place} card"


def _discard(move, lang):
    insert, remove = move.get("insert"), move.get("remove")
    out = _place(remove, lang)
    if insert is None:  # the caller's discard (T-5.6)
        text = {"en": f"discard the {out} card (after the call)",
                "ja": f"誓約の後、左から{out}枚目を捨てる"}[lang]
    elif insert == 0 and remove == 0:
        text = {"en": "discard the drawn card", "ja": "引いたマナをそのまま捨てる"}[lang]
    elif type(insert) is int and type(remove) is int and remove == insert - 1:
        text = {"en": f"discard the {out} card, the drawn card taking its place",
                "ja": f"左から{out}枚目を捨て、その場所に引いたマナを差す"}[lang]
    else:
        into = _place(insert, lang)
        text = {"en": f"insert the drawn card as the {into} card, discard the {out}",
                "ja": f"引いたマナを左から{into}枚目に差し、左から{out}枚目を捨てる"}[lang]
    if move.get("riichi") is True:  # T-6.2: the discard declares it
        return {"en": f"riichi ({text})", "ja": f"リーチ（{text}）"}[lang]
    return text


def _claim(move, lang):
    """Pon or chi: the two hand cards that make the spell with the discard (T-5.3)."""
    cards = move.get("cards")
    call = {"pon": "ポン", "chi": "チー"}[move["type"]] if lang == "ja" else move["type"]
    if isinstance(cards, list) and len(cards) == 2:
        first, second = (_place(c, lang) for c in cards)
        if lang == "ja":
            return f"{call}（手札の左から{first}枚目と{second}枚目で）"
        return f"{call} with the {first} and {second} cards"
    return f"{call}（{_word(cards)}）" if lang == "ja" else f"{call} with {_word(cards)}"


def _pass(move, lang):
    return {"en": "pass", "ja": "パス"}[lang]


def _answer(move, lang):
    return {"en": "answers the discard (sealed)", "ja": "捨て札に応答（内容は非公開）"}[lang]


SEAT_TEXTS = {"tsumo": _tsumo, "ron": _ron, "discard": _discard, "pon": _claim,
              "chi": _claim, "pass": _pass, "answer": _answer}


# --------------------------------------------------- listed, naming cards
def listed_text(view: dict, move: dict, lang: str) -> str:
    """A listed move's sentence naming the cards its reader's view shows: a discard names
    the card thrown out and where the drawn one goes, a pon or chi the two hand cards, so
    that no one counts places in a hand the picture does not number (T-4.3, T-5.1). A
    card the view hides, or a move not made of the reader's own hand, reads as
    :func:`move_text` has it."""
    seat, kind = move.get("seat"), move.get("type")
    hands = view.get("hands") or []
    hand = hands[seat - 1] if type(seat) is int and 1 <= seat <= len(hands) else None
    if not isinstance(hand, list) or kind not in ("discard", "pon", "chi"):
        return move_text(move, lang)
    try:
        if kind == "discard":
            named = _discard_named(hand, view.get("drawn"), move, lang)
        else:
            named = _claim_named(hand, move, lang)
    except (IndexError, TypeError):  # places the hand does not have: the plain sentence
        return move_text(move, lang)
    if named is None:
        return move_text(move, lang)
    if move.get("riichi") is True:
        named = {"en": f"riichi ({named})", "ja": f"リーチ（{named}）"}[lang]
    return SEAT[lang].format(seat=seat) + named


def _discard_named(hand, drawn, move, lang):
    insert, remove = move.get("insert"), move.get("remove")
    if type(remove) is not int:
        return None
    if insert is None:  # the caller's discard: nothing is inserted (T-5.6)
        out = _card(hand[remove], lang)
        return {"en": f"discard {out}, the {_place(remove, lang)} card (after the call)",
                "ja": f"誓約の後、{out}（左から{_place(remove, lang)}枚目）を捨てる"}[lang]
    new = _card(drawn, lang)
    if type(insert) is not int or new is None:
        return None
    formed = hand[:insert] + [drawn] + hand[insert:]
    if remove == insert:
        return {"en": f"discard the drawn {new}", "ja": f"引いた{new}をそのまま捨てる"}[lang]
    out, was = _card(formed[remove], lang), remove if remove < insert else remove - 1
    goes = _place(insert if remove > insert else insert - 1, lang)
    if lang == "ja":
        return f"{out}（左から{_place(was, lang)}枚目）を捨て、引いた{new}を左から{goes}枚目に差す"
    return f"discard {out}, the {_place(was, lang)} card; the drawn {new} goes in as the {goes}"


def _claim_named(hand, move, lang):
    cards = move.get("cards")
    if not (isinstance(cards, list) and len(cards) == 2 and all(type(c) is int for c in cards)):
        return None
    first, second = (_card(hand[c], lang) for c in cards)
    places = [_place(c, lang) for c in cards]
    if lang == "ja":
        call = {"pon": "ポン", "chi": "チー"}[move["type"]]
        return f"{call}（{first}と{second}、手札の左から{places[0]}枚目と{places[1]}枚目）"
    return f"{move['type']} with {first} and {second} (the {places[0]} and {places[1]} cards)"


# ------------------------------------------------------------------- words
def _card(card, lang) -> str | None:
    """A card as the reader writes it; None where it is hidden (or left out)."""
    if card is None or card == "hidden":
        return None
    if card not in COPIES:
        return repr_json(card)
    return card_name(card, lang) if lang == "ja" else card


def _place(index, lang) -> str:
    """A 0-based hand place as a person counts it: 1st, 2nd … (ja: the number only)."""
    if type(index) is not int or index < 0:
        return _word(index)
    n = index + 1
    if lang == "ja":
        return str(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _word(value) -> str:
    """A seat number as is; anything odd as JSON."""
    return str(value) if type(value) is int else repr_json(value)
