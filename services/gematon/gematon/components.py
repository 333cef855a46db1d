"""The component catalog: what a client needs to draw and explain Gematon without the
source — chips, the operation table, altars, the pentacle and its lines, the patterns,
the player's ritual board, the track, the witches — in English and Japanese (the
rulebook's terms). Pure data, built from the engine's own constants (``board``,
``scoring``); its JSON Schema is ``wire.COMPONENTS``.
"""

from .board import (
    ALTAR_CHIPS, ALTARS, BLACK_ALTAR, CELLS, CHIPS_PER_VALUE, FANO_LINES, GAUGE_VALUES,
    MAX_BLESSING, PRINTED_SQUARES, ROUNDS, VALUES, WHITE_ALTARS, WITCHES, operation,
)
from .scoring import PATTERNS


def words(en: str, ja: str) -> dict:
    return {"en": en, "ja": ja}


PATTERN_WORDS = {
    "pure": (words("Pure", "ピュア"),
             words("three equal values", "3枚の値がすべて等しい")),
    "nine": (words("Nine", "ナイン"),
             words("the three values add up to 9", "3枚の値の合計が9")),
    "cover": (words("Cover", "カバー"),
              words("two values add up to the third", "2枚の値の合計が残りの1枚の値に等しい")),
    "none": (words("no pattern", "役なし"),
             words("any other set scores nothing", "これ以外のセットは得点にならない")),
}
assert set(PATTERN_WORDS) == set(PATTERNS)

AREAS = (
    ("stack", words("Stack", "スタック"), words(
        "last in, first out: a push or a taken chip goes on top, an operation pops the top "
        "two (GM-1.4)",
        "後入れ先出し：プッシュしたチップや祭壇から取ったチップは一番上に積み、オペレートは"
        "上から2枚を取る")),
    ("hand", words("Hand", "ハンド"), words(
        "2 chips between turns, 3 after the refill; hidden from the other seats (GM-6.2)",
        "手番の合間は2枚、補充処理の後は3枚。他のプレイヤーには枚数しか見えない")),
    ("pop", words("Pop area", "ポップエリア"), words(
        "the two chips an operation pops, until they go onto the emptied altar",
        "オペレートで取り出した2枚を、空になった祭壇に移すまで置く場所")),
    ("gauge", words("Blessing gauge", "恩恵ゲージ"), words(
        "cells 0..6; the marker advances one cell whenever a new value reaches the pentacle",
        "0〜6のマス。ペンタクルに新しい種類のチップが置かれるたびにマーカーが1マス進む")),
)


def catalog() -> dict:
    return {
        "game": "gematon",
        "name": words("Gematon", "ゲマトン"),
        "chips": {
            "name": words("Number chips", "数字チップ"),
            "text": words(f"{len(VALUES) * CHIPS_PER_VALUE} chips in one bag, "
                          f"{CHIPS_PER_VALUE} of each value; there is no 3, 6 or 9",
                          f"袋に{len(VALUES) * CHIPS_PER_VALUE}枚、各{CHIPS_PER_VALUE}枚ずつ。"
                          "3、6、9のチップはない"),
            "values": list(VALUES), "per_value": CHIPS_PER_VALUE, "rule": "GM-1.2",
        },
        "operation": {
            "name": words("Operation", "演算"),
            "text": words("multiply the two popped chips and add the digits until one is "
                          "left; table[i][j] is the result of values[i] and values[j]",
                          "取り出した2枚を掛け算し、結果が1桁になるまで各桁を足し合わせる。"
                          "table[i][j]はvalues[i]とvalues[j]の結果"),
            "values": list(VALUES),
            "table": [[operation(a, b) for b in VALUES] for a in VALUES],
            "rule": "GM-3.4",
        },
        "altars": [{
            "id": altar, "colour": "black" if altar == BLACK_ALTAR else "white",
            "name": words("Black altar", "黒の祭壇") if altar == BLACK_ALTAR else words(
                f"White altar {WHITE_ALTARS.index(altar) + 1}",
                f"白の祭壇{WHITE_ALTARS.index(altar) + 1}"),
            "holds": ALTAR_CHIPS,
            "text": words("used only when no white altar holds the result; then either "
                          "chip may be taken, and the penalty follows",
                          "演算の結果が白の祭壇にないときだけ使う。どちらのチップを取ってもよく、"
                          "その後ペナルティ処理が発生する") if altar == BLACK_ALTAR else words(
                "an operation takes the result from a white altar that holds it",
                "オペレートでは演算の結果のチップを白の祭壇から取る"),
            "rule": "GM-1.3",
        } for altar in ALTARS],
        "pentacle": {
            "name": words("Pentacle", "ペンタクル"),
            "text": words(f"{CELLS} cells on {len(FANO_LINES)} lines of 3; a set is a line "
                          "whose 3 cells hold chips. The lines are the option "
                          "pentacle_lines (default below)",
                          f"{CELLS}つのマスと、3マスずつを結ぶ{len(FANO_LINES)}本の線。"
                          "線で結ばれた3枚のチップの組がセット。線はオプションpentacle_lines"
                          "（既定値は下記）"),
            "cells": list(range(CELLS)),
            "lines": [list(line) for line in FANO_LINES],
            "rule": "GM-1.5",
        },
        "patterns": [{"id": pattern, "points": points, "name": PATTERN_WORDS[pattern][0],
                      "text": PATTERN_WORDS[pattern][1], "rule": "GM-5.2"}
                     for pattern, points in PATTERNS.items()],
        "ritual_board": {
            "name": words("Ritual board", "祭具ボード"),
            "areas": [{"id": area, "name": name, "text": text}
                      for area, name, text in AREAS],
            "gauge_values": list(GAUGE_VALUES),
            "text": words("each player's board; the gauge cells' values are the option "
                          f"blessing_values (default below, at most {MAX_BLESSING})",
                          "各プレイヤーの祭具ボード。恩恵ゲージの各マスの値はオプション"
                          f"blessing_values（既定値は下記、最大{MAX_BLESSING}）"),
            "rule": "GM-1.4",
        },
        "track": {
            "name": words("Score track", "得点トラック"),
            "text": words("seat k's pawn starts on square k − 1; a turn that forms a set "
                          "advances the pawn by its gauge cell's value, on past any pawn it "
                          "would land on; positions past 20 are plain integers",
                          "プレイヤーkの駒はマスk−1から始まる。セットができた手番に恩恵ゲージの"
                          "値だけ進み、駒のあるマスは踏み越える。20を越えても位置はそのまま数える"),
            "printed_squares": PRINTED_SQUARES, "rounds": ROUNDS, "rule": "GM-1.7",
        },
        "witches": [{
            "id": witch,
            "name": words(f"Witch {witch}", f"魔女ボード{witch}"),
            "text": words("dealt (or drafted) normal side up; flips to its awakened side when "
                          "the game's first set is formed. Its awakened ability is not "
                          "published in any source this referee has: it has no effect "
                          "(GM-4.2)",
                          "通常面を表にして配られ（またはドラフトで選ばれ）、ゲームで最初の"
                          "セットができた瞬間に覚醒面に裏返す。覚醒面の能力は公開されていない"
                          "ため、このレフェリーでは効果がない（GM-4.2）"),
            "ability": None, "rule": "GM-4.2",
        } for witch in WITCHES],
    }
