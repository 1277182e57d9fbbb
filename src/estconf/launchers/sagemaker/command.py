"""``estconf tf-config sagemaker``: the ``TF_CONFIG`` SageMaker's TensorFlow toolkit gives a host.

A job is given as SageMaker is asked for it (``--instance-count N`` or
``--instance-groups NAME=N,...``, with ``--distribution``), or as its
containers see it (``--resource-config FILE``, one host's
``resourceconfig.json`` each, with ``--hyperparameters FILE``).  Each host's
``TF_CONFIG`` is :func:`estconf.sagemaker.tf_config`'s, its ps server in the
label; the traps of SageMaker's toolkit (a one-host parameter-server job, a
ps server at another host's slot, a host on which the toolkit fails) and
what the reader of ``--profile`` refuses in its ``TF_CONFIG``s (the
``master`` job under ``mwms`` and ``ps``) are reported with their fix, and
make the status 1.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from estconf._arguments import UsageError, number_argument, text_argument
from estconf.io.checks import limits_of
from estconf.launchers.base import TFConfigs, refuse_larger_output
from estconf.launchers.sagemaker.hosts import DISTRIBUTIONS

if TYPE_CHECKING:
    from estconf.io.parse import Document


def _groups(text: str) -> list[dict[str, Any]]:
    text_argument(text)
    groups: list[dict[str, Any]] = []
    for part in text.split(","):
        name, sep, count = part.partition("=")
        if not sep or not name or not count.isascii() or not count.isdigit():
            raise argparse.ArgumentTypeError(
                f"expected NAME=N,NAME=N (such as data=1,dnn=2), not {text!r}"
            )
        groups.append({"instance_group_name": name, "instance_count": int(count)})
    return groups


class SageMaker:
    """``tf-config sagemaker``, and ``tf-config --sagemaker`` as it was first spelled."""

    spelled: Final = "--sagemaker"
    takes: Final = frozenset({"profile"})

    def add_arguments(self, parser: argparse.ArgumentParser, *, alone: bool) -> None:
        """Add the options of a SageMaker job to ``parser``."""
        title = "a SageMaker training job"
        group = parser.add_argument_group(title if alone else f"{title} (--sagemaker)")
        if not alone:
            group.add_argument(
                "--sagemaker",
                action="store_true",
                help="the TF_CONFIG SageMaker's TensorFlow toolkit gives each host of a job",
            )
        _add_job_arguments(group)

    def chosen(self, args: argparse.Namespace) -> bool:
        """Whether ``--sagemaker`` is given."""
        return bool(args.sagemaker)

    def check_usage(self, args: argparse.Namespace, *, chosen: bool) -> None:
        """Refuse the options of a SageMaker job without it, and a job given twice or not at all."""
        given = [f"--{name.replace('_', '-')}" for name in _OPTIONS if getattr(args, name)]
        if not chosen:
            if given:
                raise UsageError(f"{given[0]} goes with --sagemaker")
            return
        sources = [
            args.instance_count is not None,
            args.instance_groups is not None,
            args.resource_config is not None,
        ]
        if sum(sources) != 1:
            raise UsageError(
                "--sagemaker takes the job from one of --instance-count N, "
                "--instance-groups NAME=N,... or --resource-config FILE"
            )
        if args.resource_config is not None and args.instance_type is not None:
            raise UsageError("--instance-type goes with --instance-count or --instance-groups")

    def tf_configs(self, args: argparse.Namespace) -> TFConfigs:
        """Each host's ``TF_CONFIG``; failed when a host meets a trap of the toolkit."""
        from estconf.launchers.sagemaker.hosts import (
            hosts,
            job_hyperparameters,
            job_report,
            string_flags,
        )

        document = None
        if args.hyperparameters is not None:
            document = _read_document(args.hyperparameters, args, "--hyperparameters")
        given = None if document is None else document.data
        hps = job_hyperparameters(given, args.distribution, args.distribution_groups)
        flags = []
        if document is not None:  # a flag written as text, at its line
            flags = string_flags(document.data, hps, args.hyperparameters, document)
        configs = _configs(args)
        _refuse_too_large(args, configs)
        job = job_report(hosts(configs, hps), args.profile, flags)
        outputs = job.outputs or None
        return TFConfigs(
            outputs,
            job.labels,
            notes=job.notes,
            notes_after=True,
            failed=job.failed,
            pods=job.pods,
        )


def _add_job_arguments(group: argparse._ArgumentGroup) -> None:
    group.add_argument(
        "--instance-count", type=number_argument(1), metavar="N", help="the job's instances"
    )
    group.add_argument(
        "--instance-groups",
        type=_groups,
        metavar="NAME=N,...",
        help="instead: a heterogeneous job's instance groups (data=1,dnn=2)",
    )
    group.add_argument(
        "--instance-type",
        type=text_argument,
        metavar="TYPE",
        help="their instance type (default: ml.c5.xlarge)",
    )
    group.add_argument(
        "--distribution",
        choices=sorted(DISTRIBUTIONS),
        help="the estimator's distribution (default: none, and so no TF_CONFIG)",
    )
    group.add_argument(
        "--distribution-groups",
        type=text_argument,
        metavar="NAME,...",
        help="the instance groups the distribution runs on (default: each host's own)",
    )
    group.add_argument(
        "--resource-config",
        action="append",
        metavar="FILE",
        help="instead: a host's /opt/ml/input/config/resourceconfig.json (repeat for more hosts)",
    )
    group.add_argument(
        "--hyperparameters",
        metavar="FILE",
        help="the job's hyperparameters.json (its sagemaker_* keys), under --distribution",
    )


_OPTIONS: Final = (
    "instance_count",
    "instance_groups",
    "instance_type",
    "distribution",
    "distribution_groups",
    "resource_config",
    "hyperparameters",
)


def _read_object(path: str, args: argparse.Namespace, what: str) -> dict[str, Any]:
    """A JSON object read from ``path`` under the command's limits; a usage error if unreadable."""
    data: dict[str, Any] = _read_document(path, args, what).data
    return data


def _read_document(path: str, args: argparse.Namespace, what: str) -> Document:
    """:func:`_read_object`'s file, read: its object, and where each of its values is."""
    from estconf.io.reading import json_document
    from estconf.io.sources import InputError

    try:
        return json_document(path, limits_of(args))
    except InputError as exc:
        raise UsageError(f"{what} {exc}", hint=exc.hint) from None


def _configs(args: argparse.Namespace) -> list[tuple[str, Mapping[str, Any]]]:
    """Each host's name (its file, or its host name) and ``resourceconfig.json``."""
    from estconf.launchers.sagemaker.hosts import job_resource_configs

    if args.resource_config is not None:
        return [
            (path, _read_object(path, args, "--resource-config")) for path in args.resource_config
        ]
    return job_resource_configs(args.instance_count, args.instance_groups, args.instance_type)


def _refuse_too_large(
    args: argparse.Namespace, configs: list[tuple[str, Mapping[str, Any]]]
) -> None:
    """Refuse, before they are built, TF_CONFIGs of every host larger than ``--max-size``.

    Each host's lists every host up to three times (master or worker, and ps):
    the output grows as the square of the hosts.
    """
    hosts = [config.get("hosts") for _, config in configs]
    listed = max((len(h) for h in hosts if isinstance(h, list)), default=0)
    total = len(configs) * (3 * listed * len('"algo-1000:2222", ') + 100)
    refuse_larger_output(
        args, "--sagemaker", f"{len(configs):,} hosts", total, estimated=True, one=None
    )


SAGEMAKER: Final = SageMaker()
"""The SageMaker launcher."""
