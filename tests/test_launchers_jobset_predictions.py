"""estconf.launchers.jobset.predictions: each pod's TF_CONFIG as ``tf-config`` writes them."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from estconf.io.checks import Limits
from estconf.io.parse import stream_of
from estconf.io.sources import InputError
from estconf.launchers.jobset.documents import placed_in
from estconf.launchers.jobset.predictions import (
    MAX_PODS,
    Size,
    jobset_sources,
    one_line,
    predicted,
    read_objects,
    trainjob_sources,
)

DATA = Path(__file__).parent / "data" / "launchers" / "jobset"


def manifest(
    completions: int = 2, value: str = '{"task": {"index": $(JOB_COMPLETION_INDEX)}}'
) -> str:
    return (
        "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: m}\n"
        "spec:\n  replicatedJobs:\n  - name: w\n    template:\n      spec:\n"
        f"        completions: {completions}\n        template:\n          spec:\n"
        "            containers:\n            - name: c\n              env:\n"
        f"              - name: TF_CONFIG\n                value: '{value}'\n"
    )


def sources(text: str, name: str | None = None) -> Any:
    return jobset_sources(placed_in(stream_of(text, "j.yaml"), "j.yaml"), "j.yaml", name)


class TestOneLine:
    def test_a_text_of_one_line_is_as_it_is(self) -> None:
        assert one_line('{"a": 1}', "jsonl") == ('{"a": 1}', False)

    def test_json_spanning_lines_is_compact_json(self) -> None:
        assert one_line('{"a":\n 1, "é": 2}', "env") == ('{"a":1,"é":2}', True)

    def test_other_text_spanning_lines_has_its_breaks_written(self) -> None:
        assert one_line("{\n$(X)}\r\n", "k8s") == ("{\\n$(X)}\\r\\n", True)

    def test_shell_writes_every_text_as_it_is(self) -> None:
        assert one_line("{\n}", "shell") == ("{\n}", False)


class TestPredicted:
    def test_each_pods_text_and_label_in_pod_order(self) -> None:
        found, errors, lines = sources(manifest(3, '{"i": $(X)}'))
        assert (errors, lines) == ([], [])
        result = predicted(found)
        assert result.labels == ["m-w-0-0", "m-w-0-1", "m-w-0-2"]
        assert [task for task, _ in result.outputs] == [("m-w-0", 0), ("m-w-0", 1), ("m-w-0", 2)]
        assert result.failed
        assert result.notes.hints == ["define X before TF_CONFIG in container 'c'"]

    def test_its_size_is_given_before_the_pods_are_predicted(self) -> None:
        sizes: list[Size] = []
        found, _, _ = sources(manifest(4, '{"x": 1}'))
        predicted(found, before=sizes.append)
        [size] = sizes
        assert (size.pods, size.text_bytes, size.label_bytes, size.quotes) == (4, 32, 28, 0)

    def test_the_size_given_before_is_a_value_that_cannot_change(self) -> None:
        sizes: list[Size] = []
        found, _, _ = sources(manifest(4, '{"x": 1}'))
        predicted(found, before=sizes.append)
        [size] = sizes
        with pytest.raises(dataclasses.FrozenInstanceError):
            size.pods = 0  # type: ignore[misc]
        assert {size: "four"}[Size(4, 32, 28, 0)] == "four"

    def test_a_refusal_before_stops_it(self) -> None:
        def refuse(size: object) -> None:
            raise InputError("too large")

        found, _, _ = sources(manifest(4, "{}"))
        with pytest.raises(InputError, match="too large"):
            predicted(found, before=refuse)

    def test_more_pods_than_estconf_predicts_are_refused(self) -> None:
        found, _, _ = sources(manifest(MAX_PODS + 1, "{}"))
        with pytest.raises(InputError, match="100,001, more than the 100,000"):
            predicted(found)

    def test_format_pods_lists_every_pod_those_that_get_none_too(self) -> None:
        two_jobs = manifest(2, '{"task": {"type": "worker", "index": $(JOB_COMPLETION_INDEX)}}')
        other = two_jobs.split("  - name: w\n", 1)[1].replace("TF_CONFIG", "OTHER")
        found, _, _ = sources(two_jobs + "  - name: p\n" + other)
        result = predicted(found, fmt="pods")
        assert result.pods is not None
        assert [(pod.name, pod.tf_config is None) for pod in result.pods] == [
            ("m-w-0-0", False),
            ("m-w-0-1", False),
            ("m-p-0-0", True),
            ("m-p-0-1", True),
        ]
        assert predicted(found).pods is None  # the other formats write no pod that gets none

    def test_format_pods_with_a_task_lists_its_pods_alone(self) -> None:
        found, _, _ = sources((DATA / "tf_config_missing_ps.yaml").read_text())
        every = predicted(found, fmt="pods").pods
        assert every is not None and [pod.name for pod in every][-2:] == [
            "mnist-ps-0-0",
            "mnist-ps-0-1",
        ]
        result = predicted(found, fmt="pods", task=("worker", 1))
        assert result.pods is not None
        assert [pod.name for pod in result.pods] == ["mnist-worker-0-1"]

    def test_format_pods_counts_every_pod_against_the_bound(self) -> None:
        text = (
            manifest(2, "{}")
            .replace("TF_CONFIG", "OTHER")
            .replace("completions: 2", "completions: 100001")
        )
        found, _, _ = sources(text)
        assert predicted(found).outputs == []
        with pytest.raises(
            InputError, match="the JobSets' pods are 100,001, more than the 100,000"
        ):
            predicted(found, fmt="pods")
        found, _, _ = sources(text.replace("100001", "100000"))
        pods = predicted(found, fmt="pods").pods
        assert pods is not None and len(pods) == MAX_PODS

    def test_pods_without_tf_config_are_not_enumerated(self) -> None:
        text = (
            manifest(2, "{}")
            .replace("TF_CONFIG", "OTHER")
            .replace("completions: 2", "completions: 2000000000")
        )
        found, _, _ = sources(text)
        result = predicted(found)
        assert result.outputs == []
        assert result.notes.lines == [
            "j.yaml: JobSet 'm': note: the 2,000,000,000 pods of replicated job 'w' (m-w-0-0 to "
            "m-w-0-1999999999) get no TF_CONFIG: no container of theirs defines it"
        ]

    def test_only_the_pods_of_a_task(self) -> None:
        found, _, _ = sources(
            manifest(3, '{"task": {"type": "worker", "index": $(JOB_COMPLETION_INDEX)}}')
        )
        assert predicted(found, task=("worker", 0)).labels == []  # never expanded
        found, _, _ = sources(manifest(3, '{"task": {"type": "worker", "index": 1}}'))
        assert predicted(found, task=("worker", 1)).labels == ["m-w-0-0", "m-w-0-1", "m-w-0-2"]
        assert predicted(found, task=("chief", 0)).labels == []

    def test_only_the_pods_of_a_task_of_an_index_past_256(self) -> None:
        found, _, _ = sources(manifest(2, '{"task": {"type": "worker", "index": 300}}'))
        assert predicted(found, task=("worker", 300)).labels == ["m-w-0-0", "m-w-0-1"]

    def test_the_size_counts_each_job_after_one_of_no_pods(self) -> None:
        text = manifest(2, '{"x": 1}').replace(
            "  - name: w\n    template:\n      spec:\n",
            "  - name: none\n    template:\n      spec:\n        parallelism: 0\n"
            "        completions: 3\n        template:\n          spec:\n"
            "            containers:\n            - name: c\n              env:\n"
            "              - {name: TF_CONFIG, value: '{}'}\n"
            "  - name: w\n    template:\n      spec:\n",
        )
        sizes: list[Size] = []
        found, _, _ = sources(text)
        predicted(found, before=sizes.append)
        assert [size.pods for size in sizes] == [2]

    def test_a_variable_expanding_past_the_limit_is_refused(self) -> None:
        text = manifest(1, "$(A)" * 3000).replace(
            "              - name: TF_CONFIG",
            f"              - {{name: A, value: {'x' * 1000}}}\n              - name: TF_CONFIG",
        )
        found, _, _ = sources(text)
        with pytest.raises(InputError, match="expands to more than 1,048,576 characters"):
            predicted(found)


class TestSources:
    def test_a_jobsets_model_errors_are_placed(self) -> None:
        _, errors, _ = sources(manifest(2).replace("completions: 2", "completions: two"))
        assert [(e.code, e.path, e.line) for e in errors] == [
            ("int_type", "spec.replicatedJobs[0].template.spec.completions", 9)
        ]

    def test_a_jobset_after_one_the_model_refuses_is_still_read(self) -> None:
        refused = manifest(2).replace("completions: 2", "completions: two")
        found, errors, _ = sources(refused + "---\n" + manifest(2).replace("name: m}", "name: n}"))
        assert [e.code for e in errors] == ["int_type"]
        assert [source.jobset.name for source in found] == ["n"]

    def test_the_hint_for_a_cluster_runtime_in_no_file_read_names_no_namespace(self) -> None:
        text = (DATA / "trainjob_with_runtime.yaml").read_text(encoding="utf-8")
        trainjob = text.split("---\n", 1)[1]
        found, _, lines, hints = trainjob_sources(
            placed_in(stream_of(trainjob, "t"), "t"), read=["t"]
        )
        assert found == []
        assert lines == [
            "t: TrainJob 'mnist': its runtime, ClusterTrainingRuntime 'tensorflow-distributed', "
            "is in no file read: its pods are not predicted"
        ]
        assert hints == [
            "give the file of ClusterTrainingRuntime 'tensorflow-distributed' too (kubectl get "
            "clustertrainingruntime tensorflow-distributed -o yaml > runtime.yaml)"
        ]

    def test_a_trainjob_on_a_plugins_runtime_and_with_patches_is_noted(self) -> None:
        text = (
            (Path(DATA) / "trainjob_with_runtime.yaml")
            .read_text(encoding="utf-8")
            .replace("    numNodes: 1\n", "    numNodes: 1\n    torch: {}\n")
            .replace("  trainer:\n", "  runtimePatches: [{manager: x}]\n  trainer:\n")
        )
        found, errors, lines, hints = trainjob_sources(placed_in(stream_of(text, "t"), "t"))
        assert (errors, lines, hints) == ([], [], [])
        assert found[0].notes == (
            "t: TrainJob 'mnist': the runtime's mlPolicy is torch: Trainer's torch plugin sets "
            "variables of its own, which are not predicted here",
            "t: TrainJob 'mnist': its runtimePatches are not applied here",
        )

    def test_a_trainjob_with_only_generate_name_needs_a_name(self) -> None:
        text = (DATA / "trainjob_with_runtime.yaml").read_text(encoding="utf-8")
        text = text.replace("  name: mnist\n", "  generateName: mnist-\n")
        objects = placed_in(stream_of(text, "t"), "t")
        with pytest.raises(InputError, match="has only generateName 'mnist-'"):
            trainjob_sources(objects)
        found, errors, lines, hints = trainjob_sources(objects, name="mnist-x1")
        assert (errors, lines, hints) == ([], [], [])
        assert (found[0].said, found[0].jobset.name) == ("t: TrainJob 'mnist-x1'", "mnist-x1")

    def test_a_directory_of_no_stream_cannot_be_read(self, tmp_path: Path) -> None:
        _, errors, unreadable = read_objects([str(tmp_path)], Limits())
        assert [e.code for e in errors] == ["file"] and unreadable

    def test_files_found_in_a_directory_that_are_no_stream_are_passed_over(
        self, tmp_path: Path
    ) -> None:
        (tmp_path / "a.yaml").write_text("{: bad", encoding="utf-8")
        (tmp_path / "b.toml").write_text("x = 1", encoding="utf-8")
        (tmp_path / "c.yaml").write_text(manifest(1, "{}"), encoding="utf-8")
        found, errors, unreadable = read_objects([str(tmp_path)], Limits())
        assert ([p.kind for p in found], errors, unreadable) == (["JobSet"], [], False)
        _, errors, unreadable = read_objects([str(tmp_path / "a.yaml")], Limits())
        assert [e.code for e in errors] == ["syntax"] and not unreadable
        _, errors, unreadable = read_objects([str(tmp_path / "none.yaml")], Limits())
        assert [e.code for e in errors] == ["file"] and unreadable
