"""``estconf validate``: check config files and report every error."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from estconf.cli._common import (
    EXIT_INVALID,
    EXIT_OK,
    FORMATTER,
    KIND_NAMES,
    Limits,
    add_limits,
    limit_args,
    out,
)
from estconf.io import kinds

if TYPE_CHECKING:
    from estconf.io.report import Result

NAME = "validate"

PROFILES = ("estimator", "mwms", "ps")

_VALIDATE_EPILOG = """\
The kind of each file is told from its top-level keys unless --kind says it:
a 'tf_config' key or a RunConfig argument (save_checkpoints_steps, ...) makes
a RunConfig file; TF_CONFIG keys (cluster, task, ...) make a TF_CONFIG file.

exit status: 0 all files valid, 1 some file invalid, 2 usage error.

examples:
  estconf validate run_config.yaml tf_config.json
  estconf validate --kind tf_config env/*.json
  estconf validate --profile mwms tf_config.json
  estconf validate --format json config.toml | jq '.files[].errors'"""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command and its options to ``commands``."""
    validate = commands.add_parser(
        NAME,
        help="check config files",
        description="Check config files (.json, .toml, .yaml, .yml) and report every error.",
        epilog=_VALIDATE_EPILOG,
        formatter_class=FORMATTER,
    )
    validate.add_argument("files", nargs="+", metavar="FILE", help="config files to check")
    validate.add_argument("--kind", choices=KIND_NAMES, help="the kind of every file")
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
        help="the reader TF_CONFIG files are for: estimator (tf.estimator.RunConfig), mwms "
        "(MultiWorkerMirroredStrategy) or ps (ParameterServerStrategy); also checks every "
        "task of the file's cluster (default: the estimator's rules, this task only)",
    )
    add_limits(validate)


def _tf_config_kind(profile: str) -> kinds.Kind:
    """The TF_CONFIG kind, checked under ``profile`` instead of the estimator's rules."""
    import dataclasses
    import functools

    from estconf.profiles import check_profile

    check = functools.partial(check_profile, profile=profile)
    return dataclasses.replace(kinds.get("tf_config"), checks=(check,))


def _check(path: str, kind: str | None, profile: str | None, limits: Limits) -> Result:
    from estconf import files
    from estconf.cli import _tfjob
    from estconf.io.report import Result

    manifests = _tfjob.check_file(path, profile or "estimator", **limits)
    if manifests is not None:  # Kubeflow TFJob manifests, not a config file
        return manifests
    chosen: str | kinds.Kind | None = kind
    if profile is not None and kind in (None, "tf_config"):
        if kind is None:
            try:
                data = files.read_data(path, **limits)
            except files.ConfigFileError as exc:
                return Result(path, exc.kind, exc.errors)
            detected = kinds.detect(data) if isinstance(data, dict) else None
            is_tf_config = detected is not None and detected.name == "tf_config"
        else:
            is_tf_config = True
        if is_tf_config:
            chosen = _tf_config_kind(profile)
    try:
        model = files.load(path, chosen, **limits)
    except files.ConfigFileError as exc:
        return Result(path, exc.kind, exc.errors)
    found = kinds.of_model(type(model))
    return Result(path, None if found is None else found.name)


def run(args: argparse.Namespace) -> int:
    """Check every file given; 0 when all are valid, 1 otherwise."""
    from estconf.io import report

    limits = limit_args(args)
    results = [_check(path, args.kind, args.profile, limits) for path in args.files]
    writer = {
        "text": report.write_text,
        "json": report.write_json,
        "github": report.write_github,
    }[args.format]
    out(writer(results))
    return EXIT_OK if all(r.valid for r in results) else EXIT_INVALID
