"""``estconf validate``: check config files and report every error."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from estconf._arguments import UsageError
from estconf.cli._common import (
    KIND_NAMES,
    PROFILES,
    add_color,
    add_input_format,
    add_limits,
    exit_status,
    out,
    use_color,
)
from estconf.io import REPORT_FORMATS

if TYPE_CHECKING:
    from estconf.io.errors import Result

NAME = "validate"

_VALIDATE_DESCRIPTION = """\
Check config files (.json, .toml, .yaml, .yml) and report every error. A
directory stands for the config files under it (with no kind given, its files
that are not config files at all, as Helm values and templates, a Kubernetes
Service or a JSON Schema, are passed over and counted); - reads standard
input. A shell script (.sh) or env file (.env) named is read by the shell's
rules (an env file by the dotenv rules), without running it, and each
TF_CONFIG it sets is checked as a TF_CONFIG file, at its lines in the file.

The kind of each file is, first match wins: --kind; a kind given to the file's
path in [tool.estconf.kinds] of the nearest pyproject.toml; a top-level
"$schema" key naming an estconf schema; the file name (tf_config, run_config,
tpu_config or tpu_run_config in its stem, as in prod.run_config.yaml); its
keys (a RunConfig argument makes a RunConfig file, a TF_CONFIG key a TF_CONFIG
file, jobs alone a cluster, as tf-config reads one). -v shows the kind of each
file and how it was told."""

_VALIDATE_EPILOG = """\
exit status: 0 all files valid (a warning passes, but not with --strict), 1 some
file invalid, 2 usage error or a file that cannot be read (or a Helm template:
render it first).

examples:
  estconf validate run_config.yaml tf_config.json
  estconf validate -v deploy/
  estconf validate --kind tf_config env/*.json
  estconf validate --profile mwms tf_config.json
  kubectl get cm tf -o jsonpath='{.data.tf}' | estconf validate -
  estconf validate --format json config.toml | jq '.files[].errors'"""


def register(validate: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """Describe the command and add its options to its parser, ``validate``."""
    validate.description = _VALIDATE_DESCRIPTION
    validate.epilog = _VALIDATE_EPILOG
    validate.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="config files, shell scripts (.sh), env files (.env), directories, or - for stdin",
    )
    validate.add_argument(
        "--kind",
        choices=KIND_NAMES,
        metavar="KIND",
        help=f"the kind of every file: {', '.join(KIND_NAMES)}",
    )
    validate.add_argument(
        "--format",
        choices=REPORT_FORMATS,
        default="text",
        help="text: file:line:col: path: message (default); json: one JSON object; "
        "github: GitHub Actions annotations",
    )
    validate.add_argument(
        "--profile",
        choices=PROFILES,
        metavar="PROFILE",
        help="the reader TF_CONFIG files, cluster files and TFJob manifests are for: estimator "
        "(tf.estimator.RunConfig), mwms (MultiWorkerMirroredStrategy), ps "
        "(ParameterServerStrategy) or server (a TF1 program's tf.train.Server); "
        "also checks every task of the file's cluster "
        "(default: the estimator's rules, a TF_CONFIG file's own task only)",
    )
    validate.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 on a warning too (by default only errors fail; warnings and notes pass)",
    )
    add_input_format(validate)
    verbosity = validate.add_mutually_exclusive_group()
    verbosity.add_argument("-q", "--quiet", action="store_true", help="print errors only")
    verbosity.add_argument(
        "-v", "--verbose", action="store_true", help="also a line per file: its kind and profile"
    )
    add_color(validate)
    add_limits(validate)


def _write(results: list[Result], args: argparse.Namespace) -> str:
    from estconf.reports import files

    color = args.format == "text" and use_color(args.color)
    return files.write(results, args.format, quiet=args.quiet, verbose=args.verbose, color=color)


def run(args: argparse.Namespace) -> int:
    """Check every file given; 0 all valid, 1 some invalid, 2 some cannot be read."""
    from estconf.inputs.checks import check
    from estconf.io.checks import limits_of
    from estconf.io.project import ProjectError

    try:
        report = check(
            args.files,
            kind=args.kind,
            profile=args.profile,
            input_format=args.input_format,
            limits=limits_of(args),
        )
    except ProjectError as exc:
        raise UsageError(str(exc)) from None
    results = list(report.results)
    out(_write(results, args))
    return exit_status(results, strict=args.strict)
