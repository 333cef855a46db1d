"""Three Magic drawn as SVG from a view alone (``Engine.picture`` passes one): the field,
the pool, the catalyst indicators, the piles, the discard under call, and each seat's od,
hand, called spells and discards, with whose turn it is.

``picture(view, seat=…, lang=…)`` is a pure function returning an SVG string built with
ElementTree: the card back and the star are defined once in ``<defs>`` and placed with
``<use>``; the root has a ``viewBox``; cards and marks carry CSS classes a page can
restyle; ``<title>``/``<desc>`` say the position in English or Japanese. 360 units wide,
legible on a phone. The other hands, a card another seat drew and the piles are counts
or ``"hidden"`` in the view (T-10.2): they are drawn as backs, never as cards.
"""

from referee.svg import WIDTH, document, uses
from referee.svg import element as _el
from referee.svg import fitted as _fitted

CARD_W, CARD_H, STEP, PER_ROW = 34, 48, 37, 9  # a mana card; rows of 9
INK, PAPER, MUTED = "#111111", "#ffffff", "#555555"
ATTRIBUTE = {"R": "fire", "B": "water", "G": "wood"}  # a card's letter (T-1.2)
COLOURS = {"fire": "#c62828", "water": "#1565c0", "wood": "#2e7d32"}
TINTS = {"fire": "#ffebee", "water": "#e3f2fd", "wood": "#e8f5e9"}

WORDS = {
    "en": {
        "game": "Three Magic", "title": "Three Magic — {who}, version {version}",
        "public": "public view", "seat_view": "seat {seat}'s view", "seat": "Seat {seat}",
        "attributes": {"fire": "fire", "water": "water", "wood": "wood"},
        "letters": {"fire": "R", "water": "B", "wood": "G"},  # the cards' notation (T-1.2)
        "phase": {"deal": "Chance: the deal", "indicator": "Chance: an indicator is turned",
                  "draw": "Chance: seat {seat} draws", "turn": "Seat {seat}: tsumo or discard",
                  "calls": "Call: {seats} to answer",
                  "call_discard": "Seat {seat}: discard after the call"},
        "over": "Game over", "wins": "won by {seats}", "seats": ("seat {}", "seats {} and {}"),
        "match": "Match {match} · manager: seat {manager}",
        "field": "Field {n}", "pool": "Pool {n}", "od": "{n} od",
        "indicators": "Indicators", "unused": "Unused", "draw_pile": "Draw",
        "window": "Under call", "drawn": "Drawn", "answered": "answered: {seats}",
        "manager": "manager", "riichi": "riichi", "hand": "Hand", "called": "Called",
        "discards": "Discards", "none": "none", "hidden": "{n} hidden",
        "last": {"ron": "Last match: seat {winner} won by ron from seat {discarder}",
                 "tsumo": "Last match: seat {winner} won by tsumo",
                 "special_draw": "Last match: special draw (seat {winner}'s win paid "
                                 "nothing)",
                 "exhaustive_draw": "Last match: exhaustive draw"},
        "desc_table": "Field {field} od, pool {pool} od; indicators {indicators}; "
                      "{unused} unused, {draw} to draw.",
        "desc_seat": "Seat {seat} ({attribute}{tags}): {od} od; hand {hand}; called "
                     "{called}; discards {discards}.",
    },
    "ja": {
        "game": "スリーマジック", "title": "スリーマジック — {who}・版{version}",
        "public": "公開の視点", "seat_view": "プレイヤー{seat}の視点", "seat": "プレイヤー{seat}",
        "attributes": {"fire": "火", "water": "水", "wood": "木"},
        "letters": {"fire": "火", "water": "水", "wood": "木"},
        "phase": {"deal": "偶然：配牌", "indicator": "偶然：触媒表示をめくる",
                  "draw": "偶然：プレイヤー{seat}が引く",
                  "turn": "プレイヤー{seat}：ツモか捨てる",
                  "calls": "誓約の確認：{seats}が答える",
                  "call_discard": "プレイヤー{seat}：誓約の後に捨てる"},
        "over": "ゲーム終了", "wins": "勝者 {seats}", "seats": ("プレイヤー{}", "プレイヤー{}・{}"),
        "match": "第{match}試合・管理者 プレイヤー{manager}",
        "field": "場 {n}", "pool": "霊脈 {n}", "od": "{n}オド",
        "indicators": "触媒表示", "unused": "不使用札", "draw_pile": "山札",
        "window": "捨て札", "drawn": "引いた札", "answered": "回答済み：{seats}",
        "manager": "管理者", "riichi": "リーチ", "hand": "手札", "called": "誓約",
        "discards": "捨て札", "none": "なし", "hidden": "非公開{n}枚",
        "last": {"ron": "前の試合：プレイヤー{winner}がプレイヤー{discarder}からロン",
                 "tsumo": "前の試合：プレイヤー{winner}がツモ",
                 "special_draw": "前の試合：特殊流局（プレイヤー{winner}の上がりは0点）",
                 "exhaustive_draw": "前の試合：流局"},
        "desc_table": "場{field}オド、霊脈{pool}オド。触媒表示{indicators}。不使用札{unused}枚、"
                      "山札{draw}枚。",
        "desc_seat": "プレイヤー{seat}（{attribute}{tags}）：{od}オド。手札{hand}。誓約{called}。"
                     "捨て札{discards}。",
    },
}


def picture(view: dict, *, seat=None, lang: str = "en") -> str:
    """The SVG of ``view`` as ``seat`` (None: a spectator) sees it, in ``lang``."""
    words = WORDS[lang]
    tops, y = [], 236
    for s in range(1, 4):
        tops.append(y)
        y += _panel_height(view, s)
    height = y + (28 if view["last_match"] else 4)
    root = _el(None, "svg", xmlns="http://www.w3.org/2000/svg", viewBox=f"0 0 {WIDTH} {height}",
               width=WIDTH, height=height, class_="threemagic", font_family="sans-serif",
               role="img")
    who = words["seat_view"].format(seat=seat) if seat else words["public"]
    _el(root, "title", words["title"].format(who=who, version=view["version"]))
    _el(root, "desc", describe(view, words))
    _defs(root)
    _el(root, "rect", class_="background", width=WIDTH, height=height, fill=PAPER)
    _el(root, "text", f"{words['game']} · {who}", x=12, y=24, font_size=16,
        font_weight="bold", fill=INK)
    _banner(root, view, words)
    _table(root, view, words)
    for s, top in enumerate(tops, 1):
        _panel(root, view, s, top, words)
    if view["last_match"]:
        _el(root, "text", _last(view, words), x=12, y=height - 10, font_size=13, fill=INK,
            class_="last-match")
    return document(root)


def _attribute(view, s) -> str:
    return view["options"]["attributes"][s - 1]


def _headline(view, words) -> str:
    to_move = view["to_move"]
    if not to_move:
        best = max(view["od"])  # T-9.2: highest od wins, ties share
        seats = _seats([s for s, od in enumerate(view["od"], 1) if od == best], words)
        return f"{words['over']} · {words['wins'].format(seats=seats)}"
    seats = _seats(to_move, words) if view["phase"] == "calls" else ""
    return words["phase"][view["phase"]].format(seat=view["turn"], seats=seats)


def _seats(seats: list[int], words) -> str:
    """Seats as a person reads them: "seat 2", "seats 1, 2 and 3"."""
    one, many = words["seats"]
    if len(seats) == 1:
        return one.format(seats[0])
    return many.format(", ".join(map(str, seats[:-1])), seats[-1])


def _banner(root, view, words) -> None:
    to_move = view["to_move"]
    if not to_move:
        fill = "#424242"
    elif to_move == ["chance"]:
        fill = "#6a1b9a"
    else:
        fill = COLOURS[_attribute(view, to_move[0])] if len(to_move) == 1 else "#37474f"
    band = _el(root, "g", class_="to-move")
    _el(band, "rect", x=8, y=34, width=WIDTH - 16, height=34, rx=6, fill=fill)
    text = _headline(view, words)
    _el(band, "text", text, x=WIDTH // 2, y=57, font_size=_fitted(text, 17),
        font_weight="bold", fill=PAPER, text_anchor="middle")
    _el(band, "text", words["match"].format(match=view["match"], manager=view["manager"]),
        x=WIDTH // 2, y=88, font_size=14, fill=INK, text_anchor="middle", class_="progress")


def _table(root, view, words) -> None:
    """The middle of the table: field and pool, indicators, the piles, and the card the
    turn is about (the discard under call, or the card drawn)."""
    table = _el(root, "g", class_="table")
    for i, (key, n) in enumerate((("field", view["field"]), ("pool", view["pool"]))):
        _el(table, "rect", x=8 + 110 * i, y=100, width=104, height=30, rx=5, fill="#fff8e1",
            stroke="#8d6e63", stroke_width=1.5, class_=key)
        _el(table, "text", words[key].format(n=n), x=60 + 110 * i, y=121, font_size=15,
            font_weight="bold", fill=INK, text_anchor="middle")
    _el(table, "text", words["indicators"], x=8, y=152, font_size=13, fill=MUTED)
    for i, card in enumerate(view["indicators"]):
        _card(table, card, 8 + STEP * i, 158, words["letters"])
    for i, (key, n) in enumerate((("unused", view["unused"]),
                                  ("draw_pile", view["draw_pile"]))):
        x = 176 + 56 * i
        _el(table, "text", words[key], x=x, y=152, font_size=13, fill=MUTED)
        _el(table, "use", href="#back", x=x, y=158, class_=key)
        _el(table, "text", f"×{n}", x=x + CARD_W // 2, y=224, font_size=15,
            font_weight="bold", fill=INK, text_anchor="middle")
    window, drawn = view["window"], view["drawn"]
    if window or drawn:
        _el(table, "text", words["window"] if window else words["drawn"], x=WIDTH - 8,
            y=152, font_size=13, fill=MUTED, text_anchor="end")
        _card(table, window["card"] if window else drawn, WIDTH - 8 - CARD_W, 158,
              words["letters"], mark=True, used=_drawn_uses(view) if drawn else
              # the discard under call: the turn seat's (the last move), and the calls on it
              [{"seat": view["turn"], "type": "discard"}] + [
                  {"type": call} for call in ("ron", "pon", "chi")])
    if window and window["answers"]:  # who answered, never what (the others are sealed)
        seats = ", ".join(str(a["seat"]) for a in window["answers"])
        _el(table, "text", words["answered"].format(seats=seats), x=WIDTH - 8, y=224,
            font_size=13, fill=INK, text_anchor="end")


def _rows(count: int) -> int:
    return -(-count // PER_ROW)


def _panel_height(view, s) -> int:
    called = 22 + CARD_H if view["called"][s - 1] else 0
    return 40 + 22 + CARD_H + called + 22 + (CARD_H + 4) * _rows(len(view["discards"][s - 1])) \
        + 8


def _panel(root, view, s, top, words) -> None:
    """One seat: attribute, od, manager and riichi, hand, called spells, discards."""
    attribute = _attribute(view, s)
    acting = s in view["to_move"]
    panel = _el(root, "g", class_=f"seat seat{s} {attribute}{' acting' if acting else ''}")
    _el(panel, "rect", x=4, y=top, width=WIDTH - 8, height=_panel_height(view, s) - 6, rx=8,
        fill="#fff3c4" if acting else "#f4f4f4", stroke=COLOURS[attribute], stroke_width=3)
    tags = [words["attributes"][attribute]]
    if view["manager"] == s:
        tags.append(words["manager"])
    if view["riichi"][s - 1]:
        tags.append(words["riichi"])
    _el(panel, "text", ("▶ " if acting else "") + words["seat"].format(seat=s), x=14,
        y=top + 26, font_size=17, font_weight="bold", fill=INK)
    _el(panel, "text", " · ".join(tags), x=150, y=top + 26, font_size=14, fill=INK,
        class_="tags")
    _el(panel, "text", words["od"].format(n=view["od"][s - 1]), x=WIDTH - 14, y=top + 26,
        font_size=18, font_weight="bold", fill=INK, text_anchor="end", class_="score")
    y = top + 40
    _el(panel, "text", words["hand"], x=14, y=y + 12, font_size=13, fill=MUTED)
    hand = view["hands"][s - 1]
    if not hand or hand == {"count": 0}:
        _el(panel, "text", words["none"], x=14, y=y + 44, font_size=14, fill=MUTED)
    elif isinstance(hand, dict):  # another seat's hand: its size only (T-10.2)
        _el(panel, "use", href="#back", x=14, y=y + 18, class_="hidden-hand")
        _el(panel, "text", f"×{hand['count']}", x=14 + CARD_W + 6, y=y + 50, font_size=16,
            font_weight="bold", fill=INK)
    else:
        for i, card in enumerate(hand):  # in the fixed order it was dealt (T-3.3)
            _card(panel, card, 14 + STEP * i, y + 18, words["letters"],
                  used=_hand_uses(view, s, i, len(hand)))
    y += 22 + CARD_H
    if view["called"][s - 1]:
        _el(panel, "text", words["called"], x=14, y=y + 14, font_size=13, fill=MUTED)
        for k, spell in enumerate(view["called"][s - 1]):
            for i, card in enumerate(spell):
                _card(panel, card, 14 + (3 * STEP + 14) * k + STEP * i, y + 20,
                      words["letters"])
        y += 22 + CARD_H
    _el(panel, "text", words["discards"], x=14, y=y + 14, font_size=13, fill=MUTED)
    discards = view["discards"][s - 1]
    if not discards:
        _el(panel, "text", words["none"], x=90, y=y + 14, font_size=13, fill=MUTED)
    for i, card in enumerate(discards):
        row, col = divmod(i, PER_ROW)
        _card(panel, card, 14 + STEP * col, y + 20 + (CARD_H + 4) * row, words["letters"])


def _hand_uses(view, s, k, size) -> list[dict]:
    """The moves that use seat ``s``'s hand card ``k`` (its hand holding ``size``): the
    discards that throw it out and the calls it makes a spell with. A discard names
    places, not cards (T-4.3): the drawn card goes in at ``insert`` and ``remove`` counts
    in the hand so formed, so card k goes out as ``remove`` k with the drawn card after
    it, or k + 1 with the drawn card before it; after a call nothing is inserted."""
    seat = {"seat": s}
    if view["phase"] == "calls" and s in view["to_move"]:
        return [dict(seat, type=call, cards=k) for call in ("pon", "chi")]
    if s != view["turn"] or view["phase"] not in ("turn", "call_discard"):
        return []
    discard = dict(seat, type="discard")
    if view["phase"] == "call_discard":
        return [dict(discard, insert=None, remove=k)]
    return [dict(discard, insert=i, remove=k) for i in range(k + 1, size + 1)] + [
        dict(discard, insert=i, remove=k + 1) for i in range(k + 1)]


def _drawn_uses(view) -> list[dict]:
    """The moves that use the drawn card: the discards that throw it out (inserted, then
    removed at the same place) and a tsumo with it."""
    if view["phase"] != "turn" or view["drawn"] == "hidden":
        return []
    seat = {"seat": view["turn"]}
    size = len(view["hands"][view["turn"] - 1]) if isinstance(
        view["hands"][view["turn"] - 1], list) else 0
    return [dict(seat, type="discard", insert=i, remove=i) for i in range(size + 1)] + [
        dict(seat, type="tsumo")]


def _card(parent, card, x, y, letters, mark=False, used=()) -> None:
    """A mana card: its attribute's colour and letter (R/B/G, in Japanese 火/水/木), its
    number, a star if starred; ``used``: the moves that name it (referee.svg.uses; none
    is said too, so that no class is read as one);
    ``"hidden"`` (a card the seat may not see) is a back."""
    if card == "hidden":
        _el(parent, "use", href="#back", x=x, y=y, class_="card hidden")
        return
    attribute = ATTRIBUTE[card[0]]
    group = _el(parent, "g", class_=f"card {attribute}{' starred' if card.endswith('*') else ''}",
                data_uses=uses(*used))
    _el(group, "rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=4, fill=TINTS[attribute],
        stroke="#ff6f00" if mark else COLOURS[attribute], stroke_width=4 if mark else 2)
    _el(group, "text", letters[attribute], x=x + 4, y=y + 14, font_size=12, font_weight="bold",
        fill=COLOURS[attribute])
    _el(group, "text", card[1], x=x + CARD_W // 2, y=y + 33, font_size=22, font_weight="bold",
        fill=COLOURS[attribute], text_anchor="middle")
    if card.endswith("*"):
        _el(group, "use", href="#star", x=x + CARD_W - 8, y=y + 9)


def _last(view, words) -> str:
    last = view["last_match"]
    return words["last"][last["end"]].format(winner=last.get("winner"),
                                             discarder=last.get("discarder"))


def describe(view, words) -> str:
    """The position in sentences: what ``<desc>`` holds for people who cannot see it."""
    lines = [_headline(view, words),
             words["match"].format(match=view["match"], manager=view["manager"]),
             words["desc_table"].format(field=view["field"], pool=view["pool"],
                                        indicators=" ".join(view["indicators"]) or
                                        words["none"], unused=view["unused"],
                                        draw=view["draw_pile"])]
    if view["window"]:
        lines.append(f"{words['window']}: {view['window']['card']}")
    elif view["drawn"] and view["drawn"] != "hidden":
        lines.append(f"{words['drawn']}: {view['drawn']}")
    for s in range(1, 4):
        hand = view["hands"][s - 1]
        tags = [t for t, on in ((words["manager"], view["manager"] == s),
                                (words["riichi"], view["riichi"][s - 1])) if on]
        lines.append(words["desc_seat"].format(
            seat=s, attribute=words["attributes"][_attribute(view, s)],
            tags="".join(f", {t}" for t in tags), od=view["od"][s - 1],
            hand=words["hidden"].format(n=hand["count"]) if isinstance(hand, dict)
            else " ".join(hand),
            called=" / ".join(" ".join(spell) for spell in view["called"][s - 1])
            or words["none"], discards=" ".join(view["discards"][s - 1]) or words["none"]))
    if view["last_match"]:
        lines.append(_last(view, words))
    return "\n".join(lines)


def _defs(root) -> None:
    defs = _el(root, "defs")
    back = _el(defs, "g", id="back")
    _el(back, "rect", width=CARD_W, height=CARD_H, rx=4, fill="#4a148c", stroke=INK,
        stroke_width=1.5)
    _el(back, "circle", cx=CARD_W // 2, cy=CARD_H // 2, r=10, fill="none", stroke="#ce93d8",
        stroke_width=2)
    _el(defs, "path", id="star", d="M0 -6L1.8 -1.9L6.2 -1.9L2.6 0.8L3.9 5.1L0 2.5L-3.9 5.1"
        "L-2.6 0.8L-6.2 -1.9L-1.8 -1.9Z", fill="#ffb300", stroke=INK, stroke_width=0.8)
