"""``estconf convert tfjob-to-trainjob``: a TFJob as a Trainer v2 TrainJob, or a JobSet."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import Final

from estconf._arguments import UsageError, text_argument
from estconf.cli._common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    FORMATTER,
    Parser,
    add_limits,
    out,
)

NAME = "convert"

TFJOB_TO_TRAINJOB: Final = "tfjob-to-trainjob"

_DESCRIPTION: Final = (
    "Convert a launcher's manifest into another's that runs the same TensorFlow job."
)

_TFJOB_DESCRIPTION: Final = (
    "Write the Kubeflow Trainer v2 TrainingRuntime and TrainJob (or, with --jobset, the "
    "JobSet) that run a Kubeflow TFJob: one replicated job per replica type, each pod "
    "given the TF_CONFIG the training operator would have written, with the JobSet's host "
    "names, and the TFJob's images, commands, env, resources, volumes and ports kept."
)

_TFJOB_EPILOG: Final = """\
The manifests are written on standard output (or to -o FILE) as one YAML
stream, to give 'kubectl apply -f'.  What is changed, left out or replaced
is said on standard error, each at its line in the TFJob.  A TFJob the
operator refuses, or that a TrainJob or JobSet cannot run alike
(enableDynamicWorker, only generateName, names too long), is refused.

exit status: 0 written, 1 the TFJob is refused, 2 usage error or an input
that cannot be read.

examples:
  estconf convert tfjob-to-trainjob tfjob.yaml > trainjob.yaml
  estconf convert tfjob-to-trainjob tfjob.yaml --jobset -o jobset.yaml
  kubectl get tfjob mnist -o yaml | estconf convert tfjob-to-trainjob - --namespace ml"""

_DNS_LABEL: Final = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_DNS_SUBDOMAIN: Final = re.compile(
    r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
)


def _dns(pattern: re.Pattern[str], most: int, what: str) -> Callable[[str], str]:
    def check(text: str) -> str:
        text = text_argument(text)
        if len(text) > most or not pattern.fullmatch(text):
            raise argparse.ArgumentTypeError(
                f"{text!r} is no {what}: lower-case letters, digits and '-', starting and "
                f"ending with a letter or digit, at most {most} characters"
            )
        return text

    return check


def register(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """Describe the command and add its conversions, each with its options."""
    parser.description = _DESCRIPTION
    parser.epilog = (
        f"Run 'estconf convert {TFJOB_TO_TRAINJOB} --help' for its options.\n\n"
        "examples:\n"
        f"  estconf convert {TFJOB_TO_TRAINJOB} tfjob.yaml > trainjob.yaml\n"
        f"  estconf convert {TFJOB_TO_TRAINJOB} tfjob.yaml --jobset -o jobset.yaml"
    )
    conversions = parser.add_subparsers(
        dest="conversion", metavar="CONVERSION", required=True, parser_class=Parser
    )
    tfjob = conversions.add_parser(
        TFJOB_TO_TRAINJOB,
        help="a Kubeflow TFJob as a Trainer v2 TrainingRuntime and TrainJob, or a JobSet",
        description=_TFJOB_DESCRIPTION,
        epilog=_TFJOB_EPILOG,
        formatter_class=FORMATTER,
    )
    tfjob.add_argument("tfjob", metavar="TFJOB", help="the TFJob manifest ('-': standard input)")
    tfjob.add_argument(
        "--jobset",
        action="store_true",
        help="write one JobSet (jobset.x-k8s.io/v1alpha2) instead of a TrainingRuntime and "
        "a TrainJob",
    )
    tfjob.add_argument(
        "--runtime-name",
        type=_dns(_DNS_SUBDOMAIN, 253, "name of a Kubernetes object"),
        metavar="NAME",
        help="the TrainingRuntime's name (default: the TFJob's)",
    )
    tfjob.add_argument(
        "--namespace",
        type=_dns(_DNS_LABEL, 63, "namespace"),
        metavar="NS",
        help="the namespace of what is written (default: the TFJob's, if it names one)",
    )
    tfjob.add_argument(
        "-o", "--output", metavar="FILE", help="write the manifests to FILE, not standard output"
    )
    add_limits(tfjob)


def run(args: argparse.Namespace) -> int:
    """Convert the TFJob; 0 written, 1 refused, 2 on a usage error or an unreadable input."""
    from estconf.convert.reading import convert_text
    from estconf.io.checks import limits_of
    from estconf.io.dump import dumps_manifests
    from estconf.io.errors import ConfigFileError
    from estconf.io.sources import read_given, shown_as
    from estconf.launchers.base import Notes

    if args.jobset and args.runtime_name is not None:
        raise UsageError("--runtime-name names the TrainingRuntime: --jobset writes none")
    limits = limits_of(args)
    try:
        raw = read_given(args.tfjob, limits.max_size)
    except ConfigFileError as exc:
        _say(Notes(findings=exc.errors))
        return EXIT_USAGE
    converted = convert_text(
        raw,
        shown_as(args.tfjob),
        limits,
        jobset=args.jobset,
        runtime_name=args.runtime_name,
        namespace=args.namespace,
    )
    _say(Notes(findings=converted.findings))
    if converted.unreadable:
        return EXIT_USAGE
    if converted.refused:
        return EXIT_INVALID
    text = dumps_manifests(converted.documents)
    if args.output is None:
        out(text)
        return EXIT_OK
    try:
        with open(args.output, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as exc:
        raise UsageError(f"cannot write -o {args.output}: {exc.strerror or exc}") from None
    return EXIT_OK


def _say(notes: object) -> None:
    """Write what was found on standard error (its reporter is loaded only then)."""
    from estconf.launchers.base import Notes
    from estconf.reports.launchers import write_notes

    if isinstance(notes, Notes) and not notes.empty:
        out(write_notes(notes), sys.stderr)
