"""JSON Schema (draft 2020-12) for each kind of config file.

:func:`json_schema` builds the schema of a kind from its model, then adds
what pydantic does not write but JSON Schema can say: TensorFlow's numeric
bounds, the estimator's cluster rules (one ``chief`` or one ``master``, not
both; a task when there is a cluster; a ``worker`` task 0 when there is
none), and the checkpoint steps/seconds exclusion.  The rules that relate
values to each other in ways JSON Schema cannot express (the task type is a
job of the cluster, the index is in range, ...) are listed in the schema's
``description``.

A schema describes a file: anything the models accept from a file, the
schema accepts too (it is never stricter; rules it cannot express make it
looser).  The derived properties a model dumps (``master``, ``is_chief``,
...) are ``readOnly`` properties, so a dump validates as well.

The schemas are committed under ``schemas/``; ``estconf schema -o schemas``
(``make schemas``) writes them again.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from estconf.io import kinds

__all__ = ["DIALECT", "KINDS", "json_schema", "schema_id", "write_schemas"]

DIALECT = "https://json-schema.org/draft/2020-12/schema"

KINDS: tuple[str, ...] = tuple(kinds.KINDS)
"""The kinds that have a schema: the kinds of config file."""

Schema = dict[str, Any]

_NON_NEGATIVE = {"minimum": 0}
_POSITIVE = {"exclusiveMinimum": 0}

_TF_CONFIG_RULES = [
    "`task.type` is a job of `cluster`, or `evaluator`.",
    "`task.index` is less than the size of its job, and names a task that a sparse "
    "job gives an address.",
    "No address is given to two tasks.",
    "IPv4 and IPv6 addresses are valid addresses.",
]

_RUN_CONFIG_RULES = [
    *(rule.replace("`task", "`tf_config.task") for rule in _TF_CONFIG_RULES),
    "`model_dir` and `tf_config.model_dir`, if both set, are equal.",
]
_TPU_CONFIG_RULES = [
    "The dims of each `input_partition_dims` entry multiply to `num_cores_per_replica`.",
]
_DERIVED = "Derived keys (`{example}`, ...) agree with what is derived from the other keys."

_RULES: dict[str, list[str]] = {
    "cluster": [
        "Every task of the cluster is read as it would start: by tf.estimator.RunConfig, or "
        "under a profile by that reader.",
        *_TF_CONFIG_RULES[2:],
    ],
    "vertex_custom_job": [
        "`workerPoolSpecs[0].replicaCount` is 1: pool 0 is the primary replica, the chief.",
        "A whole CustomJob is read as its `jobSpec`; snake_case keys as their camelCase.",
        "Under a profile, every replica's TF_CONFIG is checked by that reader.",
    ],
    "tf_config": _TF_CONFIG_RULES,
    "run_config": [*_RUN_CONFIG_RULES, _DERIVED.format(example="is_chief")],
    "tpu_config": [*_TPU_CONFIG_RULES, _DERIVED.format(example="iterations_per_loop_counter")],
    "tpu_run_config": [
        *_RUN_CONFIG_RULES,
        *(rule.replace("`input", "`tpu_config.input") for rule in _TPU_CONFIG_RULES),
        "`tpu_config.tpu_job_name`, when not given, is read from `tf_config.service`, "
        "which is then an object.",
        _DERIVED.format(example="is_chief"),
    ],
}
"""The rules of each kind that its schema does not express."""


def schema_id(kind: str) -> str:
    """Return the ``$id`` of the schema of ``kind``."""
    return kinds.get(kind).schema_id


def json_schema(kind: str) -> Schema:
    """Return the JSON Schema of the config files of ``kind`` (``run_config``, ...).

    Raises:
        ValueError: there is no such kind.

    Example:
        >>> schema = json_schema("tf_config")
        >>> schema["$schema"]
        'https://json-schema.org/draft/2020-12/schema'
        >>> schema["title"]
        'TF_CONFIG'
    """
    spec = kinds.get(kind)
    model = spec.model()
    schema = model.model_json_schema(mode="validation")
    _add_derived(schema, model.model_json_schema(mode="serialization"))
    defs: dict[str, Schema] = schema.get("$defs", {})
    if "ClusterSpec" in defs:
        _cluster(defs["ClusterSpec"])
    if spec.name == "cluster":
        _cluster(schema)
        _leader(schema, local=False)
        schema["allOf"] = [
            {"if": {"required": ["master"]}, "then": {"not": {"required": ["evaluator"]}}}
        ]
    if spec.name == "tf_config":
        _tf_config(schema)
    elif "TFConfig" in defs:
        _tf_config(defs["TFConfig"])
    if spec.name in ("run_config", "tpu_run_config"):
        _run_config(schema)
    if spec.name == "vertex_custom_job":
        _vertex_custom_job(schema)
    if spec.name == "tpu_config":
        _tpu_config(schema)
    elif "TPUConfig" in defs:
        _tpu_config(defs["TPUConfig"])
        _nullable(schema["properties"], "tpu_config")  # null stands for the default
    _tidy(schema)
    schema["properties"] = {kinds.SCHEMA_KEY: _schema_key(spec), **schema.get("properties", {})}
    body = {key: value for key, value in schema.items() if key not in ("title", "description")}
    return {
        "$schema": DIALECT,
        "$id": schema_id(kind),
        "title": spec.title,
        "description": _description(spec),
        **body,
    }


def write_schemas(directory: str | Path) -> list[Path]:
    """Write the schema of every kind to ``<directory>/<kind>.schema.json``.

    Returns:
        The files written.
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in KINDS:
        path = out / kinds.get(kind).schema_file
        path.write_text(dumps(json_schema(kind)), encoding="utf-8")
        written.append(path)
    return written


def dumps(schema: Schema) -> str:
    """Write a schema as the committed files are written: indented, key order kept."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def _schema_key(spec: kinds.Kind) -> Schema:
    """The ``"$schema"`` key naming a file's schema, which editors and estconf read."""
    return {
        "type": "string",
        "description": "The JSON Schema of this file, which also tells estconf its kind: "
        f"`{spec.schema_id}`, or a path or URL ending in `{spec.schema_file}`.",
    }


def _vertex_custom_job(schema: Schema) -> None:
    """Both spellings of each key, a whole CustomJob, ``replicaCount`` as an ``int64``."""
    from estconf.launchers.vertex.spec import MAX_POOLS, MAX_REPLICAS

    pool = schema["$defs"]["WorkerPoolSpec"]
    count = {
        "anyOf": [
            {"type": "integer", "minimum": 0, "maximum": MAX_REPLICAS},
            {"type": "string", "pattern": "^[0-9]+$"},
            {"type": "null"},
        ],
        "description": pool["properties"]["replicaCount"]["description"],
    }
    pool["properties"] = {"replicaCount": count, "replica_count": count}
    pools = schema["properties"]["workerPoolSpecs"]
    pools.update(minItems=1, maxItems=MAX_POOLS)
    schema["properties"]["worker_pool_specs"] = pools
    spec_alone = {key: value for key, value in schema.items() if key != "$defs"}
    spec_alone.pop("required", None)
    spec_alone["anyOf"] = [{"required": ["workerPoolSpecs"]}, {"required": ["worker_pool_specs"]}]
    schema.pop("required", None)
    schema["properties"]["jobSpec"] = schema["properties"]["job_spec"] = {
        "description": "A whole CustomJob's spec.",
        **copy.deepcopy(spec_alone),
    }
    schema["anyOf"] = [
        {"required": [key]}
        for key in ("workerPoolSpecs", "worker_pool_specs", "jobSpec", "job_spec")
    ]


def _description(spec: kinds.Kind) -> str:
    parts = [spec.description]
    rules = _RULES.get(spec.name)
    if rules:
        parts.append(
            "Also checked by estconf, but not expressed in this schema:\n"
            + "\n".join(f"- {rule}" for rule in rules)
        )
    return "\n\n".join(parts)


def _add_derived(schema: Schema, serialization: Schema) -> None:
    """Add computed fields (``readOnly`` in a dump's schema) as properties, so dumps validate."""
    defs = schema.setdefault("$defs", {})
    output_defs = serialization.get("$defs", {})
    pairs = [(schema, serialization)]
    pairs += [(defs[name], output_defs[name]) for name in list(defs) if name in output_defs]
    for target, source in pairs:
        for name, prop in source.get("properties", {}).items():
            if prop.get("readOnly") and name not in target.get("properties", {}):
                target.setdefault("properties", {})[name] = copy.deepcopy(prop)
                for ref in _refs(prop):
                    if ref not in defs and ref in output_defs:
                        defs[ref] = copy.deepcopy(output_defs[ref])
    if not defs:
        del schema["$defs"]


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = []
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            found.append(ref.removeprefix("#/$defs/"))
        for value in node.values():
            found.extend(_refs(value))
        return found
    if isinstance(node, list):
        return [ref for item in node for ref in _refs(item)]
    return []


def _non_null(prop: Schema) -> list[Schema]:
    """The branches of a property that are not ``null``."""
    branches = prop.get("anyOf")
    if branches is None:
        return [prop]
    return [branch for branch in branches if branch.get("type") != "null"]


def _nullable(properties: Schema, name: str) -> None:
    """Let a ``$ref`` property be ``null`` too."""
    prop = properties[name]
    if "anyOf" not in prop and "$ref" in prop:
        prop["anyOf"] = [{"$ref": prop.pop("$ref")}, {"type": "null"}]


def _constrain(schema: Schema, name: str, **constraints: Any) -> None:
    for branch in _non_null(schema["properties"][name]):
        branch.update(constraints)


def _cluster(cluster: Schema) -> None:
    """Every job has at least one task; job names are TensorFlow's."""
    for job in cluster.get("patternProperties", {}).values():
        for form in job.get("anyOf", []):
            if form.get("type") == "array":
                form["minItems"] = 1
            elif form.get("type") == "object":
                form["minProperties"] = 1
                form["propertyNames"] = {"pattern": _INDEX_KEY}  # "-0" is read as 0
    cluster["additionalProperties"] = False


def _one_task(job: str) -> Schema:
    """A leader job (``chief``, ``master``): one task, at index 0."""
    return {
        "anyOf": [
            {"type": "array", "maxItems": 1},
            {"type": "object", "maxProperties": 1, "propertyNames": {"pattern": "^-?0+$"}},
        ],
        "description": f"One `{job}` task, at index 0.",
    }


def _leader(cluster: Schema, *, local: bool) -> None:
    """The Estimator's leader: one ``chief`` or one ``master``, not both (``local``: or no job)."""
    cluster["properties"] = {
        **cluster.get("properties", {}),
        "chief": _one_task("chief"),
        "master": _one_task("master"),
    }
    cluster["not"] = {"required": ["chief", "master"]}
    cluster["anyOf"] = [
        *([{"maxProperties": 0}] if local else []),
        {"required": ["chief"]},
        {"required": ["master"]},
    ]


_INDEX_KEY = "^(?:[0-9]+|-0+)$"
_INDEX_ZERO = {"anyOf": [{"const": 0}, {"type": "string", "pattern": "^-?0+$"}]}
_INDEX_SET = {
    "anyOf": [
        {"type": "integer", "minimum": 0},
        {"type": "string", "pattern": _INDEX_KEY},
    ]
}


def _tf_config(tf_config: Schema) -> None:
    """The estimator's rules for TF_CONFIG, as far as JSON Schema can say them."""
    properties = tf_config["properties"]
    _constrain(tf_config, "model_dir", minLength=1)
    properties["cluster"] = {**properties["cluster"]}
    _leader(properties["cluster"], local=True)
    has_cluster = {"required": ["cluster"], "properties": {"cluster": {"minProperties": 1}}}
    tf_config["allOf"] = [
        {
            "if": has_cluster,
            "then": {
                "required": ["task"],
                "properties": {
                    "task": {
                        "required": ["type", "index"],
                        "properties": {
                            "type": {"type": "string", "minLength": 1},
                            "index": _INDEX_SET,
                        },
                    }
                },
            },
            "else": {
                "properties": {
                    "task": {"properties": {"type": {"const": "worker"}, "index": _INDEX_ZERO}}
                }
            },
        },
        {
            "if": {
                "required": ["cluster"],
                "properties": {"cluster": {"required": ["master"]}},
            },
            "then": {
                "properties": {"task": {"properties": {"type": {"not": {"const": "evaluator"}}}}}
            },
        },
    ]


def _run_config(run_config: Schema) -> None:
    """TensorFlow's argument checks."""
    _nullable(run_config["properties"], "tf_config")  # null stands for an unset TF_CONFIG
    _constrain(run_config, "model_dir", minLength=1)
    for name in (
        "save_summary_steps",
        "save_checkpoints_steps",
        "save_checkpoints_secs",
        "keep_checkpoint_max",
    ):
        _constrain(run_config, name, **_NON_NEGATIVE)
    for name in (
        "keep_checkpoint_every_n_hours",
        "log_step_count_steps",
        "session_creation_timeout_secs",
    ):
        _constrain(run_config, name, **_POSITIVE)
    both = ("save_checkpoints_steps", "save_checkpoints_secs")
    run_config["not"] = {
        "required": list(both),
        "properties": {name: {"not": {"type": "null"}} for name in both},
        "description": "`save_checkpoints_steps` and `save_checkpoints_secs` cannot be both set.",
    }


def _tpu_config(tpu_config: Schema) -> None:
    """``input_partition_dims`` needs PER_HOST_V2 and ``num_cores_per_replica``.

    Also, as in TensorFlow, any false value of ``tpu_job_name`` means "not given".
    """
    for branch in tpu_config["properties"]["tpu_job_name"]["anyOf"]:
        if branch.get("type") == "null":
            branch.clear()
            branch.update(
                {
                    "enum": [None, False, 0, "", [], {}],
                    "description": "Not given: the name is read from TF_CONFIG's service.",
                }
            )
    tpu_config.setdefault("allOf", []).append(
        {
            "if": {
                "required": ["input_partition_dims"],
                "properties": {"input_partition_dims": {"type": "array"}},
            },
            "then": {
                "required": ["per_host_input_for_training", "num_cores_per_replica"],
                "properties": {
                    "per_host_input_for_training": {"enum": [3, "PER_HOST_V2"]},
                    "num_cores_per_replica": {"type": "integer"},
                },
            },
        }
    )


_RST_LITERAL = re.compile(r"``([^`]+)``")
_RST_ROLE = re.compile(r":(?:meth|class|func|attr|data):`~?([^`]+)`")
_EXAMPLE = re.compile(r"\n\s*Examples?:\n.*", re.DOTALL)


def _tidy(node: Any) -> None:
    """Turn docstrings into plain descriptions: no doctest examples, Markdown literals."""
    if isinstance(node, dict):
        description = node.get("description")
        if isinstance(description, str):
            text = _EXAMPLE.sub("", description)
            text = _RST_ROLE.sub(r"`\1`", _RST_LITERAL.sub(r"`\1`", text))
            node["description"] = text.strip()
        for value in node.values():
            _tidy(value)
    elif isinstance(node, list):
        for item in node:
            _tidy(item)
