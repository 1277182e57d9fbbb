"""``estconf tf-config``: write the TF_CONFIG of each task of a cluster."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from estconf.cli._common import (
    EXIT_INVALID,
    EXIT_OK,
    FORMATTER,
    Limits,
    add_limits,
    errors_of,
    limit_args,
    out,
)

NAME = "tf-config"

_TF_CONFIG_EPILOG = """\
CLUSTER_FILE holds a cluster ({"chief": [...], "worker": [...]}) or a TF_CONFIG
whose keys other than "task" are copied into every task's TF_CONFIG.

examples:
  estconf tf-config cluster.json
  estconf tf-config cluster.yaml --task worker:1 --format shell
  estconf tf-config cluster.toml --format k8s"""


def _task(text: str) -> tuple[str, int]:
    job, sep, index = text.rpartition(":")
    if not sep or not job or not index.isdigit():
        raise argparse.ArgumentTypeError(f"expected TYPE:INDEX, such as worker:0, not {text!r}")
    return job, int(index)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command and its options to ``commands``."""
    tf_config = commands.add_parser(
        NAME,
        help="write the TF_CONFIG of each task of a cluster",
        description="Write the TF_CONFIG of every task of a cluster, or of one task, each "
        "checked with the rules of tf.estimator.RunConfig.",
        epilog=_TF_CONFIG_EPILOG,
        formatter_class=FORMATTER,
    )
    tf_config.add_argument("cluster", metavar="CLUSTER_FILE", help="the cluster")
    tf_config.add_argument(
        "--task",
        type=_task,
        metavar="TYPE:INDEX",
        help="only this task (evaluator:0 works for any cluster)",
    )
    tf_config.add_argument(
        "--format",
        choices=("json", "shell", "k8s"),
        default="json",
        help="json: one TF_CONFIG per line (default); shell: export lines; "
        "k8s: a Kubernetes env list per task",
    )
    add_limits(tf_config)


def run(args: argparse.Namespace) -> int:
    """Write the TF_CONFIG of each task of the cluster file; 1 when it is not valid."""
    from estconf import files
    from estconf.io import report

    limits = limit_args(args)
    name = args.cluster
    try:
        data = files.read_data(name, **limits)
    except files.ConfigFileError as exc:
        out(report.write_text([report.Result(name, None, exc.errors)]), sys.stderr)
        return EXIT_INVALID
    if not isinstance(data, dict):
        print(
            f"{name}: a cluster file holds an object (a mapping) at the top level", file=sys.stderr
        )
        return EXIT_INVALID
    template = (
        {k: v for k, v in data.items() if k != "task"} if "cluster" in data else {"cluster": data}
    )
    tasks = [args.task] if args.task else _tasks_of(template.get("cluster"))
    return _write_tf_configs(name, template, tasks, args.format, limits)


def _tasks_of(cluster: Any) -> list[tuple[str, int]]:
    tasks: list[tuple[str, int]] = []
    if not isinstance(cluster, dict):
        return tasks
    for job, addresses in cluster.items():
        if isinstance(addresses, list):
            tasks.extend((str(job), index) for index in range(len(addresses)))
        elif isinstance(addresses, dict):
            indices = []
            for key in addresses:
                try:
                    indices.append(int(key))
                except (TypeError, ValueError):
                    indices.append(-1)  # validation says what is wrong with it
            tasks.extend((str(job), index) for index in sorted(indices))
    return tasks


def _write_tf_configs(
    name: str,
    template: dict[str, Any],
    tasks: list[tuple[str, int]],
    fmt: str,
    limits: Limits,
) -> int:
    """Check and write each task's TF_CONFIG.

    The file's keys are checked once, as a TF_CONFIG of the first task; then
    each task is checked with the estimator's rules against that cluster.
    """
    import dataclasses

    from pydantic import ValidationError

    from estconf import TFConfig, files
    from estconf._distributed import derive_distributed
    from estconf.io import report
    from estconf.io.errors import FileError
    from estconf.tf_config import Task

    if not tasks:
        print(f"{name}: the cluster has no tasks", file=sys.stderr)
        return EXIT_INVALID
    try:
        text = json.dumps({**template, "task": {"type": tasks[0][0], "index": tasks[0][1]}})
    except (TypeError, ValueError) as exc:
        print(f"{name}: a TF_CONFIG is JSON, which cannot hold this: {exc}", file=sys.stderr)
        return EXIT_INVALID
    errors: list[FileError] = []
    try:
        base = files.loads(text, "json", TFConfig, name=f"{name} ({_label(tasks[0])})", **limits)
    except files.ConfigFileError as exc:
        errors.extend(exc.errors)
        tasks = []  # the cluster itself is not valid: nothing more to check
    outputs: list[tuple[str, str]] = []
    for task in tasks:
        tf_config = base.model_copy(update={"task": Task(type=task[0], index=task[1])})
        try:
            derive_distributed(tf_config)
        except ValidationError as exc:
            errors.extend(errors_of(exc, f"{name} ({_label(task)})"))
            continue
        dump = json.dumps(tf_config.model_dump(mode="json"), separators=(",", ":"))
        outputs.append((_label(task), dump))
    if errors:
        # a line and column would be those of the generated JSON, not of the file
        unplaced = [dataclasses.replace(error, line=None, column=None) for error in errors]
        out(report.write_text([report.Result(name, "tf_config", unplaced)]), sys.stderr)
        return EXIT_INVALID
    out(_tf_config_text(outputs, fmt))
    return EXIT_OK


def _label(task: tuple[str, int]) -> str:
    return f"{task[0]}:{task[1]}"


def _tf_config_text(outputs: list[tuple[str, str]], fmt: str) -> str:
    """JSON lines, shell ``export`` lines, or one Kubernetes ``env`` list per task."""
    import shlex

    if fmt == "json":
        return "".join(f"{text}\n" for _, text in outputs)
    if fmt == "shell":
        return "".join(
            f"# {label}\nexport TF_CONFIG={shlex.quote(text)}\n" for label, text in outputs
        )
    return "---\n".join(
        f"# {label}\nenv:\n  - name: TF_CONFIG\n    value: {_yaml_quoted(text)}\n"
        for label, text in outputs
    )


def _yaml_quoted(text: str) -> str:
    """A YAML single-quoted scalar: any printable text, with ``'`` doubled."""
    return "'" + text.replace("'", "''") + "'"
