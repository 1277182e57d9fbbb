"""The codes of ``estconf convert tfjob-to-trainjob``: what it refuses, changes and drops.

The rows are read as :mod:`estconf._codes` says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from estconf._codes import Section

SECTIONS: Final[tuple[Section, ...]] = (
    (
        "conversion-findings-estconf-convert-tfjob-to-trainjob",
        (
            (
                "convert_refused",
                "error",
                "the TFJob is not converted: the file holds no TFJob or several, the operator "
                "refuses it, or the TrainJob or JobSet it makes could not run the same job "
                "(`enableDynamicWorker`, an unknown replica type, names too long)",
                "a file of two TFJobs",
                "convert one TFJob the operator accepts",
            ),
            (
                "convert_tf_config_replaced",
                "note",
                "note: a `TF_CONFIG` the TFJob sets by hand on its `tensorflow` container, which "
                "the operator's own replaces: the converted job sets the operator's instead",
                "`env: [{name: TF_CONFIG, value: ...}]` in a job of two pods",
            ),
            (
                "convert_field_changed",
                "note",
                "note: a field converted to another value or place, where Trainer v2 or "
                "JobSet has no field of the same meaning (`restartPolicy: Always` becomes "
                "`OnFailure`, a container is renamed `node`, ...)",
                "`restartPolicy: Always`",
            ),
            (
                "convert_field_dropped",
                "warning",
                "a field of the TFJob that a TrainJob or a JobSet cannot say, left out of the "
                "converted job (`cleanPodPolicy`, `schedulingPolicy`, ...)",
                "`runPolicy: {cleanPodPolicy: Running}`",
                "do what the field did another way (a queue of Kueue for schedulingPolicy), or "
                "accept the default",
            ),
        ),
    ),
)
