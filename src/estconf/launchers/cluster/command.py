"""``estconf tf-config cluster FILE``: the TF_CONFIG of each task of a cluster file, checked."""

from __future__ import annotations

import argparse
from typing import Final

from estconf._arguments import UsageError
from estconf.io.checks import limits_of
from estconf.launchers.base import Notes, TFConfigs


class Cluster:
    """``tf-config cluster FILE``, and ``tf-config FILE`` as it was first spelled."""

    spelled: Final = "CLUSTER_FILE"
    takes: Final = frozenset({"task", "profile"})

    def add_arguments(self, parser: argparse.ArgumentParser, *, alone: bool) -> None:
        """Add the cluster file, the one positional argument of ``tf-config``, to ``parser``."""
        parser.add_argument(
            "cluster", nargs=None if alone else "?", metavar="CLUSTER_FILE", help="the cluster"
        )

    def chosen(self, args: argparse.Namespace) -> bool:
        """Whether a cluster file is given."""
        return args.cluster is not None

    def check_usage(self, args: argparse.Namespace, *, chosen: bool) -> None:
        """Refuse ``--cluster-domain`` with a cluster file: its addresses are written out."""
        if chosen and getattr(args, "cluster_domain", None) is not None:
            raise UsageError("--cluster-domain goes with --job or --tfjob")

    def tf_configs(self, args: argparse.Namespace) -> TFConfigs:
        """The TF_CONFIG of each task of the cluster file; failed when one is refused."""
        from estconf.io.errors import UNREADABLE_CODES, ConfigFileError
        from estconf.io.sources import NotThisInput
        from estconf.launchers.cluster.files import read_cluster_file, task_tf_configs, tasks_of

        limits = limits_of(args)
        name = args.cluster
        try:
            template = read_cluster_file(name, limits)
        except ConfigFileError as exc:
            notes = Notes(findings=exc.errors, counted=True)
            unreadable = any(error.code in UNREADABLE_CODES for error in exc.errors)
            return TFConfigs(None, notes=notes, failed=True, unreadable=unreadable)
        except NotThisInput as exc:
            return TFConfigs(None, notes=Notes([str(exc)]), failed=True)
        tasks = [args.task] if args.task else tasks_of(template.get("cluster"))
        try:
            found = task_tf_configs(name, template, tasks, args.profile, limits)
        except NotThisInput as exc:
            return TFConfigs(None, notes=Notes([str(exc)]), failed=True)
        outputs = None if found.errors else found.outputs
        return TFConfigs(outputs, notes=found.notes(), failed=bool(found.errors))


CLUSTER: Final = Cluster()
"""The launcher of a cluster written by hand."""
