"""estconf.launchers.kubernetes: the pod template and metadata JobSet, Trainer and Volcano share."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from estconf.launchers.kubernetes import Container, EnvVar, ObjectMeta, PodSpec, PodTemplateSpec
from values import refuses_assignment

TEMPLATE = {
    "metadata": {"labels": {"app": "mnist"}, "annotations": {"a": "b"}},
    "spec": {
        "hostname": "h",
        "subdomain": "s",
        "restartPolicy": "OnFailure",
        "containers": [
            {
                "name": "tensorflow",
                "image": "tf:2.15",
                "env": [
                    {"name": "A", "value": "1"},
                    {"name": "I", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                ],
                "envFrom": [{"prefix": "P_", "configMapRef": {"name": "cm"}}],
                "resources": {"limits": {"cpu": 1}},
            }
        ],
    },
}


def test_a_pod_template_is_read_by_its_json_names() -> None:
    template = PodTemplateSpec.model_validate(TEMPLATE)
    [container] = template.spec.containers
    assert (template.spec.hostname, template.spec.subdomain) == ("h", "s")
    assert template.metadata.labels == {"app": "mnist"}
    assert [variable.name for variable in container.env] == ["A", "I"]
    source = container.env[1].value_from
    assert source is not None and source.field_ref is not None
    assert source.field_ref.field_path == "metadata.name"
    assert container.env_from[0].config_map_ref is not None
    assert container.env_from[0].prefix == "P_"


def test_other_keys_are_kept_as_written() -> None:
    template = PodTemplateSpec.model_validate(TEMPLATE)
    dumped = template.model_dump(exclude_defaults=True)
    assert dumped["spec"]["restartPolicy"] == "OnFailure"
    assert dumped["spec"]["containers"][0]["resources"] == {"limits": {"cpu": 1}}


def test_the_defaults_are_kubernetes_own() -> None:
    assert ObjectMeta().namespace is None
    assert Container().env == () and Container().env_from == ()
    assert PodTemplateSpec().spec.containers == ()


def test_a_null_is_a_key_not_given_as_the_api_server_prunes_it() -> None:
    """A custom resource's null fields are dropped before it is stored, then defaulted."""
    written = {
        "metadata": None,
        "spec": {
            "hostname": None,
            "containers": [{"name": "tf", "args": None, "env": None, "envFrom": None}],
        },
    }
    template = PodTemplateSpec.model_validate(written)
    assert template == PodTemplateSpec.model_validate({"spec": {"containers": [{"name": "tf"}]}})
    assert template.metadata == ObjectMeta() and template.spec.containers[0].env == ()
    assert ObjectMeta.model_validate({"name": "a", "labels": None}).labels == {}
    assert EnvVar.model_validate({"name": "A", "value": None}).value is None
    # what is kept as written loses its nulls too, as the stored object does
    assert "restartPolicy" not in PodSpec.model_validate({"restartPolicy": None}).model_dump()


@pytest.mark.parametrize(
    "template",
    [
        {"metadata": {"labels": {"app": 1}}},
        {"spec": {"containers": [{"env": [{"value": "no name"}]}]}},
        {"spec": {"hostname": 5}},
    ],
)
def test_what_the_api_server_refuses_is_refused(template: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        PodTemplateSpec.model_validate(template)


def test_each_object_is_a_value() -> None:
    variable = EnvVar(name="A", value="1")
    refuses_assignment(variable)
    assert hash(variable) == hash(EnvVar(name="A", value="1"))
    assert variable == EnvVar.model_validate({"name": "A", "value": "1"})
