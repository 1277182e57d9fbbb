"""``estconf tf-config``: write the TF_CONFIG of each task of a cluster, a job or a TFJob."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from estconf.cli import _sagemaker, _slurm, _vertex
from estconf.cli._common import (
    EXIT_INVALID,
    EXIT_OK,
    PROFILES,
    UsageError,
    add_limits,
    exit_status,
    limit_args,
    out,
    reading_limits,
    refuse_larger_output,
    say_unreadable,
    task_argument,
    text_argument,
)
from estconf.inputs.node_formats import FORMATS

if TYPE_CHECKING:
    from estconf.kubeflow.size import TFConfigSize

NAME = "tf-config"
REPLICA_TYPES = ("Chief", "Master", "Worker", "PS", "Evaluator")
"""The replica types of a TFJob, as the operator names them; ``--chief N`` and so on."""

_TF_CONFIG_EPILOG = """\
The TF_CONFIGs come from one of:
  CLUSTER_FILE  a cluster ({"chief": [...], "worker": [...]}) or a TF_CONFIG
                whose keys other than "task" are copied into every task's;
  --job NAME    replica counts (--chief, --worker, --ps, ...): the addresses
                Kubeflow's training operator gives a TFJob's pods,
                NAME-TYPE-INDEX.NAMESPACE.svc[.DOMAIN]:PORT;
  --tfjob FILE  a TFJob manifest ('-' reads it from standard input): every
                TF_CONFIG the operator would write, as it would write it,
                whether or not a reader would accept it (judge them with
                'estconf check-cluster' or 'estconf validate');
  --slurm       a SLURM step (--nodelist and --tasks-per-node, or --from-env):
                what TensorFlow's SlurmClusterResolver gives each rank, or
                with --write a TF_CONFIG per rank at the host SLURM runs it on;
  --sagemaker   a SageMaker job (--instance-count or --instance-groups with
                --distribution, or --resource-config FILE): the TF_CONFIG
                SageMaker's TensorFlow toolkit gives each host;
  --vertex SPEC a Vertex AI CustomJob spec (gcloud ai custom-jobs create
                --config): the TF_CONFIG (--cluster-spec: CLUSTER_SPEC) of
                each replica, checked under --profile at the spec's lines.
CLUSTER_FILE and --job are checked under --profile; the default, estimator,
needs a chief, --profile mwms takes a cluster of workers alone.

--max-size also bounds what --job and --tfjob write: each pod's TF_CONFIG
lists every pod's address, so they grow as the square of the pods, and a
larger output is refused, with its size, before anything is written.

--format jsonl (or json, its older name) writes one TF_CONFIG per line, which
'estconf check-cluster -' reads; env writes TF_CONFIG=... lines for an env
file.  With --out-dir each task's goes to its own file, TYPE-INDEX.json (.sh,
.env, .yaml).

examples:
  estconf tf-config cluster.json
  estconf tf-config cluster.yaml --task worker:1 --format shell
  estconf tf-config --job mnist --namespace ml --chief 1 --worker 4 --ps 2
  estconf tf-config --job mnist --worker 4 --profile mwms --out-dir tf_configs/
  estconf tf-config --tfjob tfjob.yaml | estconf check-cluster --allow-empty -
  estconf tf-config --slurm --nodelist 'node[1-4]' --tasks-per-node 2 --write
  estconf tf-config --vertex custom_job.yaml --profile mwms"""


MAX_REPLICAS = 2**31 - 1
"""The most replicas of a type: a TFJob's ``replicas`` is an int32."""


def _count(text: str) -> int:
    if not text.isdigit() or len(text.lstrip("0")) > 10 or int(text) > MAX_REPLICAS:
        raise argparse.ArgumentTypeError(
            f"expected a number of replicas, from 0 to {MAX_REPLICAS} (an int32), not {text[:60]!r}"
        )
    return int(text)


def _port(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, not {text!r}")
    return int(text)


def register(tf_config: argparse.ArgumentParser) -> None:
    """Describe the command and add its options to its parser, ``tf_config``."""
    tf_config.description = (
        "Write the TF_CONFIG of every task of a cluster, of a TFJob's replicas, or of one task."
    )
    tf_config.epilog = _TF_CONFIG_EPILOG
    tf_config.add_argument("cluster", nargs="?", metavar="CLUSTER_FILE", help="the cluster")
    tf_config.add_argument(
        "--task",
        type=task_argument,
        metavar="TYPE:INDEX",
        help="only this task (evaluator:0 works for any cluster file)",
    )
    tf_config.add_argument(
        "--format",
        choices=FORMATS,
        default="jsonl",
        help="jsonl (json: the same): one TF_CONFIG per line (default); shell: export "
        "lines; env: TF_CONFIG= lines; k8s: a Kubernetes env list per task",
    )
    tf_config.add_argument(
        "--out-dir", metavar="DIR", help="write each task's TF_CONFIG to its own file in DIR"
    )
    tf_config.add_argument(
        "--profile",
        choices=PROFILES,
        default="estimator",
        help="the reader the TF_CONFIGs are for: tf.estimator.RunConfig (default), "
        "MultiWorkerMirroredStrategy, ParameterServerStrategy, a TF1 program's tf.train.Server",
    )
    replicas = tf_config.add_argument_group("replica counts (--job)")
    replicas.add_argument("--job", type=text_argument, metavar="NAME", help="the TFJob's name")
    replicas.add_argument(
        "--namespace",
        type=text_argument,
        metavar="NS",
        default="default",
        help="its namespace (default: default)",
    )
    replicas.add_argument(
        "--port", type=_port, default=2222, metavar="P", help="the tfjob-port (default: 2222)"
    )
    for replica_type in REPLICA_TYPES:
        replicas.add_argument(
            f"--{replica_type.lower()}",
            type=_count,
            default=0,
            metavar="N",
            help=f"{replica_type} replicas",
        )
    tfjob = tf_config.add_argument_group("a TFJob manifest (--tfjob)")
    tfjob.add_argument("--tfjob", metavar="FILE", help="the manifest ('-': standard input)")
    tfjob.add_argument(
        "--name",
        type=text_argument,
        metavar="NAME",
        help="the TFJob's name, for a manifest with only generateName",
    )
    tf_config.add_argument(
        "--cluster-domain",
        type=text_argument,
        metavar="D",
        help="the operator's CUSTOM_CLUSTER_DOMAIN, written after 'svc' (--job, --tfjob)",
    )
    _slurm.register(tf_config)
    _sagemaker.register(tf_config)
    _vertex.register(tf_config)
    add_limits(tf_config)


def run(args: argparse.Namespace) -> int:
    """Write the TF_CONFIG of each task; 1 when the input is not valid, 2 on a usage error."""
    _slurm.check_usage(args)
    _sagemaker.check_usage(args)
    _vertex.check_usage(args)
    sources = [args.cluster is not None, args.job is not None, args.tfjob is not None]
    if sum([*sources, args.slurm, args.sagemaker, args.vertex is not None]) != 1:
        raise UsageError(
            "give one of CLUSTER_FILE, --job NAME, --tfjob FILE, --slurm, --sagemaker or --vertex"
        )
    if args.job is None and any(getattr(args, t.lower()) for t in REPLICA_TYPES):
        raise UsageError("replica counts (--chief, --worker, ...) go with --job")
    if args.cluster is not None and args.cluster_domain is not None:
        raise UsageError("--cluster-domain goes with --job or --tfjob")
    if args.tfjob is None and args.name is not None:
        raise UsageError("--name goes with --tfjob")
    if args.job is not None:
        return _from_replicas(args)
    if args.slurm:
        return _slurm.run(args, _write)
    if args.sagemaker:
        return _sagemaker.run(args, _write)
    if args.vertex is not None:
        return _vertex.run(args, _write)
    if args.tfjob is not None:
        return _from_tfjob(args)
    return _from_cluster_file(args)


def _from_cluster_file(args: argparse.Namespace) -> int:
    """The TF_CONFIG of each task of the cluster file, each checked."""
    from estconf.inputs.cluster_files import read_cluster_file, task_tf_configs, tasks_of
    from estconf.inputs.sources import InputError, NotThisInput
    from estconf.io.errors import ConfigFileError

    limits = limit_args(args)
    name = args.cluster
    try:
        template = read_cluster_file(name, reading_limits(limits))
    except ConfigFileError as exc:
        return exit_status(say_unreadable(name, exc.errors))
    except NotThisInput as exc:
        print(exc, file=sys.stderr)
        return EXIT_INVALID
    except InputError as exc:
        raise UsageError(str(exc)) from None
    tasks = [args.task] if args.task else tasks_of(template.get("cluster"))
    try:
        found = task_tf_configs(name, template, tasks, args.profile, reading_limits(limits))
    except NotThisInput as exc:
        print(exc, file=sys.stderr)
        return EXIT_INVALID
    out(found.said(name), sys.stderr)
    return EXIT_INVALID if found.errors else _write(found.outputs, args)


def _from_replicas(args: argparse.Namespace) -> int:
    """The TF_CONFIGs the operator writes for a TFJob of these replica counts, checked."""
    from estconf.inputs.predictions import replica_tf_configs
    from estconf.inputs.sources import InputError

    counts = {t: getattr(args, t.lower()) for t in REPLICA_TYPES if getattr(args, t.lower())}
    if not counts:
        raise UsageError("give replica counts: --chief 1 --worker N, ...")
    name = f"--job {args.job}"
    try:
        found = replica_tf_configs(
            args.job,
            counts,
            namespace=args.namespace,
            port=args.port,
            cluster_domain=args.cluster_domain,
            task=args.task,
            profile=args.profile,
            before=lambda size: _refuse_too_large(size, args, name),
        )
    except InputError as exc:
        raise UsageError(str(exc)) from None
    out(found.said, sys.stderr)
    return EXIT_INVALID if found.failed else _write(found.outputs, args)


def _from_tfjob(args: argparse.Namespace) -> int:
    """The TF_CONFIGs the operator would write for a TFJob manifest, unjudged."""
    from estconf.inputs.predictions import manifest_tf_configs
    from estconf.inputs.sources import InputError, read_given, shown_as
    from estconf.io.checks import MAX_SIZE
    from estconf.io.errors import ConfigFileError

    name = args.tfjob
    try:
        text = read_given(name, limit_args(args).get("max_size", MAX_SIZE))
    except ConfigFileError as exc:
        say_unreadable(exc.file, exc.errors)
        return EXIT_INVALID
    shown = shown_as(name)
    try:
        found = manifest_tf_configs(
            text,
            shown,
            reading_limits(limit_args(args)),
            job_name=args.name,
            cluster_domain=args.cluster_domain,
            task=args.task,
            before=lambda size: _refuse_too_large(size, args, shown),
        )
    except InputError as exc:
        raise UsageError(str(exc)) from None
    out(found.said, sys.stderr)
    return EXIT_INVALID if found.failed else _write(found.outputs, args)


def _refuse_too_large(size: TFConfigSize, args: argparse.Namespace, name: str) -> None:
    """Refuse, before anything is written, TF_CONFIGs larger than ``--max-size``."""
    from estconf.inputs.node_formats import written_size

    total = written_size(size, args.format, files=args.out_dir is not None)
    refuse_larger_output(args, name, f"{size.pods:,} pods", total)


def _write(
    outputs: list[tuple[tuple[str, int], str]],
    args: argparse.Namespace,
    labels: list[str] | None = None,
) -> int:
    """Write the TF_CONFIGs to stdout, or each to its own file under ``--out-dir``.

    ``labels`` are the comments before each (default ``TYPE:INDEX``).
    """
    from estconf.inputs.node_formats import SUFFIXES, block, blocks

    if args.out_dir is None:
        out(blocks(outputs, args.format, labels))
        return EXIT_OK
    directory = Path(args.out_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for (task_type, index), text in outputs:
            path = directory / f"{task_type}-{index}{SUFFIXES[args.format]}"
            path.write_text(block(None, text, args.format), encoding="utf-8")
            out(f"{path}\n")
    except OSError as exc:
        raise UsageError(
            f"cannot write to --out-dir {args.out_dir}: {exc.strerror or exc}"
        ) from None
    return EXIT_OK
