"""Why a move is illegal: the rule it breaks and a sentence saying how (``_why_illegal``).

Asked only about a move the rules do not list, which may hold any JSON in any field;
values are written as on the board (b2, N) or, when they are not, as JSON.
"""

from referee.engine import CHANCE, repr_json

from .board import DIE, GHOST_ESCAPE, NEIGHBOURS, ORTHOGONAL, PLATES, step
from .rules import occupied, rock_directions
from .wire import MOVES

NOUNS = {"place": "placement", "move": "piece move", "pass": "pass", "roll": "die roll"}


def why_illegal(state, move):
    kind, seat = move.get("type"), move["seat"]
    if seat == CHANCE:
        return _why_bad_roll(move)
    if kind == "roll":
        return "G-8.1", ('the die is chance\'s to roll, not a seat\'s: a table enters it as '
                         'seat "chance" before seat 1\'s turn')
    if kind not in ("place", "move", "pass"):
        return "G-9", f"unknown move type {repr_json(kind)}: a seat places, moves or passes"
    if state["phase"] == "placement" and kind != "place":
        return "G-2.2", "the placement phase is on: place a piece"
    if state["phase"] != "placement" and kind == "place":
        return "G-2.2", "the placement phase is over"
    if shape := _why_bad_shape(move):
        return shape
    if kind == "place":
        return _why_bad_placement(state, move)
    if kind == "pass":
        return "G-3.3", "passing is allowed only when no piece can move"
    return _why_bad_move(state, move, seat)


def _why_bad_roll(move):
    if move.get("type") != "roll":
        return "G-8.1", "the only chance event is the die roll: a move of type \"roll\""
    if move.get("dir") not in DIE:
        return "G-1.5", f"the die shows {_listed(DIE, 'or')}, not {_word(move.get('dir'))}"
    return _why_bad_shape(move)


def _why_bad_shape(move):
    """G-9: a move has exactly its type's fields (``wire.MOVES``)."""
    kind = move["type"]
    schema = MOVES[kind]
    missing = [f for f in schema["required"] if f not in move]
    extra = sorted(f for f in move if f not in schema["properties"])
    if missing:
        return "G-9", f"a {NOUNS[kind]} names {_listed(schema['required'], 'and')}: " \
                      f"{_listed(missing, 'and')} {'is' if len(missing) == 1 else 'are'} missing"
    if extra:
        return "G-9", f"a {NOUNS[kind]} has no field {_listed(map(repr_json, extra), 'or')}"
    return None


def _why_bad_placement(state, move):
    plate, rocks = move["plate"], move["rocks"]
    if plate not in PLATES:
        return "G-1.1", f"there is no plate {_word(plate)}: plates are a1 to d4"
    if plate in occupied(state):
        return "G-2.3", f"{plate} already holds a piece"
    if not isinstance(rocks, list) or len(rocks) != 3 or len(set(map(repr_json, rocks))) != 3:
        return "G-2.3", "choose exactly 3 distinct neighbouring plates for rocks"
    wrong = [r for r in rocks if r not in NEIGHBOURS[plate]]
    if wrong:
        are = "is not a neighbour" if len(wrong) == 1 else "are not neighbours"
        return "G-2.3", f"{_listed(map(_word, wrong), 'and')} {are} of {plate} " \
                        f"({_listed(NEIGHBOURS[plate], 'and')} are)"
    return None


def _why_bad_move(state, move, seat):
    origin, dest, rock = move["from"], move["to"], move["rock"]
    if origin not in state["pieces"][seat - 1]:
        return "G-4.1", f"seat {seat} has no piece on {_word(origin)}"
    if dest not in PLATES or dest not in [step(origin, d) for d in ORTHOGONAL]:
        return "G-4.1", f"{_word(dest)} is not one plate N, E, S or W of {origin}"
    if dest in state["flipped"]:
        return "G-1.2", f"{dest} is flipped"
    if dest in occupied(state):
        return "G-4.1", f"{dest} holds a piece"
    escapes = state["rocks"][dest] == 0
    allowed = rock_directions(state, origin, dest, escapes)
    if rock is None and allowed:
        return "G-4.3", (f"the rock move is mandatory: push a rock from {origin} "
                         f"({_listed(allowed, 'or')})")
    if rock is not None and not allowed:
        return "G-4.3", f"no rock can move from {origin}: rock must be null"
    if rock is not None and rock not in allowed:
        if rock not in ORTHOGONAL:
            return "G-4.2", f"a rock moves N, E, S or W, not {_word(rock)}"
        if escapes and step(origin, rock) == dest:
            return "G-4.4", f"{dest} flips as the piece escapes: no rock can go there"
        return "G-4.2", f"the rock cannot go {rock} onto flipped {step(origin, rock)}"
    return _why_bad_ghost(state, move, dest, escapes)


def _why_bad_ghost(state, move, dest, escapes):
    third_escape = escapes and len(state["escapes"]) == GHOST_ESCAPE - 1
    ghost = move.get("ghost")
    if third_escape and ghost is None:
        return "G-6.1", "this escape is the game's 3rd: name the ghost's plate"
    if not third_escape and "ghost" in move:
        return "G-6.1", "the ghost is placed only with the game's 3rd escape"
    if third_escape and ghost not in PLATES:
        return "G-6.1", f"there is no plate {_word(ghost)} for the ghost"
    if third_escape and ghost in state["flipped"]:
        return "G-6.1", f"{ghost} is flipped: the ghost goes on a face-up plate"
    if third_escape and ghost == dest:
        return "G-6.1", f"{dest} flips with this escape: the ghost goes on a face-up plate"
    return None


def _word(value) -> str:
    """A plate or a direction as written on the board; anything else as JSON."""
    if isinstance(value, str) and (value in PLATES or value in DIE):
        return value
    return repr_json(value)


def _listed(words, conjunction: str) -> str:
    """``a1, a2 and a3`` (or ``… or …``)."""
    words = list(words)
    return words[0] if len(words) == 1 else \
        f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


#: each rule id of RULES.md in Japanese (the source's words: 駒, 岩, プレート, オバケ, 賽子):
#: what a refusal's Japanese detail says of the rule it breaks
RULES_JA = {
    "G-1": "コンポーネントと盤",
    "G-2": "準備（配置フェーズ）",
    "G-3": "手番の順",
    "G-4": "手番",
    "G-5": "脱出",
    "G-6": "オバケ",
    "G-7": "終了と得点",
    "G-8": "偶然と非公開の情報",
    "G-1.1": "盤は4×4のプレート（a1〜d4）で、4段目が北",
    "G-1.2": "裏返ったプレートには駒も岩も二度と置けない",
    "G-1.3": "3人か4人で遊び、駒は1人3個か2個",
    "G-1.4": "どのプレートも岩1個で始まる",
    "G-1.5": "オバケが1体と、8面の賽子が1個",
    "G-2.1": "席は1からNまで",
    "G-2.2": "配置の順番（1,2,3,4,4,3,2,1 または 1,2,3,2,3,1,3,1,2）",
    "G-2.3": "配置：空いたプレートに駒を置き、隣の3枚に岩を1個ずつ追加する",
    "G-2.4": "配置が終わると岩は40個（4人）か43個（3人）",
    "G-3.1": "最後の席から始め、番号順に回る",
    "G-3.2": "駒のない席は飛ばす",
    "G-3.3": "パスできるのは、どの駒も動かせないときだけ",
    "G-4.1": "駒は縦横に1プレート、空いた表向きのプレートへ動く",
    "G-4.2": "次に移動元の岩を1個、1マス動かす（盤の外へ出てもよい）",
    "G-4.3": "岩を動かせるときは必ず動かす",
    "G-4.4": "駒が先に動く：脱出したプレートは岩が動く前に裏返る",
    "G-5.1": "岩のないプレートに入った駒は脱出し、そのプレートは裏返る",
    "G-5.2": "脱出の得点は、岩を動かす前の移動元の岩の数",
    "G-5.3": "最初の3回の脱出にはボーナス +3、+2、+1",
    "G-6.1": "3回目の脱出でオバケを表向きのプレートに置く",
    "G-6.2": "席1の手番の前に賽子を振り、オバケが岩を取る",
    "G-6.3": "オバケは裏返ったプレートを飛び越え、盤の端はつながっている",
    "G-6.4": "オバケは駒に影響しない",
    "G-7.1": "駒が1人分（または0）しか残らなければゲーム終了",
    "G-7.2": "全員が続けてパスする一巡でゲーム終了",
    "G-7.3": "得点は脱出点とボーナスの合計で、最高点の人が勝ち",
    "G-7.4": "得点はいつでも見られ、終了時に確定する",
    "G-8.1": "偶然の出来事は賽子を振ることだけ",
    "G-8.2": "非公開の情報はない",
    "G-9": "手は決まった形のJSONで送る",
}
