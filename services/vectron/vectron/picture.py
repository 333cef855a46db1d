"""Vectron drawn as SVG from a view alone (``Engine.picture`` passes one): the map of chips
and pieces, the deck, and each seat's held chip, star gauge, score, hand and action
column, with whose turn it is and what the turn waits for.

``picture(view, seat=…, lang=…)`` is a pure function returning an SVG string built with
ElementTree: each chip, piece and card back is defined once in ``<defs>`` and placed with
``<use>``; the root has a ``viewBox``; cells and marks carry CSS classes a page can
restyle; ``<title>``/``<desc>`` say the position in English or Japanese. 360 units wide,
legible on a phone. Another seat's hand and the deck are counts in the view (V-7.2), so
they are drawn as card backs with their number, never as cards.
"""

from referee.svg import WIDTH, document, uses
from referee.svg import element as _el
from referee.svg import fitted as _fitted

from .board import CELLS, CHIP_NAMES, FILES, GAUGE_LIMIT, RANKS, WINNING_SCORE

CELL, GAP, LEFT, TOP = 64, 3, 34, 92  # the map: cell size, gap, top-left corner
MAP = 4 * CELL + 3 * GAP
CARD_W, CARD_H, PER_ROW = 38, 50, 8  # an action card; a column wraps after 8
GAUGE_CELLS = 10  # 0..9: a gauge never passes 9 (V-4.6: 6 plus a 3-star chip)
INK, PAPER, MUTED = "#111111", "#ffffff", "#555555"
SEAT_COLOURS = ("#c62828", "#1565c0", "#f9a825", "#2e7d32")
SEAT_INK = (PAPER, PAPER, INK, PAPER)
CARD_COLOURS = {"O": "#bbdefb", "D": "#c8e6c9", "S": "#e1bee7"}  # orthogonal, diagonal, swap
CARD_MARKS = {"O": "✚", "D": "✖", "S": "⇄"}
STAR_SPOTS = {1: ((0, 0),), 2: ((-8, 0), (8, 0)), 3: ((-8, 5), (8, 5), (0, -8))}

WORDS = {
    "en": {
        "game": "Vectron", "title": "Vectron — {who}, version {version}",
        "public": "public view", "seat_view": "seat {seat}'s view", "seat": "Seat {seat}",
        "phase": {"draw": "Seat {seat}: draw a card", "place": "Seat {seat}: place a card",
                  "move": "Seat {seat}: move or stop", "layout": "Chance: the map is laid out",
                  "deal": "Chance: cards are dealt", "deck_draw": "Chance: a card is drawn",
                  "forced_draw": "Chance: a fallen seat's card"},
        "over": "Game over", "wins": "won by {seats}", "deck": "Deck",
        "seats": ("seat {}", "seats {} and {}"),
        "held": "Held", "gauge": "Gauge", "score": "score {score}/{goal}", "hand": "Hand",
        "column": "Column (bottom → top)", "fallen": "fallen", "empty": "empty",
        "no_map": "The map is not laid out yet",
        "settled": "Last settlement: gauges {gauges} → points {points}",
        "desc_seat": "Seat {seat}: piece on {cell}{fallen}, holds a {held}, gauge {gauge}, "
                     "score {score}; hand {hand}; column {column}.",
        "hidden": "{n} hidden cards", "desc_map": "Map: {cells}.", "desc_deck": "Deck: {n}.",
    },
    "ja": {
        "game": "Vectron", "title": "Vectron — {who}・版{version}",
        "public": "公開の視点", "seat_view": "プレイヤー{seat}の視点", "seat": "プレイヤー{seat}",
        "phase": {"draw": "プレイヤー{seat}：カードを引く", "place": "プレイヤー{seat}：カードを置く",
                  "move": "プレイヤー{seat}：移動かストップ", "layout": "偶然：マップの配置",
                  "deal": "偶然：カードを配る", "deck_draw": "偶然：山札から引く",
                  "forced_draw": "偶然：倒れた駒のカード"},
        "over": "ゲーム終了", "wins": "勝者 {seats}", "deck": "山札",
        "seats": ("プレイヤー{}", "プレイヤー{}・{}"),
        "held": "チップ", "gauge": "ゲージ", "score": "得点 {score}/{goal}", "hand": "手札",
        "column": "アクション列（下 → 上）", "fallen": "倒れている", "empty": "なし",
        "no_map": "マップはまだ配置されていない",
        "settled": "直前の決算：ゲージ {gauges} → 得点 {points}",
        "desc_seat": "プレイヤー{seat}：駒は{cell}{fallen}、{held}を保持、ゲージ{gauge}、"
                     "得点{score}。手札{hand}。アクション列{column}。",
        "hidden": "非公開{n}枚", "desc_map": "マップ：{cells}。", "desc_deck": "山札：{n}枚。",
    },
}


def picture(view: dict, *, seat=None, lang: str = "en") -> str:
    """The SVG of ``view`` as ``seat`` (None: a spectator) sees it, in ``lang``."""
    words = WORDS[lang]
    players = view["players"]
    tops, y = [], TOP + MAP + 36
    for s in range(players):
        tops.append(y)
        y += _block_height(view["columns"][s])
    height = y + (30 if view["settlements"] else 6)
    root = _el(None, "svg", xmlns="http://www.w3.org/2000/svg", viewBox=f"0 0 {WIDTH} {height}",
               width=WIDTH, height=height, class_="vectron", font_family="sans-serif",
               role="img")
    who = words["seat_view"].format(seat=seat) if seat else words["public"]
    _el(root, "title", words["title"].format(who=who, version=view["version"]))
    _el(root, "desc", describe(view, words, lang))
    _defs(root)
    _el(root, "rect", class_="background", width=WIDTH, height=height, fill=PAPER)
    _el(root, "text", f"{words['game']} · {who}", x=12, y=24, font_size=16,
        font_weight="bold", fill=INK)
    _banner(root, view, words)
    _map(root, view, words)
    for s, top in enumerate(tops, 1):
        _seat(root, view, s, top, words)
    if view["settlements"]:
        _el(root, "text", _settled(view, words), x=12, y=height - 12, font_size=14, fill=INK,
            class_="settlement")
    return document(root)


def _block_height(column) -> int:
    rows = -(-len(column) // PER_ROW)
    return 162 + (CARD_H + 6) * rows + (4 if rows else 0)


def _headline(view, words) -> str:
    if not view["to_move"]:
        best = max(view["scores"])
        seats = [s for s, score in enumerate(view["scores"], 1) if score == best]
        return f"{words['over']} · {words['wins'].format(seats=_seats(seats, words))}"
    return words["phase"][view["phase"]].format(seat=view["turn"])


def _seats(seats: list, words) -> str:
    """Seats as a person reads them: "seat 2", "seats 1, 2 and 3"."""
    one, many = words["seats"]
    if len(seats) == 1:
        return one.format(seats[0])
    return many.format(", ".join(map(str, seats[:-1])), seats[-1])


def _banner(root, view, words) -> None:
    to_move = view["to_move"]
    if to_move and to_move != ["chance"]:
        fill, ink = SEAT_COLOURS[to_move[0] - 1], SEAT_INK[to_move[0] - 1]
    else:
        fill, ink = ("#6a1b9a", PAPER) if to_move else ("#424242", PAPER)
    band = _el(root, "g", class_="to-move")
    _el(band, "rect", x=8, y=34, width=WIDTH - 16, height=34, rx=6, fill=fill)
    text = _headline(view, words)
    _el(band, "text", text, x=WIDTH // 2, y=57, font_size=_fitted(text, 18),
        font_weight="bold", fill=ink, text_anchor="middle")


def _map(root, view, words) -> None:
    """The virtual 4×4 grid (V-1.2), rank 4 at the top, and the deck beside it."""
    board = _el(root, "g", class_="map")
    grid = view["grid"]
    for row, rank in enumerate(reversed(RANKS)):
        y = TOP + row * (CELL + GAP)
        _el(board, "text", rank, x=LEFT - 12, y=y + CELL // 2 + 6, font_size=16, fill=INK,
            text_anchor="middle", class_="coord")
        for col, file in enumerate(FILES):
            x = LEFT + col * (CELL + GAP)
            name = file + rank
            thing = grid[name] if grid else None
            cell = _el(board, "g", class_=f"cell {name} {thing or 'unknown'}",
                       data_uses=uses({"type": "move", "to": name}))
            _el(cell, "rect", x=x, y=y, width=CELL, height=CELL, rx=4, fill="#eceff1",
                stroke="#607d8b", stroke_width=1.5)
            if thing is None:
                continue
            cx, cy = x + CELL // 2, y + CELL // 2
            if thing.startswith("seat"):  # its seat's moves, which the cells then mark
                _piece(cell, int(thing[4:]), cx, cy, view["fallen"][int(thing[4:]) - 1],
                       used={"seat": int(thing[4:]), "type": "move"})
            else:
                _el(cell, "use", href=f"#{thing}", x=cx, y=cy, class_="chip")
    for col, file in enumerate(FILES):
        _el(board, "text", file, x=LEFT + col * (CELL + GAP) + CELL // 2, y=TOP + MAP + 20,
            font_size=16, fill=INK, text_anchor="middle", class_="coord")
    if grid is None:
        _el(board, "text", words["no_map"], x=LEFT + MAP // 2, y=TOP + MAP // 2, font_size=15,
            fill=INK, text_anchor="middle")
    deck = _el(root, "g", class_="deck", data_uses=uses({"type": "draw", "source": "deck"}))
    x = LEFT + MAP + (WIDTH - LEFT - MAP) // 2
    _el(deck, "text", words["deck"], x=x, y=TOP + 12, font_size=14, fill=MUTED,
        text_anchor="middle")
    _el(deck, "use", href="#back", x=x - CARD_W // 2, y=TOP + 20)
    _el(deck, "text", f"×{view['deck']['count']}", x=x, y=TOP + CARD_H + 42, font_size=16,
        font_weight="bold", fill=INK, text_anchor="middle")


def _seat(root, view, s, top, words) -> None:
    """One seat: piece, held chip, gauge, score, hand and column."""
    acting = s in view["to_move"]
    block = _el(root, "g", class_=f"seat seat{s}{' acting' if acting else ''}")
    _el(block, "rect", x=4, y=top, width=WIDTH - 8, height=_block_height(view["columns"][s - 1])
        - 6, rx=8, fill="#fff3c4" if acting else "#f4f4f4", stroke=SEAT_COLOURS[s - 1],
        stroke_width=3)
    _piece(block, s, 26, top + 24, view["fallen"][s - 1], small=True)
    label = ("▶ " if acting else "") + words["seat"].format(seat=s)
    if view["fallen"][s - 1]:
        label += f" ({words['fallen']})"
    _el(block, "text", label, x=52, y=top + 30, font_size=16, font_weight="bold", fill=INK)
    _el(block, "text", words["score"].format(score=view["scores"][s - 1], goal=WINNING_SCORE),
        x=WIDTH - 14, y=top + 30, font_size=18, font_weight="bold", fill=INK,
        text_anchor="end", class_="score")
    _el(block, "text", words["held"], x=14, y=top + 62, font_size=13, fill=MUTED)
    _el(block, "use", href=f"#{view['held'][s - 1]}", x=78, y=top + 57, class_="held")
    _gauge(block, view["gauges"][s - 1], 112, top + 46, words)
    hand = view["hands"][s - 1]
    y = top + 84
    _el(block, "text", words["hand"], x=14, y=y + 30, font_size=13, fill=MUTED)
    if isinstance(hand, dict):  # another seat's hand: its size only (V-7.2)
        _el(block, "use", href="#back", x=70, y=y, class_="hidden-hand")
        _el(block, "text", f"×{hand['count']}", x=114, y=y + 32, font_size=16,
            font_weight="bold", fill=INK)
    else:
        for i, card in enumerate(hand):
            _card(block, card, 70 + i * (CARD_W + 4), y,
                  used={"seat": s, "type": "place", "card": card})
    y += CARD_H + 20
    _el(block, "text", words["column"], x=14, y=y, font_size=13, fill=MUTED)
    column = view["columns"][s - 1]
    cursor = view["cursor"] if s == view["turn"] else None
    if not column:
        _el(block, "text", words["empty"], x=WIDTH - 14, y=y, font_size=14, fill=MUTED,
            text_anchor="end")
    for i, card in enumerate(column):
        row, col = divmod(i, PER_ROW)
        # the column's top: what a draw from this column takes (V-3.1)
        _card(block, card, 14 + col * (CARD_W + 4), y + 8 + row * (CARD_H + 6),
              current=i == cursor,
              used={"type": "draw", "source": s} if i == len(column) - 1 else {})


def _gauge(block, gauge, x, y, words) -> None:
    """The star gauge 0..9; from 7 it ends the turn and is settled (V-4.6, V-6.1)."""
    _el(block, "text", words["gauge"], x=x, y=y - 2, font_size=13, fill=MUTED)
    for k in range(GAUGE_CELLS):
        marked = k == gauge
        limit = k >= GAUGE_LIMIT
        _el(block, "rect", x=x + 23 * k, y=y + 2, width=22, height=24, rx=3,
            fill=INK if marked else ("#ffcdd2" if limit else PAPER), stroke=INK,
            stroke_width=1, class_="gauge marker" if marked else "gauge")
        _el(block, "text", str(k), x=x + 23 * k + 11, y=y + 20, font_size=14,
            font_weight="bold", fill=PAPER if marked else INK, text_anchor="middle")


def _piece(parent, s, cx, cy, fallen, small=False, used=None) -> None:
    mark = _el(parent, "g", class_=f"piece seat{s}{' fallen' if fallen else ''}",
               **({"data_uses": uses(used)} if used else {}))
    kind = "fallen" if fallen else "piece"
    _el(mark, "use", href=f"#{kind}-small" if small else f"#{kind}", x=cx, y=cy,
        fill=SEAT_COLOURS[s - 1])
    _el(mark, "text", str(s), x=cx, y=cy + 7, font_size=18 if not small else 15,
        font_weight="bold", fill=SEAT_INK[s - 1], text_anchor="middle")


def _card(parent, card, x, y, current=False, used=None) -> None:
    """A card; ``used``: the fields of the moves that name it (referee.svg.uses), {} for
    none (its class names it too, which the page would otherwise read as a use)."""
    group = _el(parent, "g", class_=f"card {card}{' current' if current else ''}",
                data_uses=uses(used) if used else "")
    _el(group, "rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=4,
        fill=CARD_COLOURS[card[0]], stroke="#d50000" if current else INK,
        stroke_width=4 if current else 1.5)
    _el(group, "text", CARD_MARKS[card[0]], x=x + CARD_W // 2, y=y + 20, font_size=15,
        fill=INK, text_anchor="middle")
    _el(group, "text", card, x=x + CARD_W // 2, y=y + 42, font_size=17, font_weight="bold",
        fill=INK, text_anchor="middle")


def _settled(view, words) -> str:
    last = view["settlements"][-1]
    return words["settled"].format(gauges="-".join(map(str, last["gauges"])),
                                   points="-".join(map(str, last["points"])))


def describe(view, words, lang) -> str:
    """The position in sentences: what ``<desc>`` holds for people who cannot see it."""
    lines = [_headline(view, words)]
    grid = view["grid"] or {}
    places = {thing: cell for cell, thing in grid.items()}
    if grid:
        lines.append(words["desc_map"].format(cells=", ".join(
            f"{cell} {_thing(grid[cell], words, lang)}" for cell in CELLS)))
    else:
        lines.append(words["no_map"])
    lines.append(words["desc_deck"].format(n=view["deck"]["count"]))
    for s in range(1, view["players"] + 1):
        hand = view["hands"][s - 1]
        lines.append(words["desc_seat"].format(
            seat=s, cell=places.get(f"seat{s}", "—"),
            fallen=f" ({words['fallen']})" if view["fallen"][s - 1] else "",
            held=CHIP_NAMES[view["held"][s - 1]][lang], gauge=view["gauges"][s - 1],
            score=view["scores"][s - 1],
            hand=words["hidden"].format(n=hand["count"]) if isinstance(hand, dict)
            else " ".join(hand) or words["empty"],
            column=" ".join(view["columns"][s - 1]) or words["empty"]))
    if view["settlements"]:
        lines.append(_settled(view, words))
    return "\n".join(lines)


def _thing(thing, words, lang) -> str:
    if thing.startswith("seat"):
        return words["seat"].format(seat=thing[4:])
    return CHIP_NAMES[thing][lang]


def _defs(root) -> None:
    """Map chips (star chips with their stars, gate, swap), pieces and the card back."""
    defs = _el(root, "defs")
    _el(defs, "path", id="star", d="M0 -7L2 -2.2L7.1 -2.2L3 0.9L4.5 5.8L0 2.8L-4.5 5.8L-3 0.9"
        "L-7.1 -2.2L-2 -2.2Z", fill="#ffb300", stroke=INK, stroke_width=1)
    for stars, spots in STAR_SPOTS.items():
        chip = _el(defs, "g", id=f"star{stars}")
        _el(chip, "circle", r=20, fill="#fffde7", stroke="#795548", stroke_width=2)
        for x, y in spots:
            _el(chip, "use", href="#star", x=x, y=y)
    gate = _el(defs, "g", id="gate")
    _el(gate, "circle", r=20, fill="#263238", stroke=INK, stroke_width=2)
    _el(gate, "path", d="M-9 10V-2A9 9 0 0 1 9 -2V10", fill="none", stroke="#80deea",
        stroke_width=4)
    swap = _el(defs, "g", id="swap")
    _el(swap, "circle", r=20, fill="#f3e5f5", stroke="#6a1b9a", stroke_width=2)
    _el(swap, "text", "⇄", y=8, font_size=22, font_weight="bold", fill="#6a1b9a",
        text_anchor="middle")
    for suffix, scale in (("", 1.0), ("-small", 0.75)):
        _el(defs, "circle", id=f"piece{suffix}", r=22 * scale, stroke=INK, stroke_width=2)
        _el(defs, "ellipse", id=f"fallen{suffix}", rx=26 * scale, ry=14 * scale, stroke=INK,
            stroke_width=2, stroke_dasharray="5 3")
    back = _el(defs, "g", id="back")
    _el(back, "rect", width=CARD_W, height=CARD_H, rx=4, fill="#37474f", stroke=INK,
        stroke_width=1.5)
    _el(back, "path", d=f"M6 6L{CARD_W - 6} {CARD_H - 6}M{CARD_W - 6} 6L6 {CARD_H - 6}",
        stroke="#90a4ae", stroke_width=2)
