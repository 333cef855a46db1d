"""Why a move is refused: the most specific rule it breaks (for ``IllegalMove.rule``).

Only called for moves that are not among the legal ones; fields may hold any
JSON value, so every lookup is defensive.
"""

import json

from .cards import CARDS, COLORS, LEVELS, effect, forbids, level, limits
from . import table

GRANTS = {"pick": "pick", "file": "file", "research": "research", "build": "build_free",
          "draw": "draw_random", "gain_vp": "gain_vp_tokens"}
TYPES = ("file", "pick", "build", "research", "decline", "bottom", "draw", "gain_vp",
         "end_turn", "pass")


def _json(value) -> str:
    """A value the caller sent, quoted as JSON (never as Python) in a refusal."""
    return json.dumps(value)[:80]


def why_illegal(state: dict, move: dict) -> tuple[str, str]:
    kind, seat = move.get("type"), move["seat"]
    if seat == "chance":
        return _why_bad_chance(state, move)
    if kind not in TYPES:
        return "Z-3", f"unknown move type {_json(kind)}; expected one of {', '.join(TYPES)}"
    phase = state["phase"]
    if phase == "research":
        if kind not in ("build", "file", "decline"):
            return "Z-3.4", "Research: build or file one drawn card, or decline"
        if kind != "decline" and move.get("card") not in state["research"]["cards"]:
            return "Z-3.4", f"card {_json(move.get('card'))} is not among the cards drawn"
    elif phase == "return":
        return "Z-3.4", "Research: put the drawn cards back at the bottom one at a time " \
                        "(type bottom, a card drawn)"
    elif kind in ("decline", "bottom"):
        return "Z-3.4", "no Research is being resolved"
    elif phase == "main" and ("via" in move or kind in ("draw", "gain_vp", "end_turn")):
        return "Z-3", "first perform one of the four actions: file, pick, build or research"
    elif phase == "actions" and "via" not in move and kind != "end_turn":
        return "Z-8", "the turn's action is done: use a triggered gizmo (via) or end_turn"
    if kind == "pass":
        return "Z-3", "passing is allowed only when no action is possible"
    if "via" in move:
        found = _why_bad_grant(state, move, kind)
        if found:
            return found
    return CHECKS.get(kind, _generic)(state, move, seat)


def _why_bad_chance(state, move):
    """A tabletop entry that cannot have happened."""
    head = state["chance"][0]
    if head["draw"] == "marble":
        held = ", ".join(f"{n} {c}" for c, n in table.hopper(state).items() if n)
        return "Z-10", f"the dispenser holds no {_json(move.get('color'))} sphere " \
                       f"(it holds {held})"
    return "Z-2", f"card {_json(move.get('card'))} cannot be the unseen top of the Level " \
                  f"{head['level']} deck (to the {head['to']})"


def _why_bad_grant(state, move, kind):
    via = move["via"]
    ready = table.ready_uses(state)
    if type(via) is not int or via not in ready:
        return "Z-8", f"{_json(via)} is not a triggered, unused gizmo of this turn"
    if effect(via)["result"]["action"] != GRANTS[kind]:
        return "Z-9", f"gizmo {via} grants {effect(via)['result']['action']}, not {kind}"
    return None


def _why_bad_file(state, move, seat):
    me = table.player(state, seat)
    if forbids(me["built"], "file"):
        return "Z-6.2", "a Negator forbids filing for the rest of the game"
    if len(me["archive"]) >= limits(me["built"])["file"]:
        return "Z-3.1", "the Archive is full (File Limit)"
    return "Z-3.1", f"card {_json(move.get('card'))} is not face up in the display"


def _why_bad_pick(state, move, seat):
    if table.room(state, seat) <= 0:
        return "Z-3.2", "the ring is full (Storage Limit): no Pick, not even to replace"
    color = move.get("color")
    if color not in COLORS:
        return "Z-3.2", f"colour must be one of {', '.join(COLORS)}"
    return "Z-3.2", f"no {color} sphere in the Energy Row"


def _why_bad_build(state, move, seat):
    card = move.get("card")
    me = table.player(state, seat)
    if "via" in move:
        if type(card) is not int or card not in CARDS or level(card) != 1:
            return "Z-9", "a free build is of a Level I gizmo"
        if move.get("spend") != [] or move.get("converters") != []:
            return "Z-9", "a free build pays nothing: spend and converters must be []"
        return "Z-9", f"card {card} is neither in the display nor in your Archive"
    in_display = any(card in row for row in state["display"].values())
    research = state["research"] or {"cards": []}
    if not (in_display or card in me["archive"] or card in research["cards"]):
        return "Z-3.3", f"card {_json(card)} is not in the display or your Archive"
    spend, converters = move.get("spend"), move.get("converters")
    if not isinstance(spend, list) or any(c not in COLORS for c in spend):
        return "Z-3.3", "spend must list the colours of the spheres spent"
    if any(spend.count(c) > me["ring"][c] for c in COLORS):
        return "Z-3.3", "spend names spheres that are not in your ring"
    if not isinstance(converters, list):
        return "Z-5", "converters must list the ids of the Converters used"
    if "other_converters" in move:  # the listing's note (true) was taken off already
        return "Z-5", "other_converters is the listing's note: true as listed, or left out"
    spent = set(state["turn_state"]["spent"])
    for c in converters:
        if c not in me["built"] or effect(c)["kind"] != "converter":
            return "Z-5", f"{_json(c)} is not one of your Converters"
        if c in spent:
            return "Z-5", f"Converter {c} was already used this turn"
    return "Z-5", "these spheres and Converters do not pay the cost exactly " \
                  "(after discounts, Z-6.3; a Converter that changes nothing is not used)"


def _why_bad_research(state, move, seat):
    if forbids(table.player(state, seat)["built"], "research"):
        return "Z-6.2", "a Negator forbids Research for the rest of the game"
    lv = move.get("level")
    if lv not in LEVELS or type(lv) is not int:
        return "Z-3.4", "level must be 1, 2 or 3"
    return "Z-3.4", f"the Level {lv} deck is empty"


def _why_bad_draw(state, move, seat):
    return "Z-3.2", "the ring is full: no draw (Z-9)"


def _generic(state, move, seat):
    return "Z-3", "not a legal move now"


CHECKS = {"file": _why_bad_file, "pick": _why_bad_pick, "build": _why_bad_build,
          "research": _why_bad_research, "draw": _why_bad_draw}


#: each rule id of RULES.md in Japanese (the words of text.py: ギズモ, アーカイブ, エネルギー列,
#: リング, ファイリング): what a refusal's Japanese detail says of the rule it breaks
RULES_JA = {
    "Z-0": "出典：公式ルールと効果一覧、BGAの実装、カードデータ",
    "Z-1": "コンポーネント：カード112枚（初期4枚、各レベル36枚）、エネルギー球52個（各色13個）",
    "Z-2": "準備：スタートプレイヤー、初期ギズモ、レベルIIIは16枚、展示は4/3/2枚、エネルギー列は6個",
    "Z-3": "手番：アクションをちょうど1つ（ファイリング・取り出し・設置・開発）、その後に装置が動く。"
           "パスはどれもできないときだけ",
    "Z-3.1": "ファイリング：展示のカードをアーカイブへ（ファイル上限まで）。空いた場所は補充される",
    "Z-3.2": "取り出し：エネルギー列の球を1個、貯留上限までリングへ。引くことは取り出しではない",
    "Z-3.3": "設置：展示かアーカイブのカードを、その色でちょうど支払う。球は生成器へ戻る",
    "Z-3.4": "開発：1つの山札から開発数だけ引き、1枚を設置かファイリング、残りは山札の下へ",
    "Z-4": "上限：最初は貯留5・ファイル1・開発3。増加装置で上がり、下がらない",
    "Z-5": "変換器：支払う球の色を変えるか倍にする。連鎖でき、各ギズモは1手番に1回",
    "Z-6": "アップグレード：増加・禁止・割引・汎用のギズモ",
    "Z-6.1": "増加装置は貯留・ファイル・開発の上限を一度に上げる",
    "Z-6.2": "禁止装置は以後ずっとファイリングか開発を禁じる（装置で得たものも）",
    "Z-6.3": "割引：レベルII、アーカイブから、開発からで1少なく。重なるが0未満にはならない",
    "Z-6.4": "汎用ギズモ：好きな色の球7個、設置の装置はすべての色、終了時のボーナス",
    "Z-7": "カードの見方：種類のアイコン（列）、コストの色、得点、レベル",
    "Z-8": "装置と連鎖：アクションごとに合うギズモが動き、各ギズモは1手番に1回",
    "Z-9": "効果：引く、取り出す、勝利点トークン、ファイリング、開発、レベルIの無料設置",
    "Z-10": "生成器：球52個は生成器・エネルギー列・リングのどこか。補充はランダム",
    "Z-11": "終了と得点：4枚目のレベルIIIか16個目のギズモでそのラウンドが最後。勝利点・トークン・"
            "ボーナス・同点の決め方",
    "Z-12": "例外と非公開の情報：満杯のリング、満杯のアーカイブ、空の山札、各席に見えるもの",
    "Z-13": "カード一覧の照合：レベル・色・種類ごとの枚数と、食い違いの解決",
    "Z-14": "他の実装のモデル化（状態遷移、装置のフラグ、支払いの確認）",
    "Z-15": "カード表：各カードのレベル・色・コスト・得点・種類・効果",
    "Z-16": "カードデータの項目と効果の書き方",
}
