"""Whether JobSet's and Trainer's webhooks admit the converted job: :func:`name_refusals`.

JobSet's webhook refuses a JobSet whose longest Job or pod name is no
DNS-1035 label of at most 63 characters (``<name>-<job>-0-<index>-abcde``
for a pod), and Trainer's runtime webhook a trainer job of other than one
Job or without its container ``node``.  The converted manifests are read
back as estconf reads a JobSet or a TrainJob on its runtime, and checked by
those rules: what they refuse, the conversion refuses, at the TFJob's name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from estconf.codes import checked
from estconf.finding import Finding

__all__ = ["jobset_of_documents", "name_refusals"]


def jobset_of_documents(documents: Sequence[dict[str, Any]]) -> Any:
    """The JobSet the converted documents make: the JobSet, or Trainer's of the TrainJob."""
    from estconf.launchers.jobset.model import JobSet
    from estconf.launchers.jobset.trainer import TrainingRuntime, TrainJob, jobset_of

    if len(documents) == 1:
        return JobSet.model_validate(documents[0])
    runtime = TrainingRuntime.model_validate(documents[0])
    return jobset_of(TrainJob.model_validate(documents[1]), runtime).jobset


def name_refusals(
    documents: Sequence[dict[str, Any]], tfjob: Mapping[str, Any] | None = None
) -> list[Finding]:
    """What JobSet's and Trainer's webhooks refuse in the converted documents, as refusals.

    A value of the TFJob's pod templates that a JobSet's pod template cannot
    hold (labels that are no strings, an ``envFrom`` that is no list) is a
    refusal too, at the TFJob's field it comes from when ``tfjob`` tells it.
    """
    from pydantic import ValidationError

    from estconf.launchers.jobset.policies import pod_names, runtime_rules
    from estconf.launchers.jobset.trainer import TrainingRuntime

    try:
        jobset = jobset_of_documents(documents)
    except ValidationError as exc:
        return [_invalid(detail, tfjob) for detail in exc.errors(include_url=False)]
    problems = list(pod_names(jobset))
    if len(documents) == 2:
        problems += runtime_rules(TrainingRuntime.model_validate(documents[0]).spec.template.spec)
    return [
        Finding.at(
            checked("convert_refused"),
            f"the converted job would be refused: {problem.message}",
            ("metadata", "name"),
            hint=(
                "shorten the TFJob's name" if problem.code == "pod_name_too_long" else problem.hint
            ),
            refused=True,
        )
        for problem in problems
    ]


def _invalid(detail: Any, tfjob: Mapping[str, Any] | None) -> Finding:
    """A value of the converted job that a JobSet cannot hold, said at its place in the TFJob."""
    from estconf._path import format_path

    loc = tuple(detail["loc"])
    where = format_path(loc)
    return Finding.at(
        checked("convert_refused"),
        f"the converted job cannot hold a value of the TFJob: {where}: "
        f"{' '.join(str(detail['msg']).split())}",
        _in_tfjob(loc, tfjob),
        hint="write the value as Kubernetes takes it in a pod template",
        refused=True,
    )


def _in_tfjob(loc: tuple[Any, ...], tfjob: Mapping[str, Any] | None) -> tuple[str | int, ...]:
    """The TFJob's replica spec whose pod template a JobSet's path comes from, if it tells."""
    if tfjob is None or loc[:2] not in (("spec", "replicatedJobs"), ("spec", "template")):
        return ()
    return ("spec", "tfReplicaSpecs")
