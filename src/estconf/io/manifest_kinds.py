"""Which Kubernetes object a document is: a TFJob, a Volcano Job, a JobSet, a ``List``, ...

:mod:`estconf.io.kinds` gives these answers too, beside the kinds of config
file: a reader asks it what a document is.  They live here because a
manifest is told by its ``apiVersion`` and ``kind``, not by the keys a
config file is told by.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final

from estconf._launchers import MANIFEST_KINDS, ManifestKind

if TYPE_CHECKING:
    from estconf.io._positions import Loc

__all__ = [
    "KUBEFLOW_API_GROUP",
    "MANIFEST_FORMATS",
    "TFJOB",
    "VOLCANO_API_GROUP",
    "clipped",
    "is_env_list",
    "is_katib_experiment",
    "is_tfjob",
    "is_volcano_job",
    "launcher_manifest",
    "list_items",
    "listed",
    "manifest_of",
    "may_hold_launcher_manifest",
    "may_hold_manifest",
    "may_hold_tfjob",
    "may_hold_volcano_job",
    "tfjobs_in",
]

MANIFEST_FORMATS: Final = ("json", "yaml")
"""The formats a Kubernetes manifest is written in."""

KUBEFLOW_API_GROUP: Final = "kubeflow.org"
"""The API group of Kubeflow's objects (a TFJob, a Katib Experiment): ``kubeflow.org/v1``."""

TFJOB: Final = "TFJob"
"""The ``kind`` of a Kubeflow TFJob's manifest."""

VOLCANO_API_GROUP: Final = "batch.volcano.sh"
"""The API group of Volcano's Job: ``batch.volcano.sh/v1alpha1``."""

_EXPERIMENT: Final = "Experiment"
"""The ``kind`` of a Katib Experiment's manifest."""

_TRIAL_SPEC: Final = ("spec", "trialTemplate", "trialSpec")
"""Where a Katib ``Experiment`` holds the job each of its trials runs."""

# A document that is a TFJob has this in its text, in YAML or JSON form: the key
# `kind`, quoted or not, then YAML's tags and anchors if any (`!!str`, `&kind`), then TFJob.
_TFJOB_KIND: Final = re.compile(rb"""["']?kind["']?\s*:\s*(?:[!&]\S*\s+)*["']?TFJob\b""")


def may_hold_manifest(raw: bytes) -> bool:
    """Whether a file's bytes may hold a Kubernetes manifest: they hold ``apiVersion``.

    A file of which this is false is not parsed for manifests.
    """
    return b"apiVersion" in raw


def may_hold_tfjob(raw: bytes) -> bool:
    """Whether a file's bytes may hold a TFJob: they hold ``kind: TFJob``, in YAML or JSON form.

    A file of which this is false is not parsed for TFJobs, so telling a
    config file from a TFJob's manifest costs a search of its bytes.  The
    word alone (in a comment, a value) is no TFJob, nor is ``kind: TFJobList``.
    """
    return _TFJOB_KIND.search(raw) is not None


def may_hold_volcano_job(raw: bytes) -> bool:
    """Whether a file's bytes may hold a Volcano Job: they name its API group, ``batch.volcano.sh``.

    A file of which this is false is not parsed for Volcano Jobs.
    """
    return VOLCANO_API_GROUP.encode() in raw


def _of_kubeflow(data: Mapping[Any, Any]) -> bool:
    """Whether the ``apiVersion`` of ``data`` is of Kubeflow's API group (any version)."""
    api_version = data.get("apiVersion")
    return isinstance(api_version, str) and api_version.startswith(f"{KUBEFLOW_API_GROUP}/")


def _of_volcano(data: Mapping[Any, Any]) -> bool:
    """Whether the ``apiVersion`` of ``data`` is of Volcano's batch API group (any version)."""
    api_version = data.get("apiVersion")
    return isinstance(api_version, str) and api_version.startswith(f"{VOLCANO_API_GROUP}/")


def manifest_of(data: Mapping[Any, Any]) -> str | None:
    """Name the Kubernetes object ``data`` is a manifest of, or ``None``.

    A Kubernetes manifest has the strings ``apiVersion`` and ``kind`` at its
    top level, which no ``TF_CONFIG`` and no argument of a config has.

    Example:
        >>> manifest_of({"apiVersion": "kubeflow.org/v1", "kind": "TFJob", "spec": {}})
        'a Kubeflow TFJob manifest (apiVersion: kubeflow.org/v1)'
        >>> manifest_of({"cluster": {"chief": ["host0:2222"]}}) is None
        True
    """
    api_version, kind = data.get("apiVersion"), data.get("kind")
    if not (isinstance(api_version, str) and isinstance(kind, str)):
        return None
    kubeflow = _of_kubeflow(data) or api_version.partition("/")[0].endswith(".kubeflow.org")
    owner = "Kubeflow" if kubeflow else "Volcano" if _of_volcano(data) else "Kubernetes"
    return f"a {owner} {clipped(kind)} manifest (apiVersion: {clipped(api_version)})"


def is_tfjob(data: Mapping[Any, Any], *, any_api_group: bool = False) -> bool:
    """Whether ``data`` is the manifest of a Kubeflow TFJob (any ``kubeflow.org`` version).

    With ``any_api_group``, whether its ``kind`` is ``TFJob`` whatever its
    ``apiVersion``: a reader of TFJobs then refuses another API group, and
    says why, rather than pass the document over.
    """
    return data.get("kind") == TFJOB and (any_api_group or _of_kubeflow(data))


def is_volcano_job(data: Mapping[Any, Any]) -> bool:
    """Whether ``data`` is the manifest of a Volcano Job (``kind: Job`` of ``batch.volcano.sh``)."""
    return data.get("kind") == "Job" and _of_volcano(data)


# `kind:` of an object of MANIFEST_KINDS, in YAML or JSON form, as _TFJOB_KIND reads TFJob
_LAUNCHER_KIND: Final = re.compile(
    rb"""["']?kind["']?\s*:\s*(?:[!&]\S*\s+)*["']?(?:%b)\b"""
    % b"|".join(re.escape(declared.kind.encode()) for declared in MANIFEST_KINDS)
)


def may_hold_launcher_manifest(raw: bytes) -> bool:
    """Whether a file's bytes may hold an object of :data:`~estconf._launchers.MANIFEST_KINDS`."""
    return _LAUNCHER_KIND.search(raw) is not None


def launcher_manifest(data: Mapping[Any, Any]) -> ManifestKind | None:
    """The object a launcher reads that ``data`` is (a JobSet, a TrainJob), or ``None``.

    It is told by the group of its ``apiVersion`` (any version) and its ``kind``.
    """
    api_version, kind = data.get("apiVersion"), data.get("kind")
    group = api_version.partition("/")[0] if isinstance(api_version, str) else None
    found = (k for k in MANIFEST_KINDS if k.kind == kind and k.api_group == group)
    return next(found, None)


def is_katib_experiment(data: Mapping[Any, Any]) -> bool:
    """Whether ``data`` is the manifest of a Katib ``Experiment`` (of ``kubeflow.org``)."""
    return data.get("kind") == _EXPERIMENT and _of_kubeflow(data)


def list_items(data: Mapping[Any, Any]) -> list[Any] | None:
    """The items of a ``List`` of objects (``kubectl get -o yaml`` prints one), or ``None``.

    A ``List``'s ``kind`` ends in ``List`` (``List``, ``TFJobList``) and its
    ``items`` are a list: an object of another kind is no list, whatever its
    ``items`` hold.
    """
    kind, items = data.get("kind"), data.get("items")
    listing = isinstance(kind, str) and kind.endswith("List") and isinstance(items, list)
    return items if listing else None


def listed(data: Any, prefix: Loc = ()) -> Iterator[tuple[Loc, Mapping[Any, Any]]]:
    """Each object of a document, with its path: the document, or each item of its ``List``s."""
    if not isinstance(data, Mapping):
        return
    items = list_items(data)
    if items is None:
        yield prefix, data
        return
    for index, item in enumerate(items):
        yield from listed(item, (*prefix, "items", index))


def tfjobs_in(
    data: Any, prefix: Loc = ()
) -> Iterator[tuple[Loc, Mapping[Any, Any], Mapping[Any, Any] | None]]:
    """Each TFJob of a document, with its path and the Katib ``Experiment`` that runs it, if any.

    A TFJob is the document itself, an item of a ``List``, or the
    ``trialSpec`` of a Katib ``Experiment``, which each trial of the
    Experiment runs (the Experiment is then given with it; else ``None``).
    """
    for path, found in listed(data, prefix):
        if is_tfjob(found):
            yield path, found, None
        elif is_katib_experiment(found):
            trial: Any = found
            for step in _TRIAL_SPEC:
                trial = trial.get(step) if isinstance(trial, Mapping) else None
            if isinstance(trial, Mapping) and is_tfjob(trial):
                yield (*path, *_TRIAL_SPEC), trial, found


def is_env_list(data: Mapping[Any, Any]) -> bool:
    """Whether ``data`` is a container's env list alone (``tf-config --format k8s`` writes one)."""
    return list(data) == ["env"] and isinstance(data["env"], list)


def clipped(text: str, most: int = 80) -> str:
    """``text``, or its start and ``...`` when it is longer than ``most`` characters."""
    return text if len(text) <= most else f"{text[:most]}..."
