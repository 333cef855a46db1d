"""Companion mode on the page (issue 32 item 4): a whole companion game of every game with
secrets, played in real Chromium against the real stack, with four browser contexts — the
table device (which created the table from the first screen's form) and three phones (each
joined by the table's code). Every entry and move is made on the pages: a private outcome
on the receiving seat's phone (a single draw by its button, a run of several — a deal — by
the card picker, each phone picking all its cards on one screen and the pages entering them
in turn), a public one on the table device, a seat's move on its phone.

The physical truth is the test's deck: the referee's held state (read from Redis, as the
real cards would be in real hands) says which outcomes are really left, and the test draws
among those, seeded. After every step each page is checked: the banner says whose entry is
awaited (never what), and no page shows any card that only another seat may see.

PAGE_SCREENSHOTS=docs/screenshots also takes the README's phone and table-device pair."""

import json
import random
import re
import time
from xml.etree import ElementTree

import pytest
import requests
from browser import DESKTOP, PHONE_TOUCH, Screen
from referee.embedded import free_port
from referee.engine import ANNOTATIONS, CHANCE, TABLE, canonical
from referee.registry import engines
from referee.sessions.store import SessionStore, connect
from referee.stack import Stack
from support import bearer

# the page tests' browser (one per module), shared by name
# ruff: noqa: F811
from test_page import browser  # noqa: F401

pytestmark = pytest.mark.e2e
PLAYERS = 3
SHOWN = 24          # the buttons play.js lists before "Show all"
MAX_STEPS = 2000    # a whole game: 60 (Gematon) to about 500 (Three Magic) steps
SCREENSHOT_GAME, SCREENSHOT_AT = "threemagic", 40
CARD_NAME = re.compile(r"(?=.*[A-Za-z])(?=.*\d)[\w*]{2,}")  # a word, not "hidden"
PICTURE_EVERY = 10  # steps between two comparisons of each page's picture with the API's


@pytest.fixture(scope="module")
def stack(redis_url):
    """test_page's stack, with patient upstream timeouts: four browsers play whole games on
    a machine that may be shared (a game service answering late must not turn into a 503
    that leaves a page waiting; the timeouts have their own tests)."""
    with Stack(port=free_port(), workers=1, threads=4, redis_url=redis_url,
               log=lambda line: None,
               env={"LOG_LEVEL": "warning", "RATE_LIMIT_PER_MINUTE": "0",
                    "UPSTREAM_CONNECT_TIMEOUT": "10", "UPSTREAM_READ_TIMEOUT": "120"}) as running:
        yield running


def bare(move: dict) -> dict:
    return {k: v for k, v in move.items() if k not in ANNOTATIONS}


def listing(stack, sid: str, token: str) -> list[dict]:
    answer = requests.get(f"{stack.url}/v1/sessions/{sid}/legal-moves", headers=bearer(token),
                          timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()["moves"]


def leaves(value) -> set:
    """Every string and number in a view."""
    if isinstance(value, dict):
        return set().union(*map(leaves, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(leaves, value)) if value else set()
    return {value} if isinstance(value, (str, int)) and not isinstance(value, bool) else set()


def secrets_hidden_from(engine, state, seat) -> set[str]:
    """What another seat's view holds and ``seat``'s (None: the table, seen as the
    spectator) holds nowhere: the cards of other hands only they may see. As words a page
    could show: card names (a letter and a digit: "R2*", "D1"), card numbers from 100 up (Gizmos' ids,
    also as the picture's ``c301`` classes). Gematon's chip values (1–7) are everywhere on a
    board and are not words to look for: its hands are covered by the same pages' code."""
    mine = leaves(engine.view(state, seat))
    others = set().union(*(leaves(engine.view(state, other))
                           for other in range(1, PLAYERS + 1) if other != seat))
    words = set()
    for leaf in others - mine:
        if isinstance(leaf, str) and CARD_NAME.fullmatch(leaf):
            words.add(leaf)
        elif isinstance(leaf, int) and leaf >= 100:
            words |= {str(leaf), f"c{leaf}"}
    return words


def shown_words(screen: Screen) -> set[str]:
    """Every word the page shows or holds in its picture: its text, and the picture's text
    (titles too), classes and ids (not its coordinates: x="308" names no card)."""
    blob = screen.page.evaluate("""() => {
      const svg = document.getElementById('picture').shadowRoot.querySelector('svg');
      const named = svg ? [...svg.querySelectorAll('*')].flatMap((n) => [...n.classList, n.id]) : [];
      // each text element apart: "Seat 3" beside "17 VP" is not "Seat 317 VP"
      const texts = svg ? [...svg.querySelectorAll('text, tspan, title, desc')].map((n) => n.textContent) : [];
      return [document.querySelector('main').innerText, ...texts, ...named].join(' ');
    }""")
    # a picture's title and the log name versions ("public view, version 317"), and from
    # 100 on a version is a number a Gizmos card has too: not a card word
    return set(re.findall(r"[\w*]+", re.sub(r"version \d+", "", blob)))


def where_shown(screen: Screen, words: set[str]) -> list[str]:
    """Where on the page each word shows: the element and its text (for the failure)."""
    return screen.page.evaluate("""(words) => {
      const svg = document.getElementById('picture').shadowRoot.querySelector('svg');
      const nodes = [...document.querySelectorAll('main *'), ...(svg ? svg.querySelectorAll('*') : [])];
      return nodes.filter((n) => !n.children.length || n.classList.length)
        .map((n) => `${n.tagName}.${[...n.classList].join('.')}#${n.id}: ${(n.textContent || '').slice(0, 120)}`)
        .filter((line) => words.some((w) => new RegExp(`(^|[^\\w*])c?${w}([^\\w*]|$)`).test(line)));
    }""", sorted(words))


class Table:
    """The table device and the three phones of one companion game, and the test's deck."""

    def __init__(self, browser, stack, redis_url, game):
        self.stack, self.game, self.engine = stack, game, engines()[game]
        self.contexts = [browser.new_context(viewport=DESKTOP, locale="en-US")]
        self.contexts += [browser.new_context(**PHONE_TOUCH, locale="en-US")
                          for _ in range(PLAYERS)]
        self.table, *phones = [Screen(c.new_page(), stack.url) for c in self.contexts]
        self.store = SessionStore(connect(redis_url), 3600)
        self.rnd = random.Random(f"companion-page:{game}")
        self.sid = self.create()
        self.phones = {}
        for seat, phone in enumerate(phones, 1):
            self.join(phone, seat)
            self.phones[seat] = phone
        self.tokens = {seat: phone.fragment()["token"] for seat, phone in self.phones.items()}
        self.tokens[TABLE] = self.table.table_token(self.sid)
        self.counts = {"steps": 0, "private": 0, "picked_runs": 0, "public": 0, "moves": 0,
                       "secret_words_checked": 0, "pictures_compared": 0,
                       "previews_confirmed": 0}

    def close(self):
        for context in self.contexts:
            context.close()
        self.store.client.close()

    @property
    def screens(self):
        return [self.table, *self.phones.values()]

    def create(self) -> str:
        """The table device starts a companion table from the first screen's form."""
        screen = self.table.open()
        form = screen.page.locator("form.start")
        form.get_by_label("Game", exact=True).select_option(self.game)
        form.get_by_label("Players", exact=True).select_option(str(PLAYERS))
        form.get_by_role("radio", name="Companion").check()
        form.get_by_role("button", name="Start the table").click()
        screen.settled("play")
        self.code = screen.page.locator(".join-code").inner_text()
        return screen.fragment()["play"]

    def join(self, phone: Screen, seat: int):
        """A phone joins with the code read aloud, choosing its seat."""
        phone.open()
        form = phone.page.locator("form.join")
        form.get_by_label("Join code").fill(self.code)
        form.get_by_label("Seat", exact=True).select_option(str(seat))
        form.get_by_role("button", name="Join").click()
        phone.settled("play")
        assert phone.fragment()["play"] == self.sid

    def state(self) -> dict:
        return self.store.load(self.sid).state

    def settle(self, version: int):
        """Every page shows ``version`` (the stream told them)."""
        for screen in self.screens:
            screen.page.wait_for_function(
                "v => { const m = document.querySelector('main');"
                " return +m.dataset.version >= v && m.dataset.busy === 'false'; }", arg=version)

    def check(self, state: dict):
        """Each page says whose entry is awaited, never what, and shows no other hand."""
        awaited = self.engine.awaiting(state)
        for seat, screen in [(None, self.table), *self.phones.items()]:
            expected = None
            if awaited == TABLE:
                expected = "Enter what was turned up"
            elif awaited is not None:
                expected = ("Enter what you drew" if seat == awaited
                            else f"Seat {awaited} enters their draw")
            if expected:  # (a busy game service's 503 shows until the page reads again)
                screen.page.wait_for_function(
                    "p => document.getElementById('banner').textContent.startsWith(p)",
                    arg=expected)
            # What the API itself tells this token is its to show: the entries it is listed
            # name every kind it could enter, counted over what it sees, and its log says
            # what the rules reveal (a winning hand shown). Both are the same whatever the
            # other hands hold (the conformance suite's secret pairs); the page must add none.
            who = TABLE if seat is None else seat
            told = self.told(who, state["version"])
            secrets = secrets_hidden_from(self.engine, state, seat) - told
            shown = shown_words(screen)
            leaked = secrets & shown
            assert not leaked, (f"{'the table' if seat is None else f'seat {seat}'} shows "
                                f"{leaked}: {where_shown(screen, leaked)}")
            self.counts["secret_words_checked"] += len(secrets)
            if self.counts["steps"] % PICTURE_EVERY == 0:
                self.check_picture(screen, TABLE if seat is None else seat, state["version"])

    def told(self, who, version: int) -> set[str]:
        """The words of what the API answers ``who``: its listing and its recent log."""
        moves = listing(self.stack, self.sid, self.tokens[who])
        log = requests.get(f"{self.stack.url}/v1/sessions/{self.sid}/log?since={max(0, version - 40)}",
                           headers=bearer(self.tokens[who]), timeout=10).json()
        return set(re.findall(r"[\w*]+", json.dumps([moves, log])))

    def check_picture(self, screen: Screen, who, version: int):
        """The picture a page draws says what the API's picture for its own token says, no
        more (the conformance suite proves that picture the same whatever the other hands
        hold): the page adds no secret of its own."""
        screen.page.wait_for_function(
            "v => +document.getElementById('picture').dataset.version >= v", arg=version)
        drawn = screen.page.evaluate(
            "() => document.getElementById('picture').shadowRoot.querySelector('svg').textContent")
        answer = requests.get(f"{self.stack.url}/v1/sessions/{self.sid}/picture.svg",
                              headers=bearer(self.tokens[who]), timeout=10)
        assert answer.status_code == 200
        assert drawn == "".join(ElementTree.fromstring(answer.text).itertext()), who
        self.counts["pictures_compared"] += 1

    def tap(self, screen: Screen, index: int):
        """The index-th listed move, as a person reaches it: "Show all" first if needed."""
        if index >= SHOWN:
            screen.page.locator("#moves > button.secondary").tap()
        screen.move_buttons().nth(index).tap()

    def true_outcomes(self, state: dict) -> list[dict]:
        """What the real components can give now (the referee knows every hand)."""
        return [bare(m) for m in self.engine.legal_moves(state)]

    def private_run(self, state: dict) -> list[tuple[int, dict]]:
        """The private entries that come next in a row (a deal: seat 1's card, seat 2's…),
        drawn from the test's deck: each true when its turn comes."""
        run = []
        while state["to_move"] == [CHANCE] and self.engine.awaiting(state) != TABLE:
            seat = self.engine.awaiting(state)
            move = self.rnd.choice(self.true_outcomes(state))
            run.append((seat, move))
            state = self.engine.apply(state, move, entrant=seat)[0]
        return run

    def step(self, state: dict):
        awaited = self.engine.awaiting(state)
        if awaited == TABLE:
            self.enter_public(state)
        elif awaited is not None:
            run = self.private_run(state)
            if len(run) > 1:
                self.enter_by_pickers(state, run)
            else:
                self.enter_one(state, *run[0])
        else:
            seat = self.rnd.choice(state["to_move"])
            moves = listing(self.stack, self.sid, self.tokens[seat])
            phone = self.phones[seat]
            before = phone.version()
            self.tap(phone, self.rnd.randrange(min(len(moves), SHOWN)))
            # a move the game previews (a Gizmos build, a Vectron placement, a Gematon
            # operation) waits for its Confirm
            self.counts["previews_confirmed"] += phone.confirm_preview(before)
            self.counts["moves"] += 1
        self.counts["steps"] += 1

    def enter_public(self, state: dict):
        """The table device enters what was turned up."""
        listed = listing(self.stack, self.sid, self.tokens[TABLE])
        assert listed, "the table is listed the public entries"
        if any(m.get("describe") for m in listed):  # Vectron's layout: its prefilled form
            self.table.page.locator("#moves form.described button[type=submit]").first.click()
        else:
            true = {canonical(m) for m in self.true_outcomes(state)}
            choices = [i for i, m in enumerate(listed) if canonical(bare(m)) in true]
            self.tap_table(self.rnd.choice(choices))
        self.counts["public"] += 1

    def tap_table(self, index: int):
        if index >= SHOWN:
            self.table.page.locator("#moves > button.secondary").click()
        self.table.move_buttons().nth(index).click()

    def enter_one(self, state: dict, seat: int, move: dict):
        """A single draw: the seat taps the card it drew among those listed to it alone."""
        listed = [bare(m) for m in listing(self.stack, self.sid, self.tokens[seat])]
        for other in [TABLE, *(s for s in self.phones if s != seat)]:
            assert listing(self.stack, self.sid, self.tokens[other]) == [], other
        self.tap(self.phones[seat], listed.index(move))
        self.counts["private"] += 1

    def enter_by_pickers(self, state: dict, run: list[tuple[int, dict]]):
        """A deal: each phone picks all its cards on one screen (the picker, the cards in
        the order they come to it) and enters them; the pages send each card as the deal
        comes round to its seat, the first phone's now."""
        first = run[0][0]
        listed = [bare(m) for m in listing(self.stack, self.sid, self.tokens[first])]
        for seat in dict.fromkeys(s for s, _ in run):
            phone = self.phones[seat].page
            picker = phone.locator("#hand-picker")
            if seat != first:  # its picker shows once the deal comes to it: the phone waits
                phone.wait_for_selector("#hand-picker")
            if picker.get_attribute("open") is None:
                picker.locator("summary").tap()
            mine = listed if seat == first else [
                bare(m) for m in listing(self.stack, self.sid, self.tokens[seat])]
            for _, move in (x for x in run if x[0] == seat):
                picker.locator(".picks button").nth(mine.index(move)).tap()
            assert phone.locator("#hand-chosen li").count() == sum(s == seat for s, _ in run)
            phone.locator("#hand-enter").tap()  # its first card now, the rest in turn
        target = state["version"] + len(run)
        self.settle(target)
        self.counts["private"] += len(run)
        self.counts["picked_runs"] += 1


@pytest.mark.parametrize("game", ["gematon", "gizmos", "threemagic", "vectron"])
def test_a_whole_companion_game_on_four_devices(browser, stack, redis_url, game,
                                                record_property):
    began = time.monotonic()
    table = Table(browser, stack, redis_url, game)
    shot = False
    try:
        for _ in range(MAX_STEPS):
            state = table.state()
            table.settle(state["version"])
            table.check(state)
            if not state["to_move"]:
                break
            if (game == SCREENSHOT_GAME and table.counts["steps"] >= SCREENSHOT_AT and not shot
                    and table.engine.awaiting(state) == 1):  # seat 1 enters its draw
                for screen in (table.phones[1], table.table):
                    screen.page.evaluate("window.scrollTo(0, 0)")  # the banner and the picture
                table.phones[1].shoot("companion-phone")
                table.table.shoot("companion-table")
                shot = True
            table.step(state)
            table.table.wait_version(state["version"])
        else:
            pytest.fail(f"{game} did not end in {MAX_STEPS} steps")
        for screen in table.screens:
            assert screen.banner() == "Game over", screen.banner()
            assert not screen.errors, screen.errors
        score = requests.get(f"{stack.url}/v1/sessions/{table.sid}/score",
                             headers=bearer(table.tokens[TABLE]), timeout=10).json()
        assert score["final"] and score["winners"]
        # the game's previewed moves were played through their Confirm
        assert bool(table.counts["previews_confirmed"]) == bool(table.engine.previewed_moves), \
            table.counts
    finally:
        table.close()
    counts = dict(table.counts, seconds=round(time.monotonic() - began))
    record_property("companion_game", counts)
    print(f"\n{game}: {counts}")
    assert counts["private"] > 0 and counts["public"] > 0 and counts["moves"] > 0, counts
    assert counts["picked_runs"] > 0, "a deal (or a run of draws) was entered with the pickers"
    assert counts["pictures_compared"] > 0, counts
    if game != "gematon":  # Gematon's chips are digits: its pictures are compared instead
        assert counts["secret_words_checked"] > 0, counts
