"""The differential oracle: run one input through TensorFlow and estconf, and judge.

The rule, for every input:

- TensorFlow accepts it: estconf gives equal values, or rejects it only under
  a rule of docs/compatibility.md's "Stricter than TensorFlow" (the
  deliberate, documented strictness), decided by
  :func:`deliberate_tf_config` / :func:`deliberate_cluster` /
  :func:`deliberate_kwargs`, and every error estconf reports is explained by
  one of those rules.
- TensorFlow rejects it (any exception): estconf raises a ``ValueError``; when
  TensorFlow's message is one of its own sentences (:data:`TF_SENTENCES`),
  estconf's message contains that sentence.

Nothing here imports TensorFlow at module level, so the classifier and the
strategies are importable (and tested) without it.
"""

from __future__ import annotations

import difflib
import importlib.metadata
import ipaddress
import json
import math
import numbers
import os
import re
import threading
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import event
from hypothesis.control import currently_in_test_context
from pydantic import ValidationError

NEEDS_TF = (
    "needs tensorflow 2.15 and tensorflow-estimator 2.15 (not installed here); "
    "`make compat` installs them in .venv-tf and runs this suite"
)
"""Why the differential tests that need tensorflow-estimator skip without it."""

NEEDS_TF_ALONE = (
    "needs tensorflow 2.15 or 2.21 (not installed here); "
    "`make compat` installs each in a venv of its own (.venv-tf, .venv-tf221) and runs this suite"
)
"""Why the differential tests that need TensorFlow alone skip without it."""

ESTIMATOR_RELEASES = ("2.15.",)
"""The TensorFlow releases the suites that need the estimator run against (its last is 2.15)."""

TENSORFLOW_RELEASES = ("2.15.", "2.21.")
"""The TensorFlow releases the suites that need no estimator run against."""

TF_CONFIG = "TF_CONFIG"


def tensorflow_version() -> str:
    """The installed TensorFlow's version (of ``tensorflow-cpu`` or ``tensorflow``)."""
    for dist in ("tensorflow-cpu", "tensorflow"):
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return "unknown"  # pragma: no cover - importorskip passed, so some distribution is there


def require_versions(*, estimator: bool = True) -> None:
    """Skip the calling module unless the TensorFlow installed is one the suite runs against.

    With ``estimator``: TensorFlow and tensorflow-estimator both 2.15.  Without:
    TensorFlow 2.15 or 2.21, whatever the estimator.
    """
    tf_version = tensorflow_version()
    if not estimator:
        if not tf_version.startswith(TENSORFLOW_RELEASES):
            pytest.skip(f"{NEEDS_TF_ALONE}; found tensorflow {tf_version}", allow_module_level=True)
        return
    est_version = importlib.metadata.version("tensorflow-estimator")
    if not (tf_version.startswith(ESTIMATOR_RELEASES) and est_version.startswith("2.15.")):
        pytest.skip(
            f"{NEEDS_TF}; found tensorflow {tf_version}, tensorflow-estimator {est_version}",
            allow_module_level=True,
        )


def import_tensorflow(*, estimator: bool = True) -> Any:
    """Import TensorFlow, or skip the calling module saying why.

    With ``estimator`` (the Estimator's and the TPU readers' suites, and those
    that use them): TensorFlow 2.15 and tensorflow-estimator 2.15.  Without (the
    tf.distribute readers, ``tf.train.ClusterSpec`` and ``tf.train.Server``,
    SLURM): TensorFlow 2.15 or 2.21, and nothing of the estimator is imported.
    """
    reason = NEEDS_TF if estimator else NEEDS_TF_ALONE
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tf = pytest.importorskip("tensorflow", reason=reason)
        if estimator:
            pytest.importorskip("tensorflow_estimator", reason=reason)
    require_versions(estimator=estimator)
    quiet_tensorflow(tf)
    return tf


def quiet_tensorflow(tf: Any) -> None:
    """Silence TensorFlow's deprecation and info logging for the run."""
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    tf.get_logger().setLevel("ERROR")


# --------------------------------------------------------------------------
# The process environment TensorFlow reads

ENV_LOCK = threading.RLock()


@contextmanager
def tf_config_env(text: str | None) -> Iterator[None]:
    """Set (or, for None, unset) ``TF_CONFIG`` for the block, then restore it."""
    with ENV_LOCK:
        saved = os.environ.get(TF_CONFIG)
        if text is None:
            os.environ.pop(TF_CONFIG, None)
        else:
            os.environ[TF_CONFIG] = text
        try:
            yield
        finally:
            if saved is None:
                os.environ.pop(TF_CONFIG, None)
            else:
                os.environ[TF_CONFIG] = saved


def environ_of(text: str | None) -> dict[str, str]:
    """The ``environ`` mapping for estconf's ``from_env`` that matches :func:`tf_config_env`."""
    return {} if text is None else {TF_CONFIG: text}


# --------------------------------------------------------------------------
# Outcomes


@dataclass(frozen=True)
class Outcome:
    """What one side did with an input: a value, or the exception it raised."""

    value: Any = None
    error: BaseException | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def attempt(fn: Callable[[], Any]) -> Outcome:
    """Run ``fn``; keep its value or the exception it raised."""
    try:
        return Outcome(value=fn())
    except Exception as exc:
        return Outcome(error=exc)


def tf_attempt(text: str | None, fn: Callable[[], Any]) -> Outcome:
    """Run ``fn`` (which builds TensorFlow objects) with ``TF_CONFIG`` set to ``text``."""
    with tf_config_env(text):
        return attempt(fn)


# --------------------------------------------------------------------------
# TensorFlow's sentences

TF_SENTENCES: list[re.Pattern[str]] = [
    re.compile(p, re.DOTALL)
    for p in [
        # run_config.py
        r"`save_checkpoints_steps` and `save_checkpoints_secs` cannot be both set\.",
        r'If "cluster" is set in TF_CONFIG, it must have one "\w+" node\.',
        r'The "cluster" in TF_CONFIG must have only one "\w+" node\.',
        r'If "cluster" is set in TF_CONFIG, task type must be set\.',
        r'If "cluster" is set in TF_CONFIG, task index must be set\.',
        r"Task index must be non-negative number\.",
        r".*? is not a valid task_type in the cluster_spec:",
        r"-?\d+ is not a valid task_id for task_type .*? in the cluster_spec:",
        r'If "cluster" is not set in TF_CONFIG, task type must be WORKER\.',
        r'If "cluster" is not set in TF_CONFIG, task index must be 0\.',
        r"If `master` node exists in `cluster`, job `chief` is not supported\.",
        r"If `master` node exists in `cluster`, task_type `evaluator` is not supported\.",
        r'If "service" is set in TF_CONFIG, it must be a dict\. Given .*',
        r"model_dir in TF_CONFIG should be non-empty\.",
        r"model_dir should be non-empty",
        r"`model_dir` provided in RunConfig construct, if set, must have the same value "
        r"as the model_dir in TF_CONFIG\.",
        r"\w+ should be >= 0",
        r"\w+ should be > 0",
        r"tf_random_seed must be integer\.",
        r"experimental_max_worker_delay_secs must be an integer if set\.",
        r'device_fn must be callable with exactly one argument "op"\.',
        r"protocol should be grpc or grpc\+verbs",
        r"Replacing \w+ is not supported\. Allowed properties are \[.*?\]\.",
        # tpu/tpu_config.py and tpu/util.py
        r"input_partition_dims must be a list/tuple with one or two elements\.",
        r"input_partition_dims is only supported in PER_HOST_V2 mode\.",
        r"input_partition_dims requires setting num_cores_per_replica\.",
        r"num_cores_per_replica must be 1, 2, 4, 8, 16, 32, 64, 128; got .*",
        r"eval_training_input_configuration must be PER_HOST_V1 or SLICED; got .*",
        r"Invalid TPUConfig `iterations_per_loop` value\.",
        r"TPUConfig \w+ must be positive, got .*",
        # server_lib.py (tf.train.ClusterSpec)
        r"`cluster` must be a dictionary mapping one or more job names to lists of network "
        r"addresses, or a `ClusterDef` protocol buffer",
        r"The tasks for job .*? must be a list or a dictionary from integers to strings\.",
        r"Task address .*? must be bytes or unicode",
        r"No such job in cluster: .*",
        r"No task with index .*? in job .*",
    ]
]
"""TensorFlow's own error sentences; the matched part must appear in estconf's message."""


def tf_sentence(error: BaseException) -> str | None:
    """The part of TensorFlow's message that estconf must repeat, or None."""
    message = str(error)
    for pattern in TF_SENTENCES:
        match = pattern.match(message)
        if match:
            return match.group(0)
    return None


# --------------------------------------------------------------------------
# docs/compatibility.md, "Stricter than TensorFlow": the inputs estconf rejects on purpose

RULES = frozenset(
    {
        "address",
        "job_name",
        "int_type",
        "type",
        "enum",
        "value",
        "sparse",
        "duplicate_key",
        "unknown_key",
        "invariant",
        "top_level_jobs",
        "job_name_near_miss",
    }
)

CODE_RULES: dict[str, frozenset[str]] = {
    "address": frozenset({"address"}),
    "job_name": frozenset({"job_name"}),
    "int_type": frozenset({"int_type", "type"}),
    "int_from_float": frozenset({"int_type"}),
    "int_parsing": frozenset({"int_type", "type"}),
    "empty_job": frozenset({"sparse"}),
    "sparse_index_negative": frozenset({"sparse"}),
    "sparse_index_repeated": frozenset({"sparse"}),
    "sparse_index_too_large": frozenset({"sparse"}),
    "task_in_hole": frozenset({"sparse"}),
    "duplicate_key": frozenset({"duplicate_key"}),
    "top_level_jobs": frozenset({"top_level_jobs"}),
    "job_name_near_miss": frozenset({"job_name_near_miss"}),
    "extra_forbidden": frozenset({"unknown_key"}),
    "unknown_key": frozenset({"unknown_key"}),
    "enum": frozenset({"enum"}),
    "value": frozenset({"value"}),
    "invariant": frozenset({"invariant"}),
    # estconf.tpu: non-positive dims ("value") or a product other than the cores
    "partition_dims": frozenset({"value", "invariant"}),
    "iterations_per_loop": frozenset({"value"}),
    # A reader that never reads the task or the service (the tf.distribute readers,
    # the estimator's distribute coordinator) leaves these unchecked.
    "negative_index": frozenset({"negative_index"}),
    "tf_config_type": frozenset({"type"}),
    "service_type": frozenset({"type"}),
}
for _code in (
    "type",
    "string_type",
    "bool_type",
    "float_type",
    "dict_type",
    "list_type",
    "model_type",
    "model_attributes_type",
    "is_instance_of",
    "callable_type",
    "none_required",
):
    CODE_RULES[_code] = frozenset({"type"})


def error_codes(error: BaseException) -> list[str]:
    """The error types of a pydantic error (empty for any other exception)."""
    if isinstance(error, ValidationError):
        return [str(e["type"]) for e in error.errors()]
    code = getattr(error, "code", None)
    return [code] if isinstance(code, str) else []


def unexplained_codes(error: BaseException, rules: set[str]) -> list[str]:
    """The error types of ``error`` that none of ``rules`` accounts for."""
    return [code for code in error_codes(error) if not CODE_RULES.get(code, frozenset()) & rules]


_ASCII_INT = re.compile(r"-?[0-9]+", re.ASCII)
_JOB = re.compile(r"[A-Za-z][A-Za-z0-9_]*", re.ASCII)
_PORT = re.compile(r"0|[1-9][0-9]{0,4}", re.ASCII)
_LABEL = re.compile(r"[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?", re.ASCII)
_ZONE = re.compile(r"[A-Za-z0-9_.-]+", re.ASCII)


def address_problem(address: str) -> bool:
    """Whether ``address`` is not a ``host:port`` that estconf's rule accepts."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not _PORT.fullmatch(port) or int(port) > 65535:
        return True
    if host.startswith("[") and host.endswith("]"):
        ip, _, zone = host[1:-1].partition("%")
        if "%" in host[1:-1] and not _ZONE.fullmatch(zone):
            return True
        try:
            ipaddress.IPv6Address(ip)
        except ValueError:
            return True
        return False
    labels = host.split(".")
    if len(host) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        return True
    if all(label.isdigit() for label in labels):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return True
    return False


def address_identity(address: str) -> str:
    """Two addresses with the same identity name the same server."""
    host, _, port = address.rpartition(":")
    if host.startswith("["):
        host = "[" + ipaddress.IPv6Address(host[1:-1].partition("%")[0]).compressed + "]"
    return f"{host.lower()}:{int(port)}"


def index_rules(value: Any) -> set[str]:
    """Section 6 rules for a value TensorFlow reads with ``int()``, if it reads it at all."""
    if isinstance(value, bool):
        return {"int_type"}
    if isinstance(value, float):
        return set() if not math.isfinite(value) or value.is_integer() else {"int_type"}
    if isinstance(value, str) and not _ASCII_INT.fullmatch(value):
        try:
            int(value)
        except ValueError:
            return set()  # TensorFlow rejects it too
        return {"int_type"}
    return set()


def _tf_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return None


KNOWN_JOBS = ("chief", "master", "worker", "ps", "evaluator")
"""The jobs TensorFlow's readers give a meaning to."""

_OWN_KEYS = frozenset(
    {
        "cluster",
        "task",
        "environment",
        "session_master",
        "eval_session_master",
        "model_dir",
        "service",
        "rpc_layer",
        "job",
    }
)


def misspelled_job(name: Any) -> bool:
    """Whether ``name`` is not a known job but at least 80% alike to one, letter case ignored."""
    if not isinstance(name, str) or name in KNOWN_JOBS:
        return False
    return any(
        difflib.SequenceMatcher(None, name.lower(), job).ratio() >= 0.8 for job in KNOWN_JOBS
    )


def top_level_jobs(data: Mapping[Any, Any]) -> bool:
    """Whether a TF_CONFIG object holds a job (or a misspelled one holding tasks) at its top."""
    return any(
        key in KNOWN_JOBS or (misspelled_job(key) and isinstance(value, (list, dict)))
        for key, value in data.items()
        if key not in _OWN_KEYS
    )


def deliberate_cluster(cluster: Any) -> set[str]:
    """Section 6 rules that a cluster (as given to ``tf.train.ClusterSpec``) falls under."""
    rules: set[str] = set()
    if not isinstance(cluster, Mapping):
        return rules
    seen: set[str] = set()

    def address(value: Any) -> None:
        if isinstance(value, bytes):
            rules.add("type")
        elif isinstance(value, str):
            if address_problem(value):
                rules.add("address")
            else:
                identity = address_identity(value)
                if identity in seen:
                    rules.add("address")
                seen.add(identity)

    for job, tasks in cluster.items():
        if misspelled_job(job):
            rules.add("job_name_near_miss")
        if isinstance(job, bytes):
            rules.add("type")
        elif isinstance(job, str) and not _JOB.fullmatch(job):
            rules.add("job_name")
        if isinstance(tasks, (list, tuple)):
            if not tasks:
                rules.add("sparse")
            for value in tasks:
                address(value)
        elif isinstance(tasks, Mapping):
            if not tasks:
                rules.add("sparse")
            indices: list[int] = []
            for key, value in tasks.items():
                rules |= index_rules(key)
                index = _tf_int(key)
                if index is not None:
                    indices.append(index)
                address(value)
            if any(i < 0 for i in indices) or len(set(indices)) != len(indices):
                rules.add("sparse")
    return rules


def _json_pairs_with_duplicates(text: str) -> bool:
    found = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal found
        if len({key for key, _ in items}) != len(items):
            found = True
        return dict(items)

    try:
        json.loads(text, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return False
    return found


def parse_like_tensorflow(text: str | None) -> Any:
    """What TensorFlow's ``json.loads`` makes of ``TF_CONFIG`` (``{}`` when unset)."""
    return json.loads("{}" if text is None else text)


def deliberate_tf_config(text: str | None) -> set[str]:
    """Section 6 rules that a ``TF_CONFIG`` value (None: unset) falls under."""
    if text is None:
        return set()
    rules: set[str] = set()
    if _json_pairs_with_duplicates(text):
        rules.add("duplicate_key")
    try:
        data = parse_like_tensorflow(text)
    except (ValueError, RecursionError):
        return rules
    if not isinstance(data, dict):
        return rules
    cluster = data.get("cluster", {})
    rules |= deliberate_cluster(cluster)
    if top_level_jobs(data):
        rules.add("top_level_jobs")
    for key in ("session_master", "eval_session_master", "environment", "rpc_layer"):
        if key in data and not isinstance(data[key], str):
            rules.add("type")
    if data.get("model_dir") is not None and not isinstance(data["model_dir"], str):
        rules.add("type")
    task = data.get("task", {})
    if isinstance(task, dict):
        task_type = task.get("type")
        if task_type is not None and not isinstance(task_type, str):
            rules.add("type")
        rules |= index_rules(task.get("index"))
        # The node's own task is a hole of a sparse job (TensorFlow fails on it
        # only when it has to build the master from the address).
        index = _tf_int(task.get("index"))
        if (
            isinstance(cluster, dict)
            and isinstance(task_type, str)
            and isinstance(cluster.get(task_type), dict)
            and index is not None
        ):
            keys = {_tf_int(k) for k in cluster[task_type]}
            if index not in keys and 0 <= index <= max(
                (k for k in keys if k is not None), default=-1
            ):
                rules.add("sparse")
    return rules


def unread_index_rules(value: Any) -> set[str]:
    """Section 6 rules for a task index that a reader may never read, so any unreadable one."""
    if value is None:
        return {"type"}
    if isinstance(value, bool):
        return {"int_type"}
    if isinstance(value, int):
        return {"negative_index"} if value < 0 else set()
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            return {"int_type"}
        return {"negative_index"} if value < 0 else set()
    if isinstance(value, str) and _ASCII_INT.fullmatch(value):
        try:
            return {"negative_index"} if int(value) < 0 else set()
        except ValueError:  # more digits than Python converts
            return {"int_type"}
    return {"int_type"}


def deliberate_unread(text: str | None) -> set[str]:
    """Section 6 rules of a ``TF_CONFIG`` for a reader that may not read its task or service.

    The tf.distribute readers, and the estimator when a training strategy
    hands the cluster to the distribute coordinator.  The estimator's rules
    (:func:`deliberate_tf_config`), and: a TF_CONFIG that is not an object
    (the readers read it as empty); a task that is not an object, a null task
    type or index (read as ``'None'``, or failing only when read); an index
    that is not an integer; a negative index; a ``service`` that is not an
    object (only the Estimator's own reading looks at it).
    """
    rules = deliberate_tf_config(text)
    if text is None:
        return rules
    try:
        data = parse_like_tensorflow(text)
    except (ValueError, RecursionError):
        return rules
    if not isinstance(data, dict):
        return rules | {"type"}
    task = data.get("task", {})
    if not isinstance(task, dict):
        rules.add("type")
        task = {}
    if "type" in task and not isinstance(task["type"], str):
        rules.add("type")
    if "index" in task:
        rules |= unread_index_rules(task["index"])
    if data.get("service") is not None and not isinstance(data["service"], dict):
        rules.add("type")
    return rules


# --------------------------------------------------------------------------
# The oracle


class Mismatch(AssertionError):
    """estconf and TensorFlow disagree on an input."""


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def judge(
    what: str,
    tf: Outcome,
    ours: Outcome,
    rules: set[str],
    compare: Callable[[Any, Any], None],
) -> None:
    """Apply the oracle to one input (described by ``what``); raise :class:`Mismatch`."""
    if currently_in_test_context():  # shown by --hypothesis-show-statistics
        event(
            f"TensorFlow {'accepts' if tf.ok else 'rejects'}, "
            f"estconf {'accepts' if ours.ok else 'rejects'}"
        )
    if ours.error is not None and not isinstance(ours.error, ValueError):
        raise Mismatch(
            f"{what}\nestconf raised a non-ValueError: {_describe(ours.error)}"
            + (f"\nTensorFlow: {_describe(tf.error)}" if tf.error else "\nTensorFlow accepted it")
        ) from ours.error
    if tf.ok and ours.ok:
        try:
            compare(tf.value, ours.value)
        except AssertionError as exc:
            raise Mismatch(f"{what}\nboth accept, values differ: {exc}") from exc
        return
    if tf.ok:
        assert ours.error is not None
        if not rules:
            raise Mismatch(
                f"{what}\nTensorFlow accepts it, estconf rejects it under no section 6 rule:\n"
                f"{_describe(ours.error)}"
            )
        stray = unexplained_codes(ours.error, rules)
        if stray:
            raise Mismatch(
                f"{what}\nTensorFlow accepts it; section 6 rules {sorted(rules)} apply, but "
                f"estconf also reports {stray}:\n{_describe(ours.error)}"
            )
        return
    assert tf.error is not None
    if ours.ok:
        raise Mismatch(
            f"{what}\nTensorFlow rejects it ({_describe(tf.error)}), estconf accepts it: "
            f"{ours.value!r}"
        )
    assert ours.error is not None
    # TensorFlow's sentence is there even when a stricter rule of section 6
    # refuses the input too: estconf reads on as TensorFlow would.
    sentence = tf_sentence(tf.error)
    if sentence is not None and sentence not in str(ours.error):
        raise Mismatch(
            f"{what}\nboth reject it, but estconf's message lacks TensorFlow's sentence "
            f"{sentence!r}:\nTensorFlow: {_describe(tf.error)}\n"
            f"estconf: {_describe(ours.error)}"
        )


def same(label: str, tf_value: Any, our_value: Any) -> None:
    """Assert two property values are equal, bools only equal to bools."""
    if isinstance(tf_value, bool) or isinstance(our_value, bool):
        ok = type(tf_value) is type(our_value) and tf_value == our_value
    else:
        ok = tf_value == our_value
    assert ok, f"{label}: TensorFlow {tf_value!r}, estconf {our_value!r}"


HUGE_INDEX = 100_000
"""Above this sparse index, ``job_tasks`` lists are compared by length only."""


def same_cluster(label: str, tf_spec: Any, ours: Any) -> None:
    """Assert a ``tf.train.ClusterSpec`` and an ``estconf.ClusterSpec`` hold the same cluster."""
    same(f"{label}.jobs", tf_spec.jobs, ours.jobs)
    same(f"bool({label})", bool(tf_spec), bool(ours))
    tf_dict, our_dict = tf_spec.as_dict(), ours.as_dict()
    same(f"{label}.as_dict()", tf_dict, our_dict)
    for job in tf_spec.jobs:
        same(f"{label}.as_dict()[{job!r}] type", type(tf_dict[job]), type(our_dict[job]))
        same(f"{label}.num_tasks({job!r})", tf_spec.num_tasks(job), ours.num_tasks(job))
        same(f"{label}.task_indices({job!r})", tf_spec.task_indices(job), ours.task_indices(job))
        if max(tf_spec.task_indices(job), default=0) < HUGE_INDEX:
            same(f"{label}.job_tasks({job!r})", tf_spec.job_tasks(job), ours.job_tasks(job))
        else:  # too long a list to build twice; compare its length
            same(
                f"len({label}.job_tasks({job!r}))",
                max(tf_spec.task_indices(job)) + 1,
                ours.job_size(job),
            )
        for index in tf_spec.task_indices(job):
            same(
                f"{label}.task_address({job!r}, {index})",
                tf_spec.task_address(job, index),
                ours.task_address(job, index),
            )


# --------------------------------------------------------------------------
# Keyword arguments

INTEGER_ARGUMENTS = frozenset(
    {"save_summary_steps", "save_checkpoints_steps", "keep_checkpoint_max", "log_step_count_steps"}
)
NUMBER_ARGUMENTS = frozenset(
    {"save_checkpoints_secs", "keep_checkpoint_every_n_hours", "session_creation_timeout_secs"}
)
ISINSTANCE_INT_ARGUMENTS = frozenset({"tf_random_seed", "experimental_max_worker_delay_secs"})


def is_bool(value: Any) -> bool:
    """A bool, Python's or numpy's."""
    kind = type(value)
    return isinstance(value, bool) or (kind.__module__ == "numpy" and kind.__name__ == "bool_")


def is_fraction(value: Any) -> bool:
    """A number of no integer type that is not whole: ``1.5``, ``Fraction(3, 2)``, a NaN."""
    if isinstance(value, Decimal):
        return not value.is_finite() or value != value.to_integral_value()
    if isinstance(value, Fraction):
        return value.denominator != 1
    is_integer = getattr(value, "is_integer", None)
    return (
        not is_bool(value)
        and not isinstance(value, int)
        and callable(is_integer)
        and (not is_integer())
    )


def _kwarg_rules(name: str, value: Any) -> set[str]:
    if name in INTEGER_ARGUMENTS | NUMBER_ARGUMENTS | ISINSTANCE_INT_ARGUMENTS:
        too_long = isinstance(value, Decimal) and value.is_finite() and value.adjusted() >= 4300
        bad = is_bool(value) or (name in INTEGER_ARGUMENTS and (is_fraction(value) or too_long))
        return {"int_type"} if bad else set()
    expected: dict[str, tuple[type, ...]] = {
        "model_dir": (str, os.PathLike),
        "checkpoint_save_graph_def": (bool,),
        "master": (str,),  # tpu.RunConfig
        "evaluation_master": (str,),
    }
    if name in expected and value is not None and not isinstance(value, expected[name]):
        return {"type"}
    return set()


def deliberate_kwargs(kwargs: Mapping[str, Any]) -> set[str]:
    """Section 6 rules that ``tf.estimator.RunConfig`` keyword arguments fall under."""
    rules: set[str] = set()
    for name, value in kwargs.items():
        rules |= _kwarg_rules(name, value)
    return rules


ITERATIONS = re.compile(r"[1-9][0-9]*[smh]?", re.ASCII)
PIPELINE_MODES = (1, 2, 3, 4, 5)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_whole(value: Any) -> bool:
    """An integer as estconf's ``Integer`` reads one: an ``int``, or a whole number of
    another type (``2.0``, ``Decimal(2)``, ``Fraction(4, 2)``, numpy's)."""
    if _is_int(value):
        return True
    if is_bool(value) or isinstance(value, str) or not isinstance(value, numbers.Number):
        return False
    if isinstance(value, Decimal) and value.is_finite() and value.adjusted() >= 4300:
        return False
    return hasattr(value, "__index__") or not is_fraction(value)


def _dims_rules(dims: Any, cores: Any) -> set[str]:
    """Rules for the entries of ``input_partition_dims`` (TensorFlow checks only its length)."""
    rules: set[str] = set()
    if not isinstance(dims, (list, tuple)):
        return {"type"}
    for entry in dims:
        leaves = list(entry.values()) if isinstance(entry, dict) else [entry]
        if not isinstance(entry, (list, tuple, dict)) and entry is not None:
            rules.add("type")
            continue
        if isinstance(entry, (list, tuple)):
            leaves = [entry]
        for leaf in leaves:
            if leaf is None:
                continue
            if not isinstance(leaf, (list, tuple)) or not all(map(_is_whole, leaf)):
                rules.add("type")
            elif any(d < 1 for d in leaf):
                rules.add("value")
            elif isinstance(cores, (int, float)) and math.prod(map(int, leaf)) != cores:
                rules.add("invariant")
    return rules


def deliberate_tpu_kwargs(kwargs: Mapping[str, Any]) -> set[str]:
    """Section 6 rules that ``tf.estimator.tpu.TPUConfig`` keyword arguments fall under."""
    rules: set[str] = set()
    for name, value in kwargs.items():
        if name == "iterations_per_loop":
            if isinstance(value, bool) or (
                isinstance(value, str) and not ITERATIONS.fullmatch(value)
            ):
                rules.add("value")
        elif name in (
            "num_shards",
            "num_cores_per_replica",
            "experimental_host_call_every_n_steps",
        ):
            if isinstance(value, bool):
                rules.add("int_type")
            elif name == "experimental_host_call_every_n_steps":
                if not _is_whole(value):
                    rules.add("type")
                elif value < 1:
                    rules.add("value")
        elif name == "initial_infeed_sleep_secs":
            if isinstance(value, bool):
                rules.add("int_type")
            elif value is not None and not value and not _is_int(value):
                rules.add("type")
        elif name == "per_host_input_for_training":
            if not isinstance(value, bool) and value not in PIPELINE_MODES:
                rules.add("enum")
        elif name == "eval_training_input_configuration":
            if isinstance(value, bool) or not _is_int(value):
                rules.add("type")
        elif name in ("tpu_job_name",):
            if value is not None and not isinstance(value, str):
                rules.add("type")
        elif name == "experimental_allow_per_host_v2_parallel_get_next":
            if not isinstance(value, bool):
                rules.add("type")
        elif name == "input_partition_dims" and value is not None:
            rules |= _dims_rules(value, kwargs.get("num_cores_per_replica"))
    return rules


def hide_sentence_if_model_dir_first(tf: Outcome, ours: Outcome) -> Outcome:
    """Drop TensorFlow's checkpoint sentence when estconf reported the model_dir conflict.

    Open difference 4 of docs/compatibility.md: estconf checks the model_dir
    conflict before the checkpoint settings, TensorFlow after.  Both reject.
    """
    if tf.error is None or ours.ok:
        return tf
    if str(tf.error).startswith("`save_checkpoints_steps` and") and "model_dir_conflict" in (
        error_codes(ours.error) if ours.error is not None else []
    ):
        return Outcome(error=RuntimeError(f"model_dir checked first: {tf.error}"))
    return tf
