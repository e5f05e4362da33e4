"""Match simulation: whole boards and games under any variant, played by pluggable
policies with execution noise, recorded shot by shot, board by board and game by game.

See ``docs/match.md`` for a how-to. Modules:

========================  =======================================================
``policies.py``           :class:`Policy` protocol, :class:`RandomPolicy`, :class:`GreedyPolicy`
``value.py``              the greedy policy's value of a simulated shot
``geometry.py``           the shooter's placement line, facing direction, legal spots
``execution.py``          intended shot + noise -> executed shot with a legal placement
``scene.py``              the engine scene of a game state
``conservation.py``       piece conservation checks after every shot
``records.py``            the shots, boards and games tables
``lockstep.py``           :func:`~.lockstep.step`: one shot of many games in one engine batch, :func:`~.lockstep.play_games`
``clock.py``              :class:`MatchClock`: the Hikone match time (HIK-10)
``game.py``               :class:`Game` (shot by shot), :func:`play_game`, :func:`play_match`
``stats.py``              :func:`breaker_advantage`: what opening a board is worth, per variant
========================  =======================================================
"""

from .clock import MatchClock
from .conservation import ConservationError, Inventory, census
from .execution import Executed, execute
from .game import MAX_BOARDS, MAX_SHOTS_PER_BOARD, Game, GameError, Played, game_seed, new_state, play_game, play_match
from .policies import SPEED_RANGES, BatchPolicy, GreedyPolicy, Policy, RandomPolicy
from .stats import breaker_advantage
from .records import BOARD_COLUMNS, GAME_COLUMNS, SHOT_COLUMNS, GameRecord, MatchRecord
from .value import shot_values

__all__ = [
    "BOARD_COLUMNS",
    "GAME_COLUMNS",
    "MAX_BOARDS",
    "MAX_SHOTS_PER_BOARD",
    "SHOT_COLUMNS",
    "SPEED_RANGES",
    "BatchPolicy",
    "ConservationError",
    "Executed",
    "Game",
    "GameError",
    "GameRecord",
    "GreedyPolicy",
    "Inventory",
    "MatchClock",
    "MatchRecord",
    "Played",
    "Policy",
    "RandomPolicy",
    "breaker_advantage",
    "census",
    "execute",
    "game_seed",
    "new_state",
    "play_game",
    "play_match",
    "shot_values",
]
