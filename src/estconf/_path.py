"""How a location is written for people: ``a.b[2]["odd key"]``, ``node-1, node-2``.

Both the file pipeline's errors and the cluster-wide checks name the value
they speak of this way, so that one place decides the spelling.  A finding
of the cluster-wide checks is at the nodes it names: :func:`format_nodes`
names a few of them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Final

__all__ = ["format_nodes", "format_path"]

_NODES_SHOWN: Final = 5

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


def format_nodes(nodes: Sequence[str], shown: int = _NODES_SHOWN) -> str:
    """Name a few nodes, and say how many more there are: ``a, b, c and 997 more``."""
    if len(nodes) <= shown + 1:
        return ", ".join(nodes)
    return f"{', '.join(nodes[:shown])} and {len(nodes) - shown} more"
