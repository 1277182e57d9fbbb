"""Raising validation errors that point into nested input.

A rule that looks at a whole TF_CONFIG (is the task a job of the cluster? is
its index in range?) runs in a model validator, whose errors pydantic would
place at the model itself.  :class:`Errors` collects errors with their own
locations and raises them together as one :class:`pydantic.ValidationError`,
which pydantic merges under the location of the model being validated.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    ModelWrapValidatorHandler,
    ValidationError,
    model_validator,
)
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError

from estconf._suggest import closest
from estconf.finding import hint_of

Loc = tuple[str | int, ...]


class Errors:
    """An ordered collection of located errors, raised at once."""

    def __init__(self, title: str) -> None:
        self._title = title
        self._details: list[InitErrorDetails] = []

    def __bool__(self) -> bool:
        return bool(self._details)

    def add(
        self,
        code: str,
        message: str,
        loc: Loc = (),
        value: Any = None,
        ctx: Mapping[str, Any] | None = None,
    ) -> None:
        """Record an error of type ``code`` at ``loc``; ``message`` may use ``{ctx}`` keys."""
        self._details.append(error_detail(code, message, loc, value, ctx))

    def add_again(self, code: str, message: str, loc: Loc = (), value: Any = None) -> None:
        """Record an error another validation raised: its code may be pydantic's own."""
        self._details.append(
            InitErrorDetails(type=PydanticCustomError(code, message), loc=loc, input=value)
        )

    @property
    def title(self) -> str:
        """The title the errors are raised under."""
        return self._title

    def details(self) -> list[InitErrorDetails]:
        """Return the collected errors, to raise along with others."""
        return list(self._details)

    def raise_if_any(self) -> None:
        """Raise the collected errors as one :class:`~pydantic.ValidationError`."""
        if self._details:
            raise ValidationError.from_exception_data(self._title, self._details)


def fail(
    title: str,
    code: str,
    message: str,
    loc: Loc = (),
    value: Any = None,
    ctx: Mapping[str, Any] | None = None,
) -> ValidationError:
    """Build a :class:`~pydantic.ValidationError` holding a single error, to raise."""
    return ValidationError.from_exception_data(
        title, [error_detail(code, message, loc, value, ctx)]
    )


def details_of(error: ValidationError) -> list[InitErrorDetails]:
    """The errors of ``error``, to raise again along with others."""
    return [raised_again(detail) for detail in error.errors()]


def raised_again(detail: ErrorDetails) -> InitErrorDetails:
    """One error of a ``ValidationError``, to raise again along with others, its hint kept."""
    return InitErrorDetails(
        type=PydanticCustomError(detail["type"], detail["msg"], _hint_kept(detail)),
        loc=detail["loc"],
        input=detail["input"],
    )


def _hint_kept(detail: ErrorDetails) -> dict[str, str] | None:
    """The ``ctx`` that keeps an error's fix (:func:`estconf.finding.hint_of`) raised again.

    The message is already written, so nothing else of its ``ctx`` is kept.
    """
    hint = hint_of(detail)
    return None if hint is None else {"hint": hint}


def with_hint(error: ValidationError, hint: str) -> ValidationError:
    """``error`` with ``hint`` as the fix of each of its errors, to raise.

    For a rule written once for several readers, whose fix each reader words.
    """
    details = [
        InitErrorDetails(
            type=PydanticCustomError(detail["type"], detail["msg"], {"hint": hint}),
            loc=detail["loc"],
            input=detail["input"],
        )
        for detail in error.errors()
    ]
    return ValidationError.from_exception_data(error.title, details)


Validated = TypeVar("Validated")


def validate_along(
    errors: Errors,
    data: Any,
    handler: Callable[[Any], Validated],
    keep: Callable[[ErrorDetails], bool] | None = None,
) -> Validated:
    """Validate ``data`` with a wrap validator's ``handler``; raise ``errors`` with its own.

    A rule on the raw input records its errors, then the input is still
    validated so that every error is reported at once, the rule's first.
    ``keep`` picks the handler's errors reported along (every one by default).
    """
    if not errors:
        return handler(data)
    details = errors.details()
    try:
        handler(data)
    except ValidationError as exc:
        details += [raised_again(detail) for detail in exc.errors() if keep is None or keep(detail)]
    raise ValidationError.from_exception_data(errors.title, details)


def with_errors_of(
    invalid: ValidationError, check: Callable[[], object], ignored: Collection[str] = ()
) -> ValidationError:
    """``invalid`` with the errors ``check()`` raises after its own, to raise.

    A value that failed validation is often still read by TensorFlow, which
    then refuses it for a reason of its own: ``check`` runs that reader's
    rules on what it reads, so that its sentence is reported too.  Errors
    whose type is in ``ignored`` are left out.  When ``check`` raises nothing
    else, or fails on the unchecked values it is given, ``invalid`` is
    returned unchanged.
    """
    try:
        check()
    except ValidationError as refused:
        added = [error for error in refused.errors() if error["type"] not in ignored]
    except Exception:
        return invalid
    else:
        return invalid
    if not added:
        return invalid
    details = details_of(invalid) + [raised_again(error) for error in added]
    return ValidationError.from_exception_data(invalid.title, details)


def custom_error(
    code: str, message: str, ctx: Mapping[str, Any] | None = None
) -> PydanticCustomError:
    """The error of a rule, of type ``code``; ``message`` may use ``{ctx}`` keys.

    Raises:
        KeyError: ``code`` is not declared in :mod:`estconf.codes`.
    """
    from estconf.codes import declaration  # imported when an error is first raised

    declaration(code)
    return PydanticCustomError(code, message, None if ctx is None else dict(ctx))


def error_detail(
    code: str, message: str, loc: Loc, value: Any, ctx: Mapping[str, Any] | None = None
) -> InitErrorDetails:
    """One error of type ``code`` (declared in :mod:`estconf.codes`) at ``loc``, to raise."""
    return InitErrorDetails(type=custom_error(code, message, ctx or {}), loc=loc, input=value)


@dataclass(frozen=True)
class Refused:
    """An input value a whole-input rule refused, left in place for its field to report.

    A model's ``before`` validator sees the raw input but would stop validation
    by raising; putting ``Refused(value, error)`` in the value's place lets the
    field raise ``error`` instead, so every other error is reported too.
    """

    value: Any
    error: Exception

    def __repr__(self) -> str:
        return repr(self.value)


def raise_refused(value: Any) -> Any:
    """Raise the error of a :class:`Refused` value; pass any other value through."""
    if isinstance(value, Refused):
        raise value.error
    return value


def unknown_key_message(model: type[BaseModel], key: str, keys: list[str]) -> str:
    """Say that ``key`` is not one of ``keys`` of ``model``, with the closest one as a hint."""
    message = f"unknown key {key!r} of {model.__name__}"
    close = closest(key, keys)
    if close is not None:
        return f"{message}; did you mean {close!r}?"
    return f"{message}; the keys are {', '.join(keys)}"


class KnownKeys(BaseModel):
    """A model whose unknown keyword arguments are reported with the closest known one.

    ``RunConfig(save_checkpoint_steps=1)`` is refused with "did you mean
    'save_checkpoints_steps'?", as a config file with that key is.
    """

    model_config = ConfigDict(defer_build=True)

    @model_validator(mode="wrap")
    @classmethod
    def unknown_key_hint(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        """Give each unknown top-level key the closest known key as a hint."""
        try:
            return handler(data)
        except ValidationError as exc:
            found = exc.errors()
            if not any(_unknown_top_level(e) for e in found):
                raise
            keys = [info.alias or name for name, info in cls.model_fields.items()]
            details = [
                error_detail(
                    "unknown_key",
                    unknown_key_message(cls, str(e["loc"][0]), keys),
                    e["loc"],
                    e["input"],
                    None,
                )
                if _unknown_top_level(e)
                else InitErrorDetails(
                    type=PydanticCustomError(e["type"], e["msg"]), loc=e["loc"], input=e["input"]
                )
                for e in found
            ]
            raise ValidationError.from_exception_data(exc.title, details) from None


def _unknown_top_level(found: Any) -> bool:
    return bool(found["type"] == "extra_forbidden" and len(found["loc"]) == 1)
