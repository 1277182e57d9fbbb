"""What the training operator does with a TFJob's pods while it runs and once it ends.

The manifest's policies (``successPolicy``, ``spec.runPolicy``, each replica
spec's ``restartPolicy``) and its pod templates' ``hostNetwork`` decide when
the operator calls the job done, which pods it restarts or deletes, and
where the pods listen.  A policy in the wrong place, or one the operator
reads otherwise than its name says, changes none of what TensorFlow reads,
so nothing fails at once: :func:`lifecycle_findings` says what happens,
located at the field, with the fix.

The rules are those of training-operator v1.9.0: its controller
(``pkg/controller.v1/tensorflow/tfjob_controller.go``), the code it shares
with other jobs (``pkg/controller.v1/common``) and its defaults
(``pkg/apis/kubeflow.org/v1/tensorflow_defaults.go``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from estconf.codes import checked
from estconf.finding import Finding, Loc
from estconf.launchers.kubeflow.manifest import ReplicaSpec, TFJob
from estconf.launchers.kubeflow.operator import Prediction

__all__ = ["lifecycle_findings"]

_SPECS: Final[Loc] = ("spec", "tfReplicaSpecs")
_CHIEFS: Final = ("Chief", "Master")
# The replica types MultiWorkerMirroredStrategy runs in one collective.
_COLLECTIVE: Final = ("Chief", "Master", "Worker")
# Fields of spec.runPolicy that tf-operator v1.0.0 and earlier read directly under spec.
_RUN_POLICY_FIELDS: Final = (
    "cleanPodPolicy",
    "ttlSecondsAfterFinished",
    "activeDeadlineSeconds",
    "backoffLimit",
)
_RESTART_POLICIES: Final = ("Always", "OnFailure", "Never", "ExitCode")
_CLEAN_POD_POLICIES: Final = ("All", "Running", "None")
_HOSTNAME: Final = "kubernetes.io/hostname"
# Where a pod with hostNetwork resolves names as the cluster's DNS does.
_CLUSTER_DNS: Final = ("ClusterFirstWithHostNet", "None")


def lifecycle_findings(
    tfjob: TFJob, prediction: Prediction, profile: str | None = None
) -> list[Finding]:
    """What the operator's handling of ``tfjob``'s pods does that the manifest likely does not mean.

    Args:
        tfjob: The manifest.
        prediction: What the operator writes into its pods.
        profile: The reader the pods run (``estimator``, ``mwms``, ``ps``);
            a restart of one worker matters to ``mwms`` alone.
    """
    spec = _mapping(tfjob.spec.model_extra)
    run_policy = _mapping(spec.get("runPolicy"))
    findings = _success_policy(tfjob, spec)
    findings += _run_policy_outside(tfjob, spec, run_policy)
    findings += _clean_pod_policy(run_policy)
    findings += _evaluator(tfjob, run_policy)
    findings += _restart_policies(tfjob, run_policy, profile)
    findings += _host_network(tfjob, prediction)
    return findings


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _extra(spec: ReplicaSpec) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """The replica spec's own fields and its pod spec's, beyond what the model reads."""
    return _mapping(spec.model_extra), _mapping(spec.template.spec.model_extra)


def _chief(tfjob: TFJob) -> str | None:
    return next((t for t in tfjob.replica_types.values() if t in _CHIEFS), None)


def _success_policy(tfjob: TFJob, spec: Mapping[str, Any]) -> list[Finding]:
    """``successPolicy: AllWorkers`` is read only when the job has no Chief or Master.

    training-operator v1.9.0, ``tfjob_controller.go`` ``UpdateJobStatus``: with
    a Chief or Master spec (``ContainsChiefOrMasterSpec``) the job succeeds
    when that type's pods have; the success policy is read in the other
    branch only, on the workers.
    """
    chief = _chief(tfjob)
    policy = spec.get("successPolicy")
    if isinstance(policy, str) and policy not in ("", "AllWorkers"):
        ends = f"its {chief}" if chief else "worker 0"
        return [
            Finding.at(
                checked("tfjob_success_policy_unknown"),
                f"successPolicy {policy!r} is neither AllWorkers nor empty: the "
                f"operator compares it with AllWorkers alone, so this job succeeds when {ends} "
                "does",
                ("spec", "successPolicy"),
                severity="warning",
                hint="write successPolicy: AllWorkers (in this letter case), or remove it",
            )
        ]
    if policy != "AllWorkers" or chief is None:
        return []
    return [
        Finding.at(
            checked("tfjob_success_policy_ignored"),
            f"the operator reads successPolicy only in a job without Chief or Master: "
            f"this job succeeds as soon as its {chief} does, whatever its workers are doing",
            ("spec", "successPolicy"),
            severity="warning",
            hint=f"remove successPolicy (the job ends with its {chief}), or drop the {chief} "
            "for a job that succeeds when every worker has",
        )
    ]


def _run_policy_outside(
    tfjob: TFJob, spec: Mapping[str, Any], run_policy: Mapping[str, Any]
) -> list[Finding]:
    """A run policy field written directly under ``spec``, where tf-operator v1.0.0 read it.

    Since v1.0.1 ``TFJobSpec`` has them under ``runPolicy``; the v1.9.0 CRD
    (``manifests/base/crds/kubeflow.org_tfjobs.yaml``) has no ``spec.cleanPodPolicy``.
    The default of ``cleanPodPolicy`` is ``None`` since v1.6.0
    (``tensorflow_defaults.go`` ``SetDefaults_TFJob``), and with ``None``
    ``common/job.go`` ``DeletePodsAndServices`` deletes no pod when the job ends.
    """
    findings = []
    for field in _RUN_POLICY_FIELDS:
        if field not in spec:
            continue
        findings.append(
            Finding.at(
                checked("tfjob_run_policy_outside"),
                f"a kubeflow.org/v1 TFJob has no spec.{field} (it moved under spec.runPolicy "
                "in tf-operator v1.0.1): kubectl apply refuses it, other clients drop it, and "
                "the operator never reads it",
                ("spec", field),
                severity="warning",
                hint=f"move it under spec.runPolicy: runPolicy: {{{field}: ...}}",
            )
        )
    ps = sum(s.replica_count for _, t, s in tfjob.replica_specs() if t == "PS")
    written = spec.get("cleanPodPolicy")
    if (
        ps
        and written not in (None, "None")
        and "cleanPodPolicy" not in run_policy
        and "ttlSecondsAfterFinished" not in run_policy
    ):
        findings.append(
            Finding.at(
                checked("tfjob_ps_pods_kept"),
                "the job's cleanPodPolicy is the default, None, so the operator deletes "
                "no pod when the job ends: the ps pods, whose servers never exit, run on until "
                "the TFJob is deleted",
                ("spec", "cleanPodPolicy"),
                severity="note",
                hint="write spec.runPolicy.cleanPodPolicy: Running",
            )
        )
    return findings


def _clean_pod_policy(run_policy: Mapping[str, Any]) -> list[Finding]:
    """A ``cleanPodPolicy`` other than ``All``, ``Running``, ``None`` deletes every pod.

    training-operator v1.9.0, ``common/job.go`` ``DeletePodsAndServices``: it
    keeps every pod under ``None`` and the finished ones under ``Running``,
    and deletes every other pod; the CRD admits any string.
    """
    policy = run_policy.get("cleanPodPolicy")
    if not isinstance(policy, str) or policy in _CLEAN_POD_POLICIES:
        return []
    return [
        Finding.at(
            checked("tfjob_clean_pod_policy_unknown"),
            f"cleanPodPolicy {policy!r} is none of {', '.join(_CLEAN_POD_POLICIES)}: "
            "the operator admits it, and when the job ends deletes every pod, as with All",
            ("spec", "runPolicy", "cleanPodPolicy"),
            severity="warning",
            hint="write one of " + ", ".join(_CLEAN_POD_POLICIES) + " (in this letter case)",
        )
    ]


def _evaluator(tfjob: TFJob, run_policy: Mapping[str, Any]) -> list[Finding]:
    """An evaluator outlives the job it evaluates, and its failure is the job's.

    training-operator v1.9.0: ``common/job.go`` ``ReconcileJobs`` cleans up a
    finished job through ``DeletePodsAndServices``, which with
    ``cleanPodPolicy`` ``All`` deletes every pod and with ``Running`` the
    running and pending ones; ``tfjob_controller.go`` ``UpdateJobStatus``
    marks the job failed when any replica type, Evaluator included, has a
    failed pod (with ``restartPolicy: Never`` a failed pod stays failed:
    ``common/pod.go`` ``ReconcilePods`` restarts only under the other policies).
    """
    evaluators = [
        (key, spec)
        for key, replica_type, spec in tfjob.replica_specs()
        if replica_type == "Evaluator" and spec.replica_count
    ]
    if not evaluators:
        return []
    findings = []
    clean = run_policy.get("cleanPodPolicy")
    if clean in ("All", "Running"):
        ends = f"its {_chief(tfjob)} succeeds" if _chief(tfjob) else "its worker 0 succeeds"
        findings.append(
            Finding.at(
                checked("tfjob_evaluator_deleted"),
                f"with cleanPodPolicy {clean} the operator deletes the "
                f"{'pods' if clean == 'All' else 'running pods'} when {ends}, the evaluator's "
                "too, which is then usually still evaluating the last checkpoint",
                ("spec", "runPolicy", "cleanPodPolicy"),
                severity="warning",
                hint="cleanPodPolicy: None lets the evaluator finish (add "
                "ttlSecondsAfterFinished to have the finished job and its pods deleted)",
            )
        )
    for key, spec in evaluators:
        restart, _ = _extra(spec)
        if restart.get("restartPolicy", "Never") != "Never":
            continue
        findings.append(
            Finding.at(
                checked("tfjob_evaluator_fails_job"),
                "with restartPolicy Never (the default) a failed evaluator pod fails the "
                "whole job, as a failed pod of any replica type does, while its chief and "
                "workers may still be training",
                (*_SPECS, key, "restartPolicy") if restart else (*_SPECS, key),
                severity="note",
                hint="give the Evaluator restartPolicy: OnFailure to restart it instead",
            )
        )
    return findings


def _restart_policies(
    tfjob: TFJob, run_policy: Mapping[str, Any], profile: str | None
) -> list[Finding]:
    """What each replica spec's ``restartPolicy`` restarts.

    training-operator v1.9.0: ``common/pod.go`` ``ReconcilePods`` deletes a
    failed pod (to be created again) under ``ExitCode`` only when
    ``pkg/util/train/train_util.go`` ``IsRetryableExitCode`` holds (128 or
    more) for its ``tensorflow`` container, and otherwise marks the job
    failed; ``OnFailure`` and ``Always`` become the pod's own
    ``restartPolicy`` (``pkg/core/pod.go`` ``SetRestartPolicy``): the kubelet
    restarts the container alone, in its pod, and the job never fails.
    """
    findings = []
    collective = sum(s.replica_count for _, t, s in tfjob.replica_specs() if t in _COLLECTIVE)
    for key, replica_type, spec in tfjob.replica_specs():
        policy = _extra(spec)[0].get("restartPolicy")
        at = (*_SPECS, key, "restartPolicy")
        findings += _pod_restart_policy(key, spec, policy)
        if policy is None or not spec.replica_count:
            continue
        if policy not in _RESTART_POLICIES:
            findings.append(
                Finding.at(
                    checked("tfjob_restart_policy_invalid"),
                    f"restartPolicy {policy!r} is none of {', '.join(_RESTART_POLICIES)}: "
                    "the operator admits it and gives it to the pods, which Kubernetes refuses "
                    f'(spec.restartPolicy: Unsupported value: "{policy}"), so no pod starts',
                    at,
                    hint="write one of " + ", ".join(_RESTART_POLICIES),
                )
            )
        elif policy == "ExitCode":
            findings.append(
                Finding.at(
                    checked("tfjob_restart_exit_code"),
                    "with restartPolicy ExitCode the operator restarts a pod only when its "
                    "tensorflow container is killed by a signal (exit code 128 or more: 137 when "
                    "out of memory, 143 when evicted); an uncaught exception (exit code 1) fails "
                    "the job",
                    at,
                    severity="note",
                    hint="restartPolicy: OnFailure restarts the pod on any failure",
                )
            )
        elif (
            policy in ("OnFailure", "Always")
            and profile == "mwms"
            and replica_type in _COLLECTIVE
            and collective > 1
            and "backoffLimit" not in run_policy
        ):
            findings.append(
                Finding.at(
                    checked("tfjob_mwms_restart"),
                    f"with restartPolicy {policy} a failed {replica_type.lower()} restarts "
                    "alone, in its pod, and the job never fails: it cannot rejoin "
                    "MultiWorkerMirroredStrategy's collective mid-step, so the others hang or fail",
                    at,
                    severity="warning",
                    hint="restartPolicy: Never, so that a failed worker fails the job (start it "
                    "again, resuming from tf.keras.callbacks.BackupAndRestore); or bound the "
                    "restarts with spec.runPolicy.backoffLimit",
                )
            )
    return findings


def _pod_restart_policy(key: str, spec: ReplicaSpec, policy: Any) -> list[Finding]:
    """A ``restartPolicy`` in the pod template, which the replica spec's replaces.

    training-operator v1.9.0, ``common/pod.go`` ``createNewPod``: it records
    the event "Restart policy in pod template will be overwritten by restart
    policy in replica spec" and calls ``pkg/core/pod.go`` ``SetRestartPolicy``;
    the replica spec's defaults to ``Never`` (``SetDefaults_TFJob``), and
    ``ExitCode`` makes the pod's ``Never``.
    """
    written = _extra(spec)[1].get("restartPolicy")
    replica = "Never" if policy is None else policy
    used = "Never" if replica == "ExitCode" else replica
    if written is None or written == used or replica not in _RESTART_POLICIES:
        return []
    default = " (the default)" if policy is None else ""
    return [
        Finding.at(
            checked("tfjob_pod_restart_policy_ignored"),
            f"the operator overwrites the pod template's restartPolicy with the replica "
            f"spec's, {replica}{default}: the pods get restartPolicy {used}, not {written}",
            (*_SPECS, key, "template", "spec", "restartPolicy"),
            severity="warning",
            hint=f"move it to the replica spec: {key}.restartPolicy: {written}",
        )
    ]


def _host_network(tfjob: TFJob, prediction: Prediction) -> list[Finding]:
    """``hostNetwork: true``: every pod listens on its port on its node's own network.

    training-operator v1.9.0 does nothing of its own with ``hostNetwork``
    (``tensorflow_defaults.go`` ``setTensorflowDefaultPort`` still adds
    ``tfjob-port`` 2222); Kubernetes then makes each container port of a
    host-network pod its ``hostPort`` too, so the scheduler places no two pods
    with one port on one node.  A required pod anti-affinity on
    ``kubernetes.io/hostname`` in every template that shares the port says
    one pod per node already, and is taken to select the job's pods.
    """
    by_port: dict[int, list[tuple[str, ReplicaSpec]]] = {}
    findings = []
    for key, _, spec in tfjob.replica_specs():
        pod = _extra(spec)[1]
        if pod.get("hostNetwork") is not True or not spec.replica_count:
            continue
        by_port.setdefault(spec.port, []).append((key, spec))
        dns = pod.get("dnsPolicy")
        field = "dnsPolicy" if dns else "hostNetwork"
        if prediction.distributed and dns not in _CLUSTER_DNS:
            findings.append(
                Finding.at(
                    checked("tfjob_host_network_dns"),
                    f"a pod with hostNetwork and dnsPolicy {dns or 'ClusterFirst'} "
                    f"{'(the default) ' if dns is None else ''}resolves names as its node "
                    "does: unless the node asks the cluster's DNS, the addresses of TF_CONFIG "
                    f"({prediction.pods[0].address}, ...) do not resolve",
                    (*_SPECS, key, "template", "spec", field),
                    hint="dnsPolicy: ClusterFirstWithHostNet",
                )
            )
    for port, specs in by_port.items():
        pods = sum(spec.replica_count for _, spec in specs)
        if pods < 2 or all(_one_per_node(_extra(spec)[1]) for _, spec in specs):
            continue
        for key, _ in specs:
            findings.append(
                Finding.at(
                    checked("tfjob_host_network_port"),
                    f"with hostNetwork each pod listens on port {port} of its node, as its "
                    f"hostPort: no two of the job's {pods} pods can share a node, and the pods "
                    f"beyond the nodes with port {port} free stay Pending "
                    '("didn\'t have free ports for the requested pod ports")',
                    (*_SPECS, key, "template", "spec", "hostNetwork"),
                    severity="warning",
                    hint="drop hostNetwork; or say one pod per node with a required "
                    f"podAntiAffinity on topologyKey {_HOSTNAME} and have {pods} nodes",
                )
            )
    return findings


def _one_per_node(pod: Mapping[str, Any]) -> bool:
    anti = _mapping(_mapping(pod.get("affinity")).get("podAntiAffinity"))
    terms = anti.get("requiredDuringSchedulingIgnoredDuringExecution")
    return isinstance(terms, list) and any(
        _mapping(term).get("topologyKey") == _HOSTNAME for term in terms
    )
