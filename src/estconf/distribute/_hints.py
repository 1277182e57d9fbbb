"""The fix of each refusal of the tf.distribute readers: the hint the error carries.

TensorFlow's sentence is the message, whole and unchanged, since it is what
a user searches for; the fix is the ``hint`` of the error's ``ctx``
(:func:`estconf.finding.hint_of`), which every report writes on a line of
its own.  Each function here words the fix of one rule from the input it
refused: the field to change and the value it takes, or the reader that
takes the input as it is.

A reader is named by its profile both ways a user meets it: ``the ps
profile (--profile ps)`` reads right from Python (``check_profile(tf_config,
"ps")``) and on the command line.  The hints of a rule on the task
(``task.index``) are written for the node's own ``TF_CONFIG``; the check of
every task of a cluster (:func:`estconf.profiles.check_profile`) reads each
task as a node's own, so they hold there too.  No hint lists more than a few
jobs, nor every index of a job, so that a cluster of many tasks refused at
each of them costs no more than its size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from estconf.cluster import ClusterSpec
from estconf.tf_config import TaskType, near_miss_job

__all__ = [
    "CPU_ONLY",
    "MULTI_WORKER",
    "PARAMETER_SERVER",
    "disallowed_job",
    "empty_cluster",
    "gpus_of_a_node",
    "listing",
    "missing_job_name",
    "missing_ps",
    "missing_task",
    "missing_worker",
    "multiple",
    "negative_index",
    "no_id_for_task_type",
    "no_nodes",
    "profile",
    "rank_of_the_step",
    "span",
    "sparse_job",
    "task_id_out_of_range",
    "task_index_of",
    "task_not_in_cluster",
    "task_type_not_in_cluster",
    "unrecognized_task_type",
]

_LISTED: Final = 5
"""The most names a hint lists; the others are counted."""

MULTI_WORKER: Final = "MultiWorkerConfig"
PARAMETER_SERVER: Final = "ParameterServerConfig"
"""The names the strategy models raise their errors under, on which some hints depend."""

CPU_ONLY: Final = (
    "a CPU-only job cannot use SlurmClusterResolver: write each rank's TF_CONFIG "
    "(slurm_tf_configs) and read it with TFConfigClusterResolver"
)
"""The fix of a step of 0 GPUs per task, on which ``SlurmClusterResolver`` fails."""


def profile(name: str) -> str:
    """A profile as a hint names it, for Python and the CLI: ``the ps profile (--profile ps)``."""
    return f"the {name} profile (--profile {name})"


def listing(names: Sequence[str], conjunction: str = "or") -> str:
    """``'a', 'b' or 'c'``: a few names quoted, the rest counted (``and 7 more``)."""
    quoted = [repr(name) for name in names[:_LISTED]]
    if len(names) > _LISTED:
        return f"{', '.join(quoted)} and {len(names) - _LISTED} more"
    if len(quoted) < 2:
        return "".join(quoted)
    return f"{', '.join(quoted[:-1])} {conjunction} {quoted[-1]}"


def span(count: int) -> str:
    """The indices of a job of ``count`` tasks numbered from 0: ``0``, ``0 to 3``."""
    return "0" if count == 1 else f"0 to {count - 1}"


def sparse_job(job: str, count: int) -> str:
    """A sparse job whose indices tf.distribute cannot reach: number its tasks from 0.

    The strategies count a job's tasks (holes left out) and take an index
    below that count, so only a job numbered from 0 without gaps has each of
    its tasks in reach.
    """
    return (
        f"number the tasks of job {job!r} {span(count)}, without gaps: tf.distribute counts "
        f"its {count} tasks and takes an index below that, whatever indices the job gives"
    )


def task_index_of(job: str, cluster: ClusterSpec) -> str:
    """Set ``task.index`` to the node's index in ``job``: its indices, when the job is dense."""
    tasks = cluster.root[job]
    where = f" ({span(len(tasks))})" if isinstance(tasks, list) else ""
    return f"set task.index to this node's index in job {job!r}{where}"


def disallowed_job(job: str, meant: str | None) -> str:
    """A job the strategies do not know: rename it, or read it with the server profile."""
    if meant is not None:
        return f"rename job {job!r} to {meant!r}"
    if job == TaskType.MASTER:
        return (
            "rename job 'master' to 'chief': tf.distribute has no master; a cluster with one is "
            f"for tf.estimator: check it under {profile('estimator')}"
        )
    return (
        f"rename job {job!r} to one of 'chief', 'worker', 'ps' and 'evaluator'; a TF1 program "
        f"that starts its own tf.train.Server takes any job: check it under {profile('server')}"
    )


def _task_types(cluster: ClusterSpec, reader: str) -> list[str]:
    """The task types a node of ``cluster`` may take under ``reader``, in the cluster's order.

    MultiWorkerMirroredStrategy runs no ``ps`` task and finds its evaluator in
    the cluster; ParameterServerStrategy takes an evaluator outside it too.
    """
    if reader == MULTI_WORKER:
        return [job for job in cluster.jobs if job != TaskType.PS]
    outside = [] if TaskType.EVALUATOR in cluster.root else [TaskType.EVALUATOR]
    return [*cluster.jobs, *outside]


def _coordinator_note(reader: str) -> str:
    """What else a ParameterServerStrategy's task may do: be left out, for the coordinator."""
    return ", or leave the task out on the coordinator" if reader == PARAMETER_SERVER else ""


def unrecognized_task_type(task_type: str, cluster: ClusterSpec, reader: str) -> str:
    """A task type the strategies do not know (and no job of the cluster): the node's job."""
    types = _task_types(cluster, reader)
    meant = near_miss_job(task_type, types)
    if meant is not None:
        return f"set task.type to {meant!r}"
    if not types:
        return "set task.type to this node's job in the cluster"
    return f"set task.type to this node's job: {listing(types)}{_coordinator_note(reader)}"


def task_type_not_in_cluster(task_type: str, cluster: ClusterSpec, reader: str) -> str:
    """A known task type that is no job of the cluster: add the job, or choose one of its jobs."""
    if reader == MULTI_WORKER and task_type == TaskType.PS:
        return no_id_for_task_type(task_type)
    types = [job for job in _task_types(cluster, reader) if job in cluster.root]
    others = f", or set task.type to one of its jobs ({listing(types)})" if types else ""
    return (
        f"add a job {task_type!r} holding this node's address to the cluster"
        f"{others}{_coordinator_note(reader)}"
    )


def multiple(job: str, count: int) -> str:
    """A ``chief`` or ``evaluator`` job of more than one task: keep one."""
    if job == TaskType.CHIEF:
        others = "the other task" if count == 2 else f"the other {count - 1} tasks"
        return f"keep one task in job 'chief' and move {others} into job 'worker'"
    return "keep one task in job 'evaluator': tf.distribute runs one evaluator"


def task_id_out_of_range(job: str, task_id: int, cluster: ClusterSpec) -> str:
    """An index not below its job's number of tasks: the node's index, or a job without gaps."""
    count = cluster.num_tasks(job)
    if isinstance(cluster.root[job], dict):
        return sparse_job(job, count)
    return f"{task_index_of(job, cluster)}, or add task {task_id}'s address to the job"


def negative_index(where: str = "task.index") -> str:
    """A negative index: the node's index in its job, from 0."""
    return f"set {where} to this node's index in its job, from 0"


def missing_task(cluster: ClusterSpec, task_type: str | None) -> str:
    """MultiWorkerMirroredStrategy with a cluster and no task type or index: give both."""
    alone = 'or leave out "cluster" to train on this machine alone'
    if task_type is None:
        types = [job for job in _task_types(cluster, MULTI_WORKER) if job in cluster.root]
        job = f" ({listing(types)})" if types else ""
        return f"set task.type to this node's job{job} and task.index to its index there, {alone}"
    if task_type in cluster.root:
        return f"{task_index_of(task_type, cluster)}, {alone}"
    return f"set task.index to this node's index in its job, {alone}"


def no_id_for_task_type(task_type: str) -> str:
    """A ``ps`` task under MultiWorkerMirroredStrategy: drop the job, or read it as a ps job."""
    return (
        f"MultiWorkerMirroredStrategy takes no {task_type}: drop the {task_type} job, or check "
        f"the job under {profile('ps')}"
    )


def empty_cluster() -> str:
    """ParameterServerStrategy with no cluster: give it one, or train on one machine."""
    return (
        'give "cluster" the job\'s ps and worker tasks (and its chief); to train on this machine '
        f"alone, check the TF_CONFIG under {profile('mwms')}"
    )


def missing_ps() -> str:
    """ParameterServerStrategy with no ``ps`` job: add one, or read it as a job of workers."""
    return (
        "add a job 'ps' to the cluster; a cluster without parameter servers is one for "
        f"MultiWorkerMirroredStrategy: check it under {profile('mwms')}"
    )


def missing_worker() -> str:
    """ParameterServerStrategy with no ``worker`` job: add one."""
    return (
        "add a job 'worker' to the cluster: ParameterServerStrategy trains on the workers, and "
        "the chief only coordinates them"
    )


def missing_job_name(cluster: ClusterSpec) -> str:
    """A server with no task type in a cluster of other than one job: the node's job."""
    if not cluster:
        return 'give TF_CONFIG the "cluster" the server joins, and this node\'s task in it'
    return f"set task.type to this node's job: {listing(cluster.jobs)}"


def task_not_in_cluster(
    job: object, index: object, cluster: ClusterSpec, call: str | None = None
) -> str:
    """A task the cluster has no address for: one of its tasks, or the task added to it.

    ``call`` is the method asked for the task (``master()``); ``None`` for
    the node's own task, given by ``task.type`` and ``task.index``.
    """
    if not isinstance(job, str) or job not in cluster.root:
        jobs = listing(cluster.jobs)
        if call is not None:
            return f"ask {call} for a task of the cluster: task_type {jobs}"
        return (
            f"set task.type to one of the cluster's jobs ({jobs}), or add a job {job!r} "
            "holding this node's address"
        )
    if call is not None:
        tasks = cluster.root[job]
        where = f" ({span(len(tasks))})" if isinstance(tasks, list) else ""
        return f"ask {call} for an index of job {job!r}{where}"
    return f"{task_index_of(job, cluster)}, or add task {index}'s address to the job"


def gpus_of_a_node(tasks: float, per_node: float, per_task: float) -> str:
    """More GPUs asked of a node than it has: fewer GPUs per task, or fewer tasks on it."""
    fixes = []
    if per_node // tasks >= 1:
        fixes.append(f"give gpus_per_task {int(per_node // tasks)} or less")
    if per_task and per_node // per_task >= 1:
        fits = int(per_node // per_task)
        runs = "1 task" if fits == 1 else f"{fits} tasks"
        fixes.append(f"run at most {runs} on a node (srun --ntasks-per-node {fits})")
    return ", or ".join(fixes) or "give gpus_per_node the GPUs of each node"


def no_nodes(tasks_per_node_given: bool) -> str:
    """A step of no node: its hosts, where they are given."""
    if tasks_per_node_given:
        return "give tasks_per_node each host and its number of tasks"
    return "give the step's hosts in the nodelist (node[01-04])"


def rank_of_the_step(count: int | None = None) -> str:
    """A rank outside the step (``SLURM_PROCID``): run the program in a task of the step."""
    ranks = "from 0" if count is None else f"of the step {span(count)}"
    return f"run the program in a task srun starts: srun numbers the tasks {ranks}"
