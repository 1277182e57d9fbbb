"""Mutations of real files, by structure and by bytes, as an attacker or a careless script would.

Every mutation is a function of a :class:`random.Random`, so the property
tests (hypothesis draws the generator, and shrinks it) and the long run of
``tools/fuzz.py`` (``make fuzz``: seeded generators, or atheris' seeds) make
the same kinds of input.

- :func:`mutate_structure` parses a file (JSON, YAML, TOML, JSON lines),
  changes values, keys, types and nesting, and writes it back as JSON, YAML
  or TOML: inputs that pass the parser and reach the models and the checks;
- :func:`mutate_bytes` flips, inserts, deletes, duplicates, splices and
  truncates bytes, with tokens that YAML, JSON and TOML give meaning to
  (anchors and aliases, tags, deep brackets, escapes, byte-order marks):
  inputs that reach the parsers' corners.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import math
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]

from fuzz_surfaces import Input

KEYS = (
    "cluster", "task", "type", "index", "chief", "master", "worker", "ps", "evaluator",
    "model_dir", "rpc_layer", "session_master", "environment", "service", "tf_config",
    "save_checkpoints_steps", "save_checkpoints_secs", "session_config", "tpu_config",
    "iterations_per_loop", "num_shards", "$schema", "apiVersion", "kind", "metadata", "name",
    "namespace", "spec", "tfReplicaSpecs", "replicas", "template", "containers", "env",
    "value", "data", "ports", "containerPort", "generateName", "items", "runPolicy",
    "successPolicy", "cleanPodPolicy", "restartPolicy", "hostNetwork", "TF_CONFIG", "Chief",
    "Worker", "PS", "Evaluator", "Master", "tensorflow", "tfjob-port", "sparseCluster",
    "device_filters", "experimental", "valueFrom", "stringData", "jobs",
)  # fmt: skip
"""Keys that mean something to one reader or another."""

STRINGS = (
    "", "host0:2222", "[::1]:2222", "host:65536", "host:-1", "worker", "chief", "ps",
    "evaluator", "0", "-1", "1e3", "grpc://h:1", "gs://bucket/model", "\ud800", "\x00",
    "a" * 300, "\u202e", "\uff43\uff48\uff49\uff45\uff46", "Chief",
    "kubeflow.org/v1", "TFJob", "v1", "Pod",
    "ConfigMap", "List", "null", "~", "yes", "on", "0x10", "1_000", "NaN", ".inf", "{}", "[]",
    '{"cluster": {"chief": ["h:1"]}, "task": {"type": "chief", "index": 0}}',
    "urn:estconf:schema:run_config", "schemas/tf_config.schema.json", "*", "&", "!!int",
    "${TF_CONFIG}", "'", '"', "\\", "\n", " ", "tfjob",
)  # fmt: skip

NUMBERS: tuple[Any, ...] = (
    0, 1, -1, 2, 7, 8, 65535, 65536, 1000000, 2**31, 2**63, -(2**63), 10**30, 10**400,
    0.5, -0.0, 1e308, float("nan"), float("inf"), True, False, None,
)  # fmt: skip

TOKENS = (
    b"{", b"}", b"[", b"]", b",", b":", b'"', b"'", b"\n", b" ", b"-", b"#", b"\\",
    b"&a ", b"*a", b"&a [*a, *a, *a, *a, *a, *a, *a, *a, *a]", b"<<: *a\n", b"!!int ",
    b"!!bool ", b"!!str ", b"!!float ", b"!!binary ", b"!!timestamp ", b"!!set ", b"!!omap ",
    b"!!python/object:os.system ", b"!!python/name:os.system ", b"? ", b"? {a: !!int ''}\n: 1\n",
    b"%YAML 1.1\n---\n", b"---\n", b"...\n", b"|\n  ", b">-\n  ", b"\t", b"\r", b"\r\n",
    b"[" * 70, b"[" * 600, b"{a: " * 70, b'{"a": ' * 600, b"[[[[[[[[[[", b"]]]]]]]]]]",
    b"\\ud800", b"\\udfff", b"\\u0000", b"\\uD83D\\uDE00", b"\xef\xbb\xbf", b"\xff\xfe",
    b"\xfe\xff", b"\x00", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x80\xae",
    b"NaN", b"Infinity", b"-Infinity", b"1e999", b"9" * 5000, b"0x", b"1_0", b"inf", b"nan",
    b"true", b"null", b"~", b"1000000", b"65535", b"2147483648", b"-1", b"999999999999",
    b"[[x]]\n", b"a.b.c = 1\n", b'"""', b"'''", b"= ", b"apiVersion: kubeflow.org/v1\n",
    b"kind: TFJob\n", b"replicas: 1000000\n", b"export TF_CONFIG=", b"TF_CONFIG=", b"$'",
    b"\\\n", b"`", b"$(", b"\"$TF_CONFIG\"",
    b"#SBATCH ", b"#SBATCH -N 100000\n", b"#SBATCH hetjob\n", b"#SLURM ", b"--ntasks-per-n=",
    b" -w n[1-65536]", b"--gres=gpu:1k", b"--nodes=2-4", b"#!/bin/sh\n",
)  # fmt: skip
"""Byte strings that a parser or a reader gives meaning to."""

SUFFIXES = (".json", ".yaml", ".toml")

OPTIONS = (
    "--slurm", "--nodelist", "--tasks-per-node", "--from-env", "--sbatch", "--jobs",
    "--port-base", "--gpus-per-node", "--gpus-per-task", "--rank", "--write", "--sagemaker",
    "--instance-count",
    "--instance-groups", "--instance-type", "--distribution", "--distribution-groups",
    "--resource-config", "--hyperparameters", "--vertex", "--cluster-spec", "--job-id",
    "--trial", "--job", "--namespace", "--port", "--chief", "--master", "--worker", "--ps",
    "--evaluator", "--tfjob", "--name", "--cluster-domain", "--task", "--format", "--profile",
    "--max-size", "--max-depth", "--max-values", "--max-documents", "--jobset", "--trainjob",
)  # fmt: skip
"""The options of ``estconf tf-config``: the launchers' first."""

ARGUMENT_VALUES = (
    b"0", b"1", b"2", b"-1", b"7", b"1024", b"1025", b"65533", b"65534", b"65535", b"65536",
    b"99999", b"100000", b"100001", b"2147483647", b"2147483648", b"4294967296",
    b"9223372036854775808", b"1" * 30, b"9" * 5000, b"1e3", b"0x10", b"\xd9\xa1", b"",
    b" 1", b"n1", b"n[1-4]", b"n[01-65536]", b"n[1-65537]", b"n[1-65536],m[1-65536]",
    b"n[9-10],m7", b"n[1-2", b"n1,n1", b"\xff[", b"\xed\xa0\x80", b"n\xe2\x80\xae",
    b"2(x3),1", b"2(x3),1(x99999999)", b"1(x2147483648)", b"65534(x2)", b"(x2)", b"2(x",
    b"ps=1,worker=3", b"worker=100000", b"worker=100001", b"ps=1,ps=2", b"\xff=1",
    b"data=1,dnn=2", b"dnn=2049", b"a=1,b=9999999999", b"parameter_server",
    b"multi_worker_mirrored", b"ml.p4d.24xlarge", b"worker:0", b"chief:0", b"worker:99999999",
    b"\xff:0", b"mnist", b"ab", b"default", b"cluster.local", b"-", b"jsonl", b"shell", b"k8s",
    b"mwms", b"ps", b"{ROOT}/tests/data/launchers/vertex/distributed.yaml",
    b"{ROOT}/tests/data/launchers/sagemaker/heterogeneous_algo-1.resourceconfig.json",
    b"{ROOT}/tests/data/launchers/sagemaker/heterogeneous.hyperparameters.json",
    b"{ROOT}/tests/data/hostile/sagemaker_hyperparameter_nested_1000_deep.json",
    b"{ROOT}/tests/data/kubeflow/multi_worker.yaml", b"{ROOT}/examples/cluster/training.yaml",
    b"{ROOT}/tests/data/launchers/slurm/gpu-2x4.sbatch",
    b"{ROOT}/tests/data/launchers/slurm/gpus-per-task.sbatch",
    b"{ROOT}/tests/data/launchers/slurm/broken.sbatch",
)  # fmt: skip
"""Values an option of the launchers may be given: counts at their bounds, lists, bad bytes."""


# --- by structure --------------------------------------------------------------------------


def parse(given: Input) -> list[Any] | None:
    """The documents of a file, or ``None`` when its format is not one mutated by structure."""
    documents = _parse(given.data, given.suffix)
    return None if documents is None else copy.deepcopy(documents)


@functools.lru_cache(maxsize=256)
def _parse(data: bytes, suffix: str) -> list[Any] | None:
    text = data.decode("utf-8", "replace")
    try:
        if suffix == ".json":
            return [json.loads(text)]
        if suffix in (".jsonl", ".ndjson"):
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        if suffix == ".toml":
            return [tomllib.loads(text)]
        if suffix in (".yaml", ".yml"):
            return list(YAML(typ="safe", pure=True).load_all(text))
    except Exception:
        return None
    return None


def _paths(
    value: Any, path: tuple[Any, ...] = (), found: list[tuple[Any, ...]] | None = None
) -> list[tuple[Any, ...]]:
    found = [] if found is None else found
    found.append(path)
    if len(found) > 2000:
        return found
    if isinstance(value, dict):
        for key, item in value.items():
            _paths(item, (*path, key), found)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _paths(item, (*path, index), found)
    return found


def _expanded_size(value: Any, budget: int = 20_000) -> int:
    """How many values ``value`` holds once its shared parts (YAML aliases) are written out."""
    stack = [value]
    count = 0
    while stack and count < budget:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _scalar(rng: random.Random) -> Any:
    pick = rng.random()
    if pick < 0.4:
        return rng.choice(STRINGS)
    if pick < 0.8:
        return rng.choice(NUMBERS)
    if pick < 0.9:
        return rng.randint(-10, 100000)
    return "".join(chr(rng.randint(1, 0x2FF)) for _ in range(rng.randint(0, 12)))


def _new_key(rng: random.Random, old: Any) -> Any:
    if isinstance(old, str) and old and rng.random() < 0.5:
        spot = rng.randrange(len(old))
        edit = rng.randrange(4)
        if edit == 0:
            return old[:spot] + old[spot + 1 :]
        if edit == 1:
            return old[:spot] + rng.choice("abcdefghijklmnopqrstuvwxyz_-.") + old[spot:]
        if edit == 2:
            return old.swapcase()
        return old + "s"
    return rng.choice(KEYS) if rng.random() < 0.9 else rng.choice(STRINGS)


def _nest(rng: random.Random, value: Any) -> Any:
    for _ in range(rng.choice((1, 2, 5, 40, 63, 64, 65, 100))):
        value = [value] if rng.random() < 0.5 else {rng.choice(KEYS): value}
    return value


def _replacement(rng: random.Random, old: Any, donor: Any) -> Any:
    choice = rng.randrange(10)
    if choice < 4:
        return _scalar(rng)
    if choice == 4:
        return _nest(rng, old)
    if choice == 5:  # a subtree of this document, or another's
        paths = _paths(donor)
        return json.loads(json.dumps(_get(donor, rng.choice(paths)), default=str, skipkeys=True))
    if choice == 6:  # the same value, another type
        if isinstance(old, str):
            return int(old) if old.isdigit() else [old]
        if isinstance(old, bool | int | float):
            return str(old)
        if isinstance(old, list):
            return {str(index): item for index, item in enumerate(old)}
        if isinstance(old, dict):
            return list(old.values())
        return {}
    if choice == 7:  # many of it: up to some 20 KB, now and then 200 KB
        text = json.dumps(old, default=str, skipkeys=True)
        budget = 200_000 if rng.random() < 0.1 else 20_000
        count = min(rng.choice((2, 3, 100, 5000)), max(2, budget // (len(text) + 2)))
        return [json.loads(text) for _ in range(count)]  # copies: a later change stays in one
    if choice == 8:
        return {}
    return []


def mutate_data(rng: random.Random, data: Any, donor: Any) -> Any:
    """``data`` with one to four changes of a value, a key, a type or the nesting."""
    for _ in range(rng.randint(1, 4)):
        paths = _paths(data)
        path = rng.choice(paths)
        if not path:
            data = _replacement(rng, data, donor)
            continue
        parent = _get(data, path[:-1])
        step = path[-1]
        action = rng.randrange(6)
        if action < 3:
            parent[step] = _replacement(rng, parent[step], donor)
        elif action == 3:
            del parent[step]
        elif action == 4 and isinstance(parent, dict):
            value = parent.pop(step)
            parent[_new_key(rng, step)] = value
        else:
            key = _new_key(rng, None) if isinstance(parent, dict) else len(parent)
            item = _replacement(rng, parent[step], donor)
            if isinstance(parent, dict):
                parent[key] = item
            else:
                parent.append(item)
    return data


def _toml_value(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return (
            "nan"
            if math.isnan(value)
            else ("inf" if value > 0 else "-inf")
            if math.isinf(value)
            else repr(value)
        )
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        items = [text for text in map(_toml_value, value) if text is not None]
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        pairs = [
            f"{json.dumps(str(key))} = {text}"
            for key, item in value.items()
            if (text := _toml_value(item)) is not None
        ]
        return "{" + ", ".join(pairs) + "}"
    return json.dumps(str(value))


def serialize(rng: random.Random, documents: list[Any], suffix: str) -> bytes:
    """``documents`` written as ``suffix`` says (JSON lines for several as JSON)."""
    if suffix == ".yaml" and _expanded_size(documents, 3000) < 3000:
        yaml = YAML(typ="safe", pure=True)
        yaml.default_flow_style = rng.random() < 0.3
        out = io.StringIO()
        try:
            yaml.dump_all(documents, out)
        except Exception:
            return json.dumps(documents[0], default=str, skipkeys=True).encode(
                "utf-8", "surrogatepass"
            )
        return out.getvalue().encode("utf-8", "surrogatepass")
    if suffix == ".toml":
        lines = []
        for document in documents[:1]:
            table = document if isinstance(document, dict) else {"value": document}
            for key, value in table.items():
                text = _toml_value(value)
                if text is not None:
                    lines.append(f"{json.dumps(str(key))} = {text}")
        return "\n".join(lines).encode("utf-8", "surrogatepass") + b"\n"
    # JSON, JSON lines; and YAML too, for a large document (JSON is YAML, and quicker to write)
    ascii_only = rng.random() < 0.5
    text = ("\n---\n" if suffix == ".yaml" else "\n").join(
        json.dumps(document, ensure_ascii=ascii_only, default=str, skipkeys=True)
        for document in documents
    )
    return text.encode("utf-8", "surrogatepass")


def mutate_arguments(rng: random.Random, given: Input, donor: Input) -> Input:
    """An ``.args`` input (one argument a line) with one to four arguments changed.

    A value replaced by an edge case (a count at a bound, a hostlist of many
    hosts, bytes that are not UTF-8), an option added with a value, an
    argument dropped or repeated, two swapped, an ``--option=value`` written.
    """
    lines = given.data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    for _ in range(rng.randint(1, 4)):
        action = rng.randrange(7)
        spot = rng.randrange(len(lines)) if lines else 0
        if action < 3 and lines:  # a value
            lines[spot] = rng.choice(ARGUMENT_VALUES)
        elif action == 3:  # an option and its value
            option = rng.choice(OPTIONS).encode()
            lines[spot:spot] = [option, rng.choice(ARGUMENT_VALUES)]
        elif action == 4 and lines:
            del lines[spot]
        elif action == 5 and lines:
            lines.insert(spot, lines[rng.randrange(len(lines))])
        elif lines:
            value = rng.choice(ARGUMENT_VALUES)
            lines.insert(spot, rng.choice(OPTIONS).encode() + b"=" + value)
    return Input(b"\n".join(lines) + b"\n", given.name)


def mutate_structure(rng: random.Random, given: Input, donor: Input) -> Input:
    """``given`` parsed, changed by :func:`mutate_data` and written back in some format.

    An ``.args`` input has its arguments changed (:func:`mutate_arguments`).
    """
    if given.suffix == ".args":
        return mutate_arguments(rng, given, donor)
    documents = parse(given)
    if not documents or _expanded_size(documents) >= 20_000:  # a billion laughs, written out
        return mutate_bytes(rng, given, donor)
    donor_documents = parse(donor) or documents
    if _expanded_size(donor_documents) >= 20_000:
        donor_documents = documents
    index = rng.randrange(len(documents))
    documents[index] = mutate_data(rng, documents[index], rng.choice(donor_documents))
    if rng.random() < 0.1 and len(documents) < 50:
        documents.append(documents[index])
    keep = given.suffix if given.suffix in (".jsonl", ".ndjson") and rng.random() < 0.7 else None
    suffix = keep or rng.choice(SUFFIXES)
    written = ".json" if keep else suffix
    name = Path(given.name).stem + suffix
    return Input(serialize(rng, documents, written), name)


# --- by bytes -------------------------------------------------------------------------------


def _flip(rng: random.Random, data: bytes, donor: bytes) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    spot = rng.randrange(len(data))
    return data[:spot] + bytes([data[spot] ^ (1 << rng.randrange(8))]) + data[spot + 1 :]


def _insert(rng: random.Random, data: bytes, donor: bytes) -> bytes:
    spot = rng.randint(0, len(data))
    token = (
        rng.choice(TOKENS)
        if rng.random() < 0.8
        else bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    )
    return data[:spot] + token + data[spot:]


def _delete(rng: random.Random, data: bytes, donor: bytes) -> bytes:
    if not data:
        return data
    start = rng.randrange(len(data))
    return data[:start] + data[start + rng.randint(1, 16) :]


def _duplicate(rng: random.Random, data: bytes, donor: bytes) -> bytes:
    if not data:
        return data
    start = rng.randrange(len(data))
    piece = data[start : start + rng.randint(1, 64)]
    spot = rng.randint(0, len(data))
    return data[:spot] + piece * rng.choice((1, 2, 10, 200)) + data[spot:]


def _splice(rng: random.Random, data: bytes, donor: bytes) -> bytes:
    cut = rng.randint(0, len(data))
    other = rng.randint(0, len(donor))
    return data[:cut] + donor[other:] if rng.random() < 0.5 else donor[:other] + data[cut:]


def _truncate(rng: random.Random, data: bytes, donor: bytes) -> bytes:
    return data[: rng.randint(0, len(data))]


def _replace_token(rng: random.Random, data: bytes, donor: bytes) -> bytes:
    if not data:
        return rng.choice(TOKENS)
    start = rng.randrange(len(data))
    return data[:start] + rng.choice(TOKENS) + data[start + rng.randint(1, 8) :]


BYTE_MUTATIONS: tuple[Callable[[random.Random, bytes, bytes], bytes], ...] = (
    _flip, _insert, _insert, _delete, _duplicate, _splice, _truncate, _replace_token,
)  # fmt: skip


def mutate_bytes(rng: random.Random, given: Input, donor: Input) -> Input:
    """``given`` with one to eight byte mutations, under its own name."""
    data = given.data
    for _ in range(rng.choice((1, 1, 2, 3, 8))):
        data = rng.choice(BYTE_MUTATIONS)(rng, data, donor.data)
    return Input(data[: 1 << 20], given.name)


def mutate(rng: random.Random, given: Input, donor: Input) -> Input:
    """One mutation of ``given``, by structure or by bytes (``donor`` lends subtrees and bytes)."""
    if rng.random() < 0.5:
        return mutate_structure(rng, given, donor)
    return mutate_bytes(rng, given, donor)
