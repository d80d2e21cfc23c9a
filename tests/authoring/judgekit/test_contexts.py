"""A delivered job is started once per distinct deployment context: contexts whose shells hand a command the same
umask, aliases, functions and environment share a start; start-up code that changes any of them, or that never
lets the shell get to the command, gives its contexts starts of their own."""

import subprocess

from authoring.judgekit.contexts import JOBS, distinct_jobs


def starts(home, command="printf '%s' \"${DEMO_SWITCH-unset}\"; ll 2>/dev/null"):
    return {tuple(names): subprocess.run(argv, cwd=home, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                                         text=True, timeout=30).stdout
            for names, argv, env in distinct_jobs(command, str(home), str(home))}


def group_of(found, name):
    return next(names for names in found if name in names)


def test_every_context_is_started_once_and_an_interactive_only_switch_has_its_own_start(tmp_path):
    (tmp_path / ".bashrc").write_text('case $- in *i*) export DEMO_SWITCH=off ;; esac\n')
    found = starts(tmp_path)
    assert sorted(name for names in found for name in names) == sorted(JOBS)
    interactive, plain = group_of(found, "interactive shell"), group_of(found, "non-login bash")
    assert interactive != plain
    assert found[interactive].startswith("off") and found[plain].startswith("unset")
    assert len(found) < len(JOBS)


def test_an_alias_or_function_that_only_some_shells_define_separates_them(tmp_path):
    (tmp_path / ".bashrc").write_text("ll() { printf ' shadowed'; }\n")
    found = starts(tmp_path)
    interactive, plain = group_of(found, "interactive shell"), group_of(found, "non-login bash")
    assert interactive != plain
    assert found[interactive].endswith("shadowed") and not found[plain].endswith("shadowed")


def test_start_up_code_that_ends_the_shell_leaves_its_contexts_alone(tmp_path):
    (tmp_path / ".bashrc").write_text("case $- in *i*) exit 3 ;; esac\n")
    found = starts(tmp_path)
    assert ("interactive shell",) in found
    assert group_of(found, "non-login bash") != ("interactive shell",)
