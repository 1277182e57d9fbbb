"""The cluster of a distributed job: ``estconf.ClusterSpec``.

A cluster maps job names to their tasks' addresses, either as a list (the
task index is the position) or, for sparse jobs, as an object from task index
to address.  :class:`ClusterSpec` answers the same questions, with the same
results, as ``tf.train.ClusterSpec``.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Collection, Mapping, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    RootModel,
    SerializationInfo,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    WrapValidator,
    field_validator,
)
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError

from estconf._errors import (
    Errors,
    Loc,
    custom_error,
    details_of,
    error_detail,
    fail,
    raised_again,
    validate_along,
)
from estconf._types import (
    ADDRESS_ERROR,
    Address,
    JobName,
    String,
    TaskIndex,
    address_key,
    address_refusal,
    all_plain_addresses_valid,
)

__all__ = ["ClusterSpec", "check_task_not_a_hole"]

MAX_TASK_INDEX = 2**31 - 1
"""TensorFlow keeps task indices in a ``map<int32, string>`` of its ClusterDef."""


def _reject_repeated_indices(tasks: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """Refuse two keys of a sparse job that name the same index (``"1"`` and ``"01"``).

    The job's keys are checked too, and their errors reported with it:
    TensorFlow fails on a key it cannot read with ``int()`` (``"x"``) before
    it looks at the indices.  An address TensorFlow does not keep (an earlier
    one of a repeated index) is not checked, as TensorFlow does not check it.
    """
    return validate_along(_repeated_indices(tasks), tasks, handler, keep=_is_key_error)


def _is_key_error(detail: ErrorDetails) -> bool:
    return detail["loc"][-1:] == ("[key]",)


def _repeated_indices(tasks: Any) -> Errors:
    """The keys of a sparse job that repeat an index, as errors (none: an empty ``Errors``).

    TensorFlow keeps the last address given for an index, then refuses an
    address of the wrong type (a list, a number) among those it kept: such a
    job is left to the addresses' own check, which says TensorFlow's sentence.
    """
    errors = Errors("ClusterSpec")
    if not isinstance(tasks, Mapping):
        return errors
    kept: dict[int, Any] = {}
    for key, address in tasks.items():
        with contextlib.suppress(TypeError, ValueError):
            kept[int(key)] = address
    if not all(isinstance(address, (str, bytes)) for address in kept.values()):
        return errors
    seen: dict[int, Any] = {}
    for key in tasks:
        try:
            index = int(key)
        except (TypeError, ValueError):
            continue  # the key's own validation reports it
        if index in seen:
            errors.add(
                "sparse_index_repeated",
                "task index {index} is given twice, as {first} and {second}",
                (str(key),),
                key,
                {"index": index, "first": repr(seen[index]), "second": repr(key)},
            )
        seen.setdefault(index, key)
    return errors


def _check_sparse_indices(tasks: dict[int, str]) -> dict[int, str]:
    errors = Errors("ClusterSpec")
    for index in tasks:
        # TensorFlow's ClusterDef refuses an index outside int32 with protobuf's words.
        out_of_range = f"Value out of range: {index}; " if index < -MAX_TASK_INDEX - 1 else ""
        if index < 0:
            errors.add(
                "sparse_index_negative",
                "{out_of_range}task index {index} is negative; task indices start at 0",
                (index,),
                index,
                {"index": index, "out_of_range": out_of_range},
            )
        elif index > MAX_TASK_INDEX:
            errors.add(
                "sparse_index_too_large",
                "Value out of range: {index} (task index {index} is above {max}, the largest "
                "TensorFlow can hold)",
                (index,),
                index,
                {"index": index, "max": MAX_TASK_INDEX},
            )
    errors.raise_if_any()
    return tasks


@functools.cache
def _dense() -> TypeAdapter[list[str]]:
    return TypeAdapter(list[String])


@functools.cache
def _sparse() -> TypeAdapter[dict[int, str]]:
    return TypeAdapter(
        Annotated[
            dict[TaskIndex, String],
            WrapValidator(_reject_repeated_indices),
            AfterValidator(_check_sparse_indices),
        ]
    )


def _validate_job_tasks(tasks: Any) -> list[str] | dict[int, str]:
    adapter: TypeAdapter[Any]
    if isinstance(tasks, (list, tuple)):
        adapter = _dense()
    elif isinstance(tasks, Mapping):
        adapter = _sparse()
    else:
        raise custom_error(
            "job_tasks_type",
            "The tasks for a job must be a list or a dictionary from integers to strings.",
        )
    try:
        result: list[str] | dict[int, str] = adapter.validate_python(tasks)
    except ValidationError as exc:
        raise _address_types_in_tensorflow_words(exc) from None
    if not result:
        raise custom_error(
            "empty_job",
            "a job needs at least one task; this one has none (TensorFlow fails on it "
            "with: max() arg is an empty sequence)",
        )
    return result


def _address_types_in_tensorflow_words(error: ValidationError) -> ValidationError:
    """``error``, with each task address that is not text reported in TensorFlow's words.

    Bytes, which TensorFlow takes, are refused as estconf's own rule (JSON has
    no bytes), so TensorFlow's sentence is not given for them.
    """
    details = [
        _address_type(found)
        if found["type"] == "string_type" and not isinstance(found["input"], bytes)
        else raised_again(found)
        for found in error.errors()
    ]
    return ValidationError.from_exception_data(error.title, details)


def _address_type(found: ErrorDetails) -> InitErrorDetails:
    return error_detail(
        "string_type",
        "Task address {address} must be bytes or unicode",
        found["loc"],
        found["input"],
        {"address": _shown_as_tensorflow_shows(found["input"])},
    )


def _shown_as_tensorflow_shows(address: object) -> str:
    """``repr(address)``, except that a one-item tuple shows its item.

    TensorFlow formats the address with ``%``, which unpacks a tuple.
    """
    if isinstance(address, tuple) and len(address) == 1:
        return repr(address[0])
    return repr(address)


def _dump_job_tasks(tasks: list[str] | dict[int, str], info: SerializationInfo) -> Any:
    if isinstance(tasks, dict) and info.mode_is_json():
        return {str(index): address for index, address in tasks.items()}
    return tasks.copy()


JobTasks = Annotated[
    list[str] | dict[int, str],
    PlainSerializer(_dump_job_tasks, return_type=Any),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "array", "items": {"type": "string"}},
                {"type": "object", "additionalProperties": {"type": "string"}},
            ]
        },
        mode="serialization",
    ),
    PlainValidator(
        _validate_job_tasks,
        json_schema_input_type=list[Address]
        | Annotated[
            dict[str, Address],
            Field(json_schema_extra={"propertyNames": {"pattern": "^[0-9]+$"}}),
        ],
    ),
]
"""A job's tasks: a list of addresses, or an object from task index to address."""


def _check_tasks_types(cluster: Mapping[Any, Any]) -> Mapping[Any, Any]:
    """Each job's tasks are a list or an object; the error names the job, as TensorFlow's does."""
    errors = Errors("ClusterSpec")
    for job, tasks in cluster.items():
        if isinstance(tasks, Mapping):
            try:
                list(map(int, tasks))
            except (TypeError, ValueError):
                break  # TensorFlow stops at this job, on int() of a task index
        elif not isinstance(tasks, (list, tuple)):
            errors.add(
                "job_tasks_type",
                "The tasks for job {job} must be a list or a dictionary from integers to strings.",
                (str(job),),
                tasks,
                {"job": repr(job)},
            )
    errors.raise_if_any()
    return cluster


def _addresses(tasks: list[str] | dict[int, str]) -> Collection[str]:
    return tasks.values() if isinstance(tasks, dict) else tasks


def _cluster_type(value: Any) -> Any:
    if isinstance(value, Mapping):
        return _check_tasks_types(value)
    as_dict = getattr(value, "as_dict", None)
    if callable(as_dict):  # a tf.train.ClusterSpec
        return as_dict()
    raise custom_error(
        "cluster_type",
        "`cluster` must be a dictionary mapping one or more job names to lists of network "
        "addresses, or a `ClusterDef` protocol buffer",
    )


def _check_addresses(
    errors: Errors, jobs: Mapping[str, list[str] | dict[int, str]], *, duplicates: bool
) -> None:
    """Record each invalid address of ``jobs`` and, if asked, each address used twice."""
    owners: dict[str, tuple[str, int]] = {}
    for job, tasks in jobs.items():
        items = enumerate(tasks) if isinstance(tasks, list) else sorted(tasks.items())
        for index, address in items:
            refusal = address_refusal(address)  # the address, the reason and the fix
            if refusal is not None:
                errors.add("address", ADDRESS_ERROR, (job, index), address, refusal)
                continue
            if not duplicates:
                continue
            key = address_key(address) if address[0] == "[" else address.lower()
            if key not in owners:
                owners[key] = (job, index)
                continue
            first_job, first_index = owners[key]
            errors.add(
                "address",
                "address '{address}' of {job}[{index}] is already the address of "
                "{first_job}[{first_index}]; each task needs its own host:port",
                (job, index),
                address,
                {
                    "address": address,
                    "job": job,
                    "index": index,
                    "first_job": first_job,
                    "first_index": first_index,
                },
            )


def _along_with_invalid_addresses(error: ValidationError, value: Any) -> ValidationError:
    """``error``, with the invalid addresses of ``value``'s well-formed jobs, in job order."""
    if not isinstance(value, Mapping):
        return error
    refused = {  # the jobs whose tasks already have an error, not those whose name has
        detail["loc"][0]
        for detail in error.errors(include_url=False, include_context=False, include_input=False)
        if detail["loc"] and detail["loc"][1:2] != ("[key]",)
    }
    well_formed: dict[str, list[str] | dict[int, str]] = {}
    for job, tasks in value.items():
        if job in refused or str(job) in refused:
            continue  # its own error is in ``error``: no need to read it again
        try:
            well_formed[job] = _validate_job_tasks(tasks)
        except (ValidationError, PydanticCustomError):
            continue
    found = Errors(error.title)
    _check_addresses(found, well_formed, duplicates=False)
    if not found:
        return error
    # Every error of a mapping names its job, as the key itself or, for a key
    # that is neither a str nor an int (YAML's null, 1.5), as its str().
    order: dict[object, int] = {}
    for position, job in enumerate(value):
        order.setdefault(job, position)
        order.setdefault(str(job), position)
    details = sorted(
        details_of(error) + found.details(),
        key=lambda detail: order.get(detail["loc"][0], len(order)),
    )
    return ValidationError.from_exception_data(error.title, details)


class ClusterSpec(RootModel[Any]):
    """A cluster: job names mapped to task addresses, like ``tf.train.ClusterSpec``.

    Each job is a list of ``host:port`` addresses, where the position is the
    task index, or an object from task index to address for a sparse job.

    Example:
        >>> cluster = ClusterSpec({"chief": ["host0:2222"], "worker": {"1": "host2:2222"}})
        >>> cluster.jobs
        ['chief', 'worker']
        >>> cluster.job_tasks("worker")
        [None, 'host2:2222']
        >>> cluster.as_dict()
        {'chief': ['host0:2222'], 'worker': {1: 'host2:2222'}}
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    # The root's type is this annotation; the base is RootModel[Any] because a
    # base parametrized with the real type would be built at import.
    root: Annotated[dict[JobName, JobTasks], BeforeValidator(_cluster_type)] = Field(
        default_factory=dict
    )

    if TYPE_CHECKING:
        # Let type checkers accept any mapping of job name to tasks, as the validator does.
        def __init__(self, root: Mapping[str, Any] = ..., /) -> None: ...

    @field_validator("root", mode="wrap")
    @classmethod
    def address(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> dict[str, Any]:
        """Each task has a valid ``host:port`` of its own.

        The common case, every address plain and none repeated, is checked in
        one pass over all the jobs' addresses and one set of them; anything
        else is looked at address by address, to word each error.  When the
        cluster breaks another rule, the invalid addresses of its well-formed
        jobs are reported along with that error.
        """
        try:
            root: dict[str, list[str] | dict[int, str]] = handler(value)
        except ValidationError as exc:
            raise _along_with_invalid_addresses(exc, value) from None
        jobs = [_addresses(tasks) for tasks in root.values()]
        if all_plain_addresses_valid(jobs) and len(set(chain.from_iterable(jobs))) == sum(
            map(len, jobs)
        ):
            return root
        errors = Errors("ClusterSpec")
        _check_addresses(errors, root, duplicates=True)
        errors.raise_if_any()
        return root

    def _job(self, job_name: str) -> list[str] | dict[int, str]:
        try:
            return self.root[job_name]
        except (KeyError, TypeError):
            raise ValueError(
                f"No such job in cluster: {job_name!r} (the jobs are {self.jobs})"
            ) from None

    def _tasks(self) -> dict[str, dict[int, str]]:
        """Every job as index -> address, in index order (a copy: for comparisons only)."""
        return {job: _by_index(tasks) for job, tasks in self.root.items()}

    @property
    def jobs(self) -> list[str]:
        """The job names, in the order the cluster lists them."""
        return list(self.root)

    def num_tasks(self, job_name: str) -> int:
        """Return how many tasks ``job_name`` has (holes of a sparse job not counted).

        Raises:
            ValueError: ``job_name`` is not a job of this cluster.
        """
        return len(self._job(job_name))

    def task_indices(self, job_name: str) -> list[int]:
        """Return the task indices of ``job_name``, in increasing order.

        Raises:
            ValueError: ``job_name`` is not a job of this cluster.
        """
        tasks = self._job(job_name)
        return list(range(len(tasks))) if isinstance(tasks, list) else sorted(tasks)

    def task_address(self, job_name: str, task_index: int) -> str:
        """Return the address of task ``task_index`` of ``job_name``.

        Raises:
            ValueError: ``job_name`` is not a job, or it has no task ``task_index``.
        """
        tasks = self._job(job_name)
        if _holds(tasks, task_index):
            return tasks[int(task_index)] if isinstance(tasks, list) else tasks[task_index]
        raise ValueError(
            f"No task with index {task_index!r} in job {job_name!r} "
            f"(its indices are {self.task_indices(job_name)})"
        )

    def job_tasks(self, job_name: str) -> list[str | None]:
        """Return the addresses of ``job_name`` by index, with ``None`` in a sparse job's holes.

        The list is as long as the highest index plus one, as in TensorFlow.

        Raises:
            ValueError: ``job_name`` is not a job of this cluster.
        """
        tasks = self._job(job_name)
        if isinstance(tasks, list):
            return list(tasks)
        return _filled(tasks)  # ValueError on a job with no task, as in TensorFlow

    def job_size(self, job_name: str) -> int:
        """Return ``len(job_tasks(job_name))`` without building the list.

        Raises:
            ValueError: ``job_name`` is not a job of this cluster, or (in a
                cluster read leniently) a job with no task, on which
                TensorFlow's ``job_tasks`` fails the same way.
        """
        tasks = self._job(job_name)
        if isinstance(tasks, list):
            if not tasks:
                raise ValueError(f"job {job_name!r} has no task")  # max() of none, in TensorFlow
            return len(tasks)
        return max(tasks) + 1  # ValueError on a job with no task, as in TensorFlow

    def as_dict(self) -> dict[str, list[str] | dict[int, str]]:
        """Return the cluster as a plain dict, as ``tf.train.ClusterSpec.as_dict()`` does.

        A job whose indices are exactly ``0..n-1`` is a list, whichever form it
        was given in; any other job is a dict from index to address.
        """
        result: dict[str, list[str] | dict[int, str]] = {}
        for job, tasks in self.root.items():
            if isinstance(tasks, list):
                result[job] = list(tasks) if tasks else {}
            elif tasks and max(tasks) + 1 == len(tasks):
                # Only a cluster read leniently, with a negative index, has a hole here.
                result[job] = _filled(tasks)  # type: ignore[assignment]
            else:
                result[job] = _by_index(tasks)
        return result

    def to_tensorflow(self) -> Any:
        """Return the equal ``tf.train.ClusterSpec`` (needs ``estconf[tensorflow]``)."""
        from estconf._tensorflow import tensorflow  # only a conversion needs it

        return tensorflow().train.ClusterSpec(self.as_dict())

    def __bool__(self) -> bool:
        """A cluster is true when it has at least one job."""
        return bool(self.root)

    def __eq__(self, other: object) -> bool:
        """Equal to a cluster with the same tasks, given as a ClusterSpec or a plain dict."""
        if isinstance(other, ClusterSpec):
            return self._tasks() == other._tasks()
        normalized = _normalize(other)
        return normalized is not None and self._tasks() == normalized

    def __hash__(self) -> int:
        return hash(tuple((job, tuple(tasks.items())) for job, tasks in self._tasks().items()))

    def __repr__(self) -> str:
        # TensorFlow's own rendering (jobs sorted), which its error messages embed.
        jobs = self.as_dict()
        return "ClusterSpec({" + ", ".join(f"{job!r}: {jobs[job]!r}" for job in sorted(jobs)) + "})"


def check_task_not_a_hole(
    cluster: ClusterSpec, task_type: str, task_id: int, title: str, loc: Loc
) -> None:
    """Refuse a task that is a hole of a sparse job of ``cluster`` (``task_in_hole``).

    TensorFlow fails on such a task only when it looks up the task's address;
    every reader of TF_CONFIG in estconf refuses it up front, at ``loc``.

    Raises:
        pydantic.ValidationError: the cluster gives the task no address.
    """
    if _holds(cluster._job(task_type), task_id):
        return
    raise fail(
        title,
        "task_in_hole",
        "task {task_type}[{task_id}] is a hole of the sparse job '{task_type}': the "
        "cluster gives this task no address (its indices are {indices})",
        loc,
        task_id,
        {
            "task_id": task_id,
            "task_type": task_type,
            "indices": str(cluster.task_indices(task_type)),
        },
    )


def _by_index(tasks: list[str] | dict[int, str]) -> dict[int, str]:
    return dict(enumerate(tasks)) if isinstance(tasks, list) else dict(sorted(tasks.items()))


def _filled(tasks: dict[int, str]) -> list[str | None]:
    """A sparse job's addresses by index, ``None`` in its holes, filled as TensorFlow fills them.

    TensorFlow's ``job_tasks`` puts each address at its index in the order the
    job lists them.  So in a cluster read leniently, as TensorFlow reads one
    estconf refuses, a negative index takes a place counted from the end (one
    too far back makes TensorFlow fail; it is left out here).
    """
    filled: list[str | None] = [None] * (max(tasks) + 1)
    for index, address in tasks.items():
        if index >= -len(filled):
            filled[index] = address
    return filled


def _holds(tasks: list[str] | dict[int, str], task_index: Any) -> bool:
    """Whether a job has task ``task_index``, looked up as a dict key is (``1.0`` is ``1``)."""
    if isinstance(tasks, dict):
        try:
            return task_index in tasks
        except TypeError:  # unhashable
            return False
    return task_index in range(len(tasks))


def _normalize(other: object) -> dict[str, dict[int, str]] | None:
    """Read a dict cluster (or anything with ``as_dict()``) as job -> index -> address."""
    as_dict = getattr(other, "as_dict", None)
    if callable(as_dict) and not isinstance(other, Mapping):
        other = as_dict()
    if not isinstance(other, Mapping):
        return None
    normalized: dict[str, dict[int, str]] = {}
    for job, tasks in other.items():
        if isinstance(tasks, Sequence) and not isinstance(tasks, str):
            normalized[job] = dict(enumerate(tasks))
        elif isinstance(tasks, Mapping):
            try:
                normalized[job] = dict(sorted((int(i), a) for i, a in tasks.items()))
            except (TypeError, ValueError):
                return None
        else:
            return None
    return normalized
