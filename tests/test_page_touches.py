"""Touches per decision (issue 29 item 3f): a whole tabletop game of every game at a phone's
390×844 with touch, each entry a move drawn at random (seeded) from the legal ones, entered
as a person would: a tap on its button when it is among those listed first, else "Show all"
and then the tap. A described outcome (Vectron's layout) is its prefilled form's one Enter.
Reports the median and the maximum number of touches per decision (goal: median 1).

Real Chromium with touch emulation, real stack."""

import random
import statistics

import pytest
import requests
from browser import PHONE_TOUCH, Screen
from support import bearer

# the page tests' fixtures (one stack, one browser per module), shared by name: pytest finds
# them in this module's namespace, and each test's parameter of that name is that fixture
# ruff: noqa: F811
from test_page import GAMES, MAX_STEPS, browser, info, stack, start_table  # noqa: F401

pytestmark = pytest.mark.e2e
SHOWN = 24  # the buttons play.js lists before "Show all"


def listing(stack, sid: str, token: str) -> list[dict]:
    return requests.get(f"{stack.url}/v1/sessions/{sid}/legal-moves", headers=bearer(token),
                        timeout=10).json()["moves"]


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_at_phone_size_takes_one_touch_per_decision(
        browser, stack, game, record_property):
    context = browser.new_context(**PHONE_TOUCH, locale="en-US")
    screen = Screen(context.new_page(), stack.url)
    choose = random.Random(f"touches:{game}")
    touches = []
    confirmed = 0  # previews confirmed (the issue counts touches ignoring confirmations)
    try:
        sid = start_table(screen, game, info(stack, game)["min_players"], "tabletop")
        token = screen.table_token(sid)
        for _ in range(MAX_STEPS):
            if screen.page.locator("#score .score").count():
                break
            moves = listing(stack, sid, token)
            before = screen.version()
            described = [m for m in moves if m.get("describe")]
            if described:  # one form, filled in with the listing's pieces: one Enter
                screen.page.locator("#moves form.described button[type=submit]").first.tap()
                touches.append(1)
            else:
                index = choose.randrange(len(moves))
                count = 1
                if index >= SHOWN:
                    screen.page.locator("#moves > button.secondary").tap()  # "Show all N moves"
                    count += 1
                button = screen.move_buttons().nth(index)
                assert button.inner_text().startswith(moves[index]["text"])
                button.tap()
                confirmed += screen.confirm_preview(before)  # a confirmation: not counted
                touches.append(count)
            screen.wait_version(before)
        else:
            pytest.fail(f"{game} did not end in {MAX_STEPS} entries")
        assert not screen.errors, screen.errors
    finally:
        context.close()
    median, most = statistics.median(touches), max(touches)
    record_property("touches_per_decision", {"decisions": len(touches), "median": median,
                                             "max": most, "confirmed": confirmed})
    print(f"\n{game}: {len(touches)} decisions, touches per decision median {median}, "
          f"max {most}, {sum(t > 1 for t in touches)} took more than one, "
          f"{confirmed} previews confirmed")
    assert median == 1, touches
    assert most <= 2, touches
