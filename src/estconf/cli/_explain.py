"""``estconf explain``: show what TensorFlow derives from a TF_CONFIG."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from estconf.cli._common import (
    EXIT_INVALID,
    EXIT_OK,
    FORMATTER,
    PROFILES,
    Invalid,
    UsageError,
    add_input_format,
    add_limits,
    exit_status,
    limit_args,
    out,
    reading_limits,
    task_argument,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from estconf import RunConfig, TFConfig
    from estconf.cli._common import Limits
    from estconf.inputs.tf_config_source import TFConfigSource

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


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command and its options to ``commands``."""
    explain = commands.add_parser(
        NAME,
        help="show what TensorFlow derives from a TF_CONFIG",
        description="Show the task, master, chief, replicas, global id, device filters and "
        "model_dir that tf.estimator.RunConfig derives from a TF_CONFIG and its arguments.",
        epilog=_EXPLAIN_EPILOG,
        formatter_class=FORMATTER,
    )
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


def _explained(args: argparse.Namespace) -> tuple[RunConfig, str]:
    """Build the RunConfig to explain, and say where its TF_CONFIG came from.

    A ``--config`` file with a ``tpu_config`` key is a ``tpu.RunConfig``.
    """
    from estconf import RunConfig

    limits = limit_args(args)
    config: Any = None
    data: dict[str, Any] = {}
    if args.config is not None:
        data, config = _run_config_file(args.config, args.input_format, limits)
    if config is not None and "tf_config" in data:
        if args.tf_config is not None:
            raise UsageError(f"{args.config} has a tf_config key; drop it or --tf-config, not both")
        return config, f"{args.config} (tf_config)"
    found = _source(args, limits)
    source = found.said
    tf_config = _read(found, "tf_config", limits)
    if config is None:
        return RunConfig(tf_config=tf_config), source
    from pydantic import ValidationError

    try:
        merged = type(config).model_validate({**data, "tf_config": tf_config}, strict=True)
    except ValidationError as exc:
        from estconf.io.errors import errors_of
        from estconf.io.report import Result

        name = f"{args.config} with TF_CONFIG from {source}"
        raise Invalid([Result(name, "run_config", errors_of(exc, name))]) from None
    return merged, source


def run(args: argparse.Namespace) -> int:
    """Print what the reader derives; 1 when the input is not valid."""
    from estconf.io import report

    if (args.pod is not None or args.task is not None) and args.tf_config is None:
        raise UsageError("--pod and --task name a pod of a TFJob manifest given as --tf-config")

    if args.readers or args.profile != "estimator":
        if args.config is not None:
            raise UsageError("--config is a RunConfig file, read by the estimator alone")
        try:
            return _other_readers(args)
        except Invalid as exc:
            out(report.write_text(exc.results), sys.stderr)
            return exit_status(exc.results)
    try:
        config, source = _explained(args)
    except Invalid as exc:
        out(report.write_text(exc.results), sys.stderr)
        return exit_status(exc.results)
    from estconf.inputs.explain import explain_run_config

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


def _as_written_checks(args: argparse.Namespace) -> tuple[Callable[[Any], object], ...]:
    """The profile's check of the file's data, where the profile reads more than a ``TFConfig``.

    ``server`` also reads how the task index is written (``"1"`` is refused
    by the ``ServerDef``), which a ``TFConfig`` no longer shows; for it the
    data is checked as ``validate --profile server`` checks it.
    """
    import functools

    from estconf.profiles import check_profile
    from estconf.profiles.registry import entry_named

    if args.readers or entry_named(args.profile).written_check is None:
        return ()
    return (functools.partial(check_profile, profile=args.profile),)


def _run_config_file(path: str, input_format: str | None, limits: Limits) -> tuple[Any, Any]:
    """The data and model of the ``--config`` file (:mod:`estconf.inputs.run_config_files`)."""
    from estconf.inputs.run_config_files import read_run_config_file
    from estconf.io.errors import ConfigFileError
    from estconf.io.report import Result

    try:
        return read_run_config_file(path, input_format, reading_limits(limits))
    except ConfigFileError as exc:
        raise Invalid([Result(exc.file, exc.kind, exc.errors)]) from None


def _source(args: argparse.Namespace, limits: Limits) -> TFConfigSource:
    """Where the TF_CONFIG to explain comes from (:mod:`estconf.inputs.tf_config_source`)."""
    from estconf.inputs.sources import InputError
    from estconf.inputs.tf_config_source import tf_config_source
    from estconf.io.errors import ConfigFileError
    from estconf.io.report import Result

    try:
        return tf_config_source(
            args.tf_config,
            input_format=args.input_format,
            choice=(args.pod, args.task),
            limits=reading_limits(limits),
            note=_note,
        )
    except InputError as exc:
        raise UsageError(str(exc)) from None
    except ConfigFileError as exc:
        raise Invalid([Result(exc.file, exc.kind, exc.errors)]) from None


def _tf_config_only(args: argparse.Namespace, limits: Limits) -> tuple[TFConfig, str]:
    """The TF_CONFIG to explain, read as ``TFConfig`` alone: no reader's rules yet."""
    import dataclasses

    from estconf import TFConfig
    from estconf.io import kinds

    plain = dataclasses.replace(
        kinds.get("tf_config"), checks=_as_written_checks(args), checks_read_data=True
    )
    found = _source(args, limits)
    return _read(found, plain, limits, empty_refused=False) or TFConfig(), found.said


def _read(
    found: TFConfigSource, kind: Any, limits: Limits, *, empty_refused: bool = True
) -> TFConfig | None:
    """The TF_CONFIG found, read as ``kind``: :mod:`estconf.inputs.tf_config_source`."""
    from estconf import TFConfig
    from estconf.inputs.tf_config_source import read_tf_config
    from estconf.io.errors import ConfigFileError
    from estconf.io.report import Result

    try:
        model = read_tf_config(found, kind, reading_limits(limits), empty_refused=empty_refused)
    except ConfigFileError as exc:
        raise Invalid([Result(exc.file, exc.kind, exc.errors)]) from None
    assert model is None or isinstance(model, TFConfig)
    return model


def _note(text: str) -> None:
    print(text, file=sys.stderr)


def _other_readers(args: argparse.Namespace) -> int:
    """``--readers`` (each reader side by side) or ``--profile mwms|ps|server``."""
    from pydantic import ValidationError

    from estconf.inputs.explain import explain_profile, explain_readers
    from estconf.io.errors import errors_of
    from estconf.io.report import Result
    from estconf.profiles import check_profile

    tf_config, source = _tf_config_only(args, limit_args(args))
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
