"""Gizmos drawn as SVG from a view alone (``Engine.picture`` passes one): the Energy Row,
the decks and the display by level, a Research's drawn cards, and each seat's ring,
limits, Archive, built gizmos and score, with whose turn it is and what it waits for.

``picture(view, seat=…, lang=…)`` is a pure function returning an SVG string built with
ElementTree: each sphere colour and the card back are defined once in ``<defs>`` and
placed with ``<use>``; the root has a ``viewBox``; cards and marks carry CSS classes a
page can restyle; ``<title>``/``<desc>`` say the position in English or Japanese. A card
shows its level, colour, cost, points and its effect in short. 360 units wide, legible
on a phone. Decks, and a Research the seat may not see, are counts in the view (Z-12):
they are drawn as card backs with their number, never as cards.
"""


from referee.svg import WIDTH, document
from referee.svg import element as _el
from referee.svg import fitted as _fitted

from .cards import CARDS, COLORS, LEVELS, end_game_vp, limits

CARD_W, CARD_H, COL_GAP = 172, 62, 4  # two cards a row
INK, PAPER, MUTED = "#111111", "#ffffff", "#555555"
SPHERES = {"black": "#212121", "blue": "#1e88e5", "red": "#e53935", "yellow": "#fdd835"}
TINTS = {"black": "#e0e0e0", "blue": "#e3f2fd", "red": "#ffebee", "yellow": "#fffde7",
         "multi": "#f3e5f5", "none": "#f5f5f5"}
EDGES = {"black": "#212121", "blue": "#1565c0", "red": "#c62828", "yellow": "#f9a825",
         "multi": "#6a1b9a", "none": "#757575"}
ROMAN = {0: "S", 1: "I", 2: "II", 3: "III"}
CHARS_PER_LINE = {"en": 20, "ja": 11}  # what fits a card's line at 14 units

WORDS = {
    "en": {
        "game": "Gizmos", "title": "Gizmos — {who}, version {version}", "public": "public view",
        "seat_view": "seat {seat}'s view", "seat": "Seat {seat}",
        "phase": {"main": "Seat {seat}: choose an action",
                  "research": "Seat {seat}: build or file a drawn card",
                  "return": "Seat {seat}: cards back under the deck",
                  "actions": "Seat {seat}: use gizmos or end the turn"},
        "chance": "Chance: a card or a sphere", "over": "Game over",
        "ending": "last round", "round": "round {n}", "row": "Energy Row",
        "level": "Level {level}", "deck": "deck ×{n}", "research": "Research (level {level})",
        "ring": "Ring {n}/{limit}", "archive": "Archive {n}/{limit}", "amount": "Research {n}",
        "tokens": "VP tokens {n}", "built": "Built ({n})", "vp": "{n} VP",
        "ready": "ready ×{n}", "used": "used", "empty": "none",
        "colours": {"black": "black", "blue": "blue", "red": "red", "yellow": "yellow",
                    "any": "any", "multi": "any colour", "none": "no colour"},
        "card": "{id}: level {level} {colour}, cost {cost}, {points} VP, {effect}",
        "desc_row": "Energy Row: {spheres}.", "desc_display": "Level {level} display: {cards}; "
                                                            "deck {n}.",
        "desc_seat": "Seat {seat}: {score} VP; ring {ring}; {tokens} VP tokens; built: "
                     "{built}; Archive: {archive}.",
        "desc_research": "Research of level {level}: {cards}.",
    },
    "ja": {
        "game": "ギズモ", "title": "ギズモ — {who}・版{version}", "public": "公開の視点",
        "seat_view": "プレイヤー{seat}の視点", "seat": "プレイヤー{seat}",
        "phase": {"main": "プレイヤー{seat}：アクションを選ぶ",
                  "research": "プレイヤー{seat}：引いたカードを設置かファイリング",
                  "return": "プレイヤー{seat}：カードを山札の底へ",
                  "actions": "プレイヤー{seat}：装置を使うか手番終了"},
        "chance": "偶然：カードかエネルギー球", "over": "ゲーム終了",
        "ending": "最終ラウンド", "round": "第{n}ラウンド", "row": "エネルギー列",
        "level": "レベル{level}", "deck": "山札×{n}", "research": "開発（レベル{level}）",
        "ring": "リング {n}/{limit}", "archive": "アーカイブ {n}/{limit}",
        "amount": "開発 {n}", "tokens": "勝利点トークン {n}", "built": "設置済み（{n}）",
        "vp": "{n}点", "ready": "稼働可 ×{n}", "used": "使用済", "empty": "なし",
        "colours": {"black": "黒", "blue": "青", "red": "赤", "yellow": "黄", "any": "任意",
                    "multi": "全色", "none": "色なし"},
        "card": "{id}：レベル{level}・{colour}・コスト{cost}・{points}点・{effect}",
        "desc_row": "エネルギー列：{spheres}。", "desc_display": "レベル{level}の場：{cards}。"
                                                          "山札{n}枚。",
        "desc_seat": "プレイヤー{seat}：{score}点。リング{ring}。勝利点トークン{tokens}。"
                     "設置済み：{built}。アーカイブ：{archive}。",
        "desc_research": "レベル{level}の開発：{cards}。",
    },
}

# The effect in short, per kind: the words of each part, then how they combine.
EFFECT_WORDS = {
    "en": {"convert": "{src} → {dst}", "double": "{src} → 2 {src}", "twice": " ×2",
           "pick": "Pick {c}", "file": "File", "build": "Build {c}",
           "from_archive": "Build from Archive", "level2": "Build Level II",
           "then": "{when} → {what}", "draw": "draw {n}", "pick_n": "pick {n}",
           "vp": "+{n} VP", "free": "free Level I build", "do_file": "file",
           "research": "research", "storage": "Storage +{n}", "file_limit": "File +{n}",
           "amount": "Research +{n}", "discount": {"building_level_2": "Level II cost −{n}",
                                                   "building_from_archive":
                                                       "from Archive cost −{n}",
                                                   "building_from_research":
                                                       "from Research cost −{n}"},
           "forbid": {"research": "No Research", "file": "No File"},
           "award": {"energy_in_ring": "VP = spheres in ring",
                     "vp_token_total": "VP = VP tokens"}, "or": "/", "sep": ", "},
    "ja": {"convert": "{src}→{dst}", "double": "{src}→{src}2", "twice": "×2",
           "pick": "{c}取り出し", "file": "ファイリング", "build": "{c}設置",
           "from_archive": "アーカイブから設置", "level2": "レベル2設置",
           "then": "{when}→{what}", "draw": "{n}個引く", "pick_n": "取り出し{n}",
           "vp": "+{n}点", "free": "レベル1無料設置", "do_file": "ファイリング",
           "research": "開発", "storage": "貯留+{n}", "file_limit": "ファイル+{n}",
           "amount": "開発+{n}", "discount": {"building_level_2": "レベル2設置−{n}",
                                              "building_from_archive": "アーカイブからの設置−{n}",
                                              "building_from_research": "開発からの設置−{n}"},
           "forbid": {"research": "開発不可", "file": "ファイリング不可"},
           "award": {"energy_in_ring": "得点=リングの球数",
                     "vp_token_total": "得点=勝利点トークン"}, "or": "/", "sep": "、"},
}


def effect_text(card_id: int, lang: str) -> str:
    """A card's effect in a few words ("Pick blue → draw 1"), from its effect data."""
    fx, w = CARDS[card_id]["effect"], EFFECT_WORDS[lang]
    colours = WORDS[lang]["colours"]
    kind = fx["kind"]
    if kind == "converter":
        slots = fx["slots"]
        parts = [w["double" if s["to"] == "same" else "convert"].format(
            src=colours[s["from"]], dst=colours.get(s["to"], "")) for s in slots]
        if len(set(parts)) == 1 and len(parts) == 2:
            return parts[0] + w["twice"]
        return w["sep"].join(parts)
    if kind == "upgrade":
        if "end_game_vp" in fx:
            return w["award"][fx["end_game_vp"]]
        if "forbid" in fx:
            return w["forbid"][fx["forbid"]]
        if "discount" in fx:
            return w["discount"][fx["discount"]["when"]].format(n=fx["discount"]["amount"])
        parts = [w[key].format(n=fx[field]) for key, field in
                 (("storage", "energy_limit"), ("file_limit", "file_limit"),
                  ("amount", "research")) if fx.get(field)]
        return w["sep"].join(parts)
    condition, result = fx["condition"], fx["result"]
    which = w["or"].join(colours[c] for c in condition.get("colors", ()))
    when = {"pick_trigger": w["pick"].format(c=which), "file_trigger": w["file"]}.get(kind)
    if when is None:
        when = w["from_archive"] if condition.get("from_archive") else \
            w["level2"] if condition.get("level") == 2 else w["build"].format(c=which)
    what = {"draw_random": w["draw"], "pick": w["pick_n"], "gain_vp_tokens": w["vp"],
            "build_free": w["free"], "file": w["do_file"], "research": w["research"]}
    return w["then"].format(when=when.strip(), what=what[result["action"]].format(
        n=result.get("count", 1)))


def picture(view: dict, *, seat=None, lang: str = "en") -> str:
    """The SVG of ``view`` as ``seat`` (None: a spectator) sees it, in ``lang``."""
    words = WORDS[lang]
    root = _el(None, "svg", xmlns="http://www.w3.org/2000/svg", class_="gizmos",
               font_family="sans-serif", role="img")
    who = words["seat_view"].format(seat=seat) if seat else words["public"]
    _el(root, "title", words["title"].format(who=who, version=view["version"]))
    _el(root, "desc", describe(view, words, lang))
    _defs(root)
    background = _el(root, "rect", class_="background", width=WIDTH, fill=PAPER)
    _el(root, "text", f"{words['game']} · {who}", x=12, y=24, font_size=16,
        font_weight="bold", fill=INK)
    _banner(root, view, words)
    y = _row(root, view, 112, words)
    y = _display(root, view, y, words, lang)
    for s in range(1, view["players"] + 1):
        y = _seat(root, view, s, y, words, lang)
    height = y + 8
    for node in (root, background):
        node.set("height", str(height))
    root.set("width", str(WIDTH))
    root.set("viewBox", f"0 0 {WIDTH} {height}")
    _sort_attributes(root)
    return document(root)


def score(view, s) -> int:
    """Printed points, VP tokens and the Generic gizmos' awards (Z-11, Z-6.4)."""
    me = view["seats"][s - 1]
    ring = sum(me["ring"].values())
    return sum(CARDS[c]["points"] + end_game_vp(c, ring, me["vp_tokens"]) for c in me["built"]) \
        + me["vp_tokens"]


def _headline(view, words) -> tuple[str, str]:
    to_move = view["to_move"]
    progress = words["round"].format(n=view["round"]) + \
        (f" · {words['ending']}" if view["ending"] else "")
    if not to_move:
        return words["over"], ""
    if to_move == ["chance"]:
        return words["chance"], progress
    return words["phase"][view["phase"]].format(seat=to_move[0]), progress


def _banner(root, view, words) -> None:
    text, progress = _headline(view, words)
    to_move = view["to_move"]
    fill, ink = (EDGES["blue"], PAPER) if to_move and to_move != ["chance"] else \
        (("#6a1b9a", PAPER) if to_move else ("#424242", PAPER))
    band = _el(root, "g", class_="to-move")
    _el(band, "rect", x=8, y=34, width=WIDTH - 16, height=34, rx=6, fill=fill)
    _el(band, "text", text, x=WIDTH // 2, y=57, font_size=_fitted(text, 17),
        font_weight="bold", fill=ink, text_anchor="middle")
    if progress:
        _el(band, "text", progress, x=WIDTH // 2, y=88, font_size=14, fill=INK,
            text_anchor="middle", class_="progress")


def _row(root, view, y, words) -> int:
    """The Energy Row: its six spheres (their order means nothing, decision 3)."""
    group = _el(root, "g", class_="row")
    _el(group, "text", words["row"], x=12, y=y + 6, font_size=14, fill=INK,
        font_weight="bold")
    x = 130
    for colour in COLORS:
        for _ in range(view["row"][colour]):
            _el(group, "use", href=f"#{colour}", x=x, y=y, class_=f"sphere {colour}")
            x += 36
    return y + 30


def _display(root, view, y, words, lang) -> int:
    """Per level (III first, as the table lays them out): the deck and the display."""
    for level in reversed(LEVELS):
        group = _el(root, "g", class_=f"level level{level}")
        _el(group, "text", words["level"].format(level=ROMAN[level]), x=12, y=y + 14,
            font_size=15, font_weight="bold", fill=INK)
        _el(group, "use", href="#back", x=WIDTH - 112, y=y - 6, class_="deck")
        _el(group, "text", words["deck"].format(n=view["decks"][str(level)]["count"]),
            x=WIDTH - 12, y=y + 14, font_size=14, fill=INK, text_anchor="end")
        y = _cards(group, view["display"][str(level)], y + 22, lang)
    research = view["research"]
    if research is not None:
        group = _el(root, "g", class_="research")
        _el(group, "text", words["research"].format(level=ROMAN[research["level"]]), x=12,
            y=y + 14, font_size=15, font_weight="bold", fill=INK)
        if "cards" in research:
            y = _cards(group, research["cards"], y + 22, lang)
        else:  # another seat's draw: how many, never which (Z-12)
            _el(group, "use", href="#back", x=12, y=y + 22)
            _el(group, "text", f"×{research['count']}", x=60, y=y + 44, font_size=16,
                font_weight="bold", fill=INK)
            y += 66
    return y + 6


def _cards(parent, ids, y, lang, marks=None) -> int:
    """Cards two a row from ``y``; answers the y below them."""
    for i, card in enumerate(ids):
        row, col = divmod(i, 2)
        _card(parent, card, 6 + col * (CARD_W + COL_GAP), y + row * (CARD_H + 4), lang,
              (marks or {}).get(card))
    return y + -(-len(ids) // 2) * (CARD_H + 4)


def _card(parent, card_id, x, y, lang, mark=None) -> None:
    """A card: level, cost (a sphere of its colour with the number), points, effect."""
    card = CARDS[card_id]
    colour = card["color"]
    group = _el(parent, "g", class_=f"card c{card_id} {colour}" + (" used" if mark == "used"
                                                                     else ""))
    _el(group, "rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=5, fill=TINTS[colour],
        stroke=EDGES[colour], stroke_width=3)
    _el(group, "text", ROMAN[card["level"]], x=x + 8, y=y + 20, font_size=15,
        font_weight="bold", fill=INK)
    if card["cost"]:
        cost = card["cost_color"] if card["cost_color"] in SPHERES else "multi"
        _el(group, "use", href=f"#{cost}", x=x + 46, y=y + 14, class_="cost")
        _el(group, "text", str(card["cost"]), x=x + 46, y=y + 19, font_size=14,
            font_weight="bold", fill=INK if cost in ("yellow", "multi") else PAPER,
            text_anchor="middle")
    _el(group, "text", WORDS[lang]["vp"].format(n=card["points"]), x=x + CARD_W - 8,
        y=y + 20, font_size=15, font_weight="bold", fill=INK, text_anchor="end")
    if mark:
        _el(group, "text", mark, x=x + CARD_W // 2 + 14, y=y + 20, font_size=13,
            font_weight="bold", fill="#b71c1c", text_anchor="middle", class_="mark")
    for i, line in enumerate(_wrap(effect_text(card_id, lang), CHARS_PER_LINE[lang])[:2]):
        _el(group, "text", line, x=x + 8, y=y + 39 + 17 * i, font_size=14, fill=INK,
            class_="effect")


def _seat(root, view, s, y, words, lang) -> int:
    me = view["seats"][s - 1]
    acting = s in view["to_move"]
    caps = limits(me["built"])
    group = _el(root, "g", class_=f"seat seat{s}{' acting' if acting else ''}")
    rows = -(-len(me["built"]) // 2) + -(-len(me["archive"]) // 2)
    height = 106 + rows * (CARD_H + 4) + (20 if me["archive"] else 0)
    _el(group, "rect", x=2, y=y, width=WIDTH - 4, height=height, rx=8,
        fill="#fff3c4" if acting else "#f4f4f4", stroke=INK if acting else "#9e9e9e",
        stroke_width=3 if acting else 1.5)
    _el(group, "text", ("▶ " if acting else "") + words["seat"].format(seat=s), x=12,
        y=y + 24, font_size=17, font_weight="bold", fill=INK)
    _el(group, "text", words["vp"].format(n=score(view, s)), x=WIDTH - 12, y=y + 24,
        font_size=18, font_weight="bold", fill=INK, text_anchor="end", class_="score")
    x = 14
    for colour in COLORS:
        for _ in range(me["ring"][colour]):
            _el(group, "use", href=f"#{colour}", x=x + 10, y=y + 44, class_=f"sphere {colour}")
            x += 26
    facts = [words["ring"].format(n=sum(me["ring"].values()), limit=caps["energy"]),
             words["archive"].format(n=len(me["archive"]), limit=caps["file"]),
             words["amount"].format(n=caps["research"]),
             words["tokens"].format(n=me["vp_tokens"])]
    _el(group, "text", " · ".join(facts[:2]), x=12, y=y + 76, font_size=14, fill=INK)
    _el(group, "text", " · ".join(facts[2:]), x=12, y=y + 94, font_size=14, fill=INK)
    marks = {}
    if s == view["turn"]:  # this turn's triggered gizmos and those used up (Z-8, Z-5)
        marks.update({c: words["used"] for c in view["turn_state"]["spent"]})
        marks.update({int(c): words["ready"].format(n=n)
                      for c, n in view["turn_state"]["ready"].items()})
    built = sorted(me["built"], key=lambda c: (CARDS[c]["effect"]["kind"], c))
    y = _cards(group, built, y + 104, lang, marks)
    if me["archive"]:
        _el(group, "text", WORDS[lang]["archive"].format(
            n=len(me["archive"]), limit=caps["file"]), x=12, y=y + 14, font_size=14,
            font_weight="bold", fill=INK)
        y = _cards(group, me["archive"], y + 20, lang)
    return y + 8


def _wrap(text: str, width: int) -> list[str]:
    """Lines of at most ``width`` characters, broken after a comma, else after the arrow,
    else at the last space (Japanese has none: then wherever the width ends)."""
    if len(text) <= width:
        return [text]
    for mark in (", ", "、", "→ ", "→", " "):
        cut = text.rfind(mark, 0, width + 1 - len(mark.strip()))
        if cut > 0:
            cut += len(mark)
            return [text[:cut].rstrip(), *_wrap(text[cut:], width)]
    return [text[:width], *_wrap(text[width:], width)]


def _card_words(card_id, words, lang) -> str:
    card = CARDS[card_id]
    return words["card"].format(id=card_id, level=card["level"],
                                colour=words["colours"][card["color"]], cost=card["cost"],
                                points=card["points"], effect=effect_text(card_id, lang))


def describe(view, words, lang) -> str:
    """The position in sentences: what ``<desc>`` holds for people who cannot see it."""
    text, progress = _headline(view, words)
    lines = [" · ".join(p for p in (text, progress) if p), words["desc_row"].format(
        spheres=_spheres(view["row"], words))]
    for level in reversed(LEVELS):
        lines.append(words["desc_display"].format(
            level=level, n=view["decks"][str(level)]["count"],
            cards="; ".join(_card_words(c, words, lang) for c in view["display"][str(level)])
            or words["empty"]))
    research = view["research"]
    if research is not None:
        lines.append(words["desc_research"].format(level=research["level"], cards="; ".join(
            _card_words(c, words, lang) for c in research["cards"]) if "cards" in research
            else f"×{research['count']}"))
    for s, me in enumerate(view["seats"], 1):
        lines.append(words["desc_seat"].format(
            seat=s, score=score(view, s), tokens=me["vp_tokens"],
            ring=_spheres(me["ring"], words) or words["empty"],
            built="; ".join(_card_words(c, words, lang) for c in me["built"]),
            archive="; ".join(_card_words(c, words, lang) for c in me["archive"])
            or words["empty"]))
    return "\n".join(lines)


def _spheres(counts: dict, words) -> str:
    """Spheres by colour, in the colours' order (never the order the keys came in)."""
    return ", ".join(f"{words['colours'][c]} {counts[c]}" for c in COLORS if counts[c])


def _defs(root) -> None:
    """A sphere per colour, a four-colour one for a Generic cost, and the card back."""
    defs = _el(root, "defs")
    for colour, fill in SPHERES.items():
        _el(defs, "circle", id=colour, r=12, fill=fill, stroke=INK, stroke_width=1.5)
    multi = _el(defs, "g", id="multi")
    for i, colour in enumerate(COLORS):
        start, end = [(0, -12), (12, 0), (0, 12), (-12, 0)][i], \
            [(12, 0), (0, 12), (-12, 0), (0, -12)][i]
        _el(multi, "path", d=f"M0 0L{start[0]} {start[1]}A12 12 0 0 1 {end[0]} {end[1]}Z",
            fill=SPHERES[colour])
    _el(multi, "circle", r=12, fill="none", stroke=INK, stroke_width=1.5)
    back = _el(defs, "g", id="back")
    _el(back, "rect", width=20, height=26, rx=3, fill="#455a64", stroke=INK, stroke_width=1.5)
    _el(back, "rect", x=4, y=4, width=12, height=18, rx=2, fill="none", stroke="#b0bec5",
        stroke_width=1.5)


def _sort_attributes(node) -> None:
    node.attrib = dict(sorted(node.attrib.items()))
