"""The inputs of the launchers: a Vertex AI CustomJob spec, SageMaker's JSON files.

Each is read by :func:`estconf.io.reading.read_config`, with the checks
of a config file's values, under the command's limits.  A CustomJob spec's
replicas are each given their ``TF_CONFIG`` (or ``CLUSTER_SPEC``) as
``tf-config --vertex`` writes them (:func:`vertex_replicas`), what a reader
refuses placed at the spec's lines.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from estconf.io import parse
from estconf.io.checks import Limits
from estconf.io.reading import read_config
from estconf.io.sources import STDIN, STDIN_NAME, InputError, format_of, read_file, read_stdin
from estconf.launchers.base import Notes

if TYPE_CHECKING:
    from estconf.io.errors import FileError
    from estconf.io.parse import Document

__all__ = ["Replicas", "vertex_replicas", "vertex_spec"]


def vertex_spec(name: str, limits: Limits, stdin: bytes | str | None = None) -> Document:
    """A Vertex AI CustomJob spec (``gcloud ai custom-jobs create --config``), YAML or JSON.

    Args:
        name: the spec file.
        limits: the limits of reading.
        stdin: standard input's content, when the spec is given there as
            ``-`` (read here if None): JSON when its text starts as an object
            does, else YAML.

    Raises:
        ConfigFileError: the spec cannot be read, or holds what no config may.
        InputError: the file's name says it is TOML.
    """
    if name == STDIN:
        given = read_stdin(limits.max_size) if stdin is None else stdin
        [read] = read_config(given, STDIN_NAME, None, limits)
    else:
        text = parse.decode(read_file(name, limits.max_size), name)
        fmt = format_of(name) or "yaml"
        if fmt == "toml":
            raise InputError(f"{name}: a CustomJob spec is YAML or JSON")
        [read] = read_config(text, name, fmt, limits)
    assert read.document is not None
    return read.document


@dataclass(frozen=True)
class Replicas:
    """The replicas of a CustomJob, as ``tf-config --vertex`` writes them.

    Attributes:
        outputs: each replica's task (type, index) and its ``TF_CONFIG`` (or
            ``CLUSTER_SPEC``) as JSON text.
        labels: each output's label: the replica, and its task.
        notes: what the reader refuses, at the spec's lines; the note on the
            job's id; the note on a Reduction Server pool, at its image.
        failed: the spec is refused: nothing is to be written.
        names: each output's replica (``workerpool1-0``).
    """

    outputs: list[tuple[tuple[str, int], str]]
    labels: list[str]
    notes: Notes = field(default_factory=Notes)
    failed: bool = False
    names: list[str] = field(default_factory=list)


def vertex_replicas(
    document: Document,
    shown: str,
    *,
    profile: str = "estimator",
    cluster_spec: bool = False,
    job_id: str | None = None,
    trial: int | None = None,
    task: tuple[str, int] | None = None,
    before: Callable[[dict[str, Any]], object] = lambda replicas: None,
) -> Replicas:
    """Each replica's ``TF_CONFIG`` (``cluster_spec``: ``CLUSTER_SPEC``) of a CustomJob spec.

    Args:
        document: the spec, read (:func:`vertex_spec`).
        shown: its name in what is found (``<stdin>``).
        profile: the reader the replicas' ``TF_CONFIG``s are checked under
            (a ``CLUSTER_SPEC`` under the default profile is not).
        cluster_spec: each replica's ``CLUSTER_SPEC`` instead.
        job_id: the job's id in the host names (None: a stand-in, with a note).
        trial: the hyperparameter-tuning trial the replicas run, in each task;
            None outside one.
        task: one replica's alone, or every replica's (None).
        before: given every replica's, by name, before they are written: a
            job of many replicas may be refused there.
    """
    from pydantic import ValidationError

    from estconf.io.errors import errors_of
    from estconf.launchers.vertex import replicas as vertex

    data = document.data
    if not isinstance(data, dict):
        message = f"{shown}: a CustomJob spec holds an object with workerPoolSpecs"
        return Replicas([], [], Notes([message]), failed=True)
    given = vertex.DEFAULT_JOB_ID if job_id is None else job_id
    try:
        if profile != "estimator" or not cluster_spec:
            vertex.check_profile(data, profile)
        build = vertex.cluster_specs if cluster_spec else vertex.tf_configs
        replicas = build(data, job_id=given, trial=trial)
    except ValidationError as exc:
        placed = errors_of(exc, shown) + _reduction_server(data, shown, cluster_spec=cluster_spec)
        return Replicas([], [], Notes(findings=document.place(placed)), failed=True)
    before(replicas)
    lines = []
    if job_id is None:
        lines.append(
            f"note: Vertex AI names each replica's host after the job's id, chosen when the "
            f"job is created; these use {given!r} (--job-id ID for another)"
        )
    found = document.place(_reduction_server(data, shown, cluster_spec=cluster_spec))
    notes = Notes(lines, findings=found)
    outputs = []
    labels = []
    names = []
    for replica, config in replicas.items():
        own = config["task"]
        if task is not None and task != (own["type"], own["index"]):
            continue
        outputs.append(((own["type"], own["index"]), json.dumps(config, separators=(",", ":"))))
        labels.append(replica if cluster_spec else f"{replica}: {own['type']}:{own['index']}")
        names.append(replica)
    return Replicas(outputs, labels, notes, names=names)


def _reduction_server(data: dict[str, Any], shown: str, *, cluster_spec: bool) -> list[FileError]:
    """The note on a pool 2 that runs Vertex AI's Reduction Server, at its image; else none."""
    from pydantic import ValidationError

    from estconf.io.errors import error
    from estconf.launchers.vertex.spec import REDUCTION_SERVER_POOL, CustomJobSpec, image_uri_at

    try:
        count = CustomJobSpec.model_validate(data).reduction_server_replicas
    except ValidationError:
        return []
    if not count:
        return []
    several = count != 1
    replicas = f"its {count:,} replicas" if several else "its replica"
    run, them = ("run", "them") if several else ("runs", "it")
    if cluster_spec:
        given = (
            f"{replicas} {run} Vertex AI's Reduction Server, not TensorFlow; CLUSTER_SPEC "
            f"lists {them} as workerpool{REDUCTION_SERVER_POOL}, as it lists every pool"
        )
    else:
        given = (
            f"{replicas} {run} Vertex AI's Reduction Server, no TensorFlow and no parameter "
            f"server: estconf leaves {them} out of the cluster and writes no TF_CONFIG for "
            f"{them}, as Vertex AI does not document one"
        )
    at = image_uri_at(data, REDUCTION_SERVER_POOL)
    return [error(shown, "vertex_reduction_server", f"note: {given}", at, severity="note")]
