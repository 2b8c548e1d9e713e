"""The web page in headless Chromium (Debian's), driven by Playwright for Python.

Run by ``make test-browser`` (and .ci/run). Serves the repository on a free localhost port,
plays full games by clicking, and checks hints, undo, keyboard play, a broken book and a
screenshot.
"""

from __future__ import annotations

import functools
import http.server
import random
import shutil
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "test-results"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",  # as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",  # this machine's closed network refuses Google's hosts
    "--disable-component-update",
    "--disable-sync",
]


class Handler(http.server.SimpleHTTPRequestHandler):
    """The repository as a static site, plus /__test__/broken.json: a damaged book."""

    def do_GET(self) -> None:
        if self.path.startswith("/__test__/broken.json"):
            body = (ROOT / "book" / "tictactoe.json").read_bytes()[:4000]
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(ROOT)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/web/?seed=7")
    page.wait_for_selector("body[data-ready]")
    yield page
    context.close()
    assert not errors, errors


def board(page: Page) -> str:
    return "".join(
        page.locator("#board .cell")
        .nth(i)
        .evaluate("b => b.classList.contains('free') ? '.' : (b.classList.contains('X') ? 'X' : 'O')")
        for i in range(9)
    )


def new_game(page: Page, mark: str, first: str, level: str = "perfect") -> None:
    page.select_option("#mark", mark)
    page.select_option("#first", first)
    page.select_option("#level", level)
    page.click("#new-game")


def play_randomly(page: Page, rng: random.Random) -> str:
    """Click random free cells until the game ends; returns the status line."""
    for _ in range(9):
        if page.locator("#status").get_attribute("data-over") == "true":
            break
        free = [i for i, mark in enumerate(board(page)) if mark == "."]
        page.locator("#board .cell").nth(rng.choice(free)).click()
    assert page.locator("#status").get_attribute("data-over") == "true"
    return page.locator("#status").inner_text()


@pytest.mark.parametrize(("mark", "first"), [("X", "X"), ("O", "X"), ("X", "O"), ("O", "O")])
def test_perfect_never_loses_full_games_by_clicking(page: Page, mark: str, first: str) -> None:
    rng = random.Random(f"{mark}{first}")
    results = []
    for _ in range(4):
        new_game(page, mark, first)
        results.append(play_randomly(page, rng))
    assert not any("you win" in r for r in results), results
    assert all("Draw." in r or "the computer wins" in r for r in results)
    tally = page.locator("#tally").inner_text()
    assert "0 won" in tally and "4" not in tally.split("won")[0]


def test_hint_shows_every_free_cells_value(page: Page) -> None:
    page.click("#hint")
    hints = page.locator("#board .cell .hint")
    assert hints.count() == 9
    assert set(hints.all_inner_texts()) == {"draw"}
    page.locator("#board .cell").nth(4).click()  # centre; the computer answers
    assert page.locator("#board .cell .hint").count() == 7
    assert page.locator("#board .cell").nth(0).get_attribute("aria-label") is not None
    assert page.locator("#legend").is_visible()


def test_undo_takes_back_your_move_and_the_reply(page: Page) -> None:
    page.locator("#board .cell").nth(4).click()
    assert board(page).count(".") == 7
    page.click("#undo")
    assert board(page) == "........."
    assert page.locator("#undo").is_disabled()


def test_keyboard_play(page: Page) -> None:
    page.keyboard.press("5")
    assert board(page)[4] == "X"
    assert board(page).count("O") == 1
    page.keyboard.press("5")  # taken: nothing changes
    assert board(page).count(".") == 7
    assert "Your move (X)" in page.locator("#status").inner_text()


def test_the_result_is_announced_in_a_live_region(page: Page) -> None:
    assert page.locator("#status").get_attribute("aria-live") == "polite"
    play_randomly(page, random.Random(1))
    assert page.locator("#status").inner_text().endswith((".", "!"))


def test_a_broken_book_shows_a_clear_error(browser: Browser, server: str) -> None:
    page = browser.new_page()
    page.goto(f"{server}/web/?book=/__test__/broken.json")
    page.wait_for_selector("body[data-ready='error']")
    error = page.locator("#error")
    assert error.is_visible()
    assert "could not be loaded" in error.inner_text()
    assert "not valid JSON" in error.inner_text()
    assert not page.locator("#game").is_visible()
    page.close()


def png_pixels(data: bytes) -> bytes:
    """The decompressed image data of a PNG (enough to tell a blank picture from a drawn one)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        length = int.from_bytes(data[pos : pos + 4], "big")
        kind = data[pos + 4 : pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8 : pos + 8 + length]
        pos += 12 + length
    return zlib.decompress(idat)


def test_screenshot_of_a_finished_game_is_not_blank(page: Page) -> None:
    page.click("#hint")
    play_randomly(page, random.Random(3))
    RESULTS.mkdir(exist_ok=True)
    shot = RESULTS / "finished-game.png"
    page.screenshot(path=str(shot), full_page=True)
    pixels = png_pixels(shot.read_bytes())
    assert len(set(pixels)) > 20, "the screenshot is blank"
    marks = page.locator("#board .cell.X, #board .cell.O").count()
    assert marks >= 5
