"""A Kubeflow ``TFJob`` manifest, as far as the training operator reads it.

The model holds what decides each pod's ``TF_CONFIG``: the job's name and
namespace, its replica specs (one per replica type, with ``replicas`` and the
pod template's ``tensorflow`` container and its ``tfjob-port`` port) and
``enableDynamicWorker``.  Everything else in the manifest (run policy,
resources, ``status``, ...) is kept as given and not looked at.

The operator's defaults are derived here, where the fields are: a replica
type written in any letter case (``WORKER``, ``ps``) is the type it names,
``replicas`` defaults to 1, and a replica type's port is its ``tensorflow``
container's ``tfjob-port`` or 2222.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property
from typing import Annotated, Any, Final, Literal

from pydantic import (
    Field,
    ModelWrapValidatorHandler,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationInfo,
    computed_field,
    field_validator,
    model_validator,
)
from typing_extensions import Self

from estconf._derived import read_back_derived
from estconf._errors import custom_error
from estconf.io import kinds
from estconf.io.checks import Limits
from estconf.io.parse import stream_of
from estconf.launchers.kubernetes import Object

__all__ = [
    "API_GROUP",
    "DEFAULT_CONTAINER_NAME",
    "DEFAULT_PORT",
    "DEFAULT_PORT_NAME",
    "OLDER_VERSIONS",
    "REPLICA_TYPES",
    "Container",
    "ContainerPort",
    "EnvVar",
    "ObjectMeta",
    "PodSpec",
    "PodTemplateSpec",
    "ReplicaSpec",
    "TFJob",
    "TFJobSpec",
    "equal_fold",
    "read_tfjobs",
]

API_GROUP: Final = kinds.KUBEFLOW_API_GROUP
SERVED_VERSION: Final = "v1"
OLDER_VERSIONS: Final = ("v1beta2", "v1beta1", "v1alpha2")
"""Earlier API versions whose ``tfReplicaSpecs`` have the shape of ``v1``."""

REPLICA_TYPES: Final = ("PS", "Worker", "Chief", "Master", "Evaluator")
"""The replica types the operator knows, in the order its defaulting renames them."""

DEFAULT_CONTAINER_NAME: Final = "tensorflow"
DEFAULT_PORT_NAME: Final = "tfjob-port"
DEFAULT_PORT: Final = 2222

Int32 = Annotated[StrictInt, Field(ge=-(2**31), le=2**31 - 1)]
Replicas = Annotated[StrictInt, Field(ge=0, le=2**31 - 1)]


def equal_fold(text: str, known: str) -> bool:
    """Whether ``text`` names ``known`` (ASCII) in some letter case, as Go's ``EqualFold`` says.

    Go folds case rune by rune, so the Kelvin sign and the long s match ``k``
    and ``s`` while ``ß`` matches nothing here.

    Example:
        >>> equal_fold("WORKER", "Worker"), equal_fold("Work", "Worker")
        (True, False)
        >>> equal_fold("P" + chr(0x17F), "PS")  # the long s
        True
    """
    return len(text) == len(known) and all(
        a == b or a.casefold() == b.casefold() for a, b in zip(text, known, strict=True)
    )


def _a_list(field: str, value: Any) -> Any:
    """Refuse a mapping where Kubernetes takes a list, saying how to write it as one.

    A list item written without its ``- `` reads as a mapping: one container
    (``name: tensorflow``, ``image: ...``) instead of a list of one.
    """
    if not isinstance(value, dict) or not value:
        return value
    keys = [str(key) for key in value]
    if all(isinstance(item, dict) for item in value.values()):
        fix = f'write "- name: {keys[0]}" and put its keys under it'
    else:
        fix = f'put "- " before "{keys[0]}:"'
    raise custom_error(
        "tfjob_not_a_list",
        "{field} must be a list: {fix} (a YAML list item starts with a dash)",
        {"field": field, "fix": fix},
    )


class ContainerPort(Object):
    """A port of a container; the one named ``tfjob-port`` is the replica's port."""

    name: StrictStr | None = None
    container_port: Int32 = Field(alias="containerPort")


class EnvVar(Object):
    """An environment variable of a container (``valueFrom`` is kept, not read)."""

    name: StrictStr
    value: StrictStr | None = None


class Container(Object):
    """A container of a pod template: its name, image, ports and environment."""

    name: StrictStr | None = None
    image: StrictStr | None = None
    ports: tuple[ContainerPort, ...] = ()
    env: tuple[EnvVar, ...] = ()

    @field_validator("ports", "env", mode="before")
    @classmethod
    def lists_not_mappings(cls, value: Any, info: ValidationInfo) -> Any:
        """``ports`` and ``env`` are lists: a mapping is an item without its dash."""
        return _a_list(str(info.field_name), value)


class PodSpec(Object):
    """The ``spec`` of a pod template; only its containers matter here."""

    containers: tuple[Container, ...] = ()

    @field_validator("containers", mode="before")
    @classmethod
    def containers_a_list(cls, value: Any) -> Any:
        """``containers`` is a list: a mapping is a container without its dash."""
        return _a_list("containers", value)


class PodTemplateSpec(Object):
    """The pod template of a replica spec."""

    spec: PodSpec = PodSpec()


class ReplicaSpec(Object):
    """One entry of ``spec.tfReplicaSpecs``: how many pods of a type, from which template."""

    replicas: Replicas | None = Field(
        None, description="How many pods of this type; the operator's default is 1."
    )
    template: PodTemplateSpec = PodTemplateSpec()

    @model_validator(mode="wrap")
    @classmethod
    def derived_values_agree(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        """A dump's ``replica_count`` and ``port`` are read back only if they agree."""
        return read_back_derived(cls, data, handler)

    @property
    def tensorflow_container(self) -> int | None:
        """The position of the first container named ``tensorflow``: the one the operator uses."""
        for position, container in enumerate(self.template.spec.containers):
            if container.name == DEFAULT_CONTAINER_NAME:
                return position
        return None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def replica_count(self) -> int:
        """``replicas`` with the operator's default, 1."""
        return 1 if self.replicas is None else self.replicas

    @computed_field  # type: ignore[prop-decorator]
    @property
    def port(self) -> int:
        """This type's port: the ``tensorflow`` container's ``tfjob-port``, else 2222.

        A port of another name, or a ``tfjob-port`` of another container, does
        not count.
        """
        position = self.tensorflow_container
        if position is not None:
            for port in self.template.spec.containers[position].ports:
                if port.name == DEFAULT_PORT_NAME:
                    return port.container_port
        return DEFAULT_PORT


class ObjectMeta(Object):
    """The manifest's ``metadata``: name (or ``generateName``) and namespace."""

    name: StrictStr | None = None
    generate_name: StrictStr | None = Field(None, alias="generateName")
    namespace: StrictStr | None = None


class TFJobSpec(Object):
    """The ``spec`` of a TFJob: its replica specs and ``enableDynamicWorker``."""

    tf_replica_specs: dict[StrictStr, ReplicaSpec] | None = Field(None, alias="tfReplicaSpecs")
    enable_dynamic_worker: StrictBool = Field(False, alias="enableDynamicWorker")


class TFJob(Object):
    """A ``kubeflow.org/v1`` TFJob manifest (earlier versions of the same shape are read as v1).

    Example:
        >>> job = TFJob.from_yaml('''
        ... apiVersion: kubeflow.org/v1
        ... kind: TFJob
        ... metadata: {name: mnist}
        ... spec:
        ...   tfReplicaSpecs:
        ...     WORKER:
        ...       replicas: 2
        ...       template:
        ...         spec:
        ...           containers: [{name: tensorflow, image: "tf:2.15"}]
        ... ''')
        >>> job.replica_types
        {'WORKER': 'Worker'}
        >>> job.spec.tf_replica_specs["WORKER"].port
        2222
    """

    api_version: StrictStr = Field(alias="apiVersion")
    kind: Literal["TFJob"]
    metadata: ObjectMeta = ObjectMeta()
    spec: TFJobSpec = TFJobSpec()

    @model_validator(mode="wrap")
    @classmethod
    def derived_values_agree(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        """A dump's derived values are read back only if they agree."""
        return read_back_derived(cls, data, handler)

    @field_validator("api_version")
    @classmethod
    def api_version_of_tfjob(cls, api_version: str) -> str:
        """``kubeflow.org/v1``, or an earlier version whose replica specs have v1's shape."""
        group, _, version = api_version.partition("/")
        if group != API_GROUP or version not in (SERVED_VERSION, *OLDER_VERSIONS):
            raise custom_error(
                "tfjob_api_version",
                "a TFJob's apiVersion is {group}/{served} (or the earlier {older}, read as "
                "{served}), not {given}; kubeflow.org/v1alpha1 TFJobs, with a list of "
                "replicaSpecs, are not read",
                {
                    "group": API_GROUP,
                    "served": SERVED_VERSION,
                    "older": ", ".join(OLDER_VERSIONS),
                    "given": repr(api_version),
                },
            )
        return api_version

    @computed_field  # type: ignore[prop-decorator]
    @property
    def replica_types(self) -> dict[str, str]:
        """Each replica spec's key mapped to the replica type the operator makes of it.

        Keys naming a known type in another letter case become that type
        (``WORKER`` -> ``Worker``); other keys stay as written.  When two keys
        name one type, the operator keeps one of them (see
        :attr:`shadowed_replica_keys`); the other is left out here.
        """
        return self._replica_types[0]

    @property
    def shadowed_replica_keys(self) -> dict[str, str]:
        """Keys the operator drops or may drop because another key names the same type.

        Maps each such key to the type.  With ``Worker`` and ``worker`` the
        operator keeps ``worker`` and drops ``Worker``; with two keys that both
        differ from ``Worker`` in case, which one it keeps depends on Go's map
        order (see :attr:`ambiguous_replica_types`).
        """
        return self._replica_types[1]

    @property
    def ambiguous_replica_types(self) -> tuple[str, ...]:
        """Known types named by two keys neither of which is the type's own spelling."""
        return self._replica_types[2]

    @cached_property
    def _replica_types(self) -> tuple[dict[str, str], dict[str, str], tuple[str, ...]]:
        keys = list(self.spec.tf_replica_specs or {})
        names = {key: key for key in keys}
        shadowed: dict[str, str] = {}
        ambiguous: list[str] = []
        for known in REPLICA_TYPES:
            other_case = [key for key in keys if key != known and equal_fold(key, known)]
            if not other_case:
                continue
            # The operator renames one key written in another case to the type,
            # replacing a spec under the type's own spelling.
            if known in names:
                shadowed[known] = known
                del names[known]
            names[other_case[0]] = known
            if len(other_case) > 1:
                ambiguous.append(known)
                for key in other_case:
                    shadowed[key] = known
        for key in shadowed:
            names.pop(key, None)
        return names, shadowed, tuple(ambiguous)

    def replica_specs(self) -> Iterator[tuple[str, str, ReplicaSpec]]:
        """The replica specs the operator uses, ``(key as written, type, spec)``, in order."""
        specs = self.spec.tf_replica_specs or {}
        for key, replica_type in self.replica_types.items():
            yield key, replica_type, specs[key]

    @classmethod
    def from_yaml(cls, text: str | bytes) -> TFJob:
        """Read the one TFJob of a YAML or JSON text (other kinds of document are skipped).

        Raises:
            ValueError: the text is not YAML, holds no TFJob or several, or the
                TFJob is invalid (a :class:`pydantic.ValidationError`).
        """
        jobs = read_tfjobs(text)
        if len(jobs) != 1:
            raise ValueError(
                f"expected one TFJob, found {len(jobs)}; read a stream of them with read_tfjobs()"
            )
        return jobs[0]

    def to_manifest(self) -> dict[str, Any]:
        """The manifest as a dict, as given (no derived values)."""
        return self.model_dump(
            mode="json", by_alias=True, exclude_unset=True, exclude_computed_fields=True
        )


def read_tfjobs(
    text: str | bytes, *, name: str = "<string>", limits: Limits | None = None
) -> tuple[TFJob, ...]:
    """Read every TFJob of a YAML stream, JSON text or ``kubectl get -o yaml`` output.

    Documents of other kinds, and empty ones, are skipped; the items of a
    ``List`` (what ``kubectl get tfjobs -o yaml`` prints) are read as
    documents.  The text is read as a config file is, under the same limits
    (``limits``; the defaults of :class:`estconf.io.checks.Limits`).

    Raises:
        ValueError: the text is not YAML (a
            :class:`~estconf.io.errors.ConfigFileError` whose errors are placed
            in ``name``), or a TFJob in it is invalid.
    """
    documents = [document.data for document in stream_of(text, name, limits)]
    return tuple(TFJob.model_validate(document) for document in _tfjob_documents(documents))


def _tfjob_documents(documents: Iterable[Any]) -> Iterator[Mapping[Any, Any]]:
    """Each document of kind TFJob, or item of a ``List`` of them, whatever its API group.

    The model refuses a TFJob of another API group than Kubeflow's, and says why.
    """
    for document in documents:
        for _, found in kinds.listed(document):
            if kinds.is_tfjob(found, any_api_group=True):
                yield found
