"""launchers.volcano.job: a Volcano Job, as far as its tensorflow plugin reads it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from estconf.launchers.volcano.job import VolcanoJob, read_jobs
from values import is_a_value

DATA = Path(__file__).parent / "data" / "launchers" / "volcano"


def job(spec: dict[str, Any], api_version: str = "batch.volcano.sh/v1alpha1") -> VolcanoJob:
    return VolcanoJob.model_validate(
        {"apiVersion": api_version, "kind": "Job", "metadata": {"name": "j"}, "spec": spec}
    )


def test_volcanos_example_is_read() -> None:
    (found,) = read_jobs((DATA / "dist-mnist.yaml").read_bytes())
    assert found.metadata.name == "tensorflow-dist-mnist"
    assert found.task_names == ("ps", "worker")
    assert [task.replicas for task in found.spec.tasks] == [1, 2]
    assert found.plugin_arguments == ("--ps=ps", "--worker=worker", "--port=2222")
    assert found.spec.tasks[0].template.spec.containers[0].name == "tensorflow"


def test_a_task_without_a_name_is_named_after_its_position() -> None:
    assert job({"tasks": [{"name": "ps"}, {}, {"name": ""}]}).task_names == (
        "ps",
        "default1",
        "default2",
    )


def test_a_task_without_replicas_has_none() -> None:
    assert job({"tasks": [{"name": "ps"}]}).spec.tasks[0].replicas == 0


def test_a_plugin_of_no_value_is_not_enabled() -> None:
    assert job({"plugins": {"tensorflow": None}}).plugin_arguments is None
    assert job({"plugins": {"svc": []}}).plugin_arguments is None
    assert job({"plugins": {"tensorflow": []}}).plugin_arguments == ()


@pytest.mark.parametrize("replicas", [-1, 2**31, 1.5, "2", True])
def test_replicas_are_an_int32_of_at_least_0(replicas: object) -> None:
    with pytest.raises(ValidationError):
        job({"tasks": [{"name": "ps", "replicas": replicas}]})


def test_the_one_version_volcano_serves() -> None:
    with pytest.raises(ValidationError) as raised:
        job({}, "batch.volcano.sh/v1beta1")
    (error,) = raised.value.errors()
    assert error["type"] == "volcano_api_version"
    assert error["msg"] == (
        "a Volcano Job's apiVersion is batch.volcano.sh/v1alpha1, the one version Volcano "
        "serves, not 'batch.volcano.sh/v1beta1'"
    )


def test_other_documents_and_the_items_of_a_list_are_read_as_they_are() -> None:
    text = (DATA / "single.yaml").read_text()
    indented = "".join(f"    {line}\n" for line in text.splitlines() if not line.startswith("#"))
    listed = "apiVersion: v1\nkind: List\nitems:\n  -\n" + indented
    stream = f"apiVersion: v1\nkind: Service\nmetadata: {{name: j}}\n---\n{listed}"
    assert [found.metadata.name for found in read_jobs(stream)] == ["mnist-local"]
    assert read_jobs("apiVersion: batch/v1\nkind: Job\n") == ()


def test_a_job_is_a_value() -> None:
    is_a_value(lambda: job({"tasks": [{"name": "ps", "replicas": 1}], "plugins": {"svc": []}}))
