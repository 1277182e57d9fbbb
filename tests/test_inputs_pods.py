"""estconf.inputs.pods: the TF_CONFIG the training operator gives one pod of a TFJob."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from estconf.inputs.pods import pod_tf_config
from estconf.inputs.sources import InputError
from estconf.io.errors import ConfigFileError

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
    with pytest.raises(
        InputError, match=r"--pod NAME .*dist-mnist-worker-0 to dist-mnist-worker-1"
    ):
        pod_tf_config(DIST_MNIST, "j.yaml", (None, None))


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


def test_an_older_api_version_is_noted() -> None:
    notes: list[str] = []
    raw = (KUBEFLOW / "v1beta2.yaml").read_bytes()
    found = pod_tf_config(raw, "j.yaml", ("legacy-worker-0", None), note=notes.append)
    assert found is not None
    assert [note.split(": note: ")[0] for note in notes] == ["j.yaml: apiVersion"]
