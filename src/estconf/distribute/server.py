"""How a TF1 program that starts its own server reads ``TF_CONFIG``: ``ServerConfig``.

Many distributed programs (Kubeflow's ``dist-mnist``, ``tf_cnn_benchmarks``)
read ``TF_CONFIG`` themselves::

    tf_config = json.loads(os.environ.get("TF_CONFIG") or "{}")
    task = tf_config.get("task", {})
    cluster = tf.train.ClusterSpec(tf_config.get("cluster", {}))
    server = tf.train.Server(cluster, job_name=task.get("type"), task_index=task.get("index"))

``tf.train.Server`` (``tf.distribute.Server``) takes any job names; it
checks only that its task is a task of the cluster.  :class:`ServerConfig`
mirrors what TensorFlow 2.15 and 2.21 check before the server starts
(``tensorflow/python/training/server_lib.py``, ``_make_server_def``): a
missing job name or task index is inferred when the cluster leaves one
choice; the index is given to a protobuf ``int32`` field; the task is then
looked up in the cluster, as the server does when it starts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from pydantic import ModelWrapValidatorHandler, ValidationError, computed_field, model_validator
from typing_extensions import Self

from estconf._derived import read_back_derived
from estconf._errors import Errors, Refused, details_of, fail
from estconf.cluster import MAX_TASK_INDEX, ClusterSpec
from estconf.distribute import _hints
from estconf.distribute._strategy import StrategyConfig
from estconf.estimator.lenient import read_like_tensorflow
from estconf.tf_config import Task, TFConfig, parse_as_tensorflow

__all__ = ["ServerConfig", "check_index_as_written", "read_like_server"]

GRPC: Final = "grpc://"
"""The scheme of a server's target."""


@dataclass(frozen=True)
class _Server:
    """The task a server runs, found as ``_make_server_def`` finds it."""

    job_name: str
    task_index: int
    address: str


def _derive(tf_config: TFConfig, title: str) -> _Server:
    """Find the server's task as ``tf.train.Server`` does, in its order.

    The job name is the task type, or the cluster's only job; the index is
    the task index, or the job's only task (``_make_server_def``); then the
    task must be in the cluster (``ClusterSpec.task_address``, as the server
    looks itself up when it starts).

    Raises:
        pydantic.ValidationError: the first rule the TF_CONFIG breaks.
    """
    cluster = tf_config.cluster
    job_name, task_index = tf_config.task.type, tf_config.task.index
    if job_name is None:
        if len(cluster.jobs) != 1:
            raise fail(
                title,
                "missing_job_name",
                "Must specify an explicit `job_name`. (the task has no type, and the cluster "
                "has {jobs} jobs, not one to choose)",
                ("task", "type"),
                None,
                {"jobs": len(cluster.jobs), "hint": _hints.missing_job_name(cluster)},
            )
        job_name = cluster.jobs[0]
    if task_index is None:
        indices = _task_indices(cluster, job_name, title)
        if len(indices) != 1:
            raise fail(
                title,
                "missing_task_index",
                "Must specify an explicit `task_index`. (the task has no index, and job "
                "{job} has {tasks} tasks, not one to choose)",
                ("task", "index"),
                None,
                {
                    "job": repr(job_name),
                    "tasks": len(indices),
                    "hint": _hints.task_index_of(job_name, cluster),
                },
            )
        task_index = indices[0]
    if not isinstance(job_name, str) or not isinstance(task_index, int):
        # Only in a TF_CONFIG read leniently, as written: the ServerDef refuses it with a
        # TypeError of protobuf's, no sentence of TensorFlow's to add.
        raise TypeError(f"a ServerDef takes no job name {job_name!r} or index {task_index!r}")
    if not -MAX_TASK_INDEX - 1 <= task_index <= MAX_TASK_INDEX:
        raise fail(
            title,
            "int32_range",
            "Value out of range: {index} (tf.train.Server gives the task index to an int32 "
            "field of its ServerDef)",
            ("task", "index"),
            task_index,
            {"index": task_index, "hint": _index_hint(cluster, job_name)},
        )
    try:
        address = cluster.task_address(job_name, task_index)
    except ValueError as missing:
        loc = ("task", "type") if job_name not in cluster.root else ("task", "index")
        value = job_name if loc[-1] == "type" else task_index
        hint = _hints.task_not_in_cluster(job_name, task_index, cluster)
        raise fail(
            title,
            "task_not_in_cluster",
            "{reason}",
            loc,
            value,
            {"reason": str(missing), "hint": hint},
        ) from None
    return _Server(job_name, task_index, address)


def _index_hint(cluster: ClusterSpec, job_name: str) -> str:
    """The fix of an index out of a protobuf ``int32``'s range: the node's index in its job."""
    if job_name in cluster.root:
        return _hints.task_index_of(job_name, cluster)
    return _hints.task_not_in_cluster(job_name, None, cluster)


def _task_indices(cluster: ClusterSpec, job_name: str, title: str) -> list[int]:
    try:
        return cluster.task_indices(job_name)
    except ValueError as missing:
        raise fail(
            title,
            "task_not_in_cluster",
            "{reason}",
            ("task", "type"),
            job_name,
            {"reason": str(missing), "hint": _hints.task_not_in_cluster(job_name, None, cluster)},
        ) from None


_DIGITS: Final = re.compile(r"-?[0-9]+", re.ASCII)

_PROTOBUF_INT: Final = "'{kind}' object cannot be interpreted as an integer"
"""What protobuf says of a ``str`` or ``float`` given to an integer field."""


def _raw_index_errors(data: Any, title: str) -> Errors:
    """A task index given as a string or a number with a fraction part: not an ``int``.

    The TF_CONFIG's task index is read as written (``"1"``, ``1.0``), and
    protobuf's ``int32`` field of the ``ServerDef`` refuses anything but an
    integer.  Only a ``TF_CONFIG`` given as a JSON object shows how the index
    was written.
    """
    errors = Errors(title)
    raw = data.get("tf_config") if isinstance(data, Mapping) else None
    task = raw.get("task") if isinstance(raw, Mapping) else None
    index = task.get("index") if isinstance(task, Mapping) else None
    # An index TFConfig refuses anyway (``"x"``, ``1.5``) is reported by it alone.
    if (isinstance(index, str) and _DIGITS.fullmatch(index)) or (
        isinstance(index, float) and index.is_integer()
    ):
        kind = type(index).__name__
        written = "string" if kind == "str" else "number with a decimal point"
        errors.add(
            "task_index_type",
            "task index {index} is written as a {written}; tf.train.Server gives it to an "
            "int32 field of its ServerDef, which refuses it: " + _PROTOBUF_INT,
            ("tf_config", "task", "index"),
            index,
            {
                "index": repr(index),
                "kind": kind,
                "written": written,
                "hint": f'write the index as an integer: "index": {int(index)}',
            },
        )
    return errors


def check_index_as_written(tf_config: Mapping[str, Any]) -> None:
    """A ``TF_CONFIG`` object's task index is written as an integer, as the ``ServerDef`` takes it.

    Raises:
        pydantic.ValidationError: ``task_index_type``, located at ``tf_config.task.index``.
    """
    errors = _raw_index_errors({"tf_config": tf_config}, ServerConfig.__name__)
    errors.raise_if_any()


class ServerConfig(StrategyConfig[_Server]):
    """What ``tf.train.Server(cluster, job_name=task["type"], task_index=task["index"])`` checks.

    Any job names; the task (its type and index, inferred when the cluster
    leaves one choice) must be a task of the cluster.  Nothing about
    ``chief``, ``ps`` or ``evaluator``: the program gives each job its
    meaning.

    Example:
        >>> config = ServerConfig(
        ...     tf_config={
        ...         "cluster": {"ps": ["ps-0:2222"], "worker": ["w-0:2222", "w-1:2222"]},
        ...         "task": {"type": "worker", "index": 1},
        ...     }
        ... )
        >>> config.target
        'grpc://w-1:2222'
    """

    @classmethod
    def derive(cls, tf_config: TFConfig) -> _Server:
        """Find the server's task as ``tf.train.Server`` does (see :func:`_derive`).

        Raises:
            pydantic.ValidationError: the first rule the TF_CONFIG breaks.
        """
        return _derive(tf_config, cls.__name__)

    @classmethod
    def read_leniently(cls, raw: Any) -> TFConfig | None:
        """What the program reads of a TF_CONFIG that failed validation.

        See :func:`read_like_server`.
        """
        return read_like_server(raw)

    @model_validator(mode="wrap")
    @classmethod
    def derived_keys_agree(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        """A dump's derived keys agree with the model, and the index is an integer as written."""
        errors = _raw_index_errors(data, cls.__name__)
        if not errors:
            return read_back_derived(cls, data, handler)
        details = errors.details()
        try:
            read_back_derived(cls, data, handler)
        except ValidationError as invalid:
            details += details_of(invalid)
        raise ValidationError.from_exception_data(errors.title, details)

    @computed_field(description="The cluster.")  # type: ignore[prop-decorator]
    @property
    def cluster_spec(self) -> ClusterSpec:
        """The cluster the server is a member of."""
        return self.tf_config.cluster

    @computed_field(description="The server's job: the task type, or the only job.")  # type: ignore[prop-decorator]
    @property
    def task_type(self) -> str:
        """The job the server runs a task of, its ``job_name``."""
        return self._derived.job_name

    @computed_field(description="The server's task index (`task_index`) in its job.")  # type: ignore[prop-decorator]
    @property
    def task_id(self) -> int:
        """The task index, or the job's only index when the task gives none."""
        return self._derived.task_index

    @computed_field(description="The address the server listens on.")  # type: ignore[prop-decorator]
    @property
    def address(self) -> str:
        """The task's ``host:port`` in the cluster."""
        return self._derived.address

    @computed_field(description="The session target of the server, `grpc://` + address.")  # type: ignore[prop-decorator]
    @property
    def target(self) -> str:
        """``tf.train.Server.target``: ``grpc://`` and the task's address."""
        return GRPC + self._derived.address


def read_like_server(raw: Any) -> TFConfig | None:
    """What a server program reads of a ``raw`` TF_CONFIG that failed validation, unchecked.

    The program reads ``cluster`` and ``task`` with ``dict.get``, the task's
    type and index as written, whether or not there is a cluster.  ``None``
    when TensorFlow fails before any check with a sentence: on the text, the
    cluster, or a task that is not an object.
    """
    if isinstance(raw, Refused):
        raw = parse_as_tensorflow(raw.value) if isinstance(raw.value, (str, bytes)) else None
    elif isinstance(raw, TFConfig):
        raw = raw.model_dump(mode="json", exclude_unset=True)
    if not isinstance(raw, Mapping):
        return None
    lenient = read_like_tensorflow({"cluster": raw.get("cluster", {})})
    task = raw.get("task", {})
    if lenient is None or not isinstance(task, Mapping):
        return None
    # As written: the server refuses a type or an index of another kind itself;
    # protobuf's int32 field takes a bool as 0 or 1.
    index = task.get("index")
    fields: dict[str, Any] = {
        "type": task.get("type"),
        "index": int(index) if isinstance(index, bool) else index,
    }
    return lenient.model_copy(update={"task": Task.model_construct(**fields)})
