"""Hoyito for Python: the Dominican family of two-row mancala games.

The rules, the engine and the tablebases are the project's Rust crates
(``hoyito-core``, ``hoyito-engine``, ``hoyito-tablebase``) compiled into
``hoyito._hoyito``; this package adds the learning environments:

- :class:`Game`, :class:`Match` -- play by move tokens ("3", "3R", "2+5"),
  ``state()`` as RULES.md section 7, notation, records, pickling;
- ``Game.analyze`` / ``Game.best_move`` / :class:`Engine` -- the engine,
  searching with the GIL released; :class:`Tablebase` -- exact endgames;
- :func:`random_playouts`, :class:`VectorGame` -- Rust loops for
  throughput and vectorised reinforcement learning;
- :class:`PuctSearch` -- AlphaZero-style tree search (PUCT) in Rust whose
  leaves a Python evaluator (a policy/value network) scores in batches;
- ``hoyito.pettingzoo.env(**rules)`` (PettingZoo AEC),
  ``hoyito.gymnasium.HoyitoEnv`` (Gymnasium, ``hoyito/Hoyito-v0``),
  ``import hoyito.openspiel`` (OpenSpiel game ``python_hoyito``).

Every error is a ``ValueError`` subclass (:class:`HoyitoError`):
:class:`RulesError`, :class:`IllegalMove`, :class:`NotationError`,
:class:`EngineError`, :class:`TablebaseError`.
"""

from ._hoyito import (
    EngineError,
    Engine,
    Game,
    RULES_OPTIONS,
    HoyitoError,
    IllegalMove,
    Match,
    NotationError,
    PuctSearch,
    RulesError,
    Tablebase,
    TablebaseError,
    VectorGame,
    __version__,
    action_count,
    observation_size,
    random_playouts,
    rules_dict,
    rules_options,
)

# RULES_OPTIONS: the names of the rules options accepted by every
# constructor, in order; rules_options() describes each (values, default,
# limits, meaning). Both come from the core's table of options.

__all__ = [
    "Engine",
    "EngineError",
    "Game",
    "HoyitoError",
    "IllegalMove",
    "Match",
    "NotationError",
    "PuctSearch",
    "RULES_OPTIONS",
    "RulesError",
    "Tablebase",
    "TablebaseError",
    "VectorGame",
    "__version__",
    "action_count",
    "observation_size",
    "random_playouts",
    "rules_dict",
    "rules_options",
]
