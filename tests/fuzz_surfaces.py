"""Every surface of estconf that reads untrusted input, run in process on one input.

A surface takes an input (its bytes, and the name of the file it is read
from: the name tells the format and, often, the kind) and runs one command
of ``estconf`` or one function of the Python API on it.  What must hold,
whatever the bytes:

- the command exits 0, 1 or 2 and writes no traceback (no ``internal error``);
- the Python API raises nothing but :class:`ValueError` (pydantic's
  ``ValidationError`` and :class:`estconf.files.ConfigFileError` are ones);
- neither hangs: each input is given :data:`HANG_SECONDS`, and is expected to
  take well under :data:`SLOW_SECONDS` (of processor time: the machine may be
  shared).  A slow input is timed again from other stack depths, and only
  the fastest time counts (:data:`RETRY_DEPTHS` says why).

:func:`run` runs a surface and returns a :class:`Failure` when one of these
does not hold.  The property tests of ``tests/test_hostile.py`` and the long
run of ``tools/fuzz.py`` (``make fuzz``) share this module.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from estconf import RunConfig, TFConfig, deployment, files, sagemaker, tpu, vertex
from estconf.cli import main
from estconf.convert.reading import convert_text
from estconf.deployment import check_cluster, read_env_lines, read_json_lines
from estconf.distribute import (
    MultiWorkerConfig,
    ParameterServerConfig,
    ServerConfig,
    SlurmClusterResolver,
    TFConfigClusterResolver,
)
from estconf.io.dump import dumps_manifests
from estconf.kubeflow import TFJob, check, predict, read_tfjobs
from estconf.session_config import ConfigProto

with warnings.catch_warnings():  # the deprecated API is still an input surface
    warnings.simplefilter("ignore", DeprecationWarning)
    from estconf import contrib

ROOT = Path(__file__).resolve().parents[1]

SLOW_SECONDS = 2.0
"""No input under :data:`SLOW_SIZE` may take longer than this on any surface."""
SLOW_SIZE = 150 * 1024
HANG_SECONDS = 20.0
"""An input still running after this long is stopped and counted as a hang."""
RETRY_DEPTHS = (50, 100, 150)
"""The extra stack frames a slow input is timed again under.

CPython 3.11 and later keep the frames of Python calls in chunks of 16 KiB.
A call that starts a new chunk maps memory, and its return unmaps it.  When
a parser's hottest call sits on a chunk's edge, every call and return maps
and unmaps: the same input then takes ten times the processor time, nearly
all of it in the system.  Which input hits the edge depends on the caller's
stack depth (pytest's own, xdist's), not on the input.  A few frames more
move the edge elsewhere.
"""

PROFILES = tuple(deployment.PROFILES)
"""Every reader a TF_CONFIG may be checked for (``--profile``)."""


class Hang(BaseException):
    """Raised into a surface past its time: a ``BaseException``, so no ``except`` eats it."""


@dataclass(frozen=True)
class Failure:
    """What went wrong on one surface with one input."""

    surface: str
    name: str
    kind: str
    """``crash`` (a traceback, an exit status other than 0, 1, 2, an exception
    that is no ``ValueError``), ``hang`` (stopped after :data:`HANG_SECONDS`) or
    ``slow`` (longer than :data:`SLOW_SECONDS`)."""
    detail: str
    seconds: float

    def __str__(self) -> str:
        return (
            f"{self.kind} on {self.surface} with {self.name} ({self.seconds:.2f} s): {self.detail}"
        )


@dataclass(frozen=True)
class Input:
    """An input as a surface gets it: its bytes, and the file name it has."""

    data: bytes
    name: str

    @property
    def suffix(self) -> str:
        return Path(self.name).suffix.lower()

    @property
    def format(self) -> str:
        """The format its name gives (JSON when the name gives none)."""
        return {".toml": "toml", ".yaml": "yaml", ".yml": "yaml"}.get(self.suffix, "json")


# --- the command line ---------------------------------------------------------------------


class _CLIFailure(Exception):
    pass


def _run_cli(argv: list[str], *, stdin: bytes = b"", env: dict[str, bytes] | None = None) -> None:
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="surrogateescape")
    saved_env = {name: os.environb.get(name.encode()) for name in ("TF_CONFIG", *(env or {}))}
    os.environb.pop(b"TF_CONFIG", None)
    for name, value in (env or {}).items():
        os.environb[name.encode()] = value
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status: object = main(argv)
            except SystemExit as exc:
                status = exc.code
    finally:
        sys.stdin = saved_stdin
        for name, saved in saved_env.items():
            if saved is None:
                os.environb.pop(name.encode(), None)
            else:
                os.environb[name.encode()] = saved
    errors = err.getvalue()
    if status not in (0, 1, 2) or "Traceback" in errors or "internal error" in errors:
        raise _CLIFailure(f"exit {status}: {errors.strip()[-600:]}")


def _cli(*args: str) -> Callable[[Input, Path], None]:
    """The command ``estconf ARGS...``, with ``{}`` standing for the input's file."""

    def surface(given: Input, path: Path) -> None:
        _run_cli([str(path) if arg == "{}" else arg for arg in args])

    return surface


def _cli_stdin(*args: str) -> Callable[[Input, Path], None]:
    """The command ``estconf ARGS...`` with the input on standard input."""

    def surface(given: Input, path: Path) -> None:
        _run_cli([given.format if arg == "{format}" else arg for arg in args], stdin=given.data)

    return surface


def _explain_from_environment(given: Input, path: Path) -> None:
    if b"\0" in given.data:
        return  # no environment variable holds a NUL
    _run_cli(["explain", "--readers"], env={"TF_CONFIG": given.data})


def _environment(given: Input) -> dict[str, bytes]:
    """The input read as ``NAME=VALUE`` lines, as an environment holds them."""
    found = {}
    for line in given.data.split(b"\n"):
        name, equals, value = line.partition(b"=")
        if equals and b"\0" not in line and name.isascii() and name.decode().isidentifier():
            found[name.decode()] = value
    return found


def _slurm_from_environment(given: Input, path: Path) -> None:
    _run_cli(
        ["tf-config", "--slurm", "--from-env", "--jobs", "ps=1,worker=3", "--port-base", "8888"],
        env=_environment(given),
    )


def _slurm_from_environment_alone(given: Input, path: Path) -> None:
    """The step as the environment gives it all: its tasks, rank and GPUs; then ``--write``."""
    environ = _environment(given)
    _run_cli(["tf-config", "--slurm", "--from-env", "--rank", "0"], env=environ)
    _run_cli(["tf-config", "--slurm", "--from-env", "--write"], env=environ)


def _slurm_batch_script(given: Input, path: Path) -> None:
    """The input as a batch script: TensorFlow's view of one rank, then every rank's written."""
    _run_cli(["tf-config", "slurm", "--sbatch", str(path), "--rank", "0", "--format", "shell"])
    _run_cli(["tf-config", "slurm", "--sbatch", str(path), "--write", "--gpus-per-task", "1"])


ARGUMENTS_WRITING = "--o"
"""How the options of ``tf-config`` that write files begin (``--out-dir``, and argparse takes
any prefix of it): left out of an input, with their value."""


def arguments(given: Input) -> list[str]:
    """An ``.args`` input as the arguments of ``estconf tf-config``: one a line.

    Each line's bytes are decoded as the system decodes a program's arguments
    (bytes that are not UTF-8 as lone surrogates); ``{ROOT}`` stands for the
    repository, so that an argument can name its files.  No argument holds a
    NUL, and an option that writes files is left out with its value.
    """
    given_lines = given.data.split(b"\n")
    if given_lines and not given_lines[-1]:
        given_lines.pop()
    found: list[str] = []
    skip = False
    for line in given_lines:
        text = line.replace(b"\0", b"").decode("utf-8", "surrogateescape")
        text = text.replace("{ROOT}", str(ROOT))
        if skip:
            skip = False
            continue
        if text.startswith(ARGUMENTS_WRITING):
            skip = "=" not in text
            continue
        found.append(text)
    return found


def _tf_config_arguments(given: Input, path: Path) -> None:
    """The input as the options of ``estconf tf-config`` (the launchers', mostly), one a line.

    Run in the input's directory, so that a relative path names nothing of the project's.
    """
    saved = Path.cwd()
    os.chdir(path.parent)
    try:
        _run_cli(["tf-config", *arguments(given)])
    finally:
        os.chdir(saved)


def _validate_under_pyproject(given: Input, path: Path) -> None:
    project = path.parent / "project"
    project.mkdir(exist_ok=True)
    (project / "pyproject.toml").write_bytes(given.data)
    (project / "tf_config.json").write_bytes((ROOT / "examples/tf_config_worker.json").read_bytes())
    saved = Path.cwd()
    os.chdir(project)
    try:
        _run_cli(["validate", "tf_config.json"])
    finally:
        os.chdir(saved)


# --- the Python API -------------------------------------------------------------------------


def _api_loads(kind: str | None) -> Callable[[Input, Path], None]:
    def surface(given: Input, path: Path) -> None:
        with contextlib.suppress(ValueError):
            files.loads(given.data, given.format, kind, name=given.name)

    return surface


def _api_load(given: Input, path: Path) -> None:
    with contextlib.suppress(ValueError):
        files.load(path)


def _api_models(given: Input, path: Path) -> None:
    try:
        data = files.read_data(path)
    except ValueError:
        return
    for model in (TFConfig, RunConfig):
        with contextlib.suppress(ValueError):
            model.model_validate(data)
    with contextlib.suppress(ValueError):
        RunConfig.model_validate({"tf_config": data})
    if isinstance(data, dict):
        for profile in PROFILES:
            check_cluster([(given.name, data)], profile=profile)


def _api_from_yaml(given: Input, path: Path) -> None:
    with contextlib.suppress(ValueError):
        TFJob.from_yaml(given.data)


def _api_tfjobs(given: Input, path: Path) -> None:
    try:
        jobs = read_tfjobs(given.data)
    except ValueError:
        return
    for job in jobs:
        with contextlib.suppress(ValueError):
            check(job, name="fuzz")
        with contextlib.suppress(ValueError):
            predict(job, name="fuzz")


def _api_convert(given: Input, path: Path) -> None:
    for jobset in (False, True):
        converted = convert_text(given.data, "fuzz", jobset=jobset)
        if not converted.refused:
            dumps_manifests(converted.documents)


def _api_launchers(given: Input, path: Path) -> None:
    try:
        data = files.read_data(path)
    except ValueError:
        return
    with contextlib.suppress(ValueError):
        vertex.tf_configs(data)
    with contextlib.suppress(ValueError):
        vertex.tf_configs(data, trial=1)
    with contextlib.suppress(ValueError):
        vertex.cluster_specs(data)
    for hyperparameters in ({}, {"sagemaker_parameter_server_enabled": True}):
        with contextlib.suppress(ValueError):
            sagemaker.tf_config(data, hyperparameters)
        with contextlib.suppress(ValueError):
            sagemaker.ps_server(data, hyperparameters)
    if isinstance(data, dict):
        with contextlib.suppress(ValueError):
            sagemaker.tf_config({"current_host": "algo-1", "hosts": ["algo-1"]}, data)
        with contextlib.suppress(ValueError):
            sagemaker.check_hyperparameters(data)


def _api_slurm(given: Input, path: Path) -> None:
    environ = {
        name: value.decode("utf-8", "replace") for name, value in _environment(given).items()
    }
    with contextlib.suppress(ValueError):
        resolver = SlurmClusterResolver(environ=environ, gpus_per_node=2)
        resolver.cluster_spec()
        resolver.master()
    with contextlib.suppress(ValueError):
        SlurmClusterResolver(jobs={"ps": 1, "worker": 3}, environ=environ).tf_config  # noqa: B018


def _api_text(given: Input, path: Path) -> None:
    """The input as the ``TF_CONFIG`` every reader takes from the environment (undecodable
    bytes as ``os.environ`` keeps them), and as the JSON text of a ``ConfigProto``."""
    environ = {"TF_CONFIG": given.data.decode("utf-8", "surrogateescape")}
    readers = (
        RunConfig.from_env,
        tpu.RunConfig.from_env,
        contrib.RunConfig.from_env,
        TFConfigClusterResolver.from_env,
        MultiWorkerConfig.from_env,
        ParameterServerConfig.from_env,
        ServerConfig.from_env,
    )
    for reader in readers:
        with contextlib.suppress(ValueError), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # contrib's, on every use
            reader(environ)
    with contextlib.suppress(ValueError):
        ConfigProto.model_validate_json(given.data)


def _api_json_lines(given: Input, path: Path) -> None:
    check_cluster(read_json_lines(given.data, given.name))


def _api_env_lines(given: Input, path: Path) -> None:
    """The input as an env file and as a shell script; one that cannot be read raises ValueError."""
    text = given.data.decode("utf-8", "replace")
    with contextlib.suppress(ValueError):
        check_cluster(read_env_lines(text, given.name), profile="mwms")
    with contextlib.suppress(ValueError):
        check_cluster(read_env_lines(text, given.name, shell=True), profile="ps")


CLI: dict[str, Callable[[Input, Path], None]] = {
    "estconf validate": _cli("validate", "{}"),
    "estconf validate --profile mwms": _cli("validate", "--profile", "mwms", "{}"),
    "estconf validate --profile ps --format json": _cli(
        "validate", "--profile", "ps", "--format", "json", "{}"
    ),
    "estconf validate --profile server --format github --strict": _cli(
        "validate", "--profile", "server", "--format", "github", "--strict", "{}"
    ),
    "estconf validate --kind cluster --profile mwms": _cli(
        "validate", "--kind", "cluster", "--profile", "mwms", "{}"
    ),
    "estconf validate -": _cli_stdin("validate", "--input-format", "{format}", "-v", "-"),
    "estconf validate (pyproject.toml)": _validate_under_pyproject,
    "estconf explain --tf-config": _cli("explain", "--tf-config", "{}"),
    "estconf explain --tf-config --profile estimator --why": _cli(
        "explain", "--tf-config", "{}", "--profile", "estimator", "--why"
    ),
    "estconf explain --tf-config --profile mwms": _cli(
        "explain", "--tf-config", "{}", "--profile", "mwms"
    ),
    "estconf explain --tf-config --profile ps --format json": _cli(
        "explain", "--tf-config", "{}", "--profile", "ps", "--format", "json"
    ),
    "estconf explain --tf-config --profile server": _cli(
        "explain", "--tf-config", "{}", "--profile", "server"
    ),
    "estconf explain --tf-config --readers": _cli("explain", "--tf-config", "{}", "--readers"),
    "estconf explain --config": _cli("explain", "--config", "{}", "--format", "json"),
    "estconf explain (TF_CONFIG)": _explain_from_environment,
    "estconf tf-config": _cli("tf-config", "{}"),
    "estconf tf-config --profile mwms --format k8s": _cli(
        "tf-config", "{}", "--profile", "mwms", "--format", "k8s"
    ),
    "estconf tf-config --tfjob": _cli("tf-config", "--tfjob", "{}"),
    "estconf tf-config --tfjob --format shell": _cli(
        "tf-config", "--tfjob", "{}", "--format", "shell"
    ),
    "estconf tf-config jobset": _cli("tf-config", "jobset", "{}"),
    "estconf tf-config trainjob --format shell": _cli(
        "tf-config", "trainjob", "{}", "--format", "shell"
    ),
    "estconf convert tfjob-to-trainjob": _cli("convert", "tfjob-to-trainjob", "{}"),
    "estconf convert tfjob-to-trainjob --jobset --namespace ml": _cli(
        "convert", "tfjob-to-trainjob", "{}", "--jobset", "--namespace", "ml"
    ),
    "estconf check-cluster": _cli("check-cluster", "{}"),
    "estconf check-cluster --profile mwms": _cli("check-cluster", "--profile", "mwms", "{}"),
    "estconf check-cluster --profile ps --format json": _cli(
        "check-cluster", "--profile", "ps", "--format", "json", "{}"
    ),
    "estconf check-cluster --profile server --format github": _cli(
        "check-cluster", "--profile", "server", "--format", "github", "{}"
    ),
    "estconf check-cluster --profile mwms --format sarif": _cli(
        "check-cluster", "--profile", "mwms", "--format", "sarif", "{}"
    ),
    "estconf check-cluster -": _cli_stdin("check-cluster", "-"),
    "estconf check-cluster --strict": _cli("check-cluster", "--strict", "{}"),
    "estconf tf-config volcano --format pods": _cli(
        "tf-config", "volcano", "{}", "--format", "pods"
    ),
    "estconf tf-config volcano --profile mwms --format shell": _cli(
        "tf-config", "volcano", "{}", "--profile", "mwms", "--format", "shell"
    ),
    "estconf tf-config --vertex": _cli("tf-config", "--vertex", "{}"),
    "estconf tf-config --vertex --cluster-spec --profile mwms": _cli(
        "tf-config", "--vertex", "{}", "--cluster-spec", "--profile", "mwms"
    ),
    "estconf tf-config --sagemaker --resource-config": _cli(
        "tf-config", "--sagemaker", "--resource-config", "{}", "--profile", "ps"
    ),
    "estconf tf-config --sagemaker --hyperparameters": _cli(
        "tf-config", "--sagemaker", "--instance-count", "3", "--hyperparameters", "{}"
    ),
    "estconf tf-config --slurm --from-env": _slurm_from_environment,
    "estconf tf-config --slurm --from-env (the step's own tasks and GPUs)": (
        _slurm_from_environment_alone
    ),
    "estconf tf-config OPTIONS (the launchers')": _tf_config_arguments,
    "estconf tf-config slurm --sbatch": _slurm_batch_script,
}
"""The commands, run in process as ``estconf.cli.main([...])``."""

API: dict[str, Callable[[Input, Path], None]] = {
    "files.loads": _api_loads(None),
    "files.loads tf_config": _api_loads("tf_config"),
    "files.loads run_config": _api_loads("run_config"),
    "files.loads tpu_run_config": _api_loads("tpu_run_config"),
    "files.loads cluster": _api_loads("cluster"),
    "files.load": _api_load,
    "files.read_data, model_validate, check_cluster": _api_models,
    "TFJob.from_yaml": _api_from_yaml,
    "read_tfjobs, check, predict": _api_tfjobs,
    "convert_text, dumps_manifests": _api_convert,
    "check_cluster(read_json_lines)": _api_json_lines,
    "check_cluster(read_env_lines)": _api_env_lines,
    "vertex.tf_configs, sagemaker.tf_config": _api_launchers,
    "SlurmClusterResolver(environ)": _api_slurm,
    "from_env(TF_CONFIG), ConfigProto.model_validate_json": _api_text,
}
"""The functions of the Python API that read untrusted input."""

SURFACES = {**CLI, **API}
"""Every surface by name."""
SEED_SUFFIXES: dict[str, frozenset[str]] = {
    "estconf tf-config OPTIONS (the launchers')": frozenset({".args"}),
    "estconf tf-config slurm --sbatch": frozenset({".sbatch"}),
}
"""The surfaces whose inputs are best mutated from seeds of these suffixes (any input runs)."""
CLI_SURFACES = tuple(CLI)
API_SURFACES = tuple(API)


# --- running one input ----------------------------------------------------------------------


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread once it has had ``seconds`` of processor time.

    Processor time, not time on the clock, so that other work on a shared
    machine does not make an input look slow.
    """

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


@contextlib.contextmanager
def workdir() -> Iterator[Path]:
    """A directory for the input files, in memory where the system has one."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="estconf-fuzz-", dir=base) as name:
        yield Path(name)


def run(
    surface: str,
    given: Input,
    directory: Path,
    *,
    hang_seconds: float = HANG_SECONDS,
    slow_seconds: float = SLOW_SECONDS,
) -> tuple[Failure | None, float]:
    """Run ``surface`` on ``given``, written in ``directory``: its failure (or None), its time.

    The time is processor time (user and system), as for :data:`HANG_SECONDS`.
    """
    path = directory / (Path(given.name).name or "input")
    path.write_bytes(given.data)
    call = SURFACES[surface]
    start = time.process_time()
    failure: Failure | None = None
    try:
        with _time_limit(hang_seconds):
            call(given, path)
    except Hang as exc:
        failure = Failure(surface, given.name, "hang", str(exc), time.process_time() - start)
    except _CLIFailure as exc:
        failure = Failure(surface, given.name, "crash", str(exc), time.process_time() - start)
    except Exception as exc:
        head = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-4:])
        failure = Failure(surface, given.name, "crash", head.strip()[-1200:], 0.0)
    seconds = time.process_time() - start
    if failure is None and seconds > slow_seconds and len(given.data) < SLOW_SIZE:
        seconds = min(
            seconds,
            *(_seconds_deeper(frames, call, given, path, hang_seconds) for frames in RETRY_DEPTHS),
        )
        if seconds > slow_seconds:
            failure = Failure(surface, given.name, "slow", f"{len(given.data)} bytes", seconds)
    return failure, seconds


def _seconds_deeper(
    frames: int,
    call: Callable[[Input, Path], None],
    given: Input,
    path: Path,
    hang_seconds: float,
) -> float:
    """The processor time of ``call`` on ``given``, run ``frames`` stack frames deeper.

    A run that fails or hangs this time gives no time (infinity): the first
    run alone decides whether the input fails.
    """
    start = time.process_time()
    try:
        with _time_limit(hang_seconds):
            _deeper(frames, lambda: call(given, path))
    except (Exception, Hang):
        return float("inf")
    return time.process_time() - start


def _deeper(frames: int, call: Callable[[], None]) -> None:
    if frames:
        _deeper(frames - 1, call)
    else:
        call()


def problems(given: Input, directory: Path, surfaces: tuple[str, ...] | None = None) -> list[str]:
    """Every failure of ``given`` on ``surfaces`` (all of them by default), as sentences."""
    found = []
    for surface in surfaces or tuple(SURFACES):
        failure, _ = run(surface, given, directory)
        if failure is not None:
            found.append(str(failure))
    return found


def seeds() -> list[Input]:
    """The real files mutated: the configs, manifests, node files and batch scripts of the tests.

    With them, what ``estconf tf-config`` writes for ``examples/cluster/training.yaml`` in
    each format (JSON lines, an env file, a shell script, a Kubernetes env list), which
    ``check-cluster`` reads.
    """
    suffixes = {
        *(".json", ".yaml", ".yml", ".toml", ".jsonl", ".env", ".sh", ".ndjson", ".args"),
        ".sbatch",
    }
    found = [
        Input(path.read_bytes(), path.name)
        for top in ("tests/data", "examples")
        for path in sorted((ROOT / top).rglob("*"))
        if path.is_file() and path.suffix in suffixes and not path.name.startswith(".")
    ]
    cluster = str(ROOT / "examples/cluster/training.yaml")
    for output, suffix in (
        ("jsonl", ".jsonl"),
        ("env", ".env"),
        ("shell", ".sh"),
        ("k8s", ".yaml"),
    ):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(["tf-config", cluster, "--format", output])
        found.append(Input(out.getvalue().encode(), f"nodes{suffix}"))
    return found


def describe(value: Any) -> str:
    """A short repr of an input for a failure message."""
    text = repr(value)
    return text if len(text) < 300 else text[:300] + "..."
