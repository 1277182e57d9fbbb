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

    Letter case does not count, so ``Cluster`` finds ``cluster``.  A
    candidate whose quick upper bounds of the similarity are already below the
    best so far is passed over without the full comparison, so that a file of
    thousands of unknown keys is checked in little time.
    """
    import difflib

    matcher = difflib.SequenceMatcher(None, name.lower())
    best, best_score = None, cutoff
    for candidate in names:
        matcher.set_seq2(candidate.lower())
        if matcher.real_quick_ratio() < best_score or matcher.quick_ratio() < best_score:
            continue
        score = matcher.ratio()
        if score >= best_score and (best is None or score > best_score):
            best, best_score = candidate, score
    return best
