"""The Kubernetes objects the launchers on Kubernetes share: metadata, containers, pod templates.

JobSet, Kubeflow Trainer and Volcano each wrap a pod template in objects of
their own; the pod template is Kubernetes' own (``core/v1``), and so is each
object's ``metadata``.  These models hold what decides a pod's names and
environment: a container's ``env`` and ``envFrom`` with their sources, the
pod's ``hostname`` and ``subdomain``, the template's labels and
annotations.  Every other key is kept as given and not read.  A launcher's
own objects build on :class:`Object`, with the same settings (Kubeflow's
TFJob too, whose pod template is read with the operator's own rules).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field, StrictBool, StrictInt, StrictStr, model_validator

from estconf._hashing import HashedByValue

__all__ = [
    "Container",
    "Count",
    "EnvFromSource",
    "EnvVar",
    "EnvVarSource",
    "KeyRef",
    "Object",
    "ObjectFieldSelector",
    "ObjectMeta",
    "PodSpec",
    "PodTemplateSpec",
    "SourceRef",
]

Count = Annotated[StrictInt, Field(ge=0, le=2**31 - 1)]
"""``replicas``, ``parallelism``, ``completions``: an int32, not negative."""


class Object(HashedByValue):
    """A part of a Kubernetes object: a value, read by its JSON names, other keys kept."""

    model_config = ConfigDict(
        frozen=True,
        extra="allow",
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )

    @model_validator(mode="before")
    @classmethod
    def null_is_not_given(cls, data: Any) -> Any:
        """Read a key whose value is null as a key not given.

        The API server drops a null field from a custom resource before it
        stores it (the pruning of a structural schema), then applies the
        field's default: ``env: null`` is no ``env``, and ``metadata: null``
        no metadata.  Every object here is one, or the pod template in one.
        """
        if isinstance(data, dict) and None in data.values():
            return {key: value for key, value in data.items() if value is not None}
        return data


class ObjectMeta(Object):
    """An object's ``metadata``: name (or ``generateName``), namespace, labels, annotations."""

    name: StrictStr | None = None
    generate_name: StrictStr | None = Field(None, alias="generateName")
    namespace: StrictStr | None = None
    labels: dict[StrictStr, StrictStr] = {}
    annotations: dict[StrictStr, StrictStr] = {}


class ObjectFieldSelector(Object):
    """A ``fieldRef``: the field of its pod a variable takes (the downward API)."""

    field_path: StrictStr = Field(alias="fieldPath")
    api_version: StrictStr | None = Field(None, alias="apiVersion")


class KeyRef(Object):
    """A ``configMapKeyRef`` or ``secretKeyRef``: one key of a ConfigMap or Secret."""

    name: StrictStr = ""
    key: StrictStr
    optional: StrictBool = False


class EnvVarSource(Object):
    """A variable's ``valueFrom``: a field of its pod, a key of a ConfigMap or Secret, ..."""

    field_ref: ObjectFieldSelector | None = Field(None, alias="fieldRef")
    config_map_key_ref: KeyRef | None = Field(None, alias="configMapKeyRef")
    secret_key_ref: KeyRef | None = Field(None, alias="secretKeyRef")
    resource_field_ref: dict[StrictStr, object] | None = Field(None, alias="resourceFieldRef")


class EnvVar(Object):
    """An entry of a container's ``env``."""

    name: StrictStr
    value: StrictStr | None = None
    value_from: EnvVarSource | None = Field(None, alias="valueFrom")


class SourceRef(Object):
    """The ConfigMap or Secret an ``envFrom`` entry takes every key of."""

    name: StrictStr = ""
    optional: StrictBool = False


class EnvFromSource(Object):
    """An entry of a container's ``envFrom``."""

    prefix: StrictStr = ""
    config_map_ref: SourceRef | None = Field(None, alias="configMapRef")
    secret_ref: SourceRef | None = Field(None, alias="secretRef")


class Container(Object):
    """A container of a pod template: its name, image, command, arguments and environment."""

    name: StrictStr | None = None
    image: StrictStr | None = None
    command: tuple[StrictStr, ...] | None = None
    args: tuple[StrictStr, ...] | None = None
    env: tuple[EnvVar, ...] = ()
    env_from: tuple[EnvFromSource, ...] = Field((), alias="envFrom")


class PodSpec(Object):
    """A pod template's ``spec``: its containers and what names the pod."""

    containers: tuple[Container, ...] = ()
    init_containers: tuple[Container, ...] = Field((), alias="initContainers")
    hostname: StrictStr | None = None
    subdomain: StrictStr | None = None
    service_account_name: StrictStr | None = Field(None, alias="serviceAccountName")
    enable_service_links: StrictBool | None = Field(None, alias="enableServiceLinks")


class PodTemplateSpec(Object):
    """A pod template: the labels and annotations of its pods, and their ``spec``."""

    metadata: ObjectMeta = ObjectMeta()
    spec: PodSpec = PodSpec()
