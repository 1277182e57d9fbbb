"""``estconf tf-config job`` and ``tfjob``: the TF_CONFIGs Kubeflow's training operator writes.

``job NAME`` takes replica counts (``--chief 1 --worker 4``) and checks each
pod's TF_CONFIG under ``--profile``; ``tfjob FILE`` takes a manifest and
writes every TF_CONFIG the operator would write, unjudged.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Final

from estconf._arguments import UsageError, text_argument
from estconf.io.checks import limits_of
from estconf.launchers.base import Notes, TFConfigs, refuse_larger_output

if TYPE_CHECKING:
    from estconf.launchers.kubeflow.predictions import Predicted
    from estconf.launchers.kubeflow.size import TFConfigSize

REPLICA_TYPES: Final = ("Chief", "Master", "Worker", "PS", "Evaluator")
"""The replica types of a TFJob, as the operator names them; ``--chief N`` and so on."""

MAX_REPLICAS: Final = 2**31 - 1
"""The most replicas of a type: a TFJob's ``replicas`` is an int32."""

_CLUSTER_DOMAIN_HELP: Final = "the operator's CUSTOM_CLUSTER_DOMAIN, written after 'svc'"


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


def _add_cluster_domain(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup, help: str
) -> None:
    parser.add_argument("--cluster-domain", type=text_argument, metavar="D", help=help)


class Job:
    """``tf-config job NAME``, and ``tf-config --job NAME`` as it was first spelled."""

    spelled: Final = "--job NAME"
    takes: Final = frozenset({"task", "profile"})

    def add_arguments(self, parser: argparse.ArgumentParser, *, alone: bool) -> None:
        """Add the TFJob's name, namespace, port and replica counts to ``parser``."""
        replicas = parser.add_argument_group(
            "replica counts" if alone else "replica counts (--job)"
        )
        if alone:
            replicas.add_argument(
                "job", type=text_argument, metavar="NAME", help="the TFJob's name"
            )
        else:
            replicas.add_argument(
                "--job", type=text_argument, metavar="NAME", help="the TFJob's name"
            )
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
        if alone:
            _add_cluster_domain(replicas, _CLUSTER_DOMAIN_HELP)

    def chosen(self, args: argparse.Namespace) -> bool:
        """Whether ``--job NAME`` is given."""
        return args.job is not None

    def check_usage(self, args: argparse.Namespace, *, chosen: bool) -> None:
        """Refuse replica counts without ``--job``."""
        if not chosen and any(getattr(args, t.lower()) for t in REPLICA_TYPES):
            raise UsageError("replica counts (--chief, --worker, ...) go with --job")

    def tf_configs(self, args: argparse.Namespace) -> TFConfigs:
        """The TF_CONFIGs the operator writes for a TFJob of these replica counts, checked."""
        from estconf.launchers.kubeflow.predictions import replica_tf_configs

        counts = {t: getattr(args, t.lower()) for t in REPLICA_TYPES if getattr(args, t.lower())}
        if not counts:
            raise UsageError("give replica counts: --chief 1 --worker N, ...")
        name = f"--job {args.job}"
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
        return _given(found)


class TFJobManifest:
    """``tf-config tfjob FILE``, and ``tf-config --tfjob FILE`` as it was first spelled."""

    spelled: Final = "--tfjob FILE"
    takes: Final = frozenset({"task"})

    def add_arguments(self, parser: argparse.ArgumentParser, *, alone: bool) -> None:
        """Add the manifest and ``--name`` to ``parser``; on the older parser, ``--cluster-domain``.

        The older parser has one ``--cluster-domain``, for ``--job`` and ``--tfjob`` alike.
        """
        tfjob = parser.add_argument_group(
            "a TFJob manifest" if alone else "a TFJob manifest (--tfjob)"
        )
        if alone:
            tfjob.add_argument("tfjob", metavar="FILE", help="the manifest ('-': standard input)")
        else:
            tfjob.add_argument("--tfjob", metavar="FILE", help="the manifest ('-': standard input)")
        tfjob.add_argument(
            "--name",
            type=text_argument,
            metavar="NAME",
            help="the TFJob's name, for a manifest with only generateName",
        )
        _add_cluster_domain(
            tfjob if alone else parser,
            _CLUSTER_DOMAIN_HELP + ("" if alone else " (--job, --tfjob)"),
        )

    def chosen(self, args: argparse.Namespace) -> bool:
        """Whether ``--tfjob FILE`` is given."""
        return args.tfjob is not None

    def check_usage(self, args: argparse.Namespace, *, chosen: bool) -> None:
        """Refuse ``--name`` without ``--tfjob``."""
        if not chosen and args.name is not None:
            raise UsageError("--name goes with --tfjob")

    def tf_configs(self, args: argparse.Namespace) -> TFConfigs:
        """The TF_CONFIGs the operator would write for a TFJob manifest, unjudged."""
        from estconf.io.errors import ConfigFileError
        from estconf.io.sources import read_given, shown_as
        from estconf.launchers.kubeflow.predictions import manifest_tf_configs

        name = args.tfjob
        limits = limits_of(args)
        try:
            text = read_given(name, limits.max_size)
        except ConfigFileError as exc:
            notes = Notes(findings=exc.errors, counted=True)
            return TFConfigs(None, notes=notes, failed=True)
        shown = shown_as(name)
        found = manifest_tf_configs(
            text,
            shown,
            limits,
            job_name=args.name,
            cluster_domain=args.cluster_domain,
            task=args.task,
            before=lambda size: _refuse_too_large(size, args, shown),
        )
        return _given(found)


def _given(found: Predicted) -> TFConfigs:
    """What ``tf-config`` gives of a prediction: nothing is written when it failed."""
    if found.failed:
        return TFConfigs(None, notes=found.notes, failed=True)
    return TFConfigs(found.outputs, notes=found.notes, pods=found.pods)


def _refuse_too_large(size: TFConfigSize, args: argparse.Namespace, name: str) -> None:
    """Refuse, before anything is written, TF_CONFIGs larger than ``--max-size``."""
    from estconf.launchers.formats import written_size

    total = written_size(
        size, args.format, files=args.out_dir is not None, name_bytes=size.name_bytes
    )
    refuse_larger_output(args, name, f"{size.pods:,} pods", total)


JOB: Final = Job()
"""The TFJob of replica counts."""

TFJOB: Final = TFJobManifest()
"""The TFJob of a manifest."""
