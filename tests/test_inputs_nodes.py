"""estconf.inputs.nodes: the nodes of a job, a TF_CONFIG each, as check-cluster is given them."""

from __future__ import annotations

from pathlib import Path

import pytest

from estconf.inputs.nodes import Unreadable, read_nodes

DATA = Path(__file__).parent / "data"
NONE_SET = "no TF_CONFIG (a valueFrom is read only in a pod)"


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("invalid/tf_config_pod.yaml", "a Kubernetes Pod manifest (apiVersion: v1) sets"),
        ("deploy/tensorboard.yaml", "the Kubernetes manifests of the stream set"),
    ],
)
def test_manifests_named_that_set_no_tf_config_are_unreadable(name: str, what: str) -> None:
    path = str(DATA / name)
    with pytest.raises(Unreadable) as info:
        read_nodes([path])
    assert info.value.file == path
    assert [(found.code, found.message) for found in info.value.errors] == [
        ("no_tf_config", f"{what} {NONE_SET}")
    ]
