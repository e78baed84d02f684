"""mediatore-web in a real browser: Playwright driving the machine's Chromium (Debian's
package; Playwright's own download is not needed). Plays a Mediatore deal and a Tressette hand
by clicking, checks that only legal moves are clickable and that the page holds no hidden card,
replays a saved tournament record to its end, and takes README's screenshot
(``MEDIATORE_SCREENSHOT=docs/web.png python3 -m pytest tests/test_web_browser.py`` renews it)."""

from __future__ import annotations

import os
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="mediatore-web needs the web extra: pip install '.[web]'")
uvicorn = pytest.importorskip("uvicorn", reason="mediatore-web needs uvicorn (the web extra)")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="the browser tests need playwright (the web extra)")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("the browser tests need Chromium: apt-get install chromium", allow_module_level=True)

from mediatore_env.core.records import replay  # noqa: E402
from mediatore_env.tools import bench  # noqa: E402
from mediatore_env.web.app import create_app, free_port  # noqa: E402
from test_web import hidden_tags  # noqa: E402

# README's picture: written where MEDIATORE_SCREENSHOT says (docs/web.png to renew it), so that
# an ordinary run leaves the checkout as it was.
SHOT = os.environ.get("MEDIATORE_SCREENSHOT")


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """A tournament's --save-records folder: two Tressette-2 games."""
    folder = tmp_path_factory.mktemp("records")
    assert bench.main(["--game", "tressette2", "--deals", "2", "--agents", "greedy", "random",
                       "--save-records", str(folder)]) == 0
    return folder


@pytest.fixture(scope="module")
def server(records):
    """The app on a free port of 127.0.0.1, in a thread, with the saved records to watch."""
    from mediatore_env.tools.replay import load_records
    found = [(f.name, r) for f in sorted(records.glob("*.json")) for r in load_records(f)]
    app = create_app(found)
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app, found
    srv.should_exit = True
    thread.join(5)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def wait_ready(page, value=None):
    page.wait_for_function("document.body.dataset.ready" + (f" === '{value}'" if value else ""))


def clickable_moves(page) -> list[int]:
    return [int(m) for m in page.eval_on_selector_all("[data-move]",
                                                      "els => els.map(e => e.dataset.move)")]


def table_of(app, tid: str):
    """The server's table ``tid`` (to compare the page with the truth)."""
    return app.state.lobby.tables[tid]


def open_page(browser, url: str, width: int = 1200, height: int = 900):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url + "/?pace=0")
    page.wait_for_function("document.body.dataset.loaded")
    return page


def sit_down(page, app, game: str, seat: int, rules: dict | None = None):
    """Choose the game, the seat and ``rules`` (``{switch: value}`` typed into the form's own
    inputs) and sit down: the server's table."""
    page.select_option("#game", game)
    page.select_option("#seat", str(seat))
    for name, value in (rules or {}).items():
        page.fill(f".rule[data-rule={name}]", str(value))
    page.click("#start")
    wait_ready(page)
    return table_of(app, page.evaluate("play.id"))


def play_by_clicking(page, table, seat: int, stop) -> object:
    clicks = 0
    while page.evaluate("document.body.dataset.ready") == "turn" and not stop(table):
        legal = table.game.legal_moves()
        shown = clickable_moves(page)
        cards = page.eval_on_selector_all("#hand button.card", "els => els.length")
        assert set(shown) <= set(legal) and shown, "only legal moves are clickable"
        # the page's DOM and text hold no card the seat may not see (move buttons aside:
        # a call names any card)
        html = page.evaluate("""() => { const c = document.body.cloneNode(true);
            c.querySelectorAll('#moves').forEach(e => e.remove());
            return c.innerHTML + c.innerText; }""")
        leaked = [t for t in hidden_tags(table.game, seat) if re.search(rf"\b{t}\b", html)]
        assert leaked == []
        target = page.locator("#hand button.card").first if cards else page.locator("#moves button").first
        several = target.get_attribute("data-move") is None  # a card with several moves
        target.click()
        if several:
            page.locator("#moves button").first.click()  # pick one of them
        wait_ready(page)
        clicks += 1
    assert clicks > 0
    return table


def test_play_a_mediatore_deal_by_clicking(server, browser):
    url, app, _ = server
    page = open_page(browser, url, 1200, 900)
    table = play_by_clicking(page, sit_down(page, app, "mediatore", 0), 0, lambda t: False)
    assert table.game.is_over
    assert page.evaluate("document.body.dataset.ready") == "over"
    assert "running score" in page.inner_text("#score")
    page.close()


def test_play_a_tressette_hand_by_clicking_and_take_the_screenshot(server, browser, tmp_path):
    url, app, _ = server
    page = open_page(browser, url, 1100, 820)
    table = play_by_clicking(page, sit_down(page, app, "tressette", 1), 1,
                             lambda t: t.game.is_over or t.game.hand_number > 1)
    assert table.game.hand_number > 1 or table.game.is_over  # a whole hand was played
    shot = Path(SHOT) if SHOT else tmp_path / "web.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    page.close()


def test_a_club_session_starts_from_the_form_and_a_deal_is_played(server, browser):
    """club's switches as the form types them (ante a number, deals an optional number):
    once no club table could be started from the page."""
    url, app, _ = server
    page = open_page(browser, url)
    page.select_option("#game", "club")
    assert page.get_attribute(".rule[data-rule=deals]", "placeholder") == "none"
    table = sit_down(page, app, "club", 2, {"ante": 3, "deals": 1})
    assert table.rules.ante == 3 and table.rules.deals == 1
    play_by_clicking(page, table, 2, lambda t: t.game.is_over)
    assert table.game.is_over and len(table.game.results) == 1
    assert page.evaluate("document.body.dataset.ready") == "over"
    page.close()


def test_a_reload_goes_on_at_the_same_seat(server, browser):
    """The page keeps the table's id and the seat's token in sessionStorage."""
    url, app, _ = server
    page = open_page(browser, url)
    table = sit_down(page, app, "tressette2", 0)
    play_by_clicking(page, table, 0, lambda t: len(t.game.history) >= 4)
    history = list(table.game.history)
    page.reload()
    page.wait_for_function("document.body.dataset.loaded")
    wait_ready(page)
    assert page.evaluate("play.id") == table.id and table.game.history == history
    play_by_clicking(page, table, 0, lambda t: len(t.game.history) >= len(history) + 4)
    assert table.game.history[:len(history)] == history
    page.close()


def test_the_page_fits_a_phone(server, browser):
    url, app, _ = server
    page = open_page(browser, url, 390, 844)
    page.click("#start")
    wait_ready(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "no sideways scrolling on a phone"
    page.close()


def test_replay_a_saved_tournament_record_to_the_end(server, browser):
    url, app, found = server
    page = open_page(browser, url)
    page.click("#tab-watch")
    wait_ready(page, "step-0")
    for _ in range(5):  # step forward and back
        page.click("#forward")
    wait_ready(page, "step-5")
    page.click("#back")
    wait_ready(page, "step-4")
    page.click("#last")
    page.wait_for_selector("#watch-result[data-outcome]")
    import json
    shown = json.loads(page.get_attribute("#watch-result", "data-outcome"))
    assert shown == list(replay(found[0][1]).outcome)
    page.select_option("#watch-seat", "0")
    page.wait_for_function("document.getElementById('open-hands').children.length === 0")
    page.close()
