"""What a document is: a config file of a kind estconf reads, or another tool's document.

Every reader asks this module.  A config file's kind names a model and how
a file of that kind is validated.  Models are imported only when a file of
their kind is read, so reading a TF_CONFIG file does not pay for building
the TPU models; ``RunConfig``'s keys are read from its model, imported when
a file has keys other than ``TF_CONFIG``'s to look up.

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
4. ``tf_config``: a key of ``TF_CONFIG`` (``cluster``, ``task``, ...).
5. the kinds a launcher reads, declared by the launchers in
   :data:`estconf._launchers.DOCUMENT_KINDS` (this module imports no
   launcher): ``vertex_custom_job``, a Vertex AI CustomJob spec's
   ``workerPoolSpecs`` (``worker_pool_specs``), or a whole CustomJob's ``jobSpec``.
6. with none of these keys, a job at the top level (``worker``, ``workers``):
   ``cluster`` when the file holds jobs alone (see :func:`detect`), else
   ``tf_config``, whose ``cluster`` wrapper was forgotten.

Only the kinds this version provides take part.  Another tool's document is
none of them, whatever its name says, and is told here so that it is refused
as what it is rather than read as a ``TF_CONFIG`` that sets nothing: a
Kubernetes manifest (:func:`manifest_of`, from :mod:`~estconf.io.manifest_kinds`),
among them a Kubeflow TFJob (:func:`is_tfjob`), a Volcano Job
(:func:`is_volcano_job`), an object a launcher reads (a JobSet, a TrainJob:
:func:`launcher_manifest`), a ``List`` of objects (:func:`list_items`) and a
Katib ``Experiment`` (:func:`is_katib_experiment`), whose TFJobs
:func:`tfjobs_in` finds; a container's env list (:func:`is_env_list`); a
JSON Schema, such as the ``run_config.schema.json`` estconf exports
(:func:`json_schema_of`); a Helm template (:func:`helm_template`).  A
search of a file's bytes tells the files that cannot hold a manifest
(:func:`may_hold_manifest`), a TFJob (:func:`may_hold_tfjob`), a Volcano
Job (:func:`may_hold_volcano_job`) or a launcher's object
(:func:`may_hold_launcher_manifest`), which are then not parsed for one.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from estconf._launchers import DOCUMENT_KINDS, DocumentKind
from estconf.io.manifest_kinds import (  # the manifests' answers, given here too
    KUBEFLOW_API_GROUP,
    MANIFEST_FORMATS,
    TFJOB,
    VOLCANO_API_GROUP,
    clipped,
    is_env_list,
    is_katib_experiment,
    is_tfjob,
    is_volcano_job,
    launcher_manifest,
    list_items,
    listed,
    manifest_of,
    may_hold_launcher_manifest,
    may_hold_manifest,
    may_hold_tfjob,
    may_hold_volcano_job,
    tfjobs_in,
)

if TYPE_CHECKING:
    from pydantic import BaseModel


__all__ = [
    "KINDS",
    "KUBEFLOW_API_GROUP",
    "MANIFEST_FORMATS",
    "SCHEMA_KEY",
    "TFJOB",
    "TF_CONFIG_KEYS",
    "VOLCANO_API_GROUP",
    "Kind",
    "Resolved",
    "detect",
    "file_of",
    "from_name",
    "from_schema",
    "get",
    "helm_template",
    "is_env_list",
    "is_katib_experiment",
    "is_tfjob",
    "is_volcano_job",
    "json_schema_of",
    "launcher_manifest",
    "list_items",
    "listed",
    "manifest_of",
    "may_hold_launcher_manifest",
    "may_hold_manifest",
    "may_hold_tfjob",
    "may_hold_volcano_job",
    "of_model",
    "resolve",
    "run_config_arguments",
    "tfjobs_in",
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
    named: bool = True
    """Whether a file name tells this kind (:func:`from_name`)."""

    @classmethod
    def declared_by_launcher(cls, declared: DocumentKind) -> Kind:
        """The kind of config file a launcher reads, as the launcher declares it."""
        return cls(
            name=declared.name,
            title=declared.title,
            model_path=declared.model_path,
            marked_by=declared.markers,
            description=declared.description,
            profile_check=declared.profile_check,
        )

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
    "cluster": Kind(
        name="cluster",
        title="cluster",
        model_path="estconf.cluster:ClusterSpec",
        marked_by=frozenset(),  # told by its jobs: see detect()
        description="A cluster alone, as tf.train.ClusterSpec takes it and `estconf tf-config` "
        "reads it: each job mapped to its tasks' addresses, every task checked as it would start.",
        checks=("estconf.profiles:check_cluster",),
        profile_check="estconf.profiles:check_cluster",
        named=False,  # a TF_CONFIG holds a cluster too: a name saying "cluster" tells nothing
    ),
    **{declared.name: Kind.declared_by_launcher(declared) for declared in DOCUMENT_KINDS},
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
    misspelling of one, ``workers``) is a cluster if it holds jobs alone
    (:func:`estconf.tf_config.jobs_alone`, ``"$schema"`` aside); else a
    ``TF_CONFIG`` whose ``cluster`` wrapper was forgotten, read as one so
    that this is reported.
    """
    keys = data
    if isinstance(data.get("master"), (list, Mapping)):  # the job, not RunConfig's derived key
        keys = {key: value for key, value in data.items() if key != "master"}
    for kind in KINDS.values():
        if kind.is_marked(keys):
            return kind
    from estconf.tf_config import jobs_alone, top_level_jobs

    if not top_level_jobs(data):
        return None
    alone = jobs_alone({key: value for key, value in data.items() if key != SCHEMA_KEY})
    return KINDS["cluster" if alone else "tf_config"]


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
    tried first, so ``tpu_run_config`` is not read as ``run_config``.  A
    cluster has no such name (``cluster.json`` is as often a ``TF_CONFIG``).
    """
    base = file.replace("\\", "/").rsplit("/", 1)[-1]
    stem = (base.rsplit(".", 1)[0] if "." in base else base).lower().replace("-", "_")
    for kind in sorted(KINDS.values(), key=lambda k: -len(k.name)):
        if kind.named and kind.name in stem:
            return kind
    return None


def file_of(kind: Kind | None) -> str:
    """What a file of ``kind`` is called in messages: ``a TF_CONFIG file``.

    ``None`` stands for every kind: ``a config file of a kind estconf reads``.
    """
    return "a config file of a kind estconf reads" if kind is None else f"a {kind.title} file"


# Other tools' documents.

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
    return f"a JSON Schema ($schema: {clipped(value)})"


# a Go template action, as Helm charts write them: {{ .Values.x }}, {{- if ... }}, {{ end -}}
_ACTION: Final = re.compile(r"\{\{-?[ \t]*[^{}\n]*?[ \t]*-?\}\}")


def helm_template(text: str) -> re.Match[str] | None:
    """The first Go template action of ``text`` (``{{ .Values.x }}``), or ``None``.

    A text that YAML cannot read and that holds one is a Helm template: it is
    YAML only once rendered.
    """
    return _ACTION.search(text)


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
