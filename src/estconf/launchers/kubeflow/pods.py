"""One pod of a TFJob: the TF_CONFIG the operator gives it, that pod alone predicted.

``explain --tf-config TFJOB.yaml --pod NAME`` (or ``--task TYPE:INDEX``)
explains the ``TF_CONFIG`` Kubeflow's training operator would write into
that pod of the job.  Only that pod is predicted, whatever the job's size.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from estconf.io import kinds
from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError
from estconf.io.sources import InputError

if TYPE_CHECKING:
    from estconf.launchers.kubeflow.manifest import TFJob
    from estconf.launchers.kubeflow.operator import Job, Layout, PredictedPod

__all__ = ["PodChoice", "pod_task", "pod_tf_config"]

_OLDER_VERSION = "tfjob_api_version"
_INDEX = re.compile(r"0|[1-9][0-9]{0,9}")
"""A pod's index as the operator writes it in its name: no sign, no leading zero."""
_SHOWN = 3

PodChoice = tuple[str | None, tuple[str, int] | None]
"""``--pod NAME`` and ``--task TYPE:INDEX``, either or neither given."""


def pod_tf_config(
    raw: bytes,
    name: str,
    choice: PodChoice,
    limits: Limits | None = None,
    note: Callable[[str], object] = lambda _: None,
) -> tuple[str | None, str] | None:
    """The TF_CONFIG the operator gives the chosen pod of the TFJob in ``raw``, and its source.

    The TF_CONFIG is ``None`` where the operator sets none (a job of one pod
    in all).  ``None`` when ``raw`` holds no TFJob: a config file, read as
    one.

    ``note`` is given what is said beside the TF_CONFIG (the job is of an
    older apiVersion, read as v1's).

    Raises:
        InputError: the file is a TFJob and no pod is chosen (the message
            names ``--pod`` and ``--task``), the pod or task is not one of
            the job's, the file holds several TFJobs or one with no name.
        ConfigFileError: the TFJob cannot be read, or the operator refuses it
            (of kind ``tfjob``).
    """
    from estconf.launchers.kubeflow.manifest import read_tfjobs

    if not kinds.may_hold_tfjob(raw):
        return None
    try:
        tfjobs = read_tfjobs(raw, name=name, limits=limits)
    except ConfigFileError as exc:
        raise ConfigFileError(name, exc.errors, "tfjob") from None
    except ValueError as exc:
        from estconf.launchers.kubeflow.tfjobs import said_of

        raise InputError(f"{name}: not a TFJob the operator reads: {said_of(exc)}") from None
    if not tfjobs:
        return None
    pod, task = choice
    tfjob, plan = _one(tfjobs, pod, name)
    if pod is None and task is None:
        raise InputError(
            f"{name} is a Kubeflow TFJob manifest: explain reads the TF_CONFIG of one of its pods",
            hint=f"name the pod with --pod NAME ({_names(plan)}) or its task with "
            f"--task TYPE:INDEX ({_tasks(plan)})",
        )
    _refused(tfjob, name, note)
    predicted = _chosen(tfjob, plan, pod, task, name)
    where = f"{name}, pod {predicted.name} (task {predicted.task_type}:{predicted.index})"
    if predicted.tf_config is None:
        return None, f"none: {where} gets no TF_CONFIG, the job has one pod in all"
    return predicted.tf_config, where


def _one(tfjobs: tuple[TFJob, ...], pod: str | None, name: str) -> tuple[TFJob, Layout]:
    """The TFJob of the file: its only one, or the one that has the pod ``--pod`` names."""
    if len(tfjobs) == 1:
        return tfjobs[0], _layout(tfjobs[0], name)
    plans = [(tfjob, _layout(tfjob, name)) for tfjob in tfjobs]
    for tfjob, plan in plans:
        if pod is not None and pod_task(plan, pod) is not None:
            return tfjob, plan
    jobs = ", ".join(repr(plan.job_name) for _, plan in plans)
    if pod is None:
        raise InputError(
            f"{name} holds {len(tfjobs)} TFJobs ({jobs}): name the pod to explain with --pod NAME"
        )
    raise InputError(f"{name}: no pod of its TFJobs ({jobs}) is named {pod!r}")


def _layout(tfjob: TFJob, name: str) -> Layout:
    """The job laid out as the operator lays out its pods; a job with no name cannot be."""
    from estconf.launchers.kubeflow.operator import layout

    generated = tfjob.metadata.generate_name
    if tfjob.metadata.name is None and generated:
        raise InputError(
            f"{name}: the TFJob has only generateName {generated!r}: the API server picks its "
            "name, and so its pods', when the job is created",
            hint=f"explain a pod of it with estconf tf-config --tfjob {name} --name NAME "
            "--task TYPE:INDEX | estconf explain --tf-config -",
        )
    try:
        return layout(tfjob)
    except ValueError as exc:
        raise InputError(f"{name}: {' '.join(str(exc).split())}") from None


def _names(plan: Layout) -> str:
    """The names of the job's pods, by replica type: ``mnist-worker-0 to mnist-worker-3``."""
    return _ranges(plan, lambda job, index: f"{job.host}{index}")


def _tasks(plan: Layout) -> str:
    """The tasks of the job's pods, by replica type: ``worker:0 to worker:3``."""
    return _ranges(plan, lambda job, index: f"{job.task_type}:{index}")


def _ranges(plan: Layout, label: Callable[[Job, int], str]) -> str:
    jobs = [job for job in plan.cluster_jobs.values() if job.replicas]
    ranges = [
        label(job, 0) if job.replicas == 1 else f"{label(job, 0)} to {label(job, job.replicas - 1)}"
        for job in jobs[:_SHOWN]
    ]
    more = len(jobs) - _SHOWN
    rest = f" and {more} more replica type{'s' if more > 1 else ''}" if more > 0 else ""
    return ", ".join(ranges) + rest or "none"


def _refused(tfjob: TFJob, name: str, note: Callable[[str], object]) -> None:
    """Refuse a TFJob the operator refuses: it never creates the pods."""
    from estconf.io.errors import error
    from estconf.launchers.kubeflow.checks import check

    findings = check(tfjob, node_check=None)
    refused = [f for f in findings if f.refused and f.code != _OLDER_VERSION]
    if refused:
        errors = [error(name, f.code, f.message, f.loc, hint=f.hint, refused=True) for f in refused]
        raise ConfigFileError(name, errors, "tfjob")
    for finding in findings:
        if finding.code == _OLDER_VERSION:  # its replica specs read as v1's: explained as v1
            note(f"{name}: apiVersion: note: {finding.message}")


def _chosen(
    tfjob: TFJob, plan: Layout, pod: str | None, task: tuple[str, int] | None, name: str
) -> PredictedPod:
    """The pod ``--pod`` or ``--task`` names, predicted alone."""
    from estconf.launchers.kubeflow.operator import predict

    job_name = tfjob.metadata.name
    if pod is not None:
        found = pod_task(plan, pod)
        if found is None:
            raise InputError(
                f"{name}: no pod of the TFJob {job_name!r} is named {pod!r}: its pods are "
                f"{_names(plan)}"
            )
        task = found
    assert task is not None
    try:
        pods = predict(tfjob, task=task).pods
    except ValueError as exc:  # a cluster too large to build
        raise InputError(f"{name}: {exc}; estconf validate checks a job of any size") from None
    if not pods:
        raise InputError(
            f"{name}: the TFJob {job_name!r} has no task {task[0]}:{task[1]}: its tasks are "
            f"{_tasks(plan)}"
        )
    return pods[0]


def pod_task(plan: Layout, pod: str) -> tuple[str, int] | None:
    """The task of the pod named ``pod`` (``<job>-<type>-<index>``); None if no pod is."""
    for job in plan.jobs:
        digits = pod.removeprefix(job.host)
        if digits != pod and _INDEX.fullmatch(digits) and int(digits) < job.replicas:
            return job.task_type, int(digits)
    return None
