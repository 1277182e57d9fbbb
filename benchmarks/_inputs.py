"""The inputs the benchmarks read: a chief, two parameter servers and N workers."""

from __future__ import annotations

import json
from pathlib import Path
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


USER_PYPROJECT = """\
[project]
name = "training"
version = "1.0"
dependencies = ["estconf>=0.2", "tensorflow-cpu==2.15.1"]

[tool.ruff]
line-length = 100
"""
"""The ``pyproject.toml`` of a project that uses estconf, without settings of estconf's."""


def user_project(directory: Path) -> Path:
    """Make ``directory`` a project with a small RunConfig file; return that file.

    The start-up benchmarks run in it, as a user runs ``estconf`` in a project
    of their own, rather than in estconf's source tree, whose ``pyproject.toml``
    is not a user's.
    """
    (directory / "pyproject.toml").write_text(USER_PYPROJECT, encoding="utf-8")
    small = directory / "small.json"
    small.write_text(run_config_text(3), encoding="utf-8")
    return small


ONE_MODEL = """
from pydantic import BaseModel

class Config(BaseModel):
    name: str

Config(name="small")
"""
"""The least a pydantic program does: import pydantic, define one model of one field, build it."""
