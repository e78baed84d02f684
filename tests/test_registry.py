"""The registry of games and the chance event every engine handles one way."""

from __future__ import annotations

import pytest

import mediatore_env
from mediatore_env.core.game import CHANCE, Game
from mediatore_env.registry import GAMES, get, make


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_starts_at_chance_and_deals_one_way(name):
    definition = get(name)
    game = make(name)
    assert isinstance(game, Game) and game.players == definition.players
    assert game.to_move == CHANCE and game.needs_pack and not game.is_over
    assert game.legal_moves() == [] and game.outcome is None
    with pytest.raises(ValueError, match="pack"):
        game.apply(0)
    before = game.to_json()
    with pytest.raises(ValueError, match="not a card|40"):
        game.deal([0] * 40)
    assert game.to_json() == before and game.needs_pack
    game.deal(list(range(40)))
    assert game.to_move == (game.dealer + 1) % game.players and not game.needs_pack
    assert game.legal_moves() and all(game.is_legal(m) for m in game.legal_moves())
    with pytest.raises(ValueError, match="no pack is needed now"):
        game.deal(list(range(40)))
    assert type(game).from_json(game.to_json()) == game


def test_make_takes_the_games_switches_and_refuses_others():
    assert make("tressette3", low=True).rules.low is True
    assert make("mediatore", signals="off").rules.signals == "off"
    assert mediatore_env.make("club", deals=3).rules.deals == 3
    with pytest.raises(ValueError, match="unknown game 'bridge'; valid: .*tressette2"):
        make("bridge")
    with pytest.raises(ValueError, match="tressette3 fixes players"):
        make("tressette3", players=4)
    with pytest.raises((ValueError, TypeError), match="colour"):
        make("mediatore", colour="red")


def test_a_games_new_game_refuses_another_forms_rules():
    """Three-Handed rules given to the Partnership game's definition made a three-seat game
    under the four-seat game's name (its spaces, agents and JAX engine all four-seat)."""
    tressette, three = get("tressette"), get("tressette3")
    with pytest.raises(ValueError, match="tressette fixes players=4"):
        tressette.new_game(three.make_rules(low=True))
    with pytest.raises(ValueError, match="rules must be a ClubRules"):
        get("club").new_game(get("mediatore").make_rules())
    assert three.new_game(three.make_rules(low=True), dealer=2).rules.low is True
    assert three.new_game({"low": True}).rules == three.make_rules(low=True)


def test_a_dealt_mediatore_deal_is_the_deal_of_its_pack():
    dealt = make("mediatore", dealer=2)
    dealt.deal(list(range(40)))
    assert dealt == mediatore_env.Deal(mediatore_env.Rules(), 2, list(range(40)))
