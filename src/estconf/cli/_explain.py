"""``estconf explain``: show what TensorFlow derives from a TF_CONFIG."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from estconf._arguments import UsageError, task_argument
from estconf.cli._common import (
    EXIT_INVALID,
    EXIT_OK,
    PROFILES,
    Invalid,
    add_input_format,
    add_limits,
    exit_status,
    out,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


NAME = "explain"

_EXPLAIN_EPILOG = """\
TF_CONFIG comes from --tf-config, else from the 'tf_config' key of the
--config file, else from the TF_CONFIG environment variable.

A Kubeflow TFJob manifest as --tf-config: --pod NAME or --task TYPE:INDEX
chooses the pod whose TF_CONFIG, as the training operator writes it, is
explained.

--profile names the reader: estimator (tf.estimator.RunConfig, the default),
mwms (MultiWorkerMirroredStrategy), ps (ParameterServerStrategy) or server (a
TF1 program's tf.train.Server); --readers shows what each of them makes of the
TF_CONFIG, side by side (exit 0 when one of them accepts it).  --why gives the
rule behind each derived value.

examples:
  estconf explain --tf-config tf_config.json
  estconf explain --tf-config tf_config.json --why
  estconf explain --tf-config tf_config.json --readers
  estconf explain --tf-config tf_config.json --profile mwms
  echo "$TF_CONFIG" | estconf explain --tf-config -
  estconf explain --tf-config tfjob.yaml --pod mnist-worker-1
  estconf explain --config run_config.yaml --format json"""


def register(explain: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """Describe the command and add its options to its parser, ``explain``."""
    explain.description = (
        "Show the task, master, chief, replicas, global id, device filters and "
        "model_dir that tf.estimator.RunConfig derives from a TF_CONFIG and its arguments."
    )
    explain.epilog = _EXPLAIN_EPILOG
    explain.add_argument(
        "--tf-config",
        metavar="FILE",
        help="a TF_CONFIG file, or - to read it from stdin (see --input-format)",
    )
    add_input_format(explain)
    pod = explain.add_mutually_exclusive_group()
    pod.add_argument(
        "--pod",
        metavar="NAME",
        help="with a TFJob manifest as --tf-config: the pod whose TF_CONFIG, as the training "
        "operator writes it, to explain (mnist-worker-1)",
    )
    pod.add_argument(
        "--task",
        type=task_argument,
        metavar="TYPE:INDEX",
        help="with a TFJob manifest as --tf-config: the pod of that task (worker:1)",
    )
    explain.add_argument("--config", metavar="FILE", help="a RunConfig file (estimator only)")
    explain.add_argument(
        "--profile",
        choices=PROFILES,
        default="estimator",
        help="the reader of TF_CONFIG (default: estimator)",
    )
    explain.add_argument(
        "--readers",
        action="store_true",
        help="show what each reader (estimator, mwms, ps, server) makes of TF_CONFIG, side by side",
    )
    explain.add_argument(
        "--why", action="store_true", help="say the rule behind each derived value"
    )
    explain.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: a table (default); json: one JSON object",
    )
    add_limits(explain)


def _explained(args: argparse.Namespace, read: Callable[..., Any], **options: Any) -> Any:
    """What ``read`` (:mod:`estconf.inputs.tf_config_source`) reads of the options given."""
    from estconf.io.checks import limits_of
    from estconf.io.errors import ConfigFileError, Result

    try:
        return read(
            args.tf_config,
            input_format=args.input_format,
            choice=(args.pod, args.task),
            limits=limits_of(args),
            note=_note,
            **options,
        )
    except ConfigFileError as exc:
        raise Invalid([Result(exc.file, exc.kind, exc.errors)]) from None


def run(args: argparse.Namespace) -> int:
    """Print what the reader derives; 1 when the input is not valid."""
    from estconf.reports.files import write_text

    if (args.pod is not None or args.task is not None) and args.tf_config is None:
        raise UsageError("--pod and --task name a pod of a TFJob manifest given as --tf-config")

    if args.readers or args.profile != "estimator":
        if args.config is not None:
            raise UsageError("--config is a RunConfig file, read by the estimator alone")
        try:
            return _other_readers(args)
        except Invalid as exc:
            out(write_text(exc.results), sys.stderr)
            return exit_status(exc.results, strict=False)
    from estconf.inputs.tf_config_source import run_config_to_explain

    try:
        config, source = _explained(args, run_config_to_explain, config_file=args.config)
    except Invalid as exc:
        out(write_text(exc.results), sys.stderr)
        return exit_status(exc.results, strict=False)
    from estconf.reports.explain import explain_run_config

    out(
        explain_run_config(
            config,
            source,
            output=args.format,
            why=args.why,
            session_config_given=args.config is not None,
        )
    )
    return EXIT_OK


def _note(text: str) -> None:
    print(text, file=sys.stderr)


def _other_readers(args: argparse.Namespace) -> int:
    """``--readers`` (each reader side by side) or ``--profile mwms|ps|server``."""
    from pydantic import ValidationError

    from estconf.inputs.tf_config_source import tf_config_to_explain
    from estconf.io.errors import Result, errors_of
    from estconf.profiles import check_profile
    from estconf.reports.explain import explain_profile, explain_readers

    tf_config, source = _explained(
        args, tf_config_to_explain, profile=args.profile, readers=args.readers
    )
    if args.readers:
        text, accepted = explain_readers(tf_config, source, output=args.format)
        out(text)
        return EXIT_OK if accepted else EXIT_INVALID
    try:
        model = check_profile(tf_config, args.profile)
    except ValidationError as exc:
        name = f"TF_CONFIG from {source}"
        raise Invalid([Result(name, "tf_config", errors_of(exc, name))]) from None
    out(explain_profile(model, source, args.profile, output=args.format, why=args.why))
    return EXIT_OK
