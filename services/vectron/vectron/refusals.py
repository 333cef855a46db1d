"""Why a move is refused: the most specific rule it breaks, in words.

Called only for moves already known to be illegal (or chance entries known to
be impossible), so every field may be any JSON value.
"""

from collections import Counter

from referee.engine import canonical

from .board import CARDS, CELLS, SWAP_CARD, piece
from .position import layout_chips
from .rules import card_destinations, is_first_move, piece_cell
from .wording import words

SEAT_MOVES = {"draw": {"type", "seat", "source"}, "place": {"type", "seat", "card"},
              "move": {"type", "seat", "to"}, "stop": {"type", "seat"}}
PHASE_MOVES = {"draw": ("draw",), "place": ("place",), "move": ("move", "stop")}


def move_problem(state: dict, move: dict) -> tuple[str, str]:
    kind, seat, phase = move.get("type"), move["seat"], state["phase"]
    if kind not in SEAT_MOVES:
        return "V-8", (f"unknown move type {canonical(kind)}: a move is a "
                       f"{words(sorted(SEAT_MOVES), 'or')}")
    if kind not in PHASE_MOVES[phase]:
        return _out_of_order(phase, kind, phase == "move" and is_first_move(state, seat))
    if kind == "draw":
        problem = _draw_problem(state, move.get("source"))
    elif kind == "place":
        card = move.get("card")
        problem = None if card in state["hands"][seat - 1] else (
            "V-3.1", f"{canonical(card)} is not in seat {seat}'s hand")
    elif kind == "move":
        problem = _destination_problem(state, seat, move.get("to"))
    else:
        problem = ("V-4.1", "the first move is mandatory: it cannot be stopped") \
            if is_first_move(state, seat) else None
    if problem is None and set(move) != SEAT_MOVES[kind]:
        extra = sorted(set(move) - SEAT_MOVES[kind])
        rule = "V-4.5" if kind == "move" else "V-8"
        return rule, (f"a {kind} move has exactly the fields {words(sorted(SEAT_MOVES[kind]))}, "
                      f"not {words(extra)}" + (" (the card is implied: the next one down the "
                                               "column)" if kind == "move" else ""))
    return problem or ("V-8", f"not a legal move: {canonical(move)}")


def _out_of_order(phase: str, kind: str, first_move: bool) -> tuple[str, str]:
    if phase == "draw":
        return "V-3.1", "the turn starts by drawing a card (deck or the top of a column)"
    if phase == "place":
        return "V-3.1", "after the draw, place one hand card on top of the own column"
    if first_move:
        return "V-4.1", (f"the first move, with the card on top of the own column, is "
                         f"mandatory: move now (not {kind})")
    return "V-4.5", f"the card is drawn and placed already: move on, or stop (not {kind})"


def _draw_problem(state, source):
    if source == "deck":
        return None if state["deck"] else ("V-3.1", "the deck is empty")
    columns = state["columns"]
    if type(source) is not int or not 1 <= source <= len(columns):
        return "V-3.1", f"source must be \"deck\" or a seat number, not {canonical(source)}"
    if not columns[source - 1]:
        return "V-3.1", f"seat {source}'s action column is empty: nothing to draw"
    return None


def _destination_problem(state, seat, dest):
    if dest not in CELLS:
        return "V-1.2", f"{canonical(dest)} is not a cell: cells are a1…d4"
    reachable = card_destinations(state, seat)
    if dest in reachable:
        return None
    card = state["columns"][seat - 1][state["cursor"]]
    if card == SWAP_CARD:
        return "V-4.4", (f"an S card goes to a swap chip's cell: {words(reachable, 'or')}, "
                         f"not {dest}")
    start = piece_cell(state["grid"], seat)
    return "V-4.3", (f"{card} from {start} reaches {words(reachable, 'or')} (walls kick back), "
                     f"not {dest}")


def chance_problem(state: dict, move: dict) -> tuple[str, str]:
    if state["phase"] == "layout":
        return layout_problem(state, move)
    card = move.get("card")
    if move.get("type") != "card" or set(move) != {"type", "seat", "card"}:
        return "V-8", 'a deck draw is entered as {"type":"card","seat":"chance","card":…}'
    if card not in CARDS:
        return "V-1.4", f"{canonical(card)} is not a card: a card is {words(CARDS, 'or')}"
    return "V-7.1", f"no {card} is left in the deck"


def layout_problem(state: dict, move: dict) -> tuple[str, str] | None:
    """Why an entered layout cannot be the grid shuffle of V-2.2 (None: it can)."""
    if move.get("type") != "layout" or set(move) != {"type", "seat", "cells"}:
        return "V-8", 'the setup is entered as {"type":"layout","seat":"chance","cells":{…}}'
    cells = move["cells"]
    if not isinstance(cells, dict) or sorted(cells) != sorted(CELLS):
        return "V-1.2", "cells must give each of a1…d4 exactly once"
    wanted = Counter(layout_chips(state)) + Counter(
        piece(s) for s in range(1, state["players"] + 1))
    names = list(cells.values())
    if not all(isinstance(v, str) for v in names):
        return "V-2.2", "each cell names a chip or a seat's placeholder"
    got = Counter(names)
    if got != +wanted:
        missing, extra = sorted((wanted - got).elements()), sorted((got - wanted).elements())
        return "V-2.2", (f"the layout must use exactly the chips left after V-2.1 and one "
                         f"placeholder per seat: missing {words(missing) or 'nothing'}, "
                         f"unexpected {words(extra) or 'nothing'}")
    return None


#: each rule id of RULES.md in Japanese (the words of text.py: 駒, チップ, マップ, ゲージ,
#: アクション列, 山札): what a refusal's Japanese detail says of the rule it breaks
RULES_JA = {
    "V-1": "コンポーネント",
    "V-1.1": "2〜4人。手番は左へ（席の番号順に一巡）",
    "V-1.2": "仮想の4×4のマップ（a1〜d4）、1マスに1つ",
    "V-1.3": "マップチップ16枚：スター（1〜3）、ゲート、スワップはちょうど2枚（オプション map_chips）",
    "V-1.4": "アクションカード24枚：O1〜O3、D1〜D3、S（オプション action_cards）",
    "V-1.5": "各席に駒、持ちチップ、スターゲージ、得点、手札、アクション列",
    "V-2": "準備",
    "V-2.1": "各席は2スターのチップを持つ",
    "V-2.2": "マップの配置：マップチップと駒ごとの目印1枚を混ぜる",
    "V-2.3": "山札を作り、各席に2枚配る。アクション列は空",
    "V-2.4": "席1から始める",
    "V-3": "手番：引いて出す",
    "V-3.1": "1枚引き（山札か、誰かのアクション列の一番上）、手札の1枚を自分のアクション列に出す",
    "V-3.2": "倒れた席は山札の一番上を自分の列に置き、駒を起こす",
    "V-4": "移動",
    "V-4.1": "最初の移動は出したばかりのカードで行い、必ず行う",
    "V-4.2": "O・Dのカード：4方向のどれかへ、dマス跳ぶ",
    "V-4.3": "壁での跳ね返り：各軸は端で折り返す。行き先は区別される",
    "V-4.4": "Sのカード：どちらかのスワップチップのマスへ",
    "V-4.5": "列を下へ追加移動するか、ストップする",
    "V-4.6": "ゲージが7以上になると、手番はすぐに終わる",
    "V-5": "行き先で起こること",
    "V-5.1": "スターチップ：それを取り、前の持ちチップを置いていく",
    "V-5.2": "ゲートチップ：V-5.1と同じで、手放したスターの数だけゲージが上がる",
    "V-5.3": "スワップチップ：駒とスワップチップのマスを入れ替える",
    "V-5.4": "他の駒：マスとチップを入れ替え、その駒を倒す（倒れていれば起こす）",
    "V-5.5": "自分のマス：何も起こらず、カードは使ったことになる",
    "V-5.6": "ジャスト3のボーナス：文章が失われ、フックのみ",
    "V-6": "手番の終わり、決算、リフレッシュ",
    "V-6.1": "ゲージが7か山札が空なら、手番の終わりに決算する",
    "V-6.2": "決算：3〜4人は順位（同順位あり）、2人はゲージの差",
    "V-6.3": "リフレッシュ：駒を起こし、ゲージを0にし、カードを集めて混ぜて配る",
    "V-6.4": "得点が6以上でゲーム終了。最高得点の人が勝ち",
    "V-7": "偶然と非公開の情報",
    "V-7.1": "偶然：マップの配置と、山札から出るすべてのカード",
    "V-7.2": "他の人の手札と山札の順番は見えない",
    "V-8": "クライアントが送るJSON",
}
