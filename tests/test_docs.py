"""The examples in the README, the docs and the docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import estconf

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(estconf.__path__, "estconf.")
    if not name.startswith("estconf.contrib")  # it warns by design; its own tests cover it
)


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


def test_submodules_are_reachable_as_attributes() -> None:
    import subprocess
    import sys

    code = (
        "import estconf; assert estconf.tpu.TPUConfig is estconf.TPUConfig; "
        "assert estconf.session_config.ConfigProto; assert estconf.RunConfig"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
