"""Kubeflow TFJob manifests, checked as ``estconf validate`` checks them.

A file (or one document of a YAML stream, an item of a ``List`` as
``kubectl get -o yaml`` prints it, or the ``trialSpec`` of a Katib
``Experiment``) with ``kind: TFJob`` and a ``kubeflow.org/...`` apiVersion
is a manifest, not a config file: it is
checked with :func:`estconf.kubeflow.check` and every finding is reported at
the line and column of the place in the manifest that causes it.  The pods'
``TF_CONFIG``s are read by the reader ``--profile`` names, and checked
together with :func:`estconf.deployment.check_cluster`.

What a document is, a TFJob, a ``List`` or a Katib ``Experiment``, is
:mod:`estconf.io.kinds`'s to tell (:func:`~estconf.io.kinds.tfjobs_in`), and
so is the search of a file's bytes that spares parsing a config file twice
(:func:`~estconf.io.kinds.may_hold_tfjob`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final

from estconf.finding import hint_of
from estconf.io import kinds, parse
from estconf.io._positions import Loc
from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError, FileError, error_again
from estconf.io.reading import documents as _documents
from estconf.io.reading import read_stream

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

    from estconf.finding import Finding, Severity
    from estconf.io.errors import Result
    from estconf.launchers.kubeflow.manifest import TFJob
    from estconf.launchers.kubeflow.operator import Prediction

__all__ = [
    "KIND",
    "check_text",
    "cluster_check",
    "node_check",
    "one_tfjob",
    "said_of",
]

KIND: Final = "tfjob"
"""The kind ``validate`` reports for a file of TFJob manifests."""

FAILING: Final = ("error", "warning")
"""Severities that make a manifest invalid (a refusal is an error); notes say how it was read."""


def check_text(
    raw: bytes, fmt: str, name: str, profile: str, limits: Limits | None = None
) -> Result | None:
    """Check the manifests of a file's bytes (also standard input's); None when it holds no TFJob.

    Args:
        raw: the bytes read.
        fmt: ``json`` or ``yaml``.
        name: the file's name in errors (``<stdin>``).
        profile: the reader of each pod's ``TF_CONFIG``: a profile of
            :data:`estconf.profiles.registry.NAMES`.
        limits: the limits of reading (the defaults if None).
    """
    from estconf.io.errors import Result

    if fmt not in kinds.MANIFEST_FORMATS or not kinds.may_hold_tfjob(raw):
        return None
    try:
        documents = _documents(read_stream(raw, name, fmt, limits))
    except ConfigFileError as exc:
        return Result(name, KIND, exc.errors)
    manifests = [
        (document, prefix, None if experiment is None else _trial_metadata(experiment))
        for document in documents
        for prefix, _, experiment in kinds.tfjobs_in(document.data)
    ]
    if not manifests:
        return None
    errors: list[FileError] = []
    for document, prefix, trial in manifests:
        errors.extend(_check_manifest(document, prefix, name, profile, trial))
    return Result(name, KIND, errors)


_TRIAL_SUFFIX: Final = "xxxxxxxx"
"""Stands for the eight characters Katib appends to the Experiment's name to name a trial."""


def _trial_metadata(experiment: Mapping[Any, Any]) -> dict[str, Any]:
    """The name and namespace Katib gives the job of a trial of ``experiment``.

    Each trial runs the Experiment's TFJob under its own name (the
    Experiment's, ``-`` and eight characters) in the Experiment's namespace,
    with the trial's values for its ``${trialParameters.x}``, which are
    checked as written.
    """
    metadata = experiment.get("metadata")
    metadata = metadata if isinstance(metadata, Mapping) else {}
    given = {"name": f"{metadata.get('name') or ''}-{_TRIAL_SUFFIX}"}
    if isinstance(metadata.get("namespace"), str):
        given["namespace"] = metadata["namespace"]
    return given


def _at(data: Any, path: Loc) -> Any:
    for step in path:
        data = data[step]
    return data


def _check_manifest(
    document: parse.Document,
    prefix: Loc,
    name: str,
    profile: str,
    trial: Mapping[str, Any] | None = None,
) -> list[FileError]:
    from pydantic import ValidationError

    from estconf.launchers.kubeflow.checks import api_version_finding, check
    from estconf.launchers.kubeflow.manifest import TFJob

    data = _at(document.data, prefix)
    if trial is not None:  # Katib names the job of each trial, whatever its metadata says
        metadata = data.get("metadata")
        data = {
            **data,
            "metadata": {**(metadata if isinstance(metadata, Mapping) else {}), **trial},
        }
    found: list[tuple[Loc, str, str, Severity, str | None, bool]]
    try:
        tfjob = TFJob.model_validate(data)
    except ValidationError as exc:
        found = [_model_error(e, trial) for e in exc.errors(include_url=False)]
        # what the apiVersion alone tells is said beside what the model refuses
        older = api_version_finding(data.get("apiVersion"))
        if older is not None:
            found.insert(0, _found(older))
    else:
        findings = check(
            tfjob, node_check=node_check(profile), cluster_check=cluster_check, profile=profile
        )
        found = [
            _found(_of_trial(f) if trial is not None else f)
            for f in findings
            if f.severity in FAILING
        ]
    errors = [
        error_again(
            name,
            code,
            text,
            (*prefix, *loc),
            on_key=True,
            severity=severity,
            hint=hint,
            refused=refused,
        )
        for loc, code, text, severity, hint, refused in found
    ]
    return document.place(errors)


def said_of(exc: ValueError) -> str:
    """An error on one line: a model's as ``path: message; ...``, without pydantic's dump."""
    from pydantic import ValidationError

    from estconf._path import format_path

    if not isinstance(exc, ValidationError):
        return " ".join(str(exc).split())
    found = exc.errors(include_url=False)
    return "; ".join(f"{format_path(tuple(e['loc']))}: {' '.join(e['msg'].split())}" for e in found)


def _model_error(
    detail: ErrorDetails, trial: Mapping[str, Any] | None
) -> tuple[Loc, str, str, Severity, str | None, bool]:
    """A model error; one on a trial parameter says that Katib fills it in, and estconf cannot."""
    loc, code, message, value = tuple(detail["loc"]), detail["type"], detail["msg"], detail["input"]
    if trial is None or not isinstance(value, str) or "${trialParameters." not in value:
        return loc, code, message, "error", hint_of(detail), False
    message = (
        f"{message}: Katib writes the trial's value in place of {value} only when it creates "
        "a trial, and the TFJob is checked as written"
    )
    return loc, code, message, "error", "write a value here to check the job", False


def _of_trial(finding: Finding) -> Finding:
    """A finding of a trial's TFJob: its name is the Experiment's, so is the fix of a long one."""
    if finding.code != "tfjob_invalid_name":
        return finding
    hint = (
        "shorten the Experiment's name: Katib names the TFJob of each trial after it, with "
        f"'-' and {len(_TRIAL_SUFFIX)} characters more, and the name must be a DNS-1035 label "
        "of at most 63 characters"
    )
    return dataclasses.replace(finding, hint=hint)


def _found(finding: Finding) -> tuple[Loc, str, str, Severity, str | None, bool]:
    """A finding's place in its TFJob, code, message as reported, severity, hint and refusal.

    The message begins with the finding's :attr:`~estconf.finding.Finding.label`
    (``refused: ...`` for a refusal); the hint stays apart, for a line of its own.
    """
    message = f"{finding.label}: {finding.message}"
    return finding.loc, finding.code, message, finding.severity, finding.hint, finding.refused


def node_check(profile: str) -> Callable[[dict[str, Any]], object]:
    """The reader of one pod's ``TF_CONFIG`` under ``profile``; it raises what the reader refuses.

    A profile's check of a ``TF_CONFIG`` (:func:`estconf.profiles.check_profile`)
    also reads it once as each task of its cluster.  In a TFJob every task of
    the cluster is a pod, and :func:`estconf.kubeflow.check` reads pods of
    every replica type, so each pod is read by the profile's reader alone:
    the same findings, without reading a cluster of N tasks N times.
    """
    from estconf.profiles.registry import entry_named

    return entry_named(profile).read


def cluster_check(prediction: Prediction) -> Iterable[tuple[str | None, str]]:
    """What :func:`estconf.deployment.check_cluster` finds across the pods of one prediction.

    Every pod's ``TF_CONFIG`` is checked together: clusters that differ, a task
    claimed twice or by no pod, a pod outside its cluster, values that differ.
    What one pod's ``TF_CONFIG`` breaks by itself is the node check's.  A job
    whose pods get no ``TF_CONFIG`` (one pod, or none), or a cluster cut down for each
    pod on purpose (``enableDynamicWorker``), has nothing to compare.
    """
    from estconf.deployment import CROSS_NODE_CODES, ReaderProfile, check_cluster

    if not (prediction.distributed and prediction.pods) or prediction.dynamic_worker:
        return []
    profile = ReaderProfile("tf_config", _accept)
    report = check_cluster(_tf_configs(prediction), profile=profile, each_node=False)
    return [
        (finding.nodes[0], finding.message) if len(finding.nodes) == 1 else (None, str(finding))
        for finding in report.findings
        if finding.code in CROSS_NODE_CODES
    ]


def _tf_configs(prediction: Prediction) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each pod's ``TF_CONFIG`` as the JSON object its text holds, built without its text.

    A cluster text is parsed once, and the pods that share it share the one
    parsed object, which :func:`~estconf.deployment.check_cluster` then reads
    once.  The rest of a pod's ``TF_CONFIG`` is made from the pod's fields as
    :attr:`~estconf.kubeflow.PredictedPod.tf_config` writes them: the task,
    and ``"environment": "cloud"`` unless the cluster is sparse.
    """
    import json

    clusters: dict[str, Any] = {}
    for pod in prediction.pods:
        if pod.cluster_json is None:
            continue
        cluster = clusters.get(pod.cluster_json)
        if cluster is None:
            cluster = clusters[pod.cluster_json] = json.loads(pod.cluster_json)
        tf_config = {pod.cluster_key: cluster, "task": {"type": pod.task_type, "index": pod.index}}
        if not pod.sparse:
            tf_config["environment"] = "cloud"
        yield pod.name, tf_config


def _accept(tf_config: object) -> None:
    """Accept every ``TF_CONFIG``: what one pod's reader refuses is the node check's."""


def one_tfjob(
    raw: str | bytes, name: str, limits: Limits | None = None, *, job_name: str | None = None
) -> TFJob:
    """The one TFJob of a manifest, whose pods are to be predicted (``tf-config --tfjob``).

    Args:
        raw: the manifest's bytes (or text).
        name: the manifest's name in errors (``<stdin>``).
        limits: the limits of reading (the defaults if None).
        job_name: the name the API server gave a job created with
            ``generateName`` alone (``--name``).

    Raises:
        ConfigFileError: the manifest cannot be read.
        InputError: the TFJob has only ``generateName``, and no ``job_name`` is given.
        ValueError: the manifest holds no TFJob or several, or one the model refuses.
    """
    from estconf.io.sources import InputError
    from estconf.launchers.kubeflow.manifest import read_tfjobs

    tfjobs = read_tfjobs(raw, name=name, limits=limits)
    if len(tfjobs) != 1:
        raise ValueError(f"expected one TFJob, found {len(tfjobs)}")
    generated = tfjobs[0].metadata.generate_name
    if not tfjobs[0].metadata.name and job_name is None and generated:
        raise InputError(
            f"{name}: the TFJob has only generateName {generated!r}: the API server picks its "
            f"name when the job is created ({generated}xxxxx); give the name it got with --name "
            "NAME (kubectl get tfjobs lists it)"
        )
    return tfjobs[0]
