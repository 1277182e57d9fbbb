"""Where SLURM runs each rank of a step, and the ``TF_CONFIG`` that gives each rank its own host.

``srun`` lays a step's tasks out with its default *block* distribution: the
first host's tasks are ranks ``0 .. n0 - 1``, the next host's the following
ranks, and so on, the hosts in the order of the step's nodelist
(``node[9-10]`` is ``node9``, then ``node10``).  TensorFlow's
``SlurmClusterResolver`` sorts the hosts as strings and fills the jobs in
sorted name order instead, so a rank can be given an address on another host
(:func:`misplaced_ranks`).

:func:`slurm_tf_configs` writes, for every rank, a ``TF_CONFIG`` that
``TFConfigClusterResolver`` reads: the rank's address on the host SLURM runs
it on (ports ``port_base``, ``port_base + 1``, ... on each host, as
TensorFlow numbers them), the jobs taking the ranks in the order they are
given, and no GPU count needed, so a CPU-only job works too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Annotated, Any, Final, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from estconf._errors import fail
from estconf._types import Integer, JobName, String
from estconf.cluster import ClusterSpec
from estconf.distribute._slurm_step import (
    NODELIST,
    NUM_TASKS,
    PROCID,
    TASKS_PER_NODE,
    check_task_count,
    check_tasks,
    host_tasks,
    integer_variable,
)
from estconf.distribute.slurm import MAX_PORT, SlurmClusterResolver

__all__ = [
    "NODE_NAME",
    "Misplaced",
    "misplaced_ranks",
    "rank_hosts",
    "slurm_tf_configs",
    "step_environ",
]

TITLE: Final = "slurm_tf_configs"
NODE_NAME: Final = "SLURMD_NODENAME"
"""The host ``srun`` runs a task on, set in each task's environment."""

_Count = Annotated[Integer, Field(ge=0)]


def step_environ(nodelist: str, tasks_per_node: int | str, rank: int = 0) -> dict[str, str]:
    """The variables ``srun`` sets for rank ``rank`` of a step on ``nodelist``.

    Args:
        nodelist: the step's hosts as a SLURM hostlist (``node[9-10]``).
        tasks_per_node: the tasks on every host (``srun --ntasks-per-node``),
            or SLURM's list of them (``2(x3),1``, as in ``SLURM_STEP_TASKS_PER_NODE``).
        rank: the task's ``SLURM_PROCID``.

    Returns:
        ``SLURM_PROCID``, ``SLURM_STEP_NODELIST``, ``SLURM_STEP_TASKS_PER_NODE``
        and ``SLURM_STEP_NUM_TASKS``.

    Raises:
        pydantic.ValidationError: TensorFlow cannot read the nodelist or the
            tasks per node (``slurm_hostlist``, ``slurm_tasks_per_node``), or
            they are more than a step has (``slurm_too_many_tasks``).

    Example:
        >>> step_environ("node[9-10]", 2)["SLURM_STEP_TASKS_PER_NODE"]
        '2(x2)'
    """
    environ = {PROCID: str(rank), NODELIST: nodelist}
    if isinstance(tasks_per_node, int):
        hosts = host_tasks(tasks_per_node, environ)
        environ[TASKS_PER_NODE] = f"{tasks_per_node}(x{len(hosts)})"
    else:
        environ[TASKS_PER_NODE] = tasks_per_node
        hosts = host_tasks(None, environ)
    check_tasks(hosts, ("tasks_per_node",))
    environ[NUM_TASKS] = str(sum(count for _, count in hosts))
    return environ


def _hosts_once(
    tasks_per_node: int | Mapping[str, int] | None, environ: Mapping[str, str]
) -> list[tuple[str, int]]:
    placed = host_tasks(tasks_per_node, environ)
    check_tasks(
        placed, ("environ", TASKS_PER_NODE) if tasks_per_node is None else ("tasks_per_node",)
    )
    seen: set[str] = set()
    for host, _ in placed:
        if host in seen:
            raise fail(
                TITLE,
                "slurm_host_twice",
                "the nodelist names {host} twice: SLURM names each host of a step once, and "
                "two hosts of one name would share their ports",
                ("environ", NODELIST),
                host,
                {"host": host},
            )
        seen.add(host)
    return placed


def rank_hosts(
    tasks_per_node: int | Mapping[str, int] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
) -> list[str]:
    """The host SLURM runs each rank on, by rank: its block distribution over the nodelist.

    Args:
        tasks_per_node: as :class:`SlurmClusterResolver` takes it; ``None``
            reads ``SLURM_STEP_TASKS_PER_NODE``.
        environ: the step's variables (default ``os.environ``).

    Raises:
        pydantic.ValidationError: the nodelist or tasks per node cannot be
            read, or the nodelist names a host twice (``slurm_host_twice``).

    Example:
        >>> rank_hosts(environ={"SLURM_STEP_NODELIST": "node[9-10]",
        ...                     "SLURM_STEP_TASKS_PER_NODE": "2(x2)"})
        ['node9', 'node9', 'node10', 'node10']
    """
    environ = os.environ if environ is None else environ
    return [host for host, count in _hosts_once(tasks_per_node, environ) for _ in range(count)]


class Misplaced(NamedTuple):
    """A rank that TensorFlow gives an address on another host than the one it runs on."""

    rank: int
    """The rank (``SLURM_PROCID``)."""
    host: str
    """The host SLURM runs it on."""
    task: tuple[str, int]
    """Its task in TensorFlow's cluster."""
    address: str
    """The address TensorFlow gives that task."""


def misplaced_ranks(resolver: SlurmClusterResolver) -> list[Misplaced]:
    """The ranks whose address in TensorFlow's cluster is on another host than SLURM runs them on.

    TensorFlow's cluster is the same for every rank of a step, so any rank's
    resolver tells it.  A rank's server then listens on the port of an
    address on another host, and the tasks that dial that address reach
    whichever rank runs there.

    Example:
        >>> resolver = SlurmClusterResolver(gpus_per_node=1, environ={
        ...     "SLURM_PROCID": "0", "SLURM_STEP_NUM_TASKS": "2",
        ...     "SLURM_STEP_NODELIST": "node[9-10]", "SLURM_STEP_TASKS_PER_NODE": "1(x2)"})
        >>> misplaced_ranks(resolver)[0]
        Misplaced(rank=0, host='node9', task=('worker', 0), address='node10:8888')
    """
    given = resolver.tasks_per_node  # a built resolver holds no float (TensorFlow fails on one)
    tasks_per_node = (
        {host: int(count) for host, count in given.items()} if isinstance(given, dict) else given
    )
    hosts = rank_hosts(tasks_per_node, environ=resolver.environ)
    jobs = resolver.jobs
    if jobs is None:
        jobs = {"worker": integer_variable(resolver.environ, NUM_TASKS)}
    cluster = resolver.cluster_spec().as_dict()
    found: list[Misplaced] = []
    rank = 0
    for job, size in sorted(jobs.items()):
        addresses = cluster.get(job, [])
        for index in range(max(0, min(int(size), len(hosts) - rank))):  # only ranks that run
            if isinstance(addresses, list) and index < len(addresses):
                address = addresses[index]
                if address.rpartition(":")[0] != hosts[rank]:
                    found.append(Misplaced(rank, hosts[rank], (job, index), address))
            rank += 1
    return found


class _Arguments(BaseModel):
    """The arguments of :func:`slurm_tf_configs`, checked; their errors titled after it."""

    model_config = ConfigDict(frozen=True, extra="forbid", title=TITLE)

    jobs: dict[JobName, _Count] | None
    port_base: _Count
    tasks_per_node: _Count | dict[String, _Count] | None
    rpc_layer: String | None
    environ: dict[String, String]


def _check_ports(placed: list[tuple[str, int]], port_base: int) -> None:
    most = max((count for _, count in placed), default=0)
    last = port_base + most - 1
    if last > MAX_PORT:
        raise fail(
            TITLE,
            "slurm_port",
            "port_base {port_base} with {most} tasks on a host gives ports up to {last}, "
            "above {max}: give a port_base of at most {best}",
            ("port_base",),
            port_base,
            {
                "port_base": port_base,
                "most": most,
                "last": last,
                "max": MAX_PORT,
                "best": MAX_PORT - most + 1,
            },
        )


def _check_node_name(environ: Mapping[str, str], hosts: list[str]) -> None:
    """Inside ``srun``, the host the task runs on is the one block distribution gives its rank."""
    node = environ.get(NODE_NAME)
    if node is None or PROCID not in environ:
        return
    rank = integer_variable(environ, PROCID)
    if 0 <= rank < len(hosts) and hosts[rank] != node:
        raise fail(
            TITLE,
            "slurm_placement",
            "rank {rank} runs on {node}, but SLURM's block distribution over the nodelist puts "
            "it on {host}: the step does not lay its tasks out in blocks (run it with srun "
            "--distribution=block)",
            ("environ", NODE_NAME),
            node,
            {"rank": rank, "node": node, "host": hosts[rank]},
        )


def slurm_tf_configs(
    jobs: Mapping[str, int] | None = None,
    port_base: int = 8888,
    tasks_per_node: int | Mapping[str, int] | None = None,
    rpc_layer: str | None = "grpc",
    *,
    environ: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The ``TF_CONFIG`` of every rank of a SLURM step, each rank at the host SLURM runs it on.

    Ranks are laid out as SLURM's block distribution lays them out (see
    :func:`rank_hosts`); the ``k``-th task of a host listens on
    ``port_base + k``; the jobs take the ranks in the order they are given
    (``{"ps": 1, "worker": 3}``: rank 0 is the ps, ranks 1 to 3 the
    workers), and a job of size 0 is left out.  ``TFConfigClusterResolver``
    (so MultiWorkerMirroredStrategy, ParameterServerStrategy and the
    Estimator) reads each as the same cluster with the rank's own task.

    Args:
        jobs: each job's number of tasks, in the order the ranks fill them;
            default: every task a ``worker``.
        port_base: the port of each host's first task.
        tasks_per_node: as :class:`SlurmClusterResolver` takes it; ``None``
            reads ``SLURM_STEP_TASKS_PER_NODE``.
        rpc_layer: written as the ``rpc_layer`` key unless ``None``.
        environ: the step's variables (default ``os.environ``):
            ``SLURM_STEP_NODELIST`` and ``SLURM_STEP_TASKS_PER_NODE``; inside
            ``srun``, ``SLURM_PROCID`` and ``SLURMD_NODENAME`` are checked
            against the block distribution.

    Returns:
        One ``TF_CONFIG`` (``cluster``, ``task``, ``rpc_layer``) per rank, in rank order.

    Raises:
        pydantic.ValidationError: an argument is invalid; the step cannot be
            read; the jobs' sizes do not add up to the step's tasks
            (``slurm_tasks``, TensorFlow's sentence); a port above 65535
            (``slurm_port``); a host named twice (``slurm_host_twice``); the
            task runs on another host than its rank's (``slurm_placement``).

    Example:
        >>> configs = slurm_tf_configs({"ps": 1, "worker": 3}, environ={
        ...     "SLURM_STEP_NODELIST": "node[9-10]", "SLURM_STEP_TASKS_PER_NODE": "2(x2)"})
        >>> configs[0]["cluster"]
        {'ps': ['node9:8888'], 'worker': ['node9:8889', 'node10:8888', 'node10:8889']}
        >>> configs[0]["task"], configs[3]["task"]
        ({'type': 'ps', 'index': 0}, {'type': 'worker', 'index': 2})
    """
    arguments = _Arguments(
        jobs=jobs,
        port_base=port_base,
        tasks_per_node=tasks_per_node,
        rpc_layer=rpc_layer,
        environ=dict(os.environ if environ is None else environ),
    )
    placed = _hosts_once(arguments.tasks_per_node, arguments.environ)
    total = sum(count for _, count in placed)
    sizes = {"worker": total} if arguments.jobs is None else arguments.jobs
    check_task_count(sizes, total)
    if total == 0:
        raise fail(
            TITLE,
            "slurm_no_nodes",
            "the step has no task: the nodelist or the tasks per node is empty",
            ("tasks_per_node",) if tasks_per_node is not None else ("environ", NODELIST),
        )
    _check_ports(placed, arguments.port_base)
    hosts = [host for host, count in placed for _ in range(count)]
    _check_node_name(arguments.environ, hosts)
    addresses = [
        f"{host}:{arguments.port_base + k}" for host, count in placed for k in range(count)
    ]
    cluster: dict[str, list[str]] = {}
    tasks: list[dict[str, Any]] = []
    for job, size in sizes.items():
        if size:
            cluster[job] = addresses[len(tasks) : len(tasks) + size]
        tasks.extend({"type": job, "index": index} for index in range(size))
    ClusterSpec(cluster)  # the host names and job names, checked as in any TF_CONFIG
    extra = {} if arguments.rpc_layer is None else {"rpc_layer": arguments.rpc_layer}
    return [{"cluster": cluster, "task": task, **extra} for task in tasks]
