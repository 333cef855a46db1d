"""A phone's layout (issue 29 item 4): at 390×844 with touch the picture and the current
choices are on one screen together after every move of a game (the picture is sticky and
scaled to at most 42 % of the screen), and undo, redo and "take back" sit in a dock at the
bottom, where the thumb of the hand holding the phone reaches. At 1280×800 the picture is a
sticky column beside the moves. Real Chromium with touch emulation, real stack."""

import pytest
from browser import DESKTOP, PHONE_TOUCH, Screen

# the page tests' fixtures (one stack, one browser per module), shared by name: pytest finds
# them in this module's namespace, and each test's parameter of that name is that fixture
# ruff: noqa: F811
from test_page import GAMES, MAX_STEPS, browser, info, stack, start_table  # noqa: F401

pytestmark = pytest.mark.e2e

#: what is on screen, unhidden: a box wholly in the viewport whose centre shows itself (not
#: the sticky picture or the dock drawn over it)
ON_SCREEN = """element => {
  const box = element.getBoundingClientRect();
  const inside = box.top >= -1 && box.left >= -1 && box.bottom <= innerHeight + 1
    && box.right <= innerWidth + 1 && box.height > 0;  // a pixel's rounding either way
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {inside, shown: Boolean(hit) && (element === hit || element.contains(hit)),
          top: box.top, bottom: box.bottom};
}"""


def on_screen(locator) -> dict:
    return locator.evaluate(ON_SCREEN)


def assert_picture_and_choices_together(screen: Screen, step: int) -> None:
    """The picture and the control a move left focused (the next move to enter) are both
    wholly on screen, neither under the other; undo in the bottom half when there is one."""
    page = screen.page
    picture = on_screen(page.locator("#picture"))
    focused = page.evaluate("document.activeElement.id")
    choice = page.locator("#moves button.move:focus, #moves form :focus")
    assert picture["inside"] and picture["shown"], (step, "picture", picture)
    if choice.count():
        seen = on_screen(choice.first)
        assert seen["inside"] and seen["shown"], (step, "the focused move", seen)
    else:
        assert focused == "banner" or screen.page.locator("#score .score").count(), (step, focused)
    undo = page.locator("#undo")
    if undo.count() and page.viewport_size["width"] < 820:
        seen = on_screen(undo)
        assert seen["inside"] and seen["shown"], (step, "undo", seen)
        assert seen["top"] >= page.viewport_size["height"] / 2, (step, "undo in thumb's reach", seen)


SIZES = {"phone": PHONE_TOUCH, "desktop": {"viewport": DESKTOP}}


@pytest.mark.parametrize("size, game", [("phone", g) for g in GAMES]
                         + [("desktop", "gizmos"), ("desktop", "threemagic")])
def test_the_picture_and_the_choices_share_the_screen_after_every_move(
        browser, stack, size, game):
    """A whole tabletop game entered by touch (by click on the desktop): after each entry
    the picture and the next move to enter are both on screen."""
    context = browser.new_context(**SIZES[size], locale="en-US")
    screen = Screen(context.new_page(), stack.url)
    try:
        start_table(screen, game, info(stack, game)["min_players"], "tabletop")
        for step in range(MAX_STEPS):
            if screen.page.locator("#score .score").count():
                break
            before = screen.version()
            first = screen.move_buttons().first
            first.tap() if size == "phone" else first.click()
            screen.confirm_preview(before)
            screen.wait_version(before)
            if screen.page.locator("#score .score").count():
                break  # the end: the final score, and no choices left to show beside it
            assert_picture_and_choices_together(screen, step)
        else:
            pytest.fail(f"{game} did not end in {MAX_STEPS} entries")
        assert not screen.errors, screen.errors
    finally:
        context.close()
