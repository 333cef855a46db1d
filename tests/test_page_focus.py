"""Focus on a phone's page (issue 29 item 4, its smaller parts): after a move focus goes to the
next sensible control, never back to <body>; the focus ring is at least 3:1 against what it
is drawn on (WCAG 2.2, 1.4.11). Real Chromium, real stack."""

import re

import pytest

# the page tests' fixtures (one stack, one browser per module), shared by name: pytest finds
# them in this module's namespace, and each test's parameter of that name is that fixture
# ruff: noqa: F811
from test_page import browser, screen, seat_to_move, stack, start_table  # noqa: F401

pytestmark = pytest.mark.e2e
FOCUSED = "() => ({id: document.activeElement.id, tag: document.activeElement.tagName," \
          " move: document.activeElement.classList.contains('move')," \
          " text: document.activeElement.textContent})"


def contrast(one: str, other: str) -> float:
    """WCAG contrast of two computed CSS colours ("rgb(r, g, b)")."""
    def luminance(color: str) -> float:
        channels = [int(c) / 255 for c in re.findall(r"\d+", color)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted([luminance(one), luminance(other)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_after_a_move_and_an_undo_focus_is_on_the_next_control(screen, stack):
    start_table(screen, "ghostone", 3, "tabletop")
    page = screen.page
    screen.press_first_move()
    focused = page.evaluate(FOCUSED)
    assert focused["move"], focused
    assert focused["text"] == screen.move_buttons().first.inner_text()
    version = screen.press_first_move()
    page.locator("#undo").focus()
    page.keyboard.press("Enter")
    screen.wait_version(version)
    assert page.evaluate(FOCUSED)["id"] == "undo", "undo again is one Enter away"


def test_a_digital_seat_that_waits_after_its_move_has_focus_on_the_banner(browser, stack):
    context, screen = seat_to_move(browser, stack, "gematon", seed=3)
    try:
        screen.press_first_move()
        focused = screen.page.evaluate(FOCUSED)
        if screen.move_buttons().count():  # the same seat moves again
            assert focused["move"], focused
        else:
            assert focused["id"] == "banner" and focused["text"].startswith("Waiting for")
        assert focused["tag"] != "BODY"
        assert not screen.errors, screen.errors
    finally:
        context.close()


def test_the_focus_ring_is_at_least_3_to_1_on_the_page_and_the_header(screen, stack):
    start_table(screen, "ghostone", 3, "tabletop")
    page = screen.page
    screen.tab_to_a_move()
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    page_background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    if page_background == "rgba(0, 0, 0, 0)":  # transparent: the root's white shows
        page_background = page.evaluate(
            "getComputedStyle(document.documentElement).backgroundColor")
    header = page.evaluate("getComputedStyle(document.querySelector('.bar')).backgroundColor")
    assert contrast(ring, page_background) >= 3, (ring, page_background)
    assert contrast(ring, header) >= 3, (ring, header)
