"""What a valid cluster's addresses tell besides the ``address`` rule: a port 0, loopback hosts.

TensorFlow accepts both, and a job of several tasks then fails when it runs:

- ``port_zero`` (a warning): a task at port 0 listens on a port chosen when
  its server starts (TensorFlow's gRPC server asks for ``0.0.0.0:0``, "any
  free port"), which the other tasks never learn: they dial port 0 and do not
  reach it.  One finding for each such task, at its address.
- ``loopback_address`` (a note): ``localhost``, ``127.0.0.0/8`` or ``[::1]``
  names, on each machine, that machine: the tasks reach each other only when
  every one runs on the same machine.  One finding for the cluster, at its
  first loopback address.

Neither applies to a cluster of one task, which talks to no other.  An
``evaluator`` is not counted, nor reported: the Estimator and the
tf.distribute readers run it beside the training cluster, which never dials
it.  :func:`address_findings` reads a cluster as written (a list of addresses
or an object from task index to address, for each job) once it is valid;
each finding is at ``cluster.<job>[<index>]``, the index as written.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from itertools import compress
from typing import Any, Final

from estconf.finding import Finding

__all__ = ["address_findings", "is_loopback"]

_EVALUATOR: Final = "evaluator"
_NAMED: Final = 4
"""The most tasks a finding names; of more, the first three and how many more."""

Task = tuple[str, int | str, str]
"""A task of the cluster: its job, its index as written, its address."""


def address_findings(cluster: Mapping[str, Any]) -> list[Finding]:
    """The ``port_zero`` warnings and the ``loopback_address`` note of a valid ``cluster``.

    Example:
        >>> cluster = {"chief": ["localhost:2222"], "worker": ["localhost:0"]}
        >>> [(found.code, found.path) for found in address_findings(cluster)]
        [('loopback_address', 'cluster.chief[0]'), ('port_zero', 'cluster.worker[0]')]
    """
    tasks = _training_tasks(cluster)
    if len(tasks) < 2:
        return []
    at_loopback = [is_loopback(address) for _, _, address in tasks]
    loopback = list(compress(tasks, at_loopback))
    elsewhere = next((task for task, at in zip(tasks, at_loopback, strict=True) if not at), None)
    found = []
    for task in tasks:  # in the order of the cluster
        if loopback and task is loopback[0]:
            found.append(_loopback(loopback, elsewhere))
        if task[2].endswith(":0"):
            found.append(_port_zero(task, len(tasks)))
    return found


def is_loopback(address: str) -> bool:
    """Whether a valid address is at a loopback host: ``localhost``, ``127.0.0.0/8``, ``[::1]``.

    A name ending in ``.localhost`` is one too (RFC 6761), and so is an
    IPv6 address that maps an IPv4 loopback address (``[::ffff:127.0.0.1]``).

    Example:
        >>> is_loopback("127.0.1.1:2222"), is_loopback("[::1]:0"), is_loopback("h1:2222")
        (True, True, False)
    """
    host = address.rpartition(":")[0]
    try:
        if host.startswith("["):
            ip = ipaddress.IPv6Address(host[1:-1].partition("%")[0])
            mapped = ip.ipv4_mapped
            return ip.is_loopback or (mapped is not None and mapped.is_loopback)
        if host.replace(".", "").isdigit():  # digits and dots: an IPv4 address, once valid
            return ipaddress.IPv4Address(host).is_loopback
    except ValueError:  # not a valid address after all
        return False
    name = host.lower()
    return name == "localhost" or name.endswith(".localhost")


def _training_tasks(cluster: Mapping[str, Any]) -> list[Task]:
    """Every task of the cluster but an evaluator's, in the order written."""
    tasks: list[Task] = []
    for job, addresses in cluster.items():
        if job == _EVALUATOR:
            continue
        if isinstance(addresses, list):
            items: Iterable[tuple[int | str, Any]] = enumerate(addresses)
        elif isinstance(addresses, Mapping):
            items = addresses.items()
        else:
            continue
        tasks.extend((job, index, address) for index, address in items if isinstance(address, str))
    return tasks


def _name(task: Task) -> str:
    return f"{task[0]}:{task[1]}"


def _names(tasks: list[Task]) -> str:
    """``chief:0``, ``chief:0 and worker:0``, ``a, b, c and 7 more``."""
    if len(tasks) == 1:
        return _name(tasks[0])
    if len(tasks) <= _NAMED:
        return f"{', '.join(map(_name, tasks[:-1]))} and {_name(tasks[-1])}"
    return f"{', '.join(map(_name, tasks[: _NAMED - 1]))} and {len(tasks) - _NAMED + 1} more"


def _port_zero(task: Task, count: int) -> Finding:
    job, index, address = task
    others = f"the other {count - 1} tasks" if count > 2 else "the other task"
    from estconf.codes import checked  # the codes are read when a finding is first made

    return Finding.at(
        checked("port_zero"),
        f"'{address}' has port 0, any free port: task {_name(task)} listens on a port chosen "
        f"when it starts, which {others} of the cluster cannot know",
        ("cluster", job, index),
        value=address,
        severity="warning",
        hint=f"give the task a fixed port, e.g. '{address[:-2]}:2222'",
    )


def _loopback(loopback: list[Task], elsewhere: Task | None) -> Finding:
    job, index, address = loopback[0]
    shown = f"'{address}'" + (", ..." if len(loopback) > 1 else "")
    if elsewhere is None:
        message = (
            f"every task of the cluster is at a loopback address ({shown}): the cluster works "
            "only when all its tasks run on the same machine"
        )
    else:
        names = _names(loopback)
        verb = "is" if len(loopback) == 1 else "are"
        message = (
            f"{names} {verb} at a loopback address ({shown}), which each machine reads as "
            "itself: the cluster works only when every task runs on that one machine, and it "
            f"also lists '{elsewhere[2]}'"
        )
    from estconf.codes import checked

    return Finding.at(
        checked("loopback_address"),
        message,
        ("cluster", job, index),
        value=address,
        severity="note",
        hint="for tasks on several machines, give each task its machine's hostname or IP address",
    )
