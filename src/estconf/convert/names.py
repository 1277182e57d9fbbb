"""Whether JobSet's and Trainer's webhooks admit the converted job: :func:`name_refusals`.

JobSet's webhook refuses a JobSet whose longest Job or pod name is no
DNS-1035 label of at most 63 characters (``<name>-<job>-0-<index>-abcde``
for a pod), and Trainer's runtime webhook a trainer job of other than one
Job or without its container ``node``.  The converted manifests are read
back as estconf reads a JobSet or a TrainJob on its runtime, and checked by
those rules: what they refuse, the conversion refuses, at the TFJob's name.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def name_refusals(documents: Sequence[dict[str, Any]]) -> list[Finding]:
    """What JobSet's and Trainer's webhooks refuse in the converted documents, as refusals."""
    from estconf.launchers.jobset.policies import pod_names, runtime_rules
    from estconf.launchers.jobset.trainer import TrainingRuntime

    problems = list(pod_names(jobset_of_documents(documents)))
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
