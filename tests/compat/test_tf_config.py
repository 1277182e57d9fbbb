"""estconf.TFConfig against what tf.estimator.RunConfig reads from TF_CONFIG.

``TFConfig`` is mode-agnostic: it must reject every TF_CONFIG value that
TensorFlow can never use (not JSON, not an object, a cluster that
``tf.train.ClusterSpec`` refuses, a task index ``int()`` cannot read, …),
and, when TensorFlow's RunConfig accepts a value, hold what TensorFlow read.
The mode rules (is the task a node of the cluster?) belong to RunConfig.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given

from compat.harness import (
    Outcome,
    attempt,
    deliberate_tf_config,
    environ_of,
    import_tensorflow,
    judge,
    parse_like_tensorflow,
    same,
    same_cluster,
    tf_attempt,
)
from compat.mutations import tf_config_texts
from estconf import TFConfig

tf = import_tensorflow()

pytestmark = pytest.mark.compat


READING_SENTENCES = (
    'If "service" is set',
    "`cluster` must be",
    "The tasks for job",
)
"""TensorFlow's sentences about reading TF_CONFIG itself.

The rest are the Estimator's rules, ``RunConfig``'s business: its modes, and
an empty ``model_dir``, which the tf.distribute readers accept.
"""


def unusable(text: str | None) -> str | None:
    """Why TensorFlow can never use this TF_CONFIG, whatever the mode, or None."""
    try:
        data = parse_like_tensorflow(text)
    except (ValueError, RecursionError) as exc:
        return f"not JSON: {exc}"
    if not isinstance(data, dict):
        return "not an object"
    if data.get("service") is not None and not isinstance(data["service"], dict):
        return "service not an object"
    try:
        tf.train.ClusterSpec(data.get("cluster", {}))
    except Exception as exc:
        return f"cluster: {exc}"
    task = data.get("task", {})
    if not isinstance(task, dict):
        return "task not an object"
    if task.get("index") is not None:
        try:
            int(task["index"])
        except (TypeError, ValueError, OverflowError) as exc:
            return f"index: {exc}"
    return None


def compare_reading(tf_config: Any, ours: TFConfig, data: dict[str, Any]) -> None:
    """What TensorFlow's RunConfig read from ``data`` equals what ``TFConfig`` holds."""
    if tf_config.task_type == "evaluator":
        same_cluster("cluster", tf.train.ClusterSpec(data.get("cluster", {})), ours.cluster)
    else:
        same_cluster("cluster", tf_config.cluster_spec, ours.cluster)
    task = data.get("task", {})
    same("task.type", tf_config.task_type, ours.task.type if "type" in task else "worker")
    same("task.index", tf_config.task_id, ours.task.index if "index" in task else 0)
    if "session_master" in data and tf_config.task_type != "evaluator":
        same("session_master", tf_config.master, ours.session_master)
    if "eval_session_master" in data and (
        tf_config.task_type == "evaluator" or not tf_config.cluster_spec
    ):
        same("eval_session_master", tf_config.evaluation_master, ours.eval_session_master)
    same("model_dir", tf_config.model_dir, ours.model_dir)
    same("service", tf_config.service, ours.service)


def check(text: str | None) -> None:
    tf_out = tf_attempt(text, tf.estimator.RunConfig)
    ours = attempt(lambda: TFConfig.from_env(environ_of(text)))
    rules = deliberate_tf_config(text)
    reason = unusable(text)
    what = f"TF_CONFIG={text!r}"
    if reason is not None:
        assert tf_out.error is not None, (
            f"{what}: TensorFlow accepts what looked unusable ({reason})"
        )
        if not str(tf_out.error).startswith(READING_SENTENCES):
            # TensorFlow stopped at a mode rule first; TFConfig need not repeat it.
            tf_out = Outcome(error=RuntimeError(reason))
        judge(f"{what} ({reason})", tf_out, ours, rules, lambda t, o: None)
        return
    data = parse_like_tensorflow(text)
    # TensorFlow can read it; a rejection by its mode rules is RunConfig's business.
    tf_reading = tf_out if tf_out.ok else Outcome(value=None)
    judge(
        what,
        tf_reading,
        ours,
        rules,
        lambda t, o: None if t is None else compare_reading(t, o, data),
    )


DOC_TF_CONFIGS: list[Any] = [
    {
        "cluster": {
            "chief": ["host0:2222"],
            "ps": ["host1:2222", "host2:2222"],
            "worker": ["host3:2222", "host4:2222", "host5:2222"],
        },
        "task": {"type": task_type, "index": index},
    }
    for task_type, index in [("worker", 1), ("chief", 0), ("evaluator", 0)]
]

TEXTS: list[str | None] = [
    None,
    "{}",
    "",
    " ",
    "null",
    "[]",
    "5",
    '"{}"',
    "{",
    "\ufeff{}",
    '{"task": {"type": "worker", "index": NaN}}',
    '{"task": {"type": "worker", "index": Infinity}}',
    '{"task": {"type": "worker", "index": 0}, "x": NaN}',
    '{"task": {"type": "worker", "type": "ps"}}',
    '{"model_dir": ""}',
    '{"model_dir": 0}',
    '{"model_dir": null}',
    '{"service": 5}',
    '{"service": null}',
    '{"service": []}',
    '{"cluster": null}',
    '{"cluster": []}',
    '{"cluster": {"worker": "h:1"}}',
    '{"cluster": {"worker": [1]}}',
    '{"cluster": {"worker": {"x": "h:1"}}}',
    '{"task": null}',
    '{"task": "worker"}',
    '{"task": {"index": "x"}}',
    '{"task": {"index": [0]}}',
    '{"task": {"index": null}}',
    '{"task": {"index": "1.0"}}',
    '{"task": {"index": 0.0}}',
    '{"task": {"index": false}}',
    '{"task": {"index": 0.5}}',
    '{"task": {"index": " 0"}}',
    '{"task": {"type": "worker", "index": 0}, "environment": 5, "rpc_layer": null}',
    '{"session_master": 5}',
    '{"eval_session_master": null}',
    '{"x": ' + "[" * 5000 + "]" * 5000 + "}",
] + [json.dumps(data) for data in DOC_TF_CONFIGS]


@pytest.mark.parametrize("text", TEXTS, ids=repr)
def test_table(text: str | None) -> None:
    check(text)


@given(tf_config_texts())
def test_generated(text: str | None) -> None:
    check(text)
