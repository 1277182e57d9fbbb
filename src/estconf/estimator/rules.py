"""The estimator's rules that ``tf.contrib.learn`` shares: ``replace``, ``model_dir``, checks.

Which properties ``replace`` may change and how (:func:`replaced_values`),
the property checks it runs on the result (:func:`check_properties`), two
of those checks (:func:`check_bound`, :func:`takes_op_only`), and how the
``model_dir`` argument and TF_CONFIG's agree (:func:`model_dir_rule`).
``estconf.RunConfig`` and ``estconf.contrib.RunConfig`` both apply them;
TensorFlow 1.15's differences are arguments.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Mapping
from typing import Any, Final

from pydantic import BaseModel, ValidationError

from estconf._errors import Refused, custom_error, fail, with_errors_of
from estconf.tf_config import TFConfig, parse_as_tensorflow

__all__ = [
    "BOUNDS",
    "check_bound",
    "check_properties",
    "fspath",
    "model_dir_rule",
    "replaced_values",
    "takes_op_only",
]


def fspath(value: Any) -> Any:
    """Resolve a ``PathLike`` model directory to ``str``, as TensorFlow does."""
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        return path.decode() if isinstance(path, bytes) else path
    return value


_UNCHECKED: Final = ("tf_config", "train_distribute", "eval_distribute", "experimental_distribute")
"""Fields no property check reads (TensorFlow checks the strategies only as constructor
arguments): ``replace`` keeps their values as given."""


def replaced_values(
    title: str, kwargs: Mapping[str, Any], allowed: tuple[str, ...]
) -> dict[str, Any]:
    """The properties ``replace(**kwargs)`` changes, by TensorFlow's rules.

    Replacing one checkpoint setting with a value clears the other.

    Raises:
        pydantic.ValidationError: a key of ``kwargs`` is not in ``allowed``.
    """
    for key in kwargs:
        if key not in allowed:
            raise fail(
                title,
                "replace_not_supported",
                "Replacing {key} is not supported. Allowed properties are {allowed}.",
                (key,),
                kwargs[key],
                {"key": key, "allowed": str(list(allowed))},
            )
    changed = dict(kwargs)
    steps, secs = "save_checkpoints_steps", "save_checkpoints_secs"
    if steps in kwargs and secs not in kwargs and kwargs[steps] is not None:
        changed[secs] = None
    elif secs in kwargs and steps not in kwargs and kwargs[secs] is not None:
        changed[steps] = None
    return changed


def check_properties(
    model: type[BaseModel], values: Mapping[str, Any], *, both_replaced: bool
) -> dict[str, Any]:
    """Run the estimator's property checks on ``values``, as its ``replace`` does.

    The checks are those of the constructor, run against an unset TF_CONFIG:
    nothing is derived again from TF_CONFIG.  Both checkpoint settings with
    values are an error only when both were replaced (the contrib constructor
    may set both); otherwise each is checked on its own.

    Args:
        model: The estimator's ``RunConfig``, whose validators are the checks.
        values: The properties after ``replace``.
        both_replaced: Whether both checkpoint settings were replaced.

    Returns:
        The checked values, as the checks read them (``2.0`` becomes ``2``).

    Raises:
        pydantic.ValidationError: a value fails a check.
    """
    checked = {
        name: value
        for name, value in values.items()
        if name in model.model_fields and name not in _UNCHECKED
    }
    steps = checked.get("save_checkpoints_steps")
    separate = (
        steps is not None and checked.get("save_checkpoints_secs") is not None and not both_replaced
    )
    if separate:
        del checked["save_checkpoints_steps"]

    def steps_alone() -> Any:
        """The steps, checked alone: with secs set too, the estimator's constructor refuses them."""
        alone: Any = model.model_validate({"save_checkpoints_steps": steps})
        return alone.save_checkpoints_steps

    try:
        config = model.model_validate(checked)
    except ValidationError as invalid:
        raise (with_errors_of(invalid, steps_alone) if separate else invalid) from None
    read = {name: getattr(config, name) for name in checked}
    if separate:
        read["save_checkpoints_steps"] = steps_alone()
    return read


def model_dir_rule(data: Any, tf_config_key: str, *, legacy: bool) -> Any:
    """The model directory is the argument, else TF_CONFIG's; set in both, they must agree.

    Read on the raw input, where TensorFlow checks it.  The estimator compares
    two non-empty directories (it refuses an empty argument elsewhere);
    TensorFlow 1.15's contrib API (``legacy``) compares any two that are set,
    and takes TF_CONFIG's when the argument is empty.

    Args:
        data: The model's raw input.
        tf_config_key: The key of the TF_CONFIG in ``data``.
        legacy: Apply the contrib API's rule.

    Returns:
        ``data`` with ``model_dir`` resolved, or refused (see ``Refused``).
    """
    if not isinstance(data, Mapping):
        return data
    given = data.get("model_dir") if legacy else fspath(data.get("model_dir"))
    tf_config = data.get(tf_config_key)
    if isinstance(tf_config, Refused):  # refused, by the estimator's rules or unread: compared
        tf_config = tf_config.value
        if isinstance(tf_config, (str, bytes)):  # TF_CONFIG text from_env could not read
            tf_config = parse_as_tensorflow(tf_config)
    if isinstance(tf_config, TFConfig):
        from_tf_config = tf_config.model_dir
    else:
        from_tf_config = tf_config.get("model_dir") if isinstance(tf_config, Mapping) else None
    if legacy:
        # Any two set, as TensorFlow 1.15 compares them (a number is refused as well).
        conflict = given is not None and from_tf_config is not None and given != from_tf_config
    else:
        # Any two true values, as TensorFlow compares them (a number is refused as well).
        conflict = bool(given and from_tf_config and given != from_tf_config)
    if conflict:
        error = custom_error(
            "model_dir_conflict",
            "`model_dir` provided in RunConfig construct, if set, must have the same value "
            "as the model_dir in TF_CONFIG. model_dir: {model_dir}\n"
            'TF_CONFIG["model_dir"]: {tf_config_model_dir}.\n',
            {"model_dir": given, "tf_config_model_dir": from_tf_config},
        )
        return {**data, "model_dir": Refused(given, error)}
    if legacy and given in (None, ""):
        resolved = from_tf_config if isinstance(from_tf_config, str) else None
        return data if resolved == given else {**data, "model_dir": resolved}
    if not legacy and given is None and isinstance(from_tf_config, str) and from_tf_config:
        return {**data, "model_dir": from_tf_config}
    return data


BOUNDS: Final = {
    "save_summary_steps": ">= 0",
    "save_checkpoints_steps": ">= 0",
    "save_checkpoints_secs": ">= 0",
    "keep_checkpoint_max": ">= 0",
    "keep_checkpoint_every_n_hours": "> 0",
    "log_step_count_steps": "> 0",
    "session_creation_timeout_secs": "> 0",
}
"""The numeric settings TensorFlow bounds, and their bounds."""


def check_bound(name: str, value: Any) -> None:
    """Check that ``value`` is ``None`` or within the bound of setting ``name``.

    Compared as TensorFlow compares, so ``nan`` is out of every bound.  A
    ``Decimal`` NaN, which raises on comparison, is out of every bound too.

    Raises:
        pydantic_core.PydanticCustomError: the value is out of bounds (code ``bounds``).
    """
    bound = BOUNDS[name]
    try:
        within = value is None or (value > 0 if bound == "> 0" else value >= 0)
    except ArithmeticError:  # decimal.InvalidOperation
        within = False
    if within:
        return
    raise custom_error("bounds", "{name} should be {bound}", {"name": name, "bound": bound})


def takes_op_only(device_fn: Any) -> bool:
    """Whether ``device_fn`` is callable with exactly one argument ``op``, as TensorFlow tells.

    TensorFlow reads the argument names with ``inspect.getfullargspec``,
    which does not follow ``functools.wraps``: for an object, those of its
    ``__call__`` method, whatever the object's ``__signature__`` says; for a
    class, those of ``__init__``, ``self`` included; for a
    ``functools.partial``, those its arguments leave; through TensorFlow's
    own decorators (``tf.function``), those of the function they decorate.
    """
    if not callable(device_fn):
        return False
    names = _argument_names(device_fn)
    return names is not None and set(names) == {"op"}


def _argument_names(function: Any) -> list[str] | None:
    """The argument names TensorFlow's ``fn_args`` reads, ``None`` where it fails."""
    if isinstance(function, functools.partial):
        names = _argument_names(function.func)
        if names is None:
            return None
        bound = function.keywords or {}
        return [name for name in names[len(function.args) :] if name not in bound]
    if inspect.ismethod(_undecorated(function.__call__)[1]):  # an object: its method
        function = function.__call__
    decorators, target = _undecorated(function)
    specs = [d.decorator_argspec for d in decorators if d.decorator_argspec is not None]
    if specs:
        names = list(specs[0].args)
    else:
        try:
            names = inspect.getfullargspec(target).args
        except TypeError:  # a callable whose signature cannot be read
            return None
    if inspect.ismethod(target) and names:
        names = names[1:]  # the object or class the method is bound to
    return names


def _undecorated(function: Any) -> tuple[list[Any], Any]:
    """TensorFlow's decorators of ``function``, outermost first, and what they decorate.

    As TensorFlow unwraps them (``tf_decorator.unwrap``): a ``TFDecorator``,
    or an object whose ``_tf_decorator`` is one, decorates its
    ``decorated_target``.  Told by the class's name, so without TensorFlow.
    """
    decorators: list[Any] = []
    while True:
        if _is_tf_decorator(function):
            decorator = function
        elif _is_tf_decorator(getattr(function, "_tf_decorator", None)):
            decorator = function._tf_decorator
        else:
            break
        decorators.append(decorator)
        if not hasattr(decorator, "decorated_target"):
            break
        function = decorator.decorated_target
    return decorators, function


_TF_DECORATOR: Final = ("tensorflow.python.util.tf_decorator", "TFDecorator")
"""The module and name of TensorFlow's decorator class."""


def _is_tf_decorator(value: Any) -> bool:
    return any((cls.__module__, cls.__name__) == _TF_DECORATOR for cls in type(value).__mro__)
