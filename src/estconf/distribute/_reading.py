"""How the tf.distribute readers take their ``TF_CONFIG``: argument or environment.

Every reader has a ``tf_config`` field of type :data:`ReaderTFConfig` and a
``from_env`` that fills it with :func:`tf_config_from_env`, so that an
unreadable variable is reported like any other error of the field.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, ValidationError

from estconf._errors import Errors, Refused, raise_refused
from estconf.tf_config import TF_CONFIG, TFConfig, read_env

__all__ = ["ReaderTFConfig", "check_task_readable", "tf_config_from_env"]


def _tf_config_input(value: Any) -> Any:
    """``None`` stands for an unset ``TF_CONFIG``; a refused variable raises its error."""
    value = raise_refused(value)
    return TFConfig() if value is None else value


_NULL_READINGS = {
    "type": "reads it as the task type 'None'",
    "index": "fails on it: int() argument must be a string, a bytes-like object or a real "
    "number, not 'NoneType'",
}


def check_task_readable(tf_config: TFConfig) -> TFConfig:
    """The task's ``type`` and ``index`` are not ``null`` (a section 6 ``type`` rule).

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
                "task {key} is null; TensorFlow's TFConfigClusterResolver {reading}. "
                "Leave the key out or give a value",
                ("task", key),
                None,
                {"key": key, "reading": reading},
            )
    errors.raise_if_any()
    return tf_config


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
