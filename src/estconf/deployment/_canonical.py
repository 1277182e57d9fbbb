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
    "raw_key",
    "value_key",
]

Canonical = dict[str, dict[int, str]]
"""A cluster as job name -> task index -> address."""

_INDEX = re.compile(r"-?[0-9]+")


def raw_key(cluster: Any) -> Hashable:
    """A hashable key equal for two ``cluster`` values exactly when they are equal JSON.

    Values of a type other than ``str`` are keyed with their type, so that
    ``1``, ``1.0`` and ``true`` (equal in Python) stay apart.
    """
    if not isinstance(cluster, Mapping):
        return ("value", _exact(cluster))
    key: list[Hashable] = []
    for job, tasks in cluster.items():
        if isinstance(tasks, list):
            key.append((_exact(job), "[", _strings(tasks)))
        elif isinstance(tasks, Mapping):
            key.append((_exact(job), "{", _strings(list(tasks)), _strings(list(tasks.values()))))
        else:
            key.append((_exact(job), _exact(tasks)))
    return tuple(key)


def _strings(values: list[Any]) -> Hashable:
    if set(map(type, values)) <= {str}:
        return tuple(values)
    return tuple(map(_exact, values))


def _exact(value: Any) -> Hashable:
    if type(value) is str:
        return value
    return (type(value).__name__, json.dumps(value, sort_keys=True, default=repr))


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
        return int(value)
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
    return "j" + json.dumps(value, sort_keys=True, default=repr)
