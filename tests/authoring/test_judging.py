"""The judging digest covers the code a run imports or reads, and nothing else."""

import shutil

from authoring.judging import PACKAGE_ROOT, judging_digest, judging_files, judging_modules, tree_digest


def copy_of_authoring(tmp_path):
    shutil.copytree(PACKAGE_ROOT / "authoring", tmp_path / "authoring",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_the_closure_holds_the_runner_detectors_sandbox_and_launcher_but_not_the_cli_or_stage1():
    modules = judging_modules()
    assert {"authoring.pairs.runner", "authoring.detectors", "authoring.sandbox.evidence",
            "authoring.outcomes"} <= modules.keys()
    files = {path.relative_to(PACKAGE_ROOT).as_posix() for path in judging_files()}
    assert {"authoring/detectors/launcher.py", "authoring/sandbox/services/servicekit.py"} <= files
    assert not [f for f in files if f.startswith(("authoring/cli/", "authoring/stage1/", "calibration/"))]
    assert not {"authoring/settings.py", "authoring/pairs/receipts.py", "authoring/pairs/oracle_set.py",
                "authoring/pairs/mutate.py", "authoring/detectors/GUIDE.md"} & files


def test_a_change_to_judging_code_changes_the_digest_and_a_change_elsewhere_does_not(tmp_path):
    root = copy_of_authoring(tmp_path)
    before = tree_digest(root, "recipe")
    assert tree_digest(root, "recipe") == before and tree_digest(root, "other recipe") != before
    (root / "authoring" / "stage1" / "__init__.py").write_text("# an edit to Stage I\n", encoding="utf-8")
    assert tree_digest(root, "recipe") == before
    launcher = root / "authoring" / "detectors" / "launcher.py"
    launcher.write_text(launcher.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    assert tree_digest(root, "recipe") != before


def test_a_module_newly_imported_by_judging_code_joins_the_digest(tmp_path):
    root = copy_of_authoring(tmp_path)
    (root / "authoring" / "brand_new.py").write_text("VALUE = 1\n", encoding="utf-8")
    before = tree_digest(root, "recipe")
    outcomes = root / "authoring" / "outcomes.py"
    outcomes.write_text(outcomes.read_text(encoding="utf-8") + "\nfrom . import brand_new  # noqa\n")
    assert "authoring.brand_new" in judging_modules(root)
    changed = tree_digest(root, "recipe")
    (root / "authoring" / "brand_new.py").write_text("VALUE = 2\n", encoding="utf-8")
    assert len({before, changed, tree_digest(root, "recipe")}) == 3


def test_the_digest_of_this_checkout_is_stable_within_a_process():
    assert judging_digest() == judging_digest() and len(judging_digest()) == 64
