"""mediatore-env: the Italian card game Mediatore as a rules engine and PettingZoo environments.

The package is built in layers, lowest first; each imports only from its own layer and the
layers listed before it::

    core/        the 40-card pack, its notation, tricks without trumps, the game interface
                 (core.game.Game) that every engine implements           (every game of the family)
    registry     the table of the games: each one's GameDef (engine, rules, moves, observation,
                 display, environments, agents, JAX engine)
    analysis/    the double-dummy solver of every game
    mediatore/   Mediatore: rules, moves, state machine, seat views, records, deductions, worlds,
                 contract value tables; above them its observation layout and writer, table
                 text and environments
    tressette/   the Tressette games (4, 3 and 2 players), the same parts
    club/        club Mediatore, the pot game, on Mediatore's deal, phases and tricks; the same
                 parts
    codec/       what every game's writers, texts and environments share: layouts as offsets,
                 card text, actions from user input
    jaxgame/     every game's engine batched in JAX, on one trick core
    envs/        what the environments share: the AEC base, copies, the protective wrapper,
                 SeatEnv (one seat of any game as a gymnasium.Env)
    agents       (the top-level package beside this one) the agents of each game, the tournament
    tools/       command-line tools: mediatore-play, -replay, -bench, -tables

Inside a game's folder each module sits in the layer of what it is: the engine (no numpy, no
PettingZoo), then ``layout``/``observation``/``display`` (the codec layer), then the environments
(``*_v0``, ``env``, ``single_seat``). A new game is one folder plus one line in the registry.
``tests/test_layers.py`` fails if a module imports from a layer listed after its own. The
engines (``core``, ``mediatore``, ``tressette``) need neither numpy nor PettingZoo nor
Gymnasium.

Every game of the family by name (:mod:`.registry`)::

    >>> from mediatore_env import make
    >>> game = make("tressette3", low=True)
    >>> game.deal(list(range(40))); game.to_move
    1

and what most Mediatore users need is here::

    >>> from mediatore_env import Deal, Rules, parse_move
    >>> deal = Deal(Rules(), dealer=3, pack=list(range(40)))
    >>> deal.apply(parse_move("bid solo")); deal.to_move
    1

and the environments of every registered game as attributes, ``from mediatore_env import
mediatore_v0`` (also ``mediatore_bidding_v0``, ``single_seat``, ``club_mediatore_v0``,
``tressette_v0``, ``tressette3_v0``, ``tressette2_v0``): each is the module in its game's
folder (``mediatore_env.mediatore.mediatore_v0``), or a module object in one (the three
Tressette forms, in ``mediatore_env.tressette.env``), imported on first use, so the engine
alone never imports the RL stack.
"""

import importlib
import sys

from .core.cards import card_name, format_cards, parse_card, parse_cards
from .mediatore.game import Deal
from .mediatore.moves import NUM_MOVES, move_text, parse_move
from .core.records import load_record, save_record
from .mediatore.records import make_record
from .mediatore.rules import PRESETS, Rules
from .mediatore.view import SeatView
from .registry import GAMES, make, replay

__version__ = "0.4.0"


#: The environments of this package's games, by name: each a module in its game's folder, or
#: ``module:name``, a module object in one (its definition lists it), imported when first
#: asked for. Written out, so that importing the package imports no game's definition
#: (tests/test_package.py holds it to the definitions).
ENVIRONMENTS = {
    "mediatore_v0": "mediatore_env.mediatore.mediatore_v0",
    "mediatore_bidding_v0": "mediatore_env.mediatore.mediatore_bidding_v0",
    "single_seat": "mediatore_env.mediatore.single_seat",
    "tressette_v0": "mediatore_env.tressette.env:tressette_v0",
    "tressette3_v0": "mediatore_env.tressette.env:tressette3_v0",
    "tressette2_v0": "mediatore_env.tressette.env:tressette2_v0",
    "club_mediatore_v0": "mediatore_env.club.club_mediatore_v0",
}

__all__ = ["make", "GAMES", "Deal", "Rules", "PRESETS", "SeatView", "card_name", "parse_card",
           "format_cards", "parse_cards", "move_text", "parse_move", "NUM_MOVES", "make_record",
           "replay", "save_record", "load_record", *ENVIRONMENTS]


def __getattr__(name: str):
    """``mediatore_env.mediatore_v0`` and the other environments, imported when first asked for."""
    path = ENVIRONMENTS.get(name)
    if path is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, attribute = path.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


def __dir__():
    return sorted([*globals(), *ENVIRONMENTS])


# PettingZoo's registry is filled by mediatore_env.envs on import; here only when PettingZoo is
# loaded already, so that importing the engine never imports it.
if "pettingzoo" in sys.modules:
    importlib.import_module(".envs", __name__)
