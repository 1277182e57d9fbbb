"""How a location in nested data is written for people: ``a.b[2]["odd key"]``.

Both the file pipeline's errors and the cluster-wide checks name the value
they speak of this way, so that one place decides the spelling.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

__all__ = ["format_path"]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def format_path(loc: Iterable[str | int]) -> str:
    """Write a path as ``a.b[2]["odd key"]``: identifiers dotted, the rest in brackets."""
    text = ""
    for step in loc:
        if isinstance(step, str) and _IDENTIFIER.fullmatch(step):
            text += f".{step}" if text else step
        elif isinstance(step, int) and not isinstance(step, bool):
            text += f"[{step}]"
        else:
            text += f"[{json.dumps(step if isinstance(step, str) else str(step))}]"
    return text
