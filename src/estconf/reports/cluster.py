"""The report of ``estconf check-cluster``, for people, for programs, for GitHub Actions, as SARIF.

:func:`write_cluster` writes a :class:`~estconf.deployment.ClusterReport` in
one of the formats of :data:`~estconf.reports.files.FORMATS`, with what is
said beside it (:class:`~estconf.inputs.cluster_checks.Said`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from estconf.reports.files import github_annotations, sarif

if TYPE_CHECKING:
    from estconf.deployment.report import ClusterReport
    from estconf.finding import Finding
    from estconf.inputs.cluster_checks import Said

__all__ = ["write_cluster"]

_DIFFERENCES_SHOWN = 20


def write_cluster(report: ClusterReport, format: str = "text", said: Said | None = None) -> str:
    """A ``check-cluster`` report in one of :data:`~estconf.reports.files.FORMATS`.

    ``text``: a line per finding (a cluster mismatch followed by its
    differences as the lines of a diff, a finding's fix on a ``hint:`` line
    of its own), the hints, the notes, the files
    passed over, then the summary; ``json``: the report as one object with
    the ``hints``, ``notes`` and ``skipped``; ``github``: an ``::error``,
    ``::warning`` or ``::notice`` per finding at its first node's file
    (and line, for JSON lines), then a
    ``::notice`` per hint and note; ``sarif``: a result per finding, there.
    """
    from estconf.inputs.cluster_checks import Said

    said = Said() if said is None else said
    if format == "json":
        skipped = [{"file": name, "reason": reason} for name, reason in said.passed_over]
        document = {
            **report.model_dump(mode="json"),
            "hints": list(said.hints),
            "notes": list(said.notes),
            "skipped": skipped,
        }
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if format == "github":
        lines = github_annotations(report.located())
        lines.extend(f"::notice title=estconf hint::{hint}" for hint in said.hints)
        lines.extend(f"::notice title=estconf note::{note}" for note in said.notes)
        return "".join(line + "\n" for line in lines)
    if format == "sarif":
        return sarif(report.located())
    lines = []
    for finding in report.findings:
        lines.append(str(finding))
        lines.extend(_diff(finding))
        if finding.hint:
            lines.append(f"hint: {finding.hint}")
    lines.extend(f"hint: {hint}" for hint in said.hints)
    lines.extend(f"note: {note}" for note in said.notes)
    lines.extend(f"{name}: passed over, {reason}" for name, reason in said.passed_over)
    lines.append(report.summary())
    return "".join(f"{line}\n" for line in lines)


def _diff(finding: Finding) -> list[str]:
    """A cluster mismatch as the lines of a diff: ``-`` the most common cluster, ``+`` this one."""
    differences = () if finding.cross_node is None else finding.cross_node.differences
    lines = []
    for difference in differences[:_DIFFERENCES_SHOWN]:
        task = f"{difference.job}:{difference.index}"
        if difference.reference is not None:
            lines.append(f"  - {task} {difference.reference}")
        if difference.other is not None:
            lines.append(f"  + {task} {difference.other}")
    rest = len(differences) - _DIFFERENCES_SHOWN
    if rest > 0:
        lines.append(f"  ... and {rest} more tasks differ")
    return lines
