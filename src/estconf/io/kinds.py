"""The kinds of config file estconf reads, and how a file's kind is told.

A kind names a model and how a file of that kind is validated.  Models are
imported only when a file of their kind is read, so reading a TF_CONFIG file
does not pay for building the TPU models; ``RunConfig``'s keys are read from
its model, imported when a file has keys other than ``TF_CONFIG``'s to look up.

A file's kind is, first match wins (:func:`resolve`): the kind given (``--kind``,
``kind=``, a project's settings); a top-level ``"$schema"`` key naming the
schema of a kind (:func:`from_schema`); the file name (:func:`from_name`:
``tf_config``, ``run_config``, ``tpu_config`` or ``tpu_run_config`` in its
stem); the keys.  By its keys, a file is the first of these whose keys it has
at its top level (:func:`detect`):

1. ``tpu_run_config``: a ``tpu_config`` key;
2. ``tpu_config``: a key of ``TPUConfig``;
3. ``run_config``: a ``tf_config`` key, or a key of ``RunConfig`` that
   ``TF_CONFIG`` does not also have (``model_dir`` is in both);
4. ``tf_config``: a key of ``TF_CONFIG`` (``cluster``, ``task``, ...), or a
   job at the top level (``worker``, ``workers``: the ``cluster`` forgotten).
5. ``vertex_custom_job``: a Vertex AI CustomJob spec's ``workerPoolSpecs``
   (``worker_pool_specs``), or a whole CustomJob's ``jobSpec``.

Only the kinds this version provides take part.  A Kubernetes manifest (a
TFJob, a Pod) is none of them, whatever its name says: :func:`manifest_of`
tells one, so that it is refused as what it is rather than read as a
``TF_CONFIG`` that sets nothing.  Nor is a JSON Schema, such as the
``run_config.schema.json`` estconf exports (:func:`json_schema_of`).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = [
    "KINDS",
    "SCHEMA_KEY",
    "TF_CONFIG_KEYS",
    "Kind",
    "Resolved",
    "detect",
    "from_name",
    "from_schema",
    "get",
    "is_tfjob",
    "json_schema_of",
    "manifest_of",
    "of_model",
    "resolve",
    "run_config_arguments",
]

SCHEMA_KEY = "$schema"
"""The top-level key naming a file's JSON Schema, allowed in every kind."""


@dataclass(frozen=True)
class Kind:
    """A kind of config file: its name, its model, and the keys that mark it."""

    name: str
    title: str
    model_path: str
    marked_by: frozenset[str] | Callable[[], frozenset[str]]
    """The top-level keys that mark a file of this kind, or the function that reads them
    from the model, none of them a key of ``TF_CONFIG`` (see :meth:`is_marked`)."""
    description: str
    checks: tuple[str | Callable[[Any], object], ...] = ()
    """Checks run on the model: ``module:function`` paths, or functions."""
    checks_read_data: bool = False
    """Whether the checks are given the file's data rather than the model (a profile's
    reader sees how each value was written: a task index ``"1"`` or ``1``)."""
    profile_check: str | None = None
    """The ``module:function`` that checks a file of this kind for a reader (``--profile``),
    given the file's data and ``profile=``; ``None``: the kind has no such check."""

    @property
    def markers(self) -> frozenset[str]:
        """The top-level keys that mark a file of this kind."""
        marked_by = self.marked_by
        return marked_by if isinstance(marked_by, frozenset) else marked_by()

    def is_marked(self, data: Mapping[str, Any]) -> bool:
        """Whether a top-level key of ``data`` marks a file of this kind.

        Markers read from a model are never keys of ``TF_CONFIG``: a file of
        those keys alone is told without importing the model.
        """
        marked_by = self.marked_by
        if isinstance(marked_by, frozenset):
            return not marked_by.isdisjoint(data)
        others = data.keys() - TF_CONFIG_KEYS
        return bool(others) and not marked_by().isdisjoint(others)

    @property
    def schema_id(self) -> str:
        """The ``$id`` of this kind's JSON Schema."""
        return f"urn:estconf:schema:{self.name}"

    @property
    def schema_file(self) -> str:
        """The name of the file this kind's JSON Schema is written to."""
        return f"{self.name}.schema.json"

    def under_profile(self, profile: str | None, *, name_others: bool = True) -> Kind:
        """This kind checked for the reader ``profile`` names (docs/readers.md), if it is TF_CONFIG.

        A TF_CONFIG file under a profile is checked with that reader's rules
        for its own task and every task of its cluster, in place of the
        estimator's rules for its task alone; a Vertex AI CustomJob, each
        replica's TF_CONFIG (docs/vertex.md); other kinds are unchanged.
        ``name_others`` false: the Estimator's errors do not name the profiles
        that accept the TF_CONFIG, for a file with errors of its own besides.
        """
        if self.profile_check is not None and profile is not None:
            check_job = functools.partial(_resolve(self.profile_check), profile=profile)
            return dataclasses.replace(self, checks=(check_job,), checks_read_data=True)
        if self.name != "tf_config" or (profile is None and name_others):
            return self
        from estconf.profiles import check_profile, check_tf_config_file

        check: Callable[[Any], object]
        if profile is not None:
            check = functools.partial(check_profile, profile=profile, name_others=name_others)
        elif self.checks == _TF_CONFIG_CHECKS:
            check = functools.partial(check_tf_config_file, name_others=False)
        else:
            return self  # checks of its own
        return dataclasses.replace(self, checks=(check,), checks_read_data=True)

    def model(self) -> type[BaseModel]:
        """Import and return the model class of this kind."""
        model: type[BaseModel] = _resolve(self.model_path)
        return model

    def validate(self, data: Mapping[str, Any]) -> BaseModel:
        """Validate file data in strict mode, then run this kind's extra checks.

        Raises:
            pydantic.ValidationError: the data is not a valid config of this kind.
        """
        result = self.model().model_validate(data, strict=True)
        for check in self.checks:
            run: Callable[[Any], object] = _resolve(check) if isinstance(check, str) else check
            run(data if self.checks_read_data else result)
        return result


def _resolve(path: str) -> Any:
    """Import ``module:name`` and return the name."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


TF_CONFIG_KEYS = frozenset(
    {
        "cluster",
        "task",
        "environment",
        "session_master",
        "eval_session_master",
        "model_dir",
        "service",
        "rpc_layer",
    }
)

_RUN_CONFIG = "estconf.run_config:RunConfig"


@functools.cache
def run_config_arguments() -> frozenset[str]:
    """The arguments of ``tf.estimator.RunConfig`` (and ``tf_config``), read from the model."""
    model: type[BaseModel] = _resolve(_RUN_CONFIG)
    return frozenset(model.model_fields)


@functools.cache
def _run_config_markers() -> frozenset[str]:
    """``RunConfig``'s arguments and derived keys (found in dumps) that TF_CONFIG does not have."""
    model: type[BaseModel] = _resolve(_RUN_CONFIG)
    return (run_config_arguments() | frozenset(model.model_computed_fields)) - TF_CONFIG_KEYS


_TPU_CONFIG_KEYS = frozenset(
    {
        "iterations_per_loop",
        "num_shards",
        "num_cores_per_replica",
        "per_host_input_for_training",
        "tpu_job_name",
        "initial_infeed_sleep_secs",
        "input_partition_dims",
        "eval_training_input_configuration",
        "experimental_host_call_every_n_steps",
        "experimental_allow_per_host_v2_parallel_get_next",
        "experimental_feed_hook",
        # derived, found in dumps
        "iterations_per_loop_counter",
    }
)

_TF_CONFIG_CHECKS: tuple[str, ...] = ("estconf.profiles:check_tf_config_file",)
"""The Estimator's rules for a TF_CONFIG file's own task, naming the profiles that accept it."""

KINDS: dict[str, Kind] = {
    "tpu_run_config": Kind(
        name="tpu_run_config",
        title="tpu.RunConfig",
        model_path="estconf.tpu.run_config:RunConfig",
        marked_by=frozenset({"tpu_config"}),
        description="The arguments of tf.estimator.tpu.RunConfig: those of "
        "tf.estimator.RunConfig, with `tpu_config`, `master` and `evaluation_master`.",
    ),
    "tpu_config": Kind(
        name="tpu_config",
        title="TPUConfig",
        model_path="estconf.tpu.config:TPUConfig",
        marked_by=_TPU_CONFIG_KEYS,
        description="The arguments of tf.estimator.tpu.TPUConfig.",
    ),
    "run_config": Kind(
        name="run_config",
        title="RunConfig",
        model_path=_RUN_CONFIG,
        marked_by=_run_config_markers,
        description="The arguments of tf.estimator.RunConfig, with the TF_CONFIG they see.",
    ),
    "tf_config": Kind(
        name="tf_config",
        title="TF_CONFIG",
        model_path="estconf.tf_config:TFConfig",
        marked_by=TF_CONFIG_KEYS,
        description="The TF_CONFIG environment variable of a distributed job, checked "
        "with the rules tf.estimator.RunConfig applies to it.",
        checks=_TF_CONFIG_CHECKS,
        checks_read_data=True,
    ),
    "vertex_custom_job": Kind(
        name="vertex_custom_job",
        title="Vertex AI CustomJob",
        model_path="estconf.launchers.vertex.spec:CustomJobSpec",
        profile_check="estconf.launchers.vertex.replicas:check_profile",
        marked_by=frozenset({"workerPoolSpecs", "worker_pool_specs", "jobSpec", "job_spec"}),
        description="A Vertex AI CustomJob spec (gcloud ai custom-jobs create --config), or a "
        "whole CustomJob: its worker pools, from which each replica's TF_CONFIG is written.",
    ),
}
"""The kinds, in the order :func:`detect` tries them."""


def get(name: str) -> Kind:
    """Return the kind called ``name``.

    Raises:
        ValueError: there is no such kind.
    """
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(f"unknown kind {name!r}; the kinds are {', '.join(KINDS)}") from None


def of_model(model: type) -> Kind | None:
    """Return the kind whose model is the class ``model``, without importing any model.

    A kind's model is looked up only in a module already imported: a class
    that is not there is the model of no kind.
    """
    for kind in KINDS.values():
        module, _, name = kind.model_path.partition(":")
        if getattr(sys.modules.get(module), name, None) is model:
            return kind
    return None


def detect(data: Mapping[str, Any]) -> Kind | None:
    """Return the kind that the top-level keys of ``data`` mark, or ``None``.

    A file of no kind whose top level holds a job (``worker``, or a
    misspelling of one, ``workers``) is a ``TF_CONFIG`` whose ``cluster``
    wrapper was forgotten, read as one so that this is reported.
    """
    for kind in KINDS.values():
        if kind.is_marked(data):
            return kind
    from estconf.tf_config import top_level_jobs

    return KINDS["tf_config"] if top_level_jobs(data) else None


def from_schema(value: Any) -> Kind | None:
    """Return the kind whose schema a ``"$schema"`` value names, or ``None``.

    A schema is named by its ``$id`` or by a path or URL ending in its file
    name (``schemas/run_config.schema.json``).
    """
    if not isinstance(value, str):
        return None
    file_name = value.split("#", 1)[0].split("?", 1)[0].replace("\\", "/").rsplit("/", 1)[-1]
    for kind in KINDS.values():
        if value == kind.schema_id or file_name == kind.schema_file:
            return kind
    return None


def from_name(file: str) -> Kind | None:
    """Return the kind a file name says (``prod.run_config.yaml``), or ``None``.

    The kind's name is looked for in the stem (the name without its last
    suffix, ``-`` read as ``_``, letter case ignored); the longest names are
    tried first, so ``tpu_run_config`` is not read as ``run_config``.
    """
    base = file.replace("\\", "/").rsplit("/", 1)[-1]
    stem = (base.rsplit(".", 1)[0] if "." in base else base).lower().replace("-", "_")
    for kind in sorted(KINDS.values(), key=lambda k: -len(k.name)):
        if kind.name in stem:
            return kind
    return None


_TFJOB_API_GROUP = "kubeflow.org/"


def manifest_of(data: Mapping[Any, Any]) -> str | None:
    """Name the Kubernetes object ``data`` is a manifest of, or ``None``.

    A Kubernetes manifest has the strings ``apiVersion`` and ``kind`` at its
    top level, which no ``TF_CONFIG`` and no argument of a config has.

    Example:
        >>> manifest_of({"apiVersion": "kubeflow.org/v1", "kind": "TFJob", "spec": {}})
        'a Kubeflow TFJob manifest (apiVersion: kubeflow.org/v1)'
        >>> manifest_of({"cluster": {"chief": ["host0:2222"]}}) is None
        True
    """
    api_version, kind = data.get("apiVersion"), data.get("kind")
    if not (isinstance(api_version, str) and isinstance(kind, str)):
        return None
    owner = "Kubeflow" if api_version.startswith(_TFJOB_API_GROUP) else "Kubernetes"
    return f"a {owner} {_clipped(kind)} manifest (apiVersion: {_clipped(api_version)})"


_META_SCHEMA = re.compile(r"https?://json-schema\.org/(?:[\w./-]+/)?schema#?")


def json_schema_of(data: Mapping[Any, Any]) -> str | None:
    """Name the JSON Schema ``data`` is, or ``None``.

    A JSON Schema names its meta-schema in ``"$schema"``; a config file names
    its own schema there, never a meta-schema.

    Example:
        >>> json_schema_of({"$schema": "https://json-schema.org/draft/2020-12/schema"})
        'a JSON Schema ($schema: https://json-schema.org/draft/2020-12/schema)'
        >>> json_schema_of({"$schema": "urn:estconf:schema:tf_config"}) is None
        True
    """
    value = data.get(SCHEMA_KEY)
    if not (isinstance(value, str) and _META_SCHEMA.fullmatch(value)):
        return None
    return f"a JSON Schema ($schema: {_clipped(value)})"


def _clipped(text: str, most: int = 80) -> str:
    """``text``, or its start and ``...`` when it is longer than ``most`` characters."""
    return text if len(text) <= most else f"{text[:most]}..."


def is_tfjob(data: Mapping[Any, Any]) -> bool:
    """Whether ``data`` is the manifest of a Kubeflow TFJob (any ``kubeflow.org`` version)."""
    api_version = data.get("apiVersion")
    return (
        data.get("kind") == "TFJob"
        and isinstance(api_version, str)
        and api_version.startswith(_TFJOB_API_GROUP)
    )


@dataclass(frozen=True)
class Resolved:
    """A file's kind and how it was told: ``given``, ``$schema``, ``file name`` or ``keys``."""

    kind: Kind
    source: str


def resolve(
    data: Mapping[str, Any], file: str | None, given: Kind | None = None
) -> Resolved | None:
    """Tell the kind of a file holding ``data``, first match wins (see above), or ``None``."""
    if given is not None:
        return Resolved(given, "given")
    by_schema = from_schema(data.get(SCHEMA_KEY))
    if by_schema is not None:
        return Resolved(by_schema, SCHEMA_KEY)
    by_name = None if file is None else from_name(file)
    if by_name is not None:
        return Resolved(by_name, "file name")
    by_keys = detect(data)
    return None if by_keys is None else Resolved(by_keys, "keys")
