"""The ``estconf`` command: validate config files, export schemas, explain a TF_CONFIG.

Commands:

- ``estconf validate FILE...``: check config files; exit 0 when all are
  valid, 1 when any is not, 2 on a usage error.
- ``estconf schema [KIND] [-o DIR]``: print or write the JSON Schemas.
- ``estconf explain``: show what TensorFlow derives from a TF_CONFIG and a
  RunConfig file (task, master, chief, replicas, device filters, ...).
- ``estconf tf-config CLUSTER_FILE``: write the TF_CONFIG of each task of a
  cluster, as JSON lines, shell ``export`` lines or a Kubernetes ``env`` list.

Only the standard library is imported before a command runs, so ``--help``
is quick, and a command imports only what it uses.  No input makes the
command print a traceback: problems with the input are reported as errors.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, TypedDict

from estconf import __version__
from estconf.io import kinds

if TYPE_CHECKING:
    from estconf import RunConfig, TFConfig
    from estconf.io.report import Result

__all__ = ["main"]

PROG = "estconf"

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

KIND_NAMES = tuple(kinds.KINDS)

_DESCRIPTION = """\
Validate TensorFlow Estimator run configuration -- TF_CONFIG, RunConfig --
in JSON, TOML or YAML files, export JSON Schema for editors, and show what
TensorFlow derives from a TF_CONFIG, without TensorFlow installed."""

_EPILOG = """\
examples:
  estconf validate configs/*.yaml
  estconf validate --format github tf_config.json
  estconf schema -o schemas/
  estconf explain --tf-config tf_config.json --config run_config.yaml
  estconf tf-config cluster.json --format shell

Run 'estconf COMMAND --help' for the options of a command."""

_VALIDATE_EPILOG = """\
The kind of each file is told from its top-level keys unless --kind says it:
a 'tf_config' key or a RunConfig argument (save_checkpoints_steps, ...) makes
a RunConfig file; TF_CONFIG keys (cluster, task, ...) make a TF_CONFIG file.

exit status: 0 all files valid, 1 some file invalid, 2 usage error.

examples:
  estconf validate run_config.yaml tf_config.json
  estconf validate --kind tf_config env/*.json
  estconf validate --format json config.toml | jq '.files[].errors'"""

_SCHEMA_EPILOG = """\
examples:
  estconf schema run_config > run_config.schema.json
  estconf schema -o schemas/     # writes <kind>.schema.json for every kind"""

_EXPLAIN_EPILOG = """\
TF_CONFIG comes from --tf-config, else from the 'tf_config' key of the
--config file, else from the TF_CONFIG environment variable.

examples:
  estconf explain --tf-config tf_config.json
  echo "$TF_CONFIG" | estconf explain --tf-config -
  estconf explain --config run_config.yaml --format json"""

_TF_CONFIG_EPILOG = """\
CLUSTER_FILE holds a cluster ({"chief": [...], "worker": [...]}) or a TF_CONFIG
whose keys other than "task" are copied into every task's TF_CONFIG.

examples:
  estconf tf-config cluster.json
  estconf tf-config cluster.yaml --task worker:1 --format shell
  estconf tf-config cluster.toml --format k8s"""


class _UsageError(Exception):
    """A usage error found after parsing: reported like argparse's, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def _task(text: str) -> tuple[str, int]:
    job, sep, index = text.rpartition(":")
    if not sep or not job or not index.isdigit():
        raise argparse.ArgumentTypeError(f"expected TYPE:INDEX, such as worker:0, not {text!r}")
    return job, int(index)


def _parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = _Parser(prog=PROG, description=_DESCRIPTION, epilog=_EPILOG, formatter_class=formatter)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    validate = commands.add_parser(
        "validate",
        help="check config files",
        description="Check config files (.json, .toml, .yaml, .yml) and report every error.",
        epilog=_VALIDATE_EPILOG,
        formatter_class=formatter,
    )
    validate.add_argument("files", nargs="+", metavar="FILE", help="config files to check")
    validate.add_argument("--kind", choices=KIND_NAMES, help="the kind of every file")
    validate.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default="text",
        help="text: file:line:col: path: message (default); json: one JSON object; "
        "github: GitHub Actions annotations",
    )
    _limits(validate)

    schema = commands.add_parser(
        "schema",
        help="print or write the JSON Schemas",
        description="Print the JSON Schema (draft 2020-12) of a kind of config file, "
        "or write every kind's schema to a directory.",
        epilog=_SCHEMA_EPILOG,
        formatter_class=formatter,
    )
    schema.add_argument(
        "kind",
        nargs="?",
        choices=KIND_NAMES,
        metavar="KIND",
        help=f"one of {', '.join(KIND_NAMES)}; all with -o",
    )
    schema.add_argument(
        "-o", "--output", metavar="DIR", help="write <kind>.schema.json files to DIR"
    )

    explain = commands.add_parser(
        "explain",
        help="show what TensorFlow derives from a TF_CONFIG",
        description="Show the task, master, chief, replicas, global id, device filters and "
        "model_dir that tf.estimator.RunConfig derives from a TF_CONFIG and its arguments.",
        epilog=_EXPLAIN_EPILOG,
        formatter_class=formatter,
    )
    explain.add_argument(
        "--tf-config",
        metavar="FILE",
        help="a TF_CONFIG file, or - to read TF_CONFIG's JSON from stdin",
    )
    explain.add_argument("--config", metavar="FILE", help="a RunConfig file")
    explain.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: a table (default); json: one JSON object",
    )
    _limits(explain)

    tf_config = commands.add_parser(
        "tf-config",
        help="write the TF_CONFIG of each task of a cluster",
        description="Write the TF_CONFIG of every task of a cluster, or of one task, each "
        "checked with the rules of tf.estimator.RunConfig.",
        epilog=_TF_CONFIG_EPILOG,
        formatter_class=formatter,
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
    _limits(tf_config)
    return parser


def _limits(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-size",
        type=_positive_int,
        metavar="BYTES",
        help="refuse files larger than this (default: 64 MiB)",
    )
    parser.add_argument(
        "--max-depth",
        type=_positive_int,
        metavar="N",
        help="refuse objects and arrays nested deeper (default: 64)",
    )


class _Limits(TypedDict, total=False):
    max_size: int
    max_depth: int


def _limit_args(args: argparse.Namespace) -> _Limits:
    limits: _Limits = {}
    if args.max_size is not None:
        limits["max_size"] = args.max_size
    if args.max_depth is not None:
        limits["max_depth"] = args.max_depth
    return limits


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``estconf`` command with ``argv`` (``sys.argv[1:]``); return the exit status."""
    for stream in (sys.stdout, sys.stderr):
        # a file name that is not UTF-8 must not make printing it fail
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    parser = _parser()
    args = parser.parse_args(argv)
    # pydantic's plugins are for instrumenting applications; finding them costs start-up time
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        if args.command == "validate":
            return _validate(args)
        if args.command == "schema":
            return _schema(args)
        if args.command == "explain":
            return _explain(args)
        return _tf_config(args)
    except _UsageError as exc:
        parser.exit(EXIT_USAGE, f"{PROG} {args.command}: error: {exc}\n")
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (``| head``): stop quietly, and keep Python from complaining
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except MemoryError:
        print(f"{PROG}: error: out of memory", file=sys.stderr)
        return EXIT_INTERNAL
    except Exception as exc:  # a bug in estconf: one line, not a traceback
        print(
            f"{PROG}: internal error: {type(exc).__name__}: {exc} "
            f"(please report it; set ESTCONF_TRACEBACK=1 for details)",
            file=sys.stderr,
        )
        if os.environ.get("ESTCONF_TRACEBACK"):
            raise
        return EXIT_INTERNAL


def _out(text: str, stream: TextIO | None = None) -> None:
    (stream or sys.stdout).write(text)


# -- validate -------------------------------------------------------------------------


def _check(path: str, kind: str | None, limits: _Limits) -> Result:
    from estconf import files
    from estconf.io.report import Result

    try:
        model = files.load(path, kind, **limits)
    except files.ConfigFileError as exc:
        return Result(path, exc.kind, exc.errors)
    found = kinds.of_model(type(model))
    return Result(path, None if found is None else found.name)


def _validate(args: argparse.Namespace) -> int:
    from estconf.io import report

    limits = _limit_args(args)
    results = [_check(path, args.kind, limits) for path in args.files]
    writer = {
        "text": report.write_text,
        "json": report.write_json,
        "github": report.write_github,
    }[args.format]
    _out(writer(results))
    return EXIT_OK if all(r.valid for r in results) else EXIT_INVALID


# -- schema ---------------------------------------------------------------------------


def _schema(args: argparse.Namespace) -> int:
    from estconf import schema

    if args.output is None:
        if args.kind is None:
            raise _UsageError("give a KIND to print, or -o DIR to write every kind")
        _out(schema.dumps(schema.json_schema(args.kind)))
        return EXIT_OK
    kinds = [args.kind] if args.kind else list(schema.KINDS)
    try:
        os.makedirs(args.output, exist_ok=True)
        for kind in kinds:
            path = os.path.join(args.output, f"{kind}.schema.json")
            with open(path, "w", encoding="utf-8") as file:
                file.write(schema.dumps(schema.json_schema(kind)))
            print(path)
    except OSError as exc:
        print(
            f"{PROG} schema: error: cannot write {args.output}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        return EXIT_INVALID
    return EXIT_OK


# -- explain --------------------------------------------------------------------------


class _Invalid(Exception):
    """Input that is not valid: the results say why."""

    def __init__(self, results: list[Result]) -> None:
        super().__init__()
        self.results = results


def _load_or_fail(path: str, kind: str, limits: _Limits) -> Any:
    from estconf import files
    from estconf.io.report import Result

    try:
        return files.load(path, kind, **limits)
    except files.ConfigFileError as exc:
        raise _Invalid([Result(path, exc.kind, exc.errors)]) from None


def _loads_or_fail(text: str | bytes, name: str, limits: _Limits) -> TFConfig:
    from estconf import TFConfig, files
    from estconf.io.errors import error
    from estconf.io.report import Result

    if not text.strip():
        empty = error(
            name, "tf_config_empty", "TF_CONFIG is set but empty; unset it or give a JSON object"
        )
        raise _Invalid([Result(name, "tf_config", [empty])])
    try:
        return files.loads(text, "json", TFConfig, name=name, **limits)
    except files.ConfigFileError as exc:
        raise _Invalid([Result(name, exc.kind, exc.errors)]) from None


def _explained(args: argparse.Namespace) -> tuple[RunConfig, str]:
    """Build the RunConfig to explain, and say where its TF_CONFIG came from.

    A ``--config`` file with a ``tpu_config`` key is a ``tpu.RunConfig``.
    """
    from estconf import RunConfig

    limits = _limit_args(args)
    config: RunConfig | None = None
    data: dict[str, Any] = {}
    if args.config is not None:
        data = _read_or_fail(args.config, limits)
        kind = "tpu_run_config" if "tpu_config" in data else "run_config"
        config = _load_or_fail(args.config, kind, limits)
    if config is not None and "tf_config" in data:
        if args.tf_config is not None:
            raise _UsageError(
                f"{args.config} has a tf_config key; drop it or --tf-config, not both"
            )
        return config, f"{args.config} (tf_config)"
    if args.tf_config == "-":
        tf_config, source = _loads_or_fail(_read_stdin(limits), "<stdin>", limits), "stdin"
    elif args.tf_config is not None:
        tf_config, source = _load_or_fail(args.tf_config, "tf_config", limits), args.tf_config
    elif "TF_CONFIG" in os.environ:
        tf_config = _loads_or_fail(_environ_bytes("TF_CONFIG"), "$TF_CONFIG", limits)
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
        raise _Invalid([Result(name, "run_config", _errors_of(exc, name))]) from None
    return merged, source


def _read_stdin(limits: _Limits) -> str | bytes:
    """Standard input's bytes (its text, if it has no bytes), refused past the size limit."""
    from estconf.io.checks import MAX_SIZE, read_stream
    from estconf.io.errors import ConfigFileError
    from estconf.io.report import Result

    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        return sys.stdin.read()
    try:
        return read_stream(buffer, "<stdin>", limits.get("max_size", MAX_SIZE))
    except ConfigFileError as exc:
        raise _Invalid([Result("<stdin>", "tf_config", exc.errors)]) from None


def _environ_bytes(name: str) -> bytes:
    """An environment variable's bytes, as the process got them (not necessarily UTF-8)."""
    environb = getattr(os, "environb", None)
    if environb is not None:
        value: bytes = environb[name.encode()]
        return value
    return os.environ[name].encode("utf-8", "surrogateescape")


def _read_or_fail(path: str, limits: _Limits) -> dict[str, Any]:
    from estconf import files
    from estconf.io.errors import error
    from estconf.io.report import Result

    try:
        data = files.read_data(path, **limits)
    except files.ConfigFileError as exc:
        raise _Invalid([Result(path, None, exc.errors)]) from None
    if not isinstance(data, dict):
        refused = error(path, "not_an_object", "a RunConfig file holds an object")
        raise _Invalid([Result(path, None, [refused])])
    return data


def _errors_of(exc: Any, name: str) -> list[Any]:
    """The errors of a ValidationError about no file in particular, as file errors."""
    from estconf.io.errors import error

    return [
        error(name, e["type"], e["msg"], tuple(e["loc"])) for e in exc.errors(include_url=False)
    ]


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


def _explain(args: argparse.Namespace) -> int:
    from estconf.io import report

    try:
        config, source = _explained(args)
    except _Invalid as exc:
        _out(report.write_text(exc.results), sys.stderr)
        return EXIT_INVALID
    data = config.model_dump(mode="json", include={*_EXPLAINED, "tpu_config"})
    facts = {"tf_config_source": source, **{key: data.get(key) for key in _EXPLAINED}}
    if "tpu_config" in data:
        facts["tpu_config"] = {key: data["tpu_config"][key] for key in _TPU_EXPLAINED}
    if args.format == "json":
        _out(json.dumps(facts, indent=2) + "\n")
    else:
        _out(_table(facts))
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


# -- tf-config ------------------------------------------------------------------------


def _tf_config(args: argparse.Namespace) -> int:
    from estconf import files
    from estconf.io import report

    limits = _limit_args(args)
    name = args.cluster
    try:
        data = files.read_data(name, **limits)
    except files.ConfigFileError as exc:
        _out(report.write_text([report.Result(name, None, exc.errors)]), sys.stderr)
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
    limits: _Limits,
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
            errors.extend(_errors_of(exc, f"{name} ({_label(task)})"))
            continue
        dump = json.dumps(tf_config.model_dump(mode="json"), separators=(",", ":"))
        outputs.append((_label(task), dump))
    if errors:
        # a line and column would be those of the generated JSON, not of the file
        unplaced = [dataclasses.replace(error, line=None, column=None) for error in errors]
        _out(report.write_text([report.Result(name, "tf_config", unplaced)]), sys.stderr)
        return EXIT_INVALID
    _out(_tf_config_text(outputs, fmt))
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
