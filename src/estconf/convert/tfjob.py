"""A TFJob as a Trainer v2 TrainingRuntime and TrainJob, or a JobSet: :func:`tfjob_to_trainjob`.

The training operator writes each pod's ``TF_CONFIG``; Trainer v2 and JobSet
write none.  The converted job sets it in the manifest, as the operator
(v1.9.0) would have set it, with the JobSet's host names:

- one replicated job per replica type, named by the type in lower case
  (``chief``, ``worker``, ``ps``, ``evaluator``), of one Indexed Job
  (``replicas: 1``) of as many pods as the type's ``replicas``: pod ``p``
  is ``<name>-<type>-0-<p>``, reached as ``<name>-<type>-0-<p>.<name>``
  (the JobSet's default subdomain is its name, and a TrainJob's JobSet has
  the TrainJob's name);
- the workers' replicated job is the trainer job of the runtime (the Job
  template's label ``trainer.kubeflow.org/trainjob-ancestor-step: trainer``,
  its container ``tensorflow`` named ``node``, ``mlPolicy.numNodes`` the
  workers), or the chief's when there are no workers; with ``--jobset``
  no job is labelled and every container keeps its name;
- the ``tensorflow`` container's ``env`` loses any ``TF_CONFIG`` of its own
  and ends with an index variable (``TASK_INDEX``, from the downward API's
  ``metadata.annotations['batch.kubernetes.io/job-completion-index']``) and
  then ``TF_CONFIG``, which says ``"index":$(TASK_INDEX)``: Kubernetes
  expands a reference to a variable defined before it.  Its text is the
  operator's: the cluster of every replica type (the evaluator's too), at
  each type's ``tfjob-port`` (else 2222), the task type in lower case, and
  ``"environment":"cloud"``; a job of one pod gets none, as from the operator;
- everything else of the pod templates is kept as written; the policies are
  mapped by :mod:`estconf.convert.policies`.

What cannot run the same way is refused (:class:`Refused`): a TFJob with
only ``generateName`` (the pods' names are in the TF_CONFIG),
``enableDynamicWorker``, a replica type the operator does not know, a type
of no replicas, a job of parameter servers alone, names longer than JobSet's
webhook admits, or a TF_CONFIG longer than a program can be given.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from estconf.codes import checked
from estconf.convert.policies import job_restarts, run_policy, success_targets
from estconf.finding import Finding, Loc
from estconf.launchers.jobset.pods import COMPLETION_INDEX
from estconf.launchers.jobset.trainer import ANCESTOR_LABEL, TRAINER, TRAINER_CONTAINER
from estconf.launchers.kubeflow.manifest import (
    DEFAULT_CONTAINER_NAME,
    DEFAULT_PORT,
    DEFAULT_PORT_NAME,
    REPLICA_TYPES,
    TFJob,
)
from estconf.launchers.kubeflow.operator import go_json, task_type_of

__all__ = [
    "INDEX_VARIABLES",
    "MAX_TF_CONFIG",
    "ORDER",
    "Conversion",
    "Refused",
    "address",
    "tfjob_to_trainjob",
]

TRAINER_API_VERSION: Final = "trainer.kubeflow.org/v1alpha1"
JOBSET_API_VERSION: Final = "jobset.x-k8s.io/v1alpha2"

ORDER: Final = ("Chief", "Master", "Worker", "PS", "Evaluator")
"""The replicated jobs' order: the one that ends the job first, the parameter servers after."""

INDEX_VARIABLES: Final = ("TASK_INDEX", "TF_TASK_INDEX", "TFJOB_TASK_INDEX")
"""The names the index variable takes: the first the container does not define already."""

MAX_TF_CONFIG: Final = 128 * 1024
"""Linux's bound on one variable given a program (``MAX_ARG_STRLEN``): ``TF_CONFIG=``, the
value and the NUL that ends it."""

_SPECS: Final[Loc] = ("spec", "tfReplicaSpecs")
_LAST_APPLIED: Final = "kubectl.kubernetes.io/last-applied-configuration"
_SPEC_READ: Final = ("tfReplicaSpecs", "runPolicy", "successPolicy", "enableDynamicWorker")
_REPLICA_READ: Final = ("replicas", "template", "restartPolicy")
_SET_BY_JOBSET: Final = ("hostname", "subdomain")


class Refused(ValueError):
    """The TFJob is not converted; ``findings`` say why, each at its field."""

    def __init__(self, findings: list[Finding]) -> None:
        super().__init__("; ".join(finding.message for finding in findings))
        self.findings = findings


@dataclass(frozen=True)
class Conversion:
    """The converted job's manifests, in the order to apply them, and what was changed.

    Attributes:
        documents: the TrainingRuntime and the TrainJob, or the JobSet.
        findings: what was changed, dropped or replaced, each at the TFJob's field.
    """

    documents: tuple[dict[str, Any], ...]
    findings: tuple[Finding, ...]


def _refusal(message: str, at: Loc, hint: str | None = None) -> Finding:
    return Finding.at(checked("convert_refused"), message, at, hint=hint, refused=True)


def address(name: str, task_type: str, index: int, port: int) -> str:
    """Pod ``index`` of replicated job ``task_type`` of JobSet ``name``: ``host.subdomain:port``."""
    return f"{name}-{task_type}-0-{index}.{name}:{port}"


@dataclass(frozen=True)
class _Type:
    key: str
    replica_type: str
    task_type: str
    replicas: int
    port: int
    raw: Mapping[str, Any]
    container: int


def _types(tfjob: TFJob, raw: Mapping[str, Any]) -> tuple[list[_Type], list[Finding]]:
    """The replica types to convert, in :data:`ORDER`, and what refuses the conversion."""
    refusals: list[Finding] = []
    found: dict[str, _Type] = {}
    specs = raw.get("spec", {}).get("tfReplicaSpecs") or {}
    for key, replica_type, spec in tfjob.replica_specs():
        at = (*_SPECS, key)
        if replica_type not in REPLICA_TYPES:
            refusals.append(
                _refusal(
                    f"the operator knows the replica types {', '.join(REPLICA_TYPES)}, not "
                    f"{key!r}: a job of this type has no meaning to TensorFlow's readers, and "
                    "the operator counts it apart",
                    at,
                    hint=f"rename {key!r} to the type it runs, or remove it",
                )
            )
        elif spec.replica_count == 0:
            refusals.append(
                _refusal(
                    f"{key!r} has replicas 0: the operator lists an empty job in the cluster, "
                    "which TensorFlow refuses, and a JobSet has no Job of no pods",
                    (*at, "replicas"),
                    hint="remove the replica spec, or give it replicas: 1 or more",
                )
            )
        elif spec.tensorflow_container is not None:
            found[replica_type] = _Type(
                key,
                replica_type,
                task_type_of(replica_type),
                spec.replica_count,
                spec.port,
                specs[key],
                spec.tensorflow_container,
            )
    return [found[kind] for kind in ORDER if kind in found], refusals


def _refusals(tfjob: TFJob) -> list[Finding]:
    """What makes the TFJob one the converted job cannot run alike, before its types."""
    refusals = []
    if not tfjob.metadata.name:
        refusals.append(
            _refusal(
                "the TFJob has no metadata.name"
                + (
                    f" (only generateName {tfjob.metadata.generate_name!r})"
                    if tfjob.metadata.generate_name
                    else ""
                )
                + ": each pod's TF_CONFIG names the pods, after the job's name",
                ("metadata",),
                hint="give the TFJob the name it is to run under: metadata.name",
            )
        )
    if tfjob.spec.enable_dynamic_worker:
        refusals.append(
            _refusal(
                "with enableDynamicWorker the operator gives each pod a cluster cut down to "
                "itself and the parameter servers, which neither Trainer v2 nor JobSet can "
                "grow or shrink",
                ("spec", "enableDynamicWorker"),
                hint="drop enableDynamicWorker to convert the job of its replica counts",
            )
        )
    return refusals


def tfjob_to_trainjob(
    tfjob: TFJob,
    *,
    jobset: bool = False,
    runtime_name: str | None = None,
    namespace: str | None = None,
) -> Conversion:
    """The TrainingRuntime and TrainJob (or, with ``jobset``, the JobSet) that run ``tfjob``.

    Args:
        tfjob: the TFJob, as the operator admits it.
        jobset: write one JobSet instead of a TrainingRuntime and a TrainJob.
        runtime_name: the TrainingRuntime's name (default: the TFJob's).
        namespace: the namespace of what is written (default: the TFJob's, if it names one).

    Raises:
        Refused: the converted job could not run as the TFJob does.
    """
    raw = tfjob.to_manifest()
    refusals = _refusals(tfjob)
    types, more = _types(tfjob, raw)
    refusals += more
    if refusals:
        raise Refused(refusals)
    name = str(tfjob.metadata.name)
    findings: list[Finding] = []
    if tfjob.api_version != "kubeflow.org/v1":
        findings.append(
            Finding.at(
                checked("convert_field_changed"),
                f"a TFJob of {tfjob.api_version} is read as kubeflow.org/v1, whose replica "
                "specs have the same shape",
                ("apiVersion",),
                severity="note",
            )
        )
    findings += _dropped_keys(tfjob, raw)
    namespace = _namespace(tfjob, namespace, findings)
    spec = raw.get("spec", {})
    restarting = any(t.raw.get("restartPolicy", "Never") != "Never" for t in types)
    given_policy = spec.get("runPolicy")
    if given_policy is not None and not isinstance(given_policy, Mapping):
        findings.append(
            Finding.at(
                checked("convert_field_dropped"),
                "runPolicy is no mapping, and the operator reads none of it: it is left out",
                ("spec", "runPolicy"),
                severity="warning",
            )
        )
    policy = given_policy if isinstance(given_policy, Mapping) else {}
    run = run_policy(policy, jobset=jobset, restarting=restarting)
    findings += run.findings
    jobs = {t.replica_type: t.task_type for t in types}
    workers = next((t.replicas for t in types if t.replica_type == "Worker"), 0)
    targets, said = success_targets(jobs, spec.get("successPolicy"), workers)
    findings += said
    if targets is None:
        raise Refused(
            [
                _refusal(
                    "a job of parameter servers alone never ends: they serve until they are "
                    "stopped, and no success policy can wait for them",
                    _SPECS,
                    hint="add the Chief or the Workers that train",
                )
            ]
        )
    trainer = (
        None
        if jobset
        else next(
            (t.replica_type for t in types if t.replica_type == "Worker"),
            next((t.replica_type for t in types if t.replica_type in ("Chief", "Master")), None),
        )
    )
    tf_configs = _tf_configs(name, types)
    replicated = []
    for each in types:
        made = _replicated_job(each, tf_configs, trainer, run.backoff_limit, run.job, findings)
        replicated.append(made)
    success = {"operator": "All", "targetReplicatedJobs": targets}
    metadata = _metadata(raw, name, namespace)
    if jobset:
        document = {
            "apiVersion": JOBSET_API_VERSION,
            "kind": "JobSet",
            "metadata": metadata,
            "spec": {**run.top, "successPolicy": success, "replicatedJobs": replicated},
        }
        documents: tuple[dict[str, Any], ...] = (document,)
    else:
        runtime = runtime_name or name
        nodes = next((t.replicas for t in types if t.replica_type == trainer), None)
        runtime_spec: dict[str, Any] = {}
        if nodes is not None:
            runtime_spec["mlPolicy"] = {"numNodes": nodes}
        runtime_spec["template"] = {
            "spec": {"successPolicy": success, "replicatedJobs": replicated}
        }
        runtime_metadata = {"name": runtime, **({"namespace": namespace} if namespace else {})}
        trainjob_spec = {
            **run.top,
            "runtimeRef": {
                "name": runtime,
                "apiGroup": "trainer.kubeflow.org",
                "kind": "TrainingRuntime",
            },
        }
        documents = (
            {
                "apiVersion": TRAINER_API_VERSION,
                "kind": "TrainingRuntime",
                "metadata": runtime_metadata,
                "spec": runtime_spec,
            },
            {
                "apiVersion": TRAINER_API_VERSION,
                "kind": "TrainJob",
                "metadata": metadata,
                "spec": trainjob_spec,
            },
        )
    from estconf.convert.names import name_refusals

    too_long = name_refusals(documents, raw)
    if too_long:
        raise Refused(too_long)
    return Conversion(documents, tuple(findings))


def _namespace(tfjob: TFJob, namespace: str | None, findings: list[Finding]) -> str | None:
    given = tfjob.metadata.namespace
    if namespace and given and namespace != given:
        findings.append(
            Finding.at(
                checked("convert_field_changed"),
                f"the TFJob's namespace {given!r} becomes {namespace!r} (--namespace)",
                ("metadata", "namespace"),
                severity="note",
            )
        )
    return namespace or given or None


def _metadata(raw: Mapping[str, Any], name: str, namespace: str | None) -> dict[str, Any]:
    """The TrainJob's (JobSet's) metadata: the TFJob's name, namespace, labels and annotations."""
    given = raw.get("metadata", {})
    metadata: dict[str, Any] = {"name": name}
    if namespace:
        metadata["namespace"] = namespace
    labels = given.get("labels")
    if isinstance(labels, Mapping) and labels:
        metadata["labels"] = dict(labels)
    annotations = given.get("annotations")
    if isinstance(annotations, Mapping):
        kept = {k: v for k, v in annotations.items() if k != _LAST_APPLIED}
        if kept:
            metadata["annotations"] = kept
    return metadata


def _dropped_keys(tfjob: TFJob, raw: Mapping[str, Any]) -> list[Finding]:
    """The fields of ``spec`` and of each replica spec that no converted field says."""
    found = []
    spec = raw.get("spec", {})
    for key in spec:
        if key not in _SPEC_READ:
            found.append(
                Finding.at(
                    checked("convert_field_dropped"),
                    f"spec.{key} is no field of a kubeflow.org/v1 TFJob's spec the "
                    "operator reads: it is left out",
                    ("spec", key),
                    severity="warning",
                )
            )
    for key, replica_type in tfjob.shadowed_replica_keys.items():
        found.append(
            Finding.at(
                checked("convert_field_dropped"),
                f"{key!r} names the replica type {replica_type} as another key does, and the "
                "operator drops it: so does the conversion",
                (*_SPECS, key),
                severity="warning",
            )
        )
    for key, _, _ in tfjob.replica_specs():
        for field in spec["tfReplicaSpecs"][key]:
            if field not in _REPLICA_READ:
                found.append(
                    Finding.at(
                        checked("convert_field_dropped"),
                        f"{field} is no field of a replica spec the operator reads: it is left out",
                        (*_SPECS, key, field),
                        severity="warning",
                    )
                )
    return found


def _tf_configs(name: str, types: list[_Type]) -> dict[str, str] | None:
    """Each replica type's TF_CONFIG, ``$(INDEX)`` where its index goes; None: a job of one pod.

    Raises:
        Refused: a TF_CONFIG longer than :data:`MAX_TF_CONFIG`.
    """
    pods = sum(t.replicas for t in types)
    if pods == 1:
        return None
    # each address takes a dozen bytes at the least: a cluster of more pods is too long
    if pods * 12 > MAX_TF_CONFIG:
        _too_long(pods, pods * 12, exact=False)
    cluster = {
        t.task_type: [address(name, t.task_type, i, t.port) for i in range(t.replicas)]
        for t in types
    }
    # the operator's cluster is a Go map, which encoding/json writes with sorted keys
    cluster_json = go_json({job: cluster[job] for job in sorted(cluster)})
    texts = {
        t.replica_type: '{"cluster":'
        + cluster_json
        + ',"task":{"type":'
        + go_json(t.task_type)
        + ',"index":$(INDEX)},"environment":"cloud"}'
        for t in types
    }
    # the pod of the highest index is given the longest; Linux counts the NUL that ends it
    longest = max(
        len(texts[t.replica_type].replace("$(INDEX)", str(t.replicas - 1)).encode()) for t in types
    ) + len("TF_CONFIG=\0")
    if longest > MAX_TF_CONFIG:
        _too_long(pods, longest, exact=True)
    return texts


def _too_long(pods: int, size: int, *, exact: bool) -> None:
    about = "" if exact else "at least "
    raise Refused(
        [
            _refusal(
                f"each pod's TF_CONFIG lists the {pods:,} pods, and takes {about}{size:,} "
                f"bytes: more than the {MAX_TF_CONFIG:,} Linux gives a program in one "
                "variable (MAX_ARG_STRLEN), so no pod would start, under the operator either",
                _SPECS,
                hint="give the job fewer replicas",
            )
        ]
    )


def _replicated_job(
    each: _Type,
    tf_configs: dict[str, str] | None,
    trainer: str | None,
    backoff_limit: int | None,
    job_fields: Mapping[str, Any],
    findings: list[Finding],
) -> dict[str, Any]:
    """The replicated job of one replica type: one Indexed Job of its pods."""
    at = (*_SPECS, each.key)
    is_trainer = each.replica_type == trainer
    container_name = TRAINER_CONTAINER if is_trainer else DEFAULT_CONTAINER_NAME
    restarts = job_restarts(each.key, each.raw.get("restartPolicy"), container_name, backoff_limit)
    if restarts is None:  # the operator's checks refuse it first
        raise Refused([_refusal("the restartPolicy is none the operator knows", at)])
    findings += restarts.findings
    template = each.raw.get("template") or {}
    pod = _pod_template(each, template, tf_configs, restarts.pod, is_trainer, findings)
    job_spec: dict[str, Any] = {
        "parallelism": each.replicas,
        "completions": each.replicas,
        "completionMode": "Indexed",
        **restarts.job,
        **job_fields,
        "template": pod,
    }
    job_template: dict[str, Any] = {"spec": job_spec}
    if is_trainer:
        job_template = {"metadata": {"labels": {ANCESTOR_LABEL: TRAINER}}, **job_template}
    return {"name": each.task_type, "replicas": 1, "template": job_template}


def _pod_template(
    each: _Type,
    template: Mapping[str, Any],
    tf_configs: dict[str, str] | None,
    restart_policy: str,
    is_trainer: bool,
    findings: list[Finding],
) -> dict[str, Any]:
    at = (*_SPECS, each.key, "template")
    given_metadata = template.get("metadata")
    given_metadata = given_metadata if isinstance(given_metadata, Mapping) else {}
    metadata = {
        key: copy.deepcopy(given_metadata[key])
        for key in ("labels", "annotations")
        if given_metadata.get(key)
    }
    spec = copy.deepcopy(dict(template.get("spec") or {}))
    for key in _SET_BY_JOBSET:
        if key in spec:
            del spec[key]
            findings.append(
                Finding.at(
                    checked("convert_field_dropped"),
                    f"JobSet sets each pod's {key} (<name>-<job>-0-<index>, under the "
                    "JobSet's subdomain), which its TF_CONFIG names: the template's is left out",
                    (*at, "spec", key),
                    severity="warning",
                )
            )
    spec["restartPolicy"] = restart_policy
    containers = [dict(c) for c in spec.get("containers") or []]
    position = each.container
    container = containers[position]
    if is_trainer:
        container["name"] = TRAINER_CONTAINER
        findings.append(
            Finding.at(
                checked("convert_field_changed"),
                f"the {DEFAULT_CONTAINER_NAME} container of the trainer job is named "
                f"{TRAINER_CONTAINER}, as Trainer's runtime webhook demands",
                (*at, "spec", "containers", position, "name"),
                severity="note",
            )
        )
    ports = list(container.get("ports") or [])
    if not any(isinstance(p, Mapping) and p.get("name") == DEFAULT_PORT_NAME for p in ports):
        # the operator's defaults add it to the tensorflow container
        container["ports"] = [*ports, {"name": DEFAULT_PORT_NAME, "containerPort": DEFAULT_PORT}]
    if tf_configs is not None:
        container["env"] = _env(
            container.get("env") or [],
            tf_configs[each.replica_type],
            (*at, "spec", "containers", position, "env"),
            findings,
        )
    containers[position] = container
    spec["containers"] = containers
    return {**({"metadata": metadata} if metadata else {}), "spec": spec}


def _env(env: list[Any], tf_config: str, at: Loc, findings: list[Finding]) -> list[dict[str, Any]]:
    """The container's ``env`` without its ``TF_CONFIG``, then the index, then the operator's."""
    kept = []
    for position, entry in enumerate(env):
        if isinstance(entry, Mapping) and entry.get("name") == "TF_CONFIG":
            findings.append(
                Finding.at(
                    checked("convert_tf_config_replaced"),
                    "the operator replaces this TF_CONFIG with its own: the converted job "
                    "sets the operator's",
                    (*at, position),
                    severity="note",
                )
            )
            continue
        kept.append(dict(entry))
    names = {entry.get("name") for entry in kept}
    index = next((n for n in INDEX_VARIABLES if n not in names), None)
    if index is None:
        raise Refused(
            [
                _refusal(
                    f"the container defines {', '.join(INDEX_VARIABLES)} already: no name is "
                    "left for the pod's index",
                    at,
                )
            ]
        )
    field_path = f"metadata.annotations['{COMPLETION_INDEX}']"
    return [
        *kept,
        {"name": index, "valueFrom": {"fieldRef": {"fieldPath": field_path}}},
        {"name": "TF_CONFIG", "value": tf_config.replace("$(INDEX)", f"$({index})")},
    ]
