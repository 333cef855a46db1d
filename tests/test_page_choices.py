"""Choosing moves on the page (issue 29 item 3, the parts done): a seat's auto-pass answers a
call window where its only move is pass, by itself; "Take back my move" shows only when the
seat's own move is the table's last; the log reads oldest first, numbered by version; a
final score says why each seat ranks where it does. Real Chromium with touch, real stack."""

import json
import re

import pytest
import requests
from browser import PHONE_TOUCH, Screen
from support import bearer

# the page tests' fixtures (one stack, one browser per module), shared by name: pytest finds
# them in this module's namespace, and each test's parameter of that name is that fixture
# ruff: noqa: F811
from test_page import MAX_STEPS, browser, stack, start_table  # noqa: F401

pytestmark = pytest.mark.e2e
AUTO_PASSES = 3  # call windows answered by the page alone before the test is satisfied
YOUR_TURN = ("+m.dataset.version > v && m.dataset.busy === 'false'"
             " && document.querySelector('#banner').classList.contains('your-turn')")
YOUR_TURN_AFTER = f"v => {{ const m = document.querySelector('main'); return {YOUR_TURN}; }}"
#: this seat's turn after version v, or the game's end
YOUR_TURN_OR_END = ("v => { const m = document.querySelector('main');"
                    f" return ({YOUR_TURN}) || Boolean(document.querySelector('#score .score')); }}")


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE_TOUCH, locale="en-US")
    yield Screen(context.new_page(), "")
    context.close()


def seat_one_against_bots(phone: Screen, stack, game: str, players: int) -> str:
    phone.base = stack.url
    sid = start_table(phone, game, players, "digital", others="Bots: random")
    phone.page.get_by_role("button", name="Take seat 1 on this device").click()
    phone.settled("play")
    return sid


def test_auto_pass_answers_a_pass_only_call_window_by_itself(phone, stack):
    """Three Magic against two bots: with auto-pass on, every call window where seat 1 can
    only pass is answered without a touch; the seat's other decisions are left to it."""
    sid = seat_one_against_bots(phone, stack, "threemagic", 3)
    page = phone.page
    page.get_by_label("Pass by itself when passing is my only move").check()
    token = phone.fragment()["token"]
    touched = set()  # the versions this test's own touches made
    auto = []
    for _ in range(MAX_STEPS):
        # each pass of the loop waited for the version it acted on to go by
        page.wait_for_function(YOUR_TURN_OR_END, arg=-1)
        moves = phone.move_buttons()
        if moves.count() > 1 or not moves.count():
            if page.locator("#score .score").count():
                break
            before = phone.version()
            moves.first.tap()
            touched.add(phone.wait_version(before))
        else:  # the only move is a pass: the page sends it by itself
            phone.wait_version(phone.version())
        log = requests.get(f"{stack.url}/v1/sessions/{sid}/log", headers=bearer(token),
                           timeout=10).json()["entries"]
        auto = [e["version"] for e in log if e.get("move", {}).get("seat") == 1
                and e["move"]["type"] == "pass" and e["version"] not in touched]
        if len(auto) >= AUTO_PASSES:
            break
    assert len(auto) >= AUTO_PASSES, auto
    assert phone.page.evaluate("localStorage.getItem(Object.keys(localStorage)"
                               ".find(k => k.startsWith('referee:autopass:')))") == "on"
    assert not phone.errors, phone.errors


class Table:
    """A digital session made through the API: the page plays seat 1, the test the others."""

    def __init__(self, stack, game: str, players: int, seed: int):
        self.url = stack.url
        created = requests.post(f"{stack.url}/v1/sessions", timeout=10, json={
            "game": game, "players": players, "seed": seed}).json()
        self.sid = created["session_id"]
        self.tokens = {s["seat"]: s["token"] for s in created["seats"]}
        self.path = f"{stack.url}/v1/sessions/{self.sid}"

    def link(self, seat: int = 1) -> str:
        return f"play={self.sid}&token={self.tokens[seat]}"

    def others_move(self, seat: int = 1) -> None:
        """Every other seat plays its first legal move until ``seat`` is to move."""
        for _ in range(MAX_STEPS):
            to_move = requests.get(self.path, headers=bearer(self.tokens[seat]),
                                   timeout=10).json()["to_move"]
            if seat in to_move or not to_move:
                return
            other = self.tokens[to_move[0]]
            move = requests.get(f"{self.path}/legal-moves", headers=bearer(other),
                                timeout=10).json()["moves"][0]
            move = {k: v for k, v in move.items() if k not in ("text", "p", "describe")}
            answer = requests.post(f"{self.path}/moves", json={"move": move},
                                   headers=bearer(other), timeout=10)
            assert answer.status_code == 200, answer.text


def test_take_back_shows_only_when_the_seats_own_move_is_the_last(phone, stack):
    table = Table(stack, "ghostone", 3, seed=5)
    phone.base = stack.url
    phone.open(table.link())
    page = phone.page
    assert phone.banner() == "Your turn" and not page.locator("#takeback").count(), \
        "nothing of this seat's to take back yet"
    phone.press_first_move()
    page.locator("#takeback").wait_for()  # its own move is the last
    version = phone.version()
    table.others_move()
    page.wait_for_function(YOUR_TURN_AFTER, arg=version)
    assert not page.locator("#takeback").count(), "the other seats moved since"
    phone.press_first_move()
    page.locator("#takeback").tap()
    page.wait_for_function("() => !document.querySelector('#takeback')")
    phone.settled()
    assert page.locator(".log li").last.inner_text() == "A move was taken back"
    assert phone.banner() == "Your turn"
    assert not phone.errors, phone.errors


def test_the_log_reads_oldest_first_numbered_by_version(phone, stack):
    phone.base = stack.url
    start_table(phone, "gematon", 2, "tabletop")
    versions = [phone.press_first_move() for _ in range(4)]
    log = phone.page.locator(".log li")
    numbers = [int(li.get_attribute("value")) for li in log.all()]
    assert numbers == sorted(numbers) and numbers[-len(versions):] == versions
    assert phone.page.evaluate("getComputedStyle(document.querySelector('.log li'))"
                               ".listStyleType") != "none", "the version shows as its number"


@pytest.mark.parametrize("game", ["gematon", "threemagic"])
def test_a_final_score_says_why_each_seat_ranks_where_it_does(phone, stack, game):
    phone.base = stack.url
    phone.open(f"calc={game}")
    phone.page.get_by_role("button", name="Fill in the example").click()
    body = requests.get(f"{stack.url}/openapi.json", timeout=30).json()["components"][
        "schemas"][f"{game.capitalize()}CalculateRequest"]["examples"][0]
    ranking = requests.post(f"{stack.url}/v1/games/{game}/calculate", json=body,
                            timeout=10).json()["ranking"]
    phone.page.get_by_role("button", name="Score", exact=True).click()
    phone.settled("calc")
    reasons = phone.page.locator(".score-card .why").all_inner_texts()
    first = ranking[0]
    assert len(reasons) == len(ranking)
    for entry, reason in zip(ranking, reasons, strict=True):
        if entry["rank"] == first["rank"]:
            assert reason == "The best total."
        elif entry["total"] == first["total"]:
            assert reason.startswith(f"Level with Seat {first['seat']}")
        else:
            assert reason.startswith(f"{first['total'] - entry['total']} behind Seat {first['seat']}.")


def test_the_move_filter_reads_names_colours_and_effects_in_both_languages(phone, stack):
    """Tabletop Gizmos, the display being dealt: "converter", "blue" and "青" find the cards
    the components catalog says are Converters, or blue or about blue energy (an effect),
    on an English page."""
    phone.base = stack.url
    start_table(phone, "gizmos", 2, "tabletop")
    cards = {c["id"]: c for c in requests.get(f"{stack.url}/v1/games/gizmos/components",
                                              timeout=10).json()["cards"]}
    filter_box = phone.page.get_by_label("Filter the moves")
    phone.page.get_by_role("button", name=re.compile(r"^Show all \d+ moves$")).click()

    def listed(text: str) -> set[int]:
        filter_box.fill(text)
        phone.page.locator(f'#moves[data-filter="{text}"]').wait_for(state="attached")
        shown = phone.move_buttons().all_inner_texts()
        return {int(re.search(r"\b(\d{3})\b", t)[1]) for t in shown}

    everything = listed("")
    converters = listed("converter")
    assert converters and converters < everything
    assert all(cards[c]["kind"] == "converter" for c in converters)
    assert converters == {c for c in everything if cards[c]["kind"] == "converter"}
    coloured_blue = {c for c in everything if cards[c]["color"] == "blue"}
    for word in ("blue", "青"):  # a blue card, or one whose effect names blue energy
        found = listed(word)
        assert coloured_blue <= found < everything, word
        assert all(word in json.dumps(cards[c], ensure_ascii=False).lower() for c in found), word
    assert not phone.errors, phone.errors


def marked(page, mark: str) -> list[str]:
    """The classes of the picture's elements that carry ``mark`` (inside its shadow root)."""
    return page.locator(f"#picture .{mark}").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('class'))")


def test_the_picture_marks_the_last_move_and_a_touched_plates_targets(phone, stack):
    """Ghostone at the table: after a placement the picture marks the plates it named (the
    piece's, the rocks'); touching a plate marks it and the plates its moves reach, and
    lists exactly the moves that use it."""
    phone.base = stack.url
    start_table(phone, "ghostone", 3, "tabletop")
    page = phone.page
    before = phone.version()
    first = requests.get(f"{stack.url}/v1/sessions/{phone.fragment()['play']}/legal-moves",
                         headers=bearer(phone.fragment()["token"]), timeout=10).json()["moves"][0]
    phone.press_first_move()
    assert phone.version() > before
    page.wait_for_function(  # the picture of this version, its mark's style loaded
        "v => { const p = document.querySelector('#picture');"
        " const m = p.shadowRoot.querySelector('.last-move');"
        " return +p.dataset.version >= v && m && getComputedStyle(m).filter.includes('drop-shadow'); }",
        arg=phone.version())
    named = {first["plate"], *first["rocks"]}
    lit = {c.split()[1] for c in marked(page, "last-move")}
    assert lit == named, (lit, named)

    page.locator("#picture g.plate.b2").tap()
    listed = phone.move_buttons().all_inner_texts()
    assert listed and all("b2" in text for text in listed)
    assert [c.split()[1] for c in marked(page, "picked")] == ["b2"]
    targets = {c.split()[1] for c in marked(page, "target")}
    assert targets and "b2" not in targets
    moves = requests.get(f"{stack.url}/v1/sessions/{phone.fragment()['play']}/legal-moves",
                         headers=bearer(phone.fragment()["token"]), timeout=10).json()["moves"]
    reached = {p for m in moves if "b2" in {m["plate"], *m["rocks"]}
               for p in {m["plate"], *m["rocks"]}} - {"b2"}
    assert targets == reached, (targets, reached)
    assert not phone.errors, phone.errors


def test_the_table_enters_several_chance_outcomes_from_one_screen(phone, stack):
    """Tabletop Gizmos' display is turned up one card at a time: the table ticks the cards
    in the order they came and enters them in one go; each lands once, in that order."""
    phone.base = stack.url
    sid = start_table(phone, "gizmos", 2, "tabletop")
    page, token = phone.page, phone.fragment()["token"]
    before = phone.version()
    page.locator("#several summary").tap()
    labels = page.locator("#several li label")
    order = [2, 0, 5, 1]
    chosen = [labels.nth(i).inner_text().strip() for i in order]
    for i in order:
        labels.nth(i).locator("input").tap()
    enter = page.locator("#several-enter")
    assert enter.inner_text() == f"Enter the {len(order)} ticked"
    enter.tap()
    page.wait_for_function("v => +document.querySelector('main').dataset.version >= v"
                           " && document.querySelector('main').dataset.busy === 'false'",
                           arg=before + len(order))
    entries = requests.get(f"{stack.url}/v1/sessions/{sid}/log?since={before}",
                           headers={**bearer(token), "Accept-Language": "en"},
                           timeout=10).json()["entries"]
    assert [e["move"]["text"] for e in entries if "move" in e] == chosen
    assert phone.version() == before + len(order)
    assert not phone.errors, phone.errors


def test_the_table_enters_three_magics_deal_from_one_screen(phone, stack):
    """Tabletop Three Magic is dealt one card to each seat in turn: the table picks each
    seat's 8 cards in the order it got them, on one screen, and enters them in one go; the
    page enters them in the order the referee asks (round the table), each once."""
    phone.base = stack.url
    sid = start_table(phone, "threemagic", 3, "tabletop")
    page, token = phone.page, phone.fragment()["token"]
    before = phone.version()
    hands = {seat: [f"{letter}{n}" for n in ("0", "1", "1*", "2", "2*", "3", "3*", "4")]
             for seat, letter in ((1, "R"), (2, "B"), (3, "G"))}
    sent = []  # the moves the page posts (the log hides the cards, even from the table)
    page.on("request", lambda r: sent.append(json.loads(r.post_data)["move"])
            if r.method == "POST" and r.url.endswith(f"/v1/sessions/{sid}/moves") else None)
    page.locator("#several summary").tap()
    for seat, cards in hands.items():
        picker = page.locator(f'#several li[data-seat="{seat}"] select')
        for card in cards:
            picker.select_option(card)
    enter = page.locator("#round-enter")
    assert enter.inner_text() == "Enter the 24 ticked"
    enter.tap()
    page.wait_for_function("v => +document.querySelector('main').dataset.version >= v"
                           " && document.querySelector('main').dataset.busy === 'false'",
                           arg=before + 24)
    entries = requests.get(f"{stack.url}/v1/sessions/{sid}/log?since={before}",
                           headers=bearer(token), timeout=10).json()["entries"]
    dealt = [e["move"] for e in entries if "move" in e]
    assert [m["to"] for m in dealt] == [1, 2, 3] * 8, "round the table, as the referee asked"
    assert [{k: m[k] for k in ("type", "to")} for m in sent] == [
        {k: m[k] for k in ("type", "to")} for m in dealt], "each sent once, and each landed"
    assert {seat: [m["card"] for m in sent if m["to"] == seat] for seat in hands} == hands
    assert phone.version() == before + 24
    assert not phone.errors, phone.errors


def test_a_builds_other_converter_sets_are_offered_in_its_preview(phone, stack):
    """Gizmos lists one Build per spend, ``other_converters`` when others pay it (RULES.md,
    "One card's ways to pay"): previewing such a Build asks for that spend's sets
    (``?card=&spend=``) and offers the others beside Confirm; one chosen is previewed in
    its place. A fresh game has no Converters, so the two listings the page reads are the
    server's own with a Build of a display card added, marked so."""
    table = Table(stack, "gizmos", 2, seed=5)
    card = next(m["card"] for m in requests.get(f"{table.path}/legal-moves", headers=bearer(
        table.tokens[1]), timeout=10).json()["moves"] if m["type"] == "file")
    build = {"type": "build", "seat": 1, "card": card, "spend": ["black", "red"],
             "converters": [101]}
    ways = [dict(build, text=f"build {card} with 101"),
            dict(build, converters=[213], text=f"build {card} with 213")]
    asked = []

    def listing(route):
        answer = route.fetch()
        body = answer.json()
        if "spend=" in route.request.url:
            asked.append(route.request.url.split("?", 1)[1])
            body["moves"] = ways
        else:
            body["moves"] = [dict(ways[0], other_converters=True), *body["moves"]]
        route.fulfill(response=answer, body=json.dumps(body))

    phone.page.route("**/legal-moves*", listing)
    phone.base = stack.url
    phone.open(table.link())
    phone.move_buttons().first.press("Enter")
    other = phone.page.locator("#preview .other-ways button.move")
    other.wait_for()
    assert asked == [f"card={card}&spend=black,red"]
    assert other.all_inner_texts() == [f"build {card} with 213"]
    other.first.click()
    phone.page.wait_for_function(
        "t => document.querySelector('#preview .preview-move').textContent === t",
        arg=f"build {card} with 213")
    assert phone.page.locator("#preview .other-ways button.move").all_inner_texts() == [
        f"build {card} with 101"]
