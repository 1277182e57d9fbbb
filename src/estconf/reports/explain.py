"""What a reader derives from a TF_CONFIG, as ``estconf explain`` writes it: a table or JSON.

The facts come from :mod:`estconf.inputs.explain`; this module writes them
as a table of ``key  value`` rows (``text``), the rule behind each value
after it when asked (``why``), or as one JSON object (``json``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from estconf.profiles.check import ESTIMATOR_VALUES

if TYPE_CHECKING:
    from pydantic import BaseModel

    from estconf import RunConfig, TFConfig

__all__ = ["explain_profile", "explain_readers", "explain_run_config"]

_HIDDEN = ("cluster_spec", "task_type", "task_id")


def explain_run_config(
    config: RunConfig,
    source: str,
    *,
    output: str = "text",
    why: bool = False,
    session_config_given: bool = False,
) -> str:
    """What ``tf.estimator.RunConfig`` derives: task, master, chief, replicas, ...

    Args:
        config: the RunConfig (or ``tpu.RunConfig``) built from the TF_CONFIG.
        source: where its TF_CONFIG came from, as the report says it.
        output: ``text`` (a table) or ``json`` (one object).
        why: add the rule behind each derived value.
        session_config_given: the RunConfig was given its own ``session_config``,
            so its device filters are not said to be the estimator's default.

    Returns:
        The explanation, ending with a newline.
    """
    from estconf.inputs.explain import run_config_facts

    found = run_config_facts(config, source, why=why, session_config_given=session_config_given)
    if output == "json":
        return _json(found.facts, found.reasons)
    return _table(found.facts, found.reasons or {})


def explain_profile(
    model: BaseModel, source: str, profile: str, *, output: str = "text", why: bool = False
) -> str:
    """What the reader of ``profile`` (``mwms``, ``ps``, ``server``, ...) derives.

    Args:
        model: the reader's model, as :func:`estconf.profiles.check_profile` returns it.
        source: where its TF_CONFIG came from, as the report says it.
        profile: the profile's name.
        output: ``text`` (a table) or ``json`` (one object).
        why: add the rule behind each derived value (where the reader has them).

    Returns:
        The explanation, ending with a newline.
    """
    from estconf.inputs.explain import profile_facts

    found = profile_facts(model, source, profile, why=why)
    if output == "json":
        return _json(found.facts, found.reasons)
    return _reader_table(found.facts, found.reasons or {})


def explain_readers(tf_config: TFConfig, source: str, *, output: str = "text") -> tuple[str, bool]:
    """What each reader makes of ``tf_config``, side by side.

    Args:
        tf_config: the TF_CONFIG, read as ``TFConfig`` alone.
        source: where it came from, as the report says it.
        output: ``text`` (one column per reader) or ``json`` (one object).

    Returns:
        The explanation, ending with a newline, and whether any reader accepts
        the TF_CONFIG.
    """
    from estconf.inputs.explain import reader_views

    found = reader_views(tf_config, source)
    if output == "json":
        document = {"tf_config_source": source, "readers": found.views}
        return json.dumps(document, indent=2) + "\n", found.accepted
    return _side_by_side(source, found.views), found.accepted


def _json(facts: dict[str, Any], reasons: dict[str, str] | None) -> str:
    if reasons is not None:
        facts["reasons"] = reasons
    return json.dumps(facts, indent=2) + "\n"


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
    from estconf.reports.files import plural

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
    for key in ESTIMATOR_VALUES:
        if key not in ("cluster_spec", "task_type", "task_id"):  # the rows above and below
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
