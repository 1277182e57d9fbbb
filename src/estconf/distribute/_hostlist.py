"""SLURM's compact lists, read as TensorFlow's ``SlurmClusterResolver`` reads them.

A step's nodes come as a hostlist (``SLURM_STEP_NODELIST``: ``n[01-03],m7``)
and its tasks per node as a run-length list (``SLURM_STEP_TASKS_PER_NODE``:
``2(x3),1``).  TensorFlow's reading is narrower than SLURM's: one bracket
group, at the end of a part.  The functions here take exactly what
TensorFlow takes and give the same lists; anything else raises
:class:`ListFormatError` with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["ListFormatError", "expand_hostlist", "expand_tasks_per_node"]


class ListFormatError(ValueError):
    """A hostlist or tasks-per-node list TensorFlow cannot read; the message says why."""


# A part is a prefix without commas or brackets, then at most one bracket group.
# ``$`` is meant: like TensorFlow's ``re.match(...$)``, a part may end in one newline.
_PART = re.compile(r"(?P<prefix>[^,\[\]]*)(?:\[(?P<ranges>[^\]]+)\])?$")
_TASKS = re.compile(r"(?P<count>\d+)(?:\(x(?P<times>\d+)\))?$")

MAX_RANGE = 65536
"""The most hosts one bracket range may name: SLURM's own hostlist refuses larger ranges."""


def _parts(hostlist: str) -> Iterator[str]:
    """The comma-separated parts of ``hostlist``; commas inside brackets stay in their part."""
    part: list[str] = []
    depth = 0
    for char in hostlist:
        if char == "[":
            if depth:
                raise ListFormatError("a bracket group opens inside another")
            depth = 1
        elif char == "]" and depth:
            depth = 0
        elif char == "," and not depth:
            if not part:
                raise ListFormatError("an empty host name between commas")
            yield "".join(part)
            part = []
            continue
        part.append(char)
    if part:
        yield "".join(part)


def _numbers(ranges: str) -> Iterator[str]:
    """The numbers of a bracket group (``1-3,07``), each padded to its range start's width."""
    for item in ranges.split(","):
        bounds = item.split("-")
        if len(bounds) > 2:
            raise ListFormatError(f"the range {item!r} has more than one '-'")
        first, last = bounds[0], bounds[-1]
        try:
            start, stop = int(first), int(last)
        except ValueError as exc:
            raise ListFormatError(str(exc)) from None
        if stop - start >= MAX_RANGE:
            raise ListFormatError(
                f"the range {item!r} names more than {MAX_RANGE} hosts, more than SLURM allows"
            )
        yield from (str(number).zfill(len(first)) for number in range(start, stop + 1))


def expand_hostlist(hostlist: str, limit: int | None = None) -> list[str]:
    """Expand a SLURM hostlist into host names, in its order, repeats kept.

    ``n[1-2],m5,o[08-10]`` gives ``n1 n2 m5 o08 o09 o10``; a range whose end
    is below its start gives no host.

    Raises:
        ListFormatError: TensorFlow cannot read ``hostlist``, or it names more
            than ``limit`` hosts (each range is counted before it is expanded).
    """
    hosts: list[str] = []
    for part in _parts(hostlist):
        match = _PART.match(part)
        if match is None:
            raise ListFormatError(f"{part!r} is not a prefix followed by one bracket group")
        prefix, ranges = match["prefix"], match["ranges"]
        if ranges is None:
            hosts.append(prefix)
        else:
            for number in _numbers(ranges):
                hosts.append(prefix + number)
                if limit is not None and len(hosts) > limit:
                    break
        if limit is not None and len(hosts) > limit:
            raise ListFormatError(f"it names more than {limit:,} hosts, more than a step has")
    return hosts


def expand_tasks_per_node(tasks_per_node: str, limit: int) -> list[int]:
    """Expand SLURM's tasks per node, ``3(x2),1`` giving ``[3, 3, 1]``.

    The list is matched to the hosts and cut to their number, so no more than
    ``limit`` counts are expanded (``1(x99999999)`` for two hosts is two counts).

    Raises:
        ListFormatError: TensorFlow cannot read ``tasks_per_node``.
    """
    counts: list[int] = []
    for part in tasks_per_node.split(","):
        match = _TASKS.match(part)
        if match is None:
            raise ListFormatError(f"{part!r} is neither N nor N(xM)")
        try:
            count, times = int(match["count"]), int(match["times"] or 1)
        except ValueError as exc:  # more digits than Python converts
            raise ListFormatError(str(exc)) from None
        counts += [count] * min(times, limit - len(counts))
    return counts
