"""An invalid ``TF_CONFIG`` read as TensorFlow reads it, for the estimator's complaints about it.

A ``TF_CONFIG`` that fails validation (an address malformed, an index
written ``"1"``) would still be read by TensorFlow, which then stops at one
of its own rules.  :func:`read_like_tensorflow` reads it that way, unchecked;
:func:`with_estimator_errors` adds what the estimator says about it to the
validation errors.  The tf.distribute readers read their input the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from estconf._errors import Refused, details_of, with_errors_of
from estconf.cluster import ClusterSpec
from estconf.estimator.reading import check_estimator_rules
from estconf.estimator.strategies import Strategies
from estconf.tf_config import Task, TFConfig, parse_as_tensorflow

__all__ = ["read_like_tensorflow", "with_estimator_errors"]


def with_estimator_errors(
    invalid: ValidationError, raw: Any, title: str, strategies: Strategies
) -> ValidationError:
    """Add the estimator's complaints about a ``raw`` TF_CONFIG to its other errors.

    ``raw`` failed validation (say, one address is malformed), but TensorFlow
    would still have read it and stopped at one of its own rules, whose
    sentence the user should see.  The TF_CONFIG is read as TensorFlow reads
    it; when that is impossible, or the estimator has nothing to add,
    ``invalid`` is returned unchanged.  TF_CONFIG text that ``from_env``
    refused is parsed as TensorFlow parses it, keeping the last of two equal
    keys.
    """
    if isinstance(raw, Refused):
        if not isinstance(raw.value, (str, bytes)):
            return invalid  # refused by the estimator's rules: their errors are all there
        # TF_CONFIG text from_env could not read: a repeated key, else TensorFlow fails too
        raw = parse_as_tensorflow(raw.value)
        if raw is not None:
            # The text was refused before any of its values was looked at.
            parsed = raw
            invalid = with_errors_of(invalid, lambda: TFConfig.model_validate(parsed))
    # An empty model_dir is the estimator's first check, whatever follows; the
    # lenient read below has no model_dir, so it is said once.
    if isinstance(raw, Mapping) and raw.get("model_dir") == "":
        empty = TFConfig.model_construct(model_dir="")
        invalid = with_errors_of(invalid, lambda: check_estimator_rules(empty, title, strategies))
    lenient = read_like_tensorflow(raw)
    if lenient is None:
        return invalid
    task = raw.get("task", {})
    reported: set[str] = set()
    # What TensorFlow cannot read is already reported: it is not also "missing",
    # and an index int() cannot read is not also null (read leniently, it is).
    if not isinstance(task, Mapping):
        reported |= {"missing_task_type", "missing_task_index"}
    elif task.get("index") is not None and lenient.task.index is None:
        reported |= {"missing_task_index", "type"}
    return _said_once(
        with_errors_of(
            invalid,
            lambda: check_estimator_rules(lenient, title, strategies),
            ignored=reported,
        )
    )


def _said_once(invalid: ValidationError) -> ValidationError:
    """One error for one value: TensorFlow's complaint about a value joined to estconf's own.

    A task index ``true`` is refused as a bool (``int_type``); TensorFlow reads
    it as 1 and, with no cluster, refuses that (``local_task_index``).  Both
    are about the same value: they are said in one error, under the first's
    code, with TensorFlow's sentence whole.
    """
    details = details_of(invalid)
    merged: list[InitErrorDetails] = []
    first_at: dict[tuple[Any, ...], int] = {}
    for detail in details:
        loc, kind = tuple(detail["loc"]), detail["type"]
        assert isinstance(kind, PydanticCustomError)  # as details_of builds them
        if loc not in first_at or kind.type not in _TENSORFLOW_ON_A_VALUE:
            first_at.setdefault(loc, len(merged))
            merged.append(detail)
            continue
        earlier = merged[first_at[loc]]
        said = earlier["type"]
        assert isinstance(said, PydanticCustomError)
        message = f"{said.message()}; TensorFlow reads it and says: {kind.message()}"
        merged[first_at[loc]] = InitErrorDetails(
            type=PydanticCustomError(said.type, message),
            loc=earlier["loc"],
            input=earlier["input"],
        )
    if len(merged) == len(details):
        return invalid
    return ValidationError.from_exception_data(invalid.title, merged)


_TENSORFLOW_ON_A_VALUE: Final = frozenset({"local_task_type", "local_task_index"})
"""The estimator's complaints about a value TensorFlow read, said with the value's own error."""


def read_like_tensorflow(raw: Any) -> TFConfig | None:
    """The cluster and task TensorFlow would read of ``raw``, as a TFConfig built unchecked.

    None when TensorFlow cannot read ``raw`` or its cluster.  An index
    ``int()`` cannot read is ``None``, as a null one is.  The keys of no field
    of TFConfig (``sparseCluster``) are kept as they are, for the fix hints of
    the estimator's errors; the other fields (``model_dir``, the session
    masters, ``service``), which the estimator's checks do not read, are left
    out.
    """
    if not isinstance(raw, Mapping):
        return None
    cluster = raw.get("cluster", {})
    if not isinstance(cluster, Mapping):
        return None
    task = raw.get("task", {})
    if not isinstance(task, Mapping):
        task = {}  # TensorFlow checks the cluster before it reads the task
    jobs: dict[str, list[str] | dict[int, str]] = {}
    for job, tasks in cluster.items():
        if isinstance(tasks, (list, tuple)):
            jobs[job] = list(tasks)
        elif isinstance(tasks, Mapping):
            try:
                jobs[job] = {int(index): address for index, address in tasks.items()}
            except (TypeError, ValueError):
                return None
        else:
            return None
    fields: dict[str, Any] = {}
    if "type" in task:
        fields["type"] = task["type"]
    if "index" in task:
        try:
            fields["index"] = None if task["index"] is None else int(task["index"])
        except (TypeError, ValueError, OverflowError):
            # TensorFlow checks the cluster and the task type before it reads the index.
            fields["index"] = None
    read = TFConfig.model_construct(
        cluster=ClusterSpec.model_construct(root=jobs),
        task=Task.model_construct(_fields_set=set(fields), **fields),
    )
    others = {
        key: value
        for key, value in raw.items()
        if isinstance(key, str) and key not in TFConfig.model_fields
    }
    return read.model_copy(update=others)
