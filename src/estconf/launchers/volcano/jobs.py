"""Volcano Jobs, checked as ``estconf validate`` checks them.

A document (or an item of a ``List``) with ``kind: Job`` and a
``batch.volcano.sh/...`` apiVersion (:func:`estconf.io.kinds.is_volcano_job`)
is checked with :func:`estconf.launchers.volcano.checks.check`, and every
finding is reported at the line and column of the place in the manifest that
causes it.  Each pod's ``TF_CONFIG`` is read by the reader ``--profile``
names.  A Job that enables the tensorflow plugin is Volcano's to write
TF_CONFIG for; one that does not, and whose containers set none, runs no
TensorFlow job estconf knows of: the file is then no Volcano Job to check here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from estconf.finding import hint_of
from estconf.io import kinds, parse
from estconf.io._positions import Loc
from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError, FileError, error_again, error_of
from estconf.io.reading import documents as _documents
from estconf.io.reading import read_stream

if TYPE_CHECKING:
    from estconf.finding import Finding
    from estconf.io.errors import Result
    from estconf.launchers.volcano.job import VolcanoJob

__all__ = ["FAILING", "KIND", "check_text", "found_in", "model_errors", "node_check", "placed"]

KIND: Final = "volcano_job"
"""The kind ``validate`` reports for a file of Volcano Jobs."""

FAILING: Final = ("error", "warning")
"""Severities that make a manifest invalid; notes say how it was read."""


def check_text(
    raw: bytes, fmt: str, name: str, profile: str, limits: Limits | None = None
) -> Result | None:
    """Check the Volcano Jobs of a file's bytes; None when it holds none that sets TF_CONFIG.

    Args:
        raw: the bytes read.
        fmt: ``json`` or ``yaml``.
        name: the file's name in errors (``<stdin>``).
        profile: the reader of each pod's ``TF_CONFIG``.
        limits: the limits of reading (the defaults if None).
    """
    from estconf.io.errors import Result

    if fmt not in kinds.MANIFEST_FORMATS or not kinds.may_hold_volcano_job(raw):
        return None
    try:
        found = found_in(raw, name, fmt, limits)
    except ConfigFileError:
        return None  # the file pipeline reports what it cannot read
    if not any(_sets_tf_config(data) for _, _, data in found):
        return None
    errors: list[FileError] = []
    for document, prefix, data in found:
        errors.extend(_check_manifest(document, prefix, data, name, profile))
    return Result(name, KIND, errors, profile=profile)


def _sets_tf_config(data: Mapping[Any, Any]) -> bool:
    """Whether a Job's pods get a TF_CONFIG: the tensorflow plugin, an env or a command sets one.

    A plugin named like it (``tensorFlow``, ``tensorfow``) counts, so that its
    refusal is said.  So does a command that builds one (``export
    TF_CONFIG=...`` in ``sh -c``), so that what cannot be checked is said.
    """
    from estconf._suggest import closest
    from estconf.launchers.volcano.plugin import builds_tf_config

    spec = _mapping(data, "spec")
    plugins = [str(name) for name in _mapping(spec, "plugins")]
    if any(closest(name, ("tensorflow",), cutoff=0.8) for name in plugins):
        return True
    for task in _list(spec, "tasks"):
        for container in _list(_mapping(_mapping(task, "template"), "spec"), "containers"):
            for variable in _list(container, "env"):
                if isinstance(variable, Mapping) and variable.get("name") == "TF_CONFIG":
                    return True
            arguments = [*_list(container, "command"), *_list(container, "args")]
            if any(isinstance(each, str) and builds_tf_config(each) for each in arguments):
                return True
    return False


def _mapping(data: Any, key: str) -> Mapping[Any, Any]:
    """``data[key]`` where ``data`` is a mapping whose value there is one, else an empty one."""
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, Mapping) else {}


def _list(data: Any, key: str) -> list[Any]:
    """``data[key]`` where ``data`` is a mapping whose value there is a list, else an empty one."""
    value = data.get(key) if isinstance(data, Mapping) else None
    return value if isinstance(value, list) else []


def found_in(
    raw: str | bytes, name: str, fmt: str | None, limits: Limits | None = None
) -> list[tuple[parse.Document, Loc, Mapping[Any, Any]]]:
    """Each Volcano Job of a stream: its document, its path there, and its data.

    Raises:
        ConfigFileError: the text cannot be read.
    """
    return [
        (document, prefix, data)
        for document in _documents(read_stream(raw, name, fmt, limits))
        for prefix, data in kinds.listed(document.data)
        if kinds.is_volcano_job(data)
    ]


def model_errors(
    document: parse.Document, prefix: Loc, data: Mapping[Any, Any], name: str
) -> tuple[VolcanoJob | None, list[FileError]]:
    """The Job's model, or None and what it refuses, placed in the text."""
    from pydantic import ValidationError

    from estconf.launchers.volcano.job import VolcanoJob

    try:
        return VolcanoJob.model_validate(data), []
    except ValidationError as exc:
        errors = [
            error_again(
                name,
                detail["type"],
                detail["msg"],
                (*prefix, *detail["loc"]),
                on_key=True,
                hint=hint_of(detail),
            )
            for detail in exc.errors(include_url=False)
        ]
        return None, document.place(errors)


def placed(
    document: parse.Document,
    prefix: Loc,
    findings: tuple[Finding, ...],
    name: str,
    severities: tuple[str, ...] = FAILING,
) -> list[FileError]:
    """The findings of ``severities`` as errors of the file ``name``, placed in its text."""
    errors = [
        error_of(finding, name, (*prefix, *finding.loc))
        for finding in findings
        if finding.severity in severities
    ]
    return document.place(errors)


def _check_manifest(
    document: parse.Document, prefix: Loc, data: Mapping[Any, Any], name: str, profile: str
) -> list[FileError]:
    from estconf.launchers.volcano.checks import check

    job, errors = model_errors(document, prefix, data, name)
    if job is None:
        return errors
    return placed(document, prefix, check(job, node_check=node_check(profile)), name)


def node_check(profile: str) -> Callable[[dict[str, Any]], object]:
    """The reader of a pod's ``TF_CONFIG`` under ``profile``; it raises what the reader refuses."""
    from estconf.profiles.registry import entry_named

    read: Callable[[dict[str, Any]], object] = entry_named(profile).read
    return read
