"""Vectron's component catalog: what a client needs to draw and explain the game without
the source: the map and its cells, the map chips, the action cards (with every cell each
O/D card reaches, walls kicking back), the pieces and what each seat keeps, named and
explained in English and in the manual's Japanese.

Pure data, built from the game's own constants (``board``, ``scoring``), never a second copy.
"""

from .board import (
    CARD_COUNT, CARD_NAMES, CARDS, CELLS, CHIP_NAMES, CHIPS, DEFAULT_ACTION_CARDS,
    DEFAULT_MAP_CHIPS, DIRECTIONS, FILES, GATE, GAUGE_LIMIT, HAND_SIZE, HOLDABLE,
    MAP_CHIP_COUNT, MAX_PLAYERS, RANKS, STAR_CHIPS, STARS, START_CHIP, SWAP, SWAP_CARD,
    SWAP_CHIP_COUNT, WINNING_SCORE, destinations, piece, xy,
)
from .scoring import GAUGE_MAX, MOST_STARS, SCORE_MAX

CHIP_TEXTS = {
    "star": {"en": "A {n}-star chip. Landing on it, the seat takes it, and the "
                   "chip it held goes on the cell its piece left (V-5.1). Given up for a gate, "
                   "it raises the gauge by its stars (V-5.2).",
             "ja": "星{n}つのスターチップ。移動先がスターチップなら、それを手元に置いて駒を"
                   "動かし、もともと手元にあったチップを出発地点に置く。ゲートチップと引き換えに"
                   "手放すと、星の数だけゲージが上がる。"},
    GATE: {"en": "Landing on it, the seat takes it as it would a star chip, and its gauge rises "
                 "by the stars of the chip it gave up (a gate counts 0) (V-5.2).",
           "ja": "移動先がゲートチップなら、それを手元に置いて駒を動かし、手元にあったチップを"
                 "出発地点に置き、そのチップに書かれた星の分だけゲージを上げる（ゲートは星0）。"},
    SWAP: {"en": "Never leaves the map. Landing on it, the piece and the swap chip trade cells "
                 "(V-5.3); an S card moves a piece onto either swap chip (V-4.4).",
           "ja": "マップから離れない。移動先がスワップチップなら、それを出発地点に置いて駒と"
                 "場所を入れ替える。S字のカードはどちらかのスワップチップを移動先とする。"},
}
CARD_TEXTS = {
    "O": {"en": "The piece jumps a distance of {d} up, down, left or right; at the edge it "
                "kicks off the wall and comes back (V-4.2, V-4.3).",
          "ja": "縦横4方向のいずれかへ{d}マス離れた場所へジャンプ移動する。壁際では壁を蹴って"
                "反転し、残りのマス数だけ進む。"},
    "D": {"en": "The piece jumps a distance of {d} diagonally, in one of 4 directions; at the "
                "edge it kicks off the wall and comes back (V-4.2, V-4.3).",
          "ja": "斜め4方向のいずれかへ{d}マス離れた場所へジャンプ移動する。壁際では壁を蹴って"
                "反転し、残りのマス数だけ進む。"},
    SWAP_CARD: {"en": "The piece moves onto either swap chip's cell, whatever the direction or "
                      "distance (V-4.4).",
                "ja": "方向や距離に関係なく、2枚あるスワップチップのどちらかを移動先とする。"},
}


def catalog() -> dict:
    return {
        "game": "vectron",
        "map": {
            "name": {"en": "map", "ja": "マップ"},
            "text": {"en": "A virtual 4×4 grid: cells a1…d4, file a–d left to right, rank 1–4 "
                           "bottom to top. Each cell holds one map chip or one piece. A move "
                           "is a jump; at an edge the piece kicks off the virtual wall, each "
                           "axis reflecting, the bounce costing no step (V-1.2, V-4.3).",
                     "ja": "仮想的な4マス四方の格子。列a〜d（左→右）と行1〜4（下→上）の16マスに、"
                           "マップチップか駒が1つずつ置かれる。移動はジャンプで、壁際では仮想的"
                           "な壁を蹴るように前後と左右を反転し、残りのマス数だけ動く。"},
            "files": list(FILES), "ranks": list(RANKS),
            "cells": [{"id": c, "x": xy(c)[0], "y": xy(c)[1]} for c in CELLS],
        },
        "map_chips": {
            "name": {"en": "map chips", "ja": "マップチップ"},
            "text": {"en": f"{MAP_CHIP_COUNT} chips laid on the map with the pieces; exactly "
                           f"{SWAP_CHIP_COUNT} are swap chips (V-1.3, option map_chips).",
                     "ja": f"駒とともにマップに並べる{MAP_CHIP_COUNT}枚のチップ。うち"
                           f"{SWAP_CHIP_COUNT}枚はスワップチップ。"},
            "count": MAP_CHIP_COUNT,
            "kinds": [_chip(chip) for chip in CHIPS],
        },
        "action_cards": {
            "name": {"en": "action cards", "ja": "アクションカード"},
            "text": {"en": f"{CARD_COUNT} cards: each turn one goes on top of the own action "
                           "column and moves the piece; additional moves use the cards below "
                           "it in turn (V-1.4, V-4, option action_cards).",
                     "ja": f"{CARD_COUNT}枚のカード。手番ごとに1枚を自分のアクション列の一番上"
                           "に出して駒を動かし、追加の移動ではその下のカードを順に使う。"},
            "count": CARD_COUNT,
            "kinds": [_card(card) for card in CARDS],
        },
        "pieces": {
            "name": {"en": "piece", "ja": "駒"},
            "text": {"en": "Each seat's piece, standing or fallen. Landing on another piece "
                           "trades cells and held chips with it and knocks it down, or stands "
                           "it up (V-5.4). A seat whose piece is fallen when its turn starts "
                           "puts the deck's top card on its column and stands up (V-3.2).",
                     "ja": "各プレイヤーの駒。他人の駒のある場所に移動すると、位置と手持ちの"
                           "チップを交換し、相手の駒を倒す（倒れていたら起こす）。駒が倒れた"
                           "状態で手番を始めたら、山札から1枚をアクション列の一番上に出し、"
                           "駒を起こす。"},
            "placeholders": [piece(s) for s in range(1, MAX_PLAYERS + 1)],
            "placeholder_name": {"en": "player chip", "ja": "プレイヤーチップ"},
        },
        "held_chip": {
            "name": {"en": "held chip", "ja": "手元のチップ"},
            "text": {"en": "The one chip a seat holds: a star chip or a gate. Each seat starts "
                           "with a 2-star chip (V-2.1).",
                     "ja": "各自が手元に持つ1枚のチップ（スターチップかゲートチップ）。最初は"
                           "星2つのスターチップ。"},
            "start": START_CHIP,
        },
        "star_gauge": {
            "name": {"en": "star gauge", "ja": "スターゲージ"},
            "text": {"en": f"Rises when the seat takes a gate. A gauge at {GAUGE_LIMIT} or more "
                           f"ends the turn at once and is settled (V-4.6, V-6.1); a move adds "
                           f"at most {MOST_STARS}, so a gauge never passes {GAUGE_MAX}.",
                     "ja": f"ゲートをくぐると上がる。いずれかのゲージが{GAUGE_LIMIT}以上になると"
                           "手番がすぐに終わり、スコアの清算を行う。1回の移動で上がるのは最大"
                           f"{MOST_STARS}なので、ゲージは{GAUGE_MAX}を超えない。"},
            "ends_turn_at": GAUGE_LIMIT, "most": GAUGE_MAX,
        },
        "score": {
            "name": {"en": "score", "ja": "スコア"},
            "text": {"en": "Settlement: with 3–4 players each seat scores players − its dense "
                           "rank by gauge; with 2 the higher gauge scores the difference "
                           f"(V-6.2). The game ends at {WINNING_SCORE} or more; the highest "
                           "score wins (V-6.4).",
                     "ja": "清算では、ゲージ量の順位（同着は同順位で連続）をもとに「人数から順位"
                           "を引いた値」を得る。2人なら多い方がゲージ量の差を得る。誰かが"
                           f"{WINNING_SCORE}点以上になったらゲーム終了、最大の人が勝者。"},
            "wins_at": WINNING_SCORE, "most": SCORE_MAX,
        },
        "hand": {
            "name": {"en": "hand", "ja": "手札"},
            "text": {"en": f"{HAND_SIZE} cards, seen by their seat only; a turn draws one and "
                           "places one (V-3.1, V-7.2).",
                     "ja": f"{HAND_SIZE}枚。本人だけが見る。手番では1枚取って1枚出す。"},
            "size": HAND_SIZE,
        },
        "action_column": {
            "name": {"en": "action column", "ja": "アクション列"},
            "text": {"en": "Each seat's face-up stack of played cards, newest on top; anyone "
                           "may draw its top card (V-3.1).",
                     "ja": "各自が出したカードを表向きに重ねた列。一番上が最新。誰でも一番上の"
                           "1枚を取れる。"},
        },
        "deck": {
            "name": {"en": "deck", "ja": "山札"},
            "text": {"en": "The face-down cards. When it runs out the turn's end settles; every "
                           "settlement gathers all cards, shuffles and deals again (V-6.3).",
                     "ja": "裏向きのカードの山。尽きたら手番の終わりに清算する。清算のたびに"
                           "全てのカードを集めて混ぜ、配り直す。"},
        },
    }


def _chip(chip: str) -> dict:
    text = CHIP_TEXTS["star" if chip in STAR_CHIPS else chip]
    return {"id": chip, "stars": STARS.get(chip), "holdable": chip in HOLDABLE,
            "default_count": DEFAULT_MAP_CHIPS[chip], "name": dict(CHIP_NAMES[chip]),
            "text": {lang: t.format(n=STARS.get(chip)) for lang, t in text.items()}}


def _card(card: str) -> dict:
    moving = card != SWAP_CARD
    kind = card[0] if moving else SWAP_CARD
    distance = int(card[1]) if moving else None
    return {"id": card, "kind": {"O": "orthogonal", "D": "diagonal"}.get(kind, "swap"),
            "distance": distance,
            "directions": [list(d) for d in DIRECTIONS[kind]] if moving else None,
            "reach": {c: destinations(c, card) for c in CELLS} if moving else None,
            "default_count": DEFAULT_ACTION_CARDS[card], "name": dict(CARD_NAMES[card]),
            "text": {lang: t.format(d=distance) for lang, t in CARD_TEXTS[kind].items()}}
