"""Check the contents of the wheel and the sdist that ``make dist`` builds.

``python tests/check_dist.py DIST_DIR`` looks for exactly one wheel and one
sdist of this version in ``DIST_DIR`` and checks that the wheel holds the
package with its ``py.typed`` marker and the license, and requires only the
library's own dependencies unless an extra is asked for, and that the sdist
holds what it takes to run the tests and build the docs.
"""

from __future__ import annotations

import re
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

from estconf import __version__

CORE_DEPENDENCIES = {"pydantic", "ruamel-yaml", "tomli"}  # names normalized as in PEP 503
WHEEL_FILES = {
    "estconf/__init__.py",
    "estconf/_version.py",
    "estconf/cli/__init__.py",
    "estconf/io/error_codes.json",
    "estconf/py.typed",
}
SDIST_FILES = {
    "pyproject.toml",
    "README.md",
    "CHANGELOG.md",
    "LICENSE",
    "Makefile",
    "mkdocs.yml",
    "mypy.ini",
    "src/estconf/py.typed",
    "tests/conftest.py",
    "tests/cli_docs.py",
    "docs/index.md",
    "examples/run_config.yaml",
    "schemas/run_config.schema.json",
}


def _one(directory: Path, pattern: str) -> Path:
    found = sorted(directory.glob(pattern))
    if len(found) != 1:
        raise SystemExit(f"expected one {pattern} in {directory}, found {found}")
    return found[0]


def check_wheel(path: Path) -> list[str]:
    """Return the problems of the wheel at ``path``."""
    with zipfile.ZipFile(path) as wheel:
        names = set(wheel.namelist())
        info = f"estconf-{__version__}.dist-info"
        metadata = Parser().parsestr(wheel.read(f"{info}/METADATA").decode())
    problems = [f"wheel lacks {name}" for name in sorted(WHEEL_FILES - names)]
    if not any(name.startswith(f"{info}/licenses/LICENSE") for name in names):
        problems.append("wheel lacks the LICENSE")
    problems += [f"wheel holds {name}" for name in sorted(names) if name.startswith("tests/")]
    if metadata["Version"] != __version__:
        problems.append(f"wheel version {metadata['Version']} is not {__version__}")
    for requirement in metadata.get_all("Requires-Dist") or []:
        name = re.sub(r"[-_.]+", "-", re.split(r"[^A-Za-z0-9._-]", requirement)[0]).lower()
        if "extra ==" not in requirement and name not in CORE_DEPENDENCIES:
            problems.append(f"wheel requires {requirement!r} outside an extra")
    return problems


def check_sdist(path: Path) -> list[str]:
    """Return the problems of the sdist at ``path``."""
    prefix = f"estconf-{__version__}/"
    with tarfile.open(path) as sdist:
        names = {name.removeprefix(prefix) for name in sdist.getnames()}
    return [f"sdist lacks {name}" for name in sorted(SDIST_FILES - names)]


def main(directory: Path) -> int:
    """Check the distributions in ``directory``; print problems; return the exit status."""
    wheel = _one(directory, f"estconf-{__version__}-py3-none-any.whl")
    sdist = _one(directory, f"estconf-{__version__}.tar.gz")
    problems = check_wheel(wheel) + check_sdist(sdist)
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"{wheel.name} and {sdist.name}: contents as expected")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/check_dist.py DIST_DIR")
    sys.exit(main(Path(sys.argv[1])))
