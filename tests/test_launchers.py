"""estconf.launchers: the registry of ``tf-config``'s launchers, and what each declares.

Also estconf._launchers: the kinds of config file each launcher reads.
"""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

import pytest

import estconf.launchers
from estconf._arguments import UsageError
from estconf._launchers import DOCUMENT_KINDS
from estconf.io import kinds
from estconf.launchers import LAUNCHERS, launcher, named
from estconf.launchers.base import COMMON, Notes, Pod, TFConfigs, refuse_larger_output
from values import refuses_assignment

PACKAGE = Path(estconf.launchers.__file__).parent


class TestTheRegistry:
    def test_it_lists_the_launchers_in_the_order_help_lists_them(self) -> None:
        names = [entry.name for entry in LAUNCHERS]
        assert names == [
            "cluster",
            "job",
            "tfjob",
            "jobset",
            "trainjob",
            "slurm",
            "sagemaker",
            "vertex",
            "volcano",
        ]

    def test_each_launcher_folder_has_an_entry(self) -> None:
        folders = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists()}
        modules = {entry.path.split(".")[2] for entry in LAUNCHERS}
        assert (
            folders
            == modules
            == {
                "cluster",
                "kubeflow",
                "jobset",
                "slurm",
                "sagemaker",
                "vertex",
                "volcano",
            }
        )

    def test_each_entry_names_its_launcher_in_its_folder(self) -> None:
        for entry in LAUNCHERS:
            module, _, attribute = entry.path.partition(":")
            assert module.endswith(".command")
            assert launcher(entry) is getattr(importlib.import_module(module), attribute)

    def test_each_summary_is_one_short_line(self) -> None:
        for entry in LAUNCHERS:
            assert "\n" not in entry.summary
            assert len(entry.summary) <= 90
            assert entry.summary[0].islower() and not entry.summary.endswith(".")

    def test_each_example_runs_its_launcher(self) -> None:
        for entry in LAUNCHERS:
            assert entry.example.startswith(f"estconf tf-config {entry.name} ")

    def test_a_launcher_is_found_by_name(self) -> None:
        assert named("slurm").path == "estconf.launchers.slurm.command:SLURM"
        with pytest.raises(KeyError):
            named("torque")

    def test_the_registry_imports_no_launcher(self) -> None:
        import subprocess
        import sys

        code = (
            "import sys\n"
            "import estconf.launchers\n"
            "print(sorted(m for m in sys.modules if m.startswith('estconf.launchers.')))"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert done.stdout == "[]\n"


class TestTheKindsTheyRead:
    def test_each_kind_is_read_by_a_launcher_of_the_registry(self) -> None:
        launchers = {entry.path.split(".")[2] for entry in LAUNCHERS}
        assert [(read.launcher, read.name) for read in DOCUMENT_KINDS] == [
            ("vertex", "vertex_custom_job")
        ]
        for read in DOCUMENT_KINDS:
            assert read.launcher in launchers

    def test_each_kind_names_its_model_and_checks_in_its_launcher(self) -> None:
        for read in DOCUMENT_KINDS:
            for path in (read.model_path, read.profile_check):
                assert path is not None
                module, _, name = path.partition(":")
                assert module.startswith(f"estconf.launchers.{read.launcher}.")
                assert callable(getattr(importlib.import_module(module), name))

    def test_the_documents_layer_reads_each_as_it_is_declared(self) -> None:
        """The launchers' kinds come after TensorFlow's own, so that keys tell those first."""
        assert list(kinds.KINDS)[-len(DOCUMENT_KINDS) :] == [read.name for read in DOCUMENT_KINDS]
        for read in DOCUMENT_KINDS:
            kind = kinds.get(read.name)
            assert (kind.title, kind.model_path, kind.profile_check, kind.description) == (
                read.title,
                read.model_path,
                read.profile_check,
                read.description,
            )
            assert kind.markers == read.markers
            assert kind.checks == ()

    def test_each_kubernetes_object_is_read_by_a_launcher_of_the_registry(self) -> None:
        from estconf._launchers import MANIFEST_KINDS

        launchers = {entry.path.split(".")[2] for entry in LAUNCHERS}
        assert [(read.api_group, read.kind) for read in MANIFEST_KINDS] == [
            ("jobset.x-k8s.io", "JobSet"),
            ("trainer.kubeflow.org", "TrainJob"),
            ("trainer.kubeflow.org", "TrainingRuntime"),
            ("trainer.kubeflow.org", "ClusterTrainingRuntime"),
        ]
        for read in MANIFEST_KINDS:
            assert read.launcher in launchers
            assert read.versions == (("v1alpha2",) if read.kind == "JobSet" else ("v1alpha1",))

    def test_the_declarations_import_nothing(self) -> None:
        import subprocess
        import sys

        code = (
            "import sys, estconf\n"
            "before = set(sys.modules)\n"
            "import estconf._launchers\n"
            "print(sorted(set(sys.modules) - before))"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert done.stdout == "['estconf._launchers']\n"


class TestEachLauncher:
    @pytest.mark.parametrize("entry", LAUNCHERS, ids=lambda entry: entry.name)
    def test_it_takes_only_the_shared_options_it_uses(self, entry: estconf.launchers.Entry) -> None:
        assert launcher(entry).takes <= COMMON

    @pytest.mark.parametrize("entry", LAUNCHERS, ids=lambda entry: entry.name)
    def test_its_older_spelling_is_an_option_or_the_cluster_file(
        self, entry: estconf.launchers.Entry
    ) -> None:
        spelled = launcher(entry).spelled
        assert spelled == "CLUSTER_FILE" if entry.name == "cluster" else spelled.startswith("--")

    @pytest.mark.parametrize("entry", LAUNCHERS, ids=lambda entry: entry.name)
    def test_alone_it_adds_no_option_that_chooses_it(self, entry: estconf.launchers.Entry) -> None:
        parser = argparse.ArgumentParser()
        launcher(entry).add_arguments(parser, alone=True)
        options = {option for action in parser._actions for option in action.option_strings}
        assert launcher(entry).spelled.split()[0] not in options


class TestBase:
    def test_an_output_at_the_limit_is_written(self) -> None:
        refuse_larger_output(argparse.Namespace(max_size=100), "--slurm", "2 ranks", 100)

    def test_a_larger_output_is_refused_with_its_size_and_the_fix(self) -> None:
        args = argparse.Namespace(max_size=100)
        with pytest.raises(UsageError) as info:
            refuse_larger_output(args, "--slurm", "2 ranks", 101, estimated=True, one="--rank R")
        assert str(info.value) == (
            "--slurm: the TF_CONFIGs of its 2 ranks would take about 101 bytes, more than "
            "--max-size 100"
        )
        assert info.value.hint == (
            "each rank's TF_CONFIG lists every rank's address, so the output grows as the "
            "square of the ranks: give a larger --max-size BYTES, or --rank R for one rank"
        )

    def test_a_launcher_without_one_tasks_option_offers_only_a_larger_limit(self) -> None:
        with pytest.raises(UsageError) as info:
            refuse_larger_output(argparse.Namespace(max_size=1), "x", "2 hosts", 2, one=None)
        assert info.value.hint is not None
        assert info.value.hint.endswith("the square of the hosts: give a larger --max-size BYTES")
        assert "about" not in str(info.value)

    def test_what_a_launcher_gives_is_a_value(self) -> None:
        refuses_assignment(TFConfigs([]))
        refuses_assignment(Notes(lines=["a note"], hints=["a hint"]))

    def test_what_a_launcher_gives_says_nothing_and_fails_nothing_by_default(self) -> None:
        found = TFConfigs([(("worker", 0), "{}")])
        assert (found.labels, found.notes, found.notes_after, found.failed, found.unreadable) == (
            None,
            Notes(),
            False,
            False,
            False,
        )

    def test_each_pod_is_an_output_under_its_label_unless_the_launcher_names_them(self) -> None:
        outputs = [(("worker", 0), "{}"), (("worker", 1), "{}")]
        assert TFConfigs(outputs).every_pod() == [Pod("worker:0", "{}"), Pod("worker:1", "{}")]
        assert TFConfigs(outputs, ["a", "b"]).every_pod() == [Pod("a", "{}"), Pod("b", "{}")]
        named = TFConfigs(outputs, pods=[Pod("job-worker-0", None)])
        assert named.every_pod() == [Pod("job-worker-0", None)]
        assert TFConfigs(None).every_pod() == []

    def test_labels_must_be_one_for_each_output(self) -> None:
        outputs = [(("worker", 0), "{}"), (("worker", 1), "{}")]
        with pytest.raises(ValueError, match="zip"):
            TFConfigs(outputs, ["a"]).every_pod()
        with pytest.raises(ValueError, match="zip"):
            TFConfigs(outputs, ["a", "b", "c"]).every_pod()

    @pytest.mark.parametrize(
        "found",
        [
            TFConfigs([(("worker", 0), "{}")]),
            TFConfigs([]),
            TFConfigs(None),
            TFConfigs([(("worker", 0), "{}")], pods=[]),
            TFConfigs([], pods=[Pod("job-worker-0", None)]),
            TFConfigs(None, pods=[Pod("job-worker-0", None)]),
        ],
    )
    def test_whether_there_is_a_pod_is_whether_every_pod_lists_one(self, found: TFConfigs) -> None:
        assert found.any_pod is bool(found.every_pod())


def test_estconf_distribute_still_names_slurms_placement() -> None:
    import estconf.distribute
    from estconf.launchers.slurm import placement

    for name in ("slurm_tf_configs", "rank_hosts", "misplaced_ranks"):
        assert getattr(estconf.distribute, name) is getattr(placement, name)
    with pytest.raises(AttributeError, match="has no attribute 'placement_of'"):
        estconf.distribute.placement_of  # noqa: B018
