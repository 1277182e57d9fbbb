"""The examples in the README, the docs and the docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib
import json
import pkgutil
import re
import warnings
from pathlib import Path

import pytest
from pydantic import BaseModel

import estconf
from estconf import RunConfig

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _modules() -> list[str]:
    # walking imports each package; estconf.contrib warns on import by design
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "estconf.contrib models", DeprecationWarning)
        names = [name for _, name, _ in pkgutil.walk_packages(estconf.__path__, "estconf.")]
    return sorted(name for name in names if not name.startswith("estconf.contrib"))


MODULES = _modules()  # estconf.contrib's own tests run its doctests


def python_blocks(path: Path) -> list[str]:
    return PYTHON_BLOCK.findall(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("path", "index"),
    [(path, index) for path in DOCUMENTS for index, _ in enumerate(python_blocks(path))],
    ids=lambda value: value.name if isinstance(value, Path) else str(value),
)
def test_python_blocks_run(path: Path, index: int) -> None:
    exec(compile(python_blocks(path)[index], f"{path.name}[{index}]", "exec"), {})


def test_readme_has_python_examples() -> None:
    assert python_blocks(ROOT / "README.md")


@pytest.mark.parametrize("module_name", MODULES)
def test_docstring_examples(module_name: str) -> None:
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


@pytest.mark.parametrize(
    "module_name", ["estconf.cluster", "estconf.tf_config", "estconf.run_config", "estconf.tpu"]
)
def test_models_document_an_example(module_name: str) -> None:
    result = doctest.testmod(importlib.import_module(module_name))
    assert result.attempted > 0


# Records of a result, each field documented in its class's docstring; the mirror of
# Kubernetes' and Kubeflow's own objects, whose fields those projects document.
_FIELDS_DOCUMENTED_ELSEWHERE = frozenset(
    {
        "estconf._cross_node.TaskDifference",
        "estconf._cross_node.ValueGroup",
        "estconf.cluster.ClusterSpec",
        "estconf.profiles.check.ReaderView",
        # Kubeflow's TFJob
        *(
            f"estconf.launchers.kubeflow.manifest.{name}"
            for name in (
                "Container",
                "ContainerPort",
                "EnvVar",
                "ObjectMeta",
                "PodSpec",
                "PodTemplateSpec",
                "ReplicaSpec",
                "TFJob",
                "TFJobSpec",
            )
        ),
        "estconf.launchers.kubeflow.operator.PredictedPod",
        # Kubernetes' own objects, and JobSet's and Kubeflow Trainer's
        *(
            f"estconf.launchers.kubernetes.{name}"
            for name in (
                "Container",
                "EnvFromSource",
                "EnvVar",
                "EnvVarSource",
                "KeyRef",
                "ObjectFieldSelector",
                "ObjectMeta",
                "PodSpec",
                "PodTemplateSpec",
                "SourceRef",
            )
        ),
        *(
            f"estconf.launchers.jobset.model.{name}"
            for name in (
                "Coordinator",
                "JobSet",
                "JobSetSpec",
                "JobSpec",
                "JobTemplateSpec",
                "Network",
                "ReplicatedJob",
            )
        ),
        *(
            f"estconf.launchers.jobset.trainer.{name}"
            for name in (
                "MLPolicy",
                "RuntimeRef",
                "TrainJob",
                "TrainJobSpec",
                "Trainer",
                "TrainingRuntime",
            )
        ),
    }
)


def _public_models() -> dict[str, type[BaseModel]]:
    models: dict[str, type[BaseModel]] = {}
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "estconf.contrib models", DeprecationWarning)
        for name in [*MODULES, "estconf.contrib"]:
            if any(part.startswith("_") for part in name.split(".")):
                continue
            module = importlib.import_module(name)
            for public in getattr(module, "__all__", ()):
                value = getattr(module, public)
                if isinstance(value, type) and issubclass(value, BaseModel):
                    models[f"{value.__module__}.{value.__qualname__}"] = value
    return models


PUBLIC_MODELS = _public_models()


@pytest.mark.parametrize(
    "model",
    [model for name, model in PUBLIC_MODELS.items() if name not in _FIELDS_DOCUMENTED_ELSEWHERE],
    ids=lambda model: model.__qualname__,
)
def test_every_field_of_a_public_model_is_described(model: type[BaseModel]) -> None:
    """The descriptions are what editors show from the JSON Schema, and what the API docs list.

    A derived property (a computed field) is described too: it is in the
    schema of what a model dumps.
    """
    described = {name: field.description for name, field in model.model_fields.items()}
    described |= {name: field.description for name, field in model.model_computed_fields.items()}
    assert {name for name, description in described.items() if not description} == set()


def test_the_models_whose_fields_are_documented_elsewhere_are_public_models() -> None:
    assert set(PUBLIC_MODELS) >= _FIELDS_DOCUMENTED_ELSEWHERE


def test_submodules_are_reachable_as_attributes() -> None:
    import subprocess
    import sys

    code = (
        "import estconf; assert estconf.tpu.TPUConfig is estconf.TPUConfig; "
        "assert estconf.session_config.ConfigProto; assert estconf.RunConfig"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _file_pipeline_codes() -> set[str]:
    """The codes the file pipeline, the input layer and the command give their errors."""
    import ast

    makers = {"error": 1, "refused": 1, "found": 0, "check_size": None, "too_deep": None}
    sources = [
        *(ROOT / "src" / "estconf" / "io").glob("*.py"),
        *(ROOT / "src/estconf/inputs").glob("*.py"),
        *(ROOT / "src/estconf/cli").glob("*.py"),
    ]
    codes = {"size", "depth"}  # check_size and too_deep write them
    for source in sources:
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            index = makers.get(name) if isinstance(name, str) else None
            if index is not None and len(node.args) > index:
                code = node.args[index]
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    codes.add(code.value)
    return codes


def test_every_file_error_code_is_documented() -> None:
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    section = text.split("## File errors", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE))
    codes = _file_pipeline_codes()
    assert {"syntax", "encoding", "unknown_key", "tag"} <= codes  # the source was read
    assert documented == codes


def test_changelog_describes_this_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## (\S+) - ", changelog, re.MULTILINE)
    assert versions[0] == estconf.__version__


def _reference_cluster_section() -> str:
    text = (ROOT / "docs" / "tf_config.md").read_text(encoding="utf-8")
    return text.split("## A reference cluster\n", 1)[1].split("\n## ", 1)[0]


def _cell(text: str) -> object:
    values = [value.strip().strip("`") for value in text.split(",")]
    if len(values) > 1 or values[0].startswith("/job:"):
        return values
    literals: dict[str, object] = {"True": True, "False": False, "None": None, "''": ""}
    if values[0] in literals:
        return literals[values[0]]
    return int(values[0]) if values[0].isdigit() else values[0]


def test_tf_config_page_shows_each_role_of_its_reference_cluster() -> None:
    section = _reference_cluster_section()
    cluster = json.loads(section.split("```json\n", 1)[1].split("```", 1)[0])
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[1:]]
    assert header[0] == "task"
    shown = set()
    for row in rows:
        task_type, _, index = row[0].partition(":")
        shown.add(task_type)
        tf_config = {"cluster": cluster, "task": {"type": task_type, "index": int(index)}}
        config = RunConfig(tf_config=tf_config)
        session = config.session_config
        actual = {name: getattr(config, name) for name in header[1:-1]}
        actual["device_filters"] = session and session.device_filters
        assert {name: _cell(cell) for name, cell in zip(header[1:], row[1:], strict=True)} == actual
        assert config.evaluation_master == ""
    assert shown == {*cluster, "evaluator"}
    assert len(rows) == sum(len(tasks) for tasks in cluster.values()) + 1


@pytest.mark.parametrize("path", [ROOT / "README.md", ROOT / "docs" / "cli.md"])
def test_pre_commit_snippets_pin_this_version(path: Path) -> None:
    pins = re.findall(r"^\s*rev: (\S+)$", path.read_text(encoding="utf-8"), re.MULTILINE)
    assert pins == [f"v{estconf.__version__}"]


def test_architecture_page_names_every_module() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    package = ROOT / "src" / "estconf"
    missing = []
    for source in sorted(package.rglob("*.py")):
        parts = source.relative_to(package).with_suffix("").parts
        if parts[-1] == "__init__":
            continue
        dotted = ".".join(("estconf", *parts))
        # a module is named in full, or by its own name in its package's row
        if f"`{dotted}`" not in text and f"`{parts[-1]}`" not in text:
            missing.append(dotted)
    assert missing == []


def test_the_code_and_docs_cite_only_documents_the_repository_has() -> None:
    """A rule is pointed at in docs/ or in TensorFlow's or a launcher's source, never elsewhere."""
    citation = re.compile(r"\bSPEC\b\s*(?:§|section|\d)|SPEC\.md")
    places = [*ROOT.glob("src/**/*.py"), *ROOT.glob("docs/*.md"), *ROOT.glob("tests/**/*.py")]
    cited = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in places
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if citation.search(line)
    ]
    assert cited == []
    section = re.compile(r"\bsection \d")  # the outside document's numbering
    numbered = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in [*ROOT.glob("src/**/*.py"), *ROOT.glob("docs/*.md")]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if section.search(line)
    ]
    assert numbered == []


def test_every_make_target_named_in_the_docs_exists() -> None:
    """A ``make <target>`` in the README or the docs is a rule of the Makefile."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    rules = set(re.findall(r"^([a-z][a-z-]*):", makefile, re.MULTILINE))
    phony = set(re.search(r"^\.PHONY:(.*)$", makefile, re.MULTILINE).group(1).split())  # type: ignore[union-attr]
    named = {
        target
        for path in DOCUMENTS
        for target in re.findall(r"`make ([a-z][a-z-]*)", path.read_text(encoding="utf-8"))
    }
    assert named, "the docs name no make target"
    assert named <= rules, sorted(named - rules)
    assert phony <= rules, sorted(phony - rules)
