"""``estconf tf-config volcano FILE``: the TF_CONFIG each pod of a Volcano Job reads.

With the tensorflow plugin, each pod's is the plugin's
(:mod:`estconf.launchers.volcano.plugin`); without it, or in a Job of one
pod, the one its containers set by hand, if any.  What the admission webhook
and Volcano refuse, and what the reader of ``--profile`` refuses in the
pods' TF_CONFIGs, are reported at the lines of the manifest that cause them
(:func:`estconf.launchers.volcano.checks.check`).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Final

from estconf._arguments import UsageError, text_argument
from estconf.io.checks import limits_of
from estconf.launchers.base import Notes, Pod, TFConfigs, refuse_larger_output

if TYPE_CHECKING:
    from estconf.launchers.volcano.job import VolcanoJob
    from estconf.launchers.volcano.plugin import Prediction, TFConfigSize

_FILE_HELP: Final = "the Job's manifest ('-': standard input)"


class Volcano:
    """``tf-config volcano FILE``, and ``tf-config --volcano FILE`` on the older command line."""

    spelled: Final = "--volcano FILE"
    takes: Final = frozenset({"task", "profile"})

    def add_arguments(self, parser: argparse.ArgumentParser, *, alone: bool) -> None:
        """Add the manifest and ``--job-name`` to ``parser``."""
        title = "a Volcano Job"
        volcano = parser.add_argument_group(title if alone else f"{title} (--volcano)")
        if alone:
            volcano.add_argument("volcano", metavar="FILE", help=_FILE_HELP)
        else:
            volcano.add_argument("--volcano", metavar="FILE", help=_FILE_HELP)
        volcano.add_argument(
            "--job-name",
            type=text_argument,
            metavar="NAME",
            help="the Job's name, for a manifest with only generateName",
        )

    def chosen(self, args: argparse.Namespace) -> bool:
        """Whether ``--volcano FILE`` is given."""
        return args.volcano is not None

    def check_usage(self, args: argparse.Namespace, *, chosen: bool) -> None:
        """Refuse ``--job-name`` without ``--volcano``."""
        if not chosen and args.job_name is not None:
            raise UsageError("--job-name goes with --volcano")

    def tf_configs(self, args: argparse.Namespace) -> TFConfigs:
        """Each pod's TF_CONFIG; failed when Volcano refuses the Job or a pod its TF_CONFIG."""
        from estconf.io.errors import ConfigFileError
        from estconf.io.sources import read_given, shown_as

        limits = limits_of(args)
        try:
            raw = read_given(args.volcano, limits.max_size)
        except ConfigFileError as exc:
            return TFConfigs(None, notes=Notes(findings=exc.errors, counted=True), failed=True)
        return _tf_configs(raw, shown_as(args.volcano), args)


def _tf_configs(raw: str | bytes, shown: str, args: argparse.Namespace) -> TFConfigs:
    from estconf.io.errors import ConfigFileError
    from estconf.launchers.volcano.checks import check
    from estconf.launchers.volcano.jobs import found_in, model_errors, node_check, placed
    from estconf.launchers.volcano.plugin import predict, tf_config_size

    limits = limits_of(args)
    try:
        found = found_in(raw, shown, None, limits)
    except ConfigFileError as exc:
        return TFConfigs(None, notes=Notes(findings=exc.errors, counted=True), failed=True)
    if len(found) != 1:
        message = (
            f"{shown}: expected one Volcano Job (batch.volcano.sh/v1alpha1), found {len(found)}"
        )
        return TFConfigs(None, notes=Notes([message]), failed=True)
    document, prefix, data = found[0]
    job, errors = model_errors(document, prefix, data, shown)
    if job is None:
        return TFConfigs(None, notes=Notes(findings=errors, counted=True), failed=True)
    name = _name(job, args, shown)
    findings = check(job, name=name, node_check=node_check(args.profile))
    said = placed(document, prefix, findings, shown)
    failed = any(f.severity == "error" for f in said)
    if any(f.refused for f in said):
        return TFConfigs(None, notes=Notes(findings=said, counted=True), failed=True)
    try:
        _refuse_too_large(tf_config_size(job, name=name, task=args.task), args, shown)
        prediction = predict(job, name=name, task=args.task)
    except ValueError as exc:
        message = (
            f"{shown}: {' '.join(str(exc).split())}; estconf validate checks a Job of any size"
        )
        return TFConfigs(None, notes=Notes([message]), failed=True)
    pods = _pods(job, prediction)
    outputs = [((p.task.task_type, p.index), p.tf_config) for p in prediction.pods if p.tf_config]
    labels = [f"{p.name}: {p.task.task_type}:{p.index}" for p in prediction.pods if p.tf_config]
    return TFConfigs(
        outputs,
        labels,
        notes=Notes(_notes(job, prediction), said),
        notes_after=True,
        failed=failed,
        pods=pods,
    )


def _name(job: VolcanoJob, args: argparse.Namespace, shown: str) -> str:
    """The Job's name: its own, or ``--job-name`` for one with only ``generateName``."""
    given = job.metadata.name
    if given and args.job_name and given != args.job_name:
        raise UsageError(f"--job-name {args.job_name}: the manifest names the Job {given!r}")
    name = given or args.job_name
    if name:
        return str(name)
    generated = job.metadata.generate_name
    raise UsageError(
        f"{shown}: the Job has only generateName {generated!r}: the API server picks its name "
        "when the Job is created; give the name it got with --job-name NAME"
        if generated
        else f"{shown}: the Job has no metadata.name",
        hint="kubectl get vcjobs lists the Jobs' names" if generated else None,
    )


def _pods(job: VolcanoJob, prediction: Prediction) -> list[Pod]:
    """Each pod and what its program reads: the plugin's TF_CONFIG, else its own, if any."""
    from estconf.launchers.volcano.plugin import own_tf_config

    own = {}
    for position, _, spec in job.tasks():
        found = own_tf_config(spec.template.spec.containers)
        own[position] = None if found is None else found[2]
    return [
        Pod(pod.name, pod.tf_config if prediction.layout.writes else own[pod.task.position])
        for pod in prediction.pods
    ]


def _notes(job: VolcanoJob, prediction: Prediction) -> list[str]:
    """What was read of the Job that the TF_CONFIGs do not say."""
    from estconf.launchers.volcano.plugin import own_tf_config

    if prediction.layout.writes:
        return []
    if job.plugin_arguments is None:
        notes = [
            "note: the Job does not enable the tensorflow plugin (spec.plugins.tensorflow): "
            "Volcano writes no TF_CONFIG, and each pod reads the one its containers set, if any"
        ]
    else:
        notes = [
            "note: the Job is one task of one replica: the tensorflow plugin gives its pod no "
            "TF_CONFIG (TensorFlow runs it alone)"
        ]
    for _, name, spec in job.tasks():
        found = own_tf_config(spec.template.spec.containers)
        if found is not None and found[2] is None:
            notes.append(
                f"note: task {name!r} sets TF_CONFIG from valueFrom, which only its running pods "
                "read: --format pods writes null for them"
            )
    return notes


def _refuse_too_large(size: TFConfigSize, args: argparse.Namespace, shown: str) -> None:
    """Refuse, before anything is written, TF_CONFIGs larger than ``--max-size``."""
    from estconf.launchers.formats import written_size

    total = written_size(
        size, args.format, files=args.out_dir is not None, name_bytes=size.name_bytes
    )
    refuse_larger_output(args, shown, f"{size.pods:,} pods", total)


VOLCANO: Final = Volcano()
"""The Volcano launcher."""
