"""What keeps a JobSet from being created or from completing, whatever its TF_CONFIGs say.

- ``never_succeeds``: JobSet v0.12's controller marks a JobSet complete
  when the Jobs its ``successPolicy`` targets have succeeded: with operator
  ``All`` (the default, as its webhook sets it) every Job of every target,
  with ``Any`` one of them; no ``targetReplicatedJobs`` targets every
  replicated job.  A parameter server never exits (it serves until it is
  stopped), so a policy that waits for a replicated job of parameter
  servers, or only for such jobs, is never met.
- ``pod_name_too_long``: JobSet's webhook refuses a JobSet whose longest
  Job name ``<jobset>-<R>-<J-1>``, or for an Indexed Job that sets
  ``completions``, whose longest pod name ``<jobset>-<R>-<J-1>-<C-1>``
  with ``-abcde`` (the pod's five random characters) is no DNS-1035 label
  of at most 63 characters.
- ``trainer_runtime_rule``: Trainer v2.3.0's runtime webhook refuses a
  TrainingRuntime or ClusterTrainingRuntime one of whose replicated jobs'
  Job template has the label ``trainer.kubeflow.org/trainjob-ancestor-step``
  (``trainer``, ``model-initializer``, ``dataset-initializer``) with
  ``replicas`` other than 1, or without its container (``node``,
  ``model-initializer``, ``dataset-initializer``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Final

from estconf.launchers.jobset.pods import job_name
from estconf.launchers.jobset.problems import Problem

if TYPE_CHECKING:
    from estconf.io._positions import Loc
    from estconf.launchers.jobset.model import JobSet, JobSetSpec
    from estconf.launchers.jobset.tf_configs import PodTFConfig

__all__ = ["never_succeeds", "pod_names", "runtime_rules"]

PARAMETER_SERVER: Final = "ps"
_MOST: Final = 63
_SUFFIX: Final = "-abcde"
_JOB_NAME: Final = (
    "JobSet name is too long, job names generated for this JobSet will exceed 63 characters"
)
_POD_NAME: Final = (
    "JobSet name is too long, pod names generated for this JobSet will exceed 63 characters"
)

REQUIRED_CONTAINERS: Final = {
    "trainer": "node",
    "model-initializer": "model-initializer",
    "dataset-initializer": "dataset-initializer",
}
"""The container each ancestor step's replicated job must have (the runtime webhook's map)."""


def _task_types(found: Iterable[PodTFConfig]) -> dict[int, set[str]]:
    """The task types the pods of each replicated job are given, where their TF_CONFIG says."""
    types: dict[int, set[str]] = {}
    for each in found:
        parsed = each.parsed
        task = parsed.get("task") if isinstance(parsed, dict) else None
        kind = task.get("type") if isinstance(task, dict) else None
        if isinstance(kind, str) and not (each.unexpanded or each.may_expand):
            types.setdefault(each.pod.position, set()).add(kind)
    return types


def never_succeeds(found: Iterable[PodTFConfig], jobset: JobSet) -> list[Problem]:
    """``never_succeeds``: a success policy that waits for parameter servers, which never exit."""
    from estconf.codes import checked

    types = _task_types(found)
    jobs = jobset.spec.replicated_jobs
    servers = [at for at, kinds in types.items() if kinds == {PARAMETER_SERVER}]
    if not servers:
        return []
    policy = (jobset.spec.model_extra or {}).get("successPolicy")
    given = isinstance(policy, Mapping)
    operator = policy.get("operator") if isinstance(policy, Mapping) else "All"
    targets = policy.get("targetReplicatedJobs") if isinstance(policy, Mapping) else None
    names = [job.name for job in jobs]
    if not isinstance(targets, list) or not targets:
        targets = names
    targeted = [at for at, job in enumerate(jobs) if job.name in targets]
    waited = [at for at in targeted if at in servers]
    if operator == "All" and waited:
        server = jobs[waited[0]].name
        how = "every Job of " + (
            "every replicated job"
            if targeted == list(range(len(jobs)))
            else "replicated jobs " + ", ".join(repr(jobs[at].name) for at in targeted)
        )
    elif operator == "Any" and targeted and len(waited) == len(targeted):
        server = jobs[waited[0]].name
        how = "one Job of " + ", ".join(repr(jobs[at].name) for at in targeted)
    else:
        return []
    ends = [
        job.name
        for at, job in enumerate(jobs)
        if at not in servers and types.get(at, set()) & {"chief", "master"}
    ] or [
        job.name
        for at, job in enumerate(jobs)
        if at not in servers and types.get(at, set()) & {"worker"}
    ]
    said = f"successPolicy operator {operator}" if given else "successPolicy (All, the default)"
    message = (
        f"the JobSet never succeeds: its {said} waits for {how} to succeed, and replicated job "
        f"{server!r} runs parameter servers, which never exit"
    )
    target = ", ".join(ends) if ends else "<the chief's or workers' replicated job>"
    hint = (
        "target the jobs that finish: successPolicy: "
        f"{{operator: All, targetReplicatedJobs: [{target}]}}"
    )
    at: Loc = ("successPolicy",) if given else ("replicatedJobs", waited[0], "name")
    return [Problem(checked("never_succeeds"), message, (), waited[0], None, None, hint, at=at)]


def pod_names(jobset: JobSet) -> list[Problem]:
    """``pod_name_too_long``: the Job and pod names JobSet's webhook finds too long."""
    from estconf.codes import checked

    said: list[Problem] = []
    name = jobset.name or ""
    for position, job in enumerate(jobset.spec.replicated_jobs):
        longest = job_name(name, job.name, job.replicas - 1)
        spec = job.template.spec
        pod = None
        if spec.indexed and spec.completions is not None:
            pod = f"{longest}-{spec.completions - 1}{_SUFFIX}"
        if len(longest) > _MOST:
            over, refusal, what = len(longest) - _MOST, _JOB_NAME, f"Job name {longest!r}"
        elif pod is not None and len(pod) > _MOST:
            over, refusal, what = len(pod) - _MOST, _POD_NAME, f"pod name {pod!r}"
        else:
            continue
        message = (
            f"the longest {what} of replicated job {job.name!r} has {_MOST + over} characters, "
            f"more than {_MOST}: JobSet's webhook refuses the JobSet ({refusal})"
        )
        hint = (
            f"shorten the JobSet's name or the name of replicated job {job.name!r} by {over} "
            f"character{'s' if over > 1 else ''}"
        )
        at = ("replicatedJobs", position, "name")
        said.append(
            Problem(
                checked("pod_name_too_long"),
                message,
                (),
                position,
                None,
                None,
                hint,
                at=at,
                refused=True,
            )
        )
    return said


def runtime_rules(spec: JobSetSpec) -> list[Problem]:
    """``trainer_runtime_rule``: what Trainer's webhook refuses in a runtime's JobSet ``spec``."""
    from estconf.codes import checked
    from estconf.launchers.jobset.trainer import ANCESTOR_LABEL

    declared = checked("trainer_runtime_rule")
    said: list[Problem] = []
    for position, job in enumerate(spec.replicated_jobs):
        step = job.template.metadata.labels.get(ANCESTOR_LABEL)
        if step not in REQUIRED_CONTAINERS:
            continue
        label = f"replicated job {job.name!r} ({ANCESTOR_LABEL}: {step})"
        if job.replicas != 1:
            message = (
                f"{label} has replicas {job.replicas}: Trainer's runtime webhook refuses it "
                "(always must be 1)"
            )
            hint = (
                "set replicas: 1; the pods of a trainer job are mlPolicy.numNodes (or the "
                "TrainJob's trainer.numNodes)"
            )
            at: Loc = ("replicatedJobs", position, "replicas")
            said.append(
                Problem(declared, message, (), position, None, None, hint, at=at, refused=True)
            )
        container = REQUIRED_CONTAINERS[step]
        containers = job.template.spec.template.spec.containers
        if all(each.name != container for each in containers):
            message = (
                f"{label} has no container named {container!r}: Trainer's runtime webhook refuses "
                f"it (must contain the required container for the ancestor: {step})"
            )
            hint = f"name the container of the {step} step {container!r}"
            if step == "trainer":
                hint += ": Trainer puts the TrainJob's image, command, args and env into it"
            at = ("replicatedJobs", position, "template", "spec", "template", "spec", "containers")
            said.append(
                Problem(declared, message, (), position, None, None, hint, at=at, refused=True)
            )
    return said
