"""A container's environment as Kubernetes builds it: ``$(NAME)`` expansion, the downward API.

Kubernetes expands ``$(NAME)`` in an env value, and in ``command`` and
``args``, before the program starts (the expansion of
``third_party/forked/golang/expansion`` in Kubernetes' code, which the
kubelet's ``makeEnvironmentVariables`` applies):

- ``$(NAME)`` becomes the value of ``NAME`` if it is defined, and stays as
  written if it is not;
- ``$$`` is one ``$``, so ``$$(NAME)`` stays ``$(NAME)``;
- ``$`` before any other character, ``$X`` without parentheses, a ``$`` at the
  end and a ``$(`` with no ``)`` after it all stay as written;
- a value is expanded once: a ``$(OTHER)`` that a variable's value holds is
  not expanded again.

In an env value, the names defined are those of the container's ``envFrom``,
those of its ``env`` *before* this one, and the Service variables of the
namespace (:func:`container_env`).  A value from ``valueFrom`` is never
expanded.  In ``command`` and ``args`` every variable of the container is
defined (:func:`expand_command`).  The downward API gives a variable a field
of its pod (:func:`field_value`).

Pure functions of their arguments: no file, no cluster.

    >>> expand("$(A)-$$(A)-$(B)", {"A": "1"})
    '1-$(A)-$(B)'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple

__all__ = [
    "ENV_FIELD_PATHS",
    "RUNTIME_FIELD_PATHS",
    "EnvVar",
    "Expanded",
    "PodFields",
    "TooLong",
    "Variable",
    "container_env",
    "expand",
    "expand_command",
    "expanded",
    "field_value",
    "placeholder",
]

_OPERATOR: Final = "$"


class Expanded(NamedTuple):
    """A text once expanded, and the ``$(NAME)`` references that stayed as written."""

    text: str
    """The text, each reference to a defined name replaced by its value."""
    unexpanded: tuple[str, ...]
    """The names referenced and not defined, in the order of the text, each once."""
    used: tuple[str, ...]
    """The names referenced and defined, in the order of the text, each once."""


class TooLong(ValueError):
    """A text that expands to more than the most characters asked for."""


def expanded(text: str, *defined: Mapping[str, str], most: int | None = None) -> Expanded:
    """``text`` expanded as Kubernetes expands it, the first of ``defined`` that has a name winning.

    Raises:
        TooLong: the text expands to more than ``most`` characters (a
            variable referenced many times can make it grow as the square of
            its length).

    Example:
        >>> expanded("$(A)$(B)$$(C)$(D", {"A": "a"})
        Expanded(text='a$(B)$(C)$(D', unexpanded=('B',), used=('A',))
    """
    if _OPERATOR not in text:
        return Expanded(text, (), ())
    parts: list[str] = []
    unexpanded: dict[str, None] = {}
    used: dict[str, None] = {}
    length = 0
    checkpoint = 0
    cursor = text.find(_OPERATOR)
    end = len(text)
    while 0 <= cursor < end - 1:
        written = text[checkpoint:cursor]
        after = text[cursor + 1]
        if after == "(":
            closer = text.find(")", cursor + 2)
            if closer < 0:  # no ")": "$(" stays, and what follows is read on
                written += "$("
                checkpoint = cursor + 2
            else:
                name = text[cursor + 2 : closer]
                value = _looked_up(name, defined)
                if value is None:
                    written += f"$({name})"
                    unexpanded[name] = None
                else:
                    written += value
                    used[name] = None
                checkpoint = closer + 1
        elif after == _OPERATOR:  # "$$": an escaped "$"
            written += _OPERATOR
            checkpoint = cursor + 2
        else:  # "$" then any other character: both stay
            written += text[cursor : cursor + 2]
            checkpoint = cursor + 2
        length += len(written)
        if most is not None and length > most:
            raise TooLong(f"expands to more than {most:,} characters")
        parts.append(written)
        cursor = text.find(_OPERATOR, checkpoint)
    parts.append(text[checkpoint:])
    if most is not None and length + end - checkpoint > most:
        raise TooLong(f"expands to more than {most:,} characters")
    return Expanded("".join(parts), tuple(unexpanded), tuple(used))


def expand(text: str, *defined: Mapping[str, str]) -> str:
    """``text`` expanded as Kubernetes expands it: :attr:`Expanded.text` of :func:`expanded`."""
    return expanded(text, *defined).text


def _looked_up(name: str, defined: Sequence[Mapping[str, str]]) -> str | None:
    for names in defined:
        value = names.get(name)
        if value is not None:
            return value
    return None


def placeholder(source: str) -> str:
    """What stands for a value known only once the pod runs: ``<status.podIP>``."""
    return f"<{source}>"


class EnvVar(NamedTuple):
    """An entry of a container's ``env``, its ``valueFrom`` resolved by the caller.

    Kubernetes reads ``value`` when it is not empty (expanded), else
    ``valueFrom`` (never expanded), else the variable is empty.
    """

    name: str
    value: str = ""
    """Its ``value``; empty when not given."""
    source: str | None = None
    """What its ``valueFrom`` names (``status.podIP``, ``configMap tf/TF_CONFIG``); None: no
    ``valueFrom``."""
    value_from: str | None = None
    """The value ``source`` gives, if it is known before the pod runs; else None."""


@dataclass(frozen=True)
class Variable:
    """A variable of a container as its program reads it.

    Attributes:
        name: its name.
        value: its value; where a part of it is known only once the pod
            runs, that part is its :func:`placeholder`.
        unknown: the sources of the parts known only once the pod runs
            (``status.podIP``), each once.
        unexpanded: the ``$(NAME)`` references of its ``value`` that stayed
            as written: no variable of that name is defined before it.
        position: the position of its entry in ``env``; None for a variable
            of ``envFrom`` or a Service's.
    """

    name: str
    value: str
    unknown: tuple[str, ...] = ()
    unexpanded: tuple[str, ...] = ()
    position: int | None = None


def container_env(
    env: Iterable[EnvVar],
    *,
    env_from: Mapping[str, Variable] | None = None,
    services: Mapping[str, Variable] | None = None,
    most: int | None = None,
) -> dict[str, Variable]:
    """The variables a container's program reads, as the kubelet makes them.

    ``env_from`` holds the variables of the container's ``envFrom``, which
    ``env`` overrides; ``services`` the Service variables of the namespace,
    which both override.  Each ``env`` entry is expanded with the names of
    ``env_from``, of the entries before it and of ``services``, in that
    order; an entry that redefines a name replaces it for the entries after.

    Raises:
        TooLong: an entry expands to more than ``most`` characters.

    Example:
        >>> found = container_env([EnvVar("A", "$(B)"), EnvVar("B", "1"), EnvVar("C", "$(B)")])
        >>> [(v.name, v.value, v.unexpanded) for v in found.values()]
        [('A', '$(B)', ('B',)), ('B', '1', ()), ('C', '1', ())]
    """
    variables: dict[str, Variable] = dict(env_from or {})
    service_variables = dict(services or {})
    values = {name: variable.value for name, variable in variables.items()}
    service_values = {name: variable.value for name, variable in service_variables.items()}
    for position, entry in enumerate(env):
        variable = _variable(
            entry, position, variables, service_variables, values, service_values, most
        )
        variables[entry.name] = variable
        values[entry.name] = variable.value
    for name, variable in service_variables.items():
        variables.setdefault(name, variable)
    return variables


def _variable(
    entry: EnvVar,
    position: int,
    variables: Mapping[str, Variable],
    service_variables: Mapping[str, Variable],
    values: Mapping[str, str],
    service_values: Mapping[str, str],
    most: int | None,
) -> Variable:
    if entry.value:
        found = expanded(entry.value, values, service_values, most=most)
        unknown = _unknown_of(found.used, variables, service_variables)
        return Variable(entry.name, found.text, unknown, found.unexpanded, position)
    if entry.source is None:
        return Variable(entry.name, "", position=position)
    if entry.value_from is None:
        return Variable(entry.name, placeholder(entry.source), (entry.source,), position=position)
    return Variable(entry.name, entry.value_from, position=position)


def _unknown_of(
    names: Iterable[str], variables: Mapping[str, Variable], services: Mapping[str, Variable]
) -> tuple[str, ...]:
    """The unknown sources of the variables ``names`` (as expansion looks them up), each once."""
    found: dict[str, None] = {}
    for name in names:
        variable = variables.get(name) or services.get(name)
        if variable is not None:
            found.update(dict.fromkeys(variable.unknown))
    return tuple(found)


def expand_command(words: Sequence[str], variables: Mapping[str, Variable]) -> list[str]:
    """``command`` or ``args`` as the container runs them: every variable of it is defined.

    Example:
        >>> expand_command(["--index=$(I)", "$(J)"], {"I": Variable("I", "3")})
        ['--index=3', '$(J)']
    """
    values = {name: variable.value for name, variable in variables.items()}
    return [expand(word, values) for word in words]


# The downward API

ENV_FIELD_PATHS: Final = frozenset(
    {
        "metadata.name",
        "metadata.namespace",
        "metadata.uid",
        "spec.nodeName",
        "spec.serviceAccountName",
        "status.hostIP",
        "status.hostIPs",
        "status.podIP",
        "status.podIPs",
    }
)
"""The fields of its pod a variable's ``fieldRef`` may name, besides one label or annotation
(``metadata.labels['KEY']``, ``metadata.annotations['KEY']``): Kubernetes refuses any other
(``spec.hostname``) when the pod is created."""

RUNTIME_FIELD_PATHS: Final = frozenset(
    {
        "metadata.uid",
        "spec.nodeName",
        "status.hostIP",
        "status.hostIPs",
        "status.podIP",
        "status.podIPs",
    }
)
"""The fields known only once the pod is created or scheduled."""

_SUBSCRIPTED: Final = ("metadata.labels", "metadata.annotations")
_NAME_PART = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_PREFIX = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")


@dataclass(frozen=True)
class PodFields:
    """What the downward API reads of a pod before it runs.

    Attributes:
        name: its name; the Job controller's pod names end in five random
            characters, written ``xxxxx`` here.
        namespace: its namespace.
        labels: its labels.
        annotations: its annotations.
        service_account_name: its service account (``default`` unless its spec names one).
    """

    name: str
    namespace: str
    labels: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, str] = field(default_factory=dict)
    service_account_name: str = "default"


def _qualified_name(key: str) -> bool:
    """Whether ``key`` is a Kubernetes qualified name: ``[prefix/]name``, the name of 63 at most."""
    prefix, slash, name = key.rpartition("/")
    if slash and not (prefix and len(prefix) <= 253 and _PREFIX.fullmatch(prefix)):
        return False
    return len(name) <= 63 and _NAME_PART.fullmatch(name) is not None


def _subscript(path: str) -> tuple[str, str] | None:
    """``("metadata.labels", "KEY")`` of ``metadata.labels['KEY']``, as Kubernetes splits it."""
    if not path.endswith("']"):
        return None
    field_name, opened, key = path[:-2].partition("['")
    return (field_name, key) if opened and field_name else None


def field_value(path: str, pod: PodFields) -> str | None:
    """The value a ``fieldRef`` to ``path`` gives a variable of ``pod``; None: known only later.

    A label or annotation the pod does not have gives the empty text.

    Raises:
        ValueError: Kubernetes refuses ``path`` in an env variable (the pod
            is never created).

    Example:
        >>> pod = PodFields("w-0-xxxxx", "ml", annotations={"index": "0"})
        >>> field_value("metadata.annotations['index']", pod), field_value("status.podIP", pod)
        ('0', None)
    """
    subscripted = _subscript(path)
    if subscripted is not None:
        field_name, key = subscripted
        if field_name not in _SUBSCRIPTED:
            raise ValueError(f"fieldPath {path!r}: {field_name} takes no subscript")
        checked = key.lower() if field_name == "metadata.annotations" else key
        if not _qualified_name(checked):
            raise ValueError(f"fieldPath {path!r}: {key!r} is not a qualified name")
        found = pod.labels if field_name == "metadata.labels" else pod.annotations
        return found.get(key, "")
    if path not in ENV_FIELD_PATHS:
        raise ValueError(
            f"fieldPath {path!r} is not one an env variable may name: "
            f"{', '.join(sorted(ENV_FIELD_PATHS))}, or metadata.labels['KEY'] or "
            "metadata.annotations['KEY']"
        )
    if path in RUNTIME_FIELD_PATHS:
        return None
    return {
        "metadata.name": pod.name,
        "metadata.namespace": pod.namespace,
        "spec.serviceAccountName": pod.service_account_name,
    }[path]
