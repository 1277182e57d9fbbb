"""``estconf validate``: check config files and report every error."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from estconf.cli._common import (
    FORMATTER,
    KIND_NAMES,
    PROFILES,
    Invalid,
    Limits,
    UsageError,
    add_color,
    add_input_format,
    add_limits,
    exit_status,
    limit_args,
    manifest_bytes,
    out,
    read_input,
    reading_limits,
    use_color,
)

if TYPE_CHECKING:
    from estconf.inputs.sources import Input
    from estconf.io.project import Project
    from estconf.io.report import Result

NAME = "validate"

_VALIDATE_DESCRIPTION = """\
Check config files (.json, .toml, .yaml, .yml) and report every error. A
directory stands for the config files under it (with no kind given, its files
that are not config files at all, as Helm values and templates, a Kubernetes
Service or a JSON Schema, are passed over and counted); - reads standard
input.

The kind of each file is, first match wins: --kind; a kind given to the file's
path in [tool.estconf.kinds] of the nearest pyproject.toml; a top-level
"$schema" key naming an estconf schema; the file name (tf_config, run_config,
tpu_config or tpu_run_config in its stem, as in prod.run_config.yaml); its
keys (a RunConfig argument makes a RunConfig file, a TF_CONFIG key a TF_CONFIG
file). -v shows the kind of each file and how it was told."""

_VALIDATE_EPILOG = """\
exit status: 0 all files valid, 1 some file invalid, 2 usage error or a file
that cannot be read (or a Helm template: render it first).

examples:
  estconf validate run_config.yaml tf_config.json
  estconf validate -v deploy/
  estconf validate --kind tf_config env/*.json
  estconf validate --profile mwms tf_config.json
  kubectl get cm tf -o jsonpath='{.data.tf}' | estconf validate -
  estconf validate --format json config.toml | jq '.files[].errors'"""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command and its options to ``commands``."""
    validate = commands.add_parser(
        NAME,
        help="check config files",
        description=_VALIDATE_DESCRIPTION,
        epilog=_VALIDATE_EPILOG,
        formatter_class=FORMATTER,
    )
    validate.add_argument(
        "files", nargs="+", metavar="FILE", help="config files, directories, or - for stdin"
    )
    validate.add_argument(
        "--kind",
        choices=KIND_NAMES,
        metavar="KIND",
        help=f"the kind of every file: {', '.join(KIND_NAMES)}",
    )
    validate.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default="text",
        help="text: file:line:col: path: message (default); json: one JSON object; "
        "github: GitHub Actions annotations",
    )
    validate.add_argument(
        "--profile",
        choices=PROFILES,
        metavar="PROFILE",
        help="the reader TF_CONFIG files and TFJob manifests are for: estimator "
        "(tf.estimator.RunConfig), mwms (MultiWorkerMirroredStrategy), ps "
        "(ParameterServerStrategy) or server (a TF1 program's tf.train.Server); "
        "also checks every task of the file's cluster "
        "(default: the estimator's rules, this task only)",
    )
    add_input_format(validate)
    verbosity = validate.add_mutually_exclusive_group()
    verbosity.add_argument("-q", "--quiet", action="store_true", help="print errors only")
    verbosity.add_argument(
        "-v", "--verbose", action="store_true", help="also a line per file: its kind and profile"
    )
    add_color(validate)
    add_limits(validate)


@dataclass(frozen=True)
class _Settings:
    """What applies to every file of one run."""

    kind: str | None
    profile: str | None
    input_format: str | None
    limits: Limits
    project: Project | None


def _settings(args: argparse.Namespace) -> _Settings:
    from estconf.io.project import ProjectError, find

    try:
        project = find()
    except ProjectError as exc:
        raise UsageError(str(exc)) from None
    return _Settings(args.kind, args.profile, args.input_format, limit_args(args), project)


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


def _check(item: Input, settings: _Settings) -> Result:
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
    result = _checked(item, settings, kind, given_as, profile)
    reason = _passed_over(item, kind, result)
    return result if reason is None else replace(result, errors=[], skipped=reason)


def _checked(
    item: Input, settings: _Settings, kind: str | None, given_as: str, profile: str | None
) -> Result:
    from estconf.inputs import manifests as set_in_manifests
    from estconf.inputs import tfjobs
    from estconf.inputs.sources import format_for
    from estconf.io.errors import ConfigFileError, error
    from estconf.io.files import load_file
    from estconf.io.report import Result

    if item.empty_directory:
        message = "is a directory with no .json, .toml, .yaml or .yml file"
        return Result(item.path, None, [error(item.path, "file", message)])
    try:
        content, name = read_input(item.path, settings.input_format, settings.limits)
        fmt = format_for(item.path, settings.input_format)
        manifests = manifest_bytes(name, content, fmt, settings.limits)
        if manifests is not None:
            raw, manifest_format = manifests
            limits = reading_limits(settings.limits)
            # Kubeflow TFJobs (each pod read as the profile's reader does), then
            # other Kubernetes manifests that set TF_CONFIG (each read as a file is)
            checked = tfjobs.check_text(raw, manifest_format, name, profile or "estimator", limits)
            if checked is None:
                checked = set_in_manifests.check_text(raw, manifest_format, name, profile, limits)
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
            **settings.limits,
        )
    except ConfigFileError as exc:
        return Result(exc.file, exc.kind, exc.errors, exc.kind_from, profile)
    except Invalid as exc:
        return exc.results[0]
    return Result(name, loaded.kind, kind_from=loaded.kind_from, profile=profile)


def _write(results: list[Result], args: argparse.Namespace) -> str:
    from estconf.io import report

    if args.format == "json":
        return report.write_json(results)
    if args.format == "github":
        return report.write_github(results)
    color = use_color(args.color)
    return report.write_text(results, quiet=args.quiet, verbose=args.verbose, color=color)


def run(args: argparse.Namespace) -> int:
    """Check every file given; 0 all valid, 1 some invalid, 2 some cannot be read."""
    from estconf.inputs.sources import expand

    settings = _settings(args)
    items = expand(args.files)
    results = [_check(item, settings) for item in items]
    results += _with_nothing_to_check(items, results)
    out(_write(results, args))
    return exit_status(results)


def _with_nothing_to_check(items: list[Input], results: list[Result]) -> list[Result]:
    """A usage error for each directory given whose files were all passed over."""
    from estconf.io.errors import error
    from estconf.io.report import Result

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
