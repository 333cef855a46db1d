"""Why a move is refused: the most specific rule it breaks (fields may be any JSON)."""

from referee.engine import CHANCE, repr_json

from .board import ALTARS, BLACK_ALTAR, CELLS, VALUES, WHITE_ALTARS, is_chip
from .rules import operate_choices
from .setup import free_witches, setup_steps

SEAT_MOVES = ("push", "operate", "pick_witch")


def spoken(values, conjunction: str = "and") -> str:
    """The engine's own values (chips, altars, witches) as a person lists them: "1, 2 and
    4", "w1 and w3". A caller's values are written as JSON first (``repr_json``)."""
    words = [str(v) for v in values]
    if len(words) < 2:
        return "".join(words) or "none"
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def why_illegal(state: dict, move: dict) -> tuple[str, str] | None:
    if move.get("seat") == CHANCE:
        return _why_bad_chance(state, move)
    kind = move.get("type")
    if kind not in SEAT_MOVES:
        return "GM-3.8", (f"unknown move type {repr_json(kind)}; a seat's move is "
                          f"{spoken(SEAT_MOVES, 'or')}")
    if state["phase"] == "setup":
        if kind != "pick_witch":
            return "GM-2.1", "the witch draft is on: pick a witch first"
        free = free_witches(state)
        if move.get("witch") not in free:
            return "GM-2.1", (f"witch {repr_json(move.get('witch'))} is not left to pick; "
                              f"pick {spoken(free, 'or')}")
        return None
    if kind == "pick_witch":
        return "GM-2.1", "witches are picked only during the setup's draft"
    if kind == "push":
        return _why_bad_push(state, move)
    return _why_bad_operate(state, move)


def _why_bad_push(state, move):
    if state["turn"]["pushed"]:
        return "GM-3.2", "this turn's Push is done: one Push per turn"
    hand = state["seats"][move["seat"] - 1]["hand"]
    chip = move.get("chip")
    if not is_chip(chip) or chip not in hand:
        return "GM-3.3", (f"no chip {repr_json(chip)} in the hand: it holds "
                          f"{spoken(hand)}")
    return None


def _why_bad_operate(state, move):
    if state["turn"]["operated"]:
        return "GM-3.2", "this turn's Operate is done: one Operate per turn"
    altar, take, cell = move.get("altar"), move.get("take"), move.get("cell")
    if altar not in ALTARS:
        return "GM-1.3", f"no altar {repr_json(altar)}; the altars are {spoken(ALTARS)}"
    seat = move["seat"]
    choices = operate_choices(state, seat)
    result, (top, second) = choices["result"], choices["popped"]
    held = state["altars"][altar]
    white = [a for a in WHITE_ALTARS if result in state["altars"][a]]
    how = f"{top} × {second} → {result}"
    if altar in WHITE_ALTARS and result not in held:
        return "GM-3.4", (f"{altar} holds {spoken(held)}, not the operation's result "
                          f"({how})")
    if altar in WHITE_ALTARS and take != result:
        return "GM-3.4", (f"from a white altar the seat takes the result {result}, "
                          f"not {repr_json(take)}")
    if altar == BLACK_ALTAR and white:
        return "GM-3.4", (f"the black altar is used only when no white altar holds the result; "
                          f"{spoken(white)} {'holds' if len(white) == 1 else 'hold'} "
                          f"{result} ({how})")
    if altar == BLACK_ALTAR and (not is_chip(take) or take not in held):
        return "GM-3.4", (f"the black altar holds {spoken(held)}: take one of them, "
                          f"not {repr_json(take)}")
    if type(cell) is not int or not 0 <= cell < CELLS:
        return "GM-1.5", f"no pentacle cell {repr_json(cell)}; cells are 0 to {CELLS - 1}"
    if state["seats"][seat - 1]["pentacle"][cell] is not None:
        return "GM-3.4", f"pentacle cell {cell} holds a chip: place on an empty cell"
    return None


def _why_bad_chance(state, move):
    kind = move.get("type")
    if state["phase"] == "setup":
        step = setup_steps(state["players"], state["options"]["draft"])[state["setup_step"]]
        if step[0] in ("deal", "remove"):
            expected = "deal_witch" if step[0] == "deal" else "remove_witch"
            if kind != expected:
                return "GM-2.1", f"the pending chance event is {expected}"
            if step[0] == "deal" and move.get("holder") != step[1]:
                return "GM-2.1", f"this witch is dealt to seat {step[1]}"
            if move.get("witch") not in free_witches(state):
                return "GM-2.1", (f"witch {repr_json(move.get('witch'))} is not left to "
                                  f"deal; left: {spoken(free_witches(state))}")
            return None
        into, holder, rule = step[1], step[2], "GM-2.2"
    else:
        into, holder, rule = "hand", state["turn"]["seat"], "GM-3.1"
    if kind != "draw":
        return rule, "the pending chance event is a draw from the bag"
    if move.get("into") != into or move.get("holder") != holder:
        where = f"altar {holder}" if into == "altar" else f"seat {holder}'s {into}"
        return rule, (f"this draw goes onto {where}: the move must say \"into\": "
                      f"{repr_json(into)}, \"holder\": {repr_json(holder)}, as legal-moves "
                      "lists it")
    chip = move.get("chip")
    if not is_chip(chip):
        return "GM-1.2", f"no chip value {repr_json(chip)}; the values are {spoken(VALUES)}"
    if state["bag"][str(chip)] == 0:
        return "GM-6.1", f"no chip {chip} is left in the bag"
    return None



#: each rule id of RULES.md in Japanese (the words of text.py: チップ, 祭壇, スタック, ハンド):
#: what a refusal's Japanese detail says of the rule it breaks
RULES_JA = {
    "GM-1": "コンポーネント",
    "GM-2": "準備",
    "GM-3": "手番",
    "GM-4": "魔女",
    "GM-5": "終了と得点",
    "GM-6": "偶然と非公開の情報",
    "GM-1.1": "2〜4人、席1から時計回りで、席1が最初",
    "GM-1.2": "袋にはチップが54枚：1・2・4・5・7・8が9枚ずつ",
    "GM-1.3": "白の祭壇3つと黒の祭壇1つに、チップが2枚ずつ",
    "GM-1.4": "各席にスタック、ハンド、ポップ置き場、恩恵ゲージ、ペンタクル、魔女",
    "GM-1.5": "ペンタクルは7マスと7本の列で、そろった列が役",
    "GM-1.6": "恩恵ゲージの各マスの値",
    "GM-1.7": "得点トラック：席kの駒はk−1から始まる",
    "GM-2.1": "魔女はランダムに配るか、ドラフトする（上級ルール）",
    "GM-2.2": "準備で袋から引く枚数と順番",
    "GM-3.1": "補充：袋からチップを1枚ハンドへ",
    "GM-3.2": "プッシュとオペレートを両方、好きな順に行う",
    "GM-3.3": "プッシュ：ハンドのチップを1枚スタックへ",
    "GM-3.4": "オペレート：2枚取り出し、祭壇から数字根を取り、もう1枚を置く",
    "GM-3.5": "黒の祭壇のペナルティ：駒を1つ下の駒と入れ替える",
    "GM-3.6": "恩恵：役ができた手番は、ゲージの値だけ駒が進む",
    "GM-3.7": "行き過ぎ：駒は他の駒と同じマスに止まらない",
    "GM-3.8": "手の形",
    "GM-4.1": "ゲームで最初の役ができると、すべての魔女が覚醒する",
    "GM-4.2": "覚醒面の能力は非公開：効果のないフックのみ",
    "GM-5.1": "全員のペンタクルが埋まるとゲーム終了（7ラウンド）",
    "GM-5.2": "得点：トラック＋ゲージの値＋各列の役",
    "GM-5.3": "同点なら手番が後の席が上位",
    "GM-5.4": "20マスを超えた位置はそのままの整数",
    "GM-6.1": "偶然：魔女の配布と袋からの引き（残りのチップ数で重みづけ）",
    "GM-6.2": "非公開：他の席のハンドと袋の中身",
}
