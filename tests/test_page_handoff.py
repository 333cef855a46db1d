"""The table device can always come back (issue 29 item 2): a table's link holds its token in
the fragment, so a closed tab reopens from it, and another device takes the table over from
the link or its QR code (drawn by the gateway: POST /page/qr.svg). Real Chromium, real stack."""

import re

import pytest
import requests
from browser import PHONE, Screen
from support import bearer

# the page tests' fixtures (one stack, one browser per module), shared by name: pytest finds
# them in this module's namespace, and each test's parameter of that name is that fixture
# ruff: noqa: F811
from test_page import browser, screen, stack, start_table  # noqa: F401

pytestmark = pytest.mark.e2e


def test_a_closed_tables_tab_reopens_from_its_link_and_undoes_a_move(screen, stack):
    sid = start_table(screen, "gematon", 2, "tabletop")
    link = screen.page.url
    token = screen.fragment()["token"]
    assert token == screen.table_token(sid), "the link holds the table's token"
    screen.press_first_move()
    before_last = screen.move_buttons().all_inner_texts()
    version = screen.press_first_move()
    context = screen.page.context
    screen.page.close()  # the tab is gone, and its sessionStorage with it

    again = Screen(context.new_page(), stack.url)
    again.page.goto(link)
    again.settled("play")
    assert again.version() == version
    assert again.page.locator(".who").inner_text().startswith("This device keeps the table")
    again.page.get_by_role("button", name="Undo the last entry").click()
    again.wait_version(version)
    assert again.move_buttons().all_inner_texts() == before_last
    log = requests.get(f"{stack.url}/v1/sessions/{sid}/log", headers=bearer(token),
                       timeout=10).json()["entries"]
    assert log[-1]["correction"] == "undo"
    assert not again.errors, again.errors
    screen.page = again.page  # the fixture closes this context and checks its errors


def test_undo_is_in_the_thumbs_reach_on_a_phone(screen, stack):
    """Undo sits in the dock at the bottom of a phone's screen (it was at 1650 px, then under
    the banner), on screen wherever the page is scrolled (issue 29 items 2 and 4)."""
    start_table(screen, "gizmos", 2, "tabletop")
    screen.press_first_move()
    for scrolled in (0, 1200):
        screen.page.evaluate("y => window.scrollTo(0, y)", scrolled)
        undo = screen.page.get_by_role("button", name="Undo the last entry").bounding_box()
        assert PHONE["height"] / 2 <= undo["y"] and undo["y"] + undo["height"] <= PHONE["height"], undo


def test_another_device_takes_the_table_from_the_link_or_its_qr_code(browser, screen, stack):
    sid = start_table(screen, "ghostone", 3, "tabletop")
    version = screen.press_first_move()
    page = screen.page
    page.get_by_text("Hand this table to another device").click()
    link = page.get_by_label("The table's link", exact=True).input_value()
    assert link == page.url
    qr = page.locator("#handoff-qr svg")
    qr.wait_for()
    assert qr.get_attribute("role") == "img" and qr.get_attribute("aria-label")
    assert qr.locator("path").count() >= 1 and qr.bounding_box()["width"] >= 150

    other = browser.new_context(viewport=PHONE, locale="en-US")  # no sessionStorage of ours
    try:
        device = Screen(other.new_page(), stack.url)
        device.page.goto(link)
        device.settled("play")
        assert device.version() == version and device.fragment()["play"] == sid
        assert device.press_first_move() == version + 1
        assert screen.wait_version(version) == version + 1, "the first device follows live"
        assert not device.errors, device.errors
    finally:
        other.close()


def test_the_qr_code_endpoint_draws_text_and_refuses_bad_input(stack):
    url = f"{stack.url}/page/qr.svg"
    drawn = requests.post(url, json={"text": "http://table.example/#play=abc&token=xyz"},
                          timeout=10)
    assert drawn.status_code == 200 and drawn.headers["Content-Type"].startswith("image/svg+xml")
    assert drawn.headers["Cache-Control"] == "no-store"
    svg = drawn.text
    assert svg.startswith("<svg") and re.search(r'viewBox="0 0 (\d+) \1"', svg)
    assert "<script" not in svg and " width=" not in svg.split(">")[0]
    other = requests.post(url, json={"text": "http://table.example/#play=abc&token=xy"},
                          timeout=10).text
    assert other != svg
    for body, code in [({"text": ""}, "bad_request"), ({"text": "x" * 1001}, "bad_request"),
                       ({"text": 7}, "bad_request"), ([], "bad_request"),
                       (None, "invalid_json")]:
        refused = requests.post(url, json=body, timeout=10) if body is not None else \
            requests.post(url, data=b"{", timeout=10,
                              headers={"Content-Type": "application/json"})
        assert refused.status_code == 400, (body, refused.text)
        assert refused.headers["Content-Type"] == "application/problem+json"
        assert refused.json()["code"] == code
