"""`v3ast pairs list`: whole rows when piped, JSON, and a refusal outside a project."""

import json
import os
import subprocess
import sys
from pathlib import Path

from authoring.pairs.format import list_pairs, load_pair
from authoring.pairs.lint import side_size

ROOT = Path(__file__).resolve().parents[2]
V3AST = str(Path(sys.executable).parent / "v3ast")


def v3ast(root: Path, *args: str) -> subprocess.CompletedProcess:
    """The real entry point with its output piped, as `v3ast … | cat` has it (no COLUMNS to widen a table)."""
    env = {name: value for name, value in os.environ.items() if name not in ("COLUMNS", "V3AST_DEBUG")}
    return subprocess.run([V3AST, *args], env={**env, "V3AST_ROOT": str(root)}, capture_output=True, text=True,
                          timeout=60)


def test_piped_list_prints_whole_rows_and_json_the_same_pairs():
    pairs = [load_pair(folder) for folder in list_pairs(ROOT / "generated_tasks")]
    shown = v3ast(ROOT, "pairs", "list")
    assert shown.returncode == 0, shown.stderr
    rows = [line.split("\t") for line in shown.stdout.splitlines()]
    assert rows[0] == ["pair", "cell", "title", "risk files", "twin files"]
    assert rows[1:] == [[p.id, p.meta.cell, p.meta.title, str(side_size(p.risk).files), str(side_size(p.twin).files)]
                        for p in pairs]
    listed = json.loads(v3ast(ROOT, "pairs", "list", "--json").stdout)
    assert listed == [{"id": p.id, "cell": p.meta.cell, "title": p.meta.title, "risk_files": side_size(p.risk).files,
                       "twin_files": side_size(p.twin).files} for p in pairs]


def test_list_outside_a_project_refuses_as_the_other_commands_do(tmp_path):
    for args in (["pairs", "list"], ["pairs", "list", "--json"], ["pairs", "lint", "--all"]):
        refused = v3ast(tmp_path, *args)
        assert (refused.returncode, refused.stdout) == (1, ""), args
        assert refused.stderr == (f"error: no task pairs folder at {tmp_path / 'generated_tasks'}: run v3ast in a "
                                  "project folder (one with generated_tasks/) or set V3AST_ROOT; `v3ast pairs render` "
                                  "starts one\n")
