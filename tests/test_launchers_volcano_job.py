"""launchers.volcano.job: a Volcano Job, as far as its tensorflow plugin reads it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from estconf.io.errors import ConfigFileError
from estconf.launchers.volcano.checks import check
from estconf.launchers.volcano.job import JobSpec, TaskSpec, VolcanoJob, read_jobs
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
    assert job({}).api_version == "batch.volcano.sh/v1alpha1"
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


@pytest.mark.parametrize(
    "plugin", ["ssh", "env", "svc", "tensorflow", "mpi", "pytorch", "hcclrank", "ray"]
)
def test_each_plugin_volcano_registers_is_known(plugin: str) -> None:
    given = job({"tasks": [{"name": "worker", "replicas": 1}], "plugins": {plugin: []}})
    assert "volcano_unknown_plugin" not in {finding.code for finding in check(given)}


def test_a_text_not_named_is_named_string_in_its_errors() -> None:
    with pytest.raises(ConfigFileError) as raised:
        read_jobs("kind: [")
    assert {error.file for error in raised.value.errors} == {"<string>"}


@pytest.mark.parametrize("model", [VolcanoJob, JobSpec, TaskSpec])
def test_each_field_is_described(model: type[VolcanoJob | JobSpec | TaskSpec]) -> None:
    assert all(field.description for field in model.model_fields.values())


def test_a_job_is_a_value() -> None:
    is_a_value(lambda: job({"tasks": [{"name": "ps", "replicas": 1}], "plugins": {"svc": []}}))
