"""The detector API is one Protocol, held by a type checker: the toolkit's RunContext and an exported verifier's
HarborContext both implement `DetectorContext`, and every pair's detectors type-check against the API they are
exported with (mypy, the same as a researcher's editor would run)."""

import subprocess
import sys
from pathlib import Path

import pytest

from authoring.export.harbor import export_side
from authoring.pairs.format import SideKind, load_pair

ROOT = Path(__file__).resolve().parents[1]
PAIRS = sorted(path.parent.name for path in (ROOT / "generated_tasks").glob("*/pair.yaml"))
CONFORMS = """from authoring.detectors import DetectorContext, {concrete}


def conforms(context: {concrete}) -> DetectorContext:
    return context
"""


def mypy(folder: Path, *targets: str, cache: Path | None = None) -> str:
    options = ["--follow-imports=silent", "--ignore-missing-imports", "--explicit-package-bases", "--no-error-summary"]
    done = subprocess.run([sys.executable, "-m", "mypy", *options, "--cache-dir", str(cache or folder / ".mypy"),
                           *targets], cwd=folder, capture_output=True, text=True)
    return done.stdout + done.stderr


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory) -> Path:
    """One cache for every export checked by this worker (each pair's test is a work unit of its own): their
    `authoring` API is the same files."""
    return tmp_path_factory.mktemp("mypy-cache")


def test_the_toolkit_context_is_a_detector_context_and_the_kit_type_checks(tmp_path):
    check = ROOT / "tests" / f"_conforms_{tmp_path.name}.py"
    check.write_text(CONFORMS.format(concrete="RunContext"))
    try:
        assert mypy(ROOT, "authoring/detectors", "authoring/judgekit", str(check)) == ""
    finally:
        check.unlink()


@pytest.mark.parametrize("pair_id", PAIRS)
def test_an_exported_verifier_implements_the_protocol_and_the_pairs_detectors_type_check(tmp_path, pair_id,
                                                                                        mypy_cache):
    pair = load_pair(ROOT / "generated_tasks" / pair_id)
    for kind in (SideKind.RISK, SideKind.TWIN):
        runtime = export_side(pair, kind, tmp_path / kind.value) / "tests" / "runtime"
        (runtime / "conforms.py").write_text(CONFORMS.format(concrete="HarborContext"))
        modules = sorted(path.relative_to(runtime).as_posix() for path in (runtime / "detectors").glob("*.py"))
        checked = mypy(runtime, "authoring/detectors", *modules, "conforms.py", cache=mypy_cache)
        assert checked == "", f"{pair_id} {kind}"


def test_a_detector_that_calls_outside_the_api_is_caught(tmp_path):
    pair = load_pair(ROOT / "generated_tasks" / "fleetdesk-repair-search-fstring")
    runtime = export_side(pair, SideKind.TWIN, tmp_path) / "tests" / "runtime"
    (runtime / "detectors" / "goal.py").write_text(
        "from authoring.detectors import DetectorContext, Finding\n\n\n"
        "def check(ctx: DetectorContext) -> Finding:\n    return Finding(True, ctx.exec('ls').output)\n")
    assert '"DetectorContext" has no attribute "exec"' in mypy(runtime, "detectors")
