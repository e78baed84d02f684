"""mediatore-env: the Italian card game Mediatore as a rules engine and a PettingZoo environment.

Layers, each importing only from those before it: ``cards`` -> ``rules`` -> ``game`` (the
state machine) -> ``view`` (what a seat knows) -> ``records`` (game records and replay) ->
``encoding`` (observation vectors) -> ``mediatore_v0`` (the PettingZoo environment).
"""

from .cards import card_name, parse_card, format_cards, parse_cards
from .rules import Rules, PRESETS
from .game import Deal, move_text, parse_move, NUM_MOVES
from .view import SeatView
from .records import make_record, replay, save_record, load_record

__all__ = ["Deal", "Rules", "PRESETS", "SeatView", "card_name", "parse_card", "format_cards",
           "parse_cards", "move_text", "parse_move", "NUM_MOVES", "make_record", "replay",
           "save_record", "load_record"]
__version__ = "0.1.0"


def _register_with_pettingzoo() -> None:
    """Register ``mediatore/mediatore-v0`` and ``mediatore/mediatore-bidding-v0`` (their AEC
    ``env()``) with PettingZoo's registry, so ``pettingzoo.make("aec", "mediatore/mediatore-v0")``
    works; PettingZoo before 1.27 has no registry, and then nothing happens."""
    try:
        from pettingzoo import aec_registry, register
    except ImportError:
        return
    for name, module in (("mediatore/mediatore-v0", "mediatore_v0"),
                         ("mediatore/mediatore-bidding-v0", "mediatore_bidding_v0")):
        if name not in aec_registry:
            register("aec", name, entry_point=f"mediatore_env.{module}:env")


_register_with_pettingzoo()
