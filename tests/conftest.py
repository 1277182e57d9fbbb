"""Shared pytest configuration: hypothesis profiles sized for a fast suite.

Under continuous integration (``CI`` set) the examples are derandomized, so a
run checks the same inputs every time and a red build always means a change
broke something; runs elsewhere keep exploring new inputs.  The ``mutants`` profile is the
small, derandomized one that mutation testing runs for every mutant.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_DERANDOMIZE = bool(os.environ.get("CI"))

settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=_DERANDOMIZE,
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=_DERANDOMIZE,
)
settings.register_profile(
    "mutants",
    max_examples=10,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
