"""The kinds of config file estconf reads, and how a file's kind is told from its keys.

A kind names a model and how a file of that kind is validated.  Models are
imported only when a file of their kind is read, so reading a TF_CONFIG file
does not pay for building the TPU models.

A file's kind, when not given, is the first of these whose keys it has at
its top level (:func:`detect`):

1. ``tpu_run_config``: a ``tpu_config`` key;
2. ``tpu_config``: a key of ``TPUConfig``;
3. ``run_config``: a ``tf_config`` key, or a key of ``RunConfig`` that
   ``TF_CONFIG`` does not also have (``model_dir`` is in both);
4. ``tf_config``: a key of ``TF_CONFIG`` (``cluster``, ``task``, ...).

Only the kinds this version provides take part.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["KINDS", "Kind", "detect", "get", "of_model"]


@dataclass(frozen=True)
class Kind:
    """A kind of config file: its name, its model, and the keys that mark it."""

    name: str
    title: str
    model_path: str
    markers: frozenset[str]
    description: str
    checks: tuple[str | Callable[[BaseModel], object], ...] = ()
    """Checks run on the model: ``module:function`` paths, or functions."""

    def model(self) -> type[BaseModel]:
        """Import and return the model class of this kind."""
        model: type[BaseModel] = _resolve(self.model_path)
        return model

    def validate(self, data: Mapping[str, Any]) -> BaseModel:
        """Validate file data in strict mode, then run this kind's extra checks.

        Raises:
            pydantic.ValidationError: the data is not a valid config of this kind.
        """
        result = self.model().model_validate(data, strict=True)
        for check in self.checks:
            run: Callable[[BaseModel], object] = (
                _resolve(check) if isinstance(check, str) else check
            )
            run(result)
        return result


def _resolve(path: str) -> Any:
    """Import ``module:name`` and return the name."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


_TF_CONFIG_KEYS = frozenset(
    {
        "cluster",
        "task",
        "environment",
        "session_master",
        "eval_session_master",
        "model_dir",
        "service",
        "rpc_layer",
    }
)

_RUN_CONFIG_KEYS = frozenset(
    {
        "model_dir",
        "tf_random_seed",
        "save_summary_steps",
        "save_checkpoints_steps",
        "save_checkpoints_secs",
        "session_config",
        "keep_checkpoint_max",
        "keep_checkpoint_every_n_hours",
        "log_step_count_steps",
        "train_distribute",
        "device_fn",
        "protocol",
        "eval_distribute",
        "experimental_distribute",
        "experimental_max_worker_delay_secs",
        "session_creation_timeout_secs",
        "checkpoint_save_graph_def",
        "tf_config",
        # derived, found in dumps
        "cluster_spec",
        "task_type",
        "task_id",
        "master",
        "evaluation_master",
        "is_chief",
        "num_ps_replicas",
        "num_worker_replicas",
        "global_id_in_cluster",
        "service",
    }
)

_TPU_CONFIG_KEYS = frozenset(
    {
        "iterations_per_loop",
        "num_shards",
        "num_cores_per_replica",
        "per_host_input_for_training",
        "tpu_job_name",
        "initial_infeed_sleep_secs",
        "input_partition_dims",
        "eval_training_input_configuration",
        "experimental_host_call_every_n_steps",
        "experimental_allow_per_host_v2_parallel_get_next",
        "experimental_feed_hook",
        # derived, found in dumps
        "iterations_per_loop_counter",
    }
)

KINDS: dict[str, Kind] = {
    "tpu_run_config": Kind(
        name="tpu_run_config",
        title="tpu.RunConfig",
        model_path="estconf.tpu.run_config:RunConfig",
        markers=frozenset({"tpu_config"}),
        description="The arguments of tf.estimator.tpu.RunConfig: those of "
        "tf.estimator.RunConfig, with `tpu_config`, `master` and `evaluation_master`.",
    ),
    "tpu_config": Kind(
        name="tpu_config",
        title="TPUConfig",
        model_path="estconf.tpu.config:TPUConfig",
        markers=_TPU_CONFIG_KEYS,
        description="The arguments of tf.estimator.tpu.TPUConfig.",
    ),
    "run_config": Kind(
        name="run_config",
        title="RunConfig",
        model_path="estconf.run_config:RunConfig",
        markers=_RUN_CONFIG_KEYS - _TF_CONFIG_KEYS,
        description="The arguments of tf.estimator.RunConfig, with the TF_CONFIG they see.",
    ),
    "tf_config": Kind(
        name="tf_config",
        title="TF_CONFIG",
        model_path="estconf.tf_config:TFConfig",
        markers=_TF_CONFIG_KEYS,
        description="The TF_CONFIG environment variable of a distributed job, checked "
        "with the rules tf.estimator.RunConfig applies to it.",
        checks=("estconf._distributed:check_tf_config_file",),
    ),
}
"""The kinds, in the order :func:`detect` tries them."""


def get(name: str) -> Kind:
    """Return the kind called ``name``.

    Raises:
        ValueError: there is no such kind.
    """
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(f"unknown kind {name!r}; the kinds are {', '.join(KINDS)}") from None


def of_model(model: type) -> Kind | None:
    """Return the kind whose model is the class ``model``, without importing any model.

    A kind's model is looked up only in a module already imported: a class
    that is not there is the model of no kind.
    """
    for kind in KINDS.values():
        module, _, name = kind.model_path.partition(":")
        if getattr(sys.modules.get(module), name, None) is model:
            return kind
    return None


def detect(data: Mapping[str, Any]) -> Kind | None:
    """Return the kind that the top-level keys of ``data`` mark, or ``None``."""
    for kind in KINDS.values():
        if not kind.markers.isdisjoint(data):
            return kind
    return None
