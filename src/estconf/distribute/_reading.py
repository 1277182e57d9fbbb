"""How the tf.distribute readers take their ``TF_CONFIG``: argument or environment.

Every reader has a ``tf_config`` field of type :data:`ReaderTFConfig` and a
``from_env`` that fills it with :func:`tf_config_from_env`, so that an
unreadable variable is reported like any other error of the field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, ValidationError

from estconf._errors import Errors, Refused, with_errors_of
from estconf.estimator.lenient import read_like_tensorflow
from estconf.tf_config import TF_CONFIG, Task, TFConfig, parse_as_tensorflow, read_env

__all__ = ["ReaderTFConfig", "check_task_readable", "read_like_resolver", "tf_config_from_env"]


def _tf_config_input(value: Any) -> Any:
    """``None`` stands for an unset ``TF_CONFIG``; a refused variable raises its error."""
    if isinstance(value, Refused):
        raise _with_errors_of_its_reading(value)
    return TFConfig() if value is None else value


def _with_errors_of_its_reading(refused: Refused) -> Exception:
    """The error of a refused ``TF_CONFIG`` text, and the errors of what TensorFlow reads of it.

    Where estconf refuses the text itself (duplicate keys), TensorFlow's
    ``json.loads`` reads it, keeping the last of duplicate keys, and may then
    refuse what it read with a sentence of its own: those errors are reported
    too.
    """
    error, text = refused.error, refused.value
    if not isinstance(error, ValidationError) or not isinstance(text, (str, bytes)):
        return error
    parsed = parse_as_tensorflow(text)
    if parsed is None:
        return error
    return with_errors_of(error, lambda: TFConfig.model_validate(parsed))


_NULL_READINGS = {
    "type": "reads it as the task type 'None'",
    "index": "fails on it: int() argument must be a string, a bytes-like object or a real "
    "number, not 'NoneType'",
}

_NULL_FIXES = {
    "type": 'leave "type" out of the task, or give this node\'s job',
    "index": 'leave "index" out of the task, or give this node\'s index in its job',
}


def check_task_readable(tf_config: TFConfig) -> TFConfig:
    """The task's ``type`` and ``index`` are not ``null`` (``type``, stricter than TensorFlow).

    ``TFConfigClusterResolver`` reads ``task.type`` with ``str()`` and
    ``task.index`` with ``int()`` whenever the key is present, so a null type
    becomes the task type ``'None'`` and a null index fails when it is read.

    Raises:
        pydantic.ValidationError: ``task.type`` or ``task.index`` is ``null``.
    """
    task = tf_config.task
    errors = Errors("TFConfig")
    for key, reading in _NULL_READINGS.items():
        if key in task.model_fields_set and getattr(task, key) is None:
            errors.add(
                "type",
                "task {key} is null; TensorFlow's TFConfigClusterResolver {reading}",
                ("task", key),
                None,
                {"key": key, "reading": reading, "hint": _NULL_FIXES[key]},
            )
    errors.raise_if_any()
    return tf_config


def read_like_resolver(raw: Any) -> TFConfig | None:
    """What a strategy reads of a ``raw`` TF_CONFIG that failed validation, unchecked.

    ``raw`` is the ``tf_config`` input: a parsed object, a ``TFConfig``, or
    the variable's text that estconf refused (:class:`~estconf._errors.Refused`), which
    TensorFlow parses with ``json.loads``, keeping the last of duplicate keys.
    The strategies read ``cluster`` and ``task`` through
    ``TFConfigClusterResolver`` (``value[key] if key in value``, so that a JSON
    array reads as empty), and only with a cluster the task's type with
    ``str()`` and index with ``int()``.  ``None`` when TensorFlow fails
    before any of the strategy's checks: on the text, the cluster, or the
    task as it reads them.
    """
    if isinstance(raw, Refused):
        try:
            raw = json.loads(raw.value)
        except (TypeError, ValueError, RecursionError):
            return None
    elif isinstance(raw, TFConfig):  # valid but for a null task type or index
        raw = raw.model_dump(mode="json", exclude_unset=True)
    try:
        read = {key: raw[key] for key in ("cluster", "task") if key in raw}
    except Exception:  # TensorFlow fails on it too: 5, "cluster", ...
        return None
    lenient = read_like_tensorflow({"cluster": read.get("cluster", {})})
    if lenient is None or not lenient.cluster:
        return lenient  # with no cluster, the strategies read no task
    task = read.get("task", {})
    fields: dict[str, Any] = {}
    try:
        if "type" in task:
            fields["type"] = str(task["type"])
        if "index" in task:
            fields["index"] = int(task["index"])
    except Exception:
        return None
    return lenient.model_copy(
        update={"task": Task.model_construct(_fields_set=set(fields), **fields)}
    )


ReaderTFConfig = Annotated[
    TFConfig, BeforeValidator(_tf_config_input), AfterValidator(check_task_readable)
]
"""The ``TF_CONFIG`` of a tf.distribute reader: ``None`` means unset."""


def tf_config_from_env(environ: Mapping[str, str] | None = None) -> Any:
    """Read ``TF_CONFIG`` from ``environ`` (``os.environ`` by default) for a reader's field.

    Returns the parsed object, ``None`` when the variable is unset, or the
    text wrapped in :class:`~estconf._errors.Refused` when it cannot be
    parsed, so that the reader reports it at its ``tf_config`` field.
    """
    try:
        return read_env(environ)
    except ValidationError as error:
        return Refused((os.environ if environ is None else environ).get(TF_CONFIG), error)
