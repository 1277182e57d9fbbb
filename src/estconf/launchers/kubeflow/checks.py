"""Checking a TFJob before it runs: :func:`check`.

A TFJob's mistakes show up only once its pods are scheduled: a pod the
program refuses to start, a port that is not the one in the cluster.
:func:`check` reports, each at the place in the manifest that causes it:

1. how the manifest was read (notes);
2. what the operator's admission webhook refuses (``kubectl apply`` fails);
3. what the operator does silently that is likely a mistake;
4. what the program in each pod would refuse in the ``TF_CONFIG`` the operator
   writes: by default what ``tf.estimator.RunConfig`` refuses; another
   reader plugs in as ``node_check``, and whole-job checks as ``cluster_check``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Final

from estconf.codes import checked
from estconf.finding import Finding, Loc
from estconf.launchers.kubeflow._webhook import (
    GENERATED_SUFFIX,
    dns1035_label_errors,
    webhook_refusals,
)
from estconf.launchers.kubeflow.lifecycle import lifecycle_findings
from estconf.launchers.kubeflow.manifest import (
    API_GROUP,
    DEFAULT_CONTAINER_NAME,
    DEFAULT_PORT,
    DEFAULT_PORT_NAME,
    OLDER_VERSIONS,
    REPLICA_TYPES,
    SERVED_VERSION,
    TFJob,
)
from estconf.launchers.kubeflow.operator import (
    Operator,
    PredictedPod,
    Prediction,
    predict_sample,
    task_type_of,
)
from estconf.launchers.refusals import NodeCheck, problems, refused_as_written, shorten
from estconf.profiles.registry import REGISTRY, Profile

__all__ = ["ClusterCheck", "NodeCheck", "api_version_finding", "check", "run_config_check"]

ClusterCheck = Callable[[Prediction], Iterable[tuple[str | None, str]]]
"""Looks at every pod of a prediction at once; yields ``(pod name or None, problem)``."""

_SPECS: Final[Loc] = ("spec", "tfReplicaSpecs")
_BY_HAND: Final = "the pod refuses the TF_CONFIG set by hand"
_TF_CONFIG: Final = "TF_CONFIG"
_OTHER_TASK = re.compile(r"task ([^:\s]+):\d+ of this cluster")
# MultiWorkerMirroredStrategy's words for a pod of a job it does not run (a ps)
_NO_TASK_ID = re.compile(r"no id for task_type '([^']+)'")
_HINTS: Final = {
    "missing_chief": "add a Chief (replicas: 1) for tf.estimator.RunConfig without "
    "train_distribute; or check the job with --profile mwms (MultiWorkerMirroredStrategy, or an "
    "Estimator given train_distribute)",
    "multiple_chiefs": "set replicas: 1 on the Chief (or Master)",
    "chief_with_master": "keep one of Chief and Master",
    "evaluator_with_master": "rename Master to Chief: an evaluator needs a Chief",
    "empty_job": "give the replica spec replicas: 1 or more, or remove it",
    "job_name": "name the replica type with letters, digits and '_' only",
    "local_task_type": "this operator release puts the cluster under sparseCluster, which "
    "TensorFlow never reads: upgrade the operator to v1.7.0 or later, or drop "
    "enableDynamicWorker",
    "local_task_index": "this operator release puts the cluster under sparseCluster, which "
    "TensorFlow never reads: upgrade the operator to v1.7.0 or later, or drop "
    "enableDynamicWorker",
}
# missing_chief in a job with PS replicas: the job of a ParameterServerStrategy
_MISSING_CHIEF_PS_HINT: Final = (
    "add a Chief (replicas: 1) for tf.estimator.RunConfig without train_distribute; or check "
    "the job with --profile ps (ParameterServerStrategy) or --profile server (a TF1 job such "
    "as dist-mnist)"
)
_OTHER_TASK_HINTS: Final = {
    "ps": "drop the PS replicas (MultiWorkerMirroredStrategy has no parameter servers), or "
    "check the job with --profile ps",
}
_DYNAMIC_HINT: Final = (
    "enableDynamicWorker cuts each pod's cluster down to itself and the PS: drop it, or give "
    "the job PS and Worker replicas only"
)


def run_config_check(tf_config: dict[str, Any]) -> None:
    """Refuse a TF_CONFIG as ``tf.estimator.RunConfig`` does (the default per-pod check).

    It is the ``estimator`` profile's reader (:meth:`~estconf.profiles.registry.ProfileEntry.read`).
    """
    REGISTRY[Profile.ESTIMATOR].read(tf_config)


def check(
    tfjob: TFJob,
    *,
    name: str | None = None,
    namespace: str | None = None,
    operator: Operator | None = None,
    node_check: NodeCheck | None = run_config_check,
    cluster_check: ClusterCheck | None = None,
    profile: str | None = None,
) -> tuple[Finding, ...]:
    """Everything likely to go wrong with ``tfjob``, located in the manifest.

    Args:
        tfjob: The manifest.
        name: The job's name when the manifest has only ``generateName``;
            without it the checks use ``generateName`` followed by five
            characters, as long as the name the API server will give.
        namespace: The namespace when the manifest gives none (default ``default``).
        operator: The operator's release and cluster domain.
        node_check: Reads one pod's predicted TF_CONFIG and raises ``ValueError``
            when the pod's program would refuse it; None to skip.  It runs on
            the first and last pod of each replica type: the pods of a type
            differ only in their index, 0 to replicas - 1.
        cluster_check: Looks at every pod of the prediction at once.
        profile: The reader the pods run (``estimator``, ``mwms``, ``ps``), for
            the rules of the job's lifecycle that depend on it; None for none.

    The checks read :func:`~estconf.launchers.kubeflow.operator.predict_sample`'s
    prediction: a replica type of more than 16 pods is read as its first 15
    and its last, so a check costs the same for a job of 20 pods and of a
    million, and no more than the job's replica specs.
    """
    operator = operator or Operator()
    findings = _notes(tfjob, name)
    findings += webhook_refusals(tfjob)
    findings += _replica_type_findings(tfjob)
    findings += _port_findings(tfjob)
    if tfjob.ambiguous_replica_types:
        return tuple(findings)
    if not tfjob.metadata.name and not name:
        name = (tfjob.metadata.generate_name or "") + GENERATED_SUFFIX
    # The first and last pods of each type stand for all: a job of a million
    # pods is checked at the cost of a few (see predict_sample).
    prediction = predict_sample(tfjob, name=name, namespace=namespace, operator=operator)
    hand_set = _tf_config_set(tfjob, prediction, node_check)
    findings += hand_set
    findings += _single_replica(prediction, hand_set)
    findings += _service_names(tfjob, prediction)
    findings += _dynamic_worker(tfjob, prediction)
    findings += lifecycle_findings(tfjob, prediction, profile)
    if node_check is not None and prediction.distributed:
        findings += _node_findings(tfjob, prediction, node_check)
    if cluster_check is not None:
        keys = {pod.name: pod.replica_key for pod in prediction.pods}
        for pod_name, problem in cluster_check(prediction):
            key = keys.get(pod_name) if pod_name else None
            findings.append(
                Finding.at(
                    checked("tfjob_cluster_check"),
                    f"pod {pod_name}: {problem}" if pod_name else problem,
                    _SPECS if key is None else (*_SPECS, key),
                )
            )
    return tuple(findings)


def api_version_finding(api_version: object) -> Finding | None:
    """The refusal of a TFJob of an earlier ``kubeflow.org`` version, whose specs read as v1's.

    None for ``kubeflow.org/v1``, and for what is no TFJob's apiVersion (the
    model refuses that).  It needs the apiVersion alone, so it is reported
    also beside what the model refuses in the rest of the manifest.
    """
    if not isinstance(api_version, str):
        return None
    group, _, version = api_version.partition("/")
    if group != API_GROUP or version not in OLDER_VERSIONS:
        return None
    # The operator's CRD serves one version: the API server knows no other.
    return Finding.at(
        checked("tfjob_api_version"),
        f"the operator has served TFJob as {API_GROUP}/{SERVED_VERSION} only since "
        f'v1.0: kubectl apply fails (no matches for kind "TFJob" in version '
        f'"{api_version}"); the rest is checked as {SERVED_VERSION}, whose replica '
        f"specs have the shape of {version}'s",
        ("apiVersion",),
        hint=f"write apiVersion: {API_GROUP}/{SERVED_VERSION}",
        refused=True,
    )


def _notes(tfjob: TFJob, name: str | None) -> list[Finding]:
    notes = []
    older = api_version_finding(tfjob.api_version)
    if older is not None:
        notes.append(older)
    if not tfjob.metadata.name and tfjob.metadata.generate_name:
        chosen = name or f"{tfjob.metadata.generate_name}{GENERATED_SUFFIX}"
        notes.append(
            Finding.at(
                checked("tfjob_generate_name"),
                "the job has no name until the API server gives it one (generateName "
                f"followed by five characters); the addresses are checked as {chosen!r}",
                ("metadata", "generateName"),
                severity="note",
            )
        )
    return notes


def _replica_type_findings(tfjob: TFJob) -> list[Finding]:
    findings = []
    for key, replica_type in tfjob.shadowed_replica_keys.items():
        ambiguous = replica_type in tfjob.ambiguous_replica_types
        findings.append(
            Finding.at(
                checked("tfjob_duplicate_replica_type"),
                f"{key!r} names the replica type {replica_type} as another key does: "
                + (
                    "which spec the operator keeps depends on its map order, and the other "
                    "stays as an unknown type that lower-cases to the same job"
                    if ambiguous
                    else "the operator drops this spec and keeps the other"
                ),
                (*_SPECS, key),
                severity="error" if ambiguous else "warning",
                hint=f"keep one replica spec for {replica_type}",
            )
        )
    for key, replica_type in tfjob.replica_types.items():
        if replica_type not in REPLICA_TYPES:
            findings.append(
                Finding.at(
                    checked("tfjob_unknown_replica_type"),
                    f"the operator knows the replica types {', '.join(REPLICA_TYPES)} (in "
                    f"any letter case), not {key!r}: it still creates its pods and puts them in "
                    "the cluster, but leaves them out when it decides whether the job has more "
                    "than one pod",
                    (*_SPECS, key),
                    severity="warning",
                )
            )
    return findings


def _port_findings(tfjob: TFJob) -> list[Finding]:
    findings = []
    for key, spec in (tfjob.spec.tf_replica_specs or {}).items():
        containers = spec.template.spec.containers
        for position, container in enumerate(containers):
            at = (*_SPECS, key, "template", "spec", "containers", position, "ports")
            named = [i for i, port in enumerate(container.ports) if port.name == DEFAULT_PORT_NAME]
            if position == spec.tensorflow_container:
                if container.ports and not named:
                    ports = ", ".join(
                        f"{port.container_port} ({port.name or 'no name'})"
                        for port in container.ports
                    )
                    findings.append(
                        Finding.at(
                            checked("tfjob_port_not_named"),
                            f"the {DEFAULT_CONTAINER_NAME} container declares port "
                            f"{ports} but none named {DEFAULT_PORT_NAME}: the operator adds "
                            f"{DEFAULT_PORT_NAME} {DEFAULT_PORT} and the cluster says "
                            f"{DEFAULT_PORT}",
                            at,
                            severity="warning",
                            hint=f"name the port TensorFlow listens on {DEFAULT_PORT_NAME!r}",
                        )
                    )
                for i in named[:1]:
                    number = container.ports[i].container_port
                    if not 1 <= number <= 65535:
                        findings.append(
                            Finding.at(
                                checked("tfjob_port_invalid"),
                                f"port {number} is not a port (1 to 65535): Kubernetes "
                                "refuses the pods and Services",
                                (*at, i, "containerPort"),
                            )
                        )
            elif named and spec.tensorflow_container is not None:
                # with no tensorflow container at all, the webhook's refusal names this one
                findings.append(
                    Finding.at(
                        checked("tfjob_port_other_container"),
                        f"container {container.name!r} has a port named "
                        f"{DEFAULT_PORT_NAME}, but only the {DEFAULT_CONTAINER_NAME} container's "
                        f"counts: the cluster says {spec.port}",
                        (*at, named[0]),
                        severity="warning",
                        hint=f"move the port to the container named {DEFAULT_CONTAINER_NAME!r}",
                    )
                )
    return findings


def _tf_config_set(
    tfjob: TFJob, prediction: Prediction, node_check: NodeCheck | None
) -> list[Finding]:
    """A TF_CONFIG set by hand on a ``tensorflow`` container.

    In a distributed job the operator's own comes after it and wins: a mistake.
    In a job of one pod the operator sets none, so the pod's program reads
    this one: a note, and its value is checked as the operator's would be.
    """
    findings = []
    for key, _, spec in tfjob.replica_specs():
        position = spec.tensorflow_container
        if position is None:
            continue
        for i, variable in enumerate(spec.template.spec.containers[position].env):
            if variable.name != _TF_CONFIG:
                continue
            location = (*_SPECS, key, "template", "spec", "containers", position, "env", i)
            if prediction.distributed:
                findings.append(
                    Finding.at(
                        checked("tfjob_tf_config_set"),
                        "the operator appends its own TF_CONFIG to this container, and "
                        "of two variables with one name the last wins: this one is never seen",
                        location,
                        severity="warning",
                        hint="remove it: the operator writes TF_CONFIG for every pod",
                    )
                )
                continue
            findings.append(
                Finding.at(
                    checked("tfjob_tf_config_set"),
                    "the job has one pod, so the operator sets no TF_CONFIG and this one "
                    "is used as written",
                    location,
                    severity="note",
                )
            )
            if node_check is not None and isinstance(variable.value, str):
                findings += refused_as_written(
                    variable.value, node_check, (*location, "value"), prefix="tfjob_", lead=_BY_HAND
                )
    return findings


def _single_replica(prediction: Prediction, hand_set: list[Finding]) -> list[Finding]:
    if prediction.distributed:
        return []
    alone = (
        "its program reads the one set by hand"
        if hand_set
        else "the pod runs alone (the Estimator in local mode)"
    )
    return [
        Finding.at(
            checked("tfjob_single_replica"),
            "the replica types the operator knows add up to one pod: it sets no "
            f"TF_CONFIG, and {alone}",
            _SPECS,
            severity="note",
            hint="for distributed training give more replicas",
        )
    ]


def _service_names(tfjob: TFJob, prediction: Prediction) -> list[Finding]:
    findings = []
    last: dict[str, PredictedPod] = {}
    for pod in prediction.pods:
        last[pod.replica_key] = pod
    for key, pod in last.items():
        errors = dns1035_label_errors(pod.name)
        if errors and not dns1035_label_errors(prediction.job_name):
            findings.append(
                Finding.at(
                    checked("tfjob_service_name"),
                    f"the operator names the Service of pod {pod.index} {pod.name!r}, "
                    f"which Kubernetes refuses ({'; '.join(errors)}): its address does not "
                    "resolve",
                    (*_SPECS, key),
                    hint="shorten the TFJob's name" if len(pod.name) > 63 else None,
                )
            )
    return findings


def _dynamic_worker(tfjob: TFJob, prediction: Prediction) -> list[Finding]:
    if not (prediction.dynamic_worker and prediction.distributed):
        return []
    at: Loc = ("spec", "enableDynamicWorker")
    if prediction.operator.release == "v1.6.0":
        return [
            Finding.at(
                checked("tfjob_sparse_cluster_ignored"),
                "operators before v1.7.0 put the cluster under sparseCluster, which "
                "TensorFlow never reads: every pod runs as if it were alone",
                at,
                hint=_HINTS["local_task_type"],
            )
        ]
    findings = []
    if "ps" not in prediction.cluster:
        findings.append(
            Finding.at(
                checked("tfjob_dynamic_worker_ps_null"),
                'with no PS replicas each worker gets "ps": null, on which '
                "TensorFlow's TFConfigClusterResolver fails with a TypeError",
                at,
                hint="add PS replicas or drop enableDynamicWorker",
            )
        )
    for key, replica_type, spec in tfjob.replica_specs():
        if replica_type not in ("PS", "Worker") and spec.replica_count:
            findings.append(
                Finding.at(
                    checked("tfjob_dynamic_worker_empty_cluster"),
                    "with enableDynamicWorker the operator gives these pods the cluster "
                    '{"worker": {}, "ps": []}, with no task of their own',
                    (*_SPECS, key),
                    hint=_DYNAMIC_HINT,
                )
            )
    return findings


def _node_findings(tfjob: TFJob, prediction: Prediction, node_check: NodeCheck) -> list[Finding]:
    keys = {task_type_of(replica_type): key for key, replica_type, _ in tfjob.replica_specs()}
    groups: dict[tuple[Loc, str], tuple[str, list[PredictedPod]]] = {}
    for pod in _ends_of_each_type(prediction):
        tf_config = pod.tf_config_dict()
        if tf_config is None:
            continue
        try:
            node_check(tf_config)
        except ValueError as exc:
            for code, message, job in problems(exc, other_task=_OTHER_TASK):
                # Under enableDynamicWorker a pod's cluster is cut down for it: the
                # cause of what it refuses is its own replica spec.
                dynamic = prediction.dynamic_worker and job
                key = pod.replica_key if job is None or dynamic else keys.get(job)
                location = _SPECS if key is None else (*_SPECS, key)
                pods = groups.setdefault((location, code), (message, []))[1]
                if pod not in pods[-1:]:
                    pods.append(pod)
    findings = []
    for (location, code), (message, pods) in groups.items():
        other = _OTHER_TASK.search(message) or _NO_TASK_ID.search(message)
        hint: str | None
        if prediction.dynamic_worker:
            # each pod's cluster is cut down for it: no profile reads every pod
            hint = _DYNAMIC_HINT
        elif other:
            hint = _OTHER_TASK_HINTS.get(other.group(1))
        elif code == "missing_chief" and "ps" in prediction.cluster:
            hint = _MISSING_CHIEF_PS_HINT
        else:
            hint = _HINTS.get(code)
        findings.append(
            Finding.at(
                checked(f"tfjob_{code}"),
                f"{_refusing(pods, prediction)}: {shorten(message)}",
                location,
                hint=hint,
            )
        )
    return findings


def _refusing(pods: list[PredictedPod], prediction: Prediction) -> str:
    """Name the pods that refuse their TF_CONFIG, a whole replica type as a range.

    Only the first and the last pod of each type are read: a TF_CONFIG differs
    from one pod of a type to the next by the task index alone, and no reader's
    rule singles out an index between the two, so when both refuse, so do the
    pods between them (``job-worker-0 to job-worker-7``).
    """
    # in a sample the last pod of a type is its last task, whatever its name
    sizes = Counter(pod.replica_key for pod in prediction.pods)
    names: list[str] = []
    for position, pod in enumerate(pods):
        size = sizes[pod.replica_key]
        first = pods[position - 1] if position else None
        if size > 2 and pod.index == size - 1 and first and first.replica_key == pod.replica_key:
            names[-1] = f"{first.name} to {pod.name}"
        else:
            names.append(pod.name)
    if len(pods) == 1:
        return f"pod {names[0]} refuses its TF_CONFIG"
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"pods {listed} refuse their TF_CONFIG"


def _ends_of_each_type(prediction: Prediction) -> list[PredictedPod]:
    ends: dict[str, list[PredictedPod]] = {}
    for pod in prediction.pods:
        pods = ends.setdefault(pod.replica_key, [])
        if len(pods) < 2:
            pods.append(pod)
        else:
            pods[1] = pod
    return [pod for pods in ends.values() for pod in pods]
