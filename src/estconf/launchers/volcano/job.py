"""A Volcano ``Job`` (``batch.volcano.sh/v1alpha1``), as far as its tensorflow plugin reads it.

The model holds what decides each pod's ``TF_CONFIG``: the Job's name and
namespace, its tasks (each a name, a number of ``replicas`` and a pod
template, of :mod:`estconf.launchers.kubernetes`: its containers' ``env``,
its ``hostname`` and ``subdomain``) and its ``plugins`` with their
arguments.  Everything else (queue, policies,
resources, ``status``, ...) is kept as given and not looked at.

Volcano's defaults are derived here: a task without a name is
``default<position>`` (its admission webhook names it so), and a task
without ``replicas`` has none (the field is an ``int32`` with no default).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final, Literal

from pydantic import Field, StrictStr, field_validator

from estconf._errors import custom_error
from estconf.io import kinds
from estconf.io.checks import Limits
from estconf.io.parse import stream_of
from estconf.launchers.kubernetes import Count, Object, ObjectMeta, PodTemplateSpec

__all__ = [
    "API_VERSION",
    "DEFAULT_TASK",
    "PLUGIN",
    "PLUGINS",
    "JobSpec",
    "TaskSpec",
    "VolcanoJob",
    "read_jobs",
]

API_VERSION: Final = f"{kinds.VOLCANO_API_GROUP}/v1alpha1"
"""The one version of Volcano's Job (its CRD serves no other)."""

PLUGIN: Final = "tensorflow"
"""The plugin that writes TF_CONFIG (``spec.plugins.tensorflow``)."""

PLUGINS: Final = ("ssh", "env", "svc", "tensorflow", "mpi", "pytorch", "hcclrank", "ray")
"""The job plugins Volcano v1.15.1 registers; its admission webhook refuses any other name."""

DEFAULT_TASK: Final = "default"
"""What the admission webhook names a task without a name, before its position (``default0``)."""


class TaskSpec(Object):
    """One entry of ``spec.tasks``: its name, how many pods, from which template."""

    name: StrictStr | None = Field(None, description="The task's name; default `default<i>`.")
    replicas: Count = Field(0, description="How many pods; none when not given.")
    template: PodTemplateSpec = Field(
        PodTemplateSpec(), description="The pod template of every pod of the task."
    )


class JobSpec(Object):
    """The ``spec`` of a Job: its tasks and its plugins' arguments."""

    tasks: tuple[TaskSpec, ...] = Field((), description="The tasks, in the order written.")
    plugins: dict[StrictStr, tuple[StrictStr, ...] | None] | None = Field(
        None, description="Each job plugin Volcano runs, with its arguments (`tensorflow`)."
    )


class VolcanoJob(Object):
    """A Volcano Job manifest.

    Example:
        >>> job = VolcanoJob.model_validate(
        ...     {
        ...         "apiVersion": "batch.volcano.sh/v1alpha1",
        ...         "kind": "Job",
        ...         "metadata": {"name": "mnist"},
        ...         "spec": {
        ...             "plugins": {"tensorflow": ["--port=5000"]},
        ...             "tasks": [{"name": "ps", "replicas": 1}, {"replicas": 2}],
        ...         },
        ...     }
        ... )
        >>> job.task_names, job.plugin_arguments
        (('ps', 'default1'), ('--port=5000',))
    """

    api_version: StrictStr = Field(alias="apiVersion", description="`batch.volcano.sh/v1alpha1`.")
    kind: Literal["Job"] = Field(description="`Job`.")
    metadata: ObjectMeta = Field(ObjectMeta(), description="The Job's name and namespace.")
    spec: JobSpec = Field(JobSpec(), description="The Job's tasks and plugins.")

    @field_validator("api_version")
    @classmethod
    def api_version_of_volcano_job(cls, api_version: str) -> str:
        """``batch.volcano.sh/v1alpha1``, the one version Volcano serves."""
        if api_version != API_VERSION:
            raise custom_error(
                "volcano_api_version",
                "a Volcano Job's apiVersion is {served}, the one version Volcano serves, "
                "not {given}",
                {"served": API_VERSION, "given": repr(api_version)},
            )
        return api_version

    @property
    def task_names(self) -> tuple[str, ...]:
        """Each task's name, ``default<position>`` for one without (the webhook's default)."""
        return tuple(
            f"{DEFAULT_TASK}{position}" if not task.name else task.name
            for position, task in enumerate(self.spec.tasks)
        )

    @property
    def plugin_arguments(self) -> tuple[str, ...] | None:
        """The tensorflow plugin's arguments; None when the Job does not enable it.

        A plugin written with no value (``tensorflow:``, YAML's null) is not
        enabled: the API server drops a null it has no default for from a
        custom resource before anything reads it.
        """
        plugins = self.spec.plugins or {}
        return plugins.get(PLUGIN)

    def tasks(self) -> Iterator[tuple[int, str, TaskSpec]]:
        """Each task, ``(position, name, spec)``, in the order written."""
        for position, (name, task) in enumerate(zip(self.task_names, self.spec.tasks, strict=True)):
            yield position, name, task


def read_jobs(
    text: str | bytes, *, name: str = "<string>", limits: Limits | None = None
) -> tuple[VolcanoJob, ...]:
    """Read every Volcano Job of a YAML stream, JSON text or ``kubectl get -o yaml`` output.

    Documents of other kinds are skipped; the items of a ``List`` are read as
    documents.  The text is read as a config file is, under the same limits.

    Raises:
        ValueError: the text is not YAML (a
            :class:`~estconf.io.errors.ConfigFileError`), or a Job in it is invalid.
    """
    documents = [document.data for document in stream_of(text, name, limits)]
    return tuple(VolcanoJob.model_validate(found) for found in _job_documents(documents))


def _job_documents(documents: Iterable[Any]) -> Iterator[Mapping[Any, Any]]:
    for document in documents:
        for _, found in kinds.listed(document):
            if kinds.is_volcano_job(found):
                yield found
