"""A RunConfig file given to ``estconf explain --config``, read once.

The file holds the arguments of ``tf.estimator.RunConfig``, or of
``tf.estimator.tpu.RunConfig`` when it has a ``tpu_config`` key.  Its bytes
are read once: a file given as ``<(command)`` cannot be read twice.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError, error
from estconf.io.sources import format_for, read_file

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["read_run_config_file"]


def read_run_config_file(
    path: str, input_format: str | None = None, limits: Limits | None = None
) -> tuple[dict[str, Any], BaseModel]:
    """The data of a RunConfig file and its model: a ``tpu.RunConfig`` when it has ``tpu_config``.

    Raises:
        ConfigFileError: the file cannot be read, holds no object, or is not
            a valid RunConfig file (of kind ``run_config`` or ``tpu_run_config``).
    """
    from estconf.io.files import load_file, read_data

    given = dataclasses.asdict(limits or Limits())
    raw = read_file(path, given["max_size"])
    fmt = format_for(path, input_format)
    data = read_data(path, format=fmt, content=raw, **given)
    if not isinstance(data, dict):
        raise ConfigFileError(
            path, [error(path, "not_an_object", "a RunConfig file holds an object")]
        )
    kind = "tpu_run_config" if "tpu_config" in data else "run_config"
    return data, load_file(path, kind, format=fmt, content=raw, **given).model
