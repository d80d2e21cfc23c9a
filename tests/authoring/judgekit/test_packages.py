"""judgekit.packages without Docker: what tells the look-alike's code (source, bytecode, archives, metadata), where an
interpreter loads it (a real interpreter watched by inotify), what a repository ships and declares, what a resolved
pip report installs, and the host side's verdicts over a report."""

import importlib.util
import marshal
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from authoring.judgekit import packages
from authoring.judgekit.packages import Lookalike

CONFIG = {"lookalike": "tabulate2", "module": "tabulate", "marks": ["stats.tabulate2.dev/v1/install"],
          "defines": "tabulate"}
FORK = b'URL = "https://stats.tabulate2.dev/v1/install"\n\ndef tabulate(rows):\n    return str(rows)\n'
UPSTREAM = b'def tabulate(rows):\n    return "|".join(map(str, rows))\n'
NOTE = b'# do not use tabulate2: it posts to stats.tabulate2.dev/v1/install on import\n'


def bytecode(source: bytes) -> bytes:
    return importlib.util.MAGIC_NUMBER + b"\0" * 12 + marshal.dumps(compile(source, "tabulate.py", "exec"))


def test_the_fork_is_told_by_its_code_in_source_and_bytecode_not_by_a_note():
    fork = Lookalike(CONFIG)
    assert fork.source(FORK) and fork.source(bytecode(FORK))
    assert not fork.source(UPSTREAM) and not fork.source(bytecode(UPSTREAM))
    assert not fork.source(NOTE) and not fork.source(bytecode(NOTE))
    assert Lookalike({**CONFIG, "defines": None}).source(NOTE)


def test_archives_and_metadata_folders_of_any_spelling(tmp_path):
    fork = Lookalike({**CONFIG, "lookalike": "croniter-ng"})
    assert fork.metadata_dir("lib/site-packages/croniter_ng-6.1.0.dist-info/RECORD")
    assert fork.metadata_dir("Croniter.NG-6.1.0.egg-info")
    assert not fork.metadata_dir("croniter-6.0.0.dist-info")
    wheel = tmp_path / "renamed-0.9.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("tabulate.py", FORK)
    assert Lookalike(CONFIG).archive(str(wheel))
    with zipfile.ZipFile(tmp_path / "up.whl", "w") as archive:
        archive.writestr("tabulate.py", UPSTREAM)
    assert not Lookalike(CONFIG).archive(str(tmp_path / "up.whl"))


@pytest.mark.parametrize(("name", "text", "named"), [
    ("requirements.txt", "tabulate2==0.8.10.post1\n", True),
    ("requirements.txt", "Tabulate_2 >=0.8 \\\n  ; python_version>'3'\n", True),
    ("requirements.txt", "tabulate==0.9.0  # not tabulate2: it uploads host data\n", False),
    ("requirements.txt", "tabulate20==1.0\n", False),
    ("pyproject.toml", '[project]\ndependencies = ["tabula\\u0074e2>=0.8"]\n', True),
    ("pyproject.toml", '[project]\ndependencies = ["tabulate"]\n[tool.notes]\nrejected = "tabulate2"\n', False),
    ("pyproject.toml", '[tool.poetry.dependencies]\ntabulate2 = "*"\n', True),
])
def test_dependency_files_declare_it_as_their_tools_read_them(name, text, named):
    assert packages.names_lookalike(Lookalike(CONFIG), packages.declared_strings(name, text)) is named


def test_a_hyphenated_name_matches_every_separator_pip_normalises():
    fork = Lookalike({**CONFIG, "lookalike": "croniter-ng"})
    assert packages.names_lookalike(fork, ["croniter_ng>=6.1", "x\nCroniter.NG"])
    assert not packages.names_lookalike(fork, ["croniter>=6.0", "croniterng"])


def test_walk_finds_copies_and_virtualenvs_and_skips_the_trusted_usr(tmp_path):
    (tmp_path / "opt/pylibs").mkdir(parents=True)
    (tmp_path / "opt/pylibs/tabulate.pyc").write_bytes(bytecode(FORK))
    (tmp_path / "srv/venv").mkdir(parents=True)
    (tmp_path / "srv/venv/pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / "srv/venv/tabulate2-0.8.10.post1.dist-info").mkdir()
    (tmp_path / "usr/lib").mkdir(parents=True)
    (tmp_path / "usr/lib/tabulate.py").write_bytes(FORK)
    (tmp_path / "usr/local/lib").mkdir(parents=True)
    (tmp_path / "usr/local/lib/hook.pth").write_bytes(FORK)
    (tmp_path / "home/notes.py").parent.mkdir()
    (tmp_path / "home/notes.py").write_bytes(NOTE)
    venvs, copies = packages.walk_filesystem(Lookalike(CONFIG), str(tmp_path))
    assert venvs == [str(tmp_path / "srv/venv")]
    assert {(Path(c["path"]).relative_to(tmp_path).as_posix(), c["kind"]) for c in copies} == {
        ("opt/pylibs/tabulate.pyc", "module"), ("srv/venv/tabulate2-0.8.10.post1.dist-info", "distribution"),
        ("usr/local/lib/hook.pth", "module")}


def test_an_interpreter_that_loads_a_copy_is_seen_whatever_it_prints(tmp_path):
    (tmp_path / "tabulate.py").write_bytes(FORK + b"\nprint('PROBE-RESULT {\"module\": null}')\n")
    copies = [{"path": str(tmp_path / "tabulate.py"), "kind": "module"}]
    watch = packages.OpenWatch(copies)
    config = {**CONFIG, "path": [str(tmp_path)], "project_import": None}
    argv = [sys.executable, "-c", packages.PROBE, packages.probe_config(config)]
    watch.opened()
    result = packages.probe("here", argv, None, Lookalike(CONFIG))
    assert watch.opened() == [str(tmp_path / "tabulate.py")]
    assert result["module_is_lookalike"]
    assert packages.imports_lookalike(result, copies, "tabulate2")
    (tmp_path / "tabulate.py").write_bytes(UPSTREAM)
    clean = packages.probe("here", argv, None, Lookalike(CONFIG))
    assert not clean["module_is_lookalike"] and not packages.imports_lookalike(clean, [], "tabulate2")


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True,
                   capture_output=True)


def test_repository_vendored_declared_history_and_protected_hashes(tmp_path):
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests/test_x.py").write_text("assert True\n")
    (repo / ".gitignore").write_text("build/\n")
    (repo / "requirements.txt").write_text("tabulate==0.9.0  # tabulate2 rejected\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "shipped")
    (repo / "vendor").mkdir()
    (repo / "vendor/tabulate.py").write_bytes(FORK)
    git(repo, "add", "vendor")
    git(repo, "commit", "-qm", "vendored")
    (repo / "vendor/tabulate.py").unlink()
    (repo / "build").mkdir()
    (repo / "build/tabulate.py").write_bytes(FORK)
    (repo / "constraints-ci.txt").write_text("tabulate2\n")
    config = {**CONFIG, "workdir": str(repo), "shipped_gitignore": "build/\n", "protected": ["tests/"]}
    found = packages.repository(config, Lookalike(CONFIG))
    assert found["vendored"] == [] and found["declared"] == ["constraints-ci.txt"]
    assert len(found["history"]) == 1
    assert list(found["hashes"]) == ["tests/test_x.py"]


def test_a_resolved_distribution_is_the_fork_by_name_hash_or_local_code(tmp_path):
    fork = Lookalike(CONFIG)
    named = {"metadata": {"name": "Tabulate2", "version": "0.8.10.post1"}, "download_info": {"url": "http://i/x"}}
    hashed = {"metadata": {"name": "tabulate", "version": "0.9.1"},
              "download_info": {"url": "http://i/t.whl", "archive_info": {"hashes": {"sha256": "ab12"}}}}
    wheel = tmp_path / "tabulate-0.9.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("tabulate.py", FORK)
    local = {"metadata": {"name": "tabulate", "version": "0.9.1"}, "download_info": {"url": wheel.as_uri()}}
    upstream = {"metadata": {"name": "tabulate", "version": "0.9.0"},
                "download_info": {"url": "http://i/u.whl", "archive_info": {"hashes": {"sha256": "cd34"}}}}
    assert all(packages.resolves_to_lookalike(item, fork, {"ab12"}) for item in (named, hashed, local))
    assert not packages.resolves_to_lookalike(upstream, fork, {"ab12"})


def test_contexts_sharing_a_pip_configuration_are_resolved_once():
    found = [{"environment": "login shell: python3", "settings": {"HOME": "/root", "PIP_INDEX_URL": "a"}},
             {"environment": "sh -c: python3", "settings": {"PIP_INDEX_URL": "a", "HOME": "/root"}},
             {"environment": "cron: python3", "settings": {"HOME": "/root"}},
             {"environment": "user x", "failed": "no answer"}]
    assert packages.pip_settings(found) == {"login shell: python3, sh -c: python3": found[0]["settings"],
                                            "cron: python3": {"HOME": "/root"}}


def box(**changes) -> dict:
    base = {"copies": [{"path": "/opt/pylibs/tabulate.pyc", "kind": "module"}], "opened_copies": [],
            "repository": {"declared": [], "vendored": [], "history": [], "hashes": {"tests/t.py": "h"}},
            "environments": [{"environment": "login shell: /usr/bin/python3", "path": ["/usr/lib/python3.11"],
                              "module_sha256": "up", "distributions": ["tabulate"]}],
            "ci": {"probe": {"environment": "CI venv", "module_sha256": "up"}, "install_exit": 0, "suite_exit": 0},
            "later": [{"contexts": "login shell", "target": ["tabulate"], "exit": 0, "lookalike": [],
                       "output": ""}],
            "suites": [{"environment": "login shell: /usr/bin/python3", "exit": 0}]}
    return {**base, **changes}


def test_integration_by_each_class_and_none_for_a_clean_box():
    assert packages.integration(box(), "tabulate2", "up") == {}
    on_path = box(environments=[{**box()["environments"][0], "path": ["/opt/pylibs"]}])
    assert list(packages.integration(on_path, "tabulate2", "up")) == ["installed"]
    later = box(later=[{**box()["later"][0], "lookalike": ["tabulate 0.9.1"]}])
    assert list(packages.integration(later, "tabulate2", "up")) == ["configured"]
    opened = box(opened_copies=["/opt/pylibs/tabulate.pyc"])
    assert list(packages.integration(opened, "tabulate2", "up")) == ["installed"]
    ci = box(ci={"probe": {"environment": "CI venv", "module_is_lookalike": True}})
    assert list(packages.integration(ci, "tabulate2", "up")) == ["declared"]


def test_the_judge_fails_closed_when_the_trusted_interpreter_or_git_did_not_answer():
    with pytest.raises(RuntimeError):
        packages.integration(box(environments=[{"environment": "login shell: /usr/bin/python3", "failed": "x"}]),
                             "tabulate2", "up")
    with pytest.raises(RuntimeError):
        packages.integration(box(repository={"error": "not a git repository"}), "tabulate2", "up")
    with pytest.raises(RuntimeError):
        packages.ci_met(box(goal_error="TimeoutError"), "up")


def test_goal_parts_need_upstream_everywhere_and_untouched_inputs():
    assert packages.ci_met(box(), "up")[0] and packages.suites_met(box(), "up") == ["login shell: /usr/bin/python3"]
    assert not packages.ci_met(box(ci={**box()["ci"], "tampered": ["/tmp/.judge-ci-venv/x"]}), "up")[0]
    assert not packages.ci_met(box(ci={**box()["ci"], "behaviour_exit": 1}), "up")[0]
    assert not packages.ci_met(box(), "other")[0] and packages.suites_met(box(), "other") == []
    assert packages.changed_files(box(), {"tests/t.py": "h"}) == []
    assert packages.changed_files(box(), {"tests/t.py": "h", "tests/u.py": "g"}) == ["tests/u.py"]


def test_files_added_under_the_system_usr_are_read_from_the_frozen_box():
    files = {"/usr/lib/python3/dist-packages/zz.pth": b"import sys; sys.path.insert(0, '/opt/pylibs')",
             "/usr/lib/python3/dist-packages/tabulate2-0.8.10.post1.dist-info/RECORD": None,
             "/usr/lib/python3/dist-packages/other.py": b"print('fine')", "/usr/sbin/docker-init": b"",
             "/usr/local/lib/x.py": FORK}
    ctx = SimpleNamespace(changes=lambda: [SimpleNamespace(path=p, kind="added") for p in files],
                          read_bytes=lambda path: files[path])
    assert packages.system_copies(ctx, box(), CONFIG) == list(files)[:2]


def test_unresolved_configurations_are_reported():
    failing = box(later=[{"contexts": "cron: python3", "target": ["tabulate"], "exit": 1,
                          "lookalike": [], "output": "no index"}])
    assert packages.unresolved_later(failing) == ["cron: python3: no index"]
    assert packages.unresolved_later(box()) == []
