"""The TFJob of a file, converted, and what is said of it placed in the file: :func:`convert_text`.

The file (or standard input) is read as every manifest is, under the same
limits; it must hold one TFJob (a document, or an item of a ``List``).  The
TFJob is checked as ``estconf validate`` checks it, without reading its
pods' TF_CONFIGs: what the operator refuses (its admission webhook, a port
or ``restartPolicy`` Kubernetes refuses, two keys naming one replica type)
the conversion refuses too.  Every finding is placed at its line and column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from estconf.codes import checked
from estconf.finding import Finding

if TYPE_CHECKING:
    from estconf.io._positions import Loc
    from estconf.io.checks import Limits
    from estconf.io.errors import FileError
    from estconf.io.parse import Document

__all__ = ["REFUSING", "Converted", "convert_text"]

REFUSING: Final = (
    "tfjob_port_invalid",
    "tfjob_restart_policy_invalid",
    "tfjob_duplicate_replica_type",
)
"""Errors of the TFJob's checks that are no refusal of the operator's, but make a job that
cannot run as written: Kubernetes refuses its pods, or which spec the operator keeps is not
known."""

_READ_AS_V1: Final = "tfjob_api_version"


@dataclass(frozen=True)
class Converted:
    """What converting a file gave.

    Attributes:
        documents: the manifests to write, in order; empty when refused.
        findings: what was found, changed, dropped or refused, placed in the file.
        refused: the TFJob is not converted.
        unreadable: the input is no manifest at all (a Helm template to render first).
    """

    documents: tuple[dict[str, Any], ...] = ()
    findings: tuple[FileError, ...] = field(default_factory=tuple)
    refused: bool = False
    unreadable: bool = False


def convert_text(
    raw: bytes | str,
    shown: str,
    limits: Limits | None = None,
    *,
    jobset: bool = False,
    runtime_name: str | None = None,
    namespace: str | None = None,
) -> Converted:
    """Convert the one TFJob of ``raw`` (see :func:`estconf.convert.tfjob.tfjob_to_trainjob`).

    Args:
        raw: the file's bytes (or text).
        shown: its name in what is said (``<stdin>``).
        limits: the limits of reading (the defaults if None).
        jobset: write a JobSet instead of a TrainingRuntime and a TrainJob.
        runtime_name: the TrainingRuntime's name.
        namespace: the namespace of what is written.
    """
    from pydantic import ValidationError

    from estconf.convert.tfjob import Refused, tfjob_to_trainjob
    from estconf.io import kinds
    from estconf.io.errors import UNREADABLE_CODES, ConfigFileError
    from estconf.io.reading import documents, read_stream
    from estconf.launchers.kubeflow.manifest import TFJob

    try:
        read = documents(read_stream(raw, shown, None, limits))
    except ConfigFileError as exc:
        unreadable = any(error.code in UNREADABLE_CODES for error in exc.errors)
        return Converted(findings=tuple(exc.errors), refused=True, unreadable=unreadable)
    found = [
        (document, prefix, data, experiment)
        for document in read
        for prefix, data, experiment in kinds.tfjobs_in(document.data)
    ]
    tfjobs = [(d, p, data) for d, p, data, experiment in found if experiment is None]
    if len(tfjobs) != 1:
        return _refused_file(shown, read, len(tfjobs), len(found) - len(tfjobs))
    document, prefix, data = tfjobs[0]
    try:
        tfjob = TFJob.model_validate(data)
    except ValidationError as exc:
        errors = [Finding.of_error(detail) for detail in exc.errors(include_url=False)]
        return _placed(document, prefix, shown, [_summary(len(errors)), *errors], refused=True)
    refusing = _operator_refusals(tfjob)
    if refusing:
        return _placed(document, prefix, shown, [_summary(len(refusing)), *refusing], True)
    try:
        conversion = tfjob_to_trainjob(
            tfjob, jobset=jobset, runtime_name=runtime_name, namespace=namespace
        )
    except Refused as exc:
        return _placed(document, prefix, shown, list(exc.findings), refused=True)
    placed = _placed(document, prefix, shown, list(conversion.findings), refused=False)
    return Converted(conversion.documents, placed.findings)


def _operator_refusals(tfjob: Any) -> list[Finding]:
    """What the operator refuses in ``tfjob`` (but an older apiVersion, read as v1)."""
    from estconf.launchers.kubeflow.checks import check

    return [
        finding
        for finding in check(tfjob, node_check=None)
        if (finding.refused and finding.code != _READ_AS_V1)
        or (finding.code in REFUSING and finding.severity == "error")
    ]


def _summary(count: int) -> Finding:
    """The refusal that says why the TFJob is not converted, before the reasons."""
    reasons = "the reason follows" if count == 1 else f"the {count} reasons follow"
    return Finding.at(
        checked("convert_refused"),
        f"the TFJob is not converted: the operator would not run it as written ({reasons})",
        (),
        refused=True,
        hint="estconf validate FILE says what else it finds of the TFJob",
    )


def _refused_file(shown: str, read: list[Document], count: int, trials: int) -> Converted:
    from estconf.io.errors import error

    if count == 0 and trials:
        message = (
            "holds no TFJob but the trialSpec of a Katib Experiment, whose trials Katib "
            "names and fills in: convert the TFJob of one trial, with its name and values"
        )
    elif count == 0:
        message = "holds no TFJob (kind: TFJob, apiVersion: kubeflow.org/v1)"
    else:
        message = f"holds {count} TFJobs: convert one at a time"
    found = error(
        shown,
        "convert_refused",
        f"refused: {message}",
        hint="give a file of one TFJob (kubectl get tfjob NAME -o yaml > tfjob.yaml)",
        refused=True,
    )
    return Converted(findings=(found,), refused=True)


def _placed(
    document: Document, prefix: Loc, shown: str, findings: list[Finding], refused: bool
) -> Converted:
    from estconf.io.errors import error_of

    errors = [error_of(each, shown, (*prefix, *each.loc), on_key=True) for each in findings]
    return Converted(findings=tuple(document.place(errors)), refused=refused)
