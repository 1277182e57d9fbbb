"""The "did you mean" of a misspelled name, shared by the models and the file pipeline."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["closest", "similarity"]


def similarity(first: str, second: str) -> float:
    """How alike two names are, from 0 to 1, ignoring letter case."""
    import difflib  # only for a name that is not known

    return difflib.SequenceMatcher(None, first.lower(), second.lower()).ratio()


def closest(name: str, names: Iterable[str], cutoff: float = 0.6) -> str | None:
    """Return the name of ``names`` most like ``name`` if it is at least ``cutoff`` alike.

    Letter case does not count, so ``Cluster`` finds ``cluster``.
    """
    best, best_score = None, cutoff
    for candidate in names:
        score = similarity(name, candidate)
        if score >= best_score and (best is None or score > best_score):
            best, best_score = candidate, score
    return best
