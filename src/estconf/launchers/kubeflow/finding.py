"""What a check of a TFJob manifest reports: :class:`Finding`.

A finding names a place in the manifest (``spec.tfReplicaSpecs.PS``) as a
path of keys and list positions, so that a caller holding the manifest's
text can point at the line.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, computed_field

from estconf import finding as located
from estconf.codes import checked

__all__ = ["Finding", "Location", "Severity", "format_location", "reported_severity"]

Location = tuple[str | int, ...]
"""A path into the manifest: mapping keys and list positions, outermost first."""

Severity = Literal["refused", "error", "warning", "note"]
"""How bad a finding is.

``refused``: the operator's admission webhook rejects the manifest (``kubectl
apply`` fails). ``error``: the job is admitted but pods fail or are refused by
the program they run. ``warning``: the operator does something silently that is
likely not what the manifest means. ``note``: how the manifest was read.
"""


def reported_severity(severity: Severity) -> located.Severity:
    """The severity of a finding as every report gives it: ``refused`` is an ``error``."""
    return "error" if severity == "refused" else severity


def format_location(location: Location) -> str:
    """Write a location as Kubernetes does in its messages: ``a.b[0].c``."""
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


class Finding(BaseModel):
    """One thing a check found in a TFJob manifest, with where it is and how to fix it.

    Example:
        >>> finding = Finding(
        ...     code="tfjob_no_image",
        ...     severity="refused",
        ...     message="image: must be required",
        ...     location=("spec", "tfReplicaSpecs", "PS", "template", "spec", "containers", 0),
        ... )
        >>> finding.path
        'spec.tfReplicaSpecs.PS.template.spec.containers[0]'
    """

    model_config = ConfigDict(frozen=True)

    code: Annotated[str, AfterValidator(checked)] = Field(
        description="A stable code naming the rule, e.g. `tfjob_multiple_chief`."
    )
    severity: Severity = Field(description="`refused`, `error`, `warning` or `note`.")
    message: str = Field(description="What is wrong and what happens because of it.")
    hint: str | None = Field(None, description="How to fix it, when there is a fix.")
    location: Location = Field(description="Where in the manifest the cause is.")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def path(self) -> str:
        """The location written as a dotted path (``spec.tfReplicaSpecs.PS``)."""
        return format_location(self.location)

    def __str__(self) -> str:
        where = f"{self.path}: " if self.location else ""
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{where}{self.severity}: {self.message} [{self.code}]{hint}"
