"""The structured fields of a seat's ``view_json`` (docs/web.md, "The view"): the panels, the
seats' marks, the signals, the end's summary. Hand-worked scenarios fix their cells for each
game; a leak test holds them, and the whole view, to what the seat may know: two states that
differ only in where two cards the seat cannot see lie give the same JSON."""

from __future__ import annotations

import random

import pytest

from mediatore_env.club.game import Session
from mediatore_env.club.moves import parse_move as club_move
from mediatore_env.core.cards import CARD_NAMES, NUM_CARDS, bit
from mediatore_env.core.game import CHANCE
from mediatore_env.mediatore.moves import PLAY, parse_move, signal_of_move
from mediatore_env.core.text import format_thirds
from mediatore_env.mediatore.rules import SIGNAL_NAMES
from mediatore_env.registry import GAMES, get, make
from packs import play_out


def view_json(game, seat: int, name: str | None = None) -> dict:
    return get(name or game_name(game)).display.view_json(game.view(seat))


def game_name(game) -> str:
    return {"Deal": "mediatore", "Session": "club"}.get(type(game).__name__, "tressette")


def panels(view: dict) -> dict:
    return {p["kind"]: p for p in view["panels"]}


def tags(cards) -> list[str]:
    return [c["tag"] for c in cards]


def mediatore(*moves: str):
    """A Mediatore deal of the pack in order (dealer seat 0, il mano seat 1): seat 0 holds
    D3 C5 C4 S7 S6 S5 BC BF B7, seat 1 D6 D5 D4 CF C7 C6 SR SC SF, seat 2 DC DF D7 CA CR CC
    S3 S2 SA, seat 3 D2 DA DR C3 C2 S4 B6 B5 B4, the monte B3 B2 BA BR; then ``moves``."""
    deal = make("mediatore")
    deal.deal(list(range(NUM_CARDS)))
    for move in moves:
        deal.apply(parse_move(move))
    return deal


# -- Mediatore ---------------------------------------------------------------------------------

def test_mediatore_auction_contract_monte_and_marks_after_a_known_auction():
    deal = mediatore("bid chiamo", "pass", "bid mediatore", "pass", "pass", "pass", "call SA")
    view = view_json(deal, 0)
    p = panels(view)
    # rows the rounds, columns the seats from il mano (seat 1)
    assert p["auction"]["order"] == [1, 2, 3, 0]
    assert p["auction"]["rounds"] == [["chiamo", "pass", "mediatore", "pass"],
                                      ["pass", "pass", None, None]]
    assert [c["seat"] for c in p["auction"]["calls"]] == [1, 2, 3, 0, 1, 2]
    contract = p["contract"]
    assert (contract["contract"], contract["declarer"], contract["giver"]) == ("mediatore", 3, 2)
    assert contract["called"]["tag"] == "SA" and contract["alone"] is True
    # Mediatore's monte is shown to all once the card is called
    assert p["monte"]["shown_to"] == "all" and tags(p["monte"]["seen"]) == ["B3", "B2", "BA", "BR"]
    assert "points" not in p  # no trick yet
    assert (view["dealer"], view["mano"]) == (0, 1)
    assert view["roles"] == [[], [], ["giver"], ["declarer"]]
    assert view["sides"] == [1, 1, 1, 0]  # the declarer alone against three
    assert view["summary"] is None and view["facts"]  # the text facts stay


def test_before_the_auction_ends_nobody_has_a_role_and_the_monte_is_face_down():
    view = view_json(mediatore("bid chiamo", "pass"), 3)
    p = panels(view)
    assert p["auction"]["rounds"] == [["chiamo", "pass", None, None]]
    assert "contract" not in p and p["monte"]["seen"] == [] and p["monte"]["shown_to"] is None
    assert view["roles"] == [[], [], [], []] and view["sides"] == [None] * 4


def test_the_chiamo_partner_is_marked_only_for_whom_may_know_it():
    """Seat 1 calls SA, which seat 2 holds: seat 2 knows at once it is the partner, the
    others (the declarer included) only when SA is played."""
    deal = mediatore("bid chiamo", "pass", "pass", "pass", "call SA")
    roles = {s: view_json(deal, s)["roles"] for s in range(4)}
    assert roles[2] == [[], ["declarer"], ["partner"], []]
    for s in (0, 1, 3):
        assert roles[s] == [[], ["declarer"], [], []], s
        assert view_json(deal, s)["sides"][2] is None
    assert view_json(deal, 2)["sides"] == [1, 0, 0, 1]
    while deal.phase != PLAY:  # the declarer takes the monte and discards
        deal.apply(deal.legal_moves()[0])
    while deal.called_played_by is None:
        moves = deal.legal_moves()
        sa = [m for m in moves if m == parse_move("play SA")]
        deal.apply(sa[0] if sa else moves[0])
    for s in range(4):
        assert view_json(deal, s)["roles"][2] == ["partner"]
        assert view_json(deal, s)["sides"] == [1, 0, 0, 1]


def test_a_leads_signal_is_on_the_card_it_goes_with_and_the_points_by_seat():
    deal = mediatore("bid chiamo", "pass", "pass", "pass", "call SA")
    while deal.phase != PLAY:
        deal.apply(deal.legal_moves()[0])
    signalled = [m for m in deal.legal_moves() if signal_of_move(m)]
    assert signalled, "the lead may go with a signal"
    # each of the lead's moves names its signal (the page labels a card's moves by it)
    moves = view_json(deal, deal.to_move)["moves"]
    assert [m["signal"] for m in moves] == [SIGNAL_NAMES[signal_of_move(m["move"])] or None
                                            for m in moves]
    assert None in {m["signal"] for m in moves} and len({m["signal"] for m in moves}) > 1
    deal.apply(signalled[0])
    assert {m["signal"] for m in view_json(deal, deal.to_move)["moves"]} == {None}  # a follow
    word = SIGNAL_NAMES[signal_of_move(signalled[0])]
    for s in range(4):
        trick = view_json(deal, s)["trick"]
        assert trick[0]["signal"] == word and trick[0]["seat"] == deal.leader
    while len(deal.tricks) == 0:
        deal.apply(deal.legal_moves()[0])
    view = view_json(deal, 0)
    assert view["last_trick"]["cards"][0]["signal"] == word
    assert [c["signal"] for c in view["last_trick"]["cards"][1:]] == [None] * 3
    points = panels(view)["points"]
    assert points["thirds"] == list(deal.thirds_won) and sum(points["tricks"]) == 1
    assert points["points"][deal.tricks[0].winner] != "0"


def test_the_end_of_a_deal_is_a_summary_table_with_the_best_marked():
    deal = mediatore("bid chiamo", "pass", "pass", "pass", "call SA")
    play_out(deal)
    view = view_json(deal, 0)
    summary = view["summary"]
    assert summary["columns"] == ["tricks", "points", "payment"]
    assert [row[0] for row in summary["rows"]] == list(deal.tricks_won)
    assert [row[-1] for row in summary["rows"]] == list(deal.payoffs) == view["outcome"]
    assert summary["best"] == [s for s in range(4) if deal.payoffs[s] > 0]  # the winners
    assert tags(panels(view)["monte"]["final"])  # turned over at the end
    # what the page says above it: the contract made or lost, by the declarer's payment
    side = (1,) if deal.partner is None else (1, deal.partner)
    points = format_thirds(sum(deal.thirds_won[s] for s in side))
    made = "made" if deal.payoffs[1] > 0 else "lost"
    assert summary["lines"] == [f"chiamo by seat 1: {made} ({points} points, 6 needed)"]


def test_a_thrown_in_deal_has_a_summary_of_nothing():
    view = view_json(mediatore("pass", "pass", "pass", "pass"), 2)
    # nobody is marked best where nobody won anything
    assert view["summary"]["rows"] == [[0, "0", 0]] * 4 and view["summary"]["best"] == []
    assert view["summary"]["lines"] == ["All four passed: the deal is thrown in, no one pays."]
    assert "monte" not in panels(view)


def test_a_call_names_its_card_for_the_page_and_a_play_does_not():
    # The call's forty moves each name their card (the page lays them out a suit a row);
    # the card play's moves are cards of the hand instead.
    deal = mediatore("bid chiamo", "pass", "pass", "pass")
    moves = view_json(deal, 1)["moves"]
    assert len(moves) == NUM_CARDS and sorted(m["names"]["tag"] for m in moves) == sorted(CARD_NAMES)
    assert all(m["card"] is None and m["words"] == "call " + m["names"]["text"] for m in moves)
    # in the order the page lays them out: by suit, each strongest first (the 3, the 2, the ace...)
    assert [m["names"]["suit_index"] for m in moves] == [s for s in range(4) for _ in range(10)]
    assert [m["names"]["tag"][1:] for m in moves[:10]] == list("32ARCF7654")
    deal.apply(parse_move("call SA"))
    moves = view_json(deal, deal.to_move)["moves"]
    assert moves and all(m["names"] is None and m["card"] for m in moves)


# -- Tressette -------------------------------------------------------------------------------

def test_tressette2_scores_melds_stock_and_draws():
    """The two-handed game of the pack in order: seat 1 leads; the stock holds 20 cards."""
    game = make("tressette2")
    game.deal(list(range(NUM_CARDS)))
    view = view_json(game, 0, "tressette2")
    p = panels(view)
    assert [(s["seats"], s["total"], s["hand"]) for s in p["scores"]["sides"]] == [
        ([0], game.totals[0], game.hand_points[0]), ([1], game.totals[1], game.hand_points[1])]
    assert p["scores"]["target"] == 31 and p["scores"]["low"] is False
    assert p["stock"]["size"] == 20 and p["stock"]["draws"] == [] and p["stock"]["shown"] == 6
    assert view["sides"] == [0, 1] and (view["dealer"], view["mano"]) == (0, 1)
    while len(game.view(0).tricks) < 1:
        game.apply(game.legal_moves()[0])
    view = view_json(game, 0, "tressette2")
    p = panels(view)
    assert p["stock"]["size"] == 18
    drawn = [(d.seat, d.card) for d in game.log[-1].draws]
    assert [(d["seat"], d["card"]["tag"]) for d in p["stock"]["draws"]] == [
        (s, CARD_NAMES[c]) for s, c in drawn]  # shown to both (show_draws, the default)
    for side, entry in enumerate(p["scores"]["sides"]):
        assert entry["total"] == game.totals[side] and entry["hand"] == game.hand_points[side]
    # the first trick, D4 and DC, went to seat 0: the horse's third shows, though the hand's
    # points still round it down to nothing (they are the melds' alone)
    assert [CARD_NAMES[c] for c in game.view(0).tricks[0].cards] == ["D4", "DC"]
    assert [(e["cards"], e["hand"]) for e in p["scores"]["sides"]] == [
        ("1/3", game.log[-1].meld_points[0]), ("0", game.log[-1].meld_points[1])]
    declared = game.log[-1].melds
    assert [(m["seat"], m["points"]) for m in p.get("melds", {"melds": []})["melds"]] == [
        (d.seat, d.meld.points) for d in declared]


def test_partnership_tressette_has_two_sides_and_its_summary_by_seat():
    game = make("tressette")
    game.deal(list(range(NUM_CARDS)))
    view = view_json(game, 1, "tressette")
    assert view["sides"] == [0, 1, 0, 1]
    assert [s["seats"] for s in panels(view)["scores"]["sides"]] == [[0, 2], [1, 3]]
    assert "stock" not in panels(view)
    play_out(game, random.Random(0))
    summary = view_json(game, 1, "tressette")["summary"]
    # no tricks column: a game's last hand may have been cut short by the score
    assert summary["columns"] == ["score", "result"]
    assert [row[0] for row in summary["rows"]] == [game.totals[s % 2] for s in range(4)]
    assert [row[-1] for row in summary["rows"]] == list(game.outcome)
    # why it ended, above the table: seats 0 and 2 reached 31 in the third hand
    assert (game.end_reason, game.ender, game.hand_number) == ("target", 0, 3)
    assert summary["lines"] == ["The game ends in hand 3: seat 0 and seat 2 reached 31."]


# -- club Mediatore ----------------------------------------------------------------------------

def test_club_chips_pot_choosing_and_mediator():
    session = Session(dealer=3, packs=[list(range(NUM_CARDS))])
    view = view_json(session, 2, "club")
    p = panels(view)
    assert (p["chips"]["pot"], p["chips"]["stakes"], p["chips"]["chips"]) == (
        20, [5, 5, 5, 5], [-5, -5, -5, -5])
    assert p["choosing"]["choosing"] == 0 and p["choosing"]["calls"] == []
    assert (view["dealer"], view["mano"]) == (3, 0)
    session.apply(club_move("pass"))
    session.apply(club_move("accept"))
    view = view_json(session, 2, "club")
    choosing = panels(view)["choosing"]
    assert [(c["seat"], c["words"]) for c in choosing["calls"]] == [(0, "pass"), (1, "accept")]
    assert (choosing["mediator"], choosing["to_match"], choosing["choosing"]) == (1, 20, None)
    assert view["roles"] == [[], ["mediator"], [], []] and view["sides"][1] == 0
    assert "widow" not in panels(view)  # the widow is the mediator's, once taken


def test_club_widow_is_the_mediators_alone_and_the_session_ends_in_a_summary():
    session = Session(dealer=3, packs=[list(range(NUM_CARDS))])
    session.apply(club_move("accept"))  # seat 0 the mediator
    session.apply(session.legal_moves()[0])  # his call (or alone)
    assert tags(panels(view_json(session, 0, "club"))["widow"]["widow"])
    assert "widow" not in panels(view_json(session, 1, "club"))
    play_out(session, random.Random(1))
    view = view_json(session, 0, "club")
    summary = view["summary"]
    assert summary["columns"] == ["mediator", "pots won", "chips"]
    assert [row[-1] for row in summary["rows"]] == list(session.chips)
    assert sum(row[0] for row in summary["rows"]) == sum(
        r.mediator is not None for r in session.results)
    # how it ended: seat 0 lost the one deal he played, every other deal was passed
    assert [r.mediator for r in session.results] == [0] + [None] * 19
    assert summary["lines"] == [
        "The session ends after 20 deals: no one won the pot, and each stake in it went back."]


def test_a_club_session_won_says_by_whom():
    rng = random.Random(5)
    session = Session(dealer=0, packs=lambda number, dealer: rng.sample(range(NUM_CARDS),
                                                                        NUM_CARDS))
    while not session.is_over:  # random moves: someone soon accepts, and one pot is won
        session.apply(rng.choice(session.legal_moves()))
    assert session.results[-1].won
    last = session.results[-1]
    with_whom = "alone" if last.partner is None else f"with seat {last.partner}"
    assert view_json(session, 1, "club")["summary"]["lines"] == [
        f"The session ends after {len(session.results)} deal"
        f"{'s' if len(session.results) > 1 else ''}: seat {last.mediator}, the mediator, won "
        f"the pot {with_whom}."]


# -- hidden information ------------------------------------------------------------------------

def visible(view) -> int:
    """The cards whose place ``view``'s seat knows now (a bitset): its hand, the cards played
    this hand, and what its view shows (test_web's known_cards), less the called card while
    the seat does not know where it lies (the Chiamo or club partner's secret: named by the
    call, but in whose hand?)."""
    from test_web import known_cards
    seen = view.hand | known_cards(view)
    called = getattr(view, "called_card", None)
    if called is not None and getattr(view, "giver", None) is None and view.partner is None \
            and view.alone is not True:
        seen &= ~bit(called)
        for place in ("monte_seen", "widow", "discards", "final_monte"):
            seen |= getattr(view, place, 0) or 0
    for trick in view.tricks:
        for card in trick.cards:
            seen |= bit(card)
    for card in view.trick:
        seen |= bit(card)
    return seen


# Mediatore's random auctions rarely end in Chiamo (any higher bid beats it), the contract
# with a secret partner: half the trials open with it.
OPENINGS = {"mediatore": [parse_move(m) for m in ("bid chiamo", "pass", "pass", "pass")]}


@pytest.mark.parametrize("name", list(GAMES))
def test_what_a_seat_cannot_see_changes_nothing_it_is_sent(name):
    """Two deals whose packs differ by two cards swapped, played with the same moves (calling
    one of the two cards where a call may): while neither card is seen by a seat in either
    deal, the seat's view_json is the same in both (the panels, marks, summary and words
    included)."""
    display, players = get(name).display, get(name).players
    rng = random.Random(name)
    compared = 0
    for trial in range(64):
        seat = trial % players
        pack = list(range(NUM_CARDS))
        rng.shuffle(pack)
        a = make(name)
        a.deal(pack)
        hidden = [c for c in range(NUM_CARDS) if not visible(a.view(seat)) >> c & 1]
        x, y = rng.sample(hidden, 2)
        swapped = [y if c == x else x if c == y else c for c in pack]
        b = make(name)
        b.deal(swapped)
        both = bit(x) | bit(y)
        opening = list(OPENINGS.get(name, ())) if trial % 2 else []
        while True:
            va, vb = a.view(seat), b.view(seat)
            if (visible(va) | visible(vb)) & both:
                break
            assert display.view_json(va) == display.view_json(vb), (name, seat, x, y)
            compared += 1
            if a.is_over or a.to_move == CHANCE:
                break
            legal = a.legal_moves()
            # a call of one of the two cards, when there is one: where the called card lies
            # (whose partner, whose to give it) is what a seat must not learn too soon
            calls = [m for m in legal if display.card_of(m) is None and m in b.legal_moves()
                     and display.move_words(m, "short").split()[-1] in (CARD_NAMES[x], CARD_NAMES[y])]
            move = opening.pop(0) if opening else calls[0] if calls else rng.choice(legal)
            if move not in b.legal_moves():
                break
            a.apply(move)
            b.apply(move)
    assert compared > 150
