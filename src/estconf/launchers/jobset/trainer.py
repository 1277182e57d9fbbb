"""Kubeflow Trainer v2: the JobSet a TrainJob and its runtime make (``trainer.kubeflow.org``).

A TrainJob names its runtime (``spec.runtimeRef``: a ``ClusterTrainingRuntime``
unless its ``kind`` says ``TrainingRuntime``, one of the TrainJob's
namespace); the runtime's ``spec.template.spec`` is a JobSet's spec.  With
no ``torch``, ``mpi`` or ``jax`` in its ``mlPolicy``, Trainer's ``plainML``
plugin applies, which sets no variable of its own.  Trainer v2.3.0 makes the
JobSet (:func:`jobset_of`, as ``pkg/runtime/core/trainingruntime.go``, the
``jobset`` plugin's builder and ``plainml.go`` do):

- it has the TrainJob's name and namespace, and the labels and annotations
  of the runtime's ``spec.template.metadata``;
- a replicated job whose Job template has the label
  ``trainer.kubeflow.org/trainjob-ancestor-step: trainer`` gets
  ``replicas: 1``, and ``mlPolicy.numNodes`` pods (1 by default; a runtime
  with no ``mlPolicy`` keeps its ``parallelism``); the TrainJob's
  ``spec.trainer.numNodes`` overrides that count on the *first* such job
  only (as the ``torch`` and ``jax`` plugins do too; ``mpi`` has rules of
  its own, not followed here);
- every replicated job's ``parallelism`` and ``completions`` are set to its
  count (its ``parallelism``, 1 if none, for a job without the label);
- the container named ``node`` of each trainer-labelled job takes the
  TrainJob's ``image``, ``command`` and ``args`` where given, and its
  ``env``: an entry replaces the runtime's of the same name in place, or is
  appended after the runtime's;
- the dataset and model initializer jobs get ``replicas: 1``.

Every other replicated job keeps the runtime's template as written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import Field, StrictStr

from estconf.launchers.jobset.model import API_VERSION, JobSet, JobSetSpec, ReplicatedJob
from estconf.launchers.kubernetes import Container, Count, EnvVar, Object, ObjectMeta

__all__ = [
    "ANCESTOR_LABEL",
    "API_GROUP",
    "CLUSTER_TRAINING_RUNTIME",
    "RUNTIME_KINDS",
    "TRAINER",
    "TRAINER_CONTAINER",
    "Built",
    "MLPolicy",
    "RuntimeRef",
    "TrainJob",
    "TrainJobSpec",
    "Trainer",
    "TrainingRuntime",
    "jobset_of",
    "runtime_of",
]

API_GROUP: Final = "trainer.kubeflow.org"
TRAINER_API_VERSION: Final = f"{API_GROUP}/v1alpha1"
CLUSTER_TRAINING_RUNTIME: Final = "ClusterTrainingRuntime"
TRAINING_RUNTIME: Final = "TrainingRuntime"
RUNTIME_KINDS: Final = (TRAINING_RUNTIME, CLUSTER_TRAINING_RUNTIME)
"""The ``kind`` of a Trainer runtime: one of a namespace, or of the cluster."""

ANCESTOR_LABEL: Final = "trainer.kubeflow.org/trainjob-ancestor-step"
"""The label of a Job template saying which step of a TrainJob it runs."""
TRAINER: Final = "trainer"
"""The value of :data:`ANCESTOR_LABEL` on the jobs that train."""
INITIALIZERS: Final = ("dataset-initializer", "model-initializer")
"""The values of :data:`ANCESTOR_LABEL` on the jobs that fetch the data and the model."""
TRAINER_CONTAINER: Final = "node"
"""The container of a trainer job that the TrainJob's image, command, args and env go into."""

PLUGINS: Final = ("torch", "mpi", "jax")
"""The ``mlPolicy`` sources whose plugin stands in for ``plainML``."""


class RuntimeRef(Object):
    """A TrainJob's ``runtimeRef``: the runtime it runs on."""

    name: StrictStr
    api_group: StrictStr = Field(API_GROUP, alias="apiGroup")
    kind: StrictStr = CLUSTER_TRAINING_RUNTIME


class Trainer(Object):
    """A TrainJob's ``trainer``: what it sets in the runtime's trainer jobs."""

    image: StrictStr | None = None
    command: tuple[StrictStr, ...] | None = None
    args: tuple[StrictStr, ...] | None = None
    env: tuple[EnvVar, ...] = ()
    num_nodes: Count | None = Field(None, alias="numNodes")


class TrainJobSpec(Object):
    """A TrainJob's ``spec``: its runtime, its trainer and the patches of the runtime."""

    runtime_ref: RuntimeRef = Field(alias="runtimeRef")
    trainer: Trainer | None = None
    runtime_patches: tuple[dict[StrictStr, Any], ...] = Field((), alias="runtimePatches")


class TrainJob(Object):
    """A ``trainer.kubeflow.org/v1alpha1`` TrainJob manifest."""

    api_version: Literal["trainer.kubeflow.org/v1alpha1"] = Field(alias="apiVersion")
    kind: Literal["TrainJob"]
    metadata: ObjectMeta = ObjectMeta()
    spec: TrainJobSpec

    @property
    def namespace(self) -> str:
        """Its namespace: ``default`` unless the manifest names one."""
        return self.metadata.namespace or "default"


class MLPolicy(Object):
    """A runtime's ``mlPolicy``: how many nodes, and which plugin."""

    num_nodes: Count | None = Field(None, alias="numNodes")
    torch: dict[StrictStr, Any] | None = None
    mpi: dict[StrictStr, Any] | None = None
    jax: dict[StrictStr, Any] | None = None

    @property
    def plugin(self) -> str | None:
        """The plugin that stands in for ``plainML`` (``torch``, ``mpi``, ``jax``), if any."""
        return next((name for name in PLUGINS if getattr(self, name) is not None), None)


class JobSetTemplate(Object):
    """A runtime's ``template``: the JobSet it makes, but for its name."""

    metadata: ObjectMeta = ObjectMeta()
    spec: JobSetSpec = JobSetSpec()


class RuntimeSpec(Object):
    """A runtime's ``spec``: its ML policy and its JobSet template."""

    ml_policy: MLPolicy | None = Field(None, alias="mlPolicy")
    template: JobSetTemplate = JobSetTemplate()


class TrainingRuntime(Object):
    """A ``TrainingRuntime`` (of a namespace) or ``ClusterTrainingRuntime`` manifest."""

    api_version: Literal["trainer.kubeflow.org/v1alpha1"] = Field(alias="apiVersion")
    kind: Literal["TrainingRuntime", "ClusterTrainingRuntime"]
    metadata: ObjectMeta = ObjectMeta()
    spec: RuntimeSpec = RuntimeSpec()


def runtime_of(trainjob: TrainJob, runtimes: Iterable[TrainingRuntime]) -> TrainingRuntime | None:
    """The runtime ``trainjob`` names, of ``runtimes``; None if none of them is it.

    A ``TrainingRuntime`` is one of the TrainJob's namespace; one whose
    manifest names no namespace is taken for any (``kubectl apply -n``
    puts both where it is told).
    """
    ref = trainjob.spec.runtime_ref
    if ref.api_group != API_GROUP:
        return None
    for runtime in runtimes:
        if runtime.kind != ref.kind or runtime.metadata.name != ref.name:
            continue
        namespace = runtime.metadata.namespace
        if ref.kind == CLUSTER_TRAINING_RUNTIME or namespace in (None, trainjob.namespace):
            return runtime
    return None


@dataclass(frozen=True)
class Built:
    """The JobSet Trainer makes of a TrainJob, and where each of its ``env`` entries comes from.

    Attributes:
        jobset: the JobSet.
        from_trainjob: for each ``(replicated job, container, env entry)``
            position of the JobSet that holds an entry of the TrainJob's
            ``spec.trainer.env``, that entry's position there; every other
            entry is the runtime's, at the same position in its template.
        plugin: the ``mlPolicy`` plugin of the runtime that is not
            ``plainML`` (``torch``, ...), whose own variables are not here.
    """

    jobset: JobSet
    from_trainjob: Mapping[tuple[int, int, int], int]
    plugin: str | None = None


def jobset_of(trainjob: TrainJob, runtime: TrainingRuntime) -> Built:
    """The JobSet Trainer v2.3.0 makes of ``trainjob`` on ``runtime`` (see the module's rules)."""
    policy = runtime.spec.ml_policy
    trainer = trainjob.spec.trainer
    template = runtime.spec.template
    replicated: list[ReplicatedJob] = []
    from_trainjob: dict[tuple[int, int, int], int] = {}
    overridden = False
    for position, job in enumerate(template.spec.replicated_jobs):
        ancestor = job.template.metadata.labels.get(ANCESTOR_LABEL)
        count = 1 if job.template.spec.parallelism is None else job.template.spec.parallelism
        if ancestor == TRAINER and policy is not None:
            count = 1 if policy.num_nodes is None else policy.num_nodes
        if ancestor == TRAINER and not overridden:
            overridden = True  # the first trainer job only: plainML's, torch's and jax's rule
            plugin = None if policy is None else policy.plugin
            if trainer is not None and trainer.num_nodes is not None and plugin != "mpi":
                count = trainer.num_nodes
        spec = job.template.spec.model_copy(update={"parallelism": count, "completions": count})
        update: dict[str, Any] = {}
        if ancestor == TRAINER:
            update["replicas"] = 1
            containers = list(spec.template.spec.containers)
            for index, container in enumerate(containers):
                if container.name == TRAINER_CONTAINER and trainer is not None:
                    containers[index], placed = _trained(container, trainer)
                    from_trainjob.update(
                        {(position, index, at): given for at, given in placed.items()}
                    )
            pod_spec = spec.template.spec.model_copy(update={"containers": tuple(containers)})
            pod = spec.template.model_copy(update={"spec": pod_spec})
            spec = spec.model_copy(update={"template": pod})
        elif ancestor in INITIALIZERS:
            update["replicas"] = 1
        job_template = job.template.model_copy(update={"spec": spec})
        replicated.append(job.model_copy(update={**update, "template": job_template}))
    metadata = ObjectMeta(
        name=trainjob.metadata.name,
        namespace=trainjob.namespace,
        labels=dict(template.metadata.labels),
        annotations=dict(template.metadata.annotations),
    )
    jobset = JobSet.model_validate(
        {
            "apiVersion": API_VERSION,
            "kind": "JobSet",
            "metadata": metadata,
            "spec": template.spec.model_copy(update={"replicated_jobs": tuple(replicated)}),
        }
    )
    return Built(jobset, from_trainjob, None if policy is None else policy.plugin)


def _trained(container: Container, trainer: Trainer) -> tuple[Container, dict[int, int]]:
    """Container ``node`` with the TrainJob's image, command, args and env; where each entry went.

    Each of the TrainJob's ``env`` entries replaces the container's entry of
    the same name in place, or is appended (Trainer's ``UpsertEnvVars``).
    """
    env = list(container.env)
    placed: dict[int, int] = {}
    for given, variable in enumerate(trainer.env):
        at = next((i for i, entry in enumerate(env) if entry.name == variable.name), len(env))
        if at == len(env):
            env.append(variable)
        else:
            env[at] = variable
        placed[at] = given
    update: dict[str, Any] = {"env": tuple(env)}
    for key in ("image", "command", "args"):
        if getattr(trainer, key) is not None:
            update[key] = getattr(trainer, key)
    return container.model_copy(update=update), placed
