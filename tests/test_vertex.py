"""estconf.vertex: the TF_CONFIG and CLUSTER_SPEC Vertex AI gives each replica (docs/vertex.md).

Vertex AI publishes no code for it; every case is written from its
documentation, each citing its page:

- DISTRIBUTED: https://cloud.google.com/vertex-ai/docs/training/distributed-training
  (the pools by position; pool 0 the primary replica, replicaCount 1; the
  CLUSTER_SPEC format and its example; TF_CONFIG's job names);
- DETAILS: https://cloud.google.com/ai-platform/training/docs/distributed-training-details
  (the TF_CONFIG fields: "this dictionary never contains evaluator as a key";
  "environment": "cloud"; the job key);
- CUSTOM_JOB: https://cloud.google.com/vertex-ai/docs/training/create-custom-job
  (the spec of gcloud ai custom-jobs create --config);
- REST: https://cloud.google.com/vertex-ai/docs/reference/rest/v1/CustomJobSpec
  (workerPoolSpecs[], replicaCount an int64 string in JSON).

DISTRIBUTED also says that pool 2 runs "Parameter servers, Reduction Server",
and sets the Reduction Server up with the image
``us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver:latest`` in
pool 2; what TF_CONFIG its replicas get, neither page says.  DETAILS gives
``task.trial``, the trial's number from 1, in a hyperparameter-tuning job.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from estconf import TFConfig, vertex
from estconf.deployment import PROFILES
from estconf.profiles import check_profile as check_tf_config
from estconf.vertex import CustomJobSpec
from values import is_a_value, refuses_assignment


def pools(*counts: int | str | None) -> dict[str, Any]:
    """A spec with these replica counts; None is an unused pool, ``{}``."""
    return {
        "workerPoolSpecs": [
            {}
            if count is None
            else {"machineSpec": {"machineType": "n1-standard-4"}, "replicaCount": count}
            for count in counts
        ]
    }


def codes(error: ValidationError) -> list[tuple[str, tuple[Any, ...]]]:
    return [(e["type"], e["loc"]) for e in error.errors()]


class TestClusterSpec:
    def test_the_job_is_the_spec_as_json_without_unset_counts(self) -> None:
        """``job`` is JSON: an unused pool is ``{}``, a tuple of args a list."""
        spec = pools(1, None)
        spec["workerPoolSpecs"][0]["args"] = ("--epochs", "3")
        job = vertex.cluster_specs(spec)["workerpool0-0"]["job"]
        assert job["worker_pool_specs"][1] == {}
        assert job["worker_pool_specs"][0]["args"] == ["--epochs", "3"]
        assert type(job["worker_pool_specs"][0]["args"]) is list

    def test_each_tf_configs_job_is_the_spec_without_unset_counts(self) -> None:
        job = vertex.tf_configs(pools(1, None, 1))["workerpool0-0"]["job"]
        assert job["worker_pool_specs"][1] == {}

    def test_the_documented_example(self) -> None:
        # DISTRIBUTED, "CLUSTER_SPEC format": pools 0 to 3 with 1, 2, 2 and 3 replicas,
        # the job id "ab", the task of the primary replica.
        specs = vertex.cluster_specs(pools(1, 2, 2, 3))
        primary = specs["workerpool0-0"]
        assert primary["cluster"] == {
            "workerpool0": ["cmle-training-workerpool0-ab-0:2222"],
            "workerpool1": [
                "cmle-training-workerpool1-ab-0:2222",
                "cmle-training-workerpool1-ab-1:2222",
            ],
            "workerpool2": [
                "cmle-training-workerpool2-ab-0:2222",
                "cmle-training-workerpool2-ab-1:2222",
            ],
            "workerpool3": [
                "cmle-training-workerpool3-ab-0:2222",
                "cmle-training-workerpool3-ab-1:2222",
                "cmle-training-workerpool3-ab-2:2222",
            ],
        }
        assert primary["environment"] == "cloud"
        assert primary["task"] == {"type": "workerpool0", "index": 0}
        assert "job" in primary

    def test_an_unused_pool_is_not_in_the_cluster(self) -> None:
        # DISTRIBUTED: an optional pool is written {}
        specs = vertex.cluster_specs(pools(1, None, None, 1), job_id="d604929a6a")
        assert list(specs) == ["workerpool0-0", "workerpool3-0"]
        assert list(specs["workerpool3-0"]["cluster"]) == ["workerpool0", "workerpool3"]


class TestTFConfig:
    def test_pools_are_chief_worker_ps_the_evaluator_never_in_the_cluster(self) -> None:
        # DISTRIBUTED (the pools' tasks) and DETAILS ("never contains evaluator as a key")
        configs = vertex.tf_configs(pools(1, 2, 2, 1))
        assert list(configs) == [
            "workerpool0-0",
            "workerpool1-0",
            "workerpool1-1",
            "workerpool2-0",
            "workerpool2-1",
            "workerpool3-0",
        ]
        cluster = configs["workerpool3-0"]["cluster"]
        assert cluster == {
            "chief": ["cmle-training-workerpool0-ab-0:2222"],
            "worker": [
                "cmle-training-workerpool1-ab-0:2222",
                "cmle-training-workerpool1-ab-1:2222",
            ],
            "ps": ["cmle-training-workerpool2-ab-0:2222", "cmle-training-workerpool2-ab-1:2222"],
        }
        assert all(config["cluster"] == cluster for config in configs.values())
        tasks = [(c["task"]["type"], c["task"]["index"]) for c in configs.values()]
        assert tasks == [
            ("chief", 0),
            ("worker", 0),
            ("worker", 1),
            ("ps", 0),
            ("ps", 1),
            ("evaluator", 0),
        ]

    def test_environment_cloud_and_the_job(self) -> None:
        # DETAILS: "environment": the string "cloud"; "job": the job's input
        config = vertex.tf_configs(pools(1))["workerpool0-0"]
        assert config["environment"] == "cloud"
        assert config["job"]["worker_pool_specs"][0]["machineSpec"] == {
            "machineType": "n1-standard-4"
        }
        assert config["cluster"] == {"chief": ["cmle-training-workerpool0-ab-0:2222"]}

    def test_the_job_is_json_data_whatever_the_spec_was_given_as(self) -> None:
        config = vertex.tf_configs({**pools(1), "labels": ("team", "ml")})["workerpool0-0"]
        assert config["job"]["labels"] == ["team", "ml"]

    def test_each_is_a_tf_config_the_estimator_reads(self) -> None:
        for config in vertex.tf_configs(pools(1, 2, 1)).values():
            check_tf_config(config, "estimator")

    def test_the_job_id_names_the_hosts(self) -> None:
        config = vertex.tf_configs(pools(1), job_id="d604929a6a")["workerpool0-0"]
        assert config["cluster"]["chief"] == ["cmle-training-workerpool0-d604929a6a-0:2222"]
        with pytest.raises(ValidationError) as info:
            vertex.tf_configs(pools(1), job_id="Not An Id")
        assert codes(info.value) == [("vertex_job_id", ("job_id",))]
        assert (
            "job_id is part of each replica's host name: lowercase letters and digits, "
            "not 'Not An Id'"
        ) in str(info.value)

    def test_replica_names(self) -> None:
        assert vertex.replica_names(pools(1, None, 2)) == [
            "workerpool0-0",
            "workerpool2-0",
            "workerpool2-1",
        ]


class TestSpec:
    def test_replica_count_a_number_or_its_digits(self) -> None:
        # REST: replicaCount is an int64, a string in the API's JSON; gcloud's YAML writes numbers
        spec = CustomJobSpec.model_validate(pools(1, "2", 0))
        assert spec.replica_counts() == {"chief": 1, "worker": 2, "ps": 0, "evaluator": 0}

    def test_snake_case_and_a_whole_custom_job(self) -> None:
        # CUSTOM_JOB: the Python client's worker_pool_specs; REST: a CustomJob's jobSpec
        spec = CustomJobSpec.model_validate(
            {
                "displayName": "mnist",
                "jobSpec": {"worker_pool_specs": [{"replica_count": 1}, {"replica_count": "3"}]},
            }
        )
        assert spec.replica_counts()["worker"] == 3

    @pytest.mark.parametrize(
        ("spec", "expected"),
        [
            (pools(2), [("vertex_primary_replicas", ("workerPoolSpecs", 0, "replicaCount"))]),
            (pools(None, 2), [("vertex_primary_replicas", ("workerPoolSpecs", 0, "replicaCount"))]),
            (
                {"jobSpec": {"worker_pool_specs": [{"replica_count": 3}]}},
                [("vertex_primary_replicas", ("jobSpec", "worker_pool_specs", 0, "replica_count"))],
            ),
            (pools(1, True), [("vertex_replica_count", ("workerPoolSpecs", 1, "replicaCount"))]),
            (pools(1, "2.5"), [("vertex_replica_count", ("workerPoolSpecs", 1, "replicaCount"))]),
            (pools(1, -1), [("vertex_replica_count", ("workerPoolSpecs", 1, "replicaCount"))]),
            (pools(1, 1, 1, 1, 1), [("vertex_pools", ("workerPoolSpecs",))]),
            ({"workerPoolSpecs": []}, [("vertex_pools", ("workerPoolSpecs",))]),
        ],
    )
    def test_refused(self, spec: dict[str, Any], expected: list[tuple[str, Any]]) -> None:
        # DISTRIBUTED: "set its replicaCount to 1" for the primary; at most four pools
        with pytest.raises(ValidationError) as info:
            vertex.tf_configs(spec)
        assert codes(info.value) == expected

    @pytest.mark.parametrize(
        ("spec", "message"),
        [
            (
                {"workerPoolSpecs": [{"replicaCount": 1}, {"replicaCount": 2.5}]},
                'replicaCount is a whole number of replicas (written 2 or "2"), not 2.5',
            ),
            (
                pools(1, 1, 1, 1, 1),
                "a CustomJob has from 1 to 4 worker pools (primary, workers, parameter servers, "
                "evaluators), not 5",
            ),
            (
                pools(None, 2),
                "workerPoolSpecs[0] is the primary replica, the chief: its replicaCount must be "
                "1, not absent (put the workers in workerPoolSpecs[1])",
            ),
            (
                pools(0),
                "workerPoolSpecs[0] is the primary replica, the chief: its replicaCount must be "
                "1, not 0 (put the workers in workerPoolSpecs[1])",
            ),
        ],
    )
    def test_each_refusal_says_what_a_spec_writes(self, spec: dict[str, Any], message: str) -> None:
        with pytest.raises(ValidationError) as info:
            vertex.tf_configs(spec)
        assert [e["msg"] for e in info.value.errors()] == [message]

    def test_pools_written_at_the_top_are_read_whatever_else_the_spec_has(self) -> None:
        # A spec that writes its pools is the job's spec; a jobSpec beside them is kept as written.
        spec = CustomJobSpec.model_validate(
            {**pools(1), "jobSpec": {"workerPoolSpecs": [{"replicaCount": 1}, {"replicaCount": 2}]}}
        )
        assert spec.replica_counts()["worker"] == 0

    def test_an_unused_pool_is_one_with_no_field_at_all(self) -> None:
        # DISTRIBUTED: an optional pool is written {}
        assert vertex.WorkerPoolSpec().unused is True
        assert vertex.WorkerPoolSpec.model_validate({"replicaCount": 0}).unused is False
        assert vertex.WorkerPoolSpec.model_validate({"machineSpec": {}}).unused is False


class TestCheckProfile:
    def test_an_evaluator_pool_under_mwms_at_its_replica_count(self) -> None:
        with pytest.raises(ValidationError) as info:
            vertex.check_profile(pools(1, 2, None, 1), "mwms")
        assert codes(info.value) == [
            ("missing_evaluator_job", ("workerPoolSpecs", 3, "replicaCount"))
        ]
        [error] = info.value.errors()
        assert "ctx" in error
        assert error["ctx"]["hint"].startswith("Vertex AI never puts the evaluators in the cluster")

    def test_a_spec_given_as_a_model_is_checked_at_the_camel_case_keys(self) -> None:
        """A CustomJobSpec model has no file keys: its errors are at replicaCount."""
        spec = CustomJobSpec.model_validate(pools(1, 2, None, 1))
        with pytest.raises(ValidationError) as info:
            vertex.check_profile(spec, "mwms")
        assert codes(info.value) == [
            ("missing_evaluator_job", ("workerPoolSpecs", 3, "replicaCount"))
        ]

    def test_a_ps_pool_under_mwms(self) -> None:
        with pytest.raises(ValidationError) as info:
            vertex.check_profile(pools(1, 2, 1), "mwms")
        assert [loc for _, loc in codes(info.value)] == [("workerPoolSpecs", 2, "replicaCount")]
        [error] = info.value.errors()
        assert "ctx" in error
        assert error["ctx"]["hint"] == (
            "if the reader uses no parameter servers, leave workerPoolSpecs[2] out"
        )

    def test_each_finding_once_at_the_key_the_file_writes(self) -> None:
        spec = {
            "worker_pool_specs": [
                {"replica_count": 1},
                {"replica_count": 2},
                {"replica_count": 2},
                {"replica_count": 1},
            ]
        }
        with pytest.raises(ValidationError) as info:
            vertex.check_profile(spec, "mwms")
        assert [loc for _, loc in codes(info.value)] == [
            ("worker_pool_specs", 2, "replica_count"),
            ("worker_pool_specs", 3, "replica_count"),
        ]

    @pytest.mark.parametrize("profile", ["estimator", "ps"])
    def test_readers_that_take_the_whole_job(self, profile: str) -> None:
        assert vertex.check_profile(pools(1, 2, 1, 1), profile).replica_counts()["ps"] == 1

    def test_an_error_about_the_cluster_as_a_whole_is_at_each_replicas_pool(self) -> None:
        with pytest.raises(ValidationError) as info:
            vertex.check_profile(pools(1), "ps")
        assert codes(info.value) == [("missing_ps", ("workerPoolSpecs", 0, "replicaCount"))]

    def test_workers_alone_under_mwms(self) -> None:
        vertex.check_profile(pools(1, 4), "mwms")

    def test_what_a_reader_refuses_is_raised_as_errors_of_the_custom_job_spec(self) -> None:
        with pytest.raises(ValidationError) as info:
            vertex.check_profile(pools(1, 2, 1), "mwms")
        assert info.value.title == "CustomJobSpec"
        assert str(info.value).startswith("1 validation error for CustomJobSpec\n")


def test_a_worker_pool_spec_is_a_value() -> None:
    """A pool refuses assignment and hashes by its replica count."""
    is_a_value(lambda: vertex.WorkerPoolSpec.model_validate({"replicaCount": 2}))


def test_a_custom_job_spec_cannot_be_changed() -> None:
    """A spec refuses assignment; it holds a list of pools, so it is not hashed."""
    refuses_assignment(CustomJobSpec.model_validate(pools(1, 2)))


class TestSpecEdges:
    def test_a_replica_count_of_other_text_is_refused_quoting_it(self) -> None:
        spec = {"workerPoolSpecs": [{"replicaCount": 1}, {"replicaCount": "2x"}]}
        with pytest.raises(ValidationError, match=r"0 or more; '2x' is not one"):
            CustomJobSpec.model_validate(spec)

    def test_of_a_job_spec_written_both_ways_the_camel_case_one_is_read(self) -> None:
        """``jobSpec`` is looked for before ``job_spec``, for the pools and their places."""
        spec = {
            "jobSpec": {"workerPoolSpecs": [{"replicaCount": 2}]},
            "job_spec": {"workerPoolSpecs": [{"replicaCount": 3}]},
        }
        with pytest.raises(ValidationError) as raised:
            CustomJobSpec.model_validate(spec)
        [error] = raised.value.errors()
        assert error["loc"] == ("jobSpec", "workerPoolSpecs", 0, "replicaCount")

    def test_a_job_spec_is_looked_for_at_the_top_only(self) -> None:
        """A ``job_spec`` inside the ``jobSpec`` is no spec of the job: its pools are missing."""
        spec = {"jobSpec": {"job_spec": {"workerPoolSpecs": [{"replicaCount": 1}]}}}
        with pytest.raises(ValidationError) as raised:
            CustomJobSpec.model_validate(spec)
        assert [error["type"] for error in raised.value.errors()] == ["missing"]

    def test_a_spec_built_without_validation_is_refused_at_pool_0_when_validated(self) -> None:
        pools = [vertex.WorkerPoolSpec.model_validate({"replicaCount": 2})]
        built = CustomJobSpec.model_construct(worker_pool_specs=pools)
        with pytest.raises(ValidationError) as raised:
            CustomJobSpec.model_validate(built)
        [error] = raised.value.errors()
        assert error["loc"] == ("workerPoolSpecs", 0, "replicaCount")


REDUCTION_SERVER = "us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver:latest"
"""The image of worker pool 2 in DISTRIBUTED's Reduction Server example."""


def with_reduction_server(spec: dict[str, Any], image: str = REDUCTION_SERVER) -> dict[str, Any]:
    """``spec`` whose pool 2 runs ``image``, on the reducers' machine type of the example."""
    spec["workerPoolSpecs"][2]["machineSpec"] = {"machineType": "n1-highcpu-16"}
    spec["workerPoolSpecs"][2]["containerSpec"] = {"imageUri": image}
    return spec


class TestTrial:
    """DETAILS, "task": ``trial``, the trial's number as a string, from 1, in a tuning job."""

    def test_each_replicas_task_holds_the_trial_as_a_string(self) -> None:
        configs = vertex.tf_configs(pools(1, 2, 1, 1), trial=3)
        assert [c["task"] for c in configs.values()] == [
            {"type": "chief", "index": 0, "trial": "3"},
            {"type": "worker", "index": 0, "trial": "3"},
            {"type": "worker", "index": 1, "trial": "3"},
            {"type": "ps", "index": 0, "trial": "3"},
            {"type": "evaluator", "index": 0, "trial": "3"},
        ]

    def test_without_a_trial_there_is_no_trial_key(self) -> None:
        for config in vertex.tf_configs(pools(1, 2)).values():
            assert set(config["task"]) == {"type", "index"}

    def test_the_trial_changes_the_task_alone(self) -> None:
        plain = vertex.tf_configs(pools(1, 2, 1))
        tuned = vertex.tf_configs(pools(1, 2, 1), trial=12)
        for name, config in tuned.items():
            task = dict(config["task"])
            assert task.pop("trial") == "12"
            assert {**config, "task": task} == plain[name]

    def test_the_cluster_spec_holds_the_trial_too(self) -> None:
        # DISTRIBUTED, "CLUSTER_SPEC format": task.trial, "starting at 1"
        specs = vertex.cluster_specs(pools(1, 2), trial="7")
        assert specs["workerpool1-1"]["task"] == {"type": "workerpool1", "index": 1, "trial": "7"}

    @pytest.mark.parametrize("trial", [1, "1", 2.0, vertex.MAX_TRIAL])
    def test_a_trials_number(self, trial: object) -> None:
        task = vertex.tf_configs(pools(1), trial=trial)["workerpool0-0"]["task"]  # type: ignore[arg-type]
        assert task["trial"] == str(int(trial))  # type: ignore[call-overload]

    @pytest.mark.parametrize(
        "trial",
        [
            0,
            -1,
            vertex.MAX_TRIAL + 1,
            True,
            False,
            1.5,
            "",
            "0",
            "-1",
            "3a",
            "٣",
            b"3",
            [3],
            "9" * 99,
        ],
    )
    def test_no_trials_number_is_refused(self, trial: object) -> None:
        with pytest.raises(ValidationError) as info:
            vertex.tf_configs(pools(1), trial=trial)  # type: ignore[arg-type]
        assert codes(info.value) == [("vertex_trial", ("trial",))]
        message = info.value.errors()[0]["msg"]
        assert message.startswith(
            "trial is the number of a hyperparameter-tuning trial, from 1 (Vertex AI numbers "
            "them from 1) to 2,147,483,647, not "
        )
        assert len(message) < 200

    def test_a_long_trial_is_quoted_in_its_first_57_characters(self) -> None:
        with pytest.raises(ValidationError) as info:
            vertex.tf_configs(pools(1), trial="9" * 99)
        message = info.value.errors()[0]["msg"]
        assert message.endswith(", not '" + "9" * 56 + "...")

    def test_cluster_specs_refuse_it_alike(self) -> None:
        with pytest.raises(ValidationError) as info:
            vertex.cluster_specs(pools(1), trial=0)
        assert codes(info.value) == [("vertex_trial", ("trial",))]

    @pytest.mark.parametrize("profile", sorted(PROFILES))
    def test_every_reader_reads_a_trials_tf_config_as_it_reads_the_trial_less_one(
        self, profile: str
    ) -> None:
        """``task.trial`` is kept by the models, and changes no reader's answer."""
        for counts in ((1,), (1, 2), (1, 2, 1), (1, 2, None, 1)):
            plain = vertex.tf_configs(pools(*counts))
            tuned = vertex.tf_configs(pools(*counts), trial=5)
            for name, config in tuned.items():
                assert _verdict(config, profile) == _verdict(plain[name], profile)
                assert TFConfig.model_validate(config).task.model_dump()["trial"] == "5"


def _verdict(config: dict[str, Any], profile: str) -> list[tuple[str, tuple[Any, ...]]] | None:
    """What the reader of ``profile`` refuses in ``config``: None when it reads it."""
    try:
        check_tf_config(config, profile)
    except ValidationError as error:
        return codes(error)
    return None


class TestReductionServer:
    """DISTRIBUTED: pool 2 runs "Parameter servers, Reduction Server"; the reducers' image."""

    @pytest.mark.parametrize(
        "image",
        [
            REDUCTION_SERVER,
            "us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver",
            "europe-docker.pkg.dev/vertex-ai-restricted/training/reductionserver:20220524",
            "asia-docker.pkg.dev/vertex-ai-restricted/training/reductionserver@sha256:" + "0a" * 32,
            "us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver:v1@sha256:" + "f" * 64,
            "localhost:5000/vertex-ai-restricted/training/reductionserver:latest",
            "vertex-ai-restricted/training/reductionserver:latest",
        ],
    )
    def test_its_image_from_any_host_with_any_tag_or_digest(self, image: str) -> None:
        assert vertex.is_reduction_server_image(image)

    @pytest.mark.parametrize(
        "image",
        [
            "us-docker.pkg.dev/my-project/training/mnist:latest",
            "us-docker.pkg.dev/vertex-ai/training/tf-gpu.2-12.py310:latest",
            "us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver-fork:latest",
            "us-docker.pkg.dev/my-project/vertex-ai-restricted/training/reductionserver:latest",
            "us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver:",
            "us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver@sha256:abc",
            " us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver",
            "US-DOCKER.PKG.DEV/VERTEX-AI-RESTRICTED/TRAINING/REDUCTIONSERVER",
            "",
        ],
    )
    def test_other_images_are_not_it(self, image: str) -> None:
        assert not vertex.is_reduction_server_image(image)

    @pytest.mark.parametrize("image", [None, 3, ["x"], {"imageUri": REDUCTION_SERVER}])
    def test_no_text_is_no_image(self, image: object) -> None:
        assert not vertex.is_reduction_server_image(image)

    def test_its_replicas_get_no_tf_config_and_are_not_in_the_cluster(self) -> None:
        configs = vertex.tf_configs(with_reduction_server(pools(1, 4, 16)))
        assert list(configs) == [
            f"workerpool{p}-{i}" for p, i in ((0, 0), *((1, i) for i in range(4)))
        ]
        for config in configs.values():
            assert set(config["cluster"]) == {"chief", "worker"}
        assert (
            CustomJobSpec.model_validate(
                with_reduction_server(pools(1, 4, 16))
            ).reduction_server_replicas
            == 16
        )

    def test_the_cluster_spec_keeps_them_as_workerpool2(self) -> None:
        specs = vertex.cluster_specs(with_reduction_server(pools(1, 2, 3)))
        assert len(specs["workerpool2-2"]["cluster"]["workerpool2"]) == 3
        assert specs["workerpool2-2"]["task"] == {"type": "workerpool2", "index": 2}

    def test_no_ps_finding_under_mwms(self) -> None:
        """The same job with its own parameter servers in pool 2 is refused under mwms."""
        with pytest.raises(ValidationError):
            vertex.check_profile(pools(1, 2, 2), "mwms")
        spec = vertex.check_profile(with_reduction_server(pools(1, 2, 2)), "mwms")
        assert spec.reduction_server_replicas == 2

    def test_an_evaluator_beside_it_is_still_refused_under_mwms(self) -> None:
        with pytest.raises(ValidationError) as info:
            vertex.check_profile(with_reduction_server(pools(1, 2, 2, 1)), "mwms")
        assert codes(info.value) == [
            ("missing_evaluator_job", ("workerPoolSpecs", 3, "replicaCount"))
        ]

    @pytest.mark.parametrize("profile", sorted(PROFILES))
    def test_each_reader_reads_the_training_replicas_as_a_job_without_pool_2(
        self, profile: str
    ) -> None:
        with_it = vertex.tf_configs(with_reduction_server(pools(1, 2, 2)))
        without = vertex.tf_configs(pools(1, 2))
        assert list(with_it) == list(without)
        for name, config in with_it.items():
            assert _verdict(config, profile) == _verdict(without[name], profile)

    def test_its_image_in_snake_case_and_in_a_whole_custom_job(self) -> None:
        spec = {
            "displayName": "bert",
            "jobSpec": {
                "worker_pool_specs": [
                    {"replica_count": 1},
                    {"replica_count": 2},
                    {"replica_count": 2, "container_spec": {"image_uri": REDUCTION_SERVER}},
                ]
            },
        }
        assert set(vertex.tf_configs(spec)["workerpool1-0"]["cluster"]) == {"chief", "worker"}

    @pytest.mark.parametrize("pool", [1, 3])
    def test_only_pool_2_runs_it(self, pool: int) -> None:
        spec = pools(1, 2, 1, 1)
        spec["workerPoolSpecs"][pool]["containerSpec"] = {"imageUri": REDUCTION_SERVER}
        assert CustomJobSpec.model_validate(spec).reduction_server_replicas == 0
        assert "ps" in vertex.tf_configs(spec)["workerpool0-0"]["cluster"]

    def test_a_python_package_pool_is_no_reduction_server(self) -> None:
        spec = pools(1, 2, 1)
        spec["workerPoolSpecs"][2]["pythonPackageSpec"] = {"executorImageUri": REDUCTION_SERVER}
        assert "ps" in vertex.tf_configs(spec)["workerpool0-0"]["cluster"]
