"""TensorFlow itself, for the models' ``to_tensorflow`` and ``from_tensorflow``.

TensorFlow is imported here, and only when a conversion is asked for.
TensorFlow's ``RunConfig`` and ``TPUConfig`` read ``TF_CONFIG`` from
``os.environ`` when they are built, so :func:`tf_config_environ` sets the
variable for that moment, under a lock, and restores it afterwards.  Other
threads that read ``os.environ`` at that moment see the temporary value.

This module knows nothing of estconf's models: each model converts itself.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["tensorflow", "tf_config_environ"]

_ENVIRON_LOCK = threading.RLock()
_TF_CONFIG = "TF_CONFIG"
_INTEROP = "estconf[tensorflow]"


def tensorflow() -> Any:
    """Import and return the ``tensorflow`` module.

    Raises:
        ImportError: TensorFlow is not installed; the message says how to get it.
    """
    try:
        return importlib.import_module("tensorflow")
    except ImportError as exc:
        raise ImportError(
            f"converting to or from TensorFlow needs TensorFlow: pip install '{_INTEROP}'"
        ) from exc


@contextmanager
def tf_config_environ(text: str | None) -> Iterator[None]:
    """Set (or, for ``None``, unset) ``TF_CONFIG`` in ``os.environ`` for the block; restore it."""
    with _ENVIRON_LOCK:
        saved = os.environ.get(_TF_CONFIG)
        try:
            if text is None:
                os.environ.pop(_TF_CONFIG, None)
            else:
                os.environ[_TF_CONFIG] = text
            yield
        finally:
            if saved is None:
                os.environ.pop(_TF_CONFIG, None)
            else:
                os.environ[_TF_CONFIG] = saved
