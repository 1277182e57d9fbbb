"""Property-by-property comparison of TensorFlow's config objects and estconf's.

Imported only by test modules that have already found TensorFlow.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from typing import Any

import tensorflow as tf
from google.protobuf import json_format

from compat.harness import same, same_cluster

PROPERTIES = [
    "model_dir",
    "tf_random_seed",
    "save_summary_steps",
    "save_checkpoints_steps",
    "save_checkpoints_secs",
    "keep_checkpoint_max",
    "keep_checkpoint_every_n_hours",
    "log_step_count_steps",
    "protocol",
    "experimental_max_worker_delay_secs",
    "session_creation_timeout_secs",
    "checkpoint_save_graph_def",
    "task_type",
    "task_id",
    "master",
    "evaluation_master",
    "is_chief",
    "num_ps_replicas",
    "num_worker_replicas",
    "global_id_in_cluster",
    "service",
    "train_distribute",
    "eval_distribute",
]
"""Every public property of tf.estimator.RunConfig but cluster_spec, session_config, device_fn."""


def proto_json(message: Any) -> Any:
    """A protobuf message in its JSON form (None stays None)."""
    if message is None:
        return None
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


def our_proto_json(session_config: Any) -> Any:
    """estconf's session_config dump, read through protobuf (int64 fields become strings)."""
    if session_config is None:
        return None
    dump = session_config.model_dump(mode="json")
    return proto_json(json_format.ParseDict(dump, tf.compat.v1.ConfigProto()))


def compare_run_configs(tf_config: Any, ours: Any, copied: Collection[str] = ()) -> None:
    """Every property of TensorFlow's RunConfig against estconf's.

    The properties named in ``copied`` (strategies, which TensorFlow's
    ``replace`` deep-copies) are compared by type.
    """
    values = {name: getattr(tf_config, name) for name in PROPERTIES}
    values["experimental_distribute"] = tf_config._experimental_distribute
    for name, value in values.items():
        if name == "model_dir" and isinstance(value, os.PathLike):
            # A quirk not copied: TensorFlow's replace keeps a PathLike model_dir
            # as given (its constructor resolves it); estconf always holds a str.
            value = os.fspath(value)
        mine = getattr(ours, name)
        if name in copied:
            assert type(mine) is type(value), f"{name}: TensorFlow {value!r}, estconf {mine!r}"
        else:
            same(name, value, mine)
    same("device_fn is", tf_config.device_fn is ours.device_fn, True)
    same_cluster("cluster_spec", tf_config.cluster_spec, ours.cluster_spec)
    same(
        "session_config", proto_json(tf_config.session_config), our_proto_json(ours.session_config)
    )


def tf_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The same arguments for TensorFlow: ``session_config`` as a real ConfigProto."""
    result = dict(kwargs)
    if isinstance(result.get("session_config"), dict):
        result["session_config"] = json_format.ParseDict(
            result["session_config"], tf.compat.v1.ConfigProto()
        )
    return result


TPU_FIELDS = [
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
]
"""The fields of TensorFlow's TPUConfig namedtuple but the Python-only feed hook."""


def compare_tpu_configs(tf_config: Any, ours: Any) -> None:
    """Every field of TensorFlow's TPUConfig against estconf's."""
    from tensorflow_estimator.python.estimator.tpu import util

    for name in TPU_FIELDS:
        same(f"tpu_config.{name}", getattr(tf_config, name), getattr(ours, name))
    same(
        "tpu_config.experimental_feed_hook is",
        tf_config.experimental_feed_hook is ours.experimental_feed_hook,
        True,
    )
    counter = util.parse_iterations_per_loop(tf_config.iterations_per_loop)
    same("iterations_per_loop_counter", tuple(counter), tuple(ours.iterations_per_loop_counter))


def compare_tpu_run_configs(tf_config: Any, ours: Any) -> None:
    """The estimator's properties, and the TPU config, of two TPU run configs."""
    compare_run_configs(tf_config, ours)
    compare_tpu_configs(tf_config.tpu_config, ours.tpu_config)
