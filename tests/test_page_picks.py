"""Choosing a move by touching the picture (issue 29 item 3) in the games whose moves name
things by value or place — Gematon's altars, chips and pentacle cells, Vectron's deck, hand
cards, piece and map cells, Three Magic's hand — which their pictures say they stand for
(``data-uses``): a touch lists exactly the moves that use what was touched, the picture
marks it and where those moves go, and the last move once it is played. Three Magic's
discards name the card they throw out. Real Chromium with touch at a phone's size, real
stack; the test plays the other seats through the API."""

import pytest
import requests
from browser import PHONE_TOUCH, Screen
from support import bearer

# the page tests' fixtures (one stack, one browser per module), shared by name
# ruff: noqa: F811
from test_page import browser, stack  # noqa: F401
from test_page_choices import Table, marked

pytestmark = pytest.mark.e2e


@pytest.fixture
def phone(browser, stack):
    context = browser.new_context(**PHONE_TOUCH, locale="en-US")
    yield Screen(context.new_page(), stack.url)
    context.close()


def seat_one(phone: Screen, stack, game: str, players: int, seed: int) -> Table:
    """A digital table whose seat 1 the page plays, opened when it is seat 1's turn."""
    table = Table(stack, game, players, seed=seed)
    table.others_move()
    phone.open(table.link())
    return table


def listing(table: Table, seat: int = 1) -> list[dict]:
    return requests.get(f"{table.path}/legal-moves", headers={
        **bearer(table.tokens[seat]), "Accept-Language": "en"}, timeout=10).json()["moves"]


def uses_of(locator) -> list[str]:
    return locator.get_attribute("data-uses").split()


def touch(phone: Screen, locator) -> list[str]:
    """Tap a thing on the picture; answer the moves then listed (their buttons' words)."""
    locator.tap()
    phone.page.locator("#moves p.pick").wait_for()
    return phone.move_buttons().all_inner_texts()


def play_shown(phone: Screen, index: int = 0) -> int:
    before = phone.version()
    phone.move_buttons().nth(index).tap()
    phone.confirm_preview(before)
    return phone.wait_version(before)


def wait_drawn(phone: Screen, version: int) -> None:
    """The picture of ``version`` is drawn (and marked: the page marks it as it draws it)."""
    phone.page.wait_for_function(
        "v => +document.querySelector('#picture').dataset.version >= v", arg=version)


def ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th')}"


def test_touching_a_three_magic_hand_card_lists_its_discards_naming_it(phone, stack):
    table = seat_one(phone, stack, "threemagic", 3, seed=11)
    hand = phone.page.locator('#picture g.seat1 g.card[data-uses*="type=discard"]')
    assert hand.count() == 8, "each card of the hand stands for its discards"
    third = hand.nth(2)
    card = third.text_content().strip() + ("*" if "starred" in third.get_attribute("class") else "")
    shown = touch(phone, third)
    named = f"discard {card}, the {ordinal(3)} card"
    expected = [m["text"] for m in listing(table) if named in m["text"]]
    assert shown and shown == expected, (shown, expected)
    assert len(shown) < len(listing(table)), "the touch narrowed the list"
    assert marked(phone.page, "picked") == [third.get_attribute("class")]
    version = play_shown(phone)
    wait_drawn(phone, version)
    # the card thrown out is under call now, marked as the last move's
    under_call = phone.page.locator("#picture g.table .last-move")
    assert under_call.count() == 1 and under_call.text_content().strip() == card.rstrip("*")
    assert not phone.errors, phone.errors


def test_touching_a_gematon_altar_marks_the_cells_its_operations_fill(phone, stack):
    table = seat_one(phone, stack, "gematon", 2, seed=4)
    page = phone.page
    altar = page.locator("#picture g.altar.black")
    shown = touch(phone, altar)
    moves = listing(table)
    operations = [m for m in moves if m["type"] == "operate" and m["altar"] == "black"]
    assert shown == [m["text"] for m in operations]
    assert marked(page, "picked") == ["altar black picked"]
    cells = {use.split("cell=")[1] for node in page.locator("#picture g.seat1 .target").all()
             for use in uses_of(node) if "cell=" in use}
    assert cells == {str(m["cell"]) for m in operations}, "the empty cells it can fill"
    chip = page.locator('#picture g.seat1 g.chip[data-uses*="type=push"]').first
    value = int(chip.text_content())
    assert touch(phone, chip) == [m["text"] for m in moves
                                  if m["type"] == "push" and m["chip"] == value]
    version = play_shown(phone)
    wait_drawn(phone, version)
    assert marked(page, "last-move") == [], "a push leaves nothing of it to mark"
    # after the push, the operation's altar is the one the popped chips' root names
    played = next(m for m in listing(table) if m["type"] == "operate")
    shown = touch(phone, page.locator(f"#picture g.altar.{played['altar']}"))
    # an operation is previewed (Gematon's previewed_moves): the position it leads to, then
    # Back changes nothing, and Confirm plays it
    before = phone.version()
    phone.move_buttons().first.tap()
    page.locator("#preview-confirm").wait_for()
    assert page.evaluate("document.activeElement.id") == "preview-confirm"
    assert page.locator("#preview .preview-move").inner_text() == shown[0]
    assert page.locator("#preview .preview-picture svg title").count() == 1
    page.locator("#preview-back").tap()
    page.locator("#moves button.move").first.wait_for()
    assert phone.version() == before and not page.locator("#preview").count()
    touch(phone, page.locator(f"#picture g.altar.{played['altar']}"))
    version = play_shown(phone)
    wait_drawn(phone, version)
    lit = page.locator("#picture .last-move").all()
    assert f"altar {played['altar']} last-move" in {n.get_attribute("class") for n in lit}
    assert any(f"seat=1,type=operate,cell={played['cell']}" in uses_of(n) for n in lit)
    assert not phone.errors, phone.errors


def test_touching_vectrons_deck_cards_and_piece_lists_their_moves(phone, stack):
    table = seat_one(phone, stack, "vectron", 2, seed=6)
    page = phone.page
    moves = listing(table)
    assert touch(phone, page.locator("#picture g.deck")) == [
        m["text"] for m in moves if m["type"] == "draw" and m["source"] == "deck"]
    play_shown(phone)
    card = page.locator('#picture g.seat1 g.card[data-uses*="type=place"]').first
    name = uses_of(card)[0].split("card=")[1]
    moves = listing(table)
    assert touch(phone, card) == [m["text"] for m in moves
                                  if m["type"] == "place" and m["card"] == name]
    version = play_shown(phone)
    moves = listing(table)
    if not any(m["type"] == "move" for m in moves):
        pytest.fail(f"no move listed after a place: {moves}")
    piece = page.locator("#picture g.map g.piece.seat1")
    assert touch(phone, piece) == [m["text"] for m in moves if m["type"] == "move"]
    targets = {c.split()[1] for c in marked(page, "target")}
    assert targets == {m["to"] for m in moves if m["type"] == "move"}
    to = next(m["to"] for m in moves if m["type"] == "move")
    version = play_shown(phone)
    wait_drawn(phone, version)
    assert f"cell {to}" in " ".join(marked(page, "last-move")), marked(page, "last-move")
    assert not phone.errors, phone.errors
