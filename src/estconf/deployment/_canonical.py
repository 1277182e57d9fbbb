"""Comparable forms of the parts of TF_CONFIG that nodes must agree on.

Nodes are compared by keys computed once per node and looked up in dicts,
never pairwise:

- :func:`raw_key` identifies a ``cluster`` value exactly as given (job order,
  list or object, value types), so that each distinct value is validated
  once;
- :func:`canonical` reads a cluster as ``job -> index -> address``, whatever
  its form, so that two clusters are the same when they list the same tasks;
- :func:`claim` reads the task a node says it is, as TensorFlow reads it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from estconf.cluster import ClusterSpec

__all__ = [
    "Canonical",
    "canonical",
    "canonical_of_spec",
    "claim",
    "frozen",
    "hashable_key",
    "raw_key",
    "value_key",
]

Canonical = dict[str, dict[int, str]]
"""A cluster as job name -> task index -> address."""

_INDEX = re.compile(r"-?[0-9]+")


def raw_key(cluster: Any) -> Hashable:
    """A key equal for two ``cluster`` values when they are equal as given, form and order kept.

    Values compare as Python values do, so an address written ``1`` and one
    written ``true`` (both refused, with the same error) share a key.  The
    key may hold unhashable values (a list where an address should be); see
    :func:`hashable_key`.
    """
    if not isinstance(cluster, Mapping):
        return ("value", cluster)
    return tuple(
        (job, "[", tuple(tasks))
        if isinstance(tasks, list)
        else (job, "{", tuple(tasks.items()))
        if isinstance(tasks, Mapping)
        else (job, tasks)
        for job, tasks in cluster.items()
    )


def hashable_key(key: Hashable, cluster: Any) -> Hashable:
    """``key`` if it can be hashed, else a key made of ``cluster``'s JSON text."""
    try:
        hash(key)
    except TypeError:
        return ("json", json.dumps(cluster, default=repr))
    return key


def canonical_of_spec(cluster: ClusterSpec) -> Canonical:
    """The canonical form of a validated cluster."""
    return {
        job: dict(enumerate(tasks)) if isinstance(tasks, list) else dict(sorted(tasks.items()))
        for job, tasks in cluster.root.items()
    }


def canonical(cluster: Any) -> Canonical | None:
    """Read a cluster that failed validation as far as its tasks can be told; else ``None``.

    A job that is not a list or an object, an index that is not an integer,
    or an address that is not a string makes the cluster unreadable.
    """
    if not isinstance(cluster, Mapping):
        return None
    result: Canonical = {}
    for job, tasks in cluster.items():
        items: Iterable[tuple[int | None, Any]]
        if isinstance(tasks, list):
            items = enumerate(tasks)
        elif isinstance(tasks, Mapping):
            items = ((_index(index), address) for index, address in tasks.items())
        else:
            return None
        if not isinstance(job, str):
            return None
        job_tasks: dict[int, str] = {}
        for index, address in items:
            if index is None or not isinstance(address, str):
                return None
            job_tasks[index] = address
        result[job] = dict(sorted(job_tasks.items()))
    return result


def frozen(cluster: Canonical) -> Hashable:
    """The canonical form as a hashable value, jobs in name order."""
    return tuple(sorted((job, tuple(tasks.items())) for job, tasks in cluster.items()))


def _index(value: Any) -> int | None:
    """Read a task index as TensorFlow's ``int()`` does for integers and digit strings."""
    if type(value) is int:
        return value
    if isinstance(value, str) and _INDEX.fullmatch(value):
        try:
            return int(value)
        except ValueError:  # more digits than int() converts: TensorFlow's int() fails too
            return None
    return None


def claim(task: Any) -> tuple[str, int] | None:
    """The task a node claims, ``(type, index)``, or ``None`` when it does not name one."""
    if not isinstance(task, Mapping):
        return None
    task_type = task.get("type")
    index = _index(task.get("index"))
    if not isinstance(task_type, str) or not task_type or index is None:
        return None
    return task_type, index


def value_key(value: Any) -> str:
    """A key equal for two JSON values exactly when they are equal (``null`` for absent)."""
    if type(value) is str:
        return "s" + value
    if value is None:
        return "n"
    return "j" + json.dumps(value, sort_keys=True, default=repr)
