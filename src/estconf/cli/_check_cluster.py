"""``estconf check-cluster``: check the TF_CONFIGs of every node of one job together."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from estconf.cli._common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    PROFILES,
    add_limits,
    out,
)
from estconf.io import REPORT_FORMATS

NAME = "check-cluster"

_EPILOG = """\
Each INPUT is a node's TF_CONFIG file (.json, .toml, .yaml, .yml), a
container's env list holding it (as 'estconf tf-config --format k8s' writes)
or a Kubernetes manifest setting it (a Job's container env, a ConfigMap, a
Secret; a YAML stream of them, each a node); a file of JSON lines (.jsonl, .ndjson:
one TF_CONFIG per line, as 'estconf tf-config' writes); an env file (.env) or
a shell script (.sh), each TF_CONFIG it sets a node (a value may span lines;
nothing is run: a value made at run time, $(...) or $VAR, cannot be read);
'-' for JSON lines on standard input; or a directory (its files of those kinds, by name; not its
subdirectories; a Kubernetes manifest in it that sets no TF_CONFIG, such as
a task's Service, is passed over).  A node file's keys are checked as
'estconf validate' checks a TF_CONFIG file's (a near miss of a key).

Reported, each with the nodes involved: clusters that differ between nodes,
a task claimed by two nodes, a task of the cluster no node claims, a node
whose task is not in its cluster, model_dir, service, rpc_layer or
session_master that differ; then what each node breaks under --profile,
and the warnings and notes of the cluster's addresses (a task at port 0,
loopback hosts).

exit status: 0 valid (a warning passes, but not with --strict), 1 an error,
2 usage error or unreadable input.

examples:
  estconf check-cluster nodes/
  estconf check-cluster chief.json worker-0.yaml worker-1.yaml
  estconf tf-config --job mnist --chief 1 --worker 2 | estconf check-cluster -
  estconf tf-config --tfjob tfjob.yaml | estconf check-cluster --allow-empty -
  estconf check-cluster --profile mwms --format github tf_configs.jsonl"""


def register(parser: argparse.ArgumentParser, words: Sequence[str] = ()) -> None:
    """Describe the command and add its options to its parser, ``parser``."""
    parser.description = (
        "Check the TF_CONFIGs of all nodes of one job together: what no "
        "single node shows, then each node under a profile."
    )
    parser.epilog = _EPILOG
    parser.add_argument(
        "inputs", nargs="+", metavar="INPUT", help="node files, JSON lines, '-' or directories"
    )
    parser.add_argument(
        "--profile",
        choices=PROFILES,
        default="estimator",
        help="the reader each node is checked for: tf.estimator.RunConfig (default), "
        "MultiWorkerMirroredStrategy, ParameterServerStrategy, a TF1 program's tf.train.Server",
    )
    parser.add_argument(
        "--format",
        choices=REPORT_FORMATS,
        default="text",
        help="text: one line per finding (default); json: one JSON object; "
        "github: GitHub Actions annotations",
    )
    parser.add_argument(
        "--allow-empty",
        action="store_true",
        help="no TF_CONFIG at all is a note, exit 0, not a finding: a TFJob of one pod gets "
        "none, and 'tf-config --tfjob' writes nothing for it",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 on a warning too (by default only errors fail; warnings and notes pass)",
    )
    add_limits(parser)


def run(args: argparse.Namespace) -> int:
    """Check the nodes of every input together; 0 when valid, 1 on errors, 2 if unreadable."""
    from estconf.inputs.cluster_checks import check_nodes
    from estconf.inputs.nodes import Unreadable, read_nodes
    from estconf.io.checks import limits_of
    from estconf.io.errors import Result

    try:
        read = read_nodes(args.inputs, limits_of(args))
    except Unreadable as exc:
        from estconf.reports.files import write_text

        results = [Result(exc.file, None, exc.errors)]
        out(write_text(results, quiet=True), sys.stderr)  # no summary line
        return EXIT_USAGE
    from estconf.reports.cluster import write_cluster

    report, said = check_nodes(read, args.profile, allow_empty=args.allow_empty)
    out(write_cluster(report, args.format, said))
    failed = not report.valid or (args.strict and report.count("warning") > 0)
    return EXIT_INVALID if failed else EXIT_OK
