"""axe-core (the engine as the axe-playwright-python package ships it) finds no violation in
the page states issue 29 added: offline with a kept move, the table handed to another
device with its QR code, both languages. Real Chromium, real stack."""

import pytest
from browser import PHONE_TOUCH, Screen

# the page tests' fixtures (one stack, one browser per module), shared by name: pytest finds
# them in this module's namespace, and each test's parameter of that name is that fixture
# ruff: noqa: F811
from test_page import browser, stack, start_table  # noqa: F401
from test_page_choices import Table

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def axe():
    sync = pytest.importorskip("axe_playwright_python.sync_playwright",
                               reason="AXE MISSING (pip install -r requirements-dev.txt)")
    return sync.Axe()


def assert_no_violation(axe, screen: Screen, state: str) -> None:
    results = axe.run(screen.page)
    found = [f"{v['id']}: {[n['target'] for n in v['nodes']]}"
             for v in results.response["violations"]]
    assert not found, f"{state}: {found}"
    assert results.response["passes"] or results.response["inapplicable"], "axe ran"


@pytest.mark.parametrize("locale, game", [("en-US", "ghostone"), ("ja-JP", "gizmos")])
def test_offline_and_hand_off_states_have_no_axe_violation(axe, browser, stack, locale, game):
    context = browser.new_context(**PHONE_TOUCH, locale=locale)
    screen = Screen(context.new_page(), stack.url)
    try:
        screen.open()
        screen.page.locator("form.start input[name=mode][value=tabletop]").check()
        screen.page.locator("form.start select[name=game]").select_option(game)
        screen.page.locator("form.start button[type=submit]").click()
        screen.settled("play")
        screen.press_first_move()
        assert_no_violation(axe, screen, "a table after a move")

        context.set_offline(True)
        screen.page.locator("#connection").wait_for(state="visible")
        screen.move_buttons().first.click()
        screen.page.locator("#notice").wait_for(state="visible")
        assert_no_violation(axe, screen, "offline with a kept move")
        if locale == "en-US":
            screen.page.evaluate("window.scrollTo(0, 0)")  # the status line and the kept move
            screen.shoot("offline")
        context.set_offline(False)
        screen.page.locator("#connection").wait_for(state="hidden")

        screen.page.locator("#handoff summary").click()
        screen.page.locator("#handoff-qr svg").wait_for()
        assert_no_violation(axe, screen, "hand-off with its QR code")
        if locale == "en-US":
            screen.page.locator("#handoff-qr").scroll_into_view_if_needed()
            screen.shoot("handoff")
        assert not screen.errors, screen.errors
    finally:
        context.close()


def test_the_choosing_states_at_phone_size_have_no_axe_violation(axe, browser, stack):
    """Issue 29 items 3 and 4: a seat's dock with auto-pass and take back, a table's
    "several at once" outcomes ticked, a plate touched on the picture with its targets, a
    deal's pickers, a move's preview."""
    context = browser.new_context(**PHONE_TOUCH, locale="en-US")
    screen = Screen(context.new_page(), stack.url)
    try:
        table = Table(stack, "ghostone", 3, seed=5)
        screen.open(table.link())
        screen.press_first_move()
        screen.page.locator("#takeback").wait_for()
        assert screen.page.locator("#autopass").count() == 1
        assert_no_violation(axe, screen, "a seat's dock with auto-pass and take back")

        screen.start_tabletop("gizmos")
        screen.page.locator("#several summary").tap()
        screen.page.locator("#several input").first.tap()
        assert_no_violation(axe, screen, "several outcomes ticked")

        screen.start_tabletop("ghostone")
        screen.page.locator("#picture g.plate.b2").tap()
        screen.page.locator("#picture .target").first.wait_for(state="attached")
        assert_no_violation(axe, screen, "a plate touched, its targets marked")

        screen.start_tabletop("threemagic")
        screen.page.locator("#several summary").tap()
        screen.page.locator("#several select").first.select_option(index=1)
        assert_no_violation(axe, screen, "a seat's dealt cards picked")
        screen.shoot("deal")

        table = Table(stack, "gematon", 2, seed=4)
        table.others_move()
        screen.open(table.link())
        screen.page.locator("#picture g.altar.black").tap()
        screen.move_buttons().first.tap()
        screen.page.locator("#preview-confirm").wait_for()
        assert_no_violation(axe, screen, "an operation previewed, Confirm and Back")
        screen.page.locator("#preview").scroll_into_view_if_needed()
        screen.shoot("preview")
        assert not screen.errors, screen.errors
    finally:
        context.close()
