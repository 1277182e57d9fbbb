"""``estconf explain``: show what TensorFlow derives from a TF_CONFIG."""

from __future__ import annotations

import argparse
import json
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
    errors_of,
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
    data = config.model_dump(mode="json", include={*_EXPLAINED, "tpu_config"})
    facts = {"tf_config_source": source, **{key: data.get(key) for key in _EXPLAINED}}
    if "tpu_config" in data:
        facts["tpu_config"] = {key: data["tpu_config"][key] for key in _TPU_EXPLAINED}
    reasons: dict[str, str] = {}
    if args.why:
        from estconf.cli._why import estimator_reasons

        reasons = estimator_reasons(config.tf_config, facts)
        if args.config is not None:
            reasons.pop("device_filters")  # the file may give its own session_config
    if args.format == "json":
        if args.why:
            facts["reasons"] = reasons
        out(json.dumps(facts, indent=2) + "\n")
    else:
        out(_table(facts, reasons))
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

    from estconf.io.report import Result
    from estconf.profiles import check_profile, explain

    tf_config, source = _tf_config_only(args, limit_args(args))
    if args.readers:
        views = [view.model_dump(mode="json") for view in explain(tf_config)]
        if args.format == "json":
            out(json.dumps({"tf_config_source": source, "readers": views}, indent=2) + "\n")
        else:
            out(_side_by_side(source, views))
        return EXIT_OK if any(view["values"] is not None for view in views) else EXIT_INVALID
    try:
        model = check_profile(tf_config, args.profile)
    except ValidationError as exc:
        name = f"TF_CONFIG from {source}"
        raise Invalid([Result(name, "tf_config", errors_of(exc, name))]) from None
    values = model.model_dump(mode="json", exclude={"tf_config"})
    facts = {"tf_config_source": source, "profile": args.profile, **values}
    reasons: dict[str, str] = {}
    if args.why:
        from estconf.cli._why import mwms_reasons, ps_reasons

        reason_of = {"mwms": mwms_reasons, "ps": ps_reasons}.get(args.profile)
        reasons = {} if reason_of is None else reason_of(values)
    if args.format == "json":
        if args.why:
            facts["reasons"] = reasons
        out(json.dumps(facts, indent=2) + "\n")
    else:
        out(_reader_table(facts, reasons))
    return EXIT_OK


_HIDDEN = ("cluster_spec", "task_type", "task_id")


def _reader_table(facts: dict[str, Any], reasons: dict[str, str]) -> str:
    rows: list[tuple[str, str]] = [
        ("TF_CONFIG from", facts["tf_config_source"]),
        ("profile", facts["profile"]),
        ("task", _task(facts["task_type"], facts["task_id"])),
    ]
    rows += _cluster_rows(facts["cluster_spec"])
    for key, value in facts.items():
        if key in (*_HIDDEN, "tf_config_source", "profile"):
            continue
        if key == "device_filters":
            rows.append((key, ""))
            rows += [(f"  {task}", ", ".join(filters)) for task, filters in value.items()]
            continue
        rows.append((key, _cell(value)))
    return _rows(rows, reasons)


def _side_by_side(source: str, views: list[dict[str, Any]]) -> str:
    """One column per reader: its values, or ``refused`` and its first error below."""
    from estconf.io.errors import format_path

    keys: list[str] = []
    for view in views:
        for key in view["values"] or {}:
            if key not in keys and key not in _HIDDEN:
                keys.append(key)
    header = [view["profile"] for view in views]
    table: list[list[str]] = [["", *header]]
    table.append(["task", *(_task_cell(view) for view in views)])
    for key in keys:
        cells = []
        for view in views:
            values = view["values"]
            if values is None:
                cells.append("")
            elif key not in values:
                cells.append("-")
            elif key == "device_filters":
                cells.append(f"{len(values[key])} tasks")
            else:
                cells.append(_cell(values[key]))
        table.append([key, *cells])
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = [f"TF_CONFIG from  {source}"]
    lines += [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in table
    ]
    for view in views:
        error = view["error"]
        if error is not None:
            where = format_path(error["loc"])
            lines.append(f"{view['profile']}: {where + ': ' if where else ''}{error['msg']}")
    return "\n".join(lines) + "\n"


def _task_cell(view: dict[str, Any]) -> str:
    values = view["values"]
    if values is None:
        return f"refused ({view['error']['type']})"
    return _task(values["task_type"], values["task_id"])


def _task(task_type: str | None, task_id: int | None) -> str:
    """``type:index``, or ``(none)`` where the reader reads no task (no cluster)."""
    if task_type is None and task_id is None:
        return "(none)"
    return f"{_cell(task_type)}:{_cell(task_id)}"


def _cluster_rows(cluster: dict[str, Any] | None) -> list[tuple[str, str]]:
    """The cluster's size, then one row per job; ``(none)`` where the reader has no cluster."""
    from estconf.io.report import plural

    if cluster is None:
        return [("cluster_spec", "(none)")]
    tasks = sum(len(addresses) for addresses in cluster.values())
    rows = [("cluster_spec", f"{plural(len(cluster), 'job')}, {plural(tasks, 'task')}")]
    for job, addresses in cluster.items():
        items = (
            addresses if isinstance(addresses, list) else [f"{i}={a}" for i, a in addresses.items()]
        )
        rows.append((f"  {job}", ", ".join(items)))
    return rows


def _rows(rows: list[tuple[str, str]], reasons: dict[str, str]) -> str:
    width = max(len(key) for key, _ in rows)
    lines = []
    for key, value in rows:
        reason = reasons.get(key)
        line = f"{key.ljust(width)}  {value}"
        if reason is not None:
            line += f"  ({reason})"
        lines.append(line.rstrip() + "\n")
    return "".join(lines)


def _table(facts: dict[str, Any], reasons: dict[str, str]) -> str:
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
    rows += _cluster_rows(facts["cluster_spec"])
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
    return _rows(rows, reasons)


def _cell(value: Any) -> str:
    if value is None:
        return "(none)"
    if value == "":
        return "''"
    return str(value)
