import subprocess
import sys
import tomllib
from importlib.metadata import version

from authoring import executor
from authoring.export import harbor
from authoring.version import PYPROJECT, toolkit_version


def test_the_installed_version_is_the_one_every_user_reads():
    assert toolkit_version() == version("v3ast")
    assert executor.toolkit_version is harbor.toolkit_version is toolkit_version


def test_a_source_tree_never_installed_reads_its_pyproject():
    """Without site-packages (-S) no v3ast is installed; the version is still the source tree's own."""
    code = "from authoring.version import toolkit_version; print(toolkit_version())"
    completed = subprocess.run([sys.executable, "-S", "-c", code], cwd=PYPROJECT.parent, capture_output=True,
                               text=True, check=True)
    assert completed.stdout.strip() == tomllib.loads(PYPROJECT.read_text())["project"]["version"]
