"""A cluster file, as ``estconf tf-config CLUSTER_FILE`` is given it.

A cluster file holds a cluster (``{"chief": [...], "worker": [...]}``) or a
TF_CONFIG whose cluster it is (its task, if any, is not kept): a
``TF_CONFIG`` for each task of the cluster is made from it.  It is read as a
config file is, with the checks of its values.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from estconf.io.checks import Limits
from estconf.io.sources import InputError, NotThisInput
from estconf.launchers.base import Notes

if TYPE_CHECKING:
    from estconf.io.errors import FileError
    from estconf.profiles import Profile

__all__ = ["TaskTFConfigs", "read_cluster_file", "task_tf_configs", "tasks_of"]


def read_cluster_file(name: str, limits: Limits | None = None) -> dict[str, Any]:
    """The TF_CONFIG the cluster file ``name`` holds, without a task: ``{"cluster": ...}``.

    Raises:
        ConfigFileError: the file cannot be read as a config file.
        NotThisInput: it holds no object, or another Kubernetes manifest.
        InputError: it is a TFJob manifest, given as a cluster file.
    """
    from estconf import files
    from estconf.io import kinds

    data = files.read_data(name, **dataclasses.asdict(limits or Limits()))
    if not isinstance(data, dict):
        raise NotThisInput(f"{name}: a cluster file holds an object (a mapping) at the top level")
    if kinds.is_tfjob(data):
        raise InputError(f"{name} is a Kubeflow TFJob manifest: give it as --tfjob {name}")
    manifest = kinds.manifest_of(data)
    if manifest is not None:
        raise NotThisInput(f"{name}: {manifest}, not a cluster file")
    if "cluster" in data:
        return {key: value for key, value in data.items() if key != "task"}
    return {"cluster": data}


def tasks_of(cluster: Any) -> list[tuple[str, int]]:
    """The tasks of a cluster as written, ``(job, index)``: of a sparse job, its indices sorted.

    An index that is not a number is ``-1``, which validation then refuses.
    """
    tasks: list[tuple[str, int]] = []
    if not isinstance(cluster, dict):
        return tasks
    for job, addresses in cluster.items():
        if isinstance(addresses, list):
            tasks.extend((str(job), index) for index in range(len(addresses)))
        elif isinstance(addresses, dict):
            indices = []
            for key in addresses:
                try:
                    indices.append(int(key))
                except (TypeError, ValueError):
                    indices.append(-1)  # validation says what is wrong with it
            tasks.extend((str(job), index) for index in sorted(indices))
    return tasks


HINTED_ERRORS: Final = 100
"""The most errors of a file's own TF_CONFIG for the other profiles to be tried on it.

Each profile reads the whole cluster again, which takes seconds for tens of
thousands of errors; the profiles differ in a few rules, not in thousands
of values.
"""


@dataclass(frozen=True)
class TaskTFConfigs:
    """The TF_CONFIG of each task of a cluster file, checked.

    Attributes:
        outputs: each task and its TF_CONFIG as JSON text, when it is valid.
        errors: what the file's TF_CONFIG, or a task's, breaks; not placed in
            the file (a line and column would be those of the JSON made).
        others: the other profiles that read the cluster the Estimator refuses.
        findings: the warnings and notes of the cluster's addresses (a task
            at port 0, loopback hosts), not placed either.
    """

    outputs: list[tuple[tuple[str, int], str]] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    others: tuple[Profile, ...] = ()
    findings: list[FileError] = field(default_factory=list)

    def notes(self) -> Notes:
        """What was found as ``tf-config`` reports it, counted, and who reads the cluster instead.

        The errors, then the warnings and notes; empty when nothing was found.
        """
        from estconf.profiles.registry import as_options

        if not (self.errors or self.findings):
            return Notes()
        hints = []
        if self.others:
            hints.append(
                f"tf.estimator refuses this cluster; {as_options(self.others)} reads "
                "it, if that is the reader"
            )
        return Notes(findings=[*self.errors, *self.findings], counted=True, hints=hints)


def task_tf_configs(
    name: str,
    template: dict[str, Any],
    tasks: list[tuple[str, int]],
    profile: str = "estimator",
    limits: Limits | None = None,
) -> TaskTFConfigs:
    """The TF_CONFIG of each of ``tasks``, from a cluster file's TF_CONFIG without a task.

    The file's keys are checked once, as a TF_CONFIG of the first task; then
    each task is checked with the estimator's rules against that cluster, or
    under another profile, the first task and with it every task of the cluster.

    Raises:
        NotThisInput: the cluster has no tasks, or holds what JSON cannot.
    """
    from pydantic import ValidationError

    from estconf import files
    from estconf.estimator.reading import derive_distributed
    from estconf.io.errors import errors_of
    from estconf.profiles import check_profile
    from estconf.tf_config import Task, TFConfig

    if not tasks:
        raise NotThisInput(f"{name}: the cluster has no tasks")
    try:
        text = json.dumps({**template, "task": {"type": tasks[0][0], "index": tasks[0][1]}})
    except (TypeError, ValueError) as exc:
        raise NotThisInput(f"{name}: a TF_CONFIG is JSON, which cannot hold this: {exc}") from None
    errors: list[FileError] = []
    first = f"{name} ({_label(tasks[0])})"
    try:
        if profile == "estimator":
            base = files.loads(
                text, "json", TFConfig, name=first, **dataclasses.asdict(limits or Limits())
            )
        else:  # a TF_CONFIG file is checked with the estimator's rules: only its values here
            base = TFConfig.model_validate(json.loads(text), strict=True)
    except files.ConfigFileError as exc:
        errors.extend(exc.errors)
        tasks = []  # the cluster itself is not valid: nothing more to check
    except ValidationError as exc:
        errors.extend(errors_of(exc, first))
        tasks = []
    hinted = bool(tasks) or len(errors) <= HINTED_ERRORS
    outputs: list[tuple[tuple[str, int], str]] = []
    for number, task in enumerate(tasks):
        tf_config = base.model_copy(update={"task": Task(type=task[0], index=task[1])})
        try:
            if profile == "estimator":
                derive_distributed(tf_config)
            elif number == 0:
                check_profile(tf_config, profile)
        except ValidationError as exc:
            errors.extend(errors_of(exc, f"{name} ({_label(task)})"))
            continue
        dump = json.dumps(tf_config.model_dump(mode="json"), separators=(",", ":"))
        outputs.append((task, dump))
    found = _address_findings(name, base.cluster.root) if tasks else []
    if not errors:
        return TaskTFConfigs(outputs, findings=found)
    # a line and column would be those of the generated JSON, not of the file
    unplaced = [dataclasses.replace(error, line=None, column=None) for error in errors]
    others = _other_profiles(json.loads(text)) if profile == "estimator" and hinted else ()
    return TaskTFConfigs(outputs, unplaced, others, found)


def _address_findings(name: str, cluster: Any) -> list[FileError]:
    """The warnings and notes of a valid cluster's addresses, for ``tf-config`` to say."""
    from estconf._addresses import address_findings
    from estconf.io.errors import error_of

    return [error_of(found, name) for found in address_findings(cluster)]


def _label(task: tuple[str, int]) -> str:
    from estconf.launchers.formats import label

    return label(task)


def _other_profiles(tf_config: Any) -> tuple[Profile, ...]:
    """The other profiles that read a TF_CONFIG the estimator refuses, if any."""
    from pydantic import ValidationError

    from estconf.profiles import check_profile, other_readers

    try:
        check_profile(tf_config, "estimator", name_others=False)
    except ValidationError as refused:
        return tuple(other_readers(tf_config, {error["type"] for error in refused.errors()}))
    return ()
