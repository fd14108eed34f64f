"""The reward: the rubric (a weighted sum with one None rule) and the registry of its terms.

A term is one class (`term.Term`) in one module, plus one `register` line below. Its weight, its
settings, its place in the presets and per-episode weights, and its `not_configured` status
follow from the class (see `term`'s docstring).
"""

from __future__ import annotations

from watercolour_env.errors import ConfigError
from watercolour_env.pool import Pool
from watercolour_env.server.reward.embedded import EmbeddedTerm
from watercolour_env.server.reward.gold import GoldTerm
from watercolour_env.server.reward.hpsv3 import HPSv3Term
from watercolour_env.server.reward.judge import JudgeTerm
from watercolour_env.server.reward.length import LengthTerm
from watercolour_env.server.reward.term import Painting, Term, Verdict
from watercolour_env.server.reward.witness import WitnessTerm

TERMS: dict[str, type[Term]] = {}
"""The registered terms by name, in the order observations list them (after the gate)."""

GATE_DEFAULT_WEIGHT = 0.05
"""The gate's share when a reply passes: the seed's 0.05 (decision 0003, "The recipe")."""


def register(term: type[Term]) -> type[Term]:
    """Adds a term class to the reward; returns it, so it also works as a class decorator.

    Raises:
        ValueError: the name is taken, "gate", or not lowercase letters, digits and `_`.
    """
    name = getattr(term, "name", "")
    if not (name.replace("_", "").isalnum() and name == name.lower() and name[:1].isalpha()) or name == "gate":
        raise ValueError(f"a reward term needs a lowercase name other than 'gate', got {name!r}")
    if name in TERMS:
        raise ValueError(f"a reward term named {name!r} is registered already")
    TERMS[name] = term
    return term


def unregister(name: str) -> None:
    """Removes a registered term (for tests and for forks that drop one); unknown names are ignored."""
    TERMS.pop(name, None)


def component_names() -> tuple[str, ...]:
    """The gate and every registered term, in observation order."""
    return ("gate", *TERMS)


def build_terms(options: dict[str, object], weights: dict[str, float], pool: Pool) -> list[Term]:
    """Every registered term this deployment sets up (a term whose `build` returns None is left out).

    Args:
        options: each term's validated `Options`, by name (from `Settings.term_options`).
        weights: the deployment's weight of each term, by name.
        pool: the loaded reference pool.

    Raises:
        ConfigError: a term's settings are refused by what they point at.
    """
    built = []
    try:
        for name, term in TERMS.items():
            made = term.build(options[name], pool, weights.get(name, 0.0))
            if made is not None:
                built.append(made)
    except ConfigError:
        for made in built:
            made.close()
        raise
    return built


register(LengthTerm)
register(HPSv3Term)
register(JudgeTerm)
register(EmbeddedTerm)
register(GoldTerm)
register(WitnessTerm)

__all__ = [
    "GATE_DEFAULT_WEIGHT",
    "TERMS",
    "Painting",
    "Term",
    "Verdict",
    "build_terms",
    "component_names",
    "register",
    "unregister",
]
