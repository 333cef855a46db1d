"""The table in a browser (issue 13): the gateway's web app at /, driven through real
Chromium (Debian's package, by Playwright) against the real stack — gunicorn, Redis, every
game service. A whole tabletop game of every game, a digital game with two seats in two
browser contexts, and each game's score-helper form.

PAGE_SCREENSHOTS=docs/screenshots re-takes the README's screenshots (390 px wide)."""

import re
from pathlib import Path

import pytest
import requests

from browser import PHONE, Screen, launch_chromium
from referee.embedded import free_port
from referee.stack import Stack, installed_games
from support import bearer

pytestmark = pytest.mark.e2e
STATIC = Path(__file__).parents[1] / "gateway" / "referee_gateway" / "static"
GAMES = sorted(installed_games())
MAX_STEPS = 1500     # a whole game by first buttons takes 60 to 420 entries
SCREENSHOT_AT = 24   # entries into a game: its mid-game screenshot


@pytest.fixture(scope="module")
def stack(redis_url):
    # The page fires requests far faster than people: the limiter has its own test.
    with Stack(port=free_port(), workers=1, threads=4, redis_url=redis_url,
               log=lambda line: None,
               env={"LOG_LEVEL": "warning", "RATE_LIMIT_PER_MINUTE": "0"}) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    playwright, chromium = launch_chromium()
    yield chromium
    chromium.close()
    playwright.stop()


@pytest.fixture
def screen(browser, stack):
    context = browser.new_context(viewport=PHONE, locale="en-US")
    opened = Screen(context.new_page(), stack.url)
    yield opened
    context.close()
    assert not opened.errors, f"the page's scripts failed: {opened.errors}"


def info(stack, game) -> dict:
    return requests.get(f"{stack.url}/v1/games/{game}", timeout=10).json()


def start_table(screen: Screen, game: str, players: int, mode: str,
                others: str = "People (they join with the code)") -> str:
    """Start a table from the first screen's form; answer its session id."""
    screen.open()
    form = screen.page.locator("form.start")
    form.get_by_label("Game", exact=True).select_option(game)
    form.get_by_label("Players", exact=True).select_option(str(players))
    form.get_by_role("radio", name="Tabletop" if mode == "tabletop" else "Digital").check()
    form.get_by_label("The other seats", exact=True).select_option(label=others)
    form.get_by_role("button", name="Start the table").click()
    screen.settled("play")
    return screen.fragment()["play"]


# ---------------------------------------------------------------------------- served
def test_the_page_and_its_assets_are_served_by_the_gateway_alone(stack):
    """No build, no CDN: / and every module it imports come from the gateway, and the
    page's policy lets the browser load and call nothing else."""
    page = requests.get(f"{stack.url}/", timeout=10)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert "connect-src 'self'" in policy and page.headers["Referrer-Policy"] == "no-referrer"
    served = set()
    todo = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)
    while todo:
        path = todo.pop()
        if path in served:
            continue
        served.add(path)
        answer = requests.get(f"{stack.url}{path}", timeout=10)
        assert answer.status_code == 200, path
        if path.endswith(".js"):
            assert "javascript" in answer.headers["Content-Type"], path
            todo += [f"/static/{name}" for name in
                     re.findall(r'from "\./([\w.]+)"', answer.text)]
    assert {f"/static/{p.name}" for p in STATIC.glob("*.js")} <= served | {"/static/app.js"}
    for asset in STATIC.iterdir():  # nothing fetched from anywhere else
        assert "://" not in asset.read_text().replace("http://www.w3.org", ""), asset.name


# ---------------------------------------------------------------------------- tabletop
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_tabletop_game_through_the_page(screen, stack, game):
    """The table token enters every move and every chance outcome by pressing the first
    listed button, undoes and redoes an entry, and ends on the score the API gives."""
    players = info(stack, game)["min_players"]
    sid = start_table(screen, game, players, "tabletop")
    token = screen.table_token(sid)
    assert token and screen.fragment()["token"] == token, "the table's link holds its token"
    chance_entries = 0
    for step in range(MAX_STEPS):
        if screen.page.locator("#score .score").count():
            break
        if step == 3:
            undo_and_redo(screen)
        if step == SCREENSHOT_AT:
            screen.shoot(game)
        if screen.page.locator("#moves h2").inner_text() == "What happened at the table?":
            chance_entries += 1
        screen.press_first_move()
    else:
        pytest.fail(f"{game} did not end in {MAX_STEPS} entries")
    assert chance_entries > 0, "every game has chance: the table entered what happened"
    assert screen.banner() == "Game over" and not screen.move_buttons().count()
    score = requests.get(f"{stack.url}/v1/sessions/{sid}/score", headers=bearer(token),
                         timeout=10).json()
    assert score["final"]
    cards = screen.page.locator("#score .score-card h3").all_inner_texts()
    assert cards == [f"{r['rank']}. Seat {r['seat']}: {r['total']}" for r in score["ranking"]]


def undo_and_redo(screen: Screen) -> None:
    """Undo takes the table back to the moves before the last entry; redo forward again."""
    before = screen.move_buttons().all_inner_texts()
    version = screen.press_first_move()
    after = screen.move_buttons().all_inner_texts()
    screen.page.get_by_role("button", name="Undo the last entry").click()
    version = screen.wait_version(version)
    assert screen.move_buttons().all_inner_texts() == before
    assert "(undone)" in screen.page.locator(".log li").all_inner_texts()[-2]  # oldest first
    screen.page.get_by_role("button", name="Redo").click()
    screen.wait_version(version)
    assert screen.move_buttons().all_inner_texts() == after


# ---------------------------------------------------------------------------- digital
def test_a_digital_game_two_seats_in_two_browsers_see_each_others_moves_live(
        browser, stack):
    """The host starts an open table and takes seat 1; a second browser joins with the
    code as read aloud; each sees the other's moves arrive on the event stream (no reload),
    and neither page holds a token but its own."""
    contexts = [browser.new_context(viewport=PHONE, locale="en-US") for _ in range(2)]
    host, guest = (Screen(c.new_page(), stack.url) for c in contexts)
    try:
        sid = start_table(host, "gematon", 2, "digital")
        code = host.page.locator(".join-code").inner_text()
        table_token = host.table_token(sid)
        host.page.get_by_role("button", name="Take seat 1 on this device").click()
        host.settled("play")
        assert host.fragment()["play"] == sid and host.banner().startswith("Waiting for players")

        guest.open()
        join = guest.page.locator("form.join")
        join.get_by_label("Join code").fill(code.lower().replace("-", " "))
        join.get_by_role("button", name="Join").click()
        guest.settled("play")
        host.page.wait_for_function("() => !document.querySelector('#banner')"
                                    ".textContent.startsWith('Waiting for players')")
        tokens = {1: host.fragment()["token"], 2: guest.fragment()["token"]}
        assert len(set(tokens.values())) == 2 and table_token not in tokens.values()

        screens = {1: host, 2: guest}
        for _ in range(8):
            mover = next(s for s in screens if screens[s].banner() == "Your turn")
            watcher = screens[3 - mover]
            before = watcher.version()
            assert not watcher.move_buttons().count(), "only the seat to move has buttons"
            moved = screens[mover].press_first_move()
            # pushed by the event stream (the watcher did nothing), with what its token sees
            assert watcher.wait_version(moved - 1) == moved
            entries = requests.get(
                f"{stack.url}/v1/sessions/{sid}/log?since={before}", timeout=10,
                headers={**bearer(tokens[3 - mover]), "Accept-Language": "en"}).json()["entries"]
            texts = [e["move"]["text"] for e in entries if "move" in e]
            assert any(text.startswith(f"Seat {mover}:") for text in texts)
            # oldest first, each numbered by its version
            log = watcher.page.locator(".log li")
            assert log.all_inner_texts()[-len(texts):] == texts
            assert log.last.get_attribute("value") == str(entries[-1]["version"])
        for seat, screen in screens.items():
            html = screen.page.content()
            others = [t for s, t in tokens.items() if s != seat] + [table_token]
            assert not any(t in html for t in others), "a page holds only its own token"
            assert all(t not in screen.page.url for t in others)
        assert not host.errors and not guest.errors, host.errors + guest.errors
    finally:
        for context in contexts:
            context.close()


def test_a_digital_game_against_bots_in_one_browser(screen, stack):
    """Play against the computer: the other seats are bots; the host takes seat 1, and after
    each of its moves the bots' moves arrive by themselves on the event stream."""
    sid = start_table(screen, "gematon", 3, "digital", others="Bots: random")
    seats = screen.page.locator(".host .seats li").all_inner_texts()
    assert seats[1:] == ["Seat 2: a bot plays", "Seat 3: a bot plays"]
    screen.page.get_by_role("button", name="Take seat 1 on this device").click()
    screen.settled("play")
    for _ in range(4):
        screen.page.wait_for_function(
            "() => document.querySelector('#banner').textContent === 'Your turn'")
        screen.press_first_move()  # then the bots move, and the page shows it unasked
    entries = requests.get(f"{stack.url}/v1/sessions/{sid}/log", timeout=10, headers=bearer(
        screen.fragment()["token"])).json()["entries"]
    assert {"bot:2", "bot:3"} <= {e.get("by") for e in entries}


def test_a_moves_late_answer_does_not_take_the_screen_back_behind_the_bots(screen, stack):
    """The bots may have moved, and the event stream told the page so, before the browser
    reads the answer to the move that let them: that late answer must not turn the screen
    back to before the bots (it once left "Waiting for Seat 2" up for good)."""
    start_table(screen, "gematon", 3, "digital", others="Bots: random")
    page = screen.page
    page.get_by_role("button", name="Take seat 1 on this device").click()
    screen.settled("play")
    your_turn_after = ("v => { const m = document.querySelector('main');"
                       " return +m.dataset.version > v && m.dataset.busy === 'false' &&"
                       " document.querySelector('#banner').textContent === 'Your turn'; }")
    page.wait_for_function(your_turn_after, arg=-1)
    streamed_after = your_turn_after.replace(" && m.dataset.busy === 'false'", "")
    held = []

    def answer_after_the_bots(route):
        answer = route.fetch()  # the move lands
        moved = answer.json()
        if moved["to_move"] and 1 not in moved["to_move"]:  # and the bots answer it
            held.append(moved["version"])
            # streamed and drawn (the page stays busy: its press waits for this answer)
            page.wait_for_function(streamed_after, arg=moved["version"])
            # the page redraws its log when it reads the answer: this entry goes then
            page.locator(".log li").last.evaluate("li => { li.dataset.held = '1'; }")
        route.fulfill(response=answer)

    page.route("**/moves", answer_after_the_bots)
    for _ in range(MAX_STEPS):  # a seat may move more than once before the bots do
        before = screen.version()
        with page.expect_response("**/moves"):
            screen.move_buttons().first.press("Enter")
            screen.confirm_preview(before)  # an operation is previewed first
        if held:
            break
        page.wait_for_function(your_turn_after, arg=before)
    page.wait_for_function("() => !document.querySelector('.log li[data-held]')")
    page.wait_for_function("() => document.querySelector('main').dataset.busy === 'false'")
    page.unroute("**/moves")
    shown = screen.version()
    assert shown > held[0] and screen.banner() == "Your turn", (held, shown, screen.banner())
    assert screen.move_buttons().count(), "the seat's moves are offered"
    assert screen.press_first_move() > shown, "and the game goes on"


# ---------------------------------------------------------------------------- score helper
#: a tally each game's helper scores (its schema's example where it has one) and a field
#: to spoil, the path of the error's field, and what to type there
TALLIES = {
    "gizmos": {"fill": {"seats.0.built": "136 102", "seats.0.vp_tokens": "1",
                        "seats.0.energy": "2", "seats.1.built": "", "seats.1.vp_tokens": "0",
                        "seats.1.energy": "0"},
               "body": {"seats": [{"seat": 1, "built": [136, 102], "vp_tokens": 1, "energy": 2},
                                  {"seat": 2, "built": [], "vp_tokens": 0, "energy": 0}]},
               "spoil": ("seats.1.energy", "99")},
    "ghostone": {"spoil": ("escapes.1.plate", '"c3"')},
    "gematon": {"spoil": ("seats.0.track", "-1")},
    "threemagic": {"spoil": ("winning_card", "X9")},
    "vectron": {"spoil": ("gauges", "7 8")},
}


@pytest.mark.parametrize("game", GAMES)
def test_each_score_helper_form_scores_and_shows_errors_beside_their_field(
        screen, stack, game):
    tally = TALLIES[game]
    screen.open(f"calc={game}")
    page = screen.page
    if "fill" in tally:
        for path, text in tally["fill"].items():
            fill(page, path, text)
        body = tally["body"]
    else:
        page.get_by_role("button", name="Fill in the example").click()
        schemas = requests.get(f"{stack.url}/openapi.json", timeout=30).json()
        body = schemas["components"]["schemas"][f"{game.capitalize()}CalculateRequest"][
            "examples"][0]
    expected = requests.post(f"{stack.url}/v1/games/{game}/calculate", json=body, timeout=10)
    assert expected.status_code == 200, expected.text
    page.get_by_role("button", name="Score", exact=True).click()
    screen.settled("calc")
    cards = page.locator(".result .score-card h3").all_inner_texts()
    assert cards == [f"{r['rank']}. Seat {r['seat']}: {r['total']}"
                     for r in expected.json()["ranking"]]
    if game == "gematon":
        screen.shoot("calculate")

    path, text = tally["spoil"]
    fill(page, path, text)
    page.get_by_role("button", name="Score", exact=True).click()
    screen.settled("calc")
    field = page.locator(f'[data-path="{path}"]')
    error = field.locator(":scope > .error")
    assert error.is_visible() and error.inner_text(), f"no error beside {path}"
    invalid = page.locator('[aria-invalid="true"]')
    assert invalid.count() >= 1 and page.evaluate(
        "() => document.activeElement.getAttribute('aria-invalid')") == "true"
    assert not page.locator(".result .score-card").count()


def test_a_score_helper_error_in_japanese_is_beside_its_field_too(browser, stack):
    """The API's Japanese sentence says first what it is about where the English one does
    (``escapes[1].plate: …``, 「プレイヤー1：…」), and names its rule once. (A sentence the
    page places by an English word it names, as Vectron's "the gauges add up…", is shown
    above the form in Japanese: README, "Errors".)"""
    game = "ghostone"
    context = browser.new_context(viewport=PHONE, locale="ja-JP")
    screen = Screen(context.new_page(), stack.url)
    try:
        screen.open(f"calc={game}")
        page = screen.page
        page.get_by_role("button", name="例を入力").click()
        path, text = TALLIES[game]["spoil"]
        fill(page, path, text)
        page.get_by_role("button", name="計算", exact=True).click()
        screen.settled("calc")
        error = page.locator(f'[data-path="{path}"]').locator(":scope > .error")
        assert error.is_visible(), f"no error beside {path}"
        said = error.inner_text()
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", said) and said.count("規則") <= 1, said
        assert not screen.errors, screen.errors
    finally:
        context.close()


def fill(page, path: str, text: str) -> None:
    """Type into the field at a schema path: a select takes the option with that label."""
    control = page.locator(f'[data-path="{path}"]').locator(":scope > input, :scope > select")
    if control.evaluate("e => e.tagName") == "SELECT":
        control.select_option(label=text.strip('"'))
    else:
        control.fill(text)


# ---------------------------------------------------------------------------- accessible
TOUCH_PX = 40  # the smallest control a finger is asked to hit (most are 48)


def assert_usable_at_phone_width(screen: Screen) -> None:
    page = screen.page
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"], \
        "nothing scrolls sideways at phone width"
    controls = page.locator("main button:visible, main select:visible, main a.button:visible,"
                            " main input:not([type=checkbox]):not([type=radio]):visible")
    for box in [c.bounding_box() for c in controls.all()]:
        assert box["height"] >= TOUCH_PX, f"a control {box['height']} px high"
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input, select')]
        .filter(e => !e.labels || !e.labels.length).map(e => e.outerHTML)""")
    assert not unlabelled, unlabelled


def test_every_screen_fits_a_phone_and_is_labelled(screen, stack):
    screen.open()
    assert_usable_at_phone_width(screen)
    screen.open("calc=gizmos")
    assert_usable_at_phone_width(screen)
    start_table(screen, "ghostone", 3, "tabletop")
    assert_usable_at_phone_width(screen)


def test_a_table_is_played_by_keyboard_alone_with_focus_visible(screen, stack):
    """Tab reaches the moves and Enter plays one; the focused control is outlined; the
    live region says whose turn it is."""
    start_table(screen, "ghostone", 3, "tabletop")
    page = screen.page
    first = screen.move_buttons().first.inner_text()
    screen.tab_to_a_move()
    assert page.evaluate("document.activeElement.textContent") == first
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    version = screen.version()
    page.keyboard.press("Enter")
    screen.wait_version(version)
    page.wait_for_function("() => document.getElementById('announce').textContent !== ''")
    assert page.locator("#announce").get_attribute("aria-live") == "polite"


def seat_to_move(browser, stack, game: str, seed: int) -> tuple:
    """A new two-player digital session's seat to move, opened at phone size in a context
    of its own: ``(context, screen)`` (the caller closes the context)."""
    created = requests.post(f"{stack.url}/v1/sessions", timeout=10, json={
        "game": game, "players": 2, "seed": seed}).json()
    seat = created["to_move"][0]
    token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
    context = browser.new_context(viewport=PHONE, locale="en-US")
    screen = Screen(context.new_page(), stack.url)
    screen.open(f"play={created['session_id']}&token={token}")
    return context, screen


def test_a_digital_seat_hears_your_turn(browser, stack):
    """The seat to move is told "Your turn" in the banner and the live region."""
    context, screen = seat_to_move(browser, stack, "vectron", seed=1)
    try:
        assert screen.banner() == "Your turn"
        assert "your-turn" in screen.page.locator("#banner").get_attribute("class")
        screen.page.wait_for_function(
            "() => document.getElementById('announce').textContent === 'Your turn'")
        assert screen.page.locator("#sound").is_checked() is False, "sounds are off by default"
    finally:
        context.close()


def test_clicking_a_plate_on_the_picture_lists_its_moves(screen, stack):
    start_table(screen, "ghostone", 3, "tabletop")
    page = screen.page
    everything = int(re.search(r"\d+", page.locator("#moves button.secondary").last.inner_text())[0])
    page.locator("#picture g.plate.b2").click()  # inside the picture's shadow root
    picked = page.locator("#moves .pick").inner_text()
    assert picked.startswith("Moves with b2: ")
    listed = screen.move_buttons().all_inner_texts()
    assert 0 < int(re.search(r": (\d+)", picked)[1]) < everything
    assert listed and all("b2" in text for text in listed)
    assert page.evaluate("document.activeElement.textContent") == listed[0]
    page.get_by_role("button", name="Show every move").click()
    assert page.get_by_role("button", name=f"Show all {everything} moves").count() == 1


def test_the_page_speaks_japanese_by_the_browser_and_switches(browser, stack):
    """The browser's language chooses Japanese: the page's words and the API's sentences
    (Accept-Language) are Japanese; the switch turns both to English."""
    context = browser.new_context(viewport=PHONE, locale="ja-JP")
    screen = Screen(context.new_page(), stack.url)
    try:
        screen.open()
        assert screen.page.locator("h1").inner_text() == "あなたのテーブルのルール審判"
        assert screen.page.evaluate("document.documentElement.lang") == "ja"
        form = screen.page.locator("form.start")
        form.get_by_label("ゲーム", exact=True).select_option("ghostone")
        form.get_by_role("radio", name="テーブル").check()
        form.get_by_role("button", name="テーブルを始める").click()
        screen.settled("play")
        assert screen.move_buttons().first.inner_text().startswith("プレイヤー1：")
        screen.shoot("ja")
        screen.page.locator("#language").select_option("en")
        screen.settled("play")
        assert screen.move_buttons().first.inner_text().startswith("Seat 1:")
        assert screen.page.evaluate("document.documentElement.lang") == "en"
        assert not screen.errors, screen.errors
    finally:
        context.close()
