"""mediatore-web in a real browser: Playwright driving the machine's Chromium (Debian's
package; Playwright's own download is not needed). Two people in two browsers play a Mediatore
deal at one table (agents at the other seats), each seeing only their own hand and both seeing
every move, one reloading in the middle; a Tressette hand and a club deal are played by
clicking; the finished games appear in History and open in Watch; a saved tournament record is
stepped through; the table fits a phone. Only legal moves are clickable and the page holds no
hidden card.

The screenshots of docs/web.md are taken here: ``MEDIATORE_SCREENSHOTS=docs python3 -m pytest
tests/test_web_browser.py -m 'slow or not slow'`` renews them (an ordinary run writes them to a
temporary folder and leaves the checkout as it was)."""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="mediatore-web needs the web extra: pip install '.[web]'")
uvicorn = pytest.importorskip("uvicorn", reason="mediatore-web needs uvicorn (the web extra)")
pytest.importorskip("websockets", reason="uvicorn serves the page's socket with websockets "
                                         "(the web extra)")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="the browser tests need playwright (the web extra)")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("the browser tests need Chromium: apt-get install chromium", allow_module_level=True)

from mediatore_env.core.cards import CARD_NAMES, cards_of  # noqa: E402
from mediatore_env.mediatore.moves import AUCTION  # noqa: E402
from mediatore_env.mediatore.rules import CONTRACT_NAMES  # noqa: E402
from mediatore_env.registry import replay  # noqa: E402
from mediatore_env.tools import bench  # noqa: E402
from mediatore_env.web.app import create_app, free_port  # noqa: E402
from mediatore_env.web.history import History  # noqa: E402
from test_web import hidden_tags  # noqa: E402

SHOTS = os.environ.get("MEDIATORE_SCREENSHOTS")


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    """Where the screenshots go: docs/ (MEDIATORE_SCREENSHOTS) or a temporary folder."""
    return Path(SHOTS) if SHOTS else tmp_path_factory.mktemp("shots")


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """A tournament's --save-records folder: two Tressette-2 games."""
    folder = tmp_path_factory.mktemp("records")
    assert bench.main(["--game", "tressette2", "--deals", "2", "--agents", "greedy", "random",
                       "--save-records", str(folder)]) == 0
    return folder


@pytest.fixture(scope="module")
def server(records, tmp_path_factory):
    """The app on a free port of 127.0.0.1, in a thread, with the saved records to watch and
    a history."""
    from mediatore_env.web.app import labelled_records
    found = labelled_records([records])
    history = History(tmp_path_factory.mktemp("history") / "history.sqlite3")
    app = create_app(found, history=history)
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
        # every page runs at full speed, the one in front or not (two people, two windows)
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-background-timer-throttling",
            "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows"])
        yield b
        b.close()


def ready(page) -> str:
    return page.evaluate("document.body.dataset.ready")


def wait_ready(page, value=None):
    page.wait_for_function("() => document.body.dataset.ready"
                           + (f" === '{value}'" if value else ""))


def clickable_moves(page) -> list[int]:
    """The moves the page offers: a button's, or a card's (several where a lead may go with a
    signal)."""
    return [int(m) for text in page.eval_on_selector_all(
        "[data-move], [data-moves]", "els => els.map(e => e.dataset.move ?? e.dataset.moves)")
        for m in text.split()]


def table_of(app, tid: str):
    """The server's table ``tid`` (to compare the page with the truth)."""
    return app.state.lobby.tables[tid]


#: Each page notes what the server's Content-Security-Policy refused it (its headers allow no
#: inline code and no other origin), and every test ends with nothing refused on its pages.
#: (So every ``wait_for_function`` here is given a function: Playwright polls a bare
#: expression with ``eval``, which the policy refuses.)
NOTE_VIOLATIONS = ("window.violations = []; document.addEventListener("
                   "'securitypolicyviolation', e => window.violations.push("
                   "e.effectiveDirective + ' ' + e.blockedURI))")
PAGES = []


def watched(page):
    page.add_init_script(NOTE_VIOLATIONS)
    PAGES.append(page)
    return page


@pytest.fixture(autouse=True)
def nothing_refused_by_the_policy():
    yield
    pages, PAGES[:] = list(PAGES), []
    for page in pages:
        if not page.is_closed():
            assert page.evaluate("window.violations") == [], page.url


def open_page(browser, url: str, width: int = 1200, height: int = 900, context=None):
    page = watched(context.new_page() if context else
                   browser.new_page(viewport={"width": width, "height": height}))
    page.goto(url + "/?pace=0")
    page.wait_for_function("() => document.body.dataset.loaded")
    return page


def sit_down(page, app, game: str, seat: int, rules: dict | None = None,
             people: tuple[int, ...] = (), name: str | None = None, seed: int | None = None):
    """Choose the game, the seat, ``rules`` (``{switch: value}`` typed into the form's own
    inputs: a switch's box ticked or not), the seats left to ``people`` and the ``seed``, and
    sit down: the server's table."""
    page.select_option("#game", game)
    page.select_option("#seat", str(seat))
    if name:
        page.fill("#name", name)
    if seed is not None:
        page.fill("#seed", str(seed))
    for s in people:
        page.select_option(f".agent[data-seat='{s}']", "")
    # a seed deals cards its chooser could work out: none at a table with other people
    assert page.is_disabled("#seed") == bool(set(people) - {seat})
    for rule, value in (rules or {}).items():  # a switch ticked or not, a number typed
        if isinstance(value, bool):
            page.set_checked(f".rule[data-rule={rule}]", value)
        else:
            page.fill(f".rule[data-rule={rule}]", str(value))
    page.click("#start")
    wait_ready(page)
    return table_of(app, page.evaluate("play.id"))


def assert_shows_no_hidden_card(page, table, seat: int) -> None:
    """The page's DOM and text hold no card the seat may not see (move buttons aside: a
    call names any card, on the felt or under the banner; and the news of earlier hands, whose cards were dealt again)."""
    html = page.evaluate("""() => { const c = document.body.cloneNode(true);
        c.querySelectorAll('#moves, #call').forEach(e => e.remove());
        const told = [...c.querySelectorAll('#news .said')];
        const dealt = told.map(e => e.classList.contains('deal')).lastIndexOf(true);
        told.slice(0, Math.max(dealt, 0)).forEach(e => e.remove());
        return c.innerHTML; }""")  # its text and its attributes
    leaked = [t for t in hidden_tags(table.game, seat) if re.search(rf"\b{t}\b", html)]
    assert leaked == []


def click_a_move(page, table) -> None:
    """Click one of the page's moves (the first card, else the first button), checking that
    only legal moves are clickable."""
    legal = table.game.legal_moves()
    shown = clickable_moves(page)
    assert set(shown) <= set(legal) and shown, "only legal moves are clickable"
    if page.locator("#send-chosen").count():  # cards picked first, then sent together
        count, made = int(page.get_attribute("#send-chosen", "data-count")), len(table.game.history)
        for i in range(count):
            page.locator("#hand button.card").nth(i).click()
        page.click("#send-chosen")
        while len(table.game.history) < made + count:  # one move each, as each is answered
            time.sleep(0.01)
        return
    cards = page.eval_on_selector_all("#hand button.card", "els => els.length")
    target = (page.locator("#hand button.card").first if cards else
              page.locator("#moves button, #call button").first)
    several = target.get_attribute("data-move") is None  # a card with several moves
    target.click()
    if several:  # pick one of them
        page.wait_for_selector("#moves button[data-move]")
        page.locator("#moves button").first.click()


def assert_follow_told(page, table, seat: int) -> None:
    """A hand card not playable because the suit led must be followed says so, and only then:
    checked against the server's view of the seat."""
    view = table.view_json(seat)
    playable = {m["card"] for m in view["moves"] if m.get("card")}
    led = view["trick"][0]["card"] if view["trick"] else None
    must = bool(led) and any(c["suit_index"] == led["suit_index"] for c in view["hand"])
    told = dict(page.eval_on_selector_all(
        "#hand [data-card]", "els => els.map(e => [e.dataset.card, e.title])"))
    for c in view["hand"]:
        blocked = must and playable and c["tag"] not in playable
        assert ("must follow" in told[c["tag"]]) == blocked, (c["tag"], told[c["tag"]])


def play_by_clicking(page, table, seat: int, stop, each=None) -> object:
    """Click moves while it is the seat's turn and ``stop(table)`` is false; ``each(page)``,
    if given, looks at the page before every click."""
    clicks = 0
    while ready(page) in ("turn", "between") and not stop(table):
        if ready(page) == "between":  # a hand is over: its end stays until asked for the next
            page.click("#next-hand")
            wait_ready(page)
            continue
        assert_shows_no_hidden_card(page, table, seat)
        if each is not None:
            each(page)
        click_a_move(page, table)
        wait_ready(page)
        clicks += 1
    assert clicks > 0
    return table


def test_two_people_play_a_mediatore_deal_and_find_it_in_history(server, browser, shots):
    """Anna opens a table with Bruno at seat 2 and agents at 1 and 3; Bruno opens his seat's
    link in his own browser. Each sees only their hand and hears of every move; Bruno reloads
    in the middle and is back at his seat; the finished deal is in History and opens in Watch."""
    url, app, _ = server
    anna_browser = browser.new_context(viewport={"width": 1200, "height": 860})
    bruno_browser = browser.new_context(viewport={"width": 1000, "height": 800})
    anna = open_page(browser, url, context=anna_browser)
    table = sit_down(anna, app, "mediatore", 0, people=(2,), name="Anna")
    link = anna.get_attribute("#links a[data-seat='2']", "href")
    assert link.startswith(url + "/#join=" + table.id)
    bruno = watched(bruno_browser.new_page())
    bruno.goto(link.replace("/#", "/?pace=0#"))
    bruno.wait_for_function("() => document.body.dataset.loaded")
    bruno.wait_for_function(
        "() => document.getElementById('join-what').textContent.includes('invites')")
    assert bruno.inner_text("#join-what").startswith(
        "Anna invites you to seat 2 of Mediatore (rules: standard), with ")
    bruno.fill("#join-name", "Bruno")
    bruno.click("#join")
    wait_ready(bruno)
    assert bruno.evaluate("play.seat") == 2 and "#join" not in bruno.url
    used = watched(browser.new_page())  # the link again, elsewhere: its code worked once
    used.goto(link.replace("/#", "/?pace=0#"))
    used.wait_for_function(
        "() => document.getElementById('join-what').textContent.includes('taken')")
    assert used.is_disabled("#join")
    used.close()
    anna.wait_for_function("() => document.getElementById('links').children.length === 0")
    pages, clicks, reloaded = {0: anna, 2: bruno}, 0, False
    while not table.game.is_over:
        seat = table.game.to_move
        if seat not in pages:  # an agent's turn: wait for it
            time.sleep(0.02)
            continue
        page, other = pages[seat], pages[2 - seat]
        page.wait_for_function("() => document.body.dataset.ready === 'turn'")
        assert_shows_no_hidden_card(page, table, seat)
        if clicks % 3 == 0:  # the other person's page, now and then (each look takes time)
            assert_shows_no_hidden_card(other, table, 2 - seat)
            assert clickable_moves(other) == []  # nothing to click out of turn
        if clicks == 4 and SHOTS:
            anna.screenshot(path=str(shots / "web-table.png"))
        made = len(table.game.history)
        legal = table.game.legal_moves()
        if table.game.phase == AUCTION and seat == 0 and len(legal) > 1:
            # Anna bids: the server deals this table (it has two people), and a deal all four
            # pass is thrown in, over before Bruno's reload
            page.click(f"#moves button[data-move='{legal[1]}']")
        else:
            click_a_move(page, table)
        while len(table.game.history) == made:  # the move reached the server
            time.sleep(0.01)
        clicks += 1
        if clicks == 6 and not reloaded:  # Bruno reloads: back at his seat
            bruno.reload()
            bruno.wait_for_function("() => document.body.dataset.loaded")
            wait_ready(bruno)
            assert bruno.evaluate("play.seat") == 2 and bruno.evaluate("play.id") == table.id
            reloaded = True
    assert reloaded and clicks > 6
    for seat, page in pages.items():  # both heard every move
        page.wait_for_function("() => document.body.dataset.ready === 'over'")
        assert page.evaluate("play.since") == table.next
        said = page.inner_text("#news")
        assert said.count("\n") > len(table.game.history) // 2
        names = page.evaluate("play.state.view.names")
        assert names[seat] == "You" and names[2 - seat] == ("Bruno" if seat == 0 else "Anna")
    assert anna.inner_text("#summary").startswith("The deal is over")
    # the deal is saved: History lists it with both names, and it opens in Watch
    deadline = time.time() + 10
    while app.state.history.count() == 0 and time.time() < deadline:
        time.sleep(0.05)
    anna.click("#tab-history")  # shows every name; its answer is waited for, then filtered
    anna.wait_for_function("() => document.body.dataset.ready === 'history-1'")
    anna.evaluate("document.body.dataset.ready = ''")
    anna.fill("#history-name", "Bruno")
    anna.click("#history-show")
    anna.wait_for_function("() => document.body.dataset.ready === 'history-1'")
    row = anna.inner_text("#history-table tbody tr")
    assert "Anna" in row and "Bruno" in row and "greedy(1)" in row
    assert "Bruno" in anna.inner_text("#results") and "greedy(1)" in anna.inner_text("#against")
    if SHOTS:
        anna.screenshot(path=str(shots / "web-history.png"))
    anna.click("#history-table button.watch")
    wait_ready(anna, "step-0")
    assert "Anna, greedy(1), Bruno" in anna.inner_text("#record")
    anna.click("#last")
    anna.wait_for_selector("#watch-result[data-outcome]")
    shown = json.loads(anna.get_attribute("#watch-result", "data-outcome"))
    assert shown == list(table.game.outcome)
    anna_browser.close(), bruno_browser.close()


def test_the_page_runs_under_the_servers_policy(server, browser):
    """The browser enforces the headers the page came with: a script written into the page (as
    a name that slipped past the escaping would be) does not run, and is noted as refused."""
    url, _, _ = server
    page = open_page(browser, url)
    page.evaluate("""() => {
        const s = document.createElement('script');
        s.textContent = 'window.ran = true';
        document.body.append(s);
        document.body.setAttribute('style', 'background: red');
    }""")
    page.wait_for_function("() => window.violations.length >= 2")
    assert page.evaluate("window.ran") is None
    assert sorted(v.split()[0] for v in page.evaluate("window.violations")) == [
        "script-src-elem", "style-src-attr"]
    page.close()


def test_play_a_mediatore_deal_alone_by_clicking(server, browser):
    """The auction is a table of bids (a column a seat from il mano), the dealer and il mano
    are marked on their seats, and the end is a summary table with the best marked."""
    url, app, _ = server
    page = open_page(browser, url, 1200, 900)
    table = sit_down(page, app, "mediatore", 0)
    deal = table.game
    assert deal.auction  # il mano (seat 1) and the agents after him have spoken
    heads = page.eval_on_selector_all("#facts table.auction thead th", "els => els.map(e => +e.dataset.seat)")
    assert heads == [(deal.mano + k) % 4 for k in range(4)]
    first = page.eval_on_selector_all("#facts table.auction tbody tr:first-child td",
                                      "els => els.map(e => e.textContent)")
    assert first[0] in ("pass", "chiamo", "mediatore", "solo", "solissimo", "arcisolissimo")
    assert page.get_attribute(f".seat[data-seat='{deal.dealer}'] .mark.dealer", "data-mark") == "dealer"
    assert page.get_attribute(f".seat[data-seat='{deal.mano}'] .mark.mano", "data-mark") == "mano"
    asked = set()  # the banner says what is asked, in the game's words
    play_by_clicking(page, table, 0, lambda t: False,
                     lambda page: asked.add(page.inner_text("#turn").split(" · ")[-1]))
    assert "Your call in the auction" in asked and "Play a card" in asked, asked
    assert table.game.is_over
    assert ready(page) == "over"
    verdict = page.inner_text("#summary p")  # the contract made or lost, or a thrown-in deal
    assert (": made (" if deal.declarer is not None and deal.payoffs[deal.declarer] > 0
            else ": lost (") in verdict or "thrown in" in verdict, verdict
    rows = page.eval_on_selector_all("#summary table.summary tbody tr", "els => els.length")
    assert rows == 4 and page.locator("#summary pre").count() == 0
    best = page.eval_on_selector_all("#summary tr.best", "els => els.map(e => +e.dataset.seat)")
    assert best == [s for s, p in enumerate(deal.payoffs) if p > 0]  # the winning side
    assert "running score" in page.inner_text("#score")
    assert page.inner_text("#summary button#next") == "Next deal"  # on the felt, under the end
    if page.is_enabled("#show-last"):  # the last trick instead, and back to the end
        page.click("#show-last")
        assert page.inner_text("#show-last") == "The end" and page.locator("#summary").is_hidden()
        page.click("#show-last")
        assert page.locator("#summary").is_visible()
    # the news ends with the table of tricks, its columns kept: the box itself never scrolls
    # sideways, only that table's block does
    news = page.evaluate("(() => { const n = document.getElementById('news'); return "
                         "[n.scrollWidth - n.clientWidth, n.querySelectorAll('.said.end .columns').length]; })()")
    assert news[0] <= 0 and news[1] >= 10, news
    assert not page.evaluate("document.getElementById('setup').open")  # folded once seated
    page.close()


def declare(page, app):
    """Sit at seat 0 of seed 1's Mediatore deal and outbid greedy(1)'s chiamo with the next
    bid up: the person is the declarer, asked to call a card. The server's table."""
    table = sit_down(page, app, "mediatore", 0, seed=1)
    page.locator("#moves button[data-move]").nth(1).click()
    page.wait_for_selector("button.call")
    return table


def apart(a, b) -> bool:
    """Whether two boxes ``[left, top, right, bottom]`` do not overlap."""
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_a_thrown_in_deals_sentence_is_on_one_line(server, browser, shots):
    """A Mediatore deal all four passed: its end's sentence ("All four passed: the deal is
    thrown in, no one pays.") on one line on a desktop, the box wider than its small table
    for it; once the box was the table's width and "no one pays." wrapped, even at 1440."""
    url, app, _ = server
    for width, height in ((1440, 900), (1024, 768)):
        for seed in range(40):  # random agents that pass too, as the person does
            page = open_page(browser, url, width, height)
            page.select_option("#game", "mediatore")
            for s in (1, 2, 3):
                page.select_option(f".agent[data-seat='{s}']", "random")
            page.fill("#seed", str(seed))
            page.click("#start")
            wait_ready(page)
            table = table_of(app, page.evaluate("play.id"))
            while ready(page) == "turn" and page.locator("#moves button[data-move]",
                                                         has_text="pass").count():
                page.locator("#moves button[data-move]", has_text="pass").first.click()
                wait_ready(page)
            if table.game.is_over and table.game.declarer is None:
                break
            page.close()
        else:
            pytest.fail("no deal thrown in")
        wait_ready(page, "over")
        sentence = page.locator("#summary .body > p").first
        assert "no one pays" in sentence.inner_text()
        page.screenshot(path=str(shots / f"web-thrown-in-{width}.png"))
        lines = page.evaluate("""(p) => { const r = document.createRange(); r.selectNodeContents(p);
            return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; }""",
                              sentence.element_handle())
        assert lines == 1, (width, lines)
        box, felt = page.locator("#summary").bounding_box(), page.locator("#felt").bounding_box()
        assert box["x"] >= felt["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"]
        page.close()


def test_the_cards_to_call_lie_on_the_felt_with_the_hand_in_sight(server, browser):
    """A declarer calls with the whole hand in sight: on a wide screen the forty cards lie on
    the felt, where the trick will be (below the banner they pushed the hand out of the
    window), a laptop's 768 pixels included, and a laptop's 1024 pixels, where a suit's row
    is wider than the felt's middle, a suit two rows of five; on a phone, where the felt has
    no room for them, below the banner."""
    url, app, _ = server
    for width, height, on_felt in ((1280, 860, True), (1366, 768, True), (1024, 768, True),
                                   (390, 844, False)):
        page = open_page(browser, url, width, height)
        table = declare(page, app)
        assert table.game.declarer == 0 and page.locator("button.call").count() == 40
        assert page.locator("#call button.call").count() == (40 if on_felt else 0), width
        if on_felt:
            hand = page.evaluate("document.getElementById('hand').getBoundingClientRect().bottom")
            assert hand <= height, "the hand is in sight"
            # each card to call inside the felt's middle, clear of every seat
            boxes = page.evaluate("""() => {
                const box = (e) => { const r = e.getBoundingClientRect();
                                     return [r.left, r.top, r.right, r.bottom]; };
                return [box(document.getElementById('centre')),
                        [...document.querySelectorAll('#call button.call')].map(box),
                        [...document.querySelectorAll('.seat')].map(box)]; }""")
            centre, calls, seats = boxes
            for c in calls:
                assert (centre[0] <= c[0] and c[2] <= centre[2] and centre[1] <= c[1]
                        and c[3] <= centre[3]), (width, c, centre)
                assert all(apart(c, s) for s in seats), (width, c)
        page.locator("button.call").first.click()
        wait_ready(page)
        assert page.locator("button.call").count() == 0 and page.locator("#call").is_hidden()
        page.close()


def test_the_discards_are_picked_then_sent_together(server, browser):
    """As at a card table, a declarer picks the four discards (and may change them), then
    sends them: until four are picked nothing goes; then exactly those four make the new
    monte, and the card passed back to the giver is picked and sent the same way."""
    url, app, _ = server
    page = open_page(browser, url, 1280, 860)
    table = declare(page, app)
    page.locator("button.call").nth(3).click()  # the king of coins: greedy(3) gives it
    page.wait_for_selector("#send-chosen")
    deal, cards = table.game, page.locator("#hand button.card")
    assert deal.giver is not None and cards.count() == 14
    assert page.inner_text("#send-chosen") == "Discard: pick 4 cards"
    # the cards new to the hand say where they came from: the monte's four, the given card
    badges = page.eval_on_selector_all("#hand [data-badge]",
                                       "els => els.map(e => [e.dataset.card, e.dataset.badge])")
    monte = cards_of(deal.view(0).monte_seen)  # in the hand now
    assert len(monte) == 4 and sorted(badges) == sorted(
        [[CARD_NAMES[c], "monte"] for c in monte] + [[CARD_NAMES[deal.called_card], "given"]])
    for i in (0, 1, 2, 1, 5, 8, 9):  # the second card put back; the fifth pick is refused
        cards.nth(i).click()
    chosen = page.eval_on_selector_all("#hand .chosen", "els => els.map(e => e.dataset.card)")
    assert chosen == [cards.nth(i).get_attribute("data-card") for i in (0, 2, 5, 8)]
    assert deal.discards == 0  # nothing sent while picking
    assert page.inner_text("#send-chosen") == "Discard these 4"
    page.click("#send-chosen")
    page.wait_for_function("() => document.getElementById('send-chosen')?.textContent"
                           " === 'Pass back: pick 1 card'")
    assert sorted(CARD_NAMES[c] for c in cards_of(deal.discards)) == sorted(chosen)
    passed = cards.nth(0).get_attribute("data-card")
    cards.nth(0).click()
    page.click("#send-chosen")
    page.wait_for_function("() => !document.getElementById('send-chosen')")
    assert CARD_NAMES[deal.given_back] == passed and len(cards_of(deal.hands[0])) == 9
    page.close()


def test_a_bids_button_says_the_bid(server, browser):
    """In the auction each button reads its move's words, "pass", "bid mediatore", "bid
    solo"...: once they read "0", "1", "2" (their places in the list), the bids only in the
    words shown when pointed at."""
    url, app, _ = server
    page = open_page(browser, url, 1280, 860)
    table = sit_down(page, app, "mediatore", 0, seed=1)  # greedy(1) has bid chiamo: your call
    wait_ready(page, "turn")
    shown = page.eval_on_selector_all("#moves button[data-move]",
                                      "els => els.map(e => [+e.dataset.move, e.textContent])")
    assert shown == [[m["move"], m["words"]] for m in table.view_json(0)["moves"]], shown
    assert shown[0][1] == "pass" and all(w.startswith("bid ") for _, w in shown[1:]), shown
    page.close()


def test_a_lead_with_signals_offers_them_in_short(server, browser):
    """A Mediatore lead may go with a signal (the default rules): the card opens its moves as
    buttons named by their signal, "no signal", "busso", "striscio"..., their whole words when
    pointed at; once each read "play 3 of coins, busso" after the card's name."""
    url, app, _ = server
    page = open_page(browser, url, 1280, 860)
    table = sit_down(page, app, "mediatore", 1, seed=1)  # il mano: leads the first trick
    play_by_clicking(page, table, 1, lambda t: any(m["signal"] for m in t.view_json(1)["moves"]))
    page.locator("#hand [data-moves]").first.click()
    page.wait_for_selector("#moves button[data-move]")
    words = {m["move"]: m for m in table.view_json(1)["moves"]}
    shown = page.eval_on_selector_all("#moves button[data-move]",
                                      "els => els.map(e => [+e.dataset.move, e.textContent, e.title])")
    assert [(label, title) for _, label, title in shown] == [
        (words[m]["signal"] or "no signal", words[m]["words"]) for m, _, _ in shown]
    assert len(shown) > 1 and shown[0][1] == "no signal", shown
    page.locator("#moves button[data-move]").nth(1).click()  # the card with its signal
    deadline = time.time() + 10
    while (1, shown[1][0]) not in table.game.history and time.time() < deadline:
        time.sleep(0.01)
    assert (1, shown[1][0]) in table.game.history
    page.close()


def exchange(page, app, look) -> None:
    """As the declarer of seed 1's deal (:func:`declare`), call the king of coins (greedy(3)
    gives it), discard four, pass one back, and wait for the first card to play, calling
    ``look(step)`` at each step: ``call``, ``discard``, ``pass back``, ``play``."""
    declare(page, app)
    look("call")
    page.locator("button.call").nth(3).click()
    for step, count in (("discard", 4), ("pass back", 1)):
        page.wait_for_function(f"() => document.body.dataset.ready === 'turn' && "
                               f"document.getElementById('send-chosen')?.dataset.count === '{count}'")
        look(step)
        for i in range(count):
            page.locator("#hand button.card").nth(i).click()
        page.click("#send-chosen")
    page.wait_for_function("() => document.body.dataset.ready === 'turn' && "
                           "!document.getElementById('send-chosen')")
    look("play")


def test_the_hand_stays_put_from_step_to_step(server, browser):
    """At a laptop's 1024x768 the banner keeps its height whatever it asks: the call, the
    discards, the card passed back and the play each find the hand where the step before
    left it. Once the card passed back's question ("Pass one card face down to the player
    who gave you the called card") took two lines and pushed the hand down."""
    url, app, _ = server
    page = open_page(browser, url, 1024, 768)
    tops = {}
    exchange(page, app, lambda step: tops.__setitem__(step, page.evaluate(
        "[document.getElementById('hand').getBoundingClientRect().top, "
        "document.getElementById('turn').textContent]")))
    assert max(top for top, _ in tops.values()) - min(top for top, _ in tops.values()) <= 1, tops
    assert "Pass one card face down" in tops["pass back"][1]  # the whole question, smaller
    page.close()


#: The page's layout at a step, measured in the browser: the seats' boxes, whether each seat's
#: name (with "agent") and its count of cards ("9 cards") keep to one line, the hand's cards'
#: boxes, each with its badge's (monte, given...) or null.
LAYOUT = """() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const oneLine = (e) => { const range = document.createRange(); range.selectNodeContents(e);
        const tops = [...range.getClientRects()].map((r) => r.top);
        return Math.max(...tops) - Math.min(...tops) < 0.8 * parseFloat(getComputedStyle(e).fontSize); };
    const all = (sel) => [...document.querySelectorAll(sel)];
    return {seats: all('.seat').map(box),
            wrapped: all('.seat-name, .seat-cards .count').filter((e) => !oneLine(e)).map((e) => e.textContent),
            cards: all('#hand .card').map((c) => [box(c), c.querySelector('.badge') && box(c.querySelector('.badge'))])}; }"""


def test_a_laptops_table_has_room_for_its_seats_and_hand(server, browser):
    """At a laptop's 1024x768, through the call, the discards (fourteen cards, those of the
    monte and the given one marked), the card passed back (ten cards) and the play: each side
    seat keeps "greedy(3) agent" and "9 cards" to a line, no box over another, the hand one row
    in the window, and no card's badge over its neighbour's. Once the side seats were too
    narrow for either, and ten cards wrapped onto a second row below the window."""
    url, app, _ = server
    page = open_page(browser, url, 1024, 768)
    badged = []

    def look(step):
        at = page.evaluate(LAYOUT)
        assert at["wrapped"] == [], (step, at["wrapped"])
        assert all(apart(a, b) for i, a in enumerate(at["seats"]) for b in at["seats"][:i]), step
        cards = [c for c, _ in at["cards"]]
        assert len({round(c[1]) for c in cards}) == 1, (step, "the hand in one row")
        assert max(c[3] for c in cards) <= 768, (step, "the hand in the window")
        # a badge over its own card's strip, left of the card that overlaps it
        ends = [c[0] for c in cards[1:]] + [cards[-1][2]]
        badges = [(b, c, end) for (c, b), end in zip(at["cards"], ends) if b]
        assert all(c[0] - 1 <= b[0] and b[2] <= end + 1 for b, c, end in badges), (step, badges)
        badged.append(len(badges))
    exchange(page, app, look)
    assert badged[1] == 5, badged  # the discards: the monte's four and the given card
    page.close()


#: Each seat's name as the page shows it: [seat, its text, its title, whether it is cut short
#: (a part of it, the name's stem or "agent", wider than its box)].
SEAT_NAMES = """() => [...document.querySelectorAll('.seat')].map((s) => {
    const e = s.querySelector('.seat-name');
    return [+s.dataset.seat, e.textContent, e.title,
            [e, ...e.querySelectorAll('.stem')].some((x) => x.scrollWidth > x.clientWidth)]; })"""


def test_a_phones_side_seats_keep_each_label_to_a_line(server, browser):
    """At a phone's 390 pixels a side seat is a quarter of the felt wide: each seat's name and
    its count of cards keep to a line, the name whole ("greedy(3)": its seat's number in
    sight), and a name too long for its seat (as long as any) cut short, whole in its title,
    as under its card in the trick. Once "greedy(3) agent" and "9 cards" each took two lines,
    and a long name five (six under its card)."""
    url, app, _ = server
    page = open_page(browser, url, 390, 844)
    table = sit_down(page, app, "mediatore", 0, seed=1)
    at = page.evaluate(LAYOUT)
    assert at["wrapped"] == [] and len(at["seats"]) == 4, at["wrapped"]
    assert all(apart(a, b) for i, a in enumerate(at["seats"]) for b in at["seats"][:i])
    assert [cut for *_, cut in page.evaluate(SEAT_NAMES)] == [False] * 4
    # a name longer than a person may choose (the page draws what it is sent): from the next step
    long = "A" * 40
    table.names[3] = long
    click_a_move(page, table)
    wait_ready(page)
    page.wait_for_function(f"() => document.querySelector('.seat[data-seat=\"3\"]').textContent"
                           f".includes('{long[:10]}')")
    at = page.evaluate(LAYOUT)
    assert at["wrapped"] == [], at["wrapped"]
    names = page.evaluate(SEAT_NAMES)
    assert [cut for *_, cut in names] == [False, False, False, True], names
    assert long in names[3][2]  # whole in its title
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert all(0 <= s[0] and s[2] <= 390 for s in at["seats"]), at["seats"]
    # under its card in the trick, two lines at most (once six): the trick keeps its height
    played = lambda t: any(p["seat"] == 3 for p in t.view_json(0)["trick"])  # noqa: E731
    wait_ready(page, "turn")
    if not played(table):
        play_by_clicking(page, table, 0, played)
    who = page.evaluate("(e => [e.getBoundingClientRect().height, parseFloat(getComputedStyle(e)"
                        ".lineHeight), e.title])(document.querySelector("
                        "'#trick .played[data-seat=\"3\"] .who'))")
    assert who[0] <= 2 * who[1] + 1 and who[2] == long, who
    page.close()


#: Each seat's number as its name ends with it ("generic-gree(3)"): [seat, whether it lies
#: inside the box of its name, in sight, not past the "…" of a name cut short].
SEAT_NUMBERS = """() => [...document.querySelectorAll('.seat')].map((s) => {
    const e = s.querySelector('.seat-name'), box = e.getBoundingClientRect();
    const texts = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let node; (node = texts.nextNode());) {
        const at = node.data.search(/\\(\\d+\\)$/);
        if (at < 0) continue;
        const r = document.createRange();
        r.setStart(node, at);
        r.setEnd(node, node.data.length);
        const n = r.getBoundingClientRect();
        return [+s.dataset.seat, box.left - 0.5 <= n.left && n.right <= box.right + 0.5];
    }
    return [+s.dataset.seat, null]; })"""


def test_a_seat_cut_short_keeps_its_number(server, browser):
    """A name too long for its seat is cut short in its middle, its seat's number in sight:
    the game's own agents "generic-greedy" are named "generic-gree(1)", "generic-gree(3)"...,
    and at a phone's 390 pixels the side seats read "generic-g…(1)" and "generic-g…(3)", as
    the trick, the panels and the news name them. Once both read "generic-gr…", the one seat
    not to be told from the other; at 768 and 1024 pixels it is "agent" that goes first."""
    url, app, _ = server
    for width, height in ((390, 844), (768, 1024), (1024, 768)):
        page = open_page(browser, url, width, height)
        page.select_option("#game", "mediatore")  # (sit_down's choice of the game would reset the agents)
        for s in (1, 2, 3):
            page.select_option(f".agent[data-seat='{s}']", "generic-greedy")
        page.click("#start")
        wait_ready(page)
        assert page.evaluate(SEAT_NUMBERS) == [[0, None], [1, True], [2, True], [3, True]], width
        # a line each (an "agent" with no room whole lies below it, out of sight)
        assert page.evaluate("""() => [...document.querySelectorAll('.seat-name')].every((e) =>
            e.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(e).fontSize))"""), width
        names = page.evaluate(SEAT_NAMES)
        assert [title for _, _, title, _ in names][1:] == [f"generic-gree({s}) (agent)" for s in (1, 2, 3)]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.close()


def test_play_a_tressette_hand_by_clicking(server, browser, shots):
    url, app, _ = server
    page = open_page(browser, url, 1100, 820)
    tops = set()  # where the hand lies on the page, the trick and the turns as they are

    def hand_top(page):
        assert_follow_told(page, table, 1)
        top = "document.getElementById('hand').getBoundingClientRect().top + window.scrollY"
        tops.add(round(page.evaluate(top)))
        if page.is_enabled("#show-last"):  # a whole trick on the felt, with its caption
            page.click("#show-last")
            tops.add(round(page.evaluate(top)))
            page.click("#show-last")
    table = sit_down(page, app, "tressette", 1)
    table = play_by_clicking(page, table, 1,
                             lambda t: t.game.is_over or t.game.hand_number > 1, hand_top)
    assert max(tops) - min(tops) <= 2, f"the hand moved between {sorted(tops)}"
    assert table.game.hand_number > 1 or table.game.is_over  # a whole hand was played
    # the hand's end stays on the felt, with its table of points as wide as the terminal's,
    # until the next is asked for; the news tells it too
    wait_ready(page, "between")
    assert "hand 1: the end" in page.inner_text("#news")
    assert page.inner_text("#between h3") == "hand 1: the end"
    # the felt is still hand 1's: its dealer marked, not hand 2's (dealt already)
    marked = page.eval_on_selector_all(".seat .mark.dealer",
                                       "els => els.map(e => +e.closest('.seat').dataset.seat)")
    assert marked == [table.game.log[0].dealer] != [table.game.dealer]
    # no column of zeros beside the game's scores while no game is over
    assert "running score" not in page.inner_text("#score")
    said = page.inner_text("#between .lines")
    assert "last trick" in said and "the game is to 31" in said
    assert page.evaluate("(() => { const b = document.querySelector('#between .lines'); "
                         "return b.scrollWidth <= b.clientWidth; })()")  # it fits: no scrolling
    assert page.inner_text("#next-hand") == "Next hand"
    page.click("#next-hand")
    wait_ready(page)
    assert ready(page) in ("turn", "wait") and page.locator("#next-hand").count() == 0
    assert page.locator("#between").is_hidden()
    # the partners' two sides in two colours, and the scores by side as a table
    assert page.eval_on_selector_all(".seat", "els => els.map(e => e.dataset.side)") == [
        "0", "1", "0", "1"]
    assert page.locator("#facts table.scores tbody tr").count() == 2
    page.screenshot(path=str(shots / "web-tressette.png"))
    assert (shots / "web-tressette.png").stat().st_size > 10_000
    page.close()


def test_two_handed_marks_the_card_you_drew(server, browser):
    """After each trick both players draw from the stock: your hand marks the card you drew
    (the news says it too), and only that one. The table names the cards in Italian, as
    chosen in the form."""
    url, app, _ = server
    page = open_page(browser, url, 1280, 860)
    page.select_option("#cards", "italian")
    table = sit_down(page, app, "tressette2", 0, seed=2)
    assert table.style == "italian" and " di " in page.inner_text("#news")
    play_by_clicking(page, table, 0, lambda t: len(t.game.log[-1].tricks) >= 3)
    drawn = [d.card for d in table.game.log[-1].draws if d.seat == 0][-1]
    marked = "els => els.map(e => e.dataset.card)"
    assert page.eval_on_selector_all("#hand [data-badge=drawn]", marked) == [CARD_NAMES[drawn]]
    # until the next trick: once the stock is out, no card is new any more
    play_by_clicking(page, table, 0, lambda t: t.game.view(0).stock_size == 0
                     and len(t.game.log[-1].tricks) > 11)
    assert page.eval_on_selector_all("#hand [data-badge]", marked) == []
    page.close()


def test_a_finished_trick_rests_whole_before_it_travels_to_its_winner(server, browser):
    """At the table's pace, a trick's last card lands, the whole trick stays a pause to be
    read, then travels to its winner: once it left as soon as its last card had landed."""
    url, app, _ = server
    pace = 700
    page = watched(browser.new_page(viewport={"width": 1280, "height": 860}))
    page.goto(url + f"/?pace={pace}")
    page.wait_for_function("() => document.body.dataset.loaded")
    table = sit_down(page, app, "tressette2", 0, seed=2)
    click_a_move(page, table)  # the agent answers: the trick is over
    delays = page.wait_for_function("""() => { const cards = document.querySelectorAll(
        '#trick:not([data-leaving=""]) .played');
        return cards.length === 2 && [...cards].map(c => getComputedStyle(c).animationDelay); }""")
    # the leaving's delay: the last of an arriving card's two animations
    rests = [float(d.split(",")[-1].strip().removesuffix("s")) for d in delays.json_value()]
    assert min(rests) >= pace / 1000, rests
    page.close()


def test_a_card_pointed_at_its_edge_stays_raised(server, browser):
    """A legal card pointed at rises, and stays risen with the pointer still at its bottom
    edge, where it rose from: once it rose out from under the pointer, dropped back under it
    and rose again, every frame (less motion asked for: no transition to hide it). Its place,
    looked at over twenty frames, is one."""
    url, app, _ = server
    page = open_page(browser, url, 1024, 768)
    page.emulate_media(reduced_motion="reduce")
    sit_down(page, app, "tressette", 1)  # il mano: the hand is yours to lead from
    wait_ready(page, "turn")
    card = page.locator("#hand button.card.legal").first.bounding_box()
    page.mouse.move(card["x"] + card["width"] / 2, card["y"] + card["height"] - 2)
    tops = page.evaluate("""() => new Promise((done) => {
        const card = document.querySelector('#hand button.card.legal'), tops = [];
        const look = () => { tops.push(card.getBoundingClientRect().top);
                             if (tops.length < 20) requestAnimationFrame(look); else done(tops); };
        requestAnimationFrame(look); })""")
    assert len(set(tops)) == 1 and tops[0] < card["y"], (card["y"], tops)
    page.close()


def test_a_hand_played_from_the_keyboard_keeps_the_focus(server, browser):
    """Played with the keyboard (Tab to a card, Enter), the next turn finds the focus on the
    hand's first legal card, risen, so that Enter, or a Tab or two, plays again; the end of a
    hand puts it on Next hand. Once each move's redraw dropped the focus to the page's start,
    five Tabs (the tabs, New table) before the hand again."""
    url, app, _ = server
    page = open_page(browser, url, 1024, 768)
    table = sit_down(page, app, "tressette2", 0, seed=5)
    wait_ready(page, "turn")
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('#hand button.card.legal')"):
            break
    focused = "document.activeElement.matches('#hand button.card.legal, #next-hand')"
    for _ in range(4):  # Enter on the focused card, then the next turn's
        made = len(table.game.history)
        page.keyboard.press("Enter")
        wait_ready(page)  # this move's answer, then the agent's card, then the turn again
        while len(table.game.history) <= made:
            time.sleep(0.01)
        page.wait_for_function("() => ['turn', 'between'].includes(document.body.dataset.ready)")
        assert page.evaluate(focused), page.evaluate("document.activeElement.outerHTML.slice(0, 80)")
    page.close()


def test_the_hand_is_live_the_moment_it_says_your_turn(server, browser):
    """At the table's pace, the moment the page says it is your turn (your seat, the banner),
    a click on a legal card is taken, while the agents' last card is still on its way: once
    the seat said so a pause before the cards took a click, and a quick one did nothing."""
    url, app, _ = server
    page = watched(browser.new_page(viewport={"width": 1280, "height": 860}))
    page.goto(url + "/?pace=700")
    page.wait_for_function("() => document.body.dataset.loaded")
    table = sit_down(page, app, "tressette", 1)  # il mano: the three agents play after you
    wait_ready(page, "turn")
    click_a_move(page, table)
    page.wait_for_function("() => !document.querySelector('#hand button.card')")  # sent
    # looked at every frame: at the first that says your turn, a legal card is clicked
    said = page.wait_for_function("""() => {
        const turn = document.querySelector('.seat.mine .seat-turn').textContent === 'your turn'
                     || document.getElementById('turn').classList.contains('yours');
        if (!turn) return false;
        const card = document.querySelector('#hand button.card.legal');
        card?.click();
        return {card: card?.dataset.card ?? null,
                arriving: Boolean(document.querySelector('#trick .played.arriving'))}; }""",
                                  polling="raf").json_value()
    assert said["card"] is not None and said["arriving"], said
    hand = lambda: [c["tag"] for c in table.view_json(1)["hand"]]  # noqa: E731
    deadline = time.time() + 10
    while said["card"] in hand() and time.time() < deadline:  # the click reaches the server
        time.sleep(0.01)
    assert said["card"] not in hand()
    page.close()


@pytest.mark.slow
def test_a_partnership_tressette_game_is_played_to_the_end(server, browser):
    url, app, _ = server
    page = open_page(browser, url, 1100, 820)
    table = sit_down(page, app, "tressette", 0)
    while not table.game.is_over:
        play_by_clicking(page, table, 0, lambda t: t.game.is_over)
        if ready(page) == "over":
            break
    assert table.game.is_over and ready(page) == "over"
    assert page.inner_text("#summary").startswith("The game is over")
    page.close()


def test_a_club_deal_starts_from_the_form_and_is_played_to_the_end(server, browser, shots):
    """club's switches as the form types them (ante a number, deals an optional number):
    once no club table could be started from the page."""
    url, app, _ = server
    page = open_page(browser, url, 1100, 820)
    page.select_option("#game", "club")
    assert page.get_attribute(".rule[data-rule=deals]", "placeholder") == "none"
    table = sit_down(page, app, "club", 2, {"ante": 3, "deals": 1})
    assert table.rules.ante == 3 and table.rules.deals == 1
    play_by_clicking(page, table, 2, lambda t: t.game.is_over)
    assert table.game.is_over and len(table.game.results) == 1
    assert ready(page) == "over"
    assert page.inner_text("#summary").startswith("The session is over")
    assert page.locator("#summary table.summary tbody tr").count() == 4
    assert page.locator("#facts [data-kind=chips] table").count() == 1
    page.screenshot(path=str(shots / "web-club.png"))
    # the last deal's end under the summary, folded (Next in sight), drawn as every deal's
    # between two (its tricks)
    assert page.inner_text("#summary .lines.end > summary") == "deal 1: the end"
    page.click("#summary .lines.end > summary")
    assert page.locator("#summary .lines.end table.grid.end tbody tr").count() == 9
    assert page.locator("#summary .lines.end table.grid.end").first.is_visible()
    page.close()


#: Which of the summary's rows and its Next are in sight: each in the window and, at its
#: middle, not hidden (below a box's fold, under another box).
IN_SIGHT = """() => { const seen = (e) => { const r = e.getBoundingClientRect();
        const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
        return 0 <= y && y <= innerHeight && e.contains(document.elementFromPoint(x, y)); };
    return {rows: [...document.querySelectorAll('#summary table.summary tbody tr')].map(seen),
            next: seen(document.getElementById('next'))}; }"""


def test_a_sessions_end_shows_its_rows_and_next_at_once(server, browser):
    """On a laptop's screen (1024x768, 1280x800) a club session's end shows its sentence,
    its four rows and Next session at once: the player scrolls nothing to go on, nor to read
    who won, and with the last deal's tricks unfolded under them Next stays in sight. Once
    the summary filled only the felt's middle and scrolled inside, Next below its fold."""
    url, app, _ = server
    for width, height in ((1024, 768), (1280, 800)):
        page = open_page(browser, url, width, height)
        table = sit_down(page, app, "club", 2, {"deals": 1})
        play_by_clicking(page, table, 2, lambda t: t.game.is_over)
        wait_ready(page, "over")
        assert page.evaluate(IN_SIGHT) == {"rows": [True] * 4, "next": True}, width
        page.click("#summary .lines.end > summary")  # the last deal's nine tricks
        page.wait_for_selector("#summary .lines.end table.grid.end")
        assert page.evaluate(IN_SIGHT)["next"], width
        page.close()


def test_a_hands_end_fits_its_board_with_next_in_sight(server, browser):
    """A hand's end lies on the felt whole in width, its letters smaller where its table is
    wider (a club deal's tricks on a laptop's 1024 pixels, a Tressette hand's on a phone; not
    below 9 px), and however tall it is, Next stays in sight under it: once a club deal's end
    ran past the board's right edge and hid Next deal below its bottom."""
    url, app, _ = server
    for width, height, game, seat, rules, stop in (
            (1024, 768, "club", 2, {"deals": 2}, lambda t: len(t.game.results) >= 1),
            (390, 844, "club", 2, {"deals": 2}, lambda t: len(t.game.results) >= 1),
            (390, 844, "tressette", 1, None, lambda t: t.game.hand_number > 1)):
        page = open_page(browser, url, width, height)
        table = sit_down(page, app, game, seat, rules)
        play_by_clicking(page, table, seat, stop)
        wait_ready(page, "between")
        lines = page.evaluate("""() => { const b = document.querySelector('#between .lines');
            return [b.scrollWidth, b.clientWidth, parseFloat(getComputedStyle(b).fontSize)]; }""")
        assert lines[0] <= lines[1] and lines[2] >= 9, (width, lines)
        # drawn as tables in the panels' letters, not the terminal's lines shrunk to fit:
        # once a phone read a Tressette hand's points at 9 px, a club deal's scrolled sideways
        assert page.locator("#between .lines.end table.grid.end").count() >= 1
        sizes = page.evaluate("""() => { const size = (e) => parseFloat(getComputedStyle(e).fontSize);
            return [Math.min(...[...document.querySelectorAll('#between table.end')].map(size)),
                    size(document.querySelector('.panel table.grid'))]; }""")
        assert sizes[0] >= sizes[1], (width, sizes)
        right = page.evaluate("Math.max(...[...document.querySelectorAll('#between table.end')]"
                              ".map((t) => t.getBoundingClientRect().right))")
        assert right <= width and page.evaluate("document.documentElement.scrollWidth") <= width
        if width < 600:  # a phone's end lies in the page's flow, as tall as it is, not scrolled
            # inside; Next under it comes into sight as the page scrolls
            assert page.evaluate("(b => b.scrollHeight <= b.clientHeight + 1)"
                                 "(document.getElementById('between'))")
            page.locator("#next-hand").scroll_into_view_if_needed()
        board, button = (page.locator(sel).bounding_box() for sel in ("#between", "#next-hand"))
        assert board["y"] <= button["y"] and button["y"] + button["height"] <= min(
            board["y"] + board["height"], height), (width, board, button)
        page.close()


#: The words broken inside in a hand's end's tables: each whose letters lie on two lines.
BROKEN_WORDS = """() => { const broken = [];
    for (const cell of document.querySelectorAll('#between table.grid.end :is(th, td)')) {
        const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node; (node = texts.nextNode());)
            for (const m of node.data.matchAll(/[^\\s\\u200b]+/g)) {
                const r = document.createRange();
                r.setStart(node, m.index);
                r.setEnd(node, m.index + m[0].length);
                if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1)
                    broken.push(m[0]);
            }
    }
    return broken; }"""


def test_a_phones_hand_end_breaks_no_word(server, browser):
    """On a phone (390 pixels) a hand's end's tables wrap between words only, a seat's name
    before its "(": a club deal's seven columns, a Tressette hand's sides. Once each cell
    wrapped anywhere, to be sure the table fitted: "Yo" over "u", "poin" over "ts", "las" over
    "t"; now only where the table is wider than its board otherwise (360 pixels), and it fits
    there still."""
    url, app, _ = server
    for width, height, game, seat, rules, stop in (
            (390, 844, "club", 2, {"deals": 2}, lambda t: len(t.game.results) >= 1),
            (390, 844, "tressette", 1, None, lambda t: t.game.hand_number > 1),
            (360, 740, "club", 2, {"deals": 2}, lambda t: len(t.game.results) >= 1)):
        page = open_page(browser, url, width, height)
        table = sit_down(page, app, game, seat, rules)
        play_by_clicking(page, table, seat, stop)
        wait_ready(page, "between")
        if width == 390:
            assert page.evaluate(BROKEN_WORDS) == [], (width, game)
        right = page.evaluate("Math.max(...[...document.querySelectorAll('#between table.end')]"
                              ".map((t) => t.getBoundingClientRect().right))")
        assert right <= width and page.evaluate("document.documentElement.scrollWidth") <= width
        page.close()


#: The narrowest gap in a hand's end's tables between a cell's words and the next cell's in
#: its row, in pixels (their text's own boxes, not the cells').
END_GAP = """() => { let least = Infinity;
    const span = (cell) => { const r = document.createRange(); r.selectNodeContents(cell);
        const rects = [...r.getClientRects()].filter((x) => x.width > 0);
        return rects.length ? [Math.min(...rects.map((x) => x.left)),
                               Math.max(...rects.map((x) => x.right))] : null; };
    for (const row of document.querySelectorAll('#between table.grid.end tr')) {
        const spans = [...row.cells].map(span).filter(Boolean);
        for (let i = 1; i < spans.length; i++) least = Math.min(least, spans[i][0] - spans[i - 1][1]);
    }
    return least; }"""


def test_a_phones_tressette_end_keeps_its_columns_apart(server, browser, shots):
    """On a phone (390 pixels, and 360) a Tressette hand's end's columns lie apart, each cell's
    words a space from the next's, the table no wider than the page: with the phone's narrow
    cells (room for a club deal's seven columns) "8 2/3 -> 8" ran into the last trick's "-"
    and the heads read "last melds hand game" nearly as one."""
    url, app, _ = server
    for width, height in ((390, 844), (360, 740)):
        page = open_page(browser, url, width, height)
        table = sit_down(page, app, "tressette", 1)
        play_by_clicking(page, table, 1, lambda t: t.game.hand_number > 1)
        wait_ready(page, "between")
        if width == 390:
            page.locator("#between").screenshot(path=str(shots / "web-phone-tressette-end.png"))
        gap = page.evaluate(END_GAP)
        size = page.evaluate("parseFloat(getComputedStyle(document.querySelector("
                             "'#between table.grid.end td')).fontSize)")
        assert gap >= 0.45 * size, (width, gap, size)
        assert page.evaluate(BROKEN_WORDS) == [], width
        right = page.evaluate("Math.max(...[...document.querySelectorAll('#between table.end')]"
                              ".map((t) => t.getBoundingClientRect().right))")
        assert right <= width and page.evaluate("document.documentElement.scrollWidth") <= width
        page.close()


def test_a_phones_session_end_grows_the_felt_for_its_last_deal(server, browser):
    """On a phone (390 pixels) the end of a club session, its last deal's tricks unfolded under
    its rows, lies in the felt's flow as a hand's end does: the felt as tall as it, the page
    scrolling to its Next, nothing scrolled inside it, and its tables' words whole. Once it was
    a box no taller than the felt, a few lines of the tricks in sight between the rows and
    Next session, the empty page below it; and its rows' wide gaps, given to the tricks' table
    too, made it wrap its words anywhere ("greed" over "y(3)")."""
    url, app, _ = server
    page = open_page(browser, url, 390, 844)
    table = sit_down(page, app, "club", 2, {"deals": 1})
    play_by_clicking(page, table, 2, lambda t: t.game.is_over)
    wait_ready(page, "over")
    page.click("#summary .lines.end > summary")
    page.wait_for_selector("#summary .lines.end table.grid.end")
    inside = page.evaluate("""() => [...document.querySelectorAll('#summary, #summary > .body')]
        .map((e) => e.scrollHeight - e.clientHeight)""")
    assert all(extra <= 1 for extra in inside), inside
    felt, summary = (page.locator(sel).bounding_box() for sel in ("#felt", "#summary"))
    assert summary["y"] + summary["height"] <= felt["y"] + felt["height"], (felt, summary)
    assert page.evaluate(BROKEN_WORDS.replace("#between", "#summary")) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#next").scroll_into_view_if_needed()
    assert page.evaluate(IN_SIGHT)["next"]
    page.close()


#: Where the page's text runs past its box, on a page at the end of a hand or of the session:
#: the page's own width against the window's, each box that scrolls (the end on the felt, the
#: summary, a panel, the news) whose content is wider than it, and each table whose right edge
#: lies past its box's.
OVERFLOWS = """() => {
    const all = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetParent !== null);
    const boxes = '#between .lines, #summary, .panel, #score, #news';
    return {page: document.documentElement.scrollWidth,
            scrolled: all(boxes).filter((e) => e.scrollWidth > e.clientWidth + 1)
                .map((e) => e.id || e.className),
            past: all('#table table').filter((t) => t.getBoundingClientRect().right
                > t.parentElement.closest(boxes).getBoundingClientRect().right + 1)
                .map((t) => t.className)}; }"""


def test_a_long_name_widens_no_table(server, browser):
    """A name as long as any, forty letters and no space (the page draws what it is sent), is
    cut short in the tables that name it (a club deal's end on the felt, the session's
    summary, the score, the panels), whole in its title, and breaks in the lines of words
    (the end's, the news): nothing runs past its box, nothing scrolls sideways, on a laptop
    and on a phone. Once it pushed the deal's tricks' "won by" out of the end's board, the
    summary's points out of its box and the score out of the window."""
    url, app, _ = server
    long = "A" * 40
    for width, height in ((1024, 768), (390, 844)):  # a laptop's and a phone's (the narrowest)
        page = open_page(browser, url, width, height)
        table = sit_down(page, app, "club", 2, {"deals": 2})
        table.names[1] = long  # from the next step on
        play_by_clicking(page, table, 2, lambda t: len(t.game.results) >= 1)
        wait_ready(page, "between")
        # cut short where it is too long for its column, whole in its title
        assert page.locator(f"#between table.grid.end thead [title='{long}']").count() == 1
        assert page.evaluate(OVERFLOWS) == {"page": width, "scrolled": [], "past": []}, width
        page.click("#next-hand")
        wait_ready(page)
        play_by_clicking(page, table, 2, lambda t: t.game.is_over)
        wait_ready(page, "over")
        page.click("#summary .lines.end > summary")  # the last deal's tricks unfolded
        assert page.locator(f"#summary table.summary [title='{long}']").count() == 1
        assert page.evaluate(OVERFLOWS) == {"page": width, "scrolled": [], "past": []}, width
        page.close()


def test_a_reload_goes_on_at_the_same_seat(server, browser):
    """The page keeps the table's id and the seat's token in sessionStorage."""
    url, app, _ = server
    page = open_page(browser, url)
    table = sit_down(page, app, "tressette2", 0)
    play_by_clicking(page, table, 0, lambda t: len(t.game.history) >= 4)
    history = list(table.game.history)
    page.reload()
    page.wait_for_function("() => document.body.dataset.loaded")
    wait_ready(page)
    assert page.evaluate("play.id") == table.id and table.game.history == history
    play_by_clicking(page, table, 0, lambda t: len(t.game.history) >= len(history) + 4)
    assert table.game.history[:len(history)] == history
    # the stock's draws: the last six in sight (the panel's shown), the earlier ones folded
    page.wait_for_function("() => document.body.dataset.ready === 'turn'")  # the agent has moved
    target = max(10, len(table.game.view(0).draws) + 2)  # a trick more, and ten draws at least
    play_by_clicking(page, table, 0, lambda t: len(t.game.view(0).draws) >= target)
    drawn = len(table.game.view(0).draws)
    page.wait_for_function(f"() => [...document.querySelectorAll('[data-kind=stock] table.draws tr')]"
                           f".length === {drawn}")
    assert page.inner_text("[data-kind=stock] details summary") == f"{drawn - 6} earlier draws"
    page.close()


def test_the_table_fits_a_phone_with_the_hand_at_the_bottom(server, browser, shots):
    url, app, _ = server
    page = open_page(browser, url, 390, 844)
    page.emulate_media(reduced_motion="reduce")
    table = sit_down(page, app, "mediatore", 0)
    play_by_clicking(page, table, 0, lambda t: len(t.game.history) >= 10)
    page.evaluate("window.scrollTo(0, 0)")
    # the line over the felt says the deal in brief: its contract (or the bid to beat)
    deal, brief = table.game, page.inner_text("#brief")
    assert (brief.startswith(f"{CONTRACT_NAMES[deal.contract]} by ") if deal.contract
            else brief.startswith(("auction: ", "all passed"))), brief
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling"
    felt = page.locator("#felt").bounding_box()
    hand = page.locator("#hand").bounding_box()
    assert felt["y"] >= 0 and hand["y"] > felt["y"] + felt["height"] - 1
    assert hand["y"] + hand["height"] <= 844, "the table and the hand fit the first screen"
    # less motion asked for: nothing moves
    assert page.evaluate("getComputedStyle(document.querySelector('.seat.to-move, #turn'))"
                         ".animationName") == "none"
    page.screenshot(path=str(shots / "web-phone.png"))
    # the deal's end: scrolled to, below the sticky line, at the size of the panels' tables
    play_by_clicking(page, table, 0, lambda t: t.game.is_over)
    wait_ready(page, "over")
    # scrolled down past the felt (to the panels), the last trick and then the end again
    page.evaluate("window.scrollTo(0, document.getElementById('felt').offsetTop + 300)")
    page.evaluate("document.getElementById('show-last').click()")
    page.evaluate("document.getElementById('show-last').click()")
    top = page.evaluate("document.getElementById('summary').getBoundingClientRect().top")
    assert top >= page.locator("#brief").bounding_box()["y"] + page.locator("#brief").bounding_box()["height"]
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector("
                         "'#summary table.summary td')).fontSize)")
    panels = page.evaluate("parseFloat(getComputedStyle(document.querySelector("
                           "'#score table.grid td')).fontSize)")
    assert size >= panels, (size, panels)
    page.close()


def test_the_line_over_a_phones_felt_names_low_hand(server, browser, shots):
    """With Low Hand on (the lower total wins) the line over a phone's felt says so, as the
    Scores panel does: once it read "we 0 · they 0 (to 31)" as in the usual game, the panel
    saying which game is played out of sight below the hand; off, it says nothing of it."""
    url, app, _ = server
    for width, height, low in ((390, 844, True), (360, 740, True), (390, 844, False)):
        page = open_page(browser, url, width, height)
        table = sit_down(page, app, "tressette", 1, {"low": low})
        assert table.game.rules.low is low
        brief = page.inner_text("#brief")
        assert ("Low Hand" in brief) is low, (width, brief)
        assert page.locator("#brief").is_visible()
        box = page.locator("#brief").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        if low and width == 390:
            page.screenshot(path=str(shots / "web-phone-low.png"))
        page.close()


def test_replay_a_saved_tournament_record_to_the_end(server, browser, shots):
    url, app, found = server
    page = open_page(browser, url)
    page.click("#tab-watch")
    wait_ready(page, "step-0")
    label = page.inner_text("#record option")
    assert re.match(r"game\d+_rot\d\.json · greedy\(0\), random\(1\)", label)  # file, names
    for _ in range(5):  # step forward and back
        page.click("#forward")
    wait_ready(page, "step-5")
    assert page.inner_text("#news").strip()  # every step is told
    page.click("#back")
    wait_ready(page, "step-4")
    assert page.inner_text("#news").strip()
    page.click("#last")
    page.wait_for_selector("#watch-result[data-outcome]")
    shown = json.loads(page.get_attribute("#watch-result", "data-outcome"))
    assert shown == list(replay(found[0][1]).outcome)
    page.select_option("#watch-seat", "0")
    page.wait_for_function("() => document.querySelectorAll('.seat .cards.open').length === 0")
    page.close()


def test_watching_step_by_step_shows_each_tricks_last_card(server, browser):
    """Stepping forward, the step whose card finishes a trick shows the whole trick on the
    felt (resting where less motion is asked for): the page looked for the card played in the
    trick on the table, which that card had just emptied, so a trick's last card was never
    seen, the felt going from one card short to empty."""
    from mediatore_env.web.tables import Watch
    url, app, found = server
    watch = Watch(found[0][1])
    # the first step that finishes a trick: its table empty, the step before one card short
    views = [watch.at(k, None)["views"][0] for k in range(12)]
    step = next(k for k in range(1, 12) if not views[k]["trick"] and views[k]["last_trick"]
                and len(views[k - 1]["trick"]) == len(views[k]["last_trick"]["cards"]) - 1)
    page = open_page(browser, url)
    page.emulate_media(reduced_motion="reduce")
    page.click("#tab-watch")
    wait_ready(page, "step-0")
    for k in range(1, step + 1):
        page.click("#forward")
        wait_ready(page, f"step-{k}")
    last = views[step]["last_trick"]
    shown = page.eval_on_selector_all("#trick .played", "nodes => nodes.map(n => +n.dataset.seat)")
    assert shown == [p["seat"] for p in last["cards"]]
    assert f"won by {views[step]['names'][last['winner']]}" in page.inner_text("#trick")
    page.close()


def test_watch_shows_the_last_trick_asked_for(server, browser):
    """At a record's last step the felt is empty, its last trick gone to its winner: "Last
    trick" shows it, and shows it back, as at a table played. It acted on the table played
    (nothing, or that table drawn over the record watched)."""
    url, app, found = server
    page = open_page(browser, url)
    page.emulate_media(reduced_motion="reduce")
    page.click("#tab-watch")
    wait_ready(page, "step-0")
    page.click("#last")
    page.wait_for_selector("#watch-result[data-outcome]")
    steps = page.inner_text("#step")
    assert page.locator("#trick .played").count() == 0
    page.click("#show-last")
    page.wait_for_function("() => document.querySelectorAll('#trick .played').length === 2")
    assert "last trick, won by" in page.inner_text("#trick")
    assert page.inner_text("#step") == steps and page.inner_text("#show-last") == "The end"
    page.click("#show-last")
    page.wait_for_function("() => document.querySelectorAll('#trick .played').length === 0")
    page.click("#show-last")  # shown, then a step back: that step's own table
    page.wait_for_function("() => document.querySelectorAll('#trick .played').length === 2")
    page.click("#back")
    page.wait_for_function("() => !document.querySelector('#trick.last')")
    page.close()


def test_the_steps_buttons_are_named_in_words(server, browser):
    """Watch's step buttons, drawn "|<", "<", ">", ">|" and "▶", are named in words, as a
    screen reader says them and the tests find them: once a title alone, which names nothing
    (a screen reader read "vertical line, less-than") and no phone shows; the autoplay's name
    says what it does now, "pause" while it plays."""
    url, app, _ = server
    page = open_page(browser, url, 390, 844)
    page.click("#tab-watch")
    wait_ready(page, "step-0")
    for name in ("first step", "back", "forward", "last step", "play the steps one by one"):
        assert page.get_by_role("button", name=name, exact=True).count() == 1, name
    page.get_by_role("button", name="forward", exact=True).click()
    wait_ready(page, "step-1")
    page.get_by_role("button", name="play the steps one by one").click()
    assert page.get_by_role("button", name="pause", exact=True).count() == 1
    page.get_by_role("button", name="pause", exact=True).click()
    assert page.get_by_role("button", name="play the steps one by one").count() == 1
    page.close()


def test_watch_fits_a_phone(server, browser, tmp_path):
    """On a phone the Watch tab's form is no wider than the window: a record's label in its
    list (its file, then every name at its table: four at a Mediatore deal) is cut to the
    window's width, not the page scrolling sideways under it."""
    from mediatore_env.web.app import labelled_records
    from mediatore_env.web.tables import Watch
    url, app, _ = server
    assert bench.main(["--game", "mediatore", "--deals", "1", "--agents", "greedy", "random",
                       "greedy", "random", "--save-records", str(tmp_path)]) == 0
    label, record = labelled_records([tmp_path])[0]  # as mediatore-web --records lists it
    lobby = app.state.lobby
    wid, = lobby.add_watches([Watch(record, label)], uploaded=False)
    try:
        page = open_page(browser, url, 390, 844)
        page.click("#tab-watch")
        wait_ready(page, "step-0")
        page.evaluate("document.body.dataset.ready = ''")
        page.select_option("#record", wid)
        wait_ready(page, "step-0")
        assert "random(3)" in page.inner_text("#record")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = page.locator("#record").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        page.close()
    finally:
        lobby.watches.pop(wid)
