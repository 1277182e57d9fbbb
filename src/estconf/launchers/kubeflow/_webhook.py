"""The training operator's admission checks of a TFJob (``pkg/webhooks/tensorflow``, v1.9.0).

The webhook sees the manifest as written, before the operator's defaults:
it compares replica types with ``Chief`` and ``Master`` exactly, so it counts
``chief`` as neither.  Each message is the operator's, after the field path
Kubernetes prints.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from estconf.codes import checked
from estconf.finding import Finding, Loc
from estconf.launchers.kubeflow.manifest import (
    DEFAULT_CONTAINER_NAME,
    DEFAULT_PORT_NAME,
    Container,
    TFJob,
)

__all__ = ["GENERATED_SUFFIX", "dns1035_label_errors", "webhook_refusals"]

GENERATED_SUFFIX: Final = "xxxxx"
"""Stands for the five characters the API server appends to a ``generateName``."""

_DNS1035: Final = re.compile(r"[a-z]([-a-z0-9]*[a-z0-9])?")
_DNS1035_MAX: Final = 63
_DNS1035_MESSAGE: Final = (
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with "
    "an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
)
_SPECS: Final[Loc] = ("spec", "tfReplicaSpecs")


def dns1035_label_errors(name: str) -> list[str]:
    """Kubernetes' reasons for refusing ``name`` as a DNS-1035 label (Service and TFJob names)."""
    errors = []
    if len(name) > _DNS1035_MAX:
        errors.append(f"must be no more than {_DNS1035_MAX} characters")
    if not _DNS1035.fullmatch(name):
        errors.append(_DNS1035_MESSAGE)
    return errors


def webhook_refusals(tfjob: TFJob) -> list[Finding]:
    """What the operator's admission webhook refuses in ``tfjob``, in manifest order."""
    findings = _name_refusals(tfjob)
    specs = tfjob.spec.tf_replica_specs
    if specs is None:
        findings.append(
            _refused("tfjob_no_replica_specs", _SPECS, "Required value: must be required")
        )
        return findings
    chief_or_master = 0
    for key, spec in specs.items():
        containers_at = (*_SPECS, key, "template", "spec", "containers")
        containers = spec.template.spec.containers
        if not containers:
            findings.append(
                _refused("tfjob_no_containers", containers_at, "Required value: must be specified")
            )
        if key in ("Chief", "Master"):
            chief_or_master += 1
        for position, container in enumerate(containers):
            if not container.image:
                findings.append(
                    _refused(
                        "tfjob_no_image",
                        (*containers_at, position, "image"),
                        "Required value: must be required",
                    )
                )
        if spec.tensorflow_container is None:
            findings.append(
                _refused(
                    "tfjob_no_tensorflow_container",
                    containers_at,
                    "Required value: must have at least one container with name "
                    + DEFAULT_CONTAINER_NAME,
                    hint=_rename_hint(containers),
                )
            )
    if chief_or_master > 1:
        findings.append(
            _refused(
                "tfjob_multiple_chief",
                _SPECS,
                "Forbidden: must not have more than 1 Chief or Master role",
                hint="keep one of Chief and Master (Chief for TensorFlow 2; Master is the "
                "legacy name)",
            )
        )
    return findings


def _rename_hint(containers: tuple[Container, ...]) -> str:
    """Name the container to call ``tensorflow``: the one that looks like TensorFlow's, if any."""
    why = (
        f"the operator sets TF_CONFIG and the port on the container named "
        f"{DEFAULT_CONTAINER_NAME!r} only"
    )
    signs: list[tuple[str, Callable[[Container], bool]]] = [
        (
            f"is named {DEFAULT_CONTAINER_NAME} in other letter case",
            lambda c: (c.name or "").strip().casefold() == DEFAULT_CONTAINER_NAME,
        ),
        (
            f"declares the port {DEFAULT_PORT_NAME}",
            lambda c: any(port.name == DEFAULT_PORT_NAME for port in c.ports),
        ),
        ("sets TF_CONFIG", lambda c: any(v.name == "TF_CONFIG" for v in c.env)),
        ("is the only container", lambda c: len(containers) == 1),
    ]
    for reason, looks in signs:
        found = [(i, c) for i, c in enumerate(containers) if looks(c)]
        if len(found) == 1:
            position, container = found[0]
            named = repr(container.name) if container.name else f"[{position}] (no name)"
            return (
                f"rename container {named} to {DEFAULT_CONTAINER_NAME!r}: it looks like the one "
                f"that runs TensorFlow (it {reason}), and {why}"
            )
    return f"name the container that runs TensorFlow {DEFAULT_CONTAINER_NAME!r}: {why}"


def _name_refusals(tfjob: TFJob) -> list[Finding]:
    name, at = tfjob.metadata.name, ("metadata", "name")
    if not name and tfjob.metadata.generate_name:
        name, at = tfjob.metadata.generate_name + GENERATED_SUFFIX, ("metadata", "generateName")
    errors = dns1035_label_errors(name or "")
    if not errors:
        return []
    return [
        _refused(
            "tfjob_invalid_name",
            at,
            f'Invalid value: "{name}": should match: {",".join(errors)}',
            where=("metadata", "name"),
            hint="name the TFJob with lower-case letters, digits and '-', starting with a "
            "letter, at most 63 characters",
        )
    ]


def _refused(
    code: str,
    location: Loc,
    message: str,
    *,
    where: Loc | None = None,
    hint: str | None = None,
) -> Finding:
    return Finding.at(
        checked(code),
        f"the operator's admission webhook refuses the TFJob: "
        f"{_field_path(where or location)}: {message}",
        location,
        hint=hint,
        refused=True,
    )


def _field_path(location: Loc) -> str:
    """A location as Kubernetes prints a field path: map keys in brackets (``[Worker]``)."""
    text = ""
    for position, part in enumerate(location):
        if isinstance(part, int) or location[position - 1 : position] == ("tfReplicaSpecs",):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text
