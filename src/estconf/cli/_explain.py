"""``estconf explain``: show what TensorFlow derives from a TF_CONFIG."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from estconf.cli._common import (
    EXIT_INVALID,
    EXIT_OK,
    FORMATTER,
    Invalid,
    UsageError,
    add_input_format,
    add_limits,
    environ_bytes,
    errors_of,
    limit_args,
    load_or_fail,
    loads_or_fail,
    out,
    read_or_fail,
    read_stdin,
)

if TYPE_CHECKING:
    from estconf import RunConfig

NAME = "explain"

_EXPLAIN_EPILOG = """\
TF_CONFIG comes from --tf-config, else from the 'tf_config' key of the
--config file, else from the TF_CONFIG environment variable.

examples:
  estconf explain --tf-config tf_config.json
  echo "$TF_CONFIG" | estconf explain --tf-config -
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
    explain.add_argument("--config", metavar="FILE", help="a RunConfig file")
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
    config: RunConfig | None = None
    data: dict[str, Any] = {}
    if args.config is not None:
        data = read_or_fail(args.config, limits)
        kind = "tpu_run_config" if "tpu_config" in data else "run_config"
        config = load_or_fail(args.config, kind, limits)
    if config is not None and "tf_config" in data:
        if args.tf_config is not None:
            raise UsageError(f"{args.config} has a tf_config key; drop it or --tf-config, not both")
        return config, f"{args.config} (tf_config)"
    if args.tf_config == "-":
        text = read_stdin(limits)
        tf_config, source = loads_or_fail(text, "<stdin>", limits, args.input_format), "stdin"
    elif args.tf_config is not None:
        tf_config, source = load_or_fail(args.tf_config, "tf_config", limits), args.tf_config
    elif "TF_CONFIG" in os.environ:
        tf_config = loads_or_fail(environ_bytes("TF_CONFIG"), "$TF_CONFIG", limits)
        source = "the TF_CONFIG environment variable"
    else:
        tf_config, source = None, "none (TF_CONFIG is not set)"
    if config is None:
        return RunConfig(tf_config=tf_config), source
    from pydantic import ValidationError

    try:
        merged = type(config).model_validate({**data, "tf_config": tf_config}, strict=True)
    except ValidationError as exc:
        from estconf.io.report import Result

        name = f"{args.config} with TF_CONFIG from {source}"
        raise Invalid([Result(name, "run_config", errors_of(exc, name))]) from None
    return merged, source


_TPU_EXPLAINED = (
    "iterations_per_loop",
    "iterations_per_loop_counter",
    "num_shards",
    "num_cores_per_replica",
    "per_host_input_for_training",
    "tpu_job_name",
)


_EXPLAINED = (
    "task_type",
    "task_id",
    "master",
    "evaluation_master",
    "is_chief",
    "num_ps_replicas",
    "num_worker_replicas",
    "global_id_in_cluster",
    "cluster_spec",
    "service",
    "model_dir",
    "session_config",
    "save_checkpoints_steps",
    "save_checkpoints_secs",
)


def run(args: argparse.Namespace) -> int:
    """Print what the estimator derives; 1 when the input is not valid."""
    from estconf.io import report

    try:
        config, source = _explained(args)
    except Invalid as exc:
        out(report.write_text(exc.results), sys.stderr)
        return EXIT_INVALID
    data = config.model_dump(mode="json", include={*_EXPLAINED, "tpu_config"})
    facts = {"tf_config_source": source, **{key: data.get(key) for key in _EXPLAINED}}
    if "tpu_config" in data:
        facts["tpu_config"] = {key: data["tpu_config"][key] for key in _TPU_EXPLAINED}
    if args.format == "json":
        out(json.dumps(facts, indent=2) + "\n")
    else:
        out(_table(facts))
    return EXIT_OK


def _table(facts: dict[str, Any]) -> str:
    from estconf.io.report import plural

    rows: list[tuple[str, str]] = [("TF_CONFIG from", facts["tf_config_source"])]
    rows.append(("task", f"{facts['task_type']}:{facts['task_id']}"))
    for key in (
        "master",
        "evaluation_master",
        "is_chief",
        "num_ps_replicas",
        "num_worker_replicas",
        "global_id_in_cluster",
    ):
        rows.append((key, _cell(facts[key])))
    cluster: dict[str, Any] = facts["cluster_spec"]
    tasks = sum(len(addresses) for addresses in cluster.values())
    rows.append(("cluster_spec", f"{plural(len(cluster), 'job')}, {plural(tasks, 'task')}"))
    for job, tasks in cluster.items():
        items = tasks if isinstance(tasks, list) else [f"{i}={a}" for i, a in tasks.items()]
        rows.append((f"  {job}", ", ".join(items)))
    session_config = facts["session_config"] or {}
    filters = session_config.get("device_filters")
    rows.append(("device_filters", ", ".join(filters) if filters else "(none)"))
    rows.append(("model_dir", _cell(facts["model_dir"])))
    steps, secs = facts["save_checkpoints_steps"], facts["save_checkpoints_secs"]
    if steps is not None:
        rows.append(("checkpoints", f"every {steps} steps"))
    elif secs is not None:
        rows.append(("checkpoints", f"every {secs} s"))
    else:
        rows.append(("checkpoints", "(none)"))
    if facts["service"] is not None:
        rows.append(("service", json.dumps(facts["service"])))
    tpu = facts.get("tpu_config")
    if tpu is not None:
        counter = tpu.pop("iterations_per_loop_counter")
        rows.append(("tpu_config", ""))
        for key, value in tpu.items():
            rows.append((f"  {key}", _cell(value)))
        rows.append(
            ("  per loop", f"{counter['value']} {'steps' if counter['unit'] == 'count' else 's'}")
        )
    width = max(len(key) for key, _ in rows)
    return "".join(f"{key.ljust(width)}  {value}".rstrip() + "\n" for key, value in rows)


def _cell(value: Any) -> str:
    if value is None:
        return "(none)"
    if value == "":
        return "''"
    return str(value)
