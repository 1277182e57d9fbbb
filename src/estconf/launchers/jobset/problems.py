"""What is wrong with the TF_CONFIG a JobSet's pods read, and what a prediction cannot know.

Both ``estconf tf-config jobset`` (as notes) and ``estconf validate`` (as
findings at the env value that causes them) report these, grouped by the
``env`` entry they come from:

- ``env_reference_not_expanded``: a ``$(NAME)`` Kubernetes leaves as
  written, since no variable of that name is defined before TF_CONFIG in its
  container (``JOB_COMPLETION_INDEX`` never is: the Job controller appends
  it after every other);
- the TF_CONFIG is no JSON (``syntax``, or the code of what strict JSON
  refuses in it, ``duplicate_key``, ...), where its whole text is known;
- notes: pods that get no TF_CONFIG, values known only once a pod runs, and
  references only a source not known here (a Service, a ConfigMap not
  given) may expand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from estconf._json import JSONInputError
from estconf.launchers.jobset.pods import JOB_COMPLETION_INDEX, RANDOM_SUFFIX, job_name, pod_count
from estconf.launchers.jobset.tf_configs import (
    TF_CONFIG,
    PodTFConfig,
    pods_named,
    tf_config_container,
)

if TYPE_CHECKING:
    from estconf.finding import Severity
    from estconf.io._positions import Loc
    from estconf.launchers.jobset.model import JobSet
    from estconf.launchers.jobset.pods import Configs, Pod

__all__ = ["NOT_EXPANDED", "Problem", "not_set", "problems"]

NOT_EXPANDED: Final = "env_reference_not_expanded"

INDEX_FIX: Final = (
    "define TASK_INDEX before TF_CONFIG from a fieldRef to "
    "metadata.annotations['batch.kubernetes.io/job-completion-index']"
)
"""The fix of a TF_CONFIG that reads ``$(JOB_COMPLETION_INDEX)``."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with (or not known of) the TF_CONFIG of some pods.

    Attributes:
        code: the finding's code; a note has none.
        message: what is wrong, naming the pods (``TF_CONFIG of pods ...``).
        pods: the pods it is about.
        replicated_job: the position of their replicated job in the JobSet.
        container: the position of the container whose TF_CONFIG it is.
        entry: the position of the TF_CONFIG entry in that container's
            ``env``; None when its ``envFrom`` sets it, or none does.
        hint: how to fix it.
        severity: ``error``, or ``note`` for what a prediction cannot know.
        at: for a finding not at an ``env`` entry, its path under the
            JobSet's ``spec`` (``("successPolicy",)``).
        refused: whether the API server refuses the object for it.
    """

    code: str | None
    message: str
    pods: tuple[Pod, ...]
    replicated_job: int
    container: int | None
    entry: int | None
    hint: str | None = None
    severity: Severity = "error"
    at: Loc | None = None
    refused: bool = False


def problems(found: Iterable[PodTFConfig], jobset: JobSet) -> list[Problem]:
    """What is wrong with the TF_CONFIGs of ``found`` (pods of ``jobset``), in pod order."""
    groups: dict[tuple[object, ...], list[PodTFConfig]] = {}
    for each in found:
        if each.text is None:
            continue
        place = (each.pod.position, each.container, each.entry)
        for name in each.unexpanded:
            groups.setdefault((*place, NOT_EXPANDED, name), []).append(each)
        unknown = each.variable.unknown if each.variable else ()
        if each.known and isinstance(each.parsed, JSONInputError):
            code = "syntax" if each.parsed.code == "json_invalid" else each.parsed.code
            groups.setdefault((*place, code, each.parsed.message), []).append(each)
        for name in each.may_expand:
            groups.setdefault((*place, "may_expand", name), []).append(each)
        for source in unknown:
            groups.setdefault((*place, "unknown", source), []).append(each)
    return [_problem(key, pods, jobset) for key, pods in groups.items()]


def _problem(key: tuple[object, ...], found: list[PodTFConfig], jobset: JobSet) -> Problem:
    position, container, entry, code, said = key
    assert isinstance(position, int) and isinstance(code, str) and isinstance(said, str)
    assert container is None or isinstance(container, int)
    assert entry is None or isinstance(entry, int)
    pods = tuple(each.pod for each in found)
    first = found[0]
    where = f"TF_CONFIG of {pods_named(pods)}"
    if code == NOT_EXPANDED:
        from estconf.codes import checked

        reason, hint = _not_expanded(said, first, jobset)
        message = f"{where} holds $({said}), which Kubernetes leaves as written: {reason}"
        declared = checked("env_reference_not_expanded")
        return Problem(declared, message, pods, position, container, entry, hint)
    if code == "may_expand":
        env_from = " or ".join(first.not_known.env_from)
        source = (
            f"{env_from}, not given,"
            if env_from
            else (f"a Service of namespace {first.not_known.services!r}")
        )
        message = f"{where} holds $({said}), which only {source} may define"
        return Problem(None, message, pods, position, container, entry, severity="note")
    if code == "unknown":
        message = f"{where} takes {said}, known only once the pod runs: written <{said}>"
        return Problem(None, message, pods, position, container, entry, severity="note")
    return Problem(code, f"{where}: {said}", pods, position, container, entry)


def _not_expanded(name: str, found: PodTFConfig, jobset: JobSet) -> tuple[str, str]:
    """Why ``$(name)`` stays as written in a pod's TF_CONFIG, and the fix."""
    spec = jobset.spec.replicated_jobs[found.pod.position].template.spec.template.spec
    container = spec.containers[found.container or 0]
    names = [variable.name for variable in container.env]
    label = f"container {container.name!r}" if container.name else "its container"
    entry = found.entry
    if name == JOB_COMPLETION_INDEX and name not in names:
        reason = (
            "the Job controller appends JOB_COMPLETION_INDEX after every variable of the container"
        )
        return reason, INDEX_FIX
    if name in names[(entry or 0) + 1 :]:
        return (
            f"{name} is defined after TF_CONFIG in {label}",
            f"move {name} before TF_CONFIG: $(NAME) expands only to a variable defined before it",
        )
    return f"{label} defines no {name}", f"define {name} before TF_CONFIG in {label}"


def not_set(
    jobset: JobSet,
    configs: Configs,
    name: str | None = None,
    listed: Mapping[int, tuple[object, Pod, str, str]] | None = None,
) -> list[Problem]:
    """A note for each replicated job whose pods get no TF_CONFIG (no container defines it).

    ``listed``: for each replicated job a cluster names a pod of, the pod
    whose TF_CONFIG names it, the path and the address
    (:attr:`estconf.launchers.jobset.addresses.Addresses.listed`); the note
    says so (``validate`` reports it as ``tf_config_missing``).
    """
    found = []
    jobset_name = jobset.name or name or ""
    for position, job in enumerate(jobset.spec.replicated_jobs):
        count = pod_count(job)
        container, may_set = tf_config_container(job, jobset.namespace, configs)
        if container is not None or not count:
            continue
        indexed = job.template.spec.indexed
        per_job = count // job.replicas
        first = f"{job_name(jobset_name, job.name, 0)}-{0 if indexed else RANDOM_SUFFIX}"
        last_index = per_job - 1 if indexed else RANDOM_SUFFIX
        last = f"{job_name(jobset_name, job.name, job.replicas - 1)}-{last_index}"
        pods = first if count == 1 else f"{first} to {last}"
        unless = f", unless {' or '.join(may_set)} (not given) does" if may_set else ""
        message = (
            f"the {count:,} pod{'s' if count > 1 else ''} of replicated job {job.name!r} "
            f"({pods}) get{'s' if count == 1 else ''} no {TF_CONFIG}: no container of theirs "
            f"defines it{unless}"
        )
        cited = (listed or {}).get(position)
        if cited is not None:
            _, by, path, address = cited
            message += (
                f"; the cluster of pod {by.name} lists {'them' if count > 1 else 'it'} "
                f"({path}: {address!r}), and TensorFlow waits for them (tf_config_missing)"
            )
        found.append(Problem(None, message, (), position, None, None, severity="note"))
    return found
