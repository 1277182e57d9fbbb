"""estconf.launchers.kubernetes: the pod template and metadata JobSet, Trainer and Volcano share."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from estconf.launchers.kubernetes import (
    Container,
    Count,
    EnvVar,
    EnvVarSource,
    KeyRef,
    ObjectFieldSelector,
    ObjectMeta,
    PodSpec,
    PodTemplateSpec,
    SourceRef,
)
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


@pytest.mark.parametrize(
    ("count", "read"), [(0, True), (2**31 - 1, True), (-1, False), (2**31, False)]
)
def test_a_count_is_an_int32_of_at_least_0(count: int, read: bool) -> None:
    adapter = TypeAdapter(Count)
    if read:
        assert adapter.validate_python(count) == count
    else:
        with pytest.raises(ValidationError):
            adapter.validate_python(count)


def test_each_field_is_read_by_its_json_name() -> None:
    spec = PodSpec.model_validate(
        {
            "initContainers": [{"name": "init"}],
            "serviceAccountName": "trainer",
            "enableServiceLinks": False,
            "containers": [
                {
                    "env": [
                        {
                            "name": "F",
                            "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "a"}},
                        },
                        {"name": "C", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "c"}}},
                        {"name": "S", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}},
                        {
                            "name": "R",
                            "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu"}},
                        },
                    ],
                    "envFrom": [{"secretRef": {"name": "s"}}, {"configMapRef": {"name": "cm"}}],
                }
            ],
        }
    )
    assert [each.name for each in spec.init_containers] == ["init"]
    assert (spec.service_account_name, spec.enable_service_links) == ("trainer", False)
    sources = [variable.value_from for variable in spec.containers[0].env]
    assert all(source is not None for source in sources)
    field, config_map, secret, resource = (source for source in sources if source is not None)
    assert field.field_ref == ObjectFieldSelector(field_path="a", api_version="v1")
    assert config_map.config_map_key_ref == KeyRef(name="cm", key="c")
    assert secret.secret_key_ref == KeyRef(name="s", key="k")
    assert resource.resource_field_ref == {"resource": "limits.cpu"}
    secret_from, config_map_from = spec.containers[0].env_from
    assert (secret_from.secret_ref, config_map_from.config_map_ref) == (
        SourceRef(name="s"),
        SourceRef(name="cm"),
    )
    assert model_extra_keys(spec) == set()


def model_extra_keys(model: BaseModel) -> set[str]:
    """The keys kept as given anywhere in ``model``: none when each was read as a field."""
    found = set(model.model_extra or {})
    for name in type(model).model_fields:
        value = getattr(model, name)
        for each in value if isinstance(value, tuple) else (value,):
            if isinstance(each, BaseModel):
                found |= model_extra_keys(each)
    return found


def test_a_model_is_built_from_python_by_its_field_names_and_dumps_its_json_names() -> None:
    variable = EnvVar(
        name="I", value_from=EnvVarSource(field_ref=ObjectFieldSelector(field_path="a"))
    )
    assert variable == EnvVar.model_validate(
        {"name": "I", "valueFrom": {"fieldRef": {"fieldPath": "a"}}}
    )
    assert variable.model_dump(exclude_none=True) == {
        "name": "I",
        "valueFrom": {"fieldRef": {"fieldPath": "a"}},
    }
    assert ObjectMeta(generate_name="m-") == ObjectMeta.model_validate({"generateName": "m-"})
    assert ObjectMeta.model_validate({"generateName": "m-"}).model_extra == {}


def test_a_reference_to_a_config_map_or_secret_is_not_optional_unless_told() -> None:
    assert KeyRef(key="k").optional is False
    assert SourceRef().optional is False
    assert KeyRef.model_validate({"key": "k", "optional": True}).optional is True
