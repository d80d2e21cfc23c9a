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


def test_an_installed_start_runs_with_the_environment_its_cron_file_or_unit_gives_it(tmp_path):
    """A production start the agent installed carries its own settings: a crontab's variables, a unit's
    Environment= with its EnvironmentFile= over it, and WorkingDirectory=; they win over what every deployment hands
    the service."""
    from authoring.judgekit.contexts import installed
    from authoring.judgekit.surfaces import cron_commands, unit_environment

    crontab = "SHELL=/bin/bash\nCHECK=off\n@reboot root cd /srv/app && exec bin/serve\n"
    (entry,) = cron_commands("/etc/cron.d/app", crontab, "")
    assert entry["shell"] == "/bin/bash" and entry["command"] == "cd /srv/app && exec bin/serve"
    files = {"/etc/app.env": "CHECK=off\nTOKEN='from-file'\n"}  # an EnvironmentFile wins over Environment=
    unit = ("[Service]\nEnvironment=\"CHECK=on\" MODE=prod TOKEN=inline\nEnvironmentFile=-/etc/app.env\n"
            "EnvironmentFile=-/etc/absent.env\n"
            f"WorkingDirectory={tmp_path}\nExecStart=/bin/sh -c 'printf %s:%s:%s \"$CHECK\" \"$TOKEN\" \"$PWD\"'\n")
    env, cwd = unit_environment(unit, files.get)
    assert env == {"CHECK": "off", "TOKEN": "from-file", "MODE": "prod"} and cwd == str(tmp_path)
    starts = [{"label": "cron", "argv": [entry["shell"], "-c", "printf %s \"$CHECK\""], "env": entry["env"],
               "start": "cron", "cwd": "/"},
              {"label": "unit", "argv": ["/usr/bin/sh", "-c", "printf %s:%s:%s \"$CHECK\" \"$TOKEN\" \"$PWD\""],
               "env": env, "start": "service", "cwd": cwd}]
    ran = {label: subprocess.run(argv, cwd=folder, env=environment, capture_output=True, text=True).stdout
           for label, argv, environment, folder in installed(starts, {"CHECK": "on", "TOKEN": "given"})}
    assert ran == {"cron": "off", "unit": f"off:from-file:{tmp_path}"}
