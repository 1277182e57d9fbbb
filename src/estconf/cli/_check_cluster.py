"""``estconf check-cluster``: check the TF_CONFIGs of every node of one job together."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from estconf.cli._common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    FORMATTER,
    PROFILES,
    Invalid,
    Limits,
    add_limits,
    limit_args,
    out,
    read_stdin,
    reading_limits,
)

if TYPE_CHECKING:
    from estconf.deployment import ClusterReport, Finding
    from estconf.inputs.readers import Read
    from estconf.io._positions import Loc
    from estconf.io.errors import FileError
    from estconf.io.report import Result

NAME = "check-cluster"

JSON_LINES_SUFFIXES = (".jsonl", ".ndjson")
NODE_SUFFIXES = (".json", ".toml", ".yaml", ".yml")
ENV_SUFFIXES = (".env", ".sh")
"""Files of ``TF_CONFIG=`` lines: an env file, a shell script (as ``tf-config`` writes)."""
_DIFFERENCES_SHOWN = 20

_EPILOG = """\
Each INPUT is a node's TF_CONFIG file (.json, .toml, .yaml, .yml), a
container's env list holding it (as 'estconf tf-config --format k8s' writes)
or a Kubernetes manifest setting it (a Job's container env, a ConfigMap, a
Secret; a YAML stream of them, each a node); a file of JSON lines (.jsonl, .ndjson:
one TF_CONFIG per line, as 'estconf tf-config' writes); a file of TF_CONFIG=
lines, an env file (.env) or a shell script (.sh: export TF_CONFIG='...'),
each line a node; '-' for JSON lines on
standard input; or a directory (its files of those kinds, by name; not its
subdirectories; a Kubernetes manifest in it that sets no TF_CONFIG, such as
a task's Service, is passed over).  A node file's keys are checked as
'estconf validate' checks a TF_CONFIG file's (a near miss of a key).

Reported, each with the nodes involved: clusters that differ between nodes,
a task claimed by two nodes, a task of the cluster no node claims, a node
whose task is not in its cluster, model_dir, service, rpc_layer or
session_master that differ; then what each node breaks under --profile.

exit status: 0 valid, 1 findings, 2 usage error or unreadable input.

examples:
  estconf check-cluster nodes/
  estconf check-cluster chief.json worker-0.yaml worker-1.yaml
  estconf tf-config --job mnist --chief 1 --worker 2 | estconf check-cluster -
  estconf tf-config --tfjob tfjob.yaml | estconf check-cluster --allow-empty -
  estconf check-cluster --profile mwms --format github tf_configs.jsonl"""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command and its options to ``commands``."""
    parser = commands.add_parser(
        NAME,
        help="check the TF_CONFIGs of every node of a job together",
        description="Check the TF_CONFIGs of all nodes of one job together: what no "
        "single node shows, then each node under a profile.",
        epilog=_EPILOG,
        formatter_class=FORMATTER,
    )
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
        choices=("text", "json", "github"),
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
    add_limits(parser)


class _Unreadable(Exception):
    """An input that cannot be read: reported on stderr, exit 2."""

    def __init__(self, result: Result) -> None:
        super().__init__()
        self.result = result


def _read_nodes(
    inputs: list[str],
    limits: Limits,
    key_errors: list[FileError],
    passed_over: list[tuple[str, str]],
) -> Iterator[tuple[str, Any]]:
    """``(name, TF_CONFIG)`` of every node of every input, in order.

    What the keys of a node file break (:func:`_key_errors`) goes to ``key_errors``;
    the files of a directory that are Kubernetes manifests setting no TF_CONFIG
    (the Services of a job's tasks, say) go to ``passed_over``.
    """
    from estconf.inputs.readers import read_json_lines
    from estconf.inputs.sources import STDIN, STDIN_NAME

    for name in inputs:
        if name == STDIN:
            try:
                data = read_stdin(limits)
            except Invalid as exc:
                raise _Unreadable(exc.results[0]) from None
            yield from _nodes(read_json_lines, data, STDIN_NAME, "jsonl", limits)
            continue
        path = Path(name)
        if path.is_dir():
            entries = sorted(
                entry
                for entry in path.iterdir()
                if entry.suffix.lower() in (*NODE_SUFFIXES, *JSON_LINES_SUFFIXES, *ENV_SUFFIXES)
                and entry.is_file()
            )
            for entry in entries:
                yield from _read_file(str(entry), limits, key_errors, passed_over)
        else:
            yield from _read_file(name, limits, key_errors, None)


def _nodes(
    reader: Callable[..., list[Read]], raw: bytes | str, name: str, fmt: str, limits: Limits
) -> Iterator[tuple[str, Any]]:
    """``(name, TF_CONFIG)`` of each node ``reader`` reads; what it refuses is unreadable."""
    from estconf.io.errors import ConfigFileError
    from estconf.io.report import Result

    try:
        read = reader(raw, name, fmt, reading_limits(limits))
    except ConfigFileError as exc:
        raise _Unreadable(Result(exc.file, None, exc.errors)) from None
    return ((node.name, node.data) for node in read)


def _read_file(
    name: str,
    limits: Limits,
    key_errors: list[FileError],
    passed_over: list[tuple[str, str]] | None,
) -> Iterator[tuple[str, Any]]:
    """The nodes of one file; ``passed_over`` is None for a file named, not found in a directory."""
    from estconf import files
    from estconf._path import format_path
    from estconf.inputs.readers import read_env_lines, read_json_lines
    from estconf.inputs.sources import read_file
    from estconf.io import kinds
    from estconf.io.checks import MAX_SIZE
    from estconf.io.errors import error
    from estconf.io.report import Result

    suffix = Path(name).suffix.lower()
    try:
        if suffix in JSON_LINES_SUFFIXES:
            raw = read_file(name, limits.get("max_size", MAX_SIZE))
            yield from _nodes(read_json_lines, raw, name, "jsonl", limits)
        elif suffix in ENV_SUFFIXES:
            raw = read_file(name, limits.get("max_size", MAX_SIZE))
            yield from _nodes(read_env_lines, raw, name, _ENV_FORMATS[suffix], limits)
        else:
            try:
                data = files.read_data(name, **limits)
            except files.ConfigFileError as exc:
                if [e.code for e in exc.errors] != ["documents"]:
                    raise
                yield from _stream(name, limits, passed_over)
                return
            found = _set_in(name, data)
            if found is None:  # the file is the TF_CONFIG itself
                key_errors.extend(_key_errors(name, data))
                yield name, data
            elif not found:  # a manifest that sets none
                message = f"{kinds.manifest_of(data)} sets {_NO_TF_CONFIG}"
                if passed_over is None:
                    raise _unreadable(error(name, "no_tf_config", message))
                passed_over.append((name, message))
            elif len(found) == 1:
                yield _text_read(name, found[0][1], limits)
            else:
                yield from (
                    _text_read(f"{name} ({format_path(path)})", value, limits)
                    for path, value in found
                )
    except files.ConfigFileError as exc:
        raise _Unreadable(Result(name, None, exc.errors)) from None


_ENV_FORMATS: Final = {".env": "env", ".sh": "shell"}


def _text_read(name: str, text: str, limits: Limits) -> tuple[str, Any]:
    """A node whose TF_CONFIG is a manifest's text, read as the text of a TF_CONFIG file is."""
    from estconf.inputs.readers import tf_config_text
    from estconf.io.errors import ConfigFileError
    from estconf.io.report import Result

    try:
        return name, tf_config_text(text, name, reading_limits(limits))
    except ConfigFileError as exc:
        raise _Unreadable(Result(exc.file, None, exc.errors)) from None


def _stream(
    name: str, limits: Limits, passed_over: list[tuple[str, str]] | None
) -> Iterator[tuple[str, Any]]:
    """The nodes of a YAML stream of env lists and manifests, each ``FILE:LINE`` of its value.

    ``tf-config --format k8s`` writes such a stream of env lists; a job's
    manifests hold a Job for each task and the Services that name them, which
    set no TF_CONFIG.  A stream holding another document (a TF_CONFIG) is
    refused: one file, one TF_CONFIG.
    """
    from estconf.inputs.manifests import placed
    from estconf.inputs.readers import read_stream
    from estconf.inputs.sources import read_file
    from estconf.io.checks import MAX_SIZE
    from estconf.io.errors import error

    raw = read_file(name, limits.get("max_size", MAX_SIZE))
    nodes = []
    for read in read_stream(raw, name, "yaml", reading_limits(limits)):
        found = _set_in(name, read.data)
        if found is None:
            message = (
                "the file holds more than one YAML document, and not only env lists and "
                "Kubernetes manifests that set TF_CONFIG"
            )
            raise _unreadable(error(name, "documents", message))
        assert read.document is not None
        for _, value, position in placed(read.document, found):
            nodes.append((name if position is None else f"{name}:{position.line}", value))
    message = f"the Kubernetes manifests of the stream set {_NO_TF_CONFIG}"
    if nodes:
        yield from (_text_read(node, value, limits) for node, value in nodes)
    elif passed_over is None:
        raise _unreadable(error(name, "no_tf_config", message))
    else:
        passed_over.append((name, message))


def _unreadable(found: FileError) -> _Unreadable:
    from estconf.io.report import Result

    return _Unreadable(Result(found.file, None, [found]))


_NO_TF_CONFIG = "no TF_CONFIG (a valueFrom is read only in a pod)"


def _set_in(name: str, data: Any) -> list[tuple[Loc, str]] | None:
    """The TF_CONFIG values a container's env list or a Kubernetes manifest sets, by path.

    ``None`` when ``data`` is neither: it is a TF_CONFIG itself; ``[]`` for a
    manifest that sets none.  A TFJob, and an env list that sets no TF_CONFIG
    value, are refused.
    """
    from estconf import TFConfig
    from estconf.inputs.manifests import tf_configs_in
    from estconf.io import kinds
    from estconf.io.errors import error
    from estconf.io.keys import not_a_config_file

    if not isinstance(data, dict):
        return None
    env_list = list(data) == ["env"] and isinstance(data["env"], list)
    manifest = kinds.manifest_of(data)
    if kinds.is_tfjob(data):
        raise _unreadable(error(name, "kubernetes_manifest", not_a_config_file(data, TFConfig)))
    if not env_list and manifest is None:
        return None
    found = list(tf_configs_in(data))
    if not found and env_list:
        raise _unreadable(error(name, "no_tf_config", f"the env list sets {_NO_TF_CONFIG}"))
    return found


def _key_errors(name: str, data: Any) -> list[FileError]:
    """The keys of a node file that a TF_CONFIG file may not have, as ``validate`` finds them.

    A TF_CONFIG keeps unknown keys, but not a near miss of one of its keys or
    of a RunConfig argument (``clusters``): such a node would run alone.  A
    node file that is another tool's document (a JSON Schema) is refused as one.
    """
    from estconf import TFConfig
    from estconf.io.keys import check_keys, other_document

    if not isinstance(data, dict):
        return []
    other = other_document(data, name, TFConfig)
    return [other] if other is not None else check_keys(TFConfig, data, name)[1]


def _findings_of(errors: list[FileError]) -> list[Finding]:
    """One finding for the nodes whose keys break a rule the same way, as ``check_cluster``."""
    from estconf.deployment import Finding

    nodes: dict[tuple[str, str, str], list[str]] = {}
    for found in errors:
        nodes.setdefault((found.code, found.path, found.message), []).append(found.file)
    return [
        Finding(code=code, message=message, nodes=tuple(names), path=path)
        for (code, path, message), names in nodes.items()
    ]


def run(args: argparse.Namespace) -> int:
    """Check the nodes of every input together; 0 when valid, 1 on findings, 2 if unreadable."""
    from estconf.deployment import check_cluster
    from estconf.deployment.report import NO_NODES
    from estconf.io import report as file_report

    limits = limit_args(args)
    key_errors: list[FileError] = []
    passed_over: list[tuple[str, str]] = []
    try:
        nodes = list(_read_nodes(args.inputs, limits, key_errors, passed_over))
    except _Unreadable as exc:
        text = file_report.write_text([exc.result])
        out(text.rsplit("\n", 2)[0] + "\n", sys.stderr)  # the errors, without the summary line
        return EXIT_USAGE
    report = check_cluster(nodes, profile=args.profile)
    if key_errors:
        findings = (*_findings_of(key_errors), *report.findings)
        report = report.model_copy(update={"findings": findings})
    notes = []
    if args.allow_empty and not nodes:
        notes.append(f"{_NO_NODE} (--allow-empty)")
        findings = tuple(f for f in report.findings if f.code != NO_NODES)
        report = report.model_copy(update={"findings": findings})
    hints = _hints(report, nodes)
    writer = {"text": _text, "json": _json, "github": _github}[args.format]
    out(writer(report, _Said(hints, notes, passed_over)))
    return EXIT_OK if report.valid else EXIT_INVALID


_NO_NODE = "no TF_CONFIG was given: there is no node to check"


class _Said(NamedTuple):
    """What the output says beside the findings."""

    hints: list[str]
    notes: list[str]
    passed_over: list[tuple[str, str]]


def _hints(report: ClusterReport, nodes: list[tuple[str, Any]]) -> list[str]:
    """How to fix what was found, where a fix is plain."""
    from estconf.deployment import check_cluster
    from estconf.deployment.report import NO_NODES
    from estconf.profiles.registry import accepted_instead, as_options

    hints = []
    if any(f.code == NO_NODES for f in report.findings):
        hints.append(
            "a TFJob of one pod in all gets no TF_CONFIG, and 'estconf tf-config --tfjob' "
            "writes nothing for it: pass --allow-empty where no input means that"
        )
    claimed_twice = [f for f in report.findings if f.code == "task_claimed_twice"]
    if len(report.nodes) > 1 and any(len(f.nodes) == len(report.nodes) for f in claimed_twice):
        task = f"{claimed_twice[0].job}:{claimed_twice[0].index}"
        hints.append(
            f"every node was given the same task, {task}: each node needs its own task.index "
            "(0, 1, 2, ... within each task.type)"
        )
    elif claimed_twice:
        hints.append(
            "each node needs its own task: no two nodes may share task.type and task.index"
        )
    refused = {f.code for f in report.findings if f.profile == "estimator"}
    if report.profile == "estimator" and refused:
        readers = accepted_instead(
            refused,
            lambda other: not any(f.profile for f in check_cluster(nodes, profile=other).findings),
        )
        if readers:
            hints.append(
                f"tf.estimator refuses these nodes, but {as_options(readers)} reads every one "
                "of them: pass it if that is the reader"
            )
    return hints


def _text(report: ClusterReport, said: _Said) -> str:
    lines = []
    for finding in report.findings:
        lines.append(str(finding))
        lines.extend(_diff(finding))
    lines.extend(f"hint: {hint}" for hint in said.hints)
    lines.extend(f"note: {note}" for note in said.notes)
    lines.extend(f"{name}: passed over, {reason}" for name, reason in said.passed_over)
    lines.append(report.summary())
    return "".join(f"{line}\n" for line in lines)


def _diff(finding: Finding) -> list[str]:
    """A cluster mismatch as the lines of a diff: ``-`` the most common cluster, ``+`` this one."""
    lines = []
    for difference in finding.differences[:_DIFFERENCES_SHOWN]:
        task = f"{difference.job}:{difference.index}"
        if difference.reference is not None:
            lines.append(f"  - {task} {difference.reference}")
        if difference.other is not None:
            lines.append(f"  + {task} {difference.other}")
    rest = len(finding.differences) - _DIFFERENCES_SHOWN
    if rest > 0:
        lines.append(f"  ... and {rest} more tasks differ")
    return lines


def _json(report: ClusterReport, said: _Said) -> str:
    import json

    skipped = [{"file": name, "reason": reason} for name, reason in said.passed_over]
    document = {
        **report.model_dump(mode="json"),
        "hints": said.hints,
        "notes": said.notes,
        "skipped": skipped,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _github(report: ClusterReport, said: _Said) -> str:
    """One ``::error`` per finding, at its first node's file (and line, for JSON lines)."""
    from estconf.io.errors import FileError
    from estconf.io.report import Result, write_github

    errors = []
    for finding in report.findings:
        nodes = finding.nodes or finding.reference_nodes or report.nodes or ("<no input>",)
        file, _, line = nodes[0].rpartition(":")
        if not (file and line.isdigit()):
            file, line = nodes[0], ""
        number = int(line) if line else None
        errors.append(
            FileError(file, "", (), finding.code, str(finding), number, 1 if number else None)
        )
    notices = "".join(f"::notice title=estconf hint::{hint}\n" for hint in said.hints)
    notices += "".join(f"::notice title=estconf note::{note}\n" for note in said.notes)
    return write_github([Result("", None, errors)]) + notices
