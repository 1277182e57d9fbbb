"""JobSets and TrainJobs, checked as ``estconf validate`` checks them.

A file whose documents (or items of a ``List``) include a JobSet, a
TrainJob or a Trainer runtime is read as such: each pod's TF_CONFIG is
predicted (:mod:`estconf.launchers.jobset.tf_configs`; a TrainJob's on its
runtime of the same file) and checked as a TF_CONFIG by the reader
``--profile`` names, and what is wrong is reported at the ``env`` value that
causes it, naming the pods: a ``$(NAME)`` Kubernetes leaves as written
(``env_reference_not_expanded``), a TF_CONFIG that is no JSON, what the
reader refuses.  Then the addresses of their clusters are read as names
of the JobSet's pods (:mod:`~estconf.launchers.jobset.addresses`), the
pods a cluster lists that get no TF_CONFIG are found, and the pods are
checked together (:mod:`~estconf.launchers.jobset.together`), with what
keeps the JobSet from being created or from completing
(:mod:`~estconf.launchers.jobset.policies`).  A TrainJob is checked on its
runtime of the same file, or of another file checked in the same run
(:func:`runtimes_in` reads them); one whose runtime is in neither is a note
(``runtime_not_given``), and its pods are not checked.  A runtime is checked
by the rules of Trainer's runtime webhook, in its own file.

A JobSet of more than :data:`~estconf.launchers.jobset.predictions.MAX_PODS`
pods is checked at the ends of each replicated job: the first and last
pods of its first and last Jobs.  One with only ``generateName`` is checked
under the name the API server gives it, its five random characters written
``xxxxx``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar

from estconf._container_env import TooLong
from estconf._path import format_path
from estconf.io import kinds
from estconf.io.errors import ConfigFileError, FileError, error, error_again
from estconf.launchers.jobset.documents import Placed, configs_of, placed_in
from estconf.launchers.jobset.pods import RANDOM_SUFFIX, Configs, pod_count
from estconf.launchers.jobset.problems import Problem, problems
from estconf.launchers.jobset.tf_configs import PodTFConfig, pods_named, tf_configs

if TYPE_CHECKING:
    from estconf.io._positions import Loc
    from estconf.io.checks import Limits
    from estconf.io.errors import Result
    from estconf.launchers.jobset.model import JobSet
    from estconf.launchers.jobset.pods import Pod
    from estconf.launchers.jobset.trainer import TrainingRuntime, TrainJob

__all__ = ["KIND", "NOT_GIVEN", "check_text", "runtimes_in"]

KIND: Final = "jobset"
"""The kind ``validate`` reports for a file of JobSets, TrainJobs and Trainer runtimes."""

NOT_GIVEN: Final = "runtime_not_given"
"""The code of the note on a TrainJob whose runtime is in no file checked."""

_TEMPLATE: Final = ("template", "spec", "template", "spec", "containers")
"""From a replicated job to its pod template's containers."""


@dataclass(frozen=True)
class _Checked:
    """A JobSet to check, and where each of its ``env`` entries is written."""

    jobset: JobSet
    placed: Placed
    """The object whose replicated jobs the JobSet's are (a JobSet, or a TrainJob's runtime)."""
    replicated_jobs: Loc
    """The path of those replicated jobs in it."""
    configs: Configs
    trainjob: Placed | None = None
    from_trainjob: Mapping[tuple[int, int, int], int] | None = None


def check_text(
    raw: bytes,
    fmt: str,
    name: str,
    profile: str,
    limits: Limits,
    runtimes: Sequence[Placed] = (),
) -> Result | None:
    """Check the JobSets and TrainJobs of a file's bytes; None when it holds none.

    Args:
        raw: the bytes read.
        fmt: ``json`` or ``yaml``.
        name: the file's name in errors (``<stdin>``).
        profile: the reader of each pod's ``TF_CONFIG``.
        limits: the limits of reading.
        runtimes: the Trainer runtimes of other files (:func:`runtimes_in`),
            for a TrainJob whose runtime is not in this one.  What is wrong
            with their pods is reported where it is written, in their file.
    """
    from estconf.io.errors import Result
    from estconf.io.reading import documents, read_stream

    if fmt not in kinds.MANIFEST_FORMATS or not kinds.may_hold_launcher_manifest(raw):
        return None
    try:
        read = documents(read_stream(raw, name, fmt, limits))
    except ConfigFileError as exc:
        return Result(name, KIND, exc.errors)
    objects = placed_in(read, name)
    if not any(placed.declared is not None for placed in objects):
        return None
    checked, errors = _to_check(objects, runtimes)
    names = [each.jobset.name or "" for each in checked]
    for each in checked:
        others = tuple(name for name in names if name != each.jobset.name)
        errors.extend(_check(each, profile, others))
    return Result(name, KIND, errors, profile=profile)


def runtimes_in(names: Sequence[str], limits: Limits) -> list[Placed]:
    """The Trainer runtimes of the files ``names``; a file that cannot be read gives none.

    Its errors are reported when the file itself is checked.
    """
    from estconf.launchers.jobset.predictions import read_objects
    from estconf.launchers.jobset.trainer import RUNTIME_KINDS

    objects, _, _ = read_objects(names, limits)
    return [placed for placed in objects if placed.kind in RUNTIME_KINDS]


def _to_check(
    objects: list[Placed], elsewhere: Sequence[Placed] = ()
) -> tuple[list[_Checked], list[FileError]]:
    """The JobSets of ``objects`` and those Trainer makes of their TrainJobs, and model errors.

    A TrainJob's runtime is looked for in ``objects``, then in ``elsewhere``.
    """
    from estconf.launchers.jobset.model import JobSet
    from estconf.launchers.jobset.predictions import validated
    from estconf.launchers.jobset.trainer import (
        RUNTIME_KINDS,
        TrainingRuntime,
        TrainJob,
        jobset_of,
        runtime_of,
    )

    configs = configs_of(objects)
    checked: list[_Checked] = []
    errors: list[FileError] = []
    runtimes: list[tuple[TrainingRuntime, Placed]] = []
    trainjobs: list[tuple[TrainJob, Placed]] = []
    for placed in objects:
        if placed.kind == "JobSet":
            jobset, found = validated(placed, JobSet)
            if jobset is not None:
                jobset = _named(jobset)
                checked.append(_Checked(jobset, placed, ("spec", "replicatedJobs"), configs))
        elif placed.kind in RUNTIME_KINDS:
            runtime, found = validated(placed, TrainingRuntime)
            if runtime is not None:
                runtimes.append((runtime, placed))
                found = [*found, *_runtime_rules(runtime, placed)]
        elif placed.kind == "TrainJob":
            trainjob, found = validated(placed, TrainJob)
            if trainjob is not None:
                trainjobs.append((_named(trainjob), placed))
        else:
            found = []
        errors.extend(found)
    if trainjobs:
        for placed in elsewhere:
            runtime, _ = validated(placed, TrainingRuntime)  # its errors are its file's
            if runtime is not None:
                runtimes.append((runtime, placed))
    for trainjob, placed in trainjobs:
        runtime = runtime_of(trainjob, [runtime for runtime, _ in runtimes])
        if runtime is None:
            errors.append(_not_given(trainjob, placed))
            continue
        built = jobset_of(trainjob, runtime)
        where = next(at for given, at in runtimes if given is runtime)
        path = ("spec", "template", "spec", "replicatedJobs")
        checked.append(_Checked(built.jobset, where, path, configs, placed, built.from_trainjob))
    return checked, errors


def _runtime_rules(runtime: TrainingRuntime, placed: Placed) -> list[FileError]:
    """What Trainer's runtime webhook refuses in a runtime, at the fields that cause it."""
    from estconf.launchers.jobset.policies import runtime_rules

    at = (*placed.prefix, "spec", "template", "spec")
    found = [
        _error(placed.file, problem, (*at, *(problem.at or ())))
        for problem in runtime_rules(runtime.spec.template.spec)
    ]
    return placed.document.place(found)


def _error(file: str, problem: Problem, loc: Loc) -> FileError:
    """The finding of ``problem`` in ``file``, at ``loc``."""
    return error_again(
        file,
        problem.code or "",
        problem.message,
        loc,
        hint=problem.hint,
        severity=problem.severity,
        refused=problem.refused,
    )


_Named = TypeVar("_Named", "JobSet", "TrainJob")


def _named(found: _Named) -> _Named:
    """``found``, named ``<generateName>xxxxx`` if it has only ``generateName``.

    The API server names it when it is created, adding five random
    characters; its pods are checked with that name.
    """
    if found.metadata.name:
        return found
    name = f"{found.metadata.generate_name or ''}{RANDOM_SUFFIX}"
    return found.model_copy(update={"metadata": found.metadata.model_copy(update={"name": name})})


def _not_given(trainjob: TrainJob, placed: Placed) -> FileError:
    ref = trainjob.spec.runtime_ref
    found = error(
        placed.file,
        "runtime_not_given",  # NOT_GIVEN
        f"the TrainJob's runtime, {ref.kind} {ref.name!r}, is in no file checked: its pods' "
        "TF_CONFIGs are not checked",
        (*placed.prefix, "spec", "runtimeRef"),
        on_key=True,
        severity="note",
        hint=f"check it with its runtime: estconf validate {placed.file} RUNTIME_FILE",
    )
    return placed.document.place([found])[0]


def _check(checked: _Checked, profile: str, others: tuple[str, ...] = ()) -> list[FileError]:
    """What is wrong with the pods of one JobSet and their TF_CONFIGs, where it is caused."""
    from estconf.launchers.jobset.addresses import addresses
    from estconf.launchers.jobset.policies import never_succeeds, pod_names
    from estconf.launchers.jobset.together import missing, together

    try:
        found, sampled = _pods(checked)
    except TooLong as exc:
        at = (*checked.placed.prefix, *checked.replicated_jobs)
        message = f"a variable of its pods {exc}: no program is given one that long"
        return checked.placed.document.place([error(checked.placed.file, "size", message, at)])
    by_document: dict[int, tuple[Placed, list[FileError]]] = {}

    def add(problem: Problem) -> None:
        if problem.at is not None:
            holder = checked.placed
            loc = (*holder.prefix, *checked.replicated_jobs[:-1], *problem.at)
        else:
            key = (problem.replicated_job, problem.container, problem.entry)
            holder, loc = _where(checked, *key)
        errors = by_document.setdefault(id(holder.document), (holder, []))[1]
        errors.append(_error(holder.file, problem, loc))

    jobset = checked.jobset
    said = [each for each in problems(found, jobset) if each.code and each.severity == "error"]
    refused = _refused(found, profile)
    compared = not (sampled or said or refused)
    for (key, code, path, message), (hint, pods) in refused.items():
        inside = f"{path}: " if path else ""
        text = f"TF_CONFIG of {pods_named(pods)}: {inside}{message}"
        said.append(Problem(code, text, tuple(pods), *key, hint))
    read = addresses(found, jobset, others)
    said.extend(read.problems)
    said.extend(missing(found, jobset, read))
    said.extend(never_succeeds(found, jobset))
    said.extend(pod_names(jobset))
    given = [each for each in found if each.text is not None]
    if compared and all(each.known and isinstance(each.parsed, dict) for each in given):
        without = {each.pod.position for each in found if each.text is None}
        said.extend(together(given, jobset, read, without))
    for problem in said:
        add(problem)
    return [
        each for holder, errors in by_document.values() for each in holder.document.place(errors)
    ]


def _pods(checked: _Checked) -> tuple[list[PodTFConfig], bool]:
    """Each pod's TF_CONFIG; past MAX_PODS pods, those at the ends of each replicated job.

    Also whether only those are given.
    """
    from estconf.launchers.jobset.predictions import MAX_PODS

    jobset = checked.jobset
    total = sum(pod_count(job) for job in jobset.spec.replicated_jobs)
    ends = total > MAX_PODS
    return list(tf_configs(jobset, configs=checked.configs, ends=ends)), ends


def _where(
    checked: _Checked, position: int, container: int | None, entry: int | None
) -> tuple[Placed, Loc]:
    """The object and path of the ``env`` entry ``entry`` of a container of a replicated job."""
    if checked.trainjob is not None and container is not None and entry is not None:
        given = (checked.from_trainjob or {}).get((position, container, entry))
        if given is not None:
            return checked.trainjob, (
                *checked.trainjob.prefix,
                "spec",
                "trainer",
                "env",
                given,
                "value",
            )
    base = (*checked.placed.prefix, *checked.replicated_jobs, position)
    if container is None:
        return checked.placed, base
    at = (*base, *_TEMPLATE, container)
    return checked.placed, (*at, "envFrom") if entry is None else (*at, "env", entry, "value")


_Key = tuple[int, int | None, int | None]
"""A TF_CONFIG entry: its replicated job, container and ``env`` entry."""


def _refused(
    found: Iterable[PodTFConfig], profile: str
) -> dict[tuple[_Key, str, str, str], tuple[str | None, list[Pod]]]:
    """What the reader ``profile`` names refuses in each pod's TF_CONFIG, by entry and rule.

    Only a TF_CONFIG that is JSON, holds no ``$(NAME)`` left as written and
    no value known only once its pod runs is read; pods with one text are
    read once.
    """
    from pydantic import ValidationError

    from estconf.profiles.registry import entry_named

    read = entry_named(profile).read
    said: dict[str, list[tuple[str, str, str, str | None]]] = {}
    groups: dict[tuple[_Key, str, str, str], tuple[str | None, list[Pod]]] = {}
    for each in found:
        text = each.text
        if text is None or not each.known or not each.is_json:
            continue
        refusals = said.get(text)
        if refusals is None:
            parsed = each.parsed
            refusals = said[text] = []
            if not isinstance(parsed, dict):
                refusals.append(("not_an_object", "", "not a JSON object", None))
            else:
                try:
                    read(parsed)
                except ValidationError as exc:
                    refusals.extend(_refusal(detail) for detail in exc.errors(include_url=False))
        key = (each.pod.position, each.container, each.entry)
        for code, path, message, hint in refusals:
            groups.setdefault((key, code, path, message), (hint, []))[1].append(each.pod)
    return groups


def _refusal(detail: Mapping[str, Any]) -> tuple[str, str, str, str | None]:
    """A reader's error as its code, its path in TF_CONFIG, its message and its fix."""
    from estconf.finding import hint_of

    loc = tuple(detail["loc"])
    loc = loc[1:] if loc[:1] == ("tf_config",) else loc
    message, _, fix = str(detail["msg"]).partition(" Fix: ")
    return str(detail["type"]), format_path(loc), message, hint_of(detail) or fix or None
