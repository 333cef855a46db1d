"""The Gizmos component catalog (issue 11 item 4): what a client needs to draw and explain
the game without the source. Pure data, built from the game's own constants (``cards``):
the 112 cards with their effect as data and as text in English (the card data's) and
Japanese (written from the effect data, in the Japanese rules' words), the spheres, the
decks, the display, the gizmo kinds and the limits.
"""

import copy

from .cards import (
    BASE_LIMITS, BY_LEVEL, CARDS, COLORS, DECK_SIZE, DISPLAY_SIZE, END_GIZMOS, END_LEVEL3,
    LEVEL3_IN_PLAY, LEVELS, MARBLES_PER_COLOR, ROW_SIZE, STARTING,
)

COLOR_NAMES = {"black": ("black", "黒"), "blue": ("blue", "青"), "red": ("red", "赤"),
               "yellow": ("yellow", "黄"), "none": ("no colour", "色なし"),
               "multi": ("Generic", "汎用"), "any": ("any colour", "任意の色")}
LEVEL_NAMES = {0: ("Starting", "開始"), 1: ("Level I", "レベル1"), 2: ("Level II", "レベル2"),
               3: ("Level III", "レベル3")}
#: the five kinds of gizmo: the slot of the dashboard each one goes under
KINDS = {
    "upgrade": ({"en": "Upgrade", "ja": "アップグレード"},
                {"en": "Raises a limit, discounts builds, forbids an action or awards VP at "
                       "the end (Z-6)",
                 "ja": "能力値を増やす、設置を割り引く、アクションを禁じる、または終了時に"
                       "得点を与える装置"}),
    "converter": ({"en": "Converter", "ja": "変換"},
                  {"en": "When building, treats energy as another colour or as more (Z-5)",
                   "ja": "設置の際、消費するエネルギーの色や数を変換する装置"}),
    "file": ({"en": "File", "ja": "ファイリング"},
             {"en": "Triggered by a File action (Z-8)",
              "ja": "ファイリングアクションの際に稼働する装置"}),
    "pick": ({"en": "Pick", "ja": "取り出し"},
             {"en": "Triggered by picking energy of its colours (Z-8)",
              "ja": "取り出しアクションの際に稼働する装置"}),
    "build": ({"en": "Build", "ja": "組み立て"},
              {"en": "Triggered by building a gizmo that meets its condition (Z-8)",
               "ja": "設置アクションの際に稼働する装置"}),
}


def _color_ja(colors) -> str:
    return "か".join(COLOR_NAMES[c][1] for c in colors)


def _slot_ja(slot: dict) -> str:
    given = ("任意の色のエネルギー" if slot["from"] == "any"
             else f"{COLOR_NAMES[slot['from']][1]}のエネルギー") + f"{slot['in']}個"
    color = "任意の色の" if slot["to"] == "any" else (
        "同じ色の" if slot["from"] == "any" else f"{COLOR_NAMES[slot['from']][1]}の")
    return f"{given}を{color}エネルギー{slot['out']}個として扱える"


DISCOUNT_JA = {"building_level_2": "レベル2の装置を設置するとき",
               "building_from_archive": "アーカイブから装置を設置するとき",
               "building_from_research": "開発アクションで引いた装置を直接設置するとき"}
FORBID_JA = {"research": "開発", "file": "ファイリング"}
END_VP_JA = {"energy_in_ring": "貯留リングにあるエネルギー球の数",
             "vp_token_total": "勝利点トークンの合計"}


def _condition_ja(kind: str, condition: dict) -> str:
    if kind == "file_trigger":
        return "ファイリングアクションを行ったとき"
    if kind == "pick_trigger":
        return f"エネルギー列から{_color_ja(condition['colors'])}のエネルギー球を取り出したとき"
    if "colors" in condition:
        return f"{_color_ja(condition['colors'])}の装置を設置したとき"
    if condition.get("from_archive"):
        return "アーカイブから装置を設置したとき"
    return f"{LEVEL_NAMES[condition['level']][1]}の装置を設置したとき"


def _result_ja(result: dict) -> str:
    n = result.get("count", 1)
    many = f"最大{n}回まで1回ずつ" if result.get("up_to") else ""
    action = result["action"]
    if action == "draw_random":
        return (f"生成器からエネルギー球を最大{n}個まで1個ずつランダムに引いてよい（取り出しではない）"
                if many else f"生成器からエネルギー球を{n}個ランダムに引いてよい（取り出しではない）")
    if action == "pick":
        return f"取り出しアクションを{many}行ってよい" if many else "取り出しアクションを行ってよい"
    if action == "gain_vp_tokens":
        return f"勝利点トークン{n}点を得てよい"
    if action == "build_free":
        return f"{LEVEL_NAMES[result['level']][1]}の装置1枚をコストを支払わずに設置してよい"
    return {"file": "ファイリングアクションを行ってよい",
            "research": "開発アクションを行ってよい"}[action]


def effect_ja(card: dict) -> str:
    """The card's effect in Japanese, from its effect data."""
    fx = card["effect"]
    kind = fx["kind"]
    if kind == "converter":
        text = "変換：設置の際、" + "。また、".join(_slot_ja(s) for s in fx["slots"]) + "（1手番に1回）"
    elif kind == "upgrade":
        if fx.get("generic"):
            text = ("汎用装置：どの色の組み合わせのエネルギーでも支払える。設置で稼働する装置には"
                    f"すべての色として扱う。ゲーム終了時、{END_VP_JA[fx['end_game_vp']]}に等しい"
                    "勝利点を得る")
        elif "discount" in fx:
            text = (f"アップグレード（割引）：{DISCOUNT_JA[fx['discount']['when']]}、"
                    f"エネルギーを{fx['discount']['amount']}個少なく支払ってよい")
        elif "forbid" in fx:
            text = (f"アップグレード（禁止）：以後ゲーム終了まで{FORBID_JA[fx['forbid']]}"
                    "アクションを行えない（他の装置による場合も含む）")
        else:
            parts = [f"{name}+{fx[key]}" for key, name in (
                ("energy_limit", "貯留限界"), ("file_limit", "ファイリング上限"),
                ("research", "開発上限")) if fx.get(key)]
            text = "アップグレード（恒久）：" + "、".join(parts)
    else:
        text = f"{_condition_ja(kind, fx['condition'])}：{_result_ja(fx['result'])}"
        if fx.get("once_per_turn"):
            text += "（1手番に1回まで）"
    return ("開始カード。" if card["starting"] else "") + text


def _name(card: dict) -> dict:
    """"Level II red Pick gizmo 205", "Starting File gizmo 901" (a starting gizmo has no
    colour)."""
    level, color, kind = card["level"], card["color"], KINDS[card["type"]][0]
    en = [LEVEL_NAMES[level][0]] + ([COLOR_NAMES[color][0]] if color != "none" else [])
    ja = LEVEL_NAMES[level][1] + (f"・{COLOR_NAMES[color][1]}の" if color != "none" else "の")
    return {"en": f"{' '.join(en)} {kind['en']} gizmo {card['id']}",
            "ja": f"{ja}{kind['ja']}装置 {card['id']}"}


def _card(card: dict) -> dict:
    return {
        "id": card["id"], "level": card["level"], "color": card["color"], "cost": card["cost"],
        "cost_color": card["cost_color"], "points": card["points"], "kind": card["type"],
        "starting": card["starting"], "effect": copy.deepcopy(card["effect"]),
        "name": _name(card),
        "text": {"en": card["effect_text"], "ja": effect_ja(card)},
    }


def catalog() -> dict:
    return {
        "game": "gizmos",
        "cards": [_card(CARDS[c]) for c in sorted(CARDS)],
        "kinds": [{"id": k, "name": name, "text": text} for k, (name, text) in KINDS.items()],
        "spheres": {
            "name": {"en": "Energy sphere", "ja": "エネルギー球"},
            "text": {"en": f"{MARBLES_PER_COLOR * len(COLORS)} spheres, {MARBLES_PER_COLOR} "
                           f"of each colour, in the dispenser; {ROW_SIZE} wait in the Energy "
                           "Row (Z-1, Z-10)",
                     "ja": f"エネルギー球は{len(COLORS)}色各{MARBLES_PER_COLOR}個、計"
                           f"{MARBLES_PER_COLOR * len(COLORS)}個。生成器から{ROW_SIZE}個が"
                           "エネルギー列に並ぶ"},
            "colors": [{"id": c, "name": {"en": COLOR_NAMES[c][0], "ja": COLOR_NAMES[c][1]},
                        "count": MARBLES_PER_COLOR} for c in COLORS],
            "row_size": ROW_SIZE},
        "decks": [{"level": lv, "name": {"en": LEVEL_NAMES[lv][0], "ja": LEVEL_NAMES[lv][1]},
                   "cards": len(BY_LEVEL[lv]), "in_play": DECK_SIZE[lv],
                   "display": DISPLAY_SIZE[lv]} for lv in LEVELS],
        "starting": list(STARTING),
        "limits": {"name": {"en": "Starting limits", "ja": "初期能力値"},
                   "text": {"en": f"Energy Storage {BASE_LIMITS['energy']}, File "
                                  f"{BASE_LIMITS['file']}, Research {BASE_LIMITS['research']} "
                                  "(Z-2.8)",
                            "ja": f"貯留限界{BASE_LIMITS['energy']}、ファイリング上限"
                                  f"{BASE_LIMITS['file']}、開発上限{BASE_LIMITS['research']}"},
                   **BASE_LIMITS},
        "end": {"name": {"en": "End of the game", "ja": "ゲームの終了"},
                "text": {"en": f"after the round in which a seat builds its {END_LEVEL3}th "
                               f"Level III gizmo or its {END_GIZMOS}th gizmo (Z-11); "
                               f"{len(BY_LEVEL[3]) - LEVEL3_IN_PLAY} Level III cards are "
                               "removed unseen (Z-2.4)",
                         "ja": f"いずれかのプレイヤーが{END_LEVEL3}枚目のレベル3装置か合計"
                               f"{END_GIZMOS}枚の装置を設置したラウンドの終わりに終了。レベル3"
                               f"カード{len(BY_LEVEL[3]) - LEVEL3_IN_PLAY}枚は見ずに箱に戻す"},
                "level3": END_LEVEL3, "gizmos": END_GIZMOS},
    }
