"""The TF_CONFIG of every pod of a JobSet or a TrainJob, as ``estconf tf-config`` writes them.

``tf-config jobset FILE`` reads the JobSets of a file, ``tf-config trainjob
FILE...`` the TrainJobs of its files, each with its runtime found in any of
them (:func:`trainjob_sources`): both predict through one path, the
JobSet's (:func:`predicted`).  Each pod's TF_CONFIG is written in pod
order, as the pod gets it, JSON or not; what is wrong with it, and what
cannot be known before the pods run, are the notes beside it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from estconf._container_env import TooLong
from estconf.io.errors import ConfigFileError, FileError, error, error_again
from estconf.io.sources import InputError
from estconf.launchers.base import Notes, Pod
from estconf.launchers.formats import PODS
from estconf.launchers.jobset.documents import Placed, configs_of, placed_in
from estconf.launchers.jobset.pods import Configs, pod_count, pods
from estconf.launchers.jobset.problems import Problem, not_set, problems
from estconf.launchers.jobset.tf_configs import PodTFConfig, tf_config_container, tf_configs

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

    from estconf.io.checks import Limits
    from estconf.launchers.jobset.model import JobSet
    from estconf.launchers.jobset.trainer import TrainJob

__all__ = [
    "MAX_PODS",
    "Predicted",
    "Size",
    "Source",
    "jobset_sources",
    "model_errors",
    "one_line",
    "predicted",
    "read_objects",
    "trainjob_sources",
]

MAX_PODS: Final = 100_000
"""The most pods whose TF_CONFIG is predicted in one run (a job of more would write gigabytes:
each TF_CONFIG lists every pod's address)."""

Output = tuple[tuple[str, int], str]

_TRAINJOB: Final = "trainer.kubeflow.org/v1alpha1"


@dataclass(frozen=True)
class Source:
    """A JobSet to predict, and how it is named in notes.

    Attributes:
        jobset: the JobSet (for a TrainJob, the one Trainer makes of it).
        said: how notes name it: ``FILE: JobSet 'mnist'``.
        configs: the ConfigMaps and Secrets its pods' variables may read.
        notes: what was said of it before its pods (a runtime's plugin).
    """

    jobset: JobSet
    said: str
    configs: Configs = field(default_factory=Configs)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Predicted:
    """The TF_CONFIG of every pod that gets one, and what was found.

    Attributes:
        outputs: each pod's ``(Job, index)`` and TF_CONFIG, in pod order.
        labels: each pod's name, the label written before its TF_CONFIG.
        notes: notes, problems and their fixes.
        failed: a pod gets a TF_CONFIG its program cannot read, or the input is invalid.
        unreadable: an input cannot be read, or a TrainJob's runtime is in none.
        pods: for ``--format pods``, every pod in pod order with the TF_CONFIG it
            gets, None for a pod that gets none; else None.
    """

    outputs: list[Output]
    labels: list[str]
    notes: Notes = field(default_factory=Notes)
    failed: bool = False
    unreadable: bool = False
    pods: list[Pod] | None = None


@dataclass(frozen=True)
class Size:
    """The sizes of the TF_CONFIGs to write, as ``launchers.formats.written_size`` reads them."""

    pods: int
    text_bytes: int
    label_bytes: int
    quotes: int


def model_errors(placed: Placed, exc: ValidationError) -> list[FileError]:
    """A model's errors of an object, placed in its document's text."""
    found = [
        error_again(
            placed.file,
            detail["type"],
            " ".join(detail["msg"].split()),
            (*placed.prefix, *detail["loc"]),
            on_key=True,
        )
        for detail in exc.errors(include_url=False)
    ]
    return placed.document.place(found)


def validated(placed: Placed, model: type[BaseModel]) -> tuple[Any, list[FileError]]:
    """The object read as ``model``, or None and its errors."""
    from pydantic import ValidationError

    try:
        return model.model_validate(placed.data), []
    except ValidationError as exc:
        return None, model_errors(placed, exc)


def read_objects(
    names: Sequence[str], limits: Limits
) -> tuple[list[Placed], list[FileError], bool]:
    """The objects of the inputs ``names`` (files, directories walked, ``-``), and their errors.

    A file found in a directory that is no JSON or YAML stream is passed
    over; one named that cannot be read is an error.  The last value says
    whether an input cannot be read at all (missing, too large).
    """
    from estconf.io.reading import documents, read_stream
    from estconf.io.sources import expand, read_given, shown_as

    found: list[Placed] = []
    errors: list[FileError] = []
    unreadable = False
    for item in expand(list(names)):
        if item.empty_directory:
            errors.append(
                error(item.path, "file", "is a directory with no .json, .yaml or .yml file")
            )
            unreadable = True
            continue
        if item.directory is not None and item.path.endswith(".toml"):
            continue
        shown = shown_as(item.path)
        try:
            raw = read_given(item.path, limits.max_size)
        except ConfigFileError as exc:
            errors.extend(exc.errors)
            unreadable = True
            continue
        try:
            read = documents(read_stream(raw, shown, None, limits))
        except ConfigFileError as exc:
            if item.directory is None:
                errors.extend(exc.errors)
            continue
        found.extend(placed_in(read, shown))
    return found, errors, unreadable


def jobset_sources(
    objects: Iterable[Placed], file: str, name: str | None = None
) -> tuple[list[Source], list[FileError], list[str]]:
    """The JobSets of ``objects``, their model errors, and what else is said of the file.

    Raises:
        InputError: a JobSet has only ``generateName`` and ``name`` gives it none.
    """
    from estconf.launchers.jobset.model import JobSet

    objects = list(objects)
    configs = configs_of(objects)
    sources: list[Source] = []
    errors: list[FileError] = []
    for placed in objects:
        if placed.kind != "JobSet":
            continue
        jobset, found = validated(placed, JobSet)
        errors.extend(found)
        if jobset is None:
            continue
        _named(jobset, placed, name)
        said = f"{file}: JobSet {jobset.name or name!r}"
        sources.append(Source(jobset if jobset.name else _renamed(jobset, name), said, configs))
    lines = []
    if not sources and not errors:
        others = sorted({placed.kind for placed in objects if placed.declared is not None})
        held = (
            f"; it holds {', '.join(others)}: estconf tf-config trainjob {file}" if others else ""
        )
        lines.append(f"{file}: holds no JobSet (jobset.x-k8s.io/v1alpha2){held}")
    return sources, errors, lines


def _named(named: JobSet | TrainJob, placed: Placed, name: str | None) -> None:
    """Refuse an object with only ``generateName`` when ``name`` gives it none."""
    generated = named.metadata.generate_name
    if not named.metadata.name and name is None:
        raise InputError(
            f"{placed.file}: the {placed.kind} has only generateName {generated!r}: the API "
            "server picks its name, and so its pods', when it is created",
            hint="give the name it got with --name NAME",
        )


def _renamed(jobset: JobSet, name: str | None) -> JobSet:
    metadata = jobset.metadata.model_copy(update={"name": name})
    return jobset.model_copy(update={"metadata": metadata})


def trainjob_sources(
    objects: Iterable[Placed], name: str | None = None, read: Sequence[str] = ()
) -> tuple[list[Source], list[FileError], list[str], list[str]]:
    """The JobSets Trainer makes of the TrainJobs of ``objects``, each on its runtime of them.

    Returns the sources, the model errors, the lines said, and the hints;
    ``read`` names the inputs, for a line that none holds a TrainJob.
    A TrainJob whose runtime is in none of ``objects`` is not predicted: a
    line says so (and :func:`predicted`'s caller exits 2).

    Raises:
        InputError: a TrainJob has only ``generateName`` and ``name`` gives it none.
    """
    from estconf.launchers.jobset.trainer import (
        RUNTIME_KINDS,
        TrainingRuntime,
        TrainJob,
        jobset_of,
        runtime_of,
    )

    objects = list(objects)
    configs = configs_of(objects)
    errors: list[FileError] = []
    runtimes = []
    trainjobs: list[tuple[TrainJob, Placed]] = []
    for placed in objects:
        if placed.kind in RUNTIME_KINDS:
            runtime, found = validated(placed, TrainingRuntime)
            errors.extend(found)
            if runtime is not None:
                runtimes.append(runtime)
        elif placed.kind == "TrainJob":
            trainjob, found = validated(placed, TrainJob)
            errors.extend(found)
            if trainjob is not None:
                _named(trainjob, placed, name)
                if not trainjob.metadata.name:
                    metadata = trainjob.metadata.model_copy(update={"name": name})
                    trainjob = trainjob.model_copy(update={"metadata": metadata})
                trainjobs.append((trainjob, placed))
    sources, lines, hints = [], [], []
    for trainjob, placed in trainjobs:
        said = f"{placed.file}: TrainJob {trainjob.metadata.name!r}"
        runtime = runtime_of(trainjob, runtimes)
        ref = trainjob.spec.runtime_ref
        if runtime is None:
            lines.append(
                f"{said}: its runtime, {ref.kind} {ref.name!r}, is in no file read: its pods "
                "are not predicted"
            )
            namespace = "" if ref.kind == "ClusterTrainingRuntime" else f" -n {trainjob.namespace}"
            hints.append(
                f"give the file of {ref.kind} {ref.name!r} too (kubectl get "
                f"{ref.kind.lower()} {ref.name}{namespace} -o yaml > runtime.yaml)"
            )
            continue
        built = jobset_of(trainjob, runtime)
        said_first = []
        if built.plugin is not None:
            said_first.append(
                f"{said}: the runtime's mlPolicy is {built.plugin}: Trainer's {built.plugin} "
                "plugin sets variables of its own, which are not predicted here"
            )
        if trainjob.spec.runtime_patches:
            said_first.append(f"{said}: its runtimePatches are not applied here")
        sources.append(Source(built.jobset, said, configs, tuple(said_first)))
    if not trainjobs and not errors:
        held = "holds" if len(read) == 1 else "hold"
        lines.append(f"{', '.join(read) or 'the input'}: {held} no TrainJob ({_TRAINJOB})")
    return sources, errors, lines, hints


def one_line(text: str, fmt: str) -> tuple[str, bool]:
    r"""The text written for a pod in ``fmt``, and whether it was put on one line.

    Every format but ``shell`` writes a TF_CONFIG on one line: one that
    spans lines is written as compact JSON when it is JSON (what its program
    reads is the same value), else with each line break as ``\n``.
    """
    if fmt == "shell" or ("\n" not in text and "\r" not in text):
        return text, False
    try:
        return json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False), True
    except ValueError:
        return text.replace("\r", "\\r").replace("\n", "\\n"), True


def predicted(
    sources: Sequence[Source],
    *,
    fmt: str = "jsonl",
    task: tuple[str, int] | None = None,
    before: Callable[[Size], object] = lambda size: None,
) -> Predicted:
    """Each pod's TF_CONFIG of the JobSets ``sources``, in pod order, and the notes.

    Args:
        sources: the JobSets.
        fmt: the format they are written in (``one_line`` of each text);
            ``pods`` lists the pods that get none too.
        task: only the pods whose TF_CONFIG has this task.
        before: given their size before they are built.

    Raises:
        InputError: the JobSets' pods that get a TF_CONFIG (with ``pods``,
            every pod) are more than :data:`MAX_PODS`, or a variable expands
            to more than :data:`~estconf.launchers.jobset.tf_configs.MOST_CHARACTERS`.
    """
    from estconf.launchers.jobset.addresses import addresses

    plans = [_plan(source) for source in sources]
    every = fmt == PODS
    if every:
        total = sum(pod_count(job) for s in sources for job in s.jobset.spec.replicated_jobs)
    else:
        total = sum(count for _, count in plans)
    if total > MAX_PODS:
        which = "pods" if every else "pods that get a TF_CONFIG"
        raise InputError(
            f"the JobSets' {which} are {total:,}, more than the "
            f"{MAX_PODS:,} estconf predicts in one run"
        )
    before(_size(sources, plans))
    outputs: list[Output] = []
    labels: list[str] = []
    lines: list[str] = []
    hints: list[str] = []
    listed_pods: list[Pod] | None = [] if every else None
    failed = False
    for source, (positions, _) in zip(sources, plans, strict=True):
        lines.extend(source.notes)
        found = list(_tf_configs(source, positions))
        listed = addresses(found, source.jobset).listed
        said = [
            *not_set(source.jobset, source.configs, listed=listed),
            *problems(found, source.jobset),
        ]
        for problem in said:
            failed = failed or problem.severity == "error"
            lines.append(f"{source.said}: {_noted(problem)}")
            if problem.hint and problem.hint not in hints:
                hints.append(problem.hint)
        cut = []
        for each in found:
            text = each.text
            if text is None or not _has_task(each, task):
                continue
            written, on_one_line = one_line(text, fmt)
            if on_one_line:
                cut.append(each.pod)
            outputs.append(((each.pod.job, each.pod.index), written))
            labels.append(each.pod.name)
        if listed_pods is not None:
            listed_pods += _every_pod(source, found, task)
        if cut:
            from estconf.launchers.jobset.tf_configs import named

            lines.append(
                f"{source.said}: the TF_CONFIG of pods {named(cut)} spans lines: written on one "
                f"line (--format shell writes it as it is)"
            )
    return Predicted(outputs, labels, Notes(lines, hints=hints), failed=failed, pods=listed_pods)


def _every_pod(
    source: Source, found: Sequence[PodTFConfig], task: tuple[str, int] | None
) -> Iterator[Pod]:
    """Every pod of a JobSet in pod order, with the TF_CONFIG text of those ``found`` get.

    ``found`` holds the pods of the replicated jobs that set a TF_CONFIG, in
    the same order; the pods of the others get none.  With ``task``, only
    the pods whose TF_CONFIG has it.
    """
    texts = {(each.pod.position, each.pod.job_index, each.pod.index): each for each in found}
    for pod in pods(source.jobset):
        each = texts.get((pod.position, pod.job_index, pod.index))
        if each is None:
            if task is None:
                yield Pod(pod.name, None)
        elif _has_task(each, task):  # a pod whose TF_CONFIG is not JSON has no task
            yield Pod(pod.name, each.text)


def _noted(problem: Problem) -> str:
    return problem.message if problem.severity == "error" else f"note: {problem.message}"


def _plan(source: Source) -> tuple[frozenset[int], int]:
    """The replicated jobs whose pods get a TF_CONFIG, and how many pods they make."""
    jobset = source.jobset
    positions = frozenset(
        position
        for position, job in enumerate(jobset.spec.replicated_jobs)
        if tf_config_container(job, jobset.namespace, source.configs)[0] is not None
    )
    count = sum(pod_count(jobset.spec.replicated_jobs[position]) for position in positions)
    return positions, count


def _tf_configs(source: Source, positions: Collection[int]) -> Iterable[PodTFConfig]:
    try:
        yield from tf_configs(source.jobset, configs=source.configs, positions=positions)
    except TooLong as exc:
        raise InputError(f"{source.said}: a variable of its pods {exc}") from None


def _size(sources: Sequence[Source], plans: Sequence[tuple[frozenset[int], int]]) -> Size:
    """The sizes of the TF_CONFIGs to write, from the first pod of each replicated job."""
    pods = text_bytes = label_bytes = quotes = 0
    for source, (positions, _) in zip(sources, plans, strict=True):
        for position in sorted(positions):
            count = pod_count(source.jobset.spec.replicated_jobs[position])
            first = next(iter(_tf_configs(source, {position})), None)
            if first is None or first.text is None:
                continue
            pods += count
            text_bytes += count * len(first.text.encode("utf-8", "surrogatepass"))
            label_bytes += count * len(first.pod.name.encode())
            quotes += count * first.text.count("'")
    return Size(pods, text_bytes, label_bytes, quotes)


def _has_task(found: PodTFConfig, task: tuple[str, int] | None) -> bool:
    if task is None:
        return True
    parsed = found.parsed
    given = parsed.get("task") if isinstance(parsed, dict) else None
    if not isinstance(given, dict):
        return False
    index = given.get("index")
    return given.get("type") == task[0] and isinstance(index, int) and index == task[1]
