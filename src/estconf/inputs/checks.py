"""Checking inputs as ``estconf validate`` does, without the command line.

Each input (a file, a directory walked, ``-`` for standard input) is read
once and checked by what it holds: Kubeflow TFJobs, Volcano Jobs, JobSets and
TrainJobs (each pod's ``TF_CONFIG`` as the profile's reader reads it), other
Kubernetes manifests that set ``TF_CONFIG`` (each value as a TF_CONFIG file),
a shell script or env file (``.sh``, ``.env``: each ``TF_CONFIG`` it sets, as
a TF_CONFIG file), or a config file of its kind.
A file whose kind or profile is not given gets those the ``[tool.estconf]``
table of the nearest ``pyproject.toml`` sets for its path.  A TrainJob is
checked with its runtime from any file of the run.

    >>> import estconf, pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "tf_config.json").write_text(
    ...     '{"cluster": {"chief": ["c:2222"], "worker": ["w:2222"]}, '
    ...     '"task": {"type": "worker", "index": 9}}'
    ... )
    >>> report = estconf.check(folder)
    >>> report.valid
    False
    >>> [(found.code, found.path, found.line) for found in report.findings]
    [('task_index_out_of_range', 'task.index', 1)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, replace
from os import PathLike
from typing import TYPE_CHECKING, Final

from estconf.io.checks import Limits
from estconf.io.errors import UNREADABLE_CODES as UNREADABLE

if TYPE_CHECKING:
    from estconf.finding import Finding
    from estconf.io.errors import FileError, Result
    from estconf.io.project import Project
    from estconf.io.sources import Input
    from estconf.launchers.jobset.documents import Placed

__all__ = ["UNREADABLE", "Report", "check", "check_input"]


@dataclass(frozen=True)
class Report:
    """What checking inputs found: a result for each file, in the order they were given.

    A directory given yields a result for each config file under it; one whose
    files were all passed over, or that holds none, a result of its own.
    """

    results: tuple[Result, ...]

    @property
    def valid(self) -> bool:
        """Whether every file checked is valid."""
        return all(result.valid for result in self.results)

    @property
    def findings(self) -> list[Finding]:
        """Every finding of every file, in the order of the files, each at its line and column."""
        return [found for result in self.results for found in result.errors]

    @property
    def unreadable(self) -> bool:
        """Whether some input cannot be read at all (:data:`UNREADABLE`)."""
        return any(e.code in UNREADABLE for result in self.results for e in result.errors)


def check(
    source: str | PathLike[str] | Sequence[str | PathLike[str]],
    *,
    kind: str | None = None,
    profile: str | None = None,
    input_format: str | None = None,
    limits: Limits | None = None,
) -> Report:
    """Check config files, manifests and TFJobs as ``estconf validate`` checks them.

    Args:
        source: a file, a directory (its config files, those of other tools
            passed over), ``-`` for standard input, or a list of them.
        kind: the kind of every file (see :data:`estconf.files.KINDS`); by
            default each file's kind is told as ``validate`` tells it.
        profile: the reader ``TF_CONFIG`` files and TFJobs are for
            (``estimator``, ``mwms``, ``ps``, ``server``); by default the
            estimator's rules, for the file's task alone.
        input_format: the format of standard input (default ``json``), and of
            a file whose name tells none.
        limits: the limits of reading (the defaults if None).

    Returns:
        A :class:`Report`: a result for each file, with its errors.

    Raises:
        estconf.io.project.ProjectError: the settings of the nearest
            ``pyproject.toml`` cannot be read.
    """
    from estconf.io.project import find
    from estconf.io.sources import expand

    given = [source] if isinstance(source, (str, PathLike)) else list(source)
    project = find()
    items = expand([str(path) for path in given])
    settings = _Settings(kind, profile, input_format, limits or Limits(), project)
    results = [_check(item, settings) for item in items]
    results = _with_runtimes_of_other_files(items, results, settings)
    results += _with_nothing_to_check(items, results)
    return Report(tuple(results))


@dataclass(frozen=True)
class _Settings:
    """What applies to every file of one run."""

    kind: str | None
    profile: str | None
    input_format: str | None
    limits: Limits
    project: Project | None


_OTHER_TOOLS_DOCUMENTS: Final = ("kubernetes_manifest", "json_schema", "helm_template")
"""The codes of a document that is another tool's whatever its name: the message says what."""

_UNNAMED_FILES: Final = {
    "kind": 'no kind estconf reads in its name, its "$schema" or its top-level keys',
    "empty": "empty, and its name tells no kind",
    "not_an_object": "not an object (a mapping) at its top level, and its name tells no kind",
    "documents": "more than one YAML document, and its name tells no kind",
}
"""The codes of a file that is no config file unless its name says it is one, each with
why it is passed over when it does not."""


def _passed_over(item: Input, kind: str | None, result: Result) -> str | None:
    """Why a file found in a directory, of no kind given, is another tool's; else None."""
    from estconf.io import kinds

    if item.directory is None or kind is not None or len(result.errors) != 1:
        return None
    error = result.errors[0]
    if error.code in _OTHER_TOOLS_DOCUMENTS:
        return error.message
    if kinds.from_name(item.path) is None:
        return _UNNAMED_FILES.get(error.code)
    return None


def _with_runtimes_of_other_files(
    items: list[Input], results: list[Result], settings: _Settings
) -> list[Result]:
    """``results``, a file whose TrainJob's runtime is in another file checked again with it.

    Only a file with a ``runtime_not_given`` note is read again, with the
    runtimes of the other files named.  Standard input is read once: a
    TrainJob or a runtime given there is checked with what it holds only.
    What is wrong in a runtime's pods is reported in the runtime's file.
    """
    from estconf.io.sources import STDIN
    from estconf.launchers.jobset.jobsets import NOT_GIVEN, runtimes_in

    pending = [
        at
        for at, result in enumerate(results)
        if items[at].path != STDIN and any(found.code == NOT_GIVEN for found in result.errors)
    ]
    if not pending:
        return results
    files = [item.path for item in items if item.path != STDIN]
    runtimes = runtimes_in(files, settings.limits)
    checked = list(results)
    moved: dict[str, list[FileError]] = {}
    for at in pending:
        others = [placed for placed in runtimes if placed.file != results[at].file]
        if not others:
            continue
        result = _check(items[at], settings, others)
        for found in result.errors:
            if found.file != result.file:
                moved.setdefault(found.file, []).append(found)
        checked[at] = replace(result, errors=[e for e in result.errors if e.file == result.file])
    return [
        replace(result, errors=[*result.errors, *moved[result.file]])
        if result.file in moved
        else result
        for result in checked
    ]


def _check(item: Input, settings: _Settings, runtimes: Sequence[Placed] = ()) -> Result:
    """Check one file; a file of a directory that is another tool's is passed over.

    A file named on the command line is always checked: its kind must be told,
    or it is refused.  Walking a directory finds every ``.yaml`` of it, Helm
    values and Kubernetes Services alike, and those are no error.
    """
    kind, given_as = settings.kind, "--kind"
    profile = settings.profile
    if settings.project is not None:
        if kind is None:
            kind, given_as = settings.project.kind_of(item.path), settings.project.file.name
        if profile is None:
            profile = settings.project.profile_of(item.path)
    result = check_input(
        item,
        kind=kind,
        given_as=given_as,
        profile=profile,
        input_format=settings.input_format,
        limits=settings.limits,
        runtimes=runtimes,
    )
    reason = _passed_over(item, kind, result)
    return result if reason is None else replace(result, errors=[], skipped=reason)


def check_input(
    item: Input,
    *,
    kind: str | None = None,
    given_as: str = "--kind",
    profile: str | None = None,
    input_format: str | None = None,
    limits: Limits | None = None,
    runtimes: Sequence[Placed] = (),
) -> Result:
    """Check one input by what it holds: TFJobs, manifests that set TF_CONFIG, or a config file.

    Args:
        item: the input (:func:`estconf.io.sources.expand` makes them).
        kind: the file's kind, if told; else told from the file.
        given_as: how the kind was given, for the report (``--kind``, ``pyproject.toml``).
        profile: the reader ``TF_CONFIG`` files and TFJobs are for.
        input_format: the format of standard input, and of a file whose name tells none.
        limits: the limits of reading (the defaults if None).
        runtimes: the Trainer runtimes of other files, for a TrainJob whose
            runtime is not in this one.
    """
    from estconf.inputs import manifests, shell_files
    from estconf.io import kinds
    from estconf.io.errors import ConfigFileError, Result, error
    from estconf.io.files import load_file
    from estconf.io.sources import (
        STDIN,
        STDIN_NAME,
        format_for,
        manifest_bytes,
        read_file,
        read_stdin,
    )

    limits = limits or Limits()
    if item.empty_directory:
        message = "is a directory with no .json, .toml, .yaml or .yml file"
        return Result(item.path, None, [error(item.path, "file", message)])
    content: bytes | None = None
    name = item.path
    shell_format = None if item.path == STDIN else shell_files.format_of(item.path)
    if shell_format is not None:  # a shell script or env file: the TF_CONFIGs it sets
        try:
            raw = read_file(item.path, limits.max_size)
        except ConfigFileError as exc:
            return Result(item.path, None, exc.errors)
        return shell_files.check_file(raw, shell_format, name, profile, limits)
    if item.path == STDIN:
        name = STDIN_NAME
        try:
            data = read_stdin(limits.max_size)
        except ConfigFileError as exc:
            return Result(STDIN_NAME, "tf_config", exc.errors)
        content = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    try:
        fmt = format_for(item.path, input_format)
        found = manifest_bytes(name, content, fmt, limits.max_size)
        if found is not None:
            raw, manifest_format = found
            # Kubeflow TFJobs, Volcano Jobs, then JobSets and TrainJobs (each pod read as
            # the profile's reader does), then other Kubernetes manifests that set
            # TF_CONFIG (each read as a file is)
            from estconf.launchers.kubeflow import tfjobs

            reader = profile or "estimator"
            checked = tfjobs.check_text(raw, manifest_format, name, reader, limits)
            # the other launchers are imported only for a file whose bytes may hold theirs
            if checked is None and kinds.may_hold_volcano_job(raw):
                from estconf.launchers.volcano import jobs as volcano_jobs

                checked = volcano_jobs.check_text(raw, manifest_format, name, reader, limits)
            if checked is None and kinds.may_hold_launcher_manifest(raw):
                from estconf.launchers.jobset import jobsets

                checked = jobsets.check_text(raw, manifest_format, name, reader, limits, runtimes)
            if checked is None:
                checked = manifests.check_text(raw, manifest_format, name, profile, limits)
            if checked is not None:
                return checked
            content, fmt = raw, manifest_format  # a config file after all: not read again
        loaded = load_file(
            name,
            kind,
            format=fmt,
            content=content,
            given_as=given_as,
            profile=profile,
            **dataclasses.asdict(limits),
        )
    except ConfigFileError as exc:
        return Result(exc.file, exc.kind, exc.errors, exc.kind_from, profile)
    warnings = list(loaded.findings)  # and notes: what a valid file has besides
    return Result(name, loaded.kind, warnings, kind_from=loaded.kind_from, profile=profile)


def _with_nothing_to_check(items: list[Input], results: list[Result]) -> list[Result]:
    """A usage error for each directory given whose files were all passed over."""
    from estconf.io.errors import Result, error

    passed_over: dict[str, bool] = {}
    for item, result in zip(items, results, strict=True):
        if item.directory is not None:
            passed_over[item.directory] = passed_over.get(item.directory, True) and bool(
                result.skipped
            )
    message = "is a directory with no config file estconf reads (-v names the files passed over)"
    return [
        Result(directory, None, [error(directory, "file", message)])
        for directory, every_file in passed_over.items()
        if every_file
    ]
