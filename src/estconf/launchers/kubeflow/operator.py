"""What Kubeflow's training operator writes into each pod of a TFJob: :func:`predict`.

The operator (release v1.9.0 by default; v1.7.0 to v1.9.0 write the same)
gives every pod of a distributed TFJob a ``TF_CONFIG`` on its ``tensorflow``
container.  Pod ``i`` of replica type ``T`` is task ``i`` of the job named
``T`` in lower case, reached through a headless Service at
``<job name>-<t>-<i>.<namespace>.svc[.<cluster domain>]:<port of T>``.  The
cluster lists every replica type, the evaluator included, and the TF_CONFIG
adds ``"environment": "cloud"``.  A job of one replica in total gets no
TF_CONFIG.  With ``enableDynamicWorker`` each pod sees a sparse cluster
instead: a worker itself and every ps, a ps itself, any other type nothing.

The cluster domain is the operator's ``CUSTOM_CLUSTER_DOMAIN`` setting (an
environment variable of the operator's own deployment), not anything in the
manifest.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from estconf.launchers.kubeflow.manifest import (
    API_GROUP,
    DEFAULT_CONTAINER_NAME,
    DEFAULT_PORT,
    DEFAULT_PORT_NAME,
    REPLICA_TYPES,
    SERVED_VERSION,
    TFJob,
    equal_fold,
)

__all__ = [
    "DEFAULT_NAMESPACE",
    "RELEASES",
    "SAMPLE_SIZE",
    "Job",
    "Layout",
    "Operator",
    "PredictedPod",
    "Prediction",
    "Release",
    "go_json",
    "layout",
    "predict",
    "predict_replicas",
    "predict_sample",
    "task_type_of",
    "tfjob_for_replicas",
]

Release = Literal["v1.9.0", "v1.6.0"]
"""An operator release whose TF_CONFIG this module writes.

``v1.9.0`` (also what v1.7.0 to v1.8.1 write) and ``v1.6.0`` (v1.0.1 to
v1.6.0), which differ in one thing: under ``enableDynamicWorker`` the older
releases put the sparse cluster under ``sparseCluster``, a key TensorFlow
never reads.
"""

RELEASES: Final[tuple[Release, ...]] = ("v1.9.0", "v1.6.0")
DEFAULT_NAMESPACE: Final = "default"
CLOUD: Final = "cloud"


class Operator(BaseModel):
    """How the training operator that runs the job is set up.

    Example:
        >>> Operator(cluster_domain="cluster.local").release
        'v1.9.0'
    """

    model_config = ConfigDict(frozen=True)

    release: Release = Field("v1.9.0", description="The operator's release; see `Release`.")
    cluster_domain: str | None = Field(
        None,
        description="The operator's `CUSTOM_CLUSTER_DOMAIN`, written after `svc` in addresses.",
    )

    @property
    def sparse_cluster_key(self) -> str:
        """The TF_CONFIG key under which ``enableDynamicWorker`` puts the sparse cluster."""
        return "sparseCluster" if self.release == "v1.6.0" else "cluster"


class PredictedPod(BaseModel):
    """One pod of the TFJob: its name, its task, and the TF_CONFIG the operator gives it."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(description="The pod's (and its Service's) name, `<job>-<type>-<index>`.")
    replica_type: str = Field(description="The replica type, as the operator names it (`PS`).")
    replica_key: str = Field(description="The key of its replica spec in the manifest.")
    task_type: str = Field(description="Its job in the cluster: the type in lower case (`ps`).")
    index: int = Field(description="Its task index, 0 to replicas - 1.")
    address: str = Field(description="Its address in the cluster, `host:port`.")
    cluster_json: str | None = Field(
        None,
        exclude=True,
        repr=False,
        description="The JSON text of the cluster it sees; None when it gets no TF_CONFIG.",
    )
    cluster_key: str = Field("cluster", exclude=True, repr=False)
    sparse: bool = Field(False, description="Whether its cluster is enableDynamicWorker's.")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def tf_config(self) -> str | None:
        """The exact ``TF_CONFIG`` value of the ``tensorflow`` container, or None when unset."""
        if self.cluster_json is None:
            return None
        task = '{"type":' + go_json(self.task_type) + ',"index":' + str(self.index) + "}"
        text = '{"' + self.cluster_key + '":' + self.cluster_json + ',"task":' + task
        return text + ("}" if self.sparse else ',"environment":"cloud"}')

    def tf_config_dict(self) -> dict[str, Any] | None:
        """The ``TF_CONFIG`` as the JSON object it is, or None when unset."""
        text = self.tf_config
        return None if text is None else dict(json.loads(text))


class Prediction(BaseModel):
    """Every pod of a TFJob and what the operator sets in it."""

    model_config = ConfigDict(frozen=True)

    job_name: str = Field(description="The TFJob's name.")
    namespace: str = Field(description="The TFJob's namespace.")
    operator: Operator = Field(description="The operator release and setup predicted.")
    distributed: bool = Field(
        description="False when the known replica types add up to one pod: no TF_CONFIG at all."
    )
    dynamic_worker: bool = Field(description="`spec.enableDynamicWorker`.")
    cluster: dict[str, list[str]] = Field(
        description="The whole cluster: each job (lower-cased type) and its addresses by index."
    )
    pods: tuple[PredictedPod, ...] = Field(description="Every pod, replica spec by spec.")

    def pod(self, task_type: str, index: int) -> PredictedPod:
        """The pod of a task (``"ps"``, 0).

        Raises:
            KeyError: no pod is that task.
        """
        pod = self._by_task.get((task_type, index))
        if pod is None:
            raise KeyError(f"no pod of this TFJob is task {task_type}:{index}")
        return pod

    @cached_property
    def _by_task(self) -> dict[tuple[str, int], PredictedPod]:
        return {(pod.task_type, pod.index): pod for pod in self.pods}


MAX_PODS: Final = 100_000
"""The pods of a cluster :func:`predict` builds at most, unless told otherwise."""

SAMPLE_SIZE: Final = 16
"""The pods of each replica type :func:`predict_sample` keeps: its first 15 and its last."""


def predict(
    tfjob: TFJob,
    *,
    name: str | None = None,
    namespace: str | None = None,
    operator: Operator | None = None,
    task: tuple[str, int] | None = None,
    max_pods: int | None = MAX_PODS,
) -> Prediction:
    """Predict every pod's ``TF_CONFIG`` as the operator will write it.

    The prediction holds every pod, and each pod's ``TF_CONFIG`` holds every
    pod's address: its size grows as the square of the pods.  Work out the
    size first with :func:`estconf.launchers.kubeflow.size.tf_config_size`, or check
    a large job with :func:`predict_sample`.

    Args:
        tfjob: The manifest.
        name: The job's name when the manifest has only ``generateName`` (the
            API server picks the name then); it must agree with a name the
            manifest gives.
        namespace: The namespace when the manifest gives none (``kubectl -n``);
            default ``default``.  It must agree with one the manifest gives.
        operator: The operator's release and cluster domain.
        task: Only the pod of this task (``("worker", 3)``), none if no pod
            is; the cluster stays whole.
        max_pods: The most pods the cluster may have (``None``: no bound).
            Every pod's address is built, even for one ``task``, so a
            manifest of a few bytes (``replicas: 2147483647``) would exhaust
            the memory.

    Raises:
        ValueError: the job has no name, the names or namespaces disagree,
            two keys name one replica type so that the operator's result
            depends on its map order, or the cluster has more than
            ``max_pods`` pods.
    """
    plan = layout(tfjob, name=name, namespace=namespace, operator=operator)
    pods = sum(job.replicas for job in plan.cluster_jobs.values())
    if max_pods is not None and pods > max_pods:
        raise ValueError(
            f"the TFJob's cluster has {pods:,} pods, more than the {max_pods:,} a prediction "
            "builds (max_pods)"
        )
    return _predict(plan, None, task)


def predict_sample(
    tfjob: TFJob,
    *,
    name: str | None = None,
    namespace: str | None = None,
    operator: Operator | None = None,
    size: int = SAMPLE_SIZE,
) -> Prediction:
    """The prediction of the job cut down to at most ``size`` pods of each replica type.

    A replica type of more pods keeps its first ``size - 1`` and its last,
    each with its own name and address; in the cut-down cluster the last one
    is task ``size - 1``.  What a reader checks of a cluster tells the two
    apart by nothing but that index: every job keeps its first pod, its last
    (the longest address) and more than one task when it had more, and the
    addresses of one job differ by their index only.  So the checks of a job
    of a million pods cost what those of ``size`` pods a type cost.

    Raises:
        ValueError: as :func:`predict`; ``size`` is below 2.
    """
    if size < 2:
        raise ValueError(f"a sample keeps the first and last pod of each type: size {size} < 2")
    return _predict(layout(tfjob, name=name, namespace=namespace, operator=operator), size)


@dataclass(frozen=True)
class Job:
    """One replica spec as the operator makes it a job of the cluster."""

    key: str
    """The replica spec's key in the manifest."""
    replica_type: str
    """The replica type the operator makes of the key (``PS``)."""
    task_type: str
    """The job's name in the cluster: the type in lower case (``ps``)."""
    host: str
    """The pods' host names before their index: ``<job name>-<type>-``."""
    tail: str
    """What follows the index in an address: ``.<namespace>.svc[.<domain>]:<port>``."""
    replicas: int
    """How many pods."""

    def address(self, index: int) -> str:
        """The address of pod ``index``."""
        return f"{self.host}{index}{self.tail}"


@dataclass(frozen=True)
class Layout:
    """What decides every pod's ``TF_CONFIG``, worked out once per replica spec."""

    job_name: str
    namespace: str
    operator: Operator
    distributed: bool
    dynamic: bool
    jobs: tuple[Job, ...]
    """One per replica spec the operator uses, in order."""

    @property
    def cluster_jobs(self) -> dict[str, Job]:
        """The job that gives each cluster job its addresses (of two keys, the last)."""
        return {job.task_type: job for job in self.jobs}


def layout(
    tfjob: TFJob,
    *,
    name: str | None = None,
    namespace: str | None = None,
    operator: Operator | None = None,
) -> Layout:
    """The job's name, namespace and replica specs as the operator lays out its pods.

    Raises:
        ValueError: as :func:`predict`.
    """
    operator = operator or Operator()
    job_name = _agreed("name", tfjob.metadata.name, name)
    if job_name is None:
        generated = tfjob.metadata.generate_name
        raise ValueError(
            f"the TFJob has only generateName {generated!r}: its name is chosen by the API "
            "server when it is created; pass the name it got as name=NAME"
            if generated
            else "the TFJob has no metadata.name; pass its name as name=NAME"
        )
    job_namespace = _agreed("namespace", tfjob.metadata.namespace, namespace) or DEFAULT_NAMESPACE
    if tfjob.ambiguous_replica_types:
        raise ValueError(
            "two replica specs name the type "
            f"{', '.join(tfjob.ambiguous_replica_types)} in other letter cases: which one the "
            "operator uses depends on its map order"
        )
    suffix = (
        "."
        + job_namespace
        + ".svc"
        + ("." + operator.cluster_domain if operator.cluster_domain else "")
    )
    specs = list(tfjob.replica_specs())
    counted = sum(spec.replica_count for _, rtype, spec in specs if rtype in REPLICA_TYPES)
    jobs = tuple(
        Job(
            key=key,
            replica_type=replica_type,
            task_type=task_type_of(replica_type),
            host=_host_prefix(job_name, replica_type),
            tail=f"{suffix}:{spec.port}",
            replicas=spec.replica_count,
        )
        for key, replica_type, spec in specs
    )
    return Layout(
        job_name=job_name,
        namespace=job_namespace,
        operator=operator,
        distributed=counted != 1,
        dynamic=tfjob.spec.enable_dynamic_worker,
        jobs=jobs,
    )


def _indices(replicas: int, size: int | None) -> list[int]:
    if size is None or replicas <= size:
        return list(range(replicas))
    return [*range(size - 1), replicas - 1]


def _predict(plan: Layout, size: int | None, task: tuple[str, int] | None = None) -> Prediction:
    indices = {job.task_type: _indices(job.replicas, size) for job in plan.cluster_jobs.values()}
    cluster = {
        task_type: [job.address(i) for i in indices[task_type]]
        for task_type, job in plan.cluster_jobs.items()
    }
    distributed, dynamic = plan.distributed, plan.dynamic
    dense = _cluster_json(cluster) if distributed and not dynamic else None
    cluster_key = plan.operator.sparse_cluster_key if dynamic else "cluster"
    pods = [
        PredictedPod(
            name=job.host + str(real),
            replica_type=job.replica_type,
            replica_key=job.key,
            task_type=job.task_type,
            index=index,
            address=address,
            cluster_json=(
                dense
                if dense is not None or not distributed
                else _sparse_cluster_json(cluster, job.task_type, index)
            ),
            cluster_key=cluster_key,
            sparse=dynamic,
        )
        for job in plan.jobs
        for index, (real, address) in enumerate(
            zip(indices[job.task_type], cluster[job.task_type], strict=True)
        )
        if task is None or task == (job.task_type, index)
    ]
    return Prediction(
        job_name=plan.job_name,
        namespace=plan.namespace,
        operator=plan.operator,
        distributed=distributed,
        dynamic_worker=dynamic,
        cluster=cluster,
        pods=tuple(pods),
    )


def tfjob_for_replicas(
    job_name: str,
    replicas: Mapping[str, int],
    *,
    namespace: str = DEFAULT_NAMESPACE,
    port: int | Mapping[str, int] = DEFAULT_PORT,
    image: str = "tensorflow/tensorflow",
    enable_dynamic_worker: bool = False,
) -> TFJob:
    """The smallest TFJob with the given replica counts (``{"chief": 1, "worker": 4}``).

    Replica types are matched in any letter case, as the operator does; each
    gets a ``tensorflow`` container with its ``tfjob-port``: ``port``, or
    ``port[type]`` (2222 for a type it leaves out).

    Example:
        >>> job = tfjob_for_replicas("mnist", {"chief": 1, "ps": 2}, namespace="ml")
        >>> job.replica_types
        {'chief': 'Chief', 'ps': 'PS'}
    """

    def port_of(replica_type: str) -> int:
        if isinstance(port, int):
            return port
        for key, value in port.items():
            if key == replica_type or any(
                equal_fold(key, known) and equal_fold(replica_type, known)
                for known in REPLICA_TYPES
            ):
                return value
        return DEFAULT_PORT

    return TFJob.model_validate(
        {
            "apiVersion": f"{API_GROUP}/{SERVED_VERSION}",
            "kind": "TFJob",
            "metadata": {"name": job_name, "namespace": namespace},
            "spec": {
                "enableDynamicWorker": enable_dynamic_worker,
                "tfReplicaSpecs": {
                    replica_type: {
                        "replicas": count,
                        "template": {
                            "spec": {
                                "containers": [
                                    {
                                        "name": DEFAULT_CONTAINER_NAME,
                                        "image": image,
                                        "ports": [
                                            {
                                                "name": DEFAULT_PORT_NAME,
                                                "containerPort": port_of(replica_type),
                                            }
                                        ],
                                    }
                                ]
                            }
                        },
                    }
                    for replica_type, count in replicas.items()
                },
            },
        }
    )


def predict_replicas(
    job_name: str,
    replicas: Mapping[str, int],
    *,
    namespace: str = DEFAULT_NAMESPACE,
    port: int | Mapping[str, int] = DEFAULT_PORT,
    cluster_domain: str | None = None,
    enable_dynamic_worker: bool = False,
    release: Release = "v1.9.0",
) -> Prediction:
    """Every task's TF_CONFIG for a TFJob with these replica counts, as the operator writes them.

    The same as :func:`predict` on :func:`tfjob_for_replicas`.

    Example:
        >>> prediction = predict_replicas("mnist", {"Chief": 1, "Worker": 1}, namespace="ml")
        >>> prediction.pod("worker", 0).tf_config
        '{"cluster":{"chief":["mnist-chief-0.ml.svc:2222"],"worker":["mnist-worker-0.ml.svc:2222"]},"task":{"type":"worker","index":0},"environment":"cloud"}'
    """
    tfjob = tfjob_for_replicas(
        job_name,
        replicas,
        namespace=namespace,
        port=port,
        enable_dynamic_worker=enable_dynamic_worker,
    )
    return predict(tfjob, operator=Operator(release=release, cluster_domain=cluster_domain))


def _agreed(what: str, given: str | None, argument: str | None) -> str | None:
    if given and argument and given != argument:
        raise ValueError(f"the manifest's {what} is {given!r}, not {argument!r}")
    return given or argument


def task_type_of(text: str) -> str:
    """The job name of a replica type in the cluster: the type in lower case, as Go lowers it.

    Go lowers rune by rune with the simple mapping: no final sigma, and
    ``İ`` becomes a plain ``i`` where Python adds a combining dot.

    Example:
        >>> task_type_of("PS"), task_type_of("Evaluator")
        ('ps', 'evaluator')
    """
    return "".join("i" if char == "\u0130" else char.lower() for char in text)


def _host_prefix(job_name: str, replica_type: str) -> str:
    return (job_name + "-" + task_type_of(replica_type) + "-").replace("/", "-")


def go_json(value: Any) -> str:
    r"""``value`` as Go's ``encoding/json`` writes it: compact, strings escaped as Go does.

    Go escapes ``<``, ``>``, ``&``, U+2028 and U+2029 in strings.

    Example:
        >>> go_json({"job": ["a&b:1", 2]})
        '{"job":["a\\u0026b:1",2]}'
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escape)
    return text


def _cluster_json(cluster: Mapping[str, list[str]]) -> str:
    # The operator's cluster is a Go map, which encoding/json writes with sorted keys.
    return go_json({job: cluster[job] for job in sorted(cluster)})


def _sparse_cluster_json(cluster: Mapping[str, list[str]], job: str, index: int) -> str:
    if job == "ps":
        workers: dict[str, str] = {}
        ps: list[str] | None = [cluster[job][index]]
    elif job == "worker":
        workers = {str(index): cluster[job][index]}
        ps = cluster.get("ps")  # a Go nil slice: null when the job has no PS
    else:
        workers, ps = {}, []
    return go_json({"worker": workers, "ps": ps})
