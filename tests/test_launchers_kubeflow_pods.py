"""estconf.launchers.kubeflow.pods: the TF_CONFIG the training operator gives one pod of a TFJob."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from estconf.io.errors import ConfigFileError
from estconf.io.sources import InputError
from estconf.launchers.kubeflow.pods import pod_tf_config

KUBEFLOW = Path(__file__).parent / "data" / "kubeflow"
DIST_MNIST = (KUBEFLOW / "dist_mnist.yaml").read_bytes()


def test_a_pod_by_its_name_and_by_its_task_is_one_pod() -> None:
    by_name = pod_tf_config(DIST_MNIST, "j.yaml", ("dist-mnist-worker-1", None))
    by_task = pod_tf_config(DIST_MNIST, "j.yaml", (None, ("worker", 1)))
    assert by_name == by_task
    assert by_name is not None
    text, where = by_name
    assert where == "j.yaml, pod dist-mnist-worker-1 (task worker:1)"
    assert text is not None
    assert json.loads(text)["task"] == {"type": "worker", "index": 1}


def test_a_file_without_a_tfjob_is_none_of_its_business() -> None:
    assert pod_tf_config(b'{"cluster": {}}', "f.json", (None, None)) is None


def test_a_tfjob_with_no_pod_chosen_is_a_usage_error_naming_its_pods() -> None:
    with pytest.raises(InputError, match=r"is a Kubeflow TFJob manifest") as info:
        pod_tf_config(DIST_MNIST, "j.yaml", (None, None))
    assert info.value.hint is not None
    assert re.search(r"--pod NAME .*dist-mnist-worker-0 to dist-mnist-worker-1", info.value.hint)


def test_a_pod_the_job_has_not_is_said() -> None:
    with pytest.raises(InputError, match="no pod of the TFJob 'dist-mnist' is named 'x'"):
        pod_tf_config(DIST_MNIST, "j.yaml", ("x", None))


def test_a_value_no_config_may_hold_is_refused_as_the_tfjobs() -> None:
    raw = DIST_MNIST.replace(b"replicas: 2", b"replicas: .nan", 1)
    with pytest.raises(ConfigFileError) as info:
        pod_tf_config(raw, "j.yaml", (None, ("worker", 0)))
    assert (info.value.file, info.value.kind) == ("j.yaml", "tfjob")
    assert [found.code for found in info.value.errors] == ["number"]


def test_a_tfjob_the_operator_refuses_is_refused_as_the_tfjobs() -> None:
    raw = (KUBEFLOW / "refused.yaml").read_bytes()
    with pytest.raises(ConfigFileError) as info:
        pod_tf_config(raw, "j.yaml", (None, ("worker", 0)))
    assert (info.value.file, info.value.kind) == ("j.yaml", "tfjob")
    assert "must not have more than 1 Chief or Master role" in str(info.value)
    assert all(error.refused for error in info.value.errors)


def test_an_older_api_version_is_noted() -> None:
    notes: list[str] = []
    raw = (KUBEFLOW / "v1beta2.yaml").read_bytes()
    found = pod_tf_config(raw, "j.yaml", ("legacy-worker-0", None), note=notes.append)
    assert found is not None
    assert [note.split(": note: ")[0] for note in notes] == ["j.yaml: apiVersion"]


def tfjob(name: str, **replicas: int) -> bytes:
    """A TFJob manifest named ``name``, of these replicas of each replica type."""
    specs = "".join(
        f"    {replica_type}:\n      replicas: {count}\n      template:\n        spec:\n"
        "          containers:\n            - name: tensorflow\n              image: train:1\n"
        for replica_type, count in replicas.items()
    )
    return (
        f"apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata:\n  name: {name}\n"
        f"spec:\n  tfReplicaSpecs:\n{specs}"
    ).encode()


@pytest.mark.parametrize(
    ("raw", "pods", "tasks"),
    [
        (
            tfjob("j", Chief=1, Worker=2),
            "j-chief-0, j-worker-0 to j-worker-1",
            "chief:0, worker:0 to worker:1",
        ),
        (
            tfjob("j", Chief=1, PS=2, Worker=2, Evaluator=1),
            "j-chief-0, j-ps-0 to j-ps-1, j-worker-0 to j-worker-1 and 1 more replica type",
            "chief:0, ps:0 to ps:1, worker:0 to worker:1 and 1 more replica type",
        ),
    ],
)
def test_the_pods_named_for_a_choice_are_those_of_three_replica_types(
    raw: bytes, pods: str, tasks: str
) -> None:
    """With no pod chosen, the pods of three replica types are named, then how many types more."""
    with pytest.raises(InputError) as info:
        pod_tf_config(raw, "j.yaml", (None, None))
    assert str(info.value) == (
        "j.yaml is a Kubeflow TFJob manifest: explain reads the TF_CONFIG of one of its pods"
    )
    assert info.value.hint == (
        f"name the pod with --pod NAME ({pods}) or its task with --task TYPE:INDEX ({tasks})"
    )


def test_of_several_tfjobs_the_pod_is_looked_for_in_each() -> None:
    """``--pod`` picks the TFJob that has the pod; a pod none has is said with the jobs."""
    raw = tfjob("a", Chief=1, Worker=2) + b"---\n" + tfjob("b", Chief=1, Worker=2)
    found = pod_tf_config(raw, "j.yaml", ("b-worker-1", None))
    assert found is not None
    assert found[1] == "j.yaml, pod b-worker-1 (task worker:1)"
    with pytest.raises(InputError) as info:
        pod_tf_config(raw, "j.yaml", ("c-worker-1", None))
    assert str(info.value) == "j.yaml: no pod of its TFJobs ('a', 'b') is named 'c-worker-1'"


@pytest.mark.parametrize("index", [2, 3])
def test_a_pod_index_past_the_replicas_names_no_pod(index: int) -> None:
    """The job has pods 0 to replicas - 1 of each type: a name past them is no pod's."""
    pod = f"dist-mnist-worker-{index}"
    with pytest.raises(InputError, match=f"no pod of the TFJob 'dist-mnist' is named '{pod}'"):
        pod_tf_config(DIST_MNIST, "j.yaml", (pod, None))


def test_a_tfjob_of_no_replicas_is_said_to_have_no_pods() -> None:
    raw = tfjob("j", Worker=0)
    with pytest.raises(InputError, match=r"its pods are none$"):
        pod_tf_config(raw, "j.yaml", ("x", None))
    with pytest.raises(InputError) as info:
        pod_tf_config(raw, "j.yaml", (None, None))
    assert info.value.hint == (
        "name the pod with --pod NAME (none) or its task with --task TYPE:INDEX (none)"
    )
