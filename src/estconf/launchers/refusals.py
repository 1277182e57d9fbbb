"""What a pod's program refuses in its TF_CONFIG, split into the problems a finding reports.

The TFJob and Volcano checks run a profile's reader (a :data:`NodeCheck`) on
a pod's TF_CONFIG. The reader raises one ``ValueError``, which may hold
several errors (a pydantic ``ValidationError``); :func:`problems` splits it,
and :func:`refused_as_written` turns each problem of a TF_CONFIG written in a
manifest into a finding at that value.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from pydantic import ValidationError

from estconf._json import loads
from estconf.codes import checked
from estconf.finding import Finding, Loc

__all__ = ["MAX_MESSAGE", "NodeCheck", "Problem", "problems", "refused_as_written", "shorten"]

NodeCheck = Callable[[dict[str, Any]], object]
"""Reads one pod's TF_CONFIG and raises ``ValueError`` where its program refuses it."""

MAX_MESSAGE: Final = 600
"""The most characters of a reader's message a finding repeats (:func:`shorten`)."""


class Problem(NamedTuple):
    """One error of a reader's refusal."""

    code: str
    """The error's type: ``missing_chief``, or ``tf_config_refused`` for a plain ``ValueError``."""
    message: str
    """The reader's message, without the fix it gives for a TF_CONFIG file."""
    job: str | None
    """The cluster's job it points at: ``""`` for the whole cluster, None for the pod's own task."""


def problems(
    exc: ValueError, *, own_code: bool = False, other_task: re.Pattern[str] | None = None
) -> list[Problem]:
    """Each error of ``exc``, as the reader raised it.

    Args:
        exc: what the reader raised.
        own_code: take the ``code`` of a plain ``ValueError`` that has one
            (a JSON error's ``json_invalid``); else it is ``tf_config_refused``.
        other_task: a pattern whose first group, found in a message, names
            the job of another task the error is about.
    """
    if not isinstance(exc, ValidationError):
        message = str(exc)
        code = str(getattr(exc, "code", "tf_config_refused")) if own_code else "tf_config_refused"
        other = other_task.search(message) if other_task is not None else None
        return [Problem(code, message, other.group(1) if other else None)]
    found: list[Problem] = []
    for error in exc.errors(include_url=False):
        loc = [part for part in error["loc"] if part != "tf_config"]
        job: str | None = None
        if loc[:1] == ["cluster"]:
            job = str(loc[1]) if len(loc) > 1 else ""
        other = other_task.search(error["msg"]) if other_task is not None else None
        if other:
            job = other.group(1)
        # The readers' fix hints speak of TF_CONFIG files; a finding gives the manifest's.
        found.append(Problem(error["type"], error["msg"].split(" Fix: ", 1)[0], job))
    return found


def refused_as_written(
    text: str, node_check: NodeCheck, at: Loc, *, prefix: str, lead: str, own_code: bool = False
) -> list[Finding]:
    """A finding at ``at`` for each problem the pod's program has with the TF_CONFIG ``text``.

    Args:
        text: the TF_CONFIG as the pod gets it.
        node_check: the profile's reader.
        at: where the value is written.
        prefix: the code's prefix (``tfjob_``, ``volcano_pod_``).
        lead: what the message says before the reader's (``the pod refuses ...``).
        own_code: as :func:`problems`.
    """
    try:
        tf_config = loads(text)
        if not isinstance(tf_config, dict):
            raise ValueError("TF_CONFIG is not a JSON object")
        node_check(tf_config)
    except ValueError as exc:
        return [
            Finding.at(checked(f"{prefix}{each.code}"), f"{lead}: {shorten(each.message)}", at)
            for each in problems(exc, own_code=own_code)
        ]
    return []


def shorten(message: str) -> str:
    """``message``, its middle cut to ``[...]`` when it is over :data:`MAX_MESSAGE` characters."""
    if len(message) <= MAX_MESSAGE:
        return message
    return message[: MAX_MESSAGE // 2] + " [...] " + message[-MAX_MESSAGE // 3 :]
