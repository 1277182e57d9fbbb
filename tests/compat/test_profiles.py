"""estconf.profiles.check_profile: the node and every task of its cluster, as TensorFlow reads them.

A profile refuses a TF_CONFIG when TensorFlow's reader of that profile
refuses the node, or the same TF_CONFIG with any task of its cluster in place
of the node's; a refusal beyond those falls under a section 6 rule.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given

from compat.harness import (
    attempt,
    import_tensorflow,
    parse_like_tensorflow,
    tf_attempt,
)
from compat.mutations import tf_config_texts
from estconf.profiles import check_profile
from estconf.profiles.registry import NAMES
from estconf.tf_config import parse_json

import_tensorflow()

from compat.test_kubeflow import PROFILE_RULES, TENSORFLOW_READERS  # noqa: E402

pytestmark = pytest.mark.compat


def cluster_tasks(data: Any) -> list[tuple[str, int]]:
    """The tasks of a parsed TF_CONFIG's cluster, as TensorFlow's ClusterSpec reads them."""
    cluster = data.get("cluster") if isinstance(data, dict) else None
    if not isinstance(cluster, dict):
        return []
    tasks: list[tuple[str, int]] = []
    for job, addresses in cluster.items():
        if isinstance(addresses, list):
            tasks += [(job, index) for index in range(len(addresses))]
        elif isinstance(addresses, dict):
            for key in addresses:
                try:
                    tasks.append((job, int(key)))
                except (TypeError, ValueError):
                    continue
    return tasks


def as_task(data: dict[str, Any], task: tuple[str, int]) -> str:
    return json.dumps({**data, "task": {"type": task[0], "index": task[1]}})


def test_every_profile_has_its_tensorflow_reader_and_section_6_rules() -> None:
    assert sorted(TENSORFLOW_READERS) == sorted(PROFILE_RULES) == sorted(NAMES)


@pytest.mark.parametrize("profile", sorted(TENSORFLOW_READERS))
@given(text=tf_config_texts().filter(lambda text: text is not None))
def test_refused_where_tensorflow_refuses_the_node_or_a_task(profile: str, text: str) -> None:
    ours = attempt(lambda: check_profile(parse_json(text), profile))
    reader = TENSORFLOW_READERS[profile]
    texts = [text]
    try:
        data = parse_like_tensorflow(text)
    except (ValueError, RecursionError):  # TensorFlow fails on the node itself
        data = None
    if isinstance(data, dict):
        texts += [as_task(data, task) for task in cluster_tasks(data)]
    refused = [each for each in texts if tf_attempt(each, reader).error is not None]
    if refused:
        assert not ours.ok, (text, refused[0])
    elif not ours.ok:
        rules = set().union(*(PROFILE_RULES[profile](each) for each in texts))
        assert rules, (text, ours.error)
