"""The codes of the whole-cluster checks, the TFJob checks and the file pipeline.

The rows are read as :mod:`estconf._codes` says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from estconf._codes import Section

SECTIONS: Final[tuple[Section, ...]] = (
    (
        "whole-cluster-errors-estconf-check-cluster-estconfdeployment",
        (
            (
                "no_nodes",
                "error",
                "no `TF_CONFIG` was given",
                "`estconf check-cluster` on an empty file (a note, exit 0, under `--allow-empty`)",
            ),
            (
                "cluster_mismatch",
                "error",
                "two nodes' clusters differ (the finding lists the differing tasks)",
                'node 2 has `"worker": ["h1:2222", "h9:2222"]`',
            ),
            (
                "task_claimed_twice",
                "error",
                "two nodes give themselves the same task",
                "two nodes with task `worker` 1",
            ),
            (
                "task_unclaimed",
                "error",
                "a task of the cluster that no node runs",
                "`worker` 2 listed, no node with that task",
            ),
            (
                "task_not_in_cluster",
                None,
                "a node's task is not in the agreed cluster (also the resolver's code, above)",
                "a node with task `worker` 5 in a job of three",
            ),
            (
                "model_dir_mismatch",
                "error",
                "two nodes' `model_dir` differ",
                '`"model_dir": "gs://a"` and `"gs://b"`',
            ),
            (
                "service_mismatch",
                "error",
                "two nodes' `service` differ",
                "",
            ),
            (
                "rpc_layer_mismatch",
                "error",
                "two nodes' `rpc_layer` differ",
                '`"grpc"` and `"grpc+verbs"`',
            ),
            (
                "session_master_mismatch",
                "error",
                "two nodes' `session_master` differ",
                "",
            ),
        ),
    ),
    (
        "tfjob-findings-estconfkubeflow-estconf-validate-on-a-tfjob",
        (
            (
                "tfjob_api_version",
                "error",
                "refused: a TFJob of another API version than `kubeflow.org/v1`, the only one the "
                "operator serves (the rest is read as `v1`); as a model error, an `apiVersion` "
                "that is not a Kubeflow TFJob's",
                "`apiVersion: kubeflow.org/v1beta2`",
            ),
            (
                "tfjob_not_a_list",
                "error",
                "model error: `containers`, `ports` or `env` written as a mapping, a list item "
                "without its `- `; the message says where the dash goes (reported with "
                "`tfjob_api_version`, which needs the apiVersion alone)",
                "`containers:` then `  name: tensorflow`",
            ),
            (
                "tfjob_generate_name",
                "note",
                "note: the name is left to the API server (`generateName`); the pods' names are "
                "predicted with a placeholder",
                "`generateName: mnist-`",
            ),
            (
                "tfjob_invalid_name",
                "error",
                "refused: the TFJob's name is not a DNS-1035 label",
                "`name: 00test`",
            ),
            (
                "tfjob_no_replica_specs",
                "error",
                "refused: no `tfReplicaSpecs`",
                "`spec: {}`",
            ),
            (
                "tfjob_no_containers",
                "error",
                "refused: a replica spec without containers",
                "`containers: []`",
            ),
            (
                "tfjob_no_image",
                "error",
                "refused: a container without an image",
                "`- name: tensorflow`",
            ),
            (
                "tfjob_no_tensorflow_container",
                "error",
                "refused: no container named `tensorflow`",
                "`- name: trainer`",
            ),
            (
                "tfjob_multiple_chief",
                "error",
                "refused: both a `Chief` and a `Master` replica spec",
                "`Chief:` and `Master:`",
            ),
            (
                "tfjob_duplicate_replica_type",
                "error",
                "two keys name one replica type",
                "`Worker:` and `worker:`",
            ),
            (
                "tfjob_unknown_replica_type",
                "warning",
                "a replica type other than Chief, Master, Worker, PS and Evaluator",
                "`Trainer:`",
            ),
            (
                "tfjob_port_not_named",
                "warning",
                "the `tensorflow` container's ports have no `tfjob-port`: the cluster says 2222",
                "`ports: [{containerPort: 5000}]`",
            ),
            (
                "tfjob_port_invalid",
                "error",
                "error: a `tfjob-port` outside 1..65535",
                "`containerPort: 70000`",
            ),
            (
                "tfjob_port_other_container",
                "warning",
                "a `tfjob-port` on a container other than `tensorflow`",
                "a sidecar's `tfjob-port`",
            ),
            (
                "tfjob_tf_config_set",
                "warning",
                "`TF_CONFIG` set by hand on the `tensorflow` container, which the operator's own "
                "hides (a note in a one-pod job, where it is used, and what the pod refuses in it "
                "is an error)",
                "`env: [{name: TF_CONFIG, ...}]`",
                "remove it: the operator writes TF_CONFIG for every pod",
            ),
            (
                "tfjob_single_replica",
                "note",
                "note: one pod in all: it gets no `TF_CONFIG` and runs alone",
                "`Worker: {replicas: 1}` only",
                "for distributed training give more replicas",
            ),
            (
                "tfjob_service_name",
                "error",
                "error: a pod's Service name is longer than a DNS-1035 label",
                "a 60-character job name",
            ),
            (
                "tfjob_dynamic_worker_empty_cluster",
                "error",
                "error: under `enableDynamicWorker` a Chief, Master or Evaluator gets an empty "
                "cluster",
                "`enableDynamicWorker: true` with a `Chief`",
            ),
            (
                "tfjob_dynamic_worker_ps_null",
                "error",
                'error: under `enableDynamicWorker` without PS each worker gets `"ps": null`',
                "`enableDynamicWorker: true`, no `PS`",
                "add PS replicas or drop enableDynamicWorker",
            ),
            (
                "tfjob_sparse_cluster_ignored",
                "error",
                "error: an operator before v1.7.0 writes the dynamic cluster under "
                "`sparseCluster`, which TensorFlow never reads",
                "`enableDynamicWorker: true`, `--operator-version v1.6.0`",
            ),
            (
                "tfjob_cluster_check",
                "error",
                "error: the predicted `TF_CONFIG`s of all pods fail the whole-cluster check",
                "pods that disagree on the cluster",
            ),
            (
                "tfjob_success_policy_ignored",
                "warning",
                "`successPolicy: AllWorkers` beside a Chief or Master, which the operator reads "
                "only without one: the job succeeds when its chief does",
                "`successPolicy: AllWorkers` with `Chief:`",
            ),
            (
                "tfjob_success_policy_unknown",
                "warning",
                "a `successPolicy` other than `AllWorkers` or empty, which the operator reads as "
                "the default",
                "`successPolicy: allWorkers`",
                "write successPolicy: AllWorkers (in this letter case), or remove it",
            ),
            (
                "tfjob_clean_pod_policy_unknown",
                "warning",
                "a `cleanPodPolicy` other than `All`, `Running`, `None`: every pod is deleted "
                "when the job ends, as with `All`",
                "`cleanPodPolicy: running`",
            ),
            (
                "tfjob_run_policy_outside",
                "warning",
                "`cleanPodPolicy`, `backoffLimit`, `activeDeadlineSeconds` or "
                "`ttlSecondsAfterFinished` directly under `spec` (where v1beta2 had them), not "
                "under `spec.runPolicy`: never read",
                "`spec: {cleanPodPolicy: Running}`",
            ),
            (
                "tfjob_ps_pods_kept",
                "note",
                "note: the `cleanPodPolicy` written under `spec` is not read, so the default "
                "`None` keeps the ps pods running after the job ends",
                "`spec: {cleanPodPolicy: Running}` with `PS:`",
                "write spec.runPolicy.cleanPodPolicy: Running",
            ),
            (
                "tfjob_evaluator_deleted",
                "warning",
                "`cleanPodPolicy` `All` or `Running` in a job with an Evaluator: the evaluator is "
                "deleted when the job ends, usually before its last evaluation",
                "`runPolicy: {cleanPodPolicy: Running}` with `Evaluator:`",
            ),
            (
                "tfjob_evaluator_fails_job",
                "note",
                "note: with `restartPolicy: Never` (the default) a failed evaluator fails the "
                "whole job",
                "`Evaluator: {replicas: 1}`",
                "give the Evaluator restartPolicy: OnFailure to restart it instead",
            ),
            (
                "tfjob_restart_exit_code",
                "note",
                "note: `restartPolicy: ExitCode` restarts a pod only on an exit code of 128 or "
                "more (a signal); 1 to 127 fail the job",
                "`restartPolicy: ExitCode`",
                "restartPolicy: OnFailure restarts the pod on any failure",
            ),
            (
                "tfjob_restart_policy_invalid",
                "error",
                "error: a `restartPolicy` other than `Always`, `OnFailure`, `Never`, `ExitCode`: "
                "Kubernetes refuses every pod",
                "`restartPolicy: onFailure`",
            ),
            (
                "tfjob_pod_restart_policy_ignored",
                "warning",
                "a `restartPolicy` in the pod template, which the operator overwrites with the "
                "replica spec's (`Never` by default)",
                "`template: {spec: {restartPolicy: OnFailure}}`",
            ),
            (
                "tfjob_mwms_restart",
                "warning",
                "under `--profile mwms`: `restartPolicy` `OnFailure` or `Always` on the workers "
                "restarts one worker alone, which cannot rejoin the others' collective, and the "
                "job never fails",
                "`Worker: {restartPolicy: OnFailure}`",
            ),
            (
                "tfjob_host_network_port",
                "warning",
                "`hostNetwork: true` on pods that share a port: each takes that port of its node, "
                "so no two share a node and pods beyond the free nodes stay Pending",
                "`hostNetwork: true` with `replicas: 8`",
            ),
            (
                "tfjob_host_network_dns",
                "error",
                "error: `hostNetwork: true` without `dnsPolicy: ClusterFirstWithHostNet`: the "
                "pods resolve names as their node does, and the addresses of `TF_CONFIG` do not "
                "resolve",
                "`hostNetwork: true` alone",
                "dnsPolicy: ClusterFirstWithHostNet",
            ),
        ),
    ),
    (
        "file-errors",
        (
            (
                "file",
                "error",
                "the file cannot be read: missing, a directory, no permission",
                "`missing.json: no such file`",
            ),
            (
                "format",
                "error",
                "the file name does not say the format (`.json`, `.toml`, `.yaml`, `.yml`) and "
                "none was given",
                "`conf.txt: cannot tell the format from the file name: name it .json, .toml, "
                ".yaml or .yml, or give the format explicitly` (`--input-format`)",
            ),
            (
                "size",
                "error",
                "the file (or standard input) holds more bytes than the limit (`--max-size`, "
                "`max_size`; 64 MiB by default)",
                "`big.json: the file is larger than the limit of 5 bytes`",
            ),
            (
                "encoding",
                "error",
                "the text is not UTF-8: a UTF-16 or UTF-32 byte-order mark, a byte that is not "
                "UTF-8, a NUL character, or a string or key with half of a UTF-16 surrogate pair "
                '(`"\\ud800"`)',
                "`u16.json: the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it "
                "as UTF-8`",
            ),
            (
                "empty",
                "error",
                "the file holds nothing but white space (or, in YAML, no document but empty ones: "
                "comments, `---` alone, `null`)",
                "`empty.json: the file is empty`",
            ),
            (
                "syntax",
                "error",
                "the text is not valid JSON, TOML or YAML, or holds a scalar its format cannot "
                "build (a 13th month, `!!int abc`)",
                "`syn.json:1:14: invalid JSON: Expecting property name enclosed in double quotes`",
            ),
            (
                "duplicate_key",
                None,
                "a key given twice in one object (TOML refuses it as `syntax`)",
                "`dup.json:1:14: task: duplicate key 'task': each key may appear once in an "
                "object`",
            ),
            (
                "number",
                "error",
                "`NaN` or an infinite number, a number too large for a float (`1e400`), or a "
                "decimal integer with more digits than can be converted (4300)",
                "`nan.json:1:24: save_summary_steps: NaN is not valid JSON; write a number or a "
                "string instead`",
            ),
            (
                "depth",
                None,
                "objects and arrays nested deeper than the limit (`--max-depth`, `max_depth`; 64 "
                "by default), or deeper than the parser can read; what comments or strings hold "
                "does not count",
                "`deep.toml: service.x[0][0]: the document is nested deeper than 4 levels`",
            ),
            (
                "too_many_values",
                "error",
                "more values than a config holds: YAML aliases expand past the limit "
                "(`--max-values`, `max_values`; by default the size in bytes, at least 100,000), "
                "or a YAML or TOML text has over one value per 16 bytes (at least 10,000)",
                "`many.yaml:1:1: the document expands to more than 100000 values, more than its "
                "text could hold: are YAML aliases repeating a large value?`",
            ),
            (
                "tag",
                "error",
                "a YAML tag that would build a Python object (`!!python/name:os.system`)",
                "`tag.yaml:1:12: could not determine a constructor for the tag "
                "'tag:yaml.org,2002:python/name:os.system': only plain YAML values (...) are "
                "read`",
            ),
            (
                "too_many_documents",
                "error",
                "a YAML stream of more documents than the limit (`--max-documents`, "
                "`max_documents`; 10,000 by default; empty documents count)",
                "`many.yaml:20001:1: the stream holds more than 10000 YAML documents`",
            ),
            (
                "helm_template",
                "error",
                "the file is a Helm (Go) template: `{{ ... }}` marks that YAML cannot read; "
                "render it with `helm template` and check what it renders (`estconf validate` "
                "exits 2 for such a file named, and passes it over in a directory)",
                "`templates/tfjob.yaml:7:17: a Helm template ({{ .Values.workers }}), not YAML: "
                "render it first and check the manifests it renders (helm template CHART \\| "
                "estconf validate --input-format yaml -)`",
            ),
            (
                "documents",
                "error",
                "more than one YAML document in the file",
                "`docs.yaml:2:1: the file holds more than one YAML document`",
            ),
            (
                "not_an_object",
                "error",
                "the top level is not an object (a mapping)",
                "`arr.json: a config file holds an object (a mapping) at the top level, not an "
                "array`",
            ),
            (
                "kind",
                "error",
                'no kind was given, and neither the file\'s name, its `"$schema"` nor its '
                "top-level keys mark one (such a file found in a directory is passed over)",
                '`what.json: cannot tell what this file configures from its name, its "$schema" '
                "or its top-level keys (...); give the kind explicitly`",
            ),
            (
                "json_schema",
                "error",
                'the file is a JSON Schema (its top-level `"$schema"` names a JSON Schema '
                "meta-schema, as the schemas `estconf schema` exports do), read as a config file "
                "or a node's `TF_CONFIG` (found in a directory with no kind given, it is passed "
                "over)",
                "`schemas/run_config.schema.json:1:1: a JSON Schema ($schema: "
                "https://json-schema.org/draft/2020-12/schema), not a RunConfig file`",
            ),
            (
                "kubernetes_manifest",
                "error",
                "a Kubernetes manifest (top-level `apiVersion` and `kind`), or a stream of them, "
                "that sets no `TF_CONFIG`, read as a config file or a node's `TF_CONFIG` (passed "
                "over in a directory, with no kind given); `estconf validate` checks a TFJob, "
                "`estconf tf-config` takes it as `--tfjob`",
                "`tf_config.yaml:2:1: a Kubernetes ConfigMap manifest (apiVersion: v1), not a "
                "TF_CONFIG file`",
            ),
            (
                "no_tf_config",
                "error",
                "`estconf check-cluster` read a node file of `TF_CONFIG=` lines with no such "
                "line, or a container's `env` list or a Kubernetes manifest with no `TF_CONFIG` "
                "value; `estconf validate` read a shell script or env file that sets none",
                "`chief-0.env: no line of the file sets TF_CONFIG`",
            ),
            (
                "shell_syntax",
                "error",
                "a shell script (`.sh`) or env file (`.env`) that cannot be read: a quote, "
                "`$(`, `${`, a backquote or a here-document that nothing closes (the error is "
                "where it opens), or text after the closing quote of an env file's value",
                "`start.sh:2:18: the single quote opened here is not closed before the end of "
                "the file`",
                "close it; a `'` cannot be written inside single quotes: end them, write `\\'` "
                "and open them again (`'it'\\''s'`)",
            ),
            (
                "shell_expansion",
                "error",
                "a `TF_CONFIG` in a shell script or env file whose value the shell (or Docker "
                "Compose) makes when it runs: `$VAR`, `${...}`, `$(...)`, a backquote, `~`, "
                "`+=`; it is not known before the job runs, and the file is not read (exit 2)",
                "`start.sh:3:45: TF_CONFIG: the value depends on the shell at run time: "
                "$(hostname) is a command the shell runs when the script runs`",
                "write the value out in single quotes, or check it where the job runs "
                "(`printenv TF_CONFIG \\| estconf validate -`)",
            ),
            (
                "env_file_quoted",
                "warning",
                "an env file's `TF_CONFIG` value in quotes: Docker Compose and python-dotenv "
                "remove them, `docker run --env-file` keeps them (a note in `estconf "
                "check-cluster`)",
                "`nodes.env:2:11: TF_CONFIG: the value is quoted: Docker Compose and "
                "python-dotenv remove the quotes, but docker run --env-file keeps them, and "
                "TensorFlow then reads no JSON`",
                "for `docker run --env-file`, write the value on one line without quotes",
            ),
            (
                "schema_key",
                "error",
                'the top-level `"$schema"` key is not a string',
                '`run.json:2:14: ["$schema"]: names the JSON Schema of the file: expected a '
                "string, not a number (got 1)`",
            ),
            (
                "unknown_key",
                "error",
                "a key the object's model does not have (with the closest one as a hint), or a "
                "key of an argument that takes a Python object (`device_fn`); `TF_CONFIG` keeps "
                "unknown keys",
                "`unk.json:1:27: save_sumary_steps: unknown key 'save_sumary_steps' of RunConfig; "
                "did you mean 'save_summary_steps'?`",
            ),
            (
                "near_miss_key",
                None,
                "in a `TF_CONFIG`, an unknown top-level key that is a `RunConfig` argument, the "
                'variable\'s name `TF_CONFIG` (a file holding `{"TF_CONFIG": "..."}`), or a near '
                "miss of a `TF_CONFIG` key or a `RunConfig` argument (`clusters`, "
                "`sparseCluster`, `save_checkpoint_steps`); other unknown keys are kept (see "
                "[compatibility](compatibility.md))",
                "`typo.json:1:21: save_checkpoint_steps: unknown key 'save_checkpoint_steps' of "
                "TF_CONFIG; did you mean 'save_checkpoints_steps' of RunConfig?`",
            ),
            (
                "tf_config_empty",
                None,
                "`estconf explain` read an empty `TF_CONFIG` from standard input or the "
                "environment (the model's code for the same rule)",
                "`<stdin>: TF_CONFIG is set but empty; unset it or give a JSON object`",
            ),
        ),
    ),
)
