"""Ghostone drawn as SVG: the board of plates, rocks, pieces and the ghost, whose turn it
is and the scores, from a view alone (``Engine.picture`` passes one).

``picture(view, seat=…, lang=…)`` is a pure function returning an SVG string built with
ElementTree: each kind of thing is defined once in ``<defs>`` and placed with ``<use>``,
the root has a ``viewBox`` (one drawing, any size), plates and marks carry CSS classes a
page can restyle, and ``<title>``/``<desc>`` say the position in words (English or
Japanese) for people who cannot see it. 360 units wide: legible on a phone as it is.
Ghostone hides nothing (G-8.2), so every view shows the whole position.
"""


from referee.svg import WIDTH, document
from referee.svg import element as _el
from referee.svg import fitted as _fitted

from .board import FILES, PLATES, RANKS

PLATE, GAP, LEFT, TOP = 76, 3, 30, 92  # the board: plate size, gap, its top-left corner
ROW = 44  # a seat's row in the score table
BOARD = 4 * PLATE + 3 * GAP
INK, PAPER, MUTED = "#111111", "#ffffff", "#555555"
#: seat colours (the source names none but the example's yellow): strong, told apart
#: by their numbers too
SEAT_COLOURS = ("#c62828", "#1565c0", "#f9a825", "#2e7d32")
SEAT_INK = (PAPER, PAPER, INK, PAPER)  # the number's colour on each seat's colour

WORDS = {
    "en": {
        "title": "Ghostone — {who}, version {version}", "public": "public view",
        "seat_view": "seat {seat}'s view", "seat": "Seat {seat}",
        "to_move": "Seat {seat} to move", "places": "Seat {seat} places a piece",
        "chance": "Die roll for the ghost", "over": "Game over", "wins": "won by {seats}",
        "seats": ("seat {}", "seats {} and {}"),
        "placement": "Placement {step} of {steps}", "play": "Play",
        "north": "N ↑", "score": "Score", "on_board": "on board", "escaped": "escaped",
        "ghost_waits": "The ghost comes with the 3rd escape",
        "ghost_on": "Ghost on {plate}", "passes": "{n} passes in a row",
        "ended": {"G-7.1": "Only one seat's pieces are left (G-7.1)",
                  "G-7.2": "Nobody can move any more (G-7.2)"},
        "desc_seat": "Seat {seat}: pieces on {pieces}; escapes {escapes}; score {total}.",
        "none": "none", "escape": "{plate} {points}+{bonus}",
        "desc_rocks": "Rocks: {rocks}.", "desc_flipped": "Flipped plates: {plates}.",
    },
    "ja": {
        "title": "Ghostone — {who}・版{version}", "public": "公開の視点",
        "seat_view": "プレイヤー{seat}の視点", "seat": "プレイヤー{seat}",
        "to_move": "プレイヤー{seat}の手番", "places": "プレイヤー{seat}が駒を置く",
        "chance": "オバケの賽子を振る", "over": "ゲーム終了", "wins": "勝者 {seats}",
        "seats": ("プレイヤー{}", "プレイヤー{}・{}"),
        "placement": "駒の配置 {step}/{steps}", "play": "移動フェイズ",
        "north": "北 ↑", "score": "得点", "on_board": "盤上", "escaped": "脱出",
        "ghost_waits": "3体目の脱出でオバケが現れる",
        "ghost_on": "オバケは{plate}", "passes": "{n}回連続のパス",
        "ended": {"G-7.1": "残った駒が1色になった（G-7.1）",
                  "G-7.2": "誰も動けなくなった（G-7.2）"},
        "desc_seat": "プレイヤー{seat}：駒は{pieces}、脱出は{escapes}、得点{total}。",
        "none": "なし", "escape": "{plate}で{points}+{bonus}",
        "desc_rocks": "岩：{rocks}。", "desc_flipped": "裏返ったプレート：{plates}。",
    },
}


def picture(view: dict, *, seat=None, lang: str = "en") -> str:
    """The SVG of ``view`` as ``seat`` (None: a spectator) sees it, in ``lang``."""
    words = WORDS[lang]
    players = view["players"]
    totals = [sum(e["points"] + e["bonus"] for e in view["escapes"] if e["seat"] == s)
              for s in range(1, players + 1)]
    table_top = TOP + BOARD + 34
    height = table_top + ROW * players + 70
    root = _el(None, "svg", xmlns="http://www.w3.org/2000/svg", viewBox=f"0 0 {WIDTH} {height}",
               width=WIDTH, height=height, class_="ghostone", font_family="sans-serif",
               role="img")
    who = words["seat_view"].format(seat=seat) if seat else words["public"]
    _el(root, "title", words["title"].format(who=who, version=view["version"]))
    _el(root, "desc", describe(view, totals, words))
    _defs(root)
    _el(root, "rect", class_="background", width=WIDTH, height=height, fill=PAPER)
    _el(root, "text", f"Ghostone · {who}", x=12, y=24, font_size=16, font_weight="bold",
        fill=INK)
    _banner(root, view, totals, words)
    _board(root, view, words)
    _scores(root, view, totals, table_top, words)
    _el(root, "text", _footer(view, words), x=12, y=height - 14, font_size=14, fill=INK,
        class_="status")
    return document(root)


def _banner(root, view, totals, words) -> None:
    """Whose turn it is, in a band across the top: the first thing a player looks for."""
    to_move = view["to_move"]
    if not to_move:
        fill, ink = "#424242", PAPER
    elif to_move == ["chance"]:
        fill, ink = "#6a1b9a", PAPER
    else:
        fill, ink = SEAT_COLOURS[to_move[0] - 1], SEAT_INK[to_move[0] - 1]
    band = _el(root, "g", class_="to-move")
    _el(band, "rect", x=8, y=34, width=WIDTH - 16, height=34, rx=6, fill=fill)
    text = _banner_text(view, totals, words)
    _el(band, "text", text, x=WIDTH // 2, y=57, font_size=_fitted(text, 18),
        font_weight="bold", fill=ink, text_anchor="middle")


def _board(root, view, words) -> None:
    board = _el(root, "g", class_="board")
    _el(board, "text", words["north"], x=LEFT + BOARD // 2, y=TOP - 8, font_size=14,
        fill=INK, text_anchor="middle", class_="compass")
    escaped_on = {e["plate"]: e for e in view["escapes"]}
    pieces = {plate: s for s, plates in enumerate(view["pieces"], 1) for plate in plates}
    for row, rank in enumerate(reversed(RANKS)):  # north (rank 4) at the top (G-1.1)
        y = TOP + row * (PLATE + GAP)
        _el(board, "text", rank, x=LEFT - 10, y=y + PLATE // 2 + 6, font_size=16,
            fill=INK, text_anchor="middle", class_="coord")
        for col, file in enumerate(FILES):
            x = LEFT + col * (PLATE + GAP)
            _plate(board, file + rank, x, y, view, pieces, escaped_on)
    for col, file in enumerate(FILES):
        _el(board, "text", file, x=LEFT + col * (PLATE + GAP) + PLATE // 2,
            y=TOP + BOARD + 20, font_size=16, fill=INK, text_anchor="middle", class_="coord")


def _plate(board, plate, x, y, view, pieces, escaped_on) -> None:
    flipped = plate in view["flipped"]
    group = _el(board, "g", class_=f"plate {plate} {'flipped' if flipped else 'face-up'}")
    _el(group, "use", href="#flipped" if flipped else "#plate", x=x, y=y)
    if flipped and plate in escaped_on:  # where a piece escaped, and what it scored
        escape = escaped_on[plate]
        _piece(group, escape["seat"], x + PLATE // 2, y + 30, "escaped")
        _el(group, "text", f"{escape['points']}+{escape['bonus']}", x=x + PLATE // 2,
            y=y + PLATE - 8, font_size=15, font_weight="bold", fill=PAPER,
            text_anchor="middle", class_="points")
    rocks = view["rocks"][plate]
    if not flipped and rocks:
        _el(group, "use", href="#rock", x=x + 6, y=y + PLATE - 24, class_="rock")
        _el(group, "text", f"×{rocks}", x=x + 30, y=y + PLATE - 8, font_size=17,
            font_weight="bold", fill=INK, class_="rocks")
    if plate in pieces:
        _piece(group, pieces[plate], x + 28, y + 28, "piece")
    if view["ghost"] == plate:
        _el(group, "use", href="#ghost", x=x + PLATE - 30, y=y + 4, class_="ghost")


def _piece(parent, seat, cx, cy, kind) -> None:
    mark = _el(parent, "g", class_=f"{kind} seat{seat}")
    _el(mark, "use", href="#piece", x=cx, y=cy, fill=SEAT_COLOURS[seat - 1])
    _el(mark, "text", str(seat), x=cx, y=cy + 7, font_size=19, font_weight="bold",
        fill=SEAT_INK[seat - 1], text_anchor="middle")


def _scores(root, view, totals, top, words) -> None:
    table = _el(root, "g", class_="scores")
    for x, label, anchor in ((12, words["score"], "start"), (190, words["on_board"], "middle"),
                             (270, words["escaped"], "middle"), (348, "Σ", "end")):
        _el(table, "text", label, x=x, y=top + 18, font_size=14, fill=MUTED,
            text_anchor=anchor)
    for s in range(1, view["players"] + 1):
        y = top + 30 + ROW * (s - 1)
        acting = s in view["to_move"]
        row = _el(table, "g", class_=f"seat seat{s}{' acting' if acting else ''}")
        _el(row, "rect", x=6, y=y, width=WIDTH - 12, height=ROW - 4, rx=4,
            fill="#fff3c4" if acting else "#f2f2f2")
        _piece(row, s, 30, y + ROW // 2 - 2, "piece")
        _el(row, "text", ("▶ " if acting else "") + words["seat"].format(seat=s), x=58,
            y=y + 24, font_size=16, font_weight="bold" if acting else "normal", fill=INK)
        escapes = [e for e in view["escapes"] if e["seat"] == s]
        won = not view["to_move"] and totals[s - 1] == max(totals)  # G-7.3: ties share
        for x, text in ((190, str(len(view["pieces"][s - 1]))), (270, str(len(escapes))),
                        (348, ("★ " if won else "") + str(totals[s - 1]))):
            _el(row, "text", text, x=x, y=y + 24, font_size=16, font_weight="bold",
                fill=INK, text_anchor="end" if x == 348 else "middle")


def _footer(view, words) -> str:
    parts = []
    if view["phase"] == "placement":
        steps = 8 if view["players"] == 4 else 9
        parts.append(words["placement"].format(step=view["placement_step"] + 1, steps=steps))
    if view["end"]:
        parts.append(words["ended"][view["end"]])
    elif view["ghost"]:
        parts.append(words["ghost_on"].format(plate=view["ghost"]))
    elif view["phase"] == "play":
        parts.append(words["ghost_waits"])
    if view["passes"]:
        parts.append(words["passes"].format(n=view["passes"]))
    return " · ".join(parts)


def describe(view, totals, words) -> str:
    """The position in sentences: what ``<desc>`` holds for people who cannot see it."""
    lines = [_banner_text(view, totals, words), _footer(view, words)]
    for s in range(1, view["players"] + 1):
        escapes = [words["escape"].format(**e) for e in view["escapes"] if e["seat"] == s]
        lines.append(words["desc_seat"].format(
            seat=s, pieces=", ".join(view["pieces"][s - 1]) or words["none"],
            escapes=", ".join(escapes) or words["none"], total=totals[s - 1]))
    lines.append(words["desc_rocks"].format(rocks=", ".join(
        f"{p} {view['rocks'][p]}" for p in PLATES if view["rocks"][p])))
    if view["flipped"]:
        lines.append(words["desc_flipped"].format(plates=", ".join(view["flipped"])))
    return "\n".join(line for line in lines if line)


def _banner_text(view, totals, words) -> str:
    to_move = view["to_move"]
    if not to_move:  # G-7.3: the highest score wins; equal highest scores share the win
        winners = [s for s, total in enumerate(totals, 1) if total == max(totals)]
        return f"{words['over']} · {words['wins'].format(seats=_seats(winners, words))}"
    if to_move == ["chance"]:
        return words["chance"]
    key = "places" if view["phase"] == "placement" else "to_move"
    return words[key].format(seat=to_move[0])


def _seats(seats: list, words) -> str:
    """Seats as a person reads them: "seat 2", "seats 1, 2 and 3"."""
    one, many = words["seats"]
    if len(seats) == 1:
        return one.format(seats[0])
    return many.format(", ".join(map(str, seats[:-1])), seats[-1])


def _defs(root) -> None:
    """Each kind of thing drawn once; ``<use>`` places it (a piece takes its seat's fill)."""
    defs = _el(root, "defs")
    _el(defs, "rect", id="plate", width=PLATE, height=PLATE, rx=5, fill="#eadfc4",
        stroke="#6d5a3a", stroke_width=2)
    flipped = _el(defs, "g", id="flipped")
    _el(flipped, "rect", width=PLATE, height=PLATE, rx=5, fill="#37474f", stroke="#263238",
        stroke_width=2)
    _el(flipped, "path", d=f"M10 10L{PLATE - 10} {PLATE - 10}M{PLATE - 10} 10L10 {PLATE - 10}",
        stroke="#546e7a", stroke_width=3)
    _el(defs, "circle", id="piece", r=19, stroke=INK, stroke_width=2)
    _el(defs, "path", id="rock", d="M2 14L6 4L14 1L21 5L22 14L15 19L6 18Z", fill="#757575",
        stroke=INK, stroke_width=1.5)
    ghost = _el(defs, "g", id="ghost")
    _el(ghost, "path", d="M2 24V11A11 11 0 0 1 24 11V24L20 20L16 24L13 20L9 24L6 20Z",
        fill=PAPER, stroke=INK, stroke_width=2)
    _el(ghost, "circle", cx=9, cy=11, r=2.5, fill=INK)
    _el(ghost, "circle", cx=17, cy=11, r=2.5, fill=INK)
