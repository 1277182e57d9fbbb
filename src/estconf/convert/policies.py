"""A TFJob's restart, run and success policies, as a JobSet's Jobs and success policy say them.

The training operator (v1.9.0) and a JobSet (v0.12) of Kubernetes Jobs
restart and end a job by different rules; each rule is mapped to the field
of the same meaning where there is one, and otherwise changed or dropped
with a note (a :class:`~estconf.finding.Finding` at the TFJob's field).

``restartPolicy`` of a replica spec (the operator's default is ``Never``);
a Job's pod template admits only ``Never`` and ``OnFailure``:

=============  ===================  ==========================================
TFJob          pod of the Job       the Job
=============  ===================  ==========================================
``Never``      ``Never``            ``backoffLimit: 0``: a failed pod fails
                                    the Job, and so the JobSet, as it fails
                                    the TFJob
``OnFailure``  ``OnFailure``        ``backoffLimit``: ``runPolicy.backoffLimit``,
                                    else Kubernetes' 6 (the operator has no
                                    bound: a note)
``Always``     ``OnFailure``        as ``OnFailure``; a container that exits 0
                                    is not started again (a note)
``ExitCode``   ``Never``            ``podFailurePolicy``: exit codes 1 to 127 of
                                    the TensorFlow container fail the Job;
                                    any other failure (128 or more: killed by
                                    a signal) makes a new pod, up to
                                    ``backoffLimit`` as for ``OnFailure``
=============  ===================  ==========================================

``runPolicy``: ``backoffLimit`` is each Job's (the operator counts the
restarts of all the job's pods, a Job those of its own: a note);
``activeDeadlineSeconds`` is each Job's; ``suspend: true`` is the TrainJob's
(the JobSet's); ``ttlSecondsAfterFinished`` is the JobSet's, and is dropped
from a TrainJob (Trainer owns its JobSet); ``cleanPodPolicy`` (but
``None``), ``schedulingPolicy``, ``managedBy`` and any other field are
dropped, with a warning.

The success policy is ``operator: All`` over the chief's (or master's)
replicated job, else the workers', else every job but the parameter
servers', which never exit: the operator ends a job with its chief, else as
``successPolicy`` says (``AllWorkers``: every worker; by default worker 0,
which a JobSet cannot say: a note).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from estconf.codes import checked
from estconf.finding import Finding, Loc

__all__ = [
    "EXIT_CODES_FAILING",
    "JOB_BACKOFF_DEFAULT",
    "RunPolicy",
    "job_restarts",
    "run_policy",
    "success_targets",
]

JOB_BACKOFF_DEFAULT: Final = 6
"""Kubernetes' default ``backoffLimit`` of a Job."""

EXIT_CODES_FAILING: Final = tuple(range(1, 128))
"""The exit codes the operator does not restart under ``ExitCode`` (it restarts 128 and more)."""

_SPECS: Final[Loc] = ("spec", "tfReplicaSpecs")
_RUN_POLICY: Final[Loc] = ("spec", "runPolicy")
_KNOWN_RESTARTS: Final = ("Never", "OnFailure", "Always", "ExitCode")
_DROPPED_RUN_POLICY: Final = {
    "cleanPodPolicy": "neither a JobSet nor a TrainJob deletes pods when the job ends by a "
    "policy of its own",
    "schedulingPolicy": "a JobSet and a TrainJob have no gang-scheduling policy (minAvailable, "
    "queue, priorityClass): a scheduler or a queue (Kueue) of the cluster gives it",
    "managedBy": "the converted job is run by JobSet's controller (and Trainer's), not the "
    "training operator",
}


def _changed(message: str, at: Loc, hint: str | None = None) -> Finding:
    return Finding.at(checked("convert_field_changed"), message, at, severity="note", hint=hint)


def _dropped(message: str, at: Loc, hint: str | None = None) -> Finding:
    return Finding.at(checked("convert_field_dropped"), message, at, severity="warning", hint=hint)


@dataclass(frozen=True)
class RunPolicy:
    """What ``spec.runPolicy`` becomes.

    Attributes:
        backoff_limit: each Job's ``backoffLimit`` where its pods are restarted.
        job: what every Job's spec takes (``activeDeadlineSeconds``).
        top: what the TrainJob's (or the JobSet's) spec takes (``suspend``, ...).
        findings: what is changed or dropped.
    """

    backoff_limit: int | None = None
    job: dict[str, Any] = field(default_factory=dict)
    top: dict[str, Any] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)


def run_policy(policy: Mapping[str, Any], *, jobset: bool, restarting: bool) -> RunPolicy:
    """``spec.runPolicy`` as the converted job says it.

    Args:
        policy: the TFJob's ``spec.runPolicy`` (empty when it has none).
        jobset: the output is a JobSet (else a TrainJob and its runtime).
        restarting: some replica spec's pods are restarted (a policy other than ``Never``).
    """
    found = RunPolicy()
    for key, value in policy.items():
        at = (*_RUN_POLICY, key)
        if key == "backoffLimit" and isinstance(value, int) and not isinstance(value, bool):
            found = RunPolicy(value, found.job, found.top, found.findings)
            if restarting:
                found.findings.append(
                    _changed(
                        f"backoffLimit {value} becomes the backoffLimit of each Job whose pods "
                        "are restarted: the operator counts the restarts of every pod of the "
                        "job, a Job those of its own pods",
                        at,
                    )
                )
        elif key == "activeDeadlineSeconds" and value is not None:
            found.job["activeDeadlineSeconds"] = value
        elif key == "suspend":
            if value is True:
                found.top["suspend"] = True
        elif key == "ttlSecondsAfterFinished" and value is not None:
            if jobset:
                found.top["ttlSecondsAfterFinished"] = value
            else:
                found.findings.append(
                    _dropped(
                        "a TrainJob has no ttlSecondsAfterFinished, and Trainer owns the "
                        "JobSet it makes: it is left out",
                        at,
                        hint="delete the TrainJob when it is done, or convert with --jobset "
                        "for a JobSet that keeps it",
                    )
                )
        elif key == "cleanPodPolicy" and value in (None, "None"):
            continue  # the operator's default: no pod deleted, as in a JobSet
        else:
            why = _DROPPED_RUN_POLICY.get(key, "a JobSet and a TrainJob have no such field")
            found.findings.append(_dropped(f"runPolicy.{key} is left out: {why}", at))
    return found


@dataclass(frozen=True)
class Restarts:
    """What a replica spec's ``restartPolicy`` becomes.

    Attributes:
        pod: the pod template's ``restartPolicy``.
        job: what the Job's spec takes (``backoffLimit``, ``podFailurePolicy``).
        findings: what is changed.
    """

    pod: str
    job: dict[str, Any]
    findings: list[Finding]


def job_restarts(
    key: str, policy: object, container: str, backoff_limit: int | None
) -> Restarts | None:
    """The ``restartPolicy`` of replica spec ``key`` as its Job says it; None if it names none.

    Args:
        key: the replica spec's key.
        policy: its ``restartPolicy`` as written (None: the default, ``Never``).
        container: the name of the container that runs TensorFlow in the Job's pods.
        backoff_limit: ``runPolicy.backoffLimit``, if given.
    """
    policy = "Never" if policy is None else policy
    if policy not in _KNOWN_RESTARTS:
        return None
    at = (*_SPECS, key, "restartPolicy")
    if policy == "Never":
        return Restarts("Never", {"backoffLimit": 0}, [])
    findings = []
    job: dict[str, Any] = {}
    if backoff_limit is None:
        findings.append(
            _changed(
                f"with restartPolicy {policy} the operator restarts a failed pod without "
                f"bound; its Job stops after {JOB_BACKOFF_DEFAULT} (Kubernetes' default "
                "backoffLimit) and fails the JobSet",
                at,
                hint="set spec.runPolicy.backoffLimit to the restarts the job may take",
            )
        )
    else:
        job["backoffLimit"] = backoff_limit
    if policy == "ExitCode":
        job["podFailurePolicy"] = {
            "rules": [
                {
                    "action": "FailJob",
                    "onExitCodes": {
                        "containerName": container,
                        "operator": "In",
                        "values": list(EXIT_CODES_FAILING),
                    },
                }
            ]
        }
        return Restarts("Never", job, findings)
    if policy == "Always":
        findings.append(
            _changed(
                "restartPolicy Always becomes OnFailure, as a Job's pods admit only Never and "
                "OnFailure: a container that exits 0 is not started again",
                at,
            )
        )
    return Restarts("OnFailure", job, findings)


def success_targets(
    jobs: Mapping[str, str], success_policy: object, workers: int
) -> tuple[list[str] | None, list[Finding]]:
    """The replicated jobs ``operator: All`` waits for, and what is changed; None: no such job.

    Args:
        jobs: each replicated job's name by the replica type it runs (``Chief``, ``PS``, ...).
        success_policy: the TFJob's ``spec.successPolicy`` as written.
        workers: the pods of its Worker replica spec.
    """
    for chief in ("Chief", "Master"):
        if chief in jobs:
            return [jobs[chief]], []
    at: Loc = ("spec", "successPolicy")
    if "Worker" in jobs:
        findings = []
        if success_policy != "AllWorkers" and workers > 1:
            findings.append(
                _changed(
                    "a TFJob without a Chief succeeds when worker 0 does (successPolicy "
                    "AllWorkers: when every worker has); the converted job succeeds when every "
                    "worker has, as a JobSet cannot wait for one pod of a Job",
                    at if success_policy is not None else ("spec",),
                )
            )
        return [jobs["Worker"]], findings
    others = [name for replica_type, name in jobs.items() if replica_type != "PS"]
    return (others or None), []
