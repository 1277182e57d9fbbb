"""The rule behind each value a reader derives from TF_CONFIG, in words (``explain --why``).

The values themselves come from the models; this module only says which of
the rules (docs/tf_config.md, docs/readers.md) gave each one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from estconf import TFConfig
    from estconf.cluster import ClusterSpec

__all__ = ["estimator_reasons", "mwms_reasons", "ps_reasons"]


def _count(cluster: ClusterSpec, job: str) -> int:
    return cluster.num_tasks(job) if job in cluster.root else 0


def _tasks(count: int, job: str) -> str:
    return f"{count} {job}" if count == 1 or job.endswith("s") else f"{count} {job}s"


def estimator_reasons(tf_config: TFConfig, facts: dict[str, Any]) -> dict[str, str]:
    """Why ``tf.estimator.RunConfig`` derives each value in ``facts`` from ``tf_config``."""
    cluster = tf_config.cluster
    task_type, task_id = facts["task_type"], facts["task_id"]
    if not cluster:
        return {
            "task": "no cluster: local mode, where the task is worker:0",
            "master": _session_master(tf_config, "no cluster and no session_master"),
            "evaluation_master": _eval_master(tf_config, "no cluster"),
            "is_chief": "local mode: the one task is the chief",
            "num_ps_replicas": "local mode: no ps",
            "num_worker_replicas": "local mode: this one task",
            "global_id_in_cluster": "local mode: the one task",
            "device_filters": "local mode: none",
        }
    if task_type == "evaluator":
        # a TPU RunConfig's cluster resolver keeps its cluster and master, even for the evaluator
        resolved = facts["cluster_spec"] != {}
        return {
            "task": "the evaluator, which is not part of the training cluster",
            "master": "the cluster resolver's master"
            if resolved
            else "the evaluator has no training master",
            "evaluation_master": _eval_master(tf_config, "the evaluator"),
            "is_chief": "the evaluator is never the chief",
            "num_ps_replicas": "the evaluator sees no training cluster",
            "num_worker_replicas": "the evaluator sees no training cluster",
            "global_id_in_cluster": "the evaluator has no id in the training cluster",
            "device_filters": "the evaluator sees no training cluster: none",
        }
    leader = "master" if "master" in cluster.root else "chief"
    workers, leaders = _count(cluster, "worker"), _count(cluster, leader)
    ps = _count(cluster, "ps")
    one_task = len(cluster.jobs) == 1 and cluster.job_size(cluster.jobs[0]) == 1
    if tf_config.session_master is not None:
        master = "session_master of TF_CONFIG"
    elif one_task:
        master = "the cluster is one job of one task, so ''"
    else:
        master = "the cluster has several tasks, so this task's address"
    return {
        "task": f"the task of TF_CONFIG, in {leader} mode: the cluster has a {leader!r} job",
        "master": master,
        "evaluation_master": "a training task has none",
        "is_chief": f"task type is {task_type}; the chief is {leader}:0",
        "num_ps_replicas": f"{_tasks(ps, 'ps')} in the cluster",
        "num_worker_replicas": f"{_tasks(workers, 'worker')} + {leaders} {leader}",
        "global_id_in_cluster": _global_id_reason(cluster, task_type, task_id, leader),
        "device_filters": _filters_reason(task_type),
    }


def _session_master(tf_config: TFConfig, otherwise: str) -> str:
    if tf_config.session_master is not None:
        return "session_master of TF_CONFIG"
    return f"{otherwise}: ''"


def _eval_master(tf_config: TFConfig, who: str) -> str:
    if tf_config.eval_session_master is not None:
        return f"{who}: eval_session_master of TF_CONFIG"
    return f"{who} and no eval_session_master: ''"


def _global_id_reason(cluster: ClusterSpec, task_type: str, task_id: int, leader: str) -> str:
    order = [leader, *sorted(job for job in cluster.jobs if job not in (leader, "ps"))]
    if "ps" in cluster.jobs:
        order.append("ps")
    before = order[: order.index(task_type)]
    counted = " + ".join(f"{cluster.job_size(job)} {job}" for job in before) or "no task"
    return (
        f"jobs in the order {', '.join(order)}: {counted} before {task_type}, then index {task_id}"
    )


def _filters_reason(task_type: str) -> str:
    if task_type in ("master", "chief", "worker", "ps"):
        return f"the default session_config of a {task_type} task"
    return f"no default session_config for a {task_type} task"


def mwms_reasons(values: dict[str, Any]) -> dict[str, str]:
    """Why ``MultiWorkerMirroredStrategy`` derives each value of ``values``."""
    if not values["multi_worker"]:
        return {"multi_worker": "no cluster: single-worker mode, the task is not read"}
    cluster: dict[str, Any] = values["cluster_spec"]
    task_type = values["task_type"]
    chiefs, workers = len(cluster.get("chief", ())), len(cluster.get("worker", ()))
    if task_type == "evaluator":
        workers_reason = "the evaluator job's size"
    else:
        workers_reason = f"{_tasks(chiefs, 'chief')} + {_tasks(workers, 'worker')}"
    leader = "chief:0" if chiefs else "worker:0"
    return {
        "multi_worker": "the cluster is not empty",
        "num_workers": workers_reason,
        "id_in_cluster": {
            "chief": "the chief is 0",
            "evaluator": "the evaluator's index",
        }.get(task_type, f"index {values['task_id']} + {_tasks(chiefs, 'chief')}"),
        "is_chief": f"task type is {task_type}; the chief is {leader}"
        if task_type != "evaluator"
        else "an evaluator is its own chief",
        "collective_leader": "task 0 of chief if there is one, else of worker",
        "coordination_leader": "task 0 of ps, else of chief, else of worker",
        "worker_device": "this task's job and index",
    }


def ps_reasons(values: dict[str, Any]) -> dict[str, str]:
    """Why ``ParameterServerStrategy`` derives each value of ``values``."""
    cluster: dict[str, Any] = values["cluster_spec"]
    return {
        "num_workers": f"{_tasks(len(cluster.get('worker', ())), 'worker')} in the cluster",
        "num_ps": f"{_tasks(len(cluster.get('ps', ())), 'ps')} in the cluster",
        "role": "the chief is the coordinator" if values["task_type"] == "chief" else "task type",
        "is_coordinator": f"task type is {values['task_type']}; the coordinator is the chief",
    }
