"""The TF_CONFIGs Kubeflow's training operator writes for a TFJob, as ``tf-config`` writes them.

A TFJob is given by its replica counts (``--job NAME --worker N ...``:
:func:`replica_tf_configs`, each TF_CONFIG checked under a profile) or as a
manifest (``--tfjob FILE``: :func:`manifest_tf_configs`, every TF_CONFIG the
operator would write, whether or not a reader would accept it).  What the
operator refuses, and the notes of the prediction, are returned beside them
(:class:`~estconf.launchers.base.Notes`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from estconf.launchers.base import Notes, Pod

if TYPE_CHECKING:
    from estconf.io.checks import Limits
    from estconf.launchers.kubeflow.manifest import TFJob
    from estconf.launchers.kubeflow.operator import Prediction
    from estconf.launchers.kubeflow.size import TFConfigSize

__all__ = ["Predicted", "manifest_tf_configs", "replica_tf_configs"]

_OLDER_VERSION: Final = "tfjob_api_version"
"""The finding of a TFJob of an earlier apiVersion: a note here, its TF_CONFIGs are v1's."""

Before = Callable[["TFConfigSize"], object]
"""Given the size of the TF_CONFIGs before they are built: a large job may be refused there."""


@dataclass(frozen=True)
class Predicted:
    """The TF_CONFIGs of a TFJob's pods, and what was found of them.

    Attributes:
        outputs: each pod's task (type, index) and ``TF_CONFIG``, as the operator writes it.
        notes: notes and refusals (empty when there are none).
        failed: the job is refused: nothing is to be written.
        pods: each pod's name and the TF_CONFIG its program reads: the operator's,
            or in a job of one pod the one set by hand, if any (``--format pods``).
    """

    outputs: list[tuple[tuple[str, int], str]]
    notes: Notes = field(default_factory=Notes)
    failed: bool = False
    pods: list[Pod] = field(default_factory=list)


def replica_tf_configs(
    job: str,
    counts: dict[str, int],
    *,
    namespace: str = "default",
    port: int = 2222,
    cluster_domain: str | None = None,
    task: tuple[str, int] | None = None,
    profile: str = "estimator",
    before: Before = lambda size: None,
) -> Predicted:
    """The TF_CONFIGs the operator writes for a TFJob of these replica counts, checked.

    Args:
        job: the TFJob's name.
        counts: the replicas of each replica type (``{"Worker": 4}``).
        namespace: its namespace.
        port: its ``tfjob-port``.
        cluster_domain: the operator's ``CUSTOM_CLUSTER_DOMAIN``.
        task: one pod's TF_CONFIG alone, or every pod's (None).
        profile: the reader the TF_CONFIGs are checked under.
        before: given their size before they are built.

    Raises:
        InputError: the cluster is too large to build.
    """
    import json

    from pydantic import ValidationError

    from estconf.io.errors import errors_of
    from estconf.io.sources import InputError
    from estconf.launchers.formats import label
    from estconf.launchers.kubeflow.checks import check
    from estconf.launchers.kubeflow.operator import Operator, predict, tfjob_for_replicas
    from estconf.launchers.kubeflow.size import tf_config_size
    from estconf.profiles import check_profile

    name = f"--job {job}"
    tfjob = tfjob_for_replicas(job, counts, namespace=namespace, port=port)
    refused = [f for f in check(tfjob, node_check=None) if f.refused]
    if refused:
        return Predicted([], Notes([f"{name}: {f.message}" for f in refused]), failed=True)
    operator = Operator(cluster_domain=cluster_domain)
    before(tf_config_size(tfjob, operator=operator, task=task))
    try:
        prediction = predict(tfjob, operator=operator, task=task)
    except ValueError as exc:  # a cluster too large to build
        raise InputError(f"{name}: {exc}; estconf validate checks a job of any size") from None
    found = _pods(prediction, task)
    if found.outputs:
        first, text = found.outputs[0]
        try:
            check_profile(json.loads(text), profile)
        except ValidationError as exc:
            where = f"{name} ({label(first)})"
            notes = Notes(found.notes.lines, errors_of(exc, where), counted=True)
            return Predicted([], notes, failed=True)
    return found


def manifest_tf_configs(
    raw: str | bytes,
    shown: str,
    limits: Limits,
    *,
    job_name: str | None = None,
    cluster_domain: str | None = None,
    task: tuple[str, int] | None = None,
    before: Before = lambda size: None,
) -> Predicted:
    """The TF_CONFIGs the operator would write for a TFJob manifest, unjudged.

    A TFJob of an earlier ``apiVersion`` is predicted as ``kubeflow.org/v1``,
    whose replica specs it shares, with a note.

    Args:
        raw: the manifest's bytes (or text).
        shown: its name in what is found (``<stdin>``).
        limits: the limits of reading.
        job_name: the name of a job written with ``generateName`` alone.
        cluster_domain: the operator's ``CUSTOM_CLUSTER_DOMAIN``.
        task: one pod's TF_CONFIG alone, or every pod's (None).
        before: given their size before they are built.

    Raises:
        InputError: the TFJob has only ``generateName``, and no ``job_name`` is given.
    """
    from estconf.io.errors import ConfigFileError
    from estconf.io.sources import InputError
    from estconf.launchers.kubeflow.checks import check
    from estconf.launchers.kubeflow.operator import Operator, predict
    from estconf.launchers.kubeflow.size import tf_config_size
    from estconf.launchers.kubeflow.tfjobs import one_tfjob, said_of

    operator = Operator(cluster_domain=cluster_domain)
    try:
        tfjob = one_tfjob(raw, shown, limits, job_name=job_name)
        findings = check(tfjob, name=job_name, operator=operator, node_check=None)
        refused = [f for f in findings if f.refused and f.code != _OLDER_VERSION]
        if not refused:
            before(tf_config_size(tfjob, name=job_name, operator=operator, task=task))
        prediction = (
            None if refused else predict(tfjob, name=job_name, operator=operator, task=task)
        )
    except ConfigFileError as exc:  # not a manifest that can be read
        return Predicted([], Notes(findings=exc.errors), failed=True)
    except InputError:
        raise
    except ValueError as exc:
        return Predicted([], Notes([f"{shown}: {said_of(exc)}"]), failed=True)
    lines = []
    if any(finding.code == _OLDER_VERSION for finding in findings):
        # kubectl apply refuses it, but its replica specs read as v1's: predicted as v1
        lines.append(
            f"{shown}: apiVersion: note: kubectl apply refuses a TFJob of "
            f"{tfjob.api_version} (the operator serves kubeflow.org/v1 only); these are "
            "the TF_CONFIGs of the same job as kubeflow.org/v1"
        )
        lines.append("hint: write apiVersion: kubeflow.org/v1")
    if prediction is None:
        lines.extend(f"{shown}: {f.path}: {f.message}" for f in refused)
        return Predicted([], Notes(lines), failed=True)
    found = _pods(prediction, task, tfjob)
    return Predicted(found.outputs, Notes([*lines, *found.notes.lines]), pods=found.pods)


def _pods(
    prediction: Prediction, task: tuple[str, int] | None, tfjob: TFJob | None = None
) -> Predicted:
    """Each pod's TF_CONFIG, as the operator writes it; ``task`` picks one.

    In a job of one pod, which the operator gives none, the pod reads the one
    its ``tensorflow`` container sets, if ``tfjob`` sets one.
    """
    chosen = [pod for pod in prediction.pods if task in (None, (pod.task_type, pod.index))]
    outputs = [
        ((pod.task_type, pod.index), pod.tf_config) for pod in chosen if pod.tf_config is not None
    ]
    if prediction.distributed:
        return Predicted(outputs, pods=[Pod(pod.name, pod.tf_config) for pod in chosen])
    own = {} if tfjob is None else _set_by_hand(tfjob)
    alone = (
        "the job has one replica in all: the operator gives its pod no TF_CONFIG "
        "(TensorFlow runs it alone)"
    )
    pods = [Pod(pod.name, own.get(pod.replica_key)) for pod in chosen]
    return Predicted(outputs, Notes([alone]), pods=pods)


def _set_by_hand(tfjob: TFJob) -> dict[str, str | None]:
    """The TF_CONFIG each replica spec's ``tensorflow`` container sets by hand (its last), if any.

    A value of ``valueFrom`` is known to the running pod alone, and is None here.
    """
    found: dict[str, str | None] = {}
    for key, _, spec in tfjob.replica_specs():
        position = spec.tensorflow_container
        if position is None:
            continue
        values = [
            v.value for v in spec.template.spec.containers[position].env if v.name == "TF_CONFIG"
        ]
        if values:
            found[key] = values[-1]
    return found
