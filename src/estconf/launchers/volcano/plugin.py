"""What Volcano's tensorflow plugin writes into each pod of a Job: :func:`predict`.

Volcano v1.15.1 (``pkg/controllers/job/plugins/distributed-framework/tensorflow``)
appends ``TF_CONFIG`` to the ``env`` of every container of every pod (not its
init containers) when the Job enables the plugin (``plugins: {tensorflow:
[...]}``), unless the Job is one task of one replica.  Pod ``i`` of task
``T`` in Job ``J`` is named ``J-T-i``; the cluster lists, under ``ps``,
``worker``, ``chief`` and ``evaluator`` (in that order, a job with no pod
left out), the pods of the task each flag names (:mod:`.flags`), the
evaluator included, each at ``<hostname>.<subdomain>:<port>``: the pod's
name and the Job's, unless the task's pod template sets ``hostname`` or
``subdomain`` (then every pod of the task has that one).  The ``svc``
plugin, which Volcano adds beside it, gives each pod that hostname and
subdomain and makes the headless Service named after the Job.  The task is
``{"type": <its job, or the task's own name>, "index": i}``; there is no
``environment`` key.  The text is Go's ``encoding/json``: compact, with
``<``, ``>`` and ``&`` escaped.

The plugin's TF_CONFIG comes last in each container's ``env``, and of two
variables of one name Kubernetes keeps the last: it wins over one set by
hand.  Where the plugin writes none, a pod's program reads the TF_CONFIG its
container sets, if any (:func:`own_tf_config`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from estconf.launchers.kubernetes import Container
from estconf.launchers.volcano.flags import JOBS, Flags, parse_flags
from estconf.launchers.volcano.job import TaskSpec, VolcanoJob

__all__ = [
    "MAX_PODS",
    "SAMPLE_SIZE",
    "Layout",
    "Prediction",
    "TFConfigSize",
    "Task",
    "VolcanoPod",
    "builds_tf_config",
    "command_tf_config",
    "go_json",
    "layout",
    "own_tf_config",
    "predict",
    "tf_config_size",
]

MAX_PODS: Final = 100_000
"""The pods of a cluster :func:`predict` builds at most."""

SAMPLE_SIZE: Final = 16
"""The pods of each task a sample keeps (``sample=``): its first 15 and its last."""

_TF_CONFIG: Final = "TF_CONFIG"


def go_json(value: object) -> str:
    r"""``value`` as Go's ``encoding/json`` writes it: compact, ``<``, ``>``, ``&`` escaped.

    Example:
        >>> go_json({"a": ["x&y"]})
        '{"a":["x\\u0026y"]}'
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char in ("<", ">", "&", "\u2028", "\u2029"):
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


@dataclass(frozen=True)
class Task:
    """One task as the plugin lays out its pods."""

    position: int
    """Its place in ``spec.tasks``."""
    name: str
    replicas: int
    listed: str | None
    """The job of the cluster that lists its pods; None when no flag names it."""
    task_type: str
    """The task type its pods get."""
    host: str
    """What an address starts with before the index (``J-T-``), or the whole host name
    when the pod template sets ``hostname`` (then the index is not written)."""
    tail: str
    """What an address ends with: ``.<subdomain>:<port>``."""
    fixed_host: bool
    """Whether the pod template sets ``hostname``, which every pod of the task then has."""
    named: bool
    """Whether the manifest names the task (else Volcano names it ``default<position>``)."""

    def address(self, index: int) -> str:
        """The address of pod ``index`` in the cluster."""
        return f"{self.host}{'' if self.fixed_host else index}{self.tail}"


@dataclass(frozen=True)
class Layout:
    """What decides every pod's TF_CONFIG, worked out once per task."""

    job_name: str
    flags: Flags | None
    """The plugin's flags; None when the Job does not enable the plugin."""
    writes: bool
    """Whether the plugin writes TF_CONFIG: it is enabled and the Job is not one pod."""
    tasks: tuple[Task, ...]

    @property
    def cluster_tasks(self) -> list[Task]:
        """The tasks the cluster lists, in its order: ps, worker, chief, evaluator."""
        listed = {task.listed: task for task in self.tasks if task.listed and task.replicas}
        return [listed[job] for job in JOBS if job in listed]


def layout(job: VolcanoJob, *, name: str | None = None) -> Layout:
    """The Job's tasks as the plugin lays out their pods.

    Args:
        job: the manifest.
        name: the Job's name, for a manifest with ``generateName`` alone.

    Raises:
        ValueError: the Job has no name, or another than ``name``.
    """
    given = job.metadata.name
    if given and name and given != name:
        raise ValueError(f"the manifest's name is {given!r}, not {name!r}")
    job_name = given or name
    if not job_name:
        generated = job.metadata.generate_name
        raise ValueError(
            f"the Job has only generateName {generated!r}: its name is chosen by the API "
            "server when it is created; pass the name it got as name=NAME"
            if generated
            else "the Job has no metadata.name; pass its name as name=NAME"
        )
    arguments = job.plugin_arguments
    flags = None if arguments is None else parse_flags(arguments)
    tasks = job.spec.tasks
    single = len(tasks) == 1 and tasks[0].replicas == 1
    port = 0 if flags is None else flags.port
    laid = tuple(
        _task(job_name, position, task_name, spec, flags, port)
        for position, task_name, spec in job.tasks()
    )
    return Layout(job_name, flags, flags is not None and not single, laid)


def _task(
    job_name: str, position: int, name: str, spec: TaskSpec, flags: Flags | None, port: int
) -> Task:
    pod = spec.template.spec
    subdomain = pod.subdomain or job_name
    return Task(
        position=position,
        name=name,
        replicas=spec.replicas,
        listed=None if flags is None else flags.listed_as(name),
        task_type=name if flags is None else flags.task_type(name),
        host=pod.hostname or f"{job_name}-{name}-",
        tail=f".{subdomain}:{port}",
        fixed_host=bool(pod.hostname),
        named=bool(spec.name),
    )


@dataclass(frozen=True)
class VolcanoPod:
    """One pod of the Job: its name, its task, and the TF_CONFIG the plugin writes into it."""

    name: str
    """``<job>-<task>-<index>``."""
    task: Task
    index: int
    """Its index in its task (in a sample, among the pods kept)."""
    tf_config: str | None
    """The plugin's TF_CONFIG text; None when it writes none."""


@dataclass(frozen=True)
class Prediction:
    """Every pod of a Job and the TF_CONFIG the plugin writes into it."""

    layout: Layout
    cluster: dict[str, list[str]]
    """The cluster, by job, as every pod's TF_CONFIG lists it (empty where none is written)."""
    pods: tuple[VolcanoPod, ...]


def _indices(replicas: int, size: int | None) -> list[int]:
    if size is None or replicas <= size:
        return list(range(replicas))
    return [*range(size - 1), replicas - 1]


def predict(
    job: VolcanoJob,
    *,
    name: str | None = None,
    task: tuple[str, int] | None = None,
    sample: int | None = None,
    max_pods: int | None = MAX_PODS,
) -> Prediction:
    """Every pod's TF_CONFIG, as the plugin writes it, in pod order (tasks as written, then index).

    Args:
        job: the manifest.
        name: the Job's name, for a manifest with ``generateName`` alone.
        task: only the pods of this task (``("worker", 1)``); the cluster stays whole.
        sample: keep at most this many pods of each task, the first ones and the
            last (which is then index ``sample - 1`` in the cut-down cluster), for
            checks that cost the same for any number of pods.
        max_pods: the most pods the cluster may have (None: no bound).

    Raises:
        ValueError: as :func:`layout`; the cluster has more than ``max_pods`` pods.
    """
    plan = layout(job, name=name)
    listed = sum(t.replicas for t in plan.cluster_tasks) if plan.writes else 0
    if sample is None and max_pods is not None and listed > max_pods:
        raise ValueError(
            f"the Job's cluster has {listed:,} pods, more than the {max_pods:,} a prediction "
            "builds (max_pods)"
        )
    kept = {t.position: _indices(t.replicas, sample) for t in plan.tasks}
    cluster = {t.listed or "": [t.address(i) for i in kept[t.position]] for t in plan.cluster_tasks}
    cluster_json = go_json(cluster) if plan.writes else None
    pods = []
    for laid in plan.tasks:
        for index, real in enumerate(kept[laid.position]):
            if task is not None and task != (laid.task_type, index):
                continue
            text = None
            if cluster_json is not None:
                own = '{"type":' + go_json(laid.task_type) + ',"index":' + str(index) + "}"
                text = '{"cluster":' + cluster_json + ',"task":' + own + "}"
            pods.append(VolcanoPod(f"{plan.job_name}-{laid.name}-{real}", laid, index, text))
    return Prediction(plan, cluster if plan.writes else {}, tuple(pods))


def own_tf_config(containers: tuple[Container, ...]) -> tuple[int, int, str | None] | None:
    """The TF_CONFIG a pod's containers set by hand: ``(container, entry, value)``, or None.

    The first container that sets one, and its last entry of that name (of
    two variables with one name Kubernetes keeps the last); the value is
    None where it comes from ``valueFrom``, which only the running pod knows.
    """
    for position, container in enumerate(containers):
        entries = [i for i, variable in enumerate(container.env) if variable.name == _TF_CONFIG]
        if entries:
            return position, entries[-1], container.env[entries[-1]].value
    return None


_BUILT: Final = re.compile(r"(?<![A-Za-z0-9_])TF_CONFIG=")
"""An assignment of TF_CONFIG in a shell command (``export TF_CONFIG=...``)."""


def builds_tf_config(argument: str) -> bool:
    """Whether a command's argument assigns TF_CONFIG, as a shell script does (``sh -c``)."""
    return _BUILT.search(argument) is not None


def command_tf_config(containers: tuple[Container, ...]) -> tuple[int, str, int] | None:
    """Where a pod's containers build TF_CONFIG in their command: ``(container, key, argument)``.

    ``key`` is ``command`` or ``args``.  The value is made by the shell when
    the pod starts (Volcano's examples read the hosts from the svc plugin's
    files), so it is not known before the Job runs.
    """
    for position, container in enumerate(containers):
        for key, arguments in (("command", container.command), ("args", container.args)):
            for index, argument in enumerate(arguments or ()):
                if builds_tf_config(argument):
                    return position, key, index
    return None


@dataclass(frozen=True)
class TFConfigSize:
    """The sizes of the TF_CONFIGs the plugin writes, summed over the pods, as written out."""

    pods: int
    """The pods that get a TF_CONFIG."""
    text_bytes: int
    """The UTF-8 bytes of their TF_CONFIG texts."""
    quotes: int
    """The ``'`` characters in them."""
    label_bytes: int
    """The UTF-8 bytes of their labels (``<pod>: <type>:<index>``)."""
    name_bytes: int
    """The UTF-8 bytes of their names (``<job>-<task>-<index>``)."""


def tf_config_size(
    job: VolcanoJob, *, name: str | None = None, task: tuple[str, int] | None = None
) -> TFConfigSize:
    """The size of every TF_CONFIG :func:`predict` would write, without writing them.

    ``task``: of the pods of that task alone, as :func:`predict` takes it.

    The cluster is the same for every pod, and its addresses differ by their
    index alone, so the sizes add up in closed form, in time that grows with
    the tasks, not the pods.

    Raises:
        ValueError: as :func:`layout`.
    """
    plan = layout(job, name=name)
    if not plan.writes:
        return TFConfigSize(0, 0, 0, 0, 0)
    cluster, cluster_quotes = 2 + max(len(plan.cluster_tasks) - 1, 0), 0
    for laid in plan.cluster_tasks:
        address = go_json(laid.host + laid.tail)
        digits = 0 if laid.fixed_host else _digits_below(laid.replicas)
        cluster += len(go_json(laid.listed).encode()) + 1 + 2 + max(laid.replicas - 1, 0)
        cluster += laid.replicas * len(address.encode()) + digits
        cluster_quotes += laid.replicas * address.count("'")
    around = len('{"cluster":,"task":{"type":,"index":}}')
    pods = text = quotes = labels = names = 0
    for laid in plan.tasks:
        count, digits = laid.replicas, _digits_below(laid.replicas)
        if task is not None:
            chosen = task[0] == laid.task_type and 0 <= task[1] < laid.replicas
            count, digits = (1, len(str(task[1]))) if chosen else (0, 0)
        own = go_json(laid.task_type)
        pod = len(f"{plan.job_name}-{laid.name}-".encode())
        pods += count
        text += count * (around + cluster + len(own.encode())) + digits
        quotes += count * (cluster_quotes + own.count("'"))
        names += count * pod + digits
        labels += count * (pod + len(f": {laid.task_type}:".encode())) + 2 * digits
    return TFConfigSize(pods, text, quotes, labels, names)


def _digits_below(count: int) -> int:
    """The decimal digits of ``0`` to ``count - 1``, written one after another."""
    total, low, high, width = 0, 0, 10, 1
    while low < count:
        total += (min(count, high) - low) * width
        low, high, width = high, high * 10, width + 1
    return total


def pod_names(job: VolcanoJob, job_name: str) -> Iterator[tuple[int, str]]:
    """Each task's position and the name of its last pod (the longest), for tasks with pods."""
    for position, name, spec in job.tasks():
        if spec.replicas:
            yield position, f"{job_name}-{name}-{spec.replicas - 1}"
