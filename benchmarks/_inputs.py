"""The inputs the benchmarks read: a chief, two parameter servers and N workers."""

from __future__ import annotations

import json
from typing import Any


def tf_config(workers: int) -> dict[str, Any]:
    """A chief-mode TF_CONFIG of ``workers`` workers, as this task (worker 1) reads it."""
    cluster = {
        "chief": ["chief-0.train.svc:2222"],
        "ps": ["ps-0.train.svc:2222", "ps-1.train.svc:2222"],
        "worker": [f"worker-{i}.train.svc:2222" for i in range(workers)],
    }
    return {"cluster": cluster, "task": {"type": "worker", "index": 1}}


def tf_config_text(workers: int) -> str:
    """:func:`tf_config` as the text of the ``TF_CONFIG`` variable."""
    return json.dumps(tf_config(workers))


def run_config_text(workers: int) -> str:
    """A RunConfig file whose TF_CONFIG has ``workers`` workers."""
    document = {
        "model_dir": "gs://bucket/model",
        "save_checkpoints_steps": 1000,
        "session_config": {"allow_soft_placement": True},
        "tf_config": tf_config(workers),
    }
    return json.dumps(document, indent=2)
