"""Japanese everywhere on the page (issue 29 item 5): a Japanese browser walks every page state
it can reach — the first screen with each game's options, a bad join code, a refused option,
every score helper filled in, scored and refused, a table of every game with its dock and
hand-off, a move kept offline, a refused take-back, a finished game's score, the screens of
a missing token and an unknown table — and finds no English word outside an allow-list of
names. Every API call carries the page's Accept-Language. Real Chromium, real stack."""

import re
from pathlib import Path

import pytest
import requests
from browser import PHONE_TOUCH, Screen
from referee.errors import CODES

# the page tests' fixtures (one stack, one browser per module), shared by name: pytest finds
# them in this module's namespace, and each test's parameter of that name is that fixture
# ruff: noqa: F811
from test_page import GAMES, MAX_STEPS, TALLIES, browser, fill, stack  # noqa: F401
from support import bearer
from test_page_choices import Table

pytestmark = pytest.mark.e2e

#: words that are names, not English: the project's name, the language switch's own
#: "English", units and abbreviations a Japanese table uses as they are
NAMES = {"tabletop-referee", "English", "VP", "od", "QR", "BGA", "RULES.md"}
#: rule ids (GM-5.2, T-7, Z-3.4), cells and cards (a1, R3*, O2), the join code's example
NAME_PATTERNS = [r"K4TM-9XQR", r"\b[A-Z]{1,2}-\d+(?:\.\d+)*", r"\b[A-Za-z]\d\*?\b"]
ENGLISH = re.compile(r"[A-Za-z][A-Za-z'’]+")

#: everything a person reads: visible text (not the game's picture, which is the API's and
#: has its own golden tests, nor the join code), the labels of options and of controls
SHOWN_TEXT = """() => {
  const skip = new Set([document.getElementById('picture'), ...document.querySelectorAll('.join-code')]);
  const texts = [];
  const walk = node => {
    if (skip.has(node)) return;
    if (node.nodeType === Node.TEXT_NODE) {
      const parent = node.parentElement;
      const hidden = parent.closest('[hidden]') || (parent.closest('select') === null
        && !parent.checkVisibility({visibilityProperty: true})
        && !parent.closest('details:not([open])'));
      if (!hidden && node.textContent.trim()) texts.push(node.textContent.trim());
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(node.tagName)) return;
    for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
      if (node.getAttribute(name)) texts.push(node.getAttribute(name));
    }
    node.childNodes.forEach(walk);
  };
  walk(document.body);
  texts.push(document.title);
  return texts;
}"""


def english_words(screen: Screen) -> set[str]:
    found = set()
    for text in screen.page.evaluate(SHOWN_TEXT):
        for pattern in NAME_PATTERNS:
            text = re.sub(pattern, " ", text)
        for name in NAMES:
            text = text.replace(name, " ")
        found |= set(ENGLISH.findall(text))
    return found


class Walk:
    """A Japanese phone on the page; ``look(state)`` collects the English it shows."""

    def __init__(self, screen: Screen):
        self.screen, self.page = screen, screen.page
        self.english: dict[str, set[str]] = {}
        self.states = 0
        self.languages: set[str] = set()
        self.page.on("request", self.record_language)

    def record_language(self, request) -> None:
        if "/v1/" in request.url or "/page/" in request.url or "/openapi.json" in request.url:
            self.languages.add(request.headers.get("accept-language", ""))

    def look(self, state: str) -> None:
        self.states += 1
        words = english_words(self.screen)
        if words:
            self.english[state] = words


@pytest.fixture
def walk(browser, stack):
    context = browser.new_context(**PHONE_TOUCH, locale="ja-JP")
    screen = Screen(context.new_page(), stack.url)
    yield Walk(screen)
    context.close()
    assert not screen.errors, f"the page's scripts failed: {screen.errors}"


def start(walk: Walk, game: str, mode: str = "tabletop") -> str:
    walk.screen.open()
    form = walk.page.locator("form.start")
    form.locator("select[name=game]").select_option(game)
    form.locator(f"input[name=mode][value={mode}]").check()
    form.locator("button[type=submit]").click()
    walk.screen.settled("play")
    return walk.screen.fragment()["play"]


def test_the_first_screen_and_every_score_helper_speak_japanese(walk):
    page, screen = walk.page, walk.screen
    screen.open()
    walk.look("the first screen")
    form = page.locator("form.start")
    for game in GAMES:
        form.locator("select[name=game]").select_option(game)
        form.locator("details.group > summary").first.click()
        for inner in form.locator("details.group details > summary").all():
            inner.click()
        walk.look(f"the options of {game}")
        form.locator("details.group > summary").first.click()

    join = page.locator("form.join")
    join.locator("input[type=text]").fill("ZZZZ-ZZZZ")
    join.locator("button[type=submit]").click()
    join.locator(".error:not([hidden])").wait_for()
    walk.look("a bad join code")

    form.locator("select[name=game]").select_option("threemagic")
    form.locator("input[name=mode][value=tabletop]").check()
    form.locator("details.group > summary").first.click()
    form.locator('[data-path="starting_od"] input').fill("999999")
    form.locator("button[type=submit]").click()
    form.locator(".error:not([hidden])").first.wait_for()
    walk.look("a refused option")

    for game in GAMES:
        screen.open(f"calc={game}")
        for inner in page.locator("details > summary").all():
            inner.click()
        walk.look(f"the score helper of {game}")
        # empty: the schema checks' messages ("'vp_tokens' is a required property")
        page.locator("form.calc button[type=submit]").click()
        screen.settled("calc")
        page.locator("form.calc .error:not([hidden])").first.wait_for()
        walk.look(f"the score helper of {game}, empty")
        tally = TALLIES[game]
        if "fill" in tally:
            for path, text in tally["fill"].items():
                fill(page, path, text)
        else:
            page.locator("form.calc .actions button.secondary").first.click()  # the example
        page.locator("form.calc button[type=submit]").click()
        screen.settled("calc")
        page.locator(".result .score-card").first.wait_for()
        walk.look(f"the score helper of {game}, scored")
        path, text = tally["spoil"]
        fill(page, path, text)
        page.locator("form.calc button[type=submit]").click()
        screen.settled("calc")
        page.locator("form.calc .error:not([hidden])").first.wait_for()
        walk.look(f"the score helper of {game}, refused")

    screen.open("play=nosuchtable")
    walk.look("a table without its token")
    screen.open("play=nosuchtable&token=nosuchtoken")
    walk.look("an unknown table")
    assert walk.states >= 4 * len(GAMES) + 6
    assert not walk.english, sorted(walk.english.items())
    assert walk.languages == {"ja"}, walk.languages


def test_a_japanese_table_of_every_game_offline_handed_off_and_finished(walk):
    page, screen = walk.page, walk.screen
    for game in GAMES:
        start(walk, game)
        walk.look(f"a table of {game}")
        if page.locator("#several").count():  # chance outcomes several at once
            page.locator("#several summary").click()
            if page.locator("#several input").count():
                page.locator("#several input").first.check()
            else:  # dealt round the table: a picker per seat
                page.locator("#several select").first.select_option(index=1)
            walk.look(f"several outcomes of {game} picked")
        for _ in range(3):
            if not screen.move_buttons().count():
                break
            screen.press_first_move()
        walk.look(f"a table of {game} after a few entries")
    page.locator("#handoff summary").click()
    page.locator("#handoff-qr svg").wait_for()
    walk.look("the hand-off with its QR code")
    page.context.set_offline(True)
    page.locator("#connection").wait_for(state="visible")
    screen.move_buttons().first.click()
    page.locator("#notice").wait_for(state="visible")
    walk.look("offline with a kept move")
    page.context.set_offline(False)
    page.locator("#connection").wait_for(state="hidden")
    page.locator("#notice").wait_for(state="hidden")

    start(walk, "ghostone")  # the quickest game to play to its end
    for _ in range(MAX_STEPS):
        if page.locator("#score .score").count():
            break
        screen.press_first_move()
    walk.look("a finished game's score")
    assert walk.states >= 2 * len(GAMES) + 3
    assert not walk.english, sorted(walk.english.items())
    assert walk.languages == {"ja"}, walk.languages


def test_a_japanese_seat_takes_back_its_move_in_japanese(walk, stack):
    """A digital seat: its auto-pass switch, and "take back my move" — shown once its own
    move is the table's last — and the log after it, in Japanese."""
    page, screen = walk.page, walk.screen
    table = Table(stack, "ghostone", 3, seed=5)
    screen.open(table.link())
    walk.look("your turn, with the auto-pass switch")
    assert page.locator("#autopass").count() == 1
    screen.press_first_move()
    page.locator("#takeback").wait_for()
    walk.look("a move to take back")
    page.locator("#takeback").tap()
    page.wait_for_function("() => !document.querySelector('#takeback')")
    screen.settled()
    walk.look("after a take-back")
    assert not walk.english, sorted(walk.english.items())
    assert walk.languages == {"ja"}, walk.languages


def test_a_japanese_seat_previews_an_operation(walk, stack):
    """Gematon's operate is previewed before it is sent: the preview's words and its
    picture in Japanese."""
    page, screen = walk.page, walk.screen
    table = Table(stack, "gematon", 2, seed=4)
    table.others_move()
    screen.open(table.link())
    page.locator('#moves button.move:has-text("オペレート")').first.click()
    page.locator("#preview-confirm").wait_for()
    walk.look("a move's preview before it is confirmed")
    assert page.locator("#preview .preview-picture svg title").evaluate(
        "t => t.textContent").startswith("ゲマトン")
    assert not walk.english, sorted(walk.english.items())
    assert walk.languages == {"ja"}, walk.languages


def test_a_japanese_companion_table_its_picker_and_the_others_waiting(walk, stack):
    """Companion Three Magic: the phone whose deal is awaited (its card picker and the
    deal's several-at-once picker), a phone waiting on another seat, and the table device
    with its public controls, all in Japanese."""
    page, screen = walk.page, walk.screen
    created = requests.post(f"{stack.url}/v1/sessions", timeout=10, json={
        "game": "threemagic", "players": 3, "seed": 3, "mode": "companion"}).json()
    sid, tokens = created["session_id"], {s["seat"]: s["token"] for s in created["seats"]}
    awaited = requests.get(f"{stack.url}/v1/sessions/{sid}", timeout=10, headers=bearer(
        created["table_token"])).json()["view"]["awaiting"]
    other = next(seat for seat in tokens if seat != awaited)
    screen.open(f"play={sid}&token={tokens[awaited]}")
    assert screen.banner().startswith("引いたものを入力してください")
    walk.look("a companion phone whose draw is awaited, with its picker")
    several = page.get_by_text("まとめて選ぶ", exact=False)  # the opening deal: several cards
    assert several.count(), "the deal's several-at-once picker is offered"
    several.first.click()
    walk.look("the deal's several-at-once picker")
    screen.open(f"play={sid}&token={tokens[other]}")
    assert screen.banner().startswith(f"プレイヤー{awaited}が引いたものを入力しています")
    walk.look("a companion phone waiting on another seat's draw")
    screen.open(f"play={sid}&token={created['table_token']}")
    assert screen.banner().startswith(f"プレイヤー{awaited}が引いたものを入力しています")
    walk.look("the companion table device")
    assert walk.states == 4
    assert not walk.english, sorted(walk.english.items())
    assert walk.languages == {"ja"}, walk.languages


def test_every_problem_code_has_the_pages_own_japanese():
    """A detail the server words in English on a Japanese page is replaced by the page's
    Japanese for its code (i18n.js): every code a problem can carry has one."""
    words = (Path(__file__).parents[1] / "gateway" / "referee_gateway" / "static" / "i18n.js").read_text()
    translated = set(re.findall(r'"problem\.code\.(\w+)": "[^"]*[\u3040-\u30ff\u4e00-\u9fff]', words))
    assert translated == set(CODES), set(CODES) ^ translated
