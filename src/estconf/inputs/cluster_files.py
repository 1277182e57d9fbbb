"""A cluster file, as ``estconf tf-config CLUSTER_FILE`` is given it.

A cluster file holds a cluster (``{"chief": [...], "worker": [...]}``) or a
TF_CONFIG whose cluster it is (its task, if any, is not kept): a
``TF_CONFIG`` for each task of the cluster is made from it.  It is read as a
config file is, with the checks of its values.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from estconf.inputs.sources import InputError, NotThisInput
from estconf.io.checks import Limits

__all__ = ["read_cluster_file", "tasks_of"]


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
