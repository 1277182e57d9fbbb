"""``estconf.distribute.SlurmClusterResolver``: the cluster TensorFlow builds inside a SLURM step.

TensorFlow's ``tf.distribute.cluster_resolver.SlurmClusterResolver`` (2.15 and 2.21)
(``tensorflow/python/distribute/cluster_resolver/slurm_cluster_resolver.py``)
builds the cluster of a job from the variables ``srun`` sets for each task.
The model here gives the same cluster, task, master, accelerators and
``CUDA_VISIBLE_DEVICES`` for each rank, from an ``environ`` mapping rather
than the process environment (unless built with
:meth:`SlurmClusterResolver.from_env`), and without running any program.

What users trip on, kept exactly as TensorFlow does it:

- hosts are sorted as strings (``node10`` before ``node9``), whatever order
  SLURM placed the ranks in, and each host's tasks get ports
  ``port_base``, ``port_base + 1``, ...;
- jobs are filled in sorted name order: with ``{"ps": 1, "worker": 3}``,
  rank 0 is the ps;
- only a step's variables are read (``SLURM_STEP_*``, never ``SLURM_JOB_*``),
  so a batch script outside ``srun`` fails.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Annotated, Any, Final

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
    WithJsonSchema,
    computed_field,
    model_validator,
)
from typing_extensions import Self

from estconf._errors import custom_error, fail, with_errors_of
from estconf._types import Bool, Integer, JobName, String, TaskIndex, whole_number
from estconf.cluster import ClusterSpec
from estconf.distribute import _hints
from estconf.distribute._slurm_step import (
    CUDA_VISIBLE_DEVICES,
    NODELIST,
    NUM_TASKS,
    PROCID,
    SLURM_VARIABLES,
    TASKS_PER_NODE,
    TITLE,
    check_gpus,
    check_task_count,
    check_tasks,
    gpu_count,
    integer_variable,
    task_configuration,
)

__all__ = ["MAX_PORT", "SLURM_VARIABLES", "SlurmClusterResolver"]

MAX_PORT: Final = 65535


def _count(value: Any) -> int | float:
    """An ``int``, or a whole float kept as a float; bools, fractions and the rest refused."""
    value = whole_number(value, keep_float=True)
    if isinstance(value, (int, float)):
        return value
    raise custom_error("int_type", "Input should be a valid integer", {"hint": "give an int"})


_Count = Annotated[int | float, PlainValidator(_count), WithJsonSchema({"type": "integer"})]
"""A count TensorFlow hands to ``range()`` or a slice, which take only an ``int``.

A whole float (``2.0``) is kept as a float, so that the resolver fails on it
where TensorFlow does, after TensorFlow's own checks of the counts.
"""


@dataclass(frozen=True)
class _View:
    """What TensorFlow's resolver works out for one rank, computed together by :func:`_resolve`."""

    gpus_per_task: int
    cluster: ClusterSpec
    task_type: str | None
    task_id: int | None
    cuda_visible_devices: str | None


def _check_counts(
    jobs: Mapping[str, float],
    configuration: Mapping[str, float],
    gpus_per_node: float,
    gpus_per_task: float,
) -> None:
    """TensorFlow's two checks of the constructor, in its order, in its words."""
    most = max(configuration.values())
    if most * gpus_per_task > gpus_per_node:
        raise fail(
            TITLE,
            "slurm_gpus",
            "Requested more GPUs per node than available. ({tasks} tasks on a node times "
            "{per_task} GPUs per task is more than {per_node} GPUs per node)",
            ("gpus_per_task",),
            gpus_per_task,
            {
                "tasks": most,
                "per_task": gpus_per_task,
                "per_node": gpus_per_node,
                "hint": _hints.gpus_of_a_node(most, gpus_per_node, gpus_per_task),
            },
        )
    check_task_count(jobs, sum(configuration.values()))


def _first_float(
    jobs: Mapping[str, float],
    configuration: Mapping[str, float],
    gpus_per_node: float,
    gpus_per_task: float,
) -> tuple[tuple[str, ...], float, str] | None:
    """The first count ``cluster_spec()`` fails on as a float: where it is, its value, the error.

    In TensorFlow's order: each host's tasks (``range(num_tasks)``), the GPU
    slots (``range(0, gpus_per_node, gpus_per_task)``), then each job's run of
    ranks (a slice).
    """
    not_int = "'float' object cannot be interpreted as an integer"
    for host, count in sorted(configuration.items()):
        if isinstance(count, float):
            return ("tasks_per_node", host), count, not_int
    if isinstance(gpus_per_node, float):
        return ("gpus_per_node",), gpus_per_node, not_int
    if isinstance(gpus_per_task, float):
        return ("gpus_per_task",), gpus_per_task, not_int
    for job, size in sorted(jobs.items()):
        if isinstance(size, float):
            return (
                ("jobs", job),
                size,
                "slice indices must be integers or None or have an __index__ method",
            )
    return None


def _check_ints(
    jobs: Mapping[str, float],
    configuration: Mapping[str, float],
    gpus_per_node: float,
    gpus_per_task: float,
) -> None:
    """Refuse a count given as a float, on which TensorFlow's ``cluster_spec()`` fails."""
    found = _first_float(jobs, configuration, gpus_per_node, gpus_per_task)
    if found is not None:
        loc, value, reason = found
        raise fail(
            TITLE,
            "slurm_float",
            "{value} is a float where TensorFlow needs an int: its cluster_spec() fails on it "
            "with: {reason}",
            loc,
            value,
            {"value": value, "reason": reason, "hint": f"give {int(value)}, an int"},
        )


def _cluster(
    jobs: Mapping[str, int],
    configuration: Mapping[str, int],
    port_base: int,
    gpus_per_node: int,
    gpus_per_task: int,
) -> tuple[dict[str, list[str]], list[int]]:
    """Every job's addresses, and the first GPU of each rank.

    Hosts in string order; a host's tasks take the ports from ``port_base``
    and the GPU slots ``range(0, gpus_per_node, gpus_per_task)``, as many as
    both allow.  Jobs take the ranks in name order, as slices of the ranks.
    A rank's ``CUDA_VISIBLE_DEVICES`` is written only for the rank asked
    about (:func:`_visible`), so the work grows with the tasks, not the GPUs.
    """
    slots = range(0, gpus_per_node, gpus_per_task)
    addresses: list[str] = []
    gpus: list[int] = []
    for host, count in sorted(configuration.items()):
        for port, first_gpu in zip(range(count), slots, strict=False):
            addresses.append(f"{host}:{port_base + port}")
            gpus.append(first_gpu)
    cluster: dict[str, list[str]] = {}
    start = 0
    for job, size in sorted(jobs.items()):
        cluster[job] = addresses[start : start + size]
        start += size
    return cluster, gpus


def _visible(first_gpu: int, gpus_per_task: int) -> str:
    """A rank's ``CUDA_VISIBLE_DEVICES``: its GPUs from ``first_gpu``, as TensorFlow writes them."""
    return ",".join(map(str, range(first_gpu, first_gpu + gpus_per_task)))


@lru_cache(maxsize=8)
def _step_cluster(
    jobs: tuple[tuple[str, int], ...],
    configuration: tuple[tuple[str, int], ...],
    port_base: int,
    gpus_per_node: int,
    gpus_per_task: int,
) -> tuple[ClusterSpec, tuple[int, ...]]:
    """The checked cluster of a step and each rank's first GPU: the same for all its ranks.

    Worked out once for the ranks of one step (a program, or ``estconf
    tf-config --slurm``, looking at every rank), since checking a cluster's
    addresses is most of a rank's cost.  The ``ClusterSpec`` is frozen.
    """
    addresses, gpus = _cluster(
        dict(jobs), dict(configuration), port_base, gpus_per_node, gpus_per_task
    )
    return _cluster_spec(addresses), tuple(gpus)


def _task(jobs: Mapping[str, int], rank: int) -> tuple[str | None, int | None]:
    """The job and index of ``rank``: the job whose run of ranks holds it, if any."""
    start = 0
    for job, size in sorted(jobs.items()):
        if start <= rank < start + size:
            return job, rank - start
        start += size
    return None, None


def _cluster_spec(jobs: dict[str, list[str]]) -> ClusterSpec:
    """The cluster as a ``ClusterSpec``, a job of no task kept as TensorFlow keeps it.

    The addresses are checked (``address``, stricter than TensorFlow); a job of size 0, which
    ``ClusterSpec`` refuses from users, is added as the empty job TensorFlow holds.
    """
    checked = ClusterSpec({job: tasks for job, tasks in jobs.items() if tasks})
    return ClusterSpec.model_construct(root={job: checked.root.get(job, []) for job in jobs})


def _check_port_base(port_base: int, configuration: Mapping[str, float]) -> None:
    """Refuse a ``port_base`` that is no port (``address``), before an address is built from it.

    TensorFlow builds every address from it, which the ``address`` rule then
    refuses one by one; a ``port_base`` of thousands of digits would make each
    address as long.  The first of them is said, at ``port_base``.
    """
    if 0 <= port_base <= MAX_PORT:
        return
    shown: int | str = port_base
    if abs(port_base) > 10**12:  # a number Python may not even write out
        shown = "far below 0" if port_base < 0 else f"far above {MAX_PORT}"
    address = f"{min(configuration)}:{port_base if isinstance(shown, int) else '...'}"
    raise fail(
        TITLE,
        "address",
        "'{address}' is not a valid task address: {reason}",
        ("port_base",),
        address,
        {
            "address": address,
            "reason": f"port_base is {shown}, and a port goes from 0 to {MAX_PORT}",
            "hint": f"give port_base a port from 0 to {MAX_PORT} (8888 by default)",
        },
    )


def _resolve(resolver: SlurmClusterResolver) -> _View:
    """Work out one rank's view as TensorFlow does, failing where and as it fails.

    Mirrors the resolver's constructor, then ``cluster_spec()``.
    """
    environ = resolver.environ
    rank = integer_variable(environ, PROCID)
    jobs = resolver.jobs
    if jobs is None:
        jobs = {"worker": integer_variable(environ, NUM_TASKS)}
    tasks_per_node = resolver.tasks_per_node
    configuration: dict[str, float] = (
        dict(tasks_per_node)  # each host's count by name, a float kept
        if isinstance(tasks_per_node, dict)
        else dict(task_configuration(tasks_per_node, environ))
    )
    if not configuration:
        raise fail(
            TITLE,
            "slurm_no_nodes",
            "the step has no node: the nodelist or tasks_per_node is empty (TensorFlow fails "
            "on it with: max() arg is an empty sequence)",
            ("tasks_per_node",) if resolver.tasks_per_node is not None else ("environ", NODELIST),
            None,
            {"hint": _hints.no_nodes(resolver.tasks_per_node is not None)},
        )
    given_tasks = resolver.tasks_per_node is not None
    check_tasks(
        configuration.items(),
        ("tasks_per_node",) if given_tasks else ("environ", TASKS_PER_NODE),
    )
    _check_port_base(resolver.port_base, configuration)
    most = max(configuration.values())
    gpus_per_node = resolver.gpus_per_node
    if gpus_per_node is None:
        try:
            gpus_per_node = gpu_count(environ)
        except ValidationError as unknown:
            # TensorFlow counts the tasks after the GPUs, without them: its sentence is said too.
            raise with_errors_of(
                unknown, lambda: check_task_count(jobs, sum(configuration.values()))
            ) from None
        check_gpus(gpus_per_node, ("environ", CUDA_VISIBLE_DEVICES), "the GPU count")
    else:
        check_gpus(gpus_per_node, ("gpus_per_node",), "gpus_per_node")
    gpus_per_task = resolver.gpus_per_task
    if gpus_per_task is not None:
        check_gpus(gpus_per_task, ("gpus_per_task",), "gpus_per_task")
    if gpus_per_task is None:
        if most == 0:
            raise fail(
                TITLE,
                "slurm_no_tasks",
                "no node has a task, so GPUs per task cannot be worked out (TensorFlow fails "
                "with: integer division or modulo by zero)",
                ("gpus_per_task",),
                None,
                {"hint": "give the nodes their tasks, or give gpus_per_task"},
            )
        gpus_per_task = gpus_per_node // most
    _check_counts(jobs, configuration, gpus_per_node, gpus_per_task)
    _check_ints(jobs, configuration, gpus_per_node, gpus_per_task)
    if gpus_per_task == 0 and resolver.gpus_per_task is not None:
        raise fail(
            TITLE,
            "slurm_gpus_per_task_zero",
            "gpus_per_task is 0: TensorFlow's cluster_spec() fails on it with: range() arg 3 "
            "must not be zero",
            ("gpus_per_task",),
            gpus_per_task,
            {"hint": _hints.CPU_ONLY},
        )
    if gpus_per_task == 0:
        raise fail(
            TITLE,
            "slurm_gpus_per_task_zero",
            "0 GPUs per task ({per_node} GPUs per node, at most {most} tasks on a node): "
            "TensorFlow's cluster_spec() fails on it with: range() arg 3 must not be zero",
            ("gpus_per_task",),
            gpus_per_task,
            {
                "per_node": gpus_per_node,
                "most": most,
                "hint": _hints.CPU_ONLY,
            },
        )
    sizes = {job: int(size) for job, size in jobs.items()}
    cluster, gpus = _step_cluster(
        tuple(sizes.items()),
        tuple((host, int(count)) for host, count in configuration.items()),
        resolver.port_base,
        int(gpus_per_node),
        int(gpus_per_task),
    )
    visible = None
    if resolver.auto_set_gpu:
        if not -len(gpus) <= rank < len(gpus):
            raise fail(
                TITLE,
                "slurm_rank",
                "{name} is {rank} but the cluster has {count} tasks, so there are no GPUs to "
                "give it (TensorFlow fails with: list index out of range)",
                ("environ", PROCID),
                rank,
                {
                    "name": PROCID,
                    "rank": rank,
                    "count": len(gpus),
                    "hint": _hints.rank_of_the_step(len(gpus)),
                },
            )
        visible = _visible(gpus[rank], int(gpus_per_task))
    if rank < 0:  # stricter than TensorFlow, after every failure of TensorFlow's own
        raise fail(
            TITLE,
            "negative_index",
            "{name} is {rank}: ranks start at 0 (TensorFlow takes it and gives the task "
            "another rank's GPUs)",
            ("environ", PROCID),
            rank,
            {
                "name": PROCID,
                "rank": rank,
                "hint": _hints.rank_of_the_step(),
            },
        )
    task_type, task_id = _task(sizes, rank)
    return _View(int(gpus_per_task), cluster, task_type, task_id, visible)


class SlurmClusterResolver(BaseModel):
    """The cluster and task TensorFlow's ``SlurmClusterResolver`` gives one SLURM rank.

    The constructor takes TensorFlow's arguments, plus ``environ`` standing
    for the process environment: ``SLURM_PROCID``, ``SLURM_STEP_NUM_TASKS``
    (without ``jobs``), ``SLURM_STEP_NODELIST`` and
    ``SLURM_STEP_TASKS_PER_NODE`` (without ``tasks_per_node``), and
    ``CUDA_VISIBLE_DEVICES`` (without ``gpus_per_node``).  Everything is
    worked out, and every error raised, when the resolver is built; TensorFlow
    raises some of them only in ``cluster_spec()``, and sets ``task_type``
    and ``task_id`` there.

    Example:
        >>> resolver = SlurmClusterResolver(
        ...     jobs={"ps": 1, "worker": 3},
        ...     gpus_per_node=2,
        ...     environ={
        ...         "SLURM_PROCID": "0",
        ...         "SLURM_STEP_NODELIST": "node[9-10]",
        ...         "SLURM_STEP_TASKS_PER_NODE": "2(x2)",
        ...     },
        ... )
        >>> resolver.cluster_spec().as_dict()
        {'ps': ['node10:8888'], 'worker': ['node10:8889', 'node9:8888', 'node9:8889']}
        >>> resolver.task_type, resolver.task_id, resolver.master()
        ('ps', 0, 'grpc://node10:8888')
        >>> resolver.cuda_visible_devices, resolver.num_accelerators()
        ('0', {'GPU': 1})
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    jobs: dict[JobName, _Count] | None = Field(
        None, description="Each job's number of tasks; default: `worker`, every task of the step."
    )
    port_base: Integer = Field(8888, description="The port of each host's first task.")
    gpus_per_node: _Count | None = Field(
        None, description="GPUs on each node; default: the length of CUDA_VISIBLE_DEVICES."
    )
    gpus_per_task: _Count | None = Field(
        None, description="GPUs of each task; default: GPUs per node // most tasks on a node."
    )
    tasks_per_node: TaskIndex | dict[String, _Count] | None = Field(
        None,
        description="Tasks on every node, or on each host by name; default: SLURM's variables.",
    )
    auto_set_gpu: Bool = Field(True, description="Whether CUDA_VISIBLE_DEVICES is set.")
    rpc_layer: String | None = Field("grpc", description="The RPC layer of the master address.")
    environ: dict[String, String] = Field(
        default_factory=dict, description="The variables of the process the resolver reads."
    )

    def __init__(
        self,
        jobs: Mapping[str, int] | None = None,
        port_base: int = 8888,
        gpus_per_node: int | None = None,
        gpus_per_task: int | None = None,
        tasks_per_node: int | str | Mapping[str, int] | None = None,
        auto_set_gpu: bool = True,
        rpc_layer: str | None = "grpc",
        *,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        """Build the resolver from TensorFlow's arguments and ``environ`` (never ``os.environ``).

        Only the variables in :data:`SLURM_VARIABLES` are kept from ``environ``.

        Raises:
            pydantic.ValidationError: an argument is invalid, or TensorFlow would
                fail for this rank (each error has its code; TensorFlow's
                sentence where it has one).
        """
        given = environ or {}
        kept = {name: given[name] for name in SLURM_VARIABLES if name in given}
        super().__init__(
            jobs=jobs,
            port_base=port_base,
            gpus_per_node=gpus_per_node,
            gpus_per_task=gpus_per_task,
            tasks_per_node=tasks_per_node,
            auto_set_gpu=auto_set_gpu,
            rpc_layer=rpc_layer,
            environ=kept,
        )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **kwargs: Any) -> Self:
        """Read the SLURM variables from ``environ`` (default ``os.environ``), as TensorFlow does.

        ``kwargs`` are the constructor's arguments.

        Raises:
            pydantic.ValidationError: as the constructor.
        """
        return cls(**kwargs, environ=os.environ if environ is None else environ)

    @model_validator(mode="after")
    def resolves_like_tensorflow(self) -> Self:
        """TensorFlow builds a cluster for this rank (see :func:`_resolve`)."""
        _ = self._view
        return self

    @cached_property
    def _view(self) -> _View:
        return _resolve(self)

    @computed_field(description="This rank's job; null when no job holds it.")  # type: ignore[prop-decorator]
    @property
    def task_type(self) -> str | None:
        """The job of this rank, the jobs filled with the ranks in name order."""
        return self._view.task_type

    @computed_field(description="This rank's index in its job.")  # type: ignore[prop-decorator]
    @property
    def task_id(self) -> int | None:
        """The index of this rank in its job."""
        return self._view.task_id

    @computed_field(  # type: ignore[prop-decorator]
        description="What TensorFlow writes into CUDA_VISIBLE_DEVICES; null when it writes nothing."
    )
    @property
    def cuda_visible_devices(self) -> str | None:
        """This rank's GPUs as TensorFlow writes them (``"0,1"``); ``None`` if it does not."""
        return self._view.cuda_visible_devices

    @property
    def tf_config(self) -> dict[str, Any]:
        """The ``TF_CONFIG`` giving ``TFConfigClusterResolver`` the same cluster and task.

        ``cluster`` and ``task`` (empty when no job holds the rank), and
        ``rpc_layer`` when there is one.
        """
        task: dict[str, Any] = {}
        if self.task_type is not None:
            task = {"type": self.task_type, "index": self.task_id}
        config: dict[str, Any] = {"cluster": self.cluster_spec().as_dict(), "task": task}
        if self.rpc_layer:
            config["rpc_layer"] = self.rpc_layer
        return config

    def cluster_spec(self) -> ClusterSpec:
        """Return the cluster: hosts in string order, jobs in name order."""
        return self._view.cluster

    def num_accelerators(
        self, task_type: str | None = None, task_id: int | None = None, config_proto: Any = None
    ) -> dict[str, int]:
        """Return ``{"GPU": gpus_per_task}``, whatever task is asked about, as TensorFlow does."""
        del task_type, task_id, config_proto
        return {"GPU": self._view.gpus_per_task}

    def master(
        self, task_type: str | None = None, task_id: int | None = None, rpc_layer: str | None = None
    ) -> str:
        """Return a task's address after ``<rpc_layer>://``, as ``SlurmClusterResolver.master``.

        Arguments left out take the resolver's own task; ``''`` when there is
        no task type or index.  A false ``rpc_layer`` (``''`` too) takes the
        resolver's.

        Raises:
            pydantic.ValidationError: the task is not in the cluster (TensorFlow's
                ``No such job in cluster`` / ``No task with index``).
        """
        task_type = self.task_type if task_type is None else task_type
        task_id = self.task_id if task_id is None else task_id
        if task_type is None or task_id is None:
            return ""
        try:
            address = self.cluster_spec().task_address(task_type, task_id)
        except ValueError as exc:
            raise fail(
                TITLE,
                "task_not_in_cluster",
                "{reason}",
                ("jobs",),
                {"task_type": task_type, "task_id": task_id},
                {
                    "reason": str(exc),
                    "hint": _hints.task_not_in_cluster(
                        task_type, task_id, self.cluster_spec(), "master()"
                    ),
                },
            ) from None
        layer = rpc_layer or self.rpc_layer
        return f"{layer}://{address}" if layer else address
