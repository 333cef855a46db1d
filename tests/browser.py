"""Real Chromium for tests/test_page.py: Debian's ``chromium`` driven by Playwright for Python
(``executable_path``: Playwright's own browser download is never used), and a driver for the
page's conventions — ``main[data-busy]`` is "false" once the screen shows the session's
``data-version``; ``#moves button.move`` are the legal moves, in the API's order.

A machine without Chromium or Playwright skips the browser tests, saying so (make test
installs Chromium first when it can: tools/ensure_chromium.sh)."""

import os
import shutil
from pathlib import Path
from urllib.parse import parse_qs

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# Headless on a machine with no GPU, no sandbox (root in a container), nothing fetched by
# the browser itself.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
#: a phone as Chromium emulates one: its screen, touch events, the mobile viewport
PHONE_TOUCH = {"viewport": PHONE, "has_touch": True, "is_mobile": True}
DESKTOP = {"width": 1280, "height": 800}
#: where the screenshots go when asked (they are docs/screenshots/ in the repository)
SCREENSHOTS = os.environ.get("PAGE_SCREENSHOTS")


def launch_chromium():
    """``(playwright, browser)``, or a loud skip when this machine cannot run them."""
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"CHROMIUM MISSING: no {CHROMIUM} (apt-get install chromium; make test "
                    "installs it when it can): the browser tests of the page did not run")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("PLAYWRIGHT MISSING (pip install -r requirements-dev.txt): the browser "
                    "tests of the page did not run")
    playwright = sync_playwright().start()
    try:
        return playwright, playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
    except Exception:
        playwright.stop()
        raise


class Screen:
    """One browser page on the referee's web app."""

    def __init__(self, page, base_url: str):
        self.page, self.base = page, base_url
        self.errors: list[str] = []  # uncaught exceptions of the page's scripts
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def tab_to_a_move(self) -> None:
        """Press Tab until a move button has the focus, as a keyboard user reaches one."""
        for _ in range(40):
            self.page.keyboard.press("Tab")
            if self.page.evaluate("document.activeElement.classList.contains('move')"):
                return
        pytest.fail("Tab never reached a move")

    def open(self, fragment: str = "") -> "Screen":
        self.page.goto(f"{self.base}/#{fragment}" if fragment else f"{self.base}/")
        self.settled()
        return self

    def start_tabletop(self, game: str) -> "Screen":
        """A new tabletop table of ``game`` from the first screen's form, on its play screen."""
        self.open()
        form = self.page.locator("form.start")
        form.locator("input[name=mode][value=tabletop]").check()
        form.locator("select[name=game]").select_option(game)
        form.locator("button[type=submit]").click()
        self.settled("play")
        return self

    @property
    def main(self):
        return self.page.locator("main")

    def settled(self, screen: str | None = None) -> None:
        """Wait until the screen (of this kind) has shown what it was asked to."""
        kind = f"[data-screen={screen}]" if screen else ":not([data-screen=loading])"
        self.page.wait_for_selector(f"main{kind}[data-busy=false]")

    def version(self) -> int:
        return int(self.main.get_attribute("data-version") or -1)

    def wait_version(self, above: int) -> int:
        """Wait until the screen shows a version after ``above``; answer it."""
        self.page.wait_for_function(
            "v => { const m = document.querySelector('main');"
            " return +m.dataset.version > v && m.dataset.busy === 'false'; }", arg=above)
        return self.version()

    def fragment(self) -> dict[str, str]:
        """The URL fragment's fields (play=…, token=…)."""
        hash_ = self.page.evaluate("window.location.hash").lstrip("#")
        return {k: v[0] for k, v in parse_qs(hash_).items()}

    def banner(self) -> str:
        return self.page.locator("#banner").inner_text()

    def move_buttons(self):
        return self.page.locator("#moves button.move")

    def press_first_move(self) -> int:
        """Press the first listed move with the keyboard (Enter on the focused button), as
        a person without a mouse would, and Enter again on Confirm when the page previews
        it; answer the version it led to."""
        before = self.version()
        self.move_buttons().first.press("Enter")
        self.confirm_preview(before)
        return self.wait_version(before)

    def confirm_preview(self, before: int) -> bool:
        """A move the game previews (its previewed_moves) waits for Confirm: press it once
        the preview is up (focus is on it); a move without a preview lands by itself.
        Answer whether there was one (a confirmation, not a decision of its own)."""
        self.page.wait_for_function(
            "v => +document.querySelector('main').dataset.version > v"
            " || document.getElementById('preview-confirm')", arg=before)
        confirm = self.page.locator("#preview-confirm")
        if not confirm.count():
            return False
        confirm.press("Enter")
        return True

    def table_token(self, sid: str) -> str | None:
        return self.page.evaluate("sid => sessionStorage.getItem('referee:table:' + sid)", sid)

    def shoot(self, name: str) -> None:
        """What the screen shows (a phone's 390×844 in the page tests) into
        $PAGE_SCREENSHOTS/<name>.png, once the picture shows the version the screen is at:
        the README's screenshots are what a player sees, not the page laid out whole."""
        if not SCREENSHOTS:
            return
        version = self.version()
        self.page.wait_for_function(
            "v => { const p = document.getElementById('picture'); return !p || +p.dataset.version >= v; }",
            arg=version)
        self.page.mouse.move(0, 0)  # no button drawn as hovered
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(Path(SCREENSHOTS, f"{name}.png")))
