"""How many bytes the operator's ``TF_CONFIG``s for a TFJob take, worked out without writing them.

Every pod of a distributed TFJob gets the whole cluster in its ``TF_CONFIG``:
with ``P`` pods the texts take about ``P * P`` addresses.  A manifest of a
few hundred bytes (``replicas: 1000000``) asks for terabytes.
:func:`tf_config_size` sums the sizes from the parts of each replica spec,
in time that grows with the replica specs, not the pods: an address is its
replica type's host, its index and the rest, and the digits of the indices
``0`` to ``n - 1`` add up in closed form.
"""

from __future__ import annotations

from dataclasses import dataclass

from estconf.launchers.kubeflow.manifest import TFJob
from estconf.launchers.kubeflow.operator import (
    Job,
    Layout,
    Operator,
    PredictedPod,
    go_json,
    layout,
)

__all__ = ["TFConfigSize", "digits_below", "tf_config_size"]


@dataclass(frozen=True)
class TFConfigSize:
    """The sizes of every ``TF_CONFIG`` text a TFJob's pods get, summed over the pods.

    Example:
        >>> from estconf.kubeflow import tfjob_for_replicas
        >>> tf_config_size(tfjob_for_replicas("j", {"Chief": 1, "Worker": 1})).pods
        2
    """

    pods: int
    """The pods that get a ``TF_CONFIG``."""
    text_bytes: int
    """The UTF-8 bytes of their ``TF_CONFIG`` texts."""
    quotes: int
    """The ``'`` characters in them (a shell or YAML quoting doubles or escapes each)."""
    label_bytes: int
    """The UTF-8 bytes of their ``type:index`` labels."""
    name_bytes: int = 0
    """The UTF-8 bytes of their pods' names (``<job>-<type>-<index>``)."""


def digits_below(count: int) -> int:
    """The decimal digits of the numbers ``0`` to ``count - 1``, written one after another.

    Example:
        >>> digits_below(12) == len("".join(str(i) for i in range(12)))
        True
    """
    total, low, high, width = 0, 0, 10, 1
    while low < count:
        total += (min(count, high) - low) * width
        low, high, width = high, high * 10, width + 1
    return total


def tf_config_size(
    tfjob: TFJob,
    *,
    name: str | None = None,
    namespace: str | None = None,
    operator: Operator | None = None,
    task: tuple[str, int] | None = None,
) -> TFConfigSize:
    """The size of what :func:`~estconf.kubeflow.predict` would write, without writing it.

    Args:
        tfjob: The manifest.
        name: As :func:`~estconf.kubeflow.predict` takes it.
        namespace: As :func:`~estconf.kubeflow.predict` takes it.
        operator: As :func:`~estconf.kubeflow.predict` takes it.
        task: Only the pod of this task (``("worker", 3)``).

    Raises:
        ValueError: as :func:`~estconf.kubeflow.predict`.
    """
    plan = layout(tfjob, name=name, namespace=namespace, operator=operator)
    if not plan.distributed:
        return TFConfigSize(0, 0, 0, 0, 0)
    jobs = plan.cluster_jobs
    key = plan.operator.sparse_cluster_key if plan.dynamic else "cluster"
    # the bytes of a TF_CONFIG around its cluster, its task type and its index
    around = _utf8(_empty_pod(key, plan.dynamic).tf_config or "") - len('""0')
    dense = _cluster_size(jobs) if not plan.dynamic else (0, 0)
    pods = text = quotes = labels = names = 0
    for job in plan.jobs:
        replicas = jobs[job.task_type].replicas
        if task is None:
            count, digits = replicas, digits_below(replicas)
        elif task[0] == job.task_type and 0 <= task[1] < replicas:
            count, digits = 1, len(str(task[1]))
        else:
            continue
        own = _json(job.task_type)
        pods += count
        labels += count * (_utf8(job.task_type) + 1) + digits
        names += count * _utf8(job.host) + digits
        if plan.dynamic:
            cluster_bytes, cluster_quotes = _sparse_size(plan, job, count, digits)
        else:
            cluster_bytes, cluster_quotes = count * dense[0], count * dense[1]
        text += count * (around + _utf8(own)) + digits + cluster_bytes
        quotes += count * own.count("'") + cluster_quotes
    return TFConfigSize(pods, text, quotes, labels, names)


def _utf8(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _json(value: object) -> str:
    return go_json(value)


def _empty_pod(key: str, sparse: bool) -> PredictedPod:
    return PredictedPod(
        name="",
        replica_type="",
        replica_key="",
        task_type="",
        index=0,
        address="",
        cluster_json="",
        cluster_key=key,
        sparse=sparse,
    )


def _addresses_size(job: Job, count: int) -> tuple[int, int]:
    """The bytes and quotes of a JSON list of the first ``count`` addresses of ``job``."""
    address = _json(job.host + job.tail)  # an index adds its digits, and no escape
    items = count * _utf8(address) + digits_below(count) + max(count - 1, 0)
    return 2 + items, count * address.count("'")


def _cluster_size(jobs: dict[str, Job]) -> tuple[int, int]:
    """The bytes and quotes of the dense cluster, every job and every address."""
    size, quotes = 2 + max(len(jobs) - 1, 0), 0
    for task_type, job in jobs.items():
        name = _json(task_type)
        addresses, address_quotes = _addresses_size(job, job.replicas)
        size += _utf8(name) + 1 + addresses
        quotes += name.count("'") + address_quotes
    return size, quotes


def _sparse_size(plan: Layout, job: Job, count: int, digits: int) -> tuple[int, int]:
    """The bytes and quotes of the sparse clusters of ``count`` pods of ``job``.

    A ps sees itself, a worker itself (keyed by its index) and every ps (null
    when there is no ps job), any other pod an empty cluster.
    """
    jobs = plan.cluster_jobs
    own = _json(jobs[job.task_type].host + jobs[job.task_type].tail)
    if job.task_type == "ps":
        size = count * (_utf8(_json({"worker": {}, "ps": [""]})) - 2 + _utf8(own)) + digits
        return size, count * own.count("'")
    if job.task_type == "worker":
        ps = jobs.get("ps")
        ps_size, ps_quotes = (4, 0) if ps is None else _addresses_size(ps, ps.replicas)
        around = _utf8(_json({"worker": {"": ""}, "ps": None})) - 2 - 4
        size = count * (around + _utf8(own) + ps_size) + 2 * digits
        return size, count * (own.count("'") + ps_quotes)
    return count * _utf8(_json({"worker": {}, "ps": []})), 0
