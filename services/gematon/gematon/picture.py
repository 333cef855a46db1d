"""Gematon drawn as SVG from a view alone (``Engine.picture`` passes one): the bag, the
four altars, the score track, and each seat's ritual board — stack, hand, blessing gauge,
pentacle with its sets, witch — with whose turn it is and the running scores.

``picture(view, seat=…, lang=…)`` is a pure function returning an SVG string built with
ElementTree: a chip, a hidden chip and a pawn are each defined once in ``<defs>`` and
placed with ``<use>``; the root has a ``viewBox``; things carry CSS classes a page can
restyle; ``<title>``/``<desc>`` say the position in English or Japanese. 360 units wide,
legible on a phone. Another seat's hand and the bag are counts in the view (GM-6.2), so
they are drawn as chip backs with their number, never as values.
"""

import math

from referee.svg import WIDTH, document, number, uses
from referee.svg import element as _el
from referee.svg import fitted as _fitted

from .board import ALTARS, BLACK_ALTAR, CELLS, GAUGE_CELLS, PRINTED_SQUARES
from .scoring import PATTERNS, seat_score

INK, PAPER, MUTED = "#111111", "#ffffff", "#555555"
SEAT_COLOURS = ("#c62828", "#1565c0", "#f9a825", "#2e7d32")  # pawns and markers
SEAT_INK = (PAPER, PAPER, INK, PAPER)
PATTERN_COLOURS = {"pure": "#6a1b9a", "nine": "#00838f", "cover": "#ef6c00"}
CHIP_R = 15
PANEL = 196  # a seat's ritual board
TRACK_LANE, SQUARE = 20, 15  # a pawn's lane of the score track, and one square of it

WORDS = {
    "en": {
        "game": "Gematon", "title": "Gematon — {who}, version {version}",
        "public": "public view", "seat_view": "seat {seat}'s view", "seat": "Seat {seat}",
        "to_move": "Seat {seat} to move", "chance": "Chance: the bag or the witches",
        "pick": "Seat {seat} picks a witch", "over": "Game over", "wins": "seat {seat} wins",
        "round": "round {round} of 7", "todo": {"pushed": "push", "operated": "operate"},
        "left": "still to do: {steps}", "done": "turn done",
        "bag": "Bag", "altars": "Altars", "track": "Score track",
        "altar": {"w1": "White 1", "w2": "White 2", "w3": "White 3", "black": "Black"},
        "stack": "Stack ↑", "hand": "Hand", "gauge": "Blessing", "witch": "Witch {n}",
        "awake": "awakened", "asleep": "normal side", "no_witch": "no witch yet",
        "total": ("{} pt", "{} pts"), "track_part": "track {n}", "gauge_part": "blessing {n}",
        "patterns": {"pure": "Pure", "nine": "Nine", "cover": "Cover", "none": "no pattern"},
        "desc_seat": "Seat {seat}: track {position}, blessing cell {gauge}, stack {stack} "
                     "(bottom to top), hand {hand}, pentacle (cell: chip) {pentacle}; {sets}; "
                     "score {total}.",
        "hidden": "{n} hidden", "empty": "empty", "no_sets": "no set",
        "desc_bag": "Bag: {n} chips.", "desc_altars": "Altars: {altars}.",
    },
    "ja": {
        "game": "ゲマトン", "title": "ゲマトン — {who}・版{version}",
        "public": "公開の視点", "seat_view": "プレイヤー{seat}の視点", "seat": "プレイヤー{seat}",
        "to_move": "プレイヤー{seat}の手番", "chance": "偶然：袋か魔女ボード",
        "pick": "プレイヤー{seat}が魔女ボードを選ぶ", "over": "ゲーム終了",
        "wins": "プレイヤー{seat}の勝ち",
        "round": "第{round}ラウンド（全7）", "todo": {"pushed": "プッシュ", "operated": "オペレート"},
        "left": "残り：{steps}", "done": "手番終了",
        "bag": "袋", "altars": "祭壇", "track": "得点トラック",
        "altar": {"w1": "白1", "w2": "白2", "w3": "白3", "black": "黒"},
        "stack": "スタック↑", "hand": "ハンド", "gauge": "恩恵", "witch": "魔女{n}",
        "awake": "覚醒面", "asleep": "通常面", "no_witch": "魔女なし",
        "total": ("{}点", "{}点"), "track_part": "トラック{n}", "gauge_part": "恩恵{n}",
        "patterns": {"pure": "ピュア", "nine": "ナイン", "cover": "カバー", "none": "役なし"},
        "desc_seat": "プレイヤー{seat}：トラック{position}、恩恵ゲージ{gauge}、スタック{stack}"
                     "（下から）、ハンド{hand}、ペンタクル（マス：チップ）{pentacle}、{sets}、"
                     "得点{total}。",
        "hidden": "{n}枚（非公開）", "empty": "なし", "no_sets": "セットなし",
        "desc_bag": "袋：{n}枚。", "desc_altars": "祭壇：{altars}。",
    },
}


def picture(view: dict, *, seat=None, lang: str = "en") -> str:
    """The SVG of ``view`` as ``seat`` (None: a spectator) sees it, in ``lang``."""
    words = WORDS[lang]
    scores = [seat_score(n, s["position"], s["gauge"], s["pentacle"], view["options"], n)
              for n, s in enumerate(view["seats"], 1)]
    players = len(view["seats"])
    track_top = 190
    panels_top = track_top + 30 + TRACK_LANE * players + 24
    height = panels_top + PANEL * players + 8
    root = _el(None, "svg", xmlns="http://www.w3.org/2000/svg", viewBox=f"0 0 {WIDTH} {height}",
               width=WIDTH, height=height, class_="gematon", font_family="sans-serif",
               role="img")
    who = words["seat_view"].format(seat=seat) if seat else words["public"]
    _el(root, "title", words["title"].format(who=who, version=view["version"]))
    _el(root, "desc", describe(view, scores, words))
    _defs(root)
    _el(root, "rect", class_="background", width=WIDTH, height=height, fill=PAPER)
    _el(root, "text", f"{words['game']} · {who}", x=12, y=24, font_size=16,
        font_weight="bold", fill=INK)
    _banner(root, view, scores, words)
    _altars(root, view, words)
    _track(root, view, track_top, words)
    for n, (shown, score) in enumerate(zip(view["seats"], scores), 1):
        _panel(root, view, n, shown, score, panels_top + PANEL * (n - 1), words)
    return document(root)


def _headline(view, scores, words) -> tuple[str, str]:
    """The banner's text and the turn's progress (what the seat still has to do)."""
    to_move = view["to_move"]
    if not to_move:  # GM-5.3: on equal scores the seat later in turn order ranks higher
        best = max(scores, key=lambda s: (s["total"], s["seat"]))
        return f"{words['over']} · {words['wins'].format(seat=best['seat'])}", ""
    if to_move == ["chance"]:
        return words["chance"], ""
    mover = to_move[0]
    turn = view["turn"]
    if turn is None:
        return words["pick"].format(seat=mover), ""
    steps = [words["todo"][k] for k in ("pushed", "operated") if not turn[k]]
    progress = words["left"].format(steps=" + ".join(steps)) if steps else words["done"]
    return words["to_move"].format(seat=mover), \
        f"{words['round'].format(round=turn['round'])} · {progress}"


def _banner(root, view, scores, words) -> None:
    text, progress = _headline(view, scores, words)
    mover = view["to_move"][0] if view["to_move"] else None
    fill, ink = ("#424242", PAPER) if not isinstance(mover, int) else \
        (SEAT_COLOURS[mover - 1], SEAT_INK[mover - 1])
    band = _el(root, "g", class_="to-move")
    _el(band, "rect", x=8, y=34, width=WIDTH - 16, height=34, rx=6, fill=fill)
    _el(band, "text", text, x=WIDTH // 2, y=57, font_size=_fitted(text, 18),
        font_weight="bold", fill=ink, text_anchor="middle")
    if progress:
        _el(band, "text", progress, x=WIDTH // 2, y=88, font_size=14, fill=INK,
            text_anchor="middle", class_="progress")


def _altars(root, view, words) -> None:
    """The bag (a count, GM-6.2) and the four altars with their chips (GM-1.3)."""
    group = _el(root, "g", class_="altars")
    _el(group, "use", href="#back", x=30, y=138, class_="bag")
    _el(group, "text", words["bag"], x=30, y=112, font_size=14, fill=MUTED,
        text_anchor="middle")
    _el(group, "text", f"×{view['bag']['count']}", x=30, y=178, font_size=16,
        font_weight="bold", fill=INK, text_anchor="middle")
    for i, altar in enumerate(ALTARS):
        x = 66 + i * 73
        black = altar == BLACK_ALTAR
        box = _el(group, "g", class_=f"altar {altar}",
                  data_uses=uses({"type": "operate", "altar": altar}))
        _el(box, "rect", x=x, y=118, width=68, height=42, rx=6,
            fill="#212121" if black else "#f5f5f5", stroke=INK, stroke_width=2)
        _el(box, "text", words["altar"][altar], x=x + 34, y=112, font_size=14, fill=INK,
            text_anchor="middle")
        for j, chip in enumerate(view["altars"][altar]):  # operate takes it by its value
            _chip(box, chip, x + 17 + 34 * j, 139,
                  {"type": "operate", "altar": altar, "take": chip})


def _track(root, view, top, words) -> None:
    """The score track, one lane per pawn so none hides another; past the printed squares
    (GM-5.4) a pawn waits at the end of its lane with its number."""
    group = _el(root, "g", class_="track")
    _el(group, "text", words["track"], x=12, y=top + 18, font_size=14, fill=MUTED)
    cell = SQUARE
    for n, shown in enumerate(view["seats"], 1):
        y = top + 28 + TRACK_LANE * (n - 1)
        lane = _el(group, "g", class_=f"lane seat{n}")
        _el(lane, "use", href="#lane", x=20, y=y)
        position = shown["position"]
        x = 20 + min(position, PRINTED_SQUARES) * cell + cell / 2
        _pawn(lane, n, x, y + TRACK_LANE / 2 - 1)
        _el(lane, "text", str(position), x=WIDTH - 4, y=y + 14, font_size=14,
            font_weight="bold", fill=INK, text_anchor="end")
    below = top + 28 + TRACK_LANE * len(view["seats"]) + 12
    for square in range(0, PRINTED_SQUARES + 1, 5):
        _el(group, "text", str(square), x=20 + square * cell + cell / 2, y=below,
            font_size=12, fill=MUTED, text_anchor="middle", class_="tick")


def _panel(root, view, n, shown, score, top, words) -> None:
    """One seat's ritual board: witch, score, stack, hand, gauge and pentacle."""
    acting = n in view["to_move"]
    panel = _el(root, "g", class_=f"seat seat{n}{' acting' if acting else ''}")
    _el(panel, "rect", x=4, y=top, width=WIDTH - 8, height=PANEL - 6, rx=8,
        fill="#fff3c4" if acting else "#f4f4f4", stroke=SEAT_COLOURS[n - 1], stroke_width=3)
    _pawn(panel, n, 22, top + 20)
    witch = view["witches"][n - 1]
    side = words["awake"] if view["awakened"] else words["asleep"]
    who = f"{words['witch'].format(n=witch)} · {side}" if witch else words["no_witch"]
    _el(panel, "text", ("▶ " if acting else "") + words["seat"].format(seat=n), x=40,
        y=top + 25, font_size=16, font_weight="bold", fill=INK)
    _el(panel, "text", who, x=14, y=top + 46, font_size=13, fill=INK, class_="witch")
    points = words["total"][score["total"] != 1].format(score["total"])
    _el(panel, "text", points, x=WIDTH - 14, y=top + 25, font_size=17, font_weight="bold",
        fill=INK, text_anchor="end")
    breakdown = score["breakdown"]
    _el(panel, "text", _sum(breakdown, words), x=14, y=top + PANEL - 16, font_size=13,
        fill=INK, class_="breakdown")
    _el(panel, "text", words["stack"], x=14, y=top + 68, font_size=13, fill=MUTED)
    for i, chip in enumerate(shown["stack"]):  # bottom first, drawn upwards
        _chip(panel, chip, 32, top + 140 - 32 * i)
    _el(panel, "text", words["hand"], x=86, y=top + 68, font_size=13, fill=MUTED)
    hand = shown["hand"]
    if isinstance(hand, dict):  # another seat's hand: its size only (GM-6.2)
        _el(panel, "use", href="#back", x=102, y=top + 88, class_="hidden-hand")
        _el(panel, "text", f"×{hand['count']}", x=122, y=top + 94, font_size=16,
            font_weight="bold", fill=INK)
    else:
        for i, chip in enumerate(hand):  # a push names it by its value
            _chip(panel, chip, 102 + 33 * i, top + 88, {"seat": n, "type": "push", "chip": chip})
    _gauge(panel, shown["gauge"], view["options"]["blessing_values"], 86, top + 126, words)
    _pentacle(panel, n, shown["pentacle"], breakdown["lines"], 284, top + 98)


def _sum(breakdown, words) -> str:
    """The score's parts: track, blessing, and each scoring pattern with its count."""
    parts = [words["track_part"].format(n=breakdown["track"]),
             words["gauge_part"].format(n=breakdown["gauge"])]
    for pattern, points in PATTERNS.items():
        count = breakdown["patterns"].get(pattern, 0)
        if count and points:
            parts.append(f"{words['patterns'][pattern]} {points}" + (f"×{count}" if count > 1
                                                                     else ""))
    return " + ".join(parts)


def _gauge(panel, cell, values, x, y, words) -> None:
    """The blessing gauge, cells 0..6 with their values (GM-1.6), the marker's cell marked."""
    _el(panel, "text", words["gauge"], x=x, y=y - 5, font_size=13, fill=MUTED)
    for k in range(GAUGE_CELLS):
        marked = k == cell
        _el(panel, "rect", x=x + 19 * k, y=y, width=18, height=24, rx=3,
            fill=INK if marked else PAPER, stroke=INK, stroke_width=1,
            class_="gauge marker" if marked else "gauge")
        _el(panel, "text", str(values[k]), x=x + 19 * k + 9, y=y + 17, font_size=13,
            font_weight="bold", fill=PAPER if marked else INK, text_anchor="middle")


def _pentacle(panel, n, pentacle, lines, cx, cy) -> None:
    """The 7 cells on a circle; each set (a complete line) joins its cells, thick in its
    pattern's colour when it scores, thin and grey when not (GM-1.5, GM-3.6, GM-5.2). Each
    cell, empty or filled, stands for operate's ``cell``: the target of an operation, and
    where the last one placed its chip."""
    radius = 50
    spots = [(cx + radius * math.sin(2 * math.pi * k / CELLS),
              cy - radius * math.cos(2 * math.pi * k / CELLS)) for k in range(CELLS)]
    group = _el(panel, "g", class_="pentacle")
    _el(group, "circle", cx=cx, cy=cy, r=radius, fill="none", stroke="#bdbdbd",
        stroke_width=1.5)
    sets = [line for line in lines if line["pattern"] != "incomplete"]
    for line in sorted(sets, key=lambda line: line["points"]):  # the scoring ones on top
        points = " ".join(f"{number(x)},{number(y)}" for x, y in
                          (spots[c] for c in line["cells"]))
        _el(group, "polygon", points=points, fill="none",
            stroke=PATTERN_COLOURS.get(line["pattern"], "#9e9e9e"),
            stroke_width=4 if line["points"] else 1.5, stroke_linejoin="round",
            class_=f"set {line['pattern']}")
    for k, (x, y) in enumerate(spots):
        used = {"seat": n, "type": "operate", "cell": k}
        if pentacle[k] is None:
            cell = _el(group, "g", class_="cell empty", data_uses=uses(used))
            _el(cell, "circle", cx=x, cy=y, r=CHIP_R - 2, fill=PAPER, stroke="#9e9e9e",
                stroke_width=1.5, stroke_dasharray="3 2")
            _el(cell, "text", f"#{k}", x=x, y=y + 4, font_size=12, fill=MUTED,
                text_anchor="middle", class_="cell-number")
        else:
            _chip(group, pentacle[k], x, y, used)


def _chip(parent, value, x, y, used: dict | None = None) -> None:
    """A chip; ``used``: the fields of the moves that name it (referee.svg.uses)."""
    chip = _el(parent, "g", class_=f"chip v{value}", **({"data_uses": uses(used)} if used else {}))
    _el(chip, "use", href="#chip", x=x, y=y)
    _el(chip, "text", str(value), x=x, y=y + 6, font_size=17, font_weight="bold", fill=INK,
        text_anchor="middle")


def _pawn(parent, n, x, y) -> None:
    _el(parent, "use", href="#pawn", x=x, y=y, fill=SEAT_COLOURS[n - 1], class_="pawn")
    _el(parent, "text", str(n), x=x, y=y + 5, font_size=13, font_weight="bold",
        fill=SEAT_INK[n - 1], text_anchor="middle")


def describe(view, scores, words) -> str:
    """The position in sentences: what ``<desc>`` holds for people who cannot see it."""
    text, progress = _headline(view, scores, words)
    lines = [" · ".join(part for part in (text, progress) if part),
             words["desc_bag"].format(n=view["bag"]["count"]),
             words["desc_altars"].format(altars=", ".join(
                 f"{words['altar'][a]} {_chips(view['altars'][a], words)}" for a in ALTARS))]
    for n, (shown, score) in enumerate(zip(view["seats"], scores), 1):
        hand = shown["hand"]
        sets = [words["patterns"][line["pattern"]] for line in score["breakdown"]["lines"]
                if line["pattern"] != "incomplete"]
        lines.append(words["desc_seat"].format(
            seat=n, position=shown["position"], gauge=shown["gauge"],
            stack=_chips(shown["stack"], words),
            hand=words["hidden"].format(n=hand["count"]) if isinstance(hand, dict)
            else _chips(hand, words),
            pentacle=", ".join(f"{k}: {v}" for k, v in enumerate(shown["pentacle"])
                               if v is not None) or words["empty"],
            sets=", ".join(sets) or words["no_sets"], total=score["total"]))
    return "\n".join(lines)


def _chips(values, words) -> str:
    return " ".join(map(str, values)) or words["empty"]


def _defs(root) -> None:
    defs = _el(root, "defs")
    _el(defs, "circle", id="chip", r=CHIP_R, fill="#fff8e1", stroke="#5d4037", stroke_width=2)
    back = _el(defs, "g", id="back")
    _el(back, "circle", r=CHIP_R, fill="#4a148c", stroke=INK, stroke_width=2)
    _el(back, "text", "?", y=6, font_size=17, font_weight="bold", fill=PAPER,
        text_anchor="middle")
    _el(defs, "circle", id="pawn", r=8, stroke=INK, stroke_width=1.5)
    lane = _el(defs, "g", id="lane")  # the printed squares 0..20, every fifth darker
    for square in range(PRINTED_SQUARES + 1):
        _el(lane, "rect", x=square * SQUARE, width=SQUARE, height=TRACK_LANE - 2,
            fill="#eeeeee" if square % 5 else "#d6d6d6", class_="square")
