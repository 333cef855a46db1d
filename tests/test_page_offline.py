"""The page at a table with a real network (issue 29): offline is a state, not a crash, and the
table device can always come back. Real Chromium (Playwright) against the real stack; the
network is cut by the browser's own offline mode or by a route that aborts every request.

The 10 s outages are the scenario, not a measure; "within 5 s of reconnection" is an upper
bound (the page asks /healthz at most 3 s apart, jittered)."""

import time

import pytest
import requests
from browser import PHONE, Screen
from support import bearer

# the page tests' fixtures (one stack, one browser per module), shared by name: pytest finds
# them in this module's namespace, and each test's parameter of that name is that fixture
# ruff: noqa: F811
from test_page import browser, screen, stack, start_table  # noqa: F401

pytestmark = pytest.mark.e2e
OUTAGE_S = 10
BACK_WITHIN_MS = 5000
LOST = "No connection to the referee. Nothing is lost: trying again…"


def server(stack, sid: str, token: str) -> dict:
    """What the API says now: the version, and the moves listed for the table (English)."""
    headers = {**bearer(token), "Accept-Language": "en"}
    listing = requests.get(f"{stack.url}/v1/sessions/{sid}/legal-moves", headers=headers,
                           timeout=10).json()
    return {"version": listing["version"],
            "moves": [m["text"] for m in listing["moves"] if not m.get("describe")]}


def moves_logged(stack, sid: str, token: str, since: int) -> list[dict]:
    entries = requests.get(f"{stack.url}/v1/sessions/{sid}/log?since={since}", timeout=10,
                           headers=bearer(token)).json()["entries"]
    return [e for e in entries if "move" in e]


def play_on_another_device(stack, sid: str, token: str) -> int:
    """The table's token, from elsewhere (a second device), enters the first legal move."""
    listing = requests.get(f"{stack.url}/v1/sessions/{sid}/legal-moves", headers=bearer(token),
                           timeout=10).json()
    move = {k: v for k, v in listing["moves"][0].items() if k not in ("text", "p", "describe")}
    moved = requests.post(f"{stack.url}/v1/sessions/{sid}/moves", json={"move": move},
                          headers=bearer(token), timeout=10)
    assert moved.status_code == 200, moved.text
    return moved.json()["version"]


def assert_back_as_the_server_is(screen: Screen, stack, sid: str, token: str,
                                 landing: int | None = None) -> None:
    """Within 5 s: the status line is gone, and the screen shows the server's version and
    the moves the API lists at it (the first of them, in order). ``landing``: the version
    a kept move makes, waited for first (the page sends it on its return)."""
    if landing is not None:
        screen.page.wait_for_function(
            "v => +document.querySelector('main').dataset.version >= v", arg=landing,
            timeout=BACK_WITHIN_MS)
    now = server(stack, sid, token)
    try:
        wait_back(screen, now)
    except Exception as error:
        state = screen.page.evaluate(
            "() => ({version: document.querySelector('main').dataset.version,"
            " busy: document.querySelector('main').dataset.busy,"
            " connection: document.getElementById('connection').hidden,"
            " notice: document.getElementById('notice').textContent,"
            " banner: document.getElementById('banner').textContent,"
            " first: (document.querySelector('#moves button.move') || {}).outerHTML})")
        raise AssertionError(f"not back as the server is {now['version']}: {state}") from error
    assert screen.version() == now["version"]


def wait_back(screen: Screen, now: dict) -> None:
    screen.page.wait_for_function(
        "v => { const m = document.querySelector('main');"
        " return +m.dataset.version === v && m.dataset.busy === 'false'"
        " && document.getElementById('connection').hidden; }",
        arg=now["version"], timeout=BACK_WITHIN_MS)
    screen.page.wait_for_function(
        "first => { const b = document.querySelector('#moves button.move');"
        " return b && !b.disabled && b.textContent.startsWith(first); }",
        arg=now["moves"][0], timeout=BACK_WITHIN_MS)


def test_ten_seconds_offline_a_move_tapped_meanwhile_lands_exactly_once(screen, stack):
    """The browser goes offline for 10 s: the page says so in its language and keeps the
    move tapped meanwhile; back online, the move is sent once and the table is as the
    server has it."""
    sid = start_table(screen, "ghostone", 3, "tabletop")
    token = screen.fragment()["token"]
    page = screen.page
    for _ in range(3):
        screen.press_first_move()
    before = screen.version()

    page.context.set_offline(True)
    cut = time.monotonic()
    page.locator("#connection").wait_for(state="visible")
    assert page.locator("#connection span").inner_text() == LOST
    tapped = screen.move_buttons().first.inner_text()
    screen.move_buttons().first.click()
    page.locator("#notice").wait_for(state="visible")
    assert page.locator("#notice").inner_text().startswith(
        f"No connection: “{tapped.split(' (')[0]}” is kept")
    assert server(stack, sid, token)["version"] == before, "nothing was sent offline"
    # (the browser's own wait: the route's handler runs meanwhile, as it would not in a sleep)
    page.wait_for_timeout(max(0.0, OUTAGE_S - (time.monotonic() - cut)) * 1000)

    page.context.set_offline(False)
    assert_back_as_the_server_is(screen, stack, sid, token, landing=before + 1)
    landed = moves_logged(stack, sid, token, before)
    assert [e["version"] for e in landed] == [before + 1], "the kept move landed exactly once"
    assert screen.version() == before + 1
    assert page.locator("#notice").is_hidden()


def test_every_request_and_the_stream_aborted_for_ten_seconds(screen, stack):
    """A route aborts every request for 10 s while another device plays on: the page
    notices (the pushed move's follow-up requests fail), drops its stream, and a move tapped
    on the stale screen is refused by If-Match once back — said so, never played. Then the
    page shows the other device's version and moves."""
    sid = start_table(screen, "ghostone", 3, "tabletop")
    token = screen.fragment()["token"]
    page = screen.page
    screen.press_first_move()
    before = screen.version()
    aborted = []

    def abort(route):
        aborted.append(route.request.url)
        route.abort("internetdisconnected")

    page.route("**/*", abort)
    cut = time.monotonic()
    elsewhere = play_on_another_device(stack, sid, token)
    page.locator("#connection").wait_for(state="visible")
    page.wait_for_function("() => [...document.querySelectorAll('#moves button.move')]"
                           ".some(b => !b.disabled)")  # the stale moves, still tappable
    tapped = screen.move_buttons().first.inner_text().split(" (")[0]
    screen.move_buttons().first.click()
    page.locator("#notice").wait_for(state="visible")
    # (the browser's own wait: the route's handler runs meanwhile, as it would not in a sleep)
    page.wait_for_timeout(max(0.0, OUTAGE_S - (time.monotonic() - cut)) * 1000)
    assert any("/healthz" in url for url in aborted), ("the page kept asking", aborted)

    streams = []  # the page dropped its stream when it lost the network: it opens a new one
    page.on("request", lambda r: "/events" in r.url and streams.append(r.headers))
    page.unroute("**/*")
    assert_back_as_the_server_is(screen, stack, sid, token)
    assert streams and "last-event-id" in streams[0], "resumed from the last event seen"
    assert page.locator("#notice").inner_text() == (
        f"The position changed while you were offline: “{tapped}” was not played. "
        "Here is the table now.")
    assert [e["version"] for e in moves_logged(stack, sid, token, before)] == [elsewhere]
    assert screen.press_first_move() == elsewhere + 1, "and the game goes on"


def test_a_move_whose_answer_was_lost_is_sent_again_with_its_key_and_lands_once(
        screen, stack):
    """The move reaches the server but its answer is lost on the way back: the page keeps
    it, sends it again with the same Idempotency-Key, and the log holds it once."""
    sid = start_table(screen, "ghostone", 3, "tabletop")
    token = screen.fragment()["token"]
    page = screen.page
    before = screen.version()
    keys = []

    def land_then_lose_the_answer(route):
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            route.fetch()  # it lands
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/moves", land_then_lose_the_answer)
    screen.move_buttons().first.click()
    assert_back_as_the_server_is(screen, stack, sid, token, landing=before + 1)
    assert len(keys) == 2 and keys[0] == keys[1], keys
    assert [e["version"] for e in moves_logged(stack, sid, token, before)] == [before + 1]
    assert screen.version() == before + 1


def test_offline_is_said_in_the_pages_language_and_a_screen_that_failed_loads_when_back(
        browser, stack):
    """In Japanese the status line and a screen that could not load say so in Japanese
    (never the browser's "Failed to fetch"), and the screen loads by itself once back."""
    context = browser.new_context(viewport=PHONE, locale="ja-JP")
    screen = Screen(context.new_page(), stack.url)
    try:
        screen.open()
        context.set_offline(True)
        screen.page.locator("#connection").wait_for(state="visible")
        assert screen.page.locator("#connection span").inner_text() == (
            "審判に接続できません。データは失われていません。再接続しています…")
        screen.page.evaluate("location.hash = 'again'")  # the first screen again: it cannot load
        screen.settled("error")
        assert screen.page.locator("h1").inner_text() == "接続がありません"
        assert "Failed to fetch" not in screen.page.locator("main").inner_text()
        context.set_offline(False)
        screen.page.wait_for_selector("main[data-screen=home][data-busy=false]",
                                      timeout=BACK_WITHIN_MS)
        assert screen.page.locator("#connection").is_hidden()
        assert not screen.errors, screen.errors
    finally:
        context.close()
